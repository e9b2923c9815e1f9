/* SPDX-License-Identifier: GPL-3.0-or-later */
/* halo-nccl — the CUDA backend's device halos (issue #15;
 * kernels/rw-cuda-halo.cu) without MPI: N processes forked here, one a
 * GPU (rank r on device r mod the device count), each stepping one slab
 * of a grid (rw_slab_plan, rw_slab_extract, as rw-solver.c cuts it)
 * through the backend's operations, the NCCL id handed from rank 0 to the
 * others through pipes.
 *
 *   halo-nccl check N [fcc|cubic]   every rank's owned planes of p and p⁻
 *       after 400 steps, and its receivers, against one device stepping
 *       the whole grid, bit for bit in fp64 (memcmp). The room:
 *       rw_shape_lroom, every surface frequency dependent (branches), the
 *       source's interpolation stencil spread across the first cut.
 *       Exit 0 pass, 1 fail, 77 no device or no NCCL.
 *   halo-nccl bench N CELLS [STEPS [fcc|cubic]]   a hall (rw_shape_hall)
 *       of about N · CELLS sites (FCC) or cells (7-point) cut into N
 *       slabs, fp32: each rank's step
 *       time with the device exchange and with none (ROOMWAVE_HALO=none:
 *       its slab alone), and with N = 1 the whole hall on one device (the
 *       weak-scaling reference: run `bench 1 CELLS`, then `bench N
 *       CELLS`). The host path needs MPI: tests/gpu/bench-slab.c.
 *
 * Forked before any CUDA call: the parent touches the device only after
 * every child has exited (the reference run). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rw-admittance.h"
#include "rw-backend.h"
#include "rw-clock.h"
#include "rw-mesh.h"
#include "rw-shapes.h"
#include "rw-slab.h"
#include "rw-solver.h"
#include "rw-voxel.h"

#define MAX_RANKS 16
#define CHECK_STEPS 400

typedef struct {
  RwGrid *g;
  double *R;
  RwAdmittance *Y;
  RwGridStencil src;
  double *sig;
  size_t n_steps;
  double dt;
  RwPrecision precision;
} Room;

static bool
room_make (Room *rm, bool bench, RwLattice lattice, double cells, size_t n_steps, RwError *err)
{
  memset (rm, 0, sizeof *rm);
  RwMesh *mesh;
  double h;
  if (bench)
    {
      /* the hall 40 × 24 × 15 m scaled to the sites asked for: the FCC
       * lattice has one site per 2 h³, the cubic one a cell per h³ */
      const double vol = 40.0 * 24.0 * 15.0 * 0.75;
      h = cbrt ((lattice == RW_LATTICE_FCC ? 2.0 : 1.0) * vol / cells);
      mesh = rw_shape_hall (40.0, 24.0, 15.0, 16);
    }
  else
    {
      h = lattice == RW_LATTICE_FCC ? 0.12 : 0.1;
      mesh = rw_shape_lroom (3.1, 2.3, 2.05, 1.9, 1.4);
    }
  rm->g = lattice == RW_LATTICE_FCC ? rw_voxelise_fcc (mesh, h, 0, err) : rw_voxelise (mesh, h, 0, err);
  rw_mesh_free (mesh);
  if (rm->g == NULL)
    return false;
  const size_t ns = rm->g->n_surfaces;
  rm->R = calloc (ns + 1, sizeof *rm->R);
  rm->Y = bench ? NULL : calloc (ns + 1, sizeof *rm->Y);
  for (size_t s = 0; s < ns; s++)
    {
      rm->R[s] = 0.9;
      if (rm->Y == NULL)
        continue;
      double a[RW_ADM_N_BANDS];
      for (int b = 0; b < RW_ADM_N_BANDS; b++)
        a[b] = s % 2 ? 0.05 + 0.1 * b : 0.3 - 0.02 * b;
      if (!rw_admittance_fit_alpha (a, 5, &rm->Y[s], NULL, err))
        return false;
      rm->R[s] = (1.0 - rm->Y[s].Y0) / (1.0 + rm->Y[s].Y0);
    }
  const double c = 343.0;
  rm->dt = lattice == RW_LATTICE_FCC ? h / c : h / (c * sqrt (3.0));
  rm->precision = bench ? RW_PRECISION_F32 : RW_PRECISION_F64;
  rm->n_steps = n_steps;
  rm->sig = calloc (n_steps, sizeof *rm->sig);
  rm->sig[0] = 1.0, rm->sig[1] = -0.5, rm->sig[7] = 0.25;
  /* the source between the two planes of the first cut of two slabs */
  size_t cuts[3];
  if (!rw_slab_plan (rm->g, 2, cuts, err))
    return false;
  const double pos[3] = { rm->g->origin[0] + 0.41 * (double) rm->g->nx * rm->g->h,
                          rm->g->origin[1] + 0.47 * (double) rm->g->ny * rm->g->h,
                          rm->g->origin[2] + rm->g->h * ((double) cuts[1] - 0.5) };
  return rw_grid_interp (rm->g, pos, "source", &rm->src, err);
}

static void
room_free (Room *rm)
{
  rw_grid_free (rm->g);
  free (rm->R);
  free (rm->Y);
  free (rm->sig);
}

static RwSolverSetup
room_setup (const Room *rm)
{
  RwSolverSetup su = {
    .grid = rm->g, .surface_R = rm->R, .surface_Y = rm->Y, .time_step_s = rm->dt,
    .boundary = RW_BOUNDARY_FV, .precision = rm->precision, .n_steps = rm->n_steps,
    .source_stencil = &rm->src, .source_kind = RW_SOURCE_SOFT, .source_signal = rm->sig,
    .n_receivers = rm->src.n, .receiver_cells = rm->src.cell, .threads = 1,
  };
  return su;
}

/* Rank r of n: its slab stepped with a device halo; owned planes of p,
 * p⁻ (whole-grid planes [cuts[r], cuts[r + 1])) and its receivers'
 * samples (the owned source cells) to fd. bench: timings to stdout. */
static int
child (const Room *rm, int r, int n, int id_in, int id_out[MAX_RANKS], int out, bool bench,
       size_t bench_steps)
{
  const RwBackendOps *ops = rw_cuda_backend ();
  RwError err = { 0 };
  char why[256];
  if (ops == NULL || !ops->available (why, sizeof why))
    {
      fprintf (stderr, "rank %d: no CUDA: %s\n", r, ops ? why : "not built");
      return 77;
    }
  if (ops->halo_attach == NULL)
    {
      fprintf (stderr, "rank %d: built without NCCL\n", r);
      return 77;
    }
  size_t cuts[MAX_RANKS + 1];
  RwSlab slab;
  if (!rw_slab_plan (rm->g, n, cuts, &err)
      || !rw_slab_extract (rm->g, cuts[r], cuts[r + 1], &slab, &err))
    {
      fprintf (stderr, "rank %d: %s\n", r, err.message);
      return 1;
    }
  const size_t nxy = rm->g->nx * rm->g->ny, shift = slab.z_first * nxy;
  RwSolverSetup su = room_setup (rm);
  su.grid = slab.grid;
  su.own_z0 = slab.own_z0, su.own_z1 = slab.own_z1;
  su.device = r % ops->device_count ();
  RwGridStencil src = { 0 };
  size_t rcv[RW_GRID_STENCIL_MAX];
  for (size_t i = 0; i < rm->src.n; i++)
    if (rm->src.cell[i] / nxy >= cuts[r] && rm->src.cell[i] / nxy < cuts[r + 1])
      {
        src.cell[src.n] = rm->src.cell[i] - shift;
        rcv[src.n] = src.cell[src.n];
        src.weight[src.n++] = rm->src.weight[i];
      }
  su.source_stencil = &src;
  su.n_receivers = src.n;
  su.receiver_cells = rcv;
  RwHaloLink link = { .rank = r, .size = n, .down = r > 0 ? r - 1 : -1,
                      .up = r + 1 < n ? r + 1 : -1, .halo = slab.halo };
  int rc = 0;
  for (int pass = 0; pass < (bench ? 2 : 1) && rc == 0; pass++)
    {
      /* bench: the exchange, then none (the slab alone) */
      if (pass == 1)
        setenv ("ROOMWAVE_HALO", "none", 1);
      void *st = ops->create (&su, &err);
      if (st == NULL)
        {
          fprintf (stderr, "rank %d: create: %s\n", r, err.message);
          return 1;
        }
      if (r == 0)
        {
          if (!ops->halo_id (link.id, sizeof link.id, &err))
            {
              fprintf (stderr, "rank 0: halo_id: %s\n", err.message);
              return 1;
            }
          for (int k = 1; k < n; k++)
            if (write (id_out[k], link.id, sizeof link.id) != (ssize_t) sizeof link.id)
              return 1;
        }
      else if (read (id_in, link.id, sizeof link.id) != (ssize_t) sizeof link.id)
        return 1;
      if (!ops->halo_attach (st, &link, &err))
        {
          fprintf (stderr, "rank %d: halo_attach: %s\n", r, err.message);
          ops->destroy (st);
          return 1;
        }
      const size_t steps = bench ? bench_steps : rm->n_steps;
      double *samples = calloc (src.n * steps + 1, sizeof (double));
      /* bench: 20 steps to warm up (the first launches, NCCL's setup) */
      const size_t warm = bench ? 20 : 0;
      double t0 = 0;
      bool ok = ops->advance (st, 0, warm, samples, steps, &err);
      t0 = rw_clock_s ();
      ok = ok && ops->advance (st, warm, steps - warm, samples, steps, &err);
      const double t = rw_clock_s () - t0;
      if (!ok)
        {
          fprintf (stderr, "rank %d: advance: %s\n", r, err.message);
          rc = 1;
        }
      else if (bench)
        printf ("rank %d of %d, %s: planes %zu, %zu sites, %s: %.3f ms a step\n", r, n,
                ops->device_name (st), slab.own_z1 - slab.own_z0, slab.grid->n_inside,
                pass == 0 ? "device halo exchange" : "no exchange", 1e3 * t / (double) (steps - warm));
      else
        {
          const size_t snz = slab.grid->nz, cnt = nxy * snz;
          double *p = malloc (cnt * sizeof (double)), *pp = malloc (cnt * sizeof (double));
          ok = p && pp && ops->read_field (st, p, pp, &err);
          const size_t own = (slab.own_z1 - slab.own_z0) * nxy;
          if (!ok
              || write (out, p + slab.own_z0 * nxy, own * sizeof (double)) != (ssize_t) (own * sizeof (double))
              || write (out, pp + slab.own_z0 * nxy, own * sizeof (double)) != (ssize_t) (own * sizeof (double))
              || write (out, samples, src.n * steps * sizeof (double))
                   != (ssize_t) (src.n * steps * sizeof (double)))
            rc = 1;
          free (p);
          free (pp);
        }
      free (samples);
      ops->destroy (st);
    }
  rw_slab_clear (&slab);
  return rc;
}

/* Rank r's results from fd, against the whole grid's (p, pp, the
 * receivers' samples of all source cells). */
static bool
compare (const Room *rm, int r, int n, FILE *in, const double *p, const double *pp,
         const double *samples)
{
  const size_t nxy = rm->g->nx * rm->g->ny;
  size_t cuts[MAX_RANKS + 1];
  RwError err = { 0 };
  if (!rw_slab_plan (rm->g, n, cuts, &err))
    return false;
  const size_t own = (cuts[r + 1] - cuts[r]) * nxy;
  double *a = malloc (own * sizeof (double)), *b = malloc (own * sizeof (double));
  bool ok = a && b && fread (a, sizeof (double), own, in) == own && fread (b, sizeof (double), own, in) == own;
  size_t dp = 0, dq = 0, nz = 0;
  for (size_t i = 0; ok && i < own; i++)
    {
      dp += memcmp (&a[i], &p[cuts[r] * nxy + i], sizeof (double)) != 0;
      dq += memcmp (&b[i], &pp[cuts[r] * nxy + i], sizeof (double)) != 0;
      nz += a[i] != 0.0;
    }
  size_t ds = 0, k = 0;
  for (size_t i = 0; ok && i < rm->src.n; i++)
    if (rm->src.cell[i] / nxy >= cuts[r] && rm->src.cell[i] / nxy < cuts[r + 1])
      {
        double *s = malloc (rm->n_steps * sizeof (double));
        ok = s && fread (s, sizeof (double), rm->n_steps, in) == rm->n_steps;
        ds += ok && memcmp (s, samples + i * rm->n_steps, rm->n_steps * sizeof (double)) != 0;
        k++;
        free (s);
      }
  printf ("rank %d of %d: planes [%zu, %zu): %zu of %zu values of p differ, %zu of p⁻ (%zu "
          "non-zero); %zu of %zu receivers differ: %s\n", r, n, cuts[r], cuts[r + 1], dp, own,
          dq, nz, ds, k, ok && dp == 0 && dq == 0 && ds == 0 && nz > 0 ? "PASS" : "FAIL");
  free (a);
  free (b);
  return ok && dp == 0 && dq == 0 && ds == 0 && nz > 0;
}

int
main (int argc, char **argv)
{
  if (argc < 3 || (strcmp (argv[1], "check") != 0 && strcmp (argv[1], "bench") != 0))
    {
      fprintf (stderr, "usage: halo-nccl check N [fcc|cubic] | bench N CELLS [STEPS [fcc|cubic]]\n");
      return 2;
    }
  const bool bench = strcmp (argv[1], "bench") == 0;
  const int n = atoi (argv[2]);
  if (n < 1 || n > MAX_RANKS)
    {
      fprintf (stderr, "halo-nccl: 1 … %d ranks\n", MAX_RANKS);
      return 2;
    }
  const char *lat = bench ? (argc > 5 ? argv[5] : "fcc") : (argc > 3 ? argv[3] : "fcc");
  const RwLattice lattice = strcmp (lat, "cubic") == 0 ? RW_LATTICE_CUBIC : RW_LATTICE_FCC;
  const double cells = bench && argc > 3 ? atof (argv[3]) * n : 0;
  const size_t bench_steps = bench && argc > 4 ? (size_t) atol (argv[4]) : 200;
  Room rm;
  RwError err = { 0 };
  if (!room_make (&rm, bench, lattice, cells, bench ? bench_steps : CHECK_STEPS, &err))
    {
      fprintf (stderr, "halo-nccl: %s\n", err.message);
      return 1;
    }
  printf ("%s grid %zu × %zu × %zu, %zu inside, %zu boundary; %d ranks\n",
          lattice == RW_LATTICE_FCC ? "FCC" : "cubic", rm.g->nx, rm.g->ny, rm.g->nz,
          rm.g->n_inside, rm.g->n_boundary, n);
  fflush (stdout);
  int id_pipe[MAX_RANKS][2], out_pipe[MAX_RANKS][2], id_out[MAX_RANKS];
  pid_t pid[MAX_RANKS];
  FILE *res[MAX_RANKS];
  for (int r = 0; r < n; r++)
    if (pipe (id_pipe[r]) != 0)
      return 1;
  for (int r = 0; r < n; r++)
    id_out[r] = id_pipe[r][1];
  for (int r = 0; r < n; r++)
    {
      /* results to a file: a pipe would fill before the parent reads */
      res[r] = tmpfile ();
      if (res[r] == NULL)
        return 1;
      out_pipe[r][1] = fileno (res[r]);
      pid[r] = fork ();
      if (pid[r] == 0)
        {
          const int rc = child (&rm, r, n, id_pipe[r][0], id_out, out_pipe[r][1], bench, bench_steps);
          fflush (stdout);
          _exit (rc);
        }
    }
  int worst = 0;
  for (int r = 0; r < n; r++)
    {
      int status = 0;
      waitpid (pid[r], &status, 0);
      const int rc = WIFEXITED (status) ? WEXITSTATUS (status) : 1;
      if (rc != 0 && worst != 1)
        worst = rc;
    }
  if (worst != 0)
    {
      printf ("halo-nccl: a rank failed (%s)\n", worst == 77 ? "skipped" : "see above");
      return worst;
    }
  if (bench)
    return 0;
  /* the whole grid on device 0 */
  const RwBackendOps *ops = rw_cuda_backend ();
  RwSolverSetup su = room_setup (&rm);
  void *st = ops->create (&su, &err);
  const size_t cnt = rm.g->nx * rm.g->ny * rm.g->nz;
  double *p = malloc (cnt * sizeof (double)), *pp = malloc (cnt * sizeof (double));
  double *samples = calloc (rm.src.n * rm.n_steps + 1, sizeof (double));
  if (st == NULL || !ops->advance (st, 0, rm.n_steps, samples, rm.n_steps, &err)
      || !ops->read_field (st, p, pp, &err))
    {
      fprintf (stderr, "halo-nccl: the whole grid: %s\n", err.message);
      return 1;
    }
  ops->destroy (st);
  bool pass = true;
  for (int r = 0; r < n; r++)
    {
      rewind (res[r]);
      pass = compare (&rm, r, n, res[r], p, pp, samples) && pass;
    }
  free (p);
  free (pp);
  free (samples);
  room_free (&rm);
  printf ("halo-nccl check, %d ranks: %s\n", n, pass ? "PASS" : "FAIL");
  return pass ? 0 : 1;
}
