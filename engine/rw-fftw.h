/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-fftw.h — the one lock around FFTW's (double precision) planner.
 *
 * FFTW's planner is not thread-safe: planning and destroying plans must
 * not run in two threads at once, and one lock per file does not stop
 * two files' threads from doing so (the GUI post-processes a run, air
 * absorption included, in a worker while the Results page may compute a
 * spectrum). Every fftw_plan_* and fftw_destroy_plan of the engine goes
 * between rw_fftw_plan_lock and rw_fftw_plan_unlock; executing a plan
 * (fftw_execute) needs no lock. Single precision (fftwf_*) has a planner
 * of its own (rw-auralise.c serialises it). */
#pragma once

#include <fftw3.h>
#include <stdbool.h>

void rw_fftw_plan_lock (void);
void rw_fftw_plan_unlock (void);

/* The pair most of the engine's filtering uses, planned under the lock
 * (FFTW_ESTIMATE): *fwd real-to-complex of n points from r_in to c_out,
 * *inv complex-to-real from c_in to r_out. False, with both NULL, when
 * FFTW gives no plan. */
bool rw_fftw_plan_pair (int n, double *r_in, fftw_complex *c_out, fftw_complex *c_in,
                        double *r_out, fftw_plan *fwd, fftw_plan *inv);
/* Destroys both under the lock; NULL ones are skipped. */
void rw_fftw_destroy_pair (fftw_plan fwd, fftw_plan inv);
