/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-cuda-fcc — the CUDA backend's FCC path (kernels/rw-cuda-fcc.cu)
 * against the CPU backend's (issue #14).
 *
 * On FCC grids of three shapes (rw_grid_new_box_fcc's box; an L-shaped
 * room and a sphere built site by site, test-solver-fcc.h: boundary sites
 * of every K), with a source and two receivers between the sites
 * (rw_grid_interp's stencils: the spread source on both backends):
 *   - fp64, frequency-independent walls (R = 0.6 and R = 1) and
 *     frequency-dependent ones (two branches): the receiver signals and the
 *     final field of CUDA equal the CPU's bit for bit, and the energy the
 *     two report agrees to 1e-12;
 *   - fp32 and fp16 storage against CPU fp64: relative L2 of the receiver
 *     signals below the 7-point scheme's bounds (1e-4; 2e-2 fp16,
 *     test-cuda-vs-cpu);
 *   - the layout by rows (these narrow rooms are laid flat by default)
 *     also equals the CPU in fp64 bit for bit, and fp16's rows kept as
 *     halves give the bits of rows kept as floats; the wall entries'
 *     outside sites' means computed once a step (fp16's default,
 *     ROOMWAVE_FCC_WALL_MEANS=1) give fp64 the CPU's bits, flat and by
 *     rows, and fp32 and fp16 the bits of each entry's own (=0) (the
 *     L-room, R = 0.6); the boundary kernel in one block of 128 threads,
 *     each taking sites in turn (ROOMWAVE_FCC_BND_GRID=1, as a large room
 *     runs it), gives the CPU's bits with two branches;
 *   - poison: NaN written into every cell of p⁻ that is not an inside
 *     site (odd cells and outside sites; the debug hook), one step leaves
 *     every inside site equal to the CPU's (from the same field) and every
 *     other cell NaN, so the kernels write every site and nothing else;
 *   - a NaN planted at an inside site fails with RW_ERROR_UNSTABLE, naming
 *     its step;
 *   - read_slice gives read_field's planes (0 off the sites);
 *   - one fp32 and fp16 step from a random field: every interior site
 *     equals a reference written from the lattice's coordinates bit for
 *     bit, with the neighbours summed as the split sums group them (the
 *     default) or in the offsets' order (ROOMWAVE_FCC_SUMS=offsets), flat
 *     and by rows, fp16's rows as halves and as floats
 *     (seen failing: U's pairs regrouped, 36 and 51 fp32 sites of the
 *     L-room and the sphere differ; fp16 rounds that difference away);
 *   - two steps a pass (ROOMWAVE_FCC_TB=1, a benchmark variant) on the
 *     L-room and a long box (two segments a row), chunks of 4 planes: fp64
 *     equals the CPU bit for bit (R = 0.6, branches, a source by a wall),
 *     fp32 and fp16 equal single steps bit for bit, with the split sums
 *     and in the offsets' order.
 * Seen failing (H200, 2026-11-27): receiver samples written at a fixed
 * stride while the host read them at the chunk's (1199 of 1200 samples
 * differ, fields equal: a real defect it found); one neighbour's x offset
 * of the register z-march flipped (the run grows: unstable); the boundary
 * kernel not launched (1190 samples and 540 cells differ).
 * RW_TEST_QUICK=1: the L-room alone; =2 (tests/gpu/run.sh, for
 * racecheck): the L-room's two-step passes alone.
 * Skips (77) with the reason when no CUDA device is present. */
#include "gpu/cuda-test-room.h"
#include "test-solver-fcc.h"
#include "../kernels/rw-cuda.h"
#include "rw-admittance.h"

#if RW_HAVE_CUDA

#define N_STEPS 600

typedef struct {
  double *rcv;       /* 2 × N_STEPS */
  double *field;     /* the cubic array */
  double energy;
} Run;

static bool
run (const RwGrid *g, const double *R, const RwAdmittance *Y, RwPrecision prec,
     RwBackendKind kind, const RwGridStencil *src, const RwGridStencil *rcv, Run *out)
{
  double *sig = calloc (N_STEPS, sizeof (double));
  sig[0] = 1.0, sig[1] = 0.5, sig[2] = -0.25;
  size_t cells[2] = { rcv[0].cell[0], rcv[1].cell[0] };
  RwSolverSetup su = {
    .grid = g, .surface_R = R, .surface_Y = Y, .time_step_s = g->h / 343.0,
    .boundary = RW_BOUNDARY_FV, .precision = prec, .n_steps = N_STEPS,
    .source_kind = RW_SOURCE_SOFT, .source_signal = sig, .source_stencil = src,
    .n_receivers = 2, .receiver_cells = cells, .receiver_stencils = rcv,
  };
  RwError err = { 0 };
  RwSolver *s = rw_solver_new (&su, kind, &err);
  RW_CHECK (s != NULL, "rw_solver_new (%s): %s", kind == RW_BACKEND_CUDA ? "cuda" : "cpu",
            err.message);
  bool ok = s != NULL && rw_solver_advance (s, 7, &err) && rw_solver_advance (s, N_STEPS - 7, &err);
  RW_CHECK (s == NULL || ok, "advance: %s", err.message);
  const size_t n = g->nx * g->ny * g->nz;
  out->rcv = malloc (2 * N_STEPS * sizeof (double));
  out->field = malloc (n * sizeof (double));
  if (ok)
    {
      for (int r = 0; r < 2; r++)
        memcpy (out->rcv + r * N_STEPS, rw_solver_receiver (s, (size_t) r), N_STEPS * sizeof (double));
      ok = rw_solver_read_field (s, out->field, NULL, &err) && rw_solver_energy (s, &out->energy, &err);
      RW_CHECK (ok, "read back: %s", err.message);
    }
  rw_solver_free (s);
  free (sig);
  return ok;
}

static void
run_free (Run *r)
{
  free (r->rcv);
  free (r->field);
}

/* run () on CUDA with variable `name` set to `value` (the backend's
 * benchmark switches), then as before; the receivers and the field
 * compared with `ref` bit for bit: the number of values that differ, or
 * −1 when the run failed. */
static long
cuda_run_with (const char *name, const char *value, const RwGrid *g, const double *R,
               const RwAdmittance *Y, RwPrecision prec, const RwGridStencil *src,
               const RwGridStencil *rcv, const Run *ref)
{
  setenv (name, value, 1);
  Run r = { 0 };
  long diff = -1;
  if (run (g, R, Y, prec, RW_BACKEND_CUDA, src, rcv, &r))
    {
      const size_t n = g->nx * g->ny * g->nz;
      diff = 0;
      for (size_t k = 0; k < 2 * N_STEPS; k++)
        diff += memcmp (&ref->rcv[k], &r.rcv[k], sizeof (double)) != 0;
      for (size_t k = 0; k < n; k++)
        diff += memcmp (&ref->field[k], &r.field[k], sizeof (double)) != 0;
    }
  unsetenv (name);
  run_free (&r);
  return diff;
}

/* Positions (in metres) off the sites, inside the room. */
static bool
stencils (const RwGrid *g, RwGridStencil *src, RwGridStencil rcv[2])
{
  /* about the grid's centre, clear of the L-room's missing quarter
   * (x and y above the centre) and inside the sphere */
  const double h = g->h, off[3][3] = { { -1.2, -0.9, 0.35 }, { -1.7, 1.35, 1.3 }, { 1.6, -1.8, -1.3 } };
  double ps[3], pr0[3], pr1[3];
  for (int a = 0; a < 3; a++)
    {
      const double n = (double) (a == 0 ? g->nx : a == 1 ? g->ny : g->nz);
      const double c = g->origin[a] + h * (n - 1) / 2;
      ps[a] = c + off[0][a] * h, pr0[a] = c + off[1][a] * h, pr1[a] = c + off[2][a] * h;
    }
  RwError err = { 0 };
  bool ok = rw_grid_interp (g, ps, "source", src, &err) && rw_grid_interp (g, pr0, "receiver 1", &rcv[0], &err)
            && rw_grid_interp (g, pr1, "receiver 2", &rcv[1], &err);
  RW_CHECK (ok, "stencils: %s", err.message);
  return ok;
}

/* Two branches on every surface: a mass-spring-damper and a damper. */
static void
two_branches (RwAdmittance *Y)
{
  memset (Y, 0, sizeof *Y);
  Y->Y0 = 0.05;
  Y->n_branches = 2;
  Y->branch[0] = (RwBranch) { 1e-3, 4.0, 2e3 };
  Y->branch[1] = (RwBranch) { 1e-3, 4.0, 0.0 };
}

static void
check_room (const char *room, RwGrid *g, bool extras)
{
  RwGridStencil src, rcv[2];
  if (!stencils (g, &src, rcv))
    return;
  RW_NOTE ("%s: %zu×%zu×%zu cells, %zu sites, %zu boundary; source over %zu sites", room, g->nx,
           g->ny, g->nz, g->n_inside, g->n_boundary, src.n);
  const size_t n = g->nx * g->ny * g->nz;
  RwAdmittance Y[1];
  two_branches (Y);
  const double Rs[3] = { 0.6, 1.0, 0.6 };
  for (int c = 0; c < 3; c++)
    {
      const RwAdmittance *y = c == 2 ? Y : NULL;
      Run a = { 0 }, b = { 0 };
      if (run (g, &Rs[c], y, RW_PRECISION_F64, RW_BACKEND_CPU, &src, rcv, &a)
          && run (g, &Rs[c], y, RW_PRECISION_F64, RW_BACKEND_CUDA, &src, rcv, &b))
        {
          size_t dr = 0, df = 0;
          for (size_t k = 0; k < 2 * N_STEPS; k++)
            dr += memcmp (&a.rcv[k], &b.rcv[k], sizeof (double)) != 0;
          for (size_t k = 0; k < n; k++)
            df += memcmp (&a.field[k], &b.field[k], sizeof (double)) != 0;
          const double de = fabs (a.energy - b.energy) / fabs (a.energy);
          RW_NOTE ("%s %s fp64: %zu receiver samples and %zu cells differ; energy %.3g apart", room,
                   c == 2 ? "branches" : c == 1 ? "R = 1" : "R = 0.6", dr, df, de);
          RW_CHECK (dr == 0 && df == 0, "%s: CUDA fp64 differs from the CPU (%zu samples, %zu cells)",
                    room, dr, df);
          RW_CHECK (de < 1e-12, "%s: energies differ by %.3g", room, de);
          /* the reading (field, branches, wall links) is summed in a
           * fixed order: the same bits in a second run */
          if (c == 2 && extras)
            {
              Run b2 = { 0 };
              RW_CHECK (run (g, &Rs[c], y, RW_PRECISION_F64, RW_BACKEND_CUDA, &src, rcv, &b2)
                          && memcmp (&b.energy, &b2.energy, sizeof (double)) == 0,
                        "%s: CUDA energy readings differ from run to run (%.17g, %.17g)", room,
                        b.energy, b2.energy);
              run_free (&b2);
            }
          /* the boundary kernel's threads taking sites in turn, as in a
           * large room (rw_fcc_boundary_grid; these rooms' grids are
           * whole): one block of 128, the CPU's bits too, with the
           * branches' states */
          if (c == 2 && extras)
            {
              const long dg = cuda_run_with ("ROOMWAVE_FCC_BND_GRID", "1", g, &Rs[c], y,
                                             RW_PRECISION_F64, &src, rcv, &a);
              RW_NOTE ("%s branches fp64, the boundary kernel in one block: %ld values differ "
                       "from the CPU", room, dg);
              RW_CHECK (dg == 0, "%s: CUDA fp64 with the boundary kernel in one block differs "
                        "from the CPU (%ld values)", room, dg);
            }
          /* the layout by rows (the hall's; these rooms' narrow rows are
           * laid flat by default): the CPU's bits too (the first room's
           * walls of R = 0.6: each run here is another run under
           * compute-sanitizer) */
          if (c == 0 && extras)
            {
              const long dl = cuda_run_with ("ROOMWAVE_FCC_ROWS", "rows", g, &Rs[c], y, RW_PRECISION_F64,
                                             &src, rcv, &a);
              RW_CHECK (dl == 0, "%s: CUDA fp64 by rows differs from the CPU (%ld values)", room, dl);
              /* the wall entries' outside sites' means once a step
               * (fp16's default): the CPU's bits too, flat and by rows */
              const long dm = cuda_run_with ("ROOMWAVE_FCC_WALL_MEANS", "1", g, &Rs[c], y,
                                             RW_PRECISION_F64, &src, rcv, &a);
              setenv ("ROOMWAVE_FCC_ROWS", "rows", 1);
              const long dmr = cuda_run_with ("ROOMWAVE_FCC_WALL_MEANS", "1", g, &Rs[c], y,
                                              RW_PRECISION_F64, &src, rcv, &a);
              unsetenv ("ROOMWAVE_FCC_ROWS");
              RW_CHECK (dm == 0 && dmr == 0, "%s: CUDA fp64 with the wall sites' means once a step "
                        "differs from the CPU (%ld values; by rows %ld)", room, dm, dmr);
            }
          /* fp32 and fp16 storage against CPU fp64 */
          static const RwPrecision precs[2] = { RW_PRECISION_F32, RW_PRECISION_F16 };
          static const double bounds[2] = { 1e-4, 2e-2 };
          for (int k = 0; k < 2 && c != 1; k++)
            {
              Run e = { 0 };
              if (run (g, &Rs[c], y, precs[k], RW_BACKEND_CUDA, &src, rcv, &e))
                {
                  const double l2 = test_rel_l2 (a.rcv, e.rcv, 2 * N_STEPS);
                  RW_NOTE ("%s %s: %s vs CPU fp64, receivers relative L2 %.3g (bound %.0e)", room,
                           c == 2 ? "branches" : "R = 0.6", rw_precision_name (precs[k]), l2, bounds[k]);
                  RW_CHECK (l2 < bounds[k], "%s: %s relative L2 %.3g over %.0e", room,
                            rw_precision_name (precs[k]), l2, bounds[k]);
                  /* the wall entries' outside sites' means once a
                   * step (fp16's default) and each entry's own (fp32's):
                   * the same bits */
                  if (c == 0 && extras)
                    {
                      const long dm = cuda_run_with ("ROOMWAVE_FCC_WALL_MEANS",
                                                     precs[k] == RW_PRECISION_F16 ? "0" : "1", g,
                                                     &Rs[c], y, precs[k], &src, rcv, &e);
                      RW_CHECK (dm == 0, "%s: %s, the wall entries' means once a site differ from "
                                "each entry's own (%ld values)", room, rw_precision_name (precs[k]),
                                dm);
                    }
                  /* fp16: the air kernel's rows kept as halves (the
                   * default) and as floats give the same bits, flat and
                   * by rows */
                  if (precs[k] == RW_PRECISION_F16 && c == 0 && extras)
                    {
                      const long d0 = cuda_run_with ("ROOMWAVE_FCC_F16_ROWS", "float", g, &Rs[c], y,
                                                     precs[k], &src, rcv, &e);
                      setenv ("ROOMWAVE_FCC_ROWS", "rows", 1);
                      Run er = { 0 };
                      long dr16 = -1;
                      if (run (g, &Rs[c], y, precs[k], RW_BACKEND_CUDA, &src, rcv, &er))
                        dr16 = cuda_run_with ("ROOMWAVE_FCC_F16_ROWS", "float", g, &Rs[c], y,
                                              precs[k], &src, rcv, &er);
                      unsetenv ("ROOMWAVE_FCC_ROWS");
                      run_free (&er);
                      RW_CHECK (d0 == 0 && dr16 == 0,
                                "%s: fp16 rows as halves differ from rows as floats (%ld values; "
                                "by rows %ld)", room, d0, dr16);
                    }
                }
              run_free (&e);
            }
        }
      run_free (&a);
      run_free (&b);
    }
}

/* Steps a pass of the CUDA FCC path for this setup (2: the two-step
 * passes), from a state made for it; 0 when none could be made. */
static int
steps_per_pass (const RwGrid *g, const double *R, const RwAdmittance *Y, RwPrecision prec,
                const RwGridStencil *src)
{
  static const double sig[1] = { 1.0 };
  RwSolverSetup su = { .grid = g, .surface_R = R, .surface_Y = Y, .time_step_s = g->h / 343.0,
                       .boundary = RW_BOUNDARY_FV, .precision = prec, .n_steps = 1,
                       .source_kind = RW_SOURCE_SOFT, .source_signal = sig,
                       .source_stencil = src };
  RwError err = { 0 };
  const RwBackendOps *ops = rw_cuda_backend ();
  void *st = ops->create (&su, &err);
  RW_CHECK (st != NULL, "create: %s", err.message);
  if (st == NULL)
    return 0;
  const int n = rw_cuda_debug_steps_per_pass (st);
  ops->destroy (st);
  return n;
}

/* Two steps a pass (kernels/rw-cuda-fcc-tb.cu) on the layout by rows,
 * chunks of 4 planes (ROOMWAVE_FCC_TB_ZC: these rooms get several, so a
 * chunk's edge planes are computed by both chunks at it): fp64 equals the
 * CPU bit for bit (walls of R = 0.6 and of two branches; the source spread
 * over its stencil at the centre, then next to a wall, where some of its
 * cells are boundary sites), fp32 and fp16 give the bits of single steps
 * (ROOMWAVE_FCC_TB=0), with the split sums and in the offsets' order
 * (ROOMWAVE_FCC_SUMS); the passes were used. The advance calls of 7 and
 * 593 steps leave single steps between passes (chunks of 256). */
static void
check_two_step (const char *room, RwGrid *g)
{
  RwGridStencil src[2], rcv[2];
  if (!stencils (g, &src[0], rcv))
    return;
  {
    /* next to the wall at x = min: the first inside plane of the box and
     * of the L-room, mid-height */
    const double h = g->h;
    double pw[3] = { g->origin[0] + 1.6 * h, g->origin[1] + h * ((double) g->ny / 2 - 0.3),
                     g->origin[2] + h * ((double) g->nz / 2 + 0.2) };
    RwError err = { 0 };
    const bool ok = rw_grid_interp (g, pw, "source", &src[1], &err);
    RW_CHECK (ok, "%s: the source by the wall: %s", room, err.message);
    if (!ok)
      return;
  }
  setenv ("ROOMWAVE_FCC_ROWS", "rows", 1);
  setenv ("ROOMWAVE_FCC_TB_ZC", "4", 1);
  RwAdmittance Y[1];
  two_branches (Y);
  const double R = 0.6;
  for (int w = 0; w < 3; w++)
    {
      /* w: 0 R = 0.6, 1 branches (source at the centre), 2 R = 0.6 (source by the wall) */
      const RwAdmittance *y = w == 1 ? Y : NULL;
      const RwGridStencil *sw = &src[w == 2];
      const char *what = w == 1 ? "branches" : w == 2 ? "source by the wall" : "R = 0.6";
      setenv ("ROOMWAVE_FCC_TB", "1", 1);
      const int spp = steps_per_pass (g, &R, y, RW_PRECISION_F64, sw);
      unsetenv ("ROOMWAVE_FCC_TB");
      RW_CHECK (spp == 2, "%s: the two-step passes not used (%d steps a pass)", room, spp);
      Run a = { 0 };
      if (run (g, &R, y, RW_PRECISION_F64, RW_BACKEND_CPU, sw, rcv, &a))
        {
          const long d = cuda_run_with ("ROOMWAVE_FCC_TB", "1", g, &R, y, RW_PRECISION_F64, sw,
                                        rcv, &a);
          RW_NOTE ("%s two-step %s fp64: %ld values differ from the CPU", room, what, d);
          RW_CHECK (d == 0, "%s: two-step fp64 differs from the CPU (%ld values; %s)", room, d,
                    what);
        }
      run_free (&a);
      static const RwPrecision precs[2] = { RW_PRECISION_F32, RW_PRECISION_F16 };
      /* in both orders of the sums: the split sums (the default) and
       * the offsets' (the passes add as the single steps do) */
      static const char *const sums[2] = { NULL, "offsets" };
      for (int k = 0; k < 4 && w < 2; k++)
        {
          const RwPrecision pr = precs[k % 2];
          const char *order = sums[k / 2] ? sums[k / 2] : "split";
          Run e = { 0 };
          if (sums[k / 2] != NULL)
            setenv ("ROOMWAVE_FCC_SUMS", sums[k / 2], 1);
          setenv ("ROOMWAVE_FCC_TB", "0", 1);
          const bool ok = run (g, &R, y, pr, RW_BACKEND_CUDA, sw, rcv, &e);
          unsetenv ("ROOMWAVE_FCC_TB");
          if (ok)
            {
              const long d = cuda_run_with ("ROOMWAVE_FCC_TB", "1", g, &R, y, pr, sw, rcv, &e);
              RW_NOTE ("%s two-step %s %s, %s sums: %ld values differ from single steps", room,
                       what, rw_precision_name (pr), order, d);
              RW_CHECK (d == 0, "%s: two-step %s, %s sums, differs from single steps (%ld values)",
                        room, rw_precision_name (pr), order, d);
            }
          unsetenv ("ROOMWAVE_FCC_SUMS");
          run_free (&e);
        }
    }
  unsetenv ("ROOMWAVE_FCC_ROWS");
  unsetenv ("ROOMWAVE_FCC_TB_ZC");
}

/* The poison, the NaN and the slices, on one room, fp64, R = 0.6. */
static void
check_writes (const char *room, RwGrid *g)
{
  const size_t n = g->nx * g->ny * g->nz;
  double R = 0.6;
  double *p = malloc (n * sizeof (double)), *q = malloc (n * sizeof (double));
  double *cpu = malloc (n * sizeof (double)), *gpu = malloc (n * sizeof (double));
  uint64_t rng = 88172645463325252ULL;
  for (size_t i = 0; i < n; i++)
    {
      rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
      const double u = (double) (rng >> 11) / 9007199254740992.0 * 2.0 - 1.0;
      p[i] = g->K[i] ? u : 0.0;
      q[i] = g->K[i] ? 0.5 * u : NAN;
    }
  RwSolverSetup su = { .grid = g, .surface_R = &R, .boundary = RW_BOUNDARY_FV,
                       .precision = RW_PRECISION_F64, .n_steps = 4 };
  RwError err = { 0 };
  const RwBackendOps *ops = rw_cuda_backend ();
  void *st = ops->create (&su, &err);
  RW_CHECK (st != NULL, "create: %s", err.message);
  if (st == NULL)
    goto out;
  /* the CPU's step from the same field: its backend has no write hook, so
   * the reference is the update of rw-scheme-fcc.h written out here */
  {
    static const int off[RW_FCC_N_NBR][3] = RW_FCC_NBR_OFFSETS;
    size_t rank = 0;
    for (size_t z = 0; z < g->nz; z++)
      for (size_t y = 0; y < g->ny; y++)
        for (size_t x = 0; x < g->nx; x++)
          {
            const size_t i = rw_grid_index (g, x, y, z);
            cpu[i] = q[i];
            const int K = g->K[i];
            if (K == 0)
              continue;
            double s = 0;
            for (int d = 0; d < RW_FCC_N_NBR; d++)
              s += p[rw_grid_index (g, x + off[d][0], y + off[d][1], z + off[d][2])];
            if (K == RW_FCC_N_NBR)
              cpu[i] = rw_fcc_update_air_f64 (RW_FCC_LAMBDA2, p[i], s, q[i]);
            else
              {
                /* with its wall entries (rw-scheme-fcc.h, "Wall links") */
                uint8_t count[RW_FCC_WALL_MAX_ENTRIES];
                size_t member[RW_FCC_WALL_MAX_MEMBERS];
                const int ne = rw_fcc_wall_entries (g, i, count, member, NULL);
                double means = 0;
                for (int e = 0, m = 0; e < ne; e++)
                  {
                    double t = 0;
                    for (int u = 0; u < count[e]; u++)
                      t += p[member[m++]];
                    means += t / (double) count[e];
                  }
                cpu[i] = rw_fcc_update_boundary_f64 (RW_FCC_LAMBDA2, rw_fcc_wall_K (K, ne),
                                                     rw_grid_node_area (g, rank, K), p[i],
                                                     rw_fcc_wall_sum (s, means), q[i],
                                                     rw_beta_of_R (R), 0, NULL, NULL, NULL, 0);
                rank++;
              }
          }
  }
  bool ok = rw_cuda_debug_write_field (st, p, q, &err) && ops->advance (st, 0, 1, NULL, 0, &err)
            && ops->read_field (st, NULL, gpu, &err);
  RW_CHECK (ok, "poisoned step: %s", err.message);
  if (ok)
    {
      /* after the step q holds p⁺ (the new field is read back as p_prev
       * once swapped: read_field's p is the new field) */
      ok = ops->read_field (st, gpu, NULL, &err);
      size_t wrong = 0, stray = 0;
      for (size_t z = 0; z < g->nz; z++)
        for (size_t y = 0; y < g->ny; y++)
          for (size_t x = 0; x < g->nx; x++)
            {
              const size_t i = rw_grid_index (g, x, y, z);
              const bool site = (x + y + z) % 2 == 0;
              if (g->K[i] != 0)
                wrong += memcmp (&gpu[i], &cpu[i], sizeof (double)) != 0;
              else if (site)
                stray += !isnan (gpu[i]);   /* an outside site: still the poison */
            }
      RW_NOTE ("%s: poisoned step: %zu inside sites differ from the reference, %zu outside sites "
               "written", room, wrong, stray);
      RW_CHECK (wrong == 0 && stray == 0, "%s: %zu sites wrong, %zu outside sites written", room,
                wrong, stray);
      /* slices: the planes of read_field */
      float *sl = malloc (n * sizeof (float));
      size_t bad = 0;
      const size_t zc = g->nz / 2;
      ok = ops->read_slice (st, 2, zc, sl, &err);
      RW_CHECK (ok, "read_slice: %s", err.message);
      for (size_t y = 0; ok && y < g->ny; y++)
        for (size_t x = 0; x < g->nx; x++)
          {
            const size_t i = rw_grid_index (g, x, y, zc);
            const double want = g->K[i] ? (float) gpu[i] : 0.0f;
            bad += sl[x + g->nx * y] != (float) want;
          }
      RW_CHECK (bad == 0, "%s: %zu slice values differ from read_field", room, bad);
      RW_CHECK (!ops->read_slice (st, 2, g->nz, sl, &err), "a slice outside the grid was read");
      free (sl);
      /* a NaN at an inside site */
      for (size_t i = 0; i < n; i++)
        if (g->K[i] == RW_FCC_N_NBR)
          {
            p[i] = NAN;
            break;
          }
      for (size_t i = 0; i < n; i++)
        q[i] = g->K[i] ? q[i] : 0.0;
      ok = rw_cuda_debug_write_field (st, p, q, &err);
      const bool failed = !ops->advance (st, 3, 1, NULL, 0, &err);
      RW_CHECK (ok && failed && err.code == RW_ERROR_UNSTABLE && strstr (err.message, "step 3 ") != NULL,
                "%s: a NaN at a site was not reported as unstable at step 3 (%s)", room, err.message);
    }
  ops->destroy (st);
out:
  free (p), free (q), free (cpu), free (gpu);
}

/* A float rounded to the nearest half, ties to even, as a double (the
 * values here are far from the half's overflow). */
static double
half_round (float f)
{
  if (f == 0.0f || !isfinite (f))
    return f;
  int e;
  (void) frexpf (f, &e);
  /* a half's spacing: 2^(e − 11) for its normals, 2^−24 below them */
  const int ue = e - 11 < -24 ? -24 : e - 11;
  return ldexp (nearbyint (ldexp ((double) f, -ue)), ue);
}

/* v as storage of precision prec keeps it. */
static double
stored (double v, RwPrecision prec)
{
  return prec == RW_PRECISION_F16 ? half_round ((float) v) : (double) (float) v;
}

/* The interior site (x, y, z)'s new value in fp32 arithmetic from p and
 * q (already as stored), its 12 neighbours summed as the air kernel's
 * split sums do (rw-cuda-fcc-wide.cuh: (U(z−1) + M(z)) + U(z+1), each U
 * and M two pairs) or in RW_FCC_NBR_OFFSETS order (offsets). Written from
 * the lattice's coordinates, not the kernel's rows. */
static float
air_ref (const RwGrid *g, const double *p, const double *q, size_t x, size_t y, size_t z,
         bool offsets)
{
#define P(dx, dy, dz) ((float) p[rw_grid_index (g, x + (dx), y + (dy), z + (dz))])
  float s;
  if (offsets)
    {
      static const int off[RW_FCC_N_NBR][3] = RW_FCC_NBR_OFFSETS;
      s = 0.0f;
      for (int d = 0; d < RW_FCC_N_NBR; d++)
        s = d == 0 ? P (off[d][0], off[d][1], off[d][2]) : s + P (off[d][0], off[d][1], off[d][2]);
    }
  else
    {
      const float u0 = (P (0, -1, -1) + P (0, 1, -1)) + (P (-1, 0, -1) + P (1, 0, -1));
      const float m = (P (-1, -1, 0) + P (-1, 1, 0)) + (P (1, -1, 0) + P (1, 1, 0));
      const float u1 = (P (0, -1, 1) + P (0, 1, 1)) + (P (-1, 0, 1) + P (1, 0, 1));
      s = (u0 + m) + u1;
    }
  return rw_fcc_update_air_f32 ((float) RW_FCC_LAMBDA2, P (0, 0, 0), s,
                                (float) q[rw_grid_index (g, x, y, z)]);
#undef P
}

/* One fp32 or fp16 step of the air kernel from a random field, against
 * air_ref bit for bit at every interior site: the default (the split
 * sums), and by ROOMWAVE_FCC_SUMS each form, flat and by rows, fp16's
 * rows as halves and as floats. */
static void
check_sums (const char *room, const RwGrid *g)
{
  const size_t n = g->nx * g->ny * g->nz;
  double *p = malloc (n * sizeof (double)), *q = malloc (n * sizeof (double));
  double *out = malloc (n * sizeof (double));
  static const RwPrecision precs[2] = { RW_PRECISION_F32, RW_PRECISION_F16 };
  /* the forms: env values of ROOMWAVE_FCC_ROWS, _F16_ROWS, _SUMS */
  static const char *forms[6][3] = { { NULL, NULL, NULL },
                                     { NULL, NULL, "split" },
                                     { "rows", NULL, "split" },
                                     { NULL, "float", "split" },
                                     { NULL, NULL, "offsets" },
                                     { "rows", NULL, "offsets" } };
  static const char *names[3] = { "ROOMWAVE_FCC_ROWS", "ROOMWAVE_FCC_F16_ROWS",
                                  "ROOMWAVE_FCC_SUMS" };
  double R = 0.6;
  for (int k = 0; k < 2; k++)
    {
      uint64_t rng = 88172645463325252ULL;
      for (size_t i = 0; i < n; i++)
        {
          rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
          const double u = (double) (rng >> 11) / 9007199254740992.0 * 2.0 - 1.0;
          p[i] = g->K[i] ? stored (u, precs[k]) : 0.0;
          q[i] = g->K[i] ? stored (0.5 * u, precs[k]) : 0.0;
        }
      for (int f = 0; f < 6; f++)
        {
          if (f == 3 && precs[k] != RW_PRECISION_F16)
            continue;
          for (int v = 0; v < 3; v++)
            if (forms[f][v] != NULL)
              setenv (names[v], forms[f][v], 1);
          RwSolverSetup su = { .grid = g, .surface_R = &R, .boundary = RW_BOUNDARY_FV,
                               .precision = precs[k], .n_steps = 1 };
          RwError err = { 0 };
          const RwBackendOps *ops = rw_cuda_backend ();
          void *st = ops->create (&su, &err);
          const bool ok = st != NULL && rw_cuda_debug_write_field (st, p, q, &err)
                          && ops->advance (st, 0, 1, NULL, 0, &err)
                          && ops->read_field (st, out, NULL, &err);
          if (st != NULL)
            ops->destroy (st);
          for (int v = 0; v < 3; v++)
            unsetenv (names[v]);
          RW_CHECK (ok, "%s: %s step: %s", room, rw_precision_name (precs[k]), err.message);
          if (!ok)
            continue;
          const bool offsets = forms[f][2] != NULL && strcmp (forms[f][2], "offsets") == 0;
          size_t wrong = 0, interior = 0;
          for (size_t z = 0; z < g->nz; z++)
            for (size_t y = 0; y < g->ny; y++)
              for (size_t x = 0; x < g->nx; x++)
                {
                  const size_t i = rw_grid_index (g, x, y, z);
                  if (g->K[i] != RW_FCC_N_NBR)
                    continue;
                  const double want = stored (air_ref (g, p, q, x, y, z, offsets), precs[k]);
                  wrong += memcmp (&out[i], &want, sizeof (double)) != 0;
                  interior++;
                }
          RW_NOTE ("%s: %s, %s%s%s%s: %zu of %zu interior sites differ from the reference", room,
                   rw_precision_name (precs[k]), offsets ? "offsets' order" : "split sums",
                   forms[f][2] ? "" : " (default)", forms[f][0] ? ", by rows" : "",
                   forms[f][1] ? ", rows as floats" : "", wrong, interior);
          RW_CHECK (interior > 0 && wrong == 0, "%s: %s %s: %zu of %zu interior sites differ from "
                    "the reference", room, rw_precision_name (precs[k]),
                    offsets ? "offsets' order" : "split sums", wrong, interior);
        }
    }
  free (p), free (q), free (out);
}

/* Every check of the header, on the box, the L-room and the sphere
 * (quick: the L-room alone). */
static void
check_all (RwGrid *box, RwGrid *ell, RwGrid *sph, bool quick)
{
  if (!quick)
    check_room ("box", box, false);
  check_room ("L-room", ell, true);
  if (!quick)
    check_room ("sphere", sph, false);
  /* two steps a pass: the L-room, and a long box whose rows take two
   * segments (the ring lanes of one are lanes of the next) */
  check_two_step ("L-room", ell);
  RwGrid *lng = rw_grid_new_box_fcc (290, 12, 10, 0.1);
  if (!quick)
    check_two_step ("long box", lng);
  rw_grid_free (lng);
  check_writes ("L-room", ell);
  check_writes ("sphere", sph);
  check_sums ("L-room", ell);
  if (!quick)
    check_sums ("sphere", sph);
}

int
main (void)
{
  if (!cuda_test_require ())
    return rw_test_finish ();
  RwGrid *box = rw_grid_new_box_fcc (12, 10, 9, 0.1);
  double size[3] = { 14, 12, 9 };
  RwGrid *ell = test_grid_fcc (14, 12, 9, 0.1, test_inside_l, size);
  double ssize[3] = { 13, 13, 13 };
  RwGrid *sph = test_grid_fcc (13, 13, 13, 0.1, test_inside_sphere, ssize);
  /* RW_TEST_QUICK=1: the L-room alone; =2 (tests/gpu/run.sh, for
   * racecheck): its two-step passes alone (the kernel with a ring in
   * shared memory; their runs also take single steps, with the boundary
   * and means kernels, and read the energy) */
  const char *qe = getenv ("RW_TEST_QUICK");
  const bool quick = qe != NULL && strcmp (qe, "1") == 0;
  if (qe != NULL && strcmp (qe, "2") == 0)
    check_two_step ("L-room", ell);
  else
    check_all (box, ell, sph, quick);
  rw_grid_free (box);
  rw_grid_free (ell);
  rw_grid_free (sph);
  return rw_test_finish ();
}

#endif /* RW_HAVE_CUDA */
