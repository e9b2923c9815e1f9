/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-auralise.c — `roomwave-cli auralise IR DRY -o WET [--ir-right IR2]`
 * and `auralise --source IR DRY [--source IR DRY …] -o WET`: dry
 * recordings convolved with impulse responses (rw-auralise.h), mixed,
 * peak at −1 dBFS; `--decode binaural` renders ambisonic IRs to
 * headphones first. docs/REPORT.md §1, docs/BINAURAL.md. */
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
  fprintf (out, _("Usage: roomwave-cli auralise IR DRY -o WET [--ir-right IR2] [OPTIONS]\n"
                  "       roomwave-cli auralise --source IR DRY [--source IR DRY ...] -o WET [OPTIONS]\n\n"
                  "Convolves a dry (anechoic) recording with an impulse response: the recording as\n"
                  "it would sound in the room. Any audio file libsndfile reads; the IR is resampled\n"
                  "to the dry file's rate, a multichannel dry file is mixed down to mono. An IR of\n"
                  "C channels (1 to %d) gives a C-channel result: a binaural IR a stereo file, an\n"
                  "AmbiX IR an AmbiX file; a mono IR with --ir-right gives a stereo result.\n"
                  "Several --source pairs mix into one scene: every IR must give the same number of\n"
                  "channels and every dry file have the same rate. The dry files are streamed: any\n"
                  "length fits in memory. The result is scaled so that its peak is at -1 dBFS (one\n"
                  "gain for the whole mix). Bundled dry signals: data/audio/ (speech, clap, music).\n\n"
                  "Options:\n"
                  "  -o, --output WET  output file: .wav (32-bit float) or .flac (24-bit, at most 8\n"
                  "                    channels); never an input (the same file by any name: links\n"
                  "                    count)\n"
                  "  --source IR DRY   one source of a scene: its IR and its dry signal (repeat)\n"
                  "  --ir-right IR2    a second mono IR for the right channel (IR is then the left;\n"
                  "                    the IR DRY form only)\n"
                  "  --decode binaural each IR is ambisonic (AmbiX, order 1 to 3: 4, 9 or 16\n"
                  "                    channels); it is turned with the head and decoded to two ears\n"
                  "                    (magnitude least squares, docs/BINAURAL.md): a stereo result\n"
                  "  --hrtf FILE.sofa  the HRTF set for --decode (default: the bundled MIT KEMAR)\n"
                  "  --yaw DEG         with --decode: the head turned left by DEG (default 0)\n"
                  "  --pitch DEG       with --decode: the head tilted up by DEG (default 0)\n"
                  "  --peak DBFS       output peak level (default -1, at most 0)\n"
                  "  --block N         convolution partition in frames (default %d)\n"
                  "  -h, --help        show this help\n\n"
                  "Exit status: 0 written, 1 bad input (unreadable, empty or silent audio, channel\n"
                  "counts or rates that do not match, an unusable HRTF set; the output is then not\n"
                  "written), 2 bad usage.\n"),
           RW_AURALISE_MAX_CHANNELS, RW_AURALISE_DEFAULT_BLOCK);
}

int
rw_cli_auralise (int argc, char **argv)
{
  static const struct option options[] = {
    { "output", required_argument, NULL, 'o' },
    { "ir-right", required_argument, NULL, 'r' },
    { "peak", required_argument, NULL, 'p' },
    { "block", required_argument, NULL, 'b' },
    { "decode", required_argument, NULL, 'd' },
    { "hrtf", required_argument, NULL, 'H' },
    { "yaw", required_argument, NULL, 'y' },
    { "pitch", required_argument, NULL, 't' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
  };
  /* --source takes two arguments, which getopt does not do: the pairs are
     taken out of argv first, the rest goes to getopt. */
  RwAuraliseSource sources[RW_AURALISE_MAX_SOURCES];
  size_t n_sources = 0;
  char **args = malloc ((size_t) (argc + 1) * sizeof *args);
  if (args == NULL)
    return rw_cli_usage_error ("auralise", _("out of memory"));
  int n_args = 0;
  for (int i = 0; i < argc; i++)
    {
      if (i > 0 && strcmp (argv[i], "--source") == 0)
        {
          if (i + 2 >= argc)
            {
              free (args);
              return rw_cli_usage_error ("auralise", _("--source needs two files: IR and DRY"));
            }
          if (n_sources == RW_AURALISE_MAX_SOURCES)
            {
              free (args);
              return rw_cli_usage_error ("auralise", _("more than %d sources"), RW_AURALISE_MAX_SOURCES);
            }
          sources[n_sources].ir_path = argv[i + 1];
          sources[n_sources].ir_right_path = NULL;
          sources[n_sources].dry_path = argv[i + 2];
          n_sources++;
          i += 2;
          continue;
        }
      args[n_args++] = argv[i];
    }
  args[n_args] = NULL;

  const char *out_path = NULL, *ir_right = NULL;
  RwAuraliseOptions opt;
  rw_auralise_options_init (&opt);
  bool turned = false, hrtf_given = false;
  optind = 0;   /* glibc: full re-initialisation, argv[0] is "auralise" */
  opterr = 0;
  int c, rc = -1;
  long block;
  while (rc < 0 && (c = getopt_long (n_args, args, "ho:", options, NULL)) != -1)
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
          rc = rw_cli_usage_error ("auralise", _("--peak needs a level in dBFS between -200 and 0, not '%s'"), optarg);
        break;
      case 'b':
        if (!rw_cli_parse_int (optarg, 16, 1 << 22, &block))
          rc = rw_cli_usage_error ("auralise", _("--block needs a number of frames from 16 to 4194304, not '%s'"), optarg);
        else
          opt.block_frames = (size_t) block;
        break;
      case 'd':
        if (strcmp (optarg, "binaural") != 0)
          rc = rw_cli_usage_error ("auralise", _("--decode takes 'binaural', not '%s'"), optarg);
        opt.decode = RW_AURALISE_DECODE_BINAURAL;
        break;
      case 'H':
        opt.hrtf_path = optarg;
        hrtf_given = true;
        break;
      case 'y':
        if (!rw_cli_parse_double (optarg, -360.0, 360.0, &opt.yaw_deg))
          rc = rw_cli_usage_error ("auralise", _("--yaw needs an angle in degrees from -360 to 360, not '%s'"), optarg);
        turned = true;
        break;
      case 't':
        if (!rw_cli_parse_double (optarg, -90.0, 90.0, &opt.pitch_deg))
          rc = rw_cli_usage_error ("auralise", _("--pitch needs an angle in degrees from -90 to 90, not '%s'"), optarg);
        turned = true;
        break;
      case 'h':
        print_usage (stdout);
        rc = RW_EXIT_OK;
        break;
      default:
        rc = rw_cli_bad_option ("auralise", args);
        break;
      }
  if (rc >= 0)
    {
      free (args);
      return rc;
    }
  /* GNU getopt permutes: the files may come before or after options. */
  const char *files[2] = { NULL, NULL };
  int n_files = 0;
  for (; optind < n_args; optind++)
    {
      if (n_files == 2)
        {
          rc = rw_cli_usage_error ("auralise", _("too many files ('%s' is extra): give IR and DRY"), args[optind]);
          free (args);
          return rc;
        }
      files[n_files++] = args[optind];
    }
  free (args);
  if (n_sources > 0 && n_files > 0)
    return rw_cli_usage_error ("auralise", _("give either IR DRY or --source IR DRY pairs, not both ('%s' is extra)"),
                               files[0]);
  if (n_sources > 0 && ir_right != NULL)
    return rw_cli_usage_error ("auralise", _("--ir-right goes with the IR DRY form, not with --source"));
  if (n_sources == 0 && n_files < 2)
    return rw_cli_usage_error ("auralise", n_files == 0 ? _("no impulse response and no dry file given")
                                                        : _("no dry file given"));
  if (out_path == NULL)
    return rw_cli_usage_error ("auralise", _("no output file given (-o WET.wav)"));
  if (opt.decode == RW_AURALISE_DECODE_NONE && (turned || hrtf_given))
    return rw_cli_usage_error ("auralise", _("--hrtf, --yaw and --pitch go with --decode binaural"));
  if (opt.decode == RW_AURALISE_DECODE_BINAURAL && ir_right != NULL)
    return rw_cli_usage_error ("auralise", _("--decode binaural takes one ambisonic IR per source, not --ir-right"));
  if (n_sources == 0)
    {
      sources[0].ir_path = files[0];
      sources[0].ir_right_path = ir_right;
      sources[0].dry_path = files[1];
      n_sources = 1;
    }

  RwError err = { 0 };
  const char *inputs[2 * RW_AURALISE_MAX_SOURCES + 2];
  size_t n_inputs = 0;
  for (size_t i = 0; i < n_sources; i++)
    {
      inputs[n_inputs++] = sources[i].ir_path;
      inputs[n_inputs++] = sources[i].dry_path;
    }
  inputs[n_inputs++] = ir_right;
  inputs[n_inputs++] = opt.hrtf_path;
  if (!rw_file_check_outputs (inputs, n_inputs, &out_path, 1, &err))
    return rw_cli_fail (&err);
  RwAuraliseStats st;
  if (!rw_auralise_scene (sources, n_sources, out_path, &opt, &st, &err))
    return rw_cli_fail (&err);
  if (st.decoded)
    printf (_("%s: %zu source(s) decoded to binaural (head yaw %g°, pitch %g°)\n"), out_path, st.n_sources,
            opt.yaw_deg, opt.pitch_deg);
  else if (st.n_sources > 1)
    printf (_("%s: %zu sources mixed\n"), out_path, st.n_sources);
  printf (_("%s: %zu frames (%.2f s), %d channel(s), %g Hz; dry %d channel(s)%s; IR %zu frames%s; gain %+.2f dB, peak %.1f dBFS\n"),
          out_path, st.out_frames, st.out_frames / st.rate_hz, st.channels, st.rate_hz, st.dry_channels,
          st.dry_channels > 1 ? _(" mixed down to mono") : "", st.ir_frames,
          st.ir_resampled ? _(" (resampled to the dry rate)") : "", st.gain_db, opt.peak_dbfs);
  return RW_EXIT_OK;
}
