/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ism-threads: the image sources of the concert-hall-like room (raked
 * floor, splayed walls, a rear wall of 12 facets: many oblique faces),
 * order 5, with 1 and with 2 OpenMP threads (and 2 again, 4 and 8): the
 * arrival arrays are identical byte for byte, and not trivially so (many
 * arrivals of every order). */
#include <stdlib.h>
#include <string.h>

#include "rw-test.h"
#include "rw-ism.h"
#include "rw-shapes.h"

#define ORDER 5

int
main (void)
{
  RwError err = { 0 };
  RwMesh *m = rw_shape_hall (24.0, 16.0, 10.0, 12);
  RwGaScene *scene = m ? rw_ga_scene_new (m, &err) : NULL;
  RW_CHECK (scene != NULL, "hall scene: %s", err.message);
  if (scene == NULL)
    return rw_test_finish ();
  RwAdmittance *Y = calloc (m->n_surfaces, sizeof *Y);
  for (size_t s = 0; s < m->n_surfaces; s++)
    Y[s] = rw_admittance_real (0.6 + 0.05 * (double) s);
  /* the hall's stage is at x = 0; its floor rises towards the rear */
  const double src[3] = { 3.1, 7.3, 2.7 }, rcv[3] = { 15.2, 5.1, 4.6 };
  RwIsmSettings set;
  rw_ism_settings_init (&set);
  set.max_order = ORDER;
  RwIsmResult ref = { 0 };
  set.threads = 1;
  RW_CHECK (rw_ism_compute (scene, Y, m->n_surfaces, src, rcv, &set, &ref, &err), "1 thread: %s",
            err.message);
  int per_order[ORDER + 1] = { 0 };
  for (size_t i = 0; i < ref.n_arrivals; i++)
    per_order[ref.arrivals[i].order]++;
  RW_NOTE ("hall, order %d: %zu faces, %zu candidates, %zu arrivals (per order %d/%d/%d/%d/%d/%d)",
           ORDER, ref.n_faces, ref.n_candidates, ref.n_arrivals, per_order[0], per_order[1],
           per_order[2], per_order[3], per_order[4], per_order[5]);
  RW_CHECK (ref.n_faces >= 17, "the hall has many faces (%zu)", ref.n_faces);
  RW_CHECK (per_order[0] == 1 && per_order[1] >= 5 && per_order[2] >= 10 && per_order[3] >= 20
            && per_order[4] >= 40 && per_order[5] >= 80, "arrivals of every order");
  /* more threads than cores too: preemption mixes the order in which
   * candidates finish, which is what must not show */
  const int runs[4] = { 2, 2, 4, 8 };
  for (int k = 0; k < 4; k++)
    {
      RwIsmResult r = { 0 };
      set.threads = runs[k];
      RW_CHECK (rw_ism_compute (scene, Y, m->n_surfaces, src, rcv, &set, &r, &err),
                "%d threads: %s", runs[k], err.message);
      RW_CHECK (r.n_arrivals == ref.n_arrivals && r.n_candidates == ref.n_candidates,
                "%d threads: %zu arrivals (1 thread: %zu)", runs[k], r.n_arrivals, ref.n_arrivals);
      RW_CHECK (r.n_arrivals == ref.n_arrivals
                && memcmp (r.arrivals, ref.arrivals, r.n_arrivals * sizeof *r.arrivals) == 0,
                "%d threads: identical arrivals", runs[k]);
      rw_ism_result_clear (&r);
    }
  rw_ism_result_clear (&ref);
  free (Y);
  rw_ga_scene_free (scene);
  rw_mesh_free (m);
  return rw_test_finish ();
}
