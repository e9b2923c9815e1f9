/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-modes.h — the room-mode peak picking the mode tests share
 * (solver-modes-box, solver-fcc-modes-box): a receiver's spectrum with the
 * linear trend removed (a soft impulse's zero-frequency mode grows
 * linearly in a closed lossless room), a Hann window and zero padding, and
 * the peak near a frequency by parabolic interpolation on the log
 * magnitude. */
#pragma once

#include <fftw3.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

/* The log magnitude of y's spectrum, nfft / 2 + 1 bins (nfft = n · pad),
 * malloc'd. */
static inline double *
test_modes_spectrum (const double *y, size_t n, size_t pad, size_t *nfft_out)
{
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (size_t k = 0; k < n; k++)
    {
      sx += (double) k;
      sy += y[k];
      sxx += (double) k * (double) k;
      sxy += (double) k * y[k];
    }
  const double N = (double) n;
  double slope = (N * sxy - sx * sy) / (N * sxx - sx * sx);
  double icpt = (sy - slope * sx) / N;
  size_t nfft = n * pad;
  double *in = fftw_malloc (nfft * sizeof (double));
  fftw_complex *out = fftw_malloc ((nfft / 2 + 1) * sizeof (fftw_complex));
  for (size_t k = 0; k < nfft; k++)
    in[k] = k < n ? (y[k] - icpt - slope * (double) k)
                    * (0.5 - 0.5 * cos (2 * M_PI * (double) k / (N - 1)))
                  : 0.0;
  fftw_plan plan = fftw_plan_dft_r2c_1d ((int) nfft, in, out, FFTW_ESTIMATE);
  fftw_execute (plan);
  double *mag = malloc ((nfft / 2 + 1) * sizeof (double));
  for (size_t k = 0; k <= nfft / 2; k++)
    mag[k] = log (hypot (out[k][0], out[k][1]) + 1e-300);
  fftw_destroy_plan (plan);
  fftw_free (in);
  fftw_free (out);
  fftw_cleanup ();
  *nfft_out = nfft;
  return mag;
}

/* The largest bin between f_lo and f_hi (bin width df), interpolated;
 * false when it is at the edge of that range (no peak there). */
static inline bool
test_modes_peak (const double *mag, double df, double f_lo, double f_hi, double *found)
{
  size_t k0 = (size_t) (f_lo / df), k1 = (size_t) (f_hi / df);
  size_t kp = k0;
  for (size_t k = k0; k <= k1; k++)
    if (mag[k] > mag[kp])
      kp = k;
  double a = mag[kp - 1], b = mag[kp], cc = mag[kp + 1];
  double delta = 0.5 * (a - cc) / (a - 2 * b + cc);
  *found = ((double) kp + delta) * df;
  return kp > k0 && kp < k1;
}
