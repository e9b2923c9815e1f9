/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cuda-test-room.h — shared by the tests/test-cuda-*.c programs: the skip
 * when no CUDA device is present, and the small rooms they run on. */
#pragma once

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rw-config.h"
#include "rw-shapes.h"
#include "rw-solver.h"
#include "rw-test.h"
#include "rw-voxel.h"

/* false (after rw_test_skip with the reason) when the CUDA backend is not
 * built in or finds no device: CI has nvcc but no GPU and no driver. */
static inline bool
cuda_test_require (void)
{
  const RwBackendOps *ops = rw_cuda_backend ();
  char why[512], msg[600];
  if (ops == NULL)
    {
      rw_test_skip ("Roomwave was built without CUDA (no nvcc at configure time)");
      return false;
    }
  if (!ops->available (why, sizeof why))
    {
      snprintf (msg, sizeof msg, "CUDA backend not usable here: %s", why);
      rw_test_skip (msg);
      return false;
    }
  return true;
}

/* kind 0: an L-shaped room (flat faces, outer edges and corners, the inner
 * vertical edge); kind 1: a sphere (curved: every K from 1 to 6 on a
 * stair-cased surface); kind 2: a small concert hall (sloped floor and
 * ceiling, splayed walls, faceted rear arc). Every surface gets its own
 * reflection factor, from rigid (1) to strongly absorbing and one
 * negative. */
static inline RwGrid *
cuda_test_room (int kind, double h, double **surface_R)
{
  RwMesh *m = kind == 0 ? rw_shape_lroom (2.0, 1.6, 3.3, 1.2, 1.0)
              : kind == 1 ? rw_shape_sphere (0.8, 2)
              : rw_shape_hall (4.0, 2.5, 1.5, 8);
  RwError err = { 0 };
  RwGrid *g = m ? rw_voxelise (m, h, 1, &err) : NULL;
  rw_mesh_free (m);
  if (g == NULL)
    {
      fprintf (stderr, "test room %d: %s\n", kind, err.message);
      exit (1);
    }
  static const double R[] = { 1.0, 0.9, 0.7, 0.5, 0.3, 0.0, -0.2, 0.95, 0.8, 0.6 };
  *surface_R = malloc ((g->n_surfaces + 1) * sizeof **surface_R);
  for (size_t s = 0; s < g->n_surfaces; s++)
    (*surface_R)[s] = R[s % (sizeof R / sizeof R[0])];
  return g;
}

/* The inside cell nearest to the fraction f of the bounding box. */
static inline size_t
cuda_test_cell (const RwGrid *g, double fx, double fy, double fz)
{
  size_t best = 0;
  double bd = INFINITY;
  const double cx = fx * g->nx, cy = fy * g->ny, cz = fz * g->nz;
  for (size_t z = 0; z < g->nz; z++)
    for (size_t y = 0; y < g->ny; y++)
      for (size_t x = 0; x < g->nx; x++)
        {
          const size_t i = rw_grid_index (g, x, y, z);
          const double d = (x - cx) * (x - cx) + (y - cy) * (y - cy) + (z - cz) * (z - cz);
          if (g->K[i] != 0 && d < bd)
            bd = d, best = i;
        }
  return best;
}

#if RW_HAVE_CUDA
#include "../kernels/rw-cuda.h"

/* How many of n doubles differ in any bit. */
static inline size_t
cuda_test_differing (const double *a, const double *b, size_t n)
{
  size_t d = 0;
  for (size_t i = 0; i < n; i++)
    d += memcmp (&a[i], &b[i], sizeof (double)) != 0;
  return d;
}

/* The plane where variant 13 (fp32) cuts g's tiles into two z chunks
 * (rw_cuda_debug_tb_seam), −1 when it does not. */
static inline int
cuda_test_tb_seam (const RwGrid *g, const double *R)
{
  RwSolverSetup s = { 0 };
  s.grid = g;
  s.surface_R = R;
  s.precision = RW_PRECISION_F32;
  s.n_steps = 1;
  RwError err = { 0 };
  int seam = -1;
  setenv ("ROOMWAVE_CUDA_VARIANT", "13", 1);
  void *st = rw_cuda_backend ()->create (&s, &err);
  unsetenv ("ROOMWAVE_CUDA_VARIANT");
  if (st)
    {
      seam = rw_cuda_debug_tb_seam (st);
      rw_cuda_backend ()->destroy (st);
    }
  return seam;
}
#endif

/* Built without CUDA, every GPU test is this main: the rest of its file
 * (which calls the CUDA backend's test hooks) is under #if RW_HAVE_CUDA. */
#if !RW_HAVE_CUDA
int
main (void)
{
  rw_test_skip ("Roomwave was built without CUDA (no nvcc at configure time)");
  return rw_test_finish ();
}
#endif
