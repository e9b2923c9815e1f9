/* rw-plot-view.h — a widget that shows one of the engine's plots.
 *
 * The drawing is the engine's (rw-plot.h): the view only hands its
 * cairo_t and allocation to an RwPlotDrawFn, so the screen, the PNG/SVG
 * export (rw_plot_write_png/svg with the same function) and the PDF report
 * show the same picture. A hover read-out shows the pointer's position as
 * a fraction of the plot rectangle's axes only when the owner supplies a
 * read-out function. */
#pragma once

#include <gtk/gtk.h>
#include "rw-plot.h"

G_BEGIN_DECLS

#define RW_TYPE_PLOT_VIEW (rw_plot_view_get_type ())
G_DECLARE_FINAL_TYPE (RwPlotView, rw_plot_view, RW, PLOT_VIEW, GtkDrawingArea)

/* Returns a newly allocated read-out for widget point (x, y) in area, or
 * NULL for none. */
typedef char *(*RwPlotReadoutFn) (RwRect area, double x, double y, void *user_data);

GtkWidget *rw_plot_view_new (void);
/* draw NULL → empty. user_data is borrowed and must outlive the setting. */
void rw_plot_view_set_draw (RwPlotView *self, RwPlotDrawFn draw, RwPlotReadoutFn readout,
                            void *user_data);
gboolean rw_plot_view_has_plot (RwPlotView *self);
/* Writes the plot at the widget's size (PNG) or in points (SVG); the
 * extension of path chooses (.png, .svg). */
gboolean rw_plot_view_export (RwPlotView *self, const char *path, GError **error);

G_END_DECLS
