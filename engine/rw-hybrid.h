/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-hybrid.h — the hybrid impulse response (issue #12): the wave
 * solver's IR below a crossover frequency, the geometrical-acoustics IR
 * above it, joined by complementary filters (docs/GEOMETRICAL.md,
 * "Hybrid IR").
 *
 * Both inputs are calibrated the same way (the direct sound at 1 m has
 * area 1, docs/PHYSICS.md §4), share the time origin (sample m at m / fs
 * after the emission) and the rate (48 kHz in use), so the levels meet
 * without a fitted gain:
 *
 *   hybrid = wave ⊛ h_L + ga ⊛ h_H,   h_H = δ − h_L,
 *
 * h_L a linear-phase low-pass applied zero-phase (its taps centred on
 * sample 0: no net delay, so both parts stay on the common time origin).
 * h_L + h_H = δ by construction: the two filters add to a flat response
 * (to rounding), whatever h_L is. Hence the direct sound, which both parts
 * contain, is taken once: for an arrival d common to both,
 * d ⊛ h_L + d ⊛ h_H = d. The same holds for every part of the response on
 * which the two methods agree; where they differ, each contributes its
 * own band.
 *
 * Low-pass: a Kaiser-windowed sinc (Kaiser 1974; the design formulas of
 * Oppenheim & Schafer, Discrete-Time Signal Processing, §7.5.3), cut-off
 * at the crossover fc (there |H_L| = |H_H| = ½, −6 dB each, in phase), a
 * transition band symmetric in linear frequency, [fc/√2, (2 − 1/√2) fc]
 * = [0.707 fc, 1.293 fc] (a passband edge half an octave below fc), and a
 * ripple of RW_HYBRID_RIPPLE_DB (60 dB: within ±0.0087 dB in the
 * passband, ≤ −60 dB in the stopband; since H_H = 1 − H_L, the high-pass
 * has the same figures mirrored). The tap count follows from the width,
 * N − 1 = (A − 8) / (2.285 Δω), with A = 64 dB since Kaiser's empirical
 * formulas fall 3.5 dB short of A at this width (≈ 6.7 fs / fc taps;
 * 641 at 500 Hz, 48 kHz). Measured (hybrid-flatness): passband within
 * 0.0081 dB, stopband ≤ −63.8 dB, the high-pass ≤ −60.6 dB below
 * fc/√2. Why not the FFT-domain raised cosine of rw-air.c: its impulse
 * response is not finite, so applying it circularly aliases its tails;
 * the FIR is applied as an exact linear convolution (FFT of the input
 * padded by the filter length), with no wrap-around.
 *
 * Crossover rule (rw_hybrid_check_crossover): 0 < fc and the transition
 * band's upper end (2 − 1/√2) fc ≤ fmax, i.e. fc ≤ 0.773 fmax: above the
 * transition the wave part's weight is below −60 dB, so nothing of it
 * beyond its valid band fmax enters the result. It must also lie below
 * the Nyquist frequency. Default (rw_hybrid_default_crossover): one
 * octave below fmax, fc = fmax / 2, whose transition ends at 0.65 fmax.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include "rw-analysis.h"    /* RwDecayFit */
#include "rw-error.h"
#include "rw-materials.h"   /* RW_N_OCTAVES */

/* Design stop-band attenuation and pass-band ripple (Kaiser: one figure
 * for both), dB. */
#define RW_HYBRID_RIPPLE_DB 60.0
/* The transition band is [fc (1 − w), fc (1 + w)] with w = 1 − 1/√2: its
 * lower end half an octave below the crossover. */
#define RW_HYBRID_TRANSITION_HALF_WIDTH (1.0 - 0.70710678118654752440)

/* One octave below fmax. */
double rw_hybrid_default_crossover (double fmax_hz);
/* The crossover's transition band [fc (1 − w), fc (1 + w)]: band[0],
 * band[1]. */
void rw_hybrid_transition (double crossover_hz, double band[2]);
/* The highest crossover the rule below allows: min (fmax, rate / 2) / (1 + w). */
double rw_hybrid_max_crossover (double fmax_hz, double rate_hz);

/* True when crossover_hz is usable with a wave part valid to fmax_hz at
 * rate_hz (the rule above); otherwise fails with RW_ERROR_INPUT and a
 * message giving the range. */
bool rw_hybrid_check_crossover (double crossover_hz, double fmax_hz, double rate_hz,
                                RwError *err);

/* The complementary pair's low-pass. taps[k + half_length] is h_L[k],
 * k = −half_length … half_length (symmetric, Σ taps = 1); h_H = δ − h_L. */
typedef struct {
  double crossover_hz;
  double rate_hz;
  double transition_low_hz;    /* fc (1 − w): below it |H_L − 1| and |H_H| ≤ ripple */
  double transition_high_hz;   /* fc (1 + w): above it |H_L| ≤ ripple */
  size_t half_length;
  double *taps;                /* 2 half_length + 1, owned */
} RwHybridFilter;

/* Designs the low-pass for crossover_hz at rate_hz (checked as
 * rw_hybrid_check_crossover with fmax_hz). Release with
 * rw_hybrid_filter_clear. */
bool rw_hybrid_filter_design (double crossover_hz, double fmax_hz, double rate_hz,
                              RwHybridFilter *filter, RwError *err);
void rw_hybrid_filter_clear (RwHybridFilter *filter);

/* One part: n samples at rate_hz from the emission, calibrated. */
typedef struct {
  const double *ir;
  size_t n;
  double rate_hz;
} RwHybridPart;

/* Joins wave (valid to fmax_hz) and ga at crossover_hz: writes the hybrid
 * IR into out (n samples, the parts' common length), and, when not NULL,
 * the filtered parts wave ⊛ h_L into low and ga ⊛ h_H into high (out is
 * their sum). Convolutions are linear: the filter's ringing before sample
 * 0 and after the end is dropped, as for the parts themselves. Fails
 * (RW_ERROR_INPUT) on parts of different lengths or rates, an empty part,
 * a non-finite sample, a bad rate or fmax, or a crossover outside the
 * rule; on memory (RW_ERROR_MEMORY). out is untouched on failure. */
bool rw_hybrid_join (const RwHybridPart *wave, const RwHybridPart *ga, double fmax_hz,
                     double crossover_hz, double *out, double *low, double *high,
                     RwError *err);

/* Which method produced an octave band of the hybrid IR. */
typedef enum {
  RW_HYBRID_WAVE,          /* wholly below the transition band */
  RW_HYBRID_GEOMETRICAL,   /* wholly above it */
  RW_HYBRID_BOTH,          /* the band containing the crossover, and any band
                              overlapping the transition by more than 1/24 octave */
} RwHybridMethod;

/* For the octave bands of rw-analysis.h (63 Hz … 8 kHz, exact base-10
 * edges centre · 10^(±0.15)). The 1/24-octave allowance keeps the 250 Hz
 * band (upper edge 354.8 Hz) "wave" at fc = 500 Hz (transition from
 * 353.6 Hz): the base-10 edges sit 0.005 octave above the base-2 half
 * octave, where the geometrical part's weight is still −60 dB. */
void rw_hybrid_band_methods (double crossover_hz, RwHybridMethod methods[RW_N_OCTAVES]);
/* "wave", "geometrical", "both": identifiers for results files. */
const char *rw_hybrid_method_name (RwHybridMethod method);

/* ---- seam metrics ---------------------------------------------------- */

#define RW_HYBRID_SEAM_WINDOW_S 0.05
#define RW_HYBRID_SEAM_SPAN_S 0.3
#define RW_HYBRID_SEAM_MAX_WINDOWS 6

/* Two IRs (the wave-only and the geometrical-only one, or any two)
 * compared in the octave band centred on the crossover (rw-analysis.h's
 * Butterworth octave filter at centre fc, applied time-reversed as the
 * analysis does for decays). */
typedef struct {
  double centre_hz, lower_hz, upper_hz;
  size_t n_windows;   /* 50 ms windows from sample 0 (the emission) over the first
                         300 ms, as many as fit in the IRs */
  double level_a_db[RW_HYBRID_SEAM_MAX_WINDOWS];   /* 10 lg Σ y², each window */
  double level_b_db[RW_HYBRID_SEAM_MAX_WINDOWS];
  double diff_db[RW_HYBRID_SEAM_MAX_WINDOWS];      /* level_a − level_b; NAN when a
                                                      window of either is silent */
  double max_abs_diff_db;                          /* over the finite diff_db */
  RwDecayFit t30_a, t30_b;   /* T30 (−5 … −35 dB) of each in the band, Schroeder with
                                Lundeby compensation from each one's broadband onset */
  double t30_rel_diff;       /* t30_b / t30_a − 1; NAN when either is absent */
  size_t n_averaged;         /* IRs per side: 1 for rw_hybrid_seam */
} RwHybridSeam;

/* Fills *seam for a and b (n samples each at rate_hz). Fails
 * (RW_ERROR_INPUT) when n is shorter than one window, on a non-finite
 * sample, or when the band around crossover_hz does not fit below the
 * Nyquist frequency. */
bool rw_hybrid_seam (const double *a, const double *b, size_t n, double rate_hz,
                     double crossover_hz, RwHybridSeam *seam, RwError *err);

/* The same over n_ir ≥ 1 pairs (receivers, or source/receiver pairs) of
 * one room, to reduce the fine structure's fluctuation: a window's level
 * of each side is 10 lg of the mean over its IRs of their band energies
 * in that window (linear units, as a spatial average of levels is taken);
 * T30 of each side is that of the mean band energy (an ensemble-averaged
 * Schroeder curve, from the earliest onset among that side's IRs). With
 * n_ir = 1 it is rw_hybrid_seam. Two uncorrelated fine structures then
 * differ per window by an RMS of about 10 lg e · √(2 / (n_ir B T))
 * (docs/GEOMETRICAL.md, "Seam metrics"), if the n_ir positions are
 * uncorrelated (half a wavelength apart or more). a[k], b[k]: n samples
 * each. Fails as rw_hybrid_seam, and on n_ir = 0. */
bool rw_hybrid_seam_average (const double *const *a, const double *const *b, size_t n_ir,
                             size_t n, double rate_hz, double crossover_hz, RwHybridSeam *seam,
                             RwError *err);
