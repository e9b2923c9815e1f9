/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-air.h — air absorption: ISO 9613-1 coefficients and their effect on
 * an impulse response.
 *
 * The FDTD grid is lossless in its interior: what the air itself absorbs
 * on the way (the relaxation of O₂ and N₂ molecules, and the classical
 * viscous and thermal losses) is not in the scheme. Above 2 kHz it is
 * what limits the reverberation of a large room (at 8 kHz, 20 °C, 50 %
 * RH, 0.10 dB/m: 36 dB per second of travel). It is added afterwards, to
 * the calibrated IR at the output rate, where time is physical time from
 * the emission (rw-postprocess.h): a sound that arrives at time t has
 * travelled c·t, whatever its path, so band b of the IR is multiplied by
 * 10^(−α_b c t / 20).
 *
 * Coefficients: rw_air_absorption_db_per_m is ISO 9613-1:1993
 * (equations 3 to 5; the molar concentration of water vapour from the
 * relative humidity through the standard's saturation vapour pressure
 * formula, Annex B): pure-tone attenuation in dB/m from frequency, temperature,
 * relative humidity and pressure. Test air-absorption-iso checks it
 * against the published tables (ISO 9613-1 Table 1, ISO 9613-2 Table 2)
 * to their rounding. ISO 9613-1 states ±10 % accuracy for −20…50 °C,
 * 10…100 % RH and 50 Hz…10 kHz at one atmosphere; the formulas are used as
 * they are outside that (0 % RH and ultrasonic bands included).
 *
 * Bands: octave bands at the exact base-10 midband frequencies of
 * rw-analysis.h (63 Hz … 8 kHz, and above while the lower edge lies below
 * the Nyquist frequency: 16 kHz at 48 kHz). Each band's coefficient is the
 * pure-tone value at its exact midband frequency, as ISO 9613-1 does for
 * fractional-octave bands (its tables are computed at exact midband
 * frequencies: at nominal 8 kHz instead, 20 °C and 70 %, α would read
 * 77.6 dB/km, not the table's 76.6). The lowest band also carries everything below 44 Hz, the
 * highest everything up to the Nyquist frequency.
 *
 * The split (rw_air_absorption_apply): zero-phase complementary bands in
 * the FFT domain. Each band's weight is 1 inside the band and crosses to
 * the next with a raised cosine over ±1/6 octave around the band edge; the
 * weights add to 1 at every frequency (each crossover is w and 1 − w), so
 * with equal gains the bands add back to the input exactly (to rounding):
 * no phase shift, no delay, no ripple, which a recursive filter bank
 * (phase-distorted) or a linear-phase FIR bank (a delay, and only
 * approximately flat) would not give. The transitions keep the bands'
 * ringing short (≈ 1/width, 50 ms at the 63/125 Hz edge) and the signal
 * is zero-padded (by its length, at most 1 s) so that the ringing does not
 * wrap around the circular transform into the tail.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include "rw-error.h"

#define RW_AIR_PRESSURE_KPA 101.325        /* ISO 9613-1's reference atmosphere */
#define RW_AIR_DEFAULT_HUMIDITY_PCT 50.0
#define RW_AIR_MAX_BANDS 16
/* Half-width of the crossover between two bands, in octaves. */
#define RW_AIR_CROSSOVER_OCTAVES (1.0 / 6.0)

/* ISO 9613-1 pure-tone attenuation coefficient α, dB/m, at freq_hz (> 0)
 * in air at temperature_c, relative humidity humidity_pct (0…100 %) and
 * pressure_kpa (> 0; RW_AIR_PRESSURE_KPA for one atmosphere). */
double rw_air_absorption_db_per_m (double freq_hz, double temperature_c, double humidity_pct,
                                   double pressure_kpa);

/* The octave bands of an IR at rate_hz and their coefficients. */
typedef struct {
  size_t n_bands;
  double centre_hz[RW_AIR_MAX_BANDS];      /* exact midband: 1000 · 10^(0.3 (b − 4)) */
  double nominal_hz[RW_AIR_MAX_BANDS];     /* 63, 125, …, 8000, 16000, 31500, … */
  double alpha_db_per_m[RW_AIR_MAX_BANDS];
  double c_m_per_s;                        /* the speed t is turned into distance with */
  double temperature_c, humidity_pct, pressure_kpa;
} RwAirBands;

/* Fills *air for an IR at rate_hz (≥ 1 kHz): the bands, their
 * coefficients at temperature_c, humidity_pct and pressure_kpa, and c from
 * the temperature (rw_speed_of_sound, the grid's own). Fails
 * (RW_ERROR_INPUT) on a value out of range, naming it. */
bool rw_air_bands (double temperature_c, double humidity_pct, double pressure_kpa, double rate_hz,
                   RwAirBands *air, RwError *err);

/* The split's weight of the bands above the edge between band b and
 * b + 1 at f_hz: 0 below edge · 2^(−1/6), 1 above edge · 2^(1/6), a raised
 * cosine in log-frequency between. Band b's weight is
 * rw_air_edge_weight (b − 1) − rw_air_edge_weight (b) (1 for the edge below
 * the first band, 0 above the last): the weights add to 1. */
double rw_air_edge_weight (const RwAirBands *air, size_t b, double f_hz);
/* Band b's weight at f_hz in a split into n_bands bands (n_bands ≤
 * air->n_bands), the top one open above: the difference above. */
double rw_air_band_weight (const RwAirBands *air, size_t b, size_t n_bands, double f_hz);
/* Band b's weight (of n_bands) applied to the half spectrum X, the
 * N/2 + 1 bins of an N-point real FFT at fs_hz (re/im pairs: an
 * fftw_complex array), and divided by N, so that the inverse FFT gives
 * the band. Returns the weight's energy gain on white noise, Σ |W|² over
 * the two-sided spectrum / N. The one filtering step the geometrical
 * IR's band split and the rays' synthesis share. */
double rw_air_band_filter (const RwAirBands *air, size_t b, size_t n_bands, double (*X)[2],
                           size_t N, double fs_hz);

/* The FFT size on which the split filters an n-sample signal at rate_hz:
 * the power of two ≥ n + min (n, rate_hz samples), so that the zero-phase
 * bands' ringing before an arrival wraps into the padding, not into the
 * signal; 0 when that passes INT_MAX (FFTW's plan sizes are int). */
size_t rw_air_split_size (size_t n, double rate_hz);
/* Filters each band b of bands (RW_N_OCTAVES × n at rate_hz, band b at
 * bands[b · n …]) with band b's weight of the split (20 °C, 50 %: the
 * weights do not depend on the air), in place, on rw_air_split_size's
 * FFT grid; gain[b] (may be NULL) gets rw_air_band_filter's energy gain.
 * The geometrical IR's image sources and the binaural renderer split
 * their per-band renderings with it. Fails with RW_ERROR_MEMORY. */
bool rw_air_split_bands (double *bands, size_t n, double rate_hz, double *gain, RwError *err);

/* Applies the attenuation to ir (n samples at rate_hz, sample m at time
 * m / rate_hz after the emission), in place: band b at time t is
 * multiplied by 10^(−α_b c t / 20). Fails only on memory (and on a rate
 * that does not match air's bands); ir is then unchanged. */
bool rw_air_absorption_apply (const RwAirBands *air, float *ir, size_t n, double rate_hz,
                              RwError *err);
