/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-cuda-variants.cu — the experimental variants of the production
 * kernel (docs/GPU.md has their table): 0–2 (one cell per thread), 3 and
 * 4 (wide), 6, 7 and 10 (air bits with prefetch or streaming hints), 8
 * (cp.async two steps ahead), 11 and 12 (bulk copies into a shared ring).
 * They stay built, tested cell by cell (test-cuda-strategies-agree) and
 * benchmarked; ROOMWAVE_CUDA_VARIANT picks one. The production variants
 * (5, 9, 13) are in rw-cuda-backend.cu, which asks this file for the
 * others through rw_cuda_variant_kernel ().
 */
#include "rw-cuda-march.cuh"

/* -------------------------------------------------------------- kernels */

/* Variants 0–2: one cell per thread. Bytes per inside cell and step, DRAM:
 *   fp32: read p 4 + read p_prev 4 + write p_next 4 + cell byte 1 = 13 B
 *         (the roofline counts the 12 B of the three words);
 *   fp16: 2 + 2 + 2 + 1 = 7 B;  fp64: 8 + 8 + 8 + 1 = 25 B.
 * The x/y neighbours are other threads' centres (L1/L2 hits); the z
 * neighbours are registers; per work item one extra p (the one below the
 * chunk), i.e. 1/chunk-length extra. LRS/Savioja boundary nodes also read
 * their six neighbours' cell bytes (cache hits).
 *
 * Variants (V), the same arithmetic; chosen by rw_cuda_variant ():
 *   0: the loads of the neighbours and of p_prev wait for the cell byte
 *      (outside cells inside a column's range cost 1 B), two memory
 *      round trips per z step;
 *   1: every load of a z step issued at once, only the store predicated:
 *      one round trip per step;
 *   2: as 1, unrolled by 2 so that two steps' loads are in flight. */
template <typename S, int BND, int V>
__global__ void __launch_bounds__ (512)
rw_kernel_production (const S *__restrict__ p, S *__restrict__ q,
                      const uint8_t *__restrict__ cell, const uint2 *__restrict__ zrange,
                      const int4 *__restrict__ items, int nx, int ny, size_t sz,
                      RwSlotTable slots, int step, int *__restrict__ bad,
                      const unsigned *__restrict__ air)
{
  typedef typename RwArith<S>::type A;
  (void) air;
  const int4 it = items[blockIdx.x];
  const int x = it.x + (int) threadIdx.x, y = it.y + (int) threadIdx.y;
  if (x >= nx || y >= ny)
    return;
  const size_t col = (size_t) x + (size_t) nx * (size_t) y;
  const uint2 zr = zrange[col];
  const int z0 = max (it.z, (int) zr.x), z1 = min (it.w, (int) zr.y);
  if (z0 >= z1)
    return;
  size_t i = col + sz * (size_t) z0;
  A below = rw_ldg (p, i - sz), centre = rw_ldg (p, i);
  bool bad_here = false;
#pragma unroll (V == 2 ? 2 : 1)
  for (int z = z0; z < z1; z++, i += sz)
    {
      const A above = rw_ldg (p, i + sz);
      const uint8_t c = __ldg (cell + i);
      if (V == 0)
        {
          if (RW_CELL_K (c) != 0)
            {
              const A xm = rw_ldg (p, i - 1), xp = rw_ldg (p, i + 1);
              const A ym = rw_ldg (p, i - nx), yp = rw_ldg (p, i + nx);
              const A next = rw_node_update<BND, A> (c, centre, xm, xp, ym, yp, below, above,
                                                     rw_ld (q, i), slots, cell, i, 1, nx, sz);
              bad_here |= !rw_stored_finite (next, q);
              rw_st (q, i, next);
            }
        }
      else
        {
          const A xm = rw_ldg (p, i - 1), xp = rw_ldg (p, i + 1);
          const A ym = rw_ldg (p, i - nx), yp = rw_ldg (p, i + nx);
          const A prev = rw_ld (q, i);
          if (RW_CELL_K (c) != 0)
            {
              const A next = rw_node_update<BND, A> (c, centre, xm, xp, ym, yp, below, above,
                                                     prev, slots, cell, i, 1, nx, sz);
              bad_here |= !rw_stored_finite (next, q);
              rw_st (q, i, next);
            }
        }
      below = centre;
      centre = above;
    }
  if (bad_here)
    atomicMin (bad, step);
}

/* Variants 3 and 4, "wide": each thread updates W consecutive cells of a
 * row (variant 3: W = 4 fp32, 8 fp16, 2 fp64, 16-byte vectors; variant 4:
 * W = 2 fp32, 4 fp16, 2 fp64, 8-byte vectors except fp64), so that the
 * loads of p, p_prev and the rows y ± 1 are vectors and a thread keeps W
 * times the bytes in flight with fewer instructions per cell: the plain
 * z-march is latency-bound on Hopper (one 4-byte load per stream per
 * thread in flight is not enough to cover HBM latency at 3 TB/s). The x
 * neighbours inside the vector are registers; the two at its ends are
 * scalar loads (L1 hits). Rows are padded to a pitch of 32 cells so that
 * every vector is aligned. Outside cells among the W are written back
 * unchanged (each cell belongs to exactly one thread, so this races with
 * nothing). Bytes per cell and step: as the production kernel. */
template <typename S, int BND, int V>
__global__ void __launch_bounds__ (512)
rw_kernel_wide (const S *__restrict__ p, S *__restrict__ q, const uint8_t *__restrict__ cell,
                const uint2 *__restrict__ zrange, const int4 *__restrict__ items, int nx, int ny,
                size_t sz, RwSlotTable slots, int step, int *__restrict__ bad,
                const unsigned *__restrict__ air)
{
  typedef typename RwArith<S>::type A;
  enum { W = rw_wide_w (V, sizeof (S)) };
  (void) air;
  const int4 it = items[blockIdx.x];
  const int x = it.x + (int) threadIdx.x * W, y = it.y + (int) threadIdx.y;
  if (x >= nx || y >= ny)
    return;
  /* zrange here holds one range per group of W columns (their union) */
  const uint2 zr = zrange[(size_t) (x / W) + (size_t) (nx / W) * (size_t) y];
  const int z0 = max (it.z, (int) zr.x), z1 = min (it.w, (int) zr.y);
  if (z0 >= z1)
    return;
  size_t i = (size_t) x + (size_t) nx * (size_t) y + sz * (size_t) z0;
  A below[W], centre[W], above[W], ym[W], yp[W], prev[W], next[W];
  rw_vld<true> (p, i - sz, below);
  rw_vld<true> (p, i, centre);
  bool bad_here = false;
#pragma unroll 1
  for (int z = z0; z < z1; z++, i += sz)
    {
      rw_vld<true> (p, i + sz, above);
      rw_vld<true> (p, i - nx, ym);
      rw_vld<true> (p, i + nx, yp);
      rw_vld<false> (q, i, prev);
      const A xm0 = rw_ldg (p, i - 1), xpw = rw_ldg (p, i + W);
      const unsigned long long cw = rw_cells<W> (cell, i);
      if (cw != 0)
        {
          rw_group_update<BND, W> (cw, centre, xm0, xpw, ym, yp, below, above, prev, slots, cell, i, nx, sz,
                                   q, next, bad_here);
          rw_vst (q, i, next);
        }
      rw_next_plane<W> (below, centre, above);
    }
  if (bad_here)
    atomicMin (bad, step);
}

/* Variants 11 and 12, "bulk": a block-wide shared-memory pipeline fed by
 * the copy engine. Variants 3–10 are latency-bound: every load a thread
 * keeps in flight costs registers, and registers cost occupancy (see
 * docs/GPU.md). Here one warp issues, per z plane, one bulk copy
 * (cp.async.bulk, sm_90) per tile row: the tile's TY + 2 rows of p with a
 * 16-byte halo on each side, and its TY rows of p_prev. The copies complete
 * on an mbarrier per ring slot and hold no registers while in flight, so a
 * block keeps NB − 2 planes of loads outstanding (NB: 4 in variant 11, 6
 * in 12) at any occupancy. Threads keep below/centre in registers as in
 * the other z-marches, read above, the y and x neighbours and p_prev from
 * shared memory, and store p_next straight to global memory (in place over
 * p_prev: each p_prev cell is read, one plane earlier, only by the block
 * that writes it). One __syncthreads per plane frees the slot just used.
 * The tile covers whole rows of the item's z range, so unlike variants
 * 3–10 it also loads the outside cells of columns whose own range is
 * shorter (under a raked floor); it computes only inside them.
 * Ring slot layout (elements of S): p rows (TY + 2) × (TX·W + 2W), then
 * p_prev rows TY × TX·W; slots start 128-byte aligned, after 128 bytes of
 * mbarriers. Rows outside [0, ny) are not copied (only outside cells read
 * them). The field arrays carry RW_FIELD_GUARD elements of guard before
 * and after, so a halo or a tile overhanging the last row stays inside the
 * allocation (RW_FIELD_GUARD, rw-cuda-state.cuh). */

__device__ __forceinline__ unsigned
rw_smem (const void *a)
{
  return (unsigned) __cvta_generic_to_shared (a);
}

__device__ __forceinline__ void
rw_mbar_init (uint64_t *bar)
{
  asm volatile ("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(rw_smem (bar)) : "memory");
}

__device__ __forceinline__ void
rw_mbar_expect (uint64_t *bar, unsigned bytes)
{
  asm volatile ("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(rw_smem (bar)),
                "r"(bytes) : "memory");
}

__device__ __forceinline__ void
rw_mbar_wait (uint64_t *bar, unsigned parity)
{
  asm volatile ("{\n"
                ".reg .pred P1;\n"
                "LAB_WAIT:\n"
                "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
                "@P1 bra DONE;\n"
                "bra LAB_WAIT;\n"
                "DONE:\n"
                "}\n" ::"r"(rw_smem (bar)), "r"(parity) : "memory");
}

__device__ __forceinline__ void
rw_bulk_copy (void *dst, const void *src, unsigned bytes, uint64_t *bar)
{
  asm volatile ("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n"
                ::"r"(rw_smem (dst)), "l"(src), "r"(bytes), "r"(rw_smem (bar)) : "memory");
}

__device__ __forceinline__ float rw_sld (const float *a, int i) { return a[i]; }
__device__ __forceinline__ double rw_sld (const double *a, int i) { return a[i]; }
__device__ __forceinline__ float rw_sld (const __half *a, int i) { return __half2float (a[i]); }

/* The copies of plane j into its slot, issued by warp 0 (all 32 lanes). */
template <typename S>
__device__ __forceinline__ void
rw_bulk_issue (const S *__restrict__ p, const S *q, unsigned char *ring, uint64_t *bar,
               int4 it, int j, int zb, int nb, int tx, int ty, int nx, int ny, size_t sz,
               size_t stage, int lane)
{
  enum { W = 16 / (int) sizeof (S) };
  const int txc = tx * W, l = txc + 2 * W;
  const int s = (j - zb) % nb;
  S *sp = (S *) (ring + (size_t) s * stage);
  S *sq = sp + (ty + 2) * l;
  const bool want_q = j >= it.z && j < it.w;
  /* rows of p: y0 − 1 … y0 + ty; of p_prev: y0 … y0 + ty − 1 */
  const int p_rows = min (it.y + ty + 1, ny) - max (it.y - 1, 0);
  const int q_rows = want_q ? min (it.y + ty, ny) - it.y : 0;
  if (lane == 0)
    rw_mbar_expect (bar + s, (unsigned) ((p_rows * l + q_rows * txc) * (int) sizeof (S)));
  __syncwarp ();
  for (int c = lane; c < 2 * ty + 2; c += 32)
    {
      if (c < ty + 2)
        {
          const int gy = it.y - 1 + c;
          if (gy >= 0 && gy < ny)
            rw_bulk_copy (sp + c * l,
                          p + ((ptrdiff_t) it.x - W + (ptrdiff_t) nx * gy + (ptrdiff_t) (sz * j)),
                          (unsigned) (l * sizeof (S)), bar + s);
        }
      else if (want_q)
        {
          const int r = c - (ty + 2), gy = it.y + r;
          if (gy < ny)
            rw_bulk_copy (sq + r * txc, q + ((size_t) it.x + (size_t) nx * gy + sz * j),
                          (unsigned) (txc * sizeof (S)), bar + s);
        }
    }
}

template <typename S, int BND, int NB>
__global__ void __launch_bounds__ (512)
rw_kernel_bulk (const S *__restrict__ p, S *__restrict__ q, const uint8_t *__restrict__ cell,
                const uint2 *__restrict__ zrange, const int4 *__restrict__ items, int nx, int ny,
                size_t sz, RwSlotTable slots, int step, int *__restrict__ bad,
                const unsigned *__restrict__ air)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
  __trap ();    /* bulk copies and mbarrier transactions need sm_90 */
#else
  typedef typename RwArith<S>::type A;
  enum { W = 16 / (int) sizeof (S) };
  extern __shared__ __align__ (128) unsigned char rw_bulk_smem[];
  uint64_t *bar = (uint64_t *) rw_bulk_smem;
  unsigned char *ring = rw_bulk_smem + 128;
  const int TX = blockDim.x, TY = blockDim.y, txc = TX * W, l = txc + 2 * W;
  const size_t stage = rw_bulk_stage_bytes (TX, TY, (int) sizeof (S));
  const int tid = threadIdx.x + TX * threadIdx.y, lane = tid & 31;
  const bool producer = tid < 32;
  const int4 it = items[blockIdx.x];
  const int x = it.x + (int) threadIdx.x * W, y = it.y + (int) threadIdx.y;
  const int zb = it.z - 1, ze = it.w;          /* p planes zb … ze */
  if (tid == 0)
    {
      for (int b = 0; b < NB; b++)
        rw_mbar_init (bar + b);
      asm volatile ("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    }
  __syncthreads ();
  if (producer)
    for (int j = zb; j < zb + NB && j <= ze; j++)
      rw_bulk_issue (p, q, ring, bar, it, j, zb, NB, TX, TY, nx, ny, sz, stage, lane);

  /* this thread's group of W columns, clipped to its own z range */
  int cz0 = 0, cz1 = 0;
  if (x < nx && y < ny)
    {
      const uint2 zr = zrange[(size_t) (x / W) + (size_t) (nx / W) * (size_t) y];
      cz0 = max (it.z, (int) zr.x), cz1 = min (it.w, (int) zr.y);
    }
  const int own = (threadIdx.y + 1) * l + W + (int) threadIdx.x * W;  /* centre row, own cells */
  A below[W], centre[W], above[W], ym[W], yp[W], prev[W], next[W];
  rw_mbar_wait (bar, 0);
  rw_unpack (*(const uint4 *) ((const S *) ring + own), below);
  rw_mbar_wait (bar + 1 % NB, 0);
  rw_unpack (*(const uint4 *) ((const S *) (ring + (1 % NB) * stage) + own), centre);
  __syncthreads ();
  if (producer && zb + NB <= ze)
    rw_bulk_issue (p, q, ring, bar, it, zb + NB, zb, NB, TX, TY, nx, ny, sz, stage, lane);

  RwStored<S> stored;
#pragma unroll 1
  for (int z = it.z; z < it.w; z++)
    {
      const int sc = (z - zb) % NB, sa = (z + 1 - zb) % NB;
      rw_mbar_wait (bar + sa, ((z + 1 - zb) / NB) & 1);
      const S *cp = (const S *) (ring + (size_t) sc * stage);
      const S *ap = (const S *) (ring + (size_t) sa * stage);
      if (z >= cz0 && z < cz1)
        {
          rw_unpack (*(const uint4 *) (ap + own), above);
          rw_unpack (*(const uint4 *) (cp + own - l), ym);
          rw_unpack (*(const uint4 *) (cp + own + l), yp);
          rw_unpack (*(const uint4 *) (cp + (TY + 2) * l + (int) threadIdx.y * txc
                                       + (int) threadIdx.x * W), prev);
          const A xm0 = rw_sld (cp, own - 1), xpw = rw_sld (cp, own + W);
          const size_t i = (size_t) x + (size_t) nx * (size_t) y + sz * (size_t) z;
          const size_t grp = i / W;
          const bool all_air = (__ldg (air + (grp >> 5)) >> (grp & 31)) & 1u;
          rw_group_update_store<BND, W> (all_air, centre, xm0, xpw, ym, yp, below, above, prev,
                                         slots, cell, i, nx, sz, q, next, stored);
          rw_next_plane<W> (below, centre, above);
        }
      else
        {
          /* not this thread's range: still carry the planes, for a range
           * that starts higher up */
#pragma unroll
          for (int k = 0; k < W; k++)
            below[k] = centre[k];
          rw_unpack (*(const uint4 *) (ap + own), centre);
        }
      __syncthreads ();
      if (producer && z + NB <= ze)
        rw_bulk_issue (p, q, ring, bar, it, z + NB, zb, NB, TX, TY, nx, ny, sz, stage, lane);
    }
  if (stored.bad ())
    atomicMin (bad, step);
#endif
}


/* The kernel of an experimental variant (NULL for the production ones:
 * rw-cuda-backend.cu owns them). */
const void *
rw_cuda_variant_kernel (RwPrecision prec, RwBoundary bnd, int variant)
{
#define RW_K(S, B, V) ((const void *) rw_kernel_production<S, B, V>)
#define RW_KV(V) RW_KERNEL_TABLE (RW_K, V)
#define RW_KW(S, B, V) ((const void *) rw_kernel_wide<S, B, V>)
#define RW_KWV(V) RW_KERNEL_TABLE (RW_KW, V)
#define RW_KA(S, B, V) ((const void *) rw_kernel_air<S, B, V>)
#define RW_KAV(V) RW_KERNEL_TABLE (RW_KA, V)
#define RW_KB(S, B, V) ((const void *) rw_kernel_bulk<S, B, rw_bulk_nb (V)>)
#define RW_KBV(V) RW_KERNEL_TABLE (RW_KB, V)
#define RW_KC(S, B, D) ((const void *) rw_kernel_async<S, B, D>)
#define RW_KCV(D) RW_KERNEL_TABLE (RW_KC, D)
#define RW_KNONE { { NULL, NULL, NULL }, { NULL, NULL, NULL }, { NULL, NULL, NULL } }
  static const void *const table[RW_N_VARIANTS][3][3] = {
    RW_KV (0), RW_KV (1), RW_KV (2), RW_KWV (3), RW_KWV (4),
    RW_KNONE,   /* 5: production */
    RW_KAV (6), RW_KAV (7), RW_KCV (2),
    RW_KNONE,   /* 9: production */
    RW_KAV (10), RW_KBV (11), RW_KBV (12),
    RW_KNONE,   /* 13: production */
  };
#undef RW_KNONE
#undef RW_KCV
#undef RW_KC
#undef RW_KBV
#undef RW_KB
#undef RW_KAV
#undef RW_KA
#undef RW_KWV
#undef RW_KW
#undef RW_KV
#undef RW_K
  return table[variant][prec][bnd];
}
