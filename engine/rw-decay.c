/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-decay.c — Schroeder backward integration with Lundeby noise
 * compensation, and the least-squares decay fits of ISO 3382-1.
 *
 * Lundeby, Vigran, Bietz & Vorländer, "Uncertainties of measurements in
 * room acoustics", Acustica 81 (1995) 344–355, §5: an iterative estimate of
 * the background noise and of the point where the decay meets it
 * (the crosspoint), from a time-smoothed energy envelope:
 *   1. average the squared IR in intervals (here 20 ms);
 *   2. first noise estimate: the last 10 % of the signal;
 *   3. regression of the envelope (dB) from its peak down to 10 dB above
 *      the noise;
 *   4. crosspoint = where that line meets the noise level;
 *   5. new interval: 5 intervals per 10 dB of the slope found;
 *   6. noise again, from 10 dB of decay past the crosspoint (at least the
 *      last 10 % of the signal);
 *   7. late-decay regression between 5 dB and 25 dB above the noise;
 *   8. new crosspoint; repeat 5–8 until it moves less than one interval
 *      (at most 8 times).
 * The Schroeder integral then stops at the crosspoint t1 and the energy
 * the decay would have had after t1 is added back as the integral of the
 * late-decay exponential (Lundeby's correction C). We also subtract the
 * noise mean from the energy before integrating (Chu's subtraction): up to
 * t1 the noise would otherwise add energy proportional to (t1 − t) and bend
 * the end of the EDC upward.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rw-analysis.h"
#include "rw-i18n.h"

#define RW_LUNDEBY_FIRST_INTERVAL_S 0.020
#define RW_LUNDEBY_MAX_ITERATIONS 8
#define RW_DB(x) (10.0 * log10 (x))

/* Envelope of `energy` averaged over intervals of `len` samples; times at
 * interval centres (samples). Returns the number of intervals. */
static size_t
smooth_envelope (const double *energy, size_t n, size_t len, double *level_db, double *centre)
{
  size_t m = n / len;
  for (size_t j = 0; j < m; j++)
    {
      double s = 0.0;
      for (size_t i = j * len; i < (j + 1) * len; i++)
        s += energy[i];
      s /= (double) len;
      level_db[j] = s > 0.0 ? RW_DB (s) : -400.0;
      centre[j] = (double) (j * len) + 0.5 * (double) (len - 1);
    }
  return m;
}

/* Least squares y ≈ a + b x over [i0, i1). false when fewer than 2 points. */
static bool
regress (const double *x, const double *y, size_t i0, size_t i1, double *a, double *b)
{
  if (i1 < i0 + 2)
    return false;
  double sx = 0, sy = 0, sxx = 0, sxy = 0, m = (double) (i1 - i0);
  for (size_t i = i0; i < i1; i++)
    {
      sx += x[i];
      sy += y[i];
      sxx += x[i] * x[i];
      sxy += x[i] * y[i];
    }
  double d = m * sxx - sx * sx;
  if (d <= 0.0)
    return false;
  *b = (m * sxy - sx * sy) / d;
  *a = (sy - *b * sx) / m;
  return true;
}

static double
mean_energy (const double *energy, size_t i0, size_t i1)
{
  double s = 0.0;
  for (size_t i = i0; i < i1; i++)
    s += energy[i];
  return i1 > i0 ? s / (double) (i1 - i0) : 0.0;
}

static int
compare_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* Mean background energy over [i0, i1), robust to a short burst (a click
 * at the end of a measurement, an edge transient of a resampler): the mean
 * of the `len`-sample intervals whose own mean is at most 10 dB above the
 * median interval. For real noise an interval exceeds that less than once
 * in a thousand even in a 63 Hz band (2 degrees of freedom: P = e^(−6.9)),
 * so the estimate stays unbiased. */
static double
noise_energy (const double *energy, size_t i0, size_t i1, size_t len)
{
  if (i1 <= i0)
    return 0.0;
  if (len < 1)
    len = 1;
  size_t m = (i1 - i0) / len;
  if (m < 3)
    return mean_energy (energy, i0, i1);
  double *means = malloc (m * sizeof *means), *sorted = malloc (m * sizeof *sorted);
  if (!means || !sorted)
    {
      free (means);
      free (sorted);
      return mean_energy (energy, i0, i1);
    }
  for (size_t j = 0; j < m; j++)
    sorted[j] = means[j] = mean_energy (energy, i0 + j * len, i0 + (j + 1) * len);
  qsort (sorted, m, sizeof *sorted, compare_double);
  double limit = 10.0 * sorted[m / 2];
  double sum = 0.0;
  size_t kept = 0;
  for (size_t j = 0; j < m; j++)
    if (means[j] <= limit)
      {
        sum += means[j];
        kept++;
      }
  free (means);
  free (sorted);
  return kept > 0 ? sum / (double) kept : 0.0;
}

bool
rw_noise_estimate (const double *energy, size_t n, double rate_hz, RwNoiseEstimate *est,
                   RwError *err)
{
  memset (est, 0, sizeof *est);
  /* 20 ms intervals, fewer samples for a very short IR: at least ten
   * intervals are needed for the regressions. */
  size_t len = (size_t) lround (RW_LUNDEBY_FIRST_INTERVAL_S * rate_hz);
  if (len > n / 10)
    len = n / 10;
  if (len < 1)
    len = 1;
  if (n < 20)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("impulse response of %zu samples after its onset is too short for a "
                      "decay analysis (at least 20 needed)"), n);

  double *level = malloc (n * sizeof *level);
  double *centre = malloc (n * sizeof *centre);
  if (!level || !centre)
    {
      free (level);
      free (centre);
      return rw_fail (err, RW_ERROR_MEMORY, _("out of memory in the decay analysis"));
    }

  /* The reference of every dB value: the peak of the first envelope. */
  size_t m = smooth_envelope (energy, n, len, level, centre);
  size_t peak = 0;
  for (size_t j = 1; j < m; j++)
    if (level[j] > level[peak])
      peak = j;
  double ref_db = level[peak];

  /* Step 2: noise from the last 10 %. */
  double noise = noise_energy (energy, n - n / 10, n, len);
  double noise_db = noise > 0.0 ? RW_DB (noise) : -400.0;

  /* Step 3: regression from the peak to 10 dB above the noise. */
  size_t stop = m;
  for (size_t j = peak; j < m; j++)
    if (level[j] < noise_db + 10.0)
      {
        stop = j;
        break;
      }
  double a = ref_db, b = 0.0;
  bool have_fit = regress (centre, level, peak, stop, &a, &b) && b < 0.0;

  double tc = (double) n;     /* crosspoint, samples */
  int iterations = 0;
  bool found = false;
  if (have_fit)
    {
      tc = (noise_db - a) / b;
      for (iterations = 1; iterations <= RW_LUNDEBY_MAX_ITERATIONS; iterations++)
        {
          /* Step 5: 5 intervals per 10 dB of decay (b is dB per sample). */
          double per_10db = 10.0 / -b;
          double new_len = fmin (fmax (1.0, floor (per_10db / 5.0)), (double) (n / 10));
          len = new_len >= 1.0 ? (size_t) new_len : 1;
          m = smooth_envelope (energy, n, len, level, centre);

          /* Step 6: noise from 10 dB of decay past the crosspoint, at least
           * the last 10 % of the signal. */
          double t_noise = tc + per_10db;
          size_t i_noise = !(t_noise > 0.0) ? 0 : t_noise < (double) n ? (size_t) t_noise : n;
          if (i_noise > n - n / 10)
            i_noise = n - n / 10;
          noise = noise_energy (energy, i_noise, n, len);
          noise_db = noise > 0.0 ? RW_DB (noise) : -400.0;

          /* Step 7: late decay between 25 dB and 5 dB above the noise
           * (less when the peak is lower). */
          size_t pk = 0;
          for (size_t j = 1; j < m; j++)
            if (level[j] > level[pk])
              pk = j;
          double hi = fmin (noise_db + 25.0, level[pk]);
          double lo = noise_db + 5.0;
          size_t j0 = m, j1 = m;
          for (size_t j = pk; j < m; j++)
            if (level[j] <= hi)
              {
                j0 = j;
                break;
              }
          for (size_t j = j0; j < m; j++)
            if (level[j] < lo)
              {
                j1 = j;
                break;
              }
          double a2, b2;
          if (!regress (centre, level, j0, j1, &a2, &b2) || !(b2 < 0.0))
            break;
          double tc_new = (noise_db - a2) / b2;
          a = a2;
          b = b2;
          bool converged = fabs (tc_new - tc) < (double) len;
          tc = tc_new;
          if (converged)
            break;
        }
      if (iterations > RW_LUNDEBY_MAX_ITERATIONS)
        iterations = RW_LUNDEBY_MAX_ITERATIONS;

      /* Is what we call noise really a floor? If the signal after the
       * crosspoint still decays (a truncated IR: the simulation stopped
       * before the noise), its two halves differ by more than 3 dB; then
       * there is no floor and integration runs to the end. */
      size_t i_c = tc > 0.0 && tc < (double) n ? (size_t) tc : n;
      if (i_c < n - n / 20)
        {
          size_t mid = i_c + (n - i_c) / 2;
          double e1 = noise_energy (energy, i_c, mid, len), e2 = noise_energy (energy, mid, n, len);
          found = e2 > 0.0 && e1 > 0.0 && RW_DB (e1) - RW_DB (e2) < 3.0;
        }
    }

  if (found)
    {
      est->noise_found = true;
      est->noise_energy = noise;
      est->noise_level_db = noise_db - ref_db;
      est->truncation = (size_t) tc;
    }
  else
    {
      est->noise_found = false;
      est->noise_level_db = -INFINITY;
      est->truncation = n;
      /* Late decay: the last 20 dB of what is there, for the correction. */
      if (have_fit)
        {
          size_t m2 = smooth_envelope (energy, n, len, level, centre);
          size_t pk = 0;
          for (size_t j = 1; j < m2; j++)
            if (level[j] > level[pk])
              pk = j;
          double last = level[m2 - 1];
          size_t j0 = pk;
          for (size_t j = pk; j < m2; j++)
            if (level[j] <= last + 20.0)
              {
                j0 = j;
                break;
              }
          double a2, b2;
          if (regress (centre, level, j0, m2, &a2, &b2) && b2 < 0.0)
            {
              a = a2;
              b = b2;
            }
        }
    }
  est->truncation_s = (double) est->truncation / rate_hz;
  est->iterations = iterations;
  {
    size_t m_end = smooth_envelope (energy, n, len, level, centre);
    est->end_level_db = m_end > 0 ? level[m_end - 1] - ref_db : 0.0;
  }

  /* Correction: Σ_{k ≥ t1} of the late exponential E(k) = 10^((a + b k)/10),
   * summed as a geometric series. */
  if (have_fit && b < 0.0)
    {
      est->late_slope_db_per_s = b * rate_hz;
      est->late_intercept_db = a - ref_db;
      double q = pow (10.0, b / 10.0);
      double e_t1 = pow (10.0, (a + b * (double) est->truncation) / 10.0);
      est->correction = e_t1 / (1.0 - q);
    }
  else
    {
      est->late_slope_db_per_s = NAN;
      est->late_intercept_db = NAN;
      est->correction = 0.0;
    }
  free (level);
  free (centre);
  return true;
}

size_t
rw_schroeder_decay (const double *energy, size_t n, double rate_hz, const RwNoiseEstimate *est,
                    double *edc_db, RwError *err)
{
  RwNoiseEstimate local;

  if (!est)
    {
      if (!rw_noise_estimate (energy, n, rate_hz, &local, err))
        return 0;
      est = &local;
    }
  size_t t1 = est->truncation < n ? est->truncation : n;
  if (t1 < 1)
    t1 = 1;

  /* Noise mean in the energy's own units, for the subtraction. */
  double noise = est->noise_found ? est->noise_energy : 0.0;

  /* Backward sums in long double: 10⁵–10⁶ terms over 60+ dB. */
  long double sum = est->correction;
  long double floor_sum = est->correction > 0.0 ? 1e-3L * est->correction : 0.0L;
  for (size_t k = t1; k-- > 0;)
    {
      sum += energy[k] - noise;
      if (sum < floor_sum)
        sum = floor_sum;
      edc_db[k] = (double) sum;
    }
  double total = edc_db[0];
  if (!(total > 0.0))
    {
      rw_fail (err, RW_ERROR_INPUT, _("impulse response holds no energy after its onset"));
      return 0;
    }
  for (size_t k = 0; k < t1; k++)
    edc_db[k] = edc_db[k] > 0.0 ? RW_DB (edc_db[k] / total) : -400.0;
  return t1;
}

void
rw_decay_fit (const double *edc_db, size_t n_edc, double rate_hz, double start_db,
              double end_db, RwDecayFit *fit)
{
  memset (fit, 0, sizeof *fit);
  fit->start_db = start_db;
  fit->end_db = end_db;
  fit->value_s = NAN;
  fit->slope_db_per_s = NAN;
  fit->intercept_db = NAN;
  fit->r = NAN;
  fit->range_db = NAN;
  fit->xi_permille = NAN;

  /* First pass through the range: from the first sample at or below
   * start_db to the last before the first sample at or below end_db. */
  size_t i0 = n_edc, i1 = n_edc;
  for (size_t i = 0; i < n_edc; i++)
    if (edc_db[i] <= start_db)
      {
        i0 = i;
        break;
      }
  for (size_t i = i0; i < n_edc; i++)
    if (edc_db[i] <= end_db)
      {
        i1 = i;
        break;
      }
  if (i1 >= n_edc)
    {
      double lowest = n_edc > 0 ? edc_db[n_edc - 1] : 0.0;
      snprintf (fit->absent_reason, sizeof fit->absent_reason,
                _("the decay curve reaches only %.1f dB, not %.0f dB"), lowest, end_db);
      return;
    }
  if (i1 < i0 + 3)
    {
      snprintf (fit->absent_reason, sizeof fit->absent_reason,
                _("too few samples between %.0f dB and %.0f dB"), start_db, end_db);
      return;
    }

  double sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0, m = (double) (i1 - i0);
  for (size_t i = i0; i < i1; i++)
    {
      double x = (double) i / rate_hz, y = edc_db[i];
      sx += x;
      sy += y;
      sxx += x * x;
      sxy += x * y;
      syy += y * y;
    }
  double vx = m * sxx - sx * sx, vy = m * syy - sy * sy, cxy = m * sxy - sx * sy;
  double b = cxy / vx;
  if (!(b < 0.0))
    {
      snprintf (fit->absent_reason, sizeof fit->absent_reason,
                _("the decay curve does not fall between %.0f dB and %.0f dB"),
                start_db, end_db);
      return;
    }
  fit->slope_db_per_s = b;
  fit->intercept_db = (sy - b * sx) / m;
  fit->value_s = -60.0 / b;
  fit->range_db = edc_db[i0] - edc_db[i1 - 1];
  fit->r = vy > 0.0 ? cxy / sqrt (vx * vy) : -1.0;
  fit->xi_permille = 1000.0 * (1.0 - fit->r * fit->r);
}
