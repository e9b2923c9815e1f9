/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-comm.h — the ranks of a run spread over processes (issue #15).
 *
 * One MPI rank per device: `mpirun -np N roomwave-cli simulate …` (or
 * srun) starts N processes, each of which steps one slab of the grid
 * (rw-slab.h) and exchanges its halo planes with its neighbours every
 * step. This header is the engine's whole view of MPI: the transport is
 * MPI's own (rw-comm-mpi.c); without MPI built in (rw-comm-none.c) there
 * is one rank and a launch by mpirun with several is refused.
 *
 * Every call is collective where MPI's is (all ranks make it, in the same
 * order) and fails with RW_ERROR_INTERNAL naming the MPI error; a rank
 * that dies makes mpirun stop the others (Open MPI's own message). */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "rw-error.h"

typedef struct RwComm RwComm;

/* The ranks of this process's job (MPI_COMM_WORLD), initialising MPI on
 * the first call; NULL when the process was not started by mpirun/srun
 * (one rank: nothing to spread). Fails (NULL, err set) when it was
 * started with several ranks but MPI is not built in, or MPI fails to
 * start. Every function below takes NULL as the one rank of a process
 * on its own. */
RwComm *rw_comm_world (RwError *err);
/* Whether MPI is built in ("Open MPI 4.1.4", "none"). */
const char *rw_comm_library (void);
/* Whether this process looks started by mpirun/srun (the launchers'
 * environment), without initialising MPI. */
bool rw_comm_launched (void);
/* Finalises MPI if rw_comm_world started it (atexit-safe; idempotent). */
void rw_comm_finalize (void);

int rw_comm_rank (const RwComm *c);       /* 0 … size − 1; 0 for NULL */
int rw_comm_size (const RwComm *c);       /* 1 for NULL */
/* The rank among those on this host (for the device index). */
int rw_comm_local_rank (const RwComm *c);

/* Sends send_n bytes to rank dst and receives recv_n bytes from rank
 * src at once (either rank −1: that half is skipped). */
bool rw_comm_sendrecv (const RwComm *c, const void *send, size_t send_n, int dst, void *recv,
                       size_t recv_n, int src, RwError *err);
/* n bytes of `mine` from every rank into all[rank · n …], rank order. */
bool rw_comm_allgather (const RwComm *c, const void *mine, size_t n, void *all, RwError *err);
/* n bytes from rank root to all. */
bool rw_comm_bcast (const RwComm *c, void *buf, size_t n, int root, RwError *err);
/* The least of every rank's v (e.g. an "all went well" flag). */
bool rw_comm_min_int (const RwComm *c, int *v, RwError *err);
/* Whether every rank went well (ok on each); if not, every rank fails
 * with the message of the lowest rank that failed, "rank r of n" before
 * it, so that none is left waiting in the collectives that follow.
 * One rank: ok, err untouched. */
bool rw_comm_agree (const RwComm *c, bool ok, RwError *err);
/* Stops every rank of the job (MPI_Abort) after printing `why`. */
_Noreturn void rw_comm_abort (const RwComm *c, const char *why);
