/* SPDX-License-Identifier: GPL-3.0-or-later */
/* solver-bad-setup: every setup a caller can get wrong is refused by
 * rw_solver_new with a clear message (and no crash): source or receiver
 * outside the room or beyond the grid, reflection factors outside [−1, 1]
 * or not finite, R = −1 with an admittance boundary, fp16 on the CPU,
 * CUDA when it is not built in or has no device, zero steps, no grid, a
 * grid too large for the memory; and advancing past the end of the run. */
#include "rw-test.h"
#include "test-solver-grid.h"

#include <string.h>

static RwGrid *g;
static double sig[50];
static double R;
static size_t rcv[2];

static RwSolverSetup
base (void)
{
  R = 0.8;
  rcv[0] = test_cell (g, 2, 2, 2);
  rcv[1] = test_cell (g, 5, 5, 5);
  return test_setup (g, &R, RW_BOUNDARY_FV, RW_PRECISION_F32, 50, sig, test_cell (g, 4, 4, 4),
                     2, rcv);
}

int
main (void)
{
  g = test_grid_new (10, 9, 8, 0.1, NULL, NULL);
  RwSolverSetup su;
  RwError err;

  /* The base setup is fine. */
  su = base ();
  RwSolver *ok = rw_solver_new (&su, RW_BACKEND_CPU, &err);
  RW_CHECK (ok != NULL, "the base setup: %s", ok ? "" : err.message);

  su = base (); su.source_cell = 0;
  test_refused ("source in the outside layer", su, RW_BACKEND_CPU, RW_ERROR_INPUT, "outside the room");
  su = base (); su.source_cell = g->nx * g->ny * g->nz + 7;
  test_refused ("source beyond the grid", su, RW_BACKEND_CPU, RW_ERROR_INPUT, "beyond the grid");
  su = base (); rcv[1] = rw_grid_index (g, 0, 3, 3);
  test_refused ("receiver 2 outside", su, RW_BACKEND_CPU, RW_ERROR_INPUT, "receiver 2");
  su = base (); R = 1.5;
  test_refused ("R = 1.5", su, RW_BACKEND_CPU, RW_ERROR_INPUT, "1.5");
  su = base (); R = -1.2;
  test_refused ("R = -1.2", su, RW_BACKEND_CPU, RW_ERROR_INPUT, "-1.2");
  su = base (); R = NAN;
  test_refused ("R = NaN", su, RW_BACKEND_CPU, RW_ERROR_INPUT, "reflection factor");
  su = base (); R = -1.0;
  test_refused ("R = -1 with FV", su, RW_BACKEND_CPU, RW_ERROR_INPUT, "Savioja");
  su = base (); R = -1.0; su.boundary = RW_BOUNDARY_LRS;
  test_refused ("R = -1 with LRS", su, RW_BACKEND_CPU, RW_ERROR_INPUT, "Savioja");
  su = base (); su.surface_R = NULL;
  test_refused ("no reflection factors", su, RW_BACKEND_CPU, RW_ERROR_INPUT, NULL);
  su = base (); su.precision = RW_PRECISION_F16;
  test_refused ("fp16 on the CPU", su, RW_BACKEND_CPU, RW_ERROR_UNSUPPORTED, "fp16");
  su = base (); su.precision = (RwPrecision) 7;
  test_refused ("precision 7", su, RW_BACKEND_CPU, RW_ERROR_INPUT, NULL);
  su = base (); su.boundary = (RwBoundary) 9;
  test_refused ("boundary 9", su, RW_BACKEND_CPU, RW_ERROR_INPUT, NULL);
  su = base (); su.n_steps = 0;
  test_refused ("zero steps", su, RW_BACKEND_CPU, RW_ERROR_INPUT, "steps");
  su = base (); su.source_signal = NULL;
  test_refused ("no source signal", su, RW_BACKEND_CPU, RW_ERROR_INPUT, NULL);
  su = base (); su.grid = NULL;
  test_refused ("no grid", su, RW_BACKEND_CPU, RW_ERROR_INPUT, "grid");
  su = base ();
  test_refused ("kind 5", su, (RwBackendKind) 5, RW_ERROR_INPUT, NULL);

  /* R = −1 is fine with the Savioja termination. */
  su = base (); R = -1.0; su.boundary = RW_BOUNDARY_SAVIOJA;
  RwSolver *sav = rw_solver_new (&su, RW_BACKEND_CPU, &err);
  RW_CHECK (sav != NULL, "R = -1 with Savioja: %s", sav ? "" : err.message);
  rw_solver_free (sav);

  /* CUDA: here either not built in or without a device. */
  const RwBackendOps *cuda = rw_cuda_backend ();
  char why[256] = "";
  if (cuda == NULL || !cuda->available (why, sizeof why))
    {
      su = base ();
      test_refused ("CUDA without CUDA", su, RW_BACKEND_CUDA, RW_ERROR_UNSUPPORTED,
               cuda == NULL ? "built without CUDA" : NULL);
      su = base (); su.precision = RW_PRECISION_F16;
      test_refused ("fp16 with auto, no CUDA", su, RW_BACKEND_AUTO, RW_ERROR_UNSUPPORTED, "fp16");
      su = base ();
      RwSolver *a = rw_solver_new (&su, RW_BACKEND_AUTO, &err);
      RW_CHECK (a != NULL && strcmp (rw_solver_backend_name (a), "cpu") == 0,
                "auto falls back to the CPU");
      rw_solver_free (a);
    }
  else
    RW_NOTE ("a CUDA device is present (%s): the no-CUDA checks are skipped", cuda->name);

  /* A grid far beyond the memory: refused before any allocation, with the
   * numbers. Only K at the source is read before the check. */
  RwGrid huge = *g;
  huge.nx = huge.ny = huge.nz = 20000;
  huge.n_inside = huge.n_boundary = 1000;
  su = base ();
  su.grid = &huge;
  su.source_cell = test_cell (g, 4, 4, 4);
  su.n_receivers = 0;
  test_refused ("a 20000³ grid", su, RW_BACKEND_CPU, RW_ERROR_MEMORY, "GiB");

  /* Advancing past the end of the run: refused, the solver goes on. */
  RW_CHECK (rw_solver_advance (ok, 40, &err), "40 steps: %s", err.message);
  RW_CHECK (!rw_solver_advance (ok, 11, &err) && err.code == RW_ERROR_INPUT,
            "past the end: code %d", err.code);
  RW_NOTE ("%-28s → \"%s\"", "past the end", err.message);
  RW_CHECK (rw_solver_advance (ok, 10, &err) && rw_solver_step (ok) == 50,
            "the last 10 steps after the refusal");
  /* Slices: bad axis and index refused. */
  float slice[200];
  RW_CHECK (!rw_solver_read_slice (ok, 3, 0, slice, &err) && err.code == RW_ERROR_INPUT, "axis 3");
  RW_CHECK (!rw_solver_read_slice (ok, 2, g->nz, slice, &err) && err.code == RW_ERROR_INPUT,
            "z beyond the grid");
  RW_CHECK (rw_solver_read_slice (ok, 2, 5, slice, &err), "a z slice");
  rw_solver_free (ok);
  rw_grid_free (g);
  return rw_test_finish ();
}
