/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-cuda-fcc-tables — the CUDA backend's FCC tables built on the host
 * (kernels/rw-cuda-fcc-tables.c), without a GPU, against a plain loop
 * over the grid written here from the tables' definition
 * (rw-cuda-fcc-tables.h), on an L-room and a sphere on the FCC lattice:
 *   - every folded entry's kind (0 no site or outside, 1 K = 12, 2
 *     boundary), padding past the row's sites 0;
 *   - the boundary sites in index order with their folded index, area
 *     (rw_grid_node_area of their rank), surface, K, parity, branches and
 *     wall entries (rw_fcc_wall_entries), packed in node order;
 *   - every block's z range (the union of its cubic columns'), each
 *     plane's first boundary site;
 *   - the wide kernel's rows, flat (each parity class's rows end to end)
 *     and by rows, and which suits a row: each class's rows and segments,
 *     the air words (a bit a lane of 4 entries: all interior sites) and every
 *     block's z range holding its rows';
 *   - the wall entries' outside sites: each entry's (its link's site, its
 *     members, its row's parity), each once, the nodes' ranges of them;
 *   - the same bytes with 1, 2 and 3 threads; no entries without links;
 *   - two steps a pass's planes a tile (rw_cuda_fcc_tb_ranges): every
 *     interior site of its rows on them, also under a ceiling sloped
 *     along y (seen failing in every room: a tile's last block of rows
 *     left out; its segments' last left out; a tile taken one row lower
 *     is no fault: an interior site's planes lie within the row below's,
 *     its neighbours at y − 1, z ± 1 being sites);
 *   - the air kernel's lanes by rows (rw_cuda_fcc_lane_entry): each on
 *     entries of its row, one past the row's end on the last active
 *     lane's (seen failing with such lanes left on their own entries);
 *   - the boundary kernel's grid beside the air kernel
 *     (rw_cuda_fcc_boundary_grid) for bench-fcc's rooms, against the
 *     ranges measured on an H200 (seen failing: a thread a site taken
 *     from one site a thread instead of two, the 30 m³ room's check; no
 *     floor of two blocks an SM, the 8 kHz hall's).
 */
#include <stdlib.h>
#include <string.h>

#include "rw-test.h"
#include "rw-scheme-fcc.h"
#include "rw-shapes.h"
#include "../kernels/rw-cuda-fcc-tables.h"

#define COLS 64
#define ROWS 8
#define LANE_W 4
#define WARPS 8

static int
cmp_ull (const void *a, const void *b)
{
  const unsigned long long x = *(const unsigned long long *) a, y = *(const unsigned long long *) b;
  return (x > y) - (x < y);
}

/* The tables as the definition says, one site at a time. */
static void
check_against_loop (const char *room, const RwGrid *g, size_t pitch, const int *M,
                    const RwFccTables *t, size_t gbx, size_t gby, const RwFccRows *L)
{
  const size_t n = pitch * g->ny * g->nz;
  size_t kind_bad = 0, b = 0, w = 0, node_bad = 0, went_bad = 0, wsite_bad = 0;
  static const int off[RW_FCC_N_NBR][3] = RW_FCC_NBR_OFFSETS;
  uint8_t *kind = calloc (n, 1);
  size_t *wmin_of = malloc ((t->n_nodes + 1) * sizeof *wmin_of);
  for (size_t k = 0; k <= t->n_nodes; k++)
    wmin_of[k] = SIZE_MAX;
  for (size_t z = 0; z < g->nz; z++)
    for (size_t y = 0; y < g->ny; y++)
      for (size_t x = 0; x < g->nx; x++)
        {
          if ((x + y + z) % 2 != 0)
            continue;
          const size_t gi = x + g->nx * (y + g->ny * z);
          const int K = g->K[gi];
          const size_t i = rw_fcc_fold_index (pitch, g->ny, x, y, z);
          kind[i] = K == 0 ? 0 : K == RW_FCC_N_NBR ? 1 : 2;
          if (K == 0 || K == RW_FCC_N_NBR)
            continue;
          uint8_t count[RW_FCC_WALL_MAX_ENTRIES];
          size_t member[RW_FCC_WALL_MAX_MEMBERS];
          uint16_t code[RW_FCC_WALL_MAX_ENTRIES];
          const int nw = rw_fcc_wall_entries (g, gi, count, member, code);
          const RwFccNode *nd = b < t->n_nodes ? &t->nodes[b] : NULL;
          const unsigned s = g->surface[gi] < g->n_surfaces ? g->surface[gi] : 0;
          if (nd == NULL || nd->i != i || nd->S != (float) rw_grid_node_area (g, b, K)
              || nd->surf != s || nd->K != K || nd->P != (y + z) % 2 || nd->M != M[s]
              || nd->nw != nw || nd->w != w)
            node_bad++;
          for (int e = 0; nd != NULL && e < nw && e < nd->nw; e++)
            {
              went_bad += nd->w + (size_t) e >= t->n_went || t->went[nd->w + e] != code[e];
              /* the entry's outside site o: the site at its link's
               * offset, its members and its row's parity */
              const int *d = off[code[e] >> 12];
              const size_t ox = x + d[0], oy = y + d[1], oz = z + d[2];
              const size_t r = t->wo ? t->wo[w + (size_t) e] : SIZE_MAX;
              const RwFccWallSite *ws = r < t->n_wsite ? &t->wsite[r] : NULL;
              wsite_bad += ws == NULL || ws->o != rw_fcc_fold_index (pitch, g->ny, ox, oy, oz)
                           || ws->mask != (code[e] & 0xfffu) || ws->Po != (oy + oz) % 2
                           || r >= t->wfirst[b + 1]; /* (wfirst is there where wo is) */
              wmin_of[b] = r < wmin_of[b] ? r : wmin_of[b];
            }
          w += (size_t) nw;
          b++;
        }
  for (size_t i = 0; i < n; i++)
    kind_bad += kind[i] != t->kind[i];
  size_t zr_bad = 0;
  for (size_t k = 0; k < gbx * gby; k++)
    {
      uint32_t lo = UINT32_MAX, hi = 0;
      for (size_t y = (k / gbx) * ROWS; y < (k / gbx + 1) * ROWS && y < g->ny; y++)
        for (size_t x = 2 * (k % gbx) * COLS; x < 2 * (k % gbx + 1) * COLS && x < g->nx; x++)
          for (size_t z = 0; z < g->nz; z++)
            if (g->K[x + g->nx * (y + g->ny * z)] > 0)
              {
                lo = z < lo ? (uint32_t) z : lo;
                hi = z + 1 > hi ? (uint32_t) z + 1 : hi;
              }
      zr_bad += lo < hi ? (t->zr[2 * k] != lo || t->zr[2 * k + 1] != hi)
                        : (t->zr[2 * k] != 0 || t->zr[2 * k + 1] != 0);
    }
  RW_CHECK (kind_bad == 0, "%s: %zu of %zu kinds as defined", room, n - kind_bad, n);
  RW_CHECK (t->n_nodes == b && node_bad == 0, "%s: %zu boundary sites (%zu listed), %zu differ",
            room, b, t->n_nodes, node_bad);
  RW_CHECK (t->n_went == w && went_bad == 0 && w > 0, "%s: %zu wall entries (%zu listed), %zu differ",
            room, w, t->n_went, went_bad);
  RW_CHECK (zr_bad == 0, "%s: %zu of %zu blocks' z ranges differ", room, zr_bad, gbx * gby);
  /* the outside sites: each entry's as decoded above, named first by its
   * node or one before it; each site once; nodes [b0, b1) name sites in
   * [wmin[b0], wfirst[b1]) */
  size_t dup = 0, range_bad = 0, low = t->n_wsite;
  unsigned long long *os = malloc ((t->n_wsite + 1) * sizeof *os);
  for (size_t r = 0; r < t->n_wsite; r++)
    os[r] = t->wsite[r].o;
  qsort (os, t->n_wsite, sizeof *os, cmp_ull);
  for (size_t r = 1; r < t->n_wsite; r++)
    dup += os[r] == os[r - 1];
  free (os);
  for (size_t k = t->n_nodes + 1; t->wmin != NULL && k-- > 0;)
    {
      low = wmin_of[k] < low ? wmin_of[k] : low;
      range_bad += t->wmin[k] != low || (k > 0 && t->wfirst[k] < t->wfirst[k - 1]);
    }
  RW_CHECK (wsite_bad == 0 && dup == 0 && range_bad == 0 && t->n_wsite > 0 && t->wmin != NULL
              && t->wfirst[t->n_nodes] == t->n_wsite,
            "%s: %zu outside sites of wall entries, each entry's as decoded (%zu differ), each "
            "once (%zu repeats), the nodes' ranges (%zu differ)", room, t->n_wsite, wsite_bad,
            dup, range_bad);
  free (wmin_of);
  /* the wide kernel's rows: each class's rows listed one by one, their
   * entries end to end, cut into segments of 32 lanes of LANE_W */
  size_t air_bad = 0, air_set = 0, zrf_bad = 0, rows_bad = 0;
  for (size_t c = 0; c < 2; c++)
    {
      size_t *ys = calloc (g->ny, sizeof *ys), nr = 0;
      for (size_t y = 1; y + 1 < g->ny; y++)
        if (y % 2 == (1 + c) % 2)
          ys[nr++] = y;
      const size_t end = nr * pitch, seg = 32 * LANE_W;
      rows_bad += L->rows[c] != nr || L->seg[c] != (end + seg - 1) / seg;
      for (size_t z = 0; z < g->nz && rows_bad == 0; z++)
        for (size_t e = 0; e < L->n_seg * seg; e += LANE_W)
          {
            bool all = e < end;
            for (size_t j = e; all && j < e + LANE_W; j++)
              all = kind[j % pitch + pitch * (ys[j / pitch] + g->ny * z)] == 1;
            const unsigned bit = (t->air[c * L->n_seg + e / seg + 2 * L->n_seg * z]
                                  >> (e % seg / LANE_W)) & 1u;
            air_bad += bit != (unsigned) all;
            air_set += bit;
          }
      for (size_t b = 0; b < L->blocks && rows_bad == 0; b++)
        {
          uint32_t lo = UINT32_MAX, hi = 0;
          for (size_t e = b * L->warps * seg; e < (b + 1) * L->warps * seg && e < end; e++)
            for (size_t y = ys[e / pitch], x = 0; x < g->nx; x++)
              for (size_t z = 0; z < g->nz; z++)
                if (g->K[x + g->nx * (y + g->ny * z)] > 0)
                  {
                    lo = z < lo ? (uint32_t) z : lo;
                    hi = z + 1 > hi ? (uint32_t) z + 1 : hi;
                  }
          const uint32_t *r = &t->zrf[2 * (c * L->blocks + b)];
          /* the rows between (the other class's) may widen it, never narrow it */
          zrf_bad += lo < hi ? (r[0] > lo || r[1] < hi) : (r[0] != 0 || r[1] != 0);
        }
      free (ys);
    }
  RW_CHECK (rows_bad == 0, "%s: the two classes' rows and segments as counted", room);
  RW_CHECK (air_bad == 0 && air_set > 0, "%s: the air words as defined (%zu lanes all interior, "
            "%zu bits differ)", room, air_set, air_bad);
  RW_CHECK (zrf_bad == 0, "%s: every wide block's z range holds its rows' (%zu do not)", room,
            zrf_bad);
  /* each plane's first node: the boundary sites on the planes below it */
  size_t first_bad = 0;
  for (size_t z = 0; z <= g->nz; z++)
    {
      size_t below = 0;
      for (size_t k = 0; k < t->n_nodes; k++)
        below += t->nodes[k].i < z * pitch * g->ny;
      first_bad += t->first[z] != below;
    }
  RW_CHECK (first_bad == 0, "%s: %zu of %zu planes' first nodes differ", room, first_bad,
            g->nz + 1);
  free (kind);
}

/* The air words of the layout by rows: bit l of segment s of a row, lane
 * l's LANE_W entries all kind 1 within the row; no flat blocks. */
static void
check_by_rows (const char *room, const RwGrid *g, size_t pitch, const RwFccTables *t,
               const RwFccRows *L)
{
  size_t air_bad = 0, air_set = 0;
  const size_t seg = 32 * LANE_W, n_seg = (pitch + seg - 1) / seg;
  RW_CHECK (L->n_seg == n_seg && !L->flat && t->zrf == NULL,
            "%s: by rows, %zu segments a row of %zu (%zu)", room, n_seg, pitch, L->n_seg);
  for (size_t r = 0; L->n_seg == n_seg && r < g->ny * g->nz; r++)
    for (size_t e = 0; e < n_seg * seg; e += LANE_W)
      {
        bool all = e + LANE_W <= pitch;
        for (size_t j = e; all && j < e + LANE_W; j++)
          all = t->kind[r * pitch + j] == 1;
        const unsigned bit = (t->air[e / seg + n_seg * r] >> (e % seg / LANE_W)) & 1u;
        air_bad += bit != (unsigned) all;
        air_set += bit;
      }
  RW_CHECK (air_bad == 0 && air_set > 0, "%s: by rows, the air words as defined (%zu lanes all "
            "interior, %zu bits differ)", room, air_set, air_bad);
}

/* Two steps a pass's planes (rw_cuda_fcc_tb_ranges): every interior
 * site of a tile's own rows on a plane of its range, the range within
 * [2, nz − 2), the same for each segment; a tile without interior sites
 * may keep a range (its blocks' boundary sites), none is asked of it. */
static void
check_tb_ranges (const char *room, const RwGrid *g, size_t pitch, const RwFccTables *t,
                 size_t gbx, size_t gby)
{
  const size_t tile = RW_FCC_TB_BY - 2, tiles = (g->ny - 2 + tile - 1) / tile, segs = 3;
  uint32_t *r = malloc (2 * segs * tiles * sizeof *r);
  rw_cuda_fcc_tb_ranges (t->zr, gbx, gby, ROWS, g->ny, g->nz, tile, segs, r);
  size_t outside = 0, interior = 0, uneven = 0, bounds = 0, empty = 0;
  for (size_t tl = 0; tl < tiles; tl++)
    {
      const uint32_t z0 = r[2 * segs * tl], z1 = r[2 * segs * tl + 1];
      for (size_t sg = 1; sg < segs; sg++)
        uneven += r[2 * (sg + segs * tl)] != z0 || r[2 * (sg + segs * tl) + 1] != z1;
      bounds += z0 < z1 ? (z0 < 2 || z1 > g->nz - 2) : (z0 != 0 || z1 != 0);
      empty += z0 >= z1;
      const size_t y0 = 1 + tile * tl, y1 = y0 + tile < g->ny - 1 ? y0 + tile : g->ny - 1;
      for (size_t z = 0; z < g->nz; z++)
        for (size_t y = y0; y < y1; y++)
          for (size_t e = 0; e < pitch; e++)
            if (t->kind[e + pitch * (y + g->ny * z)] == 1)
              {
                interior++;
                outside += z < z0 || z >= z1;
              }
    }
  RW_CHECK (outside == 0 && interior > 0 && uneven == 0 && bounds == 0 && empty < tiles,
            "%s: two steps a pass: %zu of %zu interior sites outside their tile's planes "
            "(%zu tiles of %zu rows, %zu empty), %zu ranges uneven, %zu out of [2, nz - 2)", room,
            outside, interior, tiles, tile, empty, uneven, bounds);
  free (r);
}

static void
check_room (const char *room, RwMesh *mesh, double h, size_t round)
{
  RwError err = { 0 };
  RwGrid *g = mesh ? rw_voxelise_fcc (mesh, h, 1, &err) : NULL;
  rw_mesh_free (mesh);
  RW_CHECK (g != NULL, "%s voxelised: %s", room, g ? "yes" : err.message);
  if (g == NULL)
    return;
  const size_t pitch = rw_cuda_fcc_pitch_round (g->nx, round);
  RW_CHECK (pitch % 4 == 0 && pitch >= rw_fcc_row_len (g->nx) && pitch < rw_fcc_row_len (g->nx) + round,
            "%s: rows of %zu sites in %zu entries (rounded to %zu)", room, rw_fcc_row_len (g->nx),
            pitch, round);
  const size_t gbx = (pitch + COLS - 1) / COLS, gby = (g->ny + ROWS - 1) / ROWS;
  int *M = calloc (g->n_surfaces + 1, sizeof (int));
  for (size_t s = 0; s < g->n_surfaces; s++)
    M[s] = (int) (s % 3) * 2;   /* 0, 2 and 4 branches */
  RwFccRows layout;
  rw_cuda_fcc_rows (g->ny, pitch, LANE_W, WARPS, true, &layout);
  RwFccTables t[3];
  for (int k = 0; k < 3; k++)
    RW_CHECK (rw_cuda_fcc_tables (g, pitch, M, true, true, COLS, ROWS, &layout, k + 1, &t[k], &err),
              "%s: tables on %d threads: %s", room, k + 1, err.message);
  RW_CHECK (t[0].gbx == gbx && t[0].gby == gby, "%s: the tables' blocks %zu × %zu, not %zu × %zu",
            room, t[0].gbx, t[0].gby, gbx, gby);
  check_against_loop (room, g, pitch, M, &t[0], gbx, gby, &layout);
  check_tb_ranges (room, g, pitch, &t[0], gbx, gby);
  for (int k = 1; k < 3; k++)
    RW_CHECK (t[k].n_nodes == t[0].n_nodes && t[k].n_went == t[0].n_went
                && memcmp (t[k].kind, t[0].kind, pitch * g->ny * g->nz) == 0
                && memcmp (t[k].nodes, t[0].nodes, t[0].n_nodes * sizeof (RwFccNode)) == 0
                && memcmp (t[k].went, t[0].went, t[0].n_went * sizeof (uint16_t)) == 0
                && memcmp (t[k].zr, t[0].zr, 2 * gbx * gby * sizeof (uint32_t)) == 0
                && memcmp (t[k].air, t[0].air, 2 * layout.n_seg * g->nz * sizeof (uint32_t)) == 0
                && memcmp (t[k].zrf, t[0].zrf, 4 * layout.blocks * sizeof (uint32_t)) == 0,
              "%s: %d threads give one thread's tables byte for byte", room, k + 1);
  /* the layout by rows: a warp a segment of a row */
  RwFccRows by_rows;
  rw_cuda_fcc_rows (g->ny, pitch, LANE_W, WARPS, false, &by_rows);
  RwFccTables tr;
  RW_CHECK (rw_cuda_fcc_tables (g, pitch, M, true, false, COLS, ROWS, &by_rows, 2, &tr, &err),
            "%s: tables by rows", room);
  check_by_rows (room, g, pitch, &tr, &by_rows);
  RW_CHECK (tr.wsite == NULL && tr.wo == NULL && tr.n_went == t[0].n_went,
            "%s: the wall entries without their outside sites where not asked for", room);
  rw_cuda_fcc_tables_clear (&tr);
  RwFccTables none;
  RW_CHECK (rw_cuda_fcc_tables (g, pitch, M, false, true, COLS, ROWS, NULL, 2, &none, &err),
            "%s: tables without links", room);
  size_t nw = 0;
  for (size_t b = 0; b < none.n_nodes; b++)
    nw += none.nodes[b].nw;
  RW_CHECK (none.n_went == 0 && nw == 0 && none.n_nodes == t[0].n_nodes && none.air == NULL
              && none.wsite == NULL && none.n_wsite == 0 && none.zrf == NULL,
            "%s: without links no wall entries (%zu), the same %zu boundary sites; lane width 0 "
            "no air words", room, none.n_went, none.n_nodes);
  rw_cuda_fcc_tables_clear (&none);
  for (int k = 0; k < 3; k++)
    rw_cuda_fcc_tables_clear (&t[k]);
  free (M);
  rw_grid_free (g);
}

/* m with x and y swapped (each triangle's order turned, so that it keeps
 * its outward side): a room whose height changes along y, so that rows
 * y differ in their planes. */
static RwMesh *
swap_xy (RwMesh *m)
{
  for (size_t v = 0; m != NULL && v < m->n_vertices; v++)
    {
      const double x = m->xyz[3 * v];
      m->xyz[3 * v] = m->xyz[3 * v + 1];
      m->xyz[3 * v + 1] = x;
    }
  for (size_t t = 0; m != NULL && t < m->n_triangles; t++)
    {
      const uint32_t a = m->tri[3 * t + 1];
      m->tri[3 * t + 1] = m->tri[3 * t + 2];
      m->tri[3 * t + 2] = a;
    }
  return m;
}

int
main (void)
{
  /* the flat layout where warps by rows would leave over a quarter of
   * their lanes without a site: the 30 m³ room at 4 kHz (134 sites a row
   * of 160 entries: two warps of 128), not the 1000 m³ hall (419 of 448,
   * 848 of 864) */
  RW_CHECK (rw_cuda_fcc_rows_flat (134, 160, 4) && rw_cuda_fcc_rows_flat (134, 136, 4)
              && !rw_cuda_fcc_rows_flat (419, 448, 4) && !rw_cuda_fcc_rows_flat (419, 420, 4)
              && !rw_cuda_fcc_rows_flat (848, 864, 4) && rw_cuda_fcc_rows_flat (20, 32, 4)
              && !rw_cuda_fcc_rows_flat (60, 64, 2),
            "the flat layout for narrow rows only");
  /* rows rounded to 4 entries where laid flat (the 30 m³ room: 134
   * sites, also in fp64's lanes of 2), to 32 by rows (the hall: 419 and
   * 848 sites) */
  RW_CHECK (rw_cuda_fcc_flat (267, 4) && rw_cuda_fcc_flat (267, 2) && !rw_cuda_fcc_flat (837, 4)
              && !rw_cuda_fcc_flat (1695, 4),
            "the default layout: flat for the 30 m³ room's rows, by rows for the hall's");
  RW_CHECK (rw_cuda_fcc_pitch (267, 4) == 136 && rw_cuda_fcc_pitch (267, 8) == 136
              && rw_cuda_fcc_pitch (267, 2) == 136 && rw_cuda_fcc_pitch (837, 2) == 448
              && rw_cuda_fcc_pitch (837, 8) == 448 && rw_cuda_fcc_pitch (1695, 2) == 864,
            "rows rounded to 4 flat, to 32 by rows: %zu %zu %zu", rw_cuda_fcc_pitch (267, 4),
            rw_cuda_fcc_pitch (837, 2), rw_cuda_fcc_pitch (1695, 2));
  /* fp32 by rows: a 32-byte sector, 8 entries */
  RW_CHECK (rw_cuda_fcc_pitch (837, 4) == 424 && rw_cuda_fcc_pitch (1695, 4) == 848
              && rw_cuda_fcc_pitch (491, 4) == 248,
            "fp32 rows by rows rounded to 8: %zu %zu %zu", rw_cuda_fcc_pitch (837, 4),
            rw_cuda_fcc_pitch (1695, 4), rw_cuda_fcc_pitch (491, 4));
  /* the wide air kernel's lanes by rows (rw_cuda_fcc_lane_entry): each
   * on its own entries within the row, a lane past the row's end on the
   * row's last ones, which its warp's last active lane loads, so that no
   * lane asks for a sector of the next row, and only those inactive
   * (the hall at 4 kHz in fp32 and fp16, the 200 m³ room, fp64's lanes
   * of 2, a row of 136 entries; seen failing with the lanes past the end
   * left on their own entries) */
  {
    static const unsigned rows[][2] = { { 424, 4 }, { 448, 4 }, { 248, 4 }, { 448, 2 }, { 136, 4 } };
    size_t bad = 0, past = 0;
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++)
      {
        const unsigned pitch = rows[r][0], w = rows[r][1], n_seg = (pitch + 32 * w - 1) / (32 * w);
        for (unsigned s = 0; s < n_seg; s++)
          for (unsigned l = 0; l < 32; l++)
            {
              bool active = false;
              const unsigned own = (32 * s + l) * w;
              const unsigned e = rw_cuda_fcc_lane_entry (s, l, pitch, w, &active);
              const unsigned last = pitch - w; /* the last active lane's, of segment s */
              past += own >= pitch;
              bad += e % w != 0 || e + w > pitch || active != (own < pitch)
                     || (own < pitch ? e != own : (e != last || last < 32 * s * w));
            }
      }
    RW_CHECK (bad == 0 && past == 22 + 16 + 2 + 0 + 30,
              "the air kernel's lanes within their rows (%zu of them differ; %zu past the ends)",
              bad, past);
  }
  /* the boundary kernel's grid beside the air kernel, 132 SMs (an H200),
   * for the rooms of bench-fcc at their entries (the pitch above) and
   * boundary sites (rw_cuda_fcc_tables): within the hall's measured
   * plateau (198 to 396 blocks gave the same), two blocks an SM at 8 kHz
   * (at 150 it was slower), a thread a site in the 30 m³ room (any cut
   * cost there) and in fp64 (docs/PERFORMANCE.md) */
  {
    const size_t hall = rw_cuda_fcc_boundary_grid (158433408, 1349314, 132, false),
                 r200 = rw_cuda_fcc_boundary_grid (31150080, 460624, 132, false),
                 hall8 = rw_cuda_fcc_boundary_grid (1218299616, 5405645, 132, false),
                 r30 = rw_cuda_fcc_boundary_grid (4557696, 129096, 132, false),
                 h64 = rw_cuda_fcc_boundary_grid (158433408, 1349314, 132, true),
                 none = rw_cuda_fcc_boundary_grid (158433408, 1349314, 0, false);
    RW_CHECK (hall == 288 && hall >= 198 && hall <= 396, "the hall at 4 kHz: %zu blocks", hall);
    RW_CHECK (r200 == 500, "the 200 m³ room: %zu blocks", r200);
    RW_CHECK (hall8 == 264, "the hall at 8 kHz: %zu blocks, not two an SM", hall8);
    RW_CHECK (r30 == 0, "the 30 m³ room: %zu blocks, not a thread a site", r30);
    RW_CHECK (h64 == 0 && none == 0, "fp64 %zu, no SMs %zu: not a thread a site", h64, none);
  }
  /* the tables at either rounding (rows of 4: segments of a row cut short
   * by its end, flat rows that are no multiple of a warp's 128 entries) */
  check_room ("L-room", rw_shape_lroom (3.1, 2.3, 2.05, 1.9, 1.4), 0.07, 4);
  check_room ("sphere", rw_shape_sphere (1.2, 3), 0.06, 4);
  check_room ("L-room, rows of 32", rw_shape_lroom (3.1, 2.3, 2.05, 1.9, 1.4), 0.07, 32);
  /* a ceiling sloped along y (1.2 m to 7 m, two planes a row): tiles
   * whose planes differ, as under the hall's raked floor and ceiling */
  check_room ("ceiling sloped along y", swap_xy (rw_shape_sloped_ceiling (2.9, 1.7, 1.2, 63.4)),
              0.07, 32);
  return rw_test_finish ();
}
