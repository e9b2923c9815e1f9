/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-dispersion.h — the phase velocity of a scheme of the reference
 * solver (rw-fcc.h) MEASURED from a simulation, and the scheme's analytic
 * dispersion relation, derived independently here (h the cubic spacing,
 * λ = c k / h, s_i = sin²(κ_i h / 2)):
 *   27-point family (the 7-point scheme is a = b = 0):
 *     cos ωk = 1 − 2λ² [Σ s_i − 4a Σ_{i<j} s_i s_j + 16 b s_x s_y s_z]
 *   FCC:  cos ωk = 1 − (λ²/2) Σ₆ sin²(κ·d h / 2)
 * (d the 6 FCC neighbour offsets up to sign). A Gaussian pulse is injected
 * at a site in the middle of a rigid box; two receivers on each of the
 * rays (1,0,0), (1,1,0), (1,1,1) record it until the first wall reflection
 * could arrive; the phase of the cross spectrum of the two records,
 * unwrapped along frequency, gives κ(ω) along the ray, so v = ω / κ. (A
 * point source's far-field phase along a symmetry axis of the lattice is
 * κ r with κ parallel to the ray.) Shared by fcc-dispersion and
 * cpt27-dispersion (docs/SOLVER.md §9). */
#pragma once

#include "rw-test.h"
#include "rw-fcc.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>

#define DISP_L 64            /* source at (L, L, L), box n = 2L + 1 */
#define DISP_NDIR 3
#define DISP_NP 69           /* P grid: 20, 19.75, … 3 */

typedef struct {
  const char *name;
  RwRefScheme ref;
  double l2;                 /* λ² */
  double a, b;               /* the 27-point family's (7-point: 0, 0) */
  int fcc;                   /* the FCC relation instead */
  double site_frac;          /* sites per cubic cell: 1, FCC ½ */
} DispScheme;

/* What disp_measure_scheme found. */
typedef struct {
  double P[DISP_NP];
  double em[DISP_NP][DISP_NDIR], ea[DISP_NP][DISP_NDIR];   /* measured, analytic v/c − 1 */
  double worst_dev;          /* max |measured − analytic| for P ≥ 4 */
  double pm, pa;             /* worst ray at 2 %: measured, analytic */
  double p_all;              /* worst of all directions at 2 % (analytic) */
  int nt;
} DispResult;

/* Receivers on each ray, offsets from the source (lattice sites of every
 * scheme: i + j + k even). */
static const int disp_rcv[DISP_NDIR][2][3] = {
  { { 20, 0, 0 }, { 40, 0, 0 } },
  { { 14, 14, 0 }, { 28, 28, 0 } },
  { { 12, 12, 12 }, { 24, 24, 24 } },
};

/* Analytic cos ωk of the scheme at wave vector κh·n. */
static inline double
disp_rhs (const DispScheme *sc, double kh, const double nv[3])
{
  double a = kh * nv[0], b = kh * nv[1], c = kh * nv[2];
  if (!sc->fcc)
    {
      double s[3] = { sin (a / 2), sin (b / 2), sin (c / 2) };
      for (int i = 0; i < 3; i++)
        s[i] *= s[i];
      double F = s[0] + s[1] + s[2] - 4 * sc->a * (s[0] * s[1] + s[1] * s[2] + s[2] * s[0])
                 + 16 * sc->b * s[0] * s[1] * s[2];
      return 1 - 2 * sc->l2 * F;
    }
  const double d[6] = { a + b, a - b, a + c, a - c, b + c, b - c };
  double s = 0;
  for (int i = 0; i < 6; i++)
    s += sin (d[i] / 2) * sin (d[i] / 2);
  return 1 - sc->l2 / 2 * s;
}

/* κh along nv for ωk, by scanning up to the first crossing (steps of
 * 0.01: cos ωk falls monotonically along a ray below its cutoff) and
 * bisecting; -1 if ωk is above the ray's cutoff. */
static inline double
disp_kappa_analytic (const DispScheme *sc, double wk, const double nv[3])
{
  const double target = cos (wk), dk = 1e-2;
  double lo = 0, hi = -1;
  for (double x = dk; x < 2 * M_PI; x += dk)
    {
      if (disp_rhs (sc, x, nv) <= target)
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
      if (disp_rhs (sc, m, nv) > target)
        lo = m;
      else
        hi = m;
    }
  return 0.5 * (lo + hi);
}

/* Relative phase-velocity error v/c − 1 at P points per wavelength
 * (P = wavelength / h, h the cubic spacing); −1 above the cutoff. */
static inline double
disp_err_analytic (const DispScheme *sc, double P, const double nv[3])
{
  double lam = sqrt (sc->l2), wk = 2 * M_PI * lam / P;
  double kh = disp_kappa_analytic (sc, wk, nv);
  return kh > 0 ? wk / (lam * kh) - 1 : -1;
}

/* The worst |v/c − 1| over the directions of the octant at P (a 41 × 41
 * grid of polar and azimuth angles; the schemes are symmetric under the
 * axis flips). */
static inline double
disp_worst_all (const DispScheme *sc, double P)
{
  double worst = 0;
  for (int a = 0; a <= 40; a++)
    for (int b = 0; b <= 40; b++)
      {
        double th = a * M_PI / 80, ph = b * M_PI / 80;
        double nv[3] = { sin (th) * cos (ph), sin (th) * sin (ph), cos (th) };
        worst = fmax (worst, fabs (disp_err_analytic (sc, P, nv)));
      }
  return worst;
}

/* The P at which the worst of all directions reaches tol (bisection:
 * the error grows as P falls). */
static inline double
disp_p_all (const DispScheme *sc, double tol)
{
  double lo = 2.5, hi = 20;
  for (int it = 0; it < 20; it++)
    {
      double m = 0.5 * (lo + hi);
      if (disp_worst_all (sc, m) > tol)
        lo = m;
      else
        hi = m;
    }
  return 0.5 * (lo + hi);
}

typedef struct {
  int nt;
  double *rec[DISP_NDIR][2];
  double dr[DISP_NDIR];
} DispRun;

static inline int
disp_simulate (const DispScheme *sc, DispRun *run)
{
  const double lam = sqrt (sc->l2);
  const int L = DISP_L;
  RwRefSim *sim = rw_ref_sim_new (sc->ref, 2 * L + 1, sc->l2);
  RW_CHECK (sim != NULL, "%s: reference solver created", sc->name);
  if (sim == NULL)
    return 0;
  /* Gaussian pulse of width 1.5 cells of travel, delayed by 5 σ. */
  const double sigma = 1.5 / lam, n0 = 5 * sigma;
  /* Records end 3 cells of travel before the earliest wall reflection at
   * the far receiver on the axis ray (path L + (L − 40) = 88 cells). */
  run->nt = (int) (n0 + (2.0 * L - 40 - 3) / lam);
  for (int d = 0; d < DISP_NDIR; d++)
    {
      for (int r = 0; r < 2; r++)
        run->rec[d][r] = calloc ((size_t) run->nt, sizeof (double));
      double r1 = 0, r2 = 0;
      for (int i = 0; i < 3; i++)
        {
          r1 += disp_rcv[d][0][i] * disp_rcv[d][0][i];
          r2 += disp_rcv[d][1][i] * disp_rcv[d][1][i];
        }
      run->dr[d] = sqrt (r2) - sqrt (r1);
    }
  for (int n = 0; n < run->nt; n++)
    {
      double t = (n - n0) / sigma;
      rw_ref_sim_add (sim, L, L, L, exp (-0.5 * t * t));
      for (int d = 0; d < DISP_NDIR; d++)
        for (int r = 0; r < 2; r++)
          run->rec[d][r][n] = rw_ref_sim_get (sim, L + disp_rcv[d][r][0], L + disp_rcv[d][r][1],
                                              L + disp_rcv[d][r][2]);
      rw_ref_sim_step (sim);
    }
  rw_ref_sim_free (sim);
  return 1;
}

/* DFT of a record at ωk, its last third tapered to 0 by a half cosine:
 * the records are cut while the slow high-frequency tail of the pulse
 * still rings (most on the Cartesian axis), and a hard cut leaks it into
 * every frequency (±0.3 % of c on the axis, measured). */
static inline double complex
disp_dft (const double *x, int nt, double wk)
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
static inline void
disp_measure (const DispRun *run, double lam, const double *P, int nP, double (*err)[DISP_NDIR])
{
  for (int d = 0; d < DISP_NDIR; d++)
    {
      double wk = 2 * M_PI * lam / 200.0, psi = 0, prev = 0;
      int first = 1;
      for (int q = 0; q < nP; q++)
        {
          const double wq = 2 * M_PI * lam / P[q];
          while (1)
            {
              double complex x = disp_dft (run->rec[d][1], run->nt, wk)
                                 * conj (disp_dft (run->rec[d][0], run->nt, wk));
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
static inline double
disp_p_at_2pc (const double *P, int nP, double (*err)[DISP_NDIR])
{
  double prev = 0;
  for (int q = 0; q < nP; q++)
    {
      double w = 0;
      for (int d = 0; d < DISP_NDIR; d++)
        w = fmax (w, fabs (err[q][d]));
      if (w >= 0.02 && q > 0)
        return P[q - 1] + (P[q] - P[q - 1]) * (0.02 - prev) / (w - prev);
      prev = w;
    }
  return -1;
}

/* Simulates the scheme, measures and prints v/c − 1 on the three rays
 * against the analytic relation, and checks that they agree within
 * 0.15 % of c for P ≥ 4 and that the P of 2 % in the worst ray agrees
 * within 3 %. 0 if the simulation could not run. */
static inline int
disp_measure_scheme (const DispScheme *sc, DispResult *res)
{
  static const double nvs[DISP_NDIR][3] = {
    { 1, 0, 0 }, { M_SQRT1_2, M_SQRT1_2, 0 }, { 0.57735026918962576, 0.57735026918962576, 0.57735026918962576 },
  };
  const double lam = sqrt (sc->l2);
  for (int q = 0; q < DISP_NP; q++)
    res->P[q] = 20.0 - 0.25 * q;
  DispRun run;
  if (!disp_simulate (sc, &run))
    return 0;
  res->nt = run.nt;
  disp_measure (&run, lam, res->P, DISP_NP, res->em);
  RW_NOTE ("%s: %d steps; v/c − 1 measured (analytic) on the rays (1,0,0), (1,1,0), (1,1,1):",
           sc->name, run.nt);
  res->worst_dev = 0;
  for (int q = 0; q < DISP_NP; q++)
    {
      for (int d = 0; d < DISP_NDIR; d++)
        {
          res->ea[q][d] = disp_err_analytic (sc, res->P[q], nvs[d]);
          if (res->P[q] >= 4.0)
            res->worst_dev = fmax (res->worst_dev, fabs (res->em[q][d] - res->ea[q][d]));
        }
      if (q % 8 == 0)
        RW_NOTE ("  P = %5.2f: %+.4f (%+.4f)  %+.4f (%+.4f)  %+.4f (%+.4f)", res->P[q],
                 res->em[q][0], res->ea[q][0], res->em[q][1], res->ea[q][1], res->em[q][2],
                 res->ea[q][2]);
    }
  RW_NOTE ("  largest |measured − analytic| for P ≥ 4: %.2g", res->worst_dev);
  RW_CHECK (res->worst_dev < 0.0015, "%s: measured phase velocity within 0.15 %% of the analytic "
            "relation for P ≥ 4 (largest deviation %.3g)", sc->name, res->worst_dev);
  res->pm = disp_p_at_2pc (res->P, DISP_NP, res->em);
  res->pa = disp_p_at_2pc (res->P, DISP_NP, res->ea);
  RW_CHECK (res->pm > 0 && fabs (res->pm - res->pa) < 0.03 * res->pa,
            "%s: P at 2 %% measured %.2f vs analytic %.2f", sc->name, res->pm, res->pa);
  for (int d = 0; d < DISP_NDIR; d++)
    for (int r = 0; r < 2; r++)
      free (run.rec[d][r]);
  return 1;
}

/* Node updates per second of audio for 1 m³ at f_max, at P points per
 * wavelength: sites per m³ (site_frac / h³) × steps per second c/(λh),
 * h = c/(f_max P). */
static inline double
disp_cost (const DispScheme *sc, double P, double c0, double f_max)
{
  double h = c0 / (f_max * P);
  return sc->site_frac / (h * h * h) * c0 / (sqrt (sc->l2) * h);
}
