/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-cuda-fcc-device.cuh — what the FCC path's production kernels
 * (rw-cuda-fcc.cu) and its benchmark-only scalar air kernel
 * (rw-cuda-fcc-scalar.cu) share: the interior update in the arithmetic
 * type, and the scalar kernel's launch. Device code only. */
#pragma once

#include "rw-cuda-common.cuh"
#include "rw-cuda-fcc-tables.h"
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

/* Time n + 1 of the source's interior cells into n1 and the source of
 * step n + 1 (hard, s1: as rw_kernel_io) added to all its cells there
 * (when src.n > 0; the boundary sites' n + 1 must be in n1 already), then
 * rw_kernel_fcc_tb (rw-cuda-fcc-tb.cu) on grid grd (segments of 30·W
 * entries, tiles of RW_FCC_TB_BY − 2 rows (rw-cuda-fcc-tables.h), chunks
 * of zc planes) from p (time n) and q
 * (n − 1) into n1 (n + 1) and n2 (n + 2), reading n1 where a site is not
 * interior or is a cell of the source; split: the neighbours added in the
 * split sums' grouping, as the single steps' air kernel adds them
 * (RwFccSplit; fp32 and fp16 only). Instantiated for the three storage
 * types and 32- and 64-bit indices. */
template <typename S, typename I>
void rw_fcc_tb_launch (dim3 grd, cudaStream_t stream, const S *p, const S *q, S *n1, S *n2,
                       const uint8_t *kind, const uint2 *zr, unsigned zc, I pitch, I ny,
                       const RwCudaSource &src, int step, int *bad, int hard, double s1,
                       bool split);
