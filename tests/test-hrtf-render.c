/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hrtf-render: rw_hrtf_render_arrivals against what a binaural IR of
 * arrivals must be, on the bundled MIT KEMAR set at 48 kHz:
 *
 * - the reference delay the renderer removes is the MIT set's lead-in:
 *   Gardner & Martin's responses start ≈ 230 samples after the emission
 *   (1.4 m of air and 50 samples of the system) and they cut the first
 *   200, so the head's response begins ≈ 30 samples (0.68 ms) in:
 *   0.5 … 0.9 ms here;
 * - one broadband arrival at a whole sample: each ear is the arrival's
 *   gain times its response (rw_hrtf_get) starting at time − reference
 *   delay, to rounding, and nothing elsewhere;
 * - the same arrival half a sample later: the same energy (within 1 %)
 *   and a lag of 0.5 samples (cross-correlation, within 0.05);
 * - two arrivals rendered together are the sum of each alone (linear);
 * - per-band gains: 0.5 in the 4 kHz band and 1 in every other scales
 *   the energy between the band's crossovers (3.2 … 4.9 kHz, where the
 *   split's weight is 1) by 0.25 and leaves the 1 kHz band (0.8 …
 *   1.25 kHz) as it was, within 1 %;
 * - an arrival that starts before time 0 or past the end loses those
 *   taps and nothing else. */
#include <stdlib.h>
#include <string.h>

#include "rw-test.h"
#include "rw-hrtf.h"
#include "test-hrtf-common.h"

#define N_SAMPLES 4800   /* 0.1 s at 48 kHz */

static double
energy (const double *x, size_t n)
{
  double e = 0.0;
  for (size_t i = 0; i < n; i++)
    e += x[i] * x[i];
  return e;
}

static void
set_gain (RwHrtfArrival *a, double g)
{
  for (int b = 0; b < RW_N_OCTAVES; b++)
    a->gain[b] = g;
}

int
main (void)
{
  RwError err = { 0 };
  RwHrtf *h = rw_hrtf_open (NULL, 48000.0, &err);
  RW_CHECK (h != NULL, "default set at 48 kHz: %s", err.message);
  if (h == NULL)
    return rw_test_finish ();
  const double fs = rw_hrtf_rate (h), d0 = rw_hrtf_reference_delay (h);
  const size_t len = rw_hrtf_length (h);
  /* the set's own lead-in after the low-frequency extension's delay */
  const double lead = d0 - 0.5 * (double) rw_hrtf_lf_taps (fs) / fs;
  RW_NOTE ("reference delay %.4f ms (%.1f samples at 48 kHz), the set's lead-in %.4f ms", 1e3 * d0,
           d0 * fs, 1e3 * lead);
  RW_CHECK (lead >= 0.5e-3 && lead <= 0.9e-3, "lead-in %.4f ms, not 0.5 … 0.9 ms", 1e3 * lead);

  double *L = calloc (N_SAMPLES, sizeof *L), *R = calloc (N_SAMPLES, sizeof *R);
  double *L2 = calloc (N_SAMPLES, sizeof *L2), *R2 = calloc (N_SAMPLES, sizeof *R2);
  double *L3 = calloc (N_SAMPLES, sizeof *L3), *R3 = calloc (N_SAMPLES, sizeof *R3);
  float *hl = malloc (len * sizeof *hl), *hr = malloc (len * sizeof *hr);

  /* One arrival at a whole sample: 480 samples after the reference. */
  RwHrtfArrival a = { .time_s = d0 + 480.0 / fs, .direction = { -0.6, -0.7, 0.3 } };
  set_gain (&a, 0.5);
  RW_CHECK (rw_hrtf_render_arrivals (h, &a, 1, N_SAMPLES, L, R, &err), "render: %s", err.message);
  RW_CHECK (rw_hrtf_get (h, a.direction, hl, hr, NULL, NULL, &err), "get: %s", err.message);
  double worst = 0.0, scale = 0.0;
  for (size_t i = 0; i < N_SAMPLES; i++)
    {
      const bool in = i >= 480 && i < 480 + len;
      const double el = in ? 0.5 * hl[i - 480] : 0.0, er = in ? 0.5 * hr[i - 480] : 0.0;
      worst = fmax (worst, fmax (fabs (L[i] - el), fabs (R[i] - er)));
      scale = fmax (scale, fmax (fabs (el), fabs (er)));
    }
  RW_NOTE ("whole-sample arrival: largest difference from the placed response %.3g (peak %.3g)",
           worst, scale);
  RW_CHECK (worst <= 1e-9 * scale + 1e-12, "whole-sample arrival differs by %.3g", worst);

  /* Half a sample later. */
  a.time_s += 0.5 / fs;
  RW_CHECK (rw_hrtf_render_arrivals (h, &a, 1, N_SAMPLES, L2, R2, &err), "render: %s",
            err.message);
  const double lag_l = hrtf_test_lag (L2, L, N_SAMPLES, fs, 0.0, 5.0 / fs) * fs;
  const double lag_r = hrtf_test_lag (R2, R, N_SAMPLES, fs, 0.0, 5.0 / fs) * fs;
  const double e_ratio = energy (L2, N_SAMPLES) / energy (L, N_SAMPLES);
  RW_NOTE ("half a sample later: lag %.4f / %.4f samples, energy ratio %.5f", lag_l, lag_r,
           e_ratio);
  RW_CHECK_CLOSE (lag_l, 0.5, 0.05, "left lag, samples");
  RW_CHECK_CLOSE (lag_r, 0.5, 0.05, "right lag, samples");
  RW_CHECK_CLOSE (e_ratio, 1.0, 0.01, "energy after a half-sample delay");

  /* Linearity: the two above together. */
  RwHrtfArrival two[2] = { a, a };
  two[0].time_s -= 0.5 / fs;
  set_gain (&two[0], 0.5);
  RW_CHECK (rw_hrtf_render_arrivals (h, two, 2, N_SAMPLES, L3, R3, &err), "render: %s",
            err.message);
  worst = 0.0;
  for (size_t i = 0; i < N_SAMPLES; i++)
    worst = fmax (worst, fmax (fabs (L3[i] - L[i] - L2[i]), fabs (R3[i] - R[i] - R2[i])));
  RW_CHECK (worst <= 1e-9 * scale, "two arrivals differ from the sum of each by %.3g", worst);

  /* Per-band gains against the broadband render (L, R at gain 0.5). */
  RwHrtfArrival band = a;
  band.time_s = d0 + 480.0 / fs;
  set_gain (&band, 0.5);
  band.gain[6] = 0.25;   /* the 4 kHz octave */
  RW_CHECK (rw_hrtf_render_arrivals (h, &band, 1, N_SAMPLES, L2, R2, &err), "render: %s",
            err.message);
  for (int ear = 0; ear < 2; ear++)
    {
      const double *ref = ear ? R : L, *x = ear ? R2 : L2;
      const double r4 = hrtf_test_band_energy (x, N_SAMPLES, fs, 3200.0, 4900.0)
                        / hrtf_test_band_energy (ref, N_SAMPLES, fs, 3200.0, 4900.0);
      const double r1 = hrtf_test_band_energy (x, N_SAMPLES, fs, 800.0, 1250.0)
                        / hrtf_test_band_energy (ref, N_SAMPLES, fs, 800.0, 1250.0);
      RW_NOTE ("%s ear, 4 kHz band at half the gain: energy ratio %.4f in 3.2–4.9 kHz, %.4f in "
               "0.8–1.25 kHz", ear ? "right" : "left", r4, r1);
      RW_CHECK_CLOSE (r4, 0.25, 0.0025, "energy ratio in the 4 kHz band");
      RW_CHECK_CLOSE (r1, 1.0, 0.01, "energy ratio in the 1 kHz band");
    }

  /* Clipped at both ends: an arrival whose response starts 100 samples
     before 0, and one that starts 100 samples before the end. */
  RwHrtfArrival edge = a;
  edge.time_s = d0 - 100.0 / fs;
  set_gain (&edge, 1.0);
  RW_CHECK (rw_hrtf_render_arrivals (h, &edge, 1, N_SAMPLES, L2, R2, &err), "render: %s",
            err.message);
  worst = 0.0;
  for (size_t i = 0; i + 100 < len; i++)
    worst = fmax (worst, fmax (fabs (L2[i] - hl[i + 100]), fabs (R2[i] - hr[i + 100])));
  for (size_t i = len - 100; i < N_SAMPLES; i++)
    worst = fmax (worst, fmax (fabs (L2[i]), fabs (R2[i])));
  RW_CHECK (worst <= 1e-9 * scale + 1e-12, "arrival before 0: differs by %.3g", worst);
  edge.time_s = d0 + (double) (N_SAMPLES - 100) / fs;
  RW_CHECK (rw_hrtf_render_arrivals (h, &edge, 1, N_SAMPLES, L2, R2, &err), "render: %s",
            err.message);
  worst = 0.0;
  for (size_t i = 0; i < N_SAMPLES; i++)
    {
      const bool in = i >= N_SAMPLES - 100;
      worst = fmax (worst, fabs (L2[i] - (in ? hl[i - (N_SAMPLES - 100)] : 0.0)));
      worst = fmax (worst, fabs (R2[i] - (in ? hr[i - (N_SAMPLES - 100)] : 0.0)));
    }
  RW_CHECK (worst <= 1e-9 * scale + 1e-12, "arrival at the end: differs by %.3g", worst);

  free (L);
  free (R);
  free (L2);
  free (R2);
  free (L3);
  free (R3);
  free (hl);
  free (hr);
  rw_hrtf_free (h);
  return rw_test_finish ();
}
