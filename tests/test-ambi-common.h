/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-ambi-common.h — shared by the ambi-* tests. */
#pragma once

#include <math.h>

/* The angle between two vectors (any lengths, not zero), degrees. */
static inline double
ambi_angle_deg (const double a[3], const double b[3])
{
  const double la = sqrt (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
  const double lb = sqrt (b[0] * b[0] + b[1] * b[1] + b[2] * b[2]);
  const double c = (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) / (la * lb);
  return acos (fmax (-1.0, fmin (1.0, c))) * 180.0 / M_PI;
}
