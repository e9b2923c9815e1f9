/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-cuda-interp-source — the CUDA backend spreads an off-lattice soft
 * source over its interpolation stencil (issue #14, RwSolverSetup.
 * source_stencil) as the CPU backend does, and the front end's
 * interpolated receivers read it alike.
 *
 * On the L-shaped room of the other CUDA tests, a source stencil of 8
 * cells (trilinear, rw_grid_interp) on the plane where variant 13 cuts
 * its tiles into two z chunks and the plane below, three interpolated
 * receivers, 301 steps, fp64 (single steps) through the solver front end:
 * CPU and CUDA receivers (each the weighted sum of its stencil cells) and
 * the final fields agree to rounding, max |Δ| / max |CPU| < 1e-10, as
 * cuda-vs-cpu asks of a one-cell source (both add (T) (w·s)). Variant
 * 13's passes with such a source: cuda-two-step-passes.
 * Skips (77) with the reason when no CUDA device is present: run it on a
 * GPU machine (tests/gpu/run.sh).
 */
#include "gpu/cuda-test-room.h"
#include "../kernels/rw-cuda.h"

#if RW_HAVE_CUDA

#define N_STEPS 301

static double sig[N_STEPS];


/* Through the front end: interpolated receivers; rcv 3 × N_STEPS, field. */
static bool
run_solver (const RwGrid *g, const double *R, RwBackendKind kind, const RwGridStencil *src,
            const RwGridStencil *rst, double *rcv, double *field, double *field_prev)
{
  RwSolverSetup s = { 0 };
  s.grid = g;
  s.surface_R = R;
  s.boundary = RW_BOUNDARY_FV;
  s.precision = RW_PRECISION_F64;
  s.n_steps = N_STEPS;
  s.source_stencil = src;
  s.source_kind = RW_SOURCE_SOFT;
  s.source_signal = sig;
  s.n_receivers = 3;
  s.receiver_stencils = rst;
  RwError err = { 0 };
  RwSolver *sv = rw_solver_new (&s, kind, &err);
  bool ok = sv != NULL && rw_solver_advance (sv, N_STEPS, &err)
            && rw_solver_read_field (sv, field, field_prev, &err);
  RW_CHECK (ok, "%s: %s", kind == RW_BACKEND_CPU ? "CPU" : "CUDA", err.message);
  for (size_t r = 0; ok && r < 3; r++)
    memcpy (rcv + r * N_STEPS, rw_solver_receiver (sv, r), N_STEPS * sizeof (double));
  rw_solver_free (sv);
  return ok;
}

/* The point at fractions f of the bounding box, nudged off the lattice. */
static void
point (const RwGrid *g, double fx, double fy, double fz, const double off[3], double p[3])
{
  const double f[3] = { fx * g->nx, fy * g->ny, fz * g->nz };
  for (int k = 0; k < 3; k++)
    p[k] = g->origin[k] + g->h * (floor (f[k]) + off[k]);
}

int
main (void)
{
  if (!cuda_test_require ())
    return rw_test_finish ();
  double *R;
  RwGrid *g = cuda_test_room (0, 0.05, &R);
  const size_t n = g->nx * g->ny * g->nz, plane = g->nx * g->ny;
  for (int k = 0; k < N_STEPS; k++)
    sig[k] = k < 40 ? sin (0.3 * k) * exp (-0.01 * (k - 20) * (k - 20)) : 0.0;
  const int seam = cuda_test_tb_seam (g, R);
  RW_CHECK (seam > 1, "no seam between z chunks (%d)", seam);
  /* the source between the planes seam − 1 and seam, off the lattice in
   * x and y too: 8 cells on the two planes */
  double p[3];
  const double fz = (seam - 1 + 0.5) / (double) g->nz;
  point (g, 0.45, 0.5, fz, (const double[3]) { 0.37, 0.71, 0.0 }, p);
  p[2] = g->origin[2] + g->h * (seam - 1 + 0.42);
  RwGridStencil src, rst[3];
  RwError err = { 0 };
  RW_CHECK (rw_grid_interp (g, p, "source", &src, &err) && src.n == 8, "source: %zu cells %s",
            src.n, err.message);
  size_t zs[2] = { SIZE_MAX, 0 };
  for (size_t i = 0; i < src.n; i++)
    zs[0] = src.cell[i] / plane < zs[0] ? src.cell[i] / plane : zs[0],
    zs[1] = src.cell[i] / plane > zs[1] ? src.cell[i] / plane : zs[1];
  RW_NOTE ("source stencil: %zu cells on planes %zu … %zu (seam between z chunks: %d)", src.n,
           zs[0], zs[1], seam);
  RW_CHECK ((int) zs[0] == seam - 1 && (int) zs[1] == seam, "source planes %zu … %zu, not %d, %d",
            zs[0], zs[1], seam - 1, seam);
  const double fr[3][3] = { { 0.7, 0.4, 0.6 }, { 0.2, 0.2, 0.8 }, { 0.5, 0.45, 0.3 } };
  for (int r = 0; r < 3; r++)
    {
      point (g, fr[r][0], fr[r][1], fr[r][2], (const double[3]) { 0.23, 0.58, 0.81 }, p);
      RW_CHECK (rw_grid_interp (g, p, "receiver", &rst[r], &err), "receiver %d: %s", r, err.message);
    }

  /* fp64: CPU against CUDA through the front end */
  double *rc = malloc (3 * N_STEPS * sizeof (double)), *rg = malloc (3 * N_STEPS * sizeof (double));
  double *fc = malloc (2 * n * sizeof (double)), *fg = malloc (2 * n * sizeof (double));
  if (run_solver (g, R, RW_BACKEND_CPU, &src, rst, rc, fc, fc + n)
      && run_solver (g, R, RW_BACKEND_CUDA, &src, rst, rg, fg, fg + n))
    {
      double dr = 0, pr = 0, df = 0, pf = 0;
      for (size_t i = 0; i < 3 * N_STEPS; i++)
        dr = fmax (dr, fabs (rc[i] - rg[i])), pr = fmax (pr, fabs (rc[i]));
      for (size_t i = 0; i < 2 * n; i++)
        df = fmax (df, fabs (fc[i] - fg[i])), pf = fmax (pf, fabs (fc[i]));
      RW_NOTE ("fp64 CPU vs CUDA: receivers %.3g of their peak (%zu samples differ in any bit), "
               "field %.3g", dr / pr, cuda_test_differing (rc, rg, 3 * N_STEPS), df / pf);
      RW_CHECK (pr > 0 && dr / pr < 1e-10 && df / pf < 1e-10, "fp64: CPU and CUDA differ: %.3g, %.3g",
                dr / pr, df / pf);
    }
  free (rc), free (rg), free (fc), free (fg);

  free (R);
  rw_grid_free (g);
  return rw_test_finish ();
}

#endif /* RW_HAVE_CUDA */
