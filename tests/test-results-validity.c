/* SPDX-License-Identifier: GPL-3.0-or-later */
/* results-validity: what a results folder says about the validity of its
 * impulse responses (rw-results.h, issue #12), and the analysis that
 * carries it (rw-analysis.h):
 *  - a hybrid run's results.json (written by rw_sim_write_outputs) gives
 *    valid-up-to = the output's Nyquist frequency (24 kHz at 48 kHz, the
 *    file's valid_up_to_hz), the crossover, and per octave band the
 *    method the rule of docs/GEOMETRICAL.md gives (worked out here by
 *    hand for fc = 250 Hz: 63, 125 Hz wave; 250 Hz both; 500 Hz … 8 kHz
 *    geometrical), the same read from the folder (rw_results_read) and
 *    from beside a WAV (rw_results_read_validity);
 *  - its --parts WAVs: the wave part is valid to fmax, all wave; the
 *    geometrical part all geometrical, no crossover;
 *  - a wave-only run (hybrid off), a flat pre-2.0 style {"fmax_hz": …}
 *    and a missing results.json read as before: fmax, wave, no crossover;
 *    nothing, unknown, INFINITY;
 *  - a hybrid file with a bad method or no crossover fails naming the file;
 *  - the analysis of a decaying-noise IR with the hybrid validity flags no
 *    band above fmax (with fmax = 500 Hz, the 500 Hz … 8 kHz bands are),
 *    carries the methods (broadband: both) and the crossover into its
 *    JSON; the spatial average keeps methods and crossover the IRs share,
 *    and gives "mixed" and no crossover where they differ. */
#include "rw-test.h"
#include "rw-analysis.h"
#include "rw-results.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define FRAMES 48000

static const RwBandMethod expected_250[RW_N_OCTAVES] = {
  RW_BAND_METHOD_WAVE, RW_BAND_METHOD_WAVE, RW_BAND_METHOD_BOTH, RW_BAND_METHOD_GEOMETRICAL,
  RW_BAND_METHOD_GEOMETRICAL, RW_BAND_METHOD_GEOMETRICAL, RW_BAND_METHOD_GEOMETRICAL,
  RW_BAND_METHOD_GEOMETRICAL,
};

static float ir[FRAMES];

/* Exponentially decaying white noise, T60 = 0.8 s: every octave band has
 * a decay to analyse. */
static void
make_ir (void)
{
  uint64_t st = 12345;
  for (int i = 0; i < FRAMES; i++)
    ir[i] = (float) (rw_test_gauss (&st) * exp (-6.9078 * i / 48000.0 / 0.8));
}

static void
make_run (RwSimConfig *cfg, RwSimResult *res, bool hybrid)
{
  static float *irs[1] = { ir };
  static double at[1][3] = { { 3, 2, 1.5 } };
  static size_t cells[1] = { 17 };
  rw_sim_config_init (cfg);
  cfg->mesh_path = "room.obj";
  cfg->fmax_hz = 500;
  cfg->fs_out_hz = 48000;
  cfg->n_receivers = 1;
  memcpy (cfg->receivers, at, sizeof at);
  cfg->hybrid = hybrid;
  cfg->write_parts = false;
  memset (res, 0, sizeof *res);
  res->c = 343;
  res->spacing_m = 0.05;
  res->fs_grid_hz = 12000;
  res->fmax_hz = cfg->fmax_hz;
  res->fs_out_hz = 48000;
  res->nx = res->ny = res->nz = 10;
  res->n_inside = 500;
  res->n_boundary = 100;
  res->n_steps = res->n_steps_run = 100;
  snprintf (res->backend, sizeof res->backend, "cpu");
  snprintf (res->device, sizeof res->device, "test");
  res->n_receivers = 1;
  res->ir = irs;
  res->ir_frames = FRAMES;
  res->receiver_cells = cells;
  res->receivers_at = at;
  res->hybrid = hybrid;
  if (hybrid)
    {
      res->crossover_hz = 250;
      res->fit_bands = 8;
      rw_hybrid_band_methods (250, res->band_method);
    }
}

/* A results folder as rw_sim_write_outputs writes it. */
static const char *
write_run (const char *name, bool hybrid)
{
  RwSimConfig cfg;
  RwSimResult res;
  make_run (&cfg, &res, hybrid);
  const char *dir = rw_test_tmp_path (name);
  RwError err = { 0 };
  RW_CHECK (rw_sim_write_outputs (&cfg, &res, dir, &err), "write %s: %s", dir, err.message);
  return dir;
}

static void
check_methods (const char *what, const RwBandMethod *got, const RwBandMethod *want)
{
  for (int b = 0; b < RW_N_OCTAVES; b++)
    RW_CHECK (got[b] == want[b], "%s: %g Hz band is %s, expected %s", what, rw_octave_centres_hz[b],
              rw_band_method_name (got[b]), rw_band_method_name (want[b]));
}

/* The text of path with every `from` replaced by `to` (one occurrence). */
static char *
edited (const char *path, const char *from, const char *to)
{
  FILE *f = fopen (path, "r");
  char *text = calloc (1, 1 << 20);
  size_t n = f ? fread (text, 1, (1 << 20) - 1, f) : 0;
  if (f)
    fclose (f);
  text[n] = '\0';
  char *at = strstr (text, from);
  RW_CHECK (at != NULL, "%s holds %s", path, from);
  if (at == NULL)
    return text;
  char *out = calloc (1, n + strlen (to) + 1);
  memcpy (out, text, (size_t) (at - text));
  strcat (out, to);
  strcat (out, at + strlen (from));
  free (text);
  return out;
}

int
main (void)
{
  RwError err = { 0 };
  RwIrValidity v;
  make_ir ();

  /* ---- a hybrid run: from the folder and from beside its WAV ---- */
  char *hyb = strdup (write_run ("hybrid", true));   /* kept: the paths rotate */
  RwResults res;
  RW_CHECK (rw_results_read (hyb, &res, &err), "read %s: %s", hyb, err.message);
  rw_results_validity (&res, &v);
  RW_CHECK (v.found && v.hybrid && v.valid_up_to_hz == 24000 && v.crossover_hz == 250,
            "hybrid folder: found %d hybrid %d valid to %g Hz, crossover %g Hz", v.found, v.hybrid,
            v.valid_up_to_hz, v.crossover_hz);
  check_methods ("hybrid folder", v.method, expected_250);
  rw_results_clear (&res);

  char wav[1200];
  snprintf (wav, sizeof wav, "%s/receiver-1.wav", hyb);
  RW_CHECK (rw_results_read_validity (wav, &v, &err), "validity beside %s: %s", wav, err.message);
  RW_CHECK (v.found && v.hybrid && v.valid_up_to_hz == 24000 && v.crossover_hz == 250,
            "hybrid, beside the WAV: valid to %g Hz, crossover %g Hz", v.valid_up_to_hz, v.crossover_hz);
  check_methods ("hybrid, beside the WAV", v.method, expected_250);

  /* the parts --parts writes beside the joined IRs */
  char json[1200];
  snprintf (json, sizeof json, "%s/results.json", hyb);
  char *with_parts = edited (json, "\"fit_bands\"",
                             "\"outputs_wave\": [\"wave-1.wav\"], \"outputs_geometrical\": "
                             "[\"geometrical-1.wav\"], \"fit_bands\"");
  const char *parts = rw_test_tmp_path ("parts");
  mkdir (parts, 0700);
  rw_test_write_text ("parts/results.json", with_parts);
  free (with_parts);
  RwBandMethod all_wave[RW_N_OCTAVES], all_ga[RW_N_OCTAVES], unknown[RW_N_OCTAVES];
  for (int b = 0; b < RW_N_OCTAVES; b++)
    {
      all_wave[b] = RW_BAND_METHOD_WAVE;
      all_ga[b] = RW_BAND_METHOD_GEOMETRICAL;
      unknown[b] = RW_BAND_METHOD_UNKNOWN;
    }
  snprintf (wav, sizeof wav, "%s/wave-1.wav", parts);
  RW_CHECK (rw_results_read_validity (wav, &v, &err), "validity of the wave part: %s", err.message);
  RW_CHECK (!v.hybrid && v.valid_up_to_hz == 500 && isnan (v.crossover_hz),
            "wave part: valid to fmax (%g Hz), no crossover (%g)", v.valid_up_to_hz, v.crossover_hz);
  check_methods ("wave part", v.method, all_wave);
  snprintf (wav, sizeof wav, "%s/geometrical-1.wav", parts);
  RW_CHECK (rw_results_read_validity (wav, &v, &err), "validity of the geometrical part: %s", err.message);
  RW_CHECK (v.valid_up_to_hz == 24000 && isnan (v.crossover_hz),
            "geometrical part: valid to %g Hz, crossover %g", v.valid_up_to_hz, v.crossover_hz);
  check_methods ("geometrical part", v.method, all_ga);

  /* ---- wave-only and older files: as before ---- */
  char *wave = strdup (write_run ("wave", false));
  RW_CHECK (rw_results_read (wave, &res, &err), "read %s: %s", wave, err.message);
  rw_results_validity (&res, &v);
  RW_CHECK (v.found && !v.hybrid && v.valid_up_to_hz == 500 && isnan (v.crossover_hz),
            "wave-only folder: valid to %g Hz, crossover %g", v.valid_up_to_hz, v.crossover_hz);
  check_methods ("wave-only folder", v.method, all_wave);
  rw_results_clear (&res);
  snprintf (wav, sizeof wav, "%s/receiver-1.wav", wave);
  RW_CHECK (rw_results_read_validity (wav, &v, &err) && v.valid_up_to_hz == 500 && isnan (v.crossover_hz),
            "wave-only, beside the WAV: %g Hz", v.valid_up_to_hz);

  const char *flat = rw_test_tmp_path ("flat");
  mkdir (flat, 0700);
  rw_test_write_text ("flat/results.json", "{\"fmax_hz\": 800, \"grid\": {\"nx\": 3}}");
  snprintf (wav, sizeof wav, "%s/x.wav", flat);
  RW_CHECK (rw_results_read_validity (wav, &v, &err) && v.found && v.valid_up_to_hz == 800
            && isnan (v.crossover_hz), "flat results.json: fmax %g Hz", v.valid_up_to_hz);
  check_methods ("flat results.json", v.method, all_wave);
  snprintf (wav, sizeof wav, "%s/nothing/x.wav", rw_test_tmpdir ());
  RW_CHECK (rw_results_read_validity (wav, &v, &err) && !v.found && isinf (v.valid_up_to_hz)
            && isnan (v.crossover_hz), "no results.json: nothing known (%g Hz)", v.valid_up_to_hz);
  check_methods ("no results.json", v.method, unknown);

  /* ---- broken hybrid files fail naming the file ---- */
  snprintf (json, sizeof json, "%s/results.json", hyb);
  struct { const char *name, *from, *to, *word; } bad[] = {
    { "bad-method", "\"method\":\"both\"", "\"method\":\"magic\"", "hybrid.bands[2].method" },
    { "no-crossover", "\"crossover_hz\":250.0", "\"crossover\":250.0", "hybrid.crossover_hz" },
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
      char *text = edited (json, bad[i].from, bad[i].to);
      const char *dir = rw_test_tmp_path (bad[i].name);
      mkdir (dir, 0700);
      char name[128], path[1200];
      snprintf (name, sizeof name, "%s/results.json", bad[i].name);
      /* settings.hybrid.crossover_hz is null here: only the root object's
       * key matches "crossover_hz":250.0 */
      snprintf (path, sizeof path, "%s", rw_test_write_text (name, text));
      free (text);
      snprintf (wav, sizeof wav, "%s/receiver-1.wav", dir);
      memset (&err, 0, sizeof err);
      bool ok = rw_results_read_validity (wav, &v, &err);
      RW_CHECK (!ok && strstr (err.message, path) && strstr (err.message, bad[i].word),
                "%s: refused naming the file and %s: %s", bad[i].name, bad[i].word, err.message);
    }

  /* ---- the analysis with it ---- */
  RwIrValidity hv;
  snprintf (wav, sizeof wav, "%s/receiver-1.wav", hyb);
  RW_CHECK (rw_results_read_validity (wav, &hv, &err), "validity of %s: %s", wav, err.message);
  RwAnalysis a[3], avg;
  memset (a, 0, sizeof a);
  RW_CHECK (rw_analyse (ir, FRAMES, 48000, hv.valid_up_to_hz, &a[0], &err), "analyse: %s", err.message);
  RW_CHECK (isnan (a[0].crossover_hz), "rw_analyse alone knows no crossover (%g)", a[0].crossover_hz);
  rw_ir_validity_apply (&hv, &a[0]);
  for (int b = 0; b < RW_N_OCTAVES; b++)
    RW_CHECK (!a[0].bands[b].above_fmax && a[0].bands[b].analysed && a[0].bands[b].method == expected_250[b],
              "hybrid analysis, %g Hz: above_fmax %d analysed %d method %s", rw_octave_centres_hz[b],
              a[0].bands[b].above_fmax, a[0].bands[b].analysed, rw_band_method_name (a[0].bands[b].method));
  RW_CHECK (a[0].bands[RW_ANALYSIS_BROADBAND].method == RW_BAND_METHOD_BOTH && a[0].crossover_hz == 250,
            "hybrid analysis: broadband both, crossover 250 Hz");
  char *js = rw_analysis_to_json (&a[0], NULL);
  RW_CHECK (js && strstr (js, "\"crossover_hz\":250.0") && strstr (js, "\"method\":\"both\"")
            && strstr (js, "\"method\":\"geometrical\""), "JSON: crossover and methods: %.200s", js);
  free (js);
  /* the same IR taken as a wave-only run to 500 Hz: 500 Hz and up flagged */
  RW_CHECK (rw_analyse (ir, FRAMES, 48000, 500, &a[2], &err), "analyse: %s", err.message);
  for (int b = 0; b < RW_N_OCTAVES; b++)
    RW_CHECK (a[2].bands[b].above_fmax == (rw_octave_centres_hz[b] >= 500),
              "wave-only to 500 Hz: the %g Hz band above_fmax %d", rw_octave_centres_hz[b],
              a[2].bands[b].above_fmax);

  /* spatial average: shared methods and crossover kept */
  RW_CHECK (rw_analyse (ir, FRAMES, 48000, hv.valid_up_to_hz, &a[1], &err), "analyse: %s", err.message);
  rw_ir_validity_apply (&hv, &a[1]);
  RW_CHECK (rw_analysis_average (a, 2, &avg, &err), "average: %s", err.message);
  RW_CHECK (avg.crossover_hz == 250, "average of two hybrids: crossover %g", avg.crossover_hz);
  for (int b = 0; b < RW_N_OCTAVES; b++)
    RW_CHECK (avg.bands[b].method == expected_250[b] && !avg.bands[b].above_fmax,
              "average of two hybrids, %g Hz: %s", rw_octave_centres_hz[b],
              rw_band_method_name (avg.bands[b].method));
  rw_analysis_clear (&avg);
  /* a hybrid and a wave-only IR: wave where both are (63, 125 Hz), mixed
   * elsewhere, no crossover for both */
  RwIrValidity wv;
  snprintf (wav, sizeof wav, "%s/receiver-1.wav", wave);
  RW_CHECK (rw_results_read_validity (wav, &wv, &err), "validity of %s: %s", wav, err.message);
  rw_ir_validity_apply (&wv, &a[2]);
  RwAnalysis pair[2] = { a[0], a[2] };
  RW_CHECK (rw_analysis_average (pair, 2, &avg, &err), "average: %s", err.message);
  RW_CHECK (isnan (avg.crossover_hz), "hybrid + wave-only: no crossover (%g)", avg.crossover_hz);
  for (int b = 0; b < RW_N_OCTAVES; b++)
    {
      RwBandMethod want = b < 2 ? RW_BAND_METHOD_WAVE : RW_BAND_METHOD_MIXED;
      RW_CHECK (avg.bands[b].method == want, "hybrid + wave-only, %g Hz: %s, expected %s",
                rw_octave_centres_hz[b], rw_band_method_name (avg.bands[b].method), rw_band_method_name (want));
    }
  rw_analysis_clear (&avg);
  for (int i = 0; i < 3; i++)
    rw_analysis_clear (&a[i]);
  free (hyb);
  free (wave);
  return rw_test_finish ();
}
