/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-analysis.h — ISO 3382-1 analysis of impulse responses, frequency
 * response with fractional-octave smoothing, analytic room modes.
 *
 * What it is: the numbers an acoustician defends in a report. An impulse
 * response (float samples at rate_hz, pressure re whatever calibration the
 * caller used) goes through octave-band filters (IEC 61260-1 class 1,
 * 63 Hz … 8 kHz), Schroeder backward integration with Lundeby noise
 * compensation, least-squares fits (EDT, T20, T30) and energy ratios
 * (C50, C80, D50, Ts). docs/ANALYSIS.md gives every definition and choice.
 *
 * Ownership: the caller owns its input signals; every result struct owns
 * what it points to and is released with its _clear function (which leaves
 * it zeroed, so clearing twice is harmless).
 *
 * Units: seconds (_s), hertz (_hz), decibels (_db), metres (_m). Times in
 * results are measured from the ISO 3382-1 onset (t = 0 at the onset)
 * unless a name says otherwise.
 *
 * Absent values are NAN, never a guess: a fit that the decay range does not
 * allow carries a reason ("decay range 38.2 dB < 45 dB needed for T30").
 * Bands whose upper edge lies above the simulation's valid fmax are
 * flagged above_fmax; callers must show the flag. Those that straddle fmax
 * are computed; those wholly above it (lower edge ≥ fmax) are not
 * (analysed = false, values NAN, reason given). A measured IR passes
 * fmax_hz = INFINITY.
 *
 * Which method produced each band (issue #12): rw_analyse does not know;
 * the caller that knows where the IR came from (rw_results_validity,
 * rw-results.h: what a results folder says) sets it with
 * rw_analysis_set_methods. A hybrid IR is valid to the Nyquist frequency
 * (no band above fmax), its bands made by the wave solver, the
 * geometrical method, or both (the crossover band).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include "rw-error.h"
#include "rw-materials.h"   /* RW_N_OCTAVES, rw_octave_centres_hz */

/* ---- octave-band filters (rw-octave.c) ------------------------------- */

/* Results hold the RW_N_OCTAVES octave bands (index 0 = 63 Hz … 7 = 8 kHz)
 * and then broadband at index RW_ANALYSIS_BROADBAND. */
#define RW_ANALYSIS_BROADBAND RW_N_OCTAVES
#define RW_ANALYSIS_N_BANDS (RW_N_OCTAVES + 1)

/* Butterworth band-pass, order-3 low-pass prototype (6th order band-pass),
 * bilinear transform with pre-warped band edges, as 3 second-order
 * sections. Passes IEC 61260-1:2014 class 1 for octave bands at rates
 * ≥ 48 kHz; at 44.1 kHz the 8 kHz band misses by 0.07 dB at Ω = G^−3
 * (tests/test-analysis-filters-iec.c). */
#define RW_OCTAVE_FILTER_SECTIONS 3

typedef struct {
  double b[3];   /* numerator b0, b1, b2 */
  double a[3];   /* denominator 1, a1, a2 */
} RwBiquad;

typedef struct {
  double centre_hz;   /* exact base-10 midband frequency (1000 · 10^(3x/10)) */
  double lower_hz;    /* band edges, −3 dB points: centre · G^(∓1/2), G = 10^0.3 */
  double upper_hz;
  double rate_hz;
  RwBiquad sections[RW_OCTAVE_FILTER_SECTIONS];
} RwOctaveFilter;

typedef enum {
  /* Causal: what an analyser does in real time. The filter's ringing adds
   * to the end of the decay (ISO 3382-1 asks B·T > 16 for this). */
  RW_FILTER_FORWARD,
  /* The time-reversed signal is filtered and reversed back (Jacobsen &
   * Rindel 1987; ISO 3382-1 allows it): the ringing goes before the
   * onset, so an exponential decay stays exactly exponential after the
   * onset (B·T > 4 suffices). Same magnitude response as FORWARD. */
  RW_FILTER_TIME_REVERSED,
} RwFilterDirection;

/* Exact midband frequency of octave band `band` (0 = 63 Hz … 7 = 8 kHz);
 * the nominal labels are rw_octave_centres_hz[]. */
double rw_octave_exact_centre_hz (int band);

/* Designs the octave filter around exact midband centre_hz at rate_hz.
 * Fails (RW_ERROR_INPUT) when the upper band edge is not below Nyquist. */
bool rw_octave_filter_design (double centre_hz, double rate_hz,
                              RwOctaveFilter *filter, RwError *err);

/* Magnitude response of the designed filter (one pass) at freq_hz, in dB
 * (0 dB = unity gain). */
double rw_octave_filter_gain_db (const RwOctaveFilter *filter, double freq_hz);

/* Filters n samples; `in` and `out` may be the same array. */
void rw_octave_filter_apply (const RwOctaveFilter *filter, RwFilterDirection direction,
                             const double *in, double *out, size_t n);

/* Convenience: design + apply in one call. */
bool rw_octave_filter (double centre_hz, double rate_hz, RwFilterDirection direction,
                       const double *in, double *out, size_t n, RwError *err);

/* ---- energy decay (rw-decay.c) ---------------------------------------- */

/* Lundeby et al. (1995) noise estimate and truncation point of a squared
 * impulse response that starts at the onset. */
typedef struct {
  bool noise_found;           /* false: the IR ends before reaching a noise floor;
                                 truncation is then the end of the signal */
  double noise_level_db;      /* mean-square noise, dB re the peak of the smoothed
                                 energy envelope; −INFINITY when not found */
  double noise_energy;        /* the same as a mean energy per sample, in the units
                                 of the input (0 when not found): what is subtracted */
  size_t truncation;          /* samples from the onset where integration stops */
  double truncation_s;        /* the same, in seconds (Lundeby's crosspoint) */
  double late_slope_db_per_s; /* late-decay regression (Lundeby step 8) */
  double late_intercept_db;   /* regression level at t = 0, dB re the peak */
  double correction;          /* energy after truncation, from the late-decay
                                 exponential, in the units of Σ energy */
  double end_level_db;        /* smoothed envelope at the end of the signal, dB re
                                 its peak: how far a truncated IR decayed at all */
  int iterations;
} RwNoiseEstimate;

/* Lundeby noise estimate of `energy` (squared samples, n of them, from the
 * onset at index 0). Fails only on n too small for any estimate. */
bool rw_noise_estimate (const double *energy, size_t n, double rate_hz,
                        RwNoiseEstimate *est, RwError *err);

/* Schroeder backward integration with Lundeby compensation:
 *   EDC(t) = ∫_t^{t1} e(τ) dτ + C,  t < t1 (t1 = truncation, C = correction),
 * normalised to 0 dB at t = 0. Writes est->truncation values into
 * edc_db[0 … truncation − 1] (edc_db must hold n). When est is NULL the
 * estimate is computed here (and not returned). Returns the number of
 * valid EDC samples (≥ 1), 0 on failure. */
size_t rw_schroeder_decay (const double *energy, size_t n, double rate_hz,
                           const RwNoiseEstimate *est, double *edc_db, RwError *err);

typedef struct {
  double value_s;          /* T60 extrapolated from the fit: −60 / slope; NAN when absent */
  double start_db;         /* evaluation range on the EDC: EDT 0…−10, T20 −5…−25, T30 −5…−35 */
  double end_db;
  double slope_db_per_s;   /* fit line: EDC_dB(t) ≈ intercept_db + slope_db_per_s · t */
  double intercept_db;     /* (t in s from the onset); NAN when absent */
  double range_db;         /* span of the EDC samples actually fitted (≈ start − end) */
  double r;                /* correlation coefficient of the fit */
  double xi_permille;      /* ISO 3382-2 non-linearity ξ = 1000 (1 − r²) */
  char absent_reason[160]; /* "" when present; translated otherwise */
} RwDecayFit;

/* Least-squares line through the EDC samples with start_db ≥ EDC > end_db
 * (first pass through the range, as ISO 3382-1 reads it), over the first
 * n_edc samples at rate_hz. The value is −60/slope. Absent (NAN + reason)
 * when the EDC does not reach end_db or has fewer than 3 samples in range. */
void rw_decay_fit (const double *edc_db, size_t n_edc, double rate_hz,
                   double start_db, double end_db, RwDecayFit *fit);

/* ---- ISO 3382-1 parameters (rw-params.c) ------------------------------ */

/* ISO 3382-1 (A.3.4) start: the first sample whose square reaches 20 dB
 * below the maximum square — or 20 dB above the background noise's mean
 * square (last 10 % of the IR) where that is higher, so that a noise
 * sample of a noisy measurement is not taken for the direct sound.
 * n must be > 0. */
size_t rw_onset_index (const float *ir, size_t n);

/* The method that produced a band of a simulated IR. */
typedef enum {
  RW_BAND_METHOD_UNKNOWN = 0,  /* not known: a plain WAV (a measured IR, or no results.json) */
  RW_BAND_METHOD_WAVE,         /* the wave solver (FDTD) */
  RW_BAND_METHOD_GEOMETRICAL,  /* image sources + rays */
  RW_BAND_METHOD_BOTH,         /* the crossover's transition band: both, joined */
  RW_BAND_METHOD_MIXED,        /* a spatial average of IRs whose methods differ here */
} RwBandMethod;

/* "unknown", "wave", "geometrical", "both", "mixed": the untranslated key
 * of the JSON outputs (the same words as rw_hybrid_method_name). */
const char *rw_band_method_name (RwBandMethod method);
/* The same, translated, for tables. */
const char *rw_band_method_label (RwBandMethod method);

typedef struct {
  double centre_hz;      /* nominal band centre (63 … 8000); 0 for broadband */
  double lower_hz;       /* band edges; broadband: 0 and rate/2 */
  double upper_hz;
  bool above_fmax;       /* upper edge > fmax: shown flagged */
  bool analysed;         /* false when the band cannot be analysed: wholly above
                            fmax (lower edge ≥ fmax), or reaching Nyquist at this
                            rate; see absent_reason */
  char absent_reason[160];
  RwBandMethod method;   /* what produced the band; UNKNOWN unless the caller
                            set it (rw_analysis_set_methods). Broadband: the
                            octave bands' common method, BOTH when they differ */

  RwDecayFit edt;        /* EDT: 0 … −10 dB, × 6 */
  RwDecayFit t20;        /* T20: −5 … −25 dB, × 3; needs decay_range ≥ 35 dB */
  RwDecayFit t30;        /* T30: −5 … −35 dB, × 2; needs decay_range ≥ 45 dB */

  double C50_db;         /* 10 lg (E[0, 50 ms) / E[50 ms, ∞)) */
  double C80_db;
  double D50;            /* E[0, 50 ms) / E[0, ∞), 0 … 1 */
  double Ts_s;           /* centre time ∫ t e / ∫ e */
  char ratios_absent_reason[160];  /* why C50, C80, D50, Ts are NAN, when they are */

  RwNoiseEstimate noise; /* Lundeby: noise level, truncation, correction */
  double noise_floor_db; /* = noise.noise_level_db (dB re peak of the smoothed envelope) */
  double decay_range_db; /* −EDC_dB at the truncation point: how far the decay is
                            known from the signal itself */
  double truncation_s;   /* = noise.truncation_s */

  float *edc_db;         /* Schroeder curve from the onset, one value per input sample
                            at rate_hz, n_edc of them (up to the truncation); owned */
  size_t n_edc;
  int n_values[4];       /* a spatial average (rw_analysis_average): how many of the
                            IRs gave EDT, T20, T30, and C50…Ts; 0 for one IR */
} RwBandResult;

typedef struct {
  double rate_hz;
  double fmax_hz;        /* valid up to: INFINITY for a measured IR, the
                            Nyquist frequency for a hybrid one */
  double crossover_hz;   /* hybrid IR: the wave/geometrical crossover; NAN when none */
  double onset_s;        /* ISO 3382-1 start time, from the first sample */
  double duration_s;     /* of the input */
  RwBandResult bands[RW_ANALYSIS_N_BANDS];
  size_t n_averaged;     /* 0: the analysis of one IR; n: the spatial average of n */
} RwAnalysis;

/* Analyses `ir` (n samples at rate_hz). fmax_hz: upper limit of validity
 * (INFINITY when unknown/measured). Fails (RW_ERROR_INPUT) on an empty,
 * silent or non-finite IR, a rate below 1 kHz, or fmax ≤ 0; `out` is then
 * left zeroed. On success the caller releases `out` with rw_analysis_clear. */
bool rw_analyse (const float *ir, size_t n, double rate_hz, double fmax_hz,
                 RwAnalysis *out, RwError *err);
void rw_analysis_clear (RwAnalysis *analysis);

/* Records which method produced each octave band (method[RW_N_OCTAVES])
 * and the crossover (NAN: none); the broadband entry gets the bands'
 * common method, or BOTH when they differ. */
void rw_analysis_set_methods (RwAnalysis *analysis, const RwBandMethod *method,
                              double crossover_hz);

/* The spatial average of n ≥ 1 analyses (ISO 3382-1 §7: source and
 * receiver positions are averaged by the arithmetic mean of each
 * parameter): per band, each of EDT, T20, T30, C50, C80, D50, Ts is the
 * mean over the IRs that have it, and n_values says over how many; a value
 * none of them has is absent with the first IR's reason. fmax is the
 * lowest of the inputs', a band is above fmax when it is in any input; a
 * band's method is the inputs' when they all agree, else MIXED; the
 * crossover is the inputs' when they all have the same, else NAN; the
 * decay range and noise columns give the worst input's (smallest range,
 * highest noise); rate and onset are the first input's, duration the
 * shortest; no EDC. out->n_averaged = n. Release with rw_analysis_clear. */
bool rw_analysis_average (const RwAnalysis *items, size_t n, RwAnalysis *out, RwError *err);

/* The analysis as the JSON that `roomwave-cli analyse --json` prints
 * (schema in docs/ANALYSIS.md; absent values are null). `file` may be
 * NULL. Returns a newly allocated string (free()). */
char *rw_analysis_to_json (const RwAnalysis *analysis, const char *file);

/* ---- frequency response (rw-spectrum.c) ------------------------------- */

typedef struct {
  size_t n;
  double *frequency_hz;  /* ascending */
  double *level_db;      /* 20 lg |H(f)|, H = Σ h[k] e^{−j2πfk/fs} (no 1/N):
                            a calibrated IR (rw-postprocess.h) reads 0 dB for
                            free field at 1 m */
} RwSpectrum;

/* Magnitude of the IR's spectrum (FFTW, no window, no zero padding
 * beyond the IR length) between f_lo_hz and f_hi_hz (clipped to
 * (0, rate/2]).
 * smoothing_fraction = 0: the raw FFT bins in the range (linear spacing).
 * smoothing_fraction = N (1, 3, 6, 12, 24 …): 1/N-octave smoothing by power
 * averaging of |H|² over [f·2^(−1/2N), f·2^(1/2N)], evaluated at
 * points_per_octave log-spaced frequencies (0 → 48). */
bool rw_frequency_response (const float *ir, size_t n, double rate_hz,
                            int smoothing_fraction, double f_lo_hz, double f_hi_hz,
                            int points_per_octave, RwSpectrum *out, RwError *err);
void rw_spectrum_clear (RwSpectrum *spectrum);

/* ---- room modes (rw-modes.c) ------------------------------------------ */

typedef enum {
  RW_MODE_AXIAL = 1,       /* one non-zero index */
  RW_MODE_TANGENTIAL = 2,  /* two */
  RW_MODE_OBLIQUE = 3,     /* three */
} RwModeType;

typedef struct {
  int l, m, n;             /* indices along x, y, z */
  double frequency_hz;     /* (c/2) √((l/lx)² + (m/ly)² + (n/lz)²) */
  RwModeType type;
} RwRoomMode;

/* All modes of a rigid rectangular room lx × ly × lz with 0 < f ≤ fmax_hz,
 * sorted by frequency (ties: axial before tangential before oblique, then
 * by l, m, n). *modes is newly allocated (free()); may be NULL when
 * *n_modes = 0. Fails on non-positive or non-finite dimensions, c or fmax,
 * or more than 10 million modes. */
bool rw_room_modes (double lx_m, double ly_m, double lz_m, double c_m_per_s,
                    double fmax_hz, RwRoomMode **modes, size_t *n_modes, RwError *err);
/* "axial", "tangential", "oblique" (translated). */
const char *rw_mode_type_name (RwModeType type);
