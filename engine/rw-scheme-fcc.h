/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-scheme-fcc.h — the node update of the face-centred cubic (FCC)
 * 13-point scheme (issue #14; Hamilton & Bilbao, "FDTD methods for 3-D
 * room acoustics simulation with high-order accuracy in space and time",
 * IEEE/ACM TASLP 25(11), 2017; PFFDTD's fdtd_fcc). Header only, compiled
 * as C or CUDA like rw-scheme.h (RW_HD from there), so that every backend
 * that adopts the scheme runs the same arithmetic.
 *
 * Lattice: the points (i, j, k) of the cubic grid of spacing h with
 * i + j + k even. Each has 12 nearest neighbours at distance h√2, the
 * offsets (±1,±1,0), (±1,0,±1), (0,±1,±1).
 *
 * Laplacian. Taylor expansion about a site, d one of the 12 offsets (in
 * units of h):  p(x + hd) − p(x) = h d·∇p + (h²/2) (d·∇)² p + O(h³).
 * Summed over the 12 offsets the odd terms cancel (the set is symmetric)
 * and so do the mixed second derivatives (Σ d_x d_y = 0), while
 * Σ d_x² = 8 (the 8 offsets with a non-zero x component); so
 *   Σ₁₂ (p_nbr − p) = (h²/2) · 8 ∇²p + O(h⁴) = 4 h² ∇²p + O(h⁴),
 *   ∇²p ≈ (1 / (4h²)) Σ₁₂ (p_nbr − p)
 * (the test fcc-dispersion checks it on a quadratic, where it is exact).
 *
 * Update. Centred second difference in time, λ = c k / h (h the cubic
 * spacing, k the time step):
 *   p⁺ = 2p − p⁻ + (λ²/4) Σ₁₂ (p_nbr − p) = (2 − 3λ²) p + (λ²/4) Σ₁₂ p_nbr − p⁻.
 *
 * Dispersion and stability. With p = exp(i(ωnk + κ·x)) and a = κ_x h,
 * b = κ_y h, c = κ_z h:
 *   cos ωk = 1 − (λ²/2) Σ₆ sin²(κ·d/2)
 *          = 1 − (λ²/2) [3 − cos a cos b − cos a cos c − cos b cos c],
 * over the 6 offsets up to sign. The bracket is at most 4 (cos a = −1,
 * cos b = cos c = 1: the product sum xy + xz + yz over the cube [−1, 1]³
 * is never below −1), so |cos ωk| ≤ 1 for every κ iff λ² ≤ 1:
 *   stability limit  λ = c k / h ≤ 1, i.e. c k / (h√2) ≤ 1/√2
 * in terms of the neighbour distance h√2 (the form the literature quotes).
 * At the limit λ = 1 the centre coefficient is −1:
 *   p⁺ = ¼ Σ₁₂ p_nbr − p − p⁻.
 * The test fcc-energy checks the limit numerically (bounded at 1, growing
 * at 1.02).
 *
 * Rigid walls (the reference solver rw-fcc.c): a site with K < 12 inside
 * neighbours sums over those only,
 *   p⁺ = 2p − p⁻ + (λ²/4) Σ_in (p_nbr − p),
 * a graph Laplacian as the Cartesian FV form with β = 0, so it conserves
 *   E = Σ_i (p_i⁺ − p_i)² + (λ²/4) Σ_edges (Δp⁺)(Δp)
 * (edges between inside neighbour sites i–j, Δp = p_i − p_j at the two
 * time levels; multiply the update by (p⁺ − p⁻) and sum: the edge terms
 * telescope, as for rw-scheme.h). Absorbing boundaries (β > 0, and the
 * frequency-dependent ones) need each boundary site's wall area on this
 * lattice and are not part of this first piece.
 */
#pragma once

#include "rw-scheme.h"

/* λ² at the stability limit, λ = c k / h with h the cubic spacing. 1 is
 * exact in every precision, so there is no rounding above the limit as
 * with the 7-point scheme's 1/3 (rw-scheme.h). */
#define RW_FCC_LAMBDA2 1.0

#define RW_DEFINE_SCHEME_FCC(T, SUFFIX)                                                   \
/* Interior site: sum12 = Σ of the 12 neighbours. */                                    \
RW_HD T                                                                                 \
rw_fcc_update_air_##SUFFIX (T l2, T p, T sum12, T p_prev)                               \
{                                                                                       \
  return (2 - 3 * l2) * p + (T) 0.25 * l2 * sum12 - p_prev;                             \
}                                                                                       \
                                                                                        \
/* Site with K inside neighbours (rigid wall): sum_in = Σ of those. */                 \
RW_HD T                                                                                 \
rw_fcc_update_rigid_##SUFFIX (T l2, int K, T p, T sum_in, T p_prev)                     \
{                                                                                       \
  return (2 - (T) 0.25 * l2 * (T) K) * p + (T) 0.25 * l2 * sum_in - p_prev;             \
}

RW_DEFINE_SCHEME_FCC (double, f64)
RW_DEFINE_SCHEME_FCC (float, f32)
