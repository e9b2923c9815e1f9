/* SPDX-License-Identifier: GPL-3.0-or-later */
/* voxel-grid-invariants: the grid contract of rw-voxel.h, checked cell by
 * cell on every code-built shape and on rw_grid_new_box: an outside layer
 * on every side; K matches a recount of inside neighbours; no inside cell
 * without one; surface ids valid exactly on boundary nodes; zlo/zhi bound
 * exactly the inside cells of each column; n_inside and n_boundary; and
 * boundary areas in [0, 6 − K] in index order, their per-surface totals;
 * the same grid with 1 and 2 threads. */
#include "rw-test.h"
#include <stdlib.h>
#include <string.h>
#include "rw-shapes.h"
#include "rw-voxel.h"
#include "test-voxel-common.h"

int
main (void)
{
  struct { const char *what; RwMesh *m; double h; } cases[] = {
    { "box", rw_shape_box (3.1, 2.3, 1.7), 0.1 },
    { "L-room", rw_shape_lroom (6, 5, 3, 3.5, 2.2), 0.1 },
    { "pillar room", rw_shape_box_with_pillar (6, 5, 3, 2, 2, 0.7), 0.1 },
    { "icosphere", rw_shape_sphere (1.2, 3), 0.07 },
    { "hall", rw_shape_hall (30, 20, 12, 8), 0.3 },
    { "30° ceiling", rw_shape_sloped_ceiling (6.03, 4.07, 2.51, 30), 0.1 },
    /* a thin slab: single-cell-thick air, cells with few neighbours */
    { "thin slab", rw_shape_box (2.0, 1.0, 0.12), 0.1 },
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    {
      RwError err = { 0 };
      RwGrid *g = rw_voxelise (cases[c].m, cases[c].h, 0, &err);
      RW_CHECK (g != NULL, "%s: %s", cases[c].what, err.message);
      if (g)
        {
          test_check_grid (g, 1.0, cases[c].what);
          RW_CHECK (g->n_surfaces == cases[c].m->n_surfaces, "n_surfaces");
        }
      rw_grid_free (g);
      rw_mesh_free (cases[c].m);
    }

  /* the same grid whatever the number of threads, surfaces included */
  {
    RwError err = { 0 };
    RwMesh *hall = rw_shape_hall (30, 20, 12, 8);
    RwGrid *g1 = rw_voxelise (hall, 0.3, 1, &err), *g2 = rw_voxelise (hall, 0.3, 2, &err);
    RW_CHECK (g1 && g2, "%s", err.message);
    if (g1 && g2)
      {
        size_t n = g1->nx * g1->ny * g1->nz;
        RW_CHECK (memcmp (g1->K, g2->K, n) == 0, "K differs between 1 and 2 threads");
        RW_CHECK (memcmp (g1->surface, g2->surface, 2 * n) == 0, "surfaces differ between 1 and 2 threads");
        RW_CHECK (g1->n_boundary == g2->n_boundary
                  && memcmp (g1->area, g2->area, g1->n_boundary * sizeof (float)) == 0,
                  "areas differ between 1 and 2 threads");
      }
    rw_grid_free (g1);
    rw_grid_free (g2);
    rw_mesh_free (hall);
  }

  RwGrid *b = rw_grid_new_box (7, 5, 4, 0.1);
  RW_CHECK (b != NULL, "rw_grid_new_box");
  if (b)
    {
      test_check_grid (b, 1.0, "rw_grid_new_box");
      RW_CHECK (b->n_inside == 7 * 5 * 4, "box cells %zu", b->n_inside);
      RW_CHECK (b->n_boundary == 7 * 5 * 4 - 5 * 3 * 2, "box boundary %zu", b->n_boundary);
      RW_CHECK_CLOSE (rw_grid_air_volume_m3 (b), 0.7 * 0.5 * 0.4, 1e-12, "box volume");
    }
  rw_grid_free (b);
  RW_CHECK (rw_grid_new_box (0, 5, 4, 0.1) == NULL, "an empty box is refused");
  return rw_test_finish ();
}
