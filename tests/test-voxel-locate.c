/* SPDX-License-Identifier: GPL-3.0-or-later */
/* voxel-locate: points inside the room give the cell whose centre is
 * nearest; points outside it (beyond the walls, in the L's missing corner,
 * inside a pillar, beyond the grid, non-finite) fail with RW_ERROR_INPUT
 * and a message that names the point and its coordinates. */
#include "rw-test.h"
#include <string.h>
#include "rw-shapes.h"
#include "rw-voxel.h"

int
main (void)
{
  RwError err = { 0 };
  RwMesh *m = rw_shape_lroom (8.0, 6.0, 3.0, 5.0, 4.0);
  RwGrid *g = rw_voxelise (m, 0.1, 0, &err);
  RW_CHECK (g != NULL, "%s", err.message);
  if (g == NULL)
    return rw_test_finish ();

  const double inside[][3] = { { 1.0, 1.0, 1.2 }, { 7.93, 0.07, 2.95 }, { 2.0, 5.5, 0.5 }, { 4.9, 3.9, 1.5 } };
  for (size_t i = 0; i < sizeof inside / sizeof inside[0]; i++)
    {
      size_t idx = SIZE_MAX;
      rw_error_clear (&err);
      bool ok = rw_grid_locate (g, inside[i], "source", &idx, &err);
      RW_CHECK (ok, "(%g, %g, %g): %s", inside[i][0], inside[i][1], inside[i][2], err.message);
      if (!ok)
        continue;
      RW_CHECK (g->K[idx] > 0, "located an outside cell");
      size_t x = idx % g->nx, y = (idx / g->nx) % g->ny, z = idx / (g->nx * g->ny);
      double c[3] = { g->origin[0] + g->h * x, g->origin[1] + g->h * y, g->origin[2] + g->h * z };
      for (int k = 0; k < 3; k++)
        RW_CHECK (fabs (c[k] - inside[i][k]) <= 0.5 * g->h + 1e-12,
                  "axis %d: centre %g not the nearest to %g", k, c[k], inside[i][k]);
    }

  const struct { double p[3]; const char *what, *coords; } outside[] = {
    { { 9.0, 1.0, 1.2 }, "receiver 2", "(9.00, 1.00, 1.20)" },
    { { 6.5, 5.0, 1.2 }, "receiver 3", "(6.50, 5.00, 1.20)" },     /* the missing corner */
    { { 1.0, 1.0, -0.3 }, "source", "(1.00, 1.00, -0.30)" },
    { { 1e6, 1.0, 1.0 }, "receiver 1", "(1000000.00, 1.00, 1.00)" },
    { { NAN, 1.0, 1.0 }, "receiver 4", "receiver 4" },
  };
  for (size_t i = 0; i < sizeof outside / sizeof outside[0]; i++)
    {
      size_t idx = 0;
      rw_error_clear (&err);
      bool ok = rw_grid_locate (g, outside[i].p, outside[i].what, &idx, &err);
      RW_NOTE ("%s", err.message);
      RW_CHECK (!ok, "%s at (%g, %g, %g) located", outside[i].what, outside[i].p[0], outside[i].p[1],
                outside[i].p[2]);
      RW_CHECK (err.code == RW_ERROR_INPUT, "code %d", err.code);
      RW_CHECK (strstr (err.message, outside[i].what) && strstr (err.message, outside[i].coords),
                "message lacks '%s' %s: %s", outside[i].what, outside[i].coords, err.message);
    }
  rw_grid_free (g);
  rw_mesh_free (m);

  m = rw_shape_box_with_pillar (6, 5, 3, 2, 2, 1);
  g = rw_voxelise (m, 0.1, 0, &err);
  RW_CHECK (g != NULL, "%s", err.message);
  if (g)
    {
      const double in_pillar[3] = { 2.5, 2.5, 1.5 }, beside[3] = { 1.5, 2.5, 1.5 };
      RW_CHECK (!rw_grid_locate (g, in_pillar, "receiver 1", NULL, &err), "a point in the pillar located");
      RW_CHECK (rw_grid_locate (g, beside, "receiver 1", NULL, &err), "beside the pillar: %s", err.message);
    }
  rw_grid_free (g);
  rw_mesh_free (m);
  return rw_test_finish ();
}
