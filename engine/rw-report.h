/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-report.h — the comparison report: PDF (cairo), CSV, JSON, text.
 *
 * PDF, A4 portrait, four pages (docs/REPORT.md §3):
 *   1  title, files, channels, rates, onsets, fmax and where it came from,
 *      the JNDs used, a summary; the IR overlay (whole, and first 100 ms)
 *   2  the parameter table (bands across; simulated, measured, difference;
 *      cells over the JND tinted and starred; bands above fmax shaded),
 *      T30 bars
 *   3  energy decay curves per band, simulated over measured, T30 fits
 *   4  frequency response overlay (1/6 octave), EDT and C80 bars
 * Text is real PDF text (cairo toy font API, "sans-serif"): pdftotext
 * extracts it.
 *
 * CSV: one row per band and parameter: band_hz, parameter, unit,
 * simulated, measured, difference, relative_difference, jnd, jnd_relative,
 * exceeds_jnd, above_fmax (empty fields for absent values).
 * JSON: the same content with the settings (schema in docs/REPORT.md).
 * Files are written atomically (temporary file in the same folder,
 * renamed); a failure leaves nothing behind.
 */
#pragma once

#include <stdbool.h>
#include "rw-compare.h"
#include "rw-error.h"

bool rw_report_write_pdf (const char *path, const RwComparison *cmp, RwError *err);
bool rw_report_write_csv (const char *path, const RwComparison *cmp, RwError *err);
bool rw_report_write_json (const char *path, const RwComparison *cmp, RwError *err);

/* Newly allocated strings (free()). */
char *rw_report_to_csv (const RwComparison *cmp);
char *rw_report_to_json (const RwComparison *cmp);
/* The table as plain text for a terminal (bands across). */
char *rw_report_to_text (const RwComparison *cmp);

/* Page n (0 … RW_REPORT_N_PAGES − 1) of the PDF drawn into any cairo
 * context over a width × height area in points (the GUI's preview). */
#define RW_REPORT_N_PAGES 4
void rw_report_draw_page (cairo_t *cr, int page, double width, double height,
                          const RwComparison *cmp);
