/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-ga-progress.c — progress and cancel for the geometrical-acoustics
 * engine's loops (see rw-ga-progress.h). */
#include "rw-ga-progress.h"

#include <omp.h>

#include "rw-clock.h"
#include "rw-i18n.h"

void
rw_ga_progress_init (RwGaProgress *p, RwProgressFn fn, void *data, const atomic_int *cancel,
                     size_t total)
{
  p->fn = fn;
  p->data = data;
  p->cancel = cancel;
  atomic_init (&p->stop, 0);
  atomic_init (&p->done, 0);
  p->total = total;
  p->t_start = p->t_last = rw_clock_s ();
}

bool
rw_ga_cancel_requested (const atomic_int *cancel, RwError *err)
{
  if (cancel != NULL && atomic_load (cancel))
    return !rw_fail (err, RW_ERROR_CANCELLED, _("Simulation cancelled"));
  return false;
}

bool
rw_ga_progress_stopped (RwGaProgress *p)
{
  /* Relaxed: a thread that sees the flag a ray late only does one more
   * ray, and the result is thrown away anyway. */
  if (atomic_load_explicit (&p->stop, memory_order_relaxed))
    return true;
  if (p->cancel != NULL && atomic_load_explicit (p->cancel, memory_order_relaxed))
    {
      atomic_store_explicit (&p->stop, 1, memory_order_relaxed);
      return true;
    }
  return false;
}

static bool
report (RwGaProgress *p, size_t done, double now)
{
  const double elapsed = now - p->t_start;
  RwProgress pr = {
    .fraction = p->total > 0 ? (double) done / (double) p->total : 1.0,
    .mvox_per_s = 0.0,
    .seconds_left = done > 0 ? elapsed * (double) (p->total - done) / (double) done : 0.0,
    .step = done,
    .n_steps = p->total,
    .solver = NULL,
    .part = RW_PROGRESS_GEOMETRICAL,
  };
  return p->fn (&pr, p->data);
}

void
rw_ga_progress_add (RwGaProgress *p, size_t n)
{
  const size_t done = atomic_fetch_add_explicit (&p->done, n, memory_order_relaxed) + n;
  if (p->fn == NULL || omp_get_thread_num () != 0 || done >= p->total)
    return;
  const double now = rw_clock_s ();
  if (now - p->t_last < RW_GA_PROGRESS_S)
    return;
  p->t_last = now;
  if (!report (p, done, now))
    atomic_store_explicit (&p->stop, 1, memory_order_relaxed);
}

bool
rw_ga_progress_cancelled (RwGaProgress *p, RwError *err)
{
  if (!rw_ga_progress_stopped (p))
    return false;
  rw_fail (err, RW_ERROR_CANCELLED, _("Simulation cancelled"));
  return true;
}

bool
rw_ga_progress_finish (RwGaProgress *p, RwError *err)
{
  if (rw_ga_progress_cancelled (p, err))
    return false;
  if (p->fn != NULL && !report (p, p->total, rw_clock_s ()))
    {
      atomic_store (&p->stop, 1);
      return rw_fail (err, RW_ERROR_CANCELLED, _("Simulation cancelled"));
    }
  return true;
}
