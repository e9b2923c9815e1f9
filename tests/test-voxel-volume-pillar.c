/* SPDX-License-Identifier: GPL-3.0-or-later */
/* voxel-volume-pillar: a room with a square pillar floor to ceiling: air
 * volume within 2 % of (lx·ly − side²)·lz, exact when all is whole cells;
 * no inside cell lies within the pillar. Also the hall (raked floor,
 * faceted rear wall): within 2 % of A·H·(1 − 0.3·x̄/L) from its plan. */
#include "rw-test.h"
#include "rw-shapes.h"
#include "rw-voxel.h"

static void
pillar (double lx, double ly, double lz, double px, double py, double s, double h, bool exact)
{
  RwError err = { 0 };
  RwMesh *m = rw_shape_box_with_pillar (lx, ly, lz, px, py, s);
  RW_CHECK (m != NULL, "rw_shape_box_with_pillar");
  RwGrid *g = m ? rw_voxelise (m, h, 0, &err) : NULL;
  RW_CHECK (g != NULL, "voxelise failed: %s", err.message);
  if (g)
    {
      double v = (lx * ly - s * s) * lz, got = rw_grid_air_volume_m3 (g);
      RW_NOTE ("pillar room %g × %g × %g m, pillar %g m at (%g, %g), h = %g m: "
               "%.4f m³ vs %.4f m³ (%+.3f %%)", lx, ly, lz, s, px, py, h, got, v, 100 * (got / v - 1));
      RW_CHECK_CLOSE (got, v, 0.02 * v, "air volume within 2 %");
      if (exact)
        RW_CHECK_CLOSE (got, v, 1e-9 * v, "whole cells: exact");
      size_t in_pillar = 0;
      for (size_t z = 0; z < g->nz; z++)
        for (size_t y = 0; y < g->ny; y++)
          for (size_t x = 0; x < g->nx; x++)
            {
              double cx = g->origin[0] + g->h * x, cy = g->origin[1] + g->h * y;
              if (cx > px + 0.5 * h && cx < px + s - 0.5 * h && cy > py + 0.5 * h
                  && cy < py + s - 0.5 * h && g->K[rw_grid_index (g, x, y, z)] > 0)
                in_pillar++;
            }
      RW_CHECK (in_pillar == 0, "%zu inside cells within the pillar", in_pillar);
    }
  rw_grid_free (g);
  rw_mesh_free (m);
}

static void
hall (double L, double W, double H, int facets, double h)
{
  RwError err = { 0 };
  RwMesh *m = rw_shape_hall (L, W, H, facets);
  RW_CHECK (m != NULL, "rw_shape_hall");
  if (m == NULL)
    return;
  /* the plan polygon: the floor's vertices at z = floor height are the
   * first n vertices, in plan order (counter-clockwise) */
  size_t n = m->n_vertices / 2;
  double area = 0, cx = 0;
  for (size_t i = 0; i < n; i++)
    {
      const double *p = m->xyz + 3 * i, *q = m->xyz + 3 * ((i + 1) % n);
      double cr = p[0] * q[1] - q[0] * p[1];
      area += cr / 2;
      cx += (p[0] + q[0]) * cr / 6;
    }
  cx /= area;
  double v = area * H * (1 - 0.3 * cx / L);
  RwGrid *g = rw_voxelise (m, h, 0, &err);
  RW_CHECK (g != NULL, "voxelise failed: %s", err.message);
  if (g)
    {
      double got = rw_grid_air_volume_m3 (g);
      RW_NOTE ("hall %g × %g × %g m, %d facets, h = %g m: %zu cells, %.2f m³ vs %.2f m³ (%+.3f %%)",
               L, W, H, facets, h, g->n_inside, got, v, 100 * (got / v - 1));
      RW_CHECK_CLOSE (got, v, 0.02 * v, "air volume within 2 %");
    }
  rw_grid_free (g);
  rw_mesh_free (m);
}

int
main (void)
{
  pillar (6.0, 5.0, 3.0, 2.0, 2.0, 0.7, 0.05, true);
  pillar (6.13, 4.87, 2.77, 1.33, 2.41, 0.61, 0.05, false);
  pillar (6.13, 4.87, 2.77, 1.33, 2.41, 0.61, 0.1, false);
  hall (40, 25, 15, 12, 0.25);
  hall (30, 20, 12, 3, 0.2);
  hall (30, 20, 12, 1, 0.2);
  RW_CHECK (rw_shape_box_with_pillar (6, 5, 3, 5.5, 1, 1) == NULL, "a pillar through the wall is refused");
  return rw_test_finish ();
}
