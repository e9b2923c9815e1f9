/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-compare.c — `roomwave-cli compare SIM MEASURED`: ISO 3382-1
 * parameters of a simulated and a measured IR side by side, with the
 * differences against the just-noticeable differences (rw-compare.h), as
 * a table, JSON, CSV or a PDF report (rw-report.h). docs/REPORT.md. */
#include "cli.h"
#include "rw-compare.h"
#include "rw-file.h"
#include "rw-report.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void
print_usage (FILE *out)
{
  fprintf (out, _("Usage: roomwave-cli compare SIM MEASURED [--channel N] [--sim-channel N] [--fmax HZ]\n"
                  "                            [--report R.pdf] [--csv R.csv] [--json] [--json-out R.json]\n\n"
                  "Compares a simulated impulse response with a measured one: both are brought to a\n"
                  "common rate, aligned at their ISO 3382-1 onsets and analysed per octave band\n"
                  "(EDT, T20, T30, C50, C80, D50, Ts). Differences larger than the just-noticeable\n"
                  "difference of ISO 3382-1 Annex A (EDT and T 5 %%, C50 and C80 1 dB, D50 0.05,\n"
                  "Ts 10 ms) are marked. Bands above the simulation's fmax are marked too.\n\n"
                  "Options:\n"
                  "  --channel N       channel of MEASURED to use, from 0 (needed for multichannel files)\n"
                  "  --sim-channel N   channel of SIM to use, from 0\n"
                  "  --fmax HZ         the simulation's valid upper frequency (default: fmax_hz from\n"
                  "                    results.json beside SIM, or for a hybrid simulation the\n"
                  "                    Nyquist frequency, each band's method named; 'none' to\n"
                  "                    compare every band)\n"
                  "  --report R.pdf    write the PDF report (A4, 4 pages)\n"
                  "  --csv R.csv       write one row per band and parameter\n"
                  "  --json            print the comparison as JSON on standard output\n"
                  "  --json-out R.json write the same JSON to a file\n"
                  "  -h, --help        show this help\n\n"
                  "Without --report, --csv or --json the table is printed. The output files are\n"
                  "written all or none, and none may be SIM, MEASURED, the results.json beside SIM\n"
                  "or another output (the same file by any name: links count).\n"
                  "Exit status: 0 compared (whatever the differences), 1 bad input (unreadable, empty\n"
                  "or silent audio, a bad results.json; nothing is written then), 2 bad usage.\n"));
}

int
rw_cli_compare (int argc, char **argv)
{
  static const struct option options[] = {
    { "channel", required_argument, NULL, 'c' },
    { "sim-channel", required_argument, NULL, 's' },
    { "fmax", required_argument, NULL, 'f' },
    { "report", required_argument, NULL, 'r' },
    { "csv", required_argument, NULL, 'v' },
    { "json", no_argument, NULL, 'j' },
    { "json-out", required_argument, NULL, 'J' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
  };
  RwCompareOptions opt;
  rw_compare_options_init (&opt);
  const char *pdf = NULL, *csv = NULL, *json_out = NULL;
  bool json = false;
  long v;
  optind = 0;   /* glibc: full re-initialisation, argv[0] is "compare" */
  opterr = 0;
  int c;
  while ((c = getopt_long (argc, argv, "h", options, NULL)) != -1)
    switch (c)
      {
      case 'c':
        if (!rw_cli_parse_int (optarg, 0, 1023, &v))
          return rw_cli_usage_error ("compare", _("--channel needs a channel number from 0, not '%s'"), optarg);
        opt.meas_channel = (int) v;
        break;
      case 's':
        if (!rw_cli_parse_int (optarg, 0, 1023, &v))
          return rw_cli_usage_error ("compare", _("--sim-channel needs a channel number from 0, not '%s'"), optarg);
        opt.sim_channel = (int) v;
        break;
      case 'f':
        if (strcmp (optarg, "none") == 0)
          opt.fmax_hz = INFINITY;
        else if (!rw_cli_parse_double (optarg, 1.0, 1e6, &opt.fmax_hz))
          return rw_cli_usage_error ("compare", _("--fmax needs a frequency in Hz or 'none', not '%s'"), optarg);
        break;
      case 'r':
        pdf = optarg;
        break;
      case 'v':
        csv = optarg;
        break;
      case 'j':
        json = true;
        break;
      case 'J':
        json_out = optarg;
        break;
      case 'h':
        print_usage (stdout);
        return RW_EXIT_OK;
      default:
        return rw_cli_bad_option ("compare", argv);
      }
  if (argc - optind < 2)
    return rw_cli_usage_error ("compare", argc - optind == 0 ? _("no simulated and no measured IR given")
                                                             : _("no measured IR given"));
  if (argc - optind > 2)
    return rw_cli_usage_error ("compare", _("too many files ('%s' is extra): give SIM and MEASURED"), argv[optind + 2]);
  const char *sim = argv[optind], *meas = argv[optind + 1];

  /* No output may replace an input, nor another output. */
  RwError err = { 0 };
  const size_t beside_len = strlen (sim) + sizeof "/results.json";
  char *beside = malloc (beside_len);
  if (beside == NULL)
    {
      rw_fail (&err, RW_ERROR_MEMORY, _("out of memory"));
      return rw_cli_fail (&err);
    }
  rw_file_dirname (sim, beside, beside_len);
  strcat (beside, "/results.json");
  const char *inputs[] = { sim, meas, beside };
  const char *outputs[] = { pdf, csv, json_out };
  bool distinct = rw_file_check_outputs (inputs, 3, outputs, 3, &err);
  free (beside);
  if (!distinct)
    return rw_cli_fail (&err);

  RwComparison cmp;
  if (!rw_compare_files (sim, meas, &opt, &cmp, &err))
    return rw_cli_fail (&err);

  /* All or none: each file under a part name, renamed together. */
  int status = RW_EXIT_OK;
  RwFileSet set;
  rw_file_set_init (&set);
  const char *part;
  bool ok = (!pdf || ((part = rw_file_set_add (&set, pdf, &err)) && rw_report_write_pdf (part, &cmp, &err)))
            && (!csv || ((part = rw_file_set_add (&set, csv, &err)) && rw_report_write_csv (part, &cmp, &err)))
            && (!json_out || ((part = rw_file_set_add (&set, json_out, &err))
                              && rw_report_write_json (part, &cmp, &err)));
  if (ok)
    ok = rw_file_set_commit (&set, &err);
  else
    rw_file_set_abort (&set);
  if (!ok)
    status = rw_cli_fail (&err);
  else if (json)
    status = rw_cli_print_owned (rw_report_to_json (&cmp), "\n");
  else
    {
      if (!pdf && !csv && !json_out)
        status = rw_cli_print_owned (rw_report_to_text (&cmp), "");
      else
        {
          printf (_("%zu of %zu compared values differ by more than one JND.\n"), cmp.n_exceeding, cmp.n_compared);
          if (pdf)
            printf (_("Report: %s\n"), pdf);
          if (csv)
            printf (_("CSV: %s\n"), csv);
          if (json_out)
            printf (_("JSON: %s\n"), json_out);
        }
    }
  rw_comparison_clear (&cmp);
  return status;
}
