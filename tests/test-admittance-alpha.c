/* SPDX-License-Identifier: GPL-3.0-or-later */
/* admittance-alpha: the absorption of a surface of admittance Y.
 * - Random incidence (Paris' integral, by quadrature) against the closed
 *   form rw_statistical_absorption(ζ) for real Y = 1/ζ, ζ from 0.01 to
 *   1e5, to 1e−9; and for complex Y against the integral done by hand:
 *   α_st = 8G [1 − G ln(((1+G)² + B²)/(G² + B²))
 *              + (G² − B²)/B (atan((1+G)/B) − atan(G/B))],
 *   the antiderivative of 8 μ² G / ((μ + G)² + B²) (Kuttruff, Room
 *   Acoustics, eq. 2.42 in admittance form), to 1e−9.
 * - Normal incidence 4G/|1 + Y|², i.e. 1 − |R|² with R = (1 − Y)/(1 + Y).
 * - rw_admittance_eval of a branch against its impedance D iω + E + F/(iω)
 *   written out, its resonance at √(F/D) where Y = 1/E.
 * - Band means: a frequency-independent surface has the same α in every
 *   band; a resonator's band mean equals the mean of α over log-spaced
 *   points (here 4096, by a second loop).
 * - rw_admittance_bands_for_fmax: the bands with centre ≤ fmax, plus one,
 *   between 2 and 8. */
#include "rw-admittance.h"
#include "rw-materials.h"
#include "rw-test.h"

#include <complex.h>

static double
alpha_closed_form (double G, double B)
{
  if (B == 0)
    return rw_statistical_absorption (1.0 / G);
  /* atan((1+G)/B) − atan(G/B) written as one atan: the difference of two
   * angles near π/2 would lose all digits for |B| ≪ G. */
  return 8.0 * G * (1.0 - G * log (((1 + G) * (1 + G) + B * B) / (G * G + B * B))
                    + (G * G - B * B) / B * atan (B / (B * B + G * (1 + G))));
}

int
main (void)
{
  /* Real Y against Kuttruff's closed form. */
  double worst = 0;
  for (int i = 0; i <= 70; i++)
    {
      const double zeta = pow (10.0, -2.0 + i / 10.0);
      const double e = fabs (rw_alpha_random (1.0 / zeta) - rw_statistical_absorption (zeta));
      worst = fmax (worst, e);
      RW_CHECK (e <= 1e-9, "ζ = %g: α_st %.15g vs closed form %.15g", zeta,
                rw_alpha_random (1.0 / zeta), rw_statistical_absorption (zeta));
    }
  RW_NOTE ("real Y, ζ 0.01 … 1e5: largest |quadrature − closed form| = %.3g", worst);
  RW_CHECK_CLOSE (rw_alpha_random (1.0 / 1.5671), 0.951, 0.0005, "α_st at ζ ≈ 1.567 (the passive maximum)");
  RW_CHECK (rw_alpha_random (0) == 0, "Y = 0 absorbs nothing");

  /* Complex Y against the hand-done integral. */
  worst = 0;
  const double Gs[] = { 1e-4, 0.003, 0.05, 0.3, 0.64, 1.0, 4.0, 50.0 };
  const double Bs[] = { -20.0, -1.0, -0.2, -0.01, 1e-3, 0.05, 0.7, 3.0, 100.0 };
  for (size_t i = 0; i < sizeof Gs / sizeof Gs[0]; i++)
    for (size_t j = 0; j < sizeof Bs / sizeof Bs[0]; j++)
      {
        const double G = Gs[i], B = Bs[j];
        const double q = rw_alpha_random (G + I * B), c = alpha_closed_form (G, B);
        worst = fmax (worst, fabs (q - c));
        RW_CHECK (fabs (q - c) <= 1e-9, "Y = %g%+gi: α_st %.15g vs %.15g", G, B, q, c);
      }
  RW_NOTE ("complex Y: largest |quadrature − closed form| = %.3g", worst);
  /* A reactance only lowers the absorption of a given conductance. */
  RW_CHECK (rw_alpha_random (0.2 + 0.3 * I) < rw_alpha_random (0.2), "reactance absorbs less");

  /* Normal incidence. */
  const double complex Ys[] = { 0.0, 0.1, 1.0, 0.3 - 0.4 * I, 2.0 + 5.0 * I };
  for (size_t i = 0; i < sizeof Ys / sizeof Ys[0]; i++)
    {
      const double complex R = (1.0 - Ys[i]) / (1.0 + Ys[i]);
      RW_CHECK_CLOSE (rw_alpha_normal (Ys[i]), 1.0 - creal (R * conj (R)), 1e-14, "α_n = 1 − |R|²");
    }
  RW_CHECK_CLOSE (rw_alpha_normal (1.0), 1.0, 0.0, "a matched surface absorbs all at normal incidence");

  /* Evaluation of a branch. */
  RwAdmittance a = { .Y0 = 0.01, .n_branches = 1, .branch = { { .D = 2e-4, .E = 4.0, .F = 3e3 } } };
  RwError err = { 0 };
  RW_CHECK (rw_admittance_check (&a, &err), "check: %s", err.message);
  for (double f = 20; f < 20000; f *= 1.7)
    {
      const double complex s = 2 * M_PI * f * I;
      const double complex want = 0.01 + 1.0 / (2e-4 * s + 4.0 + 3e3 / s);
      RW_CHECK (cabs (rw_admittance_eval (&a, f) - want) <= 1e-14, "Y(%g Hz)", f);
    }
  const double f0 = sqrt (3e3 / 2e-4) / (2 * M_PI);
  RW_CHECK (cabs (rw_admittance_eval (&a, f0) - (0.01 + 0.25)) <= 1e-12, "Y at resonance = Y0 + 1/E");
  RW_CHECK (cabs (rw_admittance_eval (&a, 0) - 0.01) == 0, "a stiffness blocks DC");

  /* Band means. */
  RwAdmittance flat = rw_admittance_real (0.6);
  for (int b = 0; b < RW_ADM_N_BANDS; b++)
    {
      RW_CHECK_CLOSE (rw_admittance_band_alpha (&flat, b, true),
                      rw_statistical_alpha_from_reflection (0.6), 1e-9, "flat surface, random");
      RW_CHECK_CLOSE (rw_admittance_band_alpha (&flat, b, false), 1 - 0.36, 1e-12, "flat surface, normal");
    }
  for (int b = 0; b < RW_ADM_N_BANDS; b++)
    {
      const double fc = rw_octave_centres_hz[b];
      double sr = 0, sn = 0;
      for (int k = 0; k < 4096; k++)
        {
          const double complex Y = rw_admittance_eval (&a, fc * exp2 ((k + 0.5) / 4096 - 0.5));
          sr += rw_alpha_random (Y);
          sn += rw_alpha_normal (Y);
        }
      /* The 24-point midpoint rule against 4096 points: the resonance at
       * 616 Hz with Q ≈ 0.19 is smooth on a band's scale. */
      RW_CHECK_CLOSE (rw_admittance_band_alpha (&a, b, true), sr / 4096, 2e-4, "band mean, random");
      RW_CHECK_CLOSE (rw_admittance_band_alpha (&a, b, false), sn / 4096, 2e-4, "band mean, normal");
    }
  RW_CHECK (isnan (rw_admittance_band_alpha (&a, 8, true)), "band 8 does not exist");

  /* Bands for fmax. */
  RW_CHECK (rw_admittance_bands_for_fmax (10) == 2, "10 Hz → 2 bands");
  RW_CHECK (rw_admittance_bands_for_fmax (63) == 2, "63 Hz → 2");
  RW_CHECK (rw_admittance_bands_for_fmax (500) == 5, "500 Hz → 5");
  RW_CHECK (rw_admittance_bands_for_fmax (999) == 5, "999 Hz → 5");
  RW_CHECK (rw_admittance_bands_for_fmax (1000) == 6, "1 kHz → 6");
  RW_CHECK (rw_admittance_bands_for_fmax (4000) == 8, "4 kHz → 8");
  RW_CHECK (rw_admittance_bands_for_fmax (20000) == 8, "20 kHz → 8");
  return rw_test_finish ();
}
