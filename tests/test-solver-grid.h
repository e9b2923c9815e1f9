/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-solver-grid.h — grids for the solver tests, built by hand from an
 * inside-predicate so that the solver is tested without the voxeliser.
 *
 * The grid has nx·ny·nz candidate cells plus one outside layer on every
 * side, as rw-voxel.h promises; every boundary node lies on surface 0
 * (n_surfaces = 1). Cells with no inside neighbour are dropped, as the
 * voxeliser does. Released with rw_grid_free, like any grid. */
#pragma once

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rw-solver.h"
#include "rw-voxel.h"
#include "rw-test.h"

/* The counts, surfaces (boundary nodes on surface 0) and column ranges
 * of a grid whose K is set, for either lattice (rw_grid_max_k). */
static inline void
test_grid_tables (RwGrid *g)
{
  const size_t n = g->nx * g->ny * g->nz;
  g->n_inside = g->n_boundary = 0;
  for (size_t i = 0; i < n; i++)
    {
      g->surface[i] = RW_NO_SURFACE;
      if (g->K[i] == 0)
        continue;
      g->n_inside++;
      if (g->K[i] < rw_grid_max_k (g))
        {
          g->n_boundary++;
          g->surface[i] = 0;
        }
    }
  for (size_t y = 0; y < g->ny; y++)
    for (size_t x = 0; x < g->nx; x++)
      {
        uint32_t lo = 0, hi = 0;
        for (size_t z = 0; z < g->nz; z++)
          if (g->K[rw_grid_index (g, x, y, z)] != 0)
            {
              if (hi == 0)
                lo = (uint32_t) z;
              hi = (uint32_t) z + 1;
            }
        g->zlo[x + g->nx * y] = lo;
        g->zhi[x + g->nx * y] = hi;
      }
}

typedef bool (*TestInsideFn) (double x, double y, double z, void *data);

/* Cell (x, y, z) of the interior (0-based, without the outside layer) is
 * inside when inside(x, y, z) holds; x, y, z are passed in cells. */
static inline RwGrid *
test_grid_new (size_t nx, size_t ny, size_t nz, double h, TestInsideFn inside, void *data)
{
  RwGrid *g = calloc (1, sizeof *g);
  g->nx = nx + 2;
  g->ny = ny + 2;
  g->nz = nz + 2;
  g->h = h;
  size_t n = g->nx * g->ny * g->nz, nxy = g->nx * g->ny;
  g->K = calloc (n, 1);
  g->surface = malloc (n * sizeof (uint16_t));
  g->zlo = calloc (nxy, sizeof (uint32_t));
  g->zhi = calloc (nxy, sizeof (uint32_t));
  g->n_surfaces = 1;
  for (size_t z = 1; z + 1 < g->nz; z++)
    for (size_t y = 1; y + 1 < g->ny; y++)
      for (size_t x = 1; x + 1 < g->nx; x++)
        if (inside == NULL || inside ((double) (x - 1), (double) (y - 1), (double) (z - 1), data))
          g->K[rw_grid_index (g, x, y, z)] = 1;

  const ptrdiff_t off[6] = { -1, 1, -(ptrdiff_t) g->nx, (ptrdiff_t) g->nx,
                             -(ptrdiff_t) nxy, (ptrdiff_t) nxy };
  bool changed = true;
  while (changed)
    {
      changed = false;
      for (size_t i = 0; i < n; i++)
        {
          if (g->K[i] == 0)
            continue;
          int k = 0;
          for (int d = 0; d < 6; d++)
            k += g->K[i + off[d]] != 0;
          if (k == 0)
            {
              g->K[i] = 0;
              changed = true;
            }
          else
            g->K[i] = (uint8_t) k;
        }
    }
  test_grid_tables (g);
  return g;
}

/* Grid index of interior cell (x, y, z). */
static inline size_t
test_cell (const RwGrid *g, size_t x, size_t y, size_t z)
{
  return rw_grid_index (g, x + 1, y + 1, z + 1);
}

/* An L-shaped room: the box minus the quarter x > nx/2, y > ny/2. */
static inline bool
test_inside_l (double x, double y, double z, void *data)
{
  const double *size = data;
  (void) z;
  return !(x >= size[0] / 2 && y >= size[1] / 2);
}

/* A sphere of the box's inscribed radius. */
static inline bool
test_inside_sphere (double x, double y, double z, void *data)
{
  const double *size = data;
  double cx = (size[0] - 1) / 2, cy = (size[1] - 1) / 2, cz = (size[2] - 1) / 2;
  double r = fmin (fmin (size[0], size[1]), size[2]) / 2;
  return (x - cx) * (x - cx) + (y - cy) * (y - cy) + (z - cz) * (z - cz) <= r * r;
}

/* A rod sticking out of a box: one-cell-thick parts give nodes with both
 * neighbours along an axis missing. */
static inline bool
test_inside_rod (double x, double y, double z, void *data)
{
  (void) data;
  return (x < 8 && y < 7 && z < 6) || (y == 3 && z == 2);
}

typedef void (*TestShapeCheck) (const char *shape, RwGrid *g, RwBoundary form, RwPrecision prec);

/* check() on an L-shaped room, a sphere and a box with a rod (boundary
 * nodes with K = 1 … 5, and nodes whose mirror neighbour is missing too),
 * for every boundary form, in fp32 and fp64. */
static inline void
test_each_shape_form_precision (TestShapeCheck check)
{
  double size[3] = { 12, 10, 9 };
  RwGrid *ell = test_grid_new (12, 10, 9, 0.1, test_inside_l, size);
  double ssize[3] = { 11, 11, 11 };
  RwGrid *sph = test_grid_new (11, 11, 11, 0.1, test_inside_sphere, ssize);
  RwGrid *rod = test_grid_new (14, 8, 7, 0.1, test_inside_rod, NULL);
  for (int form = RW_BOUNDARY_FV; form <= RW_BOUNDARY_SAVIOJA; form++)
    for (int prec = RW_PRECISION_F32; prec <= RW_PRECISION_F64; prec++)
      {
        check ("L-room", ell, (RwBoundary) form, (RwPrecision) prec);
        check ("sphere", sph, (RwBoundary) form, (RwPrecision) prec);
        check ("box+rod", rod, (RwBoundary) form, (RwPrecision) prec);
      }
  rw_grid_free (ell);
  rw_grid_free (sph);
  rw_grid_free (rod);
}

/* A setup with one soft impulse at `src` and the given receivers. */
static inline RwSolverSetup
test_setup (const RwGrid *g, const double *R, RwBoundary boundary, RwPrecision prec,
            size_t n_steps, double *signal, size_t src, size_t n_rcv, const size_t *rcv)
{
  memset (signal, 0, n_steps * sizeof (double));
  signal[0] = 1.0;
  return (RwSolverSetup) {
    .grid = g, .surface_R = R, .boundary = boundary, .precision = prec,
    .n_steps = n_steps, .source_cell = src, .source_kind = RW_SOURCE_SOFT,
    .source_signal = signal, .n_receivers = n_rcv, .receiver_cells = rcv,
  };
}

/* The energy of the solver's current field. */
static inline double
test_energy (RwSolver *s, const RwGrid *g)
{
  size_t n = g->nx * g->ny * g->nz;
  double *p = malloc (n * sizeof (double)), *q = malloc (n * sizeof (double));
  RwError err;
  double e = NAN;
  if (rw_solver_read_field (s, p, q, &err))
    e = rw_field_energy (g, p, q);
  free (p);
  free (q);
  return e;
}

/* Runs a lossless (R = 1, FV) simulation excited by a doublet at `src`
 * and returns the largest |E − E0|/E0 seen at `checks` evenly spaced
 * times over n_steps (E0: the energy once the doublet is in, step 2). */
static inline double
test_energy_drift (const RwGrid *g, RwPrecision prec, size_t n_steps, size_t src, int checks)
{
  double R = 1.0, *sig = malloc (n_steps * sizeof (double));
  RwSolverSetup su = test_setup (g, &R, RW_BOUNDARY_FV, prec, n_steps, sig, src, 0, NULL);
  /* A doublet (s[0] = 1, s[1] = −1) rather than an impulse: no net volume
   * injected, so the zero-frequency mode stays empty. Its drift in fp32
   * (λ² = 1/3 is not exact there) would otherwise dominate the fp32
   * energy error: 1e-3 with an impulse, 4e-6 with the doublet. */
  sig[1] = -1.0;
  RwError err;
  RwSolver *s = rw_solver_new (&su, RW_BACKEND_CPU, &err);
  double worst = INFINITY;
  if (s == NULL)
    {
      fprintf (stderr, "rw_solver_new: %s\n", err.message);
      free (sig);
      return worst;
    }
  if (rw_solver_advance (s, 2, &err))
    {
      double e0 = test_energy (s, g);
      worst = 0.0;
      for (int c = 1; c <= checks; c++)
        {
          size_t target = 2 + (n_steps - 2) * (size_t) c / (size_t) checks;
          if (!rw_solver_advance (s, target - rw_solver_step (s), &err))
            {
              fprintf (stderr, "rw_solver_advance: %s\n", err.message);
              worst = INFINITY;
              break;
            }
          double d = fabs (test_energy (s, g) - e0) / e0;
          if (!(d <= worst))
            worst = d;
        }
    }
  rw_solver_free (s);
  free (sig);
  return worst;
}

/* rw_solver_new must fail with `code` and a message holding `word` (the
 * bad-setup tests). */
static inline void
test_refused (const char *what, RwSolverSetup su, RwBackendKind kind, RwErrorCode code,
              const char *word)
{
  RwError err;
  rw_error_clear (&err);
  RwSolver *s = rw_solver_new (&su, kind, &err);
  RW_CHECK (s == NULL, "%s: accepted", what);
  RW_CHECK (err.code == code, "%s: code %d, wanted %d (%s)", what, err.code, code, err.message);
  RW_CHECK (word == NULL || strstr (err.message, word) != NULL,
            "%s: message \"%s\" lacks \"%s\"", what, err.message, word);
  RW_NOTE ("%-28s → \"%s\"", what, err.message);
  rw_solver_free (s);
}

/* ‖b − a‖ / ‖a‖ over n samples (NAN when a is 0): how far a run (b)
 * strays from a reference run (a). */
static inline double
test_rel_l2 (const double *a, const double *b, size_t n)
{
  double num = 0, den = 0;
  for (size_t k = 0; k < n; k++)
    {
      double d = b[k] - a[k];
      num += d * d;
      den += a[k] * a[k];
    }
  return den > 0 ? sqrt (num / den) : NAN;
}

/* Runs su on the CPU to its end and copies each receiver's signal to
 * out[r · n_steps …] (a failed run is a failed check). */
static inline void
test_run_receivers (const RwSolverSetup *su, double *out)
{
  RwError err;
  RwSolver *s = rw_solver_new (su, RW_BACKEND_CPU, &err);
  RW_CHECK (s != NULL && rw_solver_run (s, NULL, NULL, NULL, &err), "run: %s", err.message);
  for (size_t r = 0; s != NULL && r < su->n_receivers; r++)
    memcpy (out + r * su->n_steps, rw_solver_receiver (s, r), su->n_steps * sizeof (double));
  rw_solver_free (s);
}
