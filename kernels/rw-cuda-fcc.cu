/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-cuda-fcc.cu — the FCC 13-point scheme (rw-scheme-fcc.h) on the GPU:
 * the CUDA backend's path for grids on the FCC lattice (rw-solver.h,
 * "FCC grids"). rw-cuda-backend.cu hands such setups here; the states
 * carry a tag (RW_CUDA_TAG_FCC) by which its operations dispatch. This
 * file is the host code; the kernels it launches are
 * rw-cuda-fcc-kernels.cuh's.
 *
 * Layout: the sites folded along x (rw-scheme-fcc.h): entry
 * xf + pitch·(y + ny·z), rows of pitch = rw_fcc_row_len (nx) = nxf rounded up to 32
 * entries (fp32: 8, a 32-byte sector), or to 4 where the rows are laid
 * flat (rw_cuda_fcc_pitch), so
 * every stored entry of a row's first nxf is a site and a row holds one
 * parity P = (y + z) & 1. A kind byte per entry: 0 no site or outside,
 * 1 interior site (K = 12), 2 boundary site.
 *
 * One step, three launches that read p (time n) and write q (time n − 1,
 * overwritten with n + 1) at disjoint entries, so their order does not
 * matter:
 *  - rw_kernel_fcc_air_wide: a warp a segment of 32·W entries, by rows
 *    or, for narrow rows, flat (a parity class's rows end to end:
 *    RwFccRows, rw-cuda-fcc-tables.h), each thread updating W adjacent
 *    entries and marching z over its block's [z0, z1) (per-block start
 *    and stop heights from the grid's column ranges), the rows it needs
 *    again kept in registers. Interior sites only; from memory each step
 *    reads p and q and writes q once, 3 words a site, and an air word a
 *    warp (the kind bytes only beside walls); its register z-march is
 *    rw-cuda-fcc-wide.cuh. The scalar form, one site a thread, is
 *    rw-cuda-fcc-scalar.cu, and two steps a pass (rw_fcc_tb_pass) are
 *    rw-cuda-fcc-tb.cu: benchmarks only.
 *  - rw_kernel_fcc_boundary, on a stream of its own beside the air
 *    kernel (rw_fcc_step): a thread a boundary site, or in a large room
 *    fewer threads taking sites in turn (rw_cuda_fcc_boundary_grid), from
 *    a list built on the host (cubic index order, so each takes its area
 *    from RwGrid.area):
 *    the same 12 loads and its wall entries' members (rw-scheme-fcc.h,
 *    "Wall links": up to two planes away, read from p like the rest; an
 *    entry is 2 bytes, its link and a mask of its members, whose indices
 *    follow from the folded offsets),
 *    then rw_fcc_update_boundary_* in double with the
 *    surface's β or branches (rw_admittance_branch_table: the CPU
 *    backend's coefficients), states branch-major (branch m of node b at
 *    m · n_nodes + b).
 *  - the source and receivers (rw_kernel_io, shared with the 7-point path).
 * The neighbour sums are taken in RW_FCC_NBR_OFFSETS order in the
 * arithmetic type, as the CPU backend does: fp64 agrees with it bit for
 * bit (nvcc -fmad=false). fp16 storage computes in fp32. The fp32 and
 * fp16 air kernels take the split sums (RwFccSplit: the same 12
 * values added in another grouping, each row reduced once as it
 * arrives). */
#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include "rw-cuda-state.cuh"
#include "rw-cuda-vec.cuh"
#include "rw-cuda-fcc.cuh"
#include "rw-cuda-fcc-device.cuh"
#include "rw-cuda-fcc-wide.cuh"
#include "rw-cuda-fcc-tables.h"
#include "rw-cuda-fcc-kernels.cuh"
#include "rw-cuda-halo.cuh"
#include "rw-scheme-fcc.h"

/* Entries of a field array: the sites and the guard after them
 * (RW_FCC_GUARD, rw-cuda-fcc-tables.h). */
static size_t
rw_fcc_span (size_t n, size_t plane)
{
  return n + 3 * plane + RW_FCC_GUARD;
}

struct RwCudaFcc
{
  int tag;                      /* RW_CUDA_TAG_FCC: first, as in RwCudaState */
  char name[256];
  int device;
  size_t gx, ny, nz;            /* the grid (cubic array) */
  size_t pitch, n;              /* row pitch (rw_fcc_row_len rounded up: rw_cuda_fcc_pitch), entries */
  RwPrecision precision;
  size_t elem;
  void *p, *q, *mem;
  uint8_t *kind;
  uint2 *zr;                    /* per block: z0, z1 */
  unsigned *air;                /* the wide kernel's air words (rw-cuda-fcc-tables.h) */
  RwFccRows rows;               /* the wide kernel's rows (w > 1) */
  RwFccRowsArg ra;              /* … as its launch passes them */
  unsigned bx, by;              /* the air kernel's block (threads) */
  unsigned w;                   /* entries a thread (rw_kernel_fcc_air_wide; 1: the scalar form) */
  bool f16_halves;              /* fp16: the air kernel keeps its rows as halves (RwFccRowH) */
  bool split;                   /* fp32, fp16: the air kernel's split sums (RwFccSplit) */
  unsigned gbx, gby, gbz, zc;   /* blocks; planes per block (rw_kernel_fcc_air) */
  RwFccNode *nodes;
  size_t n_nodes;
  uint16_t *went;               /* wall entries (rw-scheme-fcc.h): link d << 12 | member mask */
  /* the entries' outside sites, each once (RwFccTables.wsite), their
   * members' means a step (rw_kernel_fcc_wall_means), each entry's site
   * (wo); the sites the nodes [b0, b1) name: [wmin[b0], wfirst[b1])
   * (host). NULL: the boundary kernel sums each entry's members itself
   * (fp32 and fp64, ROOMWAVE_FCC_WALL_MEANS=0, or no entries) */
  RwFccWallSite *wsite;
  double *om;
  uint32_t *wo;
  uint32_t *wfirst, *wmin;
  int m_max;
  double *beta, *coef, *en;     /* per surface: Y0 + Σ b (or β), 4 per branch, D̂ F̂ per branch */
  void *bv, *bq;                /* branch states, m_max · n_nodes of the arithmetic type */
  const double *source;
  size_t n_steps;
  RwCudaSource src;             /* folded cells and weights; n = 0: none */
  int hard;
  size_t n_rcv;
  size_t *rcv_idx;
  double *rcv_dev, *rcv_host;
  int *bad;
  double *esum;
  RwExactSum *exact;            /* the sum of p (rw-exact-sum.h), then its blocks' parts */
  size_t own_z0, own_z1;        /* the planes the energy sums: a slab's owned ones, else all */
  float *slice;
  size_t slice_cap;
  cudaStream_t stream;
  /* the boundary kernel's own stream, so that it runs beside the air
   * kernel (rw_fcc_step); NULL: on `stream` after it */
  cudaStream_t bstream;
  cudaEvent_t ev_fork, ev_join;
  bool bfirst;   /* the boundary kernel launched first (rw_fcc_step) */
  size_t bgrid;  /* beside the air kernel, at most this many blocks of the
                    boundary kernel (rw_fcc_boundary_grid); 0: a thread a site */
  RwCudaHalo *halo;             /* device halos (rw-cuda-halo.cuh); NULL: none */
  /* two steps a pass (rw_fcc_tb_pass, rw-cuda-fcc-tb.cu): on where tb */
  bool tb;
  void *spare, *p_spare, *q_spare; /* the spare pair of fields */
  uint2 *tzr;                   /* per (segment, tile): planes of its interior sites */
  unsigned tgbx, tgby, tgbz, tzc; /* segments, tiles, chunks of tzc planes */
  size_t *node_z;               /* the first boundary site of each plane (host, nz + 1) */
};

#define RW_FCC_ON_DEVICE(st) RW_CUDA (cudaSetDevice ((st)->device))

static size_t
rw_fcc_elem (RwPrecision p)
{
  return p == RW_PRECISION_F64 ? 8 : p == RW_PRECISION_F16 ? 2 : 4;
}

/* The arithmetic type's size: the branch states'. */
static size_t
rw_fcc_arith (RwPrecision p)
{
  return p == RW_PRECISION_F64 ? 8 : 4;
}

static size_t
rw_fcc_max_branches (const RwSolverSetup *setup)
{
  int m = 0;
  for (size_t s = 0; setup->surface_Y && s < setup->grid->n_surfaces; s++)
    m = std::max (m, setup->surface_Y[s].n_branches);
  return (size_t) m;
}

size_t
rw_cuda_fcc_memory_bytes (const RwSolverSetup *setup)
{
  const RwGrid *g = setup->grid;
  return (size_t) rw_cuda_fcc_device_bytes (g->nx, g->ny, g->nz, rw_fcc_elem (setup->precision),
                                            rw_fcc_arith (setup->precision), (double) g->n_boundary,
                                            (double) rw_fcc_max_branches (setup), g->n_surfaces,
                                            setup->n_receivers);
}

/* Two steps a pass (rw_fcc_tb_pass), for benchmarks only:
 * ROOMWAVE_FCC_TB=1 turns them on where the rows are laid out by rows and
 * the spare pair of fields fits on the device. They compute the bits of
 * single steps, in either order of the sums (st->split), but were
 * measured slower (rw-cuda-fcc-tb.cu says by how much and why), so
 * production runs single steps. The tiles' plane
 * ranges come from the air kernel's (tab->zr, blocks of st->by rows),
 * planes 0 and 1 left out (no interior site there). Left to single
 * steps: a source on a cell that is no site (the pass injects it only
 * where a kernel updates). ROOMWAVE_FCC_TB_ZC=N sets the planes a
 * chunk. A failed allocation of the spare pair is no error: single
 * steps then. */
static void
rw_fcc_tb_build (RwCudaFcc *st, const RwFccTables *tab)
{
  const char *te = getenv ("ROOMWAVE_FCC_TB");
  if (te == NULL || strcmp (te, "1") != 0 || st->w == 1 || st->rows.flat || tab->zr == NULL
      || st->ny < 4 || st->nz < 4)
    return;
  for (int k = 0; k < st->src.n; k++)
    if (tab->kind[st->src.cell[k]] == 0)
      return;
  /* segments of 30·w entries (rw_kernel_fcc_tb: 32 lanes, 2 a ring);
   * a tile's planes: the union of the air kernel's blocks over its rows
   * (all their segments) */
  const size_t R = RW_FCC_TB_BY - 2, tiles = (st->ny - 2 + R - 1) / R;
  const size_t segs = (st->pitch + 30 * st->w - 1) / (30 * st->w);
  uint32_t *t = (uint32_t *) malloc (2 * segs * tiles * sizeof (uint32_t));
  if (t == NULL)
    return;
  rw_cuda_fcc_tb_ranges (tab->zr, st->gbx, st->gby, st->by, st->ny, st->nz, R, segs, t);
  /* about 4096 blocks, chunks of at least 32 planes (each chunk computes
   * time n + 1 on two planes more than its own) */
  const size_t cols = segs * tiles, chunks = std::max ((size_t) 1, (4096 + cols - 1) / cols);
  size_t zc = std::max ((size_t) 32, (st->nz + chunks - 1) / chunks);
  const char *ze = getenv ("ROOMWAVE_FCC_TB_ZC");
  if (ze != NULL && atol (ze) >= 4)
    zc = (size_t) atol (ze);
  st->tzc = (unsigned) zc;
  st->tgbx = (unsigned) segs;
  st->tgby = (unsigned) tiles;
  st->tgbz = (unsigned) ((st->nz + zc - 1) / zc);
  const size_t span = rw_fcc_span (st->n, st->pitch * st->ny) * st->elem;
  bool ok = cudaMalloc ((void **) &st->tzr, segs * tiles * sizeof (uint2)) == cudaSuccess
            && cudaMemcpy (st->tzr, t, segs * tiles * sizeof (uint2), cudaMemcpyHostToDevice) == cudaSuccess
            && cudaMalloc (&st->spare, 2 * span) == cudaSuccess
            && cudaMemset (st->spare, 0, 2 * span) == cudaSuccess;
  free (t);
  if (!ok)
    {
      (void) cudaGetLastError ();
      cudaFree (st->tzr), cudaFree (st->spare);
      st->tzr = NULL, st->spare = NULL;
      return;
    }
  st->p_spare = st->spare;
  st->q_spare = (char *) st->spare + span;
  st->tb = true;
}

/* The boundary kernel's grid beside the air kernel (rw_fcc_step):
 * rw_cuda_fcc_boundary_grid's (rw-cuda-fcc-tables.h says why and what it
 * gave) where it has a stream of its own, launched first; else a thread
 * a site. ROOMWAVE_FCC_BND_GRID=N: N blocks at most, 0 a thread a site
 * (benchmarks). */
static size_t
rw_fcc_boundary_grid (const RwCudaFcc *st, int sms)
{
  const char *bg = getenv ("ROOMWAVE_FCC_BND_GRID");
  if (bg != NULL)
    return (size_t) std::max (0L, atol (bg));
  if (st->bstream == NULL || !st->bfirst)
    return 0;
  return rw_cuda_fcc_boundary_grid (st->n, st->n_nodes, sms,
                                    st->precision == RW_PRECISION_F64);
}

static bool
rw_fcc_build (RwCudaFcc *st, const RwSolverSetup *setup, RwError *err)
{
  const RwGrid *g = setup->grid;
  const size_t ns = g->n_surfaces > 0 ? g->n_surfaces : 1;
  const size_t per = 4 * RW_ADM_MAX_BRANCHES, per_en = 2 * RW_ADM_MAX_BRANCHES;
  double *bd = (double *) calloc (ns, sizeof (double));
  double *cd = (double *) calloc (ns * per, sizeof (double));
  double *en = (double *) calloc (ns * per_en, sizeof (double));
  int *M = (int *) calloc (ns, sizeof (int));
  const size_t n_blocks = (size_t) st->gbx * st->gby;
  bool ok = bd && cd && en && M;
  if (!ok)
    rw_fail (err, RW_ERROR_MEMORY, _("out of host memory"));
  /* the surfaces: β of a frequency-independent one as every backend
   * computes it, else the branch table */
  for (size_t s = 0; ok && s < g->n_surfaces; s++)
    {
      bd[s] = rw_beta_of_R (setup->surface_R[s]);
      if (setup->surface_Y && setup->surface_Y[s].n_branches > 0)
        {
          M[s] = setup->surface_Y[s].n_branches;
          bd[s] = rw_admittance_branch_table (&setup->surface_Y[s], setup->time_step_s,
                                              cd + s * per, en + s * per_en);
        }
    }
  /* kinds, boundary sites with their wall entries (rw-scheme-fcc.h, "Wall
   * links"), the blocks' z ranges: rw-cuda-fcc-tables.h, on the host's
   * threads. ROOMWAVE_FCC_WALL_LINKS=0 leaves the links out — for
   * benchmarks only (what they cost; the walls are then the first-order
   * wrong form) */
  const char *links_env = getenv ("ROOMWAVE_FCC_WALL_LINKS");
  const bool no_links = links_env != NULL && strcmp (links_env, "0") == 0;
  /* fp16: the wall entries' outside sites' means once a step, by a
   * kernel of their own before the boundary kernel, on its stream; the
   * others: each entry's in the boundary kernel. fp16's air kernel is
   * bound by its instructions, which the entries' member loops took from
   * it; in fp32 the second launch costs the small room more than it
   * saves (H200, same calls: the 1000 m³ hall at 4 kHz fp16 287.2 against
   * 281.5 G sites/s, fp32 219.4 against 217.1; the 30 m³ room fp16 193.1
   * against 184.5, fp32 132.0 against 135.1; docs/PERFORMANCE.md).
   * ROOMWAVE_FCC_WALL_MEANS=1|0 chooses (tests, benchmarks). */
  const char *wm = getenv ("ROOMWAVE_FCC_WALL_MEANS");
  const bool means = wm != NULL && strcmp (wm, "1") == 0   ? true
                     : wm != NULL && strcmp (wm, "0") == 0 ? false
                                                            : st->precision == RW_PRECISION_F16;
  RwFccTables tab;
  memset (&tab, 0, sizeof tab);
  /* the wide kernel's blocks by its rows' layout (flat: their own z
   * ranges), the scalar form's and the layout by rows' by rectangles of
   * columns */
  const bool wide = st->w > 1, flat = wide && st->rows.flat;
  ok = ok && rw_cuda_fcc_tables (g, st->pitch, M, !no_links, means,
                                 flat ? 0 : (size_t) st->bx * st->w, st->by,
                                 wide ? &st->rows : NULL, setup->threads, &tab, err);
  /* the rectangles' blocks are the launch's (create counted them alike) */
  if (ok && !flat && (tab.gbx != st->gbx || tab.gby != st->gby))
    ok = rw_fail (err, RW_ERROR_INTERNAL, _("the FCC tables' blocks (%zu × %zu) are not the "
                                            "launch's (%u × %u)"), tab.gbx, tab.gby, st->gbx, st->gby);
  const size_t n_air = !wide ? 0 : flat ? 2 * st->rows.n_seg * g->nz : st->rows.n_seg * g->ny * g->nz;
  const uint32_t *zr_host = flat ? tab.zrf : tab.zr;
  const size_t b = tab.n_nodes, n_went = tab.n_went;
  st->node_z = tab.first;       /* kept: a slab's windows (rw_fcc_step_planes) */
  tab.first = NULL;
  st->n_nodes = b;
  int m_max = 0;
  for (size_t s = 0; s < g->n_surfaces; s++)
    m_max = std::max (m_max, M[s]);
  st->m_max = m_max;
  const size_t a = rw_fcc_arith (st->precision), n_states = (size_t) m_max * b + 1;
  ok = ok && RW_CUDA (cudaMalloc ((void **) &st->kind, st->n))
       && RW_CUDA (cudaMemcpy (st->kind, tab.kind, st->n, cudaMemcpyHostToDevice))
       && RW_CUDA (cudaMalloc ((void **) &st->air, (n_air + 1) * sizeof (unsigned)))
       && (n_air == 0 || RW_CUDA (cudaMemcpy (st->air, tab.air, n_air * sizeof (unsigned),
                                              cudaMemcpyHostToDevice)))
       && RW_CUDA (cudaMalloc ((void **) &st->zr, n_blocks * sizeof (uint2)))
       && RW_CUDA (cudaMemcpy (st->zr, zr_host, n_blocks * sizeof (uint2), cudaMemcpyHostToDevice))
       && RW_CUDA (cudaMalloc ((void **) &st->nodes, (b + 1) * sizeof (RwFccNode)))
       && (b == 0 || RW_CUDA (cudaMemcpy (st->nodes, tab.nodes, b * sizeof (RwFccNode),
                                          cudaMemcpyHostToDevice)))
       && RW_CUDA (cudaMalloc ((void **) &st->went, (n_went + 1) * sizeof (uint16_t)))
       && (n_went == 0 || RW_CUDA (cudaMemcpy (st->went, tab.went, n_went * sizeof (uint16_t),
                                               cudaMemcpyHostToDevice)))
       && RW_CUDA (cudaMalloc ((void **) &st->beta, ns * sizeof (double)))
       && RW_CUDA (cudaMemcpy (st->beta, bd, ns * sizeof (double), cudaMemcpyHostToDevice))
       && RW_CUDA (cudaMalloc ((void **) &st->coef, ns * per * sizeof (double)))
       && RW_CUDA (cudaMemcpy (st->coef, cd, ns * per * sizeof (double), cudaMemcpyHostToDevice))
       && RW_CUDA (cudaMalloc ((void **) &st->en, ns * per_en * sizeof (double)))
       && RW_CUDA (cudaMemcpy (st->en, en, ns * per_en * sizeof (double), cudaMemcpyHostToDevice))
       && RW_CUDA (cudaMalloc (&st->bv, n_states * a))
       && RW_CUDA (cudaMalloc (&st->bq, n_states * a))
       && RW_CUDA (cudaMemset (st->bv, 0, n_states * a))
       && RW_CUDA (cudaMemset (st->bq, 0, n_states * a));
  if (ok && tab.wsite != NULL && means)
    {
      const size_t ns_w = tab.n_wsite;
      ok = RW_CUDA (cudaMalloc ((void **) &st->wsite, ns_w * sizeof (RwFccWallSite)))
           && RW_CUDA (cudaMemcpy (st->wsite, tab.wsite, ns_w * sizeof (RwFccWallSite),
                                   cudaMemcpyHostToDevice))
           && RW_CUDA (cudaMalloc ((void **) &st->om, ns_w * sizeof (double)))
           && RW_CUDA (cudaMalloc ((void **) &st->wo, n_went * sizeof (uint32_t)))
           && RW_CUDA (cudaMemcpy (st->wo, tab.wo, n_went * sizeof (uint32_t),
                                   cudaMemcpyHostToDevice));
      /* kept on the host (the launches' ranges) */
      st->wfirst = tab.wfirst, st->wmin = tab.wmin;
      tab.wfirst = NULL, tab.wmin = NULL;
    }
  if (ok)
    rw_fcc_tb_build (st, &tab);
  rw_cuda_fcc_tables_clear (&tab);
  free (bd), free (cd), free (en), free (M);
  return ok;
}

void *
rw_cuda_fcc_create (const RwSolverSetup *setup, RwError *err)
{
  const RwGrid *g = setup->grid;
  if (setup->boundary != RW_BOUNDARY_FV)
    {
      rw_fail (err, RW_ERROR_UNSUPPORTED, _("the FCC scheme runs the finite-volume boundary "
                                            "only (boundary %s asked)"),
               rw_boundary_name (setup->boundary));
      return NULL;
    }
  /* rows of rw_cuda_fcc_pitch entries (the wide kernel's lanes: 4
   * entries, 2 in fp64); ROOMWAVE_FCC_PITCH=N (a multiple of 4) rounds
   * them to N instead — for benchmarks only (32: the layout by rows
   * before 2026-11-29, and fp16's and fp64's still) */
  size_t pitch = rw_cuda_fcc_pitch (g->nx, rw_fcc_elem (setup->precision));
  {
    const char *pe = getenv ("ROOMWAVE_FCC_PITCH");
    const long r = pe ? atol (pe) : 0;
    if (r >= 4 && r % 4 == 0 && r <= 1024)
      pitch = rw_cuda_fcc_pitch_round (g->nx, (size_t) r);
  }
  if ((double) pitch * (double) (g->ny + 2) >= 2147483648.0 || g->nz >= 2147483648u)
    {
      rw_fail (err, RW_ERROR_INPUT, _("grid of %zu×%zu×%zu cells is too large for the CUDA "
                                      "backend's FCC path (a plane of its sites must be below "
                                      "2³¹)"), g->nx, g->ny, g->nz);
      return NULL;
    }
  RwCudaFcc *st = (RwCudaFcc *) calloc (1, sizeof *st);
  if (!st)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("out of host memory"));
      return NULL;
    }
  st->tag = RW_CUDA_TAG_FCC;
  st->device = setup->device;
  st->gx = g->nx, st->ny = g->ny, st->nz = g->nz;
  st->pitch = pitch;
  st->n = st->pitch * g->ny * g->nz;
  /* the energy's planes: a slab's owned ones (rw-backend.h, "Slabs") */
  st->own_z0 = setup->own_z1 > 0 ? std::min (setup->own_z0, g->nz) : 0;
  st->own_z1 = setup->own_z1 > 0 ? std::max (st->own_z0, std::min (setup->own_z1, g->nz)) : g->nz;
  st->precision = setup->precision;
  st->elem = rw_fcc_elem (setup->precision);
  st->bx = RW_FCC_BX, st->by = RW_FCC_BY;
  {
    /* ROOMWAVE_FCC_F16_ROWS=float: fp16 rows kept as floats (the form
     * before 2026-11-28) — for benchmarks */
    const char *fr = getenv ("ROOMWAVE_FCC_F16_ROWS");
    st->f16_halves = !(fr != NULL && strcmp (fr, "float") == 0);
    const bool pack = setup->precision == RW_PRECISION_F16 && st->f16_halves;
    int bx, by;
    const char *blk = getenv ("ROOMWAVE_FCC_BLOCK");
    if (blk && sscanf (blk, "%dx%d", &bx, &by) == 2 && bx >= 32 && bx % 32 == 0 && by >= 2
        && bx * by <= (int) RW_FCC_AIR_THREADS (pack))
      st->bx = (unsigned) bx, st->by = (unsigned) by;
  }
  /* the wide form: 16-byte rows (fp16 8-byte, rw_kernel_fcc_air_wide);
   * ROOMWAVE_FCC_AIR=scalar runs the scalar form — for benchmarks only */
  {
    const char *air = getenv ("ROOMWAVE_FCC_AIR");
    st->w = air && strcmp (air, "scalar") == 0 ? 1 : (unsigned) rw_cuda_fcc_lane (st->elem);
    /* fp32 and fp16: the split sums (RwFccSplit, rw-cuda-fcc-wide.cuh
     * says why and what they gave); fp64 the offsets' order, the CPU's
     * bits. ROOMWAVE_FCC_SUMS=split|offsets chooses for fp32 and fp16
     * (tests, benchmarks). Two steps a pass add in the same order. */
    const char *sums = getenv ("ROOMWAVE_FCC_SUMS");
    const bool offsets = sums != NULL && strcmp (sums, "offsets") == 0;
    st->split = !offsets && setup->precision != RW_PRECISION_F64 && st->w > 1;
  }
  if (st->w > 1)
    {
      /* the wide kernel: blocks of 32 × (the block's threads / 32) warps
       * over its rows' layout, flat where rows are narrow (a class a
       * column of the grid), else by rows (a segment of a row a column);
       * ROOMWAVE_FCC_ROWS=flat|rows chooses (benchmarks) */
      const unsigned warps = st->bx * st->by / 32;
      const char *re = getenv ("ROOMWAVE_FCC_ROWS");
      const bool flat = re != NULL && strcmp (re, "flat") == 0 ? true
                        : re != NULL && strcmp (re, "rows") == 0
                          ? false
                          : rw_cuda_fcc_flat (g->nx, st->w);
      rw_cuda_fcc_rows (g->ny, st->pitch, st->w, warps, flat, &st->rows);
      st->ra.flat = flat;
      st->ra.n_seg = (unsigned) st->rows.n_seg;
      for (int c = 0; c < 2; c++)
        st->ra.seg[c] = (unsigned) st->rows.seg[c],
        st->ra.end[c] = (unsigned) (st->rows.rows[c] * st->pitch);
      st->bx = 32, st->by = warps;
      st->gbx = (unsigned) std::max ((size_t) 1, flat ? st->rows.blocks : st->rows.n_seg);
      st->gby = flat ? 2 : (unsigned) ((g->ny + warps - 1) / warps);
    }
  else
    {
      st->gbx = (unsigned) ((st->pitch + st->bx * st->w - 1) / (st->bx * st->w));
      st->gby = (unsigned) ((g->ny + st->by - 1) / st->by);
    }
  {
    /* about 4096 blocks (a few waves of the largest GPU), chunks of at
     * least 8 planes, a multiple of 4 (the most planes a group loads) */
    const size_t cols = (size_t) st->gbx * st->gby;
    size_t target = 4096;
    const char *nb = getenv ("ROOMWAVE_FCC_BLOCKS"); /* for benchmarks */
    if (nb && atol (nb) > 0)
      target = (size_t) atol (nb);
    const size_t chunks = std::max ((size_t) 1, (target + cols - 1) / cols);
    size_t zc = std::max ((size_t) 8, (g->nz + chunks - 1) / chunks);
    zc = (zc + 3) / 4 * 4;
    st->zc = (unsigned) zc;
    st->gbz = (unsigned) ((g->nz + zc - 1) / zc);
  }
  st->source = setup->source_signal;
  st->n_steps = setup->n_steps;
  st->hard = setup->source_kind == RW_SOURCE_HARD;
  /* the source's cells in the folded layout (rw_solver_source_*) */
  st->src.n = setup->source_signal ? (int) rw_solver_source_n (setup) : 0;
  for (int k = 0; k < st->src.n; k++)
    {
      const size_t c = rw_solver_source_cell (setup, (size_t) k), x = c % g->nx,
                   y = (c / g->nx) % g->ny, z = c / (g->nx * g->ny);
      st->src.cell[k] = (long long) rw_fcc_fold_index (st->pitch, g->ny, x, y, z);
      st->src.weight[k] = rw_solver_source_weight (setup, (size_t) k);
    }
  st->n_rcv = setup->n_receivers;
  size_t *rcv = (size_t *) malloc ((st->n_rcv + 1) * sizeof (size_t));
  for (size_t r = 0; rcv && r < st->n_rcv; r++)
    {
      const size_t c = setup->receiver_cells[r], x = c % g->nx, y = (c / g->nx) % g->ny,
                   z = c / (g->nx * g->ny);
      rcv[r] = rw_fcc_fold_index (st->pitch, g->ny, x, y, z);
    }
  cudaDeviceProp prop;
  bool ok = rcv != NULL && RW_CUDA (cudaSetDevice (st->device))
            && RW_CUDA (cudaGetDeviceProperties (&prop, st->device))
            && RW_CUDA (cudaStreamCreateWithFlags (&st->stream, cudaStreamNonBlocking));
  /* the boundary kernel's stream (rw_fcc_step), of the device's highest
   * priority, and the boundary kernel launched first;
   * ROOMWAVE_FCC_OVERLAP=0: no stream of its own, the kernels one after
   * the other; =plain: its own stream of the default priority, launched
   * after the air kernel (the form before 2026-11-28; benchmarks) */
  const char *ov = getenv ("ROOMWAVE_FCC_OVERLAP");
  if (ok && !(ov != NULL && strcmp (ov, "0") == 0))
    {
      const bool plain = ov != NULL && strcmp (ov, "plain") == 0;
      int least = 0, greatest = 0;
      if (!plain)
        (void) cudaDeviceGetStreamPriorityRange (&least, &greatest);
      st->bfirst = !plain;
      ok = RW_CUDA (cudaStreamCreateWithPriority (&st->bstream, cudaStreamNonBlocking, greatest))
           && RW_CUDA (cudaEventCreateWithFlags (&st->ev_fork, cudaEventDisableTiming))
           && RW_CUDA (cudaEventCreateWithFlags (&st->ev_join, cudaEventDisableTiming));
    }
  if (ok)
    snprintf (st->name, sizeof st->name, "%s", prop.name);
  const size_t span = rw_fcc_span (st->n, st->pitch * st->ny) * st->elem;
  ok = ok && RW_CUDA (cudaMalloc (&st->mem, 2 * span)) && RW_CUDA (cudaMemset (st->mem, 0, 2 * span));
  if (ok)
    {
      st->p = st->mem;
      st->q = (char *) st->mem + span;
    }
  ok = ok && rw_fcc_build (st, setup, err);
  if (ok)
    st->bgrid = rw_fcc_boundary_grid (st, prop.multiProcessorCount);
  ok = ok
       && RW_CUDA (cudaMalloc ((void **) &st->rcv_idx, (st->n_rcv + 1) * sizeof (size_t)))
       && (st->n_rcv == 0 || RW_CUDA (cudaMemcpy (st->rcv_idx, rcv, st->n_rcv * sizeof (size_t),
                                                  cudaMemcpyHostToDevice)))
       && RW_CUDA (cudaMalloc ((void **) &st->rcv_dev, (st->n_rcv * RW_FCC_CHUNK + 1) * sizeof (double)))
       && RW_CUDA (cudaMallocHost ((void **) &st->rcv_host, (st->n_rcv * RW_FCC_CHUNK + 1) * sizeof (double)))
       && RW_CUDA (cudaMalloc ((void **) &st->bad, sizeof (int)))
       /* the energy, then a part a block: the field's, the branches' and
        * the wall links' kernels, RW_ENERGY_BLOCKS parts each at most */
       && RW_CUDA (cudaMalloc ((void **) &st->esum, (1 + 3 * (size_t) RW_ENERGY_BLOCKS) * sizeof (double)))
       /* the exact sum of p, then a part a block of the field's kernel */
       && RW_CUDA (cudaMalloc ((void **) &st->exact, (1 + (size_t) RW_ENERGY_BLOCKS) * sizeof (RwExactSum)));
  const int big = INT_MAX;
  ok = ok && RW_CUDA (cudaMemcpy (st->bad, &big, sizeof big, cudaMemcpyHostToDevice));
  free (rcv);
  if (!ok)
    {
      if (rcv == NULL)
        rw_fail (err, RW_ERROR_MEMORY, _("out of host memory"));
      rw_cuda_fcc_destroy (st);
      return NULL;
    }
  return st;
}

/* The air kernel over the planes [z0, z1): the chunks of zc planes that
 * meet them. */
template <typename S, typename I>
static void
rw_fcc_air_launch_i (RwCudaFcc *st, const S *p, S *q, int step, size_t z0, size_t z1)
{
  const unsigned cz0 = (unsigned) (z0 / st->zc), cz1 = (unsigned) ((z1 + st->zc - 1) / st->zc);
  const dim3 blk (st->bx, st->by), grd (st->gbx, st->gby, cz1 - cz0);
  const unsigned zl = (unsigned) z0, zh = (unsigned) z1;
  const I pitch = (I) st->pitch, ny = (I) st->ny;
  /* W: 16 bytes of the arithmetic type (fp16: 8 bytes of storage) */
  constexpr int W = sizeof (S) == 8 ? 2 : 4;
  const RwFccRowsArg ra = st->ra;
  if (st->w == 1)
    rw_fcc_air_scalar_launch<S, I> (grd, blk, st->stream, p, q, st->kind, st->zr, st->zc, cz0, zl,
                                    zh, pitch, ny, step, st->bad);
  else
    {
      /* PACK only for fp16, SPLIT only for fp32 and fp16 (compiled out
       * elsewhere) */
      const auto wide = [&] (auto pack, auto split) {
        rw_kernel_fcc_air_wide<S, I, W, decltype (pack)::value && sizeof (S) == 2,
                               decltype (split)::value && sizeof (S) < 8><<<grd, blk, 0, st->stream>>> (
          p, q, st->kind, st->air, ra, st->zr, st->zc, cz0, zl, zh, pitch, ny, step, st->bad);
      };
      typedef std::true_type Y;
      typedef std::false_type N;
      if (sizeof (S) == 2 && st->f16_halves)
        st->split ? wide (Y (), Y ()) : wide (Y (), N ());
      else
        st->split ? wide (N (), Y ()) : wide (N (), N ());
    }
}

/* The air kernel, with 32-bit indices where the arrays allow. */
template <typename S>
static void
rw_fcc_air_launch (RwCudaFcc *st, const S *p, S *q, int step, size_t z0, size_t z1)
{
  if (rw_fcc_span (st->n, st->pitch * st->ny) < ((size_t) 1 << 32))
    rw_fcc_air_launch_i<S, unsigned> (st, p, q, step, z0, z1);
  else
    rw_fcc_air_launch_i<S, size_t> (st, p, q, step, z0, z1);
}

/* The boundary sites [b0, b1) of the list, one step `step` on stream
 * `stream`: p (time n) in, p⁻ from pq, time n + 1 out to q
 * (rw_kernel_fcc_boundary). */
template <typename S>
static void
rw_fcc_boundary_launch (RwCudaFcc *st, const S *p, const S *pq, S *q, int step, size_t b0,
                        size_t b1, cudaStream_t stream)
{
  typedef typename RwArith<S>::type A;
  if (b1 <= b0)
    return;
  /* the means of the outside sites these nodes name, from the same p */
  if (st->om != NULL)
    {
      const size_t r0 = st->wmin[b0], r1 = st->wfirst[b1];
      if (r1 > r0)
        rw_kernel_fcc_wall_means<<<(unsigned) ((r1 - r0 + 127) / 128), 128, 0, stream>>> (
          p, st->wsite, r0, r1, st->pitch, st->ny, st->om);
    }
  /* beside the air kernel, the grid of rw_fcc_boundary_grid */
  size_t nb = (b1 - b0 + 127) / 128;
  if (stream == st->bstream && st->bgrid > 0)
    nb = std::min (nb, st->bgrid);
  rw_kernel_fcc_boundary<<<(unsigned) nb, 128, 0, stream>>> (
    p, pq, q, st->nodes, st->n_nodes, st->went, st->beta, st->coef, (A *) st->bv, (A *) st->bq,
    st->pitch, st->ny, step, st->bad, b0, b1, st->om, st->wo);
}

/* One step's update of the planes [z0, z1) (all: [0, nz)): its interior
 * sites and the boundary sites [b0, b1) of the list, those planes' (the
 * list is z-sorted: st->node_z); the boundary sites on stream bs. */
static void
rw_fcc_step_planes (RwCudaFcc *st, int step, size_t z0, size_t z1, cudaStream_t bs)
{
  if (z0 >= z1)
    return;
  const size_t b0 = st->node_z ? st->node_z[z0] : 0, b1 = st->node_z ? st->node_z[z1] : st->n_nodes;
  rw_with_storage (st->precision, [&] (auto tag) {
    typedef decltype (tag) S;
    /* the boundary kernel first where it has a stream of its own
     * (rw_fcc_step says why) */
    if (!st->bfirst)
      rw_fcc_air_launch (st, (const S *) st->p, (S *) st->q, step, z0, z1);
    rw_fcc_boundary_launch (st, (const S *) st->p, (const S *) st->q, (S *) st->q, step, b0, b1, bs);
    if (st->bfirst)
      rw_fcc_air_launch (st, (const S *) st->p, (S *) st->q, step, z0, z1);
  });
}

/* A whole step. The air and boundary kernels read p and write q at
 * disjoint sites, so they may run at once: both wait on memory, and
 * neither fills the GPU alone in a small room (the 30 m³ room: the air
 * kernel at 512 threads an SM by its registers, the boundary kernel one
 * wave of short dependent loads). The boundary kernel runs on bstream,
 * forked from the solver's stream before the air kernel and joined after
 * it, so the source and the receivers (on the solver's stream) see both.
 * It is launched first, on a stream of the device's highest priority: its
 * blocks, chains of dependent loads, are placed before the air kernel's
 * fill the SMs and so run beside them, not after them (with the blocks of
 * 32 × 4, the 30 m³ room at 4 kHz: fp32 102.0 against 88.7 G sites/s;
 * the hall +1–2 %; docs/PERFORMANCE.md). */
static cudaError_t
rw_fcc_step (RwCudaFcc *st, int step)
{
  if (st->bstream == NULL)
    {
      rw_fcc_step_planes (st, step, 0, st->nz, st->stream);
      return cudaSuccess;
    }
  cudaError_t e = cudaEventRecord (st->ev_fork, st->stream);
  if (e == cudaSuccess)
    e = cudaStreamWaitEvent (st->bstream, st->ev_fork, 0);
  if (e != cudaSuccess)
    return e;
  rw_fcc_step_planes (st, step, 0, st->nz, st->bstream);
  e = cudaEventRecord (st->ev_join, st->bstream);
  return e == cudaSuccess ? cudaStreamWaitEvent (st->stream, st->ev_join, 0) : e;
}

/* Steps `step` and `step` + 1 in one pass, from p (time n) and q (n − 1)
 * into the spare pair, which then become p (n + 2) and q (n + 1); the
 * receivers of both steps into slots k and k + 1 of the chunk. In order,
 * on the solver's stream:
 *  1. the boundary sites' time n + 1 into n1 (p⁻ from q);
 *  2. the source's interior cells' time n + 1 into n1, and the source of
 *     step n + 1 added to its cells there (rw_cuda_launch_io), so that
 *     the two-step kernel reads its cells from n1 as it reads the
 *     boundary sites;
 *  3. the two-step kernel (rw-cuda-fcc-tb.cu): the interior sites' time
 *     n + 1 into n1 and n + 2 into n2;
 *  4. the boundary sites' time n + 2 into n2 (p⁻ from p);
 *  5. the receivers on n1; the source of step n + 2 and the receivers
 *     on n2.
 * Each value is computed as a single step computes it, so the fields and
 * receivers are the same bits (cuda-fcc checks). */
static void
rw_fcc_tb_pass (RwCudaFcc *st, size_t step, size_t k, size_t chunk)
{
  void *n1 = st->q_spare, *n2 = st->p_spare;
  const double s1 = (st->source && step < st->n_steps) ? st->source[step] : 0.0;
  const double s2 = (st->source && step + 1 < st->n_steps) ? st->source[step + 1] : 0.0;
  const dim3 grd (st->tgbx, st->tgby, st->tgbz);
  rw_with_storage (st->precision, [&] (auto tag) {
    typedef decltype (tag) S;
    const S *p = (const S *) st->p, *q = (const S *) st->q;
    rw_fcc_boundary_launch (st, p, q, (S *) n1, (int) step, 0, st->n_nodes, st->stream);
    if (rw_fcc_span (st->n, st->pitch * st->ny) < ((size_t) 1 << 32))
      rw_fcc_tb_launch<S, unsigned> (grd, st->stream, p, q, (S *) n1, (S *) n2, st->kind,
                                     st->tzr, st->tzc, (unsigned) st->pitch, (unsigned) st->ny,
                                     st->src, (int) step, st->bad, st->hard, s1, st->split);
    else
      rw_fcc_tb_launch<S, size_t> (grd, st->stream, p, q, (S *) n1, (S *) n2, st->kind, st->tzr,
                                   st->tzc, st->pitch, st->ny, st->src, (int) step, st->bad,
                                   st->hard, s1, st->split);
    rw_fcc_boundary_launch (st, (const S *) n1, p, (S *) n2, (int) step + 1, 0, st->n_nodes,
                            st->stream);
  });
  RwCudaSource none = st->src;
  none.n = 0;
  if (st->n_rcv > 0)
    rw_cuda_launch_io (st->precision, st->stream, n1, none, st->hard, 0.0, st->rcv_idx,
                       (int) st->n_rcv, st->rcv_dev, k, chunk);
  if (st->src.n > 0 || st->n_rcv > 0)
    rw_cuda_launch_io (st->precision, st->stream, n2, st->src, st->hard, s2, st->rcv_idx,
                       (int) st->n_rcv, st->rcv_dev, k + 1, chunk);
  st->p_spare = st->p;
  st->q_spare = st->q;
  st->p = n2;
  st->q = n1;
}

/* The source's cells on the planes [z0, z1), applied to the new field
 * after their update (rw_kernel_io's arithmetic, cell by cell as one
 * launch would), and then, with `receivers`, the receivers. */
static void
rw_fcc_io_planes (RwCudaFcc *st, double s, size_t z0, size_t z1, bool receivers, size_t k,
                  size_t chunk)
{
  const RwCudaSource src = rw_cuda_source_planes (st->src, (long long) (st->pitch * st->ny), z0, z1);
  const int n_rcv = receivers ? (int) st->n_rcv : 0;
  if (src.n > 0 || n_rcv > 0)
    rw_cuda_launch_io (st->precision, st->stream, st->q, src, st->hard, s, st->rcv_idx, n_rcv,
                       st->rcv_dev, k, chunk);
}

/* A step of a slab with a halo attached (rw-cuda-halo.cuh): the windows
 * by the cuts, their exchange posted, the interior, the receivers, and
 * the exchange waited for. */
static void
rw_fcc_halo_step (RwCudaFcc *st, int step, double s, size_t k, size_t chunk)
{
  rw_cuda_halo_step_windows (st->halo, st->stream, st->q,
                             [&] (int, size_t z0, size_t z1, bool receivers) {
                               rw_fcc_step_planes (st, step, z0, z1, st->stream);
                               rw_fcc_io_planes (st, s, z0, z1, receivers, k, chunk);
                             });
}

bool
rw_cuda_fcc_halo_attach (void *state, const RwHaloLink *link, RwError *err)
{
  RwCudaFcc *st = (RwCudaFcc *) state;
  if (!RW_FCC_ON_DEVICE (st))
    return false;
  if (st->halo != NULL)
    return rw_fail (err, RW_ERROR_INTERNAL, _("a halo is attached already"));
  /* each plane's first boundary site (st->node_z) came with the tables */
  st->halo = rw_cuda_halo_new (link, st->device, st->pitch * st->ny * st->elem, st->own_z0,
                               st->own_z1, st->nz, err);
  return st->halo != NULL;
}

bool
rw_cuda_fcc_advance (void *state, size_t step0, size_t n, double *rcv, size_t stride, RwError *err)
{
  RwCudaFcc *st = (RwCudaFcc *) state;
  if (!RW_FCC_ON_DEVICE (st))
    return false;
  for (size_t done = 0; done < n;)
    {
      const size_t chunk = std::min ((size_t) RW_FCC_CHUNK, n - done);
      for (size_t k = 0; k < chunk; k++)
        {
          const size_t step = step0 + done + k;
          /* two steps a pass where set up, not with a halo (each step's
           * planes are exchanged) */
          if (st->tb && st->halo == NULL && k + 1 < chunk)
            {
              rw_fcc_tb_pass (st, step, k, chunk);
              k++;
              continue;
            }
          const double s = (st->source && step < st->n_steps) ? st->source[step] : 0.0;
          if (st->halo)
            {
              rw_fcc_halo_step (st, (int) step, s, k, chunk);
              std::swap (st->p, st->q);
              continue;
            }
          if (!RW_CUDA (rw_fcc_step (st, (int) step)))
            return false;
          if (st->src.n > 0 || st->n_rcv > 0)
            rw_cuda_launch_io (st->precision, st->stream, st->q, st->src, st->hard, s, st->rcv_idx,
                               (int) st->n_rcv, st->rcv_dev, k, chunk);
          std::swap (st->p, st->q);
        }
      if (!RW_CUDA (cudaGetLastError ()) || (st->halo && !rw_cuda_halo_check (st->halo, err))
          || !rw_cuda_chunk_end (st->stream, st->n_rcv, chunk, st->rcv_dev, st->rcv_host, st->bad,
                                 st->precision, rcv, stride, step0 + done, err))
        return false;
      done += chunk;
    }
  return true;
}

static bool
rw_fcc_unfold (const RwCudaFcc *st, const void *dev, double *out, RwError *err)
{
  void *tmp = rw_cuda_download (st->stream, dev, st->n, st->elem, err);
  if (!tmp)
    return false;
  for (size_t z = 0; z < st->nz; z++)
    for (size_t y = 0; y < st->ny; y++)
      for (size_t x = 0; x < st->gx; x++)
        out[x + st->gx * (y + st->ny * z)] =
          (x + y + z) % 2 == 0
            ? rw_stored_value (st->precision, tmp, rw_fcc_fold_index (st->pitch, st->ny, x, y, z))
            : 0.0;
  free (tmp);
  return true;
}

bool
rw_cuda_fcc_read_field (void *state, double *p, double *p_prev, RwError *err)
{
  RwCudaFcc *st = (RwCudaFcc *) state;
  return RW_FCC_ON_DEVICE (st) && (!p || rw_fcc_unfold (st, st->p, p, err))
         && (!p_prev || rw_fcc_unfold (st, st->q, p_prev, err));
}

bool
rw_cuda_fcc_energy (void *state, RwEnergyReading *out, RwError *err)
{
  RwCudaFcc *st = (RwCudaFcc *) state;
  if (!RW_FCC_ON_DEVICE (st))
    return false;
  const size_t plane = st->pitch * st->ny, i0 = st->own_z0 * plane, i1 = st->own_z1 * plane;
  rw_with_storage (st->precision, [&] (auto tag) {
    typedef decltype (tag) S;
    typedef typename RwArith<S>::type A;
    /* the parts after the energy (the field's blocks', the branches',
     * the wall links'), added in that order */
    double *part = st->esum + 1;
    unsigned parts = rw_energy_blocks (i1 - i0);
    rw_kernel_fcc_energy<<<parts, RW_ENERGY_THREADS, 0, st->stream>>> (
      (const S *) st->p, (const S *) st->q, st->kind, st->pitch, st->ny, i0, i1, part,
      st->exact + 1);
    rw_kernel_exact_parts<<<1, 32, 0, st->stream>>> (st->exact + 1, parts, st->exact);
    const unsigned nb = rw_energy_blocks (st->n_nodes);
    if (st->m_max > 0 && st->n_nodes > 0)
      {
        rw_kernel_fcc_branch_energy<<<nb, RW_ENERGY_THREADS, 0, st->stream>>> (
          st->nodes, st->n_nodes, st->en, (const A *) st->bv, (const A *) st->bq, i0, i1,
          part + parts);
        parts += nb;
      }
    if (st->n_nodes > 0)
      {
        rw_kernel_fcc_wall_energy<<<nb, RW_ENERGY_THREADS, 0, st->stream>>> (
          (const S *) st->p, (const S *) st->q, st->nodes, st->n_nodes, st->went, st->pitch,
          st->ny, i0, i1, part + parts);
        parts += nb;
      }
    rw_kernel_sum_parts<1><<<1, 32, 0, st->stream>>> (part, parts, st->esum);
  });
  return RW_CUDA (cudaGetLastError ())
         && RW_CUDA (cudaMemcpyAsync (&out->energy, st->esum, sizeof (double), cudaMemcpyDeviceToHost,
                                      st->stream))
         && RW_CUDA (cudaMemcpyAsync (&out->sum, st->exact, sizeof (RwExactSum),
                                      cudaMemcpyDeviceToHost, st->stream))
         && RW_CUDA (cudaStreamSynchronize (st->stream));
}

bool
rw_cuda_fcc_read_slice (void *state, int axis, size_t index, float *out, RwError *err)
{
  RwCudaFcc *st = (RwCudaFcc *) state;
  if (!RW_FCC_ON_DEVICE (st))
    return false;
  const size_t dims[3] = { st->gx, st->ny, st->nz };
  if (axis < 0 || axis > 2 || index >= dims[axis])
    return rw_fail (err, RW_ERROR_INPUT, _("slice %zu on axis %d is outside the %zu×%zu×%zu grid"),
                    index, axis, st->gx, st->ny, st->nz);
  const size_t count = st->gx * st->ny * st->nz / dims[axis];
  if (count > st->slice_cap)
    {
      cudaFree (st->slice);
      st->slice = NULL;
      st->slice_cap = 0;
      if (!RW_CUDA (cudaMalloc ((void **) &st->slice, count * sizeof (float))))
        return false;
      st->slice_cap = count;
    }
  const unsigned blocks = (unsigned) std::min ((size_t) 1024, (count + 255) / 256);
  rw_with_storage (st->precision, [&] (auto tag) {
    typedef decltype (tag) S;
    rw_kernel_fcc_slice<<<blocks, 256, 0, st->stream>>> ((const S *) st->p, st->kind, axis, index, st->gx,
                                                         st->ny, st->nz, st->pitch, st->slice);
  });
  return rw_cuda_ok (cudaGetLastError (), err, _("the launch of rw_kernel_fcc_slice"))
         && RW_CUDA (cudaMemcpyAsync (out, st->slice, count * sizeof (float), cudaMemcpyDeviceToHost,
                                      st->stream))
         && RW_CUDA (cudaStreamSynchronize (st->stream));
}

bool
rw_cuda_fcc_write_field (void *state, const double *p, const double *p_prev, RwError *err)
{
  RwCudaFcc *st = (RwCudaFcc *) state;
  if (!RW_FCC_ON_DEVICE (st))
    return false;
  unsigned char *tmp = (unsigned char *) calloc (st->n, st->elem);
  if (!tmp)
    return rw_fail (err, RW_ERROR_MEMORY, _("out of host memory (%zu bytes)"), st->n * st->elem);
  const double *src[2] = { p, p_prev };
  void *dst[2] = { st->p, st->q };
  bool ok = true;
  for (int a = 0; ok && a < 2; a++)
    {
      if (!src[a])
        continue;
      memset (tmp, 0, st->n * st->elem);
      for (size_t z = 0; z < st->nz; z++)
        for (size_t y = 0; y < st->ny; y++)
          for (size_t x = (y + z) & 1; x < st->gx; x += 2)
            {
              const size_t j = rw_fcc_fold_index (st->pitch, st->ny, x, y, z);
              const double v = src[a][x + st->gx * (y + st->ny * z)];
              if (st->precision == RW_PRECISION_F64)
                ((double *) tmp)[j] = v;
              else if (st->precision == RW_PRECISION_F16)
                ((__half *) tmp)[j] = __float2half_rn ((float) v);
              else
                ((float *) tmp)[j] = (float) v;
            }
      ok = RW_CUDA (cudaMemcpyAsync (dst[a], tmp, st->n * st->elem, cudaMemcpyHostToDevice, st->stream))
           && RW_CUDA (cudaStreamSynchronize (st->stream));
    }
  free (tmp);
  return ok;
}

/* The folded planes (pitch × ny entries each, padding included) and the
 * state: p, p⁻ (a boundary site's p⁻ is its own entry of q) and the
 * branch states v and w. */
RwCudaCopyable
rw_cuda_fcc_copyable (void *state)
{
  const RwCudaFcc *st = (const RwCudaFcc *) state;
  const size_t states = (size_t) st->m_max * st->n_nodes * rw_fcc_arith (st->precision);
  RwCudaCopyable c = rw_cuda_copyable_fields (st->device, st->stream, st->p, st->q,
                                              st->pitch * st->ny * st->elem, st->nz);
  rw_cuda_copyable_add (c, st->bv, states);
  rw_cuda_copyable_add (c, st->bq, states);
  return c;
}

const char *
rw_cuda_fcc_device_name (void *state)
{
  return ((RwCudaFcc *) state)->name;
}

int
rw_cuda_fcc_steps_per_pass (void *state)
{
  return ((RwCudaFcc *) state)->tb ? 2 : 1;
}

void
rw_cuda_fcc_destroy (void *state)
{
  RwCudaFcc *st = (RwCudaFcc *) state;
  if (!st)
    return;
  (void) cudaSetDevice (st->device);
  if (st->stream)
    cudaStreamSynchronize (st->stream);
  rw_cuda_halo_free (st->halo);
  free (st->node_z);
  free (st->wfirst);
  free (st->wmin);
  cudaFree (st->wsite);
  cudaFree (st->om);
  cudaFree (st->wo);
  cudaFree (st->mem);
  cudaFree (st->spare);
  cudaFree (st->tzr);
  cudaFree (st->kind);
  cudaFree (st->air);
  cudaFree (st->zr);
  cudaFree (st->nodes);
  cudaFree (st->went);
  cudaFree (st->beta);
  cudaFree (st->coef);
  cudaFree (st->en);
  cudaFree (st->bv);
  cudaFree (st->bq);
  cudaFree (st->rcv_idx);
  cudaFree (st->rcv_dev);
  cudaFreeHost (st->rcv_host);
  cudaFree (st->bad);
  cudaFree (st->esum);
  cudaFree (st->exact);
  cudaFree (st->slice);
  rw_cuda_stream_free (&st->stream);
  rw_cuda_stream_free (&st->bstream);
  rw_cuda_event_free (&st->ev_fork);
  rw_cuda_event_free (&st->ev_join);
  free (st);
}
