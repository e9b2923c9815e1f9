/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-sim.c — the simulate pipeline: mesh file → calibrated IRs and the
 * results JSON (see rw-sim.h for the stages, docs/PHYSICS.md for the
 * physics behind each number written). */
#include "rw-sim.h"
#include "rw-comm.h"
#include "rw-slab.h"
#include "rw-clock.h"

#include <errno.h>
#include <math.h>
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "rw-ambi-binaural.h"
#include "rw-ambisonics.h"
#include "rw-audio.h"
#include "rw-checkpoint.h"
#include "rw-file.h"
#include "rw-ga.h"
#include "rw-hrtf.h"
#include "rw-i18n.h"
#include "rw-materials.h"
#include "rw-mesh.h"
#include "rw-physics.h"
#include "rw-postprocess.h"
#include "rw-results.h"
#include "rw-voxel.h"
#include "rw-wave-directions.h"

/* Amplitude of the soft impulse. rw_postprocess divides it out, so any
 * value gives the same IR; 1 keeps the raw field near unit scale. */
#define RW_SIM_SOURCE_AMPLITUDE 1.0

bool
rw_sim_check_fcc (const RwSimConfig *cfg, RwError *err)
{
  /* spatial receivers too: their probes are the lattice's sites about
   * each receiver's position (rw_wave_probe_at, docs/SPATIAL.md) */
  if (cfg->boundary != RW_BOUNDARY_FV)
    return rw_fail (err, RW_ERROR_INPUT, _("The FCC scheme has the finite-volume boundary only, "
                                           "not %s: use --scheme cartesian for it"),
                    rw_boundary_name (cfg->boundary));
  return true;
}

RwScheme
rw_sim_resolve_scheme (const RwSimConfig *cfg)
{
  if (cfg->scheme != RW_SCHEME_AUTO)
    return cfg->scheme;
  /* The FCC scheme wherever it runs, by measurement (docs/SOLVER.md §9,
   * "The default scheme"): at the 2 % phase-velocity bound it needs
   * 0.088× the node updates of the 7-point scheme and runs 4–7× faster
   * per second of audio on the GPU, and with its wall links its decay per
   * band matches the 7-point scheme's within 5 % (scheme-compare).
   * Otherwise (the LRS and Savioja boundaries) the 7-point scheme. */
  return rw_sim_check_fcc (cfg, NULL) ? RW_SCHEME_FCC : RW_SCHEME_CARTESIAN;
}

double
rw_sim_ppw (const RwSimConfig *cfg)
{
  return cfg->ppw > 0 ? cfg->ppw : rw_scheme_default_ppw (rw_scheme_lattice (rw_sim_resolve_scheme (cfg)));
}

void
rw_sim_config_init (RwSimConfig *cfg)
{
  memset (cfg, 0, sizeof *cfg);
  cfg->scale = 1.0;
  cfg->fmax_hz = 1000.0;
  cfg->ppw = 0;
  cfg->duration_s = 1.0;
  cfg->temperature_c = RW_DEFAULT_TEMPERATURE_C;
  cfg->humidity_pct = RW_AIR_DEFAULT_HUMIDITY_PCT;
  cfg->air_absorption = true;
  cfg->uniform_R = NAN;
  cfg->boundary = RW_BOUNDARY_FV;
  cfg->backend = RW_BACKEND_AUTO;
  cfg->precision = RW_PRECISION_F32;
  cfg->fs_out_hz = RW_OUTPUT_RATE_HZ;
  cfg->threads = 0;
  cfg->device = 0;
  cfg->hybrid = true;
  cfg->crossover_hz = 0.0;
  cfg->n_rays = RW_RAYS_DEFAULT_N;
  cfg->ism_order = RW_ISM_DEFAULT_ORDER;
  cfg->seed = 1;
  cfg->write_parts = false;
  cfg->checkpoint_every_s = RW_SIM_CHECKPOINT_EVERY_S;
}

double
rw_sim_crossover_hz (const RwSimConfig *cfg)
{
  return cfg->crossover_hz > 0 ? cfg->crossover_hz : rw_hybrid_default_crossover (cfg->fmax_hz);
}

double
rw_sim_valid_up_to_hz (const RwSimResult *res)
{
  const double nyquist = 0.5 * res->fs_out_hz;
  return res->hybrid ? nyquist : fmin (res->fmax_hz, nyquist);
}

void
rw_sim_part_name (size_t r, bool geometrical, char *buf, size_t len)
{
  snprintf (buf, len, "%s-%zu.wav", geometrical ? "geometrical" : "wave", r + 1);
}

void
rw_sim_output_name (size_t r, char *buf, size_t len)
{
  snprintf (buf, len, "receiver-%zu.wav", r + 1);
}

void
rw_sim_result_clear (RwSimResult *res)
{
  if (res == NULL)
    return;
  for (size_t i = 0; i < res->n_surfaces; i++)
    {
      if (res->surface_names)
        free (res->surface_names[i]);
      if (res->surface_materials)
        free (res->surface_materials[i]);
    }
  free (res->surface_names);
  free (res->surface_materials);
  free (res->surface_R);
  free (res->surface_models);
  for (size_t r = 0; r < res->n_receivers; r++)
    {
      if (res->ir)
        free (res->ir[r]);
      if (res->ir_wave)
        free (res->ir_wave[r]);
      if (res->ir_geometrical)
        free (res->ir_geometrical[r]);
      if (res->ir_binaural)
        free (res->ir_binaural[r]);
      if (res->ir_ambi)
        free (res->ir_ambi[r]);
    }
  free (res->ir_binaural);
  free (res->ir_ambi);
  free (res->wave_ambi_order);
  free (res->ir);
  free (res->ir_wave);
  free (res->ir_geometrical);
  free (res->receiver_cells);
  free (res->receivers_at);
  memset (res, 0, sizeof *res);
}

/* Settings a user can get wrong, each named with its value. Everything
 * but the mesh: rw_sim_solve checks it for callers that hold their own
 * mesh (the GUI); rw_simulate before a possibly slow import; the GUI's
 * project loader before it accepts a file. */
bool
rw_sim_check_settings (const RwSimConfig *cfg, RwError *err)
{
  if (!isfinite (cfg->fmax_hz) || cfg->fmax_hz <= 0 || cfg->fmax_hz > 100000)
    return rw_fail (err, RW_ERROR_INPUT, _("fmax %g Hz: must be between 0 and 100 kHz"), cfg->fmax_hz);
  /* Below 4 points per wavelength the phase error at fmax passes 10 %:
   * the IR would not be valid up to the fmax it claims. */
  if (!isfinite (cfg->ppw) || (cfg->ppw != 0 && (cfg->ppw < 4 || cfg->ppw > 100)))
    return rw_fail (err, RW_ERROR_INPUT, _("Points per wavelength %g: must be between 4 and 100"),
                    cfg->ppw);
  if (!isfinite (cfg->duration_s) || cfg->duration_s <= 0 || cfg->duration_s > 600)
    return rw_fail (err, RW_ERROR_INPUT, _("Duration %g s: must be between 0 and 600 s"),
                    cfg->duration_s);
  if (!isfinite (cfg->temperature_c) || cfg->temperature_c < -50 || cfg->temperature_c > 60)
    return rw_fail (err, RW_ERROR_INPUT, _("Air temperature %g °C: must be between −50 and 60 °C"),
                    cfg->temperature_c);
  if (!isfinite (cfg->humidity_pct) || cfg->humidity_pct < 0 || cfg->humidity_pct > 100)
    return rw_fail (err, RW_ERROR_INPUT, _("Relative humidity %g %%: must be between 0 and 100 %%"),
                    cfg->humidity_pct);
  if (!isnan (cfg->uniform_R) && !rw_reflection_check (cfg->uniform_R, cfg->boundary, err))
    return rw_fail_prefix (err, _("Uniform reflection factor"));
  if ((int) cfg->scheme < RW_SCHEME_AUTO || cfg->scheme > RW_SCHEME_FCC)
    return rw_fail (err, RW_ERROR_INPUT, _("Unknown scheme %d"), (int) cfg->scheme);
  if (cfg->scheme == RW_SCHEME_FCC && !rw_sim_check_fcc (cfg, err))
    return false;
  if (!isfinite (cfg->fs_out_hz) || cfg->fs_out_hz < 1000 || cfg->fs_out_hz > 768000
      || cfg->fs_out_hz != floor (cfg->fs_out_hz))
    return rw_fail (err, RW_ERROR_INPUT, _("Output rate %g Hz: must be a whole number of Hz, 1–768 kHz"),
                    cfg->fs_out_hz);
  if (isnan (cfg->checkpoint_every_s))
    return rw_fail (err, RW_ERROR_INPUT, _("The checkpoint period is not a number"));
  if (cfg->n_receivers == 0)
    return rw_fail (err, RW_ERROR_INPUT, _("No receiver given"));
  if (cfg->n_receivers > RW_SIM_MAX_RECEIVERS)
    return rw_fail (err, RW_ERROR_INPUT, _("%zu receivers: at most %d"), cfg->n_receivers,
                    RW_SIM_MAX_RECEIVERS);
  for (int k = 0; k < 3; k++)
    if (!isfinite (cfg->source[k]))
      return rw_fail (err, RW_ERROR_INPUT, _("Source position is not a finite number"));
  for (size_t r = 0; r < cfg->n_receivers; r++)
    {
      for (int k = 0; k < 3; k++)
        if (!isfinite (cfg->receivers[r][k]))
          return rw_fail (err, RW_ERROR_INPUT, _("Receiver %zu position is not a finite number"), r + 1);
      char what[64];
      snprintf (what, sizeof what, _("receiver %zu"), r + 1);
      if (!rw_receiver_check (&cfg->receiver_specs[r], what, err))
        return false;
    }
  if (cfg->hybrid)
    {
      if (!isnan (cfg->uniform_R) && cfg->uniform_R <= -1.0)
        return rw_fail (err, RW_ERROR_INPUT,
                        _("Uniform reflection factor %g: a pressure-release surface has no "
                          "admittance for the geometrical part; use the wave part alone (no hybrid)"),
                        cfg->uniform_R);
      if (!isfinite (cfg->crossover_hz) || cfg->crossover_hz < 0)
        return rw_fail (err, RW_ERROR_INPUT, _("Crossover %g Hz: must be a positive frequency"),
                        cfg->crossover_hz);
      if (!rw_hybrid_check_crossover (rw_sim_crossover_hz (cfg), cfg->fmax_hz, cfg->fs_out_hz, err))
        return false;
      if (cfg->n_rays < 1 || cfg->n_rays > RW_RAYS_MAX_N)
        return rw_fail (err, RW_ERROR_INPUT, _("%zu rays: must be between 1 and %zu"), cfg->n_rays,
                        RW_RAYS_MAX_N);
      if (cfg->ism_order < 0 || cfg->ism_order > RW_ISM_MAX_ORDER)
        return rw_fail (err, RW_ERROR_INPUT, _("Image-source order %d: must be between 0 and %d"),
                        cfg->ism_order, RW_ISM_MAX_ORDER);
    }
  return true;
}

void
rw_sim_warn (RwSimResult *res, const char *fmt, ...)
{
  if (res->n_warnings >= RW_SIM_MAX_WARNINGS)
    return;
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (res->warnings[res->n_warnings++], sizeof res->warnings[0], fmt, ap);
  va_end (ap);
}

static bool
cancelled (const atomic_int *cancel, RwError *err)
{
  if (cancel != NULL && atomic_load (cancel))
    return !rw_fail (err, RW_ERROR_CANCELLED, _("Simulation cancelled"));
  return false;
}

static void
cell_centre (const RwGrid *g, size_t cell, double out[3])
{
  size_t x = cell % g->nx, y = (cell / g->nx) % g->ny, z = cell / (g->nx * g->ny);
  out[0] = g->origin[0] + g->h * (double) x;
  out[1] = g->origin[1] + g->h * (double) y;
  out[2] = g->origin[2] + g->h * (double) z;
}

double
rw_sim_distance (const double a[3], const double b[3])
{
  double d2 = 0;
  for (int k = 0; k < 3; k++)
    d2 += (a[k] - b[k]) * (a[k] - b[k]);
  return sqrt (d2);
}

/* float IR → double, and back */
static double *
to_double (const float *x, size_t n)
{
  double *y = malloc ((n ? n : 1) * sizeof *y);
  for (size_t i = 0; y != NULL && i < n; i++)
    y[i] = x[i];
  return y;
}

static float *
to_float (const double *x, size_t n)
{
  float *y = malloc ((n ? n : 1) * sizeof *y);
  for (size_t i = 0; y != NULL && i < n; i++)
    y[i] = (float) x[i];
  return y;
}

/* x (n_in samples at fs_in) at the output rate fs_out, n samples:
 * resampled when the rates differ, cut or zero-padded to n. */
static double *
at_rate (const double *x, size_t n_in, double fs_in, double fs_out, size_t n, RwError *err)
{
  double *y = calloc (n ? n : 1, sizeof *y);
  if (y == NULL)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
      return NULL;
    }
  if (fs_out == fs_in)
    memcpy (y, x, (n_in < n ? n_in : n) * sizeof *y);
  else
    {
      RwAudio a = { .data = to_float (x, n_in), .frames = n_in, .channels = 1, .rate_hz = fs_in };
      bool ok = a.data != NULL || rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
      ok = ok && rw_audio_resample (&a, fs_out, err);
      for (size_t i = 0; ok && i < n && i < a.frames; i++)
        y[i] = a.data[i];
      free (a.data);
      if (!ok)
        {
          free (y);
          y = NULL;
        }
    }
  return y;
}

/* One receiver's geometrical part at the output rate, n samples (the
 * wave part's length). */
static double *
geometrical_part (const RwGaResult *ga, double fs_out, size_t n, RwSimResult *out, RwError *err)
{
  out->ga_receiver_radius_m = ga->rays.receiver_radius_m;
  out->ga_image_sources += ga->ism.n_arrivals;
  return at_rate (ga->ir, ga->n_samples, ga->fs_hz, fs_out, n, err);
}

/* ---------------------------------------------------------------- spatial receivers */

/* What a run's binaural and ambisonic receivers need besides the omni
 * path: each one's probe about its position (rw_wave_probe_at), whose
 * grid cells join the solver's receivers after the user's ones, and the
 * HRTF set of the binaural ones at the output rate (the wave part's
 * decode) and at the geometrical part's rate. */
typedef struct {
  bool any, binaural;
  RwWaveProbeAt *probes;    /* n_receivers; the spatial ones' */
  int *probe_order;         /* the order each probe encodes (≤ the receiver's) */
  size_t *probe_first;      /* solver receiver of a spatial receiver's probe's cells[0] */
  size_t n_extra;           /* probe cells, after the user's receivers */
  size_t n_probes;          /* probes' length */
  RwHrtf *hrtf_out, *hrtf_ga;
  /* the MagLS decoder of each order, designed once a run (≈ 0.5 s each)
   * when a binaural receiver first needs it */
  RwAmbiBinaural *decoder[RW_AMBI_MAX_ORDER + 1];
} SimSpatial;

static void
spatial_clear (SimSpatial *sp)
{
  for (size_t r = 0; sp->probes != NULL && r < sp->n_probes; r++)
    rw_wave_probe_at_clear (&sp->probes[r]);
  free (sp->probes);
  free (sp->probe_order);
  free (sp->probe_first);
  for (int o = 0; o <= RW_AMBI_MAX_ORDER; o++)
    rw_ambi_binaural_free (sp->decoder[o]);
  if (sp->hrtf_ga != sp->hrtf_out)
    rw_hrtf_free (sp->hrtf_ga);
  rw_hrtf_free (sp->hrtf_out);
  memset (sp, 0, sizeof *sp);
}

/* The HRTF set, opened before anything slow so that a bad file fails at
 * once, at the rates the run needs. */
static bool
spatial_open (const RwSimConfig *cfg, SimSpatial *sp, RwSimResult *out, RwError *err)
{
  memset (sp, 0, sizeof *sp);
  for (size_t r = 0; r < cfg->n_receivers; r++)
    {
      sp->any |= cfg->receiver_specs[r].type != RW_RECEIVER_OMNI;
      sp->binaural |= cfg->receiver_specs[r].type == RW_RECEIVER_BINAURAL;
    }
  if (!sp->any)
    return true;
  out->wave_ambi_order = calloc (cfg->n_receivers, sizeof *out->wave_ambi_order);
  out->ir_ambi = calloc (cfg->n_receivers, sizeof *out->ir_ambi);
  out->ir_binaural = sp->binaural ? calloc (cfg->n_receivers, sizeof *out->ir_binaural) : NULL;
  sp->probes = calloc (cfg->n_receivers, sizeof *sp->probes);
  sp->n_probes = sp->probes != NULL ? cfg->n_receivers : 0;
  sp->probe_first = calloc (cfg->n_receivers, sizeof *sp->probe_first);
  sp->probe_order = calloc (cfg->n_receivers, sizeof *sp->probe_order);
  if (out->wave_ambi_order == NULL || out->ir_ambi == NULL
      || (sp->binaural && out->ir_binaural == NULL) || sp->probes == NULL
      || sp->probe_first == NULL || sp->probe_order == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
  if (!sp->binaural)
    return true;
  sp->hrtf_out = rw_hrtf_open (cfg->hrtf_path, cfg->fs_out_hz, err);
  if (sp->hrtf_out == NULL)
    return false;
  sp->hrtf_ga = cfg->fs_out_hz == RW_GA_RATE_HZ || !cfg->hybrid
                ? sp->hrtf_out : rw_hrtf_open (cfg->hrtf_path, RW_GA_RATE_HZ, err);
  if (sp->hrtf_ga == NULL)
    return false;
  snprintf (out->hrtf_path, sizeof out->hrtf_path, "%s", rw_hrtf_path (sp->hrtf_out));
  out->hrtf_directions = rw_hrtf_n_directions (sp->hrtf_out);
  return true;
}

/* Each spatial receiver's probe about its position (rw_wave_probe_at:
 * virtual nodes around it, each read through the receiver's stencil st[r]
 * shifted); the cells they read are appended to the solver's receivers
 * (*cells, n_receivers long on entry, grown). view: the whole grid; with
 * ranks (ranked) a lattice without arrays, and each probe looks at the
 * planes around its receiver voxelised alone (rw_wave_probe_planes,
 * rw_voxelise_planes: the whole grid's K there), so that every rank finds
 * the same cells, in the whole grid's indices, as one rank does; the
 * solver gathers them from the ranks whose planes hold them. */
static bool
spatial_probes (const RwSimConfig *cfg, const RwMesh *mesh, const RwGrid *view, bool ranked,
                const RwGridStencil *st, SimSpatial *sp, RwSimResult *out, size_t **cells,
                size_t *n_cells, RwError *err)
{
  size_t n = cfg->n_receivers;
  for (size_t r = 0; sp->any && r < cfg->n_receivers; r++)
    {
      const RwReceiverSpec *spec = &cfg->receiver_specs[r];
      if (spec->type == RW_RECEIVER_OMNI)
        continue;
      RwWaveProbeAt *pa = &sp->probes[r];
      const int order = rw_receiver_ambi_order (spec);
      const size_t centre = out->receiver_cells[r];
      size_t z0 = 0, z1 = view->nz;
      RwGrid *window = NULL;
      if (ranked)
        {
          rw_wave_probe_planes (centre / (view->nx * view->ny), view->nz, &z0, &z1);
          window = rw_voxelise_planes (mesh, view->h, view->lattice, z0, z1, 0, 0, cfg->threads,
                                       err);
          if (window == NULL)
            return false;
        }
      const RwGrid *g = ranked ? window : view;
      /* a probe about the receiver's position needs rw_wave_probe_radius
       * cells of air round its nearest node (orders 2 and 3:
       * RW_WAVE_PROBE_RADIUS + 1, on the FCC lattice + 2; order 1: 2 or
       * 3). Nearer a wall the probe is taken about the nearest node
       * instead (its pressures as they are: RW_WAVE_PROBE_RADIUS cells of
       * air, 1 for order 1), then the wave part is first order about the
       * position, then about the node; each step said in a warning */
      const RwGridStencil node = { .n = 1, .cell = { centre }, .weight = { 1.0 }, .nearest = centre };
      const RwGridStencil *try_st[4] = { &st[r], &node, &st[r], &node };
      const int try_order[4] = { order, order, 1, 1 };
      int k = 0;
      while (k < 3 && !rw_wave_probe_at (g, z0, try_st[k], try_order[k], pa, NULL))
        k++;
      /* the last step again, with the message, when none before fitted */
      const bool probed = k < 3 || rw_wave_probe_at (g, z0, try_st[k], try_order[k], pa, err);
      sp->probe_order[r] = try_order[k];
      const int air = rw_wave_probe_radius (try_order[k], view->lattice);
      if (probed && try_st[k] == &node)
        rw_sim_warn (out, _("receiver %zu at (%.3f, %.3f, %.3f) m lies within %d grid cells "
                            "(%.3f m) of a wall: its wave part's directions are taken about its "
                            "nearest grid node, %.3f m away"),
                     r + 1, cfg->receivers[r][0], cfg->receivers[r][1], cfg->receivers[r][2], air,
                     air * view->h, rw_sim_distance (cfg->receivers[r], out->receivers_at[r]));
      if (probed && try_order[k] < order)
        {
          const int reach = rw_wave_probe_radius (order, view->lattice);
          rw_sim_warn (out, _("receiver %zu at (%.3f, %.3f, %.3f) m lies within %d grid cells "
                              "(%.3f m) of a wall: its wave part is encoded to order 1 only (the "
                              "geometrical part to order %d)"),
                       r + 1, cfg->receivers[r][0], cfg->receivers[r][1], cfg->receivers[r][2],
                       reach, reach * view->h, order);
        }
      rw_grid_free (window);
      if (!probed)
        return rw_fail_prefix (err, _("receiver %zu at (%.3f, %.3f, %.3f) m"), r + 1,
                               cfg->receivers[r][0], cfg->receivers[r][1], cfg->receivers[r][2]);
      size_t *grown = realloc (*cells, (n + pa->n_cells) * sizeof *grown);
      if (grown == NULL)
        return rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
      *cells = grown;
      sp->probe_first[r] = n;
      for (size_t k = 0; k < pa->n_cells; k++)
        grown[n++] = pa->cells[k];
    }
  sp->n_extra = n - cfg->n_receivers;
  *n_cells = n;
  return true;
}

/* The binaural IR of an ambisonic one (order, planar, n samples at the
 * output rate): the MagLS decoder of rw-ambi-binaural.h at the order the
 * wave part resolves (docs/BINAURAL.md says why MagLS), one per order a
 * run. */
static bool
decode_binaural (SimSpatial *sp, const double *ambi, int order, size_t n, double *left,
                 double *right, RwError *err)
{
  if (sp->decoder[order] == NULL
      && (sp->decoder[order] = rw_ambi_binaural_new (sp->hrtf_out, order, err)) == NULL)
    return false;
  return rw_ambi_binaural_decode (sp->decoder[order], ambi, n, left, right, err);
}

/* The threads a run's CPU work may use (cfg->threads; ≤ 0: all). */
static int
sim_threads (const RwSimConfig *cfg)
{
  return cfg->threads > 0 ? cfg->threads : omp_get_max_threads ();
}

/* The first error of a parallel loop's iterations: each iteration that
 * fails records its RwError; the others see `failed` and skip their work. */
typedef struct {
  int failed;
  RwError first;
} ParError;

static bool
par_failed (ParError *pe)
{
  int f;
#pragma omp atomic read
  f = pe->failed;
  return f != 0;
}

static void
par_fail (ParError *pe, const RwError *e)
{
#pragma omp critical (rw_sim_par_error)
  {
    if (!pe->failed)
      pe->first = *e;
    pe->failed = 1;
  }
}

/* ok, or false with err set to the loop's first error */
static bool
par_result (const ParError *pe, bool ok, RwError *err)
{
  if (ok && pe->failed)
    return rw_fail (err, pe->first.code, "%s", pe->first.message);
  return ok;
}

/* An ambisonic signal in the room's frame (planar, n samples, channels
 * to `order`) into the frame of a receiver of yaw and pitch, in place. */
static bool
rotate_to_head (double *ambi, int order, size_t n, double yaw_deg, double pitch_deg, RwError *err)
{
  if ((yaw_deg == 0.0 && pitch_deg == 0.0) || order < 1)
    return true;
  const size_t nch = (size_t) RW_AMBI_CHANNELS (order);
  double *turned = malloc (nch * n * sizeof *turned);
  if (turned == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
  bool ok = rw_ambi_rotate (ambi, order, n, yaw_deg, pitch_deg, turned, err);
  if (ok)
    memcpy (ambi, turned, nch * n * sizeof *ambi);
  free (turned);
  return ok;
}

/* A spatial receiver's wave part: its probe's virtual nodes
 * (rw_wave_probe_at_mix) calibrated as the omni IR is
 * (rw_postprocess_calibrate: the gain, the time origin,
 * the uniform mode's correction with the centre's arrival time for every
 * node, so that it is the same uniform field everywhere: the solver sums
 * that mode exactly, so these channels are the same bits on every backend
 * and over any ranks, rw-exact-sum.h), encoded to
 * ambisonics at the grid rate (rw_wave_encode), each channel above W then
 * filtered and resampled as the omni IR is (rw_postprocess_finish, air
 * absorption): all linear, so the same as finishing every cell first, at
 * a sixteenth of the cost for 257 cells. W is the omni IR itself. Turned
 * into the receiver's frame, and for a binaural receiver decoded to two
 * ears at the order the probe resolves. */
static bool
spatial_wave (const RwSimConfig *cfg, RwSolver *solver, const RwPostprocess *pp,
              SimSpatial *sp, size_t r, RwSimResult *out, RwError *err)
{
  const RwReceiverSpec *spec = &cfg->receiver_specs[r];
  const RwWaveProbeAt *pa = &sp->probes[r];
  const int order = rw_receiver_ambi_order (spec), enc = sp->probe_order[r];
  const size_t n = out->ir_frames, nch = (size_t) RW_AMBI_CHANNELS (order);
  const size_t n_enc = (size_t) RW_AMBI_CHANNELS (enc), steps = rw_solver_step (solver);
  const size_t m = steps + 1;   /* calibrated samples */
  const size_t nv = pa->probe.n;
  double *virt = malloc (nv * steps * sizeof *virt);
  double *cal = malloc (nv * m * sizeof *cal);
  const double **rec = calloc (pa->n_cells, sizeof *rec);
  const double **sig = calloc (nv, sizeof *sig);
  double *grid_ambi = malloc (n_enc * m * sizeof *grid_ambi);
  double *ambi = calloc (nch * n, sizeof *ambi);
  bool ok = cal != NULL && virt != NULL && rec != NULL && sig != NULL && grid_ambi != NULL
            && ambi != NULL;
  if (!ok)
    rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
  /* the virtual nodes about the receiver's position, read from the raw
   * cells as its omni IR is read, then each calibrated: the calibration
   * is affine with one correction for every signal and the stencil's
   * weights sum to 1, so this is calibrating the cells first, for the
   * virtual nodes' number of calibrations instead of the cells' */
  for (size_t k = 0; ok && k < pa->n_cells; k++)
    rec[k] = rw_solver_receiver (solver, sp->probe_first[r] + k);
  if (ok)
    rw_wave_probe_at_mix (pa, rec, steps, virt);
  for (size_t i = 0; ok && i < nv; i++)
    {
      ok = rw_postprocess_calibrate (pp, virt + i * steps, steps, cal + i * m, err);
      sig[i] = cal + i * m;
    }
  ok = ok && rw_wave_encode (&pa->probe, sig, m, enc, out->spacing_m, out->c, out->fs_grid_hz,
                             grid_ambi, err);
  for (size_t i = 0; ok && i < n; i++)
    ambi[i] = out->ir[r][i];
  /* the channels are independent: one a thread (cfg->threads) */
  ParError pe = { 0 };
#pragma omp parallel for schedule(dynamic) num_threads (sim_threads (cfg)) if (ok)
  for (size_t c = 1; c < n_enc; c++)
    {
      if (par_failed (&pe))
        continue;
      RwError e = { 0 };
      float *x = NULL;
      size_t frames = 0;
      bool done = rw_postprocess_finish (pp, grid_ambi + c * m, steps, &x, &frames, &e)
                  && (!cfg->air_absorption
                      || rw_air_absorption_apply (&out->air, x, frames, cfg->fs_out_hz, &e));
      if (done && frames != n)
        done = rw_fail (&e, RW_ERROR_INTERNAL, "channel %zu: %zu frames, not %zu", c, frames, n);
      for (size_t i = 0; done && i < n; i++)
        ambi[c * n + i] = x[i];
      if (!done)
        par_fail (&pe, &e);
      free (x);
    }
  ok = par_result (&pe, ok, err);
  /* the grid's frame is the room's: into the receiver's */
  ok = ok && rotate_to_head (ambi, rw_wave_encoded_order (enc), n, spec->yaw_deg, spec->pitch_deg, err);
  if (ok)
    {
      out->wave_ambi_order[r] = rw_wave_encoded_order (enc);
      ok = (out->ir_ambi[r] = to_float (ambi, nch * n)) != NULL
           || rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
    }
  if (ok && spec->type == RW_RECEIVER_BINAURAL)
    {
      double *lr = malloc (2 * n * sizeof *lr);
      ok = lr != NULL || rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
      ok = ok && decode_binaural (sp, ambi, out->wave_ambi_order[r], n, lr, lr + n, err);
      if (ok)
        ok = (out->ir_binaural[r] = to_float (lr, 2 * n)) != NULL
             || rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
      free (lr);
    }
  free (cal);
  free (virt);
  free (rec);
  free (sig);
  free (grid_ambi);
  free (ambi);
  return ok || rw_fail_prefix (err, _("receiver %zu"), r + 1);
}

/* Joins channel `ch` (n samples, float, the wave part's) with the
 * geometrical part's (geo: n samples at the output rate) at the
 * crossover, in place. */
static bool
join_channel (const RwSimConfig *cfg, const RwSimResult *out, float *ch, const double *geo,
              double *joined, RwError *err)
{
  const size_t n = out->ir_frames;
  double *wave = to_double (ch, n);
  if (wave == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
  const RwHybridPart wp = { wave, n, out->fs_out_hz }, gp = { geo, n, out->fs_out_hz };
  bool ok = rw_hybrid_join (&wp, &gp, cfg->fmax_hz, out->crossover_hz, joined, NULL, NULL, err);
  for (size_t i = 0; ok && i < n; i++)
    ch[i] = (float) joined[i];
  free (wave);
  return ok;
}

/* A spatial receiver's geometrical part (ga: its result, seed: its late
 * part's synthesis seed) joined channel by channel to its wave part at
 * the crossover: the ambisonic channels (rw_ga_ambisonic) and, for a
 * binaural receiver, the two ears (rw_ga_binaural). */
static bool
spatial_join (const RwSimConfig *cfg, const SimSpatial *sp, size_t r, const RwGaResult *ga,
              uint64_t seed, RwSimResult *out, RwError *err)
{
  const RwReceiverSpec *spec = &cfg->receiver_specs[r];
  const int order = rw_receiver_ambi_order (spec);
  const size_t n = out->ir_frames, ng = ga->n_samples, nch = (size_t) RW_AMBI_CHANNELS (order);
  double *g = malloc ((nch > 2 ? nch : 2) * ng * sizeof *g);
  double *joined = malloc ((n ? n : 1) * sizeof *joined);
  bool ok = g != NULL && joined != NULL;
  if (!ok)
    rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
  ok = ok && rw_ga_ambisonic (ga, order, spec->yaw_deg, spec->pitch_deg, seed, g, err);
  /* the channels are independent: one a thread (cfg->threads) */
  ParError pe = { 0 };
#pragma omp parallel for schedule(dynamic) num_threads (sim_threads (cfg)) if (ok)
  for (size_t c = 0; c < nch; c++)
    {
      if (par_failed (&pe))
        continue;
      RwError e = { 0 };
      double *y = at_rate (g + c * ng, ng, ga->fs_hz, out->fs_out_hz, n, &e);
      double *jc = malloc ((n ? n : 1) * sizeof *jc);
      bool done = y != NULL && (jc != NULL || rw_fail (&e, RW_ERROR_MEMORY, _("Out of memory")))
                  && join_channel (cfg, out, out->ir_ambi[r] + c * n, y, jc, &e);
      if (!done)
        par_fail (&pe, &e);
      free (y);
      free (jc);
    }
  ok = par_result (&pe, ok, err);
  if (ok && spec->type == RW_RECEIVER_BINAURAL)
    ok = rw_ga_binaural (ga, sp->hrtf_ga, spec->yaw_deg, spec->pitch_deg, seed, g, g + ng, err);
  for (int e = 0; ok && spec->type == RW_RECEIVER_BINAURAL && e < 2; e++)
    {
      double *y = at_rate (g + (size_t) e * ng, ng, ga->fs_hz, out->fs_out_hz, n, err);
      ok = y != NULL && join_channel (cfg, out, out->ir_binaural[r] + (size_t) e * n, y, joined, err);
      free (y);
    }
  free (g);
  free (joined);
  return ok || rw_fail_prefix (err, _("receiver %zu"), r + 1);
}

/* Receivers whose geometrical parts are computed together: one ray
 * tracing serves them all; the batch bounds the memory of their per-band
 * IRs (8 × 8 bands × the IR's samples). */
#define RW_SIM_GA_BATCH 8

/* The full-band IR (cfg->hybrid): each receiver's geometrical part
 * (rw-ga.h) at the positions the wave part used (the cells' centres, so
 * that the direct sound both parts contain coincides and is taken once),
 * with the same admittances (fitted over all eight bands) and the
 * surfaces' scattering, then joined to the wave part at the crossover
 * (rw_hybrid_join). The air absorption is each part's own, computed
 * alike (ISO 9613-1 per octave band). out->ir[r] becomes the hybrid IR;
 * the parts are kept when cfg->write_parts. A spatial receiver's
 * channels are joined alike (spatial_join). */
static bool
sim_geometrical (const RwSimConfig *cfg, const RwMesh *mesh, const double *surface_R,
                 const SimSpatial *sp, RwProgressFn progress, void *user_data,
                 const atomic_int *cancel, RwSimResult *out, RwError *err)
{
  const size_t ns = mesh->n_surfaces, n = out->ir_frames;
  bool ok = false;
  RwGaScene *scene = NULL;
  RwAdmittance *Y = malloc ((ns ? ns : 1) * sizeof *Y);
  double *scattering = malloc ((ns ? ns : 1) * RW_N_OCTAVES * sizeof *scattering);
  double *part = NULL, *wave = NULL, *joined = NULL;
  RwGaResult ga[RW_SIM_GA_BATCH];
  memset (ga, 0, sizeof ga);
  size_t n_ga = 0;
  uint64_t batch_seed = 0;   /* the settings' seed of the batch's tracing */

  out->hybrid = true;
  out->crossover_hz = rw_sim_crossover_hz (cfg);
  rw_hybrid_band_methods (out->crossover_hz, out->band_method);
  if (Y == NULL || scattering == NULL)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
      goto out;
    }
  out->fit_bands = RW_N_OCTAVES;
  for (size_t s = 0; s < ns; s++)
    {
      /* the surface's model, or without one the frequency-independent
       * surface of its R */
      RwSurfaceModel from_R;
      const RwSurfaceModel *m = out->surface_models != NULL ? &out->surface_models[s] : &from_R;
      if (out->surface_models == NULL)
        rw_surface_model_from_R (surface_R[s], &from_R);
      if (m->fit.n_bands_fit < out->fit_bands)
        out->fit_bands = m->fit.n_bands_fit;
      Y[s] = m->Y;
      memcpy (scattering + s * RW_N_OCTAVES, m->scattering, RW_N_OCTAVES * sizeof *scattering);
    }
  if (out->fit_bands < RW_N_OCTAVES)
    rw_sim_warn (out, _("some surfaces' admittances were fitted over the octave bands up to %g Hz "
                        "only: the geometrical part extrapolates them above"),
                 rw_octave_centres_hz[out->fit_bands - 1]);

  const double t0 = rw_clock_s ();
  scene = rw_ga_scene_new (mesh, err);
  if (scene == NULL)
    goto out;
  RwGaSettings gs;
  rw_ga_settings_init (&gs);
  gs.n_rays = cfg->n_rays;
  gs.seed = cfg->seed;
  gs.ism_order = cfg->ism_order;
  gs.duration_s = (double) n / out->fs_out_hz;
  gs.speed_of_sound = out->c;
  gs.air_absorption = cfg->air_absorption;
  gs.temperature_c = cfg->temperature_c;
  gs.humidity_pct = cfg->humidity_pct;
  gs.threads = cfg->threads > 0 ? cfg->threads : 0;
  gs.progress = progress;
  gs.progress_data = user_data;
  gs.cancel = cancel;
  if (cfg->write_parts)
    {
      out->ir_wave = calloc (out->n_receivers, sizeof (float *));
      out->ir_geometrical = calloc (out->n_receivers, sizeof (float *));
      if (out->ir_wave == NULL || out->ir_geometrical == NULL)
        {
          rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
          goto out;
        }
    }
  joined = malloc ((n ? n : 1) * sizeof *joined);
  if (joined == NULL)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
      goto out;
    }
  double t_join = 0;
  for (size_t r = 0; r < out->n_receivers; r++)
    {
      const size_t k = r % RW_SIM_GA_BATCH;
      if (k == 0)
        {
          /* the next batch: rays once for all of it */
          for (size_t j = 0; j < n_ga; j++)
            rw_ga_result_clear (&ga[j]);
          n_ga = out->n_receivers - r < RW_SIM_GA_BATCH ? out->n_receivers - r : RW_SIM_GA_BATCH;
          RwGaSettings bs = gs;
          bs.seed = batch_seed = gs.seed + r;   /* a batch's rays differ from the last's */
          /* at the positions given, where the wave part interpolates
           * them (issue #14), so that the direct sound both parts hold
           * arrives at the same instant */
          if (!rw_ga_compute_receivers (scene, Y, scattering, ns, cfg->source,
                                        (const double (*)[3]) cfg->receivers[r], n_ga, &bs, ga,
                                        err))
            {
              if (err == NULL || err->code != RW_ERROR_CANCELLED)
                {
                  if (n_ga > 1)
                    rw_fail_prefix (err, _("receivers %zu to %zu"), r + 1, r + n_ga);
                  else
                    rw_fail_prefix (err, _("receiver %zu"), r + 1);
                }
              n_ga = 0;
              goto out;
            }
        }
      if (k == 0)
        out->ga_rays_lost += ga[0].rays.n_lost;   /* one tracing per batch */
      part = geometrical_part (&ga[k], out->fs_out_hz, n, out, err);
      if (part == NULL)
        {
          rw_fail_prefix (err, _("receiver %zu"), r + 1);
          goto out;
        }
      const double t1 = rw_clock_s ();
      wave = to_double (out->ir[r], n);
      if (wave == NULL)
        {
          rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
          goto out;
        }
      const RwHybridPart wp = { wave, n, out->fs_out_hz }, gp = { part, n, out->fs_out_hz };
      if (!rw_hybrid_join (&wp, &gp, cfg->fmax_hz, out->crossover_hz, joined, NULL, NULL, err))
        {
          rw_fail_prefix (err, _("receiver %zu"), r + 1);
          goto out;
        }
      float *hybrid = to_float (joined, n);
      if (hybrid == NULL)
        {
          rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
          goto out;
        }
      if (cfg->write_parts)
        {
          out->ir_wave[r] = out->ir[r];
          out->ir_geometrical[r] = to_float (part, n);
          if (out->ir_geometrical[r] == NULL)
            {
              out->ir[r] = hybrid;
              rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
              goto out;
            }
        }
      else
        free (out->ir[r]);
      out->ir[r] = hybrid;
      free (part);
      free (wave);
      part = wave = NULL;
      /* a binaural or ambisonic receiver's channels, each joined alike;
       * its late part from the seed its omni IR's was synthesised from */
      if (sp->any && cfg->receiver_specs[r].type != RW_RECEIVER_OMNI
          && !spatial_join (cfg, sp, r, &ga[k], rw_ga_receiver_seed (batch_seed, k), out,
                            err))
        goto out;
      t_join += rw_clock_s () - t1;
      if (cancelled (cancel, err))
        goto out;
    }
  out->t_join_s = t_join;
  out->t_geometrical_s = rw_clock_s () - t0 - t_join;
  ok = true;

out:
  for (size_t j = 0; j < n_ga; j++)
    rw_ga_result_clear (&ga[j]);
  free (part);
  free (wave);
  free (joined);
  free (Y);
  free (scattering);
  rw_ga_scene_free (scene);
  return ok;
}

/* A point's stencil: on the whole grid (rw_grid_interp), or with ranks,
 * where no rank holds it, from the planes round the point
 * (rw_voxel_interp: the same stencil bit for bit). */
static bool
sim_interp (const RwSimConfig *cfg, const RwMesh *mesh, const RwGrid *view, const double p[3],
            const char *what, RwGridStencil *st, RwError *err)
{
  if (rw_comm_size (cfg->comm) > 1)
    return rw_voxel_interp (mesh, view->h, view->lattice, p, what, cfg->threads, st, err);
  return rw_grid_interp (view, p, what, st, err);
}

/* With ranks: the room's inside cells and boundary nodes, each rank's
 * owned planes' counts added up (every rank gets the sums). */
static bool
sim_slab_counts (const RwSimConfig *cfg, const RwSlab *slab, RwSimResult *out, RwError *err)
{
  const size_t n = (size_t) rw_comm_size (cfg->comm);
  size_t mine[2];
  mine[0] = rw_slab_owned_inside (slab, &mine[1]);
  size_t *all = malloc (2 * n * sizeof *all);
  if (all == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
  if (!rw_comm_allgather (cfg->comm, mine, sizeof mine, all, err))
    {
      free (all);
      return false;
    }
  out->n_inside = out->n_boundary = 0;
  for (size_t r = 0; r < n; r++)
    {
      out->n_inside += all[2 * r];
      out->n_boundary += all[2 * r + 1];
    }
  free (all);
  return true;
}

/* The solver's checkpoints (cfg->checkpoint_dir): continued from the
 * folder's when it holds one of this run, said on stderr (rw_warn). */
static bool
sim_checkpoint (const RwSimConfig *cfg, RwSolver *solver, RwError *err)
{
  bool resumed = false;
  if (!rw_solver_set_checkpoint (solver, cfg->checkpoint_dir, cfg->checkpoint_every_s,
                                 cfg->checkpoint_now, err)
      || !rw_solver_checkpoint_resume (solver, cfg->checkpoint_dir, &resumed, err))
    return false;
  if (resumed && rw_comm_rank (cfg->comm) == 0)
    rw_warn (_("continuing from the checkpoint in %s at step %zu"), cfg->checkpoint_dir,
             rw_solver_step (solver));
  return true;
}

/* A thread of a run's beside the main one, joined once. */
typedef struct {
  pthread_t thread;
  bool running;
} SimThread;

static void
sim_thread_start (SimThread *t, void *(*fn) (void *), void *data)
{
  t->running = pthread_create (&t->thread, NULL, fn, data) == 0;
}

/* Waits for it (a no-op when none runs, or once joined). */
static void
sim_thread_join (SimThread *t)
{
  if (t->running)
    pthread_join (t->thread, NULL);
  t->running = false;
}

/* The device's warm-up (RwBackendOps.warm_up): on a thread of its own
 * from the start of a run, joined before the solver's creation, so that
 * the CUDA context's creation (about 0.2 s on an H100, issue #14) runs
 * while the mesh is imported and voxelised instead of after. */
typedef struct {
  const RwBackendOps *ops;     /* NULL: nothing to warm (the CPU) */
  int device;                  /* cfg->device; with ranks, before the modulo */
  bool ranked;                 /* add the host-local rank, modulo the devices */
  int local_rank;
  SimThread th;
} SimWarm;

static void *
sim_warm_thread (void *data)
{
  SimWarm *w = data;
  /* the device rw_sim_solve gives the rank (setup.device) */
  w->ops->warm_up (w->ranked ? rw_backend_rank_device (w->ops, w->device, w->local_rank) : w->device);
  return NULL;
}

/* Starts the warm-up when the run will most likely take a backend that
 * has one: --backend cuda, or auto (the registry's first backend, a
 * device's when one is built in; whether it can run is the warm-up's to
 * find out, not this thread's: asking is what costs). Never for the CPU. */
static void
sim_warm_start (SimWarm *w, const RwSimConfig *cfg)
{
  memset (w, 0, sizeof *w);
  /* ROOMWAVE_WARM_UP=0: none (benchmarks: the overlap's worth,
   * docs/PERFORMANCE.md) */
  const char *env = getenv ("ROOMWAVE_WARM_UP");
  if (env != NULL && strcmp (env, "0") == 0)
    return;
  const RwBackendOps *ops = cfg->backend == RW_BACKEND_CUDA ? rw_backend_find ("cuda")
                            : cfg->backend == RW_BACKEND_AUTO ? rw_backend_at (0) : NULL;
  if (ops == NULL || ops->warm_up == NULL || cfg->device < 0)
    return;
  w->ops = ops;
  w->device = cfg->device;
  /* MPI is asked here, on the thread that started it, not on the warm-up's */
  w->ranked = rw_comm_size (cfg->comm) > 1;
  w->local_rank = w->ranked ? rw_comm_local_rank (cfg->comm) : 0;
  sim_thread_start (&w->th, sim_warm_thread, w);
}

/* The device given back (RwSimConfig.release_device) on a thread of its
 * own from the solve's end, while the IRs are post-processed, joined
 * before the solver is freed. */
typedef struct {
  RwSolver *solver;
  SimThread th;
} SimRelease;

static void *
sim_release_thread (void *data)
{
  rw_solver_release_device (((SimRelease *) data)->solver);
  return NULL;
}

/* ROOMWAVE_RELEASE=0: none (benchmarks: what the overlap is worth,
 * docs/PERFORMANCE.md); a thread that cannot start leaves the release to
 * the process's exit. */
static void
sim_release_start (SimRelease *r, const RwSimConfig *cfg, RwSolver *solver, bool ranked)
{
  const char *env = getenv ("ROOMWAVE_RELEASE");
  if (!cfg->release_device || ranked || (env != NULL && strcmp (env, "0") == 0))
    return;
  r->solver = solver;
  sim_thread_start (&r->th, sim_release_thread, r);
}

static bool sim_solve (const RwSimConfig *cfg, const RwMesh *mesh, const double *surface_R,
                       RwProgressFn progress, void *user_data, const atomic_int *cancel,
                       SimWarm *warm, RwSimResult *out, RwError *err);

/* rw_sim_solve's own warm-up overlaps the voxeliser alone (the caller
 * imported the mesh); rw_simulate_sources starts one before the import. */
bool
rw_sim_solve (const RwSimConfig *cfg, const RwMesh *mesh, const double *surface_R,
              RwProgressFn progress, void *user_data, const atomic_int *cancel,
              RwSimResult *out, RwError *err)
{
  SimWarm warm;
  sim_warm_start (&warm, cfg);
  const bool ok = sim_solve (cfg, mesh, surface_R, progress, user_data, cancel, &warm, out, err);
  sim_thread_join (&warm.th);
  return ok;
}

static bool
sim_solve (const RwSimConfig *cfg, const RwMesh *mesh, const double *surface_R,
           RwProgressFn progress, void *user_data, const atomic_int *cancel,
           SimWarm *warm, RwSimResult *out, RwError *err)
{
  bool ok = false;
  RwGrid *grid = NULL;
  /* Ranks (cfg->comm, more than one): each voxelises only its slab
   * (rw_slab_voxelise_ranks), and `view` is a grid of the lattice alone
   * (no arrays: cell centres, the interpolation's name); one rank: the
   * whole grid is both. */
  const bool ranked = rw_comm_size (cfg->comm) > 1;
  RwSlab slab;
  memset (&slab, 0, sizeof slab);
  size_t *cuts = NULL, total_inside = 0;
  RwGrid lat;
  memset (&lat, 0, sizeof lat);
  const RwGrid *view = NULL;
  RwSolver *solver = NULL;
  double *signal = NULL;
  RwAdmittance *surface_Y = NULL;
  size_t *solver_cells = NULL, n_solver_cells = 0;
  RwGridStencil source_st, *stencils = NULL;
  SimSpatial sp;
  memset (&sp, 0, sizeof sp);
  SimRelease release;
  memset (&release, 0, sizeof release);

  if (!rw_sim_check_settings (cfg, err))
    return false;
  if (surface_R == NULL)
    return rw_fail (err, RW_ERROR_INPUT, _("No reflection factors given for the surfaces"));
  if (!spatial_open (cfg, &sp, out, err))
    goto out;

  /* Grid: h from fmax and points per wavelength, fs from the Courant
   * number (rw-physics.h, docs/PHYSICS.md). */
  out->c = rw_speed_of_sound (cfg->temperature_c);
  out->fmax_hz = cfg->fmax_hz;
  out->scheme = rw_sim_resolve_scheme (cfg);
  const RwLattice lattice = rw_scheme_lattice (out->scheme);
  out->ppw = rw_sim_ppw (cfg);
  out->phase_error = rw_scheme_phase_error (lattice, out->ppw);
  out->spacing_m = rw_spacing_for_fmax (out->c, cfg->fmax_hz, out->ppw);
  out->fs_grid_hz = rw_scheme_grid_rate (lattice, out->c, out->spacing_m);
  out->fs_out_hz = cfg->fs_out_hz;
  double t0 = rw_clock_s ();
  if (ranked)
    {
      size_t n[3];
      cuts = calloc ((size_t) rw_comm_size (cfg->comm) + 1, sizeof *cuts);
      if (cuts == NULL)
        {
          rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
          goto out;
        }
      if (rw_voxel_lattice (mesh, out->spacing_m, lat.origin, n, err)
          && rw_slab_voxelise_ranks (mesh, out->spacing_m, lattice, cfg->comm, cfg->threads, cuts,
                                     &slab, err))
        {
          lat.lattice = lattice;
          lat.nx = n[0];
          lat.ny = n[1];
          lat.nz = n[2];
          lat.h = out->spacing_m;
          grid = slab.grid;
          view = &lat;
        }
    }
  else
    {
      grid = lattice == RW_LATTICE_FCC ? rw_voxelise_fcc (mesh, out->spacing_m, cfg->threads, err)
                                       : rw_voxelise (mesh, out->spacing_m, cfg->threads, err);
      view = grid;
    }
  if (grid == NULL)
    {
      if (err != NULL && cfg->mesh_path != NULL && strstr (err->message, cfg->mesh_path) == NULL)
        rw_fail_prefix (err, "%s", cfg->mesh_path);
      goto out;
    }
  out->t_voxelise_s = rw_clock_s () - t0;
  out->nx = view->nx;
  out->ny = view->ny;
  out->nz = view->nz;
  out->n_inside = grid->n_inside;
  out->n_boundary = grid->n_boundary;
  if (ranked && !sim_slab_counts (cfg, &slab, out, err))
    goto out;
  total_inside = out->n_inside;
  lat.n_inside = out->n_inside;
  out->grid_volume_m3 = rw_grid_air_volume_m3 (ranked ? &lat : grid);
  if (cancelled (cancel, err))
    goto out;

  /* Source and receivers: interpolated at the positions given
   * (rw_grid_interp: trilinear, or linear over the FCC lattice's
   * tetrahedra and octahedra; the soft source spread with the same
   * weights), their nearest cells, which must be inside, kept for the
   * spatial receivers' probes and results.json. */
  out->receiver_cells = calloc (cfg->n_receivers, sizeof (size_t));
  out->receivers_at = calloc (cfg->n_receivers, sizeof *out->receivers_at);
  stencils = calloc (cfg->n_receivers, sizeof *stencils);
  if (out->receiver_cells == NULL || out->receivers_at == NULL || stencils == NULL)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
      goto out;
    }
  if (!sim_interp (cfg, mesh, view, cfg->source, _("source"), &source_st, err))
    goto out;
  out->source_cell = source_st.nearest;
  snprintf (out->interpolation, sizeof out->interpolation, "%s", rw_grid_interp_name (view));
  cell_centre (view, out->source_cell, out->source_at);
  for (size_t r = 0; r < cfg->n_receivers; r++)
    {
      char what[64];
      snprintf (what, sizeof what, _("receiver %zu"), r + 1);
      if (!sim_interp (cfg, mesh, view, cfg->receivers[r], what, &stencils[r], err))
        goto out;
      out->receiver_cells[r] = stencils[r].nearest;
      cell_centre (view, out->receiver_cells[r], out->receivers_at[r]);
      if (out->receiver_cells[r] == out->source_cell && cfg->hybrid)
        {
          rw_fail (err, RW_ERROR_INPUT,
                   _("receiver %zu at (%.3f, %.3f, %.3f) m falls in the source's grid cell (cells "
                     "%.3f m wide): the geometrical part needs the receiver away from the source; "
                     "move it, or use the wave part alone (no hybrid)"),
                   r + 1, cfg->receivers[r][0], cfg->receivers[r][1], cfg->receivers[r][2], grid->h);
          goto out;
        }
      if (out->receiver_cells[r] == out->source_cell)
        rw_sim_warn (out, _("receiver %zu at (%.3f, %.3f, %.3f) m falls in the source's grid cell "
                            "(source at (%.3f, %.3f, %.3f) m, cells %.3f m wide): its response starts "
                            "with the source signal itself"),
                     r + 1, cfg->receivers[r][0], cfg->receivers[r][1], cfg->receivers[r][2],
                     cfg->source[0], cfg->source[1], cfg->source[2], grid->h);
    }

  /* the solver's receivers: the user's, then the spatial receivers'
   * probe cells */
  solver_cells = malloc (cfg->n_receivers * sizeof *solver_cells);
  if (solver_cells == NULL)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
      goto out;
    }
  memcpy (solver_cells, out->receiver_cells, cfg->n_receivers * sizeof *solver_cells);
  n_solver_cells = cfg->n_receivers;
  if (!spatial_probes (cfg, mesh, view, ranked, stencils, &sp, out, &solver_cells, &n_solver_cells,
                       err))
    goto out;
  /* the probes' cells as one-cell stencils after the user's receivers */
  if (n_solver_cells > cfg->n_receivers)
    {
      RwGridStencil *grown = realloc (stencils, n_solver_cells * sizeof *grown);
      if (grown == NULL)
        {
          rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
          goto out;
        }
      stencils = grown;
      for (size_t i = cfg->n_receivers; i < n_solver_cells; i++)
        stencils[i] = (RwGridStencil) { .n = 1, .cell = { solver_cells[i] },
                                        .weight = { 1.0 }, .nearest = solver_cells[i] };
    }

  /* fp16 storage rounds every stored value to 2⁻¹¹ of itself, which the
   * scheme's low frequencies (carried in a small difference of large
   * numbers) do not survive for long: measured on an H100 (docs/SOLVER.md
   * §3), the plaster box follows fp64 for the first 25–35 dB of its decay
   * and then levels off near −50 dB. Say so with every such result. */
  if (cfg->precision == RW_PRECISION_F16)
    rw_sim_warn (out, _("fp16 storage is for speed and the early part of the response only: its "
                        "IRs follow fp32 for the first 25–35 dB of the decay and then level off "
                        "near −50 dB, so do not read T30 from them; use fp32 (the default) or fp64"));

  /* Solve: a unit soft impulse at step 0 (rw-postprocess.h explains its
   * time origin and the calibration that undoes its amplitude). */
  out->n_steps = (size_t) ceil (cfg->duration_s * out->fs_grid_hz);
  /* A few more steps than the IR needs, so that the end of the IR is not
   * the end of the filtered signal (rw_postprocess_tail_steps). */
  out->n_steps_run = out->n_steps + rw_postprocess_tail_steps (out->fs_grid_hz, cfg->fmax_hz);
  signal = calloc (out->n_steps_run, sizeof (double));
  if (signal == NULL)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("Out of memory for a source signal of %zu steps"), out->n_steps_run);
      goto out;
    }
  signal[0] = RW_SIM_SOURCE_AMPLITUDE;
  /* the surfaces' admittances (frequency dependent where fitted) for the
   * FV boundary; LRS and Savioja take surface_R and say so */
  if (out->surface_models != NULL)
    {
      surface_Y = malloc ((mesh->n_surfaces ? mesh->n_surfaces : 1) * sizeof (RwAdmittance));
      if (surface_Y == NULL)
        {
          rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
          goto out;
        }
      size_t n_fd = 0;
      for (size_t s = 0; s < mesh->n_surfaces; s++)
        {
          surface_Y[s] = out->surface_models[s].Y;
          n_fd += rw_admittance_is_frequency_dependent (&surface_Y[s]);
        }
      if (n_fd > 0 && cfg->boundary != RW_BOUNDARY_FV)
        rw_sim_warn (out, _("the %s boundary is frequency independent: %zu surface(s) with "
                            "frequency-dependent materials take one reflection factor each (from "
                            "their mean α up to fmax); use the FV boundary (the default) for "
                            "absorption per band"), rw_boundary_name (cfg->boundary), n_fd);
    }
  RwSolverSetup setup = {
    .grid = grid,
    .surface_R = surface_R,
    .surface_Y = surface_Y,
    .time_step_s = 1.0 / out->fs_grid_hz,
    .boundary = cfg->boundary,
    .precision = cfg->precision,
    .n_steps = out->n_steps_run,
    .source_cell = out->source_cell,
    .source_stencil = &source_st,
    .source_kind = RW_SOURCE_SOFT,
    .source_signal = signal,
    .n_receivers = n_solver_cells,
    .receiver_cells = solver_cells,
    .receiver_stencils = stencils,
    .threads = cfg->threads,
    .device = cfg->device,
    .comm = cfg->comm,
  };
  RwSlabRef slab_ref = { .slab = &slab, .cuts = cuts };
  if (ranked)
    setup.slab = &slab_ref;
  /* setup_s: from here to the solve's start — the warm-up's remainder
   * when the voxeliser finished first, and the solver's creation (on
   * CUDA the grid's tables built on the host and copied to the device) */
  const double t_setup = rw_clock_s ();
  sim_thread_join (&warm->th);
  out->ranks = rw_comm_size (cfg->comm);
  if (out->ranks > 1)
    {
      const RwBackendOps *ops = rw_backend_choose (cfg->backend, cfg->precision, err);
      if (ops == NULL)
        goto out;
      setup.device = rw_backend_rank_device (ops, cfg->device, rw_comm_local_rank (cfg->comm));
    }
  solver = rw_solver_new (&setup, cfg->backend, err);
  if (solver == NULL || (cfg->checkpoint_dir != NULL && !sim_checkpoint (cfg, solver, err)))
    goto out;
  const size_t step0 = rw_solver_step (solver);
  snprintf (out->backend, sizeof out->backend, "%s", rw_solver_backend_name (solver));
  snprintf (out->device, sizeof out->device, "%s", rw_solver_device_name (solver));
  t0 = rw_clock_s ();
  out->t_setup_s = t0 - t_setup;
  if (!rw_solver_run (solver, progress, user_data, cancel, err))
    goto out;
  out->t_solve_s = rw_clock_s () - t0;
  out->mvox_per_s = out->t_solve_s > 0
                    ? (double) total_inside * (double) (out->n_steps_run - step0) / out->t_solve_s / 1e6 : 0.0;
  /* every rank holds the receivers now; rank 0 alone makes the IRs */
  if (rw_comm_rank (cfg->comm) != 0)
    {
      ok = true;
      goto out;
    }
  /* the process's last solve: its device goes back beside the
   * post-processing, which reads only what the solve recorded */
  sim_release_start (&release, cfg, solver, ranked);

  /* Post-process every receiver. Air absorption comes last: it needs the
   * IR in physical time from the emission (the calibrated output, sample
   * m at m / fs_out), and its octave bands need the output rate, not the
   * grid's, whose upper half is cut by the low-pass anyway (rw-air.h). */
  t0 = rw_clock_s ();
  out->air_absorption = cfg->air_absorption;
  if (cfg->air_absorption
      && !rw_air_bands (cfg->temperature_c, cfg->humidity_pct, RW_AIR_PRESSURE_KPA, cfg->fs_out_hz,
                        &out->air, err))
    goto out;
  RwPostprocess pp;
  rw_postprocess_init (&pp, out->fs_grid_hz, cfg->fmax_hz, out->spacing_m);
  pp.fs_out_hz = cfg->fs_out_hz;
  pp.source_amplitude = RW_SIM_SOURCE_AMPLITUDE;
  out->ir = calloc (cfg->n_receivers, sizeof (float *));
  if (out->ir == NULL)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
      goto out;
    }
  out->n_receivers = cfg->n_receivers;
  for (size_t r = 0; r < cfg->n_receivers; r++)
    {
      size_t frames = 0;
      /* The drift model's N and G are the room's; only the arrival
       * differs between receivers (one pass over the grid, not one each). */
      if (r == 0)
        {
          /* the uniform mode as measured (replaces the model) */
          pp.drift_count = rw_solver_uniform_mode (solver, &pp.drift_steps, &pp.drift_sums);
          rw_postprocess_set_room (&pp, grid, surface_R, cfg->boundary, out->source_cell,
                                   out->receiver_cells[r]);
          /* a slab's grid: N is the whole room's (the measured drift is
           * all the ranks' sums; rw_solver_run always measures it) */
          if (ranked)
            {
              pp.drift_cells = pp.drift_count >= 2 ? (double) total_inside : 0.0;
              pp.drift_damping = 0.0;
            }
        }
      /* the positions as given: what the interpolated source and
       * receiver simulate */
      pp.arrival_s = rw_sim_distance (cfg->source, cfg->receivers[r]) / out->c;
      if (!rw_postprocess (&pp, rw_solver_receiver (solver, r), rw_solver_step (solver),
                           &out->ir[r], &frames, err))
        {
          rw_fail_prefix (err, _("receiver %zu"), r + 1);
          goto out;
        }
      if (cfg->air_absorption && !rw_air_absorption_apply (&out->air, out->ir[r], frames, cfg->fs_out_hz, err))
        {
          rw_fail_prefix (err, _("receiver %zu"), r + 1);
          goto out;
        }
      /* rw_postprocess left out the tail steps: what remains is the
       * requested duration, round (n_steps · fs_out / fs) samples. */
      out->ir_frames = frames;
      if (sp.any && cfg->receiver_specs[r].type != RW_RECEIVER_OMNI
          && !spatial_wave (cfg, solver, &pp, &sp, r, out, err))
        goto out;
      if (cancelled (cancel, err))
        goto out;
    }
  out->t_postprocess_s = rw_clock_s () - t0;
  if (cfg->hybrid
      && !sim_geometrical (cfg, mesh, surface_R, &sp, progress, user_data, cancel, out, err))
    goto out;
  ok = true;

out:
  sim_thread_join (&release.th);
  spatial_clear (&sp);
  free (solver_cells);
  free (stencils);
  free (signal);
  free (surface_Y);
  rw_solver_free (solver);
  if (ranked)
    rw_slab_clear (&slab);
  else
    rw_grid_free (grid);
  free (cuts);
  return ok;
}

/* Copies the surface fields of `from` (the import's) into `to`. */
/* What the import found and put right: inward normals (flipped), shells
 * that overlap (the room is their union). */
static void
import_warnings (RwMesh *mesh, RwMeshReport *report, RwSimResult *res)
{
  if (rw_mesh_orient_outward (mesh, report))
    rw_sim_warn (res, _("%s: the normals pointed into the room (negative volume); they were flipped"),
                 mesh->path ? mesh->path : _("(mesh)"));
  if (report->overlap_volume_m3 > 0)
    rw_sim_warn (res, _("%s: closed shells overlap (%.3f m³ lies inside two or more, %zu surfaces inside "
                        "another shell): the room is taken as their union, %.3f m³"),
                 mesh->path ? mesh->path : _("(mesh)"), report->overlap_volume_m3, report->n_overlap_surfaces,
                 fabs (report->volume_m3));
}

static bool
copy_surfaces (RwSimResult *to, const RwSimResult *from, RwError *err)
{
  const size_t n = from->n_surfaces;
  to->n_surfaces = n;
  to->mesh_volume_m3 = from->mesh_volume_m3;
  to->t_import_s = from->t_import_s;
  to->n_warnings = from->n_warnings;
  memcpy (to->warnings, from->warnings, sizeof to->warnings);
  to->surface_R = malloc ((n ? n : 1) * sizeof (double));
  to->surface_names = calloc (n ? n : 1, sizeof (char *));
  to->surface_materials = from->surface_materials ? calloc (n ? n : 1, sizeof (char *)) : NULL;
  to->surface_models = from->surface_models ? malloc ((n ? n : 1) * sizeof (RwSurfaceModel)) : NULL;
  bool ok = to->surface_R && to->surface_names && (to->surface_materials || !from->surface_materials)
            && (to->surface_models || !from->surface_models);
  if (ok && from->surface_models)
    memcpy (to->surface_models, from->surface_models, n * sizeof (RwSurfaceModel));
  for (size_t i = 0; ok && i < n; i++)
    {
      to->surface_R[i] = from->surface_R[i];
      ok = (to->surface_names[i] = strdup (from->surface_names[i])) != NULL;
      if (ok && from->surface_materials && from->surface_materials[i])
        ok = (to->surface_materials[i] = strdup (from->surface_materials[i])) != NULL;
    }
  return ok || rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
}

bool
rw_simulate_sources (const RwSimConfig *cfg, const double (*sources)[3], size_t n_sources,
                     RwProgressFn progress, void *user_data, const atomic_int *cancel,
                     RwSimSourceDoneFn done, void *done_data, RwError *err)
{
  if (cfg->mesh_path == NULL || cfg->mesh_path[0] == '\0')
    return rw_fail (err, RW_ERROR_INPUT, _("No mesh file given"));
  if (!isfinite (cfg->scale) || cfg->scale <= 0)
    return rw_fail (err, RW_ERROR_INPUT, _("Scale %g: must be a positive number"), cfg->scale);
  if (!rw_sim_check_settings (cfg, err))
    return false;

  const double t_start = rw_clock_s ();
  /* the device's warm-up overlaps the import and the first voxeliser */
  SimWarm warm;
  sim_warm_start (&warm, cfg);
  bool ok = false;
  RwMesh *mesh = NULL;
  RwMaterialLibrary *lib = NULL;
  char **materials = NULL;
  RwMeshReport report;
  memset (&report, 0, sizeof report);
  RwSimResult imported;   /* the surface fields every source's result copies */
  memset (&imported, 0, sizeof imported);
  const char *path = cfg->mesh_path;

  /* Import: mesh, leak check, materials. */
  mesh = rw_mesh_load (path, cfg->scale, err);
  if (mesh == NULL)
    goto out;
  if (!rw_mesh_report (mesh, &report, err)
      || !rw_mesh_report_check_closed (mesh, &report, err))
    goto out;
  import_warnings (mesh, &report, &imported);
  if (cancelled (cancel, err))
    goto out;
  /* The library is only consulted when no uniform R is given; a broken
   * bundled library must not stop a --reflection run. */
  if (isnan (cfg->uniform_R))
    {
      lib = rw_materials_load (NULL, err);
      if (lib == NULL)
        goto out;
    }
  imported.n_surfaces = mesh->n_surfaces;
  imported.surface_R = calloc (mesh->n_surfaces ? mesh->n_surfaces : 1, sizeof (double));
  imported.surface_names = calloc (mesh->n_surfaces ? mesh->n_surfaces : 1, sizeof (char *));
  imported.surface_models = calloc (mesh->n_surfaces ? mesh->n_surfaces : 1, sizeof (RwSurfaceModel));
  if (imported.surface_R == NULL || imported.surface_names == NULL || imported.surface_models == NULL)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
      goto out;
    }
  /* A full-band run fits every surface over all eight bands: its
   * geometrical part needs the admittance up to 8 kHz, and both parts
   * must run the same model (rw-ga.h). */
  if (!rw_materials_assign_models (lib, mesh, cfg->materials_map, cfg->uniform_R, cfg->fmax_hz,
                                   cfg->hybrid ? RW_N_OCTAVES : 0,
                                   imported.surface_R, imported.surface_models, &materials, err))
    goto out;
  imported.surface_materials = materials;
  materials = NULL;
  for (size_t i = 0; i < mesh->n_surfaces; i++)
    if ((imported.surface_names[i] = strdup (mesh->surface_names[i])) == NULL)
      {
        rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
        goto out;
      }
  imported.mesh_volume_m3 = report.volume_m3;
  imported.t_import_s = rw_clock_s () - t_start;

  ok = true;
  for (size_t s = 0; ok && s < n_sources; s++)
    {
      const double t_source = rw_clock_s ();
      RwSimConfig one = *cfg;
      memcpy (one.source, sources[s], sizeof one.source);
      one.release_device = cfg->release_device && s + 1 == n_sources;
      /* each source's checkpoints in a folder of their own */
      char ckpt[4096];
      if (cfg->checkpoint_dir != NULL && n_sources > 1)
        {
          char name[32];
          rw_sim_source_dir_name (s, name, sizeof name);
          snprintf (ckpt, sizeof ckpt, "%s/%s", cfg->checkpoint_dir, name);
          one.checkpoint_dir = ckpt;
        }
      RwSimResult res;
      memset (&res, 0, sizeof res);
      ok = copy_surfaces (&res, &imported, err)
           && sim_solve (&one, mesh, res.surface_R, progress, user_data, cancel, &warm, &res, err);
      if (ok)
        {
          res.t_total_s = imported.t_import_s + (rw_clock_s () - t_source);
          ok = done (s, sources[s], &res, done_data, err);
        }
      else if (n_sources > 1 && err != NULL && err->code != RW_ERROR_CANCELLED)
        rw_fail_prefix (err, _("source %zu"), s + 1);
      rw_sim_result_clear (&res);
    }

out:
  sim_thread_join (&warm.th);
  rw_sim_result_clear (&imported);
  rw_mesh_report_clear (&report);
  rw_materials_free (lib);
  rw_mesh_free (mesh);
  return ok;
}

/* rw_simulate's `done`: the one result moves to the caller. */
static bool
keep_result (size_t source, const double position[3], RwSimResult *result, void *user_data,
             RwError *err)
{
  (void) source, (void) position, (void) err;
  RwSimResult *out = user_data;
  *out = *result;
  memset (result, 0, sizeof *result);
  return true;
}

bool
rw_simulate (const RwSimConfig *cfg, RwProgressFn progress, void *user_data,
             const atomic_int *cancel, RwSimResult *out, RwError *err)
{
  memset (out, 0, sizeof *out);
  const double (*one)[3] = (const double (*)[3]) &cfg->source;
  if (rw_simulate_sources (cfg, one, 1, progress, user_data, cancel, keep_result, out, err))
    return true;
  rw_sim_result_clear (out);
  return false;
}

bool
rw_sim_write_outputs (const RwSimConfig *cfg, RwSimResult *res,
                      const char *out_dir, RwError *err)
{
  if (out_dir == NULL || out_dir[0] == '\0')
    return rw_fail (err, RW_ERROR_INPUT, _("No output folder given"));
  if (res->ir == NULL || res->n_receivers == 0 || res->ir_frames == 0 || res->receivers_at == NULL
      || res->receiver_cells == NULL || res->n_receivers != cfg->n_receivers)
    return rw_fail (err, RW_ERROR_INPUT, _("%s: no impulse responses to write"), out_dir);
  if (!rw_file_make_dir (out_dir, _("the output folder"), err))
    return false;

  size_t len = strlen (out_dir) + 64;
  char *path = malloc (len);
  if (path == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
  const double t_write = rw_clock_s ();
  /* the IRs, and the parts when kept (0: the IR, 1: wave, 2: geometrical) */
  for (int kind = 0; kind < 3; kind++)
    for (size_t r = 0; r < res->n_receivers; r++)
      {
        float *const *irs = kind == 0 ? res->ir : kind == 1 ? res->ir_wave : res->ir_geometrical;
        if (irs == NULL || (kind > 0 && !cfg->write_parts))
          break;
        char name[64];
        if (kind == 0)
          rw_sim_output_name (r, name, sizeof name);
        else
          rw_sim_part_name (r, kind == 2, name, sizeof name);
        snprintf (path, len, "%s/%s", out_dir, name);
        RwAudio a = {
          .data = irs[r],
          .frames = res->ir_frames,
          .channels = 1,
          .rate_hz = res->fs_out_hz,
        };
        if (!rw_audio_write (path, &a, err))
          {
            free (path);
            return false;
          }
      }
  /* the spatial receivers' files: interleaved from the planar channels */
  for (size_t r = 0; res->ir_ambi != NULL && r < res->n_receivers; r++)
    for (int kind = 0; kind < 2; kind++)
      {
        const RwReceiverSpec *spec = &cfg->receiver_specs[r];
        const float *planar = kind == 0 ? (res->ir_binaural ? res->ir_binaural[r] : NULL)
                                        : res->ir_ambi[r];
        if (planar == NULL || spec->type == RW_RECEIVER_OMNI)
          continue;
        const size_t nch = kind == 0 ? 2 : (size_t) RW_AMBI_CHANNELS (rw_receiver_ambi_order (spec));
        char name[64];
        if (kind == 0)
          rw_receiver_binaural_name (r, name, sizeof name);
        else
          rw_receiver_ambix_name (r, name, sizeof name);
        snprintf (path, len, "%s/%s", out_dir, name);
        float *x = malloc (nch * res->ir_frames * sizeof *x);
        if (x == NULL)
          {
            free (path);
            return rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
          }
        for (size_t i = 0; i < res->ir_frames; i++)
          for (size_t c = 0; c < nch; c++)
            x[i * nch + c] = planar[c * res->ir_frames + i];
        RwAudio a = { .data = x, .frames = res->ir_frames, .channels = (int) nch,
                      .rate_hz = res->fs_out_hz };
        bool written = rw_audio_write (path, &a, err);
        free (x);
        if (!written)
          {
            free (path);
            return false;
          }
      }
  res->t_write_s = rw_clock_s () - t_write;
  char *json = rw_results_json (cfg, res);
  snprintf (path, len, "%s/%s", out_dir, RW_RESULTS_FILE);
  bool ok = json != NULL && rw_file_write_atomic (path, json, strlen (json), err);
  if (json == NULL)
    rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
  free (json);
  free (path);
  return ok;
}

void
rw_sim_source_dir_name (size_t s, char *buf, size_t len)
{
  snprintf (buf, len, "source-%zu", s + 1);
}

/* name is "<prefix><digits><suffix>", N ≥ 1, optionally followed by the
 * ".tmp-XXXXXX" of an atomic write a crash left behind. */
static bool
numbered (const char *name, const char *prefix, const char *suffix)
{
  const size_t np = strlen (prefix), ns = strlen (suffix);
  if (strncmp (name, prefix, np) != 0 || name[np] < '1' || name[np] > '9')
    return false;
  const char *p = name + np;
  while (*p >= '0' && *p <= '9')
    p++;
  return strncmp (p, suffix, ns) == 0 && (p[ns] == '\0' || strncmp (p + ns, ".tmp-", 5) == 0);
}

/* What a run writes into one folder: results.json, receiver-N.wav,
 * receiver-N-binaural.wav and receiver-N-ambix.wav, and the parts
 * wave-N.wav and geometrical-N.wav. */
static bool
run_file (const char *name)
{
  return strcmp (name, "results.json") == 0 || strncmp (name, "results.json.tmp-", 17) == 0
         || numbered (name, "receiver-", ".wav") || numbered (name, "receiver-", "-binaural.wav")
         || numbered (name, "receiver-", "-ambix.wav") || numbered (name, "wave-", ".wav")
         || numbered (name, "geometrical-", ".wav");
}

static bool
sim_output_entry (const char *rel_path, bool is_dir, void *data)
{
  (void) data;
  const char *slash = strchr (rel_path, '/');
  if (slash == NULL)
    return is_dir ? numbered (rel_path, "source-", "") && strchr (rel_path, '.') == NULL
                  : run_file (rel_path);
  /* source-N/…: files only, one level */
  return !is_dir && strchr (slash + 1, '/') == NULL && run_file (slash + 1);
}

bool
rw_sim_out_open (RwStagedDir *sd, const RwSimConfig *cfg, const char *out_dir, RwError *err)
{
  const char *inputs[] = { cfg->mesh_path, cfg->materials_map, cfg->hrtf_path };
  return rw_staged_dir_open (sd, out_dir, inputs, 3, sim_output_entry, NULL, err);
}
