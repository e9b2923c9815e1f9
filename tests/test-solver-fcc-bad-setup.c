/* SPDX-License-Identifier: GPL-3.0-or-later */
/* solver-fcc-bad-setup: on an FCC grid, rw_solver_new refuses with a
 * clear message what the FCC scheme cannot run — the LRS and Savioja
 * boundaries (forms of the 7-point scheme), a source or receiver cell
 * that is not a site (x + y + z odd), one on a site outside the room —
 * and accepts the same setup with the FV boundary on sites, whose
 * receivers then hear the source; rw_grid_locate's nearest site is
 * accepted. */
#include "rw-test.h"
#include "test-solver-fcc.h"

#include <string.h>

int
main (void)
{
  RwGrid *g = rw_grid_new_box_fcc (10, 9, 8, 0.1);
  double sig[50] = { 1.0, -1.0 }, R = 0.8;
  size_t rcv[2] = { test_fcc_site (g, 2, 2, 2), test_fcc_site (g, 6, 5, 5) };
  const RwSolverSetup base = {
    .grid = g, .surface_R = &R, .boundary = RW_BOUNDARY_FV, .precision = RW_PRECISION_F32,
    .n_steps = 50, .source_cell = test_fcc_site (g, 4, 4, 4), .source_kind = RW_SOURCE_SOFT,
    .source_signal = sig, .n_receivers = 2, .receiver_cells = rcv,
  };
  RwError err;
  RwSolver *ok = rw_solver_new (&base, RW_BACKEND_CPU, &err);
  RW_CHECK (ok != NULL && rw_solver_run (ok, NULL, NULL, NULL, &err), "the base setup: %s",
            err.message);
  RW_CHECK (ok != NULL && fabs (rw_solver_receiver (ok, 1)[49]) > 0, "receiver 2 heard nothing");
  rw_solver_free (ok);

  RwSolverSetup su = base;
  su.boundary = RW_BOUNDARY_LRS;
  test_refused ("LRS on FCC", su, RW_BACKEND_CPU, RW_ERROR_UNSUPPORTED, "FCC lattice");
  su.boundary = RW_BOUNDARY_SAVIOJA;
  test_refused ("Savioja on FCC", su, RW_BACKEND_CPU, RW_ERROR_UNSUPPORTED, "savioja");

  /* interior (3, 3, 3): grid (4, 4, 4), x + y + z even, a site; (4, 3, 3)
   * is not */
  su = base;
  rcv[1] = test_cell (g, 4, 3, 3);
  test_refused ("receiver on no site", su, RW_BACKEND_CPU, RW_ERROR_INPUT, "not a site");
  rcv[1] = test_fcc_site (g, 6, 5, 5);
  su.source_cell = test_cell (g, 0, 0, 0);
  test_refused ("source on no site", su, RW_BACKEND_CPU, RW_ERROR_INPUT, "not a site");
  su.source_cell = rw_grid_index (g, 0, 0, 0);   /* a site of the outer layer */
  test_refused ("source outside", su, RW_BACKEND_CPU, RW_ERROR_INPUT, "outside the room");

  /* the nearest site of a point between sites runs */
  su = base;
  const double p[3] = { 0.41, 0.33, 0.52 };
  size_t cell;
  RW_CHECK (rw_grid_locate (g, p, "receiver", &cell, &err), "locate: %s", err.message);
  rcv[0] = cell;
  RwSolver *s = rw_solver_new (&su, RW_BACKEND_CPU, &err);
  RW_CHECK (s != NULL, "a located receiver: %s", s ? "" : err.message);
  rw_solver_free (s);

  rw_grid_free (g);
  return rw_test_finish ();
}
