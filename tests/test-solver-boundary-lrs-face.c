/* SPDX-License-Identifier: GPL-3.0-or-later */
/* solver-boundary-lrs-face: the generalised LRS update of rw-scheme.h is
 * Kowalczyk & van Walstijn's boundary as printed in
 * seeds/sheaffer-fazenda-kdwm-cuda.txt, term by term:
 *   eq. 9  (face,   +x missing),
 *   eq. 10 (edge,   +x and +y missing),
 *   eq. 11 (corner, +x, +y and +z missing),
 * with the paper's ψ/R (ψ = ρcλ, R a wall impedance) equal to λβ for a
 * specific admittance β, and R_x = R_y = R_z (one surface per node).
 * Every other face, edge and corner orientation (6 + 12 + 8) is checked
 * against the same equations mirrored. Random neighbour values, several
 * admittances; fp64 to 1e-14, fp32 to 1e-6 relative. */
#include "rw-test.h"

#include <stdlib.h>
#include "rw-scheme.h"

static double
rnd (void)
{
  return 2.0 * rand () / (double) RAND_MAX - 1.0;
}

/* Eq. 9: p_B⁺ = [λ²(2p_{i−1} + p_{j−1} + p_{j+1} + p_{k−1} + p_{k+1})
 *               + 2(1 − 3λ²) p_B + (ψ/R − 1) p_B⁻] / (ψ/R + 1) */
static double
eq9 (const double n[6], double p, double pm, double lb)
{
  const double l2 = 1.0 / 3.0;
  return (l2 * (2 * n[RW_NBR_XM] + n[RW_NBR_YM] + n[RW_NBR_YP] + n[RW_NBR_ZM] + n[RW_NBR_ZP])
          + 2 * (1 - 3 * l2) * p + (lb - 1) * pm) / (lb + 1);
}

/* Eq. 10: [λ²(2p_{i−1} + 2p_{j−1} + p_{k−1} + p_{k+1}) + 2(1 − 3λ²) p_B
 *          + (ψ/R_x + ψ/R_y − 1) p_B⁻] / (ψ/R_x + ψ/R_y + 1) */
static double
eq10 (const double n[6], double p, double pm, double lb)
{
  const double l2 = 1.0 / 3.0;
  return (l2 * (2 * n[RW_NBR_XM] + 2 * n[RW_NBR_YM] + n[RW_NBR_ZM] + n[RW_NBR_ZP])
          + 2 * (1 - 3 * l2) * p + (lb + lb - 1) * pm) / (lb + lb + 1);
}

/* Eq. 11: [λ²(2p_{i−1} + 2p_{j−1} + 2p_{k−1}) + 2(1 − 3λ²) p_B
 *          + (ψ/R_x + ψ/R_y + ψ/R_z − 1) p_B⁻] / (ψ/R_x + ψ/R_y + ψ/R_z + 1) */
static double
eq11 (const double n[6], double p, double pm, double lb)
{
  const double l2 = 1.0 / 3.0;
  return (l2 * (2 * n[RW_NBR_XM] + 2 * n[RW_NBR_YM] + 2 * n[RW_NBR_ZM])
          + 2 * (1 - 3 * l2) * p + (lb + lb + lb - 1) * pm) / (lb + lb + lb + 1);
}

/* The paper's equations in any orientation: mirror the neighbours so that
 * every missing side becomes a +side, then apply eq. 9, 10 or 11. */
static double
paper (int missing, const double n[6], double p, double pm, double lb)
{
  double m[6];
  int count = 0;
  for (int a = 0; a < 3; a++)
    {
      int lo = 2 * a, hi = 2 * a + 1;
      bool flip = missing & (1 << lo);
      m[lo] = flip ? n[hi] : n[lo];
      m[hi] = flip ? n[lo] : n[hi];
      count += (missing & (3 << lo)) != 0;
    }
  /* eq. 9/10 name the missing axes x then y: rotate the axes so that the
   * missing ones come first (the sum is symmetric in the rest). */
  double r[6];
  int order[3], k = 0;
  for (int a = 0; a < 3; a++)
    if (missing & (3 << (2 * a)))
      order[k++] = a;
  for (int a = 0; a < 3; a++)
    if (!(missing & (3 << (2 * a))))
      order[k++] = a;
  for (int a = 0; a < 3; a++)
    {
      r[2 * a] = m[2 * order[a]];
      r[2 * a + 1] = m[2 * order[a] + 1];
    }
  return count == 1 ? eq9 (r, p, pm, lb) : count == 2 ? eq10 (r, p, pm, lb) : eq11 (r, p, pm, lb);
}

int
main (void)
{
  srand (12345);
  static const double Rs[] = { 1.0, 0.9, 0.5, 0.0, -0.5 };
  int checked[4] = { 0 };
  for (int missing = 1; missing < 64; missing++)
    {
      /* A face, an edge or a corner: at most one missing side per axis. */
      bool ok = true;
      int count = 0;
      for (int a = 0; a < 3; a++)
        {
          int bits = (missing >> (2 * a)) & 3;
          ok = ok && bits != 3;
          count += bits != 0;
        }
      if (!ok)
        continue;
      int in_mask = 63 & ~missing;
      for (size_t ri = 0; ri < sizeof Rs / sizeof Rs[0]; ri++)
        for (int trial = 0; trial < 20; trial++)
          {
            double beta = (1 - Rs[ri]) / (1 + Rs[ri]);
            double lb = (1.0 / sqrt (3.0)) * beta;
            double n[6], p = rnd (), pm = rnd ();
            float nf[6];
            for (int d = 0; d < 6; d++)
              {
                n[d] = rnd ();
                nf[d] = (float) n[d];
              }
            double want = paper (missing, n, p, pm, lb);
            double got = rw_update_lrs_f64 (in_mask, p, n, pm, beta);
            float got32 = rw_update_lrs_f32 (in_mask, (float) p, nf, (float) pm, (float) beta);
            RW_CHECK (fabs (got - want) <= 1e-14 * (1 + fabs (want)),
                      "missing 0x%02x R=%g: rw_update_lrs_f64 %.17g, eq. %d %.17g",
                      missing, Rs[ri], got, 8 + count, want);
            RW_CHECK (fabs (got32 - want) <= 1e-6 * (1 + fabs (want)),
                      "missing 0x%02x R=%g: rw_update_lrs_f32 %.9g, eq. %d %.9g",
                      missing, Rs[ri], (double) got32, 8 + count, want);
          }
      checked[count]++;
    }
  RW_NOTE ("orientations checked: %d faces (eq. 9), %d edges (eq. 10), %d corners (eq. 11)",
           checked[1], checked[2], checked[3]);
  RW_CHECK (checked[1] == 6 && checked[2] == 12 && checked[3] == 8, "orientation count");
  return rw_test_finish ();
}
