/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-plot-view.h — a widget that shows one of the engine's plots.
 *
 * The drawing is the engine's (rw-plot.h): the view only hands its
 * cairo_t and allocation to an RwPlotDrawFn, so the screen, the PNG/SVG
 * export (rw_plot_write_png/svg with the same function) and the PDF report
 * show the same picture. When the owner supplies a read-out function, a
 * hover read-out follows the pointer (GtkEventControllerMotion): the
 * function maps the pointer through the axes the plot drew with
 * (RwPlotAxes, rw-plot.h) and returns NULL outside the data area, where
 * nothing is shown. */
#pragma once

#include <gtk/gtk.h>
#include "rw-plot.h"

G_BEGIN_DECLS

#define RW_TYPE_PLOT_VIEW (rw_plot_view_get_type ())
G_DECLARE_FINAL_TYPE (RwPlotView, rw_plot_view, RW, PLOT_VIEW, GtkDrawingArea)

/* What a read-out function tells the view besides its text. */
typedef struct {
  RwRect frame;             /* the data rectangle under the pointer (widget
                               units): the cross-hair stays inside it */
  double mark_y;            /* widget y of the value read out, marked with a
                               dot on the cross-hair; NAN for none */
} RwPlotHover;

/* Returns a newly allocated read-out for widget point (x, y) in area, or
 * NULL for none (outside the data area); fills *hover (never NULL, preset
 * to the whole area and no mark). */
typedef char *(*RwPlotReadoutFn) (RwRect area, double x, double y, RwPlotHover *hover,
                                  void *user_data);

GtkWidget *rw_plot_view_new (void);
/* draw NULL → empty. user_data is borrowed and must outlive the setting. */
void rw_plot_view_set_draw (RwPlotView *self, RwPlotDrawFn draw, RwPlotReadoutFn readout,
                            void *user_data);
gboolean rw_plot_view_has_plot (RwPlotView *self);
/* The read-out for widget point (x, y) at the widget's current size, e.g.
 * "1.25 kHz, −12.3 dB" (newly allocated), or NULL outside the data area
 * or without a read-out function. */
char *rw_plot_view_get_readout (RwPlotView *self, double x, double y);
/* Shows (or hides) the read-out as if the pointer were at (x, y): for
 * tests and screenshots. */
void rw_plot_view_set_hover (RwPlotView *self, gboolean hovering, double x, double y);
/* Writes the plot at the widget's size (PNG) or in points (SVG); the
 * extension of path chooses (.png, .svg). */
gboolean rw_plot_view_export (RwPlotView *self, const char *path, GError **error);

/* Read-out number formats shared by every view: a value with a real minus
 * sign ("−12.3", "n/a" when not finite), and a frequency ("83.4 Hz",
 * "1.25 kHz"). Newly allocated. */
char *rw_plot_view_format_signed (double v, int decimals);
char *rw_plot_view_format_frequency (double f_hz);

G_END_DECLS
