/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rays-calibration: the ray tracer's energies in the image sources'
 * units, checked against rw-ism for the same geometry.
 *
 * The box of ism-shoebox (5.1 × 3.7 × 2.9 m, source (1.3, 0.9, 1.1),
 * receiver (3.6, 2.4, 1.7)), each wall its own frequency-independent R,
 * no scattering (so every ray reflects as the image model says), no air
 * absorption, 4·10⁶ rays, a receiver sphere of 0.1 m, 50 µs bins, 22 ms.
 * The image sources up to order 8 (every path shorter than 20 ms) are
 * grouped into clusters of arrivals closer than 2 (a/c + 2 bins); the
 * histogram's energy in each cluster's window (±(a/c + 2 bins) around
 * its arrivals) must equal Σ |gain|² of rw_ism_compute there (1/r² for
 * the direct sound: the image model's calibration, the direct sound at
 * 1 m of area 1) in every band: each within 12 %, the direct sound
 * within 10 %, the mean over all windows and bands within 5 % (the
 * direct sound gets ≈ 1270 hits, ±3 % statistical with the chords'
 * spread: seed 11 gives −0.25 %, seed 12 −3.2 %; the three windows
 * share rays across the bands, so their mean is not much better);
 * outside the windows the
 * histogram holds less than 10⁻³ of the energy (a specular ray goes
 * where the image model says, nowhere else). The ISM's
 * rendered direct sound (rw_ism_render at 48 kHz) has the same energy Σ x²
 * (to the windowed sinc's 1 %), so a late IR synthesised from the
 * histogram continues the rendered early part at the same level. The
 * energy-weighted direction of arrival of the direct sound points at the
 * source (within 1°). An oblique-incidence check: a wall of admittance
 * fitted per band (complex Y, |R(θ)|² varying with θ and band) gives its
 * first-order reflection's energy as |R_b(θ)|²/r² too.
 *
 * Then an isolated floor reflection in a 20 × 20 × 10 m box (below): its
 * energy within 10 % of |R_b(θ)|²/r² (the fitted floor, 63 Hz and
 * 8 kHz) and its mean direction of arrival (63 Hz) within 0.3° of the
 * image source's, which a slightly wrong mirror law fails. */
#include <stdlib.h>
#include <string.h>

#include "rw-test.h"
#include "rw-ism.h"
#include "rw-physics.h"
#include "rw-rays.h"
#include "rw-shapes.h"

static const double src[3] = { 1.3, 0.9, 1.1 }, rcv[3] = { 3.6, 2.4, 1.7 };

/* Walls by their outward normal: the box's surfaces may come in any
 * order, so each surface's R is chosen by where its first triangle lies. */
static double
wall_R (const RwMesh *m, uint32_t s)
{
  for (size_t t = 0; t < m->n_triangles; t++)
    if (m->tri_surface[t] == s)
      {
        double c[3] = { 0, 0, 0 };
        for (int q = 0; q < 3; q++)
          for (int k = 0; k < 3; k++)
            c[k] += m->xyz[3 * m->tri[3 * t + q] + k] / 3;
        if (c[2] < 1e-6)
          return 0.9;                /* floor */
        if (c[2] > 2.9 - 1e-6)
          return 0.8;                /* ceiling */
        if (c[0] < 1e-6)
          return 0.7;
        if (c[0] > 5.1 - 1e-6)
          return 0.95;
        if (c[1] < 1e-6)
          return 0.6;
        return 0.85;
      }
  return 0.5;
}

int
main (void)
{
  RwError err = { 0 };
  RwMesh *m = rw_shape_box (5.1, 3.7, 2.9);
  RwGaScene *scene = m ? rw_ga_scene_new (m, &err) : NULL;
  RW_CHECK (scene != NULL, "box scene: %s", err.message);
  if (scene == NULL)
    return rw_test_finish ();
  const size_t ns = m->n_surfaces;
  RwAdmittance *Y = calloc (ns, sizeof *Y);
  double *sc = calloc (ns * RW_N_OCTAVES, sizeof *sc);
  /* The floor: a fitted, frequency-dependent admittance. */
  const double alpha_floor[RW_N_OCTAVES] = { 0.05, 0.1, 0.2, 0.35, 0.5, 0.65, 0.75, 0.85 };
  RwAdmittance floor_Y;
  RW_CHECK (rw_admittance_fit_alpha (alpha_floor, RW_N_OCTAVES, &floor_Y, NULL, &err), "fit: %s",
            err.message);
  for (size_t s = 0; s < ns; s++)
    {
      const double R = wall_R (m, (uint32_t) s);
      Y[s] = R == 0.9 ? floor_Y : rw_admittance_real (R);
    }

  RwIsmSettings is;
  rw_ism_settings_init (&is);
  is.max_order = 8;   /* every path shorter than 20 ms of travel (6.9 m) */
  RwIsmResult ism = { 0 };
  RW_CHECK (rw_ism_compute (scene, Y, ns, src, rcv, &is, &ism, &err), "ism: %s", err.message);

  RwRaySettings set;
  rw_rays_settings_init (&set);
  set.n_rays = 4000000;
  set.seed = 11;
  set.bin_s = 5e-5;
  set.duration_s = 0.022;
  set.receiver_radius_m = 0.1;
  set.air_absorption = false;
  set.speed_of_sound = is.speed_of_sound;
  RwRayResult rays = { 0 };
  RW_CHECK (rw_rays_trace (scene, Y, sc, ns, src, rcv, &set, &rays, &err), "rays: %s",
            err.message);
  if (rays.energy == NULL)
    return rw_test_finish ();
  RW_NOTE ("%zu rays: %zu receiver hits, %zu reflections, %zu lost", set.n_rays,
           rays.n_receiver_hits, rays.n_reflections, rays.n_lost);
  RW_CHECK (rays.n_lost <= rays.n_reflections / 100000, "rays lost at edges: %zu of %zu "
            "reflections", rays.n_lost, rays.n_reflections);

  const double c = set.speed_of_sound, a = set.receiver_radius_m;
  const double half = a / c + 2 * set.bin_s, t_end = 0.020;
  /* The direct sound alone: its energy, its rendered energy, its direction. */
  const RwIsmArrival *d0 = &ism.arrivals[0];
  RW_CHECK (d0->order == 0, "the first arrival is the direct sound");
  {
    const size_t j0 = (size_t) floor ((d0->delay_s - half) / set.bin_s);
    const size_t j1 = (size_t) floor ((d0->delay_s + half) / set.bin_s);
    double e = 0.0, dir[3] = { 0, 0, 0 };
    for (size_t j = j0; j <= j1; j++)
      {
        e += rays.energy[j];
        for (int q = 0; q < 3; q++)
          dir[q] += rays.direction[3 * j + q];
      }
    const double g2 = cabs (d0->gain[0]) * cabs (d0->gain[0]);
    const double len = sqrt (dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
    const double cosang = (dir[0] * d0->direction[0] + dir[1] * d0->direction[1]
                           + dir[2] * d0->direction[2]) / len;
    RW_NOTE ("direct sound: direction of arrival %.4f° off the source, |Σ e u| / Σ e = %.4f",
             acos (fmin (1.0, cosang)) * 180 / M_PI, len / e);
    RW_CHECK (cosang > cos (M_PI / 180), "direct sound from the source's direction");
    const size_t n = 4096;
    double *ir = malloc (RW_N_OCTAVES * n * sizeof *ir);
    RW_CHECK (rw_ism_render (d0, 1, 48000.0, n, ir, &err), "render: %s", err.message);
    double er = 0.0;
    for (size_t k = 0; k < n; k++)
      er += ir[k] * ir[k];
    RW_NOTE ("direct sound at r = %.4f m: ISM 1/r² = %.6f, rendered Σ x² = %.6f, rays %.6f "
             "(%+.2f %%)", d0->distance_m, g2, er, e, 100 * (e / g2 - 1));
    RW_CHECK (fabs (er / g2 - 1) < 0.01, "rendered direct sound's energy %.6f vs %.6f", er, g2);
    RW_CHECK (fabs (e / g2 - 1) < 0.10, "rays' direct sound %.6f vs 1/r² %.6f", e, g2);
    free (ir);
  }

  /* Every arrival up to 20 ms: the image sources grouped into clusters
   * (arrivals closer than two half-windows merge), each cluster's
   * window compared; outside the windows the histogram must be empty. */
  double ratio_sum = 0.0, inside = 0.0, total = 0.0;
  int n_used = 0, n_clusters = 0;
  bool *in_window = calloc (rays.n_bins, sizeof *in_window);
  for (size_t i = 0; i < ism.n_arrivals && ism.arrivals[i].delay_s < t_end;)
    {
      size_t k = i + 1;
      while (k < ism.n_arrivals && ism.arrivals[k].delay_s - ism.arrivals[k - 1].delay_s < 2 * half)
        k++;
      const double ta = ism.arrivals[i].delay_s - half, tb = ism.arrivals[k - 1].delay_s + half;

      const size_t j0 = (size_t) floor (ta / set.bin_s), j1 = (size_t) floor (tb / set.bin_s);
      if (tb > t_end)
        {
          /* A cluster reaching past the complete part of the image
           * sources: its window only excludes its bins from the
           * emptiness check. */
          for (size_t j = j0; j < rays.n_bins; j++)
            in_window[j] = true;
          break;
        }
      int max_order = 0;
      for (size_t q = i; q < k; q++)
        max_order = ism.arrivals[q].order > max_order ? ism.arrivals[q].order : max_order;
      double worst = 1.0;
      for (int b = 0; b < RW_N_OCTAVES; b++)
        {
          double e = 0.0, g2 = 0.0;
          for (size_t j = j0; j <= j1 && j < rays.n_bins; j++)
            {
              e += rays.energy[(size_t) b * rays.n_bins + j];
              in_window[j] = true;
            }
          for (size_t q = i; q < k; q++)
            g2 += cabs (ism.arrivals[q].gain[b]) * cabs (ism.arrivals[q].gain[b]);
          const double ratio = e / g2;
          ratio_sum += ratio;
          n_used++;
          worst = fabs (ratio - 1) > fabs (worst - 1) ? ratio : worst;
          RW_CHECK (fabs (ratio - 1) < 0.12, "%zu arrivals at %.3f … %.3f ms, %g Hz: rays %.5g vs "
                    "ISM %.5g", k - i, 1e3 * ta, 1e3 * tb, rw_octave_centres_hz[b], e, g2);
        }
      RW_NOTE ("%.3f … %.3f ms: %zu image sources (order ≤ %d), rays/ISM worst band %.4f",
               1e3 * ta, 1e3 * tb, k - i, max_order, worst);
      n_clusters++;
      i = k;
    }
  const size_t jend = (size_t) floor ((t_end - half) / set.bin_s);
  for (int b = 0; b < RW_N_OCTAVES; b++)
    for (size_t j = 0; j < jend; j++)
      {
        total += rays.energy[(size_t) b * rays.n_bins + j];
        if (in_window[j])
          inside += rays.energy[(size_t) b * rays.n_bins + j];
      }
  free (in_window);
  RW_NOTE ("energy before %.1f ms outside the image sources' windows: %.2e of it", 1e3 * t_end,
           1 - inside / total);
  RW_CHECK (1 - inside / total < 1e-3, "no energy where no image source arrives (%.2e)",
            1 - inside / total);
  RW_CHECK (n_clusters >= 3, "at least three windows compared (%d)", n_clusters);
  const double mean = n_used ? ratio_sum / n_used : 0.0;
  RW_NOTE ("mean rays/ISM over %d windows × bands: %.4f", n_used, mean);
  RW_CHECK (fabs (mean - 1) < 0.05, "mean ratio %.4f within 5 %%", mean);

  /* An isolated floor reflection: a 20 × 20 × 10 m box, source and
   * receiver 1 m above the floor's middle, 3 m apart: the floor
   * reflection (r = √13 m) arrives 1.76 ms after the direct sound, the
   * next one (a wall or the ceiling) 29 ms later. Its energy and its
   * direction of arrival are the image source's: the direction within
   * 0.3° (the mean over ≈ 1500 chords spread by a/r = 3°) tests the
   * mirror law itself. */
  {
    RwMesh *big = rw_shape_box (20, 20, 10);
    RwGaScene *bs = rw_ga_scene_new (big, &err);
    RW_CHECK (bs != NULL, "big box: %s", err.message);
    RwAdmittance *Yb = calloc (big->n_surfaces, sizeof *Yb);
    double *sb = calloc (big->n_surfaces * RW_N_OCTAVES, sizeof *sb);
    for (size_t q = 0; q < big->n_surfaces; q++)
      Yb[q] = floor_Y;
    const double s2[3] = { 10, 10, 1 }, r2[3] = { 13, 10, 1 };
    RwIsmSettings is2;
    rw_ism_settings_init (&is2);
    is2.max_order = 1;
    RwIsmResult ism2 = { 0 };
    RW_CHECK (rw_ism_compute (bs, Yb, big->n_surfaces, s2, r2, &is2, &ism2, &err), "ism: %s",
              err.message);
    RwRaySettings set2 = set;
    set2.n_rays = 2000000;
    set2.receiver_radius_m = 0.2;
    set2.duration_s = 0.015;
    RwRayResult ray2 = { 0 };
    RW_CHECK (rw_rays_trace (bs, Yb, sb, big->n_surfaces, s2, r2, &set2, &ray2, &err),
              "rays: %s", err.message);
    const RwIsmArrival *fl = ism2.n_arrivals > 1 ? &ism2.arrivals[1] : NULL;
    RW_CHECK (fl != NULL && fl->order == 1 && fabs (fl->distance_m - sqrt (13)) < 1e-9,
              "the floor reflection second");
    if (fl && ray2.energy)
      {
        const double hw = set2.receiver_radius_m / c + 2 * set2.bin_s;
        const size_t j0 = (size_t) floor ((fl->delay_s - hw) / set2.bin_s);
        const size_t j1 = (size_t) floor ((fl->delay_s + hw) / set2.bin_s);
        for (int b = 0; b < RW_N_OCTAVES; b += 7)
          {
            double e = 0.0, dir[3] = { 0, 0, 0 };
            for (size_t j = j0; j <= j1; j++)
              {
                const size_t k = (size_t) b * ray2.n_bins + j;
                e += ray2.energy[k];
                for (int q = 0; q < 3; q++)
                  dir[q] += ray2.direction[3 * k + q];
              }
            const double g2 = cabs (fl->gain[b]) * cabs (fl->gain[b]);
            const double len = sqrt (dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
            const double ang = acos (fmin (1.0, (dir[0] * fl->direction[0]
                                                 + dir[1] * fl->direction[1]
                                                 + dir[2] * fl->direction[2]) / len))
                               * 180 / M_PI;
            RW_NOTE ("floor reflection, %g Hz: rays %.6f, ISM |R(θ)|²/r² %.6f (%+.2f %%), "
                     "direction %.3f° off the image's", rw_octave_centres_hz[b], e, g2,
                     100 * (e / g2 - 1), ang);
            RW_CHECK (fabs (e / g2 - 1) < 0.10, "floor reflection energy %.6f vs %.6f", e, g2);
            /* At 63 Hz |R(θ)|² is nearly the same for every chord; at
             * 8 kHz it varies across the sphere's chords, which tilts
             * the energy-weighted mean (0.18° measured): not the law. */
            if (b == 0)
              RW_CHECK (ang < 0.3, "floor reflection from the image's direction (%.3f°)", ang);
          }
      }
    rw_rays_result_clear (&ray2);
    rw_ism_result_clear (&ism2);
    free (Yb);
    free (sb);
    rw_ga_scene_free (bs);
    rw_mesh_free (big);
  }

  rw_rays_result_clear (&rays);
  rw_ism_result_clear (&ism);
  free (Y);
  free (sc);
  rw_ga_scene_free (scene);
  rw_mesh_free (m);
  return rw_test_finish ();
}
