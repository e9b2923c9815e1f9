/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-compare-view.h — the Compare page: the simulation against a measured
 * impulse response.
 *
 * Load a measured IR (any format and rate libsndfile reads; channel 1);
 * rw_compare_signals aligns the onsets and analyses both; the page shows
 * the report's own pages (rw_report_draw_page: overlays, the parameter
 * table with the just-noticeable differences flagged, decay curves,
 * frequency response), and exports the PDF report (rw_report_write_pdf). */
#pragma once

#include <gtk/gtk.h>
#include "rw-compare.h"
#include "rw-sim-job.h"

G_BEGIN_DECLS

#define RW_TYPE_COMPARE_VIEW (rw_compare_view_get_type ())
G_DECLARE_FINAL_TYPE (RwCompareView, rw_compare_view, RW, COMPARE_VIEW, GtkBox)

/* out is borrowed (the results view owns it); NULL clears. */
void rw_compare_view_set_output (RwCompareView *self, const RwSimOutput *out);
/* Compares receiver 1 with the measured IR at path; errors name the file. */
gboolean rw_compare_view_load_measured (RwCompareView *self, const char *path, GError **error);
/* The same in a worker thread (reading the file, resampling and analysing
 * both IRs: 0.18 s for two IRs of 2 s on a 2-core machine), as the Load
 * button does: the summary line says so and the button waits; a new
 * output (rw_compare_view_set_output), another load or disposal cancels
 * it (finish: G_IO_ERROR_CANCELLED, nothing shown). The simulated IR is
 * copied when the call is made. */
void rw_compare_view_load_measured_async (RwCompareView *self, const char *path, GAsyncReadyCallback callback,
                                          gpointer user_data);
gboolean rw_compare_view_load_measured_finish (RwCompareView *self, GAsyncResult *result, GError **error);
gboolean rw_compare_view_is_loading (RwCompareView *self);
/* NULL until a measurement is loaded. */
const RwComparison *rw_compare_view_get_comparison (RwCompareView *self);
gboolean rw_compare_view_export_pdf (RwCompareView *self, const char *path, GError **error);
void rw_compare_view_show_page (RwCompareView *self, int page);

G_END_DECLS
