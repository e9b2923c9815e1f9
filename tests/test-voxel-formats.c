/* SPDX-License-Identifier: GPL-3.0-or-later */
/* voxel-formats: one room exported with rw_mesh_export as OBJ, STL (ASCII
 * and binary), PLY (ASCII and binary), glTF 2 and GLB, reloaded with
 * rw_mesh_load and voxelised: the same grid as the mesh built in code —
 * identical inside cells, cell for cell, and where the format keeps
 * surface names (OBJ, glTF), the same surface name on every boundary node.
 * The L-room has its walls halfway between centres, so float32 storage
 * (STL, glTF) cannot flip a cell; the hall, whose faceted wall falls
 * anywhere, must agree to 1 cell in 10⁵. */
#include "rw-test.h"
#include <stdio.h>
#include <string.h>
#include "rw-shapes.h"
#include "rw-voxel.h"

static const struct { const char *id, *ext; bool names; } formats[] = {
  { "obj", "obj", true }, { "stl", "stl", false }, { "stlb", "stl", false },
  { "ply", "ply", false }, { "plyb", "ply", false }, { "gltf2", "gltf", true },
  { "glb2", "glb", true },
};

static void
compare (const RwMesh *m, double h, const char *tag, bool exact)
{
  RwError err = { 0 };
  RwGrid *g0 = rw_voxelise (m, h, 0, &err);
  RW_CHECK (g0 != NULL, "%s: %s", tag, err.message);
  if (g0 == NULL)
    return;
  for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++)
    {
      char path[4096];
      snprintf (path, sizeof path, "%s/%s-%s.%s", rw_test_tmpdir (), tag, formats[f].id, formats[f].ext);
      rw_error_clear (&err);
      bool ok = rw_mesh_export (m, path, formats[f].id, &err);
      RW_CHECK (ok, "%s: export %s: %s", tag, formats[f].id, err.message);
      RwMesh *back = ok ? rw_mesh_load (path, 1.0, &err) : NULL;
      RW_CHECK (!ok || back != NULL, "%s: reload %s: %s", tag, formats[f].id, err.message);
      RwGrid *g = back ? rw_voxelise (back, h, 0, &err) : NULL;
      RW_CHECK (back == NULL || g != NULL, "%s %s: voxelise: %s", tag, formats[f].id, err.message);
      if (g == NULL)
        {
          rw_mesh_free (back);
          continue;
        }
      bool same_dims = g->nx == g0->nx && g->ny == g0->ny && g->nz == g0->nz;
      RW_CHECK (same_dims, "%s %s: %zu × %zu × %zu cells vs %zu × %zu × %zu", tag, formats[f].id,
                g->nx, g->ny, g->nz, g0->nx, g0->ny, g0->nz);
      size_t differ = 0, names_differ = 0;
      if (same_dims)
        for (size_t i = 0; i < g->nx * g->ny * g->nz; i++)
          {
            differ += (g->K[i] > 0) != (g0->K[i] > 0);
            if (formats[f].names && g->K[i] > 0 && g->K[i] < 6 && g0->K[i] > 0 && g0->K[i] < 6)
              names_differ += strcmp (back->surface_names[g->surface[i]],
                                      m->surface_names[g0->surface[i]]) != 0;
          }
      RW_NOTE ("%s as %s: %zu inside cells (built in code: %zu), %zu cells differ%s", tag,
               formats[f].id, g->n_inside, g0->n_inside, differ,
               formats[f].names ? (names_differ ? ", surface names differ" : ", same surface names") : "");
      if (exact)
        {
          RW_CHECK (g->n_inside == g0->n_inside, "%s %s: %zu inside cells vs %zu", tag, formats[f].id,
                    g->n_inside, g0->n_inside);
          RW_CHECK (differ == 0, "%s %s: %zu cells differ", tag, formats[f].id, differ);
        }
      else
        RW_CHECK (differ * 100000 <= g0->n_inside, "%s %s: %zu cells differ of %zu", tag,
                  formats[f].id, differ, g0->n_inside);
      RW_CHECK (names_differ == 0, "%s %s: %zu boundary nodes with another surface name", tag,
                formats[f].id, names_differ);
      rw_grid_free (g);
      rw_mesh_free (back);
    }
  rw_grid_free (g0);
}

int
main (void)
{
  RwMesh *l = rw_shape_lroom (6.0, 5.0, 3.0, 3.5, 2.2);
  compare (l, 0.1, "lroom", true);
  rw_mesh_free (l);
  RwMesh *hall = rw_shape_hall (30, 20, 12, 8);
  compare (hall, 0.25, "hall", false);
  rw_mesh_free (hall);
  return rw_test_finish ();
}
