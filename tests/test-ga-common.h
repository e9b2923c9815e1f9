/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-ga-common.h — helpers shared by the geometrical-acoustics tests:
 * a room (mesh, Embree scene, one admittance and one scattering
 * coefficient for every surface and band) and T30 of an energy signal. */
#pragma once

#include <stdlib.h>

#include "rw-admittance.h"
#include "rw-analysis.h"
#include "rw-ga-scene.h"
#include "rw-materials.h"
#include "rw-mesh.h"
#include "rw-shapes.h"
#include "rw-test.h"

typedef struct {
  RwMesh *mesh;
  RwGaScene *scene;
  size_t ns;              /* surfaces */
  RwAdmittance *Y;        /* ns */
  double *sc;             /* ns × RW_N_OCTAVES */
} GaRoom;

/* Takes mesh (may be NULL: fails); every surface gets Y and scattering s.
 * False (a failed check) when the scene cannot be built. */
static inline bool
ga_room_init (GaRoom *r, RwMesh *mesh, RwAdmittance Y, double s)
{
  RwError err = { 0 };
  r->mesh = mesh;
  r->scene = mesh ? rw_ga_scene_new (mesh, &err) : NULL;
  RW_CHECK (r->scene != NULL, "scene: %s", err.message);
  r->ns = mesh ? mesh->n_surfaces : 0;
  r->Y = calloc (r->ns ? r->ns : 1, sizeof *r->Y);
  r->sc = calloc ((r->ns ? r->ns : 1) * RW_N_OCTAVES, sizeof *r->sc);
  for (size_t i = 0; i < r->ns; i++)
    r->Y[i] = Y;
  for (size_t i = 0; i < r->ns * RW_N_OCTAVES; i++)
    r->sc[i] = s;
  return r->scene != NULL;
}

/* The concert-hall-like room of ga-threads and ga-cancel: 24 × 16 × 10 m
 * with 12 facets, R and scattering differing per surface and band (and
 * scattering per band). */
static inline bool
ga_room_hall (GaRoom *r)
{
  if (!ga_room_init (r, rw_shape_hall (24.0, 16.0, 10.0, 12), rw_admittance_real (0.9), 0.0))
    return false;
  for (size_t s = 0; s < r->ns; s++)
    {
      r->Y[s] = rw_admittance_real (0.95 - 0.02 * (double) s);
      for (int b = 0; b < RW_N_OCTAVES; b++)
        r->sc[s * RW_N_OCTAVES + b] = 0.05 + 0.1 * b + 0.01 * (double) s;
    }
  return true;
}

static inline void
ga_room_free (GaRoom *r)
{
  free (r->Y);
  free (r->sc);
  rw_ga_scene_free (r->scene);
  rw_mesh_free (r->mesh);
}

/* T30 (−5 … −35 dB of the Schroeder integral) of an energy signal at
 * rate_hz; NAN when absent. */
static inline double
ga_t30_of (const double *e, size_t n, double rate_hz)
{
  RwError err = { 0 };
  double *edc = malloc (n * sizeof *edc);
  RwNoiseEstimate est = { .noise_found = false, .noise_level_db = -INFINITY, .truncation = n,
                          .truncation_s = (double) n / rate_hz, .correction = 0 };
  const size_t n_edc = rw_schroeder_decay (e, n, rate_hz, &est, edc, &err);
  RwDecayFit fit;
  rw_decay_fit (edc, n_edc, rate_hz, -5, -35, &fit);
  free (edc);
  return n_edc > 0 ? fit.value_s : NAN;
}
