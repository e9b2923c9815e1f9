/* SPDX-License-Identifier: GPL-3.0-or-later */
/* voxel-robust-on-edges: meshes whose walls, edges and vertices lie exactly
 * on cell centres and on scanlines — what breaks a single ray's parity —
 * give exactly the cells of the symbolically shifted centres p + (ε, ε², ε³):
 * counted here by an independent rule, and equal to the volume over h³.
 *   - a 4 m cube on a lattice with every wall on a plane of centres;
 *   - a square prism rotated 45° about z, its vertical edges on z-lines and
 *     its walls through rows of centres;
 *   - an octahedron |x| + |y| + |z| ≤ a, slanted faces through centres,
 *     vertices on all three families of lines;
 *   - and, where decimals make the count depend on rounding, an L-room on a
 *     0.1 m lattice through its walls: within a wall layer of its volume,
 *     no cell outside it. */
#include "rw-test.h"
#include "rw-shapes.h"
#include "rw-voxel.h"

static RwGrid *
voxelise_on (RwMesh *m, double h, double o, size_t n)
{
  RwError err = { 0 };
  const double origin[3] = { o, o, o };
  const size_t dims[3] = { n, n, n };
  RwGrid *g = rw_voxelise_lattice (m, h, origin, dims, 0, &err);
  RW_CHECK (g != NULL, "%s", err.message);
  return g;
}

/* |i + e| for an integer i under a positive infinitesimal shift e */
static double
abs_shift (long i, double e)
{
  return i > 0 ? (double) i + e : (i < 0 ? (double) -i - e : e);
}

int
main (void)
{
  const double h = 0.125;

  /* the cube [0, 4]³ with centres at k·h: 33 centres span each side, the
   * shift puts the ones on x = 0 in and those on x = 4 out: 32³ */
  RwMesh *cube = rw_mesh_new ();
  {
    uint32_t s = rw_mesh_add_surface (cube, "walls");
    uint32_t v[8];
    for (int k = 0; k < 8; k++)
      v[k] = rw_mesh_add_vertex (cube, 4.0 * (k & 1), 4.0 * ((k >> 1) & 1), 4.0 * (k >> 2));
    const int q[6][4] = { { 0, 2, 3, 1 }, { 4, 5, 7, 6 }, { 0, 4, 6, 2 }, { 1, 3, 7, 5 }, { 0, 1, 5, 4 }, { 2, 6, 7, 3 } };
    for (int f = 0; f < 6; f++)
      {
        rw_mesh_add_triangle (cube, v[q[f][0]], v[q[f][1]], v[q[f][2]], s);
        rw_mesh_add_triangle (cube, v[q[f][0]], v[q[f][2]], v[q[f][3]], s);
      }
  }
  RwGrid *g = voxelise_on (cube, h, -0.5, 42);
  if (g)
    {
      RW_NOTE ("cube with walls on centres: %zu cells, want %d", g->n_inside, 32 * 32 * 32);
      RW_CHECK (g->n_inside == 32 * 32 * 32, "cube: %zu cells", g->n_inside);
      RW_CHECK_CLOSE (rw_grid_air_volume_m3 (g), 64.0, 1e-12, "cube volume");
    }
  rw_grid_free (g);
  rw_mesh_free (cube);

  /* the square |x − c| + |y − c| ≤ a rotated 45°, extruded over z ∈ [c − 1, c + 1] */
  const double a = 2.0, c = 2.5;
  RwMesh *prism = rw_mesh_new ();
  {
    uint32_t s = rw_mesh_add_surface (prism, "walls");
    const double sq[4][2] = { { c + a, c }, { c, c + a }, { c - a, c }, { c, c - a } };  /* CCW */
    uint32_t lo[4], hi[4];
    for (int k = 0; k < 4; k++)
      lo[k] = rw_mesh_add_vertex (prism, sq[k][0], sq[k][1], c - 1);
    for (int k = 0; k < 4; k++)
      hi[k] = rw_mesh_add_vertex (prism, sq[k][0], sq[k][1], c + 1);
    rw_mesh_add_triangle (prism, lo[0], lo[2], lo[1], s);
    rw_mesh_add_triangle (prism, lo[0], lo[3], lo[2], s);
    rw_mesh_add_triangle (prism, hi[0], hi[1], hi[2], s);
    rw_mesh_add_triangle (prism, hi[0], hi[2], hi[3], s);
    for (int k = 0; k < 4; k++)
      {
        int k1 = (k + 1) % 4;
        rw_mesh_add_triangle (prism, lo[k], lo[k1], hi[k1], s);
        rw_mesh_add_triangle (prism, lo[k], hi[k1], hi[k], s);
      }
  }
  g = voxelise_on (prism, h, 0.0, 41);
  if (g)
    {
      /* n = a/h = 16: 2n² lattice points per layer under the shift, 16 layers */
      size_t want = 2 * 16 * 16 * 16;
      RW_NOTE ("45° prism with walls through centres: %zu cells, want %zu", g->n_inside, want);
      RW_CHECK (g->n_inside == want, "prism: %zu cells", g->n_inside);
      RW_CHECK_CLOSE (rw_grid_air_volume_m3 (g), 2 * a * a * 2, 1e-12, "prism volume");
    }
  rw_grid_free (g);
  rw_mesh_free (prism);

  /* the octahedron of half-diagonal a = 16 h about (c, c, c) */
  RwMesh *oct = rw_mesh_new ();
  {
    uint32_t s = rw_mesh_add_surface (oct, "faces");
    uint32_t v[6];
    for (int k = 0; k < 6; k++)
      {
        double p[3] = { c, c, c };
        p[k / 2] += (k & 1) ? -a : a;
        v[k] = rw_mesh_add_vertex (oct, p[0], p[1], p[2]);
      }
    /* v0 +x, v1 −x, v2 +y, v3 −y, v4 +z, v5 −z; each octant's face wound
     * counter-clockwise from outside */
    for (int sx = 0; sx < 2; sx++)
      for (int sy = 0; sy < 2; sy++)
        for (int sz = 0; sz < 2; sz++)
          {
            uint32_t A = v[sx], B = v[2 + sy], C = v[4 + sz];
            if ((sx + sy + sz) % 2 == 0)
              rw_mesh_add_triangle (oct, A, B, C, s);
            else
              rw_mesh_add_triangle (oct, A, C, B, s);
          }
  }
  g = voxelise_on (oct, h, 0.0, 41);
  if (g)
    {
      /* independent count: lattice points (i, j, k) about the centre with
       * |i + ε| + |j + ε²| + |k + ε³| < 16, ε small enough not to reorder */
      size_t want = 0;
      for (long i = -17; i <= 17; i++)
        for (long j = -17; j <= 17; j++)
          for (long k = -17; k <= 17; k++)
            want += abs_shift (i, 1e-3) + abs_shift (j, 1e-6) + abs_shift (k, 1e-9) < 16.0;
      RW_NOTE ("octahedron through centres: %zu cells, want %zu (volume %.4f vs %.4f m³)",
               g->n_inside, want, rw_grid_air_volume_m3 (g), 4.0 / 3.0 * a * a * a);
      RW_CHECK (g->n_inside == want, "octahedron: %zu cells, want %zu", g->n_inside, want);
      RW_CHECK_CLOSE (rw_grid_air_volume_m3 (g), 4.0 / 3.0 * a * a * a, 0.02 * 4.0 / 3.0 * a * a * a,
                      "octahedron volume within 2 %");
    }
  rw_grid_free (g);
  rw_mesh_free (oct);

  /* The same situation in decimal coordinates, where 0.1·k is not exact:
   * an L-room on a 0.1 m lattice whose planes of centres run through all
   * its walls (within rounding) and whose lines run along its edges. The
   * exact count depends on how the decimals round, but a wall can gain or
   * lose at most its own layer of cells: within h·area/2 of the volume,
   * and every inside cell within the L. */
  RwMesh *l = rw_shape_lroom (6.0, 5.0, 3.0, 3.5, 2.2);
  {
    RwError err = { 0 };
    const double origin[3] = { -0.3, -0.3, -0.3 };
    const size_t dims[3] = { 67, 57, 37 };
    g = rw_voxelise_lattice (l, 0.1, origin, dims, 0, &err);
    RW_CHECK (g != NULL, "%s", err.message);
  }
  if (g)
    {
      double v = (30.0 - 2.5 * 2.8) * 3.0, area = 2 * 23.0 + 22.0 * 3.0;
      size_t stray = 0;
      for (size_t z = 0; z < g->nz; z++)
        for (size_t y = 0; y < g->ny; y++)
          for (size_t x = 0; x < g->nx; x++)
            if (g->K[rw_grid_index (g, x, y, z)] > 0)
              {
                double px = -0.3 + 0.1 * x, py = -0.3 + 0.1 * y, pz = -0.3 + 0.1 * z;
                bool in_l = px > -1e-9 && py > -1e-9 && pz > -1e-9 && px < 6 + 1e-9 && py < 5 + 1e-9
                            && pz < 3 + 1e-9 && !(px > 3.5 + 1e-9 && py > 2.2 + 1e-9);
                stray += !in_l;
              }
      RW_NOTE ("L-room with walls on decimal centres: %.4f m³ vs %.4f m³, %zu cells outside the L",
               rw_grid_air_volume_m3 (g), v, stray);
      RW_CHECK_CLOSE (rw_grid_air_volume_m3 (g), v, 0.5 * 0.1 * area, "decimal L-room volume");
      RW_CHECK (stray == 0, "%zu inside cells outside the L", stray);
    }
  rw_grid_free (g);
  rw_mesh_free (l);
  return rw_test_finish ();
}
