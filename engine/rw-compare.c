/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-compare.c — simulated against measured impulse response; see
 * rw-compare.h and docs/REPORT.md §2. */
#include "rw-compare.h"
#include "rw-audio.h"
#include "rw-i18n.h"
#include "rw-results.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The plots and the report show the IRs from a little before the onset,
 * so that the direct sound is not cut at the left edge. */
#define PRE_ROLL_S 0.005

void
rw_compare_options_init (RwCompareOptions *opt)
{
  opt->sim_channel = -1;
  opt->meas_channel = -1;
  opt->fmax_hz = NAN;
  opt->rate_hz = 0;
}

double
rw_compare_jnd (RwPlotParam p, bool *relative)
{
  bool rel = false;
  double j = NAN;
  switch (p)
    {
    case RW_PLOT_PARAM_EDT:
    case RW_PLOT_PARAM_T20:
    case RW_PLOT_PARAM_T30:
      rel = true;
      j = 0.05;
      break;
    case RW_PLOT_PARAM_C50:
    case RW_PLOT_PARAM_C80:
      j = 1.0;
      break;
    case RW_PLOT_PARAM_D50:
      j = 0.05;
      break;
    case RW_PLOT_PARAM_TS:
      j = 10.0;   /* ms */
      break;
    case RW_PLOT_N_PARAMS:
    default:
      break;
    }
  if (relative)
    *relative = rel;
  return j;
}

void
rw_comparison_clear (RwComparison *cmp)
{
  if (cmp == NULL)
    return;
  free (cmp->sim_ir);
  free (cmp->meas_ir);
  rw_analysis_clear (&cmp->sim);
  rw_analysis_clear (&cmp->meas);
  memset (cmp, 0, sizeof *cmp);
}

/* Copies in (n at rate) into a new buffer at rate_hz. */
static bool
to_rate (const float *in, size_t n, double rate, double rate_hz, float **out, size_t *n_out,
         const char *label, RwError *err)
{
  RwAudio a = { 0 };
  a.data = malloc (n * sizeof (float));
  if (a.data == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory"), label);
  memcpy (a.data, in, n * sizeof (float));
  a.frames = n;
  a.channels = 1;
  a.rate_hz = rate;
  if (fabs (rate - rate_hz) > 1e-9 && !rw_audio_resample (&a, rate_hz, err))
    {
      rw_audio_clear (&a);
      return rw_fail_prefix (err, "%s", label);
    }
  *out = a.data;
  *n_out = a.frames;
  return true;
}

/* Keeps the signal from pre_roll before its ISO 3382-1 onset; false when
 * memory for the padding runs out. */
static bool
trim_to_onset (float **x, size_t *n, double rate, double *onset_s)
{
  size_t on = rw_onset_index (*x, *n);
  size_t pre = (size_t) lround (PRE_ROLL_S * rate);
  *onset_s = on / rate;
  size_t start = on > pre ? on - pre : 0;
  if (start == 0)
    {
      /* pad with zeros so that index pre is the onset in both signals */
      size_t pad = pre - on;
      float *y = calloc (*n + pad, sizeof (float));
      if (y == NULL)
        return false;
      memcpy (y + pad, *x, *n * sizeof (float));
      free (*x);
      *x = y;
      *n += pad;
      return true;
    }
  memmove (*x, *x + start, (*n - start) * sizeof (float));
  *n -= start;
  return true;
}

bool
rw_compare_signals (const float *sim, size_t n_sim, double sim_rate_hz,
                    const float *meas, size_t n_meas, double meas_rate_hz,
                    double fmax_hz, double rate_hz, RwComparison *out, RwError *err)
{
  RwComparison keep = *out;   /* the label fields the caller filled */
  keep.sim_path[sizeof keep.sim_path - 1] = '\0';
  keep.meas_path[sizeof keep.meas_path - 1] = '\0';
  keep.fmax_source[sizeof keep.fmax_source - 1] = '\0';
  keep.sim_ir = keep.meas_ir = NULL;
  memset (out, 0, sizeof *out);
  memcpy (out->sim_path, keep.sim_path, sizeof out->sim_path);
  memcpy (out->meas_path, keep.meas_path, sizeof out->meas_path);
  out->sim_channel = keep.sim_channel;
  out->meas_channel = keep.meas_channel;
  out->sim_channels = keep.sim_channels ? keep.sim_channels : 1;
  out->meas_channels = keep.meas_channels ? keep.meas_channels : 1;
  snprintf (out->fmax_source, sizeof out->fmax_source, "%s",
            keep.fmax_source[0] ? keep.fmax_source : (isfinite (fmax_hz) ? "option" : "none"));
  const char *sl = out->sim_path[0] ? out->sim_path : _("simulated IR");
  const char *ml = out->meas_path[0] ? out->meas_path : _("measured IR");

  if (n_sim == 0)
    return rw_fail (err, RW_ERROR_INPUT, _("%s: the impulse response is empty"), sl);
  if (n_meas == 0)
    return rw_fail (err, RW_ERROR_INPUT, _("%s: the impulse response is empty"), ml);
  if (!(fmax_hz > 0))
    return rw_fail (err, RW_ERROR_INPUT, _("fmax of %g Hz: must be positive"), fmax_hz);
  if (!(rate_hz > 0))
    rate_hz = fmax (sim_rate_hz, meas_rate_hz);

  out->sim_file_rate_hz = sim_rate_hz;
  out->meas_file_rate_hz = meas_rate_hz;
  out->rate_hz = rate_hz;
  out->fmax_hz = fmax_hz;
  out->pre_roll_s = PRE_ROLL_S;

  if (!to_rate (sim, n_sim, sim_rate_hz, rate_hz, &out->sim_ir, &out->sim_frames, sl, err)
      || !to_rate (meas, n_meas, meas_rate_hz, rate_hz, &out->meas_ir, &out->meas_frames, ml, err))
    {
      rw_comparison_clear (out);
      return false;
    }
  if (!trim_to_onset (&out->sim_ir, &out->sim_frames, rate_hz, &out->sim_onset_s)
      || !trim_to_onset (&out->meas_ir, &out->meas_frames, rate_hz, &out->meas_onset_s))
    {
      rw_comparison_clear (out);
      return rw_fail (err, RW_ERROR_MEMORY, _("out of memory aligning the impulse responses"));
    }
  /* onsets in each file's own time (the trimmed signal lost the start) */

  if (!rw_analyse (out->sim_ir, out->sim_frames, rate_hz, fmax_hz, &out->sim, err))
    {
      rw_fail_prefix (err, "%s", sl);
      rw_comparison_clear (out);
      return false;
    }
  if (!rw_analyse (out->meas_ir, out->meas_frames, rate_hz, INFINITY, &out->meas, err))
    {
      rw_fail_prefix (err, "%s", ml);
      rw_comparison_clear (out);
      return false;
    }

  for (int b = 0; b < RW_ANALYSIS_N_BANDS; b++)
    {
      RwBandCompare *bc = &out->bands[b];
      bc->centre_hz = b < RW_N_OCTAVES ? rw_octave_centres_hz[b] : 0.0;
      bc->above_fmax = out->sim.bands[b].above_fmax;
      for (int p = 0; p < RW_PLOT_N_PARAMS; p++)
        {
          RwParamDiff *d = &bc->p[p];
          d->sim = rw_plot_param_value (&out->sim.bands[b], p);
          d->measured = rw_plot_param_value (&out->meas.bands[b], p);
          d->available = isfinite (d->sim) && isfinite (d->measured);
          d->difference = d->available ? d->sim - d->measured : NAN;
          bool rel;
          double jnd = rw_compare_jnd (p, &rel);
          d->relative = rel && d->available && d->measured != 0 ? d->difference / d->measured : NAN;
          d->jnds = !d->available ? NAN : rel ? fabs (d->relative) / jnd : fabs (d->difference) / jnd;
          /* "more than one JND"; a tiny tolerance so that a difference of
           * exactly one JND in decimal (0.05 → 0.0500000001) is not flagged
           * by rounding. */
          d->exceeds_jnd = d->available && d->jnds > 1.0 + 1e-9;
          if (d->available)
            out->n_compared++;
          if (d->exceeds_jnd)
            out->n_exceeding++;
        }
    }
  return true;
}

/* One channel of path as mono; *channels: how many the file has. */
static bool
read_one (const char *path, int channel, RwAudio *a, int *channels, RwError *err)
{
  if (!rw_audio_read (path, a, err))
    return false;
  *channels = a->channels;
  return rw_audio_select_channel (a, channel, path, err);
}

bool
rw_compare_files (const char *sim_path, const char *meas_path, const RwCompareOptions *opt_in,
                  RwComparison *out, RwError *err)
{
  RwCompareOptions opt;
  if (opt_in)
    opt = *opt_in;
  else
    rw_compare_options_init (&opt);
  memset (out, 0, sizeof *out);

  /* fmax: the option wins; else what the results folder says about the
   * simulated IR (rw-results.h: a hybrid IR is valid to Nyquist, with a
   * method per band) */
  double fmax = opt.fmax_hz;
  char source[64] = "option";
  RwIrValidity validity;
  rw_ir_validity_init (&validity);
  if (isnan (fmax))
    {
      if (!rw_results_read_validity (sim_path, &validity, err))
        return false;
      fmax = validity.valid_up_to_hz;
      snprintf (source, sizeof source, validity.found ? "results.json" : "none");
    }
  else if (isinf (fmax))
    snprintf (source, sizeof source, "none");

  RwAudio s = { 0 }, m = { 0 };
  int sch = 0, mch = 0;
  if (!read_one (sim_path, opt.sim_channel, &s, &sch, err))
    return false;
  if (!read_one (meas_path, opt.meas_channel, &m, &mch, err))
    {
      rw_audio_clear (&s);
      return false;
    }
  snprintf (out->sim_path, sizeof out->sim_path, "%s", sim_path);
  snprintf (out->meas_path, sizeof out->meas_path, "%s", meas_path);
  out->sim_channel = opt.sim_channel < 0 ? 0 : opt.sim_channel;
  out->meas_channel = opt.meas_channel < 0 ? 0 : opt.meas_channel;
  out->sim_channels = sch;
  out->meas_channels = mch;
  snprintf (out->fmax_source, sizeof out->fmax_source, "%s", source);
  bool ok = rw_compare_signals (s.data, s.frames, s.rate_hz, m.data, m.frames, m.rate_hz,
                                fmax, opt.rate_hz, out, err);
  if (ok)
    rw_ir_validity_apply (&validity, &out->sim);
  rw_audio_clear (&s);
  rw_audio_clear (&m);
  return ok;
}
