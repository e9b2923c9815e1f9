/* SPDX-License-Identifier: GPL-3.0-or-later */
/* auralise-long-bounded-memory: ten minutes of 48 kHz mono audio (a
 * 16-bit WAV generated into a temporary file, 55 MiB; 110 MiB as float)
 * convolved with a 2 s IR. The dry signal and the output are streamed, so
 * the peak resident set (VmHWM) grows by far less than the file: the bound
 * checked is 64 MiB, and the growth is printed. The output has exactly
 * dry + IR − 1 frames and a peak at −1 dBFS.
 *
 * The full ten minutes run in the sanitizer build too (about 10 s under
 * ASan+UBSan on 2 cores, growth about 10 MiB there: ASan's shadow memory). */
#include "rw-test.h"
#include "rw-auralise.h"

#include <sndfile.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define DRY_SECONDS 600
#define RATE 48000

static long
vm_hwm_kib (void)
{
  FILE *f = fopen ("/proc/self/status", "r");
  if (f == NULL)
    return -1;
  char line[256];
  long kib = -1;
  while (fgets (line, sizeof line, f))
    if (strncmp (line, "VmHWM:", 6) == 0)
      kib = strtol (line + 6, NULL, 10);
  fclose (f);
  return kib;
}

/* A signal that is not silent anywhere: a slow chirp plus noise. */
static uint32_t rng = 12345;

static float
noise (void)
{
  rng = rng * 1664525u + 1013904223u;
  return (float) ((double) (rng >> 8) / (double) (1u << 24) * 2.0 - 1.0);
}

int
main (void)
{
  const char *dir = rw_test_tmpdir ();
  char dry[4200], ir[4200], out[4200];
  snprintf (dry, sizeof dry, "%s/dry-%dmin.wav", dir, DRY_SECONDS / 60);
  snprintf (ir, sizeof ir, "%s/ir-2s.wav", dir);
  snprintf (out, sizeof out, "%s/wet.wav", dir);

  const size_t n_dry = (size_t) DRY_SECONDS * RATE, n_ir = 2 * RATE;

  SF_INFO info = { .samplerate = RATE, .channels = 1, .format = SF_FORMAT_WAV | SF_FORMAT_PCM_16 };
  SNDFILE *sf = sf_open (dry, SFM_WRITE, &info);
  RW_CHECK (sf != NULL, "cannot write %s", dry);
  if (sf == NULL)
    return rw_test_finish ();
  float buf[4096];
  double phase = 0.0;
  for (size_t done = 0; done < n_dry; done += 4096)
    {
      size_t n = n_dry - done < 4096 ? n_dry - done : 4096;
      for (size_t i = 0; i < n; i++)
        {
          double t = (double) (done + i) / RATE;
          phase += 2 * M_PI * (100.0 + 10.0 * fmod (t, 60.0)) / RATE;
          buf[i] = (float) (0.3 * sin (phase) + 0.1 * noise ());
        }
      sf_writef_float (sf, buf, (sf_count_t) n);
    }
  sf_close (sf);

  float *h = malloc (n_ir * sizeof (float));
  for (size_t i = 0; i < n_ir; i++)
    h[i] = noise () * expf (-6.9f * (float) i / (float) RATE);   /* T60 ≈ 1 s */
  info = (SF_INFO) { .samplerate = RATE, .channels = 1, .format = SF_FORMAT_WAV | SF_FORMAT_FLOAT };
  sf = sf_open (ir, SFM_WRITE, &info);
  sf_writef_float (sf, h, (sf_count_t) n_ir);
  sf_close (sf);
  free (h);

  long before = vm_hwm_kib ();
  RwAuraliseOptions opt;
  rw_auralise_options_init (&opt);
  RwAuraliseStats st;
  RwError err = { 0 };
  bool ok = rw_auralise_file (ir, NULL, dry, out, &opt, &st, &err);
  long after = vm_hwm_kib ();
  RW_CHECK (ok, "auralise failed: %s", err.message);
  double growth_mib = (after - before) / 1024.0;
  double dry_mib = n_dry * 4.0 / (1024.0 * 1024.0);
  RW_NOTE ("dry %d s (%.0f MiB as float): peak RSS %ld → %ld KiB, growth %.1f MiB (bound 64 MiB)",
           DRY_SECONDS, dry_mib, before, after, growth_mib);
  RW_CHECK (before > 0 && after > 0, "VmHWM not readable");
  RW_CHECK (growth_mib < 64.0, "peak RSS grew by %.1f MiB", growth_mib);
  if (!ok)
    return rw_test_finish ();

  RW_CHECK (st.out_frames == n_dry + n_ir - 1, "stats: %zu output frames", st.out_frames);
  memset (&info, 0, sizeof info);
  sf = sf_open (out, SFM_READ, &info);
  RW_CHECK (sf != NULL, "cannot read %s", out);
  if (sf)
    {
      RW_CHECK (info.frames == (sf_count_t) (n_dry + n_ir - 1),
                "output has %lld frames, expected %zu", (long long) info.frames, n_dry + n_ir - 1);
      RW_CHECK (info.channels == 1 && info.samplerate == RATE, "output %d ch %d Hz", info.channels, info.samplerate);
      RW_CHECK ((info.format & SF_FORMAT_SUBMASK) == SF_FORMAT_FLOAT, "output is not 32-bit float");
      float peak = 0.0f, last = 0.0f;
      sf_count_t r;
      while ((r = sf_readf_float (sf, buf, 4096)) > 0)
        for (sf_count_t i = 0; i < r; i++)
          {
            peak = fmaxf (peak, fabsf (buf[i]));
            last = buf[i];
          }
      sf_close (sf);
      double peak_db = 20 * log10 (peak);
      RW_NOTE ("output peak %.4f dBFS, last sample %g", peak_db, last);
      RW_CHECK (peak_db <= -1.0 && peak_db > -1.01, "peak %.4f dBFS", peak_db);
      /* The tail is present: the last sample is the IR's last sample
       * (≈ e^{-13.8}) times the last dry sample — small but not zero. */
      RW_CHECK (last != 0.0f, "the output's last sample is 0: the tail was cut");
    }
  return rw_test_finish ();
}
