/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-cuda-every-cell-written — the production kernel writes every inside
 * cell, exactly as the scheme says, and nothing else.
 *
 * On a sphere (curved, stair-cased: every K from 1 to 6) and a small hall
 * (sloped and splayed surfaces, the per-column start/stop heights matter),
 * fp64, each production variant (docs/GPU.md), each boundary form
 * and, for FV, each autotune block shape:
 *   - from a pseudo-random field (inside cells; outside 0), 12 steps agree
 *     with a reference written here from rw-scheme.h to 1e-12, and the
 *     outside cells of both arrays are still exactly 0;
 *   - poison: with NaN in every outside cell of p_prev (the array a step
 *     overwrites), one step leaves every inside cell finite and equal to
 *     the reference, and every outside cell still NaN: no write strays
 *     (the wide variant stores an outside cell's own value back, which
 *     leaves it bit for bit as it was);
 *   - a NaN planted in an inside cell is reported as RW_ERROR_UNSTABLE
 *     naming the step;
 *   - read_slice returns the planes of read_field; a plane outside the grid
 *     is refused; an impossible grid is refused with the memory it needs.
 * Skips (77) with the reason when no CUDA device is present.
 */
#include "gpu/cuda-test-room.h"
#include "../kernels/rw-cuda.h"

#if RW_HAVE_CUDA

static uint64_t rng = 88172645463325252ULL;

static double
uniform (void)
{
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (double) (rng >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

/* One reference step: q ← update (p, q) on inside cells. */
static void
ref_step (const RwGrid *g, const double *R, RwBoundary b, const double *p, double *q)
{
  const ptrdiff_t sx = 1, sy = (ptrdiff_t) g->nx, sz = (ptrdiff_t) (g->nx * g->ny);
  const ptrdiff_t off[6] = { -sx, sx, -sy, sy, -sz, sz };
  const size_t n = g->nx * g->ny * g->nz;
  size_t rank = 0;   /* of boundary nodes, in index order (RwGrid.area) */
  for (size_t i = 0; i < n; i++)
    {
      const int K = g->K[i];
      if (K == 0)
        continue;
      double nbr[6];
      int mask = 0;
      for (int d = 0; d < 6; d++)
        {
          nbr[d] = p[i + off[d]];
          mask |= (g->K[i + off[d]] != 0) << d;
        }
      const double sum = ((((nbr[0] + nbr[1]) + nbr[2]) + nbr[3]) + nbr[4]) + nbr[5];
      if (K == 6)
        {
          q[i] = rw_update_air_f64 (sum, q[i]);
          continue;
        }
      const double r = R[g->surface[i]], beta = (1 - r) / (1 + r);
      const size_t rk = rank++;
      /* FV: a node on a sloped or curved surface absorbs by its area */
      if (b == RW_BOUNDARY_FV && rw_grid_node_area_corrected (g, rk, K))
        q[i] = rw_update_fv_branches_f64 (K, (double) rw_grid_node_area (g, rk, K), p[i], sum, q[i],
                                          beta, 0, NULL, NULL, NULL, 1);
      else if (b == RW_BOUNDARY_FV)
        q[i] = rw_update_fv_f64 (K, p[i], sum, q[i], beta);
      else if (b == RW_BOUNDARY_LRS)
        q[i] = rw_update_lrs_f64 (mask, p[i], nbr, q[i], beta);
      else
        q[i] = rw_update_savioja_f64 (mask, nbr, q[i], r);
    }
}

static void *
make_prec (const RwGrid *g, const double *R, RwBoundary b, int bx, int by, RwPrecision prec)
{
  RwSolverSetup s = { 0 };
  s.grid = g;
  s.surface_R = R;
  s.boundary = b;
  s.precision = prec;
  s.n_steps = 100;
  s.block_x = bx;
  s.block_y = by;
  RwError err = { 0 };
  void *st = rw_cuda_backend ()->create (&s, &err);
  RW_CHECK (st != NULL, "create: %s", err.message);
  return st;
}

static void *
make (const RwGrid *g, const double *R, RwBoundary b, int bx, int by)
{
  return make_prec (g, R, b, bx, by, RW_PRECISION_F64);
}

static void
check_room (int kind, double h)
{
  const RwBackendOps *ops = rw_cuda_backend ();
  double *R;
  RwGrid *g = cuda_test_room (kind, h, &R);
  const size_t n = g->nx * g->ny * g->nz;
  RW_NOTE ("room %d: grid %zu×%zu×%zu, %zu inside, %zu boundary", kind, g->nx, g->ny, g->nz,
           g->n_inside, g->n_boundary);
  double *p0 = calloc (n, sizeof (double)), *q0 = calloc (n, sizeof (double));
  double *p = malloc (n * sizeof (double)), *q = malloc (n * sizeof (double));
  double *gp = malloc (n * sizeof (double)), *gq = malloc (n * sizeof (double));
  for (size_t i = 0; i < n; i++)
    if (g->K[i])
      p0[i] = uniform (), q0[i] = uniform ();
  RwError err = { 0 };

  /* RW_TEST_VARIANT=N: only variant N (tests/gpu/run.sh, for the
   * sanitizers) */
  const char *only = getenv ("RW_TEST_VARIANT");
  for (int v = 0; v < RW_CUDA_N_VARIANTS; v++)
    {
      if (only && atoi (only) != v)
        continue;
      for (int b = 0; b < 3; b++)
        for (int sh = -1; sh < (b == 0 ? RW_CUDA_N_TUNE_SHAPES : 0); sh++)
          {
            char vs[8];
            snprintf (vs, sizeof vs, "%d", v);
            setenv ("ROOMWAVE_CUDA_VARIANT", vs, 1);
            const int bx = sh < 0 ? 0 : rw_cuda_tune_shapes[sh][0];
            const int by = sh < 0 ? 0 : rw_cuda_tune_shapes[sh][1];
            void *st = make (g, R, (RwBoundary) b, bx, by);
            if (!st)
              continue;
            int cbx, cby;
            size_t items;
            rw_cuda_debug_launch (st, &cbx, &cby, &items);
            /* 12 steps from the random field */
            memcpy (p, p0, n * sizeof (double));
            memcpy (q, q0, n * sizeof (double));
            for (int k = 0; k < 12; k++)
              {
                ref_step (g, R, (RwBoundary) b, p, q);
                double *t = p;
                p = q;
                q = t;
              }
            bool ok = rw_cuda_debug_write_field (st, p0, q0, &err)
                      && ops->advance (st, 0, 12, NULL, 0, &err)
                      && ops->read_field (st, gp, gq, &err);
            RW_CHECK (ok, "12 steps: %s", err.message);
            double dmax = 0, pmax = 0;
            size_t stray = 0;
            for (size_t i = 0; ok && i < n; i++)
              {
                if (g->K[i])
                  {
                    dmax = fmax (dmax, fmax (fabs (gp[i] - p[i]), fabs (gq[i] - q[i])));
                    pmax = fmax (pmax, fabs (p[i]));
                    if (!isfinite (gp[i]))
                      dmax = INFINITY;
                  }
                else if (gp[i] != 0.0 || gq[i] != 0.0 || signbit (gp[i]) || signbit (gq[i]))
                  stray++;
              }
            RW_CHECK (dmax <= 1e-12 * pmax, "variant %d form %d block %dx%d: inside cells differ "
                      "by %.3g (max %.3g)", v, b, cbx, cby, dmax, pmax);
            RW_CHECK (stray == 0, "variant %d form %d block %dx%d: %zu outside cells written", v, b,
                      cbx, cby, stray);
            if (sh < 0)
              RW_NOTE ("  variant %d form %d: autotuned block %dx%d, %zu work items, 12 steps "
                       "max |Δ| %.3g", v, b, cbx, cby, items, dmax);

            /* poison the outside of the array the step writes */
            memcpy (p, p0, n * sizeof (double));
            memcpy (q, q0, n * sizeof (double));
            for (size_t i = 0; i < n; i++)
              if (!g->K[i])
                q[i] = NAN;
            ok = rw_cuda_debug_write_field (st, p0, q, &err) && ops->advance (st, 0, 1, NULL, 0, &err)
                 && ops->read_field (st, gp, NULL, &err);
            RW_CHECK (ok, "poisoned step: %s", err.message);
            for (size_t i = 0; i < n; i++)
              if (!g->K[i])
                q[i] = 0;
            ref_step (g, R, (RwBoundary) b, p0, q);
            size_t unwritten = 0, written_outside = 0;
            dmax = 0;
            for (size_t i = 0; ok && i < n; i++)
              if (g->K[i])
                {
                  if (!isfinite (gp[i]))
                    unwritten++;
                  else
                    dmax = fmax (dmax, fabs (gp[i] - q[i]));
                }
              else if (!isnan (gp[i]))
                written_outside++;
            RW_CHECK (unwritten == 0 && dmax <= 1e-12, "variant %d form %d block %dx%d: %zu inside "
                      "cells not written, max |Δ| %.3g", v, b, cbx, cby, unwritten, dmax);
            RW_CHECK (written_outside == 0, "variant %d form %d block %dx%d: %zu poisoned outside "
                      "cells changed", v, b, cbx, cby, written_outside);
            ops->destroy (st);
          }
    }
  unsetenv ("ROOMWAVE_CUDA_VARIANT");

  /* a NaN inside is caught and named */
  void *st = make (g, R, RW_BOUNDARY_FV, 0, 0);
  if (st)
    {
      memcpy (p, p0, n * sizeof (double));
      p[cuda_test_cell (g, 0.5, 0.5, 0.5)] = NAN;
      bool ok = rw_cuda_debug_write_field (st, p, q0, &err);
      RW_CHECK (ok, "write: %s", err.message);
      rw_error_clear (&err);
      ok = ops->advance (st, 40, 5, NULL, 0, &err);
      RW_CHECK (!ok && err.code == RW_ERROR_UNSTABLE && strstr (err.message, "step 40"),
                "NaN not reported as unstable at step 40: %d %s", err.code, err.message);
      RW_NOTE ("  NaN planted: “%s”", err.message);
      ops->destroy (st);
    }

  /* fp16: a NaN, and values whose update overflows the half range when
   * it is stored (a 3×3×3 block of 65504, the largest half: the centre's
   * update is 6 · 65504 / 3), are caught by every variant */
  for (int v = 0; v < RW_CUDA_N_VARIANTS; v++)
    {
      if (only && atoi (only) != v)
        continue;
      char vs[8];
      snprintf (vs, sizeof vs, "%d", v);
      setenv ("ROOMWAVE_CUDA_VARIANT", vs, 1);
      for (int kind = 0; kind < 2; kind++)
        {
          void *sh = make_prec (g, R, RW_BOUNDARY_FV, 0, 0, RW_PRECISION_F16);
          if (!sh)
            continue;
          const size_t c = cuda_test_cell (g, 0.5, 0.5, 0.5);
          if (kind == 0)
            {
              memcpy (p, p0, n * sizeof (double));
              p[c] = NAN;
            }
          else
            {
              memset (p, 0, n * sizeof (double));
              memset (gq, 0, n * sizeof (double));
              for (int dz = -1; dz <= 1; dz++)
                for (int dy = -1; dy <= 1; dy++)
                  for (int dx = -1; dx <= 1; dx++)
                    p[c + (ptrdiff_t) dx + (ptrdiff_t) g->nx * (dy + (ptrdiff_t) g->ny * dz)] = 65504.0;
            }
          bool ok = rw_cuda_debug_write_field (sh, p, kind == 0 ? q0 : gq, &err);
          RW_CHECK (ok, "write: %s", err.message);
          rw_error_clear (&err);
          ok = ops->advance (sh, 40, 6, NULL, 0, &err);
          RW_CHECK (!ok && err.code == RW_ERROR_UNSTABLE,
                    "variant %d fp16: %s not reported as unstable: %d %s", v,
                    kind == 0 ? "a NaN" : "an overflow", err.code, err.message);
          rw_error_clear (&err);
          ops->destroy (sh);
        }
    }
  unsetenv ("ROOMWAVE_CUDA_VARIANT");

  /* slices are the planes of the field */
  st = make (g, R, RW_BOUNDARY_FV, 0, 0);
  if (st)
    {
      bool ok = rw_cuda_debug_write_field (st, p0, q0, &err)
                && ops->advance (st, 0, 3, NULL, 0, &err) && ops->read_field (st, gp, NULL, &err);
      RW_CHECK (ok, "slice setup: %s", err.message);
      const size_t dims[3] = { g->nx, g->ny, g->nz };
      float *sl = malloc (n * sizeof (float));
      for (int axis = 0; ok && axis < 3; axis++)
        {
          const size_t idx = dims[axis] / 2;
          ok = ops->read_slice (st, axis, idx, sl, &err);
          RW_CHECK (ok, "read_slice %d: %s", axis, err.message);
          size_t bad = 0, k = 0;
          const size_t n0 = axis == 0 ? g->ny : g->nx, n1 = axis == 2 ? g->ny : g->nz;
          for (size_t b1 = 0; ok && b1 < n1; b1++)
            for (size_t a = 0; a < n0; a++, k++)
              {
                size_t x = axis == 0 ? idx : a, y = axis == 0 ? a : axis == 1 ? idx : b1;
                size_t z = axis == 2 ? idx : b1;
                if (sl[k] != (float) gp[rw_grid_index (g, x, y, z)])
                  bad++;
              }
          RW_CHECK (bad == 0, "slice axis %d: %zu values differ from the field", axis, bad);
        }
      rw_error_clear (&err);
      ok = ops->read_slice (st, 2, g->nz, sl, &err);
      RW_CHECK (!ok && err.code == RW_ERROR_INPUT, "slice beyond the grid accepted");
      free (sl);
      ops->destroy (st);
    }
  free (p0), free (q0), free (p), free (q), free (gp), free (gq), free (R);
  rw_grid_free (g);
}

int
main (void)
{
  if (!cuda_test_require ())
    return rw_test_finish ();
  check_room (1, 0.07);
  check_room (2, 0.07);

  /* a grid far beyond any card: refused before any allocation, with the
   * numbers and the alternatives */
  RwGrid huge = { 0 };
  huge.nx = huge.ny = huge.nz = 6000;
  double R1 = 1.0;
  RwSolverSetup s = { 0 };
  s.grid = &huge;
  s.surface_R = &R1;
  s.n_steps = 10;
  RwError err = { 0 };
  void *st = rw_cuda_backend ()->create (&s, &err);
  RW_CHECK (st == NULL && err.code == RW_ERROR_MEMORY && strstr (err.message, "GB")
            && strstr (err.message, "CPU"), "huge grid: %d %s", err.code, err.message);
  RW_NOTE ("huge grid: “%s”", err.message);
  RW_CHECK (rw_cuda_backend ()->memory_bytes (&s) >= (size_t) 216e9 * 9,
            "memory_bytes %zu under 9 B per cell", rw_cuda_backend ()->memory_bytes (&s));
  return rw_test_finish ();
}

#endif /* RW_HAVE_CUDA */
