/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ism-bad-input: every bad input to the scene, the image sources and the
 * rendering gives false, RW_ERROR_INPUT and a message saying what is
 * wrong, never a crash and never a result: an empty mesh, a vertex that is
 * not finite, a triangle's vertex out of range; the receiver or the source
 * outside the room or not finite; source = receiver; order −1 and
 * RW_ISM_MAX_ORDER + 1; c ≤ 0; missing, too few or non-passive
 * admittances; a surface id without an admittance; an order that needs
 * more image sources than the limit; a bad sample rate or no samples. */
#include <stdlib.h>
#include <string.h>

#include "rw-test.h"
#include "rw-ism.h"
#include "rw-shapes.h"

static void
expect_fail (bool ok, const RwError *err, RwErrorCode code, const char *needle, const char *what)
{
  RW_CHECK (!ok, "%s: refused", what);
  RW_CHECK (err->code == code, "%s: code %d (expected %d)", what, err->code, code);
  RW_CHECK (strstr (err->message, needle) != NULL, "%s: message '%s' says '%s'", what,
            err->message, needle);
  RW_NOTE ("%s: %s", what, err->message);
}

int
main (void)
{
  RwError err = { 0 };

  /* Scenes. */
  RwMesh *empty = rw_mesh_new ();
  RwGaScene *bad = rw_ga_scene_new (empty, &err);
  expect_fail (bad != NULL, &err, RW_ERROR_INPUT, "no triangles", "empty mesh");
  rw_ga_scene_free (bad);
  rw_mesh_free (empty);
  err = (RwError) { 0 };
  RwMesh *nan_mesh = rw_shape_box (2, 2, 2);
  nan_mesh->xyz[4] = NAN;
  bad = rw_ga_scene_new (nan_mesh, &err);
  expect_fail (bad != NULL, &err, RW_ERROR_INPUT, "finite", "vertex not finite");
  rw_ga_scene_free (bad);
  nan_mesh->xyz[4] = 0;
  nan_mesh->tri[7] = (uint32_t) nan_mesh->n_vertices + 5;
  err = (RwError) { 0 };
  bad = rw_ga_scene_new (nan_mesh, &err);
  expect_fail (bad != NULL, &err, RW_ERROR_INPUT, "vertex", "vertex index out of range");
  rw_ga_scene_free (bad);
  rw_mesh_free (nan_mesh);

  RwMesh *m = rw_shape_box (4, 3, 2.5);
  RwGaScene *scene = rw_ga_scene_new (m, &err);
  RW_CHECK (scene != NULL, "box scene: %s", err.message);
  if (scene == NULL)
    return rw_test_finish ();
  RwAdmittance Y[6];
  for (int s = 0; s < 6; s++)
    Y[s] = rw_admittance_real (0.9);
  const double src[3] = { 1, 1, 1 }, rcv[3] = { 3, 2, 1.5 };
  RwIsmSettings set;
  rw_ism_settings_init (&set);
  RwIsmResult res;

  const double outside[3] = { 5, 1, 1 }, nan_pos[3] = { NAN, 1, 1 };
  err = (RwError) { 0 };
  expect_fail (rw_ism_compute (scene, Y, 6, src, outside, &set, &res, &err), &err, RW_ERROR_INPUT,
               "outside", "receiver outside the room");
  RW_CHECK (res.arrivals == NULL && res.n_arrivals == 0, "no result after a failure");
  err = (RwError) { 0 };
  expect_fail (rw_ism_compute (scene, Y, 6, outside, rcv, &set, &res, &err), &err, RW_ERROR_INPUT,
               "outside", "source outside the room");
  err = (RwError) { 0 };
  expect_fail (rw_ism_compute (scene, Y, 6, src, nan_pos, &set, &res, &err), &err, RW_ERROR_INPUT,
               "finite", "receiver not finite");
  err = (RwError) { 0 };
  expect_fail (rw_ism_compute (scene, Y, 6, src, src, &set, &res, &err), &err, RW_ERROR_INPUT,
               "same point", "source = receiver");
  const double near[3] = { 1.0002, 1, 1 };
  err = (RwError) { 0 };
  expect_fail (rw_ism_compute (scene, Y, 6, src, near, &set, &res, &err), &err, RW_ERROR_INPUT,
               "same point", "source 0.2 mm from the receiver");

  int bad_orders[2] = { -1, RW_ISM_MAX_ORDER + 1 };
  for (int i = 0; i < 2; i++)
    {
      set.max_order = bad_orders[i];
      err = (RwError) { 0 };
      expect_fail (rw_ism_compute (scene, Y, 6, src, rcv, &set, &res, &err), &err, RW_ERROR_INPUT,
                   "out of range", "order out of range");
    }
  rw_ism_settings_init (&set);
  set.speed_of_sound = 0;
  err = (RwError) { 0 };
  expect_fail (rw_ism_compute (scene, Y, 6, src, rcv, &set, &res, &err), &err, RW_ERROR_INPUT,
               "speed of sound", "c = 0");
  rw_ism_settings_init (&set);
  err = (RwError) { 0 };
  expect_fail (rw_ism_compute (scene, NULL, 6, src, rcv, &set, &res, &err), &err, RW_ERROR_INPUT,
               "admittances", "no admittances");
  err = (RwError) { 0 };
  expect_fail (rw_ism_compute (scene, Y, 5, src, rcv, &set, &res, &err), &err, RW_ERROR_INPUT,
               "admittances", "too few admittances");
  Y[3].Y0 = -0.5;   /* an active surface */
  err = (RwError) { 0 };
  expect_fail (rw_ism_compute (scene, Y, 6, src, rcv, &set, &res, &err), &err, RW_ERROR_INPUT,
               "wall_x1", "negative conductance");
  Y[3] = rw_admittance_real (0.9);
  /* A surface id beyond the admittances given (the mesh lies about its
   * surfaces). */
  m->tri_surface[5] = 9;
  err = (RwError) { 0 };
  expect_fail (rw_ism_compute (scene, Y, 6, src, rcv, &set, &res, &err), &err, RW_ERROR_INPUT,
               "surface 9", "surface without admittance");
  m->tri_surface[5] = 2;
  rw_ga_scene_free (scene);
  rw_mesh_free (m);

  /* Too many image sources: a sphere of 1280 faces at order 4 would need
   * ≈ 2·10¹² candidates. */
  RwMesh *sph = rw_shape_sphere (2.0, 3);
  RwGaScene *ss = rw_ga_scene_new (sph, &err);
  RW_CHECK (ss != NULL, "sphere scene: %s", err.message);
  RwAdmittance Ys = rw_admittance_real (0.9);
  const double c0[3] = { 2, 2, 2 }, c1[3] = { 2.5, 2.2, 1.9 };
  set.max_order = 4;
  err = (RwError) { 0 };
  if (ss)
    expect_fail (rw_ism_compute (ss, &Ys, 1, c0, c1, &set, &res, &err), &err, RW_ERROR_INPUT,
                 "lower order", "too many image sources");
  rw_ga_scene_free (ss);
  rw_mesh_free (sph);

  /* Rendering. */
  RwIsmArrival a = { 0 };
  a.delay_s = 0.01;
  a.gain[0] = 1;
  double ir[RW_N_OCTAVES * 16];
  err = (RwError) { 0 };
  expect_fail (rw_ism_render (&a, 1, 0.0, 16, ir, &err), &err, RW_ERROR_INPUT, "sample rate",
               "render at 0 Hz");
  err = (RwError) { 0 };
  expect_fail (rw_ism_render (&a, 1, NAN, 16, ir, &err), &err, RW_ERROR_INPUT, "sample rate",
               "render at NaN Hz");
  err = (RwError) { 0 };
  expect_fail (rw_ism_render (&a, 1, 48000, 0, ir, &err), &err, RW_ERROR_INPUT, "no samples",
               "render into 0 samples");
  return rw_test_finish ();
}
