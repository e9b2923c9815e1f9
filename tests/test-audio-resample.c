/* SPDX-License-Identifier: GPL-3.0-or-later */
/* audio-resample: a sine resampled 44.1 kHz → 48 kHz (and back down, and
 * in stereo) keeps its frequency and its amplitude within 0.1 dB, and
 * keeps its duration. */
#include "rw-test.h"
#include "rw-audio.h"

#include <math.h>
#include <stdlib.h>

/* Amplitude and frequency of the sine in x[lo, hi) at rate fs: a
 * least-squares fit of a·cos + b·sin at f, with f refined by the phase
 * drift between the two halves. */
static void
fit_sine (const float *x, size_t stride, size_t lo, size_t hi, double fs,
          double f0, double *amp, double *freq)
{
  double ph[2], am[2];
  size_t mid = (lo + hi) / 2;
  for (int half = 0; half < 2; half++)
    {
      size_t a = half ? mid : lo, b = half ? hi : mid;
      double sc = 0, ss = 0, cc = 0, s2 = 0, cs = 0;
      for (size_t i = a; i < b; i++)
        {
          double t = (double) (i - a) / fs;
          double c = cos (2 * M_PI * f0 * t), s = sin (2 * M_PI * f0 * t);
          double v = x[i * stride];
          sc += v * c; ss += v * s; cc += c * c; s2 += s * s; cs += c * s;
        }
      double det = cc * s2 - cs * cs;
      double A = (sc * s2 - ss * cs) / det, B = (ss * cc - sc * cs) / det;
      am[half] = hypot (A, B);
      /* Phase at the start of this half, referred back to lo. */
      ph[half] = atan2 (-B, A) - (half ? 2 * M_PI * f0 * (double) (mid - lo) / fs : 0);
    }
  double dphi = remainder (ph[1] - ph[0], 2 * M_PI);
  *freq = f0 + dphi / (2 * M_PI * (double) (mid - lo) / fs);
  *amp = 0.5 * (am[0] + am[1]);
}

static void
check_one (double f_hz, double amp, double fs_in, double fs_out, int channels)
{
  RwError err = { 0 };
  RwAudio a = { 0 };
  a.rate_hz = fs_in;
  a.channels = channels;
  a.frames = (size_t) fs_in;   /* one second */
  a.data = malloc (a.frames * (size_t) channels * sizeof (float));
  for (size_t i = 0; i < a.frames; i++)
    for (int c = 0; c < channels; c++)
      a.data[i * (size_t) channels + (size_t) c]
        = (float) ((c == 0 ? amp : 0.5 * amp) * sin (2 * M_PI * f_hz * (double) i / fs_in));

  RW_CHECK (rw_audio_resample (&a, fs_out, &err), "resample: %s", err.message);
  size_t want_frames = (size_t) llround ((double) (size_t) fs_in * fs_out / fs_in);
  RW_CHECK (a.rate_hz == fs_out, "rate %g", a.rate_hz);
  RW_CHECK (a.frames == want_frames, "%zu frames, expected %zu at %g Hz", a.frames, want_frames, fs_out);

  /* Away from the ends, where the converter starts and stops. */
  size_t lo = (size_t) (0.1 * fs_out), hi = (size_t) (0.9 * fs_out);
  for (int c = 0; c < channels; c++)
    {
      double got_amp, got_f;
      fit_sine (a.data + c, (size_t) channels, lo, hi, fs_out, f_hz, &got_amp, &got_f);
      double want = c == 0 ? amp : 0.5 * amp;
      double db = 20 * log10 (got_amp / want);
      RW_NOTE ("%g Hz sine, %g → %g Hz, ch %d: amplitude %+.4f dB, frequency %.5f Hz",
               f_hz, fs_in, fs_out, c, db, got_f);
      RW_CHECK (fabs (db) < 0.1, "amplitude off by %.4f dB", db);
      RW_CHECK (fabs (got_f - f_hz) < 1e-3 * f_hz, "frequency %.5f Hz instead of %g", got_f, f_hz);
    }
  rw_audio_clear (&a);
}

int
main (void)
{
  check_one (1000.0, 0.5, 44100, 48000, 1);
  check_one (15000.0, 0.8, 44100, 48000, 2);
  check_one (440.0, 0.25, 48000, 44100, 1);
  check_one (100.0, 0.9, 6713.5, 48000, 1);   /* a grid rate, not a whole number */

  /* Bad calls fail cleanly. */
  RwError err = { 0 };
  RwAudio a = { 0 };
  RW_CHECK (!rw_audio_resample (&a, 48000, &err), "empty audio accepted");
  a.frames = 10;
  a.channels = 1;
  a.rate_hz = 48000;
  a.data = calloc (10, sizeof (float));
  RW_CHECK (!rw_audio_resample (&a, NAN, &err), "NaN rate accepted");
  RW_CHECK (!rw_audio_resample (&a, 48000.0 * 1000, &err), "ratio 1000 accepted");
  RW_CHECK (rw_audio_resample (&a, 48000, &err) && a.frames == 10, "same rate changed the signal");
  rw_audio_clear (&a);
  return rw_test_finish ();
}
