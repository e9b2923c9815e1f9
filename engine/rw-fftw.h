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

void rw_fftw_plan_lock (void);
void rw_fftw_plan_unlock (void);
