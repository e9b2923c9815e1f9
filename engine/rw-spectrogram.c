/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-spectrogram.c — STFT levels in dB and time-averaged octave band
 * levels (rw-spectrogram.h has the definitions).
 *
 * One FFTW plan of the window length serves every frame (FFTW_ESTIMATE:
 * a few hundred to a few thousand transforms of 2048 points cost
 * milliseconds, measuring a plan would cost more). The levels are kept as
 * float: 7 significant digits are 10⁻⁵ dB, and a 4 s IR at 48 kHz is then
 * 376 frames × 1025 bins = 1.5 MB. */
#include "rw-spectrogram.h"
#include "rw-fftw.h"
#include "rw-i18n.h"
#include "rw-json.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* 2^26 cells (256 MB of float): ten minutes of audio at 48 kHz with the
 * default window and hop. Longer signals go through max_frames. */
#define MAX_CELLS ((size_t) 1 << 26)

void
rw_spectrogram_clear (RwSpectrogram *sg)
{
  if (!sg)
    return;
  free (sg->level_db);
  memset (sg, 0, sizeof *sg);
}

double
rw_spectrogram_frame_time (const RwSpectrogram *sg, size_t frame)
{
  return (double) frame * sg->hop / sg->rate_hz;
}

double
rw_spectrogram_bin_frequency (const RwSpectrogram *sg, size_t bin)
{
  return (double) bin * sg->rate_hz / sg->window;
}

static int
default_window (double rate_hz)
{
  int e = (int) lround (log2 (RW_SPECTROGRAM_WINDOW_S * rate_hz));
  e = e < 4 ? 4 : e > 16 ? 16 : e;
  return 1 << e;
}

bool
rw_spectrogram (const float *x, size_t n, double rate_hz, int window, int hop,
                size_t max_frames, RwSpectrogram *out, RwError *err)
{
  memset (out, 0, sizeof *out);
  if (x == NULL || n == 0)
    return rw_fail (err, RW_ERROR_INPUT, _("spectrogram: the signal is empty"));
  if (!(rate_hz > 0.0) || !isfinite (rate_hz))
    return rw_fail (err, RW_ERROR_INPUT, _("spectrogram: bad sample rate %g Hz"), rate_hz);
  bool silent = true;
  for (size_t i = 0; i < n; i++)
    {
      if (!isfinite (x[i]))
        return rw_fail (err, RW_ERROR_INPUT,
                        _("spectrogram: sample %zu is not a finite number"), i);
      silent = silent && x[i] == 0.0f;
    }
  if (silent)
    return rw_fail (err, RW_ERROR_INPUT, _("spectrogram: the signal is silent (every sample is zero)"));
  if (window == 0)
    window = default_window (rate_hz);
  if (window < 16 || window > 65536)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("spectrogram: a window of %d samples is out of range (16 … 65536)"), window);
  if (hop == 0)
    hop = window / 4;
  if (hop < 1 || hop > window)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("spectrogram: a hop of %d samples is out of range (1 … %d, the window)"),
                    hop, window);
  size_t frames = (n - 1) / (size_t) hop + 1;
  if (max_frames > 1 && frames > max_frames)
    {
      /* the smallest hop that keeps (n − 1)/hop + 1 ≤ max_frames */
      size_t h = (n - 1 + max_frames - 2) / (max_frames - 1);
      if (h > (size_t) 1 << 30)
        h = (size_t) 1 << 30;
      hop = (int) h;
      frames = (n - 1) / (size_t) hop + 1;
    }
  size_t bins = (size_t) window / 2 + 1;
  if (frames > MAX_CELLS / bins)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("spectrogram: %zu frames of %zu bins is too large (at most %zu cells; "
                      "ask for fewer frames)"), frames, bins, MAX_CELLS);

  double *in = fftw_malloc ((size_t) window * sizeof *in);
  fftw_complex *spec = fftw_malloc (bins * sizeof *spec);
  double *w = malloc ((size_t) window * sizeof *w);
  float *level = malloc (frames * bins * sizeof *level);
  if (!in || !spec || !w || !level)
    {
      fftw_free (in);
      fftw_free (spec);
      free (w);
      free (level);
      return rw_fail (err, RW_ERROR_MEMORY, _("spectrogram: out of memory"));
    }
  rw_fftw_plan_lock ();
  fftw_plan plan = fftw_plan_dft_r2c_1d (window, in, spec, FFTW_ESTIMATE);
  rw_fftw_plan_unlock ();
  if (!plan)
    {
      fftw_free (in);
      fftw_free (spec);
      free (w);
      free (level);
      return rw_fail (err, RW_ERROR_MEMORY, _("spectrogram: no FFT plan for %d samples"), window);
    }
  /* periodic Hann: its squares at a quarter-window hop add up to a
   * constant, which the band levels rely on (header) */
  for (int i = 0; i < window; i++)
    {
      double s = sin (M_PI * i / window);
      w[i] = s * s;
    }

  double peak = 0.0;
  for (size_t f = 0; f < frames; f++)
    {
      /* frame f covers samples c − window/2 … c + window/2 − 1 */
      long long start = (long long) (f * (size_t) hop) - window / 2;
      for (int i = 0; i < window; i++)
        {
          long long j = start + i;
          in[i] = j >= 0 && (size_t) j < n ? w[i] * x[j] : 0.0;
        }
      fftw_execute (plan);
      float *row = level + f * bins;
      for (size_t k = 0; k < bins; k++)
        {
          double p = spec[k][0] * spec[k][0] + spec[k][1] * spec[k][1];
          peak = fmax (peak, p);
          row[k] = p > 0.0 ? (float) (10.0 * log10 (p)) : (float) RW_SPECTROGRAM_FLOOR_DB;
        }
    }
  rw_fftw_plan_lock ();
  fftw_destroy_plan (plan);
  rw_fftw_plan_unlock ();
  fftw_free (in);
  fftw_free (spec);
  free (w);

  /* peak > 0: the signal is not silent and the frames cover every sample
   * with a non-zero window weight */
  double peak_db = 10.0 * log10 (peak);
  for (size_t i = 0; i < frames * bins; i++)
    if (level[i] > (float) RW_SPECTROGRAM_FLOOR_DB)
      level[i] = (float) fmax ((double) level[i] - peak_db, RW_SPECTROGRAM_FLOOR_DB + 1.0);
  out->n_frames = frames;
  out->n_bins = bins;
  out->window = window;
  out->hop = hop;
  out->rate_hz = rate_hz;
  out->duration_s = (double) n / rate_hz;
  out->peak_db = peak_db;
  out->level_db = level;
  return true;
}

size_t
rw_spectrogram_bands (const RwSpectrogram *sg, int fraction, RwSpectrogramBand *bands)
{
  static const double octaves[RW_SPECTROGRAM_N_OCTAVES] = {
    31.5, 63, 125, 250, 500, 1000, 2000, 4000, 8000, 16000,
  };
  static const double thirds[RW_SPECTROGRAM_N_THIRDS] = {
    25, 31.5, 40, 50, 63, 80, 100, 125, 160, 200, 250, 315, 400, 500, 630,
    800, 1000, 1250, 1600, 2000, 2500, 3150, 4000, 5000, 6300, 8000, 10000, 12500, 16000, 20000,
  };
  const double *nominal = fraction == 1 ? octaves : fraction == 3 ? thirds : NULL;
  size_t n_bands = fraction == 1 ? RW_SPECTROGRAM_N_OCTAVES : RW_SPECTROGRAM_N_THIRDS;
  if (nominal == NULL)
    return 0;
  /* the lowest band's index x in fm = 1000 · G^(x/fraction) */
  int x0 = fraction == 1 ? -5 : -16;
  /* power per bin summed over the frames, relative to the peak */
  double *sum = calloc (sg->n_bins, sizeof *sum);
  double total = 0.0;
  if (sum != NULL)
    for (size_t f = 0; f < sg->n_frames; f++)
      for (size_t k = 0; k < sg->n_bins; k++)
        {
          float l = sg->level_db[f * sg->n_bins + k];
          if (l > (float) RW_SPECTROGRAM_FLOOR_DB)
            sum[k] += pow (10.0, l / 10.0);
        }
  if (sum != NULL)
    for (size_t k = 0; k < sg->n_bins; k++)
      total += sum[k];
  double nyquist = 0.5 * sg->rate_hz;
  /* IEC 61260-1 base-10: G = 10^0.3, band edges fm · G^(∓1/(2·fraction)) */
  double g = pow (10.0, 0.3), half = pow (g, 0.5 / fraction);
  for (size_t b = 0; b < n_bands; b++)
    {
      double fm = 1000.0 * pow (g, (double) (x0 + (int) b) / fraction);
      RwSpectrogramBand *o = &bands[b];
      o->centre_hz = nominal[b];
      o->lo_hz = fm / half;
      o->hi_hz = fmin (fm * half, nyquist);
      o->n_bins = 0;
      o->level_db = NAN;
      double e = 0.0;
      for (size_t k = 0; sum != NULL && k < sg->n_bins; k++)
        {
          double f = rw_spectrogram_bin_frequency (sg, k);
          if (f >= o->lo_hz && f < o->hi_hz)
            {
              e += sum[k];
              o->n_bins++;
            }
        }
      if (o->n_bins > 0 && total > 0.0)
        o->level_db = e > 0.0 ? 10.0 * log10 (e / total) : RW_SPECTROGRAM_FLOOR_DB;
      else
        o->n_bins = 0;
    }
  free (sum);
  return n_bands;
}

static json_object *
bands_json (const RwSpectrogram *sg, int fraction)
{
  RwSpectrogramBand bands[RW_SPECTROGRAM_N_THIRDS];
  size_t n = rw_spectrogram_bands (sg, fraction, bands);
  json_object *arr = json_object_new_array ();
  for (size_t b = 0; b < n; b++)
    {
      json_object *o = json_object_new_object ();
      json_object_object_add (o, "center_hz", rw_json_number (bands[b].centre_hz));
      json_object_object_add (o, "lower_hz", rw_json_number (bands[b].lo_hz));
      json_object_object_add (o, "upper_hz", rw_json_number (bands[b].hi_hz));
      json_object_object_add (o, "bins", json_object_new_int64 ((int64_t) bands[b].n_bins));
      json_object_object_add (o, "level_db", rw_json_number (bands[b].level_db));
      json_object_array_add (arr, o);
    }
  return arr;
}

char *
rw_spectrogram_to_json (const RwSpectrogram *sg, const char *file)
{
  json_object *root = json_object_new_object ();
  if (file)
    json_object_object_add (root, "file", json_object_new_string (file));
  json_object_object_add (root, "rate_hz", rw_json_number (sg->rate_hz));
  json_object_object_add (root, "duration_s", rw_json_number (sg->duration_s));
  json_object_object_add (root, "window", json_object_new_int (sg->window));
  json_object_object_add (root, "hop", json_object_new_int (sg->hop));
  json_object_object_add (root, "frames", json_object_new_int64 ((int64_t) sg->n_frames));
  json_object_object_add (root, "bins", json_object_new_int64 ((int64_t) sg->n_bins));
  json_object_object_add (root, "peak_db", rw_json_number (sg->peak_db));
  json_object_object_add (root, "octave_bands", bands_json (sg, 1));
  json_object_object_add (root, "third_octave_bands", bands_json (sg, 3));
  return rw_json_take_string (root);
}
