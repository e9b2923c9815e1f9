/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-simulate.c — `roomwave-cli simulate`: mesh file → calibrated IRs.
 *
 * Parses the options (every number through rw_cli_parse_*: "abc", "nan",
 * "1e999" are usage errors), checks, locks and stages the output folder
 * (rw_sim_out_open) before anything slow, runs rw_simulate_sources with a
 * progress line on stderr and SIGINT wired to its cancel flag, writes each
 * source's outputs into the staging folder (rw_sim_write_outputs), swaps it
 * in for --out at the end (rw_staged_dir_commit) and only then prints a
 * summary or the results JSON on stdout. Exit: 0 done, 1 bad input or
 * cancelled, 2 bad usage.
 *
 * With --checkpoint DIR (rw-checkpoint.h, docs/CHECKPOINT.md) the wave
 * solve continues from DIR's checkpoint of this run, writes one there
 * every --checkpoint-every minutes and at its end, and SIGTERM makes it
 * write one and stop: exit RW_EXIT_CHECKPOINT (75). A run that ends well
 * removes its checkpoint files after the outputs are in place.
 *
 * Test hooks: ROOMWAVE_TEST_WRITE_PAUSE_S=S pauses up to S seconds after the
 * files are written and before the swap (announced on stderr), so that a
 * test can interrupt the writing phase (tests/test-cli-output-safety.py).
 * RW_TEST_TERM_AT_STEP=N[@S] raises SIGTERM in the process at the first
 * progress report of the wave solve at or past step N (of source S, from 1;
 * default 1), so that a test stops a run at a known point; with
 * RW_TEST_SIGNAL=KILL it raises SIGKILL instead, a pre-emption that gives
 * no warning (tests/test-cli-checkpoint.py). */
#include "cli.h"
#include "rw-clock.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rw-comm.h"
#include "rw-checkpoint.h"
#include "rw-ism.h"
#include "rw-physics.h"
#include "rw-rays.h"
#include "rw-results.h"
#include "rw-sim.h"

#define SUB "simulate"
#define RW_CLI_MAX_SOURCES 16
#define RW_DEFAULT_OUT_DIR "roomwave-out"

static atomic_int cancel_flag;
/* SIGTERM with --checkpoint: write a checkpoint, then stop */
static atomic_int checkpoint_flag;

static void
on_sigint (int sig)
{
  (void) sig;
  atomic_store (&cancel_flag, 1);
}

/* SIGTERM (a batch system pre-empting the job): with --checkpoint the
 * solver writes one at its next chunk boundary and stops; anything after
 * the solve is cancelled, its checkpoint written at the solve's end. */
static void
on_sigterm (int sig)
{
  (void) sig;
  atomic_store (&checkpoint_flag, 1);   /* read only with --checkpoint */
  atomic_store (&cancel_flag, 1);
}

static void
usage (FILE *f)
{
  fprintf (f, _("Usage: roomwave-cli simulate --mesh MESH --source X,Y,Z --receiver X,Y,Z [OPTION…]\n"
                "\n"
                "Simulates the impulse responses of a room and writes one calibrated 32-bit float\n"
                "WAV per receiver (48 kHz) and results.json. The IRs are full band: the\n"
                "wave-based FDTD solver below a crossover, geometrical acoustics (image sources\n"
                "and ray tracing, on all CPU cores) above it, joined by complementary filters.\n"
                "Coordinates in metres, in the mesh's frame after --scale; positions between the\n"
                "grid's nodes are interpolated (the source spread over the nodes around it).\n"
                "\n"
                "  --mesh MESH            room model (any format Assimp reads: OBJ, glTF, STL, PLY, …)\n"
                "  --source X,Y,Z         source position; repeat for more (up to %d): one\n"
                "                         simulation per source, written to DIR/source-N/\n"
                "  --receiver X,Y,Z[:TYPE]  receiver position (repeat for more, up to %d) and\n"
                "                         what it records: omnidirectional (default);\n"
                "                         :binaural[,yaw=DEG][,pitch=DEG] a head looking along\n"
                "                         yaw (counter-clockwise from +x) and pitch (up), written\n"
                "                         to receiver-N-binaural.wav (and receiver-N-ambix.wav,\n"
                "                         order 3, to turn the head later); :ambisonic=N[,yaw=…]\n"
                "                         order 1 to 3, AmbiX (ACN, SN3D) receiver-N-ambix.wav.\n"
                "                         receiver-N.wav is always the omnidirectional IR\n"
                "  --hrtf FILE.sofa       HRTF set of binaural receivers (default: the bundled\n"
                "                         MIT KEMAR set)\n"
                "  --fmax HZ              highest valid frequency (default 1000)\n"
                "  --duration S           length of the impulse responses (default 1.0)\n"
                "  --reflection R         one reflection factor R in [-1, 1] for every surface\n"
                "                         (-1, a pressure-release wall, only with --boundary savioja)\n"
                "  --materials MAP.json   surface → material map: a library name, {\"R\": r},\n"
                "                         {\"alpha\": a or [8 bands]}, {\"impedance_csv\": \"f.csv\"}\n"
                "                         (default: match surface names with the library; FV\n"
                "                         absorbs per octave band, docs/MATERIALS.md)\n"
                "  --boundary fv|lrs|savioja  boundary formulation (default fv)\n"
                "  --scheme auto|cartesian|fcc  the FDTD scheme (default auto: the one that\n"
                "                         reaches the accuracy target at least cost: fcc\n"
                "                         with the fv boundary (any receivers), else\n"
                "                         cartesian; docs/SOLVER.md §9)\n"
                "  --backend auto|cpu|cuda    solver backend (default auto: CUDA when present)\n"
                "  --precision f32|f64|f16    arithmetic (default f32; f16 storage needs CUDA)\n"
                "  --scale S              multiply mesh coordinates by S (0.001 for millimetres)\n"
                "  --temperature C        air temperature, sets c and the air absorption\n"
                "                         (default 20 °C)\n"
                "  --humidity PCT         relative humidity of the air, 0 to 100 %% (default 50)\n"
                "  --no-air-absorption    leave out the air's absorption (ISO 9613-1, applied\n"
                "                         per octave band along the IR's time, on by default)\n"
                "  --ppw N                grid points per wavelength at fmax (default: the\n"
                "                         scheme's, %.2f cartesian, %.2f fcc: 2 %% phase error)\n"
                "  --crossover HZ         where the geometrical part takes over (default fmax/2;\n"
                "                         at most fmax/1.293)\n"
                "  --no-hybrid            the wave solver alone: IRs valid up to fmax only\n"
                "  --rays N               rays of the geometrical part (default %d)\n"
                "  --ism-order N          image-source order, 0 to %d (default %d)\n"
                "  --seed N               seed of the rays and the late IR's synthesis (default 1)\n"
                "  --parts                also write each receiver's two parts before the join:\n"
                "                         wave-N.wav (wave only) and geometrical-N.wav\n"
                "  --threads N            CPU threads (default: all)\n"
                "  --device N             the backend's device (default 0; roomwave-cli devices\n"
                "                         lists them); a number beyond them is refused\n"
                "  --out DIR              output folder (default %s); a run replaces it as a\n"
                "                         whole when it ends, so it may hold only files runs\n"
                "                         write; checked and locked before the solve\n"
                "  --checkpoint DIR       keep the wave solve's state in DIR (one file a rank):\n"
                "                         written every --checkpoint-every minutes, at the solve's\n"
                "                         end and on SIGTERM (then the run stops, exit 75); the\n"
                "                         same command continues from it; removed when the run\n"
                "                         ends well (docs/CHECKPOINT.md)\n"
                "  --checkpoint-every MIN minutes between checkpoints (default %g; 0: only at\n"
                "                         the end and on SIGTERM)\n"
                "  --json                 print the results JSON instead of the summary\n"
                "  --quiet                no progress and no summary (errors still go to stderr)\n"
                "  --progress-json        progress for programs: rank 0 prints one JSON object a\n"
                "                         line on stdout per progress report (fraction, step,\n"
                "                         n_steps, seconds_left, part, ranks: [{rank, mvox_per_s}])\n"
                "                         instead of the progress line, and no summary\n"
                "  -h, --help             this help\n"
                "\n"
                "Exit status: 0 done, 1 bad input or cancelled (Ctrl-C), 2 bad usage, 75 stopped by\n"
                "SIGTERM after writing a checkpoint (--checkpoint: run the same command again).\n"),
           RW_CLI_MAX_SOURCES, RW_SIM_MAX_RECEIVERS, RW_DEFAULT_PPW, RW_DEFAULT_PPW_FCC, RW_RAYS_DEFAULT_N,
           RW_ISM_MAX_ORDER, RW_ISM_DEFAULT_ORDER, RW_DEFAULT_OUT_DIR, RW_SIM_CHECKPOINT_EVERY_S / 60.0);
  printf (_("\nSeveral devices or hosts: start it under mpirun -np N (or srun), one rank\n"
            "per device. Each rank steps a slab of the grid on its host's next device\n"
            "(--device is the first), halo planes exchanged every step; rank 0 writes\n"
            "--out (docs/CLUSTER.md).\n"));
}

typedef struct {
  bool tty, quiet;
  double last_s;
  bool printed;
  bool json;               /* --progress-json: JSON lines on stdout */
  /* the test hook RW_TEST_TERM_AT_STEP (top of the file): 0: off */
  size_t term_at, term_source;
  int term_signal;
  const size_t *n_done;    /* sources done: the one solving is n_done + 1 */
} Progress;

/* --progress-json: one line per report, for a program reading the pipe
 * (the GUI's multi-GPU run, ui/rw-mpi-run.c). Numbers in the C locale's
 * form (rw_i18n keeps LC_NUMERIC "C"), each rank's speed over the last
 * chunk from RwProgress (one entry with the run's speed without ranks). */
static void
print_progress_json (const RwProgress *p)
{
  printf ("{\"fraction\":%.9g,\"step\":%zu,\"n_steps\":%zu,\"seconds_left\":%.6g,\"part\":\"%s\","
          "\"ranks\":[", isfinite (p->fraction) ? p->fraction : 0.0, p->step, p->n_steps, isfinite (p->seconds_left) ? p->seconds_left : -1.0,
          p->part == RW_PROGRESS_GEOMETRICAL ? "geometrical" : "wave");
  const int n = p->ranks > 1 && p->rank_mvox_per_s != NULL ? p->ranks : 1;
  for (int r = 0; r < n; r++)
    {
      const double v = n > 1 ? p->rank_mvox_per_s[r] : p->mvox_per_s;
      printf ("%s{\"rank\":%d,\"mvox_per_s\":%.6g}", r > 0 ? "," : "", r, isfinite (v) ? v : 0.0);
    }
  printf ("]}\n");
  fflush (stdout);
}

static bool
on_progress (const RwProgress *p, void *user_data)
{
  Progress *pr = user_data;
  if (pr->term_at > 0 && p->part == RW_PROGRESS_WAVE && p->step >= pr->term_at
      && *pr->n_done + 1 == pr->term_source)
    {
      pr->term_at = 0;
      raise (pr->term_signal);
    }
  if (pr->json)
    {
      print_progress_json (p);
      return true;
    }
  if (pr->quiet)
    return true;
  double t = rw_clock_s ();
  bool last = p->step >= p->n_steps;
  if (pr->tty)
    {
      /* One updating line; a tty can take a few redraws a second. */
      if (t - pr->last_s < 0.1 && !last)
        return true;
      if (p->part == RW_PROGRESS_GEOMETRICAL)
        fprintf (stderr, _("\r  geometrical part: %5.1f %%  %6.0f s left                "),
                 100.0 * p->fraction, p->seconds_left);
      else
        fprintf (stderr, _("\r  solving: %5.1f %%  %8.1f Mvox/s  %6.0f s left "),
                 100.0 * p->fraction, p->mvox_per_s, p->seconds_left);
    }
  else
    {
      /* A log: at most one line a second. */
      if (t - pr->last_s < 1.0 && !last)
        return true;
      if (p->part == RW_PROGRESS_GEOMETRICAL)
        fprintf (stderr, _("geometrical part: %.1f %%, %.0f s left\n"), 100.0 * p->fraction,
                 p->seconds_left);
      else
        fprintf (stderr, _("solving: %.1f %%, %.1f Mvox/s, %.0f s left\n"),
                 100.0 * p->fraction, p->mvox_per_s, p->seconds_left);
    }
  fflush (stderr);
  pr->last_s = t;
  pr->printed = true;
  return true;
}

static void
print_summary (FILE *f, const RwSimConfig *cfg, const RwSimResult *res, const char *out_dir)
{
  fprintf (f, _("Mesh           %s\n"), cfg->mesh_path);
  if (res->hybrid)
    {
      double transition[2];
      rw_hybrid_transition (res->crossover_hz, transition);
      fprintf (f, _("Valid up to    %g Hz (full band: the wave part valid to fmax = %g Hz, %g points "
                    "per wavelength)\n"), rw_sim_valid_up_to_hz (res), res->fmax_hz, res->ppw);
      fprintf (f, _("Crossover      %g Hz (transition %.0f–%.0f Hz): wave below, geometrical above "
                    "(%zu rays, image sources to order %d, seed %llu)\n"),
               res->crossover_hz, transition[0], transition[1], cfg->n_rays,
               cfg->ism_order, (unsigned long long) cfg->seed);
    }
  else
    fprintf (f, _("Valid up to    %g Hz (fmax; %g points per wavelength; wave part only)\n"),
             rw_sim_valid_up_to_hz (res), res->ppw);
  fprintf (f, _("Scheme         %s (worst-direction phase-velocity error at fmax %+.2f %%)\n"),
           rw_scheme_name (res->scheme), 100.0 * res->phase_error);
  fprintf (f, _("Grid           %zu × %zu × %zu cells, h = %.4f m, c = %.1f m/s\n"),
          res->nx, res->ny, res->nz, res->spacing_m, res->c);
  fprintf (f, _("Cells          %zu inside, %zu boundary\n"), res->n_inside, res->n_boundary);
  fprintf (f, _("Volume         %.2f m³ (mesh), %.2f m³ (grid)\n"), res->mesh_volume_m3, res->grid_volume_m3);
  fprintf (f, _("Sampling       fs = %.1f Hz on the grid, %zu steps; output %.0f Hz\n"),
          res->fs_grid_hz, res->n_steps, res->fs_out_hz);
  fprintf (f, _("Backend        %s (%s), %s, boundary %s\n"), res->backend, res->device,
          rw_precision_name (cfg->precision), rw_boundary_name (cfg->boundary));
  if (res->air_absorption)
    {
      fprintf (f, _("Air            %g °C, %g %% relative humidity; absorption (ISO 9613-1, dB/km):"),
               cfg->temperature_c, cfg->humidity_pct);
      for (size_t b = 0; b < res->air.n_bands && res->air.nominal_hz[b] <= 8000; b++)
        fprintf (f, " %g Hz %.3g%s", res->air.nominal_hz[b], 1000.0 * res->air.alpha_db_per_m[b],
                 b + 1 < res->air.n_bands && res->air.nominal_hz[b + 1] <= 8000 ? "," : "");
      fprintf (f, "\n");
    }
  else
    fprintf (f, _("Air            %g °C; no air absorption (--no-air-absorption)\n"), cfg->temperature_c);
  size_t n_default = 0;
  for (size_t i = 0; i < res->n_surfaces; i++)
    {
      fprintf (f, _("Surface        %-20s %-28s R = %.3f\n"), res->surface_names[i],
               res->surface_materials && res->surface_materials[i] ? res->surface_materials[i] : "",
               res->surface_R[i]);
      n_default += res->surface_models == NULL || res->surface_models[i].scattering_default;
    }
  if (res->hybrid && n_default > 0)
    fprintf (f, _("Scattering     %zu of %zu surfaces have no published scattering coefficient and "
                  "take the default %.2f in every band\n"), n_default, res->n_surfaces,
             RW_MATERIAL_DEFAULT_SCATTERING);
  fprintf (f, _("Timings        import %.2f s, voxelise %.2f s, setup %.2f s, solve %.2f s (%.1f Mvox/s), "
            "post-process %.2f s, total %.2f s; writing the WAVs %.2f s\n"),
          res->t_import_s, res->t_voxelise_s, res->t_setup_s, res->t_solve_s, res->mvox_per_s,
          res->t_postprocess_s, res->t_total_s, res->t_write_s);
  if (res->hybrid)
    fprintf (f, _("               geometrical part %.2f s, join %.2f s\n"), res->t_geometrical_s,
             res->t_join_s);
  for (size_t r = 0; r < res->n_receivers; r++)
    {
      char name[64];
      rw_sim_output_name (r, name, sizeof name);
      fprintf (f, _("File           %s/%s (%zu samples)\n"), out_dir, name, res->ir_frames);
      const RwReceiverSpec *spec = res->ir_ambi ? &cfg->receiver_specs[r] : NULL;
      if (spec != NULL && spec->type == RW_RECEIVER_BINAURAL)
        {
          rw_receiver_binaural_name (r, name, sizeof name);
          fprintf (f, _("File           %s/%s (binaural, yaw %g°, pitch %g°)\n"), out_dir, name,
                   spec->yaw_deg, spec->pitch_deg);
        }
      if (spec != NULL && spec->type != RW_RECEIVER_OMNI)
        {
          rw_receiver_ambix_name (r, name, sizeof name);
          fprintf (f, _("File           %s/%s (ambisonic order %d, AmbiX; the wave part to order %d)\n"),
                   out_dir, name, rw_receiver_ambi_order (spec), res->wave_ambi_order[r]);
        }
      for (int g = 0; g < 2 && cfg->write_parts && res->ir_wave != NULL; g++)
        {
          rw_sim_part_name (r, g == 1, name, sizeof name);
          fprintf (f, g == 1 ? _("File           %s/%s (geometrical part)\n")
                             : _("File           %s/%s (wave part)\n"), out_dir, name);
        }
    }
  fprintf (f, _("File           %s/results.json\n"), out_dir);
}

typedef struct {
  const RwSimConfig *cfg;
  size_t n_sources;
  const char *out_dir;     /* as given: what the summary names */
  const char *staging;     /* where the files go until the swap */
  bool json, quiet;
  int rank;                /* MPI rank (rw-comm.h): only rank 0 writes */
  Progress progress;
  size_t n_done;           /* sources written into the staging folder */
  char *report[RW_CLI_MAX_SOURCES];   /* each one's summary or JSON, printed after the swap */
} SourceRuns;

/* "base" or "base/source-N": source s's folder under base. */
static char *
source_dir (const char *base, size_t n_sources, size_t s)
{
  const size_t len = strlen (base) + 32;
  char *dir = malloc (len);
  char name[32];
  rw_sim_source_dir_name (s, name, sizeof name);
  if (dir != NULL && n_sources > 1)
    snprintf (dir, len, "%s/%s", base, name);
  else if (dir != NULL)
    snprintf (dir, len, "%s", base);
  return dir;
}

/* One source's run is done: its files into the staging folder; its
 * summary or JSON kept for after the swap. */
static bool
source_done (size_t source, const double position[3], RwSimResult *res, void *user_data,
             RwError *err)
{
  SourceRuns *runs = user_data;
  /* the other ranks stepped their slabs; rank 0 has the IRs */
  if (runs->rank != 0)
    {
      runs->n_done = source + 1;
      return true;
    }
  /* Ctrl-C after the last chunk: nothing of this source is written */
  if (atomic_load (&cancel_flag))
    return rw_fail (err, RW_ERROR_CANCELLED, _("Simulation cancelled"));
  RwSimConfig cfg = *runs->cfg;
  memcpy (cfg.source, position, sizeof cfg.source);
  if (runs->progress.printed && runs->progress.tty)
    fprintf (stderr, "\n");
  runs->progress.printed = false;
  for (size_t w = 0; w < res->n_warnings; w++)
    if (runs->n_sources > 1)
      fprintf (stderr, _("roomwave-cli simulate: warning: source %zu: %s\n"), source + 1, res->warnings[w]);
    else
      fprintf (stderr, _("roomwave-cli simulate: warning: %s\n"), res->warnings[w]);
  char *dir = source_dir (runs->staging, runs->n_sources, source);
  char *shown = source_dir (runs->out_dir, runs->n_sources, source);
  bool ok = dir != NULL && shown != NULL;
  if (!ok)
    rw_fail (err, RW_ERROR_MEMORY, _("out of memory"));
  ok = ok && rw_sim_write_outputs (&cfg, res, dir, err);
  if (ok && atomic_load (&cancel_flag))
    ok = rw_fail (err, RW_ERROR_CANCELLED, _("Simulation cancelled"));
  if (ok && runs->json)
    runs->report[source] = rw_results_json (&cfg, res);
  else if (ok && !runs->quiet)
    {
      size_t size = 0;
      FILE *f = open_memstream (&runs->report[source], &size);
      if (f != NULL)
        {
          if (runs->n_sources > 1)
            fprintf (f, _("%sSource %zu of %zu at (%g, %g, %g) m\n"), source > 0 ? "\n" : "",
                     source + 1, runs->n_sources, cfg.source[0], cfg.source[1], cfg.source[2]);
          print_summary (f, &cfg, res, shown);
          fclose (f);
        }
    }
  if (ok && (runs->json || !runs->quiet) && runs->report[source] == NULL)
    ok = rw_fail (err, RW_ERROR_MEMORY, _("out of memory"));
  if (ok)
    runs->n_done = source + 1;
  free (dir);
  free (shown);
  return ok;
}

/* The test hook (see the top of the file): a pause in the writing phase
 * that Ctrl-C ends early. */
static void
test_pause_before_swap (void)
{
  const char *s = getenv ("ROOMWAVE_TEST_WRITE_PAUSE_S");
  double pause_s;
  if (s == NULL || !rw_cli_parse_double (s, 0.0, 600.0, &pause_s))
    return;
  fprintf (stderr, "roomwave-cli simulate: test hook: pausing %g s before the swap\n", pause_s);
  fflush (stderr);
  const double until = rw_clock_s () + pause_s;
  while (!atomic_load (&cancel_flag) && rw_clock_s () < until)
    {
      struct timespec ts = { 0, 10000000 };
      nanosleep (&ts, NULL);
    }
}

/* The test hook RW_TEST_TERM_AT_STEP=N[@S] (top of the file). */
static void
test_term_hook (Progress *pr)
{
  const char *s = getenv ("RW_TEST_TERM_AT_STEP");
  long step, source = 1;
  char buf[64];
  if (s == NULL || strlen (s) >= sizeof buf)
    return;
  snprintf (buf, sizeof buf, "%s", s);
  char *at = strchr (buf, '@');
  if (at != NULL)
    *at = '\0';
  if (!rw_cli_parse_int (buf, 1, LONG_MAX, &step)
      || (at != NULL && !rw_cli_parse_int (at + 1, 1, RW_CLI_MAX_SOURCES, &source)))
    return;
  const char *sig = getenv ("RW_TEST_SIGNAL");
  pr->term_signal = sig != NULL && strcmp (sig, "KILL") == 0 ? SIGKILL : SIGTERM;
  pr->term_at = (size_t) step;
  pr->term_source = (size_t) source;
}

/* Whether folder `dir` is `parent` or lies in it, by their absolute
 * names: as the system resolves them (links followed, rw_file_resolve)
 * where they or their parents exist, else with "." and ".." folded. */
static bool
inside_folder (const char *dir, const char *parent)
{
  char a[4096], b[4096], cwd[2048];
  if (getcwd (cwd, sizeof cwd) == NULL)
    return false;
  const char *names[2] = { dir, parent };
  char *out[2] = { a, b };
  for (int i = 0; i < 2; i++)
    {
      char raw[4096];
      char *resolved = rw_file_resolve (names[i]);
      snprintf (raw, sizeof raw, "%s/%s", resolved != NULL || names[i][0] == '/' ? "" : cwd,
                resolved != NULL ? resolved : names[i]);
      free (resolved);
      /* fold the components */
      size_t n = 0;
      out[i][0] = '\0';
      for (char *save = NULL, *c = strtok_r (raw, "/", &save); c != NULL;
           c = strtok_r (NULL, "/", &save))
        {
          if (strcmp (c, ".") == 0)
            continue;
          if (strcmp (c, "..") == 0)
            {
              char *slash = strrchr (out[i], '/');
              n = slash != NULL ? (size_t) (slash - out[i]) : 0;
              out[i][n] = '\0';
              continue;
            }
          n += (size_t) snprintf (out[i] + n, 4096 - n, "/%s", c);
          if (n >= 4096)
            return false;
        }
    }
  const size_t lb = strlen (b);
  return strncmp (a, b, lb) == 0 && (a[lb] == '\0' || a[lb] == '/');
}

/* After the runs: swap the staging folder in when it holds something
 * worth keeping (every source, or — when a later source failed — the
 * sources before it, as before), then print what was kept. A cancel, or
 * a failure before any source was written, leaves --out as it was. */
static bool
finish_outputs (SourceRuns *runs, RwStagedDir *sd, bool ok, RwError *err)
{
  if (runs->rank != 0)
    return ok;
  test_pause_before_swap ();
  if (atomic_load (&cancel_flag) && (ok || err->code != RW_ERROR_CANCELLED))
    {
      ok = false;
      rw_fail (err, RW_ERROR_CANCELLED, _("Simulation cancelled"));
    }
  const bool keep = ok || (runs->n_done > 0 && err->code != RW_ERROR_CANCELLED);
  RwError swap_err = { 0 };
  if (!keep)
    rw_staged_dir_abort (sd);
  else if (!rw_staged_dir_commit (sd, &swap_err))
    {
      *err = swap_err;
      return false;
    }
  if (keep && runs->json && runs->n_sources > 1)
    printf ("[\n");
  for (size_t s = 0; keep && s < runs->n_done; s++)
    if (runs->report[s] != NULL)
      printf ("%s%s", runs->report[s],
              !runs->json ? "" : runs->n_sources > 1 && s + 1 < runs->n_done ? ",\n" : "\n");
  if (keep && runs->json && runs->n_sources > 1)
    printf ("]\n");
  return ok;
}

int
rw_cli_simulate (int argc, char **argv)
{
  enum {
    OPT_MESH = 1000, OPT_SOURCE, OPT_RECEIVER, OPT_FMAX, OPT_DURATION, OPT_REFLECTION,
    OPT_MATERIALS, OPT_BOUNDARY, OPT_SCHEME, OPT_BACKEND, OPT_PRECISION, OPT_SCALE, OPT_TEMPERATURE,
    OPT_PPW, OPT_THREADS, OPT_DEVICE, OPT_OUT, OPT_JSON, OPT_QUIET, OPT_HUMIDITY, OPT_NO_AIR,
    OPT_CROSSOVER, OPT_NO_HYBRID, OPT_RAYS, OPT_ISM_ORDER, OPT_SEED, OPT_PARTS, OPT_HRTF,
    OPT_PROGRESS_JSON,
    OPT_CHECKPOINT, OPT_CHECKPOINT_EVERY,
  };
  static const struct option options[] = {
    { "mesh", required_argument, NULL, OPT_MESH },
    { "source", required_argument, NULL, OPT_SOURCE },
    { "receiver", required_argument, NULL, OPT_RECEIVER },
    { "hrtf", required_argument, NULL, OPT_HRTF },
    { "fmax", required_argument, NULL, OPT_FMAX },
    { "duration", required_argument, NULL, OPT_DURATION },
    { "reflection", required_argument, NULL, OPT_REFLECTION },
    { "materials", required_argument, NULL, OPT_MATERIALS },
    { "boundary", required_argument, NULL, OPT_BOUNDARY },
    { "scheme", required_argument, NULL, OPT_SCHEME },
    { "backend", required_argument, NULL, OPT_BACKEND },
    { "precision", required_argument, NULL, OPT_PRECISION },
    { "scale", required_argument, NULL, OPT_SCALE },
    { "temperature", required_argument, NULL, OPT_TEMPERATURE },
    { "humidity", required_argument, NULL, OPT_HUMIDITY },
    { "no-air-absorption", no_argument, NULL, OPT_NO_AIR },
    { "ppw", required_argument, NULL, OPT_PPW },
    { "crossover", required_argument, NULL, OPT_CROSSOVER },
    { "no-hybrid", no_argument, NULL, OPT_NO_HYBRID },
    { "rays", required_argument, NULL, OPT_RAYS },
    { "ism-order", required_argument, NULL, OPT_ISM_ORDER },
    { "seed", required_argument, NULL, OPT_SEED },
    { "parts", no_argument, NULL, OPT_PARTS },
    { "threads", required_argument, NULL, OPT_THREADS },
    { "device", required_argument, NULL, OPT_DEVICE },
    { "out", required_argument, NULL, OPT_OUT },
    { "checkpoint", required_argument, NULL, OPT_CHECKPOINT },
    { "checkpoint-every", required_argument, NULL, OPT_CHECKPOINT_EVERY },
    { "json", no_argument, NULL, OPT_JSON },
    { "quiet", no_argument, NULL, OPT_QUIET },
    { "progress-json", no_argument, NULL, OPT_PROGRESS_JSON },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
  };

  RwSimConfig cfg;
  rw_sim_config_init (&cfg);
  /* this process runs once: its last solve gives the device back while
   * the IRs are post-processed (RwSimConfig.release_device) */
  cfg.release_device = true;
  bool json = false, quiet = false, progress_json = false;
  double sources[RW_CLI_MAX_SOURCES][3];
  size_t n_sources = 0;
  const char *out_dir = RW_DEFAULT_OUT_DIR;
  const char *reflection_arg = NULL;
  const char *hybrid_option = NULL;   /* the last option that needs the geometrical part */
  long threads = 0;
  bool every_given = false;

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
          {
            RwError perr = { 0 };
            if (!rw_receiver_parse (optarg, cfg.receivers[cfg.n_receivers],
                                    &cfg.receiver_specs[cfg.n_receivers], &perr))
              return rw_cli_usage_error (SUB, "--receiver: %s", perr.message);
          }
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
          reflection_arg = optarg;
          break;
        case OPT_MATERIALS:
          cfg.materials_map = optarg;
          break;
        case OPT_BOUNDARY:
          if (!rw_boundary_parse (optarg, &cfg.boundary))
            return rw_cli_usage_error (SUB, _("--boundary '%s': expected fv, lrs or savioja"), optarg);
          break;
        case OPT_SCHEME:
          if (!rw_scheme_parse (optarg, &cfg.scheme))
            return rw_cli_usage_error (SUB, _("--scheme '%s': expected auto, cartesian or fcc"), optarg);
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
        case OPT_HUMIDITY:
          if (!rw_cli_parse_double (optarg, 0.0, 100.0, &cfg.humidity_pct))
            return rw_cli_usage_error (SUB, _("--humidity '%s': expected a relative humidity in %%, 0 to 100"),
                                       optarg);
          break;
        case OPT_NO_AIR:
          cfg.air_absorption = false;
          break;
        case OPT_PPW:
          if (!rw_cli_parse_double (optarg, 4.0, 100.0, &cfg.ppw))
            return rw_cli_usage_error (SUB, _("--ppw '%s': expected points per wavelength, 4 to 100"), optarg);
          break;
        case OPT_CROSSOVER:
          hybrid_option = "--crossover";
          if (!rw_cli_parse_double (optarg, 1.0, 100000.0, &cfg.crossover_hz))
            return rw_cli_usage_error (SUB, _("--crossover '%s': expected a frequency in Hz, 1 to 100000"),
                                       optarg);
          break;
        case OPT_NO_HYBRID:
          cfg.hybrid = false;
          break;
        case OPT_RAYS:
          hybrid_option = "--rays";
          {
            long n;
            if (!rw_cli_parse_int (optarg, 1, (long) RW_RAYS_MAX_N, &n))
              return rw_cli_usage_error (SUB, _("--rays '%s': expected a whole number, 1 to %zu"), optarg,
                                         RW_RAYS_MAX_N);
            cfg.n_rays = (size_t) n;
          }
          break;
        case OPT_ISM_ORDER:
          hybrid_option = "--ism-order";
          {
            long n;
            if (!rw_cli_parse_int (optarg, 0, RW_ISM_MAX_ORDER, &n))
              return rw_cli_usage_error (SUB, _("--ism-order '%s': expected a whole number, 0 to %d"), optarg,
                                         RW_ISM_MAX_ORDER);
            cfg.ism_order = (int) n;
          }
          break;
        case OPT_SEED:
          hybrid_option = "--seed";
          {
            long n;
            if (!rw_cli_parse_int (optarg, 0, 9007199254740991L, &n))
              return rw_cli_usage_error (SUB, _("--seed '%s': expected a whole number, 0 to 2^53 - 1"),
                                         optarg);
            cfg.seed = (uint64_t) n;
          }
          break;
        case OPT_HRTF:
          if (optarg[0] == '\0')
            return rw_cli_usage_error (SUB, _("--hrtf: empty file name"));
          cfg.hrtf_path = optarg;
          break;
        case OPT_PARTS:
          hybrid_option = "--parts";
          cfg.write_parts = true;
          break;
        case OPT_THREADS:
          if (!rw_cli_parse_int (optarg, 1, 4096, &threads))
            return rw_cli_usage_error (SUB, _("--threads '%s': expected a whole number, 1 to 4096"), optarg);
          cfg.threads = (int) threads;
          break;
        case OPT_DEVICE:
          {
            long device;
            if (!rw_cli_parse_int (optarg, 0, 4095, &device))
              return rw_cli_usage_error (SUB, _("--device '%s': expected a device number, 0 to 4095"),
                                         optarg);
            cfg.device = (int) device;
          }
          break;
        case OPT_OUT:
          if (optarg[0] == '\0')
            return rw_cli_usage_error (SUB, _("--out: empty folder name"));
          out_dir = optarg;
          break;
        case OPT_CHECKPOINT:
          if (optarg[0] == '\0')
            return rw_cli_usage_error (SUB, _("--checkpoint: empty folder name"));
          cfg.checkpoint_dir = optarg;
          break;
        case OPT_CHECKPOINT_EVERY:
          {
            double minutes;
            if (!rw_cli_parse_double (optarg, 0.0, 1e6, &minutes))
              return rw_cli_usage_error (SUB, _("--checkpoint-every '%s': expected minutes, 0 to "
                                                "1000000"), optarg);
            cfg.checkpoint_every_s = 60.0 * minutes;
            every_given = true;
          }
          break;
        case OPT_JSON:
          json = true;
          break;
        case OPT_QUIET:
          quiet = true;
          break;
        case OPT_PROGRESS_JSON:
          progress_json = true;
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
  if (progress_json && (json || quiet))
    return rw_cli_usage_error (SUB, _("--progress-json goes with neither --json nor --quiet"));
  if (cfg.mesh_path == NULL)
    return rw_cli_usage_error (SUB, _("--mesh is required"));
  if (every_given && cfg.checkpoint_dir == NULL)
    return rw_cli_usage_error (SUB, _("--checkpoint-every needs --checkpoint DIR"));
  if (cfg.checkpoint_dir != NULL && inside_folder (cfg.checkpoint_dir, out_dir))
    return rw_cli_usage_error (SUB, _("--checkpoint '%s' lies in --out '%s', which a run replaces "
                                      "as a whole: give a folder outside it"),
                               cfg.checkpoint_dir, out_dir);
  if (n_sources == 0)
    return rw_cli_usage_error (SUB, _("--source is required"));
  if (cfg.n_receivers == 0)
    return rw_cli_usage_error (SUB, _("at least one --receiver is required"));
  bool any_binaural = false;
  for (size_t r = 0; r < cfg.n_receivers; r++)
    any_binaural |= cfg.receiver_specs[r].type == RW_RECEIVER_BINAURAL;
  if (cfg.hrtf_path != NULL && !any_binaural)
    return rw_cli_usage_error (SUB, _("--hrtf is for binaural receivers, and no --receiver is "
                                      "binaural (X,Y,Z:binaural)"));
  if (!isnan (cfg.uniform_R) && cfg.materials_map != NULL)
    return rw_cli_usage_error (SUB, _("--reflection and --materials exclude each other"));
  if (!cfg.hybrid && hybrid_option != NULL)
    return rw_cli_usage_error (SUB, _("%s sets the geometrical part: it does not go with --no-hybrid"),
                               hybrid_option);
  /* the crossover against fmax and the output rate, before the import */
  RwError x_err = { 0 };
  if (cfg.hybrid && !rw_hybrid_check_crossover (rw_sim_crossover_hz (&cfg), cfg.fmax_hz, cfg.fs_out_hz, &x_err))
    return rw_cli_usage_error (SUB, "%s", x_err.message);
  /* The engine's own check, now that --boundary is known: R = −1 is
   * refused here, not after the mesh has been voxelised. */
  RwError r_err = { 0 };
  if (!isnan (cfg.uniform_R) && !rw_reflection_check (cfg.uniform_R, cfg.boundary, &r_err))
    return rw_cli_usage_error (SUB, _("--reflection '%s': %s"), reflection_arg, r_err.message);

  /* Several MPI ranks (mpirun -np N, srun): each steps a slab of the
   * grid; rank 0 alone reports and writes (docs/CLUSTER.md). */
  RwError c_err = { 0 };
  RwComm *comm = rw_comm_world (&c_err);
  if (comm == NULL && c_err.code != RW_OK)
    return rw_cli_fail (&c_err);
  cfg.comm = comm;
  const int rank = rw_comm_rank (comm);
  if (rank != 0)
    {
      quiet = true;
      json = false;
    }

  /* Ctrl-C: ask the solver to stop at its next check (≤ 0.1 s). The
   * files go to a staging folder that replaces --out only at the end, so
   * a cancel at any point leaves --out as it was. */
  atomic_store (&cancel_flag, 0);
  atomic_store (&checkpoint_flag, 0);
  cfg.checkpoint_now = &checkpoint_flag;
  struct sigaction sa, sa_term, old_int, old_term;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_sigint;
  sigemptyset (&sa.sa_mask);
  sa_term = sa;
  sa_term.sa_handler = on_sigterm;
  sigaction (SIGINT, &sa, &old_int);
  sigaction (SIGTERM, &sa_term, &old_term);

  /* Everything about --out that can fail (a file on the way, a missing
   * folder, no write permission, another run writing there, files that
   * are not a run's) fails now, before the import and the solve. */
  RwError err = { 0 };
  RwStagedDir sd;
  memset (&sd, 0, sizeof sd);
  bool ok = rank != 0 || rw_sim_out_open (&sd, &cfg, out_dir, &err);
  if (comm != NULL)
    {
      /* the other ranks go on only if rank 0 can write */
      int good = ok;
      RwError m_err = { 0 };
      if (!rw_comm_min_int (comm, &good, &m_err))
        rw_comm_abort (comm, m_err.message);
      if (!good && ok)
        ok = rw_fail (&err, RW_ERROR_IO, _("rank 0 cannot write the results folder '%s'"), out_dir);
    }

  /* rw_simulate_sources imports the mesh once; each source's result is
   * written (DIR, or DIR/source-N/ with several) before the next source is
   * solved; the folder is swapped in and the reports printed at the end. */
  SourceRuns runs = { .cfg = &cfg, .n_sources = n_sources, .out_dir = out_dir,
                      .staging = sd.staging, .json = json, .quiet = quiet || progress_json, .rank = rank,
                      .progress = { .tty = isatty (STDERR_FILENO) == 1, .json = progress_json && rank == 0,
                                    .quiet = quiet } };
  runs.progress.n_done = &runs.n_done;
  test_term_hook (&runs.progress);
  if (ok)
    {
      ok = rw_simulate_sources (&cfg, (const double (*)[3]) sources, n_sources,
                                on_progress, &runs.progress, &cancel_flag,
                                source_done, &runs, &err);
      if (runs.progress.printed && runs.progress.tty)
        fprintf (stderr, "\n");
      ok = finish_outputs (&runs, &sd, ok, &err);
    }
  for (size_t s = 0; s < n_sources; s++)
    free (runs.report[s]);
  int status = RW_EXIT_OK;
  /* the checkpoints of a run that ended well: rank 0 removes the folder
   * (every rank has written its results by then) */
  if (ok && rank == 0 && cfg.checkpoint_dir != NULL && !rw_checkpoint_remove (cfg.checkpoint_dir, &err))
    fprintf (stderr, _("roomwave-cli simulate: warning: %s\n"), err.message);
  if (!ok && cfg.checkpoint_dir != NULL && atomic_load (&checkpoint_flag))
    {
      /* the solver's own message says at which step; stopped outside the
       * solve, the checkpoints already written stay */
      if (rank != 0)
        ;   /* every rank stopped at the same step: rank 0 says it */
      else if (strstr (err.message, cfg.checkpoint_dir) != NULL)
        fprintf (stderr, "roomwave-cli simulate: %s\n", err.message);
      else
        fprintf (stderr, _("roomwave-cli simulate: stopped by SIGTERM; the checkpoints in %s are "
                           "kept: run the same command again to continue\n"), cfg.checkpoint_dir);
      status = RW_EXIT_CHECKPOINT;
    }
  else if (!ok && err.code == RW_ERROR_CANCELLED)
    {
      fprintf (stderr, _("roomwave-cli simulate: cancelled\n"));
      status = RW_EXIT_INPUT;
    }
  else if (!ok)
    {
      /* every rank says why it stopped (the same words where the ranks
       * agreed on a failure: rw-solver.c) */
      if (rank != 0)
        rw_fail_prefix (&err, _("rank %d of %d"), rank, rw_comm_size (comm));
      status = rw_cli_fail (&err);
    }
  sigaction (SIGINT, &old_int, NULL);
  sigaction (SIGTERM, &old_term, NULL);
  /* A failure on some ranks may leave others waiting for them: stop the
   * whole job (the message is out). A checkpoint's stop is every rank's
   * (agreed in rw_solver_run): each exits 75 */
  if (status != RW_EXIT_OK && status != RW_EXIT_CHECKPOINT && rw_comm_size (comm) > 1)
    rw_comm_abort (comm, _("the run failed; stopping every rank"));
  rw_comm_finalize ();
  return status;
}
