/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-fcc — the FCC 13-point scheme against the 7-point scheme on the
 * GPU at equal accuracy (issue #14; docs/PERFORMANCE.md).
 *
 * For a room (a box of the given volume, or the hall of rw_shape_hall
 * scaled to it) and fmax, each scheme gets the spacing at which its
 * worst-direction phase-velocity error is 2 % at fmax (points per
 * wavelength in cubic spacings, measured by fcc-dispersion: 7-point
 * 7.68, FCC 5.71; overridable), is run on the CUDA backend in each
 * precision for about --seconds of wall time (rw_bench_solver), and is
 * reported as: sites (nodes), node updates per second, the fraction of the
 * roofline (the copy bandwidth measured in the same run over the 3 words a
 * node update must move: read p and p⁻, write p⁺; the kind/cell byte is
 * not counted, as for the 7-point roofline), steps per second of audio, and
 * seconds of GPU time per second of audio. With --check it first runs
 * fp64 checks of the FCC path on the device: lossless energy conserved
 * over 2000 steps in a rigid box (|ΔE|/E ≤ 1e-9), and, when the CPU
 * backend runs FCC grids, the GPU receiver signal against the CPU's bit
 * for bit. Exit status 1 when a check fails. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rw-bench.h"
#include "../../kernels/rw-cuda.h"
#include "rw-physics.h"
#include "rw-scheme-fcc.h"
#include "rw-solver.h"
#include "rw-voxel.h"

#define C_SOUND 343.0

static RwGrid *
make_box (RwLattice lattice, double volume, double h)
{
  /* a shoebox of proportions 1 : 0.79 : 0.63 (Bolt's ratios, roughly) */
  const double a = cbrt (volume / (0.79 * 0.63));
  const size_t nx = (size_t) llround (a / h), ny = (size_t) llround (0.79 * a / h),
               nz = (size_t) llround (0.63 * a / h);
  return lattice == RW_LATTICE_FCC ? rw_grid_new_box_fcc (nx, ny, nz, h)
                                   : rw_grid_new_box (nx, ny, nz, h);
}

/* The rigid box's energy over 2000 steps of the CUDA FCC path, fp64; and
 * the CUDA receiver against the CPU's where the CPU runs FCC. */
static bool
check (void)
{
  RwGrid *g = rw_grid_new_box_fcc (40, 32, 26, 0.05);
  enum { N = 2000 };
  double *sig = calloc (N, sizeof (double));
  sig[0] = 1.0, sig[1] = -0.5, sig[2] = 0.25;
  double R = 1.0;
  size_t src, rcv[2];
  RwError err = { 0 };
  const double ps[3] = { 0.61, 0.52, 0.43 }, pr[3] = { 1.32, 1.01, 0.88 }, pr2[3] = { 0.12, 0.1, 0.1 };
  bool ok = rw_grid_locate (g, ps, "source", &src, &err) && rw_grid_locate (g, pr, "receiver", &rcv[0], &err)
            && rw_grid_locate (g, pr2, "receiver", &rcv[1], &err);
  RwSolverSetup su = {
    .grid = g, .surface_R = &R, .boundary = RW_BOUNDARY_FV, .precision = RW_PRECISION_F64,
    .n_steps = N, .source_cell = src, .source_kind = RW_SOURCE_SOFT, .source_signal = sig,
    .n_receivers = 2, .receiver_cells = rcv, .time_step_s = 0.05 / C_SOUND,
  };
  RwSolver *s = ok ? rw_solver_new (&su, RW_BACKEND_CUDA, &err) : NULL;
  double e0 = 0, e1 = 0;
  ok = s && rw_solver_advance (s, 4, &err) && rw_solver_energy (s, &e0, &err)
       && rw_solver_advance (s, N - 4, &err) && rw_solver_energy (s, &e1, &err);
  bool pass = ok && e0 > 0 && fabs (e1 - e0) / e0 <= 1e-9;
  printf ("check: FCC fp64 rigid box %zu sites, energy %.17g → %.17g after %d steps, |ΔE|/E %.3g: %s\n",
          g->n_inside, e0, e1, N, e0 > 0 ? fabs (e1 - e0) / e0 : NAN, pass ? "PASS" : "FAIL");
  if (!ok)
    printf ("check: %s\n", err.message);
  /* against the CPU backend, where it runs FCC grids */
  const RwBackendOps *cpu = rw_backend_find ("cpu");
  if (ok && cpu && cpu->supports_fcc)
    {
      double Rs = 0.6;
      su.surface_R = &Rs;
      RwSolver *a = rw_solver_new (&su, RW_BACKEND_CUDA, &err);
      RwSolver *b = a ? rw_solver_new (&su, RW_BACKEND_CPU, &err) : NULL;
      bool same = a && b && rw_solver_advance (a, N, &err) && rw_solver_advance (b, N, &err);
      size_t diff = 0;
      for (size_t r = 0; same && r < 2; r++)
        for (size_t k = 0; k < N; k++)
          diff += memcmp (&rw_solver_receiver (a, r)[k], &rw_solver_receiver (b, r)[k], sizeof (double)) != 0;
      printf ("check: FCC fp64 R = 0.6, CUDA vs CPU: %zu of %d samples differ: %s\n", diff, 2 * N,
              same && diff == 0 ? "PASS" : "FAIL");
      pass = pass && same && diff == 0;
      rw_solver_free (a);
      rw_solver_free (b);
    }
  else
    printf ("check: the CPU backend does not run FCC grids: no bit-for-bit comparison\n");
  rw_solver_free (s);
  free (sig);
  rw_grid_free (g);
  return pass;
}

int
main (int argc, char **argv)
{
  double fmax = 1000, volume = 30, seconds = 1.0, ppw_cart = 7.68, ppw_fcc = 5.71;
  const char *prec = "all";
  bool do_check = false, fcc_only = false;
  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--fmax") == 0 && i + 1 < argc)
        fmax = atof (argv[++i]);
      else if (strcmp (argv[i], "--volume") == 0 && i + 1 < argc)
        volume = atof (argv[++i]);
      else if (strcmp (argv[i], "--seconds") == 0 && i + 1 < argc)
        seconds = atof (argv[++i]);
      else if (strcmp (argv[i], "--precision") == 0 && i + 1 < argc)
        prec = argv[++i];
      else if (strcmp (argv[i], "--ppw") == 0 && i + 2 < argc)
        ppw_cart = atof (argv[++i]), ppw_fcc = atof (argv[++i]);
      else if (strcmp (argv[i], "--fcc-only") == 0)
        fcc_only = true;
      else if (strcmp (argv[i], "--check") == 0)
        do_check = true;
      else
        {
          fprintf (stderr, "usage: bench-fcc [--fmax HZ] [--volume M3] [--seconds S] "
                           "[--precision all|f32|f16|f64] [--ppw CART FCC] [--fcc-only] [--check]\n");
          return 2;
        }
    }
  RwError err = { 0 };
  RwCudaDeviceInfo dev;
  if (!rw_cuda_device_info (0, 0, &dev, &err))
    {
      fprintf (stderr, "bench-fcc: %s\n", err.message);
      return 77;
    }
  bool pass = !do_check || check ();
  printf ("device: %s, copy %.1f GB/s\n", dev.device, dev.copy_bytes_per_s / 1e9);
  printf ("room: box %.0f m³, fmax %.0f Hz, 2 %% accuracy at P = %.2f (7-point), %.2f (FCC)\n",
          volume, fmax, ppw_cart, ppw_fcc);
  printf ("%-8s %-5s %8s %12s %10s %9s %9s %10s %12s\n", "scheme", "prec", "h mm", "nodes",
          "Gupd/s", "roofline", "fraction", "steps/s_a", "s per s_a");
  const RwPrecision precs[3] = { RW_PRECISION_F32, RW_PRECISION_F16, RW_PRECISION_F64 };
  for (int sc = fcc_only ? 1 : 0; sc < 2; sc++)
    {
      const bool fcc = sc == 1;
      const double h = C_SOUND / (fmax * (fcc ? ppw_fcc : ppw_cart));
      const double fs = fcc ? C_SOUND / h : C_SOUND / (h * RW_COURANT_3D);
      RwGrid *g = make_box (fcc ? RW_LATTICE_FCC : RW_LATTICE_CUBIC, volume, h);
      if (g == NULL)
        {
          fprintf (stderr, "bench-fcc: no memory for the grid\n");
          return 1;
        }
      for (int k = 0; k < 3; k++)
        {
          if (strcmp (prec, "all") != 0 && strcmp (prec, rw_precision_name (precs[k])) != 0)
            continue;
          RwBenchResult r = { 0 };
          if (!rw_bench_solver (g, RW_BACKEND_CUDA, precs[k], 0, 0, seconds, &r, &err))
            {
              printf ("%-8s %-5s failed: %s\n", fcc ? "fcc" : "7-point", rw_precision_name (precs[k]),
                      err.message);
              pass = false;
              continue;
            }
          const double roof = dev.copy_bytes_per_s / rw_bench_bytes_per_voxel (precs[k]) / 1e9;
          const double steps_per_s = (double) r.steps / r.seconds;
          printf ("%-8s %-5s %8.2f %12zu %10.2f %9.2f %9.3f %10.0f %12.3f\n", fcc ? "fcc" : "7-point",
                  rw_precision_name (precs[k]), h * 1e3, g->n_inside, r.gvox_per_s, roof,
                  r.gvox_per_s / roof, fs, fs / steps_per_s);
        }
      rw_grid_free (g);
    }
  return pass ? 0 : 1;
}
