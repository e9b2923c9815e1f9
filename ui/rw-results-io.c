/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-results-io.c — see rw-results-io.h: the engine's results folder
 * behind the GUI's RwSimOutput. */
#include "rw-results-io.h"

#include <glib/gi18n-lib.h>
#include <string.h>

RwSimOutput *
rw_sim_output_new (RwResults *results)
{
  RwSimOutput *out = g_atomic_rc_box_new0 (RwSimOutput);
  const RwSimResult *res = &results->result;

  out->results = *results;
  memset (results, 0, sizeof *results);
  res = &out->results.result;
  out->fmax_hz = res->fmax_hz;
  out->fs_grid_hz = res->fs_grid_hz;
  out->fs_out_hz = res->fs_out_hz;
  out->spacing_m = res->spacing_m;
  out->c = res->c;
  out->nx = res->nx;
  out->ny = res->ny;
  out->nz = res->nz;
  out->n_inside = res->n_inside;
  out->n_steps = res->n_steps;
  g_strlcpy (out->backend, res->backend, sizeof out->backend);
  g_strlcpy (out->device, res->device, sizeof out->device);
  out->mvox_per_s = res->mvox_per_s;
  out->t_voxelise_s = res->t_voxelise_s;
  out->t_solve_s = res->t_solve_s;
  out->n_receivers = (guint) res->n_receivers;
  out->ir = res->ir;
  out->ir_frames = res->ir_frames;

  /* what the folder says about its IRs' validity (rw-results.h): a hybrid
   * IR is valid to the Nyquist frequency, each band with its method */
  RwIrValidity validity;
  rw_results_validity (&out->results, &validity);
  out->analysis = g_new0 (RwAnalysis, out->n_receivers);
  out->analysis_ok = g_new0 (gboolean, out->n_receivers);
  out->analysis_error = g_new0 (char *, out->n_receivers);
  for (guint r = 0; r < out->n_receivers; r++)
    {
      RwError err = { 0 };
      out->analysis_ok[r] = rw_analyse (out->ir[r], out->ir_frames, out->fs_out_hz,
                                        validity.valid_up_to_hz, &out->analysis[r], &err);
      if (out->analysis_ok[r])
        rw_ir_validity_apply (&validity, &out->analysis[r]);
      else
        out->analysis_error[r] = g_strdup (err.message);
    }
  return out;
}

gboolean
rw_sim_output_save (const RwSimOutput *out, const char *dir, GError **error)
{
  RwError err = { 0 };

  g_return_val_if_fail (out != NULL && dir != NULL, FALSE);
  /* a shallow copy: rw_sim_write_outputs records the write's time in it */
  RwSimResult result = out->results.result;
  if (!rw_sim_write_outputs (&out->results.config, &result, dir, &err))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, err.message);
      return FALSE;
    }
  return TRUE;
}

typedef struct {
  RwSimOutput *out;
  char *dir;
} SaveJob;

static void
save_job_free (SaveJob *job)
{
  rw_sim_output_unref (job->out);
  g_free (job->dir);
  g_free (job);
}

static void
save_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  const SaveJob *job = data;
  GError *error = NULL;

  (void) source, (void) cancellable;
  if (rw_sim_output_save (job->out, job->dir, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

void
rw_sim_output_save_async (RwSimOutput *out, const char *dir, GAsyncReadyCallback callback,
                          gpointer user_data)
{
  g_return_if_fail (out != NULL && dir != NULL);
  g_autoptr (GTask) task = g_task_new (NULL, NULL, callback, user_data);
  SaveJob *job = g_new0 (SaveJob, 1);

  job->out = rw_sim_output_ref (out);
  job->dir = g_strdup (dir);
  g_task_set_source_tag (task, rw_sim_output_save_async);
  g_task_set_task_data (task, job, (GDestroyNotify) save_job_free);
  g_task_run_in_thread (task, save_thread);
}

gboolean
rw_sim_output_save_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

RwSimOutput *
rw_sim_output_load (const char *dir, GError **error)
{
  RwResults results;
  RwError err = { 0 };

  if (!rw_results_read (dir, &results, &err))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, err.message);
      return NULL;
    }
  return rw_sim_output_new (&results);
}

static void
load_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  GError *error = NULL;
  RwSimOutput *out = rw_sim_output_load (data, &error);

  (void) source, (void) cancellable;
  if (out == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, out, (GDestroyNotify) rw_sim_output_unref);
}

void
rw_sim_output_load_async (const char *dir, GCancellable *cancellable, GAsyncReadyCallback callback,
                          gpointer user_data)
{
  g_return_if_fail (dir != NULL);
  g_autoptr (GTask) task = g_task_new (NULL, cancellable, callback, user_data);

  g_task_set_source_tag (task, rw_sim_output_load_async);
  g_task_set_task_data (task, g_strdup (dir), g_free);
  g_task_set_return_on_cancel (task, TRUE);
  g_task_run_in_thread (task, load_thread);
}

RwSimOutput *
rw_sim_output_load_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
