/* SPDX-License-Identifier: GPL-3.0-or-later */
/* audio-bad-files: every way an audio file can be wrong ends in an error
 * that names the file and says what is wrong; nothing crashes, and a
 * failed write leaves no temporary file behind. */
#include "rw-test.h"
#include "rw-audio.h"

#include <dirent.h>
#include <math.h>
#include <sndfile.h>
#include <stdlib.h>
#include <string.h>

static char dir[4096];

static const char *
path_of (const char *name)
{
  static char buf[8][4200];
  static int k = 0;
  k = (k + 1) % 8;
  snprintf (buf[k], sizeof buf[k], "%s/%s", dir, name);
  return buf[k];
}

static void
write_bytes (const char *path, const void *bytes, size_t n)
{
  FILE *f = fopen (path, "wb");
  if (n > 0)
    fwrite (bytes, 1, n, f);
  fclose (f);
}

/* Reading `name` fails with `code`, the message names the file and holds
 * `word`. */
static void
expect_read_error (const char *name, int channel, RwErrorCode code, const char *word)
{
  RwError err = { 0 };
  RwAudio a = { 0 };
  bool ok = channel == -2 ? rw_audio_read (path_of (name), &a, &err)
                          : rw_audio_read_channel (path_of (name), channel, &a, &err);
  RW_CHECK (!ok, "%s read without error", name);
  RW_CHECK (a.data == NULL && a.frames == 0, "%s: output not empty after failure", name);
  RW_CHECK (err.code == code, "%s: code %d, expected %d (%s)", name, err.code, code, err.message);
  RW_CHECK (strstr (err.message, name) != NULL, "message does not name %s: %s", name, err.message);
  RW_CHECK (strstr (err.message, word) != NULL, "%s: message lacks '%s': %s", name, word, err.message);
  RW_NOTE ("%s → %s", name, err.message);
  rw_audio_clear (&a);
}

static char warning[1024];

static void
keep_warning (const char *message, void *user_data)
{
  (void) user_data;
  snprintf (warning, sizeof warning, "%s", message);
}

static size_t
count_entries (const char *d)
{
  size_t n = 0;
  DIR *dd = opendir (d);
  struct dirent *e;
  while (dd && (e = readdir (dd)) != NULL)
    if (strcmp (e->d_name, ".") != 0 && strcmp (e->d_name, "..") != 0)
      n++;
  if (dd)
    closedir (dd);
  return n;
}

int
main (void)
{
  snprintf (dir, sizeof dir, "%s", rw_test_tmpdir ());
  RwError err = { 0 };

  /* A good stereo file to cut up. */
  RwAudio good = { 0 };
  good.frames = 1000;
  good.channels = 2;
  good.rate_hz = 48000;
  good.data = calloc (2000, sizeof (float));
  for (size_t i = 0; i < 2000; i++)
    good.data[i] = (float) sin (0.01 * (double) i);
  RW_CHECK (rw_audio_write (path_of ("stereo.wav"), &good, &err), "%s", err.message);

  expect_read_error ("missing.wav", -2, RW_ERROR_IO, "No such file");
  write_bytes (path_of ("empty.wav"), "", 0);
  expect_read_error ("empty.wav", -2, RW_ERROR_INPUT, "empty");
  const char garbage[] = "this is not audio at all, just some text pretending to be a wav file\n";
  write_bytes (path_of ("garbage.wav"), garbage, sizeof garbage);
  expect_read_error ("garbage.wav", -2, RW_ERROR_INPUT, "not an audio file");

  /* The first 20 bytes of a real WAV: RIFF header cut inside "fmt ". */
  FILE *f = fopen (path_of ("stereo.wav"), "rb");
  unsigned char head[64];
  size_t got = fread (head, 1, sizeof head, f);
  fclose (f);
  RW_CHECK (got == sizeof head, "short read");
  write_bytes (path_of ("truncated-header.wav"), head, 20);
  expect_read_error ("truncated-header.wav", -2, RW_ERROR_INPUT, "not an audio file");

  /* A valid header with no frames. */
  SF_INFO info = { .samplerate = 48000, .channels = 1, .format = SF_FORMAT_WAV | SF_FORMAT_FLOAT };
  SNDFILE *sf = sf_open (path_of ("zero-frames.wav"), SFM_WRITE, &info);
  RW_CHECK (sf != NULL, "cannot make zero-frames.wav");
  sf_close (sf);
  expect_read_error ("zero-frames.wav", -2, RW_ERROR_INPUT, "no samples");

  /* NaN inside a float WAV (written behind rw_audio_write's back). */
  sf = sf_open (path_of ("nan.wav"), SFM_WRITE, &info);
  float bad[8] = { 0, 0.1f, 0.2f, NAN, 0, 0, 0, 0 };
  sf_writef_float (sf, bad, 8);
  sf_close (sf);
  expect_read_error ("nan.wav", -2, RW_ERROR_INPUT, "non-finite");

  /* Channels. */
  expect_read_error ("stereo.wav", 2, RW_ERROR_INPUT, "channel 2 does not exist");
  expect_read_error ("stereo.wav", -1, RW_ERROR_INPUT, "2 channels");
  RwAudio one = { 0 };
  RW_CHECK (rw_audio_read_channel (path_of ("stereo.wav"), 0, &one, &err), "%s", err.message);
  RW_CHECK (one.channels == 1 && one.frames == 1000 && one.data[5] == good.data[10], "channel 0");
  rw_audio_clear (&one);

  /* A folder is not an audio file. */
  expect_read_error ("", -2, RW_ERROR_IO, "folder");

  /* Nor is a device: /dev/zero is not "empty". */
  {
    RwAudio a = { 0 };
    RW_CHECK (!rw_audio_read ("/dev/zero", &a, &err) && err.code == RW_ERROR_IO
                && strstr (err.message, "/dev/zero: not a regular file") != NULL,
              "/dev/zero: %s", err.message);
  }

  /* A WAV header with a sample rate of 0 (bytes 24–27): said as such, not
   * libsndfile's "SF_INFO struct incomplete". */
  {
    static unsigned char wav[1 << 15];
    f = fopen (path_of ("stereo.wav"), "rb");
    size_t n = fread (wav, 1, sizeof wav, f);
    fclose (f);
    memset (wav + 24, 0, 4);
    write_bytes (path_of ("rate0.wav"), wav, n);
    expect_read_error ("rate0.wav", -2, RW_ERROR_INPUT, "sample rate of 0 Hz");

    /* Cut to half its frames: read, with a warning naming the file and
     * both counts. */
    memcpy (wav + 24, head + 24, 4);
    write_bytes (path_of ("short.wav"), wav, n - 500 * 2 * sizeof (float));
    rw_set_warn_handler (keep_warning, NULL);
    RwAudio a = { 0 };
    RW_CHECK (rw_audio_read (path_of ("short.wav"), &a, &err), "short.wav: %s", err.message);
    RW_CHECK (a.frames == 500, "short.wav: %zu frames", a.frames);
    RW_CHECK (strstr (warning, "short.wav") != NULL && strstr (warning, "promises 1000 frames") != NULL
                && strstr (warning, "holds 500") != NULL,
              "short.wav: warning '%s'", warning);
    RW_NOTE ("short.wav warns: %s", warning);
    rw_audio_clear (&a);
    /* and a whole file none */
    warning[0] = '\0';
    RW_CHECK (rw_audio_read (path_of ("stereo.wav"), &a, &err) && warning[0] == '\0',
              "stereo.wav: warning '%s'", warning);
    rw_audio_clear (&a);
    rw_set_warn_handler (NULL, NULL);
  }

  /* Writes that must fail, leaving nothing behind. */
  size_t before = count_entries (dir);
  RW_CHECK (!rw_audio_write (path_of ("no-such-folder/out.wav"), &good, &err), "wrote into a missing folder");
  RW_CHECK (strstr (err.message, "no-such-folder/out.wav") != NULL, "names the file: %s", err.message);
  RwAudio odd = good;
  odd.rate_hz = 44100.5;
  RW_CHECK (!rw_audio_write (path_of ("odd-rate.wav"), &odd, &err), "fractional rate written");
  odd.rate_hz = 48000;
  odd.frames = 0;
  RW_CHECK (!rw_audio_write (path_of ("no-frames.wav"), &odd, &err), "zero frames written");
  good.data[3] = INFINITY;
  RW_CHECK (!rw_audio_write (path_of ("inf.flac"), &good, &err), "infinity written");
  RW_CHECK (strstr (err.message, "inf.flac") != NULL && strstr (err.message, "non-finite") != NULL,
            "message: %s", err.message);
  RW_CHECK (count_entries (dir) == before, "leftover files after failed writes: %zu → %zu",
            before, count_entries (dir));

  rw_audio_clear (&good);
  return rw_test_finish ();
}
