/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-comm-none.c — rw-comm.h without MPI: one rank, and a launch with
 * several refused (each process would run the whole room alone). */
#include "rw-comm.h"

#include <stdio.h>
#include <stdlib.h>

#include "rw-i18n.h"

/* The launcher's number of ranks, 0 when not launched by one. */
static int
launched_size (void)
{
  const char *v = getenv ("OMPI_COMM_WORLD_SIZE");
  if (v == NULL)
    v = getenv ("PMI_SIZE");
  if (v == NULL && getenv ("SLURM_PROCID") != NULL)
    v = getenv ("SLURM_NTASKS");
  return v != NULL ? atoi (v) : 0;
}

bool
rw_comm_launched (void)
{
  return launched_size () >= 1;
}

const char *
rw_comm_library (void)
{
  return "none";
}

RwComm *
rw_comm_world (RwError *err)
{
  if (launched_size () > 1)
    rw_fail (err, RW_ERROR_UNSUPPORTED,
             _("This process was started as one of several MPI ranks, but Roomwave was built "
               "without MPI: each rank would simulate the whole room alone. Rebuild with MPI "
               "(.ci/install-deps installs Open MPI; meson finds it) or run one process"));
  return NULL;
}

void
rw_comm_finalize (void)
{
}

int
rw_comm_rank (const RwComm *c)
{
  (void) c;
  return 0;
}

int
rw_comm_size (const RwComm *c)
{
  (void) c;
  return 1;
}

int
rw_comm_local_rank (const RwComm *c)
{
  (void) c;
  return 0;
}

bool
rw_comm_sendrecv (const RwComm *c, const void *send, size_t send_n, int dst, void *recv,
                  size_t recv_n, int src, RwError *err)
{
  (void) c; (void) send; (void) send_n; (void) dst; (void) recv; (void) recv_n; (void) src;
  return rw_fail (err, RW_ERROR_INTERNAL, _("No MPI: nothing to exchange with"));
}

bool
rw_comm_allgather (const RwComm *c, const void *mine, size_t n, void *all, RwError *err)
{
  (void) c; (void) err;
  for (size_t i = 0; i < n; i++)
    ((char *) all)[i] = ((const char *) mine)[i];
  return true;
}

bool
rw_comm_bcast (const RwComm *c, void *buf, size_t n, int root, RwError *err)
{
  (void) c; (void) buf; (void) n; (void) root; (void) err;
  return true;
}

bool
rw_comm_min_int (const RwComm *c, int *v, RwError *err)
{
  (void) c; (void) v; (void) err;
  return true;
}

_Noreturn void
rw_comm_abort (const RwComm *c, const char *why)
{
  (void) c;
  fprintf (stderr, "%s\n", why);
  abort ();
}
