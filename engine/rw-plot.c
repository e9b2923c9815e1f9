/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-plot.c — plots drawn with cairo into a rectangle; see rw-plot.h. */
#include "rw-plot.h"
#include "rw-file.h"
#include "rw-i18n.h"

#include <cairo-svg.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FONT "sans-serif"

/* Okabe & Ito (2008), "Color Universal Design": distinguishable under the
 * common colour-vision deficiencies. */
static const double palette[6][3] = {
  { 0.000, 0.447, 0.698 },  /* blue */
  { 0.835, 0.369, 0.000 },  /* vermillion */
  { 0.000, 0.620, 0.451 },  /* bluish green */
  { 0.800, 0.475, 0.655 },  /* reddish purple */
  { 0.902, 0.624, 0.000 },  /* orange */
  { 0.337, 0.706, 0.914 },  /* sky blue */
};

static const double shade_grey = 0.90;
static const double grid_grey = 0.86;

void
rw_plot_series_colour (int i, double rgb[3])
{
  int k = ((i % 6) + 6) % 6;
  rgb[0] = palette[k][0];
  rgb[1] = palette[k][1];
  rgb[2] = palette[k][2];
}

void
rw_plot_set_series_style (cairo_t *cr, int i, double line_width)
{
  double rgb[3];
  rw_plot_series_colour (i, rgb);
  cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
  cairo_set_line_width (cr, line_width);
  double d = line_width;
  switch (i % 3)
    {
    case 1:
      {
        double dash[] = { 6 * d, 3 * d };
        cairo_set_dash (cr, dash, 2, 0);
        break;
      }
    case 2:
      {
        double dash[] = { 8 * d, 2.5 * d, 1.5 * d, 2.5 * d };
        cairo_set_dash (cr, dash, 4, 0);
        break;
      }
    default:
      cairo_set_dash (cr, NULL, 0, 0);
    }
}

double
rw_plot_font_size (RwRect area)
{
  double fs = area.height / 26.0;
  return fs < 7.0 ? 7.0 : fs > 10.0 ? 10.0 : fs;
}

static void
set_font (cairo_t *cr, double size, bool bold)
{
  cairo_select_font_face (cr, FONT, CAIRO_FONT_SLANT_NORMAL,
                          bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, size);
}

void
rw_plot_text (cairo_t *cr, double x, double y, double halign, double valign, const char *text)
{
  if (text == NULL || *text == '\0')
    return;
  cairo_text_extents_t te;
  cairo_font_extents_t fe;
  cairo_text_extents (cr, text, &te);
  cairo_font_extents (cr, &fe);
  /* The cap height is about 0.72 of the font's ascent for common sans
   * faces; anchoring on it centres digits and capitals visually. */
  double top = fe.ascent * 0.78, bottom = fe.descent * 0.5;
  double base = y + top * (1.0 - valign) - bottom * valign;
  cairo_move_to (cr, x - halign * te.x_advance, base);
  cairo_show_text (cr, text);
  cairo_new_path (cr);
}

static double
text_width (cairo_t *cr, const char *text)
{
  cairo_text_extents_t te;
  cairo_text_extents (cr, text, &te);
  return te.x_advance;
}

/* Vertical text (reading bottom to top) centred on (x, y). */
static void
text_vertical (cairo_t *cr, double x, double y, const char *text)
{
  cairo_save (cr);
  cairo_translate (cr, x, y);
  cairo_rotate (cr, -M_PI / 2);
  rw_plot_text (cr, 0, 0, 0.5, 0.5, text);
  cairo_restore (cr);
}

/* ---- axes ---- */

typedef struct {
  RwRect area;             /* the whole plot */
  const char *title;
  RwRect frame;            /* the data rectangle */
  double x0, x1, y0, y1;   /* data ranges */
  bool xlog;
  bool ylog;               /* the spectrogram's frequency axis */
  bool ticks_only;         /* tick marks outside the frame, no grid (an image fills it) */
  double fs;               /* font size */
  double lw;               /* hairline width */
} Axes;

/* Where v lies between v0 and v1 (0 … 1), on a log or a linear axis:
 * the one mapping of the drawing (Axes) and of the hover (RwPlotAxes). */
static double
axis_fraction (double v, double v0, double v1, bool log_axis)
{
  if (log_axis)
    return (log10 (v) - log10 (v0)) / (log10 (v1) - log10 (v0));
  return (v - v0) / (v1 - v0);
}

/* The inverse: the value a fraction u of the way from v0 to v1. */
static double
axis_value (double u, double v0, double v1, bool log_axis)
{
  if (log_axis)
    return pow (10.0, log10 (v0) + u * (log10 (v1) - log10 (v0)));
  return v0 + u * (v1 - v0);
}

static double
ax_x (const Axes *a, double x)
{
  return a->frame.x + axis_fraction (x, a->x0, a->x1, a->xlog) * a->frame.width;
}

static double
ax_y (const Axes *a, double y)
{
  return a->frame.y + a->frame.height - axis_fraction (y, a->y0, a->y1, a->ylog) * a->frame.height;
}

static double
nice_step (double span, int target)
{
  if (!(span > 0) || !isfinite (span))
    return 1.0;
  double raw = span / target;
  double mag = pow (10.0, floor (log10 (raw)));
  double r = raw / mag;
  double s = r < 1.5 ? 1 : r < 3 ? 2 : r < 7 ? 5 : 10;
  return s * mag;
}

static void
format_tick (char *buf, size_t len, double v, double step)
{
  int dec = step >= 1 ? 0 : (int) ceil (-log10 (step) - 1e-9);
  if (dec > 6)
    dec = 6;
  if (fabs (v) < step * 1e-6)
    v = 0.0;
  snprintf (buf, len, "%.*f", dec, v);
}

static void
format_hz (char *buf, size_t len, double f)
{
  if (f >= 1000)
    snprintf (buf, len, "%gk", f / 1000);
  else
    snprintf (buf, len, "%g", f);
}

/* Computes the frame inside area: room for the title, tick labels and the
 * axis labels. */
static void
axes_layout (RwRect area, const char *title, double left_chars, Axes *ax)
{
  double fs = rw_plot_font_size (area);
  ax->area = area;
  ax->title = title;
  ax->fs = fs;
  ax->lw = fs / 12.0;
  double left = fs * (left_chars * 0.62 + 2.2);
  double top = (title && *title) ? fs * 2.2 : fs * 0.8;
  double bottom = fs * 3.3;
  double right = fs * 1.2;
  ax->frame.x = area.x + left;
  ax->frame.y = area.y + top;
  ax->frame.width = fmax (10.0, area.width - left - right);
  ax->frame.height = fmax (10.0, area.height - top - bottom);
}

static void
begin_plot (cairo_t *cr, RwRect area)
{
  cairo_save (cr);
  cairo_rectangle (cr, area.x, area.y, area.width, area.height);
  cairo_clip (cr);
  /* A white paper whatever the surface: plots read the same on screen,
   * in PNG and on a PDF page. */
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_BUTT);
}

static void
end_plot (cairo_t *cr)
{
  cairo_restore (cr);
}

static void
draw_title (cairo_t *cr, RwRect area, double fs, const char *title)
{
  if (title == NULL || *title == '\0')
    return;
  cairo_set_source_rgb (cr, 0, 0, 0);
  set_font (cr, fs * 1.15, true);
  rw_plot_text (cr, area.x + fs * 0.5, area.y + fs * 0.6, 0, 0, title);
}

/* The octave band centres (nominal), the ticks of a log axis in Hz that
 * an acoustician reads bands from. */
static const double octave_ticks_hz[] = {
  31.5, 63, 125, 250, 500, 1000, 2000, 4000, 8000, 16000,
};

/* A grid line across the frame at device-independent y, or, with
 * ticks_only, a tick mark outside the frame's left edge; leaves the
 * source black for the label. */
static void
grid_line_y (cairo_t *cr, const Axes *ax, double y)
{
  const RwRect *f = &ax->frame;
  if (ax->ticks_only)
    {
      cairo_set_source_rgb (cr, 0, 0, 0);
      cairo_move_to (cr, f->x - ax->fs * 0.3, y);
      cairo_line_to (cr, f->x, y);
    }
  else
    {
      cairo_set_source_rgb (cr, grid_grey, grid_grey, grid_grey);
      cairo_move_to (cr, f->x, y);
      cairo_line_to (cr, f->x + f->width, y);
    }
  cairo_stroke (cr);
  cairo_set_source_rgb (cr, 0, 0, 0);
}

/* The same for x: a tick mark below the frame with ticks_only. */
static void
grid_line_x (cairo_t *cr, const Axes *ax, double x)
{
  const RwRect *f = &ax->frame;
  if (ax->ticks_only)
    {
      cairo_set_source_rgb (cr, 0, 0, 0);
      cairo_move_to (cr, x, f->y + f->height);
      cairo_line_to (cr, x, f->y + f->height + ax->fs * 0.3);
    }
  else
    {
      cairo_set_source_rgb (cr, grid_grey, grid_grey, grid_grey);
      cairo_move_to (cr, x, f->y);
      cairo_line_to (cr, x, f->y + f->height);
    }
  cairo_stroke (cr);
  cairo_set_source_rgb (cr, 0, 0, 0);
}

/* Grid, ticks and labels. x_ticks_hz: a log-frequency axis with 1-2-5
 * ticks labelled "100", "1k". */
static void
draw_axes (cairo_t *cr, const Axes *ax, const char *x_label, const char *y_label)
{
  const RwRect *f = &ax->frame;
  char buf[64];
  double fs = ax->fs;
  cairo_set_line_width (cr, ax->lw);
  cairo_set_dash (cr, NULL, 0, 0);
  set_font (cr, fs, false);

  /* y grid and labels: a log axis in Hz has the octave centres */
  if (ax->ylog)
    for (size_t i = 0; i < sizeof octave_ticks_hz / sizeof octave_ticks_hz[0]; i++)
      {
        double v = octave_ticks_hz[i];
        if (v < ax->y0 * (1 - 1e-9) || v > ax->y1 * (1 + 1e-9))
          continue;
        grid_line_y (cr, ax, ax_y (ax, v));
        format_hz (buf, sizeof buf, v);
        rw_plot_text (cr, f->x - fs * (ax->ticks_only ? 0.6 : 0.4), ax_y (ax, v), 1.0, 0.5, buf);
      }
  else
    {
      double ystep = nice_step (ax->y1 - ax->y0, (int) fmax (3.0, fmin (8.0, f->height / (fs * 2.8))));
      for (double v = ceil (ax->y0 / ystep - 1e-9) * ystep; v <= ax->y1 + ystep * 1e-9; v += ystep)
        {
          grid_line_y (cr, ax, ax_y (ax, v));
          format_tick (buf, sizeof buf, v, ystep);
          rw_plot_text (cr, f->x - fs * (ax->ticks_only ? 0.6 : 0.4), ax_y (ax, v), 1.0, 0.5, buf);
        }
    }

  /* x grid and labels */
  if (ax->xlog)
    {
      static const double mant[] = { 1, 2, 5 };
      double last_right = -1e30;
      for (int e = (int) floor (log10 (ax->x0)); e <= (int) ceil (log10 (ax->x1)); e++)
        for (int k = 0; k < 3; k++)
          {
            double v = mant[k] * pow (10.0, e);
            if (v < ax->x0 * (1 - 1e-9) || v > ax->x1 * (1 + 1e-9))
              continue;
            double x = ax_x (ax, v);
            grid_line_x (cr, ax, x);
            format_hz (buf, sizeof buf, v);
            double w = text_width (cr, buf);
            if (x - w / 2 > last_right + fs * 0.4)
              {
                rw_plot_text (cr, x, f->y + f->height + fs * 0.5, 0.5, 0.0, buf);
                last_right = x + w / 2;
              }
          }
    }
  else
    {
      double xstep = nice_step (ax->x1 - ax->x0, (int) fmax (3.0, fmin (10.0, f->width / (fs * 5.0))));
      for (double v = ceil (ax->x0 / xstep - 1e-9) * xstep; v <= ax->x1 + xstep * 1e-9; v += xstep)
        {
          double x = ax_x (ax, v);
          grid_line_x (cr, ax, x);
          format_tick (buf, sizeof buf, v, xstep);
          rw_plot_text (cr, x, f->y + f->height + fs * 0.5, 0.5, 0.0, buf);
        }
    }

  cairo_set_source_rgb (cr, 0, 0, 0);
  cairo_rectangle (cr, f->x, f->y, f->width, f->height);
  cairo_stroke (cr);
  if (x_label)
    rw_plot_text (cr, f->x + f->width / 2, f->y + f->height + fs * 2.0, 0.5, 0.0, x_label);
  if (y_label)
    text_vertical (cr, ax->area.x + fs * 0.9, f->y + f->height / 2, y_label);
}

static void
clip_frame (cairo_t *cr, const Axes *ax)
{
  cairo_rectangle (cr, ax->frame.x, ax->frame.y, ax->frame.width, ax->frame.height);
  cairo_clip (cr);
}

/* Hands the mapping a routine drew with to its caller: the frame in
 * device units (the GUI's pointer coordinates), the ranges as drawn. */
/* The recorder of rw_plot_axes_record_begin: per thread, so a worker
 * drawing a report never writes into the GUI's buffer. */
static _Thread_local struct {
  RwPlotAxes *buf;
  size_t max, n;
} recorder;

void
rw_plot_axes_record_begin (RwPlotAxes *buf, size_t max)
{
  recorder.buf = buf;
  recorder.max = buf ? max : 0;
  recorder.n = 0;
}

size_t
rw_plot_axes_record_end (void)
{
  size_t n = recorder.n;
  recorder.buf = NULL;
  recorder.max = recorder.n = 0;
  return n;
}

static void
report_axes (cairo_t *cr, const Axes *ax, RwPlotKind kind, const char *x_unit,
             const char *y_unit, int band, RwPlotParam param, size_t n_series,
             RwPlotAxes *out)
{
  RwPlotAxes *rec = recorder.n < recorder.max ? &recorder.buf[recorder.n] : NULL;
  if (out == NULL && rec == NULL)
    return;
  RwPlotAxes a;
  double xa = ax->frame.x, ya = ax->frame.y;
  double xb = ax->frame.x + ax->frame.width, yb = ax->frame.y + ax->frame.height;
  cairo_user_to_device (cr, &xa, &ya);
  cairo_user_to_device (cr, &xb, &yb);
  a = (RwPlotAxes) {
    .kind = kind,
    .frame = { fmin (xa, xb), fmin (ya, yb), fabs (xb - xa), fabs (yb - ya) },
    .x0 = ax->x0, .x1 = ax->x1, .y0 = ax->y0, .y1 = ax->y1,
    .x_log = ax->xlog,
    .y_log = ax->ylog,
    .x_unit = x_unit,
    .y_unit = y_unit,
    .band = band,
    .param = param,
    .n_series = n_series,
  };
  if (out)
    *out = a;
  if (rec)
    {
      *rec = a;
      recorder.n++;
    }
}

/* Grey band over x ∈ [x_from, frame end) with the label "above fmax". */
static void
shade_above_label (cairo_t *cr, const Axes *ax, double x_from_user);

static void
shade_above (cairo_t *cr, const Axes *ax, double x_from_user)
{
  const RwRect *f = &ax->frame;
  if (x_from_user >= f->x + f->width)
    return;
  double x = fmax (x_from_user, f->x);
  cairo_save (cr);
  cairo_set_source_rgb (cr, shade_grey, shade_grey, shade_grey);
  cairo_rectangle (cr, x, f->y, f->x + f->width - x, f->height);
  cairo_fill (cr);
  cairo_restore (cr);
}

/* The "above fmax" label alone: drawn again after the grid, so that no
 * grid line runs through it. */
static void
shade_above_label (cairo_t *cr, const Axes *ax, double x_from_user)
{
  const RwRect *f = &ax->frame;
  if (x_from_user >= f->x + f->width)
    return;
  double x = fmax (x_from_user, f->x);
  cairo_save (cr);
  cairo_set_source_rgb (cr, 0.35, 0.35, 0.35);
  set_font (cr, ax->fs * 0.85, false);
  const char *label = _("above fmax");
  if (f->x + f->width - x > text_width (cr, label) + ax->fs)
    rw_plot_text (cr, f->x + f->width - ax->fs * 0.4, f->y + f->height - ax->fs * 0.4, 1.0, 1.0, label);
  else
    text_vertical (cr, (x + f->x + f->width) / 2, f->y + f->height / 2, label);
  cairo_restore (cr);
}

/* The "above fmax" label on a grey patch, drawn after the grid so that no
 * grid line runs through it; vertical when the shaded band is narrow. */
static void
label_above (cairo_t *cr, const Axes *ax, double x_from_user)
{
  const char *label = _("above fmax");
  set_font (cr, ax->fs * 0.85, false);
  double w = text_width (cr, label);
  double right = ax->frame.x + ax->frame.width;
  double xr = right - ax->fs * 0.4, yb = ax->frame.y + ax->frame.height - ax->fs * 0.4;
  if (right - fmax (x_from_user, ax->frame.x) > w + ax->fs)
    {
      cairo_set_source_rgb (cr, shade_grey, shade_grey, shade_grey);
      cairo_rectangle (cr, xr - w - ax->fs * 0.2, yb - ax->fs * 1.0, w + ax->fs * 0.4, ax->fs * 1.1);
      cairo_fill (cr);
    }
  shade_above_label (cr, ax, x_from_user);
}

/* The hybrid IR's crossover (issue #12) as a dark dash-dotted vertical
 * line at device x, labelled "crossover 250 Hz" at its top: below it the
 * wave solver's part, above it the geometrical one. Drawn over the data
 * (a line, it hides little) and clipped to the frame. */
static void
draw_crossover (cairo_t *cr, const Axes *ax, double x, double crossover_hz)
{
  const RwRect *f = &ax->frame;
  if (!isfinite (x) || x < f->x || x > f->x + f->width)
    return;
  cairo_save (cr);
  cairo_rectangle (cr, f->x, f->y, f->width, f->height);
  cairo_clip (cr);
  cairo_set_source_rgb (cr, 0.15, 0.15, 0.15);
  cairo_set_line_width (cr, ax->lw * 1.6);
  double dash[] = { ax->lw * 6, ax->lw * 2.5, ax->lw * 1.5, ax->lw * 2.5 };
  cairo_set_dash (cr, dash, 4, 0);
  cairo_move_to (cr, x, f->y);
  cairo_line_to (cr, x, f->y + f->height);
  cairo_stroke (cr);
  char label[64];
  snprintf (label, sizeof label, _("crossover %.0f Hz"), crossover_hz);
  set_font (cr, ax->fs * 0.8, false);
  double w = text_width (cr, label), pad = ax->fs * 0.3;
  /* right of the line, or left of it where the frame ends too soon */
  bool right = x + pad + w <= f->x + f->width - pad;
  double tx = right ? x + pad : x - pad - w, ty = f->y + ax->fs * 0.3;
  cairo_set_source_rgba (cr, 1, 1, 1, 0.85);
  cairo_rectangle (cr, tx - pad * 0.5, ty - pad * 0.3, w + pad, ax->fs * 0.8 * 1.3);
  cairo_fill (cr);
  cairo_set_source_rgb (cr, 0.15, 0.15, 0.15);
  rw_plot_text (cr, tx, ty, 0.0, 0.0, label);
  cairo_restore (cr);
}

/* The crossover of the first series that has one (NAN: none). */
static double
series_crossover (const RwPlotSeries *series, size_t n_series)
{
  for (size_t s = 0; s < n_series; s++)
    if (series[s].analysis != NULL && isfinite (series[s].analysis->crossover_hz))
      return series[s].analysis->crossover_hz;
  return NAN;
}

typedef struct {
  const char *label;
  int series;
  bool patch;   /* a filled square instead of a line */
} LegendEntry;

/* Legend in the frame's top right corner on a white box. */
static void
draw_legend (cairo_t *cr, const Axes *ax, const LegendEntry *e, size_t n, bool left)
{
  double fs = ax->fs * 0.9, w = 0, line = fs * 2.2, strip = 0;
  size_t shown = 0;
  set_font (cr, fs, false);
  for (size_t i = 0; i < n; i++)
    if (e[i].label)
      {
        w = fmax (w, text_width (cr, e[i].label));
        strip += line + fs * 0.5 + text_width (cr, e[i].label) + fs * 1.2;
        shown++;
      }
  if (shown == 0)
    return;

  /* First choice: one row in the title strip, right-aligned, where it
   * cannot hide data. */
  if (ax->title && *ax->title)
    {
      set_font (cr, ax->fs * 1.15, true);
      double title_w = text_width (cr, ax->title) + ax->fs * 0.5;
      set_font (cr, fs, false);
      double right = ax->frame.x + ax->frame.width;
      if (ax->area.x + title_w + fs * 2 + strip < right)
        {
          cairo_save (cr);
          double x = right - strip + fs * 1.2, y = ax->area.y + ax->fs * 0.6 + ax->fs * 0.45;
          for (size_t i = 0; i < n; i++)
            {
              if (!e[i].label)
                continue;
              if (e[i].patch)
                {
                  double rgb[3];
                  rw_plot_series_colour (e[i].series, rgb);
                  cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
                  cairo_rectangle (cr, x + line * 0.25, y - fs * 0.4, line * 0.5, fs * 0.8);
                  cairo_fill (cr);
                }
              else
                {
                  rw_plot_set_series_style (cr, e[i].series, ax->lw * 2.2);
                  cairo_move_to (cr, x, y);
                  cairo_line_to (cr, x + line, y);
                  cairo_stroke (cr);
                }
              cairo_set_dash (cr, NULL, 0, 0);
              cairo_set_source_rgb (cr, 0, 0, 0);
              rw_plot_text (cr, x + line + fs * 0.5, y, 0.0, 0.5, e[i].label);
              x += line + fs * 0.5 + text_width (cr, e[i].label) + fs * 1.2;
            }
          cairo_restore (cr);
          return;
        }
    }
  double bw = w + line + fs * 1.5, bh = shown * fs * 1.45 + fs * 0.5;
  double x = left ? ax->frame.x + fs * 0.5 : ax->frame.x + ax->frame.width - bw - fs * 0.5;
  double y = ax->frame.y + fs * 0.5;
  cairo_save (cr);
  cairo_set_source_rgba (cr, 1, 1, 1, 0.9);
  cairo_rectangle (cr, x, y, bw, bh);
  cairo_fill_preserve (cr);
  cairo_set_source_rgb (cr, 0.6, 0.6, 0.6);
  cairo_set_line_width (cr, ax->lw);
  cairo_stroke (cr);
  double yy = y + fs * 0.25 + fs * 0.72;
  for (size_t i = 0; i < n; i++)
    {
      if (!e[i].label)
        continue;
      if (e[i].patch)
        {
          double rgb[3];
          rw_plot_series_colour (e[i].series, rgb);
          cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
          cairo_rectangle (cr, x + fs * 0.5 + line * 0.25, yy - fs * 0.4, line * 0.5, fs * 0.8);
          cairo_fill (cr);
        }
      else
        {
          rw_plot_set_series_style (cr, e[i].series, ax->lw * 2.2);
          cairo_move_to (cr, x + fs * 0.5, yy);
          cairo_line_to (cr, x + fs * 0.5 + line, yy);
          cairo_stroke (cr);
        }
      cairo_set_dash (cr, NULL, 0, 0);
      cairo_set_source_rgb (cr, 0, 0, 0);
      rw_plot_text (cr, x + fs + line, yy, 0.0, 0.5, e[i].label);
      yy += fs * 1.45;
    }
  cairo_restore (cr);
}

/* Polyline through (x[i], y[i]) in user space, thinned to the device
 * resolution: where many points fall into one device column, only their
 * extremes are kept (in order), which draws the same picture. */
static void
path_decimated (cairo_t *cr, const Axes *ax, size_t n, double (*px) (size_t, const void *),
                double (*py) (size_t, const void *), const void *data)
{
  double col_w = 1.0, dy = 0.0;
  cairo_user_to_device_distance (cr, &col_w, &dy);
  col_w = col_w > 0 ? 0.5 / col_w : 0.5;   /* half a device pixel in user units */
  bool started = false;
  size_t i = 0;
  while (i < n)
    {
      double x = ax_x (ax, px (i, data));
      double ymin = ax_y (ax, py (i, data)), ymax = ymin, yfirst = ymin, ylast = ymin;
      size_t j = i + 1;
      while (j < n && ax_x (ax, px (j, data)) < x + col_w)
        {
          double y = ax_y (ax, py (j, data));
          ymin = fmin (ymin, y);
          ymax = fmax (ymax, y);
          ylast = y;
          j++;
        }
      if (!isfinite (x) || !isfinite (yfirst))
        {
          i = j;
          continue;
        }
      if (!started)
        cairo_move_to (cr, x, yfirst);
      else
        cairo_line_to (cr, x, yfirst);
      started = true;
      if (j > i + 1)
        {
          cairo_line_to (cr, x, ymin);
          cairo_line_to (cr, x, ymax);
          cairo_line_to (cr, x, ylast);
        }
      i = j;
    }
}

/* ---- IR waveform ---- */

void
rw_plot_ir (cairo_t *cr, RwRect area, const char *title, const char *y_label,
            const RwPlotSignal *sig, size_t n_sig, double t_min_s, double t_max_s)
{
  rw_plot_ir_axes (cr, area, title, y_label, sig, n_sig, t_min_s, t_max_s, NULL);
}

void
rw_plot_ir_axes (cairo_t *cr, RwRect area, const char *title, const char *y_label,
                 const RwPlotSignal *sig, size_t n_sig, double t_min_s, double t_max_s,
                 RwPlotAxes *axes_out)
{
  begin_plot (cr, area);
  Axes ax = { 0 };
  axes_layout (area, title, 5, &ax);

  if (!(t_max_s > t_min_s))
    {
      t_min_s = INFINITY;
      t_max_s = -INFINITY;
      for (size_t s = 0; s < n_sig; s++)
        if (sig[s].n > 0 && sig[s].rate_hz > 0)
          {
            t_min_s = fmin (t_min_s, sig[s].t0_s);
            t_max_s = fmax (t_max_s, sig[s].t0_s + sig[s].n / sig[s].rate_hz);
          }
      if (!(t_max_s > t_min_s))
        {
          t_min_s = 0;
          t_max_s = 1;
        }
    }
  bool ms = t_max_s - t_min_s < 1.0;
  double tu = ms ? 1000.0 : 1.0;
  double amax = 0;
  for (size_t s = 0; s < n_sig; s++)
    {
      double sc = sig[s].scale != 0 ? sig[s].scale : 1.0;
      for (size_t i = 0; i < sig[s].n; i++)
        {
          double t = sig[s].t0_s + i / sig[s].rate_hz;
          if (t >= t_min_s && t <= t_max_s && isfinite (sig[s].samples[i]))
            amax = fmax (amax, fabs (sig[s].samples[i] * sc));
        }
    }
  if (!(amax > 0))
    amax = 1;
  ax.x0 = t_min_s * tu;
  ax.x1 = t_max_s * tu;
  ax.y0 = -amax * 1.08;
  ax.y1 = amax * 1.08;

  draw_title (cr, area, ax.fs, title);
  draw_axes (cr, &ax, ms ? _("Time (ms)") : _("Time (s)"), y_label);
  report_axes (cr, &ax, RW_PLOT_KIND_IR, ms ? "ms" : "s", "", -1, 0, n_sig, axes_out);

  cairo_save (cr);
  clip_frame (cr, &ax);
  double dev_w = ax.frame.width, dy = 0;
  cairo_user_to_device_distance (cr, &dev_w, &dy);
  size_t cols = (size_t) fmin (4000.0, fmax (2.0, ceil (fabs (dev_w))));
  double *lo = malloc (cols * sizeof (double)), *hi = malloc (cols * sizeof (double));
  for (size_t s = 0; s < n_sig && lo && hi; s++)
    {
      const RwPlotSignal *g = &sig[s];
      if (g->n == 0 || !(g->rate_hz > 0))
        continue;
      double sc = g->scale != 0 ? g->scale : 1.0;
      double rgb[3];
      rw_plot_series_colour ((int) s, rgb);
      double span = t_max_s - t_min_s;
      double per_col = span / cols * g->rate_hz;   /* samples per column */
      if (per_col > 2.0)
        {
          /* min/max envelope per column, filled */
          for (size_t c = 0; c < cols; c++)
            {
              lo[c] = INFINITY;
              hi[c] = -INFINITY;
            }
          for (size_t i = 0; i < g->n; i++)
            {
              double t = g->t0_s + i / g->rate_hz;
              if (t < t_min_s || t >= t_max_s)
                continue;
              size_t c = (size_t) ((t - t_min_s) / span * cols);
              if (c >= cols)
                c = cols - 1;
              double v = g->samples[i] * sc;
              lo[c] = fmin (lo[c], v);
              hi[c] = fmax (hi[c], v);
            }
          bool started = false;
          for (size_t c = 0; c < cols; c++)
            if (isfinite (hi[c]))
              {
                double x = ax.frame.x + (c + 0.5) / cols * ax.frame.width;
                if (!started)
                  cairo_move_to (cr, x, ax_y (&ax, hi[c]));
                else
                  cairo_line_to (cr, x, ax_y (&ax, hi[c]));
                started = true;
              }
          for (size_t c = cols; c-- > 0;)
            if (isfinite (lo[c]))
              {
                double x = ax.frame.x + (c + 0.5) / cols * ax.frame.width;
                cairo_line_to (cr, x, ax_y (&ax, lo[c]));
              }
          cairo_close_path (cr);
          if (s == 0)
            {
              /* the first signal filled, the others as outlines over it:
               * two filled envelopes would mix into one colour */
              cairo_set_source_rgba (cr, rgb[0], rgb[1], rgb[2], n_sig > 1 ? 0.45 : 0.9);
              cairo_fill_preserve (cr);
            }
          cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
          cairo_set_line_width (cr, s == 0 ? ax.lw : ax.lw * 1.3);
          cairo_stroke (cr);
        }
      else
        {
          bool started = false;
          for (size_t i = 0; i < g->n; i++)
            {
              double t = g->t0_s + i / g->rate_hz;
              if (t < t_min_s - 1.0 / g->rate_hz || t > t_max_s + 1.0 / g->rate_hz)
                continue;
              double x = ax_x (&ax, t * tu), y = ax_y (&ax, g->samples[i] * sc);
              if (!started)
                cairo_move_to (cr, x, y);
              else
                cairo_line_to (cr, x, y);
              started = true;
            }
          rw_plot_set_series_style (cr, (int) s, ax.lw * 1.6);
          cairo_stroke (cr);
        }
    }
  free (lo);
  free (hi);
  /* zero line */
  cairo_set_source_rgb (cr, 0.3, 0.3, 0.3);
  cairo_set_dash (cr, NULL, 0, 0);
  cairo_set_line_width (cr, ax.lw);
  cairo_move_to (cr, ax.frame.x, ax_y (&ax, 0));
  cairo_line_to (cr, ax.frame.x + ax.frame.width, ax_y (&ax, 0));
  cairo_stroke (cr);
  cairo_restore (cr);

  LegendEntry e[RW_PLOT_MAX_SERIES];
  size_t ne = 0;
  for (size_t s = 0; s < n_sig && ne < RW_PLOT_MAX_SERIES; s++)
    e[ne++] = (LegendEntry) { sig[s].label, (int) s, s == 0 };
  draw_legend (cr, &ax, e, ne, false);
  end_plot (cr);
}

/* ---- parameters ---- */

const char *
rw_plot_param_name (RwPlotParam p)
{
  static const char *names[] = { "EDT", "T20", "T30", "C50", "C80", "D50", "Ts" };
  return p < RW_PLOT_N_PARAMS ? names[p] : "?";
}

const char *
rw_plot_param_unit (RwPlotParam p)
{
  static const char *units[] = { "s", "s", "s", "dB", "dB", "", "ms" };
  return p < RW_PLOT_N_PARAMS ? units[p] : "";
}

double
rw_plot_param_value (const RwBandResult *b, RwPlotParam p)
{
  if (b == NULL || !b->analysed)
    return NAN;
  switch (p)
    {
    case RW_PLOT_PARAM_EDT: return b->edt.value_s;
    case RW_PLOT_PARAM_T20: return b->t20.value_s;
    case RW_PLOT_PARAM_T30: return b->t30.value_s;
    case RW_PLOT_PARAM_C50: return b->C50_db;
    case RW_PLOT_PARAM_C80: return b->C80_db;
    case RW_PLOT_PARAM_D50: return b->D50;
    case RW_PLOT_PARAM_TS: return b->Ts_s * 1000.0;
    case RW_PLOT_N_PARAMS:
    default: return NAN;
    }
}

static void
band_label (char *buf, size_t len, int band)
{
  if (band == RW_ANALYSIS_BROADBAND)
    snprintf (buf, len, "%s", _("Broadband"));
  else
    {
      char f[32];
      format_hz (f, sizeof f, rw_octave_centres_hz[band]);
      snprintf (buf, len, _("%s Hz"), f);
    }
}

/* ---- energy decay ---- */

static const RwDecayFit *
fit_of (const RwBandResult *b, RwPlotFit fit)
{
  switch (fit)
    {
    case RW_PLOT_FIT_EDT: return &b->edt;
    case RW_PLOT_FIT_T20: return &b->t20;
    case RW_PLOT_FIT_T30: return &b->t30;
    case RW_PLOT_FIT_NONE:
    default: return NULL;
    }
}

static void
draw_edc_panel (cairo_t *cr, RwRect area, int band, const RwPlotSeries *series,
                size_t n_series, RwPlotFit fit, bool legend, RwPlotAxes *axes_out)
{
  begin_plot (cr, area);
  char title[96];
  band_label (title, sizeof title, band);
  Axes ax = { 0 };
  axes_layout (area, title, 4, &ax);

  bool above = false;
  double range = 0, t_end = 0;
  for (size_t s = 0; s < n_series; s++)
    {
      const RwBandResult *b = &series[s].analysis->bands[band];
      above |= b->above_fmax;
      if (!b->analysed || b->n_edc == 0)
        continue;
      range = fmax (range, b->decay_range_db);
    }
  /* Show the decay down to the deepest series, at least 60 dB and at most
   * 100 dB (below that it is the noise compensation, not the room). */
  double y_min = -fmin (100.0, fmax (60.0, ceil (range / 10.0) * 10.0));
  for (size_t s = 0; s < n_series; s++)
    {
      const RwBandResult *b = &series[s].analysis->bands[band];
      double rate = series[s].analysis->rate_hz;
      if (!b->analysed || b->n_edc == 0)
        continue;
      size_t k = 0;
      while (k < b->n_edc && b->edc_db[k] > y_min)
        k++;
      t_end = fmax (t_end, k / rate);
    }
  if (!(t_end > 0))
    t_end = 1.0;
  ax.x0 = 0;
  ax.x1 = t_end * 1.05;
  ax.y0 = y_min;
  ax.y1 = 3;

  draw_title (cr, area, ax.fs, title);
  if (above)
    shade_above (cr, &ax, ax.frame.x);
  draw_axes (cr, &ax, _("Time after onset (s)"), _("Level (dB)"));
  report_axes (cr, &ax, RW_PLOT_KIND_EDC, "s", "dB", band, 0, n_series, axes_out);
  if (above)
    label_above (cr, &ax, ax.frame.x);
  cairo_save (cr);
  clip_frame (cr, &ax);

  for (size_t s = 0; s < n_series; s++)
    {
      const RwBandResult *b = &series[s].analysis->bands[band];
      double rate = series[s].analysis->rate_hz;
      if (!b->analysed || b->n_edc == 0)
        continue;
      cairo_new_path (cr);
      bool started = false;
      double col = 0.5, dy = 0;
      cairo_device_to_user_distance (cr, &col, &dy);
      double last_x = -1e30;
      for (size_t i = 0; i < b->n_edc; i++)
        {
          double x = ax_x (&ax, i / rate);
          if (x - last_x < fabs (col) && i + 1 < b->n_edc)
            continue;
          double y = ax_y (&ax, fmax (b->edc_db[i], y_min - 5));
          if (!isfinite (y))
            continue;
          if (!started)
            cairo_move_to (cr, x, y);
          else
            cairo_line_to (cr, x, y);
          started = true;
          last_x = x;
        }
      rw_plot_set_series_style (cr, (int) s, ax.lw * 2.0);
      cairo_stroke (cr);

      const RwDecayFit *f = fit_of (b, fit);
      if (f && isfinite (f->slope_db_per_s) && isfinite (f->intercept_db) && f->slope_db_per_s < 0)
        {
          /* The fit line across the plot, from 0 dB down to y_min. */
          double t0 = (0 - f->intercept_db) / f->slope_db_per_s;
          double t1 = (y_min - f->intercept_db) / f->slope_db_per_s;
          double rgb[3];
          rw_plot_series_colour ((int) s, rgb);
          cairo_set_source_rgb (cr, rgb[0] * 0.6, rgb[1] * 0.6, rgb[2] * 0.6);
          cairo_set_line_width (cr, ax.lw * 1.2);
          double dash[] = { ax.lw * 1.5, ax.lw * 3 };
          cairo_set_dash (cr, dash, 2, 0);
          cairo_move_to (cr, ax_x (&ax, fmax (0, t0)), ax_y (&ax, f->intercept_db + f->slope_db_per_s * fmax (0, t0)));
          cairo_line_to (cr, ax_x (&ax, t1), ax_y (&ax, y_min));
          cairo_stroke (cr);
          cairo_set_dash (cr, NULL, 0, 0);
        }
    }
  cairo_restore (cr);

  /* The fitted values, one line per series, top right. */
  set_font (cr, ax.fs * 0.9, false);
  double yy = ax.frame.y + ax.fs * 0.9;
  for (size_t s = 0; s < n_series && fit != RW_PLOT_FIT_NONE; s++)
    {
      const RwBandResult *b = &series[s].analysis->bands[band];
      const RwDecayFit *f = fit_of (b, fit);
      char buf[96];
      const char *name = fit == RW_PLOT_FIT_EDT ? "EDT" : fit == RW_PLOT_FIT_T20 ? "T20" : "T30";
      if (b->analysed && f && isfinite (f->value_s))
        snprintf (buf, sizeof buf, "%s %.2f s", name, f->value_s);
      else
        snprintf (buf, sizeof buf, _("%s n/a"), name);
      double rgb[3];
      rw_plot_series_colour ((int) s, rgb);
      cairo_set_source_rgb (cr, rgb[0] * 0.8, rgb[1] * 0.8, rgb[2] * 0.8);
      rw_plot_text (cr, ax.frame.x + ax.frame.width - ax.fs * 0.4, yy, 1.0, 0.5, buf);
      yy += ax.fs * 1.2;
    }
  if (legend)
    {
      LegendEntry e[RW_PLOT_MAX_SERIES];
      size_t ne = 0;
      for (size_t s = 0; s < n_series && ne < RW_PLOT_MAX_SERIES; s++)
        e[ne++] = (LegendEntry) { series[s].label, (int) s, false };
      draw_legend (cr, &ax, e, ne, true);
    }
  end_plot (cr);
}

void
rw_plot_edc (cairo_t *cr, RwRect area, int band, const RwPlotSeries *series,
             size_t n_series, RwPlotFit fit)
{
  rw_plot_edc_axes (cr, area, band, series, n_series, fit, NULL);
}

void
rw_plot_edc_axes (cairo_t *cr, RwRect area, int band, const RwPlotSeries *series,
                  size_t n_series, RwPlotFit fit, RwPlotAxes *axes_out)
{
  if (axes_out)
    *axes_out = (RwPlotAxes) { .kind = RW_PLOT_KIND_NONE, .band = -1 };
  if (band < 0 || band > RW_ANALYSIS_BROADBAND)
    return;
  draw_edc_panel (cr, area, band, series, n_series, fit, true, axes_out);
}

void
rw_plot_edc_grid (cairo_t *cr, RwRect area, const char *title, unsigned band_mask,
                  const RwPlotSeries *series, size_t n_series, RwPlotFit fit)
{
  rw_plot_edc_grid_axes (cr, area, title, band_mask, series, n_series, fit, NULL, 0, NULL);
}

void
rw_plot_edc_grid_axes (cairo_t *cr, RwRect area, const char *title, unsigned band_mask,
                       const RwPlotSeries *series, size_t n_series, RwPlotFit fit,
                       RwPlotAxes *panels_out, size_t max_panels, size_t *n_panels_out)
{
  if (n_panels_out)
    *n_panels_out = 0;
  int bands[RW_ANALYSIS_N_BANDS], nb = 0;
  for (int b = 0; b < RW_ANALYSIS_N_BANDS; b++)
    if (band_mask == 0 || (band_mask & (1u << b)))
      bands[nb++] = b;
  if (nb == 0)
    return;
  begin_plot (cr, area);
  double fs = rw_plot_font_size ((RwRect) { 0, 0, 0, area.height / 2.5 });
  double top = 0;
  if (title && *title)
    {
      draw_title (cr, area, fs, title);
      top = fs * 2.4;
    }
  /* legend strip under the title */
  set_font (cr, fs * 0.95, false);
  double x = area.x + fs * 0.6, y = area.y + top + fs * 0.6;
  for (size_t s = 0; s < n_series; s++)
    {
      if (!series[s].label)
        continue;
      rw_plot_set_series_style (cr, (int) s, fs / 5.0);
      cairo_move_to (cr, x, y);
      cairo_line_to (cr, x + fs * 2.5, y);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
      cairo_set_source_rgb (cr, 0, 0, 0);
      rw_plot_text (cr, x + fs * 3.0, y, 0, 0.5, series[s].label);
      x += fs * 4.5 + text_width (cr, series[s].label);
    }
  if (fit != RW_PLOT_FIT_NONE)
    {
      cairo_set_source_rgb (cr, 0.3, 0.3, 0.3);
      cairo_set_line_width (cr, fs / 8.0);
      double dash[] = { fs / 6.0, fs / 3.0 };
      cairo_set_dash (cr, dash, 2, 0);
      cairo_move_to (cr, x, y);
      cairo_line_to (cr, x + fs * 2.5, y);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
      cairo_set_source_rgb (cr, 0, 0, 0);
      const char *fl = fit == RW_PLOT_FIT_EDT ? _("EDT fit") : fit == RW_PLOT_FIT_T20 ? _("T20 fit") : _("T30 fit");
      rw_plot_text (cr, x + fs * 3.0, y, 0, 0.5, fl);
    }
  top += fs * 1.6;

  int cols = nb <= 2 ? nb : nb <= 4 ? 2 : 3;
  if (area.width < area.height * 0.6 && nb > 4)
    cols = 2;
  int rows = (nb + cols - 1) / cols;
  double cw = area.width / cols, ch = (area.height - top) / rows;
  for (int i = 0; i < nb; i++)
    {
      RwRect r = { area.x + (i % cols) * cw, area.y + top + (i / cols) * ch, cw, ch };
      RwPlotAxes *pa = panels_out && (size_t) i < max_panels ? &panels_out[i] : NULL;
      draw_edc_panel (cr, r, bands[i], series, n_series, fit, false, pa);
      if (pa && n_panels_out)
        *n_panels_out = (size_t) i + 1;
    }
  end_plot (cr);
}

/* ---- bars ---- */

void
rw_plot_band_bars (cairo_t *cr, RwRect area, const char *title, RwPlotParam param,
                   const RwPlotSeries *series, size_t n_series)
{
  rw_plot_band_bars_axes (cr, area, title, param, series, n_series, NULL);
}

void
rw_plot_band_bars_axes (cairo_t *cr, RwRect area, const char *title, RwPlotParam param,
                        const RwPlotSeries *series, size_t n_series, RwPlotAxes *axes_out)
{
  begin_plot (cr, area);
  Axes ax = { 0 };
  axes_layout (area, title, 5, &ax);
  double vmin = 0, vmax = 0;
  for (size_t s = 0; s < n_series; s++)
    for (int b = 0; b < RW_N_OCTAVES; b++)
      {
        double v = rw_plot_param_value (&series[s].analysis->bands[b], param);
        if (isfinite (v))
          {
            vmin = fmin (vmin, v);
            vmax = fmax (vmax, v);
          }
      }
  if (vmax - vmin <= 0)
    vmax = vmin + 1;
  double pad = (vmax - vmin) * 0.15;
  ax.x0 = 0;
  ax.x1 = RW_N_OCTAVES;
  ax.y0 = vmin < 0 ? vmin - pad : 0;
  ax.y1 = vmax > 0 ? vmax + pad : 0;
  if (param == RW_PLOT_PARAM_D50)
    {
      ax.y0 = 0;
      ax.y1 = 1.0;
    }
  draw_title (cr, area, ax.fs, title);
  report_axes (cr, &ax, RW_PLOT_KIND_BARS, "band", rw_plot_param_unit (param), -1, param, n_series,
               axes_out);

  /* axes without x ticks: categorical bands */
  Axes ay = ax;
  char ylab[64];
  const char *unit = rw_plot_param_unit (param);
  if (*unit)
    snprintf (ylab, sizeof ylab, "%s (%s)", rw_plot_param_name (param), unit);
  else
    snprintf (ylab, sizeof ylab, "%s", rw_plot_param_name (param));

  /* shading first, under the grid */
  for (int b = 0; b < RW_N_OCTAVES; b++)
    {
      bool above = false;
      for (size_t s = 0; s < n_series; s++)
        above |= series[s].analysis->bands[b].above_fmax;
      if (above)
        {
          cairo_set_source_rgb (cr, shade_grey, shade_grey, shade_grey);
          cairo_rectangle (cr, ax_x (&ax, b), ax.frame.y, ax.frame.width / RW_N_OCTAVES, ax.frame.height);
          cairo_fill (cr);
        }
    }
  /* y grid, labels, frame (draw_axes with x grid suppressed: the x range
   * is drawn as band labels below). */
  {
    const RwRect *f = &ay.frame;
    char buf[64];
    set_font (cr, ay.fs, false);
    cairo_set_line_width (cr, ay.lw);
    double ystep = nice_step (ay.y1 - ay.y0, (int) fmax (3.0, fmin (8.0, f->height / (ay.fs * 2.8))));
    for (double v = ceil (ay.y0 / ystep - 1e-9) * ystep; v <= ay.y1 + ystep * 1e-9; v += ystep)
      {
        double y = ax_y (&ay, v);
        cairo_set_source_rgb (cr, grid_grey, grid_grey, grid_grey);
        cairo_move_to (cr, f->x, y);
        cairo_line_to (cr, f->x + f->width, y);
        cairo_stroke (cr);
        cairo_set_source_rgb (cr, 0, 0, 0);
        format_tick (buf, sizeof buf, v, ystep);
        rw_plot_text (cr, f->x - ay.fs * 0.4, y, 1.0, 0.5, buf);
      }
    for (int b = 0; b < RW_N_OCTAVES; b++)
      {
        char hz[32];
        format_hz (hz, sizeof hz, rw_octave_centres_hz[b]);
        rw_plot_text (cr, ax_x (&ay, b + 0.5), f->y + f->height + ay.fs * 0.5, 0.5, 0.0, hz);
      }
    rw_plot_text (cr, f->x + f->width / 2, f->y + f->height + ay.fs * 2.0, 0.5, 0.0, _("Octave band (Hz)"));
    text_vertical (cr, area.x + ay.fs * 1.0, f->y + f->height / 2, ylab);
  }

  double group = ax.frame.width / RW_N_OCTAVES;
  double bw = group * 0.78 / (n_series ? n_series : 1);
  set_font (cr, ax.fs * 0.75, false);
  for (int b = 0; b < RW_N_OCTAVES; b++)
    for (size_t s = 0; s < n_series; s++)
      {
        double v = rw_plot_param_value (&series[s].analysis->bands[b], param);
        double x = ax.frame.x + b * group + group * 0.11 + s * bw;
        double y0 = ax_y (&ax, 0);
        if (!isfinite (v))
          {
            cairo_set_source_rgb (cr, 0.4, 0.4, 0.4);
            cairo_save (cr);
            cairo_translate (cr, x + bw / 2, y0 - ax.fs * 0.3);
            cairo_rotate (cr, -M_PI / 2);
            rw_plot_text (cr, 0, 0, 0.0, 0.5, _("n/a"));
            cairo_restore (cr);
            continue;
          }
        double y = ax_y (&ax, v);
        double rgb[3];
        rw_plot_series_colour ((int) s, rgb);
        cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
        cairo_rectangle (cr, x, fmin (y, y0), bw * 0.94, fabs (y0 - y));
        cairo_fill_preserve (cr);
        cairo_set_source_rgb (cr, 0, 0, 0);
        cairo_set_line_width (cr, ax.lw * 0.8);
        cairo_stroke (cr);
        if (s % 2 == 1)
          {
            /* hatching for the second series: tells it from the first in
             * greyscale too */
            cairo_save (cr);
            cairo_rectangle (cr, x, fmin (y, y0), bw * 0.94, fabs (y0 - y));
            cairo_clip (cr);
            cairo_set_source_rgba (cr, 1, 1, 1, 0.55);
            cairo_set_line_width (cr, ax.lw * 1.2);
            for (double h = -bw * 2; h < fabs (y0 - y) + bw * 2; h += ax.fs * 0.5)
              {
                cairo_move_to (cr, x, fmin (y, y0) + h);
                cairo_line_to (cr, x + bw, fmin (y, y0) + h - bw);
              }
            cairo_stroke (cr);
            cairo_restore (cr);
          }
        char buf[32];
        snprintf (buf, sizeof buf, param == RW_PLOT_PARAM_TS ? "%.0f" : "%.2f", v);
        if (text_width (cr, buf) < bw * 1.1)
          {
            cairo_set_source_rgb (cr, 0, 0, 0);
            rw_plot_text (cr, x + bw * 0.47, v >= 0 ? y - ax.fs * 0.15 : y + ax.fs * 0.15, 0.5, v >= 0 ? 1.0 : 0.0, buf);
          }
      }
  cairo_set_source_rgb (cr, 0, 0, 0);
  cairo_set_line_width (cr, ax.lw);
  cairo_rectangle (cr, ax.frame.x, ax.frame.y, ax.frame.width, ax.frame.height);
  cairo_stroke (cr);
  if (ax.y0 < 0)
    {
      cairo_move_to (cr, ax.frame.x, ax_y (&ax, 0));
      cairo_line_to (cr, ax.frame.x + ax.frame.width, ax_y (&ax, 0));
      cairo_stroke (cr);
    }
  /* the crossover on the band axis: band b spans [b, b + 1), its exact
   * centre 1000 · 10^(0.3 (b − 4)) at b + ½, one octave per band */
  double xo = series_crossover (series, n_series);
  if (isfinite (xo) && xo > 0)
    draw_crossover (cr, &ax, ax_x (&ax, 4.5 + log10 (xo / 1000.0) / 0.3), xo);
  LegendEntry e[RW_PLOT_MAX_SERIES + 1];
  size_t ne = 0;
  for (size_t s = 0; s < n_series && ne < RW_PLOT_MAX_SERIES; s++)
    e[ne++] = (LegendEntry) { series[s].label, (int) s, true };
  draw_legend (cr, &ax, e, ne, ax.y0 < 0 || param == RW_PLOT_PARAM_C50 || param == RW_PLOT_PARAM_C80 || param == RW_PLOT_PARAM_D50);
  end_plot (cr);
}

/* ---- frequency response ---- */

typedef struct {
  const RwSpectrum *s;
  double off;
} SpecData;

static double
spec_x (size_t i, const void *d)
{
  return ((const SpecData *) d)->s->frequency_hz[i];
}

static double
spec_y (size_t i, const void *d)
{
  const SpecData *sd = d;
  return sd->s->level_db[i] + sd->off;
}

void
rw_plot_frequency_response (cairo_t *cr, RwRect area, const char *title,
                            const RwPlotSpectrum *spectra, size_t n_spectra,
                            double f_lo_hz, double f_hi_hz, double fmax_hz,
                            double crossover_hz, const RwRoomMode *modes, size_t n_modes)
{
  rw_plot_frequency_response_axes (cr, area, title, spectra, n_spectra, f_lo_hz, f_hi_hz,
                                   fmax_hz, crossover_hz, modes, n_modes, NULL);
}

void
rw_plot_frequency_response_axes (cairo_t *cr, RwRect area, const char *title,
                                 const RwPlotSpectrum *spectra, size_t n_spectra,
                                 double f_lo_hz, double f_hi_hz, double fmax_hz,
                                 double crossover_hz, const RwRoomMode *modes, size_t n_modes,
                                 RwPlotAxes *axes_out)
{
  begin_plot (cr, area);
  Axes ax = { 0 };
  ax.xlog = true;
  axes_layout (area, title, 4, &ax);
  double lo = INFINITY, hi = 0, lmax = -INFINITY, lmin = INFINITY;
  for (size_t s = 0; s < n_spectra; s++)
    {
      const RwSpectrum *sp = spectra[s].spectrum;
      for (size_t i = 0; i < sp->n; i++)
        if (sp->frequency_hz[i] > 0)
          {
            lo = fmin (lo, sp->frequency_hz[i]);
            hi = fmax (hi, sp->frequency_hz[i]);
          }
    }
  if (f_lo_hz > 0)
    lo = f_lo_hz;
  if (f_hi_hz > 0)
    hi = f_hi_hz;
  if (!(lo > 0) || !(hi > lo))
    {
      lo = 20;
      hi = 20000;
    }
  for (size_t s = 0; s < n_spectra; s++)
    {
      const RwSpectrum *sp = spectra[s].spectrum;
      for (size_t i = 0; i < sp->n; i++)
        {
          double f = sp->frequency_hz[i], l = sp->level_db[i] + spectra[s].offset_db;
          if (f >= lo && f <= hi && isfinite (l))
            {
              lmax = fmax (lmax, l);
              lmin = fmin (lmin, l);
            }
        }
    }
  if (!isfinite (lmax))
    {
      lmax = 0;
      lmin = -60;
    }
  ax.x0 = lo;
  ax.x1 = hi;
  ax.y1 = ceil ((lmax + 3) / 10) * 10;
  /* 60 dB of range at most: deeper notches are clipped, as any analyser
   * shows them. */
  ax.y0 = fmax (floor ((lmin - 3) / 10) * 10, ax.y1 - 60);
  if (ax.y1 - ax.y0 < 20)
    ax.y0 = ax.y1 - 20;

  draw_title (cr, area, ax.fs, title);
  if (isfinite (fmax_hz) && fmax_hz < hi)
    shade_above (cr, &ax, ax_x (&ax, fmax (fmax_hz, lo)));
  draw_axes (cr, &ax, _("Frequency (Hz)"), _("Level (dB)"));
  report_axes (cr, &ax, RW_PLOT_KIND_FREQUENCY, "Hz", "dB", -1, 0, n_spectra, axes_out);
  if (isfinite (fmax_hz) && fmax_hz < hi)
    label_above (cr, &ax, ax_x (&ax, fmax (fmax_hz, lo)));
  cairo_save (cr);
  clip_frame (cr, &ax);
  if (modes && n_modes > 0)
    {
      double last_label = -1e30;
      set_font (cr, ax.fs * 0.7, false);
      for (size_t i = 0; i < n_modes; i++)
        {
          double f = modes[i].frequency_hz;
          if (f < lo || f > hi)
            continue;
          double x = ax_x (&ax, f);
          /* axial modes (the strongest) darker than tangential and oblique */
          cairo_set_source_rgba (cr, 0.25, 0.25, 0.25, modes[i].type == RW_MODE_AXIAL ? 0.8 : 0.45);
          cairo_set_line_width (cr, ax.lw);
          double d1[] = { ax.lw * 4, ax.lw * 2 }, d2[] = { ax.lw, ax.lw * 2 };
          if (modes[i].type == RW_MODE_AXIAL)
            cairo_set_dash (cr, NULL, 0, 0);
          else
            cairo_set_dash (cr, modes[i].type == RW_MODE_TANGENTIAL ? d1 : d2, 2, 0);
          double ytop = ax.frame.y + ax.frame.height * 0.72;
          cairo_move_to (cr, x, ax.frame.y + ax.frame.height);
          cairo_line_to (cr, x, ytop);
          cairo_stroke (cr);
          cairo_set_dash (cr, NULL, 0, 0);
          if (x - last_label > ax.fs * 1.4)
            {
              char buf[48];
              snprintf (buf, sizeof buf, "(%d,%d,%d)", modes[i].l, modes[i].m, modes[i].n);
              cairo_save (cr);
              cairo_translate (cr, x, ytop - ax.fs * 0.2);
              cairo_rotate (cr, -M_PI / 2);
              cairo_set_source_rgb (cr, 0.2, 0.2, 0.2);
              rw_plot_text (cr, 0, 0, 0.0, 0.5, buf);
              cairo_restore (cr);
              last_label = x;
            }
        }
    }
  for (size_t s = 0; s < n_spectra; s++)
    {
      SpecData d = { spectra[s].spectrum, spectra[s].offset_db };
      cairo_new_path (cr);
      path_decimated (cr, &ax, d.s->n, spec_x, spec_y, &d);
      rw_plot_set_series_style (cr, (int) s, ax.lw * 1.8);
      cairo_stroke (cr);
    }
  cairo_restore (cr);
  if (isfinite (crossover_hz) && crossover_hz > 0)
    draw_crossover (cr, &ax, ax_x (&ax, crossover_hz), crossover_hz);
  LegendEntry e[RW_PLOT_MAX_SERIES];
  size_t ne = 0;
  for (size_t s = 0; s < n_spectra && ne < RW_PLOT_MAX_SERIES; s++)
    e[ne++] = (LegendEntry) { spectra[s].label, (int) s, false };
  draw_legend (cr, &ax, e, ne, false);
  end_plot (cr);
}

/* ---- spectrogram ---- */

/* matplotlib's viridis (van der Walt & Smith 2015) sampled at nine equally
 * spaced points: lightness rises monotonically from dark blue to yellow,
 * so the levels read in order in colour, under colour-vision deficiencies
 * and in greyscale. */
static const double viridis[9][3] = {
  { 0.267, 0.005, 0.329 }, { 0.279, 0.175, 0.483 }, { 0.230, 0.322, 0.546 },
  { 0.173, 0.449, 0.558 }, { 0.128, 0.567, 0.551 }, { 0.158, 0.684, 0.502 },
  { 0.369, 0.789, 0.383 }, { 0.678, 0.864, 0.190 }, { 0.993, 0.906, 0.144 },
};

/* Colour of u ∈ [0, 1] (clamped), linear between the samples. */
static void
viridis_rgb (double u, double rgb[3])
{
  u = u < 0 ? 0 : u > 1 ? 1 : u;
  double p = u * 8.0;
  int i = (int) p;
  if (i > 7)
    i = 7;
  double t = p - i;
  for (int c = 0; c < 3; c++)
    rgb[c] = viridis[i][c] + t * (viridis[i + 1][c] - viridis[i][c]);
}

/* The largest level of frames [fa, fb] in bin k. */
static float
column_max (const RwSpectrogram *sg, size_t fa, size_t fb, size_t k)
{
  float m = (float) RW_SPECTROGRAM_FLOOR_DB;
  for (size_t f = fa; f <= fb; f++)
    m = fmaxf (m, sg->level_db[f * sg->n_bins + k]);
  return m;
}

/* [*a, *b]: the indices i with i·step in [lo, hi), or, when none, the one
 * nearest to the middle; clamped to [0, n − 1]. */
static void
index_range (double lo, double hi, double step, size_t n, size_t *a, size_t *b)
{
  double ia = ceil (lo / step - 1e-9), ib = ceil (hi / step - 1e-9) - 1.0;
  if (ib < ia)
    ia = ib = floor (0.5 * (lo + hi) / step + 0.5);
  ia = fmin (fmax (ia, 0.0), (double) (n - 1));
  ib = fmin (fmax (ib, 0.0), (double) (n - 1));
  *a = (size_t) ia;
  *b = (size_t) ib;
}

/* The image of the frame, one cell per device pixel (at most 4096 × 4096). */
static cairo_surface_t *
spectrogram_image (cairo_t *cr, const Axes *ax, const RwSpectrogram *sg, double range_db)
{
  double dw = ax->frame.width, dh = ax->frame.height;
  cairo_user_to_device_distance (cr, &dw, &dh);
  int w = (int) fmin (4096.0, fmax (1.0, ceil (fabs (dw))));
  int h = (int) fmin (4096.0, fmax (1.0, ceil (fabs (dh))));
  cairo_surface_t *img = cairo_image_surface_create (CAIRO_FORMAT_RGB24, w, h);
  float *col = malloc (sg->n_bins * sizeof *col);
  if (cairo_surface_status (img) != CAIRO_STATUS_SUCCESS || col == NULL)
    {
      free (col);
      return img;   /* an error surface paints nothing */
    }
  cairo_surface_flush (img);
  unsigned char *data = cairo_image_surface_get_data (img);
  int stride = cairo_image_surface_get_stride (img);
  double frame_dt = sg->hop / sg->rate_hz, bin_df = sg->rate_hz / sg->window;
  for (int px = 0; px < w; px++)
    {
      size_t fa, fb;
      double ta = ax->x0 + (ax->x1 - ax->x0) * px / w;
      double tb = ax->x0 + (ax->x1 - ax->x0) * (px + 1) / w;
      index_range (ta, tb, frame_dt, sg->n_frames, &fa, &fb);
      for (size_t k = 0; k < sg->n_bins; k++)
        col[k] = column_max (sg, fa, fb, k);
      for (int py = 0; py < h; py++)
        {
          /* row 0 is the top: the highest frequencies */
          double fhi = axis_value (1.0 - (double) py / h, ax->y0, ax->y1, true);
          double flo = axis_value (1.0 - (double) (py + 1) / h, ax->y0, ax->y1, true);
          size_t ka, kb;
          index_range (flo, fhi, bin_df, sg->n_bins, &ka, &kb);
          float m = (float) RW_SPECTROGRAM_FLOOR_DB;
          for (size_t k = ka; k <= kb; k++)
            m = fmaxf (m, col[k]);
          double rgb[3];
          viridis_rgb (1.0 + m / range_db, rgb);
          uint32_t pix = ((uint32_t) lround (rgb[0] * 255) << 16)
                         | ((uint32_t) lround (rgb[1] * 255) << 8) | (uint32_t) lround (rgb[2] * 255);
          memcpy (data + (size_t) py * stride + (size_t) px * 4, &pix, 4);
        }
    }
  free (col);
  cairo_surface_mark_dirty (img);
  return img;
}

/* The colour bar right of the frame: 0 dB at the top, −range at the
 * bottom, ticks every 10 or 20 dB, the unit beside it. */
static void
draw_colour_bar (cairo_t *cr, const Axes *ax, double range_db)
{
  double fs = ax->fs;
  double x = ax->frame.x + ax->frame.width + fs * 0.9, y = ax->frame.y;
  double bw = fs * 0.9, bh = ax->frame.height;
  cairo_pattern_t *grad = cairo_pattern_create_linear (0, y + bh, 0, y);
  for (int i = 0; i < 9; i++)
    cairo_pattern_add_color_stop_rgb (grad, i / 8.0, viridis[i][0], viridis[i][1], viridis[i][2]);
  cairo_rectangle (cr, x, y, bw, bh);
  cairo_set_source (cr, grad);
  cairo_fill (cr);
  cairo_pattern_destroy (grad);
  cairo_set_source_rgb (cr, 0, 0, 0);
  cairo_set_line_width (cr, ax->lw);
  cairo_rectangle (cr, x, y, bw, bh);
  cairo_stroke (cr);
  set_font (cr, fs * 0.9, false);
  double step = range_db > 60 ? 20.0 : 10.0;
  char buf[32];
  for (double v = 0.0; v >= -range_db - 1e-9; v -= step)
    {
      double ty = y + bh * (-v / range_db);
      cairo_move_to (cr, x + bw, ty);
      cairo_line_to (cr, x + bw + fs * 0.3, ty);
      cairo_stroke (cr);
      snprintf (buf, sizeof buf, "%.0f", v);
      rw_plot_text (cr, x + bw + fs * 0.45, ty, 0.0, 0.5, buf);
    }
  set_font (cr, fs, false);
  text_vertical (cr, x + bw + fs * 3.4, y + bh / 2, _("Level (dB re maximum)"));
}

void
rw_plot_spectrogram (cairo_t *cr, RwRect area, const char *title, const RwSpectrogram *sg,
                     double range_db)
{
  rw_plot_spectrogram_axes (cr, area, title, sg, range_db, NULL);
}

void
rw_plot_spectrogram_axes (cairo_t *cr, RwRect area, const char *title, const RwSpectrogram *sg,
                          double range_db, RwPlotAxes *axes_out)
{
  begin_plot (cr, area);
  Axes ax = { 0 };
  ax.ylog = true;
  ax.ticks_only = true;
  axes_layout (area, title, 4, &ax);
  /* room for the colour bar, its tick labels and its unit */
  ax.frame.width = fmax (10.0, ax.frame.width - ax.fs * 4.6);
  if (!(range_db > 0) || !isfinite (range_db))
    range_db = RW_PLOT_SPECTROGRAM_RANGE_DB;
  bool have = sg != NULL && sg->level_db != NULL && sg->n_frames > 0 && sg->n_bins > 1;
  ax.x0 = 0.0;
  ax.x1 = have ? sg->duration_s : 1.0;
  ax.y0 = 20.0;
  ax.y1 = have ? 0.5 * sg->rate_hz : 20000.0;
  if (!(ax.x1 > ax.x0))
    ax.x1 = ax.x0 + 1.0;
  if (!(ax.y1 > ax.y0 * 1.01))
    ax.y1 = ax.y0 * 2.0;
  draw_title (cr, area, ax.fs, title);
  if (have)
    {
      char buf[128];
      snprintf (buf, sizeof buf, _("Hann window %d samples, hop %d, %g Hz"), sg->window, sg->hop,
                sg->rate_hz);
      set_font (cr, ax.fs * 0.85, false);
      cairo_set_source_rgb (cr, 0.3, 0.3, 0.3);
      rw_plot_text (cr, area.x + area.width - ax.fs * 0.5, area.y + ax.fs * 0.7, 1.0, 0.0, buf);
      cairo_surface_t *img = spectrogram_image (cr, &ax, sg, range_db);
      cairo_save (cr);
      clip_frame (cr, &ax);
      cairo_translate (cr, ax.frame.x, ax.frame.y);
      cairo_scale (cr, ax.frame.width / cairo_image_surface_get_width (img),
                   ax.frame.height / cairo_image_surface_get_height (img));
      cairo_set_source_surface (cr, img, 0, 0);
      cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_NEAREST);
      cairo_paint (cr);
      cairo_restore (cr);
      cairo_surface_destroy (img);
    }
  draw_axes (cr, &ax, _("Time (s)"), _("Frequency (Hz)"));
  report_axes (cr, &ax, RW_PLOT_KIND_SPECTROGRAM, "s", "Hz", -1, 0, have ? 1 : 0, axes_out);
  draw_colour_bar (cr, &ax, range_db);
  end_plot (cr);
}

/* ---- axes, for a hover read-out ---- */

double
rw_plot_axes_device_x (const RwPlotAxes *a, double x)
{
  return a->frame.x + axis_fraction (x, a->x0, a->x1, a->x_log) * a->frame.width;
}

double
rw_plot_axes_device_y (const RwPlotAxes *a, double y)
{
  return a->frame.y + a->frame.height - axis_fraction (y, a->y0, a->y1, a->y_log) * a->frame.height;
}

double
rw_plot_axes_data_x (const RwPlotAxes *a, double device_x)
{
  return axis_value ((device_x - a->frame.x) / a->frame.width, a->x0, a->x1, a->x_log);
}

double
rw_plot_axes_data_y (const RwPlotAxes *a, double device_y)
{
  return axis_value ((a->frame.y + a->frame.height - device_y) / a->frame.height, a->y0, a->y1,
                     a->y_log);
}

bool
rw_plot_axes_contains (const RwPlotAxes *a, double device_x, double device_y)
{
  return a != NULL && a->kind != RW_PLOT_KIND_NONE
         && device_x >= a->frame.x && device_x <= a->frame.x + a->frame.width
         && device_y >= a->frame.y && device_y <= a->frame.y + a->frame.height;
}

int
rw_plot_axes_find (const RwPlotAxes *axes, size_t n, double device_x, double device_y)
{
  for (size_t i = 0; i < n; i++)
    if (rw_plot_axes_contains (&axes[i], device_x, device_y))
      return (int) i;
  return -1;
}

int
rw_plot_axes_bar_at (const RwPlotAxes *a, double device_x, double device_y, int *series_out)
{
  if (series_out)
    *series_out = -1;
  if (a->kind != RW_PLOT_KIND_BARS || !rw_plot_axes_contains (a, device_x, device_y))
    return -1;
  /* The geometry of rw_plot_band_bars_axes: groups of equal width, the
   * bars side by side over 78 % of the group from 11 % in, each drawn
   * 94 % of its slot wide. */
  double group = a->frame.width / RW_N_OCTAVES;
  int band = (int) floor ((device_x - a->frame.x) / group);
  band = band < 0 ? 0 : band >= RW_N_OCTAVES ? RW_N_OCTAVES - 1 : band;
  if (series_out && a->n_series > 0)
    {
      double bw = group * 0.78 / a->n_series;
      double u = (device_x - (a->frame.x + band * group + group * 0.11)) / bw;
      int s = (int) floor (u);
      if (u >= 0 && s < (int) a->n_series && u - s <= 0.94)
        *series_out = s;
    }
  return band;
}

/* ---- tables ---- */

double
rw_plot_table (cairo_t *cr, RwRect area, const char *title, const RwPlotTable *t)
{
  cairo_save (cr);
  double fs = fmin (10.0, fmax (6.5, area.width / (t->n_cols * 6.5)));
  double y = area.y;
  if (title && *title)
    {
      cairo_set_source_rgb (cr, 0, 0, 0);
      set_font (cr, fs * 1.15, true);
      rw_plot_text (cr, area.x, y, 0, 0, title);
      y += fs * 2.0;
    }
  double wsum = 0;
  for (size_t c = 0; c < t->n_cols; c++)
    wsum += t->col_weights ? t->col_weights[c] : 1.0;
  double rh = fs * 1.55;
  for (size_t r = 0; r < t->n_rows; r++)
    {
      double x = area.x;
      for (size_t c = 0; c < t->n_cols; c++)
        {
          double w = area.width * (t->col_weights ? t->col_weights[c] : 1.0) / wsum;
          unsigned char fl = t->flags ? t->flags[r * t->n_cols + c] : 0;
          const char *text = t->cells[r * t->n_cols + c];
          if (fl & RW_PLOT_CELL_SHADED)
            {
              cairo_set_source_rgb (cr, shade_grey, shade_grey, shade_grey);
              cairo_rectangle (cr, x, y, w, rh);
              cairo_fill (cr);
            }
          if (fl & RW_PLOT_CELL_FLAGGED)
            {
              /* vermillion tint */
              cairo_set_source_rgb (cr, 0.98, 0.84, 0.74);
              cairo_rectangle (cr, x + 0.5, y + 0.5, w - 1, rh - 1);
              cairo_fill (cr);
            }
          if (text && *text)
            {
              set_font (cr, fs, (fl & (RW_PLOT_CELL_HEADER | RW_PLOT_CELL_FLAGGED)) != 0);
              double tw = text_width (cr, text);
              if (tw > w - fs * 0.6)
                set_font (cr, fs * (w - fs * 0.6) / tw, (fl & (RW_PLOT_CELL_HEADER | RW_PLOT_CELL_FLAGGED)) != 0);
              cairo_set_source_rgb (cr, 0, 0, 0);
              if (c == 0)
                rw_plot_text (cr, x + fs * 0.3, y + rh / 2, 0.0, 0.5, text);
              else
                rw_plot_text (cr, x + w - fs * 0.3, y + rh / 2, 1.0, 0.5, text);
            }
          x += w;
        }
      /* rule under the header and thin rules between rows */
      bool header = t->flags && (t->flags[r * t->n_cols + (t->n_cols > 1 ? 1 : 0)] & RW_PLOT_CELL_HEADER);
      cairo_set_source_rgb (cr, header ? 0 : 0.8, header ? 0 : 0.8, header ? 0 : 0.8);
      cairo_set_line_width (cr, header ? fs / 12 : fs / 20);
      cairo_move_to (cr, area.x, y + rh);
      cairo_line_to (cr, area.x + area.width, y + rh);
      cairo_stroke (cr);
      y += rh;
    }
  cairo_restore (cr);
  return y - area.y;
}

/* ---- files ---- */

/* cairo writes under the temporary name of an RwAtomicFile; the
 * descriptor af holds on the same file is what commit syncs. */
static bool
finish_image (RwAtomicFile *af, cairo_status_t st, RwError *err)
{
  if (st != CAIRO_STATUS_SUCCESS)
    {
      rw_fail (err, RW_ERROR_IO, _("%s: cannot write the image: %s"), af->path,
               cairo_status_to_string (st));
      rw_atomic_file_abort (af);
      return false;
    }
  return rw_atomic_file_commit (af, err);
}

bool
rw_plot_write_png (const char *path, int width, int height, RwPlotDrawFn draw,
                   void *user_data, RwError *err)
{
  if (width < 16 || height < 16 || width > 20000 || height > 20000)
    return rw_fail (err, RW_ERROR_INPUT, _("%s: image size %d × %d is out of range (16 … 20000)"), path, width, height);
  RwAtomicFile af;
  if (!rw_atomic_file_open (&af, path, err))
    return false;
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cairo_t *cr = cairo_create (s);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  draw (cr, (RwRect) { 0, 0, width, height }, user_data);
  cairo_status_t st = cairo_status (cr);
  cairo_destroy (cr);
  if (st == CAIRO_STATUS_SUCCESS)
    st = cairo_surface_write_to_png (s, af.tmp_path);
  cairo_surface_destroy (s);
  return finish_image (&af, st, err);
}

bool
rw_plot_write_svg (const char *path, double width, double height, RwPlotDrawFn draw,
                   void *user_data, RwError *err)
{
  if (!(width >= 16 && height >= 16 && width <= 20000 && height <= 20000))
    return rw_fail (err, RW_ERROR_INPUT, _("%s: image size %g × %g is out of range (16 … 20000)"), path, width, height);
  RwAtomicFile af;
  if (!rw_atomic_file_open (&af, path, err))
    return false;
  cairo_surface_t *s = cairo_svg_surface_create (af.tmp_path, width, height);
  cairo_t *cr = cairo_create (s);
  draw (cr, (RwRect) { 0, 0, width, height }, user_data);
  cairo_status_t st = cairo_status (cr);
  cairo_destroy (cr);
  cairo_surface_finish (s);
  if (st == CAIRO_STATUS_SUCCESS)
    st = cairo_surface_status (s);
  cairo_surface_destroy (s);
  return finish_image (&af, st, err);
}
