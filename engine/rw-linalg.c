/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-linalg.c — Cholesky factorisation and solve (rw-linalg.h). */
#include "rw-linalg.h"

#include <math.h>

bool
rw_cholesky_factor (double *A, int n)
{
  for (int j = 0; j < n; j++)
    {
      double d = A[j * n + j];
      for (int k = 0; k < j; k++)
        d -= A[j * n + k] * A[j * n + k];
      if (!(d > 0))
        return false;
      d = sqrt (d);
      A[j * n + j] = d;
      for (int i = j + 1; i < n; i++)
        {
          double s = A[i * n + j];
          for (int k = 0; k < j; k++)
            s -= A[i * n + k] * A[j * n + k];
          A[i * n + j] = s / d;
        }
    }
  return true;
}

void
rw_cholesky_solve (const double *L, double *b, int n)
{
  for (int i = 0; i < n; i++)
    {
      double s = b[i];
      for (int k = 0; k < i; k++)
        s -= L[i * n + k] * b[k];
      b[i] = s / L[i * n + i];
    }
  for (int i = n - 1; i >= 0; i--)
    {
      double s = b[i];
      for (int k = i + 1; k < n; k++)
        s -= L[k * n + i] * b[k];
      b[i] = s / L[i * n + i];
    }
}
