/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-voxel-common.h — shared by the voxel tests (cubic and FCC): the
 * grid contract checked cell by cell, the polyhedron volume, the (1,1,1)
 * corner, the L-room turned obliquely to every axis. Include after
 * rw-test.h. */
#pragma once

#include <math.h>
#include <stdlib.h>
#include "rw-mesh.h"
#include "rw-scheme-fcc.h"
#include "rw-shapes.h"
#include "rw-voxel.h"

/* The contract of rw-voxel.h on either lattice: an outside layer on every
 * side; on an FCC grid, cells of odd x + y + z outside with no surface; K
 * the recount of inside neighbours (6 or 12), never 0 on an inside node;
 * surface ids valid exactly on boundary nodes; zlo/zhi tight; n_inside
 * and n_boundary; one area per boundary node in index order within
 * [0, per_missing·(max K − K)], summing per surface to surface_area_m2. */
static inline void
test_check_grid (const RwGrid *g, double per_missing, const char *what)
{
  static const int fcc_off[RW_FCC_N_NBR][3] = RW_FCC_NBR_OFFSETS;
  static const int cubic_off[6][3] = { { -1, 0, 0 }, { 1, 0, 0 }, { 0, -1, 0 }, { 0, 1, 0 }, { 0, 0, -1 }, { 0, 0, 1 } };
  const bool fcc = g->lattice == RW_LATTICE_FCC;
  const int max_k = rw_grid_max_k (g);
  const int (*off)[3] = fcc ? fcc_off : cubic_off;
  size_t bad_layer = 0, bad_odd = 0, bad_k = 0, bad_surface = 0, bad_col = 0, n_in = 0, n_bd = 0;
  const size_t nx = g->nx, ny = g->ny, nz = g->nz;
  for (size_t z = 0; z < nz; z++)
    for (size_t y = 0; y < ny; y++)
      for (size_t x = 0; x < nx; x++)
        {
          size_t i = rw_grid_index (g, x, y, z);
          uint8_t k = g->K[i];
          bool edge = x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1;
          bool odd = fcc && (x + y + z) % 2 == 1;
          if (edge || odd)
            {
              bad_layer += edge && k != 0;
              bad_odd += !edge && k != 0;
              bad_surface += g->surface[i] != RW_NO_SURFACE;
              continue;
            }
          int cnt = 0;
          for (int d = 0; d < max_k; d++)
            cnt += g->K[rw_grid_index (g, x + off[d][0], y + off[d][1], z + off[d][2])] > 0;
          if (k > 0)
            {
              n_in++;
              bad_k += k != cnt || cnt == 0;
              if (k < max_k)
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
  size_t bad_area = 0, b = 0;
  double *sum = calloc (g->n_surfaces, sizeof *sum), max_ratio = 0;
  for (size_t i = 0; i < nx * ny * nz && g->area && sum; i++)
    if (g->K[i] > 0 && g->K[i] < max_k && b < g->n_boundary)
      {
        double bound = per_missing * (max_k - g->K[i]);
        bad_area += !(g->area[b] >= 0 && g->area[b] <= bound * (1 + 1e-6));
        max_ratio = fmax (max_ratio, g->area[b] / bound);
        if (g->surface[i] < g->n_surfaces)
          sum[g->surface[i]] += (double) g->area[b] * g->h * g->h;
        b++;
      }
  RW_CHECK (g->area != NULL && g->surface_area_m2 != NULL, "%s: no area arrays", what);
  RW_CHECK (bad_area == 0, "%s: %zu boundary areas outside [0, %.4g·(%d − K)]", what, bad_area, per_missing,
            max_k);
  for (size_t s = 0; s < g->n_surfaces && sum && g->surface_area_m2; s++)
    RW_CHECK_CLOSE (g->surface_area_m2[s], sum[s], 1e-6 * sum[s] + 1e-12, "surface_area_m2");
  free (sum);
  RW_NOTE ("%s: %zu × %zu × %zu cells, %zu inside, %zu boundary, area / (%.4g·(%d − K)) up to %.3f", what, nx,
           ny, nz, n_in, n_bd, per_missing, max_k, max_ratio);
  RW_CHECK (n_in > 0, "%s: no inside cells", what);
  RW_CHECK (bad_layer == 0, "%s: %zu inside cells in the outside layer", what, bad_layer);
  RW_CHECK (bad_odd == 0, "%s: %zu cells of odd parity with K > 0", what, bad_odd);
  RW_CHECK (bad_k == 0, "%s: %zu cells whose K is not their inside-neighbour count", what, bad_k);
  RW_CHECK (bad_surface == 0, "%s: %zu cells with a wrong surface id", what, bad_surface);
  RW_CHECK (bad_col == 0, "%s: %zu columns with a wrong zlo/zhi", what, bad_col);
  RW_CHECK (g->n_inside == n_in, "%s: n_inside %zu, counted %zu", what, g->n_inside, n_in);
  RW_CHECK (g->n_boundary == n_bd, "%s: n_boundary %zu, counted %zu", what, g->n_boundary, n_bd);
}

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
