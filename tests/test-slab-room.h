/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-slab-room.h — the room of the slab and checkpoint tests
 * (test-slab-mpi.c, test-slab-backend-ops.c, test-checkpoint-common.h),
 * and their comparison of two solvers' receivers: rw_shape_lroom (re-entrant walls, eight
 * surfaces) voxelised at h = 0.1 m (cubic) or 0.12 m (FCC), every surface
 * frequency dependent (a fit to α rising per octave, or falling: two
 * kinds, so branch states differ from node to node). */
#pragma once

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rw-admittance.h"
#include "rw-shapes.h"
#include "rw-solver.h"
#include "rw-test.h"
#include "rw-voxel.h"

static inline double
slab_test_h (RwLattice lattice)
{
  return lattice == RW_LATTICE_FCC ? 0.12 : 0.1;
}

/* The grid (NULL after a failed check), with *Y and *R (free them) its
 * surfaces' admittances and reflection factors; alpha_shift is added to
 * the rising α (another room's surfaces, for the checkpoint tests). */
static inline RwGrid *
slab_test_room (RwLattice lattice, double alpha_shift, RwAdmittance **Y, double **R)
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
        a[b] = s % 2 ? 0.05 + 0.1 * b + alpha_shift : 0.3 - 0.02 * b;
      RW_CHECK (rw_admittance_fit_alpha (a, 5, &(*Y)[s], NULL, &err), "fit: %s", err.message);
      RW_CHECK (rw_admittance_is_frequency_dependent (&(*Y)[s]), "surface %zu has branches", s);
      (*R)[s] = (1.0 - (*Y)[s].Y0) / (1.0 + (*Y)[s].Y0);
    }
  return g;
}

/* How many of the n_rcv receivers of a and b differ in any of n samples,
 * noting the first sample of each that does; peak: the largest |a|. */
static inline size_t
receivers_differ (const RwSolver *a, const RwSolver *b, size_t n_rcv, size_t n, double *peak)
{
  size_t differ = 0;
  for (size_t r = 0; r < n_rcv; r++)
    {
      const double *x = rw_solver_receiver (a, r), *y = rw_solver_receiver (b, r);
      for (size_t k = 0; k < n; k++)
        *peak = fmax (*peak, fabs (x[k]));
      if (memcmp (x, y, n * sizeof (double)) != 0)
        {
          differ++;
          size_t k = 0;
          while (k + 1 < n && memcmp (x + k, y + k, sizeof (double)) == 0)
            k++;
          double worst = 0.0, scale = 0.0;
          for (size_t j = 0; j < n; j++)
            {
              worst = fmax (worst, fabs (x[j] - y[j]));
              scale = fmax (scale, fabs (x[j]));
            }
          RW_NOTE ("receiver %zu differs first at step %zu: %.17g vs %.17g (at most %.3g of its "
                   "peak)", r, k, x[k], y[k], scale > 0.0 ? worst / scale : worst);
        }
    }
  return differ;
}
