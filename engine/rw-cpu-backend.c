/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-cpu-backend.c — the CPU backend: the sliced z-march of DESIGN §2/§3
 * with OpenMP, in fp32 and fp64.
 *
 * Work split. The grid is cut into strips of whole x-rows, `by` rows deep
 * in y (an (x, y) column block of nx × by columns); each strip walks z
 * over the union of its columns' [zlo, zhi) ranges. OpenMP hands the
 * strips (at least four per thread) out dynamically. Walking z keeps the
 * planes z−1, z, z+1 of the strip (3 · nx · by words) in L2, so that p is
 * read from memory once per step and p⁻ read and written once: 12 B per
 * cell and step in fp32, the roofline the benchmark holds the speed
 * against (rw-bench.c).
 *
 * A strip plane (rows y0 … y1−1 at one z) in two passes:
 *  1. the air update p⁺ = λ² Σ₆ p_nbr − p⁻ over every run of consecutive
 *     inside cells of its rows, without branches, so that it vectorises
 *     (outside cells hold 0, so the sum over six neighbours is the sum
 *     over the inside ones; runs never touch outside cells, which stay 0);
 *  2. a scalar fix-up over its boundary nodes (precomputed list, in
 *     memory order) with the boundary form of rw-scheme.h. In place: pass 1
 *     has overwritten p⁻ of the boundary nodes, so their p⁻ is saved
 *     before pass 1 and the fix-up uses the saved value.
 * The physics is only in rw-scheme.h (shared with the GPU): called here,
 * never re-derived.
 *
 * Precision: the T-generic part at the end of this file is included twice
 * (T = float, then double), so there is no per-cell branch on precision.
 *
 * Non-finite values: pass 1 and 2 sum every new value of the step (one
 * add per cell, free in a memory-bound loop); a NaN or an overflow makes
 * the sum non-finite, and the step fails with RW_ERROR_UNSTABLE naming it.
 * The source cell is checked after the source is applied.
 *
 * FCC grids (rw-solver.h, rw-scheme-fcc.h): the sites are stored folded
 * along x (row (y, z) holds nxf = (nx + 1)/2 sites, x = 2·xf + parity),
 * half the cubic array. The same strips walk them, one step a sweep (a
 * boundary site's wall links reach two planes away in z, beyond a pass's
 * plane schedule); a strip plane is updated by
 * update_plane_fcc: per row, its parity's 12 offsets (uniform along the
 * row), the air update over runs of interior sites (K = 12) summing the
 * neighbours in RW_FCC_NBR_OFFSETS order, then the row's boundary sites
 * (K < 12: not in any run, so their p⁻ is still in place and nothing is
 * saved) with rw_fcc_update_boundary_* in double, β or the branches of
 * build_branches as on the 7-point FV path, and the site's wall links
 * (build_walls_fcc). */
#ifndef RW_CPU_T

#include "rw-solver.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rw-admittance.h"
#include "rw-i18n.h"
#include "rw-scheme-fcc.h"

/* Strip depth: 3 planes of the strip in fp64 should stay within ~256 KiB
 * (half of a small L2, leaving room for p⁻'s stream). */
#define RW_CPU_STRIP_BYTES (256 * 1024)

/* The most time steps one sweep of memory may advance (advance). */
#define RW_CPU_MAX_STEPS_PER_PASS 8

typedef struct {
  uint32_t y0, y1;             /* rows [y0, y1) */
  uint32_t zlo, zhi;           /* union of the columns' ranges; zlo == zhi: empty */
} CpuStrip;

typedef struct {
  RwSolverSetup setup;         /* copy of the borrowed setup */
  const RwGrid *g;
  size_t nx, ny, nz, nxy, n;
  int threads;
  RwPrecision precision;
  RwBoundary boundary;
  /* the stored layout: the cubic array (row_len = nx), or the FCC sites
   * folded along x (row_len = nxf); n_store entries per field */
  bool fcc;
  size_t row_len, n_store;
  ptrdiff_t fcc_off[2][RW_FCC_N_NBR]; /* FCC: the 12 neighbours' offsets, by row parity */
  ptrdiff_t fcc_fwd[2][6];     /* FCC: RW_FCC_FWD_OFFSETS folded, by row parity */
  ptrdiff_t fcc_fwd_cubic[6];  /* FCC: the same in the cubic array (K) */
  size_t *rcv_index;           /* the receivers' stored index (the source's: cpu_store_index) */

  void *p, *q;                 /* p: time n; q: time n−1, overwritten by n+1 */

  /* Per row r = y + ny·z: runs [run_off[r], run_off[r+1]) of (x0, x1)
   * pairs; boundary nodes [bnd_off[r], bnd_off[r+1]). */
  size_t *run_off, *bnd_off;
  uint32_t *runs;              /* 2 per run */
  size_t *b_index;             /* cell index */
  uint8_t *b_mask;             /* bit d: neighbour d inside (RW_NBR_*) */
  uint8_t *b_K;
  uint16_t *b_surf;
  float *b_area;               /* absorbing area in h² (rw_grid_node_area) */
  size_t n_bnd;
  /* FCC: boundary site b's wall entries w_code[12 b … 12 b + w_n[b])
   * (rw-scheme-fcc.h, "Wall links"; rw_fcc_wall_entries' codes, the
   * form the GPU keeps too: the members follow from fcc_off) */
  uint16_t *w_code;
  uint8_t *w_n;

  double *beta_f64, *R_f64;    /* per surface (FV with branches: Y0 + Σ b_m) */
  float *beta_f32, *R_f32;

  /* Frequency-dependent surfaces (FV only; rw-scheme.h): surface s has
   * surf_M[s] branches whose coefficients (b, b_d, bD̂, bF̂) start at
   * coef_*[4 · surf_coef[s]]; en_dh/en_fh give the energy they store. A
   * boundary node on such a surface keeps its branch states v, q from
   * b_state[b] on (UINT32_MAX: a frequency-independent node). */
  int *surf_M;
  size_t *surf_coef;
  double *coef_f64, *en_f64;   /* en: D̂, F̂ per branch of the rounded coefficients */
  uint32_t *b_state;
  void *sv, *sq;               /* T per branch state */
  size_t n_state;

  CpuStrip *strips;
  size_t n_strips;
  uint32_t zmin, zmax;         /* planes any strip visits: [zmin, zmax) */
  int steps_per_pass;          /* time steps per sweep of memory (see advance) */
  bool pass_fixed;             /* set by RW_CPU_STEPS_PER_PASS: no adapting */
  double rate[2];              /* steps/s seen with single steps, with passes; 0 unknown */
  unsigned calls;
  void *save;                  /* per thread, save_len values of T */
  size_t save_len;             /* most boundary nodes in one strip plane */

  char device[256];
} CpuState;

/* The stored index of grid cell i (a site on an FCC grid). */
static size_t
cpu_store_index (const CpuState *st, size_t i)
{
  if (!st->fcc)
    return i;
  const size_t x = i % st->nx, y = (i / st->nx) % st->ny, z = i / st->nxy;
  return rw_fcc_fold_index (st->row_len, st->ny, x, y, z);
}


/* The planes the energy readings sum over: the owned ones of a slab
 * (RwSolverSetup.own_z0, own_z1; rw-backend.h, "Slabs"), else all those
 * any strip visits. */
static size_t
cpu_energy_z0 (const CpuState *st)
{
  return st->setup.own_z1 > 0 && st->setup.own_z0 > st->zmin ? st->setup.own_z0 : st->zmin;
}

static size_t
cpu_energy_z1 (const CpuState *st)
{
  return st->setup.own_z1 > 0 && st->setup.own_z1 < st->zmax ? st->setup.own_z1 : st->zmax;
}

/* Whether the node stored at `store` lies on a plane the readings sum. */
static bool
cpu_energy_owns (const CpuState *st, size_t store)
{
  const size_t z = store / (st->row_len * st->ny);
  return st->setup.own_z1 == 0 || (z >= st->setup.own_z0 && z < st->setup.own_z1);
}

static bool
cpu_available (char *why, size_t why_len)
{
  if (why != NULL && why_len > 0)
    why[0] = '\0';
  return true;
}

/* Threads: as asked, else all cores — but a small grid gets fewer, since
 * every step ends in a barrier that costs more than the step's work when
 * the grid is small (and, on a loaded machine, a descheduled thread holds
 * every other at that barrier for a whole time slice). About half a
 * million cells per thread keeps a step at ≥ 0.1 ms of work per thread. */
static int
cpu_threads (const RwSolverSetup *s)
{
  if (s->threads > 0)
    return s->threads;
  int all = omp_get_max_threads ();
  size_t want = 1 + s->grid->n_inside / 500000;
  return want < (size_t) all ? (int) want : all;
}

static size_t
word_bytes (RwPrecision p)
{
  return p == RW_PRECISION_F64 ? sizeof (double) : sizeof (float);
}

/* The branch states of the frequency-dependent boundary nodes (FV only):
 * v and q per branch and node, in the precision of the field, and the
 * node's offset. Nodes are counted by surface from the grid. */
static size_t
cpu_branch_state_bytes (const RwSolverSetup *s)
{
  const RwGrid *g = s->grid;
  if (s->surface_Y == NULL || s->boundary != RW_BOUNDARY_FV || g->surface == NULL)
    return 0;
  size_t M = 0;
  for (size_t i = 0; i < g->n_surfaces; i++)
    if (s->surface_Y[i].n_branches > (int) M)
      M = (size_t) s->surface_Y[i].n_branches;
  if (M == 0)
    return 0;
  /* an upper bound: every boundary node with the most branches */
  return g->n_boundary * 2 * M * word_bytes (s->precision);
}

/* Whether stored entry xf of row (y, z) of an FCC grid is an interior
 * site (K = 12): the air pass's runs are the maximal sequences of these. */
static bool
fcc_is_air (const RwGrid *g, size_t xf, size_t y, size_t z)
{
  const size_t x = 2 * xf + ((y + z) & 1);
  return x < g->nx && g->K[rw_grid_index (g, x, y, z)] == RW_FCC_N_NBR;
}

/* The number of those runs over the grid (one pass over half the cells). */
static size_t
fcc_count_runs (const RwGrid *g)
{
  const size_t nxf = rw_fcc_row_len (g->nx);
  size_t n = 0;
  for (size_t z = 0; z < g->nz; z++)
    for (size_t y = 0; y < g->ny; y++)
      for (size_t xf = 0; xf < nxf; xf++)
        n += fcc_is_air (g, xf, y, z) && (xf == 0 || !fcc_is_air (g, xf - 1, y, z));
  return n;
}

/* Two fields, the boundary list (index, mask, K, surface, area, state
 * offset: 20 B; FCC: its wall entries), the row
 * tables, the runs (7-point: a run starts at a boundary node, so there are
 * at most n_boundary of them; FCC: counted), strips, per-thread save
 * buffers (at most a plane), the receivers' stored indices. */
static size_t
cpu_memory_bytes (const RwSolverSetup *s)
{
  const RwGrid *g = s->grid;
  const bool fcc = g->lattice == RW_LATTICE_FCC;
  size_t n = (fcc ? rw_fcc_row_len (g->nx) : g->nx) * g->ny * g->nz, rows = g->ny * g->nz;
  size_t n_runs = fcc ? fcc_count_runs (g) : g->n_boundary;
  return 2 * n * word_bytes (s->precision)
         + g->n_boundary * (sizeof (size_t) + 2 + sizeof (uint16_t)
                            + sizeof (float) + sizeof (uint32_t))
         + n_runs * 2 * sizeof (uint32_t)
         + s->n_receivers * sizeof (size_t)
         + 2 * (rows + 1) * sizeof (size_t)
         + g->ny * sizeof (CpuStrip)
         + (size_t) cpu_threads (s) * (g->nx * g->ny + 1) * sizeof (double)
         + 4 * g->n_surfaces * sizeof (double)
         + cpu_branch_state_bytes (s)
         /* FCC wall entries (rw-scheme-fcc.h, "Wall links"): 12 codes and
          * their count a boundary site */
         + (fcc ? g->n_boundary * (RW_FCC_WALL_MAX_ENTRIES * sizeof (uint16_t) + 1) : 0);
}

static void
cpu_destroy (void *state)
{
  CpuState *st = state;
  if (st == NULL)
    return;
  free (st->p);
  free (st->q);
  free (st->run_off);
  free (st->bnd_off);
  free (st->runs);
  free (st->b_index);
  free (st->b_mask);
  free (st->b_K);
  free (st->b_surf);
  free (st->b_area);
  free (st->w_code);
  free (st->w_n);
  free (st->beta_f64);
  free (st->R_f64);
  free (st->beta_f32);
  free (st->R_f32);
  free (st->surf_M);
  free (st->surf_coef);
  free (st->coef_f64);
  free (st->en_f64);
  free (st->b_state);
  free (st->sv);
  free (st->sq);
  free (st->strips);
  free (st->save);
  free (st->rcv_index);
  free (st);
}

static void
read_cpu_model (char *out, size_t len, int threads, int steps_per_pass)
{
  char model[192] = "CPU";
  FILE *f = fopen ("/proc/cpuinfo", "r");
  if (f != NULL)
    {
      char line[512];
      while (fgets (line, sizeof line, f) != NULL)
        if (strncmp (line, "model name", 10) == 0)
          {
            char *c = strchr (line, ':');
            if (c != NULL)
              {
                c++;
                while (*c == ' ' || *c == '\t')
                  c++;
                c[strcspn (c, "\n")] = '\0';
                snprintf (model, sizeof model, "%s", c);
              }
            break;
          }
      fclose (f);
    }
  char what[96];
  snprintf (what, sizeof what, dngettext (GETTEXT_PACKAGE, "%d thread", "%d threads",
                                          (unsigned long) threads), threads);
  if (steps_per_pass > 1)
    snprintf (out, len, _("%s (%s, %d steps per pass)"), model, what, steps_per_pass);
  else
    snprintf (out, len, _("%s (%s)"), model, what);
}

/* The row and boundary tables, for n_runs runs and the grid's boundary
 * nodes. */
static bool
alloc_rows (CpuState *st, size_t n_runs, RwError *err)
{
  const size_t rows = st->ny * st->nz;
  const size_t max_b = st->g->n_boundary > 0 ? st->g->n_boundary : 1;
  st->run_off = malloc ((rows + 1) * sizeof (size_t));
  st->bnd_off = malloc ((rows + 1) * sizeof (size_t));
  st->runs = malloc (2 * (n_runs > 0 ? n_runs : 1) * sizeof (uint32_t));
  st->b_index = malloc (max_b * sizeof (size_t));
  st->b_mask = malloc (max_b);
  st->b_K = malloc (max_b);
  st->b_surf = malloc (max_b * sizeof (uint16_t));
  st->b_area = malloc (max_b * sizeof (float));
  if (!st->run_off || !st->bnd_off || !st->runs || !st->b_index || !st->b_mask
      || !st->b_K || !st->b_surf || !st->b_area)
    return rw_fail (err, RW_ERROR_MEMORY, _("Out of memory for the solver's boundary tables"));
  return true;
}

/* The grid's promises about inside cell (x, y, z) (`edge`: its row is on
 * the outer layer), k its inside neighbours as counted here. */
static bool
check_node (const CpuState *st, size_t x, size_t y, size_t z, bool edge, int k, RwError *err)
{
  const RwGrid *g = st->g;
  const size_t nx = st->nx, col = x + nx * y;
  const int K = g->K[rw_grid_index (g, x, y, z)];
  if (edge || x == 0 || x == nx - 1)
    return rw_fail (err, RW_ERROR_INTERNAL,
                    _("The grid has an inside cell (%zu, %zu, %zu) on its outer layer"), x, y, z);
  if (z < g->zlo[col] || z >= g->zhi[col])
    return rw_fail (err, RW_ERROR_INTERNAL,
                    _("Grid cell (%zu, %zu, %zu) is inside but outside its column's "
                      "range [%u, %u)"), x, y, z, g->zlo[col], g->zhi[col]);
  if (k != K)
    return rw_fail (err, RW_ERROR_INTERNAL,
                    _("Grid cell (%zu, %zu, %zu) says K = %d but has %d inside neighbours"),
                    x, y, z, K, k);
  return true;
}

/* Boundary node nb (index order: its rank in area[]) at grid index i,
 * stored at `store`, with neighbour mask `mask` (7-point; 0 on FCC). */
static bool
add_boundary (CpuState *st, size_t nb, size_t i, size_t store, int mask, RwError *err)
{
  const RwGrid *g = st->g;
  if (nb >= g->n_boundary)
    return rw_fail (err, RW_ERROR_INTERNAL, _("The grid has more boundary nodes than its count %zu"),
                    g->n_boundary);
  uint16_t s = g->surface != NULL ? g->surface[i] : 0;
  if (s >= g->n_surfaces)
    {
      const size_t x = i % st->nx, y = (i / st->nx) % st->ny, z = i / st->nxy;
      return rw_fail (err, RW_ERROR_INTERNAL,
                      _("Boundary cell (%zu, %zu, %zu) has no valid surface (%u of %zu)"),
                      x, y, z, (unsigned) s, g->n_surfaces);
    }
  st->b_index[nb] = store;
  st->b_mask[nb] = (uint8_t) mask;
  st->b_K[nb] = g->K[i];
  st->b_surf[nb] = s;
  st->b_area[nb] = rw_grid_node_area (g, nb, g->K[i]);
  return true;
}

/* Builds the row tables: runs of inside cells and the boundary nodes with
 * their neighbour masks. */
static bool
build_rows (CpuState *st, RwError *err)
{
  const RwGrid *g = st->g;
  const size_t nx = st->nx, ny = st->ny, nz = st->nz, nxy = st->nxy, rows = ny * nz;
  const ptrdiff_t off[6] = { -1, 1, -(ptrdiff_t) nx, (ptrdiff_t) nx,
                             -(ptrdiff_t) nxy, (ptrdiff_t) nxy };

  size_t max_b = g->n_boundary > 0 ? g->n_boundary : 1;
  if (!alloc_rows (st, max_b, err))
    return false;

  size_t nr = 0, nb = 0;
  for (size_t z = 0; z < nz; z++)
    for (size_t y = 0; y < ny; y++)
      {
        size_t r = y + ny * z, base = nx * r;
        st->run_off[r] = nr;
        st->bnd_off[r] = nb;
        bool edge = z == 0 || y == 0 || z == nz - 1 || y == ny - 1;
        for (size_t x = 0; x < nx; x++)
          {
            size_t i = base + x;
            uint8_t K = g->K[i];
            if (K == 0)
              continue;
            int mask = 0, k = 0;
            for (int d = 0; d < 6; d++)
              if (g->K[i + off[d]] != 0)
                {
                  mask |= 1 << d;
                  k++;
                }
            if (!check_node (st, x, y, z, edge, k, err))
              return false;
            if (K < 6 && !add_boundary (st, nb++, i, i, mask, err))
              return false;
            /* A run starts where the −x neighbour is outside (such a cell
             * is a boundary node, so runs ≤ boundary nodes). */
            if (!(mask & (1 << RW_NBR_XM)))
              {
                if (nr >= max_b)
                  return rw_fail (err, RW_ERROR_INTERNAL, _("The grid's boundary count is too low"));
                size_t x1 = x;
                while (g->K[base + x1] != 0)
                  x1++;
                st->runs[2 * nr] = (uint32_t) x;
                st->runs[2 * nr + 1] = (uint32_t) x1;
                nr++;
              }
          }
        /* A row whose inside cells are all boundary nodes (the faces of a
         * box) needs no air pass: the fix-up writes every cell of it. */
        size_t inside = 0;
        for (size_t k = st->run_off[r]; k < nr; k++)
          inside += st->runs[2 * k + 1] - st->runs[2 * k];
        if (inside == nb - st->bnd_off[r])
          nr = st->run_off[r];
      }
  st->run_off[rows] = nr;
  st->bnd_off[rows] = nb;
  st->n_bnd = nb;
  return true;
}

/* The FCC grid's tables (file comment): per folded row, the runs of
 * interior sites and the boundary sites, in stored indices. The grid is
 * checked as build_rows checks it, with 12 neighbours: sites only (odd
 * cells never inside), none on the outer layer, K the count of inside
 * neighbours among the 12. */
static bool
build_rows_fcc (CpuState *st, RwError *err)
{
  static const int off[RW_FCC_N_NBR][3] = RW_FCC_NBR_OFFSETS;
  const RwGrid *g = st->g;
  const size_t nx = st->nx, ny = st->ny, nz = st->nz, nxf = st->row_len, rows = ny * nz;
  const size_t n_runs = fcc_count_runs (g);

  if (!alloc_rows (st, n_runs, err))
    return false;

  size_t nr = 0, nb = 0;
  for (size_t z = 0; z < nz; z++)
    for (size_t y = 0; y < ny; y++)
      {
        const size_t r = y + ny * z;
        st->run_off[r] = nr;
        st->bnd_off[r] = nb;
        const bool edge = z == 0 || y == 0 || z == nz - 1 || y == ny - 1;
        for (size_t x = 0; x < nx; x++)
          {
            const size_t i = rw_grid_index (g, x, y, z);
            const uint8_t K = g->K[i];
            if (K == 0)
              continue;
            if (((x + y + z) & 1) != 0)
              return rw_fail (err, RW_ERROR_INTERNAL,
                              _("The FCC grid has an inside cell (%zu, %zu, %zu) that is not a "
                                "site"), x, y, z);
            int k = 0;
            for (int d = 0; d < RW_FCC_N_NBR; d++)
              k += g->K[rw_grid_index (g, x + off[d][0], y + off[d][1], z + off[d][2])] != 0;
            if (!check_node (st, x, y, z, edge, k, err))
              return false;
            const size_t xf = x >> 1;
            /* the stored order is the grid's index order, the ranks of area[] */
            if (K < RW_FCC_N_NBR)
              {
                if (!add_boundary (st, nb++, i, xf + nxf * r, 0, err))
                  return false;
              }
            else if (xf == 0 || !fcc_is_air (g, xf - 1, y, z))
              {
                size_t x1 = xf;
                while (x1 < nxf && fcc_is_air (g, x1, y, z))
                  x1++;
                st->runs[2 * nr] = (uint32_t) xf;
                st->runs[2 * nr + 1] = (uint32_t) x1;
                nr++;
              }
          }
      }
  if (nr != n_runs || nb != g->n_boundary)
    return rw_fail (err, RW_ERROR_INTERNAL,
                    _("The grid has %zu boundary nodes, not its count %zu"), nb, g->n_boundary);
  st->run_off[rows] = nr;
  st->bnd_off[rows] = nb;
  st->n_bnd = nb;
  /* the neighbours' stored offsets, uniform along a row of parity P */
  static const int fwd[6][3] = RW_FCC_FWD_OFFSETS;
  for (int P = 0; P < 2; P++)
    {
      for (int d = 0; d < RW_FCC_N_NBR; d++)
        st->fcc_off[P][d] = rw_fcc_nbr_offset (off[d][0], P)
                            + (ptrdiff_t) nxf * (off[d][1] + (ptrdiff_t) ny * off[d][2]);
      for (int e = 0; e < 6; e++)
        st->fcc_fwd[P][e] = rw_fcc_nbr_offset (fwd[e][0], P)
                            + (ptrdiff_t) nxf * (fwd[e][1] + (ptrdiff_t) ny * fwd[e][2]);
    }
  for (int e = 0; e < 6; e++)
    st->fcc_fwd_cubic[e] = fwd[e][0] + (ptrdiff_t) nx * (fwd[e][1] + (ptrdiff_t) ny * fwd[e][2]);
  return true;
}

/* The FCC grid's wall entries per boundary site (rw-scheme-fcc.h, "Wall
 * links"; rw_fcc_wall_entries' codes, at most 12 a site). */
static bool
build_walls_fcc (CpuState *st, RwError *err)
{
  const RwGrid *g = st->g;
  uint8_t count[RW_FCC_WALL_MAX_ENTRIES];
  size_t member[RW_FCC_WALL_MAX_MEMBERS];
  st->w_code = malloc ((RW_FCC_WALL_MAX_ENTRIES * st->n_bnd + 1) * sizeof (uint16_t));
  st->w_n = malloc (st->n_bnd + 1);
  if (st->w_code == NULL || st->w_n == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("Out of memory for the solver's boundary tables"));
  for (size_t b = 0; b < st->n_bnd; b++)
    {
      /* the site's grid index from its stored one (x = 2·xf + parity) */
      const size_t k = st->b_index[b], r = k / st->row_len, y = r % st->ny, z = r / st->ny;
      const size_t x = 2 * (k % st->row_len) + ((y + z) & 1);
      st->w_n[b] = (uint8_t) rw_fcc_wall_entries (g, rw_grid_index (g, x, y, z), count, member,
                                                  st->w_code + RW_FCC_WALL_MAX_ENTRIES * b);
    }
  return true;
}

/* Branch coefficients per surface and state offsets per boundary node,
 * for the FV boundary with frequency-dependent admittances. */
static bool
build_branches (CpuState *st, RwError *err)
{
  const RwSolverSetup *su = &st->setup;
  const RwGrid *g = st->g;
  if (su->boundary != RW_BOUNDARY_FV)
    return true;
  bool any = false;
  for (size_t b = 0; b < st->n_bnd && !any; b++)
    any = st->b_area[b] != rw_grid_face_count_area (g, st->b_K[b]);
  for (size_t s = 0; su->surface_Y != NULL && s < g->n_surfaces && !any; s++)
    any = su->surface_Y[s].n_branches > 0;
  if (!any)
    return true;
  size_t ns = g->n_surfaces > 0 ? g->n_surfaces : 1, nbr = 0;
  for (size_t s = 0; su->surface_Y != NULL && s < g->n_surfaces; s++)
    nbr += (size_t) su->surface_Y[s].n_branches;
  st->surf_M = calloc (ns, sizeof (int));
  st->surf_coef = calloc (ns, sizeof (size_t));
  st->coef_f64 = calloc (4 * nbr + 1, sizeof (double));
  st->en_f64 = calloc (2 * nbr + 1, sizeof (double));
  st->b_state = malloc ((st->n_bnd + 1) * sizeof (uint32_t));
  if (!st->surf_M || !st->surf_coef || !st->coef_f64 || !st->en_f64 || !st->b_state)
    return rw_fail (err, RW_ERROR_MEMORY, _("Out of memory for the solver's boundary tables"));
  size_t off = 0;
  for (size_t s = 0; su->surface_Y != NULL && s < g->n_surfaces; s++)
    {
      const RwAdmittance *a = &su->surface_Y[s];
      st->surf_M[s] = a->n_branches;
      st->surf_coef[s] = off;
      if (a->n_branches == 0)
        continue;
      st->beta_f64[s] = rw_admittance_branch_table (a, su->time_step_s, st->coef_f64 + 4 * off,
                                         st->en_f64 + 2 * off);
      off += (size_t) a->n_branches;
    }
  size_t n_state = 0;
  for (size_t b = 0; b < st->n_bnd; b++)
    {
      int M = st->surf_M[st->b_surf[b]];
      if (M == 0 && st->b_area[b] == rw_grid_face_count_area (g, st->b_K[b]))
        {
          st->b_state[b] = UINT32_MAX;   /* the plain FV update */
          continue;
        }
      if (n_state + (size_t) M >= UINT32_MAX)
        return rw_fail (err, RW_ERROR_MEMORY, _("Too many branch states for the solver's tables"));
      st->b_state[b] = (uint32_t) n_state;
      n_state += (size_t) M;
    }
  st->n_state = n_state;
  /* zeroed: the run starts from rest */
  st->sv = calloc (n_state + 1, word_bytes (st->precision));
  st->sq = calloc (n_state + 1, word_bytes (st->precision));
  if (st->sv == NULL || st->sq == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("Out of memory for the branch states (%zu values)"),
                    2 * n_state);
  return true;
}

static bool
build_strips (CpuState *st, RwError *err)
{
  const RwGrid *g = st->g;
  /* Strip depth: the three planes z−1, z, z+1 of a strip should fill about
   * half of L2 (the other half streams p⁻), and the strips should be as
   * deep as that allows, because each strip plane is one contiguous run
   * of memory that the hardware prefetcher follows. */
  long l2 = sysconf (_SC_LEVEL2_CACHE_SIZE);
  size_t budget = l2 > 0 ? (size_t) l2 / 2 : RW_CPU_STRIP_BYTES;
  size_t by = budget / (3 * st->row_len * word_bytes (st->precision));
  const char *env = getenv ("RW_CPU_STRIP_ROWS");
  if (env != NULL && atoi (env) > 0)
    by = (size_t) atoi (env);
  if (by < 1)
    by = 1;
  /* Several strips per thread, handed out dynamically: on a shared or
   * virtual machine a thread that loses its core for a moment leaves its
   * strips to the others instead of holding up the step's barrier. */
  size_t min_strips = 4 * (size_t) st->threads;
  if (st->ny / by < min_strips)
    by = st->ny / min_strips > 0 ? st->ny / min_strips : 1;

  st->strips = malloc ((st->ny / by + 1) * sizeof (CpuStrip));
  if (st->strips == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("Out of memory for the solver's strips"));
  st->n_strips = 0;
  for (size_t y0 = 0; y0 < st->ny; y0 += by)
    {
      size_t y1 = y0 + by < st->ny ? y0 + by : st->ny;
      uint32_t zlo = UINT32_MAX, zhi = 0;
      for (size_t y = y0; y < y1; y++)
        for (size_t x = 0; x < st->nx; x++)
          {
            size_t c = x + st->nx * y;
            if (g->zlo[c] < g->zhi[c])
              {
                if (g->zlo[c] < zlo)
                  zlo = g->zlo[c];
                if (g->zhi[c] > zhi)
                  zhi = g->zhi[c];
              }
          }
      if (zlo >= zhi)
        continue;          /* an empty block is never visited */
      if (zhi > st->nz)
        return rw_fail (err, RW_ERROR_INTERNAL, _("A grid column ends at z = %u beyond nz = %zu"),
                        zhi, st->nz);
      st->strips[st->n_strips++] = (CpuStrip) { (uint32_t) y0, (uint32_t) y1, zlo, zhi };
      if (st->n_strips == 1 || zlo < st->zmin)
        st->zmin = zlo;
      if (zhi > st->zmax)
        st->zmax = zhi;
      for (size_t z = zlo; z < zhi; z++)
        {
          size_t nb = st->bnd_off[y1 + st->ny * z] - st->bnd_off[y0 + st->ny * z];
          if (nb > st->save_len)
            st->save_len = nb;
        }
    }
  return true;
}

/* Function multiversioning for the hot loop (GCC's target_clones; not
 * under the sanitizers, whose instrumentation does not mix with ifuncs:
 * under ThreadSanitizer the instrumented resolver runs at relocation time,
 * before the TSan runtime is up, and the program crashes at start). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__) \
    && !defined(__SANITIZE_THREAD__)
#define RW_CPU_CLONES __attribute__ ((target_clones ("avx512f", "avx2", "default")))
#else
#define RW_CPU_CLONES
#endif

/* The exact sums' reduction over threads (rw-exact-sum.h: any order
 * gives the same bits) */
#pragma omp declare reduction (exact : RwExactSum : rw_exact_sum_merge (&omp_out, omp_in)) \
  initializer (omp_priv = (RwExactSum) { 0 })

#define RW_CPU_FN3(a, b) a##_##b
#define RW_CPU_FN2(a, b) RW_CPU_FN3 (a, b)
#define RW_CPU_FN(name) RW_CPU_FN2 (name, RW_CPU_SUFFIX)

#define RW_CPU_T float
#define RW_CPU_SUFFIX f32
#include __FILE__
#undef RW_CPU_T
#undef RW_CPU_SUFFIX

#define RW_CPU_T double
#define RW_CPU_SUFFIX f64
#include __FILE__
#undef RW_CPU_T
#undef RW_CPU_SUFFIX

/* k steps per pass pay while the planes a pass keeps in flight — z + 1
 * down to z − 2k + 1 of both fields, 2 (2k + 1) planes — fit in half of
 * the last-level cache; otherwise they would come from memory more than
 * once. The largest of 4 and 2 that fits, else 1 (the strip march).
 * RW_CPU_STEPS_PER_PASS=1…8 overrides (tests, benchmarks). */
static int
cpu_steps_per_pass (CpuState *st)
{
  /* FCC grids: a boundary site's wall entries reach 2 planes away in z
   * (rw-scheme-fcc.h, "Wall links"), beyond what a pass keeps in step */
  if (st->fcc)
    {
      st->pass_fixed = true;
      return 1;
    }
  const char *env = getenv ("RW_CPU_STEPS_PER_PASS");
  if (env != NULL && atoi (env) >= 1 && atoi (env) <= RW_CPU_MAX_STEPS_PER_PASS)
    {
      st->pass_fixed = true;
      return atoi (env);
    }
  long llc = sysconf (_SC_LEVEL3_CACHE_SIZE);
  if (llc <= 0)
    llc = sysconf (_SC_LEVEL2_CACHE_SIZE);
  for (int k = 4; k >= 2; k /= 2)
    if (llc > 0 && (size_t) (2 * (2 * k + 1)) * st->row_len * st->ny * word_bytes (st->precision)
                   <= (size_t) llc / 2)
      return k;
  return 1;
}

static void *
cpu_create (const RwSolverSetup *setup, RwError *err)
{
  if (setup->precision != RW_PRECISION_F32 && setup->precision != RW_PRECISION_F64)
    {
      rw_fail (err, RW_ERROR_UNSUPPORTED,
               _("The CPU backend computes in fp32 or fp64; fp16 storage is CUDA-only"));
      return NULL;
    }
  CpuState *st = calloc (1, sizeof *st);
  if (st == NULL)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("Out of memory creating the CPU solver"));
      return NULL;
    }
  const RwGrid *g = setup->grid;
  st->setup = *setup;
  st->g = g;
  st->nx = g->nx;
  st->ny = g->ny;
  st->nz = g->nz;
  st->nxy = g->nx * g->ny;
  st->n = st->nxy * g->nz;
  st->threads = cpu_threads (setup);
  st->precision = setup->precision;
  st->boundary = setup->boundary;
  st->fcc = g->lattice == RW_LATTICE_FCC;
  st->row_len = st->fcc ? rw_fcc_row_len (g->nx) : g->nx;
  st->n_store = st->row_len * g->ny * g->nz;
  if (st->fcc && setup->boundary != RW_BOUNDARY_FV)
    {
      /* rw_solver_new refuses it with the user's message */
      cpu_destroy (st);
      rw_fail (err, RW_ERROR_UNSUPPORTED, _("FCC grids run the FV boundary only"));
      return NULL;
    }

  size_t ns = g->n_surfaces > 0 ? g->n_surfaces : 1;
  st->beta_f64 = calloc (ns, sizeof (double));
  st->R_f64 = calloc (ns, sizeof (double));
  st->beta_f32 = calloc (ns, sizeof (float));
  st->R_f32 = calloc (ns, sizeof (float));
  size_t w = word_bytes (st->precision);
  /* Zeroed: outside cells hold 0 for ever and the run starts from rest. */
  st->p = calloc (st->n_store, w);
  st->q = calloc (st->n_store, w);
  st->rcv_index = malloc ((setup->n_receivers + 1) * sizeof (size_t));
  if (!st->beta_f64 || !st->R_f64 || !st->beta_f32 || !st->R_f32 || !st->p || !st->q
      || !st->rcv_index)
    {
      cpu_destroy (st);
      rw_fail (err, RW_ERROR_MEMORY, _("Out of memory for the pressure fields (%.2f GiB)"),
               2.0 * (double) (st->n_store * w) / 1073741824.0);
      return NULL;
    }
  /* cells are grid indices (of sites, on FCC grids): where each is stored */
  for (size_t r = 0; r < setup->n_receivers; r++)
    st->rcv_index[r] = cpu_store_index (st, setup->receiver_cells[r]);
  for (size_t s = 0; s < g->n_surfaces; s++)
    {
      double R = setup->surface_R[s];
      double beta = rw_beta_of_R (R);
      st->beta_f64[s] = beta;
      st->R_f64[s] = R;
      st->beta_f32[s] = (float) beta;
      st->R_f32[s] = (float) R;
    }
  if (!(st->fcc ? build_rows_fcc (st, err) && build_walls_fcc (st, err) : build_rows (st, err))
      || !build_strips (st, err) || !build_branches (st, err))
    {
      cpu_destroy (st);
      return NULL;
    }
  st->steps_per_pass = cpu_steps_per_pass (st);
  read_cpu_model (st->device, sizeof st->device, st->threads, st->steps_per_pass);
  st->save = malloc ((size_t) st->threads * (st->save_len + 1) * w);
  if (st->save == NULL)
    {
      cpu_destroy (st);
      rw_fail (err, RW_ERROR_MEMORY, _("Out of memory for the solver's boundary buffers"));
      return NULL;
    }
  return st;
}

static bool
cpu_advance (void *state, size_t step0, size_t n, double *rcv, size_t stride, RwError *err)
{
  CpuState *st = state;
  /* Passes of several steps wait at a barrier every phase: on a machine
   * whose cores are taken away now and then, single steps (one barrier a
   * step, strips handed out dynamically) can be faster. Both give the same
   * numbers, so the mode is chosen by speed: the faster seen so far
   * (moving averages), with the other tried once in 16 calls (a call is
   * ~0.1 s of a run: rw_solver_run) to follow the machine's load. */
  int mode = 0;
  if (st->steps_per_pass > 1)
    {
      mode = 1;
      if (!st->pass_fixed)
        {
          if (st->rate[0] == 0.0 && st->rate[1] > 0.0)
            mode = 0;
          else if (st->rate[0] > 0.0 && st->rate[1] > 0.0)
            mode = st->rate[1] >= st->rate[0];
          if (st->calls % 16 == 15)
            mode = !mode;
        }
    }
  st->calls++;
  const int k = mode ? st->steps_per_pass : 1;
  const double t0 = omp_get_wtime ();
  const bool ok = st->precision == RW_PRECISION_F64 ? advance_f64 (st, step0, n, k, rcv, stride, err)
                                                    : advance_f32 (st, step0, n, k, rcv, stride, err);
  const double dt = omp_get_wtime () - t0;
  /* calls of fewer steps than a pass say nothing about passes */
  if (ok && dt > 0 && n >= (size_t) (2 * st->steps_per_pass))
    {
      const double r = (double) n / dt;
      st->rate[mode] = st->rate[mode] == 0.0 ? r : 0.7 * st->rate[mode] + 0.3 * r;
    }
  return ok;
}

static bool
cpu_read_field (void *state, double *p, double *p_prev, RwError *err)
{
  (void) err;
  CpuState *st = state;
  if (st->precision == RW_PRECISION_F64)
    read_field_f64 (st, p, p_prev);
  else
    read_field_f32 (st, p, p_prev);
  return true;
}

static bool
cpu_energy (void *state, RwEnergyReading *out, RwError *err)
{
  (void) err;
  CpuState *st = state;
  if (st->precision == RW_PRECISION_F64)
    energy_f64 (st, out);
  else
    energy_f32 (st, out);
  return true;
}

static bool
cpu_read_slice (void *state, int axis, size_t index, float *out, RwError *err)
{
  CpuState *st = state;
  size_t lim = axis == 0 ? st->nx : axis == 1 ? st->ny : axis == 2 ? st->nz : 0;
  if (index >= lim)
    return rw_fail (err, RW_ERROR_INPUT, _("Slice %zu on axis %d is outside the grid"), index, axis);
  if (st->precision == RW_PRECISION_F64)
    read_slice_f64 (st, axis, index, out);
  else
    read_slice_f32 (st, axis, index, out);
  return true;
}

/* Slabs (rw-backend.h): planes of p as stored. */
static size_t
cpu_plane_bytes (void *state)
{
  const CpuState *st = state;
  return st->row_len * st->ny * word_bytes (st->precision);
}

static bool
cpu_planes_check (const CpuState *st, size_t z, size_t n, RwError *err)
{
  if (z > st->nz || n > st->nz - z)
    return rw_fail (err, RW_ERROR_INTERNAL, _("Planes [%zu, %zu) of a grid of %zu"), z, z + n,
                    st->nz);
  return true;
}

static bool
cpu_get_planes (void *state, size_t z, size_t n, void *buf, RwError *err)
{
  const CpuState *st = state;
  if (!cpu_planes_check (st, z, n, err))
    return false;
  const size_t b = cpu_plane_bytes (state);
  memcpy (buf, (const char *) st->p + z * b, n * b);
  return true;
}

static bool
cpu_set_planes (void *state, size_t z, size_t n, const void *buf, RwError *err)
{
  CpuState *st = state;
  if (!cpu_planes_check (st, z, n, err))
    return false;
  const size_t b = cpu_plane_bytes (state);
  memcpy ((char *) st->p + z * b, buf, n * b);
  return true;
}

/* Checkpoints (rw-backend.h): p, p⁻, then the branch states v and q. */
static size_t
cpu_state_bytes (void *state)
{
  const CpuState *st = state;
  const size_t w = word_bytes (st->precision);
  return 2 * st->n_store * w + 2 * st->n_state * w;
}

static bool
cpu_save_state (void *state, void *buf, RwError *err)
{
  (void) err;
  const CpuState *st = state;
  const size_t w = word_bytes (st->precision), f = st->n_store * w, b = st->n_state * w;
  char *o = buf;
  memcpy (o, st->p, f);
  memcpy (o + f, st->q, f);
  if (b > 0)
    {
      memcpy (o + 2 * f, st->sv, b);
      memcpy (o + 2 * f + b, st->sq, b);
    }
  return true;
}

static bool
cpu_load_state (void *state, const void *buf, RwError *err)
{
  (void) err;
  CpuState *st = state;
  const size_t w = word_bytes (st->precision), f = st->n_store * w, b = st->n_state * w;
  const char *i = buf;
  memcpy (st->p, i, f);
  memcpy (st->q, i + f, f);
  if (b > 0)
    {
      memcpy (st->sv, i + 2 * f, b);
      memcpy (st->sq, i + 2 * f + b, b);
    }
  return true;
}

static const char *
cpu_device_name (void *state)
{
  return ((CpuState *) state)->device;
}

/* One device: the host. */
static int
cpu_device_count (void)
{
  return 1;
}

static bool
cpu_device_info (int device, RwDeviceInfo *info, RwError *err)
{
  if (device != 0)
    return rw_fail (err, RW_ERROR_INPUT, _("Device %d does not exist: the cpu backend has one, 0"),
                    device);
  read_cpu_model (info->name, sizeof info->name, omp_get_max_threads (), 1);
  const long pages = sysconf (_SC_PHYS_PAGES), free_pages = sysconf (_SC_AVPHYS_PAGES);
  const long page = sysconf (_SC_PAGESIZE);
  info->memory_bytes = pages > 0 && page > 0 ? (size_t) pages * (size_t) page : 0;
  info->free_bytes = free_pages > 0 && page > 0 ? (size_t) free_pages * (size_t) page : 0;
  return true;
}

const RwBackendOps rw_cpu_backend = {
  .name = "cpu",
  .supports_f16 = false,
  .supports_branches = true,
  .supports_fcc = true,
  .host_memory = true,
  .max_steps_per_pass = RW_CPU_MAX_STEPS_PER_PASS,
  .device_count = cpu_device_count,
  .device_info = cpu_device_info,
  .available = cpu_available,
  .memory_bytes = cpu_memory_bytes,
  .create = cpu_create,
  .advance = cpu_advance,
  .read_field = cpu_read_field,
  .energy = cpu_energy,
  .plane_bytes = cpu_plane_bytes,
  .get_planes = cpu_get_planes,
  .set_planes = cpu_set_planes,
  .state_bytes = cpu_state_bytes,
  .save_state = cpu_save_state,
  .load_state = cpu_load_state,
  .read_slice = cpu_read_slice,
  .device_name = cpu_device_name,
  .destroy = cpu_destroy,
};

#else /* RW_CPU_T: the T-generic part, included twice from above */

#define T RW_CPU_T

/* Wall entry `code` of the site at stored index i, in a row of parity P
 * (rw-scheme-fcc.h, "Wall links"): the sums of its members' p and, when q
 * is not NULL, of their q, in offset order around its outside site;
 * returns their number. */
static int
RW_CPU_FN (wall_entry) (const CpuState *st, const T *p, const T *q, size_t i, int P, unsigned code,
                        double *sp, double *sq)
{
  static const int off[RW_FCC_N_NBR][3] = RW_FCC_NBR_OFFSETS;
  const int d = (int) (code >> 12);
  const size_t o = i + st->fcc_off[P][d];
  const ptrdiff_t *oo = st->fcc_off[(P + off[d][1] + off[d][2]) & 1];
  double a = 0, c = 0;
  int n = 0;
  for (int k = 0; k < RW_FCC_N_NBR; k++)
    if (code & (1u << k))
      {
        a += (double) p[o + oo[k]];
        if (q != NULL)
          c += (double) q[o + oo[k]];
        n++;
      }
  *sp = a;
  *sq = c;
  return n;
}

/* The FCC grid's rows r0 … r1−1 (file comment): the air update over the
 * runs, then the boundary sites, each row with its parity's offsets; the
 * 12 neighbours summed in RW_FCC_NBR_OFFSETS order, one add after another
 * (no FMA contraction in ISO C mode), as the GPU sums them. Returns the sum
 * of the new values. */
RW_CPU_CLONES static T
RW_CPU_FN (update_plane_fcc) (const CpuState *st, const T *restrict p, T *restrict q,
                              size_t r0, size_t r1)
{
  const size_t nxf = st->row_len, ny = st->ny;
  const T l2 = (T) RW_FCC_LAMBDA2;
  T acc = 0;

  for (size_t r = r0; r < r1; r++)
    {
      const ptrdiff_t *o = st->fcc_off[((r % ny) + r / ny) & 1];
      const ptrdiff_t o0 = o[0], o1 = o[1], o2 = o[2], o3 = o[3], o4 = o[4], o5 = o[5],
                      o6 = o[6], o7 = o[7], o8 = o[8], o9 = o[9], o10 = o[10], o11 = o[11];
      const size_t base = nxf * r;
      for (size_t k = st->run_off[r]; k < st->run_off[r + 1]; k++)
        {
          const size_t i0 = base + st->runs[2 * k], i1 = base + st->runs[2 * k + 1];
#pragma omp simd reduction(+:acc)
          for (size_t i = i0; i < i1; i++)
            {
              T sum = p[i + o0] + p[i + o1] + p[i + o2] + p[i + o3] + p[i + o4] + p[i + o5]
                      + p[i + o6] + p[i + o7] + p[i + o8] + p[i + o9] + p[i + o10] + p[i + o11];
              T v = RW_CPU_FN (rw_fcc_update_air) (l2, p[i], sum, q[i]);
              q[i] = v;
              acc += v;
            }
        }
      /* boundary sites: in no run, so q still holds their p⁻ */
      for (size_t b = st->bnd_off[r]; b < st->bnd_off[r + 1]; b++)
        {
          const size_t i = st->b_index[b];
          /* outside neighbours hold 0: the 12-sum is the inside sum */
          T sum_in = p[i + o0] + p[i + o1] + p[i + o2] + p[i + o3] + p[i + o4] + p[i + o5]
                     + p[i + o6] + p[i + o7] + p[i + o8] + p[i + o9] + p[i + o10] + p[i + o11];
          const uint16_t s = st->b_surf[b];
          int M = 0;
          const double *coef = NULL;
          T *sv = NULL, *sq = NULL;
          if (st->b_state != NULL && st->b_state[b] != UINT32_MAX)
            {
              M = st->surf_M[s];
              coef = st->coef_f64 + 4 * st->surf_coef[s];
              sv = (T *) st->sv + st->b_state[b];
              sq = (T *) st->sq + st->b_state[b];
            }
          /* the wall entries' means (rw-scheme-fcc.h, "Wall links") */
          double means = 0, t, unused;
          const int P = (int) (((r % ny) + r / ny) & 1), nw = st->w_n[b];
          for (int e = 0; e < nw; e++)
            {
              const int c = RW_CPU_FN (wall_entry) (st, p, NULL, i, P,
                                                    st->w_code[RW_FCC_WALL_MAX_ENTRIES * b + e], &t,
                                                    &unused);
              means += t / (double) c;
            }
          /* in double whatever T (rw-scheme-fcc.h), the states in T */
          T v = (T) RW_CPU_FN (rw_fcc_update_boundary) (RW_FCC_LAMBDA2,
                                                        rw_fcc_wall_K (st->b_K[b], nw),
                                                        (double) st->b_area[b], (double) p[i],
                                                        rw_fcc_wall_sum ((double) sum_in, means),
                                                        (double) q[i], st->beta_f64[s], M, coef,
                                                        sv, sq, 1);
          q[i] = v;
          acc += v;
        }
    }
  return acc;
}

/* One plane z of a strip (rows y0 … y1−1, whose runs and boundary nodes
 * are consecutive in the tables): save the boundary nodes' p⁻, pass 1
 * (air update over every run), pass 2 (boundary fix-up with the saved
 * p⁻). Returns the sum of the new values (the non-finite check).
 * Compiled for AVX-512, AVX2 and baseline x86-64, chosen at load time
 * (the library is built for baseline x86-64); arithmetic is the same in
 * each (no FMA contraction in ISO C mode), only the vector width differs. */
RW_CPU_CLONES static T
RW_CPU_FN (update_plane) (const CpuState *st, const T *restrict p, T *restrict q,
                          size_t r0, size_t r1, T *restrict save, const T *beta, const T *R)
{
  const size_t nx = st->nx, nxy = st->nxy;
  const size_t b0 = st->bnd_off[r0], b1 = st->bnd_off[r1];
  const size_t *restrict b_index = st->b_index;
  T acc = 0;

  if (st->fcc)
    return RW_CPU_FN (update_plane_fcc) (st, p, q, r0, r1);

  for (size_t b = b0; b < b1; b++)
    save[b - b0] = q[b_index[b]];

  for (size_t r = r0; r < r1; r++)
    {
      const size_t base = nx * r;
      for (size_t k = st->run_off[r]; k < st->run_off[r + 1]; k++)
        {
          const size_t i0 = base + st->runs[2 * k], i1 = base + st->runs[2 * k + 1];
          /* Neighbour sum in the order −x, +x, −y, +y, −z, +z, as the
           * boundary fix-up and the GPU kernels sum it. */
#pragma omp simd reduction(+:acc)
          for (size_t i = i0; i < i1; i++)
            {
              T sum6 = p[i - 1] + p[i + 1] + p[i - nx] + p[i + nx] + p[i - nxy] + p[i + nxy];
              T v = RW_CPU_FN (rw_update_air) (sum6, q[i]);
              q[i] = v;
              acc += v;
            }
        }
    }

  switch (st->boundary)
    {
    case RW_BOUNDARY_FV:
      for (size_t b = b0; b < b1; b++)
        {
          size_t i = b_index[b];
          /* Outside neighbours hold 0: the six-sum is the inside sum. */
          T sum_in = p[i - 1] + p[i + 1] + p[i - nx] + p[i + nx] + p[i - nxy] + p[i + nxy];
          T v;
          if (st->b_state == NULL || st->b_state[b] == UINT32_MAX)
            v = RW_CPU_FN (rw_update_fv) (st->b_K[b], p[i], sum_in, save[b - b0],
                                          beta[st->b_surf[b]]);
          else
            {
              /* in double whatever T (rw-scheme.h), the states in T */
              const uint16_t s = st->b_surf[b];
              T *sv = (T *) st->sv + st->b_state[b], *sq = (T *) st->sq + st->b_state[b];
              v = (T) RW_CPU_FN (rw_update_fv_branches) (st->b_K[b], (double) st->b_area[b],
                                                         (double) p[i], (double) sum_in,
                                                         (double) save[b - b0], st->beta_f64[s],
                                                         st->surf_M[s],
                                                         st->coef_f64 + 4 * st->surf_coef[s], sv,
                                                         sq, 1);
            }
          q[i] = v;
          acc += v;
        }
      break;
    case RW_BOUNDARY_LRS:
      for (size_t b = b0; b < b1; b++)
        {
          size_t i = b_index[b];
          const T nbr[6] = { p[i - 1], p[i + 1], p[i - nx], p[i + nx], p[i - nxy], p[i + nxy] };
          T v = RW_CPU_FN (rw_update_lrs) (st->b_mask[b], p[i], nbr, save[b - b0],
                                           beta[st->b_surf[b]]);
          q[i] = v;
          acc += v;
        }
      break;
    case RW_BOUNDARY_SAVIOJA:
      for (size_t b = b0; b < b1; b++)
        {
          size_t i = b_index[b];
          const T nbr[6] = { p[i - 1], p[i + 1], p[i - nx], p[i + nx], p[i - nxy], p[i + nxy] };
          T v = RW_CPU_FN (rw_update_savioja) (st->b_mask[b], nbr, save[b - b0],
                                               R[st->b_surf[b]]);
          q[i] = v;
          acc += v;
        }
      break;
    }
  return acc;
}

/* The source sample of `step` into the new field f at the source's cells
 * on plane z (all of them: z == SIZE_MAX), weight w_i: soft adds
 * (T) (w_i · s), the product in double (the CUDA backend does the same, so
 * that fp64 agrees bit for bit; w = 1 adds (T) s); hard (one cell)
 * assigns (T) s. False when that makes a value non-finite. */
static bool
RW_CPU_FN (apply_source) (const CpuState *st, const RwSolverSetup *su, T *f, size_t step, size_t z)
{
  const double s = su->source_signal[step];
  bool ok = true;
  for (size_t i = 0; i < rw_solver_source_n (su); i++)
    {
      const size_t cell = rw_solver_source_cell (su, i);
      if (z != SIZE_MAX && cell / st->nxy != z)
        continue;
      /* its stored index (folded on an FCC grid) */
      const size_t c = cpu_store_index (st, cell);
      if (su->source_kind == RW_SOURCE_HARD)
        f[c] = (T) s;
      else
        f[c] += (T) (rw_solver_source_weight (su, i) * s);
      ok = ok && isfinite ((double) f[c]);
    }
  return ok;
}

/* Whether one of the source's cells lies on plane z. */
static bool
RW_CPU_FN (source_on_plane) (const RwSolverSetup *su, size_t z, size_t nxy)
{
  for (size_t i = 0; i < rw_solver_source_n (su); i++)
    if (rw_solver_source_cell (su, i) / nxy == z)
      return true;
  return false;
}

/* n steps. One step: every strip walks its planes (update_plane), then the
 * source, the receivers, and p and q swap.
 *
 * k = kpass > 1 steps per pass (temporal blocking): in phase
 * t every strip updates plane t − 2j to time n + 1 + j, for j = 0 … k − 1
 * (even j from p into q, odd j from q into p: the in-place two-array
 * scheme), and a barrier ends the phase. Step n + 1 + j at plane z reads
 * time n + j at planes z − 1 … z + 1 and its own time n − 1 + j; those
 * were finished one phase or more earlier, and step n + 3 + j, which
 * overwrites them, is four planes behind. So each cell is updated by the
 * same code from the same values as in k single steps (bit for bit), and
 * while the planes of the pass stay in the cache, p and q are read and
 * written once per pass: 16/k B per cell and step in fp32, not 12. After
 * the phase that finishes a step's plane of the source, the source goes in
 * (before the next step reads it), and the receivers on that plane are
 * read (before the step after next overwrites them). */
static bool
RW_CPU_FN (advance) (CpuState *st, size_t step0, size_t n, int kpass, double *rcv,
                     size_t stride, RwError *err)
{
  enum { KMAX = RW_CPU_MAX_STEPS_PER_PASS };
  const RwSolverSetup *su = &st->setup;
  const T *beta = (const T *) (sizeof (T) == sizeof (double) ? (void *) st->beta_f64
                                                             : (void *) st->beta_f32);
  const T *R = (const T *) (sizeof (T) == sizeof (double) ? (void *) st->R_f64
                                                          : (void *) st->R_f32);
  T *p = st->p, *q = st->q;
  double acc[KMAX] = { 0 };
  bool src_ok[KMAX];
  size_t bad_step = SIZE_MAX;
  bool bad_source = false;
  const size_t ny = st->ny;
  for (int j = 0; j < KMAX; j++)
    src_ok[j] = true;
  /* the pass needs the source's cells and every receiver on planes it
   * visits; otherwise single steps */
  for (size_t i = 0; i < rw_solver_source_n (su); i++)
    if (rw_solver_source_cell (su, i) / st->nxy < st->zmin
        || rw_solver_source_cell (su, i) / st->nxy >= st->zmax)
      kpass = 1;
  for (size_t r = 0; r < su->n_receivers; r++)
    if (su->receiver_cells[r] / st->nxy < st->zmin || su->receiver_cells[r] / st->nxy >= st->zmax)
      kpass = 1;

#pragma omp parallel num_threads (st->threads) shared (p, q, acc, src_ok, bad_step, bad_source)
  {
    T *save = (T *) st->save + (size_t) omp_get_thread_num () * (st->save_len + 1);
    for (size_t k = 0; k < n;)
      {
        /* p, q are shared: read them once the previous step's single
         * block has swapped them (the barrier below orders it). */
        const T *pk = p;
        T *qk = q;
        const size_t step = step0 + k;
        const int kk = n - k < (size_t) kpass ? (int) (n - k) : kpass;
        if (kk > 1)
          {
            T *const f[2] = { (T *) pk, qk };   /* f[0] holds even times, f[1] odd */
            for (size_t t = st->zmin; t < (size_t) st->zmax + 2 * (size_t) (kk - 1); t++)
              {
#pragma omp for schedule (dynamic, 1) reduction (+:acc[:KMAX])
                for (size_t s = 0; s < st->n_strips; s++)
                  {
                    const CpuStrip *sp = &st->strips[s];
                    for (int j = 0; j < kk; j++)
                      {
                        if (t < 2 * (size_t) j)
                          break;
                        const size_t z = t - 2 * (size_t) j;
                        if (z >= sp->zlo && z < sp->zhi)
                          acc[j] += (double) RW_CPU_FN (update_plane) (st, f[j & 1], f[(j + 1) & 1],
                                                                       sp->y0 + ny * z,
                                                                       sp->y1 + ny * z, save,
                                                                       beta, R);
                      }
                  }
                /* implicit barrier: plane t − 2j is at time n + 1 + j */
                bool event = false;
                for (int j = 0; j < kk && !event; j++)
                  {
                    event = t >= 2 * (size_t) j
                            && RW_CPU_FN (source_on_plane) (su, t - 2 * (size_t) j, st->nxy);
                    for (size_t r = 0; r < su->n_receivers && !event; r++)
                      event = t == su->receiver_cells[r] / st->nxy + 2 * (size_t) j;
                  }
                if (event)
                  {
#pragma omp single
                    for (int j = 0; j < kk; j++)
                      {
                        T *dst = f[(j + 1) & 1];
                        /* the source's cells on the plane just finished (a
                         * stencil may span up to 3 planes, each applied as
                         * its plane is done, before the next step reads it) */
                        if (t >= 2 * (size_t) j)
                          src_ok[j] = RW_CPU_FN (apply_source) (st, su, dst, step + (size_t) j,
                                                                t - 2 * (size_t) j)
                                      && src_ok[j];
                        for (size_t r = 0; r < su->n_receivers; r++)
                          if (t == su->receiver_cells[r] / st->nxy + 2 * (size_t) j)
                            rcv[r * stride + step + (size_t) j] = (double) dst[st->rcv_index[r]];
                      }
                  }
              }
#pragma omp single
            {
              /* the first step that went wrong, as single steps report it */
              for (int j = 0; j < kk && bad_step == SIZE_MAX; j++)
                if (!isfinite (acc[j]))
                  bad_step = step + (size_t) j;
                else if (!src_ok[j])
                  bad_step = step + (size_t) j, bad_source = true;
              for (int j = 0; j < KMAX; j++)
                acc[j] = 0.0, src_ok[j] = true;
              /* the last step wrote f[kk & 1]: it becomes p */
              p = f[kk & 1];
              q = f[(kk + 1) & 1];
            }
            k += (size_t) kk;
          }
        else
          {
#pragma omp for schedule (dynamic, 1) reduction (+:acc[:1])
            for (size_t s = 0; s < st->n_strips; s++)
              {
                const CpuStrip *sp = &st->strips[s];
                for (size_t z = sp->zlo; z < sp->zhi; z++)
                  acc[0] += (double) RW_CPU_FN (update_plane) (st, pk, qk, sp->y0 + ny * z,
                                                               sp->y1 + ny * z, save, beta, R);
              }
            /* implicit barrier: the whole field is at time step0+k+1 */
#pragma omp single
            {
              const bool ok = RW_CPU_FN (apply_source) (st, su, qk, step, SIZE_MAX);
              if (!isfinite (acc[0]))
                bad_step = step;
              else if (!ok)
                bad_step = step, bad_source = true;
              for (size_t r = 0; r < su->n_receivers; r++)
                rcv[r * stride + step] = (double) qk[st->rcv_index[r]];
              acc[0] = 0.0;
              p = qk;
              q = (T *) pk;
            }
            k++;
          }
        /* implicit barrier: every thread sees the swap and bad_step */
        if (bad_step != SIZE_MAX)
          break;
      }
  }
  st->p = p;
  st->q = q;
  if (bad_step != SIZE_MAX)
    {
      if (bad_source)
        return rw_fail (err, RW_ERROR_UNSTABLE,
                        _("The simulation became unstable at step %zu: the source signal "
                          "made the pressure at the source non-finite (sample %g)"),
                        bad_step, su->source_signal[bad_step]);
      return rw_fail (err, RW_ERROR_UNSTABLE,
                      _("The simulation became unstable at step %zu: the pressure field "
                        "holds non-finite values"), bad_step);
    }
  return true;
}

/* rw_field_energy's sum over the stored fields (out->energy: each plane
 * summed apart in double, so that the threads' order does not matter
 * beyond the plane partials) and the sum of p (out->sum, exact: no order
 * matters). One read of p and p⁻: about a step's memory traffic. */
/* The FCC field's part (rw_fcc_field_energy over the stored sites). */
static void
RW_CPU_FN (energy_fcc) (const CpuState *st, double *total_out, RwExactSum *sum_out)
{
  const T *p = st->p, *q = st->q;
  const uint8_t *K = st->g->K;
  const size_t nx = st->nx, ny = st->ny, nxf = st->row_len;
  const double w = 0.25 * RW_FCC_LAMBDA2;
  double total = 0.0;
  RwExactSum sum = { 0 };
  const size_t z_lo = cpu_energy_z0 (st), z_hi = cpu_energy_z1 (st);
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : total) reduction(exact : sum) \
  num_threads(st->threads)
  for (size_t z = z_lo; z < z_hi; z++)
    {
      double plane = 0.0;
      RwExactSum plane_sum = { 0 };
      for (size_t y = 0; y < ny; y++)
        {
          const size_t P = (y + z) & 1;
          for (size_t xf = 0; xf < nxf; xf++)
            {
              const size_t x = 2 * xf + P;
              if (x >= nx)
                continue;
              const size_t c = x + nx * (y + ny * z), i = xf + nxf * (y + ny * z);
              if (K[c] == 0)
                continue;
              const double pi = (double) p[i], qi = (double) q[i], d = pi - qi;
              plane += d * d;
              rw_exact_sum_add (&plane_sum, pi);
              /* a site is never on the outer layer: its neighbours are in the arrays */
              for (int e = 0; e < 6; e++)
                if (K[c + st->fcc_fwd_cubic[e]] != 0)
                  {
                    const size_t j = i + st->fcc_fwd[P][e];
                    plane += w * (pi - (double) p[j]) * (qi - (double) q[j]);
                  }
            }
        }
      total += plane;
      rw_exact_sum_merge (&sum, plane_sum);
    }
  /* the wall entries' part (rw-scheme-fcc.h, "Wall links") */
  for (size_t b = 0; b < st->n_bnd; b++)
    {
      const size_t i = st->b_index[b], r = i / nxf;
      if (!cpu_energy_owns (st, i))
        continue;
      const int P = (int) (((r % ny) + r / ny) & 1);
      for (int e = 0; e < st->w_n[b]; e++)
        {
          double mp, mq;
          const int n = RW_CPU_FN (wall_entry) (st, p, q, i, P,
                                                st->w_code[RW_FCC_WALL_MAX_ENTRIES * b + e], &mp, &mq);
          total += w * RW_FCC_WALL_W * ((double) p[i] - mp / n) * ((double) q[i] - mq / n);
        }
    }
  *total_out = total;
  *sum_out = sum;
}

static void
RW_CPU_FN (energy) (const CpuState *st, RwEnergyReading *out)
{
  const T *p = st->p, *q = st->q;
  const uint8_t *K = st->g->K;
  const size_t nx = st->nx, ny = st->ny, nxy = st->nxy;
  const double l2 = RW_LAMBDA2;
  double total = 0.0;
  RwExactSum sum = { 0 };
  const size_t z_lo = cpu_energy_z0 (st), z_hi = cpu_energy_z1 (st);
  if (st->fcc)
    RW_CPU_FN (energy_fcc) (st, &total, &sum);
  else
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : total) reduction(exact : sum) \
  num_threads(st->threads)
  for (size_t z = z_lo; z < z_hi; z++)
    {
      double plane = 0.0;
      RwExactSum plane_sum = { 0 };
      for (size_t y = 0; y < ny; y++)
        for (size_t x = 0; x < nx; x++)
          {
            const size_t i = x + nx * (y + ny * z);
            if (K[i] == 0)
              continue;
            const double pi = (double) p[i], qi = (double) q[i], d = pi - qi;
            plane += d * d;
            rw_exact_sum_add (&plane_sum, pi);
            const size_t nb[3] = { i + 1, i + nx, i + nxy };
            const bool ok[3] = { x + 1 < nx, y + 1 < ny, z + 1 < st->nz };
            for (int a = 0; a < 3; a++)
              if (ok[a] && K[nb[a]] != 0)
                plane += l2 * (pi - (double) p[nb[a]]) * (qi - (double) q[nb[a]]);
          }
      total += plane;
      rw_exact_sum_merge (&sum, plane_sum);
    }
  /* what the branches store: λ S Σ_m (D̂ v² + F̂ q²) per node (rw-scheme.h;
   * (λ/2) S Σ_m … on the FCC lattice, rw-scheme-fcc.h) */
  if (st->b_state != NULL)
    {
      const double l = st->fcc ? 0.5 * sqrt (RW_FCC_LAMBDA2) : 0.57735026918962576451;
      const T *sv = st->sv, *sq = st->sq;
      const double *en = st->en_f64;
      double stored = 0.0;
#pragma omp parallel for reduction(+ : stored) num_threads(st->threads)
      for (size_t b = 0; b < st->n_bnd; b++)
        {
          if (st->b_state[b] == UINT32_MAX || !cpu_energy_owns (st, st->b_index[b]))
            continue;
          const uint16_t s = st->b_surf[b];
          const size_t o = st->b_state[b], c = st->surf_coef[s];
          double e = 0.0;
          for (int m = 0; m < st->surf_M[s]; m++)
            {
              const double v = (double) sv[o + m], q = (double) sq[o + m];
              e += en[2 * (c + m)] * v * v + en[2 * (c + m) + 1] * q * q;
            }
          stored += l * (double) st->b_area[b] * e;
        }
      total += stored;
    }
  out->energy = total;
  out->sum = sum;
}

/* The value of grid cell (x, y, z) in the stored field a: 0 off the FCC
 * sites. */
static inline double
RW_CPU_FN (cell_value) (const CpuState *st, const T *a, size_t x, size_t y, size_t z)
{
  if (!st->fcc)
    return (double) a[x + st->nx * (y + st->ny * z)];
  return ((x + y + z) & 1) ? 0.0 : (double) a[rw_fcc_fold_index (st->row_len, st->ny, x, y, z)];
}

static void
RW_CPU_FN (read_field) (const CpuState *st, double *p, double *p_prev)
{
  const T *a = st->p, *b = st->q;
  if (st->fcc)
    {
      for (size_t z = 0, i = 0; z < st->nz; z++)
        for (size_t y = 0; y < st->ny; y++)
          for (size_t x = 0; x < st->nx; x++, i++)
            {
              if (p != NULL)
                p[i] = RW_CPU_FN (cell_value) (st, a, x, y, z);
              if (p_prev != NULL)
                p_prev[i] = RW_CPU_FN (cell_value) (st, b, x, y, z);
            }
      return;
    }
  for (size_t i = 0; i < st->n; i++)
    {
      if (p != NULL)
        p[i] = (double) a[i];
      if (p_prev != NULL)
        p_prev[i] = (double) b[i];
    }
}

static void
RW_CPU_FN (read_slice) (const CpuState *st, int axis, size_t index, float *out)
{
  const T *a = st->p;
  const size_t nx = st->nx, ny = st->ny, nz = st->nz;
  if (axis == 0)
    {
      for (size_t z = 0; z < nz; z++)
        for (size_t y = 0; y < ny; y++)
          out[y + ny * z] = (float) RW_CPU_FN (cell_value) (st, a, index, y, z);
    }
  else if (axis == 1)
    {
      for (size_t z = 0; z < nz; z++)
        for (size_t x = 0; x < nx; x++)
          out[x + nx * z] = (float) RW_CPU_FN (cell_value) (st, a, x, index, z);
    }
  else
    {
      for (size_t y = 0; y < ny; y++)
        for (size_t x = 0; x < nx; x++)
          out[x + nx * y] = (float) RW_CPU_FN (cell_value) (st, a, x, y, index);
    }
}

#undef T

#endif /* RW_CPU_T */
