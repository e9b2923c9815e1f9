/* SPDX-License-Identifier: GPL-3.0-or-later */
/* solver-fcc-reflection-normal: on the FCC lattice, a plane wave meeting
 * an FV wall of reflection factor R at normal incidence comes back R times
 * as strong (rw-scheme-fcc.h's boundary with β = (1 − R)/(1 + R)), as
 * solver-reflection-normal checks it for the 7-point scheme.
 *
 * A duct along z, rw_grid_new_box_fcc of W × W × 300 cells (W = 16), its
 * side walls and near end rigid (surface 0, R = 1), its far end on surface
 * 1. A site at the far end whose links also cross a side wall gets surface
 * 1 with the end wall's share of its area only (h²/2 per missing link
 * through the end wall): its side links stay rigid (they are just absent
 * in the FV form), so the end wall absorbs over exactly its own area and
 * the sides over none. The source, a soft one at a site of the near end,
 * plays the time derivative of a Gaussian (σ = 20 steps; kh ≈ 0.05 at its
 * peak, far below the duct's first cross mode at kh = π/W: only the plane
 * mode travels), so that the pressure in the duct is a Gaussian pulse. Every site of the mid plane z = 150 records; their mean
 * is the plane wave. R is estimated as sign(correlation) × √(E_ref/E_inc)
 * over windows around the incident and the reflected pulse.
 *
 * Wave speed: λ = 1, one cell a step; the rigid sides, with their wall
 * links (rw-scheme-fcc.h), do not slow a wave running along them
 * (measured 1.0000 cells a step); the windows (±4σ) and the lag between
 * them (the measured delay between the incident pulse and the reflected
 * one) would allow for a slower wave.
 *
 * Checked for R = 0.9, 0.5, 0.2, 0, −0.5: |R_est − R| < 0.015. Measured
 * (NOTE lines): errors −0.0004, −0.0003, −0.0002, −0.0087, −0.0004: the
 * FV wall's first-order error in kh (the 7-point test measures +0.02 at
 * R = 0). Without the wall links the sides slowed the wave to 0.974 cells
 * a step and the errors were −0.0035, −0.0125, −0.0157, −0.0187, −0.0123
 * (the duct's own admittance, solver-fcc-reflection-bands): R = 0.2 and 0
 * fail. A wrong boundary constant (λ·S for the FCC's (λ/2)·S)
 * measures −0.35 at R = 0. */
#include "rw-test.h"
#include "test-fcc-duct.h"
#include "test-reflection.h"

#define W 16
#define LEN 300
#define SIGMA 20.0
#define T0 80.0

static double
measure (double R_wall, double *speed)
{
  const double beta = (1.0 - R_wall) / (1.0 + R_wall);
  const size_t n_steps = (size_t) (2.2 * LEN + T0 + 6 * SIGMA);
  RwError err;
  double *y = test_fcc_duct_run (W, LEN, 0.1, (1.0 - beta) / (1.0 + beta), NULL, LEN / 2, n_steps,
                                 SIGMA, T0, &err);
  double R_est = NAN;
  if (y != NULL)
    {
      /* the incident pulse's peak near T0 + LEN/2 steps (in a duct the
       * soft source's pressure is the integral of its signal: a Gaussian);
       * the reflected one by the correlation's peak near a lag of LEN
       * steps at the speed that peak gives */
      size_t lag = LEN, kp = (size_t) (T0 + LEN / 2);
      for (size_t k = (size_t) (T0 + LEN / 2 - 60); k < (size_t) (T0 + LEN / 2 + 60); k++)
        if (fabs (y[k]) > fabs (y[kp]))
          kp = k;
      const double t_inc = (double) kp;
      *speed = (LEN / 2.0) / (t_inc - T0);
      const double t_ref_guess = t_inc + LEN / *speed;
      double best = 0;
      for (size_t l = (size_t) (t_ref_guess - t_inc) - 20; l < (size_t) (t_ref_guess - t_inc) + 20; l++)
        {
          double cor = 0;
          for (size_t k = (size_t) (t_inc - 4 * SIGMA); k < (size_t) (t_inc + 4 * SIGMA); k++)
            cor += y[k] * y[k + l];
          if (fabs (cor) > best)
            best = fabs (cor), lag = l;
        }
      R_est = test_reflection_ratio (y, (size_t) (t_inc - 4 * SIGMA), (size_t) (t_inc + 4 * SIGMA),
                                     lag);
      free (y);
    }
  else
    RW_CHECK (false, "run: %s", err.message);
  return R_est;
}

int
main (void)
{
  static const double Rs[] = { 0.9, 0.5, 0.2, 0.0, -0.5 };
  for (size_t i = 0; i < sizeof Rs / sizeof Rs[0]; i++)
    {
      double speed = NAN;
      const double est = measure (Rs[i], &speed);
      RW_NOTE ("FCC FV R = %+.2f: measured %+.4f (error %+.4f), wave speed in the duct %.4f "
               "cells a step", Rs[i], est, est - Rs[i], speed);
      RW_CHECK (fabs (est - Rs[i]) < 0.015, "R = %g: measured %g", Rs[i], est);
    }
  return rw_test_finish ();
}
