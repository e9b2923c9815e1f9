/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ambi-sh: the real spherical harmonics of rw-ambisonics (SN3D, ACN, no
 * Condon–Shortley phase: AmbiX) against independent references.
 *
 * - Closed forms: all 16 harmonics of order ≤ 3 at 500 pseudo-random
 *   directions against the Cartesian polynomials of the AmbiX convention
 *   (Nachbar et al. 2011, Table 1; Zotter & Frank 2019), e.g.
 *   Y_1^1 = x = cos φ cos θ, Y_2^−2 = √3 x y, Y_3^3 = √(5/8) x (x² − 3y²),
 *   written here by hand, to 10⁻¹²; the ACN index n² + n + m.
 * - Orthogonality: ∫ Y_n^m Y_n'^m' dΩ = 4π/(2n + 1) δ δ by a midpoint
 *   rule in z = sin θ (4000 cells; dΩ = dz dφ) × 64 azimuths, to 10⁻⁶
 *   relative to 4π.
 * - The addition theorem of SN3D, Σ_m Y_n^m(a) Y_n^m(b) = P_n(a · b), at
 *   200 random pairs, to 10⁻¹².
 * - The receiver's orientation: yaw 90° turns the room's +y into the
 *   head's front and the room's +x into its right (−y); pitch 30° turns
 *   (cos 30°, 0, sin 30°) into the front and the zenith into
 *   (sin 30°, 0, cos 30°); lengths kept; yaw 0, pitch 0 is the identity.
 */
#include <stdlib.h>
#include <string.h>

#include "rw-test.h"
#include "rw-ambisonics.h"
#include "rw-physics.h"
#include "test-ambi-common.h"

/* The AmbiX harmonics in Cartesian form, ACN order (the reference). */
static void
closed_form (const double d[3], double Y[16])
{
  const double x = d[0], y = d[1], z = d[2];
  Y[0] = 1.0;
  Y[1] = y;
  Y[2] = z;
  Y[3] = x;
  Y[4] = sqrt (3.0) * x * y;
  Y[5] = sqrt (3.0) * y * z;
  Y[6] = 0.5 * (3.0 * z * z - 1.0);
  Y[7] = sqrt (3.0) * x * z;
  Y[8] = 0.5 * sqrt (3.0) * (x * x - y * y);
  Y[9] = sqrt (5.0 / 8.0) * y * (3.0 * x * x - y * y);
  Y[10] = sqrt (15.0) * x * y * z;
  Y[11] = sqrt (3.0 / 8.0) * y * (5.0 * z * z - 1.0);
  Y[12] = 0.5 * z * (5.0 * z * z - 3.0);
  Y[13] = sqrt (3.0 / 8.0) * x * (5.0 * z * z - 1.0);
  Y[14] = 0.5 * sqrt (15.0) * z * (x * x - y * y);
  Y[15] = sqrt (5.0 / 8.0) * x * (x * x - 3.0 * y * y);
}

static double
legendre_p (int n, double x)
{
  switch (n)
    {
    case 0: return 1.0;
    case 1: return x;
    case 2: return 0.5 * (3.0 * x * x - 1.0);
    default: return 0.5 * (5.0 * x * x * x - 3.0 * x);
    }
}

static void
check_rotation (double yaw, double pitch, const double room[3], const double want[3],
                const char *what)
{
  double h[3];
  rw_ambi_room_to_head (yaw, pitch, room, h);
  const double e = fabs (h[0] - want[0]) + fabs (h[1] - want[1]) + fabs (h[2] - want[2]);
  RW_CHECK (e < 1e-12, "%s: (%.6f, %.6f, %.6f), expected (%.6f, %.6f, %.6f)", what, h[0], h[1],
            h[2], want[0], want[1], want[2]);
}

int
main (void)
{
  uint64_t st = 0x1234567ULL;

  /* ACN index */
  int k = 0;
  for (int n = 0; n <= 3; n++)
    for (int m = -n; m <= n; m++, k++)
      RW_CHECK (rw_ambi_acn (n, m) == k, "ACN of (%d, %d) is %d, expected %d", n, m,
                rw_ambi_acn (n, m), k);
  RW_CHECK (RW_AMBI_CHANNELS (3) == 16 && RW_AMBI_CHANNELS (1) == 4, "channel counts");

  /* closed forms, every order's prefix */
  double worst = 0.0;
  for (int i = 0; i < 500; i++)
    {
      double d[3], Y[16], ref[16];
      ambi_random_direction (&st, d);
      closed_form (d, ref);
      for (int order = 0; order <= 3; order++)
        {
          memset (Y, 0, sizeof Y);
          rw_ambi_sh (order, d, Y);
          for (int c = 0; c < RW_AMBI_CHANNELS (order); c++)
            worst = fmax (worst, fabs (Y[c] - ref[c]));
        }
    }
  RW_NOTE ("closed forms: largest difference %.3g over 500 directions", worst);
  RW_CHECK (worst < 1e-12, "harmonics differ from the AmbiX closed forms by %.3g", worst);
  /* from angles: Y_1^1 = cos φ cos θ, Y_1^−1 = sin φ cos θ, Y_1^0 = sin θ */
  {
    double Y[16];
    const double az = 0.7, el = -0.4;
    rw_ambi_sh_angles (3, az, el, Y);
    RW_CHECK_CLOSE (Y[3], cos (az) * cos (el), 1e-14, "Y_1^1");
    RW_CHECK_CLOSE (Y[1], sin (az) * cos (el), 1e-14, "Y_1^-1");
    RW_CHECK_CLOSE (Y[2], sin (el), 1e-14, "Y_1^0");
    RW_CHECK (Y[0] == 1.0, "Y_0^0 = %.17g, not exactly 1", Y[0]);
    /* the left (+y) is channel 1, up (+z) 2, front (+x) 3 */
    const double left[3] = { 0, 1, 0 };
    rw_ambi_sh (1, left, Y);
    RW_CHECK (fabs (Y[1] - 1.0) < 1e-15 && fabs (Y[2]) < 1e-15 && fabs (Y[3]) < 1e-15,
              "the left gives (%g, %g, %g) in channels 1 … 3", Y[1], Y[2], Y[3]);
  }

  /* orthogonality */
  {
    const int NZ = 4000, NP = 64;
    double G[16][16] = { { 0 } };
    for (int iz = 0; iz < NZ; iz++)
      {
        const double z = -1.0 + (iz + 0.5) * 2.0 / NZ, s = sqrt (1.0 - z * z);
        for (int ip = 0; ip < NP; ip++)
          {
            const double phi = 2.0 * M_PI * ip / NP;
            const double d[3] = { s * cos (phi), s * sin (phi), z };
            double Y[16];
            rw_ambi_sh (3, d, Y);
            const double w = (2.0 / NZ) * (2.0 * M_PI / NP);
            for (int a = 0; a < 16; a++)
              for (int b = 0; b < 16; b++)
                G[a][b] += w * Y[a] * Y[b];
          }
      }
    double err = 0.0;
    for (int n = 0; n <= 3; n++)
      for (int m = -n; m <= n; m++)
        for (int a = 0; a < 16; a++)
          {
            const int c = rw_ambi_acn (n, m);
            const double want = a == c ? 4.0 * M_PI / (2 * n + 1) : 0.0;
            err = fmax (err, fabs (G[c][a] - want) / (4.0 * M_PI));
          }
    RW_NOTE ("orthogonality: largest error %.3g (relative to 4π)", err);
    RW_CHECK (err < 1e-6, "∫ Y Y' dΩ differs from 4π/(2n+1) δ by %.3g", err);
  }

  /* addition theorem */
  {
    double e = 0.0;
    for (int i = 0; i < 200; i++)
      {
        double a[3], b[3], Ya[16], Yb[16];
        ambi_random_direction (&st, a);
        ambi_random_direction (&st, b);
        rw_ambi_sh (3, a, Ya);
        rw_ambi_sh (3, b, Yb);
        const double cg = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
        for (int n = 0; n <= 3; n++)
          {
            double s = 0.0;
            for (int m = -n; m <= n; m++)
              s += Ya[rw_ambi_acn (n, m)] * Yb[rw_ambi_acn (n, m)];
            e = fmax (e, fabs (s - legendre_p (n, cg)));
          }
      }
    RW_NOTE ("addition theorem: largest error %.3g", e);
    RW_CHECK (e < 1e-12, "Σ_m Y_n^m(a) Y_n^m(b) differs from P_n(a·b) by %.3g", e);
  }

  /* orientation */
  {
    const double ex[3] = { 1, 0, 0 }, ey[3] = { 0, 1, 0 }, ez[3] = { 0, 0, 1 };
    const double right[3] = { 0, -1, 0 };
    const double c30 = cos (M_PI / 6), s30 = 0.5;
    check_rotation (90, 0, ey, ex, "yaw 90: the room's +y is the front");
    check_rotation (90, 0, ex, right, "yaw 90: the room's +x is the right");
    check_rotation (90, 0, ez, ez, "yaw 90: up stays up");
    const double up30[3] = { c30, 0, s30 }, zen[3] = { s30, 0, c30 };
    check_rotation (0, 30, up30, ex, "pitch 30: 30° up in front is the front");
    check_rotation (0, 30, ez, zen, "pitch 30: the zenith is 60° up in front");
    const double lu[3] = { 0, c30, s30 };
    check_rotation (90, 30, lu, ex, "yaw 90, pitch 30: 30° up on the room's left is the front");
    double worst_len = 0.0, worst_id = 0.0;
    for (int i = 0; i < 100; i++)
      {
        double d[3], h[3];
        ambi_random_direction (&st, d);
        rw_ambi_room_to_head (360 * rw_test_uniform (&st) - 180, 180 * rw_test_uniform (&st) - 90,
                              d, h);
        worst_len = fmax (worst_len, fabs (sqrt (h[0] * h[0] + h[1] * h[1] + h[2] * h[2]) - 1));
        rw_ambi_room_to_head (0, 0, d, h);
        worst_id = fmax (worst_id, fabs (h[0] - d[0]) + fabs (h[1] - d[1]) + fabs (h[2] - d[2]));
      }
    RW_CHECK (worst_len < 1e-14, "a rotation changed a length by %.3g", worst_len);
    RW_CHECK (worst_id == 0.0, "yaw 0, pitch 0 is not the identity (%.3g)", worst_id);
  }
  return rw_test_finish ();
}
