/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-window.c — see rw-window.h. The window's life, its widgets following
 * the project, and the helpers the other parts share. Split by concern as
 * GNOME Text Editor splits its window, all sharing rw-window-private.h:
 *   rw-window-actions.c  the win.* action table, fit-view, export report
 *   rw-window-files.c    opening (off the main thread), saving, recent
 *                        files, File → Open Results
 *   rw-window-dnd.c      drag and drop
 *   rw-window-run.c      run control: the job, its progress and results */
#include "rw-window-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <unistd.h>

#include "rw-physics.h"

G_DEFINE_TYPE (RwWindow, rw_window, GTK_TYPE_APPLICATION_WINDOW)

guint _rw_window_signals[RW_WINDOW_N_SIGNALS];

/* Throughput assumed for the run-time estimate until a run on this machine
 * has measured one (kept in GSettings per scheme, _rw_window_speed_key). */
#define DEFAULT_MVOX_PER_S 100.0

/* ---- helpers ------------------------------------------------------------ */


static void
error_dialog_destroyed (gpointer data, GObject *where)
{
  RwWindow *self = data;
  (void) where;
  self->error_dialog = NULL;
}

/* Shows `dialog`, remembered (weakly) as the window's last dialog. */
void
_rw_window_present_dialog (RwWindow *self, GtkWidget *dialog)
{
  if (self->error_dialog != NULL)
    g_object_weak_unref (G_OBJECT (self->error_dialog), error_dialog_destroyed, self);
  self->error_dialog = GTK_WINDOW (dialog);
  g_object_weak_ref (G_OBJECT (dialog), error_dialog_destroyed, self);
  gtk_window_present (GTK_WINDOW (dialog));
}

void
_rw_window_show_error (RwWindow *self, const char *primary, const char *secondary)
{
  GtkWidget *dialog = gtk_message_dialog_new (GTK_WINDOW (self),
                                              GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                              GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE, "%s", primary);
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", secondary);
  g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
  _rw_window_present_dialog (self, dialog);
}

static void
set_enabled (RwWindow *self, const char *name, gboolean enabled)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), name);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), enabled);
}

gboolean
_rw_window_busy (RwWindow *self)
{
  return self->job != NULL || self->mpi_job != NULL || self->import_cancellable != NULL || self->saving;
}

void
_rw_window_update_actions (RwWindow *self)
{
  gboolean busy = _rw_window_busy (self);
  /* a save (rw-window-files.c) cannot be cancelled: a results folder is
     written whole */
  gboolean running = busy && !self->saving;
  gboolean have_mesh = rw_project_get_mesh (self->project) != NULL;

  set_enabled (self, "open", !busy);
  set_enabled (self, "open-recent", !busy);
  set_enabled (self, "open-results", !busy);
  set_enabled (self, "save", have_mesh && !busy);
  set_enabled (self, "save-as", have_mesh && !busy);
  set_enabled (self, "run", have_mesh && !busy);
  set_enabled (self, "cancel", running);
  set_enabled (self, "export-report",
                                 !busy && rw_results_view_get_output (self->results_view) != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->cancel_button), running);
  gtk_widget_set_visible (GTK_WIDGET (self->run_button), !running);
  /* The job borrows the mesh and reads nothing else afterwards, but the
   * panels would let the user believe edits apply to the running job
   * (or to the project being saved). */
  gtk_widget_set_sensitive (GTK_WIDGET (self->side_stack), !busy);
}

void
_rw_window_update_title (RwWindow *self)
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

/* `note` (or NULL) follows the CUDA line: the device choice's problem. */
static void
update_backend_label (RwWindow *self, const char *note)
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
  if (note != NULL)
    {
      g_autofree char *both = g_strconcat (text, "\n", note, NULL);
      gtk_label_set_text (self->backend_label, both);
    }
  else
    gtk_label_set_text (self->backend_label, text);
}

/* The device drop-down from the engine's registry: the devices of the
 * backend the run will use (`refill`: after the backend changed), the
 * project's device selected. A device this machine lacks (a project from
 * another machine) selects none and says so under the backend; the run
 * would be refused with the engine's message. */
static void
update_devices (RwWindow *self, gboolean refill)
{
  if (self->probe_cancellable != NULL)
    {
      /* the backends are not asked before the probe has started them:
       * their first call (the CUDA driver's start) would block here */
      self->filling_devices = TRUE;
      g_autoptr (GtkStringList) none = gtk_string_list_new (NULL);
      gtk_drop_down_set_model (self->device_dropdown, G_LIST_MODEL (none));
      self->filling_devices = FALSE;
      gtk_widget_set_sensitive (GTK_WIDGET (self->device_dropdown), FALSE);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->device_dropdown), _("Looking for devices…"));
      gtk_label_set_text (self->backend_label, _("Looking for devices…"));
      return;
    }
  const RwSimSettings *s = rw_project_get_settings (self->project);
  RwError choose_err = { 0 };
  const RwBackendOps *ops = rw_backend_choose (s->backend, s->precision, &choose_err);
  const char *why = choose_err.message;
  const int n = ops != NULL ? ops->device_count () : 0;
  g_autofree char *tip = NULL, *note = NULL;

  self->filling_devices = TRUE;
  if (refill)
    {
      g_autoptr (GtkStringList) list = gtk_string_list_new (NULL);
      for (int i = 0; i < n; i++)
        {
          g_autofree char *item = rw_device_label (ops, i);
          gtk_string_list_append (list, item);
        }
      gtk_drop_down_set_model (self->device_dropdown, G_LIST_MODEL (list));
    }
  gtk_drop_down_set_selected (self->device_dropdown, s->device < n ? (guint) s->device : GTK_INVALID_LIST_POSITION);
  self->filling_devices = FALSE;

  if (ops == NULL)
    tip = g_strdup_printf (_("No device: %s."), why);
  else if (s->device >= n)
    {
      note = g_strdup_printf (_("Device %d does not exist here: the %s backend has %d device(s). "
                                "Choose one, or the run is refused."),
                              s->device, ops->name, n);
      tip = g_strdup (note);
    }
  else if (n == 1)
    tip = g_strdup_printf (_("The %s backend has one device here."), ops->name);
  else
    tip = g_strdup (_("The device the run uses."));
  gtk_widget_set_sensitive (GTK_WIDGET (self->device_dropdown), n > 1 || (n == 1 && s->device != 0));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->device_dropdown), tip);
  update_backend_label (self, note);
}

static void
on_backend_changed (RwWindow *self)
{
  update_devices (self, TRUE);
}

static void
on_device_changed (RwWindow *self)
{
  update_devices (self, FALSE);
}

static void
on_device_chosen (RwWindow *self)
{
  guint i = gtk_drop_down_get_selected (self->device_dropdown);
  RwSimSettings s = *rw_project_get_settings (self->project);

  if (self->filling_devices || i == GTK_INVALID_LIST_POSITION || (int) i == s.device)
    return;
  s.device = (int) i;
  rw_project_set_settings (self->project, &s);
}

/* ---- several GPUs ------------------------------------------------------- */

/* A check button's "active" ↔ bit `bit` of the project's "run-devices". */
typedef struct {
  RwProject *project;           /* the window's, which outlives its widgets */
  guint bit;
} DeviceBit;

static gboolean
device_bit_to_active (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  const DeviceBit *d = data;
  (void) binding;
  g_value_set_boolean (to, (g_value_get_uint64 (from) >> d->bit) & 1);
  return TRUE;
}

static gboolean
active_to_device_bit (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  const DeviceBit *d = data;
  guint64 mask = rw_project_get_run_devices (d->project);
  guint64 bit = G_GUINT64_CONSTANT (1) << d->bit;
  (void) binding;
  g_value_set_uint64 (to, g_value_get_boolean (from) ? mask | bit : mask & ~bit);
  return TRUE;
}

int
_rw_window_n_gpus_checked (RwWindow *self)
{
  const guint64 mask = rw_project_get_run_devices (self->project);
  int n = 0;
  if (self->mpi_devices == NULL || self->mpi_devices->why_unavailable != NULL)
    return 0;
  for (int i = 0; i < self->mpi_devices->n_devices; i++)
    n += (mask >> i) & 1;
  return n;
}

/* The line under the device list: why a run on several GPUs cannot run
 * here, or what Run will do with the devices checked. */
static void
update_gpus_note (RwWindow *self)
{
  const int n = _rw_window_n_gpus_checked (self);
  g_autofree char *text = NULL;

  if (self->mpi_devices == NULL)
    text = g_strdup (_("Looking for devices…"));
  else if (self->mpi_devices->why_unavailable != NULL)
    text = g_strdup (self->mpi_devices->why_unavailable);
  else if (n >= 2)
    text = g_strdup_printf (_("Run uses the %d devices checked: mpirun starts one rank on each, each "
                              "stepping a slab of the grid."), n);
  else
    text = g_strdup (_("Check two or more devices to run on several GPUs; otherwise the run uses the "
                       "device above."));
  gtk_label_set_text (self->gpus_label, text);
}

/* The device list, once: the CUDA devices (or the test override's), each
 * a check button bound to its bit of the project's "run-devices";
 * insensitive when a run on several GPUs is unavailable, the line under
 * it saying why. */
static void
fill_gpus (RwWindow *self)
{
  RwMpiDevices *d = self->mpi_devices;

  for (int i = 0; i < d->n_devices; i++)
    {
      GtkWidget *check = gtk_check_button_new_with_label (d->labels[i]);
      DeviceBit *bit = g_new (DeviceBit, 1);
      bit->project = self->project;
      bit->bit = (guint) i;
      g_object_bind_property_full (self->project, "run-devices", check, "active",
                                   G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL, device_bit_to_active,
                                   active_to_device_bit, bit, g_free);
      gtk_widget_set_sensitive (check, d->why_unavailable == NULL);
      gtk_box_append (self->gpus_box, check);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->gpus_box), d->n_devices > 0);
  update_gpus_note (self);
}

/* The devices, looked for on a thread of their own when the window opens:
 * the first call into a backend starts its driver (CUDA: 0.1–0.3 s, more
 * on some machines), which the main loop must not wait for. Until then the
 * device drop-down and the device list say so; a backend or device chosen
 * meanwhile is shown when the probe ends. Afterwards the backends answer
 * at once (their driver runs). */
static void
probe_devices_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  (void) source, (void) data, (void) cancellable;
  RwMpiDevices *d = rw_mpi_devices_probe ();
  /* CUDA asked here too (the probe above skips it under
   * ROOMWAVE_TEST_MPI_CPU): its driver's start is then behind
   * update_devices */
  char why[256];
  const RwBackendOps *cuda = rw_cuda_backend ();
  if (cuda != NULL)
    (void) cuda->available (why, sizeof why);
  g_task_return_pointer (task, d, (GDestroyNotify) rw_mpi_devices_free);
}

static void
probe_devices_done (GObject *source, GAsyncResult *result, gpointer data)
{
  RwWindow *self = RW_WINDOW (source);
  (void) data;
  RwMpiDevices *d = g_task_propagate_pointer (G_TASK (result), NULL);
  g_clear_object (&self->probe_cancellable);
  if (self->disposed || d == NULL)
    {
      if (d != NULL)
        rw_mpi_devices_free (d);
      return;
    }
  self->mpi_devices = d;
  update_devices (self, TRUE);
  fill_gpus (self);
}

static void
probe_devices (RwWindow *self)
{
  self->probe_cancellable = g_cancellable_new ();
  update_devices (self, TRUE);
  update_gpus_note (self);
  g_autoptr (GTask) task = g_task_new (self, self->probe_cancellable, probe_devices_done, NULL);
  g_task_set_return_on_cancel (task, FALSE);
  g_task_run_in_thread (task, probe_devices_thread);
}

gboolean
rw_window_is_probing_devices (RwWindow *self)
{
  return self->probe_cancellable != NULL;
}

const char *
_rw_window_speed_key (RwScheme scheme)
{
  return scheme == RW_SCHEME_FCC ? "last-mvox-per-s-fcc" : "last-mvox-per-s";
}

void
_rw_window_update_estimate (RwWindow *self)
{
  RwRunEstimate e;
  const char *key = _rw_window_speed_key (rw_project_get_scheme (self->project));
  double mvox = self->settings ? g_settings_get_double (self->settings, key) : 0;
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
  g_autofree char *mem_text = NULL;
  if (e.branch_bytes > 0)
    {
      g_autofree char *br = g_format_size ((guint64) e.branch_bytes);
      mem_text = g_strdup_printf (_("%s (of which %s for the branch states of the frequency-dependent "
                                    "surfaces: up to %d admittance branches on about %.0f boundary nodes)"),
                                  mem, br, e.max_branches, e.n_boundary_estimate);
    }
  g_autofree char *text =
    g_strdup_printf (_("%s, %.2f points per wavelength\n"
                       "Grid spacing h = %.1f mm, rate %.0f Hz (c = %.1f m/s)\n"
                       "Grid %zu × %zu × %zu cells, about %.2f M nodes inside\n"
                       "%zu time steps for %.2f s\n"
                       "Memory needed: %s\n"
                       "Estimated run time: %.0f s (at %.0f Mvox/s)"),
                     rw_project_scheme_label (e.scheme),
                     e.ppw, e.spacing_m * 1e3, e.fs_grid_hz, e.c, e.nx, e.ny, e.nz, e.n_inside_estimate / 1e6,
                     e.n_steps, s->duration_s, mem_text ? mem_text : mem, e.seconds_estimate, mvox);
  gtk_label_set_text (self->estimate_label, text);

  double avail = available_memory_bytes ();
  g_autoptr (GError) scheme_error = NULL;
  if (!rw_project_check_scheme (self->project, &scheme_error))
    {
      gtk_label_set_text (self->estimate_warning, scheme_error->message);
      gtk_widget_set_visible (GTK_WIDGET (self->estimate_warning), TRUE);
    }
  else if (e.memory_bytes > 0.8 * avail)
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

/* The crossover field's range, at most min (fmax, Nyquist) / 1.293 (the
 * engine's rule, rw_hybrid_check_crossover), and the line under it: the
 * crossover in use (0: automatic, fmax / 2) and the limit. The range and
 * the value are set together (gtk_adjustment_configure) from the project's
 * settings, which hold both already when either is notified, so that a new
 * fmax never clamps the field's old crossover into the project; a crossover
 * above the new limit is clamped to it. */
static void
update_crossover (RwWindow *self)
{
  const RwSimSettings *s = rw_project_get_settings (self->project);
  const double highest = rw_sim_settings_max_crossover_hz (s);
  GtkAdjustment *adj = gtk_spin_button_get_adjustment (self->crossover_spin);
  g_autofree char *text = NULL;

  if (highest > 0)
    gtk_adjustment_configure (adj, CLAMP (s->crossover_hz, 0, highest), 0, highest,
                              gtk_adjustment_get_step_increment (adj), gtk_adjustment_get_page_increment (adj), 0);
  if (s->crossover_hz > 0)
    text = g_strdup_printf (_("Wave part below %.0f Hz, geometrical part above; at most %.1f Hz (fmax / 1.293)"),
                            rw_sim_settings_crossover_hz (s), highest);
  else
    text = g_strdup_printf (_("Automatic (0): fmax / 2 = %.0f Hz; at most %.1f Hz (fmax / 1.293)"),
                            rw_sim_settings_crossover_hz (s), highest);
  gtk_label_set_text (self->crossover_label, text);
}

/* The ppw field shows the project's ppw (0: "Auto", on_ppw_output), and
 * the line under it the points per wavelength the run uses with its
 * scheme (rw_project_get_ppw) and that scheme's worst-direction
 * phase-velocity error at fmax (rw_scheme_phase_error). */
static void
update_ppw (RwWindow *self)
{
  const RwSimSettings *s = rw_project_get_settings (self->project);
  const RwScheme scheme = rw_project_get_scheme (self->project);
  const double ppw = rw_project_get_ppw (self->project);
  const double err = rw_scheme_phase_error (rw_scheme_lattice (scheme), ppw);
  g_autofree char *text = NULL;

  self->updating_ppw = TRUE;
  if (gtk_spin_button_get_value (self->ppw_spin) != s->ppw)
    gtk_spin_button_set_value (self->ppw_spin, s->ppw);
  self->updating_ppw = FALSE;
  if (s->ppw == 0)
    text = g_strdup_printf (_("Auto: %.2f, the default of the %s; phase velocity %.1f %% off at the highest "
                              "frequency"),
                            ppw, rw_project_scheme_label (scheme), 100 * fabs (err));
  else
    text = g_strdup_printf (_("%.2f with the %s; phase velocity %.1f %% off at the highest frequency"),
                            ppw, rw_project_scheme_label (scheme), 100 * fabs (err));
  gtk_label_set_text (self->ppw_label, text);
}

/* The ppw field edited: 0 is "Auto"; any other ppw a run takes is at
 * least 4 (rw_sim_check_settings), so a step up from Auto goes to 4 and a
 * step down from 4 (or a typed 2) to Auto. */
static void
on_ppw_edited (RwWindow *self)
{
  RwSimSettings s = *rw_project_get_settings (self->project);
  double v = gtk_spin_button_get_value (self->ppw_spin);

  if (self->updating_ppw)
    return;
  if (v > 0 && v < 4)
    v = s.ppw == 0 ? 4 : 0;
  if (v != s.ppw)
    {
      s.ppw = v;
      rw_project_set_settings (self->project, &s);
    }
  update_ppw (self);
}

static gboolean
on_ppw_output (GtkSpinButton *spin, gpointer data)
{
  (void) data;
  if (gtk_spin_button_get_value (spin) != 0)
    return FALSE;
  gtk_editable_set_text (GTK_EDITABLE (spin), _("Auto"));
  return TRUE;
}

static int
on_ppw_input (GtkSpinButton *spin, double *value, gpointer data)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (spin));

  (void) data;
  if (g_ascii_strcasecmp (text, "auto") != 0 && g_utf8_collate (text, _("Auto")) != 0)
    return FALSE;
  *value = 0;
  return TRUE;
}

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
  /* The type and orientation fields follow the selected receiver's slot. */
  g_binding_group_set_source (self->receiver_bindings,
                              rw_project_get_receiver_slot (self->project, current_receiver (self)));
}

/* The HRTF line: the file's name (its path in the tooltip), or the
 * bundled set. */
static void
update_hrtf (RwWindow *self)
{
  const char *path = rw_project_get_hrtf_path (self->project);
  g_autofree char *base = path ? g_path_get_basename (path) : NULL;

  if (self->hrtf_cancellable != NULL)
    {
      gtk_label_set_text (self->hrtf_label, _("Reading the chosen set…"));
      gtk_widget_set_sensitive (GTK_WIDGET (self->hrtf_default_button), TRUE);
      return;
    }
  gtk_label_set_text (self->hrtf_label, base ? base : _("Bundled MIT KEMAR"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->hrtf_label),
                               path ? path : _("MIT KEMAR, normal pinna (Gardner & Martin 1994), bundled"));
  gtk_widget_set_sensitive (GTK_WIDGET (self->hrtf_default_button), path != NULL);
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
      GtkWidget *label = gtk_label_new (g_str_equal (m, "custom") ? _("custom (R or α per band)") : m);

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
  _rw_window_update_actions (self);
  _rw_window_update_estimate (self);
  _rw_window_update_title (self);
}

static void
on_materials_changed (RwWindow *self)
{
  update_legend (self);
  mark_results_stale (self);
}

/* α per band decides the admittance branches, whose states the estimate
 * counts. */
static void
on_alpha_changed (RwWindow *self)
{
  _rw_window_update_estimate (self);
}

static void
on_points_changed (RwWindow *self)
{
  update_points (self);
  mark_results_stale (self);
}

static void
on_hrtf_changed (RwWindow *self)
{
  update_hrtf (self);
  mark_results_stale (self);
}

static void
on_setting_changed (RwWindow *self)
{
  _rw_window_update_estimate (self);
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

/* A chosen set is read off the main thread (rw_project_set_hrtf_path_async):
 * the label says so meanwhile; a newer choice, the bundled set, opening a
 * file or closing the window cancels the check, and nothing is set. */
typedef struct {
  RwWindow *self;               /* a reference */
  GCancellable *cancellable;    /* this check's */
} HrtfCheck;

void
_rw_window_cancel_hrtf_check (RwWindow *self)
{
  if (self->hrtf_cancellable == NULL)
    return;
  g_cancellable_cancel (self->hrtf_cancellable);
  g_clear_object (&self->hrtf_cancellable);
  if (!self->disposed)
    update_hrtf (self);
}

static void
on_hrtf_checked (GObject *source, GAsyncResult *result, gpointer data)
{
  HrtfCheck *hc = data;
  RwWindow *self = hc->self;
  g_autoptr (GError) error = NULL;
  gboolean ok = rw_project_set_hrtf_path_finish (RW_PROJECT (source), result, &error);

  if (self->hrtf_cancellable == hc->cancellable)
    {
      g_clear_object (&self->hrtf_cancellable);
      if (!self->disposed)
        update_hrtf (self);
    }
  if (!ok && !self->disposed && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    _rw_window_show_error (self, _("This HRTF file cannot be used"), error->message);
  g_object_unref (hc->cancellable);
  g_object_unref (hc->self);
  g_free (hc);
}

gboolean
rw_window_choose_hrtf (RwWindow *self, GFile *file)
{
  g_return_val_if_fail (RW_IS_WINDOW (self) && G_IS_FILE (file), FALSE);
  g_autofree char *path = g_file_get_path (file);
  HrtfCheck *hc;

  if (path == NULL)
    return FALSE;
  _rw_window_cancel_hrtf_check (self);
  self->hrtf_cancellable = g_cancellable_new ();
  hc = g_new (HrtfCheck, 1);
  hc->self = g_object_ref (self);
  hc->cancellable = g_object_ref (self->hrtf_cancellable);
  update_hrtf (self);
  rw_project_set_hrtf_path_async (self->project, path, hc->cancellable, on_hrtf_checked, hc);
  return TRUE;
}

gboolean
rw_window_is_checking_hrtf (RwWindow *self)
{
  g_return_val_if_fail (RW_IS_WINDOW (self), FALSE);
  return self->hrtf_cancellable != NULL;
}

static void
on_hrtf_response (GtkNativeDialog *native, int response, RwWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));
      if (file != NULL)
        rw_window_choose_hrtf (self, file);
    }
  g_object_unref (native);
}

static void
on_choose_hrtf (RwWindow *self)
{
  GtkFileChooserNative *native =
    gtk_file_chooser_native_new (_("Choose an HRTF Set"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN,
                                 _("_Choose"), _("_Cancel"));
  g_autoptr (GtkFileFilter) sofa = gtk_file_filter_new ();

  gtk_file_filter_set_name (sofa, _("SOFA files"));
  gtk_file_filter_add_suffix (sofa, "sofa");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (native), sofa);
  g_signal_connect (native, "response", G_CALLBACK (on_hrtf_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

static void
on_default_hrtf (RwWindow *self)
{
  _rw_window_cancel_hrtf_check (self);
  rw_project_set_hrtf_path (self->project, NULL, NULL);
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

  /* a save writing the results: closed once it has ended (and written the
     project file), nothing lost */
  if (self->saving)
    {
      self->close_after_save = TRUE;
      return TRUE;
    }
  if (self->job != NULL)
    rw_sim_job_cancel (self->job);
  if (self->run_cancellable != NULL)
    g_cancellable_cancel (self->run_cancellable);
  if (self->import_cancellable != NULL)
    g_cancellable_cancel (self->import_cancellable);
  if (!self->close_confirmed && rw_project_get_dirty (self->project)
      && rw_project_get_mesh (self->project) != NULL)
    {
      _rw_window_confirm_discard (self, close_then, NULL, NULL);
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
  if (self->mpi_job != NULL)
    g_signal_handlers_disconnect_by_data (self->mpi_job, self);
  if (self->run_cancellable != NULL)
    g_cancellable_cancel (self->run_cancellable);
  g_clear_pointer (&self->rank_bars, g_ptr_array_unref);
  g_clear_pointer (&self->mpi_devices, rw_mpi_devices_free);
  if (self->import_cancellable != NULL)
    g_cancellable_cancel (self->import_cancellable);
  if (self->probe_cancellable != NULL)
    g_cancellable_cancel (self->probe_cancellable);
  if (self->hrtf_cancellable != NULL)
    g_cancellable_cancel (self->hrtf_cancellable);
  g_clear_object (&self->hrtf_cancellable);
  g_clear_handle_id (&self->pulse_id, g_source_remove);
  self->disposed = TRUE;
  if (self->project_signals != NULL)
    g_signal_group_set_target (self->project_signals, NULL);
  if (self->project_bindings != NULL)
    g_binding_group_set_source (self->project_bindings, NULL);
  if (self->receiver_bindings != NULL)
    g_binding_group_set_source (self->receiver_bindings, NULL);
  g_clear_object (&self->project_signals);
  g_clear_object (&self->project_bindings);
  g_clear_object (&self->receiver_bindings);
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
  BIND (receiver_type_dropdown);
  BIND (receiver_type_list);
  BIND (receiver_order_spin);
  BIND (receiver_yaw_spin);
  BIND (receiver_pitch_spin);
  BIND (hrtf_label);
  BIND (hrtf_default_button);
  BIND (materials_panel);
  BIND (side_stack);
  BIND (fmax_spin);
  BIND (duration_spin);
  BIND (temperature_spin);
  BIND (humidity_spin);
  BIND (air_absorption_check);
  BIND (ppw_spin);
  BIND (ppw_label);
  BIND (scheme_dropdown);
  BIND (boundary_dropdown);
  BIND (backend_dropdown);
  BIND (precision_dropdown);
  BIND (device_dropdown);
  BIND (backend_label);
  BIND (estimate_label);
  BIND (estimate_warning);
  BIND (gpus_box);
  BIND (gpus_label);
  BIND (rank_box);
  BIND (hybrid_switch);
  BIND (geometrical_expander);
  BIND (crossover_spin);
  BIND (crossover_label);
  BIND (rays_spin);
  BIND (ism_order_spin);
  BIND (seed_spin);
  BIND (run_times_label);
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
  gtk_widget_class_bind_template_callback (widget_class, on_choose_hrtf);
  gtk_widget_class_bind_template_callback (widget_class, on_default_hrtf);


  /* success */
  _rw_window_signals[RW_WINDOW_RUN_FINISHED] =
    g_signal_new ("run-finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_BOOLEAN);
  /* an open (import) ended: success */
  _rw_window_signals[RW_WINDOW_OPEN_FINISHED] =
    g_signal_new ("open-finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_BOOLEAN);
}

static void
rw_window_init (RwWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  /* In the window's GActionMap (not widget-class actions), so that
   * g_action_group_activate_action (G_ACTION_GROUP (window), "run", NULL)
   * drives the window as the tests do. */
  _rw_window_actions_init (self);
  self->project = rw_project_new ();

  /* The window follows its project as GNOME Text Editor's window follows
   * its document: handlers in a signal group, settings widgets bound both
   * ways in a binding group, all on the project as their one target. */
  self->project_signals = g_signal_group_new (RW_TYPE_PROJECT);
  g_signal_group_connect_swapped (self->project_signals, "notify::mesh", G_CALLBACK (on_mesh_changed), self);
  g_signal_group_connect_swapped (self->project_signals, "notify::surface-materials",
                                  G_CALLBACK (on_materials_changed), self);
  g_signal_group_connect_swapped (self->project_signals, "notify::surface-alpha",
                                  G_CALLBACK (on_alpha_changed), self);
  g_signal_group_connect_swapped (self->project_signals, "notify::source", G_CALLBACK (on_points_changed), self);
  g_signal_group_connect_swapped (self->project_signals, "notify::receivers", G_CALLBACK (on_points_changed), self);
  g_signal_group_connect_swapped (self->project_signals, "notify::receiver-specs",
                                  G_CALLBACK (mark_results_stale), self);
  g_signal_group_connect_swapped (self->project_signals, "notify::hrtf-path", G_CALLBACK (on_hrtf_changed), self);
  g_signal_group_connect_swapped (self->project_signals, "notify::dirty", G_CALLBACK (_rw_window_update_title), self);
  g_signal_group_connect_swapped (self->project_signals, "notify::file", G_CALLBACK (_rw_window_update_title), self);
  self->project_bindings = g_binding_group_new ();
  static const struct { const char *property; gsize widget; const char *widget_property; } settings_bindings[] = {
    { "fmax-hz", G_STRUCT_OFFSET (RwWindow, fmax_spin), "value" },
    { "duration-s", G_STRUCT_OFFSET (RwWindow, duration_spin), "value" },
    { "temperature-c", G_STRUCT_OFFSET (RwWindow, temperature_spin), "value" },
    { "humidity-pct", G_STRUCT_OFFSET (RwWindow, humidity_spin), "value" },
    { "air-absorption", G_STRUCT_OFFSET (RwWindow, air_absorption_check), "active" },
    { "scheme", G_STRUCT_OFFSET (RwWindow, scheme_dropdown), "selected" },
    { "boundary", G_STRUCT_OFFSET (RwWindow, boundary_dropdown), "selected" },
    { "backend", G_STRUCT_OFFSET (RwWindow, backend_dropdown), "selected" },
    { "precision", G_STRUCT_OFFSET (RwWindow, precision_dropdown), "selected" },
    { "hybrid", G_STRUCT_OFFSET (RwWindow, hybrid_switch), "active" },
    { "crossover-hz", G_STRUCT_OFFSET (RwWindow, crossover_spin), "value" },
    { "n-rays", G_STRUCT_OFFSET (RwWindow, rays_spin), "value" },
    { "ism-order", G_STRUCT_OFFSET (RwWindow, ism_order_spin), "value" },
    { "seed", G_STRUCT_OFFSET (RwWindow, seed_spin), "value" },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (settings_bindings); i++)
    {
      g_autofree char *signal = g_strconcat ("notify::", settings_bindings[i].property, NULL);
      GObject *widget = G_STRUCT_MEMBER (GObject *, self, settings_bindings[i].widget);
      g_binding_group_bind (self->project_bindings, settings_bindings[i].property, widget,
                            settings_bindings[i].widget_property, G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL);
      g_signal_group_connect_swapped (self->project_signals, signal, G_CALLBACK (on_setting_changed), self);
    }
  /* The humidity matters only for the air absorption, the geometrical
   * part's settings only for a hybrid run. */
  g_object_bind_property (self->air_absorption_check, "active", self->humidity_spin, "sensitive",
                          G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->hybrid_switch, "active", self->geometrical_expander, "sensitive",
                          G_BINDING_SYNC_CREATE);
  /* The crossover's range and what "automatic" means follow fmax. */
  g_signal_group_connect_swapped (self->project_signals, "notify::fmax-hz", G_CALLBACK (update_crossover), self);
  g_signal_group_connect_swapped (self->project_signals, "notify::crossover-hz", G_CALLBACK (update_crossover),
                                  self);
  g_signal_group_connect_swapped (self->project_signals, "notify::hybrid", G_CALLBACK (update_crossover), self);
  g_signal_group_connect_swapped (self->project_signals, "notify::backend", G_CALLBACK (on_backend_changed), self);
  /* ppw: 0 is "Auto" (the scheme's default), so the field follows both
   * the ppw and the scheme (update_ppw), and values between 0 and 4, which
   * a run refuses, are stepped over (on_ppw_edited). */
  g_signal_group_connect_swapped (self->project_signals, "notify::ppw", G_CALLBACK (update_ppw), self);
  g_signal_group_connect_swapped (self->project_signals, "notify::ppw", G_CALLBACK (on_setting_changed), self);
  g_signal_group_connect_swapped (self->project_signals, "notify::scheme", G_CALLBACK (update_ppw), self);
  /* AUTO's choice follows the boundary form (rw_project_get_scheme) */
  g_signal_group_connect_swapped (self->project_signals, "notify::boundary", G_CALLBACK (update_ppw), self);
  g_signal_connect_swapped (self->ppw_spin, "value-changed", G_CALLBACK (on_ppw_edited), self);
  g_signal_connect (self->ppw_spin, "output", G_CALLBACK (on_ppw_output), NULL);
  g_signal_connect (self->ppw_spin, "input", G_CALLBACK (on_ppw_input), NULL);
  g_signal_group_connect_swapped (self->project_signals, "notify::device", G_CALLBACK (on_device_changed), self);
  g_signal_group_connect_swapped (self->project_signals, "notify::run-devices", G_CALLBACK (update_gpus_note),
                                  self);
  g_signal_group_connect_swapped (self->project_signals, "notify::device", G_CALLBACK (on_setting_changed), self);
  /* The selected receiver's type and orientation: one binding group whose
   * source is that receiver's slot (update_points moves it). The order
   * applies to an ambisonic receiver, yaw and pitch to any but an omni. */
  for (guint t = 0; t < RW_RECEIVER_N_TYPES; t++)
    gtk_string_list_append (self->receiver_type_list, rw_receiver_type_label ((RwReceiverType) t));
  self->receiver_bindings = g_binding_group_new ();
  g_binding_group_bind (self->receiver_bindings, "type", self->receiver_type_dropdown, "selected",
                        G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL);
  g_binding_group_bind (self->receiver_bindings, "order", self->receiver_order_spin, "value",
                        G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL);
  g_binding_group_bind (self->receiver_bindings, "yaw-deg", self->receiver_yaw_spin, "value",
                        G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL);
  g_binding_group_bind (self->receiver_bindings, "pitch-deg", self->receiver_pitch_spin, "value",
                        G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL);
  g_binding_group_bind (self->receiver_bindings, "ambisonic", self->receiver_order_spin, "sensitive",
                        G_BINDING_SYNC_CREATE);
  g_binding_group_bind (self->receiver_bindings, "oriented", self->receiver_yaw_spin, "sensitive",
                        G_BINDING_SYNC_CREATE);
  g_binding_group_bind (self->receiver_bindings, "oriented", self->receiver_pitch_spin, "sensitive",
                        G_BINDING_SYNC_CREATE);
  g_signal_group_set_target (self->project_signals, self->project);
  g_binding_group_set_source (self->project_bindings, self->project);
  g_binding_group_set_source (self->receiver_bindings, rw_project_get_receiver_slot (self->project, 0));
  update_hrtf (self);
  rw_room_view_set_project (self->room_view, self->project);
  rw_materials_panel_set_project (self->materials_panel, self->project);
  g_signal_connect (self->room_view, "surface-clicked", G_CALLBACK (on_surface_clicked), self);
  g_signal_connect (self->materials_panel, "selection-changed", G_CALLBACK (on_materials_selection), self);

  GtkSpinButton *points[] = { self->source_x, self->source_y, self->source_z,
                              self->receiver_x, self->receiver_y, self->receiver_z };
  for (gsize i = 0; i < G_N_ELEMENTS (points); i++)
    g_signal_connect_swapped (points[i], "value-changed", G_CALLBACK (on_point_changed), self);
  g_signal_connect_swapped (self->receiver_choice, "notify::selected", G_CALLBACK (on_receiver_chosen), self);
  g_signal_connect_swapped (self->device_dropdown, "notify::selected", G_CALLBACK (on_device_chosen), self);
  g_signal_connect_swapped (self->slice_axis_dropdown, "notify::selected", G_CALLBACK (_rw_window_push_slice_choice), self);
  g_signal_connect_swapped (self->slice_position_scale, "value-changed", G_CALLBACK (_rw_window_push_slice_choice), self);

  _rw_window_dnd_init (self);

  g_signal_connect_object (gtk_recent_manager_get_default (), "changed",
                           G_CALLBACK (_rw_window_update_recent_menu), self, G_CONNECT_SWAPPED);
  _rw_window_update_recent_menu (self);
  self->rank_bars = g_ptr_array_new ();
  probe_devices (self);
  update_crossover (self);
  update_ppw (self);
  _rw_window_update_estimate (self);
  _rw_window_update_actions (self);
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
  return self->job != NULL || self->mpi_job != NULL;
}

guint
rw_window_get_n_gpu_checks (RwWindow *self)
{
  guint n = 0;
  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (self->gpus_box)); c; c = gtk_widget_get_next_sibling (c))
    n++;
  return n;
}

GtkCheckButton *
rw_window_get_gpu_check (RwWindow *self, guint i)
{
  GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (self->gpus_box));
  for (; c != NULL && i > 0; i--)
    c = gtk_widget_get_next_sibling (c);
  return c ? GTK_CHECK_BUTTON (c) : NULL;
}

const char *
rw_window_get_gpus_note (RwWindow *self)
{
  return gtk_label_get_text (self->gpus_label);
}

guint
rw_window_get_n_rank_bars (RwWindow *self)
{
  return self->rank_bars ? self->rank_bars->len : 0;
}

GtkProgressBar *
rw_window_get_rank_bar (RwWindow *self, guint i)
{
  return self->rank_bars && i < self->rank_bars->len ? g_ptr_array_index (self->rank_bars, i) : NULL;
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
