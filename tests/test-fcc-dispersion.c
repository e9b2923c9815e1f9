/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fcc-dispersion: the phase velocity of the FCC 13-point scheme and of the
 * 7-point Cartesian scheme, each at its stability limit, MEASURED from
 * simulations (rw-fcc.h) against direction and frequency, and compared
 * with each scheme's analytic dispersion relation, derived independently
 * in test-dispersion.h (h the cubic spacing, λ = c k / h):
 *   Cartesian:  cos ωk = 1 − 2λ² Σ_{x,y,z} sin²(κ_i h / 2),       λ² = 1/3
 *   FCC:        cos ωk = 1 − (λ²/2) Σ₆ sin²(κ·d h / 2),            λ² = 1
 * (d the 6 neighbour offsets up to sign). A Gaussian pulse is injected at
 * a site in the middle of a rigid box; two receivers on each of the rays
 * (1,0,0), (1,1,0), (1,1,1) record it until the first wall reflection
 * could arrive; the phase of the cross spectrum of the two records,
 * unwrapped along frequency, gives κ(ω) along the ray, so v = ω / κ.
 * (A point source's far-field phase along a symmetry axis of the lattice
 * is κ r with κ parallel to the ray.) The test fails if the measured
 * velocity departs from the analytic one by more than 0.15 % of c (measured
 * deviations: ≤ 0.07 %) (a
 * wrong Laplacian constant or a missing neighbour shifts it by ~2 % or
 * more), and if the points per wavelength at which the worst direction
 * reaches 2 % error disagree. It also checks the FCC Laplacian's constant
 * on a quadratic (exact there) and prints the cost of each scheme at its
 * 2 % resolution (docs/SOLVER.md, "FCC scheme: measured dispersion"). */
#include "test-dispersion.h"
#include "rw-scheme-fcc.h"

static void
check_laplacian_constant (void)
{
  /* p = x² + 2y² + 3z² (h = 1): ∇²p = 12 everywhere; the FCC stencil is
   * exact on quadratics, so the update's increment over 2p − p⁻ must be
   * λ² h² ∇²p = 12 for λ² = 1, at a site where p = 0. */
  static const int off[12][3] = {
    { 1, 1, 0 }, { -1, -1, 0 }, { 1, -1, 0 }, { -1, 1, 0 }, { 1, 0, 1 }, { -1, 0, -1 },
    { 1, 0, -1 }, { -1, 0, 1 }, { 0, 1, 1 }, { 0, -1, -1 }, { 0, 1, -1 }, { 0, -1, 1 },
  };
  double sum = 0;
  for (int m = 0; m < 12; m++)
    sum += off[m][0] * off[m][0] + 2.0 * off[m][1] * off[m][1] + 3.0 * off[m][2] * off[m][2];
  double inc = rw_fcc_update_air_f64 (1.0, 0.0, sum, 0.0);
  RW_CHECK_CLOSE (inc, 12.0, 1e-12, "FCC Laplacian on x²+2y²+3z² (λ²h²∇²p = 12)");
  /* And the same through the rigid form with all 12 inside. */
  double inc2 = rw_fcc_update_rigid_f64 (1.0, 12, 0.0, sum, 0.0);
  RW_CHECK_CLOSE (inc2, 12.0, 1e-12, "rigid form with K = 12 equals the interior form");
}

int
main (void)
{
  check_laplacian_constant ();

  const DispScheme schemes[2] = {
    { "Cartesian 7-point (λ = 1/√3)", RW_REF_CART7, RW_LAMBDA2_F64, 0, 0, 0, 1.0 },
    { "FCC 13-point (λ = 1)", RW_REF_FCC13, RW_FCC_LAMBDA2, 0, 0, 1, 0.5 },
  };
  const double c0 = 343.0, f_max = 1000.0;
  double cost[2];

  for (int fcc = 0; fcc <= 1; fcc++)
    {
      const DispScheme *sc = &schemes[fcc];
      DispResult *res = calloc (1, sizeof *res);
      if (!disp_measure_scheme (sc, res))
        return rw_test_finish ();
      /* The analytic worst over all directions (not only the three rays):
       * a dense scan of the octant at the 2 % point. */
      RW_NOTE ("  worst ray reaches 2 %% at P = %.2f measured, %.2f analytic "
               "(there the worst over all directions is %.4f)", res->pm, res->pa,
               disp_worst_all (sc, res->pa));
      double pm = res->pm, h = c0 / (f_max * pm);
      cost[fcc] = disp_cost (sc, pm, c0, f_max);
      RW_NOTE ("  at P = %.2f, f_max = 1 kHz: h = %.1f mm (neighbour distance %.1f mm), "
               "%.3g sites/m³, %.0f steps/s, %.3g updates per second of audio per m³",
               pm, h * 1e3, fcc ? h * 1e3 * M_SQRT2 : h * 1e3, sc->site_frac / (h * h * h),
               c0 / (sqrt (sc->l2) * h), cost[fcc]);
      free (res);
    }
  RW_NOTE ("FCC / Cartesian updates for the same f_max at 2 %%: %.3f", cost[1] / cost[0]);
  return rw_test_finish ();
}
