/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-audio.h — audio files in and out (libsndfile, libsamplerate).
 *
 * Signals are float, channels interleaved. Readers accept any format and
 * rate libsndfile reads; writers write 32-bit float WAV or FLAC (chosen by
 * the file extension) atomically: to a temporary file in the same folder,
 * then renamed, so that a failure never leaves a half-written file.
 */
#pragma once

#include <stddef.h>
#include <stdbool.h>
#include "rw-error.h"

typedef struct {
  float *data;        /* frames · channels, interleaved */
  size_t frames;
  int channels;
  double rate_hz;
} RwAudio;

/* Fails with a message naming the file: missing, not audio, zero length,
 * non-finite samples. */
bool rw_audio_read (const char *path, RwAudio *out, RwError *err);
/* For a reader that opens files itself: the error after sf_open failed on
 * path (a WAV header's sample rate of 0 named as such, else libsndfile's
 * reason); returns false. And the warning (rw_warn) for a WAV file that
 * held fewer frames than its header promised, naming both counts. */
bool rw_audio_open_failed (const char *path, RwError *err);
void rw_audio_check_length (const char *path, size_t frames_read);
/* One channel (0-based) as mono; channel < 0 → channel 0 of a mono file,
 * but fails on a multichannel file asking for a channel. */
bool rw_audio_read_channel (const char *path, int channel, RwAudio *out, RwError *err);
/* The same on audio already read (from path, named in the messages):
 * keeps one channel, in place; on failure clears audio. */
bool rw_audio_select_channel (RwAudio *audio, int channel, const char *path, RwError *err);
bool rw_audio_write (const char *path, const RwAudio *audio, RwError *err);
/* Resamples in place to rate_hz (libsamplerate, SRC_SINC_BEST_QUALITY). */
bool rw_audio_resample (RwAudio *audio, double rate_hz, RwError *err);
void rw_audio_clear (RwAudio *audio);
