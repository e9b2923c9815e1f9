/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ga-ambisonic: the geometrical IR as an ambisonic IR (rw_ga_ambisonic,
 * issue #13) in the concert-hall-like room of ga-threads (5000 rays,
 * 0.5 s, image sources to order 3):
 *  - W equals the omni IR of rw_ga_compute to 1e-12 of its peak (the same
 *    bands summed in another order), at orders 1 and 3;
 *  - the direct sound (±1 ms around r/c) decodes (energy vector, max-rE)
 *    to the direction from the receiver towards the source within 5° (the
 *    issue's bound for the geometrical part), with the length of a single
 *    plane wave (r_N within 1 %);
 *  - a listener turned by yaw 90° hears it 90° further clockwise: the
 *    decoded direction is the room direction rotated by −90° about z;
 *  - the late part (from 150 ms) is far less directional than the direct
 *    sound (energy-vector length below half of r_N);
 *  - receiver 1 of rw_ga_compute_receivers encodes with its own seed
 *    (rw_ga_receiver_seed) to a W equal to its omni IR;
 *  - order 0 and 4, and a result without rays, are refused.
 * Measured: W − omni 1.3e-16 of the peak; the direct sound 1.2° off at
 * orders 1 and 3, lengths 0.576 and 0.859 (r_N 0.577, 0.861); the late
 * part's lengths 0.18 and 0.26. Seen failing: with the late part's band
 * scale left at 1 instead of √g_b (3 checks: W off by the split's gains). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rw-test.h"
#include "rw-ambisonics.h"
#include "rw-ga.h"
#include "rw-shapes.h"
#include "test-ga-common.h"

static double
angle_deg (const double a[3], const double b[3])
{
  const double la = sqrt (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
  const double lb = sqrt (b[0] * b[0] + b[1] * b[1] + b[2] * b[2]);
  const double c = (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) / (la * lb);
  return acos (fmax (-1.0, fmin (1.0, c))) * 180.0 / M_PI;
}

/* W (channel 0) against the omni IR: the largest difference over the peak */
static double
w_error (const double *amb, const RwGaResult *g)
{
  double peak = 0, diff = 0;
  for (size_t i = 0; i < g->n_samples; i++)
    {
      peak = fmax (peak, fabs (g->ir[i]));
      diff = fmax (diff, fabs (amb[i] - g->ir[i]));
    }
  return diff / peak;
}

int
main (void)
{
  RwError err = { 0 };
  GaRoom room;
  if (!ga_room_hall (&room))
    return rw_test_finish ();
  const double src[3] = { 4.0, 8.0, 1.5 }, rcvs[2][3] = { { 16.0, 5.0, 1.2 }, { 12.0, 9.0, 1.4 } };
  RwGaSettings set;
  rw_ga_settings_init (&set);
  set.n_rays = 5000;
  set.duration_s = 0.5;
  RwGaResult g[2];
  RW_CHECK (rw_ga_compute_receivers (room.scene, room.Y, room.sc, room.ns, src, rcvs, 2, &set, g, &err),
            "geometrical IRs: %s", err.message);
  if (g[0].ir == NULL)
    return rw_test_finish ();
  const size_t n = g[0].n_samples;
  double *amb = malloc (16 * n * sizeof *amb);
  double truth[3], r = 0;
  for (int k = 0; k < 3; k++)
    {
      truth[k] = src[k] - rcvs[0][k];
      r += truth[k] * truth[k];
    }
  r = sqrt (r);
  const size_t t0 = (size_t) floor ((r / set.speed_of_sound - 0.001) * g[0].fs_hz);
  const size_t nd = (size_t) (0.002 * g[0].fs_hz);
  const size_t late0 = (size_t) (0.15 * g[0].fs_hz);
  const int orders[2] = { 1, 3 };
  for (int k = 0; k < 2; k++)
    {
      const int N = orders[k];
      RW_CHECK (rw_ga_ambisonic (&g[0], N, 0, 0, set.seed, amb, &err), "order %d: %s", N, err.message);
      const double we = w_error (amb, &g[0]);
      double re[3], rl[3];
      RW_CHECK (rw_ambi_energy_vector (amb, N, n, t0, nd, re, &err), "energy vector: %s", err.message);
      RW_CHECK (rw_ambi_energy_vector (amb, N, n, late0, n - late0, rl, &err), "late: %s", err.message);
      const double len = sqrt (re[0] * re[0] + re[1] * re[1] + re[2] * re[2]);
      const double llen = sqrt (rl[0] * rl[0] + rl[1] * rl[1] + rl[2] * rl[2]);
      const double ang = angle_deg (re, truth);
      RW_NOTE ("order %d: W − omni %.2g of the peak; direct sound %.3f° off, length %.4f (r_N %.4f); "
               "late part length %.3f", N, we, ang, len, rw_ambi_max_re (N), llen);
      RW_CHECK (we < 1e-12, "order %d: W differs from the omni IR by %.3g of its peak", N, we);
      RW_CHECK (ang < 5.0, "order %d: the direct sound decodes %.2f° from the source", N, ang);
      RW_CHECK (fabs (len / rw_ambi_max_re (N) - 1.0) < 0.01, "order %d: direct sound's length %.4f", N, len);
      RW_CHECK (llen < 0.5 * rw_ambi_max_re (N), "order %d: the late part's length %.3f", N, llen);
    }
  /* a listener turned left by 90°: the source appears 90° to the right */
  RW_CHECK (rw_ga_ambisonic (&g[0], 3, 90.0, 0.0, set.seed, amb, &err), "yaw 90: %s", err.message);
  double re[3];
  const double turned[3] = { truth[1], -truth[0], truth[2] };
  RW_CHECK (rw_ambi_energy_vector (amb, 3, n, t0, nd, re, &err) && angle_deg (re, turned) < 5.0,
            "yaw 90°: decoded %.2f° from the rotated direction", angle_deg (re, turned));
  /* receiver 1 with its own seed */
  RW_CHECK (rw_ga_ambisonic (&g[1], 1, 0, 0, rw_ga_receiver_seed (set.seed, 1), amb, &err)
            && w_error (amb, &g[1]) < 1e-12, "receiver 1: W differs from its omni IR by %.3g",
            w_error (amb, &g[1]));
  /* refused */
  RW_CHECK (!rw_ga_ambisonic (&g[0], 0, 0, 0, 1, amb, &err) && err.code == RW_ERROR_INPUT, "order 0 accepted");
  RW_CHECK (!rw_ga_ambisonic (&g[0], 4, 0, 0, 1, amb, &err) && err.code == RW_ERROR_INPUT, "order 4 accepted");
  RwGaResult empty = { 0 };
  RW_CHECK (!rw_ga_ambisonic (&empty, 1, 0, 0, 1, amb, &err) && err.code == RW_ERROR_INPUT,
            "an empty result accepted");
  free (amb);
  rw_ga_result_clear (&g[0]);
  rw_ga_result_clear (&g[1]);
  ga_room_free (&room);
  return rw_test_finish ();
}
