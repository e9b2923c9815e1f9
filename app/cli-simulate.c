/* cli-simulate.c — `roomwave-cli simulate`: mesh file → calibrated IRs.
 *
 * Parses the options (every number through rw_cli_parse_*: "abc", "nan",
 * "1e999" are usage errors), runs rw_simulate with a progress line on
 * stderr and SIGINT wired to its cancel flag, writes the outputs with
 * rw_sim_write_outputs (atomic files) and prints a summary or the results
 * JSON on stdout. Exit: 0 done, 1 bad input or cancelled, 2 bad usage. */
#include "cli.h"
#include "rw-clock.h"

#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rw-physics.h"
#include "rw-results.h"
#include "rw-sim.h"

#define SUB "simulate"
#define RW_CLI_MAX_SOURCES 16
#define RW_DEFAULT_OUT_DIR "roomwave-out"

static atomic_int cancel_flag;

static void
on_sigint (int sig)
{
  (void) sig;
  atomic_store (&cancel_flag, 1);
}

static void
usage (FILE *f)
{
  fprintf (f, _("Usage: roomwave-cli simulate --mesh MESH --source X,Y,Z --receiver X,Y,Z [OPTION…]\n"
                "\n"
                "Simulates the impulse responses of a room with the wave-based FDTD solver and\n"
                "writes one calibrated 32-bit float WAV per receiver (48 kHz) and results.json.\n"
                "Coordinates in metres, in the mesh's frame after --scale.\n"
                "\n"
                "  --mesh MESH            room model (any format Assimp reads: OBJ, glTF, STL, PLY, …)\n"
                "  --source X,Y,Z         source position; repeat for more (up to %d): one\n"
                "                         simulation per source, written to DIR/source-N/\n"
                "  --receiver X,Y,Z       receiver position (repeat for more, up to %d)\n"
                "  --fmax HZ              highest valid frequency (default 1000)\n"
                "  --duration S           length of the impulse responses (default 1.0)\n"
                "  --reflection R         one reflection factor R in [-1, 1] for every surface\n"
                "  --materials MAP.json   surface → material map (default: match surface names\n"
                "                         with the material library)\n"
                "  --boundary fv|lrs|savioja  boundary formulation (default fv)\n"
                "  --backend auto|cpu|cuda    solver backend (default auto: CUDA when present)\n"
                "  --precision f32|f64|f16    arithmetic (default f32; f16 storage needs CUDA)\n"
                "  --scale S              multiply mesh coordinates by S (0.001 for millimetres)\n"
                "  --temperature C        air temperature, sets c (default 20 °C)\n"
                "  --ppw N                grid points per wavelength at fmax (default %.2f)\n"
                "  --threads N            CPU threads (default: all)\n"
                "  --out DIR              output folder (default %s)\n"
                "  --json                 print the results JSON instead of the summary\n"
                "  --quiet                no progress and no summary (errors still go to stderr)\n"
                "  -h, --help             this help\n"
                "\n"
                "Exit status: 0 done, 1 bad input or cancelled (Ctrl-C), 2 bad usage.\n"),
           RW_CLI_MAX_SOURCES, RW_SIM_MAX_RECEIVERS, RW_DEFAULT_PPW, RW_DEFAULT_OUT_DIR);
}

typedef struct {
  bool tty;
  double last_s;
  bool printed;
} Progress;

static bool
on_progress (const RwProgress *p, void *user_data)
{
  Progress *pr = user_data;
  double t = rw_clock_s ();
  bool last = p->step >= p->n_steps;
  if (pr->tty)
    {
      /* One updating line; a tty can take a few redraws a second. */
      if (t - pr->last_s < 0.1 && !last)
        return true;
      fprintf (stderr, _("\r  solving: %5.1f %%  %8.1f Mvox/s  %6.0f s left "),
               100.0 * p->fraction, p->mvox_per_s, p->seconds_left);
    }
  else
    {
      /* A log: at most one line a second. */
      if (t - pr->last_s < 1.0 && !last)
        return true;
      fprintf (stderr, _("solving: %.1f %%, %.1f Mvox/s, %.0f s left\n"),
               100.0 * p->fraction, p->mvox_per_s, p->seconds_left);
    }
  fflush (stderr);
  pr->last_s = t;
  pr->printed = true;
  return true;
}

static void
print_summary (const RwSimConfig *cfg, const RwSimResult *res, const char *out_dir)
{
  printf (_("Mesh           %s\n"), cfg->mesh_path);
  printf (_("Valid up to    %g Hz (fmax; %g points per wavelength)\n"), res->fmax_hz, cfg->ppw);
  printf (_("Grid           %zu × %zu × %zu cells, h = %.4f m, c = %.1f m/s\n"),
          res->nx, res->ny, res->nz, res->spacing_m, res->c);
  printf (_("Cells          %zu inside, %zu boundary\n"), res->n_inside, res->n_boundary);
  printf (_("Volume         %.2f m³ (mesh), %.2f m³ (grid)\n"), res->mesh_volume_m3, res->grid_volume_m3);
  printf (_("Sampling       fs = %.1f Hz on the grid, %zu steps; output %.0f Hz\n"),
          res->fs_grid_hz, res->n_steps, res->fs_out_hz);
  printf (_("Backend        %s (%s), %s, boundary %s\n"), res->backend, res->device,
          rw_precision_name (cfg->precision), rw_boundary_name (cfg->boundary));
  for (size_t i = 0; i < res->n_surfaces; i++)
    printf (_("Surface        %-20s %-28s R = %.3f\n"), res->surface_names[i],
            res->surface_materials && res->surface_materials[i] ? res->surface_materials[i] : "",
            res->surface_R[i]);
  printf (_("Timings        import %.2f s, voxelise %.2f s, solve %.2f s (%.1f Mvox/s), "
            "post-process %.2f s, total %.2f s\n"),
          res->t_import_s, res->t_voxelise_s, res->t_solve_s, res->mvox_per_s,
          res->t_postprocess_s, res->t_total_s);
  for (size_t r = 0; r < res->n_receivers; r++)
    {
      char name[64];
      rw_sim_output_name (r, name, sizeof name);
      printf (_("File           %s/%s (%zu samples)\n"), out_dir, name, res->ir_frames);
    }
  printf (_("File           %s/results.json\n"), out_dir);
}

typedef struct {
  const RwSimConfig *cfg;
  size_t n_sources;
  const char *out_dir;
  bool json, quiet;
  Progress progress;
} SourceRuns;

/* One source's run is done: its files, then its summary or JSON. */
static bool
source_done (size_t source, const double position[3], RwSimResult *res, void *user_data,
             RwError *err)
{
  SourceRuns *runs = user_data;
  /* Ctrl-C after the last chunk: nothing of this source is written */
  if (atomic_load (&cancel_flag))
    return rw_fail (err, RW_ERROR_CANCELLED, _("Simulation cancelled"));
  RwSimConfig cfg = *runs->cfg;
  memcpy (cfg.source, position, sizeof cfg.source);
  if (runs->progress.printed && runs->progress.tty)
    fprintf (stderr, "\n");
  runs->progress.printed = false;
  const size_t dir_len = strlen (runs->out_dir) + 32;
  char *dir = malloc (dir_len);
  if (dir == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("out of memory"));
  if (runs->n_sources > 1)
    snprintf (dir, dir_len, "%s/source-%zu", runs->out_dir, source + 1);
  else
    snprintf (dir, dir_len, "%s", runs->out_dir);
  bool ok = rw_sim_write_outputs (&cfg, res, dir, err);
  if (ok && runs->json)
    ok = rw_cli_print_owned (rw_results_json (&cfg, res),
                             runs->n_sources > 1 && source + 1 < runs->n_sources ? ",\n" : "\n")
         == RW_EXIT_OK;
  else if (ok && !runs->quiet)
    {
      if (runs->n_sources > 1)
        printf (_("%sSource %zu of %zu at (%g, %g, %g) m\n"), source > 0 ? "\n" : "",
                source + 1, runs->n_sources, cfg.source[0], cfg.source[1], cfg.source[2]);
      print_summary (&cfg, res, dir);
    }
  free (dir);
  return ok;
}

int
rw_cli_simulate (int argc, char **argv)
{
  enum {
    OPT_MESH = 1000, OPT_SOURCE, OPT_RECEIVER, OPT_FMAX, OPT_DURATION, OPT_REFLECTION,
    OPT_MATERIALS, OPT_BOUNDARY, OPT_BACKEND, OPT_PRECISION, OPT_SCALE, OPT_TEMPERATURE,
    OPT_PPW, OPT_THREADS, OPT_OUT, OPT_JSON, OPT_QUIET,
  };
  static const struct option options[] = {
    { "mesh", required_argument, NULL, OPT_MESH },
    { "source", required_argument, NULL, OPT_SOURCE },
    { "receiver", required_argument, NULL, OPT_RECEIVER },
    { "fmax", required_argument, NULL, OPT_FMAX },
    { "duration", required_argument, NULL, OPT_DURATION },
    { "reflection", required_argument, NULL, OPT_REFLECTION },
    { "materials", required_argument, NULL, OPT_MATERIALS },
    { "boundary", required_argument, NULL, OPT_BOUNDARY },
    { "backend", required_argument, NULL, OPT_BACKEND },
    { "precision", required_argument, NULL, OPT_PRECISION },
    { "scale", required_argument, NULL, OPT_SCALE },
    { "temperature", required_argument, NULL, OPT_TEMPERATURE },
    { "ppw", required_argument, NULL, OPT_PPW },
    { "threads", required_argument, NULL, OPT_THREADS },
    { "out", required_argument, NULL, OPT_OUT },
    { "json", no_argument, NULL, OPT_JSON },
    { "quiet", no_argument, NULL, OPT_QUIET },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
  };

  RwSimConfig cfg;
  rw_sim_config_init (&cfg);
  bool json = false, quiet = false;
  double sources[RW_CLI_MAX_SOURCES][3];
  size_t n_sources = 0;
  const char *out_dir = RW_DEFAULT_OUT_DIR;
  long threads = 0;

  optind = 1;
  opterr = 0;
  int opt;
  while ((opt = getopt_long (argc, argv, ":h", options, NULL)) != -1)
    {
      switch (opt)
        {
        case 'h':
          usage (stdout);
          return RW_EXIT_OK;
        case OPT_MESH:
          cfg.mesh_path = optarg;
          break;
        case OPT_SOURCE:
          if (n_sources >= RW_CLI_MAX_SOURCES)
            return rw_cli_usage_error (SUB, _("at most %d sources"), RW_CLI_MAX_SOURCES);
          if (!rw_cli_parse_vec3 (optarg, sources[n_sources]))
            return rw_cli_usage_error (SUB, _("--source '%s': expected X,Y,Z in metres"), optarg);
          n_sources++;
          break;
        case OPT_RECEIVER:
          if (cfg.n_receivers >= RW_SIM_MAX_RECEIVERS)
            return rw_cli_usage_error (SUB, _("at most %d receivers"), RW_SIM_MAX_RECEIVERS);
          if (!rw_cli_parse_vec3 (optarg, cfg.receivers[cfg.n_receivers]))
            return rw_cli_usage_error (SUB, _("--receiver '%s': expected X,Y,Z in metres"), optarg);
          cfg.n_receivers++;
          break;
        case OPT_FMAX:
          if (!rw_cli_parse_double (optarg, 1.0, 100000.0, &cfg.fmax_hz))
            return rw_cli_usage_error (SUB, _("--fmax '%s': expected a frequency in Hz, 1 to 100000"), optarg);
          break;
        case OPT_DURATION:
          if (!rw_cli_parse_double (optarg, 1e-6, 600.0, &cfg.duration_s))
            return rw_cli_usage_error (SUB, _("--duration '%s': expected seconds, more than 0 and at most 600"),
                                       optarg);
          break;
        case OPT_REFLECTION:
          if (!rw_cli_parse_double (optarg, -1.0, 1.0, &cfg.uniform_R))
            return rw_cli_usage_error (SUB, _("--reflection '%s': expected a reflection factor in [-1, 1]"), optarg);
          break;
        case OPT_MATERIALS:
          cfg.materials_map = optarg;
          break;
        case OPT_BOUNDARY:
          if (!rw_boundary_parse (optarg, &cfg.boundary))
            return rw_cli_usage_error (SUB, _("--boundary '%s': expected fv, lrs or savioja"), optarg);
          break;
        case OPT_BACKEND:
          if (!rw_backend_kind_parse (optarg, &cfg.backend))
            return rw_cli_usage_error (SUB, _("--backend '%s': expected auto, cpu or cuda"), optarg);
          break;
        case OPT_PRECISION:
          if (!rw_precision_parse (optarg, &cfg.precision))
            return rw_cli_usage_error (SUB, _("--precision '%s': expected f32, f64 or f16"), optarg);
          break;
        case OPT_SCALE:
          if (!rw_cli_parse_double (optarg, 1e-9, 1e9, &cfg.scale) || cfg.scale <= 0)
            return rw_cli_usage_error (SUB, _("--scale '%s': expected a positive number"), optarg);
          break;
        case OPT_TEMPERATURE:
          if (!rw_cli_parse_double (optarg, -50.0, 60.0, &cfg.temperature_c))
            return rw_cli_usage_error (SUB, _("--temperature '%s': expected °C, -50 to 60"), optarg);
          break;
        case OPT_PPW:
          if (!rw_cli_parse_double (optarg, 4.0, 100.0, &cfg.ppw))
            return rw_cli_usage_error (SUB, _("--ppw '%s': expected points per wavelength, 4 to 100"), optarg);
          break;
        case OPT_THREADS:
          if (!rw_cli_parse_int (optarg, 1, 4096, &threads))
            return rw_cli_usage_error (SUB, _("--threads '%s': expected a whole number, 1 to 4096"), optarg);
          cfg.threads = (int) threads;
          break;
        case OPT_OUT:
          if (optarg[0] == '\0')
            return rw_cli_usage_error (SUB, _("--out: empty folder name"));
          out_dir = optarg;
          break;
        case OPT_JSON:
          json = true;
          break;
        case OPT_QUIET:
          quiet = true;
          break;
        case ':':
          return rw_cli_usage_error (SUB, _("option '%s' needs a value"), argv[optind - 1]);
        case '?':
        default:
          return rw_cli_usage_error (SUB, _("unknown option '%s'"), argv[optind - 1]);
        }
    }
  if (optind < argc)
    return rw_cli_usage_error (SUB, _("unexpected argument '%s'"), argv[optind]);
  if (cfg.mesh_path == NULL)
    return rw_cli_usage_error (SUB, _("--mesh is required"));
  if (n_sources == 0)
    return rw_cli_usage_error (SUB, _("--source is required"));
  if (cfg.n_receivers == 0)
    return rw_cli_usage_error (SUB, _("at least one --receiver is required"));
  if (!isnan (cfg.uniform_R) && cfg.materials_map != NULL)
    return rw_cli_usage_error (SUB, _("--reflection and --materials exclude each other"));

  /* An output path that cannot become a folder fails now, not after the
   * run. (The folder itself is made only once there is something to put
   * in it.) */
  struct stat st;
  if (stat (out_dir, &st) == 0 && !S_ISDIR (st.st_mode))
    {
      RwError e = { 0 };
      rw_fail (&e, RW_ERROR_IO, _("%s: exists and is not a folder"), out_dir);
      return rw_cli_fail (&e);
    }

  /* Ctrl-C: ask the solver to stop at its next check (≤ 0.1 s). Nothing
   * is written before the run completes, and every file is atomic, so a
   * cancel leaves no half-written file. */
  atomic_store (&cancel_flag, 0);
  struct sigaction sa, old_int, old_term;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_sigint;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGINT, &sa, &old_int);
  sigaction (SIGTERM, &sa, &old_term);

  /* rw_simulate_sources imports the mesh once; each source's result is
   * written (DIR, or DIR/source-N/ with several) and reported before the
   * next source is solved. */
  SourceRuns runs = { .cfg = &cfg, .n_sources = n_sources, .out_dir = out_dir, .json = json,
                      .quiet = quiet, .progress = { .tty = isatty (STDERR_FILENO) == 1 } };
  RwError err = { 0 };
  if (json && n_sources > 1)
    printf ("[\n");
  bool ok = rw_simulate_sources (&cfg, (const double (*)[3]) sources, n_sources,
                                 quiet ? NULL : on_progress, &runs.progress, &cancel_flag,
                                 source_done, &runs, &err);
  if (runs.progress.printed && runs.progress.tty)
    fprintf (stderr, "\n");
  if (json && n_sources > 1 && ok)
    printf ("]\n");
  int status = RW_EXIT_OK;
  if (!ok && err.code == RW_ERROR_CANCELLED)
    {
      fprintf (stderr, _("roomwave-cli simulate: cancelled\n"));
      status = RW_EXIT_INPUT;
    }
  else if (!ok)
    status = rw_cli_fail (&err);
  sigaction (SIGINT, &old_int, NULL);
  sigaction (SIGTERM, &old_term, NULL);
  return status;
}
