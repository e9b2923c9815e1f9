/* SPDX-License-Identifier: GPL-3.0-or-later */
/* grid-interp-outside: rw_grid_interp refuses a point outside the room
 * (in a pillar, beyond a wall or the floor, beyond the grid, not finite) with RW_ERROR_INPUT and a message naming the point and its
 * coordinates, on the cubic and the FCC lattice; and the solver refuses
 * stencils it cannot run: a hard source spread over several cells, a
 * stencil cell outside the room, a weight that is not finite. */
#include "rw-test.h"
#include <string.h>
#include "rw-shapes.h"
#include "rw-solver.h"
#include "rw-voxel.h"

static void
refused (const RwGrid *g, const double p[3], const char *what, const char *coords, const char *name)
{
  RwError err = { 0 };
  RwGridStencil st;
  bool ok = rw_grid_interp (g, p, what, &st, &err);
  RW_NOTE ("%s: %s", name, err.message);
  RW_CHECK (!ok, "%s: %s at (%g, %g, %g) accepted", name, what, p[0], p[1], p[2]);
  RW_CHECK (err.code == RW_ERROR_INPUT, "%s: code %d", name, err.code);
  RW_CHECK (strstr (err.message, what) && strstr (err.message, coords),
            "%s: message lacks '%s' %s: %s", name, what, coords, err.message);
}

static void
solver_refuses (RwSolverSetup su, const char *want, const char *name)
{
  RwError err = { 0 };
  RwSolver *s = rw_solver_new (&su, RW_BACKEND_CPU, &err);
  RW_NOTE ("%s: %s", name, err.message);
  RW_CHECK (s == NULL && err.code == RW_ERROR_INPUT && strstr (err.message, want) != NULL,
            "%s: not refused with '%s': %s", name, want, err.message);
  rw_solver_free (s);
}

int
main (void)
{
  RwError err = { 0 };
  /* a 6 × 5 × 3 m room with a 1 × 1 m pillar over (2…3, 2…3) */
  RwMesh *mesh = rw_shape_box_with_pillar (6, 5, 3, 2, 2, 1);
  RwGrid *room = mesh ? rw_voxelise (mesh, 0.1, 0, &err) : NULL;
  RW_CHECK (room != NULL, "pillar room: %s", err.message);
  if (room != NULL)
    {
      refused (room, (const double[3]) { 2.5, 2.5, 1.5 }, "receiver 2", "(2.50, 2.50, 1.50)", "in the pillar");
      refused (room, (const double[3]) { 6.4, 1.0, 1.2 }, "receiver 3", "(6.40, 1.00, 1.20)", "beyond a wall");
      refused (room, (const double[3]) { 1.0, 1.0, -0.3 }, "source", "(1.00, 1.00, -0.30)", "below the floor");
      refused (room, (const double[3]) { 1e6, 1.0, 1.0 }, "receiver 1", "(1000000.00, 1.00, 1.00)", "far");
      refused (room, (const double[3]) { NAN, 1.0, 1.0 }, "receiver 4", "receiver 4", "NaN");
      /* 2 cm from the pillar and 3 cm from a corner: accepted, every
       * stencil cell inside */
      RwGridStencil st;
      RW_CHECK (rw_grid_interp (room, (const double[3]) { 1.98, 2.5, 1.5 }, "source", &st, &err)
                && rw_grid_interp (room, (const double[3]) { 5.97, 0.03, 2.97 }, "source", &st, &err),
                "points next to the pillar and a corner: %s", err.message);
    }
  rw_grid_free (room);
  rw_mesh_free (mesh);

  RwGrid *fcc = rw_grid_new_box_fcc (20, 16, 12, 0.1);   /* air [0, 2] × [0, 1.6] × [0, 1.2] m */
  RW_CHECK (fcc != NULL, "FCC box");
  if (fcc != NULL)
    {
      refused (fcc, (const double[3]) { 2.3, 0.5, 0.5 }, "receiver 2", "(2.30, 0.50, 0.50)", "FCC");
      refused (fcc, (const double[3]) { 0.5, 0.5, -0.2 }, "source", "(0.50, 0.50, -0.20)", "FCC floor");
    }
  rw_grid_free (fcc);

  /* the solver's checks of stencils */
  RwGrid *box = rw_grid_new_box (12, 12, 12, 0.1);
  const double R[1] = { 0.9 };
  double sig[4] = { 1, 0, 0, 0 };
  RwGridStencil src, rcv;
  RW_CHECK (rw_grid_interp (box, (const double[3]) { 0.52, 0.61, 0.33 }, "source", &src, &err)
            && src.n == 8, "source stencil: %s", err.message);
  RW_CHECK (rw_grid_interp (box, (const double[3]) { 0.82, 0.41, 0.73 }, "receiver 1", &rcv, &err),
            "receiver stencil: %s", err.message);
  const RwSolverSetup su = {
    .grid = box, .surface_R = R, .precision = RW_PRECISION_F64, .n_steps = 4,
    .source_stencil = &src, .source_kind = RW_SOURCE_SOFT, .source_signal = sig,
    .n_receivers = 1, .receiver_stencils = &rcv, .threads = 1,
  };
  RwSolverSetup hard = su;
  hard.source_kind = RW_SOURCE_HARD;
  solver_refuses (hard, "hard source", "hard source over 8 cells");
  RwGridStencil bad = rcv;
  bad.cell[1] = 0;   /* the outside layer */
  RwSolverSetup b1 = su;
  b1.receiver_stencils = &bad;
  solver_refuses (b1, "receiver 1", "stencil cell outside");
  bad = src;
  bad.weight[2] = NAN;
  RwSolverSetup b2 = su;
  b2.source_stencil = &bad;
  solver_refuses (b2, "source", "weight NaN");
  /* and the good setup runs */
  RwSolver *s = rw_solver_new (&su, RW_BACKEND_CPU, &err);
  RW_CHECK (s != NULL && rw_solver_advance (s, 4, &err), "good setup: %s", err.message);
  rw_solver_free (s);
  rw_grid_free (box);
  return rw_test_finish ();
}
