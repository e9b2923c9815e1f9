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
 * telescope, as for rw-scheme.h).
 *
 * Finite-volume boundary (the 7-point FV form of rw-scheme.h carried to
 * this lattice). A site's cell is the Voronoi cell of the lattice, a
 * rhombic dodecahedron of volume V = 2h³ with 12 faces of area h²/√2, one
 * across each link (length d = h√2); c² (A/d)/V = c²/(4h²), the stencil's
 * constant above. A boundary site has K < 12 inside neighbours and an
 * absorbing area S (in h²) on its missing faces:
 *   V p_tt = c² (A/d) Σ_in (p_nbr − p) − c S h² Y p_t
 *   ⇒ p⁺ − 2p + p⁻ = (λ²/4) Σ_in (p_nbr − p) − (λ S Y / 4)(p⁺ − p⁻) − …
 * i.e. rw-scheme.h's FV update with λ² → λ²/4 and λ·S → (λ/2)·S, the
 * branches included (their equation does not involve the lattice); the
 * energy balance carries over with the same substitution, so the scheme
 * is passive for every passive material. rw_fcc_update_boundary_* call
 * rw-scheme.h's one body with those constants.
 *   Staircase area: a missing face across link d̂ (unit) of a wall with
 * unit normal n counts (1/√2)|n·d̂| h² — the face area times the cosine,
 * as the 7-point FV counts |n_d| h² per face. Over a plane of any
 * orientation this gives exactly its area on average: the links of
 * direction d̂ crossing a unit area number (1/(2h³))·h√2·|n·d̂|, and
 * Σ over the 6 link directions of |n·d̂|² is 2, so
 * (1/(2h³))·h√2·(h²/√2)·2 = 1. On a wall square to an axis every missing
 * face counts h²/2 (|n·d̂| = 1/√2); a link crossing two walls (at an edge)
 * counts both.
 *
 * Wall links (rw_fcc_wall_*). The FV form above drops a missing link's
 * flux whole. Under a floor the missing links of a boundary site are the
 * four that cross it, (±1, 0, −1) and (0, ±1, −1): each also has a
 * component along the floor, so the wall layer keeps 6 of the 8 of each
 * tangential Σ d² that the stencil's Laplacian needs — a layer one site
 * thick in which grazing waves run slow. A rigid box's modes come out low
 * by about (h/Ly + h/Lz)/4 for a mode along x (−2 … −4 % at 30 cells a
 * side), and the slow layer draws grazing sound to the walls: with
 * absorbing walls the decay per band was off by up to 20 % against the
 * 7-point scheme's, at any h (docs/SOLVER.md §9). So each outside site o
 * that boundary sites link to stands for the mean x̄_o of p over its
 * inside neighbours B(o) — the sites that link to it; under a floor the
 * four around the hole above o, which is o's mirror image in the floor —
 * and a missing link's term is W (x̄_o − p) instead of nothing:
 *   Σ_in (p_nbr − p) + W Σ_o (x̄_o − p)     (o with |B(o)| ≥ 2),
 * i.e. the FV update with K → K + W·n_o and Σ_in → Σ_in + W Σ_o x̄_o
 * (rw_fcc_wall_K, rw_fcc_wall_sum). W = ½: under a floor the four
 * entries of a site add, by Taylor expansion, (W/4)·16 = 4W to each
 * tangential Σ d² — the 2 the missing links lack — and nothing normal
 * (the wall's ∂p/∂n = 0 stays as the FV form has it). On B(o) the term
 * is the Laplacian of a clique of weight W/|B(o)|, symmetric and positive
 * semi-definite: the scheme conserves E plus
 *   (λ²/4) W Σ_o Σ_{i∈B(o)} (p_i − x̄_o)(p⁻_i − x̄⁻_o),
 * and is stable while λ²·μ_max ≤ 16, μ_max the largest eigenvalue of the
 * graph Laplacian; measured (tests/fcc-wall-eigen.py) on a box, a sphere, a rotated
 * box, an L-room, a slope and a room with a thin wall: 15.87 … 15.93 with
 * the wall links, the FV form's own to 2e-3. Rigid-box modes then come
 * out within 0.1 % at 30 cells a side (solver-fcc-modes-box), rigid-
 * sphere modes (l = 1, 2) within 0.7 % at 26 cells across (they were 2 … 3.5 % low).
 * A site's entries are its missing links in RW_FCC_NBR_OFFSETS order, the
 * members of each in that order around o (rw_fcc_wall_entries); every
 * backend sums a member's p in double, divides by |B(o)|, and adds the
 * means in entry order. The members lie up to 2 planes away in z, so a
 * backend that runs several steps in one sweep must allow for it (the
 * CPU backend runs FCC grids one step a sweep).
 *
 * Production layout (both backends): the sites folded along x. A site
 * (x, y, z) of the grid's cubic array (x + y + z even) is stored at
 *   xf = x >> 1 in row (y, z) of nxf = (nx + 1)/2 entries,
 *   index xf + nxf·(y + ny·z),
 * so every stored entry is a site and a row holds sites of one parity
 * P = (y + z) & 1 (x = 2·xf + P). A site's neighbours with dx = 0 are at
 * the same xf in rows (y ± 1, z ± 1); those with dx = ±1 are in rows of
 * the other parity at xf + P − 1 (dx = −1) and xf + P (dx = +1): one
 * offset per row, uniform along it (rw_fcc_nbr_offset).
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
/* Site with K inside neighbours (rigid wall): sum_in = Σ of those; with \
 * wall entries, K and sum_in as rw_fcc_wall_K and rw_fcc_wall_sum give.   \
 */                                                                                     \
RW_HD T                                                                                 \
rw_fcc_update_rigid_##SUFFIX (T l2, T K, T p, T sum_in, T p_prev)                       \
{                                                                                       \
  return (2 - (T) 0.25 * l2 * K) * p + (T) 0.25 * l2 * sum_in - p_prev;                 \
}

RW_DEFINE_SCHEME_FCC (double, f64)
RW_DEFINE_SCHEME_FCC (float, f32)

/* The 12 neighbour offsets in the order every backend sums them (the sum
 * of p over the 12, outside sites holding 0, in this order: CPU and CUDA
 * fp64 agree bit for bit only with one order). Grouped by plane: z − 1,
 * z, z + 1. */
#define RW_FCC_N_NBR 12
#define RW_FCC_NBR_OFFSETS                                                              \
  { { 0, -1, -1 }, { 0, 1, -1 }, { -1, 0, -1 }, { 1, 0, -1 },                           \
    { -1, -1, 0 }, { 1, -1, 0 }, { -1, 1, 0 }, { 1, 1, 0 },                             \
    { 0, -1, 1 }, { 0, 1, 1 }, { -1, 0, 1 }, { 1, 0, 1 } }

/* One offset of each ± pair of the 12 (the first non-zero component
 * positive): every edge of the lattice once, from the site it starts at
 * (the energy's sum over edges). */
#define RW_FCC_FWD_OFFSETS                                                              \
  { { 1, -1, 0 }, { 1, 1, 0 }, { 1, 0, -1 }, { 1, 0, 1 }, { 0, 1, -1 }, { 0, 1, 1 } }

/* The folded layout (above): the entries of a row, and the index of site
 * (x, y, z) (x + y + z even). */
RW_HD size_t
rw_fcc_row_len (size_t nx)
{
  return (nx + 1) / 2;
}

RW_HD size_t
rw_fcc_fold_index (size_t nxf, size_t ny, size_t x, size_t y, size_t z)
{
  return (x >> 1) + nxf * (y + ny * z);
}

/* The folded x offset of the neighbour at dx ∈ {−1, 0, 1} from a site in
 * a row of parity P = (y + z) & 1. */
RW_HD int
rw_fcc_nbr_offset (int dx, int P)
{
  return dx == 0 ? 0 : (dx < 0 ? P - 1 : P);
}

/* The boundary site (K < 12 inside neighbours, absorbing area S in h²) at
 * λ² = l2 — K and sum_in those of its wall entries (rw_fcc_wall_K,
 * rw_fcc_wall_sum: K + ½ n, Σ_in + ½ Σ x̄) — with M branches (rw-scheme.h's rw_update_fv_branches_*, whose
 * body it shares; M = 0 and beta_sum = β for a frequency-independent
 * surface, β = 0 for a rigid one). Arithmetic in double for every
 * precision, the states in ST. */
#define RW_DEFINE_FCC_BOUNDARY(ST, SUFFIX)                                                 \
RW_HD double                                                                            \
rw_fcc_update_boundary_##SUFFIX (double l2, double K, double S, double p, double sum_in,  \
                                 double p_prev, double beta_sum, int M, const double *coef, \
                                 ST *v, ST *q, size_t stride)                           \
{                                                                                       \
  return rw_fv_branches_core_##SUFFIX (0.5 * sqrt (l2), 0.25 * l2, K, S, p, sum_in,      \
                                       p_prev, beta_sum, M, coef, v, q, stride);        \
}

/* The weight of a wall entry (header comment, "Wall links"). */
#define RW_FCC_WALL_W 0.5

/* K and the neighbour sum of a boundary site with n wall entries whose
 * means x̄ add up to `means` (in entry order). */
RW_HD double
rw_fcc_wall_K (int K, int n)
{
  return (double) K + RW_FCC_WALL_W * (double) n;
}

RW_HD double
rw_fcc_wall_sum (double sum_in, double means)
{
  return sum_in + RW_FCC_WALL_W * means;
}

RW_DEFINE_FCC_BOUNDARY (double, f64)
RW_DEFINE_FCC_BOUNDARY (float, f32)
