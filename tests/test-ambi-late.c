/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ambi-late: the rays' late part in ambisonics (rw_ambi_encode_late) on
 * synthetic histograms: 1 ms bins over 1 s, a 200 m³ room, every band's
 * energy decaying as e^{−t / 0.1 s} (T60 ≈ 1.4 s), 48 kHz, order 3.
 *
 * - W is rw_rays_synthesise's omni ir (same histogram, rate, length,
 *   density and seed) bit for bit (memcmp); with per-band scales s_b it is
 *   Σ_b s_b × rw_rays_synthesise's band b to 10⁻¹² of its peak.
 * - One direction (every bin's direction sum = energy × d, d off every
 *   axis): the energy vector over 50 ms … 1 s points at d within 0.01°
 *   and has the plane wave's length r_3 = 0.8611 within 10⁻³; every
 *   channel is Y_c(d) × W to 10⁻⁶ of W's peak (the pulses all from d).
 *   A receiver turned by yaw 90° hears a late part from the room's +y in
 *   front.
 * - Half concentrated (direction sum = 0.5 × energy × d): the pulses are
 *   drawn from a von Mises–Fisher distribution of mean resultant length
 *   0.5 about d, so the energy vector points at d (within 5°) with length
 *   0.5 r_3 (within 0.05 r_3).
 * - Diffuse (direction sums 0): the energy vector's length over 50 ms …
 *   1 s is below 0.05 (a finite number of pulses from uniformly drawn
 *   directions; the figure is printed).
 * - The vMF's mean resultant length A(κ) = coth κ − 1/κ: A(1) =
 *   0.31303528549933 (coth 1 = 1.31303528549933), A(10⁻⁴) to 10⁻¹⁹ of
 *   its series κ/3 − κ³/45 (the closed form loses 8 digits there), and
 *   rw_ambi_vmf_kappa inverts it to 10⁻⁹ for r = 0.01 … 0.999.
 * - Bad input: order 4, an infinite pitch, 100 Hz, an empty histogram,
 *   and an energy vector of order 0 are refused with RW_ERROR_INPUT.
 */
#include <stdlib.h>
#include <string.h>

#include "rw-test.h"
#include "test-ambi-common.h"
#include "rw-ambisonics.h"
#include "rw-physics.h"

#define FS 48000.0
#define NB 1000
#define NS 48000
#define SEED 7u

static void
make_hist (RwRayResult *h, const double d[3], double r)
{
  memset (h, 0, sizeof *h);
  h->n_bins = NB;
  h->bin_s = 1e-3;
  h->receiver_radius_m = 0.2;
  h->volume_m3 = 200.0;
  h->speed_of_sound = 343.0;
  h->energy = malloc (RW_N_OCTAVES * NB * sizeof *h->energy);
  h->direction = malloc (3 * RW_N_OCTAVES * NB * sizeof *h->direction);
  for (int b = 0; b < RW_N_OCTAVES; b++)
    for (size_t j = 0; j < NB; j++)
      {
        const size_t k = (size_t) b * NB + j;
        const double e = 1e-3 * exp (-((double) j + 0.5) * 1e-3 / 0.1) * (1.0 + 0.1 * b);
        h->energy[k] = e;
        for (int q = 0; q < 3; q++)
          h->direction[3 * k + q] = r * e * d[q];
      }
}

/* Encodes hist at order 3 (yaw), returns the energy vector over
 * 50 ms … 1 s; x: 16 × NS. */
static void
encode (const RwRayResult *h, double yaw, double *x, double r_e[3])
{
  RwError err = { 0 };
  RW_CHECK (rw_ambi_encode_late (h, 3, yaw, 0.0, FS, NS, RW_RAYS_DEFAULT_MAX_DENSITY, SEED, NULL,
                                 x, NULL, &err), "encode: %s", err.message);
  RW_CHECK (rw_ambi_energy_vector (x, 3, NS, 2400, NS - 2400, r_e, &err), "%s", err.message);
}

static double
norm3 (const double v[3])
{
  return sqrt (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

int
main (void)
{
  const double dl = sqrt (0.36 + 0.64 * 0.64 + 0.25);
  const double d[3] = { 0.6 / dl, -0.64 / dl, 0.5 / dl };
  const double r3 = rw_ambi_max_re (3);
  double *x = malloc (16 * NS * sizeof *x);
  double *omni = malloc (NS * sizeof *omni);
  double *bands = malloc (RW_N_OCTAVES * NS * sizeof *bands);
  RwError err = { 0 };
  RwRayResult h;

  /* one direction */
  make_hist (&h, d, 1.0);
  double r_e[3];
  encode (&h, 0.0, x, r_e);
  RW_CHECK (rw_rays_synthesise (&h, FS, NS, RW_RAYS_DEFAULT_MAX_DENSITY, SEED, bands, omni, NULL,
                                &err), "%s", err.message);
  RW_CHECK (memcmp (x, omni, NS * sizeof *omni) == 0, "W differs from rw_rays_synthesise's ir");
  double e = ambi_angle_deg (r_e, d), peak = 0.0, dev = 0.0, Y[16];
  RW_NOTE ("one direction: energy vector %.3g° off, length %.6f (plane wave %.6f)", e,
           norm3 (r_e), r3);
  RW_CHECK (e < 0.01, "one direction decodes %.3g° off", e);
  RW_CHECK_CLOSE (norm3 (r_e), r3, 1e-3, "one direction: |r_E|");
  rw_ambi_sh (3, d, Y);
  for (size_t i = 0; i < NS; i++)
    peak = fmax (peak, fabs (omni[i]));
  for (int c = 1; c < 16; c++)
    for (size_t i = 0; i < NS; i++)
      dev = fmax (dev, fabs (x[(size_t) c * NS + i] - Y[c] * omni[i]));
  RW_NOTE ("one direction: channels differ from Y_c W by %.3g of W's peak", dev / peak);
  RW_CHECK (peak > 0.0 && dev <= 1e-6 * peak, "a channel differs from Y_c W by %.3g", dev / peak);

  /* per-band scales */
  {
    const double s[RW_N_OCTAVES] = { 0.1, 0.2, 0.3, 0.5, 0.7, 1.1, 1.3, 0.9 };
    RW_CHECK (rw_ambi_encode_late (&h, 3, 0.0, 0.0, FS, NS, RW_RAYS_DEFAULT_MAX_DENSITY, SEED, s,
                                   x, NULL, &err), "%s", err.message);
    double dw = 0.0, pk = 0.0;
    for (size_t i = 0; i < NS; i++)
      {
        double w = 0.0;
        for (int b = 0; b < RW_N_OCTAVES; b++)
          w += s[b] * bands[(size_t) b * NS + i];
        dw = fmax (dw, fabs (x[i] - w));
        pk = fmax (pk, fabs (w));
      }
    RW_CHECK (pk > 0.0 && dw <= 1e-12 * pk, "scaled W differs from Σ s_b band_b by %.3g", dw / pk);
  }

  /* yaw 90°: the room's +y is in front */
  {
    const double ey[3] = { 0, 1, 0 }, front[3] = { 1, 0, 0 };
    RwRayResult hy;
    make_hist (&hy, ey, 1.0);
    encode (&hy, 90.0, x, r_e);
    e = ambi_angle_deg (r_e, front);
    RW_CHECK (e < 0.01, "yaw 90°: the room's +y decodes %.3g° off the front", e);
    rw_rays_result_clear (&hy);
  }
  rw_rays_result_clear (&h);

  /* half concentrated */
  make_hist (&h, d, 0.5);
  encode (&h, 0.0, x, r_e);
  e = ambi_angle_deg (r_e, d);
  RW_NOTE ("mean resultant 0.5: energy vector %.3g° off, length %.4f = %.4f r_3", e,
           norm3 (r_e), norm3 (r_e) / r3);
  RW_CHECK (e < 5.0, "mean resultant 0.5 decodes %.3g° off", e);
  RW_CHECK_CLOSE (norm3 (r_e) / r3, 0.5, 0.05, "mean resultant 0.5: |r_E| / r_3");
  rw_rays_result_clear (&h);

  /* diffuse */
  make_hist (&h, d, 0.0);
  encode (&h, 0.0, x, r_e);
  RW_CHECK (rw_rays_synthesise (&h, FS, NS, RW_RAYS_DEFAULT_MAX_DENSITY, SEED, NULL, omni, NULL,
                                &err), "%s", err.message);
  RW_CHECK (memcmp (x, omni, NS * sizeof *omni) == 0, "diffuse: W differs from the omni ir");
  RW_NOTE ("diffuse: energy vector length %.4f (%.4f r_3)", norm3 (r_e), norm3 (r_e) / r3);
  RW_CHECK (norm3 (r_e) < 0.05, "diffuse: energy vector of length %.3g", norm3 (r_e));
  rw_rays_result_clear (&h);

  /* the vMF's mean resultant length and its inverse */
  RW_CHECK_CLOSE (rw_ambi_vmf_mean_length (1.0), 0.31303528549933, 1e-13, "A(1)");
  /* coth κ − 1/κ in doubles has lost 8 digits at κ = 10⁻⁴; the series
   * κ/3 − κ³/45 (+ 2κ⁵/945 ≈ 2·10⁻²³) has not */
  RW_CHECK_CLOSE (rw_ambi_vmf_mean_length (1e-4), 1e-4 / 3.0 - 1e-12 / 45.0, 1e-19, "A(1e-4)");
  const double rs[5] = { 0.01, 0.3, 0.5, 0.9, 0.999 };
  for (int i = 0; i < 5; i++)
    RW_CHECK_CLOSE (rw_ambi_vmf_mean_length (rw_ambi_vmf_kappa (rs[i])), rs[i], 1e-9,
                    "A(κ(r))");
  RW_CHECK (rw_ambi_vmf_kappa (0.0) == 0.0 && isinf (rw_ambi_vmf_kappa (1.0)),
            "κ(0) = 0, κ(1) = ∞");

  /* bad input: each refused with RW_ERROR_INPUT, the message naming it */
  {
    make_hist (&h, d, 1.0);
    RwError e1 = { 0 }, e2 = { 0 }, e3 = { 0 }, e4 = { 0 };
    RW_CHECK (!rw_ambi_encode_late (&h, 4, 0, 0, FS, NS, 1e4, SEED, NULL, x, NULL, &e1)
              && e1.code == RW_ERROR_INPUT && strstr (e1.message, "order"), "order 4: %s",
              e1.message);
    RW_CHECK (!rw_ambi_encode_late (&h, 3, 0, INFINITY, FS, NS, 1e4, SEED, NULL, x, NULL, &e2)
              && e2.code == RW_ERROR_INPUT && strstr (e2.message, "orientation"),
              "infinite pitch: %s", e2.message);
    RW_CHECK (!rw_ambi_encode_late (&h, 3, 0, 0, 100.0, NS, 1e4, SEED, NULL, x, NULL, &e3)
              && e3.code == RW_ERROR_INPUT && strstr (e3.message, "sample rate"),
              "100 Hz: %s", e3.message);
    rw_rays_result_clear (&h);
    RwRayResult empty = { 0 };
    RW_CHECK (!rw_ambi_encode_late (&empty, 3, 0, 0, FS, NS, 1e4, SEED, NULL, x, NULL, &e4)
              && e4.code == RW_ERROR_INPUT && strstr (e4.message, "histogram"),
              "no histogram: %s", e4.message);
    RwError e5 = { 0 };
    RW_CHECK (!rw_ambi_energy_vector (x, 0, NS, 0, 10, r_e, &e5) && e5.code == RW_ERROR_INPUT,
              "energy vector of order 0: %s", e5.message);
  }

  free (x);
  free (omni);
  free (bands);
  return rw_test_finish ();
}
