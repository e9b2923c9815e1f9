/* SPDX-License-Identifier: GPL-3.0-or-later */
/* solver-fcc-f32-vs-f64: on the FCC lattice the fp32 solver follows the
 * fp64 one, as solver-f32-vs-f64 checks it for the 7-point scheme.
 *
 * An L-shaped room on the FCC lattice (test_grid_fcc, 30 × 24 × 20 cells
 * less a quarter), FV walls with R = 0.9 and, second, with a fitted
 * library material (branches: their states in fp32, the boundary update in
 * double either way), a doublet source (no net volume: solver-f32-vs-f64
 * says why), three receivers, 2000 steps. Each receiver's fp32 signal
 * differs from the fp64 one in relative L2 norm, ‖y32 − y64‖ / ‖y64‖, by
 * less than 1.5e-5 with R = 0.9 (measured 4.0e-6 … 4.4e-6) and 5e-5 with
 * the branches (1.6e-5 … 1.9e-5; the states rounded to fp32). FCC's
 * λ² = 1 is exact in fp32, and the air update keeps its centre term
 * (2 − 3λ² = −1), so unlike the 7-point scheme's fp32 there is no
 * rounded-down λ² (rw-scheme.h) in the difference, only the rounding of
 * the stored values. */
#include "rw-test.h"
#include "test-solver-fcc.h"
#include "rw-admittance.h"
#include "rw-materials.h"
#include "rw-physics.h"

#define STEPS 2000

static void
run (RwGrid *g, const RwAdmittance *Y, double k, RwPrecision prec, const size_t *rcv, double *out)
{
  double R = Y != NULL ? (1 - Y->Y0) / (1 + Y->Y0) : 0.9, *sig = malloc (STEPS * sizeof (double));
  RwSolverSetup su = test_setup (g, &R, RW_BOUNDARY_FV, prec, STEPS, sig,
                                 test_fcc_site (g, 4, 5, 6), 3, rcv);
  sig[1] = -1.0;
  su.surface_Y = Y;
  su.time_step_s = k;
  test_run_receivers (&su, out);
  free (sig);
}

static void
compare (const char *what, RwGrid *g, const RwAdmittance *Y, double k, const size_t *rcv,
         double bound)
{
  double *a = malloc (3 * STEPS * sizeof (double)), *b = malloc (3 * STEPS * sizeof (double));
  run (g, Y, k, RW_PRECISION_F64, rcv, a);
  run (g, Y, k, RW_PRECISION_F32, rcv, b);
  for (size_t r = 0; r < 3; r++)
    {
      double rel = test_rel_l2 (a + r * STEPS, b + r * STEPS, STEPS);
      RW_NOTE ("%s, receiver %zu: relative L2 difference fp32 vs fp64 = %.3g", what, r, rel);
      RW_CHECK (rel < bound, "%s, receiver %zu: %.3g", what, r, rel);
    }
  free (a);
  free (b);
}

int
main (void)
{
  double size[3] = { 30, 24, 20 };
  RwGrid *g = test_grid_fcc (30, 24, 20, 0.1, test_inside_l, size);
  size_t rcv[3] = { test_fcc_site (g, 20, 5, 10), test_fcc_site (g, 3, 20, 3),
                    test_fcc_site (g, 10, 10, 18) };
  const double c = rw_speed_of_sound (20.0), k = 1.0 / rw_grid_rate_fcc (c, g->h);
  compare ("R = 0.9", g, NULL, k, rcv, 1.5e-5);

  /* a frequency-dependent row of the library, fitted to 1 kHz */
  RwError err = { 0 };
  RwMaterialLibrary *lib = rw_materials_load (NULL, &err);
  RW_CHECK (lib != NULL, "the library: %s", lib ? "" : err.message);
  bool done = false;
  for (size_t i = 0; lib != NULL && i < lib->n && !done; i++)
    {
      RwAdmittance Y;
      RwFitReport rep;
      if (rw_admittance_fit_alpha (lib->items[i].alpha, rw_admittance_bands_for_fmax (1000.0), &Y,
                                   &rep, &err)
          && Y.n_branches > 0)
        {
          char what[64];
          snprintf (what, sizeof what, "%.30s (%d branches)", lib->items[i].name, Y.n_branches);
          compare (what, g, &Y, k, rcv, 5e-5);
          done = true;
        }
    }
  RW_CHECK (done, "no frequency-dependent library row");
  rw_materials_free (lib);
  rw_grid_free (g);
  return rw_test_finish ();
}
