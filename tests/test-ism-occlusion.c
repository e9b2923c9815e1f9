/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ism-occlusion: image sources in an L-shaped room (6 × 5 × 3 m minus the
 * corner [3, 6] × [2.5, 5]), source S = (5, 1, 1.2) in the x-arm,
 * receiver R = (1.2, 4.4, 1.7) in the y-arm, where the inner corner hides
 * most paths.
 *
 * Analytic reasoning, in plan (z plays no part for the walls):
 * - direct sound: the line S–R passes x = 3 at y = 2.79 > 2.5, inside the
 *   cut-out: hidden. Floor and ceiling images lie above/below S, so their
 *   paths have the same plan as the direct one: hidden too.
 * - wall_x1 (x = 6, y ∈ [0, 2.5]): image (7, 1); R → image meets x = 6 at
 *   y = 1.59 (on the wall) but passes x = 3 at y = 3.34: hidden.
 * - wall_y1 (y = 5, x ∈ [0, 3]): image (5, 9); R → image meets y = 5 at
 *   x = 1.70 (on the wall), then that point → S passes x = 3 at y = 3.42:
 *   hidden.
 * - wall_x0 (x = 0): image (−5, 1); R → image meets x = 0 at y = 3.74,
 *   that point → S passes x = 3 at y = 2.10 < 2.5 and stays below
 *   y = 2.5 beyond: VISIBLE, at r = |R − (−5, 1, 1.2)| = √50.25.
 * (The first choice, R = (1, 4.5), put the path x = 0 → y = 5 exactly
 * through the inner corner's edge: a tie between the two methods, not a
 * test of either.)
 * Then every sequence of up to three reflections is enumerated here
 * independently (own mirroring, reflection points checked against each
 * wall's rectangle or the floor's L, segments against the cut-out's
 * rectangle in plan) and the engine's arrivals must be exactly that set:
 * same surface sequences, same image positions.
 * Then a box with a pillar: a reflection off the pillar is present and
 * the pillar hides a wall's (reasoning below). */
#include <complex.h>
#include <stdlib.h>
#include <string.h>

#include "rw-test.h"
#include "rw-ism.h"
#include "rw-shapes.h"

#define LX 6.0
#define LY 5.0
#define LZ 3.0
#define CX 3.0
#define CY 2.5
#define ORDER 3

enum { FLOOR, CEILING, X0, X1, Y0, Y1, INNER_X, INNER_Y, N_WALLS };

typedef struct {
  int axis;              /* the plane's normal axis */
  double at;             /* coordinate of the plane */
  double air;            /* +1: air on the greater side */
  double lo[3], hi[3];   /* extent (the L for floor and ceiling: see on_wall) */
} Wall;

static const Wall walls[N_WALLS] = {
  [FLOOR] = { 2, 0.0, +1, { 0, 0, 0 }, { LX, LY, 0 } },
  [CEILING] = { 2, LZ, -1, { 0, 0, LZ }, { LX, LY, LZ } },
  [X0] = { 0, 0.0, +1, { 0, 0, 0 }, { 0, LY, LZ } },
  [X1] = { 0, LX, -1, { LX, 0, 0 }, { LX, CY, LZ } },
  [Y0] = { 1, 0.0, +1, { 0, 0, 0 }, { LX, 0, LZ } },
  [Y1] = { 1, LY, -1, { 0, LY, 0 }, { CX, LY, LZ } },
  [INNER_X] = { 0, CX, -1, { CX, CY, 0 }, { CX, LY, LZ } },
  [INNER_Y] = { 1, CY, -1, { CX, CY, 0 }, { LX, CY, LZ } },
};

static bool
in_cutout_plan (double x, double y)
{
  return x > CX && y > CY;
}

static bool
on_wall (int w, const double p[3])
{
  const Wall *W = &walls[w];
  for (int a = 0; a < 3; a++)
    if (a != W->axis && (p[a] <= W->lo[a] || p[a] >= W->hi[a]))
      return false;
  if (W->axis == 2 && in_cutout_plan (p[0], p[1]))
    return false;
  return true;
}

/* Does the plan segment a–b enter the open cut-out (CX, LX) × (CY, LY)?
 * Liang–Barsky clipping against the rectangle. */
static bool
crosses_cutout (const double a[3], const double b[3])
{
  double t0 = 0, t1 = 1, d[2] = { b[0] - a[0], b[1] - a[1] };
  const double lo[2] = { CX, CY }, hi[2] = { LX + 1, LY + 1 };
  for (int k = 0; k < 2; k++)
    {
      if (d[k] == 0)
        {
          if (a[k] <= lo[k] || a[k] >= hi[k])
            return false;
          continue;
        }
      double ta = (lo[k] - a[k]) / d[k], tb = (hi[k] - a[k]) / d[k];
      if (ta > tb)
        {
          double t = ta;
          ta = tb;
          tb = t;
        }
      t0 = fmax (t0, ta);
      t1 = fmin (t1, tb);
    }
  return t1 - t0 > 1e-9;
}

typedef struct {
  int n;
  int seq[ORDER];
  double image[3];
  bool matched;
} Ref;

/* The reference set: every sequence of up to ORDER reflections, no wall
 * twice in a row, validated by plain geometry. */
static size_t
enumerate (const double S[3], const double R[3], Ref *out)
{
  size_t n_out = 0;
  int total = 1;
  for (int k = 0; k < ORDER; k++)
    total *= N_WALLS + 1;
  for (int code = 0; code < total; code++)
    {
      int seq[ORDER], n = 0, c = code;
      bool ok = true;
      for (int k = 0; k < ORDER; k++, c /= N_WALLS + 1)
        {
          int w = c % (N_WALLS + 1);   /* 0: none */
          if (w == 0)
            continue;
          seq[n++] = w - 1;
        }
      /* each sequence once: only codes whose zero digits come last */
      c = code;
      bool seen_zero = false;
      for (int k = 0; k < ORDER; k++, c /= N_WALLS + 1)
        {
          if (c % (N_WALLS + 1) == 0)
            seen_zero = true;
          else if (seen_zero)
            ok = false;
        }
      for (int k = 1; k < n; k++)
        if (seq[k] == seq[k - 1])
          ok = false;
      if (!ok)
        continue;
      double img[ORDER + 1][3];
      memcpy (img[0], S, sizeof img[0]);
      for (int k = 0; k < n; k++)
        {
          memcpy (img[k + 1], img[k], sizeof img[0]);
          const Wall *W = &walls[seq[k]];
          img[k + 1][W->axis] = 2 * W->at - img[k][W->axis];
        }
      double q[3];
      memcpy (q, R, sizeof q);
      for (int k = n - 1; k >= 0 && ok; k--)
        {
          const Wall *W = &walls[seq[k]];
          const double *im = img[k + 1];
          double den = im[W->axis] - q[W->axis];
          double s = den != 0 ? (W->at - q[W->axis]) / den : -1;
          if (!(s > 1e-9 && s < 1 - 1e-9))
            {
              ok = false;
              break;
            }
          double p[3];
          for (int a = 0; a < 3; a++)
            p[a] = q[a] + s * (im[a] - q[a]);
          /* arriving from the air side */
          if ((q[W->axis] - W->at) * W->air <= 0 || !on_wall (seq[k], p) || crosses_cutout (q, p))
            ok = false;
          memcpy (q, p, sizeof q);
        }
      if (ok && crosses_cutout (q, S))
        ok = false;
      if (!ok)
        continue;
      Ref *r = &out[n_out++];
      r->n = n;
      memcpy (r->seq, seq, sizeof seq);
      memcpy (r->image, img[n], sizeof r->image);
      r->matched = false;
    }
  return n_out;
}

int
main (void)
{
  const double S[3] = { 5.0, 1.0, 1.2 }, R[3] = { 1.2, 4.4, 1.7 };
  RwError err = { 0 };
  RwMesh *m = rw_shape_lroom (LX, LY, LZ, CX, CY);
  RW_CHECK (m != NULL && m->n_surfaces == N_WALLS, "L-room with 8 surfaces");
  RwGaScene *scene = m ? rw_ga_scene_new (m, &err) : NULL;
  RW_CHECK (scene != NULL, "scene: %s", err.message);
  if (scene == NULL)
    return rw_test_finish ();

  RwAdmittance Y[N_WALLS];
  for (int s = 0; s < N_WALLS; s++)
    Y[s] = rw_admittance_real (0.8);
  RwIsmSettings set;
  rw_ism_settings_init (&set);
  set.max_order = ORDER;
  RwIsmResult res;
  RW_CHECK (rw_ism_compute (scene, Y, N_WALLS, S, R, &set, &res, &err), "compute: %s",
            err.message);
  RW_NOTE ("L-room: %zu faces, %zu candidates, %zu arrivals of order ≤ %d", res.n_faces,
           res.n_candidates, res.n_arrivals, ORDER);
  RW_CHECK (res.n_faces == N_WALLS, "8 planar faces (got %zu)", res.n_faces);

  /* The analytic cases. */
  bool direct = false, floor1 = false, ceil1 = false, x1 = false, y1 = false;
  const RwIsmArrival *x0 = NULL;
  for (size_t i = 0; i < res.n_arrivals; i++)
    {
      const RwIsmArrival *a = &res.arrivals[i];
      direct |= a->order == 0;
      if (a->order == 1)
        {
          floor1 |= a->surfaces[0] == FLOOR;
          ceil1 |= a->surfaces[0] == CEILING;
          x1 |= a->surfaces[0] == X1;
          y1 |= a->surfaces[0] == Y1;
          if (a->surfaces[0] == X0)
            x0 = a;
        }
    }
  RW_CHECK (!direct, "the direct sound is hidden by the corner");
  RW_CHECK (!floor1 && !ceil1, "floor and ceiling reflections are hidden as the direct sound");
  RW_CHECK (!x1, "the wall x = 6 reflection is hidden (its point is on the wall)");
  RW_CHECK (!y1, "the wall y = 5 reflection is hidden (its point is on the wall)");
  RW_CHECK (x0 != NULL, "the wall x = 0 reflection is visible");
  if (x0)
    {
      double r = sqrt (50.25), ct = 6.2 / r, beta = (1 - 0.8) / 1.8;
      RW_CHECK_CLOSE (x0->distance_m, r, 1e-9, "wall x = 0: path length");
      RW_CHECK_CLOSE (creal (x0->gain[4]), (ct - beta) / (ct + beta) / r, 1e-12,
                      "wall x = 0: R(θ)/r");
      RW_CHECK_CLOSE (x0->points[0][0], 0.0, 1e-9, "wall x = 0: reflection point x");
      RW_CHECK_CLOSE (x0->points[0][1], 4.4 - 3.4 * 1.2 / 6.2, 1e-9, "wall x = 0: reflection point y");
      RW_NOTE ("wall x = 0: r = %.6f m, reflection at (%.4f, %.4f, %.4f)", x0->distance_m,
               x0->points[0][0], x0->points[0][1], x0->points[0][2]);
    }

  /* The whole set against the independent enumeration. */
  Ref ref[1024];
  size_t n_ref = enumerate (S, R, ref);
  int ref_per_order[ORDER + 1] = { 0 }, got_per_order[ORDER + 1] = { 0 };
  for (size_t k = 0; k < n_ref; k++)
    ref_per_order[ref[k].n]++;
  RW_CHECK (res.n_arrivals == n_ref, "arrivals %zu = independent enumeration %zu", res.n_arrivals,
            n_ref);
  for (size_t i = 0; i < res.n_arrivals; i++)
    {
      const RwIsmArrival *a = &res.arrivals[i];
      if (a->order >= 0 && a->order <= ORDER)
        got_per_order[a->order]++;
      Ref *match = NULL;
      for (size_t k = 0; k < n_ref; k++)
        if (ref[k].n == a->order && !ref[k].matched)
          {
            bool same = true;
            for (int j = 0; j < a->order; j++)
              same &= ref[k].seq[j] == (int) a->surfaces[j];
            if (same)
              match = &ref[k];
          }
      RW_CHECK (match != NULL, "arrival %zu (order %d, first surface %u) is in the reference", i,
                a->order, a->order ? a->surfaces[0] : 0);
      if (match == NULL)
        continue;
      match->matched = true;
      double d2 = 0;
      for (int q = 0; q < 3; q++)
        d2 += (match->image[q] - a->image[q]) * (match->image[q] - a->image[q]);
      RW_CHECK (d2 < 1e-18, "arrival %zu: image position as the reference", i);
    }
  for (size_t k = 0; k < n_ref; k++)
    RW_CHECK (ref[k].matched, "reference path %d, %d, %d (order %d; image %.4f %.4f %.4f) was found",
              ref[k].seq[0], ref[k].n > 1 ? ref[k].seq[1] : -1, ref[k].n > 2 ? ref[k].seq[2] : -1,
              ref[k].n, ref[k].image[0], ref[k].image[1], ref[k].image[2]);
  RW_NOTE ("L-room: reference per order %d/%d/%d/%d, engine %d/%d/%d/%d", ref_per_order[0],
           ref_per_order[1], ref_per_order[2], ref_per_order[3], got_per_order[0],
           got_per_order[1], got_per_order[2], got_per_order[3]);

  rw_ism_result_clear (&res);
  rw_ga_scene_free (scene);
  rw_mesh_free (m);

  /* A pillar [2.5, 3.5] × [2, 3] floor to ceiling in a 6 × 5 × 3 m box;
   * S = (1, 2.3, 1.2) and R = (1.2, 2.8, 1.7) both before its face
   * x = 2.5. The pillar's reflection: image (4, 2.3, 1.2); R → image
   * meets x = 2.5 at s = 1.3/2.8, y = 2.57, z = 1.47: on the face,
   * VISIBLE, r = √(2.8² + 0.5² + 0.5²). The wall x = 6 reflection: image
   * (11, 2.3, 1.2); R → image passes x = 2.5 at y = 2.73, z = 1.63, inside
   * the pillar's face: HIDDEN. */
  m = rw_shape_box_with_pillar (6.0, 5.0, 3.0, 2.5, 2.0, 1.0);
  scene = m ? rw_ga_scene_new (m, &err) : NULL;
  RW_CHECK (scene != NULL, "pillar scene: %s", err.message);
  if (scene == NULL)
    return rw_test_finish ();
  const double S2[3] = { 1.0, 2.3, 1.2 }, R2[3] = { 1.2, 2.8, 1.7 };
  const uint32_t pillar = 6, wall_x1 = 3;
  set.max_order = 1;
  RW_CHECK (rw_ism_compute (scene, Y, 7, S2, R2, &set, &res, &err), "pillar: %s", err.message);
  const RwIsmArrival *on_pillar = NULL;
  bool direct2 = false, x1_2 = false;
  for (size_t i = 0; i < res.n_arrivals; i++)
    {
      const RwIsmArrival *a = &res.arrivals[i];
      direct2 |= a->order == 0;
      if (a->order == 1 && a->surfaces[0] == pillar)
        on_pillar = a;
      if (a->order == 1 && a->surfaces[0] == wall_x1)
        x1_2 = true;
    }
  RW_NOTE ("pillar room: %zu faces, %zu arrivals of order ≤ 1", res.n_faces, res.n_arrivals);
  RW_CHECK (res.n_faces == 10, "pillar room: 6 + 4 faces (got %zu)", res.n_faces);
  RW_CHECK (direct2, "pillar room: direct sound present");
  RW_CHECK (!x1_2, "pillar room: the wall x = 6 reflection is hidden by the pillar");
  RW_CHECK (on_pillar != NULL, "pillar room: the pillar's own reflection is present");
  if (on_pillar)
    {
      double r = sqrt (2.8 * 2.8 + 0.5), ct = 2.8 / r, beta = (1 - 0.8) / 1.8;
      RW_CHECK_CLOSE (on_pillar->distance_m, r, 1e-9, "pillar reflection: path length");
      RW_CHECK_CLOSE (creal (on_pillar->gain[2]), (ct - beta) / (ct + beta) / r, 1e-12,
                      "pillar reflection: R(θ)/r");
      RW_CHECK_CLOSE (on_pillar->points[0][0], 2.5, 1e-9, "pillar reflection point x");
    }
  rw_ism_result_clear (&res);
  rw_ga_scene_free (scene);
  rw_mesh_free (m);
  return rw_test_finish ();
}
