/* SPDX-License-Identifier: GPL-3.0-or-later */
/* voxel-volume-sphere: an icosphere's air volume within 2 % of the volume
 * of the polyhedron itself (divergence theorem over its triangles), which
 * in turn approaches 4/3·π·r³. */
#include "rw-test.h"
#include "rw-shapes.h"
#include "rw-voxel.h"
#include "test-voxel-common.h"

int
main (void)
{
  const struct { double r; int sub; double h; } cases[] = {
    { 1.5, 4, 0.05 }, { 1.5, 3, 0.1 }, { 0.8, 5, 0.04 }, { 2.0, 2, 0.1 },
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
      RwError err = { 0 };
      RwMesh *m = rw_shape_sphere (cases[i].r, cases[i].sub);
      RW_CHECK (m != NULL, "rw_shape_sphere");
      if (m == NULL)
        continue;
      double v = test_mesh_volume (m), ball = 4.0 / 3.0 * M_PI * pow (cases[i].r, 3);
      RW_CHECK (v > 0.9 * ball && v < ball, "polyhedron %.5f m³ inscribed in the ball %.5f m³", v, ball);
      RwGrid *g = rw_voxelise (m, cases[i].h, 0, &err);
      RW_CHECK (g != NULL, "voxelise failed: %s", err.message);
      if (g)
        {
          double got = rw_grid_air_volume_m3 (g);
          RW_NOTE ("icosphere r = %g m, %d subdivisions (%zu triangles), h = %g m: "
                   "%.5f m³ vs %.5f m³ (%+.3f %%)", cases[i].r, cases[i].sub, m->n_triangles,
                   cases[i].h, got, v, 100 * (got / v - 1));
          RW_CHECK_CLOSE (got, v, 0.02 * v, "air volume within 2 %");
        }
      rw_grid_free (g);
      rw_mesh_free (m);
    }
  RW_CHECK (rw_shape_sphere (-1, 2) == NULL, "negative radius refused");
  RW_CHECK (rw_shape_sphere (1, 9) == NULL, "too many subdivisions refused");
  return rw_test_finish ();
}
