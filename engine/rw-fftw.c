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
