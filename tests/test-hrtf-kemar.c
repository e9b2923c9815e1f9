/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hrtf-kemar: issue #13's proof on the bundled MIT KEMAR set, at the set's
 * own rate (44.1 kHz) and resampled to 48 kHz:
 *
 * - a source 90° to the right (azimuth −90°, direction (0, −1, 0)):
 *   interaural time difference 0.6 … 0.75 ms, the right ear first (the
 *   ITD of a human-sized head at 90°: Woodworth's spherical head of
 *   radius 8.75 cm gives (a/c)(θ + sin θ) = 0.656 ms, and KEMAR's
 *   published low-frequency ITD is ≈ 0.7 ms); level difference above
 *   10 dB in the 4 kHz octave band, the right ear louder — checked at
 *   40°, 50°, …, 100°; at 90° itself the far ear's bright spot (below)
 *   makes it lowest: the test checks that it is below the ILD at 80° and
 *   at 100° (the diffuse-field equalised set gives 10.3 dB at 90°, 14.0
 *   at 80° and 11.8 at 100°; the raw set gave 9.2 dB at 90°);
 * - at 0°: |ITD| < 20 µs;
 * - azimuth 0°, 10°, …, 90° to either side (measured directions):
 *   the ITD grows strictly with the azimuth, its sign the side's;
 * - 0° … 90° in 1° steps (4 of 5 interpolated between measured
 *   directions): the ITD rises at every step up to 80° (interpolation,
 *   not the nearest measurement's 5° plateaus) and never falls to 90°;
 * - the two rates give the same ITDs (resampling keeps the delays);
 * - diffuse-field equalised (rw-hrtf.h step 3): the mean over 2000
 *   directions of a Fibonacci sphere (equal areas) of the two ears'
 *   energy in each octave band 250 Hz … 4 kHz, over a unit pulse's
 *   energy in the band, is within 1 dB of 0 dB (the raw set: −11.7 …
 *   +7.7 dB); the 125 Hz and 8 kHz bands are reported (the filter is held
 *   below 200 Hz and above 90 % of 22.05 kHz).
 *
 * ITD and ILD as test-hrtf-common.h measures them: the lag of the
 * maximum of the cross-correlation of the two ears' responses low-passed
 * below 1.5 kHz; the energy ratio of the two ears in the octave band
 * 2828–5657 Hz. */
#include <stdlib.h>
#include <string.h>

#include "rw-test.h"
#include "rw-hrtf.h"
#include "test-hrtf-common.h"

#define DEG (M_PI / 180.0)

typedef struct {
  double itd_s;   /* > 0: the left ear later (the source on the right) */
  double ild_4k_db;  /* > 0: the right ear louder */
} Cues;

static Cues
cues (const RwHrtf *h, double azimuth_deg)
{
  const size_t n = rw_hrtf_length (h);
  const double fs = rw_hrtf_rate (h);
  float *l = malloc (n * sizeof *l), *r = malloc (n * sizeof *r);
  double *dl = malloc (n * sizeof *dl), *dr = malloc (n * sizeof *dr);
  const double dir[3] = { cos (azimuth_deg * DEG), sin (azimuth_deg * DEG), 0.0 };
  RwError err = { 0 };
  double delay_l = 0, delay_r = 0;
  Cues c = { NAN, NAN };
  bool ok = rw_hrtf_get (h, dir, l, r, &delay_l, &delay_r, &err);
  RW_CHECK (ok, "rw_hrtf_get %g°: %s", azimuth_deg, err.message);
  if (ok)
    {
      for (size_t i = 0; i < n; i++)
        {
          dl[i] = l[i];
          dr[i] = r[i];
        }
      /* The MIT set holds its delays in the responses (Data.Delay 0). */
      RW_CHECK (delay_l == 0.0 && delay_r == 0.0, "Data.Delay %g, %g s", delay_l, delay_r);
      c.itd_s = hrtf_test_lag (dl, dr, n, fs, 1500.0, 1.0e-3) + delay_l - delay_r;
      const double f0 = 4000.0 / M_SQRT2, f1 = 4000.0 * M_SQRT2;
      c.ild_4k_db = 10.0 * log10 (hrtf_test_band_energy (dr, n, fs, f0, f1)
                                  / hrtf_test_band_energy (dl, n, fs, f0, f1));
    }
  free (l);
  free (r);
  free (dl);
  free (dr);
  return c;
}

/* The proof at one rate; itd_1deg gets the ITDs at 0 … 90° to the right. */
static void
prove (const RwHrtf *h, const char *label, double itd_1deg[91])
{
  RW_NOTE ("%s: %s, %zu directions, %zu taps at %g Hz (set's rate %g Hz), reference delay %.3f ms",
           label, rw_hrtf_path (h), rw_hrtf_n_directions (h), rw_hrtf_length (h), rw_hrtf_rate (h),
           rw_hrtf_set_rate (h), 1e3 * rw_hrtf_reference_delay (h));
  Cues right = cues (h, -90.0), left = cues (h, 90.0), front = cues (h, 0.0);
  RW_NOTE ("%s: 90° right: ITD %.1f µs, ILD(4 kHz) %.1f dB; 90° left: ITD %.1f µs, ILD %.1f dB; "
           "front: ITD %.1f µs", label, 1e6 * right.itd_s, right.ild_4k_db, 1e6 * left.itd_s,
           left.ild_4k_db, 1e6 * front.itd_s);
  RW_CHECK (right.itd_s >= 0.60e-3 && right.itd_s <= 0.75e-3,
            "%s: ITD at 90° right %.1f µs, not 600 … 750 µs (right ear first)", label,
            1e6 * right.itd_s);
  /* ILD: above 10 dB on the source's side, but at 90° itself the far
     ear's "bright spot" (the waves round the head meet in phase at the
     pole opposite the source: Duda & Martens, JASA 104(5), 1998, rigid
     sphere) lowers it below its neighbours' at 80° and 100°. */
  Cues at80 = cues (h, -80.0), at100 = cues (h, -100.0);
  RW_NOTE ("%s: ILD(4 kHz) %.2f dB at 80°, %.2f dB at 90°, %.2f dB at 100° right", label,
           at80.ild_4k_db, right.ild_4k_db, at100.ild_4k_db);
  for (int az = 40; az <= 100; az += 10)
    {
      const double ild = cues (h, -az).ild_4k_db;
      RW_CHECK (ild > 10.0, "%s: ILD at %d° right in the 4 kHz band %.2f dB, not > 10 dB", label,
                az, ild);
    }
  RW_CHECK (right.ild_4k_db < at80.ild_4k_db && right.ild_4k_db < at100.ild_4k_db,
            "%s: ILD at 90° right %.2f dB: not below 80°'s (%.2f) and 100°'s (%.2f)",
            label, right.ild_4k_db, at80.ild_4k_db, at100.ild_4k_db);
  /* The other side mirrors it: the convention's sign (+90° is the left). */
  RW_CHECK (left.itd_s <= -0.60e-3 && left.itd_s >= -0.75e-3,
            "%s: ITD at 90° left %.1f µs, not −600 … −750 µs (left ear first)", label,
            1e6 * left.itd_s);
  RW_CHECK (left.ild_4k_db < -5.0, "%s: ILD at 90° left %.2f dB, not < −5 dB", label,
            left.ild_4k_db);
  RW_CHECK (fabs (front.itd_s) < 20e-6, "%s: ITD at 0° %.2f µs, not within 20 µs of 0", label,
            1e6 * front.itd_s);

  /* Measured directions, 10° apart, on either side. */
  for (int side = -1; side <= 1; side += 2)
    {
      double prev = -INFINITY;
      char line[512] = "";
      for (int az = 0; az <= 90; az += 10)
        {
          /* side −1: the right, where the ITD is positive. */
          const double itd = -side * cues (h, side * az).itd_s;
          snprintf (line + strlen (line), sizeof line - strlen (line), " %.0f", 1e6 * itd);
          RW_CHECK (itd > prev, "%s: ITD not monotonic: %g µs at %d° after %g µs", label, 1e6 * itd,
                    side * az, 1e6 * prev);
          prev = itd;
        }
      RW_NOTE ("%s: |ITD| µs at 0, 10, …, 90° to the %s:%s", label, side < 0 ? "right" : "left",
               line);
    }

  /* 1° steps to the right: interpolated between measured directions. */
  for (int az = 0; az <= 90; az++)
    itd_1deg[az] = cues (h, -az).itd_s;
}

/* The diffuse-field response per octave band (above). */
static void
diffuse_field (const RwHrtf *h)
{
  RwError err = { 0 };
  const size_t n = rw_hrtf_length (h);
  const double fs = rw_hrtf_rate (h);
  float *l = malloc (n * sizeof *l), *r = malloc (n * sizeof *r);
  double *dl = malloc (n * sizeof *dl), *dr = malloc (n * sizeof *dr), *pulse = calloc (n, sizeof *pulse);
  pulse[0] = 1.0;
  double df[8] = { 0 };
  const int n_dirs = 2000;
  for (int i = 0; i < n_dirs; i++)
    {
      const double z = 1.0 - (2.0 * i + 1.0) / n_dirs, rho = sqrt (1.0 - z * z);
      const double phi = i * M_PI * (3.0 - sqrt (5.0));
      const double d[3] = { rho * cos (phi), rho * sin (phi), z };
      RW_CHECK (rw_hrtf_get (h, d, l, r, NULL, NULL, &err), "HRIR: %s", err.message);
      for (size_t k = 0; k < n; k++)
        {
          dl[k] = l[k];
          dr[k] = r[k];
        }
      for (int b = 1; b < 8; b++)
        {
          const double fc = 62.5 * pow (2.0, b), f0 = fc / M_SQRT2, f1 = fc * M_SQRT2;
          df[b] += 0.5 * (hrtf_test_band_energy (dl, n, fs, f0, f1)
                          + hrtf_test_band_energy (dr, n, fs, f0, f1)) / n_dirs;
        }
    }
  char line[256] = "";
  for (int b = 1; b < 8; b++)
    {
      const double fc = 62.5 * pow (2.0, b);
      const double db = 10 * log10 (df[b] / hrtf_test_band_energy (pulse, n, fs, fc / M_SQRT2,
                                                                      fc * M_SQRT2));
      snprintf (line + strlen (line), sizeof line - strlen (line), " %.0f Hz %+.2f dB;", fc, db);
      if (b >= 2 && b <= 6)
        RW_CHECK (fabs (db) < 1.0, "diffuse field in the %.0f Hz band %+.2f dB, not within 1 dB", fc, db);
    }
  RW_NOTE ("48 kHz: diffuse-field response per octave band:%s", line);
  free (l);
  free (r);
  free (dl);
  free (dr);
  free (pulse);
}

int
main (void)
{
  RwError err = { 0 };
  RwHrtf *own = rw_hrtf_open (NULL, 0.0, &err);
  RW_CHECK (own != NULL, "default set at its own rate: %s", err.message);
  err = (RwError) { 0 };
  RwHrtf *at48 = rw_hrtf_open (NULL, 48000.0, &err);
  RW_CHECK (at48 != NULL, "default set at 48 kHz: %s", err.message);
  if (own == NULL || at48 == NULL)
    {
      rw_hrtf_free (own);
      rw_hrtf_free (at48);
      return rw_test_finish ();
    }
  /* The set as Gardner & Martin describe it: 710 directions, 512 taps at
     44.1 kHz; resampled, ⌈512 · 48 / 44.1⌉ = 558 taps; each through the
     diffuse-field filter of as many taps: 2n − 1. */
  RW_CHECK (rw_hrtf_n_directions (own) == 710, "%zu directions", rw_hrtf_n_directions (own));
  RW_CHECK (rw_hrtf_set_rate (own) == 44100.0 && rw_hrtf_rate (own) == 44100.0, "rate %g / %g",
            rw_hrtf_set_rate (own), rw_hrtf_rate (own));
  RW_CHECK (rw_hrtf_length (own) == 1023, "%zu taps", rw_hrtf_length (own));
  RW_CHECK (rw_hrtf_rate (at48) == 48000.0 && rw_hrtf_length (at48) == 1115,
            "at 48 kHz: %g Hz, %zu taps", rw_hrtf_rate (at48), rw_hrtf_length (at48));

  double itd_own[91], itd_48[91];
  prove (own, "44.1 kHz", itd_own);
  prove (at48, "48 kHz", itd_48);

  /* The sweep in 1° steps, 4 of every 5 directions interpolated between
     measured ones (5° apart on the horizontal plane): up to 80°, where
     the ITD still grows by ≈ 2 µs a degree or more, it must rise at every
     step by more than the correlation's grid (0.7 µs at 44.1 kHz): a
     nearest-neighbour lookup would give 5° plateaus. From 80° to 90° the
     ITD flattens towards its maximum; there it must not fall. And both
     rates agree: resampling keeps delays, to within a fraction of a
     44.1 kHz sample (22.7 µs). */
  double least_rise = INFINITY, worst_back = 0.0, worst_rate = 0.0;
  for (int az = 1; az <= 90; az++)
    for (int k = 0; k < 2; k++)
      {
        const double *itd = k ? itd_48 : itd_own;
        if (az <= 80)
          least_rise = fmin (least_rise, itd[az] - itd[az - 1]);
        else
          worst_back = fmax (worst_back, itd[az - 1] - itd[az]);
      }
  for (int az = 0; az <= 90; az++)
    worst_rate = fmax (worst_rate, fabs (itd_own[az] - itd_48[az]));
  RW_NOTE ("1° sweep 0 … 90° right: ITD %.1f → %.1f µs (44.1 kHz), %.1f → %.1f µs (48 kHz); "
           "least rise per degree up to 80° %.2f µs; largest step back from 80° to 90° %.2f µs; "
           "largest difference between the rates %.2f µs",
           1e6 * itd_own[0], 1e6 * itd_own[90], 1e6 * itd_48[0], 1e6 * itd_48[90],
           1e6 * least_rise, 1e6 * worst_back, 1e6 * worst_rate);
  RW_CHECK (least_rise > 1.0e-6, "ITD rises by only %.2f µs in a 1° step below 80°",
            1e6 * least_rise);
  RW_CHECK (worst_back <= 0.0, "ITD falls by %.2f µs in a 1° step from 80° to 90°",
            1e6 * worst_back);
  RW_CHECK (worst_rate <= 10e-6, "ITDs at 44.1 and 48 kHz differ by %.2f µs", 1e6 * worst_rate);

  diffuse_field (at48);
  rw_hrtf_free (own);
  rw_hrtf_free (at48);
  return rw_test_finish ();
}
