/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-scheme-cpt.h — the node update of the compact explicit 27-point
 * schemes on the cubic grid (issue #14; Kowalczyk & van Walstijn, "Room
 * acoustics simulation using 3-D compact explicit FDTD schemes", IEEE
 * TASLP 19(1), 2011, the family the seed thesis cites as its [16]).
 * Header only, compiled as C or CUDA like rw-scheme.h (RW_HD from there),
 * so that a future kernel runs the same arithmetic as the reference
 * solver (rw-fcc.c).
 *
 * Family. With δ_x² p = p(x+h) − 2p + p(x−h) (undivided) and the same
 * along y, z, the scheme is
 *   δ_t² p = λ² [ δ_x² + δ_y² + δ_z² + a (δ_x²δ_y² + δ_y²δ_z² + δ_z²δ_x²)
 *                 + b δ_x²δ_y²δ_z² ] p,            λ = c k / h,
 * the a and b terms being O(h⁴) corrections that spread the Laplacian over
 * the 27-point cube. Expanding the products (δ_x² = E_x − 2, E_x the sum
 * of the two x neighbours; E_xE_y the 4 side diagonals of the xy plane,
 * E_xE_yE_z the 8 corners):
 *   p⁺ = c0 p + w1 Σ₆ p_axial + w2 Σ₁₂ p_side + w3 Σ₈ p_corner − p⁻,
 *   w1 = λ² (1 − 4a + 4b),  w2 = λ² (a − 2b),  w3 = λ² b,
 *   c0 = 2 − 6 w1 − 12 w2 − 8 w3 = 2 − λ² (6 − 12a + 8b)
 * (Kowalczyk & van Walstijn's d1, d2, d3, d4). The weights sum to the
 * centre's, so the update is p⁺ = 2p − p⁻ + Σ₂₆ w_d (p_d − p): a weighted
 * graph Laplacian.
 *
 * Dispersion and stability. p = exp(i(ωnk + κ·x)), s_i = sin²(κ_i h/2):
 * δ_i² → −4 s_i, so
 *   sin²(ωk/2) = λ² F(s),   F = Σ s_i − 4a Σ_{i<j} s_i s_j + 16 b s_x s_y s_z,
 *   i.e. cos ωk = 1 − 2 λ² F.
 * F is multilinear in (s_x, s_y, s_z) ∈ [0, 1]³, so its extremes are at the
 * cube's vertices: F = 1 (one s = 1), 2 − 4a (two), 3 − 12a + 16b (three).
 * The scheme is stable iff 0 ≤ λ² F ≤ 1 everywhere:
 *   λ² ≤ 1 / max (1, 2 − 4a, 3 − 12a + 16b).
 * The members measured here (Kowalczyk & van Walstijn Table I; the same
 * values in J. Botts' eigenvalue tool for these schemes,
 * github.com/bottsj/Spectrum-GUI):
 *   IWB  (interpolated wideband)   a = 1/4,    b = 1/16,   λ = 1
 *        F = 1 − (1 − s_x)(1 − s_y)(1 − s_z): all three vertex values
 *        are 1, so every direction's cutoff is the Nyquist frequency
 *        ("wideband") and λ = 1 is the limit; exact along the axes.
 *   IISO (interpolated isotropic)  a = 1/6,    b = 0,      λ = √(3/4)
 *        (vertex values 1, 4/3, 1: the limit), the a that cancels the
 *        anisotropic part of the O(h²) error.
 *   IDWM (interpolated DWM)        a = 0.2034, b = 0.0438, λ = 1/√3
 *        Savioja & Välimäki's interpolated waveguide mesh written in this
 *        family; the paper runs it at the DWM's λ = 1/√3, below this
 *        family's limit for these a, b (λ² ≤ 1/1.2600 = 0.7937).
 *   SRL  a = b = 0, λ² = 1/3: the 7-point scheme (rw-scheme.h).
 * All have w1, w2, w3 ≥ 0.
 *
 * Rigid walls (the reference solver): image ghosts. A neighbour outside
 * the box [0, n)³ takes the value of the site it mirrors to across the
 * plane half a spacing outside the last site, i → −1 − i below 0 and
 * i → 2n − 1 − i above n − 1, per axis (rw_cpt_mirror). The stencil is
 * invariant under those reflections, which map sites to sites, so the box
 * field is exactly the infinite lattice's field of the source and its
 * images: rigid walls at −h/2 and (n − ½)h, as the 7-point FV form with
 * β = 0 (for the 7-point stencil the image of a missing neighbour is the
 * site itself, which contributes 0: the same update). For each ghost edge
 * x → m(x + d) the reflected offset −Rd (same class, same weight) leads
 * back from m(x + d) to x, so the mirrored operator is still a symmetric
 * graph Laplacian with weights ≥ 0 and the update conserves
 *   E = Σ_x (p_x − p⁻_x)² + ½ Σ_x Σ₂₆ w_d (p_x − p_y)(p⁻_x − p⁻_y),
 * y = the neighbour or its image (multiply by p⁺ − p⁻ and sum; the edge
 * terms telescope as for rw-scheme.h); E ≥ 0 up to the same λ limit, since
 * the mirrored box's modes are a subset of the lattice's (test
 * cpt27-energy). The interior update is used unchanged at the walls, only
 * the neighbour indices are mirrored.
 *
 * Cost. 27 reads of p (26 neighbours and the centre) and one of p⁻, one
 * write: with the neighbours from cache the same 3 words of memory
 * traffic per update as the 7-point scheme, on all n³ sites (FCC: half
 * the sites of its cubic grid), and 4 multiplies and 26 adds per update.
 */
#pragma once

#include "rw-scheme.h"

/* The members' parameters: a, b and λ² (Kowalczyk & van Walstijn 2011,
 * Table I). */
#define RW_CPT_IWB_A 0.25
#define RW_CPT_IWB_B 0.0625
#define RW_CPT_IWB_LAMBDA2 1.0
#define RW_CPT_IISO_A (1.0 / 6.0)
#define RW_CPT_IISO_B 0.0
#define RW_CPT_IISO_LAMBDA2 0.75
#define RW_CPT_IDWM_A 0.2034
#define RW_CPT_IDWM_B 0.0438
#define RW_CPT_IDWM_LAMBDA2 (1.0 / 3.0)

/* The update's constants for (a, b) at λ² = l2: w[0..2] the axial, side
 * and corner weights, *c0 the centre coefficient (header comment). In
 * double; a kernel converts them once. */
RW_HD void
rw_cpt_coefficients (double a, double b, double l2, double w[3], double *c0)
{
  w[0] = l2 * (1 - 4 * a + 4 * b);
  w[1] = l2 * (a - 2 * b);
  w[2] = l2 * b;
  *c0 = 2 - 6 * w[0] - 12 * w[1] - 8 * w[2];
}

/* The largest stable λ² for (a, b): 1 / max of F at the vertices. */
RW_HD double
rw_cpt_lambda2_max (double a, double b)
{
  double f2 = 2 - 4 * a, f3 = 3 - 12 * a + 16 * b;
  double m = f2 > 1 ? f2 : 1;
  return 1 / (f3 > m ? f3 : m);
}

/* The index a neighbour at i reads in a box of n sites along an axis:
 * itself inside, its image across the rigid wall half a spacing outside
 * the last site otherwise (one reflection; the stencil reaches one site
 * out, so n ≥ 1 suffices). */
RW_HD int
rw_cpt_mirror (int i, int n)
{
  return i < 0 ? -1 - i : (i >= n ? 2 * n - 1 - i : i);
}

#define RW_DEFINE_SCHEME_CPT(T, SUFFIX)                                                   \
/* Any site (walls: the sums over the mirrored neighbours): sum6, sum12,   */          \
/* sum8 the sums of p over the axial, side-diagonal and corner neighbours. */          \
RW_HD T                                                                                 \
rw_cpt_update_##SUFFIX (T c0, T w1, T w2, T w3, T p, T sum6, T sum12, T sum8, T p_prev) \
{                                                                                       \
  return c0 * p + w1 * sum6 + w2 * sum12 + w3 * sum8 - p_prev;                          \
}

RW_DEFINE_SCHEME_CPT (double, f64)
RW_DEFINE_SCHEME_CPT (float, f32)

/* The 26 neighbour offsets in the order every backend sums them, grouped
 * by class: 6 axial, 12 side diagonals, 8 corners (RW_CPT_CLASS_END gives
 * where each class ends). */
#define RW_CPT_N_NBR 26
#define RW_CPT_CLASS_END { 6, 18, 26 }
#define RW_CPT_NBR_OFFSETS                                                              \
  { { -1, 0, 0 }, { 1, 0, 0 }, { 0, -1, 0 }, { 0, 1, 0 }, { 0, 0, -1 }, { 0, 0, 1 },    \
    { -1, -1, 0 }, { 1, -1, 0 }, { -1, 1, 0 }, { 1, 1, 0 },                             \
    { -1, 0, -1 }, { 1, 0, -1 }, { -1, 0, 1 }, { 1, 0, 1 },                             \
    { 0, -1, -1 }, { 0, 1, -1 }, { 0, -1, 1 }, { 0, 1, 1 },                             \
    { -1, -1, -1 }, { 1, -1, -1 }, { -1, 1, -1 }, { 1, 1, -1 },                         \
    { -1, -1, 1 }, { 1, -1, 1 }, { -1, 1, 1 }, { 1, 1, 1 } }
