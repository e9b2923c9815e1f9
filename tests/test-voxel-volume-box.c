/* SPDX-License-Identifier: GPL-3.0-or-later */
/* voxel-volume-box: a box whose sides are whole numbers of cells gets
 * exactly its cells (the lattice puts its walls halfway between centres),
 * at two spacings and with 1 and 2 threads; a box of any size gets its
 * volume within 2 %, and h·area/2 bounds the error. */
#include "rw-test.h"
#include "rw-shapes.h"
#include "rw-voxel.h"

static void
check_exact (double lx, double ly, double lz, double h, int threads)
{
  RwError err = { 0 };
  RwMesh *m = rw_shape_box (lx, ly, lz);
  RwGrid *g = rw_voxelise (m, h, threads, &err);
  RW_CHECK (g != NULL, "voxelise failed: %s", err.message);
  if (g)
    {
      size_t want = (size_t) (lx / h + 0.5) * (size_t) (ly / h + 0.5) * (size_t) (lz / h + 0.5);
      RW_NOTE ("box %g × %g × %g m at h = %g m, %d threads: %zu inside cells (want %zu)",
               lx, ly, lz, h, threads, g->n_inside, want);
      RW_CHECK (g->n_inside == want, "inside cells %zu, want %zu", g->n_inside, want);
      RW_CHECK_CLOSE (rw_grid_air_volume_m3 (g), lx * ly * lz, 1e-9 * lx * ly * lz, "air volume");
      /* a box's boundary: its cells minus the (n−2)³ core */
      size_t ax = (size_t) (lx / h + 0.5), ay = (size_t) (ly / h + 0.5), az = (size_t) (lz / h + 0.5);
      size_t core = (ax - 2) * (ay - 2) * (az - 2);
      RW_CHECK (g->n_boundary == want - core, "boundary cells %zu, want %zu", g->n_boundary, want - core);
    }
  rw_grid_free (g);
  rw_mesh_free (m);
}

int
main (void)
{
  check_exact (4.0, 3.0, 2.5, 0.1, 0);
  check_exact (4.0, 3.0, 2.5, 0.05, 1);
  check_exact (4.0, 3.0, 2.5, 0.05, 2);
  check_exact (1.0, 1.0, 1.0, 0.125, 0);

  /* not whole cells: within 2 % */
  const double dims[3][3] = { { 4.03, 2.97, 2.51 }, { 7.3, 5.15, 3.33 }, { 0.93, 1.71, 0.66 } };
  const double h = 0.05;
  for (int d = 0; d < 3; d++)
    {
      RwError err = { 0 };
      RwMesh *m = rw_shape_box (dims[d][0], dims[d][1], dims[d][2]);
      RwGrid *g = rw_voxelise (m, h, 0, &err);
      RW_CHECK (g != NULL, "voxelise failed: %s", err.message);
      if (g)
        {
          double v = dims[d][0] * dims[d][1] * dims[d][2];
          double area = 2 * (dims[d][0] * dims[d][1] + dims[d][0] * dims[d][2] + dims[d][1] * dims[d][2]);
          double got = rw_grid_air_volume_m3 (g);
          RW_NOTE ("box %g × %g × %g m at h = %g m: %.5f m³ vs %.5f m³ (%+.3f %%)",
                   dims[d][0], dims[d][1], dims[d][2], h, got, v, 100 * (got / v - 1));
          RW_CHECK_CLOSE (got, v, 0.02 * v, "air volume within 2 %");
          RW_CHECK_CLOSE (got, v, 0.5 * h * area, "air volume within h·area/2");
        }
      rw_grid_free (g);
      rw_mesh_free (m);
    }
  return rw_test_finish ();
}
