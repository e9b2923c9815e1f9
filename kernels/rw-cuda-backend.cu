/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-cuda-backend.cu — the CUDA solver backend (RwBackendOps, rw-solver.h).
 *
 * Production kernel: the sliced z-march of seeds/fdtd-cuda-six-strategies.txt
 * §4.2 (thread per (x, y) column, the centre, below and above values kept in
 * registers) with the start/stop heights of §4.3.3, taken further:
 *   - the launch is a compact list of work items (tile of block_x × block_y
 *     columns, z range); tiles with no inside cell are never launched, and
 *     each tile's z range is cut into thin slabs at the same planes for
 *     every tile, listed slab by slab (rw_slab_items), so that the blocks
 *     resident at once work on neighbouring tiles at the same heights and
 *     what a tile reads of its neighbours is an L2 hit;
 *   - each thread then clips the item's range to its own column's
 *     [zlo, zhi), so that the cells below the floor and above the ceiling
 *     of a sloped room cost nothing;
 *   - x/y neighbours come through the read-only cache (__ldg); they are
 *     the centres of the neighbouring threads, so DRAM sees each p once;
 *   - a thread updates W cells of a row with 16-byte vector loads, and air
 *     cells cost a bit instead of a cell byte (rw_kernel_air, variant 5;
 *     fp16 adds a cp.async ring, rw_kernel_async, variant 9).
 * The kernel variants (0–13) are all kept, tested cell by cell and
 * benchmarked (docs/GPU.md has their table); rw_cuda_variant () picks the
 * production one per precision: 13 for fp32 (two-step passes, single
 * steps of 5 where the spare arrays do not fit), 9 for fp16, 5 for fp64.
 * This file holds those (5 and 9 instantiated from rw-cuda-march.cuh, 13
 * here) and the host side; the other variants are in rw-cuda-variants.cu,
 * the vector loads and stores in rw-cuda-vec.cuh, the work lists and the
 * cell packing in plain C in rw-cuda-items.c. Device rows are padded to a pitch of 32
 * cells (st->nx; st->gx is the grid's nx): rows start 128-byte aligned.
 * Two arrays in place (rw-solver.h): step n reads p and writes p_next over
 * p_prev; the host swaps the pointers.
 *
 * Source and receivers: one single-block launch after each step applies the
 * source sample and gathers the receivers into a device buffer, copied out
 * once per advance call. Non-finite values: each thread checks what it
 * stores (free in a memory-bound kernel) and the first bad step is kept
 * with atomicMin; advance reads that flag once per call.
 */
#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "rw-cuda-items.h"
#include "rw-cuda-fcc.cuh"
#include "rw-cuda-halo.cuh"
#include "rw-cuda-march.cuh"

const int rw_cuda_tune_shapes[RW_CUDA_N_TUNE_SHAPES][2] = {
  { 32, 4 }, { 32, 8 }, { 64, 4 }, { 64, 2 }, { 128, 2 }, { 16, 16 }, { 32, 16 },
  { 128, 1 }, { 256, 1 }, { 256, 2 },
};

#define RW_RCV_CHUNK RW_CUDA_RCV_CHUNK


/* Variant 13, "two steps a block": temporal blocking. Each block z-marches
 * a tile and advances it two time steps in one pass: time n + 1 on the
 * tile and a one-cell ring around it (from p = time n, q = time n − 1),
 * time n + 2 on the tile one plane behind, from the n + 1 values it just
 * computed (docs/GPU.md). The ring's n + 1 values are computed again by
 * the neighbouring block that owns them, from the same inputs by the same
 * code, so they agree bit for bit. The results go out of place, n + 1 to
 * p1 and n + 2 to p2 (the spare pair of arrays), because the neighbours
 * still read p and q around this tile while it is written. DRAM traffic
 * per pass: read p and q, write p1 and p2 — 8 B per update in fp32
 * instead of 12; the ring's loads are mostly L2 hits.
 *
 * A thread owns 2 cells of a row (a vector) in every plane; the block is
 * 32 × RW_TB_BY threads: thread columns 1–30 and rows 2 … BY − 3 own the
 * tile (60 × (BY − 4) cells), rows 1 and BY − 2 the ring in y, thread
 * columns 0 and 31 the ring in x (and one cell more than it needs), rows
 * 0 and BY − 1 only load. Planes of p (time n) and of time n + 1 are
 * exchanged in shared memory, double-buffered: one barrier per plane.
 * Step n + 1 at plane z takes the source of step n + 1 (as rw_kernel_io
 * would after it, so that step n + 2 and the receivers see it); values are
 * rounded to the storage type before step n + 2 uses them, as a single
 * step would store and reload them. Outside cells of a stored vector get
 * their own old value, as in the single-step kernels. */

/* The two cells of a vector at i, one step: air groups (cell bytes
 * 0x0606) without per-cell K tests; others through rw_node_update (an
 * outside cell keeps its own value). */
template <int BND, typename A>
__device__ __forceinline__ void
rw_tb_update (unsigned cw, const A (&centre)[2], A xm0, A xp1, const A (&ym)[2],
              const A (&yp)[2], const A (&below)[2], const A (&above)[2], const A (&prev)[2],
              const RwSlotTable &slots, const uint8_t *__restrict__ cell, size_t i, int nx,
              size_t sz, A (&next)[2])
{
  const A xm[2] = { xm0, centre[0] }, xp[2] = { centre[1], xp1 };
  if (cw == 0x0606u)
    {
#pragma unroll
      for (int k = 0; k < 2; k++)
        next[k] = rw_air (((((xm[k] + xp[k]) + ym[k]) + yp[k]) + below[k]) + above[k], prev[k]);
      return;
    }
#pragma unroll
  for (int k = 0; k < 2; k++)
    {
      const uint8_t c = (uint8_t) (cw >> (8 * k));
      next[k] = RW_CELL_K (c) == 0
                  ? prev[k]
                  : rw_node_update<BND, A> (c, centre[k], xm[k], xp[k], ym[k], yp[k], below[k],
                                            above[k], prev[k], slots, cell, i + k, 1, nx, sz);
    }
}

/* x neighbours at the vector's ends and the rows y ± 1, from a plane in
 * shared memory (the ends clamped in thread columns 0 and 31, whose end
 * cells are never used). */
template <int BY, typename A>
__device__ __forceinline__ void
rw_tb_neighbours (const A (&s)[BY][64], int tx, int ty, A &xm0, A &xp1, A (&ym)[2], A (&yp)[2])
{
  xm0 = s[ty][max (2 * tx - 1, 0)];
  xp1 = s[ty][min (2 * tx + 2, 63)];
#pragma unroll
  for (int k = 0; k < 2; k++)
    ym[k] = s[ty - 1][2 * tx + k], yp[k] = s[ty + 1][2 * tx + k];
}

/* The source into cell k of a vector, as rw_kernel_io adds it to a stored
 * value (selects, not an index: a register array indexed at run time
 * would go to local memory). */
template <typename S, typename A>
__device__ __forceinline__ void
rw_tb_inject (A (&v)[2], int k, int hard, double s, const S *to)
{
  const A x = rw_stored (hard ? (A) s : (k ? v[1] : v[0]) + (A) s, to);
  v[0] = k ? v[0] : x;
  v[1] = k ? x : v[1];
}

/* The source's cells this thread holds at plane z (bit c of `mine`: cell
 * c is in its vector), each with its weight (rw_kernel_io's arithmetic:
 * weight 1 adds (A) s). Unrolled, so that the parameter struct is read at
 * constant offsets; `mine` is 0 for all but a few threads. */
template <typename S, typename A>
__device__ __forceinline__ void
rw_tb_source (A (&v)[2], const RwCudaSource &src, unsigned mine, unsigned col, size_t sz, int z,
              int hard, double s, const S *to)
{
  if (mine == 0)
    return;
#pragma unroll
  for (int c = 0; c < RW_GRID_STENCIL_MAX; c++)
    if (((mine >> c) & 1u) && (size_t) src.cell[c] / sz == (size_t) z)
      rw_tb_inject (v, (int) ((size_t) src.cell[c] % sz - col), hard, src.weight[c] * s, to);
}

/* The z-march keeps its planes in rings of registers indexed by the
 * iteration modulo 4, unrolled by 4 so that every index is a constant: a
 * load lands in the slot of the plane it replaces and is first used two
 * iterations later. (Shifting registers instead — above = next, … — makes
 * each move wait for the load it copies: one iteration of cover.)
 * Threads whose vector lies outside the grid read the nearest edge column
 * instead, and planes beyond the item the last one it needs: every load is
 * in bounds without a predicate; what those threads compute only reaches
 * cells of the grid's outside layer, which keep their own value whatever
 * their neighbours hold. */
template <int J> struct RwTbPhase { enum { j = J }; };

template <typename S, int BND>
__global__ void __launch_bounds__ (32 * RW_TB_BY, RW_TB_MIN_BLOCKS)
rw_kernel_tb (const S *__restrict__ p, const S *__restrict__ q, S *__restrict__ p1,
              S *__restrict__ p2, const uint8_t *__restrict__ cell,
              const unsigned *__restrict__ air, const int4 *__restrict__ items, int nx, int ny,
              int nz, size_t sz, RwSlotTable slots, int step, RwCudaSource src, int hard, double s1,
              int *__restrict__ bad)
{
  typedef typename RwArith<S>::type A;
  enum { BY = RW_TB_BY, WA = 16 / (int) sizeof (S) };
  __shared__ A sa[2][BY][64];   /* time n, planes z (even/odd) */
  __shared__ A sr[2][BY][64];   /* time n + 1 */
  const int4 it = items[blockIdx.x];
  const int tx = (int) threadIdx.x, ty = (int) threadIdx.y;
  const int x = it.x + 2 * (tx - 1), y = it.y + ty - 2;
  const bool col_ok = x >= 0 && x < nx && y >= 0 && y < ny;
  const bool ring = ty >= 1 && ty < BY - 1;                                  /* step n + 1 */
  const bool core = col_ok && tx >= 1 && tx < 31 && ty >= 2 && ty < BY - 2;  /* stored */
  const int z0 = it.z, z1 = it.w;
  /* offsets in 32 bits (the host keeps the grid under 2³² cells): one
   * multiply-add per address */
  const unsigned col = (unsigned) min (max (x, 0), nx - 2) + (unsigned) nx * (unsigned) min (max (y, 0), ny - 1);
  const unsigned szu = (unsigned) sz;
  /* p is needed up to z1 + 1 (above the last step n + 1), q and the cells
   * up to z1 */
  const int zp = min (z1 + 1, nz - 1), zq = min (z1, nz - 1);
  auto at = [&] (int z, int lim) { return col + szu * (unsigned) min (max (z, 0), lim); };
  /* the air bit of plane z: bit (col + sz z) / WA, with sz a multiple of 32 */
  const unsigned colw = col / WA, szw = szu / WA;
  /* the source's cells in this thread's vector (at some plane) */
  unsigned src_mine = 0;
#pragma unroll
  for (int c = 0; c < RW_GRID_STENCIL_MAX; c++)
    if (c < src.n && ring && col_ok
        && (long long) ((size_t) src.cell[c] % sz) - (long long) col >= 0
        && (long long) ((size_t) src.cell[c] % sz) - (long long) col < 2)
      src_mine |= 1u << c;
  /* iteration j (plane z = z0 − 1 + j for step n + 1, z − 1 for n + 2):
   *   pr[(j + d) & 3]: p at plane z − 1 + d (d = 0 … 3);
   *   qr[j & 1]: q at z, qr[(j + 1) & 1] at z + 1;
   *   rr[j & 3]: time n + 1 at z, [(j + 3) & 3] at z − 1, [(j + 2) & 3] at z − 2;
   *   cr[j & 3]: cells at z, [(j + 3) & 3] at z − 1, [(j + 1) & 3] at z + 1,
   *   [(j + 2) & 3] at z + 2;
   *   aw[(j + 3) & 3]: the air word of plane z + 3, loaded an iteration
   *   before its bit decides whether the cell bytes are loaded. */
  A pr[4][2], qr[2][2], rr[4][2];
  unsigned cr[4] = { 0, 0, 0, 0 }, aw[4] = { 0, 0, 0, 0 };
  auto air_word = [&] (int z) { return __ldg (air + ((colw + szw * (unsigned) min (z, zq)) >> 5)); };
  auto cells = [&] (int z, unsigned w) -> unsigned {
    const unsigned zc = (unsigned) min (z, zq);
    return (w >> ((colw + szw * zc) & 31)) & 1u
             ? 0x0606u : (unsigned) __ldg ((const unsigned short *) (cell + (col + szu * zc)));
  };
  {
    const int z = z0 - 1;
#pragma unroll
    for (int d = 0; d < 4; d++)
      rw_vld<true> (p, at (z - 1 + d, zp), pr[d]);
    rw_vld<true> (q, at (z, zq), qr[0]);
    rw_vld<true> (q, at (z + 1, zq), qr[1]);
#pragma unroll
    for (int d = 0; d < 3; d++)
      cr[d] = cells (z + d, air_word (z + d));
    aw[3] = air_word (z + 3);
#pragma unroll
    for (int d = 0; d < 4; d++)
      rr[d][0] = rr[d][1] = 0;
  }
  RwStored<S> stored;
  auto iteration = [&] (auto phase, int z) {
    enum { j = decltype (phase)::j, buf = j & 1 };
    A (&am)[2] = pr[j & 3], (&ac)[2] = pr[(j + 1) & 3], (&ap)[2] = pr[(j + 2) & 3];
    A (&b)[2] = qr[j & 1];
    A (&rp)[2] = rr[j & 3], (&rc)[2] = rr[(j + 3) & 3], (&rm)[2] = rr[(j + 2) & 3];
    const unsigned c1 = cr[j & 3], c2 = cr[(j + 3) & 3];
    const unsigned i = col + szu * (unsigned) z;
    sa[buf][ty][2 * tx] = ac[0];
    sa[buf][ty][2 * tx + 1] = ac[1];
    __syncthreads ();
    if (ring)
      {
        A xm0, xp1, ym[2], yp[2];
        rw_tb_neighbours<BY> (sa[buf], tx, ty, xm0, xp1, ym, yp);
        rw_tb_update<BND> (c1, ac, xm0, xp1, ym, yp, am, ap, b, slots, cell, i, nx, sz, rp);
        rp[0] = rw_stored (rp[0], p1);
        rp[1] = rw_stored (rp[1], p1);
        if (core && z >= z0 && z < z1 && c1 != 0)
          {
            /* fp32 sums the values before the source goes in, as a
             * single step's check does (fp16 checks the stored halves) */
            stored.add (rp[0] + rp[1]);
            rw_tb_source (rp, src, src_mine, col, sz, z, hard, s1, p1);
            stored.store (p1, i, rp);
          }
        else
          rw_tb_source (rp, src, src_mine, col, sz, z, hard, s1, p1);
      }
    sr[buf][ty][2 * tx] = rp[0];
    sr[buf][ty][2 * tx + 1] = rp[1];
    if (core && z > z0 && c2 != 0)
      {
        A xm0, xp1, ym[2], yp[2], out[2];
        rw_tb_neighbours<BY> (sr[buf ^ 1], tx, ty, xm0, xp1, ym, yp);
        rw_tb_update<BND> (c2, rc, xm0, xp1, ym, yp, rm, rp, am, slots, cell, i - szu, nx, sz, out);
        stored.add (out[0] + out[1]);
        stored.store (p2, i - szu, out);
      }
    /* the slots just used for the last time take planes ahead */
    rw_vld<true> (p, at (z + 3, zp), pr[j & 3]);
    rw_vld<true> (q, at (z + 2, zq), qr[j & 1]);
    cr[(j + 3) & 3] = cells (z + 3, aw[(j + 3) & 3]);
    aw[j & 3] = air_word (z + 4);
  };
  for (int z = z0 - 1;;)
    {
      if (z > z1)
        break;
      iteration (RwTbPhase<0> (), z++);
      if (z > z1)
        break;
      iteration (RwTbPhase<1> (), z++);
      if (z > z1)
        break;
      iteration (RwTbPhase<2> (), z++);
      if (z > z1)
        break;
      iteration (RwTbPhase<3> (), z++);
    }
  /* one test of everything stored; the step it names is the first of the
   * pass, as near as a pass can say */
  if (stored.bad ())
    atomicMin (bad, step);
}

template <typename S>
__global__ void
rw_kernel_slice (const S *__restrict__ f, int axis, size_t index, size_t nx, size_t ny,
                 size_t nz, size_t pitch, float *__restrict__ out)
{
  const size_t n0 = axis == 0 ? ny : nx, n1 = axis == 2 ? ny : nz;
  for (size_t k = blockIdx.x * (size_t) blockDim.x + threadIdx.x; k < n0 * n1;
       k += (size_t) gridDim.x * blockDim.x)
    {
      const size_t a = k % n0, b = k / n0;
      size_t x, y, z;
      if (axis == 0)
        x = index, y = a, z = b;
      else if (axis == 1)
        x = a, y = index, z = b;
      else
        x = a, y = b, z = index;
      out[k] = (float) rw_ld (f, x + pitch * (y + ny * z));
    }
}

/* ------------------------------------------------------ launch geometry */

/* Dynamic shared memory of a launch: the per-thread cp.async ring of
 * variants 8 and 9, the block's ring of tile planes (and its mbarriers)
 * of variants 11 and 12. */
static size_t
rw_variant_shm (int variant, int bx, int by, int elem)
{
  if (variant == 8 || variant == 9)
    return (size_t) 2 * (variant - 8 + 3) * bx * by * 16;
  if (variant == 11 || variant == 12)
    return 128 + (size_t) rw_bulk_nb (variant) * rw_bulk_stage_bytes (bx, by, elem);
  return 0;
}


/* The kernel for a precision and boundary form: a table, launched with
 * cudaLaunchKernel (its arguments are the same for every entry). */
typedef const void *RwProdKernel;

/* The production variant of each precision: the fastest measured on an
 * H100 (docs/GPU.md, docs/PERFORMANCE.md): 13 (two steps a pass, where
 * the spare pair of arrays fits; else single steps of 5) for fp32, 5 for
 * fp64, 9 (the cp.async pipeline, which pays where the fp16 conversions
 * lengthen each step; fp16 passes measured slower: 280.6 against 379.3
 * Gvox/s on the hall) for fp16.
 * ROOMWAVE_CUDA_VARIANT=0…13 overrides it (benchmarks, tests). */
static int
rw_cuda_variant (RwPrecision precision)
{
  const char *v = getenv ("ROOMWAVE_CUDA_VARIANT");
  char *end;
  const long n = v ? strtol (v, &end, 10) : -1;
  if (v && *v && *end == '\0' && n >= 0 && n < RW_N_VARIANTS)
    return (int) n;
  return precision == RW_PRECISION_F16 ? 9 : precision == RW_PRECISION_F32 ? 13 : 5;
}

static RwProdKernel
rw_production_kernel (RwPrecision prec, RwBoundary bnd, int variant)
{
#define RW_KA(S, B, V) ((RwProdKernel) rw_kernel_air<S, B, V>)
#define RW_KAV(V) RW_KERNEL_TABLE (RW_KA, V)
#define RW_KC(S, B, D) ((RwProdKernel) rw_kernel_async<S, B, D>)
#define RW_KCV(D) RW_KERNEL_TABLE (RW_KC, D)
  /* the production variants; 13 runs variant 5 between its two-step
   * passes; every other variant is in rw-cuda-variants.cu */
  static const RwProdKernel air[3][3] = RW_KAV (5);
  static const RwProdKernel async[3][3] = RW_KCV (3);
#undef RW_KCV
#undef RW_KC
#undef RW_KAV
#undef RW_KA
  if (variant == 5 || variant == 13)
    return air[prec][bnd];
  if (variant == 9)
    return async[prec][bnd];
  return rw_cuda_variant_kernel (prec, bnd, variant);
}

const void *
rw_cuda_production_func (RwPrecision precision, RwBoundary boundary)
{
  return rw_production_kernel (precision, boundary, rw_cuda_variant (precision));
}

static bool
rw_set_items (RwCudaState *st, int bx, int by, RwError *err)
{
  int dev, sms, per_sm = 1;
  RwProdKernel k = rw_production_kernel (st->precision, st->boundary, st->variant);
  const size_t shm = rw_variant_shm (st->variant, bx, by, (int) st->elem);
  if (!RW_CUDA (cudaGetDevice (&dev))
      || !RW_CUDA (cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount, dev))
      || (shm > 0 && !RW_CUDA (cudaFuncSetAttribute (k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                     (int) shm)))
      || !RW_CUDA (cudaOccupancyMaxActiveBlocksPerMultiprocessor (&per_sm, k, bx * by, shm)))
    return false;
  const int tile_x = bx * (int) st->wide_w;
  RwCudaItems items = { 0 };
  if (!rw_cuda_build_items (st->zlo_host, st->zhi_host, st->nx, st->ny, tile_x, by, st->elem,
                            sms * per_sm, &items, err))
    return false;
  bool ok = true;
  /* the bulk variants read the planes below and above each item: the
   * voxeliser's outside layer keeps them inside the grid */
  if (st->variant == 11 || st->variant == 12)
    for (size_t k = 0; ok && k < items.n; k++)
      if (items.v[k].z < 1 || items.v[k].w > (int) st->nz - 1)
        ok = rw_fail (err, RW_ERROR_INTERNAL, _("inside cells in the grid's outermost z "
                                                "layer (planes %d to %d of %zu)"),
                      items.v[k].z, items.v[k].w, st->nz);
  if (ok && items.n > st->items_cap)
    ok = rw_fail (err, RW_ERROR_INTERNAL, _("%zu work items exceed the %zu allocated"),
                  items.n, st->items_cap);
  if (ok && items.n > 0)
    ok = RW_CUDA (cudaMemcpy (st->items, items.v, items.n * sizeof (int4),
                              cudaMemcpyHostToDevice));
  st->n_items = ok ? items.n : 0;
  rw_cuda_items_clear (&items);
  if (!ok)
    return false;
  st->bx = bx;
  st->by = by;
  st->shm = shm;
  return true;
}

/* Launches return before the kernel runs; the first failed launch of an
 * advance call (or autotune) is kept by name and reported after it
 * (rw_launches_ok), so that the error says which launch failed. */
static void
rw_launched (RwCudaState *st, cudaError_t e, const char *what)
{
  if (e != cudaSuccess && st->launch_error == cudaSuccess)
    {
      st->launch_error = e;
      st->launch_what = what;
    }
}

static bool
rw_launches_ok (RwCudaState *st, RwError *err)
{
  const cudaError_t e = st->launch_error;
  st->launch_error = cudaSuccess;
  return rw_cuda_ok (e, err, st->launch_what);
}

/* The production kernel over the n work items at `items` (all of a step,
 * or a halo window's: the kernels clip each item's z range to its
 * columns', so an item clipped to a window updates that window alone). */
static void
rw_cuda_launch_items (RwCudaState *st, int step, int4 *items, size_t n)
{
  if (n == 0)
    return;
  int nx = (int) st->nx, ny = (int) st->ny;
  size_t sz = st->nx * st->ny;
  void *args[] = { &st->p, &st->q, &st->cell, st->variant >= 3 ? &st->zrange_w : &st->zrange,
                   &items, &nx, &ny, &sz, &st->slots, &step, &st->bad, &st->air };
  rw_launched (st, cudaLaunchKernel (rw_production_kernel (st->precision, st->boundary,
                                                          st->variant),
                                     dim3 ((unsigned) n), dim3 (st->bx, st->by), args,
                                     st->shm, st->stream),
               _("the launch of the production kernel (one step)"));
}

void
rw_cuda_launch_step (RwCudaState *st, int step)
{
  rw_cuda_launch_items (st, step, st->items, st->n_items);
  rw_cuda_launch_branches (st, step);
}

/* ------------------------------------------------------------- autotune */

/* One-shot search over rw_cuda_tune_shapes, on the fields as they are at
 * creation (all zero: the same traffic as any field, and nothing changes);
 * best of 3 timed steps each. Cached per device, grid, precision and
 * boundary form. */
static bool
rw_autotune (RwCudaState *st, RwError *err)
{
  char key[512];
  snprintf (key, sizeof key, "%s|%zux%zux%zu|%s|%d|v%d", st->name, st->gx, st->ny, st->nz,
            rw_precision_name (st->precision), (int) st->boundary, st->variant);
  int bx, by;
  /* the block sizes the compiled kernel launches (__launch_bounds__, its
   * registers): a cached or listed shape over it is never used */
  cudaFuncAttributes fa;
  if (!RW_CUDA (cudaFuncGetAttributes (&fa, rw_production_kernel (st->precision, st->boundary,
                                                                  st->variant))))
    return false;
  if (rw_cuda_autotune_lookup (key, fa.maxThreadsPerBlock, &bx, &by))
    return rw_set_items (st, bx, by, err);
  double best_ms = 1e30;
  int best = -1;
  for (int s = 0; s < RW_CUDA_N_TUNE_SHAPES; s++)
    {
      if (rw_cuda_tune_shapes[s][0] * rw_cuda_tune_shapes[s][1] > fa.maxThreadsPerBlock)
        continue;
      if (!rw_set_items (st, rw_cuda_tune_shapes[s][0], rw_cuda_tune_shapes[s][1], err))
        return false;
      rw_cuda_launch_step (st, 0);
      for (int r = 0; r < 3; r++)
        {
          float ms;
          if (!RW_CUDA (cudaEventRecord (st->ev0, st->stream)))
            return false;
          rw_cuda_launch_step (st, 0);
          if (!RW_CUDA (cudaEventRecord (st->ev1, st->stream))
              || !RW_CUDA (cudaEventSynchronize (st->ev1))
              || !RW_CUDA (cudaEventElapsedTime (&ms, st->ev0, st->ev1)))
            return false;
          if (ms < best_ms)
            best_ms = ms, best = s;
        }
    }
  if (!rw_launches_ok (st, err))
    return false;
  if (best < 0)
    return rw_fail (err, RW_ERROR_INTERNAL, _("no thread-block shape fits the kernel's limit "
                                              "of %d threads"), fa.maxThreadsPerBlock);
  bx = rw_cuda_tune_shapes[best][0];
  by = rw_cuda_tune_shapes[best][1];
  rw_cuda_autotune_store (key, bx, by, st->n_inside / (best_ms * 1e-3) / 1e9);
  return rw_set_items (st, bx, by, err);
}

/* ---------------------------------------------------------------- ops */

static bool
rw_cuda_available (char *why, size_t why_len)
{
  int n = 0;
  cudaError_t e = cudaGetDeviceCount (&n);
  if (e != cudaSuccess)
    {
      (void) cudaGetLastError ();
      snprintf (why, why_len, _("no CUDA device: %s"), cudaGetErrorString (e));
      return false;
    }
  if (n == 0)
    {
      snprintf (why, why_len, _("no CUDA device found"));
      return false;
    }
  return true;
}

/* RwBackendOps.warm_up: cudaFree (0) is the usual way to make the
 * runtime start the driver and create the device's primary context, which
 * every thread of the process then shares (cudaSetDevice binds it), so
 * that create finds it made. The errors are this thread's own and are
 * dropped: create meets them again and reports them. */
static void
rw_cuda_warm_up (int device)
{
  if (cudaSetDevice (device) == cudaSuccess)
    (void) cudaFree (0);
  (void) cudaGetLastError ();
}

/* RwBackendOps.release: the device's primary context destroyed now, on
 * the caller's thread, instead of by the driver as the process exits. */
static void
rw_cuda_release (int device)
{
  if (cudaSetDevice (device) == cudaSuccess)
    (void) cudaDeviceReset ();
  (void) cudaGetLastError ();
}

/* RwBackendOps.device_uuid: the device's UUID, as nvidia-smi shows it. */
static bool
rw_cuda_device_uuid (int device, unsigned char uuid[16])
{
  cudaDeviceProp prop;
  if (cudaGetDeviceProperties (&prop, device) != cudaSuccess)
    {
      (void) cudaGetLastError ();
      return false;
    }
  static_assert (sizeof prop.uuid.bytes == 16, "a CUDA UUID is 16 bytes");
  memcpy (uuid, prop.uuid.bytes, 16);
  return true;
}

/* Devices usable here; 0 when there is no driver or device. */
static int
rw_cuda_device_count (void)
{
  int n = 0;
  if (cudaGetDeviceCount (&n) != cudaSuccess)
    {
      (void) cudaGetLastError ();
      return 0;
    }
  return n;
}

static bool
rw_cuda_device_info_op (int device, RwDeviceInfo *info, RwError *err)
{
  cudaDeviceProp prop;
  if (device < 0 || device >= rw_cuda_device_count ())
    return rw_fail (err, RW_ERROR_INPUT, _("Device %d does not exist: the %s backend has %d "
                                           "device(s) here, numbered from 0 (roomwave-cli "
                                           "devices lists them)"),
                    device, "cuda", rw_cuda_device_count ());
  if (!RW_CUDA (cudaGetDeviceProperties (&prop, device)))
    return false;
  snprintf (info->name, sizeof info->name, "%s", prop.name);
  info->memory_bytes = prop.totalGlobalMem;
  info->free_bytes = 0;   /* would open a context on every device */
  return true;
}

/* Every call that touches the device selects the state's first: the
 * calling thread may have used another device since. */
#define RW_ON_DEVICE(st) RW_CUDA (cudaSetDevice ((st)->device))

/* Device rows are padded to a multiple of 32 cells (outside cells), so
 * that rows start 128-byte aligned and the wide kernel's vectors are
 * aligned. */
static size_t
rw_pitch (size_t nx)
{
  return rw_cuda_pitch (nx);
}

/* Grid index → padded device index. */
static size_t
rw_pad_index (const RwCudaState *st, size_t i)
{
  return i % st->gx + st->nx * (i / st->gx);
}

static size_t
rw_elem_bytes (RwPrecision p)
{
  return p == RW_PRECISION_F64 ? 8 : p == RW_PRECISION_F16 ? 2 : 4;
}

/* Bytes of one field array with its guards (RW_FIELD_GUARD elements
 * before and after, for the bulk copies of variants 11 and 12), rounded so
 * that both arrays start 256-byte aligned in one allocation. */
static size_t
rw_field_span (size_t n, size_t elem)
{
  return ((n + 2 * (size_t) RW_FIELD_GUARD) * elem + 255) / 256 * 256;
}

/* Whether every offset into a field array, guards included, fits in 32
 * bits: the two-step passes and the async z-march (variants 8, 9) use
 * 32-bit offsets. */
static bool
rw_offsets_32 (const RwCudaState *st)
{
  return st->n + RW_FIELD_GUARD < UINT_MAX;
}

static bool
rw_field_pointers (RwCudaState *st)
{
  char *m = (char *) st->field_mem;
  st->p = m + RW_FIELD_GUARD * st->elem;
  st->q = m + rw_field_span (st->n, st->elem) + RW_FIELD_GUARD * st->elem;
  if (st->field_mem2)
    {
      char *m2 = (char *) st->field_mem2;
      st->p_spare = m2 + RW_FIELD_GUARD * st->elem;
      st->q_spare = m2 + rw_field_span (st->n, st->elem) + RW_FIELD_GUARD * st->elem;
    }
  return true;
}

/* The most branches of any surface of the FV boundary (0: none; the
 * branch nodes and their states, rw-cuda-branches.cu, are bounded by
 * every boundary node having that many). */
static size_t
rw_cuda_max_branches (const RwSolverSetup *setup)
{
  const RwGrid *g = setup->grid;
  if (setup->surface_Y == NULL || setup->boundary != RW_BOUNDARY_FV)
    return 0;
  size_t M = 0;
  for (size_t s = 0; s < g->n_surfaces; s++)
    M = std::max (M, (size_t) std::max (setup->surface_Y[s].n_branches, 0));
  return M;
}

static size_t
rw_cuda_memory_bytes (const RwSolverSetup *setup)
{
  const RwGrid *g = setup->grid;
  if (g->lattice == RW_LATTICE_FCC)
    return rw_cuda_fcc_memory_bytes (setup);
  return (size_t) rw_cuda_device_bytes (g->nx, g->ny, g->nz, rw_elem_bytes (setup->precision),
                                        setup->n_receivers, (double) g->n_boundary,
                                        (double) rw_cuda_max_branches (setup),
                                        setup->precision == RW_PRECISION_F64 ? 8 : 4,
                                        g->n_surfaces);
}

/* Host RAM besides (RwBackendOps.host_bytes; rw_cuda_host_bytes). */
static size_t
rw_cuda_host_bytes_op (const RwSolverSetup *setup)
{
  const RwGrid *g = setup->grid;
  return rw_cuda_host_bytes (g->nx, g->ny, g->nz, rw_elem_bytes (setup->precision),
                             setup->n_receivers);
}

static void rw_cuda_destroy (void *state);

/* The two-step kernel of a precision and boundary form (NULL for fp64). */
const void *
rw_cuda_tb_func (RwPrecision prec, RwBoundary bnd)
{
  static const void *const table[3][3] = {
    { (const void *) rw_kernel_tb<float, 0>, (const void *) rw_kernel_tb<float, 1>,
      (const void *) rw_kernel_tb<float, 2> },
    { NULL, NULL, NULL },   /* fp64: single steps (measured slower in passes) */
    { (const void *) rw_kernel_tb<__half, 0>, (const void *) rw_kernel_tb<__half, 1>,
      (const void *) rw_kernel_tb<__half, 2> },
  };
  return table[prec][bnd];
}

/* Variant 13's spare pair of field arrays and its items. Where the spare
 * pair does not fit in the free memory, the source is not an inside cell
 * (the passes inject it only where they update), the precision is fp64
 * (its passes measured slower than single steps: 86 against 99 Gvox/s) or
 * the grid holds 2³² cells or more (the kernel indexes in 32 bits), the
 * solver runs single steps of variant 5 instead (st->tb stays false). */
static bool
rw_tb_setup (RwCudaState *st, const uint8_t *cells, RwError *err)
{
  for (int c = 0; c < st->src.n; c++)
    if (RW_CELL_K (cells[(size_t) st->src.cell[c]]) == 0)
      return true;
  if (st->precision == RW_PRECISION_F64 || !rw_offsets_32 (st))
    return true;
  size_t free_b, total_b;
  int dev, sms, per_sm = 1;
  if (!RW_CUDA (cudaMemGetInfo (&free_b, &total_b)) || !RW_CUDA (cudaGetDevice (&dev))
      || !RW_CUDA (cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount, dev))
      || !RW_CUDA (cudaOccupancyMaxActiveBlocksPerMultiprocessor (
           &per_sm, rw_cuda_tb_func (st->precision, st->boundary), 32 * RW_TB_BY, 0)))
    return false;
  RwCudaItems items = { 0 };
  if (!rw_cuda_build_tb_items (st->zlo_host, st->zhi_host, st->nx, st->ny, 60, RW_TB_BY - 4,
                               sms * per_sm, &items, err))
    return false;
  const size_t need = 2 * rw_field_span (st->n, st->elem) + items.n * sizeof (int4);
  /* keep 5 % of the card free for the runtime and the display */
  if (need + total_b / 20 > free_b || items.n == 0)
    {
      rw_cuda_items_clear (&items);
      return true;
    }
  /* memory taken meanwhile by another process is not an error: single steps */
  if (cudaMalloc (&st->field_mem2, 2 * rw_field_span (st->n, st->elem)) != cudaSuccess)
    {
      (void) cudaGetLastError ();
      st->field_mem2 = NULL;
      rw_cuda_items_clear (&items);
      return true;
    }
  const bool ok = RW_CUDA (cudaMemset (st->field_mem2, 0, 2 * rw_field_span (st->n, st->elem)))
                  && RW_CUDA (cudaMalloc ((void **) &st->tb_items, items.n * sizeof (int4)))
                  && RW_CUDA (cudaMemcpy (st->tb_items, items.v, items.n * sizeof (int4),
                                          cudaMemcpyHostToDevice));
  st->n_tb_items = items.n;
  rw_cuda_items_clear (&items);
  if (!ok)
    return false;
  /* p and q may have moved during the autotune: back to the first pair */
  rw_field_pointers (st);
  st->tb = true;
  return true;
}

/* Frequency-dependent surfaces (FV): per surface Y0 + Σ b and coefficients
 * (zero beyond its branches: the branch kernel relies on it), rounded as the CPU backend
 * rounds them (rw-scheme.h), the branch node list and zeroed states.
 * Fills listed[s] for rw_cuda_pack_cells (allocated here: NULL when the
 * setup has no such surface). */
static bool
rw_branch_setup (RwCudaState *st, const RwSolverSetup *setup, bool *&listed, RwError *err)
{
  const RwGrid *g = setup->grid;
  const size_t ns = g->n_surfaces > 0 ? g->n_surfaces : 1;
  if (setup->boundary != RW_BOUNDARY_FV)
    return true;
  /* listed: frequency-dependent surfaces, and nodes whose absorbing area
   * is not their face count (sloped and curved surfaces): the node list
   * says whether there are any */
  /* coefficients and β in double for every precision (the node's update
   * is in double: rw-scheme.h); the states in the arithmetic type */
  const size_t a = setup->precision == RW_PRECISION_F64 ? sizeof (double) : sizeof (float);
  const size_t per = 4 * RW_ADM_MAX_BRANCHES;
  int *M = (int *) calloc (ns, sizeof (int));
  double *cd = (double *) calloc (ns * per, sizeof (double)), *bd = (double *) calloc (ns, sizeof (double));
  double *en = (double *) calloc (ns * 2 * RW_ADM_MAX_BRANCHES, sizeof (double));
  listed = (bool *) calloc (ns, sizeof (bool));
  RwBranchNode *nodes = NULL;
  bool ok = M && cd && bd && en && listed;
  if (!ok)
    rw_fail (err, RW_ERROR_MEMORY, _("out of host memory"));
  for (size_t s = 0; ok && s < g->n_surfaces; s++)
    {
      /* a frequency-independent surface: the β of the CPU backend */
      bd[s] = rw_beta_of_R (setup->surface_R[s]);
      if (setup->surface_Y == NULL || setup->surface_Y[s].n_branches == 0)
        continue;
      const RwAdmittance *y = &setup->surface_Y[s];
      M[s] = y->n_branches;
      listed[s] = true;
      bd[s] = rw_admittance_branch_table (y, setup->time_step_s, cd + s * per,
                               en + s * 2 * RW_ADM_MAX_BRANCHES);
    }
  size_t n_nodes = 0, n_states = 0;
  ok = ok && rw_cuda_branch_nodes (g, M, true, st->nx, &nodes, &n_nodes, &n_states, err);
  if (ok && n_nodes == 0)
    {
      /* nothing listed: the main kernels alone */
      free (listed);
      listed = NULL;
      free (M), free (cd), free (bd), free (en);
      return true;
    }
  /* branch-major states (rw-cuda-branches.cu): the most branches of any
   * surface, for every node */
  int M_max = 0;
  for (size_t s = 0; s < g->n_surfaces; s++)
    M_max = std::max (M_max, M[s]);
  st->n_bn = n_nodes;
  st->b_m_max = M_max;
  /* each plane's first node, for a slab's windows (rw-cuda-halo.cuh) */
  st->bn_z = rw_cuda_branch_plane_starts (nodes, n_nodes, st->nx * st->ny, st->nz);
  if (ok && st->bn_z == NULL)
    ok = rw_fail (err, RW_ERROR_MEMORY, _("out of host memory"));
  n_states = (size_t) M_max * n_nodes;
  ok = ok && RW_CUDA (cudaMalloc (&st->b_beta, ns * sizeof (double)))
       && RW_CUDA (cudaMemcpy (st->b_beta, bd, ns * sizeof (double),
                               cudaMemcpyHostToDevice))
       && RW_CUDA (cudaMalloc (&st->b_coef, ns * per * sizeof (double)))
       && RW_CUDA (cudaMemcpy (st->b_coef, cd, ns * per * sizeof (double),
                               cudaMemcpyHostToDevice))
       && RW_CUDA (cudaMalloc ((void **) &st->b_en, ns * 2 * RW_ADM_MAX_BRANCHES * sizeof (double)))
       && RW_CUDA (cudaMemcpy (st->b_en, en, ns * 2 * RW_ADM_MAX_BRANCHES * sizeof (double),
                               cudaMemcpyHostToDevice))
       && RW_CUDA (cudaMalloc ((void **) &st->bn, (n_nodes + 1) * sizeof (RwBranchNode)))
       && (n_nodes == 0 || RW_CUDA (cudaMemcpy (st->bn, nodes, n_nodes * sizeof (RwBranchNode),
                                                cudaMemcpyHostToDevice)))
       && RW_CUDA (cudaMalloc (&st->bv, (n_states + 1) * a))
       && RW_CUDA (cudaMalloc (&st->bq, (n_states + 1) * a))
       && RW_CUDA (cudaMemset (st->bv, 0, (n_states + 1) * a))
       && RW_CUDA (cudaMemset (st->bq, 0, (n_states + 1) * a))
       /* p⁻ of each node: the fields start at zero */
       && RW_CUDA (cudaMalloc (&st->bp, (n_nodes + 1) * st->elem))
       && RW_CUDA (cudaMemset (st->bp, 0, (n_nodes + 1) * st->elem));
  free (M);
  free (cd);
  free (bd);
  free (en);
  free (nodes);
  return ok;
}

static void *
rw_cuda_create (const RwSolverSetup *setup, RwError *err)
{
  const RwGrid *g = setup->grid;
  char why[256];
  if (!rw_cuda_available (why, sizeof why))
    {
      rw_fail (err, RW_ERROR_UNSUPPORTED, "%s", why);
      return NULL;
    }
  if (g->lattice == RW_LATTICE_FCC)
    return rw_cuda_fcc_create (setup, err);
  if ((int) setup->precision < 0 || setup->precision > RW_PRECISION_F16
      || (int) setup->boundary < 0 || setup->boundary > RW_BOUNDARY_SAVIOJA)
    {
      rw_fail (err, RW_ERROR_INPUT, _("unknown precision or boundary form"));
      return NULL;
    }
  if (g->nx > INT_MAX || g->ny > INT_MAX || g->nz > INT_MAX || setup->n_steps > INT_MAX)
    {
      rw_fail (err, RW_ERROR_INPUT, _("grid of %zu×%zu×%zu cells or %zu steps is too large "
                                      "for the CUDA backend"), g->nx, g->ny, g->nz,
               setup->n_steps);
      return NULL;
    }
  if (setup->block_x < 0 || setup->block_y < 0
      || (setup->block_x > 0) != (setup->block_y > 0)
      || setup->block_x * setup->block_y > 512
      || (setup->block_x > 0 && setup->block_x * setup->block_y < 32))
    {
      rw_fail (err, RW_ERROR_INPUT, _("thread-block shape %d×%d: both sides > 0 and 32 to "
                                      "512 threads in all"), setup->block_x, setup->block_y);
      return NULL;
    }
  const size_t n = g->nx * g->ny * g->nz;
  for (size_t r = 0; r < setup->n_receivers; r++)
    if (setup->receiver_cells[r] >= n)
      {
        rw_fail (err, RW_ERROR_INPUT, _("receiver %zu: cell %zu is outside the grid"), r + 1,
                 setup->receiver_cells[r]);
        return NULL;
      }
  for (size_t c = 0; setup->source_signal && c < rw_solver_source_n (setup); c++)
    if (rw_solver_source_cell (setup, c) >= n)
      {
        rw_fail (err, RW_ERROR_INPUT, _("source: cell %zu is outside the grid"),
                 rw_solver_source_cell (setup, c));
        return NULL;
      }

  RwCudaState *st = (RwCudaState *) calloc (1, sizeof *st);
  if (!st)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("out of host memory"));
      return NULL;
    }
  st->gx = g->nx;
  st->nx = rw_pitch (g->nx), st->ny = g->ny, st->nz = g->nz;
  st->n = st->nx * st->ny * st->nz;
  st->n_inside = g->n_inside;
  /* the energy's planes: a slab's owned ones (rw-backend.h, "Slabs") */
  st->own_z0 = setup->own_z1 > 0 ? std::min (setup->own_z0, g->nz) : 0;
  st->own_z1 = setup->own_z1 > 0 ? std::max (st->own_z0, std::min (setup->own_z1, g->nz)) : g->nz;
  st->precision = setup->precision;
  st->boundary = setup->boundary;
  st->variant = rw_cuda_variant (setup->precision);
  /* the async z-march keeps 32-bit offsets: variant 5 on larger grids */
  if ((st->variant == 8 || st->variant == 9) && !rw_offsets_32 (st))
    st->variant = 5;
  st->elem = rw_elem_bytes (setup->precision);
  st->source = setup->source_signal;
  st->n_steps = setup->n_steps;
  st->src.n = setup->source_signal ? (int) rw_solver_source_n (setup) : 0;
  for (int c = 0; c < st->src.n; c++)
    {
      st->src.cell[c] = (long long) rw_pad_index (st, rw_solver_source_cell (setup, (size_t) c));
      st->src.weight[c] = rw_solver_source_weight (setup, (size_t) c);
    }
  st->source_hard = setup->source_kind == RW_SOURCE_HARD;
  st->n_rcv = setup->n_receivers;

  /* host copies, malloc'ed (no C++ exception may cross into C); freed
   * at the end either way */
  uint8_t *cells = NULL;
  bool *listed = NULL;
  int n_slots;
  uint2 *zr = NULL, *zrw = NULL;
  size_t *rcv_pad = NULL;
  unsigned *air = NULL;
  size_t n_zrw = 0, n_air = 0;
  bool ok = false;
  cudaDeviceProp prop;
  size_t free_b, total_b;
  const size_t need = rw_cuda_memory_bytes (setup);
  st->slice_cap = std::max (g->ny * g->nz, std::max (g->nx * g->nz, g->nx * g->ny));
  st->items_cap = rw_cuda_items_bound (st->nx, g->ny, g->nz, st->elem);

  /* the need is checked before anything of the grid's size is allocated,
   * here or on the device */
  st->device = setup->device;
  if (!RW_CUDA (cudaSetDevice (setup->device))
      || !RW_CUDA (cudaGetDeviceProperties (&prop, setup->device))
      || !RW_CUDA (cudaMemGetInfo (&free_b, &total_b)))
    goto fail;
  snprintf (st->name, sizeof st->name, "%s", prop.name);
  if (need > free_b)
    {
      rw_fail (err, RW_ERROR_MEMORY,
               _("the simulation needs %.2f GB on the GPU (%zu cells at %zu bytes per value), "
                 "but %s has %.2f GB free of %.2f GB: lower fmax (memory falls with fmax³), "
                 "use precision f16 (half the field memory), or use the CPU backend"),
               need / 1e9, st->n, st->elem, st->name, free_b / 1e9, total_b / 1e9);
      goto fail;
    }
  cells = (uint8_t *) calloc (st->n, 1);
  if (!cells)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("out of host memory"));
      goto fail;
    }
  if (!rw_branch_setup (st, setup, listed, err)
      || !rw_cuda_pack_cells (g, setup->surface_R, listed, setup->boundary == RW_BOUNDARY_FV,
                              st->nx, cells, st->slots.R, st->slots.beta, &st->slots.list_slot,
                              &n_slots, err))
    goto fail;
  /* the two-step passes cannot interleave the branch kernel */
  if (st->n_bn > 0 && st->variant == 13)
    st->variant = 5;
  /* column ranges on the padded rows (padding columns are empty), and
   * their unions over the wide kernel's groups of W columns */
  st->wide_w = st->variant >= 3 ? rw_wide_w (st->variant, (int) st->elem) : 1;
  st->zlo_host = (uint32_t *) calloc (st->nx * st->ny, sizeof (uint32_t));
  st->zhi_host = (uint32_t *) calloc (st->nx * st->ny, sizeof (uint32_t));
  n_zrw = st->nx / st->wide_w * st->ny;
  n_air = st->n / st->wide_w / 32 + 1;
  zr = (uint2 *) calloc (st->nx * st->ny, sizeof (uint2));
  zrw = (uint2 *) malloc (n_zrw * sizeof (uint2));
  rcv_pad = (size_t *) malloc ((st->n_rcv + 1) * sizeof (size_t));
  air = (unsigned *) calloc (n_air, sizeof (unsigned));
  if (!st->zlo_host || !st->zhi_host || !zr || !zrw || !rcv_pad || !air)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("out of host memory"));
      goto fail;
    }
  for (size_t k = 0; k < n_zrw; k++)
    zrw[k] = make_uint2 (UINT32_MAX, 0);
  for (size_t y = 0; y < g->ny; y++)
    for (size_t x = 0; x < g->nx; x++)
      {
        const size_t c = x + g->nx * y, d = x + st->nx * y;
        const uint32_t lo = g->zlo[c], hi = g->zhi[c];
        st->zlo_host[d] = lo;
        st->zhi_host[d] = hi;
        zr[d] = make_uint2 (lo, hi);
        uint2 &w = zrw[x / st->wide_w + st->nx / st->wide_w * y];
        if (lo < hi)
          w = make_uint2 (std::min (w.x, lo), std::max (w.y, hi));
      }
  for (size_t k = 0; k < n_zrw; k++)
    if (zrw[k].x >= zrw[k].y)
      zrw[k] = make_uint2 (0, 0);
  for (size_t r = 0; r < st->n_rcv; r++)
    rcv_pad[r] = rw_pad_index (st, setup->receiver_cells[r]);
  /* one bit per group of wide_w cells: all air (variants 5–7) */
  for (size_t grp = 0; grp < st->n / st->wide_w; grp++)
    {
      bool all = true;
      for (size_t k = 0; k < st->wide_w; k++)
        all = all && RW_CELL_K (cells[grp * st->wide_w + k]) == 6;
      if (all)
        air[grp >> 5] |= 1u << (grp & 31);
    }

  if (!RW_CUDA (cudaStreamCreateWithFlags (&st->stream, cudaStreamNonBlocking))
      || !RW_CUDA (cudaEventCreate (&st->ev0)) || !RW_CUDA (cudaEventCreate (&st->ev1))
      || !RW_CUDA (cudaMalloc (&st->field_mem, 2 * rw_field_span (st->n, st->elem)))
      || !RW_CUDA (cudaMemset (st->field_mem, 0, 2 * rw_field_span (st->n, st->elem)))
      || !rw_field_pointers (st)
      || !RW_CUDA (cudaMalloc ((void **) &st->cell, st->n))
      || !RW_CUDA (cudaMalloc ((void **) &st->zrange, st->nx * st->ny * sizeof (uint2)))
      || !RW_CUDA (cudaMalloc ((void **) &st->zrange_w, n_zrw * sizeof (uint2)))
      || !RW_CUDA (cudaMalloc ((void **) &st->air, n_air * sizeof (unsigned)))
      || !RW_CUDA (cudaMemcpy (st->air, air, n_air * sizeof (unsigned),
                               cudaMemcpyHostToDevice))
      || !RW_CUDA (cudaMalloc ((void **) &st->items, st->items_cap * sizeof (int4)))
      || !RW_CUDA (cudaMalloc ((void **) &st->bad, sizeof (int)))
      || !RW_CUDA (cudaMalloc ((void **) &st->slice, st->slice_cap * sizeof (float)))
      || !RW_CUDA (cudaMemset (st->p, 0, st->n * st->elem))
      || !RW_CUDA (cudaMemset (st->q, 0, st->n * st->elem))
      || !RW_CUDA (cudaMemcpy (st->cell, cells, st->n, cudaMemcpyHostToDevice))
      || !RW_CUDA (cudaMemcpy (st->zrange, zr, st->nx * st->ny * sizeof (uint2),
                               cudaMemcpyHostToDevice))
      || !RW_CUDA (cudaMemcpy (st->zrange_w, zrw, n_zrw * sizeof (uint2),
                               cudaMemcpyHostToDevice)))
    goto fail;
  {
    const int none = INT_MAX;
    if (!RW_CUDA (cudaMemcpy (st->bad, &none, sizeof none, cudaMemcpyHostToDevice)))
      goto fail;
  }
  if (st->n_rcv > 0)
    {
      st->rcv_host = (double *) malloc (st->n_rcv * RW_RCV_CHUNK * sizeof (double));
      if (!st->rcv_host)
        {
          rw_fail (err, RW_ERROR_MEMORY, _("out of host memory"));
          goto fail;
        }
      if (!RW_CUDA (cudaMalloc ((void **) &st->rcv_cells, st->n_rcv * sizeof (size_t)))
          || !RW_CUDA (cudaMalloc ((void **) &st->rcv_dev,
                                   st->n_rcv * RW_RCV_CHUNK * sizeof (double)))
          || !RW_CUDA (cudaMemcpy (st->rcv_cells, rcv_pad,
                                   st->n_rcv * sizeof (size_t), cudaMemcpyHostToDevice)))
        goto fail;
    }
  if (setup->block_x > 0)
    {
      if (!rw_set_items (st, setup->block_x, setup->block_y, err))
        goto fail;
    }
  else if (!rw_autotune (st, err))
    goto fail;
  if (st->variant == 13 && !rw_tb_setup (st, cells, err))
    goto fail;
  /* the autotune ran steps over the zero field: it is still zero, but make
   * sure of it rather than rely on it */
  if (!RW_CUDA (cudaMemsetAsync (st->p, 0, st->n * st->elem, st->stream))
      || !RW_CUDA (cudaMemsetAsync (st->q, 0, st->n * st->elem, st->stream))
      || (st->n_bn > 0 && !RW_CUDA (cudaMemsetAsync (st->bp, 0, st->n_bn * st->elem, st->stream)))
      || !RW_CUDA (cudaStreamSynchronize (st->stream)))
    goto fail;
  ok = true;

fail:
  free (cells);
  free (listed);
  free (zr);
  free (zrw);
  free (rcv_pad);
  free (air);
  if (ok)
    return st;
  rw_cuda_destroy (st);
  return NULL;
}

/* Source and receivers of step `step` on field f (S-typed launch). */
static void
rw_cuda_io (RwCudaState *st, void *f, const RwCudaSource *source, double s, bool receivers,
            size_t k, size_t chunk)
{
  RwCudaSource src;
  src.n = 0;
  if (source != NULL)
    src = *source;
  rw_cuda_launch_io (st->precision, st->stream, f, src, st->source_hard, s, st->rcv_cells,
                     receivers ? (int) st->n_rcv : 0, st->rcv_dev, k, chunk);
  rw_launched (st, cudaGetLastError (), _("the launch of rw_kernel_io (source and receivers)"));
}

/* Variant 13: steps `step` and `step` + 1 in one pass (rw_kernel_tb), from
 * p and q into the spare pair, which then become p (time n + 2) and q
 * (n + 1); with `io`, the source of step n + 1 inside the kernel, the
 * receivers of both steps and the source of step n + 2 after it (slots k
 * and k + 1 of the chunk). */
static void
rw_cuda_tb_pass (RwCudaState *st, size_t step, size_t k, size_t chunk, bool io)
{
  void *n1 = st->q_spare, *n2 = st->p_spare;
  if (st->n_tb_items > 0)
    {
      int nx = (int) st->nx, ny = (int) st->ny, nz = (int) st->nz, step_i = (int) step;
      size_t sz = st->nx * st->ny;
      RwCudaSource src = st->src;
      if (!io)
        src.n = 0;
      int hard = st->source_hard;
      double s1 = (st->source && step < st->n_steps) ? st->source[step] : 0.0;
      void *args[] = { &st->p, &st->q, &n1, &n2, &st->cell, &st->air, &st->tb_items, &nx, &ny,
                       &nz, &sz, &st->slots, &step_i, &src, &hard, &s1, &st->bad };
      rw_launched (st, cudaLaunchKernel (rw_cuda_tb_func (st->precision, st->boundary),
                                         dim3 ((unsigned) st->n_tb_items), dim3 (32, RW_TB_BY),
                                         args, 0, st->stream),
                   _("the launch of rw_kernel_tb (a two-step pass)"));
    }
  if (io && st->n_rcv > 0)
    rw_cuda_io (st, n1, NULL, 0.0, true, k, chunk);
  if (io && (st->src.n > 0 || st->n_rcv > 0))
    {
      const double s2 = (st->source && step + 1 < st->n_steps) ? st->source[step + 1] : 0.0;
      rw_cuda_io (st, n2, &st->src, s2, true, k + 1, chunk);
    }
  st->p_spare = st->p;
  st->q_spare = st->q;
  st->p = n2;
  st->q = n1;
}

/* The planes [z0, z1) of a step with a halo: the items clipped to them
 * (window w of st->halo_items), their branch nodes, the source's cells
 * there, and with `receivers` the receivers. */
static void
rw_cuda_window (RwCudaState *st, int step, double s, int w, size_t z0, size_t z1, bool receivers,
                size_t k, size_t chunk)
{
  const size_t off = w == 0 ? 0 : w == 1 ? st->halo_n[0] : st->halo_n[0] + st->halo_n[1];
  if (z0 < z1)
    {
      rw_cuda_launch_items (st, step, st->halo_items + off, st->halo_n[w]);
      if (st->bn_z != NULL)
        rw_cuda_launch_branches_range (st, step, st->bn_z[z0], st->bn_z[z1]);
    }
  const RwCudaSource src = rw_cuda_source_planes (st->src, (long long) (st->nx * st->ny), z0, z1);
  if (src.n > 0 || (receivers && st->n_rcv > 0))
    rw_cuda_io (st, st->q, &src, s, receivers, k, chunk);
}

/* A step of a slab with a halo attached (rw-cuda-halo.cuh), as the FCC
 * path's: the windows by the cuts, their exchange posted, the interior
 * and the receivers while it runs, the exchange waited for. */
static void
rw_cuda_halo_step (RwCudaState *st, int step, double s, size_t k, size_t chunk)
{
  rw_cuda_halo_step_windows (st->halo, st->stream, st->q,
                             [&] (int w, size_t z0, size_t z1, bool receivers) {
                               rw_cuda_window (st, step, s, w, z0, z1, receivers, k, chunk);
                             });
}

void
rw_cuda_pass_steps (RwCudaState *st)
{
  rw_cuda_tb_pass (st, 0, 0, RW_RCV_CHUNK, false);
}

void
rw_cuda_home_fields (RwCudaState *st)
{
  rw_field_pointers (st);
}

static bool
rw_cuda_advance (void *state, size_t step0, size_t n, double *rcv, size_t stride,
                 RwError *err)
{
  if (rw_cuda_is_fcc (state))
    return rw_cuda_fcc_advance (state, step0, n, rcv, stride, err);
  RwCudaState *st = (RwCudaState *) state;
  if (!RW_ON_DEVICE (st))
    return false;
  for (size_t done = 0; done < n;)
    {
      const size_t chunk = std::min ((size_t) RW_RCV_CHUNK, n - done);
      for (size_t k = 0; k < chunk; k++)
        {
          const size_t step = step0 + done + k;
          /* with a halo, single steps (each one's planes exchanged) */
          if (st->tb && k + 1 < chunk && st->halo == NULL)
            {
              rw_cuda_tb_pass (st, step, k, chunk, true);
              k++;
              continue;
            }
          const double s = (st->source && step < st->n_steps) ? st->source[step] : 0.0;
          if (st->halo)
            rw_cuda_halo_step (st, (int) step, s, k, chunk);
          else
            {
              rw_cuda_launch_step (st, (int) step);
              if (st->src.n > 0 || st->n_rcv > 0)
                rw_cuda_io (st, st->q, &st->src, s, true, k, chunk);
            }
          std::swap (st->p, st->q);
        }
      if (!rw_launches_ok (st, err) || (st->halo && !rw_cuda_halo_check (st->halo, err))
          || !rw_cuda_chunk_end (st->stream, st->n_rcv, chunk, st->rcv_dev, st->rcv_host, st->bad,
                                 st->precision, rcv, stride, step0 + done, err))
        return false;
      done += chunk;
    }
  return true;
}

static bool
rw_field_to_double (const RwCudaState *st, const void *dev, double *out, RwError *err)
{
  void *tmp = rw_cuda_download (st->stream, dev, st->n, st->elem, err);
  if (!tmp)
    return false;
  const size_t n = st->gx * st->ny * st->nz;
  for (size_t i = 0; i < n; i++)
    out[i] = rw_stored_value (st->precision, tmp, rw_pad_index (st, i));
  free (tmp);
  return true;
}

static bool
rw_cuda_read_field (void *state, double *p, double *p_prev, RwError *err)
{
  if (rw_cuda_is_fcc (state))
    return rw_cuda_fcc_read_field (state, p, p_prev, err);
  RwCudaState *st = (RwCudaState *) state;
  return RW_ON_DEVICE (st) && (!p || rw_field_to_double (st, st->p, p, err))
         && (!p_prev || rw_field_to_double (st, st->q, p_prev, err));
}

static bool
rw_cuda_energy_op (void *state, RwEnergyReading *out, RwError *err)
{
  if (rw_cuda_is_fcc (state))
    return rw_cuda_fcc_energy (state, out, err);
  return RW_ON_DEVICE ((RwCudaState *) state) && rw_cuda_energy ((RwCudaState *) state, out, err);
}

static bool
rw_cuda_read_slice (void *state, int axis, size_t index, float *out, RwError *err)
{
  if (rw_cuda_is_fcc (state))
    return rw_cuda_fcc_read_slice (state, axis, index, out, err);
  RwCudaState *st = (RwCudaState *) state;
  if (!RW_ON_DEVICE (st))
    return false;
  const size_t dims[3] = { st->gx, st->ny, st->nz };
  if (axis < 0 || axis > 2 || index >= dims[axis])
    return rw_fail (err, RW_ERROR_INPUT, _("slice %zu on axis %d is outside the %zu×%zu×%zu grid"),
                    index, axis, st->gx, st->ny, st->nz);
  const size_t count = st->gx * st->ny * st->nz / dims[axis];
  const unsigned blocks = (unsigned) std::min ((size_t) 1024, (count + 255) / 256);
  if (st->precision == RW_PRECISION_F64)
    rw_kernel_slice<<<blocks, 256, 0, st->stream>>> ((const double *) st->p, axis, index,
                                                     st->gx, st->ny, st->nz, st->nx, st->slice);
  else if (st->precision == RW_PRECISION_F16)
    rw_kernel_slice<<<blocks, 256, 0, st->stream>>> ((const __half *) st->p, axis, index,
                                                     st->gx, st->ny, st->nz, st->nx, st->slice);
  else
    rw_kernel_slice<<<blocks, 256, 0, st->stream>>> ((const float *) st->p, axis, index,
                                                     st->gx, st->ny, st->nz, st->nx, st->slice);
  return rw_cuda_ok (cudaGetLastError (), err, _("the launch of rw_kernel_slice"))
         && RW_CUDA (cudaMemcpyAsync (out, st->slice, count * sizeof (float),
                                      cudaMemcpyDeviceToHost, st->stream))
         && RW_CUDA (cudaStreamSynchronize (st->stream));
}

/* Slabs and checkpoints (rw-backend.h): the field p as stored (padded
 * rows: every word of a plane, the padding's zeros too), and what a run
 * continues from — p, p⁻, the branch states v and q and the listed nodes'
 * own p⁻ (rw-cuda-branches.cu). Both paths describe theirs; the copies
 * are the same code. */
static RwCudaCopyable
rw_cuda_copyable (void *state)
{
  if (rw_cuda_is_fcc (state))
    return rw_cuda_fcc_copyable (state);
  const RwCudaState *st = (const RwCudaState *) state;
  const size_t a = st->precision == RW_PRECISION_F64 ? sizeof (double) : sizeof (float);
  const size_t states = st->n_bn > 0 ? (size_t) st->b_m_max * st->n_bn * a : 0;
  RwCudaCopyable c = rw_cuda_copyable_fields (st->device, st->stream, st->p, st->q,
                                              st->nx * st->ny * st->elem, st->nz);
  rw_cuda_copyable_add (c, st->bv, states);
  rw_cuda_copyable_add (c, st->bq, states);
  rw_cuda_copyable_add (c, st->bp, st->n_bn * st->elem);
  return c;
}

static size_t
rw_cuda_plane_bytes (void *state)
{
  return rw_cuda_copyable (state).plane_bytes;
}

static bool
rw_cuda_get_planes (void *state, size_t z, size_t n, void *buf, RwError *err)
{
  return rw_cuda_planes_copy (rw_cuda_copyable (state), z, n, buf, true, err);
}

static bool
rw_cuda_set_planes (void *state, size_t z, size_t n, const void *buf, RwError *err)
{
  return rw_cuda_planes_copy (rw_cuda_copyable (state), z, n, (void *) buf, false, err);
}

static size_t
rw_cuda_state_bytes (void *state)
{
  return rw_cuda_state_size (rw_cuda_copyable (state));
}

static bool
rw_cuda_save_state (void *state, void *buf, RwError *err)
{
  return rw_cuda_state_copy (rw_cuda_copyable (state), buf, true, err);
}

static bool
rw_cuda_load_state (void *state, const void *buf, RwError *err)
{
  return rw_cuda_state_copy (rw_cuda_copyable (state), (void *) buf, false, err);
}

static const char *
rw_cuda_device_name (void *state)
{
  if (rw_cuda_is_fcc (state))
    return rw_cuda_fcc_device_name (state);
  return ((RwCudaState *) state)->name;
}

static void
rw_cuda_destroy (void *state)
{
  if (rw_cuda_is_fcc (state))
    return rw_cuda_fcc_destroy (state);
  RwCudaState *st = (RwCudaState *) state;
  if (!st)
    return;
  (void) cudaSetDevice (st->device);
  if (st->stream)
    cudaStreamSynchronize (st->stream);
  rw_cuda_halo_free (st->halo);
  cudaFree (st->halo_items);
  free (st->bn_z);
  cudaFree (st->field_mem);   /* p and q point into it (or into field_mem2) */
  cudaFree (st->field_mem2);
  cudaFree (st->tb_items);
  cudaFree (st->cell);
  cudaFree (st->zrange);
  cudaFree (st->zrange_w);
  cudaFree (st->air);
  cudaFree (st->items);
  cudaFree (st->bad);
  cudaFree (st->energy);
  cudaFree (st->exact);
  cudaFree (st->bn);
  cudaFree (st->b_beta);
  cudaFree (st->b_coef);
  cudaFree (st->b_en);
  cudaFree (st->bv);
  cudaFree (st->bq);
  cudaFree (st->bp);
  cudaFree (st->slice);
  cudaFree (st->rcv_cells);
  cudaFree (st->rcv_dev);
  rw_cuda_event_free (&st->ev0);
  rw_cuda_event_free (&st->ev1);
  rw_cuda_stream_free (&st->stream);
  (void) cudaGetLastError ();
  free (st->rcv_host);
  free (st->zlo_host);
  free (st->zhi_host);
  free (st);
}

static const RwBackendOps rw_cuda_ops = {
  "cuda",
  true,                         /* supports_f16 */
  false,                        /* host_memory: the field is in device memory */
  2,                            /* max_steps_per_pass: variant 13 */
  true,                         /* supports_branches: rw-cuda-branches.cu */
  true,                         /* supports_fcc: rw-cuda-fcc.cu */
  rw_cuda_available,
  rw_cuda_device_count,
  rw_cuda_device_info_op,
  rw_cuda_memory_bytes,
  rw_cuda_host_bytes_op,
  rw_cuda_create,
  rw_cuda_advance,
  rw_cuda_read_field,
  rw_cuda_energy_op,
  rw_cuda_read_slice,
  rw_cuda_device_name,
  rw_cuda_plane_bytes,
  rw_cuda_get_planes,
  rw_cuda_set_planes,
#if RW_HAVE_NCCL
  rw_cuda_halo_id_op,           /* device halos: rw-cuda-halo.cu */
  rw_cuda_halo_attach_op,
#else
  NULL,                         /* built without NCCL: through the host */
  NULL,
#endif
  rw_cuda_state_bytes,
  rw_cuda_save_state,
  rw_cuda_load_state,
  rw_cuda_destroy,
  rw_cuda_warm_up,
  rw_cuda_release,
  rw_cuda_device_uuid,
};

extern "C" const RwBackendOps *
rw_cuda_backend (void)
{
  return &rw_cuda_ops;
}

/* ------------------------------------------------------------ test hooks */

extern "C" bool
rw_cuda_debug_write_field (void *state, const double *p, const double *p_prev, RwError *err)
{
  if (rw_cuda_is_fcc (state))
    return rw_cuda_fcc_write_field (state, p, p_prev, err);
  RwCudaState *st = (RwCudaState *) state;
  if (!RW_ON_DEVICE (st))
    return false;
  unsigned char *tmp = (unsigned char *) malloc (st->n * st->elem);
  if (!tmp)
    return rw_fail (err, RW_ERROR_MEMORY, _("out of host memory (%zu bytes)"), st->n * st->elem);
  bool ok = true;
  const double *src[2] = { p, p_prev };
  void *dst[2] = { st->p, st->q };
  for (int a = 0; ok && a < 2; a++)
    {
      if (!src[a])
        continue;
      /* padding cells are outside: 0 */
      memset (tmp, 0, st->n * st->elem);
      for (size_t i = 0; i < st->gx * st->ny * st->nz; i++)
        {
          const size_t j = rw_pad_index (st, i);
          if (st->precision == RW_PRECISION_F64)
            ((double *) tmp)[j] = src[a][i];
          else if (st->precision == RW_PRECISION_F16)
            ((__half *) tmp)[j] = __float2half_rn ((float) src[a][i]);
          else
            ((float *) tmp)[j] = (float) src[a][i];
        }
      ok = RW_CUDA (cudaMemcpyAsync (dst[a], tmp, st->n * st->elem, cudaMemcpyHostToDevice,
                                     st->stream))
           && RW_CUDA (cudaStreamSynchronize (st->stream));
    }
  free (tmp);
  /* the listed nodes keep their p⁻ apart (rw-cuda-branches.cu) */
  return ok && rw_cuda_branch_gather (st, err);
}

extern "C" int
rw_cuda_debug_steps_per_pass (void *state)
{
  if (rw_cuda_is_fcc (state))
    return rw_cuda_fcc_steps_per_pass (state);
  return ((RwCudaState *) state)->tb ? 2 : 1;
}

extern "C" int
rw_cuda_debug_tb_seam (void *state)
{
  if (rw_cuda_is_fcc (state))
    return -1;
  RwCudaState *st = (RwCudaState *) state;
  const size_t n = st->n_tb_items;
  if (cudaSetDevice (st->device) != cudaSuccess)
    return -1;
  int4 *items = (int4 *) malloc ((n + 1) * sizeof (int4));
  int seam = -1;
  if (items && n > 0
      && cudaMemcpy (items, st->tb_items, n * sizeof (int4), cudaMemcpyDeviceToHost) == cudaSuccess)
    for (size_t i = 0; seam < 0 && i < n; i++)
      for (size_t j = 0; seam < 0 && j < n; j++)
        if (items[i].x == items[j].x && items[i].y == items[j].y && items[i].w == items[j].z)
          seam = items[i].w;
  free (items);
  return seam;
}

extern "C" void
rw_cuda_debug_launch (void *state, int *block_x, int *block_y, size_t *n_items)
{
  if (rw_cuda_is_fcc (state))
    {
      *block_x = *block_y = 0;
      *n_items = 0;
      return;
    }
  RwCudaState *st = (RwCudaState *) state;
  *block_x = st->bx;
  *block_y = st->by;
  *n_items = st->n_items;
}

