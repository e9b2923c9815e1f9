/* SPDX-License-Identifier: GPL-3.0-or-later */
/* solver-steps-per-pass: the CPU backend's several-steps-per-pass mode
 * (temporal blocking, engine/rw-cpu-backend.c), with 2, 3, 4 and 7 steps
 * per pass, computes exactly what single steps compute — receivers and
 * both fields bit for bit — on an L-shaped room, a sphere and a box with a
 * rod, for every boundary form, in fp32 and fp64, with a source signal of
 * many samples, receivers on, above and below the source, and advance()
 * called in chunks of odd and even length (a pass never straddles two
 * calls; a short chunk makes a short pass). A non-finite source sample
 * stops every mode at the same step with the same message.
 * RW_CPU_STEPS_PER_PASS chooses the mode when a solver is created. */
#include "rw-test.h"
#include "test-solver-grid.h"

static const char *form_name[] = { "FV", "LRS", "Savioja" };

typedef struct {
  double *p, *q, *rcv[3];
  char error[1100];
  bool ok;
} Run;

static Run
run (const RwGrid *g, RwBoundary form, RwPrecision prec, int per_pass, const double *signal,
     size_t steps, const size_t *rcv, const size_t *chunks)
{
  Run r = { 0 };
  const size_t n = g->nx * g->ny * g->nz;
  double R = 0.7;
  double *sig = malloc (steps * sizeof (double));
  RwSolverSetup su = test_setup (g, &R, form, prec, steps, sig, rcv[0], 3, rcv);
  memcpy (sig, signal, steps * sizeof (double));
  su.threads = 3;   /* more threads than strips are deep: the phases share planes */
  char k[8];
  snprintf (k, sizeof k, "%d", per_pass);
  setenv ("RW_CPU_STEPS_PER_PASS", k, 1);
  RwError err;
  RwSolver *s = rw_solver_new (&su, RW_BACKEND_CPU, &err);
  unsetenv ("RW_CPU_STEPS_PER_PASS");
  RW_CHECK (s != NULL, "rw_solver_new: %s", s ? "" : err.message);
  if (s == NULL)
    {
      free (sig);
      return r;
    }
  r.ok = true;
  for (const size_t *c = chunks; r.ok && *c; c++)
    r.ok = rw_solver_advance (s, *c, &err);
  if (!r.ok)
    snprintf (r.error, sizeof r.error, "%s", err.message);
  else
    {
      r.p = malloc (n * sizeof (double));
      r.q = malloc (n * sizeof (double));
      r.ok = rw_solver_read_field (s, r.p, r.q, &err);
      for (int k = 0; k < 3; k++)
        {
          r.rcv[k] = malloc (steps * sizeof (double));
          memcpy (r.rcv[k], rw_solver_receiver (s, (size_t) k), steps * sizeof (double));
        }
    }
  rw_solver_free (s);
  free (sig);
  return r;
}

static void
run_free (Run *r)
{
  free (r->p);
  free (r->q);
  for (int k = 0; k < 3; k++)
    free (r->rcv[k]);
}

static void
check (const char *shape, RwGrid *g, RwBoundary form, RwPrecision prec)
{
  const size_t n = g->nx * g->ny * g->nz, steps = 41;
  /* a source in the room and receivers on it, two planes above and one
   * below (planes that several steps of a pass reach in one phase) */
  size_t src = test_cell (g, 3, 3, 3), nxy = g->nx * g->ny;
  size_t rcv[3] = { src, src + 2 * nxy, src - nxy };
  RW_CHECK (g->K[src] != 0 && g->K[rcv[1]] != 0 && g->K[rcv[2]] != 0,
            "%s: source or receiver outside", shape);
  double signal[41];
  for (size_t k = 0; k < steps; k++)
    signal[k] = sin (0.7 * (double) k) * exp (-0.05 * (double) k);
  const size_t chunks[] = { 5, 12, 1, 23, 0 };
  Run a = run (g, form, prec, 1, signal, steps, rcv, chunks);
  const int per_pass[] = { 2, 3, 4, 7 };
  for (int m = 0; m < 4; m++)
    {
      Run b = run (g, form, prec, per_pass[m], signal, steps, rcv, chunks);
      RW_CHECK (a.ok && b.ok, "%s: %s / %s", shape, a.error, b.error);
      if (a.ok && b.ok)
        {
          size_t diff = 0;
          for (size_t i = 0; i < n; i++)
            diff += a.p[i] != b.p[i] || a.q[i] != b.q[i];
          size_t rdiff = 0;
          double peak = 0;
          for (int k = 0; k < 3; k++)
            for (size_t t = 0; t < steps; t++)
              {
                rdiff += a.rcv[k][t] != b.rcv[k][t];
                peak = fmax (peak, fabs (a.rcv[k][t]));
              }
          RW_NOTE ("%s %-7s %s, %d steps per pass: %zu field cells and %zu receiver samples "
                   "differ (receiver peak %.3g)", shape, form_name[form],
                   prec == RW_PRECISION_F64 ? "fp64" : "fp32", per_pass[m], diff, rdiff, peak);
          RW_CHECK (diff == 0 && rdiff == 0 && peak > 0, "%s %s: %d steps per pass differ from "
                    "single steps in %zu cells and %zu receiver samples", shape, form_name[form],
                    per_pass[m], diff, rdiff);
        }
      run_free (&b);
    }
  run_free (&a);

  /* a NaN in the source signal at steps 19 and 24: in chunks of 6, the
   * second step of a pass of 2 and the first, the middle of a pass of 4 */
  const size_t nan_at[2] = { 19, 24 }, chunks6[] = { 6, 6, 6, 6, 6, 6, 5, 0 };
  for (int c = 0; c < 2; c++)
    {
      double bad[41];
      memcpy (bad, signal, sizeof bad);
      bad[nan_at[c]] = NAN;
      Run x = run (g, form, prec, 1, bad, steps, rcv, chunks6);
      char want[32];
      snprintf (want, sizeof want, "at step %zu:", nan_at[c]);
      RW_CHECK (!x.ok && strstr (x.error, want), "%s %s NaN at %zu: “%s”", shape, form_name[form],
                nan_at[c], x.error);
      for (int m = 0; m < 4; m++)
        {
          Run y = run (g, form, prec, per_pass[m], bad, steps, rcv, chunks6);
          RW_CHECK (!y.ok && strcmp (x.error, y.error) == 0, "%s %s NaN at %zu, %d steps per "
                    "pass: “%s”, single steps: “%s”", shape, form_name[form], nan_at[c],
                    per_pass[m], y.error, x.error);
          run_free (&y);
        }
      run_free (&x);
    }
}

int
main (void)
{
  test_each_shape_form_precision (check);
  return rw_test_finish ();
}
