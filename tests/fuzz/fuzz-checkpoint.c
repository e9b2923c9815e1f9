/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-checkpoint — libFuzzer target for a checkpoint file
 * (rw_solver_checkpoint_load, rw-checkpoint.h) of a small room: a box of
 * 0.5 × 0.4 × 0.35 m at h = 0.1 m, every surface frequency dependent
 * (branch states on every boundary node), the CPU backend in fp64, a
 * source and a receiver interpolated between the nodes, 48 steps.
 *
 * The first byte chooses how the rest is read: bit 0 clear, as it is
 * (the checksums stand guard: the header's, then the whole file's); bit 0
 * set, with both checksums made right first, so that the inputs reach
 * what lies behind them (the header's fields against the run, the sizes,
 * the readings, the backend's state). A load that succeeds is followed by
 * the rest of the run and its uniform-mode readings read back: every
 * input must end in success or an RwError, never a crash, a leak or
 * undefined behaviour (built with ASan + UBSan), and a loaded run's
 * readings must stay as rw_solver_uniform_mode promises (steps rising).
 *
 * RW_FUZZ_SEEDS=DIR: writes a checkpoint of the room at step 24 there,
 * in both forms, as seeds (tests/fuzz/run.sh). Not part of `meson test`. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rw-admittance.h"
#include "rw-checkpoint.h"
#include "rw-mesh.h"
#include "rw-shapes.h"
#include "rw-solver.h"
#include "rw-voxel.h"
#include "../test-checkpoint-fnv.h"

#define N_STEPS 48

static RwGrid *grid;
static RwAdmittance *Y;
static double *R;
static RwGridStencil src, rcv;
static double sig[N_STEPS];
static RwSolverSetup setup;

static bool
room (void)
{
  RwError err = { 0 };
  RwMesh *mesh = rw_shape_box (0.5, 0.4, 0.35);
  grid = mesh != NULL ? rw_voxelise (mesh, 0.1, 1, &err) : NULL;
  rw_mesh_free (mesh);
  if (grid == NULL)
    return false;
  const size_t ns = grid->n_surfaces;
  Y = calloc (ns + 1, sizeof *Y);
  R = calloc (ns + 1, sizeof *R);
  for (size_t s = 0; s < ns; s++)
    {
      double a[RW_ADM_N_BANDS];
      for (int b = 0; b < RW_ADM_N_BANDS; b++)
        a[b] = s % 2 ? 0.05 + 0.1 * b : 0.3 - 0.02 * b;
      if (!rw_admittance_fit_alpha (a, 5, &Y[s], NULL, &err))
        return false;
      R[s] = (1.0 - Y[s].Y0) / (1.0 + Y[s].Y0);
    }
  const double ps[3] = { 0.17, 0.13, 0.12 }, pr[3] = { 0.33, 0.26, 0.21 };
  if (!rw_grid_interp (grid, ps, "source", &src, &err)
      || !rw_grid_interp (grid, pr, "receiver", &rcv, &err))
    return false;
  sig[0] = 1.0;
  sig[1] = -0.5;
  const double h = 0.1, fs = 343.0 * sqrt (3.0) / h;
  setup = (RwSolverSetup) {
    .grid = grid, .surface_R = R, .surface_Y = Y, .time_step_s = 1.0 / fs,
    .boundary = RW_BOUNDARY_FV, .precision = RW_PRECISION_F64, .n_steps = N_STEPS,
    .source_stencil = &src, .source_kind = RW_SOURCE_SOFT, .source_signal = sig,
    .n_receivers = 1, .receiver_stencils = &rcv, .threads = 1,
  };
  return true;
}

/* Both forms of a checkpoint at step 24 into dir. */
static void
write_seeds (const char *dir)
{
  RwError err = { 0 };
  RwSolver *s = rw_solver_new (&setup, RW_BACKEND_CPU, &err);
  char path[512];
  snprintf (path, sizeof path, "%s/checkpoint.ckpt", dir);
  if (s == NULL || !rw_solver_advance (s, 24, &err) || !rw_solver_checkpoint_save (s, path, &err))
    {
      fprintf (stderr, "fuzz-checkpoint: no seed: %s\n", err.message);
      exit (1);
    }
  rw_solver_free (s);
  FILE *f = fopen (path, "rb");
  unsigned char *buf = malloc (1 << 20);
  const size_t n = f ? fread (buf, 1, 1 << 20, f) : 0;
  if (f)
    fclose (f);
  unlink (path);
  for (int form = 0; form < 2; form++)
    {
      snprintf (path, sizeof path, "%s/checkpoint-%d", dir, form);
      FILE *o = fopen (path, "wb");
      const unsigned char b = (unsigned char) form;
      if (o == NULL || fwrite (&b, 1, 1, o) != 1 || fwrite (buf, 1, n, o) != n)
        exit (1);
      fclose (o);
    }
  free (buf);
  fprintf (stderr, "fuzz-checkpoint: seeds of %zu bytes in %s\n", n + 1, dir);
}

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  (void) argc, (void) argv;
  if (!room ())
    {
      fprintf (stderr, "fuzz-checkpoint: the room could not be made\n");
      exit (1);
    }
  const char *seeds = getenv ("RW_FUZZ_SEEDS");
  if (seeds != NULL)
    write_seeds (seeds);
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size < 1)
    return 0;
  const size_t n = size - 1;
  unsigned char *buf = malloc (n + 1);
  memcpy (buf, data + 1, n);
  if ((data[0] & 1) != 0)
    ck_fix_sums (buf, n);
  char path[128];
  snprintf (path, sizeof path, "/tmp/rw-fuzz-ckpt-%d", (int) getpid ());
  FILE *f = fopen (path, "wb");
  fwrite (buf, 1, n, f);
  fclose (f);
  free (buf);

  RwError err = { 0 };
  RwSolver *s = rw_solver_new (&setup, RW_BACKEND_CPU, &err);
  if (s == NULL)
    abort ();
  if (rw_solver_checkpoint_load (s, path, &err))
    {
      const size_t at = rw_solver_step (s);
      if (at > N_STEPS)
        abort ();   /* a loaded step within the run */
      RwError e2 = { 0 };
      (void) rw_solver_advance (s, N_STEPS - at, &e2);
      const size_t *steps;
      const double *sums;
      const size_t m = rw_solver_uniform_mode (s, &steps, &sums);
      for (size_t i = 1; i < m; i++)
        if (steps[i] <= steps[i - 1])
          abort ();   /* the readings' steps rise (rw-postprocess.c interpolates between them) */
    }
  rw_solver_free (s);
  unlink (path);
  return 0;
}
