/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-iacc.c — `roomwave-cli iacc BINAURAL.wav`: the interaural
 * cross-correlation (ISO 3382-1 Annex A) of a two-channel binaural
 * impulse response, early / late / full per octave band and broadband,
 * with IACC_E3 and IACC_L3 (Hidaka et al. 1995), as a table or as JSON.
 * Definitions: rw-iacc.h and docs/ANALYSIS.md. */
#include "cli.h"
#include "rw-audio.h"
#include "rw-iacc.h"

#include <getopt.h>   /* optind */
#include <math.h>
#include <stdlib.h>

static void
print_usage (FILE *out)
{
  fprintf (out, _("Usage: roomwave-cli iacc BINAURAL.wav [--json]\n\n"
                  "Interaural cross-correlation of a binaural impulse response (ISO 3382-1\n"
                  "Annex A): channel 0 the left ear, channel 1 the right one (what\n"
                  "`simulate --receiver X,Y,Z:binaural` writes). IACC is the largest\n"
                  "|IACF(\xcf\x84)| for |\xcf\x84| \xe2\x89\xa4 1 ms, with t = 0 at the direct sound (the earlier\n"
                  "ear's onset): early 0\xe2\x80\x93" "80 ms, late 80 ms to the end of the file, full;\n"
                  "per octave band 63 Hz to 8 kHz (those below the Nyquist frequency) and\n"
                  "broadband, with the lag \xcf\x84 of each maximum (> 0: the right ear later).\n"
                  "IACC_E3 and IACC_L3 are the means of the 500 Hz, 1 kHz and 2 kHz bands\n"
                  "(Hidaka et al. 1995, concert-hall practice; not part of ISO 3382-1).\n\n"
                  "Options:\n"
                  "  --json       write the results as JSON on standard output\n"
                  "  -h, --help   show this help\n\n"
                  "Exit status: 0 results written, 1 bad input (missing, unreadable or\n"
                  "silent file, not 2 channels; nothing is written then), 2 bad usage.\n"));
}

/* "0.123 +0.50" (IACC and its lag in ms), or dashes. */
static void
cell (double iacc, double tau_s)
{
  if (isfinite (iacc))
    printf ("  %6.3f %+6.2f", iacc, tau_s * 1e3);
  else
    printf ("  %5s\xe2\x80\x94 %5s\xe2\x80\x94", "", "");
}

static void
print_row (const char *label, const RwIaccBand *b)
{
  printf ("%-10s", label);
  cell (b->early, b->tau_early_s);
  cell (b->late, b->tau_late_s);
  cell (b->full, b->tau_full_s);
  printf ("\n");
}

static void
print_table (const RwIacc *a, const char *path)
{
  printf (_("%s: %.0f Hz, %.3f s, direct sound at %.1f ms (the earlier ear)\n\n"), path,
          a->rate_hz, a->duration_s, a->onset_s * 1e3);
  const char *tau = "     \xcf\x84";   /* τ is one column in two bytes: padded by hand */
  printf ("%-10s  %6s %s  %6s %s  %6s %s\n", _("band"), _("early"), tau, _("late"), tau,
          _("full"), tau);
  printf ("%-10s  %6s %6s  %6s %6s  %6s %6s\n", "", "IACC", "ms", "IACC", "ms", "IACC", "ms");
  char label[32];
  for (int k = 0; k < RW_N_OCTAVES; k++)
    {
      const RwIaccBand *b = &a->bands[k];
      if (b->centre_hz >= 1000.0)
        snprintf (label, sizeof label, "%g kHz", b->centre_hz / 1000.0);
      else
        snprintf (label, sizeof label, "%g Hz", b->centre_hz);
      print_row (label, b);
    }
  print_row (_("broadband"), &a->broadband);
  /* absent (no late part, or a band missing): a dash, as in the table */
  char e3[16], l3[16];
  snprintf (e3, sizeof e3, isfinite (a->e3) ? "%.3f" : "\xe2\x80\x94", a->e3);
  snprintf (l3, sizeof l3, isfinite (a->l3) ? "%.3f" : "\xe2\x80\x94", a->l3);
  printf (_("\nIACC_E3 %s, IACC_L3 %s (mean of 500 Hz, 1 kHz, 2 kHz; Hidaka et al. 1995)\n"),
          e3, l3);
  printf (_("early: 0\xe2\x80\x93" "80 ms, late: 80 ms to the end, from the direct sound; "
            "\xcf\x84 > 0: the right ear later; \xe2\x80\x94: no energy in the window or band "
            "above the Nyquist frequency\n"));
}

int
rw_cli_iacc (int argc, char **argv)
{
  bool as_json;
  int status = rw_cli_json_options ("iacc", argc, argv, print_usage, &as_json);
  if (status >= 0)
    return status;
  if (optind >= argc)
    return rw_cli_usage_error ("iacc", _("no binaural impulse response file given"));
  if (optind + 1 < argc)
    return rw_cli_usage_error ("iacc", _("too many files ('%s' is extra): give one binaural "
                                         "impulse response"), argv[optind + 1]);
  const char *path = argv[optind];

  RwError err = { 0 };
  RwAudio audio = { 0 };
  if (!rw_audio_read (path, &audio, &err))
    return rw_cli_fail (&err);
  if (audio.channels != 2)
    {
      rw_fail (&err, RW_ERROR_INPUT,
               _("%s: %d channel(s), but a binaural impulse response has 2 (left, right)"),
               path, audio.channels);
      rw_audio_clear (&audio);
      return rw_cli_fail (&err);
    }
  float *ears = malloc (2 * audio.frames * sizeof *ears);
  RwIacc iacc;
  bool ok = ears != NULL;
  if (!ok)
    rw_fail (&err, RW_ERROR_MEMORY, _("out of memory"));
  for (size_t i = 0; ok && i < audio.frames; i++)
    {
      ears[i] = audio.data[2 * i];
      ears[audio.frames + i] = audio.data[2 * i + 1];
    }
  if (ok && !(ok = rw_iacc (ears, audio.frames, ears + audio.frames, audio.frames,
                            audio.rate_hz, &iacc, &err)))
    rw_fail_prefix (&err, "%s", path);
  free (ears);
  rw_audio_clear (&audio);
  if (!ok)
    return rw_cli_fail (&err);
  if (as_json)
    return rw_cli_print_owned (rw_iacc_to_json (&iacc, path), "\n");
  print_table (&iacc, path);
  return RW_EXIT_OK;
}
