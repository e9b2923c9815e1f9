/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ga-cancel: the geometrical IR reports progress and cancels through the
 * solver's interface (rw-solver.h, rw-ga.h "Progress and cancel"). In the
 * concert-hall-like room of ga-threads, 2 OpenMP threads:
 * (a) progress: every report has part RW_PROGRESS_GEOMETRICAL, solver
 *     NULL, n_steps = rays + 1, fractions non-decreasing in [0, 1], the
 *     last one step = n_steps and fraction exactly 1; the callback runs in
 *     the calling thread only and never twice at once; the IR is bit for
 *     bit that of a run without progress; image sources to order 6, so
 *     that their part (step = rays) takes some reports too. The parts on
 *     their own: reports counted in rays and in image-source candidates,
 *     histograms and arrivals bit for bit as without progress.
 * (b) a callback answering false — at its first report of a run that
 *     would take minutes, at the last report of a short one, and at the
 *     first report of the image sources on their own — gives
 *     RW_ERROR_CANCELLED "Simulation cancelled" and an empty result (the
 *     ASan build checks that nothing leaks).
 * (c) a flag set before the call: RW_ERROR_CANCELLED with no report, for
 *     the whole IR, the rays and the image sources; the long run (minutes
 *     uncancelled, past this test's timeout) returns at once.
 * (d) the flag set from the callback (atomic_store) at the first report
 *     of the long run: cancelled after that one report.
 * A cancelled run leaves nothing behind: the same call then succeeds with
 * the result of (a). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "rw-test.h"
#include "rw-ga.h"
#include "rw-shapes.h"
#include "test-ga-common.h"

/* Rays of the long run, of 10 s of histogram in hard walls: uncancelled,
 * some minutes (about 20 000 rays a second on two threads of the
 * development machine), far past this test's timeout. */
#define LONG_RAYS 10000000
#define LONG_S 10.0

typedef struct {
  pthread_t caller;
  atomic_int inside;         /* callbacks running now */
  atomic_int *cancel;
  int calls;
  bool stop_at_first;        /* answer false at the first report */
  bool stop_at_last;         /* answer false at the report of fraction 1 */
  bool flag_at_first;        /* set *cancel at the first report */
  size_t n_steps;            /* expected n_steps */
  RwProgress first, last;
  int ism_reports;           /* rw_ga_compute's reports of step n_rays (the image sources) */
  bool sane;
} Watch;

static void
watch_init (Watch *w, size_t n_steps)
{
  memset (w, 0, sizeof *w);
  w->caller = pthread_self ();
  atomic_init (&w->inside, 0);
  w->n_steps = n_steps;
  w->sane = true;
}

static bool
on_progress (const RwProgress *p, void *data)
{
  Watch *w = data;
  if (atomic_fetch_add (&w->inside, 1) != 0 || !pthread_equal (pthread_self (), w->caller))
    w->sane = false;
  w->calls++;
  if (w->calls == 1)
    w->first = *p;
  else if (!(p->fraction >= w->last.fraction && p->step >= w->last.step))
    w->sane = false;
  if (!(p->part == RW_PROGRESS_GEOMETRICAL && p->solver == NULL && p->mvox_per_s == 0.0
        && p->n_steps == w->n_steps && p->step <= p->n_steps && p->fraction >= 0.0
        && p->fraction <= 1.0 && p->seconds_left >= 0.0))
    w->sane = false;
  w->last = *p;
  if (p->step == w->n_steps - 1 && p->fraction < 1.0)
    w->ism_reports++;
  bool go_on = true;
  if (w->calls == 1 && w->stop_at_first)
    go_on = false;
  if (p->fraction == 1.0 && w->stop_at_last)
    go_on = false;
  if (w->calls == 1 && w->flag_at_first)
    atomic_store (w->cancel, 1);
  atomic_fetch_sub (&w->inside, 1);
  return go_on;
}

/* Settings of any of the three kinds: none by default; reports into w. */
#define CHECK_NO_PROGRESS(s, what)                                                     \
  RW_CHECK ((s).progress == NULL && (s).progress_data == NULL && (s).cancel == NULL,   \
            "%s: no progress, no flag by default", what)
#define WATCH(s, w)                                                                    \
  do {                                                                                 \
    (s).progress = on_progress;                                                        \
    (s).progress_data = &(w);                                                          \
  } while (0)

/* Sane reports, the last at step n_steps, fraction exactly 1, 0 s left. */
static void
check_reports (const Watch *w, size_t n_steps, const char *what)
{
  RW_CHECK (w->calls >= 1 && w->sane && w->last.fraction == 1.0 && w->last.step == n_steps
            && w->last.seconds_left == 0.0,
            "%s: %d sane reports, the last at fraction %.17g, step %zu of %zu", what, w->calls,
            w->last.fraction, w->last.step, w->last.n_steps);
}

static bool
same (const RwGaResult *a, const RwGaResult *b)
{
  return a->n_samples == b->n_samples && a->ism.n_arrivals == b->ism.n_arrivals
         && memcmp (a->ir, b->ir, a->n_samples * sizeof *a->ir) == 0
         && memcmp (a->bands, b->bands, RW_N_OCTAVES * a->n_samples * sizeof *a->bands) == 0
         && memcmp (a->rays.energy, b->rays.energy,
                    RW_N_OCTAVES * a->rays.n_bins * sizeof *a->rays.energy) == 0;
}

static void
expect_cancelled (bool ok, const RwError *err, const RwGaResult *r, const char *what)
{
  RW_CHECK (!ok, "%s: refused", what);
  RW_CHECK (err->code == RW_ERROR_CANCELLED, "%s: code %d (expected %d): %s", what, err->code,
            RW_ERROR_CANCELLED, err->message);
  RW_CHECK (strcmp (err->message, "Simulation cancelled") == 0, "%s: message '%s'", what,
            err->message);
  if (r)
    RW_CHECK (r->ir == NULL && r->bands == NULL && r->n_samples == 0 && r->ism.arrivals == NULL
              && r->rays.energy == NULL && r->rays.direction == NULL, "%s: no result", what);
}

int
main (void)
{
  RwError err = { 0 };
  GaRoom room;
  if (!ga_room_hall (&room))
    return rw_test_finish ();
  const RwGaScene *scene = room.scene;
  const size_t ns = room.ns;
  const RwAdmittance *Y = room.Y;
  const double *sc = room.sc;
  const double src[3] = { 4.0, 8.0, 1.5 }, rcv[3] = { 16.0, 5.0, 1.2 };
  atomic_int cancel;
  atomic_init (&cancel, 0);
  Watch w;

  /* (a) Progress, and the result unchanged by it. */
  RwGaSettings set;
  rw_ga_settings_init (&set);
  CHECK_NO_PROGRESS (set, "rw_ga_settings_init");
  set.n_rays = 40000;
  set.duration_s = 0.5;
  set.ism_order = 6;
  set.threads = 2;
  RwGaResult ref = { 0 }, g = { 0 };
  RW_CHECK (rw_ga_compute (scene, Y, sc, ns, src, rcv, &set, &ref, &err), "no progress: %s",
            err.message);
  if (ref.ir == NULL)
    return rw_test_finish ();
  watch_init (&w, set.n_rays + 1);
  WATCH (set, w);
  set.cancel = &cancel;
  RW_CHECK (rw_ga_compute (scene, Y, sc, ns, src, rcv, &set, &g, &err), "progress: %s",
            err.message);
  RW_CHECK (g.ir && same (&ref, &g), "progress: the IR bit for bit as without");
  check_reports (&w, set.n_rays + 1, "progress");
  RW_NOTE ("(a) %d reports, first at %.3f (step %zu), %d in the image sources' part", w.calls,
           w.first.fraction, w.first.step, w.ism_reports);
  rw_ga_result_clear (&g);

  /* The parts on their own count rays and image-source candidates. */
  RwRaySettings rs;
  rw_rays_settings_init (&rs);
  CHECK_NO_PROGRESS (rs, "rw_rays_settings_init");
  rs.n_rays = 3000;
  rs.duration_s = 0.5;
  rs.threads = 2;
  RwRayResult rr0 = { 0 }, rr = { 0 };
  RW_CHECK (rw_rays_trace (scene, Y, sc, ns, src, rcv, &rs, &rr0, &err), "rays: %s", err.message);
  watch_init (&w, rs.n_rays);
  WATCH (rs, w);
  RW_CHECK (rw_rays_trace (scene, Y, sc, ns, src, rcv, &rs, &rr, &err), "rays, progress: %s",
            err.message);
  RW_CHECK (rr.energy && rr0.energy && rr.n_bins == rr0.n_bins
            && memcmp (rr.energy, rr0.energy, RW_N_OCTAVES * rr.n_bins * sizeof *rr.energy) == 0
            && memcmp (rr.direction, rr0.direction,
                       3 * RW_N_OCTAVES * rr.n_bins * sizeof *rr.direction) == 0,
            "rays: histograms bit for bit as without progress");
  check_reports (&w, rs.n_rays, "rays");
  rw_rays_result_clear (&rr);
  rw_rays_result_clear (&rr0);

  RwIsmSettings is;
  rw_ism_settings_init (&is);
  CHECK_NO_PROGRESS (is, "rw_ism_settings_init");
  is.max_order = 6;
  is.threads = 2;
  RwIsmResult ir0 = { 0 }, ir = { 0 };
  RW_CHECK (rw_ism_compute (scene, Y, ns, src, rcv, &is, &ir0, &err), "ism: %s", err.message);
  watch_init (&w, ir0.n_candidates);
  WATCH (is, w);
  RW_CHECK (rw_ism_compute (scene, Y, ns, src, rcv, &is, &ir, &err), "ism, progress: %s",
            err.message);
  RW_CHECK (ir.n_arrivals == ir0.n_arrivals && ir.arrivals
            && memcmp (ir.arrivals, ir0.arrivals, ir.n_arrivals * sizeof *ir.arrivals) == 0,
            "ism: arrivals bit for bit as without progress");
  check_reports (&w, ir0.n_candidates, "ism");
  RW_NOTE ("image sources: %d reports, %zu candidates, %zu arrivals", w.calls,
           ir0.n_candidates, ir0.n_arrivals);
  rw_ism_result_clear (&ir);
  /* Answered false at the first report (of the validation, or the last). */
  watch_init (&w, ir0.n_candidates);
  w.stop_at_first = true;
  err = (RwError) { 0 };
  expect_cancelled (rw_ism_compute (scene, Y, ns, src, rcv, &is, &ir, &err), &err, NULL,
                    "ism, false at the first report");
  RW_CHECK (ir.arrivals == NULL && ir.n_arrivals == 0 && w.calls == 1,
            "ism, false at the first report: no result, no report after it (%d)", w.calls);
  RW_NOTE ("(b) image sources cancelled at candidate %zu of %zu", w.first.step, w.first.n_steps);

  /* (b) The callback answers false: at the last report of the short
   * run, and at the first of the long one (an intermediate report, 0.1 s
   * into a run of minutes). */
  watch_init (&w, set.n_rays + 1);
  w.stop_at_last = true;
  err = (RwError) { 0 };
  expect_cancelled (rw_ga_compute (scene, Y, sc, ns, src, rcv, &set, &g, &err), &err, &g,
                    "false at the last report");
  RW_CHECK (w.last.fraction == 1.0, "false at the last report: it was the last");

  /* The long run: hard walls (R = 0.98 at normal incidence), some 160
   * reflections a ray in its 10 s. */
  RwAdmittance *hard = calloc (ns, sizeof *hard);
  for (size_t s = 0; s < ns; s++)
    hard[s] = rw_admittance_real (0.98);
  RwGaSettings big = set;
  big.n_rays = LONG_RAYS;
  big.duration_s = LONG_S;
  watch_init (&w, big.n_rays + 1);
  w.stop_at_first = true;
  err = (RwError) { 0 };
  expect_cancelled (rw_ga_compute (scene, hard, sc, ns, src, rcv, &big, &g, &err), &err, &g,
                    "false at the first report");
  RW_CHECK (w.calls == 1 && w.first.step < big.n_rays && w.sane,
            "false at the first report: no report after it (%d), at ray %zu", w.calls,
            w.first.step);
  RW_NOTE ("(b) cancelled at ray %zu of %zu, %.0f s before the end (estimated)", w.first.step,
           big.n_rays, w.first.seconds_left);

  /* (c) The flag set before the call: no work, no report. */
  atomic_store (&cancel, 1);
  watch_init (&w, big.n_rays + 1);
  err = (RwError) { 0 };
  expect_cancelled (rw_ga_compute (scene, hard, sc, ns, src, rcv, &big, &g, &err), &err, &g,
                    "flag before the call");
  RW_CHECK (w.calls == 0, "flag before the call: no report (%d)", w.calls);
  rs.n_rays = LONG_RAYS;
  rs.duration_s = LONG_S;
  rs.cancel = &cancel;
  watch_init (&w, rs.n_rays);
  err = (RwError) { 0 };
  expect_cancelled (rw_rays_trace (scene, hard, sc, ns, src, rcv, &rs, &rr, &err), &err, NULL,
                    "rays, flag before the call");
  RW_CHECK (rr.energy == NULL && rr.direction == NULL && rr.n_bins == 0 && w.calls == 0,
            "rays, flag before the call: no result, no report");
  is.cancel = &cancel;
  watch_init (&w, 0);
  err = (RwError) { 0 };
  expect_cancelled (rw_ism_compute (scene, Y, ns, src, rcv, &is, &ir, &err), &err, NULL,
                    "ism, flag before the call");
  RW_CHECK (ir.arrivals == NULL && ir.n_arrivals == 0 && w.calls == 0,
            "ism, flag before the call: no result, no report");
  atomic_store (&cancel, 0);

  /* (d) The flag set from the callback. */
  watch_init (&w, big.n_rays + 1);
  w.cancel = &cancel;
  w.flag_at_first = true;
  err = (RwError) { 0 };
  expect_cancelled (rw_ga_compute (scene, hard, sc, ns, src, rcv, &big, &g, &err), &err, &g,
                    "flag from the callback");
  RW_CHECK (w.calls == 1 && w.first.step < big.n_rays && w.sane,
            "flag from the callback: no report after it (%d), at ray %zu", w.calls,
            w.first.step);
  atomic_store (&cancel, 0);

  /* Nothing left behind: the same call as (a) again. */
  watch_init (&w, set.n_rays + 1);
  err = (RwError) { 0 };
  RW_CHECK (rw_ga_compute (scene, Y, sc, ns, src, rcv, &set, &g, &err), "after: %s",
            err.message);
  RW_CHECK (g.ir && same (&ref, &g), "after the cancels: the IR bit for bit as before");
  check_reports (&w, set.n_rays + 1, "after the cancels");
  rw_ga_result_clear (&g);
  free (hard);
  rw_ism_result_clear (&ir0);
  rw_ga_result_clear (&ref);
  ga_room_free (&room);
  return rw_test_finish ();
}
