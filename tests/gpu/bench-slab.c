/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-slab — what the halo exchange of a run spread over ranks costs
 * (issue #15), under mpirun, one rank a GPU (device: local rank mod the
 * device count), through the front end (rw_solver_new with the job's
 * ranks):
 *
 *   mpirun -np N bench-slab [SITES_PER_RANK [STEPS [f32|f16|f64]]]
 *
 * An FCC hall (rw_shape_hall 40 × 24 × 15 m scaled) of about N ·
 * SITES_PER_RANK sites (default 400e6: each rank's slab about the size of
 * the one-GPU run below) is cut into N slabs and stepped STEPS steps
 * (default 200, after 20 untimed) three ways:
 *   device: the halo planes exchanged by the backend on the device (NCCL,
 *           overlapped with the interior: kernels/rw-cuda-halo.cuh);
 *   host:   ROOMWAVE_HALO=host, through the host (get_planes, MPI,
 *           set_planes) after every step;
 *   none:   ROOMWAVE_HALO=none, nothing exchanged (benchmarks only: each
 *           rank's slab alone; its ghosts are then wrong);
 * and reported per rank as milliseconds a step (the growth monitor's
 * readings every RW_ENERGY_CHECK_STEPS steps included, as in a run).
 * Each rank voxelises its own slab alone (rw_slab_voxelise_ranks, as
 * `simulate` under mpirun does), so that a hall larger than one host's
 * memory for a whole grid can be measured; RW_SLAB_BACKEND=cpu steps
 * the slabs on the CPU backend instead (the path checked without a GPU).
 * Then rank 0 steps the hall of SITES_PER_RANK sites alone on its device
 * (comm NULL): the weak-scaling reference, its step time against the
 * slowest rank's with the device exchange. A mode the build cannot run
 * (no NCCL: the device mode is the host path) says so. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rw-backend.h"
#include "rw-clock.h"
#include "rw-comm.h"
#include "rw-mesh.h"
#include "rw-shapes.h"
#include "rw-slab.h"
#include "rw-solver.h"
#include "rw-voxel.h"

#define WARM_STEPS 20

/* The backend the slabs step on (RW_SLAB_BACKEND; CUDA by default). */
static RwBackendKind backend = RW_BACKEND_CUDA;

/* The spacing of the hall of `sites` (one FCC site per 2 h³ of 0.75 of
 * its bounding box; the hall holds about a quarter of that). */
static double
hall_h (double sites)
{
  return cbrt (2.0 * 40.0 * 24.0 * 15.0 * 0.75 / sites);
}

/* The whole hall (one rank, the weak-scaling reference). */
static RwGrid *
hall (double sites, RwError *err)
{
  RwMesh *mesh = rw_shape_hall (40.0, 24.0, 15.0, 16);
  RwGrid *g = mesh ? rw_voxelise_fcc (mesh, hall_h (sites), 0, err) : NULL;
  rw_mesh_free (mesh);
  return g;
}

/* This rank's slab of the hall (rw_slab_voxelise_ranks) and the whole
 * grid's lattice (origin, n). */
static bool
hall_slab (double sites, const RwComm *comm, size_t *cuts, RwSlab *slab, double origin[3],
           size_t n[3], RwError *err)
{
  const double h = hall_h (sites);
  RwMesh *mesh = rw_shape_hall (40.0, 24.0, 15.0, 16);
  const bool ok = mesh != NULL && rw_voxel_lattice (mesh, h, origin, n, err)
                  && rw_slab_voxelise_ranks (mesh, h, RW_LATTICE_FCC, comm, 0, cuts, slab, err);
  rw_mesh_free (mesh);
  return ok;
}

/* ms a step of `steps` steps after WARM_STEPS, or −1 with err set. */
static double
time_run (RwSolverSetup *su, const RwComm *comm, const char *mode, size_t steps, char *dev,
          size_t dev_len, RwError *err)
{
  if (mode == NULL)
    unsetenv ("ROOMWAVE_HALO");
  else
    setenv ("ROOMWAVE_HALO", mode, 1);
  su->comm = comm;
  RwSolver *s = rw_solver_new (su, backend, err);
  double ms = -1;
  if (s != NULL && rw_solver_advance (s, WARM_STEPS, err))
    {
      /* every rank starts the timed steps together */
      int go = 1;
      if (rw_comm_min_int (comm, &go, err))
        {
          const double t0 = rw_clock_s ();
          if (rw_solver_advance (s, steps, err))
            ms = 1e3 * (rw_clock_s () - t0) / (double) steps;
        }
      snprintf (dev, dev_len, "%s", rw_solver_device_name (s));
    }
  rw_solver_free (s);
  unsetenv ("ROOMWAVE_HALO");
  return ms;
}

int
main (int argc, char **argv)
{
  RwError err = { 0 };
  RwComm *comm = rw_comm_world (&err);
  if (comm == NULL && err.message[0] != '\0')
    {
      fprintf (stderr, "bench-slab: %s\n", err.message);
      return 1;
    }
  const int rank = rw_comm_rank (comm), size = rw_comm_size (comm);
  const double per_rank = argc > 1 ? atof (argv[1]) : 400e6;
  const size_t steps = argc > 2 ? (size_t) atol (argv[2]) : 200;
  RwPrecision prec = RW_PRECISION_F32;
  if (argc > 3 && strcmp (argv[3], "f64") == 0)
    prec = RW_PRECISION_F64;
  else if (argc > 3 && strcmp (argv[3], "f16") == 0)
    prec = RW_PRECISION_F16;
  const char *b = getenv ("RW_SLAB_BACKEND");
  if (b != NULL && *b != '\0' && !rw_backend_kind_parse (b, &backend))
    {
      fprintf (stderr, "bench-slab: RW_SLAB_BACKEND=%s: not a backend (cpu, cuda)\n", b);
      rw_comm_finalize ();
      return 2;
    }
  const RwBackendOps *ops = backend == RW_BACKEND_CPU ? &rw_cpu_backend : rw_cuda_backend ();
  char why[256] = "not built";
  if (ops == NULL || !ops->available (why, sizeof why))
    {
      if (rank == 0)
        fprintf (stderr, "bench-slab: no %s backend: %s\n", rw_backend_kind_name (backend), why);
      rw_comm_finalize ();
      return 77;
    }
  /* every rank its slab alone; the source in the whole grid's indices
   * (a site: x + y + z even), near the hall's middle */
  size_t *cuts = calloc ((size_t) size + 1, sizeof *cuts), n[3];
  double origin[3];
  RwSlab slab;
  memset (&slab, 0, sizeof slab);
  if (cuts == NULL || !hall_slab (per_rank * size, comm, cuts, &slab, origin, n, &err))
    {
      fprintf (stderr, "bench-slab: rank %d: %s\n", rank, err.message);
      rw_comm_abort (comm, "voxelising the hall failed");
    }
  const RwGrid *g = slab.grid;
  const size_t sx = (size_t) (0.3 * (double) n[0]), sy = n[1] / 2;
  size_t sz = n[2] / 2;
  sz += (sx + sy + sz) % 2;
  RwSlabRef ref = { .slab = &slab, .cuts = cuts };
  double *R = calloc (g->n_surfaces + 1, sizeof (double));
  for (size_t k = 0; k < g->n_surfaces; k++)
    R[k] = 0.9;
  double *sig = calloc (steps + WARM_STEPS, sizeof (double));
  sig[0] = 1.0;
  RwSolverSetup su = {
    .grid = g, .surface_R = R, .boundary = RW_BOUNDARY_FV, .precision = prec,
    .n_steps = steps + WARM_STEPS, .source_cell = sx + n[0] * (sy + n[1] * sz),
    .source_kind = RW_SOURCE_SOFT, .source_signal = sig, .time_step_s = g->h / 343.0,
    .device = rw_backend_rank_device (ops, 0, rw_comm_local_rank (comm)),
    .slab = size > 1 ? &ref : NULL,
  };
  double mine = (double) rw_slab_owned_inside (&slab, NULL), total = 0;
  double *sites = calloc ((size_t) size, sizeof *sites);
  if (sites == NULL || !rw_comm_allgather (comm, &mine, sizeof mine, sites, &err))
    rw_comm_abort (comm, sites == NULL ? "out of memory" : err.message);
  for (int r = 0; r < size; r++)
    total += sites[r];
  free (sites);
  if (rank == 0)
    printf ("bench-slab: FCC hall %zu × %zu × %zu, %.0f sites (%.0f a rank), h %.2f mm, %s, %d "
            "ranks on %s, NCCL %s, %zu steps\n", n[0], n[1], n[2], total, total / size,
            g->h * 1e3, rw_precision_name (prec), size, rw_backend_kind_name (backend),
            ops->halo_attach ? "built in" : "not built (device = host path)", steps);
  const char *modes[3] = { NULL, "host", "none" }, *names[3] = { "device", "host", "none" };
  double ms[3], all[3][64];
  char dev[256] = "";
  for (int m = 0; m < 3; m++)
    {
      ms[m] = time_run (&su, comm, modes[m], steps, dev, sizeof dev, &err);
      if (ms[m] < 0 && rank == 0)
        printf ("bench-slab: %s: %s\n", names[m], err.message);
      if (size <= 64 && !rw_comm_allgather (comm, &ms[m], sizeof (double), all[m], &err))
        rw_comm_abort (comm, err.message);
    }
  if (rank == 0 && size <= 64)
    {
      printf ("%-6s %-32s %12s %12s %12s %10s\n", "rank", "device", "device ms", "host ms",
              "none ms", "overhead");
      for (int r = 0; r < size; r++)
        printf ("%-6d %-32.32s %12.3f %12.3f %12.3f %9.1f%%\n", r, r == 0 ? dev : "", all[0][r],
                all[1][r], all[2][r], 100.0 * (all[0][r] - all[2][r]) / all[2][r]);
    }
  rw_slab_clear (&slab);
  free (cuts);
  /* the weak-scaling reference: one device, the hall of one rank's share */
  if (rank == 0)
    {
      RwGrid *g1 = hall (per_rank, &err);
      if (g1 == NULL)
        rw_comm_abort (comm, err.message);
      double *R1 = calloc (g1->n_surfaces + 1, sizeof (double));
      for (size_t k = 0; k < g1->n_surfaces; k++)
        R1[k] = 0.9;
      const double pos1[3] = { g1->origin[0] + 0.3 * (double) g1->nx * g1->h,
                               g1->origin[1] + 0.5 * (double) g1->ny * g1->h,
                               g1->origin[2] + 0.5 * (double) g1->nz * g1->h };
      if (!rw_grid_locate (g1, pos1, "source", &su.source_cell, &err))
        rw_comm_abort (comm, err.message);
      su.grid = g1;
      su.slab = NULL;
      su.surface_R = R1;
      su.time_step_s = g1->h / 343.0;
      const double one = time_run (&su, NULL, NULL, steps, dev, sizeof dev, &err);
      double slowest = 0;
      for (int r = 0; r < size && r < 64; r++)
        slowest = fmax (slowest, all[0][r]);
      if (one < 0)
        printf ("bench-slab: one device: %s\n", err.message);
      else
        printf ("weak scaling: one device, %zu sites: %.3f ms a step; %d ranks of about as many "
                "each, slowest %.3f ms: efficiency %.1f %% (%.2f× the sites a second)\n",
                g1->n_inside, one, size, slowest, 100.0 * one / slowest,
                (double) size * one / slowest);
      rw_grid_free (g1);
      free (R1);
    }
  free (R);
  free (sig);
  rw_comm_finalize ();
  return 0;
}
