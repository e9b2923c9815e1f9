/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-cuda-fcc.cuh — the CUDA backend's FCC path (rw-cuda-fcc.cu), as the
 * backend's operations (rw-cuda-backend.cu) call it for grids on the FCC
 * lattice. A state it makes starts with the tag RW_CUDA_TAG_FCC, as
 * RwCudaState starts with its own (0): the operations dispatch on it. */
#pragma once

#include "rw-cuda-common.cuh"

#define RW_CUDA_TAG_FCC 0x464343   /* "FCC" */

size_t rw_cuda_fcc_memory_bytes (const RwSolverSetup *setup);
void *rw_cuda_fcc_create (const RwSolverSetup *setup, RwError *err);
bool rw_cuda_fcc_advance (void *state, size_t step0, size_t n, double *rcv, size_t stride,
                          RwError *err);
bool rw_cuda_fcc_read_field (void *state, double *p, double *p_prev, RwError *err);
bool rw_cuda_fcc_energy (void *state, RwEnergyReading *out, RwError *err);
bool rw_cuda_fcc_read_slice (void *state, int axis, size_t index, float *out, RwError *err);
/* The test hook rw_cuda_debug_write_field (rw-cuda.h): cubic arrays in,
 * the sites' values stored (every entry that is no site set to 0). */
bool rw_cuda_fcc_write_field (void *state, const double *p, const double *p_prev, RwError *err);
const char *rw_cuda_fcc_device_name (void *state);
/* The field and state the slab and checkpoint operations copy
 * (rw-cuda-common.cuh). */
RwCudaCopyable rw_cuda_fcc_copyable (void *state);
void rw_cuda_fcc_destroy (void *state);
/* 2 where it advances two steps a pass (rw_fcc_tb_pass), else 1. */
int rw_cuda_fcc_steps_per_pass (void *state);

/* Whether a state of the CUDA backend is the FCC path's. */
static inline bool
rw_cuda_is_fcc (const void *state)
{
  return state != NULL && *(const int *) state == RW_CUDA_TAG_FCC;
}
