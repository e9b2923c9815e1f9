/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-preferences.h — the Preferences window: defaults for new projects
 * (fmax, backend, precision), bound to GSettings org.roomwave.Roomwave. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define RW_TYPE_PREFERENCES (rw_preferences_get_type ())
G_DECLARE_FINAL_TYPE (RwPreferences, rw_preferences, RW, PREFERENCES, GtkWindow)

/* settings may be NULL (no schema): the controls are then insensitive. */
GtkWindow *rw_preferences_new (GSettings *settings);

G_END_DECLS
