/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-cuda-fcc-tables.c — the FCC path's host tables (rw-cuda-fcc-tables.h).
 * Three passes over the planes: the boundary sites of each plane counted
 * (their ranks follow), then each plane's kinds, nodes and wall entries
 * written at those ranks (the entries into RW_FCC_WALL_MAX_ENTRIES slots
 * a node), then the entries packed in node order — the tables one thread
 * gives, whatever the number of threads; then the wide air kernel's
 * blocks' z ranges and air words from the kinds. */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "rw-admittance.h"
#include "rw-cuda-fcc-tables.h"
#include "rw-cuda-items.h"
#include "rw-i18n.h"
#include "rw-scheme-fcc.h"

size_t
rw_cuda_fcc_pitch_round (size_t nx, size_t round)
{
  return (rw_fcc_row_len (nx) + round - 1) / round * round;
}

bool
rw_cuda_fcc_flat (size_t nx, size_t lane_w)
{
  return rw_cuda_fcc_rows_flat (rw_fcc_row_len (nx), rw_cuda_fcc_pitch_round (nx, 32), lane_w);
}

size_t
rw_cuda_fcc_lane (size_t elem)
{
  return elem == 8 ? 2 : 4;
}

size_t
rw_cuda_fcc_pitch (size_t nx, size_t elem)
{
  /* flat: the lanes' aligned loads; by rows: a 32-byte sector in fp32,
   * a 128-byte line otherwise (rw-cuda-fcc-tables.h says why) */
  const size_t round = rw_cuda_fcc_flat (nx, rw_cuda_fcc_lane (elem)) ? 4 : elem == 4 ? 8 : 32;
  return rw_cuda_fcc_pitch_round (nx, round);
}

void
rw_cuda_fcc_tb_ranges (const uint32_t *zr, size_t gbx, size_t gby, size_t rows, size_t ny,
                       size_t nz, size_t tile, size_t segs, uint32_t *out)
{
  const size_t tiles = (ny - 2 + tile - 1) / tile;
  for (size_t tl = 0; tl < tiles; tl++)
    {
      const size_t y0 = 1 + tile * tl, y1 = y0 + tile < ny - 1 ? y0 + tile : ny - 1;
      uint32_t z0 = UINT32_MAX, z1 = 0;
      for (size_t b = y0 / rows; b <= (y1 - 1) / rows && b < gby; b++)
        for (size_t s = 0; s < gbx; s++)
          {
            const uint32_t *r = zr + 2 * (s + gbx * b);
            if (r[0] < r[1])
              {
                z0 = r[0] < z0 ? r[0] : z0;
                z1 = r[1] > z1 ? r[1] : z1;
              }
          }
      z0 = z0 > 2 ? z0 : 2;
      z1 = z1 < nz - 2 ? z1 : (uint32_t) (nz - 2);
      for (size_t s = 0; s < segs; s++)
        {
          out[2 * (s + segs * tl)] = z0 < z1 ? z0 : 0;
          out[2 * (s + segs * tl) + 1] = z0 < z1 ? z1 : 0;
        }
    }
}

size_t
rw_cuda_fcc_boundary_grid (size_t entries, size_t n_nodes, int sms, bool f64)
{
  if (f64 || sms <= 0 || n_nodes == 0)
    return 0;
  const double per = (double) entries / ((double) sms * RW_FCC_BND_SPAN);
  if (per < 2.0)
    return 0;
  const double blocks = ceil ((double) n_nodes / (128.0 * per));
  return (size_t) (blocks > 2.0 * sms ? blocks : 2.0 * sms);
}

double
rw_cuda_fcc_device_bytes (size_t nx, size_t ny, size_t nz, size_t elem, size_t arith,
                          double n_boundary, double branches, size_t n_surfaces,
                          size_t n_receivers)
{
  const size_t pitch = rw_cuda_fcc_pitch (nx, elem);
  const double n = (double) pitch * (double) ny * (double) nz, plane = (double) pitch * (double) ny;
  /* rows' blocks (an upper bound for either layout) */
  const double blocks = (double) ((pitch + 31) / 32) * (double) ((ny + 1) / 2);
  /* two fields and a guard of three planes and a row each (rw_fcc_span),
   * the kinds, the air words (at most one a 32 entries), the blocks' z
   * ranges; per boundary site its record, branch states and wall entries;
   * per surface its admittance table; per receiver a chunk's samples */
  return 2 * (n + 3 * plane + RW_FCC_GUARD) * (double) elem + n + n / 8 + blocks * 8
         + n_boundary * ((double) sizeof (RwFccNode) + 2 * branches * (double) arith
                         + RW_FCC_WALL_MAX_ENTRIES * 2.0)
         + (double) (n_surfaces + 1) * (1 + 6 * RW_ADM_MAX_BRANCHES) * 8.0
         + (double) n_receivers * (RW_FCC_CHUNK + 1) * 8.0;
}

bool
rw_cuda_fcc_rows_flat (size_t row_len, size_t pitch, size_t lane_w)
{
  const size_t seg = 32 * lane_w, per_row = (pitch + seg - 1) / seg;
  return 4 * row_len < 3 * per_row * seg;
}

void
rw_cuda_fcc_rows (size_t ny, size_t pitch, size_t lane_w, size_t warps, bool flat,
                  RwFccRows *out)
{
  memset (out, 0, sizeof *out);
  out->flat = flat;
  out->lane_w = lane_w;
  out->warps = warps;
  out->pitch = pitch;
  const size_t seg = 32 * lane_w;
  for (int c = 0; c < 2; c++)
    {
      out->rows[c] = ny >= 3 + (size_t) c ? (ny - 3 - (size_t) c) / 2 + 1 : 0;
      out->seg[c] = (out->rows[c] * pitch + seg - 1) / seg;
    }
  out->n_seg = flat ? out->seg[0] : (pitch + seg - 1) / seg;
  out->blocks = flat ? (out->n_seg + warps - 1) / warps : 0;
}

void
rw_cuda_fcc_tables_clear (RwFccTables *t)
{
  free (t->kind);
  free (t->nodes);
  free (t->went);
  free (t->zr);
  free (t->first);
  free (t->air);
  free (t->zrf);
  free (t->wsite);
  free (t->wo);
  free (t->wfirst);
  free (t->wmin);
  memset (t, 0, sizeof *t);
}

/* The wall entries' outside sites (RwFccTables.wsite, wo, wfirst, wmin),
 * found by their folded index in a ring of four planes' slots: the nodes
 * come plane by plane, and a site o is named only by nodes within a
 * plane of its own, so the site that takes o's slot four planes on comes
 * after o's last entry (were it not, o would only be listed twice, and
 * test-cuda-fcc-tables finds no repeats). False when out of memory. No
 * sites (and true) where there are no entries, too many, or (not
 * expected) two entries that name one site with other members. */
static bool
rw_fcc_wall_sites (const RwGrid *g, size_t pitch, RwFccTables *t)
{
  static const int off[RW_FCC_N_NBR][3] = RW_FCC_NBR_OFFSETS;
  if (t->n_went == 0 || t->n_went >= UINT32_MAX)
    return true;
  const size_t cap = 4 * pitch * g->ny;
  unsigned long long *key = malloc (cap * sizeof *key);
  uint32_t *val = malloc (cap * sizeof *val);
  t->wsite = malloc (t->n_went * sizeof *t->wsite);
  t->wo = malloc (t->n_went * sizeof *t->wo);
  t->wfirst = malloc ((t->n_nodes + 1) * sizeof *t->wfirst);
  t->wmin = malloc ((t->n_nodes + 1) * sizeof *t->wmin);
  bool ok = key != NULL && val != NULL && t->wsite != NULL && t->wo != NULL && t->wfirst != NULL
            && t->wmin != NULL;
  bool same = true;
  size_t n = 0;
  if (ok)
    {
      memset (key, 0xff, cap * sizeof *key); /* no folded index is ~0 */
      t->wfirst[0] = 0;
      for (size_t b = 0; b < t->n_nodes && same; b++)
        {
          const RwFccNode *nd = &t->nodes[b];
          uint32_t lo = UINT32_MAX;
          for (unsigned e = 0; e < nd->nw; e++)
            {
              const unsigned code = t->went[nd->w + e], d = code >> 12;
              const int P = nd->P;
              const long long delta = (long long) rw_fcc_nbr_offset (off[d][0], P)
                                      + (long long) pitch * (off[d][1] + (long long) g->ny * off[d][2]);
              const unsigned long long o = (unsigned long long) ((long long) nd->i + delta);
              const uint16_t mask = (uint16_t) (code & 0xfffu);
              const uint8_t Po = (uint8_t) (P ^ ((off[d][1] + off[d][2]) & 1));
              const size_t h = (size_t) (o % cap);
              if (key[h] != o)
                {
                  key[h] = o, val[h] = (uint32_t) n;
                  t->wsite[n].o = o, t->wsite[n].mask = mask, t->wsite[n].Po = Po;
                  n++;
                }
              const uint32_t r = val[h];
              same = same && t->wsite[r].mask == mask && t->wsite[r].Po == Po;
              t->wo[nd->w + e] = r;
              lo = r < lo ? r : lo;
            }
          t->wfirst[b + 1] = (uint32_t) n;
          t->wmin[b] = lo;
        }
      t->wmin[t->n_nodes] = (uint32_t) n;
      for (size_t b = t->n_nodes; b-- > 0;)
        t->wmin[b] = t->wmin[b] < t->wmin[b + 1] ? t->wmin[b] : t->wmin[b + 1];
      t->n_wsite = n;
    }
  free (key);
  free (val);
  if (!ok || !same)
    {
      free (t->wsite), free (t->wo), free (t->wfirst), free (t->wmin);
      t->wsite = NULL, t->wo = NULL, t->wfirst = NULL, t->wmin = NULL;
      t->n_wsite = 0;
    }
  return ok;
}

bool
rw_cuda_fcc_tables (const RwGrid *g, size_t pitch, const int *surface_M, bool links,
                    bool sites, size_t cols, size_t rows, const RwFccRows *layout, int threads,
                    RwFccTables *out, RwError *err)
{
  memset (out, 0, sizeof *out);
  const int nt = threads > 0 ? threads : omp_get_max_threads ();
  const size_t gbx = cols > 0 && rows > 0 ? (pitch + cols - 1) / cols : 0;
  const size_t gby = cols > 0 && rows > 0 ? (g->ny + rows - 1) / rows : 0;
  const size_t n = pitch * g->ny * g->nz, n_blocks = gbx * gby;
  out->gbx = gbx, out->gby = gby;
  size_t *first = out->first = calloc (g->nz + 1, sizeof *first);
  out->kind = calloc (n + 1, 1);
  out->zr = calloc (2 * n_blocks + 2, sizeof *out->zr);
  if (first == NULL || out->kind == NULL || out->zr == NULL)
    goto oom;
  /* 1: the boundary sites of each plane, then their first ranks */
#pragma omp parallel for num_threads (nt) schedule (dynamic)
  for (size_t z = 0; z < g->nz; z++)
    {
      size_t c = 0;
      for (size_t y = 0; y < g->ny; y++)
        for (size_t x = (y + z) & 1; x < g->nx; x += 2)
          {
            const int K = g->K[rw_grid_index (g, x, y, z)];
            c += K > 0 && K < RW_FCC_N_NBR;
          }
      first[z + 1] = c;
    }
  for (size_t z = 0; z < g->nz; z++)
    first[z + 1] += first[z];
  out->n_nodes = first[g->nz];
  out->nodes = malloc ((out->n_nodes + 1) * sizeof *out->nodes);
  out->went = malloc ((RW_FCC_WALL_MAX_ENTRIES * out->n_nodes + 1) * sizeof *out->went);
  if (out->nodes == NULL || out->went == NULL)
    goto oom;
  /* 2: kinds, nodes and their entries, each in its node's slots */
#pragma omp parallel for num_threads (nt) schedule (dynamic)
  for (size_t z = 0; z < g->nz; z++)
    {
      size_t b = first[z];
      for (size_t y = 0; y < g->ny; y++)
        for (size_t x = (y + z) & 1; x < g->nx; x += 2)
          {
            const size_t gi = rw_grid_index (g, x, y, z);
            const int K = g->K[gi];
            if (K == 0)
              continue;
            const size_t i = rw_fcc_fold_index (pitch, g->ny, x, y, z);
            out->kind[i] = K == RW_FCC_N_NBR ? 1 : 2;
            if (K == RW_FCC_N_NBR)
              continue;
            const uint16_t s = g->surface[gi];
            RwFccNode nd;
            memset (&nd, 0, sizeof nd);
            nd.i = i;
            nd.S = (float) rw_grid_node_area (g, b, K);
            nd.surf = s < g->n_surfaces ? s : 0;
            nd.K = (uint8_t) K;
            nd.P = (uint8_t) ((y + z) & 1);
            nd.M = (uint8_t) (g->n_surfaces > 0 ? surface_M[nd.surf] : 0);
            if (links)
              {
                uint8_t count[RW_FCC_WALL_MAX_ENTRIES];
                size_t member[RW_FCC_WALL_MAX_MEMBERS];
                nd.nw = (uint8_t) rw_fcc_wall_entries (g, gi, count, member,
                                                       out->went + RW_FCC_WALL_MAX_ENTRIES * b);
              }
            out->nodes[b++] = nd;
          }
    }
  /* 3: the entries packed in node order (each moves down, never up) */
  for (size_t b = 0; b < out->n_nodes; b++)
    {
      RwFccNode *nd = &out->nodes[b];
      nd->w = (unsigned) out->n_went;
      memmove (out->went + out->n_went, out->went + RW_FCC_WALL_MAX_ENTRIES * b,
               nd->nw * sizeof *out->went);
      out->n_went += nd->nw;
    }
  if (sites && !rw_fcc_wall_sites (g, pitch, out))
    goto oom;
  /* the wide air kernel's rows by rows: each segment's air words (the
   * blocks' z ranges: zr below) */
  if (layout != NULL && !layout->flat)
    {
      const size_t seg = 32 * layout->lane_w, rows_all = g->ny * g->nz, n_seg = layout->n_seg;
      out->air = calloc (n_seg * rows_all + 1, sizeof *out->air);
      if (out->air == NULL)
        goto oom;
#pragma omp parallel for num_threads (nt) schedule (static)
      for (size_t r = 0; r < rows_all; r++)
        for (size_t s = 0; s < n_seg; s++)
          {
            uint32_t word = 0;
            for (unsigned l = 0; l < 32 && s * seg + (l + 1) * layout->lane_w <= pitch; l++)
              {
                const uint8_t *k = out->kind + r * pitch + s * seg + l * layout->lane_w;
                bool all = true;
                for (size_t j = 0; j < layout->lane_w; j++)
                  all = all && k[j] == 1;
                word |= (uint32_t) all << l;
              }
            out->air[s + n_seg * r] = word;
          }
    }
  /* flat: each block's z range, each segment's air words */
  if (layout != NULL && layout->flat)
    {
      const RwFccRows *L = layout;
      const size_t seg = 32 * L->lane_w, nblk = 2 * L->blocks, words = 2 * L->n_seg;
      out->zrf = calloc (2 * nblk + 4, sizeof *out->zrf);
      out->air = calloc (words * g->nz + 1, sizeof *out->air);
      if (out->zrf == NULL || out->air == NULL)
        goto oom;
#pragma omp parallel for num_threads (nt) schedule (dynamic)
      for (size_t k = 0; k < nblk; k++)
        {
          const size_t c = k / L->blocks, b = k % L->blocks, end = L->rows[c] * pitch;
          const size_t e0 = b * L->warps * seg, e1 = (b + 1) * L->warps * seg;
          uint32_t lo = 0, hi = 0;
          if (e0 < end)
            {
              const size_t y0 = 1 + c + 2 * (e0 / pitch),
                           y1 = 1 + c + 2 * (((e1 < end ? e1 : end) - 1) / pitch);
              rw_cuda_columns_zrange (g->zlo, g->zhi, g->nx, 0, g->nx, y0, y1 + 1, &lo, &hi);
            }
          out->zrf[2 * k] = lo < hi ? lo : 0;
          out->zrf[2 * k + 1] = lo < hi ? hi : 0;
        }
#pragma omp parallel for num_threads (nt) schedule (static)
      for (size_t z = 0; z < g->nz; z++)
        for (size_t w = 0; w < words; w++)
          {
            const size_t c = w / L->n_seg, s = w % L->n_seg, end = L->rows[c] * pitch;
            uint32_t word = 0;
            for (unsigned l = 0; l < 32; l++)
              {
                const size_t e = s * seg + l * L->lane_w;
                if (e >= end)
                  break;
                const uint8_t *k = out->kind + e % pitch
                                   + pitch * (1 + c + 2 * (e / pitch) + g->ny * z);
                bool all = true;
                for (size_t j = 0; j < L->lane_w; j++)
                  all = all && k[j] == 1;
                word |= (uint32_t) all << l;
              }
            out->air[w + words * z] = word;
          }
    }
  /* the blocks' z ranges: those of the cubic columns 2·xf and 2·xf + 1
   * of their folded columns */
#pragma omp parallel for num_threads (nt) schedule (dynamic)
  for (size_t k = 0; k < n_blocks; k++)
    {
      const size_t bx = k % gbx, by = k / gbx;
      const size_t x1 = 2 * (bx + 1) * cols, y1 = (by + 1) * rows;
      uint32_t lo, hi;
      rw_cuda_columns_zrange (g->zlo, g->zhi, g->nx, 2 * bx * cols, x1 < g->nx ? x1 : g->nx,
                              by * rows, y1 < g->ny ? y1 : g->ny, &lo, &hi);
      out->zr[2 * k] = lo < hi ? lo : 0;
      out->zr[2 * k + 1] = lo < hi ? hi : 0;
    }
  return true;
oom:
  rw_cuda_fcc_tables_clear (out);
  return rw_fail (err, RW_ERROR_MEMORY, _("out of host memory for the FCC grid's tables (%zu "
                                          "entries)"), n);
}
