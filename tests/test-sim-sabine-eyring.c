/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sim-sabine-eyring: the reverberation time of a uniformly absorbing box,
 * simulated through the whole chain (CPU solver, FV boundary, post-
 * processing with the drift removal, ISO 3382-1 analysis of engine/
 * rw-analysis.h: octave filter, Schroeder integral, T30), against Sabine
 * and Eyring.
 *
 * Box 4 × 3 × 2.5 m (what fits the time budget of a test under ASan),
 * fmax 500 Hz, every wall the same normal-incidence reflection factor R
 * (0.85 and 0.9),
 * i.e. real specific admittance β = (1 − R)/(1 + R) and normalised
 * impedance ζ = 1/β. Sabine and Eyring take the statistical (random-
 * incidence) absorption coefficient of such a locally reacting surface
 * (Paris' integral in closed form, Kuttruff, Room Acoustics, eq. 2.53):
 *   α_st = (8/ζ) [1 + 1/(1 + ζ) − (2/ζ) ln (1 + ζ)],
 * not the normal-incidence α = 1 − R², which is 40–60 % smaller here.
 *
 * Decay: each IR's Schroeder integral (rw_schroeder_decay) from the ISO
 * onset (rw_onset_index) to 20 ms before its end, with no Lundeby
 * truncation (the simulated IR has no noise floor: its EDC reaches −70 to
 * −130 dB), the 250 Hz octave through rw_octave_filter (time-reversed) and
 * broadband (to fmax); T30 by rw_decay_fit over −5 … −35 dB.
 *
 * Tolerance: the mean T30 over three receivers within 15 % of the mean of
 * Sabine and Eyring, and each receiver's within 25 %. Why so wide:
 *  - the field is not diffuse: in a box with the same absorption on every
 *    wall, waves at grazing incidence on a pair of walls (axial and
 *    tangential modes) decay more slowly than oblique ones, while α_st of a
 *    locally reacting wall owes much of its value to near-grazing
 *    incidence (α(θ) = 4ζ cos θ/(ζ cos θ + 1)² peaks at cos θ = 1/ζ).
 *    Sabine and Eyring themselves differ by 19–30 % here;
 *  - modal density is low: ~120 modes in the 250 Hz octave, ~400 below
 *    fmax, so one receiver's T30 scatters by ±15 % (measured: −15 … +21 %);
 *  - grid dispersion moves mode frequencies (≤ 2 % at fmax), and the
 *    discrete boundary's α(θ) departs from the continuous one towards
 *    grazing incidence and towards fmax.
 * The test can fail: with the normal-incidence α = 1 − R² the prediction
 * is 60–75 % longer (printed), and an IR with the source's drift left in it
 * gives a broadband T30 of twice the prediction (measured at R = 0.7
 * before the drift removal). Outside the tested range it holds less well:
 * at R = 0.95 (ζ = 39) the simulated T30 is 28–32 % above the
 * Sabine–Eyring mean, as the grazing-incidence argument above predicts
 * for large ζ (docs/PHYSICS.md). */
#include "rw-test.h"
#include "rw-analysis.h"
#include "rw-physics.h"
#include "rw-postprocess.h"
#include "rw-solver.h"
#include "rw-voxel.h"

#include <math.h>
#include <stdlib.h>

static double
alpha_statistical (double R)
{
  double zeta = (1 + R) / (1 - R);
  return 8 / zeta * (1 + 1 / (1 + zeta) - 2 / zeta * log (1 + zeta));
}

static void
run_case (double R, double duration_s)
{
  const double c = rw_speed_of_sound (20.0);
  const double fmax_hz = 500.0;
  const double h = rw_spacing_for_fmax (c, fmax_hz, RW_DEFAULT_PPW);
  const double fs = rw_grid_rate (c, h);
  const size_t nx = (size_t) lround (4.0 / h), ny = (size_t) lround (3.0 / h), nz = (size_t) lround (2.5 / h);
  const double lx = (double) nx * h, ly = (double) ny * h, lz = (double) nz * h;
  const double V = lx * ly * lz, S = 2 * (lx * ly + lx * lz + ly * lz);

  RwGrid *g = rw_grid_new_box (nx, ny, nz, h);
  RW_CHECK (g != NULL, "box grid");
  if (g == NULL)
    return;
  /* Inside cell (i, j, k) is grid cell (i+1, j+1, k+1); positions as
   * fractions of the box, away from walls, symmetry planes and each other. */
  const double src_f[3] = { 0.23, 0.31, 0.27 };
  const double rcv_f[3][3] = { { 0.71, 0.62, 0.58 }, { 0.57, 0.19, 0.73 }, { 0.84, 0.77, 0.35 } };
  const size_t dims[3] = { nx, ny, nz };
  size_t c_src[3], rcv_cells[3];
  for (int a = 0; a < 3; a++)
    c_src[a] = 1 + (size_t) (src_f[a] * (double) dims[a]);
  size_t src_cell = rw_grid_index (g, c_src[0], c_src[1], c_src[2]);
  for (int r = 0; r < 3; r++)
    {
      size_t cc[3];
      for (int a = 0; a < 3; a++)
        cc[a] = 1 + (size_t) (rcv_f[r][a] * (double) dims[a]);
      rcv_cells[r] = rw_grid_index (g, cc[0], cc[1], cc[2]);
    }

  const size_t n_steps = (size_t) ceil (duration_s * fs);
  double *signal = calloc (n_steps, sizeof (double));
  signal[0] = 1.0;
  double surface_R = R;
  RwSolverSetup st = {
    .grid = g, .surface_R = &surface_R, .boundary = RW_BOUNDARY_FV, .precision = RW_PRECISION_F32,
    .n_steps = n_steps, .source_cell = src_cell, .source_kind = RW_SOURCE_SOFT,
    .source_signal = signal, .n_receivers = 3, .receiver_cells = rcv_cells, .threads = 0,
  };
  RwError err = { 0 };
  RwSolver *sv = rw_solver_new (&st, RW_BACKEND_CPU, &err);
  RW_CHECK (sv != NULL, "solver: %s", err.message);
  if (sv == NULL)
    {
      rw_grid_free (g);
      free (signal);
      return;
    }
  RW_CHECK (rw_solver_run (sv, NULL, NULL, NULL, &err), "run: %s", err.message);

  const double a_st = alpha_statistical (R), a_n = 1 - R * R;
  const double t_sabine = 24 * log (10) / c * V / (S * a_st);
  const double t_eyring = 24 * log (10) / c * V / (-S * log (1 - a_st));
  const double t_mid = 0.5 * (t_sabine + t_eyring);
  RW_NOTE ("R = %.2f: box %.2f × %.2f × %.2f m (%zu × %zu × %zu cells), V %.2f m³, S %.2f m²; "
           "α_n %.3f, α_st %.3f; Sabine %.3f s, Eyring %.3f s",
           R, lx, ly, lz, nx, ny, nz, V, S, a_n, a_st, t_sabine, t_eyring);

  RwPostprocess pp;
  rw_postprocess_init (&pp, fs, fmax_hz, h);
  double sum_t30[2] = { 0, 0 };
  for (size_t r = 0; r < 3; r++)
    {
      rw_postprocess_set_room (&pp, g, &surface_R, RW_BOUNDARY_FV, src_cell, rcv_cells[r]);
      float *ir = NULL;
      size_t n_ir = 0;
      RW_CHECK (rw_postprocess (&pp, rw_solver_receiver (sv, r), n_steps, &ir, &n_ir, &err), "%s", err.message);
      if (ir == NULL)
        continue;
      /* The IR has no noise: Schroeder's integral runs to its end (which
       * rw_postprocess keeps clear of the filters' end effects), with no
       * Lundeby truncation or correction. */
      const size_t onset = rw_onset_index (ir, n_ir);
      const size_t n_dec = n_ir - onset;

      /* No burst at the end: the last 10 ms no more than 10 dB louder
       * than the 10 ms a tenth of a second earlier. By then the IR has
       * decayed onto the rounding floor of the float resampling and output
       * (near −130 dB re 1, ~100 dB below the direct sound's peak at 1 m,
       * flat within ±3 dB from one 10 ms window to the next); a burst from
       * the filters meeting the end of the signal
       * (rw_postprocess_tail_steps) stands 45–55 dB above it. */
      {
        const size_t w = (size_t) (0.01 * pp.fs_out_hz), back = (size_t) (0.1 * pp.fs_out_hz);
        double e_end = 0, e_before = 0;
        for (size_t m = n_ir - w; m < n_ir; m++)
          e_end += (double) ir[m] * ir[m];
        for (size_t m = n_ir - w - back; m < n_ir - back; m++)
          e_before += (double) ir[m] * ir[m];
        double drop_db = 10 * log10 (e_before / e_end);
        RW_NOTE ("  receiver %zu: the last 10 ms are %.1f dB below the 10 ms 0.1 s earlier", r + 1, drop_db);
        RW_CHECK (drop_db > -10, "receiver %zu: the IR ends in a burst (%+.1f dB)", r + 1, -drop_db);
      }
      double *x = malloc (n_ir * sizeof (double));
      double *e = malloc (n_dec * sizeof (double));
      double *edc = malloc (n_dec * sizeof (double));
      for (int b = 0; b < 2; b++)
        {
          for (size_t i = 0; i < n_ir; i++)
            x[i] = ir[i];
          if (b == 0)
            RW_CHECK (rw_octave_filter (rw_octave_exact_centre_hz (2), pp.fs_out_hz, RW_FILTER_TIME_REVERSED,
                                        x, x, n_ir, &err), "octave filter: %s", err.message);
          for (size_t i = 0; i < n_dec; i++)
            e[i] = x[onset + i] * x[onset + i];
          RwNoiseEstimate est = { .noise_found = false, .noise_level_db = -INFINITY,
                                  .truncation = n_dec, .truncation_s = (double) n_dec / pp.fs_out_hz,
                                  .correction = 0 };
          size_t n_edc = rw_schroeder_decay (e, n_dec, pp.fs_out_hz, &est, edc, &err);
          RW_CHECK (n_edc > 0, "Schroeder: %s", err.message);
          RwDecayFit fit;
          rw_decay_fit (edc, n_edc, pp.fs_out_hz, -5, -35, &fit);
          double t30 = fit.value_s;
          RW_NOTE ("  receiver %zu, %s: T30 %.3f s (%+.1f %% of the Sabine–Eyring mean), "
                   "EDC reaches %.0f dB, ξ %.1f ‰",
                   r + 1, b == 0 ? "250 Hz octave" : "broadband    ", t30,
                   100 * (t30 / t_mid - 1), edc[n_edc - 1], fit.xi_permille);
          RW_CHECK (isfinite (t30) && fabs (t30 / t_mid - 1) < 0.25,
                    "R = %.2f receiver %zu %s: T30 %.3f s vs Sabine %.3f / Eyring %.3f",
                    R, r + 1, b == 0 ? "250 Hz" : "broadband", t30, t_sabine, t_eyring);
          sum_t30[b] += t30;
        }
      free (x);
      free (e);
      free (edc);
      free (ir);
    }
  for (int b = 0; b < 2; b++)
    {
      double mean = sum_t30[b] / 3;
      RW_NOTE ("  mean of 3 receivers, %s: T30 %.3f s (%+.1f %%); with α_n Sabine would say %.3f s",
               b == 0 ? "250 Hz octave" : "broadband    ", mean, 100 * (mean / t_mid - 1),
               24 * log (10) / c * V / (S * a_n));
      RW_CHECK (fabs (mean / t_mid - 1) < 0.15, "R = %.2f %s: mean T30 %.3f s vs Sabine %.3f / Eyring %.3f",
                R, b == 0 ? "250 Hz" : "broadband", mean, t_sabine, t_eyring);
    }
  rw_solver_free (sv);
  rw_grid_free (g);
  free (signal);
}

int
main (void)
{
  run_case (0.85, 0.5);
  run_case (0.90, 0.6);
  return rw_test_finish ();
}
