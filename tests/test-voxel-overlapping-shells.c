/* SPDX-License-Identifier: GPL-3.0-or-later */
/* voxel-overlapping-shells: two closed boxes drawn into each other are one
 * room, their union. A = [0,4]×[0,3]×[0,2.5] and B = A + (2.4, 1, 0), 30 m³
 * each, overlap 1.6 × 2 × 2.5 = 8 m³: the union is 52 m³, where the
 * divergence theorem says 60 and crossing parity makes the overlap solid.
 * The report gives the union's volume and the overlap (and names surfaces
 * inside another shell), the voxeliser fills the union, a point in the
 * overlap is inside (grid and rw_mesh_point_inside). And a box with inward
 * normals: the voxeliser fills it all the same, rw_mesh_orient_outward
 * flips it to a positive volume. Furniture (closed boxes nested in the
 * room) stays solid. */
#include "test-mesh-common.h"
#include "rw-voxel.h"

#include <math.h>
#include <string.h>

static void
add_box (RwMesh *m, const double lo[3], const double hi[3], const char *prefix)
{
  uint32_t base = (uint32_t) m->n_vertices;
  for (int k = 0; k < 8; k++)
    rw_mesh_add_vertex (m, (k & 1) ? hi[0] : lo[0], (k & 2) ? hi[1] : lo[1], (k & 4) ? hi[2] : lo[2]);
  static const char *names[6] = { "floor", "ceiling", "wall_y0", "wall_y1", "wall_x0", "wall_x1" };
  static const uint32_t quads[6][4] = { { 0, 2, 3, 1 }, { 4, 5, 7, 6 }, { 0, 1, 5, 4 },
                                        { 2, 6, 7, 3 }, { 0, 4, 6, 2 }, { 1, 3, 7, 5 } };
  for (int f = 0; f < 6; f++)
    {
      char name[64];
      snprintf (name, sizeof name, "%s_%s", prefix, names[f]);
      uint32_t s = rw_mesh_add_surface (m, name);
      const uint32_t *q = quads[f];
      rw_mesh_add_triangle (m, base + q[0], base + q[1], base + q[2], s);
      rw_mesh_add_triangle (m, base + q[0], base + q[2], base + q[3], s);
    }
}

int
main (void)
{
  RwError err = { 0 };
  RwMesh *m = rw_mesh_new ();
  add_box (m, (double[]) { 0, 0, 0 }, (double[]) { 4, 3, 2.5 }, "a");
  add_box (m, (double[]) { 2.4, 1, 0 }, (double[]) { 6.4, 4, 2.5 }, "b");

  RwMeshReport r;
  RW_CHECK (rw_mesh_report (m, &r, &err), "%s", err.message);
  RW_CHECK (r.watertight && r.outward, "two closed boxes: watertight %d outward %d", r.watertight, r.outward);
  RW_CHECK (fabs (r.volume_m3 - 52.0) < 0.02 * 52.0, "report volume %.3f m³, union 52", r.volume_m3);
  RW_CHECK (fabs (r.overlap_volume_m3 - 8.0) < 0.02 * 8.0, "overlap %.3f m³, expected 8", r.overlap_volume_m3);
  /* inside the other box: a's wall_x1 (x = 4) and wall_y1 (y = 3), b's
   * wall_x0 (x = 2.4) and wall_y0 (y = 1), and the floor and ceiling parts */
  bool a_x1 = false, b_x0 = false;
  for (size_t i = 0; i < r.n_overlap_surfaces && i < RW_MESH_SHELLS_MAX_SURFACES; i++)
    {
      const char *name = m->surface_names[r.overlap_surfaces[i]];
      a_x1 |= strcmp (name, "a_wall_x1") == 0;
      b_x0 |= strcmp (name, "b_wall_x0") == 0;
      RW_NOTE ("surface inside another shell: %s", name);
    }
  RW_CHECK (r.n_overlap_surfaces >= 2 && a_x1 && b_x0, "overlap surfaces: %zu, a_wall_x1 %d, b_wall_x0 %d",
            r.n_overlap_surfaces, a_x1, b_x0);
  RW_NOTE ("union %.4f m³, overlap %.4f m³", r.volume_m3, r.overlap_volume_m3);
  rw_mesh_report_clear (&r);

  const double in_both[3] = { 3.2, 2.0, 1.25 }, in_a[3] = { 1, 1, 1 }, in_b[3] = { 6, 3.5, 1 };
  const double outside[3] = { 5.0, 0.5, 1.0 };
  RW_CHECK (rw_mesh_point_inside (m, in_both), "a point in both boxes is inside");
  RW_CHECK (rw_mesh_point_inside (m, in_a) && rw_mesh_point_inside (m, in_b), "a point in one box is inside");
  RW_CHECK (!rw_mesh_point_inside (m, outside), "a point in neither box is outside");

  const double h = 0.1;
  RwGrid *g = rw_voxelise (m, h, 0, &err);
  RW_CHECK (g != NULL, "%s", err.message);
  if (g)
    {
      double v = rw_grid_air_volume_m3 (g);
      RW_CHECK (fabs (v - 52.0) < 0.02 * 52.0, "voxelised %.3f m³, union 52", v);
      size_t cell;
      RW_CHECK (rw_grid_locate (g, in_both, "receiver", &cell, &err), "in both boxes: %s", err.message);
      RW_CHECK (!rw_grid_locate (g, outside, "receiver", &cell, &err), "in neither box: located");
      RW_NOTE ("voxelised union %.3f m³ at h = %g m", v, h);
      rw_grid_free (g);
    }
  rw_mesh_free (m);

  /* Nested shells are objects, not overlaps: furniture drawn as closed
   * boxes with outward normals inside the room (one floating, one standing
   * on the floor) is solid, as it was with crossing parity, and is not
   * reported as overlapping. 30 − 0.8 − 1 = 28.2 m³. */
  m = rw_mesh_new ();
  add_box (m, (double[]) { 0, 0, 0 }, (double[]) { 4, 3, 2.5 }, "room");
  add_box (m, (double[]) { 1, 1, 1 }, (double[]) { 2, 2, 1.8 }, "shelf");
  add_box (m, (double[]) { 2.5, 1, 0 }, (double[]) { 3.5, 2, 1 }, "table");
  RW_CHECK (rw_mesh_report (m, &r, &err), "%s", err.message);
  RW_CHECK (r.watertight && r.overlap_volume_m3 == 0, "furniture: watertight %d, overlap %g m³", r.watertight,
            r.overlap_volume_m3);
  rw_mesh_report_clear (&r);
  g = rw_voxelise (m, h, 0, &err);
  RW_CHECK (g != NULL, "%s", err.message);
  if (g)
    {
      double v = rw_grid_air_volume_m3 (g);
      RW_CHECK (fabs (v - 28.2) < 0.02 * 28.2, "room with furniture voxelised %.3f m³, expected 28.2", v);
      size_t cell;
      RW_CHECK (!rw_grid_locate (g, (double[]) { 1.5, 1.5, 1.4 }, "receiver", &cell, &err), "inside the shelf: located");
      RW_CHECK (!rw_grid_locate (g, (double[]) { 3, 1.5, 0.5 }, "receiver", &cell, &err), "inside the table: located");
      RW_CHECK (rw_grid_locate (g, (double[]) { 3, 1.5, 1.5 }, "receiver", &cell, &err), "above the table: %s",
                err.message);
      rw_grid_free (g);
    }
  RW_CHECK (!rw_mesh_point_inside (m, (double[]) { 1.5, 1.5, 1.4 }), "a point in the shelf is not in the room");
  RW_CHECK (rw_mesh_point_inside (m, (double[]) { 0.5, 0.5, 0.5 }), "a point in the room is");
  rw_mesh_free (m);

  /* Inward normals: the same box either way for the voxeliser; flipped by
   * rw_mesh_orient_outward, after which the volume is positive. */
  RwMesh *in = rw_mesh_load (mesh_test_path ("box-inward.obj"), 1.0, &err);
  RW_CHECK (in != NULL, "%s", err.message);
  if (in)
    {
      RW_CHECK (rw_mesh_report (in, &r, &err), "%s", err.message);
      RW_CHECK (r.watertight && r.volume_m3 < 0 && !r.flipped, "box-inward.obj: volume %g", r.volume_m3);
      g = rw_voxelise (in, h, 0, &err);
      RW_CHECK (g != NULL && fabs (rw_grid_air_volume_m3 (g) - 30.0) < 0.02 * 30.0, "inward box voxelised: %g m³",
                g ? rw_grid_air_volume_m3 (g) : 0.0);
      rw_grid_free (g);
      RW_CHECK (rw_mesh_orient_outward (in, &r), "inward box not flipped");
      RW_CHECK (r.flipped && r.outward && fabs (r.volume_m3 - 30.0) < 1e-9, "after the flip: volume %g",
                r.volume_m3);
      rw_mesh_report_clear (&r);
      RW_CHECK (rw_mesh_report (in, &r, &err) && fabs (r.volume_m3 - 30.0) < 1e-9 && r.outward,
                "report of the flipped mesh: volume %g", r.volume_m3);
      RW_CHECK (!rw_mesh_orient_outward (in, &r), "an outward mesh flipped again");
      rw_mesh_report_clear (&r);
      rw_mesh_free (in);
    }
  return rw_test_finish ();
}
