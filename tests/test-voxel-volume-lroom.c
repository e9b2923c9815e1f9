/* SPDX-License-Identifier: GPL-3.0-or-later */
/* voxel-volume-lroom: the L-shaped room's air volume n_inside·h³ within
 * 2 % of (lx·ly − (lx − cx)(ly − cy))·lz at h = 0.05 m and 0.1 m, and exact
 * when every side is a whole number of cells; turned obliquely to every
 * axis, still within 2 % at h = 0.05 m. */
#include "rw-test.h"
#include "rw-shapes.h"
#include "rw-voxel.h"
#include "test-voxel-common.h"

static void
check (double lx, double ly, double lz, double cx, double cy, double h, bool exact)
{
  RwError err = { 0 };
  RwMesh *m = rw_shape_lroom (lx, ly, lz, cx, cy);
  RW_CHECK (m != NULL, "rw_shape_lroom");
  RwGrid *g = m ? rw_voxelise (m, h, 0, &err) : NULL;
  RW_CHECK (g != NULL, "voxelise failed: %s", err.message);
  if (g)
    {
      double v = (lx * ly - (lx - cx) * (ly - cy)) * lz;
      double got = rw_grid_air_volume_m3 (g);
      RW_NOTE ("L-room %g × %g × %g m minus corner from (%g, %g), h = %g m: %zu cells, "
               "%.4f m³ vs %.4f m³ (%+.3f %%)", lx, ly, lz, cx, cy, h, g->n_inside, got, v,
               100 * (got / v - 1));
      RW_CHECK_CLOSE (got, v, 0.02 * v, "air volume within 2 %");
      if (exact)
        RW_CHECK_CLOSE (got, v, 1e-9 * v, "whole cells: exact");
    }
  rw_grid_free (g);
  rw_mesh_free (m);
}

/* The L turned by 17° about z, then 23° about x: every wall oblique to
 * every axis. */
static void
check_rotated (double h)
{
  RwMesh *m = test_rotated_lroom ();
  RwError err = { 0 };
  RwGrid *g = rw_voxelise (m, h, 0, &err);
  RW_CHECK (g != NULL, "voxelise failed: %s", err.message);
  if (g)
    {
      double v = (30.0 - 2.5 * 2.8) * 3.0, got = rw_grid_air_volume_m3 (g);
      RW_NOTE ("L-room turned 17° about z and 23° about x, h = %g m: %.4f m³ vs %.4f m³ (%+.3f %%)",
               h, got, v, 100 * (got / v - 1));
      RW_CHECK_CLOSE (got, v, 0.02 * v, "oblique L-room: air volume within 2 %");
    }
  rw_grid_free (g);
  rw_mesh_free (m);
}

int
main (void)
{
  check_rotated (0.05);
  check (6.0, 5.0, 3.0, 3.5, 2.2, 0.05, false);
  check (6.0, 5.0, 3.0, 3.5, 2.2, 0.1, false);
  check (6.37, 4.81, 2.93, 2.11, 3.07, 0.05, false);
  /* the inner corner at 3.0 m from a side of 6.0 m: halfway between centres */
  check (6.0, 5.0, 3.0, 3.0, 2.0, 0.1, true);
  return rw_test_finish ();
}
