/* SPDX-License-Identifier: GPL-3.0-or-later */
/* solver-unstable-detected: a field that is non-finite, or that grows
 * after the source has stopped, stops the run with RW_ERROR_UNSTABLE and a
 * message naming the step —
 *  1. a NaN in the source signal at step 37 (both precisions): the error
 *     names step 37, and the receiver samples before it are finite;
 *  2. a genuine blow-up: Savioja's 1-D termination in an L-shaped room
 *     with R = 0.95 grows exponentially (docs/SOLVER.md, "Stability"). In
 *     fp32 it used to overflow after some thousands of steps; the growth
 *     monitor (rw-solver.h) now stops it at its first readings, while the
 *     field is finite: the message says the energy grew and names the
 *     reading's step k (a multiple of RW_ENERGY_CHECK_STEPS), a fresh
 *     solver advanced to k − 1 steps runs, and the next step fails naming
 *     k. Without the monitor the run goes on to step 3000 or so.
 * After the failure, further advances fail with the same message. */
#include "rw-test.h"
#include "test-solver-grid.h"

#include <string.h>

static void
nan_source (RwPrecision prec)
{
  double size[3] = { 16, 12, 10 };
  RwGrid *g = test_grid_new (16, 12, 10, 0.1, NULL, size);
  double R = 0.8, sig[100];
  size_t rcv = test_cell (g, 3, 3, 3);
  RwSolverSetup su = test_setup (g, &R, RW_BOUNDARY_FV, prec, 100, sig, test_cell (g, 8, 6, 5),
                                 1, &rcv);
  sig[37] = NAN;
  RwError err;
  RwSolver *s = rw_solver_new (&su, RW_BACKEND_CPU, &err);
  RW_CHECK (s != NULL, "rw_solver_new");
  bool ok = rw_solver_run (s, NULL, NULL, NULL, &err);
  RW_CHECK (!ok && err.code == RW_ERROR_UNSTABLE, "NaN source: ok %d code %d", ok, err.code);
  RW_NOTE ("NaN at step 37 (%s): \"%s\"", prec == RW_PRECISION_F64 ? "fp64" : "fp32", err.message);
  RW_CHECK (strstr (err.message, "step 37") != NULL, "the message names step 37: %s", err.message);
  const double *y = rw_solver_receiver (s, 0);
  bool finite = true;
  for (size_t k = 0; k < rw_solver_step (s); k++)
    finite = finite && isfinite (y[k]);
  RW_CHECK (finite, "samples before the failure are finite");
  RwError again;
  RW_CHECK (!rw_solver_advance (s, 1, &again) && again.code == RW_ERROR_UNSTABLE
            && strcmp (again.message, err.message) == 0, "a later advance repeats the failure");
  rw_solver_free (s);
  rw_grid_free (g);
}

static size_t
failing_step (const char *msg)
{
  const char *p = strstr (msg, "after ");
  return p != NULL ? (size_t) strtoul (p + 6, NULL, 10) : SIZE_MAX;
}

static void
blow_up (void)
{
  double size[3] = { 14, 12, 10 };
  RwGrid *g = test_grid_new (14, 12, 10, 0.1, test_inside_l, size);
  const size_t n = 40000;
  double R = 0.95, *sig = malloc (n * sizeof (double));
  size_t rcv = test_cell (g, 5, 5, 5);
  RwSolverSetup su = test_setup (g, &R, RW_BOUNDARY_SAVIOJA, RW_PRECISION_F32, n, sig,
                                 test_cell (g, 2, 3, 4), 1, &rcv);
  RwError err;
  RwSolver *s = rw_solver_new (&su, RW_BACKEND_CPU, &err);
  bool ok = rw_solver_run (s, NULL, NULL, NULL, &err);
  RW_CHECK (!ok && err.code == RW_ERROR_UNSTABLE, "blow-up: ok %d code %d", ok, err.code);
  size_t k = failing_step (err.message);
  RW_NOTE ("Savioja L-room R=0.95 fp32: \"%s\"", err.message);
  RW_CHECK (k > 0 && k < n && k % RW_ENERGY_CHECK_STEPS == 0, "a reading's step is named: %s",
            err.message);
  RW_CHECK (strstr (err.message, "energy grew") != NULL && strstr (err.message, "Savioja") != NULL,
            "the message says the energy grew and names the Savioja boundary: %s", err.message);
  rw_solver_free (s);

  if (k > 0 && k < n)
    {
      /* Steps 0 … k−2 are fine: a fresh run of k − 1 steps succeeds and
       * its field is finite; the step that completes the reading fails. */
      s = rw_solver_new (&su, RW_BACKEND_CPU, &err);
      ok = rw_solver_advance (s, k - 1, &err);
      RW_CHECK (ok, "the %zu steps before the named one run: %s", k - 1, ok ? "" : err.message);
      double e = test_energy (s, g);
      RW_CHECK (isfinite (e), "the field before step %zu is finite (E = %g)", k, e);
      RW_NOTE ("energy just before step %zu: %.3g (it started at about 1)", k, e);
      ok = rw_solver_advance (s, 1, &err);
      RW_CHECK (!ok && failing_step (err.message) == k, "step %zu fails: %s", k, err.message);
      rw_solver_free (s);
    }
  free (sig);
  rw_grid_free (g);
}

int
main (void)
{
  nan_source (RW_PRECISION_F64);
  nan_source (RW_PRECISION_F32);
  blow_up ();
  return rw_test_finish ();
}
