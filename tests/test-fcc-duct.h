/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-fcc-duct.h — the FCC reflection tests' duct
 * (solver-fcc-reflection-normal, solver-fcc-reflection-bands). Apart from
 * test-solver-fcc.h because it needs rw-admittance.h, whose <complex.h>
 * would change fftw_complex for the tests that use FFTW. */
#pragma once

#include "test-solver-fcc.h"
#include "rw-admittance.h"

/* A plane wave in a duct along z (the FCC reflection tests):
 * rw_grid_new_box_fcc of w × w × len cells of h, its sides and near end
 * rigid (surface 0), its far end's sites on surface 1 with the end wall's
 * share of their area only, h²/2 per missing link through the end wall
 * (rw-scheme-fcc.h, "Staircase area"). A site whose links also cross a
 * side wall keeps those rigid (they are just absent in the FV form), so
 * the end wall absorbs over exactly its own area and the sides over none.
 * A soft source at a site in the middle of the near end plays the time
 * derivative of a Gaussian (σ, t0 in steps; no net volume), so that the
 * pressure in the duct is a Gaussian pulse; every site of the plane z
 * records. The far end: admittance Y (NULL: reflection factor r_end, no
 * branches); CPU backend, fp64, time step h/c (c = 343 m/s, λ = 1).
 * Returns the mean of the plane's sites (the plane wave, n_steps samples;
 * the caller frees it), or NULL with err set. */
static inline double *
test_fcc_duct_run (size_t w, size_t len, double h, double r_end, const RwAdmittance *Y, size_t z,
                   size_t n_steps, double sigma, double t0, RwError *err)
{
  static const int off[RW_FCC_N_NBR][3] = RW_FCC_NBR_OFFSETS;
  RwGrid *g = rw_grid_new_box_fcc (w, w, len, h);
  g->n_surfaces = 2;
  g->surface_area_m2 = realloc (g->surface_area_m2, 2 * sizeof (double));
  g->surface_area_m2[1] = (double) (w * w) * h * h;
  const size_t zend = g->nz - 2;
  size_t rank = 0;
  for (size_t i = 0; i < g->nx * g->ny * g->nz; i++)
    {
      if (g->K[i] == 0 || g->K[i] == RW_FCC_N_NBR)
        continue;
      if (i / (g->nx * g->ny) == zend)
        {
          int through = 0;
          for (int d = 0; d < RW_FCC_N_NBR; d++)
            through += off[d][2] > 0;
          g->surface[i] = 1;
          g->area[rank] = 0.5f * (float) through;
        }
      rank++;
    }
  const double R[2] = { 1.0, Y != NULL ? (1.0 - Y->Y0) / (1.0 + Y->Y0) : r_end };
  RwAdmittance Ys[2] = { rw_admittance_real (1.0), rw_admittance_real (1.0) };
  if (Y != NULL)
    Ys[1] = *Y;
  double *sig = malloc (n_steps * sizeof (double));
  size_t *rcv = malloc (w * w * sizeof (size_t));
  size_t n_rcv = 0;
  for (size_t y = 0; y < w; y++)
    for (size_t x = 0; x < w; x++)
      if ((x + y + z + 3) % 2 == 0)
        rcv[n_rcv++] = test_cell (g, x, y, z);
  RwSolverSetup su = test_setup (g, R, RW_BOUNDARY_FV, RW_PRECISION_F64, n_steps, sig,
                                 test_fcc_site (g, w / 2, w / 2, 0), n_rcv, rcv);
  su.surface_Y = Y != NULL ? Ys : NULL;
  su.time_step_s = h / 343.0;
  for (size_t k = 0; k < n_steps; k++)
    {
      const double u = ((double) k - t0) / sigma;
      sig[k] = -u * exp (-0.5 * u * u);
    }
  RwSolver *s = rw_solver_new (&su, RW_BACKEND_CPU, err);
  double *mean = NULL;
  if (s != NULL && rw_solver_run (s, NULL, NULL, NULL, err))
    {
      mean = calloc (n_steps, sizeof (double));
      for (size_t r = 0; r < n_rcv; r++)
        for (size_t k = 0; k < n_steps; k++)
          mean[k] += rw_solver_receiver (s, r)[k] / (double) n_rcv;
    }
  rw_solver_free (s);
  free (rcv);
  free (sig);
  rw_grid_free (g);
  return mean;
}
