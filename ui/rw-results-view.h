/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-results-view.h — the Results page: IR, energy decay per band,
 * EDT/T20/T30 bars, frequency response with smoothing and room modes, the
 * ISO 3382-1 parameter table (copy as CSV), plot export (PNG/SVG).
 *
 * Every plot is one of the engine's rw-plot routines drawn into an
 * RwPlotView; bands above the simulation's fmax are flagged by those
 * routines and in the table. */
#pragma once

#include <gtk/gtk.h>
#include "rw-sim-job.h"

G_BEGIN_DECLS

#define RW_TYPE_RESULTS_VIEW (rw_results_view_get_type ())
G_DECLARE_FINAL_TYPE (RwResultsView, rw_results_view, RW, RESULTS_VIEW, GtkBox)

/* Takes ownership of out (NULL clears). box_m: the room's dimensions when
 * it is a rectangular room (room modes are then marked), else NULL. */
void rw_results_view_take_output (RwResultsView *self, RwSimOutput *out, const double *box_m);
const RwSimOutput *rw_results_view_get_output (RwResultsView *self);
/* The receivers' ISO 3382-1 spatial average shown beside the selected
 * receiver (NULL with fewer than two analysed receivers). */
const RwAnalysis *rw_results_view_get_average (RwResultsView *self);
/* Marks the results as older than the project's current materials, points
 * or settings (cleared by the next output). */
void rw_results_view_set_stale (RwResultsView *self, gboolean stale);
gboolean rw_results_view_get_stale (RwResultsView *self);
/* The parameter table of the shown receiver as CSV (newly allocated). */
char *rw_results_view_table_csv (RwResultsView *self);
/* The Listen (RwListenView) and Compare (RwCompareView) pages. */
GtkWidget *rw_results_view_get_listen_view (RwResultsView *self);
GtkWidget *rw_results_view_get_compare_view (RwResultsView *self);
/* For tests and screenshots: the notebook page to show (0 IR, 1 decay,
 * 2 reverberation, 3 frequency response, 4 parameters, 5 listen,
 * 6 compare). */
void rw_results_view_show_page (RwResultsView *self, int page);
/* TRUE when every plot has something to draw. */
gboolean rw_results_view_is_filled (RwResultsView *self);

G_END_DECLS
