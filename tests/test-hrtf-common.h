/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-hrtf-common.h — what the HRTF tests measure on a pair of ear
 * signals, independently of engine/rw-hrtf.c:
 *
 * - the lag between two signals by cross-correlation, low-passed: the
 *   interaural time difference (ITD) as the lag of the maximum of the
 *   interaural cross-correlation of the responses low-passed below 1.5 kHz
 *   (the "IACC" method; Katz & Noisternig, "A comparative study of
 *   interaural time delay estimation methods", JASA 135(6), 2014: below
 *   1.5 kHz the head's delay is the phase delay the auditory system uses,
 *   and the pinnae's high-frequency ringing does not pull the peak). The
 *   cross-spectrum is zero-padded UPSAMPLE times before the inverse FFT,
 *   so the correlation is read on a grid of 1/(UPSAMPLE · fs) (0.7 µs at
 *   44.1 kHz): a band-limited interpolation, not a parabola.
 * - the energy of a signal in a frequency range (an FFT of the whole
 *   zero-padded signal): the interaural level difference (ILD) of an
 *   octave band as the ratio of the two ears' energies in it.
 */
#pragma once

#include <complex.h>
#include <fftw3.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HRTF_TEST_UPSAMPLE 32

static size_t
hrtf_test_pow2 (size_t n)
{
  size_t N = 1;
  while (N < n)
    N *= 2;
  return N;
}

/* The spectrum of x (n samples) zero-padded to N: N/2 + 1 bins, malloc'd. */
static fftw_complex *
hrtf_test_spectrum (const double *x, size_t n, size_t N)
{
  double *in = fftw_malloc (N * sizeof *in);
  fftw_complex *out = fftw_malloc ((N / 2 + 1) * sizeof *out);
  memset (in, 0, N * sizeof *in);
  memcpy (in, x, n * sizeof *in);
  fftw_plan p = fftw_plan_dft_r2c_1d ((int) N, in, out, FFTW_ESTIMATE);
  fftw_execute (p);
  fftw_destroy_plan (p);
  fftw_free (in);
  return out;
}

/* The lag τ (seconds, |τ| ≤ max_lag_s) that maximises
 * Σ_t a(t + τ) b(t), both low-passed below lowpass_hz (all of it when 0):
 * how much later a is than b. */
static double
hrtf_test_lag (const double *a, const double *b, size_t n, double fs, double lowpass_hz,
               double max_lag_s)
{
  const size_t N = hrtf_test_pow2 (2 * n);
  const size_t M = N * HRTF_TEST_UPSAMPLE;
  fftw_complex *A = hrtf_test_spectrum (a, n, N);
  fftw_complex *B = hrtf_test_spectrum (b, n, N);
  fftw_complex *C = fftw_malloc ((M / 2 + 1) * sizeof *C);
  double *c = fftw_malloc (M * sizeof *c);
  memset (C, 0, (M / 2 + 1) * sizeof *C);
  for (size_t k = 0; k <= N / 2; k++)
    {
      const double f = (double) k * fs / (double) N;
      if (lowpass_hz == 0.0 || f < lowpass_hz)
        C[k] = A[k] * conj (B[k]) * (2 * k == N ? 0.5 : 1.0);
    }
  fftw_plan p = fftw_plan_dft_c2r_1d ((int) M, C, c, FFTW_ESTIMATE);
  fftw_execute (p);
  fftw_destroy_plan (p);
  const double step = 1.0 / (fs * HRTF_TEST_UPSAMPLE);
  const long L = (long) floor (max_lag_s / step);
  long best = 0;
  double best_v = -INFINITY;
  for (long l = -L; l <= L; l++)
    {
      const double v = c[l >= 0 ? (size_t) l : (size_t) ((long) M + l)];
      if (v > best_v)
        {
          best_v = v;
          best = l;
        }
    }
  fftw_free (A);
  fftw_free (B);
  fftw_free (C);
  fftw_free (c);
  return (double) best * step;
}

/* Energy of x (n samples at fs) between f_lo and f_hi (Hz), from its
 * zero-padded spectrum (Parseval: bins weighted as in Σ |X|² / N). */
static double
hrtf_test_band_energy (const double *x, size_t n, double fs, double f_lo, double f_hi)
{
  const size_t N = hrtf_test_pow2 (4 * n);
  fftw_complex *X = hrtf_test_spectrum (x, n, N);
  double e = 0.0;
  for (size_t k = 0; k <= N / 2; k++)
    {
      const double f = (double) k * fs / (double) N;
      if (f >= f_lo && f < f_hi)
        e += (k == 0 || 2 * k == N ? 1.0 : 2.0) * creal (X[k] * conj (X[k]));
    }
  fftw_free (X);
  return e / (double) N;
}
