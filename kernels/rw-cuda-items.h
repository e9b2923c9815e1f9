/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-cuda-items.h — the host side of the CUDA backend's launches, in plain
 * C: the work list of the z-march kernels (tiles of block columns with an
 * inside cell, cut into slabs at common planes, the last waves cut into
 * quarters) and the packing of the grid into cell bytes and a slot table.
 * No CUDA headers: compiled into the library with or without nvcc, and
 * tested without a GPU (test-cuda-items).
 *
 * A work item is RwCudaItem {x0, y0, z0, z1}: the tile's first column and
 * row, and the planes [z0, z1) it covers; its layout is CUDA's int4, so
 * that a list is copied to the device as it is. Lists are malloc'ed
 * (RwCudaItems, freed with rw_cuda_items_clear); allocation failures are
 * RW_ERROR_MEMORY.
 *
 * Device data of a cell, one byte (docs/GPU.md): bits 0–2 K (0 outside,
 * 6 air, 1–5 boundary), bits 3–7 the slot of the cell's surface in a table
 * of at most RW_CUDA_MAX_SLOTS distinct reflection factors.
 */
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

#define RW_CUDA_MAX_SLOTS 32

typedef struct {
  int x, y, z, w;               /* x0, y0, z0, z1 */
} RwCudaItem;

typedef struct {
  RwCudaItem *v;
  size_t n;
} RwCudaItems;

void rw_cuda_items_clear (RwCudaItems *items);

/* Every bx × by tile of columns with an inside cell, with the z range
 * [min zlo, max zhi) of its columns. zlo / zhi: per column, pitch × ny
 * (column x + pitch·y; zlo ≥ zhi: no inside cell). */
bool rw_cuda_tiles (const uint32_t *zlo, const uint32_t *zhi, size_t pitch, size_t ny,
                    int bx, int by, RwCudaItems *out, RwError *err);

/* Every tile's z range cut at the multiples of `slab` planes (the same
 * planes for every tile), a piece at a range's end shorter than a quarter
 * slab joined to the piece next to it; listed slab by slab, tiles in
 * their order within a slab. */
bool rw_cuda_slab_items (const RwCudaItems *tiles, int slab, RwCudaItems *out, RwError *err);

/* The last `waves` × resident_blocks items each cut into up to four
 * pieces of at least min_len planes (fewer where shorter). */
bool rw_cuda_quarter_tail (const RwCudaItems *items, size_t waves, int resident_blocks,
                           int min_len, RwCudaItems *out, RwError *err);

/* Slab height of the single steps, in planes, by bytes per value. */
int rw_cuda_slab_planes (size_t elem);

/* The single steps' items for tiles of tile_x × by columns. */
bool rw_cuda_build_items (const uint32_t *zlo, const uint32_t *zhi, size_t pitch, size_t ny,
                          int tile_x, int by, size_t elem, int resident_blocks,
                          RwCudaItems *out, RwError *err);

/* Variant 13's items: tiles of tile_x × tile_y cells in slabs of
 * RW_CUDA_TB_SLAB planes. */
#define RW_CUDA_TB_SLAB 40
bool rw_cuda_build_tb_items (const uint32_t *zlo, const uint32_t *zhi, size_t pitch, size_t ny,
                             int tile_x, int tile_y, int resident_blocks, RwCudaItems *out,
                             RwError *err);

/* Upper bound of the single-step items of a pitch × ny × nz grid for any
 * block shape of ≥ 64 threads (tiles ≥ 16 cells wide and ≥ 2 rows, or
 * ≥ 32 wide), any resident block count. */
size_t rw_cuda_items_bound (size_t pitch, size_t ny, size_t nz, size_t elem);

/* Receiver samples buffered on the device (and the host) per copy. */
#define RW_CUDA_RCV_CHUNK 8192

/* Device rows are padded to a pitch of 32 cells (128-byte aligned rows). */
size_t rw_cuda_pitch (size_t nx);

/* Guard elements before and after each field array: a bulk variant's
 * halo or a tile overhanging the last row stays inside the allocation
 * (variants 11 and 12, rw-cuda-variants.cu). */
#define RW_CUDA_FIELD_GUARD 4608

/* The CUDA backend's device memory for the 7-point scheme
 * (rw_cuda_memory_bytes; the cluster model's, rw-cluster-model.c) on an
 * nx × ny × nz grid of elem-byte values with n_receivers receivers:
 * fields, cells, column ranges, air bits, work items, receivers, a
 * slice; with branches > 0 (the most branches of any of n_surfaces
 * frequency-dependent surfaces, the FV boundary) every one of n_boundary
 * nodes a branch node with its states of arith bytes, and the surfaces'
 * tables. */
double rw_cuda_device_bytes (size_t nx, size_t ny, size_t nz, size_t elem, size_t n_receivers,
                             double n_boundary, double branches, size_t arith, size_t n_surfaces);

/* Host RAM the CUDA backend takes for an nx × ny × nz grid of `elem`-byte
 * values with n_receivers receivers, at its peak: the cell bytes, air bits
 * and column ranges built at create, the work lists, the receiver buffer
 * and the staging copy of read_field (RwBackendOps.host_bytes). */
size_t rw_cuda_host_bytes (size_t nx, size_t ny, size_t nz, size_t elem, size_t n_receivers);

/* The packed cell bytes and slot table of a grid: fails with
 * RW_ERROR_UNSUPPORTED when the boundary cells use more than
 * RW_CUDA_MAX_SLOTS distinct reflection factors. `cells` has
 * pitch·ny·nz bytes (rows of `pitch` ≥ nx cells; the caller zeroes the
 * padding); slot_R / slot_beta have RW_CUDA_MAX_SLOTS entries.
 * The branch kernel's nodes (rw_cuda_node_listed) all get one slot of
 * their own, *list_slot (−1 when none), which the main kernels leave
 * alone. */
bool rw_cuda_pack_cells (const RwGrid *g, const double *surface_R, const bool *surface_listed,
                         bool list_area, size_t pitch, uint8_t *cells, double *slot_R,
                         double *slot_beta, int *list_slot, int *n_slots, RwError *err);

/* Whether the branch kernel updates boundary node i (rank `rank` in index
 * order): its surface is listed (frequency-dependent; surface_listed may
 * be NULL), or list_area (the FV boundary) and its absorbing area is not
 * its face count (rw_grid_node_area_corrected). */
bool rw_cuda_node_listed (const RwGrid *g, size_t i, size_t rank, const bool *surface_listed,
                          bool list_area);

/* A boundary node the branch kernel updates (rw-cuda-branches.cu): its
 * padded cell index, absorbing area, surface, K and its surface's branch
 * count (so that the kernel can load the states with the node, not after
 * the surface's table). 16 bytes, read by every step (its states are found
 * by its position in the list). */
typedef struct {
  uint64_t i;
  float area;                   /* absorbing area in h² (rw_grid_node_area) */
  uint16_t surface;
  uint8_t K;
  uint8_t M;                    /* branches of its surface (≤ RW_ADM_MAX_BRANCHES) */
} RwBranchNode;
#ifdef __cplusplus
static_assert (sizeof (RwBranchNode) == 16, "a branch node is 16 bytes");
#else
_Static_assert (sizeof (RwBranchNode) == 16, "a branch node is 16 bytes");
#endif

/* The union [*lo, *hi) of the z ranges [zlo, zhi) of the columns
 * [x0, x1) × [y0, y1) of rows of `pitch` (*lo ≥ *hi: none has a cell). */
void rw_cuda_columns_zrange (const uint32_t *zlo, const uint32_t *zhi, size_t pitch, size_t x0,
                             size_t x1, size_t y0, size_t y1, uint32_t *lo, uint32_t *hi);

/* The first of n branch nodes (in index order) at or above each plane of
 * nz, plane entries a plane: nz + 1 entries, malloc'ed; NULL when out of
 * memory. A slab's window of planes updates the nodes [s[z0], s[z1])
 * (device halos, rw-cuda-halo.cuh). */
size_t *rw_cuda_branch_plane_starts (const RwBranchNode *nodes, size_t n, size_t plane, size_t nz);

/* The branch nodes of a grid (rw_cuda_node_listed, surface_listed[s] =
 * surface_M[s] > 0), in index order (as the CPU backend walks them), and
 * their states in all (Σ surface_M). *nodes is malloc'ed (NULL when
 * none). Fails with RW_ERROR_MEMORY, or RW_ERROR_INTERNAL on a boundary
 * cell without a valid surface. */
bool rw_cuda_branch_nodes (const RwGrid *g, const int *surface_M, bool list_area, size_t pitch,
                           RwBranchNode **nodes, size_t *n_nodes, size_t *n_states,
                           RwError *err);

#ifdef __cplusplus
}
#endif
