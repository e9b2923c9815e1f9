/* solver-two-steps: the CPU backend's two-steps-per-pass mode (temporal
 * blocking, engine/rw-cpu-backend.c) computes exactly what single steps
 * compute — receivers and both fields bit for bit — on an L-shaped room,
 * a sphere and a box with a rod, for every boundary form, in fp32 and
 * fp64, with a source signal of many samples, receivers on and beside the
 * source, and advance() called in chunks of odd and even length (a pair
 * never straddles two calls). A non-finite source sample stops both modes
 * at the same step with the same message. RW_CPU_TWO_STEPS=0/1 chooses the
 * mode when a solver is created. */
#include "rw-test.h"
#include "test-solver-grid.h"

static const char *form_name[] = { "FV", "LRS", "Savioja" };

typedef struct {
  double *p, *q, *rcv[3];
  char error[1100];
  bool ok;
} Run;

static Run
run (const RwGrid *g, RwBoundary form, RwPrecision prec, bool two, const double *signal,
     size_t steps, const size_t *rcv, const size_t *chunks)
{
  Run r = { 0 };
  const size_t n = g->nx * g->ny * g->nz;
  double R = 0.7;
  double *sig = malloc (steps * sizeof (double));
  RwSolverSetup su = test_setup (g, &R, form, prec, steps, sig, rcv[0], 3, rcv);
  memcpy (sig, signal, steps * sizeof (double));
  su.threads = 3;   /* more threads than strips are deep: the phases share planes */
  setenv ("RW_CPU_TWO_STEPS", two ? "1" : "0", 1);
  RwError err;
  RwSolver *s = rw_solver_new (&su, RW_BACKEND_CPU, &err);
  unsetenv ("RW_CPU_TWO_STEPS");
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
  /* a source in the middle of the room and two receivers: on the source
   * and two cells above it (planes the two steps of a pass both reach) */
  size_t src = test_cell (g, 3, 3, 3);
  size_t rcv[3] = { src, src, src + 2 * g->nx * g->ny };
  RW_CHECK (g->K[src] != 0 && g->K[rcv[2]] != 0, "%s: source or receiver outside", shape);
  double signal[41];
  for (size_t k = 0; k < steps; k++)
    signal[k] = sin (0.7 * (double) k) * exp (-0.05 * (double) k);
  const size_t chunks[] = { 5, 12, 1, 23, 0 };
  Run a = run (g, form, prec, false, signal, steps, rcv, chunks);
  Run b = run (g, form, prec, true, signal, steps, rcv, chunks);
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
      RW_NOTE ("%s %-7s %s: %zu field cells and %zu receiver samples differ (receiver peak %.3g)",
               shape, form_name[form], prec == RW_PRECISION_F64 ? "fp64" : "fp32", diff, rdiff,
               peak);
      RW_CHECK (diff == 0 && rdiff == 0 && peak > 0, "%s %s: two steps per pass differ from single "
                "steps in %zu cells and %zu receiver samples", shape, form_name[form], diff, rdiff);
    }
  run_free (&a);
  run_free (&b);

  /* a NaN in the source signal at step 18 (the second step of a pair in
   * chunks of 6) and at step 23 (the first of a pair) */
  const size_t nan_at[2] = { 19, 24 }, chunks6[] = { 6, 6, 6, 6, 6, 6, 5, 0 };
  for (int c = 0; c < 2; c++)
    {
      double bad[41];
      memcpy (bad, signal, sizeof bad);
      bad[nan_at[c]] = NAN;
      Run x = run (g, form, prec, false, bad, steps, rcv, chunks6);
      Run y = run (g, form, prec, true, bad, steps, rcv, chunks6);
      char want[32];
      snprintf (want, sizeof want, "at step %zu:", nan_at[c]);
      RW_CHECK (!x.ok && !y.ok && strstr (x.error, want) && strcmp (x.error, y.error) == 0,
                "%s %s NaN at %zu: single “%s”, two “%s”", shape, form_name[form], nan_at[c],
                x.error, y.error);
      run_free (&x);
      run_free (&y);
    }
}

int
main (void)
{
  test_each_shape_form_precision (check);
  return rw_test_finish ();
}
