/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-project.c — the document model (see rw-project.h): its properties,
 * materials, points, HRTF set and settings. Opening a room or a project
 * and the .roomwave file are rw-project-file.c's. */
#include "rw-project-private.h"
#include "rw-hrtf.h"
#include "rw-sim.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "rw-ism.h"
#include "rw-physics.h"
#include "rw-rays.h"
#include "rw-scheme-fcc.h"

G_DEFINE_TYPE (RwProject, rw_project, G_TYPE_OBJECT)

/* The project's state as properties: views follow them (GBindingGroup,
 * GSignalGroup) instead of parsing a "what changed" string. */
enum {
  PROP_0,
  PROP_DIRTY,
  PROP_FILE,
  PROP_MESH,               /* const RwMesh *: a new room (and report) */
  PROP_SURFACE_MATERIALS,  /* GStrv: a material or R of some surface */
  PROP_SURFACE_ALPHA,      /* aad: α per octave band of each surface */
  PROP_SOURCE,             /* (ddd) */
  PROP_RECEIVERS,          /* a(ddd) */
  PROP_RECEIVER_SPECS,     /* a(uudd): type, order, yaw, pitch of each receiver */
  PROP_HRTF_PATH,          /* string: the SOFA file of the binaural receivers, NULL: bundled */
  PROP_FMAX_HZ,
  PROP_DURATION_S,
  PROP_TEMPERATURE_C,
  PROP_HUMIDITY_PCT,
  PROP_AIR_ABSORPTION,
  PROP_PPW,                /* 0: the scheme's default */
  PROP_SCHEME,             /* RwScheme as guint */
  PROP_BOUNDARY,           /* RwBoundary as guint */
  PROP_BACKEND,            /* RwBackendKind as guint */
  PROP_PRECISION,          /* RwPrecision as guint */
  PROP_DEVICE,             /* the backend's device index as guint */
  PROP_HYBRID,
  PROP_CROSSOVER_HZ,       /* 0: automatic (fmax / 2) */
  PROP_N_RAYS,             /* guint */
  PROP_ISM_ORDER,          /* guint */
  PROP_SEED,               /* guint64 */
  PROP_RUN_DEVICES,        /* guint64: bit i, CUDA device i checked for a run on several GPUs */
  N_PROPS
};
static GParamSpec *properties[N_PROPS];

G_DEFINE_QUARK (rw-project-error-quark, rw_project_error)

void
_rw_project_clear_mesh (RwProject *self)
{
  if (self->mesh != NULL)
    {
      for (size_t i = 0; i < self->mesh->n_surfaces; i++)
        g_free (self->surface_material[i]);
    }
  g_clear_pointer (&self->surface_material, g_free);
  g_clear_pointer (&self->surface_R, g_free);
  g_clear_pointer (&self->surface_alpha, g_free);
  if (self->have_report)
    rw_mesh_report_clear (&self->report);
  self->have_report = FALSE;
  g_clear_pointer (&self->mesh, rw_mesh_free);
  g_clear_pointer (&self->mesh_path, g_free);
}

static void
rw_project_finalize (GObject *object)
{
  RwProject *self = RW_PROJECT (object);

  _rw_project_clear_mesh (self);
  g_clear_pointer (&self->library, rw_materials_free);
  g_clear_pointer (&self->library_error, g_free);
  g_clear_pointer (&self->fit_cache, g_hash_table_unref);
  g_clear_pointer (&self->results_ref, g_free);
  g_clear_pointer (&self->hrtf_path, g_free);
  for (guint i = 0; i < RW_PROJECT_MAX_RECEIVERS; i++)
    {
      g_signal_handlers_disconnect_by_data (self->receiver_slots[i], self);
      g_clear_object (&self->receiver_slots[i]);
    }
  g_clear_object (&self->file);
  G_OBJECT_CLASS (rw_project_parent_class)->finalize (object);
}

static GVariant *
point_variant (const double p[3])
{
  return g_variant_new ("(ddd)", p[0], p[1], p[2]);
}

static void
rw_project_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  RwProject *self = RW_PROJECT (object);

  switch (prop_id)
    {
    case PROP_DIRTY:
      g_value_set_boolean (value, self->dirty);
      break;
    case PROP_FILE:
      g_value_set_object (value, self->file);
      break;
    case PROP_MESH:
      g_value_set_pointer (value, self->mesh);
      break;
    case PROP_SURFACE_MATERIALS:
      {
        g_autoptr (GStrvBuilder) b = g_strv_builder_new ();
        for (size_t i = 0; self->mesh != NULL && i < self->mesh->n_surfaces; i++)
          g_strv_builder_add (b, self->surface_material[i]);
        g_value_take_boxed (value, g_strv_builder_end (b));
      }
      break;
    case PROP_SURFACE_ALPHA:
      {
        g_autoptr (GVariantBuilder) b = g_variant_builder_new (G_VARIANT_TYPE ("aad"));
        for (size_t i = 0; self->mesh != NULL && i < self->mesh->n_surfaces; i++)
          g_variant_builder_add_value (b, g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE,
                                                                     self->surface_alpha + i * RW_N_OCTAVES,
                                                                     RW_N_OCTAVES, sizeof (double)));
        g_value_set_variant (value, g_variant_builder_end (b));
      }
      break;
    case PROP_SOURCE:
      g_value_set_variant (value, point_variant (self->source));
      break;
    case PROP_RECEIVERS:
      {
        GVariantBuilder b;
        g_variant_builder_init (&b, G_VARIANT_TYPE ("a(ddd)"));
        for (guint i = 0; i < self->n_receivers; i++)
          g_variant_builder_add_value (&b, point_variant (self->receivers[i]));
        g_value_set_variant (value, g_variant_builder_end (&b));
      }
      break;
    case PROP_RECEIVER_SPECS:
      {
        GVariantBuilder b;
        g_variant_builder_init (&b, G_VARIANT_TYPE ("a(uudd)"));
        for (guint i = 0; i < self->n_receivers; i++)
          {
            RwReceiverSpec spec;
            rw_project_receiver_get_spec (self->receiver_slots[i], &spec);
            g_variant_builder_add (&b, "(uudd)", (guint32) spec.type, (guint32) spec.order, spec.yaw_deg,
                                   spec.pitch_deg);
          }
        g_value_set_variant (value, g_variant_builder_end (&b));
      }
      break;
    case PROP_HRTF_PATH:
      g_value_set_string (value, self->hrtf_path);
      break;
    case PROP_FMAX_HZ:
      g_value_set_double (value, self->settings.fmax_hz);
      break;
    case PROP_DURATION_S:
      g_value_set_double (value, self->settings.duration_s);
      break;
    case PROP_TEMPERATURE_C:
      g_value_set_double (value, self->settings.temperature_c);
      break;
    case PROP_HUMIDITY_PCT:
      g_value_set_double (value, self->settings.humidity_pct);
      break;
    case PROP_AIR_ABSORPTION:
      g_value_set_boolean (value, self->settings.air_absorption);
      break;
    case PROP_PPW:
      g_value_set_double (value, self->settings.ppw);
      break;
    case PROP_SCHEME:
      g_value_set_uint (value, self->settings.scheme);
      break;
    case PROP_BOUNDARY:
      g_value_set_uint (value, self->settings.boundary);
      break;
    case PROP_BACKEND:
      g_value_set_uint (value, self->settings.backend);
      break;
    case PROP_PRECISION:
      g_value_set_uint (value, self->settings.precision);
      break;
    case PROP_DEVICE:
      g_value_set_uint (value, (guint) self->settings.device);
      break;
    case PROP_HYBRID:
      g_value_set_boolean (value, self->settings.hybrid);
      break;
    case PROP_CROSSOVER_HZ:
      g_value_set_double (value, self->settings.crossover_hz);
      break;
    case PROP_N_RAYS:
      g_value_set_uint (value, (guint) MIN (self->settings.n_rays, G_MAXUINT));
      break;
    case PROP_ISM_ORDER:
      g_value_set_uint (value, (guint) MAX (self->settings.ism_order, 0));
      break;
    case PROP_SEED:
      g_value_set_uint64 (value, self->settings.seed);
      break;
    case PROP_RUN_DEVICES:
      g_value_set_uint64 (value, self->run_devices);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
rw_project_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  RwProject *self = RW_PROJECT (object);
  RwSimSettings s = self->settings;

  switch (prop_id)
    {
    case PROP_FMAX_HZ:
      s.fmax_hz = g_value_get_double (value);
      break;
    case PROP_DURATION_S:
      s.duration_s = g_value_get_double (value);
      break;
    case PROP_TEMPERATURE_C:
      s.temperature_c = g_value_get_double (value);
      break;
    case PROP_HUMIDITY_PCT:
      s.humidity_pct = g_value_get_double (value);
      break;
    case PROP_AIR_ABSORPTION:
      s.air_absorption = g_value_get_boolean (value) != FALSE;
      break;
    case PROP_PPW:
      s.ppw = g_value_get_double (value);
      break;
    case PROP_SCHEME:
      s.scheme = (RwScheme) g_value_get_uint (value);
      break;
    case PROP_BOUNDARY:
      s.boundary = (RwBoundary) g_value_get_uint (value);
      break;
    case PROP_BACKEND:
      s.backend = (RwBackendKind) g_value_get_uint (value);
      break;
    case PROP_PRECISION:
      s.precision = (RwPrecision) g_value_get_uint (value);
      break;
    case PROP_DEVICE:
      s.device = (int) g_value_get_uint (value);
      break;
    case PROP_HYBRID:
      s.hybrid = g_value_get_boolean (value) != FALSE;
      break;
    case PROP_CROSSOVER_HZ:
      s.crossover_hz = g_value_get_double (value);
      break;
    case PROP_N_RAYS:
      s.n_rays = g_value_get_uint (value);
      break;
    case PROP_ISM_ORDER:
      s.ism_order = (int) g_value_get_uint (value);
      break;
    case PROP_SEED:
      s.seed = g_value_get_uint64 (value);
      break;
    case PROP_RUN_DEVICES:
      rw_project_set_run_devices (self, g_value_get_uint64 (value));
      return;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      return;
    }
  rw_project_set_settings (self, &s);
}

static void
rw_project_class_init (RwProjectClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = rw_project_finalize;
  object_class->get_property = rw_project_get_property;
  object_class->set_property = rw_project_set_property;

  properties[PROP_DIRTY] =
    g_param_spec_boolean ("dirty", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_FILE] =
    g_param_spec_object ("file", NULL, NULL, G_TYPE_FILE,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_MESH] =
    g_param_spec_pointer ("mesh", NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_SURFACE_MATERIALS] =
    g_param_spec_boxed ("surface-materials", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_SURFACE_ALPHA] =
    g_param_spec_variant ("surface-alpha", NULL, NULL, G_VARIANT_TYPE ("aad"), NULL,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_SOURCE] =
    g_param_spec_variant ("source", NULL, NULL, G_VARIANT_TYPE ("(ddd)"), NULL,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_RECEIVERS] =
    g_param_spec_variant ("receivers", NULL, NULL, G_VARIANT_TYPE ("a(ddd)"), NULL,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_RECEIVER_SPECS] =
    g_param_spec_variant ("receiver-specs", NULL, NULL, G_VARIANT_TYPE ("a(uudd)"), NULL,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_HRTF_PATH] =
    g_param_spec_string ("hrtf-path", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* The settings, each its own property so that a spin button binds to it.
   * No range here: the engine's checks for a run are the one place that
   * knows what a run accepts (rw_sim_check_settings). */
#define SETTING_DOUBLE(id, name)                                                              \
  properties[id] = g_param_spec_double (name, NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0,        \
                                        G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY)
#define SETTING_UINT(id, name, max)                                                           \
  properties[id] = g_param_spec_uint (name, NULL, NULL, 0, max, 0,                            \
                                      G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY)
  SETTING_DOUBLE (PROP_FMAX_HZ, "fmax-hz");
  SETTING_DOUBLE (PROP_DURATION_S, "duration-s");
  SETTING_DOUBLE (PROP_TEMPERATURE_C, "temperature-c");
  SETTING_DOUBLE (PROP_HUMIDITY_PCT, "humidity-pct");
  properties[PROP_AIR_ABSORPTION] =
    g_param_spec_boolean ("air-absorption", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  SETTING_DOUBLE (PROP_PPW, "ppw");
  SETTING_UINT (PROP_SCHEME, "scheme", RW_SCHEME_FCC);
  SETTING_UINT (PROP_BOUNDARY, "boundary", RW_BOUNDARY_SAVIOJA);
  SETTING_UINT (PROP_BACKEND, "backend", RW_BACKEND_CUDA);
  SETTING_UINT (PROP_PRECISION, "precision", RW_PRECISION_F16);
  SETTING_UINT (PROP_DEVICE, "device", RW_PROJECT_MAX_DEVICE);
  properties[PROP_HYBRID] =
    g_param_spec_boolean ("hybrid", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  SETTING_DOUBLE (PROP_CROSSOVER_HZ, "crossover-hz");
  SETTING_UINT (PROP_N_RAYS, "n-rays", RW_RAYS_MAX_N);
  SETTING_UINT (PROP_ISM_ORDER, "ism-order", RW_ISM_MAX_ORDER);
  /* A spin button's double holds whole numbers exactly up to 2^53. */
  properties[PROP_SEED] =
    g_param_spec_uint64 ("seed", NULL, NULL, 0, RW_PROJECT_MAX_SEED, 1,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_RUN_DEVICES] =
    g_param_spec_uint64 ("run-devices", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
#undef SETTING_DOUBLE
#undef SETTING_UINT
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

/* The engine's full-band defaults (rw_sim_config_init): what a new project
 * and a file older than these settings get. */
void
_rw_project_sim_settings_hybrid_defaults (RwSimSettings *s)
{
  RwSimConfig cfg;

  rw_sim_config_init (&cfg);
  s->hybrid = cfg.hybrid;
  s->crossover_hz = cfg.crossover_hz;
  s->n_rays = cfg.n_rays;
  s->ism_order = cfg.ism_order;
  s->seed = cfg.seed;
}

static void receiver_slot_changed (RwProject *self);

static void
rw_project_init (RwProject *self)
{
  RwError err = { 0 };

  for (guint i = 0; i < RW_PROJECT_MAX_RECEIVERS; i++)
    {
      self->receiver_slots[i] = rw_project_receiver_new ();
      g_signal_connect_swapped (self->receiver_slots[i], "notify", G_CALLBACK (receiver_slot_changed), self);
    }

  self->library = rw_materials_load (NULL, &err);
  if (self->library == NULL)
    self->library_error = g_strdup (err.message);

  self->fit_cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->scale = 1.0;
  self->import_scale = 1.0;
  self->settings.fmax_hz = 500.0;
  self->settings.duration_s = 1.0;
  self->settings.temperature_c = RW_DEFAULT_TEMPERATURE_C;
  self->settings.humidity_pct = RW_AIR_DEFAULT_HUMIDITY_PCT;
  self->settings.air_absorption = TRUE;
  /* New projects: the scheme the engine picks (rw_sim_resolve_scheme) at
   * that scheme's default points per wavelength, as simulate does. */
  self->settings.ppw = 0;
  self->settings.scheme = RW_SCHEME_AUTO;
  self->settings.boundary = RW_BOUNDARY_FV;
  self->settings.backend = RW_BACKEND_AUTO;
  self->settings.precision = RW_PRECISION_F32;
  _rw_project_sim_settings_hybrid_defaults (&self->settings);
}

RwProject *
rw_project_new (void)
{
  return g_object_new (RW_TYPE_PROJECT, NULL);
}

/* An edit: the project is dirty and property `prop` has changed. */
static void
edited (RwProject *self, guint prop)
{
  rw_project_set_dirty (self, TRUE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

guint64
rw_project_get_run_devices (RwProject *self)
{
  g_return_val_if_fail (RW_IS_PROJECT (self), 0);
  return self->run_devices;
}

void
rw_project_set_run_devices (RwProject *self, guint64 devices)
{
  g_return_if_fail (RW_IS_PROJECT (self));
  if (devices == self->run_devices)
    return;
  self->run_devices = devices;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUN_DEVICES]);
}

/* A whole new state (a room imported, a project opened): every property
 * but "dirty", which the caller clears. */
void
_rw_project_notify_all (RwProject *self)
{
  g_object_freeze_notify (G_OBJECT (self));
  for (guint p = PROP_MESH; p < N_PROPS; p++)
    g_object_notify_by_pspec (G_OBJECT (self), properties[p]);
  g_object_thaw_notify (G_OBJECT (self));
}

/* A receiver slot's type, order or orientation changed (the window's
 * fields, bound to the slot, or rw_project_set_receiver_spec). */
static void
receiver_slot_changed (RwProject *self)
{
  if (!self->quiet_slots)
    edited (self, PROP_RECEIVER_SPECS);
}

/* Slot i takes spec without an edit being recorded (loading, adding and
 * removing receivers notify once themselves). */
void
_rw_project_put_slot (RwProject *self, guint i, const RwReceiverSpec *spec)
{
  self->quiet_slots = TRUE;
  rw_project_receiver_set_spec (self->receiver_slots[i], spec);
  self->quiet_slots = FALSE;
}

void
rw_project_set_dirty (RwProject *self, gboolean dirty)
{
  g_return_if_fail (RW_IS_PROJECT (self));
  if (self->dirty == !!dirty)
    return;
  self->dirty = !!dirty;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DIRTY]);
}

gboolean
rw_project_get_dirty (RwProject *self)
{
  return self->dirty;
}

void
_rw_project_set_file (RwProject *self, GFile *file)
{
  if (g_set_object (&self->file, file))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILE]);
}

GFile *
rw_project_get_file (RwProject *self)
{
  return self->file;
}

const RwMesh *
rw_project_get_mesh (RwProject *self)
{
  return self->mesh;
}

const RwMeshReport *
rw_project_get_report (RwProject *self)
{
  return self->have_report ? &self->report : NULL;
}

const RwMaterialLibrary *
rw_project_get_library (RwProject *self)
{
  return self->library;
}

const char *
rw_project_get_mesh_path (RwProject *self)
{
  return self->mesh_path;
}

void
rw_project_set_import_scale (RwProject *self, double scale)
{
  g_return_if_fail (isfinite (scale) && scale > 0);
  self->import_scale = scale;
}

double
rw_project_get_import_scale (RwProject *self)
{
  return self->import_scale;
}

/* ---- point in mesh ---------------------------------------------------- */

gboolean
rw_project_point_inside (RwProject *self, const double p[3])
{
  return rw_mesh_point_inside (self->mesh, p);
}

/* A point inside the room near the fraction f of the bounding box; falls
 * back to a scan of the box's diagonal planes when that is outside (an L
 * room, a hall with a raked floor). */
void
_rw_project_default_point (const RwMesh *m, const RwMeshReport *r, const double f[3], double out[3])
{
  for (int k = 0; k < 3; k++)
    out[k] = r->bbox_min[k] + f[k] * (r->bbox_max[k] - r->bbox_min[k]);
  if (rw_mesh_point_inside (m, out))
    return;
  for (int i = 1; i < 20; i++)
    for (int j = 1; j < 20; j++)
      {
        double q[3] = {
          r->bbox_min[0] + (r->bbox_max[0] - r->bbox_min[0]) * (f[0] + (i - 10) * 0.04),
          r->bbox_min[1] + (r->bbox_max[1] - r->bbox_min[1]) * (f[1] + (j - 10) * 0.04),
          r->bbox_min[2] + (r->bbox_max[2] - r->bbox_min[2]) * f[2],
        };
        if (rw_mesh_point_inside (m, q))
          {
            memcpy (out, q, sizeof q);
            return;
          }
      }
}

/* ---- materials -------------------------------------------------------- */

/* The statistical α of a reflection factor in every band: a surface given
 * by one R (typed, or an R-only surface of an older project file). */
void
_rw_project_alpha_from_R (double R, double alpha[RW_N_OCTAVES])
{
  for (int b = 0; b < RW_N_OCTAVES; b++)
    alpha[b] = rw_statistical_alpha_from_reflection (R);
}

gboolean
_rw_project_alpha_uniform (const double alpha[RW_N_OCTAVES])
{
  for (int b = 1; b < RW_N_OCTAVES; b++)
    if (alpha[b] != alpha[0])
      return FALSE;
  return TRUE;
}

gboolean
rw_project_surface_is_R (const double alpha[RW_N_OCTAVES], double R)
{
  return _rw_project_alpha_uniform (alpha) && isfinite (R);
}

double
rw_project_R_from_alpha (const double alpha[RW_N_OCTAVES], double fmax_hz)
{
  /* The same conversion as the engine's rw_materials_assign: the mean
   * random-incidence α of the bands up to fmax through Paris' formula. */
  RwMaterial m = { 0 };
  memcpy (m.alpha, alpha, sizeof m.alpha);
  return rw_reflection_from_statistical_alpha (rw_material_alpha_for_fmax (&m, fmax_hz));
}

/* The library row's α of `name` into alpha; FALSE when it is no library
 * material. */
gboolean
_rw_project_library_alpha (const RwMaterialLibrary *library, const char *name, double alpha[RW_N_OCTAVES])
{
  const RwMaterial *mat = library ? rw_materials_find (library, name) : NULL;
  if (mat == NULL)
    return FALSE;
  memcpy (alpha, mat->alpha, sizeof mat->alpha);
  return TRUE;
}

/* Surface i's R from its α: a uniform α (one typed R or α) keeps the R it
 * has, so that a typed R survives exactly; else the mean α up to fmax. */
static void
derive_R (RwProject *self, size_t i)
{
  const double *a = self->surface_alpha + i * RW_N_OCTAVES;
  if (!_rw_project_alpha_uniform (a) || !isfinite (self->surface_R[i]))
    self->surface_R[i] = rw_project_R_from_alpha (a, self->settings.fmax_hz);
}

gboolean
rw_project_fit_alpha (const double alpha[RW_N_OCTAVES], double R, int n_bands, const RwMaterial *material,
                      RwSurfaceModel *out, GError **error)
{
  RwError err = { 0 };

  memset (out, 0, sizeof *out);
  memcpy (out->alpha_target, alpha, sizeof out->alpha_target);
  if (rw_project_surface_is_R (alpha, R))
    {
      /* One R (typed, or of an older file): the frequency-independent
       * surface of exactly that R, as the engine models {"R": r}
       * (rw_materials_assign_models) — a fit of its α would lose the sign
       * of a negative R. */
      rw_surface_model_from_R (R, out);
      rw_surface_model_set_scattering (out, material);
      return TRUE;
    }
  if (!rw_admittance_fit_alpha (alpha, n_bands, &out->Y, &out->fit, &err))
    {
      g_set_error_literal (error, RW_PROJECT_ERROR, RW_PROJECT_ERROR_FILE, err.message);
      return FALSE;
    }
  rw_surface_model_set_scattering (out, material);
  return TRUE;
}

static char *
fit_key (const double alpha[RW_N_OCTAVES], double R, int n_bands)
{
  GString *k = g_string_new (NULL);
  if (_rw_project_alpha_uniform (alpha))
    g_string_append_printf (k, "R%a,", R);
  g_string_append_printf (k, "%d", n_bands);
  for (int b = 0; b < RW_N_OCTAVES; b++)
    g_string_append_printf (k, ",%a", alpha[b]);
  return g_string_free (k, FALSE);
}

gboolean
rw_project_get_surface_model (RwProject *self, guint surface, RwSurfaceModel *out, GError **error)
{
  g_return_val_if_fail (self->mesh && surface < self->mesh->n_surfaces, FALSE);
  const double *a = self->surface_alpha + surface * RW_N_OCTAVES;
  const int n_bands = rw_sim_settings_fit_bands (&self->settings);
  const RwMaterial *material = self->library ? rw_materials_find (self->library, self->surface_material[surface])
                                             : NULL;
  g_autofree char *key = fit_key (a, self->surface_R[surface], n_bands);
  const RwSurfaceModel *cached = g_hash_table_lookup (self->fit_cache, key);

  /* The cache holds the fit; the scattering is the surface's own. */
  if (cached != NULL)
    {
      *out = *cached;
      rw_surface_model_set_scattering (out, material);
      return TRUE;
    }
  if (!rw_project_fit_alpha (a, self->surface_R[surface], n_bands, material, out, error))
    return FALSE;
  g_hash_table_insert (self->fit_cache, g_steal_pointer (&key), g_memdup2 (out, sizeof *out));
  return TRUE;
}

char *
rw_project_report_text (RwProject *self)
{
  if (!self->have_report)
    return g_strdup (_("No room loaded."));

  const RwMeshReport *r = &self->report;
  GString *s = g_string_new (NULL);
  g_autofree char *base = g_path_get_basename (self->mesh_path);

  g_string_append_printf (s, _("File: %s\n"), base);
  g_string_append_printf (s, _("Size: %.2f × %.2f × %.2f m\n"),
                          r->bbox_max[0] - r->bbox_min[0], r->bbox_max[1] - r->bbox_min[1],
                          r->bbox_max[2] - r->bbox_min[2]);
  g_string_append_printf (s, _("Volume: %.1f m³\n"), r->volume_m3);
  g_string_append_printf (s, _("Surface area: %.1f m²\n"), r->area_m2);
  g_string_append_printf (s, _("Surfaces: %zu, triangles: %zu\n"),
                          self->mesh->n_surfaces, self->mesh->n_triangles);
  if (r->watertight && r->outward)
    g_string_append (s, _("Watertight, normals outward\n"));
  else if (r->watertight)
    g_string_append (s, _("Watertight, but normals point inward\n"));
  else
    g_string_append_printf (s, _("Not watertight: %zu open, %zu non-manifold, %zu misoriented edges\n"),
                            r->n_open_edges, r->n_nonmanifold_edges, r->n_misoriented_edges);
  for (size_t i = 0; i < r->n_edge_samples && i < 3; i++)
    g_string_append_printf (s, _("  leak at (%.2f, %.2f, %.2f)–(%.2f, %.2f, %.2f)\n"),
                            r->edge_samples[i][0], r->edge_samples[i][1], r->edge_samples[i][2],
                            r->edge_samples[i][3], r->edge_samples[i][4], r->edge_samples[i][5]);
  if (r->n_degenerate > 0)
    g_string_append_printf (s, _("Warning: %zu degenerate triangles\n"), r->n_degenerate);
  if (r->n_nonfinite > 0)
    g_string_append_printf (s, _("Warning: %zu vertices with non-finite coordinates\n"), r->n_nonfinite);
  if (r->looks_like_millimetres)
    g_string_append_printf (s, _("Warning: the model looks like it is in millimetres (suggested scale %g): "
                                 "choose its unit in Preferences → Model units and open it again\n"),
                            r->suggested_scale);
  if (self->library == NULL)
    g_string_append_printf (s, _("Warning: material library not loaded: %s\n"), self->library_error);
  if (s->len > 0 && s->str[s->len - 1] == '\n')
    g_string_truncate (s, s->len - 1);
  return g_string_free (s, FALSE);
}

const char *
rw_project_get_surface_material (RwProject *self, guint surface)
{
  g_return_val_if_fail (self->mesh && surface < self->mesh->n_surfaces, NULL);
  return self->surface_material[surface];
}

double
rw_project_get_surface_R (RwProject *self, guint surface)
{
  g_return_val_if_fail (self->mesh && surface < self->mesh->n_surfaces, 1.0);
  return self->surface_R[surface];
}

int
rw_project_get_surface_material_index (RwProject *self, guint surface)
{
  g_return_val_if_fail (self->mesh && surface < self->mesh->n_surfaces, -1);
  if (self->library == NULL)
    return -1;
  for (size_t i = 0; i < self->library->n; i++)
    if (g_strcmp0 (self->library->items[i].name, self->surface_material[surface]) == 0)
      return (int) i;
  return -1;
}

void
rw_project_set_surface_material (RwProject *self, guint surface, const char *material)
{
  g_return_if_fail (self->mesh && surface < self->mesh->n_surfaces);
  double *a = self->surface_alpha + surface * RW_N_OCTAVES;
  g_free (self->surface_material[surface]);
  self->surface_material[surface] = g_strdup (material);
  if (_rw_project_library_alpha (self->library, material, a))
    self->surface_R[surface] = rw_project_R_from_alpha (a, self->settings.fmax_hz);
  g_object_freeze_notify (G_OBJECT (self));
  edited (self, PROP_SURFACE_MATERIALS);
  edited (self, PROP_SURFACE_ALPHA);
  g_object_thaw_notify (G_OBJECT (self));
}

void
rw_project_set_surface_R (RwProject *self, guint surface, double R)
{
  g_return_if_fail (self->mesh && surface < self->mesh->n_surfaces);
  if (!isfinite (R))
    return;
  g_free (self->surface_material[surface]);
  self->surface_material[surface] = g_strdup (CUSTOM_MATERIAL);
  self->surface_R[surface] = CLAMP (R, -1.0, 1.0);
  _rw_project_alpha_from_R (self->surface_R[surface], self->surface_alpha + surface * RW_N_OCTAVES);
  g_object_freeze_notify (G_OBJECT (self));
  edited (self, PROP_SURFACE_MATERIALS);
  edited (self, PROP_SURFACE_ALPHA);
  g_object_thaw_notify (G_OBJECT (self));
}

void
rw_project_get_surface_alpha (RwProject *self, guint surface, double alpha[RW_N_OCTAVES])
{
  g_return_if_fail (self->mesh && surface < self->mesh->n_surfaces);
  memcpy (alpha, self->surface_alpha + surface * RW_N_OCTAVES, RW_N_OCTAVES * sizeof (double));
}

void
rw_project_set_surface_alpha (RwProject *self, guint surface, const double alpha[RW_N_OCTAVES])
{
  g_return_if_fail (self->mesh && surface < self->mesh->n_surfaces);
  double *a = self->surface_alpha + surface * RW_N_OCTAVES;
  gboolean same = TRUE;

  for (int b = 0; b < RW_N_OCTAVES; b++)
    {
      double v = isfinite (alpha[b]) ? CLAMP (alpha[b], 0.0, 1.0) : a[b];
      same &= v == a[b];
      a[b] = v;
    }
  if (same)
    return;
  /* Edited band by band, the surface is no longer the library's row. */
  g_free (self->surface_material[surface]);
  self->surface_material[surface] = g_strdup (CUSTOM_MATERIAL);
  self->surface_R[surface] = rw_project_R_from_alpha (a, self->settings.fmax_hz);
  g_object_freeze_notify (G_OBJECT (self));
  edited (self, PROP_SURFACE_ALPHA);
  edited (self, PROP_SURFACE_MATERIALS);
  g_object_thaw_notify (G_OBJECT (self));
}

void
rw_project_set_surface_alpha_band (RwProject *self, guint surface, guint band, double alpha)
{
  g_return_if_fail (self->mesh && surface < self->mesh->n_surfaces && band < RW_N_OCTAVES);
  double a[RW_N_OCTAVES];
  rw_project_get_surface_alpha (self, surface, a);
  a[band] = alpha;
  rw_project_set_surface_alpha (self, surface, a);
}

/* ---- points ----------------------------------------------------------- */

static gboolean
check_point (RwProject *self, const double p[3], gboolean is_source, GError **error)
{
  if (!rw_mesh_point_inside (self->mesh, p))
    {
      /* Two whole sentences, not a word slotted in: translations need the
       * noun's gender. */
      g_set_error (error, RW_PROJECT_ERROR, RW_PROJECT_ERROR_POINT,
                   is_source ? _("The source at (%.2f, %.2f, %.2f) m is outside the room.")
                             : _("The receiver at (%.2f, %.2f, %.2f) m is outside the room."),
                   p[0], p[1], p[2]);
      return FALSE;
    }
  return TRUE;
}

void
rw_project_get_source (RwProject *self, double p[3])
{
  memcpy (p, self->source, sizeof self->source);
}

gboolean
rw_project_set_source (RwProject *self, const double p[3], GError **error)
{
  if (!check_point (self, p, TRUE, error))
    return FALSE;
  memcpy (self->source, p, sizeof self->source);
  edited (self, PROP_SOURCE);
  return TRUE;
}

guint
rw_project_get_n_receivers (RwProject *self)
{
  return self->n_receivers;
}

void
rw_project_get_receiver (RwProject *self, guint i, double p[3])
{
  g_return_if_fail (i < self->n_receivers);
  memcpy (p, self->receivers[i], 3 * sizeof (double));
}

/* A new last receiver at p (checked), omnidirectional. */
static void
append_receiver (RwProject *self, const double p[3])
{
  static const RwReceiverSpec omni = { 0 };
  guint i = self->n_receivers;

  memcpy (self->receivers[i], p, 3 * sizeof (double));
  _rw_project_put_slot (self, i, &omni);
  self->n_receivers++;
  g_object_freeze_notify (G_OBJECT (self));
  edited (self, PROP_RECEIVERS);
  edited (self, PROP_RECEIVER_SPECS);
  g_object_thaw_notify (G_OBJECT (self));
}

gboolean
rw_project_set_receiver (RwProject *self, guint i, const double p[3], GError **error)
{
  g_return_val_if_fail (i < RW_PROJECT_MAX_RECEIVERS && i <= self->n_receivers, FALSE);
  if (!check_point (self, p, FALSE, error))
    return FALSE;
  if (i == self->n_receivers)
    {
      append_receiver (self, p);
      return TRUE;
    }
  memcpy (self->receivers[i], p, 3 * sizeof (double));
  edited (self, PROP_RECEIVERS);
  return TRUE;
}

int
rw_project_add_receiver (RwProject *self)
{
  static const double offsets[][3] = {
    { 0, 0.3, 0 }, { 0, -0.3, 0 }, { 0.3, 0, 0 }, { -0.3, 0, 0 }, { 0, 0, 0.3 }, { 0, 0, -0.3 },
    { 0.3, 0.3, 0 }, { -0.3, -0.3, 0 },
  };

  if (self->mesh == NULL || self->n_receivers >= RW_PROJECT_MAX_RECEIVERS || self->n_receivers == 0)
    return -1;
  for (gsize k = 0; k < G_N_ELEMENTS (offsets); k++)
    for (double scale = 1; scale > 0.05; scale /= 2)
      {
        double p[3];
        for (int c = 0; c < 3; c++)
          p[c] = self->receivers[self->n_receivers - 1][c] + scale * offsets[k][c];
        if (rw_mesh_point_inside (self->mesh, p))
          {
            append_receiver (self, p);
            return (int) self->n_receivers - 1;
          }
      }
  return -1;
}

gboolean
rw_project_remove_receiver (RwProject *self, guint i)
{
  if (i >= self->n_receivers || self->n_receivers <= 1)
    return FALSE;
  memmove (self->receivers[i], self->receivers[i + 1], (self->n_receivers - i - 1) * sizeof self->receivers[0]);
  /* the slots stay with their indices: the specs move down one */
  for (guint j = i; j + 1 < self->n_receivers; j++)
    {
      RwReceiverSpec spec;
      rw_project_receiver_get_spec (self->receiver_slots[j + 1], &spec);
      _rw_project_put_slot (self, j, &spec);
    }
  self->n_receivers--;
  g_object_freeze_notify (G_OBJECT (self));
  edited (self, PROP_RECEIVERS);
  edited (self, PROP_RECEIVER_SPECS);
  g_object_thaw_notify (G_OBJECT (self));
  return TRUE;
}

RwProjectReceiver *
rw_project_get_receiver_slot (RwProject *self, guint i)
{
  g_return_val_if_fail (RW_IS_PROJECT (self) && i < RW_PROJECT_MAX_RECEIVERS, NULL);
  return self->receiver_slots[i];
}

void
rw_project_get_receiver_spec (RwProject *self, guint i, RwReceiverSpec *spec)
{
  g_return_if_fail (RW_IS_PROJECT (self) && i < self->n_receivers && spec != NULL);
  rw_project_receiver_get_spec (self->receiver_slots[i], spec);
}

gboolean
rw_project_set_receiver_spec (RwProject *self, guint i, const RwReceiverSpec *spec, GError **error)
{
  RwError err = { 0 };
  g_autofree char *what = NULL;

  g_return_val_if_fail (RW_IS_PROJECT (self) && i < self->n_receivers && spec != NULL, FALSE);
  /* Two words the translation can inflect, as "receiver N" elsewhere. */
  what = g_strdup_printf (_("receiver %u"), i + 1);
  if (!rw_receiver_check (spec, what, &err))
    {
      g_set_error_literal (error, RW_PROJECT_ERROR, RW_PROJECT_ERROR_RECEIVER, err.message);
      return FALSE;
    }
  /* Each changed property of the slot is an edit (receiver_slot_changed). */
  rw_project_receiver_set_spec (self->receiver_slots[i], spec);
  return TRUE;
}

const char *
rw_project_get_hrtf_path (RwProject *self)
{
  g_return_val_if_fail (RW_IS_PROJECT (self), NULL);
  return self->hrtf_path;
}

/* The check a run makes of a set (rw_hrtf_open at the output rate), so
 * that a project never holds one a run refuses. */
gboolean
_rw_project_check_hrtf (const char *path, GError **error)
{
  RwError err = { 0 };
  RwHrtf *h = rw_hrtf_open (path, RW_OUTPUT_RATE_HZ, &err);

  if (h == NULL)
    {
      g_set_error_literal (error, RW_PROJECT_ERROR, RW_PROJECT_ERROR_HRTF, err.message);
      return FALSE;
    }
  rw_hrtf_free (h);
  return TRUE;
}

gboolean
rw_project_set_hrtf_path (RwProject *self, const char *path, GError **error)
{
  g_return_val_if_fail (RW_IS_PROJECT (self), FALSE);
  g_autofree char *abs = path != NULL ? g_canonicalize_filename (path, NULL) : NULL;

  if (g_strcmp0 (abs, self->hrtf_path) == 0)
    return TRUE;
  if (abs != NULL && !_rw_project_check_hrtf (abs, error))
    return FALSE;
  g_free (self->hrtf_path);
  self->hrtf_path = g_steal_pointer (&abs);
  edited (self, PROP_HRTF_PATH);
  return TRUE;
}

/* The asynchronous setter: _rw_project_check_hrtf in a worker thread (task data: the
 * absolute path), the path set on the main context by hrtf_checked. */
static void
hrtf_check_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  GError *error = NULL;

  (void) source, (void) cancellable;
  if (_rw_project_check_hrtf (data, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
hrtf_checked (GObject *source, GAsyncResult *result, gpointer data)
{
  RwProject *self = RW_PROJECT (source);
  g_autoptr (GTask) outer = data;
  GError *error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      g_task_return_error (outer, error);
      return;
    }
  /* Cancelled while the set was read (a newer choice, a closed window):
   * nothing is set. */
  if (g_task_return_error_if_cancelled (outer))
    return;
  g_free (self->hrtf_path);
  self->hrtf_path = g_strdup (g_task_get_task_data (G_TASK (result)));
  edited (self, PROP_HRTF_PATH);
  g_task_return_boolean (outer, TRUE);
}

void
rw_project_set_hrtf_path_async (RwProject *self, const char *path, GCancellable *cancellable,
                                GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (RW_IS_PROJECT (self) && path != NULL);
  GTask *outer = g_task_new (self, cancellable, callback, user_data);
  g_autoptr (GTask) check = NULL;
  char *abs = g_canonicalize_filename (path, NULL);

  g_task_set_source_tag (outer, rw_project_set_hrtf_path_async);
  if (g_strcmp0 (abs, self->hrtf_path) == 0)
    {
      g_free (abs);
      g_task_return_boolean (outer, TRUE);
      g_object_unref (outer);
      return;
    }
  check = g_task_new (self, cancellable, hrtf_checked, outer);
  g_task_set_return_on_cancel (check, TRUE);
  g_task_set_source_tag (check, hrtf_check_thread);
  g_task_set_task_data (check, abs, g_free);
  g_task_run_in_thread (check, hrtf_check_thread);
}

gboolean
rw_project_set_hrtf_path_finish (RwProject *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ---- settings --------------------------------------------------------- */

const char *
rw_project_get_results_ref (RwProject *self)
{
  return self->results_ref;
}

void
rw_project_set_results_ref (RwProject *self, const char *relative)
{
  g_free (self->results_ref);
  self->results_ref = g_strdup (relative);
}

const RwSimSettings *
rw_project_get_settings (RwProject *self)
{
  return &self->settings;
}

void
rw_project_set_settings (RwProject *self, const RwSimSettings *settings)
{
  const RwSimSettings old = self->settings;

  g_return_if_fail (RW_IS_PROJECT (self) && settings != NULL);
  if (memcmp (settings, &self->settings, sizeof *settings) == 0)
    return;
  self->settings = *settings;
  g_object_freeze_notify (G_OBJECT (self));
#define NOTIFY_IF(field, prop)                                                  \
  if (old.field != settings->field)                                              \
    g_object_notify_by_pspec (G_OBJECT (self), properties[prop])
  NOTIFY_IF (fmax_hz, PROP_FMAX_HZ);
  NOTIFY_IF (duration_s, PROP_DURATION_S);
  NOTIFY_IF (temperature_c, PROP_TEMPERATURE_C);
  NOTIFY_IF (humidity_pct, PROP_HUMIDITY_PCT);
  NOTIFY_IF (air_absorption, PROP_AIR_ABSORPTION);
  NOTIFY_IF (ppw, PROP_PPW);
  NOTIFY_IF (scheme, PROP_SCHEME);
  NOTIFY_IF (boundary, PROP_BOUNDARY);
  NOTIFY_IF (backend, PROP_BACKEND);
  NOTIFY_IF (precision, PROP_PRECISION);
  NOTIFY_IF (device, PROP_DEVICE);
  NOTIFY_IF (hybrid, PROP_HYBRID);
  NOTIFY_IF (crossover_hz, PROP_CROSSOVER_HZ);
  NOTIFY_IF (n_rays, PROP_N_RAYS);
  NOTIFY_IF (ism_order, PROP_ISM_ORDER);
  NOTIFY_IF (seed, PROP_SEED);
#undef NOTIFY_IF
  /* R depends on fmax (the mean α up to fmax, rw_material_alpha_for_fmax),
   * and so does the fit (its bands: rw_sim_settings_fit_bands, which the
   * hybrid switch changes too). */
  if ((old.fmax_hz != settings->fmax_hz || old.hybrid != settings->hybrid) && self->mesh != NULL)
    {
      for (size_t i = 0; old.fmax_hz != settings->fmax_hz && i < self->mesh->n_surfaces; i++)
        derive_R (self, i);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SURFACE_MATERIALS]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SURFACE_ALPHA]);
    }
  rw_project_set_dirty (self, TRUE);
  g_object_thaw_notify (G_OBJECT (self));
}

void
rw_project_estimate (RwProject *self, double mvox_per_s, RwRunEstimate *out)
{
  const RwSimSettings *s = &self->settings;
  static const double bytes_per_value[] = { 4.0, 8.0, 2.0 };

  memset (out, 0, sizeof *out);
  /* The run's scheme and h as rw_sim resolves them (AUTO, ppw 0: the
   * scheme's default), fs at that scheme's Courant limit: at one fmax the
   * FCC scheme's default 5.75 points per wavelength give a spacing
   * 7.75/5.75 times the 7-point scheme's, and λ = 1 instead of 1/√3 a
   * rate √3·5.75/7.75 times its rate. */
  out->scheme = rw_project_get_scheme (self);
  out->ppw = rw_project_get_ppw (self);
  const RwLattice lattice = rw_scheme_lattice (out->scheme);
  const double cell = rw_scheme_cell_volume (lattice);
  out->c = rw_speed_of_sound (s->temperature_c);
  out->spacing_m = rw_spacing_for_fmax (out->c, s->fmax_hz, out->ppw);
  out->fs_grid_hz = rw_scheme_grid_rate (lattice, out->c, out->spacing_m);
  out->n_steps = (size_t) ceil (s->duration_s * out->fs_grid_hz);
  if (!self->have_report)
    return;
  /* the voxeliser's grid, on either lattice */
  size_t n[3];
  double origin[3];
  rw_voxel_auto_lattice (self->report.bbox_min, self->report.bbox_max, out->spacing_m, origin, n);
  out->nx = n[0];
  out->ny = n[1];
  out->nz = n[2];
  double cells = (double) n[0] * (double) n[1] * (double) n[2];
  /* The nodes: one per cube of h³ on the cubic lattice, one per rhombic
   * dodecahedron of 2h³ on the FCC lattice (the cells of even parity). */
  out->n_inside_estimate = fabs (self->report.volume_m3) / (cell * pow (out->spacing_m, 3));
  /* K (1 B) + surface id (2 B) per cell of the dense cubic array on both
   * lattices (rw-voxel.h; on the FCC one the odd cells stay K = 0,
   * rw_voxel_memory_bytes_fcc), plus the column ranges, and two pressure
   * fields per stored node: every cell on the cubic lattice, the sites
   * folded along x on the FCC one ((nx + 1)/2 per row, rw_fcc_row_len,
   * as both backends store them). */
  const double stored = lattice == RW_LATTICE_FCC
                        ? (double) rw_fcc_row_len (n[0]) * (double) n[1] * (double) n[2] : cells;
  out->memory_bytes = cells * 3.0 + stored * 2.0 * bytes_per_value[s->precision]
                      + (double) n[0] * (double) n[1] * 8.0;
  /* Frequency-dependent surfaces (FV only): the backends keep two states
   * (v, q) per branch on every boundary node, counted as every node having
   * the most branches of any surface, in fp32 (fp16 too) or fp64
   * (cpu_branch_state_bytes, rw_cuda_branch_bytes). The boundary nodes
   * are about one layer of nodes along the walls, the surface area over
   * h² (cubic) or 2h² (FCC: half the cells are sites); the voxeliser's
   * count is known only at the run. */
  if (s->boundary == RW_BOUNDARY_FV && self->mesh != NULL)
    {
      for (guint i = 0; i < self->mesh->n_surfaces; i++)
        {
          RwSurfaceModel m;
          if (rw_project_get_surface_model (self, i, &m, NULL))
            out->max_branches = MAX (out->max_branches, m.Y.n_branches);
        }
      out->n_boundary_estimate = self->report.area_m2 / (cell * out->spacing_m * out->spacing_m);
      if (out->max_branches > 0)
        out->branch_bytes = out->n_boundary_estimate * 2.0 * out->max_branches
                            * (s->precision == RW_PRECISION_F64 ? 8.0 : 4.0);
      out->memory_bytes += out->branch_bytes;
    }
  if (mvox_per_s > 0)
    out->seconds_estimate = out->n_inside_estimate * (double) out->n_steps / (mvox_per_s * 1e6);
}

gboolean
rw_project_check_scheme (RwProject *self, GError **error)
{
  g_return_val_if_fail (RW_IS_PROJECT (self), FALSE);
  if (rw_project_get_scheme (self) != RW_SCHEME_FCC)
    return TRUE;
  /* every receiver type runs on it (rw_sim_check_fcc) */
  if (self->settings.boundary != RW_BOUNDARY_FV)
    {
      g_set_error (error, RW_PROJECT_ERROR, RW_PROJECT_ERROR_SCHEME,
                   _("The FCC scheme has the finite-volume boundary only: choose that boundary form, "
                     "or the Cartesian (7-point) scheme."));
      return FALSE;
    }
  return TRUE;
}

void
rw_sim_settings_to_config (const RwSimSettings *settings, RwSimConfig *cfg)
{
  rw_sim_config_init (cfg);
  cfg->fmax_hz = settings->fmax_hz;
  cfg->duration_s = settings->duration_s;
  cfg->temperature_c = settings->temperature_c;
  cfg->humidity_pct = settings->humidity_pct;
  cfg->air_absorption = settings->air_absorption != FALSE;
  cfg->ppw = settings->ppw;
  cfg->scheme = settings->scheme;
  cfg->boundary = settings->boundary;
  cfg->backend = settings->backend;
  cfg->precision = settings->precision;
  cfg->device = settings->device;
  cfg->hybrid = settings->hybrid != FALSE;
  cfg->crossover_hz = settings->crossover_hz;
  cfg->n_rays = (size_t) settings->n_rays;
  cfg->ism_order = settings->ism_order;
  cfg->seed = settings->seed;
}

/* The run's config as far as the scheme's choice goes: the settings and
 * the receivers' types. */
static void
scheme_config (RwProject *self, RwSimConfig *cfg)
{
  rw_sim_settings_to_config (&self->settings, cfg);
  cfg->n_receivers = self->n_receivers;
  for (guint i = 0; i < self->n_receivers && i < RW_SIM_MAX_RECEIVERS; i++)
    rw_project_receiver_get_spec (self->receiver_slots[i], &cfg->receiver_specs[i]);
}

RwScheme
rw_project_get_scheme (RwProject *self)
{
  RwSimConfig cfg;

  g_return_val_if_fail (RW_IS_PROJECT (self), RW_SCHEME_CARTESIAN);
  scheme_config (self, &cfg);
  return rw_sim_resolve_scheme (&cfg);
}

double
rw_project_get_ppw (RwProject *self)
{
  RwSimConfig cfg;

  g_return_val_if_fail (RW_IS_PROJECT (self), 0.0);
  scheme_config (self, &cfg);
  return rw_sim_ppw (&cfg);
}

const char *
rw_project_scheme_label (RwScheme scheme)
{
  return scheme == RW_SCHEME_FCC ? _("FCC scheme (13-point)") : _("Cartesian scheme (7-point)");
}


int
rw_sim_settings_fit_bands (const RwSimSettings *settings)
{
  return settings->hybrid ? RW_N_OCTAVES : rw_admittance_bands_for_fmax (settings->fmax_hz);
}

double
rw_sim_settings_crossover_hz (const RwSimSettings *settings)
{
  RwSimConfig cfg;

  rw_sim_settings_to_config (settings, &cfg);
  return rw_sim_crossover_hz (&cfg);
}

double
rw_sim_settings_max_crossover_hz (const RwSimSettings *settings)
{
  RwSimConfig cfg;

  /* rw_hybrid_check_crossover's rule */
  rw_sim_settings_to_config (settings, &cfg);
  return rw_hybrid_max_crossover (cfg.fmax_hz, cfg.fs_out_hz);
}

/* The settings and points as a run would take them, checked by the
 * engine's rw_sim_check_settings (ppw ≥ 4, fmax, duration, temperature,
 * finite points). */
gboolean
_rw_project_check_run_settings (const RwSimSettings *settings, const double source[3],
                    const double (*receivers)[3], guint n_receivers, RwError *err)
{
  RwSimConfig cfg;

  rw_sim_settings_to_config (settings, &cfg);
  memcpy (cfg.source, source, sizeof cfg.source);
  cfg.n_receivers = n_receivers;
  memcpy (cfg.receivers, receivers, n_receivers * sizeof receivers[0]);
  return rw_sim_check_settings (&cfg, err);
}
