/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-window-run.c — run control: win.run starts an RwSimJob, its progress,
 * stages and live slices reach the Run page, the result the Results page;
 * win.cancel stops a run or an import. */
#include "rw-window-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>

/* ---- running ------------------------------------------------------------ */

static void
on_job_stage (RwSimJob *job, const char *text, RwWindow *self)
{
  (void) job;
  gtk_label_set_text (self->stage_label, text);
  gtk_label_set_text (self->status_label, text);
}

static void
on_job_progress (RwSimJob *job, double fraction, double mvox, double seconds_left, guint64 step,
                 guint64 n_steps, guint part, RwWindow *self)
{
  (void) job;
  /* the geometrical part counts rays (and each receiver's image sources) */
  g_autofree char *text = part == RW_PROGRESS_GEOMETRICAL
    ? g_strdup_printf (_("Geometrical part: %.0f %% · %.0f s left"), 100.0 * fraction, seconds_left)
    : g_strdup_printf (_("Step %llu of %llu · %.1f Mvox/s · %.0f s left"),
                       (unsigned long long) step, (unsigned long long) n_steps, mvox, seconds_left);
  gtk_progress_bar_set_fraction (self->progress_bar, CLAMP (fraction, 0, 1));
  gtk_label_set_text (self->status_label, text);
}

static void
on_job_slice (RwSimJob *job, RwSlice *slice, RwWindow *self)
{
  (void) job;
  /* The signal's slice is the job's message copy: take a copy of it. */
  RwSlice *copy = g_boxed_copy (rw_slice_get_type (), slice);
  rw_slice_view_take_slice (self->slice_view, copy);
}

void
_rw_window_push_slice_choice (RwWindow *self)
{
  if (self->job != NULL)
    rw_sim_job_set_slice (self->job, (int) gtk_drop_down_get_selected (self->slice_axis_dropdown),
                          gtk_range_get_value (GTK_RANGE (self->slice_position_scale)));
}

/* The dimensions of a rectangular room, when the mesh is one: its volume
 * fills its bounding box (within 0.5 %). */
gboolean
_rw_window_room_box (RwWindow *self, double box[3])
{
  const RwMeshReport *r = rw_project_get_report (self->project);
  if (r == NULL)
    return FALSE;
  double v = 1;
  for (int k = 0; k < 3; k++)
    {
      box[k] = r->bbox_max[k] - r->bbox_min[k];
      v *= box[k];
    }
  return v > 0 && fabs (fabs (r->volume_m3) - v) < 0.005 * v;
}

/* A run (in process or on several GPUs) ended with `out` (taken) or
 * `error`: the Results page, or the error as every run shows it; drops
 * the window's reference that the run held. */
static void
run_ended (RwWindow *self, RwSimOutput *out, GError *error)
{
  gboolean ok = out != NULL;

  g_application_release (g_application_get_default ());
  if (self->disposed)
    {
      /* The window was closed during the run (which close cancelled). */
      rw_sim_output_unref (out);
      g_object_unref (self);
      return;
    }
  if (ok)
    {
      double box[3];
      const RwSimResult *res = &out->results.result;
      g_autofree char *text = NULL;
      g_autofree char *times = NULL;
      /* Both parts' times (the wave part: the solver's steps; the
       * geometrical part: image sources and rays on all CPU cores). */
      if (res->hybrid)
        {
          text = g_strdup_printf (_("Done: wave part %zu steps in %.1f s (%s, %.1f Mvox/s on %s), geometrical "
                                    "part %.1f s, crossover %.0f Hz"),
                                  out->n_steps, res->t_solve_s, rw_project_scheme_label (res->scheme),
                                  out->mvox_per_s, out->backend,
                                  res->t_geometrical_s, res->crossover_hz);
          times = g_strdup_printf (_("Last run: wave part %.1f s below %.0f Hz, geometrical part %.1f s above "
                                     "(%zu image-source arrivals)"),
                                   res->t_solve_s, res->crossover_hz, res->t_geometrical_s, res->ga_image_sources);
        }
      else
        {
          text = g_strdup_printf (_("Done: %zu steps in %.1f s (%s), %.1f Mvox/s on %s"),
                                  out->n_steps, out->t_solve_s, rw_project_scheme_label (res->scheme),
                                  out->mvox_per_s, out->backend);
          times = g_strdup_printf (_("Last run: wave part alone, %.1f s"), res->t_solve_s);
        }
      gtk_label_set_text (self->run_times_label, times);
      gtk_widget_set_visible (GTK_WIDGET (self->run_times_label), TRUE);
      /* a node update's cost differs between the schemes (13 loads, not 7;
       * one step a sweep on FCC grids): one measured speed each */
      if (self->settings != NULL && out->mvox_per_s > 0 && g_str_equal (out->backend, "cpu") && res->ranks <= 1)
        g_settings_set_double (self->settings, _rw_window_speed_key (res->scheme), out->mvox_per_s);
      gtk_progress_bar_set_fraction (self->progress_bar, 1);
      gtk_label_set_text (self->status_label, text);
      gtk_label_set_text (self->stage_label, text);
      rw_results_view_take_output (self->results_view, out, _rw_window_room_box (self, box) ? box : NULL);
      gtk_stack_set_visible_child_name (self->main_stack, "results");
    }
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      gtk_progress_bar_set_fraction (self->progress_bar, 0);
      gtk_label_set_text (self->status_label, _("Cancelled. The project is unchanged."));
      gtk_label_set_text (self->stage_label, _("Cancelled. The project is unchanged."));
    }
  else
    {
      gtk_progress_bar_set_fraction (self->progress_bar, 0);
      gtk_label_set_text (self->status_label, _("The simulation failed."));
      gtk_label_set_text (self->stage_label, error->message);
      _rw_window_show_error (self, _("The simulation failed"), error->message);
    }
  _rw_window_update_actions (self);
  _rw_window_update_estimate (self);
  g_signal_emit (self, _rw_window_signals[RW_WINDOW_RUN_FINISHED], 0, ok);
  g_object_unref (self);
}

static void
on_job_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  RwWindow *self = user_data;
  RwSimJob *job = RW_SIM_JOB (source);
  g_autoptr (GError) error = NULL;
  RwSimOutput *out = rw_sim_job_finish (job, result, &error);

  g_signal_handlers_disconnect_by_data (job, self);
  g_clear_object (&self->job);
  run_ended (self, out, error);
}

/* ---- a run on several GPUs (rw-mpi-job.h) ------------------------------- */

/* The device label of rank `rank`: the rank-th checked device (ranks take
 * CUDA_VISIBLE_DEVICES in order). */
static const char *
rank_device_label (RwWindow *self, guint rank)
{
  const guint64 mask = rw_project_get_run_devices (self->project);
  for (int i = 0; i < self->mpi_devices->n_devices; i++)
    if (((mask >> i) & 1) && rank-- == 0)
      return self->mpi_devices->labels[i];
  return "";
}

static void
clear_rank_bars (RwWindow *self)
{
  GtkWidget *child;
  g_ptr_array_set_size (self->rank_bars, 0);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->rank_box))) != NULL)
    gtk_box_remove (self->rank_box, child);
  gtk_widget_set_visible (GTK_WIDGET (self->rank_box), FALSE);
}

static void
on_mpi_progress (RwMpiJob *job, const RwMpiProgress *p, RwWindow *self)
{
  double total = 0;

  (void) job;
  for (int r = 0; r < p->n_ranks; r++)
    total += p->rank_mvox_per_s[r];
  /* the status line as an in-process run gives it, with the ranks' sum */
  on_job_progress (NULL, p->fraction, total, p->seconds_left, p->step, p->n_steps, p->part, self);
  /* the ranks step together (a halo exchange every step): one fraction,
   * each its own speed over the last chunk */
  for (guint r = 0; r < self->rank_bars->len; r++)
    {
      GtkProgressBar *bar = g_ptr_array_index (self->rank_bars, r);
      g_autofree char *text = NULL;
      if (p->part == RW_PROGRESS_GEOMETRICAL)
        text = g_strdup_printf (_("GPU %u (%s): wave part done"), r, rank_device_label (self, r));
      else if ((int) r < p->n_ranks)
        text = g_strdup_printf (_("GPU %u (%s): %.1f Mvox/s"), r, rank_device_label (self, r),
                                p->rank_mvox_per_s[r]);
      else
        continue;
      gtk_progress_bar_set_fraction (bar, p->part == RW_PROGRESS_GEOMETRICAL ? 1.0 : p->fraction);
      gtk_progress_bar_set_text (bar, text);
    }
}

static void
on_mpi_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  RwWindow *self = user_data;
  RwMpiJob *job = RW_MPI_JOB (source);
  g_autoptr (GError) error = NULL;
  RwSimOutput *out = rw_mpi_job_finish (job, result, &error);

  g_signal_handlers_disconnect_by_data (job, self);
  g_clear_object (&self->mpi_job);
  g_clear_object (&self->run_cancellable);
  run_ended (self, out, error);
}

/* Run with two or more devices checked: mpirun, one rank per device, its
 * progress per rank on the Run page, the results folder read back into
 * the Results page. */
static void
start_mpi_run (RwWindow *self)
{
  g_autoptr (GError) error = NULL;

  self->mpi_job = rw_mpi_job_new (self->project, self->mpi_devices, rw_project_get_run_devices (self->project),
                                  &error);
  if (self->mpi_job == NULL)
    {
      gtk_label_set_text (self->status_label, error->message);
      _rw_window_show_error (self, _("The simulation failed"), error->message);
      g_signal_emit (self, _rw_window_signals[RW_WINDOW_RUN_FINISHED], 0, FALSE);
      return;
    }
  g_signal_connect (self->mpi_job, "progress", G_CALLBACK (on_mpi_progress), self);
  self->run_cancellable = g_cancellable_new ();

  clear_rank_bars (self);
  const int n = rw_mpi_job_get_n_ranks (self->mpi_job);
  for (int r = 0; r < n; r++)
    {
      GtkWidget *bar = gtk_progress_bar_new ();
      g_autofree char *text = g_strdup_printf (_("GPU %d (%s): starting…"), r, rank_device_label (self, (guint) r));
      gtk_progress_bar_set_show_text (GTK_PROGRESS_BAR (bar), TRUE);
      gtk_progress_bar_set_text (GTK_PROGRESS_BAR (bar), text);
      gtk_box_append (self->rank_box, bar);
      g_ptr_array_add (self->rank_bars, bar);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->rank_box), TRUE);
  g_autofree char *stage = g_strdup_printf (_("Running on %d GPUs through mpirun (no live field view)…"), n);
  gtk_label_set_text (self->stage_label, stage);
  gtk_label_set_text (self->status_label, stage);
  /* the field lives in the ranks' processes: no live plane to show */
  rw_slice_view_take_slice (self->slice_view, NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->slice_view), FALSE);
  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  gtk_stack_set_visible_child_name (self->main_stack, "run");
  _rw_window_update_actions (self);
  g_application_hold (g_application_get_default ());
  rw_mpi_job_start (self->mpi_job, self->run_cancellable, on_mpi_done, g_object_ref (self));
}

void
_rw_window_action_run (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  GtkWidget *widget = user_data;

  RwWindow *self = RW_WINDOW (widget);
  double src[3], rcv[RW_PROJECT_MAX_RECEIVERS][3];
  guint n_rcv;

  (void) action;
  (void) param;
  if (_rw_window_busy (self) || rw_project_get_mesh (self->project) == NULL)
    return;
  /* The engine refuses a boundary or receiver the scheme lacks
   * (rw_sim_check_settings) in words for the command line; refused here
   * first, saying what to change in the window. */
  g_autoptr (GError) scheme_error = NULL;
  if (!rw_project_check_scheme (self->project, &scheme_error))
    {
      gtk_label_set_text (self->status_label, scheme_error->message);
      _rw_window_show_error (self, _("The simulation cannot run with this scheme"), scheme_error->message);
      g_signal_emit (self, _rw_window_signals[RW_WINDOW_RUN_FINISHED], 0, FALSE);
      return;
    }
  if (_rw_window_n_gpus_checked (self) >= 2)
    {
      start_mpi_run (self);
      return;
    }
  clear_rank_bars (self);
  gtk_widget_set_visible (GTK_WIDGET (self->slice_view), TRUE);
  self->job = rw_sim_job_new (self->project);
  g_signal_connect (self->job, "progress", G_CALLBACK (on_job_progress), self);
  g_signal_connect (self->job, "slice", G_CALLBACK (on_job_slice), self);
  g_signal_connect (self->job, "stage", G_CALLBACK (on_job_stage), self);

  rw_project_get_source (self->project, src);
  /* The live slice starts through the source. */
  {
    const RwMeshReport *r = rw_project_get_report (self->project);
    int axis = (int) MIN (gtk_drop_down_get_selected (self->slice_axis_dropdown), 2);
    double extent = r->bbox_max[axis] - r->bbox_min[axis];
    if (extent > 0)
      gtk_range_set_value (GTK_RANGE (self->slice_position_scale), (src[axis] - r->bbox_min[axis]) / extent);
  }
  _rw_window_push_slice_choice (self);
  n_rcv = rw_project_get_n_receivers (self->project);
  for (guint i = 0; i < n_rcv; i++)
    rw_project_get_receiver (self->project, i, rcv[i]);
  rw_slice_view_set_points (self->slice_view, src, (const double (*)[3]) rcv, n_rcv);
  rw_slice_view_take_slice (self->slice_view, NULL);

  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  gtk_stack_set_visible_child_name (self->main_stack, "run");
  _rw_window_update_actions (self);
  /* The window object is kept alive until the job reports back, and the
   * application until the worker has finished. */
  g_application_hold (g_application_get_default ());
  rw_sim_job_start (self->job, on_job_done, g_object_ref (self));
}

void
_rw_window_action_cancel (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  GtkWidget *widget = user_data;

  RwWindow *self = RW_WINDOW (widget);

  (void) action;
  (void) param;
  if (self->import_cancellable != NULL)
    g_cancellable_cancel (self->import_cancellable);
  if (self->job == NULL && self->mpi_job == NULL && self->import_cancellable == NULL)
    return;
  if (self->job != NULL)
    rw_sim_job_cancel (self->job);
  /* mpirun gets SIGINT, then SIGTERM (rw-mpi-job.h) */
  if (self->run_cancellable != NULL)
    g_cancellable_cancel (self->run_cancellable);
  gtk_label_set_text (self->status_label, _("Cancelling…"));
}
