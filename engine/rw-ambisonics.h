/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-ambisonics.h — ambisonic impulse responses of the geometrical part
 * (issue #13, spatial receivers; docs/SPATIAL.md): the image sources'
 * arrivals and the rays' late part encoded in real spherical harmonics,
 * orders 1 … 3, in the AmbiX convention, and an energy-vector decoder to
 * check them.
 *
 * Conventions (AmbiX: Nachbar, Zotter, Deleflie & Sontacchi, "AmbiX – a
 * suggested ambisonics format", Ambisonics Symposium 2011; Zotter &
 * Frank, "Ambisonics", Springer 2019, ch. 4):
 *
 * - Channels in ACN order: Y_n^m is channel n² + n + m, n = 0 … N,
 *   m = −n … n; (N + 1)² channels.
 * - SN3D (Schmidt semi-normalised), no Condon–Shortley phase:
 *     Y_n^m(φ, θ) = N_n^|m| P_n^|m|(sin θ) · { cos (m φ)   m ≥ 0
 *                                               sin (|m| φ) m < 0 }
 *     N_n^|m| = √((2 − δ_m0) (n − |m|)! / (n + |m|)!),
 *   P_n^m the associated Legendre function without the (−1)^m factor.
 *   So Y_0^0 = 1 (W is the omni signal, no 1/√2), Y_1^−1 = y, Y_1^0 = z,
 *   Y_1^1 = x for the unit vector (x, y, z); ∫ Y_n^m Y_n'^m' dΩ =
 *   4π/(2n + 1) δ_nn' δ_mm', and Σ_m Y_n^m(a) Y_n^m(b) = P_n(a · b).
 * - Directions in the listener's (head) frame: x front, y left, z up;
 *   azimuth φ counter-clockwise from x (seen from above), elevation θ up
 *   from the horizontal plane. A direction is where the sound comes FROM
 *   (rw-ism.h's arrival direction).
 * - Room frame: Roomwave's coordinates (metres, z up; x and y as the
 *   mesh has them). A receiver of yaw ψ and pitch ϑ looks along
 *   f = (cos ϑ cos ψ, cos ϑ sin ψ, sin ϑ): yaw counter-clockwise from the
 *   room's +x about +z, pitch up from the horizontal; its left is
 *   l = (−sin ψ, cos ψ, 0), its up u = f × l = (−sin ϑ cos ψ,
 *   −sin ϑ sin ψ, cos ϑ). A room direction d is (d·f,
 *   d·l, d·u) in the head frame (rw_ambi_room_to_head). Yaw 0, pitch 0:
 *   the head frame is the room's. No roll.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rw-error.h"
#include "rw-ism.h"
#include "rw-materials.h"   /* RW_N_OCTAVES */
#include "rw-rays.h"

#define RW_AMBI_MIN_ORDER 1
#define RW_AMBI_MAX_ORDER 3
#define RW_AMBI_CHANNELS(order) (((order) + 1) * ((order) + 1))
#define RW_AMBI_MAX_CHANNELS RW_AMBI_CHANNELS (RW_AMBI_MAX_ORDER)

/* False with RW_ERROR_INPUT, naming it, for an order outside
 * RW_AMBI_MIN_ORDER … RW_AMBI_MAX_ORDER. */
bool rw_ambi_check_order (int order, RwError *err);

/* The ACN channel of Y_n^m (|m| ≤ n). */
static inline int
rw_ambi_acn (int n, int m)
{
  return n * n + n + m;
}

/* The (N + 1)² real spherical harmonics (SN3D, ACN, above) of order
 * 0 … RW_AMBI_MAX_ORDER at direction d (head frame; normalised here; the
 * zero vector gives the horizontal front) into y. Y_0^0 is exactly 1. */
void rw_ambi_sh (int order, const double d[3], double *y);
/* The same at azimuth and elevation in radians (above). */
void rw_ambi_sh_angles (int order, double azimuth, double elevation, double *y);

/* A room direction into the head frame of a receiver of yaw and pitch
 * (degrees; above). head may be room. */
void rw_ambi_room_to_head (double yaw_deg, double pitch_deg, const double room[3],
                           double head[3]);

/* The image sources' arrivals as (N + 1)² channels of per-band impulse
 * responses: channel c's band b at out[(c · RW_N_OCTAVES + b) · n_samples
 * …] is rw_ism_render of the arrivals with every gain multiplied by
 * Y_c(direction in the head frame of a receiver of yaw and pitch): the
 * same band-rendered pulse per arrival, times the channel's harmonic.
 * Channel 0 (W) is rw_ism_render's output bit for bit. Fails with
 * RW_ERROR_INPUT on an order outside 1 … RW_AMBI_MAX_ORDER, a yaw or
 * pitch not finite, and as rw_ism_render; RW_ERROR_MEMORY. out is
 * overwritten. */
bool rw_ambi_encode_arrivals (const RwIsmArrival *arrivals, size_t n_arrivals, int order,
                              double yaw_deg, double pitch_deg, double fs_hz, size_t n_samples,
                              double *out, RwError *err);

/* The rays' late part as (N + 1)² channels: rw_rays_synthesise's pulse
 * train (the same seed, the same pulses) with each pulse given a
 * direction per band, drawn from a von Mises–Fisher distribution about
 * the bin's mean direction d̄/|d̄| (d̄ = the histogram's direction sum
 * over its energy, rotated into the head frame) whose mean resultant
 * length is |d̄| (1, or within 10⁻⁹ of it: every pulse from d̄'s
 * direction; 0: uniform on the sphere), so that the pulses' expected mean direction is d̄ in every
 * bin and band. The draw uses the pulse's own random numbers
 * (rw_rays_synthesise_channels, the same in every band: where the bands'
 * d̄ agree a pulse has one direction). Each pulse's sign is multiplied by
 * Y_c(its direction) in channel c. out: (N + 1)² × n_samples, channel c
 * at out[c · n_samples …], full band: Σ_b band_scale[b] × band b
 * (band_scale NULL: 1; rw-ga.h's √g_b gives its calibration). With
 * band_scale NULL channel 0 (W) is rw_rays_synthesise's ir for the same
 * hist, fs, n_samples, max_density and seed, bit for bit. dropped (may
 * be NULL) as rw_rays_synthesise's. Fails as rw_ambi_encode_arrivals and
 * rw_rays_synthesise. */
bool rw_ambi_encode_late (const RwRayResult *hist, int order, double yaw_deg, double pitch_deg,
                          double fs_hz, size_t n_samples, double max_density, uint64_t seed,
                          const double band_scale[RW_N_OCTAVES], double *out,
                          double dropped[RW_N_OCTAVES], RwError *err);

/* The late part's directions (rw_ambi_encode_late): per band and
 * histogram bin the vMF axis (head frame of yaw and pitch) and
 * concentration, from the histogram's direction sums. */
typedef struct {
  size_t n_bins;
  double *axis;     /* (b · n_bins + j) · 3 */
  double *kappa;    /* b · n_bins + j */
} RwAmbiLateDirs;
/* Fails (RW_ERROR_INPUT) on a histogram without energy or directions, a
 * yaw or pitch not finite; RW_ERROR_MEMORY. Clear with
 * rw_ambi_late_dirs_clear. */
bool rw_ambi_late_dirs_init (RwAmbiLateDirs *ld, const RwRayResult *hist, double yaw_deg,
                             double pitch_deg, RwError *err);
void rw_ambi_late_dirs_clear (RwAmbiLateDirs *ld);
/* A pulse's direction in band `band` of bin `bin` from its two uniform
 * numbers u (rw_rays_synthesise_channels's): the vMF draw above. */
void rw_ambi_late_direction (const RwAmbiLateDirs *ld, size_t bin, int band, const double u[2],
                             double d[3]);

/* The mean resultant length A(κ) = coth κ − 1/κ of a von Mises–Fisher
 * distribution on the sphere, and its inverse (r in [0, 1]; 0 → 0,
 * 1 → INFINITY). */
double rw_ambi_vmf_mean_length (double kappa);
double rw_ambi_vmf_kappa (double r);

/* The energy vector (Gerzon 1992; Zotter & Frank ch. 2) of samples first …
 * first + count − 1 of an (N + 1)²-channel signal x (channel c, sample i
 * at x[c · stride + i]) decoded by a max-rE-weighted sampling decoder:
 * loudspeaker gains g(θ) = Σ_nm (2n + 1) a_n Y_n^m(θ) x_nm, a_n =
 * P_n(r_N) with r_N the largest zero of P_{N+1} (Zotter & Frank ch. 4),
 * over a continuum of loudspeakers, evaluated with a product rule of
 * 16 Gauss–Legendre nodes in sin θ × 32 azimuths (exact for every
 * polynomial of degree ≤ 31 on the sphere, so the same as any t-design
 * with t ≥ 2N + 1: g² θ is of degree 2N + 1): r_E = ∫ E(θ) θ dΩ /
 * ∫ E(θ) dΩ, E(θ) = Σ_i g(θ, i)². A plane wave from s gives r_N · s
 * exactly. A silent segment gives the zero vector. Fails with
 * RW_ERROR_INPUT on a bad order. */
bool rw_ambi_energy_vector (const double *x, int order, size_t stride, size_t first,
                            size_t count, double r_e[3], RwError *err);
/* r_N above: the energy vector's length for a plane wave at order N. */
double rw_ambi_max_re (int order);

/* Writes an (N + 1)²-channel signal (planar as rw_ambi_encode_late's out)
 * as an AmbiX-convention WAV or FLAC (by the extension; rw_audio_write):
 * (N + 1)² channels interleaved in ACN order, SN3D, 32-bit float WAV.
 * Fails as rw_audio_write and on a bad order. */
bool rw_ambi_write (const char *path, const double *x, int order, size_t n_samples,
                    double fs_hz, RwError *err);
