/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-plot.h — the plots of Roomwave, drawn with cairo.
 *
 * ONE drawing routine per plot. Each draws into any cairo_t inside a given
 * rectangle (user-space units: pixels on screen and in PNG, points in PDF
 * and SVG) and touches nothing outside it; the cairo state is saved and
 * restored. The GUI calls the same routines from a GtkDrawingArea's draw
 * function; the report calls them on PDF pages; rw_plot_write_png/svg wrap
 * any of them for files. docs/REPORT.md §4 shows how.
 *
 * Text uses cairo's toy font API with the "sans-serif" family, which the
 * PDF surface keeps as real text (extractable, searchable; SVG gets glyph
 * outlines). Font sizes follow the rectangle's height (legible from about
 * 240 × 160 units up). Each plot paints its rectangle white first.
 *
 * Colours: the Okabe–Ito palette (colour-blind safe); series also differ
 * in dash pattern, so a greyscale print keeps them apart. Series 0 is
 * blue, solid (the simulation by convention), series 1 vermillion, dashed
 * (the measurement). Regions above the simulation's valid fmax are shaded
 * grey and labelled "above fmax" (a hybrid IR, valid to the Nyquist
 * frequency, has none). A hybrid IR's crossover between the wave and the
 * geometrical part is a dark dash-dotted vertical line labelled
 * "crossover 250 Hz" on the frequency axes (band bars: from the series'
 * RwAnalysis.crossover_hz; spectrum: the crossover_hz argument).
 *
 * Ownership: every routine borrows what it is given, for the call only.
 */
#pragma once

#include <cairo.h>
#include <stdbool.h>
#include <stddef.h>
#include "rw-analysis.h"
#include "rw-error.h"
#include "rw-spectrogram.h"

typedef struct {
  double x, y, width, height;
} RwRect;

#define RW_PLOT_MAX_SERIES 6

/* Okabe–Ito colour of series i (wraps after 6), components 0…1. */
void rw_plot_series_colour (int i, double rgb[3]);
/* Sets colour, line width and dash of series i on cr. */
void rw_plot_set_series_style (cairo_t *cr, int i, double line_width);

/* ---- IR waveform ---- */

typedef struct {
  const char *label;        /* legend text; NULL → no legend entry */
  const float *samples;
  size_t n;
  double rate_hz;
  double t0_s;              /* time of samples[0] on the axis (e.g. −onset) */
  double scale;             /* multiplies the samples (0 → 1) */
} RwPlotSignal;

/* Amplitude against time (s or ms, chosen from the span) over
 * [t_min_s, t_max_s] (t_max_s ≤ t_min_s → the signals' whole span).
 * Long signals are drawn as a min/max envelope per device pixel column,
 * so a 10 s IR costs as little as a short one. */
void rw_plot_ir (cairo_t *cr, RwRect area, const char *title, const char *y_label,
                 const RwPlotSignal *signals, size_t n_signals,
                 double t_min_s, double t_max_s);

/* ---- energy decay curves ---- */

typedef struct {
  const char *label;
  const RwAnalysis *analysis;
} RwPlotSeries;

typedef enum {
  RW_PLOT_FIT_NONE = 0,
  RW_PLOT_FIT_EDT,
  RW_PLOT_FIT_T20,
  RW_PLOT_FIT_T30,
} RwPlotFit;

/* One band (0 … RW_ANALYSIS_BROADBAND): the Schroeder curves of every
 * series (dB against time from the onset, 0 … −decay_range) and, dotted,
 * each series' fit line over its evaluation range. The band is shaded and
 * marked when any series flags it above_fmax. */
void rw_plot_edc (cairo_t *cr, RwRect area, int band, const RwPlotSeries *series,
                  size_t n_series, RwPlotFit fit);
/* The bands whose bit is set in band_mask (bit b = band b; 0 → all bands
 * and broadband) as a grid of rw_plot_edc panels, with a shared title and
 * legend. */
void rw_plot_edc_grid (cairo_t *cr, RwRect area, const char *title, unsigned band_mask,
                       const RwPlotSeries *series, size_t n_series, RwPlotFit fit);

/* ---- parameter bars per band ---- */

typedef enum {
  RW_PLOT_PARAM_EDT = 0,
  RW_PLOT_PARAM_T20,
  RW_PLOT_PARAM_T30,
  RW_PLOT_PARAM_C50,
  RW_PLOT_PARAM_C80,
  RW_PLOT_PARAM_D50,
  RW_PLOT_PARAM_TS,
  RW_PLOT_N_PARAMS,
} RwPlotParam;

/* Short name ("EDT", "T30", "C80", …) and unit ("s", "dB", "", "ms"). */
const char *rw_plot_param_name (RwPlotParam p);
const char *rw_plot_param_unit (RwPlotParam p);
/* The parameter's value of a band in display units (Ts in ms); NAN when
 * absent or the band was not analysed. */
double rw_plot_param_value (const RwBandResult *band, RwPlotParam p);

/* Bars per octave band (63 Hz … 8 kHz), the series side by side; an absent
 * value is drawn as "n/a" instead of a bar. Bands above fmax shaded; the
 * crossover line where a series' analysis has a finite crossover_hz (the
 * first such series'). */
void rw_plot_band_bars (cairo_t *cr, RwRect area, const char *title, RwPlotParam param,
                        const RwPlotSeries *series, size_t n_series);

/* ---- frequency response ---- */

typedef struct {
  const char *label;
  const RwSpectrum *spectrum;
  double offset_db;         /* added to the levels (e.g. to align a measurement) */
} RwPlotSpectrum;

/* Level in dB against a log frequency axis over [f_lo_hz, f_hi_hz]
 * (≤ 0 → the spectra's range). fmax_hz (INFINITY → none): shades above.
 * crossover_hz (NAN → none): a hybrid IR's crossover, drawn as a labelled
 * vertical line.
 * modes (may be NULL): a marker per mode at its frequency, labelled with
 * its indices (l,m,n) while the labels do not overlap; axial modes drawn
 * solid, tangential dashed, oblique dotted. */
void rw_plot_frequency_response (cairo_t *cr, RwRect area, const char *title,
                                 const RwPlotSpectrum *spectra, size_t n_spectra,
                                 double f_lo_hz, double f_hi_hz, double fmax_hz,
                                 double crossover_hz, const RwRoomMode *modes, size_t n_modes);

/* ---- spectrogram ---- */

/* An STFT (rw_spectrogram) as an image: time (s) on x over the signal's
 * duration, frequency on a LOG y axis from 20 Hz to rate/2 with ticks at
 * the octave centres 31.5 Hz … 16 kHz, the level in dB re the matrix's
 * maximum over range_db (≤ 0 → RW_PLOT_SPECTROGRAM_RANGE_DB) in the
 * viridis colour map (perceptually uniform, colour-blind safe, readable in
 * greyscale: it rises monotonically in lightness), below −range_db the
 * darkest colour. A colour bar in dB on the right; the window, hop and
 * rate under the title. The image has one cell per device pixel of the
 * frame: a pixel showing several frames or bins shows their maximum (so a
 * transient or a line never falls between pixels); one showing less than
 * a bin shows the nearest bin. */
#define RW_PLOT_SPECTROGRAM_RANGE_DB 90.0
void rw_plot_spectrogram (cairo_t *cr, RwRect area, const char *title,
                          const RwSpectrogram *sg, double range_db);

/* ---- tables ---- */

enum {
  RW_PLOT_CELL_FLAGGED = 1 << 0,   /* drawn bold on a tinted background */
  RW_PLOT_CELL_SHADED = 1 << 1,    /* grey background (e.g. above fmax) */
  RW_PLOT_CELL_HEADER = 1 << 2,    /* bold */
};

typedef struct {
  size_t n_rows, n_cols;           /* including the header row/column */
  const char *const *cells;        /* n_rows · n_cols, row-major; NULL → empty */
  const unsigned char *flags;      /* n_rows · n_cols RW_PLOT_CELL_* or NULL */
  const double *col_weights;       /* relative column widths or NULL (equal) */
} RwPlotTable;

/* A grid of text cells filling area's width; row height from the font
 * size; text shrunk to fit a cell when it is too wide. Unlike the plots it
 * paints no background (it sits on a page). Returns the height used. */
double rw_plot_table (cairo_t *cr, RwRect area, const char *title, const RwPlotTable *table);

/* ---- axes, for a hover read-out ---- */

typedef enum {
  RW_PLOT_KIND_NONE = 0,
  RW_PLOT_KIND_IR,
  RW_PLOT_KIND_EDC,         /* one panel; band in RwPlotAxes.band */
  RW_PLOT_KIND_BARS,        /* x is the band index: band b spans [b, b + 1) */
  RW_PLOT_KIND_FREQUENCY,   /* x in Hz on a log axis */
  RW_PLOT_KIND_SPECTROGRAM, /* x in s, y in Hz on a log axis */
} RwPlotKind;

/* Where a plot put its data and how its axes map, as the routine drew it.
 * frame is the data rectangle in DEVICE units of the cairo_t at drawing
 * time (widget pixels in the GUI, image pixels in a PNG), so a pointer
 * position maps directly even when the caller scaled or translated cr
 * (the compare page); only axis-aligned transforms are supported. x and y
 * are in the axes' display units: the IR's time axis is in ms when
 * x_unit is "ms", bars in the parameter's display unit (Ts in ms). */
typedef struct {
  RwPlotKind kind;
  RwRect frame;
  double x0, x1, y0, y1;    /* data values at the frame's left, right, bottom, top */
  bool x_log;
  const char *x_unit;       /* "s", "ms", "Hz", "band" (static, untranslated) */
  const char *y_unit;       /* "dB", "s", "ms", "" (static, untranslated) */
  int band;                 /* EDC panel: 0 … RW_ANALYSIS_BROADBAND; else −1 */
  RwPlotParam param;        /* bars */
  size_t n_series;          /* series drawn (bars: how many side by side per band) */
  bool y_log;               /* the spectrogram's frequency axis */
} RwPlotAxes;

/* The same routines as above, filling *axes_out (may be NULL) with the
 * mapping they drew with. The drawing is identical to the plain routines
 * (those call these with NULL). */
void rw_plot_ir_axes (cairo_t *cr, RwRect area, const char *title, const char *y_label,
                      const RwPlotSignal *signals, size_t n_signals,
                      double t_min_s, double t_max_s, RwPlotAxes *axes_out);
void rw_plot_edc_axes (cairo_t *cr, RwRect area, int band, const RwPlotSeries *series,
                       size_t n_series, RwPlotFit fit, RwPlotAxes *axes_out);
/* One RwPlotAxes per panel drawn, in band order, up to max_panels
 * (RW_ANALYSIS_N_BANDS is always enough); *n_panels_out (may be NULL)
 * gets how many were filled. */
void rw_plot_edc_grid_axes (cairo_t *cr, RwRect area, const char *title, unsigned band_mask,
                            const RwPlotSeries *series, size_t n_series, RwPlotFit fit,
                            RwPlotAxes *panels_out, size_t max_panels, size_t *n_panels_out);
void rw_plot_band_bars_axes (cairo_t *cr, RwRect area, const char *title, RwPlotParam param,
                             const RwPlotSeries *series, size_t n_series, RwPlotAxes *axes_out);
void rw_plot_frequency_response_axes (cairo_t *cr, RwRect area, const char *title,
                                      const RwPlotSpectrum *spectra, size_t n_spectra,
                                      double f_lo_hz, double f_hi_hz, double fmax_hz,
                                      double crossover_hz, const RwRoomMode *modes, size_t n_modes,
                                      RwPlotAxes *axes_out);
void rw_plot_spectrogram_axes (cairo_t *cr, RwRect area, const char *title,
                               const RwSpectrogram *sg, double range_db, RwPlotAxes *axes_out);

/* Records the axes of every plot drawn on the calling thread until
 * rw_plot_axes_record_end, into buf (up to max, in drawing order): for a
 * read-out over a composition drawn by code that does not pass axes on
 * (a report page). end returns how many were recorded. Not nested. */
void rw_plot_axes_record_begin (RwPlotAxes *buf, size_t max);
size_t rw_plot_axes_record_end (void);

/* Data ↔ device mapping of a filled RwPlotAxes (log x where x_log, log y
 * where y_log). */
double rw_plot_axes_device_x (const RwPlotAxes *a, double x);
double rw_plot_axes_device_y (const RwPlotAxes *a, double y);
double rw_plot_axes_data_x (const RwPlotAxes *a, double device_x);
double rw_plot_axes_data_y (const RwPlotAxes *a, double device_y);
/* Whether device point (x, y) lies inside the data rectangle. */
bool rw_plot_axes_contains (const RwPlotAxes *a, double device_x, double device_y);
/* Of n axes (e.g. the EDC grid's panels), the one whose data rectangle
 * holds (x, y), or −1. */
int rw_plot_axes_find (const RwPlotAxes *axes, size_t n, double device_x, double device_y);
/* Bars: the band (0 … RW_N_OCTAVES − 1) whose group holds device x, and
 * in *series_out (may be NULL) the series whose bar is under x or −1 in
 * the gap between bars; −1 outside the data rectangle. */
int rw_plot_axes_bar_at (const RwPlotAxes *a, double device_x, double device_y, int *series_out);

/* ---- files ---- */

typedef void (*RwPlotDrawFn) (cairo_t *cr, RwRect area, void *user_data);

/* width × height pixels (PNG, white background) or points (SVG);
 * written atomically (temporary file in the same folder, renamed). */
bool rw_plot_write_png (const char *path, int width, int height, RwPlotDrawFn draw,
                        void *user_data, RwError *err);
bool rw_plot_write_svg (const char *path, double width, double height, RwPlotDrawFn draw,
                        void *user_data, RwError *err);

/* ---- drawing primitives shared with the report ---- */

/* Base font size for an area: its height / 26, within 7 … 10 units. */
double rw_plot_font_size (RwRect area);
/* Draws text with its anchor at (x, y): halign 0 left, 0.5 centre, 1
 * right; valign 0 top, 0.5 middle, 1 baseline-ish bottom. */
void rw_plot_text (cairo_t *cr, double x, double y, double halign, double valign,
                   const char *text);
