// SPDX-License-Identifier: GPL-3.0-or-later
/* copy-ceiling — how fast the SMs themselves copy, against cudaMemcpy:
 * the roofline's copy of 2 GiB (rw_cuda_device_info, as every benchmark
 * measures it), then copy kernels of float4s on 2 GiB (U at a time a
 * thread, threads taking them in turn over a grid, or a block per 1024
 * of them), each the best of 6 timed runs after 2 warm-ups; bytes read +
 * written a second, and each kernel's fraction of cudaMemcpy's rate.
 * tests/gpu/run.sh fabric runs it under ncu (the DRAM's and the L2
 * fabric's throughput; docs/PERFORMANCE.md, "…, eleventh"). A benchmark:
 * it checks nothing but that the copies are right. */
#include <cstdio>
#include <cstdlib>

/* rw-cuda.h as the CUDA files include it (atomic_int) */
#include "../../kernels/rw-cuda-common.cuh"

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
  cudaFree (a);
  cudaFree (b);
  return bad != 0;
}
