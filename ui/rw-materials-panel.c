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
  GtkLabel *mixed_label;
  GtkDrawingArea *alpha_plot;
  GtkLabel *fit_label;
  GtkBox *legend_box;

  /* What the plot shows: RwMaterialsPlotEntry (material and error owned)
   * per distinct material/α among the selected surfaces (collect_entries),
   * the first RW_MATERIALS_PANEL_MAX_PLOTTED with their fitted models. */
  GArray *entries;
  int n_bands_fit;     /* the fewest bands a drawn model was fitted over: shaded above */

  RwProject *project;
  GSignalGroup *project_signals;   /* follows the project's properties */
  gboolean updating;   /* set while the panel writes its own widgets */
};

G_DEFINE_TYPE (RwMaterialsPanel, rw_materials_panel, GTK_TYPE_BOX)

static const char *const band_names[RW_N_OCTAVES] = {
  "63 Hz", "125 Hz", "250 Hz", "500 Hz", "1 kHz", "2 kHz", "4 kHz", "8 kHz"
};

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

static void
clear_entry (gpointer data)
{
  RwMaterialsPlotEntry *e = data;

  g_free ((char *) e->material);
  g_free ((char *) e->error);
}

/* The distinct material/α sets among the selected surfaces, in surface
 * order, and the drawn ones' models (the project's cache: a fit is tens of
 * ms, once per α set; the entries past the drawn ones are only counted, so
 * selecting hundreds of custom surfaces fits six). Surfaces share an entry
 * when the material string, every band's α and R are equal bit for bit:
 * they then run the same model. Also the range of α per band among the
 * selected surfaces, for the band fields. */
static void
collect_entries (RwMaterialsPanel *self, const gboolean *sel, guint n, double lo[RW_N_OCTAVES],
                 double hi[RW_N_OCTAVES])
{
  g_autoptr (GHashTable) index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  if (self->entries->len > 0)
    g_array_remove_range (self->entries, 0, self->entries->len);
  for (int b = 0; b < RW_N_OCTAVES; b++)
    {
      lo[b] = INFINITY;
      hi[b] = -INFINITY;
    }
  for (guint s = 0; sel != NULL && s < n; s++)
    {
      RwMaterialsPlotEntry e = { 0 };
      gpointer found;

      if (!sel[s])
        continue;
      const char *material = rw_project_get_surface_material (self->project, s);
      e.R = rw_project_get_surface_R (self->project, s);
      rw_project_get_surface_alpha (self->project, s, e.alpha);
      /* the numbers first (they never hold '|'), the material last */
      GString *key = g_string_new (NULL);
      for (int b = 0; b < RW_N_OCTAVES; b++)
        {
          g_string_append_printf (key, "%a|", e.alpha[b]);
          lo[b] = MIN (lo[b], e.alpha[b]);
          hi[b] = MAX (hi[b], e.alpha[b]);
        }
      g_string_append_printf (key, "%a|%s", e.R, material);
      if (g_hash_table_lookup_extended (index, key->str, NULL, &found))
        {
          g_array_index (self->entries, RwMaterialsPlotEntry, GPOINTER_TO_UINT (found)).n_surfaces++;
          g_string_free (key, TRUE);
          continue;
        }
      g_hash_table_insert (index, g_string_free (key, FALSE), GUINT_TO_POINTER (self->entries->len));
      e.material = g_strdup (material);
      e.first_surface = s;
      e.n_surfaces = 1;
      if (self->entries->len < RW_MATERIALS_PANEL_MAX_PLOTTED)
        {
          g_autoptr (GError) error = NULL;
          e.have_model = rw_project_get_surface_model (self->project, s, &e.model, &error);
          if (!e.have_model)
            e.error = g_strdup (error->message);
        }
      g_array_append_val (self->entries, e);
    }
}

guint
rw_materials_panel_get_plotted (RwMaterialsPanel *self, RwMaterialsPlotEntry *out, guint max)
{
  g_return_val_if_fail (RW_IS_MATERIALS_PANEL (self), 0);
  for (guint i = 0; i < MIN (max, self->entries->len); i++)
    out[i] = g_array_index (self->entries, RwMaterialsPlotEntry, i);
  return self->entries->len;
}

gboolean
rw_materials_panel_get_model (RwMaterialsPanel *self, RwSurfaceModel *out)
{
  RwMaterialsPlotEntry e;

  if (rw_materials_panel_get_plotted (self, &e, 1) == 0 || !e.have_model)
    return FALSE;
  *out = e.model;
  return TRUE;
}

/* Entry i's target marker at (x, y): a circle, square or diamond (with
 * the line's dash, the shape keeps entries apart in greyscale and for
 * colour-blind eyes), hollow for a target no passive surface reaches. */
static void
draw_marker (cairo_t *cr, int i, double x, double y, gboolean hollow)
{
  const double r = 3.5;
  double rgb[3];

  rw_plot_series_colour (i, rgb);
  cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
  cairo_set_dash (cr, NULL, 0, 0);
  cairo_new_path (cr);
  switch (i % 3)
    {
    case 0:
      cairo_arc (cr, x, y, r, 0, 2 * G_PI);
      break;
    case 1:
      cairo_rectangle (cr, x - 0.9 * r, y - 0.9 * r, 1.8 * r, 1.8 * r);
      break;
    default:
      cairo_move_to (cr, x, y - 1.3 * r);
      cairo_line_to (cr, x + 1.3 * r, y);
      cairo_line_to (cr, x, y + 1.3 * r);
      cairo_line_to (cr, x - 1.3 * r, y);
      cairo_close_path (cr);
    }
  if (hollow)
    {
      cairo_set_line_width (cr, 1.5);
      cairo_stroke (cr);
    }
  else
    cairo_fill (cr);
}

/* A legend row's sample: entry i's line and marker on the plot's white. */
static void
draw_legend_sample (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
  const int i = GPOINTER_TO_INT (data);

  (void) area;
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);
  rw_plot_set_series_style (cr, i, 2);
  cairo_move_to (cr, 2, height / 2.0);
  cairo_line_to (cr, width - 2, height / 2.0);
  cairo_stroke (cr);
  draw_marker (cr, i, width / 2.0, height / 2.0, FALSE);
}

/* A legend entry: material (or "custom"), the surface (or how many share
 * it), the fit's worst error and branches, and the bands whose target is
 * beyond a passive surface. */
static char *
entry_text (RwMaterialsPanel *self, const RwMaterialsPlotEntry *e)
{
  const RwMesh *mesh = rw_project_get_mesh (self->project);
  GString *s = g_string_new (g_str_equal (e->material, "custom") ? _("custom") : e->material);

  /* A custom α belongs to its surface: named; a library material is its
   * own name, only counted when shared. */
  if (e->n_surfaces > 1)
    {
      g_string_append (s, " · ");
      g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%u surface", "%u surfaces", e->n_surfaces),
                              e->n_surfaces);
    }
  else if (g_str_equal (e->material, "custom") && mesh->surface_names[e->first_surface] != NULL)
    g_string_append_printf (s, " · %s", mesh->surface_names[e->first_surface]);
  g_string_append (s, " · ");
  if (!e->have_model)
    {
      g_string_append (s, e->error ? e->error : "");
      return g_string_free (s, FALSE);
    }
  const RwFitReport *r = &e->model.fit;
  const int nb = e->model.Y.n_branches;
  if (nb == 0 && r->worst_error == 0)
    g_string_append (s, _("frequency-independent, exact"));
  else
    {
      g_string_append_printf (s, _("max |Δα| %.3f at %s"), r->worst_error, band_names[r->worst_band]);
      g_string_append (s, " · ");
      g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%d branch", "%d branches", nb),
                              nb);
    }
  for (int b = 0; b < RW_N_OCTAVES; b++)
    if (r->limited[b])
      g_string_append_printf (s, _("\n%g Hz: α %.2f is beyond a passive surface, the model reaches %.2f"),
                              rw_octave_centres_hz[b], r->target_random[b], r->model_random[b]);
  return g_string_free (s, FALSE);
}

/* The report under the plot: what the markers and lines are, then a
 * legend row per drawn entry and how many more the selection has. */
static void
update_legend (RwMaterialsPanel *self)
{
  const guint n = self->entries->len, n_drawn = MIN (n, RW_MATERIALS_PANEL_MAX_PLOTTED);
  gboolean any_model = FALSE;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->legend_box))) != NULL)
    gtk_box_remove (self->legend_box, child);
  self->n_bands_fit = RW_N_OCTAVES;
  for (guint i = 0; i < n_drawn; i++)
    {
      const RwMaterialsPlotEntry *e = &g_array_index (self->entries, RwMaterialsPlotEntry, i);
      GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      GtkWidget *sample = gtk_drawing_area_new ();
      g_autofree char *text = entry_text (self, e);
      g_autofree char *name = g_strdup_printf ("alpha-legend-%u", i);
      GtkWidget *label = gtk_label_new (text);

      if (e->have_model)
        {
          any_model = TRUE;
          self->n_bands_fit = MIN (self->n_bands_fit, e->model.fit.n_bands_fit);
        }
      gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (sample), 36);
      gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (sample), 12);
      gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (sample), draw_legend_sample, GUINT_TO_POINTER (i), NULL);
      gtk_widget_set_valign (sample, GTK_ALIGN_START);
      gtk_widget_set_margin_top (sample, 2);
      gtk_widget_set_name (label, name);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_selectable (GTK_LABEL (label), TRUE);
      gtk_widget_set_hexpand (label, TRUE);
      gtk_widget_add_css_class (label, "caption");
      gtk_box_append (GTK_BOX (row), sample);
      gtk_box_append (GTK_BOX (row), label);
      gtk_box_append (self->legend_box, row);
    }
  if (n > n_drawn)
    {
      g_autofree char *more = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                            "+%u more (not drawn: select fewer surfaces to see it)",
                                                            "+%u more (not drawn: select fewer surfaces to see them)",
                                                            n - n_drawn),
                                               n - n_drawn);
      GtkWidget *label = gtk_label_new (more);
      gtk_widget_set_name (label, "alpha-legend-more");
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_widget_add_css_class (label, "caption");
      gtk_widget_add_css_class (label, "dim-label");
      gtk_box_append (self->legend_box, label);
    }
  if (any_model)
    {
      const int nf = self->n_bands_fit;
      g_autofree char *head = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                            "Markers: target α; lines: models fitted over %d band (to %g Hz, fmax %.0f Hz)",
                                                            "Markers: target α; lines: models fitted over %d bands (to %g Hz, fmax %.0f Hz)",
                                                            nf),
                                               nf, rw_octave_centres_hz[nf - 1],
                                               rw_project_get_settings (self->project)->fmax_hz);
      gtk_label_set_text (self->fit_label, head);
    }
  else
    gtk_label_set_text (self->fit_label, "");
  gtk_widget_queue_draw (GTK_WIDGET (self->alpha_plot));
}

/* The plot: per drawn entry, target α (markers) and the model's
 * random-incidence α (line, the band means the fit matched) over log
 * frequency, 63 Hz … 8 kHz, with the bands the fit left out (above fmax
 * and one band) shaded. The data area is white like every Roomwave plot
 * (rw-plot.h: the Okabe–Ito colours are chosen for white); the axis
 * labels outside it take the theme's text colour. */
static void
draw_alpha_plot (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer user_data)
{
  RwMaterialsPanel *self = user_data;
  const double left = 34, right = 8, top = 8, bottom = 20;
  const double pw = width - left - right, ph = height - top - bottom;
  const double lf0 = log (rw_octave_centres_hz[0] / M_SQRT2), lf1 = log (rw_octave_centres_hz[7] * M_SQRT2);
  const guint n_drawn = MIN (self->entries->len, RW_MATERIALS_PANEL_MAX_PLOTTED);
  GdkRGBA fg;

  if (pw < 20 || ph < 20)
    return;
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (area)), &fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
#define PX(f) (left + (log (f) - lf0) / (lf1 - lf0) * pw)
#define PY(a) (top + (1.0 - (a)) * ph)
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_rectangle (cr, left, top, pw, ph);
  cairo_fill (cr);
  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, 10);
  if (n_drawn > 0 && self->n_bands_fit < RW_N_OCTAVES)
    {
      double x0 = PX (rw_octave_centres_hz[self->n_bands_fit] / M_SQRT2);
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
      gdk_cairo_set_source_rgba (cr, &fg);
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
  /* every model's line first, then the markers on top of all lines */
  for (guint i = 0; i < n_drawn; i++)
    {
      const RwMaterialsPlotEntry *e = &g_array_index (self->entries, RwMaterialsPlotEntry, i);
      if (!e->have_model)
        continue;
      rw_plot_set_series_style (cr, (int) i, 2);
      for (int b = 0; b < RW_N_OCTAVES; b++)
        {
          double x = PX (rw_octave_centres_hz[b]), y = PY (CLAMP (e->model.fit.model_random[b], 0, 1));
          if (b == 0)
            cairo_move_to (cr, x, y);
          else
            cairo_line_to (cr, x, y);
        }
      cairo_stroke (cr);
    }
  for (guint i = 0; i < n_drawn; i++)
    {
      const RwMaterialsPlotEntry *e = &g_array_index (self->entries, RwMaterialsPlotEntry, i);
      for (int b = 0; b < RW_N_OCTAVES; b++)
        draw_marker (cr, (int) i, PX (rw_octave_centres_hz[b]), PY (CLAMP (e->alpha[b], 0, 1)),
                     e->have_model && e->model.fit.limited[b]);
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

static char *
band_tooltip (int b)
{
  return g_strdup_printf (_("Random-incidence α of the %g Hz octave band"), rw_octave_centres_hz[b]);
}

/* A band in which the selected surfaces differ: the field keeps the first
 * surface's α (a spin button cannot show "mixed" without parsing it back
 * as a number on focus-out, which would write it to every surface), in
 * italics, with the range in its tooltip. */
static void
show_mixed_bands (RwMaterialsPanel *self, const double lo[RW_N_OCTAVES], const double hi[RW_N_OCTAVES])
{
  gboolean any = FALSE;

  for (int b = 0; b < RW_N_OCTAVES; b++)
    {
      GtkWidget *spin = GTK_WIDGET (self->band_spin[b]);
      g_autofree char *tip = band_tooltip (b);
      const gboolean mixed = hi[b] > lo[b];

      if (mixed)
        {
          g_autofree char *more = g_strdup_printf (_("%s\nThe selected surfaces differ here: α %.2f … %.2f"), tip,
                                                   lo[b], hi[b]);
          gtk_widget_add_css_class (spin, "rw-mixed");
          gtk_widget_set_tooltip_text (spin, more);
        }
      else
        {
          gtk_widget_remove_css_class (spin, "rw-mixed");
          gtk_widget_set_tooltip_text (spin, tip);
        }
      any |= mixed;
    }
  gtk_widget_set_visible (GTK_WIDGET (self->mixed_label), any);
}

/* Shows the material of the first selected surface and its α per band,
 * the bands in which the selected surfaces differ, and every distinct
 * material among them in the plot. */
static void
update_editor (RwMaterialsPanel *self)
{
  guint n = 0, n_selected = 0, first = 0;
  g_autofree gboolean *sel = rw_materials_panel_get_selection (self, &n);
  double lo[RW_N_OCTAVES], hi[RW_N_OCTAVES];

  for (guint i = 0; sel && i < n; i++)
    if (sel[i] && n_selected++ == 0)
      first = i;
  gtk_widget_set_sensitive (GTK_WIDGET (self->editor_grid), n_selected > 0);
  collect_entries (self, n_selected > 0 ? sel : NULL, n, lo, hi);
  show_mixed_bands (self, lo, hi);
  update_legend (self);
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
rw_materials_panel_finalize (GObject *object)
{
  RwMaterialsPanel *self = RW_MATERIALS_PANEL (object);

  g_array_unref (self->entries);
  G_OBJECT_CLASS (rw_materials_panel_parent_class)->finalize (object);
}

static void
rw_materials_panel_class_init (RwMaterialsPanelClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = rw_materials_panel_dispose;
  G_OBJECT_CLASS (klass)->finalize = rw_materials_panel_finalize;
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
  gtk_widget_class_bind_template_child (widget_class, RwMaterialsPanel, mixed_label);
  gtk_widget_class_bind_template_child (widget_class, RwMaterialsPanel, alpha_plot);
  gtk_widget_class_bind_template_child (widget_class, RwMaterialsPanel, fit_label);
  gtk_widget_class_bind_template_child (widget_class, RwMaterialsPanel, legend_box);
  gtk_widget_class_bind_template_callback (widget_class, on_selection_changed);

  signals[SELECTION_CHANGED] =
    g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

static void
rw_materials_panel_init (RwMaterialsPanel *self)
{
  self->entries = g_array_new (FALSE, TRUE, sizeof (RwMaterialsPlotEntry));
  g_array_set_clear_func (self->entries, clear_entry);
  self->n_bands_fit = RW_N_OCTAVES;
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect_swapped (self->material_dropdown, "notify::selected", G_CALLBACK (on_material_selected), self);
  g_signal_connect_swapped (self->r_spin, "value-changed", G_CALLBACK (on_r_changed), self);
  g_signal_connect_swapped (self->alpha_spin, "value-changed", G_CALLBACK (on_alpha_changed), self);
  for (int b = 0; b < RW_N_OCTAVES; b++)
    {
      g_autofree char *id = g_strdup_printf ("alpha-band-%d", b);
      g_autofree char *tip = band_tooltip (b);
      GtkWidget *label = gtk_label_new (band_names[b]);
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
