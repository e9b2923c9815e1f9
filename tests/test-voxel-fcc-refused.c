/* SPDX-License-Identifier: GPL-3.0-or-later */
/* voxel-fcc-refused: rw_voxelise_fcc refuses what rw_voxelise refuses, the
 * same way, without a grid: a box with one triangle missing
 * (RW_ERROR_INPUT naming the open edge's coordinates), a flipped triangle,
 * bad spacings, an absurd grid and a room in millimetres read as metres
 * (RW_ERROR_MEMORY before anything is allocated, the latter with the units
 * hint), a lattice with no outside layer, a model thinner than a cell —
 * and, FCC's own case, a column one cell wide: the cubic grid has its
 * cells, but no site has a neighbour among the 12 (RW_ERROR_INPUT).
 * rw_voxel_memory_bytes_fcc: at least the cubic grid's dense arrays (the
 * FCC grid keeps the same array), more than rw_voxel_memory_bytes (the
 * triangle buckets). */
#include "rw-test.h"
#include <string.h>
#include "rw-shapes.h"
#include "rw-voxel.h"

/* box without triangle `drop`, or with triangle `flip` wound the other way */
static RwMesh *
broken_box (size_t drop, size_t flip)
{
  RwMesh *full = rw_shape_box (4.0, 3.0, 2.5), *m = rw_mesh_new ();
  for (size_t s = 0; s < full->n_surfaces; s++)
    rw_mesh_add_surface (m, full->surface_names[s]);
  for (size_t v = 0; v < full->n_vertices; v++)
    rw_mesh_add_vertex (m, full->xyz[3 * v], full->xyz[3 * v + 1], full->xyz[3 * v + 2]);
  for (size_t t = 0; t < full->n_triangles; t++)
    {
      const uint32_t *tv = full->tri + 3 * t;
      if (t == drop)
        continue;
      if (t == flip)
        rw_mesh_add_triangle (m, tv[0], tv[2], tv[1], full->tri_surface[t]);
      else
        rw_mesh_add_triangle (m, tv[0], tv[1], tv[2], full->tri_surface[t]);
    }
  rw_mesh_free (full);
  return m;
}

static void
expect_refused (RwGrid *g, RwError *err, RwErrorCode code, const char *needle, const char *what)
{
  RW_NOTE ("%s: %s", what, err->message);
  RW_CHECK (g == NULL, "%s: a grid was made", what);
  RW_CHECK (err->code == code, "%s: code %d, expected %d", what, err->code, code);
  if (needle)
    RW_CHECK (strstr (err->message, needle) != NULL, "%s: no \"%s\" in: %s", what, needle, err->message);
  rw_grid_free (g);
  rw_error_clear (err);
}

int
main (void)
{
  RwError err = { 0 };
  /* the ceiling's second triangle (0,0,2.5) (4,3,2.5) (0,3,2.5) missing */
  RwMesh *open = broken_box (3, SIZE_MAX);
  expect_refused (rw_voxelise_fcc (open, 0.1, 0, &err), &err, RW_ERROR_INPUT, "2.500", "open box");
  RwMesh *flip = broken_box (SIZE_MAX, 5);
  expect_refused (rw_voxelise_fcc (flip, 0.1, 0, &err), &err, RW_ERROR_INPUT, NULL, "flipped triangle");

  RwMesh *full = rw_shape_box (4.0, 3.0, 2.5);
  const double bad[] = { 0.0, -0.1, NAN, INFINITY };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    expect_refused (rw_voxelise_fcc (full, bad[i], 0, &err), &err, RW_ERROR_INPUT, "spacing", "bad spacing");
  /* 3·10¹⁶ cells: refused before any estimate */
  expect_refused (rw_voxelise_fcc (full, 1e-5, 0, &err), &err, RW_ERROR_MEMORY, "cells", "absurd grid");
  const double origin[3] = { 0.05, -0.25, -0.25 };
  const size_t n[3] = { 50, 50, 50 };
  expect_refused (rw_voxelise_fcc_lattice (full, 0.1, origin, n, 0, &err), &err, RW_ERROR_INPUT, NULL,
                  "lattice without an outside layer");

  /* 6 km long: 9·10¹² cells, 25 TiB by the estimate, refused by it */
  RwMesh *mm = rw_shape_box (6000, 4000, 3000);
  RW_CHECK (rw_voxel_memory_bytes_fcc (mm, 0.2) > ((size_t) 1 << 44), "millimetre room: estimate %zu",
            rw_voxel_memory_bytes_fcc (mm, 0.2));
  expect_refused (rw_voxelise_fcc (mm, 0.2, 0, &err), &err, RW_ERROR_MEMORY, "0.001", "millimetres as metres");

  RwMesh *thin = rw_shape_box (2.0, 1.0, 0.01);
  expect_refused (rw_voxelise_fcc (thin, 0.1, 0, &err), &err, RW_ERROR_INPUT, NULL, "thinner than a cell");
  /* a column of 1 × 1 × 10 cells: ten cubic cells, no FCC site with a
   * neighbour (every offset steps off the column in x or y) */
  RwMesh *column = rw_shape_box (0.1, 0.1, 1.0);
  RwGrid *cubic = rw_voxelise (column, 0.1, 0, &err);
  RW_CHECK (cubic != NULL && cubic->n_inside == 10, "column: the cubic grid has %zu cells",
            cubic ? cubic->n_inside : 0);
  rw_grid_free (cubic);
  expect_refused (rw_voxelise_fcc (column, 0.1, 0, &err), &err, RW_ERROR_INPUT, NULL, "a column one cell wide");

  /* the estimate: the cubic array (3 bytes a cell, 44 × 34 × 29 at 0.1 m)
   * and more than the cubic voxeliser's */
  size_t fcc = rw_voxel_memory_bytes_fcc (full, 0.1), cub = rw_voxel_memory_bytes (full, 0.1);
  RW_NOTE ("memory at h = 0.1 m: FCC %zu bytes, cubic %zu", fcc, cub);
  RW_CHECK (fcc >= 3 * 44 * 34 * 29 && fcc > cub && fcc < 2 * cub, "memory estimate %zu (cubic %zu)", fcc, cub);
  RW_CHECK (rw_voxel_memory_bytes_fcc (NULL, 0.1) == 0 && rw_voxel_memory_bytes_fcc (full, -1) == 0,
            "no estimate for no mesh or a bad spacing");

  rw_mesh_free (open);
  rw_mesh_free (flip);
  rw_mesh_free (full);
  rw_mesh_free (mm);
  rw_mesh_free (thin);
  rw_mesh_free (column);
  return rw_test_finish ();
}
