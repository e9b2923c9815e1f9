/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-cuda-fcc-wide.cuh — the register z-march of the FCC air kernels
 * (rw-cuda-fcc.cu: single steps; rw-cuda-fcc-tb.cu: two steps a pass):
 * a warp a segment of 32·W entries of a row, each thread W adjacent
 * entries, the rows it needs again kept in registers. Device code only. */
#pragma once

#include <type_traits>

#include "rw-cuda-common.cuh"
#include "rw-cuda-vec.cuh"
#include "rw-cuda-fcc-device.cuh"

/* The 12 neighbours of the site at c (a row of parity P), summed in
 * RW_FCC_NBR_OFFSETS order in the arithmetic type. */
template <typename S>
__device__ __forceinline__ typename RwArith<S>::type
rw_fcc_sum (const S *__restrict__ c, int P, int sy, int sz)
{
  typedef typename RwArith<S>::type A;
  const S *m = c + (P - 1), *pl = c + P;
  A s = rw_ldg (c + (-sy - sz), 0);
  s += rw_ldg (c + (sy - sz), 0);
  s += rw_ldg (m + (-sz), 0);
  s += rw_ldg (pl + (-sz), 0);
  s += rw_ldg (m + (-sy), 0);
  s += rw_ldg (pl + (-sy), 0);
  s += rw_ldg (m + (sy), 0);
  s += rw_ldg (pl + (sy), 0);
  s += rw_ldg (c + (sz - sy), 0);
  s += rw_ldg (c + (sy + sz), 0);
  s += rw_ldg (m + (sz), 0);
  s += rw_ldg (pl + (sz), 0);
  return s;
}

/* … and in the split sums' grouping (RwFccSplit says why), as the air
 * kernels add them when they take the split sums (the source's cells of
 * the two-step passes): offset 0 of the site's rows and δ = 2P − 1, the
 * other parity's x ± 1. U(z − 1) from rows y ∓ 1 of plane z − 1 at
 * offset 0 and row y there at 0 and δ; M(z) from rows y ∓ 1 of plane z
 * at 0 and at δ; U(z + 1) as U(z − 1); Σ = (U(z − 1) + M(z)) + U(z + 1).
 * The split column adds the same (rw_fcc_split_plane, _update), each
 * plane's pair of rows y ∓ 1 kept for its two uses. */
template <typename S>
__device__ __forceinline__ typename RwArith<S>::type
rw_fcc_sum_split (const S *__restrict__ c, int P, int sy, int sz)
{
  typedef typename RwArith<S>::type A;
  const int d = 2 * P - 1;
  const auto ld = [c] (int o) { return (A) rw_ldg (c + o, 0); };
  const A u = (ld (-sy - sz) + ld (sy - sz)) + (ld (-sz) + ld (d - sz));
  const A m = (ld (-sy) + ld (sy)) + (ld (d - sy) + ld (d + sy));
  const A v = (ld (sz - sy) + ld (sz + sy)) + (ld (sz) + ld (d + sz));
  return (u + m) + v;
}

/* Interior sites, the wide form (production): as the register z-march
 * of the scalar form (rw-cuda-fcc-scalar.cu), but a thread updates W
 * adjacent folded entries of its row (W = 4 in fp32 and fp16, 2 in
 * fp64), so that a row of a plane is one 16-byte
 * (fp16: 8-byte) load instead of W, and the kind bytes of the W sites one
 * word: the scalar form was bound by its load and integer instructions
 * (the L2 busy re-serving each row to three threads, 0.3–0.6 of the
 * roofline), the 7-point kernel reached 0.85–0.94 with this width
 * (rw-cuda-march.cuh). A row's value at folded offset δ = ±1 from the
 * thread's W entries is the same W values shifted by one: W − 1 of them
 * are the thread's own registers, the one at the end its neighbour lane's
 * (a warp shuffle; the warp's first or last lane loads it), so each plane
 * loads 3 vectors of p (rows y ± 1 and y two planes up), its p⁻ and its
 * kinds. δ alternates from plane to plane and is one for a warp (its
 * threads share y and z), so the two planes of an iteration are compiled
 * for δ = +1 and −1 and every select disappears. Warps stay whole: a lane
 * past the row's end computes but stores nothing (its kinds read as 0). */

/* A row's W adjacent entries as a thread keeps them: W values of the
 * arithmetic type (RwFccRow), or for fp16 storage W/2 words of two halves
 * each (RwFccRowH: each value converted to fp32 where it is used, so the
 * sums are the same bits; 74 registers a thread instead of 110, six
 * blocks of 128 an SM instead of four: the 1000 m³ hall at 4 kHz 239.7
 * against 225.6 G sites/s, H100, docs/PERFORMANCE.md;
 * ROOMWAVE_FCC_F16_ROWS=float keeps floats — for benchmarks). */
template <int W, typename A>
struct RwFccRow
{
  typedef A arith;
  A v[W];
  __device__ __forceinline__ A at (int k) const { return v[k]; }
};

template <int W>
struct RwFccRowH
{
  typedef float arith;
  unsigned v[W / 2];
  __device__ __forceinline__ float at (int k) const
  {
    return (k & 1) ? rw_h_hi (v[k >> 1]) : rw_h_lo (v[k >> 1]);
  }
};

/* The row type of storage S, lanes of W entries; PACK: fp16 as halves. */
template <typename S, int W, bool PACK>
struct RwFccRowOf
{
  typedef RwFccRow<W, typename RwArith<S>::type> type;
};
template <int W>
struct RwFccRowOf<__half, W, true>
{
  typedef RwFccRowH<W> type;
};

/* A row's W entries from p at i. */
template <bool NC, typename S, typename I, int W, typename A>
__device__ __forceinline__ void
rw_fcc_row_ld (const S *__restrict__ p, I i, RwFccRow<W, A> &r)
{
  rw_vld<NC> (p, i, r.v);
}

template <bool NC, typename I, int W>
__device__ __forceinline__ void
rw_fcc_row_ld (const __half *__restrict__ p, I i, RwFccRowH<W> &r)
{
  static_assert (W == 4, "fp16 rows of 4 entries: one 8-byte load");
  const uint2 u = NC ? __ldg ((const uint2 *) (p + i)) : *(const uint2 *) (p + i);
  r.v[0] = u.x, r.v[1] = u.y;
}

/* The neighbour lane's first entry of its row (for the shift by +1) and
 * its last (for −1), a warp shuffle. */
template <int W, typename A>
__device__ __forceinline__ A
rw_fcc_next_first (const RwFccRow<W, A> &r)
{
  return __shfl_down_sync (0xffffffffu, r.v[0], 1);
}
template <int W, typename A>
__device__ __forceinline__ A
rw_fcc_prev_last (const RwFccRow<W, A> &r)
{
  return __shfl_up_sync (0xffffffffu, r.v[W - 1], 1);
}
template <int W>
__device__ __forceinline__ float
rw_fcc_next_first (const RwFccRowH<W> &r)
{
  return rw_h_lo (__shfl_down_sync (0xffffffffu, r.v[0], 1));
}
template <int W>
__device__ __forceinline__ float
rw_fcc_prev_last (const RwFccRowH<W> &r)
{
  return rw_h_hi (__shfl_up_sync (0xffffffffu, r.v[W / 2 - 1], 1));
}

template <int W, typename R>
struct RwFccWide
{
  typedef typename R::arith A;
  R am, ap;          /* Y(y∓1, z−1, 0) */
  R b;               /* Y(y, z−1, 0) */
  A be;              /* … the end of its shift by δ */
  R cm, cp;          /* Y(y∓1, z, 0) */
  A cme, cpe;        /* the ends of their shifts by δ */
  R dm, dp;          /* Y(y∓1, z+1, 0) */
  R c;               /* Y(y, z, 0) */
  A ce;              /* … the end of its shift by −δ (for plane z + 1) */
  R e;               /* Y(y, z+1, 0) */
  A ee;              /* … the end of its shift by δ */
};

/* Entry k of row v shifted by D (v at offset 0 of the thread's W
 * entries; end: the entry just past them on the side of D). */
template <int D, int W, typename R>
__device__ __forceinline__ typename R::arith
rw_fcc_shifted (const R &v, typename R::arith end, int k)
{
  if (D > 0)
    return k == W - 1 ? end : v.at (k < W - 1 ? k + 1 : 0);
  return k == 0 ? end : v.at (k > 0 ? k - 1 : 0);
}

/* The entry just past a thread's W entries of a row on the side of D,
 * loaded by the warp's edge lane only (the others take it from their
 * neighbour lane, rw_fcc_end); i0: the thread's first entry of the row.
 * Issued with the rows' loads, so that it does not wait on them; its
 * address is the row's (p + i0, which the row's load computes) and an
 * offset in the instruction, not an index of its own. */
template <int D, int W, typename S, typename I>
__device__ __forceinline__ typename RwArith<S>::type
rw_fcc_end_load (const S *__restrict__ p, I i0, unsigned lane)
{
  typedef typename RwArith<S>::type A;
  const S *row = p + i0;
  if (lane == (D > 0 ? 31u : 0u))
    return rw_ldg (row + (D > 0 ? W : -1), 0);
  return (A) 0;
}

/* The end of row v's shift by D: the neighbour lane's first (D = +1) or
 * last (D = −1) entry; the warp's edge lane's own load (rw_fcc_end_load). */
template <int D, typename R>
__device__ __forceinline__ typename R::arith
rw_fcc_end (const R &v, typename R::arith loaded, unsigned lane)
{
  if (D > 0)
    {
      const typename R::arith e = rw_fcc_next_first (v);
      return lane == 31 ? loaded : e;
    }
  const typename R::arith e = rw_fcc_prev_last (v);
  return lane == 0 ? loaded : e;
}

/* The kinds of the thread's W entries, one byte each in a word. */
template <int W>
__device__ __forceinline__ unsigned
rw_fcc_kinds (const uint8_t *__restrict__ kind, size_t i)
{
  if (W == 4)
    return __ldg ((const unsigned *) (kind + i));
  return __ldg ((const unsigned short *) (kind + i));
}

/* The kinds word of W interior sites (kind 1 in each byte). */
template <int W>
__device__ __forceinline__ constexpr unsigned
rw_fcc_interior_kinds ()
{
  return W == 4 ? 0x01010101u : 0x0101u;
}

template <int W>
__device__ __forceinline__ bool
rw_fcc_all_interior (unsigned k)
{
  return k == rw_fcc_interior_kinds<W> ();
}

/* The new values of a wide column's W entries on plane z (its rows of
 * shift δ = D), pp their p⁻, whatever their kinds, the neighbours added
 * in the offsets' order. */
template <int D, int W, typename R>
__device__ __forceinline__ void
rw_fcc_wide_values (const RwFccWide<W, R> &v, const R &pp, typename R::arith (&out)[W])
{
  typedef typename R::arith A;
#pragma unroll
  for (int k = 0; k < W; k++)
    {
      /* RW_FCC_NBR_OFFSETS order: for a row of parity 1 (D = +1) the
       * site's dx = −1 neighbours are at offset 0 of the other parity's
       * rows and dx = +1 at δ; for parity 0 the other way */
      const A b0 = v.b.at (k), bd = rw_fcc_shifted<D, W> (v.b, v.be, k);
      const A cm0 = v.cm.at (k), cmd = rw_fcc_shifted<D, W> (v.cm, v.cme, k);
      const A cp0 = v.cp.at (k), cpd = rw_fcc_shifted<D, W> (v.cp, v.cpe, k);
      const A e0 = v.e.at (k), ed = rw_fcc_shifted<D, W> (v.e, v.ee, k);
      A s = v.am.at (k);
      s += v.ap.at (k);
      s += D > 0 ? b0 : bd;
      s += D > 0 ? bd : b0;
      s += D > 0 ? cm0 : cmd;
      s += D > 0 ? cmd : cm0;
      s += D > 0 ? cp0 : cpd;
      s += D > 0 ? cpd : cp0;
      s += v.dm.at (k);
      s += v.dp.at (k);
      s += D > 0 ? e0 : ed;
      s += D > 0 ? ed : e0;
      out[k] = rw_fcc_air (v.c.at (k), s, pp.at (k));
    }
}

/* The new values out of a thread's W entries from i stored where their
 * kinds kw say interior (one vector store where all are); returns false
 * when a stored value is not finite (each tested, without branches). */
template <int W, typename S, typename I, typename A>
__device__ __forceinline__ bool
rw_fcc_wide_store (const A (&out)[W], unsigned kw, S *__restrict__ q, I i)
{
  bool fine = true;
  if (rw_fcc_all_interior<W> (kw))
    {
      rw_vst (q, i, out);
#pragma unroll
      for (int k = 0; k < W; k++)
        fine &= rw_stored_finite (out[k], q);
    }
  else
#pragma unroll
    for (int k = 0; k < W; k++)
      if (((kw >> (8 * k)) & 0xffu) == 1)
        {
          rw_st (q, i + (I) k, out[k]);
          fine &= rw_stored_finite (out[k], q);
        }
  return fine;
}

/* The update of plane z's interior sites (its rows of shift δ = D) from a
 * wide column: pp its p⁻, kw its kinds, i the thread's first entry of row
 * (y, z); returns false when it stored a non-finite value. */
template <int D, int W, typename S, typename I, typename R>
__device__ __forceinline__ bool
rw_fcc_wide_update (const RwFccWide<W, R> &v, const R &pp, unsigned kw, S *__restrict__ q, I i)
{
  typedef typename R::arith A;
  if (kw == 0)
    return true;
  A out[W];
  rw_fcc_wide_values<D, W> (v, pp, out);
  return rw_fcc_wide_store<W> (out, kw, q, i);
}

/* The step of a wide column from plane z (δ = D) to z + 1 (δ = −D): nm,
 * np, ne are rows y − 1, y + 1, y of plane z + 2; x the edge lane's ends
 * (side −D) of rows y − 1, y + 1 of plane z + 1 and y of plane z + 2. */
template <int D, int W, typename R>
__device__ __forceinline__ void
rw_fcc_wide_shift (RwFccWide<W, R> &v, const R &nm, const R &np, const R &ne,
                   const typename R::arith (&x)[3], unsigned lane)
{
  v.am = v.cm, v.ap = v.cp;
  v.b = v.c;
  v.cm = v.dm, v.cp = v.dp;
  v.dm = nm, v.dp = np;
  v.c = v.e;
  v.e = ne;
  v.be = v.ce;                  /* Y(y, z, −D) */
  v.ce = v.ee;                  /* Y(y, z + 1, D) = −(−D) */
  v.cme = rw_fcc_end<-D> (v.cm, x[0], lane);
  v.cpe = rw_fcc_end<-D> (v.cp, x[1], lane);
  v.ee = rw_fcc_end<-D> (v.e, x[2], lane);
}

/* The edge lane's ends for rw_fcc_wide_shift<D>: side −D of rows y ∓ 1
 * of plane z + 1 and y of plane z + 2 (j: row (y, z + 2)). */
template <int D, int W, typename S, typename I, typename A>
__device__ __forceinline__ void
rw_fcc_wide_ends (A (&x)[3], const S *__restrict__ p, I j, I sy, I sz, unsigned lane)
{
  x[0] = rw_fcc_end_load<-D, W> (p, j - sz - sy, lane);
  x[1] = rw_fcc_end_load<-D, W> (p, j - sz + sy, lane);
  x[2] = rw_fcc_end_load<-D, W> (p, j, lane);
}

/* A pair's air words (a0, a1; a1 0 unless two: first, the kinds wait on
 * them) and p⁻ rows (pp0, pp1: planes z, z + 1 from i). AHEAD: they came
 * with the pair before (an, qn), and rw_fcc_pair_pp loads the next
 * pair's (where more: a pair follows; more2: with two planes), so that
 * no load but the rows of p is waited for within the pair that issues
 * it. */
template <bool AHEAD, typename I>
__device__ __forceinline__ void
rw_fcc_pair_air (const unsigned *__restrict__ air, I sa, bool two, const unsigned (&an)[2],
                 unsigned &a0, unsigned &a1)
{
  a0 = AHEAD ? an[0] : __ldg (air);
  a1 = !two ? 0u : AHEAD ? an[1] : __ldg (air + sa);
}

template <bool AHEAD, typename S, typename I, typename R>
__device__ __forceinline__ void
rw_fcc_pair_pp (S *__restrict__ q, const unsigned *__restrict__ air, I i, I j, I j1, I sz, I sa,
                bool more, bool more2, R (&qn)[2], unsigned (&an)[2], R &pp0, R &pp1)
{
  if (AHEAD)
    {
      pp0 = qn[0], pp1 = qn[1];
      /* plane z + 3 may lie past the chunk (and the array's last plane):
       * its word is then not read */
      if (more)
        {
          an[0] = __ldg (air + 2 * sa);
          an[1] = more2 ? __ldg (air + 3 * sa) : 0u;
          rw_fcc_row_ld<false> (q, j, qn[0]);
          rw_fcc_row_ld<false> (q, j1, qn[1]);
        }
    }
  else
    {
      rw_fcc_row_ld<false> (q, i, pp0);
      rw_fcc_row_ld<false> (q, i + sz, pp1);
    }
}

/* The first pair's p⁻ rows and air words of a column from i (planes
 * [z0, z1)), where loaded ahead (rw_fcc_pair_pp). */
template <bool AHEAD, typename S, typename I, typename R>
__device__ __forceinline__ void
rw_fcc_pp_first (S *__restrict__ q, const unsigned *__restrict__ air, I i, unsigned z0,
                 unsigned z1, I sz, I sa, R (&qn)[2], unsigned (&an)[2])
{
  if (!AHEAD)
    return;
  an[0] = __ldg (air), an[1] = z0 + 1 < z1 ? __ldg (air + sa) : 0u;
  rw_fcc_row_ld<false> (q, i, qn[0]);
  rw_fcc_row_ld<false> (q, i + sz, qn[1]);
}

/* Rows y − 1, y + 1 and y of the two planes whose rows y start at j and
 * j1 (a pair's planes z + 2 and z + 3). */
template <typename S, typename I, typename R>
__device__ __forceinline__ void
rw_fcc_pair_rows (const S *__restrict__ p, I j, I j1, I sy, R &m2, R &p2, R &c2, R &m3, R &p3,
                  R &c3)
{
  rw_fcc_row_ld<true> (p, j - sy, m2);
  rw_fcc_row_ld<true> (p, j + sy, p2);
  rw_fcc_row_ld<true> (p, j, c2);
  rw_fcc_row_ld<true> (p, j1 - sy, m3);
  rw_fcc_row_ld<true> (p, j1 + sy, p3);
  rw_fcc_row_ld<true> (p, j1, c3);
}

/* The kinds of a pair's W entries from i on planes z and z + 1 (two):
 * a lane whose bit is set in the plane's air word (a0, a1) has W interior
 * sites; the others read their kinds; an inactive lane none. */
template <int W, typename I>
__device__ __forceinline__ void
rw_fcc_pair_kinds (const uint8_t *__restrict__ kind, unsigned a0, unsigned a1, I i, I sz,
                   bool active, bool two, unsigned lane, unsigned &k0, unsigned &k1)
{
  k0 = k1 = rw_fcc_interior_kinds<W> ();
  if (((a0 >> lane) & 1u) == 0)
    k0 = active ? rw_fcc_kinds<W> (kind, i) : 0;
  if (((a1 >> lane) & 1u) == 0)
    k1 = active && two ? rw_fcc_kinds<W> (kind, i + sz) : 0;
}

/* Two planes of a wide column, z (δ = D) and z + 1 (when two: the chunk
 * may end after z), every load of both issued first (the kernel waits on
 * memory latency: two planes' loads in flight a thread), then the step to
 * plane z + 2. AHEAD: the pair's p⁻ rows and air words came with the
 * pair before (rw_fcc_pair_pp; rw_fcc_wide_column says where). */
template <int D, int W, bool AHEAD, typename S, typename I, typename R>
__device__ __forceinline__ bool
rw_fcc_wide_pair (RwFccWide<W, R> &v, const S *__restrict__ p, S *__restrict__ q,
                  const uint8_t *__restrict__ kind, const unsigned *__restrict__ air, I i, I sy,
                  I sz, I sa, bool active, bool two, bool more, bool more2, R (&qn)[2],
                  unsigned (&an)[2], unsigned lane)
{
  typedef typename R::arith A;
  const I j = i + 2 * sz, j1 = j + sz; /* rows (y, z + 2), (y, z + 3) */
  /* the warp's air words of planes z and z + 1 first: the kinds wait on them */
  unsigned a0, a1;
  rw_fcc_pair_air<AHEAD> (air, sa, two, an, a0, a1);
  R m2, p2, e2, m3, p3, e3, pp0, pp1;
  A x2[3], x3[3];
  rw_fcc_wide_ends<D, W> (x2, p, j, sy, sz, lane);
  rw_fcc_wide_ends<-D, W> (x3, p, j1, sy, sz, lane);
  rw_fcc_pair_rows (p, j, j1, sy, m2, p2, e2, m3, p3, e3);
  rw_fcc_pair_pp<AHEAD> (q, air, i, j, j1, sz, sa, more, more2, qn, an, pp0, pp1);
  unsigned k0, k1;
  rw_fcc_pair_kinds<W> (kind, a0, a1, i, sz, active, two, lane, k0, k1);
  bool fine = rw_fcc_wide_update<D, W> (v, pp0, k0, q, i);
  rw_fcc_wide_shift<D, W> (v, m2, p2, e2, x2, lane);
  fine = rw_fcc_wide_update<-D, W> (v, pp1, k1, q, i + sz) && fine;
  rw_fcc_wide_shift<-D, W> (v, m3, p3, e3, x3, lane);
  return fine;
}

/* The start of a wide column at row (y, z) (first entry i), plane z of
 * shift D: its rows of planes z − 1 … z + 1 and their ends. */
template <int D, int W, typename S, typename I, typename R>
__device__ __forceinline__ void
rw_fcc_wide_start (RwFccWide<W, R> &v, const S *__restrict__ p, I i, I sy, I sz, unsigned lane)
{
  rw_fcc_row_ld<true> (p, i - sy - sz, v.am);
  rw_fcc_row_ld<true> (p, i + sy - sz, v.ap);
  rw_fcc_row_ld<true> (p, i - sz, v.b);
  rw_fcc_row_ld<true> (p, i - sy, v.cm);
  rw_fcc_row_ld<true> (p, i + sy, v.cp);
  rw_fcc_row_ld<true> (p, i - sy + sz, v.dm);
  rw_fcc_row_ld<true> (p, i + sy + sz, v.dp);
  rw_fcc_row_ld<true> (p, i, v.c);
  rw_fcc_row_ld<true> (p, i + sz, v.e);
  v.be = rw_fcc_end<D> (v.b, rw_fcc_end_load<D, W> (p, i - sz, lane), lane);
  v.cme = rw_fcc_end<D> (v.cm, rw_fcc_end_load<D, W> (p, i - sy, lane), lane);
  v.cpe = rw_fcc_end<D> (v.cp, rw_fcc_end_load<D, W> (p, i + sy, lane), lane);
  v.ce = rw_fcc_end<-D> (v.c, rw_fcc_end_load<-D, W> (p, i, lane), lane);
  v.ee = rw_fcc_end<D> (v.e, rw_fcc_end_load<D, W> (p, i + sz, lane), lane);
}

/* The split sums (fp32 and fp16 storage; ROOMWAVE_FCC_SUMS=offsets
 * keeps the offsets' order, rw_fcc_wide_column's). For the site (x, y, z),
 * with every pair added as one addition (a + b = b + a: no order of a
 * pair to keep):
 *   U(z′) = (p(x, y−1, z′) + p(x, y+1, z′)) + (p(x−1, y, z′) + p(x+1, y, z′))
 *   M(z)  = (p(x−1, y−1, z) + p(x−1, y+1, z)) + (p(x+1, y−1, z) + p(x+1, y+1, z))
 *   Σ₁₂   = (U(z−1) + M(z)) + U(z+1)
 * On a plane z′ of shift δ, V = row y−1 + row y+1 at the thread's W
 * entries is M's pairs of z′'s own sites (V + V shifted by δ) and U's
 * first pair for the sites of planes z′ ± 1 (whose rows y ± 1 of z′ have
 * their parity); U's second pair is row y shifted by −δ. So a plane's
 * three rows are reduced once, as they arrive, to T(z′) = U(z′−1) + M(z′)
 * and U(z′), and each value of them is used (fp16: converted) once where
 * the offsets' order uses it about four times: 6 additions a site
 * instead of 11, and a thread keeps three sets of W values and two rows
 * instead of ten rows. fp64 keeps the offsets' order, the CPU backend's,
 * for its bits. The 1000 m³ hall at 4 kHz in fp16 (H200): 212 M warp
 * instructions a step instead of 289 M, the air kernel 364 µs instead of
 * 448 (ncu), the step 323.4–327.3 against 285.1–286.4 G sites/s; fp32
 * (with p⁻ a pair ahead) 222.0 against 214.9–215.1
 * (docs/PERFORMANCE.md). */

/* A wide column's split state before the update of plane z (δ = D) and
 * z + 1: T(z), row y of z (its centres), U(z + 1), T(z + 1), row y of
 * z + 1. */
template <int W, typename R>
struct RwFccSplit
{
  typedef typename R::arith A;
  A t0[W], u[W], t1[W];
  R c0, c1;
};

/* The value just past a thread's W values v on the side of D: the
 * neighbour lane's first (D = +1) or last (−1); the warp's edge lane's
 * from its own loads (loaded). */
template <int D, int W, typename A>
__device__ __forceinline__ A
rw_fcc_split_end (const A (&v)[W], A loaded, unsigned lane)
{
  if (D > 0)
    {
      const A e = __shfl_down_sync (0xffffffffu, v[0], 1);
      return lane == 31 ? loaded : e;
    }
  const A e = __shfl_up_sync (0xffffffffu, v[W - 1], 1);
  return lane == 0 ? loaded : e;
}

/* Plane z′ of shift DP from its rows m, pr, c (y − 1, y + 1, y): U(z′)
 * into u, and, where T, T(z′) = u's U(z′ − 1) + M(z′) into t; x: the
 * edge lane's ends of m and pr on side DP and of c on side −DP. */
template <int DP, bool T, int W, typename R>
__device__ __forceinline__ void
rw_fcc_split_plane (const R &m, const R &pr, const R &c, const typename R::arith (&x)[3],
                    typename R::arith (&u)[W], typename R::arith (&t)[W], unsigned lane)
{
  typedef typename R::arith A;
  A v[W];
#pragma unroll
  for (int k = 0; k < W; k++)
    v[k] = m.at (k) + pr.at (k);
  const A ce = rw_fcc_end<-DP> (c, x[2], lane);
  A ve = (A) 0;
  if (T)
    ve = rw_fcc_split_end<DP, W> (v, x[0] + x[1], lane);
#pragma unroll
  for (int k = 0; k < W; k++)
    {
      if (T)
        {
          const A vd = DP > 0 ? (k == W - 1 ? ve : v[k < W - 1 ? k + 1 : 0])
                              : (k == 0 ? ve : v[k > 0 ? k - 1 : 0]);
          t[k] = u[k] + (v[k] + vd);
        }
      u[k] = v[k] + (c.at (k) + rw_fcc_shifted<-DP, W> (c, ce, k));
    }
}

/* The edge lane's ends for rw_fcc_split_plane<DP> of the plane whose row
 * (y, z′) starts at j. */
template <int DP, int W, typename S, typename I, typename A>
__device__ __forceinline__ void
rw_fcc_split_ends (A (&x)[3], const S *__restrict__ p, I j, I sy, unsigned lane)
{
  x[0] = rw_fcc_end_load<DP, W> (p, j - sy, lane);
  x[1] = rw_fcc_end_load<DP, W> (p, j + sy, lane);
  x[2] = rw_fcc_end_load<-DP, W> (p, j, lane);
}

/* Entry k of W values kept as a row (RwFccRowOf) or as an array. */
template <typename R>
__device__ __forceinline__ typename R::arith
rw_fcc_entry (const R &r, int k)
{
  return r.at (k);
}
template <typename A, int W>
__device__ __forceinline__ A
rw_fcc_entry (const A (&v)[W], int k)
{
  return v[k];
}

/* The new values of plane z's W entries with the split sums: T(z) in t,
 * U(z + 1) in u, their centres c and p⁻ pp (rows or arrays). */
template <int W, typename A, typename RC, typename RP>
__device__ __forceinline__ void
rw_fcc_split_values (const A (&t)[W], const A (&u)[W], const RC &c, const RP &pp, A (&out)[W])
{
#pragma unroll
  for (int k = 0; k < W; k++)
    out[k] = rw_fcc_air (rw_fcc_entry (c, k), t[k] + u[k], rw_fcc_entry (pp, k));
}

/* The update of plane z (δ = D): T(z) in t, U(z + 1) in u, its centres c
 * and p⁻ pp, kinds kw (as rw_fcc_wide_update). */
template <int W, typename S, typename I, typename R>
__device__ __forceinline__ bool
rw_fcc_split_update (const typename R::arith (&t)[W], const typename R::arith (&u)[W], const R &c,
                     const R &pp, unsigned kw, S *__restrict__ q, I i)
{
  typedef typename R::arith A;
  if (kw == 0)
    return true;
  A out[W];
  rw_fcc_split_values<W> (t, u, c, pp, out);
  return rw_fcc_wide_store<W> (out, kw, q, i);
}

/* Planes z (δ = D) and z + 1 (when two) of a split column: the rows of
 * planes z + 2 and z + 3 and the pair's p⁻ rows loaded first (as for
 * RwFccWide), then update z, reduce z + 2, update z + 1, reduce z + 3. */
template <int D, int W, bool AHEAD, typename S, typename I, typename R>
__device__ __forceinline__ bool
rw_fcc_wide_pair (RwFccSplit<W, R> &v, const S *__restrict__ p, S *__restrict__ q,
                  const uint8_t *__restrict__ kind, const unsigned *__restrict__ air, I i, I sy,
                  I sz, I sa, bool active, bool two, bool more, bool more2, R (&qn)[2],
                  unsigned (&an)[2], unsigned lane)
{
  typedef typename R::arith A;
  const I j = i + 2 * sz, j1 = j + sz;
  unsigned a0, a1;
  rw_fcc_pair_air<AHEAD> (air, sa, two, an, a0, a1);
  R m2, p2, c2, m3, p3, c3, pp0, pp1;
  A x2[3], x3[3];
  rw_fcc_split_ends<D, W> (x2, p, j, sy, lane);
  rw_fcc_split_ends<-D, W> (x3, p, j1, sy, lane);
  rw_fcc_pair_rows (p, j, j1, sy, m2, p2, c2, m3, p3, c3);
  rw_fcc_pair_pp<AHEAD> (q, air, i, j, j1, sz, sa, more, more2, qn, an, pp0, pp1);
  unsigned k0, k1;
  rw_fcc_pair_kinds<W> (kind, a0, a1, i, sz, active, two, lane, k0, k1);
  bool fine = rw_fcc_split_update<W> (v.t0, v.u, v.c0, pp0, k0, q, i);
  rw_fcc_split_plane<D, true, W> (m2, p2, c2, x2, v.u, v.t0, lane);
  v.c0 = c2;
  fine = rw_fcc_split_update<W> (v.t1, v.u, v.c1, pp1, k1, q, i + sz) && fine;
  rw_fcc_split_plane<-D, true, W> (m3, p3, c3, x3, v.u, v.t1, lane);
  v.c1 = c3;
  return fine;
}

/* The start of a split column at row (y, z) (first entry i), plane z of
 * shift D: planes z − 1 (U), z and z + 1 reduced. */
template <int D, int W, typename S, typename I, typename R>
__device__ __forceinline__ void
rw_fcc_wide_start (RwFccSplit<W, R> &v, const S *__restrict__ p, I i, I sy, I sz, unsigned lane)
{
  typedef typename R::arith A;
  R m, pr, c, m1, p1, m0, p0;
  A x[3], x0[3], x1[3];
  rw_fcc_split_ends<-D, W> (x, p, i - sz, sy, lane);
  rw_fcc_split_ends<D, W> (x0, p, i, sy, lane);
  rw_fcc_split_ends<-D, W> (x1, p, i + sz, sy, lane);
  rw_fcc_pair_rows (p, i - sz, i, sy, m, pr, c, m0, p0, v.c0);
  rw_fcc_row_ld<true> (p, i + sz - sy, m1);
  rw_fcc_row_ld<true> (p, i + sz + sy, p1);
  rw_fcc_row_ld<true> (p, i + sz, v.c1);
  rw_fcc_split_plane<-D, false, W> (m, pr, c, x, v.u, v.t0, lane);
  rw_fcc_split_plane<D, true, W> (m0, p0, v.c0, x0, v.u, v.t0, lane);
  rw_fcc_split_plane<-D, true, W> (m1, p1, v.c1, x1, v.u, v.t1, lane);
}

/* A wide column from row (y, z0) (first entry i, δ = D) to z1: its
 * register z-march in the offsets' order (RwFccWide) or, SPLIT, with the
 * split sums (RwFccSplit), a pair of planes an iteration. The pairs' p⁻
 * rows and air words are loaded a pair ahead (rw_fcc_pair_pp) in fp64 and
 * in fp32's split sums: the 1000 m³ hall at 4 kHz, fp64 128.3 against
 * 120.7 G sites/s, fp32 split 223.6 against 218.1; not in fp16 (offsets
 * 251.1 against 263.2, split 326.1–326.9 against 327.8–328.2) or fp32's
 * offsets (213.1 against 213.7); H200, docs/PERFORMANCE.md. */
template <int D, int W, bool PACK, bool SPLIT, typename S, typename I>
__device__ __forceinline__ bool
rw_fcc_wide_column (const S *__restrict__ p, S *__restrict__ q, const uint8_t *__restrict__ kind,
                    const unsigned *__restrict__ air, I i, unsigned z0, unsigned z1, I sy, I sz,
                    I sa, bool active, unsigned lane)
{
  typedef typename RwFccRowOf<S, W, PACK>::type R;
  constexpr bool ahead = SPLIT ? sizeof (S) == 4 : sizeof (S) == 8;
  typename std::conditional<SPLIT, RwFccSplit<W, R>, RwFccWide<W, R>>::type v;
  rw_fcc_wide_start<D, W> (v, p, i, sy, sz, lane);
  R qn[2];
  unsigned an[2] = { 0u, 0u };
  rw_fcc_pp_first<ahead> (q, air, i, z0, z1, sz, sa, qn, an);
  bool fine = true;
  for (unsigned z = z0; z < z1; z += 2, i += 2 * sz, air += 2 * sa)
    fine = rw_fcc_wide_pair<D, W, ahead> (v, p, q, kind, air, i, sy, sz, sa, active, z + 1 < z1,
                                          z + 2 < z1, z + 3 < z1, qn, an, lane)
           && fine;
  return fine;
}
