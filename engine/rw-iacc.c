/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-iacc.c — ISO 3382-1 Annex A interaural cross-correlation (IACC) of a
 * binaural impulse response, broadband and per octave band; definitions
 * in rw-iacc.h and docs/ANALYSIS.md. */
#include "rw-iacc.h"
#include "rw-analysis.h"
#include "rw-i18n.h"
#include "rw-json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The octave bands of IACC_E3 / IACC_L3: 500 Hz, 1 kHz, 2 kHz. */
enum { E3_FIRST = 3, E3_LAST = 5 };

/* IACC over the window [a, b): the peak of
 * |Σ l[t] r[t+lag]| over |lag| ≤ max_lag, both t and t + lag inside the
 * window (each ear windowed, then cross-correlated, as measuring
 * practice does), normalised by the window's energies: so |IACF| ≤ 1 by
 * Cauchy–Schwarz, with equality for identical ears at lag 0. NAN (lag
 * NAN) when an ear has no energy there. */
static void
window_iacc (const double *l, const double *r, size_t a, size_t b, size_t max_lag,
             double rate_hz, double *iacc, double *tau_s)
{
  *iacc = *tau_s = NAN;
  double el = 0.0, er = 0.0;
  for (size_t t = a; t < b; t++)
    {
      el += l[t] * l[t];
      er += r[t] * r[t];
    }
  if (!(el > 0.0) || !(er > 0.0))
    return;
  double best = -1.0;
  for (size_t j = 0; j <= 2 * max_lag; j++)
    {
      /* lag = j − max_lag: t ∈ [a, b) and t + lag ∈ [a, b) */
      size_t lo = a + (j < max_lag ? max_lag - j : 0);
      size_t shrink = j > max_lag ? j - max_lag : 0;
      size_t hi = b > a + shrink ? b - shrink : a;
      double s = 0.0;
      for (size_t t = lo; t < hi; t++)
        s += l[t] * r[t + j - max_lag];   /* t ≥ lo keeps the index ≥ a */
      if (fabs (s) > best)
        {
          best = fabs (s);
          *tau_s = ((double) j - (double) max_lag) / rate_hz;
        }
    }
  *iacc = best / sqrt (el * er);
}

/* Early, late and full IACC of one band: l, r hold n samples, t0 the
 * onset, the early window [t0, split), the late one [split, n). */
static void
band_iacc (const double *l, const double *r, size_t n, size_t t0, size_t split,
           double rate_hz, RwIaccBand *out)
{
  const size_t max_lag = (size_t) floor (RW_IACC_MAX_LAG_S * rate_hz + 1e-9);
  window_iacc (l, r, t0, split, max_lag, rate_hz, &out->early, &out->tau_early_s);
  window_iacc (l, r, split, n, max_lag, rate_hz, &out->late, &out->tau_late_s);
  window_iacc (l, r, t0, n, max_lag, rate_hz, &out->full, &out->tau_full_s);
  out->analysed = true;
}

static void
band_absent (RwIaccBand *b)
{
  b->analysed = false;
  b->early = b->late = b->full = NAN;
  b->tau_early_s = b->tau_late_s = b->tau_full_s = NAN;
}

/* Each message whole (not "the %s ear"), so that a translation can
 * inflect the ear. */
static bool
check_ear (const float *x, size_t n, bool left, RwError *err)
{
  double peak = 0.0;
  for (size_t i = 0; i < n; i++)
    {
      if (!isfinite (x[i]))
        return rw_fail (err, RW_ERROR_INPUT,
                        left ? _("the left ear's impulse response holds a non-finite sample at %zu")
                             : _("the right ear's impulse response holds a non-finite sample at %zu"),
                        i);
      peak = fmax (peak, fabs (x[i]));
    }
  if (peak == 0.0)
    return rw_fail (err, RW_ERROR_INPUT, "%s",
                    left ? _("the left ear's impulse response is silent")
                         : _("the right ear's impulse response is silent"));
  return true;
}

bool
rw_iacc (const float *left, size_t n_left, const float *right, size_t n_right,
         double rate_hz, RwIacc *out, RwError *err)
{
  memset (out, 0, sizeof *out);
  if (!left || !right || n_left == 0 || n_right == 0)
    return rw_fail (err, RW_ERROR_INPUT, _("the binaural impulse response is empty"));
  if (n_left != n_right)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("the two ears' impulse responses differ in length (%zu and %zu samples)"),
                    n_left, n_right);
  if (!(rate_hz >= 8000.0) || !isfinite (rate_hz))
    return rw_fail (err, RW_ERROR_INPUT,
                    _("sample rate %g Hz is too low for the IACC (at least 8000 Hz)"), rate_hz);
  if (!check_ear (left, n_left, true, err) || !check_ear (right, n_right, false, err))
    return false;

  const size_t n = n_left;
  size_t t0 = rw_onset_index (left, n);
  size_t t0r = rw_onset_index (right, n);
  if (t0r < t0)
    t0 = t0r;   /* the direct sound: whichever ear hears it first */
  size_t split = t0 + (size_t) llround (RW_IACC_EARLY_S * rate_hz);
  if (split > n)
    split = n;
  out->rate_hz = rate_hz;
  out->onset_s = (double) t0 / rate_hz;
  out->duration_s = (double) n / rate_hz;

  double *l = malloc (n * sizeof *l);
  double *r = malloc (n * sizeof *r);
  double *lf = malloc (n * sizeof *lf);
  double *rf = malloc (n * sizeof *rf);
  bool ok = l && r && lf && rf;
  if (!ok)
    rw_fail (err, RW_ERROR_MEMORY, _("out of memory in the IACC"));
  for (size_t i = 0; ok && i < n; i++)
    {
      l[i] = left[i];
      r[i] = right[i];
    }
  if (ok)
    band_iacc (l, r, n, t0, split, rate_hz, &out->broadband);
  for (int k = 0; ok && k < RW_N_OCTAVES; k++)
    {
      RwIaccBand *b = &out->bands[k];
      b->centre_hz = rw_octave_centres_hz[k];
      RwOctaveFilter f;
      RwError ferr = { 0 };
      if (!rw_octave_filter_design (rw_octave_exact_centre_hz (k), rate_hz, &f, &ferr))
        {
          band_absent (b);   /* reaches the Nyquist frequency at this rate */
          continue;
        }
      /* time-reversed: the band filter's ringing goes before the onset
       * (rw-analysis.h), the 80 ms split stays where ISO puts it */
      rw_octave_filter_apply (&f, RW_FILTER_TIME_REVERSED, l, lf, n);
      rw_octave_filter_apply (&f, RW_FILTER_TIME_REVERSED, r, rf, n);
      band_iacc (lf, rf, n, t0, split, rate_hz, b);
    }
  free (l);
  free (r);
  free (lf);
  free (rf);
  if (!ok)
    {
      memset (out, 0, sizeof *out);
      return false;
    }
  /* Hidaka et al. (1995): the mean of the three middle octaves */
  double se = 0.0, sl = 0.0;
  for (int k = E3_FIRST; k <= E3_LAST; k++)
    {
      se += out->bands[k].analysed ? out->bands[k].early : NAN;
      sl += out->bands[k].analysed ? out->bands[k].late : NAN;
    }
  out->e3 = se / (E3_LAST - E3_FIRST + 1);
  out->l3 = sl / (E3_LAST - E3_FIRST + 1);
  return true;
}

static json_object *
band_json (const RwIaccBand *b)
{
  json_object *o = json_object_new_object ();
  json_object_object_add (o, "centre_hz", json_object_new_double (b->centre_hz));
  json_object_object_add (o, "analysed", json_object_new_boolean (b->analysed));
  json_object_object_add (o, "iacc_early", rw_json_number (b->early));
  json_object_object_add (o, "iacc_late", rw_json_number (b->late));
  json_object_object_add (o, "iacc_full", rw_json_number (b->full));
  json_object_object_add (o, "tau_early_s", rw_json_number (b->tau_early_s));
  json_object_object_add (o, "tau_late_s", rw_json_number (b->tau_late_s));
  json_object_object_add (o, "tau_full_s", rw_json_number (b->tau_full_s));
  return o;
}

char *
rw_iacc_to_json (const RwIacc *a, const char *file)
{
  json_object *root = json_object_new_object ();
  json_object_object_add (root, "file", file ? json_object_new_string (file) : NULL);
  json_object_object_add (root, "rate_hz", json_object_new_double (a->rate_hz));
  json_object_object_add (root, "onset_s", json_object_new_double (a->onset_s));
  json_object_object_add (root, "duration_s", json_object_new_double (a->duration_s));
  json_object_object_add (root, "early_end_s", json_object_new_double (RW_IACC_EARLY_S));
  json_object_object_add (root, "max_lag_s", json_object_new_double (RW_IACC_MAX_LAG_S));
  json_object *bands = json_object_new_array ();
  for (int k = 0; k < RW_N_OCTAVES; k++)
    json_object_array_add (bands, band_json (&a->bands[k]));
  json_object_object_add (root, "bands", bands);
  json_object_object_add (root, "broadband", band_json (&a->broadband));
  json_object_object_add (root, "iacc_e3", rw_json_number (a->e3));
  json_object_object_add (root, "iacc_l3", rw_json_number (a->l3));
  return rw_json_take_string (root);
}
