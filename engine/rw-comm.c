/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-comm.c — what rw-comm.h builds from its collectives, with MPI or
 * without (rw-comm-mpi.c, rw-comm-none.c). */
#include "rw-comm.h"

#include <limits.h>

#include "rw-i18n.h"

bool
rw_comm_agree (const RwComm *comm, bool ok, RwError *err)
{
  const int rank = rw_comm_rank (comm), size = rw_comm_size (comm);
  if (size == 1)
    return ok;
  int first = ok ? INT_MAX : rank;
  RwError mine, msg;
  rw_error_clear (&mine);
  rw_error_clear (&msg);
  if (!rw_comm_min_int (comm, &first, &mine))
    {
      if (err != NULL)
        *err = mine;
      return false;
    }
  if (first == INT_MAX)
    return true;
  if (err != NULL && first == rank)
    msg = *err;
  if (!rw_comm_bcast (comm, &msg, sizeof msg, first, &mine))
    {
      if (err != NULL)
        *err = mine;
      return false;
    }
  if (err != NULL)
    {
      *err = msg;
      rw_fail_prefix (err, _("rank %d of %d"), first, size);
    }
  return false;
}
