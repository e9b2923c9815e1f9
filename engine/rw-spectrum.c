/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-spectrum.c — frequency response of an impulse response, with
 * fractional-octave smoothing.
 *
 * H(f) is the DFT of the whole IR (FFTW, real to complex), no window: an
 * IR is a transient that has decayed by its end, and a window would bend
 * the low-frequency modes. No zero padding either: the bin spacing is
 * rate/n, already finer than any modal bandwidth of a room for IRs of a
 * second or more.
 *
 * Smoothing is the power average of |H|² over the 1/N-octave window
 * [f·2^(−1/2N), f·2^(1/2N)] (rectangular on a log axis, as Room EQ Wizard
 * and most analysers do), evaluated on a log-spaced axis. Where the window
 * is narrower than one bin (low frequencies), |H|² is interpolated
 * linearly between the two neighbouring bins instead.
 */
#include <fftw3.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rw-analysis.h"
#include "rw-fftw.h"
#include "rw-i18n.h"

#define RW_SPECTRUM_FLOOR_POWER 1e-30   /* −300 dB: log of an exact zero */

void
rw_spectrum_clear (RwSpectrum *spectrum)
{
  if (!spectrum)
    return;
  free (spectrum->frequency_hz);
  free (spectrum->level_db);
  memset (spectrum, 0, sizeof *spectrum);
}

static double
level_db (double power)
{
  return 10.0 * log10 (fmax (power, RW_SPECTRUM_FLOOR_POWER));
}

bool
rw_frequency_response (const float *ir, size_t n, double rate_hz, int smoothing_fraction,
                       double f_lo_hz, double f_hi_hz, int points_per_octave,
                       RwSpectrum *out, RwError *err)
{
  memset (out, 0, sizeof *out);
  if (!ir || n < 2)
    return rw_fail (err, RW_ERROR_INPUT, _("frequency response: the impulse response is empty"));
  if (!(rate_hz > 0.0) || !isfinite (rate_hz))
    return rw_fail (err, RW_ERROR_INPUT, _("frequency response: bad sample rate %g Hz"), rate_hz);
  if (n > (size_t) 1 << 30)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("frequency response: %zu samples is too long an impulse response"), n);
  if (smoothing_fraction < 0 || smoothing_fraction > 96)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("frequency response: smoothing 1/%d octave is not supported"),
                    smoothing_fraction);
  double nyquist = 0.5 * rate_hz;
  double df = rate_hz / (double) n;
  if (!(f_lo_hz > 0.0))
    f_lo_hz = df;
  if (!(f_hi_hz <= nyquist))
    f_hi_hz = nyquist;
  if (!(f_lo_hz < f_hi_hz))
    return rw_fail (err, RW_ERROR_INPUT,
                    _("frequency response: empty range %g Hz … %g Hz"), f_lo_hz, f_hi_hz);
  if (points_per_octave <= 0)
    points_per_octave = 48;

  size_t nb = n / 2 + 1;
  double *in = fftw_malloc (n * sizeof *in);
  fftw_complex *spec = fftw_malloc (nb * sizeof *spec);
  double *power = malloc (nb * sizeof *power);
  long double *cum = malloc ((nb + 1) * sizeof *cum);
  if (!in || !spec || !power || !cum)
    {
      fftw_free (in);
      fftw_free (spec);
      free (power);
      free (cum);
      return rw_fail (err, RW_ERROR_MEMORY, _("frequency response: out of memory"));
    }
  /* FFTW_ESTIMATE: one transform per IR, planning would cost more. FFTW's
   * planner is not thread-safe: planning and destroying take the engine's
   * one planner lock (rw-fftw.h; the GUI and the report may analyse in
   * different workers, and air absorption plans too); the execution
   * itself is thread-safe. */
  rw_fftw_plan_lock ();
  fftw_plan plan = fftw_plan_dft_r2c_1d ((int) n, in, spec, FFTW_ESTIMATE);
  rw_fftw_plan_unlock ();
  if (!plan)
    {
      fftw_free (in);
      fftw_free (spec);
      free (power);
      free (cum);
      return rw_fail (err, RW_ERROR_MEMORY, _("frequency response: no FFT plan for %zu samples"), n);
    }
  for (size_t i = 0; i < n; i++)
    in[i] = ir[i];
  fftw_execute (plan);
  rw_fftw_plan_lock ();
  fftw_destroy_plan (plan);
  rw_fftw_plan_unlock ();
  cum[0] = 0.0L;
  for (size_t k = 0; k < nb; k++)
    {
      power[k] = spec[k][0] * spec[k][0] + spec[k][1] * spec[k][1];
      cum[k + 1] = cum[k] + power[k];
    }
  fftw_free (in);
  fftw_free (spec);

  size_t cap;
  if (smoothing_fraction == 0)
    cap = nb;
  else
    cap = (size_t) ceil (log2 (f_hi_hz / f_lo_hz) * points_per_octave) + 2;
  out->frequency_hz = malloc (cap * sizeof *out->frequency_hz);
  out->level_db = malloc (cap * sizeof *out->level_db);
  if (!out->frequency_hz || !out->level_db)
    {
      free (power);
      free (cum);
      rw_spectrum_clear (out);
      return rw_fail (err, RW_ERROR_MEMORY, _("frequency response: out of memory"));
    }

  size_t m = 0;
  if (smoothing_fraction == 0)
    {
      for (size_t k = 1; k < nb; k++)
        {
          double f = (double) k * df;
          if (f < f_lo_hz || f > f_hi_hz)
            continue;
          out->frequency_hz[m] = f;
          out->level_db[m] = level_db (power[k]);
          m++;
        }
    }
  else
    {
      double half = 0.5 / smoothing_fraction;   /* half window, octaves */
      for (size_t i = 0; i < cap; i++)
        {
          double f = f_lo_hz * pow (2.0, (double) i / points_per_octave);
          if (f > f_hi_hz * (1.0 + 1e-12))
            break;
          double ka = ceil (f * pow (2.0, -half) / df);
          double kb = floor (f * pow (2.0, half) / df);
          if (ka < 0.0)
            ka = 0.0;
          if (kb > (double) (nb - 1))
            kb = (double) (nb - 1);
          double p;
          if (kb >= ka)
            p = (double) ((cum[(size_t) kb + 1] - cum[(size_t) ka]) / (kb - ka + 1.0));
          else
            {
              double x = f / df;
              size_t k0 = (size_t) floor (x);
              if (k0 >= nb - 1)
                k0 = nb - 2;
              double t = x - (double) k0;
              p = (1.0 - t) * power[k0] + t * power[k0 + 1];
            }
          out->frequency_hz[m] = f;
          out->level_db[m] = level_db (p);
          m++;
        }
    }
  out->n = m;
  free (power);
  free (cum);
  return true;
}
