/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-reflection.h — what the reflection tests (solver-reflection-bands,
 * solver-reflection-oblique) share: the admittance model written out from
 * rw-admittance.h's definition, as an independent reference to the
 * engine's, and a direct DFT of a receiver's samples. */
#pragma once

#include <complex.h>
#include <math.h>
#include <stddef.h>
#include "rw-admittance.h"

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
