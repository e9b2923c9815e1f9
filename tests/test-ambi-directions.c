/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ambi-directions: issue #13's proof for the image sources' part: a
 * single arrival (a plane wave, the direct sound of a distant source)
 * from each of 26 directions (a cube's 6 face normals, 12 edge midpoints
 * and 8 corners, seen from its centre) encoded by rw_ambi_encode_arrivals
 * decodes back to its direction (the energy vector of the max-rE decoder,
 * rw_ambi_energy_vector) within 5° at order 3, and at orders 1 and 2; the
 * energy vector's length is the largest zero of P_{N+1} (1/√3, √(3/5),
 * √((3 + 2√(6/5))/7), written out here) to 10⁻⁹. Independently of the
 * decoder, the first-order channels (Y, Z, X: ACN 1, 2, 3) correlated
 * with W point at the arrival's direction (the intensity vector).
 *
 * W equals rw_ism_render's omni rendering bit for bit (memcmp), also for
 * complex and negative gains; every other channel is Y_c(direction) × W
 * to 10⁻¹² of W's peak. A receiver turned by yaw 90° hears an arrival
 * from the room's +y in front; pitched up 30° it hears the zenith 60° up
 * in front. An AmbiX WAV written by rw_ambi_write reads back with 16
 * channels, 48 kHz, the samples as floats. End to end in a room: the
 * 10 × 8 × 6 m box of ga-direct (R 0.8, scattering 0.7, 20 000 rays,
 * 0.3 s), rw_ga_compute's image sources and late histograms encoded
 * (the late part with √g_b): the direct sound's window (±0.67 ms, the
 * first reflection 12 ms later) decodes to the source's direction within
 * 5° (0° seen), and to the front for a receiver turned to face it; the
 * energy vector of 100 … 300 ms is shorter than 0.3 (0.048 seen: near
 * diffuse). Orders 0 and 4 and a NaN yaw
 * are refused with RW_ERROR_INPUT, the message naming the order / the
 * orientation. */
#include <stdlib.h>
#include <string.h>

#include "rw-test.h"
#include "test-ambi-common.h"
#include "rw-ambisonics.h"
#include "rw-audio.h"
#include "rw-ga.h"
#include "rw-physics.h"
#include "test-ga-common.h"

#define FS 48000.0
#define NS 2400

static RwIsmArrival
arrival (const double d[3], double delay_s, double complex g)
{
  RwIsmArrival a;
  memset (&a, 0, sizeof a);
  const double l = sqrt (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  for (int k = 0; k < 3; k++)
    a.direction[k] = d[k] / l;
  a.delay_s = delay_s;
  a.distance_m = delay_s * 343.0;
  for (int b = 0; b < RW_N_OCTAVES; b++)
    a.gain[b] = g * (1.0 - 0.05 * b);
  return a;
}

/* The full-band channels (Σ over the bands) of an encoding: ch × NS. */
static void
full_band (const double *enc, int order, double *x)
{
  const int nch = RW_AMBI_CHANNELS (order);
  for (int c = 0; c < nch; c++)
    for (size_t i = 0; i < NS; i++)
      {
        double s = 0.0;
        for (int b = 0; b < RW_N_OCTAVES; b++)
          s += enc[((size_t) c * RW_N_OCTAVES + b) * NS + i];
        x[(size_t) c * NS + i] = s;
      }
}

/* Encodes one arrival from room direction d for a receiver of yaw and
 * pitch at order; returns the angle between the energy vector and want
 * (head frame), its length in *len. */
static double
decode_one (const double d[3], int order, double yaw, double pitch, const double want[3],
            double *len)
{
  RwIsmArrival a = arrival (d, 0.0123456, 0.5);
  const int nch = RW_AMBI_CHANNELS (order);
  double *enc = malloc ((size_t) nch * RW_N_OCTAVES * NS * sizeof *enc);
  double *x = malloc ((size_t) nch * NS * sizeof *x);
  RwError err = { 0 };
  RW_CHECK (rw_ambi_encode_arrivals (&a, 1, order, yaw, pitch, FS, NS, enc, &err),
            "encode: %s", err.message);
  full_band (enc, order, x);
  double r[3];
  RW_CHECK (rw_ambi_energy_vector (x, order, NS, 0, NS, r, &err), "decode: %s", err.message);
  *len = sqrt (r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
  free (enc);
  free (x);
  return ambi_angle_deg (r, want);
}

int
main (void)
{
  double dirs[26][3];
  int nd = 0;
  for (int i = -1; i <= 1; i++)
    for (int j = -1; j <= 1; j++)
      for (int k = -1; k <= 1; k++)
        if (i || j || k)
          {
            const double l = sqrt ((double) (i * i + j * j + k * k));
            dirs[nd][0] = i / l;
            dirs[nd][1] = j / l;
            dirs[nd][2] = k / l;
            nd++;
          }
  RW_CHECK (nd == 26, "%d directions", nd);

  /* the largest zeros of P_2, P_3, P_4 */
  const double rN[4] = { 0.0, 1.0 / sqrt (3.0), sqrt (3.0 / 5.0),
                         sqrt ((3.0 + 2.0 * sqrt (6.0 / 5.0)) / 7.0) };
  for (int order = 1; order <= 3; order++)
    {
      double worst = 0.0, worst_len = 0.0;
      for (int i = 0; i < nd; i++)
        {
          double len;
          const double e = decode_one (dirs[i], order, 0.0, 0.0, dirs[i], &len);
          worst = fmax (worst, e);
          worst_len = fmax (worst_len, fabs (len - rN[order]));
        }
      RW_NOTE ("order %d: 26 directions decode within %.3g° (energy vector length %.6f, "
               "largest deviation from %.6f: %.3g)", order, worst, rw_ambi_max_re (order),
               rN[order], worst_len);
      RW_CHECK (worst <= 5.0, "order %d: a direction decodes %.3g° off", order, worst);
      RW_CHECK (worst_len < 1e-9, "order %d: |r_E| differs from %.9f by %.3g", order, rN[order],
                worst_len);
      RW_CHECK_CLOSE (rw_ambi_max_re (order), rN[order], 1e-12, "rw_ambi_max_re");
    }

  /* W is the omni rendering bit for bit; the other channels Y_c × W;
   * the first-order intensity vector points at the arrival */
  {
    const double d[3] = { 0.3, -0.8, 0.5 };
    RwIsmArrival a[3] = { arrival (d, 0.0101, 0.7), arrival (d, 0.0207, -0.4 + 0.3 * I),
                          arrival (d, 0.0333, 0.2 - 0.6 * I) };
    double *enc = malloc (16 * RW_N_OCTAVES * NS * sizeof *enc);
    double *omni = malloc (RW_N_OCTAVES * NS * sizeof *omni);
    RwError err = { 0 };
    RW_CHECK (rw_ambi_encode_arrivals (a, 3, 3, 0, 0, FS, NS, enc, &err), "%s", err.message);
    RW_CHECK (rw_ism_render (a, 3, FS, NS, omni, &err), "%s", err.message);
    RW_CHECK (memcmp (enc, omni, RW_N_OCTAVES * NS * sizeof *omni) == 0,
              "W differs from rw_ism_render's omni IR");
    double Y[16], peak = 0.0, e = 0.0;
    rw_ambi_sh (3, a[0].direction, Y);
    for (size_t i = 0; i < RW_N_OCTAVES * NS; i++)
      peak = fmax (peak, fabs (omni[i]));
    for (int c = 1; c < 16; c++)
      for (size_t i = 0; i < RW_N_OCTAVES * NS; i++)
        e = fmax (e, fabs (enc[(size_t) c * RW_N_OCTAVES * NS + i] - Y[c] * omni[i]));
    RW_CHECK (peak > 0.1 && e <= 1e-12 * peak, "a channel differs from Y_c W by %.3g (peak %.3g)",
              e, peak);
    double iv[3] = { 0, 0, 0 };
    for (size_t i = 0; i < RW_N_OCTAVES * NS; i++)
      {
        iv[0] += omni[i] * enc[3 * RW_N_OCTAVES * NS + i];
        iv[1] += omni[i] * enc[1 * RW_N_OCTAVES * NS + i];
        iv[2] += omni[i] * enc[2 * RW_N_OCTAVES * NS + i];
      }
    const double ia = ambi_angle_deg (iv, a[0].direction);
    RW_NOTE ("first-order intensity vector %.3g° off the arrival", ia);
    RW_CHECK (ia < 1e-6, "the intensity vector is %.3g° off", ia);

    /* an AmbiX WAV */
    double *x = malloc (16 * NS * sizeof *x);
    full_band (enc, 3, x);
    const char *path = rw_test_tmp_path ("ambix.wav");
    RW_CHECK (rw_ambi_write (path, x, 3, NS, FS, &err), "write: %s", err.message);
    RwAudio au = { 0 };
    RW_CHECK (rw_audio_read (path, &au, &err), "read back: %s", err.message);
    RW_CHECK (au.channels == 16 && au.frames == NS && au.rate_hz == FS,
              "read back %d channels, %zu frames, %g Hz", au.channels, au.frames, au.rate_hz);
    size_t bad = 0;
    for (size_t i = 0; au.channels == 16 && au.frames == NS && i < NS; i++)
      for (int c = 0; c < 16; c++)
        bad += au.data[i * 16 + (size_t) c] != (float) x[(size_t) c * NS + i];
    RW_CHECK (bad == 0, "%zu samples differ after the WAV round trip", bad);
    rw_audio_clear (&au);
    free (x);
    free (enc);
    free (omni);
  }

  /* the receiver's orientation */
  {
    double len;
    const double ey[3] = { 0, 1, 0 }, ez[3] = { 0, 0, 1 }, front[3] = { 1, 0, 0 };
    const double zen[3] = { 0.5, 0, cos (M_PI / 6) };
    double e = decode_one (ey, 3, 90.0, 0.0, front, &len);
    RW_NOTE ("yaw 90°: the room's +y decodes %.3g° off the front", e);
    RW_CHECK (e < 1e-6, "yaw 90°: the room's +y decodes %.3g° off the front", e);
    e = decode_one (ez, 3, 0.0, 30.0, zen, &len);
    RW_CHECK (e < 1e-6, "pitch 30°: the zenith decodes %.3g° off 60° up in front", e);
  }


  /* a real room: the direct sound of rw_ga_compute's image sources, and
   * its late part */
  {
    GaRoom room;
    if (ga_room_init (&room, rw_shape_box (10, 8, 6), rw_admittance_real (0.8), 0.7))
      {
        const double src[3] = { 4.1, 3.9, 2.7 }, rcv[3] = { 6.1, 4.2, 3.1 };
        const double to_src[3] = { src[0] - rcv[0], src[1] - rcv[1], src[2] - rcv[2] };
        RwGaSettings set;
        rw_ga_settings_init (&set);
        set.n_rays = 20000;
        set.duration_s = 0.3;
        set.air_absorption = false;
        RwGaResult g = { 0 };
        RwError err = { 0 };
        const bool ok = rw_ga_compute (room.scene, room.Y, room.sc, room.ns, src, rcv, &set, &g,
                                       &err);
        RW_CHECK (ok, "GA IR: %s", err.message);
        const size_t n = g.n_samples;
        double *enc = ok ? malloc (16 * RW_N_OCTAVES * n * sizeof *enc) : NULL;
        double *x = ok ? calloc (16 * n, sizeof *x) : NULL;
        double *late = ok ? malloc (16 * n * sizeof *late) : NULL;
        if (ok)
          {
            double t_direct = INFINITY, t_first = INFINITY;
            for (size_t i = 0; i < g.ism.n_arrivals; i++)
              if (g.ism.arrivals[i].order == 0)
                t_direct = g.ism.arrivals[i].delay_s;
              else
                t_first = fmin (t_first, g.ism.arrivals[i].delay_s);
            /* yaw and pitch that face the source: it decodes to the front */
            const double yaw = atan2 (to_src[1], to_src[0]) * 180.0 / M_PI;
            const double pitch = atan2 (to_src[2], hypot (to_src[0], to_src[1])) * 180.0 / M_PI;
            const double front[3] = { 1, 0, 0 };
            double gb[RW_N_OCTAVES];
            for (int b = 0; b < RW_N_OCTAVES; b++)
              gb[b] = sqrt (g.band_gain[b]);
            for (int turn = 0; turn < 2; turn++)
              {
                const double yw = turn ? yaw : 0.0, pt = turn ? pitch : 0.0;
                RW_CHECK (rw_ambi_encode_arrivals (g.ism.arrivals, g.ism.n_arrivals, 3, yw, pt,
                                                   g.fs_hz, n, enc, &err), "%s", err.message);
                RW_CHECK (rw_ambi_encode_late (&g.rays, 3, yw, pt, g.fs_hz, n,
                                               RW_RAYS_DEFAULT_MAX_DENSITY, set.seed, gb, late,
                                               NULL, &err), "%s", err.message);
                for (int c = 0; c < 16; c++)
                  for (size_t i = 0; i < n; i++)
                    {
                      double v = late[(size_t) c * n + i];
                      for (int b = 0; b < RW_N_OCTAVES; b++)
                        v += enc[((size_t) c * RW_N_OCTAVES + b) * n + i];
                      x[(size_t) c * n + i] = v;
                    }
                /* the direct sound: ±0.67 ms (the rendering's half-width) */
                const size_t i0 = (size_t) (t_direct * g.fs_hz) - RW_ISM_RENDER_HALF_WIDTH;
                double r[3];
                rw_ambi_energy_vector (x, 3, n, i0, 2 * RW_ISM_RENDER_HALF_WIDTH + 2, r, &err);
                const double e = ambi_angle_deg (r, turn ? front : to_src);
                RW_NOTE ("box 10 × 8 × 6 m, %s: the direct sound (%.2f ms; first reflection "
                         "%.2f ms) decodes %.3g° off the source", turn ? "facing the source"
                         : "yaw 0, pitch 0", 1e3 * t_direct, 1e3 * t_first, e);
                RW_CHECK (e <= 5.0, "the direct sound decodes %.3g° off the source", e);
                if (turn)
                  continue;
                /* the late part (100 … 300 ms), scattering 0.7: near diffuse */
                rw_ambi_energy_vector (x, 3, n, (size_t) (0.1 * g.fs_hz),
                                       n - (size_t) (0.1 * g.fs_hz), r, &err);
                const double len = sqrt (r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
                RW_NOTE ("box: energy vector of 100 … 300 ms of length %.3f (a plane wave's %.3f)",
                         len, rw_ambi_max_re (3));
                RW_CHECK (len < 0.3, "the late part's energy vector is %.3f long", len);
              }
          }
        free (enc);
        free (x);
        free (late);
        rw_ga_result_clear (&g);
      }
    ga_room_free (&room);
  }

  /* bad input */
  {
    RwIsmArrival a = arrival ((const double[3]) { 1, 0, 0 }, 0.01, 1.0);
    double *enc = malloc (25 * RW_N_OCTAVES * NS * sizeof *enc);
    const int bad_orders[2] = { 0, 4 };
    for (int i = 0; i < 2; i++)
      {
        RwError err = { 0 };
        RW_CHECK (!rw_ambi_encode_arrivals (&a, 1, bad_orders[i], 0, 0, FS, NS, enc, &err)
                  && err.code == RW_ERROR_INPUT && strstr (err.message, "order") != NULL,
                  "order %d: %s", bad_orders[i], err.message);
      }
    RwError err = { 0 };
    RW_CHECK (!rw_ambi_encode_arrivals (&a, 1, 3, NAN, 0, FS, NS, enc, &err)
              && err.code == RW_ERROR_INPUT && strstr (err.message, "orientation") != NULL,
              "NaN yaw: %s", err.message);
    free (enc);
  }
  return rw_test_finish ();
}
