/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wave-directions: the wave part's first-order direction of arrival
 * (rw-wave-directions.h) against the truth, in a free field: the real
 * solver (CPU backend, fp32 as a user runs it, fmax 500 Hz at the default
 * 7.75 points per wavelength) on a box grid with absorbing walls (FV,
 * R = 0) 5.3 m from the source, a soft impulse, and seven probes of seven
 * cells each about 1.5 m away: along +x, −y and +z (axes), along (1, 1, 0)
 * and (1, −1, 1) (face and body diagonals), and along (−2, 1, 0.5) (no
 * symmetry). The B-format of each probe, low-passed at fmax/2 (Kaiser,
 * zero phase) and band-passed to [fmax/4, fmax/2], over the direct sound
 * (±8 ms around r/c; the first wall reflection comes ≥ 20 ms later)
 * gives a direction within 10° of the one from the probe's centre to the
 * source (the bound; measured: 0.01° at worst) and an intensity
 * ratio |Σ W u| / Σ W² above 0.9 (measured 0.998–1.000 in the band; 1.23–
 * 1.24 low-passed, where the spherical wave's near-field velocity adds
 * below ≈ 100 Hz, k r < 3 at 1.5 m). W is the centre probe's signal itself.
 * Seen failing: with the sign of the running sum flipped (12 checks fail,
 * 180° off); with the x and y probe pairs swapped (90° off on the axes). */
#include "rw-test.h"
#include "test-ambi-common.h"
#include "rw-physics.h"
#include "rw-postprocess.h"
#include "rw-solver.h"
#include "rw-voxel.h"
#include "rw-wave-directions.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FMAX 500.0
#define NPROBES 6

int
main (void)
{
  const double c = rw_speed_of_sound (20.0);
  const double h = rw_spacing_for_fmax (c, FMAX, RW_DEFAULT_PPW);
  const double fs = rw_grid_rate (c, h);
  const double courant = c / (fs * h);
  const double dirs[NPROBES][3] = { { 1, 0, 0 }, { 0, -1, 0 }, { 0, 0, 1 }, { 1, 1, 0 },
                                    { 1, -1, 1 }, { -2, 1, 0.5 } };
  const size_t half = 60;   /* cells from the source to each wall: 5.3 m */
  const size_t n = 2 * half + 3;
  RwGrid *g = rw_grid_new_box (n, n, n, h);
  RW_CHECK (g != NULL, "no box grid");
  if (g == NULL)
    return rw_test_finish ();
  const size_t s0 = 1 + half;
  const size_t src = rw_grid_index (g, s0, s0, s0);
  size_t cells[NPROBES * RW_PROBE_N];
  double truth[NPROBES][3], r[NPROBES];
  RwError err = { 0 };
  for (int p = 0; p < NPROBES; p++)
    {
      const double len = sqrt (dirs[p][0] * dirs[p][0] + dirs[p][1] * dirs[p][1] + dirs[p][2] * dirs[p][2]);
      long o[3];
      for (int k = 0; k < 3; k++)
        o[k] = lround (1.5 / h * dirs[p][k] / len);
      const size_t centre = rw_grid_index (g, (size_t) ((long) s0 + o[0]), (size_t) ((long) s0 + o[1]),
                                           (size_t) ((long) s0 + o[2]));
      RW_CHECK (rw_wave_probe_cells (g, centre, cells + (size_t) p * RW_PROBE_N, &err), "probe %d: %s", p,
                err.message);
      /* the true direction: from the probe's centre towards the source */
      r[p] = h * sqrt ((double) (o[0] * o[0] + o[1] * o[1] + o[2] * o[2]));
      for (int k = 0; k < 3; k++)
        truth[p][k] = -(double) o[k] * h / r[p];
    }
  /* a probe on the wall is refused */
  size_t bad[RW_PROBE_N];
  RW_CHECK (!rw_wave_probe_cells (g, rw_grid_index (g, 1, s0, s0), bad, &err) && err.code == RW_ERROR_INPUT,
            "a probe touching the wall was not refused");

  const size_t n_steps = (size_t) ceil ((1.6 / c + 0.03) * fs);
  double *signal = calloc (n_steps, sizeof *signal);
  signal[0] = 1.0;
  const double R = 0.0;
  RwSolverSetup st = {
    .grid = g, .surface_R = &R, .boundary = RW_BOUNDARY_FV, .precision = RW_PRECISION_F32,
    .n_steps = n_steps, .source_cell = src, .source_kind = RW_SOURCE_SOFT, .source_signal = signal,
    .n_receivers = NPROBES * RW_PROBE_N, .receiver_cells = cells, .threads = 0,
  };
  RwSolver *sv = rw_solver_new (&st, RW_BACKEND_CPU, &err);
  RW_CHECK (sv != NULL && rw_solver_run (sv, NULL, NULL, NULL, &err), "solver: %s", err.message);
  if (sv == NULL)
    return rw_test_finish ();

  /* zero-phase low-passes at fmax/2 and fmax/4: the band [fmax/4, fmax/2]
   * is their difference */
  size_t n2 = 0, n4 = 0;
  double *lp2 = rw_kaiser_lowpass (fs, 0.85 * FMAX / 2, 1.15 * FMAX / 2, 60.0, &n2);
  double *lp4 = rw_kaiser_lowpass (fs, 0.85 * FMAX / 4, 1.15 * FMAX / 4, 60.0, &n4);
  double *bf = malloc (4 * n_steps * sizeof *bf), *a = malloc (4 * n_steps * sizeof *a);
  double *b = malloc (4 * n_steps * sizeof *b), *tmp = malloc (n_steps * sizeof *tmp);
  double worst[2] = { 0, 0 };
  for (int p = 0; p < NPROBES; p++)
    {
      const double *probe[RW_PROBE_N];
      for (int k = 0; k < RW_PROBE_N; k++)
        probe[k] = rw_solver_receiver (sv, (size_t) p * RW_PROBE_N + (size_t) k);
      RW_CHECK (rw_wave_first_order (probe, n_steps, courant, bf, &err), "first order: %s", err.message);
      RW_CHECK (memcmp (bf, probe[RW_PROBE_CENTRE], n_steps * sizeof *bf) == 0, "W is not the centre probe");
      for (int ch = 0; ch < 4; ch++)
        {
          ambi_filter (bf + (size_t) ch * n_steps, n_steps, lp2, n2, a + (size_t) ch * n_steps);
          ambi_filter (bf + (size_t) ch * n_steps, n_steps, lp4, n4, tmp);
          for (size_t i = 0; i < n_steps; i++)
            b[(size_t) ch * n_steps + i] = a[(size_t) ch * n_steps + i] - tmp[i];
        }
      const double t = r[p] / c;
      const size_t from = (size_t) fmax (0.0, floor ((t - 0.008) * fs)), to = (size_t) ceil ((t + 0.008) * fs);
      const double *sig[2] = { a, b };
      const char *name[2] = { "low-passed at fmax/2", "band fmax/4 … fmax/2" };
      for (int k = 0; k < 2; k++)
        {
          double d[3];
          const double ratio = rw_wave_direction (sig[k], n_steps, from, to, d);
          const double cosang = d[0] * truth[p][0] + d[1] * truth[p][1] + d[2] * truth[p][2];
          const double ang = acos (fmax (-1.0, fmin (1.0, cosang))) * 180.0 / M_PI;
          worst[k] = fmax (worst[k], ang);
          RW_NOTE ("probe %d (%+.0f, %+.0f, %+.1f), r %.2f m, %s: direction (%+.3f, %+.3f, %+.3f), "
                   "%.2f° off, intensity ratio %.3f", p, dirs[p][0], dirs[p][1], dirs[p][2], r[p], name[k],
                   d[0], d[1], d[2], ang, ratio);
          RW_CHECK (ang < 10.0, "probe %d, %s: %.2f° from the source's direction (limit 10°)", p, name[k], ang);
          RW_CHECK (ratio > 0.9, "probe %d, %s: intensity ratio %.3f (one plane wave: 1)", p, name[k], ratio);
        }
    }
  RW_NOTE ("worst: %.2f° (low-passed), %.2f° (band)", worst[0], worst[1]);
  /* bad input */
  const double *none[RW_PROBE_N] = { 0 };
  RW_CHECK (!rw_wave_first_order (none, n_steps, courant, bf, &err) && err.code == RW_ERROR_INPUT,
            "missing probe signals accepted");
  free (lp2);
  free (lp4);
  free (bf);
  free (a);
  free (b);
  free (tmp);
  free (signal);
  rw_solver_free (sv);
  rw_grid_free (g);
  return rw_test_finish ();
}
