/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-fcc.h — a small dense CPU reference solver for the FCC 13-point
 * scheme (rw-scheme-fcc.h), the compact 27-point schemes
 * (rw-scheme-cpt.h) and, for comparison, the 7-point Cartesian scheme
 * (rw-scheme.h's own node updates), in a rigid box. Used by the tests
 * that measure the schemes' dispersion and energy (issue #14);
 * not part of the simulate pipeline (nothing user-facing: bad arguments
 * give NULL, the callers are programs).
 *
 * Layout: a cubic array of n³ doubles per time level, index
 * i + n (j + n k), for both schemes. The FCC solver uses only the sites
 * with i + j + k even (or odd, rw_ref_sim_new_box) and leaves the others
 * at 0, so it holds twice the
 * memory its sites need (2 levels × 8 B × n³ = 32 B per FCC site in
 * fp64); a production layout would fold one axis (PFFDTD) to halve it.
 * Walls: the box's faces; a site sums over its inside neighbours only
 * (the rigid graph Laplacian, rw-scheme-fcc.h, with its wall links
 * found here by coordinates; for the 7-point scheme
 * rw_update_fv_f64 with β = 0; for the 27-point schemes the image
 * ghosts of rw-scheme-cpt.h, rigid walls half a spacing outside the
 * last sites, which for the 7-point stencil is the same wall). */
#pragma once

#include <stddef.h>

typedef enum {
  RW_REF_CART7 = 0,
  RW_REF_FCC13 = 1,
  /* The compact 27-point family (rw-scheme-cpt.h): its named members at
   * their (a, b), and any (a, b) through rw_ref_sim_new_cpt. */
  RW_REF_CPT27_IWB = 2,
  RW_REF_CPT27_IISO = 3,
  RW_REF_CPT27_IDWM = 4,
  RW_REF_CPT27 = 5,
} RwRefScheme;

typedef struct RwRefSim RwRefSim;

/* A box of n³ cubic points (n ≥ 3), all fields 0. l2 = λ² = (c k / h)²
 * with h the cubic spacing: the 7-point scheme takes only its limit
 * RW_LAMBDA2_F64 (1/3; the update in rw-scheme.h has it built in), the
 * FCC scheme any l2 > 0 (limit RW_FCC_LAMBDA2 = 1; above it the scheme is
 * unstable, which the tests use), the 27-point members any l2 > 0 (their
 * limits RW_CPT_*_LAMBDA2, rw_cpt_lambda2_max). NULL on bad arguments or
 * no memory (RW_REF_CPT27 only through rw_ref_sim_new_cpt). */
RwRefSim *rw_ref_sim_new (RwRefScheme scheme, int n, double l2);
/* A 27-point scheme of any (a, b) (rw-scheme-cpt.h), e.g. a = b = 0 for
 * the 7-point scheme through the 27-point code. */
RwRefSim *rw_ref_sim_new_cpt (double a, double b, int n, double l2);
/* A box of nx × ny × nz points (each ≥ 3); FCC sites where i + j + k ≡
 * parity (0 or 1) mod 2 (rw_ref_sim_new: a cube, parity 0). The box of
 * rw_grid_new_box_fcc (nx, ny, nz, h) is this one with parity 1 (its
 * inside cell (i, j, k) is grid cell (i + 1, j + 1, k + 1), a site when
 * the grid's x + y + z is even). */
RwRefSim *rw_ref_sim_new_box (RwRefScheme scheme, int nx, int ny, int nz, double l2, int parity);
void rw_ref_sim_free (RwRefSim *sim);

/* Whether (i, j, k) is a site of the scheme's lattice inside the box. */
int rw_ref_sim_is_site (const RwRefSim *sim, int i, int j, int k);

/* Soft source: adds s to the current p at site (i, j, k). */
void rw_ref_sim_add (RwRefSim *sim, int i, int j, int k, double s);
/* Sets the current and previous values at a site (initial conditions). */
void rw_ref_sim_set (RwRefSim *sim, int i, int j, int k, double p, double p_prev);
/* The current p at a site. */
double rw_ref_sim_get (const RwRefSim *sim, int i, int j, int k);
/* One time step. */
void rw_ref_sim_step (RwRefSim *sim);
/* The scheme's conserved energy between the current and the previous
 * level: Σ (p − p⁻)² + w λ² Σ_edges (Δp)(Δp⁻), w = 1 (7-point) or 1/4
 * (FCC), the edges between neighbouring sites inside the box (FCC: and
 * the wall links' terms, rw-scheme-fcc.h); for the
 * 27-point schemes each edge's own weight, the image edges included
 * (rw-scheme-cpt.h). */
double rw_ref_sim_energy (const RwRefSim *sim);
