/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-audio.c — audio files in and out (libsndfile, libsamplerate).
 *
 * Reading is untrusted-input handling: every way a file can be wrong
 * (missing, not audio, a truncated header, no frames, NaN or infinite
 * samples, a channel that does not exist) ends in an RwError naming the
 * file. Writing goes to a temporary file in the destination folder that is
 * renamed over the destination only once it is complete and synced, so a
 * reader never sees a half-written file and a failure leaves nothing
 * behind.
 */
#include "rw-audio.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <samplerate.h>
#include <sndfile.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "rw-file.h"
#include "rw-i18n.h"

/* Frames read per sf_readf_float call: the file's own frame count is not
 * trusted (some containers report none, or a wrong one). */
#define RW_AUDIO_READ_CHUNK 65536

void
rw_audio_clear (RwAudio *audio)
{
  if (audio == NULL)
    return;
  free (audio->data);
  audio->data = NULL;
  audio->frames = 0;
  audio->channels = 0;
  audio->rate_hz = 0.0;
}

/* What a RIFF/WAVE header says, read by hand: libsndfile refuses a rate
 * of 0 with "SF_INFO struct incomplete", and silently shortens a file whose
 * data chunk promises more than the file holds. */
typedef struct {
  uint32_t rate_hz;
  uint16_t block_align;
  bool has_fmt, has_data;
  uint32_t data_bytes;
} WavHeader;

static uint32_t
le32 (const unsigned char *b)
{
  return (uint32_t) b[0] | (uint32_t) b[1] << 8 | (uint32_t) b[2] << 16 | (uint32_t) b[3] << 24;
}

/* false when path is not a RIFF/WAVE file (RF64, AIFF, FLAC: not looked at). */
static bool
wav_header (const char *path, WavHeader *h)
{
  memset (h, 0, sizeof *h);
  FILE *f = fopen (path, "rb");
  if (f == NULL)
    return false;
  unsigned char b[24];
  bool ok = fread (b, 1, 12, f) == 12 && memcmp (b, "RIFF", 4) == 0 && memcmp (b + 8, "WAVE", 4) == 0;
  for (int chunk = 0; ok && chunk < 64 && !h->has_data; chunk++)
    {
      if (fread (b, 1, 8, f) != 8)
        break;
      uint32_t size = le32 (b + 4);
      if (memcmp (b, "fmt ", 4) == 0 && size >= 16)
        {
          if (fread (b + 8, 1, 16, f) != 16)
            break;
          h->rate_hz = le32 (b + 12);
          h->block_align = (uint16_t) (b[20] | b[21] << 8);
          h->has_fmt = true;
          size -= 16;
        }
      else if (memcmp (b, "data", 4) == 0)
        {
          h->data_bytes = size;
          h->has_data = true;
          break;
        }
      if (fseek (f, (long) size + (long) (size & 1), SEEK_CUR) != 0)
        break;
    }
  fclose (f);
  return ok && h->has_fmt;
}

bool
rw_audio_open_failed (const char *path, RwError *err)
{
  const char *why = sf_strerror (NULL);
  WavHeader h;
  if (wav_header (path, &h) && h.rate_hz == 0)
    return rw_fail (err, RW_ERROR_INPUT, _("%s: the WAV header gives a sample rate of 0 Hz"), path);
  return rw_fail (err, RW_ERROR_INPUT, _("%s: not an audio file that can be read (%s)"), path, why);
}

void
rw_audio_check_length (const char *path, size_t frames_read)
{
  WavHeader h;
  /* 0 and 0xFFFFFFFF: a size left open by a recorder that streams */
  if (!wav_header (path, &h) || !h.has_data || h.block_align == 0 || h.data_bytes == 0
      || h.data_bytes == UINT32_MAX)
    return;
  size_t promised = h.data_bytes / h.block_align;
  if (frames_read < promised)
    rw_warn (_("%s: the WAV header promises %zu frames, the file holds %zu (truncated?); "
               "using the %zu there are"),
             path, promised, frames_read, frames_read);
}

bool
rw_audio_read (const char *path, RwAudio *out, RwError *err)
{
  memset (out, 0, sizeof *out);

  struct stat st;
  if (path == NULL || stat (path, &st) != 0)
    return rw_fail (err, RW_ERROR_IO, _("%s: cannot open audio file: %s"),
                    path ? path : "(null)", strerror (errno));
  if (!rw_file_check_regular (path, &st, _("an audio file"), err))
    return false;
  if (st.st_size == 0)
    return rw_fail (err, RW_ERROR_INPUT, _("%s: the file is empty"), path);

  SF_INFO info;
  memset (&info, 0, sizeof info);
  SNDFILE *sf = sf_open (path, SFM_READ, &info);
  if (sf == NULL)
    return rw_audio_open_failed (path, err);

  if (info.channels <= 0 || info.channels > 1024)
    {
      sf_close (sf);
      return rw_fail (err, RW_ERROR_INPUT, _("%s: invalid channel count %d"),
                      path, info.channels);
    }
  if (info.samplerate <= 0)
    {
      sf_close (sf);
      return rw_fail (err, RW_ERROR_INPUT, _("%s: invalid sample rate %d Hz"),
                      path, info.samplerate);
    }

  const size_t ch = (size_t) info.channels;
  size_t cap = 0, frames = 0;
  float *data = NULL;
  for (;;)
    {
      if (frames + RW_AUDIO_READ_CHUNK > cap)
        {
          size_t new_cap = cap == 0 ? RW_AUDIO_READ_CHUNK : cap * 2;
          if (new_cap > SIZE_MAX / sizeof (float) / ch)
            {
              free (data);
              sf_close (sf);
              return rw_fail (err, RW_ERROR_MEMORY, _("%s: too many frames"), path);
            }
          float *grown = realloc (data, new_cap * ch * sizeof (float));
          if (grown == NULL)
            {
              free (data);
              sf_close (sf);
              return rw_fail (err, RW_ERROR_MEMORY,
                              _("%s: not enough memory to read the audio"), path);
            }
          data = grown;
          cap = new_cap;
        }
      sf_count_t got = sf_readf_float (sf, data + frames * ch, RW_AUDIO_READ_CHUNK);
      if (got < 0)
        break;
      frames += (size_t) got;
      if (got < RW_AUDIO_READ_CHUNK)
        break;
    }
  int sf_err = sf_error (sf);
  char sf_msg[256];
  snprintf (sf_msg, sizeof sf_msg, "%s", sf_strerror (sf));
  sf_close (sf);

  if (sf_err != SF_ERR_NO_ERROR)
    {
      free (data);
      return rw_fail (err, RW_ERROR_INPUT, _("%s: damaged audio data (%s)"), path, sf_msg);
    }
  if (frames == 0)
    {
      free (data);
      return rw_fail (err, RW_ERROR_INPUT, _("%s: the audio file holds no samples"), path);
    }
  for (size_t i = 0; i < frames * ch; i++)
    if (!isfinite (data[i]))
      {
        size_t frame = i / ch;
        free (data);
        return rw_fail (err, RW_ERROR_INPUT,
                        _("%s: non-finite sample (NaN or infinite) at frame %zu"),
                        path, frame);
      }

  rw_audio_check_length (path, frames);
  out->data = data;
  out->frames = frames;
  out->channels = info.channels;
  out->rate_hz = info.samplerate;
  return true;
}

bool
rw_audio_select_channel (RwAudio *audio, int channel, const char *path, RwError *err)
{
  const int n = audio->channels;
  if (channel < 0 && n != 1)
    {
      rw_audio_clear (audio);
      return rw_fail (err, RW_ERROR_INPUT,
                      _("%s: the file has %d channels; choose one (0 to %d)"),
                      path, n, n - 1);
    }
  if (channel >= n)
    {
      rw_audio_clear (audio);
      return rw_fail (err, RW_ERROR_INPUT,
                      _("%s: channel %d does not exist (the file has %d channel(s), numbered from 0)"),
                      path, channel, n);
    }
  if (n == 1)
    return true;
  /* Compact in place: frame i's chosen sample moves to index i ≤ its old
   * index i·channels + channel, so no sample is overwritten before read. */
  for (size_t i = 0; i < audio->frames; i++)
    audio->data[i] = audio->data[i * (size_t) n + (size_t) channel];
  float *shrunk = realloc (audio->data, audio->frames * sizeof (float));
  if (shrunk != NULL)
    audio->data = shrunk;
  audio->channels = 1;
  return true;
}

bool
rw_audio_read_channel (const char *path, int channel, RwAudio *out, RwError *err)
{
  return rw_audio_read (path, out, err)
         && rw_audio_select_channel (out, channel, path, err);
}

static bool
has_extension (const char *path, const char *ext)
{
  size_t n = strlen (path), m = strlen (ext);
  return n >= m && strcasecmp (path + n - m, ext) == 0;
}

bool
rw_audio_write (const char *path, const RwAudio *audio, RwError *err)
{
  if (path == NULL || *path == '\0')
    return rw_fail (err, RW_ERROR_INPUT, _("no output file name given"));
  if (audio == NULL || audio->data == NULL || audio->frames == 0)
    return rw_fail (err, RW_ERROR_INPUT, _("%s: nothing to write (no samples)"), path);
  if (audio->channels <= 0 || audio->channels > 1024)
    return rw_fail (err, RW_ERROR_INPUT, _("%s: invalid channel count %d"),
                    path, audio->channels);
  if (!isfinite (audio->rate_hz) || audio->rate_hz < 1.0 || audio->rate_hz > INT_MAX
      || audio->rate_hz != floor (audio->rate_hz))
    return rw_fail (err, RW_ERROR_INPUT,
                    _("%s: sample rate %g Hz cannot be written (a whole number of Hz is needed)"),
                    path, audio->rate_hz);

  const size_t n = audio->frames * (size_t) audio->channels;
  for (size_t i = 0; i < n; i++)
    if (!isfinite (audio->data[i]))
      return rw_fail (err, RW_ERROR_INPUT,
                      _("%s: refusing to write a non-finite sample (frame %zu)"),
                      path, i / (size_t) audio->channels);

  const bool flac = has_extension (path, ".flac");
  SF_INFO info;
  memset (&info, 0, sizeof info);
  info.samplerate = (int) audio->rate_hz;
  info.channels = audio->channels;
  info.format = flac ? (SF_FORMAT_FLAC | SF_FORMAT_PCM_24) : (SF_FORMAT_WAV | SF_FORMAT_FLOAT);
  if (!sf_format_check (&info))
    return rw_fail (err, RW_ERROR_INPUT,
                    _("%s: %s cannot hold %d channel(s) at %d Hz"),
                    path, flac ? "FLAC" : "WAV", info.channels, info.samplerate);

  RwAtomicFile af;
  if (!rw_atomic_file_open (&af, path, err))
    return false;
  /* close_desc false: the descriptor stays af's, synced and closed by
   * rw_atomic_file_commit. */
  SNDFILE *sf = sf_open_fd (af.fd, SFM_WRITE, &info, SF_FALSE);
  if (sf == NULL)
    {
      rw_atomic_file_abort (&af);
      return rw_fail (err, RW_ERROR_IO, _("%s: cannot write audio: %s"), path, sf_strerror (NULL));
    }
  /* Float → 24-bit FLAC: saturate rather than wrap around on overflow. */
  if (flac)
    sf_command (sf, SFC_SET_CLIPPING, NULL, SF_TRUE);
  /* No PEAK chunk in a float WAV: it holds the time of writing, so the
   * same samples written twice gave two files (the same run's IR differed
   * from the last one in 4 bytes of its header); a reader takes the peak
   * from the samples. */
  else
    sf_command (sf, SFC_SET_ADD_PEAK_CHUNK, NULL, SF_FALSE);

  sf_count_t wrote = sf_writef_float (sf, audio->data, (sf_count_t) audio->frames);
  char sf_msg[256];
  snprintf (sf_msg, sizeof sf_msg, "%s", sf_strerror (sf));
  int close_rc = sf_close (sf);
  if (wrote != (sf_count_t) audio->frames || close_rc != 0)
    {
      rw_atomic_file_abort (&af);
      return rw_fail (err, RW_ERROR_IO, _("%s: writing failed: %s"), path, sf_msg);
    }
  return rw_atomic_file_commit (&af, err);
}

bool
rw_audio_resample (RwAudio *audio, double rate_hz, RwError *err)
{
  if (audio == NULL || audio->data == NULL || audio->frames == 0 || audio->channels <= 0)
    return rw_fail (err, RW_ERROR_INPUT, _("resampling: no audio"));
  if (!isfinite (rate_hz) || rate_hz <= 0.0)
    return rw_fail (err, RW_ERROR_INPUT, _("resampling: invalid target rate %g Hz"), rate_hz);
  if (!isfinite (audio->rate_hz) || audio->rate_hz <= 0.0)
    return rw_fail (err, RW_ERROR_INPUT, _("resampling: invalid source rate %g Hz"),
                    audio->rate_hz);
  if (rate_hz == audio->rate_hz)
    return true;

  const double ratio = rate_hz / audio->rate_hz;
  if (!src_is_valid_ratio (ratio))
    return rw_fail (err, RW_ERROR_INPUT,
                    _("resampling: %g Hz → %g Hz is beyond the ratio libsamplerate handles (1/256 … 256)"),
                    audio->rate_hz, rate_hz);
  if (audio->frames > (size_t) LONG_MAX / 512)
    return rw_fail (err, RW_ERROR_MEMORY, _("resampling: signal too long"));

  /* The output has the same duration: round(frames · ratio) frames. */
  const size_t ch = (size_t) audio->channels;
  size_t n_out = (size_t) llround ((double) audio->frames * ratio);
  if (n_out == 0)
    n_out = 1;
  /* Room for the converter to overshoot by a few frames. */
  size_t cap = n_out + 64;
  if (cap > SIZE_MAX / sizeof (float) / ch)
    return rw_fail (err, RW_ERROR_MEMORY, _("resampling: signal too long"));
  float *out = calloc (cap * ch, sizeof (float));
  if (out == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("resampling: out of memory"));

  SRC_DATA d;
  memset (&d, 0, sizeof d);
  d.data_in = audio->data;
  d.input_frames = (long) audio->frames;
  d.data_out = out;
  d.output_frames = (long) cap;
  d.src_ratio = ratio;
  /* src_simple runs the whole signal with end_of_input set and compensates
   * the sinc filter's delay, so t = 0 stays t = 0: arrival times survive
   * resampling. */
  int rc = src_simple (&d, SRC_SINC_BEST_QUALITY, audio->channels);
  if (rc != 0)
    {
      free (out);
      return rw_fail (err, RW_ERROR_INTERNAL, _("resampling: %s"), src_strerror (rc));
    }
  /* Frames the converter did not produce (it may stop a few short of the
   * exact length) stay zero. */
  float *shrunk = realloc (out, n_out * ch * sizeof (float));
  if (shrunk != NULL)
    out = shrunk;
  free (audio->data);
  audio->data = out;
  audio->frames = n_out;
  audio->rate_hz = rate_hz;
  return true;
}
