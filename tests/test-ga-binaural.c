/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ga-binaural: the geometrical IR as a binaural IR (rw_ga_binaural,
 * issue #13) in the concert-hall-like room of ga-ambisonic (5000 rays,
 * 0.5 s, image sources to order 3), with the bundled MIT KEMAR set at
 * 48 kHz, a head turned so that the source lies 90° to its right:
 *  - the direct sound reaches the right ear first: interaural time
 *    difference (the lag of the cross-correlation's peak over the direct
 *    sound, ±1 ms) 0.6–0.75 ms, the bound, and the right ear
 *    louder by more than 6 dB;
 *  - turned by 180° the head hears it on the left: the ITD's sign flips;
 *    facing the source, ITD within 20 µs of 0; turned in 15° steps from
 *    facing it to having it on the right, the ITD rises at every step;
 *  - the late part (200–450 ms): mean energy of the two ears per octave
 *    band 250 Hz … 8 kHz equals the omni IR's times the set's own
 *    diffuse-field response in that band (the mean over 2000 directions
 *    of a Fibonacci sphere of its interpolated HRIRs' band energies,
 *    split by the same filters) within 1.5 dB (the hall's late field is
 *    not exactly diffuse: its pulses' directions follow the rays'); its
 *    interaural coherence (IACC, |lag| ≤ 1 ms) is below 0.5;
 *  - one thread gives the IR all threads give, bit for bit;
 *  - the render hook itself (rw_rays_synthesise_render) with a unit
 *    sample per pulse gives rw_rays_synthesise's IR to 1e-12 of its peak;
 *  - a set at another rate, and a result without rays, are refused.
 * Measured (the set diffuse-field equalised): ITD ±729 µs, ILD ±13.9 dB
 * at 90° (1.4° above the horizon), 0 µs in front; late part within
 * 1.2 dB of the diffuse field (4 kHz band the farthest), IACC 0.12.
 * Seen failing: with the late part's band scale √g_b left at 1 (6 band
 * checks). */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "rw-test.h"
#include "rw-air.h"
#include "rw-ga.h"
#include "rw-hrtf.h"
#include "test-ga-common.h"

/* octave-band energies of x[from, to) by the geometrical IR's split */
static void
band_energy (const double *x, size_t n, double fs, size_t from, size_t to, double e[RW_N_OCTAVES])
{
  RwError err = { 0 };
  double *b = malloc (RW_N_OCTAVES * n * sizeof *b);
  for (int k = 0; k < RW_N_OCTAVES; k++)
    memcpy (b + (size_t) k * n, x, n * sizeof *x);
  RW_CHECK (rw_air_split_bands (b, n, fs, NULL, &err), "split: %s", err.message);
  for (int k = 0; k < RW_N_OCTAVES; k++)
    {
      e[k] = 0;
      for (size_t i = from; i < to && i < n; i++)
        e[k] += b[(size_t) k * n + i] * b[(size_t) k * n + i];
    }
  free (b);
}

/* the lag (s, positive: the left ear later) of the peak of the
 * cross-correlation of l and r over [from, to), |lag| ≤ 1 ms, and its
 * normalised value */
static double
xcorr (const double *l, const double *r, size_t n, double fs, size_t from, size_t to, double *peak)
{
  const long max_lag = lround (0.001 * fs);
  double el = 0, er = 0, best = -INFINITY;
  long best_lag = 0;
  for (size_t i = from; i < to && i < n; i++)
    {
      el += l[i] * l[i];
      er += r[i] * r[i];
    }
  for (long lag = -max_lag; lag <= max_lag; lag++)
    {
      double s = 0;
      for (size_t i = from; i < to && i < n; i++)
        {
          const long j = (long) i - lag;
          if (j >= 0 && (size_t) j < n)
            s += l[i] * r[j];
        }
      if (fabs (s) > best)
        {
          best = fabs (s);
          best_lag = lag;
        }
    }
  *peak = best / sqrt (el * er);
  return (double) best_lag / fs;
}

static double
energy (const double *x, size_t from, size_t to)
{
  double e = 0;
  for (size_t i = from; i < to; i++)
    e += x[i] * x[i];
  return e;
}

typedef struct {
  int calls;
} UnitCtx;

static bool
unit_render (int band, const RwRayPulse *p, size_t np, double *const *train, size_t n, void *data,
             RwError *err)
{
  (void) band, (void) err;
  ((UnitCtx *) data)->calls++;
  for (size_t q = 0; q < np; q++)
    if (p[q].sample < n)
      train[0][p[q].sample] += p[q].amplitude;
  return true;
}

int
main (void)
{
  RwError err = { 0 };
  GaRoom room;
  if (!ga_room_hall (&room))
    return rw_test_finish ();
  RwHrtf *h = rw_hrtf_open (NULL, RW_GA_RATE_HZ, &err);
  RW_CHECK (h != NULL, "HRTF: %s", err.message);
  if (h == NULL)
    return rw_test_finish ();
  const double src[3] = { 4.0, 8.0, 1.5 }, rcv[3] = { 16.0, 5.0, 1.2 };
  RwGaSettings set;
  rw_ga_settings_init (&set);
  set.n_rays = 5000;
  set.duration_s = 0.5;
  RwGaResult g;
  RW_CHECK (rw_ga_compute (room.scene, room.Y, room.sc, room.ns, src, rcv, &set, &g, &err),
            "geometrical IR: %s", err.message);
  if (g.ir == NULL)
    return rw_test_finish ();
  const size_t n = g.n_samples;
  const double fs = g.fs_hz;
  double *L = malloc (n * sizeof *L), *R = malloc (n * sizeof *R);
  /* the source's azimuth in the room; a head looking 90° to its left
   * has it on the right */
  const double az = atan2 (src[1] - rcv[1], src[0] - rcv[0]) * 180.0 / M_PI;
  double r = 0;
  for (int k = 0; k < 3; k++)
    r += (src[k] - rcv[k]) * (src[k] - rcv[k]);
  r = sqrt (r);
  const size_t t0 = (size_t) floor ((r / set.speed_of_sound - 0.001) * fs);
  const size_t t1 = t0 + (size_t) (0.0035 * fs);
  const double yaws[3] = { az + 90.0, az - 90.0, az };
  double itd[3];
  for (int k = 0; k < 3; k++)
    {
      const double yaw = remainder (yaws[k], 360.0);
      RW_CHECK (rw_ga_binaural (&g, h, yaw, 0.0, set.seed, L, R, &err), "yaw %.1f: %s", yaw, err.message);
      double peak;
      itd[k] = xcorr (L, R, n, fs, t0, t1, &peak);
      const double ild = 10 * log10 (energy (R, t0, t1) / energy (L, t0, t1));
      RW_NOTE ("head yaw %.1f° (source azimuth %.1f° in the room): ITD %.1f µs, ILD (right − left) "
               "%.2f dB", yaw, az, itd[k] * 1e6, ild);
      if (k == 0)
        {
          RW_CHECK (itd[0] >= 0.6e-3 && itd[0] <= 0.75e-3, "source on the right: ITD %.1f µs",
                    itd[0] * 1e6);
          RW_CHECK (ild > 6.0, "source on the right: ILD %.2f dB", ild);
        }
    }
  RW_CHECK (itd[1] <= -0.6e-3 && itd[1] >= -0.75e-3, "source on the left: ITD %.1f µs", itd[1] * 1e6);
  /* the head turned step by step: the source moves from the front to
   * the right, and the ITD follows it */
  double prev = -INFINITY;
  char line[256] = "";
  for (int a = 0; a <= 90; a += 15)
    {
      RW_CHECK (rw_ga_binaural (&g, h, remainder (az + a, 360.0), 0.0, set.seed, L, R, &err),
                "turn %d°: %s", a, err.message);
      double peak;
      const double t = xcorr (L, R, n, fs, t0, t1, &peak);
      snprintf (line + strlen (line), sizeof line - strlen (line), " %.0f", t * 1e6);
      RW_CHECK (t > prev, "source %d° right: ITD %.1f µs after %.1f µs", a, t * 1e6, prev * 1e6);
      prev = t;
    }
  RW_NOTE ("ITD µs with the source 0, 15, …, 90° to the right:%s", line);
  RW_CHECK (fabs (itd[2]) <= 20e-6, "source in front: ITD %.1f µs", itd[2] * 1e6);

  /* the late part: calibration against the omni IR and the set's own
   * diffuse-field response, and its interaural coherence */
  RW_CHECK (rw_ga_binaural (&g, h, 0.0, 0.0, set.seed, L, R, &err), "yaw 0: %s", err.message);
  const size_t l0 = (size_t) (0.2 * fs), l1 = (size_t) (0.45 * fs);
  double eL[RW_N_OCTAVES], eR[RW_N_OCTAVES], eO[RW_N_OCTAVES], df[RW_N_OCTAVES] = { 0 };
  band_energy (L, n, fs, l0, l1, eL);
  band_energy (R, n, fs, l0, l1, eR);
  band_energy (g.ir, n, fs, l0, l1, eO);
  const size_t taps = rw_hrtf_length (h), nh = 4096;
  double *hl = calloc (nh, sizeof *hl), *hr = calloc (nh, sizeof *hr);
  float *fl = malloc (taps * sizeof *fl), *fr = malloc (taps * sizeof *fr);
  const int n_dirs = 2000;
  for (int i = 0; i < n_dirs; i++)
    {
      /* a Fibonacci sphere: equal areas */
      const double z = 1.0 - (2.0 * i + 1.0) / n_dirs, rho = sqrt (1.0 - z * z);
      const double phi = i * M_PI * (3.0 - sqrt (5.0));
      const double d[3] = { rho * cos (phi), rho * sin (phi), z };
      RW_CHECK (rw_hrtf_get (h, d, fl, fr, NULL, NULL, &err), "HRIR: %s", err.message);
      for (size_t k = 0; k < taps && k < nh; k++)
        {
          hl[k] = fl[k];
          hr[k] = fr[k];
        }
      double bl[RW_N_OCTAVES], br[RW_N_OCTAVES];
      band_energy (hl, nh, fs, 0, nh, bl);
      band_energy (hr, nh, fs, 0, nh, br);
      for (int b = 0; b < RW_N_OCTAVES; b++)
        df[b] += 0.5 * (bl[b] + br[b]) / n_dirs;
    }
  /* the split's energy gain g_b on a unit pulse: the band's share of a
   * white spectrum, against which the HRIR's band energy is a response */
  for (int b = 2; b < RW_N_OCTAVES; b++)
    {
      const double ratio = 0.5 * (eL[b] + eR[b]) / eO[b], want = df[b] / g.band_gain[b];
      RW_NOTE ("late part, %g Hz band: binaural / omni %.2f dB, the set's diffuse field %.2f dB",
               rw_octave_centres_hz[b], 10 * log10 (ratio), 10 * log10 (want));
      RW_CHECK (fabs (10 * log10 (ratio / want)) < 1.5, "%g Hz band: %.2f dB from the diffuse field",
                rw_octave_centres_hz[b], 10 * log10 (ratio / want));
    }
  double iacc;
  xcorr (L, R, n, fs, l0, l1, &iacc);
  RW_NOTE ("late part: IACC %.3f", iacc);
  RW_CHECK (iacc < 0.5, "late part: interaural coherence %.3f", iacc);

  /* the same IR on one thread as on all (the late part's segments) */
  {
    double *L1 = malloc (n * sizeof *L1), *R1 = malloc (n * sizeof *R1);
    const int nt = omp_get_max_threads ();
    omp_set_num_threads (1);
    RW_CHECK (rw_ga_binaural (&g, h, 0.0, 0.0, set.seed, L1, R1, &err), "one thread: %s", err.message);
    omp_set_num_threads (nt > 1 ? nt : 3);
    RW_CHECK (rw_ga_binaural (&g, h, 0.0, 0.0, set.seed, L, R, &err), "threads: %s", err.message);
    RW_CHECK (memcmp (L, L1, n * sizeof *L) == 0 && memcmp (R, R1, n * sizeof *R) == 0,
              "the binaural IR depends on the thread count");
    omp_set_num_threads (nt);
    free (L1);
    free (R1);
  }

  /* the render hook with unit pulses is the omni synthesis */
  double *a = malloc (n * sizeof *a), *b = malloc (n * sizeof *b);
  UnitCtx uc = { 0 };
  RW_CHECK (rw_rays_synthesise (&g.rays, fs, n, RW_RAYS_DEFAULT_MAX_DENSITY, 7, NULL, a, NULL, &err)
            && rw_rays_synthesise_render (&g.rays, fs, n, RW_RAYS_DEFAULT_MAX_DENSITY, 7, 1,
                                          unit_render, &uc, NULL, b, NULL, &err),
            "synthesis: %s", err.message);
  double peak = 0, diff = 0;
  for (size_t i = 0; i < n; i++)
    {
      peak = fmax (peak, fabs (a[i]));
      diff = fmax (diff, fabs (a[i] - b[i]));
    }
  RW_CHECK (uc.calls == RW_N_OCTAVES && diff <= 1e-12 * peak,
            "render hook: %d calls, differs from the omni synthesis by %.3g of its peak", uc.calls,
            diff / peak);

  /* refused */
  RwHrtf *h44 = rw_hrtf_open (NULL, 0, &err);
  RW_CHECK (h44 != NULL && !rw_ga_binaural (&g, h44, 0, 0, 1, L, R, &err)
            && err.code == RW_ERROR_INPUT, "a set at 44.1 kHz accepted");
  RwGaResult empty = { 0 };
  RW_CHECK (!rw_ga_binaural (&empty, h, 0, 0, 1, L, R, &err) && err.code == RW_ERROR_INPUT,
            "an empty result accepted");
  rw_hrtf_free (h44);
  free (a);
  free (b);
  free (hl);
  free (hr);
  free (fl);
  free (fr);
  free (L);
  free (R);
  rw_hrtf_free (h);
  rw_ga_result_clear (&g);
  ga_room_free (&room);
  return rw_test_finish ();
}
