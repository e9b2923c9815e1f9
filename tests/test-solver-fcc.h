/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-solver-fcc.h — FCC grids for the solver tests (issue #14): rooms of
 * any shape on the FCC lattice, built by hand from an inside-predicate as
 * test-solver-grid.h builds cubic ones, so that the FCC path is tested on
 * boundary sites of every K and not only on rw_grid_new_box_fcc's box.
 *
 * Candidate cells as test_grid_new's (nx·ny·nz plus one outside layer);
 * the sites are those with x + y + z even (grid indices, rw-voxel.h), K
 * their inside sites among the 12 (sites with none dropped, repeatedly),
 * every boundary site on surface 0 with the face-count area (12 − K)/2
 * (area NULL, as a grid built by hand). */
#pragma once

#include "test-solver-grid.h"
#include "rw-scheme-fcc.h"

static inline RwGrid *
test_grid_fcc (size_t nx, size_t ny, size_t nz, double h, TestInsideFn inside, void *data)
{
  static const int off[RW_FCC_N_NBR][3] = RW_FCC_NBR_OFFSETS;
  RwGrid *g = test_grid_new (nx, ny, nz, h, inside, data);
  const size_t n = g->nx * g->ny * g->nz;
  g->lattice = RW_LATTICE_FCC;
  uint8_t *in = calloc (n, 1);
  for (size_t z = 0; z < g->nz; z++)
    for (size_t y = 0; y < g->ny; y++)
      for (size_t x = 0; x < g->nx; x++)
        {
          size_t i = rw_grid_index (g, x, y, z);
          in[i] = g->K[i] != 0 && (x + y + z) % 2 == 0;
        }
  bool changed = true;
  while (changed)
    {
      changed = false;
      for (size_t z = 1; z + 1 < g->nz; z++)
        for (size_t y = 1; y + 1 < g->ny; y++)
          for (size_t x = 1; x + 1 < g->nx; x++)
            {
              size_t i = rw_grid_index (g, x, y, z);
              if (!in[i])
                {
                  g->K[i] = 0;
                  continue;
                }
              int k = 0;
              for (int d = 0; d < RW_FCC_N_NBR; d++)
                k += in[rw_grid_index (g, x + off[d][0], y + off[d][1], z + off[d][2])];
              if (k == 0)
                {
                  in[i] = 0;
                  changed = true;
                }
              g->K[i] = (uint8_t) k;
            }
    }
  free (in);
  test_grid_tables (g);
  return g;
}

/* The grid index of interior cell (x, y, z) (test_cell) moved by one along
 * x when that cell is not a site. */
static inline size_t
test_fcc_site (const RwGrid *g, size_t x, size_t y, size_t z)
{
  return test_cell (g, x + ((x + y + z + 3) & 1), y, z);
}
