/* SPDX-License-Identifier: GPL-3.0-or-later */
/* slab-mpi-N: a run spread over N MPI ranks (issue #15; rw-slab.h) gives
 * bit for bit, in fp64, the receivers one rank gives, on both lattices.
 * Started by mpirun -np N (tests/meson.build: N = 2, 3).
 *
 * The room: an L-shaped room with a sloped ceiling would need a mesh of
 * its own, so the mesh is rw_shape_lroom (re-entrant walls, eight
 * surfaces) voxelised at h = 0.1 m (cubic) and 0.12 m (FCC), every
 * surface frequency dependent (a fit to a rising α per octave: branches,
 * whose states are per boundary node), two of them different. The cuts
 * (rw_slab_plan, the same on every rank) are where the test puts things:
 *  - the source halfway between the two planes of the first cut, so its
 *    interpolation stencil spreads over two ranks;
 *  - a receiver straddling every cut, one 1.5 cells from a wall beside a
 *    cut (boundary nodes with branches and, on FCC, wall links on both
 *    sides), and one far from every cut;
 * and the cuts themselves pass through the walls (boundary nodes on the
 * cut planes, both lattices).
 * Every rank runs the spread solver; rank 0 then runs the whole grid
 * alone (comm NULL) and compares every receiver sample with memcmp, and
 * the energy and uniform-mode readings to 1e-12 (their sums are added in
 * another order). What fails it: a halo plane short (FCC's second plane:
 * wall links read it), a ghost left unexchanged, the source applied on
 * two ranks or on none, a receiver cell read from a ghost, energy summed
 * over ghosts (readings 10–30 % high), a slab starting on an odd plane of
 * the FCC lattice (other sites). */
#include "rw-test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rw-admittance.h"
#include "rw-comm.h"
#include "rw-shapes.h"
#include "rw-slab.h"
#include "rw-solver.h"

#define N_STEPS 600
#define MAX_RCV 16

static void
run_lattice (const RwComm *comm, RwLattice lattice)
{
  const int rank = rw_comm_rank (comm), size = rw_comm_size (comm);
  const double h = lattice == RW_LATTICE_FCC ? 0.12 : 0.1;
  RwError err;
  rw_error_clear (&err);
  RwMesh *mesh = rw_shape_lroom (3.1, 2.3, 2.05, 1.9, 1.4);
  RwGrid *g = lattice == RW_LATTICE_FCC ? rw_voxelise_fcc (mesh, h, 1, &err)
                                        : rw_voxelise (mesh, h, 1, &err);
  RW_CHECK (g != NULL, "voxelise: %s", err.message);
  if (g == NULL)
    return;
  /* frequency-dependent surfaces: α rising with frequency, two kinds */
  const size_t ns = g->n_surfaces;
  RwAdmittance *Y = calloc (ns, sizeof *Y);
  double *R = calloc (ns, sizeof *R);
  for (size_t s = 0; s < ns; s++)
    {
      double a[RW_ADM_N_BANDS];
      for (int b = 0; b < RW_ADM_N_BANDS; b++)
        a[b] = s % 2 ? 0.05 + 0.1 * b : 0.3 - 0.02 * b;
      RW_CHECK (rw_admittance_fit_alpha (a, 5, &Y[s], NULL, &err), "fit: %s", err.message);
      R[s] = (1.0 - Y[s].Y0) / (1.0 + Y[s].Y0);
    }
  size_t cuts[8];
  RW_CHECK (rw_slab_plan (g, size, cuts, &err), "plan: %s", err.message);
  const double z0 = g->origin[2], x0 = g->origin[0], y0 = g->origin[1];
  /* the source between the first cut's planes, near the room's middle */
  double src[3] = { 0.8, 0.7, z0 + h * ((double) cuts[size > 1 ? 1 : 0] - 0.5) };
  if (size == 1)
    src[2] = 1.0;
  double pos[MAX_RCV][3];
  size_t n_rcv = 0;
  for (int k = 1; k < size; k++)
    {
      const double zc = z0 + h * ((double) cuts[k] - 0.5);
      pos[n_rcv][0] = 2.3; pos[n_rcv][1] = 0.5; pos[n_rcv][2] = zc; n_rcv++;
      /* 1.5 cells from the wall x = 0 */
      pos[n_rcv][0] = x0 + h * (double) lround ((0.0 - x0) / h) + 1.5 * h;
      pos[n_rcv][1] = 1.1; pos[n_rcv][2] = zc + 0.3 * h; n_rcv++;
    }
  pos[n_rcv][0] = 2.6; pos[n_rcv][1] = 0.4; pos[n_rcv][2] = 0.35; n_rcv++;
  (void) y0;
  RwGridStencil st[MAX_RCV], sst;
  RW_CHECK (rw_grid_interp (g, src, "source", &sst, &err), "source: %s", err.message);
  for (size_t r = 0; r < n_rcv; r++)
    RW_CHECK (rw_grid_interp (g, pos[r], "receiver", &st[r], &err), "receiver %zu: %s", r,
              err.message);
  double *sig = calloc (N_STEPS, sizeof *sig);
  sig[0] = 1.0;
  sig[1] = -0.5;
  sig[7] = 0.25;
  const double c = 343.0, fs = lattice == RW_LATTICE_FCC ? c / h : c * sqrt (3.0) / h;
  RwSolverSetup su = {
    .grid = g, .surface_R = R, .surface_Y = Y, .time_step_s = 1.0 / fs,
    .boundary = RW_BOUNDARY_FV, .precision = RW_PRECISION_F64, .n_steps = N_STEPS,
    .source_stencil = &sst, .source_kind = RW_SOURCE_SOFT, .source_signal = sig,
    .n_receivers = n_rcv, .receiver_stencils = st, .threads = 1, .comm = comm,
  };
  RwSolver *spread = rw_solver_new (&su, RW_BACKEND_CPU, &err);
  RW_CHECK (spread != NULL, "rank %d: spread solver: %s", rank, err.message);
  double e_spread = 0.0;
  if (spread != NULL)
    {
      RW_CHECK (rw_solver_advance (spread, N_STEPS, &err), "rank %d: spread run: %s", rank,
                err.message);
      RW_CHECK (rw_solver_energy (spread, &e_spread, &err), "energy: %s", err.message);
    }
  if (rank == 0 && spread != NULL)
    {
      su.comm = NULL;
      RwSolver *one = rw_solver_new (&su, RW_BACKEND_CPU, &err);
      RW_CHECK (one != NULL, "one rank: %s", err.message);
      RW_CHECK (rw_solver_advance (one, N_STEPS, &err), "one rank run: %s", err.message);
      size_t differ = 0;
      double peak = 0.0;
      for (size_t r = 0; r < n_rcv; r++)
        {
          const double *a = rw_solver_receiver (one, r), *b = rw_solver_receiver (spread, r);
          for (size_t k = 0; k < N_STEPS; k++)
            peak = fmax (peak, fabs (a[k]));
          if (memcmp (a, b, N_STEPS * sizeof (double)) != 0)
            {
              differ++;
              size_t k = 0;
              while (a[k] == b[k])
                k++;
              RW_NOTE ("receiver %zu (%zu cells) differs first at step %zu: %.17g vs %.17g", r,
                       st[r].n, k, a[k], b[k]);
            }
        }
      RW_CHECK (differ == 0, "%s, %d ranks: %zu of %zu receivers differ from one rank's",
                lattice == RW_LATTICE_FCC ? "FCC" : "cubic", size, differ, n_rcv);
      RW_CHECK (peak > 1e-4, "the receivers heard the source (peak %g)", peak);
      double e_one = 0.0;
      RW_CHECK (rw_solver_energy (one, &e_one, &err), "energy: %s", err.message);
      RW_CHECK_CLOSE (e_spread, e_one, 1e-12 * fabs (e_one), "energy summed over ranks");
      const size_t *sa, *sb;
      const double *ua, *ub;
      const size_t na = rw_solver_uniform_mode (one, &sa, &ua), nb = rw_solver_uniform_mode (spread, &sb, &ub);
      RW_CHECK (na == nb && na > 2, "uniform-mode readings %zu and %zu", na, nb);
      double worst = 0.0, scale = 0.0;
      for (size_t k = 0; k < na && k < nb; k++)
        {
          worst = fmax (worst, fabs (ua[k] - ub[k]));
          scale = fmax (scale, fabs (ua[k]));
        }
      RW_CHECK (worst <= 1e-12 * scale, "uniform mode over ranks: off by %g of %g", worst, scale);
      RW_NOTE ("%s, %d ranks (cuts at %zu … of %zu planes): %zu receivers, bit for bit; energy "
               "%.6g vs %.6g", lattice == RW_LATTICE_FCC ? "FCC" : "cubic", size,
               size > 1 ? cuts[1] : 0, g->nz, n_rcv, e_spread, e_one);
      rw_solver_free (one);
    }
  rw_solver_free (spread);
  free (sig);
  free (R);
  free (Y);
  rw_grid_free (g);
  rw_mesh_free (mesh);
}

int
main (void)
{
  RwError err;
  rw_error_clear (&err);
  RwComm *comm = rw_comm_world (&err);
  if (comm == NULL && err.code != RW_OK)
    {
      fprintf (stderr, "%s\n", err.message);
      return 1;
    }
  if (rw_comm_size (comm) < 2)
    RW_NOTE ("one rank: the spread solver is the single one (run under mpirun -np N)");
  run_lattice (comm, RW_LATTICE_CUBIC);
  run_lattice (comm, RW_LATTICE_FCC);
  /* every rank's failures count: the least "all well" over the ranks */
  int ok = rw_test_failures == 0;
  rw_comm_min_int (comm, &ok, &err);
  if (!ok && rw_test_failures == 0)
    RW_CHECK (false, "another rank failed");
  rw_comm_finalize ();
  return rw_test_finish ();
}
