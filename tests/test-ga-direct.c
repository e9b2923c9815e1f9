/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ga-direct: the direct sound of the geometrical IR appears once, with
 * the wave part's calibration.
 *
 * A 10 × 8 × 6 m box, source and receiver 2.06 m apart near its middle
 * (the first reflection 12 ms after the direct sound), every wall the same
 * real admittance (frequency-independent, R = 0.8 at normal incidence), scattering 0.7 (so the rays
 * carry diffuse energy from the first reflection on), air off:
 * - the rays' histogram is 0 in every band until the first reflection
 *   (less the receiver sphere's a/c): the direct sound is not the rays';
 * - the IR's area over ±1 ms about the direct sound is 1/r within 1 %
 *   (docs/PHYSICS.md §4; the split's bands add to 1 for equal gains).
 * Air on: every band's direct gain is 10^(−α_b r / 20) / r (α_b from
 * rw_air_absorption_db_per_m at the band's exact midband frequency)
 * within 10⁻⁹, each first-order gain R(θ) √(1 − s) 10^(−α_b d / 20) / d,
 * and the IR's area about the direct sound the 63 Hz band's gain within
 * 1 % (the area is the DC response). */
#include <complex.h>
#include <stdlib.h>

#include "rw-test.h"
#include "rw-air.h"
#include "rw-ga.h"
#include "rw-physics.h"
#include "rw-shapes.h"
#include "test-ga-common.h"

#define SCAT 0.7
/* normal-incidence reflection factor; Y = (1 − R)/(1 + R) */
#define R_NORMAL 0.8
#define Y_WALL ((1.0 - R_NORMAL) / (1.0 + R_NORMAL))

static const double src[3] = { 4.1, 3.9, 2.7 }, rcv[3] = { 6.1, 4.2, 3.1 };

/* Σ ir over ±1 ms about t. */
static double
area_at (const RwGaResult *g, double t)
{
  const long i0 = lround ((t - 1e-3) * g->fs_hz), i1 = lround ((t + 1e-3) * g->fs_hz);
  double s = 0.0;
  for (long i = i0 < 0 ? 0 : i0; i <= i1 && i < (long) g->n_samples; i++)
    s += g->ir[i];
  return s;
}

int
main (void)
{
  RwError err = { 0 };
  GaRoom room;
  if (!ga_room_init (&room, rw_shape_box (10, 8, 6), rw_admittance_real (R_NORMAL), SCAT))
    return rw_test_finish ();
  const RwGaScene *scene = room.scene;
  const size_t ns = room.ns;
  const RwAdmittance *Y = room.Y;
  const double *sc = room.sc;
  const double r = sqrt (4.0 + 0.09 + 0.16), c = rw_speed_of_sound (RW_DEFAULT_TEMPERATURE_C);

  RwGaSettings set;
  rw_ga_settings_init (&set);
  set.n_rays = 20000;
  set.duration_s = 0.3;
  set.air_absorption = false;
  RwGaResult g = { 0 };
  bool ok = rw_ga_compute (scene, Y, sc, ns, src, rcv, &set, &g, &err);
  RW_CHECK (ok, "GA IR: %s", err.message);
  if (!ok)
    return rw_test_finish ();
  double t1 = INFINITY;
  for (size_t i = 0; i < g.ism.n_arrivals; i++)
    if (g.ism.arrivals[i].order == 1)
      t1 = fmin (t1, g.ism.arrivals[i].delay_s);
  const size_t j1 = (size_t) floor ((t1 - g.rays.receiver_radius_m / c) / g.rays.bin_s);
  double e_early = 0.0;
  for (int b = 0; b < RW_N_OCTAVES; b++)
    for (size_t j = 0; j < j1; j++)
      e_early += g.rays.energy[(size_t) b * g.rays.n_bins + j];
  RW_NOTE ("direct %.3f ms, first reflection %.3f ms; rays' energy before %.3f ms: %.3g",
           1e3 * r / c, 1e3 * t1, 1e3 * j1 * g.rays.bin_s, e_early);
  RW_CHECK (e_early == 0.0, "the rays leave the direct sound out (%.3g)", e_early);
  const double area = area_at (&g, r / c);
  RW_NOTE ("air off: direct sound's area %.6f, 1/r %.6f (%+.4f %%)", area, 1 / r,
           100 * (area * r - 1));
  RW_CHECK (fabs (area * r - 1) < 0.01, "area %.6f vs 1/r %.6f", area, 1 / r);
  rw_ga_result_clear (&g);

  set.air_absorption = true;
  ok = rw_ga_compute (scene, Y, sc, ns, src, rcv, &set, &g, &err);
  RW_CHECK (ok, "GA IR, air: %s", err.message);
  if (!ok)
    return rw_test_finish ();
  int n_first = 0;
  double worst = 0.0;
  for (size_t i = 0; i < g.ism.n_arrivals; i++)
    {
      const RwIsmArrival *a = &g.ism.arrivals[i];
      if (a->order > 1)
        continue;
      const double d = a->distance_m;
      double R = 1.0;
      if (a->order == 1)
        {
          R = (a->cos_incidence[0] - Y_WALL) / (a->cos_incidence[0] + Y_WALL) * sqrt (1 - SCAT);
          n_first++;
        }
      else
        RW_CHECK (fabs (d - r) < 1e-9, "direct distance %.9f vs %.9f", d, r);
      for (int b = 0; b < RW_N_OCTAVES; b++)
        {
          const double f = 1000.0 * pow (10.0, 0.3 * (b - 4));
          const double al = rw_air_absorption_db_per_m (f, RW_DEFAULT_TEMPERATURE_C,
                                                        RW_AIR_DEFAULT_HUMIDITY_PCT,
                                                        RW_AIR_PRESSURE_KPA);
          const double want = R * pow (10.0, -al * d / 20.0) / d;
          const double got = creal (a->gain[b]);
          worst = fmax (worst, fabs (got / want - 1) + fabs (cimag (a->gain[b])) / fabs (want));
          if (a->order == 0 && (b == 0 || b == RW_N_OCTAVES - 1))
            RW_NOTE ("air on, %g Hz: direct gain %.6f, 10^(−α r/20)/r %.6f",
                     rw_octave_centres_hz[b], got, want);
        }
    }
  RW_NOTE ("air on: direct + %d first-order gains, worst relative error %.3g", n_first, worst);
  RW_CHECK (n_first == 6 && worst < 1e-9, "%d first-order arrivals, gains within %.3g", n_first,
            worst);
  const double a0 = creal (g.ism.arrivals[0].gain[0]), area_air = area_at (&g, r / c);
  RW_NOTE ("air on: direct sound's area %.6f, 63 Hz gain %.6f", area_air, a0);
  RW_CHECK (g.ism.arrivals[0].order == 0 && fabs (area_air / a0 - 1) < 0.01,
            "area %.6f vs %.6f", area_air, a0);
  rw_ga_result_clear (&g);
  ga_room_free (&room);
  return rw_test_finish ();
}
