/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-cuda-common.cuh — shared by the CUDA sources: the one error-checking
 * macro, storage/arithmetic type helpers, the cell byte, and the node
 * update every kernel calls (so that the six strategies and the production
 * kernel compute the same numbers and can be compared bit for bit).
 */
#pragma once

#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <stdint.h>
#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>

/* rw-solver.h includes <stdatomic.h>, whose atomic_int C++17 does not
 * have; it only appears in rw_solver_run's prototype, which no CUDA file
 * calls. */
#define atomic_int int
#include "rw-cuda.h"
#undef atomic_int
#include "rw-i18n.h"
#include "rw-scheme.h"
#include "rw-admittance.h"

/* Every CUDA runtime call goes through this: a failure becomes an RwError
 * (never an exit), naming the call and the CUDA error. Needs `err` in
 * scope; evaluates to true on success. */
#define RW_CUDA(call) rw_cuda_ok ((call), err, #call)

static inline bool
rw_cuda_ok (cudaError_t e, RwError *err, const char *what)
{
  if (e == cudaSuccess)
    return true;
  (void) cudaGetLastError ();   /* clear a non-sticky error */
  RwErrorCode code = RW_ERROR_INTERNAL;
  if (e == cudaErrorMemoryAllocation)
    code = RW_ERROR_MEMORY;
  else if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver)
    code = RW_ERROR_UNSUPPORTED;
  return rw_fail (err, code, _("CUDA error in %s: %s (%s)"), what,
                  cudaGetErrorString (e), cudaGetErrorName (e));
}

/* Teardown of what a create may have left unmade (NULL): destroyed where
 * made, and NULL after. */
static inline void
rw_cuda_event_free (cudaEvent_t *e)
{
  if (*e != NULL)
    cudaEventDestroy (*e);
  *e = NULL;
}

static inline void
rw_cuda_stream_free (cudaStream_t *s)
{
  if (*s != NULL)
    cudaStreamDestroy (*s);
  *s = NULL;
}

/* The cell byte: K in bits 0–2, surface slot in bits 3–7. */
#define RW_CELL_K(c) ((c) & 7)
#define RW_CELL_SLOT(c) ((c) >> 3)

/* Reflection factors of the surfaces, by slot; by-value kernel parameter
 * (it lands in the constant bank, and two solvers in one process cannot
 * overwrite each other's table as a __constant__ symbol would). */
struct RwSlotTable
{
  double R[RW_CUDA_MAX_SLOTS];
  double beta[RW_CUDA_MAX_SLOTS];
  int list_slot;                /* FV nodes of this slot: the branch kernel's (−1: none) */
};

/* Storage → arithmetic and back. fp16 storage computes in fp32. */
template <typename S> struct RwArith { typedef S type; };
template <> struct RwArith<__half> { typedef float type; };

__device__ __forceinline__ float rw_ld (const float *a, size_t i) { return a[i]; }
__device__ __forceinline__ double rw_ld (const double *a, size_t i) { return a[i]; }
__device__ __forceinline__ float rw_ld (const __half *a, size_t i) { return __half2float (a[i]); }
/* Through the read-only (non-coherent) cache: the arrays read by a launch
 * are never written by it. */
__device__ __forceinline__ float rw_ldg (const float *a, size_t i) { return __ldg (a + i); }
__device__ __forceinline__ double rw_ldg (const double *a, size_t i) { return __ldg (a + i); }
__device__ __forceinline__ float rw_ldg (const __half *a, size_t i) { return __half2float (__ldg (a + i)); }
__device__ __forceinline__ void rw_st (float *a, size_t i, float v) { a[i] = v; }
__device__ __forceinline__ void rw_st (double *a, size_t i, double v) { a[i] = v; }
__device__ __forceinline__ void rw_st (__half *a, size_t i, float v) { a[i] = __float2half_rn (v); }

/* A value as it reads back once stored (fp16 rounds it): what a second
 * step in the same pass must use (the two-step passes of both paths). */
__device__ __forceinline__ float rw_stored (float v, const float *) { return v; }
__device__ __forceinline__ double rw_stored (double v, const double *) { return v; }
__device__ __forceinline__ float rw_stored (float v, const __half *) { return __half2float (__float2half_rn (v)); }

/* Finite once stored: fp16 overflows to infinity above 65504. */
__device__ __forceinline__ bool rw_stored_finite (float v, const float *) { return isfinite (v); }
__device__ __forceinline__ bool rw_stored_finite (double v, const double *) { return isfinite (v); }
__device__ __forceinline__ bool rw_stored_finite (float v, const __half *) { return fabsf (v) < 65520.0f; }

__device__ __forceinline__ float rw_air (float s, float pp) { return rw_update_air_f32 (s, pp); }
__device__ __forceinline__ double rw_air (double s, double pp) { return rw_update_air_f64 (s, pp); }
__device__ __forceinline__ float rw_fv (int K, float p, float s, float pp, float b) { return rw_update_fv_f32 (K, p, s, pp, b); }
__device__ __forceinline__ double rw_fv (int K, double p, double s, double pp, double b) { return rw_update_fv_f64 (K, p, s, pp, b); }
__device__ __forceinline__ float rw_lrs (int m, float p, const float n[6], float pp, float b) { return rw_update_lrs_f32 (m, p, n, pp, b); }
__device__ __forceinline__ double rw_lrs (int m, double p, const double n[6], double pp, double b) { return rw_update_lrs_f64 (m, p, n, pp, b); }
__device__ __forceinline__ float rw_sav (int m, const float n[6], float pp, float R) { return rw_update_savioja_f32 (m, n, pp, R); }
__device__ __forceinline__ double rw_sav (int m, const double n[6], double pp, double R) { return rw_update_savioja_f64 (m, n, pp, R); }

/* The update of one inside node (K = RW_CELL_K (c) > 0) from its six
 * neighbours (order −x, +x, −y, +y, −z, +z; outside ones hold 0). The
 * sum is taken in that order, as the CPU backend does, so that fp64 agrees
 * with it to rounding. For LRS and Savioja the inside mask comes from the
 * neighbours' cell bytes, read only at boundary nodes. */
template <int BND, typename A>
__device__ __forceinline__ A
rw_node_update (uint8_t c, A centre, A xm, A xp, A ym, A yp, A zm, A zp, A prev,
                const RwSlotTable &slots, const uint8_t *__restrict__ cell, size_t i,
                size_t sx, size_t sy, size_t sz)
{
  const int K = RW_CELL_K (c);
  const A sum = ((((xm + xp) + ym) + yp) + zm) + zp;
  if (K == 6)
    return rw_air (sum, prev);
  const int slot = RW_CELL_SLOT (c);
  if (BND == RW_BOUNDARY_FV)
    /* a listed node (frequency-dependent or area-corrected) stores its
     * neighbour sum here, which the branch kernel (rw-cuda-branches.cu)
     * reads and overwrites with p⁺ after the step: it then reads one cell
     * instead of seven (p⁻ it keeps itself) */
    return slot == slots.list_slot ? sum : rw_fv (K, centre, sum, prev, (A) slots.beta[slot]);
  int mask = 0;
  mask |= (RW_CELL_K (__ldg (cell + i - sx)) != 0) << 0;
  mask |= (RW_CELL_K (__ldg (cell + i + sx)) != 0) << 1;
  mask |= (RW_CELL_K (__ldg (cell + i - sy)) != 0) << 2;
  mask |= (RW_CELL_K (__ldg (cell + i + sy)) != 0) << 3;
  mask |= (RW_CELL_K (__ldg (cell + i - sz)) != 0) << 4;
  mask |= (RW_CELL_K (__ldg (cell + i + sz)) != 0) << 5;
  const A nbr[6] = { xm, xp, ym, yp, zm, zp };
  if (BND == RW_BOUNDARY_LRS)
    return rw_lrs (mask, centre, nbr, prev, (A) slots.beta[slot]);
  return rw_sav (mask, nbr, prev, (A) slots.R[slot]);
}

/* The source's cells (device indices) and weights, rw_solver_source_n of
 * them (rw-solver.h: one of weight 1, or an interpolation stencil),
 * passed to the kernels by value; n = 0: no source. */
struct RwCudaSource
{
  int n;
  long long cell[RW_GRID_STENCIL_MAX];
  double weight[RW_GRID_STENCIL_MAX];
};

/* Source and receivers of one step, on the new field. One block: the
 * barrier orders the source write before a receiver at the same cell. */
template <typename S>
__global__ void
rw_kernel_io (S *f, RwCudaSource src, int hard, double s, const size_t *__restrict__ rcv,
              int n_rcv, double *__restrict__ out, size_t k, size_t chunk)
{
  typedef typename RwArith<S>::type A;
  /* soft: (A) (w · s), the product in double, as the CPU backend adds
   * it (weight 1: (A) s); hard: one cell, assigned */
  if (threadIdx.x == 0)
    for (int c = 0; c < src.n; c++)
      rw_st (f, (size_t) src.cell[c],
             hard ? (A) s : rw_ld (f, (size_t) src.cell[c]) + (A) (src.weight[c] * s));
  __syncthreads ();
  for (int r = threadIdx.x; r < n_rcv; r += blockDim.x)
    out[(size_t) r * chunk + k] = (double) rw_ld (f, rcv[r]);
}

/* The energy readings' kernels, on both paths (7-point, FCC; the field,
 * the branches, the wall links): each block writes its K partial sums
 * to part[K · blockIdx.x + j] by rw_block_parts (no atomics), and one
 * warp of rw_kernel_sum_parts adds all the parts in order, so that a
 * reading is the same bits from run to run (with atomics they differed in
 * the last bits, as the blocks finished). The sum of p, which feeds the
 * drift removal and so the WAVs, is exact instead (rw_block_exact,
 * rw_kernel_exact_parts): the same bits in any order. Blocks of
 * RW_ENERGY_THREADS, at most RW_ENERGY_BLOCKS a kernel (grid-stride
 * loops). */
#define RW_ENERGY_THREADS 256u
#define RW_ENERGY_BLOCKS 1024u

/* A warp's K sums s, into lane 0's, by a fixed tree of shuffles. */
template <int K>
__device__ __forceinline__ void
rw_warp_sums (double (&s)[K])
{
  for (int o = 16; o > 0; o >>= 1)
#pragma unroll
    for (int j = 0; j < K; j++)
      s[j] += __shfl_down_sync (0xffffffffu, s[j], o);
}

/* A block's K partial sums s (each thread's) to part[K · blockIdx.x + j]:
 * each warp's by shuffles, then the warps' by the first warp, in a fixed
 * order. Every thread of the block calls it (a barrier); blockDim.x a
 * multiple of 32. */
template <int K>
__device__ __forceinline__ void
rw_block_parts (double (&s)[K], double *__restrict__ part)
{
  __shared__ double warps[K][32];
  const unsigned lane = threadIdx.x & 31u, wid = threadIdx.x >> 5;
  rw_warp_sums<K> (s);
  if (lane == 0)
#pragma unroll
    for (int j = 0; j < K; j++)
      warps[j][wid] = s[j];
  __syncthreads ();
  if (wid != 0)
    return;
#pragma unroll
  for (int j = 0; j < K; j++)
    s[j] = lane < (blockDim.x >> 5) ? warps[j][lane] : 0.0;
  rw_warp_sums<K> (s);
  if (lane == 0)
#pragma unroll
    for (int j = 0; j < K; j++)
      part[K * (size_t) blockIdx.x + j] = s[j];
}

/* An energy reading over a list of boundary nodes (the branches of
 * either path, the FCC wall links): a grid-stride loop over nodes[0, n)
 * whose site nd.i lies in the window [i0, i1), part (nd, k) the part of
 * node k, their sum to part as rw_block_parts. */
template <typename N, typename F>
__device__ __forceinline__ void
rw_node_window_energy (const N *__restrict__ nodes, size_t n, size_t i0, size_t i1,
                       double *__restrict__ part, F node_part)
{
  double e = 0.0;
  for (size_t k = blockIdx.x * (size_t) blockDim.x + threadIdx.x; k < n;
       k += (size_t) gridDim.x * blockDim.x)
    {
      const N nd = nodes[k];
      if (nd.i < i0 || nd.i >= i1)
        continue;
      e += node_part (nd, k);
    }
  double s[1] = { e };
  rw_block_parts<1> (s, part);
}

/* The blocks an energy kernel launches over n items (rw_block_parts). */
static inline unsigned
rw_energy_blocks (size_t n)
{
  const size_t b = (n + RW_ENERGY_THREADS - 1) / RW_ENERGY_THREADS;
  return (unsigned) (b < 1 ? 1 : b > RW_ENERGY_BLOCKS ? RW_ENERGY_BLOCKS : b);
}

/* A warp's exact sums s into lane 0's (rw-exact-sum.h: any order, the
 * same bits). */
__device__ __forceinline__ void
rw_warp_exact (RwExactSum &s)
{
  for (int o = 16; o > 0; o >>= 1)
    {
      const RwExactSum t = { __shfl_down_sync (0xffffffffu, s.hi, o),
                             __shfl_down_sync (0xffffffffu, s.lo, o) };
      rw_exact_sum_merge (&s, t);
    }
}

/* A block's exact sums (each thread's s) to xpart[blockIdx.x]. Every
 * thread of the block calls it, and every thread returns from it (call
 * it before rw_block_parts, from which warps other than the first return
 * early); blockDim.x a multiple of 32. */
__device__ __forceinline__ void
rw_block_exact (RwExactSum s, RwExactSum *__restrict__ xpart)
{
  __shared__ RwExactSum warps[32];
  const unsigned lane = threadIdx.x & 31u, wid = threadIdx.x >> 5;
  rw_warp_exact (s);
  if (lane == 0)
    warps[wid] = s;
  __syncthreads ();
  if (wid == 0)
    {
      s = lane < (blockDim.x >> 5) ? warps[lane] : RwExactSum { 0u, 0u };
      rw_warp_exact (s);
      if (lane == 0)
        xpart[blockIdx.x] = s;
    }
}

/* The exact parts xpart[0, n) into *out, by one warp. */
static __global__ void
rw_kernel_exact_parts (const RwExactSum *__restrict__ xpart, size_t n, RwExactSum *__restrict__ out)
{
  RwExactSum s = { 0u, 0u };
  for (size_t k = threadIdx.x; k < n; k += 32)
    rw_exact_sum_merge (&s, xpart[k]);
  rw_warp_exact (s);
  if (threadIdx.x == 0)
    *out = s;
}

/* The parts' sums (above): lane l adds the parts l, l + 32, … in order,
 * then the lanes by a fixed tree, into out[j] (written, not added to:
 * every part of a reading comes through here). */
template <int K>
__global__ void
rw_kernel_sum_parts (const double *__restrict__ part, size_t n_parts, double *__restrict__ out)
{
  double s[K];
#pragma unroll
  for (int j = 0; j < K; j++)
    s[j] = 0.0;
  for (size_t k = threadIdx.x; k < n_parts; k += 32)
#pragma unroll
    for (int j = 0; j < K; j++)
      s[j] += part[k * K + j];
  rw_warp_sums<K> (s);
  if (threadIdx.x == 0)
#pragma unroll
    for (int j = 0; j < K; j++)
      out[j] = s[j];
}

/* The end of a chunk of steps, for both paths of the backend (7-point,
 * FCC): the receivers' samples (n_rcv × chunk, receiver-major on the
 * device) and the first non-finite step are copied back, the stream
 * waited on; a non-finite step fails with RW_ERROR_UNSTABLE; the samples
 * go to rcv[r · stride + first + k]. */
static inline bool
rw_cuda_chunk_end (cudaStream_t stream, size_t n_rcv, size_t chunk, const double *rcv_dev,
                   double *rcv_host, const int *bad_dev, RwPrecision precision, double *rcv,
                   size_t stride, size_t first, RwError *err)
{
  if (n_rcv > 0
      && !RW_CUDA (cudaMemcpyAsync (rcv_host, rcv_dev, n_rcv * chunk * sizeof (double),
                                    cudaMemcpyDeviceToHost, stream)))
    return false;
  int bad;
  if (!RW_CUDA (cudaMemcpyAsync (&bad, bad_dev, sizeof bad, cudaMemcpyDeviceToHost, stream))
      || !RW_CUDA (cudaStreamSynchronize (stream)))
    return false;
  if (bad != INT_MAX)
    return rw_fail (err, RW_ERROR_UNSTABLE,
                    _("the simulation became unstable: non-finite pressure at step %d "
                      "(CUDA backend, %s)"), bad, rw_precision_name (precision));
  if (rcv)
    for (size_t r = 0; r < n_rcv; r++)
      memcpy (rcv + r * stride + first, rcv_host + r * chunk, chunk * sizeof (double));
  return true;
}

/* A device array of n stored values copied to a new host buffer (free
 * it), or NULL with err set. */
static inline void *
rw_cuda_download (cudaStream_t stream, const void *dev, size_t n, size_t elem, RwError *err)
{
  void *tmp = malloc (n * elem);
  if (!tmp)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("out of host memory (%zu bytes)"), n * elem);
      return NULL;
    }
  if (!RW_CUDA (cudaMemcpyAsync (tmp, dev, n * elem, cudaMemcpyDeviceToHost, stream))
      || !RW_CUDA (cudaStreamSynchronize (stream)))
    {
      free (tmp);
      return NULL;
    }
  return tmp;
}

/* Stored value j of a host copy, as double. */
static inline double
rw_stored_value (RwPrecision precision, const void *a, size_t j)
{
  return precision == RW_PRECISION_F64 ? ((const double *) a)[j]
         : precision == RW_PRECISION_F16 ? (double) __half2float (((const __half *) a)[j])
         : (double) ((const float *) a)[j];
}

/* f (S ()) with S the storage type of `precision` (double, __half, float):
 * one launch site per kernel instead of one per precision. */
template <typename F>
static inline void
rw_with_storage (RwPrecision precision, F &&f)
{
  if (precision == RW_PRECISION_F64)
    f (double ());
  else if (precision == RW_PRECISION_F16)
    f (__half ());
  else
    f (float ());
}

/* Launches rw_kernel_io on field f (slot k of a chunk of `chunk` steps):
 * the one launch of both paths (7-point, FCC). */
static inline void
rw_cuda_launch_io (RwPrecision precision, cudaStream_t stream, void *f, const RwCudaSource &src,
                   int hard, double s, const size_t *rcv, int n_rcv, double *out, size_t k,
                   size_t chunk)
{
  const int threads = (int) std::min ((size_t) 256, (((size_t) n_rcv + 31) / 32) * 32 + 32);
  rw_with_storage (precision, [&] (auto tag) {
    typedef decltype (tag) S;
    rw_kernel_io<<<1, threads, 0, stream>>> ((S *) f, src, hard, s, rcv, n_rcv, out, k, chunk);
  });
}

/* What the slab and checkpoint operations (rw-backend.h, "Slabs",
 * "Checkpoints") copy, as both paths (7-point, FCC) describe their state:
 * the current field p, whose planes (z the slowest axis, every stored
 * word of a plane, row padding included) are plane_bytes apart, and the
 * device arrays a run continues from, in order (seg_bytes 0: none). */
#define RW_CUDA_MAX_SEGMENTS 6
struct RwCudaCopyable
{
  int device;
  cudaStream_t stream;
  void *p;
  size_t plane_bytes, nz;
  int n_seg;
  void *seg[RW_CUDA_MAX_SEGMENTS];
  size_t seg_bytes[RW_CUDA_MAX_SEGMENTS];
};

/* A field pair of nz planes: p and p⁻ the first two segments; the caller
 * adds the rest (rw_cuda_copyable_add). */
static inline RwCudaCopyable
rw_cuda_copyable_fields (int device, cudaStream_t stream, void *p, void *q, size_t plane_bytes,
                         size_t nz)
{
  RwCudaCopyable c;
  memset (&c, 0, sizeof c);
  c.device = device;
  c.stream = stream;
  c.p = p;
  c.plane_bytes = plane_bytes;
  c.nz = nz;
  c.n_seg = 2;
  c.seg[0] = p, c.seg_bytes[0] = plane_bytes * nz;
  c.seg[1] = q, c.seg_bytes[1] = plane_bytes * nz;
  return c;
}

static inline void
rw_cuda_copyable_add (RwCudaCopyable &c, void *dev, size_t bytes)
{
  c.seg[c.n_seg] = dev;
  c.seg_bytes[c.n_seg++] = bytes;
}

/* n planes of p from plane z on to buf (to_host) or from it, waited on:
 * the halo exchange reads or reuses buf as soon as this returns. */
static inline bool
rw_cuda_planes_copy (const RwCudaCopyable &c, size_t z, size_t n, void *buf, bool to_host,
                     RwError *err)
{
  if (z > c.nz || n > c.nz - z)
    return rw_fail (err, RW_ERROR_INTERNAL, _("Planes [%zu, %zu) of a grid of %zu"), z, z + n,
                    c.nz);
  if (n == 0)
    return true;
  char *dev = (char *) c.p + z * c.plane_bytes;
  return RW_CUDA (cudaSetDevice (c.device))
         && (to_host ? RW_CUDA (cudaMemcpyAsync (buf, dev, n * c.plane_bytes,
                                                 cudaMemcpyDeviceToHost, c.stream))
                     : RW_CUDA (cudaMemcpyAsync (dev, buf, n * c.plane_bytes,
                                                 cudaMemcpyHostToDevice, c.stream)))
         && RW_CUDA (cudaStreamSynchronize (c.stream));
}

static inline size_t
rw_cuda_state_size (const RwCudaCopyable &c)
{
  size_t b = 0;
  for (int k = 0; k < c.n_seg; k++)
    b += c.seg_bytes[k];
  return b;
}

/* Every segment, in order, to buf (save) or from it. */
static inline bool
rw_cuda_state_copy (const RwCudaCopyable &c, void *buf, bool save, RwError *err)
{
  if (!RW_CUDA (cudaSetDevice (c.device)))
    return false;
  char *h = (char *) buf;
  for (int k = 0; k < c.n_seg; k++)
    {
      if (c.seg_bytes[k] == 0)
        continue;
      if (save ? !RW_CUDA (cudaMemcpyAsync (h, c.seg[k], c.seg_bytes[k], cudaMemcpyDeviceToHost,
                                            c.stream))
               : !RW_CUDA (cudaMemcpyAsync (c.seg[k], h, c.seg_bytes[k], cudaMemcpyHostToDevice,
                                            c.stream)))
        return false;
      h += c.seg_bytes[k];
    }
  return RW_CUDA (cudaStreamSynchronize (c.stream));
}
