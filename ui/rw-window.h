/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-window.h — the main window: one project (RwProject), its 3-D view,
 * materials and settings panels, the run page with the live slice, and the
 * results.
 *
 * Actions (accelerators in rw-application.c): win.open, win.open-results,
 * win.save, win.save-as, win.run, win.cancel (a run or an import),
 * win.export-report, win.fit-view.
 * Tests drive the window through these with
 * g_action_group_activate_action (G_ACTION_GROUP (window), "run", NULL)
 * and watch "run-finished". */
#pragma once

#include <gtk/gtk.h>
#include "rw-application.h"
#include "rw-project.h"

G_BEGIN_DECLS

#define RW_TYPE_WINDOW (rw_window_get_type ())
G_DECLARE_FINAL_TYPE (RwWindow, rw_window, RW, WINDOW, GtkApplicationWindow)

RwWindow *rw_window_new (RwApplication *app);
/* Opens a mesh (any format Assimp reads) or a .roomwave project, off the
 * main thread (rw_project_open_async): the status bar pulses and says
 * "Importing NAME…", win.cancel stops it, and "open-finished" (gboolean
 * success) is emitted when it ends. Errors are shown in a dialog naming
 * the file and the problem; the window keeps what it had. A project that
 * names files outside its folder is opened only after a dialog naming
 * them (rw_window_get_error_dialog) is answered with Open. Returns FALSE
 * when nothing was started (a run or import under way, not a local file,
 * an unreadable project, the outside-paths question asked). */
gboolean rw_window_open_file (RwWindow *self, GFile *file);
/* Opens a results folder (what win.open-results does once a folder is
 * chosen): roomwave-cli simulate's --out folder or a saved project's
 * NAME.results/. The folder is read and its IRs analysed in a worker
 * thread, as a file operation (rw_window_is_importing until it reports;
 * win.cancel stops it); errors in a dialog naming the file and the
 * problem. FALSE when nothing was started (a run or a file operation under
 * way, not a local folder). A project opened with rw_window_open_file
 * reads the results it names the same way. */
gboolean rw_window_open_results (RwWindow *self, GFile *folder);
/* Sets the binaural receivers' HRTF set as the Choose… dialog does: the
 * SOFA file is checked in a worker thread (rw_project_set_hrtf_path_async;
 * the HRTF label says so meanwhile), refused in a dialog naming it; a
 * check still running is cancelled. FALSE when nothing was started (not a
 * local file). */
gboolean rw_window_choose_hrtf (RwWindow *self, GFile *file);
/* Whether a chosen HRTF set is still being checked. */
gboolean rw_window_is_checking_hrtf (RwWindow *self);
/* Saves the project (and its results, beside it in NAME.results/) as
 * win.save does; errors in a dialog. With results, the call returns while
 * a worker writes them (rw_window_is_saving), and the project file is
 * written after. FALSE when nothing was started (a run, an open or a save
 * in progress, or no room). */
gboolean rw_window_save_to (RwWindow *self, GFile *file);
/* Whether a save is still writing the results. */
gboolean rw_window_is_saving (RwWindow *self);
RwProject *rw_window_get_project (RwWindow *self);
gboolean rw_window_is_running (RwWindow *self);
gboolean rw_window_is_importing (RwWindow *self);
/* Whether the devices are still being looked for (on a thread, from the
 * window's creation); the device drop-down and list are filled after. */
gboolean rw_window_is_probing_devices (RwWindow *self);

/* For tests: the dialog shown for the last error (NULL once closed), the
 * text of the mesh report, the page shown, the results view. */
GtkWindow *rw_window_get_error_dialog (RwWindow *self);
const char *rw_window_get_report_text (RwWindow *self);
void rw_window_show_page (RwWindow *self, const char *page);          /* "room", "run", "results" */
void rw_window_show_side_page (RwWindow *self, const char *page);     /* "room", "materials", "settings" */
GtkWidget *rw_window_get_results_view (RwWindow *self);
guint rw_window_get_n_slices_shown (RwWindow *self);
GMenuModel *rw_window_get_recent_menu (RwWindow *self);   /* Open Recent */
/* The run on several GPUs (issue #15): the device list's check buttons
 * (one per CUDA device), the line under them (why the list is
 * unavailable, or what a run will use), and the Run page's per-rank
 * progress bars of the last such run. */
guint rw_window_get_n_gpu_checks (RwWindow *self);
GtkCheckButton *rw_window_get_gpu_check (RwWindow *self, guint i);
const char *rw_window_get_gpus_note (RwWindow *self);
guint rw_window_get_n_rank_bars (RwWindow *self);
GtkProgressBar *rw_window_get_rank_bar (RwWindow *self, guint i);

G_END_DECLS
