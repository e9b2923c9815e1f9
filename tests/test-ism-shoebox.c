/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ism-shoebox: image sources in a 5.1 × 3.7 × 2.9 m box, order ≤ 3, each
 * wall its own frequency-independent R, against the Allen & Berkley image
 * lattice computed here independently:
 *   x = (1 − 2q) x_s + 2 m L_x   (q ∈ {0, 1}, m ∈ ℤ; likewise y, z),
 * |m − q| reflections on the wall x = 0 and |m| on x = L_x, order
 * Σ |2m − q| over the axes. The 63 images of order ≤ 3 (1 + 6 + 18 + 38)
 * are all visible in a box, so the count must be 63; each arrival must
 * sit on a lattice image (delay within one sample at 48 kHz: it is within
 * 1e-9 s), hit exactly the walls the lattice says, and carry
 * Π R(θ)/r within 1 % in every band, with θ of each wall from the
 * image's direction (cos θ_x = |x_img − x_r|/r). Then: a
 * frequency-dependent floor (admittance fitted to a porous absorber's α)
 * gives the complex (cos θ − Y(f_b))/(cos θ + Y(f_b))/r in every band;
 * the rendering puts the direct sound's area at 1/r and its centroid
 * at r/c·fs; and the box drawn with inward normals gives the same 63. */
#include <complex.h>
#include <stdlib.h>
#include <string.h>

#include "rw-test.h"
#include "rw-ism.h"
#include "rw-physics.h"
#include "rw-shapes.h"

#define LX 5.1
#define LY 3.7
#define LZ 2.9
#define FS 48000.0

/* rw_shape_box's surface ids: floor, ceiling, wall_x0, wall_x1, wall_y0,
 * wall_y1; lower wall of axis a (0 = x, 1 = y, 2 = z) and upper wall. */
static const int lower_wall[3] = { 2, 4, 0 };
static const int upper_wall[3] = { 3, 5, 1 };
static const double wall_R[6] = { 0.9, 0.8, 0.7, 0.95, 0.6, 0.85 };

typedef struct {
  double pos[3];
  int hits[6];         /* reflections per surface id */
  int order;
  bool matched;
} Image;

static double
R_theta (double R0, double cos_t)
{
  double beta = (1.0 - R0) / (1.0 + R0);
  return (cos_t - beta) / (cos_t + beta);
}

int
main (void)
{
  const double L[3] = { LX, LY, LZ };
  const double src[3] = { 1.3, 0.9, 1.1 }, rcv[3] = { 3.6, 2.4, 1.7 };
  const double c = rw_speed_of_sound (20.0);
  RwError err = { 0 };
  RwMesh *m = rw_shape_box (LX, LY, LZ);
  RW_CHECK (m != NULL && m->n_surfaces == 6, "rw_shape_box gives six surfaces");
  RwGaScene *scene = rw_ga_scene_new (m, &err);
  RW_CHECK (scene != NULL, "scene: %s", err.message);
  if (scene == NULL)
    return rw_test_finish ();

  RwIsmFace *faces = NULL;
  size_t nf = 0;
  RW_CHECK (rw_ism_faces (scene, &faces, &nf, NULL, &err), "faces: %s", err.message);
  RW_CHECK (nf == 6, "a box has 6 planar faces (got %zu from %zu triangles)", nf, m->n_triangles);
  free (faces);

  /* The lattice, independently. */
  Image img[400];
  size_t n_img = 0;
  for (int mx = -2; mx <= 2; mx++)
    for (int qx = 0; qx <= 1; qx++)
      for (int my = -2; my <= 2; my++)
        for (int qy = 0; qy <= 1; qy++)
          for (int mz = -2; mz <= 2; mz++)
            for (int qz = 0; qz <= 1; qz++)
              {
                int mm[3] = { mx, my, mz }, qq[3] = { qx, qy, qz };
                Image im = { { 0 }, { 0 }, 0, false };
                for (int a = 0; a < 3; a++)
                  {
                    im.pos[a] = (1 - 2 * qq[a]) * src[a] + 2 * mm[a] * L[a];
                    im.hits[lower_wall[a]] += abs (mm[a] - qq[a]);
                    im.hits[upper_wall[a]] += abs (mm[a]);
                    im.order += abs (2 * mm[a] - qq[a]);
                  }
                if (im.order <= 3)
                  img[n_img++] = im;
              }
  RW_CHECK (n_img == 63, "the lattice has 63 images of order ≤ 3 (got %zu)", n_img);

  RwAdmittance Y[6];
  for (int s = 0; s < 6; s++)
    Y[s] = rw_admittance_real (wall_R[s]);
  RwIsmSettings set;
  rw_ism_settings_init (&set);
  set.speed_of_sound = c;
  RW_CHECK (set.max_order == 3, "default order 3");
  RwIsmResult res;
  RW_CHECK (rw_ism_compute (scene, Y, 6, src, rcv, &set, &res, &err), "compute: %s", err.message);
  RW_NOTE ("shoebox: %zu faces, %zu candidates after culling, %zu arrivals", res.n_faces,
           res.n_candidates, res.n_arrivals);
  RW_CHECK (res.n_arrivals == n_img, "arrival count %zu = analytic %zu", res.n_arrivals, n_img);

  double worst_delay = 0, worst_amp = 0, worst_dir = 0;
  int per_order[4] = { 0 };
  for (size_t i = 0; i < res.n_arrivals; i++)
    {
      const RwIsmArrival *a = &res.arrivals[i];
      if (i > 0)
        RW_CHECK (a->delay_s >= res.arrivals[i - 1].delay_s, "sorted by delay at %zu", i);
      Image *match = NULL;
      for (size_t k = 0; k < n_img; k++)
        {
          double d2 = 0;
          for (int q = 0; q < 3; q++)
            d2 += (img[k].pos[q] - a->image[q]) * (img[k].pos[q] - a->image[q]);
          if (d2 < 1e-12)
            match = &img[k];
        }
      RW_CHECK (match != NULL, "arrival %zu (order %d, image %.4f %.4f %.4f) is a lattice image", i,
                a->order, a->image[0], a->image[1], a->image[2]);
      if (match == NULL)
        continue;
      RW_CHECK (!match->matched, "lattice image matched twice");
      match->matched = true;
      RW_CHECK (a->order == match->order, "order %d vs lattice %d", a->order, match->order);
      if (a->order >= 0 && a->order <= 3)
        per_order[a->order]++;
      int hits[6] = { 0 };
      for (int j = 0; j < a->order; j++)
        if (a->surfaces[j] < 6)
          hits[a->surfaces[j]]++;
      RW_CHECK (memcmp (hits, match->hits, sizeof hits) == 0,
                "walls hit by arrival %zu match the lattice's", i);

      double d[3], r = 0;
      for (int q = 0; q < 3; q++)
        {
          d[q] = match->pos[q] - rcv[q];
          r += d[q] * d[q];
        }
      r = sqrt (r);
      double err_samples = fabs (a->delay_s - r / c) * FS;
      worst_delay = fmax (worst_delay, err_samples);
      RW_CHECK (err_samples < 1.0, "delay within one sample at 48 kHz (%.3g samples)", err_samples);
      for (int q = 0; q < 3; q++)
        worst_dir = fmax (worst_dir, fabs (a->direction[q] - d[q] / r));
      double expect = 1.0 / r;
      const int axis_of_wall[6] = { 2, 2, 0, 0, 1, 1 };
      for (int s = 0; s < 6; s++)
        expect *= pow (R_theta (wall_R[s], fabs (d[axis_of_wall[s]]) / r), match->hits[s]);
      for (int b = 0; b < RW_N_OCTAVES; b++)
        {
          double rel = cabs (a->gain[b] - expect) / fabs (expect);
          worst_amp = fmax (worst_amp, rel);
          RW_CHECK (rel < 0.01, "arrival %zu band %d: gain %.6g%+.2gi vs R(θ)ⁿ/r %.6g", i, b,
                    creal (a->gain[b]), cimag (a->gain[b]), expect);
        }
    }
  RW_CHECK (worst_dir < 1e-9, "directions of arrival (worst component error %.3g)", worst_dir);
  RW_CHECK (per_order[0] == 1 && per_order[1] == 6 && per_order[2] == 18 && per_order[3] == 38,
            "per order 1, 6, 18, 38 (got %d, %d, %d, %d)", per_order[0], per_order[1],
            per_order[2], per_order[3]);
  RW_NOTE ("shoebox: worst delay error %.3g samples at 48 kHz, worst relative gain error %.3g, "
           "per order %d/%d/%d/%d", worst_delay, worst_amp, per_order[0], per_order[1],
           per_order[2], per_order[3]);

  /* Rendering: the direct sound's samples sum to 1/r and centre on r/c. */
  const RwIsmArrival *direct = &res.arrivals[0];
  RW_CHECK (direct->order == 0, "the first arrival is the direct sound");
  size_t ns = (size_t) (0.1 * FS);
  double *ir = malloc (RW_N_OCTAVES * ns * sizeof *ir);
  RW_CHECK (rw_ism_render (direct, 1, FS, ns, ir, &err), "render: %s", err.message);
  for (int b = 0; b < RW_N_OCTAVES; b++)
    {
      double sum = 0, moment = 0;
      for (size_t i = 0; i < ns; i++)
        {
          sum += ir[b * ns + i];
          moment += ir[b * ns + i] * (double) i;
        }
      double r = direct->distance_m;
      RW_CHECK_CLOSE (sum * r, 1.0, 1e-9, "rendered direct sound: area × r");
      RW_CHECK_CLOSE (moment / sum, r / c * FS, 0.02, "rendered direct sound: centroid, samples");
      if (b == 0)
        RW_NOTE ("render: direct sound at %.4f m: area × r = %.12f, centroid %.4f samples "
                 "(r/c·fs = %.4f)", r, sum * r, moment / sum, r / c * FS);
    }
  /* The whole IR's sum is the sum of the gains (all arrivals lie inside). */
  RW_CHECK (rw_ism_render (res.arrivals, res.n_arrivals, FS, ns, ir, &err), "render all");
  double total = 0, expect_total = 0;
  for (size_t i = 0; i < ns; i++)
    total += ir[3 * ns + i];
  for (size_t i = 0; i < res.n_arrivals; i++)
    expect_total += creal (res.arrivals[i].gain[3]);
  RW_CHECK_CLOSE (total, expect_total, 1e-9, "rendered IR: area = sum of the gains");
  /* The kernel's magnitude response at fractional delays: flat (within
   * 0.1 dB) to 16 kHz, and at the 8 kHz band's upper edge (11.3 kHz). */
  const double fracs[3] = { 0.25, 0.5, 0.9 }, freqs[4] = { 1000, 8000, 11314, 16000 };
  double worst_db = 0;
  for (int k = 0; k < 3; k++)
    {
      RwIsmArrival one = { 0 };
      one.delay_s = (1000.0 + fracs[k]) / FS;
      for (int b = 0; b < RW_N_OCTAVES; b++)
        one.gain[b] = 1.0;
      RW_CHECK (rw_ism_render (&one, 1, FS, ns, ir, &err), "render one");
      for (int q = 0; q < 4; q++)
        {
          double complex X = 0;
          for (size_t i = 900; i < 1100; i++)
            X += ir[i] * cexp (-2 * M_PI * I * freqs[q] / FS * (double) i);
          double db = 20 * log10 (cabs (X));
          worst_db = fmax (worst_db, fabs (db));
          RW_CHECK (fabs (db) < 0.1, "kernel at delay +%.2f samples, %.0f Hz: %.3f dB", fracs[k],
                    freqs[q], db);
        }
    }
  RW_NOTE ("render: kernel magnitude within %.4f dB of flat to 16 kHz (fractional delays 0.25, "
           "0.5, 0.9)", worst_db);
  /* An inverting reflection (R < 0: grazing incidence, or a complex R
   * whose real part is negative) renders as a negative pulse of area |g|:
   * the sign is kept, the phase beyond it is not (rw-ism.h). */
  RwIsmArrival neg[2] = { { 0 }, { 0 } };
  neg[0].delay_s = 0.01;
  neg[1].delay_s = 0.05;
  for (int b = 0; b < RW_N_OCTAVES; b++)
    {
      neg[0].gain[b] = -0.5;
      neg[1].gain[b] = 0.3 * cexp (2.5 * I);
    }
  RW_CHECK (rw_ism_render (neg, 2, FS, ns, ir, &err), "render negative");
  double area0 = 0, area1 = 0;
  for (size_t i = 0; i < ns; i++)
    {
      double v = ir[5 * ns + i];
      if (i < (size_t) (0.03 * FS))
        area0 += v;
      else
        area1 += v;
    }
  RW_CHECK_CLOSE (area0, -0.5, 1e-12, "R < 0: negative pulse");
  RW_CHECK_CLOSE (area1, -0.3, 1e-12, "Re g < 0: pulse of area −|g|");
  free (ir);
  rw_ism_result_clear (&res);

  /* A frequency-dependent floor: the admittance fitted to a porous
   * absorber's α (the model the wave solver runs); first-order floor
   * reflection gains in every band, complex, against the formula. */
  const double alpha[RW_ADM_N_BANDS] = { 0.05, 0.1, 0.3, 0.6, 0.8, 0.85, 0.85, 0.85 };
  RW_CHECK (rw_admittance_fit_alpha (alpha, RW_ADM_N_BANDS, &Y[0], NULL, &err), "fit: %s",
            err.message);
  set.max_order = 1;
  RW_CHECK (rw_ism_compute (scene, Y, 6, src, rcv, &set, &res, &err), "compute: %s", err.message);
  const RwIsmArrival *floor_refl = NULL;
  for (size_t i = 0; i < res.n_arrivals; i++)
    if (res.arrivals[i].order == 1 && res.arrivals[i].surfaces[0] == 0)
      floor_refl = &res.arrivals[i];
  RW_CHECK (floor_refl != NULL, "floor reflection present");
  if (floor_refl)
    {
      double img_z = -src[2];
      double dx = src[0] - rcv[0], dy = src[1] - rcv[1], dz = img_z - rcv[2];
      double r = sqrt (dx * dx + dy * dy + dz * dz), ct = fabs (dz) / r;
      double worst = 0, worst_phase = 0;
      for (int b = 0; b < RW_N_OCTAVES; b++)
        {
          double complex Yb = rw_admittance_eval (&Y[0], rw_octave_centres_hz[b]);
          double complex expect = (ct - Yb) / (ct + Yb) / r;
          double rel = cabs (floor_refl->gain[b] - expect) / cabs (expect);
          worst = fmax (worst, rel);
          worst_phase = fmax (worst_phase, fabs (carg (expect)));
          RW_CHECK (rel < 1e-9, "frequency-dependent floor, band %d: %.6g%+.6gi vs %.6g%+.6gi", b,
                    creal (floor_refl->gain[b]), cimag (floor_refl->gain[b]), creal (expect),
                    cimag (expect));
        }
      RW_NOTE ("frequency-dependent floor: worst relative error %.3g; largest |arg R| %.1f°", worst,
               worst_phase * 180 / M_PI);
    }
  rw_ism_result_clear (&res);
  rw_ga_scene_free (scene);

  /* The same box drawn with its normals into the room (every triangle's
   * winding reversed): the shell's sign turns them (rw_mesh_shell_signs),
   * so the arrivals are the same 63. */
  for (size_t t = 0; t < m->n_triangles; t++)
    {
      uint32_t v = m->tri[3 * t + 1];
      m->tri[3 * t + 1] = m->tri[3 * t + 2];
      m->tri[3 * t + 2] = v;
    }
  for (int s = 0; s < 6; s++)
    Y[s] = rw_admittance_real (wall_R[s]);
  scene = rw_ga_scene_new (m, &err);
  set.max_order = 3;
  RW_CHECK (scene && rw_ism_compute (scene, Y, 6, src, rcv, &set, &res, &err),
            "inward box: %s", err.message);
  RW_CHECK (res.n_arrivals == n_img, "inward box: %zu arrivals (expected %zu)", res.n_arrivals,
            n_img);
  rw_ism_result_clear (&res);
  rw_ga_scene_free (scene);
  rw_mesh_free (m);
  return rw_test_finish ();
}
