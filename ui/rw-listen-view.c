/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-listen-view.c — see rw-listen-view.h. */
#include "rw-listen-view.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "rw-audio.h"
#include "rw-auralise.h"
#include "rw-materials.h"

struct _RwListenView
{
  GtkBox parent_instance;

  GtkDropDown *dry_dropdown;
  GtkStringList *dry_list;
  GtkButton *auralise_button, *export_button;
  GtkLabel *status_label;
  GtkMediaControls *controls;

  const RwSimOutput *out;
  GPtrArray *dry_paths;        /* parallel to dry_list */
  char *scratch_dir;           /* IR and wet WAVs; removed on finalize */
  char *wet_path;
  gboolean busy;
  guint generation;            /* bumped by set_output: stale results are dropped */
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
} Job;

static void
job_free (Job *job)
{
  g_free (job->ir_paths[0]);
  g_free (job->ir_paths[1]);
  g_free (job->dry_path);
  g_free (job->wet_path);
  g_free (job);
}

static void
auralise_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Job *job = data;
  RwAuraliseOptions opt;
  RwError err = { 0 };

  (void) source;
  (void) cancellable;
  rw_auralise_options_init (&opt);
  if (rw_auralise_file (job->ir_paths[0], job->ir_paths[1], job->dry_path, job->wet_path,
                        &opt, &job->stats, &err))
    g_task_return_boolean (task, TRUE);
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
  gtk_widget_set_sensitive (GTK_WIDGET (self->auralise_button), self->out != NULL);
  if (job->generation != self->generation)
    return;   /* results changed meanwhile */
  if (!ok)
    {
      gtk_label_set_text (self->status_label, error->message);
      g_signal_emit (self, signals[AURALISED], 0, NULL, error->message);
      return;
    }
  g_free (self->wet_path);
  self->wet_path = g_strdup (job->wet_path);

  g_autofree char *dry = g_path_get_basename (job->dry_path);
  g_autofree char *text =
    g_strdup_printf (_("%s in the room: %.1f s, %d channel(s) at %.0f Hz, gain %.1f dB"),
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

void
rw_listen_view_auralise (RwListenView *self, const char *dry_path)
{
  const char *dir = scratch (self);
  RwError err = { 0 };
  guint sel = gtk_drop_down_get_selected (self->dry_dropdown);

  if (self->out == NULL || self->busy)
    return;
  if (dry_path == NULL && sel != GTK_INVALID_LIST_POSITION && sel < self->dry_paths->len)
    dry_path = g_ptr_array_index (self->dry_paths, sel);
  if (dry_path == NULL || dir == NULL)
    {
      gtk_label_set_text (self->status_label, _("Choose a dry recording first."));
      return;
    }

  Job *job = g_new0 (Job, 1);
  job->generation = self->generation;
  job->dry_path = g_strdup (dry_path);
  job->wet_path = g_build_filename (dir, "auralisation.wav", NULL);
  /* Receiver 1 (and 2, as the right channel, when there are two). */
  for (guint r = 0; r < MIN (self->out->n_receivers, 2); r++)
    {
      g_autofree char *name = g_strdup_printf ("ir-%u.wav", r + 1);
      RwAudio a = { self->out->ir[r], self->out->ir_frames, 1, self->out->fs_out_hz };
      job->ir_paths[r] = g_build_filename (dir, name, NULL);
      if (!rw_audio_write (job->ir_paths[r], &a, &err))
        {
          gtk_label_set_text (self->status_label, err.message);
          job_free (job);
          return;
        }
    }

  g_autoptr (GTask) task = g_task_new (self, NULL, auralise_done, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  self->busy = TRUE;
  gtk_widget_set_sensitive (GTK_WIDGET (self->auralise_button), FALSE);
  gtk_label_set_text (self->status_label, _("Auralising…"));
  g_task_run_in_thread (task, auralise_thread);
}

GtkMediaStream *
rw_listen_view_get_stream (RwListenView *self)
{
  return gtk_media_controls_get_media_stream (self->controls);
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

static void
remove_scratch (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *p = g_build_filename (dir, name, NULL);
      g_remove (p);
    }
  g_rmdir (dir);
}

static void
rw_listen_view_dispose (GObject *object)
{
  RwListenView *self = RW_LISTEN_VIEW (object);

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
  g_free (self->wet_path);
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
  list_bundled (self);
  rw_listen_view_set_output (self, NULL);
}
