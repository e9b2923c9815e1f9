/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fcc-dispersion: the phase velocity of the FCC 13-point scheme and of the
 * 7-point Cartesian scheme, each at its stability limit, MEASURED from
 * simulations (rw-fcc.h) against direction and frequency, and compared
 * with each scheme's analytic dispersion relation, derived independently
 * here (h the cubic spacing, λ = c k / h):
 *   Cartesian:  cos ωk = 1 − 2λ² Σ_{x,y,z} sin²(κ_i h / 2),       λ² = 1/3
 *   FCC:        cos ωk = 1 − (λ²/2) Σ₆ sin²(κ·d h / 2),            λ² = 1
 * (d the 6 neighbour offsets up to sign). A Gaussian pulse is injected at
 * a site in the middle of a rigid box; two receivers on each of the rays
 * (1,0,0), (1,1,0), (1,1,1) record it until the first wall reflection
 * could arrive; the phase of the cross spectrum of the two records,
 * unwrapped along frequency, gives κ(ω) along the ray, so v = ω / κ.
 * (A point source's far-field phase along a symmetry axis of the lattice
 * is κ r with κ parallel to the ray.) The test fails if the measured
 * velocity departs from the analytic one by more than 0.15 % of c (measured
 * deviations: ≤ 0.07 %) (a
 * wrong Laplacian constant or a missing neighbour shifts it by ~2 % or
 * more), and if the points per wavelength at which the worst direction
 * reaches 2 % error disagree. It also checks the FCC Laplacian's constant
 * on a quadratic (exact there) and prints the cost of each scheme at its
 * 2 % resolution (docs/SOLVER.md, "FCC scheme: measured dispersion"). */
#include "rw-test.h"
#include "rw-fcc.h"
#include "rw-scheme-fcc.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>

#define L 64                 /* source at (L, L, L), box n = 2L + 1 */
#define NDIR 3

/* Receivers on each ray, offsets from the source (lattice sites of both
 * schemes: i + j + k even). */
static const int rcv[NDIR][2][3] = {
  { { 20, 0, 0 }, { 40, 0, 0 } },
  { { 14, 14, 0 }, { 28, 28, 0 } },
  { { 12, 12, 12 }, { 24, 24, 24 } },
};

/* Analytic right-hand side 1 − … of each scheme at wave vector κh·n. */
static double
rhs (int fcc, double l2, double kh, const double nv[3])
{
  double a = kh * nv[0], b = kh * nv[1], c = kh * nv[2];
  if (!fcc)
    {
      double s = 0;
      double q[3] = { a, b, c };
      for (int i = 0; i < 3; i++)
        s += sin (q[i] / 2) * sin (q[i] / 2);
      return 1 - 2 * l2 * s;
    }
  const double d[6] = { a + b, a - b, a + c, a - c, b + c, b - c };
  double s = 0;
  for (int i = 0; i < 6; i++)
    s += sin (d[i] / 2) * sin (d[i] / 2);
  return 1 - l2 / 2 * s;
}

/* κh along nv for ωk, by scanning up to the first crossing and
 * bisecting; -1 if ωk is above the ray's cutoff. */
static double
kappa_analytic (int fcc, double l2, double wk, const double nv[3])
{
  const double target = cos (wk), dk = 1e-3;
  double lo = 0, hi = -1;
  for (double x = dk; x < 2 * M_PI; x += dk)
    {
      if (rhs (fcc, l2, x, nv) <= target)
        {
          hi = x;
          break;
        }
      lo = x;
    }
  if (hi < 0)
    return -1;
  for (int it = 0; it < 60; it++)
    {
      double m = 0.5 * (lo + hi);
      if (rhs (fcc, l2, m, nv) > target)
        lo = m;
      else
        hi = m;
    }
  return 0.5 * (lo + hi);
}

/* Relative phase-velocity error v/c − 1 at P points per wavelength
 * (P = wavelength / h, h the cubic spacing). */
static double
err_analytic (int fcc, double l2, double P, const double nv[3])
{
  double lam = sqrt (l2), wk = 2 * M_PI * lam / P;
  double kh = kappa_analytic (fcc, l2, wk, nv);
  return kh > 0 ? wk / (lam * kh) - 1 : -1;
}

typedef struct {
  int nt;
  double *rec[NDIR][2];
  double dr[NDIR];
} Run;

static void
simulate (int fcc, Run *run)
{
  const double l2 = fcc ? RW_FCC_LAMBDA2 : RW_LAMBDA2_F64, lam = sqrt (l2);
  RwRefSim *sim = rw_ref_sim_new (fcc ? RW_REF_FCC13 : RW_REF_CART7, 2 * L + 1, l2);
  RW_CHECK (sim != NULL, "reference solver created");
  if (sim == NULL)
    exit (rw_test_finish ());
  /* Gaussian pulse of width 1.5 cells of travel, delayed by 5 σ. */
  const double sigma = 1.5 / lam, n0 = 5 * sigma;
  /* Records end 3 cells of travel before the earliest wall reflection at
   * the far receiver on the axis ray (path L + (L − 40) = 88 cells). */
  run->nt = (int) (n0 + (2.0 * L - 40 - 3) / lam);
  for (int d = 0; d < NDIR; d++)
    {
      for (int r = 0; r < 2; r++)
        run->rec[d][r] = calloc ((size_t) run->nt, sizeof (double));
      double r1 = 0, r2 = 0;
      for (int i = 0; i < 3; i++)
        {
          r1 += rcv[d][0][i] * rcv[d][0][i];
          r2 += rcv[d][1][i] * rcv[d][1][i];
        }
      run->dr[d] = sqrt (r2) - sqrt (r1);
    }
  for (int n = 0; n < run->nt; n++)
    {
      double t = (n - n0) / sigma;
      rw_ref_sim_add (sim, L, L, L, exp (-0.5 * t * t));
      for (int d = 0; d < NDIR; d++)
        for (int r = 0; r < 2; r++)
          run->rec[d][r][n] = rw_ref_sim_get (sim, L + rcv[d][r][0], L + rcv[d][r][1],
                                              L + rcv[d][r][2]);
      rw_ref_sim_step (sim);
    }
  rw_ref_sim_free (sim);
}

/* DFT of a record at ωk, its last third tapered to 0 by a half cosine:
 * the records are cut while the slow high-frequency tail of the pulse
 * still rings (most on the Cartesian axis), and a hard cut leaks it into
 * every frequency (±0.3 % of c on the axis, measured). */
static double complex
dft (const double *x, int nt, double wk)
{
  double complex s = 0;
  const int n1 = 2 * nt / 3;
  for (int n = 0; n < nt; n++)
    {
      double w = n < n1 ? 1.0 : 0.5 * (1 + cos (M_PI * (n - n1) / (nt - n1)));
      s += w * x[n] * cexp (-I * wk * n);
    }
  return s;
}

/* Measured v/c − 1 on each ray at the P values asked for (descending
 * wavelength = ascending frequency), the phase unwrapped from P = 200. */
static void
measure (const Run *run, double lam, const double *P, int nP, double (*err)[NDIR])
{
  for (int d = 0; d < NDIR; d++)
    {
      double wk = 2 * M_PI * lam / 200.0, psi = 0, prev = 0;
      int first = 1;
      for (int q = 0; q < nP; q++)
        {
          const double wq = 2 * M_PI * lam / P[q];
          while (1)
            {
              double complex x = dft (run->rec[d][1], run->nt, wk)
                                 * conj (dft (run->rec[d][0], run->nt, wk));
              double ph = -carg (x);
              if (first)
                psi = ph, first = 0;
              else
                psi += remainder (ph - prev, 2 * M_PI);
              prev = ph;
              if (wk >= wq)
                break;
              wk = fmin (wk + 0.004, wq);
            }
          err[q][d] = wk / (lam * psi / run->dr[d]) - 1;
        }
    }
}

/* The P at which the worst of the rays first reaches 2 % (linear
 * interpolation between the grid points), scanning from large P. */
static double
p_at_2pc (const double *P, int nP, double (*err)[NDIR])
{
  double prev = 0;
  for (int q = 0; q < nP; q++)
    {
      double w = 0;
      for (int d = 0; d < NDIR; d++)
        w = fmax (w, fabs (err[q][d]));
      if (w >= 0.02 && q > 0)
        return P[q - 1] + (P[q] - P[q - 1]) * (0.02 - prev) / (w - prev);
      prev = w;
    }
  return -1;
}

static void
check_laplacian_constant (void)
{
  /* p = x² + 2y² + 3z² (h = 1): ∇²p = 12 everywhere; the FCC stencil is
   * exact on quadratics, so the update's increment over 2p − p⁻ must be
   * λ² h² ∇²p = 12 for λ² = 1, at a site where p = 0. */
  static const int off[12][3] = {
    { 1, 1, 0 }, { -1, -1, 0 }, { 1, -1, 0 }, { -1, 1, 0 }, { 1, 0, 1 }, { -1, 0, -1 },
    { 1, 0, -1 }, { -1, 0, 1 }, { 0, 1, 1 }, { 0, -1, -1 }, { 0, 1, -1 }, { 0, -1, 1 },
  };
  double sum = 0;
  for (int m = 0; m < 12; m++)
    sum += off[m][0] * off[m][0] + 2.0 * off[m][1] * off[m][1] + 3.0 * off[m][2] * off[m][2];
  double inc = rw_fcc_update_air_f64 (1.0, 0.0, sum, 0.0);
  RW_CHECK_CLOSE (inc, 12.0, 1e-12, "FCC Laplacian on x²+2y²+3z² (λ²h²∇²p = 12)");
  /* And the same through the rigid form with all 12 inside. */
  double inc2 = rw_fcc_update_rigid_f64 (1.0, 12, 0.0, sum, 0.0);
  RW_CHECK_CLOSE (inc2, 12.0, 1e-12, "rigid form with K = 12 equals the interior form");
}

int
main (void)
{
  check_laplacian_constant ();

  /* P grid, descending (ascending frequency). */
  enum { NP = 69 };
  double P[NP];
  for (int q = 0; q < NP; q++)
    P[q] = 20.0 - 0.25 * q;          /* 20 … 3 */
  const double nvs[NDIR][3] = {
    { 1, 0, 0 }, { M_SQRT1_2, M_SQRT1_2, 0 }, { 1 / sqrt (3.0), 1 / sqrt (3.0), 1 / sqrt (3.0) },
  };
  const double c0 = 343.0, f_max = 1000.0;
  double cost[2];

  for (int fcc = 0; fcc <= 1; fcc++)
    {
      const char *name = fcc ? "FCC 13-point (λ = 1)" : "Cartesian 7-point (λ = 1/√3)";
      const double l2 = fcc ? RW_FCC_LAMBDA2 : RW_LAMBDA2_F64, lam = sqrt (l2);
      Run run;
      simulate (fcc, &run);
      double (*em)[NDIR] = calloc (NP, sizeof *em), (*ea)[NDIR] = calloc (NP, sizeof *ea);
      measure (&run, lam, P, NP, em);
      RW_NOTE ("%s: %d steps; v/c − 1 measured (analytic) on the rays (1,0,0), (1,1,0), (1,1,1):", name, run.nt);
      double worst_dev = 0;
      for (int q = 0; q < NP; q++)
        {
          for (int d = 0; d < NDIR; d++)
            {
              ea[q][d] = err_analytic (fcc, l2, P[q], nvs[d]);
              if (P[q] >= 4.0)
                worst_dev = fmax (worst_dev, fabs (em[q][d] - ea[q][d]));
            }
          if (q % 8 == 0)
            RW_NOTE ("  P = %5.2f: %+.4f (%+.4f)  %+.4f (%+.4f)  %+.4f (%+.4f)", P[q],
                     em[q][0], ea[q][0], em[q][1], ea[q][1], em[q][2], ea[q][2]);
        }
      RW_NOTE ("  largest |measured − analytic| for P ≥ 4: %.2g", worst_dev);
      RW_CHECK (worst_dev < 0.0015, "%s: measured phase velocity within 0.15 %% of the analytic "
                "relation for P ≥ 4 (largest deviation %.3g)", name, worst_dev);

      double pm = p_at_2pc (P, NP, em), pa = p_at_2pc (P, NP, ea);
      /* The analytic worst over all directions (not only the three rays):
       * a dense scan of the octant at the measured 2 % point. */
      double worst_all = 0;
      for (int a = 0; a <= 40; a++)
        for (int b = 0; b <= 40; b++)
          {
            double th = a * M_PI / 80, ph = b * M_PI / 80;
            double nv[3] = { sin (th) * cos (ph), sin (th) * sin (ph), cos (th) };
            worst_all = fmax (worst_all, fabs (err_analytic (fcc, l2, pa, nv)));
          }
      RW_NOTE ("  worst ray reaches 2 %% at P = %.2f measured, %.2f analytic "
               "(there the worst over all directions is %.4f)", pm, pa, worst_all);
      RW_CHECK (pm > 0 && fabs (pm - pa) < 0.03 * pa, "%s: P at 2 %% measured %.2f vs analytic %.2f",
                name, pm, pa);
      /* Node updates per second of audio for 1 m³ at f_max: sites per m³
       * (1/h³, FCC 1/(2h³)) × steps per second c/(λh), h = c/(f_max P). */
      double h = c0 / (f_max * pm);
      cost[fcc] = (fcc ? 0.5 : 1.0) / (h * h * h) * c0 / (lam * h);
      RW_NOTE ("  at P = %.2f, f_max = 1 kHz: h = %.1f mm (neighbour distance %.1f mm), "
               "%.3g sites/m³, %.0f steps/s, %.3g updates per second of audio per m³",
               pm, h * 1e3, fcc ? h * 1e3 * M_SQRT2 : h * 1e3, (fcc ? 0.5 : 1.0) / (h * h * h),
               c0 / (lam * h), cost[fcc]);
      for (int d = 0; d < NDIR; d++)
        for (int r = 0; r < 2; r++)
          free (run.rec[d][r]);
      free (em);
      free (ea);
    }
  RW_NOTE ("FCC / Cartesian updates for the same f_max at 2 %%: %.3f", cost[1] / cost[0]);
  return rw_test_finish ();
}
