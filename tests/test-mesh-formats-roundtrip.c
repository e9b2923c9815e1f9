/* SPDX-License-Identifier: GPL-3.0-or-later */
/* mesh-formats-roundtrip: the demo room and an L-shaped room built in code,
 * exported through Assimp as OBJ, STL (ASCII and binary), PLY (ASCII and
 * binary), glTF 2 and GLB, and loaded again: same volume within 1e-6
 * relative, still watertight and outward (the weld joins what the formats
 * store per face), and the surface names kept where the format has names
 * (OBJ, glTF). Node transforms (translation, mirror, scale written into
 * a COLLADA file's nodes) are applied, a mirror without turning the normals
 * inward. Also: an unknown format id and an unwritable path fail with
 * the path in the message. */
#include "test-mesh-common.h"

#include <string.h>

static const struct { const char *id, *ext; bool names; } formats[] = {
  { "obj", "obj", true }, { "stl", "stl", false }, { "stlb", "stl", false },
  { "ply", "ply", false }, { "plyb", "ply", false }, { "gltf2", "gltf", true },
  { "glb2", "glb", true },
};

/* An L: the 6 × 5 × 3 box minus the corner [4,6]×[3,5], as an extruded
 * polygon: floor and ceiling fans from an interior point, six walls. */
static RwMesh *
lroom (void)
{
  static const double plan[6][2] = { { 0, 0 }, { 6, 0 }, { 6, 3 }, { 4, 3 }, { 4, 5 }, { 0, 5 } };
  const double h = 3.0, cx = 2.0, cy = 2.0;   /* (2, 2) sees every corner of the L */
  RwMesh *m = rw_mesh_new ();
  uint32_t lo[6], hi[6];
  for (int i = 0; i < 6; i++)
    {
      lo[i] = rw_mesh_add_vertex (m, plan[i][0], plan[i][1], 0);
      hi[i] = rw_mesh_add_vertex (m, plan[i][0], plan[i][1], h);
    }
  uint32_t c0 = rw_mesh_add_vertex (m, cx, cy, 0), c1 = rw_mesh_add_vertex (m, cx, cy, h);
  /* Names with spaces, brackets and non-ASCII letters must survive too. */
  uint32_t floor_id = rw_mesh_add_surface (m, "carpet on concrete");
  uint32_t ceil_id = rw_mesh_add_surface (m, "Acoustic tile (suspended)");
  uint32_t wall_id = rw_mesh_add_surface (m, "wände");
  for (int i = 0; i < 6; i++)
    {
      int j = (i + 1) % 6;
      rw_mesh_add_triangle (m, c0, lo[j], lo[i], floor_id);   /* plan is counter-clockwise: floor faces −z */
      rw_mesh_add_triangle (m, c1, hi[i], hi[j], ceil_id);
      rw_mesh_add_triangle (m, lo[i], lo[j], hi[j], wall_id);
      rw_mesh_add_triangle (m, lo[i], hi[j], hi[i], wall_id);
    }
  return m;
}

static void
roundtrip (const RwMesh *m, const char *tag)
{
  RwMeshReport r0;
  RwError err = { 0 };
  RW_CHECK (rw_mesh_report (m, &r0, &err), "%s", err.message);
  RW_CHECK (r0.watertight && r0.outward, "%s: original closed", tag);
  for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++)
    {
      char path[4096];
      snprintf (path, sizeof path, "%s/%s-%s.%s", rw_test_tmpdir (), tag, formats[f].id, formats[f].ext);
      bool ok = rw_mesh_export (m, path, formats[f].id, &err);
      RW_CHECK (ok, "%s: export %s: %s", tag, formats[f].id, err.message);
      if (!ok)
        continue;
      RwMesh *back = rw_mesh_load (path, 1.0, &err);
      RW_CHECK (back != NULL, "%s: reload %s: %s", tag, formats[f].id, err.message);
      if (back == NULL)
        continue;
      RwMeshReport r;
      RW_CHECK (rw_mesh_report (back, &r, &err), "%s", err.message);
      RW_CHECK (fabs (r.volume_m3 / r0.volume_m3 - 1) <= 1e-6, "%s %s: volume %.9g vs %.9g", tag,
                formats[f].id, r.volume_m3, r0.volume_m3);
      RW_CHECK_CLOSE (r.area_m2, r0.area_m2, 1e-6 * r0.area_m2, formats[f].id);
      RW_CHECK (r.watertight && r.outward, "%s %s: watertight %d outward %d (open %zu)", tag,
                formats[f].id, r.watertight, r.outward, r.n_open_edges);
      if (formats[f].names)
        {
          RW_CHECK (back->n_surfaces == m->n_surfaces, "%s %s: %zu surfaces vs %zu", tag, formats[f].id,
                    back->n_surfaces, m->n_surfaces);
          for (size_t s = 0; s < m->n_surfaces; s++)
            {
              bool found = false;
              for (size_t t = 0; t < back->n_surfaces; t++)
                if (strcmp (back->surface_names[t], m->surface_names[s]) == 0)
                  {
                    found = true;
                    RW_CHECK_CLOSE (r.surface_area_m2[t], r0.surface_area_m2[s],
                                    1e-6 * r0.surface_area_m2[s], m->surface_names[s]);
                  }
              RW_CHECK (found, "%s %s: surface '%s' kept", tag, formats[f].id, m->surface_names[s]);
            }
        }
      RW_NOTE ("%s → %s: %.9f m³, %zu surfaces", tag, formats[f].id, r.volume_m3, back->n_surfaces);
      rw_mesh_report_clear (&r);
      rw_mesh_free (back);
    }
  rw_mesh_report_clear (&r0);
}

/* Node transforms: the box exported as COLLADA (one node per surface),
 * every node's identity matrix replaced by `matrix`, loaded again. */
static RwMesh *
box_with_node_matrix (const RwMesh *box, const char *matrix, const char *tag)
{
  char path[4096], moved[4096];
  RwError err = { 0 };
  snprintf (path, sizeof path, "%s/%s.dae", rw_test_tmpdir (), tag);
  snprintf (moved, sizeof moved, "%s/%s-moved.dae", rw_test_tmpdir (), tag);
  if (!rw_mesh_export (box, path, "collada", &err))
    {
      RW_CHECK (false, "export collada: %s", err.message);
      return NULL;
    }
  FILE *f = fopen (path, "rb");
  static char text[1 << 16], out[1 << 17];
  size_t n = fread (text, 1, sizeof text - 1, f);
  fclose (f);
  text[n] = '\0';
  const char *identity = "1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1";
  size_t o = 0, replaced = 0;
  for (const char *p = text; *p;)
    {
      if (strncmp (p, identity, strlen (identity)) == 0)
        {
          o += (size_t) snprintf (out + o, sizeof out - o, "%s", matrix);
          p += strlen (identity);
          replaced++;
        }
      else
        out[o++] = *p++;
    }
  out[o] = '\0';
  RW_CHECK (replaced >= 6, "%s: %zu node matrices replaced", tag, replaced);
  f = fopen (moved, "wb");
  fputs (out, f);
  fclose (f);
  RwMesh *m = rw_mesh_load (moved, 1.0, &err);
  RW_CHECK (m != NULL, "%s: %s", tag, err.message);
  return m;
}

static void
check_transforms (void)
{
  RwMesh *box = rw_mesh_new ();
  static const char *names[6] = { "floor", "ceiling", "wall_y0", "wall_y1", "wall_x0", "wall_x1" };
  static const uint32_t quads[6][4] = { { 0, 2, 3, 1 }, { 4, 5, 7, 6 }, { 0, 1, 5, 4 },
                                        { 2, 6, 7, 3 }, { 0, 4, 6, 2 }, { 1, 3, 7, 5 } };
  for (int k = 0; k < 8; k++)
    rw_mesh_add_vertex (box, (k & 1) ? 4 : 0, (k & 2) ? 3 : 0, (k & 4) ? 2.5 : 0);
  for (int f = 0; f < 6; f++)
    {
      uint32_t s = rw_mesh_add_surface (box, names[f]);
      rw_mesh_add_triangle (box, quads[f][0], quads[f][1], quads[f][2], s);
      rw_mesh_add_triangle (box, quads[f][0], quads[f][2], quads[f][3], s);
    }
  const struct { const char *tag, *matrix; double lo[3], hi[3]; } cases[] = {
    { "moved", "1 0 0 10 0 1 0 20 0 0 1 30 0 0 0 1", { 10, 20, 30 }, { 14, 23, 32.5 } },
    /* A mirror in x: the importer flips the winding to keep normals out. */
    { "mirrored", "-1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1", { -4, 0, 0 }, { 0, 3, 2.5 } },
    { "scaled", "2 0 0 0 0 2 0 0 0 0 2 0 0 0 0 1", { 0, 0, 0 }, { 8, 6, 5 } },
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    {
      RwMesh *m = box_with_node_matrix (box, cases[c].matrix, cases[c].tag);
      if (m == NULL)
        continue;
      RwMeshReport r;
      RwError err = { 0 };
      RW_CHECK (rw_mesh_report (m, &r, &err), "%s", err.message);
      double v = (cases[c].hi[0] - cases[c].lo[0]) * (cases[c].hi[1] - cases[c].lo[1])
                 * (cases[c].hi[2] - cases[c].lo[2]);
      RW_CHECK_CLOSE (r.volume_m3, v, 1e-9 * v, cases[c].tag);
      RW_CHECK (r.watertight && r.outward, "%s: watertight %d outward %d", cases[c].tag, r.watertight, r.outward);
      for (int i = 0; i < 3; i++)
        {
          RW_CHECK_CLOSE (r.bbox_min[i], cases[c].lo[i], 1e-9, cases[c].tag);
          RW_CHECK_CLOSE (r.bbox_max[i], cases[c].hi[i], 1e-9, cases[c].tag);
        }
      rw_mesh_report_clear (&r);
      rw_mesh_free (m);
    }
  rw_mesh_free (box);
}

int
main (void)
{
  check_transforms ();

  RwError err = { 0 };
  RwMesh *demo = rw_mesh_load (mesh_data_path ("rooms/demo-room.obj"), 1.0, &err);
  RW_CHECK (demo != NULL, "demo room: %s", err.message);
  if (demo)
    roundtrip (demo, "demo");

  RwMesh *l = lroom ();
  RwMeshReport r;
  RW_CHECK (rw_mesh_report (l, &r, &err), "%s", err.message);
  RW_CHECK_CLOSE (r.volume_m3, (6 * 5 - 2 * 2) * 3.0, 1e-12, "L-room volume");
  rw_mesh_report_clear (&r);
  roundtrip (l, "lroom");

  char path[4096];
  snprintf (path, sizeof path, "%s/x.foo", rw_test_tmpdir ());
  RW_CHECK (!rw_mesh_export (l, path, "no-such-format", &err) && err.code == RW_ERROR_INPUT
              && strstr (err.message, "no-such-format") != NULL,
            "unknown format refused: %s", err.message);
  snprintf (path, sizeof path, "%s/no-such-dir/x.obj", rw_test_tmpdir ());
  RW_CHECK (!rw_mesh_export (l, path, "obj", &err) && err.code == RW_ERROR_IO
              && strstr (err.message, path) != NULL,
            "unwritable path refused: %s", err.message);
  rw_mesh_free (l);
  rw_mesh_free (demo);
  return rw_test_finish ();
}
