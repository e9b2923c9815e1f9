/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-project-file.c — RwProject's rooms and files (see rw-project.h):
 * importing a room (the import helper) or opening a project off the main
 * thread and installing what it brings, and the .roomwave file's writing,
 * reading and checks. The model itself is rw-project.c. */
#include "rw-project-private.h"
#include "rw-file.h"
#include "rw-json.h"

#include <glib/gi18n-lib.h>
#include <json-c/json.h>
#include <math.h>
#include <string.h>

/* Gives each surface of `mesh` the engine's choice (name matching, else the
 * default material) into freshly allocated arrays: names, R and α per band
 * (the library row). Runs in the import's worker thread: reads only the
 * library, which never changes. */
static gboolean
assign_defaults (const RwMaterialLibrary *library, double fmax_hz, const RwMesh *mesh, char ***names_out,
                 double **R_out, double **alpha_out, GError **error)
{
  size_t n = mesh->n_surfaces;
  g_autofree double *R = g_new0 (double, n ? n : 1);
  g_autofree double *alpha = g_new0 (double, (n ? n : 1) * RW_N_OCTAVES);
  char **names = g_new0 (char *, n ? n : 1);
  RwError err = { 0 };

  if (library != NULL)
    {
      char **eng_names = NULL;
      if (!rw_materials_assign (library, mesh, NULL, NAN, fmax_hz, R, &eng_names, &err))
        {
          g_free (names);
          g_set_error (error, RW_PROJECT_ERROR, RW_PROJECT_ERROR_MESH, "%s", err.message);
          return FALSE;
        }
      for (size_t i = 0; i < n; i++)
        {
          names[i] = g_strdup (eng_names && eng_names[i] ? eng_names[i] : CUSTOM_MATERIAL);
          if (!_rw_project_library_alpha (library, names[i], alpha + i * RW_N_OCTAVES))
            _rw_project_alpha_from_R (R[i], alpha + i * RW_N_OCTAVES);
          if (eng_names)
            free (eng_names[i]);
        }
      free (eng_names);
    }
  else
    {
      /* No library: every surface starts as a hard wall, R = 0.95 (α ≈ 0.1). */
      for (size_t i = 0; i < n; i++)
        {
          names[i] = g_strdup (CUSTOM_MATERIAL);
          R[i] = 0.95;
          _rw_project_alpha_from_R (R[i], alpha + i * RW_N_OCTAVES);
        }
    }
  *names_out = names;
  *R_out = g_steal_pointer (&R);
  *alpha_out = g_steal_pointer (&alpha);
  return TRUE;
}

/* Runs Assimp in the import helper (rw_import_helper_path), a process of
 * its own started with GSubprocess — never a fork() of this multi-threaded
 * process —, so that a file that crashes or hangs Assimp ends only the
 * helper. Cancelling `cancellable` kills the helper. Called from the
 * import's worker thread (and from the synchronous loaders). */
static gboolean
import_mesh (const char *path, double scale, GCancellable *cancellable, RwMesh **mesh_out,
             RwMeshReport *report, GError **error)
{
  RwError err = { 0 };
  const char *helper = rw_import_helper_path ();
  char scale_arg[RW_IMPORT_HELPER_SCALE_LEN];
  g_autoptr (GSubprocess) sub = NULL;
  g_autoptr (GBytes) out = NULL;
  g_autoptr (GError) local = NULL;
  RwMesh *mesh;
  gsize len = 0;

  if (!rw_mesh_load_precheck (path, scale, NULL, &err))
    {
      g_set_error (error, RW_PROJECT_ERROR, RW_PROJECT_ERROR_MESH, "%s", err.message);
      return FALSE;
    }
  if (helper == NULL)
    {
      g_set_error (error, RW_PROJECT_ERROR, RW_PROJECT_ERROR_MESH,
                   _("%s: the import helper roomwave-import-helper is not installed "
                     "(ROOMWAVE_IMPORT_HELPER may name it)"), path);
      return FALSE;
    }
  rw_import_helper_format_scale (scale, scale_arg);
  sub = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_SILENCE, &local,
                          helper, scale_arg, path, NULL);
  if (sub == NULL)
    {
      g_set_error (error, RW_PROJECT_ERROR, RW_PROJECT_ERROR_MESH,
                   _("%s: the import helper could not be started: %s"), path, local->message);
      return FALSE;
    }
  if (!g_subprocess_communicate (sub, NULL, cancellable, &out, NULL, &local))
    {
      g_subprocess_force_exit (sub);
      g_subprocess_wait (sub, NULL, NULL);
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  g_subprocess_wait (sub, NULL, NULL);
  const void *data = out != NULL ? g_bytes_get_data (out, &len) : NULL;
  mesh = rw_mesh_from_helper_output (path, scale, data, len, g_subprocess_get_status (sub), &err);
  if (mesh == NULL)
    {
      g_set_error (error, RW_PROJECT_ERROR, RW_PROJECT_ERROR_MESH, "%s", err.message);
      return FALSE;
    }
  memset (report, 0, sizeof *report);
  if (!rw_mesh_report (mesh, report, &err))
    {
      rw_mesh_free (mesh);
      g_set_error (error, RW_PROJECT_ERROR, RW_PROJECT_ERROR_MESH, "%s", err.message);
      return FALSE;
    }
  *mesh_out = mesh;
  return TRUE;
}

/* Everything an imported room or an opened project brings: built off the
 * main thread (load_work), then installed in one go (install). */
typedef struct {
  GFile *file;                  /* the project file; NULL for a bare mesh */
  char *mesh_path;              /* absolute */
  double scale;
  RwMesh *mesh;
  RwMeshReport report;
  gboolean have_report;
  char **names;                 /* mesh->n_surfaces */
  double *R;
  double *alpha;                /* mesh->n_surfaces × RW_N_OCTAVES */
  double source[3];
  guint n_receivers;
  double receivers[RW_PROJECT_MAX_RECEIVERS][3];
  RwReceiverSpec receiver_specs[RW_PROJECT_MAX_RECEIVERS];   /* zeroed: omni */
  char *hrtf_path;              /* absolute, or NULL */
  RwSimSettings settings;
  char *results_ref;
} Loaded;

static void
loaded_free (Loaded *l)
{
  if (l->names != NULL)
    {
      for (size_t i = 0; l->mesh != NULL && i < l->mesh->n_surfaces; i++)
        g_free (l->names[i]);
      g_free (l->names);
    }
  g_free (l->R);
  g_free (l->alpha);
  if (l->have_report)
    rw_mesh_report_clear (&l->report);
  g_clear_pointer (&l->mesh, rw_mesh_free);
  g_clear_object (&l->file);
  g_free (l->mesh_path);
  g_free (l->results_ref);
  g_free (l->hrtf_path);
  g_free (l);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Loaded, loaded_free)

/* What the worker needs from the project, copied on the main thread. */
typedef struct {
  GFile *file;                          /* a .roomwave project, or NULL */
  char *mesh_path;                      /* a bare mesh (file NULL) */
  double import_scale;
  RwSimSettings settings;               /* kept by a bare mesh */
  char *hrtf_path;                      /* kept by a bare mesh, as the settings are */
  const RwMaterialLibrary *library;     /* the project's: immutable, and the task holds the project */
} Request;

static void
request_free (Request *rq)
{
  g_clear_object (&rq->file);
  g_free (rq->mesh_path);
  g_free (rq->hrtf_path);
  g_free (rq);
}

static gboolean parse_project (const Request *rq, GCancellable *cancellable, Loaded *l, GError **error);

/* Off the main thread: imports the mesh (or reads the project and its
 * mesh) and computes its report, materials and default points. */
static Loaded *
load_work (const Request *rq, GCancellable *cancellable, GError **error)
{
  g_autoptr (Loaded) l = g_new0 (Loaded, 1);

  if (rq->file != NULL)
    return parse_project (rq, cancellable, l, error) ? g_steal_pointer (&l) : NULL;

  g_autoptr (GFile) mf = g_file_new_for_path (rq->mesh_path);
  l->mesh_path = g_file_get_path (mf);
  l->scale = rq->import_scale;
  l->settings = rq->settings;
  l->hrtf_path = g_strdup (rq->hrtf_path);
  if (!import_mesh (l->mesh_path, l->scale, cancellable, &l->mesh, &l->report, error))
    return NULL;
  l->have_report = TRUE;
  if (!assign_defaults (rq->library, l->settings.fmax_hz, l->mesh, &l->names, &l->R, &l->alpha, error))
    return NULL;
  /* Defaults: the source a quarter of the way along the room, the
   * receiver across it, both at 40–45 % of the height (_rw_project_default_point
   * moves them inside when the shape puts that spot outside). */
  static const double fs[3] = { 0.25, 0.4, 0.45 };
  static const double fr[3] = { 0.7, 0.55, 0.4 };
  _rw_project_default_point (l->mesh, &l->report, fs, l->source);
  l->n_receivers = 1;
  _rw_project_default_point (l->mesh, &l->report, fr, l->receivers[0]);
  return g_steal_pointer (&l);
}

/* On the main thread: the loaded state replaces the project's, and every
 * property is notified. */
static void
install (RwProject *self, Loaded *l)
{
  _rw_project_clear_mesh (self);
  self->mesh_path = g_steal_pointer (&l->mesh_path);
  self->mesh = g_steal_pointer (&l->mesh);
  self->report = l->report;
  self->have_report = l->have_report;
  l->have_report = FALSE;
  self->surface_material = g_steal_pointer (&l->names);
  self->surface_R = g_steal_pointer (&l->R);
  self->surface_alpha = g_steal_pointer (&l->alpha);
  self->scale = l->scale;
  self->settings = l->settings;
  memcpy (self->source, l->source, sizeof self->source);
  memcpy (self->receivers, l->receivers, sizeof self->receivers);
  self->n_receivers = l->n_receivers;
  for (guint i = 0; i < RW_PROJECT_MAX_RECEIVERS; i++)
    _rw_project_put_slot (self, i, &l->receiver_specs[i]);
  g_free (self->hrtf_path);
  self->hrtf_path = g_steal_pointer (&l->hrtf_path);
  g_free (self->results_ref);
  self->results_ref = g_steal_pointer (&l->results_ref);
  _rw_project_set_file (self, l->file);
  _rw_project_notify_all (self);
  rw_project_set_dirty (self, FALSE);
}

static Request *
request_new (RwProject *self, GFile *file)
{
  Request *rq = g_new0 (Request, 1);
  g_autofree char *path = g_file_get_path (file);

  if (path != NULL && g_str_has_suffix (path, ".roomwave"))
    rq->file = g_object_ref (file);
  else
    rq->mesh_path = g_steal_pointer (&path);
  rq->import_scale = self->import_scale;
  rq->settings = self->settings;
  rq->hrtf_path = g_strdup (self->hrtf_path);
  rq->library = self->library;
  return rq;
}

static gboolean
load_now (RwProject *self, GFile *file, GError **error)
{
  Request *rq = request_new (self, file);
  Loaded *l = load_work (rq, NULL, error);

  request_free (rq);
  if (l == NULL)
    return FALSE;
  install (self, l);
  loaded_free (l);
  return TRUE;
}

gboolean
rw_project_load_mesh (RwProject *self, const char *path, GError **error)
{
  g_return_val_if_fail (RW_IS_PROJECT (self) && path != NULL, FALSE);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  return load_now (self, file, error);
}

static void
open_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  GError *error = NULL;
  Loaded *l = load_work (data, cancellable, &error);

  (void) source;
  if (l == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, l, (GDestroyNotify) loaded_free);
}

void
rw_project_open_async (RwProject *self, GFile *file, GCancellable *cancellable, GAsyncReadyCallback callback,
                       gpointer user_data)
{
  g_return_if_fail (RW_IS_PROJECT (self) && G_IS_FILE (file));
  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, rw_project_open_async);
  g_task_set_task_data (task, request_new (self, file), (GDestroyNotify) request_free);
  g_task_run_in_thread (task, open_thread);
}

gboolean
rw_project_open_finish (RwProject *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_autoptr (Loaded) l = g_task_propagate_pointer (G_TASK (result), error);

  if (l == NULL)
    return FALSE;
  install (self, l);
  return TRUE;
}


/* ---- the .roomwave file ------------------------------------------------ */

gboolean
rw_project_save (RwProject *self, GFile *file, GError **error)
{
  g_return_val_if_fail (RW_IS_PROJECT (self) && G_IS_FILE (file), FALSE);
  g_return_val_if_fail (self->mesh != NULL, FALSE);

  g_autoptr (GFile) dir = g_file_get_parent (file);
  g_autoptr (GFile) mesh_file = g_file_new_for_path (self->mesh_path);
  g_autofree char *rel = dir ? g_file_get_relative_path (dir, mesh_file) : NULL;
  json_object *root = json_object_new_object ();
  json_object *surfaces = json_object_new_array ();
  json_object *receivers = json_object_new_array ();
  json_object *settings = json_object_new_object ();

  json_object_object_add (root, "format", json_object_new_string ("roomwave-project"));
  json_object_object_add (root, "version", json_object_new_int (RW_PROJECT_FORMAT_VERSION));
  /* Relative when the mesh lies at or below the project's folder, so that
   * the pair can be moved together; absolute otherwise. */
  json_object_object_add (root, "mesh", json_object_new_string (rel ? rel : self->mesh_path));
  json_object_object_add (root, "scale", json_object_new_double (self->scale));
  for (size_t i = 0; i < self->mesh->n_surfaces; i++)
    {
      json_object *o = json_object_new_object ();
      json_object_object_add (o, "name", json_object_new_string (self->mesh->surface_names[i]));
      json_object_object_add (o, "material", json_object_new_string (self->surface_material[i]));
      json_object_object_add (o, "R", json_object_new_double (self->surface_R[i]));
      json_object *ja = json_object_new_array ();
      for (int b = 0; b < RW_N_OCTAVES; b++)
        json_object_array_add (ja, json_object_new_double (self->surface_alpha[i * RW_N_OCTAVES + b]));
      json_object_object_add (o, "alpha", ja);
      json_object_array_add (surfaces, o);
    }
  json_object_object_add (root, "surfaces", surfaces);
  json_object_object_add (root, "source", rw_json_vec3 (self->source));
  for (guint i = 0; i < self->n_receivers; i++)
    json_object_array_add (receivers, rw_json_vec3 (self->receivers[i]));
  json_object_object_add (root, "receivers", receivers);
  /* What each receiver records (issue #13), beside the positions so that
   * an older Roomwave still reads the points; the keys are results.json's. */
  json_object *specs = json_object_new_array ();
  for (guint i = 0; i < self->n_receivers; i++)
    {
      RwReceiverSpec spec;
      json_object *o = json_object_new_object ();
      rw_project_receiver_get_spec (self->receiver_slots[i], &spec);
      json_object_object_add (o, "type", json_object_new_string (rw_receiver_type_name (spec.type)));
      if (spec.type == RW_RECEIVER_AMBISONIC)
        json_object_object_add (o, "order", json_object_new_int (spec.order));
      if (spec.type != RW_RECEIVER_OMNI)
        {
          json_object_object_add (o, "yaw_deg", json_object_new_double (spec.yaw_deg));
          json_object_object_add (o, "pitch_deg", json_object_new_double (spec.pitch_deg));
        }
      json_object_array_add (specs, o);
    }
  json_object_object_add (root, "receiver_specs", specs);
  if (self->hrtf_path != NULL)
    {
      g_autoptr (GFile) hf = g_file_new_for_path (self->hrtf_path);
      g_autofree char *hrel = dir ? g_file_get_relative_path (dir, hf) : NULL;
      json_object_object_add (root, "hrtf", json_object_new_string (hrel ? hrel : self->hrtf_path));
    }
  json_object_object_add (settings, "fmax_hz", json_object_new_double (self->settings.fmax_hz));
  json_object_object_add (settings, "duration_s", json_object_new_double (self->settings.duration_s));
  json_object_object_add (settings, "temperature_c", json_object_new_double (self->settings.temperature_c));
  json_object_object_add (settings, "humidity_pct", json_object_new_double (self->settings.humidity_pct));
  json_object_object_add (settings, "air_absorption", json_object_new_boolean (self->settings.air_absorption));
  json_object_object_add (settings, "ppw", json_object_new_double (self->settings.ppw));
  json_object_object_add (settings, "scheme", json_object_new_string (rw_scheme_name (self->settings.scheme)));
  json_object_object_add (settings, "boundary", json_object_new_string (rw_boundary_name (self->settings.boundary)));
  json_object_object_add (settings, "backend", json_object_new_string (rw_backend_kind_name (self->settings.backend)));
  json_object_object_add (settings, "precision", json_object_new_string (rw_precision_name (self->settings.precision)));
  json_object_object_add (settings, "device", json_object_new_int (self->settings.device));
  json_object_object_add (settings, "hybrid", json_object_new_boolean (self->settings.hybrid));
  json_object_object_add (settings, "crossover_hz", json_object_new_double (self->settings.crossover_hz));
  json_object_object_add (settings, "n_rays", json_object_new_int64 ((int64_t) self->settings.n_rays));
  json_object_object_add (settings, "ism_order", json_object_new_int (self->settings.ism_order));
  json_object_object_add (settings, "seed", json_object_new_int64 ((int64_t) self->settings.seed));
  json_object_object_add (root, "settings", settings);
  if (self->results_ref != NULL)
    json_object_object_add (root, "results", json_object_new_string (self->results_ref));

  const char *text = json_object_to_json_string_ext (root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED
                                                        | JSON_C_TO_STRING_NOSLASHESCAPE);
  g_autofree char *contents = g_strconcat (text, "\n", NULL);
  json_object_put (root);

  /* A temporary file beside it, synced, renamed over it, the folder
   * synced: a crash mid-save never loses the saved project nor leaves half
   * a new one, on the first save as on later ones (g_file_replace_contents
   * writes a file that does not exist yet in place). */
  g_autofree char *path = g_file_get_path (file);
  RwError err = { 0 };
  if (path == NULL)
    {
      g_autofree char *name = g_file_get_parse_name (file);
      g_set_error (error, RW_PROJECT_ERROR, RW_PROJECT_ERROR_FILE, _("%s: only local files can be saved"), name);
      return FALSE;
    }
  if (!rw_file_write_atomic (path, contents, strlen (contents), &err))
    {
      g_set_error (error, RW_PROJECT_ERROR, RW_PROJECT_ERROR_FILE, "%s", err.message);
      return FALSE;
    }
  _rw_project_set_file (self, file);
  rw_project_set_dirty (self, FALSE);
  return TRUE;
}

static gboolean
file_error (GError **error, GFile *file, const char *what)
{
  g_autofree char *name = g_file_get_parse_name (file);
  g_set_error (error, RW_PROJECT_ERROR, RW_PROJECT_ERROR_FILE, "%s: %s", name, what);
  return FALSE;
}

static gboolean
get_number (json_object *o, const char *key, double lo, double hi, double *out)
{
  json_object *v;
  if (!json_object_object_get_ex (o, key, &v))
    return FALSE;
  if (!json_object_is_type (v, json_type_double) && !json_object_is_type (v, json_type_int))
    return FALSE;
  double d = json_object_get_double (v);
  if (!isfinite (d) || d < lo || d > hi)
    return FALSE;
  *out = d;
  return TRUE;
}

static gboolean
get_vec3 (json_object *v, double p[3])
{
  if (!json_object_is_type (v, json_type_array) || json_object_array_length (v) != 3)
    return FALSE;
  for (int k = 0; k < 3; k++)
    {
      json_object *e = json_object_array_get_idx (v, k);
      if (!json_object_is_type (e, json_type_double) && !json_object_is_type (e, json_type_int))
        return FALSE;
      p[k] = json_object_get_double (e);
      if (!isfinite (p[k]))
        return FALSE;
    }
  return TRUE;
}

static const char *
get_string (json_object *o, const char *key)
{
  json_object *v;
  if (!json_object_object_get_ex (o, key, &v) || !json_object_is_type (v, json_type_string))
    return NULL;
  return json_object_get_string (v);
}

/* An optional setting `key` of the settings object: left as it is when
 * absent; a number (a whole one when `whole`) in [lo, hi] when present,
 * else FALSE with `error` naming the file and the key. */
static gboolean
get_setting_number (json_object *jset, const char *key, gboolean whole, double lo, double hi, double *out,
                    GFile *file, GError **error)
{
  json_object *v;
  double d = 0;

  if (!json_object_object_get_ex (jset, key, &v))
    return TRUE;
  if ((whole && !json_object_is_type (v, json_type_int)) || !get_number (jset, key, lo, hi, &d)
      || (whole && d != floor (d)))
    {
      g_autofree char *msg = whole
        ? g_strdup_printf (_("the setting “%s” is not a whole number from %.0f to %.0f"), key, lo, hi)
        : g_strdup_printf (_("the setting “%s” is not a number"), key);
      return file_error (error, file, msg);
    }
  *out = d;
  return TRUE;
}

/* An optional true/false setting `key`, as get_setting_number. */
static gboolean
get_setting_bool (json_object *jset, const char *key, gboolean *out, GFile *file, GError **error)
{
  json_object *v;

  if (!json_object_object_get_ex (jset, key, &v))
    return TRUE;
  if (!json_object_is_type (v, json_type_boolean))
    {
      g_autofree char *msg = g_strdup_printf (_("the setting “%s” is not true or false"), key);
      return file_error (error, file, msg);
    }
  *out = json_object_get_boolean (v);
  return TRUE;
}


/* The whole file parsed in one go and checked to be a project: NULL with
 * `error` naming the file otherwise. */
static json_object *
read_project_json (GFile *file, GError **error)
{
  g_autofree char *contents = NULL;
  gsize length = 0;

  if (!g_file_load_contents (file, NULL, &contents, &length, NULL, error))
    return NULL;

  /* json_tokener_continue at the end means the file stops mid-value
   * (truncated). */
  json_tokener *tok = json_tokener_new ();
  json_object *root = json_tokener_parse_ex (tok, contents, (int) length);
  enum json_tokener_error jerr = json_tokener_get_error (tok);
  json_tokener_free (tok);
  if (root == NULL || jerr != json_tokener_success)
    {
      g_clear_pointer (&root, json_object_put);
      if (jerr == json_tokener_continue || length == 0)
        file_error (error, file, _("the file is truncated (it ends before the project does)"));
      else
        file_error (error, file, _("not a Roomwave project (invalid JSON)"));
      return NULL;
    }
  if (!json_object_is_type (root, json_type_object)
      || g_strcmp0 (get_string (root, "format"), "roomwave-project") != 0)
    {
      json_object_put (root);
      file_error (error, file, _("not a Roomwave project"));
      return NULL;
    }
  return root;
}

/* A path a project names, resolved against the project's folder `dir`
 * (NULL: the working folder) unless absolute, with "." and ".." removed. */
static char *
resolve_path (GFile *dir, const char *path)
{
  g_autofree char *base = dir ? g_file_get_path (dir) : NULL;
  return g_canonicalize_filename (path, base);
}

char **
rw_project_file_outside_paths (GFile *file, GError **error)
{
  g_autoptr (GFile) dir = g_file_get_parent (file);
  g_autofree char *dir_path = dir ? g_file_get_path (dir) : NULL;
  g_autofree char *canon_dir = dir_path ? g_canonicalize_filename (dir_path, NULL) : NULL;
  g_autoptr (GStrvBuilder) outside = g_strv_builder_new ();
  static const char *const keys[] = { "mesh", "results", "hrtf" };
  json_object *root = read_project_json (file, error);

  if (root == NULL)
    return NULL;
  for (gsize i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      const char *p = get_string (root, keys[i]);
      if (p == NULL)
        continue;
      g_autofree char *abs = resolve_path (dir, p);
      /* Inside: the folder itself or a path below it. */
      gboolean inside = canon_dir != NULL
                        && (g_str_equal (abs, canon_dir)
                            || (g_str_has_prefix (abs, canon_dir)
                                && (g_str_equal (canon_dir, "/") || abs[strlen (canon_dir)] == '/')));
      if (!inside)
        g_strv_builder_add (outside, abs);
    }
  json_object_put (root);
  return g_strv_builder_end (outside);
}

gboolean
rw_project_load (RwProject *self, GFile *file, GError **error)
{
  g_return_val_if_fail (RW_IS_PROJECT (self) && G_IS_FILE (file), FALSE);
  g_autofree char *path = g_file_get_path (file);
  if (path == NULL || !g_str_has_suffix (path, ".roomwave"))
    return file_error (error, file, _("not a Roomwave project"));
  return load_now (self, file, error);
}

/* "receiver_specs" (absent in older files: every receiver omni), one
 * object per receiver with results.json's keys "type", "order",
 * "yaw_deg", "pitch_deg", each spec checked by the engine's
 * rw_receiver_check; FALSE with `error` naming the file and the receiver. */
static gboolean
parse_receiver_specs (json_object *root, guint n_receivers, RwReceiverSpec *specs, GFile *file, GError **error)
{
  json_object *v;

  memset (specs, 0, n_receivers * sizeof specs[0]);
  if (!json_object_object_get_ex (root, "receiver_specs", &v))
    return TRUE;
  if (!json_object_is_type (v, json_type_array) || json_object_array_length (v) != n_receivers)
    {
      g_autofree char *msg = g_strdup_printf (_("“receiver_specs” must list one entry per receiver (%u)"),
                                              n_receivers);
      return file_error (error, file, msg);
    }
  for (guint i = 0; i < n_receivers; i++)
    {
      json_object *o = json_object_array_get_idx (v, i), *e;
      const char *type = o != NULL && json_object_is_type (o, json_type_object) ? get_string (o, "type") : NULL;
      g_autofree char *what = g_strdup_printf (_("receiver %u"), i + 1);
      RwReceiverSpec *spec = &specs[i];
      RwError err = { 0 };
      double order = 0;

      if (type == NULL || !rw_receiver_type_from_name (type, &spec->type))
        {
          g_autofree char *msg = g_strdup_printf (_("%s: unknown receiver type “%s” (omni, binaural or ambisonic)"),
                                                  what, type ? type : "");
          return file_error (error, file, msg);
        }
      /* Numbers of any value here; their ranges are the engine's check. */
      if ((json_object_object_get_ex (o, "order", &e)
           && (!json_object_is_type (e, json_type_int) || !get_number (o, "order", G_MININT, G_MAXINT, &order)))
          || (json_object_object_get_ex (o, "yaw_deg", &e)
              && !get_number (o, "yaw_deg", -G_MAXDOUBLE, G_MAXDOUBLE, &spec->yaw_deg))
          || (json_object_object_get_ex (o, "pitch_deg", &e)
              && !get_number (o, "pitch_deg", -G_MAXDOUBLE, G_MAXDOUBLE, &spec->pitch_deg)))
        {
          g_autofree char *msg = g_strdup_printf (_("%s: “order” must be a whole number, “yaw_deg” and "
                                                    "“pitch_deg” numbers"), what);
          return file_error (error, file, msg);
        }
      spec->order = (int) order;
      if (!rw_receiver_check (spec, what, &err))
        return file_error (error, file, err.message);
    }
  return TRUE;
}

/* Reads and checks the whole project file rq->file, then imports its mesh
 * (in the worker thread): `l` is filled only when all of it holds. */
static gboolean
parse_project (const Request *rq, GCancellable *cancellable, Loaded *l, GError **error)
{
  GFile *file = rq->file;
  g_autoptr (GFile) dir = g_file_get_parent (file);
  json_object *root = NULL, *v = NULL;
  gboolean ok = FALSE;
  RwSimSettings settings = rq->settings;
  double source[3], receivers[RW_PROJECT_MAX_RECEIVERS][3];
  RwReceiverSpec receiver_specs[RW_PROJECT_MAX_RECEIVERS] = { { 0 } };
  g_autofree char *hrtf_path = NULL;
  guint n_receivers = 0;
  RwMesh *mesh = NULL;
  RwMeshReport report;
  char **names = NULL;
  double *R = NULL, *alpha = NULL;
  g_autofree char *mesh_path = NULL;
  gboolean have_report = FALSE;
  RwError rerr = { 0 };

  root = read_project_json (file, error);
  if (root == NULL)
    return FALSE;
  /* Any whole number from 1 up: a version beyond this build's (1e300
   * too) is a file from a newer Roomwave, not an invalid one. */
  double version = 0;
  if (!get_number (root, "version", 1, INFINITY, &version) || version != floor (version))
    {
      file_error (error, file, _("the project has no valid format version"));
      goto out;
    }
  if (version > RW_PROJECT_FORMAT_VERSION)
    {
      g_autofree char *name = g_file_get_parse_name (file);
      g_set_error (error, RW_PROJECT_ERROR, RW_PROJECT_ERROR_VERSION,
                   _("%s: written by a newer Roomwave (format version %g; this version reads up to %d)"),
                   name, version, RW_PROJECT_FORMAT_VERSION);
      goto out;
    }

  double scale = 1.0;
  if (json_object_object_get_ex (root, "scale", &v) && !get_number (root, "scale", 1e-6, 1e6, &scale))
    {
      file_error (error, file, _("the mesh scale is invalid"));
      goto out;
    }

  const char *mesh_rel = get_string (root, "mesh");
  if (mesh_rel == NULL)
    {
      file_error (error, file, _("the project names no mesh file"));
      goto out;
    }
  mesh_path = resolve_path (dir, mesh_rel);

  /* Ranges are not checked here but below, by the engine's own checks
   * for a run: a file is refused exactly when a run would refuse it. */
  json_object *jset;
  if (!json_object_object_get_ex (root, "settings", &jset) || !json_object_is_type (jset, json_type_object)
      || !get_number (jset, "fmax_hz", -G_MAXDOUBLE, G_MAXDOUBLE, &settings.fmax_hz)
      || !get_number (jset, "duration_s", -G_MAXDOUBLE, G_MAXDOUBLE, &settings.duration_s)
      || !get_number (jset, "temperature_c", -G_MAXDOUBLE, G_MAXDOUBLE, &settings.temperature_c)
      || !get_number (jset, "ppw", -G_MAXDOUBLE, G_MAXDOUBLE, &settings.ppw))
    {
      file_error (error, file, _("the simulation settings are missing or out of range"));
      goto out;
    }
  if (!rw_boundary_parse (get_string (jset, "boundary"), &settings.boundary)
      || !rw_backend_kind_parse (get_string (jset, "backend"), &settings.backend)
      || !rw_precision_parse (get_string (jset, "precision"), &settings.precision))
    {
      file_error (error, file, _("unknown boundary form, backend or precision"));
      goto out;
    }
  /* "scheme" (issue #14): absent in older files, which ran the 7-point
   * scheme whatever AUTO picks now, so that their results stay
   * reproducible. */
  settings.scheme = RW_SCHEME_CARTESIAN;
  if (json_object_object_get_ex (jset, "scheme", &v) && !rw_scheme_parse (get_string (jset, "scheme"), &settings.scheme))
    {
      g_autofree char *msg = g_strdup_printf (_("unknown scheme “%s” (auto, cartesian or fcc)"),
                                              json_object_is_type (v, json_type_string)
                                                ? json_object_get_string (v) : json_object_to_json_string (v));
      file_error (error, file, msg);
      goto out;
    }
  /* "device" (absent in older files: 0) is a whole number; whether the
   * device exists is the run's check, as whether CUDA runs here is: the
   * engine refuses it there with its message, and the file may come from
   * a machine with more GPUs. */
  double device = 0;
  if (json_object_object_get_ex (jset, "device", &v)
      && (!json_object_is_type (v, json_type_int)
          || !get_number (jset, "device", 0, RW_PROJECT_MAX_DEVICE, &device)))
    {
      file_error (error, file, _("the device index is not a whole number from 0 to 255"));
      goto out;
    }
  settings.device = (int) device;
  /* "humidity_pct" and "air_absorption" (absent in older files: 50 % and
   * on, the engine's defaults); the humidity's range is the run's check. */
  settings.humidity_pct = RW_AIR_DEFAULT_HUMIDITY_PCT;
  settings.air_absorption = TRUE;
  if ((json_object_object_get_ex (jset, "humidity_pct", &v)
       && !get_number (jset, "humidity_pct", -G_MAXDOUBLE, G_MAXDOUBLE, &settings.humidity_pct))
      || (json_object_object_get_ex (jset, "air_absorption", &v) && !json_object_is_type (v, json_type_boolean)))
    {
      file_error (error, file, _("the air humidity or the air absorption switch is invalid"));
      goto out;
    }
  if (json_object_object_get_ex (jset, "air_absorption", &v))
    settings.air_absorption = json_object_get_boolean (v);
  /* The full-band settings (absent in older files: the engine's
   * defaults, a hybrid run with the automatic crossover); their ranges are
   * the run's check below. */
  _rw_project_sim_settings_hybrid_defaults (&settings);
  if (!get_setting_bool (jset, "hybrid", &settings.hybrid, file, error)
      || !get_setting_number (jset, "crossover_hz", FALSE, -G_MAXDOUBLE, G_MAXDOUBLE, &settings.crossover_hz,
                              file, error))
    goto out;
  double n_rays = (double) settings.n_rays, ism_order = settings.ism_order, seed = (double) settings.seed;
  if (!get_setting_number (jset, "n_rays", TRUE, 0, (double) G_MAXUINT, &n_rays, file, error)
      || !get_setting_number (jset, "ism_order", TRUE, 0, G_MAXINT, &ism_order, file, error)
      || !get_setting_number (jset, "seed", TRUE, 0, (double) RW_PROJECT_MAX_SEED, &seed, file, error))
    goto out;
  settings.n_rays = (guint64) n_rays;
  settings.ism_order = (int) ism_order;
  settings.seed = (guint64) seed;

  if (!json_object_object_get_ex (root, "source", &v) || !get_vec3 (v, source))
    {
      file_error (error, file, _("the source position is missing or invalid"));
      goto out;
    }
  if (!json_object_object_get_ex (root, "receivers", &v) || !json_object_is_type (v, json_type_array)
      || json_object_array_length (v) < 1 || json_object_array_length (v) > RW_PROJECT_MAX_RECEIVERS)
    {
      file_error (error, file, _("the receiver list is missing or invalid"));
      goto out;
    }
  n_receivers = (guint) json_object_array_length (v);
  for (guint i = 0; i < n_receivers; i++)
    if (!get_vec3 (json_object_array_get_idx (v, i), receivers[i]))
      {
        file_error (error, file, _("a receiver position is invalid"));
        goto out;
      }
  if (!parse_receiver_specs (root, n_receivers, receiver_specs, file, error))
    goto out;
  /* "hrtf" (optional: the bundled set), resolved as the mesh is; the set
   * is opened as a run opens it, so that a file a run refuses is refused
   * here, naming both files. */
  if (json_object_object_get_ex (root, "hrtf", &v))
    {
      const char *h = get_string (root, "hrtf");
      g_autoptr (GError) herr = NULL;
      if (h == NULL || *h == '\0')
        {
          file_error (error, file, _("“hrtf” must name a SOFA file"));
          goto out;
        }
      hrtf_path = resolve_path (dir, h);
      if (!_rw_project_check_hrtf (hrtf_path, &herr))
        {
          file_error (error, file, herr->message);
          goto out;
        }
    }
  /* The geometrical part's settings are checked with the switch off too
   * (as a hybrid run would take them), so that switching it on never
   * meets a value the file should not have held. */
  /* What the FCC scheme lacks (the LRS and Savioja boundaries) is the
   * window's warning and refused run
   * (rw_project_check_scheme), not a reason to refuse the file: the
   * window saves such a project, and it must open again. The rest is
   * checked as for the 7-point scheme. */
  RwSimSettings checked = settings;
  if (checked.scheme == RW_SCHEME_FCC)
    checked.scheme = RW_SCHEME_CARTESIAN;
  RwSimSettings as_hybrid = checked;
  as_hybrid.hybrid = TRUE;
  if (!_rw_project_check_run_settings (&checked, source, receivers, n_receivers, &rerr)
      || !_rw_project_check_run_settings (&as_hybrid, source, receivers, n_receivers, &rerr))
    {
      file_error (error, file, rerr.message);
      goto out;
    }

  /* Only now the mesh: the file is known to be whole. */
  if (!import_mesh (mesh_path, scale, cancellable, &mesh, &report, error))
    {
      if (!g_error_matches (*error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_prefix_error (error, _("%s: the project's mesh could not be loaded: "),
                        g_file_peek_path (file) ? g_file_peek_path (file) : "");
      goto out;
    }
  have_report = TRUE;
  if (!assign_defaults (rq->library, settings.fmax_hz, mesh, &names, &R, &alpha, error))
    goto out;

  json_object *jsurf;
  if (!json_object_object_get_ex (root, "surfaces", &jsurf) || !json_object_is_type (jsurf, json_type_array))
    {
      file_error (error, file, _("the surface list is missing"));
      goto out;
    }
  for (size_t i = 0; i < json_object_array_length (jsurf); i++)
    {
      json_object *o = json_object_array_get_idx (jsurf, i);
      const char *name = get_string (o, "name");
      const char *mat = get_string (o, "material");
      double r;
      if (name == NULL || mat == NULL || !get_number (o, "R", -G_MAXDOUBLE, G_MAXDOUBLE, &r))
        {
          file_error (error, file, _("a surface entry is invalid"));
          goto out;
        }
      size_t s;
      for (s = 0; s < mesh->n_surfaces; s++)
        if (strcmp (mesh->surface_names[s], name) == 0)
          break;
      if (s == mesh->n_surfaces)
        {
          g_autofree char *msg = g_strdup_printf (_("the mesh has no surface named “%s”"), name);
          file_error (error, file, msg);
          goto out;
        }
      /* The solver's own check (R = −1 only with the Savioja boundary). */
      if (!rw_reflection_check (r, settings.boundary, &rerr))
        {
          g_autofree char *msg = g_strdup_printf ("“%s”: %s", name, rerr.message);
          file_error (error, file, msg);
          goto out;
        }
      g_free (names[s]);
      names[s] = g_strdup (mat);
      R[s] = r;
      /* α per band: written since issue #11. An older file has R alone:
       * a library material's R came from its row (the row's α is the
       * surface's), any other R is the same statistical α in every band. */
      double *a = alpha + s * RW_N_OCTAVES;
      json_object *ja;
      if (json_object_object_get_ex (o, "alpha", &ja))
        {
          if (!json_object_is_type (ja, json_type_array) || json_object_array_length (ja) != RW_N_OCTAVES)
            {
              g_autofree char *msg = g_strdup_printf (_("“%s”: “alpha” must list %d octave bands (63 Hz … 8 kHz)"),
                                                      name, RW_N_OCTAVES);
              file_error (error, file, msg);
              goto out;
            }
          for (int b = 0; b < RW_N_OCTAVES; b++)
            {
              json_object *v = json_object_array_get_idx (ja, b);
              a[b] = v != NULL && (json_object_is_type (v, json_type_double) || json_object_is_type (v, json_type_int))
                     ? json_object_get_double (v) : NAN;
              if (!(a[b] >= 0 && a[b] <= 1))
                {
                  g_autofree char *msg = g_strdup_printf (_("“%s”: α of the %g Hz band must be a number from 0 to 1"),
                                                          name, rw_octave_centres_hz[b]);
                  file_error (error, file, msg);
                  goto out;
                }
            }
          /* R follows α, except for one typed R (α the same in every band). */
          if (!_rw_project_alpha_uniform (a))
            R[s] = rw_project_R_from_alpha (a, settings.fmax_hz);
        }
      else if (!_rw_project_library_alpha (rq->library, mat, a))
        _rw_project_alpha_from_R (r, a);
    }

  if (!rw_mesh_point_inside (mesh, source))
    {
      file_error (error, file, _("the source lies outside the room"));
      goto out;
    }
  for (guint i = 0; i < n_receivers; i++)
    if (!rw_mesh_point_inside (mesh, receivers[i]))
      {
        file_error (error, file, _("a receiver lies outside the room"));
        goto out;
      }

  /* Everything checked. */
  l->file = g_object_ref (file);
  l->mesh_path = g_steal_pointer (&mesh_path);
  l->mesh = g_steal_pointer (&mesh);
  l->report = report;
  l->have_report = TRUE;
  have_report = FALSE;
  l->names = g_steal_pointer (&names);
  l->R = g_steal_pointer (&R);
  l->alpha = g_steal_pointer (&alpha);
  l->settings = settings;
  l->scale = scale;
  l->results_ref = g_strdup (get_string (root, "results"));
  memcpy (l->source, source, sizeof source);
  memcpy (l->receivers, receivers, sizeof receivers);
  memcpy (l->receiver_specs, receiver_specs, sizeof receiver_specs);
  l->hrtf_path = g_steal_pointer (&hrtf_path);
  l->n_receivers = n_receivers;
  ok = TRUE;

out:
  if (names != NULL)
    {
      for (size_t i = 0; mesh && i < mesh->n_surfaces; i++)
        g_free (names[i]);
      g_free (names);
    }
  g_free (R);
  g_free (alpha);
  if (have_report)
    rw_mesh_report_clear (&report);
  if (mesh != NULL)
    rw_mesh_free (mesh);
  json_object_put (root);
  return ok;
}
