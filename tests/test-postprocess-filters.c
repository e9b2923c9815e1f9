/* SPDX-License-Identifier: GPL-3.0-or-later */
/* postprocess-filters: the stages of rw_postprocess do what
 * rw-postprocess.h promises.
 *  - time: an impulse keeps its time (zero-phase filters, delay-free
 *    resampling) and its area (taps sum to 1, rate factor fs_grid/fs_out);
 *  - low-pass: flat (±0.05 dB) up to fmax, ≥ 60 dB down from 1.5 fmax;
 *  - DC block: the causal 2nd-order Butterworth response
 *    (f/fc)⁴/(1 + (f/fc)⁴) in power, within 0.05 dB at 15–80 Hz; a constant offset
 *    and a ramp (what a soft source leaves in a closed room) are gone after
 *    the filter has settled;
 *  - errors: non-finite input → RW_ERROR_UNSTABLE; empty input or bad
 *    settings → RW_ERROR_INPUT. */
#include "rw-test.h"
#include "rw-physics.h"
#include "rw-postprocess.h"

#include <math.h>
#include <stdlib.h>

static double fs, h, gain;

/* Amplitude of the sine at f in y[lo, hi) (least squares). */
static double
sine_amplitude (const float *y, size_t lo, size_t hi, double rate, double f)
{
  double sc = 0, ss = 0, cc = 0, s2 = 0, cs = 0;
  for (size_t i = lo; i < hi; i++)
    {
      double c = cos (2 * M_PI * f * (double) i / rate), s = sin (2 * M_PI * f * (double) i / rate);
      sc += y[i] * c; ss += y[i] * s; cc += c * c; s2 += s * s; cs += c * s;
    }
  double det = cc * s2 - cs * cs;
  double a = (sc * s2 - ss * cs) / det, b = (ss * cc - sc * cs) / det;
  return hypot (a, b);
}

/* Output amplitude, relative to the input's, of a calibrated sine at f. */
static double
gain_db (const RwPostprocess *pp, double f)
{
  size_t n = (size_t) (2.0 * fs);
  double *raw = malloc (n * sizeof (double));
  for (size_t i = 0; i < n; i++)
    raw[i] = sin (2 * M_PI * f * (double) (i + 1) / fs) / gain;
  float *y = NULL;
  size_t ny = 0;
  RwError err = { 0 };
  RW_CHECK (rw_postprocess (pp, raw, n, &y, &ny, &err), "%s", err.message);
  double db = -999;
  if (y != NULL)
    /* The output holds fs/fs_out times the input's sample values (the
     * area normalisation). */
    db = 20 * log10 (sine_amplitude (y, ny / 4, 3 * ny / 4, pp->fs_out_hz, f)
                     / (fs / pp->fs_out_hz));
  free (raw);
  free (y);
  return db;
}

int
main (void)
{
  const double c = rw_speed_of_sound (20);
  const double fmax_hz = 1000;
  h = rw_spacing_for_fmax (c, fmax_hz, RW_DEFAULT_PPW);
  fs = rw_grid_rate (c, h);
  gain = rw_calibration_gain (RW_LATTICE_CUBIC, h, 1.0);
  RwPostprocess pp;
  rw_postprocess_init (&pp, fs, fmax_hz, h);
  RW_NOTE ("fmax %g Hz: h = %.4f m, fs = %.1f Hz", fmax_hz, h, fs);

  /* Impulses at a few raw positions: area and time. */
  RwPostprocess nodc = pp;
  nodc.dc_block = false;
  for (size_t n0 = 200; n0 < 206; n0 += 1)
    {
      size_t n = 2000;
      double *raw = calloc (n, sizeof (double));
      raw[n0] = 1.0 / gain;
      float *y = NULL;
      size_t ny = 0;
      RwError err = { 0 };
      RW_CHECK (rw_postprocess (&nodc, raw, n, &y, &ny, &err), "%s", err.message);
      if (y != NULL)
        {
          RW_CHECK (ny == (size_t) llround ((double) (n - rw_postprocess_tail_steps (fs, fmax_hz)) * 48000 / fs),
                    "length %zu", ny);
          double area = 0, peak = 0, t_peak = 0;
          for (size_t m = 0; m < ny; m++)
            {
              area += y[m];
              if (y[m] > peak)
                {
                  peak = y[m];
                  t_peak = (double) m;
                }
            }
          /* Refine the peak with a parabola through three samples. */
          size_t m = (size_t) t_peak;
          double d = 0.5 * (y[m - 1] - y[m + 1]) / (y[m - 1] - 2 * y[m] + y[m + 1]);
          double want = (double) (n0 + 1) / fs * 48000;
          RW_NOTE ("impulse at raw %zu: area %.6f, peak at %.3f (expected %.3f)", n0, area,
                   t_peak + d, want);
          RW_CHECK_CLOSE (area, 1.0, 1e-3, "impulse area");
          RW_CHECK_CLOSE (t_peak + d, want, 0.1, "impulse time, 48 kHz samples");
        }
      free (raw);
      free (y);
    }

  /* Low-pass: flat to fmax, stopband from 1.5 fmax (DC block off). */
  const double pass[] = { 100, 300, 600, 900, 1000 };
  for (size_t i = 0; i < sizeof pass / sizeof pass[0]; i++)
    {
      double db = gain_db (&nodc, pass[i]);
      RW_NOTE ("low-pass %6.0f Hz: %+.4f dB", pass[i], db);
      RW_CHECK (fabs (db) < 0.05, "passband %g Hz: %+.4f dB", pass[i], db);
    }
  const double stop[] = { 1500, 1800, 2500, 4000, 6000 };
  for (size_t i = 0; i < sizeof stop / sizeof stop[0]; i++)
    {
      double db = gain_db (&nodc, stop[i]);
      RW_NOTE ("low-pass %6.0f Hz: %+.1f dB", stop[i], db);
      RW_CHECK (db < -59.0, "stopband %g Hz: %+.1f dB", stop[i], db);
    }

  /* DC block: the designed response at low frequencies. */
  const double low[] = { 15, 20, 30, 50, 80 };
  for (size_t i = 0; i < sizeof low / sizeof low[0]; i++)
    {
      double q = pow (low[i] / RW_DC_BLOCK_HZ, 4);
      double want = 10 * log10 (q / (1 + q));   /* causal: |H|² of one 2nd-order pass */
      double db = gain_db (&pp, low[i]);
      RW_NOTE ("DC block %4.0f Hz: %+.4f dB (designed %+.4f dB)", low[i], db, want);
      RW_CHECK (fabs (db - want) < 0.05, "DC block at %g Hz: %+.4f dB, designed %+.4f", low[i], db, want);
    }

  /* A constant and a ramp vanish after the filter settles (0.3 s). */
  {
    size_t n = (size_t) (1.5 * fs);
    double *raw = malloc (n * sizeof (double));
    for (int kind = 0; kind < 2; kind++)
      {
        for (size_t i = 0; i < n; i++)
          raw[i] = (kind == 0 ? 1.0 : (double) i / (double) n) / gain;
        float *y = NULL;
        size_t ny = 0;
        RwError err = { 0 };
        RW_CHECK (rw_postprocess (&pp, raw, n, &y, &ny, &err), "%s", err.message);
        double worst = 0;
        for (size_t m = (size_t) (0.3 * 48000); y && m < ny; m++)
          worst = fmax (worst, fabs (y[m]));
        worst /= fs / 48000;   /* back to input units: the input's level is ≤ 1 */
        RW_NOTE ("%s after 0.3 s: largest residue %.2g of the input level", kind ? "ramp" : "constant", worst);
        RW_CHECK (worst < 1e-3, "%s not removed: %.3g", kind ? "ramp" : "constant", worst);
        free (y);
      }
    free (raw);
  }

  /* Errors. */
  {
    double raw[16] = { 0 };
    float *y = NULL;
    size_t ny = 0;
    RwError err = { 0 };
    raw[9] = NAN;
    RW_CHECK (!rw_postprocess (&pp, raw, 16, &y, &ny, &err) && err.code == RW_ERROR_UNSTABLE
              && y == NULL, "NaN accepted: %s", err.message);
    raw[9] = 0;
    RW_CHECK (!rw_postprocess (&pp, raw, 0, &y, &ny, &err) && err.code == RW_ERROR_INPUT, "empty accepted");
    RwPostprocess bad = pp;
    bad.fs_out_hz = 0;
    RW_CHECK (!rw_postprocess (&bad, raw, 16, &y, &ny, &err) && err.code == RW_ERROR_INPUT, "fs_out 0 accepted");
    bad = pp;
    bad.spacing_m = NAN;
    RW_CHECK (!rw_postprocess (&bad, raw, 16, &y, &ny, &err) && err.code == RW_ERROR_INPUT, "h NaN accepted");
    bad = pp;
    bad.fs_out_hz = fs * 1000;
    RW_CHECK (!rw_postprocess (&bad, raw, 16, &y, &ny, &err), "ratio 1000 accepted");
  }
  return rw_test_finish ();
}
