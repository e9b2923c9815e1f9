/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-voxel-shapes.h — meshes and references shared by the voxel tests
 * (cubic and FCC): the polyhedron volume, the (1,1,1) corner, the L-room
 * turned obliquely to every axis. */
#pragma once

#include <math.h>
#include "rw-mesh.h"
#include "rw-shapes.h"

/* The volume of a closed outward mesh: Σ det(a, b, c)/6 (divergence
 * theorem). */
static inline double
test_mesh_volume (const RwMesh *m)
{
  double v = 0;
  for (size_t t = 0; t < m->n_triangles; t++)
    {
      const double *a = m->xyz + 3 * m->tri[3 * t], *b = m->xyz + 3 * m->tri[3 * t + 1],
                   *c = m->xyz + 3 * m->tri[3 * t + 2];
      v += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
            + a[2] * (b[0] * c[1] - b[1] * c[0])) / 6.0;
    }
  return v;
}

/* The corner x, y, z ≥ 0, x + y + z ≤ L: three walls square to the axes
 * and the diagonal face (surface 0), normal (1,1,1)/√3, area √3/2·L². */
static inline RwMesh *
test_corner_tetrahedron (double L)
{
  RwMesh *m = rw_mesh_new ();
  uint32_t d = rw_mesh_add_surface (m, "diagonal"), f = rw_mesh_add_surface (m, "floor");
  uint32_t x0 = rw_mesh_add_surface (m, "wall_x0"), y0 = rw_mesh_add_surface (m, "wall_y0");
  uint32_t o = rw_mesh_add_vertex (m, 0, 0, 0), a = rw_mesh_add_vertex (m, L, 0, 0);
  uint32_t b = rw_mesh_add_vertex (m, 0, L, 0), c = rw_mesh_add_vertex (m, 0, 0, L);
  rw_mesh_add_triangle (m, a, b, c, d);
  rw_mesh_add_triangle (m, o, b, a, f);
  rw_mesh_add_triangle (m, o, c, b, x0);
  rw_mesh_add_triangle (m, o, a, c, y0);
  return m;
}

/* rw_shape_lroom (6, 5, 3, 3.5, 2.2) turned by 17° about z, then 23°
 * about x: every wall oblique to every axis; volume (30 − 2.5·2.8)·3. */
static inline RwMesh *
test_rotated_lroom (void)
{
  RwMesh *l = rw_shape_lroom (6.0, 5.0, 3.0, 3.5, 2.2);
  RwMesh *m = rw_mesh_new ();
  const double a = 17 * M_PI / 180, b = 23 * M_PI / 180;
  for (size_t s = 0; s < l->n_surfaces; s++)
    rw_mesh_add_surface (m, l->surface_names[s]);
  for (size_t v = 0; v < l->n_vertices; v++)
    {
      const double *p = l->xyz + 3 * v;
      double x = cos (a) * p[0] - sin (a) * p[1], y = sin (a) * p[0] + cos (a) * p[1], z = p[2];
      rw_mesh_add_vertex (m, x, cos (b) * y - sin (b) * z, sin (b) * y + cos (b) * z);
    }
  for (size_t t = 0; t < l->n_triangles; t++)
    rw_mesh_add_triangle (m, l->tri[3 * t], l->tri[3 * t + 1], l->tri[3 * t + 2], l->tri_surface[t]);
  rw_mesh_free (l);
  return m;
}
