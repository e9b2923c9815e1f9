// SPDX-License-Identifier: GPL-3.0-or-later
/* copy-ceiling — how fast the SMs themselves move memory, against
 * cudaMemcpy: the roofline's copy of 2 GiB (rw_cuda_device_info, as every
 * benchmark measures it), then, each the best of 6 timed runs after 2
 * warm-ups, as bytes read + written a second and as a fraction of
 * cudaMemcpy's rate:
 *  - copy kernels of float4s on 2 GiB (U at a time a thread, threads
 *    taking them in turn over a grid, or a block per 1024 of them);
 *  - streams of three words an element, as a node update moves them
 *    (read p and p⁻, write p⁺), in the best copy's grid: p⁺ written over
 *    p⁻ (in place, as the air kernels do) or into a third array, each
 *    without and with p's rows y ∓ 1 read too (424 floats away, a row of
 *    the 1000 m³ hall's fp32 sites: what a stencil reads again through
 *    the L2);
 *  - those streams in the air kernels' order (a warp a row's segment of
 *    32 float4s, blocks of 4 rows marching a chunk of planes): chunks of
 *    64, 8 and 1 planes, a block each, and in as few blocks an SM as the
 *    fp32 air kernel runs (5), with the loads in flight in registers or
 *    in a cp.async ring in shared memory;
 *  - two steps a pass through the L2 (wave_kernel, wave2_kernel): the
 *    march's second step following its first a chunk of planes or two
 *    behind, in one persistent launch, against two single steps; with
 *    and without rows of planes z ∓ 1 read too (what an item of a few
 *    planes of a z-march loads again).
 * tests/gpu/run.sh fabric runs it under ncu (the DRAM's and the L2
 * fabric's throughput; docs/PERFORMANCE.md, "…, eleventh" and "…,
 * twelfth"), tests/gpu/run.sh l2wave for the passes ("…, sixteenth"). A
 * benchmark: it checks nothing but that the copies and sums are right. */
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <type_traits>

/* rw-cuda.h as the CUDA files include it (atomic_int); the cp.async
 * helpers of the 7-point variants 8 and 9 */
#include "../../kernels/rw-cuda-common.cuh"
#include "../../kernels/rw-cuda-march.cuh"

template <int U>
__global__ void
copy_kernel (const float4 *__restrict__ a, float4 *__restrict__ b, size_t n)
{
  const size_t stride = (size_t) gridDim.x * blockDim.x;
  size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x;
  for (; i + (U - 1) * stride < n; i += U * stride)
    {
      float4 v[U];
#pragma unroll
      for (int u = 0; u < U; u++)
        v[u] = __ldcs (a + i + u * stride);
#pragma unroll
      for (int u = 0; u < U; u++)
        __stcs (b + i + u * stride, v[u]);
    }
  for (; i < n; i += stride)
    b[i] = a[i];
}

/* Three words an element, 4 at a time a thread as copy_kernel<4> (n a
 * multiple of 4 · the grid's threads): out = p + m (out is m, in place,
 * or an array of its own), and with ROWS p's rows y ∓ 1 too (elements r
 * before and after, clamped to the array). m and out may be one array:
 * neither is restrict. */
template <bool ROWS>
__global__ void
stream_kernel (const float4 *__restrict__ p, const float4 *m, float4 *out, size_t n, size_t r)
{
  const size_t stride = (size_t) gridDim.x * blockDim.x;
  size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x;
  for (; i + 3 * stride < n; i += 4 * stride)
    {
      float4 v[4];
#pragma unroll
      for (int u = 0; u < 4; u++)
        {
          const size_t j = i + u * stride;
          const float4 a = p[j], b = m[j];
          v[u] = make_float4 (a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
          if (ROWS)
            {
              const float4 c = p[j >= r ? j - r : 0], d = p[j + r < n ? j + r : n - 1];
              v[u] = make_float4 (v[u].x + (c.x + d.x), v[u].y + (c.y + d.y), v[u].z + (c.z + d.z),
                                  v[u].w + (c.w + d.w));
            }
        }
#pragma unroll
      for (int u = 0; u < 4; u++)
        out[i + u * stride] = v[u];
    }
}

/* The air kernels' order of the same streams: a warp a segment of 32
 * float4s of row y, blocks of 4 rows, marching the planes [z0, z0 + zc)
 * two at a time (the loads of both issued first); at each plane rows
 * y − 1, y and y + 1 of p and row y of m loaded, their sum stored over m.
 * zc = 1: a warp a row of one plane, no march. The blocks (segment, tile
 * of 4 rows, chunk), segments first, taken in turn by a grid of any size
 * (fewer blocks than them: as few warps an SM as the air kernels have).
 * Rows 0 and ny − 1 are not updated. */
/* Item b of the march for this thread: its first entry i0 and planes
 * [z0, z1); false on rows 0 and ny − 1. */
__device__ __forceinline__ bool
march_item (int b, int sy, int ny, int nz, int zc, size_t &i0, int &z0, int &z1)
{
  const int segs = sy / 32, tiles = (ny + 3) / 4;
  const int y = (b / segs) % tiles * 4 + (int) threadIdx.y;
  if (y < 1 || y >= ny - 1)
    return false;
  z0 = b / (segs * tiles) * zc, z1 = min (nz, z0 + zc);
  i0 = (size_t) (b % segs) * 32 + threadIdx.x + (size_t) sy * (y + (size_t) ny * z0);
  return true;
}

__device__ __forceinline__ int
march_items (int sy, int ny, int nz, int zc)
{
  return sy / 32 * ((ny + 3) / 4) * ((nz + zc - 1) / zc);
}

/* m's new row from rows y − 1, y, y + 1 of p and its own */
__device__ __forceinline__ float4
march_sum (float4 a, float4 b, float4 c, float4 m)
{
  return make_float4 (m.x + (b.x + (a.x + c.x)), m.y + (b.y + (a.y + c.y)),
                      m.z + (b.z + (a.z + c.z)), m.w + (b.w + (a.w + c.w)));
}

/* Z3: rows y of planes z ∓ 1 added too (wave2_kernel's Z3; the same
 * plane where there is none) */
template <bool Z3 = false>
__global__ void
march_kernel (const float4 *__restrict__ p, float4 *__restrict__ m, int sy, int ny, int nz, int zc)
{
  const size_t sz = (size_t) sy * ny;
  for (int b = (int) blockIdx.x; b < march_items (sy, ny, nz, zc); b += (int) gridDim.x)
    {
      size_t i;
      int z0, z1;
      if (!march_item (b, sy, ny, nz, zc, i, z0, z1))
        continue;
      for (int z = z0; z < z1; z += 2, i += 2 * sz)
        {
          const bool two = z + 1 < z1;
          float4 v[2][6];
#pragma unroll
          for (int k = 0; k < 2; k++)
            if (k == 0 || two)
              {
                const size_t j = i + k * sz;
                v[k][0] = p[j - sy], v[k][1] = p[j], v[k][2] = p[j + sy], v[k][3] = m[j];
                if (Z3)
                  v[k][4] = p[z + k > 0 ? j - sz : j], v[k][5] = p[z + k + 1 < nz ? j + sz : j];
              }
#pragma unroll
          for (int k = 0; k < 2; k++)
            if (k == 0 || two)
              {
                float4 u = march_sum (v[k][0], v[k][1], v[k][2], v[k][3]);
                if (Z3)
                  u = make_float4 (u.x + (v[k][4].x + v[k][5].x), u.y + (v[k][4].y + v[k][5].y),
                                   u.z + (v[k][4].z + v[k][5].z), u.w + (v[k][4].w + v[k][5].w));
                m[i + k * sz] = u;
              }
        }
    }
}

/* The same march with the loads in flight held in shared memory instead
 * of registers: each thread copies its own 16 bytes of the four rows of
 * plane z + D − 1 asynchronously (cp.async, a group a plane) into a ring
 * of D planes of its warp, and sums plane z once its group has arrived.
 * No thread reads what another copied, so no barrier: each waits for
 * its own groups. Dynamic shared memory: 4 warps × D planes × 2 KiB. */
template <int D>
__global__ void
march_async_kernel (const float4 *__restrict__ p, float4 *__restrict__ m, int sy, int ny, int nz,
                    int zc)
{
  extern __shared__ float4 ring[];
  float4 *mine = ring + threadIdx.y * D * 4 * 32 + threadIdx.x;
  const size_t sz = (size_t) sy * ny;
  for (int b = (int) blockIdx.x; b < march_items (sy, ny, nz, zc); b += (int) gridDim.x)
    {
      size_t i0;
      int z0, z1;
      if (!march_item (b, sy, ny, nz, zc, i0, z0, z1))
        continue;
      const auto issue = [&] (int k) {
        if (z0 + k < z1)
          {
            const size_t j = i0 + k * sz;
            float4 *s = mine + (k % D) * 4 * 32;
            rw_cp_async16<true> (s, p + j - sy);
            rw_cp_async16<true> (s + 32, p + j);
            rw_cp_async16<true> (s + 64, p + j + sy);
            rw_cp_async16<true> (s + 96, m + j);
          }
        rw_cp_commit ();
      };
#pragma unroll
      for (int k = 0; k < D - 1; k++)
        issue (k);
      for (int z = z0; z < z1; z++)
        {
          issue (z - z0 + D - 1);
          rw_cp_wait<D - 1> ();
          const float4 *s = mine + ((z - z0) % D) * 4 * 32;
          m[i0 + (size_t) (z - z0) * sz] = march_sum (s[0], s[32], s[64], s[96]);
        }
      rw_cp_wait<0> ();
    }
}

/* Two steps a pass through the L2: the march above (A: m = m + rows y −
 * 1, y, y + 1 of p; B: p = p + the same rows of m, with A's values), a
 * persistent grid whose blocks take the march's items by a ticket
 * (atomicAdd) in the order A of chunk s, then B of chunk s − lag, a
 * chunk's items after another's. B of chunk c waits until every item
 * of A on chunks c and c + 1 is done (the FCC scheme's time n + 2 at
 * plane z reads time n + 1 at z + 1; its wall entries two planes up),
 * and B's store over p then reads nothing A still needs. If the L2 still
 * holds a chunk's p and m when B comes to it, DRAM moves two words an
 * update instead of three. The waits: a counter a chunk, bumped once
 * per item after each thread's fence, polled by one thread with acquire
 * loads (which also keep a block from reading its L1's stale lines) and
 * the block's barrier. Items are taken in ticket order, and a block
 * waits only on items with smaller tickets, which blocks already
 * running hold: no deadlock, whatever the grid. ctr: the ticket, then a
 * counter a chunk, zeroed before each pass. No pointer is restrict: each
 * array is both read and written (no non-coherent loads). */
__global__ void
wave_kernel (float4 *p, float4 *m, int sy, int ny, int nz, int zc, int lag, unsigned *ctr)
{
  __shared__ int item;
  const int tiles = sy / 32 * ((ny + 3) / 4), chunks = (nz + zc - 1) / zc;
  const int total = 2 * (chunks + lag) * tiles;
  const bool lead = threadIdx.x == 0 && threadIdx.y == 0;
  const size_t sz = (size_t) sy * ny;
  for (;;)
    {
      if (lead)
        item = (int) atomicAdd (ctr, 1u);
      __syncthreads ();
      const int t = item;
      if (t >= total)
        return;
      const int slot = t / tiles, s = slot / 2;
      const bool second = (slot & 1) != 0;
      const int c = second ? s - lag : s;
      if (c < 0 || c >= chunks)
        {
          __syncthreads ();
          continue;
        }
      if (second && lead)
        for (int k = c; k <= c + 1 && k < chunks; k++)
          {
            unsigned v;
            do
              asm volatile ("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(ctr + 1 + k) : "memory");
            while (v < (unsigned) tiles);
          }
      __syncthreads ();
      const float4 *src = second ? m : p;
      float4 *dst = second ? p : m;
      size_t i;
      int z0, z1;
      if (march_item (t % tiles + tiles * c, sy, ny, nz, zc, i, z0, z1))
        for (int z = z0; z < z1; z += 2, i += 2 * sz)
          {
            const bool two = z + 1 < z1;
            float4 v[2][4];
#pragma unroll
            for (int k = 0; k < 2; k++)
              if (k == 0 || two)
                {
                  const size_t j = i + k * sz;
                  v[k][0] = src[j - sy], v[k][1] = src[j], v[k][2] = src[j + sy], v[k][3] = dst[j];
                }
#pragma unroll
            for (int k = 0; k < 2; k++)
              if (k == 0 || two)
                dst[i + k * sz] = march_sum (v[k][0], v[k][1], v[k][2], v[k][3]);
          }
      if (!second)
        __threadfence ();
      __syncthreads ();
      if (!second && lead)
        atomicAdd (ctr + 1 + c, 1u);
    }
}

/* wave_kernel's pass without its tickets and with finer waits: a grid
 * whose blocks are all resident at once (one wave of them; the caller
 * checks the occupancy) takes the items in turn, block b items b, b + G,
 * … in the same order; B of a tile (segment, 4 rows ty) of chunk c waits
 * only for A's items of row tiles ty − 1 … ty + 1 on chunks c and c + 1
 * (a flag a chunk and row tile, counting its segments). A block waits
 * only on items before its own, which blocks already on the GPU hold,
 * each working through its items in order: no deadlock.
 * REL: how an A item says it is done: 0 each thread's fence after its
 * stores, the barrier, the flag; 1 the same deferred to the block's next
 * item, after that item's first loads are issued (before any wait of
 * its own, so that no block waits on a flag it holds back); 2 the
 * barrier and the flag without the fence (wrong in principle: for its
 * rate alone); 3 the barrier, then one thread's fence and the flag (as
 * cooperative groups' grid barrier: the fence is cumulative over what
 * the barrier ordered before it).
 * Z3: each point also reads rows y of planes z ∓ 1 (from the L2: what an
 * item of a few planes of a z-march loads again, its first planes'
 * rows), and B then waits for chunk c − 1's rows too. */
template <int REL, bool Z3>
__global__ void __launch_bounds__ (128, 8)
wave2_kernel (float4 *p, float4 *m, int sy, int ny, int nz, int zc, int lag, unsigned *flag)
{
  const int segs = sy / 32, ty_n = (ny + 3) / 4, tiles = segs * ty_n, chunks = (nz + zc - 1) / zc;
  const int total = 2 * (chunks + lag) * tiles;
  const size_t sz = (size_t) sy * ny;
  const bool lead = threadIdx.x == 0 && threadIdx.y == 0;
  unsigned *pend = nullptr;
  const auto release = [&] {
    if (pend != nullptr)
      {
        __threadfence ();
        __syncthreads ();
        if (lead)
          atomicAdd (pend, 1u);
        pend = nullptr;
      }
  };
  for (int t = (int) blockIdx.x; t < total; t += (int) gridDim.x)
    {
      const int slot = t / tiles, s = slot / 2, tile = t % tiles, ty = tile / segs;
      const bool second = (slot & 1) != 0;
      const int c = second ? s - lag : s;
      if (c < 0 || c >= chunks)
        continue;
      if (second)
        {
          release ();
          if (threadIdx.y == 0 && threadIdx.x < 9)
            {
              const int cc = c - 1 + (int) threadIdx.x / 3, yy = ty - 1 + (int) threadIdx.x % 3;
              if ((Z3 || cc >= c) && cc >= 0 && cc < chunks && yy >= 0 && yy < ty_n)
                {
                  const unsigned *f = flag + (size_t) cc * ty_n + yy;
                  unsigned v;
                  do
                    asm volatile ("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(f) : "memory");
                  while (v < (unsigned) segs);
                }
            }
          __syncthreads ();
        }
      const float4 *src = second ? m : p;
      float4 *dst = second ? p : m;
      size_t i = 0;
      int z0 = 0, z1 = 0;
      const bool ok = march_item (tile + tiles * c, sy, ny, nz, zc, i, z0, z1);
      for (int z = z0; ok ? z < z1 : z == z0; z += 2, i += 2 * sz)
        {
          const bool two = z + 1 < z1;
          float4 v[2][6];
#pragma unroll
          for (int k = 0; k < 2; k++)
            if (ok && (k == 0 || two))
              {
                const size_t j = i + k * sz;
                v[k][0] = src[j - sy], v[k][1] = src[j], v[k][2] = src[j + sy], v[k][3] = dst[j];
                if (Z3)
                  v[k][4] = src[z + k > 0 ? j - sz : j], v[k][5] = src[z + k + 1 < nz ? j + sz : j];
              }
          /* the block's previous A item, once this one's first loads are out */
          if (REL == 1 && z == z0)
            release ();
#pragma unroll
          for (int k = 0; k < 2; k++)
            if (ok && (k == 0 || two))
              {
                float4 u = march_sum (v[k][0], v[k][1], v[k][2], v[k][3]);
                if (Z3)
                  u = make_float4 (u.x + (v[k][4].x + v[k][5].x), u.y + (v[k][4].y + v[k][5].y),
                                   u.z + (v[k][4].z + v[k][5].z), u.w + (v[k][4].w + v[k][5].w));
                dst[i + k * sz] = u;
              }
        }
      if (!second)
        {
          unsigned *f = flag + (size_t) c * ty_n + ty;
          if (REL == 1)
            pend = f;
          else
            {
              if (REL == 0)
                __threadfence ();
              __syncthreads ();
              if (lead)
                {
                  if (REL == 3)
                    __threadfence ();
                  atomicAdd (f, 1u);
                }
            }
        }
    }
  release ();
}

__global__ void
fill_kernel (float4 *a, size_t n, float v)
{
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n;
       i += (size_t) gridDim.x * blockDim.x)
    a[i] = make_float4 (v, v, v, v);
}

/* Whether float4s i and j of a could be read (else the CUDA error is in
 * err), counting into *bad those of their 8 floats that are not want. */
static bool
check_two (const float4 *a, size_t i, size_t j, float want, int *bad, RwError *err)
{
  float got[2][4];
  if (!RW_CUDA (cudaMemcpy (got[0], a + i, 16, cudaMemcpyDeviceToHost))
      || !RW_CUDA (cudaMemcpy (got[1], a + j, 16, cudaMemcpyDeviceToHost)))
    return false;
  for (int k = 0; k < 8; k++)
    *bad += got[k / 4][k % 4] != want;
  return true;
}

/* the best of 6 runs of f after 2 warm-ups, in ms; < 0 on an error */
template <typename F>
static float
best_ms (F f, RwError *err)
{
  cudaEvent_t e0, e1;
  if (!RW_CUDA (cudaEventCreate (&e0)) || !RW_CUDA (cudaEventCreate (&e1)))
    return -1;
  float best = 1e30f;
  for (int r = 0; r < 8; r++)
    {
      float ms;
      cudaEventRecord (e0);
      f ();
      cudaEventRecord (e1);
      if (!RW_CUDA (cudaEventSynchronize (e1)) || !RW_CUDA (cudaEventElapsedTime (&ms, e0, e1)))
        return -1;
      if (r > 1 && ms < best)
        best = ms;
    }
  cudaEventDestroy (e0);
  cudaEventDestroy (e1);
  return best;
}

int
main (void)
{
  const size_t bytes = (size_t) 2 << 30, n = bytes / sizeof (float4);
  RwCudaDeviceInfo dev;
  RwError e = {}, *err = &e;
  int sms = 0;
  float4 *a = NULL, *b = NULL;
  if (!rw_cuda_device_info (0, bytes, &dev, err)
      || !RW_CUDA (cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount, 0))
      || !RW_CUDA (cudaMalloc (&a, bytes)) || !RW_CUDA (cudaMalloc (&b, bytes))
      || !RW_CUDA (cudaMemset (a, 0x5a, bytes)))
    {
      fprintf (stderr, "copy-ceiling: %s\n", e.message);
      return 1;
    }
  const double ref = dev.copy_bytes_per_s;
  printf ("%s, copy of %zu MiB   rate (read + written)   of cudaMemcpy\n", dev.device, bytes >> 20);
  printf ("cudaMemcpy D2D        %8.1f GB/s          1.000\n", ref / 1e9);
  struct
  {
    int u, blocks, threads;
  } forms[] = { { 1, 16 * sms, 256 }, { 4, 8 * sms, 256 }, { 8, 4 * sms, 256 },
                { 4, (int) (n / 1024), 256 } };
  int bad = 0;
  for (const auto &f : forms)
    {
      cudaMemset (b, 0, bytes);
      const float ms = best_ms (
        [&] {
          if (f.u == 1)
            copy_kernel<1><<<f.blocks, f.threads>>> (a, b, n);
          else if (f.u == 4)
            copy_kernel<4><<<f.blocks, f.threads>>> (a, b, n);
          else
            copy_kernel<8><<<f.blocks, f.threads>>> (a, b, n);
        },
        err);
      unsigned char head[64], tail[64];
      const bool same = ms > 0 && RW_CUDA (cudaMemcpy (head, b, 64, cudaMemcpyDeviceToHost))
                        && RW_CUDA (cudaMemcpy (tail, (char *) b + bytes - 64, 64, cudaMemcpyDeviceToHost));
      for (int k = 0; same && k < 64; k++)
        bad += head[k] != 0x5a || tail[k] != 0x5a;
      if (ms <= 0 || !same)
        {
          fprintf (stderr, "copy-ceiling: %s\n", e.message);
          return 1;
        }
      const double r = 2.0 * bytes / (ms * 1e-3);
      printf ("kernel U=%d %6d x %3d %8.1f GB/s          %.3f\n", f.u, f.blocks, f.threads, r / 1e9,
              r / ref);
    }
  if (bad != 0)
    fprintf (stderr, "copy-ceiling: the copies differ from their source\n");
  /* the streams of three words: p = a (ones), p⁻ = b (zeros), p⁺ into b
   * or c; after the 8 runs each element of b holds 8 (8 · 3 with the
   * rows) in place, and c 1 (3) */
  float4 *c = NULL;
  if (!RW_CUDA (cudaMalloc (&c, bytes)))
    {
      fprintf (stderr, "copy-ceiling: %s\n", e.message);
      return 1;
    }
  fill_kernel<<<8 * sms, 256>>> (a, n, 1.0f);
  const size_t row = 424 / 4, grid = n / 1024;
  printf ("three words an element (read p and p-, write p+), a block per 1024 float4s:\n");
  for (int form = 0; form < 4; form++)
    {
      const bool rows = form >= 2, inplace = (form & 1) == 0;
      float4 *out = inplace ? b : c;
      cudaMemset (b, 0, bytes);
      cudaMemset (c, 0, bytes);
      const float ms = best_ms (
        [&] {
          if (rows)
            stream_kernel<true><<<grid, 256>>> (a, b, out, n, row);
          else
            stream_kernel<false><<<grid, 256>>> (a, b, out, n, row);
        },
        err);
      const float want = (inplace ? 8.0f : 1.0f) * (rows ? 3.0f : 1.0f);
      const bool read = ms > 0 && check_two (out, row, n - row - 1, want, &bad, err);
      if (ms <= 0 || !read)
        {
          fprintf (stderr, "copy-ceiling: %s\n", e.message);
          return 1;
        }
      const double r = 3.0 * bytes / (ms * 1e-3);
      printf ("%-10s %-14s %8.1f GB/s          %.3f\n", inplace ? "in place" : "out of place",
              rows ? "+ rows y -/+ 1" : "", r / 1e9, r / ref);
    }
  /* the march: rows of 128 float4s (512 floats), 694 rows a plane, 415
   * planes (147 M floats, the 1000 m³ hall's sites at 4 kHz), p = a, m = b */
  const int sy = 128, ny = 694, nz = 415;
  const size_t upd = (size_t) sy * (ny - 2) * nz;
  printf ("the same streams in the air kernels' order (a warp a row's 32 float4s, %d planes):\n", nz);
  /* chunks of zc planes, a block each or (per SM) as many blocks as
   * the fp32 air kernel has (5 of 4 warps) */
  struct
  {
    int zc, per_sm;
    int ring; /* > 0: march_async_kernel<ring> */
  } marches[] = { { 64, 0, 0 }, { 8, 0, 0 }, { 1, 0, 0 }, { 64, 5, 0 }, { 8, 5, 0 },
                  { 64, 5, 4 }, { 64, 5, 6 }, { 8, 5, 4 }, { 64, 0, 4 } };
  for (const auto &mf : marches)
    {
      const int zc = mf.zc;
      cudaMemset (b, 0, bytes);
      const int all = sy / 32 * ((ny + 3) / 4) * ((nz + zc - 1) / zc);
      const int grd = mf.per_sm > 0 ? std::min (all, mf.per_sm * sms) : all;
      const float ms = best_ms (
        [&] {
          const dim3 blk (32, 4);
          const size_t smem = (size_t) mf.ring * 4 * 4 * 32 * sizeof (float4);
          if (mf.ring == 4)
            march_async_kernel<4><<<grd, blk, smem>>> (a, b, sy, ny, nz, zc);
          else if (mf.ring == 6)
            march_async_kernel<6><<<grd, blk, smem>>> (a, b, sy, ny, nz, zc);
          else
            march_kernel<<<grd, blk>>> (a, b, sy, ny, nz, zc);
        },
        err);
      const bool read = ms > 0 && check_two (b, sy, (size_t) sy * ny * nz - sy - 1, 24.0f, &bad, err);
      if (ms <= 0 || !read)
        {
          fprintf (stderr, "copy-ceiling: %s\n", e.message);
          return 1;
        }
      const double r = 3.0 * upd * sizeof (float4) / (ms * 1e-3);
      char ring[32] = "";
      if (mf.ring > 0)
        snprintf (ring, sizeof ring, "cp.async %d", mf.ring);
      printf ("planes a block %-3d %-7s %-10s %8.1f GB/s   %.3f\n", zc,
              mf.per_sm > 0 ? "5 an SM" : "", ring, r / 1e9, r / ref);
    }
  /* two steps a pass through the L2 (wave_kernel) against two single
   * steps (march_kernel twice), each in chunks of zc planes, grids of 5
   * blocks an SM (the fp32 air kernel's) or of 16 (all a march kernel's
   * registers allow); the rate as three words an update, so that a
   * ratio above 1 is fewer bytes than that from the DRAM. Between a
   * chunk's A and its B the L2 sees about (2·lag + 1) chunk-steps of
   * three words: the footprint printed. */
  unsigned *ctr = NULL;
  const size_t most = (size_t) (nz + 1) / 2 * ((ny + 3) / 4) + 1;
  if (!RW_CUDA (cudaMalloc (&ctr, (1 + most) * sizeof (unsigned))))
    {
      fprintf (stderr, "copy-ceiling: %s\n", e.message);
      return 1;
    }
  printf ("two steps a pass (rate as three words an update; L2 footprint between a chunk's two steps):\n");
  struct
  {
    int zc, lag, per_sm;
    int two;   /* 0 wave_kernel; 1 + REL: wave2_kernel<REL> */
    bool z3;   /* wave2_kernel<…, true>; two single steps: march3_kernel */
  } waves[] = { { 8, 0, 5, 0, false },  { 8, 0, 8, 0, false },  { 2, 1, 5, 0, false },
                { 2, 2, 5, 0, false },  { 4, 1, 5, 0, false },  { 16, 1, 8, 0, false },
                { 2, 1, 8, 1, false },  { 2, 2, 8, 1, false },  { 3, 1, 8, 1, false },
                { 4, 1, 8, 1, false },  { 2, 1, 8, 2, false },  { 2, 2, 8, 2, false },
                { 2, 1, 8, 3, false },  { 2, 1, 8, 4, false },  { 2, 2, 8, 4, false },
                { 3, 1, 8, 4, false },  { 4, 1, 8, 4, false },  { 8, 0, 5, 0, true },
                { 8, 0, 8, 0, true },   { 2, 1, 8, 4, true },   { 2, 2, 8, 4, true },
                { 3, 1, 8, 4, true },   { 4, 1, 8, 4, true },   { 2, 2, 8, 1, true } };
  int occ = 0, occ0 = 0, occ2 = 0;
  if (!RW_CUDA (cudaOccupancyMaxActiveBlocksPerMultiprocessor (&occ0, wave2_kernel<0, true>, 128, 0))
      || !RW_CUDA (cudaOccupancyMaxActiveBlocksPerMultiprocessor (&occ, wave2_kernel<1, true>, 128, 0))
      || !RW_CUDA (cudaOccupancyMaxActiveBlocksPerMultiprocessor (&occ2, wave2_kernel<3, true>, 128, 0)))
    {
      fprintf (stderr, "copy-ceiling: %s\n", e.message);
      return 1;
    }
  occ = std::min (occ, std::min (occ0, occ2));
  printf ("(wave2_kernel: at most %d blocks of 128 an SM at once)\n", occ);
  for (const auto &wf : waves)
    {
      const int zc = wf.zc, chunks = (nz + zc - 1) / zc, grd = wf.per_sm * sms;
      if (wf.two && wf.per_sm > occ)
        continue; /* not all resident at once */
      fill_kernel<<<8 * sms, 256>>> (a, n, 1.0f);
      cudaMemset (b, 0, bytes);
      const float ms = best_ms (
        [&] {
          const dim3 blk (32, 4);
          if (wf.lag == 0)
            {
              /* two single steps */
              if (wf.z3)
                {
                  march_kernel<true><<<grd, blk>>> (a, b, sy, ny, nz, zc);
                  march_kernel<true><<<grd, blk>>> (b, a, sy, ny, nz, zc);
                }
              else
                {
                  march_kernel<<<grd, blk>>> (a, b, sy, ny, nz, zc);
                  march_kernel<<<grd, blk>>> (b, a, sy, ny, nz, zc);
                }
            }
          else if (!wf.two)
            {
              cudaMemsetAsync (ctr, 0, (1 + (size_t) chunks) * sizeof (unsigned));
              wave_kernel<<<grd, blk>>> (a, b, sy, ny, nz, zc, wf.lag, ctr);
            }
          else
            {
              cudaMemsetAsync (ctr, 0, (size_t) chunks * ((ny + 3) / 4) * sizeof (unsigned));
              const auto go = [&] (auto rel, auto z3) {
                wave2_kernel<decltype (rel)::value, decltype (z3)::value><<<grd, blk>>> (
                  a, b, sy, ny, nz, zc, wf.lag, ctr);
              };
              typedef std::true_type Y;
              typedef std::false_type N;
              if (wf.z3)
                wf.two == 1 ? go (std::integral_constant<int, 0> (), Y ())
                            : go (std::integral_constant<int, 3> (), Y ());
              else if (wf.two == 1)
                go (std::integral_constant<int, 0> (), N ());
              else if (wf.two == 2)
                go (std::integral_constant<int, 1> (), N ());
              else if (wf.two == 3)
                go (std::integral_constant<int, 2> (), N ());
              else
                go (std::integral_constant<int, 3> (), N ());
          }
        },
        err);
      /* 8 passes from p = 1, m = 0, in the kernels' float arithmetic */
      float wp = 1.0f, wm = 0.0f;
      for (int r = 0; r < 8; r++)
        {
          wm = wm + (wp + (wp + wp));
          if (wf.z3)
            wm = wm + (wp + wp);
          const float t = wp + (wm + (wm + wm));
          wp = wf.z3 ? t + (wm + wm) : t;
        }
      const int bad0 = bad;
      const bool read = ms > 0 && check_two (a, (size_t) sy * 100 + 5, (size_t) sy * (200 + (size_t) ny * (nz - 1)) + 77, wp, &bad, err)
                        && check_two (b, (size_t) sy * 100 + 5, (size_t) sy * (200 + (size_t) ny * (nz - 1)) + 77, wm, &bad, err);
      if (ms <= 0 || !read)
        {
          fprintf (stderr, "copy-ceiling: %s\n", e.message);
          return 1;
        }
      const double r = 2 * 3.0 * upd * sizeof (float4) / (ms * 1e-3);
      const double foot = (2.0 * wf.lag + 1) * zc * (double) sy * ny * 3 * sizeof (float4) / 1e6;
      char wrong[48] = "";
      if (bad != bad0)
        snprintf (wrong, sizeof wrong, "  (%d of 16 values wrong)", bad - bad0);
      if (wf.two == 3 && !wf.z3)
        bad = bad0; /* without the fence: its rate alone */
      if (wf.lag == 0)
        printf ("two single steps%s planes a block %-2d %2d an SM      %8.1f GB/s   %.3f\n",
                wf.z3 ? " (z -/+ 1)," : ",", zc, wf.per_sm, r / 1e9, r / ref);
      else
        printf ("a pass%s chunks of %-2d lag %d %2d an SM (%4.0f MB) %8.1f GB/s   %.3f%s\n",
                wf.two == 0 ? ",       " : wf.z3 ? (wf.two == 1 ? " (2, 0, z -/+ 1)," : " (2, 3, z -/+ 1),")
                : wf.two == 1 ? " (2, 0)," : wf.two == 2 ? " (2, 1)," : wf.two == 3 ? " (2, 2)," : " (2, 3),",
                zc, wf.lag, wf.per_sm, foot, r / 1e9, r / ref, wrong);
    }
  cudaFree (ctr);
  if (bad != 0)
    fprintf (stderr, "copy-ceiling: the copies or sums are wrong\n");
  cudaFree (a);
  cudaFree (b);
  cudaFree (c);
  return bad != 0;
}
