/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-materials-panel.c — see rw-materials-panel.h. */
#include "rw-materials-panel.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "rw-plot.h"
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
  GtkGrid *band_grid;
  GtkSpinButton *band_spin[RW_N_OCTAVES];   /* α per band of the first selected surface */
  GtkDrawingArea *alpha_plot;
  GtkLabel *fit_label;

  /* What the plot shows: the first selected surface's fitted model. */
  RwSurfaceModel model;
  gboolean have_model;

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

/* The fitted model of `surface` (the project's cache: a fit is tens of
 * ms, once per α set), its report under the plot. */
static void
update_fit (RwMaterialsPanel *self, guint surface)
{
  g_autoptr (GError) error = NULL;
  double fmax = rw_project_get_settings (self->project)->fmax_hz;

  self->have_model = rw_project_get_surface_model (self->project, surface, &self->model, &error);
  gtk_widget_queue_draw (GTK_WIDGET (self->alpha_plot));
  if (!self->have_model)
    {
      gtk_label_set_text (self->fit_label, error->message);
      return;
    }
  const RwFitReport *r = &self->model.fit;
  GString *s = g_string_new (NULL);
  g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE,
                                          "Model fitted over %d band (up to %g Hz, for fmax %.0f Hz): worst error %.3f at %g Hz; %d admittance branch",
                                          "Model fitted over %d bands (up to %g Hz, for fmax %.0f Hz): worst error %.3f at %g Hz; %d admittance branches",
                                          r->n_bands_fit),
                          r->n_bands_fit, rw_octave_centres_hz[r->n_bands_fit - 1], fmax, r->worst_error,
                          rw_octave_centres_hz[r->worst_band], self->model.Y.n_branches);
  for (int b = 0; b < RW_N_OCTAVES; b++)
    if (r->limited[b])
      g_string_append_printf (s, _("\n%g Hz: α %.2f is above what a passive locally reacting surface absorbs: "
                                   "the model shows the fit’s limit (%.2f)"),
                              rw_octave_centres_hz[b], r->target_random[b], r->model_random[b]);
  gtk_label_set_text (self->fit_label, s->str);
  g_string_free (s, TRUE);
}

gboolean
rw_materials_panel_get_model (RwMaterialsPanel *self, RwSurfaceModel *out)
{
  if (self->have_model)
    *out = self->model;
  return self->have_model;
}

/* The plot: target α (dots) and the model's random-incidence α (line,
 * the band means the fit matched) over log frequency, 63 Hz … 8 kHz, with
 * the bands the fit left out (above fmax and one band) shaded. */
static void
draw_alpha_plot (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer user_data)
{
  RwMaterialsPanel *self = user_data;
  const double left = 34, right = 8, top = 8, bottom = 20;
  const double pw = width - left - right, ph = height - top - bottom;
  const double lf0 = log (rw_octave_centres_hz[0] / M_SQRT2), lf1 = log (rw_octave_centres_hz[7] * M_SQRT2);
  double rgb[3];

  (void) area;
  if (pw < 20 || ph < 20)
    return;
#define PX(f) (left + (log (f) - lf0) / (lf1 - lf0) * pw)
#define PY(a) (top + (1.0 - (a)) * ph)
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_rectangle (cr, left, top, pw, ph);
  cairo_fill (cr);
  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, 10);
  if (self->have_model && self->model.fit.n_bands_fit < RW_N_OCTAVES)
    {
      double x0 = PX (rw_octave_centres_hz[self->model.fit.n_bands_fit] / M_SQRT2);
      cairo_set_source_rgb (cr, 0.9, 0.9, 0.9);
      cairo_rectangle (cr, x0, top, left + pw - x0, ph);
      cairo_fill (cr);
    }
  /* grid and labels */
  cairo_set_line_width (cr, 1);
  for (int i = 0; i <= 4; i++)
    {
      double a = i / 4.0;
      char txt[16];
      cairo_set_source_rgb (cr, 0.85, 0.85, 0.85);
      cairo_move_to (cr, left, PY (a));
      cairo_line_to (cr, left + pw, PY (a));
      cairo_stroke (cr);
      cairo_set_source_rgb (cr, 0.3, 0.3, 0.3);
      g_snprintf (txt, sizeof txt, "%.2g", a);
      cairo_move_to (cr, 4, PY (a) + 4);
      cairo_show_text (cr, txt);
    }
  for (int b = 0; b < RW_N_OCTAVES; b++)
    {
      const char *lbl[] = { "63", "125", "250", "500", "1k", "2k", "4k", "8k" };
      cairo_text_extents_t ext;
      cairo_text_extents (cr, lbl[b], &ext);
      cairo_move_to (cr, PX (rw_octave_centres_hz[b]) - ext.width / 2, height - 5);
      cairo_show_text (cr, lbl[b]);
    }
  cairo_set_source_rgb (cr, 0.3, 0.3, 0.3);
  cairo_rectangle (cr, left + 0.5, top + 0.5, pw - 1, ph - 1);
  cairo_stroke (cr);
  if (!self->have_model)
    return;
  /* the model (series 0 style: the simulation), then the targets */
  rw_plot_series_colour (0, rgb);
  cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
  cairo_set_line_width (cr, 2);
  for (int b = 0; b < RW_N_OCTAVES; b++)
    {
      double x = PX (rw_octave_centres_hz[b]), y = PY (CLAMP (self->model.fit.model_random[b], 0, 1));
      if (b == 0)
        cairo_move_to (cr, x, y);
      else
        cairo_line_to (cr, x, y);
    }
  cairo_stroke (cr);
  rw_plot_series_colour (1, rgb);
  for (int b = 0; b < RW_N_OCTAVES; b++)
    {
      double x = PX (rw_octave_centres_hz[b]), y = PY (CLAMP (self->model.alpha_target[b], 0, 1));
      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_arc (cr, x, y, 3.5, 0, 2 * G_PI);
      if (self->model.fit.limited[b])
        {
          /* hollow: a target no passive surface reaches */
          cairo_set_line_width (cr, 1.5);
          cairo_stroke (cr);
        }
      else
        cairo_fill (cr);
    }
#undef PX
#undef PY
}

static void
set_band (RwMaterialsPanel *self, guint s, gpointer data)
{
  const int b = GPOINTER_TO_INT (data);
  rw_project_set_surface_alpha_band (self->project, s, (guint) b, gtk_spin_button_get_value (self->band_spin[b]));
}

static void for_each_selected (RwMaterialsPanel *self, void (*fn) (RwMaterialsPanel *, guint, gpointer),
                               gpointer data);

static void
on_band_changed (GtkSpinButton *spin, RwMaterialsPanel *self)
{
  if (self->updating || self->project == NULL)
    return;
  for (int b = 0; b < RW_N_OCTAVES; b++)
    if (spin == self->band_spin[b])
      for_each_selected (self, set_band, GINT_TO_POINTER (b));
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
      gtk_label_set_text (self->fit_label, "");
      self->have_model = FALSE;
      gtk_widget_queue_draw (GTK_WIDGET (self->alpha_plot));
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
      g_string_append_printf (s, "%s\n", m->category ? m->category : "");
      g_string_append_printf (s, _("\nα used at fmax %.0f Hz: %.3f → R = %.3f\nSource: %s"),
                              rw_project_get_settings (self->project)->fmax_hz,
                              rw_material_alpha_for_fmax (m, rw_project_get_settings (self->project)->fmax_hz),
                              R, m->source ? m->source : "—");
      gtk_label_set_text (self->alpha_label, s->str);
      g_string_free (s, TRUE);
    }
  else
    gtk_label_set_text (self->alpha_label, _("Custom α per band (or one R, the same in every band)."));
  double alpha[RW_N_OCTAVES];
  rw_project_get_surface_alpha (self->project, first, alpha);
  for (int b = 0; b < RW_N_OCTAVES; b++)
    gtk_spin_button_set_value (self->band_spin[b], alpha[b]);
  self->updating = FALSE;
  update_fit (self, first);
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
      /* α per band and fmax (which decides the fitted bands) refit */
      g_signal_group_connect_swapped (self->project_signals, "notify::surface-alpha",
                                      G_CALLBACK (update_editor), self);
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
  gtk_widget_class_bind_template_child (widget_class, RwMaterialsPanel, band_grid);
  gtk_widget_class_bind_template_child (widget_class, RwMaterialsPanel, alpha_plot);
  gtk_widget_class_bind_template_child (widget_class, RwMaterialsPanel, fit_label);
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
  for (int b = 0; b < RW_N_OCTAVES; b++)
    {
      static const char *names[] = { "63 Hz", "125 Hz", "250 Hz", "500 Hz", "1 kHz", "2 kHz", "4 kHz", "8 kHz" };
      g_autofree char *id = g_strdup_printf ("alpha-band-%d", b);
      g_autofree char *tip = g_strdup_printf (_("Random-incidence α of the %g Hz octave band"),
                                              rw_octave_centres_hz[b]);
      GtkWidget *label = gtk_label_new (names[b]);
      GtkWidget *spin = gtk_spin_button_new_with_range (0, 1, 0.01);

      gtk_spin_button_set_digits (GTK_SPIN_BUTTON (spin), 2);
      gtk_editable_set_width_chars (GTK_EDITABLE (spin), 4);
      gtk_widget_set_name (spin, id);
      gtk_widget_set_tooltip_text (spin, tip);
      gtk_widget_add_css_class (label, "caption");
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      /* two rows of four: eight spin buttons side by side do not fit the
       * side panel */
      gtk_grid_attach (self->band_grid, label, b % 4, 2 * (b / 4), 1, 1);
      gtk_grid_attach (self->band_grid, spin, b % 4, 2 * (b / 4) + 1, 1, 1);
      self->band_spin[b] = GTK_SPIN_BUTTON (spin);
      g_signal_connect (spin, "value-changed", G_CALLBACK (on_band_changed), self);
    }
  gtk_drawing_area_set_draw_func (self->alpha_plot, draw_alpha_plot, self, NULL);
}
