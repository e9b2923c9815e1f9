/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-cuda-vec.cuh — vector loads and stores of the z-march kernels: a
 * group of W cells of a row in one 8- or 16-byte access (fp16 packed and
 * unpacked to float arithmetic), the evict-first (streaming) forms, the
 * cell bytes of a group in one load, and RwStored, what a thread stored
 * for the one non-finite test at its end. Device code only; shared by the
 * production kernels (rw-cuda-backend.cu) and the experimental variants
 * (rw-cuda-variants.cu).
 */
#pragma once

#include "rw-cuda-state.cuh"

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

/* One half of a word of two, to fp32 (rw_h2_to_f2's way, one conversion). */
__device__ __forceinline__ float
rw_h_lo (unsigned w)
{
  float f;
  asm ("{.reg .f16 l, h;\n\tmov.b32 {l, h}, %1;\n\tcvt.f32.f16 %0, l;}" : "=f"(f) : "r"(w));
  return f;
}

__device__ __forceinline__ float
rw_h_hi (unsigned w)
{
  float f;
  asm ("{.reg .f16 l, h;\n\tmov.b32 {l, h}, %1;\n\tcvt.f32.f16 %0, h;}" : "=f"(f) : "r"(w));
  return f;
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
