/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cpt27-energy: the compact 27-point schemes (rw-scheme-cpt.h) in the
 * reference solver's lossless rigid box (rw-fcc.h), fp64:
 *  - their discrete energy
 *      E = Σ (p − p⁻)² + ½ Σ_x Σ₂₆ w_d (p_x − p_y)(p⁻_x − p⁻_y)
 *    (image edges at the walls included) is conserved to rounding
 *    (< 1e-9 relative over 5000 steps from random initial data, which
 *    excites every mode of the box) for IWB and IISO at their limits and
 *    IDWM at its λ = 1/√3 and at its own limit;
 *  - from random data at rest, the field stays bounded at each limit (its
 *    largest value over steps 3000–5999 less than 1.5 × that over 0–2999:
 *    a root on the unit circle's double point would grow linearly, ×2)
 *    and grows without bound 2 % above it (λ × 1.02): the limits λ² ≤ 1 / max (1, 2 − 4a, 3 − 12a + 16b)
 *    are the true ones (a constant that were not the limit fails one of
 *    the two);
 *  - the walls are exact images: an 8³ box equals the corner of a 16³ box
 *    whose initial data is the 8³ data mirrored across the box's faces at
 *    i = 7.5 (the 16³ box updates those sites with the interior stencil);
 *  - with a = b = 0 and λ² = 1/3 the 27-point code reproduces the 7-point
 *    reference (rw-scheme.h's own air and FV β = 0 updates) to rounding,
 *    walls included. */
#include "rw-test.h"
#include "rw-fcc.h"
#include "rw-scheme-cpt.h"

#include <math.h>

#define N 16

typedef struct {
  const char *name;
  RwRefScheme ref;
  double l2;
} Member;

static void
fill_random (RwRefSim *s, int n, uint64_t seed)
{
  uint64_t st = seed;
  for (int k = 0; k < n; k++)
    for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++)
        rw_ref_sim_set (s, i, j, k, rw_test_gauss (&st), rw_test_gauss (&st));
}

static double
max_abs (const RwRefSim *s, int n)
{
  double m = 0;
  for (int k = 0; k < n; k++)
    for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++)
        m = fmax (m, fabs (rw_ref_sim_get (s, i, j, k)));
  return m;
}

static void
check_energy (const Member *mb, double l2)
{
  RwRefSim *s = rw_ref_sim_new (mb->ref, N, l2);
  RW_CHECK (s != NULL, "%s: solver created", mb->name);
  if (s == NULL)
    return;
  fill_random (s, N, 12345);
  double e0 = rw_ref_sim_energy (s), drift = 0;
  for (int n = 1; n <= 5000; n++)
    {
      rw_ref_sim_step (s);
      if (n % 100 == 0)
        drift = fmax (drift, fabs (rw_ref_sim_energy (s) - e0) / e0);
    }
  RW_NOTE ("%s λ² = %.4g: E0 = %.6g, max |E − E0|/E0 over 5000 steps = %.3g", mb->name, l2, e0,
           drift);
  RW_CHECK (e0 > 0 && drift < 1e-9, "%s λ² = %g: energy conserved (drift %.3g)", mb->name, l2,
            drift);
  rw_ref_sim_free (s);
}

/* max |p| / initial max |p| over steps [0, steps/2) into *first and over
 * [steps/2, steps) into *second, from random p at rest (p⁻ = p: no
 * uniform rate of change, which the rigid box's zero-frequency double
 * root would carry on linearly for ever). */
static void
growth (RwRefScheme ref, double l2, int steps, double *first, double *second)
{
  *first = *second = NAN;
  RwRefSim *s = rw_ref_sim_new (ref, N, l2);
  if (s == NULL)
    return;
  uint64_t st = 777;
  for (int k = 0; k < N; k++)
    for (int j = 0; j < N; j++)
      for (int i = 0; i < N; i++)
        {
          double p = rw_test_gauss (&st);
          rw_ref_sim_set (s, i, j, k, p, p);
        }
  double m0 = max_abs (s, N), m[2] = { 0, 0 };
  for (int n = 0; n < steps && isfinite (m[1]); n++)
    {
      rw_ref_sim_step (s);
      m[2 * n >= steps] = fmax (m[2 * n >= steps], max_abs (s, N));
    }
  rw_ref_sim_free (s);
  *first = m[0] / m0;
  *second = m[1] / m0;
}

/* max |p_a − p_b| over the n³ sites (the first n³ of b), and max |p_a|. */
static double
max_diff (const RwRefSim *a, const RwRefSim *b, int n, double *ref)
{
  double diff = 0;
  *ref = 0;
  for (int k = 0; k < n; k++)
    for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++)
        {
          double pa = rw_ref_sim_get (a, i, j, k);
          diff = fmax (diff, fabs (pa - rw_ref_sim_get (b, i, j, k)));
          *ref = fmax (*ref, fabs (pa));
        }
  return diff;
}

/* The 8³ box against the 16³ box holding its mirror images. */
static void
check_images (const Member *mb)
{
  const int n = 8, n2 = 16;
  RwRefSim *a = rw_ref_sim_new (mb->ref, n, mb->l2), *b = rw_ref_sim_new (mb->ref, n2, mb->l2);
  RW_CHECK (a != NULL && b != NULL, "%s: solvers created", mb->name);
  if (a == NULL || b == NULL)
    {
      rw_ref_sim_free (a);
      rw_ref_sim_free (b);
      return;
    }
  uint64_t st = 99;
  for (int k = 0; k < n; k++)
    for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++)
        {
          double p = rw_test_gauss (&st), pp = rw_test_gauss (&st);
          rw_ref_sim_set (a, i, j, k, p, pp);
          for (int c = 0; c < 8; c++)
            rw_ref_sim_set (b, c & 1 ? n2 - 1 - i : i, c & 2 ? n2 - 1 - j : j,
                            c & 4 ? n2 - 1 - k : k, p, pp);
        }
  for (int t = 0; t < 300; t++)
    {
      rw_ref_sim_step (a);
      rw_ref_sim_step (b);
    }
  double ref, diff = max_diff (a, b, n, &ref);
  RW_NOTE ("%s: 8³ box vs its images in a 16³ box after 300 steps: max |Δp| = %.3g (max |p| %.3g)",
           mb->name, diff, ref);
  RW_CHECK (ref > 0.1 && diff < 1e-10 * ref, "%s: rigid walls are exact images (%.3g)", mb->name,
            diff);
  rw_ref_sim_free (a);
  rw_ref_sim_free (b);
}

/* a = b = 0, λ² = 1/3 against the 7-point reference. */
static void
check_srl (void)
{
  RwRefSim *c = rw_ref_sim_new_cpt (0.0, 0.0, N, RW_LAMBDA2_F64);
  RwRefSim *r = rw_ref_sim_new (RW_REF_CART7, N, RW_LAMBDA2_F64);
  RW_CHECK (c != NULL && r != NULL, "SRL: solvers created");
  if (c == NULL || r == NULL)
    {
      rw_ref_sim_free (c);
      rw_ref_sim_free (r);
      return;
    }
  fill_random (c, N, 4242);
  fill_random (r, N, 4242);
  for (int t = 0; t < 1000; t++)
    {
      rw_ref_sim_step (c);
      rw_ref_sim_step (r);
    }
  double ref, diff = max_diff (r, c, N, &ref);
  RW_NOTE ("SRL (a = b = 0) through the 27-point code vs the 7-point reference after 1000 steps: "
           "max |Δp| = %.3g (max |p| %.3g)", diff, ref);
  RW_CHECK (ref > 0.1 && diff < 1e-9 * ref, "SRL equals the 7-point scheme (%.3g)", diff);
  rw_ref_sim_free (c);
  rw_ref_sim_free (r);
}

int
main (void)
{
  const Member members[3] = {
    { "IWB", RW_REF_CPT27_IWB, RW_CPT_IWB_LAMBDA2 },
    { "IISO", RW_REF_CPT27_IISO, RW_CPT_IISO_LAMBDA2 },
    { "IDWM", RW_REF_CPT27_IDWM, RW_CPT_IDWM_LAMBDA2 },
  };
  /* Each member's own limit (IDWM's is above the λ² = 1/3 it runs at). */
  const double lim[3] = {
    rw_cpt_lambda2_max (RW_CPT_IWB_A, RW_CPT_IWB_B),
    rw_cpt_lambda2_max (RW_CPT_IISO_A, RW_CPT_IISO_B),
    rw_cpt_lambda2_max (RW_CPT_IDWM_A, RW_CPT_IDWM_B),
  };
  for (int m = 0; m < 3; m++)
    {
      check_energy (&members[m], members[m].l2);
      if (fabs (lim[m] - members[m].l2) > 1e-12)
        check_energy (&members[m], lim[m]);
      double g1a, g1b, g2a, g2b;
      growth (members[m].ref, lim[m], 6000, &g1a, &g1b);
      growth (members[m].ref, 1.02 * 1.02 * lim[m], 2000, &g2a, &g2b);
      RW_NOTE ("%s: max |p| / initial max |p| from rest: at the limit λ² = %.4f: %.3g over "
               "steps 0–2999, %.3g over 3000–5999; λ × 1.02: %.3g over 1000–1999",
               members[m].name, lim[m], g1a, g1b, g2b);
      RW_CHECK (g1a < 1e3 && g1b < 1.5 * g1a, "%s at its limit: bounded (%.3g, then %.3g)",
                members[m].name, g1a, g1b);
      RW_CHECK (!(g2b < 1e6), "%s 2 %% above its limit: unstable (growth %.3g)", members[m].name,
                g2b);
      check_images (&members[m]);
    }
  check_srl ();
  return rw_test_finish ();
}
