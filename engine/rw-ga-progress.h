/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-ga-progress.h — progress reports and cancel for the parallel loops of
 * the geometrical-acoustics engine (rw-rays.c, rw-ism.c), through the
 * solver's interface (rw-solver.h: RwProgressFn, a cancel flag,
 * RW_ERROR_CANCELLED). Internal to the engine.
 *
 * In an OpenMP loop every iteration starts with rw_ga_progress_stopped
 * and skips its work when it says so (OpenMP forbids a break out of a
 * worksharing loop: the threads just take no more work), and counts what
 * it did with rw_ga_progress_add. The callback runs only on OpenMP thread
 * 0 — the thread that called the engine, as rw_solver_run's runs in its
 * caller's — at most every RW_GA_PROGRESS_S, so never from two threads at
 * once; a callback that returns false stops the loop as the flag does.
 * After the loop, in the calling thread, rw_ga_progress_finish gives the
 * last report (fraction 1) or the cancel's error. Nothing here touches
 * the work's results: a run with progress is bit for bit one without.
 */
#pragma once

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include "rw-error.h"
#include "rw-solver.h"   /* RwProgress, RwProgressFn */

/* Seconds between two reports, at least (the solver's chunk length). */
#define RW_GA_PROGRESS_S 0.1

typedef struct {
  RwProgressFn fn;            /* may be NULL */
  void *data;
  const atomic_int *cancel;   /* may be NULL */
  atomic_int stop;            /* a cancel was seen: take no more work */
  atomic_size_t done;         /* units of work done */
  size_t total;
  double t_start, t_last;     /* t_last: thread 0's only */
} RwGaProgress;

void rw_ga_progress_init (RwGaProgress *p, RwProgressFn fn, void *data, const atomic_int *cancel,
                          size_t total);
/* Whether the work must stop: the cancel flag is set, or a report was
 * answered false. Any thread. */
bool rw_ga_progress_stopped (RwGaProgress *p);
/* n more units done; on thread 0, a report if RW_GA_PROGRESS_S has passed
 * since the last (never one of fraction 1: that is finish's). */
void rw_ga_progress_add (RwGaProgress *p, size_t n);
/* rw_ga_progress_stopped with RW_ERROR_CANCELLED in err: true when the
 * work was cancelled. */
bool rw_ga_progress_cancelled (RwGaProgress *p, RwError *err);
/* After the work: false with RW_ERROR_CANCELLED when it was cancelled or
 * the last report (fraction 1) is answered false; else true. */
bool rw_ga_progress_finish (RwGaProgress *p, RwError *err);

/* True, with RW_ERROR_CANCELLED in err, when cancel (may be NULL) is set:
 * a check between two steps of work. */
bool rw_ga_cancel_requested (const atomic_int *cancel, RwError *err);
