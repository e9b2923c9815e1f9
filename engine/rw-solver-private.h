/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-solver-private.h — the solver front end's state, for the engine's
 * own files that extend it (rw-solver.c; checkpoints). Callers use
 * rw-solver.h. */
#pragma once

#include "rw-comm.h"
#include "rw-slab.h"
#include "rw-solver.h"

struct RwSolver {
  RwSolverSetup setup;           /* copy: the backend borrows it */
  const RwBackendOps *ops;
  void *state;
  size_t step;                   /* steps done */
  double *rcv;                   /* n_receivers × n_steps, receiver-major */
  /* receiver stencils (rw-solver.h): setup.receiver_cells is cells[], one
   * backend receiver per stencil cell (setup.n_receivers of them), whose
   * samples go to cell_rcv; rcv holds the n_user weighted sums. Without
   * stencils, n_user == setup.n_receivers and the backend writes rcv. */
  size_t n_user;
  const RwGridStencil *stencils;
  size_t *cells;
  double *cell_rcv;
  bool failed;                   /* a backend step failed: the field is unusable */
  RwError failure;
  /* the growth monitor (rw-solver.h) */
  size_t quiet_from;             /* first step from which the energy may not grow */
  double e_first, e_min;         /* first reading from quiet_from on; least since; 0: none */
  size_t e_min_step;
  bool branches;                 /* frequency-dependent surfaces (their floor is higher) */
  /* the sum of p at each reading (rw_solver_uniform_mode) */
  size_t *m_steps;
  double *m_sums;
  size_t m_count, m_cap;
  /* ranks (RwSolverSetup.comm, rw-slab.h); comm NULL: one rank, none of
   * this. The backend steps `local` (the slab: its grid, its share of the
   * source, the receiver cells it owns, local_of[k] the index among the
   * setup's receiver cells of its receiver k, whose samples go to
   * local_rcv until the run's end gathers them into every rank's rcv or
   * cell_rcv). */
  const RwComm *comm;
  int rank, size;
  size_t *cuts;                  /* size + 1 planes (rw_slab_plan) */
  RwSlab slab;
  RwSolverSetup local;
  RwGridStencil local_source;
  size_t *local_cells, *local_of, n_local;
  double *local_rcv;
  size_t plane_bytes;
  unsigned char *halo;           /* 2 · halo planes: send, then receive */
  bool gathered;
  bool device_halo;              /* the backend exchanges the halos (halo_attach) */
  size_t own_inside;             /* inside cells on the owned planes */
  size_t total_inside;           /* the whole grid's (Σ own_inside over the ranks) */
  bool slab_borrowed;            /* slab is the caller's (RwSolverSetup.slab) */
  double *rank_rate;             /* per rank: Mvox/s over the last chunk (RwProgress) */
  /* checkpoints (rw-checkpoint.c; rw_solver_set_checkpoint): dir NULL: none */
  char *ckpt_dir;
  double ckpt_every_s, ckpt_last_s;   /* period; rw_clock_s of the last write (or the set) */
  const atomic_int *ckpt_now;
  bool ckpt_have;                     /* ckpt_step's checkpoint was written or loaded */
  bool ckpt_fp_have;                  /* ckpt_fp: the setup's fingerprints, made once */
  uint64_t ckpt_fp[4];
  size_t ckpt_step;
};

/* Whether the backend's state is still there (false after
 * rw_solver_release_device, with err saying so): every entry that steps,
 * reads or saves the field asks this first. */
bool rw_solver_live (const RwSolver *s, RwError *err);
/* Every rank learns whether all went well (rw-solver.c); if not, each
 * fails with the message of the lowest rank that failed. */
bool rw_solver_agree (RwSolver *s, bool ok, RwError *err);
/* At each chunk boundary of rw_solver_run and at its end (final): writes
 * a checkpoint when one is due (rw-checkpoint.c); false with `err` set
 * when the run must stop. Collective with ranks. */
bool rw_solver_checkpoint_tick (RwSolver *s, bool final, RwError *err);
