/* SPDX-License-Identifier: GPL-3.0-or-later */
/* voxel-open-mesh-refused: a box with one triangle missing is refused with
 * RW_ERROR_INPUT and a message naming where it leaks (the coordinates of an
 * open edge); bad spacings are refused with RW_ERROR_INPUT, an absurd grid
 * with RW_ERROR_MEMORY naming the cell count (and, for a model kilometres
 * long, the units hint), a mesh thinner than a cell
 * with RW_ERROR_INPUT, all without a grid. */
#include "rw-test.h"
#include <string.h>
#include "rw-shapes.h"
#include "rw-voxel.h"

int
main (void)
{
  RwMesh *full = rw_shape_box (4.0, 3.0, 2.5);
  RwMesh *open = rw_mesh_new ();
  for (size_t s = 0; s < full->n_surfaces; s++)
    rw_mesh_add_surface (open, full->surface_names[s]);
  for (size_t v = 0; v < full->n_vertices; v++)
    rw_mesh_add_vertex (open, full->xyz[3 * v], full->xyz[3 * v + 1], full->xyz[3 * v + 2]);
  /* drop the ceiling's second triangle: its three edges become open */
  for (size_t t = 0; t < full->n_triangles; t++)
    if (t != 3)
      rw_mesh_add_triangle (open, full->tri[3 * t], full->tri[3 * t + 1], full->tri[3 * t + 2],
                            full->tri_surface[t]);

  RwError err = { 0 };
  RwGrid *g = rw_voxelise (open, 0.1, 0, &err);
  RW_NOTE ("open box: %s", err.message);
  RW_CHECK (g == NULL, "an open mesh was voxelised");
  RW_CHECK (err.code == RW_ERROR_INPUT, "code %d", err.code);
  /* the missing triangle is (0,0,2.5) (4,3,2.5) (0,3,2.5): its edges run
   * between those corners, which the message must show */
  RW_CHECK (strstr (err.message, "2.500") != NULL, "no coordinates in: %s", err.message);
  RW_CHECK (strstr (err.message, "4.000") != NULL || strstr (err.message, "3.000") != NULL,
            "no corner of the hole in: %s", err.message);
  rw_grid_free (g);

  /* a mesh turned inside out by one flipped triangle is not closed either */
  RwMesh *flip = rw_mesh_new ();
  for (size_t s = 0; s < full->n_surfaces; s++)
    rw_mesh_add_surface (flip, full->surface_names[s]);
  for (size_t v = 0; v < full->n_vertices; v++)
    rw_mesh_add_vertex (flip, full->xyz[3 * v], full->xyz[3 * v + 1], full->xyz[3 * v + 2]);
  for (size_t t = 0; t < full->n_triangles; t++)
    if (t == 5)
      rw_mesh_add_triangle (flip, full->tri[3 * t], full->tri[3 * t + 2], full->tri[3 * t + 1], full->tri_surface[t]);
    else
      rw_mesh_add_triangle (flip, full->tri[3 * t], full->tri[3 * t + 1], full->tri[3 * t + 2], full->tri_surface[t]);
  rw_error_clear (&err);
  g = rw_voxelise (flip, 0.1, 0, &err);
  RW_NOTE ("flipped triangle: %s", err.message);
  RW_CHECK (g == NULL && err.code == RW_ERROR_INPUT, "misoriented mesh: code %d", err.code);
  rw_grid_free (g);

  const double bad[] = { 0.0, -0.1, NAN, INFINITY };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
      rw_error_clear (&err);
      g = rw_voxelise (full, bad[i], 0, &err);
      RW_CHECK (g == NULL && err.code == RW_ERROR_INPUT, "spacing %g: code %d", bad[i], err.code);
      RW_CHECK (strstr (err.message, "spacing") != NULL, "spacing %g: %s", bad[i], err.message);
    }

  /* 4 × 3 × 2.5 m at 10 µm: 3·10¹³ cells */
  rw_error_clear (&err);
  g = rw_voxelise (full, 1e-5, 0, &err);
  RW_NOTE ("absurd grid: %s", err.message);
  RW_CHECK (g == NULL && err.code == RW_ERROR_MEMORY, "absurd grid: code %d", err.code);
  RW_CHECK (strstr (err.message, "GiB") != NULL || strstr (err.message, "cells") != NULL,
            "absurd grid: %s", err.message);
  RW_CHECK (rw_voxel_memory_bytes (full, 1e-5) > (size_t) 1 << 40, "memory estimate %zu",
            rw_voxel_memory_bytes (full, 1e-5));
  /* at 0.1 m: 44 × 34 × 29 cells, 3 bytes each plus the columns and the scan */
  size_t bytes = rw_voxel_memory_bytes (full, 0.1);
  RW_NOTE ("memory at h = 0.1 m: %zu bytes", bytes);
  RW_CHECK (bytes >= 3 * 44 * 34 * 29 && bytes < 4 * 3 * 44 * 34 * 29, "memory estimate %zu", bytes);

  /* a lattice that leaves no outside layer */
  const double origin[3] = { 0.05, -0.25, -0.25 };
  const size_t n[3] = { 50, 50, 50 };
  rw_error_clear (&err);
  g = rw_voxelise_lattice (full, 0.1, origin, n, 0, &err);
  RW_NOTE ("lattice without an outside layer: %s", err.message);
  RW_CHECK (g == NULL && err.code == RW_ERROR_INPUT, "lattice: code %d", err.code);

  /* a room in millimetres read as metres: 6 km long, 9·10¹² cells */
  RwMesh *mm = rw_shape_box (6000, 4000, 3000);
  rw_error_clear (&err);
  g = rw_voxelise (mm, 0.2, 0, &err);
  RW_NOTE ("millimetres as metres: %s", err.message);
  RW_CHECK (g == NULL && err.code == RW_ERROR_MEMORY, "millimetre room: code %d", err.code);
  RW_CHECK (strstr (err.message, "0.001") != NULL, "no units hint in: %s", err.message);
  rw_grid_free (g);
  rw_mesh_free (mm);

  /* a closed mesh thinner than a cell: no air at all */
  RwMesh *thin = rw_shape_box (2.0, 1.0, 0.01);
  rw_error_clear (&err);
  g = rw_voxelise (thin, 0.1, 0, &err);
  RW_NOTE ("thinner than a cell: %s", err.message);
  RW_CHECK (g == NULL && err.code == RW_ERROR_INPUT, "thin box: code %d", err.code);
  rw_grid_free (g);
  rw_mesh_free (thin);

  rw_mesh_free (open);
  rw_mesh_free (flip);
  rw_mesh_free (full);
  return rw_test_finish ();
}
