/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-slab.c — slabs of a grid for ranks (rw-slab.h). */
#include "rw-slab.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rw-comm.h"
#include "rw-i18n.h"
#include "rw-scheme-fcc.h"

int
rw_slab_halo (const RwGrid *g)
{
  return g->lattice == RW_LATTICE_FCC ? 2 : 1;
}

/* Inside cells of plane z. */
static size_t
plane_inside (const RwGrid *g, size_t z)
{
  const size_t nxy = g->nx * g->ny;
  const uint8_t *K = g->K + z * nxy;
  size_t n = 0;
  for (size_t i = 0; i < nxy; i++)
    n += K[i] != 0;
  return n;
}

bool
rw_slab_plan (const RwGrid *g, int n, size_t *cuts, RwError *err)
{
  size_t *counts = malloc ((g->nz + 1) * sizeof *counts);
  if (counts == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
  for (size_t z = 0; z < g->nz; z++)
    counts[z] = plane_inside (g, z);
  bool ok = rw_slab_plan_counts (counts, g->nz, n, rw_slab_halo (g), cuts, err);
  free (counts);
  return ok;
}

bool
rw_slab_plan_counts (const size_t *counts, size_t nz, int n, int halo, size_t *cuts, RwError *err)
{
  const size_t h = (size_t) halo;
  if (n < 1 || n > RW_SLAB_MAX_RANKS)
    return rw_fail (err, RW_ERROR_INPUT, _("%d ranks: Roomwave spreads a run over 1 to %d"), n,
                    RW_SLAB_MAX_RANKS);
  if ((size_t) n * h > nz)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("The grid has %zu planes along z; %d ranks need at least %zu each. Use "
                      "fewer ranks or a finer grid"), nz, n, h);
  size_t *cum = malloc ((nz + 1) * sizeof *cum);
  if (cum == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
  cum[0] = 0;
  for (size_t z = 0; z < nz; z++)
    cum[z + 1] = cum[z] + counts[z];
  const size_t total = cum[nz];
  cuts[0] = 0;
  size_t z = 0;
  for (int k = 1; k < n; k++)
    {
      /* the first plane z with cum[z] ≥ k/n of the inside cells (in
       * integers: cum[z] · n ≥ k · total) */
      while (z < nz && cum[z] * (size_t) n < (size_t) k * total)
        z++;
      size_t c = z;
      /* at least h planes for this slab and for each one after it */
      if (c < cuts[k - 1] + h)
        c = cuts[k - 1] + h;
      if (c > nz - (size_t) (n - k) * h)
        c = nz - (size_t) (n - k) * h;
      cuts[k] = c;
    }
  cuts[n] = nz;
  free (cum);
  return true;
}

void
rw_slab_clear (RwSlab *s)
{
  rw_grid_free (s->grid);
  memset (s, 0, sizeof *s);
}

/* The offsets of a cell's neighbours in the array: 6 (cubic) or 12 (FCC). */
static int
neighbour_offsets (const RwGrid *g, ptrdiff_t off[RW_FCC_N_NBR])
{
  const ptrdiff_t nx = (ptrdiff_t) g->nx, nxy = (ptrdiff_t) (g->nx * g->ny);
  if (g->lattice == RW_LATTICE_FCC)
    {
      static const int d[RW_FCC_N_NBR][3] = RW_FCC_NBR_OFFSETS;
      for (int k = 0; k < RW_FCC_N_NBR; k++)
        off[k] = d[k][0] + nx * d[k][1] + nxy * d[k][2];
      return RW_FCC_N_NBR;
    }
  const ptrdiff_t c[6] = { -1, 1, -nx, nx, -nxy, nxy };
  memcpy (off, c, sizeof c);
  return 6;
}

/* The slab grid of planes [z0, z1) of a grid of nz planes is its planes
 * [zs, ze); those below zk0 and from zk1 on are made outside (the outer
 * layer), the others copied. */
static void
slab_planes (RwLattice lattice, size_t nz, size_t z0, size_t z1, size_t *zs, size_t *ze,
             size_t *zk0, size_t *zk1)
{
  const size_t G = (size_t) (lattice == RW_LATTICE_FCC ? 2 : 1) + 1;
  *zs = z0 > G + 1 ? z0 - G - 1 : 0;
  if (lattice == RW_LATTICE_FCC)
    *zs &= ~(size_t) 1;
  *ze = z1 + G + 1 < nz ? z1 + G + 1 : nz;
  *zk0 = z0 > G ? z0 - G : 0;
  *zk1 = z1 + G < nz ? z1 + G : nz;
}

/* The slab grid of the planes [z0, z1) of a grid of nz planes, from g
 * holding its planes [gz, gz + g->nz) (the whole grid: gz = 0; a window,
 * rw_voxelise_planes: its planes as the whole grid has them where the
 * slab copies them, its area array one entry per boundary node of its K
 * in index order). The window must hold the slab grid's planes and the
 * ones its K is copied from (rw_voxelise_slab makes it so). */
static bool
slab_build (const RwGrid *g, size_t gz, size_t nz, size_t z0, size_t z1, RwSlab *out,
            RwError *err)
{
  memset (out, 0, sizeof *out);
  const size_t nx = g->nx, ny = g->ny, nxy = nx * ny;
  const int max_k = rw_grid_max_k (g);
  const size_t h = (size_t) rw_slab_halo (g);
  if (!(z0 < z1 && z1 <= nz))
    return rw_fail (err, RW_ERROR_INPUT, _("Slab planes [%zu, %zu) of a grid of %zu planes"), z0,
                    z1, nz);
  size_t zs, ze, zk0, zk1;
  slab_planes (g->lattice, nz, z0, z1, &zs, &ze, &zk0, &zk1);
  if (z0 > 0 && g->n_surfaces == 0)
    return rw_fail (err, RW_ERROR_INPUT, _("A grid without surfaces cannot be cut into slabs"));
  if (zs < gz || ze > gz + g->nz)
    return rw_fail (err, RW_ERROR_INPUT, _("Slab planes [%zu, %zu) of a grid of %zu planes"), z0,
                    z1, nz);
  /* g's planes from the whole grid's */
  const size_t go = gz * nxy;   /* g's index of a whole-grid index i: i − go */

  RwGrid *s = calloc (1, sizeof *s);
  if (s == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
  const size_t snz = ze - zs, n = nxy * snz;
  s->lattice = g->lattice;
  s->nx = nx;
  s->ny = ny;
  s->nz = snz;
  s->h = g->h;
  s->origin[0] = g->origin[0];
  s->origin[1] = g->origin[1];
  s->origin[2] = g->origin[2] + g->h * (double) zs;
  s->n_surfaces = g->n_surfaces;
  s->K = malloc (n);
  s->surface = malloc (n * sizeof *s->surface);
  s->zlo = malloc (nxy * sizeof *s->zlo);
  s->zhi = malloc (nxy * sizeof *s->zhi);
  s->surface_area_m2 = calloc (g->n_surfaces ? g->n_surfaces : 1, sizeof (double));
  if (!s->K || !s->surface || !s->zlo || !s->zhi || !s->surface_area_m2)
    {
      rw_grid_free (s);
      return rw_fail (err, RW_ERROR_MEMORY, _("Out of memory for a slab of %zu × %zu × %zu cells"),
                      nx, ny, snz);
    }
  for (size_t z = zs; z < ze; z++)
    {
      uint8_t *K = s->K + (z - zs) * nxy;
      uint16_t *surf = s->surface + (z - zs) * nxy;
      if (z < zk0 || z >= zk1)
        {
          memset (K, 0, nxy);
          for (size_t i = 0; i < nxy; i++)
            surf[i] = RW_NO_SURFACE;
        }
      else
        {
          memcpy (K, g->K + z * nxy - go, nxy);
          for (size_t i = 0; i < nxy; i++)
            surf[i] = g->surface != NULL ? g->surface[z * nxy + i - go] : (K[i] > 0 && K[i] < max_k ? 0 : RW_NO_SURFACE);
        }
    }

  /* Recount K in the ghost planes, dropping cells left with no inside
   * neighbour, until nothing changes (each pass can only drop). */
  ptrdiff_t off[RW_FCC_N_NBR];
  const int n_off = neighbour_offsets (g, off);
  for (bool changed = true; changed;)
    {
      changed = false;
      for (size_t z = zk0; z < zk1; z++)
        {
          if (z >= z0 && z < z1)
            continue;
          for (size_t i = (z - zs) * nxy; i < (z - zs + 1) * nxy; i++)
            {
              if (s->K[i] == 0)
                continue;
              int k = 0;
              for (int d = 0; d < n_off; d++)
                k += s->K[(size_t) ((ptrdiff_t) i + off[d])] != 0;
              if (k != s->K[i])
                {
                  s->K[i] = (uint8_t) k;
                  changed = true;
                }
              if (k > 0 && k < max_k && s->surface[i] == RW_NO_SURFACE)
                s->surface[i] = 0;
            }
        }
    }
  /* The owned cells and the sent ghosts must see the whole grid's room:
   * inside where it is inside, and the owned cells' counts unchanged. */
  const size_t zc0 = z0 > h ? z0 - h : 0, zc1 = z1 + h < nz ? z1 + h : nz;
  for (size_t z = zc0; z < zc1; z++)
    for (size_t i = 0; i < nxy; i++)
      {
        const uint8_t a = g->K[z * nxy + i - go], b = s->K[(z - zs) * nxy + i];
        if ((a != 0) != (b != 0) || (z >= z0 && z < z1 && a != b))
          {
            rw_grid_free (s);
            return rw_fail (err, RW_ERROR_INPUT,
                            _("The cut of the grid at plane %zu isolates cell (%zu, %zu, %zu), "
                              "which the slab next to it needs: run with another number of "
                              "ranks"), z < z0 ? z0 : z1, i % nx, i / nx, z);
          }
      }

  /* counts, column ranges, the boundary nodes' areas */
  for (size_t c = 0; c < nxy; c++)
    {
      s->zlo[c] = s->zhi[c] = 0;
      bool any = false;
      for (size_t z = 0; z < snz; z++)
        if (s->K[c + z * nxy] != 0)
          {
            if (!any)
              s->zlo[c] = (uint32_t) z;
            s->zhi[c] = (uint32_t) z + 1;
            any = true;
          }
    }
  size_t n_bnd = 0;
  for (size_t i = 0; i < n; i++)
    if (s->K[i] != 0)
      {
        s->n_inside++;
        n_bnd += s->K[i] < max_k;
      }
  s->n_boundary = n_bnd;
  if (g->area != NULL)
    {
      s->area = malloc ((n_bnd ? n_bnd : 1) * sizeof *s->area);
      if (s->area == NULL)
        {
          rw_grid_free (s);
          return rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
        }
      /* g's boundary nodes below the slab, then both in index order */
      size_t gr = 0;
      for (size_t i = gz * nxy; i < zs * nxy; i++)
        gr += g->K[i - go] != 0 && g->K[i - go] < max_k;
      size_t lb = 0;
      for (size_t i = zs * nxy; i < ze * nxy; i++)
        {
          const uint8_t a = g->K[i - go], b = s->K[i - zs * nxy];
          const bool gb = a != 0 && a < max_k;
          if (b != 0 && b < max_k)
            s->area[lb++] = gb && a == b ? g->area[gr] : rw_grid_face_count_area (g, b);
          gr += gb;
        }
    }
  /* surface_area_m2: the owned planes' share, in index order (what the
   * whole grid sums over them; the ranks' shares add up to the room's,
   * to rounding) */
  for (size_t i = 0, b = 0; i < n; i++)
    if (s->K[i] != 0 && s->K[i] < max_k)
      {
        const size_t z = zs + i / nxy;
        const float a = s->area != NULL ? s->area[b] : rw_grid_face_count_area (s, s->K[i]);
        if (z >= z0 && z < z1 && s->surface[i] < s->n_surfaces)
          s->surface_area_m2[s->surface[i]] += (double) a * s->h * s->h;
        b++;
      }
  out->grid = s;
  out->z_first = zs;
  out->own_z0 = z0 - zs;
  out->own_z1 = z1 - zs;
  out->halo = (int) h;
  return true;
}

bool
rw_slab_extract (const RwGrid *g, size_t z0, size_t z1, RwSlab *out, RwError *err)
{
  return slab_build (g, 0, g->nz, z0, z1, out, err);
}

bool
rw_voxelise_slab (const RwMesh *mesh, double spacing_m, RwLattice lattice, size_t z0, size_t z1,
                  int threads, RwSlab *out, RwError *err)
{
  memset (out, 0, sizeof *out);
  double origin[3];
  size_t n[3];
  if (!rw_voxel_lattice (mesh, spacing_m, origin, n, err))
    return false;
  const size_t nz = n[2];
  if (!(z0 < z1 && z1 <= nz))
    return rw_fail (err, RW_ERROR_INPUT, _("Slab planes [%zu, %zu) of a grid of %zu planes"), z0,
                    z1, nz);
  /* slab_build's planes: the slab grid's [zs, ze), K copied from [zk0,
   * zk1), whose areas look RW_VOXEL_REACH planes further */
  const size_t R = RW_VOXEL_REACH;
  size_t zs, ze, zk0, zk1;
  slab_planes (lattice, nz, z0, z1, &zs, &ze, &zk0, &zk1);
  size_t w0 = zk0 > R ? zk0 - R : 0, w1 = zk1 + R < nz ? zk1 + R : nz;
  w0 = w0 < zs ? w0 : zs;
  w1 = w1 > ze ? w1 : ze;
  RwGrid *g = rw_voxelise_planes (mesh, spacing_m, lattice, w0, w1, zk0, zk1, threads, err);
  if (g == NULL)
    return false;
  bool ok = slab_build (g, w0, nz, z0, z1, out, err);
  rw_grid_free (g);
  return ok;
}

bool
rw_slab_voxelise_ranks (const RwMesh *mesh, double spacing_m, RwLattice lattice,
                        const RwComm *comm, int threads, size_t *cuts, RwSlab *out, RwError *err)
{
  memset (out, 0, sizeof *out);
  const int rank = rw_comm_rank (comm), size = rw_comm_size (comm);
  double origin[3];
  size_t n[3];
  /* the same mesh on every rank: the same lattice, or the same refusal */
  if (!rw_voxel_lattice (mesh, spacing_m, origin, n, err))
    return false;
  const size_t nz = n[2], share = (nz + (size_t) size - 1) / (size_t) size;
  /* this rank's share of the planes, counted; all of them, gathered */
  size_t *all = calloc ((size_t) size * share + 1, sizeof *all);
  bool ok = all != NULL;
  if (!ok)
    rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
  const size_t p0 = (size_t) rank * share < nz ? (size_t) rank * share : nz;
  const size_t p1 = p0 + share < nz ? p0 + share : nz;
  if (ok && p0 < p1)
    ok = rw_voxelise_plane_counts (mesh, spacing_m, lattice, p0, p1, threads,
                                   all + (size_t) rank * share, err);
  if (!rw_comm_agree (comm, ok, err))
    {
      free (all);
      return false;
    }
  if (size > 1 && !rw_comm_allgather (comm, all + (size_t) rank * share, share * sizeof *all, all, err))
    {
      free (all);
      return false;
    }
  size_t total = 0;
  for (size_t z = 0; z < nz; z++)
    total += all[z];
  ok = total > 0 || rw_fail (err, RW_ERROR_INPUT,
                             _("%s: no cell of h = %.4g m fits inside the model; the grid is too "
                               "coarse for it (raise the maximum frequency) or the model is not a "
                               "room"), mesh->path ? mesh->path : _("(mesh)"), spacing_m);
  ok = ok && rw_slab_plan_counts (all, nz, size, rw_slab_halo (&(RwGrid) { .lattice = lattice }), cuts, err);
  free (all);
  /* the same on every rank so far; the slab is this rank's own */
  if (ok)
    ok = rw_voxelise_slab (mesh, spacing_m, lattice, cuts[rank], cuts[rank + 1], threads, out, err);
  if (!rw_comm_agree (comm, ok, err))
    {
      rw_slab_clear (out);
      return false;
    }
  return true;
}

size_t
rw_slab_owned_inside (const RwSlab *s, size_t *boundary)
{
  const RwGrid *g = s->grid;
  const size_t nxy = g->nx * g->ny;
  const int mk = rw_grid_max_k (g);
  size_t inside = 0, bnd = 0;
  for (size_t i = s->own_z0 * nxy; i < s->own_z1 * nxy; i++)
    if (g->K[i] != 0)
      {
        inside++;
        bnd += g->K[i] < mk;
      }
  if (boundary != NULL)
    *boundary = bnd;
  return inside;
}

bool
rw_slab_devices_shared (const RwSlabDevice *all, int n)
{
  for (int a = 0; a < n; a++)
    for (int b = a + 1; b < n; b++)
      {
        const RwSlabDevice *x = &all[a], *y = &all[b];
        const bool same = x->has_uuid && y->has_uuid
                            ? memcmp (x->uuid, y->uuid, sizeof x->uuid) == 0
                            : strcmp (x->host, y->host) == 0 && x->device == y->device
                                && strcmp (x->visible, y->visible) == 0;
        if (same)
          return true;
      }
  return false;
}
