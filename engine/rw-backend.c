/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-backend.c — the registry of solver backends (rw-backend.h). */
#include <string.h>

#include "rw-backend.h"

/* Devices first, the CPU last: the order AUTO tries them in. */
static size_t
registry (const RwBackendOps *out[], size_t cap)
{
  size_t n = 0;
  const RwBackendOps *cuda = rw_cuda_backend ();
  if (cuda != NULL && n < cap)
    out[n++] = cuda;
  if (n < cap)
    out[n++] = &rw_cpu_backend;
  return n;
}

size_t
rw_backend_count (void)
{
  const RwBackendOps *all[RW_BACKEND_MAX];
  return registry (all, RW_BACKEND_MAX);
}

const RwBackendOps *
rw_backend_at (size_t i)
{
  const RwBackendOps *all[RW_BACKEND_MAX];
  return i < registry (all, RW_BACKEND_MAX) ? all[i] : NULL;
}

int
rw_backend_rank_device (const RwBackendOps *ops, int device, int local_rank)
{
  const int nd = ops->device_count () > 0 ? ops->device_count () : 1;
  return (device + local_rank) % nd;
}

const RwBackendOps *
rw_backend_find (const char *name)
{
  for (size_t i = 0; name != NULL && i < rw_backend_count (); i++)
    if (strcmp (rw_backend_at (i)->name, name) == 0)
      return rw_backend_at (i);
  return NULL;
}
