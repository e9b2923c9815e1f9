/* SPDX-License-Identifier: GPL-3.0-or-later */
/* voxel-fcc-volume: the FCC grid's air volume n_inside·2h³ (an FCC site's
 * cell, a rhombic dodecahedron, is 2h³) within 2 % of the mesh's own
 * volume for a box, an L-room (also turned obliquely to every axis), an
 * icosphere (against the polyhedron's volume by the divergence theorem)
 * and a room with a pillar; exact for a box of whole cells with an even
 * cell count (half its cells are sites). */
#include "rw-test.h"
#include "rw-shapes.h"
#include "rw-voxel.h"
#include "test-voxel-common.h"

/* Within 2 % of v (the shape's formula) and of the mesh's own volume;
 * exactly v when exact. */
static void
check (RwMesh *m, double v, double h, bool exact, const char *what)
{
  RwError err = { 0 };
  RW_CHECK (m != NULL, "%s: no mesh", what);
  if (m == NULL)
    return;
  RW_CHECK_CLOSE (test_mesh_volume (m), v, 1e-6 * v, "mesh volume = formula");
  RwGrid *g = rw_voxelise_fcc (m, h, 0, &err);
  RW_CHECK (g != NULL, "%s: %s", what, err.message);
  if (g)
    {
      double got = rw_grid_air_volume_m3 (g);
      RW_NOTE ("%s, h = %g m: %zu sites, %.4f m³ vs %.4f m³ (%+.3f %%)", what, h, g->n_inside, got, v,
               100 * (got / v - 1));
      RW_CHECK (g->lattice == RW_LATTICE_FCC, "%s: lattice %d", what, g->lattice);
      RW_CHECK_CLOSE (got, v, 0.02 * v, "air volume within 2 %");
      if (exact)
        RW_CHECK_CLOSE (got, v, 1e-9 * v, "whole cells: exact");
    }
  rw_grid_free (g);
  rw_mesh_free (m);
}

int
main (void)
{
  /* box: 40 × 30 × 25 cells (even count: exactly half are sites), and
   * sides that are not whole cells */
  check (rw_shape_box (4.0, 3.0, 2.5), 30.0, 0.1, true, "box 4 × 3 × 2.5 m");
  check (rw_shape_box (3.13, 2.27, 1.71), 3.13 * 2.27 * 1.71, 0.05, false, "box 3.13 × 2.27 × 1.71 m");
  check (rw_shape_box (3.13, 2.27, 1.71), 3.13 * 2.27 * 1.71, 0.1, false, "box 3.13 × 2.27 × 1.71 m");
  /* L-rooms */
  check (rw_shape_lroom (8, 6, 3, 5, 3.5), (48 - 3 * 2.5) * 3, 0.1, true, "L-room 8 × 6 × 3 m");
  check (rw_shape_lroom (7.33, 5.21, 2.87, 4.11, 2.93), (7.33 * 5.21 - 3.22 * 2.28) * 2.87, 0.05, false,
         "L-room 7.33 × 5.21 × 2.87 m");
  check (test_rotated_lroom (), (30.0 - 2.5 * 2.8) * 3.0, 0.05, false, "L-room turned 17° about z, 23° about x");
  /* icospheres: against the polyhedron's volume */
  const struct { double r; int sub; double h; } sph[] = { { 1.5, 4, 0.05 }, { 1.5, 3, 0.1 }, { 0.8, 5, 0.04 } };
  for (size_t i = 0; i < sizeof sph / sizeof sph[0]; i++)
    {
      RwMesh *m = rw_shape_sphere (sph[i].r, sph[i].sub);
      char what[64];
      snprintf (what, sizeof what, "icosphere r = %g m, %d subdivisions", sph[i].r, sph[i].sub);
      check (m, m ? test_mesh_volume (m) : 1, sph[i].h, false, what);
    }
  /* pillar rooms */
  check (rw_shape_box_with_pillar (6, 5, 3, 2, 2, 1), (30 - 1) * 3, 0.1, true, "pillar room 6 × 5 × 3 m");
  check (rw_shape_box_with_pillar (6.37, 4.91, 2.73, 2.13, 1.77, 0.71), (6.37 * 4.91 - 0.71 * 0.71) * 2.73,
         0.05, false, "pillar room 6.37 × 4.91 × 2.73 m");
  return rw_test_finish ();
}
