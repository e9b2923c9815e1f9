/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fcc-energy: the FCC 13-point scheme (rw-scheme-fcc.h) in a lossless
 * rigid box, fp64: its discrete energy
 *   E = Σ (p⁺ − p)² + (λ²/4) Σ_edges (Δp⁺)(Δp)
 * is conserved to rounding (and the 7-point reference's, rw-scheme.h) (checked < 1e-9 relative over 20 000 steps,
 * from random initial data that excites every mode, Nyquist included),
 * at λ² = 1 (the limit) and 0.5; the field stays bounded at the limit and
 * grows without bound just above it (λ = 1.05: the box's walls lower its
 * largest eigenvalue slightly below the infinite lattice's, so an
 * overshoot of a few percent is needed to see growth in a small box). */
#include "rw-test.h"
#include "rw-fcc.h"
#include "rw-scheme-fcc.h"

#include <math.h>

#define N 16

static RwRefSim *
random_box_of (RwRefScheme scheme, double l2, uint64_t seed)
{
  RwRefSim *s = rw_ref_sim_new (scheme, N, l2);
  RW_CHECK (s != NULL, "solver created");
  uint64_t st = seed;
  for (int k = 0; k < N; k++)
    for (int j = 0; j < N; j++)
      for (int i = 0; i < N; i++)
        rw_ref_sim_set (s, i, j, k, rw_test_gauss (&st), rw_test_gauss (&st));
  return s;
}

static RwRefSim *
random_box (double l2, uint64_t seed)
{
  return random_box_of (RW_REF_FCC13, l2, seed);
}

static double
max_abs (const RwRefSim *s)
{
  double m = 0;
  for (int k = 0; k < N; k++)
    for (int j = 0; j < N; j++)
      for (int i = 0; i < N; i++)
        m = fmax (m, fabs (rw_ref_sim_get (s, i, j, k)));
  return m;
}

static void
check_energy (RwRefScheme scheme, double l2)
{
  RwRefSim *s = random_box_of (scheme, l2, 12345);
  if (s == NULL)
    return;
  double e0 = rw_ref_sim_energy (s), drift = 0;
  for (int n = 1; n <= 20000; n++)
    {
      rw_ref_sim_step (s);
      if (n % 100 == 0)
        drift = fmax (drift, fabs (rw_ref_sim_energy (s) - e0) / e0);
    }
  RW_NOTE ("%s λ² = %g: E0 = %.6g, max |E − E0|/E0 over 20000 steps = %.3g",
           scheme == RW_REF_FCC13 ? "FCC" : "7-point", l2, e0, drift);
  RW_CHECK (e0 > 0 && drift < 1e-9, "λ² = %g: energy conserved (drift %.3g)", l2, drift);
  rw_ref_sim_free (s);
}

static double
growth (double l2, int steps)
{
  RwRefSim *s = random_box (l2, 777);
  if (s == NULL)
    return NAN;
  double m0 = max_abs (s), m = 0;
  for (int n = 0; n < steps; n++)
    {
      rw_ref_sim_step (s);
      m = fmax (m, max_abs (s));
    }
  rw_ref_sim_free (s);
  return m / m0;
}

int
main (void)
{
  check_energy (RW_REF_FCC13, RW_FCC_LAMBDA2);
  check_energy (RW_REF_FCC13, 0.5);
  /* The 7-point reference (rw-scheme.h's own updates, FV β = 0 at the
   * walls) with its energy: checks the reference solver's walls and
   * energy sum on the scheme whose conservation the solver tests already
   * establish. */
  check_energy (RW_REF_CART7, RW_LAMBDA2_F64);

  double g1 = growth (RW_FCC_LAMBDA2, 5000);
  /* 5 % above RW_FCC_LAMBDA2's λ: fails if that constant were not the
   * limit (e.g. 1/2, the limit's square in neighbour-distance units). */
  double g2 = growth (1.05 * 1.05 * RW_FCC_LAMBDA2, 2000);
  RW_NOTE ("max |p| / initial max |p|: λ = 1: %.3g over 5000 steps; λ = 1.05: %.3g over 2000",
           g1, g2);
  RW_CHECK (g1 < 100, "λ = 1 (the limit): bounded (growth %.3g)", g1);
  RW_CHECK (g2 > 1e6, "λ = 1.05: unstable (growth %.3g)", g2);
  return rw_test_finish ();
}
