/* SPDX-License-Identifier: GPL-3.0-or-later */
/* voxel-shapes-closed: every code-built shape is watertight (each edge
 * shared by two triangles of opposite orientation, so the vertices are
 * shared), outward, without degenerate triangles, with the surfaces its
 * header names, and has the exact volume its constructor's comment gives
 * (to 1e-9 relative); bad dimensions give NULL. */
#include "rw-test.h"
#include <string.h>
#include "rw-shapes.h"

static void
check (RwMesh *m, const char *what, double volume, const char *const *names, size_t n_names)
{
  RW_CHECK (m != NULL, "%s: NULL", what);
  if (m == NULL)
    return;
  RwMeshReport r;
  RwError err = { 0 };
  bool ok = rw_mesh_report (m, &r, &err);
  RW_CHECK (ok, "%s: %s", what, err.message);
  if (!ok)
    return;
  RW_NOTE ("%s: %zu triangles, %zu vertices, volume %.9g m³ (formula %.9g)", what, m->n_triangles,
           m->n_vertices, r.volume_m3, volume);
  RW_CHECK (r.watertight && r.outward, "%s: watertight %d outward %d (open %zu, misoriented %zu)", what,
            r.watertight, r.outward, r.n_open_edges, r.n_misoriented_edges);
  RW_CHECK (r.n_nonmanifold_edges == 0 && r.n_degenerate == 0, "%s: %zu non-manifold edges, %zu degenerate",
            what, r.n_nonmanifold_edges, r.n_degenerate);
  RW_CHECK_CLOSE (r.volume_m3, volume, 1e-9 * volume, what);
  RW_CHECK (m->n_surfaces == n_names, "%s: %zu surfaces, want %zu", what, m->n_surfaces, n_names);
  for (size_t s = 0; s < n_names && s < m->n_surfaces; s++)
    RW_CHECK (strcmp (m->surface_names[s], names[s]) == 0, "%s: surface %zu is %s, want %s", what, s,
              m->surface_names[s], names[s]);
  /* every surface is used */
  for (size_t s = 0; s < m->n_surfaces; s++)
    {
      size_t n = 0;
      for (size_t t = 0; t < m->n_triangles; t++)
        n += m->tri_surface[t] == s;
      RW_CHECK (n > 0, "%s: surface %s has no triangle", what, m->surface_names[s]);
    }
  rw_mesh_report_clear (&r);
  rw_mesh_free (m);
}

static double
hall_volume (double L, double W, double H, int facets)
{
  /* rebuild the plan as rw_shape_hall documents it */
  double a = 0.15 * W, s = fmin (0.2 * L, 0.45 * W), xs = L - s;
  double R = (s * s + 0.25 * W * W) / (2 * s), xc = L - R, th = asin (0.5 * W / R);
  double p[300][2];
  size_t n = 0;
  p[n][0] = 0; p[n++][1] = W - a;
  p[n][0] = 0; p[n++][1] = a;
  for (int k = 0; k <= facets; k++)
    {
      double phi = -th + 2 * th * k / facets;
      p[n][0] = k == 0 || k == facets ? xs : xc + R * cos (phi);
      p[n][1] = k == 0 ? 0 : k == facets ? W : 0.5 * W + R * sin (phi);
      n++;
    }
  double area = 0, cx = 0;
  for (size_t i = 0; i < n; i++)
    {
      const double *u = p[i], *v = p[(i + 1) % n];
      double cr = u[0] * v[1] - v[0] * u[1];
      area += cr / 2;
      cx += (u[0] + v[0]) * cr / 6;
    }
  cx /= area;
  return area * H * (1 - 0.3 * cx / L);
}

int
main (void)
{
  static const char *const box[] = { "floor", "ceiling", "wall_x0", "wall_x1", "wall_y0", "wall_y1" };
  static const char *const lroom[] = { "floor", "ceiling", "wall_x0", "wall_x1", "wall_y0", "wall_y1",
                                       "wall_inner_x", "wall_inner_y" };
  static const char *const pillar[] = { "floor", "ceiling", "wall_x0", "wall_x1", "wall_y0", "wall_y1", "pillar" };
  static const char *const sphere[] = { "sphere" };
  static const char *const hall[] = { "floor", "ceiling", "stage_wall", "side_wall_left",
                                      "side_wall_right", "rear_wall" };

  check (rw_shape_box (4, 3, 2.5), "box", 30.0, box, 6);
  check (rw_shape_sloped_ceiling (6, 4, 2.5, 30), "30° ceiling", 6 * 4 * (2.5 + 3 * tan (M_PI / 6)), box, 6);
  check (rw_shape_lroom (6, 5, 3, 3.5, 2.2), "L-room", (30 - 2.5 * 2.8) * 3, lroom, 8);
  check (rw_shape_box_with_pillar (6, 5, 3, 2, 2, 0.7), "pillar room", (30 - 0.49) * 3, pillar, 7);
  for (int sub = 0; sub <= 4; sub++)
    {
      RwMesh *m = rw_shape_sphere (1.5, sub);
      double v = 0;
      for (size_t t = 0; m && t < m->n_triangles; t++)
        {
          double q[3][3];
          for (int k = 0; k < 3; k++)
            for (int d = 0; d < 3; d++)
              q[k][d] = m->xyz[3 * m->tri[3 * t + k] + d] - 1.5;   /* about the centre */
          v += (q[0][0] * (q[1][1] * q[2][2] - q[1][2] * q[2][1]) - q[0][1] * (q[1][0] * q[2][2] - q[1][2] * q[2][0])
                + q[0][2] * (q[1][0] * q[2][1] - q[1][1] * q[2][0])) / 6;
        }
      double ball = 4.0 / 3.0 * M_PI * 1.5 * 1.5 * 1.5;
      RW_CHECK (m && m->n_triangles == 20 * (size_t) pow (4, sub), "icosphere %d: triangles", sub);
      RW_CHECK (v < ball && v > (sub >= 3 ? 0.99 : 0.6) * ball, "icosphere %d: %.6f vs ball %.6f", sub, v, ball);
      char what[64];
      snprintf (what, sizeof what, "icosphere, %d subdivisions", sub);
      check (m, what, v, sphere, 1);
    }
  const int facets[] = { 1, 2, 5, 12, 24 };
  for (size_t f = 0; f < sizeof facets / sizeof facets[0]; f++)
    {
      char what[64];
      snprintf (what, sizeof what, "hall, %d facets", facets[f]);
      check (rw_shape_hall (40, 25, 15, facets[f]), what, hall_volume (40, 25, 15, facets[f]), hall, 6);
    }
  check (rw_shape_hall (20, 30, 10, 6), "wide hall", hall_volume (20, 30, 10, 6), hall, 6);

  RW_CHECK (rw_shape_box (0, 1, 1) == NULL, "zero box");
  RW_CHECK (rw_shape_box (NAN, 1, 1) == NULL, "NaN box");
  RW_CHECK (rw_shape_sloped_ceiling (6, 4, 2.5, 90) == NULL, "vertical ceiling");
  RW_CHECK (rw_shape_lroom (6, 5, 3, 6, 2) == NULL, "L cut-out as wide as the room");
  RW_CHECK (rw_shape_box_with_pillar (6, 5, 3, 2, 2, 0) == NULL, "zero pillar");
  RW_CHECK (rw_shape_hall (-1, 25, 15, 8) == NULL, "negative hall");
  return rw_test_finish ();
}
