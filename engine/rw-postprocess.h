/* rw-postprocess.h — from a raw receiver signal to a calibrated IR.
 *
 * Raw signal at the grid rate fs → low-pass at fmax (the IR is valid only up
 * to there) → DC block → resample to the output rate (libsamplerate, best
 * sinc) → calibration gain.
 *
 * Calibration (DESIGN §2): a soft source of amplitude A at one node of the
 * 7-point scheme radiates, in free field, p[n] ≈ A h / (4π λ² r) · δ[n − r/(cT)]
 * (the discrete analogue of the Green's function). The IR is scaled so
 * that it reads as the continuous response δ(t − r/c) / r sampled with the
 * output period: the samples of the direct sound at 1 m sum to 1. So a
 * free-field IR at distance r has a direct-sound area of 1/r, whatever the
 * grid or output rate, and sound strength G and level comparisons hold.
 */
#pragma once

#include <stddef.h>
#include <stdbool.h>
#include "rw-error.h"

typedef struct {
  double fs_grid_hz;
  double fmax_hz;
  double fs_out_hz;          /* RW_OUTPUT_RATE_HZ by default */
  double spacing_m;          /* h */
  double source_amplitude;   /* A of the soft impulse */
  bool dc_block;             /* default true */
} RwPostprocess;

/* Gain that turns the raw soft-source response into the calibrated IR at
 * the grid rate (before resampling): 4π λ² / (A h). */
double rw_calibration_gain (double spacing_m, double source_amplitude);

/* Allocates *out (n_out samples at fs_out_hz). */
bool rw_postprocess (const RwPostprocess *pp, const double *raw, size_t n_raw,
                     float **out, size_t *n_out, RwError *err);
