/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-ambi-common.h — shared by the ambi-* tests. */
#pragma once

#include <math.h>
#include <stdint.h>
#include "rw-test.h"

/* The angle between two vectors (any lengths, not zero), degrees. */
static inline double
ambi_angle_deg (const double a[3], const double b[3])
{
  const double la = sqrt (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
  const double lb = sqrt (b[0] * b[0] + b[1] * b[1] + b[2] * b[2]);
  const double c = (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) / (la * lb);
  return acos (fmax (-1.0, fmin (1.0, c))) * 180.0 / M_PI;
}

/* A direction uniform on the sphere (z uniform, azimuth uniform). */
static inline void
ambi_random_direction (uint64_t *st, double d[3])
{
  const double z = 2.0 * rw_test_uniform (st) - 1.0, phi = 2.0 * M_PI * rw_test_uniform (st);
  const double s = sqrt (1.0 - z * z);
  d[0] = s * cos (phi);
  d[1] = s * sin (phi);
  d[2] = z;
}
