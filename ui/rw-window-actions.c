/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-window-actions.c — the window's actions (win.*): the table, in the
 * window's GActionMap so that tests drive it with
 * g_action_group_activate_action; fit-view and export-report here, the
 * others beside the code they drive (files, run). Accelerators are set in
 * rw-application.c. */
#include "rw-window-private.h"

#include <glib/gi18n-lib.h>

void
_rw_window_action_fit_view (GSimpleAction *action, GVariant *param, gpointer user_data)
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
            _rw_window_show_error (self, _("The report could not be exported"), error ? error->message : _("not a local file"));
        }
      else
        {
          g_autofree char *csv = rw_results_view_table_csv (self->results_view);
          if (csv == NULL)
            _rw_window_show_error (self, _("The report could not be exported"), _("There are no analysed results yet."));
          else if (!g_file_replace_contents (file, csv, strlen (csv), NULL, FALSE, G_FILE_CREATE_NONE,
                                             NULL, NULL, &error))
            _rw_window_show_error (self, _("The report could not be exported"), error->message);
        }
    }
  g_object_unref (native);
}

/* With a measurement loaded (Compare page): the PDF comparison report;
 * before that, the simulation's parameter table as CSV. */
void
_rw_window_action_export_report (GSimpleAction *action, GVariant *param, gpointer user_data)
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

static const GActionEntry win_actions[] = {
  { .name = "open", .activate = _rw_window_action_open },
  { .name = "open-results", .activate = _rw_window_action_open_results },
  { .name = "open-recent", .activate = _rw_window_action_open_recent, .parameter_type = "s" },
  { .name = "save", .activate = _rw_window_action_save },
  { .name = "save-as", .activate = _rw_window_action_save_as },
  { .name = "run", .activate = _rw_window_action_run },
  { .name = "cancel", .activate = _rw_window_action_cancel },
  { .name = "export-report", .activate = _rw_window_action_export_report },
  { .name = "fit-view", .activate = _rw_window_action_fit_view },
};

void
_rw_window_actions_init (RwWindow *self)
{
  /* In the window's GActionMap (not widget-class actions), so that
   * g_action_group_activate_action (G_ACTION_GROUP (window), "run", NULL)
   * drives the window as the tests do. */
  g_action_map_add_action_entries (G_ACTION_MAP (self), win_actions, G_N_ELEMENTS (win_actions), self);
}
