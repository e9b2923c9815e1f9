/* SPDX-License-Identifier: GPL-3.0-or-later */
/* analysis-spectrum: rw_frequency_response on known signals.
 *  - A sum of three sines on exact bins (amplitudes 1, 0.1, 0.01) gives
 *    raw-bin peaks at their frequencies with |H| = A·N/2, i.e. the dB
 *    levels 20 lg (A N / 2), and nothing comparable elsewhere.
 *  - A unit impulse (flat spectrum, 0 dB) stays at 0 dB ± 0.01 dB under
 *    1/1, 1/3, 1/6, 1/12 and 1/24-octave smoothing.
 *  - 1/3-octave smoothing of a single spectral line at f0 is non-zero
 *    exactly for f ∈ [f0·2^(−1/6), f0·2^(1/6)] (the window slid over the
 *    line) and there equals the line's power divided by the bins in the
 *    window; a third-octave wide, as power averaging says.
 *  - Bad input is refused with a message. */
#include "rw-test.h"
#include "rw-analysis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FS 48000.0
#define N 48000   /* 1 s: bins 1 Hz apart */

static void
check_sines (void)
{
  float *x = malloc (N * sizeof *x);
  const double f[3] = { 100.0, 1000.0, 5000.0 }, A[3] = { 1.0, 0.1, 0.01 };
  for (size_t i = 0; i < N; i++)
    {
      double v = 0.0;
      for (int s = 0; s < 3; s++)
        v += A[s] * sin (2.0 * M_PI * f[s] * (double) i / FS);
      x[i] = (float) v;
    }
  RwSpectrum sp;
  RwError err = { 0 };
  bool ok = rw_frequency_response (x, N, FS, 0, 20.0, 20000.0, 0, &sp, &err);
  RW_CHECK (ok, "frequency response: %s", err.message);
  free (x);
  if (!ok)
    return;
  RW_CHECK (sp.n == 19981, "%zu raw bins in 20 … 20000 Hz, expected 19981", sp.n);
  for (int s = 0; s < 3; s++)
    {
      /* Highest bin within ±5 Hz of the sine. */
      size_t best = 0;
      double best_db = -INFINITY;
      for (size_t i = 0; i < sp.n; i++)
        if (fabs (sp.frequency_hz[i] - f[s]) <= 5.0 && sp.level_db[i] > best_db)
          {
            best = i;
            best_db = sp.level_db[i];
          }
      double want = 20.0 * log10 (A[s] * N / 2.0);
      RW_NOTE ("sine %g Hz amplitude %g: peak %.2f Hz %.3f dB (expected %.3f dB)", f[s], A[s],
               sp.frequency_hz[best], best_db, want);
      RW_CHECK_CLOSE (sp.frequency_hz[best], f[s], 1e-9, "peak frequency");
      RW_CHECK_CLOSE (best_db, want, 0.01, "peak level");
    }
  /* Away from the three lines the spectrum is at least 60 dB below the
   * smallest one (float rounding of the signal sets the floor). */
  double worst = -INFINITY;
  for (size_t i = 0; i < sp.n; i++)
    {
      bool near = false;
      for (int s = 0; s < 3; s++)
        near = near || fabs (sp.frequency_hz[i] - f[s]) <= 5.0;
      if (!near)
        worst = fmax (worst, sp.level_db[i]);
    }
  RW_CHECK (worst < 20.0 * log10 (0.01 * N / 2.0) - 60.0, "leakage %.1f dB", worst);
  rw_spectrum_clear (&sp);
}

static void
check_flat (void)
{
  float *x = calloc (N, sizeof *x);
  x[0] = 1.0f;
  const int fractions[] = { 0, 1, 3, 6, 12, 24 };
  for (size_t j = 0; j < sizeof fractions / sizeof fractions[0]; j++)
    {
      RwSpectrum sp;
      RwError err = { 0 };
      bool ok = rw_frequency_response (x, N, FS, fractions[j], 20.0, 20000.0, 24, &sp, &err);
      RW_CHECK (ok, "frequency response: %s", err.message);
      if (!ok)
        continue;
      double dev = 0.0;
      for (size_t i = 0; i < sp.n; i++)
        dev = fmax (dev, fabs (sp.level_db[i]));
      RW_NOTE ("impulse, smoothing 1/%d octave: %zu points, largest deviation from 0 dB %.2e dB",
               fractions[j], sp.n, dev);
      RW_CHECK (dev < 0.01, "flat spectrum smoothed 1/%d: deviation %.4f dB", fractions[j], dev);
      if (fractions[j] > 0)
        {
          /* Log axis: 24 points per octave from 20 Hz. */
          RW_CHECK_CLOSE (sp.frequency_hz[0], 20.0, 1e-9, "first frequency");
          RW_CHECK_CLOSE (sp.frequency_hz[24], 40.0, 1e-9, "one octave up");
        }
      rw_spectrum_clear (&sp);
    }
  free (x);
}

static void
check_spike (void)
{
  /* A cosine at exactly 1000 Hz over the whole second: all of its power
   * in the one bin k0 = 1000, (N/2)² = |H(f0)|². */
  float *x = malloc (N * sizeof *x);
  for (size_t i = 0; i < N; i++)
    x[i] = (float) cos (2.0 * M_PI * 1000.0 * (double) i / FS);
  RwSpectrum sp;
  RwError err = { 0 };
  bool ok = rw_frequency_response (x, N, FS, 3, 500.0, 2000.0, 100, &sp, &err);
  RW_CHECK (ok, "frequency response: %s", err.message);
  free (x);
  if (!ok)
    return;
  double lo = 1000.0 * pow (2.0, -1.0 / 6.0), hi = 1000.0 * pow (2.0, 1.0 / 6.0);
  double first = NAN, last = NAN, line_db = 20.0 * log10 (N / 2.0);
  for (size_t i = 0; i < sp.n; i++)
    {
      double f = sp.frequency_hz[i];
      /* Window [f·2^(−1/6), f·2^(1/6)] holds the bins ceil … floor. */
      double nbins = floor (f * pow (2.0, 1.0 / 6.0)) - ceil (f * pow (2.0, -1.0 / 6.0)) + 1.0;
      bool inside = f * pow (2.0, -1.0 / 6.0) <= 1000.0 && f * pow (2.0, 1.0 / 6.0) >= 1000.0;
      if (inside)
        {
          if (isnan (first))
            first = f;
          last = f;
          RW_CHECK_CLOSE (sp.level_db[i], line_db - 10.0 * log10 (nbins), 0.01, "smoothed level");
        }
      else
        RW_CHECK (sp.level_db[i] < line_db - 80.0, "%.1f Hz outside the window: %.1f dB", f,
                  sp.level_db[i]);
    }
  RW_NOTE ("1/3-octave smoothed line at 1000 Hz: non-zero from %.1f to %.1f Hz "
           "(window edges %.1f, %.1f Hz; 100 points per octave)", first, last, lo, hi);
  /* The axis points are 1/100 octave apart and none falls on an edge
   * (±1/6 octave from 1000 Hz, itself on the axis), so the first and last
   * non-zero points lie within 1/100 octave inside the edges. */
  RW_CHECK (first >= lo && first < lo * pow (2.0, 1.0 / 100.0), "spread starts at %.2f Hz", first);
  RW_CHECK (last <= hi && last > hi * pow (2.0, -1.0 / 100.0), "spread ends at %.2f Hz", last);
  RW_CHECK_CLOSE (log2 (last / first), 1.0 / 3.0, 2.0 / 100.0, "spread width, octaves");
  rw_spectrum_clear (&sp);
}

int
main (void)
{
  check_sines ();
  check_flat ();
  check_spike ();

  RwSpectrum sp;
  RwError err = { 0 };
  float one = 1.0f;
  RW_CHECK (!rw_frequency_response (&one, 1, FS, 3, 20.0, 20000.0, 0, &sp, &err), "1 sample accepted");
  RW_CHECK (err.message[0] != '\0', "no message");
  float two[2] = { 1.0f, 0.0f };
  RW_CHECK (!rw_frequency_response (two, 2, FS, -3, 20.0, 20000.0, 0, &sp, &err), "smoothing −3 accepted");
  return rw_test_finish ();
}
