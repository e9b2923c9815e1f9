/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-params.c — ISO 3382-1 parameters per octave band and broadband.
 *
 * Per band two filtered copies of the IR are made with the same IEC
 * filter (rw-octave.c):
 *  - time-reversed filtering for the decay (EDC, EDT, T20, T30): the
 *    filter's ringing then lies before the onset, and for any sum of
 *    exponential decays the filtered energy after the onset is the same
 *    sum, scaled band by band — no bend at the start of the EDC, no tail
 *    added by the filter (Jacobsen & Rindel 1987; ISO 3382-1 allows it);
 *  - for the energy ratios (C50, C80, D50, Ts) the mean of the forward and
 *    the time-reversed energies: their smearing kernels are mirror images,
 *    so their mean smears the energy envelope symmetrically about each
 *    instant. The energy of the direct sound then stays on both sides of
 *    the onset in equal parts; the early sums start one filter length
 *    before the onset, so all of it counts as early, and the 50/80 ms
 *    limits only see a second-order error (∝ the kernel's variance). Ts is
 *    exact to first order, the kernel's centroid being zero.
 * The onset (ISO 3382-1 A.3.4) is taken from the broadband IR and used for
 * every band.
 *
 * Dynamic-range rule: a fit over [start, end] dB is reported only when the
 * decay range (the EDC level at the Lundeby truncation point, i.e. how far
 * the decay is known from the signal) reaches |end| + 10 dB — the ISO 3382
 * requirement that the bottom of the evaluation range lie 10 dB above the
 * noise: 20 dB for EDT, 35 dB for T20, 45 dB for T30.
 */
#include <json-c/json.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rw-analysis.h"
#include "rw-i18n.h"
#include "rw-json.h"

#define RW_DYNAMIC_MARGIN_DB 10.0

/* ISO 3382-1 A.3.4: the first sample whose square reaches 20 dB below the
 * maximum. In a noisy measurement (less than ~35 dB between the peak and
 * the background) a noise sample before the direct sound can reach that
 * level — Gaussian noise peaks 12 dB above its mean square within a few
 * thousand samples — so the threshold is raised to 20 dB above the
 * background's mean square (estimated from the last 10 % of the IR) when
 * that is higher; at most to the peak itself. */
size_t
rw_onset_index (const float *ir, size_t n)
{
  double peak = 0.0;
  size_t i_peak = 0;
  for (size_t i = 0; i < n; i++)
    {
      double e = (double) ir[i] * ir[i];
      if (e > peak)
        {
          peak = e;
          i_peak = i;
        }
    }
  double noise = 0.0;
  size_t tail = n / 10;
  for (size_t i = n - tail; i < n; i++)
    noise += (double) ir[i] * ir[i];
  noise = tail > 0 ? noise / (double) tail : 0.0;
  double threshold = fmax (peak * 1e-2, noise * 1e2);
  if (threshold > peak)
    return i_peak;
  for (size_t i = 0; i < n; i++)
    if ((double) ir[i] * ir[i] >= threshold)
      return i;
  return i_peak;
}

static void
band_set_absent (RwBandResult *b, const char *reason)
{
  snprintf (b->absent_reason, sizeof b->absent_reason, "%s", reason);
  RwDecayFit *fits[3] = { &b->edt, &b->t20, &b->t30 };
  for (int i = 0; i < 3; i++)
    {
      fits[i]->value_s = fits[i]->slope_db_per_s = fits[i]->intercept_db = NAN;
      fits[i]->range_db = fits[i]->r = fits[i]->xi_permille = NAN;
      snprintf (fits[i]->absent_reason, sizeof fits[i]->absent_reason, "%s", reason);
    }
  b->C50_db = b->C80_db = b->D50 = b->Ts_s = NAN;
  b->noise_floor_db = b->decay_range_db = b->truncation_s = NAN;
}

/* Energy of the decay from sample k (relative to the onset) onward: the
 * noise-subtracted sum up to the truncation t1, then the late-decay
 * exponential (Lundeby's correction). cum[i] = Σ_{j < i} (E − N) over the
 * energy array, whose onset is at index `onset`. */
static double
energy_from (const long double *cum, size_t onset, const RwNoiseEstimate *est, double rate_hz,
             size_t k)
{
  size_t t1 = est->truncation;
  if (k < t1)
    return (double) (cum[onset + t1] - cum[onset + k]) + est->correction;
  if (!(isfinite (est->late_slope_db_per_s)))
    return 0.0;
  double b = est->late_slope_db_per_s / rate_hz;   /* dB per sample */
  return est->correction * pow (10.0, b * (double) (k - t1) / 10.0);
}

/* Decay fits, ratios and EDC of one band.
 *   decay_e: energy for the decay, from the onset, n_decay samples;
 *   param_e: energy for the ratios, onset at index `onset`, sums start at
 *            `start` (≤ onset), n_param samples. */
static bool
analyse_band (RwBandResult *res, const double *decay_e, size_t n_decay, const double *param_e,
              size_t n_param, size_t onset, size_t start, double rate_hz, RwError *err)
{
  RwNoiseEstimate *est = &res->noise;
  if (!rw_noise_estimate (decay_e, n_decay, rate_hz, est, err))
    return false;

  double *edc = malloc (n_decay * sizeof *edc);
  long double *cum = malloc ((n_param + 1) * sizeof *cum);
  if (!edc || !cum)
    {
      free (edc);
      free (cum);
      return rw_fail (err, RW_ERROR_MEMORY, _("out of memory in the decay analysis"));
    }
  size_t n_edc = rw_schroeder_decay (decay_e, n_decay, rate_hz, est, edc, err);
  if (n_edc == 0)
    {
      free (edc);
      free (cum);
      return false;
    }

  res->noise_floor_db = est->noise_level_db;
  res->truncation_s = est->truncation_s;
  res->decay_range_db = -edc[n_edc - 1];
  /* The noise compensation extends the EDC past the truncation point, so
   * its end can read far below the noise. The range a decay can be
   * measured over is also bounded by the peak-to-noise ratio of the
   * envelope (ISO 3382-1 §5.3.3: the fit must end 10 dB above the noise):
   * an IR that has hardly decayed by its end — a simulation shorter than
   * the room's reverberation — has its own tail taken for the "noise" and
   * must get no T20/T30, not a short one. */
  if (est->noise_found && -est->noise_level_db < res->decay_range_db)
    res->decay_range_db = -est->noise_level_db;
  /* Without a floor the IR was cut off while still decaying: the EDC then
   * plunges at the end (Schroeder's truncation error), and only what the
   * envelope itself decayed can be fitted. */
  if (!est->noise_found && -est->end_level_db < res->decay_range_db)
    res->decay_range_db = -est->end_level_db;

  struct { RwDecayFit *fit; double start, end; const char *name; } fits[3] = {
    { &res->edt, 0.0, -10.0, "EDT" },
    { &res->t20, -5.0, -25.0, "T20" },
    { &res->t30, -5.0, -35.0, "T30" },
  };
  for (int i = 0; i < 3; i++)
    {
      double needed = -fits[i].end + RW_DYNAMIC_MARGIN_DB;
      if (res->decay_range_db < needed)
        {
          rw_decay_fit (edc, 0, rate_hz, fits[i].start, fits[i].end, fits[i].fit);
          snprintf (fits[i].fit->absent_reason, sizeof fits[i].fit->absent_reason,
                    _("decay range %.1f dB < %.0f dB needed for %s"),
                    res->decay_range_db, needed, fits[i].name);
          continue;
        }
      /* value = −60/slope: the ×6, ×3, ×2 extrapolation of ISO 3382-1. */
      rw_decay_fit (edc, n_edc, rate_hz, fits[i].start, fits[i].end, fits[i].fit);
    }

  /* Noise mean of the decay energy after the truncation: the same for the
   * parameter energy (same magnitude response, stationary noise). */
  double noise = est->noise_found ? est->noise_energy : 0.0;
  cum[0] = 0.0L;
  for (size_t i = 0; i < n_param; i++)
    cum[i + 1] = cum[i] + (long double) (param_e[i] - noise);

  /* Everything the ratios need must lie inside param_e up to t1. */
  if (onset + est->truncation > n_param)
    {
      free (edc);
      free (cum);
      return rw_fail (err, RW_ERROR_INTERNAL, _("analysis: band energy shorter than its decay"));
    }
  size_t n50 = (size_t) lround (0.050 * rate_hz);
  size_t n80 = (size_t) lround (0.080 * rate_hz);
  double total = (double) (cum[onset] - cum[start]) + energy_from (cum, onset, est, rate_hz, 0);
  double late50 = energy_from (cum, onset, est, rate_hz, n50);
  double late80 = energy_from (cum, onset, est, rate_hz, n80);
  double early50 = total - late50, early80 = total - late80;

  res->C50_db = early50 > 0.0 && late50 > 0.0 ? 10.0 * log10 (early50 / late50) : NAN;
  res->C80_db = early80 > 0.0 && late80 > 0.0 ? 10.0 * log10 (early80 / late80) : NAN;
  res->D50 = total > 0.0 ? early50 / total : NAN;

  /* Ts = Σ t (E − N) / Σ (E − N), t from the onset, plus the tail after t1:
   * ∫_{t1}^∞ t e^{−kt} / ∫_{t1}^∞ e^{−kt} = t1 + 1/k. */
  long double moment = 0.0L;
  size_t t1 = est->truncation;
  for (size_t i = start; i < onset + t1; i++)
    moment += ((long double) i - (long double) onset) / rate_hz * (param_e[i] - noise);
  if (isfinite (est->late_slope_db_per_s) && est->late_slope_db_per_s < 0.0)
    {
      double k = -est->late_slope_db_per_s * log (10.0) / 10.0;
      moment += est->correction * ((double) t1 / rate_hz + 1.0 / k);
    }
  res->Ts_s = total > 0.0 ? (double) moment / total : NAN;
  /* The ratios need the energy of the whole decay. An IR cut off while its
   * envelope is still within 20 dB of the peak, with no late slope to
   * extrapolate the rest, is missing a share of its late energy that can
   * reach tens of per cent: C50/C80/D50 would read too high and Ts too
   * short, so they are left out with the reason. */
  bool tail_known = est->noise_found
                    || -est->end_level_db >= 20.0
                    || (isfinite (est->late_slope_db_per_s) && est->late_slope_db_per_s < 0.0
                        && -est->end_level_db >= 10.0);
  if (!tail_known)
    {
      res->C50_db = res->C80_db = res->D50 = res->Ts_s = NAN;
      snprintf (res->ratios_absent_reason, sizeof res->ratios_absent_reason,
                _("the IR ends only %.1f dB below its peak: its late energy is unknown"),
                -est->end_level_db);
    }

  res->edc_db = malloc (n_edc * sizeof *res->edc_db);
  if (!res->edc_db)
    {
      free (edc);
      free (cum);
      return rw_fail (err, RW_ERROR_MEMORY, _("out of memory in the decay analysis"));
    }
  for (size_t i = 0; i < n_edc; i++)
    res->edc_db[i] = (float) edc[i];
  res->n_edc = n_edc;
  free (edc);
  free (cum);
  return true;
}

/* Length after which the filter's impulse response holds all but 10⁻⁶ of
 * its energy: the padding on each side and the pre-onset window. */
static size_t
filter_length (const RwOctaveFilter *f)
{
  size_t n = (size_t) (f->rate_hz * 2.0);
  double *h = calloc (n, sizeof *h);
  if (!h)
    return (size_t) (f->rate_hz * 0.5);
  h[0] = 1.0;
  rw_octave_filter_apply (f, RW_FILTER_FORWARD, h, h, n);
  double total = 0.0;
  for (size_t i = 0; i < n; i++)
    total += h[i] * h[i];
  double s = 0.0;
  size_t len = n;
  for (size_t i = 0; i < n; i++)
    {
      s += h[i] * h[i];
      if (s >= total * (1.0 - 1e-6))
        {
          len = i + 1;
          break;
        }
    }
  free (h);
  return len;
}

bool
rw_analyse (const float *ir, size_t n, double rate_hz, double fmax_hz, RwAnalysis *out,
            RwError *err)
{
  memset (out, 0, sizeof *out);
  if (!ir || n == 0)
    return rw_fail (err, RW_ERROR_INPUT, _("the impulse response is empty"));
  if (!(rate_hz >= 1000.0) || !isfinite (rate_hz))
    return rw_fail (err, RW_ERROR_INPUT,
                    _("sample rate %g Hz is too low for an analysis (at least 1000 Hz)"), rate_hz);
  if (!(fmax_hz > 0.0))
    return rw_fail (err, RW_ERROR_INPUT, _("fmax %g Hz must be positive"), fmax_hz);
  double peak = 0.0;
  for (size_t i = 0; i < n; i++)
    {
      if (!isfinite (ir[i]))
        return rw_fail (err, RW_ERROR_INPUT,
                        _("the impulse response holds a non-finite sample at %zu"), i);
      peak = fmax (peak, fabs (ir[i]));
    }
  if (peak == 0.0)
    return rw_fail (err, RW_ERROR_INPUT, _("the impulse response is silent"));

  out->rate_hz = rate_hz;
  out->fmax_hz = fmax_hz;
  out->crossover_hz = NAN;   /* the caller knows the IR's origin: rw_analysis_set_methods */
  out->duration_s = (double) n / rate_hz;
  size_t t0 = rw_onset_index (ir, n);
  out->onset_s = (double) t0 / rate_hz;
  size_t n_decay = n - t0;

  /* Broadband: the IR itself. */
  RwBandResult *bb = &out->bands[RW_ANALYSIS_BROADBAND];
  bb->centre_hz = 0.0;
  bb->lower_hz = 0.0;
  bb->upper_hz = 0.5 * rate_hz;
  bb->analysed = true;
  double *e = malloc (n * sizeof *e);
  if (!e)
    return rw_fail (err, RW_ERROR_MEMORY, _("out of memory in the analysis"));
  for (size_t i = 0; i < n; i++)
    e[i] = (double) ir[i] * ir[i];
  if (!analyse_band (bb, e + t0, n_decay, e, n, t0, t0, rate_hz, err))
    {
      free (e);
      rw_analysis_clear (out);
      return false;
    }
  free (e);

  for (int k = 0; k < RW_N_OCTAVES; k++)
    {
      RwBandResult *b = &out->bands[k];
      RwOctaveFilter f;
      double centre = rw_octave_exact_centre_hz (k);
      b->centre_hz = rw_octave_centres_hz[k];
      b->lower_hz = centre / sqrt (1.9952623149688795);
      b->upper_hz = centre * sqrt (1.9952623149688795);
      b->above_fmax = b->upper_hz > fmax_hz;
      if (b->lower_hz >= fmax_hz)
        {
          /* Wholly above fmax: a simulated IR holds only the low-pass
           * filter's leakage and rounding there; numbers from it would be
           * noise dressed as results. */
          char reason[160];
          snprintf (reason, sizeof reason, _("band %.0f … %.0f Hz lies above fmax = %.0f Hz"),
                    b->lower_hz, b->upper_hz, fmax_hz);
          band_set_absent (b, reason);
          continue;
        }
      RwError ferr = { 0 };
      if (!rw_octave_filter_design (centre, rate_hz, &f, &ferr))
        {
          char reason[160];
          snprintf (reason, sizeof reason,
                    _("band reaches %.0f Hz, above the Nyquist frequency %.0f Hz"),
                    b->upper_hz, 0.5 * rate_hz);
          band_set_absent (b, reason);
          continue;
        }
      b->analysed = true;

      size_t L = filter_length (&f);
      size_t np = L + n + L;
      double *x = calloc (np, sizeof *x);
      double *yf = malloc (np * sizeof *yf);
      double *yr = malloc (np * sizeof *yr);
      if (!x || !yf || !yr)
        {
          free (x);
          free (yf);
          free (yr);
          rw_analysis_clear (out);
          return rw_fail (err, RW_ERROR_MEMORY, _("out of memory in the analysis"));
        }
      for (size_t i = 0; i < n; i++)
        x[L + i] = ir[i];
      rw_octave_filter_apply (&f, RW_FILTER_FORWARD, x, yf, np);
      rw_octave_filter_apply (&f, RW_FILTER_TIME_REVERSED, x, yr, np);
      /* x becomes the decay energy (time-reversed filtering) from the
       * onset; yf the symmetric energy for the ratios. */
      for (size_t i = 0; i < n_decay; i++)
        x[i] = yr[L + t0 + i] * yr[L + t0 + i];
      for (size_t i = 0; i < np; i++)
        yf[i] = 0.5 * (yf[i] * yf[i] + yr[i] * yr[i]);
      bool ok = analyse_band (b, x, n_decay, yf, np, L + t0, t0, rate_hz, err);
      free (x);
      free (yf);
      free (yr);
      if (!ok)
        {
          rw_fail_prefix (err, _("%g Hz band"), b->centre_hz);
          rw_analysis_clear (out);
          return false;
        }
    }
  return true;
}

void
rw_analysis_clear (RwAnalysis *analysis)
{
  if (!analysis)
    return;
  for (int k = 0; k < RW_ANALYSIS_N_BANDS; k++)
    free (analysis->bands[k].edc_db);
  memset (analysis, 0, sizeof *analysis);
}

const char *
rw_band_method_name (RwBandMethod method)
{
  switch (method)
    {
    case RW_BAND_METHOD_WAVE:
      return "wave";
    case RW_BAND_METHOD_GEOMETRICAL:
      return "geometrical";
    case RW_BAND_METHOD_BOTH:
      return "both";
    case RW_BAND_METHOD_MIXED:
      return "mixed";
    case RW_BAND_METHOD_UNKNOWN:
    default:
      return "unknown";
    }
}

const char *
rw_band_method_label (RwBandMethod method)
{
  switch (method)
    {
    case RW_BAND_METHOD_WAVE:
      return _("wave");
    case RW_BAND_METHOD_GEOMETRICAL:
      return _("geometrical");
    case RW_BAND_METHOD_BOTH:
      return _("both");
    case RW_BAND_METHOD_MIXED:
      return _("mixed");
    case RW_BAND_METHOD_UNKNOWN:
    default:
      return _("unknown");
    }
}

void
rw_analysis_set_methods (RwAnalysis *analysis, const RwBandMethod *method, double crossover_hz)
{
  RwBandMethod common = method[0];
  for (int k = 0; k < RW_N_OCTAVES; k++)
    {
      analysis->bands[k].method = method[k];
      if (method[k] != common)
        common = RW_BAND_METHOD_BOTH;   /* the full band holds every part */
    }
  analysis->bands[RW_ANALYSIS_BROADBAND].method = common;
  analysis->crossover_hz = crossover_hz;
}

/* ---- spatial average ---------------------------------------------------- */

/* Mean of the finite values among v[0 … n−1] (stride in bytes), and their
 * count; NAN when there is none. */
static double
mean_present (const RwAnalysis *items, size_t n, size_t offset, int *count)
{
  double sum = 0.0;
  int k = 0;
  for (size_t i = 0; i < n; i++)
    {
      double v;
      memcpy (&v, (const char *) &items[i] + offset, sizeof v);
      if (isfinite (v))
        sum += v, k++;
    }
  *count = k;
  return k > 0 ? sum / k : NAN;
}

bool
rw_analysis_average (const RwAnalysis *items, size_t n, RwAnalysis *out, RwError *err)
{
  memset (out, 0, sizeof *out);
  if (items == NULL || n == 0)
    return rw_fail (err, RW_ERROR_INPUT, _("no impulse response to average"));
  out->rate_hz = items[0].rate_hz;
  out->onset_s = items[0].onset_s;
  out->fmax_hz = items[0].fmax_hz;
  out->duration_s = items[0].duration_s;
  for (size_t i = 1; i < n; i++)
    {
      out->fmax_hz = fmin (out->fmax_hz, items[i].fmax_hz);
      out->duration_s = fmin (out->duration_s, items[i].duration_s);
    }
  out->n_averaged = n;
  /* one crossover line only where every IR has it (the same simulation's
   * sources and receivers); otherwise none can stand for all */
  out->crossover_hz = items[0].crossover_hz;
  for (size_t i = 1; i < n; i++)
    if (!(items[i].crossover_hz == out->crossover_hz))
      out->crossover_hz = NAN;
  for (int k = 0; k < RW_ANALYSIS_N_BANDS; k++)
    {
      RwBandResult *b = &out->bands[k];
      const RwBandResult *b0 = &items[0].bands[k];
      const size_t band = offsetof (RwAnalysis, bands) + (size_t) k * sizeof (RwBandResult);
      b->centre_hz = b0->centre_hz;
      b->lower_hz = b0->lower_hz;
      b->upper_hz = b0->upper_hz;
      b->decay_range_db = INFINITY;
      b->noise_floor_db = -INFINITY;
      b->truncation_s = NAN;
      b->method = b0->method;
      for (size_t i = 0; i < n; i++)
        {
          const RwBandResult *bi = &items[i].bands[k];
          if (bi->method != b->method)
            b->method = RW_BAND_METHOD_MIXED;
          b->above_fmax = b->above_fmax || bi->above_fmax;
          b->analysed = b->analysed || bi->analysed;
          if (isfinite (bi->decay_range_db))
            b->decay_range_db = fmin (b->decay_range_db, bi->decay_range_db);
          if (isfinite (bi->noise_floor_db))
            b->noise_floor_db = fmax (b->noise_floor_db, bi->noise_floor_db);
        }
      if (!isfinite (b->decay_range_db))
        b->decay_range_db = NAN;
      if (!isfinite (b->noise_floor_db))
        b->noise_floor_db = NAN;
      if (!b->analysed)
        snprintf (b->absent_reason, sizeof b->absent_reason, "%s", b0->absent_reason);

      RwDecayFit *fits[3] = { &b->edt, &b->t20, &b->t30 };
      const RwDecayFit *fits0[3] = { &b0->edt, &b0->t20, &b0->t30 };
      const size_t fit_off[3] = { offsetof (RwBandResult, edt), offsetof (RwBandResult, t20),
                                  offsetof (RwBandResult, t30) };
      for (int f = 0; f < 3; f++)
        {
          RwDecayFit *fit = fits[f];
          fit->value_s = mean_present (items, n, band + fit_off[f] + offsetof (RwDecayFit, value_s),
                                       &b->n_values[f]);
          fit->start_db = fits0[f]->start_db;
          fit->end_db = fits0[f]->end_db;
          fit->slope_db_per_s = fit->intercept_db = fit->r = fit->xi_permille = NAN;
          fit->range_db = NAN;
          if (b->n_values[f] == 0)
            snprintf (fit->absent_reason, sizeof fit->absent_reason, "%s", fits0[f]->absent_reason);
        }
      int nr[4];
      b->C50_db = mean_present (items, n, band + offsetof (RwBandResult, C50_db), &nr[0]);
      b->C80_db = mean_present (items, n, band + offsetof (RwBandResult, C80_db), &nr[1]);
      b->D50 = mean_present (items, n, band + offsetof (RwBandResult, D50), &nr[2]);
      b->Ts_s = mean_present (items, n, band + offsetof (RwBandResult, Ts_s), &nr[3]);
      b->n_values[3] = nr[0];
      if (nr[0] == 0)
        snprintf (b->ratios_absent_reason, sizeof b->ratios_absent_reason, "%s",
                  b0->ratios_absent_reason);
    }
  return true;
}

/* ---- JSON -------------------------------------------------------------- */

static json_object *
band_json (const RwBandResult *b, bool broadband)
{
  json_object *o = json_object_new_object ();
  json_object *absent = json_object_new_object ();

  if (!broadband)
    json_object_object_add (o, "center_hz", json_object_new_double (b->centre_hz));
  json_object_object_add (o, "lower_hz", json_object_new_double (b->lower_hz));
  json_object_object_add (o, "upper_hz", json_object_new_double (b->upper_hz));
  json_object_object_add (o, "above_fmax", json_object_new_boolean (b->above_fmax));
  json_object_object_add (o, "analysed", json_object_new_boolean (b->analysed));
  json_object_object_add (o, "method", json_object_new_string (rw_band_method_name (b->method)));

  struct { const char *key, *range_key, *xi_key; const RwDecayFit *fit; } fits[3] = {
    { "EDT_s", "EDT_range_db", "EDT_xi_permille", &b->edt },
    { "T20_s", "T20_range_db", "T20_xi_permille", &b->t20 },
    { "T30_s", "T30_range_db", "T30_xi_permille", &b->t30 },
  };
  for (int i = 0; i < 3; i++)
    {
      json_object_object_add (o, fits[i].key, rw_json_number (fits[i].fit->value_s));
      json_object_object_add (o, fits[i].range_key, rw_json_number (fits[i].fit->range_db));
      json_object_object_add (o, fits[i].xi_key, rw_json_number (fits[i].fit->xi_permille));
      if (!isfinite (fits[i].fit->value_s))
        json_object_object_add (absent, fits[i].key,
                                json_object_new_string (fits[i].fit->absent_reason));
    }
  struct { const char *key; double v; } vals[] = {
    { "C50_db", b->C50_db }, { "C80_db", b->C80_db }, { "D50", b->D50 }, { "Ts_s", b->Ts_s },
  };
  for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++)
    {
      json_object_object_add (o, vals[i].key, rw_json_number (vals[i].v));
      if (!isfinite (vals[i].v))
        json_object_object_add (absent, vals[i].key,
                                json_object_new_string (b->absent_reason[0] ? b->absent_reason
                                                        : b->ratios_absent_reason[0] ? b->ratios_absent_reason
                                                        : _("no energy to compare")));
    }
  json_object_object_add (o, "decay_range_db", rw_json_number (b->decay_range_db));
  json_object_object_add (o, "noise_floor_db", rw_json_number (b->noise_floor_db));
  json_object_object_add (o, "noise_found", json_object_new_boolean (b->noise.noise_found));
  json_object_object_add (o, "truncation_s", rw_json_number (b->truncation_s));
  json_object_object_add (o, "absent", absent);
  if (b->n_values[0] + b->n_values[1] + b->n_values[2] + b->n_values[3] > 0)
    {
      json_object *nv = json_object_new_object ();
      json_object_object_add (nv, "EDT", json_object_new_int (b->n_values[0]));
      json_object_object_add (nv, "T20", json_object_new_int (b->n_values[1]));
      json_object_object_add (nv, "T30", json_object_new_int (b->n_values[2]));
      json_object_object_add (nv, "C50_C80_D50_Ts", json_object_new_int (b->n_values[3]));
      json_object_object_add (o, "n_values", nv);
    }
  return o;
}

char *
rw_analysis_to_json (const RwAnalysis *a, const char *file)
{
  json_object *root = json_object_new_object ();
  json_object_object_add (root, "file", file ? json_object_new_string (file) : NULL);
  json_object_object_add (root, "rate_hz", json_object_new_double (a->rate_hz));
  json_object_object_add (root, "fmax_hz", rw_json_number (a->fmax_hz));
  json_object_object_add (root, "crossover_hz", rw_json_number (a->crossover_hz));
  json_object_object_add (root, "onset_s", json_object_new_double (a->onset_s));
  json_object_object_add (root, "duration_s", json_object_new_double (a->duration_s));
  if (a->n_averaged > 0)
    json_object_object_add (root, "averaged_irs", json_object_new_int64 ((int64_t) a->n_averaged));
  json_object *bands = json_object_new_array ();
  for (int k = 0; k < RW_N_OCTAVES; k++)
    json_object_array_add (bands, band_json (&a->bands[k], false));
  json_object_object_add (root, "bands", bands);
  json_object_object_add (root, "broadband", band_json (&a->bands[RW_ANALYSIS_BROADBAND], true));
  return rw_json_take_string (root);
}
