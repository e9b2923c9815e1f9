/* SPDX-License-Identifier: GPL-3.0-or-later */
/* checkpoint-mpi-2: a run spread over 2 MPI ranks, checkpointed (each
 * rank its own file, DIR/rank-R-of-2.ckpt), its solvers freed and
 * continued by new ones from the folder, gives the uninterrupted 2-rank
 * run's receivers and uniform-mode readings bit for bit in fp64, on both
 * lattices (issue #15; rw-checkpoint.h). Started by mpirun -np 2.
 *  - saved at step 333 and resumed (rw_solver_checkpoint_resume);
 *  - asked for on rank 1 alone (its `now` flag set from its progress
 *    callback, as SIGTERM to one process would): both ranks write at the
 *    same step and stop, and the resumed run matches;
 *  - the run's end leaves a checkpoint (receivers gathered) that new
 *    solvers resume at the last step with every sample;
 *  - rank 0 alone (one rank, no comm) is refused the 2-rank checkpoint,
 *    by file and by folder, with a message saying it needs 2 ranks.
 * What fails it: a rank's own samples (local_rcv) not restored, the
 * ranks' wishes not agreed (rank 1 writes alone and fails, or hangs), the
 * number of ranks not checked (the one rank would call it another run's
 * grid). */
#include "test-checkpoint-common.h"

#include "rw-comm.h"

#define N_STEPS 600
#define K_STEPS 333

typedef struct {
  atomic_int *now;
  int rank;
} Term;

/* rank 1 asks for a checkpoint at its first progress report */
static bool
term_on_rank_1 (const RwProgress *p, void *data)
{
  Term *t = data;
  (void) p;
  if (t->rank == 1)
    atomic_store (t->now, 1);
  return true;
}

static void
run_lattice (const RwComm *comm, RwLattice lattice, const char *base)
{
  const int rank = rw_comm_rank (comm), size = rw_comm_size (comm);
  const char *what = lattice == RW_LATTICE_FCC ? "FCC" : "cubic";
  CkRoom room;
  if (!ck_room_init (&room, lattice, RW_PRECISION_F64, 0.0, NULL, N_STEPS, comm))
    {
      ck_room_clear (&room);
      return;
    }
  RwError err;
  rw_error_clear (&err);
  char dir[600], w[128];
  snprintf (dir, sizeof dir, "%s/%s", base, what);
  RwSolver *whole = rw_solver_new (&room.su, RW_BACKEND_CPU, &err);
  RW_CHECK (whole != NULL && rw_solver_advance (whole, N_STEPS, &err), "rank %d: %s: run: %s",
            rank, what, err.message);

  /* saved at K, resumed */
  RwSolver *first = rw_solver_new (&room.su, RW_BACKEND_CPU, &err);
  RW_CHECK (rw_solver_set_checkpoint (first, dir, 0.0, NULL, &err)
            && rw_solver_advance (first, K_STEPS, &err), "rank %d: first part: %s", rank,
            err.message);
  char path[700];
  rw_solver_checkpoint_path (first, dir, path, sizeof path);
  RW_CHECK (rw_solver_checkpoint_save (first, path, &err), "rank %d: save: %s", rank, err.message);
  rw_solver_free (first);
  RwSolver *rest = rw_solver_new (&room.su, RW_BACKEND_CPU, &err);
  bool did = false;
  RW_CHECK (rw_solver_checkpoint_resume (rest, dir, &did, &err) && did
            && rw_solver_step (rest) == K_STEPS, "rank %d: resume: %s", rank, err.message);
  RW_CHECK (rw_solver_advance (rest, N_STEPS - K_STEPS, &err), "rank %d: rest: %s", rank,
            err.message);
  snprintf (w, sizeof w, "rank %d of %d, %s, saved at %d", rank, size, what, K_STEPS);
  ck_same_run (whole, rest, room.n_rcv, N_STEPS, w);
  rw_solver_free (rest);

  /* asked for on rank 1 only */
  atomic_int now = 0;
  Term term = { .now = &now, .rank = rank };
  RwSolver *stopped = rw_solver_new (&room.su, RW_BACKEND_CPU, &err);
  RW_CHECK (rw_solver_set_checkpoint (stopped, dir, 0.0, &now, &err), "set: %s", err.message);
  const bool ran = rw_solver_run (stopped, term_on_rank_1, &term, NULL, &err);
  RW_CHECK (!ran && err.code == RW_ERROR_CANCELLED && strstr (err.message, dir) != NULL,
            "rank %d: stopped after the checkpoint rank 1 asked for: %s", rank, err.message);
  const size_t at = rw_solver_step (stopped);
  rw_solver_free (stopped);
  RwSolver *resumed = rw_solver_new (&room.su, RW_BACKEND_CPU, &err);
  RW_CHECK (rw_solver_set_checkpoint (resumed, dir, 0.0, NULL, &err)
            && rw_solver_checkpoint_resume (resumed, dir, &did, &err) && did
            && rw_solver_step (resumed) == at && at > 0 && at < N_STEPS,
            "rank %d: resumed at step %zu: %s", rank, at, err.message);
  RW_CHECK (rw_solver_run (resumed, NULL, NULL, NULL, &err), "rank %d: resumed run: %s", rank,
            err.message);
  snprintf (w, sizeof w, "rank %d of %d, %s, stopped at %zu by rank 1", rank, size, what, at);
  ck_same_run (whole, resumed, room.n_rcv, N_STEPS, w);
  rw_solver_free (resumed);

  /* the final checkpoint: receivers gathered */
  RwSolver *done = rw_solver_new (&room.su, RW_BACKEND_CPU, &err);
  RW_CHECK (rw_solver_checkpoint_resume (done, dir, &did, &err) && did
            && rw_solver_step (done) == N_STEPS, "rank %d: resumed at the end: %s", rank,
            err.message);
  snprintf (w, sizeof w, "rank %d of %d, %s, resumed at the end", rank, size, what);
  ck_same_run (whole, done, room.n_rcv, N_STEPS, w);
  rw_solver_free (done);

  /* one rank offered the 2 ranks' checkpoint */
  if (rank == 0)
    {
      room.su.comm = NULL;
      RwSolver *one = rw_solver_new (&room.su, RW_BACKEND_CPU, &err);
      RW_CHECK (!rw_solver_checkpoint_load (one, path, &err) && strstr (err.message, path) != NULL
                && strstr (err.message, "2 ranks") != NULL,
                "%s: the file on one rank: refused, saying it needs 2: %s", what, err.message);
      RW_NOTE ("%s", err.message);
      RW_CHECK (!rw_solver_checkpoint_resume (one, dir, &did, &err) && !did
                && strstr (err.message, "mpirun -np 2") != NULL,
                "%s: the folder on one rank: refused, saying it needs 2: %s", what, err.message);
      RW_NOTE ("%s", err.message);
      rw_solver_free (one);
      RW_NOTE ("%s, %d ranks: checkpointed at %d and at %zu (asked on rank 1), and at the end: "
               "bit for bit", what, size, K_STEPS, at);
    }
  rw_solver_free (whole);
  ck_room_clear (&room);
}

int
main (void)
{
  RwError err;
  rw_error_clear (&err);
  RwComm *comm = rw_comm_world (&err);
  if (comm == NULL && err.code != RW_OK)
    {
      fprintf (stderr, "%s\n", err.message);
      return 1;
    }
  if (rw_comm_size (comm) != 2)
    {
      rw_comm_finalize ();
      rw_test_skip ("run under mpirun -np 2");
      return rw_test_finish ();
    }
  /* one folder for both ranks: rank 0's */
  char base[512] = "";
  if (rw_comm_rank (comm) == 0)
    snprintf (base, sizeof base, "%s", rw_test_tmpdir ());
  rw_comm_bcast (comm, base, sizeof base, 0, &err);
  run_lattice (comm, RW_LATTICE_CUBIC, base);
  run_lattice (comm, RW_LATTICE_FCC, base);
  int ok = rw_test_failures == 0;
  rw_comm_min_int (comm, &ok, &err);
  if (!ok && rw_test_failures == 0)
    RW_CHECK (false, "another rank failed");
  rw_comm_finalize ();
  return rw_test_finish ();
}
