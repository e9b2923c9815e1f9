/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-postprocess.h — from a raw receiver signal to a calibrated IR.
 *
 * Raw signal at the grid rate fs → low-pass at fmax (the IR is valid only up
 * to there) → DC block → resample to the output rate (libsamplerate, best
 * sinc) → calibration gain. rw_sim_solve then adds the air's absorption
 * to the result (rw-air.h), which needs the IR in physical time at the
 * output rate that this produces.
 *
 * The low-pass is zero-phase, so the arrival time of the direct sound does
 * not move; the DC block is causal, so nothing leaks before it
 * (docs/PHYSICS.md):
 *  - low-pass: a linear-phase Kaiser-windowed-sinc FIR applied centred,
 *    flat (±0.01 dB) to fmax, at least 80 dB down from RW_LOWPASS_STOP_FACTOR
 *    · fmax, its taps summed to exactly 1 so that the DC gain (the area of
 *    the direct sound, hence the calibration) is untouched;
 *  - drift removal: a soft impulse source is a volume-velocity step: in a
 *    closed room it inflates the room and the pressure drifts (a ramp in a
 *    rigid room, a settling offset in an absorbing one). A real
 *    loudspeaker moves no net volume, so that drift is an artefact of the
 *    source. When the caller describes the room (rw_postprocess_set_room,
 *    FV boundary), the uniform-mode model of the drift is subtracted from
 *    the arrival of the direct sound on;
 *  - DC block: then a causal 2nd-order Butterworth high-pass at
 *    dc_cutoff_hz takes what is left (the roll-off of a sealed
 *    loudspeaker with a 10 Hz corner: 6.5° of phase at 125 Hz).
 *
 * Calibration (DESIGN §2): a soft source of amplitude A at one node of the
 * 7-point scheme radiates, in free field, p[n] ≈ A h / (4π λ² r) · δ[n − r/(cT)]
 * (the discrete analogue of the Green's function). The IR is scaled so
 * that it reads as the continuous response δ(t − r/c) / r sampled with the
 * output period: the samples of the direct sound at 1 m sum to 1. So a
 * free-field IR at distance r has a direct-sound area of 1/r, whatever the
 * grid or output rate, and sound strength G and level comparisons hold.
 * The derivation is in docs/PHYSICS.md; test postprocess-calibration checks
 * the gain against an independent run of the scheme.
 *
 * Time origin: the soft impulse given as source sample 0 acts at t = 0 (it
 * enters the scheme's second difference centred on time level 0), and raw
 * sample n is the field at time level n + 1 (rw-solver.h), i.e. at
 * t = (n + 1)/fs. Output sample m is at t = m / fs_out, so the direct sound
 * peaks at r/c (checked to one 48 kHz sample by postprocess-calibration and
 * sim-free-field-arrival).
 */
#pragma once

#include <stddef.h>
#include <stdbool.h>
#include "rw-error.h"
#include "rw-scheme.h"
#include "rw-voxel.h"

/* Default corner of the DC block. Low enough to leave every room mode
 * above ~20 Hz nearly untouched (−0.01 dB at 44 Hz, the lower edge of the
 * 63 Hz octave; −0.26 dB at 20 Hz), high enough that the filter's own settling (time
 * constant 1/(2π·10 Hz·0.71) ≈ 23 ms) is over early in a T30 range. */
#define RW_DC_BLOCK_HZ 10.0
/* The low-pass is at least 80 dB down from this multiple of fmax. */
#define RW_LOWPASS_STOP_FACTOR 1.5

typedef struct {
  double fs_grid_hz;
  double fmax_hz;
  double fs_out_hz;          /* RW_OUTPUT_RATE_HZ by default */
  double spacing_m;          /* h */
  RwLattice lattice;         /* the grid's (CUBIC by default): the scheme's λ and cell volume */
  double source_amplitude;   /* A of the soft impulse */
  bool dc_block;             /* default true */
  double dc_cutoff_hz;       /* ≤ 0 → RW_DC_BLOCK_HZ */
  /* The room's drift model (rw_postprocess_set_room); 0 → none. */
  double drift_cells;        /* N: inside cells */
  double drift_damping;      /* G: Σ over boundary nodes of the FV loss g */
  /* The uniform mode as the solver measured it (rw_solver_uniform_mode):
   * the sum of p at drift_steps[k], k < drift_count (steps rising, the
   * first 0). With two or more samples and drift_cells > 0 it replaces the
   * model: its share drift_sums/N, interpolated (cubic Hermite), is what is
   * subtracted, for any boundary and precision. Borrowed. */
  const size_t *drift_steps;
  const double *drift_sums;
  size_t drift_count;
  double arrival_s;          /* r/c of the direct sound at this receiver */
  /* false (default): the output stops rw_postprocess_tail_steps before the
   * end of the raw signal, where the filters are not exact (below);
   * true: the whole duration, edge effects included. */
  bool keep_end;
} RwPostprocess;

/* Fills the defaults: fs_out RW_OUTPUT_RATE_HZ, A = 1, DC block on at
 * RW_DC_BLOCK_HZ, and the given grid figures. */
void rw_postprocess_init (RwPostprocess *pp, double fs_grid_hz, double fmax_hz,
                          double spacing_m);

/* Describes the room for the drift removal: N, and G from the grid and
 * the surfaces' R (the model: FV boundary only; other boundaries leave it
 * off; not computed when drift_count ≥ 2 measured samples are set, which
 * serve any boundary), and the direct sound's arrival from the source and
 * receiver cells. Call after rw_postprocess_init (and after setting the
 * samples), once per receiver. */
void rw_postprocess_set_room (RwPostprocess *pp, const RwGrid *g, const double *surface_R,
                              RwBoundary boundary, size_t source_cell, size_t receiver_cell);
/* G = Σ over boundary nodes of the FV loss g: λ β (6 − K)/2 on a cubic
 * grid (rw-scheme.h), λ β S/4 with S = (12 − K)/2 on an FCC grid
 * (rw-scheme-fcc.h). */
double rw_uniform_mode_damping (const RwGrid *g, const double *surface_R);

/* Kaiser-windowed sinc low-pass (Kaiser's formulas for β and the length;
 * O&S §7.5.3): cut-off halfway between f_pass and f_stop, atten_db of
 * design attenuation. Returns an odd number *n_taps of taps, symmetric,
 * summing to 1 (malloc'd; NULL when out of memory). Used by the
 * post-processing low-pass (80 dB) and the hybrid crossover (rw-hybrid.h). */
double *rw_kaiser_lowpass (double fs, double f_pass, double f_stop, double atten_db,
                           size_t *n_taps);

/* Gain that turns the raw soft-source response into the calibrated IR at
 * the grid rate (before resampling): 4π λ² / (A V h), λ the scheme's
 * Courant number and V its cell volume in h³ (1 cubic, 2 FCC). */
double rw_calibration_gain (RwLattice lattice, double spacing_m, double source_amplitude);

/* The last rw_postprocess_tail_steps (fs, fmax) raw samples' worth of
 * output would not be exact: the zero-phase low-pass (and the resampler)
 * look past the end of the signal, where only a mirror image of it stands
 * in, and the raw field carries lattice oscillations far above fmax whose
 * mirror image is not their continuation (measured: a burst up to 55 dB
 * above a decayed tail in the last 4 ms, which stops the Lundeby noise
 * estimate of every decay at ~30 dB). So rw_postprocess leaves them out
 * (unless keep_end), and a caller that wants an IR of n steps runs
 * n + rw_postprocess_tail_steps steps, as rw_simulate does. */
size_t rw_postprocess_tail_steps (double fs_grid_hz, double fmax_hz);

/* Allocates *out (n_out samples at fs_out_hz, n_out = round((n_raw −
 * tail) · fs_out / fs_grid), tail = rw_postprocess_tail_steps or 0 with
 * keep_end or when n_raw ≤ tail + 1). Fails on bad settings and, with RW_ERROR_UNSTABLE,
 * on a non-finite raw sample. */
bool rw_postprocess (const RwPostprocess *pp, const double *raw, size_t n_raw,
                     float **out, size_t *n_out, RwError *err);
/* rw_postprocess in two stages, for callers that combine receivers' raw
 * signals linearly in between (a spatial receiver's probe: rw-sim.c):
 * rw_postprocess_calibrate writes x (n_raw + 1 samples at the grid rate,
 * x[j] the pressure at t = j / fs): the calibration gain, the time
 * origin and the uniform mode's correction; rw_postprocess_finish takes
 * such an x (or a linear combination of several) through the low-pass,
 * the DC block and the resampling to *out as rw_postprocess does. Both
 * fail as rw_postprocess. */
bool rw_postprocess_calibrate (const RwPostprocess *pp, const double *raw, size_t n_raw, double *x,
                               RwError *err);
bool rw_postprocess_finish (const RwPostprocess *pp, const double *calibrated, size_t n_raw,
                            float **out, size_t *n_out, RwError *err);
