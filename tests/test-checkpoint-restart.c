/* SPDX-License-Identifier: GPL-3.0-or-later */
/* checkpoint-restart: a run checkpointed, its solver freed, and continued
 * by a new solver from the file gives the uninterrupted run's receivers
 * and uniform-mode readings bit for bit (issue #15: "checkpoint, kill,
 * restart gives the uninterrupted result bit for bit"), in fp64 and fp32,
 * on the cubic and the FCC lattice, in an L-shaped room whose every
 * surface is frequency dependent (test-checkpoint-common.h).
 *
 * Two ways in:
 *  - rw_solver_checkpoint_save at step 333 (past the source, between two
 *    growth-monitor readings), rw_solver_checkpoint_load into a new
 *    solver, rw_solver_advance the rest;
 *  - rw_solver_run with rw_solver_set_checkpoint and its `now` flag set
 *    from the progress callback (what SIGTERM does): the run stops with
 *    RW_ERROR_CANCELLED at the end of its first chunk saying where the
 *    checkpoint is, a new solver
 *    resumes from the folder and runs to the end, which leaves a final
 *    checkpoint that a third solver resumes at the last step, its
 *    receivers complete.
 * What fails it: a branch state not restored (the continued run's
 * receivers differ from the next step on: a dozen digits in fp64), p⁻ not
 * restored, the receiver samples so far or the readings not restored
 * (zeros, or a reading at the resumed step missing), the step not
 * restored. */
#include "test-checkpoint-common.h"

#include <errno.h>
#include <sys/stat.h>

#define N_STEPS 600
#define K_STEPS 333

typedef struct {
  atomic_int *now;
  size_t at;
} Term;

/* The progress callback of the second way: SIGTERM at step ≥ at. */
static bool
term_at (const RwProgress *p, void *data)
{
  Term *t = data;
  if (p->step >= t->at)
    atomic_store (t->now, 1);
  return true;
}

static void
run_case (RwLattice lattice, RwPrecision precision)
{
  char what[64];
  snprintf (what, sizeof what, "%s, %s", lattice == RW_LATTICE_FCC ? "FCC" : "cubic",
            rw_precision_name (precision));
  CkRoom room;
  if (!ck_room_init (&room, lattice, precision, 0.0, NULL, N_STEPS, NULL))
    {
      ck_room_clear (&room);
      return;
    }
  RwError err;
  rw_error_clear (&err);

  /* the uninterrupted run */
  RwSolver *whole = rw_solver_new (&room.su, RW_BACKEND_CPU, &err);
  RW_CHECK (whole != NULL, "%s: solver: %s", what, err.message);
  RW_CHECK (rw_solver_advance (whole, N_STEPS, &err), "%s: run: %s", what, err.message);

  /* 1: save, free, load, advance */
  const char *path = rw_test_tmp_path ("one.ckpt");
  RwSolver *first = rw_solver_new (&room.su, RW_BACKEND_CPU, &err);
  RW_CHECK (rw_solver_advance (first, K_STEPS, &err), "%s: first part: %s", what, err.message);
  RW_CHECK (rw_solver_checkpoint_save (first, path, &err), "%s: save: %s", what, err.message);
  rw_solver_free (first);
  RwSolver *rest = rw_solver_new (&room.su, RW_BACKEND_CPU, &err);
  RW_CHECK (rw_solver_checkpoint_load (rest, path, &err), "%s: load: %s", what, err.message);
  RW_CHECK (rw_solver_step (rest) == K_STEPS, "%s: resumed at step %zu", what,
            rw_solver_step (rest));
  RW_CHECK (rw_solver_advance (rest, N_STEPS - K_STEPS, &err), "%s: the rest: %s", what,
            err.message);
  char w1[96];
  snprintf (w1, sizeof w1, "%s, save/load", what);
  ck_same_run (whole, rest, room.n_rcv, N_STEPS, w1);
  double e_whole = 0, e_rest = 0;
  RW_CHECK (rw_solver_energy (whole, &e_whole, &err) && rw_solver_energy (rest, &e_rest, &err)
            && e_whole == e_rest, "%s: energy at the end %.17g vs %.17g", what, e_whole, e_rest);
  rw_solver_free (rest);

  /* 2: rw_solver_run asked to checkpoint and stop, resumed from the folder */
  char dir[512];
  snprintf (dir, sizeof dir, "%s/ckpt-%s-%s", rw_test_tmpdir (),
            lattice == RW_LATTICE_FCC ? "fcc" : "cubic", rw_precision_name (precision));
  atomic_int now = 0;
  Term term = { .now = &now, .at = 1 };   /* the first chunk's end */
  RwSolver *stopped = rw_solver_new (&room.su, RW_BACKEND_CPU, &err);
  RW_CHECK (rw_solver_set_checkpoint (stopped, dir, 0.0, &now, &err), "%s: set: %s", what,
            err.message);
  RW_CHECK (!rw_solver_run (stopped, term_at, &term, NULL, &err) && err.code == RW_ERROR_CANCELLED
            && strstr (err.message, dir) != NULL,
            "%s: asked to checkpoint, the run stops saying where: %s", what, err.message);
  const size_t at = rw_solver_step (stopped);
  RW_CHECK (at > 0 && at < N_STEPS, "%s: stopped at step %zu", what, at);
  rw_solver_free (stopped);
  RwSolver *resumed = rw_solver_new (&room.su, RW_BACKEND_CPU, &err);
  bool did = false;
  RW_CHECK (rw_solver_set_checkpoint (resumed, dir, 0.0, NULL, &err)
            && rw_solver_checkpoint_resume (resumed, dir, &did, &err) && did
            && rw_solver_step (resumed) == at,
            "%s: resumed from %s at step %zu (%s)", what, dir, rw_solver_step (resumed),
            err.message);
  RW_CHECK (rw_solver_run (resumed, NULL, NULL, NULL, &err), "%s: resumed run: %s", what,
            err.message);
  snprintf (w1, sizeof w1, "%s, stopped at %zu and resumed", what, at);
  ck_same_run (whole, resumed, room.n_rcv, N_STEPS, w1);
  rw_solver_free (resumed);
  /* the final checkpoint: a run resumed at its end has every sample */
  RwSolver *done = rw_solver_new (&room.su, RW_BACKEND_CPU, &err);
  RW_CHECK (rw_solver_checkpoint_resume (done, dir, &did, &err) && did
            && rw_solver_step (done) == N_STEPS,
            "%s: the run's end left a checkpoint (step %zu): %s", what, rw_solver_step (done),
            err.message);
  RW_CHECK (rw_solver_run (done, NULL, NULL, NULL, &err), "%s: nothing left to run: %s", what,
            err.message);
  snprintf (w1, sizeof w1, "%s, resumed at the end", what);
  ck_same_run (whole, done, room.n_rcv, N_STEPS, w1);
  rw_solver_free (done);
  /* removed after use: the files, not the folder */
  RW_CHECK (rw_checkpoint_remove (dir, &err), "%s: remove: %s", what, err.message);
  char file[600];
  snprintf (file, sizeof file, "%s/rank-0-of-1.ckpt", dir);
  struct stat st;
  RW_CHECK (stat (file, &st) != 0 && errno == ENOENT, "%s: %s removed", what, file);
  RW_NOTE ("%s: %zu inside cells, %zu boundary nodes with branches; continued at steps %d and "
           "%zu: bit for bit", what, room.g->n_inside, room.g->n_boundary, K_STEPS, at);
  rw_solver_free (whole);
  ck_room_clear (&room);
}

int
main (void)
{
  run_case (RW_LATTICE_CUBIC, RW_PRECISION_F64);
  run_case (RW_LATTICE_CUBIC, RW_PRECISION_F32);
  run_case (RW_LATTICE_FCC, RW_PRECISION_F64);
  run_case (RW_LATTICE_FCC, RW_PRECISION_F32);
  return rw_test_finish ();
}
