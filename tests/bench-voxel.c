/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-voxel: voxelises the concert hall (rw_shape_hall 40 × 25 × 15 m,
 * 16 facets) at the spacing that gives about N cells in its bounding grid
 * and prints the achieved cells per second, the ceiling measured in the
 * same run — writing the grid's 3 bytes per cell once and reading the K
 * array once, the least traffic any voxeliser must make — and the ratio.
 *
 *   bench-voxel [cells (default 22e6)] [threads (default: all)] [repeats (3)]
 *
 * A program, not a test: the figures depend on the machine. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "rw-shapes.h"
#include "rw-voxel.h"

int
main (int argc, char **argv)
{
  double target = argc > 1 ? atof (argv[1]) : 22e6;
  int threads = argc > 2 ? atoi (argv[2]) : 0;
  int repeats = argc > 3 ? atoi (argv[3]) : 3;
  if (!(target >= 1e3) || repeats < 1)
    {
      fprintf (stderr, "usage: bench-voxel [cells ≥ 1000] [threads] [repeats ≥ 1]\n");
      return 2;
    }
  const double L = 40, W = 25, H = 15;
  RwMesh *m = rw_shape_hall (L, W, H, 16);
  double h = cbrt (L * W * H / target);
  int nt = threads > 0 ? threads : omp_get_max_threads ();

  double best = INFINITY;
  size_t n_cells = 0, n_inside = 0;
  for (int r = 0; r < repeats; r++)
    {
      RwError err = { 0 };
      double t0 = omp_get_wtime ();
      RwGrid *g = rw_voxelise (m, h, threads, &err);
      double t = omp_get_wtime () - t0;
      if (g == NULL)
        {
          fprintf (stderr, "bench-voxel: %s\n", err.message);
          return 1;
        }
      n_cells = g->nx * g->ny * g->nz;
      n_inside = g->n_inside;
      best = fmin (best, t);
      rw_grid_free (g);
    }

  /* the ceiling: the same grid's bytes written once and K read once */
  uint8_t *K = malloc (n_cells);
  uint16_t *surface = malloc (2 * n_cells);
  double ceil_best = INFINITY;
  size_t sink = 0;
  for (int r = 0; r < repeats + 1; r++)
    {
      double t0 = omp_get_wtime ();
      size_t acc = 0;
      #pragma omp parallel num_threads (nt) reduction (+ : acc)
      {
        int me = omp_get_thread_num (), n = omp_get_num_threads ();
        size_t a = n_cells * (size_t) me / (size_t) n, b = n_cells * (size_t) (me + 1) / (size_t) n;
        memset (K + a, r & 1, b - a);
        memset (surface + a, 0xff, 2 * (b - a));
        for (size_t i = a; i < b; i += 64)
          acc += K[i];
      }
      double t = omp_get_wtime () - t0;
      sink += acc;
      if (r > 0)    /* the first pass also faults the pages in */
        ceil_best = fmin (ceil_best, t);
    }
  free (K);
  free (surface);

  double rate = (double) n_cells / best, ceiling = (double) n_cells / ceil_best;
  printf ("hall 40 × 25 × 15 m, h = %.4f m: %zu cells (%zu inside), %d threads\n",
          h, n_cells, n_inside, nt);
  printf ("voxelise: %.3f s = %.1f M cells/s; ceiling (write 3 B + read 1 B per cell): "
          "%.4f s = %.1f M cells/s; ratio %.3f%s\n", best, rate / 1e6, ceil_best, ceiling / 1e6,
          rate / ceiling, sink == (size_t) -1 ? " " : "");
  rw_mesh_free (m);
  return 0;
}
