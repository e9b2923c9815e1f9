/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ga-bad-input: rw_ga_compute refuses bad input with RW_ERROR_INPUT and a
 * message naming the problem, leaving no result: each setting out of
 * range (image-source order, rays, duration, speed of sound, humidity), no
 * or too few admittances, a bad admittance, no or a bad scattering
 * coefficient, a source outside the room or not finite, source and
 * receiver at one point. And rw_rays_trace refuses an excluded specular
 * order out of −1 … RW_RAYS_MAX_EXCLUDE_ORDER. */
#include <stdlib.h>
#include <string.h>

#include "rw-test.h"
#include "rw-ga.h"
#include "rw-shapes.h"
#include "test-ga-common.h"

static void
expect_fail (bool ok, const RwError *err, const RwGaResult *r, const char *needle,
             const char *what)
{
  RW_CHECK (!ok, "%s: refused", what);
  RW_CHECK (err->code == RW_ERROR_INPUT, "%s: code %d (expected %d)", what, err->code,
            RW_ERROR_INPUT);
  RW_CHECK (strstr (err->message, needle) != NULL, "%s: message '%s' says '%s'", what,
            err->message, needle);
  if (r)
    RW_CHECK (r->ir == NULL && r->bands == NULL && r->n_samples == 0
              && r->ism.arrivals == NULL && r->rays.energy == NULL, "%s: no result", what);
  RW_NOTE ("%s: %s", what, err->message);
}

static const double src[3] = { 1.0, 1.0, 1.0 }, rcv[3] = { 2.5, 1.5, 1.2 };

int
main (void)
{
  RwError err = { 0 };
  GaRoom room;
  if (!ga_room_init (&room, rw_shape_box (4, 3, 2.5), rw_admittance_real (0.8), 0.0))
    return rw_test_finish ();
  const RwGaScene *scene = room.scene;
  const RwMesh *m = room.mesh;
  const size_t ns = room.ns;
  RwAdmittance *Y = room.Y;
  double *sc = room.sc;
  RwGaSettings set;
  RwGaResult r = { 0 };

#define SETTING(field, value, needle)                                                    \
  do {                                                                                   \
    rw_ga_settings_init (&set);                                                          \
    set.n_rays = 100;                                                                    \
    set.duration_s = 0.1;                                                                \
    set.field = value;                                                                   \
    err = (RwError) { 0 };                                                               \
    expect_fail (rw_ga_compute (scene, Y, sc, ns, src, rcv, &set, &r, &err), &err, &r,   \
                 needle, #field " = " #value);                                           \
  } while (0)
  SETTING (ism_order, -1, "image-source order");
  SETTING (ism_order, RW_ISM_MAX_ORDER + 1, "image-source order");
  SETTING (n_rays, 0, "rays");
  SETTING (duration_s, 0.0, "duration");
  SETTING (duration_s, NAN, "duration");
  SETTING (speed_of_sound, -1.0, "speed of sound");
  SETTING (humidity_pct, 150.0, "umidity");
#undef SETTING

  rw_ga_settings_init (&set);
  set.n_rays = 100;
  set.duration_s = 0.1;
  err = (RwError) { 0 };
  expect_fail (rw_ga_compute (scene, NULL, sc, ns, src, rcv, &set, &r, &err), &err, &r,
               "admittances", "no admittances");
  err = (RwError) { 0 };
  expect_fail (rw_ga_compute (scene, Y, sc, ns - 1, src, rcv, &set, &r, &err), &err, &r,
               "admittances", "too few admittances");
  Y[1].Y0 = -0.5;
  err = (RwError) { 0 };
  expect_fail (rw_ga_compute (scene, Y, sc, ns, src, rcv, &set, &r, &err), &err, &r,
               m->surface_names[1], "negative admittance");
  Y[1] = rw_admittance_real (0.8);
  err = (RwError) { 0 };
  expect_fail (rw_ga_compute (scene, Y, NULL, ns, src, rcv, &set, &r, &err), &err, &r,
               "scattering", "no scattering");
  sc[2 * RW_N_OCTAVES + 5] = 1.5;
  err = (RwError) { 0 };
  expect_fail (rw_ga_compute (scene, Y, sc, ns, src, rcv, &set, &r, &err), &err, &r,
               "scattering", "scattering 1.5");
  sc[2 * RW_N_OCTAVES + 5] = 0.0;
  const double outside[3] = { 5.0, 1.0, 1.0 }, nan_p[3] = { NAN, 1.0, 1.0 };
  err = (RwError) { 0 };
  expect_fail (rw_ga_compute (scene, Y, sc, ns, outside, rcv, &set, &r, &err), &err, &r,
               "outside", "source outside");
  err = (RwError) { 0 };
  expect_fail (rw_ga_compute (scene, Y, sc, ns, nan_p, rcv, &set, &r, &err), &err, &r, "finite",
               "source not finite");
  err = (RwError) { 0 };
  expect_fail (rw_ga_compute (scene, Y, sc, ns, src, src, &set, &r, &err), &err, &r,
               "same point", "source at the receiver");

  /* The rays' new setting. */
  RwRaySettings rs;
  RwRayResult rr = { 0 };
  const int bad_orders[] = { -2, RW_RAYS_MAX_EXCLUDE_ORDER + 1 };
  for (int k = 0; k < 2; k++)
    {
      rw_rays_settings_init (&rs);
      rs.n_rays = 100;
      rs.exclude_specular_order = bad_orders[k];
      err = (RwError) { 0 };
      const bool ok = rw_rays_trace (scene, Y, sc, ns, src, rcv, &rs, &rr, &err);
      expect_fail (ok, &err, NULL, "excluded specular order", "rays: excluded order");
      RW_CHECK (rr.energy == NULL, "rays: no result");
    }

  /* And a good call works. */
  rw_ga_settings_init (&set);
  set.n_rays = 100;
  set.duration_s = 0.1;
  RW_CHECK (rw_ga_compute (scene, Y, sc, ns, src, rcv, &set, &r, &err) && r.ir != NULL,
            "good input: %s", err.message);
  rw_ga_result_clear (&r);
  ga_room_free (&room);
  return rw_test_finish ();
}
