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
 *  - zr: per block of cols × rows folded columns (gbx = ⌈pitch / cols⌉ ×
 *    gby = ⌈ny / rows⌉ blocks, x fastest; none where cols or rows is 0),
 *    the union of the z ranges of the cubic columns it covers, two words
 *    (z0, z1; 0, 0 when none): CUDA's uint2, copied as it is.
 *  - the wide air kernel's rows (rw_kernel_fcc_air_wide; RwFccRows), in
 *    one of two layouts. By rows (flat false): a warp takes a segment of
 *    32·lane_w entries of one row, n_seg = ⌈pitch / (32·lane_w)⌉ a row,
 *    blocks of `warps` rows (zr: cols = 32·lane_w, rows = warps); word
 *    s + n_seg·(y + ny·z) of air has bit l set iff lane l of segment s of
 *    row (y, z) holds lane_w interior sites (kind 1), within the row.
 *    Flat (flat true), for narrow rows: the inside rows y = 1 … ny − 2 of a plane fall in two classes by
 *    the parity of y (class c: y = 1 + c, 3 + c, …), so that every row
 *    of a class has one parity on a plane and one shift δ. A class's
 *    rows are put end to end, `pitch` entries each, and cut into segments
 *    of 32·lane_w entries, a warp's (its lanes lane_w adjacent entries
 *    each, within one row: pitch is a multiple of lane_w); so a warp may
 *    span the end of a row and the start of the next of its class, and
 *    no warp of a narrow row marches z for a few sites (a room of 134
 *    sites a row in 160 entries: 1.25 warps a row instead of 2). Blocks of `warps`
 *    segments, `blocks` a class;
 *    - zrf: per block (class-major: block b of class c at c·blocks + b),
 *      the union of the z ranges of the cubic columns of the rows it
 *      spans (all their x), two words as zr;
 *    - air: word (c·n_seg + s) + 2·n_seg·z has bit l set iff lane l of
 *      segment s of class c holds lane_w interior sites (kind 1) on plane
 *      z (0 past the class's last entry). A warp reads one word a plane
 *      instead of its 32·lane_w kind bytes wherever all its lanes' sites
 *      are interior.
 * Allocation failures are RW_ERROR_MEMORY. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __CUDACC__
#define RW_FCC_LANE_HD __host__ __device__ __forceinline__
#else
#define RW_FCC_LANE_HD static inline
#endif

/* The first of the lane_w entries that lane `lane` of segment `seg` of a
 * row laid by rows loads in the wide air kernel (rw_kernel_fcc_air_wide):
 * its own where they lie in the row (pitch entries; *active true), else
 * (a lane past the row's end, which stores nothing) the row's last
 * lane_w, which the warp's last active lane loads, so that it asks for no
 * sector more. Left on its own entries, such a lane read the next row's
 * first ones: in the hall at 4 kHz in fp32 (rows of 424 entries in 4
 * segments of 128) 17 % more sectors from the L2 (ncu;
 * docs/PERFORMANCE.md, eleventh). */
RW_FCC_LANE_HD unsigned
rw_cuda_fcc_lane_entry (unsigned seg, unsigned lane, unsigned pitch, unsigned lane_w, bool *active)
{
  const unsigned e = (seg * 32u + lane) * lane_w;
  *active = e < pitch;
  return e < pitch ? e : pitch - lane_w;
}

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

/* The outside site o of wall entries (rw-scheme-fcc.h, "Wall links"):
 * its folded index, its row's parity and its members (bit k: o + offset
 * k of RW_FCC_NBR_OFFSETS), the same for every entry that names it. */
typedef struct
{
  unsigned long long o;
  uint16_t mask;
  uint8_t Po;
} RwFccWallSite;

/* The wide air kernel's rows (above). By rows: n_seg segments a row.
 * Flat: class c holds rows[c] rows, the row of rank r being
 * y = 1 + c + 2r; seg[c] segments; n_seg = seg[0] (≥ seg[1]); blocks =
 * ⌈n_seg / warps⌉ a class. */
typedef struct
{
  bool flat;
  size_t lane_w, warps, pitch;
  size_t rows[2], seg[2], n_seg, blocks;
} RwFccRows;

/* The layout of rows of `pitch` entries (a multiple of lane_w) of a
 * grid ny rows deep. */
void rw_cuda_fcc_rows (size_t ny, size_t pitch, size_t lane_w, size_t warps, bool flat,
                       RwFccRows *out);

/* Whether the flat layout suits rows of row_len sites (of `pitch`
 * entries): where the warps by rows would leave more than a quarter of
 * their lanes without a site (the 30 m³ room at 4 kHz: 134 sites a row
 * in two warps of 128 entries). Wide rows keep the layout by rows, whose
 * blocks of adjacent rows share their neighbour rows in the L1. */
bool rw_cuda_fcc_rows_flat (size_t row_len, size_t pitch, size_t lane_w);
/* The layout an nx-cell grid's rows take by default: rw_cuda_fcc_rows_flat
 * at rows rounded to 32 entries (which rw_cuda_fcc_pitch then rounds to
 * 4 where flat). The one place the choice is made. */
bool rw_cuda_fcc_flat (size_t nx, size_t lane_w);

typedef struct
{
  uint8_t *kind;                /* pitch · ny · nz entries */
  RwFccNode *nodes;
  size_t n_nodes;
  uint16_t *went;               /* link d << 12 | member mask (rw-scheme-fcc.h) */
  size_t n_went;
  uint32_t *zr;                 /* 2 per block, gbx × gby blocks */
  size_t gbx, gby;
  uint32_t *zrf;                /* flat: 2 per block, 2 · blocks blocks (else NULL) */
  uint32_t *air;                /* flat: 2 · n_seg · nz words, by rows n_seg · ny · nz (NULL: no
                                   layout given) */
  size_t *first;                /* nz + 1 */
  /* the wall entries' outside sites, each once, in the order the entries
   * (in node order) first name them: the mean of an outside site's
   * members is computed once a step for all the entries that name it
   * (rw_kernel_fcc_wall_means); NULL where not asked for (sites), there
   * are no entries, or the sites are past 2³² − 1 */
  RwFccWallSite *wsite;
  size_t n_wsite;
  uint32_t *wo;                 /* n_went: each entry's site in wsite */
  uint32_t *wfirst;             /* n_nodes + 1: the sites named first by the nodes before b */
  uint32_t *wmin;               /* n_nodes + 1: the lowest site named by node b or after
                                   (n_wsite where none): nodes [b0, b1) name sites in
                                   [wmin[b0], wfirst[b1]) alone */
} RwFccTables;

/* The tables of g (on the FCC lattice) for rows of `pitch` entries;
 * surface_M[s]: the branches of surface s (0: frequency independent);
 * links: the wall entries; sites: their outside sites (wsite …);
 * cols × rows: the blocks of zr (0: no zr); layout: the wide air
 * kernel's rows (rw_cuda_fcc_rows at the same pitch; NULL: no zrf and no
 * air words); threads ≤ 0: all. */
bool rw_cuda_fcc_tables (const RwGrid *g, size_t pitch, const int *surface_M, bool links,
                         bool sites, size_t cols, size_t rows, const RwFccRows *layout, int threads,
                         RwFccTables *out, RwError *err);
void rw_cuda_fcc_tables_clear (RwFccTables *t);

/* The entries a lane of the wide air kernel updates for storage of elem
 * bytes: 16 bytes of the arithmetic type (4 entries; fp64 2; fp16's 4
 * are 8 bytes of storage). */
size_t rw_cuda_fcc_lane (size_t elem);

/* The entries a row of the folded layout holds (its pitch) for storage
 * of elem bytes (lanes of rw_cuda_fcc_lane entries): an nx-cell grid's
 * rw_fcc_row_len rounded up where the rows are laid out by rows to a
 * multiple of 32 entries, so that each starts a 128-byte line (fp16,
 * fp64), or in fp32 of 8, a 32-byte sector; and to a multiple of 4 (the
 * lanes' aligned loads) where they are laid flat (rw_cuda_fcc_rows_flat
 * at the pitch of 32), end to end: there the padding is bytes moved for
 * nothing and no alignment is kept anyway. Measured (docs/PERFORMANCE.md):
 * the 30 m³ room at 4 kHz, flat, 134 sites a row in 136 entries instead
 * of 160: +10 % fp32, +20 % fp16, +7 % fp64 (H100, 2026-11-28). By rows,
 * rows of 419 sites (the 1000 m³ hall) and 246 (200 m³), in the same
 * calls (H200, 2026-11-29): fp32 in 424 and 248 entries instead of 448
 * and 256 +0.6 % and +2.7–3.5 %; fp16 in 432 (16 entries, 32 bytes)
 * −9 %; fp64 in 420 or 424 −2.5 % (and 420 −2.5 % in fp32 on the
 * H100). rw_cuda_fcc_pitch_round: to a multiple of `round` (benchmarks;
 * the tables take any multiple of 4). */
size_t rw_cuda_fcc_pitch (size_t nx, size_t elem);
size_t rw_cuda_fcc_pitch_round (size_t nx, size_t round);

/* The boundary kernel's grid beside the air kernel (rw-cuda-fcc.cu's
 * rw_fcc_step), in blocks of 128, for a field of `entries` entries with
 * n_nodes boundary sites on a GPU of `sms` SMs; 0: a thread a site.
 * Launched first at the highest priority, a thread a site, its blocks
 * take every SM until they are done, and the air kernel waits for them:
 * in a large room the two ran one after the other. Fewer blocks, whose
 * threads take sites in turn, run through the air kernel's length in the
 * room it leaves on each SM, if a thread's sites take about as long as
 * the air kernel does: one site a thread for every RW_FCC_BND_SPAN
 * entries an SM (the air kernel's work), and at least two blocks an SM.
 * A thread a site where that would be under two sites a thread (the air
 * kernel is short) and in fp64 (f64: no gain measured). G site updates/s
 * on an H200 (132 SMs), against a thread a site (docs/PERFORMANCE.md):
 *  - the 1000 m³ hall at 4 kHz (158 M entries, 1.35 M boundary sites:
 *    37 a thread, 288 blocks): fp16 340.5–341.0 against 325.6–327.9
 *    (198 to 396 blocks: 340.0–343.2; 132: 308.6; 66: 214.4); fp32
 *    224.0–224.6 against 221.8–223.4;
 *  - a 200 m³ room at 4 kHz (500 blocks): fp16 288.2 against 267.8, fp32
 *    199.2 against 193.0;
 *  - the hall at 8 kHz, fp16: 365.3–366.2 at 264 blocks (two an SM)
 *    against 362.3, and 361.4 at the 150 of one site a thread for every
 *    RW_FCC_BND_SPAN entries alone;
 *  - fp64 in the hall: 126.6–127.5 at 264 and 528 blocks against 127.7;
 *  - the 30 m³ room (1.2 sites a thread: a thread a site) lost 2 % in
 *    fp16 at 850 blocks, 16 % at 264. */
#define RW_FCC_BND_SPAN 32768.0
size_t rw_cuda_fcc_boundary_grid (size_t entries, size_t n_nodes, int sms, bool f64);

/* Two steps a pass (rw-cuda-fcc-tb.cu, a benchmark variant): a block's
 * rows, two of them a ring (tiles of RW_FCC_TB_BY − 2 rows from row 1). */
#define RW_FCC_TB_BY 8

/* … and the planes [z0, z1) of each tile's interior sites, for each of
 * its `segs` segments (the same range: the kernel reads a pair a block),
 * into out (2 · segs · tiles words, tiles = ⌈(ny − 2) / tile⌉): the union
 * of the z ranges of zr's blocks (gbx × gby blocks of `rows` rows, as
 * rw_cuda_fcc_tables makes them) over the tile's rows, planes 0 and 1
 * and from nz − 2 left out (no interior site there); 0, 0 where none. */
void rw_cuda_fcc_tb_ranges (const uint32_t *zr, size_t gbx, size_t gby, size_t rows, size_t ny,
                            size_t nz, size_t tile, size_t segs, uint32_t *out);

/* The entries past a field's last plane that the air kernel may read:
 * three planes (its z-march reads two planes past a chunk's last, a
 * neighbour one further) and RW_FCC_GUARD entries (a lane past a row's
 * end, by rows, reads up to 32·W − 1 entries on: more than the 64 of
 * rows rounded to 32 where they are rounded to 4). */
#define RW_FCC_GUARD 256

/* Steps a chunk of the FCC path (its receivers' samples are copied to the
 * host once a chunk). */
#define RW_FCC_CHUNK 256

/* The FCC path's device memory (rw_cuda_fcc_memory_bytes; the cluster
 * model's, rw-cluster-model.c) for an nx × ny × nz cubic array: fields
 * of elem bytes a value, branch states of arith bytes, n_boundary
 * boundary sites, at most `branches` branches a surface, n_surfaces
 * surfaces, n_receivers receivers. */
double rw_cuda_fcc_device_bytes (size_t nx, size_t ny, size_t nz, size_t elem, size_t arith,
                                 double n_boundary, double branches, size_t n_surfaces,
                                 size_t n_receivers);

#ifdef __cplusplus
}
#endif
