/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ambi-rotate: rw_ambi_rotate against the definition. A plane wave Y(d)
 * (rw_ambi_sh, SN3D/ACN) rotated by yaw and pitch must be Y(q) exactly,
 * q = rw_ambi_room_to_head (yaw, pitch, d): 200 random directions and
 * orientations at each order 1 … 3, to 1e-12. Then group properties that
 * do not go through rw_ambi_room_to_head at all: yaw ψ₁ then ψ₂ is
 * ψ₁ + ψ₂, pitch likewise; a turn and its reverse give back the input;
 * 360° of yaw is the identity; each order's energy Σ_m x_nm² is kept
 * (the rotation of every order is orthogonal under SN3D's uniform
 * per-order norm); a yaw of +90° (the head turned left) puts a frontal
 * source on the right (y = −1). Bad input: an order of 0 or 4, an angle
 * that is not finite, out aliasing in, each refused. */
#include <stdlib.h>
#include <string.h>

#include "rw-test.h"
#include "rw-ambisonics.h"
#include "rw-ambi-binaural.h"
#include "test-ambi-common.h"

#define NS 3   /* samples per signal: the rotation acts on each alike */

/* A signal whose sample t is (t + 1) × Y(d): planar L × NS. */
static void
plane_wave (int order, const double d[3], double *x)
{
  const size_t L = RW_AMBI_CHANNELS (order);
  double y[RW_AMBI_MAX_CHANNELS];
  rw_ambi_sh (order, d, y);
  for (size_t c = 0; c < L; c++)
    for (size_t t = 0; t < NS; t++)
      x[c * NS + t] = (double) (t + 1) * y[c];
}

static double
max_diff (const double *a, const double *b, size_t n)
{
  double m = 0.0;
  for (size_t i = 0; i < n; i++)
    m = fmax (m, fabs (a[i] - b[i]));
  return m;
}

static void
rotate (const double *in, int order, double yaw, double pitch, double *out)
{
  RwError err = { 0 };
  bool ok = rw_ambi_rotate (in, order, NS, yaw, pitch, out, &err);
  RW_CHECK (ok, "rw_ambi_rotate order %d (%g°, %g°): %s", order, yaw, pitch, err.message);
}

int
main (void)
{
  uint64_t st = 0x9e3779b97f4a7c15ull;
  const size_t LM = RW_AMBI_MAX_CHANNELS * NS;
  for (int order = 1; order <= 3; order++)
    {
      const size_t L = RW_AMBI_CHANNELS (order);
      double worst = 0.0, worst_group = 0.0, worst_energy = 0.0;
      for (int trial = 0; trial < 200; trial++)
        {
          double d[3], q[3], x[LM], y[LM], ref[LM], z[LM];
          ambi_random_direction (&st, d);
          const double yaw = 720.0 * rw_test_uniform (&st) - 360.0;
          const double pitch = 180.0 * rw_test_uniform (&st) - 90.0;
          plane_wave (order, d, x);
          rotate (x, order, yaw, pitch, y);
          rw_ambi_room_to_head (yaw, pitch, d, q);
          plane_wave (order, q, ref);
          worst = fmax (worst, max_diff (y, ref, L * NS));

          /* group properties: yaw + yaw, pitch + pitch, reverse turns */
          const double yaw2 = 360.0 * rw_test_uniform (&st) - 180.0;
          const double p1 = 80.0 * rw_test_uniform (&st) - 40.0, p2 = 80.0 * rw_test_uniform (&st) - 40.0;
          rotate (x, order, yaw, 0.0, y);
          rotate (y, order, yaw2, 0.0, z);
          rotate (x, order, yaw + yaw2, 0.0, ref);
          worst_group = fmax (worst_group, max_diff (z, ref, L * NS));
          rotate (x, order, 0.0, p1, y);
          rotate (y, order, 0.0, p2, z);
          rotate (x, order, 0.0, p1 + p2, ref);
          worst_group = fmax (worst_group, max_diff (z, ref, L * NS));
          rotate (x, order, yaw, pitch, y);
          rotate (y, order, 0.0, -pitch, z);
          rotate (z, order, -yaw, 0.0, ref);
          worst_group = fmax (worst_group, max_diff (x, ref, L * NS));
          rotate (x, order, 360.0, 0.0, y);
          worst_group = fmax (worst_group, max_diff (x, y, L * NS));

          /* energy per order, on a random (not plane-wave) signal */
          for (size_t i = 0; i < L * NS; i++)
            x[i] = rw_test_gauss (&st);
          rotate (x, order, yaw, pitch, y);
          for (int n = 0; n <= order; n++)
            for (size_t t = 0; t < NS; t++)
              {
                double ex = 0.0, ey = 0.0;
                for (int c = n * n; c < (n + 1) * (n + 1); c++)
                  {
                    ex += x[c * NS + t] * x[c * NS + t];
                    ey += y[c * NS + t] * y[c * NS + t];
                  }
                worst_energy = fmax (worst_energy, fabs (ex - ey));
              }
        }
      RW_NOTE ("order %d: |R Y(d) − Y(q)| ≤ %.2e, group ≤ %.2e, per-order energy ≤ %.2e", order, worst,
               worst_group, worst_energy);
      RW_CHECK (worst <= 1e-12, "order %d: rotated plane wave off by %.3g", order, worst);
      RW_CHECK (worst_group <= 1e-12, "order %d: compositions off by %.3g", order, worst_group);
      RW_CHECK (worst_energy <= 1e-12, "order %d: energy changed by %.3g", order, worst_energy);
    }

  /* The head turned 90° left: the frontal source is on its right. */
  {
    const double front[3] = { 1, 0, 0 };
    double x[LM], y[LM];
    plane_wave (1, front, x);
    rotate (x, 1, 90.0, 0.0, y);
    /* ACN 1 is Y_1^−1 = y, 2 = z, 3 = x */
    RW_CHECK_CLOSE (y[1 * NS], -1.0, 1e-12, "yaw +90°: y of a frontal source");
    RW_CHECK_CLOSE (y[3 * NS], 0.0, 1e-12, "yaw +90°: x of a frontal source");
    /* The head pitched up 30°: the frontal source is 30° below. */
    rotate (x, 1, 0.0, 30.0, y);
    RW_CHECK_CLOSE (y[2 * NS], -0.5, 1e-12, "pitch +30°: z of a frontal source");
  }

  /* Bad input. */
  {
    double x[LM], y[LM];
    memset (x, 0, sizeof x);
    RwError err = { 0 };
    RW_CHECK (!rw_ambi_rotate (x, 0, NS, 0, 0, y, &err) && err.code == RW_ERROR_INPUT, "order 0 accepted");
    RW_CHECK (!rw_ambi_rotate (x, 4, NS, 0, 0, y, &err) && err.code == RW_ERROR_INPUT, "order 4 accepted");
    RW_CHECK (!rw_ambi_rotate (x, 1, NS, NAN, 0, y, &err) && err.code == RW_ERROR_INPUT, "NaN yaw accepted");
    RW_CHECK (!rw_ambi_rotate (x, 1, NS, 0, INFINITY, y, &err) && err.code == RW_ERROR_INPUT,
              "infinite pitch accepted");
    RW_CHECK (!rw_ambi_rotate (x, 1, NS, 10, 0, x + 1, &err), "aliasing accepted");
  }
  return rw_test_finish ();
}
