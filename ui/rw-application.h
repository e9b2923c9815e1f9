/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-application.h — the Roomwave GtkApplication (org.roomwave.Roomwave).
 *
 * Owns the GSettings and the app-wide actions (app.preferences,
 * app.shortcuts, app.about, app.quit) and their accelerators together with
 * the window's (win.*): all accelerators are set in one place,
 * rw_application_startup(). `roomwave FILE…` opens each file (a mesh or a
 * .roomwave project) in a window; with no file it opens the bundled demo
 * room. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define RW_APPLICATION_ID "org.roomwave.Roomwave"

#define RW_TYPE_APPLICATION (rw_application_get_type ())
G_DECLARE_FINAL_TYPE (RwApplication, rw_application, RW, APPLICATION, GtkApplication)

RwApplication *rw_application_new (void);
/* (transfer none) the org.roomwave.Roomwave settings. */
GSettings *rw_application_get_settings (RwApplication *self);
/* The demo room's path (newly allocated), or NULL when it is not found. */
char *rw_application_demo_room (void);

G_END_DECLS
