/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-iacc.h — interaural cross-correlation of a binaural impulse response
 * (ISO 3382-1:2009 Annex A, A.4).
 *
 *   IACF_{t1,t2}(τ) = ∫_{t1}^{t2} p_L(t) p_R(t+τ) dt
 *                     / √(∫_{t1}^{t2} p_L² dt · ∫_{t1}^{t2} p_R² dt)
 *   IACC_{t1,t2}    = max |IACF_{t1,t2}(τ)|,  −1 ms ≤ τ ≤ +1 ms
 *
 * with t = 0 at the direct sound: the earlier of the two ears' ISO 3382-1
 * onsets (rw_onset_index). Three windows: early 0 … 80 ms, late 80 ms …
 * the end of the IR, full 0 … the end. Each ear is windowed before the
 * cross-correlation (as measuring practice reads the integral: p_R(t+τ)
 * too is taken inside [t1, t2]), so that |IACF| ≤ 1 by Cauchy–Schwarz and
 * identical ears give exactly 1 at τ = 0.
 *
 * The sign of τ: the τ of the peak is > 0 when the right ear hears the
 * same signal later (p_R(t) = p_L(t − d) gives the peak at τ = +d), i.e.
 * the source is on the left. Lags are whole samples (resolution 1/rate).
 *
 * Per octave band (63 Hz … 8 kHz where the upper edge lies below the
 * Nyquist frequency; ISO 3382-1 asks 125 Hz … 4 kHz) both ears go through
 * the same octave filter (rw-analysis.h) applied time-reversed, so the
 * filter's ringing lies before the onset and does not smear the 80 ms
 * split; one linear filter on both ears keeps their relation.
 *
 * IACC_E3 / IACC_L3: the mean of the early / late IACC of the 500 Hz,
 * 1 kHz and 2 kHz bands (Hidaka, Beranek & Okano 1995, JASA 98: 988–1007;
 * concert-hall practice, not ISO 3382-1). */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include "rw-error.h"
#include "rw-materials.h"   /* RW_N_OCTAVES, rw_octave_centres_hz */

#define RW_IACC_MAX_LAG_S 0.001
#define RW_IACC_EARLY_S 0.080

typedef struct {
  double centre_hz;     /* nominal (63 … 8000); 0 for broadband */
  bool analysed;        /* false: the band reaches the Nyquist frequency */
  double early, late, full;              /* IACC, 0 … 1; NAN when a window
                                            holds no energy in an ear */
  double tau_early_s, tau_late_s, tau_full_s;   /* the lag of each maximum */
} RwIaccBand;

typedef struct {
  double rate_hz;
  double onset_s;       /* t = 0: the earlier ear's onset, from the first sample */
  double duration_s;    /* of the input */
  RwIaccBand broadband;
  RwIaccBand bands[RW_N_OCTAVES];   /* index 0 = 63 Hz … 7 = 8 kHz */
  double e3, l3;        /* IACC_E3, IACC_L3; NAN when a band lacks the value */
} RwIacc;

/* IACC of the binaural IR left/right (n_left, n_right samples at
 * rate_hz). Fails (RW_ERROR_INPUT; out zeroed) on an empty input, ears of
 * different lengths, a non-finite sample, a silent ear, or a rate below
 * 8 kHz (±1 ms must span some samples and the 1 kHz band must exist). */
bool rw_iacc (const float *left, size_t n_left, const float *right, size_t n_right,
              double rate_hz, RwIacc *out, RwError *err);

/* The figures as the JSON that `roomwave-cli iacc --json` prints (schema
 * in docs/ANALYSIS.md; absent values are null). `file` may be NULL.
 * Returns a newly allocated string (free()), NULL when memory runs out. */
char *rw_iacc_to_json (const RwIacc *iacc, const char *file);
