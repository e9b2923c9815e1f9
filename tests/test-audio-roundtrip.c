/* SPDX-License-Identifier: GPL-3.0-or-later */
/* audio-roundtrip: what rw_audio_write writes, rw_audio_read reads back.
 * Float WAV is bit-exact, and the same samples written twice are the same
 * bytes; 24-bit FLAC is exact to its quantisation step (2^-23), and a
 * sample beyond full scale saturates instead of wrapping. */
#include "rw-test.h"
#include "rw-audio.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A file's bytes (free them), NULL when it cannot be read. */
static char *
read_all (const char *path, size_t *n)
{
  FILE *f = fopen (path, "rb");
  if (f == NULL)
    return NULL;
  char *buf = NULL;
  size_t cap = 0;
  *n = 0;
  for (;;)
    {
      if (*n == cap)
        {
          cap = cap ? 2 * cap : 65536;
          char *nb = realloc (buf, cap);
          if (nb == NULL)
            break;
          buf = nb;
        }
      const size_t got = fread (buf + *n, 1, cap - *n, f);
      *n += got;
      if (got == 0)
        break;
    }
  fclose (f);
  return buf;
}

static size_t
count_entries (const char *dir)
{
  size_t n = 0;
  DIR *d = opendir (dir);
  struct dirent *e;
  while (d && (e = readdir (d)) != NULL)
    if (strcmp (e->d_name, ".") != 0 && strcmp (e->d_name, "..") != 0)
      n++;
  if (d)
    closedir (d);
  return n;
}

int
main (void)
{
  const char *dir = rw_test_tmpdir ();
  RwError err = { 0 };

  /* A stereo signal with awkward float values: tiny, denormal-ish, > 1. */
  RwAudio a = { 0 };
  a.frames = 4801;
  a.channels = 2;
  a.rate_hz = 48000;
  a.data = malloc (a.frames * 2 * sizeof (float));
  for (size_t i = 0; i < a.frames; i++)
    {
      a.data[2 * i] = (float) (0.9 * sin (0.013 * (double) i) * exp (-1e-3 * (double) i));
      a.data[2 * i + 1] = (float) (1e-7 * (double) i - 2e-4);
    }
  a.data[10] = 1.75f;   /* float WAV keeps values over full scale */

  char wav[4096], flac[4096];
  snprintf (wav, sizeof wav, "%s/ir.wav", dir);
  snprintf (flac, sizeof flac, "%s/ir.FLAC", dir);

  RW_CHECK (rw_audio_write (wav, &a, &err), "write wav: %s", err.message);
  RwAudio b = { 0 };
  RW_CHECK (rw_audio_read (wav, &b, &err), "read wav: %s", err.message);
  RW_CHECK (b.frames == a.frames && b.channels == 2 && b.rate_hz == 48000,
            "wav shape %zu×%d @ %g", b.frames, b.channels, b.rate_hz);
  if (b.frames == a.frames && b.channels == 2)
    RW_CHECK (memcmp (a.data, b.data, a.frames * 2 * sizeof (float)) == 0,
              "float WAV not bit-exact");
  rw_audio_clear (&b);

  /* The same samples written again a second later: the same bytes (no
   * time of writing in the file: libsndfile's PEAK chunk held one). */
  char wav2[4096];
  snprintf (wav2, sizeof wav2, "%s/ir-again.wav", dir);
  struct timespec pause = { 1, 100000000 };
  nanosleep (&pause, NULL);
  RW_CHECK (rw_audio_write (wav2, &a, &err), "write wav again: %s", err.message);
  size_t n1 = 0, n2 = 0;
  char *b1 = read_all (wav, &n1), *b2 = read_all (wav2, &n2);
  RW_CHECK (b1 != NULL && b2 != NULL && n1 == n2 && memcmp (b1, b2, n1) == 0,
            "the same samples written twice differ (%zu and %zu bytes)", n1, n2);
  free (b1);
  free (b2);
  remove (wav2);

  /* One channel out of two. */
  RW_CHECK (rw_audio_read_channel (wav, 1, &b, &err), "read channel 1: %s", err.message);
  RW_CHECK (b.channels == 1 && b.frames == a.frames, "channel 1 shape");
  if (b.frames == a.frames)
    {
      bool same = true;
      for (size_t i = 0; i < a.frames; i++)
        same = same && b.data[i] == a.data[2 * i + 1];
      RW_CHECK (same, "channel 1 values differ");
    }
  rw_audio_clear (&b);

  /* FLAC 24-bit: quantisation error ≤ half a step (plus float rounding). */
  a.rate_hz = 44100;
  RW_CHECK (rw_audio_write (flac, &a, &err), "write flac: %s", err.message);
  RW_CHECK (rw_audio_read (flac, &b, &err), "read flac: %s", err.message);
  RW_CHECK (b.frames == a.frames && b.channels == 2 && b.rate_hz == 44100,
            "flac shape %zu×%d @ %g", b.frames, b.channels, b.rate_hz);
  if (b.frames == a.frames && b.channels == 2)
    {
      double worst = 0;
      for (size_t i = 0; i < a.frames * 2; i++)
        {
          if (i == 10)
            continue;
          worst = fmax (worst, fabs ((double) a.data[i] - (double) b.data[i]));
        }
      RW_NOTE ("flac 24-bit worst error %.3g (step %.3g)", worst, ldexp (1, -23));
      RW_CHECK (worst <= 0.6 * ldexp (1, -23), "flac error %.3g", worst);
      RW_CHECK (b.data[10] > 0.999f && b.data[10] <= 1.0f,
                "over-full-scale sample saturates, got %g", b.data[10]);
    }
  rw_audio_clear (&b);

  /* Overwriting an existing file replaces it atomically. */
  a.rate_hz = 22050;
  RW_CHECK (rw_audio_write (wav, &a, &err), "overwrite wav: %s", err.message);
  RW_CHECK (rw_audio_read (wav, &b, &err) && b.rate_hz == 22050, "overwritten rate %g", b.rate_hz);
  rw_audio_clear (&b);

  /* NaN is refused and the old file stays as it was. */
  a.data[7] = NAN;
  RW_CHECK (!rw_audio_write (wav, &a, &err), "NaN written");
  RW_CHECK (strstr (err.message, "ir.wav") != NULL, "message names the file: %s", err.message);
  RW_CHECK (rw_audio_read (wav, &b, &err) && b.rate_hz == 22050, "old file damaged");
  rw_audio_clear (&b);
  RW_CHECK (count_entries (dir) == 2, "leftover files: %zu entries", count_entries (dir));

  rw_audio_clear (&a);
  rw_audio_clear (&a);   /* twice is harmless */
  return rw_test_finish ();
}
