/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-preferences.c — see rw-preferences.h. */
#include "rw-preferences.h"

#include "rw-solver.h"

struct _RwPreferences
{
  GtkWindow parent_instance;

  GtkGrid *grid;
  GtkSpinButton *fmax_spin;
  GtkDropDown *backend_dropdown, *precision_dropdown, *units_dropdown;
  GSettings *settings;
};

G_DEFINE_TYPE (RwPreferences, rw_preferences, GTK_TYPE_WINDOW)

/* The string keys' values in the drop-downs' order (backend and
 * precision: the engine's name tables, rw-solver.h, in enum order). */
static const char *const units_ids[] = { "m", "cm", "mm", "in", "ft", NULL };

static gboolean
get_index (GValue *value, GVariant *variant, gpointer user_data)
{
  const char *const *ids = user_data;
  const char *s = g_variant_get_string (variant, NULL);
  for (guint i = 0; ids[i] != NULL; i++)
    if (g_str_equal (ids[i], s))
      {
        g_value_set_uint (value, i);
        return TRUE;
      }
  g_value_set_uint (value, 0);
  return TRUE;
}

static GVariant *
set_index (const GValue *value, const GVariantType *type, gpointer user_data)
{
  const char *const *ids = user_data;
  guint i = g_value_get_uint (value);
  (void) type;
  if (i >= g_strv_length ((char **) ids))
    i = 0;
  return g_variant_new_string (ids[i]);
}

static void
bind_choice (GSettings *settings, const char *key, GtkDropDown *dropdown, const char *const *ids)
{
  g_settings_bind_with_mapping (settings, key, dropdown, "selected", G_SETTINGS_BIND_DEFAULT,
                                get_index, set_index, (gpointer) ids, NULL);
}

static void
rw_preferences_dispose (GObject *object)
{
  RwPreferences *self = RW_PREFERENCES (object);

  g_clear_object (&self->settings);
  /* The grid is both a template child and the window's child: let the
   * window let go of it first, or both would unparent it. */
  gtk_window_set_child (GTK_WINDOW (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), RW_TYPE_PREFERENCES);
  G_OBJECT_CLASS (rw_preferences_parent_class)->dispose (object);
}

static void
rw_preferences_class_init (RwPreferencesClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = rw_preferences_dispose;
  gtk_widget_class_set_template_from_resource (widget_class, "/org/roomwave/Roomwave/rw-preferences.ui");
  gtk_widget_class_bind_template_child (widget_class, RwPreferences, grid);
  gtk_widget_class_bind_template_child (widget_class, RwPreferences, fmax_spin);
  gtk_widget_class_bind_template_child (widget_class, RwPreferences, backend_dropdown);
  gtk_widget_class_bind_template_child (widget_class, RwPreferences, precision_dropdown);
  gtk_widget_class_bind_template_child (widget_class, RwPreferences, units_dropdown);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
rw_preferences_init (RwPreferences *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWindow *
rw_preferences_new (GSettings *settings)
{
  RwPreferences *self = g_object_new (RW_TYPE_PREFERENCES, NULL);

  if (settings == NULL)
    {
      gtk_widget_set_sensitive (GTK_WIDGET (self->grid), FALSE);
      return GTK_WINDOW (self);
    }
  self->settings = g_object_ref (settings);
  g_settings_bind (settings, "default-fmax", self->fmax_spin, "value", G_SETTINGS_BIND_DEFAULT);
  bind_choice (settings, "backend", self->backend_dropdown, rw_backend_kind_names);
  bind_choice (settings, "precision", self->precision_dropdown, rw_precision_names);
  bind_choice (settings, "units", self->units_dropdown, units_ids);
  return GTK_WINDOW (self);
}
