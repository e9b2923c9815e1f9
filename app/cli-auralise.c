/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-auralise.c — `roomwave-cli auralise IR DRY -o WET [--ir-right IR2]`:
 * a dry recording convolved with an impulse response (rw-auralise.h),
 * peak at −1 dBFS. docs/REPORT.md §1. */
#include "cli.h"
#include "rw-auralise.h"
#include "rw-file.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void
print_usage (FILE *out)
{
  fprintf (out, _("Usage: roomwave-cli auralise IR DRY -o WET [--ir-right IR2] [--peak DBFS] [--block N]\n\n"
                  "Convolves a dry (anechoic) recording with an impulse response: the recording as\n"
                  "it would sound in the room. Any audio file libsndfile reads; the IR is resampled\n"
                  "to the dry file's rate, a multichannel dry file is mixed down to mono. A stereo\n"
                  "IR, or a mono IR with --ir-right, gives a stereo result. The dry file is streamed:\n"
                  "any length fits in memory. The result is scaled so that its peak is at -1 dBFS.\n"
                  "Bundled dry signals: data/audio/ (speech, clap, a musical phrase).\n\n"
                  "Options:\n"
                  "  -o, --output WET  output file: .wav (32-bit float) or .flac (24-bit); never\n"
                  "                    IR, DRY or IR2 (the same file by any name: links count)\n"
                  "  --ir-right IR2    a second mono IR for the right channel (IR is then the left)\n"
                  "  --peak DBFS       output peak level (default -1, at most 0)\n"
                  "  --block N         convolution partition in frames (default %d)\n"
                  "  -h, --help        show this help\n\n"
                  "Exit status: 0 written, 1 bad input (unreadable, empty or silent audio; the\n"
                  "output is then not written), 2 bad usage.\n"), RW_AURALISE_DEFAULT_BLOCK);
}

int
rw_cli_auralise (int argc, char **argv)
{
  static const struct option options[] = {
    { "output", required_argument, NULL, 'o' },
    { "ir-right", required_argument, NULL, 'r' },
    { "peak", required_argument, NULL, 'p' },
    { "block", required_argument, NULL, 'b' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
  };
  const char *out_path = NULL, *ir_right = NULL;
  RwAuraliseOptions opt;
  rw_auralise_options_init (&opt);
  optind = 0;   /* glibc: full re-initialisation, argv[0] is "auralise" */
  opterr = 0;
  int c;
  long block;
  while ((c = getopt_long (argc, argv, "ho:", options, NULL)) != -1)
    switch (c)
      {
      case 'o':
        out_path = optarg;
        break;
      case 'r':
        ir_right = optarg;
        break;
      case 'p':
        if (!rw_cli_parse_double (optarg, -200.0, 0.0, &opt.peak_dbfs))
          return rw_cli_usage_error ("auralise", _("--peak needs a level in dBFS between -200 and 0, not '%s'"), optarg);
        break;
      case 'b':
        if (!rw_cli_parse_int (optarg, 16, 1 << 22, &block))
          return rw_cli_usage_error ("auralise", _("--block needs a number of frames from 16 to 4194304, not '%s'"), optarg);
        opt.block_frames = (size_t) block;
        break;
      case 'h':
        print_usage (stdout);
        return RW_EXIT_OK;
      default:
        return rw_cli_bad_option ("auralise", argv);
      }
  /* GNU getopt permutes: the files may come before or after options. */
  const char *files[2] = { NULL, NULL };
  int n_files = 0;
  for (; optind < argc; optind++)
    {
      if (n_files == 2)
        return rw_cli_usage_error ("auralise", _("too many files ('%s' is extra): give IR and DRY"), argv[optind]);
      files[n_files++] = argv[optind];
    }
  if (n_files < 2)
    return rw_cli_usage_error ("auralise", n_files == 0 ? _("no impulse response and no dry file given")
                                                        : _("no dry file given"));
  if (out_path == NULL)
    return rw_cli_usage_error ("auralise", _("no output file given (-o WET.wav)"));

  RwError err = { 0 };
  const char *inputs[] = { files[0], files[1], ir_right };
  if (!rw_file_check_outputs (inputs, 3, &out_path, 1, &err))
    return rw_cli_fail (&err);
  RwAuraliseStats st;
  if (!rw_auralise_file (files[0], ir_right, files[1], out_path, &opt, &st, &err))
    return rw_cli_fail (&err);
  printf (_("%s: %zu frames (%.2f s), %d channel(s), %g Hz; dry %d channel(s)%s; IR %zu frames%s; gain %+.2f dB, peak %.1f dBFS\n"),
          out_path, st.out_frames, st.out_frames / st.rate_hz, st.channels, st.rate_hz, st.dry_channels,
          st.dry_channels > 1 ? _(" mixed down to mono") : "", st.ir_frames,
          st.ir_resampled ? _(" (resampled to the dry rate)") : "", st.gain_db, opt.peak_dbfs);
  return RW_EXIT_OK;
}
