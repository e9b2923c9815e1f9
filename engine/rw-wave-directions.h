/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-wave-directions.h — the direction of arrival from the wave part
 * (issue #13, docs/SPATIAL.md): first-order B-format from a probe of
 * seven grid receivers, the receiver's cell and its six face neighbours.
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

/* First-order B-format, out[c · n + i] for channel c = 0 … 3 (ACN: W, Y,
 * Z, X; SN3D), from the probe's n samples each at the grid rate
 * (probe[RW_PROBE_CENTRE] … probe[RW_PROBE_ZM]) and the Courant number
 * λ = c k / h. Fails (RW_ERROR_INPUT) on n = 0, a NULL probe, a Courant
 * number outside (0, 1] or a non-finite sample. */
bool rw_wave_first_order (const double *const probe[RW_PROBE_N], size_t n, double courant,
                          double *out, RwError *err);

/* The direction of arrival over samples [from, to) of a B-format signal
 * (4 × n as rw_wave_first_order writes it): the unit vector of the
 * active intensity Σ W (X, Y, Z) (towards where the sound comes from).
 * Returns its length over Σ W² (1 for a single plane wave, near 0 in a
 * diffuse field), or 0 (and dir zeroed) when the window holds no energy. */
double rw_wave_direction (const double *bformat, size_t n, size_t from, size_t to, double dir[3]);
