/* SPDX-License-Identifier: GPL-3.0-or-later */
/* air-absorption-decay: rw_air_absorption_apply checked through an
 * independent route, the ISO 3382-1 analysis of rw-analysis.h (IIR
 * octave filters, Schroeder integration, least-squares fit), which shares
 * no code with the FFT band split:
 *  - decaying tones (T60 = 2 s at 48 kHz, 30 dB/s), one octave band at a
 *    time: after the attenuation (20 °C, 50 % RH, and 10 % where the
 *    bands differ more) the decay rate of each octave band 63 Hz … 8 kHz
 *    (the slope of its T20 fit) grows by α_b · c dB/s, the band's
 *    ISO 9613-1 coefficient times the distance travelled per second,
 *    within 3 % (measured: within 0.6 %), for a tone at the band's centre
 *    and, from 250 Hz, for three tones across the band;
 *  - the direct sound at short distance: an impulse 1 ms (0.34 m) after
 *    the emission keeps its area (its low frequencies) within 0.01 % and
 *    its peak within 0.5 % (what 0.34 m of air takes from its top octave,
 *    8–12 kHz: 0.04 to 0.1 dB);
 *  - with every coefficient 0 the bands add back to the input (measured:
 *    bit-identical after the round trip through double precision): the
 *    split is flat;
 *  - the bands run on threads, each with a spectrum and a signal of its
 *    own, and are summed in band order: one thread and four give the same
 *    bits (seen failing, 144 000 of 144 000 samples, with the threads
 *    sharing one scratch). Fixed-seed PRNG. */
#include "rw-test.h"
#include "rw-air.h"
#include "rw-analysis.h"

#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FS 48000.0
#define T60_S 2.0
#define DUR_S 3.0

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static double
uniform (void)
{
  return rw_test_uniform (&rng_state);
}

/* Tones in octave band b, decaying at 60 dB per T60_S, random phases:
 * one at the exact midband frequency, or three, adding a quarter octave
 * either side (inside the part of each band that the split gives the
 * band's own coefficient alone, ±1/3 octave around the centre). Tones
 * rather than noise: the energy envelope of a band of noise scatters, and
 * so does the slope fitted to it (measured: ±1 dB/s, more than the change
 * from 63 Hz to 1 kHz); that of a tone is smooth. */
static float *
decaying_tones (int b, int n_tones, size_t n)
{
  float *x = calloc (n, sizeof *x);
  for (int j = 0; j < n_tones; j++)
      {
      const double f = rw_octave_exact_centre_hz (b) * pow (2.0, 0.25 * (j == 2 ? -1 : j));
      const double phase = 2.0 * M_PI * uniform ();
      for (size_t i = 0; i < n; i++)
        {
          double t = (double) i / FS;
          x[i] += (float) (0.1 * sin (2.0 * M_PI * f * t + phase) * pow (10.0, -60.0 / T60_S * t / 20.0));
        }
    }
  return x;
}

/* White noise (random signs) with the same decay. */
static float *
decaying_noise (size_t n)
{
  float *x = malloc (n * sizeof *x);
  for (size_t i = 0; i < n; i++)
    {
      double t = (double) i / FS;
      x[i] = (float) ((uniform () < 0.5 ? -1.0 : 1.0) * pow (10.0, -60.0 / T60_S * t / 20.0));
    }
  return x;
}

static void
check_decay (double temperature_c, double humidity_pct, int n_tones, int first_band)
{
  const size_t n = (size_t) (DUR_S * FS);
  RwAirBands air;
  RwError err = { 0 };
  RW_CHECK (rw_air_bands (temperature_c, humidity_pct, RW_AIR_PRESSURE_KPA, FS, &air, &err), "%s", err.message);
  /* One band at a time: the analysis' octave filters let a neighbour
   * band's tones through their skirts (−20 dB an octave off), which would
   * mix that band's decay into this one's. */
  for (int b = first_band; b < RW_N_OCTAVES; b++)
    {
      float *x = decaying_tones (b, n_tones, n);
      float *y = malloc (n * sizeof *y);
      memcpy (y, x, n * sizeof *y);
      RW_CHECK (rw_air_absorption_apply (&air, y, n, FS, &err), "apply: %s", err.message);
      RwAnalysis before, after;
      RW_CHECK (rw_analyse (x, n, FS, INFINITY, &before, &err), "analyse: %s", err.message);
      RW_CHECK (rw_analyse (y, n, FS, INFINITY, &after, &err), "analyse: %s", err.message);
      const double expected = -air.alpha_db_per_m[b] * air.c_m_per_s;   /* dB/s */
      const double s0 = before.bands[b].t20.slope_db_per_s, s1 = after.bands[b].t20.slope_db_per_s;
      const double change = s1 - s0;
      RW_NOTE ("%g °C, %g %%, %d tone(s): %5g Hz: α %.4g dB/km, decay %.3f → %.3f dB/s: change %.4f dB/s, "
               "expected α·c = %.4f dB/s (%+.2f %%)", temperature_c, humidity_pct, n_tones, rw_octave_centres_hz[b],
               1000.0 * air.alpha_db_per_m[b], s0, s1, change, expected,
               100.0 * (change / expected - 1.0));
      char what[96];
      snprintf (what, sizeof what, "%g Hz band: change of the decay rate, dB/s", rw_octave_centres_hz[b]);
      RW_CHECK_CLOSE (change, expected, 0.03 * fabs (expected), what);
      rw_analysis_clear (&before);
      rw_analysis_clear (&after);
      free (x);
      free (y);
    }
}

int
main (void)
{
  check_decay (20, 50, 1, 0);
  check_decay (20, 10, 1, 0);
  /* Three tones from 250 Hz: at 63 and 125 Hz, tones a quarter octave
   * apart beat at 12–30 Hz, which ripples the decay curve more than the
   * 0.04–0.3 dB/s to be measured there. */
  check_decay (20, 50, 3, 2);
  check_decay (20, 10, 3, 2);

  /* The direct sound 1 ms after the emission: a band-limited impulse (a
   * Hann-windowed sinc, flat to 8 kHz) keeps its peak and area. */
  const size_t n = 24000, at = 48;
  float *x = calloc (n, sizeof *x), *y = calloc (n, sizeof *y);
  for (size_t i = 0; i < 96; i++)
    {
      double k = (double) i - (double) at;
      double s = k == 0 ? 1.0 : sin (M_PI * k / 2.0) / (M_PI * k / 2.0);   /* cut-off fs/4 */
      x[i] = y[i] = (float) (0.5 * s * (0.5 + 0.5 * cos (M_PI * k / 48.0)));
    }
  RwAirBands air;
  RwError err = { 0 };
  rw_air_bands (20, 50, RW_AIR_PRESSURE_KPA, FS, &air, &err);
  RW_CHECK (rw_air_absorption_apply (&air, y, n, FS, &err), "apply: %s", err.message);
  double ax = 0, ay = 0;
  for (size_t i = 0; i < n; i++)
    ax += x[i], ay += y[i];
  RW_NOTE ("direct sound at 0.34 m: peak %.6f → %.6f, area %.6f → %.6f", x[at], y[at], ax, ay);
  RW_CHECK_CLOSE (y[at] / x[at], 1.0, 5e-3, "peak of the direct sound at 0.34 m");
  RW_CHECK_CLOSE (ay / ax, 1.0, 1e-4, "area of the direct sound at 0.34 m");

  /* One thread and four: the same bits. */
  {
    const size_t k = (size_t) (DUR_S * FS);
    float *one = decaying_noise (k), *four = malloc (k * sizeof *four);
    memcpy (four, one, k * sizeof *four);
    const int was = omp_get_max_threads ();
    omp_set_num_threads (1);
    RW_CHECK (rw_air_absorption_apply (&air, one, k, FS, &err), "apply: %s", err.message);
    omp_set_num_threads (4);
    RW_CHECK (rw_air_absorption_apply (&air, four, k, FS, &err), "apply: %s", err.message);
    omp_set_num_threads (was);
    size_t differ = 0;
    for (size_t i = 0; i < k; i++)
      differ += memcmp (&one[i], &four[i], sizeof one[i]) != 0;
    RW_CHECK (differ == 0, "%zu of %zu samples differ between one thread and four", differ, k);
    free (one);
    free (four);
  }

  /* Every coefficient 0: the bands add back to the input. */
  const size_t m = (size_t) (DUR_S * FS);
  float *z = decaying_noise (m), *w = malloc (m * sizeof *w);
  memcpy (w, z, m * sizeof *w);
  for (size_t b = 0; b < air.n_bands; b++)
    air.alpha_db_per_m[b] = 0.0;
  RW_CHECK (rw_air_absorption_apply (&air, w, m, FS, &err), "apply: %s", err.message);
  double worst = 0;
  for (size_t i = 0; i < m; i++)
    worst = fmax (worst, fabs (w[i] - z[i]) / fmax (fabs (z[i]), 1e-30));
  RW_NOTE ("α = 0: largest relative change of a sample %.3g", worst);
  RW_CHECK (worst < 1e-6, "α = 0 changes a sample by %.3g of itself: the bands do not add up", worst);

  /* A rate the bands were not made for is refused. */
  RW_CHECK (!rw_air_absorption_apply (&air, w, m, 8000.0, &err) && err.code == RW_ERROR_INPUT,
            "bands of 48 kHz applied at 8 kHz");
  free (x);
  free (y);
  free (z);
  free (w);
  return rw_test_finish ();
}
