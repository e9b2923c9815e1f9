/* SPDX-License-Identifier: GPL-3.0-or-later */
/* results-roundtrip: the results folder (rw-results.h) reads back what
 * rw_sim_write_outputs wrote, and refuses what it cannot trust:
 *  - every recorded setting and result comes back equal (numbers exactly,
 *    the IR samples bit for bit), with "format" and "version"; the air
 *    absorption (version 2.1) too: humidity, on or off, and each band's
 *    coefficient; a version 2.0 file (no air absorption recorded) reads as
 *    a run without it, humidity unknown (NaN); the timings of 2.6 (setup,
 *    writing) come back, and a 2.5 file without them reads them as NaN;
 *  - air absorption enabled without bands, or a negative coefficient, is
 *    refused;
 *  - a newer version, an older one, a file without "format" (what
 *    `simulate` wrote before the format had a version), bad JSON, an
 *    empty file, a missing field, a value out of range, an unknown
 *    precision name, a missing WAV, a WAV of another length or rate, and
 *    an output name that leaves the folder are refused, each with a
 *    message naming the file and the problem;
 *  - a folder of several sources' folders is named as such, and
 *    rw_results_list finds source-1 … source-N. */
#include "rw-test.h"
#include "rw-audio.h"
#include "rw-results.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define N_RCV 2
#define FRAMES 480

static void
make_run (RwSimConfig *cfg, RwSimResult *res)
{
  static char *names[] = { "floor", "walls" }, *materials[] = { "parquet", "" };
  static double R[] = { 0.91, -0.25 };
  static size_t cells[N_RCV] = { 1234, 5678 };
  static double at[N_RCV][3] = { { 1.05, 2.0, 1.2 }, { 3.5, 0.75, 1.6 } };
  static float ir[N_RCV][FRAMES];
  static float *irs[N_RCV] = { ir[0], ir[1] };

  rw_sim_config_init (cfg);
  cfg->mesh_path = "/rooms/hall.obj";
  cfg->scale = 0.001;
  cfg->fmax_hz = 1234.5;
  cfg->ppw = 10.5;
  cfg->duration_s = 0.01;
  cfg->temperature_c = 18.25;
  cfg->humidity_pct = 37.5;
  cfg->uniform_R = 0.3;
  cfg->materials_map = "map.json";
  cfg->boundary = RW_BOUNDARY_LRS;
  cfg->backend = RW_BACKEND_CPU;
  cfg->precision = RW_PRECISION_F64;
  cfg->fs_out_hz = 48000;
  cfg->source[0] = 1.0, cfg->source[1] = 2.0, cfg->source[2] = 1.25;
  cfg->n_receivers = N_RCV;
  memcpy (cfg->receivers, at, sizeof at);
  cfg->receivers[1][0] = 3.49;

  memset (res, 0, sizeof *res);
  res->c = 342.3;
  res->spacing_m = 0.0271;
  res->fs_grid_hz = 21901.7;
  res->fmax_hz = cfg->fmax_hz;
  res->fs_out_hz = 48000;
  res->nx = 101, res->ny = 77, res->nz = 53;
  res->n_inside = 300000, res->n_boundary = 40000;
  res->n_steps = 220, res->n_steps_run = 260;
  res->mesh_volume_m3 = 57.5, res->grid_volume_m3 = 57.1;
  snprintf (res->backend, sizeof res->backend, "cpu");
  snprintf (res->device, sizeof res->device, "Test CPU (2 threads)");
  res->n_surfaces = 2;
  res->surface_names = names;
  res->surface_materials = materials;
  res->surface_R = R;
  res->n_receivers = N_RCV;
  for (int r = 0; r < N_RCV; r++)
    for (int i = 0; i < FRAMES; i++)
      ir[r][i] = (float) (sin (0.01 * i * (r + 1)) * exp (-0.005 * i)) + 1e-9f * (float) i;
  res->ir = irs;
  res->ir_frames = FRAMES;
  res->t_import_s = 0.5, res->t_voxelise_s = 0.25, res->t_solve_s = 2.5;
  res->t_postprocess_s = 0.125, res->t_total_s = 3.4375, res->t_setup_s = 0.0625;
  res->mvox_per_s = 31.25;
  res->source_cell = 999;
  res->source_at[0] = 1.01, res->source_at[1] = 1.99, res->source_at[2] = 1.26;
  res->receiver_cells = cells;
  res->receivers_at = at;
  res->air_absorption = cfg->air_absorption;
  RwError err = { 0 };
  RW_CHECK (rw_air_bands (cfg->temperature_c, cfg->humidity_pct, RW_AIR_PRESSURE_KPA, 48000, &res->air, &err),
            "air bands: %s", err.message);
}

/* A fresh copy of the good folder under `name`, its JSON changed by
 * `edit` (may be NULL). */
static const char *
variant (const char *name, void (*edit) (json_object *root))
{
  const RwSimConfig *cfg;
  RwSimResult *res;
  static RwSimConfig c;
  static RwSimResult r;
  make_run (&c, &r);
  cfg = &c, res = &r;
  const char *dir = rw_test_tmp_path (name);
  RwError err = { 0 };
  RW_CHECK (rw_sim_write_outputs (cfg, res, dir, &err), "write %s: %s", dir, err.message);
  if (edit != NULL)
    {
      char path[1100];
      snprintf (path, sizeof path, "%s/results.json", dir);
      json_object *root = json_object_from_file (path);
      edit (root);
      json_object_to_file (path, root);
      json_object_put (root);
    }
  return dir;
}

/* rw_results_read fails, and its message holds each of the words. */
static void
refused (const char *dir, const char *what, const char *word1, const char *word2)
{
  RwResults got;
  RwError err = { 0 };
  bool ok = rw_results_read (dir, &got, &err);
  RW_CHECK (!ok, "%s: read though it should be refused", what);
  if (ok)
    {
      rw_results_clear (&got);
      return;
    }
  RW_NOTE ("%s → %s", what, err.message);
  RW_CHECK (strstr (err.message, word1) != NULL, "%s: message lacks '%s': %s", what, word1, err.message);
  RW_CHECK (word2 == NULL || strstr (err.message, word2) != NULL, "%s: message lacks '%s': %s", what, word2,
            err.message);
  RW_CHECK (err.code == RW_ERROR_INPUT || err.code == RW_ERROR_IO, "%s: code %d", what, err.code);
}

static void
drop_air (json_object *root)
{
  json_object *set;
  json_object_object_get_ex (root, "settings", &set);
  json_object_object_del (set, "humidity_pct");
  json_object_object_del (set, "air_absorption");
  json_object_object_del (root, "version_minor");
}
/* settings.air_absorption, or a fresh one when the writer left it out
 * (the edits below then still make a file to read). */
static json_object *
air_of (json_object *root)
{
  json_object *set = NULL, *air = NULL;
  json_object_object_get_ex (root, "settings", &set);
  if (!json_object_object_get_ex (set, "air_absorption", &air) || air == NULL)
    json_object_object_add (set, "air_absorption", air = json_object_new_object ());
  return air;
}
static void no_air_bands (json_object *root) { json_object_object_add (air_of (root), "bands", json_object_new_array ()); }
static void
air_off (json_object *root)
{
  json_object_object_add (air_of (root), "enabled", json_object_new_boolean (0));
  no_air_bands (root);
}
static void
negative_alpha (json_object *root)
{
  json_object *bands = NULL, *band;
  json_object_object_get_ex (air_of (root), "bands", &bands);
  if (json_object_is_type (bands, json_type_array) && (band = json_object_array_get_idx (bands, 3)) != NULL)
    json_object_object_add (band, "alpha_db_per_m", json_object_new_double (-0.01));
}

static void set_version_3 (json_object *root) { json_object_object_add (root, "version", json_object_new_int (3)); }
static void set_version_1 (json_object *root) { json_object_object_add (root, "version", json_object_new_int (1)); }
/* a 2.5 file: no setup or writing time */
static void
drop_setup_write (json_object *root)
{
  json_object *tim = NULL;
  json_object_object_get_ex (root, "timings", &tim);
  json_object_object_del (tim, "setup_s");
  json_object_object_del (tim, "write_s");
  json_object_object_add (root, "version_minor", json_object_new_int (5));
}
static void drop_format (json_object *root) { json_object_object_del (root, "format"); json_object_object_del (root, "version"); }
static void drop_fs_out (json_object *root) { json_object_object_del (root, "fs_out_hz"); }
static void bad_ppw (json_object *root)
{
  json_object *set;
  json_object_object_get_ex (root, "settings", &set);
  json_object_object_add (set, "ppw", json_object_new_double (-3));
}
static void bad_precision (json_object *root)
{
  json_object *set;
  json_object_object_get_ex (root, "settings", &set);
  json_object_object_add (set, "precision", json_object_new_string ("f8"));
}
static void escaping_output (json_object *root)
{
  json_object *outs;
  json_object_object_get_ex (root, "outputs", &outs);
  json_object_array_put_idx (outs, 1, json_object_new_string ("../receiver-2.wav"));
}

static void
write_text (const char *dir, const char *name, const char *text)
{
  char path[1100];
  snprintf (path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen (path, "w");
  fputs (text, f);
  fclose (f);
}

int
main (void)
{
  RwSimConfig cfg;
  RwSimResult res;
  RwResults got;
  RwError err = { 0 };

  /* Round trip. */
  const char *dir = variant ("good", NULL);
  make_run (&cfg, &res);
  RW_CHECK (rw_results_read (dir, &got, &err), "read: %s", err.message);
  RW_CHECK (got.version == RW_RESULTS_VERSION, "version %d", got.version);
  RW_CHECK (strcmp (got.mesh_file, cfg.mesh_path) == 0 && got.config.mesh_path == got.mesh_file, "mesh %s",
            got.mesh_file);
  RW_CHECK (got.config.materials_map && strcmp (got.config.materials_map, "map.json") == 0, "materials map");
  RW_CHECK (got.config.scale == cfg.scale && got.config.fmax_hz == cfg.fmax_hz && got.config.ppw == cfg.ppw
            && got.config.duration_s == cfg.duration_s && got.config.temperature_c == cfg.temperature_c
            && got.config.uniform_R == cfg.uniform_R && got.config.fs_out_hz == cfg.fs_out_hz,
            "settings differ");
  RW_CHECK (got.config.boundary == cfg.boundary && got.config.backend == cfg.backend
            && got.config.precision == cfg.precision, "names: %d %d %d", got.config.boundary,
            got.config.backend, got.config.precision);
  RW_CHECK (memcmp (got.config.source, cfg.source, sizeof cfg.source) == 0, "source");
  RW_CHECK (got.config.n_receivers == N_RCV
            && memcmp (got.config.receivers, cfg.receivers, N_RCV * sizeof cfg.receivers[0]) == 0, "receivers");
  const RwSimResult *g = &got.result;
  RW_CHECK (g->c == res.c && g->spacing_m == res.spacing_m && g->fs_grid_hz == res.fs_grid_hz
            && g->fmax_hz == res.fmax_hz && g->fs_out_hz == res.fs_out_hz, "rates differ");
  RW_CHECK (g->nx == res.nx && g->ny == res.ny && g->nz == res.nz && g->n_inside == res.n_inside
            && g->n_boundary == res.n_boundary && g->n_steps == res.n_steps && g->n_steps_run == res.n_steps_run,
            "grid differs");
  RW_CHECK (g->mesh_volume_m3 == res.mesh_volume_m3 && g->grid_volume_m3 == res.grid_volume_m3, "volumes");
  RW_CHECK (strcmp (g->backend, res.backend) == 0 && strcmp (g->device, res.device) == 0, "backend %s / %s",
            g->backend, g->device);
  RW_CHECK (g->n_surfaces == 2, "%zu surfaces", g->n_surfaces);
  for (size_t i = 0; i < 2 && i < g->n_surfaces; i++)
    RW_CHECK (strcmp (g->surface_names[i], res.surface_names[i]) == 0
              && strcmp (g->surface_materials[i], res.surface_materials[i]) == 0
              && g->surface_R[i] == res.surface_R[i], "surface %zu", i);
  RW_CHECK (g->t_import_s == res.t_import_s && g->t_voxelise_s == res.t_voxelise_s
            && g->t_solve_s == res.t_solve_s && g->t_postprocess_s == res.t_postprocess_s
            && g->t_total_s == res.t_total_s && g->mvox_per_s == res.mvox_per_s, "timings");
  /* 2.6: the setup as given; the writing as rw_sim_write_outputs measured it */
  RW_CHECK (g->t_setup_s == res.t_setup_s && isfinite (g->t_write_s) && g->t_write_s >= 0,
            "setup %g s (wrote %g), writing %g s", g->t_setup_s, res.t_setup_s, g->t_write_s);
  RW_CHECK (g->source_cell == res.source_cell && memcmp (g->source_at, res.source_at, sizeof res.source_at) == 0,
            "source cell");
  RW_CHECK (g->n_receivers == N_RCV && g->ir_frames == FRAMES, "%zu IRs of %zu", g->n_receivers, g->ir_frames);
  for (size_t r = 0; r < N_RCV && r < g->n_receivers; r++)
    {
      RW_CHECK (g->receiver_cells[r] == res.receiver_cells[r]
                && memcmp (g->receivers_at[r], res.receivers_at[r], sizeof res.receivers_at[r]) == 0,
                "receiver %zu cell", r);
      RW_CHECK (memcmp (g->ir[r], res.ir[r], FRAMES * sizeof (float)) == 0, "IR %zu differs", r);
      RW_CHECK (strcmp (got.outputs[r], r ? "receiver-2.wav" : "receiver-1.wav") == 0, "output %s",
                got.outputs[r]);
    }
  /* Air absorption, version 2.1. */
  RW_CHECK (got.config.humidity_pct == cfg.humidity_pct, "humidity %g", got.config.humidity_pct);
  RW_CHECK (got.config.air_absorption && g->air_absorption, "air absorption came back off");
  RW_CHECK (g->air.n_bands == res.air.n_bands && res.air.n_bands == 10, "%zu air bands, wrote %zu",
            g->air.n_bands, res.air.n_bands);
  for (size_t b = 0; b < g->air.n_bands && b < res.air.n_bands; b++)
    RW_CHECK (g->air.alpha_db_per_m[b] == res.air.alpha_db_per_m[b] && g->air.centre_hz[b] == res.air.centre_hz[b]
              && g->air.nominal_hz[b] == res.air.nominal_hz[b], "air band %zu: %.17g vs %.17g", b,
              g->air.alpha_db_per_m[b], res.air.alpha_db_per_m[b]);
  rw_results_clear (&got);
  RW_CHECK (rw_results_read (variant ("v2.0", drop_air), &got, &err), "read 2.0: %s", err.message);
  RW_CHECK (!got.config.air_absorption && !got.result.air_absorption && got.result.air.n_bands == 0
            && isnan (got.config.humidity_pct), "a 2.0 file: air %d, %zu bands, humidity %g",
            got.config.air_absorption, got.result.air.n_bands, got.config.humidity_pct);
  rw_results_clear (&got);
  RW_CHECK (rw_results_read (variant ("v2.5", drop_setup_write), &got, &err), "read 2.5: %s", err.message);
  RW_CHECK (isnan (got.result.t_setup_s) && isnan (got.result.t_write_s) && got.result.t_solve_s == res.t_solve_s,
            "a 2.5 file: setup %g s, writing %g s (not measured: NaN)", got.result.t_setup_s,
            got.result.t_write_s);
  rw_results_clear (&got);
  RW_CHECK (rw_results_read (variant ("air-off", air_off), &got, &err), "read air off: %s", err.message);
  RW_CHECK (!got.config.air_absorption && got.result.air.n_bands == 0 && got.config.humidity_pct == 37.5,
            "air off: air %d, %zu bands, humidity %g", got.config.air_absorption, got.result.air.n_bands,
            got.config.humidity_pct);
  rw_results_clear (&got);

  /* Refusals, each naming the file and the problem. */
  refused (variant ("air-no-bands", no_air_bands), "air absorption without bands", "results.json",
           "settings.air_absorption.bands");
  refused (variant ("air-negative", negative_alpha), "negative air absorption", "results.json",
           "\"settings.air_absorption.bands[3].alpha_db_per_m\" is -0.01");
  refused (variant ("newer", set_version_3), "newer version", "results.json", "newer Roomwave");
  refused (variant ("older", set_version_1), "older version", "results.json", "older Roomwave");
  refused (variant ("no-format", drop_format), "no format field", "results.json", "older Roomwave");
  refused (variant ("no-fs-out", drop_fs_out), "missing field", "results.json", "\"fs_out_hz\"");
  refused (variant ("bad-ppw", bad_ppw), "ppw out of range", "results.json", "\"settings.ppw\" is -3");
  refused (variant ("bad-precision", bad_precision), "unknown precision", "\"settings.precision\"", "f8");
  refused (variant ("escaping", escaping_output), "output outside the folder", "results.json", "outputs[1]");
  dir = variant ("bad-json", NULL);
  write_text (dir, "results.json", "{ \"format\": \"roomwave-results\", \"version\": 2, ");
  refused (dir, "truncated JSON", "results.json", "not valid JSON");
  write_text (dir, "results.json", "{ \"format\": \"roomwave-results\" ]");
  refused (dir, "bad JSON", "results.json", "not valid JSON");
  write_text (dir, "results.json", "");
  refused (dir, "empty file", "results.json", "empty");
  write_text (dir, "results.json", "[1, 2]");
  refused (dir, "not an object", "results.json", "not a Roomwave results file");

  dir = variant ("missing-wav", NULL);
  char wav[1100];
  snprintf (wav, sizeof wav, "%s/receiver-2.wav", dir);
  unlink (wav);
  refused (dir, "missing WAV", "receiver-2.wav", "cannot open");
  dir = variant ("short-wav", NULL);
  snprintf (wav, sizeof wav, "%s/receiver-1.wav", dir);
  float half[FRAMES / 2] = { 0.5f };
  RwAudio a = { half, FRAMES / 2, 1, 48000 };
  RW_CHECK (rw_audio_write (wav, &a, &err), "write short WAV: %s", err.message);
  refused (dir, "short WAV", "receiver-1.wav", "240 samples");
  a.frames = FRAMES;
  float full[FRAMES] = { 0.5f };
  a.data = full;
  a.rate_hz = 44100;
  RW_CHECK (rw_audio_write (wav, &a, &err), "write 44.1 kHz WAV: %s", err.message);
  refused (dir, "WAV of another rate", "receiver-1.wav", "44100 Hz");

  refused (rw_test_tmp_path ("nowhere"), "no folder", "nowhere", "cannot open");
  refused (wav, "a file, not a folder", "receiver-1.wav", "not a folder");

  /* Several sources: DIR/source-1, DIR/source-2. */
  const char *multi = rw_test_tmp_path ("multi");
  mkdir (multi, 0755);
  for (int s = 1; s <= 2; s++)
    {
      char sub[1100];
      snprintf (sub, sizeof sub, "multi/source-%d", s);
      variant (sub, NULL);
    }
  refused (multi, "several sources", "multi", "several sources");
  char **folders = NULL;
  size_t n = 0;
  RW_CHECK (rw_results_list (multi, &folders, &n, &err), "list: %s", err.message);
  RW_CHECK (n == 2 && strstr (folders[1], "multi/source-2") != NULL, "%zu folders", n);
  rw_results_list_free (folders, n);
  RW_CHECK (rw_results_list (variant ("one", NULL), &folders, &n, &err) && n == 1, "list one: %s", err.message);
  rw_results_list_free (folders, n);
  RW_CHECK (!rw_results_list (rw_test_tmp_path ("nowhere"), &folders, &n, &err), "list of nothing succeeded");
  RW_NOTE ("list nothing → %s", err.message);
  return rw_test_finish ();
}
