/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sim-spatial: ambisonic receivers through the pipeline (rw_sim_solve,
 * the path of `simulate` and the GUI's Run; issue #13). An 8 m cube of
 * R = 0.5 walls at fmax 500 Hz, the source at its centre and 26
 * ambisonic receivers (order 3) 1.5 m from it, one in each of the 26
 * directions of the cube's axes, edge and corner diagonals, so that each
 * hears the direct sound from another direction; 40 ms (the direct sound
 * at 4.4 ms, the first reflection at ≥ 19 ms; an IR cut within a few ms
 * of the direct sound lets the encoder's long low-frequency filters
 * spread its abrupt end back over it: 3.1° at 14 ms):
 *  - the scheme: AUTO, which is the FCC scheme (issue #14), or the
 *    argument's ("cartesian": test sim-spatial-cartesian);
 *  - wave part alone (hybrid off): W is the omnidirectional IR bit for
 *    bit; the direct sound (−1 … +3 ms about r/c) decodes (energy
 *    vector, order-3 max-rE decoder) to the direction of the source
 *    within 5° for all 26, and the first-order intensity within 10°
 *    (the bounds), and both within 1° of the direction from the
 *    receiver's own position (measured: FCC 0.02° and 0.00°, 7-point
 *    0.00° and 0.00°; with the probes about the nearest nodes 0.12° and
 *    3.32°, 2.26° and 2.34°: 12 and 18 checks fail); the channels above
 *    the order the wave part resolves are silent;
 *  - full band (hybrid, crossover 250 Hz): W equals the omni IR to 1e-5 of
 *    its peak (both are the same joins of float parts) and within
 *    0.5 dB in every octave band 125 Hz … 8 kHz; the direct sound decodes
 *    within 1° for all 26, full band, and within 5° in its 2 kHz octave
 *    band alone (the geometrical part's: above the transition band);
 *  - a receiver turned by yaw 90° hears the source 90° further clockwise;
 *  - results.json records each receiver's type, orientation and orders,
 *    and reads back (rw_results_read) with them; the AmbiX file has
 *    (N + 1)² channels;
 *  - seen failing: the geometrical part encoded 90° off (24 of 26
 *    receivers, full band and 2 kHz band), the wave part not turned into
 *    the receiver's frame (the yaw-90° receivers);
 *  - refused: an ambisonic receiver whose probe reaches a wall (naming
 *    the receiver), an HRTF set that is not a SOFA file (naming it, before
 *    any solve), an order of 4. */
#include "rw-test.h"
#include "test-ambi-common.h"
#include "rw-air.h"
#include "rw-analysis.h"
#include "rw-ambisonics.h"
#include "rw-audio.h"
#include "rw-physics.h"
#include "rw-results.h"
#include "rw-shapes.h"
#include "rw-sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define N_DIRS 26
#define ORDER 3

static double dirs[N_DIRS][3];

static void
make_dirs (void)
{
  int k = 0;
  for (int x = -1; x <= 1; x++)
    for (int y = -1; y <= 1; y++)
      for (int z = -1; z <= 1; z++)
        if (x || y || z)
          {
            const double l = sqrt ((double) (x * x + y * y + z * z));
            dirs[k][0] = x / l, dirs[k][1] = y / l, dirs[k][2] = z / l;
            k++;
          }
}

/* the scheme the runs ask for: AUTO (the FCC scheme, which takes
 * spatial receivers since issue #14) unless the program's argument is
 * "cartesian" or "fcc" */
static RwScheme scheme = RW_SCHEME_AUTO;

static void
config (RwSimConfig *cfg, bool hybrid)
{
  rw_sim_config_init (cfg);
  cfg->scheme = scheme;
  cfg->fmax_hz = 500.0;
  /* RW_SIM_SPATIAL_BACKEND=cuda and RW_SIM_SPATIAL_FMAX: the same proof on
   * a GPU at a higher fmax (tests/gpu/run.sh spatial) */
  const char *fm = getenv ("RW_SIM_SPATIAL_FMAX");
  if (fm != NULL && atof (fm) > 0)
    cfg->fmax_hz = atof (fm);
  cfg->duration_s = 0.04;
  const char *be = getenv ("RW_SIM_SPATIAL_BACKEND");
  cfg->backend = be != NULL && strcmp (be, "cuda") == 0 ? RW_BACKEND_CUDA : RW_BACKEND_CPU;
  cfg->uniform_R = 0.5;
  cfg->hybrid = hybrid;
  cfg->crossover_hz = hybrid ? 250.0 : 0.0;
  cfg->n_rays = 2000;
  cfg->source[0] = cfg->source[1] = cfg->source[2] = 4.0;
  cfg->n_receivers = N_DIRS;
  for (int k = 0; k < N_DIRS; k++)
    {
      for (int i = 0; i < 3; i++)
        cfg->receivers[k][i] = 4.0 + 1.5 * dirs[k][i];
      cfg->receiver_specs[k] = (RwReceiverSpec) { RW_RECEIVER_AMBISONIC, ORDER, 0.0, 0.0 };
    }
}

typedef struct {
  int reports;
} Count;

static bool
count_reports (const RwProgress *p, void *data)
{
  (void) p;
  ((Count *) data)->reports++;
  return true;
}

static bool
run (const RwSimConfig *cfg, RwSimResult *res, Count *count, RwError *err)
{
  RwMesh *mesh = rw_shape_box (8.0, 8.0, 8.0);
  memset (res, 0, sizeof *res);
  double R[6];
  res->surface_models = calloc (6, sizeof (RwSurfaceModel));
  for (size_t s = 0; s < 6; s++)
    {
      R[s] = cfg->uniform_R;
      rw_surface_model_from_R (R[s], &res->surface_models[s]);
    }
  bool ok = rw_sim_solve (cfg, mesh, R, count ? count_reports : NULL, count, NULL, res, err);
  rw_mesh_free (mesh);
  return ok;
}

/* receiver r's direct sound: the energy vector of the order-3 decode and
 * the first-order intensity's direction, against the direction from the
 * receiver (its own position: the wave part's fit expands about it, the
 * geometrical part is traced from it) to the source (rotated by
 * -yaw about z) */
static void
directions (const RwSimConfig *cfg, const RwSimResult *res, size_t r, double yaw_deg, double *ev_err,
            double *fo_err)
{
  RwError err = { 0 };
  const size_t n = res->ir_frames, nch = RW_AMBI_CHANNELS (ORDER);
  double *x = malloc (nch * n * sizeof *x);
  for (size_t i = 0; i < nch * n; i++)
    x[i] = res->ir_ambi[r][i];
  double truth[3], d2 = 0;
  for (int k = 0; k < 3; k++)
    {
      truth[k] = cfg->source[k] - cfg->receivers[r][k];
      d2 += truth[k] * truth[k];
    }
  double head[3];
  rw_ambi_room_to_head (yaw_deg, 0.0, truth, head);
  const double t = sqrt (d2) / res->c;
  const size_t i0 = (size_t) floor ((t - 0.001) * res->fs_out_hz);
  const size_t cnt = (size_t) (0.004 * res->fs_out_hz);
  double re[3];
  RW_CHECK (rw_ambi_energy_vector (x, ORDER, n, i0, cnt, re, &err), "energy vector: %s", err.message);
  *ev_err = ambi_angle_deg (re, head);
  /* first order: Σ W (X, Y, Z), ACN 3, 1, 2 */
  double in[3] = { 0, 0, 0 };
  for (size_t i = i0; i < i0 + cnt; i++)
    {
      in[0] += x[i] * x[3 * n + i];
      in[1] += x[i] * x[1 * n + i];
      in[2] += x[i] * x[2 * n + i];
    }
  *fo_err = ambi_angle_deg (in, head);
  free (x);
}

/* receiver r's direct sound in the 2 kHz octave band alone (every
 * channel through the same octave filter, zero phase): above the
 * transition band the joined IR is the geometrical part's; the energy
 * vector's angle from the source direction */
static double
direction_2k (const RwSimConfig *cfg, const RwSimResult *res, size_t r)
{
  RwError err = { 0 };
  const size_t n = res->ir_frames, nch = RW_AMBI_CHANNELS (ORDER);
  double *x = malloc (nch * n * sizeof *x);
  for (size_t c = 0; c < nch; c++)
    {
      for (size_t i = 0; i < n; i++)
        x[c * n + i] = res->ir_ambi[r][c * n + i];
      RW_CHECK (rw_octave_filter (rw_octave_exact_centre_hz (5), res->fs_out_hz,
                                  RW_FILTER_TIME_REVERSED, x + c * n, x + c * n, n, &err),
                "octave filter: %s", err.message);
    }
  double truth[3], d2 = 0;
  for (int k = 0; k < 3; k++)
    {
      truth[k] = cfg->source[k] - cfg->receivers[r][k];
      d2 += truth[k] * truth[k];
    }
  const double t = sqrt (d2) / res->c;
  const size_t i0 = (size_t) floor ((t - 0.001) * res->fs_out_hz);
  double re[3];
  RW_CHECK (rw_ambi_energy_vector (x, ORDER, n, i0, (size_t) (0.003 * res->fs_out_hz), re, &err),
            "energy vector: %s", err.message);
  free (x);
  return ambi_angle_deg (re, truth);
}

/* octave-band energies of x by the geometrical IR's split */
static void
band_energy (const float *x, size_t n, double fs, double e[RW_N_OCTAVES])
{
  RwError err = { 0 };
  double *b = malloc (RW_N_OCTAVES * n * sizeof *b);
  for (int k = 0; k < RW_N_OCTAVES; k++)
    for (size_t i = 0; i < n; i++)
      b[(size_t) k * n + i] = x[i];
  RW_CHECK (rw_air_split_bands (b, n, fs, NULL, &err), "split: %s", err.message);
  for (int k = 0; k < RW_N_OCTAVES; k++)
    {
      e[k] = 0;
      for (size_t i = 0; i < n; i++)
        e[k] += b[(size_t) k * n + i] * b[(size_t) k * n + i];
    }
  free (b);
}

int
main (int argc, char **argv)
{
  if (argc > 1)
    scheme = strcmp (argv[1], "cartesian") == 0 ? RW_SCHEME_CARTESIAN : RW_SCHEME_FCC;
  make_dirs ();
  RwError err = { 0 };
  RwSimConfig cfg;
  RwSimResult res;

  /* the wave part alone */
  config (&cfg, false);
  RW_CHECK (run (&cfg, &res, NULL, &err), "wave only: %s", err.message);
  if (res.ir_ambi != NULL)
    {
      const size_t n = res.ir_frames;
      double worst_ev = 0, worst_fo = 0;
      bool w_exact = true, high_silent = true;
      for (size_t r = 0; r < N_DIRS; r++)
        {
          double ev, fo;
          directions (&cfg, &res, r, 0.0, &ev, &fo);
          worst_ev = fmax (worst_ev, ev);
          worst_fo = fmax (worst_fo, fo);
          RW_CHECK (ev < 5.0 && fo < 10.0, "wave part, receiver %zu (%+.2f, %+.2f, %+.2f): energy "
                    "vector %.2f°, first order %.2f° off", r + 1, dirs[r][0], dirs[r][1], dirs[r][2], ev, fo);
          /* heard from its own position, not its nearest node's (up to
           * 3° off here on the cubic lattice, 4.5° on the FCC one) */
          RW_CHECK (ev < 1.0 && fo < 1.0, "wave part, receiver %zu: energy vector %.2f°, first order "
                    "%.2f° off its own position's direction (limit 1°)", r + 1, ev, fo);
          w_exact &= memcmp (res.ir_ambi[r], res.ir[r], n * sizeof (float)) == 0;
          for (size_t i = (size_t) RW_AMBI_CHANNELS (res.wave_ambi_order[r]) * n;
               i < RW_AMBI_CHANNELS (ORDER) * n; i++)
            high_silent &= res.ir_ambi[r][i] == 0.0f;
        }
      RW_NOTE ("wave part (%s, %s scheme, fmax %g Hz): direct sound of 26 directions: energy vector "
               "within %.2f°, first-order intensity within %.2f°; wave part resolves order %d",
               res.backend, rw_scheme_name (res.scheme), cfg.fmax_hz, worst_ev, worst_fo,
               res.wave_ambi_order[0]);
      RW_CHECK (res.scheme == (scheme == RW_SCHEME_CARTESIAN ? RW_SCHEME_CARTESIAN : RW_SCHEME_FCC),
                "the run's scheme: %s", rw_scheme_name (res.scheme));
      RW_CHECK (w_exact, "wave part: W is not the omnidirectional IR");
      RW_CHECK (high_silent, "wave part: channels above order %d are not silent", res.wave_ambi_order[0]);
    }
  rw_sim_result_clear (&res);

  /* full band */
  config (&cfg, true);
  RW_CHECK (run (&cfg, &res, NULL, &err), "hybrid: %s", err.message);
  if (res.ir_ambi != NULL)
    {
      const size_t n = res.ir_frames;
      double worst_ev = 0, worst_w = 0, worst_band = 0, worst_2k = 0;
      for (size_t r = 0; r < N_DIRS; r++)
        {
          double ev, fo;
          directions (&cfg, &res, r, 0.0, &ev, &fo);
          worst_ev = fmax (worst_ev, ev);
          RW_CHECK (ev < 1.0, "full band, receiver %zu: energy vector %.2f° off (limit 1°)", r + 1, ev);
          const double a2k = direction_2k (&cfg, &res, r);
          worst_2k = fmax (worst_2k, a2k);
          RW_CHECK (a2k < 5.0, "2 kHz band (geometrical part), receiver %zu: %.2f° off", r + 1, a2k);
          double peak = 0, diff = 0;
          for (size_t i = 0; i < n; i++)
            {
              peak = fmax (peak, fabs (res.ir[r][i]));
              diff = fmax (diff, fabs (res.ir[r][i] - res.ir_ambi[r][i]));
            }
          worst_w = fmax (worst_w, diff / peak);
          double ew[RW_N_OCTAVES], eo[RW_N_OCTAVES];
          band_energy (res.ir_ambi[r], n, res.fs_out_hz, ew);
          band_energy (res.ir[r], n, res.fs_out_hz, eo);
          for (int b = 1; b < RW_N_OCTAVES; b++)
            worst_band = fmax (worst_band, fabs (10 * log10 (ew[b] / eo[b])));
        }
      RW_NOTE ("full band: direct sound within %.2f° (its 2 kHz band, the geometrical part's, "
               "within %.2f°); W − omni %.2g of the peak, %.4f dB in the worst octave band",
               worst_ev, worst_2k, worst_w, worst_band);
      RW_CHECK (worst_w < 1e-5, "full band: W differs from the omni IR by %.3g of its peak", worst_w);
      RW_CHECK (worst_band < 0.5, "full band: W differs from the omni IR by %.3f dB in a band",
                worst_band);

      /* the results folder */
      /* under rw_test_tmpdir, which rw_test_finish removes */
      const char *dir = rw_test_tmp_path ("results");
      RW_CHECK (rw_sim_write_outputs (&cfg, &res, dir, &err), "write: %s", err.message);
      RwResults back;
      RW_CHECK (rw_results_read (dir, &back, &err), "read back: %s", err.message);
      const RwReceiverSpec *s = back.config.receiver_specs;
      RW_CHECK (s[4].type == RW_RECEIVER_AMBISONIC && s[4].order == ORDER && back.result.wave_ambi_order != NULL
                && back.result.wave_ambi_order[4] == res.wave_ambi_order[4],
                "results.json: receiver 5 reads back as type %d order %d", (int) s[4].type, s[4].order);
      char path[256];
      snprintf (path, sizeof path, "%s/receiver-5-ambix.wav", dir);
      RwAudio a;
      RW_CHECK (rw_audio_read (path, &a, &err) && a.channels == 16 && a.frames == n,
                "%s: %d channels, %zu frames", path, a.channels, a.frames);
      free (a.data);
      rw_results_clear (&back);
    }
  rw_sim_result_clear (&res);

  /* turned by 90°: a few receivers, the wave part alone */
  config (&cfg, false);
  cfg.n_receivers = 6;
  for (int k = 0; k < 6; k++)
    cfg.receiver_specs[k].yaw_deg = 90.0;
  RW_CHECK (run (&cfg, &res, NULL, &err), "yaw 90: %s", err.message);
  for (size_t r = 0; res.ir_ambi != NULL && r < 6; r++)
    {
      double ev, fo;
      directions (&cfg, &res, r, 90.0, &ev, &fo);
      RW_CHECK (ev < 5.0, "yaw 90°, receiver %zu: %.2f° off the turned direction", r + 1, ev);
    }
  rw_sim_result_clear (&res);

  /* refused */
  config (&cfg, false);
  cfg.n_receivers = 1;
  /* its cell next to the wall (0.06 m at 500 Hz) */
  cfg.receivers[0][0] = 0.68 * rw_spacing_for_fmax (rw_speed_of_sound (cfg.temperature_c), cfg.fmax_hz,
                                                    rw_sim_ppw (&cfg));
  RW_CHECK (!run (&cfg, &res, NULL, &err) && err.code == RW_ERROR_INPUT
            && strstr (err.message, "receiver 1") != NULL,
            "a probe reaching the wall: %s", err.message);
  rw_sim_result_clear (&res);
  config (&cfg, false);
  cfg.n_receivers = 1;
  cfg.receiver_specs[0] = (RwReceiverSpec) { RW_RECEIVER_BINAURAL, 0, 0.0, 0.0 };
  const char *bad = rw_test_write_text ("not-hdf5.sofa", "not hdf5");
  cfg.hrtf_path = bad;
  Count count = { 0 };
  RW_CHECK (!run (&cfg, &res, &count, &err) && strstr (err.message, bad) != NULL
            && count.reports == 0,
            "a bad HRTF set: %s after %d progress reports", err.message, count.reports);
  rw_sim_result_clear (&res);
  config (&cfg, false);
  cfg.receiver_specs[0].order = 4;
  RW_CHECK (!run (&cfg, &res, NULL, &err) && err.code == RW_ERROR_INPUT
            && strstr (err.message, "order 4") != NULL, "order 4: %s", err.message);
  rw_sim_result_clear (&res);
  return rw_test_finish ();
}
