/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-cuda-march.cuh — the z-march kernel templates shared by production
 * and experimental variants: rw_kernel_air (variant 5 in production, 6, 7
 * and 10 experimental) and rw_kernel_async (variant 9 in production, 8
 * experimental), with their group updates. Each .cu instantiates only the
 * variants it owns (rw-cuda-backend.cu, rw-cuda-variants.cu).
 */
#pragma once

#include "rw-cuda-vec.cuh"

/* A [precision][boundary] table of the kernels K (S, B, V) of variant V:
 * how rw_production_kernel and rw_cuda_variant_kernel list them. */
#define RW_KERNEL_TABLE(K, V) { { K (float, 0, V), K (float, 1, V), K (float, 2, V) },       \
                                { K (double, 0, V), K (double, 1, V), K (double, 2, V) },    \
                                { K (__half, 0, V), K (__half, 1, V), K (__half, 2, V) } }

/* The W cells of one group in one z step: inside cells by the scheme
 * (rw_node_update), outside ones keep their value; a non-finite stored
 * value sets `bad`. Shared by the wide z-march variants. */
template <int BND, int W, typename A, typename S>
__device__ __forceinline__ void
rw_group_update (unsigned long long cw, const A (&centre)[W], A xm0, A xpw, const A (&ym)[W],
                 const A (&yp)[W], const A (&below)[W], const A (&above)[W], const A (&prev)[W],
                 const RwSlotTable &slots, const uint8_t *__restrict__ cell, size_t i, int nx,
                 size_t sz, const S *q, A (&next)[W], bool &bad)
{
#pragma unroll
  for (int k = 0; k < W; k++)
    {
      const uint8_t c = (uint8_t) (cw >> (8 * k));
      const A xm = k == 0 ? xm0 : centre[k > 0 ? k - 1 : 0];
      const A xp = k == W - 1 ? xpw : centre[k < W - 1 ? k + 1 : 0];
      if (RW_CELL_K (c) != 0)
        {
          next[k] = rw_node_update<BND, A> (c, centre[k], xm, xp, ym[k], yp[k], below[k], above[k],
                                            prev[k], slots, cell, i + k, 1, nx, sz);
          bad |= !rw_stored_finite (next[k], q);
        }
      else
        next[k] = prev[k];
    }
}

/* One step up the z-march: the centre plane becomes the one below, the
 * plane above the centre. */
template <int W, typename A>
__device__ __forceinline__ void
rw_next_plane (A (&below)[W], A (&centre)[W], const A (&above)[W])
{
#pragma unroll
  for (int k = 0; k < W; k++)
    {
      below[k] = centre[k];
      centre[k] = above[k];
    }
}

/* Variants 5, 6 and 7: the wide kernel without the cell byte of air cells.
 * A bit per group of W cells says "all W are air (K = 6)"; a warp reads
 * one or two 32-bit words of bits per row (1/W bit per cell), and the cell
 * bytes only where a group holds a boundary or outside cell, so the cell
 * data costs ~0.03 B per cell instead of 1 B: 12 B per cell and step in
 * fp32 (6 B fp16, 24 B fp64), exactly what the roofline counts, plus the
 * boundary cells' bytes.
 * 6 and 7 also prefetch: the next z step's p above and p_prev are loaded
 * before the current step is computed, so that two steps' DRAM loads are
 * in flight per thread (the kernel is latency-bound: 83 % of the stalls of
 * variant 3 wait on L1TEX). 5 and 6 use 16-byte vectors, 7 8-byte ones.
 * 10 is 5 with p_prev read and written with evict-first (streaming) cache
 * hints. */
template <typename S, int BND, int V>
__global__ void __launch_bounds__ (512)
rw_kernel_air (const S *__restrict__ p, S *__restrict__ q, const uint8_t *__restrict__ cell,
               const uint2 *__restrict__ zrange, const int4 *__restrict__ items, int nx, int ny,
               size_t sz, RwSlotTable slots, int step, int *__restrict__ bad,
               const unsigned *__restrict__ air)
{
  typedef typename RwArith<S>::type A;
  enum { W = rw_wide_w (V, sizeof (S)) };
  const bool prefetch = V == 6 || V == 7;
  const int4 it = items[blockIdx.x];
  const int x = it.x + (int) threadIdx.x * W, y = it.y + (int) threadIdx.y;
  if (x >= nx || y >= ny)
    return;
  const uint2 zr = zrange[(size_t) (x / W) + (size_t) (nx / W) * (size_t) y];
  const int z0 = max (it.z, (int) zr.x), z1 = min (it.w, (int) zr.y);
  if (z0 >= z1)
    return;
  size_t i = (size_t) x + (size_t) nx * (size_t) y + sz * (size_t) z0;
  A below[W], centre[W], above[W], ym[W], yp[W], prev[W], next[W], above_n[W], prev_n[W];
  rw_vld<true> (p, i - sz, below);
  rw_vld<true> (p, i, centre);
  if (prefetch)
    {
      rw_vld<true> (p, i + sz, above_n);
      rw_vld<false> (q, i, prev_n);
    }
  bool bad_here = false;
#pragma unroll 1
  for (int z = z0; z < z1; z++, i += sz)
    {
      if (prefetch)
        {
#pragma unroll
          for (int k = 0; k < W; k++)
            above[k] = above_n[k], prev[k] = prev_n[k];
          if (z + 1 < z1)
            {
              rw_vld<true> (p, i + 2 * sz, above_n);
              rw_vld<false> (q, i + sz, prev_n);
            }
        }
      else
        {
          rw_vld<true> (p, i + sz, above);
          if constexpr (V == 10)
            rw_vld_cs (q, i, prev);
          else
            rw_vld<false> (q, i, prev);
        }
      rw_vld<true> (p, i - nx, ym);
      rw_vld<true> (p, i + nx, yp);
      const A xm0 = rw_ldg (p, i - 1), xpw = rw_ldg (p, i + W);
      const size_t grp = i / W;
      const bool all_air = (__ldg (air + (grp >> 5)) >> (grp & 31)) & 1u;
      const unsigned long long cw = all_air ? 0x0606060606060606ULL : rw_cells<W> (cell, i);
      if (cw != 0)
        {
          rw_group_update<BND, W> (cw, centre, xm0, xpw, ym, yp, below, above, prev, slots, cell, i, nx, sz,
                                   q, next, bad_here);
          if constexpr (V == 10)
            rw_vst_cs (q, i, next);
          else
            rw_vst (q, i, next);
        }
      rw_next_plane<W> (below, centre, above);
    }
  if (bad_here)
    atomicMin (bad, step);
}

/* Variants 8 and 9, "async": variant 5 (16-byte vectors, air bits) with
 * the two DRAM streams of each z step — p above and p_prev — fetched D = 2
 * (variant 8) or 3 (variant 9) steps ahead by cp.async into a per-thread
 * ring in shared memory. The copies hold no registers while in flight, so
 * that D steps of loads are outstanding per thread without the register
 * cost that sank variant 6's prefetch (occupancy) — variants 3–7 are
 * latency-bound: 83 % of their stalls wait on L1TEX. Each thread reads only
 * its own slots: no barrier. Air groups take a path without per-cell K
 * tests, and the non-finite check is one test at the end of what the
 * thread stored (RwStored). Offsets are 32-bit (one multiply-add an
 * address instead of a 64-bit pair: 71 → 64 registers in fp16, 4 blocks of
 * 256 threads a SM instead of 3; the hall, fp16: 368.3 → 379.3 Gvox/s);
 * grids of 2³² cells or more run variant 5. */
/* CG: cached in the L2 only (.cg; tests/gpu/copy-ceiling's march), not
 * also in the L1 (.ca, the variants'). */
template <bool CG = false>
__device__ __forceinline__ void
rw_cp_async16 (void *smem, const void *gmem)
{
  const unsigned s = (unsigned) __cvta_generic_to_shared (smem);
  if (CG)
    asm volatile ("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem) : "memory");
  else
    asm volatile ("cp.async.ca.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem) : "memory");
}

__device__ __forceinline__ void
rw_cp_commit (void)
{
  asm volatile ("cp.async.commit_group;\n" ::: "memory");
}

template <int N>
__device__ __forceinline__ void
rw_cp_wait (void)
{
  asm volatile ("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

/* One group of W cells in the async and bulk z-marches, stored at i: air
 * groups without per-cell K tests, mixed groups through rw_node_update (an
 * outside cell keeps its own value), all-outside groups not at all (their
 * cell bytes are read only when the group is not all air). What is stored
 * goes into `stored`, for the one non-finite test at the end. */
template <int BND, int W, typename S, typename A>
__device__ __forceinline__ void
rw_group_update_store (bool all_air, const A (&centre)[W], A xm0, A xpw, const A (&ym)[W],
                       const A (&yp)[W], const A (&below)[W], const A (&above)[W],
                       const A (&prev)[W], const RwSlotTable &slots,
                       const uint8_t *__restrict__ cell, size_t i, int nx, size_t sz, S *q,
                       A (&next)[W], RwStored<S> &stored)
{
  if (all_air)
    {
#pragma unroll
      for (int k = 0; k < W; k++)
        {
          const A xm = k == 0 ? xm0 : centre[k > 0 ? k - 1 : 0];
          const A xp = k == W - 1 ? xpw : centre[k < W - 1 ? k + 1 : 0];
          next[k] = rw_air (((((xm + xp) + ym[k]) + yp[k]) + below[k]) + above[k], prev[k]);
          stored.add (next[k]);
        }
      stored.store (q, i, next);
    }
  else
    {
      const unsigned long long cw = rw_cells<W> (cell, i);
      if (cw != 0)
        {
#pragma unroll
          for (int k = 0; k < W; k++)
            {
              const uint8_t c = (uint8_t) (cw >> (8 * k));
              const A xm = k == 0 ? xm0 : centre[k > 0 ? k - 1 : 0];
              const A xp = k == W - 1 ? xpw : centre[k < W - 1 ? k + 1 : 0];
              /* an outside cell keeps its own value */
              next[k] = prev[k];
              if (RW_CELL_K (c) != 0)
                {
                  next[k] = rw_node_update<BND, A> (c, centre[k], xm, xp, ym[k], yp[k], below[k],
                                                    above[k], prev[k], slots, cell, i + k, 1, nx,
                                                    sz);
                  stored.add (next[k]);
                }
            }
          stored.store (q, i, next);
        }
    }
}

template <typename S, int BND, int D>
__global__ void __launch_bounds__ (512)
rw_kernel_async (const S *__restrict__ p, S *__restrict__ q, const uint8_t *__restrict__ cell,
                 const uint2 *__restrict__ zrange, const int4 *__restrict__ items, int nx,
                 int ny, size_t sz, RwSlotTable slots, int step, int *__restrict__ bad,
                 const unsigned *__restrict__ air)
{
  typedef typename RwArith<S>::type A;
  enum { W = 16 / (int) sizeof (S) };
  extern __shared__ uint4 rw_ring[];
  const int tid = threadIdx.x + blockDim.x * threadIdx.y, nthr = blockDim.x * blockDim.y;
  const int4 it = items[blockIdx.x];
  const int x = it.x + (int) threadIdx.x * W, y = it.y + (int) threadIdx.y;
  if (x >= nx || y >= ny)
    return;
  const uint2 zr = zrange[(size_t) (x / W) + (size_t) (nx / W) * (size_t) y];
  const int z0 = max (it.z, (int) zr.x), z1 = min (it.w, (int) zr.y);
  if (z0 >= z1)
    return;
  /* offsets in 32 bits, one multiply-add an address (the host runs
   * variant 5 instead on grids of 2³² cells or more) */
  const unsigned szu = (unsigned) sz;
  const unsigned i0 = (unsigned) x + (unsigned) nx * (unsigned) y + szu * (unsigned) z0;
  /* slot s: rw_ring[(2 s) nthr + tid] = p above, [(2 s + 1) nthr + tid] = p_prev */
#pragma unroll
  for (int d = 0; d < D; d++)
    {
      if (z0 + d < z1)
        {
          const unsigned j = i0 + (unsigned) d * szu;
          rw_cp_async16 (&rw_ring[(2 * d) * nthr + tid], p + (j + szu));
          rw_cp_async16 (&rw_ring[(2 * d + 1) * nthr + tid], q + j);
        }
      rw_cp_commit ();
    }
  A below[W], centre[W], above[W], ym[W], yp[W], prev[W], next[W];
  rw_vld<true> (p, i0 - szu, below);
  rw_vld<true> (p, i0, centre);
  RwStored<S> stored;
  unsigned i = i0;
  int slot = 0;
#pragma unroll 1
  for (int z = z0; z < z1; z++, i += szu)
    {
      int ahead = slot + D;
      ahead -= ahead > D ? D + 1 : 0;
      if (z + D < z1)
        {
          rw_cp_async16 (&rw_ring[(2 * ahead) * nthr + tid], p + (i + (unsigned) (D + 1) * szu));
          rw_cp_async16 (&rw_ring[(2 * ahead + 1) * nthr + tid], q + (i + (unsigned) D * szu));
        }
      rw_cp_commit ();
      rw_vld<true> (p, i - (unsigned) nx, ym);
      rw_vld<true> (p, i + (unsigned) nx, yp);
      const A xm0 = rw_ldg (p, i - 1u), xpw = rw_ldg (p, i + (unsigned) W);
      const unsigned grp = i / W;
      const bool all_air = (__ldg (air + (grp >> 5)) >> (grp & 31)) & 1u;
      rw_cp_wait<D> ();
      rw_unpack (rw_ring[(2 * slot) * nthr + tid], above);
      rw_unpack (rw_ring[(2 * slot + 1) * nthr + tid], prev);
      rw_group_update_store<BND, W> (all_air, centre, xm0, xpw, ym, yp, below, above, prev, slots,
                                     cell, i, nx, sz, q, next, stored);
      rw_next_plane<W> (below, centre, above);
      slot = slot == D ? 0 : slot + 1;
    }
  rw_cp_wait<0> ();
  if (stored.bad ())
    atomicMin (bad, step);
}

