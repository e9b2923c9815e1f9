/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-checkpoint.h — a run's state in a file, and the run continued from it
 * (issue #15; docs/CHECKPOINT.md).
 *
 * A long run on a cluster may be pre-empted (SIGTERM, then SIGKILL a
 * little later). A checkpoint holds everything the run continues from, so
 * that the continued run gives the uninterrupted run's receivers bit for
 * bit: the step, the backend's state (both fields and every branch state
 * of the frequency-dependent surfaces: RwBackendOps.save_state), the
 * receiver samples so far, the uniform-mode readings and the growth
 * monitor's reference. With ranks, every rank writes its own file,
 * DIR/rank-R-of-N.ckpt (R from 0), at the same step.
 *
 * The file (version 1, host byte order; a file of the other order is
 * refused): a header of 64-bit words — magic, version, rank and number of
 * ranks, the rank's slab, the grid's size and lattice, precision,
 * boundary, backend, n_steps, four fingerprints of the setup (the rank's
 * grid: K, surface ids, areas, h, origin; the surfaces: R, admittances,
 * time step; the source: its cells, weights and signal; the receivers:
 * their cells and stencils), the step and the sizes of what follows — with
 * a checksum of its own; then the receiver samples, the readings and the
 * backend's state; then a checksum of everything before it. Both
 * checksums are FNV-1a over 64-bit words: any one changed word changes
 * them. Loading checks the header's checksum, then that the file is as
 * long as the header says (a truncated file is named as such), then that
 * it was made by this run (a message naming the file and what differs:
 * the number of ranks it needs, the grid, the precision, the backend, the
 * number of steps, the room, the surfaces, the source or the receivers),
 * then the checksum of the whole, then that its uniform-mode readings
 * and energy reference are a run's (steps rising, values finite: a file
 * that passes the checksums may still not be), and only then changes the
 * solver.
 *
 * Writing is atomic (rw-file.h: a temporary file beside the destination,
 * fsync, rename), so a kill during the write leaves the previous
 * checkpoint in place; with ranks, no rank renames before every rank has
 * written and synced its file, so that the files in DIR are always of one
 * step (a load checks that too).
 *
 * With ranks (RwSolverSetup.comm), save, load and resume are collective:
 * every rank calls them, each with its own file, and every rank fails
 * when one does (with that rank's message). */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "rw-error.h"
#include "rw-solver.h"

#define RW_CHECKPOINT_VERSION 1

/* Writes the solver's state to path (atomically). */
bool rw_solver_checkpoint_save (RwSolver *s, const char *path, RwError *err);
/* Replaces the solver's state by path's, which must be a checkpoint of
 * the same setup on the same number of ranks and the same backend and
 * precision; the solver then continues from its step. On failure the
 * solver is as it was, unless the backend failed to take the state (the
 * solver then fails every later call, saying why). */
bool rw_solver_checkpoint_load (RwSolver *s, const char *path, RwError *err);
/* This rank's file in dir: "DIR/rank-R-of-N.ckpt". */
void rw_solver_checkpoint_path (const RwSolver *s, const char *dir, char *buf, size_t len);
/* Continues from dir's checkpoint when it holds this rank's file
 * (*resumed true, the solver at the checkpoint's step), else starts
 * afresh (*resumed false). Fails when dir holds the checkpoint of a run
 * over another number of ranks (saying how many it needs), when some
 * ranks' files are missing, or when a file is not of this run. A missing
 * dir is an empty one. Temporary files a killed write left of this rank's
 * file are removed. */
bool rw_solver_checkpoint_resume (RwSolver *s, const char *dir, bool *resumed, RwError *err);
/* Removes the checkpoint files (rank-*-of-*.ckpt) from dir and from its
 * source-N subfolders, and the subfolders when that empties them: after
 * a run whose results are safe. Best effort; false when something could
 * not be removed (err says what). */
bool rw_checkpoint_remove (const char *dir, RwError *err);
