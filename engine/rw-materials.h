/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-materials.h — the material library and the reflection factor of each
 * surface.
 *
 * data/materials.json holds common room materials with octave-band
 * absorption coefficients α (63 Hz … 8 kHz) and the published source of
 * each row. The solver's boundaries are frequency independent (DESIGN §2),
 * so each surface gets one reflection factor R from one band value of α
 * (the random-incidence α of the tables, converted through Paris' formula:
 * rw_reflection_from_statistical_alpha); rw_material_alpha_for_fmax() says
 * how the band value is chosen.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include "rw-admittance.h"
#include "rw-error.h"
#include "rw-mesh.h"

#define RW_N_OCTAVES 8
extern const double rw_octave_centres_hz[RW_N_OCTAVES];  /* 63, 125, …, 8000 */

typedef struct {
  char *name;
  char *category;
  double alpha[RW_N_OCTAVES];
  char *source;               /* published reference of the row */
  bool extrapolated[RW_N_OCTAVES];  /* band copied from its neighbour, not in the source */
  /* Random-incidence scattering coefficient s per band (ISO 17497-1: the
     part of the reflected energy not reflected specularly), for the ray
     tracer (rw-rays.h). A row's "scattering" list needs its
     "scattering_source"; a row without one gets the library's
     "scattering_default" (RW_MATERIAL_DEFAULT_SCATTERING in every band
     when the file gives none), and scattering_default is set so that it
     can be shown as such. */
  double scattering[RW_N_OCTAVES];
  bool scattering_default;
  char *scattering_source;          /* NULL when scattering_default */
} RwMaterial;

/* The scattering a material without a published value gets when the
 * library names no "scattering_default": a plane, smooth surface's order
 * (ODEON's and Vorländer's advice for "smooth" surfaces is 0.05–0.1). */
#define RW_MATERIAL_DEFAULT_SCATTERING 0.10

typedef struct {
  size_t n;
  RwMaterial *items;
} RwMaterialLibrary;

/* path NULL → the bundled data/materials.json (rw_data_path()). */
RwMaterialLibrary *rw_materials_load (const char *path, RwError *err);
void rw_materials_free (RwMaterialLibrary *lib);
const RwMaterial *rw_materials_find (const RwMaterialLibrary *lib, const char *name);

/* The single α that stands for the material in a band-limited simulation
 * valid up to fmax_hz: the mean of α over the octave bands whose centre is
 * ≤ fmax_hz (the 63 Hz band alone below 125 Hz). Why, and the trade-off:
 * rw-materials.c and docs/IMPORT.md. */
double rw_material_alpha_for_fmax (const RwMaterial *m, double fmax_hz);
double rw_reflection_from_alpha (double alpha);   /* normal incidence: √(1 − α) */
/* Random-incidence absorption of a locally reacting surface of real
 * specific impedance ζ (Paris / Kuttruff), and its inverse: the R (normal
 * incidence) of the surface whose diffuse-field absorption is α. Library
 * rows and map-file "alpha" values are random-incidence coefficients and go
 * through the latter. α above ≈ 0.951 (the most a real impedance absorbs
 * in a diffuse field) gives that maximum's R ≈ 0.221. */
double rw_statistical_absorption (double zeta);
double rw_reflection_from_statistical_alpha (double alpha);
/* The random-incidence α of a surface of normal-incidence reflection
 * factor R (0 for R ≥ 1 or R ≤ −1): the inverse of the above, for showing α
 * beside an R typed by the user. */
double rw_statistical_alpha_from_reflection (double R);
double rw_admittance_from_reflection (double R);  /* β = (1 − R)/(1 + R) */

/* One R per surface of `mesh`. Precedence: uniform_R when finite (the
 * --reflection option); else the map file (JSON object: surface name →
 * material name, or {"R": r}, or {"alpha": a}), when map_path is not NULL;
 * else the surface's model material name (mesh->surface_materials) or,
 * failing that, its surface name matching a library material; else the default
 * material ("plaster on masonry" style, named in the .c). Writes
 * R_out[n_surfaces] and, when material_out is not NULL, a newly allocated
 * name per surface (free each and the array). A map naming an unknown
 * surface or material fails with the file and the name. */
bool rw_materials_assign (const RwMaterialLibrary *lib, const RwMesh *mesh,
                          const char *map_path, double uniform_R, double fmax_hz,
                          double *R_out, char ***material_out, RwError *err);

/* A surface's frequency-dependent model: the admittance the FV boundary
 * uses (rw-admittance.h), fitted to the surface's random-incidence α per
 * octave band (alpha_target: the library row, the map file's "alpha"
 * list or number, or the α of a measured impedance; for an R given as
 * such, the statistical α of that R in every band), and the fit's report
 * (model α per band, random and normal incidence, errors). */
typedef struct {
  RwAdmittance Y;
  double alpha_target[RW_N_OCTAVES];
  RwFitReport fit;
  /* the surface's scattering per band for the geometrical part (rw-ga.h):
   * its library material's, a map file's "scattering", or
   * RW_MATERIAL_DEFAULT_SCATTERING flagged as scattering_default */
  double scattering[RW_N_OCTAVES];
  bool scattering_default;
} RwSurfaceModel;

/* The model of a frequency-independent surface of reflection factor R
 * (--reflection, {"R": r}): Y0 = (1 − R)/(1 + R), no branch, the
 * statistical α of R in every band. */
void rw_surface_model_from_R (double R, RwSurfaceModel *out);
/* The model's scattering for the geometrical part: the material's
 * (material may be NULL), or RW_MATERIAL_DEFAULT_SCATTERING in every band,
 * flagged as scattering_default. */
void rw_surface_model_set_scattering (RwSurfaceModel *m, const RwMaterial *material);

/* rw_materials_assign, and the model of every surface: models_out
 * (n_surfaces, may be NULL). Library materials and map-file α are fitted
 * over n_bands_fit octave bands from 63 Hz (1 … 8), or when it is 0 over
 * the bands up to fmax_hz and one beyond (rw_admittance_bands_for_fmax);
 * a full-band (hybrid) run fits all eight, so that its wave and
 * geometrical parts share one model. The map file also takes
 * {"alpha": [a63, a125, …, a8k]} (eight bands; a single number means every
 * band) and {"impedance_csv": "file.csv"} (a path relative to the map
 * file's folder; rw_admittance_fit_csv). An R (--reflection, {"R": r})
 * is the frequency-independent surface of that R. R_out keeps one
 * frequency-independent R per surface (for the LRS and Savioja forms and
 * for display): the α of the bands up to fmax averaged
 * (rw_material_alpha_for_fmax), for a CSV the fitted model's. A map
 * entry given as an object may add "scattering": s or [s63 … s8k] (in
 * [0, 1]); without it the surface takes the default, flagged. */
bool rw_materials_assign_models (const RwMaterialLibrary *lib, const RwMesh *mesh,
                                 const char *map_path, double uniform_R, double fmax_hz,
                                 int n_bands_fit, double *R_out, RwSurfaceModel *models_out,
                                 char ***material_out, RwError *err);

/* The library material a surface name matches (the rule of
 * rw_materials_assign: exact, then word prefix, then longest whole-word
 * material name inside the surface name; case, '_', '-', '.' and a
 * trailing ".001" ignored), or NULL. */
const RwMaterial *rw_materials_match (const RwMaterialLibrary *lib, const char *surface_name);
/* The material a surface falls back to when nothing else assigns one. */
const char *rw_materials_default_name (void);

/* Locates data files: $ROOMWAVE_DATA_DIR, then the source tree's data/
 * (uninstalled build), then the installed data dir. Returns a newly
 * allocated path of `relative` (e.g. "materials.json"), or NULL. */
char *rw_data_path (const char *relative);
