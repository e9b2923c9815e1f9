/* SPDX-License-Identifier: GPL-3.0-or-later */
/* iacc: rw_iacc (ISO 3382-1 Annex A interaural cross-correlation) against
 * closed forms, on exponentially decaying Gaussian noise (fixed seed)
 * after 20 ms of silence, at 48 kHz:
 *
 * - identical ears: IACF(0) = 1 exactly, so IACC = 1 (to 1e-9) at τ = 0
 *   in every window, every band and broadband;
 * - right = left delayed by d = 0.5 ms (24 samples): IACF(τ) is the left
 *   ear's autocorrelation at τ − d, whose peak is at τ = +d (the sign
 *   rw-iacc.h documents: > 0, the right ear later). Each ear windowed,
 *   IACF(d) = Σ_{[a,b−d)} x² / √(Σ_{[a,b)} x² Σ_{[a−d,b−d)} x²) in the
 *   window [a, b) (x: the left ear, band-filtered as the engine does):
 *   the IACC is that to 1e-6 at τ = +d, broadband and from 250 Hz up
 *   (0.966 … 0.9999 here); at 63 and 125 Hz the autocorrelation's peak is
 *   so flat that the window's edges move it by a few samples: there τ
 *   within 0.1 ms, IACC between the closed form and 1;
 * - the lag range: white noise delayed 0.9 ms is found at τ = 0.9 ms
 *   with IACC > 0.99, delayed 1.2 ms (outside ±1 ms) gives IACC < 0.15;
 * - right = −left: IACF(0) = −1, IACC = |IACF| = 1 at τ = 0;
 * - two independent noises with the same decay (T60 1 s, 1 s long):
 *   broadband IACC < 0.15 in every window. Per octave band (4 s of noise,
 *   T60 4 s, full window) the normalised cross-correlation of two
 *   independent Gaussian signals of bandwidth B over an effective
 *   duration T_eff = (∫e dt)² / ∫e² dt (e the energy envelope) has the
 *   standard deviation σ = 1/√(2 B T_eff); its envelope over the lags is
 *   Rayleigh, so the peak stays below 4.5 σ but with probability e^−10.
 *   B = the octave's −3 dB bandwidth f_c/√2 (63 Hz: σ 0.14; 1 kHz: 0.035);
 * - a diffuse field at two points 2a = 0.175 m apart (cross-spectrum
 *   sin(k·2a)/(k·2a)): per band the IACC the cross-spectrum predicts,
 *   within 4.5 σ of the estimate's scatter (test_diffuse_field);
 * - IACC_E3 / IACC_L3 are the means of the 500 Hz, 1 kHz, 2 kHz bands;
 * - an IR that ends 50 ms after the onset: late IACC absent (NAN), full =
 *   early; at 16 kHz the 8 kHz band is not analysed;
 * - bad input (empty, different lengths, NaN in either ear, a silent ear,
 *   a rate below 8 kHz) fails with a message naming the problem. */
#include "rw-test.h"
#include "rw-iacc.h"
#include "rw-analysis.h"

#include <fftw3.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FS 48000.0
#define K60 13.815510557964274
#define PRE_S 0.020

static uint64_t rng = 0x9e3779b97f4a7c15ull;

/* Gaussian noise with the energy decay e^{−K60 t / T60} after PRE_S of
 * silence; n samples. */
static float *
decaying_noise (size_t n, double t60, double rate)
{
  float *x = calloc (n, sizeof *x);
  for (size_t i = (size_t) (PRE_S * rate); i < n; i++)
    {
      double t = (double) i / rate - PRE_S;
      x[i] = (float) (rw_test_gauss (&rng) * exp (-0.5 * K60 * t / t60));
    }
  return x;
}

static const char *
band_name (int k)
{
  static char buf[32];
  snprintf (buf, sizeof buf, "%g Hz", k < RW_N_OCTAVES ? rw_octave_centres_hz[k] : 0.0);
  return k < RW_N_OCTAVES ? buf : "broadband";
}

static const RwIaccBand *
band_of (const RwIacc *a, int k)
{
  return k < RW_N_OCTAVES ? &a->bands[k] : &a->broadband;
}

/* every window of every band: IACC `want` within tol, τ = tau_s within
 * tau_tol (tau_tol_low below 250 Hz) */
static void
check_all (const RwIacc *a, const char *what, double want, double tol, double tau_s,
           double tau_tol, double tau_tol_low)
{
  for (int k = 0; k <= RW_N_OCTAVES; k++)
    {
      const RwIaccBand *b = band_of (a, k);
      RW_CHECK (b->analysed, "%s: %s not analysed", what, band_name (k));
      double v[3] = { b->early, b->late, b->full };
      double t[3] = { b->tau_early_s, b->tau_late_s, b->tau_full_s };
      static const char *const win[3] = { "early", "late", "full" };
      double ttol = k < 2 ? tau_tol_low : tau_tol;
      for (int w = 0; w < 3; w++)
        {
          RW_CHECK (fabs (v[w] - want) <= tol, "%s: %s %s IACC %.6f, want %.3f ± %.3g", what,
                    band_name (k), win[w], v[w], want, tol);
          RW_CHECK (fabs (t[w] - tau_s) <= ttol, "%s: %s %s τ %.4f ms, want %.4f ± %.3g ms",
                    what, band_name (k), win[w], t[w] * 1e3, tau_s * 1e3, ttol * 1e3);
        }
      RW_NOTE ("%s: %-9s early %.5f (τ %+.3f ms) late %.5f (τ %+.3f ms) full %.5f", what,
               band_name (k), b->early, b->tau_early_s * 1e3, b->late, b->tau_late_s * 1e3,
               b->full);
    }
}

/* right = left delayed by d samples: IACF(d) in the window [a, b) is
 *   Σ_{[a, b−d)} x² / √(Σ_{[a, b)} x² · Σ_{[a−d, b−d)} x²)
 * with x the (band-filtered) left ear: < 1 by the window's edges only. */
static double
delayed_closed_form (const double *x, size_t a, size_t b, size_t d)
{
  double num = 0.0, el = 0.0, er = 0.0;
  for (size_t t = a; t < b; t++)
    {
      el += x[t] * x[t];
      er += t >= d ? x[t - d] * x[t - d] : 0.0;
      num += t + d < b ? x[t] * x[t] : 0.0;
    }
  return num / sqrt (el * er);
}

/* Every band: IACC = the closed form (to 1e-6; the band filters of the
 * two ears differ only in the last d samples, 120 dB down), at τ = +d to
 * the sample from 250 Hz up and broadband. At 63 and 125 Hz the peak of
 * the autocorrelation is so flat (curvature (2πf/fs)² per sample²) that
 * the window's edges move it by a few samples: there τ within 0.1 ms and
 * the IACC between the closed form (the value at d) and 1. */
static void
check_delayed (const RwIacc *a, const float *l, size_t n, size_t d)
{
  double *x = malloc (n * sizeof *x);
  size_t t0 = (size_t) llround (a->onset_s * FS);
  size_t split = t0 + (size_t) llround (0.08 * FS);
  for (int k = 0; k <= RW_N_OCTAVES; k++)
    {
      for (size_t i = 0; i < n; i++)
        x[i] = l[i];
      if (k < RW_N_OCTAVES)
        {
          RwError err = { 0 };
          RW_CHECK (rw_octave_filter (rw_octave_exact_centre_hz (k), FS, RW_FILTER_TIME_REVERSED,
                                      x, x, n, &err), "filter: %s", err.message);
        }
      const RwIaccBand *b = band_of (a, k);
      double v[3] = { b->early, b->late, b->full };
      double t[3] = { b->tau_early_s, b->tau_late_s, b->tau_full_s };
      double want[3] = { delayed_closed_form (x, t0, split, d),
                         delayed_closed_form (x, split, n, d),
                         delayed_closed_form (x, t0, n, d) };
      static const char *const win[3] = { "early", "late", "full" };
      for (int w = 0; w < 3; w++)
        {
          if (k >= 2)
            {
              RW_CHECK (fabs (v[w] - want[w]) <= 1e-6, "delayed: %s %s IACC %.6f, closed form %.6f",
                        band_name (k), win[w], v[w], want[w]);
              RW_CHECK (fabs (t[w] - d / FS) <= 0.1 / FS, "delayed: %s %s τ %.4f ms, want +%.4f",
                        band_name (k), win[w], t[w] * 1e3, d / FS * 1e3);
            }
          else
            {
              RW_CHECK (v[w] >= want[w] - 1e-6 && v[w] <= 1.0, "delayed: %s %s IACC %.6f, "
                        "closed form at d %.6f", band_name (k), win[w], v[w], want[w]);
              RW_CHECK (fabs (t[w] - d / FS) <= 1e-4, "delayed: %s %s τ %.4f ms, want +%.4f ± 0.1",
                        band_name (k), win[w], t[w] * 1e3, d / FS * 1e3);
            }
          RW_CHECK (want[w] > 0.95, "closed form %.4f", want[w]);
        }
      RW_NOTE ("right 0.5 ms later: %-9s early %.5f (closed form %.5f, τ %+.3f ms) "
               "late %.5f (%.5f, τ %+.3f ms) full %.5f (%.5f)", band_name (k), v[0], want[0],
               t[0] * 1e3, v[1], want[1], t[1] * 1e3, v[2], want[2]);
    }
  free (x);
}

static void
test_closed_forms (void)
{
  const size_t n = (size_t) (1.0 * FS);
  float *l = decaying_noise (n, 0.5, FS);
  float *r = malloc (n * sizeof *r);
  RwIacc a;
  RwError err = { 0 };

  RW_CHECK (rw_iacc (l, n, l, n, FS, &a, &err), "identical: %s", err.message);
  RW_CHECK_CLOSE (a.onset_s, PRE_S, 1e-4, "onset");
  check_all (&a, "identical", 1.0, 1e-9, 0.0, 0.0, 0.0);
  RW_CHECK_CLOSE (a.e3, 1.0, 1e-9, "identical E3");
  RW_CHECK_CLOSE (a.l3, 1.0, 1e-9, "identical L3");

  const size_t d = 24;   /* 0.5 ms */
  for (size_t i = 0; i < n; i++)
    r[i] = i >= d ? l[i - d] : 0.0f;
  RW_CHECK (rw_iacc (l, n, r, n, FS, &a, &err), "delayed: %s", err.message);
  RW_CHECK_CLOSE (a.onset_s, PRE_S, 1e-4, "onset: the earlier (left) ear's");
  check_delayed (&a, l, n, d);
  /* the mirror image: the left ear later gives τ = −d */
  RW_CHECK (rw_iacc (r, n, l, n, FS, &a, &err), "delayed: %s", err.message);
  RW_CHECK_CLOSE (a.broadband.tau_full_s, -0.0005, 0.1 / FS, "left 0.5 ms later: τ");
  RW_CHECK_CLOSE (a.onset_s, PRE_S, 1e-4, "onset: the earlier (right) ear's");

  /* the lag range, ±1 ms: white noise delayed by 0.9 ms (43 samples) is
   * found there; by 1.2 ms (58 samples) it lies outside, and IACF within
   * ±1 ms is the noise's autocorrelation 0.2 ms or more off its peak: ~0 */
  for (size_t i = 0; i < n; i++)
    r[i] = i >= 43 ? l[i - 43] : 0.0f;
  RW_CHECK (rw_iacc (l, n, r, n, FS, &a, &err), "0.9 ms: %s", err.message);
  RW_CHECK (fabs (a.broadband.tau_full_s - 43 / FS) < 0.1 / FS && a.broadband.full > 0.99,
            "0.9 ms: τ %.4f ms, IACC %.4f", a.broadband.tau_full_s * 1e3, a.broadband.full);
  for (size_t i = 0; i < n; i++)
    r[i] = i >= 58 ? l[i - 58] : 0.0f;
  RW_CHECK (rw_iacc (l, n, r, n, FS, &a, &err), "1.2 ms: %s", err.message);
  RW_NOTE ("white noise, right 1.2 ms later: broadband IACC %.4f at τ %+.3f ms", a.broadband.full,
           a.broadband.tau_full_s * 1e3);
  RW_CHECK (a.broadband.full < 0.15 && fabs (a.broadband.tau_full_s) <= 0.001 + 1e-12,
            "1.2 ms: IACC %.4f at τ %.4f ms", a.broadband.full, a.broadband.tau_full_s * 1e3);

  for (size_t i = 0; i < n; i++)
    r[i] = -l[i];
  RW_CHECK (rw_iacc (l, n, r, n, FS, &a, &err), "inverted: %s", err.message);
  check_all (&a, "right = −left", 1.0, 1e-9, 0.0, 0.0, 0.0);

  /* the E3/L3 means */
  RwIacc b;
  for (size_t i = 0; i < n; i++)
    r[i] = (float) (0.7 * l[i] + 0.7 * rw_test_gauss (&rng) * fabs (l[i]));
  RW_CHECK (rw_iacc (l, n, r, n, FS, &b, &err), "partly correlated: %s", err.message);
  RW_CHECK_CLOSE (b.e3, (b.bands[3].early + b.bands[4].early + b.bands[5].early) / 3, 1e-12, "E3");
  RW_CHECK_CLOSE (b.l3, (b.bands[3].late + b.bands[4].late + b.bands[5].late) / 3, 1e-12, "L3");
  RW_CHECK (b.e3 > 0.3 && b.e3 < 0.95, "partly correlated E3 %.3f", b.e3);
  free (l);
  free (r);
}

static void
test_independent (void)
{
  size_t n = (size_t) (1.0 * FS);
  float *l = decaying_noise (n, 1.0, FS);
  float *r = decaying_noise (n, 1.0, FS);
  RwIacc a;
  RwError err = { 0 };
  RW_CHECK (rw_iacc (l, n, r, n, FS, &a, &err), "independent: %s", err.message);
  RW_NOTE ("independent, 1 s: broadband early %.4f late %.4f full %.4f", a.broadband.early,
           a.broadband.late, a.broadband.full);
  RW_CHECK (a.broadband.early < 0.15 && a.broadband.late < 0.15 && a.broadband.full < 0.15,
            "independent noises: broadband IACC %.3f / %.3f / %.3f", a.broadband.early,
            a.broadband.late, a.broadband.full);
  free (l);
  free (r);

  const double t60 = 4.0, len = 4.0;
  n = (size_t) ((PRE_S + len) * FS);
  l = decaying_noise (n, t60, FS);
  r = decaying_noise (n, t60, FS);
  RW_CHECK (rw_iacc (l, n, r, n, FS, &a, &err), "independent: %s", err.message);
  /* T_eff of e^{−kt} over [0, len]: ((1 − q)/k)² / ((1 − q²)/2k), q = e^{−k len} */
  double k = K60 / t60, q = exp (-k * len);
  double t_eff = ((1 - q) / k) * ((1 - q) / k) / ((1 - q * q) / (2 * k));
  for (int b = 0; b < RW_N_OCTAVES; b++)
    {
      double bw = rw_octave_centres_hz[b] / sqrt (2.0);
      double sigma = 1.0 / sqrt (2.0 * bw * t_eff);
      RW_NOTE ("independent, 4 s: %-8s full IACC %.4f, bound 4.5 σ = %.3f", band_name (b),
               a.bands[b].full, 4.5 * sigma);
      RW_CHECK (a.bands[b].full < 4.5 * sigma, "independent noises: %s IACC %.3f ≥ 4.5 σ = %.3f",
                band_name (b), a.bands[b].full, 4.5 * sigma);
    }
  free (l);
  free (r);
}

/* A diffuse sound field at two points 2a apart: per frequency the two
 * pressures are complex Gaussian with unit power and the cross-spectrum
 * Γ(f) = sin(k·2a)/(k·2a), k = 2πf/c (Cook et al. 1955), drawn as
 * P_L = g1, P_R = Γ g1 + √(1 − Γ²) g2 on every FFT bin. The expected
 * IACF of a band with power response W(f) = |H(f)|² is then
 *   IACF(τ) = Σ_f W Γ cos(2πfτ) / Σ_f W,
 * and the expected IACC its largest magnitude over |τ| ≤ 1 ms (whole
 * samples, as the engine). Measured in the full window (2.7 s): the
 * estimate of a correlation coefficient ρ over a duration T and a
 * bandwidth B (W's equivalent noise bandwidth (Σ W)² / Σ W² · Δf)
 * scatters by σ ≈ (1 − ρ²)/√(2 B T) (Fisher), and its maximum over the
 * lags lies above the expected one by a few σ where ρ is near 0: the bound
 * is 4.5 σ (0.006 at 63 Hz, 0.08 at 500 Hz, 0.03 at 8 kHz, 0.016
 * broadband). Expected 0.992, 0.967, 0.872, 0.559, 0.123, 0.078, 0.035,
 * 0.018 (63 Hz … 8 kHz), 0.021 broadband (the delays of a white diffuse
 * field spread evenly over ±2a/c = ±0.51 ms: 1/49 samples). */
static void
test_diffuse_field (void)
{
  const int n = 1 << 17;
  const double two_a = 0.175, c = 343.0;
  fftw_complex *pl = fftw_malloc ((size_t) (n / 2 + 1) * sizeof *pl);
  fftw_complex *pr = fftw_malloc ((size_t) (n / 2 + 1) * sizeof *pr);
  double *gamma = malloc ((size_t) (n / 2 + 1) * sizeof *gamma);
  double *w = malloc ((size_t) (n / 2 + 1) * sizeof *w);
  double *xl = fftw_malloc ((size_t) n * sizeof *xl), *xr = fftw_malloc ((size_t) n * sizeof *xr);
  for (int k = 0; k <= n / 2; k++)
    {
      double x = 2.0 * M_PI * k * FS / n * two_a / c;
      gamma[k] = k == 0 ? 1.0 : sin (x) / x;
      double g1r = rw_test_gauss (&rng), g1i = rw_test_gauss (&rng);
      double g2r = rw_test_gauss (&rng), g2i = rw_test_gauss (&rng);
      double q = sqrt (1.0 - gamma[k] * gamma[k]);
      bool edge = k == 0 || k == n / 2;   /* no DC, no Nyquist: real bins */
      double *ql = (double *) &pl[k], *qr = (double *) &pr[k];   /* re, im */
      ql[0] = edge ? 0.0 : g1r;
      ql[1] = edge ? 0.0 : g1i;
      qr[0] = edge ? 0.0 : gamma[k] * g1r + q * g2r;
      qr[1] = edge ? 0.0 : gamma[k] * g1i + q * g2i;
    }
  fftw_plan pl_plan = fftw_plan_dft_c2r_1d (n, pl, xl, FFTW_ESTIMATE);
  fftw_plan pr_plan = fftw_plan_dft_c2r_1d (n, pr, xr, FFTW_ESTIMATE);
  fftw_execute (pl_plan);
  fftw_execute (pr_plan);
  fftw_destroy_plan (pl_plan);
  fftw_destroy_plan (pr_plan);
  float *l = malloc ((size_t) n * sizeof *l), *r = malloc ((size_t) n * sizeof *r);
  for (int i = 0; i < n; i++)
    {
      l[i] = (float) (xl[i] / sqrt (n));
      r[i] = (float) (xr[i] / sqrt (n));
    }
  RwIacc a;
  RwError err = { 0 };
  RW_CHECK (rw_iacc (l, (size_t) n, r, (size_t) n, FS, &a, &err), "diffuse: %s", err.message);
  const double t = (double) n / FS - a.onset_s;
  for (int b = 0; b <= RW_N_OCTAVES; b++)
    {
      RwOctaveFilter f;
      if (b < RW_N_OCTAVES)
        RW_CHECK (rw_octave_filter_design (rw_octave_exact_centre_hz (b), FS, &f, &err), "filter");
      double sw = 0.0, sw2 = 0.0, want = 0.0;
      for (int k = 1; k < n / 2; k++)
        {
          w[k] = b < RW_N_OCTAVES ? pow (10.0, 0.1 * rw_octave_filter_gain_db (&f, k * FS / n)) : 1.0;
          sw += w[k];
          sw2 += w[k] * w[k];
        }
      for (int lag = -48; lag <= 48; lag++)
        {
          double s = 0.0;
          for (int k = 1; k < n / 2; k++)
            if (w[k] > 1e-9 * sw / n)
              s += w[k] * gamma[k] * cos (2.0 * M_PI * k * lag / n);
          want = fmax (want, fabs (s / sw));
        }
      double bw = sw * sw / sw2 * FS / n;
      double sigma = (1.0 - want * want) / sqrt (2.0 * bw * t);
      const RwIaccBand *ib = band_of (&a, b);
      RW_NOTE ("diffuse field, 2a = %.3f m: %-9s full IACC %.4f, expected %.4f (4.5 σ = %.3f)",
               two_a, band_name (b), ib->full, want, 4.5 * sigma);
      RW_CHECK (fabs (ib->full - want) <= 4.5 * sigma, "diffuse field: %s IACC %.4f, expected %.4f ± %.3f",
                band_name (b), ib->full, want, 4.5 * sigma);
    }
  fftw_free (pl);
  fftw_free (pr);
  fftw_free (xl);
  fftw_free (xr);
  free (gamma);
  free (w);
  free (l);
  free (r);
}

static void
test_short_and_rates (void)
{
  RwIacc a;
  RwError err = { 0 };
  size_t n = (size_t) ((PRE_S + 0.05) * FS);
  float *l = decaying_noise (n, 0.3, FS);
  float *r = decaying_noise (n, 0.3, FS);
  RW_CHECK (rw_iacc (l, n, r, n, FS, &a, &err), "short: %s", err.message);
  RW_CHECK (isnan (a.broadband.late) && isnan (a.l3) && isnan (a.bands[4].late),
            "short IR: late %g, L3 %g", a.broadband.late, a.l3);
  RW_CHECK_CLOSE (a.broadband.full, a.broadband.early, 1e-12, "short IR: full = early");
  RW_CHECK (isfinite (a.e3), "short IR: E3 %g", a.e3);
  free (l);
  free (r);

  n = (size_t) (0.5 * 16000.0);
  l = decaying_noise (n, 0.3, 16000.0);
  RW_CHECK (rw_iacc (l, n, l, n, 16000.0, &a, &err), "16 kHz: %s", err.message);
  RW_CHECK (!a.bands[7].analysed && isnan (a.bands[7].early), "16 kHz: 8 kHz band analysed");
  RW_CHECK (a.bands[6].analysed && fabs (a.bands[6].full - 1.0) < 1e-9, "16 kHz: 4 kHz band %g",
            a.bands[6].full);
  free (l);
}

static void
expect_fail (const float *l, size_t nl, const float *r, size_t nr, double rate,
             const char *needle, const char *what)
{
  RwIacc a;
  memset (&a, 0x55, sizeof a);
  RwError err = { 0 };
  bool ok = rw_iacc (l, nl, r, nr, rate, &a, &err);
  RW_CHECK (!ok, "%s accepted", what);
  RW_CHECK (!ok && strstr (err.message, needle) != NULL, "%s: message '%s' lacks '%s'", what,
            err.message, needle);
  RW_CHECK (a.rate_hz == 0.0 && a.broadband.early == 0.0, "%s: out not zeroed", what);
  RW_NOTE ("%s: %s", what, err.message);
}

static void
test_bad_input (void)
{
  const size_t n = 4800;
  float *l = decaying_noise (n, 0.3, FS);
  float *r = decaying_noise (n, 0.3, FS);
  float *z = calloc (n, sizeof *z);
  expect_fail (l, 0, r, 0, FS, "empty", "empty");
  expect_fail (l, n, r, n - 1, FS, "differ in length", "different lengths");
  expect_fail (l, n, z, n, FS, "right ear", "silent right ear");
  expect_fail (z, n, r, n, FS, "left ear", "silent left ear");
  expect_fail (l, n, r, n, 4000.0, "too low", "4 kHz rate");
  expect_fail (l, n, r, n, NAN, "too low", "NaN rate");
  r[100] = NAN;
  expect_fail (l, n, r, n, FS, "non-finite sample at 100", "NaN in the right ear");
  l[7] = INFINITY;
  expect_fail (l, n, r, n, FS, "non-finite sample at 7", "∞ in the left ear");
  free (l);
  free (r);
  free (z);
}

int
main (void)
{
  test_closed_forms ();
  test_independent ();
  test_diffuse_field ();
  test_short_and_rates ();
  test_bad_input ();
  return rw_test_finish ();
}
