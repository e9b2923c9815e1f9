/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-ambi-binaural.h — an ambisonic signal turned with the head, and
 * decoded to two ears (issue #13: `auralise --decode binaural`, the wave
 * part's binaural receivers; docs/BINAURAL.md).
 *
 * Conventions: rw-ambisonics.h (ACN, SN3D, head frame x front, y left,
 * z up) and rw-hrtf.h (SOFA sets, the listener frame the same).
 *
 * Rotation. A real spherical harmonic of order n at a rotated direction is
 * a linear combination of the 2n + 1 harmonics of order n at the original
 * one: Y_n(Q d) = R_n(Q) Y_n(d) for every d. R is found here numerically,
 * as the least-squares solution of that identity over a Fibonacci lattice
 * of 64 directions (the identity holds exactly, so any set that makes the
 * Gram matrix of Y invertible gives R to rounding, 1e-15), which needs no
 * Wigner-d recurrences and cannot disagree with rw_ambi_sh's sign and
 * normalisation conventions.
 *
 * Decoder: magnitude least squares (MagLS; Schörkhuber, Zaunschirm &
 * Höldrich, "Binaural rendering of Ambisonic signals via magnitude least
 * squares", DAGA 2018; Zotter & Frank, "Ambisonics", Springer 2019,
 * ch. 4.11). Why: at orders 1–3 the spherical-harmonic expansion of a
 * head's HRTFs is truncated far below what they hold above a few kHz
 * (kr ≈ N at f_c = N c / (2π · 8.75 cm): 624 Hz at N = 1, 1.87 kHz at
 * N = 3). A plain least-squares fit, or a virtual-loudspeaker decoder
 * (its sampled equivalent), then matches the HRTFs' complex values badly
 * up there: the ears' responses of neighbouring directions cancel, the
 * high-frequency magnitude falls (dull timbre) and the level difference
 * between the ears shrinks (the source drifts towards the middle).
 * Above f_c the ear's phase matters little (lateralisation there comes
 * from level differences and envelopes; the ITD the auditory system uses
 * is the one below ≈ 1.5 kHz), so MagLS fits magnitudes only there, with
 * the phase free: the fit of |H| is far better than that of H, and ILD and
 * timbre survive; below f_c the complex LS keeps the ITD.
 *
 * The design, per frequency bin k of an FFT of 2·2^⌈log₂ n⌉ points (n the
 * set's taps; 2048 for the MIT set at 48 kHz, 23 Hz bins), and per ear:
 * - the target: every measured direction's response H_i(k) (rw_hrtf_get
 *   at rw_hrtf_direction: exact, no interpolation), its Data.Delay
 *   included, shifted earlier by the set's reference delay (rw-hrtf.h's
 *   step 4) so that a decoded frontal plane wave starts when it arrives,
 *   as rw_hrtf_render_arrivals' arrivals do;
 * - the weights: rw_hrtf_weights (the Voronoi areas of the measured
 *   directions; the MIT set's rings are far from uniform: 72 directions at
 *   0° elevation, 1 at 90°), with Tikhonov regularisation of 10⁻³ of the
 *   Gram matrix's mean eigenvalue (the MIT set has no directions below
 *   −40°, and the order-3 fit is free there);
 * - below f_c: x(k) = argmin Σ_i w_i |Y(d_i)ᵀ x − H_i(k)|² (complex);
 * - above: the paper's one-step iteration, x(k) = argmin Σ_i w_i
 *   |Y(d_i)ᵀ x − |H_i(k)| e^{j φ_i}|², φ_i = arg Y(d_i)ᵀ x(k−1): the
 *   previous bin's phase, so that the phase stays smooth across bins and
 *   the filters short;
 * - then, every bin fitted, the diffuse-field covariance constraint
 *   (Zaunschirm, Schörkhuber & Höldrich, JASA 143(6), 2018): the two
 *   ears' filters mixed by the 2 × 2 matrix that makes their
 *   diffuse-field covariance Σ_i w_i ŷ_i ŷ_iᴴ (ŷ_i the decoded ears of
 *   direction i) equal the set's, each ear's energy and their coherence,
 *   while changing the ear signals least (covariance_constrain in the .c).
 *   MagLS alone leaves the energy within 0.3 dB but the coherence too high
 *   above f_c (0.12 and 0.18 at 4 and 8 kHz where the MIT set's is 0.00:
 *   a diffuse tail heard too narrow).
 * The filters are the inverse transforms, taken from 2^⌈log₂ n⌉ / 16
 * samples before time 0 (what MagLS's free phase puts before the onset)
 * to 2^⌈log₂ n⌉ taps in all, with half-Hann fades over the first half of
 * the pre-roll and the last quarter (a window: no wrap-around edges).
 *
 * Measured with the MIT KEMAR set at 48 kHz, order 3 (test
 * ambi-binaural; docs/BINAURAL.md has the table): ITD at 90° within
 * 60 µs of the set's own (704 µs against 698 µs), ILD in the 4 kHz
 * octave within 3 dB (at most 1.8 dB off, 0° … 90°), the diffuse-field
 * energy within 1 dB of the set's in every octave 250 Hz … 8 kHz (0.17 dB
 * at most) and its interaural coherence within 0.05 (0.004).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include "rw-error.h"
#include "rw-hrtf.h"

/* SH rotation: the field as heard by a listener who turns by yaw (ccw
 * about +z, degrees) then pitch (up): a source at head direction d in
 * `in` is at rw_ambi_room_to_head (yaw, pitch, d) in `out`. Planar
 * (N + 1)² × n (channel c, sample t at [c · n + t]); out may not alias
 * in. Fails with RW_ERROR_INPUT on an order outside 1 … 3, an angle that
 * is not finite, aliasing. */
bool rw_ambi_rotate (const double *in, int order, size_t n, double yaw_deg, double pitch_deg,
                     double *out, RwError *err);

typedef struct RwAmbiBinaural RwAmbiBinaural;

/* A binaural decoder of order N (1 … 3) from an open HRTF set at the set's
 * rate (rw_hrtf_rate). Fails with RW_ERROR_INPUT on a bad order or a set
 * of fewer directions than (N + 1)² with a weight (then the fit is not
 * determined), RW_ERROR_MEMORY. */
RwAmbiBinaural *rw_ambi_binaural_new (const RwHrtf *h, int order, RwError *err);
size_t rw_ambi_binaural_taps (const RwAmbiBinaural *d);
int rw_ambi_binaural_order (const RwAmbiBinaural *d);
double rw_ambi_binaural_rate (const RwAmbiBinaural *d);
/* left/right (n samples each, overwritten) = Σ_c ambi channel c ∗
 * filter (c, ear), cut to n, the filters' pre-roll removed (a plane wave
 * Y(d)·δ(t − t₀) gives the set's response of d starting at t₀ less the
 * set's reference delay, as rw_hrtf_render_arrivals does); ambi planar
 * (N + 1)² × n at the decoder's rate. Fails with RW_ERROR_INPUT on n 0 or
 * samples that are not finite, RW_ERROR_MEMORY. */
bool rw_ambi_binaural_decode (const RwAmbiBinaural *d, const double *ambi, size_t n,
                              double *left, double *right, RwError *err);
void rw_ambi_binaural_free (RwAmbiBinaural *d);
