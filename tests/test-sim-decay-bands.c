/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sim-decay-bands: a room decays band by band as its surfaces absorb.
 *
 * A 6 × 4 × 3 m box whose six surfaces all carry
 * {"alpha": [0.05, 0.05, 0.10, 0.30, 0.60, 0.70, 0.70, 0.70]} (random
 * incidence, 63 Hz … 8 kHz), fitted to a passive admittance over the bands
 * up to fmax and one beyond (rw_materials_assign_models), simulated through
 * rw_sim_solve (CPU, fp32, FV boundary with branch states, 2.5 s, air
 * absorption off so that the walls alone set the decay), analysed per
 * octave band (Schroeder integral, T30 over −5 … −35 dB), three receivers
 * averaged.
 *
 * The band split is not the IEC octave filter of the analysis here but
 * zero-phase FFT bands with ±1/6-octave raised-cosine edges (the split of
 * rw-air.h), whose rejection outside the band is complete: with α rising
 * sixfold from 125 Hz to 500 Hz, the slowly decaying lower bands leak
 * through an IEC filter's skirt (about −18 dB an octave away) and take
 * over the faster band's decay after 15–20 dB — measured with the
 * time-reversed IEC filters, T30 came out +90 % (250 Hz) and +128 %
 * (500 Hz) over Eyring, with this split see the figures below. A room
 * measured with such a steep profile has the same problem.
 *
 * Checked, per band from 125 Hz to fmax/2:
 *  - T30 within 35 % of the same box with frequency-independent walls of
 *    the model's α in that band (the scheme sim-sabine-eyring checks
 *    against Sabine and Eyring): each band decays as its own α says. Not
 *    closer: the model's α rises across a band as the target does (250 Hz:
 *    0.07 at the lower edge, 0.14 at the upper), and a decay is held up by
 *    its least absorbed part, which flat walls do not have (measured
 *    +26 % at 250 Hz, −1.5 % at 125 Hz where α is flat);
 *  - T30 within 30 % of Eyring's value from the model's α where that α is
 *    ≥ 0.2. Below it, the box is not diffuse enough for Eyring: measured,
 *    the frequency-independent reference itself lies 44 % (α 0.05, 125 Hz)
 *    and 18 % (α 0.1, 250 Hz) above Eyring — in a rectangular box waves at
 *    grazing incidence on a pair of walls decay slowly, while the random-
 *    incidence α of a locally reacting wall owes much to those angles (the
 *    same effect as sim-sabine-eyring's R = 0.95 note). Printed anyway;
 *  - T30 falls from 125 Hz to 250 Hz by at least 1.5 (Eyring: 1.8), and
 *    to 500 Hz, when fmax reaches 1 kHz, by at least 3.
 * With one α for all bands (what Roomwave did before) the references and
 * the ratios fail. RW_DECAY_FMAX sets fmax: 500 Hz by default (CI, on the
 * CPU); tests/gpu/run.sh runs 1 kHz, the case, on CUDA
 * (RW_DECAY_BACKEND=cuda); RW_DECAY_PRECISION=f64|f32|f16 (default f32). */
#include "rw-test.h"
#include "rw-analysis.h"
#include "rw-materials.h"
#include "rw-physics.h"
#include "rw-shapes.h"
#include "rw-sim.h"

#include <fftw3.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Octave band b of x (n samples at fs), zero-phase: FFT, weight 1 in
 * the band, raised-cosine crossovers of ±1/6 octave at its exact edges
 * (centre 1000 · 2^(b − 4) … exact base-2 here), inverse FFT. Zero-padded
 * to twice the length against wrap-around. */
static void
band_split (const double *x, size_t n, double fs, int b, double *out)
{
  const size_t m = 2 * n, nc = m / 2 + 1;
  double *buf = fftw_malloc (m * sizeof (double));
  fftw_complex *spec = fftw_malloc (nc * sizeof (fftw_complex));
  fftw_plan fwd = fftw_plan_dft_r2c_1d ((int) m, buf, spec, FFTW_ESTIMATE);
  fftw_plan inv = fftw_plan_dft_c2r_1d ((int) m, spec, buf, FFTW_ESTIMATE);
  memset (buf, 0, m * sizeof (double));
  memcpy (buf, x, n * sizeof (double));
  fftw_execute (fwd);
  const double fc = 1000.0 * pow (2.0, b - 4), lo = fc / sqrt (2.0), hi = fc * sqrt (2.0);
  const double w = 1.0 / 6.0;
  for (size_t k = 0; k < nc; k++)
    {
      const double f = (double) k * fs / (double) m;
      double g = 0.0;
      if (f > 0)
        {
          const double a = log2 (f / lo), c = log2 (f / hi);
          const double up = a <= -w ? 0.0 : a >= w ? 1.0 : 0.5 - 0.5 * cos (M_PI * (a + w) / (2 * w));
          const double down = c <= -w ? 1.0 : c >= w ? 0.0 : 0.5 + 0.5 * cos (M_PI * (c + w) / (2 * w));
          g = up * down;
        }
      spec[k] *= g / (double) m;   /* C99 complex: rw-admittance.h includes <complex.h> first */
    }
  fftw_execute (inv);
  memcpy (out, buf, n * sizeof (double));
  fftw_destroy_plan (fwd);
  fftw_destroy_plan (inv);
  fftw_free (buf);
  fftw_free (spec);
}

/* The box with every surface given `alpha_json` (a map-file α: a number
 * or a list), solved and analysed: T30 per band 1 … last (mean of three
 * receivers) and the model's α per band. False on failure. */
static bool
run_box (const char *alpha_json, double fmax, double t30[RW_N_OCTAVES],
         double alpha_model[RW_N_OCTAVES], double *c_out)
{
  const double lx = 6, ly = 4, lz = 3;
  RwMesh *mesh = rw_shape_box (lx, ly, lz);
  char map[4200];
  snprintf (map, sizeof map, "%s/map.json", rw_test_tmpdir ());
  FILE *f = fopen (map, "w");
  fputs ("{", f);
  for (size_t s = 0; s < mesh->n_surfaces; s++)
    fprintf (f, "%s\"%s\": {\"alpha\": %s}", s ? ", " : "", mesh->surface_names[s], alpha_json);
  fputs ("}\n", f);
  fclose (f);

  RwSimConfig cfg;
  rw_sim_config_init (&cfg);
  cfg.fmax_hz = fmax;
  cfg.duration_s = 2.5;
  cfg.air_absorption = false;
  cfg.backend = getenv ("RW_DECAY_BACKEND") && strcmp (getenv ("RW_DECAY_BACKEND"), "cuda") == 0
                ? RW_BACKEND_CUDA : RW_BACKEND_CPU;
  if (getenv ("RW_DECAY_PRECISION") != NULL
      && !rw_precision_parse (getenv ("RW_DECAY_PRECISION"), &cfg.precision))
    cfg.precision = RW_PRECISION_F32;
  cfg.source[0] = 1.37, cfg.source[1] = 1.21, cfg.source[2] = 0.93;
  const double rcv[3][3] = { { 4.31, 2.63, 1.74 }, { 3.42, 0.77, 2.19 }, { 5.03, 3.11, 1.05 } };
  cfg.n_receivers = 3;
  memcpy (cfg.receivers, rcv, sizeof rcv);

  RwSimResult res;
  memset (&res, 0, sizeof res);
  RwError err = { 0 };
  res.n_surfaces = mesh->n_surfaces;
  res.surface_R = calloc (mesh->n_surfaces, sizeof (double));
  res.surface_models = calloc (mesh->n_surfaces, sizeof (RwSurfaceModel));
  bool ok = rw_materials_assign_models (NULL, mesh, map, NAN, fmax, res.surface_R,
                                        res.surface_models, NULL, &err);
  RW_CHECK (ok, "materials: %s", err.message);
  ok = ok && rw_sim_solve (&cfg, mesh, res.surface_R, NULL, NULL, NULL, &res, &err);
  RW_CHECK (ok, "simulate: %s", err.message);
  if (ok)
    {
      const RwSurfaceModel *m = &res.surface_models[0];
      RW_NOTE ("α %s: box %g × %g × %g m, fmax %g Hz, h %.4f m, %zu inside cells, %zu steps, "
               "%.1f s solve (%s); the fit: %d branches over %d bands", alpha_json, lx, ly, lz,
               fmax, res.spacing_m, res.n_inside, res.n_steps, res.t_solve_s, res.backend,
               m->Y.n_branches, m->fit.n_bands_fit);
      *c_out = res.c;
      const double fs = 48000;
      for (int b = 0; b < RW_N_OCTAVES; b++)
        {
          alpha_model[b] = m->fit.model_random[b];
          t30[b] = NAN;
          if (b == 0 || rw_octave_centres_hz[b] > fmax / 2 + 1)
            continue;
          double sum = 0;
          for (size_t r = 0; r < 3; r++)
            {
              const size_t n = res.ir_frames;
              double *x = malloc (n * sizeof (double));
              for (size_t i = 0; i < n; i++)
                x[i] = res.ir[r][i];
              band_split (x, n, fs, b, x);
              const size_t onset = rw_onset_index (res.ir[r], n), n_dec = n - onset;
              double *e = malloc (n_dec * sizeof (double)), *edc = malloc (n_dec * sizeof (double));
              for (size_t i = 0; i < n_dec; i++)
                e[i] = x[onset + i] * x[onset + i];
              RwNoiseEstimate est = { .noise_found = false, .noise_level_db = -INFINITY,
                                      .truncation = n_dec, .truncation_s = (double) n_dec / fs,
                                      .correction = 0 };
              const size_t n_edc = rw_schroeder_decay (e, n_dec, fs, &est, edc, &err);
              RwDecayFit fit;
              rw_decay_fit (edc, n_edc, fs, -5, -35, &fit);
              sum += fit.value_s;
              free (x);
              free (e);
              free (edc);
            }
          t30[b] = sum / 3;
        }
    }
  rw_sim_result_clear (&res);
  rw_mesh_free (mesh);
  return ok;
}

int
main (void)
{
  const char *env = getenv ("RW_DECAY_FMAX");
  const double fmax = env != NULL && atof (env) > 0 ? atof (env) : 500.0;
  const double V = 6.0 * 4.0 * 3.0, S = 2 * (6.0 * 4.0 + 6.0 * 3.0 + 4.0 * 3.0);
  double t30[RW_N_OCTAVES], am[RW_N_OCTAVES], c = 343.0;
  if (!run_box ("[0.05, 0.05, 0.10, 0.30, 0.60, 0.70, 0.70, 0.70]", fmax, t30, am, &c))
    return rw_test_finish ();
  for (int b = 1; b < RW_N_OCTAVES && !isnan (t30[b]); b++)
    {
      /* the reference: the same box with frequency-independent walls of
       * the model's α in this band (the scheme sim-sabine-eyring checks) */
      char flat[64];
      double t_ref[RW_N_OCTAVES], a_ref[RW_N_OCTAVES], c_ref;
      snprintf (flat, sizeof flat, "%.6f", am[b]);
      if (!run_box (flat, fmax, t_ref, a_ref, &c_ref))
        continue;
      const double eyring = 24 * log (10) / c * V / (-S * log (1 - am[b]));
      RW_NOTE ("%5.0f Hz: α model %.3f; T30 %.3f s; frequency-independent walls of that α %.3f s "
               "(%+.1f %%); Eyring %.3f s (%+.1f %%, the reference %+.1f %%)",
               rw_octave_centres_hz[b], am[b], t30[b], t_ref[b], 100 * (t30[b] / t_ref[b] - 1),
               eyring, 100 * (t30[b] / eyring - 1), 100 * (t_ref[b] / eyring - 1));
      RW_CHECK (isfinite (t30[b]) && fabs (t30[b] / t_ref[b] - 1) < 0.35,
                "%g Hz: T30 %.3f s against %.3f s with frequency-independent walls",
                rw_octave_centres_hz[b], t30[b], t_ref[b]);
      /* Eyring: where the box's field is diffuse enough for it (α ≥ 0.2:
       * with lower α the frequency-independent reference itself is 18 to
       * 45 % above Eyring — grazing waves on locally reacting walls) */
      if (am[b] >= 0.2)
        RW_CHECK (fabs (t30[b] / eyring - 1) < 0.30, "%g Hz: T30 %.3f s against Eyring %.3f s",
                  rw_octave_centres_hz[b], t30[b], eyring);
    }
  RW_NOTE ("T30 125 Hz / 250 Hz = %.2f, / 500 Hz = %.2f", t30[1] / t30[2], t30[1] / t30[3]);
  RW_CHECK (t30[1] >= 1.5 * t30[2], "T30 falls from %.3f s (125 Hz) to %.3f s (250 Hz) only",
            t30[1], t30[2]);
  if (!isnan (t30[3]))
    RW_CHECK (t30[1] >= 3 * t30[3], "T30 falls from %.3f s (125 Hz) to %.3f s (500 Hz) only",
              t30[1], t30[3]);
  return rw_test_finish ();
}
