/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-hybrid.c — the wave and geometrical IRs joined at a crossover by a
 * complementary linear-phase pair, and the seam metrics (see rw-hybrid.h). */
#include "rw-hybrid.h"

/* complex.h before fftw3.h: fftw_complex is then C99's double complex. */
#include <complex.h>
#include <fftw3.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rw-fftw.h"
#include "rw-i18n.h"
#include "rw-postprocess.h"   /* rw_kaiser_lowpass */

/* Base-10 octave ratio (IEC 61260-1), as rw-octave.c. */
#define OCTAVE_G 1.9952623149688795
/* What the Kaiser design asks for beyond RW_HYBRID_RIPPLE_DB (see below). */
#define RW_HYBRID_DESIGN_MARGIN_DB 4.0

double
rw_hybrid_default_crossover (double fmax_hz)
{
  return 0.5 * fmax_hz;
}

void
rw_hybrid_transition (double crossover_hz, double band[2])
{
  band[0] = crossover_hz * (1.0 - RW_HYBRID_TRANSITION_HALF_WIDTH);
  band[1] = crossover_hz * (1.0 + RW_HYBRID_TRANSITION_HALF_WIDTH);
}

double
rw_hybrid_max_crossover (double fmax_hz, double rate_hz)
{
  return fmin (fmax_hz, 0.5 * rate_hz) / (1.0 + RW_HYBRID_TRANSITION_HALF_WIDTH);
}

bool
rw_hybrid_check_crossover (double crossover_hz, double fmax_hz, double rate_hz, RwError *err)
{
  if (!(isfinite (rate_hz) && rate_hz > 0))
    return rw_fail (err, RW_ERROR_INPUT, _("hybrid IR: the sample rate %g Hz is not positive"),
                    rate_hz);
  if (!(isfinite (fmax_hz) && fmax_hz > 0))
    return rw_fail (err, RW_ERROR_INPUT,
                    _("hybrid IR: the wave part's fmax %g Hz is not positive"), fmax_hz);
  /* The transition's upper end must stay within the wave part's valid
   * band (and below Nyquist): above it the wave part's weight is below
   * the design's −60 dB. */
  const double top = fmin (fmax_hz, 0.5 * rate_hz);
  const double highest = rw_hybrid_max_crossover (fmax_hz, rate_hz);
  if (!(isfinite (crossover_hz) && crossover_hz > 0 && crossover_hz <= highest))
    return rw_fail (err, RW_ERROR_INPUT,
                    _("hybrid IR: the crossover %g Hz is out of range: it must be above 0 and "
                      "at most %.1f Hz, so that the crossover's transition band (up to "
                      "1.293 × the crossover) stays below the wave part's fmax %g Hz"),
                    crossover_hz, highest, top);
  return true;
}

bool
rw_hybrid_filter_design (double crossover_hz, double fmax_hz, double rate_hz,
                         RwHybridFilter *filter, RwError *err)
{
  if (filter == NULL)
    return rw_fail (err, RW_ERROR_INTERNAL, "rw_hybrid_filter_design: NULL argument");
  memset (filter, 0, sizeof *filter);
  if (!rw_hybrid_check_crossover (crossover_hz, fmax_hz, rate_hz, err))
    return false;
  const double w = RW_HYBRID_TRANSITION_HALF_WIDTH;
  /* Kaiser's formulas (O&S eq. 7.62, 7.63) are empirical fits and fall
   * short by up to 3.5 dB at this width (asked for 60 dB, the taps give a
   * 0.0127 dB ripple, −56.7 dB, tests/test-hybrid-flatness.c), so the
   * design asks for RW_HYBRID_DESIGN_MARGIN_DB more. The taps sum to 1:
   * the wave part's low end passes with unit gain. */
  size_t n_taps = 0;
  double *taps = rw_kaiser_lowpass (rate_hz, crossover_hz * (1.0 - w), crossover_hz * (1.0 + w),
                                    RW_HYBRID_RIPPLE_DB + RW_HYBRID_DESIGN_MARGIN_DB, &n_taps);
  if (taps == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("out of memory designing the crossover filter"));
  const size_t half = n_taps / 2;
  filter->crossover_hz = crossover_hz;
  filter->rate_hz = rate_hz;
  double tr[2];
  rw_hybrid_transition (crossover_hz, tr);
  filter->transition_low_hz = tr[0];
  filter->transition_high_hz = tr[1];
  filter->half_length = half;
  filter->taps = taps;
  return true;
}

void
rw_hybrid_filter_clear (RwHybridFilter *filter)
{
  if (filter == NULL)
    return;
  free (filter->taps);
  memset (filter, 0, sizeof *filter);
}

static bool
check_part (const RwHybridPart *p, const char *name, RwError *err)
{
  if (p->ir == NULL || p->n == 0)
    return rw_fail (err, RW_ERROR_INPUT, _("hybrid IR: %s: empty"), name);
  if (!(isfinite (p->rate_hz) && p->rate_hz > 0))
    return rw_fail (err, RW_ERROR_INPUT,
                    _("hybrid IR: %s: the sample rate %g Hz is not positive"), name,
                    p->rate_hz);
  for (size_t i = 0; i < p->n; i++)
    if (!isfinite (p->ir[i]))
      return rw_fail (err, RW_ERROR_INPUT,
                      _("hybrid IR: %s: sample %zu is not finite"), name, i);
  return true;
}

static size_t
next_pow2 (size_t n)
{
  size_t p = 1;
  while (p < n)
    p <<= 1;
  return p;
}

/* y = x ⊛ h (h centred: taps[k + half] at lag k), samples 0 … n − 1 of
 * the linear convolution, through one FFT of length L ≥ n + 2 half (no
 * wrap-around into 0 … n − 1). H is the filter's spectrum at length L. */
static void
convolve (const double *x, size_t n, const fftw_complex *H, size_t L, double *buf,
          fftw_complex *spec, fftw_plan fwd, fftw_plan inv, double *y)
{
  memcpy (buf, x, n * sizeof *buf);
  memset (buf + n, 0, (L - n) * sizeof *buf);
  fftw_execute_dft_r2c (fwd, buf, spec);
  for (size_t k = 0; k <= L / 2; k++)
    spec[k] = spec[k] * H[k] / (double) L;
  fftw_execute_dft_c2r (inv, spec, buf);
  memcpy (y, buf, n * sizeof *y);
}

bool
rw_hybrid_join (const RwHybridPart *wave, const RwHybridPart *ga, double fmax_hz,
                double crossover_hz, double *out, double *low, double *high, RwError *err)
{
  if (wave == NULL || ga == NULL || out == NULL)
    return rw_fail (err, RW_ERROR_INTERNAL, "rw_hybrid_join: NULL argument");
  if (!check_part (wave, _("wave part"), err) || !check_part (ga, _("geometrical part"), err))
    return false;
  if (wave->n != ga->n)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("hybrid IR: the wave part has %zu samples and the geometrical part "
                      "%zu: both must have the same length"), wave->n, ga->n);
  if (wave->rate_hz != ga->rate_hz)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("hybrid IR: the wave part's sample rate %g Hz differs from the "
                      "geometrical part's %g Hz"), wave->rate_hz, ga->rate_hz);
  RwHybridFilter f;
  if (!rw_hybrid_filter_design (crossover_hz, fmax_hz, wave->rate_hz, &f, err))
    return false;

  const size_t n = wave->n, half = f.half_length;
  const size_t L = next_pow2 (n + 2 * half);
  double *buf = fftw_malloc (L * sizeof *buf);
  double *lo = malloc (n * sizeof *lo), *ga_lo = malloc (n * sizeof *ga_lo);
  fftw_complex *H = fftw_malloc ((L / 2 + 1) * sizeof *H);
  fftw_complex *spec = fftw_malloc ((L / 2 + 1) * sizeof *spec);
  fftw_plan fwd = NULL, inv = NULL;
  bool ok = false;
  if (buf == NULL || lo == NULL || ga_lo == NULL || H == NULL || spec == NULL)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("out of memory joining the hybrid IR (%zu samples)"), n);
      goto out;
    }
  if (!rw_fftw_plan_pair ((int) L, buf, spec, spec, buf, &fwd, &inv))
    {
      rw_fail (err, RW_ERROR_MEMORY, _("out of memory joining the hybrid IR (%zu samples)"), n);
      goto out;
    }
  /* The filter's spectrum: lag k at index k mod L (zero phase). */
  memset (buf, 0, L * sizeof *buf);
  for (size_t i = 0; i <= 2 * half; i++)
    buf[(i + L - half) % L] = f.taps[i];
  fftw_execute_dft_r2c (fwd, buf, H);

  convolve (wave->ir, n, H, L, buf, spec, fwd, inv, lo);
  convolve (ga->ir, n, H, L, buf, spec, fwd, inv, ga_lo);
  /* ga ⊛ (δ − h_L) = ga − ga ⊛ h_L. */
  for (size_t i = 0; i < n; i++)
    {
      const double hi = ga->ir[i] - ga_lo[i];
      if (low != NULL)
        low[i] = lo[i];
      if (high != NULL)
        high[i] = hi;
      out[i] = lo[i] + hi;
    }
  ok = true;

out:
  rw_fftw_destroy_pair (fwd, inv);
  fftw_free (buf);
  fftw_free (H);
  fftw_free (spec);
  free (lo);
  free (ga_lo);
  rw_hybrid_filter_clear (&f);
  return ok;
}

void
rw_hybrid_band_methods (double crossover_hz, RwHybridMethod methods[RW_N_OCTAVES])
{
  double tr[2];
  rw_hybrid_transition (crossover_hz, tr);
  const double lo = tr[0], hi = tr[1];
  for (int b = 0; b < RW_N_OCTAVES; b++)
    {
      const double c = rw_octave_exact_centre_hz (b);
      const double lower = c / sqrt (OCTAVE_G), upper = c * sqrt (OCTAVE_G);
      const bool contains = lower <= crossover_hz && crossover_hz < upper;
      /* Overlap of the band with the transition band, in octaves. */
      const double a = fmax (lower, lo), z = fmin (upper, hi);
      const bool overlaps = z > a && log2 (z / a) > 1.0 / 24.0;
      if (contains || overlaps)
        methods[b] = RW_HYBRID_BOTH;
      else if (upper <= crossover_hz)
        methods[b] = RW_HYBRID_WAVE;
      else
        methods[b] = RW_HYBRID_GEOMETRICAL;
    }
}

const char *
rw_hybrid_method_name (RwHybridMethod method)
{
  switch (method)
    {
    case RW_HYBRID_WAVE:
      return "wave";
    case RW_HYBRID_GEOMETRICAL:
      return "geometrical";
    case RW_HYBRID_BOTH:
      return "both";
    }
  return "?";
}

/* ---- seam metrics ---------------------------------------------------- */

/* T30 of the mean band energy of n_ir IRs: the onset is the earliest of
 * their broadband ISO 3382-1 onsets (A.3.4, as rw_analyse; all share the
 * emission as time origin), the energy from there the mean of the squared
 * band signals (ensemble average: the fine structure's fluctuations
 * average out, the common decay stays), Schroeder with Lundeby
 * compensation. One IR: its own onset and band energy. */
static bool
band_t30 (const double *const *x, double *const *band, size_t n_ir, size_t n, double rate_hz,
          RwDecayFit *fit, RwError *err)
{
  float *xf = malloc (n * sizeof *xf);
  double *e = malloc (n * sizeof *e), *edc = malloc (n * sizeof *edc);
  bool ok = false;
  if (xf == NULL || e == NULL || edc == NULL)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("out of memory measuring the seam"));
      goto out;
    }
  size_t onset = n;
  for (size_t k = 0; k < n_ir; k++)
    {
      for (size_t i = 0; i < n; i++)
        xf[i] = (float) x[k][i];
      const size_t o = rw_onset_index (xf, n);
      onset = o < onset ? o : onset;
    }
  const size_t m = n - onset;
  for (size_t i = 0; i < m; i++)
    {
      double sum = 0;
      for (size_t k = 0; k < n_ir; k++)
        sum += band[k][onset + i] * band[k][onset + i];
      e[i] = sum / (double) n_ir;
    }
  size_t n_edc = rw_schroeder_decay (e, m, rate_hz, NULL, edc, err);
  if (n_edc == 0)
    goto out;
  rw_decay_fit (edc, n_edc, rate_hz, -5.0, -35.0, fit);
  ok = true;
out:
  free (xf);
  free (e);
  free (edc);
  return ok;
}

bool
rw_hybrid_seam (const double *a, const double *b, size_t n, double rate_hz,
                double crossover_hz, RwHybridSeam *seam, RwError *err)
{
  if (a == NULL || b == NULL || seam == NULL)
    return rw_fail (err, RW_ERROR_INTERNAL, "rw_hybrid_seam: NULL argument");
  return rw_hybrid_seam_average (&a, &b, 1, n, rate_hz, crossover_hz, seam, err);
}

bool
rw_hybrid_seam_average (const double *const *a, const double *const *b, size_t n_ir, size_t n,
                        double rate_hz, double crossover_hz, RwHybridSeam *seam, RwError *err)
{
  if (a == NULL || b == NULL || seam == NULL)
    return rw_fail (err, RW_ERROR_INTERNAL, "rw_hybrid_seam_average: NULL argument");
  memset (seam, 0, sizeof *seam);
  if (n_ir == 0)
    return rw_fail (err, RW_ERROR_INPUT, _("seam: no impulse responses to compare"));
  for (size_t k = 0; k < n_ir; k++)
    if (a[k] == NULL || b[k] == NULL)
      return rw_fail (err, RW_ERROR_INTERNAL, "rw_hybrid_seam_average: NULL IR");
  if (!(isfinite (rate_hz) && rate_hz > 0))
    return rw_fail (err, RW_ERROR_INPUT, _("seam: the sample rate %g Hz is not positive"),
                    rate_hz);
  const size_t win = (size_t) llround (RW_HYBRID_SEAM_WINDOW_S * rate_hz);
  if (win == 0 || n < win)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("seam: %zu samples are shorter than one %g ms window"), n,
                    1000.0 * RW_HYBRID_SEAM_WINDOW_S);
  for (size_t k = 0; k < n_ir; k++)
    for (size_t i = 0; i < n; i++)
      if (!isfinite (a[k][i]) || !isfinite (b[k][i]))
        return rw_fail (err, RW_ERROR_INPUT, _("seam: sample %zu is not finite"), i);
  RwOctaveFilter filt;
  if (!(isfinite (crossover_hz) && crossover_hz > 0)
      || !rw_octave_filter_design (crossover_hz, rate_hz, &filt, err))
    return rw_fail (err, RW_ERROR_INPUT,
                    _("seam: no octave band around %g Hz fits below the Nyquist frequency "
                      "at %g Hz"), crossover_hz, rate_hz);
  seam->centre_hz = filt.centre_hz;
  seam->lower_hz = filt.lower_hz;
  seam->upper_hz = filt.upper_hz;
  seam->n_averaged = n_ir;

  double **ya = calloc (n_ir, sizeof *ya), **yb = calloc (n_ir, sizeof *yb);
  bool ok = ya != NULL && yb != NULL;
  for (size_t k = 0; ok && k < n_ir; k++)
    {
      ya[k] = malloc (n * sizeof **ya);
      yb[k] = malloc (n * sizeof **yb);
      ok = ya[k] != NULL && yb[k] != NULL;
    }
  if (!ok)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("out of memory measuring the seam"));
      goto out;
    }
  for (size_t k = 0; k < n_ir; k++)
    {
      rw_octave_filter_apply (&filt, RW_FILTER_TIME_REVERSED, a[k], ya[k], n);
      rw_octave_filter_apply (&filt, RW_FILTER_TIME_REVERSED, b[k], yb[k], n);
    }

  size_t nw = (size_t) llround (RW_HYBRID_SEAM_SPAN_S / RW_HYBRID_SEAM_WINDOW_S);
  if (nw > n / win)
    nw = n / win;
  seam->n_windows = nw;
  seam->max_abs_diff_db = 0;
  for (size_t w = 0; w < nw; w++)
    {
      /* the mean over the IRs of each one's window energy, in linear units */
      double ea = 0, eb = 0;
      for (size_t k = 0; k < n_ir; k++)
        for (size_t i = w * win; i < (w + 1) * win; i++)
          {
            ea += ya[k][i] * ya[k][i];
            eb += yb[k][i] * yb[k][i];
          }
      ea /= (double) n_ir;
      eb /= (double) n_ir;
      seam->level_a_db[w] = 10.0 * log10 (ea);
      seam->level_b_db[w] = 10.0 * log10 (eb);
      seam->diff_db[w] = ea > 0 && eb > 0 ? seam->level_a_db[w] - seam->level_b_db[w] : NAN;
      if (isfinite (seam->diff_db[w]))
        seam->max_abs_diff_db = fmax (seam->max_abs_diff_db, fabs (seam->diff_db[w]));
    }

  ok = band_t30 (a, ya, n_ir, n, rate_hz, &seam->t30_a, err)
       && band_t30 (b, yb, n_ir, n, rate_hz, &seam->t30_b, err);
  seam->t30_rel_diff = ok && isfinite (seam->t30_a.value_s) && isfinite (seam->t30_b.value_s)
                       ? seam->t30_b.value_s / seam->t30_a.value_s - 1.0 : NAN;
out:
  for (size_t k = 0; k < n_ir; k++)
    {
      if (ya != NULL)
        free (ya[k]);
      if (yb != NULL)
        free (yb[k]);
    }
  free (ya);
  free (yb);
  return ok;
}
