/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-window-files.c — the window's file handling: opening a room or a
 * project off the main thread (rw_project_open_async), the question about
 * paths outside a project's folder, unsaved changes, recent files, saving
 * with results, and File → Open Results. */
#include "rw-window-private.h"

#include <glib/gi18n-lib.h>

/* The formats Assimp 5.2 imports that can hold a room (file chooser
 * patterns; Assimp itself decides by content). */
static const char *const mesh_patterns[] = {
  "*.obj", "*.gltf", "*.glb", "*.stl", "*.ply", "*.fbx", "*.dae", "*.3ds", "*.ifc", "*.ifczip",
  "*.off", "*.x3d", "*.3mf", "*.blend", "*.dxf", "*.lwo", "*.ase", "*.ac", "*.ms3d", "*.x", "*.smd",
  "*.q3o", "*.ogex", "*.amf", "*.raw", "*.nff", "*.md5mesh", NULL,
};

/* ---- opening ------------------------------------------------------------ */

/* Model units (preference "units") → metres. */
static double
import_scale (RwWindow *self)
{
  static const struct { const char *id; double scale; } units[] = {
    { "m", 1.0 }, { "cm", 0.01 }, { "mm", 0.001 }, { "in", 0.0254 }, { "ft", 0.3048 },
  };
  g_autofree char *u = self->settings ? g_settings_get_string (self->settings, "units") : NULL;

  for (gsize i = 0; u != NULL && i < G_N_ELEMENTS (units); i++)
    if (g_str_equal (u, units[i].id))
      return units[i].scale;
  return 1.0;
}

static gboolean open_file (RwWindow *self, GFile *file, gboolean outside_accepted);

static gboolean
pulse_progress (gpointer data)
{
  gtk_progress_bar_pulse (RW_WINDOW (data)->progress_bar);
  return G_SOURCE_CONTINUE;
}

typedef struct {
  RwWindow *self;   /* a reference */
  GFile *file;
} OpenData;

static OpenData *
open_data_new (RwWindow *self, GFile *file)
{
  OpenData *od = g_new0 (OpenData, 1);
  od->self = g_object_ref (self);
  od->file = g_object_ref (file);
  return od;
}

static void
on_open_done (GObject *source, GAsyncResult *result, gpointer data)
{
  OpenData *od = data;
  RwWindow *self = od->self;
  g_autoptr (GError) error = NULL;
  g_autofree char *path = g_file_get_path (od->file);
  g_autofree char *name = g_file_get_parse_name (od->file);
  gboolean is_project = g_str_has_suffix (path, ".roomwave");
  gboolean ok = rw_project_open_finish (RW_PROJECT (source), result, &error);

  g_clear_object (&self->import_cancellable);
  g_clear_handle_id (&self->pulse_id, g_source_remove);
  g_application_release (g_application_get_default ());
  if (!self->disposed)
    {
      gtk_progress_bar_set_fraction (self->progress_bar, 0);
      if (ok)
        {
          g_autofree char *uri = g_file_get_uri (od->file);
          g_autofree char *status = g_strdup_printf (_("Opened %s"), name);
          gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
          gtk_stack_set_visible_child_name (self->main_stack, "room");
          gtk_label_set_text (self->status_label, status);
          if (is_project)
            _rw_window_load_results (self, od->file);
        }
      else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        gtk_label_set_text (self->status_label, _("Import cancelled. The window keeps what it had."));
      else
        {
          gtk_label_set_text (self->status_label, "");
          _rw_window_show_error (self, is_project ? _("The project could not be opened") : _("The room could not be imported"),
                      error->message);
        }
      _rw_window_update_title (self);
      _rw_window_update_actions (self);
      g_signal_emit (self, _rw_window_signals[RW_WINDOW_OPEN_FINISHED], 0, ok);
    }
  g_object_unref (od->file);
  g_object_unref (od->self);
  g_free (od);
}

static void
on_outside_response (GtkDialog *dialog, int response, RwWindow *self)
{
  GFile *file = g_object_get_data (G_OBJECT (dialog), "file");

  if (response == GTK_RESPONSE_ACCEPT)
    open_file (self, file, TRUE);
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* A project that names files outside its own folder (a shared or
 * downloaded project could point anywhere): the paths are shown, and the
 * file is opened only when the user agrees. */
static void
ask_outside (RwWindow *self, GFile *file, char **outside)
{
  g_autofree char *name = g_file_get_parse_name (file);
  g_autofree char *list = g_strjoinv ("\n", outside);
  GtkWidget *dialog = gtk_message_dialog_new (GTK_WINDOW (self),
                                              GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                              GTK_MESSAGE_WARNING, GTK_BUTTONS_NONE,
                                              _("The project names files outside its folder"));
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog),
                                            _("%s opens these files:\n%s\nOpen it only if you trust where it came from."),
                                            name, list);
  gtk_dialog_add_buttons (GTK_DIALOG (dialog), _("_Cancel"), GTK_RESPONSE_CANCEL, _("_Open"), GTK_RESPONSE_ACCEPT, NULL);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  g_object_set_data_full (G_OBJECT (dialog), "file", g_object_ref (file), g_object_unref);
  g_signal_connect (dialog, "response", G_CALLBACK (on_outside_response), self);
  _rw_window_present_dialog (self, dialog);
}

gboolean
rw_window_open_file (RwWindow *self, GFile *file)
{
  g_return_val_if_fail (RW_IS_WINDOW (self), FALSE);
  return open_file (self, file, FALSE);
}

static gboolean
open_file (RwWindow *self, GFile *file, gboolean outside_accepted)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *name = g_file_get_parse_name (file);

  if (_rw_window_busy (self))
    return FALSE;
  if (path == NULL)
    {
      g_autofree char *msg = g_strdup_printf (_("%s: only local files can be opened"), name);
      _rw_window_show_error (self, _("The file could not be opened"), msg);
      return FALSE;
    }
  if (g_str_has_suffix (path, ".roomwave") && !outside_accepted)
    {
      g_auto (GStrv) outside = rw_project_file_outside_paths (file, &error);
      if (outside == NULL)
        {
          _rw_window_show_error (self, _("The project could not be opened"), error->message);
          return FALSE;
        }
      if (outside[0] != NULL)
        {
          ask_outside (self, file, outside);
          return FALSE;
        }
    }

  /* The import runs off the main thread (Assimp in its helper process);
   * the window keeps drawing, shows progress, and win.cancel stops it. */
  g_autofree char *status = g_strdup_printf (_("Importing %s…"), name);
  rw_project_set_import_scale (self->project, import_scale (self));
  self->import_cancellable = g_cancellable_new ();
  /* a set still being checked would be set in the project opened now */
  _rw_window_cancel_hrtf_check (self);
  gtk_label_set_text (self->status_label, status);
  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  self->pulse_id = g_timeout_add (100, pulse_progress, self);
  _rw_window_update_actions (self);
  /* The window is kept until the import reports, the application until
   * the worker has finished (as for a run). */
  g_application_hold (g_application_get_default ());
  rw_project_open_async (self->project, file, self->import_cancellable, on_open_done,
                         open_data_new (self, file));
  return TRUE;
}

/* Runs `then` when the project has no unsaved changes or the user chose to
 * discard them; saving first is offered (_rw_window_confirm_discard). */

typedef struct {
  RwWindow *self;
  RwWindowThenFn then;
  gpointer data;
  GDestroyNotify data_free;
} Pending;

static void save_to (RwWindow *self, GFile *file, Pending *then);

static void
pending_free (Pending *p)
{
  if (p->data_free)
    p->data_free (p->data);
  g_free (p);
}

static void
on_discard_response (GtkDialog *dialog, int response, Pending *p)
{
  GFile *file = rw_project_get_file (p->self->project);

  gtk_window_destroy (GTK_WINDOW (dialog));
  /* saved: `then` once the save has ended, if it left nothing unsaved */
  if (response == GTK_RESPONSE_ACCEPT && file != NULL)
    {
      save_to (p->self, file, p);
      return;
    }
  if (response == GTK_RESPONSE_REJECT)
    p->then (p->self, p->data);
  else if (response == GTK_RESPONSE_ACCEPT)
    _rw_window_action_save_as (NULL, NULL, p->self);
  pending_free (p);
}

void
_rw_window_confirm_discard (RwWindow *self, RwWindowThenFn then, gpointer data, GDestroyNotify data_free)
{
  if (!rw_project_get_dirty (self->project) || rw_project_get_mesh (self->project) == NULL)
    {
      then (self, data);
      if (data_free)
        data_free (data);
      return;
    }
  GtkWidget *dialog = gtk_message_dialog_new (GTK_WINDOW (self), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                              GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE,
                                              "%s", _("Save changes to the project?"));
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s",
                                            _("Unsaved changes to materials, points or settings are lost otherwise."));
  gtk_dialog_add_buttons (GTK_DIALOG (dialog), _("_Discard"), GTK_RESPONSE_REJECT,
                          _("_Cancel"), GTK_RESPONSE_CANCEL, _("_Save"), GTK_RESPONSE_ACCEPT, NULL);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT);
  Pending *p = g_new0 (Pending, 1);
  p->self = self;
  p->then = then;
  p->data = data;
  p->data_free = data_free;
  g_signal_connect (dialog, "response", G_CALLBACK (on_discard_response), p);
  gtk_window_present (GTK_WINDOW (dialog));
}

void
_rw_window_open_then (RwWindow *self, gpointer data)
{
  rw_window_open_file (self, data);
}

/* The ten most recent rooms and projects this application opened. */
#define N_RECENT 10

static int
by_visit (gconstpointer a, gconstpointer b)
{
  GDateTime *ta = gtk_recent_info_get_visited (*(GtkRecentInfo **) a);
  GDateTime *tb = gtk_recent_info_get_visited (*(GtkRecentInfo **) b);
  return g_date_time_compare (tb, ta);
}

void
_rw_window_update_recent_menu (RwWindow *self)
{
  GtkRecentManager *manager = gtk_recent_manager_get_default ();
  GList *items = gtk_recent_manager_get_items (manager);
  g_autoptr (GPtrArray) mine = g_ptr_array_new_with_free_func ((GDestroyNotify) gtk_recent_info_unref);
  const char *app_name = g_get_application_name ();

  for (GList *l = items; l != NULL; l = l->next)
    if (app_name != NULL && gtk_recent_info_has_application (l->data, app_name) && gtk_recent_info_exists (l->data))
      g_ptr_array_add (mine, gtk_recent_info_ref (l->data));
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
  g_ptr_array_sort (mine, by_visit);

  g_menu_remove_all (self->recent_menu);
  for (guint i = 0; i < MIN (mine->len, N_RECENT); i++)
    {
      GtkRecentInfo *info = g_ptr_array_index (mine, i);
      g_autoptr (GMenuItem) item = g_menu_item_new (gtk_recent_info_get_display_name (info), NULL);
      g_menu_item_set_action_and_target (item, "win.open-recent", "s", gtk_recent_info_get_uri (info));
      g_menu_append_item (self->recent_menu, item);
    }
}

void
_rw_window_action_open_recent (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  RwWindow *self = RW_WINDOW (user_data);
  GFile *file = g_file_new_for_uri (g_variant_get_string (param, NULL));

  (void) action;
  _rw_window_confirm_discard (self, _rw_window_open_then, file, g_object_unref);
}

static void
on_open_response (GtkNativeDialog *native, int response, RwWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      GFile *file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));
      _rw_window_confirm_discard (self, _rw_window_open_then, file, g_object_unref);
    }
  g_object_unref (native);
}

void
_rw_window_action_open (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  GtkWidget *widget = user_data;

  RwWindow *self = RW_WINDOW (widget);
  GtkFileChooserNative *native =
    gtk_file_chooser_native_new (_("Open Room or Project"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN,
                                 _("_Open"), _("_Cancel"));
  g_autoptr (GtkFileFilter) all = gtk_file_filter_new ();
  g_autoptr (GtkFileFilter) projects = gtk_file_filter_new ();
  g_autoptr (GtkFileFilter) meshes = gtk_file_filter_new ();

  (void) action;
  (void) param;
  gtk_file_filter_set_name (all, _("Rooms and projects"));
  gtk_file_filter_set_name (projects, _("Roomwave projects"));
  gtk_file_filter_set_name (meshes, _("Room models (OBJ, glTF, STL, PLY, FBX, COLLADA, 3DS, IFC…)"));
  gtk_file_filter_add_pattern (all, "*.roomwave");
  gtk_file_filter_add_pattern (projects, "*.roomwave");
  for (int i = 0; mesh_patterns[i] != NULL; i++)
    {
      gtk_file_filter_add_pattern (all, mesh_patterns[i]);
      gtk_file_filter_add_pattern (meshes, mesh_patterns[i]);
    }
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (native), all);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (native), meshes);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (native), projects);
  g_signal_connect (native, "response", G_CALLBACK (on_open_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

/* ---- saving ------------------------------------------------------------- */

/* "<folder>/<name>.roomwave" → "<name>.results", the results folder's
 * name beside it. */
static char *
results_dir_name (GFile *project_file)
{
  g_autofree char *base = g_file_get_basename (project_file);
  if (g_str_has_suffix (base, ".roomwave"))
    base[strlen (base) - strlen (".roomwave")] = '\0';
  return g_strconcat (base, ".results", NULL);
}

/* Saving: the results first, so that the project only names a folder that
 * holds them, written in a worker (rw_sim_output_save_async) while the
 * window waits as for a file operation (rw_window_is_saving: Open, Save,
 * Run and the settings wait; closing waits for the end, then closes);
 * then the project file on the main thread (a few kB). A failure with the
 * results still saves the project, without them. `then` (the discard
 * question's continuation, or NULL) runs after it when the project is
 * left with nothing unsaved. */
typedef struct {
  RwWindow *self;               /* a reference */
  GFile *file;
  char *name;                   /* the results folder's, beside the file */
  Pending *then;
} SaveOp;

static void
save_op_free (SaveOp *op)
{
  g_object_unref (op->self);
  g_object_unref (op->file);
  g_free (op->name);
  if (op->then != NULL)
    pending_free (op->then);
  g_free (op);
}

/* The project file, once the results are saved (or failed, or none);
 * then `then`, or Save As where something is still unsaved. */
static void
save_project (SaveOp *op, gboolean results_saved)
{
  RwWindow *self = op->self;
  g_autoptr (GError) error = NULL;

  if (self->disposed)
    return;
  if (rw_project_save (self->project, op->file, &error))
    {
      g_autofree char *uri = g_file_get_uri (op->file);
      g_autofree char *name = g_file_get_parse_name (op->file);
      g_autofree char *status = results_saved ? g_strdup_printf (_("Saved %s with its results"), name)
                                              : g_strdup_printf (_("Saved %s"), name);
      gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
      gtk_label_set_text (self->status_label, status);
      _rw_window_update_title (self);
    }
  else
    _rw_window_show_error (self, _("The project could not be saved"), error->message);
  if (op->then == NULL)
    return;
  if (!rw_project_get_dirty (self->project))
    op->then->then (self, op->then->data);
  else
    _rw_window_action_save_as (NULL, NULL, self);
}

static void
on_results_saved (GObject *source, GAsyncResult *result, gpointer data)
{
  SaveOp *op = data;
  RwWindow *self = op->self;
  g_autoptr (GError) error = NULL;
  gboolean saved = rw_sim_output_save_finish (result, &error);

  (void) source;
  self->saving = FALSE;
  if (!self->disposed)
    {
      if (saved)
        rw_project_set_results_ref (self->project, op->name);
      else
        _rw_window_show_error (self, _("The results could not be saved"), error->message);
      _rw_window_update_actions (self);
      save_project (op, saved);
      if (self->close_after_save)
        gtk_window_close (GTK_WINDOW (self));
    }
  self->close_after_save = FALSE;
  save_op_free (op);
}

static void
save_to (RwWindow *self, GFile *file, Pending *then)
{
  RwSimOutput *out = (RwSimOutput *) rw_results_view_get_output (self->results_view);
  SaveOp *op = g_new0 (SaveOp, 1);

  op->self = g_object_ref (self);
  op->file = g_object_ref (file);
  op->then = then;
  rw_project_set_results_ref (self->project, NULL);
  g_autoptr (GFile) parent = g_file_get_parent (file);
  op->name = results_dir_name (file);
  g_autoptr (GFile) dir = out != NULL && parent != NULL ? g_file_get_child (parent, op->name) : NULL;
  g_autofree char *dir_path = dir != NULL ? g_file_get_path (dir) : NULL;
  if (dir_path == NULL)
    {
      save_project (op, FALSE);
      save_op_free (op);
      return;
    }
  g_autofree char *name = g_file_get_parse_name (file);
  g_autofree char *status = g_strdup_printf (_("Saving %s with its results…"), name);
  gtk_label_set_text (self->status_label, status);
  self->saving = TRUE;
  _rw_window_update_actions (self);
  /* the output outlives a new run or folder replacing it in the view */
  rw_sim_output_save_async (out, dir_path, on_results_saved, op);
}

gboolean
rw_window_save_to (RwWindow *self, GFile *file)
{
  g_return_val_if_fail (RW_IS_WINDOW (self) && G_IS_FILE (file), FALSE);
  if (_rw_window_busy (self) || rw_project_get_mesh (self->project) == NULL)
    return FALSE;
  save_to (self, file, NULL);
  return TRUE;
}

gboolean
rw_window_is_saving (RwWindow *self)
{
  g_return_val_if_fail (RW_IS_WINDOW (self), FALSE);
  return self->saving;
}

/* Reading a results folder (rw_sim_output_load_async: it analyses every
 * IR) is part of the window's file operation, as an import is: the
 * import's cancellable is held (rw_window_is_importing; win.cancel stops
 * it; Open and Run wait) and the progress bar pulses until it reports.
 * `project`: the folder a project just opened names (its failure a line
 * in the status bar, as before); else File → Open Results (a dialog). */
typedef struct {
  RwWindow *self;               /* a reference */
  GFile *folder;
  gboolean project;
  char *opened;                 /* project: the status line to show again */
} ResultsRead;

static void
on_results_read (GObject *source, GAsyncResult *result, gpointer data)
{
  ResultsRead *rr = data;
  RwWindow *self = rr->self;
  g_autoptr (GError) error = NULL;
  RwSimOutput *out = rw_sim_output_load_finish (result, &error);
  double box[3];

  (void) source;
  g_clear_object (&self->import_cancellable);
  g_clear_handle_id (&self->pulse_id, g_source_remove);
  g_application_release (g_application_get_default ());
  if (self->disposed)
    g_clear_pointer (&out, rw_sim_output_unref);
  else
    {
      g_autofree char *text = NULL;
      gtk_progress_bar_set_fraction (self->progress_bar, 0);
      if (out != NULL && rr->project)
        text = g_strdup (rr->opened);
      else if (out != NULL)
        {
          g_autofree char *name = g_file_get_parse_name (rr->folder);
          text = g_strdup_printf (_("Opened the results in %s (receivers: %u, valid up to %g Hz)"), name,
                                  out->n_receivers, out->fmax_hz);
        }
      else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        text = g_strdup (_("Reading the results was cancelled."));
      else if (rr->project)
        text = g_strdup_printf (_("The saved results were not loaded: %s"), error->message);
      else
        _rw_window_show_error (self, _("The results could not be opened"), error->message);
      gtk_label_set_text (self->status_label, text ? text : "");
      if (out != NULL)
        rw_results_view_take_output (self->results_view, out,
                                     rw_project_get_mesh (self->project) && _rw_window_room_box (self, box) ? box : NULL);
      if (out != NULL && !rr->project)
        gtk_stack_set_visible_child_name (self->main_stack, "results");
      _rw_window_update_actions (self);
    }
  g_object_unref (rr->folder);
  g_object_unref (rr->self);
  g_free (rr->opened);
  g_free (rr);
}

static void
read_results (RwWindow *self, GFile *folder, const char *path, gboolean project)
{
  ResultsRead *rr = g_new (ResultsRead, 1);
  g_autofree char *name = g_file_get_parse_name (folder);
  g_autofree char *status = g_strdup_printf (_("Reading the results in %s…"), name);

  rr->self = g_object_ref (self);
  rr->folder = g_object_ref (folder);
  rr->project = project;
  rr->opened = g_strdup (gtk_label_get_text (self->status_label));
  self->import_cancellable = g_cancellable_new ();
  gtk_label_set_text (self->status_label, status);
  self->pulse_id = g_timeout_add (100, pulse_progress, self);
  g_application_hold (g_application_get_default ());
  _rw_window_update_actions (self);
  rw_sim_output_load_async (path, self->import_cancellable, on_results_read, rr);
}

/* After a project is opened (the import's cancellable released): its
 * saved results, when it names them, read off the main thread. */
void
_rw_window_load_results (RwWindow *self, GFile *project_file)
{
  const char *ref = rw_project_get_results_ref (self->project);
  g_autoptr (GFile) parent = g_file_get_parent (project_file);

  if (ref == NULL || parent == NULL || self->import_cancellable != NULL)
    return;
  g_autoptr (GFile) dir = g_file_resolve_relative_path (parent, ref);
  g_autofree char *dir_path = g_file_get_path (dir);
  if (dir_path == NULL)
    {
      g_autofree char *msg = g_strdup_printf (_("The saved results were not loaded: %s"), ref);
      gtk_label_set_text (self->status_label, msg);
      return;
    }
  read_results (self, dir, dir_path, TRUE);
}

static void
on_save_response (GtkNativeDialog *native, int response, RwWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));
      g_autofree char *path = g_file_get_path (file);
      if (path != NULL && !g_str_has_suffix (path, ".roomwave"))
        {
          g_autofree char *with_ext = g_strconcat (path, ".roomwave", NULL);
          g_autoptr (GFile) f2 = g_file_new_for_path (with_ext);
          save_to (self, f2, NULL);
        }
      else
        save_to (self, file, NULL);
    }
  g_object_unref (native);
}

void
_rw_window_action_save_as (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  GtkWidget *widget = user_data;

  RwWindow *self = RW_WINDOW (widget);
  GtkFileChooserNative *native =
    gtk_file_chooser_native_new (_("Save Project"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE,
                                 _("_Save"), _("_Cancel"));
  const char *mesh = rw_project_get_mesh_path (self->project);

  (void) action;
  (void) param;
  if (mesh != NULL)
    {
      g_autofree char *dir = g_path_get_dirname (mesh);
      g_autofree char *base = g_path_get_basename (mesh);
      char *dot = strrchr (base, '.');
      if (dot != NULL)
        *dot = '\0';
      g_autofree char *suggested = g_strconcat (base, ".roomwave", NULL);
      g_autoptr (GFile) folder = g_file_new_for_path (dir);
      gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (native), folder, NULL);
      gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (native), suggested);
    }
  g_signal_connect (native, "response", G_CALLBACK (on_save_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

void
_rw_window_action_save (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  GtkWidget *widget = user_data;

  RwWindow *self = RW_WINDOW (widget);
  GFile *file = rw_project_get_file (self->project);

  if (file == NULL)
    _rw_window_action_save_as (action, param, user_data);
  else
    save_to (self, file, NULL);
}

/* ---- File → Open Results (win.open-results) ------------------------------
 * Any results folder: one roomwave-cli simulate wrote (--out DIR, or one
 * of its DIR/source-N/) or one the GUI saved beside a project. The engine
 * reads and checks it (rw_results_read); the views show it as they show a
 * finished run. The project (mesh, settings) is left as it is. */

gboolean
rw_window_open_results (RwWindow *self, GFile *folder)
{
  g_autofree char *path = NULL;

  g_return_val_if_fail (RW_IS_WINDOW (self) && G_IS_FILE (folder), FALSE);
  if (_rw_window_busy (self))
    return FALSE;
  path = g_file_get_path (folder);
  if (path == NULL)
    {
      _rw_window_show_error (self, _("The results could not be opened"),
                             _("The folder is not on this computer's file system."));
      return FALSE;
    }
  read_results (self, folder, path, FALSE);
  return TRUE;
}

static void
on_open_results_response (GtkNativeDialog *native, int response, RwWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));
      if (folder != NULL)
        rw_window_open_results (self, folder);
    }
  g_object_unref (native);
}

/* GTK 4.8 (Debian 12) has no GtkFileDialog: the native chooser, in its
 * folder mode. */
void
_rw_window_action_open_results (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  RwWindow *self = RW_WINDOW (user_data);
  GtkFileChooserNative *native =
    gtk_file_chooser_native_new (_("Open Results Folder"), GTK_WINDOW (self),
                                 GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, _("_Open"), _("_Cancel"));

  (void) action;
  (void) param;
  g_signal_connect (native, "response", G_CALLBACK (on_open_results_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}
