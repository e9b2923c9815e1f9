/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-auralise.c — uniformly partitioned overlap-save convolution (FFTW) and
 * the two-pass, streaming file auralisation. See rw-auralise.h and
 * docs/REPORT.md §1. */
#include "rw-auralise.h"
#include "rw-ambi-binaural.h"
#include "rw-ambisonics.h"
#include "rw-audio.h"
#include "rw-hrtf.h"
#include "rw-file.h"
#include "rw-i18n.h"

#include <errno.h>
#include <fftw3.h>
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <sndfile.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* FFTW's planner is not thread-safe; the GUI auralises in a worker thread
 * while other engine code may plan too. Only planning and plan destruction
 * are serialised; execution with fftwf_execute_dft_* is thread-safe. */
static pthread_mutex_t plan_lock = PTHREAD_MUTEX_INITIALIZER;

struct RwConvolver {
  size_t B;               /* block = partition length */
  size_t n_fft;           /* 2B */
  size_t n_bins;          /* B + 1 */
  size_t P;               /* partitions */
  size_t n_irs;
  fftwf_complex *H;       /* n_irs · P · n_bins partition spectra, 1/n_fft folded in */
  fftwf_complex *fdl;     /* P · n_bins input spectra, a ring */
  size_t fdl_head;        /* slot of the newest spectrum */
  float *frame;           /* n_fft: previous block, current block */
  fftwf_complex *acc;     /* n_bins */
  float *y;               /* n_fft */
  fftwf_plan fwd, inv;
};

void
rw_convolver_free (RwConvolver *cv)
{
  if (cv == NULL)
    return;
  pthread_mutex_lock (&plan_lock);
  if (cv->fwd)
    fftwf_destroy_plan (cv->fwd);
  if (cv->inv)
    fftwf_destroy_plan (cv->inv);
  pthread_mutex_unlock (&plan_lock);
  fftwf_free (cv->H);
  fftwf_free (cv->fdl);
  fftwf_free (cv->frame);
  fftwf_free (cv->acc);
  fftwf_free (cv->y);
  free (cv);
}

size_t
rw_convolver_block_frames (const RwConvolver *cv)
{
  return cv->B;
}

size_t
rw_convolver_channels (const RwConvolver *cv)
{
  return cv->n_irs;
}

void
rw_convolver_reset (RwConvolver *cv)
{
  memset (cv->fdl, 0, cv->P * cv->n_bins * sizeof (fftwf_complex));
  memset (cv->frame, 0, cv->n_fft * sizeof (float));
  cv->fdl_head = 0;
}

RwConvolver *
rw_convolver_new (const float *const *irs, size_t n_irs, size_t ir_frames,
                  size_t block_frames, RwError *err)
{
  if (n_irs < 1 || n_irs > RW_AURALISE_MAX_CHANNELS)
    {
      rw_fail (err, RW_ERROR_INPUT, _("%zu impulse responses given; auralisation takes 1 to %d"), n_irs,
               RW_AURALISE_MAX_CHANNELS);
      return NULL;
    }
  if (ir_frames == 0)
    {
      rw_fail (err, RW_ERROR_INPUT, _("the impulse response is empty"));
      return NULL;
    }
  if (block_frames < 16 || block_frames > ((size_t) 1 << 24))
    {
      rw_fail (err, RW_ERROR_INPUT, _("convolution block of %zu frames: must be 16 to 16777216"), block_frames);
      return NULL;
    }
  RwConvolver *cv = calloc (1, sizeof *cv);
  if (cv == NULL)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("out of memory for the convolution"));
      return NULL;
    }
  cv->B = block_frames;
  cv->n_fft = 2 * block_frames;
  cv->n_bins = block_frames + 1;
  cv->P = (ir_frames + block_frames - 1) / block_frames;
  cv->n_irs = n_irs;
  cv->H = fftwf_malloc (n_irs * cv->P * cv->n_bins * sizeof (fftwf_complex));
  cv->fdl = fftwf_malloc (cv->P * cv->n_bins * sizeof (fftwf_complex));
  cv->frame = fftwf_malloc (cv->n_fft * sizeof (float));
  cv->acc = fftwf_malloc (cv->n_bins * sizeof (fftwf_complex));
  cv->y = fftwf_malloc (cv->n_fft * sizeof (float));
  if (!cv->H || !cv->fdl || !cv->frame || !cv->acc || !cv->y)
    {
      rw_convolver_free (cv);
      rw_fail (err, RW_ERROR_MEMORY, _("out of memory for the convolution (%zu IR frames)"), ir_frames);
      return NULL;
    }
  /* FFTW_ESTIMATE: planning must not cost more than the convolution of a
   * short dry signal, and must not overwrite the arrays. */
  pthread_mutex_lock (&plan_lock);
  cv->fwd = fftwf_plan_dft_r2c_1d ((int) cv->n_fft, cv->frame, cv->acc, FFTW_ESTIMATE);
  cv->inv = fftwf_plan_dft_c2r_1d ((int) cv->n_fft, cv->acc, cv->y, FFTW_ESTIMATE);
  pthread_mutex_unlock (&plan_lock);
  if (cv->fwd == NULL || cv->inv == NULL)
    {
      rw_convolver_free (cv);
      rw_fail (err, RW_ERROR_INTERNAL, _("FFTW could not plan a transform of %zu points"), 2 * block_frames);
      return NULL;
    }

  /* Partition spectra: H[c][p] = FFT of [ir_c[pB … pB+B), B zeros] / n_fft
   * (FFTW's transforms are unnormalised; the 1/n_fft is folded in here
   * once rather than applied to every output block). */
  const float scale = 1.0f / (float) cv->n_fft;
  for (size_t c = 0; c < n_irs; c++)
    for (size_t p = 0; p < cv->P; p++)
      {
        memset (cv->frame, 0, cv->n_fft * sizeof (float));
        size_t start = p * cv->B;
        size_t n = ir_frames - start < cv->B ? ir_frames - start : cv->B;
        for (size_t i = 0; i < n; i++)
          cv->frame[i] = irs[c][start + i] * scale;
        fftwf_complex *dst = cv->H + (c * cv->P + p) * cv->n_bins;
        fftwf_execute_dft_r2c (cv->fwd, cv->frame, cv->acc);
        memcpy (dst, cv->acc, cv->n_bins * sizeof (fftwf_complex));
      }
  rw_convolver_reset (cv);
  return cv;
}

void
rw_convolver_process (RwConvolver *cv, const float *in, float *out)
{
  const size_t B = cv->B, nb = cv->n_bins, P = cv->P;

  /* Overlap-save: the transform frame is [previous block, this block]; of
   * the circular convolution of 2B points the last B are the linear ones. */
  memmove (cv->frame, cv->frame + B, B * sizeof (float));
  memcpy (cv->frame + B, in, B * sizeof (float));
  cv->fdl_head = (cv->fdl_head + P - 1) % P;
  fftwf_execute_dft_r2c (cv->fwd, cv->frame, cv->acc);
  memcpy (cv->fdl + cv->fdl_head * nb, cv->acc, nb * sizeof (fftwf_complex));

  for (size_t c = 0; c < cv->n_irs; c++)
    {
      /* acc = Σ_p X[m − p] · H[p]: the spectrum of the block p blocks ago
       * times partition p. Plain float arrays (re, im pairs) so that the
       * compiler can vectorise the multiply-accumulate. */
      float *restrict acc = (float *) cv->acc;
      memset (acc, 0, nb * sizeof (fftwf_complex));
      for (size_t p = 0; p < P; p++)
        {
          const float *restrict x = (const float *) (cv->fdl + ((cv->fdl_head + p) % P) * nb);
          const float *restrict h = (const float *) (cv->H + (c * P + p) * nb);
          for (size_t k = 0; k < nb; k++)
            {
              float xr = x[2 * k], xi = x[2 * k + 1];
              float hr = h[2 * k], hi = h[2 * k + 1];
              acc[2 * k] += xr * hr - xi * hi;
              acc[2 * k + 1] += xr * hi + xi * hr;
            }
        }
      fftwf_execute_dft_c2r (cv->inv, cv->acc, cv->y);
      for (size_t i = 0; i < B; i++)
        out[i * cv->n_irs + c] = cv->y[B + i];
    }
}

bool
rw_convolve (const float *in, size_t n_in, const float *const *irs, size_t n_irs,
             size_t ir_frames, size_t block_frames, float *out, RwError *err)
{
  RwConvolver *cv = rw_convolver_new (irs, n_irs, ir_frames, block_frames, err);
  if (cv == NULL)
    return false;
  const size_t B = cv->B, n_out = n_in + ir_frames - 1;
  float *blk_in = malloc (B * sizeof (float));
  float *blk_out = malloc (B * n_irs * sizeof (float));
  if (blk_in == NULL || blk_out == NULL)
    {
      free (blk_in);
      free (blk_out);
      rw_convolver_free (cv);
      return rw_fail (err, RW_ERROR_MEMORY, _("out of memory for the convolution"));
    }
  for (size_t done = 0; done < n_out; done += B)
    {
      for (size_t i = 0; i < B; i++)
        blk_in[i] = done + i < n_in ? in[done + i] : 0.0f;
      rw_convolver_process (cv, blk_in, blk_out);
      size_t n = n_out - done < B ? n_out - done : B;
      memcpy (out + done * n_irs, blk_out, n * n_irs * sizeof (float));
    }
  free (blk_in);
  free (blk_out);
  rw_convolver_free (cv);
  return true;
}

/* ---- files ---- */

void
rw_auralise_options_init (RwAuraliseOptions *opt)
{
  memset (opt, 0, sizeof *opt);
  opt->block_frames = RW_AURALISE_DEFAULT_BLOCK;
  opt->peak_dbfs = -1.0;
  opt->decode = RW_AURALISE_DECODE_NONE;
}

static bool
has_extension (const char *path, const char *ext)
{
  size_t n = strlen (path), m = strlen (ext);
  return n > m && strcasecmp (path + n - m, ext) == 0;
}

/* The decoder of the last IR decoded, kept for the next source of the
 * same rate and order (the design costs a fraction of a second). */
typedef struct {
  RwHrtf *hrtf;
  RwAmbiBinaural *dec;
} DecoderCache;

static void
decoder_cache_clear (DecoderCache *dc)
{
  rw_ambi_binaural_free (dc->dec);
  rw_hrtf_free (dc->hrtf);
  dc->dec = NULL;
  dc->hrtf = NULL;
}

/* The ambisonic order of a channel count, 0 when it is not (N + 1)²,
 * N = 1 … 3. */
static int
ambi_order_of (int channels)
{
  for (int n = RW_AMBI_MIN_ORDER; n <= RW_AMBI_MAX_ORDER; n++)
    if (RW_AMBI_CHANNELS (n) == channels)
      return n;
  return 0;
}

static bool
decode_binaural (RwAudio *ir, const char *name, const char *hrtf_path, double yaw_deg,
                 double pitch_deg, DecoderCache *dc, RwError *err)
{
  const int order = ambi_order_of (ir->channels);
  if (order == 0)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("%s: %d channel(s): not an ambisonic impulse response of order 1 to 3 "
                      "(4, 9 or 16 channels), which binaural decoding needs"),
                    name, ir->channels);
  if (dc->dec == NULL || rw_ambi_binaural_order (dc->dec) != order
      || rw_ambi_binaural_rate (dc->dec) != ir->rate_hz)
    {
      decoder_cache_clear (dc);
      dc->hrtf = rw_hrtf_open (hrtf_path, ir->rate_hz, err);
      if (dc->hrtf == NULL)
        {
          rw_fail_prefix (err, _("%s: binaural decoding"), name);
          return false;
        }
      dc->dec = rw_ambi_binaural_new (dc->hrtf, order, err);
      if (dc->dec == NULL)
        {
          rw_fail_prefix (err, _("%s: binaural decoding"), name);
          decoder_cache_clear (dc);
          return false;
        }
    }
  /* Planar, zero-padded by the decoder's length: nothing of the tail is
     cut. */
  const size_t L = (size_t) ir->channels, n = ir->frames + rw_ambi_binaural_taps (dc->dec);
  double *ambi = calloc (L * n, sizeof *ambi);
  double *rot = calloc (L * n, sizeof *rot);
  double *ears = malloc (2 * n * sizeof *ears);
  float *out = malloc (2 * n * sizeof *out);
  bool ok = false;
  if (!ambi || !rot || !ears || !out)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory for the impulse response"), name);
      goto done;
    }
  for (size_t i = 0; i < ir->frames; i++)
    for (size_t c = 0; c < L; c++)
      ambi[c * n + i] = ir->data[i * L + c];
  if (!rw_ambi_rotate (ambi, order, n, yaw_deg, pitch_deg, rot, err)
      || !rw_ambi_binaural_decode (dc->dec, rot, n, ears, ears + n, err))
    {
      rw_fail_prefix (err, "%s", name);
      goto done;
    }
  for (size_t i = 0; i < n; i++)
    {
      out[2 * i] = (float) ears[i];
      out[2 * i + 1] = (float) ears[n + i];
    }
  free (ir->data);
  ir->data = out;
  out = NULL;
  ir->channels = 2;
  ir->frames = n;
  ok = true;
done:
  free (ambi);
  free (rot);
  free (ears);
  free (out);
  return ok;
}

bool
rw_auralise_decode_binaural (RwAudio *ir, const char *name, const char *hrtf_path,
                             double yaw_deg, double pitch_deg, RwError *err)
{
  DecoderCache dc = { NULL, NULL };
  bool ok = decode_binaural (ir, name, hrtf_path, yaw_deg, pitch_deg, &dc, err);
  decoder_cache_clear (&dc);
  return ok;
}

/* Reads a source's IR(s), decodes it when asked, brings it to rate_hz, as
 * *n_irs planar channels of equal length (irs[c], *frames). */
static bool
load_irs (const RwAuraliseSource *src, double rate_hz, const RwAuraliseOptions *opt,
          DecoderCache *dc, float **irs, size_t *n_irs, size_t *frames, bool *resampled,
          RwError *err)
{
  RwAudio a[2] = { { 0 }, { 0 } };
  const char *paths[2] = { src->ir_path, src->ir_right_path };
  int n_files = src->ir_right_path ? 2 : 1;
  const bool decode = opt->decode == RW_AURALISE_DECODE_BINAURAL;

  if (decode && n_files == 2)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("%s: binaural decoding takes one ambisonic impulse response, not a right one too (%s)"),
                    paths[0], paths[1]);
  for (int f = 0; f < n_files; f++)
    {
      if (!rw_audio_read (paths[f], &a[f], err))
        goto fail;
      if (decode && !decode_binaural (&a[f], paths[f], opt->hrtf_path, opt->yaw_deg,
                                      opt->pitch_deg, dc, err))
        goto fail;
      if (a[f].channels > RW_AURALISE_MAX_CHANNELS || (n_files == 2 && a[f].channels != 1))
        {
          if (n_files == 2)
            rw_fail (err, RW_ERROR_INPUT,
                     _("%s: the impulse response has %d channels; with --ir-right each impulse response must be mono"),
                     paths[f], a[f].channels);
          else
            rw_fail (err, RW_ERROR_INPUT,
                     _("%s: the impulse response has %d channels; auralisation takes 1 to %d"),
                     paths[f], a[f].channels, RW_AURALISE_MAX_CHANNELS);
          goto fail;
        }
      if (fabs (a[f].rate_hz - rate_hz) > 1e-6)
        {
          if (!rw_audio_resample (&a[f], rate_hz, err))
            {
              rw_fail_prefix (err, "%s", paths[f]);
              goto fail;
            }
          *resampled = true;
        }
    }

  *n_irs = n_files == 2 ? 2 : (size_t) a[0].channels;
  size_t n = a[0].frames;
  if (n_files == 2 && a[1].frames > n)
    n = a[1].frames;
  *frames = n;
  for (size_t c = 0; c < *n_irs; c++)
    {
      irs[c] = calloc (n, sizeof (float));
      if (irs[c] == NULL)
        {
          rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory for the impulse response"), paths[0]);
          goto fail;
        }
      const RwAudio *s = n_files == 2 ? &a[c] : &a[0];
      int ch = n_files == 2 ? 0 : (int) c;
      for (size_t i = 0; i < s->frames; i++)
        irs[c][i] = s->data[i * s->channels + ch];
    }
  rw_audio_clear (&a[0]);
  rw_audio_clear (&a[1]);
  return true;

fail:
  rw_audio_clear (&a[0]);
  rw_audio_clear (&a[1]);
  for (size_t c = 0; c < RW_AURALISE_MAX_CHANNELS; c++)
    {
      free (irs[c]);
      irs[c] = NULL;
    }
  return false;
}

/* One source of the scene while it streams. */
typedef struct {
  const char *dry_path;
  SNDFILE *dry;
  SF_INFO info;
  bool length_known;
  RwConvolver *cv;
  size_t ir_frames;
  size_t n_dry, n_out, n_total;   /* n_total known once the dry file ends */
  bool dry_done;
  float *rd, *in, *blk;
} SourceState;

typedef struct {
  SourceState *src;
  size_t n_src;
  FILE *raw;
  SNDFILE *out;
  RwAtomicFile out_file;   /* fd −1 until pass 2 opens it */
  float *mix;
  DecoderCache dc;
} AuraliseState;

static void
state_clear (AuraliseState *s)
{
  for (size_t i = 0; s->src && i < s->n_src; i++)
    {
      SourceState *q = &s->src[i];
      if (q->dry)
        sf_close (q->dry);
      rw_convolver_free (q->cv);
      free (q->rd);
      free (q->in);
      free (q->blk);
    }
  free (s->src);
  s->src = NULL;
  if (s->raw)
    fclose (s->raw);
  if (s->out)
    sf_close (s->out);
  rw_atomic_file_abort (&s->out_file);
  free (s->mix);
  decoder_cache_clear (&s->dc);
}

static bool
cancelled (const RwAuraliseOptions *opt, RwError *err)
{
  if (opt->cancel && atomic_load (opt->cancel))
    return !rw_fail (err, RW_ERROR_CANCELLED, _("auralisation cancelled"));
  return false;
}

/* Opens a source's dry file (streamed later). */
static bool
open_dry (SourceState *q, RwError *err)
{
  struct stat dst;
  const char *path = q->dry_path;
  if (stat (path, &dst) != 0 || access (path, R_OK) != 0)
    return rw_fail (err, RW_ERROR_IO, _("%s: cannot open the dry signal: %s"), path, strerror (errno));
  if (!rw_file_check_regular (path, &dst, _("an audio file"), err))
    return false;
  if (dst.st_size == 0)
    return rw_fail (err, RW_ERROR_INPUT, _("%s: the file is empty"), path);
  memset (&q->info, 0, sizeof q->info);
  q->dry = sf_open (path, SFM_READ, &q->info);
  if (q->dry == NULL)
    return rw_audio_open_failed (path, err);
  if (q->info.frames == 0 || q->info.channels < 1 || q->info.samplerate <= 0)
    return rw_fail (err, RW_ERROR_INPUT, _("%s: the dry signal is empty (no audio frames)"), path);
  q->length_known = q->info.frames > 0 && q->info.frames < SF_COUNT_MAX;
  return true;
}

/* One block of a source into q->blk: its next B dry frames (zeros once
 * the file has ended) convolved; *n_valid the frames of it that belong to
 * the source's output (B, fewer in its last block, 0 after). */
static bool
source_block (SourceState *q, size_t B, size_t *n_valid, RwError *err)
{
  size_t got = 0;
  const int ch = q->info.channels;
  if (q->dry_done && q->n_out >= q->n_total)
    {
      *n_valid = 0;
      return true;
    }
  if (!q->dry_done)
    {
      sf_count_t r = sf_readf_float (q->dry, q->rd, (sf_count_t) B);
      if (r < 0 || sf_error (q->dry) != SF_ERR_NO_ERROR)
        return rw_fail (err, RW_ERROR_INPUT, _("%s: read error after %zu frames: %s"), q->dry_path,
                        q->n_dry, sf_strerror (q->dry));
      got = (size_t) r;
      /* Mix-down: the mean of the channels (a multichannel dry file is
       * taken as one source; the mean keeps a mono file's level). */
      for (size_t i = 0; i < got; i++)
        {
          float sum = 0.0f;
          for (int c = 0; c < ch; c++)
            sum += q->rd[i * ch + c];
          float v = sum / (float) ch;
          if (!isfinite (v))
            return rw_fail (err, RW_ERROR_INPUT, _("%s: non-finite sample at frame %zu"), q->dry_path,
                            q->n_dry + i);
          q->in[i] = v;
        }
      q->n_dry += got;
      if (got < B)
        {
          q->dry_done = true;
          if (q->n_dry == 0)
            return rw_fail (err, RW_ERROR_INPUT, _("%s: the dry signal is empty (no audio frames)"),
                            q->dry_path);
          q->n_total = q->n_dry + q->ir_frames - 1;
          rw_audio_check_length (q->dry_path, q->n_dry);
        }
    }
  for (size_t i = got; i < B; i++)
    q->in[i] = 0.0f;
  rw_convolver_process (q->cv, q->in, q->blk);
  size_t n = B;
  if (q->dry_done)
    n = q->n_total - q->n_out < B ? q->n_total - q->n_out : B;
  q->n_out += n;
  *n_valid = n;
  return true;
}

bool
rw_auralise_scene (const RwAuraliseSource *sources, size_t n_sources, const char *out_path,
                   const RwAuraliseOptions *opt_in, RwAuraliseStats *stats, RwError *err)
{
  RwAuraliseOptions opt;
  if (opt_in)
    opt = *opt_in;
  else
    rw_auralise_options_init (&opt);
  if (opt.block_frames == 0)
    opt.block_frames = RW_AURALISE_DEFAULT_BLOCK;
  if (!(opt.peak_dbfs <= 0.0) || !isfinite (opt.peak_dbfs))
    return rw_fail (err, RW_ERROR_INPUT, _("output peak of %g dBFS: must be at most 0 dBFS"), opt.peak_dbfs);
  if (n_sources < 1 || n_sources > RW_AURALISE_MAX_SOURCES || sources == NULL)
    return rw_fail (err, RW_ERROR_INPUT, _("%zu sources given; a scene takes 1 to %d"), n_sources,
                    RW_AURALISE_MAX_SOURCES);
  if (opt.decode == RW_AURALISE_DECODE_BINAURAL
      && (!isfinite (opt.yaw_deg) || !isfinite (opt.pitch_deg)))
    return rw_fail (err, RW_ERROR_INPUT,
                    _("ambisonic rotation: the head's orientation must be finite (yaw %g°, pitch %g°)"),
                    opt.yaw_deg, opt.pitch_deg);

  int out_format;
  if (has_extension (out_path, ".wav"))
    out_format = SF_FORMAT_WAV | SF_FORMAT_FLOAT;
  else if (has_extension (out_path, ".flac"))
    out_format = SF_FORMAT_FLAC | SF_FORMAT_PCM_24;
  else
    return rw_fail (err, RW_ERROR_INPUT, _("%s: unknown output format; the name must end in .wav (32-bit float) or .flac (24-bit)"), out_path);

  AuraliseState s;
  memset (&s, 0, sizeof s);
  s.out_file.fd = -1;
  RwAuraliseStats st;
  memset (&st, 0, sizeof st);
  st.n_sources = n_sources;
  st.decoded = opt.decode == RW_AURALISE_DECODE_BINAURAL;
  s.src = calloc (n_sources, sizeof *s.src);
  if (s.src == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("out of memory for the convolution"));
  s.n_src = n_sources;
  const size_t B = opt.block_frames;

  /* The dry files first, so that the rate is known; streamed later. One
   * rate for the scene: the dry signals are not resampled (the IRs are). */
  for (size_t i = 0; i < n_sources; i++)
    {
      SourceState *q = &s.src[i];
      q->dry_path = sources[i].dry_path;
      if (!open_dry (q, err))
        {
          state_clear (&s);
          return false;
        }
      if (i == 0)
        {
          st.rate_hz = q->info.samplerate;
          st.dry_channels = q->info.channels;
        }
      else if (q->info.samplerate != s.src[0].info.samplerate)
        {
          rw_fail (err, RW_ERROR_INPUT,
                   _("%s: a sampling rate of %d Hz, but %s has %d Hz; the dry signals of one scene must "
                     "have one rate"),
                   q->dry_path, q->info.samplerate, s.src[0].dry_path, s.src[0].info.samplerate);
          state_clear (&s);
          return false;
        }
      if (q->info.channels > st.dry_channels)
        st.dry_channels = q->info.channels;
    }

  size_t C = 0;
  for (size_t i = 0; i < n_sources; i++)
    {
      SourceState *q = &s.src[i];
      float *irs[RW_AURALISE_MAX_CHANNELS] = { NULL };
      size_t n_irs = 0;
      bool ok = load_irs (&sources[i], st.rate_hz, &opt, &s.dc, irs, &n_irs, &q->ir_frames,
                          &st.ir_resampled, err);
      if (ok && i > 0 && n_irs != C)
        ok = rw_fail (err, RW_ERROR_INPUT,
                      _("%s: the impulse response gives %zu channel(s), but %s gives %zu; the sources "
                        "of one scene must give the same number"),
                      sources[i].ir_path, n_irs, sources[0].ir_path, C);
      if (ok)
        {
          C = n_irs;
          q->cv = rw_convolver_new ((const float *const *) irs, n_irs, q->ir_frames, B, err);
          ok = q->cv != NULL;
        }
      /* The IR is now in the partition spectra: its time-domain copies go. */
      for (size_t c = 0; c < RW_AURALISE_MAX_CHANNELS; c++)
        free (irs[c]);
      if (!ok)
        {
          state_clear (&s);
          return false;
        }
      if (q->ir_frames > st.ir_frames)
        st.ir_frames = q->ir_frames;
      q->rd = malloc (B * (size_t) q->info.channels * sizeof (float));
      q->in = malloc (B * sizeof (float));
      q->blk = malloc (B * C * sizeof (float));
      if (!q->rd || !q->in || !q->blk)
        {
          state_clear (&s);
          return rw_fail (err, RW_ERROR_MEMORY, _("out of memory for the convolution"));
        }
    }
  decoder_cache_clear (&s.dc);
  st.channels = (int) C;

  SF_INFO oinfo;
  memset (&oinfo, 0, sizeof oinfo);
  oinfo.samplerate = (int) st.rate_hz;
  oinfo.channels = (int) C;
  oinfo.format = out_format;
  if (!sf_format_check (&oinfo))
    {
      rw_fail (err, RW_ERROR_INPUT, _("%s: %s cannot hold %d channel(s) at %d Hz"), out_path,
               (out_format & SF_FORMAT_TYPEMASK) == SF_FORMAT_FLAC ? "FLAC" : "WAV", oinfo.channels,
               oinfo.samplerate);
      state_clear (&s);
      return false;
    }
  s.mix = malloc (B * C * sizeof (float));
  if (s.mix == NULL)
    {
      state_clear (&s);
      return rw_fail (err, RW_ERROR_MEMORY, _("out of memory for the convolution"));
    }

  /* Pass 1: convolve into an anonymous temporary file (unlinked at once,
   * so that nothing is left behind whatever happens). */
  char dir[4096], raw_tmpl[4200];
  if (opt.tmp_dir)
    snprintf (dir, sizeof dir, "%s", opt.tmp_dir);
  else
    rw_file_dirname (out_path, dir, sizeof dir);
  snprintf (raw_tmpl, sizeof raw_tmpl, "%s/.roomwave-auralise-XXXXXX", dir);
  int raw_fd = mkstemp (raw_tmpl);
  if (raw_fd < 0)
    {
      state_clear (&s);
      return rw_fail (err, RW_ERROR_IO, _("%s: cannot write a temporary file in %s: %s"), out_path, dir, strerror (errno));
    }
  unlink (raw_tmpl);
  s.raw = fdopen (raw_fd, "w+b");
  if (s.raw == NULL)
    {
      close (raw_fd);
      state_clear (&s);
      return rw_fail (err, RW_ERROR_IO, _("%s: cannot write a temporary file: %s"), out_path, strerror (errno));
    }

  /* Progress: the expected output length, where every dry length is known. */
  double expected = 0.0;
  bool lengths_known = true;
  for (size_t i = 0; i < n_sources; i++)
    {
      lengths_known = lengths_known && s.src[i].length_known;
      expected = fmax (expected, (double) s.src[i].info.frames + (double) s.src[i].ir_frames);
    }
  float peak = 0.0f;
  size_t n_out = 0;
  for (;;)
    {
      /* Every source advances one block in step: block m of each is
       * output frames mB … mB + B − 1 of the scene. */
      memset (s.mix, 0, B * C * sizeof (float));
      size_t n = 0;
      bool all_done = true;
      for (size_t i = 0; i < n_sources; i++)
        {
          SourceState *q = &s.src[i];
          size_t valid = 0;
          if (!source_block (q, B, &valid, err))
            {
              state_clear (&s);
              return false;
            }
          for (size_t k = 0; k < valid * C; k++)
            s.mix[k] += q->blk[k];
          if (valid > n)
            n = valid;
          if (!(q->dry_done && q->n_out >= q->n_total))
            all_done = false;
        }
      for (size_t k = 0; k < n * C; k++)
        if (fabsf (s.mix[k]) > peak)
          peak = fabsf (s.mix[k]);
      if (n > 0 && fwrite (s.mix, sizeof (float) * C, n, s.raw) != n)
        {
          rw_fail (err, RW_ERROR_IO, _("%s: cannot write the temporary file in %s: %s"), out_path, dir, strerror (errno));
          state_clear (&s);
          return false;
        }
      n_out += n;
      if (all_done)
        break;
      if (opt.progress && lengths_known)
        opt.progress (0.9 * fmin (1.0, (double) n_out / expected), opt.user_data);
      if (cancelled (&opt, err))
        {
          state_clear (&s);
          return false;
        }
    }
  for (size_t i = 0; i < n_sources; i++)
    {
      SourceState *q = &s.src[i];
      sf_close (q->dry);
      q->dry = NULL;
      rw_convolver_free (q->cv);
      q->cv = NULL;
      if (q->n_dry > st.dry_frames)
        st.dry_frames = q->n_dry;
    }
  st.out_frames = n_out;
  st.raw_peak = peak;
  if (!(peak > 0.0f))
    {
      state_clear (&s);
      if (n_sources == 1)
        return rw_fail (err, RW_ERROR_INPUT, _("%s: the result is silent (the dry signal or the impulse response %s is all zeros)"),
                        sources[0].dry_path, sources[0].ir_path);
      return rw_fail (err, RW_ERROR_INPUT,
                      _("%s: the mix of the %zu sources is silent (every dry signal or impulse response is all zeros)"),
                      out_path, n_sources);
    }

  /* The gain puts the peak at peak_dbfs. Computed in double, then nudged
   * down until the peak sample, scaled in float as it will be written,
   * does not exceed the target: never above, by construction. One gain for
   * every channel and source: their balance is the IRs'. */
  const float target = (float) pow (10.0, opt.peak_dbfs / 20.0);
  float gain = (float) ((double) target / (double) peak);
  while (peak * gain > target)
    gain = nextafterf (gain, 0.0f);
  st.gain_db = 20.0 * log10 ((double) gain);

  /* Pass 2: scale while copying into the final file (temporary name in the
   * output's folder, renamed at the end). A WAV holds at most 4 GiB of
   * data; RF64 beyond (the same samples, 64-bit sizes; libsndfile, sox and
   * DAWs read it). */
  if ((out_format & SF_FORMAT_TYPEMASK) == SF_FORMAT_WAV
      && (double) n_out * C * sizeof (float) > 4.0e9)
    oinfo.format = SF_FORMAT_RF64 | SF_FORMAT_FLOAT;
  if (!rw_atomic_file_open (&s.out_file, out_path, err))
    {
      state_clear (&s);
      return false;
    }
  /* close_desc false: the descriptor stays out_file's, synced and closed
   * by rw_atomic_file_commit (or closed by state_clear's abort). */
  s.out = sf_open_fd (s.out_file.fd, SFM_WRITE, &oinfo, SF_FALSE);
  if (s.out == NULL)
    {
      rw_fail (err, RW_ERROR_IO, _("%s: cannot write audio: %s"), out_path, sf_strerror (NULL));
      state_clear (&s);
      return false;
    }
  sf_command (s.out, SFC_SET_CLIPPING, NULL, SF_TRUE);
  if (fflush (s.raw) != 0 || fseek (s.raw, 0, SEEK_SET) != 0)
    {
      rw_fail (err, RW_ERROR_IO, _("%s: cannot read back the temporary file: %s"), out_path, strerror (errno));
      state_clear (&s);
      return false;
    }
  for (size_t done = 0; done < n_out;)
    {
      size_t n = n_out - done < B ? n_out - done : B;
      if (fread (s.mix, sizeof (float) * C, n, s.raw) != n)
        {
          rw_fail (err, RW_ERROR_IO, _("%s: cannot read back the temporary file"), out_path);
          state_clear (&s);
          return false;
        }
      for (size_t i = 0; i < n * C; i++)
        s.mix[i] *= gain;
      if (sf_writef_float (s.out, s.mix, (sf_count_t) n) != (sf_count_t) n)
        {
          rw_fail (err, RW_ERROR_IO, _("%s: cannot write audio: %s"), out_path, sf_strerror (s.out));
          state_clear (&s);
          return false;
        }
      done += n;
      if (opt.progress)
        opt.progress (0.9 + 0.1 * (double) done / (double) n_out, opt.user_data);
      if (cancelled (&opt, err))
        {
          state_clear (&s);
          return false;
        }
    }
  int close_rc = sf_close (s.out);
  s.out = NULL;
  if (close_rc != 0)
    {
      rw_fail (err, RW_ERROR_IO, _("%s: cannot finish writing audio: %s"), out_path, sf_error_number (close_rc));
      state_clear (&s);
      return false;
    }
  if (!rw_atomic_file_commit (&s.out_file, err))
    {
      state_clear (&s);
      return false;
    }
  state_clear (&s);
  if (stats)
    *stats = st;
  return true;
}

bool
rw_auralise_file (const char *ir_path, const char *ir_right_path,
                  const char *dry_path, const char *out_path,
                  const RwAuraliseOptions *opt, RwAuraliseStats *stats,
                  RwError *err)
{
  const RwAuraliseSource src = { ir_path, ir_right_path, dry_path };
  return rw_auralise_scene (&src, 1, out_path, opt, stats, err);
}
