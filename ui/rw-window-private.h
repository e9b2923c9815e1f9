/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-window-private.h — what the parts of RwWindow share (rw-window.c,
 * rw-window-actions.c, rw-window-files.c, rw-window-dnd.c,
 * rw-window-run.c): the instance struct and the functions one part
 * calls in another. Not for anything outside the window. */
#pragma once

#include "rw-window.h"

#include "rw-compare-view.h"
#include "rw-materials-panel.h"
#include "rw-mpi-job.h"
#include "rw-results-io.h"
#include "rw-results-view.h"
#include "rw-room-view.h"
#include "rw-sim-job.h"
#include "rw-slice-view.h"

G_BEGIN_DECLS

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
  /* the selected receiver's type and orientation (issue #13), bound to its
   * project slot by receiver_bindings; the project's HRTF file */
  GtkDropDown *receiver_type_dropdown;
  GtkStringList *receiver_type_list;
  GtkSpinButton *receiver_order_spin, *receiver_yaw_spin, *receiver_pitch_spin;
  GtkLabel *hrtf_label;
  GtkButton *hrtf_default_button;
  RwMaterialsPanel *materials_panel;
  GtkStack *side_stack;
  GtkSpinButton *fmax_spin, *duration_spin, *temperature_spin, *humidity_spin, *ppw_spin;
  GtkCheckButton *air_absorption_check;
  GtkDropDown *scheme_dropdown, *boundary_dropdown, *backend_dropdown, *precision_dropdown;
  GtkLabel *ppw_label;              /* the points per wavelength in use (update_ppw) */
  gboolean updating_ppw;            /* update_ppw is setting ppw_spin */
  GtkDropDown *device_dropdown;     /* the chosen backend's devices (update_devices) */
  gboolean filling_devices;         /* update_devices is setting device_dropdown */
  GtkLabel *backend_label, *estimate_label, *estimate_warning;
  /* several GPUs (issue #15): a check button per CUDA device, bound to
   * the project's "run-devices" bit (update_gpus); why not, or what a
   * run will use */
  GtkBox *gpus_box;
  GtkLabel *gpus_label;
  GtkBox *rank_box;                 /* the Run page's per-rank bars */
  GtkSwitch *hybrid_switch;
  GtkExpander *geometrical_expander;
  GtkSpinButton *crossover_spin, *rays_spin, *ism_order_spin, *seed_spin;
  GtkLabel *crossover_label;        /* the crossover in use and its limit */
  GtkLabel *run_times_label;        /* the last run's time of each part */
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
  GBindingGroup *receiver_bindings; /* the receiver fields ↔ the selected receiver's slot */
  RwSimJob *job;
  /* a run on several GPUs: the mpirun job, cancelled through the window's
   * run_cancellable; the devices found at start-up; the bars of its ranks
   * (children of rank_box) */
  RwMpiJob *mpi_job;
  GCancellable *run_cancellable;
  RwMpiDevices *mpi_devices;        /* NULL while probe_cancellable */
  GCancellable *probe_cancellable;  /* while the devices are looked for */
  GPtrArray *rank_bars;
  GCancellable *import_cancellable; /* while a file is being opened */
  gboolean saving;                  /* while a save writes the results (rw-window-files.c) */
  gboolean close_after_save;        /* closing waits for that save */
  GCancellable *hrtf_cancellable;   /* while a chosen HRTF set is checked */
  guint pulse_id;                   /* the progress bar's pulse during an import */
  GSettings *settings;          /* may be NULL (schema not found) */
  GtkWindow *error_dialog;      /* weak */
  gboolean updating;            /* writing our own widgets */
  gboolean close_confirmed;
  gboolean disposed;            /* a job may report after the widgets are gone */
};

enum { RW_WINDOW_RUN_FINISHED, RW_WINDOW_OPEN_FINISHED, RW_WINDOW_N_SIGNALS };
extern guint _rw_window_signals[RW_WINDOW_N_SIGNALS];

/* rw-window.c */
void _rw_window_present_dialog (RwWindow *self, GtkWidget *dialog);
void _rw_window_show_error (RwWindow *self, const char *primary, const char *secondary);
void _rw_window_update_actions (RwWindow *self);
/* Whether a run, an open (or results read) or a save is in progress: what
 * Open, Save, Run and a drop wait for. */
gboolean _rw_window_busy (RwWindow *self);
void _rw_window_update_title (RwWindow *self);
void _rw_window_update_estimate (RwWindow *self);
void _rw_window_cancel_hrtf_check (RwWindow *self);
/* The devices a run on several GPUs will use: how many are checked and
 * usable (0 when such a run is unavailable). */
int _rw_window_n_gpus_checked (RwWindow *self);
/* The GSettings key of the CPU speed the last run of a scheme measured. */
const char *_rw_window_speed_key (RwScheme scheme);

/* rw-window-actions.c */
void _rw_window_actions_init (RwWindow *self);
void _rw_window_action_fit_view (GSimpleAction *action, GVariant *param, gpointer user_data);
void _rw_window_action_export_report (GSimpleAction *action, GVariant *param, gpointer user_data);

/* rw-window-files.c */
typedef void (*RwWindowThenFn) (RwWindow *self, gpointer data);
void _rw_window_confirm_discard (RwWindow *self, RwWindowThenFn then, gpointer data, GDestroyNotify data_free);
void _rw_window_open_then (RwWindow *self, gpointer data);
void _rw_window_update_recent_menu (RwWindow *self);
void _rw_window_load_results (RwWindow *self, GFile *project_file);
void _rw_window_action_open (GSimpleAction *action, GVariant *param, gpointer user_data);
void _rw_window_action_open_recent (GSimpleAction *action, GVariant *param, gpointer user_data);
void _rw_window_action_open_results (GSimpleAction *action, GVariant *param, gpointer user_data);
void _rw_window_action_save (GSimpleAction *action, GVariant *param, gpointer user_data);
void _rw_window_action_save_as (GSimpleAction *action, GVariant *param, gpointer user_data);

/* rw-window-dnd.c */
void _rw_window_dnd_init (RwWindow *self);

/* rw-window-run.c */
gboolean _rw_window_room_box (RwWindow *self, double box[3]);
void _rw_window_push_slice_choice (RwWindow *self);
void _rw_window_action_run (GSimpleAction *action, GVariant *param, gpointer user_data);
void _rw_window_action_cancel (GSimpleAction *action, GVariant *param, gpointer user_data);

G_END_DECLS
