/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-cuda-fcc-scalar.cu — the FCC air kernel's scalar form, one site a
 * thread: the production form before rw_kernel_fcc_air_wide
 * (rw-cuda-fcc.cu), kept for benchmarks (ROOMWAVE_FCC_AIR=scalar: what
 * the wide form gains, docs/SOLVER.md §9, "FCC on the GPU"). Its
 * arithmetic is the wide form's: fp64 bit for bit the same. */
#include "rw-cuda-fcc-device.cuh"

/* Interior sites: a register z-march. A block covers bx × by folded
 * columns and a chunk of zc planes of them (blockIdx.z), so that a room
 * has blocks enough to fill the GPU several times over. A thread walks z
 * up its column (xf, y), keeping in registers the values of rows y − 1,
 * y, y + 1 that the next plane needs again, so that each plane loads 6
 * values of p (not 13), its p⁻ and its kind byte. With Y(r, z, o) the
 * value of row (r, z) at folded offset o from xf, and δ_z = −1 (row
 * (y, z) of parity 0) or +1 (parity 1) — a site's dx = ±1 neighbours lie
 * at offsets {0, δ_z} of the rows of the other parity — plane z needs
 *   Y(y±1, z−1, 0), Y(y, z−1, {0, δ}), Y(y±1, z, {0, δ}), Y(y±1, z+1, 0),
 *   Y(y, z+1, {0, δ}) and the centre Y(y, z, 0),
 * and δ flips from plane to plane, so plane z + 1 finds in registers
 * everything but Y(y±1, z+1, δ'), Y(y±1, z+2, 0) and Y(y, z+2, {0, δ'}).
 * Two planes an iteration, all their loads issued first. The sum is taken
 * in RW_FCC_NBR_OFFSETS order, as everywhere. Reads reach two planes
 * past a chunk's last one (rw_fcc_span's guard covers the array's end).
 *   Indices are of type I: 32-bit wherever the arrays have fewer than
 * 2³² entries (ncu: with 64-bit addresses the kernel was bound by integer
 * instructions), 64-bit beyond. */
template <typename A>
struct RwFccCol
{
  A am, ap;          /* Y(y−1, z−1, 0), Y(y+1, z−1, 0) */
  A b0, bd;          /* Y(y, z−1, 0), Y(y, z−1, δ) */
  A cm0, cmd, cp0, cpd; /* Y(y∓1, z, 0 | δ) */
  A dm, dp;          /* Y(y±1, z+1, 0) */
  A e0, ed;          /* Y(y, z+1, 0), Y(y, z+1, δ) */
  A c, x;            /* Y(y, z, 0), Y(y, z, −δ) */
};

template <typename A>
__device__ __forceinline__ A
rw_fcc_col_sum (const RwFccCol<A> &v, bool odd)
{
  /* items 2, 3: dx = −1 at offset P − 1, dx = +1 at P; P = 0: {δ, 0}, P = 1: {0, δ} */
  A s = v.am;
  s += v.ap;
  s += odd ? v.b0 : v.bd;
  s += odd ? v.bd : v.b0;
  s += odd ? v.cm0 : v.cmd;
  s += odd ? v.cmd : v.cm0;
  s += odd ? v.cp0 : v.cpd;
  s += odd ? v.cpd : v.cp0;
  s += v.dm;
  s += v.dp;
  s += odd ? v.e0 : v.ed;
  s += odd ? v.ed : v.e0;
  return s;
}

/* The loads that move the column from plane z to z + 1 (i: the site at
 * z; nd = δ_{z+1} = −δ_z). */
template <typename S, typename I>
__device__ __forceinline__ void
rw_fcc_col_load (const S *__restrict__ p, I i, I nd, I sy, I sz, typename RwArith<S>::type out[6])
{
  const I j = i + sz;   /* the site at z + 1 */
  out[0] = rw_ldg (p, j - sy + nd);
  out[1] = rw_ldg (p, j + sy + nd);
  out[2] = rw_ldg (p, j - sy + sz);
  out[3] = rw_ldg (p, j + sy + sz);
  out[4] = rw_ldg (p, j + sz);
  out[5] = rw_ldg (p, j + sz + nd);
}

template <typename A>
__device__ __forceinline__ void
rw_fcc_col_shift (RwFccCol<A> &v, const A in[6])
{
  v.am = v.cm0, v.ap = v.cp0;
  v.b0 = v.c, v.bd = v.x;
  v.c = v.e0, v.x = v.ed;
  v.cm0 = v.dm, v.cp0 = v.dp;
  v.cmd = in[0], v.cpd = in[1];
  v.dm = in[2], v.dp = in[3];
  v.e0 = in[4], v.ed = in[5];
}

template <typename S, typename I>
__global__ void __launch_bounds__ (RW_FCC_MAX_THREADS)
rw_kernel_fcc_air (const S *__restrict__ p, S *__restrict__ q, const uint8_t *__restrict__ kind,
                   const uint2 *__restrict__ zr, unsigned zc, unsigned cz0, unsigned zlo,
                   unsigned zhi, I pitch, I ny, int step, int *bad)
{
  typedef typename RwArith<S>::type A;
  const unsigned xf = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  uint2 r = zr[blockIdx.x + gridDim.x * blockIdx.y];
  /* this block's chunk of planes: cz0 + blockIdx.z, within [zlo, zhi)
   * (a slab's windows and interior, rw-cuda-halo.cuh) */
  const unsigned cz = cz0 + blockIdx.z;
  r.x = max (r.x, max (cz * zc, zlo));
  r.y = min (r.y, min ((cz + 1) * zc, zhi));
  if (xf >= pitch || y == 0 || y + 1 >= ny || r.x >= r.y)
    return;
  const I sy = pitch, sz = pitch * ny;
  unsigned z = r.x;
  I i = (I) xf + pitch * ((I) y + ny * (I) z);
  bool odd = ((y + z) & 1) != 0;
  I d = odd ? (I) 1 : (I) -1;
  RwFccCol<A> v;
  v.am = rw_ldg (p, i - sy - sz), v.ap = rw_ldg (p, i + sy - sz);
  v.b0 = rw_ldg (p, i - sz), v.bd = rw_ldg (p, i - sz + d);
  v.cm0 = rw_ldg (p, i - sy), v.cmd = rw_ldg (p, i - sy + d);
  v.cp0 = rw_ldg (p, i + sy), v.cpd = rw_ldg (p, i + sy + d);
  v.dm = rw_ldg (p, i - sy + sz), v.dp = rw_ldg (p, i + sy + sz);
  v.e0 = rw_ldg (p, i + sz), v.ed = rw_ldg (p, i + sz + d);
  v.c = rw_ldg (p, i), v.x = rw_ldg (p, i - d);
  bool fine = true;
  for (; z < r.y; z += 2)
    {
      /* every load of planes z and z + 1 first */
      const bool in1 = z + 1 < r.y;
      A n0[6], n1[6];
      rw_fcc_col_load (p, i, -d, sy, sz, n0);
      rw_fcc_col_load (p, i + sz, d, sy, sz, n1);
      const uint8_t k0 = __ldg (kind + i), k1 = in1 ? __ldg (kind + i + sz) : 0;
      const A pp0 = rw_ld (q, i), pp1 = rw_ld (q, i + sz);
      if (k0 == 1)
        {
          const A out = rw_fcc_air (v.c, rw_fcc_col_sum (v, odd), pp0);
          rw_st (q, i, out);
          fine = fine && rw_stored_finite (out, q);
        }
      rw_fcc_col_shift (v, n0);
      if (k1 == 1)
        {
          const A out = rw_fcc_air (v.c, rw_fcc_col_sum (v, !odd), pp1);
          rw_st (q, i + sz, out);
          fine = fine && rw_stored_finite (out, q);
        }
      rw_fcc_col_shift (v, n1);
      i += 2 * sz;
    }
  if (!fine)
    atomicMin (bad, step);
}

template <typename S, typename I>
void
rw_fcc_air_scalar_launch (dim3 grd, dim3 blk, cudaStream_t stream, const S *p, S *q,
                          const uint8_t *kind, const uint2 *zr, unsigned zc, unsigned cz0,
                          unsigned zlo, unsigned zhi, I pitch, I ny, int step, int *bad)
{
  rw_kernel_fcc_air<S, I><<<grd, blk, 0, stream>>> (p, q, kind, zr, zc, cz0, zlo, zhi, pitch, ny,
                                                    step, bad);
}

#define RW_FCC_SCALAR(S, I)                                                                   \
  template void rw_fcc_air_scalar_launch<S, I> (dim3, dim3, cudaStream_t, const S *, S *,     \
                                                const uint8_t *, const uint2 *, unsigned,     \
                                                unsigned, unsigned, unsigned, I, I, int, int *);
RW_FCC_SCALAR (float, unsigned)
RW_FCC_SCALAR (float, size_t)
RW_FCC_SCALAR (double, unsigned)
RW_FCC_SCALAR (double, size_t)
RW_FCC_SCALAR (__half, unsigned)
RW_FCC_SCALAR (__half, size_t)
