/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-plot-view.c — see rw-plot-view.h. */
#include "rw-plot-view.h"

#include <glib/gi18n-lib.h>
#include <math.h>

struct _RwPlotView
{
  GtkDrawingArea parent_instance;

  RwPlotDrawFn draw;
  RwPlotReadoutFn readout;
  void *user_data;
  double hover_x, hover_y;
  gboolean hovering;
};

G_DEFINE_TYPE (RwPlotView, rw_plot_view, GTK_TYPE_DRAWING_AREA)

static void
draw_func (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
  RwPlotView *self = RW_PLOT_VIEW (area);
  RwRect rect = { 0, 0, width, height };

  (void) data;
  /* Plots are drawn on white, as in the report. */
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  if (self->draw == NULL)
    return;
  self->draw (cr, rect, self->user_data);

  if (self->hovering && self->readout != NULL)
    {
      RwPlotHover hover = { rect, NAN };
      g_autofree char *text = self->readout (rect, self->hover_x, self->hover_y, &hover, self->user_data);
      if (text != NULL)
        {
          const RwRect *f = &hover.frame;
          /* cross-hair first, under the label, inside the data area only */
          cairo_save (cr);
          cairo_rectangle (cr, f->x, f->y, f->width, f->height);
          cairo_clip (cr);
          cairo_set_source_rgba (cr, 0, 0, 0, 0.35);
          cairo_set_line_width (cr, 1);
          cairo_move_to (cr, floor (self->hover_x) + 0.5, f->y);
          cairo_line_to (cr, floor (self->hover_x) + 0.5, f->y + f->height);
          cairo_stroke (cr);
          if (isfinite (hover.mark_y))
            {
              cairo_arc (cr, self->hover_x, hover.mark_y, 3.5, 0, 2 * G_PI);
              cairo_set_source_rgb (cr, 0, 0, 0);
              cairo_fill (cr);
            }
          cairo_restore (cr);

          PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (area), text);
          int lw, lh;
          pango_layout_get_pixel_size (layout, &lw, &lh);
          /* right of the pointer, or left of it near the right edge, so
           * the label never hides the point read out */
          double x = self->hover_x + 12, y = MAX (self->hover_y - lh - 8, 4);
          if (x + lw + 6 > width)
            x = MAX (self->hover_x - 12 - lw, 4);
          cairo_set_source_rgba (cr, 1, 1, 0.88, 0.95);
          cairo_rectangle (cr, x - 4, y - 2, lw + 8, lh + 4);
          cairo_fill_preserve (cr);
          cairo_set_source_rgb (cr, 0.4, 0.4, 0.4);
          cairo_set_line_width (cr, 1);
          cairo_stroke (cr);
          cairo_set_source_rgb (cr, 0, 0, 0);
          cairo_move_to (cr, x, y);
          pango_cairo_show_layout (cr, layout);
          g_object_unref (layout);
        }
    }
}

static void
on_motion (GtkEventControllerMotion *motion, double x, double y, RwPlotView *self)
{
  (void) motion;
  self->hover_x = x;
  self->hover_y = y;
  self->hovering = TRUE;
  if (self->readout != NULL)
    gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_leave (GtkEventControllerMotion *motion, RwPlotView *self)
{
  (void) motion;
  self->hovering = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
rw_plot_view_set_draw (RwPlotView *self, RwPlotDrawFn draw, RwPlotReadoutFn readout, void *user_data)
{
  self->draw = draw;
  self->readout = readout;
  self->user_data = user_data;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

char *
rw_plot_view_get_readout (RwPlotView *self, double x, double y)
{
  int w = gtk_widget_get_width (GTK_WIDGET (self)), h = gtk_widget_get_height (GTK_WIDGET (self));

  if (self->draw == NULL || self->readout == NULL || w <= 0 || h <= 0)
    return NULL;
  /* The same rectangle draw_func hands the plot. */
  RwRect area = { 0, 0, w, h };
  RwPlotHover hover = { area, NAN };
  return self->readout (area, x, y, &hover, self->user_data);
}

void
rw_plot_view_set_hover (RwPlotView *self, gboolean hovering, double x, double y)
{
  self->hovering = hovering;
  self->hover_x = x;
  self->hover_y = y;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
rw_plot_view_has_plot (RwPlotView *self)
{
  return self->draw != NULL;
}

gboolean
rw_plot_view_export (RwPlotView *self, const char *path, GError **error)
{
  RwError err = { 0 };
  int w = MAX (gtk_widget_get_width (GTK_WIDGET (self)), 800);
  int h = MAX (gtk_widget_get_height (GTK_WIDGET (self)), 500);
  gboolean ok;

  if (self->draw == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("%s: there is no plot to export yet"), path);
      return FALSE;
    }
  if (g_str_has_suffix (path, ".svg") || g_str_has_suffix (path, ".SVG"))
    ok = rw_plot_write_svg (path, w * 0.75, h * 0.75, self->draw, self->user_data, &err);
  else
    ok = rw_plot_write_png (path, w, h, self->draw, self->user_data, &err);
  if (!ok)
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, err.message);
  return ok;
}

static void
rw_plot_view_class_init (RwPlotViewClass *klass)
{
  (void) klass;
}

static void
rw_plot_view_init (RwPlotView *self)
{
  GtkEventController *motion = gtk_event_controller_motion_new ();

  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self), draw_func, NULL, NULL);
  gtk_widget_set_size_request (GTK_WIDGET (self), 360, 240);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
}

GtkWidget *
rw_plot_view_new (void)
{
  return g_object_new (RW_TYPE_PLOT_VIEW, NULL);
}

char *
rw_plot_view_format_signed (double v, int decimals)
{
  if (!isfinite (v))
    return g_strdup (_("n/a"));
  if (v < 0 && fabs (v) >= 0.5 * pow (10.0, -decimals))
    return g_strdup_printf ("−%.*f", decimals, -v);
  return g_strdup_printf ("%.*f", decimals, fabs (v));
}

char *
rw_plot_view_format_frequency (double f_hz)
{
  if (f_hz >= 1000)
    return g_strdup_printf (_("%.2f kHz"), f_hz / 1000);
  return g_strdup_printf (_("%.*f Hz"), f_hz < 100 ? 1 : 0, f_hz);
}
