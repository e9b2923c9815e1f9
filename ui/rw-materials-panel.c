/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-materials-panel.c — see rw-materials-panel.h. */
#include "rw-materials-panel.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "rw-room-view.h"

struct _RwMaterialsPanel
{
  GtkBox parent_instance;

  GtkListBox *surface_list;
  GtkLabel *selection_label;
  GtkGrid *editor_grid;
  GtkDropDown *material_dropdown;
  GtkStringList *material_list;
  GtkLabel *alpha_label;
  GtkSpinButton *r_spin;
  GtkSpinButton *alpha_spin;

  RwProject *project;
  GSignalGroup *project_signals;   /* follows the project's properties */
  gboolean updating;   /* set while the panel writes its own widgets */
};

G_DEFINE_TYPE (RwMaterialsPanel, rw_materials_panel, GTK_TYPE_BOX)

enum { SELECTION_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

static GtkWidget *
make_swatch (RwProject *project, const char *material)
{
  GtkWidget *swatch = gtk_label_new ("  ");
  GdkRGBA c;
  g_autofree char *css = NULL;
  g_autoptr (GtkCssProvider) provider = gtk_css_provider_new ();

  rw_room_view_material_color (project, material, &c);
  css = g_strdup_printf ("label { background-color: rgb(%d,%d,%d); border-radius: 3px; min-width: 14px; }",
                         (int) (c.red * 255), (int) (c.green * 255), (int) (c.blue * 255));
  gtk_css_provider_load_from_data (provider, css, -1);
  gtk_style_context_add_provider (gtk_widget_get_style_context (swatch), GTK_STYLE_PROVIDER (provider),
                                  GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  gtk_widget_set_valign (swatch, GTK_ALIGN_CENTER);
  return swatch;
}

static void
rebuild_rows (RwMaterialsPanel *self)
{
  const RwMesh *mesh = self->project ? rw_project_get_mesh (self->project) : NULL;
  const RwMeshReport *report = self->project ? rw_project_get_report (self->project) : NULL;
  g_autofree gboolean *sel = NULL;
  guint n_sel = 0;
  GtkWidget *child;

  sel = rw_materials_panel_get_selection (self, &n_sel);
  self->updating = TRUE;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->surface_list))) != NULL)
    gtk_list_box_remove (self->surface_list, child);

  for (size_t s = 0; mesh != NULL && s < mesh->n_surfaces; s++)
    {
      const char *material = rw_project_get_surface_material (self->project, s);
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
      GtkWidget *name = gtk_label_new (mesh->surface_names[s]);
      double area = report && s < report->n_surfaces ? report->surface_area_m2[s] : NAN;
      g_autofree char *detail = g_strdup_printf (_("%.1f m² · %s · R = %.3f"), area,
                                                 g_str_equal (material, "custom") ? _("custom") : material,
                                                 rw_project_get_surface_R (self->project, s));
      GtkWidget *detail_label = gtk_label_new (detail);

      gtk_label_set_xalign (GTK_LABEL (name), 0);
      gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_END);
      gtk_label_set_xalign (GTK_LABEL (detail_label), 0);
      gtk_label_set_ellipsize (GTK_LABEL (detail_label), PANGO_ELLIPSIZE_END);
      gtk_widget_add_css_class (detail_label, "dim-label");
      gtk_widget_add_css_class (detail_label, "caption");
      gtk_box_append (GTK_BOX (text), name);
      gtk_box_append (GTK_BOX (text), detail_label);
      gtk_widget_set_hexpand (text, TRUE);
      gtk_box_append (GTK_BOX (box), make_swatch (self->project, material));
      gtk_box_append (GTK_BOX (box), text);
      gtk_widget_set_margin_top (box, 3);
      gtk_widget_set_margin_bottom (box, 3);
      gtk_widget_set_margin_start (box, 6);
      gtk_widget_set_margin_end (box, 6);
      gtk_list_box_append (self->surface_list, box);
      if (sel != NULL && s < n_sel && sel[s])
        gtk_list_box_select_row (self->surface_list, gtk_list_box_get_row_at_index (self->surface_list, (int) s));
    }
  self->updating = FALSE;
}

static void
rebuild_materials (RwMaterialsPanel *self)
{
  const RwMaterialLibrary *lib = self->project ? rw_project_get_library (self->project) : NULL;
  guint n_old = g_list_model_get_n_items (G_LIST_MODEL (self->material_list));
  g_autoptr (GPtrArray) names = g_ptr_array_new ();

  g_ptr_array_add (names, (gpointer) _("Custom (typed R or α)"));
  for (size_t i = 0; lib != NULL && i < lib->n; i++)
    g_ptr_array_add (names, lib->items[i].name);
  g_ptr_array_add (names, NULL);
  self->updating = TRUE;
  gtk_string_list_splice (self->material_list, 0, n_old, (const char *const *) names->pdata);
  self->updating = FALSE;
}

gboolean *
rw_materials_panel_get_selection (RwMaterialsPanel *self, guint *n)
{
  const RwMesh *mesh = self->project ? rw_project_get_mesh (self->project) : NULL;
  gboolean *sel;
  GList *rows;

  *n = 0;
  if (mesh == NULL)
    return NULL;
  sel = g_new0 (gboolean, mesh->n_surfaces ? mesh->n_surfaces : 1);
  rows = gtk_list_box_get_selected_rows (self->surface_list);
  for (GList *l = rows; l != NULL; l = l->next)
    {
      int i = gtk_list_box_row_get_index (l->data);
      if (i >= 0 && (size_t) i < mesh->n_surfaces)
        sel[i] = TRUE;
    }
  g_list_free (rows);
  *n = mesh->n_surfaces;
  return sel;
}

/* Shows the material of the first selected surface and its α per band. */
static void
update_editor (RwMaterialsPanel *self)
{
  guint n = 0, n_selected = 0, first = 0;
  g_autofree gboolean *sel = rw_materials_panel_get_selection (self, &n);

  for (guint i = 0; sel && i < n; i++)
    if (sel[i] && n_selected++ == 0)
      first = i;
  gtk_widget_set_sensitive (GTK_WIDGET (self->editor_grid), n_selected > 0);
  if (n_selected == 0)
    {
      gtk_label_set_text (self->selection_label, _("Select surfaces (Ctrl+click for several) to assign a material."));
      gtk_label_set_text (self->alpha_label, "");
      return;
    }

  g_autofree char *what = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u surface selected",
                                                        "%u surfaces selected", n_selected),
                                           n_selected);
  gtk_label_set_text (self->selection_label, what);

  self->updating = TRUE;
  int index = rw_project_get_surface_material_index (self->project, first);
  double R = rw_project_get_surface_R (self->project, first);
  gtk_drop_down_set_selected (self->material_dropdown, (guint) (index + 1));
  gtk_spin_button_set_value (self->r_spin, R);
  /* α shown and typed is the random-incidence α of the tables. */
  gtk_spin_button_set_value (self->alpha_spin, rw_statistical_alpha_from_reflection (R));
  if (index >= 0)
    {
      const RwMaterial *m = &rw_project_get_library (self->project)->items[index];
      GString *s = g_string_new (NULL);
      g_string_append_printf (s, _("α per octave band (%s):\n"), m->category ? m->category : "");
      for (int b = 0; b < RW_N_OCTAVES; b++)
        g_string_append_printf (s, "%s%g Hz %.2f", b % 4 ? "  " : (b ? "\n" : ""),
                                rw_octave_centres_hz[b], m->alpha[b]);
      g_string_append_printf (s, _("\nα used at fmax %.0f Hz: %.3f → R = %.3f\nSource: %s"),
                              rw_project_get_settings (self->project)->fmax_hz,
                              rw_material_alpha_for_fmax (m, rw_project_get_settings (self->project)->fmax_hz),
                              R, m->source ? m->source : "—");
      gtk_label_set_text (self->alpha_label, s->str);
      g_string_free (s, TRUE);
    }
  else
    gtk_label_set_text (self->alpha_label, _("Custom reflection factor, the same in every band."));
  self->updating = FALSE;
}

static void
on_selection_changed (RwMaterialsPanel *self)
{
  if (self->updating)
    return;
  update_editor (self);
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

static void
for_each_selected (RwMaterialsPanel *self, void (*fn) (RwMaterialsPanel *, guint, gpointer), gpointer data)
{
  guint n = 0;
  g_autofree gboolean *sel = rw_materials_panel_get_selection (self, &n);
  for (guint i = 0; sel && i < n; i++)
    if (sel[i])
      fn (self, i, data);
}

static void
set_material (RwMaterialsPanel *self, guint s, gpointer data)
{
  rw_project_set_surface_material (self->project, s, data);
}

static void
set_R (RwMaterialsPanel *self, guint s, gpointer data)
{
  rw_project_set_surface_R (self->project, s, *(double *) data);
}

static void
on_material_selected (RwMaterialsPanel *self)
{
  guint i = gtk_drop_down_get_selected (self->material_dropdown);
  const RwMaterialLibrary *lib;

  if (self->updating || self->project == NULL || i == GTK_INVALID_LIST_POSITION || i == 0)
    return;
  lib = rw_project_get_library (self->project);
  if (lib == NULL || i - 1 >= lib->n)
    return;
  for_each_selected (self, set_material, lib->items[i - 1].name);
}

static void
on_r_changed (RwMaterialsPanel *self)
{
  double R = gtk_spin_button_get_value (self->r_spin);
  if (self->updating || self->project == NULL)
    return;
  for_each_selected (self, set_R, &R);
}

static void
on_alpha_changed (RwMaterialsPanel *self)
{
  double R = rw_reflection_from_statistical_alpha (CLAMP (gtk_spin_button_get_value (self->alpha_spin), 0.0, 1.0));
  if (self->updating || self->project == NULL)
    return;
  for_each_selected (self, set_R, &R);
}

static void
on_mesh_changed (RwMaterialsPanel *self)
{
  rebuild_materials (self);
  rebuild_rows (self);
  update_editor (self);
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

static void
on_materials_changed (RwMaterialsPanel *self)
{
  rebuild_rows (self);
  update_editor (self);
}

void
rw_materials_panel_set_project (RwMaterialsPanel *self, RwProject *project)
{
  if (self->project_signals == NULL)
    {
      self->project_signals = g_signal_group_new (RW_TYPE_PROJECT);
      g_signal_group_connect_swapped (self->project_signals, "notify::mesh", G_CALLBACK (on_mesh_changed), self);
      g_signal_group_connect_swapped (self->project_signals, "notify::surface-materials",
                                      G_CALLBACK (on_materials_changed), self);
    }
  g_set_object (&self->project, project);
  g_signal_group_set_target (self->project_signals, project);
  rebuild_materials (self);
  rebuild_rows (self);
  update_editor (self);
}

void
rw_materials_panel_select_surface (RwMaterialsPanel *self, guint surface, gboolean extend)
{
  GtkListBoxRow *row = gtk_list_box_get_row_at_index (self->surface_list, (int) surface);
  if (row == NULL)
    return;
  self->updating = TRUE;
  if (!extend)
    gtk_list_box_unselect_all (self->surface_list);
  if (extend && gtk_list_box_row_is_selected (row))
    gtk_list_box_unselect_row (self->surface_list, row);
  else
    gtk_list_box_select_row (self->surface_list, row);
  self->updating = FALSE;
  on_selection_changed (self);
}

static void
rw_materials_panel_dispose (GObject *object)
{
  RwMaterialsPanel *self = RW_MATERIALS_PANEL (object);

  if (self->project_signals != NULL)
    g_signal_group_set_target (self->project_signals, NULL);
  g_clear_object (&self->project_signals);
  g_clear_object (&self->project);
  gtk_widget_dispose_template (GTK_WIDGET (self), RW_TYPE_MATERIALS_PANEL);
  G_OBJECT_CLASS (rw_materials_panel_parent_class)->dispose (object);
}

static void
rw_materials_panel_class_init (RwMaterialsPanelClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = rw_materials_panel_dispose;
  gtk_widget_class_set_template_from_resource (widget_class, "/org/roomwave/Roomwave/rw-materials-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, RwMaterialsPanel, surface_list);
  gtk_widget_class_bind_template_child (widget_class, RwMaterialsPanel, selection_label);
  gtk_widget_class_bind_template_child (widget_class, RwMaterialsPanel, editor_grid);
  gtk_widget_class_bind_template_child (widget_class, RwMaterialsPanel, material_dropdown);
  gtk_widget_class_bind_template_child (widget_class, RwMaterialsPanel, material_list);
  gtk_widget_class_bind_template_child (widget_class, RwMaterialsPanel, alpha_label);
  gtk_widget_class_bind_template_child (widget_class, RwMaterialsPanel, r_spin);
  gtk_widget_class_bind_template_child (widget_class, RwMaterialsPanel, alpha_spin);
  gtk_widget_class_bind_template_callback (widget_class, on_selection_changed);

  signals[SELECTION_CHANGED] =
    g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

static void
rw_materials_panel_init (RwMaterialsPanel *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect_swapped (self->material_dropdown, "notify::selected", G_CALLBACK (on_material_selected), self);
  g_signal_connect_swapped (self->r_spin, "value-changed", G_CALLBACK (on_r_changed), self);
  g_signal_connect_swapped (self->alpha_spin, "value-changed", G_CALLBACK (on_alpha_changed), self);
}
