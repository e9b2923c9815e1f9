/* SPDX-License-Identifier: GPL-3.0-or-later */
/* auralise-peak: the output peak is at −1 dBFS ± 0.01 dB and never above,
 * for WAV (32-bit float) and FLAC (24-bit) outputs, mono and stereo (a
 * 2-channel IR, and a pair of mono IRs), an IR at 44.1 kHz with a dry
 * signal at 48 kHz (output at 48 kHz, the tail's length follows the
 * resampled IR) and a 3-channel dry file mixed down to mono. The content
 * is checked too: with a single-sample IR the output is the (mixed-down)
 * dry signal times the gain. Bad inputs fail naming the file and leave no
 * output behind. */
#include "rw-test.h"
#include "rw-auralise.h"

#include <sndfile.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[4096];

static const char *
path (const char *name)
{
  static char buf[8][4300];
  static int k = 0;
  k = (k + 1) % 8;
  snprintf (buf[k], sizeof buf[k], "%s/%s", dir, name);
  return buf[k];
}

static void
write_wav (const char *p, const float *x, size_t frames, int channels, int rate, int format)
{
  SF_INFO info = { .samplerate = rate, .channels = channels, .format = format };
  SNDFILE *sf = sf_open (p, SFM_WRITE, &info);
  if (sf == NULL)
    {
      fprintf (stderr, "cannot write %s\n", p);
      exit (1);
    }
  sf_writef_float (sf, x, (sf_count_t) frames);
  sf_close (sf);
}

/* Reads a whole file; returns frames, sets channels and rate. */
static float *
read_all (const char *p, size_t *frames, int *channels, int *rate)
{
  SF_INFO info = { 0 };
  SNDFILE *sf = sf_open (p, SFM_READ, &info);
  if (sf == NULL)
    return NULL;
  float *x = malloc ((size_t) info.frames * info.channels * sizeof (float));
  sf_readf_float (sf, x, info.frames);
  sf_close (sf);
  *frames = (size_t) info.frames;
  *channels = info.channels;
  *rate = info.samplerate;
  return x;
}

static void
check_peak (const char *out, int want_channels, int want_rate, size_t want_frames)
{
  size_t frames = 0;
  int channels = 0, rate = 0;
  float *y = read_all (out, &frames, &channels, &rate);
  RW_CHECK (y != NULL, "%s not written", out);
  if (y == NULL)
    return;
  float peak = 0.0f;
  for (size_t i = 0; i < frames * channels; i++)
    peak = fmaxf (peak, fabsf (y[i]));
  double db = 20 * log10 (peak);
  RW_NOTE ("%s: %zu frames, %d ch, %d Hz, peak %.5f dBFS", out, frames, channels, rate, db);
  RW_CHECK (db <= -1.0, "%s: peak %.6f dBFS is above −1 dBFS", out, db);
  RW_CHECK (db >= -1.01, "%s: peak %.6f dBFS is below −1.01 dBFS", out, db);
  RW_CHECK (channels == want_channels, "%s: %d channels, expected %d", out, channels, want_channels);
  RW_CHECK (rate == want_rate, "%s: %d Hz, expected %d", out, rate, want_rate);
  if (want_frames)
    RW_CHECK (frames == want_frames, "%s: %zu frames, expected %zu", out, frames, want_frames);
  free (y);
}

typedef struct {
  int calls;
  bool monotonic;
  double last;
} ProgressLog;

static void
on_progress (double fraction, void *user_data)
{
  ProgressLog *log = user_data;
  if (log->calls == 0)
    log->monotonic = true;
  if (fraction < log->last || fraction > 1.0)
    log->monotonic = false;
  log->last = fraction;
  log->calls++;
}

static bool
exists (const char *p)
{
  return access (p, F_OK) == 0;
}

/* No file other than the expected ones is left in dir (no temporaries). */
static int
count_files (void)
{
  char cmd[4400];
  snprintf (cmd, sizeof cmd, "ls -A '%s' | wc -l", dir);
  FILE *f = popen (cmd, "r");
  int n = -1;
  if (f)
    {
      if (fscanf (f, "%d", &n) != 1)
        n = -1;
      pclose (f);
    }
  return n;
}

int
main (void)
{
  snprintf (dir, sizeof dir, "%s", rw_test_tmpdir ());
  const int rate = 48000;
  const size_t n_dry = 30000, n_ir = 9000;

  /* dry: 3 channels at 48 kHz, deliberately loud (peaks near 2.5 in
   * float): the gain must bring the result down, not clip. */
  float *dry3 = malloc (n_dry * 3 * sizeof (float)), *dry1 = malloc (n_dry * sizeof (float));
  for (size_t i = 0; i < n_dry; i++)
    {
      float a = (float) sin (2 * M_PI * 440.0 * i / rate), b = (float) sin (2 * M_PI * 97.0 * i / rate);
      dry3[3 * i] = 2.0f * a;
      dry3[3 * i + 1] = b;
      dry3[3 * i + 2] = (i % 1000 == 0) ? 2.5f : 0.0f;
      dry1[i] = (dry3[3 * i] + dry3[3 * i + 1] + dry3[3 * i + 2]) / 3.0f;
    }
  write_wav (path ("dry3.wav"), dry3, n_dry, 3, rate, SF_FORMAT_WAV | SF_FORMAT_FLOAT);
  write_wav (path ("dry1.wav"), dry1, n_dry, 1, rate, SF_FORMAT_WAV | SF_FORMAT_FLOAT);

  float *ir = malloc (n_ir * 2 * sizeof (float)), *irl = malloc (n_ir * sizeof (float)), *irr = malloc (n_ir * sizeof (float));
  for (size_t i = 0; i < n_ir; i++)
    {
      float e = expf (-(float) i / 2000.0f);
      irl[i] = e * (float) sin (0.37 * i);
      irr[i] = 0.5f * e * (float) cos (0.11 * i);
      ir[2 * i] = irl[i];
      ir[2 * i + 1] = irr[i];
    }
  write_wav (path ("ir-mono.wav"), irl, n_ir, 1, rate, SF_FORMAT_WAV | SF_FORMAT_FLOAT);
  write_wav (path ("ir-right.wav"), irr, n_ir, 1, rate, SF_FORMAT_WAV | SF_FORMAT_FLOAT);
  write_wav (path ("ir-stereo.wav"), ir, n_ir, 2, rate, SF_FORMAT_WAV | SF_FORMAT_FLOAT);
  write_wav (path ("ir-44k.flac"), irl, n_ir, 1, 44100, SF_FORMAT_FLAC | SF_FORMAT_PCM_24);
  float one = 1.0f;
  write_wav (path ("ir-delta.wav"), &one, 1, 1, rate, SF_FORMAT_WAV | SF_FORMAT_FLOAT);

  RwAuraliseOptions opt;
  rw_auralise_options_init (&opt);
  opt.block_frames = 1024;
  RwAuraliseStats st;
  RwError err = { 0 };
  bool ok;

  ok = rw_auralise_file (path ("ir-mono.wav"), NULL, path ("dry1.wav"), path ("wet-mono.wav"), &opt, &st, &err);
  RW_CHECK (ok, "mono: %s", err.message);
  check_peak (path ("wet-mono.wav"), 1, rate, n_dry + n_ir - 1);

  ok = rw_auralise_file (path ("ir-mono.wav"), NULL, path ("dry1.wav"), path ("wet-mono.flac"), &opt, &st, &err);
  RW_CHECK (ok, "mono flac: %s", err.message);
  check_peak (path ("wet-mono.flac"), 1, rate, n_dry + n_ir - 1);

  ok = rw_auralise_file (path ("ir-stereo.wav"), NULL, path ("dry3.wav"), path ("wet-stereo.wav"), &opt, &st, &err);
  RW_CHECK (ok, "stereo IR: %s", err.message);
  RW_CHECK (st.dry_channels == 3 && st.channels == 2, "stats: dry %d ch, out %d ch", st.dry_channels, st.channels);
  check_peak (path ("wet-stereo.wav"), 2, rate, n_dry + n_ir - 1);

  ok = rw_auralise_file (path ("ir-mono.wav"), path ("ir-right.wav"), path ("dry3.wav"), path ("wet-pair.flac"), &opt, &st, &err);
  RW_CHECK (ok, "IR pair: %s", err.message);
  check_peak (path ("wet-pair.flac"), 2, rate, n_dry + n_ir - 1);

  /* The pair of mono IRs and the stereo IR give the same result. */
  {
    size_t fa, fb;
    int ca, cb, ra, rb;
    float *a = read_all (path ("wet-stereo.wav"), &fa, &ca, &ra);
    float *b = read_all (path ("wet-pair.flac"), &fb, &cb, &rb);
    double maxd = 0;
    if (a && b && fa == fb && ca == cb)
      for (size_t i = 0; i < fa * ca; i++)
        maxd = fmax (maxd, fabs (a[i] - b[i]));
    RW_CHECK (a && b && fa == fb && maxd < 1e-5, "stereo IR vs IR pair differ by %g", maxd);
    free (a);
    free (b);
  }

  /* IR at 44.1 kHz, dry at 48 kHz: the IR is resampled, the output is at
   * 48 kHz, and its tail is the resampled IR's length. */
  ok = rw_auralise_file (path ("ir-44k.flac"), NULL, path ("dry1.wav"), path ("wet-resampled.wav"), &opt, &st, &err);
  RW_CHECK (ok, "resampled: %s", err.message);
  RW_CHECK (st.ir_resampled, "IR not marked resampled");
  size_t want_ir = (size_t) lround (n_ir * 48000.0 / 44100.0);
  RW_CHECK (labs ((long) st.ir_frames - (long) want_ir) <= 2, "resampled IR has %zu frames, expected ≈ %zu", st.ir_frames, want_ir);
  check_peak (path ("wet-resampled.wav"), 1, rate, n_dry + st.ir_frames - 1);

  /* Content: a unit impulse IR → the mixed-down dry signal times the gain. */
  ok = rw_auralise_file (path ("ir-delta.wav"), NULL, path ("dry3.wav"), path ("wet-delta.wav"), &opt, &st, &err);
  RW_CHECK (ok, "delta: %s", err.message);
  {
    size_t f;
    int c, r;
    float *y = read_all (path ("wet-delta.wav"), &f, &c, &r);
    double g = pow (10.0, st.gain_db / 20.0), maxd = 0;
    if (y && f == n_dry)
      for (size_t i = 0; i < f; i++)
        maxd = fmax (maxd, fabs (y[i] - g * dry1[i]));
    RW_CHECK (y && f == n_dry && maxd < 1e-5, "delta IR: output differs from the mixed-down dry by %g", maxd);
    free (y);
  }

  /* Progress rises monotonically to 1; a cancel stops the work with
   * RW_ERROR_CANCELLED and leaves no output. */
  {
    ProgressLog log = { 0 };
    RwAuraliseOptions po = opt;
    po.block_frames = 256;
    po.progress = on_progress;
    po.user_data = &log;
    ok = rw_auralise_file (path ("ir-mono.wav"), NULL, path ("dry1.wav"), path ("wet-progress.wav"), &po, NULL, &err);
    RW_CHECK (ok && log.calls > 10 && log.monotonic && fabs (log.last - 1.0) < 1e-9,
              "progress: %d calls, monotonic %d, last %g", log.calls, log.monotonic, log.last);
    atomic_int cancel = 1;
    po.progress = NULL;
    po.cancel = &cancel;
    ok = rw_auralise_file (path ("ir-mono.wav"), NULL, path ("dry1.wav"), path ("wet-cancelled.wav"), &po, NULL, &err);
    RW_CHECK (!ok && err.code == RW_ERROR_CANCELLED && !exists (path ("wet-cancelled.wav")),
              "cancel: ok %d, code %d (%s)", ok, err.code, err.message);
  }

  /* Bad input: error naming the file, no output, no temporaries. */
  int n_files = count_files ();
  FILE *f = fopen (path ("empty.wav"), "w");
  fclose (f);
  f = fopen (path ("garbage.wav"), "w");
  fputs ("RIFF this is not a wave file at all, just text pretending", f);
  fclose (f);
  n_files += 2;
  const struct { const char *ir, *ir_right, *dry, *bad; RwErrorCode code; } bad[] = {
    { "ir-mono.wav", NULL, "empty.wav", "empty.wav", RW_ERROR_INPUT },
    { "ir-mono.wav", NULL, "garbage.wav", "garbage.wav", RW_ERROR_INPUT },
    { "ir-mono.wav", NULL, "missing.wav", "missing.wav", RW_ERROR_IO },
    { "empty.wav", NULL, "dry1.wav", "empty.wav", RW_ERROR_INPUT },
    { "garbage.wav", NULL, "dry1.wav", "garbage.wav", RW_ERROR_INPUT },
    { "missing.wav", NULL, "dry1.wav", "missing.wav", RW_ERROR_IO },
    { "ir-stereo.wav", "ir-right.wav", "dry1.wav", "ir-stereo.wav", RW_ERROR_INPUT },
    { "ir-mono.wav", NULL, "dry3.wav", "dry3.wav", RW_ERROR_INPUT },  /* silenced below */
  };
  /* a silent dry file */
  memset (dry1, 0, n_dry * sizeof (float));
  write_wav (path ("dry3.wav"), dry1, n_dry, 1, rate, SF_FORMAT_WAV | SF_FORMAT_PCM_16);
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
      const char *out = path ("bad-out.wav");
      rw_error_clear (&err);
      ok = rw_auralise_file (path (bad[i].ir), bad[i].ir_right ? path (bad[i].ir_right) : NULL,
                             path (bad[i].dry), out, &opt, NULL, &err);
      RW_CHECK (!ok, "case %zu accepted", i);
      RW_CHECK (strstr (err.message, bad[i].bad) != NULL, "case %zu: message does not name %s: %s", i, bad[i].bad, err.message);
      RW_CHECK (err.code == bad[i].code, "case %zu: code %d, expected %d (%s)", i, err.code, bad[i].code, err.message);
      RW_CHECK (!exists (out), "case %zu: output left behind", i);
      RW_CHECK (count_files () == n_files, "case %zu: %d files in the folder, expected %d", i, count_files (), n_files);
      RW_NOTE ("bad input %zu: %s", i, err.message);
    }
  /* An unknown output extension, and an unwritable folder. */
  ok = rw_auralise_file (path ("ir-mono.wav"), NULL, path ("dry1.wav"), path ("wet.mp3"), &opt, NULL, &err);
  RW_CHECK (!ok && strstr (err.message, "wet.mp3"), "mp3 output accepted: %s", err.message);
  ok = rw_auralise_file (path ("ir-mono.wav"), NULL, path ("dry1.wav"), "/nonexistent-dir/wet.wav", &opt, NULL, &err);
  RW_CHECK (!ok && strstr (err.message, "/nonexistent-dir/wet.wav"), "unwritable output accepted: %s", err.message);

  free (dry1);
  free (dry3);
  free (ir);
  free (irl);
  free (irr);
  return rw_test_finish ();
}
