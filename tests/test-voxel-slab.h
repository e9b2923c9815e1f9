/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-voxel-slab.h — two slabs compared field by field, byte for byte
 * (voxel-slab, voxel-slab-mpi-N). */
#pragma once

#include <string.h>
#include "rw-slab.h"
#include "rw-test.h"

/* Every field of two slabs, byte for byte. */
static inline void
check_same_slab (const RwSlab *a, const RwSlab *b, const char *what, size_t z0, size_t z1)
{
  const RwGrid *p = a->grid, *q = b->grid;
  RW_CHECK (p->lattice == q->lattice && p->nx == q->nx && p->ny == q->ny && p->nz == q->nz,
            "%s [%zu, %zu): dims %zu×%zu×%zu vs %zu×%zu×%zu", what, z0, z1, p->nx, p->ny, p->nz,
            q->nx, q->ny, q->nz);
  if (p->nx != q->nx || p->ny != q->ny || p->nz != q->nz)
    return;
  const size_t n = p->nx * p->ny * p->nz, nxy = p->nx * p->ny;
  RW_CHECK (memcmp (&p->h, &q->h, sizeof p->h) == 0 && memcmp (p->origin, q->origin, sizeof p->origin) == 0,
            "%s [%zu, %zu): h or origin differ (z %.17g vs %.17g)", what, z0, z1, p->origin[2], q->origin[2]);
  RW_CHECK (a->z_first == b->z_first && a->own_z0 == b->own_z0 && a->own_z1 == b->own_z1
            && a->halo == b->halo,
            "%s [%zu, %zu): planes z_first %zu/%zu own %zu–%zu / %zu–%zu", what, z0, z1,
            a->z_first, b->z_first, a->own_z0, a->own_z1, b->own_z0, b->own_z1);
  RW_CHECK (p->n_inside == q->n_inside && p->n_boundary == q->n_boundary && p->n_surfaces == q->n_surfaces,
            "%s [%zu, %zu): inside %zu/%zu boundary %zu/%zu", what, z0, z1, p->n_inside, q->n_inside,
            p->n_boundary, q->n_boundary);
  size_t bad = 0, first = SIZE_MAX;
  for (size_t i = 0; i < n; i++)
    if (p->K[i] != q->K[i] || p->surface[i] != q->surface[i])
      {
        bad++;
        first = first == SIZE_MAX ? i : first;
      }
  RW_CHECK (bad == 0, "%s [%zu, %zu): %zu cells differ in K or surface, first (%zu, %zu, %zu): "
            "K %u/%u surface %u/%u", what, z0, z1, bad, first % p->nx, (first / p->nx) % p->ny,
            first / nxy, bad ? p->K[first] : 0, bad ? q->K[first] : 0,
            bad ? p->surface[first] : 0, bad ? q->surface[first] : 0);
  RW_CHECK (memcmp (p->zlo, q->zlo, nxy * sizeof *p->zlo) == 0
            && memcmp (p->zhi, q->zhi, nxy * sizeof *p->zhi) == 0,
            "%s [%zu, %zu): zlo/zhi differ", what, z0, z1);
  if (p->n_boundary == q->n_boundary && p->area != NULL && q->area != NULL)
    {
      size_t bad_a = 0, fa = 0;
      for (size_t k = 0; k < p->n_boundary; k++)
        if (memcmp (&p->area[k], &q->area[k], sizeof (float)) != 0 && bad_a++ == 0)
          fa = k;
      RW_CHECK (bad_a == 0, "%s [%zu, %zu): %zu areas differ, first #%zu: %.9g vs %.9g", what, z0,
                z1, bad_a, fa, bad_a ? p->area[fa] : 0.0, bad_a ? q->area[fa] : 0.0);
    }
  else
    RW_CHECK (p->area != NULL && q->area != NULL, "%s [%zu, %zu): an area array missing", what, z0, z1);
  RW_CHECK (memcmp (p->surface_area_m2, q->surface_area_m2, p->n_surfaces * sizeof (double)) == 0,
            "%s [%zu, %zu): surface_area_m2 differs", what, z0, z1);
}

