/* rw-window.c — see rw-window.h. */
#include "rw-window.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <unistd.h>

#include "rw-compare-view.h"
#include "rw-materials-panel.h"
#include "rw-results-io.h"
#include "rw-results-view.h"
#include "rw-room-view.h"
#include "rw-sim-job.h"
#include "rw-slice-view.h"

/* Throughput assumed for the run-time estimate until a run on this machine
 * has measured one (kept in GSettings "last-mvox-per-s"). */
#define DEFAULT_MVOX_PER_S 100.0

struct _RwWindow
{
  GtkApplicationWindow parent_instance;

  /* template children */
  GtkLabel *report_label;
  GtkSpinButton *source_x, *source_y, *source_z;
  GtkSpinButton *receiver_x, *receiver_y, *receiver_z;
  GtkLabel *point_status;
  GtkDropDown *receiver_choice;
  GtkStringList *receiver_list;
  GtkButton *remove_receiver_button;
  RwMaterialsPanel *materials_panel;
  GtkStack *side_stack;
  GtkSpinButton *fmax_spin, *duration_spin, *temperature_spin, *ppw_spin;
  GtkDropDown *boundary_dropdown, *backend_dropdown, *precision_dropdown;
  GtkLabel *backend_label, *estimate_label, *estimate_warning;
  GtkStack *main_stack;
  RwRoomView *room_view;
  GtkBox *legend_box;
  GtkDropDown *slice_axis_dropdown;
  GtkScale *slice_position_scale;
  RwSliceView *slice_view;
  GtkLabel *stage_label;
  RwResultsView *results_view;
  GtkProgressBar *progress_bar;
  GtkLabel *status_label;
  GtkButton *run_button, *cancel_button;
  GMenu *recent_menu;

  RwProject *project;
  GSignalGroup *project_signals;    /* the views' handlers on the project */
  GBindingGroup *project_bindings;  /* the settings widgets ↔ the project's settings */
  RwSimJob *job;
  GCancellable *import_cancellable; /* while a file is being opened */
  guint pulse_id;                   /* the progress bar's pulse during an import */
  GSettings *settings;          /* may be NULL (schema not found) */
  GtkWindow *error_dialog;      /* weak */
  gboolean updating;            /* writing our own widgets */
  gboolean close_confirmed;
  gboolean disposed;            /* a job may report after the widgets are gone */
};

G_DEFINE_TYPE (RwWindow, rw_window, GTK_TYPE_APPLICATION_WINDOW)

enum { RUN_FINISHED, OPEN_FINISHED, N_SIGNALS };
static guint signals[N_SIGNALS];

/* The formats Assimp 5.2 imports that can hold a room (file chooser
 * patterns; Assimp itself decides by content). */
static const char *const mesh_patterns[] = {
  "*.obj", "*.gltf", "*.glb", "*.stl", "*.ply", "*.fbx", "*.dae", "*.3ds", "*.ifc", "*.ifczip",
  "*.off", "*.x3d", "*.3mf", "*.blend", "*.dxf", "*.lwo", "*.ase", "*.ac", "*.ms3d", "*.x", "*.smd",
  "*.q3o", "*.ogex", "*.amf", "*.raw", "*.nff", "*.md5mesh", NULL,
};

/* ---- helpers ------------------------------------------------------------ */

static gboolean room_box (RwWindow *self, double box[3]);
static void load_results (RwWindow *self, GFile *project_file);

static void
error_dialog_destroyed (gpointer data, GObject *where)
{
  RwWindow *self = data;
  (void) where;
  self->error_dialog = NULL;
}

/* Shows `dialog`, remembered (weakly) as the window's last dialog. */
static void
present_dialog (RwWindow *self, GtkWidget *dialog)
{
  if (self->error_dialog != NULL)
    g_object_weak_unref (G_OBJECT (self->error_dialog), error_dialog_destroyed, self);
  self->error_dialog = GTK_WINDOW (dialog);
  g_object_weak_ref (G_OBJECT (dialog), error_dialog_destroyed, self);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
show_error (RwWindow *self, const char *primary, const char *secondary)
{
  GtkWidget *dialog = gtk_message_dialog_new (GTK_WINDOW (self),
                                              GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                              GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE, "%s", primary);
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", secondary);
  g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
  present_dialog (self, dialog);
}

static void
set_enabled (RwWindow *self, const char *name, gboolean enabled)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), name);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), enabled);
}

static void
update_actions (RwWindow *self)
{
  gboolean running = self->job != NULL || self->import_cancellable != NULL;
  gboolean have_mesh = rw_project_get_mesh (self->project) != NULL;

  set_enabled (self, "open", !running);
  set_enabled (self, "open-recent", !running);
  set_enabled (self, "open-results", !running);
  set_enabled (self, "save", have_mesh && !running);
  set_enabled (self, "save-as", have_mesh && !running);
  set_enabled (self, "run", have_mesh && !running);
  set_enabled (self, "cancel", running);
  set_enabled (self, "export-report",
                                 !running && rw_results_view_get_output (self->results_view) != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->cancel_button), running);
  gtk_widget_set_visible (GTK_WIDGET (self->run_button), !running);
  /* The job borrows the mesh and reads nothing else afterwards, but the
   * panels would let the user believe edits apply to the running job. */
  gtk_widget_set_sensitive (GTK_WIDGET (self->side_stack), !running);
}

static void
update_title (RwWindow *self)
{
  GFile *file = rw_project_get_file (self->project);
  const char *mesh = rw_project_get_mesh_path (self->project);
  g_autofree char *base = NULL;
  g_autofree char *title = NULL;

  if (file != NULL)
    base = g_file_get_basename (file);
  else if (mesh != NULL)
    base = g_path_get_basename (mesh);
  if (base == NULL)
    title = g_strdup ("Roomwave");
  else
    title = g_strdup_printf ("%s%s — Roomwave", rw_project_get_dirty (self->project) ? "• " : "", base);
  gtk_window_set_title (GTK_WINDOW (self), title);
}

/* ---- estimate and backend ----------------------------------------------- */

static double
available_memory_bytes (void)
{
  long pages = sysconf (_SC_AVPHYS_PAGES), size = sysconf (_SC_PAGESIZE);
  return pages > 0 && size > 0 ? (double) pages * (double) size : INFINITY;
}

static void
update_backend_label (RwWindow *self)
{
  const RwBackendOps *cuda = rw_cuda_backend ();
  char why[256] = "";
  g_autofree char *text = NULL;

  if (cuda == NULL)
    text = g_strdup (_("CUDA: not available: Roomwave was built without CUDA. Automatic uses the CPU."));
  else if (!cuda->available (why, sizeof why))
    text = g_strdup_printf (_("CUDA: not available: %s. Automatic uses the CPU."), why);
  else
    text = g_strdup (_("CUDA: available. Automatic uses the GPU; the device is named when the run starts."));
  gtk_label_set_text (self->backend_label, text);
}

static void
update_estimate (RwWindow *self)
{
  RwRunEstimate e;
  double mvox = self->settings ? g_settings_get_double (self->settings, "last-mvox-per-s") : 0;
  const RwSimSettings *s = rw_project_get_settings (self->project);

  if (!(mvox > 0))
    mvox = DEFAULT_MVOX_PER_S;
  rw_project_estimate (self->project, mvox, &e);
  if (rw_project_get_mesh (self->project) == NULL)
    {
      gtk_label_set_text (self->estimate_label, _("Open a room to see the grid size."));
      gtk_widget_set_visible (GTK_WIDGET (self->estimate_warning), FALSE);
      return;
    }
  g_autofree char *mem = g_format_size ((guint64) e.memory_bytes);
  g_autofree char *text =
    g_strdup_printf (_("Grid spacing h = %.1f mm, rate %.0f Hz (c = %.1f m/s)\n"
                       "Grid %zu × %zu × %zu cells, about %.2f M inside\n"
                       "%zu time steps for %.2f s\n"
                       "Memory needed: %s\n"
                       "Estimated run time: %.0f s (at %.0f Mvox/s)"),
                     e.spacing_m * 1e3, e.fs_grid_hz, e.c, e.nx, e.ny, e.nz, e.n_inside_estimate / 1e6,
                     e.n_steps, s->duration_s, mem, e.seconds_estimate, mvox);
  gtk_label_set_text (self->estimate_label, text);

  double avail = available_memory_bytes ();
  if (e.memory_bytes > 0.8 * avail)
    {
      g_autofree char *have = g_format_size ((guint64) avail);
      g_autofree char *warn = g_strdup_printf (_("This will not fit: %s needed, %s free. Lower fmax or the points per wavelength."),
                                               mem, have);
      gtk_label_set_text (self->estimate_warning, warn);
      gtk_widget_set_visible (GTK_WIDGET (self->estimate_warning), TRUE);
    }
  else if (s->precision == RW_PRECISION_F16 && s->backend == RW_BACKEND_CPU)
    {
      gtk_label_set_text (self->estimate_warning, _("Half-precision storage needs the CUDA backend."));
      gtk_widget_set_visible (GTK_WIDGET (self->estimate_warning), TRUE);
    }
  else
    gtk_widget_set_visible (GTK_WIDGET (self->estimate_warning), FALSE);
}

/* ---- project → widgets -------------------------------------------------- */

static guint
current_receiver (RwWindow *self)
{
  guint i = gtk_drop_down_get_selected (self->receiver_choice);
  guint n = rw_project_get_n_receivers (self->project);
  return i == GTK_INVALID_LIST_POSITION || i >= n ? 0 : i;
}

static void
update_points (RwWindow *self)
{
  double p[3] = { 0, 0, 0 }, r[3] = { 0, 0, 0 };
  guint n = rw_project_get_mesh (self->project) ? rw_project_get_n_receivers (self->project) : 0;
  guint n_list = g_list_model_get_n_items (G_LIST_MODEL (self->receiver_list));
  guint sel = current_receiver (self);

  self->updating = TRUE;
  if (n_list != MAX (n, 1))
    {
      g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
      for (guint i = 0; i < MAX (n, 1); i++)
        g_ptr_array_add (names, g_strdup_printf (_("Receiver %u"), i + 1));
      g_ptr_array_add (names, NULL);
      gtk_string_list_splice (self->receiver_list, 0, n_list, (const char *const *) names->pdata);
      gtk_drop_down_set_selected (self->receiver_choice, MIN (sel, MAX (n, 1) - 1));
    }
  self->updating = FALSE;
  gtk_widget_set_sensitive (GTK_WIDGET (self->remove_receiver_button), n > 1);
  if (n > 0)
    {
      rw_project_get_source (self->project, p);
      rw_project_get_receiver (self->project, current_receiver (self), r);
    }
  self->updating = TRUE;
  gtk_spin_button_set_value (self->source_x, p[0]);
  gtk_spin_button_set_value (self->source_y, p[1]);
  gtk_spin_button_set_value (self->source_z, p[2]);
  gtk_spin_button_set_value (self->receiver_x, r[0]);
  gtk_spin_button_set_value (self->receiver_y, r[1]);
  gtk_spin_button_set_value (self->receiver_z, r[2]);
  self->updating = FALSE;
}

static void
update_legend (RwWindow *self)
{
  const RwMesh *mesh = rw_project_get_mesh (self->project);
  GtkWidget *child;
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->legend_box))) != NULL)
    gtk_box_remove (self->legend_box, child);
  if (mesh == NULL)
    return;
  for (size_t s = 0; s < mesh->n_surfaces; s++)
    {
      const char *m = rw_project_get_surface_material (self->project, s);
      if (g_hash_table_contains (seen, m))
        continue;
      g_hash_table_add (seen, (gpointer) m);

      GdkRGBA c;
      g_autoptr (GtkCssProvider) provider = gtk_css_provider_new ();
      g_autofree char *css = NULL;
      GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      GtkWidget *swatch = gtk_label_new ("  ");
      GtkWidget *label = gtk_label_new (g_str_equal (m, "custom") ? _("custom R") : m);

      rw_room_view_material_color (self->project, m, &c);
      css = g_strdup_printf ("label { background-color: rgb(%d,%d,%d); border-radius: 3px; min-width: 14px; }",
                             (int) (c.red * 255), (int) (c.green * 255), (int) (c.blue * 255));
      gtk_css_provider_load_from_data (provider, css, -1);
      gtk_style_context_add_provider (gtk_widget_get_style_context (swatch), GTK_STYLE_PROVIDER (provider),
                                      GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_box_append (GTK_BOX (row), swatch);
      gtk_box_append (GTK_BOX (row), label);
      gtk_box_append (self->legend_box, row);
    }
}

/* Each view follows the project's properties it shows; each handler does
 * its own part whatever else is on screen. */

/* Results of an earlier run no longer describe the edited project. */
static void
mark_results_stale (RwWindow *self)
{
  if (rw_results_view_get_output (self->results_view) != NULL)
    rw_results_view_set_stale (self->results_view, TRUE);
}

static void
on_mesh_changed (RwWindow *self)
{
  g_autofree char *report = rw_project_report_text (self->project);

  gtk_label_set_text (self->report_label, report);
  rw_results_view_take_output (self->results_view, NULL, NULL);
  rw_slice_view_take_slice (self->slice_view, NULL);
  update_points (self);
  update_legend (self);
  update_actions (self);
  update_estimate (self);
  update_title (self);
}

static void
on_materials_changed (RwWindow *self)
{
  update_legend (self);
  mark_results_stale (self);
}

static void
on_points_changed (RwWindow *self)
{
  update_points (self);
  mark_results_stale (self);
}

static void
on_setting_changed (RwWindow *self)
{
  update_estimate (self);
  mark_results_stale (self);
}

/* ---- widgets → project -------------------------------------------------- */

static void
on_point_changed (RwWindow *self)
{
  double p[3] = { gtk_spin_button_get_value (self->source_x), gtk_spin_button_get_value (self->source_y),
                  gtk_spin_button_get_value (self->source_z) };
  double r[3] = { gtk_spin_button_get_value (self->receiver_x), gtk_spin_button_get_value (self->receiver_y),
                  gtk_spin_button_get_value (self->receiver_z) };
  double old_p[3], old_r[3];
  g_autoptr (GError) error = NULL;

  guint ri = current_receiver (self);

  if (self->updating || rw_project_get_mesh (self->project) == NULL)
    return;
  rw_project_get_source (self->project, old_p);
  rw_project_get_receiver (self->project, ri, old_r);
  if ((memcmp (p, old_p, sizeof p) != 0 && !rw_project_set_source (self->project, p, &error))
      || (memcmp (r, old_r, sizeof r) != 0 && !rw_project_set_receiver (self->project, ri, r, &error)))
    {
      gtk_label_set_text (self->point_status, error->message);
      gtk_widget_add_css_class (GTK_WIDGET (self->point_status), "error");
      update_points (self);
      return;
    }
  gtk_label_set_text (self->point_status, _("Drag the markers in the view (red: source, blue: receiver; Ctrl+drag: up or down) or type coordinates."));
  gtk_widget_remove_css_class (GTK_WIDGET (self->point_status), "error");
}

static void
on_receiver_chosen (RwWindow *self)
{
  if (!self->updating)
    update_points (self);
}

static void
on_add_receiver (RwWindow *self)
{
  int i = rw_project_add_receiver (self->project);

  if (i < 0)
    {
      gtk_label_set_text (self->point_status,
                          _("No receiver added: there are already eight, or no free spot near the last one."));
      return;
    }
  gtk_drop_down_set_selected (self->receiver_choice, (guint) i);
  update_points (self);
}

static void
on_remove_receiver (RwWindow *self)
{
  guint i = current_receiver (self);

  if (rw_project_remove_receiver (self->project, i))
    {
      gtk_drop_down_set_selected (self->receiver_choice, i > 0 ? i - 1 : 0);
      update_points (self);
    }
}

static void
on_surface_clicked (RwRoomView *view, guint surface, gboolean extend, RwWindow *self)
{
  (void) view;
  gtk_stack_set_visible_child_name (self->side_stack, "materials");
  rw_materials_panel_select_surface (self->materials_panel, surface, extend);
}

static void
on_materials_selection (RwMaterialsPanel *panel, RwWindow *self)
{
  guint n = 0;
  g_autofree gboolean *sel = rw_materials_panel_get_selection (panel, &n);
  rw_room_view_set_selection (self->room_view, sel, n);
}

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
            load_results (self, od->file);
        }
      else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        gtk_label_set_text (self->status_label, _("Import cancelled. The window keeps what it had."));
      else
        {
          gtk_label_set_text (self->status_label, "");
          show_error (self, is_project ? _("The project could not be opened") : _("The room could not be imported"),
                      error->message);
        }
      update_title (self);
      update_actions (self);
      g_signal_emit (self, signals[OPEN_FINISHED], 0, ok);
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
  present_dialog (self, dialog);
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

  if (self->job != NULL || self->import_cancellable != NULL)
    return FALSE;
  if (path == NULL)
    {
      g_autofree char *msg = g_strdup_printf (_("%s: only local files can be opened"), name);
      show_error (self, _("The file could not be opened"), msg);
      return FALSE;
    }
  if (g_str_has_suffix (path, ".roomwave") && !outside_accepted)
    {
      g_auto (GStrv) outside = rw_project_file_outside_paths (file, &error);
      if (outside == NULL)
        {
          show_error (self, _("The project could not be opened"), error->message);
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
  gtk_label_set_text (self->status_label, status);
  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  self->pulse_id = g_timeout_add (100, pulse_progress, self);
  update_actions (self);
  /* The window is kept until the import reports, the application until
   * the worker has finished (as for a run). */
  g_application_hold (g_application_get_default ());
  rw_project_open_async (self->project, file, self->import_cancellable, on_open_done,
                         open_data_new (self, file));
  return TRUE;
}

/* Runs `then` when the project has no unsaved changes or the user chose to
 * discard them; saving first is offered. */
typedef void (*ThenFn) (RwWindow *self, gpointer data);

typedef struct {
  RwWindow *self;
  ThenFn then;
  gpointer data;
  GDestroyNotify data_free;
} Pending;

static gboolean save_to (RwWindow *self, GFile *file);
static void action_save_as (GSimpleAction *action, GVariant *param, gpointer user_data);

static void
on_discard_response (GtkDialog *dialog, int response, Pending *p)
{
  gtk_window_destroy (GTK_WINDOW (dialog));
  if (response == GTK_RESPONSE_ACCEPT && rw_project_get_file (p->self->project) != NULL)
    save_to (p->self, rw_project_get_file (p->self->project));
  if (response == GTK_RESPONSE_REJECT
      || (response == GTK_RESPONSE_ACCEPT && !rw_project_get_dirty (p->self->project)))
    p->then (p->self, p->data);
  else if (response == GTK_RESPONSE_ACCEPT)
    action_save_as (NULL, NULL, p->self);
  if (p->data_free)
    p->data_free (p->data);
  g_free (p);
}

static void
confirm_discard (RwWindow *self, ThenFn then, gpointer data, GDestroyNotify data_free)
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

static void
open_then (RwWindow *self, gpointer data)
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

static void
update_recent_menu (RwWindow *self)
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

static void
action_open_recent (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  RwWindow *self = RW_WINDOW (user_data);
  GFile *file = g_file_new_for_uri (g_variant_get_string (param, NULL));

  (void) action;
  confirm_discard (self, open_then, file, g_object_unref);
}

static void
on_open_response (GtkNativeDialog *native, int response, RwWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      GFile *file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));
      confirm_discard (self, open_then, file, g_object_unref);
    }
  g_object_unref (native);
}

static void
action_open (GSimpleAction *action, GVariant *param, gpointer user_data)
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

static gboolean
on_drop (GtkDropTarget *target, const GValue *value, double x, double y, RwWindow *self)
{
  (void) target;
  (void) x;
  (void) y;
  if (!G_VALUE_HOLDS (value, G_TYPE_FILE) || self->job != NULL || self->import_cancellable != NULL)
    return FALSE;
  confirm_discard (self, open_then, g_object_ref (g_value_get_object (value)), g_object_unref);
  return TRUE;
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

static gboolean
save_to (RwWindow *self, GFile *file)
{
  g_autoptr (GError) error = NULL;
  const RwSimOutput *out = rw_results_view_get_output (self->results_view);
  gboolean results_saved = FALSE;

  /* The results first, so that the project only names a folder that holds
   * them. A failure there still saves the project (without results). */
  rw_project_set_results_ref (self->project, NULL);
  if (out != NULL)
    {
      g_autofree char *name = results_dir_name (file);
      g_autoptr (GFile) parent = g_file_get_parent (file);
      g_autoptr (GFile) dir = parent ? g_file_get_child (parent, name) : NULL;
      g_autofree char *dir_path = dir ? g_file_get_path (dir) : NULL;
      if (dir_path != NULL && rw_sim_output_save (out, dir_path, &error))
        {
          rw_project_set_results_ref (self->project, name);
          results_saved = TRUE;
        }
      else if (error != NULL)
        show_error (self, _("The results could not be saved"), error->message);
      g_clear_error (&error);
    }

  if (!rw_project_save (self->project, file, &error))
    {
      show_error (self, _("The project could not be saved"), error->message);
      return FALSE;
    }
  g_autofree char *uri = g_file_get_uri (file);
  g_autofree char *name = g_file_get_parse_name (file);
  g_autofree char *status = results_saved ? g_strdup_printf (_("Saved %s with its results"), name)
                                          : g_strdup_printf (_("Saved %s"), name);
  gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
  gtk_label_set_text (self->status_label, status);
  update_title (self);
  return TRUE;
}

gboolean
rw_window_save_to (RwWindow *self, GFile *file)
{
  g_return_val_if_fail (RW_IS_WINDOW (self) && G_IS_FILE (file), FALSE);
  if (self->job != NULL || self->import_cancellable != NULL || rw_project_get_mesh (self->project) == NULL)
    return FALSE;
  return save_to (self, file);
}

/* After a project is opened: its saved results, when it names them. */
static void
load_results (RwWindow *self, GFile *project_file)
{
  const char *ref = rw_project_get_results_ref (self->project);
  g_autoptr (GFile) parent = g_file_get_parent (project_file);
  g_autoptr (GError) error = NULL;
  double box[3];

  if (ref == NULL || parent == NULL)
    return;
  g_autoptr (GFile) dir = g_file_resolve_relative_path (parent, ref);
  g_autofree char *dir_path = g_file_get_path (dir);
  RwSimOutput *out = dir_path ? rw_sim_output_load (dir_path, &error) : NULL;
  if (out == NULL)
    {
      g_autofree char *msg = g_strdup_printf (_("The saved results were not loaded: %s"),
                                              error ? error->message : ref);
      gtk_label_set_text (self->status_label, msg);
      return;
    }
  rw_results_view_take_output (self->results_view, out, room_box (self, box) ? box : NULL);
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
          save_to (self, f2);
        }
      else
        save_to (self, file);
    }
  g_object_unref (native);
}

static void
action_save_as (GSimpleAction *action, GVariant *param, gpointer user_data)
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

static void
action_save (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  GtkWidget *widget = user_data;

  RwWindow *self = RW_WINDOW (widget);
  GFile *file = rw_project_get_file (self->project);

  if (file == NULL)
    action_save_as (action, param, user_data);
  else
    save_to (self, file);
}

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
                 guint64 n_steps, RwWindow *self)
{
  (void) job;
  g_autofree char *text = g_strdup_printf (_("Step %llu of %llu · %.1f Mvox/s · %.0f s left"),
                                           (unsigned long long) step, (unsigned long long) n_steps,
                                           mvox, seconds_left);
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

static void
push_slice_choice (RwWindow *self)
{
  if (self->job != NULL)
    rw_sim_job_set_slice (self->job, (int) gtk_drop_down_get_selected (self->slice_axis_dropdown),
                          gtk_range_get_value (GTK_RANGE (self->slice_position_scale)));
}

/* The dimensions of a rectangular room, when the mesh is one: its volume
 * fills its bounding box (within 0.5 %). */
static gboolean
room_box (RwWindow *self, double box[3])
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

static void
on_job_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  RwWindow *self = user_data;
  RwSimJob *job = RW_SIM_JOB (source);
  g_autoptr (GError) error = NULL;
  RwSimOutput *out = rw_sim_job_finish (job, result, &error);
  gboolean ok = out != NULL;

  g_signal_handlers_disconnect_by_data (job, self);
  g_clear_object (&self->job);
  g_application_release (g_application_get_default ());
  if (self->disposed)
    {
      /* The window was closed during the run (which close cancelled). */
      rw_sim_output_free (out);
      g_object_unref (self);
      return;
    }
  if (ok)
    {
      double box[3];
      g_autofree char *text = g_strdup_printf (_("Done: %zu steps in %.1f s, %.1f Mvox/s on %s"),
                                               out->n_steps, out->t_solve_s, out->mvox_per_s, out->backend);
      if (self->settings != NULL && out->mvox_per_s > 0 && g_str_equal (out->backend, "cpu"))
        g_settings_set_double (self->settings, "last-mvox-per-s", out->mvox_per_s);
      gtk_progress_bar_set_fraction (self->progress_bar, 1);
      gtk_label_set_text (self->status_label, text);
      gtk_label_set_text (self->stage_label, text);
      rw_results_view_take_output (self->results_view, out, room_box (self, box) ? box : NULL);
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
      show_error (self, _("The simulation failed"), error->message);
    }
  update_actions (self);
  update_estimate (self);
  g_signal_emit (self, signals[RUN_FINISHED], 0, ok);
  g_object_unref (self);
}

static void
action_run (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  GtkWidget *widget = user_data;

  RwWindow *self = RW_WINDOW (widget);
  double src[3], rcv[RW_PROJECT_MAX_RECEIVERS][3];
  guint n_rcv;

  (void) action;
  (void) param;
  if (self->job != NULL || self->import_cancellable != NULL || rw_project_get_mesh (self->project) == NULL)
    return;
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
  push_slice_choice (self);
  n_rcv = rw_project_get_n_receivers (self->project);
  for (guint i = 0; i < n_rcv; i++)
    rw_project_get_receiver (self->project, i, rcv[i]);
  rw_slice_view_set_points (self->slice_view, src, (const double (*)[3]) rcv, n_rcv);
  rw_slice_view_take_slice (self->slice_view, NULL);

  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  gtk_stack_set_visible_child_name (self->main_stack, "run");
  update_actions (self);
  /* The window object is kept alive until the job reports back, and the
   * application until the worker has finished. */
  g_application_hold (g_application_get_default ());
  rw_sim_job_start (self->job, on_job_done, g_object_ref (self));
}

static void
action_cancel (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  GtkWidget *widget = user_data;

  RwWindow *self = RW_WINDOW (widget);

  (void) action;
  (void) param;
  if (self->import_cancellable != NULL)
    g_cancellable_cancel (self->import_cancellable);
  if (self->job == NULL && self->import_cancellable == NULL)
    return;
  if (self->job != NULL)
    rw_sim_job_cancel (self->job);
  gtk_label_set_text (self->status_label, _("Cancelling…"));
}

static void
action_fit_view (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  GtkWidget *widget = user_data;

  (void) action;
  (void) param;
  rw_room_view_fit (RW_WINDOW (widget)->room_view);
}

/* ---- export report ------------------------------------------------------ */

static void
on_export_response (GtkNativeDialog *native, int response, RwWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));
      g_autofree char *path = g_file_get_path (file);
      g_autoptr (GError) error = NULL;
      RwCompareView *cv = RW_COMPARE_VIEW (rw_results_view_get_compare_view (self->results_view));

      if (rw_compare_view_get_comparison (cv) != NULL)
        {
          if (path == NULL || !rw_compare_view_export_pdf (cv, path, &error))
            show_error (self, _("The report could not be exported"), error ? error->message : _("not a local file"));
        }
      else
        {
          g_autofree char *csv = rw_results_view_table_csv (self->results_view);
          if (csv == NULL)
            show_error (self, _("The report could not be exported"), _("There are no analysed results yet."));
          else if (!g_file_replace_contents (file, csv, strlen (csv), NULL, FALSE, G_FILE_CREATE_NONE,
                                             NULL, NULL, &error))
            show_error (self, _("The report could not be exported"), error->message);
        }
    }
  g_object_unref (native);
}

/* With a measurement loaded (Compare page): the PDF comparison report;
 * before that, the simulation's parameter table as CSV. */
static void
action_export_report (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  RwWindow *self = RW_WINDOW (user_data);
  RwCompareView *cv = RW_COMPARE_VIEW (rw_results_view_get_compare_view (self->results_view));
  gboolean pdf = rw_compare_view_get_comparison (cv) != NULL;
  GtkFileChooserNative *native =
    gtk_file_chooser_native_new (pdf ? _("Export Comparison Report") : _("Export Parameters"),
                                 GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));

  (void) action;
  (void) param;
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (native), pdf ? "comparison-report.pdf" : "parameters.csv");
  g_signal_connect (native, "response", G_CALLBACK (on_export_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

/* ---- File → Open Results (win.open-results) ------------------------------
 * Any results folder: one roomwave-cli simulate wrote (--out DIR, or one
 * of its DIR/source-N/) or one the GUI saved beside a project. The engine
 * reads and checks it (rw_results_read); the views show it as they show a
 * finished run. The project (mesh, settings) is left as it is. */

gboolean
rw_window_open_results (RwWindow *self, GFile *folder)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = NULL;
  double box[3];

  g_return_val_if_fail (RW_IS_WINDOW (self) && G_IS_FILE (folder), FALSE);
  if (self->job != NULL || self->import_cancellable != NULL)
    return FALSE;
  path = g_file_get_path (folder);
  RwSimOutput *out = path ? rw_sim_output_load (path, &error) : NULL;
  if (out == NULL)
    {
      show_error (self, _("The results could not be opened"),
                  error ? error->message : _("The folder is not on this computer's file system."));
      return FALSE;
    }
  g_autofree char *name = g_file_get_parse_name (folder);
  g_autofree char *text = g_strdup_printf (_("Opened the results in %s (receivers: %u, valid up to %g Hz)"), name, out->n_receivers, out->fmax_hz);
  rw_results_view_take_output (self->results_view, out,
                               rw_project_get_mesh (self->project) && room_box (self, box) ? box : NULL);
  gtk_stack_set_visible_child_name (self->main_stack, "results");
  gtk_label_set_text (self->status_label, text);
  update_actions (self);
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
static void
action_open_results (GSimpleAction *action, GVariant *param, gpointer user_data)
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

static const GActionEntry win_actions[] = {
  { .name = "open", .activate = action_open },
  { .name = "open-results", .activate = action_open_results },
  { .name = "open-recent", .activate = action_open_recent, .parameter_type = "s" },
  { .name = "save", .activate = action_save },
  { .name = "save-as", .activate = action_save_as },
  { .name = "run", .activate = action_run },
  { .name = "cancel", .activate = action_cancel },
  { .name = "export-report", .activate = action_export_report },
  { .name = "fit-view", .activate = action_fit_view },
};

/* ---- window life -------------------------------------------------------- */

static void
close_then (RwWindow *self, gpointer data)
{
  (void) data;
  self->close_confirmed = TRUE;
  gtk_window_close (GTK_WINDOW (self));
}

static gboolean
rw_window_close_request (GtkWindow *window)
{
  RwWindow *self = RW_WINDOW (window);

  if (self->job != NULL)
    rw_sim_job_cancel (self->job);
  if (self->import_cancellable != NULL)
    g_cancellable_cancel (self->import_cancellable);
  if (!self->close_confirmed && rw_project_get_dirty (self->project)
      && rw_project_get_mesh (self->project) != NULL)
    {
      confirm_discard (self, close_then, NULL, NULL);
      return TRUE;
    }
  if (self->settings != NULL)
    {
      int w, h;
      gtk_window_get_default_size (window, &w, &h);
      g_settings_set (self->settings, "window-size", "(ii)", w, h);
      g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));
    }
  return GTK_WINDOW_CLASS (rw_window_parent_class)->close_request (window);
}

static void
rw_window_dispose (GObject *object)
{
  RwWindow *self = RW_WINDOW (object);

  if (self->error_dialog != NULL)
    {
      g_object_weak_unref (G_OBJECT (self->error_dialog), error_dialog_destroyed, self);
      self->error_dialog = NULL;
    }
  if (self->job != NULL)
    {
      rw_sim_job_cancel (self->job);
      g_signal_handlers_disconnect_by_data (self->job, self);
    }
  if (self->import_cancellable != NULL)
    g_cancellable_cancel (self->import_cancellable);
  g_clear_handle_id (&self->pulse_id, g_source_remove);
  self->disposed = TRUE;
  if (self->project_signals != NULL)
    g_signal_group_set_target (self->project_signals, NULL);
  if (self->project_bindings != NULL)
    g_binding_group_set_source (self->project_bindings, NULL);
  g_clear_object (&self->project_signals);
  g_clear_object (&self->project_bindings);
  gtk_widget_dispose_template (GTK_WIDGET (self), RW_TYPE_WINDOW);
  g_clear_object (&self->project);
  g_clear_object (&self->settings);
  G_OBJECT_CLASS (rw_window_parent_class)->dispose (object);
}

static void
rw_window_class_init (RwWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = rw_window_dispose;
  GTK_WINDOW_CLASS (klass)->close_request = rw_window_close_request;

  g_type_ensure (RW_TYPE_ROOM_VIEW);
  g_type_ensure (RW_TYPE_MATERIALS_PANEL);
  g_type_ensure (RW_TYPE_SLICE_VIEW);
  g_type_ensure (RW_TYPE_RESULTS_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/roomwave/Roomwave/rw-window.ui");
#define BIND(name) gtk_widget_class_bind_template_child (widget_class, RwWindow, name)
  BIND (report_label);
  BIND (source_x);
  BIND (source_y);
  BIND (source_z);
  BIND (receiver_x);
  BIND (receiver_y);
  BIND (receiver_z);
  BIND (point_status);
  BIND (receiver_choice);
  BIND (receiver_list);
  BIND (remove_receiver_button);
  BIND (materials_panel);
  BIND (side_stack);
  BIND (fmax_spin);
  BIND (duration_spin);
  BIND (temperature_spin);
  BIND (ppw_spin);
  BIND (boundary_dropdown);
  BIND (backend_dropdown);
  BIND (precision_dropdown);
  BIND (backend_label);
  BIND (estimate_label);
  BIND (estimate_warning);
  BIND (main_stack);
  BIND (room_view);
  BIND (legend_box);
  BIND (slice_axis_dropdown);
  BIND (slice_position_scale);
  BIND (slice_view);
  BIND (stage_label);
  BIND (results_view);
  BIND (progress_bar);
  BIND (status_label);
  BIND (run_button);
  BIND (cancel_button);
  BIND (recent_menu);
#undef BIND
  gtk_widget_class_bind_template_callback (widget_class, on_add_receiver);
  gtk_widget_class_bind_template_callback (widget_class, on_remove_receiver);


  /* success */
  signals[RUN_FINISHED] =
    g_signal_new ("run-finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_BOOLEAN);
  /* an open (import) ended: success */
  signals[OPEN_FINISHED] =
    g_signal_new ("open-finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_BOOLEAN);
}

static void
rw_window_init (RwWindow *self)
{
  GtkDropTarget *drop;

  gtk_widget_init_template (GTK_WIDGET (self));
  /* In the window's GActionMap (not widget-class actions), so that
   * g_action_group_activate_action (G_ACTION_GROUP (window), "run", NULL)
   * drives the window as the tests do. */
  g_action_map_add_action_entries (G_ACTION_MAP (self), win_actions, G_N_ELEMENTS (win_actions), self);
  self->project = rw_project_new ();

  /* The window follows its project as GNOME Text Editor's window follows
   * its document: handlers in a signal group, settings widgets bound both
   * ways in a binding group, all on the project as their one target. */
  self->project_signals = g_signal_group_new (RW_TYPE_PROJECT);
  g_signal_group_connect_swapped (self->project_signals, "notify::mesh", G_CALLBACK (on_mesh_changed), self);
  g_signal_group_connect_swapped (self->project_signals, "notify::surface-materials",
                                  G_CALLBACK (on_materials_changed), self);
  g_signal_group_connect_swapped (self->project_signals, "notify::source", G_CALLBACK (on_points_changed), self);
  g_signal_group_connect_swapped (self->project_signals, "notify::receivers", G_CALLBACK (on_points_changed), self);
  g_signal_group_connect_swapped (self->project_signals, "notify::dirty", G_CALLBACK (update_title), self);
  g_signal_group_connect_swapped (self->project_signals, "notify::file", G_CALLBACK (update_title), self);
  self->project_bindings = g_binding_group_new ();
  static const struct { const char *property; gsize widget; const char *widget_property; } settings_bindings[] = {
    { "fmax-hz", G_STRUCT_OFFSET (RwWindow, fmax_spin), "value" },
    { "duration-s", G_STRUCT_OFFSET (RwWindow, duration_spin), "value" },
    { "temperature-c", G_STRUCT_OFFSET (RwWindow, temperature_spin), "value" },
    { "ppw", G_STRUCT_OFFSET (RwWindow, ppw_spin), "value" },
    { "boundary", G_STRUCT_OFFSET (RwWindow, boundary_dropdown), "selected" },
    { "backend", G_STRUCT_OFFSET (RwWindow, backend_dropdown), "selected" },
    { "precision", G_STRUCT_OFFSET (RwWindow, precision_dropdown), "selected" },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (settings_bindings); i++)
    {
      g_autofree char *signal = g_strconcat ("notify::", settings_bindings[i].property, NULL);
      GObject *widget = G_STRUCT_MEMBER (GObject *, self, settings_bindings[i].widget);
      g_binding_group_bind (self->project_bindings, settings_bindings[i].property, widget,
                            settings_bindings[i].widget_property, G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL);
      g_signal_group_connect_swapped (self->project_signals, signal, G_CALLBACK (on_setting_changed), self);
    }
  g_signal_group_set_target (self->project_signals, self->project);
  g_binding_group_set_source (self->project_bindings, self->project);
  rw_room_view_set_project (self->room_view, self->project);
  rw_materials_panel_set_project (self->materials_panel, self->project);
  g_signal_connect (self->room_view, "surface-clicked", G_CALLBACK (on_surface_clicked), self);
  g_signal_connect (self->materials_panel, "selection-changed", G_CALLBACK (on_materials_selection), self);

  GtkSpinButton *points[] = { self->source_x, self->source_y, self->source_z,
                              self->receiver_x, self->receiver_y, self->receiver_z };
  for (gsize i = 0; i < G_N_ELEMENTS (points); i++)
    g_signal_connect_swapped (points[i], "value-changed", G_CALLBACK (on_point_changed), self);
  g_signal_connect_swapped (self->receiver_choice, "notify::selected", G_CALLBACK (on_receiver_chosen), self);
  g_signal_connect_swapped (self->slice_axis_dropdown, "notify::selected", G_CALLBACK (push_slice_choice), self);
  g_signal_connect_swapped (self->slice_position_scale, "value-changed", G_CALLBACK (push_slice_choice), self);

  drop = gtk_drop_target_new (G_TYPE_FILE, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));

  g_signal_connect_object (gtk_recent_manager_get_default (), "changed",
                           G_CALLBACK (update_recent_menu), self, G_CONNECT_SWAPPED);
  update_recent_menu (self);
  update_backend_label (self);
  update_estimate (self);
  update_actions (self);
}

RwWindow *
rw_window_new (RwApplication *app)
{
  RwWindow *self = g_object_new (RW_TYPE_WINDOW, "application", app, NULL);
  GSettings *settings = rw_application_get_settings (app);

  if (settings != NULL)
    {
      int w, h;
      RwSimSettings s = *rw_project_get_settings (self->project);
      g_autofree char *backend = g_settings_get_string (settings, "backend");
      g_autofree char *precision = g_settings_get_string (settings, "precision");

      self->settings = g_object_ref (settings);
      g_settings_get (settings, "window-size", "(ii)", &w, &h);
      gtk_window_set_default_size (GTK_WINDOW (self), w, h);
      if (g_settings_get_boolean (settings, "window-maximized"))
        gtk_window_maximize (GTK_WINDOW (self));
      /* New projects start from the preferences. */
      s.fmax_hz = g_settings_get_double (settings, "default-fmax");
      /* unknown names (a hand-edited setting) keep the defaults */
      (void) rw_backend_kind_parse (backend, &s.backend);
      (void) rw_precision_parse (precision, &s.precision);
      rw_project_set_settings (self->project, &s);
      rw_project_set_dirty (self->project, FALSE);
    }
  return self;
}

RwProject *
rw_window_get_project (RwWindow *self)
{
  return self->project;
}

gboolean
rw_window_is_running (RwWindow *self)
{
  return self->job != NULL;
}

gboolean
rw_window_is_importing (RwWindow *self)
{
  return self->import_cancellable != NULL;
}

GtkWindow *
rw_window_get_error_dialog (RwWindow *self)
{
  return self->error_dialog;
}

const char *
rw_window_get_report_text (RwWindow *self)
{
  return gtk_label_get_text (self->report_label);
}

void
rw_window_show_page (RwWindow *self, const char *page)
{
  gtk_stack_set_visible_child_name (self->main_stack, page);
}

void
rw_window_show_side_page (RwWindow *self, const char *page)
{
  gtk_stack_set_visible_child_name (self->side_stack, page);
}

GtkWidget *
rw_window_get_results_view (RwWindow *self)
{
  return GTK_WIDGET (self->results_view);
}

guint
rw_window_get_n_slices_shown (RwWindow *self)
{
  return rw_slice_view_get_n_frames (self->slice_view);
}

GMenuModel *
rw_window_get_recent_menu (RwWindow *self)
{
  return G_MENU_MODEL (self->recent_menu);
}
