/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-cuda.h — what the CUDA backend offers beyond RwBackendOps: the
 * benchmark of the six strategies (seeds/fdtd-cuda-six-strategies.txt) and
 * the production kernel, the copy-bandwidth roofline, the block-shape
 * autotune cache, and test hooks. C linkage; implemented in
 * rw-cuda-backend.cu, rw-cuda-bench.cu and rw-cuda-autotune.c. Only built
 * when nvcc was found (RW_HAVE_CUDA in rw-config.h).
 *
 * Device data of a cell, one byte (docs/GPU.md): bits 0–2 K (0 outside,
 * 6 air, 1–5 boundary), bits 3–7 the slot of the cell's surface in a table
 * of at most RW_CUDA_MAX_SLOTS distinct reflection factors, passed to every
 * kernel as a by-value parameter (constant bank).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "rw-cuda-items.h"
#include "rw-error.h"
#include "rw-solver.h"
#include "rw-voxel.h"


/* Variants of the production kernel (docs/GPU.md); the environment
 * variable ROOMWAVE_CUDA_VARIANT=0…13 picks one, for benchmarks. */
#define RW_CUDA_N_VARIANTS 14

/* Thread-block shapes the autotune tries (x × y threads). */
#define RW_CUDA_N_TUNE_SHAPES 10
extern const int rw_cuda_tune_shapes[RW_CUDA_N_TUNE_SHAPES][2];

/* One row of the benchmark table. */
typedef struct {
  char kernel[32];
  int block_x, block_y;
  bool ran;
  char why[160];             /* when !ran: why it was skipped */
  double ms_per_step;        /* median over the timed repeats */
  double gvox_per_s;         /* inside cells updated per second / 1e9 */
  int registers;             /* per thread, cudaFuncGetAttributes */
  double roofline_fraction;  /* gvox_per_s / roofline */
  double max_diff;           /* max |field − production field| after the run */
  int steps_per_pass;        /* 2: the two-step passes of variant 13 (ms_per_step is half a pass) */
} RwCudaBenchRow;

typedef struct {
  char device[256];
  double copy_bytes_per_s;   /* cudaMemcpy D2D, bytes read + written, best of several */
  size_t free_bytes, total_bytes;
} RwCudaDeviceInfo;

/* Opens device `device` and measures its copy bandwidth (on a buffer of
 * `copy_bytes` bytes, 0 → 2 GiB or a quarter of the free memory);
 * rw_cuda_bench then runs on it. */
bool rw_cuda_device_info (int device, size_t copy_bytes, RwCudaDeviceInfo *info, RwError *err);

/* Names of the kernels, in table order: the six strategies, then
 * "production". */
#define RW_CUDA_N_KERNELS 7
extern const char *const rw_cuda_kernel_names[RW_CUDA_N_KERNELS];

/* Bytes per inside cell and step that the roofline counts: 3 words
 * (read p, read p_prev, write p_next), 12 B in fp32, 6 B fp16, 24 B fp64. */
double rw_cuda_roofline_bytes (RwPrecision precision);

/* Runs `steps` timed steps (after two untimed ones) of each named kernel
 * over the grid, every boundary R from surface_R, FV boundaries, from the
 * same pseudo-random initial field; fills rows[k] for kernels[k]. The six
 * strategies are fp32 only (as in the paper); production takes every
 * precision. block 0×0 for production → autotuned. max_diff compares each
 * final field with the production kernel's. */
bool rw_cuda_bench (const RwGrid *g, const double *surface_R, const struct RwAdmittance *surface_Y,
                    double time_step_s, RwPrecision precision,
                    const char *const *kernels, size_t n_kernels, int block_x, int block_y,
                    int steps, double copy_bytes_per_s, RwCudaBenchRow *rows, RwError *err);

/* Test hooks on a state made by rw_cuda_backend ()->create. */
bool rw_cuda_debug_write_field (void *state, const double *p, const double *p_prev,
                                RwError *err);
/* Block shape chosen (autotuned or set) and the number of work items
 * (block × z-chunk) of the compact launch list. */
void rw_cuda_debug_launch (void *state, int *block_x, int *block_y, size_t *n_items);
/* 2 where the solver advances by two-step passes (variant 13; the FCC
 * path's rw_fcc_tb_pass), else 1. */
int rw_cuda_debug_steps_per_pass (void *state);
/* A plane where two z chunks of one tile of the passes meet (their items'
 * z1 and z0), −1 if there is none. */
int rw_cuda_debug_tb_seam (void *state);

/* Autotune cache ($XDG_CACHE_HOME/roomwave/autotune.json, else
 * ~/.cache/roomwave/autotune.json): key → block shape. */
/* A cached shape of more than max_threads threads (the kernel's
 * cudaFuncGetAttributes maxThreadsPerBlock) is not found. */
bool rw_cuda_autotune_lookup (const char *key, int max_threads, int *block_x, int *block_y);
void rw_cuda_autotune_store (const char *key, int block_x, int block_y, double gvox_per_s);

#ifdef __cplusplus
}
#endif
