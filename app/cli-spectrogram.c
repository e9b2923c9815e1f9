/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-spectrogram.c — `roomwave-cli spectrogram AUDIO -o OUT.png`: the
 * STFT of an impulse response or of any recording (an auralisation) as a
 * PNG or SVG image (rw_spectrogram, rw_plot_spectrogram), and its
 * time-averaged octave band levels 31.5 Hz … 16 kHz as a table or JSON.
 * A subcommand of its own rather than an option of `analyse`: an
 * auralisation is no impulse response, and ISO 3382-1 analysis would
 * refuse or misread it. docs/ANALYSIS.md, "Spectrogram". */
#include "cli.h"
#include "rw-audio.h"
#include "rw-file.h"
#include "rw-plot.h"
#include "rw-spectrogram.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A plot of some hundred pixels across needs no more frames than this;
 * it keeps a long recording's matrix small (rw_spectrogram's max_frames). */
#define MAX_FRAMES 8192

static void
print_usage (FILE *out)
{
  fprintf (out, _("Usage: roomwave-cli spectrogram AUDIO -o OUT.png [--channel N] [--range DB]\n"
                  "                                [--window N] [--size WxH] [--title TEXT]\n"
                  "                                [--third-octave] [--json]\n\n"
                  "The spectrogram of an impulse response or any recording (an auralisation):\n"
                  "short-time Fourier transform with a Hann window (default 2048 samples at\n"
                  "44.1 or 48 kHz, scaled with the rate) and 75 %% overlap, the level in dB re\n"
                  "its maximum against time and a logarithmic frequency axis from 20 Hz to\n"
                  "half the sample rate. Also prints the time-averaged octave band levels\n"
                  "31.5 Hz to 16 kHz (third-octave: 25 Hz to 20 kHz) in dB re the signal's\n"
                  "total energy.\n\n"
                  "Options:\n"
                  "  -o, --output OUT  image to write: .svg gives SVG, anything else PNG; never\n"
                  "                    AUDIO (the same file by any name)\n"
                  "  --channel N       channel of a multichannel file, counted from 0\n"
                  "  --range DB        levels shown below the maximum (default %g, 10 to 300)\n"
                  "  --window N        window length in samples (16 to 65536)\n"
                  "  --size WxH        image size in pixels (default 1200x700)\n"
                  "  --title TEXT      title (default: 'Spectrogram of' the file name)\n"
                  "  --third-octave    print third-octave instead of octave band levels\n"
                  "  --json            the summary, octave and third-octave band levels as\n"
                  "                    JSON on standard output\n"
                  "  -h, --help        show this help\n\n"
                  "Exit status: 0 written, 1 bad input (unreadable, empty or silent audio; the\n"
                  "image is then not written), 2 bad usage.\n"), RW_PLOT_SPECTROGRAM_RANGE_DB);
}

typedef struct {
  const RwSpectrogram *sg;
  const char *title;
  double range_db;
} Drawing;

static void
draw (cairo_t *cr, RwRect area, void *user_data)
{
  const Drawing *d = user_data;
  rw_plot_spectrogram (cr, area, d->title, d->sg, d->range_db);
}

static bool
ends_with (const char *s, const char *suffix)
{
  size_t n = strlen (s), m = strlen (suffix);
  return n >= m && strcasecmp (s + n - m, suffix) == 0;
}

static void
print_bands (const RwSpectrogram *sg, const char *path, const char *image, int fraction)
{
  RwSpectrogramBand bands[RW_SPECTROGRAM_N_THIRDS];
  size_t n = rw_spectrogram_bands (sg, fraction, bands);
  printf (_("%s: %zu frames × %zu bins (Hann window %d samples, hop %d, %g Hz, %.3f s) → %s\n"),
          path, sg->n_frames, sg->n_bins, sg->window, sg->hop, sg->rate_hz, sg->duration_s, image);
  printf (fraction == 1 ? _("\nOctave band levels, dB re the total energy (time-averaged):\n")
                        : _("\nThird-octave band levels, dB re the total energy (time-averaged):\n"));
  for (size_t b = 0; b < n; b++)
    {
      char label[32];
      if (bands[b].centre_hz >= 1000.0)
        snprintf (label, sizeof label, "%g kHz", bands[b].centre_hz / 1000.0);
      else
        snprintf (label, sizeof label, "%g Hz", bands[b].centre_hz);
      if (isfinite (bands[b].level_db))
        printf ("  %-9s %8.1f\n", label, bands[b].level_db);
      else
        printf (_("  %-9s        \xe2\x80\x94 (no bin in the band)\n"), label);
    }
}

int
rw_cli_spectrogram (int argc, char **argv)
{
  static const struct option options[] = {
    { "output", required_argument, NULL, 'o' },
    { "channel", required_argument, NULL, 'c' },
    { "range", required_argument, NULL, 'r' },
    { "window", required_argument, NULL, 'w' },
    { "size", required_argument, NULL, 's' },
    { "title", required_argument, NULL, 't' },
    { "third-octave", no_argument, NULL, '3' },
    { "json", no_argument, NULL, 'j' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
  };
  const char *out_path = NULL, *title = NULL;
  long channel = -1, window = 0;
  double range_db = RW_PLOT_SPECTROGRAM_RANGE_DB;
  int width = 1200, height = 700;
  bool as_json = false;
  int fraction = 1;
  optind = 0;   /* glibc: full re-initialisation, argv[0] is "spectrogram" */
  opterr = 0;
  int c;
  while ((c = getopt_long (argc, argv, "ho:", options, NULL)) != -1)
    switch (c)
      {
      case 'o':
        out_path = optarg;
        break;
      case 'c':
        if (!rw_cli_parse_int (optarg, 0, 1023, &channel))
          return rw_cli_usage_error ("spectrogram", _("--channel needs a channel number from 0, "
                                                      "not '%s'"), optarg);
        break;
      case 'r':
        if (!rw_cli_parse_double (optarg, 10.0, 300.0, &range_db))
          return rw_cli_usage_error ("spectrogram", _("--range needs a level range in dB from 10 "
                                                      "to 300, not '%s'"), optarg);
        break;
      case 'w':
        if (!rw_cli_parse_int (optarg, 16, 65536, &window))
          return rw_cli_usage_error ("spectrogram", _("--window needs a window length in samples "
                                                      "from 16 to 65536, not '%s'"), optarg);
        break;
      case 's':
        {
          char tail;
          if (sscanf (optarg, "%dx%d%c", &width, &height, &tail) != 2 || width < 240
              || height < 160 || width > 8000 || height > 8000)
            return rw_cli_usage_error ("spectrogram", _("--size needs WIDTHxHEIGHT in pixels, "
                                                        "240x160 to 8000x8000, not '%s'"), optarg);
          break;
        }
      case 't':
        title = optarg;
        break;
      case '3':
        fraction = 3;
        break;
      case 'j':
        as_json = true;
        break;
      case 'h':
        print_usage (stdout);
        return RW_EXIT_OK;
      default:
        return rw_cli_bad_option ("spectrogram", argv);
      }
  if (optind >= argc)
    return rw_cli_usage_error ("spectrogram", _("no audio file given"));
  if (optind + 1 < argc)
    return rw_cli_usage_error ("spectrogram", _("too many files ('%s' is extra): give one audio file"),
                               argv[optind + 1]);
  if (out_path == NULL)
    return rw_cli_usage_error ("spectrogram", _("no output image given (-o OUT.png)"));
  const char *path = argv[optind];

  RwError err = { 0 };
  const char *inputs[] = { path };
  if (!rw_file_check_outputs (inputs, 1, &out_path, 1, &err))
    return rw_cli_fail (&err);
  RwAudio audio = { 0 };
  RwSpectrogram sg = { 0 };
  if (!rw_audio_read_channel (path, (int) channel, &audio, &err))
    return rw_cli_fail (&err);
  bool ok = rw_spectrogram (audio.data, audio.frames, audio.rate_hz, (int) window, 0, MAX_FRAMES,
                            &sg, &err);
  rw_audio_clear (&audio);
  if (!ok)
    {
      rw_fail_prefix (&err, "%s", path);
      return rw_cli_fail (&err);
    }

  char default_title[512];
  if (title == NULL)
    {
      const char *base = strrchr (path, '/');
      snprintf (default_title, sizeof default_title, _("Spectrogram of %s"), base ? base + 1 : path);
      title = default_title;
    }
  Drawing d = { &sg, title, range_db };
  if (ends_with (out_path, ".svg"))
    ok = rw_plot_write_svg (out_path, width, height, draw, &d, &err);
  else
    ok = rw_plot_write_png (out_path, width, height, draw, &d, &err);
  int status = ok ? RW_EXIT_OK : rw_cli_fail (&err);
  if (ok && as_json)
    status = rw_cli_print_owned (rw_spectrogram_to_json (&sg, path), "\n");
  else if (ok)
    print_bands (&sg, path, out_path, fraction);
  rw_spectrogram_clear (&sg);
  return status;
}
