/* SPDX-License-Identifier: GPL-3.0-or-later */
/* voxel-surface-ids: on a box whose six faces are six surfaces, each
 * boundary node's surface is a face it touches (one whose side its missing
 * neighbour lies on), and a node touching one face gets exactly that face;
 * every face is seen. Same for the L-room's two inner walls. */
#include "rw-test.h"
#include <string.h>
#include "rw-shapes.h"
#include "rw-voxel.h"

static uint32_t
surface_id (const RwMesh *m, const char *name)
{
  for (size_t s = 0; s < m->n_surfaces; s++)
    if (strcmp (m->surface_names[s], name) == 0)
      return (uint32_t) s;
  return UINT32_MAX;
}

static void
check (RwMesh *m, double h, const char *what)
{
  /* the surface behind the −x, +x, −y, +y, −z, +z neighbour of a box-like
   * room: its axis-aligned walls, named as rw_shape_box names them; the
   * L-room's inner walls face +x (wall_inner_x) and +y (wall_inner_y) */
  const char *names[6][2] = {
    { "wall_x0", NULL }, { "wall_x1", "wall_inner_x" }, { "wall_y0", NULL },
    { "wall_y1", "wall_inner_y" }, { "floor", NULL }, { "ceiling", NULL },
  };
  RwError err = { 0 };
  RwGrid *g = rw_voxelise (m, h, 0, &err);
  RW_CHECK (g != NULL, "%s: %s", what, err.message);
  if (g == NULL)
    return;
  const size_t stride[3] = { 1, g->nx, g->nx * g->ny };
  size_t wrong = 0, wrong_single = 0, n_single = 0;
  size_t seen[64] = { 0 };
  for (size_t i = 0; i < g->nx * g->ny * g->nz; i++)
    {
      if (g->K[i] == 0 || g->K[i] == 6)
        continue;
      bool ok = false;
      int n_faces = 0;
      for (int d = 0; d < 6; d++)
        {
          size_t nb = (d & 1) ? i + stride[d / 2] : i - stride[d / 2];
          if (g->K[nb] != 0)
            continue;
          n_faces++;
          for (int a = 0; a < 2; a++)
            if (names[d][a] && g->surface[i] == surface_id (m, names[d][a]))
              ok = true;
        }
      wrong += !ok;
      if (n_faces == 1)
        {
          n_single++;
          wrong_single += !ok;
        }
      if (g->surface[i] < 64)
        seen[g->surface[i]]++;
    }
  RW_NOTE ("%s at h = %g m: %zu boundary nodes, %zu on a single face, %zu wrong", what, h,
           g->n_boundary, n_single, wrong);
  RW_CHECK (wrong == 0, "%s: %zu boundary nodes name a surface they do not touch", what, wrong);
  RW_CHECK (wrong_single == 0, "%s: %zu single-face nodes wrong", what, wrong_single);
  for (size_t s = 0; s < m->n_surfaces; s++)
    RW_CHECK (seen[s] > 0, "%s: surface %s on no boundary node", what, m->surface_names[s]);
  rw_grid_free (g);
}

int
main (void)
{
  RwMesh *box = rw_shape_box (2.3, 1.9, 1.4);
  check (box, 0.1, "box");
  check (box, 0.0625, "box");
  rw_mesh_free (box);
  RwMesh *l = rw_shape_lroom (4.2, 3.6, 2.5, 2.45, 1.75);
  check (l, 0.1, "L-room");
  rw_mesh_free (l);
  return rw_test_finish ();
}
