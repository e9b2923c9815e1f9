/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-cuda-bench.cu — the six strategies of seeds/fdtd-cuda-six-strategies.txt
 * (§4.1 tiling, §4.2 slicing, their Tables 1 and 2), the production
 * kernel beside them, and the copy-bandwidth roofline.
 *
 * Every strategy computes the same FV update (rw_node_update, fp32) from the
 * same cell bytes, so each final field is compared with the production
 * kernel's: they differ at most by rounding (contractions into FMAs may
 * differ). The strategies launch every tile of the bounding box, as the
 * paper does for its box; only the production kernel skips empty tiles and
 * the cells outside each column's range.
 */
#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>
#include <vector>

#include "rw-cuda-state.cuh"

const char *const rw_cuda_kernel_names[RW_CUDA_N_KERNELS] = {
  "tiled-global", "tiled-shared", "naive-sliced", "shared-texture",
  "shared-global", "pure-texture", "production",
};

double
rw_cuda_roofline_bytes (RwPrecision precision)
{
  return precision == RW_PRECISION_F64 ? 24.0 : precision == RW_PRECISION_F16 ? 6.0 : 12.0;
}

/* --------------------------------------------------------- strategies */

/* 1. Tiled global (§4.1): one thread per cell, the volume flattened into a
 * 1-D tiling of the (x, y·z) plane, y = r mod ny and z = r / ny per thread;
 * all six neighbours from global memory.
 * Bytes per cell: 12 B + cell byte, plus the neighbours the caches miss
 * (the ±z neighbours are in other tiles: up to 2 more reads of p). */
__global__ void
rw_k_tiled_global (const float *p, float *q, const uint8_t *cell, int nx, int ny, int nz,
                   RwSlotTable slots)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const long long rows = (long long) ny * nz;
  const size_t sz = (size_t) nx * ny;
  for (long long r = (long long) blockIdx.y * blockDim.y + threadIdx.y; r < rows;
       r += (long long) gridDim.y * blockDim.y)
    {
      const int y = (int) (r % ny), z = (int) (r / ny);
      if (x >= nx)
        continue;
      const size_t i = x + (size_t) nx * (y + (size_t) ny * z);
      const uint8_t c = cell[i];
      if (RW_CELL_K (c) == 0)
        continue;
      q[i] = rw_node_update<RW_BOUNDARY_FV, float> (c, p[i], p[i - 1], p[i + 1], p[i - nx],
                                                    p[i + nx], p[i - sz], p[i + sz], q[i],
                                                    slots, cell, i, 1, nx, sz);
    }
}

/* 2. Tiled shared (§4.1): as 1, with the block's tile of p staged in shared
 * memory; inner threads take their x/y neighbours from it, threads on the
 * tile's edge read the missing one from global memory; ±z from global.
 * Bytes per cell: as 1. */
__global__ void
rw_k_tiled_shared (const float *p, float *q, const uint8_t *cell, int nx, int ny, int nz,
                   RwSlotTable slots)
{
  extern __shared__ float tile[];
  const int bx = blockDim.x, by = blockDim.y, tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x * bx + tx;
  const long long rows = (long long) ny * nz;
  const size_t sz = (size_t) nx * ny;
  for (long long rb = (long long) blockIdx.y * by; rb < rows; rb += (long long) gridDim.y * by)
    {
      const long long r = rb + ty;
      const bool valid = x < nx && r < rows;
      const int y = valid ? (int) (r % ny) : 0, z = valid ? (int) (r / ny) : 0;
      const size_t i = valid ? x + (size_t) nx * (y + (size_t) ny * z) : 0;
      const float centre = valid ? p[i] : 0.0f;
      tile[ty * bx + tx] = centre;
      __syncthreads ();
      if (valid)
        {
          const uint8_t c = cell[i];
          /* inside cells have 1 ≤ y ≤ ny − 2, so rows r ± 1 of the tile are
           * y ± 1 of the same z */
          if (RW_CELL_K (c) != 0)
            {
              const float xm = tx > 0 ? tile[ty * bx + tx - 1] : p[i - 1];
              const float xp = tx < bx - 1 ? tile[ty * bx + tx + 1] : p[i + 1];
              const float ym = ty > 0 ? tile[(ty - 1) * bx + tx] : p[i - nx];
              const float yp = ty < by - 1 ? tile[(ty + 1) * bx + tx] : p[i + nx];
              q[i] = rw_node_update<RW_BOUNDARY_FV, float> (c, centre, xm, xp, ym, yp, p[i - sz],
                                                            p[i + sz], q[i], slots, cell, i, 1,
                                                            nx, sz);
            }
        }
      __syncthreads ();
    }
}

/* 3. Naive sliced (§4.2.1): thread per column, z-march over the whole
 * height with below/centre/above in registers; x/y neighbours by plain
 * global loads (no read-only path: the pointers are not restrict).
 * Bytes per cell: 12 B + cell byte; x/y neighbours are L1/L2 hits. */
__global__ void
rw_k_naive_sliced (const float *p, float *q, const uint8_t *cell, int nx, int ny, int nz,
                   RwSlotTable slots)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= nx || y >= ny)
    return;
  const size_t sz = (size_t) nx * ny;
  size_t i = x + (size_t) nx * y + sz;
  float below = p[i - sz], centre = p[i];
  for (int z = 1; z < nz - 1; z++, i += sz)
    {
      const float above = p[i + sz];
      const uint8_t c = cell[i];
      if (RW_CELL_K (c) != 0)
        q[i] = rw_node_update<RW_BOUNDARY_FV, float> (c, centre, p[i - 1], p[i + 1], p[i - nx],
                                                      p[i + nx], below, above, q[i], slots,
                                                      cell, i, 1, nx, sz);
      below = centre;
      centre = above;
    }
}

/* 4 and 5. Shared + texture / shared + global (§4.2.3): the z-march of 3,
 * with the current slice of the block staged in shared memory so that
 * x/y neighbours inside the block come from it; the ones outside the block
 * (edge threads) and the value above come through a texture object (4) or
 * global memory (5). Two barriers per slice.
 * Bytes per cell: 12 B + cell byte. */
template <bool TEX>
__global__ void
rw_k_shared_sliced (const float *p, float *q, const uint8_t *cell, int nx, int ny, int nz,
                    RwSlotTable slots, cudaTextureObject_t tex)
{
  extern __shared__ float slice[];
  const int bx = blockDim.x, by = blockDim.y, tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x * bx + tx, y = blockIdx.y * by + ty;
  const bool valid = x < nx && y < ny;
  const size_t sz = (size_t) nx * ny;
  size_t i = valid ? x + (size_t) nx * y + sz : sz;
#define RW_FETCH(k) (TEX ? tex1Dfetch<float> (tex, (int) (k)) : p[k])
  float below = valid ? RW_FETCH (i - sz) : 0.0f, centre = valid ? RW_FETCH (i) : 0.0f;
  for (int z = 1; z < nz - 1; z++, i += sz)
    {
      const float above = valid ? RW_FETCH (i + sz) : 0.0f;
      __syncthreads ();
      slice[ty * bx + tx] = centre;
      __syncthreads ();
      if (valid)
        {
          const uint8_t c = cell[i];
          if (RW_CELL_K (c) != 0)
            {
              const float xm = tx > 0 ? slice[ty * bx + tx - 1] : RW_FETCH (i - 1);
              const float xp = tx < bx - 1 ? slice[ty * bx + tx + 1] : RW_FETCH (i + 1);
              const float ym = ty > 0 ? slice[(ty - 1) * bx + tx] : RW_FETCH (i - nx);
              const float yp = ty < by - 1 ? slice[(ty + 1) * bx + tx] : RW_FETCH (i + nx);
              q[i] = rw_node_update<RW_BOUNDARY_FV, float> (c, centre, xm, xp, ym, yp, below,
                                                            above, q[i], slots, cell, i, 1, nx,
                                                            sz);
            }
        }
      below = centre;
      centre = above;
    }
#undef RW_FETCH
}

/* 6. Pure texture fetching (§4.2.2): the z-march of 3 with every read of
 * p (x/y neighbours and the value above) through a texture object, the
 * 2-D-local cache the paper credits for its Tesla win; today the texture
 * path and __ldg share the L1/read-only cache. Bytes per cell: as 3. */
__global__ void
rw_k_pure_texture (float *q, const uint8_t *cell, int nx, int ny, int nz, RwSlotTable slots,
                   cudaTextureObject_t tex)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= nx || y >= ny)
    return;
  const size_t sz = (size_t) nx * ny;
  size_t i = x + (size_t) nx * y + sz;
  float below = tex1Dfetch<float> (tex, (int) (i - sz)), centre = tex1Dfetch<float> (tex, (int) i);
  for (int z = 1; z < nz - 1; z++, i += sz)
    {
      const float above = tex1Dfetch<float> (tex, (int) (i + sz));
      const uint8_t c = cell[i];
      if (RW_CELL_K (c) != 0)
        q[i] = rw_node_update<RW_BOUNDARY_FV, float> (
            c, centre, tex1Dfetch<float> (tex, (int) (i - 1)), tex1Dfetch<float> (tex, (int) (i + 1)),
            tex1Dfetch<float> (tex, (int) (i - nx)), tex1Dfetch<float> (tex, (int) (i + nx)),
            below, above, q[i], slots, cell, i, 1, nx, sz);
      below = centre;
      centre = above;
    }
}

/* ------------------------------------------------------------ helpers */

__device__ __forceinline__ uint32_t
rw_hash (uint64_t k)
{
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return (uint32_t) k;
}

/* Pseudo-random field in [−1, 1] on inside cells, 0 outside (never time
 * on zeros: they hide unwritten cells). */
template <typename S>
__global__ void
rw_k_init (S *p, S *q, const uint8_t *__restrict__ cell, size_t n, uint32_t seed)
{
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n;
       i += (size_t) gridDim.x * blockDim.x)
    {
      const bool in = RW_CELL_K (cell[i]) != 0;
      const float a = rw_hash (2 * i + seed) * (2.0f / 4294967296.0f) - 1.0f;
      const float b = rw_hash (2 * i + 1 + seed) * (2.0f / 4294967296.0f) - 1.0f;
      rw_st (p, i, in ? a : 0.0f);
      rw_st (q, i, in ? b : 0.0f);
    }
}

/* max |a − b| as float bits (non-negative floats order as unsigned; NaN
 * sorts above infinity, so it shows). */
template <typename S>
__global__ void
rw_k_maxdiff (const S *__restrict__ a, const S *__restrict__ b, size_t n, unsigned *out)
{
  float m = 0.0f;
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n;
       i += (size_t) gridDim.x * blockDim.x)
    {
      const float d = fabsf ((float) ((double) rw_ld (a, i) - (double) rw_ld (b, i)));
      m = (d != d) ? __int_as_float (0x7fc00000) : fmaxf (m, d);
      if (d != d)
        break;
    }
  atomicMax (out, __float_as_uint (m));
}

extern "C" bool
rw_cuda_device_info (int device, size_t copy_bytes, RwCudaDeviceInfo *info, RwError *err)
{
  cudaDeviceProp prop;
  if (!RW_CUDA (cudaSetDevice (device)) || !RW_CUDA (cudaGetDeviceProperties (&prop, device))
      || !RW_CUDA (cudaMemGetInfo (&info->free_bytes, &info->total_bytes)))
    return false;
  snprintf (info->device, sizeof info->device, "%s", prop.name);
  if (copy_bytes == 0)
    copy_bytes = std::min ((size_t) 2 << 30, info->free_bytes / 4);
  void *a = NULL, *b = NULL;
  cudaEvent_t e0 = NULL, e1 = NULL;
  float best = 1e30f;
  bool ok = RW_CUDA (cudaMalloc (&a, copy_bytes)) && RW_CUDA (cudaMalloc (&b, copy_bytes))
            && RW_CUDA (cudaMemset (a, 0x5a, copy_bytes)) && RW_CUDA (cudaEventCreate (&e0))
            && RW_CUDA (cudaEventCreate (&e1));
  for (int r = 0; ok && r < 12; r++)
    {
      float ms;
      ok = RW_CUDA (cudaEventRecord (e0)) && RW_CUDA (cudaMemcpy (b, a, copy_bytes,
                                                                  cudaMemcpyDeviceToDevice))
           && RW_CUDA (cudaEventRecord (e1)) && RW_CUDA (cudaEventSynchronize (e1))
           && RW_CUDA (cudaEventElapsedTime (&ms, e0, e1));
      if (ok && r > 1)   /* two warm-ups */
        best = std::min (best, ms);
    }
  info->copy_bytes_per_s = ok ? 2.0 * copy_bytes / (best * 1e-3) : 0.0;
  cudaFree (a);
  cudaFree (b);
  rw_cuda_event_free (&e0);
  rw_cuda_event_free (&e1);
  return ok;
}

/* ------------------------------------------------------------- runner */

enum { RW_K_TILED_GLOBAL, RW_K_TILED_SHARED, RW_K_NAIVE, RW_K_SHARED_TEX, RW_K_SHARED_GLOBAL,
       RW_K_PURE_TEX, RW_K_PRODUCTION };

static int
rw_kernel_index (const char *name)
{
  for (int k = 0; k < RW_CUDA_N_KERNELS; k++)
    if (strcmp (name, rw_cuda_kernel_names[k]) == 0)
      return k;
  return -1;
}

static const void *
rw_strategy_func (int k)
{
  switch (k)
    {
    case RW_K_TILED_GLOBAL: return (const void *) rw_k_tiled_global;
    case RW_K_TILED_SHARED: return (const void *) rw_k_tiled_shared;
    case RW_K_NAIVE: return (const void *) rw_k_naive_sliced;
    case RW_K_SHARED_TEX: return (const void *) rw_k_shared_sliced<true>;
    case RW_K_SHARED_GLOBAL: return (const void *) rw_k_shared_sliced<false>;
    case RW_K_PURE_TEX: return (const void *) rw_k_pure_texture;
    default: return NULL;
    }
}

/* One step of strategy k (reads st->p, writes st->q); texp is the texture
 * over st->p. */
static void
rw_strategy_step (RwCudaState *st, int k, int bx, int by, cudaTextureObject_t texp)
{
  const int nx = (int) st->nx, ny = (int) st->ny, nz = (int) st->nz;
  const float *p = (const float *) st->p;
  float *q = (float *) st->q;
  const dim3 block (bx, by);
  const dim3 cols ((nx + bx - 1) / bx, (ny + by - 1) / by);
  const size_t shm = (size_t) bx * by * sizeof (float);
  if (k == RW_K_TILED_GLOBAL || k == RW_K_TILED_SHARED)
    {
      const long long rows = (long long) ny * nz;
      const dim3 tiles ((nx + bx - 1) / bx, (unsigned) std::min ((rows + by - 1) / by, 65535LL));
      if (k == RW_K_TILED_GLOBAL)
        rw_k_tiled_global<<<tiles, block, 0, st->stream>>> (p, q, st->cell, nx, ny, nz, st->slots);
      else
        rw_k_tiled_shared<<<tiles, block, shm, st->stream>>> (p, q, st->cell, nx, ny, nz, st->slots);
    }
  else if (k == RW_K_NAIVE)
    rw_k_naive_sliced<<<cols, block, 0, st->stream>>> (p, q, st->cell, nx, ny, nz, st->slots);
  else if (k == RW_K_SHARED_TEX)
    rw_k_shared_sliced<true><<<cols, block, shm, st->stream>>> (p, q, st->cell, nx, ny, nz,
                                                               st->slots, texp);
  else if (k == RW_K_SHARED_GLOBAL)
    rw_k_shared_sliced<false><<<cols, block, shm, st->stream>>> (p, q, st->cell, nx, ny, nz,
                                                                st->slots, texp);
  else if (k == RW_K_PURE_TEX)
    rw_k_pure_texture<<<cols, block, 0, st->stream>>> (q, st->cell, nx, ny, nz, st->slots, texp);
  else
    rw_cuda_launch_step (st, 0);
}

static bool
rw_make_texture (void *buf, size_t n, cudaTextureObject_t *tex, RwError *err)
{
  cudaResourceDesc res;
  memset (&res, 0, sizeof res);
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = buf;
  res.res.linear.desc = cudaCreateChannelDesc<float> ();
  res.res.linear.sizeInBytes = n * sizeof (float);
  cudaTextureDesc td;
  memset (&td, 0, sizeof td);
  td.readMode = cudaReadModeElementType;
  return RW_CUDA (cudaCreateTextureObject (tex, &res, &td, NULL));
}

static void
rw_init_field (RwCudaState *st)
{
  const unsigned blocks = 132 * 16;
  if (st->precision == RW_PRECISION_F64)
    rw_k_init<<<blocks, 256, 0, st->stream>>> ((double *) st->p, (double *) st->q, st->cell, st->n, 12345u);
  else if (st->precision == RW_PRECISION_F16)
    rw_k_init<<<blocks, 256, 0, st->stream>>> ((__half *) st->p, (__half *) st->q, st->cell, st->n, 12345u);
  else
    rw_k_init<<<blocks, 256, 0, st->stream>>> ((float *) st->p, (float *) st->q, st->cell, st->n, 12345u);
}

extern "C" bool
rw_cuda_bench (const RwGrid *g, const double *surface_R, const RwAdmittance *surface_Y,
               double time_step_s, RwPrecision precision,
               const char *const *kernels, size_t n_kernels, int block_x, int block_y,
               int steps, double copy_bytes_per_s, RwCudaBenchRow *rows, RwError *err)
{
  if (steps < 1)
    return rw_fail (err, RW_ERROR_INPUT, _("steps must be at least 1"));
  for (size_t r = 0; r < n_kernels; r++)
    if (rw_kernel_index (kernels[r]) < 0)
      return rw_fail (err, RW_ERROR_INPUT, _("unknown kernel “%s”"), kernels[r]);
  RwSolverSetup setup;
  memset (&setup, 0, sizeof setup);
  setup.grid = g;
  setup.surface_R = surface_R;
  setup.surface_Y = surface_Y;
  setup.time_step_s = time_step_s;
  setup.boundary = RW_BOUNDARY_FV;
  setup.precision = precision;
  setup.block_x = block_x;
  setup.block_y = block_y;
  /* the device rw_cuda_device_info opened (0 unless it chose another) */
  if (!RW_CUDA (cudaGetDevice (&setup.device)))
    return false;
  RwCudaState *st = (RwCudaState *) rw_cuda_backend ()->create (&setup, err);
  if (!st)
    return false;
  /* at a given block shape the production kernel runs single steps of
   * that shape (the seed's tables compare one step at 16×16 and 32×8);
   * the two-step passes have their own shape */
  if (block_x > 0)
    st->tb = false;
  const int bx = block_x > 0 ? block_x : 32, by = block_y > 0 ? block_y : 8;
  void *ref = NULL;
  unsigned *dmax = NULL;
  cudaTextureObject_t tex[2] = { 0, 0 };
  std::vector<cudaEvent_t> ev (steps + 1, (cudaEvent_t) NULL);
  int tex_max = 0;
  bool ok = RW_CUDA (cudaDeviceGetAttribute (&tex_max, cudaDevAttrMaxTexture1DLinearWidth, 0))
            && RW_CUDA (cudaMalloc (&ref, st->n * st->elem))
            && RW_CUDA (cudaMalloc ((void **) &dmax, sizeof (unsigned)));
  for (int e = 0; ok && e <= steps; e++)
    ok = RW_CUDA (cudaEventCreate (&ev[e]));
  const bool tex_fits = st->n <= (size_t) tex_max;
  if (ok && precision == RW_PRECISION_F32 && tex_fits)
    ok = rw_make_texture (st->p, st->n, &tex[0], err) && rw_make_texture (st->q, st->n, &tex[1], err);

  /* production first: its final field is the reference */
  std::vector<int> order;
  order.push_back (RW_K_PRODUCTION);
  for (int k = 0; k < RW_K_PRODUCTION; k++)
    order.push_back (k);
  for (int k : order)
    {
      if (!ok)
        break;
      RwCudaBenchRow *row = NULL;
      for (size_t r = 0; r < n_kernels; r++)
        if (rw_kernel_index (kernels[r]) == k)
          row = &rows[r];
      if (!row && k != RW_K_PRODUCTION)
        continue;
      RwCudaBenchRow scratch;
      if (!row)
        row = &scratch;
      memset (row, 0, sizeof *row);
      snprintf (row->kernel, sizeof row->kernel, "%s", rw_cuda_kernel_names[k]);
      row->block_x = k == RW_K_PRODUCTION ? (st->tb ? 32 : st->bx) : bx;
      row->block_y = k == RW_K_PRODUCTION ? (st->tb ? RW_TB_BY : st->by) : by;
      row->steps_per_pass = k == RW_K_PRODUCTION && st->tb ? 2 : 1;
      if (k != RW_K_PRODUCTION && precision != RW_PRECISION_F32)
        {
          snprintf (row->why, sizeof row->why, "%s", _("fp32 only, as in the paper"));
          continue;
        }
      if ((k == RW_K_SHARED_TEX || k == RW_K_PURE_TEX) && !tex_fits)
        {
          snprintf (row->why, sizeof row->why, _("%zu cells exceed the %d of a 1-D texture"),
                    st->n, tex_max);
          continue;
        }
      cudaFuncAttributes attr;
      const void *func = k == RW_K_PRODUCTION ? NULL : rw_strategy_func (k);
      if (func)
        {
          if (!(ok = RW_CUDA (cudaFuncGetAttributes (&attr, func))))
            break;
          row->registers = attr.numRegs;
        }
      /* every run starts from the same field in the same arrays */
      rw_cuda_home_fields (st);
      rw_init_field (st);
      int parity = 0;
      /* variant 13 advances two steps a pass: an event every other step */
      const int per = k == RW_K_PRODUCTION && st->tb ? 2 : 1;
      for (int s = 0; s < 2 + steps; s += per)
        {
          if (s >= 2)
            cudaEventRecord (ev[s - 2], st->stream);
          if (per == 2)
            rw_cuda_pass_steps (st);
          else
            {
              rw_strategy_step (st, k, bx, by, tex[parity]);
              std::swap (st->p, st->q);
              parity ^= 1;
            }
        }
      cudaEventRecord (ev[steps], st->stream);
      if (!(ok = RW_CUDA (cudaGetLastError ()) && RW_CUDA (cudaEventSynchronize (ev[steps]))))
        break;
      std::vector<float> ms (steps);
      for (int s = 0; s < steps && ok; s += per)
        {
          ok = RW_CUDA (cudaEventElapsedTime (&ms[s], ev[s], ev[std::min (s + per, steps)]));
          ms[s] /= (float) per;
          if (per == 2 && s + 1 < steps)
            ms[s + 1] = ms[s];
        }
      if (!ok)
        break;
      std::sort (ms.begin (), ms.end ());
      row->ms_per_step = ms[steps / 2];
      row->gvox_per_s = st->n_inside / (row->ms_per_step * 1e-3) / 1e9;
      const double roof = copy_bytes_per_s / rw_cuda_roofline_bytes (precision) / 1e9;
      row->roofline_fraction = roof > 0 ? row->gvox_per_s / roof : 0.0;
      if (k == RW_K_PRODUCTION)
        ok = RW_CUDA (cudaMemcpyAsync (ref, st->p, st->n * st->elem, cudaMemcpyDeviceToDevice,
                                       st->stream));
      else
        {
          const unsigned zero = 0;
          unsigned m;
          ok = RW_CUDA (cudaMemcpyAsync (dmax, &zero, sizeof zero, cudaMemcpyHostToDevice, st->stream));
          if (ok)
            rw_k_maxdiff<<<264, 256, 0, st->stream>>> ((const float *) ref, (const float *) st->p,
                                                        st->n, dmax);
          ok = ok && RW_CUDA (cudaGetLastError ())
               && RW_CUDA (cudaMemcpyAsync (&m, dmax, sizeof m, cudaMemcpyDeviceToHost, st->stream))
               && RW_CUDA (cudaStreamSynchronize (st->stream));
          float f;
          memcpy (&f, &m, sizeof f);
          row->max_diff = f;
        }
      row->ran = ok;
    }
  /* registers of the production kernel, from the table the backend uses */
  for (size_t r = 0; ok && r < n_kernels; r++)
    if (rw_kernel_index (kernels[r]) == RW_K_PRODUCTION)
      {
        cudaFuncAttributes attr;
        ok = RW_CUDA (cudaFuncGetAttributes (&attr, st->tb ? rw_cuda_tb_func (precision, RW_BOUNDARY_FV)
                                                           : rw_cuda_production_func (precision,
                                                                                      RW_BOUNDARY_FV)));
        rows[r].registers = attr.numRegs;
      }
  for (int e = 0; e <= steps; e++)
    rw_cuda_event_free (&ev[e]);
  if (tex[0])
    cudaDestroyTextureObject (tex[0]);
  if (tex[1])
    cudaDestroyTextureObject (tex[1]);
  cudaFree (ref);
  cudaFree (dmax);
  rw_cuda_backend ()->destroy (st);
  return ok;
}
