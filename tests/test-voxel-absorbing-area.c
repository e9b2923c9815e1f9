/* SPDX-License-Identifier: GPL-3.0-or-later */
/* voxel-absorbing-area: the grid's absorbing area per surface
 * (RwGrid.surface_area_m2, Σ of the boundary nodes' area · h²) matches the
 * mesh's own area per surface (RwMeshReport.surface_area_m2, the sum of
 * its triangles) within 2 %, where counting cell faces overstates a sloped
 * surface by Σ |n_d| (cos θ + sin θ = 1.366 at 30°, √3 on a (1,1,1)
 * plane): the hall (splayed walls, raked floor, sloped ceiling, faceted
 * rear wall) at h = 0.2 m, a room with a 30° ceiling at h = 0.05 m, a
 * tetrahedral corner whose diagonal face is the (1,1,1) plane at
 * h = 0.05 m. A box has area == 6 − K on every node, exactly, voxelised
 * or built by rw_grid_new_box. Every node's area lies in [0, 6 − K], the
 * array is the same with 1 and 2 threads, and rw_voxel_memory_bytes
 * covers what the grid allocates. */
#include "rw-test.h"
#include <stdlib.h>
#include <string.h>
#include "rw-shapes.h"
#include "rw-voxel.h"
#include "test-voxel-common.h"

/* Every node's area in [0, 6 − K]; with exact, every one == 6 − K. */
static void
check_nodes (const RwGrid *g, bool exact, const char *what)
{
  size_t b = 0, out_of_range = 0, not_exact = 0;
  const size_t n = g->nx * g->ny * g->nz;
  for (size_t i = 0; i < n; i++)
    if (g->K[i] > 0 && g->K[i] < 6)
      {
        float s = g->area[b++];
        out_of_range += !(s >= 0 && s <= 6 - g->K[i]);
        not_exact += s != (float) (6 - g->K[i]);
      }
  RW_CHECK (b == g->n_boundary, "%s: %zu nodes, n_boundary %zu", what, b, g->n_boundary);
  RW_CHECK (out_of_range == 0, "%s: %zu nodes with an area outside [0, 6 − K]", what, out_of_range);
  if (exact)
    RW_CHECK (not_exact == 0, "%s: %zu nodes with an area other than 6 − K", what, not_exact);
}

/* Per surface at least min_cells h² large: |voxel/mesh − 1| ≤ 2 %; the
 * uncorrected face count printed beside it. Returns the largest ratio of
 * the face count to the mesh area seen (how much was corrected). */
static double
check_areas (RwMesh *m, double h, double min_cells, const char *what)
{
  RwError err = { 0 };
  RwMeshReport r;
  double worst_faces = 0;
  RW_CHECK (rw_mesh_report (m, &r, &err), "%s: %s", what, err.message);
  RwGrid *g = rw_voxelise (m, h, 0, &err);
  RW_CHECK (g != NULL, "%s: %s", what, err.message);
  if (g == NULL)
    {
      rw_mesh_report_clear (&r);
      return 0;
    }
  check_nodes (g, false, what);
  size_t allocated = 3 * g->nx * g->ny * g->nz + 8 * g->nx * g->ny + 4 * g->n_boundary + 8 * g->n_surfaces;
  RW_CHECK (rw_voxel_memory_bytes (m, h) >= allocated, "%s: memory estimate %zu under the grid's %zu bytes",
            what, rw_voxel_memory_bytes (m, h), allocated);
  RW_NOTE ("%s at h = %g m (%zu boundary nodes): surface, mesh m², absorbing m² (ratio), faces m² (ratio)",
           what, h, g->n_boundary);
  double total = 0, *face_area = calloc (m->n_surfaces, sizeof (double));
  rw_grid_face_areas_m2 (g, face_area);
  for (size_t s = 0; s < m->n_surfaces; s++)
    {
      double mesh = r.surface_area_m2[s], vox = g->surface_area_m2[s], faces = face_area[s];
      total += vox;
      RW_NOTE ("  %-16s %9.3f %9.3f (%.4f) %9.3f (%.4f)", m->surface_names[s], mesh, vox, vox / mesh, faces,
               faces / mesh);
      if (mesh < min_cells * h * h)
        continue;
      worst_faces = fmax (worst_faces, faces / mesh);
      RW_CHECK (fabs (vox / mesh - 1) <= 0.02, "%s: %s absorbs over %.3f m², the mesh has %.3f m² (%+.2f %%)",
                what, m->surface_names[s], vox, mesh, 100 * (vox / mesh - 1));
    }
  /* the per-surface totals are the nodes' areas, every node on a surface */
  double sum = 0;
  for (size_t b = 0; b < g->n_boundary; b++)
    sum += g->area[b];
  RW_CHECK_CLOSE (total, sum * h * h, 1e-9 * total, "Σ surface_area_m2 = Σ area·h²");
  free (face_area);
  rw_grid_free (g);
  rw_mesh_report_clear (&r);
  return worst_faces;
}

int
main (void)
{
  /* The hall: each surface at least 100 m² (the ceiling and floor
   * ~ 500 m², the rear wall's facets together ~ 200 m²). */
  RwMesh *hall = rw_shape_hall (30, 20, 12, 8);
  double f = check_areas (hall, 0.2, 400, "hall");
  RW_NOTE ("hall: faces overstate a surface by up to %.3f×", f);
  RW_CHECK (f > 1.05, "hall: the face count should overstate its oblique walls (%.3f)", f);

  /* 30° ceiling: the face count gives cos 30° + sin 30° = 1.366 times the
   * ceiling; side lengths not whole cells, so no wall lies exactly
   * between two planes of centres. */
  RwMesh *slope = rw_shape_sloped_ceiling (6.03, 4.07, 2.51, 30);
  f = check_areas (slope, 0.05, 400, "30° ceiling");
  RW_CHECK (fabs (f - (cos (M_PI / 6) + sin (M_PI / 6))) < 0.03, "30° ceiling: faces / area %.4f, expected 1.366", f);
  /* the ceiling is the surface the correction is about: also at h = 0.1 m */
  check_areas (slope, 0.1, 400, "30° ceiling");

  /* the (1,1,1) plane: √3 uncorrected */
  RwMesh *corner = test_corner_tetrahedron (4.0);
  f = check_areas (corner, 0.05, 400, "(1,1,1) corner");
  RW_CHECK (fabs (f - sqrt (3.0)) < 0.1, "(1,1,1) corner: faces / area %.4f, expected √3", f);

  /* a box: every face square to an axis, so area == 6 − K on every node */
  RwMesh *box = rw_shape_box (3.1, 2.3, 1.7);
  RwError err = { 0 };
  RwGrid *g = rw_voxelise (box, 0.1, 0, &err);
  RW_CHECK (g != NULL, "box: %s", err.message);
  if (g)
    check_nodes (g, true, "voxelised box");
  rw_grid_free (g);
  check_areas (box, 0.1, 0, "box");
  RwGrid *nb = rw_grid_new_box (7, 5, 4, 0.1);
  RW_CHECK (nb != NULL, "rw_grid_new_box");
  if (nb)
    {
      check_nodes (nb, true, "rw_grid_new_box");
      /* the faces of a 0.7 × 0.5 × 0.4 m box */
      RW_CHECK_CLOSE (nb->surface_area_m2[0], 2 * (0.7 * 0.5 + 0.7 * 0.4 + 0.5 * 0.4), 1e-9, "box area");
    }
  rw_grid_free (nb);
  RwGrid *slab = rw_grid_new_box (5, 1, 3, 0.1);
  RW_CHECK (slab != NULL, "rw_grid_new_box slab");
  if (slab)
    check_nodes (slab, true, "rw_grid_new_box slab");
  rw_grid_free (slab);

  /* the same areas with 1 and 2 threads */
  RwGrid *g1 = rw_voxelise (hall, 0.3, 1, &err), *g2 = rw_voxelise (hall, 0.3, 2, &err);
  RW_CHECK (g1 && g2, "%s", err.message);
  if (g1 && g2)
    {
      RW_CHECK (g1->n_boundary == g2->n_boundary
                && memcmp (g1->area, g2->area, g1->n_boundary * sizeof (float)) == 0,
                "areas differ between 1 and 2 threads");
      RW_CHECK (memcmp (g1->surface_area_m2, g2->surface_area_m2, g1->n_surfaces * sizeof (double)) == 0,
                "surface totals differ between 1 and 2 threads");
    }
  rw_grid_free (g1);
  rw_grid_free (g2);
  rw_mesh_free (hall);
  rw_mesh_free (slope);
  rw_mesh_free (corner);
  rw_mesh_free (box);
  return rw_test_finish ();
}
