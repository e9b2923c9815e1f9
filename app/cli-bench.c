/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-bench.c — `roomwave-cli bench`: the solver's speed against the
 * machine's measured copy roofline (rw-bench.h). `--backend cuda` hands
 * the same arguments to rw_cli_bench_cuda (cli-bench-cuda.c). */
#include "cli.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rw-bench.h"
#include "rw-voxel.h"

static void
print_help (void)
{
  printf ("%s", _("Usage: roomwave-cli bench [OPTION…]\n"
                  "\n"
                  "Times the FDTD solver on a box and holds the speed against the\n"
                  "roofline: the copy bandwidth measured in the same run divided by\n"
                  "the bytes one cell update must move (12 B in fp32, 24 B in fp64).\n"
                  "\n"
                  "Options:\n"
                  "  --backend cpu|cuda     the solver backend (default cpu)\n"
                  "  --size NX,NY,NZ        inside cells of the box (default 256,256,256)\n"
                  "  --steps N              timed steps (default: as many as take ~3 s)\n"
                  "  --precision f32|f64    arithmetic and storage (default f32)\n"
                  "  --threads N            CPU threads (default: all cores)\n"
                  "  --device N             the backend's device (default 0; roomwave-cli devices)\n"
                  "  --copy-mib N           size of each copy array in MiB (default: 8 × the\n"
                  "                         last-level cache, at least 64)\n"
                  "  --json                 print one JSON object instead of a table\n"
                  "  --help                 show this help\n"));
}

/* "256,256,256": three whole numbers 3 … 4096. */
static bool
parse_size (const char *s, size_t size[3])
{
  double v[3];
  if (!rw_cli_parse_vec3 (s, v))
    return false;
  for (int a = 0; a < 3; a++)
    {
      if (v[a] < 3 || v[a] > 4096 || v[a] != floor (v[a]))
        return false;
      size[a] = (size_t) v[a];
    }
  return true;
}

int
rw_cli_bench (int argc, char **argv)
{
  /* The CUDA benchmark has its own options: look for --backend first and
   * hand it the untouched argv. */
  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--") == 0)
        break;
      if ((strcmp (argv[i], "--backend") == 0 && i + 1 < argc && strcmp (argv[i + 1], "cuda") == 0)
          || strcmp (argv[i], "--backend=cuda") == 0)
        return rw_cli_bench_cuda (argc, argv);
    }

  static const struct option longopts[] = {
    { "backend", required_argument, NULL, 'b' },
    { "size", required_argument, NULL, 's' },
    { "steps", required_argument, NULL, 'n' },
    { "precision", required_argument, NULL, 'p' },
    { "threads", required_argument, NULL, 't' },
    { "copy-mib", required_argument, NULL, 'c' },
    { "json", no_argument, NULL, 'j' },
    { "device", required_argument, NULL, 'd' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
  };
  size_t size[3] = { 256, 256, 256 };
  long steps = 0, threads = 0, copy_mib = 0, device = 0;
  RwPrecision precision = RW_PRECISION_F32;
  bool json = false;
  int c;

  optind = 1;
  opterr = 0;
  while ((c = getopt_long (argc, argv, "", longopts, NULL)) != -1)
    {
      switch (c)
        {
        case 'b':
          if (strcmp (optarg, "cpu") != 0)
            return rw_cli_usage_error ("bench", _("--backend must be cpu or cuda, not '%s'"), optarg);
          break;
        case 's':
          if (!parse_size (optarg, size))
            return rw_cli_usage_error ("bench", _("--size needs three whole numbers from 3 to 4096, "
                                                  "as NX,NY,NZ, not '%s'"), optarg);
          break;
        case 'n':
          if (!rw_cli_parse_int (optarg, 1, 10000000, &steps))
            return rw_cli_usage_error ("bench", _("--steps needs a whole number from 1 to 10000000, "
                                                  "not '%s'"), optarg);
          break;
        case 'p':
          if (strcmp (optarg, "f32") == 0 || strcmp (optarg, "fp32") == 0)
            precision = RW_PRECISION_F32;
          else if (strcmp (optarg, "f64") == 0 || strcmp (optarg, "fp64") == 0)
            precision = RW_PRECISION_F64;
          else if (strcmp (optarg, "f16") == 0 || strcmp (optarg, "fp16") == 0)
            return rw_cli_usage_error ("bench", _("fp16 storage is CUDA-only; use --backend cuda"));
          else
            return rw_cli_usage_error ("bench", _("--precision must be f32 or f64, not '%s'"), optarg);
          break;
        case 't':
          if (!rw_cli_parse_int (optarg, 1, 4096, &threads))
            return rw_cli_usage_error ("bench", _("--threads needs a whole number from 1 to 4096, "
                                                  "not '%s'"), optarg);
          break;
        case 'c':
          if (!rw_cli_parse_int (optarg, 1, 65536, &copy_mib))
            return rw_cli_usage_error ("bench", _("--copy-mib needs a whole number from 1 to 65536, "
                                                  "not '%s'"), optarg);
          break;
        case 'j':
          json = true;
          break;
        case 'd':
          if (!rw_cli_parse_int (optarg, 0, 4095, &device))
            return rw_cli_usage_error ("bench", _("--device: expected a device number, got “%s”"),
                                       optarg);
          if (device >= rw_cpu_backend.device_count ())
            {
              fprintf (stderr, _("roomwave-cli bench: device %ld does not exist: the cpu backend "
                                 "has %d device(s) here, numbered from 0 (roomwave-cli devices "
                                 "lists them)\n"), device, rw_cpu_backend.device_count ());
              return RW_EXIT_INPUT;
            }
          break;
        case 'h':
          print_help ();
          return RW_EXIT_OK;
        default:
          return rw_cli_usage_error ("bench", _("unknown or incomplete option '%s'"),
                                     argv[optind - 1]);
        }
    }
  if (optind < argc)
    return rw_cli_usage_error ("bench", _("unexpected argument '%s'"), argv[optind]);

  RwError err;
  rw_error_clear (&err);
  RwGrid *g = rw_grid_new_box (size[0], size[1], size[2], 0.01);
  if (g == NULL)
    {
      rw_fail (&err, RW_ERROR_MEMORY, _("Out of memory for a %zu × %zu × %zu grid"),
               size[0], size[1], size[2]);
      return rw_cli_fail (&err);
    }
  RwBenchResult r;
  memset (&r, 0, sizeof r);
  if (!rw_bench_solver (g, RW_BACKEND_CPU, precision, (int) threads, (size_t) steps, 3.0, &r, &err))
    {
      rw_grid_free (g);
      return rw_cli_fail (&err);
    }
  rw_grid_free (g);

  /* Copy measured after the solver, with the same threads, so that both
   * see the machine in the same state. */
  double copy_gb_per_s;
  if (!rw_bench_copy (r.threads, (size_t) copy_mib << 20, 5, &copy_gb_per_s, &err))
    return rw_cli_fail (&err);
  rw_bench_set_roofline (&r, copy_gb_per_s);
  rw_bench_print (stdout, &r, json);
  return RW_EXIT_OK;
}
