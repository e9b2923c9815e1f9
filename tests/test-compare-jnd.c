/* SPDX-License-Identifier: GPL-3.0-or-later */
/* compare-jnd: the just-noticeable-difference flags of a comparison land
 * exactly where ISO 3382-1 Annex A puts them.
 *
 * The IRs are synthetic (make_ir below): the decay time is T in every band,
 * so the differences are those built in:
 *   T 4 % longer  → EDT/T20/T30 within the 5 % JND: no flag;
 *   T 7 % longer  → over it: flagged in every band;
 *   first 80 ms ×10^(0.5/20) → C80 +0.5 dB: no C80 flag;
 *   first 80 ms ×10^(1.5/20) → C80 +1.5 dB: flagged.
 * Every flag of every comparison is also checked against its own numbers
 * (flag ⇔ |difference| > JND). The file path is checked with a 44.1 kHz
 * measurement against a 48 kHz simulation, a 2-channel measurement with a
 * channel chosen, results.json's fmax and the errors on bad channels. */
#include "rw-test.h"
#include "rw-audio.h"
#include "rw-compare.h"

#include <sndfile.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define RATE 48000
#define N (2 * RATE)
#define LEAD 480          /* 10 ms of silence before the direct sound */

/* One exponentially decaying cosine at each octave band's centre: each
 * band filter passes its own cosine (the neighbours, an octave away, are
 * attenuated by tens of dB and decay alike), so the energy decay in every
 * band, and broadband, is e^{−t·6 ln10 / T} with only a ripple at twice the
 * centre frequency, and T20 = T30 = EDT = T to a fraction of a percent.
 * (A noise IR would not do: its band-wise estimation scatter is a few per
 * cent, as large as the differences under test.) The part before early_s
 * is scaled by early_gain. */
static void
make_ir (float *h, double T, double early_gain, double early_s)
{
  memset (h, 0, N * sizeof (float));
  for (size_t i = LEAD; i < N; i++)
    {
      double t = (double) (i - LEAD) / RATE, v = 0;
      for (int b = 0; b < RW_N_OCTAVES; b++)
        v += cos (2 * M_PI * rw_octave_exact_centre_hz (b) * t);
      v *= 0.1 * exp (-t * 3.0 * log (10.0) / T);
      if (t < early_s)
        v *= early_gain;
      h[i] = (float) v;
    }
}

/* flag ⇔ available and |difference| (relative for EDT/T) > JND */
static void
check_consistent (const RwComparison *c, const char *what)
{
  for (int b = 0; b < RW_ANALYSIS_N_BANDS; b++)
    for (int p = 0; p < RW_PLOT_N_PARAMS; p++)
      {
        const RwParamDiff *d = &c->bands[b].p[p];
        bool rel;
        double jnd = rw_compare_jnd (p, &rel);
        double x = rel ? fabs (d->relative) : fabs (d->difference);
        bool want = d->available && x > jnd;
        RW_CHECK (d->exceeds_jnd == want, "%s band %d %s: flag %d but difference %g vs JND %g",
                  what, b, rw_plot_param_name (p), d->exceeds_jnd, x, jnd);
        if (d->available)
          RW_CHECK (fabs (d->difference - (d->sim - d->measured)) < 1e-12, "%s: difference", what);
      }
}

/* Every band in [first, last] has parameter p available and flagged as
 * `flag`; prints the differences. */
static void
check_flags (const RwComparison *c, RwPlotParam p, int first, int last, bool flag, const char *what)
{
  for (int b = first; b <= last; b++)
    {
      const RwParamDiff *d = &c->bands[b].p[p];
      RW_NOTE ("%s: band %d %s sim %.4f meas %.4f diff %+.4f (rel %+.2f %%) flag %d", what, b,
               rw_plot_param_name (p), d->sim, d->measured, d->difference, d->relative * 100, d->exceeds_jnd);
      RW_CHECK (d->available, "%s: band %d %s not available", what, b, rw_plot_param_name (p));
      RW_CHECK (d->exceeds_jnd == flag, "%s: band %d %s flag %d, expected %d (diff %g, rel %g)", what, b,
                rw_plot_param_name (p), d->exceeds_jnd, flag, d->difference, d->relative);
    }
}

static void
write_file (const char *path, const float *x, size_t frames, int channels, int rate)
{
  SF_INFO info = { .samplerate = rate, .channels = channels, .format = SF_FORMAT_WAV | SF_FORMAT_FLOAT };
  SNDFILE *sf = sf_open (path, SFM_WRITE, &info);
  if (sf == NULL)
    {
      fprintf (stderr, "cannot write %s\n", path);
      exit (1);
    }
  sf_writef_float (sf, x, (sf_count_t) frames);
  sf_close (sf);
}

int
main (void)
{
  float *meas = malloc (N * sizeof (float)), *sim = malloc (N * sizeof (float));
  RwError err = { 0 };
  RwComparison c;

  /* Reverberation time 4 % and 7 % longer than measured. */
  make_ir (meas, 1.0, 1.0, 0.0);
  const double ratios[2] = { 1.04, 1.07 };
  for (int k = 0; k < 2; k++)
    {
      char what[64];
      snprintf (what, sizeof what, "T x%.2f", ratios[k]);
      make_ir (sim, ratios[k], 1.0, 0.0);
      memset (&c, 0, sizeof c);
      bool ok = rw_compare_signals (sim, N, RATE, meas, N, RATE, INFINITY, 0, &c, &err);
      RW_CHECK (ok, "%s: %s", what, err.message);
      if (!ok)
        continue;
      check_consistent (&c, what);
      check_flags (&c, RW_PLOT_PARAM_T30, 0, RW_ANALYSIS_BROADBAND, k == 1, what);
      check_flags (&c, RW_PLOT_PARAM_T20, 0, RW_ANALYSIS_BROADBAND, k == 1, what);
      check_flags (&c, RW_PLOT_PARAM_EDT, 0, RW_ANALYSIS_BROADBAND, k == 1, what);
      /* a longer decay barely moves the energy ratios: no flag there */
      check_flags (&c, RW_PLOT_PARAM_C80, 0, RW_ANALYSIS_BROADBAND, false, what);
      check_flags (&c, RW_PLOT_PARAM_TS, 0, RW_ANALYSIS_BROADBAND, false, what);
      for (int b = 0; b < RW_ANALYSIS_N_BANDS; b++)
        RW_CHECK (!c.bands[b].above_fmax, "%s: band %d above an infinite fmax", what, b);
      rw_comparison_clear (&c);
    }

  /* Early energy 0.5 dB and 1.5 dB up: C80 within / over its 1 dB JND. */
  const double offsets_db[2] = { 0.5, 1.5 };
  for (int k = 0; k < 2; k++)
    {
      char what[64];
      snprintf (what, sizeof what, "C80 %+.1f dB", offsets_db[k]);
      make_ir (sim, 1.0, pow (10.0, offsets_db[k] / 20.0), 0.080);
      memset (&c, 0, sizeof c);
      bool ok = rw_compare_signals (sim, N, RATE, meas, N, RATE, INFINITY, 0, &c, &err);
      RW_CHECK (ok, "%s: %s", what, err.message);
      if (!ok)
        continue;
      check_consistent (&c, what);
      check_flags (&c, RW_PLOT_PARAM_C80, 2, RW_ANALYSIS_BROADBAND, k == 1, what);
      for (int b = 2; b < RW_ANALYSIS_N_BANDS; b++)
        RW_CHECK_CLOSE (c.bands[b].p[RW_PLOT_PARAM_C80].difference, offsets_db[k], 0.25, "C80 difference");
      rw_comparison_clear (&c);
    }

  /* Files: a simulation at 48 kHz with T 7 % longer, a measurement at
   * 44.1 kHz (the 48 kHz one resampled), in channel 1 of a stereo file
   * whose channel 0 holds something else (T = 2 s). */
  const char *dir = rw_test_tmpdir ();
  char sim_path[4200], meas_path[4200], mono_path[4200], json_path[4200];
  snprintf (sim_path, sizeof sim_path, "%s/sim.wav", dir);
  snprintf (meas_path, sizeof meas_path, "%s/measured-stereo-44k.wav", dir);
  snprintf (mono_path, sizeof mono_path, "%s/measured-mono-44k.wav", dir);
  snprintf (json_path, sizeof json_path, "%s/results.json", dir);
  make_ir (sim, 1.07, 1.0, 0.0);
  write_file (sim_path, sim, N, 1, RATE);
  RwAudio m = { 0 }, other = { 0 };
  m.data = malloc (N * sizeof (float));
  other.data = malloc (N * sizeof (float));
  memcpy (m.data, meas, N * sizeof (float));
  make_ir (other.data, 2.0, 1.0, 0.0);
  m.frames = other.frames = N;
  m.channels = other.channels = 1;
  m.rate_hz = other.rate_hz = RATE;
  RW_CHECK (rw_audio_resample (&m, 44100, &err) && rw_audio_resample (&other, 44100, &err), "resample: %s", err.message);
  float *st = malloc (m.frames * 2 * sizeof (float));
  for (size_t i = 0; i < m.frames; i++)
    {
      st[2 * i] = i < other.frames ? other.data[i] : 0.0f;
      st[2 * i + 1] = m.data[i];
    }
  write_file (meas_path, st, m.frames, 2, 44100);
  write_file (mono_path, m.data, m.frames, 1, 44100);

  RwCompareOptions opt;
  rw_compare_options_init (&opt);
  opt.meas_channel = 1;
  bool ok = rw_compare_files (sim_path, meas_path, &opt, &c, &err);
  RW_CHECK (ok, "files: %s", err.message);
  RwComparison cm;
  RwCompareOptions mono_opt;
  rw_compare_options_init (&mono_opt);
  bool ok2 = rw_compare_files (sim_path, mono_path, &mono_opt, &cm, &err);
  RW_CHECK (ok2, "mono file: %s", err.message);
  if (ok && ok2)
    {
      RW_CHECK (c.rate_hz == RATE && c.meas_file_rate_hz == 44100 && c.sim_file_rate_hz == RATE,
                "rates: common %g, measured %g, simulated %g", c.rate_hz, c.meas_file_rate_hz, c.sim_file_rate_hz);
      RW_CHECK (c.meas_channel == 1 && c.meas_channels == 2, "measured channel %d of %d", c.meas_channel, c.meas_channels);
      RW_CHECK (strcmp (c.fmax_source, "none") == 0 && isinf (c.fmax_hz), "fmax %g from %s", c.fmax_hz, c.fmax_source);
      check_consistent (&c, "44.1 kHz stereo ch 1");
      check_flags (&c, RW_PLOT_PARAM_T30, 0, RW_ANALYSIS_BROADBAND, true, "44.1 kHz stereo ch 1");
      check_flags (&c, RW_PLOT_PARAM_C80, 0, RW_ANALYSIS_BROADBAND, false, "44.1 kHz stereo ch 1");
      /* channel 1 of the stereo file is the mono file */
      double maxd = 0;
      for (int b = 0; b < RW_ANALYSIS_N_BANDS; b++)
        for (int p = 0; p < RW_PLOT_N_PARAMS; p++)
          if (c.bands[b].p[p].available)
            maxd = fmax (maxd, fabs (c.bands[b].p[p].measured - cm.bands[b].p[p].measured));
      RW_CHECK (maxd < 1e-6, "--channel 1 of the stereo file differs from the mono file by %g", maxd);
    }
  rw_comparison_clear (&c);
  rw_comparison_clear (&cm);

  /* fmax from results.json beside the simulation; bands whose upper edge
   * (centre·√2) is above 1000 Hz are marked. */
  FILE *f = fopen (json_path, "w");
  fputs ("{ \"settings\": { \"fmax_hz\": 1000, \"ppw\": 7.75 }, \"backend\": \"cpu\" }\n", f);
  fclose (f);
  ok = rw_compare_files (sim_path, mono_path, &mono_opt, &c, &err);
  RW_CHECK (ok, "results.json: %s", err.message);
  if (ok)
    {
      RW_CHECK (c.fmax_hz == 1000 && strcmp (c.fmax_source, "results.json") == 0, "fmax %g from %s", c.fmax_hz, c.fmax_source);
      for (int b = 0; b < RW_N_OCTAVES; b++)
        RW_CHECK (c.bands[b].above_fmax == (b >= 4), "band %d above_fmax %d", b, c.bands[b].above_fmax);
    }
  rw_comparison_clear (&c);
  opt.fmax_hz = 2000;
  ok = rw_compare_files (sim_path, meas_path, &opt, &c, &err);
  RW_CHECK (ok && c.fmax_hz == 2000 && strcmp (c.fmax_source, "option") == 0 && !c.bands[4].above_fmax
            && c.bands[5].above_fmax, "the option's fmax does not win over results.json");
  rw_comparison_clear (&c);
  f = fopen (json_path, "w");
  fputs ("{ \"fmax_hz\": ", f);
  fclose (f);
  ok = rw_compare_files (sim_path, mono_path, &mono_opt, &c, &err);
  RW_CHECK (!ok && strstr (err.message, "results.json"), "a broken results.json was accepted: %s", err.message);
  RW_NOTE ("broken results.json: %s", err.message);
  remove (json_path);

  /* Channels: none chosen on a stereo file, and one that does not exist. */
  rw_compare_options_init (&opt);
  ok = rw_compare_files (sim_path, meas_path, &opt, &c, &err);
  RW_CHECK (!ok && strstr (err.message, meas_path) && err.code == RW_ERROR_INPUT, "stereo without --channel: %s", err.message);
  RW_NOTE ("stereo without a channel: %s", err.message);
  opt.meas_channel = 2;
  ok = rw_compare_files (sim_path, meas_path, &opt, &c, &err);
  RW_CHECK (!ok && strstr (err.message, meas_path), "channel 2 of a stereo file accepted: %s", err.message);
  RW_NOTE ("channel 2: %s", err.message);

  free (st);
  rw_audio_clear (&m);
  rw_audio_clear (&other);
  free (meas);
  free (sim);
  return rw_test_finish ();
}
