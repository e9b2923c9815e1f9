/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rays-threads: the ray tracer is deterministic for a seed. The
 * concert-hall-like room (17 oblique faces), 20 000 rays, scattering that
 * differs per band and surface (so the importance-sampled split draws),
 * air absorption on: the same seed twice and with 1, 2, 3 and 8 OpenMP
 * threads gives histograms and direction sums identical byte for byte
 * (and the same counters); another seed gives different ones (the seed is
 * used), and the synthesis is identical for the same seed too. */
#include <stdlib.h>
#include <string.h>

#include "rw-test.h"
#include "rw-rays.h"
#include "rw-shapes.h"

static bool
same (const RwRayResult *a, const RwRayResult *b)
{
  const size_t n = (size_t) RW_N_OCTAVES * a->n_bins;
  return a->n_bins == b->n_bins && a->n_receiver_hits == b->n_receiver_hits
         && a->n_reflections == b->n_reflections && a->n_lost == b->n_lost
         && memcmp (a->energy, b->energy, n * sizeof *a->energy) == 0
         && memcmp (a->direction, b->direction, 3 * n * sizeof *a->direction) == 0;
}

int
main (void)
{
  RwError err = { 0 };
  RwMesh *m = rw_shape_hall (24.0, 16.0, 10.0, 12);
  RwGaScene *scene = m ? rw_ga_scene_new (m, &err) : NULL;
  RW_CHECK (scene != NULL, "hall scene: %s", err.message);
  if (scene == NULL)
    return rw_test_finish ();
  const size_t ns = m->n_surfaces;
  RwAdmittance *Y = calloc (ns, sizeof *Y);
  double *sc = calloc (ns * RW_N_OCTAVES, sizeof *sc);
  for (size_t s = 0; s < ns; s++)
    {
      Y[s] = rw_admittance_real (0.6 + 0.05 * (double) (s % 7));
      for (int b = 0; b < RW_N_OCTAVES; b++)
        sc[s * RW_N_OCTAVES + b] = 0.05 + 0.1 * b + 0.01 * (double) (s % 5);
    }
  const double src[3] = { 3.1, 7.3, 2.7 }, rcv[3] = { 15.2, 5.1, 4.6 };
  RwRaySettings set;
  rw_rays_settings_init (&set);
  set.n_rays = 20000;
  set.seed = 42;
  set.duration_s = 1.0;
  set.threads = 1;
  RwRayResult ref = { 0 };
  RW_CHECK (rw_rays_trace (scene, Y, sc, ns, src, rcv, &set, &ref, &err), "1 thread: %s",
            err.message);
  if (ref.energy == NULL)
    return rw_test_finish ();
  RW_NOTE ("hall: %zu bins, radius %.3f m, %zu receiver hits, %zu reflections, %zu lost",
           ref.n_bins, ref.receiver_radius_m, ref.n_receiver_hits, ref.n_reflections, ref.n_lost);
  RW_CHECK (ref.n_receiver_hits > 1000, "many receiver hits (%zu)", ref.n_receiver_hits);
  const int runs[5] = { 1, 2, 3, 8, 2 };
  for (int k = 0; k < 5; k++)
    {
      RwRayResult r = { 0 };
      set.threads = runs[k];
      RW_CHECK (rw_rays_trace (scene, Y, sc, ns, src, rcv, &set, &r, &err), "%d threads: %s",
                runs[k], err.message);
      RW_CHECK (r.energy != NULL && same (&ref, &r), "%d threads: identical histograms",
                runs[k]);
      rw_rays_result_clear (&r);
    }
  RwRayResult other = { 0 };
  set.seed = 43;
  RW_CHECK (rw_rays_trace (scene, Y, sc, ns, src, rcv, &set, &other, &err), "seed 43: %s",
            err.message);
  RW_CHECK (other.energy != NULL && !same (&ref, &other), "another seed, other rays");
  rw_rays_result_clear (&other);

  const size_t n = 48000;
  double *a = malloc (n * sizeof *a), *b = malloc (n * sizeof *b);
  RW_CHECK (rw_rays_synthesise (&ref, 48000.0, n, RW_RAYS_DEFAULT_MAX_DENSITY, 5, NULL, a, NULL,
                                &err), "synthesis: %s", err.message);
  RW_CHECK (rw_rays_synthesise (&ref, 48000.0, n, RW_RAYS_DEFAULT_MAX_DENSITY, 5, NULL, b, NULL,
                                &err), "synthesis: %s", err.message);
  RW_CHECK (memcmp (a, b, n * sizeof *a) == 0, "synthesis: identical for the same seed");
  free (a);
  free (b);
  rw_rays_result_clear (&ref);
  free (Y);
  free (sc);
  rw_ga_scene_free (scene);
  rw_mesh_free (m);
  return rw_test_finish ();
}
