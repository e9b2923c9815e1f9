/* SPDX-License-Identifier: GPL-3.0-or-later */
/* voxel-fcc-area: the FCC grid's absorbing area per surface
 * (RwGrid.surface_area_m2, Σ area·h² over the boundary sites, each
 * missing link counting (1/√2)|n̂·d̂| per wall it crosses) against the
 * mesh's own area per surface (RwMeshReport.surface_area_m2).
 *
 * - A box of whole cells on the lattice of rw_grid_new_box_fcc: the same
 *   grid, site for site (K, surface, area), and the total exact.
 * - Boxes voxelised on their automatic lattice: with an even number of
 *   cells along every side the total is exact (10⁻⁹); with odd counts an
 *   edge's crossing points alternate between sites and gaps, h²/4 per
 *   edge and wall either way; each wall within 2 % (edge sites are drawn
 *   among the walls they touch). A box whose sides are not whole cells
 *   against the box the lattice holds (round (e/h) cells a side), as the
 *   cells cannot tell the rest; twelve boxes off the lattice on average
 *   within 0.5 % of their mesh (the corner cutters of rw-voxel.c).
 * - Two overlapping boxes: the union's volume, its area within 1 %.
 * - A 30° ceiling, the (1,1,1) plane of a corner tetrahedron, the hall:
 *   within 2 % per surface at h = 0.05 m (hall 0.2 m), where counting faces
 *   ((12 − K)/2 per site) gives an oblique plane Σ₆ |n̂·d̂| / (2√2) times
 *   its area (1.116 at 30°, 0.866 on (1,1,1)): the face ratio is checked
 *   against that number, so the rooms test what they claim. The 30° room
 *   at h = 0.1 m too (measured −1.3 … +1.4 %).
 * - Icospheres within 1 % (measured: within 0.1 %).
 * - rw_voxel_memory_bytes_fcc covers what the grid allocates. */
#include "rw-test.h"
#include <stdlib.h>
#include <string.h>
#include "rw-shapes.h"
#include "rw-voxel.h"
#include "test-voxel-common.h"
#include "test-mesh-common.h"

/* rw_shape_box with all six walls on one surface, as rw_grid_new_box_fcc
 * has them. */
static RwMesh *
box_one_surface (double lx, double ly, double lz)
{
  RwMesh *b = rw_shape_box (lx, ly, lz), *m = rw_mesh_new ();
  rw_mesh_add_surface (m, "walls");
  for (size_t v = 0; v < b->n_vertices; v++)
    rw_mesh_add_vertex (m, b->xyz[3 * v], b->xyz[3 * v + 1], b->xyz[3 * v + 2]);
  for (size_t t = 0; t < b->n_triangles; t++)
    rw_mesh_add_triangle (m, b->tri[3 * t], b->tri[3 * t + 1], b->tri[3 * t + 2], 0);
  rw_mesh_free (b);
  return m;
}

/* The face count's ratio to the area of a plane of unit normal n: each
 * of the 6 link directions crosses it |n·o|/(√2 h²)·… — Σ₆ |n̂·d̂| / (2√2),
 * d̂ = o/√2 (docs/VOXELISER.md). */
static double
plane_face_ratio (const double n[3])
{
  static const int o[6][3] = { { 1, 1, 0 }, { 1, -1, 0 }, { 1, 0, 1 }, { 1, 0, -1 }, { 0, 1, 1 }, { 0, 1, -1 } };
  double len = sqrt (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]), sum = 0;
  for (int d = 0; d < 6; d++)
    sum += fabs (n[0] * o[d][0] + n[1] * o[d][1] + n[2] * o[d][2]) / (len * sqrt (2.0));
  return sum / (2 * sqrt (2.0));
}

/* Per surface at least min_cells h² large: |grid/ref − 1| ≤ tol, ref the
 * mesh's area of the surface or ref_m2[s]. Returns the face-count / mesh
 * ratio of surface `probe`; *total_ratio the grid's total over the
 * reference total. */
static double
check_areas (RwMesh *m, double h, double tol, double min_cells, const double *ref_m2, size_t probe,
             double *total_ratio, const char *what)
{
  RwError err = { 0 };
  RwMeshReport r;
  double worst_faces = 0;
  RW_CHECK (rw_mesh_report (m, &r, &err), "%s: %s", what, err.message);
  RwGrid *g = rw_voxelise_fcc (m, h, 0, &err);
  RW_CHECK (g != NULL, "%s: %s", what, err.message);
  if (g == NULL)
    {
      rw_mesh_report_clear (&r);
      return 0;
    }
  size_t allocated = 3 * g->nx * g->ny * g->nz + 8 * g->nx * g->ny + 4 * g->n_boundary + 8 * g->n_surfaces;
  RW_CHECK (rw_voxel_memory_bytes_fcc (m, h) >= allocated, "%s: memory estimate %zu under the grid's %zu bytes",
            what, rw_voxel_memory_bytes_fcc (m, h), allocated);
  RW_NOTE ("%s at h = %g m (%zu boundary sites): surface, mesh m², absorbing m² (ratio), faces m² (ratio)",
           what, h, g->n_boundary);
  double total = 0, mesh_total = 0, *face_area = calloc (m->n_surfaces, sizeof (double));
  rw_grid_face_areas_m2 (g, face_area);
  for (size_t s = 0; s < m->n_surfaces; s++)
    {
      double mesh = ref_m2 ? ref_m2[s] : r.surface_area_m2[s], vox = g->surface_area_m2[s], faces = face_area[s];
      total += vox;
      mesh_total += mesh;
      RW_NOTE ("  %-16s %9.3f %9.3f (%.4f) %9.3f (%.4f)", m->surface_names[s], mesh, vox, vox / mesh, faces,
               faces / mesh);
      if (s == probe)
        worst_faces = faces / mesh;
      if (mesh < min_cells * h * h)
        continue;
      RW_CHECK (fabs (vox / mesh - 1) <= tol, "%s: %s absorbs over %.3f m², the mesh has %.3f m² (%+.2f %%)",
                what, m->surface_names[s], vox, mesh, 100 * (vox / mesh - 1));
    }
  RW_NOTE ("  %-16s %9.3f %9.3f (%.4f)", "total", mesh_total, total, total / mesh_total);
  *total_ratio = total / mesh_total;
  double sum = 0;
  for (size_t b = 0; b < g->n_boundary; b++)
    sum += g->area[b];
  RW_CHECK_CLOSE (total, sum * h * h, 1e-9 * total, "Σ surface_area_m2 = Σ area·h²");
  free (face_area);
  rw_grid_free (g);
  rw_mesh_report_clear (&r);
  return worst_faces;
}

/* rw_voxelise_fcc_lattice of a box of whole cells on rw_grid_new_box_fcc's
 * lattice (cell (0,0,0) at −h/2, one outside layer): the same grid. */
static void
check_box_matches_new_box (size_t nx, size_t ny, size_t nz, double h)
{
  RwMesh *m = box_one_surface ((double) nx * h, (double) ny * h, (double) nz * h);
  const double origin[3] = { -0.5 * h, -0.5 * h, -0.5 * h };
  const size_t n[3] = { nx + 2, ny + 2, nz + 2 };
  RwError err = { 0 };
  RwGrid *g = rw_voxelise_fcc_lattice (m, h, origin, n, 0, &err);
  RwGrid *ref = rw_grid_new_box_fcc (nx, ny, nz, h);
  RW_CHECK (g != NULL, "box %zu × %zu × %zu: %s", nx, ny, nz, err.message);
  RW_CHECK (ref != NULL, "rw_grid_new_box_fcc");
  if (g && ref)
    {
      RW_CHECK (g->nx == ref->nx && g->ny == ref->ny && g->nz == ref->nz, "dimensions differ");
      size_t cells = g->nx * g->ny * g->nz, bad_k = 0, bad_s = 0, bad_a = 0;
      for (size_t i = 0; i < cells; i++)
        {
          bad_k += g->K[i] != ref->K[i];
          bad_s += g->surface[i] != ref->surface[i];
        }
      RW_CHECK (g->n_boundary == ref->n_boundary && g->n_inside == ref->n_inside,
                "box %zu × %zu × %zu: %zu/%zu sites, %zu/%zu boundary (voxelised/built)", nx, ny, nz,
                g->n_inside, ref->n_inside, g->n_boundary, ref->n_boundary);
      for (size_t b = 0; b < g->n_boundary && b < ref->n_boundary; b++)
        bad_a += g->area[b] != ref->area[b];
      RW_NOTE ("box %zu × %zu × %zu cells, h = %g: %zu sites, %zu boundary; differing K %zu, surface %zu, "
               "area %zu; total %.6f m² (built %.6f, walls %.6f)", nx, ny, nz, h, g->n_inside, g->n_boundary,
               bad_k, bad_s, bad_a, g->surface_area_m2[0], ref->surface_area_m2[0],
               2 * h * h * (double) (nx * ny + nx * nz + ny * nz));
      RW_CHECK (bad_k == 0 && bad_s == 0 && bad_a == 0, "box %zu × %zu × %zu: K %zu, surface %zu, area %zu differ",
                nx, ny, nz, bad_k, bad_s, bad_a);
      /* exact unless every side is an odd number of cells: then each of
       * the 24 (edge, wall) pairs is h²/4 off (the edge's crossing points
       * alternate between sites and gaps, one more of one kind) */
      double walls = 2 * h * h * (double) (nx * ny + nx * nz + ny * nz);
      double tol = (nx % 2 && ny % 2 && nz % 2) ? 24 * 0.25 * h * h + 1e-9 : 1e-9 * walls;
      RW_CHECK_CLOSE (g->surface_area_m2[0], walls, tol, "voxelised box: total wall area");
    }
  rw_grid_free (g);
  rw_grid_free (ref);
  rw_mesh_free (m);
}

/* The walls of the box the lattice holds: round (e/h)·h a side, in
 * rw_shape_box's surface order. */
static void
held_box_walls (double lx, double ly, double lz, double h, double out[6])
{
  double x = round (lx / h) * h, y = round (ly / h) * h, z = round (lz / h) * h;
  const double w[6] = { x * y, x * y, y * z, y * z, x * z, x * z };
  memcpy (out, w, sizeof w);
}

int
main (void)
{
  double total, f;
  check_box_matches_new_box (7, 5, 4, 0.1);
  check_box_matches_new_box (6, 6, 6, 0.25);
  check_box_matches_new_box (7, 5, 3, 0.1);
  check_box_matches_new_box (2, 3, 2, 0.1);

  /* boxes on the automatic lattice: even counts (total exact), odd counts
   * (h²/4 per edge and wall), sides not whole cells */
  RwMesh *box = rw_shape_box (3.2, 2.4, 1.8);
  check_areas (box, 0.05, 0.02, 0, NULL, 0, &total, "box 3.2 × 2.4 × 1.8 m");
  RW_CHECK_CLOSE (total, 1.0, 1e-9, "box of an even number of cells a side: total exact");
  /* at h = 0.1 m the walls hold 432–768 h², and an edge site (area 4 h²,
   * half on each wall) goes whole to one: within 4 % (measured +3.2 %) */
  check_areas (box, 0.1, 0.04, 0, NULL, 0, &total, "box 3.2 × 2.4 × 1.8 m");
  RW_CHECK_CLOSE (total, 1.0, 1e-9, "box of an even number of cells a side: total exact");
  RwMesh *box_odd = rw_shape_box (3.1, 2.3, 1.7);
  check_areas (box_odd, 0.05, 0.02, 0, NULL, 0, &total, "box 3.1 × 2.3 × 1.7 m");
  RW_CHECK_CLOSE (total, 1.0, 1e-9, "box of even cell counts (62 × 46 × 34): total exact");
  check_areas (box_odd, 0.1, 0.04, 0, NULL, 0, &total, "box 3.1 × 2.3 × 1.7 m");
  /* 31 × 23 × 17 cells: 24 (edge, wall) pairs, h²/4 each, of 32.62 m² */
  RW_CHECK (fabs (total - 1) * 32.62 <= 24 * 0.25 * 0.01 + 1e-9, "box of odd cell counts: total %.6f", total);
  /* sides not whole cells: against the box the lattice holds (the cells
   * cannot tell the rest): each wall within 2 % (measured −1.1 … +0.7 %),
   * the total within 0.5 % (−0.12 %; −1.1 % without the corner cutters) */
  RwMesh *odd = rw_shape_box (3.13, 2.27, 1.71);
  double held[6];
  held_box_walls (3.13, 2.27, 1.71, 0.05, held);
  check_areas (odd, 0.05, 0.02, 0, held, 0, &total, "box 3.13 × 2.27 × 1.71 m against the held box");
  RW_CHECK (fabs (total - 1) <= 0.005, "box not of whole cells: total %.4f of the held box", total);

  /* Boxes of twelve sizes off the lattice (a fixed sequence), h = 0.1 m:
   * the total absorbing area over the mesh's, on average within 0.5 % (a
   * convex edge off the lattice lines loses its corner cutters' weight
   * without rw-voxel.c's cutter rule: −1.5 % on average) and each within
   * 2.5 % (as the cubic voxeliser's: the lattice holds round (e/h) cells) */
  {
    double mean = 0, worst = 0;
    uint32_t r = 12345;
    for (int i = 0; i < 12; i++)
      {
        double side[3];
        for (int k = 0; k < 3; k++)
          {
            r = r * 1664525u + 1013904223u;
            side[k] = 1.5 + 2.0 * (double) (r >> 8) / 16777216.0;
          }
        RwMesh *b = rw_shape_box (side[0], side[1], side[2]);
        RwError err = { 0 };
        RwGrid *g = rw_voxelise_fcc (b, 0.1, 0, &err);
        RW_CHECK (g != NULL, "%s", err.message);
        double sum = 0, mesh = 2 * (side[0] * side[1] + side[0] * side[2] + side[1] * side[2]);
        for (size_t s2 = 0; g && s2 < g->n_surfaces; s2++)
          sum += g->surface_area_m2[s2];
        mean += sum / mesh / 12;
        worst = fmax (worst, fabs (sum / mesh - 1));
        rw_grid_free (g);
        rw_mesh_free (b);
      }
    RW_NOTE ("twelve boxes off the lattice, h = 0.1 m: total / mesh %.4f on average, worst %.2f %%", mean,
             100 * worst);
    RW_CHECK (fabs (mean - 1) <= 0.005, "boxes off the lattice: total / mesh %.4f on average", mean);
    RW_CHECK (worst <= 0.025, "boxes off the lattice: one %.2f %% off", 100 * worst);
  }

  /* L-rooms of whole cells, even counts: the total exact, the re-entrant
   * edge's links counting both inner walls (rw-voxel.h) */
  RwMesh *lroom = rw_shape_lroom (6, 5, 3, 3.6, 2.2);
  check_areas (lroom, 0.1, 0.02, 0, NULL, 0, &total, "L-room 6 × 5 × 3 m");
  RW_CHECK_CLOSE (total, 1.0, 1e-9, "L-room of an even number of cells a side: total exact");
  rw_mesh_free (lroom);

  /* Two closed boxes drawn into each other (tests/data/meshes/two-boxes.obj,
   * 30 m³ each, 8 m³ in common): the union's 93.6 m². The inner faces'
   * edges lie on the floor, the ceiling and the outer walls exactly where
   * links cross them (h = 0.1 m), and count there as second walls:
   * within 1 % (measured +0.75 %; rw-voxel.c, link_walls). */
  {
    RwError err = { 0 };
    RwMesh *two = rw_mesh_load (mesh_test_path ("two-boxes.obj"), 1.0, &err);
    RW_CHECK (two != NULL, "%s", err.message);
    RwGrid *g = two ? rw_voxelise_fcc (two, 0.1, 0, &err) : NULL;
    RW_CHECK (g != NULL, "two boxes: %s", err.message);
    if (g)
      {
        double sum = 0;
        for (size_t s2 = 0; s2 < g->n_surfaces; s2++)
          sum += g->surface_area_m2[s2];
        RW_NOTE ("two overlapping boxes, h = 0.1 m: %.4f m³ (union 52), absorbing %.3f m² (union 93.6, %+.2f %%)",
                 rw_grid_air_volume_m3 (g), sum, 100 * (sum / 93.6 - 1));
        RW_CHECK_CLOSE (rw_grid_air_volume_m3 (g), 52.0, 1e-9, "two boxes: the union's volume");
        RW_CHECK (fabs (sum / 93.6 - 1) <= 0.01, "two boxes: absorbing %.3f m², union 93.6", sum);
      }
    rw_grid_free (g);
    rw_mesh_free (two);
  }

  /* 30° ceiling, sides not whole cells (ceiling = surface 1) */
  RwMesh *slope = rw_shape_sloped_ceiling (6.03, 4.07, 2.51, 30);
  const double n30[3] = { -sin (M_PI / 6), 0, cos (M_PI / 6) };
  f = check_areas (slope, 0.05, 0.02, 400, NULL, 1, &total, "30° ceiling");
  RW_NOTE ("30° ceiling: faces / area %.4f (a plane: %.4f)", f, plane_face_ratio (n30));
  RW_CHECK (fabs (f - plane_face_ratio (n30)) < 0.03, "30° ceiling: faces / area %.4f, expected %.4f", f,
            plane_face_ratio (n30));
  check_areas (slope, 0.1, 0.02, 400, NULL, 1, &total, "30° ceiling");
  /* the ceiling itself within 2 % at h = 0.1 m too */
  {
    RwError err = { 0 };
    RwMeshReport r;
    RwGrid *g = rw_voxelise_fcc (slope, 0.1, 0, &err);
    RW_CHECK (g != NULL && rw_mesh_report (slope, &r, &err), "%s", err.message);
    if (g)
      {
        RW_CHECK (fabs (g->surface_area_m2[1] / r.surface_area_m2[1] - 1) <= 0.02, "30° ceiling at h = 0.1: %.4f",
                  g->surface_area_m2[1] / r.surface_area_m2[1]);
        rw_mesh_report_clear (&r);
      }
    rw_grid_free (g);
  }

  /* the (1,1,1) plane (diagonal = surface 0) */
  RwMesh *corner = test_corner_tetrahedron (4.0);
  const double n111[3] = { 1, 1, 1 };
  f = check_areas (corner, 0.05, 0.02, 400, NULL, 0, &total, "(1,1,1) corner");
  RW_NOTE ("(1,1,1) corner: faces / area %.4f (a plane: %.4f)", f, plane_face_ratio (n111));
  RW_CHECK (fabs (f - plane_face_ratio (n111)) < 0.03, "(1,1,1): faces / area %.4f, expected %.4f", f,
            plane_face_ratio (n111));

  /* the hall: splayed walls, raked floor, sloped ceiling, faceted rear */
  RwMesh *hall = rw_shape_hall (30, 20, 12, 8);
  check_areas (hall, 0.2, 0.02, 400, NULL, 0, &total, "hall");

  /* spheres: every link direction, curvature */
  const struct { double r; int sub; double h; } sph[] = { { 1.5, 4, 0.05 }, { 1.5, 4, 0.1 }, { 0.8, 5, 0.04 },
                                                          { 2.0, 2, 0.1 } };
  for (size_t i = 0; i < sizeof sph / sizeof sph[0]; i++)
    {
      RwMesh *m = rw_shape_sphere (sph[i].r, sph[i].sub);
      char what[64];
      snprintf (what, sizeof what, "icosphere r = %g m, %d subdivisions", sph[i].r, sph[i].sub);
      check_areas (m, sph[i].h, 0.01, 0, NULL, 0, &total, what);
      rw_mesh_free (m);
    }

  rw_mesh_free (box);
  rw_mesh_free (box_odd);
  rw_mesh_free (odd);
  rw_mesh_free (slope);
  rw_mesh_free (corner);
  rw_mesh_free (hall);
  return rw_test_finish ();
}
