/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-results-view.c — see rw-results-view.h. */
#include "rw-results-view.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>

#include "rw-compare-view.h"
#include "rw-listen-view.h"
#include "rw-plot-view.h"

/* At most this many room modes are marked: beyond the first few hundred
 * the markers merge into a band and say nothing. */
#define MAX_MODES_SHOWN 300

struct _RwResultsView
{
  GtkBox parent_instance;

  GtkDropDown *receiver_dropdown;
  GtkStringList *receiver_list;
  GtkDropDown *smoothing_dropdown;
  GtkLabel *summary_label;
  GtkNotebook *notebook;
  RwPlotView *ir_plot, *edc_plot, *bars_plot, *freq_plot;
  GtkGrid *params_grid;
  GtkButton *copy_button, *export_button;
  RwListenView *listen_view;
  RwCompareView *compare_view;

  RwSimOutput *out;
  guint receiver;
  RwSpectrum spectrum;
  gboolean have_spectrum;
  RwRoomMode *modes;
  size_t n_modes;
  char *series_label;
  gboolean stale;

  /* The axes each plot last drew with, and the area they are for: the
   * hover read-out maps the pointer through them (rw-plot.h). An export
   * draws at another size, so a read-out checks the area and redraws
   * off screen when it differs. */
  RwPlotAxes ir_axes, freq_axes, bars_axes[3], edc_axes[RW_ANALYSIS_N_BANDS];
  size_t n_edc_axes;
  RwRect ir_axes_area, freq_axes_area, bars_axes_area, edc_axes_area;

  /* ISO 3382-1 spatial average over the receivers with an analysis, when
   * there are two or more (rw_analysis_average): a second series in the
   * bars, a second block in the table. */
  RwAnalysis average;
  gboolean have_average;
  char *average_label;
};

G_DEFINE_TYPE (RwResultsView, rw_results_view, GTK_TYPE_BOX)

static const int smoothing_fractions[] = { 0, 3, 6, 12 };

static const RwAnalysis *
current_analysis (RwResultsView *self)
{
  if (self->out == NULL || self->receiver >= self->out->n_receivers || !self->out->analysis_ok[self->receiver])
    return NULL;
  return &self->out->analysis[self->receiver];
}

/* What the results say about their IRs' validity (rw-results.h): a
 * wave-only run is valid to fmax; a hybrid one to the Nyquist frequency,
 * the wave part below its crossover and the geometrical part above it. */
static RwIrValidity
validity_of (const RwResultsView *self)
{
  RwIrValidity v;
  rw_results_validity (&self->out->results, &v);
  return v;
}

/* ---- the plots (each is one rw-plot routine) ---------------------------- */

static void
draw_ir (cairo_t *cr, RwRect area, void *user_data)
{
  RwResultsView *self = user_data;
  RwPlotSignal sig = {
    .label = self->series_label,
    .samples = self->out->ir[self->receiver],
    .n = self->out->ir_frames,
    .rate_hz = self->out->fs_out_hz,
    .scale = 1.0,
  };
  g_autofree char *title = g_strdup_printf (_("Impulse response (valid to %.0f Hz)"),
                                            validity_of (self).valid_up_to_hz);
  rw_plot_ir_axes (cr, area, title, _("Pressure re 1/r at 1 m"), &sig, 1, 0, 0, &self->ir_axes);
  self->ir_axes_area = area;
}

static void
draw_edc (cairo_t *cr, RwRect area, void *user_data)
{
  RwResultsView *self = user_data;
  RwPlotSeries series = { self->series_label, current_analysis (self) };
  rw_plot_edc_grid_axes (cr, area, _("Energy decay per octave band"), 0, &series, 1, RW_PLOT_FIT_T30,
                         self->edc_axes, G_N_ELEMENTS (self->edc_axes), &self->n_edc_axes);
  self->edc_axes_area = area;
}

static void
draw_bars (cairo_t *cr, RwRect area, void *user_data)
{
  RwResultsView *self = user_data;
  RwPlotSeries series[2] = { { self->series_label, current_analysis (self) },
                             { self->average_label, &self->average } };
  static const RwPlotParam params[] = { RW_PLOT_PARAM_T30, RW_PLOT_PARAM_T20, RW_PLOT_PARAM_EDT };
  static const char *titles[] = { N_("T30 per octave band"), N_("T20 per octave band"), N_("EDT per octave band") };
  double h = area.height / 3;

  for (int i = 0; i < 3; i++)
    {
      RwRect r = { area.x, area.y + i * h, area.width, h };
      rw_plot_band_bars_axes (cr, r, _(titles[i]), params[i], series, self->have_average ? 2 : 1,
                              &self->bars_axes[i]);
    }
  self->bars_axes_area = area;
}

static void
draw_freq (cairo_t *cr, RwRect area, void *user_data)
{
  RwResultsView *self = user_data;
  RwPlotSpectrum sp = { self->series_label, &self->spectrum, 0 };
  RwIrValidity v = validity_of (self);
  rw_plot_frequency_response_axes (cr, area, _("Frequency response"), &sp, 1, 0, 0,
                                   v.valid_up_to_hz, v.crossover_hz, self->modes, self->n_modes,
                                   &self->freq_axes);
  self->freq_axes_area = area;
}

/* ---- hover read-outs (the axes the plots drew with) ---------------------- */

static gboolean
same_area (RwRect a, RwRect b)
{
  return a.x == b.x && a.y == b.y && a.width == b.width && a.height == b.height;
}

/* Makes sure the axes behind *cached are those of area: when the last
 * drawing was for another size (an export), draws once more into a
 * recording surface, which rasterises nothing. */
static void
refresh_axes (RwResultsView *self, RwPlotDrawFn draw, RwRect area, const RwRect *cached)
{
  if (same_area (*cached, area))
    return;
  cairo_rectangle_t ext = { area.x, area.y, area.width, area.height };
  cairo_surface_t *s = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, &ext);
  cairo_t *cr = cairo_create (s);
  draw (cr, area, self);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

/* Widget y of value v on a's y axis, NAN when it is off the plot. */
static double
mark_at (const RwPlotAxes *a, double v)
{
  if (!isfinite (v) || v < fmin (a->y0, a->y1) || v > fmax (a->y0, a->y1))
    return NAN;
  return rw_plot_axes_device_y (a, v);
}

static char *
readout_freq (RwRect area, double x, double y, RwPlotHover *hover, void *user_data)
{
  RwResultsView *self = user_data;
  if (!self->have_spectrum || self->out == NULL)
    return NULL;
  refresh_axes (self, draw_freq, area, &self->freq_axes_area);
  const RwPlotAxes *a = &self->freq_axes;
  if (!rw_plot_axes_contains (a, x, y) || self->spectrum.n == 0)
    return NULL;
  double f = rw_plot_axes_data_x (a, x);
  /* The level of the curve at the pointer's frequency (the nearest bin;
   * the bins are ascending), not the pointer's height: the reader wants
   * the response, the pointer only picks the frequency. */
  const RwSpectrum *sp = &self->spectrum;
  size_t lo = 0, hi = sp->n - 1;
  while (hi - lo > 1)
    {
      size_t mid = (lo + hi) / 2;
      if (sp->frequency_hz[mid] <= f)
        lo = mid;
      else
        hi = mid;
    }
  size_t k = fabs (sp->frequency_hz[hi] - f) < fabs (sp->frequency_hz[lo] - f) ? hi : lo;
  hover->frame = a->frame;
  hover->mark_y = mark_at (a, sp->level_db[k]);
  g_autofree char *fs = rw_plot_view_format_frequency (f);
  g_autofree char *level = rw_plot_view_format_signed (sp->level_db[k], 1);
  GString *text = g_string_new (NULL);
  g_string_printf (text, _("%s, %s dB"), fs, level);
  /* A room mode within a few pixels of the pointer is named. */
  double best = 4.0;
  const RwRoomMode *mode = NULL;
  for (size_t i = 0; i < self->n_modes; i++)
    {
      double d = fabs (rw_plot_axes_device_x (a, self->modes[i].frequency_hz) - x);
      if (d < best)
        {
          best = d;
          mode = &self->modes[i];
        }
    }
  if (mode != NULL)
    {
      g_autofree char *mf = rw_plot_view_format_frequency (mode->frequency_hz);
      g_string_append_printf (text, _(" · mode (%d,%d,%d) at %s"), mode->l, mode->m, mode->n, mf);
    }
  if (f > validity_of (self).valid_up_to_hz)
    g_string_append (text, _(" · above fmax"));
  return g_string_free (text, FALSE);
}

static char *
readout_ir (RwRect area, double x, double y, RwPlotHover *hover, void *user_data)
{
  RwResultsView *self = user_data;
  if (self->out == NULL)
    return NULL;
  refresh_axes (self, draw_ir, area, &self->ir_axes_area);
  const RwPlotAxes *a = &self->ir_axes;
  if (!rw_plot_axes_contains (a, x, y))
    return NULL;
  double t = rw_plot_axes_data_x (a, x);
  double t_s = g_str_equal (a->x_unit, "ms") ? t / 1000 : t;
  double i = round (t_s * self->out->fs_out_hz);
  double p = i >= 0 && i < self->out->ir_frames ? self->out->ir[self->receiver][(size_t) i] : NAN;
  hover->frame = a->frame;
  hover->mark_y = mark_at (a, p);
  g_autofree char *ts = rw_plot_view_format_signed (t, g_str_equal (a->x_unit, "ms") ? 2 : 4);
  g_autofree char *ps = isfinite (p) ? g_strdup_printf ("%s%.4g", p < 0 ? "−" : "", fabs (p)) : g_strdup (_("n/a"));
  /* %s after "t =" is the time, then its unit (ms or s), then the
   * pressure re 1/r at 1 m */
  return g_strdup_printf (_("t = %s %s, p = %s"), ts, a->x_unit, ps);
}

static char *
readout_edc (RwRect area, double x, double y, RwPlotHover *hover, void *user_data)
{
  RwResultsView *self = user_data;
  const RwAnalysis *an = current_analysis (self);
  if (an == NULL)
    return NULL;
  refresh_axes (self, draw_edc, area, &self->edc_axes_area);
  int i = rw_plot_axes_find (self->edc_axes, self->n_edc_axes, x, y);
  if (i < 0)
    return NULL;
  const RwPlotAxes *a = &self->edc_axes[i];
  const RwBandResult *b = &an->bands[a->band];
  double t = rw_plot_axes_data_x (a, x);
  double k = round (t * an->rate_hz);
  double level = b->analysed && k >= 0 && k < b->n_edc ? b->edc_db[(size_t) k] : NAN;
  hover->frame = a->frame;
  hover->mark_y = mark_at (a, level);
  g_autofree char *band = a->band == RW_ANALYSIS_BROADBAND ? g_strdup (_("Broadband"))
                                                            : rw_plot_view_format_frequency (rw_octave_centres_hz[a->band]);
  g_autofree char *ls = rw_plot_view_format_signed (level, 1);
  if (!isfinite (level))
    return g_strdup_printf (_("%s · t = %.3f s, no decay curve"), band, t);
  return g_strdup_printf (_("%s · t = %.3f s, %s dB"), band, t, ls);
}

static char *
readout_bars (RwRect area, double x, double y, RwPlotHover *hover, void *user_data)
{
  RwResultsView *self = user_data;
  const RwAnalysis *an = current_analysis (self);
  if (an == NULL)
    return NULL;
  refresh_axes (self, draw_bars, area, &self->bars_axes_area);
  int i = rw_plot_axes_find (self->bars_axes, G_N_ELEMENTS (self->bars_axes), x, y);
  if (i < 0)
    return NULL;
  const RwPlotAxes *a = &self->bars_axes[i];
  int which = 0;
  int band = rw_plot_axes_bar_at (a, x, y, &which);
  if (band < 0)
    return NULL;
  const RwBandResult *b = which == 1 && self->have_average ? &self->average.bands[band] : &an->bands[band];
  double v = rw_plot_param_value (b, a->param);
  hover->frame = a->frame;
  g_autofree char *fs = rw_plot_view_format_frequency (rw_octave_centres_hz[band]);
  g_autofree char *vs = rw_plot_view_format_signed (v, a->param == RW_PLOT_PARAM_TS ? 0 : 2);
  const char *unit = rw_plot_param_unit (a->param);
  g_autofree char *text = g_strdup_printf ("%s: %s %s%s%s", fs, rw_plot_param_name (a->param), vs,
                                           *unit && isfinite (v) ? " " : "", isfinite (v) ? unit : "");
  if (b->above_fmax)
    return g_strconcat (text, _(" · above fmax"), NULL);
  if (b->method != RW_BAND_METHOD_UNKNOWN && isfinite (an->crossover_hz))
    return g_strconcat (text, " · ", rw_band_method_label (b->method), NULL);
  return g_steal_pointer (&text);
}

/* ---- table -------------------------------------------------------------- */

static char *
format_value (double v, const char *fmt)
{
  if (!isfinite (v))
    return g_strdup ("—");
  return g_strdup_printf (fmt, v);
}

/* One block of the table from `row0` on: a heading row (`title` in the
 * band column), then a row per band. */
static void
fill_table_block (RwResultsView *self, const RwAnalysis *a, const char *title, int row0)
{
  static const char *fmts[RW_PLOT_N_PARAMS] = { "%.2f", "%.2f", "%.2f", "%.1f", "%.1f", "%.2f", "%.0f" };
  GtkWidget *h = gtk_label_new (title);
  gtk_widget_add_css_class (h, "heading");
  gtk_label_set_xalign (GTK_LABEL (h), 0);
  gtk_grid_attach (self->params_grid, h, 0, row0, 1, 1);
  for (int p = 0; p < RW_PLOT_N_PARAMS; p++)
    {
      const char *unit = rw_plot_param_unit (p);
      g_autofree char *text = unit[0] ? g_strdup_printf ("%s (%s)", rw_plot_param_name (p), unit)
                                      : g_strdup (rw_plot_param_name (p));
      h = gtk_label_new (text);
      gtk_widget_add_css_class (h, "heading");
      gtk_grid_attach (self->params_grid, h, p + 1, row0, 1, 1);
    }
  for (int b = 0; b < RW_ANALYSIS_N_BANDS; b++)
    {
      const RwBandResult *band = &a->bands[b];
      const int row = row0 + 1 + b;
      g_autofree char *name = b == RW_ANALYSIS_BROADBAND ? g_strdup (_("Broadband"))
                                                          : g_strdup_printf (_("%g Hz"), rw_octave_centres_hz[b]);
      GtkWidget *l = gtk_label_new (name);
      gtk_label_set_xalign (GTK_LABEL (l), 0);
      gtk_grid_attach (self->params_grid, l, 0, row, 1, 1);
      for (int p = 0; p < RW_PLOT_N_PARAMS; p++)
        {
          g_autofree char *v = format_value (rw_plot_param_value (band, p), fmts[p]);
          l = gtk_label_new (v);
          gtk_label_set_xalign (GTK_LABEL (l), 1);
          gtk_label_set_selectable (GTK_LABEL (l), TRUE);
          if (band->above_fmax)
            gtk_widget_add_css_class (l, "rw-above-fmax");
          gtk_grid_attach (self->params_grid, l, p + 1, row, 1, 1);
        }
      if (band->above_fmax || !band->analysed)
        {
          l = gtk_label_new (!band->analysed ? band->absent_reason : _("above fmax: not valid"));
          gtk_widget_add_css_class (l, "rw-above-fmax");
          gtk_label_set_xalign (GTK_LABEL (l), 0);
          gtk_grid_attach (self->params_grid, l, RW_PLOT_N_PARAMS + 1, row, 1, 1);
        }
      else if (isfinite (a->crossover_hz))
        {
          /* a hybrid IR: which method made the band */
          l = gtk_label_new (rw_band_method_label (band->method));
          gtk_label_set_xalign (GTK_LABEL (l), 0);
          gtk_grid_attach (self->params_grid, l, RW_PLOT_N_PARAMS + 1, row, 1, 1);
        }
    }
}

/* The selected receiver's parameters and, for two or more receivers, their
 * spatial average below. */
static void
fill_table (RwResultsView *self)
{
  GtkWidget *child;
  const RwAnalysis *a = current_analysis (self);

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->params_grid))) != NULL)
    gtk_grid_remove (self->params_grid, child);
  if (self->out == NULL)
    return;
  if (a == NULL)
    {
      const char *why = self->out->analysis_error[self->receiver];
      GtkWidget *l = gtk_label_new (why ? why : _("No analysis."));
      gtk_label_set_wrap (GTK_LABEL (l), TRUE);
      gtk_grid_attach (self->params_grid, l, 0, 0, 1, 1);
      return;
    }
  fill_table_block (self, a, _("Band"), 0);
  if (self->have_average)
    {
      /* a blank row between the blocks */
      gtk_grid_attach (self->params_grid, gtk_label_new (""), 0, RW_ANALYSIS_N_BANDS + 1, 1, 1);
      fill_table_block (self, &self->average, self->average_label, RW_ANALYSIS_N_BANDS + 2);
    }
}

char *
rw_results_view_table_csv (RwResultsView *self)
{
  const RwAnalysis *a = current_analysis (self);
  GString *s = g_string_new ("band_hz");

  if (a == NULL)
    return g_string_free (s, TRUE), NULL;
  for (int p = 0; p < RW_PLOT_N_PARAMS; p++)
    {
      const char *unit = rw_plot_param_unit (p);
      g_string_append_printf (s, ",%s%s%s", rw_plot_param_name (p), unit[0] ? "_" : "", unit);
    }
  g_string_append (s, ",above_fmax,method\n");
  for (int b = 0; b < RW_ANALYSIS_N_BANDS; b++)
    {
      const RwBandResult *band = &a->bands[b];
      if (b == RW_ANALYSIS_BROADBAND)
        g_string_append (s, "broadband");
      else
        g_string_append_printf (s, "%g", rw_octave_centres_hz[b]);
      for (int p = 0; p < RW_PLOT_N_PARAMS; p++)
        {
          double v = rw_plot_param_value (band, p);
          /* CSV numbers always with a decimal point (g_ascii_dtostr). */
          char buf[G_ASCII_DTOSTR_BUF_SIZE];
          if (isfinite (v))
            g_string_append_printf (s, ",%s", g_ascii_formatd (buf, sizeof buf, "%.4g", v));
          else
            g_string_append (s, ",");
        }
      /* the method's identifier (rw_band_method_name: "wave",
       * "geometrical", "both", …), as `analyse --json` gives it */
      g_string_append_printf (s, ",%s,%s\n", band->above_fmax ? "yes" : "no",
                              rw_band_method_name (band->method));
    }
  return g_string_free (s, FALSE);
}

/* ---- updating ----------------------------------------------------------- */

static void
update_spectrum (RwResultsView *self)
{
  RwError err = { 0 };
  guint sel = gtk_drop_down_get_selected (self->smoothing_dropdown);
  int frac = smoothing_fractions[MIN (sel, G_N_ELEMENTS (smoothing_fractions) - 1)];

  if (self->have_spectrum)
    rw_spectrum_clear (&self->spectrum);
  self->have_spectrum = FALSE;
  if (self->out == NULL)
    return;
  /* a hybrid IR is full band: its whole spectrum */
  double f_hi = MIN (validity_of (self).hybrid ? INFINITY : self->out->fmax_hz * 2.0, self->out->fs_out_hz / 2);
  self->have_spectrum = rw_frequency_response (self->out->ir[self->receiver], self->out->ir_frames,
                                               self->out->fs_out_hz, frac, 20.0, f_hi, 0,
                                               &self->spectrum, &err);
  if (!self->have_spectrum)
    g_warning ("frequency response: %s", err.message);
}

/* New data: the axes drawn so far no longer apply. */
static void
forget_axes (RwResultsView *self)
{
  RwRect none = { 0, 0, -1, -1 };
  self->ir_axes_area = self->freq_axes_area = self->bars_axes_area = self->edc_axes_area = none;
}

static void
update_all (RwResultsView *self)
{
  gboolean have = self->out != NULL;
  gboolean have_analysis = current_analysis (self) != NULL;

  g_free (self->series_label);
  self->series_label = have ? g_strdup_printf (_("Receiver %u (simulated)"), self->receiver + 1) : NULL;
  update_spectrum (self);
  forget_axes (self);
  rw_plot_view_set_draw (self->ir_plot, have ? draw_ir : NULL, readout_ir, self);
  rw_plot_view_set_draw (self->edc_plot, have_analysis ? draw_edc : NULL, readout_edc, self);
  rw_plot_view_set_draw (self->bars_plot, have_analysis ? draw_bars : NULL, readout_bars, self);
  rw_plot_view_set_draw (self->freq_plot, self->have_spectrum ? draw_freq : NULL, readout_freq, self);
  fill_table (self);
  gtk_widget_set_sensitive (GTK_WIDGET (self->copy_button), have_analysis);
  gtk_widget_set_sensitive (GTK_WIDGET (self->export_button), have);

  if (have)
    {
      g_autofree char *summary =
        g_strdup_printf (_("Valid to %.0f Hz · %s, grid %zu × %zu × %zu, h = %.1f mm, fs = %.0f Hz · %s (%s) · %.1f Mvox/s"),
                         validity_of (self).valid_up_to_hz,
                         rw_project_scheme_label (self->out->results.result.scheme),
                         self->out->nx, self->out->ny, self->out->nz,
                         self->out->spacing_m * 1e3, self->out->fs_grid_hz, self->out->backend,
                         self->out->device, self->out->mvox_per_s);
      g_autofree char *text = self->stale
        ? g_strdup_printf (_("Out of date: the project changed since this run · %s"), summary)
        : g_strdup (summary);
      gtk_label_set_text (self->summary_label, text);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->summary_label), text);
      if (self->stale)
        gtk_widget_add_css_class (GTK_WIDGET (self->summary_label), "warning");
      else
        gtk_widget_remove_css_class (GTK_WIDGET (self->summary_label), "warning");
    }
  else
    gtk_label_set_text (self->summary_label, _("No results yet: run a simulation."));
}

static void
on_receiver_selected (RwResultsView *self)
{
  guint sel = gtk_drop_down_get_selected (self->receiver_dropdown);
  if (self->out == NULL || sel == GTK_INVALID_LIST_POSITION || sel >= self->out->n_receivers)
    return;
  if (sel != self->receiver)
    {
      self->receiver = sel;
      update_all (self);
    }
}

static void
on_smoothing_selected (RwResultsView *self)
{
  update_spectrum (self);
  forget_axes (self);
  rw_plot_view_set_draw (self->freq_plot, self->have_spectrum ? draw_freq : NULL, readout_freq, self);
}

/* The spatial average of the receivers that have an analysis. */
static void
update_average (RwResultsView *self)
{
  if (self->have_average)
    rw_analysis_clear (&self->average);
  self->have_average = FALSE;
  g_clear_pointer (&self->average_label, g_free);
  if (self->out == NULL)
    return;
  g_autofree RwAnalysis *ok = g_new0 (RwAnalysis, MAX (self->out->n_receivers, 1));
  size_t n = 0;
  for (size_t r = 0; r < self->out->n_receivers; r++)
    if (self->out->analysis_ok[r])
      ok[n++] = self->out->analysis[r];
  RwError err = { 0 };
  if (n >= 2 && rw_analysis_average (ok, n, &self->average, &err))
    {
      self->have_average = TRUE;
      self->average_label = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Mean of %zu receiver",
                                                          "Mean of %zu receivers", n), n);
    }
}

void
rw_results_view_take_output (RwResultsView *self, RwSimOutput *out, const double *box_m)
{
  g_clear_pointer (&self->modes, free);
  self->n_modes = 0;
  rw_listen_view_set_output (self->listen_view, NULL);
  rw_compare_view_set_output (self->compare_view, NULL);
  g_clear_pointer (&self->out, rw_sim_output_unref);
  self->stale = FALSE;
  self->out = out;
  self->receiver = 0;
  update_average (self);
  rw_listen_view_set_output (self->listen_view, out);
  rw_compare_view_set_output (self->compare_view, out);

  g_signal_handlers_block_by_func (self->receiver_dropdown, on_receiver_selected, self);
  guint n_old = g_list_model_get_n_items (G_LIST_MODEL (self->receiver_list));
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  for (guint r = 0; out != NULL && r < out->n_receivers; r++)
    g_ptr_array_add (names, g_strdup_printf (_("Receiver %u"), r + 1));
  g_ptr_array_add (names, NULL);
  gtk_string_list_splice (self->receiver_list, 0, n_old, (const char *const *) names->pdata);
  gtk_drop_down_set_selected (self->receiver_dropdown, 0);
  g_signal_handlers_unblock_by_func (self->receiver_dropdown, on_receiver_selected, self);

  if (out != NULL && box_m != NULL)
    {
      RwError err = { 0 };
      if (rw_room_modes (box_m[0], box_m[1], box_m[2], out->c, out->fmax_hz, &self->modes, &self->n_modes, &err))
        self->n_modes = MIN (self->n_modes, MAX_MODES_SHOWN);
      else
        self->n_modes = 0;
    }
  update_all (self);
}

const RwSimOutput *
rw_results_view_get_output (RwResultsView *self)
{
  return self->out;
}

const RwAnalysis *
rw_results_view_get_average (RwResultsView *self)
{
  return self->have_average ? &self->average : NULL;
}

void
rw_results_view_set_stale (RwResultsView *self, gboolean stale)
{
  if (self->stale == !!stale)
    return;
  self->stale = !!stale;
  update_all (self);
}

gboolean
rw_results_view_get_stale (RwResultsView *self)
{
  return self->stale;
}

GtkWidget *
rw_results_view_get_listen_view (RwResultsView *self)
{
  return GTK_WIDGET (self->listen_view);
}

GtkWidget *
rw_results_view_get_compare_view (RwResultsView *self)
{
  return GTK_WIDGET (self->compare_view);
}

void
rw_results_view_show_page (RwResultsView *self, int page)
{
  gtk_notebook_set_current_page (self->notebook, page);
}

gboolean
rw_results_view_is_filled (RwResultsView *self)
{
  return self->out != NULL
         && rw_plot_view_has_plot (self->ir_plot) && rw_plot_view_has_plot (self->edc_plot)
         && rw_plot_view_has_plot (self->bars_plot) && rw_plot_view_has_plot (self->freq_plot)
         && gtk_widget_get_first_child (GTK_WIDGET (self->params_grid)) != NULL;
}

/* ---- buttons ------------------------------------------------------------ */

static void
on_copy_clicked (RwResultsView *self)
{
  g_autofree char *csv = rw_results_view_table_csv (self);
  if (csv != NULL)
    gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), csv);
}

static RwPlotView *
current_plot (RwResultsView *self)
{
  switch (gtk_notebook_get_current_page (self->notebook))
    {
    case 0: return self->ir_plot;
    case 1: return self->edc_plot;
    case 2: return self->bars_plot;
    case 3: return self->freq_plot;
    default: return NULL;
    }
}

static void
show_error (RwResultsView *self, const char *message)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *dialog = gtk_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                              GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                              GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE,
                                              "%s", _("The plot could not be exported"));
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", message);
  g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
on_export_response (GtkNativeDialog *native, int response, RwResultsView *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));
      g_autofree char *path = g_file_get_path (file);
      RwPlotView *plot = current_plot (self);
      g_autoptr (GError) error = NULL;
      if (plot == NULL)
        plot = self->ir_plot;
      if (path != NULL && !rw_plot_view_export (plot, path, &error))
        show_error (self, error->message);
    }
  g_object_unref (native);
}

static void
on_export_clicked (RwResultsView *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkFileChooserNative *native =
    gtk_file_chooser_native_new (_("Export Plot"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                 GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  g_autoptr (GtkFileFilter) png = gtk_file_filter_new ();
  g_autoptr (GtkFileFilter) svg = gtk_file_filter_new ();

  gtk_file_filter_set_name (png, _("PNG image"));
  gtk_file_filter_add_pattern (png, "*.png");
  gtk_file_filter_set_name (svg, _("SVG drawing"));
  gtk_file_filter_add_pattern (svg, "*.svg");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (native), png);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (native), svg);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (native), "plot.png");
  g_signal_connect (native, "response", G_CALLBACK (on_export_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

/* ---- class -------------------------------------------------------------- */

static void
rw_results_view_dispose (GObject *object)
{
  RwResultsView *self = RW_RESULTS_VIEW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), RW_TYPE_RESULTS_VIEW);
  G_OBJECT_CLASS (rw_results_view_parent_class)->dispose (object);
}

static void
rw_results_view_finalize (GObject *object)
{
  RwResultsView *self = RW_RESULTS_VIEW (object);

  rw_sim_output_unref (self->out);
  if (self->have_spectrum)
    rw_spectrum_clear (&self->spectrum);
  free (self->modes);
  g_free (self->series_label);
  if (self->have_average)
    rw_analysis_clear (&self->average);
  g_free (self->average_label);
  G_OBJECT_CLASS (rw_results_view_parent_class)->finalize (object);
}

static void
rw_results_view_class_init (RwResultsViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = rw_results_view_dispose;
  G_OBJECT_CLASS (klass)->finalize = rw_results_view_finalize;
  g_type_ensure (RW_TYPE_PLOT_VIEW);
  g_type_ensure (RW_TYPE_LISTEN_VIEW);
  g_type_ensure (RW_TYPE_COMPARE_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/roomwave/Roomwave/rw-results-view.ui");
  gtk_widget_class_bind_template_child (widget_class, RwResultsView, receiver_dropdown);
  gtk_widget_class_bind_template_child (widget_class, RwResultsView, receiver_list);
  gtk_widget_class_bind_template_child (widget_class, RwResultsView, smoothing_dropdown);
  gtk_widget_class_bind_template_child (widget_class, RwResultsView, summary_label);
  gtk_widget_class_bind_template_child (widget_class, RwResultsView, notebook);
  gtk_widget_class_bind_template_child (widget_class, RwResultsView, ir_plot);
  gtk_widget_class_bind_template_child (widget_class, RwResultsView, edc_plot);
  gtk_widget_class_bind_template_child (widget_class, RwResultsView, bars_plot);
  gtk_widget_class_bind_template_child (widget_class, RwResultsView, freq_plot);
  gtk_widget_class_bind_template_child (widget_class, RwResultsView, params_grid);
  gtk_widget_class_bind_template_child (widget_class, RwResultsView, copy_button);
  gtk_widget_class_bind_template_child (widget_class, RwResultsView, export_button);
  gtk_widget_class_bind_template_child (widget_class, RwResultsView, listen_view);
  gtk_widget_class_bind_template_child (widget_class, RwResultsView, compare_view);
  gtk_widget_class_bind_template_callback (widget_class, on_copy_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_export_clicked);
}

static void
rw_results_view_init (RwResultsView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect_swapped (self->receiver_dropdown, "notify::selected", G_CALLBACK (on_receiver_selected), self);
  g_signal_connect_swapped (self->smoothing_dropdown, "notify::selected", G_CALLBACK (on_smoothing_selected), self);
  update_all (self);
}
