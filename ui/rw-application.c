/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-application.c — see rw-application.h. */
#include "rw-application.h"

#include <glib/gi18n-lib.h>

#include "rw-config.h"
#include "rw-materials.h"
#include "rw-preferences.h"
#include "rw-window.h"

struct _RwApplication
{
  GtkApplication parent_instance;
  GSettings *settings;
};

G_DEFINE_TYPE (RwApplication, rw_application, GTK_TYPE_APPLICATION)

/* Where the schema is looked up when it is not installed: the build tree's
 * compiled schema (an uninstalled run of build/app/roomwave). */
#ifndef RW_BUILD_SCHEMA_DIR
#define RW_BUILD_SCHEMA_DIR ""
#endif

static GSettings *
load_settings (void)
{
  GSettingsSchemaSource *def = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema = NULL;

  if (def != NULL)
    schema = g_settings_schema_source_lookup (def, RW_APPLICATION_ID, TRUE);
  if (schema == NULL && RW_BUILD_SCHEMA_DIR[0] != '\0')
    {
      g_autoptr (GSettingsSchemaSource) src =
        g_settings_schema_source_new_from_directory (RW_BUILD_SCHEMA_DIR, def, FALSE, NULL);
      if (src != NULL)
        schema = g_settings_schema_source_lookup (src, RW_APPLICATION_ID, FALSE);
    }
  if (schema == NULL)
    {
      g_message ("GSettings schema %s not found: preferences will not be kept", RW_APPLICATION_ID);
      return NULL;
    }
  return g_settings_new_full (schema, NULL, NULL);
}

char *
rw_application_demo_room (void)
{
  char *path = rw_data_path ("rooms/demo-room.obj");

  if (path != NULL && !g_file_test (path, G_FILE_TEST_EXISTS))
    g_clear_pointer (&path, free);
  /* rw_data_path allocates with malloc: hand back a g_free-able copy. */
  char *copy = g_strdup (path);
  free (path);
  return copy;
}

static void
action_quit (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  GtkApplication *app = user_data;
  GList *windows = gtk_application_get_windows (app);

  (void) action;
  (void) param;
  /* Each window asks about unsaved changes before it goes. */
  g_autoptr (GList) copy = g_list_copy (windows);
  for (GList *it = copy; it != NULL; it = it->next)
    gtk_window_close (GTK_WINDOW (it->data));
}

static void
action_about (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  GtkApplication *app = user_data;
  static const char *authors[] = { "The Roomwave developers", NULL };

  (void) action;
  (void) param;
  gtk_show_about_dialog (gtk_application_get_active_window (app),
                         "program-name", "Roomwave",
                         "logo-icon-name", RW_APPLICATION_ID,
                         "version", RW_VERSION,
                         "comments", _("Wave-based room acoustics: simulate, listen, compare"),
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "authors", authors,
                         "translator-credits", _("translator-credits"),
                         NULL);
}

static void
action_preferences (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  RwApplication *self = user_data;
  GtkWindow *win = rw_preferences_new (self->settings);

  (void) action;
  (void) param;
  gtk_window_set_transient_for (win, gtk_application_get_active_window (GTK_APPLICATION (self)));
  gtk_window_present (win);
}

static void
action_shortcuts (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  GtkApplication *app = user_data;
  g_autoptr (GtkBuilder) builder = gtk_builder_new_from_resource ("/org/roomwave/Roomwave/rw-shortcuts.ui");
  GtkWindow *win = GTK_WINDOW (gtk_builder_get_object (builder, "shortcuts"));

  (void) action;
  (void) param;
  gtk_window_set_transient_for (win, gtk_application_get_active_window (app));
  gtk_window_present (win);
}

static const GActionEntry app_actions[] = {
  { .name = "quit", .activate = action_quit },
  { .name = "about", .activate = action_about },
  { .name = "preferences", .activate = action_preferences },
  { .name = "shortcuts", .activate = action_shortcuts },
};

static void
rw_application_startup (GApplication *app)
{
  RwApplication *self = RW_APPLICATION (app);
  static const struct { const char *action; const char *accels[3]; } accels[] = {
    { "win.open", { "<Control>o", NULL } },
    { "win.save", { "<Control>s", NULL } },
    { "win.save-as", { "<Control><Shift>s", NULL } },
    { "win.run", { "<Control>r", "F5", NULL } },
    { "win.cancel", { "<Control>period", NULL } },
    { "win.export-report", { "<Control>e", NULL } },
    { "win.fit-view", { "<Control>0", NULL } },
    { "app.preferences", { "<Control>comma", NULL } },
    { "app.shortcuts", { "<Control>question", NULL } },
    { "app.quit", { "<Control>q", NULL } },
  };

  G_APPLICATION_CLASS (rw_application_parent_class)->startup (app);

  self->settings = load_settings ();
  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions, G_N_ELEMENTS (app_actions), app);
  for (gsize i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), accels[i].action, accels[i].accels);

  g_autoptr (GtkCssProvider) css = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (css, "/org/roomwave/Roomwave/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  gtk_icon_theme_add_resource_path (gtk_icon_theme_get_for_display (gdk_display_get_default ()),
                                    "/org/roomwave/Roomwave/icons");
  gtk_window_set_default_icon_name (RW_APPLICATION_ID);
}

static void
rw_application_activate (GApplication *app)
{
  RwWindow *win = rw_window_new (RW_APPLICATION (app));
  g_autofree char *demo = rw_application_demo_room ();

  gtk_window_present (GTK_WINDOW (win));
  if (demo != NULL)
    {
      g_autoptr (GFile) file = g_file_new_for_path (demo);
      rw_window_open_file (win, file);
    }
}

static void
rw_application_open (GApplication *app, GFile **files, int n_files, const char *hint)
{
  (void) hint;
  for (int i = 0; i < n_files; i++)
    {
      RwWindow *win = rw_window_new (RW_APPLICATION (app));
      gtk_window_present (GTK_WINDOW (win));
      rw_window_open_file (win, files[i]);
    }
}

static void
rw_application_dispose (GObject *object)
{
  RwApplication *self = RW_APPLICATION (object);

  g_clear_object (&self->settings);
  G_OBJECT_CLASS (rw_application_parent_class)->dispose (object);
}

static void
rw_application_class_init (RwApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = rw_application_dispose;
  app_class->startup = rw_application_startup;
  app_class->activate = rw_application_activate;
  app_class->open = rw_application_open;
}

static void
rw_application_init (RwApplication *self)
{
  (void) self;
}

RwApplication *
rw_application_new (void)
{
  /* NON_UNIQUE: each `roomwave` is its own process, so a test run or a
   * second instance never hands its files to one already running. */
  return g_object_new (RW_TYPE_APPLICATION,
                       "application-id", RW_APPLICATION_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE,
                       "resource-base-path", "/org/roomwave/Roomwave",
                       NULL);
}

GSettings *
rw_application_get_settings (RwApplication *self)
{
  return self->settings;
}
