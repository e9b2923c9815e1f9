/* SPDX-License-Identifier: GPL-3.0-or-later */
/* solver-cancel: a cancel stops rw_solver_run within one chunk with
 * RW_ERROR_CANCELLED, and the solver stays usable: running on finishes the
 * simulation with receiver signals identical, bit for bit, to those of an
 * uninterrupted run. Also: a progress callback that returns false cancels
 * the same way; a flag already set stops the run before any step; the
 * progress reports are sane (fraction rising to 1, speed > 0, steps).
 * And rw_solver_release_device: the receivers stay, the field is gone. */
#include "rw-test.h"
#include "test-solver-grid.h"
#include "rw-checkpoint.h"

#define STEPS 2000

typedef struct {
  atomic_int *cancel;
  int calls;
  int cancel_at_call;        /* set the flag at this call (1-based); 0: never */
  bool return_false;         /* cancel by returning false instead */
  size_t step_at_cancel;
  double last_fraction;
  bool sane;
} Watch;

static bool
on_progress (const RwProgress *pr, void *data)
{
  Watch *w = data;
  w->calls++;
  if (!(pr->fraction > w->last_fraction && pr->fraction <= 1.0 && pr->mvox_per_s > 0
        && pr->seconds_left >= 0 && pr->n_steps == STEPS
        && fabs (pr->fraction - (double) pr->step / STEPS) < 1e-12))
    w->sane = false;
  w->last_fraction = pr->fraction;
  if (w->cancel_at_call == w->calls)
    {
      w->step_at_cancel = pr->step;
      if (w->return_false)
        return false;
      atomic_store (w->cancel, 1);
    }
  return true;
}

static RwSolver *
new_solver (RwGrid *g, double *sig, size_t *rcv)
{
  static double R = 0.9;
  RwSolverSetup su = test_setup (g, &R, RW_BOUNDARY_FV, RW_PRECISION_F32, STEPS, sig,
                                 test_cell (g, 5, 6, 7), 2, rcv);
  RwError err;
  RwSolver *s = rw_solver_new (&su, RW_BACKEND_CPU, &err);
  RW_CHECK (s != NULL, "rw_solver_new: %s", s ? "" : err.message);
  return s;
}

int
main (void)
{
  RwGrid *g = test_grid_new (48, 40, 36, 0.1, NULL, NULL);
  double *sig = malloc (STEPS * sizeof (double));
  size_t rcv[2] = { test_cell (g, 30, 20, 10), test_cell (g, 40, 30, 30) };
  atomic_int cancel = 0;
  RwError err;

  /* Reference: one uninterrupted run. */
  RwSolver *ref = new_solver (g, sig, rcv);
  Watch wr = { .cancel = &cancel, .sane = true };
  RW_CHECK (rw_solver_run (ref, on_progress, &wr, &cancel, &err), "reference run: %s", err.message);
  RW_CHECK (wr.sane && wr.last_fraction == 1.0, "progress reports: sane %d, last fraction %g",
            wr.sane, wr.last_fraction);
  RW_NOTE ("uninterrupted run: %d progress reports", wr.calls);
  RW_CHECK (wr.calls >= 3, "only %d progress reports", wr.calls);

  /* Cancel through the flag, set from the first progress report. */
  RwSolver *s = new_solver (g, sig, rcv);
  Watch w = { .cancel = &cancel, .cancel_at_call = 1, .sane = true };
  bool ran = rw_solver_run (s, on_progress, &w, &cancel, &err);
  RW_CHECK (!ran && err.code == RW_ERROR_CANCELLED, "cancelled run: ok %d, code %d (%s)",
            ran, err.code, err.message);
  RW_NOTE ("cancelled at step %zu: \"%s\"", rw_solver_step (s), err.message);
  RW_CHECK (rw_solver_step (s) == w.step_at_cancel && w.step_at_cancel < STEPS,
            "stopped at step %zu, the flag was set at step %zu", rw_solver_step (s),
            w.step_at_cancel);
  RW_CHECK (w.calls == 1, "%d progress reports after the cancel", w.calls);

  /* A flag still set: no step at all. */
  size_t before = rw_solver_step (s);
  ran = rw_solver_run (s, on_progress, &w, &cancel, &err);
  RW_CHECK (!ran && err.code == RW_ERROR_CANCELLED && rw_solver_step (s) == before,
            "a set flag: ok %d, code %d, steps %zu → %zu", ran, err.code, before,
            rw_solver_step (s));

  /* Clear it and go on: the same signals as the uninterrupted run. */
  atomic_store (&cancel, 0);
  Watch w2 = { .cancel = &cancel, .cancel_at_call = 2, .return_false = true, .sane = true,
               .last_fraction = (double) before / STEPS };
  ran = rw_solver_run (s, on_progress, &w2, &cancel, &err);
  RW_CHECK (!ran && err.code == RW_ERROR_CANCELLED && rw_solver_step (s) == w2.step_at_cancel,
            "progress returning false: ok %d, code %d, step %zu vs %zu", ran, err.code,
            rw_solver_step (s), w2.step_at_cancel);
  ran = rw_solver_run (s, NULL, NULL, &cancel, &err);
  RW_CHECK (ran && rw_solver_step (s) == STEPS, "resumed run: %s", ran ? "" : err.message);
  for (size_t r = 0; r < 2; r++)
    {
      const double *a = rw_solver_receiver (ref, r), *b = rw_solver_receiver (s, r);
      size_t diff = 0;
      for (size_t k = 0; k < STEPS; k++)
        diff += a[k] != b[k];
      RW_CHECK (diff == 0, "receiver %zu: %zu samples differ from the uninterrupted run", r, diff);
    }
  RW_CHECK (rw_solver_receiver (s, 2) == NULL, "receiver 2 does not exist");

  /* The device given back after the run (rw_solver_release_device, as the
   * CLI's last solve does beside its post-processing): what the run
   * recorded stays, the field is gone and says so, the solver still frees. */
  const double *before_release = rw_solver_receiver (s, 1);
  double last = before_release[STEPS - 1];
  rw_solver_release_device (s);
  rw_solver_release_device (s);   /* a second time: nothing */
  RW_CHECK (rw_solver_receiver (s, 1) == before_release && before_release[STEPS - 1] == last
              && rw_solver_step (s) == STEPS && strcmp (rw_solver_device_name (s), "") == 0,
            "after the release: the receivers and the step count stay");
  float *slice = malloc (48 * 40 * sizeof (float));
  double *field = malloc (g->nx * g->ny * g->nz * sizeof (double));
  RwError e1 = { 0 }, e2 = { 0 }, e3 = { 0 };
  RW_CHECK (!rw_solver_read_field (s, field, NULL, &e1) && e1.code == RW_ERROR_INTERNAL
              && !rw_solver_read_slice (s, 2, 3, slice, &e2) && e2.code == RW_ERROR_INTERNAL
              && !rw_solver_run (s, NULL, NULL, &cancel, &e3) && e3.code == RW_ERROR_INTERNAL,
            "after the release the field cannot be read or stepped (\"%s\")", e1.message);
  /* the same guard (rw_solver_live) on every other entry that needs the field */
  RwError e4 = { 0 }, e5 = { 0 }, e6 = { 0 };
  double energy = 0.0;
  RW_CHECK (!rw_solver_energy (s, &energy, &e4) && e4.code == RW_ERROR_INTERNAL
              && !rw_solver_advance (s, 1, &e5) && e5.code == RW_ERROR_INTERNAL
              && !rw_solver_checkpoint_save (s, "released.ckpt", &e6) && e6.code == RW_ERROR_INTERNAL,
            "after the release the energy, a step and a checkpoint fail (\"%s\", \"%s\", \"%s\")",
            e4.message, e5.message, e6.message);
  free (slice);
  free (field);

  rw_solver_free (ref);
  rw_solver_free (s);
  free (sig);
  rw_grid_free (g);
  return rw_test_finish ();
}
