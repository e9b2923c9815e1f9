/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-bench.h — solver benchmarks held against a measured roofline.
 *
 * The scheme is memory-bound: per cell and step a backend at best reads p
 * and reads and writes p⁻ once, 3 words (12 B in fp32, 24 B in fp64, 6 B
 * with fp16 storage). The ceiling is therefore the machine's copy
 * bandwidth divided by those bytes. rw_bench_copy measures that bandwidth
 * STREAM-style in the same run (arrays far larger than the last-level
 * cache, the same threads, best of several repeats, bandwidth = bytes read
 * + bytes written per second); rw_bench_solver times the solver on a grid;
 * rw_bench_print prints both and their ratio as a table or as JSON. The
 * CUDA benchmark fills an RwBenchResult with its own device copy figure
 * and prints it with the same function, so the two tables read alike. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "rw-error.h"
#include "rw-solver.h"
#include "rw-voxel.h"

typedef struct {
  char backend[16];             /* "cpu", "cuda" */
  char device[256];
  char precision[8];            /* "fp32", "fp64", "fp16" */
  size_t size[3];               /* inside cells along x, y, z */
  size_t n_inside;
  size_t steps;                 /* timed steps (after the warm-up) */
  double seconds;               /* wall time of the timed steps */
  int threads;                  /* CPU threads (0 for a GPU) */
  double gvox_per_s;            /* inside cells × steps / s / 1e9 */
  double copy_gb_per_s;         /* measured copy bandwidth, (read + written) / s / 1e9 */
  double bytes_per_voxel;       /* 12 (fp32), 24 (fp64), 6 (fp16) */
  double roofline_gvox_per_s;   /* copy_gb_per_s / bytes_per_voxel */
  double roofline_fraction;     /* gvox_per_s / roofline_gvox_per_s */
} RwBenchResult;

/* Bytes per cell and step the scheme must move at best (3 words). */
double rw_bench_bytes_per_voxel (RwPrecision precision);

/* STREAM-style copy b[i] = a[i] over two arrays of array_bytes each
 * (0 → 8 × the last-level cache, at least 64 MiB), with `threads` OpenMP
 * threads (≤ 0: all), best of `repeats`. GB/s = 2 · array_bytes / t / 1e9. */
bool rw_bench_copy (int threads, size_t array_bytes, int repeats,
                    double *gb_per_s, RwError *err);

/* Runs the solver on `g` (an impulse at its centre, rigid walls, FV),
 * a warm-up of a few steps, then `steps` timed steps (0 → as many as take
 * about `target_s` seconds). Fills every field of `out` but the copy and
 * roofline figures. */
bool rw_bench_solver (const RwGrid *g, RwBackendKind backend, RwPrecision precision,
                      int threads, size_t steps, double target_s,
                      RwBenchResult *out, RwError *err);

/* Sets the roofline figures from the copy bandwidth and the speed. */
void rw_bench_set_roofline (RwBenchResult *r, double copy_gb_per_s);

/* A table for people or, with json, one JSON object (keys: gvox_per_s,
 * roofline_gvox_per_s, roofline_fraction, copy_gb_per_s, bytes_per_voxel,
 * size, steps, seconds, threads, device, backend, precision, n_inside). */
void rw_bench_print (FILE *f, const RwBenchResult *r, bool json);
