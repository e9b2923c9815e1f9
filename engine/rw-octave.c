/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-octave.c — IEC 61260-1 octave-band filters.
 *
 * Each band is a Butterworth band-pass built from the order-3 low-pass
 * prototype (a 6th-order band-pass), mapped to the digital domain by the
 * bilinear transform with pre-warped band edges, so that the −3 dB points
 * fall exactly on the IEC band edges fm·G^(∓1/2) at any rate. Order 3 is
 * the lowest Butterworth order that meets the class 1 mask of
 * IEC 61260-1:2014 Table 1 for octave bands (at Ω = G² the mask asks
 * 40.5 dB, order 3 gives 43.4 dB); a higher order would ring longer and
 * smear the decay of the low bands more (ISO 3382-1's B·T criterion).
 *
 * The band-pass transform s → (s² + ω0²)/(B s) turns each prototype pole
 * p into the roots of s² − p B s + ω0² = 0; the three prototype poles give
 * six band-pass poles, grouped as conjugate pairs into three real
 * second-order sections, each with numerator B s. Their product is the
 * analogue band-pass exactly (the prototype's gain Π(−p) is 1).
 */
#include <complex.h>
#include <math.h>
#include <string.h>

#include "rw-analysis.h"
#include "rw-i18n.h"

/* glibc defines CMPLX only for GCC ≥ 4.7; clang (which claims GCC 4.2)
 * gets this. Exact for the finite parts used here. */
#ifndef CMPLX
#define CMPLX(x, y) ((double complex) ((double) (x) + (double) (y) * (double complex) _Complex_I))
#endif

/* Base-10 octave ratio G = 10^(3/10) (IEC 61260-1:2014, 5.2). */
#define RW_OCTAVE_G 1.9952623149688795

double
rw_octave_exact_centre_hz (int band)
{
  /* band 0 = 63 Hz is x = −4 from the 1 kHz reference. */
  return 1000.0 * pow (RW_OCTAVE_G, band - 4);
}

/* Bilinear transform of (B s) / (s² + a1 s + a0), K = 2 fs. */
static void
bilinear_section (double B, double a1, double a0, double K, RwBiquad *q)
{
  double d0 = K * K + a1 * K + a0;

  q->b[0] = B * K / d0;
  q->b[1] = 0.0;
  q->b[2] = -B * K / d0;
  q->a[0] = 1.0;
  q->a[1] = (2.0 * a0 - 2.0 * K * K) / d0;
  q->a[2] = (K * K - a1 * K + a0) / d0;
}

bool
rw_octave_filter_design (double centre_hz, double rate_hz, RwOctaveFilter *filter,
                         RwError *err)
{
  memset (filter, 0, sizeof *filter);
  if (!(centre_hz > 0.0) || !(rate_hz > 0.0) || !isfinite (centre_hz) || !isfinite (rate_hz))
    return rw_fail (err, RW_ERROR_INPUT,
                    _("octave filter: centre %g Hz and rate %g Hz must be positive"),
                    centre_hz, rate_hz);

  double lower_hz = centre_hz / sqrt (RW_OCTAVE_G);
  double upper_hz = centre_hz * sqrt (RW_OCTAVE_G);
  if (upper_hz >= 0.5 * rate_hz)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("octave filter: band %g Hz reaches %.0f Hz, above the Nyquist "
                      "frequency %.0f Hz of a %g Hz signal"),
                    centre_hz, upper_hz, 0.5 * rate_hz, rate_hz);

  filter->centre_hz = centre_hz;
  filter->lower_hz = lower_hz;
  filter->upper_hz = upper_hz;
  filter->rate_hz = rate_hz;

  /* Pre-warped analogue edges: the digital −3 dB points land on the IEC
   * edges exactly. */
  double K = 2.0 * rate_hz;
  double w1 = K * tan (M_PI * lower_hz / rate_hz);
  double w2 = K * tan (M_PI * upper_hz / rate_hz);
  double B = w2 - w1;
  double w0sq = w1 * w2;

  /* Real prototype pole −1: s² + B s + ω0². */
  bilinear_section (B, B, w0sq, K, &filter->sections[0]);

  /* Pole pair p, p* = −1/2 ± j√3/2: the roots r1, r2 of
   * s² − p B s + ω0² pair with their conjugates (roots for p*). */
  double complex p = CMPLX (-0.5, sqrt (3.0) / 2.0);
  double complex disc = csqrt (p * p * B * B - 4.0 * w0sq);
  double complex r[2] = { (p * B + disc) / 2.0, (p * B - disc) / 2.0 };
  for (int i = 0; i < 2; i++)
    {
      double a1 = -2.0 * creal (r[i]);
      double a0 = creal (r[i]) * creal (r[i]) + cimag (r[i]) * cimag (r[i]);
      bilinear_section (B, a1, a0, K, &filter->sections[1 + i]);
    }
  return true;
}

double
rw_octave_filter_gain_db (const RwOctaveFilter *filter, double freq_hz)
{
  double w = 2.0 * M_PI * freq_hz / filter->rate_hz;
  double complex z1 = cexp (CMPLX (0.0, -w));
  double complex z2 = z1 * z1;
  double complex h = 1.0;

  for (int s = 0; s < RW_OCTAVE_FILTER_SECTIONS; s++)
    {
      const RwBiquad *q = &filter->sections[s];
      h *= (q->b[0] + q->b[1] * z1 + q->b[2] * z2) / (q->a[0] + q->a[1] * z1 + q->a[2] * z2);
    }
  return 20.0 * log10 (cabs (h));
}

/* Direct form II transposed, in double: at 63 Hz and 48 kHz the poles sit
 * within 0.01 of the unit circle, where single precision loses the band. */
static void
run_section (const RwBiquad *q, double *x, size_t n, bool reversed)
{
  double s1 = 0.0, s2 = 0.0;

  for (size_t k = 0; k < n; k++)
    {
      size_t i = reversed ? n - 1 - k : k;
      double in = x[i];
      double out = q->b[0] * in + s1;
      s1 = q->b[1] * in - q->a[1] * out + s2;
      s2 = q->b[2] * in - q->a[2] * out;
      x[i] = out;
    }
}

void
rw_octave_filter_apply (const RwOctaveFilter *filter, RwFilterDirection direction,
                        const double *in, double *out, size_t n)
{
  if (out != in)
    memmove (out, in, n * sizeof *out);
  /* Running the recursion from the last sample to the first is the same
   * as reversing, filtering and reversing back. */
  for (int s = 0; s < RW_OCTAVE_FILTER_SECTIONS; s++)
    run_section (&filter->sections[s], out, n, direction == RW_FILTER_TIME_REVERSED);
}

bool
rw_octave_filter (double centre_hz, double rate_hz, RwFilterDirection direction,
                  const double *in, double *out, size_t n, RwError *err)
{
  RwOctaveFilter filter;

  if (!rw_octave_filter_design (centre_hz, rate_hz, &filter, err))
    return false;
  rw_octave_filter_apply (&filter, direction, in, out, n);
  return true;
}
