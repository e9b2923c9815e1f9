/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Built when nvcc was not found: there is no CUDA backend. */
#include "rw-solver.h"

const RwBackendOps *
rw_cuda_backend (void)
{
  return NULL;
}
