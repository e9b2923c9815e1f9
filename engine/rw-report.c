/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-report.c — the comparison report as PDF, CSV, JSON and text; see
 * rw-report.h and docs/REPORT.md §3. */
#include "rw-report.h"
#include "rw-config.h"
#include "rw-file.h"
#include "rw-i18n.h"
#include "rw-json.h"

#include <cairo-pdf.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define A4_W 595.28
#define A4_H 841.89
#define MARGIN 42.0

static const char *band_names[RW_ANALYSIS_N_BANDS] = {
  "63", "125", "250", "500", "1000", "2000", "4000", "8000", "broadband"
};

/* ---- helpers ---- */

/* Rounds to `decimals` and drops the sign of a zero, so that −0.04 shows
 * as "+0.0", not "-0.0". */
static double
tidy (double v, int decimals)
{
  double k = pow (10.0, decimals);
  double r = round (v * k) / k;
  return r == 0.0 ? 0.0 : r;
}

static void
fmt_value (char *buf, size_t len, RwPlotParam p, double v)
{
  if (!isfinite (v))
    {
      snprintf (buf, len, "–");
      return;
    }
  switch (p)
    {
    case RW_PLOT_PARAM_C50:
    case RW_PLOT_PARAM_C80:
      snprintf (buf, len, "%.1f", tidy (v, 1));
      break;
    case RW_PLOT_PARAM_TS:
      snprintf (buf, len, "%.0f", tidy (v, 0));
      break;
    case RW_PLOT_PARAM_EDT:
    case RW_PLOT_PARAM_T20:
    case RW_PLOT_PARAM_T30:
    case RW_PLOT_PARAM_D50:
    case RW_PLOT_N_PARAMS:
    default:
      snprintf (buf, len, "%.2f", tidy (v, 2));
    }
}

/* The difference as shown in tables: relative (%) for EDT and T, else in
 * the parameter's unit; " *" when over the JND. */
static void
fmt_diff (char *buf, size_t len, RwPlotParam p, const RwParamDiff *d)
{
  if (!d->available)
    {
      snprintf (buf, len, "–");
      return;
    }
  bool rel;
  rw_compare_jnd (p, &rel);
  const char *star = d->exceeds_jnd ? " *" : "";
  if (rel)
    snprintf (buf, len, "%+.1f%%%s", tidy (d->relative * 100, 1), star);
  else if (p == RW_PLOT_PARAM_D50)
    snprintf (buf, len, "%+.2f%s", tidy (d->difference, 2), star);
  else if (p == RW_PLOT_PARAM_TS)
    snprintf (buf, len, "%+.0f%s", tidy (d->difference, 0), star);
  else
    snprintf (buf, len, "%+.1f%s", tidy (d->difference, 1), star);
}

/* ---- CSV ---- */

static void
csv_number (FILE *f, double v)
{
  if (isfinite (v))
    fprintf (f, ",%.6g", v);
  else
    fputc (',', f);
}

/* A band's method in the text table's narrow columns. */
static const char *
method_code (RwBandMethod m)
{
  switch (m)
    {
    case RW_BAND_METHOD_WAVE:
      return "W";
    case RW_BAND_METHOD_GEOMETRICAL:
      return "G";
    case RW_BAND_METHOD_BOTH:
      return "W+G";
    case RW_BAND_METHOD_MIXED:
      return "mixed";
    case RW_BAND_METHOD_UNKNOWN:
    default:
      return "?";
    }
}

/* The simulated IR is a hybrid one (issue #12): its crossover is known
 * and each band's method with it. */
static bool
hybrid (const RwComparison *cmp)
{
  return isfinite (cmp->sim.crossover_hz) && cmp->sim.crossover_hz > 0;
}

char *
rw_report_to_csv (const RwComparison *cmp)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&buf, &len);
  if (f == NULL)
    return NULL;
  fprintf (f, "band_hz,parameter,unit,simulated,measured,difference,relative_difference,"
              "jnd,jnd_relative,exceeds_jnd,above_fmax\n");
  for (int b = 0; b < RW_ANALYSIS_N_BANDS; b++)
    for (int p = 0; p < RW_PLOT_N_PARAMS; p++)
      {
        const RwParamDiff *d = &cmp->bands[b].p[p];
        bool rel;
        double jnd = rw_compare_jnd (p, &rel);
        fprintf (f, "%s,%s,%s", band_names[b], rw_plot_param_name (p), rw_plot_param_unit (p));
        csv_number (f, d->sim);
        csv_number (f, d->measured);
        csv_number (f, d->difference);
        csv_number (f, d->relative);
        csv_number (f, jnd);
        fprintf (f, ",%s,%s,%s\n", rel ? "true" : "false", d->exceeds_jnd ? "true" : "false",
                 cmp->bands[b].above_fmax ? "true" : "false");
      }
  fclose (f);
  return buf;
}

bool
rw_report_write_csv (const char *path, const RwComparison *cmp, RwError *err)
{
  char *s = rw_report_to_csv (cmp);
  if (s == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory"), path);
  bool ok = rw_file_write_atomic (path, s, strlen (s), err);
  free (s);
  return ok;
}

/* ---- JSON ---- */

static json_object *
side_json (const char *path, int channel, int channels, double rate, double onset)
{
  json_object *o = json_object_new_object ();
  json_object_object_add (o, "file", json_object_new_string (path));
  json_object_object_add (o, "channel", json_object_new_int (channel));
  json_object_object_add (o, "channels", json_object_new_int (channels));
  json_object_object_add (o, "rate_hz", rw_json_number (rate));
  json_object_object_add (o, "onset_s", rw_json_number (onset));
  return o;
}

char *
rw_report_to_json (const RwComparison *cmp)
{
  json_object *root = json_object_new_object ();
  json_object_object_add (root, "roomwave_version", json_object_new_string (RW_VERSION));
  json_object_object_add (root, "simulated", side_json (cmp->sim_path, cmp->sim_channel, cmp->sim_channels,
                                                        cmp->sim_file_rate_hz, cmp->sim_onset_s));
  json_object_object_add (root, "measured", side_json (cmp->meas_path, cmp->meas_channel, cmp->meas_channels,
                                                       cmp->meas_file_rate_hz, cmp->meas_onset_s));
  json_object_object_add (root, "analysis_rate_hz", rw_json_number (cmp->rate_hz));
  json_object_object_add (root, "fmax_hz", rw_json_number (cmp->fmax_hz));
  json_object_object_add (root, "fmax_source", json_object_new_string (cmp->fmax_source));
  json_object_object_add (root, "crossover_hz", rw_json_number (cmp->sim.crossover_hz));
  json_object_object_add (root, "alignment", json_object_new_string ("iso3382-onset-20dB"));

  json_object *jnds = json_object_new_object ();
  for (int p = 0; p < RW_PLOT_N_PARAMS; p++)
    {
      bool rel;
      double j = rw_compare_jnd (p, &rel);
      json_object *o = json_object_new_object ();
      json_object_object_add (o, "value", rw_json_number (j));
      json_object_object_add (o, "relative", json_object_new_boolean (rel));
      json_object_object_add (o, "unit", json_object_new_string (rel ? "fraction" : rw_plot_param_unit (p)));
      json_object_object_add (jnds, rw_plot_param_name (p), o);
    }
  json_object_object_add (root, "jnd", jnds);

  json_object *bands = json_object_new_array ();
  for (int b = 0; b < RW_ANALYSIS_N_BANDS; b++)
    {
      const RwBandCompare *bc = &cmp->bands[b];
      json_object *jb = json_object_new_object ();
      json_object_object_add (jb, "band", json_object_new_string (band_names[b]));
      json_object_object_add (jb, "centre_hz", b < RW_N_OCTAVES ? rw_json_number (bc->centre_hz) : NULL);
      json_object_object_add (jb, "above_fmax", json_object_new_boolean (bc->above_fmax));
      json_object_object_add (jb, "method", json_object_new_string (rw_band_method_name (cmp->sim.bands[b].method)));
      json_object *params = json_object_new_object ();
      for (int p = 0; p < RW_PLOT_N_PARAMS; p++)
        {
          const RwParamDiff *d = &bc->p[p];
          json_object *o = json_object_new_object ();
          json_object_object_add (o, "unit", json_object_new_string (rw_plot_param_unit (p)));
          json_object_object_add (o, "simulated", rw_json_number (d->sim));
          json_object_object_add (o, "measured", rw_json_number (d->measured));
          json_object_object_add (o, "difference", rw_json_number (d->difference));
          json_object_object_add (o, "relative_difference", rw_json_number (d->relative));
          json_object_object_add (o, "jnds", rw_json_number (d->jnds));
          json_object_object_add (o, "exceeds_jnd", json_object_new_boolean (d->exceeds_jnd));
          json_object_object_add (params, rw_plot_param_name (p), o);
        }
      json_object_object_add (jb, "parameters", params);
      json_object_array_add (bands, jb);
    }
  json_object_object_add (root, "bands", bands);
  json_object *sum = json_object_new_object ();
  json_object_object_add (sum, "compared", json_object_new_int64 ((int64_t) cmp->n_compared));
  json_object_object_add (sum, "exceeding_jnd", json_object_new_int64 ((int64_t) cmp->n_exceeding));
  json_object_object_add (root, "summary", sum);

  return rw_json_take_string (root);
}

bool
rw_report_write_json (const char *path, const RwComparison *cmp, RwError *err)
{
  char *s = rw_report_to_json (cmp);
  if (s == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory"), path);
  RwAtomicFile af;
  bool ok = rw_atomic_file_open (&af, path, err);
  if (ok)
    {
      if (rw_atomic_file_write (&af, s, strlen (s), err)
          && rw_atomic_file_write (&af, "\n", 1, err))
        ok = rw_atomic_file_commit (&af, err);
      else
        {
          rw_atomic_file_abort (&af);
          ok = false;
        }
    }
  free (s);
  return ok;
}

/* ---- text ---- */

char *
rw_report_to_text (const RwComparison *cmp)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&buf, &len);
  if (f == NULL)
    return NULL;
  fprintf (f, _("Simulated: %s (channel %d, %g Hz)\n"), cmp->sim_path, cmp->sim_channel, cmp->sim_file_rate_hz);
  fprintf (f, _("Measured:  %s (channel %d, %g Hz)\n"), cmp->meas_path, cmp->meas_channel, cmp->meas_file_rate_hz);
  if (hybrid (cmp))
    fprintf (f, _("Full band (hybrid), valid up to %g Hz (%s): the wave solver below the crossover %g Hz, "
                  "image sources and rays above it; the method of each band is named below.\n"),
             cmp->fmax_hz, cmp->fmax_source, cmp->sim.crossover_hz);
  else if (isfinite (cmp->fmax_hz))
    fprintf (f, _("Valid up to fmax = %g Hz (%s); bands marked ^ lie above it.\n"), cmp->fmax_hz, cmp->fmax_source);
  else
    fprintf (f, _("No fmax known: every band is compared.\n"));
  fprintf (f, _("Differences are simulated − measured; * = more than one JND (ISO 3382-1 Annex A).\n\n"));
  fprintf (f, "%-14s", "");
  for (int b = 0; b < RW_ANALYSIS_N_BANDS; b++)
    {
      char h[32];
      snprintf (h, sizeof h, "%s%s", b == RW_ANALYSIS_BROADBAND ? "all" : band_names[b],
                cmp->bands[b].above_fmax ? "^" : "");
      fprintf (f, "%9s", h);
    }
  fputc ('\n', f);
  if (hybrid (cmp))
    {
      /* codes: "geometrical" does not fit a column of 9 */
      fprintf (f, "%-14s", _("method"));
      for (int b = 0; b < RW_ANALYSIS_N_BANDS; b++)
        fprintf (f, "%9s", method_code (cmp->sim.bands[b].method));
      fprintf (f, _("\n(method: W = wave solver, FDTD; G = geometrical, image sources + rays; W+G = both, "
                    "the crossover band)\n"));
    }
  for (int p = 0; p < RW_PLOT_N_PARAMS; p++)
    {
      const char *unit = rw_plot_param_unit (p);
      bool rel;
      rw_compare_jnd (p, &rel);
      for (int row = 0; row < 3; row++)
        {
          char label[64];
          const char *what = row == 0 ? "sim" : row == 1 ? "meas" : "diff";
          const char *u = row == 2 && rel ? "%" : unit;
          if (*u)
            snprintf (label, sizeof label, "%s %s (%s)", rw_plot_param_name (p), what, u);
          else
            snprintf (label, sizeof label, "%s %s", rw_plot_param_name (p), what);
          fprintf (f, "%-14s", label);
          for (int b = 0; b < RW_ANALYSIS_N_BANDS; b++)
            {
              const RwParamDiff *d = &cmp->bands[b].p[p];
              char v[48];
              if (row == 0)
                fmt_value (v, sizeof v, p, d->sim);
              else if (row == 1)
                fmt_value (v, sizeof v, p, d->measured);
              else
                fmt_diff (v, sizeof v, p, d);
              /* "–" is 3 bytes, 1 column */
              int pad = strcmp (v, "–") == 0 ? 11 : 9;
              fprintf (f, "%*s", pad, v);
            }
          fputc ('\n', f);
        }
    }
  fprintf (f, _("\n%zu of %zu compared values differ by more than one JND.\n"), cmp->n_exceeding, cmp->n_compared);
  fclose (f);
  return buf;
}

/* ---- PDF pages ---- */

static void
page_text (cairo_t *cr, double x, double y, double size, bool bold, const char *text, double max_w)
{
  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
                          bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, size);
  cairo_text_extents_t te;
  cairo_text_extents (cr, text, &te);
  if (max_w > 0 && te.x_advance > max_w)
    cairo_set_font_size (cr, size * max_w / te.x_advance);
  cairo_set_source_rgb (cr, 0, 0, 0);
  rw_plot_text (cr, x, y, 0, 0, text);
}

/* One line at (x, y); a line wider than max_w (a single long word: a file
 * path) is drawn smaller so that it stays on the page. */
static void
page_line (cairo_t *cr, double x, double y, double size, const char *line, double max_w)
{
  cairo_text_extents_t te;
  cairo_text_extents (cr, line, &te);
  if (te.x_advance > max_w)
    {
      cairo_set_font_size (cr, size * max_w / te.x_advance);
      rw_plot_text (cr, x, y, 0, 0, line);
      cairo_set_font_size (cr, size);
    }
  else
    rw_plot_text (cr, x, y, 0, 0, line);
}

/* Wraps text at spaces into lines no wider than max_w; returns the y
 * below the last line. */
static double
page_paragraph (cairo_t *cr, double x, double y, double size, const char *text, double max_w)
{
  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, size);
  cairo_set_source_rgb (cr, 0, 0, 0);
  char line[1024] = "";
  const char *p = text;
  while (*p)
    {
      const char *sp = strchr (p, ' ');
      size_t wl = sp ? (size_t) (sp - p) : strlen (p);
      char trial[1024];
      snprintf (trial, sizeof trial, "%s%s%.*s", line, line[0] ? " " : "", (int) wl, p);
      cairo_text_extents_t te;
      cairo_text_extents (cr, trial, &te);
      if (te.x_advance > max_w && line[0])
        {
          page_line (cr, x, y, size, line, max_w);
          y += size * 1.35;
          snprintf (line, sizeof line, "%.*s", (int) wl, p);
        }
      else
        snprintf (line, sizeof line, "%s", trial);
      p += wl;
      while (*p == ' ')
        p++;
    }
  if (line[0])
    {
      page_line (cr, x, y, size, line, max_w);
      y += size * 1.35;
    }
  return y;
}

static void
page_footer (cairo_t *cr, double w, double h, int page)
{
  char buf[128];
  snprintf (buf, sizeof buf, _("Roomwave comparison report — page %d of %d"), page + 1, RW_REPORT_N_PAGES);
  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, 8);
  cairo_set_source_rgb (cr, 0.4, 0.4, 0.4);
  rw_plot_text (cr, w / 2, h - MARGIN * 0.6, 0.5, 1.0, buf);
}

static void
series_of (const RwComparison *cmp, RwPlotSeries s[2])
{
  s[0] = (RwPlotSeries) { _("Simulated"), &cmp->sim };
  s[1] = (RwPlotSeries) { _("Measured"), &cmp->meas };
}

static double
peak_of (const float *x, size_t n)
{
  double p = 0;
  for (size_t i = 0; i < n; i++)
    p = fmax (p, fabs (x[i]));
  return p > 0 ? p : 1.0;
}

static void
draw_page_summary (cairo_t *cr, double w, double h, const RwComparison *cmp)
{
  double x = MARGIN, y = MARGIN, tw = w - 2 * MARGIN, fs = 9.5;
  char buf[2048];
  page_text (cr, x, y, 17, true, _("Simulated vs measured impulse response"), tw);
  y += 26;
  time_t now = time (NULL);
  struct tm tm;
  gmtime_r (&now, &tm);
  char date[64];
  strftime (date, sizeof date, "%Y-%m-%d %H:%M UTC", &tm);
  snprintf (buf, sizeof buf, _("Roomwave %s, %s"), RW_VERSION, date);
  page_text (cr, x, y, fs, false, buf, tw);
  y += fs * 2.2;

  snprintf (buf, sizeof buf, _("Simulated: %s — channel %d of %d, %g Hz, onset at %.2f ms"),
            cmp->sim_path, cmp->sim_channel, cmp->sim_channels, cmp->sim_file_rate_hz, cmp->sim_onset_s * 1000);
  y = page_paragraph (cr, x, y, fs, buf, tw);
  snprintf (buf, sizeof buf, _("Measured: %s — channel %d of %d, %g Hz, onset at %.2f ms"),
            cmp->meas_path, cmp->meas_channel, cmp->meas_channels, cmp->meas_file_rate_hz, cmp->meas_onset_s * 1000);
  y = page_paragraph (cr, x, y, fs, buf, tw);
  const char *which = cmp->sim_file_rate_hz == cmp->rate_hz && cmp->meas_file_rate_hz == cmp->rate_hz
    ? _("both files are at this rate")
    : cmp->sim_file_rate_hz == cmp->rate_hz ? _("the measurement resampled to it")
    : cmp->meas_file_rate_hz == cmp->rate_hz ? _("the simulation resampled to it")
    : _("both resampled to it");
  snprintf (buf, sizeof buf, _("Analysis rate: %g Hz (%s, libsamplerate best sinc). Both IRs are aligned at their ISO 3382-1 onset: the first sample 20 dB below the peak."),
            cmp->rate_hz, which);
  y = page_paragraph (cr, x, y, fs, buf, tw);
  y += fs * 0.6;

  if (hybrid (cmp))
    snprintf (buf, sizeof buf,
              _("The simulation is full band (hybrid), valid up to %g Hz (from %s): the wave solver (FDTD) "
                "below the crossover %g Hz, image sources and rays above it, joined in the crossover band. "
                "The table names the method of each octave band; the plots mark the crossover."),
              cmp->fmax_hz, strcmp (cmp->fmax_source, "option") == 0 ? _("the command line") : cmp->fmax_source,
              cmp->sim.crossover_hz);
  else if (isfinite (cmp->fmax_hz))
    {
      char bands[256] = "";
      for (int b = 0; b < RW_N_OCTAVES; b++)
        if (cmp->bands[b].above_fmax)
          {
            size_t l = strlen (bands);
            snprintf (bands + l, sizeof bands - l, "%s%s", l ? ", " : "", band_names[b]);
          }
      snprintf (buf, sizeof buf,
                _("The simulation is valid up to fmax = %g Hz (from %s). %s%s%s"),
                cmp->fmax_hz, strcmp (cmp->fmax_source, "option") == 0 ? _("the command line") : cmp->fmax_source,
                bands[0] ? _("Octave bands reaching above fmax (") : _("Every octave band lies below fmax."),
                bands, bands[0] ? _(" Hz) are shaded grey in every table and plot: their values are shown but are no prediction.") : "");
    }
  else
    snprintf (buf, sizeof buf, _("No fmax was given and no results.json lies beside the simulated IR; every band is compared as valid."));
  page_text (cr, x, y, fs, true, _("Validity"), tw);
  y += fs * 1.5;
  y = page_paragraph (cr, x, y, fs, buf, tw);
  y += fs * 0.6;

  page_text (cr, x, y, fs, true, _("Just-noticeable differences (ISO 3382-1:2009, Annex A)"), tw);
  y += fs * 1.5;
  y = page_paragraph (cr, x, y, fs,
                      _("EDT, T20, T30: 5 % of the measured value. C50, C80: 1 dB. D50: 0.05. Ts: 10 ms. "
                        "A difference of more than one JND is starred and tinted in the table."), tw);
  y += fs * 0.6;
  size_t above = 0;
  for (int b = 0; b < RW_ANALYSIS_N_BANDS; b++)
    if (cmp->bands[b].above_fmax)
      for (int p = 0; p < RW_PLOT_N_PARAMS; p++)
        above += cmp->bands[b].p[p].exceeds_jnd;
  if (hybrid (cmp))   /* no band lies above fmax */
    snprintf (buf, sizeof buf, _("%zu of %zu compared values differ by more than one JND."),
              cmp->n_exceeding, cmp->n_compared);
  else
    snprintf (buf, sizeof buf, _("%zu of %zu compared values differ by more than one JND (%zu of them in bands above fmax)."),
              cmp->n_exceeding, cmp->n_compared, above);
  page_text (cr, x, y, fs, true, _("Summary"), tw);
  y += fs * 1.5;
  y = page_paragraph (cr, x, y, fs, buf, tw);
  y += fs;

  RwPlotSignal sig[2] = {
    { _("Simulated"), cmp->sim_ir, cmp->sim_frames, cmp->rate_hz, -cmp->pre_roll_s, 1.0 / peak_of (cmp->sim_ir, cmp->sim_frames) },
    { _("Measured"), cmp->meas_ir, cmp->meas_frames, cmp->rate_hz, -cmp->pre_roll_s, 1.0 / peak_of (cmp->meas_ir, cmp->meas_frames) },
  };
  double avail = h - MARGIN * 1.2 - y;
  double ph = fmin (250, avail / 2 - 6);
  rw_plot_ir (cr, (RwRect) { x, y, tw, ph }, _("Impulse responses (each normalised to its peak)"),
              _("Amplitude"), sig, 2, 0, 0);
  y += ph + 12;
  rw_plot_ir (cr, (RwRect) { x, y, tw, ph }, _("First 100 ms after the onset"),
              _("Amplitude"), sig, 2, -cmp->pre_roll_s, 0.1);
}

static void
draw_page_table (cairo_t *cr, double w, double h, const RwComparison *cmp)
{
  /* a hybrid IR gets a row naming the method of each band after the
   * header (M = 1), else none */
  enum { COLS = 1 + RW_ANALYSIS_N_BANDS, MAX_ROWS = 2 + 3 * RW_PLOT_N_PARAMS };
  const int M = hybrid (cmp) ? 1 : 0, ROWS = 1 + M + 3 * RW_PLOT_N_PARAMS;
  char text[MAX_ROWS][COLS][48];
  const char *cells[MAX_ROWS * COLS];
  unsigned char flags[MAX_ROWS * COLS];
  double weights[COLS];
  memset (flags, 0, sizeof flags);
  weights[0] = 2.3;
  for (int c = 1; c < COLS; c++)
    weights[c] = c == COLS - 1 ? 1.35 : 1.0;

  snprintf (text[0][0], sizeof text[0][0], "%s", _("Band (Hz)"));
  flags[0] = RW_PLOT_CELL_HEADER;
  for (int b = 0; b < RW_ANALYSIS_N_BANDS; b++)
    {
      snprintf (text[0][b + 1], sizeof text[0][b + 1], "%s",
                b == RW_ANALYSIS_BROADBAND ? _("Broadband") : band_names[b]);
      flags[b + 1] = RW_PLOT_CELL_HEADER | (cmp->bands[b].above_fmax ? RW_PLOT_CELL_SHADED : 0);
    }
  if (M)
    {
      snprintf (text[1][0], sizeof text[1][0], "%s", _("Method"));
      flags[COLS] = RW_PLOT_CELL_HEADER;
      for (int b = 0; b < RW_ANALYSIS_N_BANDS; b++)
        snprintf (text[1][b + 1], sizeof text[1][b + 1], "%s", rw_band_method_label (cmp->sim.bands[b].method));
    }
  for (int p = 0; p < RW_PLOT_N_PARAMS; p++)
    {
      bool rel;
      rw_compare_jnd (p, &rel);
      const char *unit = rw_plot_param_unit (p);
      for (int k = 0; k < 3; k++)
        {
          int r = 1 + M + 3 * p + k;
          const char *what = k == 0 ? _("sim") : k == 1 ? _("meas") : _("diff");
          const char *u = k == 2 && rel ? "%" : unit;
          if (*u)
            snprintf (text[r][0], sizeof text[r][0], "%s %s (%s)", rw_plot_param_name (p), what, u);
          else
            snprintf (text[r][0], sizeof text[r][0], "%s %s", rw_plot_param_name (p), what);
          flags[r * COLS] = k == 0 ? RW_PLOT_CELL_HEADER : 0;
          for (int b = 0; b < RW_ANALYSIS_N_BANDS; b++)
            {
              const RwParamDiff *d = &cmp->bands[b].p[p];
              char *t = text[r][b + 1];
              if (k == 0)
                fmt_value (t, sizeof text[r][b + 1], p, d->sim);
              else if (k == 1)
                fmt_value (t, sizeof text[r][b + 1], p, d->measured);
              else
                fmt_diff (t, sizeof text[r][b + 1], p, d);
              unsigned char fl = cmp->bands[b].above_fmax ? RW_PLOT_CELL_SHADED : 0;
              if (k == 2 && d->exceeds_jnd)
                fl |= RW_PLOT_CELL_FLAGGED;
              flags[r * COLS + b + 1] = fl;
            }
        }
    }
  for (int r = 0; r < ROWS; r++)
    for (int c = 0; c < COLS; c++)
      cells[r * COLS + c] = text[r][c];
  RwPlotTable t = { ROWS, COLS, cells, flags, weights };
  double x = MARGIN, y = MARGIN, tw = w - 2 * MARGIN;
  double used = rw_plot_table (cr, (RwRect) { x, y, tw, h }, _("Room-acoustic parameters per octave band (ISO 3382-1)"), &t);
  y += used + 8;
  y = page_paragraph (cr, x, y, 8,
                      _("diff = simulated − measured (EDT, T20, T30 relative to the measured value). "
                        "* and tint: more than one just-noticeable difference. Grey: band above the simulation's fmax. "
                        "– : not available (decay range too short, or the band cannot be analysed at this rate)."), tw);
  y += 10;
  RwPlotSeries s[2];
  series_of (cmp, s);
  rw_plot_band_bars (cr, (RwRect) { x, y, tw, fmin (300, h - MARGIN * 1.2 - y) },
                     _("Reverberation time T30 per octave band"), RW_PLOT_PARAM_T30, s, 2);
}

static void
draw_page_edc (cairo_t *cr, double w, double h, const RwComparison *cmp)
{
  RwPlotSeries s[2];
  series_of (cmp, s);
  rw_plot_edc_grid (cr, (RwRect) { MARGIN * 0.6, MARGIN, w - 1.2 * MARGIN, h - 2.1 * MARGIN },
                    _("Energy decay curves (Schroeder, from the onset) with T30 fits"), 0, s, 2, RW_PLOT_FIT_T30);
}

/* Mean level difference (sim − meas) over the valid bands, on the
 * spectra's log grid: the measurement's calibration is unknown, so its
 * curve is moved onto the simulation's for the overlay. */
static double
level_offset (const RwSpectrum *a, const RwSpectrum *b, double f_lo, double f_hi)
{
  double sum = 0;
  size_t n = 0, j = 0;
  for (size_t i = 0; i < a->n; i++)
    {
      double f = a->frequency_hz[i];
      if (f < f_lo || f > f_hi || !isfinite (a->level_db[i]))
        continue;
      while (j + 1 < b->n && b->frequency_hz[j + 1] <= f)
        j++;
      if (j < b->n && fabs (b->frequency_hz[j] - f) < f * 0.02 && isfinite (b->level_db[j]))
        {
          sum += a->level_db[i] - b->level_db[j];
          n++;
        }
    }
  return n ? sum / n : 0.0;
}

static void
draw_page_spectrum (cairo_t *cr, double w, double h, const RwComparison *cmp)
{
  double x = MARGIN, y = MARGIN, tw = w - 2 * MARGIN;
  RwSpectrum ss = { 0 }, sm = { 0 };
  double f_hi = fmin (20000.0, cmp->rate_hz / 2 * 0.98);
  bool ok = rw_frequency_response (cmp->sim_ir, cmp->sim_frames, cmp->rate_hz, 6, 20.0, f_hi, 0, &ss, NULL)
            && rw_frequency_response (cmp->meas_ir, cmp->meas_frames, cmp->rate_hz, 6, 20.0, f_hi, 0, &sm, NULL);
  char title[256], note[512];
  if (ok)
    {
      double hi = fmin (isfinite (cmp->fmax_hz) ? cmp->fmax_hz : 1e9, 8000 * M_SQRT2);
      double off = level_offset (&ss, &sm, 63 / M_SQRT2, hi);
      snprintf (title, sizeof title, "%s", _("Frequency response, 1/6-octave smoothing"));
      snprintf (note, sizeof note,
                _("The measured curve is shifted by %+.1f dB to the simulation's mean level between %.0f and %.0f Hz "
                  "(a measurement's calibration is not known; the simulation is calibrated to free field at 1 m)."),
                tidy (off, 1), 63 / M_SQRT2, hi);
      RwPlotSpectrum sp[2] = { { _("Simulated"), &ss, 0 }, { _("Measured"), &sm, off } };
      rw_plot_frequency_response (cr, (RwRect) { x, y, tw, 270 }, title, sp, 2, 20, f_hi, cmp->fmax_hz,
                                  cmp->sim.crossover_hz, NULL, 0);
      y += 274;
      y = page_paragraph (cr, x, y, 8, note, tw);
    }
  else
    {
      y = page_paragraph (cr, x, y, 9, _("The frequency response could not be computed."), tw);
    }
  rw_spectrum_clear (&ss);
  rw_spectrum_clear (&sm);
  y += 8;
  RwPlotSeries s[2];
  series_of (cmp, s);
  double ph = (h - MARGIN * 1.2 - y - 10) / 2;
  rw_plot_band_bars (cr, (RwRect) { x, y, tw, ph }, _("Early decay time EDT per octave band"), RW_PLOT_PARAM_EDT, s, 2);
  y += ph + 10;
  rw_plot_band_bars (cr, (RwRect) { x, y, tw, ph }, _("Clarity C80 per octave band"), RW_PLOT_PARAM_C80, s, 2);
}

void
rw_report_draw_page (cairo_t *cr, int page, double width, double height, const RwComparison *cmp)
{
  cairo_save (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);
  switch (page)
    {
    case 0: draw_page_summary (cr, width, height, cmp); break;
    case 1: draw_page_table (cr, width, height, cmp); break;
    case 2: draw_page_edc (cr, width, height, cmp); break;
    case 3: draw_page_spectrum (cr, width, height, cmp); break;
    default: break;
    }
  page_footer (cr, width, height, page);
  cairo_restore (cr);
}

bool
rw_report_write_pdf (const char *path, const RwComparison *cmp, RwError *err)
{
  /* cairo writes the PDF under the temporary name; the descriptor af
   * holds on the same file is what commit syncs. */
  RwAtomicFile af;
  if (!rw_atomic_file_open (&af, path, err))
    return false;
  cairo_surface_t *s = cairo_pdf_surface_create (af.tmp_path, A4_W, A4_H);
  cairo_pdf_surface_set_metadata (s, CAIRO_PDF_METADATA_TITLE, _("Roomwave comparison report"));
  cairo_pdf_surface_set_metadata (s, CAIRO_PDF_METADATA_CREATOR, "Roomwave " RW_VERSION);
  cairo_t *cr = cairo_create (s);
  for (int p = 0; p < RW_REPORT_N_PAGES; p++)
    {
      rw_report_draw_page (cr, p, A4_W, A4_H, cmp);
      cairo_show_page (cr);
    }
  cairo_status_t st = cairo_status (cr);
  cairo_destroy (cr);
  cairo_surface_finish (s);
  if (st == CAIRO_STATUS_SUCCESS)
    st = cairo_surface_status (s);
  cairo_surface_destroy (s);
  if (st != CAIRO_STATUS_SUCCESS)
    {
      rw_atomic_file_abort (&af);
      return rw_fail (err, RW_ERROR_IO, _("%s: cannot write the report: %s"), path,
                      cairo_status_to_string (st));
    }
  return rw_atomic_file_commit (&af, err);
}
