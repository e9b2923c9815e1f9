/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-rays.h — stochastic ray tracing for the late part of the
 * geometrical-acoustics IR (issue #12, docs/GEOMETRICAL.md "Ray tracing"),
 * and the synthesis of a late IR from its energy histograms.
 *
 * Method (Krokstad, Strøm & Sørsdal 1968; Vorländer, "Auralization",
 * 2nd ed. 2020, ch. 11; Wayverb and RAVEN for the synthesis):
 *
 * - N rays leave the source in directions uniform on the sphere, each
 *   carrying energy 4π/N in every octave band (63 Hz … 8 kHz). With the
 *   receiver's estimator below this gives the image sources' calibration:
 *   the direct sound at r has energy 1/r² (its pressure 1/r, area 1 at 1 m,
 *   rw-ism.h).
 * - At each wall hit (Embree, rw-ga-scene.h) the band energies are
 *   multiplied by |R_b(θ)|², R(θ) = (cos θ − Y)/(cos θ + Y) with the
 *   surface's admittance at the band centre (rw-admittance.h): the image
 *   sources' reflection factor, one material model for both methods.
 * - Scattering: one ray, one outgoing direction, chosen at random:
 *   diffuse (Lambert, cosine-weighted about the normal) with probability
 *   p = the mean of the surface's scattering coefficients s_b over the
 *   bands, else specular; band b's energy is then weighted by s_b / p
 *   (diffuse) or (1 − s_b)/(1 − p) (specular). The expected energy
 *   leaving in each direction class is exactly the split s_b : 1 − s_b in
 *   every band (an unbiased importance-sampled split): per-band
 *   scattering at the cost of one ray, where tracing each band on its own
 *   would cost eight.
 * - Air absorption: energy × exp(−m_b d), d the distance travelled,
 *   m_b = α_b ln 10 / 10 from ISO 9613-1 (rw-air.h) at the band's exact
 *   midband frequency; off when settings.air_absorption is false.
 * - Receiver: volume detection. A sphere of radius a around the receiver
 *   point; a ray segment crossing it with chord length ℓ adds e_b ℓ / V_a
 *   (V_a = 4/3 π a³, e_b the ray's band energy at the chord's midpoint)
 *   to the histogram bin of the time it reaches the chord's midpoint:
 *   the mean energy density estimator (energy flux × time spent in the
 *   sphere / volume), unbiased for any a as long as the sphere lies inside
 *   the room. The direction of arrival (unit vector from the receiver
 *   towards where the sound comes from, −ray direction, as rw-ism.h) is
 *   summed energy-weighted per band and bin.
 *   Automatic radius: a = √(K V / (π N c Δt)) with K = 10: in a diffuse
 *   field N rays travelling c Δt cross the sphere N π a² c Δt / V times,
 *   so each bin collects about K hits per band; clamped to 0.05 … 1 m.
 * - Termination: a ray stops at the end of the histogram, when its
 *   largest band energy (air absorption included) falls below
 *   energy_threshold × its start (default 10⁻⁶, −60 dB: the Schroeder
 *   integral's −35 dB point of a T30 lies 25 dB above what is dropped),
 *   or when it leaves the room through a hole or meets a wall from behind
 *   (counted as lost; a wall met from behind within 0.1 mm of a
 *   reflection point is a single-precision artefact at an edge and is
 *   skipped).
 * - Determinism: every ray draws from its own counter-based generator
 *   (splitmix64 of the seed and the ray's index), rays are traced in
 *   chunks of fixed size whatever the thread count, each chunk records
 *   its receiver hits, and the hits are summed chunk by chunk in ray
 *   order: the histograms are byte-identical for any thread count.
 * - Progress and cancel (settings.progress, settings.cancel; the solver's
 *   interface, rw-solver.h): a report of rays traced (step) of n_rays
 *   (n_steps), part RW_PROGRESS_GEOMETRICAL, solver NULL, at most every
 *   0.1 s from the calling thread only (OpenMP thread 0), and one of
 *   fraction 1 at the end. The flag is read before every ray, so a cancel
 *   stops the threads within one ray each; the callback answering false
 *   does the same. Neither changes a result: a run with progress is bit
 *   for bit one without.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rw-admittance.h"
#include "rw-error.h"
#include "rw-ga-scene.h"
#include "rw-materials.h"   /* RW_N_OCTAVES, rw_octave_centres_hz */
#include "rw-solver.h"      /* RwProgressFn */

#define RW_RAYS_DEFAULT_N 20000
#define RW_RAYS_MAX_N ((size_t) 1 << 30)
#define RW_RAYS_DEFAULT_BIN_S 1e-3
#define RW_RAYS_DEFAULT_DURATION_S 2.0
#define RW_RAYS_DEFAULT_THRESHOLD 1e-6
/* Hits per histogram bin the automatic receiver radius aims at. */
#define RW_RAYS_RADIUS_HITS 10.0
#define RW_RAYS_MIN_RADIUS_M 0.05
#define RW_RAYS_MAX_RADIUS_M 1.0
/* Pulse density of the synthesis is capped at this (pulses per second). */
#define RW_RAYS_DEFAULT_MAX_DENSITY 10000.0
#define RW_RAYS_MAX_EXCLUDE_ORDER 100

typedef struct {
  size_t n_rays;               /* 1 … RW_RAYS_MAX_N */
  uint64_t seed;
  double speed_of_sound;       /* m/s, > 0 */
  double bin_s;                /* histogram bin width, s: 10 µs … 0.1 s */
  double duration_s;           /* histogram length, s: > 0, at most 60 s */
  double receiver_radius_m;    /* > 0, or 0: automatic (above) */
  double energy_threshold;     /* in (0, 1) */
  bool air_absorption;
  double temperature_c;        /* for the air absorption */
  double humidity_pct;
  int threads;                 /* OpenMP threads; 0: OpenMP's default */
  /* −1 (default): every receiver hit counts. N ≥ 0: a hit is dropped
     while every reflection of the ray so far was specular and there were
     at most N of them (the direct sound is order 0): those paths are the
     image sources' up to order N (rw-ga.h; RAVEN, Wayverb). At most
     RW_RAYS_MAX_EXCLUDE_ORDER. */
  int exclude_specular_order;
  /* Progress reports (may be NULL; above) and a cancel flag (may be NULL):
     set, or the callback answering false, and rw_rays_trace fails with
     RW_ERROR_CANCELLED. */
  RwProgressFn progress;
  void *progress_data;
  const atomic_int *cancel;
} RwRaySettings;

/* RW_RAYS_DEFAULT_N rays, seed 1, c at RW_DEFAULT_TEMPERATURE_C, 1 ms bins,
 * 2 s, automatic radius, threshold 10⁻⁶, air absorption on at 20 °C and
 * 50 % RH, threads 0, exclude_specular_order −1 (off), no progress, no
 * cancel flag. */
void rw_rays_settings_init (RwRaySettings *s);

typedef struct {
  size_t n_bins;
  double bin_s;
  double receiver_radius_m;    /* the radius used */
  double volume_m3;            /* the room's, from the mesh */
  double speed_of_sound;
  /* energy[b · n_bins + i]: band b's energy arriving in bin i (time
     i·bin_s … (i+1)·bin_s after the emission), in the image sources'
     units: Σ over the bin of the squared pressure, the direct sound at r
     giving 1/r². */
  double *energy;
  /* direction[(b · n_bins + i) · 3 + k]: the energy-weighted sum of the
     unit directions of arrival (towards where the sound comes from); its
     length over the bin's energy is 1 for a single direction. */
  double *direction;
  size_t n_receiver_hits;      /* chords through the receiver */
  size_t n_reflections;
  size_t n_lost;               /* rays that left the room (holes, back faces) */
} RwRayResult;

/* Traces settings->n_rays rays from src and collects them at rcv.
 * surface_Y: n_surfaces admittances (at least mesh->n_surfaces, each
 * rw_admittance_check'ed). scattering: n_surfaces × RW_N_OCTAVES
 * coefficients in [0, 1] (surface s, band b at [s · RW_N_OCTAVES + b]).
 * Fails with RW_ERROR_INPUT on a bad setting (each named), a missing or
 * bad admittance or scattering value, a position not finite or outside
 * the room, source and receiver closer than 1 mm, a room of no volume;
 * RW_ERROR_MEMORY; RW_ERROR_CANCELLED (settings->cancel, settings->progress).
 * *out is cleared first, and on any failure holds nothing; free with
 * rw_rays_result_clear. */
bool rw_rays_trace (const RwGaScene *scene, const RwAdmittance *surface_Y,
                    const double *scattering, size_t n_surfaces, const double src[3],
                    const double rcv[3], const RwRaySettings *settings, RwRayResult *out,
                    RwError *err);
void rw_rays_result_clear (RwRayResult *r);
/* rw_rays_trace for n_rcv receivers at once: one set of rays, each
 * segment tested against every receiver's sphere (all of the same
 * radius, the automatic one computed as for one), outs[r] receiver r's
 * histograms: the same as n_rcv separate calls with the same seed, for
 * one ray tracing's time. Every receiver is checked as rw_rays_trace
 * checks its one. outs: n_rcv results, cleared first; free each with
 * rw_rays_result_clear. */
bool rw_rays_trace_receivers (const RwGaScene *scene, const RwAdmittance *surface_Y,
                              const double *scattering, size_t n_surfaces, const double src[3],
                              const double (*rcv)[3], size_t n_rcv,
                              const RwRaySettings *settings, RwRayResult *outs, RwError *err);

/* Late-IR synthesis from the histograms: a Poisson sequence of Dirac
 * pulses of random sign at fs_hz, of density μ(t) = 4π c³ t² / V pulses
 * per second (the density of image sources' arrivals in a room of volume
 * V), capped at max_density (> 0; RW_RAYS_DEFAULT_MAX_DENSITY), drawn
 * per histogram bin (a Poisson count of mean ∫μ dt over the bin, at
 * uniform positions) from seed. For band b the sequence is weighted per
 * bin so that its energy (Σ of squared samples) over the bin is the
 * histogram's, filtered into the band with the zero-phase complementary
 * band split of rw-air.h (its 8 kHz band reaching to fs/2) and scaled by
 * 1/√(the filter's energy gain), so that the band keeps the histogram's
 * energy per bin (up to the filter's smearing across neighbouring bins).
 * A bin that draws no pulse (early, where the density is low: the image
 * sources' part) loses its energy; *dropped (may be NULL) gets that
 * fraction of the total, per band.
 * bands: RW_N_OCTAVES × n_samples (band b at bands[b · n_samples …]; may
 * be NULL); ir: their sum, n_samples (may be NULL). Sample i at time
 * i / fs. Fails with RW_ERROR_INPUT on fs not > 0, n_samples 0, a bad
 * density; RW_ERROR_MEMORY. */
bool rw_rays_synthesise (const RwRayResult *hist, double fs_hz, size_t n_samples,
                         double max_density, uint64_t seed, double *bands, double *ir,
                         double dropped[RW_N_OCTAVES], RwError *err);

/* Per-pulse gains for rw_rays_synthesise_channels: a pulse of histogram
 * bin `bin` gets, in band `band`, gains[0 … n_channels − 1]. u: two
 * numbers uniform in [0, 1), the pulse's own (from the seed and the
 * pulse's index in the order drawn, a stream apart from the train's; the
 * same in every band), for the caller's random draws (rw-ambisonics.h:
 * the pulse's direction). */
typedef void (*RwRayPulseFn) (size_t bin, int band, const double u[2], double *gains,
                              void *data);

/* rw_rays_synthesise's pulse train (the same pulses, seed for seed) in
 * n_channels channels: in band b each pulse's sign is multiplied by the
 * gains fn gives it, the channel's train weighted per bin with the omni
 * train's bin energy (so a channel's gains scale its pulses, not its
 * bins), filtered into the band and normalised as there. out: n_channels
 * × n_samples, channel c at out[c · n_samples …] = Σ_b band_scale[b] ×
 * band b (band_scale NULL: 1). A channel whose gains are all exactly 1
 * is rw_rays_synthesise's ir bit for bit (one code path). dropped as
 * there. Fails as rw_rays_synthesise. */
bool rw_rays_synthesise_channels (const RwRayResult *hist, double fs_hz, size_t n_samples,
                                  double max_density, uint64_t seed, int n_channels,
                                  RwRayPulseFn fn, void *data,
                                  const double band_scale[RW_N_OCTAVES], double *out,
                                  double dropped[RW_N_OCTAVES], RwError *err);

/* One pulse of the train as rw_rays_synthesise_render hands it over: its
 * sample, histogram bin, amplitude in the band (its sign times the bin's
 * normalisation to the histogram's energy) and its two random numbers
 * (rw_rays_synthesise_channels's u). */
typedef struct {
  size_t sample, bin;
  double amplitude;
  double u[2];
} RwRayPulse;
/* Renders band `band`'s pulses into n_channels trains (train[ch][0 …
 * n_samples − 1], zeroed before each band): a pulse rendered as a unit
 * sample at its sample times its amplitude gives the omni train; a
 * caller adds a filter per pulse instead (a binaural receiver: the HRIR
 * of the pulse's direction). Returns false with err set to stop. */
typedef bool (*RwRayRenderFn) (int band, const RwRayPulse *pulses, size_t n_pulses,
                               double *const *train, size_t n_samples, void *data, RwError *err);
/* rw_rays_synthesise_channels with a renderer in place of per-pulse
 * gains: the same pulses, seed for seed, each band's trains rendered by
 * `render`, then filtered into the band and summed as there (out:
 * n_channels × n_samples, Σ_b band_scale[b] × band b). Energy
 * normalisation is per pulse (its bin's), so that a renderer's filter of
 * unit energy keeps the bin's energy. Fails as rw_rays_synthesise and as
 * render. */
bool rw_rays_synthesise_render (const RwRayResult *hist, double fs_hz, size_t n_samples,
                                double max_density, uint64_t seed, int n_channels,
                                RwRayRenderFn render, void *data,
                                const double band_scale[RW_N_OCTAVES], double *out,
                                double dropped[RW_N_OCTAVES], RwError *err);
