/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rays-bad-input: every bad input to the ray tracer and the synthesis
 * gives false, RW_ERROR_INPUT and a message saying what is wrong, never a
 * crash and never a result: no rays, too many; c ≤ 0; a bin width, a
 * duration, a receiver radius or an energy threshold out of range or NaN;
 * missing or too few admittances, a non-passive one; no scattering
 * coefficients, one below 0, above 1 or NaN; the source or the receiver
 * outside the room or not finite; source = receiver; a mesh turned inside
 * out (no volume). The synthesis: no histogram, a sample rate below
 * 1 kHz, no samples, a pulse density ≤ 0. */
#include <stdlib.h>
#include <string.h>

#include "rw-test.h"
#include "rw-rays.h"
#include "rw-shapes.h"

static void
expect_fail (bool ok, const RwError *err, const RwRayResult *r, const char *needle,
             const char *what)
{
  RW_CHECK (!ok, "%s: refused", what);
  RW_CHECK (err->code == RW_ERROR_INPUT, "%s: code %d (expected %d)", what, err->code,
            RW_ERROR_INPUT);
  RW_CHECK (strstr (err->message, needle) != NULL, "%s: message '%s' says '%s'", what,
            err->message, needle);
  if (r)
    RW_CHECK (r->energy == NULL && r->n_bins == 0, "%s: no result", what);
  RW_NOTE ("%s: %s", what, err->message);
}

static const double src[3] = { 1.0, 1.0, 1.0 }, rcv[3] = { 2.5, 1.5, 1.2 };

int
main (void)
{
  RwError err = { 0 };
  RwMesh *m = rw_shape_box (4, 3, 2.5);
  RwGaScene *scene = rw_ga_scene_new (m, &err);
  RW_CHECK (scene != NULL, "scene: %s", err.message);
  if (scene == NULL)
    return rw_test_finish ();
  const size_t ns = m->n_surfaces;
  RwAdmittance *Y = calloc (ns, sizeof *Y);
  double *sc = calloc (ns * RW_N_OCTAVES, sizeof *sc);
  for (size_t s = 0; s < ns; s++)
    Y[s] = rw_admittance_real (0.8);
  RwRaySettings set;
  RwRayResult r = { 0 };

#define SETTING(field, value, needle)                                                    \
  do {                                                                                   \
    rw_rays_settings_init (&set);                                                        \
    set.n_rays = 100;                                                                    \
    set.field = value;                                                                   \
    err = (RwError) { 0 };                                                               \
    expect_fail (rw_rays_trace (scene, Y, sc, ns, src, rcv, &set, &r, &err), &err, &r,   \
                 needle, #field " = " #value);                                           \
  } while (0)
  SETTING (n_rays, 0, "rays");
  SETTING (n_rays, RW_RAYS_MAX_N + 1, "rays");
  SETTING (speed_of_sound, 0.0, "speed of sound");
  SETTING (speed_of_sound, NAN, "speed of sound");
  SETTING (bin_s, 0.0, "bin width");
  SETTING (bin_s, NAN, "bin width");
  SETTING (bin_s, 1.0, "bin width");
  SETTING (duration_s, 0.0, "duration");
  SETTING (duration_s, NAN, "duration");
  SETTING (duration_s, 1e6, "duration");
  SETTING (receiver_radius_m, -0.1, "receiver radius");
  SETTING (receiver_radius_m, INFINITY, "receiver radius");
  SETTING (energy_threshold, 0.0, "threshold");
  SETTING (energy_threshold, 1.0, "threshold");
  SETTING (energy_threshold, NAN, "threshold");
  SETTING (humidity_pct, 150.0, "umidity");

  rw_rays_settings_init (&set);
  set.n_rays = 100;
  err = (RwError) { 0 };
  expect_fail (rw_rays_trace (scene, NULL, sc, ns, src, rcv, &set, &r, &err), &err, &r,
               "admittances", "no admittances");
  err = (RwError) { 0 };
  expect_fail (rw_rays_trace (scene, Y, sc, ns - 1, src, rcv, &set, &r, &err), &err, &r,
               "admittances", "too few admittances");
  Y[1].Y0 = -0.5;
  err = (RwError) { 0 };
  expect_fail (rw_rays_trace (scene, Y, sc, ns, src, rcv, &set, &r, &err), &err, &r,
               m->surface_names[1], "negative conductance");
  Y[1] = rw_admittance_real (0.8);
  err = (RwError) { 0 };
  expect_fail (rw_rays_trace (scene, Y, NULL, ns, src, rcv, &set, &r, &err), &err, &r,
               "scattering", "no scattering");
  const double bad_sc[3] = { -0.1, 1.5, NAN };
  for (int k = 0; k < 3; k++)
    {
      sc[2 * RW_N_OCTAVES + 5] = bad_sc[k];
      err = (RwError) { 0 };
      expect_fail (rw_rays_trace (scene, Y, sc, ns, src, rcv, &set, &r, &err), &err, &r,
                   "2000 Hz", "scattering out of [0, 1]");
    }
  sc[2 * RW_N_OCTAVES + 5] = 0.0;
  const double outside[3] = { 5.0, 1.0, 1.0 }, nan_p[3] = { 1.0, NAN, 1.0 };
  err = (RwError) { 0 };
  expect_fail (rw_rays_trace (scene, Y, sc, ns, outside, rcv, &set, &r, &err), &err, &r,
               "outside", "source outside");
  err = (RwError) { 0 };
  expect_fail (rw_rays_trace (scene, Y, sc, ns, src, outside, &set, &r, &err), &err, &r,
               "outside", "receiver outside");
  err = (RwError) { 0 };
  expect_fail (rw_rays_trace (scene, Y, sc, ns, nan_p, rcv, &set, &r, &err), &err, &r,
               "finite", "source NaN");
  err = (RwError) { 0 };
  expect_fail (rw_rays_trace (scene, Y, sc, ns, src, nan_p, &set, &r, &err), &err, &r, "finite",
               "receiver NaN");
  const double near[3] = { src[0] + 2e-4, src[1], src[2] };
  err = (RwError) { 0 };
  expect_fail (rw_rays_trace (scene, Y, sc, ns, src, near, &set, &r, &err), &err, &r,
               "same point", "source = receiver");

  /* The synthesis. */
  RwRayResult ok = { 0 };
  err = (RwError) { 0 };
  RW_CHECK (rw_rays_trace (scene, Y, sc, ns, src, rcv, &set, &ok, &err), "good run: %s",
            err.message);
  double x[64];
  RwRayResult empty = { 0 };
  err = (RwError) { 0 };
  expect_fail (rw_rays_synthesise (&empty, 48000, 64, 1e4, 1, NULL, x, NULL, &err), &err, NULL,
               "histogram", "synthesis: no histogram");
  RwRayResult novol = ok;
  novol.volume_m3 = 0.0;
  err = (RwError) { 0 };
  expect_fail (rw_rays_synthesise (&novol, 48000, 64, 1e4, 1, NULL, x, NULL, &err), &err, NULL,
               "histogram", "synthesis: a histogram of no volume");
  err = (RwError) { 0 };
  expect_fail (rw_rays_synthesise (&ok, 500, 64, 1e4, 1, NULL, x, NULL, &err), &err, NULL,
               "sample rate", "synthesis: 500 Hz");
  err = (RwError) { 0 };
  expect_fail (rw_rays_synthesise (&ok, NAN, 64, 1e4, 1, NULL, x, NULL, &err), &err, NULL,
               "sample rate", "synthesis: NaN Hz");
  err = (RwError) { 0 };
  expect_fail (rw_rays_synthesise (&ok, 48000, 0, 1e4, 1, NULL, x, NULL, &err), &err, NULL,
               "no samples", "synthesis: 0 samples");
  err = (RwError) { 0 };
  expect_fail (rw_rays_synthesise (&ok, 48000, 64, 1e4, 1, NULL, NULL, NULL, &err), &err, NULL,
               "no samples", "synthesis: no output");
  err = (RwError) { 0 };
  expect_fail (rw_rays_synthesise (&ok, 48000, 64, 0.0, 1, NULL, x, NULL, &err), &err, NULL,
               "density", "synthesis: density 0");
  rw_rays_result_clear (&ok);

  /* A mesh turned inside out: every point is "outside", or no volume. */
  for (size_t t = 0; t < m->n_triangles; t++)
    {
      uint32_t tmp = m->tri[3 * t + 1];
      m->tri[3 * t + 1] = m->tri[3 * t + 2];
      m->tri[3 * t + 2] = tmp;
    }
  RwGaScene *flipped = rw_ga_scene_new (m, &err);
  if (flipped)
    {
      err = (RwError) { 0 };
      bool res = rw_rays_trace (flipped, Y, sc, ns, src, rcv, &set, &r, &err);
      RW_NOTE ("inside-out box: %s", res ? "accepted (the shell's sign turns it back)"
                                         : err.message);
      if (res)
        RW_CHECK (r.volume_m3 > 29.9 && r.volume_m3 < 30.1, "volume %g", r.volume_m3);
      rw_rays_result_clear (&r);
      rw_ga_scene_free (flipped);
    }
  free (Y);
  free (sc);
  rw_ga_scene_free (scene);
  rw_mesh_free (m);
  return rw_test_finish ();
}
