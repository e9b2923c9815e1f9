/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-listen-render.c — the Listen page's host logic for binaural
 * receivers (ui/rw-listen-render.c, issue #13), without a display:
 *   - rw_listen_same_orientation: a whole turn of yaw is the same head,
 *     0.1° of yaw or pitch is not;
 *   - rw_listen_binaural_ir on the AmbiX IR of one plane wave (a pulse of
 *     weights Y(d), d the source's direction in the simulated head's
 *     frame: rw_ambi_sh and rw_ambi_room_to_head, not the rotation under
 *     test), MIT KEMAR at 48 kHz:
 *     · the head as simulated gives the decode of the file itself
 *       (rw_ambi_binaural_decode, to float rounding);
 *     · a source at the simulated head's left (ITD of the ears low-passed
 *       at 1.2 kHz ≈ +0.7 ms, the left ear first; the left ear louder) is
 *       in front of the head turned by 90° (|ITD| < 50 µs, the ears'
 *       energies within 1 dB);
 *     · from a pitched simulated head (yaw 0°, pitch 30°) the head turned
 *       to yaw 90°, pitch 0° hears what the file encoded in that head's
 *       frame directly gives (to 1e-5 of the peak): the two turns are
 *       composed in the right order (the plain difference, yaw 90° and
 *       pitch −30°, is off by far more: checked too);
 *   - a file of 5 channels and a missing file are refused naming them.
 */
#include <math.h>
#include <string.h>

#include "rw-ambi-binaural.h"
#include "rw-ambisonics.h"
#include "rw-hrtf.h"
#include "rw-listen-render.h"
#include "rw-test.h"

#define RATE 48000.0
#define FRAMES 4800
#define ONSET 480
#define ORDER 3
#define NC RW_AMBI_CHANNELS (ORDER)

/* An AmbiX file: a pulse at ONSET from room direction `room` as heard by a
 * head at (yaw, pitch). */
static char *
write_plane_wave (const char *dir, const char *name, const double room[3], double yaw, double pitch)
{
  double head[3], y[NC];
  RwAudio a = { g_new0 (float, (gsize) FRAMES * NC), FRAMES, NC, RATE };
  RwError err = { 0 };
  char *path = g_build_filename (dir, name, NULL);

  rw_ambi_room_to_head (yaw, pitch, room, head);
  rw_ambi_sh (ORDER, head, y);
  for (int c = 0; c < NC; c++)
    a.data[(size_t) ONSET * NC + c] = (float) y[c];
  RW_CHECK (rw_audio_write (path, &a, &err), "write %s: %s", path, err.message);
  g_free (a.data);
  return path;
}

static RwAudio
render (const char *path, double sim_yaw, double sim_pitch, double yaw, double pitch)
{
  RwAudio out = { 0 };
  g_autoptr (GError) e = NULL;
  RW_CHECK (rw_listen_binaural_ir (path, NULL, sim_yaw, sim_pitch, yaw, pitch, NULL, &out, &e),
            "render %s for yaw %g°, pitch %g°: %s", path, yaw, pitch, e ? e->message : "");
  RW_CHECK (out.channels == 2 && out.frames == FRAMES && out.rate_hz == RATE, "two ears, %d frames at 48 kHz",
            FRAMES);
  return out;
}

/* One ear low-passed at 1.2 kHz (a 255-tap Blackman-windowed sinc):
 * the ITD is a low-frequency cue, and above f_c the decoder keeps the
 * magnitudes only (its phase there is free). */
static double *
low_pass (const RwAudio *b, int ear)
{
  enum { TAPS = 255 };
  const double fc = 1200.0 / RATE;
  double h[TAPS], sum = 0;
  for (int k = 0; k < TAPS; k++)
    {
      double m = k - (TAPS - 1) / 2.0;
      double w = 0.42 - 0.5 * cos (2 * G_PI * k / (TAPS - 1)) + 0.08 * cos (4 * G_PI * k / (TAPS - 1));
      h[k] = (m == 0 ? 2 * fc : sin (2 * G_PI * fc * m) / (G_PI * m)) * w;
      sum += h[k];
    }
  double *y = g_new0 (double, b->frames);
  for (size_t t = 0; t < b->frames; t++)
    for (int k = 0; k < TAPS && (size_t) k <= t; k++)
      y[t] += h[k] / sum * b->data[2 * (t - k) + ear];
  return y;
}

/* The interaural time difference (s, > 0: the left ear first) from the
 * peak of the low-passed ears' cross-correlation within ±1 ms. */
static double
itd (const RwAudio *b)
{
  const int max_lag = (int) (1e-3 * RATE);
  g_autofree double *l = low_pass (b, 0), *r = low_pass (b, 1);
  double best = -INFINITY;
  int best_lag = 0;
  for (int lag = -max_lag; lag <= max_lag; lag++)
    {
      double s = 0;
      for (size_t t = 0; t < b->frames; t++)
        {
          long u = (long) t + lag;
          if (u >= 0 && (size_t) u < b->frames)
            s += l[t] * r[u];
        }
      if (s > best)
        best = s, best_lag = lag;
    }
  /* r(t + lag) matches l(t): the right ear lags by `lag` */
  return best_lag / RATE;
}

static double
ear_energy_db (const RwAudio *b, int ear)
{
  double e = 0;
  for (size_t t = 0; t < b->frames; t++)
    e += b->data[2 * t + ear] * b->data[2 * t + ear];
  return 10 * log10 (e);
}

static double
max_abs_diff (const RwAudio *a, const RwAudio *b, double *peak)
{
  double d = 0;
  *peak = 0;
  for (size_t i = 0; i < 2 * a->frames && i < 2 * b->frames; i++)
    {
      d = fmax (d, fabs (a->data[i] - b->data[i]));
      *peak = fmax (*peak, fabs (a->data[i]));
    }
  return d;
}

int
main (void)
{
  const char *tmp = rw_test_tmpdir ();

  RW_CHECK (rw_listen_same_orientation (30, 10, 30, 10), "the simulated head itself");
  RW_CHECK (rw_listen_same_orientation (30, 10, 390, 10), "yaw 390° is yaw 30°");
  RW_CHECK (rw_listen_same_orientation (-180, 0, 180, 0), "yaw −180° is yaw 180°");
  RW_CHECK (!rw_listen_same_orientation (30, 10, 30.1, 10), "0.1° more yaw is another head");
  RW_CHECK (!rw_listen_same_orientation (30, 10, 30, 10.1), "0.1° more pitch is another head");
  RW_CHECK (!rw_listen_same_orientation (0, 0, 180, 0), "turned round");

  /* A source along the room's +y: the left of a head at yaw 0°. */
  static const double left_of_yaw0[3] = { 0, 1, 0 };
  g_autofree char *lateral = write_plane_wave (tmp, "lateral.wav", left_of_yaw0, 0, 0);

  /* The head as simulated: the file decoded as it is. */
  {
    RwAudio a = { 0 };
    RwError err = { 0 };
    RW_CHECK (rw_audio_read (lateral, &a, &err), "read back: %s", err.message);
    g_autofree double *planar = g_new (double, (gsize) NC * FRAMES);
    g_autofree double *l = g_new (double, FRAMES), *r = g_new (double, FRAMES);
    for (size_t t = 0; t < FRAMES; t++)
      for (int c = 0; c < NC; c++)
        planar[(size_t) c * FRAMES + t] = a.data[t * NC + c];
    RwHrtf *h = rw_hrtf_open (NULL, RATE, &err);
    RwAmbiBinaural *d = h ? rw_ambi_binaural_new (h, ORDER, &err) : NULL;
    RW_CHECK (d != NULL && rw_ambi_binaural_decode (d, planar, FRAMES, l, r, &err), "decode: %s", err.message);
    RwAudio same = render (lateral, 0, 0, 0, 0);
    double worst = 0, peak = 0;
    for (size_t t = 0; t < FRAMES && same.data; t++)
      {
        worst = fmax (worst, fmax (fabs (same.data[2 * t] - l[t]), fabs (same.data[2 * t + 1] - r[t])));
        peak = fmax (peak, fmax (fabs (l[t]), fabs (r[t])));
      }
    RW_CHECK (peak > 0 && worst <= 1e-6 * peak, "rotating by 0 is the decode of the file (%.3g of %.3g)", worst, peak);
    double itd0 = itd (&same);
    RW_NOTE ("source at the left: ITD %.0f µs, ILD %.1f dB", itd0 * 1e6,
             ear_energy_db (&same, 0) - ear_energy_db (&same, 1));
    RW_CHECK (itd0 > 400e-6 && itd0 < 900e-6, "at the left the left ear leads by %.0f µs", itd0 * 1e6);
    RW_CHECK (ear_energy_db (&same, 0) - ear_energy_db (&same, 1) > 6, "and is louder");
    rw_audio_clear (&same);
    rw_ambi_binaural_free (d);
    rw_hrtf_free (h);
    rw_audio_clear (&a);
  }

  /* Turned by 90°: the source in front. */
  {
    RwAudio front = render (lateral, 0, 0, 90, 0);
    double itd90 = itd (&front), ild = ear_energy_db (&front, 0) - ear_energy_db (&front, 1);
    RW_NOTE ("head turned by 90°: ITD %.0f µs, ILD %.2f dB", itd90 * 1e6, ild);
    RW_CHECK (fabs (itd90) < 50e-6, "turned by 90°, the source is in front: ITD %.0f µs", itd90 * 1e6);
    RW_CHECK (fabs (ild) < 1, "and the ears hear it alike: %.2f dB", ild);
    rw_audio_clear (&front);
  }

  /* From a pitched simulated head: the turns in the right order. */
  {
    static const double src[3] = { 0.3, 0.8, 0.52 };
    g_autofree char *pitched = write_plane_wave (tmp, "pitched.wav", src, 0, 30);
    g_autofree char *direct = write_plane_wave (tmp, "direct.wav", src, 90, 0);
    RwAudio turned = render (pitched, 0, 30, 90, 0), want = render (direct, 90, 0, 90, 0);
    double peak = 0, d = max_abs_diff (&turned, &want, &peak);
    RW_CHECK (peak > 0 && d <= 1e-5 * peak, "yaw 0°, pitch 30° turned to yaw 90°, pitch 0° is that head's own (%.3g of %.3g)",
              d, peak);
    /* the plain difference as one turn (yaw 90°, pitch −30°) is another head */
    RwAudio naive = { 0 };
    g_autoptr (GError) e = NULL;
    RW_CHECK (rw_listen_binaural_ir (pitched, NULL, 0, 0, 90, -30, NULL, &naive, &e), "the naive turn renders");
    double dn = max_abs_diff (&naive, &want, &peak);
    RW_NOTE ("composed turns off by %.3g, one turn of the difference off by %.3g (peak %.3g)", d, dn, peak);
    RW_CHECK (dn > 100 * d + 1e-3 * peak, "the difference as one turn is not the same head (%.3g)", dn);
    rw_audio_clear (&naive);
    rw_audio_clear (&turned);
    rw_audio_clear (&want);
  }

  /* Refused, naming the file. */
  {
    g_autofree char *five = g_build_filename (tmp, "five.wav", NULL);
    RwAudio a = { g_new0 (float, 5 * 100), 100, 5, RATE };
    RwError err = { 0 };
    RW_CHECK (rw_audio_write (five, &a, &err), "write five.wav");
    g_free (a.data);
    const char *bad[] = { five, "/nonexistent/receiver-1-ambix.wav" };
    for (gsize i = 0; i < G_N_ELEMENTS (bad); i++)
      {
        RwAudio out = { 0 };
        g_autoptr (GError) e = NULL;
        RW_CHECK (!rw_listen_binaural_ir (bad[i], NULL, 0, 0, 90, 0, NULL, &out, &e) && out.data == NULL,
                  "%s refused", bad[i]);
        RW_CHECK (e != NULL && strstr (e->message, bad[i]), "the message names %s: %s", bad[i], e ? e->message : "");
      }
  }
  return rw_test_finish ();
}
