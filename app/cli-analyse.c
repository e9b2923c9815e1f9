/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-analyse.c — `roomwave-cli analyse IR…`: ISO 3382-1 parameters of
 * impulse responses per octave band (63 Hz … 8 kHz) and broadband, as a
 * table or as JSON (--json); given several IRs (positions), also their
 * spatial average. Definitions and the JSON schema: docs/ANALYSIS.md.
 *
 * A folder argument is a results folder (docs/RESULTS.md, read with
 * rw_results_read): every receiver WAV it lists, or those of each of its
 * source-N/ folders.
 *
 * Validity (rw_results_validity / rw_results_read_validity, rw-results.h):
 * --fmax wins (a number or none: the results' validity is then not used,
 * no methods or crossover either); else what the results folder, or a
 * results.json beside the IR, says: a wave-only run is valid to its
 * fmax_hz, a hybrid one (issue #12) to the Nyquist frequency, with the
 * method that made each band and the crossover; else none (a measured
 * IR). Bands whose upper edge lies above fmax are marked in both
 * outputs; the methods are a column of the table (hybrid IRs) and
 * "method" per band in the JSON. */
#include "cli.h"
#include "rw-analysis.h"
#include "rw-audio.h"
#include "rw-compare.h"
#include "rw-results.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void
print_usage (FILE *out)
{
  fprintf (out, _("Usage: roomwave-cli analyse IR|DIR [IR|DIR…] [--channel N] [--fmax HZ] [--json]\n\n"
                  "Room-acoustic parameters of an impulse response (ISO 3382-1) per octave\n"
                  "band, 63 Hz to 8 kHz, and broadband: EDT, T20, T30 from the Schroeder\n"
                  "decay with Lundeby noise compensation, C50, C80, D50 and the centre time Ts.\n"
                  "A value the decay range does not support is shown as \xe2\x80\x94 with the reason.\n"
                  "Given several IRs (source and receiver positions), each is analysed and\n"
                  "their spatial average follows: the mean of each value over the IRs that\n"
                  "have it (ISO 3382-1 \xc2\xa7" "7).\n"
                  "A folder DIR is a results folder (what `simulate --out DIR` writes, or\n"
                  "NAME.results/ of a saved project): every receiver WAV its results.json\n"
                  "lists, those of each DIR/source-N/ where it holds several sources.\n\n"
                  "Options:\n"
                  "  --channel N  channel of a multichannel file, counted from 0\n"
                  "  --fmax HZ    highest valid frequency of a simulated IR: bands reaching\n"
                  "               above it are marked. Default: what the results folder,\n"
                  "               or a results.json beside IR, says: fmax_hz of a wave-only\n"
                  "               run; for a hybrid (full-band) run the Nyquist frequency,\n"
                  "               no band is marked and the table names the method of each\n"
                  "               band (wave, geometrical, both); else none (a measured IR).\n"
                  "               Given, --fmax wins and the results.json is ignored; 'none'\n"
                  "               treats the IR as measured\n"
                  "  --json       write the results as JSON on standard output (several IRs:\n"
                  "               {\"files\": [...], \"average\": {...}})\n"
                  "  -h, --help   show this help\n\n"
                  "Exit status: 0 results written, 1 bad input (missing, unreadable, empty or\n"
                  "silent audio file, bad results.json or results folder; nothing is written\n"
                  "then), 2 bad usage.\n"));
}

/* "%7.3f" or a dash, right-aligned in `width` columns. */
static void
cell (double v, int width, int decimals)
{
  if (isfinite (v))
    printf (" %*.*f", width, decimals, v);
  else
    printf (" %*s\xe2\x80\x94", width - 1, "");   /* the dash is one column wide */
}

static void
print_row (const RwBandResult *b, const char *label, bool methods)
{
  printf ("%-10s", label);
  if (methods)
    printf (" %-12s", rw_band_method_label (b->method));
  cell (b->edt.value_s, 6, 2);
  cell (b->t20.value_s, 6, 2);
  cell (b->t30.value_s, 6, 2);
  cell (b->C50_db, 7, 1);
  cell (b->C80_db, 7, 1);
  cell (b->D50, 6, 2);
  cell (b->Ts_s * 1e3, 7, 0);
  cell (b->decay_range_db, 7, 1);
  cell (b->noise_floor_db, 8, 1);
  printf ("\n");
}

static void
band_label (const RwBandResult *b, bool broadband, char *buf, size_t size)
{
  if (broadband)
    snprintf (buf, size, "%s", _("broadband"));
  else if (b->centre_hz >= 1000.0)
    snprintf (buf, size, "%g kHz%s", b->centre_hz / 1000.0, b->above_fmax ? "*" : "");
  else
    snprintf (buf, size, "%g Hz%s", b->centre_hz, b->above_fmax ? "*" : "");
}

static void
print_table (const RwAnalysis *a, const char *path, const char *fmax_source)
{
  if (a->n_averaged > 0)
    printf (_("Spatial average of %zu impulse responses (ISO 3382-1: the mean of each value "
              "over the IRs that have it)\n"), a->n_averaged);
  else
    printf (_("%s: %.0f Hz, %.3f s, onset at %.1f ms\n"), path, a->rate_hz, a->duration_s,
            a->onset_s * 1e3);
  /* a hybrid IR (its crossover known): every band valid, each made by a
   * method the table names */
  const bool methods = isfinite (a->crossover_hz);
  if (methods)
    printf (_("full band, valid up to %.0f Hz (%s): wave part below the crossover %.0f Hz, "
              "geometrical part above it\n"), a->fmax_hz, fmax_source, a->crossover_hz);
  else if (isfinite (a->fmax_hz))
    printf (_("valid up to fmax = %.0f Hz (%s)\n"), a->fmax_hz, fmax_source);
  else
    printf (_("no fmax: every band is treated as valid (a measured IR)\n"));
  printf ("\n%-10s", _("band"));
  if (methods)
    printf (" %-12s", _("method"));
  printf (" %6s %6s %6s %7s %7s %6s %7s %7s %8s\n", "EDT", "T20", "T30",
          "C50", "C80", "D50", "Ts", _("range"), _("noise"));
  printf ("%-10s", "");
  if (methods)
    printf (" %-12s", "");
  printf (" %6s %6s %6s %7s %7s %6s %7s %7s %8s\n", "s", "s", "s", "dB", "dB", "", "ms",
          "dB", "dB");

  bool any_above = false;
  char label[64];
  for (int k = 0; k < RW_ANALYSIS_N_BANDS; k++)
    {
      const RwBandResult *b = &a->bands[k];
      bool bb = k == RW_ANALYSIS_BROADBAND;
      band_label (b, bb, label, sizeof label);
      print_row (b, label, methods);
      any_above = any_above || b->above_fmax;
    }
  if (methods)
    printf (_("\nmethod: wave: FDTD below the crossover %.0f Hz; geometrical: image sources + "
              "rays; both: the crossover band, the two joined\n"), a->crossover_hz);
  if (any_above)
    printf (_("\n* band reaches above fmax = %.0f Hz: the simulation resolves it only in "
              "part (values shown) or not at all (values absent)\n"), a->fmax_hz);
  if (a->n_averaged > 0)
    printf (_("\nrange, noise: the smallest decay range and the highest noise of the IRs\n"));
  else
    printf (_("\nrange: decay range of the EDC (dB) down to the Lundeby truncation point; "
              "noise: background noise, dB re the peak\n"));

  bool header = false;
  for (int k = 0; k < RW_ANALYSIS_N_BANDS; k++)
    {
      const RwBandResult *b = &a->bands[k];
      band_label (b, k == RW_ANALYSIS_BROADBAND, label, sizeof label);
      const RwDecayFit *fits[3] = { &b->edt, &b->t20, &b->t30 };
      const char *names[3] = { "EDT", "T20", "T30" };
      if (!b->analysed)
        {
          if (!header)
            printf (_("\nAbsent values:\n"));
          header = true;
          printf ("  %s: %s\n", label, b->absent_reason);
          continue;
        }
      for (int i = 0; i < 3; i++)
        if (!isfinite (fits[i]->value_s))
          {
            if (!header)
              printf (_("\nAbsent values:\n"));
            header = true;
            printf ("  %s %s: %s\n", label, names[i], fits[i]->absent_reason);
          }
      if (b->ratios_absent_reason[0])
        {
          if (!header)
            printf (_("\nAbsent values:\n"));
          header = true;
          printf (_("  %s C50, C80, D50, Ts: %s\n"), label, b->ratios_absent_reason);
        }
    }
  if (a->n_averaged == 0)
    return;
  header = false;
  for (int k = 0; k < RW_ANALYSIS_N_BANDS; k++)
    {
      const RwBandResult *b = &a->bands[k];
      static const char *const names[4] = { "EDT", "T20", "T30", "C50, C80, D50, Ts" };
      band_label (b, k == RW_ANALYSIS_BROADBAND, label, sizeof label);
      for (int i = 0; i < 4; i++)
        if (b->n_values[i] > 0 && (size_t) b->n_values[i] < a->n_averaged)
          {
            if (!header)
              printf (_("\nAveraged over fewer IRs (the others lack the value):\n"));
            header = true;
            printf (_("  %s %s: %d of %zu\n"), label, names[i], b->n_values[i], a->n_averaged);
          }
    }
}

/* What is analysed: one entry per IR, from a file or from a results
 * folder's receivers, each with its label (the path) and where its fmax
 * came from. */
typedef struct {
  RwAnalysis *a;
  char **labels;
  const char **fmax_sources;
  size_t n, cap;
} Items;

static void
items_clear (Items *it)
{
  for (size_t i = 0; i < it->n; i++)
    {
      rw_analysis_clear (&it->a[i]);
      free (it->labels[i]);
    }
  free (it->a);
  free (it->labels);
  free (it->fmax_sources);
  memset (it, 0, sizeof *it);
}

/* Analyses one IR and appends it; the label names it in messages. */
static bool
items_add (Items *it, const char *label, const float *x, size_t frames, double rate_hz,
           const RwIrValidity *validity, const char *fmax_source, RwError *err)
{
  if (it->n == it->cap)
    {
      size_t cap = it->cap ? 2 * it->cap : 8;
      RwAnalysis *a = realloc (it->a, cap * sizeof *a);
      if (a != NULL)
        it->a = a;
      char **l = realloc (it->labels, cap * sizeof *l);
      if (l != NULL)
        it->labels = l;
      const char **f = realloc (it->fmax_sources, cap * sizeof *f);
      if (f != NULL)
        it->fmax_sources = f;
      if (a == NULL || l == NULL || f == NULL)
        return rw_fail (err, RW_ERROR_MEMORY, _("out of memory"));
      it->cap = cap;
    }
  memset (&it->a[it->n], 0, sizeof it->a[it->n]);
  if (!rw_analyse (x, frames, rate_hz, validity->valid_up_to_hz, &it->a[it->n], err))
    return rw_fail_prefix (err, "%s", label);
  rw_ir_validity_apply (validity, &it->a[it->n]);
  if ((it->labels[it->n] = strdup (label)) == NULL)
    {
      rw_analysis_clear (&it->a[it->n]);
      return rw_fail (err, RW_ERROR_MEMORY, _("out of memory"));
    }
  it->fmax_sources[it->n++] = fmax_source;
  return true;
}

/* The validity --fmax gives (a number or none): the results' is not used. */
static void
validity_from_option (double fmax_hz, RwIrValidity *v)
{
  rw_ir_validity_init (v);
  v->valid_up_to_hz = fmax_hz;
}

/* An audio file; validity: --fmax, else a results.json beside it, else
 * none. */
static bool
add_file (Items *it, const char *path, int channel, double fmax_hz, RwError *err)
{
  const char *fmax_source = _("--fmax");
  RwIrValidity validity;
  validity_from_option (fmax_hz, &validity);
  if (isnan (fmax_hz))
    {
      if (!rw_results_read_validity (path, &validity, err))
        return false;
      fmax_source = _("results.json beside the IR");
    }
  RwAudio audio = { 0 };
  bool ok = rw_audio_read_channel (path, channel, &audio, err)
            && items_add (it, path, audio.data, audio.frames, audio.rate_hz, &validity, fmax_source, err);
  rw_audio_clear (&audio);
  return ok;
}

/* A results folder (docs/RESULTS.md), or a folder of several sources'
 * folders: every receiver WAV each lists, checked by the engine's reader;
 * validity: --fmax, else the folder's results.json. */
static bool
add_folder (Items *it, const char *dir, double fmax_hz, RwError *err)
{
  char **folders = NULL;
  size_t n = 0;
  bool ok = rw_results_list (dir, &folders, &n, err);
  for (size_t f = 0; ok && f < n; f++)
    {
      RwResults res;
      if (!(ok = rw_results_read (folders[f], &res, err)))
        break;
      RwIrValidity validity;
      validity_from_option (fmax_hz, &validity);
      if (isnan (fmax_hz))
        rw_results_validity (&res, &validity);
      for (size_t r = 0; ok && r < res.result.n_receivers; r++)
        {
          size_t len = strlen (folders[f]) + strlen (res.outputs[r]) + 2;
          char *label = malloc (len);
          if (label == NULL)
            {
              ok = rw_fail (err, RW_ERROR_MEMORY, _("out of memory"));
              break;
            }
          snprintf (label, len, "%s/%s", folders[f], res.outputs[r]);
          ok = items_add (it, label, res.result.ir[r], res.result.ir_frames, res.result.fs_out_hz,
                          &validity,
                          isnan (fmax_hz) ? _("results.json of the folder") : _("--fmax"), err);
          free (label);
        }
      rw_results_clear (&res);
    }
  rw_results_list_free (folders, n);
  return ok;
}

int
rw_cli_analyse (int argc, char **argv)
{
  static const struct option options[] = {
    { "channel", required_argument, NULL, 'c' },
    { "fmax", required_argument, NULL, 'f' },
    { "json", no_argument, NULL, 'j' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
  };
  long channel = -1;
  double fmax_hz = NAN;
  bool as_json = false;
  optind = 0;   /* glibc: full re-initialisation, argv[0] is "analyse" */
  opterr = 0;
  int c;
  while ((c = getopt_long (argc, argv, "h", options, NULL)) != -1)
    switch (c)
      {
      case 'c':
        if (!rw_cli_parse_int (optarg, 0, 1023, &channel))
          return rw_cli_usage_error ("analyse", _("--channel needs a channel number from 0, "
                                                  "not '%s'"), optarg);
        break;
      case 'f':
        if (strcmp (optarg, "none") == 0)
          fmax_hz = INFINITY;
        else if (!rw_cli_parse_double (optarg, 1.0, 1e6, &fmax_hz))
          return rw_cli_usage_error ("analyse", _("--fmax needs a frequency in Hz, not '%s'"),
                                     optarg);
        break;
      case 'j':
        as_json = true;
        break;
      case 'h':
        print_usage (stdout);
        return RW_EXIT_OK;
      default:
        return rw_cli_bad_option ("analyse", argv);
      }
  if (optind >= argc)
    return rw_cli_usage_error ("analyse", _("no impulse response file given"));

  /* every file and folder is read and analysed before anything is
   * printed: a bad one fails the command with nothing written */
  Items items = { 0 };
  RwError err = { 0 };
  bool ok = true;
  for (int i = optind; ok && i < argc; i++)
    {
      struct stat st;
      if (stat (argv[i], &st) == 0 && S_ISDIR (st.st_mode))
        ok = add_folder (&items, argv[i], fmax_hz, &err);
      else
        ok = add_file (&items, argv[i], (int) channel, fmax_hz, &err);
    }
  const size_t n_files = items.n;
  RwAnalysis *analyses = items.a;
  RwAnalysis average;
  memset (&average, 0, sizeof average);
  if (ok && n_files > 1)
    ok = rw_analysis_average (analyses, n_files, &average, &err);

  int status = ok ? RW_EXIT_OK : rw_cli_fail (&err);
  if (ok && as_json && n_files == 1)
    status = rw_cli_print_owned (rw_analysis_to_json (&analyses[0], items.labels[0]), "\n");
  else if (ok && as_json)
    {
      printf ("{\n\"files\": [\n");
      for (size_t i = 0; status == RW_EXIT_OK && i < n_files; i++)
        status = rw_cli_print_owned (rw_analysis_to_json (&analyses[i], items.labels[i]),
                                     i + 1 < n_files ? ",\n" : "\n");
      printf ("],\n\"average\": ");
      if (status == RW_EXIT_OK)
        status = rw_cli_print_owned (rw_analysis_to_json (&average, NULL), "\n}\n");
    }
  else if (ok)
    {
      for (size_t i = 0; i < n_files; i++)
        {
          if (i > 0)
            printf ("\n");
          print_table (&analyses[i], items.labels[i], items.fmax_sources[i]);
        }
      if (n_files > 1)
        {
          printf ("\n");
          print_table (&average, NULL, _("the lowest of the IRs'"));
        }
    }
  rw_analysis_clear (&average);
  items_clear (&items);
  return status;
}
