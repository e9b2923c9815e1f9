/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-rays.c — stochastic ray tracing with volume detection, and the late
 * IR synthesised from its histograms (see rw-rays.h). */
#include "rw-rays.h"

#include <complex.h>
#include <fftw3.h>
#include <limits.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "rw-air.h"
#include "rw-fftw.h"
#include "rw-ga-progress.h"
#include "rw-i18n.h"
#include "rw-physics.h"

/* A ray restarts this far (metres) beyond the wall it left, so that the
 * wall is not hit again at distance 0 (Embree's single precision: ≈ 1e-6 m
 * at 10 m), as rw-ism.c. */
#define RAY_EPS 1e-5
/* A wall met from behind closer than this to a reflection point is a
 * precision artefact at an edge (below), not a hole. */
#define RAY_SKIP 1e-4
/* Rays per chunk: the unit of work and of the ordered sum of the hits;
 * fixed, so that the result does not depend on the thread count. */
#define CHUNK 256
/* A ray that reflects this often without ending is stopped (a trap such
 * as a ray between two parallel lossless walls at normal incidence). */
#define MAX_REFLECTIONS 1000000

void
rw_rays_settings_init (RwRaySettings *s)
{
  s->n_rays = RW_RAYS_DEFAULT_N;
  s->seed = 1;
  s->speed_of_sound = rw_speed_of_sound (RW_DEFAULT_TEMPERATURE_C);
  s->bin_s = RW_RAYS_DEFAULT_BIN_S;
  s->duration_s = RW_RAYS_DEFAULT_DURATION_S;
  s->receiver_radius_m = 0.0;
  s->energy_threshold = RW_RAYS_DEFAULT_THRESHOLD;
  s->air_absorption = true;
  s->temperature_c = RW_DEFAULT_TEMPERATURE_C;
  s->humidity_pct = RW_AIR_DEFAULT_HUMIDITY_PCT;
  s->threads = 0;
  s->exclude_specular_order = -1;
  s->progress = NULL;
  s->progress_data = NULL;
  s->cancel = NULL;
}

void
rw_rays_result_clear (RwRayResult *r)
{
  if (r == NULL)
    return;
  free (r->energy);
  free (r->direction);
  memset (r, 0, sizeof *r);
}

/* ---------------------------------------------------------------- random */

/* splitmix64's output function (Steele, Lea & Flood, "Fast splittable
 * pseudorandom number generators", OOPSLA 2014). */
static uint64_t
mix64 (uint64_t z)
{
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

typedef struct {
  uint64_t state;
} Rng;

/* The generator of stream `index` (a ray, a histogram bin) of seed:
 * splitmix64 counting from a state that mixes both. */
static Rng
rng_for (uint64_t seed, uint64_t index)
{
  Rng r = { mix64 (seed * 0x9e3779b97f4a7c15ULL + mix64 (index + 0x632be59bd9b4e019ULL)) };
  return r;
}

/* Uniform in [0, 1), 53 bits. */
static double
rng_uniform (Rng *r)
{
  r->state += 0x9e3779b97f4a7c15ULL;
  return (double) (mix64 (r->state) >> 11) * 0x1.0p-53;
}

static double
dot3 (const double a[3], const double b[3])
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* A unit vector uniform on the sphere (Archimedes: z uniform in [−1, 1]). */
static void
uniform_sphere (Rng *r, double d[3])
{
  const double z = 1.0 - 2.0 * rng_uniform (r), phi = 2.0 * M_PI * rng_uniform (r);
  const double s = sqrt (fmax (0.0, 1.0 - z * z));
  d[0] = s * cos (phi);
  d[1] = s * sin (phi);
  d[2] = z;
}

/* A unit vector about the unit axis w with density cos θ / π (Lambert):
 * a point uniform on the unit disc lifted to the hemisphere (Malley). */
static void
lambert (Rng *r, const double w[3], double d[3])
{
  const double u1 = rng_uniform (r), phi = 2.0 * M_PI * rng_uniform (r);
  const double rad = sqrt (u1), x = rad * cos (phi), y = rad * sin (phi);
  const double z = sqrt (fmax (0.0, 1.0 - u1));
  /* An orthonormal basis (u, v, w) (Frisvad's, with its pole case). */
  double u[3], v[3];
  if (w[2] < -0.9999999)
    {
      u[0] = 0; u[1] = -1; u[2] = 0;
      v[0] = -1; v[1] = 0; v[2] = 0;
    }
  else
    {
      const double a = 1.0 / (1.0 + w[2]), b = -w[0] * w[1] * a;
      u[0] = 1.0 - w[0] * w[0] * a; u[1] = b; u[2] = -w[0];
      v[0] = b; v[1] = 1.0 - w[1] * w[1] * a; v[2] = -w[1];
    }
  for (int k = 0; k < 3; k++)
    d[k] = x * u[k] + y * v[k] + z * w[k];
  const double len = sqrt (dot3 (d, d));
  for (int k = 0; k < 3; k++)
    d[k] /= len;
}

/* ---------------------------------------------------------------- tracing */

typedef struct {
  uint32_t bin;
  uint32_t receiver;
  double dir[3];
  double e[RW_N_OCTAVES];     /* already × ℓ / V_a */
} Hit;

typedef struct {
  Hit *hits;
  size_t n, cap;
  size_t n_reflections, n_lost;
  bool oom;
} Chunk;

typedef struct {
  const RwGaScene *scene;
  double (*R2)[RW_N_OCTAVES][2];   /* per surface and band: Re Y, Im Y */
  const double *scattering;
  double *p_diffuse;               /* per surface */
  double src[3];
  const double (*rcv)[3];          /* the receivers */
  size_t n_rcv;
  double a, inv_va;                /* receiver radius, 1 / its volume */
  double c, bin_s, max_dist;
  size_t n_bins;
  double m[RW_N_OCTAVES];          /* air: energy attenuation per metre */
  double threshold;
  uint64_t seed;
  double e0;                       /* 4π / N */
  int exclude_order;               /* RwRaySettings.exclude_specular_order */
} Ctx;

static void
chunk_add (Chunk *ch, const Hit *h)
{
  if (ch->n == ch->cap)
    {
      size_t cap = ch->cap ? 2 * ch->cap : 64;
      Hit *g = realloc (ch->hits, cap * sizeof *g);
      if (g == NULL)
        {
          ch->oom = true;
          return;
        }
      ch->hits = g;
      ch->cap = cap;
    }
  ch->hits[ch->n++] = *h;
}

/* The segment o + t d, t in [0, len], travelled from distance d0 on with
 * band energies e (before air absorption): its chord through receiver
 * r's sphere, if any, as a hit. */
static void
detect_one (const Ctx *cx, size_t r, const double o[3], const double d[3], double len, double d0,
            const double e[RW_N_OCTAVES], Chunk *ch)
{
  const double *rcv = cx->rcv[r];
  const double v[3] = { rcv[0] - o[0], rcv[1] - o[1], rcv[2] - o[2] };
  const double tc = dot3 (v, d);
  const double q2 = dot3 (v, v) - tc * tc;   /* squared distance of the line */
  const double a2 = cx->a * cx->a;
  if (q2 >= a2)
    return;
  const double h = sqrt (a2 - q2);
  const double t0 = fmax (0.0, tc - h), t1 = fmin (len, tc + h);
  if (!(t1 > t0))
    return;
  const double tm = 0.5 * (t0 + t1), dist = d0 + tm;
  const double bin = floor (dist / cx->c / cx->bin_s);
  if (!(bin >= 0.0 && bin < (double) cx->n_bins))
    return;
  Hit hit;
  hit.bin = (uint32_t) bin;
  hit.receiver = (uint32_t) r;
  for (int k = 0; k < 3; k++)
    hit.dir[k] = -d[k];
  const double w = (t1 - t0) * cx->inv_va;
  for (int b = 0; b < RW_N_OCTAVES; b++)
    hit.e[b] = e[b] * exp (-cx->m[b] * dist) * w;
  chunk_add (ch, &hit);
}

/* The segment against every receiver: one ray serves them all. */
static void
detect (const Ctx *cx, const double o[3], const double d[3], double len, double d0,
        const double e[RW_N_OCTAVES], Chunk *ch)
{
  for (size_t r = 0; r < cx->n_rcv; r++)
    detect_one (cx, r, o, d, len, d0, e, ch);
}

static void
trace_ray (const Ctx *cx, size_t index, Chunk *ch)
{
  Rng rng = rng_for (cx->seed, index);
  double o[3] = { cx->src[0], cx->src[1], cx->src[2] }, d[3];
  uniform_sphere (&rng, d);
  double e[RW_N_OCTAVES];
  for (int b = 0; b < RW_N_OCTAVES; b++)
    e[b] = cx->e0;
  double travelled = 0.0, t_near = 0.0;
  int skips = 0;
  bool specular = true;   /* every reflection so far was specular */
  for (int refl = 0; refl < MAX_REFLECTIONS; refl++)
    {
      RwGaHit hit;
      const double far = cx->max_dist - travelled;
      const bool met = rw_ga_scene_first_hit (cx->scene, o, d, t_near, far, &hit);
      const double len = met ? hit.distance : far;
      /* The normal points away from the air: a ray from the air runs
       * along it (cos θ = d · n > 0, as rw-ism.c's). */
      const double cos_i = met ? dot3 (d, hit.normal) : 1.0;
      /* Just off a reflection near an edge, Embree's single precision
       * may put the origin a micrometre behind the neighbouring wall:
       * that wall, met from behind this close, is skipped. */
      if (!(cos_i > 0.0) && refl > 0 && len < RAY_SKIP && skips < 4)
        {
          skips++;
          t_near = len + RAY_EPS;
          refl--;
          continue;
        }
      skips = 0;
      /* refl reflections so far: a purely specular path of order ≤ the
       * excluded order is an image source's (rw-ga.h), not the rays'. */
      if (!(specular && refl <= cx->exclude_order))
        detect (cx, o, d, len, travelled, e, ch);
      if (!met)
        {
          /* No wall before the histogram's end: done, unless the room
           * is open (a wall is never farther than its diagonal, but the
           * end may be nearer). */
          if (!rw_ga_scene_first_hit (cx->scene, o, d, t_near, INFINITY, &hit))
            ch->n_lost++;
          return;
        }
      if (!(cos_i > 0.0))
        {
          ch->n_lost++;   /* a wall from behind: the ray is not in the air */
          return;
        }
      travelled += len;
      for (int k = 0; k < 3; k++)
        o[k] += len * d[k];
      /* Absorption: |R(θ)|² with the image sources' R. */
      const uint32_t s = hit.surface;
      double emax = 0.0;
      for (int b = 0; b < RW_N_OCTAVES; b++)
        {
          const double complex Y = cx->R2[s][b][0] + I * cx->R2[s][b][1];
          const double complex R = (cos_i - Y) / (cos_i + Y);
          e[b] *= creal (R) * creal (R) + cimag (R) * cimag (R);
        }
      /* Scattering: the importance-sampled split (rw-rays.h). */
      const double p = cx->p_diffuse[s];
      const double *sc = cx->scattering + (size_t) s * RW_N_OCTAVES;
      if (p > 0.0 && (p >= 1.0 || rng_uniform (&rng) < p))
        {
          const double w[3] = { -hit.normal[0], -hit.normal[1], -hit.normal[2] };
          lambert (&rng, w, d);
          specular = false;
          for (int b = 0; b < RW_N_OCTAVES; b++)
            e[b] *= sc[b] / p;
        }
      else
        {
          const double dn = dot3 (d, hit.normal);
          for (int k = 0; k < 3; k++)
            d[k] -= 2.0 * dn * hit.normal[k];
          const double l = sqrt (dot3 (d, d));
          for (int k = 0; k < 3; k++)
            d[k] /= l;
          for (int b = 0; b < RW_N_OCTAVES; b++)
            e[b] *= (1.0 - sc[b]) / (1.0 - p);
        }
      ch->n_reflections++;
      for (int b = 0; b < RW_N_OCTAVES; b++)
        emax = fmax (emax, e[b] * exp (-cx->m[b] * travelled));
      if (emax < cx->threshold * cx->e0 || travelled >= cx->max_dist)
        return;
      t_near = RAY_EPS;
    }
}

static bool
check_settings (const RwRaySettings *s, RwError *err)
{
  if (s->n_rays == 0 || s->n_rays > RW_RAYS_MAX_N)
    return rw_fail (err, RW_ERROR_INPUT, _("ray tracing: %zu rays is out of range (1 … %zu)"),
                    s->n_rays, (size_t) RW_RAYS_MAX_N);
  if (!(s->speed_of_sound > 0.0) || !isfinite (s->speed_of_sound))
    return rw_fail (err, RW_ERROR_INPUT,
                    _("ray tracing: the speed of sound must be a positive number (got %g m/s)"),
                    s->speed_of_sound);
  if (!(s->bin_s >= 1e-5 && s->bin_s <= 0.1))
    return rw_fail (err, RW_ERROR_INPUT,
                    _("ray tracing: the histogram's bin width %g s is out of range (10 µs … 0.1 s)"),
                    s->bin_s);
  if (!(s->duration_s > 0.0 && s->duration_s <= 60.0)
      || s->duration_s / s->bin_s > (double) UINT32_MAX / 2)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("ray tracing: the duration %g s is out of range (more than 0, at most 60 s)"),
                    s->duration_s);
  if (!(s->receiver_radius_m >= 0.0) || !isfinite (s->receiver_radius_m))
    return rw_fail (err, RW_ERROR_INPUT,
                    _("ray tracing: the receiver radius must be 0 (automatic) or a positive "
                      "number (got %g m)"), s->receiver_radius_m);
  if (!(s->energy_threshold > 0.0 && s->energy_threshold < 1.0))
    return rw_fail (err, RW_ERROR_INPUT,
                    _("ray tracing: the energy threshold %g is out of range (between 0 and 1)"),
                    s->energy_threshold);
  if (s->exclude_specular_order < -1 || s->exclude_specular_order > RW_RAYS_MAX_EXCLUDE_ORDER)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("ray tracing: the excluded specular order %d is out of range (−1 … %d)"),
                    s->exclude_specular_order, RW_RAYS_MAX_EXCLUDE_ORDER);
  return true;
}

bool
rw_rays_trace (const RwGaScene *scene, const RwAdmittance *surface_Y, const double *scattering,
               size_t n_surfaces, const double src[3], const double rcv[3],
               const RwRaySettings *settings, RwRayResult *out, RwError *err)
{
  if (out)
    memset (out, 0, sizeof *out);
  if (rcv == NULL)
    return rw_fail (err, RW_ERROR_INTERNAL, "rw_rays_trace: NULL argument");
  return rw_rays_trace_receivers (scene, surface_Y, scattering, n_surfaces, src,
                                  (const double (*)[3]) rcv, 1, settings, out, err);
}

bool
rw_rays_trace_receivers (const RwGaScene *scene, const RwAdmittance *surface_Y,
                         const double *scattering, size_t n_surfaces, const double src[3],
                         const double (*rcv)[3], size_t n_rcv, const RwRaySettings *settings,
                         RwRayResult *outs, RwError *err)
{
  if (outs)
    memset (outs, 0, n_rcv * sizeof *outs);
  if (scene == NULL || outs == NULL || src == NULL || rcv == NULL || n_rcv == 0)
    return rw_fail (err, RW_ERROR_INTERNAL, "rw_rays_trace: NULL argument");
  RwRaySettings def;
  if (settings == NULL)
    {
      rw_rays_settings_init (&def);
      settings = &def;
    }
  if (!check_settings (settings, err))
    return false;
  const RwMesh *m = rw_ga_scene_mesh (scene);
  if (surface_Y == NULL || n_surfaces < m->n_surfaces)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("ray tracing: the room has %zu surfaces but %zu admittances were given"),
                    m->n_surfaces, surface_Y ? n_surfaces : (size_t) 0);
  if (scattering == NULL)
    return rw_fail (err, RW_ERROR_INPUT, _("ray tracing: no scattering coefficients were given"));
  for (size_t t = 0; t < m->n_triangles; t++)
    if (m->tri_surface[t] >= n_surfaces)
      return rw_fail (err, RW_ERROR_INPUT,
                      _("ray tracing: triangle %zu belongs to surface %u, which has no admittance"),
                      t, m->tri_surface[t]);
  for (size_t s = 0; s < n_surfaces; s++)
    {
      const char *name = s < m->n_surfaces ? m->surface_names[s] : "?";
      RwError e2 = { 0 };
      if (!rw_admittance_check (&surface_Y[s], &e2))
        return rw_fail (err, RW_ERROR_INPUT, _("ray tracing: surface %s: %s"), name, e2.message);
      for (int b = 0; b < RW_N_OCTAVES; b++)
        {
          const double sc = scattering[s * RW_N_OCTAVES + b];
          if (!(sc >= 0.0 && sc <= 1.0))
            return rw_fail (err, RW_ERROR_INPUT,
                            _("ray tracing: surface %s: the scattering coefficient %g of the "
                              "%g Hz band is outside [0, 1]"), name, sc, rw_octave_centres_hz[b]);
        }
    }
  const char *room = m->path ? m->path : _("the room model");
  for (size_t k = 0; k <= n_rcv; k++)
    {
      const double *p = k == 0 ? src : rcv[k - 1];
      if (!isfinite (p[0]) || !isfinite (p[1]) || !isfinite (p[2]))
        return rw_fail (err, RW_ERROR_INPUT,
                        k == 0 ? _("%s: ray tracing: the source position is not a finite number")
                        : _("%s: ray tracing: the receiver position is not a finite number"), room);
      if (!rw_mesh_point_inside (m, p))
        return rw_fail (err, RW_ERROR_INPUT,
                        k == 0 ? _("%s: ray tracing: the source at (%.3f, %.3f, %.3f) m is "
                                   "outside the room")
                        : _("%s: ray tracing: the receiver at (%.3f, %.3f, %.3f) m is outside "
                            "the room"), room, p[0], p[1], p[2]);
    }
  for (size_t r = 0; r < n_rcv; r++)
    {
      const double sr[3] = { src[0] - rcv[r][0], src[1] - rcv[r][1], src[2] - rcv[r][2] };
      if (dot3 (sr, sr) < 1e-6)
        return rw_fail (err, RW_ERROR_INPUT,
                        _("ray tracing: the source and the receiver are at the same point "
                          "(closer than 1 mm)"));
    }
  /* The volume: the divergence theorem over the oriented triangles
   * (normals away from the air, so the room's volume is positive). */
  double vol = 0.0;
  for (size_t t = 0; t < m->n_triangles; t++)
    {
      double n[3];
      if (!rw_ga_scene_triangle_normal (scene, (uint32_t) t, n))
        continue;
      const double *p[3];
      for (int q = 0; q < 3; q++)
        p[q] = m->xyz + 3 * (size_t) m->tri[3 * t + q];
      double ab[3], ac[3], c[3];
      for (int k = 0; k < 3; k++)
        {
          ab[k] = p[1][k] - p[0][k];
          ac[k] = p[2][k] - p[0][k];
        }
      rw_cross3 (ab, ac, c);
      const double area2 = sqrt (dot3 (c, c));
      vol += dot3 (p[0], n) * area2 / 6.0;
    }
  if (!(vol > 0.0))
    return rw_fail (err, RW_ERROR_INPUT,
                    _("%s: ray tracing: the room encloses no volume (%g m³)"), room, vol);

  Ctx cx = { 0 };
  cx.scene = scene;
  memcpy (cx.src, src, sizeof cx.src);
  cx.rcv = rcv;
  cx.n_rcv = n_rcv;
  cx.c = settings->speed_of_sound;
  cx.bin_s = settings->bin_s;
  cx.n_bins = (size_t) ceil (settings->duration_s / settings->bin_s - 1e-9);
  cx.max_dist = (double) cx.n_bins * cx.bin_s * cx.c;
  cx.threshold = settings->energy_threshold;
  cx.seed = settings->seed;
  cx.e0 = 4.0 * M_PI / (double) settings->n_rays;
  cx.exclude_order = settings->exclude_specular_order;
  cx.scattering = scattering;
  cx.a = settings->receiver_radius_m;
  if (cx.a == 0.0)
    cx.a = fmin (RW_RAYS_MAX_RADIUS_M,
                 fmax (RW_RAYS_MIN_RADIUS_M,
                       sqrt (RW_RAYS_RADIUS_HITS * vol
                             / (M_PI * (double) settings->n_rays * cx.c * cx.bin_s))));
  cx.inv_va = 1.0 / (4.0 / 3.0 * M_PI * cx.a * cx.a * cx.a);
  if (settings->air_absorption)
    {
      RwAirBands air;
      if (!rw_air_bands (settings->temperature_c, settings->humidity_pct, RW_AIR_PRESSURE_KPA,
                         48000.0, &air, err))
        return false;
      for (int b = 0; b < RW_N_OCTAVES; b++)
        cx.m[b] = air.alpha_db_per_m[b] * M_LN10 / 10.0;
    }

  const size_t n_chunks = (settings->n_rays + CHUNK - 1) / CHUNK;
  cx.R2 = malloc (n_surfaces * sizeof *cx.R2);
  cx.p_diffuse = malloc (n_surfaces * sizeof *cx.p_diffuse);
  Chunk *chunks = calloc (n_chunks, sizeof *chunks);
  bool ok = false, got = cx.R2 != NULL && cx.p_diffuse != NULL && chunks != NULL;
  for (size_t r = 0; got && r < n_rcv; r++)
    {
      outs[r].energy = calloc ((size_t) RW_N_OCTAVES * cx.n_bins, sizeof *outs[r].energy);
      outs[r].direction = calloc ((size_t) RW_N_OCTAVES * cx.n_bins * 3, sizeof *outs[r].direction);
      got = outs[r].energy != NULL && outs[r].direction != NULL;
    }
  if (!got)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("out of memory tracing rays"));
      goto done;
    }
  for (size_t s = 0; s < n_surfaces; s++)
    {
      double p = 0.0;
      for (int b = 0; b < RW_N_OCTAVES; b++)
        {
          const double complex Y = rw_admittance_eval (&surface_Y[s], rw_octave_centres_hz[b]);
          cx.R2[s][b][0] = creal (Y);
          cx.R2[s][b][1] = cimag (Y);
          p += scattering[s * RW_N_OCTAVES + b];
        }
      cx.p_diffuse[s] = p / RW_N_OCTAVES;
    }

  const int threads = settings->threads > 0 ? settings->threads : omp_get_max_threads ();
  /* Progress and cancel (rw-ga-progress.h): checked before every ray, not
   * only every chunk: a chunk of long rays in a reverberant hall may take
   * seconds. A cancelled chunk keeps what it has (freed below). */
  RwGaProgress prog;
  rw_ga_progress_init (&prog, settings->progress, settings->progress_data, settings->cancel,
                       settings->n_rays);
#pragma omp parallel for schedule (dynamic, 1) num_threads (threads)
  for (size_t k = 0; k < n_chunks; k++)
    {
      const size_t end = (k + 1) * CHUNK < settings->n_rays ? (k + 1) * CHUNK : settings->n_rays;
      /* A local copy: neighbouring chunks share cache lines, and their
       * counters change at every reflection (false sharing). */
      Chunk local = { 0 };
      for (size_t i = k * CHUNK; i < end && !rw_ga_progress_stopped (&prog); i++)
        {
          trace_ray (&cx, i, &local);
          rw_ga_progress_add (&prog, 1);
        }
      chunks[k] = local;
    }
  if (rw_ga_progress_cancelled (&prog, err))
    goto done;
  /* The ordered sum: chunk by chunk, each in ray order. */
  for (size_t k = 0; k < n_chunks; k++)
    {
      if (chunks[k].oom)
        {
          rw_fail (err, RW_ERROR_MEMORY, _("out of memory tracing rays"));
          goto done;
        }
      for (size_t j = 0; j < chunks[k].n; j++)
        {
          const Hit *h = &chunks[k].hits[j];
          RwRayResult *out = &outs[h->receiver];
          for (int b = 0; b < RW_N_OCTAVES; b++)
            {
              const size_t i = (size_t) b * cx.n_bins + h->bin;
              out->energy[i] += h->e[b];
              for (int q = 0; q < 3; q++)
                out->direction[3 * i + q] += h->e[b] * h->dir[q];
            }
          out->n_receiver_hits++;
        }
      for (size_t r = 0; r < n_rcv; r++)
        {
          outs[r].n_reflections += chunks[k].n_reflections;
          outs[r].n_lost += chunks[k].n_lost;
        }
    }
  for (size_t r = 0; r < n_rcv; r++)
    {
      outs[r].n_bins = cx.n_bins;
      outs[r].bin_s = cx.bin_s;
      outs[r].receiver_radius_m = cx.a;
      outs[r].volume_m3 = vol;
      outs[r].speed_of_sound = cx.c;
    }
  /* The last report (fraction 1) once the result is complete; answered
   * false, it cancels as any other. */
  ok = rw_ga_progress_finish (&prog, err);

done:
  if (chunks)
    for (size_t k = 0; k < n_chunks; k++)
      free (chunks[k].hits);
  free (chunks);
  free (cx.R2);
  free (cx.p_diffuse);
  if (!ok)
    for (size_t r = 0; r < n_rcv; r++)
      rw_rays_result_clear (&outs[r]);
  return ok;
}

/* ---------------------------------------------------------------- synthesis */

/* A Poisson count of mean lambda (Knuth's product of uniforms for small
 * means, a rounded normal approximation above 500, where it is within
 * the pulse train's own randomness). */
static size_t
poisson (Rng *r, double lambda)
{
  if (lambda > 500.0)
    {
      const double u1 = fmax (rng_uniform (r), 1e-300), u2 = rng_uniform (r);
      const double g = sqrt (-2.0 * log (u1)) * cos (2.0 * M_PI * u2);
      const double k = floor (lambda + sqrt (lambda) * g + 0.5);
      return k > 0.0 ? (size_t) k : 0;
    }
  const double L = exp (-lambda);
  size_t k = 0;
  double p = rng_uniform (r);
  while (p > L)
    {
      k++;
      p *= rng_uniform (r);
    }
  return k;
}

/* One pulse of the train: its sample, histogram bin and sign. */
typedef struct {
  size_t sample, bin;
  double sign;
} Pulse;

/* The synthesis of rw_rays_synthesise (n_ch 1, fn NULL: every pulse of
 * gain 1, bands and out = ir as there) and rw_rays_synthesise_channels
 * (fn gives each pulse n_ch gains per band; bands NULL; out n_ch × n,
 * Σ_b band_scale[b] × band b). One code path, so that a channel whose
 * gains are all exactly 1 is rw_rays_synthesise's ir bit for bit. */
static bool
synthesise (const RwRayResult *hist, double fs_hz, size_t n_samples, double max_density,
            uint64_t seed, int n_ch, RwRayPulseFn fn, RwRayRenderFn render, void *data,
            const double band_scale[RW_N_OCTAVES], double *bands, double *out,
            double dropped[RW_N_OCTAVES], RwError *err)
{
  if (hist == NULL || hist->energy == NULL || hist->n_bins == 0 || !(hist->volume_m3 > 0.0)
      || !(hist->speed_of_sound > 0.0) || !(hist->bin_s > 0.0))
    return rw_fail (err, RW_ERROR_INPUT, _("ray tracing: no histogram to synthesise from"));
  if (!(fs_hz >= 1000.0) || !isfinite (fs_hz))
    return rw_fail (err, RW_ERROR_INPUT,
                    _("ray tracing: the sample rate must be at least 1 kHz (got %g Hz)"), fs_hz);
  if (n_samples == 0 || (bands == NULL && out == NULL))
    return rw_fail (err, RW_ERROR_INPUT, _("ray tracing: no samples to synthesise into"));
  if (!(max_density > 0.0) || !isfinite (max_density))
    return rw_fail (err, RW_ERROR_INPUT,
                    _("ray tracing: the pulse density must be a positive number (got %g /s)"),
                    max_density);
  const size_t n = n_samples, nch = (size_t) n_ch;
  const size_t N = rw_air_split_size (n, fs_hz);
  if (N == 0 || nch > SIZE_MAX / n)
    return rw_fail (err, RW_ERROR_MEMORY, _("ray tracing: out of memory for %zu samples"), n);
  const size_t nb = N / 2 + 1;
  double *pulses = calloc (n, sizeof *pulses);
  size_t *bin_of = malloc (n * sizeof *bin_of);
  double *x = fftw_malloc (N * sizeof *x);
  fftw_complex *X = fftw_malloc (nb * sizeof *X);
  double *acc = out ? calloc (nch * n, sizeof *acc) : NULL;
  double *unit = calloc (hist->n_bins, sizeof *unit);
  Pulse *list = NULL;
  double *gains = NULL, (*u)[2] = NULL, *trains = NULL;
  RwRayPulse *rendered = NULL;
  double **train_of = NULL;
  const bool listed = fn != NULL || render != NULL;
  size_t n_list = 0, cap = 0;
  fftw_plan fwd = NULL, inv = NULL;
  bool ok = false;
  RwAirBands air;
  if (!rw_air_bands (RW_DEFAULT_TEMPERATURE_C, RW_AIR_DEFAULT_HUMIDITY_PCT, RW_AIR_PRESSURE_KPA,
                     fs_hz, &air, err))
    goto out;
  if (pulses == NULL || bin_of == NULL || x == NULL || X == NULL || unit == NULL
      || (out && acc == NULL))
    goto oom;
  if (!rw_fftw_plan_pair ((int) N, x, X, X, x, &fwd, &inv))
    {
      rw_fail (err, RW_ERROR_MEMORY, _("ray tracing: no FFT plan for %zu samples"), N);
      goto out;
    }

  /* The pulse train: per bin a Poisson count of mean ∫ μ dt, where
   * ∫ 4π c³ t² / V dt = 4π c³ t³ / (3V), each at a uniform time in the
   * bin, of random sign; bins beyond the histogram stay silent. */
  const double c = hist->speed_of_sound, V = hist->volume_m3, dt = hist->bin_s;
  const double k3 = 4.0 * M_PI * c * c * c / (3.0 * V);
  for (size_t i = 0; i < n; i++)
    bin_of[i] = (size_t) floor ((double) i / fs_hz / dt);
  for (size_t j = 0; j < hist->n_bins; j++)
    {
      const double ta = (double) j * dt, tb = ta + dt;
      double mean = k3 * (tb * tb * tb - ta * ta * ta);
      /* the cap: μ ≤ max_density over the whole bin */
      mean = fmin (mean, max_density * dt);
      Rng r = rng_for (seed, j);
      const size_t count = poisson (&r, mean);
      for (size_t q = 0; q < count; q++)
        {
          const double t = ta + dt * rng_uniform (&r);
          const double sign = rng_uniform (&r) < 0.5 ? -1.0 : 1.0;
          const size_t i = (size_t) floor (t * fs_hz);
          if (i >= n)
            continue;
          pulses[i] += sign;
          if (!listed)
            continue;
          if (n_list == cap)
            {
              cap = cap ? 2 * cap : 1024;
              Pulse *grown = realloc (list, cap * sizeof *list);
              if (grown == NULL)
                goto oom;
              list = grown;
            }
          list[n_list++] = (Pulse) { i, j, sign };
        }
    }
  if (listed)
    {
      /* The pulses' own random numbers, for the caller's draws: a
       * stream of their own, so that the train is rw_rays_synthesise's. */
      gains = fn ? malloc ((n_list ? n_list : 1) * nch * sizeof *gains) : NULL;
      u = malloc ((n_list ? n_list : 1) * sizeof *u);
      if ((fn && gains == NULL) || u == NULL)
        goto oom;
      if (render)
        {
          rendered = malloc ((n_list ? n_list : 1) * sizeof *rendered);
          trains = malloc (nch * n * sizeof *trains);
          train_of = malloc (nch * sizeof *train_of);
          if (rendered == NULL || trains == NULL || train_of == NULL)
            goto oom;
          for (size_t ch = 0; ch < nch; ch++)
            train_of[ch] = trains + ch * n;
        }
      for (size_t q = 0; q < n_list; q++)
        {
          Rng r = rng_for (seed ^ 0x5bd1e9955bd1e995ULL, q);
          u[q][0] = rng_uniform (&r);
          u[q][1] = rng_uniform (&r);
        }
    }
  /* Energy of the unit train per bin. */
  for (size_t i = 0; i < n; i++)
    if (bin_of[i] < hist->n_bins)
      unit[bin_of[i]] += pulses[i] * pulses[i];

  for (int b = 0; b < RW_N_OCTAVES; b++)
    {
      const double *E = hist->energy + (size_t) b * hist->n_bins;
      double total = 0.0, lost = 0.0;
      for (size_t j = 0; j < hist->n_bins; j++)
        {
          total += E[j];
          if (unit[j] == 0.0)
            lost += E[j];
        }
      if (dropped)
        dropped[b] = total > 0.0 ? lost / total : 0.0;
      for (size_t q = 0; fn != NULL && q < n_list; q++)
        fn (list[q].bin, b, u[q], gains + q * nch, data);
      if (render != NULL)
        {
          /* each pulse with its bin's normalisation, then the caller's
           * rendering of it into the trains */
          for (size_t q = 0; q < n_list; q++)
            {
              const size_t j = bin_of[list[q].sample];
              rendered[q] = (RwRayPulse) {
                list[q].sample, list[q].bin,
                j < hist->n_bins && unit[j] > 0.0 ? list[q].sign * sqrt (E[j] / unit[j]) : 0.0,
                { u[q][0], u[q][1] } };
            }
          memset (trains, 0, nch * n * sizeof *trains);
          if (!render (b, rendered, n_list, train_of, n, data, err))
            goto out;
        }
      const double bs = band_scale ? band_scale[b] : 1.0;
      for (size_t ch = 0; ch < nch; ch++)
        {
          /* The channel's train: the pulses' signs times their gains,
           * summed in the order drawn (so gains of exactly 1 give
           * pulses[] itself); or the rendered train, normalised there. */
          const double *train = pulses;
          if (fn != NULL)
            {
              memset (x, 0, n * sizeof *x);
              for (size_t q = 0; q < n_list; q++)
                x[list[q].sample] += list[q].sign * gains[q * nch + ch];
              train = x;
            }
          for (size_t i = 0; render != NULL && i < N; i++)
            x[i] = i < n ? train_of[ch][i] : 0.0;
          for (size_t i = 0; render == NULL && i < N; i++)
            {
              const size_t j = i < n ? bin_of[i] : SIZE_MAX;
              x[i] = j < hist->n_bins && unit[j] > 0.0 ? train[i] * sqrt (E[j] / unit[j]) : 0.0;
            }
          fftw_execute (fwd);
          /* Band b's weight; the 8 kHz band takes everything above its
           * lower edge. The filter's energy gain g = Σ|W|²/N over the
           * whole (two-sided) spectrum: a white train keeps g of its
           * energy. */
          const double g = rw_air_band_filter (&air, (size_t) b, RW_N_OCTAVES, (double (*)[2]) X, N,
                                               fs_hz);
          fftw_execute (inv);
          const double scale = g > 0.0 ? 1.0 / sqrt (g) : 0.0;
          double *a = acc ? acc + ch * n : NULL;
          for (size_t i = 0; i < n; i++)
            {
              const double y = x[i] * scale;
              if (bands)
                bands[(size_t) b * n + i] = y;
              if (a)
                a[i] += bs * y;
            }
        }
    }
  if (out)
    memcpy (out, acc, nch * n * sizeof *out);
  ok = true;
  goto out;

oom:
  rw_fail (err, RW_ERROR_MEMORY, _("ray tracing: out of memory for %zu samples"), n);
out:
  rw_fftw_destroy_pair (fwd, inv);
  fftw_free (x);
  fftw_free (X);
  free (pulses);
  free (bin_of);
  free (acc);
  free (unit);
  free (list);
  free (gains);
  free (u);
  free (rendered);
  free (trains);
  free (train_of);
  return ok;
}

bool
rw_rays_synthesise (const RwRayResult *hist, double fs_hz, size_t n_samples, double max_density,
                    uint64_t seed, double *bands, double *ir, double dropped[RW_N_OCTAVES],
                    RwError *err)
{
  return synthesise (hist, fs_hz, n_samples, max_density, seed, 1, NULL, NULL, NULL, NULL, bands,
                     ir, dropped, err);
}

bool
rw_rays_synthesise_channels (const RwRayResult *hist, double fs_hz, size_t n_samples,
                             double max_density, uint64_t seed, int n_channels, RwRayPulseFn fn,
                             void *data, const double band_scale[RW_N_OCTAVES], double *out,
                             double dropped[RW_N_OCTAVES], RwError *err)
{
  if (n_channels < 1 || fn == NULL || out == NULL)
    return rw_fail (err, RW_ERROR_INTERNAL, "rw_rays_synthesise_channels: bad argument");
  return synthesise (hist, fs_hz, n_samples, max_density, seed, n_channels, fn, NULL, data,
                     band_scale, NULL, out, dropped, err);
}

bool
rw_rays_synthesise_render (const RwRayResult *hist, double fs_hz, size_t n_samples,
                           double max_density, uint64_t seed, int n_channels, RwRayRenderFn render,
                           void *data, const double band_scale[RW_N_OCTAVES], double *out,
                           double dropped[RW_N_OCTAVES], RwError *err)
{
  if (n_channels < 1 || render == NULL || out == NULL)
    return rw_fail (err, RW_ERROR_INTERNAL, "rw_rays_synthesise_render: bad argument");
  return synthesise (hist, fs_hz, n_samples, max_density, seed, n_channels, NULL, render, data,
                     band_scale, NULL, out, dropped, err);
}
