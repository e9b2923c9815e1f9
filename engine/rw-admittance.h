/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-admittance.h — frequency-dependent surfaces: a passive admittance per
 * material, fitted to its octave-band absorption.
 *
 * Model (Bilbao, Hamilton, Botts & Savioja, "Finite volume time domain room
 * acoustics simulation under general impedance boundary conditions",
 * IEEE/ACM TASLP 24(1), 2016; PFFDTD's materials): the surface is locally
 * reacting with specific (ρc-normalised) admittance
 *
 *   Y(s) = Y0 + Σ_m 1 / (D_m s + E_m + F_m / s),
 *
 * a pure conductance Y0 in parallel with series mass–resistance–stiffness
 * branches. Every element is ≥ 0, so Y is positive real: the surface is
 * passive at every frequency, and the finite-volume boundary built on it
 * (rw-scheme.h) has a discrete energy that never grows. Units: D in
 * seconds, E dimensionless, F in 1/s (all divided by ρc).
 *
 * A frequency-independent surface (--reflection R, {"R": r}) is Y0 = β =
 * (1 − R)/(1 + R) with no branch: the solver then runs today's update,
 * bit for bit.
 *
 * Absorption: a plane wave at incidence θ on a locally reacting surface of
 * admittance Y has R(θ) = (cos θ − Y)/(cos θ + Y); α(θ) = 1 − |R(θ)|². The
 * random-incidence (statistical, Paris) absorption is
 * α_st = ∫₀^{π/2} α(θ) sin 2θ dθ, the kind of α that ISO 354 measures and
 * material tables give. A band value is the mean over the octave band
 * (log-spaced frequencies, band edges at f/√2 … f·√2).
 */
#pragma once

#ifndef __cplusplus
#include <complex.h>
#endif
#include <stdbool.h>
#include <stddef.h>
#include "rw-error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RW_ADM_N_BANDS 8            /* 63 Hz … 8 kHz, rw_octave_centres_hz */
#define RW_ADM_MAX_BRANCHES 12      /* PFFDTD's limit too */

typedef struct {
  double D;                          /* mass, s */
  double E;                          /* resistance */
  double F;                          /* stiffness, 1/s */
} RwBranch;

typedef struct RwAdmittance {
  double Y0;                         /* conductance, ≥ 0 */
  int n_branches;                    /* 0 … RW_ADM_MAX_BRANCHES */
  RwBranch branch[RW_ADM_MAX_BRANCHES];
} RwAdmittance;

/* A frequency-independent surface of normal-incidence reflection factor R
 * in (−1, 1]: Y0 = (1 − R)/(1 + R), no branch. */
RwAdmittance rw_admittance_real (double R);
/* True when the admittance has branches (the solver then keeps branch
 * states on the surface's cells). */
bool rw_admittance_is_frequency_dependent (const RwAdmittance *a);
/* All elements finite and ≥ 0, n_branches in range, every branch with at
 * least one non-zero element. Fails with RW_ERROR_INPUT saying which. */
bool rw_admittance_check (const RwAdmittance *a, RwError *err);

#ifndef __cplusplus   /* C99 complex; the CUDA sources need only the model */
double complex rw_admittance_eval (const RwAdmittance *a, double f_hz);
/* Absorption of a surface of admittance Y: at normal incidence, and
 * random-incidence (Paris' integral, numerically: exact for real Y to 1e-9
 * against rw_statistical_absorption). */
double rw_alpha_normal (double complex Y);
double rw_alpha_random (double complex Y);
#endif
/* Band means of the above for octave band b (0 = 63 Hz … 7 = 8 kHz). */
double rw_admittance_band_alpha (const RwAdmittance *a, int band, bool random_incidence);

/* What a fit achieved, per band: target and model absorption, random and
 * normal incidence. For α targets, the normal-incidence target is that of
 * the real admittance whose random-incidence α is the target (the
 * library's α say nothing about phase). `limited[b]`: the target is
 * outside what a passive locally reacting surface reaches (α_st above
 * ≈ 0.951): the fit's limit, not the target, is what is shown. Bands at and
 * above n_bands_fit are reported but were not fitted. */
typedef struct {
  int n_bands_fit;
  double target_random[RW_ADM_N_BANDS];
  double model_random[RW_ADM_N_BANDS];
  double target_normal[RW_ADM_N_BANDS];
  double model_normal[RW_ADM_N_BANDS];
  bool limited[RW_ADM_N_BANDS];
  int worst_band;                    /* the largest |model − target| (random) among fitted bands */
  double worst_error;
} RwFitReport;

/* Fits a passive admittance to random-incidence octave-band absorption
 * alpha[0 … 7] (63 Hz … 8 kHz) over the first n_bands_fit bands (1 … 8:
 * the bands up to fmax and one beyond; rw_admittance_bands_for_fmax). The
 * same α in every band gives the frequency-independent surface (no
 * branch). Deterministic. `report` may be NULL. Fails with RW_ERROR_INPUT on
 * α outside [0, 1] or a bad band count. */
bool rw_admittance_fit_alpha (const double alpha[RW_ADM_N_BANDS], int n_bands_fit,
                              RwAdmittance *out, RwFitReport *report, RwError *err);

/* Fits the same model to a measured surface impedance or reflection factor
 * versus frequency: a CSV file with a header line naming its columns,
 * "frequency_hz,z_real,z_imag" (specific impedance Z/ρc) or
 * "frequency_hz,r_real,r_imag" (normal-incidence reflection factor), then
 * one row per frequency, rising. Fails with RW_ERROR_INPUT naming the file,
 * the line and the problem (missing header, non-numeric or non-finite
 * value, frequencies not rising, Re Z < 0 or |R| > 1: an active surface). */
bool rw_admittance_fit_csv (const char *path, int n_bands_fit,
                            RwAdmittance *out, RwFitReport *report, RwError *err);

/* A frequency-dependent surface's table, as every backend gives it to
 * rw_update_fv_branches (rw-scheme.h): its branches' rounded coefficients
 * (coef, 4 per branch) and their energy weights (dh_fh, 2 per branch),
 * for time step k in seconds; returns Y0 + Σ b rounded up. */
double rw_admittance_branch_table (const RwAdmittance *a, double k, double *coef, double *dh_fh);

/* The number of octave bands a simulation valid up to fmax_hz fits: those
 * whose centre is ≤ fmax_hz, plus one (at most 8, at least 2). */
int rw_admittance_bands_for_fmax (double fmax_hz);

#ifdef __cplusplus
}
#endif
