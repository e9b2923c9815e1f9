/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-listen-render.c — binaural IRs for other head orientations
 * (rw-listen-render.h). */
#include "rw-listen-render.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rw-ambi-binaural.h"
#include "rw-ambisonics.h"

gboolean
rw_listen_same_orientation (double sim_yaw_deg, double sim_pitch_deg, double yaw_deg, double pitch_deg)
{
  /* yaw modulo a whole turn; the fields hold 0.1°, far above 1e-9 */
  double dyaw = fmod (fabs (yaw_deg - sim_yaw_deg), 360.0);
  return fmin (dyaw, 360.0 - dyaw) < 1e-9 && fabs (pitch_deg - sim_pitch_deg) < 1e-9;
}

/* The order N of an AmbiX file of `channels` = (N + 1)² channels, N = 1 … 3;
 * 0 for any other count. */
static int
ambix_order (int channels)
{
  for (int n = RW_AMBI_MIN_ORDER; n <= RW_AMBI_MAX_ORDER; n++)
    if (RW_AMBI_CHANNELS (n) == channels)
      return n;
  return 0;
}

static gboolean
engine_error (GError **error, const RwError *err, const char *prefix)
{
  if (prefix != NULL)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: %s", prefix, err->message);
  else
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, err->message);
  return FALSE;
}

/* The field of `planar` (order N, n samples, the frame of a head at
 * (sim_yaw, sim_pitch)) into the frame of a head at (yaw, pitch), in
 * `planar` (`work` the same size). rw_ambi_rotate turns the listener by a
 * yaw and then a pitch from the field's own frame; turns about different
 * axes do not commute, so the difference of the two orientations is not
 * one such turn when the simulated head is pitched. The head is first
 * levelled (pitch −ϑ₀ about its own left axis: the frame of yaw ψ₀ and no
 * pitch, since R(ψ₀, ϑ₀) · R(0, −ϑ₀) = R(ψ₀, 0)), then turned by ψ − ψ₀
 * and pitched by ϑ: R(ψ₀, 0) · R(ψ − ψ₀, ϑ) = R(ψ, ϑ). */
static gboolean
turn_head (double *planar, double *work, int order, size_t n, double sim_yaw, double sim_pitch, double yaw,
           double pitch, const char *path, GError **error)
{
  RwError err = { 0 };
  const size_t bytes = (size_t) RW_AMBI_CHANNELS (order) * n * sizeof (double);

  if (sim_pitch != 0)
    {
      if (!rw_ambi_rotate (planar, order, n, 0, -sim_pitch, work, &err))
        return engine_error (error, &err, path);
      memcpy (planar, work, bytes);
    }
  /* the yaw difference within ±180° (the same turn) */
  double dyaw = remainder (yaw - sim_yaw, 360.0);
  if (!rw_ambi_rotate (planar, order, n, dyaw, pitch, work, &err))
    return engine_error (error, &err, path);
  memcpy (planar, work, bytes);
  return TRUE;
}

/* The last decoder made: designing one (the set resampled to the file's
 * rate, a MagLS fit per frequency bin) takes seconds, and a listener
 * turning the head asks for the same one each time. One entry, kept for
 * the process's life; the lock is held while it decodes (one render at a
 * time is all the Listen page runs). */
static GMutex decoder_lock;
static struct {
  char *path;                  /* as asked: NULL the bundled set */
  double rate_hz;
  int order;
  RwHrtf *hrtf;
  RwAmbiBinaural *decoder;
} decoder_cache;

/* The decoder of (hrtf_path, rate, order), made when the cache holds
 * another; called with decoder_lock held. */
static RwAmbiBinaural *
cached_decoder (const char *hrtf_path, double rate_hz, int order, GError **error)
{
  RwError err = { 0 };

  if (decoder_cache.decoder != NULL && g_strcmp0 (decoder_cache.path, hrtf_path) == 0
      && decoder_cache.rate_hz == rate_hz && decoder_cache.order == order)
    return decoder_cache.decoder;
  g_clear_pointer (&decoder_cache.decoder, rw_ambi_binaural_free);
  g_clear_pointer (&decoder_cache.hrtf, rw_hrtf_free);
  g_clear_pointer (&decoder_cache.path, g_free);
  RwHrtf *h = rw_hrtf_open (hrtf_path, rate_hz, &err);
  if (h == NULL)
    {
      engine_error (error, &err, NULL);
      return NULL;
    }
  RwAmbiBinaural *d = rw_ambi_binaural_new (h, order, &err);
  if (d == NULL)
    {
      engine_error (error, &err, rw_hrtf_path (h));
      rw_hrtf_free (h);
      return NULL;
    }
  decoder_cache.path = g_strdup (hrtf_path);
  decoder_cache.rate_hz = rate_hz;
  decoder_cache.order = order;
  decoder_cache.hrtf = h;
  decoder_cache.decoder = d;
  return d;
}

gboolean
rw_listen_binaural_ir (const char *ambix_path, const char *hrtf_path, double sim_yaw_deg, double sim_pitch_deg,
                       double yaw_deg, double pitch_deg, GCancellable *cancellable, RwAudio *out, GError **error)
{
  RwAudio a = { 0 };
  RwError err = { 0 };
  g_autofree double *planar = NULL, *work = NULL, *left = NULL, *right = NULL;
  gboolean ok = FALSE;

  memset (out, 0, sizeof *out);
  if (!rw_audio_read (ambix_path, &a, &err))
    return engine_error (error, &err, NULL);
  const int order = ambix_order (a.channels);
  const size_t n = a.frames, nc = (size_t) a.channels;
  if (order == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: %d channels; an ambisonic impulse response has (N + 1)² of them, N = 1 … 3"),
                   ambix_path, a.channels);
      goto out;
    }
  /* AmbiX files are interleaved; the rotation and the decoder planar */
  planar = g_new (double, nc * n);
  work = g_new (double, nc * n);
  for (size_t t = 0; t < n; t++)
    for (size_t c = 0; c < nc; c++)
      planar[c * n + t] = a.data[t * nc + c];
  if (!turn_head (planar, work, order, n, sim_yaw_deg, sim_pitch_deg, yaw_deg, pitch_deg, ambix_path, error)
      || g_cancellable_set_error_if_cancelled (cancellable, error))
    goto out;
  /* the decoder at the file's rate (the set resampled to it) */
  left = g_new (double, n);
  right = g_new (double, n);
  g_mutex_lock (&decoder_lock);
  RwAmbiBinaural *dec = cached_decoder (hrtf_path, a.rate_hz, order, error);
  gboolean decoded = dec != NULL && !g_cancellable_set_error_if_cancelled (cancellable, error)
                     && rw_ambi_binaural_decode (dec, planar, n, left, right, &err);
  g_mutex_unlock (&decoder_lock);
  if (!decoded)
    {
      if (error != NULL && *error == NULL)
        engine_error (error, &err, ambix_path);
      goto out;
    }
  out->data = malloc (2 * n * sizeof (float));
  if (out->data == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Out of memory"));
      goto out;
    }
  for (size_t t = 0; t < n; t++)
    {
      out->data[2 * t] = (float) left[t];
      out->data[2 * t + 1] = (float) right[t];
    }
  out->frames = n;
  out->channels = 2;
  out->rate_hz = a.rate_hz;
  ok = TRUE;

out:
  rw_audio_clear (&a);
  return ok;
}
