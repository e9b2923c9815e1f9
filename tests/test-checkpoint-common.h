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
#include "test-slab-room.h"

#define CK_MAX_RCV 4

typedef struct {
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
  const double h = slab_test_h (lattice);
  r->g = slab_test_room (lattice, alpha_shift, &r->Y, &r->R);
  if (r->g == NULL)
    return false;
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
  double peak = 0.0;
  const size_t differ = receivers_differ (a, b, n_rcv, n, &peak);
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
