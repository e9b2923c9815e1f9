/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-slab-room.h — the room of the slab tests (test-slab-mpi.c,
 * test-slab-backend-ops.c): rw_shape_lroom (re-entrant walls, eight
 * surfaces) voxelised at h = 0.1 m (cubic) or 0.12 m (FCC), every surface
 * frequency dependent (a fit to α rising per octave, or falling: two
 * kinds, so branch states differ from node to node). */
#pragma once

#include <stdlib.h>

#include "rw-admittance.h"
#include "rw-shapes.h"
#include "rw-test.h"
#include "rw-voxel.h"

static inline double
slab_test_h (RwLattice lattice)
{
  return lattice == RW_LATTICE_FCC ? 0.12 : 0.1;
}

/* The grid (NULL after a failed check), with *Y and *R (free them) its
 * surfaces' admittances and reflection factors. */
static inline RwGrid *
slab_test_room (RwLattice lattice, RwAdmittance **Y, double **R)
{
  RwError err;
  rw_error_clear (&err);
  RwMesh *mesh = rw_shape_lroom (3.1, 2.3, 2.05, 1.9, 1.4);
  const double h = slab_test_h (lattice);
  RwGrid *g = lattice == RW_LATTICE_FCC ? rw_voxelise_fcc (mesh, h, 1, &err)
                                        : rw_voxelise (mesh, h, 1, &err);
  rw_mesh_free (mesh);
  RW_CHECK (g != NULL, "voxelise: %s", err.message);
  *Y = NULL;
  *R = NULL;
  if (g == NULL)
    return NULL;
  const size_t ns = g->n_surfaces;
  *Y = calloc (ns + 1, sizeof **Y);
  *R = calloc (ns + 1, sizeof **R);
  for (size_t s = 0; s < ns; s++)
    {
      double a[RW_ADM_N_BANDS];
      for (int b = 0; b < RW_ADM_N_BANDS; b++)
        a[b] = s % 2 ? 0.05 + 0.1 * b : 0.3 - 0.02 * b;
      RW_CHECK (rw_admittance_fit_alpha (a, 5, &(*Y)[s], NULL, &err), "fit: %s", err.message);
      (*R)[s] = (1.0 - (*Y)[s].Y0) / (1.0 + (*Y)[s].Y0);
    }
  return g;
}
