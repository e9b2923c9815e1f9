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
 * The kernel variants below (0–13) are all kept, tested cell by cell and
 * benchmarked (docs/GPU.md has their table); rw_cuda_variant () picks the
 * production one per precision. Device rows are padded to a pitch of 32
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
#include <vector>

#include "rw-cuda-state.cuh"

const int rw_cuda_tune_shapes[RW_CUDA_N_TUNE_SHAPES][2] = {
  { 32, 4 }, { 32, 8 }, { 64, 4 }, { 64, 2 }, { 128, 2 }, { 16, 16 }, { 32, 16 },
  { 128, 1 }, { 256, 1 }, { 256, 2 },
};

#define RW_RCV_CHUNK 8192      /* receiver samples buffered on the device per copy */


/* ---------------------------------------------------------------- cells */

bool
rw_cuda_pack_cells (const RwGrid *g, const double *surface_R, size_t pitch, uint8_t *cells,
                    double *slot_R, double *slot_beta, int *n_slots, RwError *err)
{
  /* surface → slot, over the surfaces that boundary cells actually touch */
  std::vector<int> slot_of (g->n_surfaces, -1);
  int ns = 0;
  const size_t n = g->nx * g->ny * g->nz;
  for (size_t i = 0; i < n; i++)
    {
      const int K = g->K[i];
      if (K > 6)
        return rw_fail (err, RW_ERROR_INTERNAL, _("grid cell %zu has K = %d"), i, K);
      uint8_t slot = 0;
      if (K > 0 && K < 6)
        {
          const unsigned s = g->surface[i];
          if (s >= g->n_surfaces)
            return rw_fail (err, RW_ERROR_INTERNAL,
                            _("boundary cell %zu has no surface (id %u of %zu)"),
                            i, s, g->n_surfaces);
          if (slot_of[s] < 0)
            {
              const double R = surface_R[s];
              for (int k = 0; k < ns; k++)
                if (slot_R[k] == R)
                  slot_of[s] = k;
              if (slot_of[s] < 0)
                {
                  if (ns == RW_CUDA_MAX_SLOTS)
                    return rw_fail (err, RW_ERROR_UNSUPPORTED,
                                    _("the room's surfaces use more than %d distinct reflection "
                                      "factors, the most the CUDA backend holds: give surfaces "
                                      "with similar absorption the same material, or use the "
                                      "CPU backend"), RW_CUDA_MAX_SLOTS);
                  slot_R[ns] = R;
                  slot_beta[ns] = (1.0 - R) / (1.0 + R);
                  slot_of[s] = ns++;
                }
            }
          slot = (uint8_t) slot_of[s];
        }
      const size_t x = i % g->nx, yz = i / g->nx;
      cells[x + pitch * yz] = (uint8_t) (K | (slot << 3));
    }
  for (int k = ns; k < RW_CUDA_MAX_SLOTS; k++)
    slot_R[k] = 1.0, slot_beta[k] = 0.0;
  *n_slots = ns;
  return true;
}

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
/* Cells per thread: variant 3 loads 16-byte vectors, variant 4 8-byte
 * ones (fp64: 16 in both). */
__host__ __device__ constexpr int
rw_wide_w (int variant, int elem_bytes)
{
  return elem_bytes == 8 ? 2 : (variant == 4 || variant == 7 ? 8 : 16) / elem_bytes;   /* 3, 5, 6, 8, 9, 10: 16 */
}


template <bool NC>
__device__ __forceinline__ void
rw_vld (const float *a, size_t i, float (&v)[4])
{
  const float4 f = NC ? __ldg ((const float4 *) (a + i)) : *(const float4 *) (a + i);
  v[0] = f.x, v[1] = f.y, v[2] = f.z, v[3] = f.w;
}

template <bool NC>
__device__ __forceinline__ void
rw_vld (const float *a, size_t i, float (&v)[2])
{
  const float2 f = NC ? __ldg ((const float2 *) (a + i)) : *(const float2 *) (a + i);
  v[0] = f.x, v[1] = f.y;
}

template <bool NC>
__device__ __forceinline__ void
rw_vld (const double *a, size_t i, double (&v)[2])
{
  const double2 d = NC ? __ldg ((const double2 *) (a + i)) : *(const double2 *) (a + i);
  v[0] = d.x, v[1] = d.y;
}

__device__ __forceinline__ float2
rw_h2_to_f2 (unsigned w)
{
  /* each half straight from the register, one conversion each: built from
   * w & 0xffff and w >> 16 instead, ptxas re-packed every word with a
   * shift and a byte permute first (32 of the ~250 instructions of
   * variant 9's fp16 z step; the hall, fp16: 358.4 → 365.2 Gvox/s) */
  float lo, hi;
  asm ("{.reg .f16 l, h;\n\t"
       "mov.b32 {l, h}, %2;\n\t"
       "cvt.f32.f16 %0, l;\n\t"
       "cvt.f32.f16 %1, h;}" : "=f"(lo), "=f"(hi) : "r"(w));
  return make_float2 (lo, hi);
}

__device__ __forceinline__ unsigned
rw_f2_to_h2 (float a, float b)
{
  const __half2_raw r = (__half2_raw) __floats2half2_rn (a, b);
  return (unsigned) r.x | ((unsigned) r.y << 16);
}

/* W floats → the W halves that store them, packed in 32-bit words */
__device__ __forceinline__ unsigned
rw_pack (const float (&v)[2])
{
  return rw_f2_to_h2 (v[0], v[1]);
}

__device__ __forceinline__ uint2
rw_pack (const float (&v)[4])
{
  return make_uint2 (rw_f2_to_h2 (v[0], v[1]), rw_f2_to_h2 (v[2], v[3]));
}

__device__ __forceinline__ uint4
rw_pack (const float (&v)[8])
{
  return make_uint4 (rw_f2_to_h2 (v[0], v[1]), rw_f2_to_h2 (v[2], v[3]),
                     rw_f2_to_h2 (v[4], v[5]), rw_f2_to_h2 (v[6], v[7]));
}

/* 16 bytes → W values of the arithmetic type (the ring slots, shared
 * memory, and the fp16 loads below). */
__device__ __forceinline__ void
rw_unpack (uint4 u, float (&v)[4])
{
  v[0] = __uint_as_float (u.x), v[1] = __uint_as_float (u.y);
  v[2] = __uint_as_float (u.z), v[3] = __uint_as_float (u.w);
}

__device__ __forceinline__ void
rw_unpack (uint4 u, double (&v)[2])
{
  v[0] = __hiloint2double ((int) u.y, (int) u.x);
  v[1] = __hiloint2double ((int) u.w, (int) u.z);
}

__device__ __forceinline__ void
rw_unpack (uint4 u, float (&v)[8])
{
  const unsigned w[4] = { u.x, u.y, u.z, u.w };
#pragma unroll
  for (int k = 0; k < 4; k++)
    {
      const float2 f = rw_h2_to_f2 (w[k]);
      v[2 * k] = f.x, v[2 * k + 1] = f.y;
    }
}

template <bool NC>
__device__ __forceinline__ void
rw_vld (const __half *a, size_t i, float (&v)[4])
{
  const uint2 u = NC ? __ldg ((const uint2 *) (a + i)) : *(const uint2 *) (a + i);
  const float2 lo = rw_h2_to_f2 (u.x), hi = rw_h2_to_f2 (u.y);
  v[0] = lo.x, v[1] = lo.y, v[2] = hi.x, v[3] = hi.y;
}

template <bool NC>
__device__ __forceinline__ void
rw_vld (const __half *a, size_t i, float (&v)[2])
{
  const float2 f = rw_h2_to_f2 (NC ? __ldg ((const unsigned *) (a + i)) : *(const unsigned *) (a + i));
  v[0] = f.x, v[1] = f.y;
}

template <bool NC>
__device__ __forceinline__ void
rw_vld (const __half *a, size_t i, float (&v)[8])
{
  rw_unpack (NC ? __ldg ((const uint4 *) (a + i)) : *(const uint4 *) (a + i), v);
}

__device__ __forceinline__ void
rw_vst (float *a, size_t i, const float (&v)[2])
{
  *(float2 *) (a + i) = make_float2 (v[0], v[1]);
}

__device__ __forceinline__ void
rw_vst (__half *a, size_t i, const float (&v)[8])
{
  *(uint4 *) (a + i) = rw_pack (v);
}

__device__ __forceinline__ void
rw_vst (float *a, size_t i, const float (&v)[4])
{
  *(float4 *) (a + i) = make_float4 (v[0], v[1], v[2], v[3]);
}

__device__ __forceinline__ void
rw_vst (double *a, size_t i, const double (&v)[2])
{
  *(double2 *) (a + i) = make_double2 (v[0], v[1]);
}

__device__ __forceinline__ void
rw_vst (__half *a, size_t i, const float (&v)[2])
{
  *(unsigned *) (a + i) = rw_pack (v);
}

__device__ __forceinline__ void
rw_vst (__half *a, size_t i, const float (&v)[4])
{
  *(uint2 *) (a + i) = rw_pack (v);
}

/* Streaming (evict-first) access to p_prev, which a step reads once and
 * writes once: it should not push p, whose rows are re-read as neighbours,
 * out of L2. */
__device__ __forceinline__ void
rw_vld_cs (const float *a, size_t i, float (&v)[4])
{
  const float4 f = __ldcs ((const float4 *) (a + i));
  v[0] = f.x, v[1] = f.y, v[2] = f.z, v[3] = f.w;
}

__device__ __forceinline__ void
rw_vld_cs (const double *a, size_t i, double (&v)[2])
{
  const double2 d = __ldcs ((const double2 *) (a + i));
  v[0] = d.x, v[1] = d.y;
}

__device__ __forceinline__ void
rw_vld_cs (const __half *a, size_t i, float (&v)[8])
{
  rw_unpack (__ldcs ((const uint4 *) (a + i)), v);
}

__device__ __forceinline__ void
rw_vst_cs (float *a, size_t i, const float (&v)[4])
{
  __stcs ((float4 *) (a + i), make_float4 (v[0], v[1], v[2], v[3]));
}

__device__ __forceinline__ void
rw_vst_cs (double *a, size_t i, const double (&v)[2])
{
  __stcs ((double2 *) (a + i), make_double2 (v[0], v[1]));
}

__device__ __forceinline__ void
rw_vst_cs (__half *a, size_t i, const float (&v)[8])
{
  __stcs ((uint4 *) (a + i), rw_pack (v));
}

template <int W>
__device__ __forceinline__ unsigned long long
rw_cells (const uint8_t *__restrict__ c, size_t i)
{
  return W == 8 ? __ldg ((const unsigned long long *) (c + i))
         : W == 4 ? (unsigned long long) __ldg ((const unsigned *) (c + i))
         : (unsigned long long) __ldg ((const unsigned short *) (c + i));
}

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
__device__ __forceinline__ void
rw_cp_async16 (void *smem, const void *gmem)
{
  const unsigned s = (unsigned) __cvta_generic_to_shared (smem);
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

/* What a thread of the async, bulk and two-step z-marches stored, for the
 * one non-finite test at its end. fp32 and fp64 sum the values (a NaN or an
 * infinity survives any sum). fp16 keeps, per half of a word, the largest
 * magnitude of the stored halves as bits: 0x7c00 and above are infinity
 * and NaN (a value over 65504 overflows to infinity when it is stored),
 * two instructions a stored word instead of an add and a max a value. */
template <typename S> struct RwStored
{
  typedef typename RwArith<S>::type A;
  A sum = 0;
  __device__ __forceinline__ void add (A v) { sum += v; }
  template <int W>
  __device__ __forceinline__ void store (S *q, size_t i, const A (&v)[W]) { rw_vst (q, i, v); }
  __device__ __forceinline__ bool bad () const { return !isfinite (sum); }
};

template <> struct RwStored<__half>
{
  unsigned mag = 0;
  __device__ __forceinline__ void add (float) {}
  template <int W>
  __device__ __forceinline__ void store (__half *q, size_t i, const float (&v)[W])
  {
    auto u = rw_pack (v);
    *(decltype (u) *) (q + i) = u;
    keep (u);
  }
  __device__ __forceinline__ void keep (unsigned w) { mag = __vmaxu2 (mag, w & 0x7fff7fffu); }
  __device__ __forceinline__ void keep (uint2 w) { keep (w.x), keep (w.y); }
  __device__ __forceinline__ void keep (uint4 w) { keep (w.x), keep (w.y), keep (w.z), keep (w.w); }
  __device__ __forceinline__ bool bad () const { return __vcmpgeu2 (mag, 0x7c007c00u) != 0; }
};

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
 * allocation. */
#define RW_FIELD_GUARD 4608

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

__device__ __forceinline__ float rw_stored (float v, const float *) { return v; }
__device__ __forceinline__ double rw_stored (double v, const double *) { return v; }
__device__ __forceinline__ float rw_stored (float v, const __half *) { return __half2float (__float2half_rn (v)); }

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
              int nz, size_t sz, RwSlotTable slots, int step, long long src, int hard, double s1,
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
  /* the plane at which this thread's vector holds the source, and where */
  int src_z = -1, src_k = 0;
  if (src >= 0 && ring && col_ok && (long long) ((size_t) src % sz) - (long long) col >= 0
      && (long long) ((size_t) src % sz) - (long long) col < 2)
    src_z = (int) ((size_t) src / sz), src_k = (int) ((size_t) src % sz - col);
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
            if (z == src_z)
              rw_tb_inject (rp, src_k, hard, s1, p1);
            stored.store (p1, i, rp);
          }
        else if (z == src_z)
          rw_tb_inject (rp, src_k, hard, s1, p1);
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

/* Source and receivers of one step, on the new field. One block: the
 * barrier orders the source write before a receiver at the same cell. */
template <typename S>
__global__ void
rw_kernel_io (S *f, long long src, int hard, double s, const size_t *__restrict__ rcv,
              int n_rcv, double *__restrict__ out, size_t k, size_t chunk)
{
  typedef typename RwArith<S>::type A;
  if (threadIdx.x == 0 && src >= 0)
    rw_st (f, (size_t) src, hard ? (A) s : rw_ld (f, (size_t) src) + (A) s);
  __syncthreads ();
  for (int r = threadIdx.x; r < n_rcv; r += blockDim.x)
    out[(size_t) r * chunk + k] = (double) rw_ld (f, rcv[r]);
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

/* Every bx × by tile of columns with an inside cell, with the z range
 * [min zlo, max zhi) of its columns. */
static std::vector<int4>
rw_tiles (const RwCudaState *st, int bx, int by)
{
  const size_t tx = (st->nx + bx - 1) / bx, ty = (st->ny + by - 1) / by;
  std::vector<int4> tiles;
  for (size_t j = 0; j < ty; j++)
    for (size_t i = 0; i < tx; i++)
      {
        uint32_t lo = UINT32_MAX, hi = 0;
        for (size_t y = j * by; y < std::min (st->ny, (j + 1) * by); y++)
          for (size_t x = i * bx; x < std::min (st->nx, (i + 1) * bx); x++)
            {
              const size_t c = x + st->nx * y;
              const uint32_t zl = (*st->zlo_host)[c], zh = (*st->zhi_host)[c];
              if (zl < zh)
                lo = std::min (lo, zl), hi = std::max (hi, zh);
            }
        if (lo < hi)
          {
            tiles.push_back (make_int4 ((int) (i * bx), (int) (j * by), (int) lo, (int) hi));
          }
      }
  return tiles;
}

/* The last `waves` × resident_blocks items cut into up to four pieces of
 * at least min_len planes each: blocks start in list order, and a pass or
 * step that ends with a few long items leaves the GPU idle (7.02 waves of
 * equal items take as long as 8). */
static std::vector<int4>
rw_quarter_tail (const std::vector<int4> &items, size_t waves, int resident_blocks, int min_len)
{
  const size_t tail = std::min (items.size (), waves * (size_t) std::max (resident_blocks, 1));
  std::vector<int4> out (items.begin (), items.end () - (ptrdiff_t) tail);
  for (size_t k = items.size () - tail; k < items.size (); k++)
    {
      const int4 t = items[k];
      const int len = t.w - t.z, n = std::max (1, std::min (4, len / min_len));
      for (int c = 0; c < n; c++)
        out.push_back (make_int4 (t.x, t.y, t.z + len * c / n, t.z + len * (c + 1) / n));
    }
  return out;
}

/* Work items in slabs: every tile's z range is cut at the multiples of a
 * slab height, the same planes for every tile, and the items go out slab
 * by slab (tiles in row order within a slab). Blocks start in list order,
 * so the blocks resident at once work on neighbouring tiles at the same
 * heights: the rows and columns a tile reads around itself (y ± 1, the x
 * ends, the rings of the two-step passes) were just read by the tile that
 * owns them and are L2 hits. Cut relative to each tile's own range, as
 * before, neighbouring chunks sat at different heights under the raked
 * floor and sloped ceiling, and ncu counted the fp16 halo reads as DRAM
 * traffic: 7.2 B per update instead of 6. The thinner the slab, the closer
 * the neighbours; a piece at a range's end shorter than a quarter slab
 * joins the piece next to it (a restart costs a few planes of reads).
 * Measured on the hall (H100, docs/GPU.md): fp16 single steps 313.0 →
 * 358.4 Gvox/s at 4 planes (8: 352.2, 16: 339.1, 32: 330.8), fp32 single
 * steps 195.0 → 213.7 at 8 (16: 209.4, 32: 204.1), fp64 100.9 → 108.6 at
 * 32 (16: 108.1, 8: 105.2), the fp32 passes 221.9 → 232.8 at 40 (32:
 * 232.0, 48: 231.6, 64: 230.5, 80: 229.4, 128: 223.8). */
static std::vector<int4>
rw_slab_items (const std::vector<int4> &tiles, int slab)
{
  std::vector<std::vector<int4>> by_slab;
  for (const int4 &t : tiles)
    {
      std::vector<int4> pieces;
      for (int k = t.z / slab; k * slab < t.w; k++)
        pieces.push_back (make_int4 (k, 0, std::max (t.z, k * slab), std::min (t.w, (k + 1) * slab)));
      const int min_len = std::max (1, slab / 4);
      if (pieces.size () > 1 && pieces.front ().w - pieces.front ().z < min_len)
        {
          pieces[1].z = pieces.front ().z;
          pieces.erase (pieces.begin ());
        }
      if (pieces.size () > 1 && pieces.back ().w - pieces.back ().z < min_len)
        {
          pieces[pieces.size () - 2].w = pieces.back ().w;
          pieces.pop_back ();
        }
      for (const int4 &c : pieces)
        {
          if ((size_t) c.x >= by_slab.size ())
            by_slab.resize ((size_t) c.x + 1);
          by_slab[(size_t) c.x].push_back (make_int4 (t.x, t.y, c.z, c.w));
        }
    }
  std::vector<int4> items;
  for (const std::vector<int4> &v : by_slab)
    items.insert (items.end (), v.begin (), v.end ());
  return items;
}

/* Slab height of the single steps, in planes, by element size (measured:
 * see rw_slab_items). */
static int
rw_slab_planes (size_t elem)
{
  return elem == 2 ? 4 : elem == 4 ? 8 : 32;
}

#define RW_TAIL_WAVES 4         /* single steps: waves of items at the end cut into quarters */

static std::vector<int4>
rw_build_items (const RwCudaState *st, int bx, int by, int resident_blocks)
{
  const std::vector<int4> tiles = rw_tiles (st, bx, by);
  return rw_quarter_tail (rw_slab_items (tiles, rw_slab_planes (st->elem)), RW_TAIL_WAVES,
                          resident_blocks, 8);
}

/* Variant 13's items: its tiles (60 × (RW_TB_BY − 4) cells) in slabs of
 * RW_TB_SLAB planes (rw_slab_items; a piece re-reads four planes of p and
 * two of q around it, and runs two iterations more than its length). The
 * items of the last two waves are cut into quarters, so that the pass
 * does not wait at its end for a few long items while the GPU idles (with
 * equal items, 7.02 waves of them took as long as 8). */
#define RW_TB_SLAB 40         /* planes */
#define RW_TB_TAIL_WAVES 2    /* waves of items at the end cut into quarters */

static std::vector<int4>
rw_build_tb_items (const RwCudaState *st, int resident_blocks)
{
  const std::vector<int4> tiles = rw_tiles (st, 60, RW_TB_BY - 4);
  return rw_quarter_tail (rw_slab_items (tiles, RW_TB_SLAB), RW_TB_TAIL_WAVES, resident_blocks, 16);
}

/* Upper bound of the single-step items for any block shape of ≥ 64
 * threads (tiles ≥ 16 cells wide and ≥ 2 rows, or ≥ 32 wide) in slabs of
 * `slab` planes: at most nz / slab + 2 pieces a tile; plus the pieces the
 * last waves are cut into (rw_quarter_tail: 3 more an item). */
static size_t
rw_items_bound (size_t nx, size_t ny, size_t nz, size_t elem)
{
  return (nx / 16 + 2) * (ny / 2 + 2) * (nz / (size_t) rw_slab_planes (elem) + 2) + 1024 * 1024;
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
#define RW_K(S, B, V) ((RwProdKernel) rw_kernel_production<S, B, V>)
#define RW_KV(V) { { RW_K (float, 0, V), RW_K (float, 1, V), RW_K (float, 2, V) },        \
                   { RW_K (double, 0, V), RW_K (double, 1, V), RW_K (double, 2, V) },     \
                   { RW_K (__half, 0, V), RW_K (__half, 1, V), RW_K (__half, 2, V) } }
#define RW_KW(S, B, V) ((RwProdKernel) rw_kernel_wide<S, B, V>)
#define RW_KWV(V) { { RW_KW (float, 0, V), RW_KW (float, 1, V), RW_KW (float, 2, V) },    \
                    { RW_KW (double, 0, V), RW_KW (double, 1, V), RW_KW (double, 2, V) }, \
                    { RW_KW (__half, 0, V), RW_KW (__half, 1, V), RW_KW (__half, 2, V) } }
#define RW_KA(S, B, V) ((RwProdKernel) rw_kernel_air<S, B, V>)
#define RW_KAV(V) { { RW_KA (float, 0, V), RW_KA (float, 1, V), RW_KA (float, 2, V) },    \
                    { RW_KA (double, 0, V), RW_KA (double, 1, V), RW_KA (double, 2, V) }, \
                    { RW_KA (__half, 0, V), RW_KA (__half, 1, V), RW_KA (__half, 2, V) } }
#define RW_KB(S, B, V) ((RwProdKernel) rw_kernel_bulk<S, B, rw_bulk_nb (V)>)
#define RW_KBV(V) { { RW_KB (float, 0, V), RW_KB (float, 1, V), RW_KB (float, 2, V) },    \
                    { RW_KB (double, 0, V), RW_KB (double, 1, V), RW_KB (double, 2, V) }, \
                    { RW_KB (__half, 0, V), RW_KB (__half, 1, V), RW_KB (__half, 2, V) } }
#define RW_KC(S, B, D) ((RwProdKernel) rw_kernel_async<S, B, D>)
#define RW_KCV(D) { { RW_KC (float, 0, D), RW_KC (float, 1, D), RW_KC (float, 2, D) },    \
                    { RW_KC (double, 0, D), RW_KC (double, 1, D), RW_KC (double, 2, D) }, \
                    { RW_KC (__half, 0, D), RW_KC (__half, 1, D), RW_KC (__half, 2, D) } }
  static const RwProdKernel table[RW_N_VARIANTS][3][3] = {
    RW_KV (0), RW_KV (1), RW_KV (2), RW_KWV (3), RW_KWV (4), RW_KAV (5), RW_KAV (6), RW_KAV (7),
    RW_KCV (2), RW_KCV (3), RW_KAV (10), RW_KBV (11), RW_KBV (12),
    RW_KAV (5),   /* 13: single steps between its two-step passes */
  };
#undef RW_KBV
#undef RW_KB
#undef RW_KCV
#undef RW_KC
#undef RW_KAV
#undef RW_KA
#undef RW_KWV
#undef RW_KW
#undef RW_KV
#undef RW_K
  return table[variant][prec][bnd];
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
  std::vector<int4> items = rw_build_items (st, tile_x, by, sms * per_sm);
  /* the bulk variants read the planes below and above each item: the
   * voxeliser's outside layer keeps them inside the grid */
  if (st->variant == 11 || st->variant == 12)
    for (const int4 &t : items)
      if (t.z < 1 || t.w > (int) st->nz - 1)
        return rw_fail (err, RW_ERROR_INTERNAL, _("inside cells in the grid's outermost z "
                                                  "layer (planes %d to %d of %zu)"),
                        t.z, t.w, st->nz);
  if (items.size () > st->items_cap)
    return rw_fail (err, RW_ERROR_INTERNAL, _("%zu work items exceed the %zu allocated"),
                    items.size (), st->items_cap);
  if (!items.empty ()
      && !RW_CUDA (cudaMemcpy (st->items, items.data (), items.size () * sizeof (int4),
                               cudaMemcpyHostToDevice)))
    return false;
  st->n_items = items.size ();
  st->bx = bx;
  st->by = by;
  st->shm = shm;
  return true;
}

void
rw_cuda_launch_step (RwCudaState *st, int step)
{
  if (st->n_items == 0)
    return;
  int nx = (int) st->nx, ny = (int) st->ny;
  size_t sz = st->nx * st->ny;
  void *args[] = { &st->p, &st->q, &st->cell, st->variant >= 3 ? &st->zrange_w : &st->zrange,
                   &st->items, &nx, &ny, &sz, &st->slots, &step, &st->bad, &st->air };
  (void) cudaLaunchKernel (rw_production_kernel (st->precision, st->boundary, st->variant),
                           dim3 ((unsigned) st->n_items), dim3 (st->bx, st->by), args, st->shm,
                           st->stream);
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
  if (rw_cuda_autotune_lookup (key, &bx, &by))
    return rw_set_items (st, bx, by, err);
  double best_ms = 1e30;
  int best = 1;
  for (int s = 0; s < RW_CUDA_N_TUNE_SHAPES; s++)
    {
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
  if (!RW_CUDA (cudaGetLastError ()))
    return false;
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

/* Device rows are padded to a multiple of 32 cells (outside cells), so
 * that rows start 128-byte aligned and the wide kernel's vectors are
 * aligned. */
static size_t
rw_pitch (size_t nx)
{
  return (nx + 31) / 32 * 32;
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

static size_t
rw_cuda_memory_bytes (const RwSolverSetup *setup)
{
  const RwGrid *g = setup->grid;
  const size_t pitch = rw_pitch (g->nx);
  const size_t n = pitch * g->ny * g->nz;
  const size_t plane = std::max (g->ny * g->nz, std::max (g->nx * g->nz, g->nx * g->ny));
  return 2 * rw_field_span (n, rw_elem_bytes (setup->precision)) + n   /* p, p_prev, cell */
         + 2 * pitch * g->ny * sizeof (uint2)                      /* column ranges */
         + n / 8 + 8                                               /* air bits (≥ 2 cells a bit) */
         + rw_items_bound (pitch, g->ny, g->nz, rw_elem_bytes (setup->precision)) * sizeof (int4)
         + setup->n_receivers * (RW_RCV_CHUNK * sizeof (double) + sizeof (size_t))
         + plane * sizeof (float) + 256;
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
rw_tb_setup (RwCudaState *st, const std::vector<uint8_t> &cells, RwError *err)
{
  if ((st->source_cell >= 0 && RW_CELL_K (cells[(size_t) st->source_cell]) == 0)
      || st->precision == RW_PRECISION_F64 || !rw_offsets_32 (st))
    return true;
  size_t free_b, total_b;
  int dev, sms, per_sm = 1;
  if (!RW_CUDA (cudaMemGetInfo (&free_b, &total_b)) || !RW_CUDA (cudaGetDevice (&dev))
      || !RW_CUDA (cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount, dev))
      || !RW_CUDA (cudaOccupancyMaxActiveBlocksPerMultiprocessor (
           &per_sm, rw_cuda_tb_func (st->precision, st->boundary), 32 * RW_TB_BY, 0)))
    return false;
  const std::vector<int4> items = rw_build_tb_items (st, sms * per_sm);
  const size_t need = 2 * rw_field_span (st->n, st->elem) + items.size () * sizeof (int4);
  /* keep 5 % of the card free for the runtime and the display */
  if (need + total_b / 20 > free_b || items.empty ())
    return true;
  /* memory taken meanwhile by another process is not an error: single steps */
  if (cudaMalloc (&st->field_mem2, 2 * rw_field_span (st->n, st->elem)) != cudaSuccess)
    {
      (void) cudaGetLastError ();
      st->field_mem2 = NULL;
      return true;
    }
  if (!RW_CUDA (cudaMemset (st->field_mem2, 0, 2 * rw_field_span (st->n, st->elem)))
      || !RW_CUDA (cudaMalloc ((void **) &st->tb_items, items.size () * sizeof (int4)))
      || !RW_CUDA (cudaMemcpy (st->tb_items, items.data (), items.size () * sizeof (int4),
                               cudaMemcpyHostToDevice)))
    return false;
  st->n_tb_items = items.size ();
  /* p and q may have moved during the autotune: back to the first pair */
  rw_field_pointers (st);
  st->tb = true;
  return true;
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
  if (setup->source_signal && setup->source_cell >= n)
    {
      rw_fail (err, RW_ERROR_INPUT, _("source: cell %zu is outside the grid"),
               setup->source_cell);
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
  st->precision = setup->precision;
  st->boundary = setup->boundary;
  st->variant = rw_cuda_variant (setup->precision);
  /* the async z-march keeps 32-bit offsets: variant 5 on larger grids */
  if ((st->variant == 8 || st->variant == 9) && !rw_offsets_32 (st))
    st->variant = 5;
  st->elem = rw_elem_bytes (setup->precision);
  st->source = setup->source_signal;
  st->n_steps = setup->n_steps;
  st->source_cell = setup->source_signal ? (long long) rw_pad_index (st, setup->source_cell) : -1;
  st->source_hard = setup->source_kind == RW_SOURCE_HARD;
  st->n_rcv = setup->n_receivers;

  std::vector<uint8_t> cells;
  int n_slots;
  std::vector<uint2> zr, zrw;
  std::vector<size_t> rcv_pad;
  std::vector<unsigned> air;
  cudaDeviceProp prop;
  size_t free_b, total_b;
  const size_t need = rw_cuda_memory_bytes (setup);
  st->slice_cap = std::max (g->ny * g->nz, std::max (g->nx * g->nz, g->nx * g->ny));
  st->items_cap = rw_items_bound (st->nx, g->ny, g->nz, st->elem);

  /* the need is checked before anything of the grid's size is allocated,
   * here or on the device */
  if (!RW_CUDA (cudaSetDevice (0)) || !RW_CUDA (cudaGetDeviceProperties (&prop, 0))
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
  cells.assign (st->n, 0);
  if (!rw_cuda_pack_cells (g, setup->surface_R, st->nx, cells.data (), st->slots.R,
                           st->slots.beta, &n_slots, err))
    goto fail;
  /* column ranges on the padded rows (padding columns are empty), and
   * their unions over the wide kernel's groups of W columns */
  st->wide_w = st->variant >= 3 ? rw_wide_w (st->variant, (int) st->elem) : 1;
  st->zlo_host = new std::vector<uint32_t> (st->nx * st->ny, 0);
  st->zhi_host = new std::vector<uint32_t> (st->nx * st->ny, 0);
  zr.assign (st->nx * st->ny, make_uint2 (0, 0));
  zrw.assign (st->nx / st->wide_w * st->ny, make_uint2 (UINT32_MAX, 0));
  for (size_t y = 0; y < g->ny; y++)
    for (size_t x = 0; x < g->nx; x++)
      {
        const size_t c = x + g->nx * y, d = x + st->nx * y;
        const uint32_t lo = g->zlo[c], hi = g->zhi[c];
        (*st->zlo_host)[d] = lo;
        (*st->zhi_host)[d] = hi;
        zr[d] = make_uint2 (lo, hi);
        uint2 &w = zrw[x / st->wide_w + st->nx / st->wide_w * y];
        if (lo < hi)
          w = make_uint2 (std::min (w.x, lo), std::max (w.y, hi));
      }
  for (uint2 &w : zrw)
    if (w.x >= w.y)
      w = make_uint2 (0, 0);
  for (size_t r = 0; r < st->n_rcv; r++)
    rcv_pad.push_back (rw_pad_index (st, setup->receiver_cells[r]));
  /* one bit per group of wide_w cells: all air (variants 5–7) */
  air.assign (st->n / st->wide_w / 32 + 1, 0u);
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
      || !RW_CUDA (cudaMalloc ((void **) &st->zrange, zr.size () * sizeof (uint2)))
      || !RW_CUDA (cudaMalloc ((void **) &st->zrange_w, zrw.size () * sizeof (uint2)))
      || !RW_CUDA (cudaMalloc ((void **) &st->air, air.size () * sizeof (unsigned)))
      || !RW_CUDA (cudaMemcpy (st->air, air.data (), air.size () * sizeof (unsigned),
                               cudaMemcpyHostToDevice))
      || !RW_CUDA (cudaMalloc ((void **) &st->items, st->items_cap * sizeof (int4)))
      || !RW_CUDA (cudaMalloc ((void **) &st->bad, sizeof (int)))
      || !RW_CUDA (cudaMalloc ((void **) &st->slice, st->slice_cap * sizeof (float)))
      || !RW_CUDA (cudaMemset (st->p, 0, st->n * st->elem))
      || !RW_CUDA (cudaMemset (st->q, 0, st->n * st->elem))
      || !RW_CUDA (cudaMemcpy (st->cell, cells.data (), st->n, cudaMemcpyHostToDevice))
      || !RW_CUDA (cudaMemcpy (st->zrange, zr.data (), zr.size () * sizeof (uint2),
                               cudaMemcpyHostToDevice))
      || !RW_CUDA (cudaMemcpy (st->zrange_w, zrw.data (), zrw.size () * sizeof (uint2),
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
          || !RW_CUDA (cudaMemcpy (st->rcv_cells, rcv_pad.data (),
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
      || !RW_CUDA (cudaStreamSynchronize (st->stream)))
    goto fail;
  return st;

fail:
  rw_cuda_destroy (st);
  return NULL;
}

/* Source and receivers of step `step` on field f (S-typed launch). */
static void
rw_cuda_io (RwCudaState *st, void *f, long long src, double s, bool receivers, size_t k,
            size_t chunk)
{
  const int threads = (int) std::min ((size_t) 256, ((st->n_rcv + 31) / 32) * 32 + 32);
  const int n_rcv = receivers ? (int) st->n_rcv : 0;
  if (st->precision == RW_PRECISION_F64)
    rw_kernel_io<<<1, threads, 0, st->stream>>> ((double *) f, src, st->source_hard, s,
                                                 st->rcv_cells, n_rcv, st->rcv_dev, k, chunk);
  else if (st->precision == RW_PRECISION_F16)
    rw_kernel_io<<<1, threads, 0, st->stream>>> ((__half *) f, src, st->source_hard, s,
                                                 st->rcv_cells, n_rcv, st->rcv_dev, k, chunk);
  else
    rw_kernel_io<<<1, threads, 0, st->stream>>> ((float *) f, src, st->source_hard, s,
                                                 st->rcv_cells, n_rcv, st->rcv_dev, k, chunk);
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
      long long src = io ? st->source_cell : -1;
      int hard = st->source_hard;
      double s1 = (st->source && step < st->n_steps) ? st->source[step] : 0.0;
      void *args[] = { &st->p, &st->q, &n1, &n2, &st->cell, &st->air, &st->tb_items, &nx, &ny,
                       &nz, &sz, &st->slots, &step_i, &src, &hard, &s1, &st->bad };
      (void) cudaLaunchKernel (rw_cuda_tb_func (st->precision, st->boundary), dim3 ((unsigned) st->n_tb_items),
                               dim3 (32, RW_TB_BY), args, 0, st->stream);
    }
  if (io && st->n_rcv > 0)
    rw_cuda_io (st, n1, -1, 0.0, true, k, chunk);
  if (io && (st->source_cell >= 0 || st->n_rcv > 0))
    {
      const double s2 = (st->source && step + 1 < st->n_steps) ? st->source[step + 1] : 0.0;
      rw_cuda_io (st, n2, st->source_cell, s2, true, k + 1, chunk);
    }
  st->p_spare = st->p;
  st->q_spare = st->q;
  st->p = n2;
  st->q = n1;
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
  RwCudaState *st = (RwCudaState *) state;
  for (size_t done = 0; done < n;)
    {
      const size_t chunk = std::min ((size_t) RW_RCV_CHUNK, n - done);
      for (size_t k = 0; k < chunk; k++)
        {
          const size_t step = step0 + done + k;
          if (st->tb && k + 1 < chunk)
            {
              rw_cuda_tb_pass (st, step, k, chunk, true);
              k++;
              continue;
            }
          rw_cuda_launch_step (st, (int) step);
          const double s = (st->source && step < st->n_steps) ? st->source[step] : 0.0;
          if (st->source_cell >= 0 || st->n_rcv > 0)
            rw_cuda_io (st, st->q, st->source_cell, s, true, k, chunk);
          std::swap (st->p, st->q);
        }
      if (!RW_CUDA (cudaGetLastError ()))
        return false;
      if (st->n_rcv > 0)
        {
          if (!RW_CUDA (cudaMemcpyAsync (st->rcv_host, st->rcv_dev,
                                         st->n_rcv * chunk * sizeof (double),
                                         cudaMemcpyDeviceToHost, st->stream)))
            return false;
        }
      int bad;
      if (!RW_CUDA (cudaMemcpyAsync (&bad, st->bad, sizeof bad, cudaMemcpyDeviceToHost,
                                     st->stream))
          || !RW_CUDA (cudaStreamSynchronize (st->stream)))
        return false;
      if (bad != INT_MAX)
        return rw_fail (err, RW_ERROR_UNSTABLE,
                        _("the simulation became unstable: non-finite pressure at step %d "
                          "(CUDA backend, %s)"), bad, rw_precision_name (st->precision));
      if (rcv)
        for (size_t r = 0; r < st->n_rcv; r++)
          memcpy (rcv + r * stride + step0 + done, st->rcv_host + r * chunk,
                  chunk * sizeof (double));
      done += chunk;
    }
  return true;
}

static bool
rw_field_to_double (const RwCudaState *st, const void *dev, double *out, RwError *err)
{
  void *tmp = malloc (st->n * st->elem);
  if (!tmp)
    return rw_fail (err, RW_ERROR_MEMORY, _("out of host memory (%zu bytes)"),
                    st->n * st->elem);
  bool ok = RW_CUDA (cudaMemcpyAsync (tmp, dev, st->n * st->elem, cudaMemcpyDeviceToHost,
                                      st->stream))
            && RW_CUDA (cudaStreamSynchronize (st->stream));
  const size_t n = st->gx * st->ny * st->nz;
  if (ok)
    for (size_t i = 0; i < n; i++)
      {
        const size_t j = rw_pad_index (st, i);
        out[i] = st->precision == RW_PRECISION_F64 ? ((double *) tmp)[j]
                 : st->precision == RW_PRECISION_F16 ? (double) __half2float (((__half *) tmp)[j])
                 : (double) ((float *) tmp)[j];
      }
  free (tmp);
  return ok;
}

static bool
rw_cuda_read_field (void *state, double *p, double *p_prev, RwError *err)
{
  RwCudaState *st = (RwCudaState *) state;
  return (!p || rw_field_to_double (st, st->p, p, err))
         && (!p_prev || rw_field_to_double (st, st->q, p_prev, err));
}

static bool
rw_cuda_energy_op (void *state, double *out, RwError *err)
{
  return rw_cuda_energy ((RwCudaState *) state, out, err);
}

static bool
rw_cuda_read_slice (void *state, int axis, size_t index, float *out, RwError *err)
{
  RwCudaState *st = (RwCudaState *) state;
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
  return RW_CUDA (cudaGetLastError ())
         && RW_CUDA (cudaMemcpyAsync (out, st->slice, count * sizeof (float),
                                      cudaMemcpyDeviceToHost, st->stream))
         && RW_CUDA (cudaStreamSynchronize (st->stream));
}

static const char *
rw_cuda_device_name (void *state)
{
  return ((RwCudaState *) state)->name;
}

static void
rw_cuda_destroy (void *state)
{
  RwCudaState *st = (RwCudaState *) state;
  if (!st)
    return;
  if (st->stream)
    cudaStreamSynchronize (st->stream);
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
  cudaFree (st->slice);
  cudaFree (st->rcv_cells);
  cudaFree (st->rcv_dev);
  if (st->ev0)
    cudaEventDestroy (st->ev0);
  if (st->ev1)
    cudaEventDestroy (st->ev1);
  if (st->stream)
    cudaStreamDestroy (st->stream);
  (void) cudaGetLastError ();
  free (st->rcv_host);
  delete st->zlo_host;
  delete st->zhi_host;
  free (st);
}

static const RwBackendOps rw_cuda_ops = {
  "cuda",
  rw_cuda_available,
  rw_cuda_memory_bytes,
  rw_cuda_create,
  rw_cuda_advance,
  rw_cuda_read_field,
  rw_cuda_energy_op,
  rw_cuda_read_slice,
  rw_cuda_device_name,
  rw_cuda_destroy,
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
  RwCudaState *st = (RwCudaState *) state;
  std::vector<unsigned char> tmp (st->n * st->elem);
  const double *src[2] = { p, p_prev };
  void *dst[2] = { st->p, st->q };
  for (int a = 0; a < 2; a++)
    {
      if (!src[a])
        continue;
      /* padding cells are outside: 0 */
      std::fill (tmp.begin (), tmp.end (), 0);
      for (size_t i = 0; i < st->gx * st->ny * st->nz; i++)
        {
          const size_t j = rw_pad_index (st, i);
          if (st->precision == RW_PRECISION_F64)
            ((double *) tmp.data ())[j] = src[a][i];
          else if (st->precision == RW_PRECISION_F16)
            ((__half *) tmp.data ())[j] = __float2half_rn ((float) src[a][i]);
          else
            ((float *) tmp.data ())[j] = (float) src[a][i];
        }
      if (!RW_CUDA (cudaMemcpyAsync (dst[a], tmp.data (), tmp.size (), cudaMemcpyHostToDevice,
                                     st->stream))
          || !RW_CUDA (cudaStreamSynchronize (st->stream)))
        return false;
    }
  return true;
}

extern "C" int
rw_cuda_debug_steps_per_pass (void *state)
{
  return ((RwCudaState *) state)->tb ? 2 : 1;
}

extern "C" int
rw_cuda_debug_tb_seam (void *state)
{
  RwCudaState *st = (RwCudaState *) state;
  std::vector<int4> items (st->n_tb_items);
  if (items.empty ()
      || cudaMemcpy (items.data (), st->tb_items, items.size () * sizeof (int4),
                     cudaMemcpyDeviceToHost) != cudaSuccess)
    return -1;
  for (const int4 &a : items)
    for (const int4 &b : items)
      if (a.x == b.x && a.y == b.y && a.w == b.z)
        return a.w;
  return -1;
}

extern "C" void
rw_cuda_debug_launch (void *state, int *block_x, int *block_y, size_t *n_items)
{
  RwCudaState *st = (RwCudaState *) state;
  *block_x = st->bx;
  *block_y = st->by;
  *n_items = st->n_items;
}
