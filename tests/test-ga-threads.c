/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ga-threads: the geometrical IR is deterministic for a seed. The
 * concert-hall-like room of rays-threads, 5000 rays, scattering that
 * differs per band and surface, air absorption on, image sources to
 * order 3: the same seed twice and with 1, 2 and 3 OpenMP threads gives
 * the IR and its bands identical byte for byte; another seed gives a
 * different IR (the seed reaches the rays and the synthesis) with the
 * same image sources. */
#include <stdlib.h>
#include <string.h>

#include "rw-test.h"
#include "rw-ga.h"
#include "rw-shapes.h"
#include "test-ga-common.h"

static bool
same (const RwGaResult *a, const RwGaResult *b)
{
  return a->n_samples == b->n_samples && a->ism.n_arrivals == b->ism.n_arrivals
         && memcmp (a->ir, b->ir, a->n_samples * sizeof *a->ir) == 0
         && memcmp (a->bands, b->bands, RW_N_OCTAVES * a->n_samples * sizeof *a->bands) == 0;
}

int
main (void)
{
  RwError err = { 0 };
  GaRoom room;
  if (!ga_room_hall (&room))
    return rw_test_finish ();
  const RwGaScene *scene = room.scene;
  const size_t ns = room.ns;
  const RwAdmittance *Y = room.Y;
  const double *sc = room.sc;
  const double src[3] = { 4.0, 8.0, 1.5 }, rcv[3] = { 16.0, 5.0, 1.2 };
  RwGaSettings set;
  rw_ga_settings_init (&set);
  set.n_rays = 5000;
  set.duration_s = 0.5;
  RwGaResult ref = { 0 }, g = { 0 };
  set.threads = 1;
  RW_CHECK (rw_ga_compute (scene, Y, sc, ns, src, rcv, &set, &ref, &err), "1 thread: %s",
            err.message);
  if (ref.ir == NULL)
    return rw_test_finish ();
  RW_NOTE ("%zu image sources, %zu receiver hits", ref.ism.n_arrivals, ref.rays.n_receiver_hits);
  const int threads[] = { 1, 2, 3 };
  for (size_t k = 0; k < sizeof threads / sizeof *threads; k++)
    {
      set.threads = threads[k];
      RW_CHECK (rw_ga_compute (scene, Y, sc, ns, src, rcv, &set, &g, &err), "%d threads: %s",
                threads[k], err.message);
      RW_CHECK (g.ir && same (&ref, &g), "%d threads: identical to 1 thread", threads[k]);
      rw_ga_result_clear (&g);
    }
  set.seed = 2;
  RW_CHECK (rw_ga_compute (scene, Y, sc, ns, src, rcv, &set, &g, &err), "seed 2: %s",
            err.message);
  RW_CHECK (g.ir && !same (&ref, &g), "seed 2 differs");
  RW_CHECK (g.ism.n_arrivals == ref.ism.n_arrivals
            && memcmp (g.ism.arrivals, ref.ism.arrivals,
                       g.ism.n_arrivals * sizeof *g.ism.arrivals) == 0,
            "seed 2: the same image sources");
  rw_ga_result_clear (&g);
  rw_ga_result_clear (&ref);
  ga_room_free (&room);
  return rw_test_finish ();
}
