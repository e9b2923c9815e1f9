/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-bench.c — the copy roofline and the solver benchmark (rw-bench.h). */
#include "rw-bench.h"
#include "rw-clock.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rw-i18n.h"

double
rw_bench_bytes_per_voxel (RwPrecision precision)
{
  switch (precision)
    {
    case RW_PRECISION_F64: return 24.0;
    case RW_PRECISION_F16: return 6.0;
    case RW_PRECISION_F32:
    default: return 12.0;
    }
}

bool
rw_bench_copy (int threads, size_t array_bytes, int repeats, double *gb_per_s, RwError *err)
{
  if (threads <= 0)
    threads = omp_get_max_threads ();
  if (repeats < 1)
    repeats = 1;
  if (array_bytes == 0)
    {
      long llc = sysconf (_SC_LEVEL3_CACHE_SIZE);
      if (llc <= 0)
        llc = sysconf (_SC_LEVEL2_CACHE_SIZE);
      array_bytes = llc > 0 ? 8 * (size_t) llc : 0;
      if (array_bytes < ((size_t) 64 << 20))
        array_bytes = (size_t) 64 << 20;
    }
  const size_t n = array_bytes / sizeof (double);
  double *a = malloc (n * sizeof (double)), *b = malloc (n * sizeof (double));
  if (a == NULL || b == NULL)
    {
      free (a);
      free (b);
      return rw_fail (err, RW_ERROR_MEMORY,
                      _("Out of memory for the copy benchmark (2 × %zu MiB)"), array_bytes >> 20);
    }

  /* First touch with the same static split as the timed loop, so that each
   * thread's pages are its own (matters on NUMA machines). */
#pragma omp parallel for schedule (static) num_threads (threads)
  for (size_t i = 0; i < n; i++)
    {
      a[i] = (double) i;
      b[i] = 0.0;
    }

  double best = INFINITY;
  for (int r = 0; r < repeats; r++)
    {
      double t0 = rw_clock_s ();
      /* One contiguous chunk per thread, copied with memcpy: the fastest
       * copy the C library knows (non-temporal stores for large blocks),
       * so the roofline is the strictest one this machine offers. */
#pragma omp parallel num_threads (threads)
      {
        int t = omp_get_thread_num (), nt = omp_get_num_threads ();
        size_t i0 = n * (size_t) t / (size_t) nt, i1 = n * (size_t) (t + 1) / (size_t) nt;
        memcpy (b + i0, a + i0, (i1 - i0) * sizeof (double));
      }
      double dt = rw_clock_s () - t0;
      if (dt < best)
        best = dt;
    }
  bool ok = b[n / 2] == (double) (n / 2);
  free (a);
  free (b);
  if (!ok)
    return rw_fail (err, RW_ERROR_INTERNAL, _("The copy benchmark copied wrong values"));
  *gb_per_s = 2.0 * (double) (n * sizeof (double)) / best / 1e9;
  return true;
}

bool
rw_bench_solver (const RwGrid *g, RwBackendKind backend, RwPrecision precision,
                 int threads, size_t steps, double target_s,
                 RwBenchResult *out, RwError *err)
{
  enum { WARMUP = 3 };
  /* The signal buffer bounds the steps a solver may take: when the count
   * is chosen by time, allow up to this many. */
  const size_t max_auto = 100000;
  size_t n_steps = 2 * WARMUP + 1 + (steps > 0 ? steps : max_auto);
  double *signal = calloc (n_steps, sizeof (double));
  if (signal == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("Out of memory for the benchmark's source signal"));
  signal[0] = 1.0;

  /* The CPU backend gives small grids fewer threads; a benchmark uses
   * every core it was given, the same count as the copy. */
  if (threads <= 0 && backend != RW_BACKEND_CUDA)
    threads = omp_get_max_threads ();
  size_t cx = g->nx / 2, cy = g->ny / 2, cz = g->nz / 2;
  if (g->lattice == RW_LATTICE_FCC && (cx + cy + cz) % 2 == 1)
    cx++;   /* a site */
  double R = 1.0;
  double *Rs = NULL;
  if (g->n_surfaces > 1)
    {
      Rs = malloc (g->n_surfaces * sizeof (double));
      if (Rs == NULL)
        {
          free (signal);
          return rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
        }
      for (size_t i = 0; i < g->n_surfaces; i++)
        Rs[i] = 1.0;
    }
  RwSolverSetup su = {
    .grid = g,
    .surface_R = Rs != NULL ? Rs : &R,
    .boundary = RW_BOUNDARY_FV,
    .precision = precision,
    .n_steps = n_steps,
    .source_cell = rw_grid_index (g, cx, cy, cz),
    .source_kind = RW_SOURCE_SOFT,
    .source_signal = signal,
    .threads = threads,
  };
  RwSolver *s = rw_solver_new (&su, backend, err);
  bool ok = s != NULL;
  if (ok)
    {
      /* The warm-up pays the page faults of the fresh fields; the speed
       * that chooses the step count is timed after it. */
      ok = rw_solver_advance (s, WARMUP, err);
      double t0 = rw_clock_s ();
      if (ok && steps == 0)
        ok = rw_solver_advance (s, WARMUP, err);
      double t_warm = (rw_clock_s () - t0) / WARMUP;
      if (ok && steps == 0)
        {
          double want = t_warm > 0 ? target_s / t_warm : (double) max_auto;
          steps = want < 10 ? 10 : want > (double) max_auto ? max_auto : (size_t) want;
        }
      if (ok)
        {
          t0 = rw_clock_s ();
          ok = rw_solver_advance (s, steps, err);
          out->seconds = rw_clock_s () - t0;
        }
    }
  if (ok)
    {
      memset (out->backend, 0, sizeof out->backend);
      snprintf (out->backend, sizeof out->backend, "%s", rw_solver_backend_name (s));
      snprintf (out->device, sizeof out->device, "%s", rw_solver_device_name (s));
      snprintf (out->precision, sizeof out->precision, "%s",
                precision == RW_PRECISION_F64 ? "fp64" : precision == RW_PRECISION_F16 ? "fp16" : "fp32");
      out->size[0] = g->nx - 2;
      out->size[1] = g->ny - 2;
      out->size[2] = g->nz - 2;
      out->n_inside = g->n_inside;
      out->steps = steps;
      out->threads = strcmp (out->backend, "cpu") == 0 ? threads : 0;
      out->gvox_per_s = (double) g->n_inside * (double) steps / out->seconds / 1e9;
      out->bytes_per_voxel = rw_bench_bytes_per_voxel (precision);
    }
  rw_solver_free (s);
  free (Rs);
  free (signal);
  return ok;
}

void
rw_bench_set_roofline (RwBenchResult *r, double copy_gb_per_s)
{
  r->copy_gb_per_s = copy_gb_per_s;
  r->roofline_gvox_per_s = copy_gb_per_s / r->bytes_per_voxel;
  r->roofline_fraction = r->roofline_gvox_per_s > 0 ? r->gvox_per_s / r->roofline_gvox_per_s : 0.0;
}

static void
json_string (FILE *f, const char *s)
{
  fputc ('"', f);
  for (; *s; s++)
    {
      unsigned char c = (unsigned char) *s;
      if (c == '"' || c == '\\')
        fprintf (f, "\\%c", c);
      else if (c < 0x20)
        fprintf (f, "\\u%04x", c);
      else
        fputc (c, f);
    }
  fputc ('"', f);
}

void
rw_bench_print (FILE *f, const RwBenchResult *r, bool json)
{
  if (json)
    {
      fprintf (f, "{\"backend\": ");
      json_string (f, r->backend);
      fprintf (f, ", \"device\": ");
      json_string (f, r->device);
      fprintf (f, ", \"precision\": ");
      json_string (f, r->precision);
      fprintf (f, ", \"size\": [%zu, %zu, %zu], \"n_inside\": %zu, \"steps\": %zu, "
                  "\"seconds\": %.6g, \"threads\": %d, \"gvox_per_s\": %.6g, "
                  "\"copy_gb_per_s\": %.6g, \"bytes_per_voxel\": %.6g, "
                  "\"roofline_gvox_per_s\": %.6g, \"roofline_fraction\": %.6g}\n",
               r->size[0], r->size[1], r->size[2], r->n_inside, r->steps, r->seconds,
               r->threads, r->gvox_per_s, r->copy_gb_per_s, r->bytes_per_voxel,
               r->roofline_gvox_per_s, r->roofline_fraction);
      return;
    }
  fprintf (f, _("device            %s\n"), r->device);
  fprintf (f, _("backend           %s, %s, %d threads\n"), r->backend, r->precision, r->threads);
  fprintf (f, _("grid              %zu × %zu × %zu (%zu inside cells)\n"),
           r->size[0], r->size[1], r->size[2], r->n_inside);
  fprintf (f, _("timed steps       %zu in %.3f s\n"), r->steps, r->seconds);
  fprintf (f, _("copy bandwidth    %.2f GB/s (read + written)\n"), r->copy_gb_per_s);
  fprintf (f, _("achieved          %.3f Gvox/s\n"), r->gvox_per_s);
  fprintf (f, _("roofline          %.3f Gvox/s (copy bandwidth / %.0f B per cell and step)\n"),
           r->roofline_gvox_per_s, r->bytes_per_voxel);
  fprintf (f, _("fraction          %.1f %% of the roofline\n"), 100.0 * r->roofline_fraction);
}
