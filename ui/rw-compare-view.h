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
/* NULL until a measurement is loaded. */
const RwComparison *rw_compare_view_get_comparison (RwCompareView *self);
gboolean rw_compare_view_export_pdf (RwCompareView *self, const char *path, GError **error);
void rw_compare_view_show_page (RwCompareView *self, int page);

G_END_DECLS
