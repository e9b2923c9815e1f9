/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-reflection.h — what the reflection tests (solver-reflection-bands,
 * solver-fcc-reflection-bands, solver-reflection-oblique) share: the
 * admittance model written out from rw-admittance.h's definition, as an
 * independent reference to the engine's, a direct DFT of a receiver's
 * samples, |R| per octave band measured against that model, and the two
 * hand-made walls. */
#pragma once

#include <complex.h>
#include <math.h>
#include <stddef.h>
#include "rw-admittance.h"
#include "rw-test.h"

/* Y(j2πf) = Y0 + Σ 1/(D s + E + F/s). */
static inline double complex
test_model_Y (const RwAdmittance *a, double f)
{
  const double complex s = 2.0 * M_PI * I * f;
  double complex y = a->Y0;
  for (int m = 0; m < a->n_branches; m++)
    y += 1.0 / (a->branch[m].D * s + a->branch[m].E + a->branch[m].F / s);
  return y;
}

/* Σ x[k] e^{−j2π f_norm k}, f_norm in cycles per sample. */
static inline double complex
test_dft (const double *x, size_t n, double f_norm)
{
  double complex acc = 0;
  for (size_t k = 0; k < n; k++)
    acc += x[k] * cexp (-2.0 * M_PI * I * f_norm * (double) k);
  return acc;
}

/* A reflection factor from a receiver's signal y: sign(correlation) ×
 * √(E_ref/E_inc), the incident pulse's energy over y[k0 … k1) and the
 * reflected one's over the same window `lag` samples later (lossless in
 * between: dispersion reshapes a pulse but keeps its energy). */
static inline double
test_reflection_ratio (const double *y, size_t k0, size_t k1, size_t lag)
{
  double e_inc = 0, e_ref = 0, corr = 0;
  for (size_t k = k0; k < k1; k++)
    {
      e_inc += y[k] * y[k];
      e_ref += y[k + lag] * y[k + lag];
      corr += y[k] * y[k + lag];
    }
  return copysign (sqrt (e_ref / e_inc), corr);
}

/* |R| per octave band b = 0 … n_bands − 1 (centre 62.5 · 2^b Hz) of a
 * wall of admittance Y, from the incident wave inc and the reflected one
 * refl (n samples at fs): each band's |R|² is the incident-energy-weighted
 * mean over TEST_BAND_NF log-spaced frequencies, measured (|DFT refl|² /
 * |DFT inc|²) and the model's |(1 − Y)/(1 + Y)|² alike, so that both see
 * the same spectrum. Prints a NOTE per band (`name` first; none where
 * name is NULL) and returns the worst |measured − model|. */
#define TEST_BAND_NF 32

static inline double
test_reflection_bands (const char *name, const double *inc, const double *refl, size_t n,
                       double fs, const RwAdmittance *Y, int n_bands)
{
  double worst = 0.0;
  for (int b = 0; b < n_bands; b++)
    {
      const double fc = 62.5 * pow (2.0, b);
      double e_inc = 0, e_ref = 0, e_model = 0;
      for (int j = 0; j < TEST_BAND_NF; j++)
        {
          const double f = fc * pow (2.0, ((double) j + 0.5) / TEST_BAND_NF - 0.5);
          const double complex pi = test_dft (inc, n, f / fs);
          const double complex pr = test_dft (refl, n, f / fs);
          const double complex y = test_model_Y (Y, f);
          const double complex Rm = (1.0 - y) / (1.0 + y);
          const double w = creal (pi * conj (pi));
          e_inc += w;
          e_ref += creal (pr * conj (pr));
          e_model += w * creal (Rm * conj (Rm));
        }
      const double r_meas = sqrt (e_ref / e_inc), r_model = sqrt (e_model / e_inc);
      if (name != NULL)
        RW_NOTE ("%-24s %5.0f Hz: |R| measured %.4f, model %.4f (diff %+.4f)", name, fc, r_meas,
                 r_model, r_meas - r_model);
      worst = fmax (worst, fabs (r_meas - r_model));
    }
  return worst;
}

/* A resonant absorber: |Y| = 0.8 at 500 Hz, Q = 2, over a conductance. */
static inline RwAdmittance
test_wall_resonant (void)
{
  RwAdmittance a = rw_admittance_real (1.0);
  const double w0 = 2 * M_PI * 500.0, E = 1.25, D = 2.0 * E / w0;
  a.Y0 = 0.03;
  a.n_branches = 1;
  a.branch[0] = (RwBranch) { D, E, w0 * w0 * D };
  return a;
}

/* A porous-like layer: a mass-resistance branch (absorbs at low f), a
 * stiffness-resistance branch (absorbs at high f) and a resonance. */
static inline RwAdmittance
test_wall_three_branches (void)
{
  RwAdmittance a = rw_admittance_real (1.0);
  a.Y0 = 0.01;
  a.n_branches = 3;
  a.branch[0] = (RwBranch) { 2e-3, 3.0, 0.0 };
  a.branch[1] = (RwBranch) { 0.0, 1.6, 3000.0 };
  a.branch[2] = (RwBranch) { 4e-4, 2.0, 4e-4 * pow (2 * M_PI * 125.0, 2) };
  return a;
}
