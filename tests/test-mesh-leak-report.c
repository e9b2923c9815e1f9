/* SPDX-License-Identifier: GPL-3.0-or-later */
/* mesh-leak-report: a box with one ceiling triangle removed is not
 * watertight; its three open edges are counted and their coordinates, all
 * on the ceiling (z = 2.5 m), are reported — in the report and in the
 * message of rw_mesh_check_closed, which names the file. */
#include "test-mesh-common.h"

#include <string.h>

static void
check_hole (const RwMesh *m, const char *what)
{
  RwMeshReport r;
  RwError err = { 0 };
  RW_CHECK (rw_mesh_report (m, &r, &err), "%s: %s", what, err.message);
  RW_CHECK (!r.watertight && !r.outward, "%s: not watertight", what);
  RW_CHECK (r.n_open_edges == 3, "%s: %zu open edges", what, r.n_open_edges);
  RW_CHECK (r.n_edge_samples == 3, "%s: %zu edge samples", what, r.n_edge_samples);
  /* The missing triangle is (0,0,h)–(4,3,h)–(0,3,h): every sampled edge
   * lies in the ceiling plane and joins two of those corners. */
  for (size_t i = 0; i < r.n_edge_samples; i++)
    {
      const double *e = r.edge_samples[i];
      RW_CHECK (e[2] == 2.5 && e[5] == 2.5, "%s: edge %zu at z %g, %g", what, i, e[2], e[5]);
      for (int k = 0; k < 2; k++)
        {
          double x = e[3 * k], y = e[3 * k + 1];
          bool corner = (x == 0 && y == 0) || (x == 4 && y == 3) || (x == 0 && y == 3);
          RW_CHECK (corner, "%s: edge %zu end (%g, %g) is a corner of the hole", what, i, x, y);
        }
    }
  RW_CHECK_CLOSE (r.area_m2, 59.0 - 6.0, 1e-12, "area without the triangle");
  rw_mesh_report_clear (&r);

  RW_CHECK (!rw_mesh_check_closed (m, &err), "%s: check_closed refuses", what);
  RW_CHECK (err.code == RW_ERROR_INPUT, "%s: code %d", what, err.code);
  RW_CHECK (strstr (err.message, "3 open edges") != NULL, "%s: count in '%s'", what, err.message);
  RW_CHECK (strstr (err.message, "2.500") != NULL, "%s: coordinates in '%s'", what, err.message);
  if (m->path)
    RW_CHECK (strstr (err.message, m->path) != NULL, "%s: file named in '%s'", what, err.message);
  RW_NOTE ("%s: %s", what, err.message);
}

int
main (void)
{
  RwMesh *m = mesh_test_box (4.0, 3.0, 2.5, true);
  check_hole (m, "code box");
  rw_mesh_free (m);

  RwError err = { 0 };
  const char *path = mesh_test_path ("box-open.obj");
  m = rw_mesh_load (path, 1.0, &err);
  RW_CHECK (m != NULL, "an open mesh still loads: %s", err.message);
  if (m)
    {
      check_hole (m, "box-open.obj");
      rw_mesh_free (m);
    }

  /* A fourth triangle on an existing edge makes it non-manifold. */
  m = mesh_test_box (4.0, 3.0, 2.5, false);
  uint32_t apex = rw_mesh_add_vertex (m, 2.0, 1.5, 5.0);
  rw_mesh_add_triangle (m, 4, 5, apex, 1);
  RwMeshReport r;
  RW_CHECK (rw_mesh_report (m, &r, &err), "%s", err.message);
  RW_CHECK (r.n_nonmanifold_edges == 1 && r.n_open_edges == 2 && !r.watertight,
            "fin: nonmanifold %zu open %zu", r.n_nonmanifold_edges, r.n_open_edges);
  rw_mesh_report_clear (&r);
  rw_mesh_free (m);

  /* A closed mesh passes. */
  m = mesh_test_box (4.0, 3.0, 2.5, false);
  RW_CHECK (rw_mesh_check_closed (m, &err), "closed box: %s", err.message);
  rw_mesh_free (m);
  return rw_test_finish ();
}
