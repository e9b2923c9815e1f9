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

static void
check_grid (const RwGrid *g, const char *what)
{
  size_t bad_layer = 0, bad_k = 0, bad_surface = 0, bad_col = 0, n_in = 0, n_bd = 0;
  const size_t nx = g->nx, ny = g->ny, nz = g->nz;
  for (size_t z = 0; z < nz; z++)
    for (size_t y = 0; y < ny; y++)
      for (size_t x = 0; x < nx; x++)
        {
          size_t i = rw_grid_index (g, x, y, z);
          uint8_t k = g->K[i];
          bool edge = x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1;
          if (edge)
            {
              bad_layer += k != 0;
              bad_surface += g->surface[i] != RW_NO_SURFACE;
              continue;
            }
          size_t cnt = (g->K[i - 1] > 0) + (g->K[i + 1] > 0) + (g->K[i - nx] > 0)
                       + (g->K[i + nx] > 0) + (g->K[i - nx * ny] > 0) + (g->K[i + nx * ny] > 0);
          if (k > 0)
            {
              n_in++;
              bad_k += k != cnt || cnt == 0;
              if (k < 6)
                {
                  n_bd++;
                  bad_surface += g->surface[i] >= g->n_surfaces;
                }
              else
                bad_surface += g->surface[i] != RW_NO_SURFACE;
            }
          else
            bad_surface += g->surface[i] != RW_NO_SURFACE;
        }
  for (size_t y = 0; y < ny; y++)
    for (size_t x = 0; x < nx; x++)
      {
        size_t c = x + nx * y, lo = nz, hi = 0;
        for (size_t z = 0; z < nz; z++)
          if (g->K[rw_grid_index (g, x, y, z)] > 0)
            {
              if (lo == nz)
                lo = z;
              hi = z + 1;
            }
        if (lo == nz)
          bad_col += g->zlo[c] != g->zhi[c];
        else
          bad_col += g->zlo[c] != lo || g->zhi[c] != hi;
      }
  /* area: one entry per boundary node in index order, within [0, 6 − K],
   * summing per surface to surface_area_m2 */
  size_t bad_area = 0, b = 0;
  double *sum = calloc (g->n_surfaces, sizeof *sum);
  for (size_t i = 0; i < nx * ny * nz && g->area && sum; i++)
    if (g->K[i] > 0 && g->K[i] < 6 && b < g->n_boundary)
      {
        bad_area += !(g->area[b] >= 0 && g->area[b] <= 6 - g->K[i]);
        if (g->surface[i] < g->n_surfaces)
          sum[g->surface[i]] += (double) g->area[b] * g->h * g->h;
        b++;
      }
  RW_CHECK (g->area != NULL && g->surface_area_m2 != NULL, "%s: no area arrays", what);
  RW_CHECK (bad_area == 0, "%s: %zu boundary areas outside [0, 6 − K]", what, bad_area);
  for (size_t s = 0; s < g->n_surfaces && sum && g->surface_area_m2; s++)
    RW_CHECK_CLOSE (g->surface_area_m2[s], sum[s], 1e-9 * sum[s], "surface_area_m2");
  free (sum);
  RW_NOTE ("%s: %zu × %zu × %zu cells, %zu inside, %zu boundary", what, nx, ny, nz, n_in, n_bd);
  RW_CHECK (n_in > 0, "%s: no inside cells", what);
  RW_CHECK (bad_layer == 0, "%s: %zu inside cells in the outside layer", what, bad_layer);
  RW_CHECK (bad_k == 0, "%s: %zu cells whose K is not their inside-neighbour count", what, bad_k);
  RW_CHECK (bad_surface == 0, "%s: %zu cells with a wrong surface id", what, bad_surface);
  RW_CHECK (bad_col == 0, "%s: %zu columns with a wrong zlo/zhi", what, bad_col);
  RW_CHECK (g->n_inside == n_in, "%s: n_inside %zu, counted %zu", what, g->n_inside, n_in);
  RW_CHECK (g->n_boundary == n_bd, "%s: n_boundary %zu, counted %zu", what, g->n_boundary, n_bd);
}

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
          check_grid (g, cases[c].what);
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
      check_grid (b, "rw_grid_new_box");
      RW_CHECK (b->n_inside == 7 * 5 * 4, "box cells %zu", b->n_inside);
      RW_CHECK (b->n_boundary == 7 * 5 * 4 - 5 * 3 * 2, "box boundary %zu", b->n_boundary);
      RW_CHECK_CLOSE (rw_grid_air_volume_m3 (b), 0.7 * 0.5 * 0.4, 1e-12, "box volume");
    }
  rw_grid_free (b);
  RW_CHECK (rw_grid_new_box (0, 5, 4, 0.1) == NULL, "an empty box is refused");
  return rw_test_finish ();
}
