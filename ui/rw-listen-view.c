/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-listen-view.c — see rw-listen-view.h. */
#include "rw-listen-view.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <stdatomic.h>

#include "rw-audio.h"
#include "rw-auralise.h"
#include "rw-listen-render.h"
#include "rw-materials.h"
#include "rw-results-io.h"

/* After the last change of the head's yaw or pitch, this long before the
 * auralisation is made again (a spin button held down changes it often). */
#define HEAD_SETTLE_MS 300

struct _RwListenView
{
  GtkBox parent_instance;

  GtkDropDown *dry_dropdown;
  GtkStringList *dry_list;
  GtkButton *auralise_button, *export_button;
  GtkLabel *status_label;
  GtkMediaControls *controls;
  /* where to listen (issue #13): receivers 1 (and 2) on loudspeakers, or
   * a binaural receiver on headphones, its head turned at will */
  GtkDropDown *receiver_dropdown;
  GtkStringList *receiver_list;
  GtkWidget *head_box;
  GtkSpinButton *head_yaw_spin, *head_pitch_spin;
  GtkLabel *head_label;

  const RwSimOutput *out;
  GPtrArray *dry_paths;        /* parallel to dry_list */
  GArray *choices;             /* int per receiver_list entry: −1 receivers 1 and 2, r ≥ 0 binaural receiver r */
  char *scratch_dir;           /* IR and wet WAVs; removed on finalize */
  char *results_dir;           /* the output's results folder in the scratch folder, once a job wrote it */
  guint results_generation;    /* the generation results_dir was written for */
  char *wet_path;
  char *last_dry;              /* the dry file of the last auralisation, for a head turned afterwards */
  gboolean busy;
  gboolean again;              /* the head turned while busy: auralise once more when done */
  guint head_timeout;          /* HEAD_SETTLE_MS after the head's last change */
  gboolean filling;            /* set_output is filling the receiver list and the head */
  GCancellable *cancellable;   /* the auralisation in flight; cancelled by a newer one and on dispose */
  guint generation;            /* bumped by set_output: stale results are dropped */
  gboolean disposed;           /* the widgets are gone; a task may still report */
};

G_DEFINE_TYPE (RwListenView, rw_listen_view, GTK_TYPE_BOX)

enum { AURALISED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
add_dry (RwListenView *self, const char *label, const char *path)
{
  gtk_string_list_append (self->dry_list, label);
  g_ptr_array_add (self->dry_paths, g_strdup (path));
}

static void
list_bundled (RwListenView *self)
{
  char *dir = rw_data_path ("audio");
  g_autoptr (GDir) d = dir ? g_dir_open (dir, 0, NULL) : NULL;
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (name, ".flac") || g_str_has_suffix (name, ".wav"))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  for (guint i = 0; i < names->len; i++)
    {
      const char *n = *(const char **) &names->pdata[i];
      g_autofree char *path = g_build_filename (dir, n, NULL);
      g_autofree char *label = g_strdup_printf (_("%s (bundled)"), n);
      add_dry (self, label, path);
    }
  free (dir);
}

static const char *
scratch (RwListenView *self)
{
  if (self->scratch_dir == NULL)
    self->scratch_dir = g_dir_make_tmp ("roomwave-listen-XXXXXX", NULL);
  return self->scratch_dir;
}

/* ---- the worker --------------------------------------------------------- */

typedef struct {
  char *ir_paths[2];
  char *dry_path;
  char *wet_path;
  guint generation;
  RwAuraliseStats stats;
  /* a binaural receiver (receiver ≥ 0): its head; when `turned`, the IR
   * ir_paths[0] is first rendered from ambix_path for that head */
  int receiver;
  gboolean turned;
  char *ambix_path, *hrtf_path;
  double sim_yaw, sim_pitch, yaw, pitch;
  /* what the job writes first from the output (a reference): receivers 1
   * and 2's IRs to ir_paths (receiver < 0: loudspeakers), or the output's
   * results folder where a binaural receiver's IR lies (results_dir; NULL
   * when written already), whether it wrote it, and the receiver's file
   * needed there */
  RwSimOutput *out;
  char *results_dir;
  gboolean wrote;
  char *needed;
  atomic_int cancel;           /* set from the task's GCancellable */
} Job;

static void
job_free (Job *job)
{
  g_free (job->ir_paths[0]);
  g_free (job->ir_paths[1]);
  g_free (job->dry_path);
  g_free (job->wet_path);
  g_free (job->ambix_path);
  g_free (job->hrtf_path);
  rw_sim_output_unref (job->out);
  g_free (job->results_dir);
  g_free (job->needed);
  g_free (job);
}

/* GCancellable → the engine's flag (any thread). */
static void
job_cancelled (GCancellable *cancellable, Job *job)
{
  (void) cancellable;
  atomic_store (&job->cancel, 1);
}

/* The job's IRs from the output: receivers 1 and 2's written, or the
 * binaural receiver's results folder written (rw_sim_output_save: the
 * binaural and ambisonic WAVs with the omnidirectional ones, as
 * rw_sim_write_outputs writes them, once per output) and the file the job
 * needs there found; FALSE with the error. */
static gboolean
job_irs (Job *job, GError **error)
{
  for (int i = 0; job->receiver < 0 && i < 2 && job->ir_paths[i] != NULL; i++)
    {
      RwAudio a = { job->out->ir[i], job->out->ir_frames, 1, job->out->fs_out_hz };
      RwError err = { 0 };
      if (!rw_audio_write (job->ir_paths[i], &a, &err))
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, err.message);
          return FALSE;
        }
    }
  if (job->results_dir != NULL)
    {
      if (!rw_sim_output_save (job->out, job->results_dir, error))
        return FALSE;
      job->wrote = TRUE;
    }
  if (job->needed != NULL && !g_file_test (job->needed, G_FILE_TEST_IS_REGULAR))
    {
      g_autofree char *name = g_path_get_basename (job->needed);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("These results hold no %s: the run did not write this binaural receiver’s files (a "
                     "Roomwave without them?). Run the simulation again."),
                   name);
      return FALSE;
    }
  return TRUE;
}

static void
auralise_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Job *job = data;
  RwAuraliseOptions opt;
  RwError err = { 0 };
  GError *irs_error = NULL;

  (void) source;
  if (!job_irs (job, &irs_error))
    {
      g_task_return_error (task, irs_error);
      return;
    }
  gulong handler = g_cancellable_connect (cancellable, G_CALLBACK (job_cancelled), job, NULL);
  if (job->turned)
    {
      /* the head turned: its IR from the ambisonic one, no simulation */
      RwAudio ir = { 0 };
      GError *error = NULL;
      gboolean ok = rw_listen_binaural_ir (job->ambix_path, job->hrtf_path, job->sim_yaw, job->sim_pitch, job->yaw,
                                           job->pitch, cancellable, &ir, &error)
                    && rw_audio_write (job->ir_paths[0], &ir, &err);
      rw_audio_clear (&ir);
      if (!ok)
        {
          g_cancellable_disconnect (cancellable, handler);
          if (error != NULL)
            g_task_return_error (task, error);
          else
            g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", err.message);
          return;
        }
    }
  rw_auralise_options_init (&opt);
  opt.cancel = &job->cancel;
  gboolean ok = rw_auralise_file (job->ir_paths[0], job->ir_paths[1], job->dry_path, job->wet_path, &opt,
                                  &job->stats, &err);
  g_cancellable_disconnect (cancellable, handler);
  if (ok)
    g_task_return_boolean (task, TRUE);
  else if (err.code == RW_ERROR_CANCELLED)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "%s", _("Cancelled"));
  else
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", err.message);
}

static void
auralise_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  RwListenView *self = RW_LISTEN_VIEW (source);
  Job *job = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;
  gboolean ok = g_task_propagate_boolean (G_TASK (result), &error);

  (void) user_data;
  self->busy = FALSE;
  g_clear_object (&self->cancellable);
  if (self->disposed)
    return;   /* the window closed: the task held the view, not its widgets */
  gtk_widget_set_sensitive (GTK_WIDGET (self->auralise_button), self->out != NULL);
  if (job->generation != self->generation)
    return;   /* results changed meanwhile */
  if (job->wrote)
    {
      g_free (self->results_dir);
      self->results_dir = g_steal_pointer (&job->results_dir);
      self->results_generation = job->generation;
    }
  if (self->again)
    {
      /* the head turned meanwhile: this one is out of date */
      self->again = FALSE;
      rw_listen_view_auralise (self, self->last_dry);
      return;
    }
  if (!ok)
    {
      gtk_label_set_text (self->status_label, error->message);
      g_signal_emit (self, signals[AURALISED], 0, NULL, error->message);
      return;
    }
  g_free (self->wet_path);
  self->wet_path = g_strdup (job->wet_path);

  g_autofree char *dry = g_path_get_basename (job->dry_path);
  g_autofree char *text = NULL;
  /* whole sentences, not a clause slotted in: translations order them */
  if (job->receiver >= 0 && job->turned)
    text = g_strdup_printf (_("%s in the room at receiver %d, binaural for headphones, the head turned to yaw %.1f° "
                              "and pitch %.1f° (rendered from its ambisonic IR): %.1f s at %.0f Hz, gain %.1f dB"),
                            dry, job->receiver + 1, job->yaw, job->pitch,
                            job->stats.out_frames / job->stats.rate_hz, job->stats.rate_hz, job->stats.gain_db);
  else if (job->receiver >= 0)
    text = g_strdup_printf (_("%s in the room at receiver %d, binaural for headphones, the head at yaw %.1f° and "
                              "pitch %.1f° as simulated: %.1f s at %.0f Hz, gain %.1f dB"),
                            dry, job->receiver + 1, job->yaw, job->pitch,
                            job->stats.out_frames / job->stats.rate_hz, job->stats.rate_hz, job->stats.gain_db);
  else
    text = g_strdup_printf (_("%s in the room: %.1f s, %d channel(s) at %.0f Hz, gain %.1f dB"),
                            dry, job->stats.out_frames / job->stats.rate_hz, job->stats.channels,
                            job->stats.rate_hz, job->stats.gain_db);
  gtk_label_set_text (self->status_label, text);

  GtkMediaStream *stream = gtk_media_file_new_for_filename (self->wet_path);
  gtk_media_controls_set_media_stream (self->controls, stream);
  g_object_unref (stream);
  gtk_widget_set_sensitive (GTK_WIDGET (self->controls), TRUE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->export_button), TRUE);
  g_signal_emit (self, signals[AURALISED], 0, self->wet_path, NULL);
}

/* An auralisation that cannot start: the status says why, and
 * "auralised" tells the caller as a failed one does. */
static void
refuse (RwListenView *self, const char *message)
{
  gtk_label_set_text (self->status_label, message);
  g_signal_emit (self, signals[AURALISED], 0, NULL, message);
}

/* The chosen entry: −1 receivers 1 and 2, r ≥ 0 binaural receiver r. */
static int
chosen_receiver (RwListenView *self)
{
  guint sel = gtk_drop_down_get_selected (self->receiver_dropdown);
  return sel < self->choices->len ? g_array_index (self->choices, int, sel) : -1;
}

/* A binaural receiver's IR for the job: receiver-N-binaural.wav at the
 * simulated head, else its ambisonic IR to render for the turned head;
 * both in the output's results folder, which the job writes first when
 * it is not written yet (in its worker: the folder holds every receiver's
 * IRs). */
static void
binaural_job (RwListenView *self, Job *job, int r)
{
  const RwReceiverSpec *spec = &self->out->results.config.receiver_specs[r];
  g_autofree char *dir = NULL;
  char name[64];

  if (rw_listen_view_get_results_dir (self) != NULL)
    dir = g_strdup (self->results_dir);
  else
    {
      g_autofree char *sub = g_strdup_printf ("results-%u", self->generation);
      dir = g_build_filename (scratch (self), sub, NULL);
      job->results_dir = g_strdup (dir);
    }
  job->receiver = r;
  job->sim_yaw = spec->yaw_deg;
  job->sim_pitch = spec->pitch_deg;
  job->yaw = gtk_spin_button_get_value (self->head_yaw_spin);
  job->pitch = gtk_spin_button_get_value (self->head_pitch_spin);
  job->turned = !rw_listen_same_orientation (job->sim_yaw, job->sim_pitch, job->yaw, job->pitch);
  if (!job->turned)
    {
      rw_receiver_binaural_name ((size_t) r, name, sizeof name);
      job->ir_paths[0] = g_build_filename (dir, name, NULL);
      job->needed = g_strdup (job->ir_paths[0]);
      return;
    }
  rw_receiver_ambix_name ((size_t) r, name, sizeof name);
  job->ambix_path = g_build_filename (dir, name, NULL);
  job->needed = g_strdup (job->ambix_path);
  /* the set the run used (results.json's settings.hrtf), else the one it was asked for */
  const RwSimResult *res = &self->out->results.result;
  job->hrtf_path = g_strdup (res->hrtf_path[0] != '\0' ? res->hrtf_path : self->out->results.config.hrtf_path);
  job->ir_paths[0] = g_build_filename (scratch (self), "ir-binaural-turned.wav", NULL);
}

void
rw_listen_view_auralise (RwListenView *self, const char *dry_path)
{
  const char *dir = scratch (self);
  guint sel = gtk_drop_down_get_selected (self->dry_dropdown);
  const int r = chosen_receiver (self);

  if (self->out == NULL || self->busy)
    return;
  if (dry_path == NULL && sel != GTK_INVALID_LIST_POSITION && sel < self->dry_paths->len)
    dry_path = g_ptr_array_index (self->dry_paths, sel);
  if (dry_path == NULL || dir == NULL)
    {
      refuse (self, _("Choose a dry recording first."));
      return;
    }

  Job *job = g_new0 (Job, 1);
  job->generation = self->generation;
  job->dry_path = g_strdup (dry_path);
  job->wet_path = g_build_filename (dir, "auralisation.wav", NULL);
  job->receiver = -1;
  job->out = rw_sim_output_ref ((RwSimOutput *) self->out);
  if (r >= 0)
    binaural_job (self, job, r);
  /* Receiver 1 (and 2, as the right channel, when there are two),
   * written by the job */
  for (guint i = 0; r < 0 && i < MIN (self->out->n_receivers, 2); i++)
    {
      g_autofree char *name = g_strdup_printf ("ir-%u.wav", i + 1);
      job->ir_paths[i] = g_build_filename (dir, name, NULL);
    }
  if (dry_path != self->last_dry)
    {
      g_free (self->last_dry);
      self->last_dry = g_strdup (dry_path);
    }

  self->cancellable = g_cancellable_new ();
  g_autoptr (GTask) task = g_task_new (self, self->cancellable, auralise_done, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  self->busy = TRUE;
  gtk_widget_set_sensitive (GTK_WIDGET (self->auralise_button), FALSE);
  gtk_label_set_text (self->status_label, job->turned ? _("Turning the head and auralising…") : _("Auralising…"));
  g_task_run_in_thread (task, auralise_thread);
}

/* ---- the head ----------------------------------------------------------- */

static gboolean
head_settled (gpointer data)
{
  RwListenView *self = data;

  self->head_timeout = 0;
  if (self->busy)
    {
      /* the one in flight is for the old head: stop it, start anew */
      self->again = TRUE;
      g_cancellable_cancel (self->cancellable);
    }
  else
    rw_listen_view_auralise (self, self->last_dry);
  return G_SOURCE_REMOVE;
}

/* A turned head is heard again once it settles, when something was
 * auralised for this receiver already. */
static void
on_head_changed (RwListenView *self)
{
  if (self->filling || self->out == NULL || chosen_receiver (self) < 0 || (self->wet_path == NULL && !self->busy))
    return;
  g_clear_handle_id (&self->head_timeout, g_source_remove);
  self->head_timeout = g_timeout_add (HEAD_SETTLE_MS, head_settled, self);
}

/* The head row follows the chosen receiver: its simulated orientation. */
static void
on_receiver_chosen (RwListenView *self)
{
  const int r = chosen_receiver (self);
  const RwReceiverSpec *spec = r >= 0 ? &self->out->results.config.receiver_specs[r] : NULL;

  self->filling = TRUE;
  gtk_spin_button_set_value (self->head_yaw_spin, spec ? spec->yaw_deg : 0);
  gtk_spin_button_set_value (self->head_pitch_spin, spec ? spec->pitch_deg : 0);
  self->filling = FALSE;
  gtk_widget_set_sensitive (self->head_box, spec != NULL);
  if (spec != NULL)
    {
      g_autofree char *text =
        g_strdup_printf (_("Simulated with the head at yaw %.1f° and pitch %.1f°. Another orientation is rendered "
                           "from the receiver’s ambisonic IR, without simulating again."),
                         spec->yaw_deg, spec->pitch_deg);
      gtk_label_set_text (self->head_label, text);
    }
  else
    gtk_label_set_text (self->head_label, "");
  /* what plays belongs to the receiver it was made for */
  if (!self->busy)
    {
      g_clear_pointer (&self->wet_path, g_free);
      gtk_media_controls_set_media_stream (self->controls, NULL);
      gtk_widget_set_sensitive (GTK_WIDGET (self->controls), FALSE);
      gtk_widget_set_sensitive (GTK_WIDGET (self->export_button), FALSE);
    }
}

/* The receiver list of an output: receivers 1 and 2 on loudspeakers, then
 * each binaural receiver. */
static void
fill_receivers (RwListenView *self)
{
  guint n_old = g_list_model_get_n_items (G_LIST_MODEL (self->receiver_list));
  g_autoptr (GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  int all = -1;

  g_array_set_size (self->choices, 0);
  g_array_append_val (self->choices, all);
  g_ptr_array_add (labels, g_strdup (self->out != NULL && self->out->n_receivers >= 2
                                       ? _("Receivers 1 and 2, left and right (loudspeakers)")
                                       : _("Receiver 1 (loudspeakers)")));
  for (guint r = 0; self->out != NULL && r < self->out->n_receivers && r < RW_SIM_MAX_RECEIVERS; r++)
    if (self->out->results.config.receiver_specs[r].type == RW_RECEIVER_BINAURAL)
      {
        int ri = (int) r;
        g_array_append_val (self->choices, ri);
        g_ptr_array_add (labels, g_strdup_printf (_("Receiver %u, binaural (headphones)"), r + 1));
      }
  g_ptr_array_add (labels, NULL);
  self->filling = TRUE;
  gtk_string_list_splice (self->receiver_list, 0, n_old, (const char *const *) labels->pdata);
  gtk_drop_down_set_selected (self->receiver_dropdown, 0);
  self->filling = FALSE;
  on_receiver_chosen (self);
}

gboolean
rw_listen_view_choose_receiver (RwListenView *self, int receiver)
{
  for (guint i = 0; i < self->choices->len; i++)
    if (g_array_index (self->choices, int, i) == receiver)
      {
        gtk_drop_down_set_selected (self->receiver_dropdown, i);
        return TRUE;
      }
  return FALSE;
}

void
rw_listen_view_set_head (RwListenView *self, double yaw_deg, double pitch_deg)
{
  gtk_spin_button_set_value (self->head_yaw_spin, yaw_deg);
  gtk_spin_button_set_value (self->head_pitch_spin, pitch_deg);
}

GtkMediaStream *
rw_listen_view_get_stream (RwListenView *self)
{
  return gtk_media_controls_get_media_stream (self->controls);
}

const char *
rw_listen_view_get_results_dir (RwListenView *self)
{
  g_return_val_if_fail (RW_IS_LISTEN_VIEW (self), NULL);
  return self->results_dir != NULL && self->results_generation == self->generation ? self->results_dir : NULL;
}

const char *
rw_listen_view_get_wet_path (RwListenView *self)
{
  return self->wet_path;
}

void
rw_listen_view_set_output (RwListenView *self, const RwSimOutput *out)
{
  self->out = out;
  self->generation++;
  g_clear_handle_id (&self->head_timeout, g_source_remove);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  self->again = FALSE;
  fill_receivers (self);
  g_clear_pointer (&self->wet_path, g_free);
  gtk_media_controls_set_media_stream (self->controls, NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->controls), FALSE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->export_button), FALSE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->auralise_button), out != NULL && !self->busy);
  gtk_label_set_text (self->status_label, out ? "" : _("Run a simulation first."));
}

/* ---- buttons ------------------------------------------------------------ */

static void
on_auralise_clicked (RwListenView *self)
{
  rw_listen_view_auralise (self, NULL);
}

static void
on_choose_response (GtkNativeDialog *native, int response, RwListenView *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));
      g_autofree char *path = g_file_get_path (file);
      g_autofree char *base = g_file_get_basename (file);
      if (path != NULL)
        {
          add_dry (self, base, path);
          gtk_drop_down_set_selected (self->dry_dropdown, self->dry_paths->len - 1);
        }
    }
  g_object_unref (native);
}

static void
on_choose_clicked (RwListenView *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkFileChooserNative *native =
    gtk_file_chooser_native_new (_("Choose a Dry Recording"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                 GTK_FILE_CHOOSER_ACTION_OPEN, _("_Choose"), _("_Cancel"));
  g_autoptr (GtkFileFilter) audio = gtk_file_filter_new ();

  gtk_file_filter_set_name (audio, _("Audio files"));
  gtk_file_filter_add_mime_type (audio, "audio/*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (native), audio);
  g_signal_connect (native, "response", G_CALLBACK (on_choose_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

static void
on_export_response (GtkNativeDialog *native, int response, RwListenView *self)
{
  if (response == GTK_RESPONSE_ACCEPT && self->wet_path != NULL)
    {
      g_autoptr (GFile) dest = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));
      g_autoptr (GFile) src = g_file_new_for_path (self->wet_path);
      g_autoptr (GError) error = NULL;
      if (!g_file_copy (src, dest, G_FILE_COPY_OVERWRITE, NULL, NULL, NULL, &error))
        gtk_label_set_text (self->status_label, error->message);
    }
  g_object_unref (native);
}

static void
on_export_clicked (RwListenView *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkFileChooserNative *native =
    gtk_file_chooser_native_new (_("Export Auralisation"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                 GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (native), "auralisation.wav");
  g_signal_connect (native, "response", G_CALLBACK (on_export_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

/* ---- class -------------------------------------------------------------- */

/* The scratch folder and what is in it: WAVs, and the results folders of
 * the binaural jobs (job_irs) one level down. */
static void
remove_scratch (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *p = g_build_filename (dir, name, NULL);
      if (g_file_test (p, G_FILE_TEST_IS_DIR) && !g_file_test (p, G_FILE_TEST_IS_SYMLINK))
        remove_scratch (p);
      else
        g_remove (p);
    }
  g_rmdir (dir);
}

static void
rw_listen_view_dispose (GObject *object)
{
  RwListenView *self = RW_LISTEN_VIEW (object);

  g_clear_handle_id (&self->head_timeout, g_source_remove);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  self->disposed = TRUE;
  gtk_widget_dispose_template (GTK_WIDGET (self), RW_TYPE_LISTEN_VIEW);
  G_OBJECT_CLASS (rw_listen_view_parent_class)->dispose (object);
}

static void
rw_listen_view_finalize (GObject *object)
{
  RwListenView *self = RW_LISTEN_VIEW (object);

  if (self->scratch_dir != NULL)
    remove_scratch (self->scratch_dir);
  g_free (self->scratch_dir);
  g_free (self->results_dir);
  g_free (self->wet_path);
  g_free (self->last_dry);
  g_clear_object (&self->cancellable);
  g_array_unref (self->choices);
  g_ptr_array_unref (self->dry_paths);
  G_OBJECT_CLASS (rw_listen_view_parent_class)->finalize (object);
}

static void
rw_listen_view_class_init (RwListenViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = rw_listen_view_dispose;
  G_OBJECT_CLASS (klass)->finalize = rw_listen_view_finalize;
  gtk_widget_class_set_template_from_resource (widget_class, "/org/roomwave/Roomwave/rw-listen-view.ui");
  gtk_widget_class_bind_template_child (widget_class, RwListenView, dry_dropdown);
  gtk_widget_class_bind_template_child (widget_class, RwListenView, dry_list);
  gtk_widget_class_bind_template_child (widget_class, RwListenView, auralise_button);
  gtk_widget_class_bind_template_child (widget_class, RwListenView, export_button);
  gtk_widget_class_bind_template_child (widget_class, RwListenView, status_label);
  gtk_widget_class_bind_template_child (widget_class, RwListenView, controls);
  gtk_widget_class_bind_template_child (widget_class, RwListenView, receiver_dropdown);
  gtk_widget_class_bind_template_child (widget_class, RwListenView, receiver_list);
  gtk_widget_class_bind_template_child (widget_class, RwListenView, head_box);
  gtk_widget_class_bind_template_child (widget_class, RwListenView, head_yaw_spin);
  gtk_widget_class_bind_template_child (widget_class, RwListenView, head_pitch_spin);
  gtk_widget_class_bind_template_child (widget_class, RwListenView, head_label);
  gtk_widget_class_bind_template_callback (widget_class, on_auralise_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_choose_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_export_clicked);

  /* wet WAV path (NULL on failure), error message (NULL on success) */
  signals[AURALISED] =
    g_signal_new ("auralised", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);
}

static void
rw_listen_view_init (RwListenView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->dry_paths = g_ptr_array_new_with_free_func (g_free);
  self->choices = g_array_new (FALSE, FALSE, sizeof (int));
  list_bundled (self);
  rw_listen_view_set_output (self, NULL);
  g_signal_connect_swapped (self->receiver_dropdown, "notify::selected", G_CALLBACK (on_receiver_chosen), self);
  g_signal_connect_swapped (self->head_yaw_spin, "value-changed", G_CALLBACK (on_head_changed), self);
  g_signal_connect_swapped (self->head_pitch_spin, "value-changed", G_CALLBACK (on_head_changed), self);
}
