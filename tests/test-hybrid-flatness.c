/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hybrid-flatness: the crossover's two filters, measured on what
 * rw_hybrid_join does to a unit impulse (wave = δ, geometrical = 0 gives
 * h_L; wave = 0, geometrical = δ gives h_H), for fmax 250, 1000 and
 * 4000 Hz at the default crossover and for a crossover near the top of
 * its range (700 Hz with fmax 1 kHz):
 *  - h_L + h_H = δ to 1e-12 (the pair is flat: the direct sound, common
 *    to both parts, is taken once);
 *  - h_L is symmetric about the impulse and peaks there (zero phase, no
 *    net delay) to 1e-15;
 *  - its response, evaluated here by a direct cosine sum (no FFT), is
 *    within ±0.1 dB of 0 dB from DC to fc/√2, and within the design's
 *    ±0.0087 dB (60 dB ripple; measured ≤ 0.0081 dB), −6.02 dB ± 0.05 dB
 *    at fc, and rejects by ≥ 40 dB from an octave above fc (measured
 *    ≥ 74 dB) and by the design's ≥ 60 dB from the transition's upper end,
 *    1.293 fc (measured ≥ 63.8 dB); h_H mirrors it (≥ 60 dB below fc/√2,
 *    measured ≥ 60.6 dB; within 0.0087 dB above 1.293 fc);
 *  - the per-band method labels for crossovers 500, 707 and 125 Hz, and
 *    the default crossover is fmax / 2. */
#include "rw-test.h"
#include "rw-hybrid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FS 48000.0
#define N 16384

/* Zero-phase response of symmetric h centred at c: Σ h[c+k] cos(ωk). */
static double
response (const double *h, size_t c, size_t half, double f)
{
  double s = h[c];
  for (size_t k = 1; k <= half; k++)
    s += 2.0 * h[c + k] * cos (2.0 * M_PI * f * (double) k / FS);
  return s;
}

static void
check_pair (double fmax_hz, double fc)
{
  RwError err = { 0 };
  static double delta[N], zero[N], hl[N], hh[N];
  const size_t c = N / 2;
  memset (delta, 0, sizeof delta);
  memset (zero, 0, sizeof zero);
  delta[c] = 1.0;
  RwHybridPart d = { delta, N, FS }, z = { zero, N, FS };
  bool ok = rw_hybrid_join (&d, &z, fmax_hz, fc, hl, NULL, NULL, &err);
  RW_CHECK (ok, "join δ, 0 at fc %g: %s", fc, err.message);
  ok = ok && rw_hybrid_join (&z, &d, fmax_hz, fc, hh, NULL, NULL, &err);
  RW_CHECK (ok, "join 0, δ at fc %g: %s", fc, err.message);
  if (!ok)
    return;
  RwHybridFilter f;
  RW_CHECK (rw_hybrid_filter_design (fc, fmax_hz, FS, &f, &err), "design: %s", err.message);
  const size_t half = f.half_length;
  RW_CHECK (2 * half + 1 < N / 2, "filter fits the test signal");

  double sum_err = 0, sym_err = 0, tail = 0;
  size_t peak = 0;
  for (size_t i = 0; i < N; i++)
    {
      sum_err = fmax (sum_err, fabs (hl[i] + hh[i] - delta[i]));
      if (fabs (hl[i]) > fabs (hl[peak]))
        peak = i;
      if (i + half < c || i > c + half)
        tail = fmax (tail, fabs (hl[i]));
    }
  for (size_t k = 1; k < c; k++)
    sym_err = fmax (sym_err, fabs (hl[c + k] - hl[c - k]));
  RW_NOTE ("fmax %g Hz, fc %g Hz: %zu taps, transition %.1f … %.1f Hz; |h_L + h_H − δ| ≤ %.3g, "
           "asymmetry %.3g", fmax_hz, fc, 2 * half + 1, f.transition_low_hz, f.transition_high_hz,
           sum_err, sym_err);
  RW_CHECK (sum_err <= 1e-12, "fc %g: h_L + h_H − δ = %.3g", fc, sum_err);
  RW_CHECK (sym_err <= 1e-15, "fc %g: h_L asymmetric by %.3g", fc, sym_err);
  RW_CHECK (peak == c, "fc %g: h_L peaks at %zu, not at the impulse %zu", fc, peak, c);
  RW_CHECK (tail <= 1e-15, "fc %g: h_L is %.3g outside its %zu taps", fc, tail, 2 * half + 1);

  /* Responses on a grid of fc/100. */
  double pass_db = 0, stop_oct_db = 0, stop_tr_db = 0, hp_stop_db = 0, hp_pass_db = 0;
  bool first_oct = true, first_tr = true, first_hp = true;
  for (double fr = 0; fr <= FS / 2; fr += fc / 100.0)
    {
      const double L = response (hl, c, half, fr), H = response (hh, c, half, fr);
      const double ldb = 20.0 * log10 (fabs (L)), hdb = 20.0 * log10 (fabs (H));
      if (fr <= fc / M_SQRT2)
        {
          pass_db = fmax (pass_db, fabs (ldb));
          if (first_hp || hdb > hp_stop_db)
            hp_stop_db = hdb;
          first_hp = false;
        }
      if (fr >= f.transition_high_hz)
        {
          if (first_tr || ldb > stop_tr_db)
            stop_tr_db = ldb;
          first_tr = false;
          hp_pass_db = fmax (hp_pass_db, fabs (hdb));
        }
      if (fr >= 2 * fc)
        {
          if (first_oct || ldb > stop_oct_db)
            stop_oct_db = ldb;
          first_oct = false;
        }
    }
  const double at_fc = 20.0 * log10 (fabs (response (hl, c, half, fc)));
  RW_NOTE ("  h_L: passband (≤ fc/√2) within ±%.4f dB, %.3f dB at fc, ≤ %.1f dB from 1.293 fc, "
           "≤ %.1f dB from 2 fc", pass_db, at_fc, stop_tr_db, stop_oct_db);
  RW_NOTE ("  h_H: ≤ %.1f dB below fc/√2, within ±%.4f dB from 1.293 fc", hp_stop_db, hp_pass_db);
  RW_CHECK (pass_db <= 0.1, "fc %g: passband deviation %.4f dB > 0.1", fc, pass_db);
  /* The design's ripple 10^(−60/20) is 0.0087 dB in the passband. */
  RW_CHECK (pass_db <= 0.0087, "fc %g: passband deviation %.4f dB > design 0.0087", fc, pass_db);
  RW_CHECK_CLOSE (at_fc, -6.0206, 0.05, "h_L at the crossover, dB");
  RW_CHECK (stop_oct_db <= -40.0, "fc %g: only %.1f dB rejection an octave above", fc,
            -stop_oct_db);
  RW_CHECK (stop_tr_db <= -60.0, "fc %g: only %.1f dB rejection from 1.293 fc", fc, -stop_tr_db);
  RW_CHECK (hp_stop_db <= -60.0, "fc %g: h_H only %.1f dB down below fc/√2", fc, -hp_stop_db);
  RW_CHECK (hp_pass_db <= 0.0087, "fc %g: h_H passband deviation %.4f dB", fc, hp_pass_db);
  rw_hybrid_filter_clear (&f);
}

static void
check_methods (double fc, const RwHybridMethod *expect)
{
  RwHybridMethod m[RW_N_OCTAVES];
  rw_hybrid_band_methods (fc, m);
  for (int b = 0; b < RW_N_OCTAVES; b++)
    RW_CHECK (m[b] == expect[b], "fc %g Hz, band %g Hz: %s, expected %s", fc,
              rw_octave_centres_hz[b], rw_hybrid_method_name (m[b]),
              rw_hybrid_method_name (expect[b]));
}

int
main (void)
{
  const double fmaxes[] = { 250, 1000, 4000 };
  for (size_t i = 0; i < 3; i++)
    check_pair (fmaxes[i], rw_hybrid_default_crossover (fmaxes[i]));
  check_pair (1000, 700);

  RW_CHECK_CLOSE (rw_hybrid_default_crossover (1000), 500, 1e-12, "default crossover");
  const RwHybridMethod W = RW_HYBRID_WAVE, G = RW_HYBRID_GEOMETRICAL, B = RW_HYBRID_BOTH;
  /* 500 Hz: transition 353.6 … 646.4 Hz lies in the 500 Hz band (the
   * 250 Hz band's edge, 354.8 Hz, is inside the 1/24-octave allowance). */
  check_methods (500, (RwHybridMethod[]) { W, W, W, B, G, G, G, G });
  /* 707 Hz, at the 500/1000 edge: transition 500 … 914 Hz spans both. */
  check_methods (707, (RwHybridMethod[]) { W, W, W, B, B, G, G, G });
  check_methods (125, (RwHybridMethod[]) { W, B, G, G, G, G, G, G });
  RW_CHECK (strcmp (rw_hybrid_method_name (B), "both") == 0, "name of BOTH");
  return rw_test_finish ();
}
