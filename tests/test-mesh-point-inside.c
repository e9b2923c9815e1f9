/* SPDX-License-Identifier: GPL-3.0-or-later */
/* mesh-point-inside: rw_mesh_point_inside on a box and an L-room (points in
 * the notch of the L are outside), points on the room's mid-planes (where
 * an unskewed axis ray would run along shared edges), and the sign
 * convention of rw_mesh_ray_triangle (front = outside of an outward mesh),
 * which the 3-D view's surface picking relies on, and rw_ray_nearest_height,
 * with which it lifts a marker. */
#include <math.h>
#include "rw-mesh.h"
#include "rw-shapes.h"
#include "rw-test.h"

int
main (void)
{
  RwMesh *box = rw_shape_box (4.0, 3.0, 2.5);
  const double in[][3] = { { 2, 1.5, 1.25 }, { 0.01, 0.01, 0.01 }, { 3.99, 2.99, 2.49 }, { 2, 1.5, 0.5 } };
  const double out[][3] = { { -0.01, 1, 1 }, { 2, 3.01, 1 }, { 2, 1, 2.6 }, { 10, 10, 10 }, { NAN, 1, 1 } };
  for (size_t i = 0; i < sizeof in / sizeof in[0]; i++)
    RW_CHECK (rw_mesh_point_inside (box, in[i]), "(%g, %g, %g) inside the box", in[i][0], in[i][1], in[i][2]);
  for (size_t i = 0; i < sizeof out / sizeof out[0]; i++)
    RW_CHECK (!rw_mesh_point_inside (box, out[i]), "(%g, %g, %g) outside the box", out[i][0], out[i][1],
              out[i][2]);

  /* A ray from inside towards +x meets the wall x = 4 from behind (det < 0),
   * a ray from outside towards −x meets it on its front (det > 0). */
  int back = 0, front = 0;
  const double o_in[3] = { 2, 1.5, 1.25 }, d_px[3] = { 1, 1e-4, 2e-4 };
  const double o_out[3] = { 6, 1.5, 1.25 }, d_mx[3] = { -1, 1e-4, 2e-4 };
  for (size_t t = 0; t < box->n_triangles; t++)
    {
      double tt, det;
      if (rw_mesh_ray_triangle (box, t, o_in, d_px, &tt, &det) && tt > 0)
        {
          back++;
          RW_CHECK (det < 0 && fabs (tt - 2.0) < 1e-3, "inside ray hits the back of x = 4 at t = 2 (t %g, det %g)",
                    tt, det);
        }
      if (rw_mesh_ray_triangle (box, t, o_out, d_mx, &tt, &det) && tt > 0 && tt < 2.5)
        {
          front++;
          RW_CHECK (det > 0 && fabs (tt - 2.0) < 1e-3, "outside ray hits the front of x = 4 at t = 2");
        }
    }
  RW_CHECK (back == 1 && front == 1, "exactly one wall hit each way (%d, %d)", back, front);
  rw_mesh_free (box);

  /* L: 6 × 5 m minus the corner [3, 6] × [2.5, 5]. */
  RwMesh *l = rw_shape_lroom (6.0, 5.0, 3.0, 3.0, 2.5);
  const double l_in[][3] = { { 1, 1, 1 }, { 5, 1, 1 }, { 1, 4, 1 }, { 2.9, 2.6, 1.5 }, { 3.1, 2.4, 1.5 } };
  const double l_out[][3] = { { 4.5, 4, 1 }, { 5.9, 4.9, 2.9 } };
  for (size_t i = 0; i < sizeof l_in / sizeof l_in[0]; i++)
    RW_CHECK (rw_mesh_point_inside (l, l_in[i]), "(%g, %g, %g) inside the L", l_in[i][0], l_in[i][1], l_in[i][2]);
  for (size_t i = 0; i < sizeof l_out / sizeof l_out[0]; i++)
    RW_CHECK (!rw_mesh_point_inside (l, l_out[i]), "(%g, %g, %g) in the L's notch is outside", l_out[i][0],
              l_out[i][1], l_out[i][2]);
  rw_mesh_free (l);
  /* rw_ray_nearest_height: a ray through (2, 0, 1) meets the vertical line
   * at (2, 0) there; one passing 1 m beside the line at (2, 1) is closest
   * at its own height there; a vertical ray and a line behind the eye give
   * no height. */
  double z = NAN;
  const double o0[3] = { 0, 0, 0 }, d0[3] = { 1, 0, 0.5 };
  RW_CHECK (rw_ray_nearest_height (o0, d0, 2, 0, &z) && fabs (z - 1) < 1e-12,
            "ray through (2, 0, 1): height %g, want 1", z);
  const double o1[3] = { 0, 0, 1.5 }, d1[3] = { 2, 0, 1 };
  RW_CHECK (rw_ray_nearest_height (o1, d1, 4, 1, &z) && fabs (z - 3.5) < 1e-12,
            "ray passing 1 m beside (4, 1): height %g, want 3.5", z);
  const double dv[3] = { 0, 0, -1 };
  RW_CHECK (!rw_ray_nearest_height (o0, dv, 2, 0, &z), "a vertical ray has no nearest height");
  RW_CHECK (!rw_ray_nearest_height (o0, d0, -2, 0, &z), "a line behind the eye has no height");
  return rw_test_finish ();
}
