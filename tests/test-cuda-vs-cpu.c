/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-cuda-vs-cpu — the CUDA backend against the CPU backend.
 *
 * An L-shaped room (flat faces, edges, corners, an inner edge) with a
 * different reflection factor on every surface (rigid, absorbing, one
 * negative), a soft source (a differentiated Gaussian) and three receivers,
 * 2000 steps:
 *   - GPU fp64 vs CPU fp64 for each boundary form (FV, LRS, Savioja): both
 *     run the same rw-scheme.h arithmetic in the same order, so they agree
 *     to rounding: max |Δ| / max |CPU| < 1e-10 on the receiver signals and
 *     on the final field;
 *   - GPU fp32 vs CPU fp64 (FV): relative L2 of the receiver signals < 1e-4;
 *   - GPU fp16 storage vs CPU fp64 (FV): relative L2 under the bound stated
 *     in docs/GPU.md (RW_F16_BOUND below);
 *   - the same three with frequency-dependent admittances (rw-admittance.h)
 *     on half of the surfaces: the CUDA branch kernel against the CPU
 *     backend's branch nodes, fp64 to rounding, fp32 and fp16 under the
 *     same bounds.
 * The source carries no DC: a Gaussian pulse's net volume feeds the
 * closed room's zero-frequency mode, which the 2nd-order scheme lets drift
 * linearly and in which fp32 rounding accumulates; fp32 then differs from
 * fp64 by ~2e-4 on the CPU backend just as on the GPU (docs/GPU.md).
 * Skips (77) with the reason when no CUDA device is present.
 */
#include "gpu/cuda-test-room.h"
#include "rw-admittance.h"

#if RW_HAVE_CUDA

#define N_STEPS 2000
#define N_RCV 3
#define RW_F16_BOUND 2e-2

typedef struct {
  double *rcv;      /* N_RCV × N_STEPS */
  double *field;    /* nx·ny·nz */
} Run;

static const RwAdmittance *test_Y;   /* NULL, or frequency-dependent surfaces */

static bool
run (const RwGrid *g, const double *R, RwBoundary b, RwPrecision prec, RwBackendKind kind,
     const double *src, const size_t *rcv_cells, Run *out)
{
  RwSolverSetup s = { 0 };
  s.grid = g;
  s.surface_R = R;
  s.surface_Y = test_Y;
  s.time_step_s = 1.0 / 48000.0;
  s.boundary = b;
  s.precision = prec;
  s.n_steps = N_STEPS;
  s.source_cell = cuda_test_cell (g, 0.3, 0.3, 0.4);
  s.source_kind = RW_SOURCE_SOFT;
  s.source_signal = src;
  s.n_receivers = N_RCV;
  s.receiver_cells = rcv_cells;
  s.threads = 0;
  RwError err = { 0 };
  RwSolver *sv = rw_solver_new (&s, kind, &err);
  RW_CHECK (sv != NULL, "rw_solver_new: %s", err.message);
  if (!sv)
    return false;
  /* uneven chunks: several advance calls, one longer than a buffer */
  const size_t chunks[] = { 7, 500, N_STEPS - 507 };
  for (int c = 0; c < 3; c++)
    {
      bool ok = rw_solver_advance (sv, chunks[c], &err);
      RW_CHECK (ok, "advance: %s", err.message);
      if (!ok)
        {
          rw_solver_free (sv);
          return false;
        }
    }
  const size_t n = g->nx * g->ny * g->nz;
  out->rcv = malloc (N_RCV * N_STEPS * sizeof (double));
  out->field = malloc (n * sizeof (double));
  for (int r = 0; r < N_RCV; r++)
    memcpy (out->rcv + r * N_STEPS, rw_solver_receiver (sv, r), N_STEPS * sizeof (double));
  bool ok = rw_solver_read_field (sv, out->field, NULL, &err);
  RW_CHECK (ok, "read_field: %s", err.message);
  if (kind == RW_BACKEND_CUDA)
    RW_NOTE ("  device: %s", rw_solver_device_name (sv));
  rw_solver_free (sv);
  return ok;
}

static double
max_rel (const double *a, const double *b, size_t n)
{
  double d = 0, m = 0;
  for (size_t i = 0; i < n; i++)
    {
      d = fmax (d, fabs (a[i] - b[i]));
      m = fmax (m, fabs (b[i]));
      if (isnan (a[i]))
        return INFINITY;
    }
  return d / m;
}

static double
rel_l2 (const double *a, const double *b, size_t n)
{
  double d = 0, m = 0;
  for (size_t i = 0; i < n; i++)
    {
      d += (a[i] - b[i]) * (a[i] - b[i]);
      m += b[i] * b[i];
    }
  return isfinite (d) ? sqrt (d / m) : INFINITY;
}

static void
run_free (Run *r)
{
  free (r->rcv);
  free (r->field);
}

/* Frequency-dependent admittances on every other surface: the CUDA
 * branch kernel against the CPU backend's branch nodes. */
static void
check_branches (const char *room, const RwGrid *g, const double *R, const double *src,
                const size_t *rcv)
{
  static const RwPrecision precs[] = { RW_PRECISION_F32, RW_PRECISION_F16 };
  static const double bounds[] = { 1e-4, RW_F16_BOUND };
  const size_t n = g->nx * g->ny * g->nz;
  RwAdmittance *Y = calloc (g->n_surfaces + 1, sizeof *Y);
  for (size_t s = 0; s < g->n_surfaces; s++)
    {
      Y[s] = rw_admittance_real (R[s] > -1.0 ? R[s] : 0.0);
      if (s % 2 == 1)
        {
          const double w = 2 * M_PI * (250.0 * (double) (1 + s % 5));
          Y[s].Y0 = 0.02;
          Y[s].n_branches = 2;
          Y[s].branch[0] = (RwBranch) { 2.0 / w, 1.0 + 0.3 * (double) s, 2.0 * w };
          Y[s].branch[1] = (RwBranch) { 1e-3, 4.0, 0.0 };
        }
    }
  test_Y = Y;
  Run c = { 0 }, d = { 0 };
  if (run (g, R, RW_BOUNDARY_FV, RW_PRECISION_F64, RW_BACKEND_CPU, src, rcv, &c)
      && run (g, R, RW_BOUNDARY_FV, RW_PRECISION_F64, RW_BACKEND_CUDA, src, rcv, &d))
    {
      const double er = max_rel (d.rcv, c.rcv, N_RCV * N_STEPS);
      const double ef = max_rel (d.field, c.field, n);
      RW_NOTE ("%s fp64 FV, frequency-dependent: receivers max|Δ|/max = %.3g, field %.3g", room, er, ef);
      RW_CHECK (er < 1e-10, "fp64 frequency-dependent receivers differ by %.3g", er);
      RW_CHECK (ef < 1e-10, "fp64 frequency-dependent field differs by %.3g", ef);
    }
  run_free (&d);
  for (int k = 0; k < 2 && c.rcv; k++)
    {
      Run e = { 0 };
      if (run (g, R, RW_BOUNDARY_FV, precs[k], RW_BACKEND_CUDA, src, rcv, &e))
        {
          const double l2 = rel_l2 (e.rcv, c.rcv, N_RCV * N_STEPS);
          RW_NOTE ("%s %s vs CPU fp64 (FV, frequency-dependent): receivers relative L2 = %.3g "
                   "(bound %.0e)", room, k == 0 ? "fp32" : "fp16 storage", l2, bounds[k]);
          RW_CHECK (l2 < bounds[k], "frequency-dependent: relative L2 %.3g over %.0e", l2,
                    bounds[k]);
        }
      run_free (&e);
    }
  run_free (&c);
  test_Y = NULL;
  free (Y);
}

int
main (void)
{
  if (!cuda_test_require ())
    return rw_test_finish ();
  double *R;
  RwGrid *g = cuda_test_room (0, 0.06, &R);
  const size_t n = g->nx * g->ny * g->nz;
  RW_NOTE ("L-room grid %zu×%zu×%zu, %zu inside, %zu boundary, %zu surfaces", g->nx, g->ny,
           g->nz, g->n_inside, g->n_boundary, g->n_surfaces);
  double *src = calloc (N_STEPS, sizeof (double));
  for (int k = 0; k < N_STEPS; k++)
    {
      const double t = (k - 25) / 6.0;
      src[k] = -2.0 * t * exp (-t * t);
    }
  const size_t rcv[N_RCV] = { cuda_test_cell (g, 0.7, 0.3, 0.6), cuda_test_cell (g, 0.3, 0.7, 0.2),
                              cuda_test_cell (g, 0.3, 0.3, 0.4) /* = the source cell */ };

  static const char *const names[] = { "FV", "LRS", "Savioja" };
  Run cpu_fv = { 0 };
  for (int b = 0; b < 3; b++)
    {
      Run c = { 0 }, d = { 0 };
      if (run (g, R, (RwBoundary) b, RW_PRECISION_F64, RW_BACKEND_CPU, src, rcv, &c)
          && run (g, R, (RwBoundary) b, RW_PRECISION_F64, RW_BACKEND_CUDA, src, rcv, &d))
        {
          const double er = max_rel (d.rcv, c.rcv, N_RCV * N_STEPS);
          const double ef = max_rel (d.field, c.field, n);
          RW_NOTE ("fp64 %s: receivers max|Δ|/max = %.3g, field %.3g", names[b], er, ef);
          RW_CHECK (er < 1e-10, "fp64 %s receivers differ by %.3g", names[b], er);
          RW_CHECK (ef < 1e-10, "fp64 %s field differs by %.3g", names[b], ef);
          double peak = 0;
          for (size_t i = 0; i < N_RCV * N_STEPS; i++)
            peak = fmax (peak, fabs (c.rcv[i]));
          RW_CHECK (peak > 1e-3, "the receivers heard nothing (peak %.3g)", peak);
        }
      run_free (&d);
      if (b == 0)
        cpu_fv = c;
      else
        run_free (&c);
    }

  static const RwPrecision precs[] = { RW_PRECISION_F32, RW_PRECISION_F16 };
  static const double bounds[] = { 1e-4, RW_F16_BOUND };
  for (int k = 0; k < 2 && cpu_fv.rcv; k++)
    {
      Run d = { 0 };
      if (run (g, R, RW_BOUNDARY_FV, precs[k], RW_BACKEND_CUDA, src, rcv, &d))
        {
          const double e = rel_l2 (d.rcv, cpu_fv.rcv, N_RCV * N_STEPS);
          RW_NOTE ("%s vs CPU fp64 (FV): receivers relative L2 = %.3g (bound %.0e)",
                   k == 0 ? "fp32" : "fp16 storage", e, bounds[k]);
          RW_CHECK (e < bounds[k], "relative L2 %.3g over %.0e", e, bounds[k]);
        }
      run_free (&d);
    }
  run_free (&cpu_fv);

  check_branches ("L-room", g, R, src, rcv);
  /* the hall: sloped and curved surfaces, whose nodes absorb by their
   * area and go to the branch kernel with or without branches */
  double *R2;
  RwGrid *hall = cuda_test_room (2, 0.06, &R2);
  const size_t rcv2[N_RCV] = { cuda_test_cell (hall, 0.7, 0.3, 0.6), cuda_test_cell (hall, 0.3, 0.7, 0.2),
                               cuda_test_cell (hall, 0.3, 0.3, 0.4) };
  check_branches ("hall", hall, R2, src, rcv2);
  free (R2);
  rw_grid_free (hall);
  free (src);
  free (R);
  rw_grid_free (g);
  return rw_test_finish ();
}

#endif /* RW_HAVE_CUDA */
