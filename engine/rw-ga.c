/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-ga.c — the geometrical IR: image sources + rays without double
 * counting (see rw-ga.h). */
#include "rw-ga.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rw-air.h"
#include "rw-ambisonics.h"
#include "rw-clock.h"
#include "rw-ga-progress.h"
#include "rw-i18n.h"
#include "rw-physics.h"

void
rw_ga_settings_init (RwGaSettings *s)
{
  RwRaySettings r;
  rw_rays_settings_init (&r);
  s->n_rays = r.n_rays;
  s->seed = r.seed;
  s->ism_order = RW_ISM_DEFAULT_ORDER;
  s->duration_s = r.duration_s;
  s->speed_of_sound = r.speed_of_sound;
  s->air_absorption = r.air_absorption;
  s->temperature_c = r.temperature_c;
  s->humidity_pct = r.humidity_pct;
  s->receiver_radius_m = r.receiver_radius_m;
  s->threads = r.threads;
  s->progress = NULL;
  s->progress_data = NULL;
  s->cancel = NULL;
}

void
rw_ga_result_clear (RwGaResult *r)
{
  if (r == NULL)
    return;
  free (r->ir);
  free (r->bands);
  rw_ism_result_clear (&r->ism);
  rw_rays_result_clear (&r->rays);
  memset (r, 0, sizeof *r);
}

/* The image sources' gains: × √(1 − s_b) per reflection (the specular
 * share; the scattered one is the rays') and × exp(−m_b d / 2) (air, as
 * the rays' energy × exp(−m_b d)). */
static void
weight_arrivals (RwIsmResult *ism, const double *scattering, const double m[RW_N_OCTAVES])
{
  for (size_t i = 0; i < ism->n_arrivals; i++)
    {
      RwIsmArrival *a = &ism->arrivals[i];
      for (int b = 0; b < RW_N_OCTAVES; b++)
        {
          double w = exp (-0.5 * m[b] * a->distance_m);
          for (int j = 0; j < a->order; j++)
            w *= sqrt (1.0 - scattering[(size_t) a->surfaces[j] * RW_N_OCTAVES + b]);
          a->gain[b] *= w;
        }
    }
}

/* The whole run's progress from its parts' (rw-ga.h): n_rays + n_rcv
 * units, the rays (all receivers at once) then each receiver's image
 * sources as one. A part's own last report (fraction 1 of the part) is
 * not passed on: the whole's comes after the last synthesis, and the next
 * part's first report follows 0.1 s later. */
typedef struct {
  RwProgressFn fn;
  void *data;
  size_t n_rays, n_rcv, receiver;
  double t_start;
} GaProgress;

static bool
ga_report (GaProgress *g, size_t step, double fraction)
{
  const double elapsed = rw_clock_s () - g->t_start;
  RwProgress pr = {
    .fraction = fraction,
    .mvox_per_s = 0.0,
    .seconds_left = fraction > 0.0 ? elapsed * (1.0 - fraction) / fraction : 0.0,
    .step = step,
    .n_steps = g->n_rays + g->n_rcv,
    .solver = NULL,
    .part = RW_PROGRESS_GEOMETRICAL,
  };
  return g->fn (&pr, g->data);
}

static bool
on_rays_progress (const RwProgress *p, void *data)
{
  GaProgress *g = data;
  if (p->step >= p->n_steps)
    return true;
  return ga_report (g, p->step, (double) p->step / (double) (g->n_rays + g->n_rcv));
}

static bool
on_ism_progress (const RwProgress *p, void *data)
{
  GaProgress *g = data;
  if (p->step >= p->n_steps)
    return true;
  const double done = (double) (g->n_rays + g->receiver) + p->fraction;
  return ga_report (g, g->n_rays + g->receiver, done / (double) (g->n_rays + g->n_rcv));
}

/* The synthesis' seed of receiver r: the settings' for the first (so one
 * receiver's run is rw_ga_compute's of old), a different stream for each
 * other, so that receivers' late parts are not the same pulse train. */
uint64_t
rw_ga_receiver_seed (uint64_t seed, size_t r)
{
  return seed ^ ((uint64_t) r * 0x9E3779B97F4A7C15ull);
}

/* Receiver r's image sources, their rendering and the late IR from its
 * histograms (already in out->rays). */
static bool
one_receiver (const RwGaScene *scene, const RwAdmittance *surface_Y, const double *scattering,
              size_t n_surfaces, const double src[3], const double rcv[3], size_t r,
              const RwGaSettings *settings, GaProgress *gp, RwGaResult *out, RwError *err)
{
  RwIsmSettings is;
  rw_ism_settings_init (&is);
  is.max_order = settings->ism_order;
  is.speed_of_sound = settings->speed_of_sound;
  is.threads = settings->threads;
  is.progress = settings->progress ? on_ism_progress : NULL;
  is.progress_data = gp;
  is.cancel = settings->cancel;
  gp->receiver = r;
  double m[RW_N_OCTAVES] = { 0 };
  const double fs = RW_GA_RATE_HZ;
  const size_t n = (size_t) ceil (settings->duration_s * fs - 1e-9);
  if (!rw_ism_compute (scene, surface_Y, n_surfaces, src, rcv, &is, &out->ism, err))
    return false;
  if (settings->air_absorption)
    {
      /* The rays' coefficients (rw-rays.c): the same call, the same m. */
      RwAirBands air;
      if (!rw_air_bands (settings->temperature_c, settings->humidity_pct, RW_AIR_PRESSURE_KPA,
                         fs, &air, err))
        return false;
      for (int b = 0; b < RW_N_OCTAVES; b++)
        m[b] = air.alpha_db_per_m[b] * M_LN10 / 10.0;
    }
  weight_arrivals (&out->ism, scattering, m);
  /* The synthesis below reads no flag (seconds at most, for a minute of
   * IR): one check before it. */
  if (rw_ga_cancel_requested (settings->cancel, err))
    return false;

  out->n_samples = n;
  out->fs_hz = fs;
  out->bands = malloc ((size_t) RW_N_OCTAVES * n * sizeof *out->bands);
  out->ir = calloc (n, sizeof *out->ir);
  double *late = malloc ((size_t) RW_N_OCTAVES * n * sizeof *late);
  if (out->bands == NULL || out->ir == NULL || late == NULL)
    {
      free (late);
      return rw_fail (err, RW_ERROR_MEMORY, _("geometrical IR: out of memory for %zu samples"), n);
    }
  bool ok = rw_ism_render (out->ism.arrivals, out->ism.n_arrivals, fs, n, out->bands, err)
    && rw_air_split_bands (out->bands, n, fs, out->band_gain, err)
    && rw_rays_synthesise (&out->rays, fs, n, RW_RAYS_DEFAULT_MAX_DENSITY,
                           rw_ga_receiver_seed (settings->seed, r), late, NULL, out->dropped, err);
  if (ok)
    for (int b = 0; b < RW_N_OCTAVES; b++)
      {
        /* the synthesis' band has the histogram's energy; a physical
         * band g_b of it (rw-ga.h) */
        const double s = sqrt (out->band_gain[b]);
        double *y = out->bands + (size_t) b * n;
        const double *l = late + (size_t) b * n;
        for (size_t i = 0; i < n; i++)
          {
            y[i] += s * l[i];
            out->ir[i] += y[i];
          }
      }
  free (late);
  return ok;
}

bool
rw_ga_compute (const RwGaScene *scene, const RwAdmittance *surface_Y, const double *scattering,
               size_t n_surfaces, const double src[3], const double rcv[3],
               const RwGaSettings *settings, RwGaResult *out, RwError *err)
{
  if (out)
    memset (out, 0, sizeof *out);
  if (rcv == NULL)
    return rw_fail (err, RW_ERROR_INTERNAL, "rw_ga_compute: NULL argument");
  return rw_ga_compute_receivers (scene, surface_Y, scattering, n_surfaces, src,
                                  (const double (*)[3]) rcv, 1, settings, out, err);
}

bool
rw_ga_compute_receivers (const RwGaScene *scene, const RwAdmittance *surface_Y,
                         const double *scattering, size_t n_surfaces, const double src[3],
                         const double (*rcv)[3], size_t n_rcv, const RwGaSettings *settings,
                         RwGaResult *outs, RwError *err)
{
  if (outs)
    memset (outs, 0, n_rcv * sizeof *outs);
  if (scene == NULL || outs == NULL || src == NULL || rcv == NULL || n_rcv == 0)
    return rw_fail (err, RW_ERROR_INTERNAL, "rw_ga_compute: NULL argument");
  RwGaSettings def;
  if (settings == NULL)
    {
      rw_ga_settings_init (&def);
      settings = &def;
    }
  /* The ray tracer checks the rest; the order first, before the rays'
   * time is spent. */
  if (settings->ism_order < 0 || settings->ism_order > RW_ISM_MAX_ORDER)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("geometrical IR: the image-source order %d is out of range (0 … %d)"),
                    settings->ism_order, RW_ISM_MAX_ORDER);
  GaProgress gp = { settings->progress, settings->progress_data, settings->n_rays, n_rcv, 0,
                    rw_clock_s () };
  RwRaySettings rs;
  rw_rays_settings_init (&rs);
  rs.n_rays = settings->n_rays;
  rs.seed = settings->seed;
  rs.speed_of_sound = settings->speed_of_sound;
  rs.duration_s = settings->duration_s;
  rs.air_absorption = settings->air_absorption;
  rs.temperature_c = settings->temperature_c;
  rs.humidity_pct = settings->humidity_pct;
  rs.receiver_radius_m = settings->receiver_radius_m;
  rs.threads = settings->threads;
  rs.exclude_specular_order = settings->ism_order;
  rs.progress = settings->progress ? on_rays_progress : NULL;
  rs.progress_data = &gp;
  rs.cancel = settings->cancel;
  RwRayResult *rays = calloc (n_rcv, sizeof *rays);
  if (rays == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("out of memory tracing rays"));
  bool ok = rw_rays_trace_receivers (scene, surface_Y, scattering, n_surfaces, src, rcv, n_rcv,
                                     &rs, rays, err);
  for (size_t r = 0; ok && r < n_rcv; r++)
    {
      outs[r].rays = rays[r];
      memset (&rays[r], 0, sizeof rays[r]);
    }
  free (rays);
  for (size_t r = 0; ok && r < n_rcv; r++)
    ok = one_receiver (scene, surface_Y, scattering, n_surfaces, src, rcv[r], r, settings, &gp,
                       &outs[r], err);
  /* The last report (fraction 1); answered false, it cancels too. */
  if (ok && settings->progress != NULL && !ga_report (&gp, gp.n_rays + gp.n_rcv, 1.0))
    ok = rw_fail (err, RW_ERROR_CANCELLED, _("Simulation cancelled"));
  if (!ok)
    for (size_t r = 0; r < n_rcv; r++)
      rw_ga_result_clear (&outs[r]);
  return ok;
}

bool
rw_ga_ambisonic (const RwGaResult *r, int order, double yaw_deg, double pitch_deg, uint64_t seed,
                 double *out, RwError *err)
{
  if (r == NULL || out == NULL || r->ir == NULL || r->rays.energy == NULL || r->n_samples == 0)
    return rw_fail (err, RW_ERROR_INPUT, _("ambisonic IR: no geometrical IR to encode"));
  if (order < 1 || order > RW_AMBI_MAX_ORDER)
    return rw_fail (err, RW_ERROR_INPUT, _("ambisonic IR: order %d is out of range (1 … %d)"), order,
                    RW_AMBI_MAX_ORDER);
  const size_t n = r->n_samples, nch = (size_t) (order + 1) * (size_t) (order + 1);
  double *bands = malloc (nch * RW_N_OCTAVES * n * sizeof *bands);
  double *late = malloc (nch * n * sizeof *late);
  bool ok = bands != NULL && late != NULL;
  if (!ok)
    rw_fail (err, RW_ERROR_MEMORY, _("geometrical IR: out of memory for %zu samples"), n);
  /* the image sources: each channel's bands split as the omni IR's */
  ok = ok && rw_ambi_encode_arrivals (r->ism.arrivals, r->ism.n_arrivals, order, yaw_deg, pitch_deg,
                                      r->fs_hz, n, bands, err);
  double scale[RW_N_OCTAVES];
  for (size_t c = 0; ok && c < nch; c++)
    ok = rw_air_split_bands (bands + c * RW_N_OCTAVES * n, n, r->fs_hz, NULL, err);
  /* the late part with the omni IR's calibration: band b × √g_b */
  for (int b = 0; b < RW_N_OCTAVES; b++)
    scale[b] = sqrt (r->band_gain[b]);
  ok = ok && rw_ambi_encode_late (&r->rays, order, yaw_deg, pitch_deg, r->fs_hz, n,
                                  RW_RAYS_DEFAULT_MAX_DENSITY, seed, scale, late, NULL, err);
  for (size_t c = 0; ok && c < nch; c++)
    for (size_t i = 0; i < n; i++)
      {
        double y = late[c * n + i];
        for (int b = 0; b < RW_N_OCTAVES; b++)
          y += bands[(c * RW_N_OCTAVES + (size_t) b) * n + i];
        out[c * n + i] = y;
      }
  free (bands);
  free (late);
  return ok;
}

/* The late part's pulses through the HRIRs of their directions
 * (rw_ga_binaural): in each band a pulse gets its direction from its own
 * random numbers (rw_ambi_late_direction, as the ambisonic IR's pulses)
 * and adds that direction's pair of responses, times its amplitude,
 * starting at its sample less the set's reference delay (plus the ear's
 * Data.Delay), so that a frontal pulse's ear signals start at its time. */
typedef struct {
  const RwHrtf *h;
  const RwAmbiLateDirs *dirs;
  size_t taps;
  double fs, ref_delay_s;
} LateBinaural;

/* The output is cut into segments rendered in parallel, each by one
 * thread that adds, in the pulses' order, every pulse reaching into it:
 * each sample gets the same additions in the same order as a serial
 * loop's, whatever the thread count (a pulse that spans two segments has
 * its responses computed twice). */
#define LATE_SEGMENT 4096

static bool
late_binaural (int band, const RwRayPulse *pulses, size_t n_pulses, double *const *train,
               size_t n_samples, void *data, RwError *err)
{
  const LateBinaural *lb = data;
  const size_t n_seg = (n_samples + LATE_SEGMENT - 1) / LATE_SEGMENT;
  /* the earliest and latest start of a pulse's responses (Data.Delay ≥ 0,
   * at most the responses' length: rw-hrtf.h) */
  const long early = -(long) ceil (lb->ref_delay_s * lb->fs) - 1;
  const long late = (long) lb->taps + 1;
  int failed = 0;
  RwError first = { 0 };
#pragma omp parallel
  {
    float *resp = malloc (2 * (lb->taps ? lb->taps : 1) * sizeof *resp);
#pragma omp for schedule(dynamic)
    for (size_t sg = 0; sg < n_seg; sg++)
      {
        const long lo = (long) (sg * LATE_SEGMENT);
        const long hi = lo + LATE_SEGMENT < (long) n_samples ? lo + LATE_SEGMENT : (long) n_samples;
        for (size_t q = 0; q < n_pulses && resp != NULL; q++)
          {
            const double a = pulses[q].amplitude;
            const long s0 = (long) pulses[q].sample;
            if (a == 0.0 || s0 + late + (long) lb->taps < lo || s0 + early >= hi)
              continue;
            double d[3], delay[2];
            RwError e = { 0 };
            rw_ambi_late_direction (lb->dirs, pulses[q].bin, band, pulses[q].u, d);
            if (!rw_hrtf_get (lb->h, d, resp, resp + lb->taps, &delay[0], &delay[1], &e))
              {
#pragma omp critical (rw_ga_late_binaural)
                {
                  if (!failed)
                    first = e;
                  failed = 1;
                }
                break;
              }
            for (int ear = 0; ear < 2; ear++)
              {
                const long start
                  = lround ((double) s0 + (delay[ear] - lb->ref_delay_s) * lb->fs);
                const float *h = resp + (size_t) ear * lb->taps;
                const long k0 = lo - start > 0 ? lo - start : 0;
                const long k1 = hi - start < (long) lb->taps ? hi - start : (long) lb->taps;
                for (long k = k0; k < k1; k++)
                  train[ear][start + k] += a * h[k];
              }
          }
      }
    if (resp == NULL)
#pragma omp critical (rw_ga_late_binaural)
      failed = failed ? failed : 2;
    free (resp);
  }
  if (failed == 2)
    return rw_fail (err, RW_ERROR_MEMORY, _("geometrical IR: out of memory for %zu samples"),
                    n_samples);
  if (failed)
    return rw_fail (err, first.code, "%s", first.message);
  return true;
}

bool
rw_ga_binaural (const RwGaResult *r, const RwHrtf *h, double yaw_deg, double pitch_deg,
                uint64_t seed, double *left, double *right, RwError *err)
{
  if (r == NULL || left == NULL || right == NULL || r->ir == NULL || r->rays.energy == NULL
      || r->n_samples == 0)
    return rw_fail (err, RW_ERROR_INPUT, _("binaural IR: no geometrical IR to render"));
  if (h == NULL || rw_hrtf_rate (h) != r->fs_hz)
    return rw_fail (err, RW_ERROR_INPUT, _("binaural IR: the HRTF set is not at the IR's rate (%g Hz)"),
                    r->fs_hz);
  const size_t n = r->n_samples, na = r->ism.n_arrivals, taps = rw_hrtf_length (h);
  RwHrtfArrival *arr = malloc ((na ? na : 1) * sizeof *arr);
  double *late = malloc (2 * n * sizeof *late);
  RwAmbiLateDirs dirs = { 0 };
  bool ok = arr != NULL && late != NULL;
  if (!ok)
    rw_fail (err, RW_ERROR_MEMORY, _("geometrical IR: out of memory for %zu samples"), n);
  /* the image sources: each through the HRIR of its direction in the
   * head's frame, band by band where its gains differ (rw-hrtf.h) */
  for (size_t i = 0; ok && i < na; i++)
    {
      const RwIsmArrival *a = &r->ism.arrivals[i];
      arr[i].time_s = a->delay_s;
      for (int b = 0; b < RW_N_OCTAVES; b++)
        arr[i].gain[b] = rw_ism_real_gain (a->gain[b]);
      rw_ambi_room_to_head (yaw_deg, pitch_deg, a->direction, arr[i].direction);
    }
  ok = ok && rw_hrtf_render_arrivals (h, arr, na, n, left, right, err);
  /* the late part with the omni IR's calibration: band b × √g_b */
  double scale[RW_N_OCTAVES];
  for (int b = 0; b < RW_N_OCTAVES; b++)
    scale[b] = sqrt (r->band_gain[b]);
  ok = ok && rw_ambi_late_dirs_init (&dirs, &r->rays, yaw_deg, pitch_deg, err);
  if (ok)
    {
      LateBinaural lb = { h, &dirs, taps, r->fs_hz, rw_hrtf_reference_delay (h) };
      ok = rw_rays_synthesise_render (&r->rays, r->fs_hz, n, RW_RAYS_DEFAULT_MAX_DENSITY, seed, 2,
                                      late_binaural, &lb, scale, late, NULL, err);
    }
  for (size_t i = 0; ok && i < n; i++)
    {
      left[i] += late[i];
      right[i] += late[n + i];
    }
  rw_ambi_late_dirs_clear (&dirs);
  free (arr);
  free (late);
  return ok;
}
