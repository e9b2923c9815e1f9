/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ga-no-double-count: the geometrical IR (rw_ga_compute) holds every path
 * once.
 *
 * The 6 × 4 × 3 m box of rays-diffuse-decay, source and receiver as
 * there, air absorption off, image sources to order 3.
 *
 * 1. Purely specular (scattering 0), every wall the same real admittance
 *    (frequency-independent, α ≈ 0.15 at normal incidence). Horizon T_h:
 *    the first arrival of order ≥ 4 (rw_ism_compute to order 6). Before
 *    it every path is an image source's: the rays' histogram is 0 there in
 *    every band (the receiver sphere of radius a reaches T_h − a/c), and
 *    each band of the IR in 0 … T_h − 1 ms has the energy of the image
 *    sources alone (rw_ism_render of an independent rw_ism_compute, split
 *    into bands here with the split's weights, rw_air_edge_weight) within
 *    1 %, 500 Hz … 8 kHz (lower bands ring longer than the window).
 *    Energy 0 … 200 ms per band: image sources (Σ |gain|², histogram
 *    units) + the rays with exclusion = the rays alone (the same seed)
 *    with only the direct sound left out and added exactly, within 3 %.
 * 2. Scattering 0.7, the admittance fitted to α = 0.08 … 0.24 (as in
 *    rays-diffuse-decay): T30 of every band of the IR (Schroeder of its
 *    squared samples, −5 … −35 dB) within 10 % of Eyring, 500 Hz … 8 kHz;
 *    the energy check of 1 (image sources with √(1 − s) per reflection:
 *    a ray that turned diffuse is the rays' whatever its order); and the
 *    late part's calibration: band energy from 50 ms on over g_b = the
 *    histogram's within 10 % at 8 kHz, 35 % at 500 Hz … 4 kHz (one
 *    synthesis seed: noise-like fluctuation, rays-diffuse-decay). */
#include <complex.h>
#include <fftw3.h>
#include <stdlib.h>
#include <string.h>

#include "rw-test.h"
#include "rw-air.h"
#include "rw-analysis.h"
#include "rw-ga.h"
#include "rw-physics.h"
#include "rw-shapes.h"
#include "test-ga-common.h"

#define LX 6.0
#define LY 4.0
#define LZ 3.0
#define N_RAYS 50000
#define ORDER 3
#define RADIUS 0.3

static const double alpha_target[RW_N_OCTAVES] = { 0.08, 0.08, 0.10, 0.12, 0.15, 0.18, 0.21, 0.24 };
static const double src[3] = { 1.37, 1.21, 0.93 }, rcv[3] = { 4.31, 2.63, 1.74 };

/* Band b of x (n samples at fs): a zero-padded FFT, × the split's weight
 * (the bands above edge b − 1 minus those above edge b). */
static void
band_of (const double *x, size_t n, double fs, int b, double *y)
{
  RwAirBands air;
  RwError err = { 0 };
  rw_air_bands (RW_DEFAULT_TEMPERATURE_C, RW_AIR_DEFAULT_HUMIDITY_PCT, RW_AIR_PRESSURE_KPA, fs,
                &air, &err);
  const size_t N = 4 * n, nb = N / 2 + 1;
  double *t = fftw_malloc (N * sizeof *t);
  fftw_complex *X = fftw_malloc (nb * sizeof *X);
  fftw_plan f = fftw_plan_dft_r2c_1d ((int) N, t, X, FFTW_ESTIMATE);
  fftw_plan g = fftw_plan_dft_c2r_1d ((int) N, X, t, FFTW_ESTIMATE);
  memset (t, 0, N * sizeof *t);
  memcpy (t, x, n * sizeof *t);
  fftw_execute (f);
  for (size_t k = 0; k < nb; k++)
    {
      const double fk = (double) k * fs / (double) N;
      const double below = b == 0 ? 1.0 : rw_air_edge_weight (&air, (size_t) b - 1, fk);
      const double above = b == RW_N_OCTAVES - 1 ? 0.0 : rw_air_edge_weight (&air, (size_t) b, fk);
      X[k] *= (below - above) / (double) N;
    }
  fftw_execute (g);
  memcpy (y, t, n * sizeof *y);
  fftw_destroy_plan (f);
  fftw_destroy_plan (g);
  fftw_free (t);
  fftw_free (X);
}

/* Energy 0 … 200 ms per band: the image sources (Σ |gain|², histogram
 * units) + the rays with exclusion vs the rays alone (the same seed) with
 * only the direct sound excluded and added exactly (1/r²): the rays'
 * estimate of a single path from ≈ 15 chords through the receiver
 * scatters by ±50 % (0.031 … 0.167 over six seeds against 0.0885 with the automatic radius),
 * which would swamp the comparison. */
static void
sum_check (const RwGaScene *scene, const RwAdmittance *Y, const double *sc, size_t ns,
           const RwGaSettings *set, const RwGaResult *ga, const char *what)
{
  RwError err = { 0 };
  RwRaySettings rs;
  rw_rays_settings_init (&rs);
  rs.n_rays = set->n_rays;
  rs.seed = set->seed;
  rs.duration_s = set->duration_s;
  rs.air_absorption = set->air_absorption;
  rs.receiver_radius_m = set->receiver_radius_m;
  rs.exclude_specular_order = 0;
  RwRayResult all = { 0 };
  RW_CHECK (rw_rays_trace (scene, Y, sc, ns, src, rcv, &rs, &all, &err), "rays: %s", err.message);
  const size_t j2 = (size_t) llround (0.2 / all.bin_s);
  for (int b = 0; b < RW_N_OCTAVES && all.energy; b++)
    {
      const double r2 = (src[0] - rcv[0]) * (src[0] - rcv[0]) + (src[1] - rcv[1]) * (src[1] - rcv[1])
                        + (src[2] - rcv[2]) * (src[2] - rcv[2]);
      double e_ism = 0.0, e_late = 0.0, e_all = 1.0 / r2;
      for (size_t i = 0; i < ga->ism.n_arrivals; i++)
        if (ga->ism.arrivals[i].delay_s < 0.2)
          {
            const double complex g = ga->ism.arrivals[i].gain[b];
            e_ism += creal (g) * creal (g) + cimag (g) * cimag (g);
          }
      for (size_t j = 0; j < j2; j++)
        {
          e_late += ga->rays.energy[(size_t) b * ga->rays.n_bins + j];
          e_all += all.energy[(size_t) b * all.n_bins + j];
        }
      RW_NOTE ("%s, %5g Hz, 0 … 200 ms: image sources %.5f + rays (excluded) %.5f = %.5f; "
               "rays + exact direct %.5f (%+.2f %%)", what, rw_octave_centres_hz[b], e_ism, e_late,
               e_ism + e_late, e_all, 100 * ((e_ism + e_late) / e_all - 1));
      RW_CHECK (fabs ((e_ism + e_late) / e_all - 1) < 0.03,
                "%s, %g Hz: image sources + rays %.5f vs rays + direct %.5f", what,
                rw_octave_centres_hz[b], e_ism + e_late, e_all);
    }
  rw_rays_result_clear (&all);
}

int
main (void)
{
  RwError err = { 0 };
  GaRoom room;
  /* α_normal = 1 − R² = 0.15 */
  if (!ga_room_init (&room, rw_shape_box (LX, LY, LZ), rw_admittance_real (sqrt (0.85)), 0.0))
    return rw_test_finish ();
  const RwGaScene *scene = room.scene;
  const size_t ns = room.ns;
  RwAdmittance *Y = room.Y;
  double *sc = room.sc;
  const double c = rw_speed_of_sound (RW_DEFAULT_TEMPERATURE_C);

  /* ---- 1. purely specular */
  RwGaSettings set;
  rw_ga_settings_init (&set);
  set.n_rays = N_RAYS;
  set.ism_order = ORDER;
  set.duration_s = 0.25;
  set.air_absorption = false;
  /* 0.3 m, not the automatic 0.116 m: 6.7 times the chords per path
     (the sphere stays 1.2 m from the walls; the estimator is unbiased for
     any radius) */
  set.receiver_radius_m = RADIUS;
  RwGaResult ga = { 0 };
  bool ok = rw_ga_compute (scene, Y, sc, ns, src, rcv, &set, &ga, &err);
  RW_CHECK (ok, "GA IR: %s", err.message);
  RwIsmSettings is;
  rw_ism_settings_init (&is);
  is.max_order = 6;
  RwIsmResult deep = { 0 }, ism = { 0 };
  RW_CHECK (rw_ism_compute (scene, Y, ns, src, rcv, &is, &deep, &err), "ISM 6: %s", err.message);
  is.max_order = ORDER;
  RW_CHECK (rw_ism_compute (scene, Y, ns, src, rcv, &is, &ism, &err), "ISM 3: %s", err.message);
  if (!ok || deep.n_arrivals == 0)
    return rw_test_finish ();
  double th = INFINITY;
  for (size_t i = 0; i < deep.n_arrivals; i++)
    if (deep.arrivals[i].order > ORDER)
      th = fmin (th, deep.arrivals[i].delay_s);
  const double a = ga.rays.receiver_radius_m, fs = ga.fs_hz;
  const size_t n = ga.n_samples;
  RW_NOTE ("horizon of order %d: %.2f ms; receiver radius %.3f m; %zu arrivals to order %d",
           ORDER, 1e3 * th, a, ga.ism.n_arrivals, ORDER);
  RW_CHECK (ga.ism.n_arrivals == ism.n_arrivals, "the same image sources (%zu, %zu)",
            ga.ism.n_arrivals, ism.n_arrivals);

  /* The rays' histogram before the horizon: nothing. */
  const size_t j_h = (size_t) floor ((th - a / c) / ga.rays.bin_s);
  double early_rays = 0.0, all_rays = 0.0;
  for (int b = 0; b < RW_N_OCTAVES; b++)
    for (size_t j = 0; j < ga.rays.n_bins; j++)
      {
        const double e = ga.rays.energy[(size_t) b * ga.rays.n_bins + j];
        all_rays += e;
        if (j < j_h)
          early_rays += e;
      }
  RW_NOTE ("rays' energy before %.2f ms: %.3g (of %.3g)", 1e3 * j_h * ga.rays.bin_s,
           early_rays, all_rays);
  RW_CHECK (early_rays == 0.0 && all_rays > 0.0,
            "the rays hold no image-source path: %.3g before the horizon", early_rays);

  /* The IR before the horizon: the image sources alone, per band. */
  double *ref = malloc (RW_N_OCTAVES * n * sizeof *ref), *yb = malloc (n * sizeof *yb);
  RW_CHECK (rw_ism_render (ism.arrivals, ism.n_arrivals, fs, n, ref, &err), "render: %s",
            err.message);
  const size_t i_h = (size_t) floor ((th - 1e-3) * fs);
  for (int b = 3; b < RW_N_OCTAVES; b++)
    {
      band_of (ref + (size_t) b * n, n, fs, b, yb);
      const double *x = ga.bands + (size_t) b * n;
      double e_ga = 0.0, e_ism = 0.0;
      for (size_t i = 0; i < i_h; i++)
        {
          e_ga += x[i] * x[i];
          e_ism += yb[i] * yb[i];
        }
      RW_NOTE ("%5g Hz, 0 … %.2f ms: IR energy %.6g, image sources alone %.6g (%+.3f %%)",
               rw_octave_centres_hz[b], 1e3 * i_h / fs, e_ga, e_ism, 100 * (e_ga / e_ism - 1));
      RW_CHECK (fabs (e_ga / e_ism - 1) < 0.01, "%g Hz: early energy %.6g vs image sources %.6g",
                rw_octave_centres_hz[b], e_ga, e_ism);
    }

  sum_check (scene, Y, sc, ns, &set, &ga, "specular");
  rw_ga_result_clear (&ga);
  rw_ism_result_clear (&ism);
  rw_ism_result_clear (&deep);
  free (ref);

  /* ---- 2. diffuse: T30 against Eyring */
  RwAdmittance fitted;
  RW_CHECK (rw_admittance_fit_alpha (alpha_target, RW_N_OCTAVES, &fitted, NULL, &err), "fit: %s",
            err.message);
  for (size_t s = 0; s < ns; s++)
    Y[s] = fitted;
  for (size_t i = 0; i < ns * RW_N_OCTAVES; i++)
    sc[i] = 0.7;
  set.duration_s = 1.6;
  ok = rw_ga_compute (scene, Y, sc, ns, src, rcv, &set, &ga, &err);
  RW_CHECK (ok, "GA IR, diffuse: %s", err.message);
  if (ok)
    sum_check (scene, Y, sc, ns, &set, &ga, "diffuse");
  const double V = LX * LY * LZ, S = 2 * (LX * LY + LX * LZ + LY * LZ);
  double *e = malloc (ga.n_samples * sizeof *e);
  for (int b = 3; b < RW_N_OCTAVES && ok; b++)
    {
      const double al = rw_alpha_random (rw_admittance_eval (&fitted, rw_octave_centres_hz[b]));
      const double ey = 24 * log (10) * V / (c * -S * log (1 - al));
      const double *x = ga.bands + (size_t) b * ga.n_samples;
      for (size_t i = 0; i < ga.n_samples; i++)
        e[i] = x[i] * x[i];
      const double t = ga_t30_of (e, ga.n_samples, ga.fs_hz);
      RW_NOTE ("%5g Hz: T30 of the GA IR %.4f s, Eyring %.4f s (%+.2f %%); dropped %.2f %%",
               rw_octave_centres_hz[b], t, ey, 100 * (t / ey - 1), 100 * ga.dropped[b]);
      RW_CHECK (fabs (t / ey - 1) < 0.10, "%g Hz: T30 %.4f s within 10 %% of Eyring %.4f s",
                rw_octave_centres_hz[b], t, ey);
      /* The late part's calibration: from 50 ms on, the band's energy
       * over g_b is the histogram's (within its noise-like fluctuation,
       * ≈ 1/√(B τ): 10 % at 4 kHz, 3 % at 8 kHz, more below). */
      double e_ir = 0.0, e_h = 0.0;
      for (size_t i = (size_t) (0.05 * ga.fs_hz); i < ga.n_samples; i++)
        e_ir += e[i];
      for (size_t j = (size_t) llround (0.05 / ga.rays.bin_s); j < ga.rays.n_bins; j++)
        e_h += ga.rays.energy[(size_t) b * ga.rays.n_bins + j];
      e_ir /= ga.band_gain[b];
      RW_NOTE ("%5g Hz: energy from 50 ms on / g_b (%.4f) %.5f, histogram %.5f (%+.2f %%)",
               rw_octave_centres_hz[b], ga.band_gain[b], e_ir, e_h, 100 * (e_ir / e_h - 1));
      RW_CHECK (fabs (e_ir / e_h - 1) < (b == RW_N_OCTAVES - 1 ? 0.10 : 0.35),
                "%g Hz: late energy / g_b %.5f vs histogram %.5f", rw_octave_centres_hz[b],
                e_ir, e_h);
    }
  free (e);
  free (yb);
  rw_ga_result_clear (&ga);
  ga_room_free (&room);
  return rw_test_finish ();
}
