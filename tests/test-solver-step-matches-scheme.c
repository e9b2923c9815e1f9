/* SPDX-License-Identifier: GPL-3.0-or-later */
/* solver-step-matches-scheme: one step of the CPU backend equals, cell by
 * cell and bit for bit, the update functions of rw-scheme.h applied to
 * the previous two fields — for every boundary form, in fp32 and fp64,
 * on an L-shaped room and a sphere (boundary nodes with K = 1 … 5, and
 * nodes whose mirror neighbour is missing too). This is what makes the
 * vectorised air pass plus the boundary fix-up (with p⁻ saved before the
 * in-place overwrite) trustworthy, and what a GPU backend is compared
 * against. Outside cells must stay exactly 0. */
#include "rw-test.h"
#include "test-solver-grid.h"

static const char *form_name[] = { "FV", "LRS", "Savioja" };

static void
check (const char *shape, RwGrid *g, RwBoundary form, RwPrecision prec)
{
  const size_t n = g->nx * g->ny * g->nz, nx = g->nx, nxy = g->nx * g->ny;
  const size_t steps = 40;
  double R = 0.6, *sig = malloc (steps * sizeof (double));
  size_t src = 0;
  while (g->K[src] != 6)
    src++;
  RwSolverSetup su = test_setup (g, &R, form, prec, steps, sig, src, 0, NULL);
  RwError err;
  RwSolver *s = rw_solver_new (&su, RW_BACKEND_CPU, &err);
  RW_CHECK (s != NULL, "rw_solver_new: %s", s ? "" : err.message);
  if (s == NULL)
    return;
  double *p = malloc (n * sizeof (double)), *q = malloc (n * sizeof (double));
  double *next = malloc (n * sizeof (double));
  bool ok = rw_solver_advance (s, steps - 1, &err) && rw_solver_read_field (s, p, q, &err)
            && rw_solver_advance (s, 1, &err) && rw_solver_read_field (s, next, NULL, &err);
  RW_CHECK (ok, "%s", ok ? "" : err.message);

  const ptrdiff_t off[6] = { -1, 1, -(ptrdiff_t) nx, (ptrdiff_t) nx, -(ptrdiff_t) nxy, (ptrdiff_t) nxy };
  const double beta = (1 - R) / (1 + R);
  size_t bad = 0, outside_bad = 0, checked = 0;
  for (size_t i = 0; ok && i < n; i++)
    {
      if (g->K[i] == 0)
        {
          outside_bad += next[i] != 0.0;
          continue;
        }
      int mask = 0;
      for (int d = 0; d < 6; d++)
        if (g->K[i + off[d]] != 0)
          mask |= 1 << d;
      double want;
      if (prec == RW_PRECISION_F64)
        {
          double nb[6], sum = 0;
          for (int d = 0; d < 6; d++)
            {
              nb[d] = p[i + off[d]];
              sum += nb[d];
            }
          want = g->K[i] == 6 ? rw_update_air_f64 (sum, q[i])
                 : form == RW_BOUNDARY_FV ? rw_update_fv_f64 (g->K[i], p[i], sum, q[i], beta)
                 : form == RW_BOUNDARY_LRS ? rw_update_lrs_f64 (mask, p[i], nb, q[i], beta)
                 : rw_update_savioja_f64 (mask, nb, q[i], R);
        }
      else
        {
          float nb[6], sum = 0;
          for (int d = 0; d < 6; d++)
            {
              nb[d] = (float) p[i + off[d]];
              sum += nb[d];
            }
          float pi = (float) p[i], qi = (float) q[i], bf = (float) beta, Rf = (float) R;
          want = g->K[i] == 6 ? rw_update_air_f32 (sum, qi)
                 : form == RW_BOUNDARY_FV ? rw_update_fv_f32 (g->K[i], pi, sum, qi, bf)
                 : form == RW_BOUNDARY_LRS ? rw_update_lrs_f32 (mask, pi, nb, qi, bf)
                 : rw_update_savioja_f32 (mask, nb, qi, Rf);
        }
      checked++;
      if (next[i] != want)
        {
          if (bad++ < 5)
            fprintf (stderr, "%s %s %s: cell %zu (K=%d mask 0x%02x): solver %.17g, scheme %.17g\n",
                     shape, form_name[form], prec == RW_PRECISION_F64 ? "fp64" : "fp32",
                     i, g->K[i], mask, next[i], want);
        }
    }
  RW_NOTE ("%s %-7s %s: %zu inside cells compared, %zu differ, %zu outside cells non-zero",
           shape, form_name[form], prec == RW_PRECISION_F64 ? "fp64" : "fp32", checked, bad,
           outside_bad);
  RW_CHECK (bad == 0 && outside_bad == 0, "%s %s: %zu cells differ from the scheme, %zu outside "
            "cells are non-zero", shape, form_name[form], bad, outside_bad);
  free (p);
  free (q);
  free (next);
  free (sig);
  rw_solver_free (s);
}

int
main (void)
{
  test_each_shape_form_precision (check);
  return rw_test_finish ();
}
