/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-air.c — ISO 9613-1 air absorption and its time-dependent per-band
 * attenuation of an impulse response (see rw-air.h). */
#include "rw-air.h"

#include <fftw3.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rw-fftw.h"
#include "rw-i18n.h"
#include "rw-materials.h"   /* RW_N_OCTAVES */
#include "rw-physics.h"

/* ISO 9613-1 reference values: the reference pressure p_r (kPa), the
 * reference temperature T₀ (K) and the triple-point isotherm T₀₁ (K). */
#define ISO_PR_KPA 101.325
#define ISO_T0_K 293.15
#define ISO_T01_K 273.16

/* Base-10 octave ratio (IEC 61260-1), as rw-octave.c. */
#define OCTAVE_G 1.9952623149688795   /* 10^0.3 */

double
rw_air_absorption_db_per_m (double freq_hz, double temperature_c, double humidity_pct,
                            double pressure_kpa)
{
  const double T = temperature_c + 273.15;
  const double pa = pressure_kpa / ISO_PR_KPA;   /* p_a / p_r */
  const double tr = T / ISO_T0_K;                /* T / T₀ */
  /* Saturation vapour pressure over the reference pressure, and the molar
   * concentration of water vapour h in per cent. */
  const double C = -6.8346 * pow (ISO_T01_K / T, 1.261) + 4.6151;
  const double h = humidity_pct * pow (10.0, C) / pa;
  /* Relaxation frequencies of oxygen and nitrogen, Hz (equations 3, 4). */
  const double fr_o = pa * (24.0 + 4.04e4 * h * (0.02 + h) / (0.391 + h));
  const double fr_n = pa / sqrt (tr) * (9.0 + 280.0 * h * exp (-4.170 * (pow (tr, -1.0 / 3.0) - 1.0)));
  /* Equation 5: classical absorption plus the two relaxations. */
  const double f2 = freq_hz * freq_hz;
  return 8.686 * f2 * (1.84e-11 / pa * sqrt (tr)
                       + pow (tr, -2.5) * (0.01275 * exp (-2239.1 / T) / (fr_o + f2 / fr_o)
                                           + 0.1068 * exp (-3352.0 / T) / (fr_n + f2 / fr_n)));
}

static double
band_centre_hz (size_t b)
{
  return 1000.0 * pow (OCTAVE_G, (double) b - 4.0);
}

/* 63 Hz always; then every octave whose lower edge is below Nyquist. */
static size_t
bands_for_rate (double rate_hz)
{
  size_t n = 1;
  while (n < RW_AIR_MAX_BANDS && band_centre_hz (n) / sqrt (OCTAVE_G) < 0.5 * rate_hz)
    n++;
  return n;
}

bool
rw_air_bands (double temperature_c, double humidity_pct, double pressure_kpa, double rate_hz,
              RwAirBands *air, RwError *err)
{
  /* The labels of the bands above 8 kHz follow the preferred numbers of
   * IEC 61260-1 (16 k, 31.5 k, 63 k, …). */
  static const double nominal[RW_AIR_MAX_BANDS] = {
    63, 125, 250, 500, 1000, 2000, 4000, 8000, 16000, 31500, 63000, 125000, 250000, 500000,
    1000000, 2000000,
  };
  memset (air, 0, sizeof *air);
  if (!isfinite (temperature_c) || temperature_c < -50 || temperature_c > 60)
    return rw_fail (err, RW_ERROR_INPUT, _("Air temperature %g °C: must be between −50 and 60 °C"),
                    temperature_c);
  if (!isfinite (humidity_pct) || humidity_pct < 0 || humidity_pct > 100)
    return rw_fail (err, RW_ERROR_INPUT, _("Relative humidity %g %%: must be between 0 and 100 %%"),
                    humidity_pct);
  if (!isfinite (pressure_kpa) || pressure_kpa < 1 || pressure_kpa > 200)
    return rw_fail (err, RW_ERROR_INPUT, _("Air pressure %g kPa: must be between 1 and 200 kPa"),
                    pressure_kpa);
  if (!isfinite (rate_hz) || rate_hz < 1000 || rate_hz > 1e7)
    return rw_fail (err, RW_ERROR_INPUT, _("Sample rate %g Hz: must be between 1 kHz and 10 MHz"), rate_hz);
  air->temperature_c = temperature_c;
  air->humidity_pct = humidity_pct;
  air->pressure_kpa = pressure_kpa;
  air->c_m_per_s = rw_speed_of_sound (temperature_c);
  air->n_bands = bands_for_rate (rate_hz);
  for (size_t b = 0; b < air->n_bands; b++)
    {
      air->centre_hz[b] = band_centre_hz (b);
      air->nominal_hz[b] = nominal[b];
      air->alpha_db_per_m[b] = rw_air_absorption_db_per_m (air->centre_hz[b], temperature_c, humidity_pct,
                                                           pressure_kpa);
    }
  return true;
}

/* Weight of the band above the edge between band b and b + 1 at f: 0
 * below edge · G^(−w), 1 above edge · G^(+w), a raised cosine in
 * log-frequency between. */
double
rw_air_edge_weight (const RwAirBands *air, size_t b, double f)
{
  if (f <= 0)
    return 0.0;
  const double edge = air->centre_hz[b] * sqrt (OCTAVE_G);
  const double x = log (f / edge) / log (OCTAVE_G);   /* octaves from the edge */
  const double w = RW_AIR_CROSSOVER_OCTAVES;
  if (x <= -w)
    return 0.0;
  if (x >= w)
    return 1.0;
  return 0.5 - 0.5 * cos (M_PI * (x + w) / (2.0 * w));
}

double
rw_air_band_weight (const RwAirBands *air, size_t b, size_t n_bands, double f)
{
  const double below = b == 0 ? 1.0 : rw_air_edge_weight (air, b - 1, f);
  const double above = b + 1 >= n_bands ? 0.0 : rw_air_edge_weight (air, b, f);
  return below - above;
}

double
rw_air_band_filter (const RwAirBands *air, size_t b, size_t n_bands, double (*X)[2], size_t N,
                    double fs_hz)
{
  double g = 0.0;
  for (size_t k = 0; k <= N / 2; k++)
    {
      const double w = rw_air_band_weight (air, b, n_bands, (double) k * fs_hz / (double) N);
      g += (k == 0 || 2 * k == N ? 1.0 : 2.0) * w * w;
      X[k][0] *= w / (double) N;
      X[k][1] *= w / (double) N;
    }
  return g / (double) N;
}

size_t
rw_air_split_size (size_t n, double rate_hz)
{
  /* Zero padding: the bands' ringing before the direct sound wraps into
   * the padding, not into the IR's tail. */
  const size_t pad = (size_t) fmin ((double) n, ceil (rate_hz));
  size_t N = 1;
  while (N < n + pad)
    N *= 2;
  return N > (size_t) INT_MAX ? 0 : N;   /* FFTW's plan sizes are int */
}

bool
rw_air_split_bands (double *bands, size_t n, double rate_hz, double *gain, RwError *err)
{
  const size_t N = rw_air_split_size (n, rate_hz);
  if (N == 0)
    return rw_fail (err, RW_ERROR_MEMORY, _("band split: out of memory for %zu samples"), n);
  const size_t nb = N / 2 + 1;
  RwAirBands air;
  if (!rw_air_bands (RW_DEFAULT_TEMPERATURE_C, RW_AIR_DEFAULT_HUMIDITY_PCT, RW_AIR_PRESSURE_KPA,
                     rate_hz, &air, err))
    return false;
  double *x = fftw_malloc (N * sizeof *x);
  fftw_complex *X = fftw_malloc (nb * sizeof *X);
  fftw_plan fwd = NULL, inv = NULL;
  bool ok = false;
  if (x == NULL || X == NULL)
    rw_fail (err, RW_ERROR_MEMORY, _("band split: out of memory for %zu samples"), n);
  else if (!rw_fftw_plan_pair ((int) N, x, X, X, x, &fwd, &inv))
    rw_fail (err, RW_ERROR_MEMORY, _("band split: no FFT plan for %zu samples"), N);
  else
    {
      for (int b = 0; b < RW_N_OCTAVES; b++)
        {
          double *y = bands + (size_t) b * n;
          memcpy (x, y, n * sizeof *x);
          memset (x + n, 0, (N - n) * sizeof *x);
          fftw_execute (fwd);
          const double g = rw_air_band_filter (&air, (size_t) b, RW_N_OCTAVES, (double (*)[2]) X, N,
                                               rate_hz);
          if (gain != NULL)
            gain[b] = g;
          fftw_execute (inv);
          memcpy (y, x, n * sizeof *y);
        }
      ok = true;
    }
  rw_fftw_destroy_pair (fwd, inv);
  fftw_free (x);
  fftw_free (X);
  return ok;
}

bool
rw_air_absorption_apply (const RwAirBands *air, float *ir, size_t n, double rate_hz, RwError *err)
{
  if (n == 0 || air->n_bands == 0)
    return true;
  if (!(rate_hz >= 1000) || air->n_bands != bands_for_rate (rate_hz))
    return rw_fail (err, RW_ERROR_INPUT, _("Air absorption: bands made for another sample rate than %g Hz"),
                    rate_hz);
  const size_t N = rw_air_split_size (n, rate_hz);
  if (N == 0)
    return rw_fail (err, RW_ERROR_MEMORY, _("Air absorption: out of memory for %zu samples"), n);
  const size_t nb = N / 2 + 1, n_bands = air->n_bands;
  double *x = fftw_malloc (N * sizeof *x);
  fftw_complex *X = fftw_malloc (nb * sizeof *X);
  /* each band's part, summed in band order after: the same sum whatever
   * the threads */
  double *part = malloc (n_bands * n * sizeof *part);
  double *acc = calloc (n, sizeof *acc);
  fftw_plan fwd = NULL, inv = NULL;
  bool ok = false;
  if (x == NULL || X == NULL || part == NULL || acc == NULL)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("Air absorption: out of memory for %zu samples"), n);
      goto out;
    }
  /* the inverse planned on X → x, as the band split's; each band runs it
   * on arrays of its own (below) */
  if (!rw_fftw_plan_pair ((int) N, x, X, X, x, &fwd, &inv))
    {
      rw_fail (err, RW_ERROR_MEMORY, _("Air absorption: no FFT plan for %zu samples"), N);
      goto out;
    }
  for (size_t i = 0; i < N; i++)
    x[i] = i < n ? (double) ir[i] : 0.0;
  fftw_execute (fwd);

  /* The bands on threads of their own (0.03–0.05 s of a 1 s IR on one
   * core): each its own spectrum and signal, the plan shared (FFTW's
   * execute on new arrays is thread-safe; fftw_malloc aligns them as the
   * planned ones). */
  bool scratch_ok = true;
  #pragma omp parallel reduction (&& : scratch_ok)
  {
    fftw_complex *Yt = fftw_malloc (nb * sizeof *Yt);
    double *xt = fftw_malloc (N * sizeof *xt);
    scratch_ok = Yt != NULL && xt != NULL;
    #pragma omp for schedule (dynamic, 1)
    for (size_t b = 0; b < n_bands; b++)
      {
        if (Yt == NULL || xt == NULL)
          continue;
        /* Band b's weight (rw_air_band_weight): the sum over the bands
         * telescopes to 1. */
        for (size_t k = 0; k < nb; k++)
          {
            const double f = (double) k * rate_hz / (double) N;
            /* / N: FFTW's inverse is unnormalised */
            const double wgt = rw_air_band_weight (air, b, n_bands, f) / (double) N;
            Yt[k][0] = X[k][0] * wgt;
            Yt[k][1] = X[k][1] * wgt;
          }
        fftw_execute_dft_c2r (inv, Yt, xt);
        /* Amplitude: 10^(−α c t / 20) = e^(−κ t), κ = α c ln 10 / 20. */
        const double kappa = air->alpha_db_per_m[b] * air->c_m_per_s * M_LN10 / 20.0;
        double *pb = part + b * n;
        for (size_t i = 0; i < n; i++)
          pb[i] = xt[i] * exp (-kappa * (double) i / rate_hz);
      }
    fftw_free (Yt);
    fftw_free (xt);
  }
  if (!scratch_ok)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("Air absorption: out of memory for %zu samples"), n);
      goto out;
    }
  for (size_t b = 0; b < n_bands; b++)
    for (size_t i = 0; i < n; i++)
      acc[i] += part[b * n + i];
  for (size_t i = 0; i < n; i++)
    ir[i] = (float) acc[i];
  ok = true;

out:
  rw_fftw_destroy_pair (fwd, inv);
  fftw_free (x);
  fftw_free (X);
  free (part);
  free (acc);
  return ok;
}
