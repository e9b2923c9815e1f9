/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sim-hybrid: the full-band IR through the pipeline (rw_sim_solve with
 * cfg.hybrid, the path of `simulate` and of the GUI's Run) in a 3 × 2.5 ×
 * 2 m box of frequency-independent walls (R = 0.9) at fmax 500 Hz, 0.3 s:
 *  - the wave part the hybrid run keeps (write_parts) is bit for bit the
 *    IR of the same run with hybrid off: the geometrical stage adds to the
 *    wave part, it does not alter it;
 *  - the join is wired right: the hybrid IR's spectrum equals the wave
 *    part's below the transition band (energy from 40 Hz to 0.9 × its
 *    lower edge within 0.05 dB) and the geometrical part's above it
 *    (1.1 × its upper edge to 20 kHz, within 0.05 dB). Parts shifted by
 *    one sample, at another rate, or the filters swapped break this;
 *  - full band: the wave-only IR holds less than 1e-4 of its energy
 *    above 1.5 fmax (its low-pass), the hybrid more than 1 % of its energy
 *    between 2 and 20 kHz; and the hybrid has energy up to 20 kHz (the
 *    band 16–20 kHz within 30 dB of the 1–2 kHz band);
 *  - the crossover used is fmax / 2 by default and the one asked for
 *    otherwise; each octave band's method as rw_hybrid_band_methods says;
 *  - the same seed gives the same IR bit for bit; another seed another
 *    late part, but the same first 5 ms (the direct sound alone arrives
 *    there) to within 1 % of the peak: the late part's band filters are
 *    zero phase, so their pre-ringing reaches a few ms before its first
 *    arrival (measured 0.13 % of the peak);
 *  - the results folder: results.json records the hybrid settings and
 *    the crossover and reads back (rw_results_read) with them; wave-N.wav
 *    and geometrical-N.wav written with --parts;
 *  - progress: the wave part's reports, then the geometrical part's (no
 *    solver); a stop there returns RW_ERROR_CANCELLED;
 *  - bad settings are refused before any solve, naming the setting: a
 *    crossover above fmax / 1.293, 0 rays, an image-source order of 11,
 *    R = −1; and a receiver in the source's cell. */
#include "rw-test.h"
#include "rw-results.h"
#include "rw-shapes.h"
#include "rw-sim.h"

#include <complex.h>
#include <fftw3.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define FMAX 500.0

static void
config (RwSimConfig *cfg)
{
  rw_sim_config_init (cfg);
  cfg->fmax_hz = FMAX;
  cfg->duration_s = 0.3;
  cfg->backend = RW_BACKEND_CPU;
  cfg->uniform_R = 0.9;
  cfg->n_rays = 4000;
  cfg->source[0] = 0.8, cfg->source[1] = 0.7, cfg->source[2] = 0.9;
  cfg->n_receivers = 1;
  cfg->receivers[0][0] = 2.1, cfg->receivers[0][1] = 1.6, cfg->receivers[0][2] = 1.2;
}

/* Counts the reports of each part; stops at the first geometrical one. */
typedef struct {
  int wave, geometrical;
  bool solver_in_geometrical;
} Reports;

static bool
stop_in_geometrical (const RwProgress *p, void *user_data)
{
  Reports *r = user_data;
  if (p->part == RW_PROGRESS_GEOMETRICAL)
    {
      r->geometrical++;
      r->solver_in_geometrical |= p->solver != NULL;
      return false;
    }
  r->wave++;
  return true;
}

static RwProgressFn run_progress;
static void *run_progress_data;

/* rw_sim_solve on the box, every surface R = 0.9 (the GUI's path). */
static bool
run (const RwSimConfig *cfg, RwSimResult *res, RwError *err)
{
  RwMesh *mesh = rw_shape_box (3.0, 2.5, 2.0);
  memset (res, 0, sizeof *res);
  double R[6];
  res->surface_models = calloc (6, sizeof (RwSurfaceModel));
  for (size_t s = 0; s < 6; s++)
    {
      R[s] = cfg->uniform_R;
      rw_surface_model_from_R (R[s], &res->surface_models[s]);
    }
  bool ok = rw_sim_solve (cfg, mesh, R, run_progress, run_progress_data, NULL, res, err);
  rw_mesh_free (mesh);
  return ok;
}

/* Σ |X(f)|² over lo ≤ f < hi of x (n samples at fs). */
static double
band_energy (const float *x, size_t n, double fs, double lo, double hi)
{
  double *in = fftw_malloc (n * sizeof *in);
  fftw_complex *X = fftw_malloc ((n / 2 + 1) * sizeof *X);
  fftw_plan p = fftw_plan_dft_r2c_1d ((int) n, in, X, FFTW_ESTIMATE);
  for (size_t i = 0; i < n; i++)
    in[i] = x[i];
  fftw_execute (p);
  double e = 0;
  for (size_t k = 0; k <= n / 2; k++)
    {
      const double f = (double) k * fs / (double) n;
      if (f >= lo && f < hi)
        e += creal (X[k]) * creal (X[k]) + cimag (X[k]) * cimag (X[k]);
    }
  fftw_destroy_plan (p);
  fftw_free (in);
  fftw_free (X);
  return e;
}

static double
db (double a, double b)
{
  return 10.0 * log10 (a / b);
}

static void
refused (const RwSimConfig *cfg, const char *what, const char *needle)
{
  RwSimResult res;
  RwError err = { 0 };
  const bool ok = run (cfg, &res, &err);
  RW_CHECK (!ok && err.code == RW_ERROR_INPUT && strstr (err.message, needle) != NULL
            && res.t_solve_s == 0, "%s: not refused before the solve with \"%s\": %s", what, needle,
            err.message);
  rw_sim_result_clear (&res);
}

int
main (void)
{
  RwSimConfig cfg;
  RwSimResult hy, wave, again, other;
  RwError err = { 0 };

  config (&cfg);
  cfg.write_parts = true;
  RW_CHECK (run (&cfg, &hy, &err), "hybrid run: %s", err.message);
  RwSimConfig off = cfg;
  off.hybrid = false;
  off.write_parts = false;
  RW_CHECK (run (&off, &wave, &err), "wave-only run: %s", err.message);
  if (hy.ir == NULL || wave.ir == NULL || hy.ir_wave == NULL || hy.ir_geometrical == NULL)
    return rw_test_finish ();

  const size_t n = hy.ir_frames;
  const double fs = hy.fs_out_hz;
  RW_CHECK (hy.hybrid && !wave.hybrid, "hybrid flags %d %d", hy.hybrid, wave.hybrid);
  RW_CHECK (wave.ir_frames == n && memcmp (hy.ir_wave[0], wave.ir[0], n * sizeof (float)) == 0,
            "the hybrid run's wave part is not the wave-only run's IR");
  RW_CHECK_CLOSE (hy.crossover_hz, FMAX / 2, 1e-12, "default crossover");
  RW_CHECK (fabs (rw_sim_valid_up_to_hz (&hy) - fs / 2) < 1e-9
            && fabs (rw_sim_valid_up_to_hz (&wave) - FMAX) < 1e-9, "valid up to %g / %g Hz",
            rw_sim_valid_up_to_hz (&hy), rw_sim_valid_up_to_hz (&wave));
  RwHybridMethod methods[RW_N_OCTAVES];
  rw_hybrid_band_methods (hy.crossover_hz, methods);
  RW_CHECK (memcmp (methods, hy.band_method, sizeof methods) == 0, "band methods");
  RW_CHECK (hy.fit_bands == RW_N_OCTAVES, "fit bands %d", hy.fit_bands);
  RW_CHECK (hy.ga_image_sources > 1, "image-source arrivals %zu", hy.ga_image_sources);

  /* the join, per frequency range */
  double transition[2];
  rw_hybrid_transition (hy.crossover_hz, transition);
  const double lo_top = 0.9 * transition[0], hi_bottom = 1.1 * transition[1];
  const double d_low = db (band_energy (hy.ir[0], n, fs, 40, lo_top),
                           band_energy (hy.ir_wave[0], n, fs, 40, lo_top));
  const double d_high = db (band_energy (hy.ir[0], n, fs, hi_bottom, 20000),
                            band_energy (hy.ir_geometrical[0], n, fs, hi_bottom, 20000));
  RW_NOTE ("hybrid vs wave part 40–%.0f Hz: %+.4f dB; vs geometrical part %.0f–20000 Hz: %+.4f dB",
           lo_top, d_low, hi_bottom, d_high);
  RW_CHECK (fabs (d_low) < 0.05, "below the transition the hybrid is not the wave part: %+.4f dB", d_low);
  RW_CHECK (fabs (d_high) < 0.05, "above the transition the hybrid is not the geometrical part: %+.4f dB",
            d_high);

  /* full band */
  const double w_all = band_energy (wave.ir[0], n, fs, 0, fs / 2);
  const double w_above = band_energy (wave.ir[0], n, fs, 1.5 * FMAX, fs / 2);
  const double h_all = band_energy (hy.ir[0], n, fs, 0, fs / 2);
  const double h_high = band_energy (hy.ir[0], n, fs, 2000, 20000);
  const double h_top = band_energy (hy.ir[0], n, fs, 16000, 20000);
  const double h_ref = band_energy (hy.ir[0], n, fs, 1000, 2000);
  RW_NOTE ("energy above 1.5 fmax: wave only %.3g of all; hybrid 2–20 kHz %.3g of all; "
           "16–20 kHz %.1f dB re 1–2 kHz", w_above / w_all, h_high / h_all, db (h_top, h_ref));
  RW_CHECK (w_above < 1e-4 * w_all, "the wave-only IR has %.3g of its energy above 1.5 fmax",
            w_above / w_all);
  RW_CHECK (h_high > 0.01 * h_all, "the hybrid IR has only %.3g of its energy in 2–20 kHz",
            h_high / h_all);
  RW_CHECK (db (h_top, h_ref) > -30, "16–20 kHz is %.1f dB below 1–2 kHz", db (h_top, h_ref));

  /* seeds */
  RwSimConfig one = cfg;
  one.write_parts = false;
  RW_CHECK (run (&one, &again, &err), "repeat: %s", err.message);
  one.seed = 2;
  RW_CHECK (run (&one, &other, &err), "seed 2: %s", err.message);
  if (again.ir != NULL && other.ir != NULL)
    {
      RW_CHECK (memcmp (again.ir[0], hy.ir[0], n * sizeof (float)) == 0, "the same seed gave another IR");
      const size_t early = (size_t) (0.005 * fs);
      double peak = 0, diff = 0;
      for (size_t i = 0; i < early; i++)
        {
          peak = fmax (peak, fabs (hy.ir[0][i]));
          diff = fmax (diff, fabs (other.ir[0][i] - hy.ir[0][i]));
        }
      RW_NOTE ("seed 2 against seed 1, first 5 ms: max |difference| %.3g of the peak", diff / peak);
      RW_CHECK (diff < 1e-2 * peak, "seed 2 changed the first 5 ms (image sources) by %.3g of the peak",
                diff / peak);
      RW_CHECK (memcmp (other.ir[0], hy.ir[0], n * sizeof (float)) != 0, "seed 2 gave the same IR");
    }

  /* the crossover asked for */
  RwSimConfig xo = one;
  xo.crossover_hz = 300;
  xo.n_rays = 500;
  RwSimResult rx;
  RW_CHECK (run (&xo, &rx, &err) && rx.crossover_hz == 300, "crossover 300 Hz: %s", err.message);
  rw_sim_result_clear (&rx);

  /* the results folder */
  char dir[4096];
  snprintf (dir, sizeof dir, "%s/out", rw_test_tmpdir ());
  RW_CHECK (rw_sim_write_outputs (&cfg, &hy, dir, &err), "write: %s", err.message);
  const char *files[] = { "receiver-1.wav", "wave-1.wav", "geometrical-1.wav" };
  for (size_t i = 0; i < 3; i++)
    {
      char path[4200];
      struct stat st;
      snprintf (path, sizeof path, "%s/%s", dir, files[i]);
      RW_CHECK (stat (path, &st) == 0, "%s not written", files[i]);
    }
  RwResults back;
  memset (&back, 0, sizeof back);
  RW_CHECK (rw_results_read (dir, &back, &err), "read back: %s", err.message);
  RW_CHECK (back.config.hybrid && back.result.hybrid && back.config.n_rays == cfg.n_rays
            && back.config.seed == cfg.seed && back.config.ism_order == cfg.ism_order
            && back.config.write_parts && back.result.crossover_hz == hy.crossover_hz
            && memcmp (back.result.band_method, hy.band_method, sizeof methods) == 0
            && back.result.fit_bands == hy.fit_bands,
            "results.json does not read back the hybrid settings");
  RW_CHECK (back.result.ir != NULL && memcmp (back.result.ir[0], hy.ir[0], n * sizeof (float)) == 0,
            "receiver-1.wav is not the hybrid IR");
  rw_results_clear (&back);

  /* progress through the geometrical part, and its cancel */
  Reports reports = { 0 };
  run_progress = stop_in_geometrical;
  run_progress_data = &reports;
  RwSimResult cancelled_res;
  const bool done = run (&one, &cancelled_res, &err);
  RW_CHECK (!done && err.code == RW_ERROR_CANCELLED && reports.wave > 0 && reports.geometrical == 1
            && !reports.solver_in_geometrical,
            "cancel in the geometrical part: ok %d, code %d, %d wave and %d geometrical reports",
            done, err.code, reports.wave, reports.geometrical);
  rw_sim_result_clear (&cancelled_res);
  run_progress = NULL;
  run_progress_data = NULL;

  /* refused before the solve */
  RwSimConfig bad = one;
  bad.crossover_hz = 400;
  refused (&bad, "crossover 400 Hz at fmax 500 Hz", "crossover");
  bad = one;
  bad.n_rays = 0;
  refused (&bad, "0 rays", "rays");
  bad = one;
  bad.ism_order = 11;
  refused (&bad, "image-source order 11", "Image-source order");
  bad = one;
  bad.uniform_R = -1;
  bad.boundary = RW_BOUNDARY_SAVIOJA;
  refused (&bad, "R = -1", "pressure-release");
  bad = one;
  memcpy (bad.receivers[0], bad.source, sizeof bad.source);
  refused (&bad, "receiver on the source", "source's grid cell");

  rw_sim_result_clear (&hy);
  rw_sim_result_clear (&wave);
  rw_sim_result_clear (&again);
  rw_sim_result_clear (&other);
  return rw_test_finish ();
}
