/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-cuda-items — the CUDA backend's host-side work lists and cell
 * packing (kernels/rw-cuda-items.c), without a GPU:
 *   - the single-step items (every block shape the autotune tries, every
 *     element size, a few resident block counts) and the two-step items
 *     cover every plane of every inside column's [zlo, zhi) exactly once,
 *     and no item is empty;
 *   - slabs are cut at common planes: an item's ends are multiples of the
 *     slab height unless they are its tile's own ends, no piece but a
 *     tile's only one is shorter than a quarter slab, and the items go out
 *     slab by slab;
 *   - the quarter tail: how many pieces, their sizes, and that they tile
 *     the item they come from;
 *   - rw_cuda_items_bound holds; rw_cuda_host_bytes counts the cell
 *     bytes, the staging copy, the receiver buffers and the work lists;
 *   - the packed cell bytes are K | slot << 3, slots shared by equal
 *     reflection factors, β = (1 − R)/(1 + R), unused slots R = 1,
 *     padding untouched; 33 distinct factors, K = 7 and a boundary cell
 *     without a surface are refused.
 */
#include <stdlib.h>
#include <string.h>

#include "rw-test.h"
#include "../kernels/rw-cuda-items.h"

/* A room of sloped floor and ceiling, with empty columns (a pillar and a
 * notch) and padding columns past nx, as the backend pads rows. */
#define NX 70
#define PITCH 96
#define NY 37
#define NZ 90

static uint32_t zlo[PITCH * NY], zhi[PITCH * NY];
static unsigned char cover[PITCH * NY * NZ];

static void
make_room (void)
{
  for (int y = 0; y < NY; y++)
    for (int x = 0; x < PITCH; x++)
      {
        const int c = x + PITCH * y;
        zlo[c] = zhi[c] = 0;
        if (x < 1 || x >= NX - 1 || y < 1 || y >= NY - 1)
          continue;
        if (x >= 30 && x < 36 && y >= 10 && y < 14)
          continue;                                  /* pillar */
        zlo[c] = 1 + (uint32_t) (x / 7 + y / 9);    /* raked floor */
        zhi[c] = NZ - 1 - (uint32_t) (y / 3);        /* sloped ceiling */
      }
}

/* Every inside plane of every column covered exactly once; empty items
 * and planes outside the columns' ranges counted as errors. */
static void
check_cover (const RwCudaItems *items, int tile_x, int tile_y, const char *what)
{
  memset (cover, 0, sizeof cover);
  int empty = 0;
  for (size_t k = 0; k < items->n; k++)
    {
      const RwCudaItem t = items->v[k];
      empty += t.z >= t.w;
      for (int y = t.y; y < t.y + tile_y && y < NY; y++)
        for (int x = t.x; x < t.x + tile_x && x < PITCH; x++)
          {
            const int c = x + PITCH * y;
            const int z0 = t.z > (int) zlo[c] ? t.z : (int) zlo[c];
            const int z1 = t.w < (int) zhi[c] ? t.w : (int) zhi[c];
            for (int z = z0; z < z1; z++)
              cover[c + (size_t) PITCH * NY * z]++;
          }
    }
  int wrong = 0;
  for (int z = 0; z < NZ; z++)
    for (int c = 0; c < PITCH * NY; c++)
      {
        const int want = z >= (int) zlo[c] && z < (int) zhi[c];
        wrong += cover[c + (size_t) PITCH * NY * z] != want;
      }
  RW_CHECK (wrong == 0, "%s: %d cells covered other than once", what, wrong);
  RW_CHECK (empty == 0, "%s: %d empty items", what, empty);
}

static void
check_single_steps (void)
{
  static const int shapes[][2] = { { 32, 4 }, { 32, 8 }, { 64, 4 }, { 64, 2 }, { 128, 2 },
                                   { 16, 16 }, { 32, 16 }, { 128, 1 }, { 256, 1 }, { 256, 2 } };
  static const size_t elems[] = { 2, 4, 8 };
  static const int resident[] = { 0, 1, 7, 264, 100000 };
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    for (int w = 1; w <= 8; w *= 2)
      for (size_t e = 0; e < 3; e++)
        for (size_t r = 0; r < sizeof resident / sizeof resident[0]; r++)
          {
            /* tile_x: block x × cells per thread, as rw_set_items */
            const int tile_x = shapes[s][0] * w;
            RwCudaItems items = { 0 };
            RwError err = { 0 };
            char what[96];
            snprintf (what, sizeof what, "%d×%d tile, %zu-byte values, %d resident", tile_x,
                      shapes[s][1], elems[e], resident[r]);
            RW_CHECK (rw_cuda_build_items (zlo, zhi, PITCH, NY, tile_x, shapes[s][1], elems[e],
                                           resident[r], &items, &err), "%s: %s", what,
                      err.message);
            check_cover (&items, tile_x, shapes[s][1], what);
            if (shapes[s][0] * shapes[s][1] >= 64)
              RW_CHECK (items.n <= rw_cuda_items_bound (PITCH, NY, NZ, elems[e]),
                        "%s: %zu items over the bound %zu", what, items.n,
                        rw_cuda_items_bound (PITCH, NY, NZ, elems[e]));
            rw_cuda_items_clear (&items);
          }
  RwCudaItems tb = { 0 };
  RW_CHECK (rw_cuda_build_tb_items (zlo, zhi, PITCH, NY, 60, 12, 264, &tb, NULL), "tb items");
  check_cover (&tb, 60, 12, "two-step items");
  rw_cuda_items_clear (&tb);
}

/* The tile an item comes from: the one with its x0, y0. */
static const RwCudaItem *
tile_of (const RwCudaItems *tiles, const RwCudaItem *it)
{
  for (size_t k = 0; k < tiles->n; k++)
    if (tiles->v[k].x == it->x && tiles->v[k].y == it->y)
      return &tiles->v[k];
  return NULL;
}

static void
check_slabs (void)
{
  static const int slabs[] = { 4, 8, 32, 40 };
  RwCudaItems tiles = { 0 };
  RW_CHECK (rw_cuda_tiles (zlo, zhi, PITCH, NY, 32, 4, &tiles, NULL), "tiles");
  RW_CHECK (tiles.n > 20, "%zu tiles", tiles.n);
  for (size_t s = 0; s < sizeof slabs / sizeof slabs[0]; s++)
    {
      const int slab = slabs[s], min_len = slab / 4 > 1 ? slab / 4 : 1;
      RwCudaItems items = { 0 };
      RW_CHECK (rw_cuda_slab_items (&tiles, slab, &items, NULL), "slab %d", slab);
      check_cover (&items, 32, 4, "slab items");
      int off_plane = 0, short_piece = 0, long_piece = 0, out_of_order = 0, last_key = -1;
      for (size_t k = 0; k < items.n; k++)
        {
          const RwCudaItem *it = &items.v[k], *t = tile_of (&tiles, it);
          if (t == NULL)
            {
              off_plane++;
              continue;
            }
          off_plane += (it->z != t->z && it->z % slab != 0) + (it->w != t->w && it->w % slab != 0);
          short_piece += it->w - it->z < min_len && !(it->z == t->z && it->w == t->w);
          long_piece += it->w - it->z > slab + 2 * (min_len - 1);
          if (it->z != t->z)
            {
              out_of_order += it->z / slab < last_key;
              last_key = it->z / slab;
            }
        }
      RW_CHECK (off_plane == 0, "slab %d: %d item ends off the common planes", slab, off_plane);
      RW_CHECK (short_piece == 0, "slab %d: %d pieces shorter than %d", slab, short_piece, min_len);
      RW_CHECK (long_piece == 0, "slab %d: %d pieces too long", slab, long_piece);
      RW_CHECK (out_of_order == 0, "slab %d: %d items not slab by slab", slab, out_of_order);
      /* the single-step bound's first term holds before the tail */
      RW_CHECK (items.n <= (PITCH / 16 + 2) * (NY / 2 + 2) * (NZ / (size_t) slab + 2),
                "slab %d: %zu items", slab, items.n);
      rw_cuda_items_clear (&items);
    }
  rw_cuda_items_clear (&tiles);
}

static void
check_quarter_tail (void)
{
  RwCudaItem v[10];
  for (int k = 0; k < 10; k++)
    v[k] = (RwCudaItem) { 32 * k, 0, 5, 5 + 3 * k + 1 };     /* lengths 1, 4, …, 28 */
  const RwCudaItems items = { v, 10 };
  RwCudaItems out = { 0 };
  /* 2 waves of 3 blocks: the last 6 items (lengths 13 … 28) cut, min 8 */
  RW_CHECK (rw_cuda_quarter_tail (&items, 2, 3, 8, &out, NULL), "quarter tail");
  /* 13 → 1, 16, 19, 22 → 2, 25, 28 → 3 pieces */
  RW_CHECK (out.n == 4 + 1 + 2 + 2 + 2 + 3 + 3, "%zu pieces", out.n);
  size_t o = 0;
  for (int k = 0; k < 10 && o < out.n; k++)
    {
      const int len = v[k].w - v[k].z;
      const int n = k < 4 ? 1 : len / 8 < 1 ? 1 : len / 8 > 4 ? 4 : len / 8;
      int z = v[k].z, lo = len, hi = 0;
      for (int c = 0; c < n && o < out.n; c++, o++)
        {
          RW_CHECK (out.v[o].x == v[k].x && out.v[o].z == z, "item %d piece %d starts at %d",
                    k, c, out.v[o].z);
          const int l = out.v[o].w - out.v[o].z;
          lo = l < lo ? l : lo, hi = l > hi ? l : hi;
          z = out.v[o].w;
        }
      RW_CHECK (z == v[k].w, "item %d: pieces end at %d, not %d", k, z, v[k].w);
      RW_CHECK (hi - lo <= 1, "item %d: pieces of %d to %d planes", k, lo, hi);
    }
  rw_cuda_items_clear (&out);
  /* resident 0 counts as 1; a tail longer than the list takes all of it */
  RW_CHECK (rw_cuda_quarter_tail (&items, 100, 0, 1, &out, NULL) && out.n == 1 + 4 * 9,
            "whole list cut: %zu pieces", out.n);
  rw_cuda_items_clear (&out);
}

/* K cycling 0 … 6 over the cells, boundary cells on surfaces 0 … 3 in
 * turn (the grid check_pack and check_branch_nodes pack). */
static RwGrid
cycling_grid (size_t nx, size_t ny, size_t nz, uint8_t *K, uint16_t *surface)
{
  for (size_t i = 0; i < nx * ny * nz; i++)
    {
      K[i] = (uint8_t) (i % 7);
      surface[i] = K[i] > 0 && K[i] < 6 ? (uint16_t) (i % 4) : RW_NO_SURFACE;
    }
  return (RwGrid) { .nx = nx, .ny = ny, .nz = nz, .K = K, .surface = surface, .n_surfaces = 4 };
}

static void
check_pack (void)
{
  enum { nx = 5, ny = 3, nz = 2, pitch = 8 };
  uint8_t K[nx * ny * nz];
  uint16_t surface[nx * ny * nz];
  const double R[4] = { 0.5, 0.9, 0.5, -0.2 };   /* surfaces 0 and 2 share a slot */
  RwGrid g = cycling_grid (nx, ny, nz, K, surface);
  uint8_t cells[pitch * ny * nz];
  double slot_R[RW_CUDA_MAX_SLOTS], slot_beta[RW_CUDA_MAX_SLOTS];
  int n_slots = -1, list_slot = 7;
  memset (cells, 0xee, sizeof cells);
  RwError err = { 0 };
  RW_CHECK (rw_cuda_pack_cells (&g, R, NULL, false, pitch, cells, slot_R, slot_beta, &list_slot, &n_slots, &err), "%s",
            err.message);
  RW_CHECK (n_slots == 3, "%d slots", n_slots);
  int wrong = 0, pad = 0;
  for (int i = 0; i < nx * ny * nz; i++)
    {
      const uint8_t c = cells[i % nx + pitch * (i / nx)];
      wrong += (c & 7) != K[i];
      if (K[i] > 0 && K[i] < 6)
        wrong += slot_R[c >> 3] != R[surface[i]]
                 || slot_beta[c >> 3] != (1.0 - R[surface[i]]) / (1.0 + R[surface[i]]);
      else
        wrong += (c >> 3) != 0;
    }
  for (int yz = 0; yz < ny * nz; yz++)
    for (int x = nx; x < pitch; x++)
      pad += cells[x + pitch * yz] != 0xee;
  RW_CHECK (wrong == 0, "%d cell bytes wrong", wrong);
  RW_CHECK (pad == 0, "%d padding bytes written", pad);
  RW_CHECK (slot_R[3] == 1.0 && slot_beta[3] == 0.0 && slot_R[RW_CUDA_MAX_SLOTS - 1] == 1.0,
            "unused slots: R %g β %g", slot_R[3], slot_beta[3]);

  /* 33 distinct factors: refused */
  enum { big = 40 };
  uint8_t K2[big];
  uint16_t s2[big];
  double R2[big];
  uint8_t cells2[big];
  for (int i = 0; i < big; i++)
    K2[i] = 3, s2[i] = (uint16_t) i, R2[i] = 0.01 * i;
  RwGrid g2 = { .nx = big, .ny = 1, .nz = 1, .K = K2, .surface = s2, .n_surfaces = big };
  RW_CHECK (!rw_cuda_pack_cells (&g2, R2, NULL, false, big, cells2, slot_R, slot_beta, &list_slot, &n_slots, &err)
            && err.code == RW_ERROR_UNSUPPORTED, "33 factors: code %d", err.code);
  g2.nx = RW_CUDA_MAX_SLOTS;
  RW_CHECK (rw_cuda_pack_cells (&g2, R2, NULL, false, big, cells2, slot_R, slot_beta, &list_slot, &n_slots, &err)
            && n_slots == RW_CUDA_MAX_SLOTS, "32 factors: %d slots", n_slots);
  K2[3] = 7;
  RW_CHECK (!rw_cuda_pack_cells (&g2, R2, NULL, false, big, cells2, slot_R, slot_beta, &list_slot, &n_slots, &err)
            && err.code == RW_ERROR_INTERNAL, "K = 7: code %d", err.code);
  K2[3] = 3;
  s2[5] = RW_NO_SURFACE;
  RW_CHECK (!rw_cuda_pack_cells (&g2, R2, NULL, false, big, cells2, slot_R, slot_beta, &list_slot, &n_slots, &err)
            && err.code == RW_ERROR_INTERNAL, "no surface: code %d", err.code);
}

/* Frequency-dependent surfaces: their cells share one slot of their own
 * (never one of a frequency-independent surface, even of equal R), and
 * the branch nodes are exactly their boundary cells, in index order, with
 * consecutive state offsets. */
static void
check_branch_nodes (void)
{
  enum { nx = 5, ny = 3, nz = 4, pitch = 32 };
  uint8_t K[nx * ny * nz];
  uint16_t surface[nx * ny * nz];
  const double R[4] = { 0.5, 0.5, 0.9, 0.5 };
  const bool listed[4] = { false, true, false, true };
  const int M[4] = { 0, 3, 0, 5 };
  RwGrid g = cycling_grid (nx, ny, nz, K, surface);
  uint8_t cells[pitch * ny * nz];
  double slot_R[RW_CUDA_MAX_SLOTS], slot_beta[RW_CUDA_MAX_SLOTS];
  int n_slots = -1, list_slot = -2;
  RwError err = { 0 };
  RW_CHECK (rw_cuda_pack_cells (&g, R, listed, false, pitch, cells, slot_R, slot_beta, &list_slot,
                                &n_slots, &err), "%s", err.message);
  RW_CHECK (n_slots == 3 && list_slot >= 0, "%d slots, list slot %d", n_slots, list_slot);
  int wrong = 0;
  for (int i = 0; i < nx * ny * nz; i++)
    if (K[i] > 0 && K[i] < 6)
      {
        const int slot = cells[i % nx + pitch * (i / nx)] >> 3;
        wrong += listed[surface[i]] ? slot != list_slot
                                    : slot == list_slot || slot_R[slot] != R[surface[i]];
      }
  RW_CHECK (wrong == 0, "%d cells in the wrong slot", wrong);

  RwBranchNode *nodes = NULL;
  size_t n_nodes = 0, n_states = 0;
  RW_CHECK (rw_cuda_branch_nodes (&g, M, false, pitch, &nodes, &n_nodes, &n_states, &err), "%s",
            err.message);
  size_t k = 0, off = 0;
  wrong = 0;
  for (int i = 0; i < nx * ny * nz; i++)
    if (K[i] > 0 && K[i] < 6 && M[surface[i]] > 0)
      {
        wrong += k >= n_nodes || nodes[k].i != (uint64_t) (i % nx + pitch * (i / nx))
                 || nodes[k].surface != surface[i] || nodes[k].K != K[i]
                 || nodes[k].M != M[surface[i]] || nodes[k].area != (float) (6 - K[i]);
        off += (size_t) M[surface[i]];
        k++;
      }
  RW_CHECK (k == n_nodes && off == n_states && wrong == 0,
            "%zu nodes (%zu expected), %zu states (%zu), %d wrong", n_nodes, k, n_states, off,
            wrong);
  /* each plane's first node: the count of those on the planes below it */
  size_t *start = rw_cuda_branch_plane_starts (nodes, n_nodes, pitch * ny, nz);
  wrong = start == NULL;
  for (size_t z = 0; start != NULL && z <= nz; z++)
    {
      size_t below = 0;
      for (size_t b = 0; b < n_nodes; b++)
        below += nodes[b].i < z * pitch * ny;
      wrong += start[z] != below;
    }
  RW_CHECK (wrong == 0 && n_nodes > 0 && start[nz] == n_nodes, "%d planes' first nodes wrong",
            wrong);
  free (start);
  free (nodes);
}

/* The host RAM the solver's memory check counts for the CUDA backend. */
static void
check_host_bytes (void)
{
  const size_t n = rw_cuda_pitch (100) * 50 * 40;
  RW_CHECK (rw_cuda_pitch (100) == 128 && rw_cuda_pitch (128) == 128, "pitch %zu",
            rw_cuda_pitch (100));
  const size_t b0 = rw_cuda_host_bytes (100, 50, 40, 4, 0);
  const size_t b2 = rw_cuda_host_bytes (100, 50, 40, 4, 2);
  /* cell bytes and read_field's staging copy at least */
  RW_CHECK (b0 >= n + 4 * n, "%zu bytes for %zu cells", b0, n);
  RW_CHECK (b2 - b0 >= 2 * RW_CUDA_RCV_CHUNK * sizeof (double), "2 receivers: %zu more",
            b2 - b0);
  RW_CHECK (rw_cuda_host_bytes (100, 50, 40, 8, 0) > b0, "fp64 not above fp32");
  RW_CHECK (rw_cuda_host_bytes (100, 50, 40, 4, 0) >= 3 * sizeof (RwCudaItem)
              * rw_cuda_items_bound (128, 50, 40, 4), "work lists not counted");
}

int
main (void)
{
  check_host_bytes ();
  make_room ();
  check_single_steps ();
  check_slabs ();
  check_quarter_tail ();
  check_pack ();
  check_branch_nodes ();
  return rw_test_finish ();
}
