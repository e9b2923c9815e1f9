/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-materials.c — the material library (data/materials.json) and the
 * reflection factor of each surface.
 *
 * The one number per surface. The solver's boundaries are frequency
 * independent (DESIGN §2), so a material's octave-band α must become one
 * α. We take the mean of α over the octave bands whose nominal centre is
 * at or below fmax (63 Hz … 1 kHz for a 1 kHz simulation; only the 63 Hz
 * band when fmax is below 125 Hz). α is an energy fraction, so its
 * arithmetic mean is the fraction of energy absorbed per reflection by a
 * signal with equal energy in each octave (pink noise), over exactly the
 * range the simulation is valid for: the broadband decay of the simulated
 * range comes out right. The trade-off: a material whose α rises with
 * frequency (carpet, curtains) absorbs too much in the low bands of the
 * simulation and too little in its top band, so per-band reverberation
 * times are flattened towards their mean; a frequency-dependent boundary
 * would be needed to do better. Alternatives rejected: the 500 Hz value
 * (the classic single number, but blind to fmax) and the top band's value
 * (overstates low-frequency absorption for porous materials).
 *
 * Surface → material (rw_materials_assign): a uniform R, else the map
 * file, else a name match (of the model's material name of the surface,
 * RwMesh.surface_materials, then of the surface name), else
 * RW_DEFAULT_MATERIAL. Name matching
 * normalises both names (lower case; '_', '-', '.' as spaces; a trailing
 * Blender-style ".001" dropped; spaces collapsed) and takes, in order:
 * the material of the same name; the first material whose name begins
 * with the surface name as whole words ("carpet" → "carpet on concrete");
 * the longest material name found in the surface name as whole words
 * ("north wall plaster" → "plaster").
 */
#include "rw-materials.h"
#include "rw-i18n.h"
#include "rw-config.h"
#include "rw-json.h"

#include <ctype.h>
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const double rw_octave_centres_hz[RW_N_OCTAVES] = { 63, 125, 250, 500, 1000, 2000, 4000, 8000 };

/* Smooth plaster on masonry: a hard, common wall finish. A surface nobody
 * named gets a reflective default, so that a forgotten surface shows up as
 * too long a reverberation rather than as silently missing absorption. */
#define RW_DEFAULT_MATERIAL "plaster"

/* ---- data path ---------------------------------------------------------- */

static char *
join_if_readable (const char *dir, const char *relative)
{
  if (dir == NULL || *dir == '\0')
    return NULL;
  size_t n = strlen (dir) + strlen (relative) + 2;
  char *p = malloc (n);
  if (p == NULL)
    return NULL;
  snprintf (p, n, "%s/%s", dir, relative);
  if (access (p, R_OK) == 0)
    return p;
  free (p);
  return NULL;
}

char *
rw_data_path (const char *relative)
{
  if (relative == NULL)
    return NULL;
  char *p = join_if_readable (getenv ("ROOMWAVE_DATA_DIR"), relative);
  if (p == NULL)
    p = join_if_readable (RW_SOURCE_DATA_DIR, relative);
  if (p == NULL)
    p = join_if_readable (RW_INSTALL_DATA_DIR, relative);
  return p;
}

/* ---- library ------------------------------------------------------------ */

static bool get_number (struct json_object *o, double *out);

/* A list of RW_N_OCTAVES numbers in [0, 1] (63 Hz … 8 kHz) into out. */
static bool
read_band_list (struct json_object *v, double out[RW_N_OCTAVES])
{
  if (!json_object_is_type (v, json_type_array) || json_object_array_length (v) != RW_N_OCTAVES)
    return false;
  for (size_t b = 0; b < RW_N_OCTAVES; b++)
    if (!get_number (json_object_array_get_idx (v, b), &out[b]) || !(out[b] >= 0)
        || !(out[b] <= 1))
      return false;
  return true;
}

void
rw_materials_free (RwMaterialLibrary *lib)
{
  if (lib == NULL)
    return;
  for (size_t i = 0; i < lib->n; i++)
    {
      free (lib->items[i].name);
      free (lib->items[i].category);
      free (lib->items[i].source);
      free (lib->items[i].scattering_source);
    }
  free (lib->items);
  free (lib);
}

static bool
get_number (struct json_object *o, double *out)
{
  if (o == NULL)
    return false;
  enum json_type t = json_object_get_type (o);
  if (t != json_type_double && t != json_type_int)
    return false;
  *out = json_object_get_double (o);
  return isfinite (*out);
}

RwMaterialLibrary *
rw_materials_load (const char *path, RwError *err)
{
  char *found = NULL;
  if (path == NULL)
    {
      found = rw_data_path ("materials.json");
      if (found == NULL)
        {
          rw_fail (err, RW_ERROR_IO,
                   _("materials.json: the material library was not found (set ROOMWAVE_DATA_DIR to the "
                     "folder that holds it)"));
          return NULL;
        }
      path = found;
    }
  RwMaterialLibrary *lib = NULL;
  struct json_object *root = rw_json_parse_file (path, err);
  if (root == NULL)
    goto out;
  struct json_object *version, *mats, *bands;
  if (!json_object_is_type (root, json_type_object))
    {
      rw_fail (err, RW_ERROR_INPUT, _("%s: expected a JSON object with \"version\" and \"materials\""), path);
      goto out;
    }
  if (!json_object_object_get_ex (root, "version", &version) || json_object_get_int (version) != 1)
    {
      rw_fail (err, RW_ERROR_INPUT, _("%s: unsupported or missing \"version\" (this program reads version 1)"),
               path);
      goto out;
    }
  if (json_object_object_get_ex (root, "bands_hz", &bands))
    {
      bool ok = json_object_is_type (bands, json_type_array)
                && json_object_array_length (bands) == RW_N_OCTAVES;
      for (size_t b = 0; ok && b < RW_N_OCTAVES; b++)
        {
          double f;
          ok = get_number (json_object_array_get_idx (bands, b), &f) && f == rw_octave_centres_hz[b];
        }
      if (!ok)
        {
          rw_fail (err, RW_ERROR_INPUT, _("%s: \"bands_hz\" must be [63, 125, 250, 500, 1000, 2000, 4000, 8000]"),
                   path);
          goto out;
        }
    }
  double sc_default[RW_N_OCTAVES];
  for (size_t b = 0; b < RW_N_OCTAVES; b++)
    sc_default[b] = RW_MATERIAL_DEFAULT_SCATTERING;
  struct json_object *scd;
  if (json_object_object_get_ex (root, "scattering_default", &scd)
      && !read_band_list (scd, sc_default))
    {
      rw_fail (err, RW_ERROR_INPUT,
               _("%s: \"scattering_default\" must hold %d numbers in [0, 1] (63 Hz … 8 kHz)"),
               path, RW_N_OCTAVES);
      goto out;
    }
  if (!json_object_object_get_ex (root, "materials", &mats) || !json_object_is_type (mats, json_type_array))
    {
      rw_fail (err, RW_ERROR_INPUT, _("%s: \"materials\" must be an array"), path);
      goto out;
    }
  size_t n = json_object_array_length (mats);
  lib = calloc (1, sizeof *lib);
  if (lib == NULL || (n > 0 && (lib->items = calloc (n, sizeof *lib->items)) == NULL))
    {
      rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory"), path);
      goto fail;
    }
  for (size_t i = 0; i < n; i++)
    {
      struct json_object *m = json_object_array_get_idx (mats, i), *v;
      RwMaterial *it = &lib->items[lib->n];
      if (!json_object_is_type (m, json_type_object) || !json_object_object_get_ex (m, "name", &v)
          || !json_object_is_type (v, json_type_string) || json_object_get_string_len (v) == 0)
        {
          rw_fail (err, RW_ERROR_INPUT, _("%s: material %zu has no \"name\""), path, i + 1);
          goto fail;
        }
      const char *name = json_object_get_string (v);
      if (rw_materials_find (lib, name) != NULL)
        {
          rw_fail (err, RW_ERROR_INPUT, _("%s: material \"%s\" appears twice"), path, name);
          goto fail;
        }
      if (!json_object_object_get_ex (m, "alpha", &v) || !json_object_is_type (v, json_type_array)
          || json_object_array_length (v) != RW_N_OCTAVES)
        {
          rw_fail (err, RW_ERROR_INPUT, _("%s: material \"%s\": \"alpha\" must hold %d numbers (63 Hz … 8 kHz)"),
                   path, name, RW_N_OCTAVES);
          goto fail;
        }
      double alpha[RW_N_OCTAVES];
      for (size_t b = 0; b < RW_N_OCTAVES; b++)
        if (!get_number (json_object_array_get_idx (v, b), &alpha[b]) || alpha[b] < 0 || alpha[b] > 1)
          {
            rw_fail (err, RW_ERROR_INPUT, _("%s: material \"%s\": alpha at %g Hz must be a number in [0, 1]"),
                     path, name, rw_octave_centres_hz[b]);
            goto fail;
          }
      const char *source = NULL, *category = "";
      if (json_object_object_get_ex (m, "source", &v) && json_object_is_type (v, json_type_string))
        source = json_object_get_string (v);
      if (source == NULL || *source == '\0')
        {
          rw_fail (err, RW_ERROR_INPUT, _("%s: material \"%s\" has no \"source\" (every row needs its reference)"),
                   path, name);
          goto fail;
        }
      if (json_object_object_get_ex (m, "category", &v) && json_object_is_type (v, json_type_string))
        category = json_object_get_string (v);
      memset (it->extrapolated, 0, sizeof it->extrapolated);
      if (json_object_object_get_ex (m, "extrapolated_bands", &v) && json_object_is_type (v, json_type_array))
        for (size_t k = 0; k < json_object_array_length (v); k++)
          {
            double f = -1;
            get_number (json_object_array_get_idx (v, k), &f);
            bool known = false;
            for (size_t b = 0; b < RW_N_OCTAVES; b++)
              if (f == rw_octave_centres_hz[b])
                known = it->extrapolated[b] = true;
            if (!known)
              {
                rw_fail (err, RW_ERROR_INPUT, _("%s: material \"%s\": \"extrapolated_bands\" names no octave band"),
                         path, name);
                goto fail;
              }
          }
      const char *sc_source = NULL;
      if (json_object_object_get_ex (m, "scattering", &v))
        {
          if (!read_band_list (v, it->scattering))
            {
              rw_fail (err, RW_ERROR_INPUT,
                       _("%s: material \"%s\": \"scattering\" must hold %d numbers in [0, 1] "
                         "(63 Hz … 8 kHz)"), path, name, RW_N_OCTAVES);
              goto fail;
            }
          struct json_object *w;
          if (json_object_object_get_ex (m, "scattering_source", &w)
              && json_object_is_type (w, json_type_string))
            sc_source = json_object_get_string (w);
          if (sc_source == NULL || *sc_source == '\0')
            {
              rw_fail (err, RW_ERROR_INPUT,
                       _("%s: material \"%s\": \"scattering\" has no \"scattering_source\" "
                         "(every value needs its reference)"), path, name);
              goto fail;
            }
          it->scattering_default = false;
          it->scattering_source = strdup (sc_source);
        }
      else
        {
          memcpy (it->scattering, sc_default, sizeof sc_default);
          it->scattering_default = true;
          it->scattering_source = NULL;
        }
      it->name = strdup (name);
      it->category = strdup (category);
      it->source = strdup (source);
      memcpy (it->alpha, alpha, sizeof alpha);
      lib->n++;
      if (it->name == NULL || it->category == NULL || it->source == NULL
          || (sc_source != NULL && it->scattering_source == NULL))
        {
          rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory"), path);
          goto fail;
        }
    }
  if (lib->n == 0)
    {
      rw_fail (err, RW_ERROR_INPUT, _("%s: the library holds no materials"), path);
      goto fail;
    }
  goto out;

fail:
  rw_materials_free (lib);
  lib = NULL;
out:
  if (root)
    json_object_put (root);
  free (found);
  return lib;
}

/* ---- names -------------------------------------------------------------- */

/* Lower case, '_' '-' '.' as spaces, a trailing ".NNN" (Blender's copy
 * suffix) dropped, spaces collapsed and trimmed. */
static void
normalise (const char *in, char *out, size_t size)
{
  char tmp[512];
  snprintf (tmp, sizeof tmp, "%s", in);
  size_t len = strlen (tmp);
  size_t d = len;
  while (d > 0 && isdigit ((unsigned char) tmp[d - 1]))
    d--;
  if (d > 0 && d < len && tmp[d - 1] == '.')
    tmp[d - 1] = '\0';
  size_t o = 0;
  bool space = true;   /* drops leading spaces */
  for (const char *p = tmp; *p && o + 1 < size; p++)
    {
      char c = (char) tolower ((unsigned char) *p);
      if (c == '_' || c == '-' || c == '.' || isspace ((unsigned char) c))
        c = ' ';
      if (c == ' ' && space)
        continue;
      out[o++] = c;
      space = c == ' ';
    }
  while (o > 0 && out[o - 1] == ' ')
    o--;
  out[o] = '\0';
}

const RwMaterial *
rw_materials_find (const RwMaterialLibrary *lib, const char *name)
{
  if (lib == NULL || name == NULL)
    return NULL;
  for (size_t i = 0; i < lib->n; i++)
    if (lib->items[i].name && strcasecmp (lib->items[i].name, name) == 0)
      return &lib->items[i];
  return NULL;
}

/* Is `needle` in `hay` as whole words? */
static bool
contains_words (const char *hay, const char *needle)
{
  size_t n = strlen (needle);
  if (n == 0)
    return false;
  for (const char *p = strstr (hay, needle); p; p = strstr (p + 1, needle))
    if ((p == hay || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
      return true;
  return false;
}

/* The name rule of the file comment; NULL when nothing matches. */
static const RwMaterial *
match_surface_name (const RwMaterialLibrary *lib, const char *surface)
{
  char s[512], m[512];
  normalise (surface, s, sizeof s);
  if (s[0] == '\0')
    return NULL;
  for (size_t i = 0; i < lib->n; i++)
    {
      normalise (lib->items[i].name, m, sizeof m);
      if (strcmp (s, m) == 0)
        return &lib->items[i];
    }
  size_t ls = strlen (s);
  for (size_t i = 0; i < lib->n; i++)
    {
      normalise (lib->items[i].name, m, sizeof m);
      if (strncmp (m, s, ls) == 0 && m[ls] == ' ')
        return &lib->items[i];
    }
  const RwMaterial *best = NULL;
  size_t best_len = 0;
  for (size_t i = 0; i < lib->n; i++)
    {
      normalise (lib->items[i].name, m, sizeof m);
      size_t lm = strlen (m);
      if (lm > best_len && contains_words (s, m))
        {
          best = &lib->items[i];
          best_len = lm;
        }
    }
  return best;
}

/* ---- physics ------------------------------------------------------------ */

double
rw_material_alpha_for_fmax (const RwMaterial *m, double fmax_hz)
{
  if (m == NULL)
    return 0.0;
  double sum = 0;
  int n = 0;
  for (int b = 0; b < RW_N_OCTAVES; b++)
    if (rw_octave_centres_hz[b] <= fmax_hz || b == 0)
      {
        sum += m->alpha[b];
        n++;
      }
  return sum / n;
}

double
rw_reflection_from_alpha (double alpha)
{
  /* Normal-incidence plane-wave relation |R|² = 1 − α (real, positive R). */
  if (!(alpha > 0))
    return 1.0;
  if (alpha >= 1)
    return 0.0;
  return sqrt (1.0 - alpha);
}

/* Statistical (random-incidence) absorption of a locally reacting surface
 * with real specific impedance ζ (Paris' integral in closed form;
 * Kuttruff, Room Acoustics, eq. 2.42 with zero reactance). */
double
rw_statistical_absorption (double zeta)
{
  if (!(zeta > 0))
    return 0.0;
  return 8.0 / zeta * (1.0 + 1.0 / (1.0 + zeta) - 2.0 / zeta * log1p (zeta));
}

/* α_st(ζ) peaks at ζ ≈ 1.567 (α_st ≈ 0.951) and falls monotonically
 * towards 0 as ζ grows; the branch ζ ≥ ζ_peak is the one with R ≥ 0.2. */
#define RW_ZETA_PEAK 1.5671

double
rw_reflection_from_statistical_alpha (double alpha)
{
  /* Material tables give random-incidence absorption measured in a
   * reverberation room (ISO 354), not normal-incidence α. The solver's
   * boundary is locally reacting with a real admittance, whose diffuse-field
   * absorption is α_st(ζ): so solve α_st(ζ) = α and take the normal-
   * incidence R = (ζ − 1)/(ζ + 1) of that surface. Using R = √(1 − α)
   * instead would make every surface absorb 1.5–1.75× what the table says
   * in a diffuse field (T30 some 40 % short). Above the peak of α_st no real
   * impedance absorbs that much: the surface gets the peak value. */
  if (!(alpha > 0))
    return 1.0;
  double peak = rw_statistical_absorption (RW_ZETA_PEAK);
  if (alpha >= peak)
    return (RW_ZETA_PEAK - 1.0) / (RW_ZETA_PEAK + 1.0);
  double lo = RW_ZETA_PEAK, hi = 1e12;
  for (int i = 0; i < 200; i++)
    {
      double mid = sqrt (lo * hi);   /* geometric: ζ spans many decades */
      if (rw_statistical_absorption (mid) > alpha)
        lo = mid;
      else
        hi = mid;
    }
  double zeta = sqrt (lo * hi);
  return (zeta - 1.0) / (zeta + 1.0);
}

double
rw_statistical_alpha_from_reflection (double R)
{
  if (!(R < 1.0) || !(R > -1.0))
    return 0.0;
  return rw_statistical_absorption ((1.0 + R) / (1.0 - R));
}

double
rw_admittance_from_reflection (double R)
{
  /* Specific admittance of a locally reacting surface at normal incidence:
   * R = (1 − β)/(1 + β) ⇔ β = (1 − R)/(1 + R). R = −1 (pressure release)
   * has infinite admittance. */
  if (R <= -1)
    return INFINITY;
  return (1.0 - R) / (1.0 + R);
}

/* ---- assignment --------------------------------------------------------- */

static char *
printf_dup (const char *fmt, double v)
{
  char buf[64];
  snprintf (buf, sizeof buf, fmt, v);
  return strdup (buf);
}

static void
free_names (char **names, size_t n)
{
  if (names == NULL)
    return;
  for (size_t i = 0; i < n; i++)
    free (names[i]);
  free (names);
}

static long
find_surface (const RwMesh *mesh, const char *name)
{
  for (size_t s = 0; s < mesh->n_surfaces; s++)
    if (strcmp (mesh->surface_names[s], name) == 0)
      return (long) s;
  for (size_t s = 0; s < mesh->n_surfaces; s++)
    if (strcasecmp (mesh->surface_names[s], name) == 0)
      return (long) s;
  return -1;
}

/* The model of a surface from its band α (fitted) or its R. */
static bool
model_from_alpha (const double alpha[RW_N_OCTAVES], int n_bands, RwSurfaceModel *m, RwError *err)
{
  memcpy (m->alpha_target, alpha, sizeof m->alpha_target);
  return rw_admittance_fit_alpha (alpha, n_bands, &m->Y, &m->fit, err);
}

void
rw_surface_model_set_scattering (RwSurfaceModel *m, const RwMaterial *mat)
{
  m->scattering_default = mat == NULL || mat->scattering_default;
  for (int b = 0; b < RW_N_OCTAVES; b++)
    m->scattering[b] = mat != NULL ? mat->scattering[b] : RW_MATERIAL_DEFAULT_SCATTERING;
}

/* A map entry's optional "scattering": one number or eight, in [0, 1]. */
static bool
map_scattering (const char *map_path, const char *key, struct json_object *val, RwSurfaceModel *m,
                RwError *err)
{
  struct json_object *sc;
  rw_surface_model_set_scattering (m, NULL);
  if (!json_object_object_get_ex (val, "scattering", &sc))
    return true;
  double x;
  if (json_object_is_type (sc, json_type_array) && json_object_array_length (sc) == RW_N_OCTAVES)
    {
      for (int b = 0; b < RW_N_OCTAVES; b++)
        if (!get_number (json_object_array_get_idx (sc, (size_t) b), &m->scattering[b])
            || m->scattering[b] < 0 || m->scattering[b] > 1)
          return rw_fail (err, RW_ERROR_INPUT,
                          _("%s: surface \"%s\": scattering of band %d (%g Hz) must be a number in "
                            "[0, 1]"), map_path, key, b + 1, rw_octave_centres_hz[b]);
    }
  else if (get_number (sc, &x) && x >= 0 && x <= 1)
    for (int b = 0; b < RW_N_OCTAVES; b++)
      m->scattering[b] = x;
  else
    return rw_fail (err, RW_ERROR_INPUT,
                    _("%s: surface \"%s\": scattering must be a number in [0, 1] or a list of %d "
                      "such numbers"), map_path, key, RW_N_OCTAVES);
  m->scattering_default = false;
  return true;
}

void
rw_surface_model_from_R (double R, RwSurfaceModel *m)
{
  double a = rw_statistical_alpha_from_reflection (R), alpha[RW_N_OCTAVES];
  for (int b = 0; b < RW_N_OCTAVES; b++)
    alpha[b] = a;
  memset (m, 0, sizeof *m);
  m->Y = rw_admittance_real (R);
  memcpy (m->alpha_target, alpha, sizeof alpha);
  m->fit.n_bands_fit = RW_N_OCTAVES;
  rw_surface_model_set_scattering (m, NULL);
  for (int b = 0; b < RW_N_OCTAVES; b++)
    {
      m->fit.target_random[b] = m->fit.model_random[b] = a;
      m->fit.target_normal[b] = m->fit.model_normal[b] = R > -1.0 && R < 1.0 ? 1.0 - R * R : 0.0;
    }
}

/* The mean of band α up to fmax (rw_material_alpha_for_fmax's rule) of an
 * α list. */
static double
alpha_mean_for_fmax (const double alpha[RW_N_OCTAVES], double fmax_hz)
{
  RwMaterial m = { 0 };
  memcpy (m.alpha, alpha, sizeof m.alpha);
  return rw_material_alpha_for_fmax (&m, fmax_hz);
}

/* A path in the map file relative to the map file's folder. */
static char *
map_relative (const char *map_path, const char *file)
{
  if (file[0] == '/')
    return strdup (file);
  const char *slash = strrchr (map_path, '/');
  if (slash == NULL)
    return strdup (file);
  size_t n = (size_t) (slash - map_path) + 1;
  char *out = malloc (n + strlen (file) + 1);
  if (out != NULL)
    {
      memcpy (out, map_path, n);
      strcpy (out + n, file);
    }
  return out;
}

/* One map-file entry (a material name, {"R": r}, {"alpha": a or [8]},
 * {"impedance_csv": file}) → R, label and, when `fit` (the caller wants
 * the models), the model; a CSV is fitted either way (its R is the fit's). */
static bool
map_entry (const RwMaterialLibrary *lib, const char *map_path, const char *key,
           struct json_object *val, double fmax_hz, int n_bands, bool fit, double *R,
           RwSurfaceModel *m, char **label, RwError *err)
{
  if (json_object_is_type (val, json_type_string))
    {
      const RwMaterial *mat = rw_materials_find (lib, json_object_get_string (val));
      if (mat == NULL)
        return rw_fail (err, RW_ERROR_INPUT, _("%s: surface \"%s\": unknown material \"%s\""),
                        map_path, key, json_object_get_string (val));
      *R = rw_reflection_from_statistical_alpha (rw_material_alpha_for_fmax (mat, fmax_hz));
      *label = strdup (mat->name);
      rw_surface_model_set_scattering (m, mat);
      return !fit || model_from_alpha (mat->alpha, n_bands, m, err)
             || rw_fail_prefix (err, _("%s: surface \"%s\""), map_path, key);
    }
  if (!json_object_is_type (val, json_type_object))
    return rw_fail (err, RW_ERROR_INPUT,
                    _("%s: surface \"%s\": expected a material name, {\"R\": r}, {\"alpha\": a} "
                      "or {\"impedance_csv\": \"file.csv\"}"), map_path, key);
  struct json_object *r, *a, *csv;
  const bool has_r = json_object_object_get_ex (val, "R", &r);
  const bool has_a = json_object_object_get_ex (val, "alpha", &a);
  const bool has_csv = json_object_object_get_ex (val, "impedance_csv", &csv);
  if (has_r + has_a + has_csv != 1)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("%s: surface \"%s\": give one of {\"R\": r}, {\"alpha\": a} and "
                      "{\"impedance_csv\": \"file.csv\"}"), map_path, key);
  double x = NAN;
  if (has_r)
    {
      if (!get_number (r, &x) || x < -1 || x > 1)
        return rw_fail (err, RW_ERROR_INPUT, _("%s: surface \"%s\": R must be a number in [-1, 1]"),
                        map_path, key);
      *R = x;
      rw_surface_model_from_R (x, m);
      *label = printf_dup ("R = %g", x);
      return map_scattering (map_path, key, val, m, err);
    }
  if (has_a)
    {
      double alpha[RW_N_OCTAVES];
      if (json_object_is_type (a, json_type_array))
        {
          if (json_object_array_length (a) != RW_N_OCTAVES)
            return rw_fail (err, RW_ERROR_INPUT,
                            _("%s: surface \"%s\": alpha must list %d bands (63 Hz … 8 kHz), not %zu"),
                            map_path, key, RW_N_OCTAVES, json_object_array_length (a));
          for (int b = 0; b < RW_N_OCTAVES; b++)
            if (!get_number (json_object_array_get_idx (a, (size_t) b), &alpha[b]) || alpha[b] < 0
                || alpha[b] > 1)
              return rw_fail (err, RW_ERROR_INPUT,
                              _("%s: surface \"%s\": alpha of band %d (%g Hz) must be a number in "
                                "[0, 1]"), map_path, key, b + 1, rw_octave_centres_hz[b]);
          *label = strdup (_("alpha per band"));
        }
      else
        {
          if (!get_number (a, &x) || x < 0 || x > 1)
            return rw_fail (err, RW_ERROR_INPUT,
                            _("%s: surface \"%s\": alpha must be a number in [0, 1] or a list of "
                              "%d such numbers"), map_path, key, RW_N_OCTAVES);
          for (int b = 0; b < RW_N_OCTAVES; b++)
            alpha[b] = x;
          *label = printf_dup ("alpha = %g", x);
        }
      *R = rw_reflection_from_statistical_alpha (alpha_mean_for_fmax (alpha, fmax_hz));
      if (!map_scattering (map_path, key, val, m, err))
        return false;
      return !fit || model_from_alpha (alpha, n_bands, m, err)
             || rw_fail_prefix (err, _("%s: surface \"%s\""), map_path, key);
    }
  if (!json_object_is_type (csv, json_type_string))
    return rw_fail (err, RW_ERROR_INPUT, _("%s: surface \"%s\": impedance_csv must be a file name"),
                    map_path, key);
  char *path = map_relative (map_path, json_object_get_string (csv));
  if (path == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("out of memory"));
  memset (m, 0, sizeof *m);
  const bool ok = map_scattering (map_path, key, val, m, err)
                  && rw_admittance_fit_csv (path, n_bands, &m->Y, &m->fit, err);
  if (ok)
    {
      for (int b = 0; b < RW_N_OCTAVES; b++)
        m->alpha_target[b] = m->fit.target_random[b];
      double model[RW_N_OCTAVES];
      for (int b = 0; b < RW_N_OCTAVES; b++)
        model[b] = m->fit.model_random[b];
      *R = rw_reflection_from_statistical_alpha (alpha_mean_for_fmax (model, fmax_hz));
      *label = strdup (json_object_get_string (csv));
    }
  else
    rw_fail_prefix (err, _("%s: surface \"%s\""), map_path, key);
  free (path);
  return ok;
}

bool
rw_materials_assign (const RwMaterialLibrary *lib, const RwMesh *mesh,
                     const char *map_path, double uniform_R, double fmax_hz,
                     double *R_out, char ***material_out, RwError *err)
{
  return rw_materials_assign_models (lib, mesh, map_path, uniform_R, fmax_hz, 0, R_out, NULL,
                                     material_out, err);
}

bool
rw_materials_assign_models (const RwMaterialLibrary *lib, const RwMesh *mesh,
                            const char *map_path, double uniform_R, double fmax_hz,
                            int n_bands_fit, double *R_out, RwSurfaceModel *models_out,
                            char ***material_out, RwError *err)
{
  if (mesh == NULL || R_out == NULL || n_bands_fit < 0 || n_bands_fit > RW_N_OCTAVES)
    return rw_fail (err, RW_ERROR_INTERNAL, _("rw_materials_assign: missing argument"));
  size_t n = mesh->n_surfaces;
  const int n_bands = n_bands_fit > 0 ? n_bands_fit : rw_admittance_bands_for_fmax (fmax_hz);
  char **names = NULL;
  RwSurfaceModel scratch;
  if (material_out != NULL)
    {
      *material_out = NULL;
      names = calloc (n ? n : 1, sizeof (char *));
      if (names == NULL)
        return rw_fail (err, RW_ERROR_MEMORY, _("out of memory"));
    }
#define MODEL(s) (models_out != NULL ? &models_out[s] : &scratch)

  if (isfinite (uniform_R))
    {
      if (uniform_R < -1 || uniform_R > 1)
        {
          free (names);
          return rw_fail (err, RW_ERROR_INPUT, _("reflection factor %g is outside [-1, 1]"), uniform_R);
        }
      for (size_t s = 0; s < n; s++)
        {
          R_out[s] = uniform_R;
          rw_surface_model_from_R (uniform_R, MODEL (s));
          if (names && (names[s] = printf_dup ("R = %g", uniform_R)) == NULL)
            goto oom;
        }
      if (material_out)
        *material_out = names;
      return true;
    }

  bool *set = calloc (n ? n : 1, sizeof (bool));
  if (set == NULL)
    goto oom;
  if (map_path != NULL)
    {
      struct json_object *root = rw_json_parse_file (map_path, err);
      if (root == NULL)
        goto fail_set;
      if (!json_object_is_type (root, json_type_object))
        {
          json_object_put (root);
          rw_fail (err, RW_ERROR_INPUT,
                   _("%s: expected a JSON object mapping surface names to materials, "
                     "e.g. {\"floor\": \"carpet on concrete\", \"ceiling\": {\"alpha\": 0.6}}"),
                   map_path);
          goto fail_set;
        }
      json_object_object_foreach (root, key, val)
        {
          long s = find_surface (mesh, key);
          if (s < 0)
            {
              rw_fail (err, RW_ERROR_INPUT, _("%s: surface \"%s\" is not in the mesh %s"), map_path, key,
                       mesh->path ? mesh->path : "");
              json_object_put (root);
              goto fail_set;
            }
          double R = NAN;
          char *label = NULL;
          if (!map_entry (lib, map_path, key, val, fmax_hz, n_bands, models_out != NULL, &R, MODEL (s),
                          &label, err))
            {
              free (label);
              json_object_put (root);
              goto fail_set;
            }
          R_out[s] = R;
          set[s] = true;
          if (names)
            {
              free (names[s]);
              names[s] = label;
              if (label == NULL)
                {
                  json_object_put (root);
                  free (set);
                  goto oom;
                }
            }
          else
            free (label);
        }
      json_object_put (root);
    }

  for (size_t s = 0; s < n; s++)
    {
      if (set[s])
        continue;
      /* The model's material name first: it is what the modeller meant
       * as the material ("Floor" made of "Carpet"). */
      const RwMaterial *m = NULL;
      if (lib && mesh->surface_materials && mesh->surface_materials[s])
        m = match_surface_name (lib, mesh->surface_materials[s]);
      if (m == NULL && lib)
        m = match_surface_name (lib, mesh->surface_names[s]);
      if (m == NULL && lib)
        m = rw_materials_find (lib, RW_DEFAULT_MATERIAL);
      if (m == NULL)
        {
          rw_fail (err, RW_ERROR_INPUT,
                   _("surface \"%s\": no material matches its name and the library has no default \"%s\""),
                   mesh->surface_names[s], RW_DEFAULT_MATERIAL);
          goto fail_set;
        }
      R_out[s] = rw_reflection_from_statistical_alpha (rw_material_alpha_for_fmax (m, fmax_hz));
      /* the same material on several surfaces is fitted once */
      bool copied = false;
      for (size_t t = 0; models_out != NULL && t < s && !copied; t++)
        if (!set[t] && names != NULL && names[t] != NULL && strcmp (names[t], m->name) == 0)
          {
            models_out[s] = models_out[t];
            copied = true;
          }
      if (models_out != NULL && !copied)
        rw_surface_model_set_scattering (MODEL (s), m);
      if (models_out != NULL && !copied && !model_from_alpha (m->alpha, n_bands, MODEL (s), err))
        {
          rw_fail_prefix (err, _("material \"%s\""), m->name);
          goto fail_set;
        }
      if (names && (names[s] = strdup (m->name)) == NULL)
        {
          free (set);
          goto oom;
        }
    }
#undef MODEL
  free (set);
  if (material_out)
    *material_out = names;
  return true;

fail_set:
  free (set);
  free_names (names, n);
  return false;
oom:
  free_names (names, n);
  return rw_fail (err, RW_ERROR_MEMORY, _("out of memory"));
}

const char *
rw_materials_default_name (void)
{
  return RW_DEFAULT_MATERIAL;
}

const RwMaterial *
rw_materials_match (const RwMaterialLibrary *lib, const char *surface_name)
{
  if (lib == NULL || surface_name == NULL)
    return NULL;
  return match_surface_name (lib, surface_name);
}
