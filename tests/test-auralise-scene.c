/* SPDX-License-Identifier: GPL-3.0-or-later */
/* auralise-scene: N-channel IRs, scenes of several sources and binaural
 * decoding in rw_auralise_scene, against rw_convolve (itself checked
 * against the direct sum by auralise-matches-direct):
 *
 * - two sources (a mono IR and dry signal each, different lengths, the
 *   second dry file longer than the first's output): the written file is
 *   g · (dry₁ ∗ IR₁ + dry₂ ∗ IR₂), g the one gain that puts the peak at
 *   −1 dBFS, within 2e-6 of full scale, and as long as the longer source;
 * - a 4-channel (AmbiX order 1) and a 16-channel IR: a 4- and a
 *   16-channel file, channel c = g · dry ∗ IR_c;
 * - a scene of a mono and a stereo IR: refused, naming both IR files;
 *   dry signals of 44.1 and 48 kHz: refused, naming both;
 * - --decode binaural: a first-order plane wave from the left (AmbiX
 *   Y(d)·δ) through a unit impulse gives the left ear louder than the
 *   right by more than 6 dB in the 2–8 kHz range (energies), the head
 *   turned by 180° the right ear louder alike (the rotation reaches the
 *   decoder); a 3-channel IR refused naming the file and "4, 9 or 16";
 *   an HRTF file that is not SOFA refused naming it; a scene output of 16
 *   channels as FLAC refused (FLAC holds 8), naming the output;
 * - no output left behind by a refused scene. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rw-test.h"
#include "rw-ambisonics.h"
#include "rw-audio.h"
#include "rw-auralise.h"

static uint64_t rng = 0x2545F4914F6CDD1Dull;

static float
urand (void)
{
  return (float) (2.0 * rw_test_uniform (&rng) - 1.0);
}

/* Writes channels × frames (planar in x) at rate as a float WAV. */
static const char *
write_wav (const char *name, const float *x, int channels, size_t frames, double rate)
{
  const char *path = rw_test_tmp_path (name);
  RwAudio a = { 0 };
  a.channels = channels;
  a.frames = frames;
  a.rate_hz = rate;
  a.data = malloc (frames * (size_t) channels * sizeof (float));
  for (size_t i = 0; i < frames; i++)
    for (int c = 0; c < channels; c++)
      a.data[i * (size_t) channels + (size_t) c] = x[(size_t) c * frames + i];
  RwError err = { 0 };
  RW_CHECK (rw_audio_write (path, &a, &err), "write %s: %s", name, err.message);
  rw_audio_clear (&a);
  return path;
}

static float *
random_signal (size_t n, double decay)
{
  float *x = malloc (n * sizeof *x);
  for (size_t i = 0; i < n; i++)
    x[i] = urand () * (float) exp (-(double) i * decay);
  return x;
}

/* The file at path against ref (interleaved, channels × frames) scaled
 * to a peak of −1 dBFS: the largest difference, relative to full scale. */
static double
compare_scaled (const char *path, const double *ref, int channels, size_t frames)
{
  RwAudio a = { 0 };
  RwError err = { 0 };
  if (!rw_audio_read (path, &a, &err))
    {
      RW_CHECK (false, "read %s: %s", path, err.message);
      return INFINITY;
    }
  RW_CHECK (a.channels == channels, "%s: %d channels, expected %d", path, a.channels, channels);
  RW_CHECK (a.frames == frames, "%s: %zu frames, expected %zu", path, a.frames, frames);
  double peak = 0.0;
  for (size_t i = 0; i < frames * (size_t) channels; i++)
    peak = fmax (peak, fabs (ref[i]));
  const double g = pow (10.0, -1.0 / 20.0) / peak;
  double worst = 0.0;
  if (a.channels == channels && a.frames == frames)
    for (size_t i = 0; i < frames * (size_t) channels; i++)
      worst = fmax (worst, fabs (a.data[i] - g * ref[i]));
  else
    worst = INFINITY;
  rw_audio_clear (&a);
  return worst;
}

/* out (interleaved, n_irs × (n_in + n_ir − 1)) += in ∗ irs, via rw_convolve. */
static void
add_convolution (const float *in, size_t n_in, const float *irs, size_t n_irs, size_t n_ir,
                 double *out)
{
  const float *p[RW_AURALISE_MAX_CHANNELS];
  for (size_t c = 0; c < n_irs; c++)
    p[c] = irs + c * n_ir;
  const size_t n_out = n_in + n_ir - 1;
  float *y = malloc (n_out * n_irs * sizeof *y);
  RwError err = { 0 };
  RW_CHECK (rw_convolve (in, n_in, p, n_irs, n_ir, 512, y, &err), "rw_convolve: %s", err.message);
  for (size_t i = 0; i < n_out * n_irs; i++)
    out[i] += y[i];
  free (y);
}

static double
band_energy (const float *x, size_t stride, size_t n)
{
  /* energy of the first difference: a crude high-pass (rises 6 dB per
     octave), enough to compare the ears above a few kHz */
  double e = 0.0;
  for (size_t i = 1; i < n; i++)
    {
      const double d = (double) x[i * stride] - (double) x[(i - 1) * stride];
      e += d * d;
    }
  return e;
}

int
main (void)
{
  const double fs = 48000.0;
  RwAuraliseOptions opt;
  rw_auralise_options_init (&opt);
  opt.block_frames = 256;
  RwError err = { 0 };
  RwAuraliseStats st;

  /* Two sources. */
  {
    const size_t n_ir1 = 700, n_ir2 = 300, n_d1 = 2000, n_d2 = 3100;
    float *ir1 = random_signal (n_ir1, 1e-2), *ir2 = random_signal (n_ir2, 2e-2);
    float *d1 = random_signal (n_d1, 0.0), *d2 = random_signal (n_d2, 0.0);
    RwAuraliseSource src[2] = {
      { write_wav ("ir1.wav", ir1, 1, n_ir1, fs), NULL, write_wav ("dry1.wav", d1, 1, n_d1, fs) },
      { write_wav ("ir2.wav", ir2, 1, n_ir2, fs), NULL, write_wav ("dry2.wav", d2, 1, n_d2, fs) },
    };
    const size_t n_out = n_d2 + n_ir2 - 1;   /* 3399 > 2000 + 700 − 1 */
    double *ref = calloc (n_out, sizeof *ref);
    add_convolution (d1, n_d1, ir1, 1, n_ir1, ref);
    add_convolution (d2, n_d2, ir2, 1, n_ir2, ref);
    const char *out = rw_test_tmp_path ("mix.wav");
    bool ok = rw_auralise_scene (src, 2, out, &opt, &st, &err);
    RW_CHECK (ok, "two sources: %s", err.message);
    if (ok)
      {
        const double d = compare_scaled (out, ref, 1, n_out);
        RW_NOTE ("two sources: the mix off the sum of the convolutions by %.2e of full scale", d);
        RW_CHECK (d <= 2e-6, "two sources: %.3g off", d);
        RW_CHECK (st.n_sources == 2 && st.channels == 1 && st.out_frames == n_out,
                  "stats: %zu sources, %d channels, %zu frames", st.n_sources, st.channels, st.out_frames);
      }
    free (ref);
    free (ir1);
    free (ir2);
    free (d1);
    free (d2);
  }

  /* Multichannel IRs: 4 and 16 channels. */
  for (int k = 0; k < 2; k++)
    {
      const int C = k == 0 ? 4 : 16;
      const size_t n_ir = 600, n_d = 1500;
      float *ir = random_signal ((size_t) C * n_ir, 0.0);
      float *dry = random_signal (n_d, 0.0);
      for (int c = 0; c < C; c++)
        for (size_t i = 0; i < n_ir; i++)
          ir[(size_t) c * n_ir + i] *= (float) exp (-(double) i / (100.0 + 20.0 * c));
      char name[64];
      snprintf (name, sizeof name, "ir%d.wav", C);
      const char *ir_path = write_wav (name, ir, C, n_ir, fs);
      const char *dry_path = write_wav ("dry-m.wav", dry, 1, n_d, fs);
      const size_t n_out = n_d + n_ir - 1;
      double *ref = calloc (n_out * (size_t) C, sizeof *ref);
      add_convolution (dry, n_d, ir, (size_t) C, n_ir, ref);
      snprintf (name, sizeof name, "wet%d.wav", C);
      const char *out = rw_test_tmp_path (name);
      bool ok = rw_auralise_file (ir_path, NULL, dry_path, out, &opt, &st, &err);
      RW_CHECK (ok, "%d channels: %s", C, err.message);
      if (ok)
        {
          const double d = compare_scaled (out, ref, C, n_out);
          RW_NOTE ("%d-channel IR: the output off the per-channel convolutions by %.2e", C, d);
          RW_CHECK (d <= 2e-6, "%d channels: %.3g off", C, d);
        }
      if (C == 16)
        {
          const char *flac = rw_test_tmp_path ("wet16.flac");
          ok = rw_auralise_file (ir_path, NULL, dry_path, flac, &opt, &st, &err);
          RW_CHECK (!ok && strstr (err.message, "wet16.flac") && strstr (err.message, "16"),
                    "16 channels as FLAC: %s", ok ? "accepted" : err.message);
          RW_CHECK (access (flac, F_OK) != 0, "a refused FLAC left behind");
        }
      free (ref);
      free (ir);
      free (dry);
    }

  /* Refusals of a scene. */
  {
    float one[4] = { 1.0f, 0.5f, 0.25f, 0.125f };
    float two[8] = { 1.0f, 0.5f, 0.25f, 0.125f, 0.5f, 0.5f, 0.5f, 0.5f };
    const char *mono = write_wav ("mono.wav", one, 1, 4, fs);
    const char *stereo = write_wav ("stereo.wav", two, 2, 4, fs);
    const char *dry48 = write_wav ("d48.wav", one, 1, 4, fs);
    const char *dry44 = write_wav ("d44.wav", one, 1, 4, 44100.0);
    const char *out = rw_test_tmp_path ("refused.wav");
    RwAuraliseSource mism[2] = { { mono, NULL, dry48 }, { stereo, NULL, dry48 } };
    bool ok = rw_auralise_scene (mism, 2, out, &opt, &st, &err);
    RW_CHECK (!ok && err.code == RW_ERROR_INPUT && strstr (err.message, "mono.wav")
              && strstr (err.message, "stereo.wav"), "channel mismatch: %s", ok ? "accepted" : err.message);
    RwAuraliseSource rates[2] = { { mono, NULL, dry48 }, { mono, NULL, dry44 } };
    ok = rw_auralise_scene (rates, 2, out, &opt, &st, &err);
    RW_CHECK (!ok && err.code == RW_ERROR_INPUT && strstr (err.message, "d48.wav")
              && strstr (err.message, "d44.wav"), "rate mismatch: %s", ok ? "accepted" : err.message);
    RW_CHECK (access (out, F_OK) != 0, "a refused scene left its output");

    /* decoding: 3 channels; a file that is not SOFA */
    float three[12] = { 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0 };
    const char *ir3 = write_wav ("three.wav", three, 3, 4, fs);
    RwAuraliseOptions dopt = opt;
    dopt.decode = RW_AURALISE_DECODE_BINAURAL;
    ok = rw_auralise_file (ir3, NULL, dry48, out, &dopt, &st, &err);
    RW_CHECK (!ok && err.code == RW_ERROR_INPUT && strstr (err.message, "three.wav")
              && strstr (err.message, "4, 9 or 16"), "3 channels decoded: %s", ok ? "accepted" : err.message);
    float four[16] = { 1, 0, 0, 0, 0.5f, 0, 0, 0, 0.25f, 0, 0, 0, 0.1f, 0, 0, 0 };
    const char *ir4 = write_wav ("four.wav", four, 4, 4, fs);
    dopt.hrtf_path = rw_test_write_text ("not-a-set.sofa", "this is not HDF5\n");
    ok = rw_auralise_file (ir4, NULL, dry48, out, &dopt, &st, &err);
    RW_CHECK (!ok && strstr (err.message, "not-a-set.sofa") && strstr (err.message, "four.wav"),
              "a bad SOFA file: %s", ok ? "accepted" : err.message);
    RW_CHECK (access (out, F_OK) != 0, "a refused decoding left its output");
  }

  /* Decoding: a plane wave from the left, the head straight and turned. */
  {
    const size_t n = 2400;
    float *ir = calloc (4 * n, sizeof *ir);
    const double left[3] = { 0.0, 1.0, 0.0 };
    double y[4];
    rw_ambi_sh (1, left, y);
    for (int c = 0; c < 4; c++)
      ir[(size_t) c * n + 200] = (float) y[c];
    float imp[64] = { 1.0f };
    const char *ir_path = write_wav ("plane-left.wav", ir, 4, n, fs);
    const char *dry = write_wav ("impulse.wav", imp, 1, 64, fs);
    for (int turn = 0; turn < 2; turn++)
      {
        RwAuraliseOptions dopt = opt;
        dopt.decode = RW_AURALISE_DECODE_BINAURAL;
        dopt.yaw_deg = turn ? 180.0 : 0.0;
        const char *out = rw_test_tmp_path (turn ? "binaural-turned.wav" : "binaural.wav");
        bool ok = rw_auralise_file (ir_path, NULL, dry, out, &dopt, &st, &err);
        RW_CHECK (ok, "decode (yaw %g°): %s", dopt.yaw_deg, err.message);
        RwAudio a = { 0 };
        if (ok && rw_audio_read (out, &a, &err))
          {
            RW_CHECK (a.channels == 2 && st.decoded, "decoded to %d channels", a.channels);
            const double el = band_energy (a.data, 2, a.frames), er = band_energy (a.data + 1, 2, a.frames);
            const double ild = 10.0 * log10 (el / er);
            RW_NOTE ("plane wave from the left, head yaw %g°: left − right %+.1f dB (high-passed)",
                     dopt.yaw_deg, ild);
            RW_CHECK (turn ? ild < -6.0 : ild > 6.0, "yaw %g°: left − right %.1f dB", dopt.yaw_deg, ild);
          }
        rw_audio_clear (&a);
      }
    free (ir);
  }
  return rw_test_finish ();
}
