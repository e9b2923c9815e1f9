/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-cuda-fcc-tb.cu — two FCC steps a pass (temporal blocking), for the
 * rows laid out by rows (the hall's; rw-cuda-fcc-tables.h): the interior
 * sites' kernel of rw_fcc_tb_pass (rw-cuda-fcc.cu, which says how the
 * boundary sites and the source fit around it).
 *
 * A block of 32 × BY threads takes one segment of 32·W entries of BY
 * adjacent rows and z-marches a chunk of planes, as the single-step air
 * kernel does (rw-cuda-fcc-wide.cuh: the same registers, loads and sums).
 * At plane z it computes time n + 1 on all BY rows — rows 1 … BY − 2 are
 * the block's, rows 0 and BY − 1 a ring that the neighbouring tiles own —
 * and, in lanes 0 and 31, one entry more on each side of the segment
 * (the end entries its shifts by ±1 reach), puts it in a ring of shared
 * memory, and computes time n + 2 behind it on its own rows. Values are
 * rounded to the storage type before step n + 2 uses them, as a single
 * step would store and reload them; the ring's and the ends' n + 1 values
 * are computed from the same inputs by the same arithmetic as by the
 * tiles that own them, so they agree bit for bit.
 *
 * Time n + 1 of a site that is not interior (a boundary site, or a cell
 * of the source) is not computed here but read from n1, where the
 * boundary kernel and the source's launches put it before this one; an
 * entry that is no site reads its value there too (0). The results go
 * out of place, n + 1 to n1 and n + 2 to n2 (the spare pair of arrays),
 * because the neighbouring tiles still read p and q around this one while
 * it is written. DRAM traffic per pass: read p and q, write n1 and n2 —
 * two words an update instead of three; the ring rows' loads are mostly
 * L2 hits (the tiles beside it march at the same time).
 *
 * Two marches, adding the neighbours as the single steps add them:
 *  - the split sums (fp32 and fp16; rw_fcc_tb_split_pair): both times
 *    kept as the split column keeps them (RwFccSplit), time n + 2 reduced
 *    from plane z's n + 1 alone — rows y ∓ 1 from the ring, row y the
 *    thread's own — two planes a barrier;
 *  - the offsets' order (fp64, or ROOMWAVE_FCC_SUMS=offsets;
 *    rw_fcc_tb_pair): the ten rows of RwFccWide, time n + 2 from the
 *    ring's planes z − 2 … z, a barrier a plane.
 *
 * For benchmarks only (ROOMWAVE_FCC_TB=1, rw_fcc_tb_build): measured
 * slower than single steps. NVIDIA H200, 2026-11-28, bench-fcc --fmax
 * 4000 --volume 1000 --fcc-only (148 M sites, by rows), G site updates a
 * second against single steps in the same call:
 *  - offsets' order (--seconds 1): fp32 173.7 against 211.7, fp16 177.4
 *    against 261.7, fp64 93.9 against 120.2. ncu, fp32: 1.44 ms a pass,
 *    DRAM 2.9 GB (42 % of its peak), 128 registers (68 B spilled), 67
 *    instructions an update;
 *  - split sums (--seconds 0.5): fp32 211.1–211.5 against 225.3, fp16
 *    232.2 against 342.0 (the offsets' march with the split grouping, a
 *    form since removed: 190.9 and 184.5). ncu, fp32: 1.17 ms a pass,
 *    DRAM 2.86 GB (51 % of its peak), 126 registers, 16 warps an SM, 48
 *    instructions an update; for each instruction issued, 4.2 warps
 *    wait on loads and 2.1 at the barrier. Tiles of 16 rows: 211.9 and
 *    234.5 (not kept). The boundary kernel twice a pass (0.1 ms each, in
 *    series with it) makes the pass 1.40 ms against 1.31 ms for two
 *    single steps. With fp32's rows of 424 entries instead of 448
 *    (2026-11-29): fp32 221.9 against 225.3, fp16 232.3 against 352.0;
 *    in lanes of 2 entries (more warps an SM) 192.6 and 209.9.
 * A pass without the ring, its second step a few planes behind the first
 * in one persistent launch so that the L2 still holds what the first
 * moved, was measured on copy-ceiling's stream first (2026-11-30): with
 * the first planes' rows an item of 2–4 planes reads again, 13–21 %
 * slower than single steps; not built.
 * docs/PERFORMANCE.md has the tables. */
#include "rw-cuda-fcc-wide.cuh"

/* The block's barrier, where warps reach it from different code (their
 * rows' shifts are compiled apart): barrier.sync without .aligned, which
 * __syncthreads is, whose threads must all execute the same instruction. */
__device__ __forceinline__ void
rw_fcc_tb_barrier ()
{
  asm volatile ("barrier.sync 0;" ::: "memory");
}

template <typename S, typename I, int W, int BY>
struct RwFccTb
{
  typedef typename RwArith<S>::type A;
  const S *__restrict__ p;      /* time n */
  const S *__restrict__ q;      /* time n − 1 */
  S *__restrict__ n1;           /* time n + 1 (boundary sites and the source's cells read) */
  S *__restrict__ n2;           /* time n + 2 */
  const uint8_t *__restrict__ kind;
  A (*sh)[BY][32 * W];          /* time n + 1, planes z & 3 */
  I i, il;                      /* the thread's first entry of row (y, z): its own, and
                                   where it loads p and q (a ring row past the grid's
                                   inside rows loads a row next to it) */
  I sy, sz;
  unsigned lane, ty, z0, z1;    /* time n + 2 on planes [z0, z1) */
  bool own;                     /* the block's row and one of lanes 1 … 30 */
  bool own_row, active, src_col;
};

/* The source's cells among a thread's W entries at i (bit k: entry k). */
template <int W>
__device__ __forceinline__ unsigned
rw_fcc_tb_forced (const RwCudaSource &src, long long i)
{
  unsigned f = 0;
#pragma unroll
  for (int c = 0; c < RW_GRID_STENCIL_MAX; c++)
    if (c < src.n)
      {
        const long long d = src.cell[c] - i;
        if (d >= 0 && d < W)
          f |= 1u << d;
      }
  return f;
}

template <int W, typename A>
__device__ __forceinline__ void
rw_fcc_tb_sh_ld (const A *s, RwFccRow<W, A> &r)
{
  static_assert (sizeof (A) * W == 16, "rows of 16 bytes");
  *(float4 *) r.v = *(const float4 *) s;
}

template <int W, typename A>
__device__ __forceinline__ void
rw_fcc_tb_sh_st (A *s, const A (&v)[W])
{
  *(float4 *) s = *(const float4 *) v;
}

/* Time n + 2 on plane z − 1 (shift D2) of the thread's W entries, from
 * the ring's planes z − 2 … z: the wide column's update with its rows read
 * from shared memory and their ends from the neighbour lanes (pn: time n
 * there, its p⁻; kw its kinds, 0 where the thread stores nothing). Called
 * by whole warps (the shuffles). */
template <int D2, typename S, typename I, int W, int BY, typename R>
__device__ __forceinline__ bool
rw_fcc_tb_second (const RwFccTb<S, I, W, BY> &c, const R &pn, unsigned kw, unsigned z)
{
  typedef typename RwArith<S>::type A;
  typedef RwFccRow<W, A> Row;
  const A (*sm)[32 * W] = c.sh[(z - 2) & 3];
  const A (*s0)[32 * W] = c.sh[(z - 1) & 3];
  const A (*sp)[32 * W] = c.sh[z & 3];
  const int ty = (int) c.ty, o = (int) c.lane * W;
  RwFccWide<W, Row> u;
  rw_fcc_tb_sh_ld<W> (sm[ty - 1] + o, u.am);
  rw_fcc_tb_sh_ld<W> (sm[ty + 1] + o, u.ap);
  rw_fcc_tb_sh_ld<W> (sm[ty] + o, u.b);
  rw_fcc_tb_sh_ld<W> (s0[ty - 1] + o, u.cm);
  rw_fcc_tb_sh_ld<W> (s0[ty + 1] + o, u.cp);
  rw_fcc_tb_sh_ld<W> (s0[ty] + o, u.c);
  rw_fcc_tb_sh_ld<W> (sp[ty - 1] + o, u.dm);
  rw_fcc_tb_sh_ld<W> (sp[ty + 1] + o, u.dp);
  rw_fcc_tb_sh_ld<W> (sp[ty] + o, u.e);
  /* lanes 0 and 31, whose ends would lie past the warp, store nothing */
  u.be = rw_fcc_end<D2> (u.b, (A) 0, c.lane);
  u.cme = rw_fcc_end<D2> (u.cm, (A) 0, c.lane);
  u.cpe = rw_fcc_end<D2> (u.cp, (A) 0, c.lane);
  u.ee = rw_fcc_end<D2> (u.e, (A) 0, c.lane);
  Row pp;
#pragma unroll
  for (int k = 0; k < W; k++)
    pp.v[k] = pn.at (k);
  return rw_fcc_wide_update<D2, W> (u, pp, kw, c.n2, c.i - c.sz);
}

/* Time n + 1 out of a thread's W entries on plane z, as computed from
 * the field whatever their kinds (kw): rounded to the storage type (0 in
 * a lane off the row), replaced by n1's value where the site is not
 * interior or is a cell of the source, put in the ring's slot, and on
 * the thread's own interior entries of the block's planes stored into
 * n1. Their finiteness is not checked here: time n + 2 of each such site
 * is computed in the same pass with its n + 1 times 2 − 3λ² = −1, so a
 * value that is not finite makes its n + 2 one, which is checked. */
template <typename S, typename I, int W, int BY, typename A>
__device__ __forceinline__ void
rw_fcc_tb_first (A (&out)[W], unsigned kw, unsigned z, const RwFccTb<S, I, W, BY> &c,
                 const RwCudaSource &src, unsigned slot)
{
  static_assert (RW_FCC_LAMBDA2 == 1.0, "n + 1's coefficient in n + 2 is 2 − 3λ²");
  constexpr unsigned all = rw_fcc_interior_kinds<W> ();
  const unsigned fk = c.src_col ? rw_fcc_tb_forced<W> (src, (long long) c.i) : 0u;
#pragma unroll
  for (int k = 0; k < W; k++)
    out[k] = c.active ? rw_stored (out[k], c.n1) : (A) 0;
  if (c.active && (kw != all || fk != 0))
    {
      /* not interior, or a cell of the source: its n + 1 from n1 */
      A m[W];
      rw_vld<false> (c.n1, c.i, m);
#pragma unroll
      for (int k = 0; k < W; k++)
        if (((kw >> (8 * k)) & 0xffu) != 1 || ((fk >> k) & 1u))
          out[k] = m[k];
    }
  rw_fcc_tb_sh_st<W> (c.sh[slot][c.ty] + c.lane * W, out);
  if (c.own && z >= c.z0 && z < c.z1 && kw != 0)
    {
      if (kw == all && fk == 0)
        rw_vst (c.n1, c.i, out);
      else
#pragma unroll
        for (int k = 0; k < W; k++)
          if (((kw >> (8 * k)) & 0xffu) == 1 && ((fk >> k) & 1u) == 0)
            rw_st (c.n1, c.i + (I) k, out[k]);
    }
}

/* Plane z (shift D) of the march in the offsets' order: time n + 1
 * there (rw_fcc_tb_first), a barrier, then time n + 2 on plane z − 1
 * from the ring's planes z − 2 … z. v: the wide column at plane z, pp
 * its p⁻, kw its kinds; kprev: the kinds of plane z − 1 (then z's). */
template <int D, typename S, typename I, int W, int BY, typename R>
__device__ __forceinline__ bool
rw_fcc_tb_plane (const RwFccWide<W, R> &v, const R &pp, unsigned kw, unsigned z,
                 const RwFccTb<S, I, W, BY> &c, const RwCudaSource &src, unsigned &kprev)
{
  typedef typename RwArith<S>::type A;
  A out[W];
  rw_fcc_wide_values<D, W> (v, pp, out);
  rw_fcc_tb_first (out, kw, z, c, src, z & 3);
  bool fine = true;
  rw_fcc_tb_barrier ();
  /* time n + 2 on plane z − 1: p⁻ is time n there (v.b) */
  if (c.own_row && z > c.z0)
    fine = rw_fcc_tb_second<-D> (c, v.b, c.own ? kprev : 0u, z) && fine;
  kprev = kw;
  return fine;
}

/* The kinds of a thread's W entries at i (0 for a lane off the row). */
template <int W, typename S, typename I, int BY>
__device__ __forceinline__ unsigned
rw_fcc_tb_kinds (const RwFccTb<S, I, W, BY> &c, I i)
{
  return c.active ? rw_fcc_kinds<W> (c.kind, i) : 0u;
}

/* A pair's kinds and p⁻ (k0, k1, pp0, pp1: those that came with the
 * pair before, in kn and qn) and, where more (a pair follows), the next
 * pair's into kn and qn: loaded a pair ahead, so that no load is waited
 * for within its own pair — every warp of the block waits at the
 * barriers for the slowest. */
template <typename S, typename I, int W, int BY, typename R>
__device__ __forceinline__ void
rw_fcc_tb_ahead (const RwFccTb<S, I, W, BY> &c, bool more, unsigned (&kn)[2], R (&qn)[2],
                 unsigned &k0, unsigned &k1, R &pp0, R &pp1)
{
  k0 = kn[0], k1 = kn[1];
  pp0 = qn[0], pp1 = qn[1];
  if (more)
    {
      kn[0] = rw_fcc_tb_kinds (c, c.i + 2 * c.sz);
      kn[1] = rw_fcc_tb_kinds (c, c.i + 3 * c.sz);
      rw_fcc_row_ld<true> (c.q, c.il + 2 * c.sz, qn[0]);
      rw_fcc_row_ld<true> (c.q, c.il + 3 * c.sz, qn[1]);
    }
}

/* Two planes of the march in the offsets' order, z (shift D) and z + 1
 * (when two), as rw_fcc_wide_pair: the rows of planes z + 2 and z + 3
 * loaded first, with the next pair's kinds and p⁻ (rw_fcc_tb_ahead). */
template <int D, typename S, typename I, int W, int BY, typename R>
__device__ __forceinline__ bool
rw_fcc_tb_pair (RwFccWide<W, R> &v, RwFccTb<S, I, W, BY> &c, unsigned z, bool two, bool more,
                unsigned (&kn)[2], R (&qn)[2], const RwCudaSource &src, unsigned &kprev)
{
  typedef typename RwArith<S>::type A;
  const I j = c.il + 2 * c.sz, j1 = j + c.sz; /* rows (y, z + 2), (y, z + 3) */
  R m2, p2, e2, m3, p3, e3;
  A x2[3], x3[3];
  rw_fcc_wide_ends<D, W> (x2, c.p, j, c.sy, c.sz, c.lane);
  rw_fcc_wide_ends<-D, W> (x3, c.p, j1, c.sy, c.sz, c.lane);
  rw_fcc_pair_rows (c.p, j, j1, c.sy, m2, p2, e2, m3, p3, e3);
  unsigned k0, k1;
  R pp0, pp1;
  rw_fcc_tb_ahead (c, more, kn, qn, k0, k1, pp0, pp1);
  bool fine = rw_fcc_tb_plane<D> (v, pp0, k0, z, c, src, kprev);
  rw_fcc_wide_shift<D, W> (v, m2, p2, e2, x2, c.lane);
  c.i += c.sz, c.il += c.sz;
  if (two)
    fine = rw_fcc_tb_plane<-D> (v, pp1, k1, z + 1, c, src, kprev) && fine;
  rw_fcc_wide_shift<-D, W> (v, m3, p3, e3, x3, c.lane);
  c.i += c.sz, c.il += c.sz;
  return fine;
}

/* Two steps a pass with the split sums (SPLIT): both halves march as
 * the single steps' split column does (RwFccSplit, rw-cuda-fcc-wide.cuh).
 * Time n + 1 from the rows of p, each plane's three rows reduced once as
 * they arrive; time n + 2 from the n + 1 values of plane z alone, once
 * the barrier has put them in the ring: rows y ∓ 1 from shared memory,
 * row y the thread's own (registers), reduced the same way into
 * RwFccTbTwo, so that the update of plane z − 1 has its T(z − 1) and
 * U(z). A barrier follows each pair of planes (rw_fcc_tb_split_pair);
 * the ring's four slots hold two pairs: a pair's slots are read after the
 * barrier that follows their stores, and written again two barriers
 * later. */
template <int W, typename R>
struct RwFccTbTwo
{
  typedef typename R::arith A;
  A t[2][W];                    /* T(z′) of time n + 1 on the pair's first and second plane */
  A u[W];                       /* U(z′), the last plane reduced */
  A o[W];                       /* time n + 1 of row y on that plane (the centres) … */
  R pc;                         /* … and its time n (their p⁻) */
};

/* Time n + 1 of plane z from T(z) (t), U(z + 1) (u), row y cz and its
 * p⁻ pp, kinds kw, into o (rw_fcc_tb_first: the ring's slot z & 3). */
template <typename S, typename I, int W, int BY, typename R>
__device__ __forceinline__ void
rw_fcc_tb_split_first (const typename R::arith (&t)[W], const typename R::arith (&u)[W],
                       const R &cz, const R &pp, unsigned kw, unsigned z,
                       const RwFccTb<S, I, W, BY> &c, const RwCudaSource &src,
                       typename R::arith (&o)[W])
{
  rw_fcc_split_values<W> (t, u, cz, pp, o);
  rw_fcc_tb_first (o, kw, z, c, src, z & 3);
}

/* After the barrier: plane z's time n + 1 (shift D; PI: the pair's first
 * or second plane) reduced — rows y ∓ 1 from the ring, row y the
 * thread's own (o) — and time n + 2 on plane z − 1 (its time n in w.pc,
 * its kinds kw, its first entry i), stored into n2 where interior. Then
 * o and pz (time n on plane z) become w.o and w.pc. Whole warps (the
 * shuffles); lanes 0 and 31 store nothing, so the ends past the segment
 * are not needed. */
template <int D, int PI, typename S, typename I, int W, int BY, typename R>
__device__ __forceinline__ bool
rw_fcc_tb_split_second (const typename R::arith (&o)[W], const R &pz, unsigned kw, unsigned z,
                        I i, const RwFccTb<S, I, W, BY> &c, RwFccTbTwo<W, R> &w)
{
  typedef typename R::arith A;
  typedef RwFccRow<W, A> Row;
  Row m, pr, oz;
  rw_fcc_tb_sh_ld<W> (c.sh[z & 3][c.ty - 1] + c.lane * W, m);
  rw_fcc_tb_sh_ld<W> (c.sh[z & 3][c.ty + 1] + c.lane * W, pr);
#pragma unroll
  for (int k = 0; k < W; k++)
    oz.v[k] = o[k];
  const A x[3] = { (A) 0, (A) 0, (A) 0 };
  rw_fcc_split_plane<D, true, W> (m, pr, oz, x, w.u, w.t[PI], c.lane);
  bool fine = true;
  if (c.own && z > c.z0 && kw != 0)
    {
      A out[W];
      rw_fcc_split_values<W> (w.t[1 - PI], w.u, w.o, w.pc, out);
      fine = rw_fcc_wide_store<W> (out, kw, c.n2, i);
    }
#pragma unroll
  for (int k = 0; k < W; k++)
    w.o[k] = o[k];
  w.pc = pz;
  return fine;
}

/* Planes z (shift D) and z + 1 (when two) of the split march: the rows
 * of planes z + 2 and z + 3 loaded first, with the next pair's kinds and
 * p⁻ (rw_fcc_tb_ahead), as rw_fcc_tb_pair; time n + 1 on both planes (each
 * followed by the reduction of the plane two above it, as single steps
 * do); one barrier; then time n + 2 on planes z − 1 and z. Two planes a
 * barrier: the hall in fp32 211.1 against 199.5 G sites/s with a barrier
 * a plane (docs/PERFORMANCE.md). kprev: the kinds of plane z − 1 (then
 * z + 1's). */
template <int D, typename S, typename I, int W, int BY, typename R>
__device__ __forceinline__ bool
rw_fcc_tb_split_pair (RwFccSplit<W, R> &v, RwFccTbTwo<W, R> &w, RwFccTb<S, I, W, BY> &c,
                      unsigned z, bool two, bool more, unsigned (&kn)[2], R (&qn)[2],
                      const RwCudaSource &src, unsigned &kprev)
{
  typedef typename R::arith A;
  const I j = c.il + 2 * c.sz, j1 = j + c.sz; /* rows (y, z + 2), (y, z + 3) */
  R m2, p2, c2, m3, p3, c3;
  A x2[3], x3[3];
  rw_fcc_split_ends<D, W> (x2, c.p, j, c.sy, c.lane);
  rw_fcc_split_ends<-D, W> (x3, c.p, j1, c.sy, c.lane);
  rw_fcc_pair_rows (c.p, j, j1, c.sy, m2, p2, c2, m3, p3, c3);
  unsigned k0, k1;
  R pp0, pp1;
  rw_fcc_tb_ahead (c, more, kn, qn, k0, k1, pp0, pp1);
  const I i0 = c.i;
  A o0[W], o1[W];
  const R z0c = v.c0, z1c = v.c1;
  rw_fcc_tb_split_first (v.t0, v.u, v.c0, pp0, k0, z, c, src, o0);
  rw_fcc_split_plane<D, true, W> (m2, p2, c2, x2, v.u, v.t0, c.lane);
  v.c0 = c2;
  c.i += c.sz;
  if (two)
    rw_fcc_tb_split_first (v.t1, v.u, v.c1, pp1, k1, z + 1, c, src, o1);
  rw_fcc_split_plane<-D, true, W> (m3, p3, c3, x3, v.u, v.t1, c.lane);
  v.c1 = c3;
  c.i += c.sz, c.il += 2 * c.sz;
  rw_fcc_tb_barrier ();
  bool fine = true;
  if (c.own_row)
    {
      fine = rw_fcc_tb_split_second<D, 0> (o0, z0c, kprev, z, i0 - c.sz, c, w);
      if (two)
        fine = rw_fcc_tb_split_second<-D, 1> (o1, z1c, k0, z + 1, i0, c, w) && fine;
    }
  kprev = k1;
  return fine;
}

/* A block's column of planes [za, zb] (time n + 2 on [za + 1, zb)) from
 * row (y, za), plane za of shift D: the split march (SPLIT) or the
 * offsets' order. */
template <int D, bool PACK, bool SPLIT, typename S, typename I, int W, int BY>
__device__ __forceinline__ bool
rw_fcc_tb_column (RwFccTb<S, I, W, BY> &c, unsigned za, unsigned zb, const RwCudaSource &src)
{
  typedef typename RwFccRowOf<S, W, PACK>::type R;
  typedef typename R::arith A;
  typename std::conditional<SPLIT, RwFccSplit<W, R>, RwFccWide<W, R>>::type v;
  rw_fcc_wide_start<D, W> (v, c.p, c.il, c.sy, c.sz, c.lane);
  RwFccTbTwo<W, R> w; /* the split march's time n + 2 */
  if constexpr (SPLIT)
    {
#pragma unroll
      for (int k = 0; k < W; k++)
        w.t[0][k] = w.t[1][k] = w.u[k] = w.o[k] = (A) 0;
      w.pc = v.c0;
    }
  unsigned kn[2] = { rw_fcc_tb_kinds (c, c.i), rw_fcc_tb_kinds (c, c.i + c.sz) };
  R qn[2];
  rw_fcc_row_ld<true> (c.q, c.il, qn[0]);
  rw_fcc_row_ld<true> (c.q, c.il + c.sz, qn[1]);
  unsigned kprev = 0;
  bool fine = true;
  for (unsigned z = za; z <= zb; z += 2)
    if constexpr (SPLIT)
      fine = rw_fcc_tb_split_pair<D> (v, w, c, z, z + 1 <= zb, z + 2 <= zb, kn, qn, src, kprev)
             && fine;
    else
      fine = rw_fcc_tb_pair<D> (v, c, z, z + 1 <= zb, z + 2 <= zb, kn, qn, src, kprev) && fine;
  return fine;
}

/* Blocks (segment, tile of BY − 2 rows from row 1, chunk of zc planes).
 * A segment is 32·W entries from 30·W·s − W: lanes 1 … 30 its own, lanes
 * 0 and 31 a ring that the segments beside it own (their time n + 1 gives
 * the shifts by ±1 of lanes 1 and 30), so that segments overlap by two
 * lanes and no lane computes a lone site. zr: per (segment, tile), the
 * planes [z0, z1) of its interior sites (z0 ≥ 2: planes 0 and 1 hold
 * none), time n + 2 computed there and time n + 1 on [z0 − 1, z1].
 * Launched whole warps, every thread to the end (the barriers). */
template <typename S, typename I, int W, int BY, bool PACK, bool SPLIT>
__global__ void __launch_bounds__ (32 * BY, 16 / BY)
rw_kernel_fcc_tb (const S *__restrict__ p, const S *__restrict__ q, S *__restrict__ n1,
                  S *__restrict__ n2, const uint8_t *__restrict__ kind,
                  const uint2 *__restrict__ zr, unsigned zc, I pitch, I ny, RwCudaSource src,
                  int step, int *bad)
{
  typedef typename RwArith<S>::type A;
  __shared__ __align__ (16) A sh[4][BY][32 * W];
  uint2 r = zr[blockIdx.x + gridDim.x * blockIdx.y];
  r.x = max (r.x, blockIdx.z * zc);
  r.y = min (r.y, (blockIdx.z + 1) * zc);
  if (r.x >= r.y)
    return;
  RwFccTb<S, I, W, BY> c;
  c.p = p, c.q = q, c.n1 = n1, c.n2 = n2, c.kind = kind, c.sh = sh;
  c.lane = threadIdx.x, c.ty = threadIdx.y;
  const unsigned nyu = (unsigned) ny, yr = 1 + (BY - 2) * blockIdx.y + c.ty - 1;
  const unsigned y = min (yr, nyu - 1), yl = min (max (y, 1u), nyu - 2);
  /* the lane's first entry, −W for lane 0 of the first segment */
  const long long xf = (long long) blockIdx.x * 30 * W - W + (long long) c.lane * W;
  c.own_row = c.ty >= 1 && c.ty + 2 <= BY && yr + 1 < nyu;
  c.active = xf >= 0 && xf < (long long) pitch;
  c.own = c.own_row && c.active && c.lane >= 1 && c.lane <= 30;
  c.z0 = r.x, c.z1 = r.y;
  c.sy = pitch, c.sz = pitch * ny;
  const unsigned za = r.x - 1, zb = r.y;
  /* lane 0 of the first segment (no entry of the row) marches at entry
   * 0: its loads stay in the array, and what it computes is never used
   * (an inactive lane's n + 1 is 0, and entry 0 is no interior site, so
   * the shift of lane 1 that reads it is never stored) */
  const long long xa = max (xf, 0ll);
  c.i = (I) (xa + (long long) pitch * ((long long) y + (long long) ny * za));
  c.il = (I) (xa + (long long) pitch * ((long long) yl + (long long) ny * za));
  /* whether a cell of the source lies in this thread's column: only then
   * does it look for one on each plane */
  c.src_col = false;
  {
    const long long col = (long long) (c.i % c.sz);
#pragma unroll
    for (int k = 0; k < RW_GRID_STENCIL_MAX; k++)
      if (k < src.n)
        {
          const long long d = src.cell[k] % (long long) c.sz - col;
          c.src_col = c.src_col || (d >= 0 && d < W);
        }
  }
  const bool fine = ((yl + za) & 1) != 0 ? rw_fcc_tb_column<1, PACK, SPLIT> (c, za, zb, src)
                                         : rw_fcc_tb_column<-1, PACK, SPLIT> (c, za, zb, src);
  if (!fine)
    atomicMin (bad, step);
}

/* Time n + 1 of the source's interior cells (the other cells are the
 * boundary kernel's), as the air kernel computes it (SPLIT: its split
 * sums): rw_fcc_tb_pass then adds the source to them, and the two-step
 * kernel reads them. */
template <typename S, bool SPLIT>
__global__ void
rw_kernel_fcc_src_air (const S *__restrict__ p, const S *__restrict__ q, S *__restrict__ n1,
                       const uint8_t *__restrict__ kind, RwCudaSource src, long long pitch,
                       long long ny)
{
  const int k = (int) threadIdx.x;
  if (k >= src.n)
    return;
  const long long i = src.cell[k], sz = pitch * ny;
  if (kind[i] != 1)
    return;
  const int P = (int) ((((i / pitch) % ny) + i / sz) & 1);
  rw_st (n1, (size_t) i,
         rw_fcc_air (rw_ldg (p, (size_t) i),
                     SPLIT ? rw_fcc_sum_split (p + i, P, (int) pitch, (int) sz)
                           : rw_fcc_sum (p + i, P, (int) pitch, (int) sz),
                     rw_ldg (q, (size_t) i)));
}

template <typename S, typename I>
void
rw_fcc_tb_launch (dim3 grd, cudaStream_t stream, const S *p, const S *q, S *n1, S *n2,
                  const uint8_t *kind, const uint2 *zr, unsigned zc, I pitch, I ny,
                  const RwCudaSource &src, int step, int *bad, int hard, double s1, bool split)
{
  constexpr int W = sizeof (S) == 8 ? 2 : 4;
  /* SP: the split sums, which fp64 never takes (the CPU's bits), as
   * single steps */
  const auto launch = [&] (auto sp) {
    constexpr bool SP = decltype (sp)::value && sizeof (S) < 8;
    if (src.n > 0)
      {
        rw_kernel_fcc_src_air<S, SP><<<1, 32, 0, stream>>> (p, q, n1, kind, src,
                                                            (long long) pitch, (long long) ny);
        rw_kernel_io<S><<<1, 32, 0, stream>>> (n1, src, hard, s1, NULL, 0, NULL, 0, 1);
      }
    /* fp16 keeps its rows as halves, as the production air kernel does */
    rw_kernel_fcc_tb<S, I, W, RW_FCC_TB_BY, sizeof (S) == 2, SP>
      <<<grd, dim3 (32, RW_FCC_TB_BY), 0, stream>>> (p, q, n1, n2, kind, zr, zc, pitch, ny, src,
                                                     step, bad);
  };
  if (split)
    launch (std::true_type ());
  else
    launch (std::false_type ());
}

#define RW_FCC_TB_INST(S, I)                                                                     \
  template void rw_fcc_tb_launch<S, I> (dim3, cudaStream_t, const S *, const S *, S *, S *,      \
                                        const uint8_t *, const uint2 *, unsigned, I, I,          \
                                        const RwCudaSource &, int, int *, int, double, bool);
RW_FCC_TB_INST (float, unsigned)
RW_FCC_TB_INST (float, size_t)
RW_FCC_TB_INST (double, unsigned)
RW_FCC_TB_INST (double, size_t)
RW_FCC_TB_INST (__half, unsigned)
RW_FCC_TB_INST (__half, size_t)
