/* SPDX-License-Identifier: GPL-3.0-or-later */
/* solver-interp-arrival: an interpolated receiver or source (issue #14)
 * moves the direct sound's arrival continuously, by the geometric change
 * of distance over c, where snapping to the nearest node moves it in
 * steps of up to √3·h/2 (7-point scheme, CPU backend, fp64).
 *
 * Free field: a box of 80³ cells with the source at its centre node; the
 * first reflection reaches any receiver at least 72 h after the emission,
 * and the window ends before (the pulse is a Ricker wavelet of peak
 * frequency 0.04 of the grid rate, ≈ 14 cells a wavelength, negligible
 * beyond ±35 steps). Receivers lie on two lines from the source, along x
 * at (8 + δ, 0, 0) h and along the diagonal at (5 + δ)(1, 1, 1) h,
 * δ = 0, ¼, ½, ¾, 1 (δ = 0 and 1 are nodes). The delay of each receiver's
 * signal against the δ = 0 receiver of its line is the slope of their
 * cross-spectrum's phase, −2πfτ, fitted over the pulse's band (weighted
 * by |X||Y|): the cross-correlation's peak, without its sampling. It must
 * be the geometric distance change over c, √3·Δr steps (λ = 1/√3), within
 * 0.1 h/c; receivers snapped to their nearest node (rw_grid_locate) in the
 * same run miss by up to 0.25·√3 h/c on the diagonal, which the test
 * checks too, so that it tells the two apart. A second run moves the
 * source by (−½, −¼, −½) h: every receiver's delay (against the first
 * run's reference of its line) is again its distance change over c. */
#include "rw-test.h"
#include <complex.h>
#include <string.h>
#include "rw-solver.h"
#include "rw-voxel.h"

#define N_BOX 80
#define N_STEPS 120
#define FP 0.04      /* Ricker peak, cycles per step */
#define T0 36.0      /* its centre, steps */
#define N_DELTA 5
#define N_RCV (2 * N_DELTA)

static const double deltas[N_DELTA] = { 0, 0.25, 0.5, 0.75, 1.0 };

/* The delay of y against x in steps: the weighted least-squares slope of
 * the unwrapped cross-spectrum phase (zero-padded DFT, 1024 bins) over
 * the bins carrying at least 1 % of the peak cross power, below 0.15. */
static double
delay_steps (const double *x, const double *y, size_t n)
{
  enum { M = 1024 };
  double complex c[M / 2];
  double wmax = 0;
  for (size_t j = 1; j < M / 2; j++)
    {
      double complex X = 0, Y = 0;
      for (size_t i = 0; i < n; i++)
        {
          const double complex e = cexp (-2 * M_PI * I * (double) j * (double) i / M);
          X += x[i] * e;
          Y += y[i] * e;
        }
      c[j] = Y * conj (X);
      wmax = fmax (wmax, cabs (c[j]));
    }
  double num = 0, den = 0, prev = 0, unwrap = 0;
  for (size_t j = 1; j < M / 2 && (double) j / M < 0.15; j++)
    {
      double ph = carg (c[j]);
      /* unwrap along f */
      while (ph + unwrap - prev > M_PI)
        unwrap -= 2 * M_PI;
      while (ph + unwrap - prev < -M_PI)
        unwrap += 2 * M_PI;
      ph += unwrap;
      prev = ph;
      const double w = cabs (c[j]), f = (double) j / M;
      if (w < 0.01 * wmax)
        continue;
      num += w * f * ph;
      den += w * f * f;
    }
  return -num / (2 * M_PI * den);
}

static void
at (const RwGrid *g, const double f[3], double p[3])
{
  for (int k = 0; k < 3; k++)
    p[k] = g->origin[k] + g->h * f[k];
}

static double
dist (const double a[3], const double b[3])
{
  double d2 = 0;
  for (int k = 0; k < 3; k++)
    d2 += (a[k] - b[k]) * (a[k] - b[k]);
  return sqrt (d2);
}

/* One run: the source at grid coordinates s, the N_RCV receivers at rf,
 * interpolated (snap false) or at their nearest nodes; *out gets N_RCV
 * signals of N_STEPS. */
static bool
run (const RwGrid *g, const double s[3], const double rf[N_RCV][3], bool snap, double *out)
{
  RwError err = { 0 };
  double signal[N_STEPS];
  for (int n = 0; n < N_STEPS; n++)
    {
      const double a = M_PI * FP * ((double) n - T0);
      signal[n] = (1 - 2 * a * a) * exp (-a * a);
    }
  RwGridStencil src, rcv[N_RCV];
  double p[3];
  at (g, s, p);
  if (!rw_grid_interp (g, p, "source", &src, &err))
    {
      RW_CHECK (false, "%s", err.message);
      return false;
    }
  for (int r = 0; r < N_RCV; r++)
    {
      at (g, rf[r], p);
      if (!rw_grid_interp (g, p, "receiver", &rcv[r], &err))
        {
          RW_CHECK (false, "%s", err.message);
          return false;
        }
      if (snap)
        rcv[r] = (RwGridStencil) { .n = 1, .cell = { rcv[r].nearest }, .weight = { 1.0 },
                                   .nearest = rcv[r].nearest };
    }
  const double R[1] = { 0.0 };
  RwSolverSetup su = {
    .grid = g, .surface_R = R, .boundary = RW_BOUNDARY_FV, .precision = RW_PRECISION_F64,
    .n_steps = N_STEPS, .source_stencil = &src, .source_kind = RW_SOURCE_SOFT,
    .source_signal = signal, .n_receivers = N_RCV, .receiver_stencils = rcv,
  };
  RwSolver *sv = rw_solver_new (&su, RW_BACKEND_CPU, &err);
  bool ok = sv != NULL && rw_solver_advance (sv, N_STEPS, &err);
  RW_CHECK (ok, "solver: %s", err.message);
  for (int r = 0; ok && r < N_RCV; r++)
    memcpy (out + r * N_STEPS, rw_solver_receiver (sv, r), N_STEPS * sizeof (double));
  rw_solver_free (sv);
  return ok;
}

int
main (void)
{
  RwGrid *g = rw_grid_new_box (N_BOX, N_BOX, N_BOX, 0.1);
  RW_CHECK (g != NULL, "box");
  if (g == NULL)
    return rw_test_finish ();
  const double c_steps = 1.0 / sqrt (3.0);   /* h per step: λ = 1/√3 */
  const double tol = 0.1 / c_steps;          /* 0.1 h/c, in steps */
  const double S[3] = { 41, 41, 41 };        /* the centre node */
  double rf[N_RCV][3];
  for (int i = 0; i < N_DELTA; i++)
    {
      const double d = deltas[i];
      const double ax[3] = { S[0] + 8 + d, S[1], S[2] };
      const double dg[3] = { S[0] + 5 + d, S[1] + 5 + d, S[2] + 5 + d };
      memcpy (rf[i], ax, sizeof ax);
      memcpy (rf[N_DELTA + i], dg, sizeof dg);
    }
  static double y[N_RCV * N_STEPS], ys[N_RCV * N_STEPS], y2[N_RCV * N_STEPS];
  const double S2[3] = { S[0] - 0.5, S[1] - 0.25, S[2] - 0.5 };
  if (!run (g, S, rf, false, y) || !run (g, S, rf, true, ys) || !run (g, S2, rf, false, y2))
    {
      rw_grid_free (g);
      return rw_test_finish ();
    }
  double worst = 0, worst_snap = 0, worst_src = 0;
  for (int line = 0; line < 2; line++)
    {
      const int ref = line * N_DELTA;
      for (int i = 0; i < N_DELTA; i++)
        {
          const int r = ref + i;
          const double want = (dist (rf[r], S) - dist (rf[ref], S)) / c_steps;
          const double got = delay_steps (y + ref * N_STEPS, y + r * N_STEPS, N_STEPS);
          const double snapped = delay_steps (ys + ref * N_STEPS, ys + r * N_STEPS, N_STEPS);
          const double want2 = (dist (rf[r], S2) - dist (rf[ref], S)) / c_steps;
          const double got2 = delay_steps (y + ref * N_STEPS, y2 + r * N_STEPS, N_STEPS);
          RW_NOTE ("%s δ = %.2f: want %.4f steps, interpolated %.4f (error %+.4f h/c), snapped "
                   "%.4f (%+.4f h/c); source moved: want %.4f, got %.4f (%+.4f h/c)",
                   line ? "diagonal" : "axis", deltas[i], want, got, (got - want) * c_steps,
                   snapped, (snapped - want) * c_steps, want2, got2, (got2 - want2) * c_steps);
          RW_CHECK (fabs (got - want) < tol, "%s δ = %.2f: arrival off by %.3f h/c",
                    line ? "diagonal" : "axis", deltas[i], (got - want) * c_steps);
          RW_CHECK (fabs (got2 - want2) < tol, "%s δ = %.2f, source moved: arrival off by %.3f h/c",
                    line ? "diagonal" : "axis", deltas[i], (got2 - want2) * c_steps);
          worst = fmax (worst, fabs (got - want) * c_steps);
          worst_src = fmax (worst_src, fabs (got2 - want2) * c_steps);
          worst_snap = fmax (worst_snap, fabs (snapped - want) * c_steps);
        }
    }
  RW_NOTE ("worst arrival error: interpolated receivers %.4f h/c, moved source %.4f h/c, "
           "snapped receivers %.4f h/c", worst, worst_src, worst_snap);
  /* the snapped run must miss: otherwise the test could not tell */
  RW_CHECK (worst_snap > 0.3, "snapping missed by only %.3f h/c", worst_snap);
  rw_grid_free (g);
  return rw_test_finish ();
}
