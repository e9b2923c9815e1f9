/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rays-diffuse-decay: the ray tracer's reverberation against Eyring.
 *
 * The 6 × 4 × 3 m box, every surface the same admittance fitted to
 * α = 0.08 … 0.24 (63 Hz … 8 kHz), scattering 0.7 in every band: a
 * diffuse field, where Eyring's T60 = 24 ln 10 V / (c (−S ln(1 − α)))
 * holds (mean free path 4V/S, uniform absorption). α is the model's own
 * random-incidence absorption at the band centre (rw_alpha_random of the
 * admittance there: Paris' integral, the mean of 1 − |R(θ)|² over a
 * diffuse incidence), so the reference is independent of the tracer's
 * code: T30 of the histogram (Schroeder integral, −5 … −35 dB) in every
 * band from 500 Hz to 8 kHz within 10 % of Eyring. Air absorption off;
 * then on, against Eyring with its 4 m V term (ISO 9613-1 m) at 2, 4 and
 * 8 kHz. A second seed gives T30 within 3 % in every band.
 *
 * The late IR synthesised from the histogram (Poisson pulses at 48 kHz,
 * rw_rays_synthesise) keeps it: per band its T30 (Schroeder of the
 * squared samples) within 5 % of the histogram's for two synthesis seeds,
 * and its energy from 50 ms on, the mean of 32 seeds, within 10 % of the
 * histogram's, 500 Hz … 8 kHz; the bands add up to the IR.
 *
 * Lossless walls (R = 1), scattering 1 and then 0: the mean free path
 * is 4V/S within 1 % (Cauchy's mean chord for Lambert reflection; the
 * direction average for specular reflection in a box), and the steady
 * energy per bin is 4π c Δt / V within 3 % (the energy 4π in the volume).
 *
 * Beside Eyring (the 10 %), T30 is checked within 3 % of
 * Kuttruff's refinement of it, which accounts for the spread of the free
 * path lengths in a box. */
#include <stdlib.h>
#include <string.h>

#include "rw-test.h"
#include "rw-air.h"
#include "rw-analysis.h"
#include "rw-physics.h"
#include "rw-rays.h"
#include "rw-shapes.h"
#include "test-ga-common.h"

#define LX 6.0
#define LY 4.0
#define LZ 3.0
#define N_RAYS 50000
#define FS 48000.0

static const double alpha_target[RW_N_OCTAVES] = { 0.08, 0.08, 0.10, 0.12, 0.15, 0.18, 0.21, 0.24 };
static const double src[3] = { 1.37, 1.21, 0.93 }, rcv[3] = { 4.31, 2.63, 1.74 };

static bool
trace (const RwGaScene *scene, const RwAdmittance *Y, const double *sc, size_t ns, uint64_t seed,
       bool air, RwRayResult *res)
{
  RwError err = { 0 };
  RwRaySettings set;
  rw_rays_settings_init (&set);
  set.n_rays = N_RAYS;
  set.seed = seed;
  set.duration_s = 1.6;
  set.air_absorption = air;
  bool ok = rw_rays_trace (scene, Y, sc, ns, src, rcv, &set, res, &err);
  RW_CHECK (ok, "trace (seed %llu): %s", (unsigned long long) seed, err.message);
  if (ok)
    RW_NOTE ("seed %llu, air %s: radius %.3f m, volume %.2f m³, %zu receiver hits, %zu "
             "reflections, %zu lost", (unsigned long long) seed, air ? "on" : "off",
             res->receiver_radius_m, res->volume_m3, res->n_receiver_hits, res->n_reflections,
             res->n_lost);
  return ok;
}

int
main (void)
{
  RwError err = { 0 };
  RwMesh *m = rw_shape_box (LX, LY, LZ);
  RwGaScene *scene = m ? rw_ga_scene_new (m, &err) : NULL;
  RW_CHECK (scene != NULL, "box scene: %s", err.message);
  if (scene == NULL)
    return rw_test_finish ();
  RwAdmittance fitted;
  RW_CHECK (rw_admittance_fit_alpha (alpha_target, RW_N_OCTAVES, &fitted, NULL, &err), "fit: %s",
            err.message);
  const size_t ns = m->n_surfaces;
  RwAdmittance *Y = calloc (ns, sizeof *Y);
  double *sc = calloc (ns * RW_N_OCTAVES, sizeof *sc);
  for (size_t s = 0; s < ns; s++)
    Y[s] = fitted;
  for (size_t i = 0; i < ns * RW_N_OCTAVES; i++)
    sc[i] = 0.7;

  const double c = rw_speed_of_sound (RW_DEFAULT_TEMPERATURE_C);
  const double V = LX * LY * LZ, S = 2 * (LX * LY + LX * LZ + LY * LZ);
  RwAirBands air;
  RW_CHECK (rw_air_bands (RW_DEFAULT_TEMPERATURE_C, RW_AIR_DEFAULT_HUMIDITY_PCT,
                          RW_AIR_PRESSURE_KPA, FS, &air, &err), "air: %s", err.message);

  RwRayResult r1 = { 0 }, r2 = { 0 }, ra = { 0 };
  if (!trace (scene, Y, sc, ns, 1, false, &r1) || !trace (scene, Y, sc, ns, 2, false, &r2)
      || !trace (scene, Y, sc, ns, 1, true, &ra))
    return rw_test_finish ();
  RW_CHECK_CLOSE (r1.volume_m3, V, 1e-9, "volume from the mesh");
  const double rate = 1.0 / r1.bin_s;
  double t30_hist[RW_N_OCTAVES];
  for (int b = 0; b < RW_N_OCTAVES; b++)
    {
      const double a = rw_alpha_random (rw_admittance_eval (&fitted, rw_octave_centres_hz[b]));
      const double ey = 24 * log (10) * V / (c * -S * log (1 - a));
      const double m_air = air.alpha_db_per_m[b] * M_LN10 / 10.0;
      const double ey_air = 24 * log (10) * V / (c * (-S * log (1 - a) + 4 * m_air * V));
      const double t1 = ga_t30_of (r1.energy + b * r1.n_bins, r1.n_bins, rate);
      const double t2 = ga_t30_of (r2.energy + b * r2.n_bins, r2.n_bins, rate);
      const double ta = ga_t30_of (ra.energy + b * ra.n_bins, ra.n_bins, rate);
      /* Kuttruff's correction for the spread of the free paths (Room
       * Acoustics, 6th ed., §5.4: −S ln(1 − α) (1 + γ²/2 ln(1 − α)),
       * γ² ≈ 0.4 for rooms of ordinary shape): longer than Eyring, the
       * more so the higher α. */
      const double ku = ey / (1 + 0.2 * log (1 - a));
      t30_hist[b] = t1;
      RW_NOTE ("%5g Hz: model α %.4f; T30 %.4f s (seed 2: %.4f, %+.2f %%), Eyring %.4f s "
               "(%+.2f %%), Kuttruff %.4f s (%+.2f %%); air on: T30 %.4f s, Eyring with 4mV "
               "%.4f s (%+.2f %%)", rw_octave_centres_hz[b], a, t1, t2, 100 * (t2 / t1 - 1), ey,
               100 * (t1 / ey - 1), ku, 100 * (t1 / ku - 1), ta, ey_air,
               100 * (ta / ey_air - 1));
      if (b < 3)
        continue;   /* the issue asks 500 Hz … 8 kHz */
      RW_CHECK (fabs (t1 / ey - 1) < 0.10, "%g Hz: T30 %.4f s within 10 %% of Eyring %.4f s",
                rw_octave_centres_hz[b], t1, ey);
      RW_CHECK (fabs (t1 / ku - 1) < 0.03, "%g Hz: T30 %.4f s within 3 %% of Kuttruff %.4f s",
                rw_octave_centres_hz[b], t1, ku);
      RW_CHECK (fabs (t2 / t1 - 1) < 0.03, "%g Hz: two seeds within 3 %% (%.4f, %.4f s)",
                rw_octave_centres_hz[b], t1, t2);
      if (b >= 5)
        RW_CHECK (fabs (ta / ey_air - 1) < 0.10,
                  "%g Hz, air on: T30 %.4f s within 10 %% of Eyring with 4mV %.4f s",
                  rw_octave_centres_hz[b], ta, ey_air);
    }

  /* Synthesis. Its band energy over a window fluctuates as band-limited
   * noise does, by ≈ 1/√(B τ) (B the bandwidth, τ the energy's effective
   * duration: 1/√35 = 17 % at 1 kHz here), in a real room as in the
   * synthesis: the energy is checked as the mean over 32 seeds, the T30
   * (a fit over the whole decay) for single seeds. */
  const size_t n = (size_t) (r1.n_bins * r1.bin_s * FS);
  double *bands = malloc (RW_N_OCTAVES * n * sizeof *bands), *ir = malloc (n * sizeof *ir);
  double *e = malloc (n * sizeof *e);
  const size_t i0 = (size_t) (0.05 * FS), j0 = (size_t) (0.05 / r1.bin_s);
  double es_sum[RW_N_OCTAVES] = { 0 }, eh[RW_N_OCTAVES] = { 0 };
  for (int b = 0; b < RW_N_OCTAVES; b++)
    for (size_t j = j0; j < r1.n_bins; j++)
      eh[b] += r1.energy[b * r1.n_bins + j];
  const int n_seeds = 32;
  for (uint64_t seed = 1; seed <= (uint64_t) n_seeds; seed++)
    {
      double dropped[RW_N_OCTAVES];
      RW_CHECK (rw_rays_synthesise (&r1, FS, n, RW_RAYS_DEFAULT_MAX_DENSITY, seed, bands, ir,
                                    dropped, &err), "synthesis: %s", err.message);
      for (int b = 3; b < RW_N_OCTAVES; b++)
        {
          const double *x = bands + (size_t) b * n;
          for (size_t i = 0; i < n; i++)
            e[i] = x[i] * x[i];
          for (size_t i = i0; i < n; i++)
            es_sum[b] += e[i];
          if (seed > 2)
            continue;
          const double t = ga_t30_of (e, n, FS);
          RW_NOTE ("synthesis seed %llu, %5g Hz: T30 %.4f s (histogram %.4f s, %+.2f %%), "
                   "dropped %.2f %%", (unsigned long long) seed, rw_octave_centres_hz[b], t,
                   t30_hist[b], 100 * (t / t30_hist[b] - 1), 100 * dropped[b]);
          RW_CHECK (fabs (t / t30_hist[b] - 1) < 0.05, "%g Hz: synthesised T30 %.4f s vs %.4f s",
                    rw_octave_centres_hz[b], t, t30_hist[b]);
        }
      if (seed > 1)
        continue;
      /* The sum of the bands is the IR. */
      double worst = 0.0, peak = 0.0;
      for (size_t i = 0; i < n; i++)
        {
          double s = 0.0;
          for (int b = 0; b < RW_N_OCTAVES; b++)
            s += bands[(size_t) b * n + i];
          worst = fmax (worst, fabs (s - ir[i]));
          peak = fmax (peak, fabs (ir[i]));
        }
      RW_CHECK (peak > 0.0 && worst <= 1e-12 * peak, "ir = Σ bands (%.3g of %.3g)", worst, peak);
    }
  for (int b = 3; b < RW_N_OCTAVES; b++)
    {
      const double es = es_sum[b] / n_seeds;
      RW_NOTE ("synthesis, %5g Hz: energy from 50 ms, mean of %d seeds, %.4g (histogram %.4g, "
               "%+.2f %%)", rw_octave_centres_hz[b], n_seeds, es, eh[b], 100 * (es / eh[b] - 1));
      RW_CHECK (fabs (es / eh[b] - 1) < 0.10, "%g Hz: synthesised energy %.4g vs %.4g",
                rw_octave_centres_hz[b], es, eh[b]);
    }
  /* Lossless walls, air off: every ray keeps 4π/N for the whole run.
   * (1) The mean free path, c T N / reflections, is 4V/S: Cauchy's
   * mean chord for Lambert reflection (s = 1; Kuttruff, Room
   * Acoustics, §4.5), and the direction average for specular reflection
   * in a box (s = 0). (2) The receiver's energy per bin in the steady
   * diffuse state is 4π c Δt / V (the total energy 4π spread over the
   * volume, flowing through the sphere at c). */
  for (int k = 0; k < 2; k++)
    {
      RwAdmittance *rigid = calloc (ns, sizeof *rigid);
      double *sk = calloc (ns * RW_N_OCTAVES, sizeof *sk);
      for (size_t q = 0; q < ns; q++)
        rigid[q] = rw_admittance_real (1.0);
      for (size_t q = 0; q < ns * RW_N_OCTAVES; q++)
        sk[q] = k == 0 ? 1.0 : 0.0;
      RwRaySettings set;
      rw_rays_settings_init (&set);
      set.n_rays = 16000;
      set.duration_s = 0.5;
      set.air_absorption = false;
      set.receiver_radius_m = 0.4;
      RwRayResult rr = { 0 };
      RW_CHECK (rw_rays_trace (scene, rigid, sk, ns, src, rcv, &set, &rr, &err), "lossless: %s",
                err.message);
      if (rr.energy)
        {
          const double mfp = (double) set.n_rays * set.speed_of_sound * (double) rr.n_bins
                             * rr.bin_s / (double) rr.n_reflections;
          double mean = 0.0;
          const size_t j0 = (size_t) (0.1 / rr.bin_s);
          for (int b = 0; b < RW_N_OCTAVES; b++)
            for (size_t j = j0; j < rr.n_bins; j++)
              mean += rr.energy[b * rr.n_bins + j];
          mean /= (double) (RW_N_OCTAVES * (rr.n_bins - j0));
          const double steady = 4 * M_PI * set.speed_of_sound * rr.bin_s / V;
          RW_NOTE ("lossless, s = %d: mean free path %.4f m (4V/S = %.4f m, %+.2f %%); steady "
                   "energy per bin %.5g (4π c Δt / V = %.5g, %+.2f %%), %zu lost", k == 0 ? 1 : 0,
                   mfp, 4 * V / S, 100 * (mfp / (4 * V / S) - 1), mean, steady,
                   100 * (mean / steady - 1), rr.n_lost);
          RW_CHECK (fabs (mfp / (4 * V / S) - 1) < 0.01, "mean free path %.4f m vs 4V/S %.4f m",
                    mfp, 4 * V / S);
          RW_CHECK (fabs (mean / steady - 1) < 0.03, "steady energy %.5g vs %.5g", mean, steady);
        }
      rw_rays_result_clear (&rr);
      free (rigid);
      free (sk);
    }

  free (bands);
  free (ir);
  free (e);
  rw_rays_result_clear (&r1);
  rw_rays_result_clear (&r2);
  rw_rays_result_clear (&ra);
  free (Y);
  free (sc);
  rw_ga_scene_free (scene);
  rw_mesh_free (m);
  return rw_test_finish ();
}
