/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-sim-job.c — a simulation run in a worker thread (see rw-sim-job.h). */
#include "rw-sim-job.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "rw-physics.h"
#include "rw-results-io.h"
#include "rw-sim.h"
#include "rw-voxel.h"

/* At most this many progress and slice messages per second reach the UI. */
#define UI_UPDATES_PER_S 10.0

struct _RwSimJob
{
  GObject parent_instance;

  RwProject *project;            /* a reference: keeps the mesh and the library alive */
  const RwMaterialLibrary *library;   /* borrowed from project (never changes; may be NULL) */
  const RwMesh *mesh;            /* borrowed from project, taken in _new so
                                  * that the worker never calls into it */
  GMainContext *main_context;

  /* Snapshot taken at creation: the worker reads only these. */
  RwSimSettings settings;
  double *surface_R;
  double *surface_alpha;          /* n_surfaces × RW_N_OCTAVES: α per band */
  char **surface_names, **surface_materials;   /* n_surfaces each, malloc'd: they move into the results */
  size_t n_surfaces;
  double source[3];
  guint n_receivers;
  double receivers[RW_PROJECT_MAX_RECEIVERS][3];
  RwReceiverSpec receiver_specs[RW_PROJECT_MAX_RECEIVERS];
  char *hrtf_path;               /* NULL: the bundled set */
  double bbox_min[3], bbox_max[3];

  atomic_int cancel;
  atomic_int slice_axis;
  _Atomic double slice_position;
  gboolean running;

  /* Worker-only state. */
  gint64 last_update_us;
  gboolean solving_posted;
  gboolean geometrical_posted;
};

G_DEFINE_TYPE (RwSimJob, rw_sim_job, G_TYPE_OBJECT)

enum { PROGRESS, SLICE, STAGE, N_SIGNALS };
static guint signals[N_SIGNALS];

void
rw_slice_free (RwSlice *slice)
{
  if (slice == NULL)
    return;
  g_free (slice->p);
  g_free (slice->inside);
  g_free (slice);
}

static RwSlice *
rw_slice_copy (const RwSlice *s)
{
  RwSlice *c = g_memdup2 (s, sizeof *s);
  c->p = g_memdup2 (s->p, sizeof (float) * s->width * s->height);
  c->inside = g_memdup2 (s->inside, (gsize) s->width * s->height);
  return c;
}

G_DEFINE_BOXED_TYPE (RwSlice, rw_slice, rw_slice_copy, rw_slice_free)

static void
sim_output_clear (RwSimOutput *out)
{
  for (guint r = 0; r < out->n_receivers; r++)
    {
      if (out->analysis)
        rw_analysis_clear (&out->analysis[r]);
      if (out->analysis_error)
        g_free (out->analysis_error[r]);
    }
  rw_results_clear (&out->results);
  g_free (out->hrtf_path);
  g_free (out->analysis);
  g_free (out->analysis_ok);
  g_free (out->analysis_error);
}

RwSimOutput *
rw_sim_output_ref (RwSimOutput *out)
{
  return g_atomic_rc_box_acquire (out);
}

void
rw_sim_output_unref (RwSimOutput *out)
{
  if (out != NULL)
    g_atomic_rc_box_release_full (out, (GDestroyNotify) sim_output_clear);
}

static void
rw_sim_job_finalize (GObject *object)
{
  RwSimJob *self = RW_SIM_JOB (object);

  g_clear_object (&self->project);
  g_clear_pointer (&self->main_context, g_main_context_unref);
  g_free (self->surface_R);
  g_free (self->surface_alpha);
  g_free (self->hrtf_path);
  for (size_t i = 0; i < self->n_surfaces; i++)
    {
      free (self->surface_names[i]);
      free (self->surface_materials[i]);
    }
  g_free (self->surface_names);
  g_free (self->surface_materials);
  G_OBJECT_CLASS (rw_sim_job_parent_class)->finalize (object);
}

static void
rw_sim_job_class_init (RwSimJobClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = rw_sim_job_finalize;

  /* fraction 0…1, Mvox/s, seconds left, step, n_steps */
  signals[PROGRESS] =
    g_signal_new ("progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 6, G_TYPE_DOUBLE, G_TYPE_DOUBLE, G_TYPE_DOUBLE, G_TYPE_UINT64, G_TYPE_UINT64,
                  G_TYPE_UINT);
  signals[SLICE] =
    g_signal_new ("slice", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, rw_slice_get_type () | G_SIGNAL_TYPE_STATIC_SCOPE);
  /* a translated line: "Voxelising…", "Solving on cpu (…)" */
  signals[STAGE] =
    g_signal_new ("stage", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
rw_sim_job_init (RwSimJob *self)
{
  atomic_init (&self->cancel, 0);
  atomic_init (&self->slice_axis, 2);
  atomic_init (&self->slice_position, 0.4);
}

RwSimJob *
rw_sim_job_new (RwProject *project)
{
  g_return_val_if_fail (RW_IS_PROJECT (project), NULL);
  g_return_val_if_fail (rw_project_get_mesh (project) != NULL, NULL);

  RwSimJob *self = g_object_new (RW_TYPE_SIM_JOB, NULL);
  const RwMesh *mesh = rw_project_get_mesh (project);

  self->project = g_object_ref (project);
  self->mesh = mesh;
  self->library = rw_project_get_library (project);
  self->settings = *rw_project_get_settings (project);
  self->n_surfaces = mesh->n_surfaces;
  self->surface_R = g_new (double, self->n_surfaces ? self->n_surfaces : 1);
  self->surface_alpha = g_new (double, (self->n_surfaces ? self->n_surfaces : 1) * RW_N_OCTAVES);
  self->surface_names = g_new0 (char *, self->n_surfaces ? self->n_surfaces : 1);
  self->surface_materials = g_new0 (char *, self->n_surfaces ? self->n_surfaces : 1);
  for (size_t i = 0; i < self->n_surfaces; i++)
    {
      const char *material = rw_project_get_surface_material (project, i);
      self->surface_R[i] = rw_project_get_surface_R (project, i);
      rw_project_get_surface_alpha (project, i, self->surface_alpha + i * RW_N_OCTAVES);
      self->surface_names[i] = strdup (mesh->surface_names[i]);
      self->surface_materials[i] = strdup (material ? material : "");
    }
  rw_project_get_source (project, self->source);
  memcpy (self->bbox_min, rw_project_get_report (project)->bbox_min, sizeof self->bbox_min);
  memcpy (self->bbox_max, rw_project_get_report (project)->bbox_max, sizeof self->bbox_max);
  self->n_receivers = rw_project_get_n_receivers (project);
  for (guint i = 0; i < self->n_receivers; i++)
    {
      rw_project_get_receiver (project, i, self->receivers[i]);
      rw_project_get_receiver_spec (project, i, &self->receiver_specs[i]);
    }
  self->hrtf_path = g_strdup (rw_project_get_hrtf_path (project));
  return self;
}

void
rw_sim_job_get_config (RwSimJob *self, RwSimConfig *cfg)
{
  rw_sim_settings_to_config (&self->settings, cfg);
  cfg->mesh_path = self->mesh->path;
  memcpy (cfg->source, self->source, sizeof cfg->source);
  cfg->n_receivers = self->n_receivers;
  memcpy (cfg->receivers, self->receivers, sizeof self->receivers[0] * self->n_receivers);
  memcpy (cfg->receiver_specs, self->receiver_specs, sizeof self->receiver_specs[0] * self->n_receivers);
  cfg->hrtf_path = self->hrtf_path;
}

void
rw_sim_job_cancel (RwSimJob *self)
{
  atomic_store (&self->cancel, 1);
}

gboolean
rw_sim_job_is_running (RwSimJob *self)
{
  return self->running;
}

void
rw_sim_job_set_slice (RwSimJob *self, int axis, double position)
{
  atomic_store (&self->slice_axis, CLAMP (axis, 0, 2));
  atomic_store (&self->slice_position, CLAMP (position, 0.0, 1.0));
}

/* ---- messages from the worker to the main loop ------------------------- */

typedef enum { MSG_PROGRESS, MSG_SLICE, MSG_STAGE } MsgKind;

typedef struct {
  MsgKind kind;
  RwSimJob *job;        /* a reference */
  RwProgress progress;
  RwSlice *slice;
  char *text;
} Msg;

static void
msg_free (gpointer data)
{
  Msg *m = data;
  g_object_unref (m->job);
  rw_slice_free (m->slice);
  g_free (m->text);
  g_free (m);
}

static gboolean
msg_dispatch (gpointer data)
{
  Msg *m = data;

  /* After finish the window has let go of the job: late messages are
   * dropped rather than shown over the results. */
  if (!m->job->running)
    return G_SOURCE_REMOVE;
  switch (m->kind)
    {
    case MSG_PROGRESS:
      g_signal_emit (m->job, signals[PROGRESS], 0, m->progress.fraction, m->progress.mvox_per_s,
                     m->progress.seconds_left, (guint64) m->progress.step, (guint64) m->progress.n_steps,
                     (guint) m->progress.part);
      break;
    case MSG_SLICE:
      g_signal_emit (m->job, signals[SLICE], 0, m->slice);
      break;
    case MSG_STAGE:
      g_signal_emit (m->job, signals[STAGE], 0, m->text);
      break;
    }
  return G_SOURCE_REMOVE;
}

static void
post (RwSimJob *self, Msg *m)
{
  m->job = g_object_ref (self);
  g_main_context_invoke_full (self->main_context, G_PRIORITY_DEFAULT, msg_dispatch, m, msg_free);
}

static void
post_stage (RwSimJob *self, const char *text)
{
  Msg *m = g_new0 (Msg, 1);
  m->kind = MSG_STAGE;
  m->text = g_strdup (text);
  post (self, m);
}

/* Worker thread: a copy of the chosen plane, with the inside mask. */
static RwSlice *
read_slice (RwSimJob *self, RwSolver *solver, double time_s)
{
  const RwGrid *g = rw_solver_grid (solver);
  int axis = atomic_load (&self->slice_axis);
  double pos = atomic_load (&self->slice_position);
  size_t n[3] = { g->nx, g->ny, g->nz };
  /* position is a fraction of the room's extent along the axis. */
  double coord = self->bbox_min[axis] + pos * (self->bbox_max[axis] - self->bbox_min[axis]);
  long li = lround ((coord - g->origin[axis]) / g->h);
  size_t index = (size_t) CLAMP (li, 0L, (long) n[axis] - 1);
  RwSlice *s = g_new0 (RwSlice, 1);
  RwError err = { 0 };

  s->axis = axis;
  s->index = index;
  s->width = (int) n[axis == 0 ? 1 : 0];
  s->height = (int) n[axis == 2 ? 1 : 2];
  s->p = g_new (float, (gsize) s->width * s->height);
  s->inside = g_new (guint8, (gsize) s->width * s->height);
  memcpy (s->origin, g->origin, sizeof s->origin);
  s->spacing_m = g->h;
  s->time_s = time_s;
  if (!rw_solver_read_slice (solver, axis, index, s->p, &err))
    {
      rw_slice_free (s);
      return NULL;
    }
  for (int v = 0; v < s->height; v++)
    for (int u = 0; u < s->width; u++)
      {
        size_t x, y, z;
        if (axis == 0)
          x = index, y = u, z = v;
        else if (axis == 1)
          x = u, y = index, z = v;
        else
          x = u, y = v, z = index;
        s->inside[(gsize) v * s->width + u] = g->K[rw_grid_index (g, x, y, z)] > 0;
      }
  return s;
}

/* Posts progress to the main loop at most UI_UPDATES_PER_S times a
 * second (and always the last report); false when this one was skipped. */
static gboolean
post_progress (RwSimJob *self, const RwProgress *progress)
{
  gint64 now = g_get_monotonic_time ();
  if (now - self->last_update_us < (gint64) (1e6 / UI_UPDATES_PER_S) && progress->step < progress->n_steps)
    return FALSE;
  self->last_update_us = now;
  Msg *m = g_new0 (Msg, 1);
  m->kind = MSG_PROGRESS;
  m->progress = *progress;
  post (self, m);
  return TRUE;
}

/* Called by rw_solver_run in the worker after each chunk. */
static bool
on_solver_progress (const RwProgress *progress, void *user_data)
{
  RwSimJob *self = user_data;

  /* The geometrical part (the full-band IR): no solver, no field to show */
  if (progress->part == RW_PROGRESS_GEOMETRICAL)
    {
      if (!self->geometrical_posted)
        {
          post_stage (self, _("Geometrical part: image sources and rays on all CPU cores…"));
          self->geometrical_posted = TRUE;
        }
      post_progress (self, progress);
      return !atomic_load (&self->cancel);
    }

  const RwGrid *g = rw_solver_grid (progress->solver);
  if (!self->solving_posted)
    {
      g_autofree char *stage = g_strdup_printf (_("Solving on %s (%s): %zu × %zu × %zu cells, %zu steps"),
                                                rw_solver_backend_name (progress->solver),
                                                rw_solver_device_name (progress->solver),
                                                g->nx, g->ny, g->nz, progress->n_steps);
      post_stage (self, stage);
      self->solving_posted = TRUE;
    }
  if (!post_progress (self, progress))
    return !atomic_load (&self->cancel);

  RwSlice *slice = read_slice (self, progress->solver,
                               (double) progress->step / rw_scheme_grid_rate (g->lattice, rw_speed_of_sound (self->settings.temperature_c), g->h));
  if (slice != NULL)
    {
      Msg *m = g_new0 (Msg, 1);
      m->kind = MSG_SLICE;
      m->slice = slice;
      post (self, m);
    }
  return !atomic_load (&self->cancel);
}

static gboolean
fail (GError **error, const RwError *err)
{
  if (err->code == RW_ERROR_CANCELLED)
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, err->message[0] ? err->message : _("Cancelled"));
  else
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, err->message);
  return FALSE;
}

/* Worker thread: the frequency-dependent model of every surface (malloc'd
 * for RwSimResult.surface_models), each distinct α set fitted once —
 * rooms repeat a material on many surfaces, and a fit takes tens of ms.
 * A hybrid run fits all eight bands (one model serves the wave and the
 * geometrical part), and each surface takes its library material's
 * scattering (else the flagged default) for the geometrical part. */
static RwSurfaceModel *
fit_models (RwSimJob *self, GError **error)
{
  const size_t ns = self->n_surfaces;
  const int n_bands = rw_sim_settings_fit_bands (&self->settings);
  RwSurfaceModel *models = calloc (ns ? ns : 1, sizeof (RwSurfaceModel));

  if (models == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Out of memory"));
      return NULL;
    }
  for (size_t i = 0; i < ns; i++)
    {
      const double *a = self->surface_alpha + i * RW_N_OCTAVES;
      const RwMaterial *material = self->library ? rw_materials_find (self->library, self->surface_materials[i])
                                                 : NULL;
      size_t j;
      for (j = 0; j < i; j++)
        if (memcmp (self->surface_alpha + j * RW_N_OCTAVES, a, RW_N_OCTAVES * sizeof (double)) == 0
            && self->surface_R[j] == self->surface_R[i]
            && strcmp (self->surface_materials[j], self->surface_materials[i]) == 0)   /* its scattering */
          break;
      if (j < i)
        models[i] = models[j];
      else if (!rw_project_fit_alpha (a, self->surface_R[i], n_bands, material, &models[i], error))
        {
          g_prefix_error (error, _("surface “%s”: "), self->surface_names[i]);
          free (models);
          return NULL;
        }
      if (atomic_load (&self->cancel))
        {
          free (models);
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Cancelled"));
          return NULL;
        }
    }
  return models;
}

/* The engine's pipeline after import (rw_sim_solve: voxelise, solve,
 * post-process — the same path as roomwave-cli simulate), with the
 * project's mesh, the R its materials panel set and the model fitted to
 * each surface's α per band (fit_models); then the ISO 3382-1
 * analysis of each IR, so that the main loop only draws. */
static RwSimOutput *
run_pipeline (RwSimJob *self, GError **error)
{
  const RwMesh *mesh = self->mesh;
  RwError err = { 0 };
  RwSimConfig cfg;
  RwSimResult res;

  rw_sim_job_get_config (self, &cfg);

  memset (&res, 0, sizeof res);
  /* The FV boundary runs each surface's admittance fitted to its α per
   * band (rw_sim_solve warns that LRS and Savioja take one R). */
  post_stage (self, _("Fitting the materials’ admittances…"));
  res.surface_models = fit_models (self, error);
  if (res.surface_models == NULL)
    return NULL;
  post_stage (self, _("Voxelising…"));
  if (!rw_sim_solve (&cfg, mesh, self->surface_R, on_solver_progress, self, &self->cancel, &res, &err))
    {
      rw_sim_result_clear (&res);
      return fail (error, &err), NULL;
    }

  /* The engine's record of the run, as `simulate` writes it: the settings,
   * the surfaces as the materials panel set them, the result. */
  RwResults results;
  memset (&results, 0, sizeof results);
  results.config = cfg;
  results.mesh_file = strdup (mesh->path ? mesh->path : "");
  results.config.mesh_path = results.mesh_file;
  const size_t ns = self->n_surfaces;
  res.n_surfaces = ns;
  res.surface_R = malloc ((ns ? ns : 1) * sizeof (double));
  res.surface_names = calloc (ns ? ns : 1, sizeof (char *));
  res.surface_materials = calloc (ns ? ns : 1, sizeof (char *));
  gboolean ok = res.surface_R && res.surface_names && res.surface_materials;
  for (size_t i = 0; ok && i < ns; i++)
    {
      res.surface_R[i] = self->surface_R[i];
      res.surface_names[i] = strdup (self->surface_names[i]);
      res.surface_materials[i] = strdup (self->surface_materials[i]);
      ok = res.surface_names[i] && res.surface_materials[i];
    }
  results.result = res;
  if (!ok || results.mesh_file == NULL)
    {
      rw_results_clear (&results);
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Out of memory"));
      return NULL;
    }

  post_stage (self, _("Analysing…"));
  RwSimOutput *out = rw_sim_output_new (&results);
  /* The record's config outlives the job: it points at the output's copy. */
  out->hrtf_path = g_strdup (self->hrtf_path);
  out->results.config.hrtf_path = out->hrtf_path;
  return out;
}

static void
worker (GTask *task, gpointer source_object, gpointer task_data, GCancellable *cancellable)
{
  RwSimJob *self = source_object;
  GError *error = NULL;
  RwSimOutput *out;

  (void) task_data;
  (void) cancellable;
  out = run_pipeline (self, &error);
  if (out == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, out, (GDestroyNotify) rw_sim_output_unref);
}

void
rw_sim_job_start (RwSimJob *self, GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (!self->running);
  g_autoptr (GTask) task = g_task_new (self, NULL, callback, user_data);

  self->main_context = g_main_context_ref_thread_default ();
  self->running = TRUE;
  g_task_set_source_tag (task, rw_sim_job_start);
  g_task_run_in_thread (task, worker);
}

RwSimOutput *
rw_sim_job_finish (RwSimJob *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  self->running = FALSE;
  return g_task_propagate_pointer (G_TASK (result), error);
}
