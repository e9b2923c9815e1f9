/* SPDX-License-Identifier: GPL-3.0-or-later */
/* solver-reflection-normal: a plane wave meeting a wall of reflection
 * factor R at normal incidence comes back R times as strong, for the FV
 * and the LRS boundary.
 *
 * The plane wave lives in a column of 1 × 1 × 300 cells: with rigid side
 * faces (surface 0, β = 0) both forms reduce there to the 1-D scheme
 * along z (FV: K = 2, (2 − 2λ²)p + λ²(p_z−1 + p_z+1) − p⁻; LRS: the
 * side ghosts equal p). The far end cell is on surface 1. A cell has ONE
 * surface, so the end cell's four side faces absorb like its end face;
 * both forms count missing faces (FV: g = λβ(6 − K)/2, LRS: N_b λβ), so
 * surface 1 gets β/5 and the end cell then acts exactly as one face of
 * admittance β = (1 − R)/(1 + R). (The same sharing is why, in a 3-D duct,
 * cells where an absorbing wall meets a rigid one over-absorb: measured
 * in a 12 × 12 duct, an R = 0 end wall reflected −0.14.)
 *
 * A soft source at the near end sends the time derivative of a Gaussian
 * (σ = 20 steps, centre fT ≈ 0.008, kh ≈ 0.09: no net volume, so no
 * static overpressure). A receiver half way records the incident pulse
 * and later the reflected one; R is estimated as
 * sign(correlation) × √(E_ref/E_inc) over windows around each (lossless in
 * between: dispersion reshapes the pulse but keeps its energy).
 * Checked for R = 0.9, 0.5, 0.2, 0, −0.5: |R_est − R| < 0.02. The 1-D
 * analysis of the discrete boundaries gives |r| − R ≈ +0.02 for FV at
 * R = 0 at this frequency (the wall condition is applied at the cell
 * centre, h/2 from the wall: a first-order error in kh), ≤ 0.001 for LRS. */
#include "rw-test.h"
#include "test-solver-grid.h"
#include "test-reflection.h"

#define LEN 300
#define SIGMA 20.0
#define T0 80.0

static double
measure (RwBoundary form, double R_wall, double *peak_ratio)
{
  RwGrid *g = test_grid_new (1, 1, LEN, 0.1, NULL, NULL);
  g->n_surfaces = 2;
  g->surface[test_cell (g, 0, 0, LEN - 1)] = 1;
  /* β/5 on the end cell's surface: its five missing faces then absorb
   * as one face of admittance β. */
  double beta = (1.0 - R_wall) / (1.0 + R_wall) / 5.0;
  double R[2] = { 1.0, (1.0 - beta) / (1.0 + beta) };
  const double c_cells = 1.0 / sqrt (3.0);          /* cells per step (λ) */
  const size_t n_steps = (size_t) (2.0 * LEN / c_cells + T0 + 6 * SIGMA);
  double *sig = malloc (n_steps * sizeof (double));
  size_t rcv = test_cell (g, 0, 0, LEN / 2);
  RwSolverSetup su = test_setup (g, R, form, RW_PRECISION_F64, n_steps, sig,
                                 test_cell (g, 0, 0, 0), 1, &rcv);
  for (size_t k = 0; k < n_steps; k++)
    {
      double u = ((double) k - T0) / SIGMA;
      sig[k] = -u * exp (-0.5 * u * u);
    }
  RwError err;
  RwSolver *s = rw_solver_new (&su, RW_BACKEND_CPU, &err);
  double R_est = NAN;
  if (s != NULL && rw_solver_run (s, NULL, NULL, NULL, &err))
    {
      const double *y = rw_solver_receiver (s, 0);
      /* Arrivals: incident after LEN/2 cells, reflected after 3·LEN/2. */
      const double t_inc = T0 + (LEN / 2.0) / c_cells, t_ref = T0 + (1.5 * LEN) / c_cells;
      const double half = 4.0 * SIGMA;
      double pk_inc = 0, pk_ref = 0;
      size_t lag = (size_t) (t_ref - t_inc);
      for (size_t k = (size_t) (t_inc - half); k < (size_t) (t_inc + half); k++)
        {
          pk_inc = fmax (pk_inc, fabs (y[k]));
          pk_ref = fmax (pk_ref, fabs (y[k + lag]));
        }
      R_est = test_reflection_ratio (y, (size_t) (t_inc - half), (size_t) (t_inc + half), lag);
      *peak_ratio = pk_ref / pk_inc;
    }
  else
    RW_CHECK (false, "run: %s", err.message);
  rw_solver_free (s);
  free (sig);
  rw_grid_free (g);
  return R_est;
}

int
main (void)
{
  static const double Rs[] = { 0.9, 0.5, 0.2, 0.0, -0.5 };
  for (int form = RW_BOUNDARY_FV; form <= RW_BOUNDARY_LRS; form++)
    for (size_t i = 0; i < sizeof Rs / sizeof Rs[0]; i++)
      {
        double peak = NAN;
        double est = measure ((RwBoundary) form, Rs[i], &peak);
        RW_NOTE ("%s R = %+.2f: measured %+.4f (energy), peak ratio %.4f",
                 form == RW_BOUNDARY_FV ? "FV " : "LRS", Rs[i], est, peak);
        RW_CHECK (fabs (est - Rs[i]) < 0.02, "%s R = %g: measured %g",
                  form == RW_BOUNDARY_FV ? "FV" : "LRS", Rs[i], est);
      }
  return rw_test_finish ();
}
