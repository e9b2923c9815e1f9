/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-cuda-fcc-kernels.cuh — the FCC path's device code that
 * rw-cuda-fcc.cu launches (its host code): the wide air kernel's entry
 * (its register z-march is rw-cuda-fcc-wide.cuh), the boundary sites
 * (the wall entries' members and means, rw_kernel_fcc_boundary), the
 * energy sums and the slices. Included by rw-cuda-fcc.cu alone. */
#pragma once

#include "rw-cuda-common.cuh"
#include "rw-cuda-vec.cuh"
#include "rw-cuda-fcc-device.cuh"
#include "rw-cuda-fcc-wide.cuh"
#include "rw-cuda-fcc-tables.h"
#include "rw-scheme-fcc.h"

/* The air kernel's block: RW_FCC_BX × RW_FCC_BY threads by default
 * (ROOMWAVE_FCC_BLOCK=XxY for benchmarks: X a multiple of 32, at most
 * RW_FCC_AIR_THREADS in all: 128 for fp16 rows as halves). 32 × 4
 * rather than 32 × 8: smaller blocks
 * leave the boundary kernel's blocks room beside them, which pays with
 * that kernel launched first at the highest priority (rw_fcc_step; the
 * 30 m³ room at 4 kHz: fp16 123 against 107 G sites/s with the priority
 * alone; alone, 32 × 4 was +2.5 % in fp32 and −3 % in fp16 there, +2 %
 * in the hall; docs/PERFORMANCE.md). */
#define RW_FCC_BX 32
#define RW_FCC_BY 4

/* The wide air kernel's rows (RwFccRows) as its launch passes them:
 * segments and entries of each class, the words' stride. */
struct RwFccRowsArg
{
  unsigned flat, n_seg, seg[2], end[2];
};

/* The air kernel's largest block: fp16 rows as halves are compiled for
 * the default block, five an SM with the offsets' order (ptxas then takes
 * 78 registers instead of 74, with as many blocks an SM, and the 1000 m³
 * hall at 4 kHz ran 280.2 against 266.8 G sites/s on the H200), seven
 * with the split sums (68–72 registers: the hall 326.8–327.2 against
 * 323.2–323.8 at 5, 6 or 8 blocks an SM; docs/PERFORMANCE.md); the
 * others for blocks of up to RW_FCC_MAX_THREADS (five an SM took fp32
 * from 106 registers to 96 with spills: the 30 m³ room 125.9 against
 * 134.2, the hall the same). */
#define RW_FCC_AIR_THREADS(PACK) ((PACK) ? RW_FCC_BX * RW_FCC_BY : RW_FCC_MAX_THREADS)

/* PACK: the rows as RwFccRowOf keeps them (fp16 only); SPLIT: the split
 * sums (rw-cuda-fcc-wide.cuh; fp32 and fp16 only). */
template <typename S, typename I, int W, bool PACK, bool SPLIT>
__global__ void __launch_bounds__ (RW_FCC_AIR_THREADS (PACK), PACK ? (SPLIT ? 7 : 5) : 1)
rw_kernel_fcc_air_wide (const S *__restrict__ p, S *__restrict__ q, const uint8_t *__restrict__ kind,
                        const unsigned *__restrict__ air, RwFccRowsArg rows,
                        const uint2 *__restrict__ zr, unsigned zc, unsigned cz0, unsigned zlo,
                        unsigned zhi, I pitch, I ny, int step, int *bad)
{
  /* blocks of 32 × warps threads, a warp a segment of 32·W entries
   * (rw-cuda-fcc-tables.h, "the wide air kernel's rows"); whole warps
   * only (the shuffles): the segment and the z range are one for a warp */
  const unsigned lane = threadIdx.x;
  unsigned y, xf, zi, aw;
  bool active;
  I sa;
  if (rows.flat)
    {
      /* warp threadIdx.y of block blockIdx.x: segment s of row class
       * c = blockIdx.y, lane threadIdx.x its entries e … e + W − 1 of the
       * class's rows end to end; a lane past the class's last entry
       * stays, inactive, on that entry's row */
      const unsigned c = blockIdx.y, s = blockIdx.x * blockDim.y + threadIdx.y;
      if (s >= rows.seg[c])
        return;
      const unsigned e = (s * 32 + lane) * W, end = rows.end[c];
      active = e < end;
      const unsigned ec = active ? e : end - W;
      y = 1 + c + 2 * (ec / (unsigned) pitch), xf = ec % (unsigned) pitch;
      zi = blockIdx.x + gridDim.x * c;
      aw = c * rows.n_seg + s, sa = 2 * (I) rows.n_seg;
    }
  else
    {
      /* by rows: warp threadIdx.y of block (blockIdx.x, blockIdx.y),
       * segment blockIdx.x of row y; a lane past the row's end stays,
       * inactive, on the row's last W entries (rw_cuda_fcc_lane_entry) */
      y = blockIdx.y * blockDim.y + threadIdx.y;
      if (y == 0 || y + 1 >= (unsigned) ny)
        return;
      xf = rw_cuda_fcc_lane_entry (blockIdx.x, lane, (unsigned) pitch, W, &active);
      zi = blockIdx.x + gridDim.x * blockIdx.y;
      aw = blockIdx.x + rows.n_seg * y, sa = (I) rows.n_seg * ny;
    }
  uint2 r = zr[zi];
  const unsigned cz = cz0 + blockIdx.z;
  r.x = max (r.x, max (cz * zc, zlo));
  r.y = min (r.y, min ((cz + 1) * zc, zhi));
  if (r.x >= r.y)
    return;
  const I sy = pitch, sz = pitch * ny;
  const I i = (I) xf + pitch * ((I) y + ny * (I) r.x);
  /* the warp's air words, plane r.x's first */
  const unsigned *a = air + aw + sa * (I) r.x;
  /* plane r.x's δ: +1 on a row of parity 1 (one for the warp: its rows
   * are one, or of one class) */
  const bool fine =
    ((y + r.x) & 1) != 0
      ? rw_fcc_wide_column<1, W, PACK, SPLIT> (p, q, kind, a, i, r.x, r.y, sy, sz, sa, active, lane)
      : rw_fcc_wide_column<-1, W, PACK, SPLIT> (p, q, kind, a, i, r.x, r.y, sy, sz, sa, active, lane);
  if (!fine)
    atomicMin (bad, step);
}

/* The 12 offsets (RW_FCC_NBR_OFFSETS) for the wall entries' members. */
/* Each axis's component + 1 of the 12, two bits an offset: register
 * arithmetic for an index that differs from thread to thread (a
 * __constant__ table read at such indices is serialised, one address at
 * a time). */
__host__ __device__ constexpr unsigned
rw_fcc_pack_axis (int a)
{
  constexpr int off[RW_FCC_N_NBR][3] = RW_FCC_NBR_OFFSETS;
  unsigned r = 0;
  for (int k = 0; k < RW_FCC_N_NBR; k++)
    r |= (unsigned) (off[k][a] + 1) << (2 * k);
  return r;
}
/* Component a of offset d */
template <int a>
__device__ __forceinline__ int
rw_fcc_off (int d)
{
  constexpr unsigned packed = rw_fcc_pack_axis (a);
  return (int) ((packed >> (2 * d)) & 3u) - 1;
}

/* The folded index delta of offset d from a row of parity P. */
__device__ __forceinline__ long long
rw_fcc_delta (int d, int P, long long sy, long long sz)
{
  return (long long) rw_fcc_nbr_offset (rw_fcc_off<0> (d), P) + sy * rw_fcc_off<1> (d)
         + sz * rw_fcc_off<2> (d);
}

/* The 12 folded deltas from rows of either parity, in a block's shared
 * memory (a wall entry's member at a per-thread offset: one shared load
 * instead of its arithmetic); every thread of the block must call it. A
 * delta fits an int: a plane and a row are below 2³¹ entries
 * (rw_cuda_fcc_create). */
struct RwFccDeltas
{
  int d[2][RW_FCC_N_NBR];
};

__device__ __forceinline__ const RwFccDeltas *
rw_fcc_deltas_shared (long long sy, long long sz)
{
  __shared__ RwFccDeltas t;
  if (threadIdx.x < 2 * RW_FCC_N_NBR)
    t.d[threadIdx.x / RW_FCC_N_NBR][threadIdx.x % RW_FCC_N_NBR] =
      (int) rw_fcc_delta ((int) (threadIdx.x % RW_FCC_N_NBR), (int) (threadIdx.x / RW_FCC_N_NBR), sy, sz);
  __syncthreads ();
  return &t;
}

/* Bit d: whether offset d joins rows of different parities ((dy + dz) odd). */
__host__ __device__ constexpr unsigned
rw_fcc_pack_flip ()
{
  constexpr int off[RW_FCC_N_NBR][3] = RW_FCC_NBR_OFFSETS;
  unsigned r = 0;
  for (int k = 0; k < RW_FCC_N_NBR; k++)
    r |= (unsigned) ((off[k][1] + off[k][2]) & 1) << k;
  return r;
}

/* The sum in double of p over an outside site o's members (bit k of
 * mask: o + offset k, o in a row of parity Po), in ascending offset
 * order, one iteration a member. */
template <typename S>
__device__ __forceinline__ double
rw_fcc_members (const S *__restrict__ p, long long o, int Po, unsigned mask, const RwFccDeltas *dl)
{
  double a = 0;
  for (unsigned m = mask; m != 0; m &= m - 1)
    a += (double) rw_ld (p, o + dl->d[Po][__ffs ((int) m) - 1]);
  return a;
}

/* A wall entry's members' sums of p and q (q NULL: p only), in offset
 * order around its outside site o = i + offset d (rw_fcc_wall_entries:
 * code = d << 12 | member mask); returns their number. */
template <typename S>
__device__ __forceinline__ int
rw_fcc_wall_entry (const S *__restrict__ p, const S *__restrict__ q, long long i, int P,
                   unsigned code, const RwFccDeltas *dl, double *tp, double *tq)
{
  const int d = (int) (code >> 12);
  const long long o = i + dl->d[P][d];
  constexpr unsigned flip = rw_fcc_pack_flip ();
  const int Po = P ^ (int) ((flip >> d) & 1u);
  *tp = rw_fcc_members (p, o, Po, code & 0xfffu, dl);
  *tq = q != NULL ? rw_fcc_members (q, o, Po, code & 0xfffu, dl) : 0.0;
  return __popc (code & 0xfffu);
}

/* The means of a boundary node's wall entries, summed in entry order
 * (rw-scheme-fcc.h, "Wall links"; the CPU backend's order). */
template <typename S>
__device__ __forceinline__ double
rw_fcc_wall_means (const S *__restrict__ p, const RwFccNode &nd, const uint16_t *__restrict__ went,
                   const RwFccDeltas *dl)
{
  double means = 0;
  for (unsigned e = 0; e < nd.nw; e++)
    {
      double t, u;
      const int c = rw_fcc_wall_entry (p, (const S *) NULL, (long long) nd.i, (int) nd.P,
                                       went[nd.w + e], dl, &t, &u);
      means += t / (double) c;
    }
  return means;
}

__device__ __forceinline__ double
rw_fcc_bnd (double K, double S, double p, double s, double pp, double b, int M, const double *c,
            float *v, float *w, size_t stride)
{
  return rw_fcc_update_boundary_f32 ((double) RW_FCC_LAMBDA2, K, S, p, s, pp, b, M, c, v, w,
                                     stride);
}

__device__ __forceinline__ double
rw_fcc_bnd (double K, double S, double p, double s, double pp, double b, int M, const double *c,
            double *v, double *w, size_t stride)
{
  return rw_fcc_update_boundary_f64 ((double) RW_FCC_LAMBDA2, K, S, p, s, pp, b, M, c, v, w,
                                     stride);
}

/* The means of the wall entries' outside sites [r0, r1) (RwFccWallSite):
 * each one's members' p summed in double in offset order, over their
 * number — what rw_fcc_wall_entry gives each entry that names the site,
 * once for all of them (the 30 m³ room at 4 kHz: 523 020 entries name
 * 131 389 sites; the entries' member loads and divisions were 29 M of
 * the hall's boundary kernel's 41 M warp instructions a step,
 * docs/PERFORMANCE.md). */
template <typename S>
__global__ void
rw_kernel_fcc_wall_means (const S *__restrict__ p, const RwFccWallSite *__restrict__ sites,
                          size_t r0, size_t r1, size_t pitch, size_t ny, double *__restrict__ om)
{
  const RwFccDeltas *dl = rw_fcc_deltas_shared ((long long) pitch, (long long) (pitch * ny));
  const size_t r = r0 + blockIdx.x * (size_t) blockDim.x + threadIdx.x;
  if (r >= r1)
    return;
  const RwFccWallSite ws = sites[r];
  om[r] = rw_fcc_members (p, (long long) ws.o, ws.Po, ws.mask, dl) / (double) __popc (ws.mask);
}

/* Boundary site b of the list (node nd), one step: p (time n) in, p⁻
 * from pq, time n + 1 out to q (rw_kernel_fcc_boundary). */
template <typename S>
__device__ __forceinline__ void
rw_fcc_boundary_site (const S *__restrict__ p, const S *pq, S *q, const RwFccNode &nd, size_t b,
                      size_t n_nodes, const uint16_t *__restrict__ went,
                      const double *__restrict__ beta, const double *__restrict__ coef,
                      typename RwArith<S>::type *v, typename RwArith<S>::type *w, size_t pitch,
                      size_t ny, int step, int *bad, const double *__restrict__ om,
                      const uint32_t *__restrict__ wo, const RwFccDeltas *dl)
{
  typedef typename RwArith<S>::type A;
  const long long i = (long long) nd.i;
  const A s = rw_fcc_sum (p + i, (int) nd.P, (int) pitch, (int) (pitch * ny));
  double means = 0;
  if (om != nullptr)
    for (unsigned e = 0; e < nd.nw; e++)
      means += om[wo[nd.w + e]];
  else
    means = rw_fcc_wall_means (p, nd, went, dl);
  const double pn = rw_fcc_bnd (rw_fcc_wall_K (nd.K, nd.nw), (double) nd.S, (double) rw_ld (p, i),
                                rw_fcc_wall_sum ((double) s, means), (double) rw_ld (pq, i),
                                beta[nd.surf], nd.M,
                                coef + (size_t) nd.surf * 4 * RW_ADM_MAX_BRANCHES, v + b, w + b,
                                n_nodes);
  const A out = (A) pn;
  rw_st (q, i, out);
  if (!rw_stored_finite (out, q))
    atomicMin (bad, step);
}

/* The boundary sites [b0, b1) of the list: p (time n) in, p⁻ from pq,
 * time n + 1 out to q (pq = q in a single step; the arrays of a two-step
 * pass are apart: rw_fcc_tb_pass); om, wo: the means of the wall entries'
 * outside sites from p (rw_kernel_fcc_wall_means) and each entry's site,
 * or NULL (each entry's members summed here). A thread a site, or sites
 * in turn where the grid is smaller (rw_fcc_boundary_grid). What it
 * costs beside the air kernel is its L2 sectors, about 7 a site, not its
 * latency: the members' loads issued at once, the next node loaded
 * ahead, and 32 registers were no faster (H200, 2026-11-29;
 * docs/PERFORMANCE.md, fourteenth section); with none of its neighbours'
 * and members' loads a step would be 6.6 % faster in fp32, with the
 * neighbour sum handed over 1.7 % (the fifteenth). */
template <typename S>
__global__ void
rw_kernel_fcc_boundary (const S *__restrict__ p, const S *pq, S *q,
                        const RwFccNode *__restrict__ nodes, size_t n_nodes,
                        const uint16_t *__restrict__ went,
                        const double *__restrict__ beta, const double *__restrict__ coef,
                        typename RwArith<S>::type *v, typename RwArith<S>::type *w,
                        size_t pitch, size_t ny, int step, int *bad, size_t b0, size_t b1,
                        const double *__restrict__ om, const uint32_t *__restrict__ wo)
{
  const RwFccDeltas *dl = rw_fcc_deltas_shared ((long long) pitch, (long long) (pitch * ny));
  /* the sites [b0, b1) of the list (a slab's planes: rw-cuda-halo.cuh) */
  for (size_t b = b0 + blockIdx.x * (size_t) blockDim.x + threadIdx.x; b < b1;
       b += (size_t) gridDim.x * blockDim.x)
    rw_fcc_boundary_site (p, pq, q, nodes[b], b, n_nodes, went, beta, coef, v, w, pitch, ny,
                          step, bad, om, wo, dl);
}

/* The growth monitor's sums (RwBackendOps.energy): out[0] += the FCC
 * energy Σ (p − q)² + (λ²/4) Σ_edges (Δp)(Δq) (each edge once: the 6
 * forward offsets RW_FCC_FWD_OFFSETS, as the CPU backend takes them),
 * out[1] += Σ p; over the entries [i0, i1): a slab's owned planes
 * (rw-slab.h), whose edges reach the ghost planes next to them, kept
 * right by the exchange; each edge counts on the rank of the site it
 * starts from, so the ranks' readings add up to the whole grid's and
 * each equals the CPU backend's for the same planes.
 * The boundary sites' branches and wall links below count by the site
 * that holds them, on those planes alone, as the CPU backend counts. */
template <typename S>
__global__ void
rw_kernel_fcc_energy (const S *__restrict__ p, const S *__restrict__ q,
                      const uint8_t *__restrict__ kind, size_t pitch, size_t ny, size_t i0,
                      size_t i1, double *part, RwExactSum *__restrict__ xpart)
{
  double e = 0;
  RwExactSum sum = { 0u, 0u };
  const long long sy = (long long) pitch, sz = (long long) (pitch * ny);
  for (size_t i = i0 + blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < i1;
       i += (size_t) gridDim.x * blockDim.x)
    {
      if (kind[i] == 0)
        continue;
      const size_t yz = i / pitch;
      const long long P = (long long) ((yz % ny + yz / ny) & 1);
      const double pi = (double) rw_ld (p, i), qi = (double) rw_ld (q, i);
      e += (pi - qi) * (pi - qi);
      rw_exact_sum_add (&sum, pi);
      /* RW_FCC_FWD_OFFSETS folded (the CPU backend's edges, in its order):
       * dx = +1 lands on the other parity at xf + P, dx = 0 on the same */
      const long long ii = (long long) i, ip = ii + P;
      const long long fwd[6] = { ip - sy, ip + sy, ip - sz, ip + sz, ii + sy - sz, ii + sy + sz };
      double edges = 0;
      for (int d = 0; d < 6; d++)
        if (kind[fwd[d]] != 0)
          edges += (pi - (double) rw_ld (p, fwd[d])) * (qi - (double) rw_ld (q, fwd[d]));
      e += 0.25 * RW_FCC_LAMBDA2 * edges;
    }
  rw_block_exact (sum, xpart);
  double s[1] = { e };
  rw_block_parts<1> (s, part);
}

/* What the branches store: (λ/2) S Σ_m (D̂ v² + F̂ q²) (rw-scheme-fcc.h),
 * as parts of the reading (rw_block_parts). */
template <typename A>
__global__ void
rw_kernel_fcc_branch_energy (const RwFccNode *__restrict__ nodes, size_t n_nodes,
                             const double *__restrict__ en, const A *v, const A *w, size_t i0,
                             size_t i1, double *part)
{
  rw_node_window_energy (nodes, n_nodes, i0, i1, part, [&] (const RwFccNode &nd, size_t b) {
    double node = 0;
    for (int m = 0; m < nd.M; m++)
      {
        const double vm = (double) v[m * n_nodes + b], wm = (double) w[m * n_nodes + b];
        const double *c = en + (size_t) nd.surf * 2 * RW_ADM_MAX_BRANCHES + 2 * m;
        node += c[0] * vm * vm + c[1] * wm * wm;
      }
    return 0.5 * sqrt ((double) RW_FCC_LAMBDA2) * (double) nd.S * node;
  });
}

/* The wall links' part of the energy (rw-scheme-fcc.h):
 * (λ²/4) W Σ_entries (p − x̄)(q − x̄_q), as parts of the reading. */
template <typename S>
__global__ void
rw_kernel_fcc_wall_energy (const S *__restrict__ p, const S *__restrict__ q,
                           const RwFccNode *__restrict__ nodes, size_t n_nodes,
                           const uint16_t *__restrict__ went, size_t pitch, size_t ny, size_t i0,
                           size_t i1, double *part)
{
  const RwFccDeltas *dl = rw_fcc_deltas_shared ((long long) pitch, (long long) (pitch * ny));
  rw_node_window_energy (nodes, n_nodes, i0, i1, part, [&] (const RwFccNode &nd, size_t) {
    const double pi = (double) rw_ld (p, (long long) nd.i), qi = (double) rw_ld (q, (long long) nd.i);
    double node = 0;
    for (unsigned k = 0; k < nd.nw; k++)
      {
        double mp, mq;
        const int c = rw_fcc_wall_entry (p, q, (long long) nd.i, (int) nd.P, went[nd.w + k], dl,
                                         &mp, &mq);
        node += (pi - mp / (double) c) * (qi - mq / (double) c);
      }
    return 0.25 * RW_FCC_LAMBDA2 * RW_FCC_WALL_W * node;
  });
}

/* One plane of the cubic array (rw-backend.h read_slice): 0 where no site. */
template <typename S>
__global__ void
rw_kernel_fcc_slice (const S *__restrict__ f, const uint8_t *__restrict__ kind, int axis,
                     size_t index, size_t gx, size_t ny, size_t nz, size_t pitch, float *out)
{
  const size_t dims[3] = { gx, ny, nz };
  const size_t a = axis == 0 ? 1 : 0, b = axis == 2 ? 1 : 2;
  const size_t count = dims[a] * dims[b];
  for (size_t k = blockIdx.x * (size_t) blockDim.x + threadIdx.x; k < count;
       k += (size_t) gridDim.x * blockDim.x)
    {
      size_t c[3];
      c[axis] = index;
      c[a] = k % dims[a];
      c[b] = k / dims[a];
      float v = 0;
      if ((c[0] + c[1] + c[2]) % 2 == 0)
        {
          const size_t i = rw_fcc_fold_index (pitch, ny, c[0], c[1], c[2]);
          if (kind[i] != 0)
            v = (float) rw_ld (f, i);
        }
      out[k] = v;
    }
}
