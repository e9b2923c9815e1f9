/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-wave-directions.h — the direction of arrival from the wave part
 * (issue #13, docs/SPATIAL.md): first-order B-format from a probe of
 * seven grid receivers, the receiver's cell and its six face neighbours;
 * orders 2 and 3 from the 257 cells within 4 cells (rw_wave_encode).
 *
 * Euler's equation, ρ ∂v/∂t = −∇p, gives the particle velocity from the
 * pressure gradient. A plane wave arriving from the unit direction u (it
 * travels along −u), p(x, t) = s(t + u·x / c), has ∇p = (u / c) s′ and
 * so −ρc v = u s = u p: the first-order components, in the AmbiX
 * convention (ACN order W, Y, Z, X; SN3D, so that a plane wave from u
 * gives W = p and (X, Y, Z) = u p), are
 *
 *   W = p_centre,   (X, Y, Z) = −ρc v = c ∫ ∇p dt.
 *
 * On the grid (spacing h, time step k, Courant number λ = c k / h) with
 * the central difference ∂p/∂x ≈ (p(x + h) − p(x − h)) / 2h and the
 * integral a running sum over steps:
 *
 *   X[n] = (λ / 2) Σ_{m ≤ n} (p_{x+}[m] − p_{x−}[m]),   likewise Y and Z.
 *
 * The central difference scales the gradient of a wave of wavenumber κ
 * along the axis by sin(κ h)/(κ h): 0.97 at fmax/2 with the default 7.75
 * points per wavelength at fmax. The three axes scale alike for a
 * direction along an axis or a diagonal; in between, the ratio of two
 * components is off by at most that much, a fraction of a degree. The
 * direction of arrival is that of the active intensity Σ W (X, Y, Z)
 * over a window (rw_wave_direction).
 *
 * Grid axes: x, y, z of the room's frame (the mesh's). */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include "rw-error.h"
#include "rw-voxel.h"

/* The probe's cells, in this order. */
enum { RW_PROBE_CENTRE, RW_PROBE_XP, RW_PROBE_XM, RW_PROBE_YP, RW_PROBE_YM, RW_PROBE_ZP,
       RW_PROBE_ZM, RW_PROBE_N };

/* The seven cells around `centre` (an inside cell): the centre and its
 * face neighbours ±x, ±y, ±z. Fails (RW_ERROR_INPUT) when one of them is
 * not inside the room (the receiver is within one cell of a wall):
 * the message gives the cell and the spacing. */
bool rw_wave_probe_cells (const RwGrid *g, size_t centre, size_t cells[RW_PROBE_N], RwError *err);

/* The probe of a receiver of ambisonic order `order` (1 … RW_WAVE_MAX_ORDER):
 * the grid cells whose pressures the encoder reads, each with its
 * offset from the centre in cells. cells[0] is the centre (offset 0),
 * cells[1 … 6] its face neighbours in rw_wave_probe_cells' order. Order
 * 1: those seven. Orders 2 and 3: the ball of the 257 cells within
 * RW_WAVE_PROBE_RADIUS = 4 cells of the centre (|offset| ≤ 4). Fails
 * (RW_ERROR_INPUT) on an order outside 1 … 3, as rw_wave_probe_cells,
 * and when a cell of the ball is not in the air or off the grid: the
 * message gives the order, the cell, the radius in cells and metres and
 * the spacing. */
#define RW_WAVE_MAX_ORDER 3
#define RW_WAVE_PROBE_MAX 257
/* Orders 2 and 3 (docs/SPATIAL.md, "The wave part's orders 2 and 3"):
 * per frequency a regularised least-squares fit of the plane-wave
 * expansion p(x_i, ω) = Σ_nm (2n + 1) iⁿ j_n(k r_i) Y_n^m(x̂_i) A_nm(ω)
 * (k = ω / c; FFT sign e^{−iωt}, so that a plane wave from u,
 * p = s(t + u·x / c), has A_nm = Y_n^m(u) S: the AmbiX convention, by
 * Jacobi–Anger and the SN3D addition theorem) to the ball's N = 257
 * pressures, orders 0 … RW_WAVE_FIT_ORDER = 5 (orders 4 and 5 are fitted
 * and dropped: on the lattice they would alias into orders 0 … 3), with
 * Tikhonov μ_n = 1 / (4 G_n²) on the normal equations averaged over the
 * N cells: G_n, the most an order's coefficients can amplify an error
 * pattern of its shape, is RW_WAVE_GAIN_LIMIT_DB at order 1 and
 * RW_WAVE_GAIN_STEP_DB more per order (40, 60, 80 dB at orders 1, 2, 3).
 * Above k h = RW_WAVE_KH_FULL the channels are faded out by a raised
 * cosine, zero from k h = RW_WAVE_KH_TOP (1.23 and 1.48 fmax at 7.75
 * points per wavelength; the wave part's band ends at fmax). */
#define RW_WAVE_PROBE_RADIUS 4
#define RW_WAVE_FIT_ORDER 5
#define RW_WAVE_GAIN_LIMIT_DB 40.0 /* order 1 */
#define RW_WAVE_GAIN_STEP_DB 20.0  /* more per order above */
#define RW_WAVE_KH_FULL 1.0
#define RW_WAVE_KH_TOP 1.2
typedef struct {
  size_t n;
  size_t cells[RW_WAVE_PROBE_MAX];
  int offset[RW_WAVE_PROBE_MAX][3];
} RwWaveProbe;
bool rw_wave_probe (const RwGrid *g, size_t centre, int order, RwWaveProbe *probe, RwError *err);
/* rw_wave_probe for ranks that never hold the whole grid (issue #15,
 * docs/CLUSTER.md): w is the planes [z0, z0 + w->nz) of the whole grid
 * (rw_voxelise_planes, lattice CUBIC), centre and the probe's cells are
 * in the whole grid's indices, and the messages give the whole grid's
 * cell. Bit for bit rw_wave_probe on the whole grid when the window is
 * rw_wave_probe_planes' for the centre's plane. */
bool rw_wave_probe_window (const RwGrid *w, size_t z0, size_t centre, int order, RwWaveProbe *probe,
                           RwError *err);
/* The window of planes [*z0, *z1) of a grid of nz planes that
 * rw_wave_probe_window needs for a centre on plane z: RW_WAVE_PROBE_RADIUS
 * + 1 planes on each side, clipped to the grid. */
void rw_wave_probe_planes (size_t z, size_t nz, size_t *z0, size_t *z1);
/* The order the wave part gives a receiver of `order`: `order` (1 … 3;
 * clamped). Each order is resolved from a frequency up (below it the
 * gain limit takes it down): with the default 7.75 points per
 * wavelength, order 1 within 2 % from 0.025 fmax, order 2 from
 * 0.075 fmax, order 3 from 0.125 fmax (docs/SPATIAL.md). */
int rw_wave_encoded_order (int order);
/* How many cells of air the probe of `order` needs around the receiver's
 * cell in every direction (1 for order 1, RW_WAVE_PROBE_RADIUS above). */
int rw_wave_probe_radius (int order);
/* (order + 1)² channels (ACN, SN3D), out[c · n + i], from the probe's
 * signals (probe->n of n samples each, calibrated pressure at rate fs;
 * spacing h, speed c): W is the centre's pressure, bit for bit. Order 1:
 * rw_wave_first_order with λ = c / (fs h) (the seven cells). Orders 2
 * and 3: orders 1 … order from the fit above (the probe must be
 * rw_wave_probe's ball for that order, else RW_ERROR_INPUT), over one FFT
 * of 2n points or more (the fit's filters are non-causal over ±R / c
 * and the padding keeps them from wrapping around); memory 16 bytes
 * × 257 × the bins up to k h = RW_WAVE_KH_TOP. Fails (RW_ERROR_INPUT) on
 * a bad order, spacing, speed or rate, no samples, a non-finite sample. */
bool rw_wave_encode (const RwWaveProbe *probe, const double *const *signals, size_t n, int order,
                     double h, double c, double fs, double *out, RwError *err);

/* First-order B-format, out[c · n + i] for channel c = 0 … 3 (ACN: W, Y,
 * Z, X; SN3D), from the probe's n samples each at the grid rate
 * (probe[RW_PROBE_CENTRE] … probe[RW_PROBE_ZM]) and the Courant number
 * λ = c k / h (k the samples' interval: at the grid rate the Courant
 * number, at another rate fs c / (fs h), which may exceed 1). Fails
 * (RW_ERROR_INPUT) on n = 0, a NULL probe, λ not positive or a
 * non-finite sample. */
bool rw_wave_first_order (const double *const probe[RW_PROBE_N], size_t n, double courant,
                          double *out, RwError *err);

/* The direction of arrival over samples [from, to) of a B-format signal
 * (4 × n as rw_wave_first_order writes it): the unit vector of the
 * active intensity Σ W (X, Y, Z) (towards where the sound comes from).
 * Returns its length over Σ W² (1 for a single plane wave, near 0 in a
 * diffuse field), or 0 (and dir zeroed) when the window holds no energy. */
double rw_wave_direction (const double *bformat, size_t n, size_t from, size_t to, double dir[3]);
