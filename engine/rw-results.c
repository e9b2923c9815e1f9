/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-results.c — the results folder's JSON, written and read back (see
 * rw-results.h; every field is listed in docs/RESULTS.md). */
#include "rw-results.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rw-ambisonics.h"
#include "rw-audio.h"
#include "rw-config.h"
#include "rw-i18n.h"
#include "rw-ism.h"
#include "rw-json.h"
#include "rw-physics.h"
#include "rw-postprocess.h"
#include "rw-rays.h"

/* settings.air_absorption: whether it was applied, and its bands. */
static json_object *
air_json (const RwSimResult *res)
{
  json_object *air = json_object_new_object ();
  json_object_object_add (air, "enabled", json_object_new_boolean (res->air_absorption));
  json_object_object_add (air, "standard", json_object_new_string ("ISO 9613-1"));
  json_object_object_add (air, "pressure_kpa", rw_json_number (RW_AIR_PRESSURE_KPA));
  json_object *bands = json_object_new_array ();
  for (size_t b = 0; res->air_absorption && b < res->air.n_bands; b++)
    {
      json_object *o = json_object_new_object ();
      json_object_object_add (o, "centre_hz", rw_json_number (res->air.nominal_hz[b]));
      json_object_object_add (o, "exact_centre_hz", rw_json_number (res->air.centre_hz[b]));
      json_object_object_add (o, "alpha_db_per_m", rw_json_number (res->air.alpha_db_per_m[b]));
      json_object_array_add (bands, o);
    }
  json_object_object_add (air, "bands", bands);
  return air;
}

/* The hybrid object (2.3): what the full-band IR was made of. */
static json_object *
hybrid_json (const RwSimConfig *cfg, const RwSimResult *res)
{
  json_object *h = json_object_new_object ();
  json_object_object_add (h, "crossover_hz", rw_json_number (res->crossover_hz));
  double band[2];
  rw_hybrid_transition (res->crossover_hz, band);
  json_object_object_add (h, "transition_hz", rw_json_numbers (band, 2));
  json_object_object_add (h, "filter",
                          json_object_new_string ("complementary: Kaiser-windowed sinc low-pass, "
                                                  "linear phase applied zero-phase, 60 dB; "
                                                  "high-pass = 1 - low-pass"));
  json_object_object_add (h, "fit_bands", json_object_new_int (res->fit_bands));
  json_object *bands = json_object_new_array ();
  for (int b = 0; b < RW_N_OCTAVES; b++)
    {
      json_object *o = json_object_new_object ();
      json_object_object_add (o, "centre_hz", rw_json_number (rw_octave_centres_hz[b]));
      json_object_object_add (o, "method", json_object_new_string (rw_hybrid_method_name (res->band_method[b])));
      json_object_array_add (bands, o);
    }
  json_object_object_add (h, "bands", bands);
  json_object *g = json_object_new_object ();
  json_object_object_add (g, "method", json_object_new_string ("image sources + stochastic rays"));
  json_object_object_add (g, "receiver_radius_m", rw_json_number (res->ga_receiver_radius_m));
  json_object_object_add (g, "image_source_arrivals", json_object_new_int64 ((int64_t) res->ga_image_sources));
  json_object_object_add (g, "rays_lost", json_object_new_int64 ((int64_t) res->ga_rays_lost));
  json_object_object_add (h, "geometrical", g);
  if (cfg->write_parts && res->ir_wave != NULL)
    {
      json_object *w = json_object_new_array (), *ge = json_object_new_array ();
      for (size_t r = 0; r < res->n_receivers; r++)
        {
          char name[64];
          rw_sim_part_name (r, false, name, sizeof name);
          json_object_array_add (w, json_object_new_string (name));
          rw_sim_part_name (r, true, name, sizeof name);
          json_object_array_add (ge, json_object_new_string (name));
        }
      json_object_object_add (h, "outputs_wave", w);
      json_object_object_add (h, "outputs_geometrical", ge);
    }
  return h;
}

char *
rw_results_json (const RwSimConfig *cfg, const RwSimResult *res)
{
  json_object *root = json_object_new_object ();
  json_object_object_add (root, "format", json_object_new_string (RW_RESULTS_FORMAT));
  json_object_object_add (root, "version", json_object_new_int (RW_RESULTS_VERSION));
  json_object_object_add (root, "version_minor", json_object_new_int (RW_RESULTS_VERSION_MINOR));
  json_object_object_add (root, "roomwave_version", json_object_new_string (RW_VERSION));
  json_object_object_add (root, "mesh_file", json_object_new_string (cfg->mesh_path ? cfg->mesh_path : ""));

  json_object *set = json_object_new_object ();
  json_object_object_add (set, "fmax_hz", rw_json_number (cfg->fmax_hz));
  json_object_object_add (set, "ppw", rw_json_number (res->ppw > 0 ? res->ppw : rw_sim_ppw (cfg)));
  json_object_object_add (set, "scheme", json_object_new_string (rw_scheme_name (res->scheme)));
  json_object_object_add (set, "scheme_requested", json_object_new_string (rw_scheme_name (cfg->scheme)));
  json_object_object_add (set, "duration_s", rw_json_number (cfg->duration_s));
  json_object_object_add (set, "temperature_c", rw_json_number (cfg->temperature_c));
  json_object_object_add (set, "c_m_per_s", rw_json_number (res->c));
  json_object_object_add (set, "humidity_pct", rw_json_number (cfg->humidity_pct));
  json_object_object_add (set, "air_absorption", air_json (res));
  json_object_object_add (set, "scale", rw_json_number (cfg->scale));
  json_object_object_add (set, "boundary", json_object_new_string (rw_boundary_name (cfg->boundary)));
  json_object_object_add (set, "reflection",
                          rw_json_number (cfg->uniform_R));
  json_object_object_add (set, "materials_map",
                          cfg->materials_map ? json_object_new_string (cfg->materials_map) : NULL);
  json_object_object_add (set, "backend_requested",
                          json_object_new_string (rw_backend_kind_name (cfg->backend)));
  json_object_object_add (set, "backend_used", json_object_new_string (res->backend));
  json_object_object_add (set, "device", json_object_new_string (res->device));
  json_object_object_add (set, "ranks", json_object_new_int (res->ranks > 1 ? res->ranks : 1));
  json_object_object_add (set, "precision", json_object_new_string (rw_precision_name (cfg->precision)));
  json_object *src = json_object_new_object ();
  json_object_object_add (src, "position_m", rw_json_vec3 (cfg->source));
  json_object_object_add (src, "cell_centre_m", rw_json_vec3 (res->source_at));
  json_object_object_add (src, "cell_index", json_object_new_int64 ((int64_t) res->source_cell));
  json_object_object_add (src, "kind", json_object_new_string ("soft impulse"));
  json_object_object_add (set, "source", src);
  json_object_object_add (set, "interpolation", json_object_new_string (res->interpolation));
  json_object *rcvs = json_object_new_array ();
  for (size_t r = 0; r < cfg->n_receivers; r++)
    {
      json_object *o = json_object_new_object ();
      json_object_object_add (o, "position_m", rw_json_vec3 (cfg->receivers[r]));
      if (res->receivers_at != NULL)
        {
          json_object_object_add (o, "cell_centre_m", rw_json_vec3 (res->receivers_at[r]));
          if (res->receiver_cells != NULL)
            json_object_object_add (o, "cell_index", json_object_new_int64 ((int64_t) res->receiver_cells[r]));
          json_object_object_add (o, "distance_m",
                                  rw_json_number (rw_sim_distance (cfg->source, cfg->receivers[r])));
        }
      /* 2.4: what it records (rw-receiver.h) and its spatial files */
      const RwReceiverSpec *spec = &cfg->receiver_specs[r];
      json_object_object_add (o, "type", json_object_new_string (rw_receiver_type_name (spec->type)));
      if (spec->type != RW_RECEIVER_OMNI)
        {
          char name[64];
          json_object_object_add (o, "yaw_deg", rw_json_number (spec->yaw_deg));
          json_object_object_add (o, "pitch_deg", rw_json_number (spec->pitch_deg));
          json_object_object_add (o, "ambisonic_order", json_object_new_int (rw_receiver_ambi_order (spec)));
          json_object_object_add (o, "wave_ambisonic_order",
                                  json_object_new_int (res->wave_ambi_order ? res->wave_ambi_order[r] : 0));
          rw_receiver_ambix_name (r, name, sizeof name);
          json_object_object_add (o, "ambix_file", json_object_new_string (name));
          if (spec->type == RW_RECEIVER_BINAURAL)
            {
              rw_receiver_binaural_name (r, name, sizeof name);
              json_object_object_add (o, "binaural_file", json_object_new_string (name));
            }
        }
      json_object_array_add (rcvs, o);
    }
  json_object_object_add (set, "receivers", rcvs);
  if (res->hrtf_path[0] != '\0')
    {
      json_object *h = json_object_new_object ();
      json_object_object_add (h, "file", json_object_new_string (res->hrtf_path));
      json_object_object_add (h, "directions", json_object_new_int64 ((int64_t) res->hrtf_directions));
      json_object_object_add (set, "hrtf", h);
    }
  json_object *hyb = json_object_new_object ();
  json_object_object_add (hyb, "enabled", json_object_new_boolean (res->hybrid));
  json_object_object_add (hyb, "crossover_hz",
                          cfg->crossover_hz > 0 ? rw_json_number (cfg->crossover_hz) : NULL);
  json_object_object_add (hyb, "rays", json_object_new_int64 ((int64_t) cfg->n_rays));
  json_object_object_add (hyb, "ism_order", json_object_new_int (cfg->ism_order));
  json_object_object_add (hyb, "seed", json_object_new_uint64 (cfg->seed));
  json_object_object_add (hyb, "write_parts", json_object_new_boolean (cfg->write_parts));
  json_object_object_add (set, "hybrid", hyb);
  json_object_object_add (root, "settings", set);

  json_object_object_add (root, "fs_grid_hz", rw_json_number (res->fs_grid_hz));
  json_object_object_add (root, "fs_out_hz", rw_json_number (res->fs_out_hz));
  json_object_object_add (root, "spacing_m", rw_json_number (res->spacing_m));
  json_object_object_add (root, "courant",
                          rw_json_number (rw_scheme_courant (rw_scheme_lattice (res->scheme))));
  /* the scheme's worst-direction phase-velocity error at fmax (docs/SOLVER.md §9) */
  json_object *disp = json_object_new_object ();
  json_object_object_add (disp, "worst_direction",
                          json_object_new_string (res->scheme == RW_SCHEME_FCC ? "body diagonal" : "axis"));
  json_object_object_add (disp, "phase_velocity_error_at_fmax", rw_json_number (res->phase_error));
  json_object_object_add (root, "dispersion", disp);
  json_object_object_add (root, "n_steps", json_object_new_int64 ((int64_t) res->n_steps));
  json_object_object_add (root, "n_steps_run", json_object_new_int64 ((int64_t) res->n_steps_run));
  json_object *grid = json_object_new_object ();
  json_object_object_add (grid, "nx", json_object_new_int64 ((int64_t) res->nx));
  json_object_object_add (grid, "ny", json_object_new_int64 ((int64_t) res->ny));
  json_object_object_add (grid, "nz", json_object_new_int64 ((int64_t) res->nz));
  json_object_object_add (root, "grid", grid);
  json_object *cells = json_object_new_object ();
  json_object_object_add (cells, "inside", json_object_new_int64 ((int64_t) res->n_inside));
  json_object_object_add (cells, "boundary", json_object_new_int64 ((int64_t) res->n_boundary));
  json_object_object_add (root, "cells", cells);
  json_object *vol = json_object_new_object ();
  json_object_object_add (vol, "mesh_m3", rw_json_number (res->mesh_volume_m3));
  json_object_object_add (vol, "grid_m3", rw_json_number (res->grid_volume_m3));
  json_object_object_add (root, "volumes", vol);

  json_object *surf = json_object_new_array ();
  for (size_t i = 0; i < res->n_surfaces; i++)
    {
      json_object *o = json_object_new_object ();
      json_object_object_add (o, "name", json_object_new_string (res->surface_names[i] ? res->surface_names[i] : ""));
      json_object_object_add (o, "material",
                              json_object_new_string (res->surface_materials && res->surface_materials[i]
                                                      ? res->surface_materials[i] : ""));
      json_object_object_add (o, "R", rw_json_number (res->surface_R[i]));
      if (res->surface_models != NULL)
        {
          /* 2.2: α per octave band, the target and the model the FV
           * boundary ran (random incidence; and the model at normal
           * incidence), the fit's worst band, and the admittance */
          const RwSurfaceModel *m = &res->surface_models[i];
          json_object *bands = json_object_new_array (), *tgt = json_object_new_array ();
          json_object *mod = json_object_new_array (), *mod_n = json_object_new_array ();
          for (int b = 0; b < RW_N_OCTAVES; b++)
            {
              json_object_array_add (bands, rw_json_number (rw_octave_centres_hz[b]));
              json_object_array_add (tgt, rw_json_number (m->alpha_target[b]));
              json_object_array_add (mod, rw_json_number (m->fit.model_random[b]));
              json_object_array_add (mod_n, rw_json_number (m->fit.model_normal[b]));
            }
          json_object_object_add (o, "bands_hz", bands);
          json_object_object_add (o, "alpha_target", tgt);
          json_object_object_add (o, "alpha_model", mod);
          json_object_object_add (o, "alpha_model_normal", mod_n);
          json_object_object_add (o, "bands_fitted", json_object_new_int (m->fit.n_bands_fit));
          json_object_object_add (o, "fit_worst_error", rw_json_number (m->fit.worst_error));
          json_object *adm = json_object_new_object (), *br = json_object_new_array ();
          json_object_object_add (adm, "Y0", rw_json_number (m->Y.Y0));
          for (int k = 0; k < m->Y.n_branches; k++)
            {
              json_object *t = json_object_new_array ();
              json_object_array_add (t, rw_json_number (m->Y.branch[k].D));
              json_object_array_add (t, rw_json_number (m->Y.branch[k].E));
              json_object_array_add (t, rw_json_number (m->Y.branch[k].F));
              json_object_array_add (br, t);
            }
          json_object_object_add (adm, "branches_DEF", br);
          json_object_object_add (o, "admittance", adm);
          /* 2.3: the geometrical part's scattering per band */
          json_object *sc = json_object_new_array ();
          for (int b = 0; b < RW_N_OCTAVES; b++)
            json_object_array_add (sc, rw_json_number (m->scattering[b]));
          json_object_object_add (o, "scattering", sc);
          json_object_object_add (o, "scattering_default", json_object_new_boolean (m->scattering_default));
        }
      json_object_array_add (surf, o);
    }
  json_object_object_add (root, "surfaces", surf);

  json_object *outs = json_object_new_array ();
  for (size_t r = 0; r < cfg->n_receivers; r++)
    {
      char name[64];
      rw_sim_output_name (r, name, sizeof name);
      json_object_array_add (outs, json_object_new_string (name));
    }
  json_object_object_add (root, "outputs", outs);
  json_object_object_add (root, "ir_frames", json_object_new_int64 ((int64_t) res->ir_frames));
  if (res->hybrid)
    json_object_object_add (root, "hybrid", hybrid_json (cfg, res));

  json_object *tim = json_object_new_object ();
  json_object_object_add (tim, "import_s", rw_json_number (res->t_import_s));
  json_object_object_add (tim, "voxelise_s", rw_json_number (res->t_voxelise_s));
  json_object_object_add (tim, "solve_s", rw_json_number (res->t_solve_s));
  json_object_object_add (tim, "postprocess_s", rw_json_number (res->t_postprocess_s));
  json_object_object_add (tim, "total_s", rw_json_number (res->t_total_s));
  json_object_object_add (tim, "geometrical_s", rw_json_number (res->t_geometrical_s));
  json_object_object_add (tim, "join_s", rw_json_number (res->t_join_s));
  json_object_object_add (tim, "setup_s", rw_json_number (res->t_setup_s));
  json_object_object_add (tim, "write_s", rw_json_number (res->t_write_s));
  json_object_object_add (root, "timings", tim);
  json_object_object_add (root, "mvox_per_s", rw_json_number (res->mvox_per_s));

  /* An output rate below 2 fmax cuts the IR at its Nyquist frequency. */
  const double valid_hz = rw_sim_valid_up_to_hz (res);
  char note[640];
  double transition[2];
  rw_hybrid_transition (res->crossover_hz, transition);
  if (res->hybrid)
    snprintf (note, sizeof note,
              "full band to %g Hz: the wave part (valid to fmax = %g Hz) below the crossover %g Hz, "
              "the geometrical part (image sources and rays) above it, joined by complementary "
              "linear-phase filters (transition %g to %g Hz); DC-blocked below %g Hz; calibrated so "
              "that the free-field direct sound at 1 m sums to 1 (area 1/r at distance r)",
              valid_hz, res->fmax_hz, res->crossover_hz, transition[0], transition[1], RW_DC_BLOCK_HZ);
  else
  snprintf (note, sizeof note,
            "valid up to fmax = %g Hz%s: low-passed there (flat to fmax, -80 dB from %g Hz); "
            "DC-blocked below %g Hz; calibrated so that the free-field direct sound at 1 m sums to 1 "
            "(area 1/r at distance r)",
            valid_hz, valid_hz < res->fmax_hz ? " (the output rate's Nyquist frequency, below fmax)" : "",
            RW_LOWPASS_STOP_FACTOR * res->fmax_hz, RW_DC_BLOCK_HZ);
  json_object_object_add (root, "validity", json_object_new_string (note));
  json_object_object_add (root, "valid_up_to_hz", rw_json_number (valid_hz));

  return rw_json_take_string (root);
}


/* ---- reading ------------------------------------------------------------ */

/* results.json larger than this is not one of ours (a 64-receiver,
 * many-surface file is a few hundred kB). */
#define RW_RESULTS_MAX_BYTES (64u << 20)

/* The state of one read: the file named in every message, the object
 * being read ("settings.receivers[2]") and the first failure. */
typedef struct {
  const char *path;
  char scope[64];
  RwError *err;
  bool ok;
} Reader;

static void
key_name (const Reader *rd, const char *key, char *buf, size_t len)
{
  snprintf (buf, len, "%s%s%s", rd->scope, rd->scope[0] ? "." : "", key);
}

/* The first failure wins: later checks of a failed read do nothing. */
static bool
missing (Reader *rd, const char *key, const char *what)
{
  char name[128];
  key_name (rd, key, name, sizeof name);
  if (rd->ok)
    rw_fail (rd->err, RW_ERROR_INPUT, _("%s: \"%s\" is missing or is not %s"), rd->path, name, what);
  rd->ok = false;
  return false;
}

static json_object *
get (Reader *rd, json_object *obj, const char *key, json_type type, const char *what)
{
  json_object *v = NULL;
  if (!rd->ok)
    return NULL;
  if (obj == NULL || !json_object_object_get_ex (obj, key, &v) || !json_object_is_type (v, type))
    {
      missing (rd, key, what);
      return NULL;
    }
  return v;
}

/* A number in [lo, hi]; JSON null reads as NAN where `nullable` (the
 * writer's rw_json_number writes null for a value it does not have). */
static double
number (Reader *rd, json_object *obj, const char *key, double lo, double hi, bool nullable)
{
  json_object *v = NULL;
  if (!rd->ok)
    return NAN;
  bool present = obj != NULL && json_object_object_get_ex (obj, key, &v);
  if (present && v == NULL && nullable)
    return NAN;
  if (!present || !(json_object_is_type (v, json_type_double) || json_object_is_type (v, json_type_int)))
    return missing (rd, key, _("a number")), NAN;
  double x = json_object_get_double (v);
  if (!(x >= lo && x <= hi))
    {
      char name[128];
      key_name (rd, key, name, sizeof name);
      rw_fail (rd->err, RW_ERROR_INPUT, _("%s: \"%s\" is %g; it must lie between %g and %g"),
               rd->path, name, x, lo, hi);
      rd->ok = false;
      return NAN;
    }
  return x;
}

/* obj[key] when present (not null), else NULL: the keys a later minor
 * version added. */
static json_object *
optional (json_object *obj, const char *key)
{
  json_object *v = NULL;
  return obj != NULL && json_object_object_get_ex (obj, key, &v) ? v : NULL;
}

static bool
boolean (Reader *rd, json_object *obj, const char *key)
{
  json_object *v = get (rd, obj, key, json_type_boolean, _("true or false"));
  return v != NULL && json_object_get_boolean (v);
}

/* A whole number in [lo, hi]. */
static size_t
count (Reader *rd, json_object *obj, const char *key, double lo, double hi)
{
  json_object *v = get (rd, obj, key, json_type_int, _("a whole number"));
  if (v == NULL)
    return 0;
  double x = number (rd, obj, key, lo, hi, false);
  return rd->ok ? (size_t) x : 0;
}

/* A string, copied (NULL for JSON null where nullable). */
static char *
string (Reader *rd, json_object *obj, const char *key, bool nullable)
{
  json_object *v = NULL;
  if (!rd->ok)
    return NULL;
  if (nullable && obj != NULL && json_object_object_get_ex (obj, key, &v) && v == NULL)
    return NULL;
  v = get (rd, obj, key, json_type_string, _("a string"));
  if (v == NULL)
    return NULL;
  char *s = strdup (json_object_get_string (v));
  if (s == NULL)
    {
      rw_fail (rd->err, RW_ERROR_MEMORY, _("Out of memory"));
      rd->ok = false;
    }
  return s;
}

static void
string_to (Reader *rd, json_object *obj, const char *key, char *buf, size_t len)
{
  json_object *v = get (rd, obj, key, json_type_string, _("a string"));
  if (v != NULL)
    snprintf (buf, len, "%s", json_object_get_string (v));
}

static void
vec3 (Reader *rd, json_object *obj, const char *key, double out[3])
{
  json_object *v = get (rd, obj, key, json_type_array, _("three numbers (metres)"));
  if (v == NULL)
    return;
  if (json_object_array_length (v) != 3)
    {
      missing (rd, key, _("three numbers (metres)"));
      return;
    }
  for (size_t k = 0; k < 3; k++)
    {
      json_object *x = json_object_array_get_idx (v, k);
      if (!(json_object_is_type (x, json_type_double) || json_object_is_type (x, json_type_int))
          || !isfinite (out[k] = json_object_get_double (x)))
        {
          missing (rd, key, _("three numbers (metres)"));
          return;
        }
    }
}

/* A name from our tables (boundary, backend, precision). */
static void
named (Reader *rd, json_object *obj, const char *key, bool (*parse) (const char *, int *), int *out)
{
  json_object *v = get (rd, obj, key, json_type_string, _("a name"));
  if (v != NULL && !parse (json_object_get_string (v), out))
    {
      char name[128];
      key_name (rd, key, name, sizeof name);
      rw_fail (rd->err, RW_ERROR_INPUT, _("%s: \"%s\" is \"%s\", which this Roomwave does not know"),
               rd->path, name, json_object_get_string (v));
      rd->ok = false;
    }
}

static bool parse_boundary (const char *s, int *out) { RwBoundary b; return rw_boundary_parse (s, &b) && (*out = (int) b, true); }
static bool parse_scheme (const char *s, int *out) { RwScheme c; return rw_scheme_parse (s, &c) && (*out = (int) c, true); }
static bool parse_backend (const char *s, int *out) { RwBackendKind k; return rw_backend_kind_parse (s, &k) && (*out = (int) k, true); }
static bool parse_precision (const char *s, int *out) { RwPrecision p; return rw_precision_parse (s, &p) && (*out = (int) p, true); }
static bool parse_receiver_type (const char *s, int *out) { RwReceiverType t; return rw_receiver_type_from_name (s, &t) && (*out = (int) t, true); }

static bool
oom (Reader *rd)
{
  rd->ok = false;
  return rw_fail (rd->err, RW_ERROR_MEMORY, _("Out of memory"));
}

/* settings.humidity_pct and settings.air_absorption (version 2.1). A
 * file without them was written before air absorption existed: none was
 * applied, and the humidity is unknown (NAN). */
static void
read_air (Reader *rd, json_object *set, RwResults *out)
{
  RwSimConfig *cfg = &out->config;
  RwSimResult *res = &out->result;
  json_object *air = NULL;
  cfg->air_absorption = res->air_absorption = false;
  cfg->humidity_pct = NAN;
  if (!rd->ok || !json_object_object_get_ex (set, "air_absorption", NULL))
    return;
  cfg->humidity_pct = number (rd, set, "humidity_pct", 0, 100, true);
  air = get (rd, set, "air_absorption", json_type_object, _("an object"));
  snprintf (rd->scope, sizeof rd->scope, "settings.air_absorption");
  json_object *en = get (rd, air, "enabled", json_type_boolean, _("true or false"));
  cfg->air_absorption = res->air_absorption = en != NULL && json_object_get_boolean (en);
  res->air.pressure_kpa = number (rd, air, "pressure_kpa", 1, 200, false);
  json_object *bands = get (rd, air, "bands", json_type_array, _("a list of bands"));
  size_t n = bands ? json_object_array_length (bands) : 0;
  if (rd->ok && (n > RW_AIR_MAX_BANDS || (res->air_absorption && n == 0)))
    {
      rw_fail (rd->err, RW_ERROR_INPUT, _("%s: \"settings.air_absorption.bands\" lists %zu bands; 1 to %d are "
                                          "allowed when it is enabled, none when not"),
               rd->path, n, RW_AIR_MAX_BANDS);
      rd->ok = false;
    }
  for (size_t b = 0; rd->ok && b < n; b++)
    {
      json_object *o = json_object_array_get_idx (bands, b);
      snprintf (rd->scope, sizeof rd->scope, "settings.air_absorption.bands[%zu]", b);
      if (!json_object_is_type (o, json_type_object))
        o = NULL;
      res->air.nominal_hz[b] = number (rd, o, "centre_hz", 1, 1e7, false);
      res->air.centre_hz[b] = number (rd, o, "exact_centre_hz", 1, 1e7, false);
      res->air.alpha_db_per_m[b] = number (rd, o, "alpha_db_per_m", 0, 1e4, false);
    }
  res->air.n_bands = rd->ok ? n : 0;
  res->air.temperature_c = cfg->temperature_c;
  res->air.humidity_pct = cfg->humidity_pct;
  res->air.c_m_per_s = res->c;
}

/* The settings object: what the run was asked to do. */
/* 2.4: a receiver's type, orientation, orders and spatial files; a file
 * without "type" (before 2.4) has omnidirectional receivers. */
static void
read_receiver_type (Reader *rd, json_object *o, size_t r, RwResults *out)
{
  RwSimConfig *cfg = &out->config;
  RwSimResult *res = &out->result;
  json_object *t = optional (o, "type");
  if (t == NULL || !rd->ok)
    return;
  RwReceiverSpec *spec = &cfg->receiver_specs[r];
  named (rd, o, "type", parse_receiver_type, (int *) &spec->type);
  if (!rd->ok || spec->type == RW_RECEIVER_OMNI)
    return;
  spec->yaw_deg = number (rd, o, "yaw_deg", -RW_RECEIVER_MAX_YAW_DEG, RW_RECEIVER_MAX_YAW_DEG, false);
  spec->pitch_deg = number (rd, o, "pitch_deg", -RW_RECEIVER_MAX_PITCH_DEG, RW_RECEIVER_MAX_PITCH_DEG,
                            false);
  const int order = (int) count (rd, o, "ambisonic_order", RW_AMBI_MIN_ORDER, RW_AMBI_MAX_ORDER);
  if (spec->type == RW_RECEIVER_AMBISONIC)
    spec->order = order;
  const int wave_order = (int) count (rd, o, "wave_ambisonic_order", 0, RW_AMBI_MAX_ORDER);
  if (!rd->ok)
    return;
  if (res->wave_ambi_order == NULL
      && (res->wave_ambi_order = calloc (RW_SIM_MAX_RECEIVERS, sizeof *res->wave_ambi_order)) == NULL)
    {
      oom (rd);
      return;
    }
  res->wave_ambi_order[r] = wave_order;
  /* the files: plain names inside the folder, present */
  const char *keys[2] = { "ambix_file", spec->type == RW_RECEIVER_BINAURAL ? "binaural_file" : NULL };
  for (int k = 0; k < 2 && rd->ok && keys[k] != NULL; k++)
    {
      char name[256] = "", want[64];
      string_to (rd, o, keys[k], name, sizeof name);
      if (k == 0)
        rw_receiver_ambix_name (r, want, sizeof want);
      else
        rw_receiver_binaural_name (r, want, sizeof want);
      if (rd->ok && strcmp (name, want) != 0)
        {
          rw_fail (rd->err, RW_ERROR_INPUT, _("%s: %s: \"%s\" is \"%s\", not \"%s\""), rd->path,
                   rd->scope, keys[k], name, want);
          rd->ok = false;
        }
    }
}

static void
read_settings (Reader *rd, json_object *set, RwResults *out)
{
  RwSimConfig *cfg = &out->config;
  RwSimResult *res = &out->result;
  int b = 0, k = 0, p = 0;

  snprintf (rd->scope, sizeof rd->scope, "settings");
  cfg->fmax_hz = number (rd, set, "fmax_hz", 1e-3, 1e5, false);
  res->fmax_hz = cfg->fmax_hz;
  cfg->ppw = number (rd, set, "ppw", 1, 1000, false);
  cfg->duration_s = number (rd, set, "duration_s", 1e-9, 1e5, false);
  cfg->temperature_c = number (rd, set, "temperature_c", -273, 1000, false);
  res->c = number (rd, set, "c_m_per_s", 1, 1e5, false);
  cfg->scale = number (rd, set, "scale", 1e-12, 1e12, false);
  named (rd, set, "boundary", parse_boundary, &b);
  cfg->uniform_R = number (rd, set, "reflection", -1, 1, true);
  out->materials_map = string (rd, set, "materials_map", true);
  cfg->materials_map = out->materials_map;
  named (rd, set, "backend_requested", parse_backend, &k);
  string_to (rd, set, "backend_used", res->backend, sizeof res->backend);
  string_to (rd, set, "device", res->device, sizeof res->device);
  /* written since issue #15; older results ran on one */
  json_object *ranks = NULL;
  res->ranks = json_object_object_get_ex (set, "ranks", &ranks) && json_object_is_type (ranks, json_type_int)
               && json_object_get_int (ranks) >= 1 ? json_object_get_int (ranks) : 1;
  named (rd, set, "precision", parse_precision, &p);
  cfg->boundary = (RwBoundary) b;
  cfg->backend = (RwBackendKind) k;
  cfg->precision = (RwPrecision) p;
  read_air (rd, set, out);
  snprintf (rd->scope, sizeof rd->scope, "settings");

  json_object *src = get (rd, set, "source", json_type_object, _("an object"));
  snprintf (rd->scope, sizeof rd->scope, "settings.source");
  vec3 (rd, src, "position_m", cfg->source);
  vec3 (rd, src, "cell_centre_m", res->source_at);
  res->source_cell = count (rd, src, "cell_index", 0, 9e15);
  snprintf (rd->scope, sizeof rd->scope, "settings");
  /* results before version 2.5 ran the 7-point scheme */
  res->scheme = RW_SCHEME_CARTESIAN;
  cfg->scheme = RW_SCHEME_CARTESIAN;
  if (optional (set, "scheme") != NULL)
    {
      int sc = 0, sr = 0;
      named (rd, set, "scheme", parse_scheme, &sc);
      named (rd, set, "scheme_requested", parse_scheme, &sr);
      res->scheme = (RwScheme) sc;
      cfg->scheme = (RwScheme) sr;
    }
  res->ppw = cfg->ppw;
  /* results before issue #14 snapped the positions to the nearest cell */
  snprintf (res->interpolation, sizeof res->interpolation, "nearest");
  if (optional (set, "interpolation") != NULL)
    string_to (rd, set, "interpolation", res->interpolation, sizeof res->interpolation);

  snprintf (rd->scope, sizeof rd->scope, "settings");
  json_object *rcvs = get (rd, set, "receivers", json_type_array, _("a list of receivers"));
  if (rcvs == NULL)
    return;
  size_t n = json_object_array_length (rcvs);
  if (n < 1 || n > RW_SIM_MAX_RECEIVERS)
    {
      rw_fail (rd->err, RW_ERROR_INPUT, _("%s: \"settings.receivers\" lists %zu receivers; 1 to %d are allowed"),
               rd->path, n, RW_SIM_MAX_RECEIVERS);
      rd->ok = false;
      return;
    }
  cfg->n_receivers = n;
  res->receiver_cells = calloc (n, sizeof *res->receiver_cells);
  res->receivers_at = calloc (n, sizeof *res->receivers_at);
  if (res->receiver_cells == NULL || res->receivers_at == NULL)
    {
      oom (rd);
      return;
    }
  for (size_t r = 0; rd->ok && r < n; r++)
    {
      json_object *o = json_object_array_get_idx (rcvs, r);
      snprintf (rd->scope, sizeof rd->scope, "settings.receivers[%zu]", r);
      if (!json_object_is_type (o, json_type_object))
        {
          missing (rd, "position_m", _("three numbers (metres)"));
          return;
        }
      vec3 (rd, o, "position_m", cfg->receivers[r]);
      vec3 (rd, o, "cell_centre_m", res->receivers_at[r]);
      res->receiver_cells[r] = count (rd, o, "cell_index", 0, 9e15);
      read_receiver_type (rd, o, r, out);
    }
  /* 2.4: the HRTF set of binaural receivers */
  json_object *hrtf = optional (set, "hrtf");
  if (hrtf != NULL && rd->ok)
    {
      snprintf (rd->scope, sizeof rd->scope, "settings.hrtf");
      string_to (rd, hrtf, "file", res->hrtf_path, sizeof res->hrtf_path);
      res->hrtf_directions = count (rd, hrtf, "directions", 1, 1e9);
    }

  /* 2.3: the full-band settings; before, every run was wave only */
  json_object *hyb = optional (set, "hybrid");
  cfg->hybrid = false;
  if (hyb == NULL || !rd->ok)
    return;
  snprintf (rd->scope, sizeof rd->scope, "settings.hybrid");
  cfg->hybrid = boolean (rd, hyb, "enabled");
  cfg->crossover_hz = number (rd, hyb, "crossover_hz", 1e-3, 1e5, true);
  if (isnan (cfg->crossover_hz))
    cfg->crossover_hz = 0;
  cfg->n_rays = count (rd, hyb, "rays", 1, (double) RW_RAYS_MAX_N);
  cfg->ism_order = (int) count (rd, hyb, "ism_order", 0, RW_ISM_MAX_ORDER);
  json_object *seed = get (rd, hyb, "seed", json_type_int, _("a whole number"));
  cfg->seed = seed != NULL ? json_object_get_uint64 (seed) : 0;
  cfg->write_parts = boolean (rd, hyb, "write_parts");
}

/* 2.3: the hybrid object, present when the IRs are full band. */
static void
read_hybrid (Reader *rd, json_object *root, RwResults *out)
{
  RwSimResult *res = &out->result;
  json_object *h = optional (root, "hybrid");
  res->hybrid = h != NULL;
  if (h == NULL || !rd->ok)
    {
      if (rd->ok && out->config.hybrid)
        missing (rd, "hybrid", _("an object"));
      return;
    }
  snprintf (rd->scope, sizeof rd->scope, "hybrid");
  res->crossover_hz = number (rd, h, "crossover_hz", 1e-3, 1e5, false);
  /* "transition_hz" follows from the crossover (rw_hybrid_transition):
   * written for readers of the file, not read back */
  res->fit_bands = (int) count (rd, h, "fit_bands", 1, RW_N_OCTAVES);
  json_object *bands = get (rd, h, "bands", json_type_array, _("a list of octave bands"));
  if (bands != NULL && json_object_array_length (bands) != RW_N_OCTAVES)
    missing (rd, "bands", _("a list of octave bands"));
  for (int b = 0; rd->ok && b < RW_N_OCTAVES; b++)
    {
      json_object *o = json_object_array_get_idx (bands, (size_t) b), *m = NULL;
      const char *name = json_object_object_get_ex (o, "method", &m) && json_object_is_type (m, json_type_string)
                         ? json_object_get_string (m) : "";
      int k;
      for (k = 0; k <= RW_HYBRID_BOTH; k++)
        if (strcmp (name, rw_hybrid_method_name ((RwHybridMethod) k)) == 0)
          break;
      if (k > RW_HYBRID_BOTH)
        {
          rw_fail (rd->err, RW_ERROR_INPUT, _("%s: \"hybrid.bands[%d].method\" must be \"wave\", "
                                              "\"geometrical\" or \"both\""), rd->path, b);
          rd->ok = false;
        }
      res->band_method[b] = (RwHybridMethod) k;
    }
  json_object *g = get (rd, h, "geometrical", json_type_object, _("an object"));
  snprintf (rd->scope, sizeof rd->scope, "hybrid.geometrical");
  res->ga_receiver_radius_m = number (rd, g, "receiver_radius_m", 0, 1e3, true);
  res->ga_image_sources = count (rd, g, "image_source_arrivals", 0, 9e15);
  res->ga_rays_lost = count (rd, g, "rays_lost", 0, 9e15);
  rd->scope[0] = '\0';
}

/* Everything but the settings: grid, cells, surfaces, outputs, timings. */
static void
read_run (Reader *rd, json_object *root, RwResults *out)
{
  RwSimResult *res = &out->result;

  rd->scope[0] = '\0';
  res->fs_grid_hz = number (rd, root, "fs_grid_hz", 1, 1e10, false);
  res->fs_out_hz = number (rd, root, "fs_out_hz", 1000, 768000, false);
  out->config.fs_out_hz = res->fs_out_hz;
  res->spacing_m = number (rd, root, "spacing_m", 1e-6, 1e3, false);
  res->n_steps = count (rd, root, "n_steps", 1, 1e13);
  res->n_steps_run = count (rd, root, "n_steps_run", 1, 1e13);
  res->ir_frames = count (rd, root, "ir_frames", 1, 1e12);
  res->mvox_per_s = number (rd, root, "mvox_per_s", 0, 1e12, true);

  json_object *grid = get (rd, root, "grid", json_type_object, _("an object"));
  snprintf (rd->scope, sizeof rd->scope, "grid");
  res->nx = count (rd, grid, "nx", 1, 1e7);
  res->ny = count (rd, grid, "ny", 1, 1e7);
  res->nz = count (rd, grid, "nz", 1, 1e7);
  rd->scope[0] = '\0';
  json_object *cells = get (rd, root, "cells", json_type_object, _("an object"));
  snprintf (rd->scope, sizeof rd->scope, "cells");
  res->n_inside = count (rd, cells, "inside", 0, (double) res->nx * res->ny * res->nz);
  res->n_boundary = count (rd, cells, "boundary", 0, (double) res->n_inside);
  rd->scope[0] = '\0';
  json_object *vol = get (rd, root, "volumes", json_type_object, _("an object"));
  snprintf (rd->scope, sizeof rd->scope, "volumes");
  res->mesh_volume_m3 = number (rd, vol, "mesh_m3", -1e12, 1e12, true);
  res->grid_volume_m3 = number (rd, vol, "grid_m3", 0, 1e12, true);
  rd->scope[0] = '\0';
  json_object *tim = get (rd, root, "timings", json_type_object, _("an object"));
  snprintf (rd->scope, sizeof rd->scope, "timings");
  res->t_import_s = number (rd, tim, "import_s", 0, 1e9, true);
  res->t_voxelise_s = number (rd, tim, "voxelise_s", 0, 1e9, true);
  res->t_solve_s = number (rd, tim, "solve_s", 0, 1e9, true);
  res->t_postprocess_s = number (rd, tim, "postprocess_s", 0, 1e9, true);
  res->t_total_s = number (rd, tim, "total_s", 0, 1e9, true);
  if (optional (tim, "geometrical_s") != NULL)
    res->t_geometrical_s = number (rd, tim, "geometrical_s", 0, 1e9, true);
  if (optional (tim, "join_s") != NULL)
    res->t_join_s = number (rd, tim, "join_s", 0, 1e9, true);
  /* 2.6: files before it did not measure them (NAN, written back as null) */
  res->t_setup_s = optional (tim, "setup_s") != NULL ? number (rd, tim, "setup_s", 0, 1e9, true) : NAN;
  res->t_write_s = optional (tim, "write_s") != NULL ? number (rd, tim, "write_s", 0, 1e9, true) : NAN;
  rd->scope[0] = '\0';
  read_hybrid (rd, root, out);
  if (rd->ok && res->n_steps_run < res->n_steps)
    {
      rw_fail (rd->err, RW_ERROR_INPUT, _("%s: \"n_steps_run\" (%zu) is less than \"n_steps\" (%zu)"),
               rd->path, res->n_steps_run, res->n_steps);
      rd->ok = false;
    }

  json_object *surf = get (rd, root, "surfaces", json_type_array, _("a list of surfaces"));
  size_t ns = surf ? json_object_array_length (surf) : 0;
  if (rd->ok)
    {
      res->surface_names = calloc (ns ? ns : 1, sizeof (char *));
      res->surface_materials = calloc (ns ? ns : 1, sizeof (char *));
      res->surface_R = calloc (ns ? ns : 1, sizeof (double));
      if (res->surface_names == NULL || res->surface_materials == NULL || res->surface_R == NULL)
        oom (rd);
      else
        res->n_surfaces = ns;
    }
  for (size_t i = 0; rd->ok && i < ns; i++)
    {
      json_object *o = json_object_array_get_idx (surf, i);
      snprintf (rd->scope, sizeof rd->scope, "surfaces[%zu]", i);
      res->surface_names[i] = string (rd, json_object_is_type (o, json_type_object) ? o : NULL, "name", false);
      res->surface_materials[i] = string (rd, o, "material", false);
      res->surface_R[i] = number (rd, o, "R", -1, 1, false);
      /* 2.2: α per band (absent before, and from --reflection runs of
       * older versions): all surfaces or none */
      json_object *tgt, *mod;
      if (rd->ok && json_object_object_get_ex (o, "alpha_target", &tgt)
          && json_object_object_get_ex (o, "alpha_model", &mod))
        {
          if (res->surface_models == NULL && i == 0)
            res->surface_models = calloc (ns, sizeof (RwSurfaceModel));
          if (res->surface_models == NULL)
            {
              rw_fail (rd->err, RW_ERROR_INPUT, _("%s: %s: \"alpha_target\" on some surfaces only"),
                       rd->path, rd->scope);
              rd->ok = false;
              break;
            }
          RwSurfaceModel *m = &res->surface_models[i];
          for (int b = 0; b < RW_N_OCTAVES; b++)
            {
              json_object *x = json_object_is_type (tgt, json_type_array)
                               ? json_object_array_get_idx (tgt, (size_t) b) : NULL;
              json_object *y = json_object_is_type (mod, json_type_array)
                               ? json_object_array_get_idx (mod, (size_t) b) : NULL;
              const bool nx = x != NULL && (json_object_is_type (x, json_type_double)
                                            || json_object_is_type (x, json_type_int));
              const bool ny = y != NULL && (json_object_is_type (y, json_type_double)
                                            || json_object_is_type (y, json_type_int));
              if (!nx || !ny)
                {
                  rw_fail (rd->err, RW_ERROR_INPUT,
                           _("%s: %s: \"alpha_target\" and \"alpha_model\" must list %d numbers"),
                           rd->path, rd->scope, RW_N_OCTAVES);
                  rd->ok = false;
                  break;
                }
              m->alpha_target[b] = json_object_get_double (x);
              m->fit.model_random[b] = json_object_get_double (y);
              m->fit.target_random[b] = m->alpha_target[b];
            }
          /* 2.3: scattering; before, the default */
          json_object *sc = optional (o, "scattering");
          m->scattering_default = true;
          for (int b = 0; b < RW_N_OCTAVES; b++)
            m->scattering[b] = RW_MATERIAL_DEFAULT_SCATTERING;
          if (sc != NULL && json_object_is_type (sc, json_type_array)
              && json_object_array_length (sc) == RW_N_OCTAVES)
            {
              for (int b = 0; b < RW_N_OCTAVES; b++)
                m->scattering[b] = json_object_get_double (json_object_array_get_idx (sc, (size_t) b));
              m->scattering_default = optional (o, "scattering_default") != NULL
                                      && boolean (rd, o, "scattering_default");
            }
        }
      else if (rd->ok && res->surface_models != NULL)
        {
          rw_fail (rd->err, RW_ERROR_INPUT, _("%s: %s: \"alpha_target\" on some surfaces only"),
                   rd->path, rd->scope);
          rd->ok = false;
        }
    }
  rd->scope[0] = '\0';

  /* One WAV per receiver, by a plain name inside the folder: a results
   * file must not send the reader elsewhere. */
  json_object *outs = get (rd, root, "outputs", json_type_array, _("a list of WAV file names"));
  if (!rd->ok)
    return;
  size_t n = json_object_array_length (outs);
  if (n != out->config.n_receivers)
    {
      rw_fail (rd->err, RW_ERROR_INPUT, _("%s: \"outputs\" lists %zu files for %zu receivers"),
               rd->path, n, out->config.n_receivers);
      rd->ok = false;
      return;
    }
  out->outputs = calloc (n, sizeof (char *));
  res->ir = calloc (n, sizeof (float *));
  if (out->outputs == NULL || res->ir == NULL)
    {
      oom (rd);
      return;
    }
  res->n_receivers = n;
  for (size_t r = 0; rd->ok && r < n; r++)
    {
      json_object *v = json_object_array_get_idx (outs, r);
      const char *name = json_object_is_type (v, json_type_string) ? json_object_get_string (v) : NULL;
      if (name == NULL || name[0] == '\0' || strchr (name, '/') != NULL || strcmp (name, "..") == 0
          || strcmp (name, ".") == 0)
        {
          rw_fail (rd->err, RW_ERROR_INPUT, _("%s: \"outputs[%zu]\" must be the name of a WAV file in the folder"),
                   rd->path, r);
          rd->ok = false;
          return;
        }
      if ((out->outputs[r] = strdup (name)) == NULL)
        oom (rd);
    }
}

/* dir/name in a malloc'd string. */
static char *
join (const char *dir, const char *name)
{
  size_t len = strlen (dir) + strlen (name) + 2;
  char *p = malloc (len);
  if (p != NULL)
    snprintf (p, len, "%s/%s", dir, name);
  return p;
}

/* The file's text (NUL-terminated, malloc'd), or NULL with the error. */
static char *
read_text (const char *dir, const char *path, RwError *err)
{
  struct stat st;
  if (stat (dir, &st) != 0)
    return rw_fail (err, RW_ERROR_IO, _("%s: cannot open the results folder: %s"), dir, strerror (errno)), NULL;
  if (!S_ISDIR (st.st_mode))
    return rw_fail (err, RW_ERROR_INPUT, _("%s: is not a folder (a results folder holds %s and the WAVs it lists)"),
                    dir, RW_RESULTS_FILE), NULL;
  FILE *f = fopen (path, "rb");
  if (f == NULL)
    {
      int e = errno;
      char *first = join (dir, "source-1/" RW_RESULTS_FILE);
      bool several = first != NULL && stat (first, &st) == 0;
      free (first);
      if (several)
        return rw_fail (err, RW_ERROR_INPUT, _("%s: holds the results of several sources, one folder each "
                                               "(source-1, source-2, …): open one of them"), dir), NULL;
      return rw_fail (err, RW_ERROR_IO, _("%s: cannot open it: %s (is %s a Roomwave results folder?)"), path,
                      strerror (e), dir), NULL;
    }
  char *text = malloc (RW_RESULTS_MAX_BYTES + 1);
  size_t n = text ? fread (text, 1, RW_RESULTS_MAX_BYTES + 1, f) : 0;
  bool failed = text != NULL && ferror (f);
  fclose (f);
  if (text == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("Out of memory")), NULL;
  if (failed || n > RW_RESULTS_MAX_BYTES)
    {
      free (text);
      return rw_fail (err, RW_ERROR_INPUT, failed ? _("%s: read error") : _("%s: too large for a results file"),
                      path), NULL;
    }
  text[n] = '\0';
  return text;
}

/* The JSON object of the text, or NULL with the error naming the file, the
 * parser's complaint and where. */
static json_object *
parse (const char *path, const char *text, RwError *err)
{
  json_tokener *tok = json_tokener_new ();
  if (tok == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("Out of memory")), NULL;
  size_t len = strlen (text);
  json_object *root = json_tokener_parse_ex (tok, text, (int) len);
  enum json_tokener_error e = json_tokener_get_error (tok);
  size_t at = json_tokener_get_parse_end (tok);
  json_tokener_free (tok);
  if (root == NULL || e != json_tokener_success || at < len)
    {
      json_object_put (root);
      if (e == json_tokener_continue || e == json_tokener_success)
        return rw_fail (err, RW_ERROR_INPUT, len == 0 ? _("%s: empty: not a results file")
                                                      : _("%s: not valid JSON: it ends too early"), path), NULL;
      return rw_fail (err, RW_ERROR_INPUT, _("%s: not valid JSON: %s (at byte %zu)"), path,
                      json_tokener_error_desc (e), at), NULL;
    }
  if (!json_object_is_type (root, json_type_object))
    {
      json_object_put (root);
      return rw_fail (err, RW_ERROR_INPUT, _("%s: not a Roomwave results file (not a JSON object)"), path), NULL;
    }
  return root;
}

/* "format" and "version": ours, and one this reader knows. */
static bool
check_version (const char *path, json_object *root, int *version, RwError *err)
{
  json_object *f = NULL, *v = NULL;
  if (!json_object_object_get_ex (root, "format", &f) || !json_object_is_type (f, json_type_string)
      || strcmp (json_object_get_string (f), RW_RESULTS_FORMAT) != 0)
    {
      if (json_object_object_get_ex (root, "roomwave_version", NULL))
        return rw_fail (err, RW_ERROR_INPUT, _("%s: written by an older Roomwave, before results files had a "
                                               "format version: simulate again to read it here"), path);
      return rw_fail (err, RW_ERROR_INPUT, _("%s: not a Roomwave results file (no \"format\": \"%s\")"), path,
                      RW_RESULTS_FORMAT);
    }
  if (!json_object_object_get_ex (root, "version", &v) || !json_object_is_type (v, json_type_int))
    return rw_fail (err, RW_ERROR_INPUT, _("%s: \"version\" is missing or is not a whole number"), path);
  int64_t n = json_object_get_int64 (v);
  if (n > RW_RESULTS_VERSION)
    return rw_fail (err, RW_ERROR_INPUT, _("%s: written by a newer Roomwave (results format version %lld; this one "
                                           "reads version %d): update Roomwave to open it"),
                    path, (long long) n, RW_RESULTS_VERSION);
  if (n < RW_RESULTS_VERSION)
    return rw_fail (err, RW_ERROR_INPUT, _("%s: results format version %lld of an older Roomwave, which this one "
                                           "no longer reads: simulate again to read it here"),
                    path, (long long) n);
  *version = (int) n;
  return true;
}

/* Every WAV listed: mono, at fs_out_hz, ir_frames long. */
static bool
read_wavs (const char *dir, RwResults *out, RwError *err)
{
  RwSimResult *res = &out->result;
  for (size_t r = 0; r < res->n_receivers; r++)
    {
      char *wav = join (dir, out->outputs[r]);
      RwAudio a = { 0 };
      if (wav == NULL)
        return rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
      bool ok = rw_audio_read_channel (wav, -1, &a, err);
      if (ok && a.rate_hz != res->fs_out_hz)
        ok = rw_fail (err, RW_ERROR_INPUT, _("%s: sample rate %g Hz, but %s says %g Hz"), wav, a.rate_hz,
                      RW_RESULTS_FILE, res->fs_out_hz);
      else if (ok && a.frames != res->ir_frames)
        ok = rw_fail (err, RW_ERROR_INPUT, _("%s: %zu samples, but %s says %zu"), wav, a.frames,
                      RW_RESULTS_FILE, res->ir_frames);
      free (wav);
      if (!ok)
        {
          rw_audio_clear (&a);
          return false;
        }
      res->ir[r] = a.data;   /* malloc'd: rw_sim_result_clear frees it */
    }
  return true;
}

bool
rw_results_read (const char *dir, RwResults *out, RwError *err)
{
  memset (out, 0, sizeof *out);
  rw_sim_config_init (&out->config);
  if (dir == NULL || dir[0] == '\0')
    return rw_fail (err, RW_ERROR_INPUT, _("No results folder given"));
  char *path = join (dir, RW_RESULTS_FILE);
  if (path == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
  char *text = read_text (dir, path, err);
  json_object *root = text ? parse (path, text, err) : NULL;
  free (text);
  Reader rd = { .path = path, .err = err, .ok = root != NULL };
  if (rd.ok)
    rd.ok = check_version (path, root, &out->version, err);
  if (rd.ok)
    {
      out->roomwave_version = string (&rd, root, "roomwave_version", false);
      out->mesh_file = string (&rd, root, "mesh_file", false);
      out->config.mesh_path = out->mesh_file;
      read_settings (&rd, get (&rd, root, "settings", json_type_object, _("an object")), out);
      read_run (&rd, root, out);
    }
  json_object_put (root);
  free (path);
  if (rd.ok)
    rd.ok = read_wavs (dir, out, err);
  if (!rd.ok)
    rw_results_clear (out);
  return rd.ok;
}

void
rw_results_clear (RwResults *r)
{
  if (r == NULL)
    return;
  if (r->outputs != NULL)
    for (size_t i = 0; i < r->result.n_receivers; i++)
      free (r->outputs[i]);
  free (r->outputs);
  free (r->roomwave_version);
  free (r->mesh_file);
  free (r->materials_map);
  rw_sim_result_clear (&r->result);
  memset (r, 0, sizeof *r);
}

/* ---- validity of the IRs, for the analysis ------------------------------ */

void
rw_ir_validity_init (RwIrValidity *v)
{
  memset (v, 0, sizeof *v);
  v->valid_up_to_hz = INFINITY;
  v->crossover_hz = NAN;
}

static RwBandMethod
band_method (RwHybridMethod m)
{
  switch (m)
    {
    case RW_HYBRID_WAVE:
      return RW_BAND_METHOD_WAVE;
    case RW_HYBRID_GEOMETRICAL:
      return RW_BAND_METHOD_GEOMETRICAL;
    case RW_HYBRID_BOTH:
      return RW_BAND_METHOD_BOTH;
    default:
      return RW_BAND_METHOD_UNKNOWN;
    }
}

/* What the validity of a run is, from the fields results.json records:
 * fmax_hz, fs_out_hz and the hybrid object. A wave-only run keeps fmax as
 * it is (as the analysis always took it, even above the output's Nyquist
 * frequency: the octave bands end below it at 48 kHz). */
static void
validity_of (const RwSimResult *res, double fmax_hz, RwIrValidity *v)
{
  rw_ir_validity_init (v);
  v->found = true;
  v->hybrid = res->hybrid;
  v->valid_up_to_hz = res->hybrid ? rw_sim_valid_up_to_hz (res) : fmax_hz;
  v->crossover_hz = res->hybrid ? res->crossover_hz : NAN;
  for (int b = 0; b < RW_N_OCTAVES; b++)
    v->method[b] = res->hybrid ? band_method (res->band_method[b]) : RW_BAND_METHOD_WAVE;
}

void
rw_results_validity (const RwResults *r, RwIrValidity *v)
{
  validity_of (&r->result, r->config.fmax_hz, v);
}

void
rw_ir_validity_apply (const RwIrValidity *v, RwAnalysis *analysis)
{
  rw_analysis_set_methods (analysis, v->method, v->crossover_hz);
}

/* A positive finite "fmax_hz" in obj, or in an object one level down:
 * where every results.json, of every version, keeps it. */
static bool
find_fmax (json_object *obj, double *fmax_hz)
{
  json_object *v;
  if (json_object_object_get_ex (obj, "fmax_hz", &v)
      && (json_object_is_type (v, json_type_double) || json_object_is_type (v, json_type_int)))
    {
      *fmax_hz = json_object_get_double (v);
      return true;
    }
  json_object_object_foreach (obj, key, val)
    {
      (void) key;
      if (json_object_is_type (val, json_type_object)
          && json_object_object_get_ex (val, "fmax_hz", &v)
          && (json_object_is_type (v, json_type_double) || json_object_is_type (v, json_type_int)))
        {
          *fmax_hz = json_object_get_double (v);
          return true;
        }
    }
  return false;
}

/* Whether the list h[key] (the parts' WAV names) holds name. */
static bool
lists (json_object *h, const char *key, const char *name)
{
  json_object *a = optional (h, key);
  if (a == NULL || !json_object_is_type (a, json_type_array))
    return false;
  for (size_t i = 0; i < json_object_array_length (a); i++)
    {
      json_object *o = json_object_array_get_idx (a, i);
      if (json_object_is_type (o, json_type_string) && strcmp (json_object_get_string (o), name) == 0)
        return true;
    }
  return false;
}

/* A hybrid run's file: read as strictly as rw_results_read reads it, the
 * fields the validity needs. The IR named `name` may be one of the parts
 * that --parts wrote beside the joined IRs: the wave part alone is valid
 * to fmax as a wave-only run; the geometrical part is geometrical in
 * every band, to the Nyquist frequency, with no crossover. */
static bool
read_hybrid_validity (const char *path, json_object *root, const char *name, RwIrValidity *v,
                      RwError *err)
{
  RwResults tmp;
  memset (&tmp, 0, sizeof tmp);
  rw_sim_config_init (&tmp.config);
  Reader rd = { .path = path, .err = err, .ok = true };
  rd.ok = check_version (path, root, &tmp.version, err);
  json_object *set = get (&rd, root, "settings", json_type_object, _("an object"));
  snprintf (rd.scope, sizeof rd.scope, "settings");
  tmp.config.fmax_hz = number (&rd, set, "fmax_hz", 1e-3, 1e5, false);
  tmp.result.fmax_hz = tmp.config.fmax_hz;
  rd.scope[0] = '\0';
  tmp.result.fs_out_hz = number (&rd, root, "fs_out_hz", 1000, 768000, false);
  tmp.config.hybrid = true;
  if (rd.ok)
    read_hybrid (&rd, root, &tmp);
  if (!rd.ok)
    return false;
  json_object *h = optional (root, "hybrid");
  if (lists (h, "outputs_wave", name))
    tmp.result.hybrid = false;
  rw_results_validity (&tmp, v);
  if (lists (h, "outputs_geometrical", name))
    {
      v->crossover_hz = NAN;
      for (int b = 0; b < RW_N_OCTAVES; b++)
        v->method[b] = RW_BAND_METHOD_GEOMETRICAL;
    }
  return true;
}

bool
rw_results_read_validity (const char *ir_path, RwIrValidity *v, RwError *err)
{
  rw_ir_validity_init (v);
  char path[4200];
  const char *slash = strrchr (ir_path, '/');
  if (slash)
    snprintf (path, sizeof path, "%.*s/%s", (int) (slash - ir_path), ir_path, RW_RESULTS_FILE);
  else
    snprintf (path, sizeof path, "%s", RW_RESULTS_FILE);
  struct stat st;
  if (stat (path, &st) != 0)
    return true;
  json_object *root = rw_json_parse_file (path, err);
  if (root == NULL)
    return false;
  if (!json_object_is_type (root, json_type_object))
    {
      json_object_put (root);
      return rw_fail (err, RW_ERROR_INPUT, _("%s: not a JSON object"), path);
    }
  json_object *h = optional (root, "hybrid");
  if (h != NULL)
    {
      bool ok = read_hybrid_validity (path, root, slash ? slash + 1 : ir_path, v, err);
      json_object_put (root);
      if (!ok)
        rw_ir_validity_init (v);
      return ok;
    }
  double f = NAN;
  bool ok = find_fmax (root, &f);
  json_object_put (root);
  if (!ok)
    return true;
  if (!(f > 0) || !isfinite (f))
    return rw_fail (err, RW_ERROR_INPUT, _("%s: fmax_hz is %g; it must be a positive number of hertz"), path, f);
  RwSimResult wave_only;
  memset (&wave_only, 0, sizeof wave_only);
  validity_of (&wave_only, f, v);
  return true;
}

bool
rw_results_list (const char *dir, char ***folders, size_t *n, RwError *err)
{
  *folders = NULL;
  *n = 0;
  struct stat st;
  char *path = dir ? join (dir, RW_RESULTS_FILE) : NULL;
  if (path == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
  bool one = stat (path, &st) == 0;
  free (path);
  if (one)
    {
      *folders = malloc (sizeof (char *));
      if (*folders == NULL || ((*folders)[0] = strdup (dir)) == NULL)
        {
          free (*folders);
          *folders = NULL;
          return rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
        }
      *n = 1;
      return true;
    }
  for (size_t s = 1;; s++)
    {
      char name[64];
      snprintf (name, sizeof name, "source-%zu", s);
      char *sub = join (dir, name);
      char *file = sub ? join (sub, RW_RESULTS_FILE) : NULL;
      bool found = file != NULL && stat (file, &st) == 0;
      free (file);
      if (!found)
        {
          free (sub);
          break;
        }
      char **grown = realloc (*folders, (*n + 1) * sizeof (char *));
      if (grown == NULL)
        {
          free (sub);
          rw_results_list_free (*folders, *n);
          *folders = NULL;
          *n = 0;
          return rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
        }
      *folders = grown;
      (*folders)[(*n)++] = sub;
    }
  if (*n == 0)
    return rw_fail (err, stat (dir, &st) == 0 ? RW_ERROR_INPUT : RW_ERROR_IO,
                    _("%s: not a results folder: it holds no %s and no source-1/%s"), dir, RW_RESULTS_FILE,
                    RW_RESULTS_FILE);
  return true;
}

void
rw_results_list_free (char **folders, size_t n)
{
  for (size_t i = 0; folders != NULL && i < n; i++)
    free (folders[i]);
  free (folders);
}
