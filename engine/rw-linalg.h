/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-linalg.h — the small dense solves the engine's fits share: the
 * Cholesky factorisation of a symmetric positive definite matrix and the
 * solve with its factor (the admittance fit's Levenberg–Marquardt steps,
 * rw-admittance.c; the wave part's plane-wave fit per frequency,
 * rw-wave-directions.c). Row-major n × n. */
#pragma once

#include <stdbool.h>

/* A = L Lᵀ in place: L in the lower triangle (the upper one is left as
 * it was). False when A is not positive definite (a pivot ≤ 0 or NaN). */
bool rw_cholesky_factor (double *A, int n);
/* b ← (L Lᵀ)⁻¹ b with L from rw_cholesky_factor. */
void rw_cholesky_solve (const double *L, double *b, int n);
