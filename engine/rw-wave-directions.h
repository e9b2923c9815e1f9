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

/* The probe's cells, in this order (the cubic lattice). */
enum { RW_PROBE_CENTRE, RW_PROBE_XP, RW_PROBE_XM, RW_PROBE_YP, RW_PROBE_YM, RW_PROBE_ZP,
       RW_PROBE_ZM, RW_PROBE_N };
/* On the FCC lattice (issue #14) the first-order probe is the site and
 * its 12 nearest sites, in pairs (d, −d):
 * (1,1,0) (−1,−1,0) (1,−1,0) (−1,1,0) (1,0,1) (−1,0,−1) (1,0,−1) (−1,0,1)
 * (0,1,1) (0,−1,−1) (0,1,−1) (0,−1,1). Along an axis the four pairs with
 * a component there give the gradient: Σ of their (p(d) − p(−d)) d_a is
 * 8 h ∂p/∂x_a to second order (the other components cancel), so
 *   X[n] = (λ / 8) Σ_{m ≤ n} Σ_pairs d_x (p(d)[m] − p(−d)[m]),
 * which scales a wave along an axis by sin(κ h)/(κ h) as the cubic
 * probe's central difference does. */
#define RW_PROBE_N_FCC 13
#define RW_PROBE_FIRST_MAX RW_PROBE_N_FCC
/* The first-order probe's size on a lattice: 7 (cubic) or 13 (FCC). */
size_t rw_wave_first_n (RwLattice lattice);

/* The seven cells around `centre` (an inside cell): the centre and its
 * face neighbours ±x, ±y, ±z. Fails (RW_ERROR_INPUT) when one of them is
 * not inside the room (the receiver is within one cell of a wall):
 * the message gives the cell and the spacing. */
bool rw_wave_probe_cells (const RwGrid *g, size_t centre, size_t cells[RW_PROBE_N], RwError *err);

/* The probe of a receiver of ambisonic order `order` (1 … RW_WAVE_MAX_ORDER):
 * the grid cells whose pressures the encoder reads, each with its
 * offset from the centre in cells. cells[0] is the centre (offset 0),
 * cells[1 … 6] its face neighbours in rw_wave_probe_cells' order (FCC:
 * cells[1 … 12] its 12 nearest sites, RW_PROBE_N_FCC's order). Order
 * 1: those seven (13). Orders 2 and 3: the ball of the 257 cells within
 * RW_WAVE_PROBE_RADIUS = 4 cells of the centre (|offset| ≤ 4; FCC: the
 * 141 sites there, offsets of even parity). Fails
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
  RwLattice lattice;  /* the grid's (0, cubic, in a zeroed probe): its first
                       * rw_wave_first_n cells are the first-order probe */
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
 * rw_wave_probe_window and rw_wave_probe_at need for a centre on plane
 * z: RW_WAVE_PROBE_RADIUS + 3 planes on each side (the ball, its
 * stencils' planes beyond it and the plane whose K the window's
 * voxeliser needs), clipped to the grid. */
void rw_wave_probe_planes (size_t z, size_t nz, size_t *z0, size_t *z1);

/* The probe of a receiver at a point P between the nodes (rw-sim.c):
 * virtual node i is P + o_i, o_i the offsets of rw_wave_probe's probe of
 * the order on the grid's lattice (lattice vectors), and its pressure is
 * read as the receiver's omnidirectional IR is read at P: P's stencil
 * (rw_grid_interp) shifted by o_i, the same weights. So W (that IR),
 * orders 1 … 3 and the geometrical part all take P itself for the
 * centre, on either lattice, and not the node nearest to it (up to
 * √3/2 cells away on the cubic lattice and 1 cell on the FCC one: at
 * 1.5 m from a source at fmax 500 Hz a direction 3° (cubic) and 4.5°
 * (FCC) off, measured in sim-spatial). Fitting the nodes' own pressures
 * about P instead left a lattice's samples unsymmetric about the centre,
 * and the fit's regularisation then moved order 1 into orders 2 … 5 at
 * low frequencies (up to 7° off for a source rich in them, wave-encode-fdtd). */
typedef struct {
  RwWaveProbe probe;            /* the offsets o_i, the lattice; cells[i] the
                                 * node P's nearest node + o_i (whole grid) */
  int n_w;                      /* P's stencil: its members' weights */
  double w[RW_GRID_STENCIL_MAX];
  size_t n_cells;               /* the grid cells read (whole grid's indices) */
  size_t *cells;
  size_t *member;               /* probe.n × n_w: member j of virtual node i
                                 * is cells[member[i · n_w + j]] */
} RwWaveProbeAt;
/* The probe of `order` about the point whose stencil st is (the whole
 * grid's indices; st->nearest its nearest node), on g, the planes
 * [z0, z0 + g->nz) of the whole grid (0 and the grid itself, or
 * rw_wave_probe_planes' window for the nearest node's plane). Fails
 * (RW_ERROR_INPUT) as rw_wave_probe does, when a cell a virtual node
 * reads is not in the air or off the grid: the message gives the order,
 * the nearest node's cell, the reach in cells and metres and the
 * spacing. pa is overwritten, not freed (rw_wave_probe_at_clear frees a
 * probe it holds, and leaves it empty), and left empty on failure. */
bool rw_wave_probe_at (const RwGrid *g, size_t z0, const RwGridStencil *st, int order,
                       RwWaveProbeAt *pa, RwError *err);
void rw_wave_probe_at_clear (RwWaveProbeAt *pa);
/* The virtual nodes' signals out[i · n …] (pa->probe.n of them) from the
 * cells' signals rec[k] (pa->n_cells, n samples each): Σ_j w_j of their
 * members, in the stencil's order. */
void rw_wave_probe_at_mix (const RwWaveProbeAt *pa, const double *const *rec, size_t n,
                           double *out);
/* The order the wave part gives a receiver of `order`: `order` (1 … 3;
 * clamped). Each order is resolved from a frequency up (below it the
 * gain limit takes it down): with the default 7.75 points per
 * wavelength, order 1 within 2 % from 0.025 fmax, order 2 from
 * 0.075 fmax, order 3 from 0.125 fmax (docs/SPATIAL.md). */
int rw_wave_encoded_order (int order);
/* How many cells of air a receiver's probe of `order` (rw_wave_probe_at)
 * may need around its nearest node in every direction: the virtual
 * nodes' reach (1 for order 1, RW_WAVE_PROBE_RADIUS above) and their
 * stencils' beyond (1 cell on the cubic lattice, up to 2 on the FCC
 * one). */
int rw_wave_probe_radius (int order, RwLattice lattice);
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
