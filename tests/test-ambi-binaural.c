/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ambi-binaural: the MagLS binaural decoder (rw-ambi-binaural.h) against
 * the HRTF set it was designed from, the bundled MIT KEMAR set at 48 kHz,
 * order 3.
 *
 * A plane-wave impulse from direction d, Y(d)·δ(t − t₀) (rw_ambi_sh),
 * decoded, is compared with the set's own response of d rendered by
 * rw_hrtf_render_arrivals (one arrival at t₀, gain 1: the measurement
 * itself where d is measured, with the set's reference delay removed):
 *
 * - ITD (test-hrtf-common.h: the lag of the peak of the ears'
 *   cross-correlation below 1.5 kHz) at 0°, 10°, …, 90° to the right:
 *   within 60 µs of the set's at 90° (and at every one of these), the
 *   decoded ITD rising with the azimuth (never falling, strictly over
 *   every 20°), |ITD| < 20 µs at 0°;
 * - the timing: the decoded left ear's lag against the set's below
 *   1.5 kHz, within 42 µs (two samples; 27 µs and 15 µs measured, the fit near f_c) at 0° and 90°: the decoder's
 *   pre-roll and reference delay are removed as documented;
 * - ILD in the 4 kHz octave (2828–5657 Hz) at 30°, 60° and 90° to the
 *   right: within 3 dB of the set's;
 * - the diffuse field: over every measured direction, weighted by
 *   rw_hrtf_weights (the same quadrature for both), the mean of the two
 *   ears' energies in the octaves 250 Hz … 8 kHz, decoded against the
 *   set's: within 1 dB in each; and the diffuse field's interaural
 *   coherence, Re S_LR / √(S_LL S_RR) per bin averaged over the octave,
 *   within 0.05 of the set's.
 * Orders 1 and 2 (f_c 624 Hz and 1.25 kHz: the ITD below 1.5 kHz is
 * smaller than the set's there, by design): the ITD rising over 0°, 30°,
 * 60°, 90° and the ILD in the 4 kHz octave above 5 dB from 30°.
 * Seen failing: the plain least-squares fit (MagLS off: the ILD at 30°
 * and 90°); the fit made on the responses with their lead-in (the
 * diffuse field 8–21 dB low above 2 kHz); the covariance constraint
 * reduced to each ear's energy (the coherence 0.12 and 0.18 at 4 and
 * 8 kHz where the set's is 0.00). Bad input: order 0 and 4, a sample that
 * is not finite, n = 0. */
#include <stdlib.h>
#include <string.h>

#include "rw-test.h"
#include "rw-ambisonics.h"
#include "rw-ambi-binaural.h"
#include "rw-hrtf.h"
#include "test-hrtf-common.h"

#define DEG (M_PI / 180.0)
#define FS 48000.0
#define ORDER 3
#define NSAMP 4096
#define T0 1000

typedef struct {
  double l[NSAMP], r[NSAMP];
} Ears;

static bool
decode_plane_wave (const RwAmbiBinaural *dec, const double d[3], Ears *out)
{
  const int order = rw_ambi_binaural_order (dec);
  const size_t L = RW_AMBI_CHANNELS (order);
  double *ambi = calloc (L * NSAMP, sizeof *ambi);
  double y[RW_AMBI_MAX_CHANNELS];
  rw_ambi_sh (order, d, y);
  for (size_t c = 0; c < L; c++)
    ambi[c * NSAMP + T0] = y[c];
  RwError err = { 0 };
  bool ok = rw_ambi_binaural_decode (dec, ambi, NSAMP, out->l, out->r, &err);
  RW_CHECK (ok, "decode: %s", err.message);
  free (ambi);
  return ok;
}

static bool
render_set (const RwHrtf *h, const double d[3], Ears *out)
{
  RwHrtfArrival a;
  memset (&a, 0, sizeof a);
  a.time_s = T0 / FS;
  for (int b = 0; b < RW_N_OCTAVES; b++)
    a.gain[b] = 1.0;
  memcpy (a.direction, d, sizeof a.direction);
  RwError err = { 0 };
  bool ok = rw_hrtf_render_arrivals (h, &a, 1, NSAMP, out->l, out->r, &err);
  RW_CHECK (ok, "render: %s", err.message);
  return ok;
}

/* The diffuse field's interaural cross-spectrum and the ears' power
 * spectra, accumulated over directions (weight w) bin by bin (one-sided
 * spectra of the responses zero-padded to XN points): acc[3k] Σ w L conj R,
 * acc[3k + 1] Σ w |L|², acc[3k + 2] Σ w |R|². */
#define XN 8192
static void
add_cross (const Ears *e, double w, double complex *acc)
{
  fftw_complex *L = hrtf_test_spectrum (e->l, NSAMP, XN), *R = hrtf_test_spectrum (e->r, NSAMP, XN);
  for (size_t k = 0; k <= XN / 2; k++)
    {
      acc[3 * k] += w * L[k] * conj (R[k]);
      acc[3 * k + 1] += w * creal (L[k] * conj (L[k]));
      acc[3 * k + 2] += w * creal (R[k] * conj (R[k]));
    }
  fftw_free (L);
  fftw_free (R);
}

/* The interaural coherence Re γ(f) = Re S_LR / √(S_LL S_RR) of the
 * diffuse field, averaged over the bins of [f_lo, f_hi). */
static double
band_coherence (const double complex *acc, double f_lo, double f_hi)
{
  double sum = 0.0;
  int count = 0;
  for (size_t k = 0; k <= XN / 2; k++)
    {
      const double f = (double) k * FS / XN;
      if (f >= f_lo && f < f_hi)
        {
          sum += creal (acc[3 * k]) / sqrt (creal (acc[3 * k + 1]) * creal (acc[3 * k + 2]));
          count++;
        }
    }
  return sum / count;
}

static double
itd (const Ears *e)
{
  return hrtf_test_lag (e->l, e->r, NSAMP, FS, 1500.0, 1.0e-3);
}

static double
ild_4k (const Ears *e)
{
  const double f0 = 4000.0 / M_SQRT2, f1 = 4000.0 * M_SQRT2;
  return 10.0 * log10 (hrtf_test_band_energy (e->r, NSAMP, FS, f0, f1)
                       / hrtf_test_band_energy (e->l, NSAMP, FS, f0, f1));
}

int
main (void)
{
  RwError err = { 0 };
  RwHrtf *h = rw_hrtf_open (NULL, FS, &err);
  RW_CHECK (h != NULL, "rw_hrtf_open: %s", err.message);
  if (h == NULL)
    return rw_test_finish ();
  RwAmbiBinaural *dec = rw_ambi_binaural_new (h, ORDER, &err);
  RW_CHECK (dec != NULL, "rw_ambi_binaural_new: %s", err.message);
  if (dec == NULL)
    {
      rw_hrtf_free (h);
      return rw_test_finish ();
    }
  RW_NOTE ("decoder: order %d, %zu taps at %g Hz", ORDER, rw_ambi_binaural_taps (dec),
           rw_ambi_binaural_rate (dec));
  RW_CHECK (rw_ambi_binaural_rate (dec) == FS, "rate %g", rw_ambi_binaural_rate (dec));

  Ears *dcd = malloc (sizeof *dcd), *set = malloc (sizeof *set);

  /* ITD, ILD and timing on the horizontal plane, to the right. */
  double itd_dec[10];
  for (int k = 0; k <= 9; k++)
    {
      const double az = -10.0 * k * DEG;
      const double d[3] = { cos (az), sin (az), 0.0 };
      if (!decode_plane_wave (dec, d, dcd) || !render_set (h, d, set))
        continue;
      itd_dec[k] = itd (dcd);
      const double itd_set = itd (set);
      const double ild_d = ild_4k (dcd), ild_s = ild_4k (set);
      RW_NOTE ("%2d° right: ITD %.1f µs (set %.1f µs), ILD(4 kHz) %.2f dB (set %.2f dB)", 10 * k,
               1e6 * itd_dec[k], 1e6 * itd_set, ild_d, ild_s);
      RW_CHECK (fabs (itd_dec[k] - itd_set) <= 60e-6, "%d°: ITD %.1f µs vs the set's %.1f µs",
                10 * k, 1e6 * itd_dec[k], 1e6 * itd_set);
      if (k == 3 || k == 6 || k == 9)
        RW_CHECK (fabs (ild_d - ild_s) <= 3.0, "%d°: ILD(4 kHz) %.2f dB vs the set's %.2f dB",
                  10 * k, ild_d, ild_s);
      if (k == 0 || k == 9)
        {
          const double lag = hrtf_test_lag (dcd->l, set->l, NSAMP, FS, 1500.0, 1.0e-3);
          RW_NOTE ("%2d° right: the decoded left ear %.1f µs after the set's", 10 * k, 1e6 * lag);
          RW_CHECK (fabs (lag) <= 2.0 / FS, "%d°: decoded left ear %.1f µs off the set's", 10 * k,
                    1e6 * lag);
        }
    }
  RW_CHECK (fabs (itd_dec[0]) < 20e-6, "ITD at 0°: %.1f µs", 1e6 * itd_dec[0]);
  for (int k = 1; k <= 9; k++)
    RW_CHECK (itd_dec[k] >= itd_dec[k - 1], "ITD falls from %d° (%.1f µs) to %d° (%.1f µs)",
              10 * (k - 1), 1e6 * itd_dec[k - 1], 10 * k, 1e6 * itd_dec[k]);
  for (int k = 2; k <= 9; k++)
    RW_CHECK (itd_dec[k] > itd_dec[k - 2], "ITD not rising from %d° to %d°", 10 * (k - 2), 10 * k);

  /* Diffuse field over the measured directions. */
  {
    const size_t M = rw_hrtf_n_directions (h);
    double *w = malloc (M * sizeof *w);
    RW_CHECK (rw_hrtf_weights (h, w, &err), "weights: %s", err.message);
    static const double centres[] = { 250, 500, 1000, 2000, 4000, 8000 };
    enum { NB = 6 };
    double e_dec[NB] = { 0 }, e_set[NB] = { 0 }, wsum = 0.0;
    double complex *c_dec = calloc (3 * (XN / 2 + 1), sizeof *c_dec);
    double complex *c_set = calloc (3 * (XN / 2 + 1), sizeof *c_set);
    for (size_t i = 0; i < M; i++)
      {
        double d[3];
        if (!(w[i] > 0.0) || !rw_hrtf_direction (h, i, d, &err))
          continue;
        if (!decode_plane_wave (dec, d, dcd) || !render_set (h, d, set))
          break;
        wsum += w[i];
        add_cross (dcd, w[i], c_dec);
        add_cross (set, w[i], c_set);
        for (int b = 0; b < NB; b++)
          {
            const double f0 = centres[b] / M_SQRT2, f1 = centres[b] * M_SQRT2;
            e_dec[b] += w[i] * (hrtf_test_band_energy (dcd->l, NSAMP, FS, f0, f1)
                                + hrtf_test_band_energy (dcd->r, NSAMP, FS, f0, f1));
            e_set[b] += w[i] * (hrtf_test_band_energy (set->l, NSAMP, FS, f0, f1)
                                + hrtf_test_band_energy (set->r, NSAMP, FS, f0, f1));
          }
      }
    RW_NOTE ("weights: %.4f × 4π covered", wsum / (4.0 * M_PI));
    /* The set's largest nearest-neighbour spacing is 10° (its rings), so
       the weights cover down to −40° − 15°: (1 + sin 55°) / 2 of 4π. */
    const double covered = (1.0 + sin (55.0 * DEG)) / 2.0;
    RW_CHECK (fabs (wsum / (4.0 * M_PI) - covered) < 0.005,
              "the weights cover %.4f of the sphere, not %.4f (−55° … 90°)", wsum / (4.0 * M_PI), covered);
    for (int b = 0; b < NB; b++)
      {
        const double db = 10.0 * log10 (e_dec[b] / e_set[b]);
        const double ic_dec = band_coherence (c_dec, centres[b] / M_SQRT2, centres[b] * M_SQRT2);
        const double ic_set = band_coherence (c_set, centres[b] / M_SQRT2, centres[b] * M_SQRT2);
        RW_NOTE ("diffuse field %5g Hz: decoded %+.2f dB against the set's; interaural coherence %.3f (set %.3f)",
                 centres[b], db, ic_dec, ic_set);
        RW_CHECK (fabs (db) <= 1.0, "diffuse field in the %g Hz octave: %+.2f dB", centres[b], db);
        RW_CHECK (fabs (ic_dec - ic_set) <= 0.05, "interaural coherence in the %g Hz octave: %.3f, the set's %.3f",
                  centres[b], ic_dec, ic_set);
      }
    free (w);
    free (c_dec);
    free (c_set);
  }

  /* Orders 1 and 2: f_c is 624 Hz and 1.25 kHz, so the ITD measured
     below 1.5 kHz is partly MagLS's (phase-free) range and smaller than
     the set's; the lateralisation must still be right: the ITD rising
     from 0° to 90°, the ILD above 5 dB from 30°. */
  for (int order = 1; order <= 2; order++)
    {
      RwAmbiBinaural *low = rw_ambi_binaural_new (h, order, &err);
      RW_CHECK (low != NULL, "order %d: %s", order, err.message);
      if (low == NULL)
        continue;
      double prev = -INFINITY;
      for (int az = 0; az <= 90; az += 30)
        {
          const double d[3] = { cos (-az * DEG), sin (-az * DEG), 0.0 };
          if (!decode_plane_wave (low, d, dcd))
            break;
          const double t = itd (dcd), ild = ild_4k (dcd);
          RW_NOTE ("order %d, %2d° right: ITD %.1f µs, ILD(4 kHz) %.2f dB", order, az, 1e6 * t, ild);
          RW_CHECK (az == 0 ? fabs (t) < 20e-6 : t > prev, "order %d, %d°: ITD %.1f µs after %.1f µs",
                    order, az, 1e6 * t, 1e6 * prev);
          if (az > 0)
            RW_CHECK (ild > 5.0, "order %d, %d°: ILD(4 kHz) %.2f dB", order, az, ild);
          prev = t;
        }
      rw_ambi_binaural_free (low);
    }

  /* Bad input. */
  RW_CHECK (rw_ambi_binaural_new (h, 0, &err) == NULL && err.code == RW_ERROR_INPUT, "order 0");
  RW_CHECK (rw_ambi_binaural_new (h, 4, &err) == NULL && err.code == RW_ERROR_INPUT, "order 4");
  {
    double *ambi = calloc (16 * 8, sizeof *ambi);
    ambi[5 * 8 + 3] = NAN;
    RW_CHECK (!rw_ambi_binaural_decode (dec, ambi, 8, dcd->l, dcd->r, &err)
              && err.code == RW_ERROR_INPUT, "NaN decoded");
    RW_CHECK (!rw_ambi_binaural_decode (dec, ambi, 0, dcd->l, dcd->r, &err)
              && err.code == RW_ERROR_INPUT, "n = 0 decoded");
    free (ambi);
  }
  free (dcd);
  free (set);
  rw_ambi_binaural_free (dec);
  rw_hrtf_free (h);
  return rw_test_finish ();
}
