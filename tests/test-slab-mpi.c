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
 * alone (comm NULL) and compares every receiver sample with memcmp, the
 * energy to 1e-12 (its sums are added in another order) and the
 * uniform-mode readings bit for bit (exact sums, rw-exact-sum.h; summed
 * in double they differed in their last bits). What fails it: a halo plane short (FCC's second plane:
 * wall links read it), a ghost left unexchanged, the source applied on
 * two ranks or on none, a receiver cell read from a ghost, energy summed
 * over ghosts (readings 10–30 % high), a slab starting on an odd plane of
 * the FCC lattice (other sites).
 * A second, shorter run on each lattice puts the source (one cell, no
 * stencil) in the top slab and one receiver (a cell, no stencil) in the
 * bottom one: every other rank owns no source cell, and all but one no
 * receiver (rw-backend.h: a backend must step a slab with neither).
 *
 * RW_SLAB_BACKEND=cuda (tests/meson.build: slab-mpi-cuda-N; tests/gpu/
 * run.sh mpi): every rank steps its slab on the CUDA backend, on device
 * rw_comm_local_rank % the device count, in fp64; rank 0 compares with
 * one rank on CUDA and with one rank on the CPU, both bit for bit (the
 * CUDA kernels' fp64 is the CPU's, nvcc -fmad=false: docs/GPU.md). What
 * it is there to catch besides (written without a GPU: not yet seen
 * failing on one): a plane copied at another pitch than the stored one
 * (the 7-point path pads rows to 32 cells, the FCC path folds them),
 * branch or wall-link energy counted on ghost planes. Skips (77) on every
 * rank when a rank finds no CUDA device. */
#include "rw-test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rw-admittance.h"
#include "rw-comm.h"
#include "rw-slab.h"
#include "rw-solver.h"
#include "test-slab-room.h"

#define N_STEPS 600
#define N_STEPS_APART 300
#define MAX_RCV 16

/* The backend every rank's slab steps on (RW_SLAB_BACKEND) and its device. */
static RwBackendKind backend = RW_BACKEND_CPU;
static int device;

static const char *
lattice_name (RwLattice lattice)
{
  return lattice == RW_LATTICE_FCC ? "FCC" : "cubic";
}

/* apart: the second run of the file comment (source in the top slab, one
 * receiver in the bottom one, no stencils). */
static void
run_lattice (const RwComm *comm, RwLattice lattice, bool apart)
{
  const int rank = rw_comm_rank (comm), size = rw_comm_size (comm);
  const double h = slab_test_h (lattice);
  RwError err;
  rw_error_clear (&err);
  RwAdmittance *Y;
  double *R;
  RwGrid *g = slab_test_room (lattice, 0.0, &Y, &R);
  if (g == NULL)
    return;
  size_t cuts[8];
  RW_CHECK (rw_slab_plan (g, size, cuts, &err), "plan: %s", err.message);
  const double z0 = g->origin[2], x0 = g->origin[0], y0 = g->origin[1];
  /* the source between the first cut's planes, near the room's middle */
  double src[3] = { 0.8, 0.7, z0 + h * ((double) cuts[size > 1 ? 1 : 0] - 0.5) };
  if (size == 1)
    src[2] = 1.0;
  double pos[MAX_RCV][3];
  size_t n_rcv = 0;
  for (int k = 1; !apart && k < size; k++)
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
  size_t cells[MAX_RCV], src_cell = 0;
  if (apart)
    {
      src[2] = 1.8;
      RW_CHECK (rw_grid_locate (g, src, "source", &src_cell, &err), "source: %s", err.message);
      for (size_t r = 0; r < n_rcv; r++)
        RW_CHECK (rw_grid_locate (g, pos[r], "receiver", &cells[r], &err), "receiver %zu: %s", r,
                  err.message);
      const size_t nxy = g->nx * g->ny;
      RW_CHECK (size == 1 || (src_cell / nxy >= cuts[size - 1] && cells[0] / nxy < cuts[1]),
                "source (plane %zu) in the top slab, the receiver (plane %zu) in the bottom one",
                src_cell / nxy, cells[0] / nxy);
    }
  else
    {
      RW_CHECK (rw_grid_interp (g, src, "source", &sst, &err), "source: %s", err.message);
      for (size_t r = 0; r < n_rcv; r++)
        RW_CHECK (rw_grid_interp (g, pos[r], "receiver", &st[r], &err), "receiver %zu: %s", r,
                  err.message);
    }
  const size_t n_steps = apart ? N_STEPS_APART : N_STEPS;
  double *sig = calloc (N_STEPS, sizeof *sig);
  sig[0] = 1.0;
  sig[1] = -0.5;
  sig[7] = 0.25;
  const double c = 343.0, fs = lattice == RW_LATTICE_FCC ? c / h : c * sqrt (3.0) / h;
  RwSolverSetup su = {
    .grid = g, .surface_R = R, .surface_Y = Y, .time_step_s = 1.0 / fs,
    .boundary = RW_BOUNDARY_FV, .precision = RW_PRECISION_F64, .n_steps = n_steps,
    .source_stencil = apart ? NULL : &sst, .source_cell = src_cell,
    .source_kind = RW_SOURCE_SOFT, .source_signal = sig, .n_receivers = n_rcv,
    .receiver_stencils = apart ? NULL : st, .receiver_cells = apart ? cells : NULL,
    .threads = 1, .device = device, .comm = comm,
  };
  const char *what = apart ? "source and receiver apart" : "stencils across the cuts";
  RwSolver *spread = rw_solver_new (&su, backend, &err);
  RW_CHECK (spread != NULL, "rank %d: spread solver: %s", rank, err.message);
  double e_spread = 0.0;
  if (spread != NULL)
    {
      RW_CHECK (rw_solver_advance (spread, n_steps, &err), "rank %d: spread run: %s", rank,
                err.message);
      RW_CHECK (rw_solver_energy (spread, &e_spread, &err), "energy: %s", err.message);
    }
  if (rank == 0 && spread != NULL)
    {
      su.comm = NULL;
      RwSolver *one = rw_solver_new (&su, backend, &err);
      RW_CHECK (one != NULL, "one rank: %s", err.message);
      RW_CHECK (rw_solver_advance (one, n_steps, &err), "one rank run: %s", err.message);
      double peak = 0.0;
      const size_t differ = receivers_differ (one, spread, n_rcv, n_steps, &peak);
      RW_CHECK (differ == 0, "%s, %s, %s, %d ranks: %zu of %zu receivers differ from one rank's",
                lattice_name (lattice), what, rw_backend_kind_name (backend), size, differ, n_rcv);
      RW_CHECK (peak > 1e-4, "the receivers heard the source (peak %g)", peak);
      double e_one = 0.0;
      RW_CHECK (rw_solver_energy (one, &e_one, &err), "energy: %s", err.message);
      if (backend != RW_BACKEND_CPU)
        {
          /* the same run on one rank of the CPU, bit for bit */
          RwSolver *cpu = rw_solver_new (&su, RW_BACKEND_CPU, &err);
          RW_CHECK (cpu != NULL, "one rank on the CPU: %s", err.message);
          double e_cpu = 0.0, cpu_peak = 0.0;
          if (cpu != NULL)
            {
              RW_CHECK (rw_solver_advance (cpu, n_steps, &err), "CPU run: %s", err.message);
              const size_t d = receivers_differ (cpu, spread, n_rcv, n_steps, &cpu_peak);
              RW_CHECK (d == 0, "%s, %s, %d ranks on %s: %zu of %zu receivers differ from one "
                        "rank's on the CPU", lattice_name (lattice), what, size,
                        rw_backend_kind_name (backend), d, n_rcv);
              RW_CHECK (rw_solver_energy (cpu, &e_cpu, &err), "energy: %s", err.message);
              RW_CHECK_CLOSE (e_spread, e_cpu, 1e-12 * fabs (e_cpu), "energy against the CPU's");
              rw_solver_free (cpu);
            }
        }
      RW_CHECK_CLOSE (e_spread, e_one, 1e-12 * fabs (e_one), "energy summed over ranks");
      const size_t *sa, *sb;
      const double *ua, *ub;
      const size_t na = rw_solver_uniform_mode (one, &sa, &ua), nb = rw_solver_uniform_mode (spread, &sb, &ub);
      RW_CHECK (na == nb && na > 2, "uniform-mode readings %zu and %zu", na, nb);
      /* the sums of p are exact (rw-exact-sum.h): bit for bit */
      size_t m_differ = 0;
      double scale = 0.0;
      for (size_t k = 0; k < na && k < nb; k++)
        {
          m_differ += ua[k] != ub[k];
          scale = fmax (scale, fabs (ua[k]));
        }
      RW_CHECK (m_differ == 0 && scale > 0.0, "uniform mode over ranks: %zu of %zu readings differ",
                m_differ, na);
      RW_NOTE ("%s, %s, %d ranks on %s (cuts at %zu … of %zu planes): %zu receivers, bit for "
               "bit; energy %.6g vs %.6g", lattice_name (lattice), what, size,
               rw_backend_kind_name (backend), size > 1 ? cuts[1] : 0, g->nz, n_rcv, e_spread,
               e_one);
      rw_solver_free (one);
    }
  rw_solver_free (spread);
  free (sig);
  free (R);
  free (Y);
  rw_grid_free (g);
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
  const char *b = getenv ("RW_SLAB_BACKEND");
  if (b != NULL && *b != '\0' && !rw_backend_kind_parse (b, &backend))
    {
      fprintf (stderr, "RW_SLAB_BACKEND=%s: not a backend (cpu, cuda)\n", b);
      rw_comm_finalize ();
      return 1;
    }
  /* a device backend: every rank must find one, or all skip (a rank
   * alone would wait for the others in the solver's first collective) */
  char why[sizeof err.message + 32] = "";
  int usable = 1;
  if (backend != RW_BACKEND_CPU)
    {
      const RwBackendOps *ops = rw_backend_choose (backend, RW_PRECISION_F64, &err);
      if (ops == NULL)
        {
          snprintf (why, sizeof why, "rank %d: %s", rw_comm_rank (comm), err.message);
          usable = 0;
        }
      else
        device = rw_backend_rank_device (ops, 0, rw_comm_local_rank (comm));
    }
  int all = usable;
  if (comm != NULL)   /* NULL: one rank (mpirun -np 1), nothing to agree */
    rw_comm_min_int (comm, &all, &err);
  if (!all)
    {
      rw_test_skip (usable ? "another rank found no device for RW_SLAB_BACKEND" : why);
      rw_comm_finalize ();
      return rw_test_finish ();
    }
  if (backend != RW_BACKEND_CPU)
    RW_NOTE ("rank %d of %d: %s backend, device %d", rw_comm_rank (comm), rw_comm_size (comm),
             rw_backend_kind_name (backend), device);
  for (int apart = 0; apart < 2; apart++)
    {
      run_lattice (comm, RW_LATTICE_CUBIC, apart);
      run_lattice (comm, RW_LATTICE_FCC, apart);
    }
  /* every rank's failures count: the least "all well" over the ranks */
  int ok = rw_test_failures == 0;
  if (comm != NULL)
    rw_comm_min_int (comm, &ok, &err);
  if (!ok && rw_test_failures == 0)
    RW_CHECK (false, "another rank failed");
  rw_comm_finalize ();
  return rw_test_finish ();
}
