/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-mesh-common.h — helpers shared by the mesh tests: paths of the
 * shipped test meshes and a box built in code. */
#pragma once

#include "rw-mesh.h"
#include "rw-test.h"

#include <stdio.h>
#include <stdlib.h>

/* $ROOMWAVE_TEST_DATA/meshes/<name> (static buffer: copy if kept). */
static inline const char *
mesh_test_path (const char *name)
{
  static char buf[4][4096];
  static int next = 0;
  const char *base = getenv ("ROOMWAVE_TEST_DATA");
  char *out = buf[next++ % 4];
  snprintf (out, sizeof buf[0], "%s/meshes/%s", base ? base : "tests/data", name);
  return out;
}

/* $ROOMWAVE_DATA_DIR/<relative>. */
static inline const char *
mesh_data_path (const char *relative)
{
  static char buf[4096];
  const char *base = getenv ("ROOMWAVE_DATA_DIR");
  snprintf (buf, sizeof buf, "%s/%s", base ? base : "data", relative);
  return buf;
}

/* Closed box [0,lx]×[0,ly]×[0,lz] with outward normals, one surface per
 * face, optionally without its last ceiling triangle. */
static inline RwMesh *
mesh_test_box (double lx, double ly, double lz, bool drop_one)
{
  RwMesh *m = rw_mesh_new ();
  for (int k = 0; k < 8; k++)
    rw_mesh_add_vertex (m, (k & 1) ? lx : 0, (k & 2) ? ly : 0, (k & 4) ? lz : 0);
  static const char *names[6] = { "floor", "ceiling", "wall_y0", "wall_y1", "wall_x0", "wall_x1" };
  static const uint32_t quads[6][4] = { { 0, 2, 3, 1 }, { 4, 5, 7, 6 }, { 0, 1, 5, 4 },
                                        { 2, 6, 7, 3 }, { 0, 4, 6, 2 }, { 1, 3, 7, 5 } };
  for (int f = 0; f < 6; f++)
    {
      uint32_t s = rw_mesh_add_surface (m, names[f]);
      const uint32_t *q = quads[f];
      rw_mesh_add_triangle (m, q[0], q[1], q[2], s);
      if (!(drop_one && f == 1))
        rw_mesh_add_triangle (m, q[0], q[2], q[3], s);
    }
  return m;
}
