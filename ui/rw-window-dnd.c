/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-window-dnd.c — a file dropped on the window opens as Open does
 * (after the unsaved-changes question), unless a run or import is under
 * way. */
#include "rw-window-private.h"

#include <glib/gi18n-lib.h>

static gboolean
on_drop (GtkDropTarget *target, const GValue *value, double x, double y, RwWindow *self)
{
  (void) target;
  (void) x;
  (void) y;
  if (!G_VALUE_HOLDS (value, G_TYPE_FILE) || _rw_window_busy (self))
    return FALSE;
  _rw_window_confirm_discard (self, _rw_window_open_then, g_object_ref (g_value_get_object (value)), g_object_unref);
  return TRUE;
}

void
_rw_window_dnd_init (RwWindow *self)
{
  GtkDropTarget *drop = gtk_drop_target_new (G_TYPE_FILE, GDK_ACTION_COPY);

  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
}
