/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-clock.h — seconds on the monotonic clock: timings, progress rates and
 * chunk sizing (never the wall-clock date). */
#pragma once

#include <time.h>

static inline double
rw_clock_s (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}
