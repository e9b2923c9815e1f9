/* SPDX-License-Identifier: GPL-3.0-or-later */
/* mesh-report-box: the report of a box is exact — volume by the divergence
 * theorem, area per surface, bounding box, watertight and outward — for a
 * box built in code, the same box with its normals flipped, and a box
 * loaded from an OBJ file (tests/data/meshes/box.obj, 4 × 3 × 2.5 m). */
#include "test-mesh-common.h"

#include <string.h>

static void
check_box (const RwMesh *m, double lx, double ly, double lz, const char *what)
{
  RwMeshReport r;
  RwError err = { 0 };
  RW_CHECK (rw_mesh_report (m, &r, &err), "%s: %s", what, err.message);
  RW_CHECK_CLOSE (r.volume_m3, lx * ly * lz, 1e-12 * lx * ly * lz, what);
  RW_CHECK_CLOSE (r.area_m2, 2 * (lx * ly + lx * lz + ly * lz), 1e-12, what);
  RW_CHECK (r.watertight && r.outward, "%s: watertight %d outward %d", what, r.watertight, r.outward);
  RW_CHECK (r.n_open_edges == 0 && r.n_nonmanifold_edges == 0 && r.n_misoriented_edges == 0
              && r.n_degenerate == 0 && r.n_nonfinite == 0,
            "%s: counts %zu %zu %zu %zu %zu", what, r.n_open_edges, r.n_nonmanifold_edges,
            r.n_misoriented_edges, r.n_degenerate, r.n_nonfinite);
  RW_CHECK (!r.looks_like_millimetres && r.suggested_scale == 0, "%s: no unit warning", what);
  double expect_max[3] = { lx, ly, lz };
  for (int i = 0; i < 3; i++)
    {
      RW_CHECK_CLOSE (r.bbox_min[i], 0, 0, what);
      RW_CHECK_CLOSE (r.bbox_max[i], expect_max[i], 0, what);
    }
  const struct { const char *name; double area; } expect[] = {
    { "floor", lx * ly }, { "ceiling", lx * ly }, { "wall_y0", lx * lz },
    { "wall_y1", lx * lz }, { "wall_x0", ly * lz }, { "wall_x1", ly * lz },
  };
  RW_CHECK (r.n_surfaces == 6 && m->n_surfaces == 6, "%s: %zu surfaces", what, m->n_surfaces);
  for (size_t e = 0; e < 6; e++)
    {
      bool found = false;
      for (size_t s = 0; s < m->n_surfaces && s < r.n_surfaces; s++)
        if (strcmp (m->surface_names[s], expect[e].name) == 0)
          {
            found = true;
            RW_CHECK_CLOSE (r.surface_area_m2[s], expect[e].area, 1e-12, expect[e].name);
          }
      RW_CHECK (found, "%s: surface %s present", what, expect[e].name);
    }
  RW_CHECK (rw_mesh_check_closed (m, &err), "%s: closed: %s", what, err.message);
  rw_mesh_report_clear (&r);
}

int
main (void)
{
  RwMesh *m = mesh_test_box (4.0, 3.0, 2.5, false);
  check_box (m, 4.0, 3.0, 2.5, "code box");

  /* Flip every triangle: still closed, but the normals point in. */
  for (size_t t = 0; t < m->n_triangles; t++)
    {
      uint32_t tmp = m->tri[3 * t + 1];
      m->tri[3 * t + 1] = m->tri[3 * t + 2];
      m->tri[3 * t + 2] = tmp;
    }
  RwMeshReport r;
  RwError err = { 0 };
  RW_CHECK (rw_mesh_report (m, &r, &err), "%s", err.message);
  RW_CHECK_CLOSE (r.volume_m3, -30.0, 1e-12, "inward box volume is negative");
  RW_CHECK (r.watertight && !r.outward, "inward box: watertight %d outward %d", r.watertight, r.outward);
  rw_mesh_report_clear (&r);
  /* Flip one triangle only: two of its edges now meet a neighbour going the
   * same way, and the third its partner in the same quad. */
  uint32_t tmp = m->tri[1];
  m->tri[1] = m->tri[2];
  m->tri[2] = tmp;
  RW_CHECK (rw_mesh_report (m, &r, &err), "%s", err.message);
  RW_CHECK (!r.watertight && r.n_misoriented_edges == 3 && r.n_open_edges == 0,
            "one flipped triangle: watertight %d misoriented %zu", r.watertight, r.n_misoriented_edges);
  rw_mesh_report_clear (&r);
  RW_CHECK (!rw_mesh_check_closed (m, &err) && err.code == RW_ERROR_INPUT, "misoriented is refused");
  rw_mesh_free (m);

  /* Far from the origin: the report centres its sums on the bounding box. */
  m = mesh_test_box (4.0, 3.0, 2.5, false);
  for (size_t v = 0; v < m->n_vertices; v++)
    m->xyz[3 * v] += 1e5;
  RW_CHECK (rw_mesh_report (m, &r, &err), "%s", err.message);
  RW_CHECK_CLOSE (r.volume_m3, 30.0, 1e-9, "box at x = 100 km");
  rw_mesh_report_clear (&r);
  rw_mesh_free (m);

  const char *path = mesh_test_path ("box.obj");
  m = rw_mesh_load (path, 1.0, &err);
  RW_CHECK (m != NULL, "load %s: %s", path, err.message);
  if (m)
    {
      RW_CHECK (m->n_vertices == 8 && m->n_triangles == 12, "box.obj: %zu vertices, %zu triangles",
                m->n_vertices, m->n_triangles);
      RW_CHECK (m->path && strcmp (m->path, path) == 0, "mesh remembers its path");
      check_box (m, 4.0, 3.0, 2.5, "box.obj");
      rw_mesh_free (m);
    }
  /* The scale applies to every coordinate: volume × s³. */
  m = rw_mesh_load (path, 2.0, &err);
  RW_CHECK (m != NULL, "load ×2: %s", err.message);
  if (m)
    {
      check_box (m, 8.0, 6.0, 5.0, "box.obj scaled by 2");
      rw_mesh_free (m);
    }
  /* The inward box loads (it is closed) and reports inward normals. */
  m = rw_mesh_load (mesh_test_path ("box-inward.obj"), 1.0, &err);
  RW_CHECK (m != NULL, "load inward: %s", err.message);
  if (m)
    {
      RW_CHECK (rw_mesh_report (m, &r, &err), "%s", err.message);
      RW_CHECK (r.watertight && !r.outward && r.volume_m3 < 0, "box-inward.obj: inward");
      rw_mesh_report_clear (&r);
      rw_mesh_free (m);
    }

  /* The demo room: closed, outward, 100.5 m³ (7 m × 5 m trapezoid splayed
   * to 6.4 m, 3 m high), five named surfaces. */
  const char *demo = mesh_data_path ("rooms/demo-room.obj");
  m = rw_mesh_load (demo, 1.0, &err);
  RW_CHECK (m != NULL, "load %s: %s", demo, err.message);
  if (m)
    {
      RW_CHECK (rw_mesh_report (m, &r, &err), "%s", err.message);
      RW_CHECK_CLOSE (r.volume_m3, 0.5 * (7.0 + 6.4) * 5.0 * 3.0, 1e-9, "demo room volume (exact decimals survive Assimp's float32)");
      RW_CHECK (r.watertight && r.outward && r.n_degenerate == 0, "demo room closed and outward");
      RW_CHECK (m->n_surfaces == 5, "demo room has %zu surfaces", m->n_surfaces);
      RW_NOTE ("demo room: %.6f m³, %.4f m², %zu triangles", r.volume_m3, r.area_m2, m->n_triangles);
      rw_mesh_report_clear (&r);
      rw_mesh_free (m);
    }
  return rw_test_finish ();
}
