/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-rays: the ray tracer's time for the demo room
 * (data/rooms/demo-room.obj, 100.5 m³, materials by surface name from the
 * library, fitted over all eight bands), source (1.5, 2.5, 1.5), receiver
 * (5, 2, 1.2), default settings (RW_RAYS_DEFAULT_N rays, 2 s, 1 ms bins,
 * automatic radius, −60 dB, air at 20 °C / 50 %), scattering from the
 * library (its defaults where a row gives none), with 1 and with all
 * threads (best of `repeats`), the synthesis of 2 s at 48 kHz, and the
 * whole geometrical part of one receiver (rw_ga_compute: rays, image
 * sources, synthesis, band split) with 1 and with all threads.
 *
 *   bench-rays [rays (default RW_RAYS_DEFAULT_N)] [repeats (3)]
 *
 * A program, not a test: the figures depend on the machine. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "rw-clock.h"
#include "rw-materials.h"
#include "rw-ga.h"
#include "rw-rays.h"

int
main (int argc, char **argv)
{
  const size_t n_rays = argc > 1 ? (size_t) atof (argv[1]) : RW_RAYS_DEFAULT_N;
  const int repeats = argc > 2 ? atoi (argv[2]) : 3;
  RwError err = { 0 };
  char *path = rw_data_path ("rooms/demo-room.obj");
  RwMesh *m = path ? rw_mesh_load (path, 1.0, &err) : NULL;
  RwMaterialLibrary *lib = rw_materials_load (NULL, &err);
  if (m == NULL || lib == NULL)
    {
      fprintf (stderr, "bench-rays: %s\n", err.message);
      return 1;
    }
  const size_t ns = m->n_surfaces;
  double *R = calloc (ns, sizeof *R), *sc = calloc (ns * RW_N_OCTAVES, sizeof *sc);
  RwSurfaceModel *models = calloc (ns, sizeof *models);
  RwAdmittance *Y = calloc (ns, sizeof *Y);
  char **names = NULL;
  if (!rw_materials_assign_models (lib, m, NULL, NAN, 20000.0, 0, R, models, &names, &err))
    {
      fprintf (stderr, "bench-rays: %s\n", err.message);
      return 1;
    }
  for (size_t s = 0; s < ns; s++)
    {
      Y[s] = models[s].Y;
      const RwMaterial *mat = rw_materials_find (lib, names[s]);
      for (int b = 0; b < RW_N_OCTAVES; b++)
        sc[s * RW_N_OCTAVES + b] = mat ? mat->scattering[b] : 0.1;
      printf ("surface %-12s %s\n", m->surface_names[s], names[s]);
    }
  RwGaScene *scene = rw_ga_scene_new (m, &err);
  const double src[3] = { 1.5, 2.5, 1.5 }, rcv[3] = { 5.0, 2.0, 1.2 };
  const int max_threads = omp_get_max_threads ();
  const int thread_counts[2] = { 1, max_threads };
  RwRayResult res = { 0 };
  for (int k = 0; k < (max_threads > 1 ? 2 : 1); k++)
    {
      double best = INFINITY;
      for (int r = 0; r < repeats; r++)
        {
          RwRaySettings set;
          rw_rays_settings_init (&set);
          set.n_rays = n_rays;
          set.threads = thread_counts[k];
          rw_rays_result_clear (&res);
          const double t0 = rw_clock_s ();
          if (!rw_rays_trace (scene, Y, sc, ns, src, rcv, &set, &res, &err))
            {
              fprintf (stderr, "bench-rays: %s\n", err.message);
              return 1;
            }
          best = fmin (best, rw_clock_s () - t0);
        }
      printf ("%zu rays, %d thread(s): %.3f s (best of %d); radius %.3f m, %zu receiver hits, "
              "%zu reflections (%.2f M/s), %zu lost\n", n_rays, thread_counts[k], best, repeats,
              res.receiver_radius_m, res.n_receiver_hits, res.n_reflections,
              (double) res.n_reflections / best / 1e6, res.n_lost);
    }
  const size_t n = (size_t) (res.n_bins * res.bin_s * 48000.0);
  double *ir = malloc (n * sizeof *ir);
  const double t0 = rw_clock_s ();
  if (!rw_rays_synthesise (&res, 48000.0, n, RW_RAYS_DEFAULT_MAX_DENSITY, 1, NULL, ir, NULL,
                           &err))
    {
      fprintf (stderr, "bench-rays: %s\n", err.message);
      return 1;
    }
  printf ("synthesis of %zu samples: %.3f s\n", n, rw_clock_s () - t0);
  free (ir);

  /* The whole geometrical part of one receiver as `simulate` runs it
   * (rw_ga_compute: rays, image sources to order 3, synthesis, band
   * split; 2 s), with 1 and with all threads. */
  for (int k = 0; k < (max_threads > 1 ? 2 : 1); k++)
    {
      double best = INFINITY;
      RwGaResult ga = { 0 };
      for (int r = 0; r < repeats; r++)
        {
          RwGaSettings gs;
          rw_ga_settings_init (&gs);
          gs.n_rays = n_rays;
          gs.threads = thread_counts[k];
          rw_ga_result_clear (&ga);
          const double t1 = rw_clock_s ();
          if (!rw_ga_compute (scene, Y, sc, ns, src, rcv, &gs, &ga, &err))
            {
              fprintf (stderr, "bench-rays: %s\n", err.message);
              return 1;
            }
          best = fmin (best, rw_clock_s () - t1);
        }
      printf ("geometrical part (rw_ga_compute, %zu rays, order %d, %.1f s), %d thread(s): %.3f s "
              "(best of %d); %zu image-source arrivals\n", n_rays, RW_ISM_DEFAULT_ORDER,
              RW_RAYS_DEFAULT_DURATION_S, thread_counts[k], best, repeats, ga.ism.n_arrivals);
      rw_ga_result_clear (&ga);
    }
  rw_rays_result_clear (&res);
  for (size_t s = 0; s < ns; s++)
    free (names[s]);
  free (names);
  free (R);
  free (sc);
  free (models);
  free (Y);
  free (path);
  rw_ga_scene_free (scene);
  rw_materials_free (lib);
  rw_mesh_free (m);
  return 0;
}
