/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hybrid-seam: the seam metrics (rw_hybrid_seam) on synthetic decays at
 * a 500 Hz crossover, 48 kHz:
 *  - a: 1.5 s of Gaussian noise decaying with T60 = 1.0 s; b: its Hilbert
 *    transform (every frequency shifted by 90°: a different fine structure,
 *    uncorrelated with a at lag 0, with the same magnitude spectrum and,
 *    in a band, the same envelope). Window differences < 0.5 dB, T30
 *    within 2 % of each other, and each within 6 % of the 1.0 s the
 *    envelope was made with (one realisation scatters: measured 0.961 s);
 *  - a 3 dB step: b = √2 a reads −3.01 dB in every window (±0.01 dB);
 *    b = √2 a from 150 ms on reads 0 dB in the first two windows and
 *    −3.01 dB in the last three (±0.02 dB), and the window before the step
 *    within 0.3 dB of 0 (the time-reversed band filter carries a few ms
 *    of the louder part back over the edge: measured −0.21 dB);
 *  - two independent noises of the same envelope: what the metric gives
 *    for uncorrelated fine structure. The window differences are then
 *    random, with a spread set by the octave's bandwidth B and the window
 *    T (χ² with ≈ 2BT degrees of freedom per window): the RMS difference
 *    over 12 seeds × 6 windows must lie within 35 % of
 *    10 lg e · √(2 / (B T)) with B the filter's noise bandwidth (computed
 *    here from its response); measured and predicted are printed. The
 *    mean T30 of these 24 realisations is within 2 % of 1.0 s.
 * Fixed-seed PRNG; the Hilbert transform by FFT (FFTW). */
#include "rw-test.h"
#include "rw-hybrid.h"

#include <complex.h>
#include <fftw3.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FS 48000.0
#define N 72000
#define FC 500.0

static void
decaying_noise (double *x, uint64_t seed)
{
  uint64_t s = seed;
  for (size_t i = 0; i < N; i++)
    x[i] = rw_test_gauss (&s) * exp (-6.907755 * (double) i / FS / 1.0);
}

/* Hilbert transform of x (N samples, zero-padded to 2N): −j sgn(f). */
static void
hilbert (const double *x, double *y)
{
  const size_t L = 2 * N;
  double *buf = fftw_malloc (L * sizeof *buf);
  fftw_complex *X = fftw_malloc ((L / 2 + 1) * sizeof *X);
  fftw_plan fwd = fftw_plan_dft_r2c_1d ((int) L, buf, X, FFTW_ESTIMATE);
  fftw_plan inv = fftw_plan_dft_c2r_1d ((int) L, X, buf, FFTW_ESTIMATE);
  memcpy (buf, x, N * sizeof *buf);
  memset (buf + N, 0, N * sizeof *buf);
  fftw_execute (fwd);
  X[0] = 0;
  X[L / 2] = 0;
  for (size_t k = 1; k < L / 2; k++)
    X[k] *= -I / (double) L;
  fftw_execute (inv);
  memcpy (y, buf, N * sizeof *y);
  fftw_destroy_plan (fwd);
  fftw_destroy_plan (inv);
  fftw_free (buf);
  fftw_free (X);
}

int
main (void)
{
  RwError err = { 0 };
  double *a = malloc (N * sizeof *a), *b = malloc (N * sizeof *b);
  RwHybridSeam s;
  decaying_noise (a, 0x243f6a8885a308d3u);

  /* Same envelope, different fine structure. */
  hilbert (a, b);
  double corr = 0, ea = 0, eb = 0;
  for (size_t i = 0; i < N; i++)
    {
      corr += a[i] * b[i];
      ea += a[i] * a[i];
      eb += b[i] * b[i];
    }
  RW_NOTE ("Hilbert pair: correlation at lag 0 %.4f", corr / sqrt (ea * eb));
  RW_CHECK (fabs (corr) < 0.05 * sqrt (ea * eb), "the pair's fine structures differ");
  bool ok = rw_hybrid_seam (a, b, N, FS, FC, &s, &err);
  RW_CHECK (ok, "seam: %s", err.message);
  if (ok)
    {
      RW_NOTE ("band %.1f … %.1f Hz, %zu windows", s.lower_hz, s.upper_hz, s.n_windows);
      for (size_t w = 0; w < s.n_windows; w++)
        RW_NOTE ("  window %zu: %.2f dB vs %.2f dB, difference %+.3f dB", w, s.level_a_db[w],
                 s.level_b_db[w], s.diff_db[w]);
      RW_NOTE ("  T30 %.4f s vs %.4f s (%+.2f %%), max |difference| %.3f dB", s.t30_a.value_s,
               s.t30_b.value_s, 100 * s.t30_rel_diff, s.max_abs_diff_db);
      RW_CHECK (s.n_windows == 6, "6 windows over 300 ms (got %zu)", s.n_windows);
      RW_CHECK (s.max_abs_diff_db < 0.5, "window difference %.3f dB ≥ 0.5", s.max_abs_diff_db);
      RW_CHECK (fabs (s.t30_rel_diff) < 0.02, "T30 differ by %.2f %%", 100 * s.t30_rel_diff);
      /* One noise realisation's T30 scatters by a few per cent around
       * its envelope's (the mean over 24 is checked below). */
      RW_CHECK_CLOSE (s.t30_a.value_s, 1.0, 0.06, "T30 of a against its envelope");
      RW_CHECK_CLOSE (s.t30_b.value_s, 1.0, 0.06, "T30 of b against its envelope");
    }

  /* A 3 dB step, everywhere and from 150 ms on. */
  for (size_t i = 0; i < N; i++)
    b[i] = M_SQRT2 * a[i];
  ok = rw_hybrid_seam (a, b, N, FS, FC, &s, &err);
  RW_CHECK (ok, "seam, 3 dB: %s", err.message);
  for (size_t w = 0; ok && w < s.n_windows; w++)
    RW_CHECK_CLOSE (s.diff_db[w], -10 * log10 (2.0), 0.01, "3 dB everywhere");
  RW_CHECK (ok && fabs (s.t30_rel_diff) < 1e-3, "T30 unchanged by a gain");
  for (size_t i = 0; i < N; i++)
    b[i] = i < (size_t) (0.15 * FS) ? a[i] : M_SQRT2 * a[i];
  ok = rw_hybrid_seam (a, b, N, FS, FC, &s, &err);
  RW_CHECK (ok, "seam, step: %s", err.message);
  for (size_t w = 0; ok && w < s.n_windows; w++)
    {
      RW_NOTE ("step at 150 ms, window %zu: %+.3f dB", w, s.diff_db[w]);
      /* The time-reversed band filter carries ≈ 3 ms of the louder part
       * back over the edge into window 2 (measured −0.21 dB). */
      RW_CHECK_CLOSE (s.diff_db[w], w < 3 ? 0.0 : -10 * log10 (2.0), w == 2 ? 0.3 : 0.02,
                      "3 dB step");
    }
  RW_CHECK (ok && fabs (s.max_abs_diff_db - 10 * log10 (2.0)) < 0.2, "max difference %.3f",
            s.max_abs_diff_db);

  /* Independent fine structure: the statistical spread. The band's
   * noise bandwidth ∫|H|⁴… for energy: B = (∫|H|² df)² / ∫|H|⁴ df, the
   * bandwidth whose χ² degrees of freedom 2BT match the window energy's
   * variance (Bendat & Piersol, Random Data, §8.5). */
  RwOctaveFilter filt;
  RW_CHECK (rw_octave_filter_design (FC, FS, &filt, &err), "octave filter: %s", err.message);
  double i2 = 0, i4 = 0;
  for (double f = 1; f < 5000; f += 0.5)
    {
      /* Applied forward and backward: |H|² per pass, |H|⁴ in power. */
      const double p = pow (10.0, rw_octave_filter_gain_db (&filt, f) / 10.0);
      i2 += p * p * 0.5;
      i4 += p * p * p * p * 0.5;
    }
  const double B = i2 * i2 / i4;
  const double predicted = 10.0 * log10 (M_E) * sqrt (2.0 / (B * RW_HYBRID_SEAM_WINDOW_S));
  double sq = 0, worst = 0, t30_sum = 0, t30_sq = 0, t30_pair_worst = 0;
  int count = 0, n_t30 = 0;
  for (uint64_t seed = 1; seed <= 12; seed++)
    {
      decaying_noise (a, 1000 + 2 * seed);
      decaying_noise (b, 1001 + 2 * seed);
      ok = rw_hybrid_seam (a, b, N, FS, FC, &s, &err);
      RW_CHECK (ok, "seam, independent: %s", err.message);
      for (size_t w = 0; ok && w < s.n_windows; w++, count++)
        sq += s.diff_db[w] * s.diff_db[w];
      worst = fmax (worst, ok ? s.max_abs_diff_db : 0);
      if (ok && isfinite (s.t30_rel_diff))
        {
          t30_sum += s.t30_a.value_s + s.t30_b.value_s;
          t30_sq += s.t30_a.value_s * s.t30_a.value_s + s.t30_b.value_s * s.t30_b.value_s;
          n_t30 += 2;
          t30_pair_worst = fmax (t30_pair_worst, fabs (s.t30_rel_diff));
        }
    }
  const double rms = sqrt (sq / count);
  RW_NOTE ("independent noises: noise bandwidth %.0f Hz, RMS window difference %.2f dB "
           "(predicted %.2f dB), worst %.2f dB over %d windows", B, rms, predicted, worst, count);
  RW_CHECK (fabs (rms / predicted - 1.0) < 0.35, "RMS %.2f dB vs predicted %.2f dB", rms,
            predicted);
  const double t30_mean = t30_sum / n_t30;
  const double t30_sd = sqrt (fmax (0.0, t30_sq / n_t30 - t30_mean * t30_mean));
  RW_NOTE ("T30 of %d realisations: mean %.4f s, s.d. %.2f %%; worst pair difference %.1f %%",
           n_t30, t30_mean, 100 * t30_sd / t30_mean, 100 * t30_pair_worst);
  RW_CHECK (n_t30 == 24, "every realisation has a T30 (%d)", n_t30);
  RW_CHECK_CLOSE (t30_mean, 1.0, 0.02, "mean T30 against the envelope's 1.0 s");

  /* Averaged over K = 4 pairs (rw_hybrid_seam_average, as seam-check
   * does over receivers): each window's level is 10 lg of the mean of
   * the K single-IR energies (checked against rw_hybrid_seam on each),
   * and with independent fine structure the RMS difference falls by √K
   * (the window energy's χ² degrees of freedom grow K-fold). */
  enum { K = 4 };
  double *as[K], *bs[K];
  for (int k = 0; k < K; k++)
    {
      as[k] = malloc (N * sizeof (double));
      bs[k] = malloc (N * sizeof (double));
    }
  double sq_k = 0, worst_k = 0, t30k_sum = 0, id_err = 0;
  int count_k = 0, n_t30k = 0;
  for (uint64_t seed = 1; seed <= 12; seed++)
    {
      double lin_a[RW_HYBRID_SEAM_MAX_WINDOWS] = { 0 }, lin_b[RW_HYBRID_SEAM_MAX_WINDOWS] = { 0 };
      for (int k = 0; k < K; k++)
        {
          decaying_noise (as[k], 5000 + 16 * seed + 2 * (uint64_t) k);
          decaying_noise (bs[k], 5001 + 16 * seed + 2 * (uint64_t) k);
          ok = rw_hybrid_seam (as[k], bs[k], N, FS, FC, &s, &err);
          for (size_t w = 0; ok && w < s.n_windows; w++)
            {
              lin_a[w] += pow (10, s.level_a_db[w] / 10) / K;
              lin_b[w] += pow (10, s.level_b_db[w] / 10) / K;
            }
        }
      ok = rw_hybrid_seam_average ((const double *const *) as, (const double *const *) bs, K, N,
                                   FS, FC, &s, &err);
      RW_CHECK (ok, "seam, averaged: %s", err.message);
      RW_CHECK (!ok || s.n_averaged == K, "n_averaged %zu", s.n_averaged);
      for (size_t w = 0; ok && w < s.n_windows; w++, count_k++)
        {
          sq_k += s.diff_db[w] * s.diff_db[w];
          id_err = fmax (id_err, fabs (s.level_a_db[w] - 10 * log10 (lin_a[w])));
          id_err = fmax (id_err, fabs (s.level_b_db[w] - 10 * log10 (lin_b[w])));
        }
      worst_k = fmax (worst_k, ok ? s.max_abs_diff_db : 0);
      if (ok && isfinite (s.t30_rel_diff))
        {
          t30k_sum += s.t30_a.value_s + s.t30_b.value_s;
          n_t30k += 2;
        }
    }
  const double rms_k = sqrt (sq_k / count_k);
  RW_NOTE ("averaged over %d pairs: RMS window difference %.2f dB (predicted %.2f dB), worst "
           "%.2f dB over %d windows; levels against the mean of single energies within %.1e dB; "
           "mean T30 %.4f s", K, rms_k, predicted / sqrt (K), worst_k, count_k, id_err,
           t30k_sum / n_t30k);
  RW_CHECK (id_err < 1e-9, "averaged level off the mean of single energies by %.2e dB", id_err);
  RW_CHECK (fabs (rms_k / (predicted / sqrt (K)) - 1.0) < 0.35, "RMS %.2f dB vs predicted %.2f dB",
            rms_k, predicted / sqrt (K));
  RW_CHECK (n_t30k == 24, "every averaged decay has a T30 (%d)", n_t30k);
  RW_CHECK_CLOSE (t30k_sum / n_t30k, 1.0, 0.02, "mean T30 of the averaged decays");
  /* no IRs: refused */
  ok = rw_hybrid_seam_average ((const double *const *) as, (const double *const *) bs, 0, N, FS, FC,
                               &s, &err);
  RW_CHECK (!ok && err.code == RW_ERROR_INPUT, "0 IRs refused");
  for (int k = 0; k < K; k++)
    {
      free (as[k]);
      free (bs[k]);
    }
  free (a);
  free (b);
  return rw_test_finish ();
}
