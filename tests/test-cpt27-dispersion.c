/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cpt27-dispersion: the phase velocity of the compact explicit 27-point
 * schemes IWB, IISO and IDWM (rw-scheme-cpt.h; Kowalczyk & van Walstijn
 * 2011) MEASURED from simulations in the reference solver (rw-fcc.h), by
 * the method of fcc-dispersion (test-dispersion.h: Gaussian pulse, two
 * receivers on each of the rays (1,0,0), (1,1,0), (1,1,1), cross-spectrum
 * phase), against each scheme's analytic relation
 *   cos ωk = 1 − 2λ² [Σ s_i − 4a Σ_{i<j} s_i s_j + 16 b s_x s_y s_z],
 * s_i = sin²(κ_i h/2), derived independently in test-dispersion.h from the
 * family's operator, not from the solver's weights. Fails if measured and
 * analytic v/c differ by more than 0.15 % of c for P ≥ 4, if the points
 * per wavelength P at which the worst ray reaches 2 % disagree by more
 * than 3 %, if that P is off the value this analysis found (a broken
 * weight moves it: test the bound below), or if a dense scan of all
 * directions finds a direction worse than the three rays at that P by
 * more than 0.1 % of c. The 7-point and FCC schemes run alongside for the
 * cost comparison (node updates and bytes per second of audio per m³ at
 * 1 kHz), printed for docs/SOLVER.md §9 ("Compact 27-point schemes"). */
#include "test-dispersion.h"
#include "rw-scheme-cpt.h"
#include "rw-scheme-fcc.h"

#define NSCHEME 5

int
main (void)
{
  const DispScheme schemes[NSCHEME] = {
    { "Cartesian 7-point (λ = 1/√3)", RW_REF_CART7, RW_LAMBDA2_F64, 0, 0, 0, 1.0 },
    { "FCC 13-point (λ = 1)", RW_REF_FCC13, RW_FCC_LAMBDA2, 0, 0, 1, 0.5 },
    { "IWB 27-point (λ = 1)", RW_REF_CPT27_IWB, RW_CPT_IWB_LAMBDA2, RW_CPT_IWB_A, RW_CPT_IWB_B,
      0, 1.0 },
    { "IISO 27-point (λ = √(3/4))", RW_REF_CPT27_IISO, RW_CPT_IISO_LAMBDA2, RW_CPT_IISO_A,
      RW_CPT_IISO_B, 0, 1.0 },
    { "IDWM 27-point (λ = 1/√3)", RW_REF_CPT27_IDWM, RW_CPT_IDWM_LAMBDA2, RW_CPT_IDWM_A,
      RW_CPT_IDWM_B, 0, 1.0 },
  };
  /* The worst ray's 2 % point this analysis found (measured; the test
   * allows ±2 %: a weight changed by 1 % of its value moves it more). */
  const double p_expect[NSCHEME] = { 7.68, 5.71, 5.40, 4.94, 8.34 };
  const double c0 = 343.0, f_max = 1000.0;
  /* Memory traffic per update of a memory-bound kernel in fp32 with the
   * neighbours from cache: read p, read p⁻, write p⁺ (in place) = 3 words. */
  const double bytes_per_update = 12.0;
  double cost[NSCHEME], pused[NSCHEME];

  /* The stability limits of the family's formula are the parameters the
   * paper gives (IDWM: run below its limit, at the DWM's λ). */
  RW_CHECK_CLOSE (rw_cpt_lambda2_max (RW_CPT_IWB_A, RW_CPT_IWB_B), RW_CPT_IWB_LAMBDA2, 1e-15,
                  "IWB λ² limit");
  RW_CHECK_CLOSE (rw_cpt_lambda2_max (RW_CPT_IISO_A, RW_CPT_IISO_B), RW_CPT_IISO_LAMBDA2, 1e-15,
                  "IISO λ² limit");
  RW_CHECK (rw_cpt_lambda2_max (RW_CPT_IDWM_A, RW_CPT_IDWM_B) > RW_CPT_IDWM_LAMBDA2,
            "IDWM runs below its limit (λ² ≤ %.4f)",
            rw_cpt_lambda2_max (RW_CPT_IDWM_A, RW_CPT_IDWM_B));

  for (int s = 0; s < NSCHEME; s++)
    {
      const DispScheme *sc = &schemes[s];
      DispResult *res = calloc (1, sizeof *res);
      if (res == NULL || !disp_measure_scheme (sc, res))
        return rw_test_finish ();
      /* The worst over all directions, analytic: at the rays' 2 % point,
       * and the P where it reaches 2 % itself. */
      double w_all = disp_worst_all (sc, res->pa), p_all = disp_p_all (sc, 0.02);
      RW_NOTE ("  worst ray reaches 2 %% at P = %.2f measured, %.2f analytic; all directions "
               "(41 × 41 of the octant): %.4f there, 2 %% at P = %.2f", res->pm, res->pa, w_all,
               p_all);
      RW_CHECK (w_all < 0.021, "%s: no direction worse than the three rays by > 0.1 %% of c at "
                "P = %.2f (worst %.4f)", sc->name, res->pa, w_all);
      if (p_expect[s] > 0)
        RW_CHECK (fabs (res->pm - p_expect[s]) < 0.02 * p_expect[s],
                  "%s: P at 2 %% %.2f (expected %.2f)", sc->name, res->pm, p_expect[s]);
      /* Cost at the larger of the measured and the all-directions P. */
      pused[s] = fmax (res->pm, p_all);
      cost[s] = disp_cost (sc, pused[s], c0, f_max);
      double h = c0 / (f_max * pused[s]);
      RW_NOTE ("  at P = %.2f, f_max = 1 kHz: h = %.1f mm, %.3g sites/m³, %.0f steps/s, "
               "%.3g updates and %.3g B (fp32) per second of audio per m³",
               pused[s], h * 1e3, sc->site_frac / (h * h * h), c0 / (sqrt (sc->l2) * h), cost[s],
               cost[s] * bytes_per_update);
      free (res);
    }
  RW_NOTE ("per second of audio per m³ at 1 kHz, relative to FCC (updates = bytes at 12 B each):");
  for (int s = 0; s < NSCHEME; s++)
    RW_NOTE ("  %-30s P = %.2f  %.3g updates  %.3g B  ×%.2f", schemes[s].name, pused[s], cost[s],
             cost[s] * bytes_per_update, cost[s] / cost[1]);
  /* Other tolerances (analytic, all directions): whether the ranking
   * depends on the 2 % criterion. */
  const double tols[3] = { 0.01, 0.02, 0.05 };
  for (int t = 0; t < 3; t++)
    {
      double ct[NSCHEME], pt[NSCHEME];
      for (int s = 0; s < NSCHEME; s++)
        {
          pt[s] = disp_p_all (&schemes[s], tols[t]);
          ct[s] = disp_cost (&schemes[s], pt[s], c0, f_max);
        }
      RW_NOTE ("worst direction within %g %% (analytic): P and updates relative to FCC: "
               "7-pt %.2f ×%.2f, FCC %.2f, IWB %.2f ×%.2f, IISO %.2f ×%.2f, IDWM %.2f ×%.2f",
               100 * tols[t], pt[0], ct[0] / ct[1], pt[1], pt[2], ct[2] / ct[1], pt[3],
               ct[3] / ct[1], pt[4], ct[4] / ct[1]);
    }
  return rw_test_finish ();
}
