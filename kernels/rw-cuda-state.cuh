/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-cuda-state.cuh — the state of the CUDA backend, shared by the backend
 * (rw-cuda-backend.cu) and the benchmark (rw-cuda-bench.cu), which runs
 * the production kernel and the six strategies over the same arrays. */
#pragma once

#include "rw-cuda-common.cuh"

#define RW_N_VARIANTS RW_CUDA_N_VARIANTS

/* Variant 13's blocks: 32 × RW_TB_BY threads, tiles of 60 × (RW_TB_BY − 4)
 * cells (rw_kernel_tb). */
#define RW_TB_BY 16
/* and at least this many of them resident a SM (__launch_bounds__) */
#define RW_TB_MIN_BLOCKS 2

/* Guard elements before and after each field array (rw-cuda-items.h) */
#define RW_FIELD_GUARD RW_CUDA_FIELD_GUARD

/* ring slots of variants 11 and 12 */
__host__ __device__ constexpr int
rw_bulk_nb (int variant)
{
  return variant == 12 ? 6 : 4;
}

__host__ __device__ constexpr size_t
rw_bulk_stage_bytes (int tx, int ty, int elem)
{
  return ((size_t) ((ty + 2) * (tx * (16 / elem) + 2 * (16 / elem)) + ty * tx * (16 / elem)) * elem
          + 127) / 128 * 128;
}

/* Cells per thread: variant 3 loads 16-byte vectors, variant 4 8-byte
 * ones (fp64: 16 in both). */
__host__ __device__ constexpr int
rw_wide_w (int variant, int elem_bytes)
{
  return elem_bytes == 8 ? 2 : (variant == 4 || variant == 7 ? 8 : 16) / elem_bytes;   /* 3, 5, 6, 8, 9, 10: 16 */
}

/* The kernel of an experimental variant (rw-cuda-variants.cu; NULL for
 * the production variants 5, 9 and 13, which rw-cuda-backend.cu owns). */
const void *rw_cuda_variant_kernel (RwPrecision precision, RwBoundary boundary, int variant);

struct RwCudaState
{
  int tag;                      /* 0; the FCC path's state has RW_CUDA_TAG_FCC here (rw-cuda-fcc.cuh) */
  char name[256];
  int device;                   /* the CUDA device (RwSolverSetup.device) */
  size_t gx;                    /* the grid's nx */
  size_t nx, ny, nz, n, n_inside; /* nx: the device row pitch (gx rounded up to 32) */
  RwPrecision precision;
  RwBoundary boundary;
  int variant;                  /* production kernel variant (rw-cuda-backend.cu) */
  size_t elem;                  /* bytes per stored value */
  void *p, *q;                  /* p: time n; q: time n − 1, overwritten with n + 1 */
  void *field_mem;              /* p and q, each with guards (rw_field_span) */
  uint8_t *cell;
  uint2 *zrange;                /* per column: zlo, zhi */
  uint2 *zrange_w;              /* per group of wide_w columns: their union */
  size_t wide_w;                /* cells per thread of the wide kernel */
  unsigned *air;                /* a bit per group of wide_w cells: all air */
  int4 *items;                  /* x0, y0, z0, z1 */
  size_t n_items, items_cap;
  int bx, by;
  size_t shm;                   /* dynamic shared memory per block (variants 8, 9, 11, 12) */
  RwSlotTable slots;
  const double *source;         /* host, borrowed */
  size_t n_steps;
  RwCudaSource src;             /* the source's cells (padded) and weights; n = 0: none */
  int source_hard;
  size_t n_rcv;
  size_t *rcv_cells;            /* device */
  double *rcv_dev;              /* n_rcv × RW_RCV_CHUNK, receiver-major */
  double *rcv_host;
  int *bad;                     /* first non-finite step, INT_MAX if none */
  float *slice;                 /* largest plane */
  size_t slice_cap;
  uint32_t *zlo_host, *zhi_host; /* per column (pitch × ny), for rebuilding items */
  bool tb;                      /* variant 13: two-step passes (rw_cuda_tb_pass) */
  void *p_spare, *q_spare;      /* variant 13: where a pass writes n + 2 and n + 1 */
  void *field_mem2;             /* variant 13: the spare pair, as field_mem */
  int4 *tb_items;               /* variant 13: x0, y0, z0, z1 of each tile chunk */
  size_t n_tb_items;
  double *energy;               /* the growth monitor's energy and its parts (rw-cuda-energy.cu) */
  RwExactSum *exact;            /* the sum of p, then its blocks' parts */
  size_t own_z0, own_z1;        /* the planes they sum: a slab's owned ones (RwSolverSetup), else all */
  /* frequency-dependent FV nodes (rw-cuda-branches.cu): the list (each
   * node with its surface's branch count), per surface Y0 + Σ b,
   * coefficients (4 per branch, at s · 4 · RW_ADM_MAX_BRANCHES, zero beyond
   * its branches) and energy weights (2 per branch), all in double, and
   * the states v, q */
  RwBranchNode *bn;
  size_t n_bn;
  int b_m_max;                  /* the most branches of any surface */
  void *b_beta, *b_coef, *bv, *bq;
  void *bp;                     /* p⁻ of each listed node, in the storage type */
  double *b_en;
  cudaError_t launch_error;     /* the first failed launch since the last check … */
  const char *launch_what;      /* … and which it was (rw_launched) */
  cudaStream_t stream;
  cudaEvent_t ev0, ev1;
  struct RwCudaHalo *halo;      /* device halos (rw-cuda-halo.cuh): single steps, the exchange overlapped; NULL: none */
  int4 *halo_items;             /* with a halo: the items clipped to its windows (rw_cuda_halo_windows): */
  size_t halo_n[3];             /* … [w0, w1), [w2, w3), then the interior [w1, w2) */
  size_t *bn_z;                 /* the first branch node at or above each plane (host, nz + 1; NULL: no nodes) */
};

/* After each step of the main kernel: the branch nodes (reads st->p,
 * writes st->q). */
void rw_cuda_launch_branches (RwCudaState *st, int step);
/* The same for the nodes [k0, k1) of the list alone (a halo's windows). */
void rw_cuda_launch_branches_range (RwCudaState *st, int step, size_t k0, size_t k1);
/* Each listed node's p⁻ (st->bp) from st->q, after the field was written
 * from outside the steps (rw_cuda_debug_write_field). */
bool rw_cuda_branch_gather (RwCudaState *st, RwError *err);
/* The branch nodes' stored energy as parts of the energy reading
 * (rw_block_parts: part[k] block k's sum), at most
 * RW_ENERGY_BLOCKS; returns their number (0: no nodes). Only the nodes at
 * padded indices [i0, i1) count (a slab's owned planes). */
unsigned rw_cuda_branch_energy (RwCudaState *st, size_t i0, size_t i1, double *part);

/* The discrete energy of the current field pair and the exact sum of p
 * (RwBackendOps.energy, RwEnergyReading; rw-cuda-energy.cu). */
bool rw_cuda_energy (RwCudaState *st, RwEnergyReading *out, RwError *err);
/* Launches one step of the production kernel (no source, no receivers):
 * reads st->p, writes st->q. The caller swaps them. */
void rw_cuda_launch_step (RwCudaState *st, int step);
/* Variant 13 (st->tb): two steps in one pass, no source, no receivers
 * (the benchmark's). */
void rw_cuda_pass_steps (RwCudaState *st);
/* p and q back to the first pair of arrays (after variant 13's passes
 * moved them to the spare pair): where the benchmark starts each kernel. */
void rw_cuda_home_fields (RwCudaState *st);
/* Variant 13's two-step kernel (NULL for fp64, which runs single steps). */
const void *rw_cuda_tb_func (RwPrecision precision, RwBoundary boundary);
/* The production kernel for a precision and boundary form (for
 * cudaFuncGetAttributes). */
const void *rw_cuda_production_func (RwPrecision precision, RwBoundary boundary);
