/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-ga.h — the full-band geometrical-acoustics impulse response of a
 * room (issue #12, docs/GEOMETRICAL.md "Geometrical IR"): image sources
 * for the early part, exact, and the ray tracer for everything else,
 * without double counting.
 *
 * Method (RAVEN: Schröder, "Physically based real-time auralization of
 * interactive virtual environments", 2011, §5; Wayverb; ODEON):
 *
 * - Image sources up to order N (rw-ism.h), each reflection's pressure
 *   factor R_b(θ) times √(1 − s_b) (s_b the surface's scattering
 *   coefficient): an image source is the specular path only; the
 *   scattered share s_b of its energy is the ray tracer's (a ray that
 *   turned diffuse is never excluded below). Air absorption as the ray
 *   tracer's: amplitude × exp(−m_b d / 2), m_b = α_b ln 10 / 10 the
 *   energy attenuation per metre (ISO 9613-1 at the band's exact midband
 *   frequency, rw_air_bands), d the path length.
 * - Rays (rw-rays.h) with exclude_specular_order = N: a ray's receiver
 *   hits are dropped while every reflection so far was specular and there
 *   were at most N of them (the direct sound is order 0): exactly the
 *   paths the image sources render. Everything else (specular paths of
 *   order > N, and every path with a diffuse reflection) is the rays'.
 * - The IR at 48 kHz: band b is the image sources' arrivals rendered with
 *   band b's gains (rw_ism_render) and filtered with band b's weight of
 *   the zero-phase complementary split (rw-air.h, the one the rays'
 *   synthesis uses), plus the rays' late IR synthesised from the
 *   histograms (rw_rays_synthesise) times √g_b. g_b is the split's energy
 *   gain on white noise: rw_rays_synthesise normalises each band to the
 *   histogram's energy (units in which every band of the direct sound has
 *   1/r²); a physical band carries only g_b of a broadband pulse's energy.
 *   So the bands add up to the full-band IR (ir = Σ bands), calibrated as
 *   the wave part's (docs/PHYSICS.md §4): the direct sound at r has area
 *   1/r. Band b's energy / g_b is in the histograms' units.
 * - Deterministic for a seed and independent of the thread count (both
 *   parts are), and of whether progress is reported.
 * - Progress and cancel through the solver's interface (rw-solver.h),
 *   settings.progress and settings.cancel, passed on to the rays and the
 *   image sources (rw-rays.h, rw-ism.h: the flag is read before every ray
 *   and every image source). The work counts n_rays + 1 units, in the
 *   order it is done: the rays, one a ray (step = rays traced), then the
 *   image sources as one unit (step = n_rays, the fraction rising from
 *   n_rays / (n_rays + 1) as they are validated). n_steps = n_rays + 1,
 *   part RW_PROGRESS_GEOMETRICAL, solver NULL, mvox_per_s 0, seconds_left
 *   from the time so far and the fraction. At most every 0.1 s within a
 *   part, from the calling thread only; once with fraction 1 at the end,
 *   after the synthesis. A cancel (the flag, or the callback answering
 *   false, the last report included) fails with RW_ERROR_CANCELLED and
 *   leaves nothing in *out.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rw-admittance.h"
#include "rw-error.h"
#include "rw-ga-scene.h"
#include "rw-hrtf.h"
#include "rw-ism.h"
#include "rw-materials.h"   /* RW_N_OCTAVES */
#include "rw-rays.h"
#include "rw-solver.h"   /* RwProgressFn */

#define RW_GA_RATE_HZ 48000.0

typedef struct {
  size_t n_rays;            /* 1 … RW_RAYS_MAX_N (RW_RAYS_DEFAULT_N) */
  uint64_t seed;            /* rays and synthesis (1) */
  int ism_order;            /* 0 … RW_ISM_MAX_ORDER (RW_ISM_DEFAULT_ORDER) */
  double duration_s;        /* IR length: > 0, at most 60 s (RW_RAYS_DEFAULT_DURATION_S) */
  double speed_of_sound;    /* m/s (at RW_DEFAULT_TEMPERATURE_C) */
  bool air_absorption;      /* on */
  double temperature_c;     /* for the air absorption (RW_DEFAULT_TEMPERATURE_C) */
  double humidity_pct;      /* RW_AIR_DEFAULT_HUMIDITY_PCT */
  double receiver_radius_m; /* the rays' receiver sphere: > 0, or 0: automatic (rw-rays.h) */
  int threads;              /* OpenMP threads; 0: OpenMP's default */
  RwProgressFn progress;    /* progress reports (above), or NULL */
  void *progress_data;
  const atomic_int *cancel; /* a cancel flag (above), or NULL */
} RwGaSettings;

/* The defaults in parentheses above; no progress, no cancel flag. */
void rw_ga_settings_init (RwGaSettings *s);

typedef struct {
  size_t n_samples;         /* duration · 48 kHz */
  double fs_hz;             /* RW_GA_RATE_HZ */
  double *ir;               /* n_samples: the full-band IR, Σ of the bands */
  double *bands;            /* RW_N_OCTAVES × n_samples, band b at bands[b · n_samples …] */
  double band_gain[RW_N_OCTAVES];   /* g_b (above) */
  RwIsmResult ism;          /* the image sources, gains with √(1 − s) and air (above) */
  RwRayResult rays;         /* the rays' histograms, image-source paths excluded */
  double dropped[RW_N_OCTAVES];     /* rw_rays_synthesise's, per band */
} RwGaResult;

/* The geometrical IR of source src at receiver rcv (metres) in the scene.
 * surface_Y: n_surfaces admittances (at least the mesh's, each
 * rw_admittance_check'ed); scattering: n_surfaces × RW_N_OCTAVES
 * coefficients in [0, 1] (surface s, band b at [s · RW_N_OCTAVES + b]).
 * settings NULL: the defaults. Fails with RW_ERROR_INPUT on a bad
 * setting, admittance, scattering coefficient or position (each named,
 * from rw_ism_compute and rw_rays_trace); RW_ERROR_MEMORY;
 * RW_ERROR_CANCELLED. *out is cleared first; free with rw_ga_result_clear. */
bool rw_ga_compute (const RwGaScene *scene, const RwAdmittance *surface_Y,
                    const double *scattering, size_t n_surfaces, const double src[3],
                    const double rcv[3], const RwGaSettings *settings, RwGaResult *out,
                    RwError *err);
void rw_ga_result_clear (RwGaResult *r);
/* The geometrical IR of r as an ambisonic IR of the given order (1 …
 * RW_AMBI_MAX_ORDER, ACN/SN3D: rw-ambisonics.h) for a listener of yaw and
 * pitch (degrees): the image sources encoded per channel
 * (rw_ambi_encode_arrivals) and split into bands as the omni IR's, plus
 * the late part with a direction per pulse (rw_ambi_encode_late, the
 * synthesis seed the omni IR used, each band × √g_b). out: (N + 1)² ×
 * r->n_samples at r->fs_hz, channel c at out[c · n_samples …]; channel 0
 * (W) is r->ir up to rounding (the same bands summed in another order).
 * seed: the one the late part of r was synthesised from (rw_ga_compute's
 * settings' seed for receiver 0; rw_ga_compute_receivers mixes it with
 * the receiver's index for the others: rw_ga_receiver_seed). Fails
 * (RW_ERROR_INPUT) on a result without its image sources or rays, and as
 * the encoders; RW_ERROR_MEMORY. */
bool rw_ga_ambisonic (const RwGaResult *r, int order, double yaw_deg, double pitch_deg,
                      uint64_t seed, double *out, RwError *err);
/* The geometrical IR of r as a binaural IR for a head of yaw and pitch
 * (degrees; rw-ambisonics.h's convention) with the HRTF set h, open at
 * r->fs_hz: each image source through the HRIR of its direction
 * (rw_hrtf_render_arrivals), and each pulse of the late part (the
 * synthesis of the omni IR: seed as rw_ga_ambisonic's) through the HRIR
 * of its direction, drawn as the ambisonic IR's pulses are
 * (rw_ambi_late_direction), band by band with the omni IR's calibration
 * (× √g_b). left, right: r->n_samples each, overwritten. The set's
 * diffuse-field equalisation (rw-hrtf.h) makes the two ears' mean energy
 * in a diffuse field the omni IR's. Fails (RW_ERROR_INPUT) on a result
 * without its image sources or rays, a set at another rate, and as the
 * renderers; RW_ERROR_MEMORY. */
bool rw_ga_binaural (const RwGaResult *r, const RwHrtf *h, double yaw_deg, double pitch_deg,
                     uint64_t seed, double *left, double *right, RwError *err);
/* The late part's synthesis seed of receiver index r of
 * rw_ga_compute_receivers with settings seed `seed`. */
uint64_t rw_ga_receiver_seed (uint64_t seed, size_t r);

/* rw_ga_compute for n_rcv receivers of one source: the rays traced once
 * for all of them (rw_rays_trace_receivers), then each receiver's image
 * sources and late IR. Receiver 0's result is rw_ga_compute's for it;
 * receiver r > 0 synthesises its late IR from a seed of its own (the
 * settings' seed mixed with r), so that receivers' late parts are not
 * one pulse train. Progress: n_rays + n_rcv units. outs: n_rcv results,
 * cleared first; free each with rw_ga_result_clear. */
bool rw_ga_compute_receivers (const RwGaScene *scene, const RwAdmittance *surface_Y,
                              const double *scattering, size_t n_surfaces, const double src[3],
                              const double (*rcv)[3], size_t n_rcv,
                              const RwGaSettings *settings, RwGaResult *outs, RwError *err);
