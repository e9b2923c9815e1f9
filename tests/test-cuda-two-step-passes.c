/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-cuda-two-step-passes — variant 13 (two time steps per pass by
 * temporal blocking, out of place into a spare pair of arrays) computes
 * exactly what single steps compute.
 *
 * On an L-shaped room (tall enough that its tiles are cut into several z
 * chunks: the test fails if they are not) and a small hall (sloped and
 * splayed surfaces), fp32 and fp16 storage, every boundary form, a soft and a hard
 * source, three receivers (one on the source cell): 301 steps in advance
 * calls of 7, 150 and 144 steps (odd lengths: single steps between passes)
 * with variant 13 and with variant 5 (single steps). Asserted:
 *   - the passes were used (2 steps a pass) except where they must not be;
 *   - receivers and both field arrays agree bit for bit;
 *   - a source on a plane where two z chunks of a tile meet, and one on
 *     the plane below it (each computed as a ring plane by the other
 *     chunk), both agree;
 *   - a soft source spread over an interpolation stencil of 8 cells on the
 *     seam and the plane below (issue #14) agrees too;
 *   - a source on an outside cell leaves the solver to single steps (the
 *     passes inject the source only where they update), still agreeing;
 *   - fp64 runs single steps (its passes measured slower).
 * RW_TEST_QUICK=1 (tests/gpu/run.sh, for the sanitizers): the L-shaped
 * room, fp32, FV only.
 * Skips (77) with the reason when no CUDA device is present.
 */
#include "gpu/cuda-test-room.h"
#include "../kernels/rw-cuda.h"

#if RW_HAVE_CUDA

#define N_STEPS 301
#define N_RCV 3

typedef struct {
  double rcv[N_RCV * N_STEPS];
  double *p, *q;
  int steps_per_pass;
} Run;

/* A source spread over an interpolation stencil (issue #14) instead of
 * src_cell, when set. */
static const RwGridStencil *run_stencil;

static bool
run (const RwGrid *g, const double *R, RwBoundary b, RwPrecision prec, int variant,
     RwSourceKind kind, size_t src_cell, const double *sig, const size_t *rcv, Run *out)
{
  char v[8];
  snprintf (v, sizeof v, "%d", variant);
  setenv ("ROOMWAVE_CUDA_VARIANT", v, 1);
  RwSolverSetup s = { 0 };
  s.grid = g;
  s.surface_R = R;
  s.boundary = b;
  s.precision = prec;
  s.n_steps = N_STEPS;
  s.source_cell = src_cell;
  s.source_stencil = run_stencil;
  s.source_kind = kind;
  s.source_signal = sig;
  s.n_receivers = N_RCV;
  s.receiver_cells = rcv;
  RwError err = { 0 };
  const RwBackendOps *ops = rw_cuda_backend ();
  void *st = ops->create (&s, &err);
  unsetenv ("ROOMWAVE_CUDA_VARIANT");
  RW_CHECK (st != NULL, "create: %s", err.message);
  if (!st)
    return false;
  out->steps_per_pass = rw_cuda_debug_steps_per_pass (st);
  const size_t chunks[] = { 7, 150, N_STEPS - 157 };
  size_t done = 0;
  bool ok = true;
  for (int c = 0; ok && c < 3; c++)
    {
      ok = ops->advance (st, done, chunks[c], out->rcv, N_STEPS, &err);
      RW_CHECK (ok, "advance: %s", err.message);
      done += chunks[c];
    }
  const size_t n = g->nx * g->ny * g->nz;
  out->p = malloc (n * sizeof (double));
  out->q = malloc (n * sizeof (double));
  ok = ok && ops->read_field (st, out->p, out->q, &err);
  RW_CHECK (ok, "read_field: %s", err.message);
  ops->destroy (st);
  return ok;
}

#define differing cuda_test_differing

static bool quick;

static void
check_room (int kind, double h, bool need_seam)
{
  double *R;
  RwGrid *g = cuda_test_room (kind, h, &R);
  /* The passes themselves: every node by its face count. A node whose
   * absorbing area is not its face count goes to the branch kernel after
   * each single step, and a room with such nodes runs no passes (checked
   * at the end). */
  float *area = g->area;
  g->area = NULL;
  const size_t n = g->nx * g->ny * g->nz;
  RW_NOTE ("room %d: grid %zu×%zu×%zu, %zu inside", kind, g->nx, g->ny, g->nz, g->n_inside);
  double sig[N_STEPS];
  for (int k = 0; k < N_STEPS; k++)
    sig[k] = k < 40 ? sin (0.3 * k) * exp (-0.01 * (k - 20) * (k - 20)) : 0.0;
  /* on a seam between two z chunks of the passes, and on the plane below
   * it, both near the middle of the room's footprint */
  const int seam = cuda_test_tb_seam (g, R);
  if (need_seam)
    RW_CHECK (seam > 0, "room %d: no seam between z chunks (%d): the test needs a taller room",
              kind, seam);
  const double fz = seam > 0 ? (seam + 0.5) / (double) g->nz : 0.3;
  const double fz1 = seam > 0 ? (seam - 0.5) / (double) g->nz : 0.6;
  const size_t sources[2] = { cuda_test_cell (g, 0.45, 0.5, fz), cuda_test_cell (g, 0.55, 0.5, fz1) };
  const size_t plane = g->nx * g->ny;
  if (seam > 0)
    RW_CHECK ((int) (sources[0] / plane) == seam && (int) (sources[1] / plane) == seam - 1,
              "room %d: sources on planes %zu and %zu, not on the seam %d and below it", kind,
              sources[0] / plane, sources[1] / plane, seam);
  RW_NOTE ("  sources on planes %zu and %zu (a seam between z chunks: %d)", sources[0] / plane,
           sources[1] / plane, seam);
  static const char *const forms[] = { "FV", "LRS", "Savioja" };
  for (int si = 0; si < 2; si++)
    {
      const size_t rcv[N_RCV] = { sources[si], cuda_test_cell (g, 0.7, 0.4, 0.6),
                                  cuda_test_cell (g, 0.2, 0.2, 0.8) };
      for (int pi = 0; pi < (quick ? 1 : 2); pi++)
        for (int b = 0; b < (quick ? 1 : 3); b++)
          for (int hard = 0; hard < 2; hard++)
            {
              const RwPrecision prec = pi ? RW_PRECISION_F16 : RW_PRECISION_F32;
              const RwSourceKind sk = hard ? RW_SOURCE_HARD : RW_SOURCE_SOFT;
              Run a = { 0 }, c = { 0 };
              if (!run (g, R, (RwBoundary) b, prec, 13, sk, sources[si], sig, rcv, &a)
                  || !run (g, R, (RwBoundary) b, prec, 5, sk, sources[si], sig, rcv, &c))
                goto next;
              RW_CHECK (a.steps_per_pass == 2, "room %d %s %s: variant 13 ran %d steps a pass",
                        kind, pi ? "fp16" : "fp32", forms[b], a.steps_per_pass);
              const size_t dr = differing (a.rcv, c.rcv, N_RCV * N_STEPS);
              const size_t dp = differing (a.p, c.p, n), dq = differing (a.q, c.q, n);
              double peak = 0;
              for (int k = 0; k < N_RCV * N_STEPS; k++)
                peak = fmax (peak, fabs (a.rcv[k]));
              RW_CHECK (dr == 0 && dp == 0 && dq == 0 && peak > 1e-3,
                        "room %d source %d %s %s %s: %zu receiver samples, %zu + %zu field "
                        "values differ from single steps (peak %.3g)", kind, si,
                        pi ? "fp16" : "fp32", forms[b], hard ? "hard" : "soft", dr, dp, dq, peak);
            next:
              free (a.p), free (a.q), free (c.p), free (c.q);
            }
    }
  RW_NOTE ("  %s × soft/hard × 2 sources: passes = single steps, bit "
           "for bit", quick ? "fp32 × FV" : "fp32/fp16 × FV/LRS/Savioja");

  /* a soft source spread over a trilinear stencil (issue #14) of 8 cells
   * on the seam plane and the one below: the pass kernel injects each
   * cell, with its weight, in the thread that holds it */
  if (seam > 0)
    {
      RwGridStencil st;
      double pt[3];
      const size_t c0 = sources[1];
      const double f[3] = { (double) (c0 % g->nx) + 0.37, (double) ((c0 / g->nx) % g->ny) + 0.71,
                            (double) (seam - 1) + 0.42 };
      for (int k = 0; k < 3; k++)
        pt[k] = g->origin[k] + g->h * f[k];
      RwError err = { 0 };
      const bool located = rw_grid_interp (g, pt, "source", &st, &err);
      RW_CHECK (located && st.n == 8 && (int) (st.cell[0] / plane) == seam - 1
                && (int) (st.cell[7] / plane) == seam,
                "room %d: spread source: %zu cells %s", kind, st.n, err.message);
      const size_t rcv[N_RCV] = { st.cell[0], st.cell[7], cuda_test_cell (g, 0.7, 0.4, 0.6) };
      for (int pi = 0; located && pi < 2; pi++)
        {
          const RwPrecision prec = pi ? RW_PRECISION_F16 : RW_PRECISION_F32;
          Run a = { 0 }, c = { 0 };
          run_stencil = &st;
          if (run (g, R, RW_BOUNDARY_FV, prec, 13, RW_SOURCE_SOFT, 0, sig, rcv, &a)
              && run (g, R, RW_BOUNDARY_FV, prec, 5, RW_SOURCE_SOFT, 0, sig, rcv, &c))
            {
              const size_t dr = differing (a.rcv, c.rcv, N_RCV * N_STEPS);
              const size_t dp = differing (a.p, c.p, n), dq = differing (a.q, c.q, n);
              RW_NOTE ("  spread source, %s: %d steps a pass; %zu receiver samples, %zu + %zu "
                       "field values differ from single steps", pi ? "fp16" : "fp32",
                       a.steps_per_pass, dr, dp, dq);
              double peak = 0;
              for (int k = 0; k < N_RCV * N_STEPS; k++)
                peak = fmax (peak, fabs (a.rcv[k]));
              RW_CHECK (a.steps_per_pass == 2 && dr == 0 && dp == 0 && dq == 0 && peak > 1e-3,
                        "room %d spread source %s: passes differ from single steps", kind,
                        pi ? "fp16" : "fp32");
            }
          run_stencil = NULL;
          free (a.p), free (a.q), free (c.p), free (c.q);
        }
    }

  /* a source on an outside cell: single steps (and still the same) */
  size_t outside = 0;
  while (outside < n && g->K[outside] != 0)
    outside++;
  const size_t rcv[N_RCV] = { sources[0], sources[1], cuda_test_cell (g, 0.7, 0.4, 0.6) };
  Run a = { 0 }, c = { 0 };
  if (run (g, R, RW_BOUNDARY_FV, RW_PRECISION_F32, 13, RW_SOURCE_SOFT, outside, sig, rcv, &a)
      && run (g, R, RW_BOUNDARY_FV, RW_PRECISION_F32, 5, RW_SOURCE_SOFT, outside, sig, rcv, &c))
    {
      RW_CHECK (a.steps_per_pass == 1, "source outside: %d steps a pass", a.steps_per_pass);
      RW_CHECK (differing (a.rcv, c.rcv, N_RCV * N_STEPS) == 0 && differing (a.p, c.p, n) == 0,
                "source outside: results differ");
    }
  free (a.p), free (a.q), free (c.p), free (c.q);
  /* fp64: single steps */
  Run d = { 0 };
  if (run (g, R, RW_BOUNDARY_FV, RW_PRECISION_F64, 13, RW_SOURCE_SOFT, sources[0], sig, rcv, &d))
    RW_CHECK (d.steps_per_pass == 1, "fp64: %d steps a pass", d.steps_per_pass);
  free (d.p), free (d.q);
  /* with the areas back, variant 13 falls back to single steps */
  g->area = area;
  if (area != NULL)
    {
      bool corrected = false;
      size_t rank = 0;
      for (size_t i = 0; i < n && !corrected; i++)
        if (g->K[i] > 0 && g->K[i] < 6)
          corrected = rw_grid_node_area_corrected (g, rank++, g->K[i]);
      const size_t rcv1[N_RCV] = { cuda_test_cell (g, 0.5, 0.5, 0.5), cuda_test_cell (g, 0.7, 0.4, 0.6),
                                   cuda_test_cell (g, 0.2, 0.2, 0.8) };
      Run e = { 0 };
      if (corrected && run (g, R, RW_BOUNDARY_FV, RW_PRECISION_F32, 13, RW_SOURCE_SOFT, rcv1[0], sig,
                            rcv1, &e))
        RW_CHECK (e.steps_per_pass == 1, "room %d: area-corrected nodes, yet %d steps a pass",
                  kind, e.steps_per_pass);
      free (e.p), free (e.q);
    }
  free (R);
  rw_grid_free (g);
}

int
main (void)
{
  if (!cuda_test_require ())
    return rw_test_finish ();
  quick = getenv ("RW_TEST_QUICK") != NULL;
  check_room (0, 0.07, true);
  if (!quick)
    check_room (2, 0.07, false);
  return rw_test_finish ();
}

#endif /* RW_HAVE_CUDA */
