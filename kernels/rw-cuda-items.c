/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-cuda-items.c — the CUDA backend's work lists and cell packing, host
 * code in plain C (rw-cuda-items.h). */
#include <stdlib.h>
#include <string.h>

#include "rw-admittance.h"
#include "rw-cuda-items.h"
#include "rw-i18n.h"
#include "rw-scheme.h"

#define RW_TAIL_WAVES 4         /* single steps: waves of items at the end cut into quarters */
#define RW_TB_TAIL_WAVES 2      /* two-step passes: the same */

static size_t
rw_min_z (size_t a, size_t b)
{
  return a < b ? a : b;
}

static int
rw_min_i (int a, int b)
{
  return a < b ? a : b;
}

static int
rw_max_i (int a, int b)
{
  return a > b ? a : b;
}

void
rw_cuda_items_clear (RwCudaItems *items)
{
  free (items->v);
  items->v = NULL;
  items->n = 0;
}

static bool
rw_items_alloc (RwCudaItems *out, size_t cap, RwError *err)
{
  out->n = 0;
  out->v = malloc ((cap > 0 ? cap : 1) * sizeof *out->v);
  if (out->v == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("out of memory for %zu work items"), cap);
  return true;
}

void
rw_cuda_columns_zrange (const uint32_t *zlo, const uint32_t *zhi, size_t pitch, size_t x0,
                        size_t x1, size_t y0, size_t y1, uint32_t *lo, uint32_t *hi)
{
  *lo = UINT32_MAX;
  *hi = 0;
  for (size_t y = y0; y < y1; y++)
    for (size_t x = x0; x < x1; x++)
      {
        const size_t c = x + pitch * y;
        if (zlo[c] < zhi[c])
          {
            *lo = zlo[c] < *lo ? zlo[c] : *lo;
            *hi = zhi[c] > *hi ? zhi[c] : *hi;
          }
      }
}

bool
rw_cuda_tiles (const uint32_t *zlo, const uint32_t *zhi, size_t pitch, size_t ny, int bx, int by,
               RwCudaItems *out, RwError *err)
{
  const size_t tx = (pitch + (size_t) bx - 1) / (size_t) bx;
  const size_t ty = (ny + (size_t) by - 1) / (size_t) by;
  if (!rw_items_alloc (out, tx * ty, err))
    return false;
  for (size_t j = 0; j < ty; j++)
    for (size_t i = 0; i < tx; i++)
      {
        uint32_t lo, hi;
        rw_cuda_columns_zrange (zlo, zhi, pitch, i * (size_t) bx,
                                rw_min_z (pitch, (i + 1) * (size_t) bx), j * (size_t) by,
                                rw_min_z (ny, (j + 1) * (size_t) by), &lo, &hi);
        if (lo < hi)
          out->v[out->n++] = (RwCudaItem) { (int) (i * (size_t) bx), (int) (j * (size_t) by),
                                            (int) lo, (int) hi };
      }
  return true;
}

/* The slabs [ka, kb] a tile's range t is cut into: piece k covers
 * [k·slab, (k + 1)·slab) clipped to [t.z, t.w); a first or last piece
 * shorter than a quarter slab joins its neighbour. */
static void
rw_tile_slabs (RwCudaItem t, int slab, int *ka, int *kb)
{
  const int min_len = rw_max_i (1, slab / 4);
  *ka = t.z / slab;
  *kb = (t.w - 1) / slab;
  if (*kb > *ka && rw_min_i (t.w, (*ka + 1) * slab) - t.z < min_len)
    (*ka)++;
  if (*kb > *ka && t.w - *kb * slab < min_len)
    (*kb)--;
}

/* Work items in slabs: every tile's z range is cut at the multiples of a
 * slab height, the same planes for every tile, and the items go out slab
 * by slab (tiles in row order within a slab). Blocks start in list order,
 * so the blocks resident at once work on neighbouring tiles at the same
 * heights: the rows and columns a tile reads around itself (y ± 1, the x
 * ends, the rings of the two-step passes) were just read by the tile that
 * owns them and are L2 hits. Cut relative to each tile's own range, as
 * before, neighbouring chunks sat at different heights under the raked
 * floor and sloped ceiling, and ncu counted the fp16 halo reads as DRAM
 * traffic: 7.2 B per update instead of 6. The thinner the slab, the closer
 * the neighbours; a piece at a range's end shorter than a quarter slab
 * joins the piece next to it (a restart costs a few planes of reads).
 * Measured on the hall (H100, docs/GPU.md): fp16 single steps 313.0 →
 * 358.4 Gvox/s at 4 planes (8: 352.2, 16: 339.1, 32: 330.8), fp32 single
 * steps 195.0 → 213.7 at 8 (16: 209.4, 32: 204.1), fp64 100.9 → 108.6 at
 * 32 (16: 108.1, 8: 105.2), the fp32 passes 221.9 → 232.8 at 40 (32:
 * 232.0, 48: 231.6, 64: 230.5, 80: 229.4, 128: 223.8). */
bool
rw_cuda_slab_items (const RwCudaItems *tiles, int slab, RwCudaItems *out, RwError *err)
{
  /* pass 1: the items of each slab; pass 2: each item at its slab's next place */
  int n_slabs = 0;
  for (size_t t = 0; t < tiles->n; t++)
    n_slabs = rw_max_i (n_slabs, (tiles->v[t].w - 1) / slab + 1);
  size_t *at = calloc ((size_t) n_slabs + 1, sizeof *at);
  if (at == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("out of memory for %zu work items"), tiles->n);
  size_t total = 0;
  for (size_t t = 0; t < tiles->n; t++)
    {
      int ka, kb;
      rw_tile_slabs (tiles->v[t], slab, &ka, &kb);
      for (int k = ka; k <= kb; k++)
        at[k + 1]++, total++;
    }
  for (int k = 0; k < n_slabs; k++)
    at[k + 1] += at[k];
  if (!rw_items_alloc (out, total, err))
    {
      free (at);
      return false;
    }
  for (size_t i = 0; i < tiles->n; i++)
    {
      const RwCudaItem t = tiles->v[i];
      int ka, kb;
      rw_tile_slabs (t, slab, &ka, &kb);
      for (int k = ka; k <= kb; k++)
        out->v[at[k]++] = (RwCudaItem) { t.x, t.y, k == ka ? t.z : k * slab,
                                         k == kb ? t.w : (k + 1) * slab };
    }
  out->n = total;
  free (at);
  return true;
}

/* The last `waves` × resident_blocks items cut into up to four pieces of
 * at least min_len planes each: blocks start in list order, and a pass or
 * step that ends with a few long items leaves the GPU idle (7.02 waves of
 * equal items take as long as 8). */
bool
rw_cuda_quarter_tail (const RwCudaItems *items, size_t waves, int resident_blocks, int min_len,
                      RwCudaItems *out, RwError *err)
{
  const size_t tail = rw_min_z (items->n, waves * (size_t) rw_max_i (resident_blocks, 1));
  if (!rw_items_alloc (out, items->n + 3 * tail, err))
    return false;
  memcpy (out->v, items->v, (items->n - tail) * sizeof *items->v);
  out->n = items->n - tail;
  for (size_t k = items->n - tail; k < items->n; k++)
    {
      const RwCudaItem t = items->v[k];
      const int len = t.w - t.z, n = rw_max_i (1, rw_min_i (4, len / min_len));
      for (int c = 0; c < n; c++)
        out->v[out->n++] = (RwCudaItem) { t.x, t.y, t.z + len * c / n, t.z + len * (c + 1) / n };
    }
  return true;
}

/* Measured on the hall: see rw_cuda_slab_items. */
int
rw_cuda_slab_planes (size_t elem)
{
  return elem == 2 ? 4 : elem == 4 ? 8 : 32;
}

/* tiles → slabs → quarter tail */
static bool
rw_items_of_tiles (const uint32_t *zlo, const uint32_t *zhi, size_t pitch, size_t ny, int bx,
                   int by, int slab, size_t waves, int resident_blocks, int min_len,
                   RwCudaItems *out, RwError *err)
{
  RwCudaItems tiles = { 0 }, slabs = { 0 };
  const bool ok = rw_cuda_tiles (zlo, zhi, pitch, ny, bx, by, &tiles, err)
                  && rw_cuda_slab_items (&tiles, slab, &slabs, err)
                  && rw_cuda_quarter_tail (&slabs, waves, resident_blocks, min_len, out, err);
  rw_cuda_items_clear (&tiles);
  rw_cuda_items_clear (&slabs);
  return ok;
}

bool
rw_cuda_build_items (const uint32_t *zlo, const uint32_t *zhi, size_t pitch, size_t ny,
                     int tile_x, int by, size_t elem, int resident_blocks, RwCudaItems *out,
                     RwError *err)
{
  return rw_items_of_tiles (zlo, zhi, pitch, ny, tile_x, by, rw_cuda_slab_planes (elem),
                            RW_TAIL_WAVES, resident_blocks, 8, out, err);
}

/* Variant 13's items: its tiles (60 × (RW_TB_BY − 4) cells) in slabs of
 * RW_CUDA_TB_SLAB planes (rw_cuda_slab_items; a piece re-reads four planes of p and
 * two of q around it, and runs two iterations more than its length). The
 * items of the last two waves are cut into quarters, so that the pass
 * does not wait at its end for a few long items while the GPU idles (with
 * equal items, 7.02 waves of them took as long as 8). */
bool
rw_cuda_build_tb_items (const uint32_t *zlo, const uint32_t *zhi, size_t pitch, size_t ny,
                        int tile_x, int tile_y, int resident_blocks, RwCudaItems *out,
                        RwError *err)
{
  return rw_items_of_tiles (zlo, zhi, pitch, ny, tile_x, tile_y, RW_CUDA_TB_SLAB,
                            RW_TB_TAIL_WAVES, resident_blocks, 16, out, err);
}

/* At most nz / slab + 2 pieces a tile; plus the pieces the last waves are
 * cut into (rw_cuda_quarter_tail: 3 more an item). */
size_t
rw_cuda_items_bound (size_t pitch, size_t ny, size_t nz, size_t elem)
{
  return (pitch / 16 + 2) * (ny / 2 + 2) * (nz / (size_t) rw_cuda_slab_planes (elem) + 2)
         + 1024 * 1024;
}

size_t
rw_cuda_pitch (size_t nx)
{
  return (nx + 31) / 32 * 32;
}

double
rw_cuda_device_bytes (size_t nx, size_t ny, size_t nz, size_t elem, size_t n_receivers,
                      double n_boundary, double branches, size_t arith, size_t n_surfaces)
{
  const size_t pitch = rw_cuda_pitch (nx), n = pitch * ny * nz;
  const size_t span = ((n + 2 * (size_t) RW_CUDA_FIELD_GUARD) * elem + 255) / 256 * 256;
  const size_t plane = ny * nz > nx * nz ? (ny * nz > nx * ny ? ny * nz : nx * ny)
                                         : (nx * nz > nx * ny ? nx * nz : nx * ny);
  double bytes = 2.0 * (double) span + (double) n               /* p, p_prev, cells */
                 + 2.0 * (double) (pitch * ny) * 8              /* column ranges */
                 + (double) (n / 8 + 8)                         /* air bits (≥ 2 cells a bit) */
                 + (double) rw_cuda_items_bound (pitch, ny, nz, elem) * 16 /* int4 items */
                 + (double) n_receivers * (RW_CUDA_RCV_CHUNK * 8.0 + 8)
                 + (double) plane * 4 + 256;                    /* a slice */
  if (branches > 0)
    bytes += n_boundary * ((double) sizeof (RwBranchNode) + 2 * branches * (double) arith + (double) elem)
             + (double) n_surfaces * (8.0 + RW_ADM_MAX_BRANCHES * 6 * 8.0);
  return bytes;
}

size_t
rw_cuda_host_bytes (size_t nx, size_t ny, size_t nz, size_t elem, size_t n_receivers)
{
  const size_t pitch = rw_cuda_pitch (nx), cols = pitch * ny, n = cols * nz;
  return n                                          /* cell bytes */
         + n / 8 + 8                                /* air bits (a bit per ≥ 1 cells) */
         + 3 * cols * sizeof (uint64_t)             /* zlo + zhi, ranges, their unions */
         + 3 * rw_cuda_items_bound (pitch, ny, nz, elem) * sizeof (RwCudaItem) /* tiles, slabs, tail */
         + (n_receivers + 1) * sizeof (size_t)
         + n_receivers * RW_CUDA_RCV_CHUNK * sizeof (double)
         + n * elem;                                /* read_field's staging copy */
}

/* ---------------------------------------------------------------- cells */

/* A new slot of reflection factor R (the list slot: R = 1, β = 0, never
 * read), or −1 with err set when all RW_CUDA_MAX_SLOTS are taken. */
static int
add_slot (double *slot_R, double *slot_beta, int *ns, double R, RwError *err)
{
  if (*ns == RW_CUDA_MAX_SLOTS)
    {
      rw_fail (err, RW_ERROR_UNSUPPORTED,
               _("the room's surfaces use more than %d distinct reflection "
                 "factors, the most the CUDA backend holds: give surfaces "
                 "with similar absorption the same material, or use the "
                 "CPU backend"), RW_CUDA_MAX_SLOTS);
      return -1;
    }
  slot_R[*ns] = R;
  slot_beta[*ns] = rw_beta_of_R (R);
  return (*ns)++;
}

bool
rw_cuda_pack_cells (const RwGrid *g, const double *surface_R, const bool *surface_listed,
                    bool list_area, size_t pitch, uint8_t *cells, double *slot_R,
                    double *slot_beta, int *list_slot, int *n_slots, RwError *err)
{
  *list_slot = -1;
  size_t rank = 0;
  /* surface → slot, over the surfaces that boundary cells actually touch */
  int *slot_of = malloc ((g->n_surfaces > 0 ? g->n_surfaces : 1) * sizeof *slot_of);
  if (slot_of == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("out of memory for %zu surfaces"), g->n_surfaces);
  for (size_t s = 0; s < g->n_surfaces; s++)
    slot_of[s] = -1;
  int ns = 0;
  bool ok = true;
  const size_t n = g->nx * g->ny * g->nz;
  for (size_t i = 0; ok && i < n; i++)
    {
      const int K = g->K[i];
      if (K > 6)
        {
          ok = rw_fail (err, RW_ERROR_INTERNAL, _("grid cell %zu has K = %d"), i, K);
          break;
        }
      uint8_t slot = 0;
      if (K > 0 && K < 6)
        {
          const unsigned s = g->surface[i];
          if (s >= g->n_surfaces)
            {
              ok = rw_fail (err, RW_ERROR_INTERNAL,
                            _("boundary cell %zu has no surface (id %u of %zu)"),
                            i, s, g->n_surfaces);
              break;
            }
          if (rw_cuda_node_listed (g, i, rank++, surface_listed, list_area))
            {
              if (*list_slot < 0 && (*list_slot = add_slot (slot_R, slot_beta, &ns, 1.0, err)) < 0)
                {
                  ok = false;
                  break;
                }
              const size_t x = i % g->nx, yz = i / g->nx;
              cells[x + pitch * yz] = (uint8_t) (K | (*list_slot << 3));
              continue;
            }
          if (slot_of[s] < 0)
            {
              const double R = surface_R[s];
              for (int k = 0; k < ns; k++)
                if (slot_R[k] == R && k != *list_slot)
                  slot_of[s] = k;
              if (slot_of[s] < 0 && (slot_of[s] = add_slot (slot_R, slot_beta, &ns, R, err)) < 0)
                {
                  ok = false;
                  break;
                }
            }
          slot = (uint8_t) slot_of[s];
        }
      const size_t x = i % g->nx, yz = i / g->nx;
      cells[x + pitch * yz] = (uint8_t) (K | (slot << 3));
    }
  free (slot_of);
  if (!ok)
    return false;
  for (int k = ns; k < RW_CUDA_MAX_SLOTS; k++)
    slot_R[k] = 1.0, slot_beta[k] = 0.0;
  *n_slots = ns;
  return true;
}

bool
rw_cuda_node_listed (const RwGrid *g, size_t i, size_t rank, const bool *surface_listed,
                     bool list_area)
{
  return (surface_listed != NULL && surface_listed[g->surface[i]])
         || (list_area && rw_grid_node_area_corrected (g, rank, g->K[i]));
}

bool
rw_cuda_branch_nodes (const RwGrid *g, const int *surface_M, bool list_area, size_t pitch,
                      RwBranchNode **nodes, size_t *n_nodes, size_t *n_states, RwError *err)
{
  *nodes = NULL;
  *n_nodes = *n_states = 0;
  const size_t n = g->nx * g->ny * g->nz;
  size_t count = 0, states = 0, rank = 0;
  bool *listed = malloc ((g->n_surfaces + 1) * sizeof (bool));
  if (listed == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("out of memory for %zu surfaces"), g->n_surfaces);
  for (size_t s = 0; s < g->n_surfaces; s++)
    listed[s] = surface_M[s] > 0;
  for (size_t i = 0; i < n; i++)
    if (g->K[i] > 0 && g->K[i] < 6)
      {
        if (g->surface[i] >= g->n_surfaces)
          {
            free (listed);
            return rw_fail (err, RW_ERROR_INTERNAL,
                            _("boundary cell %zu has no surface (id %u of %zu)"), i,
                            (unsigned) g->surface[i], g->n_surfaces);
          }
        if (rw_cuda_node_listed (g, i, rank++, listed, list_area))
          {
            count++;
            states += (size_t) surface_M[g->surface[i]];
          }
      }
  RwBranchNode *v = NULL;
  if (count > 0 && states >= UINT32_MAX)
    {
      free (listed);
      return rw_fail (err, RW_ERROR_UNSUPPORTED, _("%zu branch states: more than the CUDA backend "
                                                   "indexes"), states);
    }
  if (count > 0 && (v = calloc (count, sizeof *v)) == NULL)
    {
      free (listed);
      return rw_fail (err, RW_ERROR_MEMORY, _("out of memory for %zu branch nodes"), count);
    }
  size_t k = 0, off = 0;
  rank = 0;
  for (size_t i = 0; i < n && count > 0; i++)
    if (g->K[i] > 0 && g->K[i] < 6 && rw_cuda_node_listed (g, i, rank, listed, list_area))
      {
        const size_t x = i % g->nx, yz = i / g->nx;
        v[k].i = (uint64_t) (x + pitch * yz);
        v[k].area = rw_grid_node_area (g, rank, g->K[i]);
        v[k].surface = g->surface[i];
        v[k].K = g->K[i];
        v[k].M = (uint8_t) surface_M[g->surface[i]];
        k++;
        off += (size_t) surface_M[g->surface[i]];
        rank++;
      }
    else if (g->K[i] > 0 && g->K[i] < 6)
      rank++;
  free (listed);
  if (count == 0)
    return true;
  *nodes = v;
  *n_nodes = count;
  *n_states = states;
  return true;
}

size_t *
rw_cuda_branch_plane_starts (const RwBranchNode *nodes, size_t n, size_t plane, size_t nz)
{
  size_t *start = malloc ((nz + 1) * sizeof *start);
  if (start == NULL)
    return NULL;
  for (size_t z = 0, b = 0; z <= nz; z++)
    {
      while (b < n && nodes[b].i / plane < z)
        b++;
      start[z] = b;
    }
  return start;
}
