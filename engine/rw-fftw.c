/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-fftw.c — the FFTW planner lock (see rw-fftw.h). */
#include "rw-fftw.h"

#include <pthread.h>

static pthread_mutex_t planner_lock = PTHREAD_MUTEX_INITIALIZER;

void
rw_fftw_plan_lock (void)
{
  pthread_mutex_lock (&planner_lock);
}

void
rw_fftw_plan_unlock (void)
{
  pthread_mutex_unlock (&planner_lock);
}

bool
rw_fftw_plan_pair (int n, double *r_in, fftw_complex *c_out, fftw_complex *c_in,
                   double *r_out, fftw_plan *fwd, fftw_plan *inv)
{
  rw_fftw_plan_lock ();
  *fwd = fftw_plan_dft_r2c_1d (n, r_in, c_out, FFTW_ESTIMATE);
  *inv = fftw_plan_dft_c2r_1d (n, c_in, r_out, FFTW_ESTIMATE);
  rw_fftw_plan_unlock ();
  if (*fwd != NULL && *inv != NULL)
    return true;
  rw_fftw_destroy_pair (*fwd, *inv);
  *fwd = *inv = NULL;
  return false;
}

void
rw_fftw_destroy_pair (fftw_plan fwd, fftw_plan inv)
{
  rw_fftw_plan_lock ();
  if (fwd != NULL)
    fftw_destroy_plan (fwd);
  if (inv != NULL)
    fftw_destroy_plan (inv);
  rw_fftw_plan_unlock ();
}
