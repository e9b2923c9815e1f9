/* SPDX-License-Identifier: GPL-3.0-or-later */
/* solver-fcc-matches-reference: the CPU backend on an FCC grid
 * (rw_grid_new_box_fcc, rigid walls, fp64) computes exactly what the dense
 * reference solver rw-fcc.c computes for the same box — bit for bit, at
 * every receiver and step and at every site of the final field.
 *
 * The two share only rw-scheme-fcc.h's node updates and the neighbour
 * order RW_FCC_NBR_OFFSETS; the reference stores the cubic array and
 * finds neighbours by coordinates, the backend stores the sites folded
 * along x (odd and even rows, nx odd and even: 13 × 10 × 9 and 8 × 11 × 12
 * cells), with row offsets by parity, runs of interior sites and a
 * boundary list, strips handed to threads (RW_CPU_STEPS_PER_PASS = 4 is
 * asked too; FCC grids run one step a sweep, their wall links reaching two
 * planes). Rigid walls with their wall links (rw-scheme-fcc.h), which the
 * reference finds by coordinates. A wrong fold, offset, row parity, neighbour order
 * or stored index of the source or a receiver changes bits at once.
 * (Rigid walls: the backend's boundary update with β = 0 is the
 * reference's graph Laplacian to the bit, rw-scheme-fcc.h.)
 *
 * The box of rw_grid_new_box_fcc (nx, ny, nz) is the reference's box with
 * sites of odd i + j + k (rw_ref_sim_new_box, parity 1). The source is a
 * soft one playing 60 Gaussian samples, then silent; receivers at the
 * source, at a corner site, on a face and inside; 300 steps. Also: the
 * energy the backend reports (rw_solver_energy) and rw_field_energy of
 * the field it reads back agree with the reference's rw_ref_sim_energy to
 * 1e-12 (they sum in other orders), slices along x, y and z hold the
 * reference's values (as float) and 0 off the sites, and a hard source
 * holds its cell at the signal's values exactly. */
#include "rw-test.h"
#include "test-solver-fcc.h"
#include "rw-fcc.h"

#include <string.h>

#define STEPS 300
#define N_RCV 4

static void
compare (size_t nx, size_t ny, size_t nz, int threads, const char *steps_per_pass)
{
  setenv ("RW_CPU_STEPS_PER_PASS", steps_per_pass, 1);
  RwGrid *g = rw_grid_new_box_fcc (nx, ny, nz, 0.1);
  RwRefSim *ref = rw_ref_sim_new_box (RW_REF_FCC13, (int) nx, (int) ny, (int) nz, 1.0, 1);
  RW_CHECK (g != NULL && ref != NULL, "grid or reference");
  if (g == NULL || ref == NULL)
    return;
  /* interior (0-based) coordinates of the source and receivers: sites
   * when i + j + k is odd */
  const int at[1 + N_RCV][3] = {
    { 3, 2, 2 }, { 0, 0, 1 }, { (int) nx - 1, 3, 1 }, { 4, 4, 3 }, { 1, (int) ny - 1, (int) nz - 1 },
  };
  size_t cells[1 + N_RCV];
  for (int r = 0; r < 1 + N_RCV; r++)
    {
      int x = at[r][0], y = at[r][1], z = at[r][2];
      if (((x + y + z) & 1) == 0)
        z = z > 0 ? z - 1 : z + 1;
      cells[r] = test_cell (g, (size_t) x, (size_t) y, (size_t) z);
      RW_CHECK (rw_ref_sim_is_site (ref, x, y, z), "(%d, %d, %d) is no site", x, y, z);
    }
  double sig[STEPS] = { 0 };
  for (int k = 0; k < 60; k++)
    sig[k] = exp (-0.5 * pow ((k - 20) / 6.0, 2)) * (k % 3 == 0 ? 1.0 : -0.5);
  double R = 1.0;
  RwSolverSetup su = {
    .grid = g, .surface_R = &R, .boundary = RW_BOUNDARY_FV, .precision = RW_PRECISION_F64,
    .n_steps = STEPS, .source_cell = cells[0], .source_kind = RW_SOURCE_SOFT,
    .source_signal = sig, .n_receivers = N_RCV, .receiver_cells = cells + 1, .threads = threads,
  };
  RwError err;
  RwSolver *s = rw_solver_new (&su, RW_BACKEND_CPU, &err);
  RW_CHECK (s != NULL, "rw_solver_new: %s", s ? "" : err.message);
  if (s == NULL || !rw_solver_run (s, NULL, NULL, NULL, &err))
    {
      RW_CHECK (false, "run: %s", err.message);
      rw_solver_free (s);
      rw_grid_free (g);
      rw_ref_sim_free (ref);
      return;
    }
  size_t diff = 0, first = SIZE_MAX;
  double peak = 0;
  for (size_t k = 0; k < STEPS; k++)
    {
      rw_ref_sim_step (ref);
      rw_ref_sim_add (ref, at[0][0], at[0][1], ((at[0][0] + at[0][1] + at[0][2]) & 1) ? at[0][2]
                                                                                      : at[0][2] - 1,
                      sig[k]);
      for (int r = 0; r < N_RCV; r++)
        {
          int x = at[r + 1][0], y = at[r + 1][1], z = at[r + 1][2];
          if (((x + y + z) & 1) == 0)
            z = z > 0 ? z - 1 : z + 1;
          double a = rw_solver_receiver (s, (size_t) r)[k], b = rw_ref_sim_get (ref, x, y, z);
          peak = fmax (peak, fabs (b));
          if (memcmp (&a, &b, sizeof a) != 0)
            {
              diff++;
              if (first == SIZE_MAX)
                first = k;
            }
        }
    }
  RW_CHECK (diff == 0, "%zu × %zu × %zu, %d threads, %s steps/pass: %zu receiver samples differ "
            "from the reference, the first at step %zu", nx, ny, nz, threads, steps_per_pass,
            diff, first);
  RW_CHECK (peak > 1e-3, "the receivers heard nothing (peak %g)", peak);

  /* the final field at every cell: the site's value, 0 elsewhere */
  const size_t n = g->nx * g->ny * g->nz;
  double *p = malloc (n * sizeof (double)), *q = malloc (n * sizeof (double));
  size_t bad = 0;
  if (rw_solver_read_field (s, p, q, &err))
    for (size_t z = 0; z < g->nz; z++)
      for (size_t y = 0; y < g->ny; y++)
        for (size_t x = 0; x < g->nx; x++)
          {
            double want = 0.0;
            if (x > 0 && y > 0 && z > 0 && x + 1 < g->nx && y + 1 < g->ny && z + 1 < g->nz)
              want = rw_ref_sim_get (ref, (int) x - 1, (int) y - 1, (int) z - 1);
            double got = p[rw_grid_index (g, x, y, z)];
            bad += memcmp (&got, &want, sizeof got) != 0 && !(got == 0.0 && want == 0.0);
          }
  RW_CHECK (bad == 0, "%zu cells of the final field differ from the reference", bad);
  /* a slice along each axis: the field as float, 0 off the sites */
  float *slice = malloc (n * sizeof (float));
  size_t bad_slice = 0;
  for (int axis = 0; axis < 3; axis++)
    {
      const size_t index = 3 + (size_t) axis, dim[3] = { g->nx, g->ny, g->nz };
      RW_CHECK (rw_solver_read_slice (s, axis, index, slice, &err), "slice: %s", err.message);
      const size_t na = axis == 0 ? g->ny : g->nx, nb = axis == 2 ? g->ny : g->nz;
      for (size_t b = 0; b < nb; b++)
        for (size_t a = 0; a < na; a++)
          {
            size_t c[3];
            c[axis] = index;
            c[axis == 0 ? 1 : 0] = a;
            c[axis == 2 ? 1 : 2] = b;
            bool in = true;
            for (int e = 0; e < 3; e++)
              in = in && c[e] > 0 && c[e] + 1 < dim[e];
            const float want = in ? (float) rw_ref_sim_get (ref, (int) c[0] - 1, (int) c[1] - 1,
                                                            (int) c[2] - 1) : 0.0f;
            bad_slice += slice[a + na * b] != want;
          }
    }
  RW_CHECK (bad_slice == 0, "%zu values of the slices differ from the reference", bad_slice);
  free (slice);
  double e_ref = rw_ref_sim_energy (ref), e_sol = NAN, e_field = rw_field_energy (g, p, q);
  RW_CHECK (rw_solver_energy (s, &e_sol, &err), "energy: %s", err.message);
  RW_NOTE ("%zu × %zu × %zu (%zu sites), %d thread(s), %s step(s)/pass: %zu samples equal; "
           "energy %.15g (reference %.15g, read back %.15g)", nx, ny, nz, g->n_inside, threads,
           steps_per_pass, (size_t) STEPS * N_RCV - diff, e_sol, e_ref, e_field);
  RW_CHECK (fabs (e_sol - e_ref) <= 1e-12 * e_ref && fabs (e_field - e_ref) <= 1e-12 * e_ref,
            "energy %.17g / %.17g, reference %.17g", e_sol, e_field, e_ref);
  free (p);
  free (q);
  rw_solver_free (s);
  rw_grid_free (g);
  rw_ref_sim_free (ref);
}

/* A hard source assigns its cell: the receiver there reads the signal. */
static void
hard_source (void)
{
  RwGrid *g = rw_grid_new_box_fcc (9, 8, 7, 0.1);
  double sig[100], R = 0.5;
  for (int k = 0; k < 100; k++)
    sig[k] = sin (0.3 * k) * exp (-0.01 * k);
  size_t cell = test_fcc_site (g, 4, 3, 3);
  RwSolverSetup su = {
    .grid = g, .surface_R = &R, .boundary = RW_BOUNDARY_FV, .precision = RW_PRECISION_F32,
    .n_steps = 100, .source_cell = cell, .source_kind = RW_SOURCE_HARD,
    .source_signal = sig, .n_receivers = 1, .receiver_cells = &cell,
  };
  RwError err;
  RwSolver *s = rw_solver_new (&su, RW_BACKEND_CPU, &err);
  RW_CHECK (s != NULL && rw_solver_run (s, NULL, NULL, NULL, &err), "hard source: %s", err.message);
  size_t bad = 0;
  for (int k = 0; s != NULL && k < 100; k++)
    bad += rw_solver_receiver (s, 0)[k] != (double) (float) sig[k];
  RW_CHECK (bad == 0, "hard source: %zu samples are not the signal", bad);
  rw_solver_free (s);
  rw_grid_free (g);
}

int
main (void)
{
  compare (13, 10, 9, 1, "1");
  compare (13, 10, 9, 2, "4");
  compare (8, 11, 12, 2, "1");
  compare (8, 11, 12, 1, "2");
  hard_source ();
  return rw_test_finish ();
}
