/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-comm-mpi.c — rw-comm.h over MPI (Open MPI from Debian in CI). */
#include "rw-comm.h"

#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rw-i18n.h"

struct RwComm {
  MPI_Comm comm;
  int rank, size, local_rank;
};

static RwComm world;
static bool started;       /* by us: finalise at the end */

bool
rw_comm_launched (void)
{
  const char *vars[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "SLURM_NTASKS",
                         "MPI_LOCALNRANKS" };
  /* PMIX_RANK without a size: Open MPI 5 under PRRTE */
  if (getenv ("OMPI_COMM_WORLD_SIZE") == NULL && getenv ("PMIX_RANK") != NULL)
    return true;
  for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
    {
      const char *v = getenv (vars[i]);
      /* SLURM_NTASKS alone does not mean this process is a task of srun */
      if (v != NULL && (strcmp (vars[i], "SLURM_NTASKS") != 0 || getenv ("SLURM_PROCID") != NULL))
        return atoi (v) >= 1;
    }
  return false;
}

const char *
rw_comm_library (void)
{
  static char name[MPI_MAX_LIBRARY_VERSION_STRING];
  if (name[0] == '\0')
    {
      int len = 0;
      MPI_Get_library_version (name, &len);
      /* first line only ("Open MPI v4.1.4, package: …") */
      char *nl = strpbrk (name, ",\n");
      if (nl != NULL)
        *nl = '\0';
    }
  return name;
}

static bool
mpi_fail (int rc, const char *what, RwError *err)
{
  char msg[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string (rc, msg, &len) != MPI_SUCCESS)
    snprintf (msg, sizeof msg, "code %d", rc);
  return rw_fail (err, RW_ERROR_INTERNAL, _("MPI failed in %s: %s"), what, msg);
}

RwComm *
rw_comm_world (RwError *err)
{
  int init = 0;
  MPI_Initialized (&init);
  if (!init)
    {
      if (!rw_comm_launched ())
        return NULL;
      int provided = 0;
      /* the solver's thread calls MPI (the GUI's worker, OpenMP's master):
       * one thread at a time */
      int rc = MPI_Init_thread (NULL, NULL, MPI_THREAD_SERIALIZED, &provided);
      if (rc != MPI_SUCCESS)
        {
          mpi_fail (rc, "MPI_Init_thread", err);
          return NULL;
        }
      started = true;
      world.comm = MPI_COMM_WORLD;
      MPI_Comm_rank (world.comm, &world.rank);
      MPI_Comm_size (world.comm, &world.size);
      MPI_Comm local;
      world.local_rank = 0;
      if (MPI_Comm_split_type (world.comm, MPI_COMM_TYPE_SHARED, world.rank, MPI_INFO_NULL, &local)
          == MPI_SUCCESS)
        {
          MPI_Comm_rank (local, &world.local_rank);
          MPI_Comm_free (&local);
        }
      /* errors come back as codes, which the callers turn into messages */
      MPI_Comm_set_errhandler (world.comm, MPI_ERRORS_RETURN);
    }
  else if (world.size == 0)
    {
      world.comm = MPI_COMM_WORLD;
      MPI_Comm_rank (world.comm, &world.rank);
      MPI_Comm_size (world.comm, &world.size);
    }
  return &world;
}

void
rw_comm_finalize (void)
{
  int fin = 0;
  MPI_Finalized (&fin);
  if (started && !fin)
    MPI_Finalize ();
  started = false;
}

int
rw_comm_rank (const RwComm *c)
{
  return c != NULL ? c->rank : 0;
}

int
rw_comm_size (const RwComm *c)
{
  return c != NULL ? c->size : 1;
}

int
rw_comm_local_rank (const RwComm *c)
{
  return c != NULL ? c->local_rank : 0;
}

/* MPI counts are int: move n bytes in pieces of at most 1 GiB. */
#define RW_COMM_PIECE ((size_t) 1 << 30)

bool
rw_comm_sendrecv (const RwComm *c, const void *send, size_t send_n, int dst, void *recv,
                  size_t recv_n, int src, RwError *err)
{
  const char *s = send;
  char *r = recv;
  if (c == NULL)
    return rw_fail (err, RW_ERROR_INTERNAL, _("No MPI: nothing to exchange with"));
  while (send_n > 0 || recv_n > 0)
    {
      const int sn = (int) (send_n < RW_COMM_PIECE ? send_n : RW_COMM_PIECE);
      const int rn = (int) (recv_n < RW_COMM_PIECE ? recv_n : RW_COMM_PIECE);
      int rc = MPI_Sendrecv (s, dst >= 0 ? sn : 0, MPI_BYTE, dst >= 0 ? dst : MPI_PROC_NULL, 17,
                             r, src >= 0 ? rn : 0, MPI_BYTE, src >= 0 ? src : MPI_PROC_NULL, 17,
                             c->comm, MPI_STATUS_IGNORE);
      if (rc != MPI_SUCCESS)
        return mpi_fail (rc, "MPI_Sendrecv", err);
      s += sn;
      r += rn;
      send_n -= (size_t) sn;
      recv_n -= (size_t) rn;
    }
  return true;
}

bool
rw_comm_allgather (const RwComm *c, const void *mine, size_t n, void *all, RwError *err)
{
  if (c == NULL)
    {
      memcpy (all, mine, n);
      return true;
    }
  if (n > INT_MAX)
    return rw_fail (err, RW_ERROR_INTERNAL, _("MPI_Allgather of %zu bytes per rank"), n);
  int rc = MPI_Allgather (mine, (int) n, MPI_BYTE, all, (int) n, MPI_BYTE, c->comm);
  return rc == MPI_SUCCESS || mpi_fail (rc, "MPI_Allgather", err);
}

bool
rw_comm_bcast (const RwComm *c, void *buf, size_t n, int root, RwError *err)
{
  char *b = buf;
  if (c == NULL)
    return true;
  while (n > 0)
    {
      const int k = (int) (n < RW_COMM_PIECE ? n : RW_COMM_PIECE);
      int rc = MPI_Bcast (b, k, MPI_BYTE, root, c->comm);
      if (rc != MPI_SUCCESS)
        return mpi_fail (rc, "MPI_Bcast", err);
      b += k;
      n -= (size_t) k;
    }
  return true;
}

bool
rw_comm_min_int (const RwComm *c, int *v, RwError *err)
{
  if (c == NULL)
    return true;
  int in = *v;
  int rc = MPI_Allreduce (&in, v, 1, MPI_INT, MPI_MIN, c->comm);
  return rc == MPI_SUCCESS || mpi_fail (rc, "MPI_Allreduce", err);
}

_Noreturn void
rw_comm_abort (const RwComm *c, const char *why)
{
  fprintf (stderr, _("rank %d of %d: %s\n"), rw_comm_rank (c), rw_comm_size (c), why);
  fflush (stderr);
  MPI_Abort (c != NULL ? c->comm : MPI_COMM_WORLD, 1);
  abort ();
}
