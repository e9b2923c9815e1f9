/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-cuda-fcc-tables.h — the host side of the CUDA backend's FCC path
 * (rw-cuda-fcc.cu), in plain C: the tables built from an FCC grid before
 * they are copied to the device. No CUDA headers: compiled with or
 * without nvcc, tested without a GPU (test-cuda-fcc-tables), built on
 * the host's threads (OpenMP, one z-plane a task) so that a hall of 10⁹
 * sites does not wait on one core.
 *
 *  - kind: a byte per folded entry (rw_fcc_fold_index at `pitch`): 0 no
 *    site or outside, 1 interior site (K = 12), 2 boundary site;
 *  - nodes: the boundary sites in the grid's index order (so node b takes
 *    its area as rw_grid_node_area (g, b, K)), each with its wall entries
 *    [w, w + nw) of went (rw_fcc_wall_entries; none with links false);
 *    first[z]: the first node at or above plane z (nz + 1 entries: a
 *    slab's window of planes updates the nodes [first[z0], first[z1]));
 *  - zr: per block of cols × rows folded columns (gbx × gby blocks, x
 *    fastest), the union of the z ranges of the cubic columns it covers,
 *    two words (z0, z1; 0, 0 when none): CUDA's uint2, copied as it is.
 *  - air: the air kernel's words (rw_kernel_fcc_air_wide; lane_w > 0):
 *    a warp's 32 lanes take lane_w adjacent entries each, so a row of
 *    `pitch` entries has n_seg = ⌈pitch / (32·lane_w)⌉ segments; word
 *    s + n_seg·(y + ny·z) has bit l set iff the lane_w entries from
 *    32·lane_w·s + lane_w·l of row (y, z) are all interior sites (kind
 *    1), within the row. A warp reads one word a row instead of its
 *    32·lane_w kind bytes wherever all its lanes' sites are interior.
 * Allocation failures are RW_ERROR_MEMORY. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* inside the block: rw-error.h and rw-voxel.h have no C++ guards */
#include "rw-error.h"
#include "rw-voxel.h"

/* A boundary site as the boundary kernel reads it. */
typedef struct
{
  unsigned long long i;         /* folded index */
  float S;                      /* absorbing area, h² */
  unsigned w;                   /* its wall entries: [w, w + nw) of went */
  uint16_t surf;
  uint8_t K, P, M, nw;
} RwFccNode;

typedef struct
{
  uint8_t *kind;                /* pitch · ny · nz entries */
  RwFccNode *nodes;
  size_t n_nodes;
  uint16_t *went;               /* link d << 12 | member mask (rw-scheme-fcc.h) */
  size_t n_went;
  uint32_t *zr;                 /* 2 per block */
  uint32_t *air;                /* n_seg · ny · nz words (NULL: lane_w 0) */
  size_t n_seg;
  size_t *first;                /* nz + 1 */
} RwFccTables;

/* The tables of g (on the FCC lattice) for rows of `pitch` entries;
 * surface_M[s]: the branches of surface s (0: frequency independent);
 * lane_w: the air kernel's entries a lane (0: no air words); threads ≤
 * 0: all. */
bool rw_cuda_fcc_tables (const RwGrid *g, size_t pitch, const int *surface_M, bool links,
                         size_t cols, size_t rows, size_t gbx, size_t gby, size_t lane_w,
                         int threads, RwFccTables *out, RwError *err);
void rw_cuda_fcc_tables_clear (RwFccTables *t);

#ifdef __cplusplus
}
#endif
