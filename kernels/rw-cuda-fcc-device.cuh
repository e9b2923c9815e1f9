/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-cuda-fcc-device.cuh — what the FCC path's production kernels
 * (rw-cuda-fcc.cu) and its benchmark-only scalar air kernel
 * (rw-cuda-fcc-scalar.cu) share: the interior update in the arithmetic
 * type, and the scalar kernel's launch. Device code only. */
#pragma once

#include "rw-cuda-common.cuh"
#include "rw-scheme-fcc.h"

/* The most threads of an air kernel's block (ROOMWAVE_FCC_BLOCK). */
#define RW_FCC_MAX_THREADS 512

__device__ __forceinline__ float rw_fcc_air (float p, float s, float pp)
{ return rw_fcc_update_air_f32 ((float) RW_FCC_LAMBDA2, p, s, pp); }
__device__ __forceinline__ double rw_fcc_air (double p, double s, double pp)
{ return rw_fcc_update_air_f64 ((double) RW_FCC_LAMBDA2, p, s, pp); }

/* The scalar form of the air kernel (rw-cuda-fcc-scalar.cu;
 * ROOMWAVE_FCC_AIR=scalar, for benchmarks only) on `stream`: the
 * arguments of rw_kernel_fcc_air_wide. Instantiated for the three
 * storage types and 32- and 64-bit indices. */
template <typename S, typename I>
void rw_fcc_air_scalar_launch (dim3 grd, dim3 blk, cudaStream_t stream, const S *p, S *q,
                               const uint8_t *kind, const uint2 *zr, unsigned zc, unsigned cz0,
                               unsigned zlo, unsigned zhi, I pitch, I ny, int step, int *bad);
