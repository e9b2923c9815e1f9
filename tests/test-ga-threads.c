/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ga-threads: the geometrical IR is deterministic for a seed. The
 * concert-hall-like room of rays-threads, 5000 rays, scattering that
 * differs per band and surface, air absorption on, image sources to
 * order 3: the same seed twice and with 1, 2 and 3 OpenMP threads gives
 * the IR and its bands identical byte for byte; another seed gives a
 * different IR (the seed reaches the rays and the synthesis) with the
 * same image sources.
 * Several receivers at once (rw_ga_compute_receivers, rays traced once):
 * each receiver's ray histograms byte for byte those of its own
 * rw_rays_trace with the same seed and radius; receiver 0's IR is
 * rw_ga_compute's; receiver 1's image sources are its own call's, and its
 * late part another pulse train than a single call's (its own seed). */
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

  /* three receivers at once */
  const double rcvs[3][3] = { { 16.0, 5.0, 1.2 }, { 12.0, 9.0, 1.4 }, { 8.0, 4.0, 1.3 } };
  RwGaResult multi[3];
  set.seed = 1;
  set.threads = 2;
  RW_CHECK (rw_ga_compute_receivers (scene, Y, sc, ns, src, rcvs, 3, &set, multi, &err),
            "three receivers: %s", err.message);
  RW_CHECK (multi[0].ir && same (&ref, &multi[0]), "receiver 0 of three is not rw_ga_compute's");
  for (size_t r = 0; r < 3 && multi[r].ir; r++)
    {
      RwRaySettings rs;
      rw_rays_settings_init (&rs);
      rs.n_rays = set.n_rays;
      rs.seed = set.seed;
      rs.duration_s = set.duration_s;
      rs.exclude_specular_order = set.ism_order;
      RwRayResult one = { 0 };
      RW_CHECK (rw_rays_trace (scene, Y, sc, ns, src, rcvs[r], &rs, &one, &err), "rays %zu: %s", r,
                err.message);
      const size_t nb = (size_t) RW_N_OCTAVES * one.n_bins;
      RW_CHECK (one.n_bins == multi[r].rays.n_bins
                && memcmp (one.energy, multi[r].rays.energy, nb * sizeof *one.energy) == 0
                && memcmp (one.direction, multi[r].rays.direction, 3 * nb * sizeof *one.direction) == 0
                && one.n_receiver_hits == multi[r].rays.n_receiver_hits,
                "receiver %zu: histograms differ from its own tracing (%zu and %zu hits)", r,
                one.n_receiver_hits, multi[r].rays.n_receiver_hits);
      rw_rays_result_clear (&one);
    }
  if (multi[1].ir)
    {
      RW_CHECK (rw_ga_compute (scene, Y, sc, ns, src, rcvs[1], &set, &g, &err), "receiver 1 alone: %s",
                err.message);
      RW_CHECK (g.ir && g.ism.n_arrivals == multi[1].ism.n_arrivals
                && memcmp (g.ism.arrivals, multi[1].ism.arrivals,
                           g.ism.n_arrivals * sizeof *g.ism.arrivals) == 0,
                "receiver 1: image sources differ from its own call's");
      RW_CHECK (g.ir && memcmp (g.ir, multi[1].ir, g.n_samples * sizeof *g.ir) != 0,
                "receiver 1's late part is the single call's pulse train (same seed)");
      rw_ga_result_clear (&g);
    }
  for (size_t r = 0; r < 3; r++)
    rw_ga_result_clear (&multi[r]);
  rw_ga_result_clear (&ref);
  ga_room_free (&room);
  return rw_test_finish ();
}
