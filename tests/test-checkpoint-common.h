/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-checkpoint-common.h — the room of the checkpoint tests (issue #15;
 * rw-checkpoint.h): rw_shape_lroom voxelised at h = 0.1 m (cubic) or
 * 0.12 m (FCC), every surface frequency dependent (a fit to α per octave,
 * two kinds, `alpha_shift` added to the second: branch states on every
 * boundary node), a source and three receivers interpolated between the
 * nodes (stencils: the solver keeps each stencil cell's samples too), an
 * impulse and two later samples. */
#pragma once

#include <stdlib.h>
#include <string.h>

#include "rw-admittance.h"
#include "rw-checkpoint.h"
#include "rw-shapes.h"
#include "rw-solver.h"
#include "rw-test.h"

#define CK_MAX_RCV 4

typedef struct {
  RwMesh *mesh;
  RwGrid *g;
  RwAdmittance *Y;
  double *R, *sig;
  RwGridStencil src, rcv[CK_MAX_RCV];
  size_t n_rcv;
  RwSolverSetup su;
} CkRoom;

static void
ck_room_clear (CkRoom *r)
{
  free (r->sig);
  free (r->R);
  free (r->Y);
  rw_grid_free (r->g);
  rw_mesh_free (r->mesh);
  memset (r, 0, sizeof *r);
}

/* The room above; `source` NULL: the default position. */
static bool
ck_room_init (CkRoom *r, RwLattice lattice, RwPrecision precision, double alpha_shift,
              const double *source, size_t n_steps, const struct RwComm *comm)
{
  RwError err;
  rw_error_clear (&err);
  memset (r, 0, sizeof *r);
  const double h = lattice == RW_LATTICE_FCC ? 0.12 : 0.1;
  r->mesh = rw_shape_lroom (3.1, 2.3, 2.05, 1.9, 1.4);
  r->g = lattice == RW_LATTICE_FCC ? rw_voxelise_fcc (r->mesh, h, 1, &err)
                                   : rw_voxelise (r->mesh, h, 1, &err);
  RW_CHECK (r->g != NULL, "voxelise: %s", err.message);
  if (r->g == NULL)
    return false;
  const size_t ns = r->g->n_surfaces;
  r->Y = calloc (ns, sizeof *r->Y);
  r->R = calloc (ns, sizeof *r->R);
  for (size_t s = 0; s < ns; s++)
    {
      double a[RW_ADM_N_BANDS];
      for (int b = 0; b < RW_ADM_N_BANDS; b++)
        a[b] = s % 2 ? 0.05 + 0.1 * b + alpha_shift : 0.3 - 0.02 * b;
      RW_CHECK (rw_admittance_fit_alpha (a, 5, &r->Y[s], NULL, &err), "fit: %s", err.message);
      RW_CHECK (rw_admittance_is_frequency_dependent (&r->Y[s]), "surface %zu has branches", s);
      r->R[s] = (1.0 - r->Y[s].Y0) / (1.0 + r->Y[s].Y0);
    }
  const double src[3] = { 0.8, 0.7, 1.03 };
  const double pos[3][3] = { { 2.3, 0.5, 1.17 }, { 0.37, 1.1, 0.55 }, { 2.6, 0.4, 0.35 } };
  bool ok = rw_grid_interp (r->g, source != NULL ? source : src, "source", &r->src, &err);
  RW_CHECK (ok, "source: %s", err.message);
  r->n_rcv = 3;
  for (size_t k = 0; ok && k < r->n_rcv; k++)
    {
      ok = rw_grid_interp (r->g, pos[k], "receiver", &r->rcv[k], &err);
      RW_CHECK (ok, "receiver %zu: %s", k, err.message);
    }
  r->sig = calloc (n_steps, sizeof *r->sig);
  r->sig[0] = 1.0;
  r->sig[1] = -0.5;
  r->sig[7] = 0.25;
  const double c = 343.0, fs = lattice == RW_LATTICE_FCC ? c / h : c * sqrt (3.0) / h;
  r->su = (RwSolverSetup) {
    .grid = r->g, .surface_R = r->R, .surface_Y = r->Y, .time_step_s = 1.0 / fs,
    .boundary = RW_BOUNDARY_FV, .precision = precision, .n_steps = n_steps,
    .source_stencil = &r->src, .source_kind = RW_SOURCE_SOFT, .source_signal = r->sig,
    .n_receivers = r->n_rcv, .receiver_stencils = r->rcv, .threads = 1, .comm = comm,
  };
  return ok;
}

/* Receivers (bit for bit) and uniform-mode readings (bit for bit) of a
 * and b equal; notes where they first differ. */
static bool
ck_same_run (RwSolver *a, RwSolver *b, size_t n_rcv, size_t n, const char *what)
{
  size_t differ = 0;
  double peak = 0.0;
  for (size_t r = 0; r < n_rcv; r++)
    {
      const double *x = rw_solver_receiver (a, r), *y = rw_solver_receiver (b, r);
      for (size_t k = 0; k < n; k++)
        peak = fmax (peak, fabs (x[k]));
      if (memcmp (x, y, n * sizeof (double)) != 0)
        {
          size_t k = 0;
          while (x[k] == y[k])
            k++;
          RW_NOTE ("%s: receiver %zu differs first at step %zu: %.17g vs %.17g", what, r, k, x[k],
                   y[k]);
          differ++;
        }
    }
  RW_CHECK (differ == 0, "%s: %zu of %zu receivers differ from the uninterrupted run's", what,
            differ, n_rcv);
  RW_CHECK (peak > 1e-4, "%s: the receivers heard the source (peak %g)", what, peak);
  const size_t *sa, *sb;
  const double *ua, *ub;
  const size_t na = rw_solver_uniform_mode (a, &sa, &ua), nb = rw_solver_uniform_mode (b, &sb, &ub);
  const bool same_mode = na == nb && na > 2 && memcmp (sa, sb, na * sizeof *sa) == 0
                         && memcmp (ua, ub, na * sizeof *ua) == 0;
  RW_CHECK (same_mode, "%s: uniform-mode readings (%zu and %zu) equal", what, na, nb);
  return differ == 0 && same_mode;
}
