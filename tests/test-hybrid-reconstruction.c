/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hybrid-reconstruction: joining an IR with itself gives it back, and
 * each filtered part is the convolution it claims to be.
 *  - x: 0.68 s (2^15 samples) of exponentially decaying Gaussian noise
 *    (T60 0.8 s) at 48 kHz with a direct sound (a unit pulse 3 ms after the emission,
 *    1.03 m: area 1 / r as the calibration has it); join (x, x) = x to
 *    1e-12 of its peak at the default crossover for fmax 1 kHz and at
 *    fc 300 Hz, so the direct sound comes out once, with its area;
 *  - the low part equals wave ⊛ h_L and the high part ga − ga ⊛ h_L,
 *    computed here by a direct time-domain sum of the designed taps (no
 *    FFT), for two different parts, at the first and last samples
 *    (where the convolution is cut) and across the middle, to 1e-12;
 *  - low + high = out. Fixed-seed PRNG. */
#include "rw-test.h"
#include "rw-hybrid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FS 48000.0
/* A power of two: an FFT convolution that wrapped around (too little
 * padding) would put the start's samples into the end, and the direct sums
 * at the ends would see it. */
#define N 32768

static void
decaying_noise (double *x, uint64_t seed, double t60)
{
  uint64_t s = seed;
  for (size_t i = 0; i < N; i++)
    x[i] = 0.05 * rw_test_gauss (&s) * exp (-6.907755 * (double) i / FS / t60);
}

/* Σ_k h[k] x[m − k] over the taps, x = 0 outside 0 … N − 1. */
static double
direct_conv (const RwHybridFilter *f, const double *x, size_t m)
{
  const long half = (long) f->half_length;
  double s = 0;
  for (long k = -half; k <= half; k++)
    {
      long j = (long) m - k;
      if (j >= 0 && j < N)
        s += f->taps[k + half] * x[j];
    }
  return s;
}

int
main (void)
{
  RwError err = { 0 };
  double *x = malloc (N * sizeof *x), *y = malloc (N * sizeof *y);
  double *out = malloc (N * sizeof *out), *lo = malloc (N * sizeof *lo),
         *hi = malloc (N * sizeof *hi);
  decaying_noise (x, 0x9e3779b97f4a7c15u, 0.8);
  const size_t direct = (size_t) (0.003 * FS);
  x[direct] += 1.0 / (343.0 * 0.003);

  const double fcs[] = { rw_hybrid_default_crossover (1000.0), 300.0 };
  for (size_t t = 0; t < 2; t++)
    {
      RwHybridPart p = { x, N, FS };
      bool ok = rw_hybrid_join (&p, &p, 1000.0, fcs[t], out, lo, hi, &err);
      RW_CHECK (ok, "join x, x at %g Hz: %s", fcs[t], err.message);
      if (!ok)
        continue;
      double e = 0, peak = 0, area = 0;
      for (size_t i = 0; i < N; i++)
        {
          e = fmax (e, fabs (out[i] - x[i]));
          peak = fmax (peak, fabs (x[i]));
        }
      /* The direct sound alone in both parts (its low part is cut where
       * h_L reaches before sample 0, and so is the high part's share):
       * the hybrid's area is 1/r, not 2/r. */
      memset (y, 0, N * sizeof *y);
      y[direct] = 1.0 / (343.0 * 0.003);
      RwHybridPart d = { y, N, FS };
      ok = rw_hybrid_join (&d, &d, 1000.0, fcs[t], lo, NULL, NULL, &err);
      RW_CHECK (ok, "join direct sound: %s", err.message);
      for (size_t i = 0; i < N; i++)
        area += lo[i];
      RW_NOTE ("fc %g Hz: |join (x, x) − x| ≤ %.3g (peak %.3g); direct-sound area %.12f "
               "(1/r = %.12f)", fcs[t], e, peak, area, 1.0 / (343.0 * 0.003));
      RW_CHECK (e <= 1e-12 * peak, "fc %g: join (x, x) differs from x by %.3g", fcs[t], e);
      RW_CHECK_CLOSE (area, 1.0 / (343.0 * 0.003), 1e-12, "direct sound taken once");
    }

  /* Two different parts: the filtered parts against direct sums. */
  decaying_noise (y, 12345, 0.5);
  RwHybridPart pw = { x, N, FS }, pg = { y, N, FS };
  RwHybridFilter f;
  bool ok = rw_hybrid_join (&pw, &pg, 1000.0, 500.0, out, lo, hi, &err)
            && rw_hybrid_filter_design (500.0, 1000.0, FS, &f, &err);
  RW_CHECK (ok, "join x, y: %s", err.message);
  if (ok)
    {
      double el = 0, eh = 0, es = 0;
      for (size_t m = 0; m < N; m++)
        {
          es = fmax (es, fabs (out[m] - lo[m] - hi[m]));
          /* Every sample near the ends, every 97th in between. */
          if (m > 2 * f.half_length && m + 2 * f.half_length < N && m % 97 != 0)
            continue;
          el = fmax (el, fabs (lo[m] - direct_conv (&f, x, m)));
          eh = fmax (eh, fabs (hi[m] - (y[m] - direct_conv (&f, y, m))));
        }
      RW_NOTE ("x ⊛ h_L: FFT vs direct sum ≤ %.3g; y ⊛ h_H ≤ %.3g; out − low − high ≤ %.3g",
               el, eh, es);
      RW_CHECK (el <= 1e-12, "low part differs from wave ⊛ h_L by %.3g", el);
      RW_CHECK (eh <= 1e-12, "high part differs from ga ⊛ h_H by %.3g", eh);
      RW_CHECK (es <= 1e-15, "out is not low + high (%.3g)", es);
      rw_hybrid_filter_clear (&f);
    }
  free (x);
  free (y);
  free (out);
  free (lo);
  free (hi);
  return rw_test_finish ();
}
