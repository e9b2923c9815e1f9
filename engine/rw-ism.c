/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-ism.c — image sources on a triangle mesh, validated with Embree rays,
 * and their rendering as per-band impulse responses (see rw-ism.h). */
#include "rw-ism.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "rw-ga-progress.h"
#include "rw-i18n.h"
#include "rw-physics.h"

/* Rays start this far (metres) off a reflection point so that the face it
 * lies on is not hit again at distance 0; Embree's single precision
 * resolves ≈ 1e-6 m at 10 m. A reflection must also lie this far inside
 * its segment. */
#define ISM_EPS 1e-5
/* The hit that must be the reflection point may lie this far (metres)
 * beyond where the double-precision plane crossing puts it. */
#define ISM_HIT_SLACK 1e-3
/* Candidates per scheduled block of the validation, and per count of the
 * progress report. */
#define ISM_BLOCK 64

void
rw_ism_settings_init (RwIsmSettings *s)
{
  s->max_order = RW_ISM_DEFAULT_ORDER;
  s->speed_of_sound = rw_speed_of_sound (RW_DEFAULT_TEMPERATURE_C);
  s->threads = 0;
  s->progress = NULL;
  s->progress_data = NULL;
  s->cancel = NULL;
}

void
rw_ism_result_clear (RwIsmResult *r)
{
  if (r == NULL)
    return;
  free (r->arrivals);
  memset (r, 0, sizeof *r);
}

static double
dot3 (const double a[3], const double b[3])
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* ---------------------------------------------------------------- faces */

bool
rw_ism_faces (const RwGaScene *scene, RwIsmFace **faces_out, size_t *n_out,
              uint32_t *face_of_triangle, RwError *err)
{
  const RwMesh *m = rw_ga_scene_mesh (scene);
  double lo[3] = { INFINITY, INFINITY, INFINITY }, hi[3] = { -INFINITY, -INFINITY, -INFINITY };
  for (size_t v = 0; v < m->n_vertices; v++)
    for (int k = 0; k < 3; k++)
      {
        lo[k] = fmin (lo[k], m->xyz[3 * v + k]);
        hi[k] = fmax (hi[k], m->xyz[3 * v + k]);
      }
  const double diag = sqrt ((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1])
                            + (hi[2] - lo[2]) * (hi[2] - lo[2]));
  const double tol = RW_ISM_PLANE_TOL * (diag > 0.0 ? diag : 1.0);

  size_t cap = 16, nf = 0;
  RwIsmFace *f = malloc (cap * sizeof *f);
  if (f == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("out of memory grouping the room's faces"));
  /* O(triangles × faces): a room model has at most some thousand planes,
   * and a mesh with many more (a finely tessellated curve) is no case for
   * image sources anyway (RW_ISM_MAX_CANDIDATES stops it later). */
  for (size_t t = 0; t < m->n_triangles; t++)
    {
      double n[3];
      uint32_t which = UINT32_MAX;
      if (rw_ga_scene_triangle_normal (scene, (uint32_t) t, n))
        {
          const double *p[3];
          for (int q = 0; q < 3; q++)
            p[q] = m->xyz + 3 * (size_t) m->tri[3 * t + q];
          for (size_t i = 0; i < nf && which == UINT32_MAX; i++)
            if (dot3 (f[i].normal, n) >= RW_ISM_PLANE_COS
                && fabs (dot3 (f[i].normal, p[0]) - f[i].offset) <= tol
                && fabs (dot3 (f[i].normal, p[1]) - f[i].offset) <= tol
                && fabs (dot3 (f[i].normal, p[2]) - f[i].offset) <= tol)
              which = (uint32_t) i;
          if (which == UINT32_MAX)
            {
              if (nf == cap)
                {
                  RwIsmFace *g = realloc (f, 2 * cap * sizeof *f);
                  if (g == NULL)
                    {
                      free (f);
                      return rw_fail (err, RW_ERROR_MEMORY,
                                      _("out of memory grouping the room's faces"));
                    }
                  f = g;
                  cap *= 2;
                }
              which = (uint32_t) nf++;
              memcpy (f[which].normal, n, sizeof n);
              f[which].offset = (dot3 (n, p[0]) + dot3 (n, p[1]) + dot3 (n, p[2])) / 3.0;
              f[which].n_triangles = 0;
              f[which].area_m2 = 0.0;
              f[which].first_triangle = (uint32_t) t;
            }
          double ab[3], ac[3], c[3];
          for (int k = 0; k < 3; k++)
            {
              ab[k] = p[1][k] - p[0][k];
              ac[k] = p[2][k] - p[0][k];
            }
          rw_cross3 (ab, ac, c);
          f[which].n_triangles++;
          f[which].area_m2 += 0.5 * sqrt (dot3 (c, c));
        }
      if (face_of_triangle)
        face_of_triangle[t] = which;
    }
  *faces_out = f;
  *n_out = nf;
  return true;
}

/* ---------------------------------------------------------------- tree */

typedef struct {
  double pos[3];
  uint32_t parent;          /* UINT32_MAX for the source */
  uint32_t face;            /* the face mirrored over last */
  int order;
} Node;

typedef struct {
  const RwGaScene *scene;
  const RwMesh *mesh;
  const RwIsmFace *faces;
  const uint32_t *face_of;
  const Node *nodes;
  const double complex (*Y)[RW_N_OCTAVES];   /* per surface and band */
  double src[3], rcv[3];
  double c;
} Ctx;

/* Validates node i's path backward from the receiver; fills *a (may be
 * NULL) when it is valid. Pure: the same answer on any thread. */
static bool
validate (const Ctx *cx, uint32_t i, RwIsmArrival *a)
{
  const Node *nodes = cx->nodes;
  const int order = nodes[i].order;
  uint32_t chain[RW_ISM_MAX_ORDER + 1];    /* chain[k] = node of order k */
  for (uint32_t j = i; j != UINT32_MAX; j = nodes[j].parent)
    chain[nodes[j].order] = j;

  double q[3];                       /* where the current segment starts */
  memcpy (q, cx->rcv, sizeof q);
  double points[RW_ISM_MAX_ORDER][3], cosv[RW_ISM_MAX_ORDER];
  uint32_t surf[RW_ISM_MAX_ORDER];
  for (int k = order; k >= 1; k--)
    {
      const Node *img = &nodes[chain[k]];
      const RwIsmFace *f = &cx->faces[img->face];
      double d[3] = { img->pos[0] - q[0], img->pos[1] - q[1], img->pos[2] - q[2] };
      double len = sqrt (dot3 (d, d));
      double dn = dot3 (f->normal, d);
      if (!(len > 0.0) || dn == 0.0)
        return false;
      /* The segment q → image crosses the face's plane at parameter s. */
      double s = (f->offset - dot3 (f->normal, q)) / dn;
      if (!(s * len > ISM_EPS && (1.0 - s) * len > ISM_EPS))
        return false;
      /* It must arrive from the air side (the image is behind the face). */
      if (dn <= 0.0)
        return false;
      RwGaHit hit;
      double t_near = k == order ? 0.0 : ISM_EPS;
      if (!rw_ga_scene_first_hit (cx->scene, q, d, t_near, s * len + ISM_HIT_SLACK, &hit)
          || cx->face_of[hit.triangle] != img->face)
        return false;
      for (int c = 0; c < 3; c++)
        points[k - 1][c] = q[c] + s * d[c];
      cosv[k - 1] = dn / len;
      surf[k - 1] = hit.surface;
      memcpy (q, points[k - 1], sizeof q);
    }
  /* The last leg, from the first reflection point (or the receiver) to the
   * source. */
  if (!rw_ga_scene_segment_clear (cx->scene, q, cx->src, order > 0 ? ISM_EPS : 0.0))
    return false;
  if (a == NULL)
    return true;

  memset (a, 0, sizeof *a);
  const double *im = nodes[i].pos;
  double d[3] = { im[0] - cx->rcv[0], im[1] - cx->rcv[1], im[2] - cx->rcv[2] };
  double r = sqrt (dot3 (d, d));
  a->order = order;
  a->distance_m = r;
  a->delay_s = r / cx->c;
  for (int c = 0; c < 3; c++)
    {
      a->direction[c] = d[c] / r;
      a->image[c] = im[c];
    }
  for (int b = 0; b < RW_N_OCTAVES; b++)
    a->gain[b] = 1.0 / r;
  for (int j = 0; j < order; j++)
    {
      a->surfaces[j] = surf[j];
      a->faces[j] = nodes[chain[j + 1]].face;
      memcpy (a->points[j], points[j], sizeof points[j]);
      a->cos_incidence[j] = cosv[j];
      for (int b = 0; b < RW_N_OCTAVES; b++)
        {
          double complex Y = cx->Y[surf[j]][b];
          a->gain[b] *= (cosv[j] - Y) / (cosv[j] + Y);
        }
    }
  return true;
}

static int
arrival_cmp (const void *pa, const void *pb)
{
  const RwIsmArrival *a = pa, *b = pb;
  if (a->delay_s != b->delay_s)
    return a->delay_s < b->delay_s ? -1 : 1;
  if (a->order != b->order)
    return a->order < b->order ? -1 : 1;
  for (int j = 0; j < a->order; j++)
    if (a->surfaces[j] != b->surfaces[j])
      return a->surfaces[j] < b->surfaces[j] ? -1 : 1;
  for (int j = 0; j < a->order; j++)
    if (a->faces[j] != b->faces[j])
      return a->faces[j] < b->faces[j] ? -1 : 1;
  return 0;
}

/* not_finite and outside: the messages for this position (source or
 * receiver: whole sentences, so that translations can decline them). */
static bool
check_position (const RwMesh *m, const double p[3], const char *not_finite, const char *outside,
                RwError *err)
{
  const char *name = m->path ? m->path : _("the room model");
  if (!isfinite (p[0]) || !isfinite (p[1]) || !isfinite (p[2]))
    return rw_fail (err, RW_ERROR_INPUT, not_finite, name);
  if (!rw_mesh_point_inside (m, p))
    return rw_fail (err, RW_ERROR_INPUT, outside, name, p[0], p[1], p[2]);
  return true;
}

bool
rw_ism_compute (const RwGaScene *scene, const RwAdmittance *surface_Y, size_t n_surfaces,
                const double src[3], const double rcv[3], const RwIsmSettings *settings,
                RwIsmResult *out, RwError *err)
{
  if (out)
    memset (out, 0, sizeof *out);
  if (scene == NULL || out == NULL || src == NULL || rcv == NULL)
    return rw_fail (err, RW_ERROR_INTERNAL, "rw_ism_compute: NULL argument");
  RwIsmSettings def;
  if (settings == NULL)
    {
      rw_ism_settings_init (&def);
      settings = &def;
    }
  const RwMesh *m = rw_ga_scene_mesh (scene);
  if (settings->max_order < 0 || settings->max_order > RW_ISM_MAX_ORDER)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("image sources: order %d is out of range (0 … %d)"),
                    settings->max_order, RW_ISM_MAX_ORDER);
  if (!(settings->speed_of_sound > 0.0) || !isfinite (settings->speed_of_sound))
    return rw_fail (err, RW_ERROR_INPUT,
                    _("image sources: the speed of sound must be a positive number (got %g m/s)"),
                    settings->speed_of_sound);
  if (surface_Y == NULL || n_surfaces < m->n_surfaces)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("image sources: the room has %zu surfaces but %zu admittances were given"),
                    m->n_surfaces, surface_Y ? n_surfaces : (size_t) 0);
  for (size_t t = 0; t < m->n_triangles; t++)
    if (m->tri_surface[t] >= n_surfaces)
      return rw_fail (err, RW_ERROR_INPUT,
                      _("image sources: triangle %zu belongs to surface %u, which has no admittance"),
                      t, m->tri_surface[t]);
  for (size_t s = 0; s < n_surfaces; s++)
    {
      RwError e2 = { 0 };
      if (!rw_admittance_check (&surface_Y[s], &e2))
        return rw_fail (err, RW_ERROR_INPUT, _("image sources: surface %s: %s"),
                        s < m->n_surfaces ? m->surface_names[s] : "?", e2.message);
    }
  if (!check_position (m, src, _("%s: image sources: the source position is not a finite number"),
                       _("%s: image sources: the source at (%.3f, %.3f, %.3f) m is outside the room"),
                       err)
      || !check_position (m, rcv,
                          _("%s: image sources: the receiver position is not a finite number"),
                          _("%s: image sources: the receiver at (%.3f, %.3f, %.3f) m is outside "
                            "the room"), err))
    return false;
  double sr[3] = { src[0] - rcv[0], src[1] - rcv[1], src[2] - rcv[2] };
  if (dot3 (sr, sr) < 1e-6)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("image sources: the source and the receiver are at the same point "
                      "(closer than 1 mm)"));

  bool ok = false;
  RwIsmFace *faces = NULL;
  size_t nf = 0;
  uint32_t *face_of = malloc (m->n_triangles * sizeof *face_of);
  double complex (*Y)[RW_N_OCTAVES] = malloc (n_surfaces * sizeof *Y);
  Node *nodes = NULL;
  uint8_t *valid = NULL;
  if (face_of == NULL || Y == NULL)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("out of memory computing image sources"));
      goto done;
    }
  if (!rw_ism_faces (scene, &faces, &nf, face_of, err))
    goto done;
  for (size_t s = 0; s < n_surfaces; s++)
    for (int b = 0; b < RW_N_OCTAVES; b++)
      Y[s][b] = rw_admittance_eval (&surface_Y[s], rw_octave_centres_hz[b]);

  /* The tree, level by level (order k's images are contiguous). */
  size_t n = 1, cap = 1024;
  nodes = malloc (cap * sizeof *nodes);
  if (nodes == NULL)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("out of memory computing image sources"));
      goto done;
    }
  memcpy (nodes[0].pos, src, sizeof nodes[0].pos);
  nodes[0].parent = UINT32_MAX;
  nodes[0].face = UINT32_MAX;
  nodes[0].order = 0;
  /* Progress: total unknown until the tree is built; the flag is read
   * for every image mirrored (up to RW_ISM_MAX_CANDIDATES of them). */
  RwGaProgress prog;
  rw_ga_progress_init (&prog, settings->progress, settings->progress_data, settings->cancel, 0);
  size_t level_start = 0, level_end = 1;
  for (int k = 1; k <= settings->max_order; k++)
    {
      for (size_t p = level_start; p < level_end; p++)
        for (size_t fi = 0; fi < nf; fi++)
          {
            if (rw_ga_progress_cancelled (&prog, err))
              goto done;
            if (fi == nodes[p].face)
              continue;
            const RwIsmFace *f = &faces[fi];
            /* Signed distance of the image from the plane: > 0 on the
             * side the normal points to, the back (no air there). */
            double dist = dot3 (f->normal, nodes[p].pos) - f->offset;
            if (dist > -ISM_EPS)
              continue;
            if (n == cap)
              {
                if (cap >= RW_ISM_MAX_CANDIDATES)
                  {
                    rw_fail (err, RW_ERROR_INPUT,
                             _("image sources: order %d in a room of %zu planar faces gives more "
                               "than %zu image sources; choose a lower order"),
                             settings->max_order, nf, (size_t) RW_ISM_MAX_CANDIDATES);
                    goto done;
                  }
                Node *g = realloc (nodes, 2 * cap * sizeof *nodes);
                if (g == NULL)
                  {
                    rw_fail (err, RW_ERROR_MEMORY, _("out of memory computing image sources"));
                    goto done;
                  }
                nodes = g;
                cap *= 2;
              }
            Node *c = &nodes[n++];
            for (int q = 0; q < 3; q++)
              c->pos[q] = nodes[p].pos[q] - 2.0 * dist * f->normal[q];
            c->parent = (uint32_t) p;
            c->face = (uint32_t) fi;
            c->order = k;
          }
      level_start = level_end;
      level_end = n;
    }

  Ctx cx = { scene, m, faces, face_of, nodes, (const double complex (*)[RW_N_OCTAVES]) Y,
             { src[0], src[1], src[2] }, { rcv[0], rcv[1], rcv[2] }, settings->speed_of_sound };
  valid = malloc (n);
  if (valid == NULL)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("out of memory computing image sources"));
      goto done;
    }
  const int threads = settings->threads > 0 ? settings->threads : omp_get_max_threads ();
  /* Each candidate's answer depends on it alone; the arrivals are then
   * gathered in tree order, so the thread count changes nothing. A block
   * of ISM_BLOCK candidates takes microseconds to milliseconds: progress
   * counts whole blocks, the flag is read for every candidate. */
  rw_ga_progress_init (&prog, settings->progress, settings->progress_data, settings->cancel, n);
#pragma omp parallel for schedule (dynamic, ISM_BLOCK) num_threads (threads)
  for (size_t i = 0; i < n; i++)
    {
      if (rw_ga_progress_stopped (&prog))
        continue;
      valid[i] = validate (&cx, (uint32_t) i, NULL);
      if (i % ISM_BLOCK == ISM_BLOCK - 1 || i + 1 == n)
        rw_ga_progress_add (&prog, i % ISM_BLOCK + 1);
    }
  if (rw_ga_progress_cancelled (&prog, err))
    goto done;
  size_t na = 0;
  for (size_t i = 0; i < n; i++)
    na += valid[i];
  out->arrivals = calloc (na ? na : 1, sizeof *out->arrivals);
  size_t *slot = malloc ((na ? na : 1) * sizeof *slot);
  if (out->arrivals == NULL || slot == NULL)
    {
      free (slot);
      rw_fail (err, RW_ERROR_MEMORY, _("out of memory computing image sources"));
      goto done;
    }
  for (size_t i = 0, j = 0; i < n; i++)
    if (valid[i])
      slot[j++] = i;
#pragma omp parallel for schedule (dynamic, 16) num_threads (threads)
  for (size_t j = 0; j < na; j++)
    if (!rw_ga_progress_stopped (&prog))
      validate (&cx, (uint32_t) slot[j], &out->arrivals[j]);
  free (slot);
  qsort (out->arrivals, na, sizeof *out->arrivals, arrival_cmp);
  out->n_arrivals = na;
  out->n_faces = nf;
  out->n_candidates = n;
  /* The last report (fraction 1), or the cancel's error. */
  ok = rw_ga_progress_finish (&prog, err);

done:
  if (!ok)
    rw_ism_result_clear (out);
  free (valid);
  free (nodes);
  free (Y);
  free (faces);
  free (face_of);
  return ok;
}

/* ---------------------------------------------------------------- render */

bool
rw_ism_render (const RwIsmArrival *arrivals, size_t n_arrivals, double fs_hz, size_t n_samples,
               double *ir, RwError *err)
{
  if (!(fs_hz > 0.0) || !isfinite (fs_hz))
    return rw_fail (err, RW_ERROR_INPUT,
                    _("image sources: the sample rate must be a positive number (got %g Hz)"), fs_hz);
  if (n_samples == 0 || ir == NULL)
    return rw_fail (err, RW_ERROR_INPUT, _("image sources: no samples to render into"));
  if (n_arrivals > 0 && arrivals == NULL)
    return rw_fail (err, RW_ERROR_INTERNAL, "rw_ism_render: NULL arrivals");
  memset (ir, 0, (size_t) RW_N_OCTAVES * n_samples * sizeof *ir);
  const int H = RW_ISM_RENDER_HALF_WIDTH;
  double w[2 * RW_ISM_RENDER_HALF_WIDTH + 2];
  for (size_t i = 0; i < n_arrivals; i++)
    {
      const double x = arrivals[i].delay_s * fs_hz;
      if (!isfinite (x) || x < -H || x > (double) n_samples + H)
        continue;
      /* Taps k0 … k0 + 2H + 1 cover |k − x| ≤ H (a Hann window is 0 at
       * the ends). Normalised over all of them, so the area is exact
       * even where the window is clipped at the IR's ends. */
      const double k0 = floor (x) - H;
      double sum = 0.0;
      for (int j = 0; j < 2 * H + 2; j++)
        {
          double u = k0 + j - x;
          double v = 0.0;
          if (fabs (u) < H)
            {
              double sinc = u == 0.0 ? 1.0 : sin (M_PI * u) / (M_PI * u);
              v = sinc * 0.5 * (1.0 + cos (M_PI * u / H));
            }
          w[j] = v;
          sum += v;
        }
      for (int b = 0; b < RW_N_OCTAVES; b++)
        {
          double complex g = arrivals[i].gain[b];
          double amp = rw_ism_real_gain (g) / sum;
          double *band = ir + (size_t) b * n_samples;
          for (int j = 0; j < 2 * H + 2; j++)
            {
              double k = k0 + j;
              if (k >= 0.0 && k < (double) n_samples && w[j] != 0.0)
                band[(size_t) k] += amp * w[j];
            }
        }
    }
  return true;
}
