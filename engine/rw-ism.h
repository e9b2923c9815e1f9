/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-ism.h — image sources on an arbitrary triangle mesh (issue #12, the
 * early part of the geometrical-acoustics IR; docs/GEOMETRICAL.md).
 *
 * Method (Allen & Berkley 1979 for the shoebox; Borish, "Extension of the
 * image model to arbitrary polyhedra", JASA 75(6), 1984, for any room):
 *
 * 1. Faces: the mesh's triangles are grouped into planar faces: every
 *    triangle whose plane agrees with a face's (normals within
 *    RW_ISM_PLANE_COS of each other, vertices within RW_ISM_PLANE_TOL of
 *    the bounding-box diagonal from the plane) and whose orientation is
 *    the same belongs to it, adjacent or not, whatever its surface. A face
 *    is one mirror plane: a floor drawn as 200 triangles is one image.
 * 2. Tree: the source is mirrored over every face, each image again over
 *    every face, up to max_order. Skipped: the face just mirrored over
 *    (its image would be the parent's parent), and a face whose air side
 *    (the side its normal points away from, rw-ga-scene.h) the image to
 *    mirror is not on: no sound from it reaches that face's front.
 * 3. Validation, backward from the receiver (each candidate independently,
 *    in parallel): the segment from the receiver (then from each
 *    reflection point) to the image of the last remaining reflection must
 *    cross that face's plane between its ends, Embree's first hit along it
 *    must be a triangle of that face (the reflection point lies on the
 *    face, and nothing stands before it), and the last segment, from the
 *    first reflection point to the source, must be clear.
 *
 * Amplitude: each reflection multiplies the pressure by the locally
 * reacting plane-wave reflection factor at its incidence angle θ,
 * R(θ) = (cos θ − Y)/(cos θ + Y), Y the surface's normalised admittance
 * (rw-admittance.h, the model the wave solver runs) evaluated at the
 * octave band's nominal centre frequency (rw_octave_centres_hz); spherical
 * spreading gives 1/r with r the image's distance. The gains are COMPLEX
 * (the phase of R is kept); for a frequency-independent surface Y is real
 * and so is R. A plane-wave factor on a spherical wave is the image
 * model's usual approximation: good where kr ≫ 1 and away from grazing,
 * i.e. above a crossover, which is where it is used.
 *
 * Progress and cancel (settings.progress, settings.cancel; the solver's
 * interface, rw-solver.h): while the candidates are validated, a report of
 * those validated (step) of all (n_steps), part RW_PROGRESS_GEOMETRICAL,
 * solver NULL, at most every 0.1 s from the calling thread only (OpenMP
 * thread 0), and one of fraction 1 at the end; building the tree reports
 * nothing (its size is known only at its end) but reads the flag at every
 * image it mirrors. A cancel (the flag, or the callback answering false)
 * fails with RW_ERROR_CANCELLED. Neither changes a result.
 *
 * Not modelled here: air absorption (applied to the whole IR afterwards,
 * as for the wave part), diffraction, scattering (the ray tracer's part).
 */
#pragma once

#ifndef __cplusplus
#include <complex.h>
#endif
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rw-admittance.h"
#include "rw-error.h"
#include "rw-ga-scene.h"
#include "rw-materials.h"   /* RW_N_OCTAVES, rw_octave_centres_hz */
#include "rw-solver.h"      /* RwProgressFn */

#define RW_ISM_DEFAULT_ORDER 3
#define RW_ISM_MAX_ORDER 10
/* Image sources kept after culling, at most (≈ 40 bytes each): an order
 * that would pass it fails with a message instead of running for hours. */
#define RW_ISM_MAX_CANDIDATES ((size_t) 1 << 21)
/* Coplanarity of two triangles: cosine between their normals, and vertex
 * distance from the face's plane relative to the bounding-box diagonal. */
#define RW_ISM_PLANE_COS (1.0 - 1e-8)
#define RW_ISM_PLANE_TOL 1e-6

typedef struct {
  int max_order;            /* 0 (direct sound only) … RW_ISM_MAX_ORDER */
  double speed_of_sound;    /* m/s, > 0 */
  int threads;              /* OpenMP threads; 0: OpenMP's default */
  RwProgressFn progress;    /* may be NULL (above) */
  void *progress_data;
  const atomic_int *cancel; /* may be NULL (above) */
} RwIsmSettings;

/* max_order RW_ISM_DEFAULT_ORDER, c at RW_DEFAULT_TEMPERATURE_C, threads 0,
 * no progress, no cancel flag. */
void rw_ism_settings_init (RwIsmSettings *s);

/* A planar face (step 1). */
typedef struct {
  double normal[3];         /* unit, away from the air */
  double offset;            /* normal · x on the plane */
  size_t n_triangles;
  double area_m2;
  uint32_t first_triangle;
} RwIsmFace;

/* The faces of the scene's mesh, in the order of their first triangle;
 * face_of_triangle (may be NULL; else mesh->n_triangles entries) gets
 * each triangle's face, UINT32_MAX for a degenerate one. *faces is
 * malloc'd. False only when memory runs out. */
bool rw_ism_faces (const RwGaScene *scene, RwIsmFace **faces, size_t *n_faces,
                   uint32_t *face_of_triangle, RwError *err);

typedef struct {
  int order;                                  /* reflections, 0 = direct sound */
  double distance_m;                          /* path length = |image − receiver| */
  double delay_s;                             /* distance / c */
  double direction[3];                        /* unit, from the receiver towards
                                                 where the sound comes from (the
                                                 last reflection point, or the
                                                 source): (image − receiver)/r */
  double image[3];                            /* the image source */
  /* reflection j = 0 … order − 1 in the order the sound meets them
     (source side first): */
  uint32_t surfaces[RW_ISM_MAX_ORDER];        /* surface of the triangle hit */
  uint32_t faces[RW_ISM_MAX_ORDER];           /* face (rw_ism_faces) */
  double points[RW_ISM_MAX_ORDER][3];         /* reflection point */
  double cos_incidence[RW_ISM_MAX_ORDER];     /* cos θ_j, in (0, 1] */
#ifndef __cplusplus
  double complex gain[RW_N_OCTAVES];          /* Π_j R_b(θ_j) / r, pressure, per
                                                 octave band 63 Hz … 8 kHz */
#else
  double gain[RW_N_OCTAVES][2];
#endif
} RwIsmArrival;

typedef struct {
  RwIsmArrival *arrivals;   /* malloc'd; sorted by delay, then order, then
                               surfaces, then faces (lexicographic) */
  size_t n_arrivals;
  size_t n_faces;
  size_t n_candidates;      /* image sources tested (after culling), direct included */
} RwIsmResult;

/* The image sources of source src heard at receiver rcv (metres) in the
 * scene, up to settings->max_order. surface_Y: n_surfaces admittances,
 * one per surface id of the mesh (at least mesh->n_surfaces, each
 * rw_admittance_check'ed). The result does not depend on the thread
 * count: candidates are validated independently and collected in tree
 * order before the sort. Fails with RW_ERROR_INPUT on: order outside
 * 0 … RW_ISM_MAX_ORDER, c not > 0, a position not finite or outside the
 * room (rw_mesh_point_inside), source and receiver closer than 1 mm, a
 * missing or bad admittance, too many candidates (RW_ISM_MAX_CANDIDATES);
 * RW_ERROR_MEMORY; RW_ERROR_CANCELLED. *out is cleared first; free with rw_ism_result_clear. */
bool rw_ism_compute (const RwGaScene *scene, const RwAdmittance *surface_Y, size_t n_surfaces,
                     const double src[3], const double rcv[3], const RwIsmSettings *settings,
                     RwIsmResult *out, RwError *err);
void rw_ism_result_clear (RwIsmResult *r);

#ifndef __cplusplus
/* A band's gain as the renderers take it: |gain| with the sign of
 * Re gain (rw_ism_render below). */
static inline double
rw_ism_real_gain (double complex g)
{
  return cabs (g) * (creal (g) < 0.0 ? -1.0 : 1.0);
}
#endif

/* Half-width of the rendering kernel, samples. */
#define RW_ISM_RENDER_HALF_WIDTH 32

/* Renders arrivals as per-band impulse responses at fs_hz: ir holds
 * RW_N_OCTAVES × n_samples values, band b at ir[b · n_samples …], sample
 * i at time i/fs (time 0 = the source's impulse, as the wave part's IR,
 * docs/PHYSICS.md §2). Each arrival is a fractionally delayed unit pulse
 * at delay·fs: a Hann-windowed sinc of half-width RW_ISM_RENDER_HALF_WIDTH
 * (cut-off at Nyquist; exact single sample at integer delays; taps
 * normalised to sum to 1), times the band's gain as a real number:
 * |gain| with the sign of Re gain (the phase of a complex R beyond its
 * sign is dropped; the energy is kept). Calibration as the wave part
 * (docs/PHYSICS.md §4): the samples of an arrival sum to its gain, so the
 * direct sound at r has area 1/r (1 at 1 m). Taps outside 0 … n_samples−1
 * are dropped. Fails with RW_ERROR_INPUT on fs not > 0, n_samples 0, ir
 * NULL. ir is overwritten. */
bool rw_ism_render (const RwIsmArrival *arrivals, size_t n_arrivals, double fs_hz,
                    size_t n_samples, double *ir, RwError *err);
