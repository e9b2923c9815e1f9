/* SPDX-License-Identifier: GPL-3.0-or-later */
/* report-plots-draw-in-rect: every plot routine of rw-plot.h draws inside
 * the rectangle it is given and nowhere else (the GUI shares a surface
 * with other widgets), draws something (a share of the rectangle's pixels
 * is not background), survives empty and absent data, and the file helpers
 * write PNG (of the asked size) and SVG atomically, failing with the path
 * named. The PNGs stay in $RW_TEST_ARTIFACTS (plot-*.png) to look at.
 *
 * The axes each routine reports (RwPlotAxes, for the GUI's hover
 * read-out) map data → device → data back to the same values for every
 * plot type, the frequency axis is logarithmic (100 Hz halfway between
 * 20 Hz and 500 Hz), the data rectangle lies inside the given one and is
 * where the frame was drawn (dark pixels on its edges), the _axes
 * variants draw exactly what the plain routines draw, a scaled cairo_t
 * reports device units, and the bar hit-test finds each bar. A hybrid
 * IR's crossover is drawn as a dark vertical line at 250 Hz on the band
 * bars and the frequency response (and not without one), and its bands
 * are not shaded "above fmax".
 *
 * The spectrogram (rw_plot_spectrogram) of a 1 kHz tone with a click at
 * 0.75 s: its frequency axis is logarithmic (√(20 · 24000) Hz halfway
 * up), and the image lies where the axes say: the click is a yellow (0 dB)
 * column at 0.75 s from 30 Hz to 23 kHz, the tone a bright row at 1 kHz,
 * 4 kHz away from the click the floor's darkest colour. */
#include "rw-test.h"
#include "rw-plot.h"

#include <cairo.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define RATE 48000
#define N (RATE * 3 / 2)

static RwAnalysis sim, meas;
static float *ir_sim, *ir_meas;
static RwSpectrum spec_sim, spec_meas;
static RwRoomMode *modes;
static size_t n_modes;
static RwSpectrogram sg_sim;

static void
make_ir (float *h, double t_low, double t_high, uint32_t seed)
{
  double lp = 0, a = exp (-2 * M_PI * 400.0 / RATE);
  for (size_t i = 0; i < N; i++)
    {
      seed = seed * 1664525u + 1013904223u;
      double w = ((double) (seed >> 8) / (1 << 24) - 0.5) * 2;
      lp = (1 - a) * w + a * lp;
      double t = (double) i / RATE;
      h[i] = (float) (0.1 * (3 * lp * exp (-6.9 * t / t_low) + (w - lp) * exp (-6.9 * t / t_high)));
    }
  h[0] = 1.0f;
}

/* Draws plot k into r; returns its name. */
static const char *
draw_plot (cairo_t *cr, RwRect r, int k)
{
  RwPlotSeries s[2] = { { "Simulated", &sim }, { "Measured", &meas } };
  switch (k)
    {
    case 0:
      {
        RwPlotSignal sig[2] = { { "Simulated", ir_sim, N, RATE, 0, 1 }, { "Measured", ir_meas, N, RATE, 0, 1 } };
        rw_plot_ir (cr, r, "Impulse responses", "Amplitude", sig, 2, 0, 0);
        return "ir";
      }
    case 1:
      {
        RwPlotSignal sig[1] = { { "Simulated", ir_sim, N, RATE, -0.005, 1 } };
        rw_plot_ir (cr, r, "First 50 ms", "Pressure (Pa)", sig, 1, -0.005, 0.05);
        return "ir-zoom";
      }
    case 2:
      rw_plot_edc (cr, r, 4, s, 2, RW_PLOT_FIT_T30);
      return "edc-1k";
    case 3:
      rw_plot_edc_grid (cr, r, "Energy decay", 0, s, 2, RW_PLOT_FIT_T20);
      return "edc-grid";
    case 4:
      rw_plot_band_bars (cr, r, "T30", RW_PLOT_PARAM_T30, s, 2);
      return "bars-t30";
    case 5:
      rw_plot_band_bars (cr, r, "C80", RW_PLOT_PARAM_C80, s, 1);
      return "bars-c80";
    case 6:
      {
        RwPlotSpectrum sp[2] = { { "Simulated", &spec_sim, 0 }, { "Measured", &spec_meas, -3 } };
        rw_plot_frequency_response (cr, r, "Frequency response with the modes of a 5 × 4 × 3 m room", sp, 2,
                                    20, 300, 200, NAN, modes, n_modes);
        return "frequency-response-modes";
      }
    case 7:
      {
        const char *cells[] = { "Band", "125", "250", "T30 (s)", "1.20", "1.10", "C80 (dB)", "-0.5", "+1.2 *" };
        unsigned char flags[] = { RW_PLOT_CELL_HEADER, RW_PLOT_CELL_HEADER, RW_PLOT_CELL_HEADER | RW_PLOT_CELL_SHADED,
                                  0, 0, RW_PLOT_CELL_SHADED, 0, 0, RW_PLOT_CELL_FLAGGED | RW_PLOT_CELL_SHADED };
        RwPlotTable t = { 3, 3, cells, flags, NULL };
        double h = rw_plot_table (cr, r, "Parameters", &t);
        RW_CHECK (h > 0 && h <= r.height, "table height %g in a %g-high area", h, r.height);
        return "table";
      }
    case 8:
      {
        /* empty and absent data: no crash, axes still drawn */
        RwAnalysis none;
        memset (&none, 0, sizeof none);
        none.rate_hz = RATE;
        RwPlotSeries e[1] = { { "Nothing", &none } };
        RwSpectrum es = { 0 };
        RwPlotSpectrum esp[1] = { { "Empty", &es, 0 } };
        RwRect half = { r.x, r.y, r.width / 2, r.height / 2 };
        rw_plot_band_bars (cr, half, "No values", RW_PLOT_PARAM_T30, e, 1);
        half.x += r.width / 2;
        rw_plot_edc (cr, half, 2, e, 1, RW_PLOT_FIT_T30);
        half.y += r.height / 2;
        rw_plot_frequency_response (cr, half, "Empty", esp, 1, 0, 0, INFINITY, NAN, NULL, 0);
        half.x -= r.width / 2;
        rw_plot_ir (cr, half, "No signal", NULL, NULL, 0, 0, 0);
        return "empty-data";
      }
    case 9:
      rw_plot_spectrogram (cr, r, "Spectrogram of the simulated IR", &sg_sim, 0);
      return "spectrogram";
    default:
      return NULL;
    }
}

#define N_PLOTS 10

static bool
rect_inside (RwRect in, RwRect out)
{
  return in.width > 0 && in.height > 0 && in.x >= out.x && in.y >= out.y
         && in.x + in.width <= out.x + out.width && in.y + in.height <= out.y + out.height;
}

/* data → device → data at a few points of each axis, relative error. */
static void
check_round_trip (const char *name, const RwPlotAxes *a, RwRect r)
{
  RW_CHECK (a->kind != RW_PLOT_KIND_NONE, "%s: axes reported", name);
  RW_CHECK (rect_inside (a->frame, r), "%s: data rectangle %.1f,%.1f %.1f × %.1f inside %.0f,%.0f %.0f × %.0f",
            name, a->frame.x, a->frame.y, a->frame.width, a->frame.height, r.x, r.y, r.width, r.height);
  double worst = 0;
  for (int i = 0; i <= 4; i++)
    {
      double u = i / 4.0;
      double x = a->x_log ? a->x0 * pow (a->x1 / a->x0, u) : a->x0 + u * (a->x1 - a->x0);
      double y = a->y_log ? a->y0 * pow (a->y1 / a->y0, u) : a->y0 + u * (a->y1 - a->y0);
      double dx = rw_plot_axes_device_x (a, x), dy = rw_plot_axes_device_y (a, y);
      double xb = rw_plot_axes_data_x (a, dx), yb = rw_plot_axes_data_y (a, dy);
      worst = fmax (worst, fabs (xb - x) / fmax (fabs (a->x1 - a->x0), 1e-300));
      worst = fmax (worst, fabs (yb - y) / fmax (fabs (a->y1 - a->y0), 1e-300));
      /* the ends of the ranges are the frame's edges */
      if (i == 0)
        RW_CHECK (fabs (dx - a->frame.x) < 1e-9 && fabs (dy - (a->frame.y + a->frame.height)) < 1e-9,
                  "%s: (x0, y0) at the frame's bottom left", name);
      if (i == 4)
        RW_CHECK (fabs (dx - (a->frame.x + a->frame.width)) < 1e-9 && fabs (dy - a->frame.y) < 1e-9,
                  "%s: (x1, y1) at the frame's top right", name);
    }
  RW_CHECK (worst < 1e-12, "%s: round trip data → device → data off by %.3g of the range", name, worst);
  RW_CHECK (rw_plot_axes_contains (a, a->frame.x + a->frame.width / 2, a->frame.y + a->frame.height / 2)
            && !rw_plot_axes_contains (a, a->frame.x - 1, a->frame.y + 1)
            && !rw_plot_axes_contains (a, a->frame.x + 1, a->frame.y + a->frame.height + 1),
            "%s: contains() is the data rectangle", name);
}

/* The frame is stroked in black on the reported rectangle: a dark pixel
 * within one pixel of its left and bottom edges at mid-length. */
static bool
dark_at (cairo_surface_t *s, double x, double y)
{
  const unsigned char *px = cairo_image_surface_get_data (s);
  int stride = cairo_image_surface_get_stride (s);
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++)
      {
        int xi = (int) floor (x) + dx, yi = (int) floor (y) + dy;
        if (xi < 0 || yi < 0 || xi >= cairo_image_surface_get_width (s) || yi >= cairo_image_surface_get_height (s))
          continue;
        uint32_t v = *(const uint32_t *) (px + yi * stride + 4 * xi);
        /* the hairline (under a pixel wide) is antialiased to grey; the
         * grid (0.86 grey) stays lighter than 0xB0 */
        if ((v >> 24) > 0x80 && ((v >> 16) & 0xFF) < 0xB0 && ((v >> 8) & 0xFF) < 0xB0 && (v & 0xFF) < 0xB0)
          return true;
      }
  return false;
}

static void
check_axes (void)
{
  const int W = 900, H = 600;
  const RwRect r = { 60, 40, 760, 500 };
  RwPlotSeries s[2] = { { "Simulated", &sim }, { "Measured", &meas } };
  RwPlotSignal sig[2] = { { "Simulated", ir_sim, N, RATE, 0, 1 }, { "Measured", ir_meas, N, RATE, 0, 1 } };
  RwPlotSpectrum sp[2] = { { "Simulated", &spec_sim, 0 }, { "Measured", &spec_meas, -3 } };
  RwPlotAxes a;

  /* the spectrogram's signal: a 1 kHz sine at −5.8 dB re an impulse at
   * 0.75 s (a Hann-weighted sine of amplitude A peaks at A·window/4) */
  float *tone = malloc (N * sizeof *tone);
  for (size_t i = 0; i < N; i++)
    tone[i] = (float) (0.001 * sin (2 * M_PI * 1000.0 * i / RATE));
  tone[(size_t) (0.75 * RATE)] += 1.0f;
  RwSpectrogram sg_tone;
  RwError err = { 0 };
  RW_CHECK (rw_spectrogram (tone, N, RATE, 0, 0, 0, &sg_tone, &err), "tone: %s", err.message);
  free (tone);

  for (int k = 0; k < 7; k++)
    {
      cairo_surface_t *surf = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
      cairo_surface_t *plain = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
      cairo_t *cr = cairo_create (surf), *cp = cairo_create (plain);
      const char *name = "?";
      memset (&a, 0, sizeof a);
      switch (k)
        {
        case 0:
          name = "axes ir";
          rw_plot_ir_axes (cr, r, "IR", "Amplitude", sig, 2, 0, 0, &a);
          rw_plot_ir (cp, r, "IR", "Amplitude", sig, 2, 0, 0);
          RW_CHECK (strcmp (a.x_unit, "s") == 0 && fabs (a.x1 - (double) N / RATE) < 1e-9 && !a.x_log,
                    "ir: 1.5 s on a linear axis in s (x1 = %g %s)", a.x1, a.x_unit);
          break;
        case 1:
          name = "axes ir zoom";
          rw_plot_ir_axes (cr, r, "IR", NULL, sig, 1, -0.005, 0.05, &a);
          rw_plot_ir (cp, r, "IR", NULL, sig, 1, -0.005, 0.05);
          RW_CHECK (strcmp (a.x_unit, "ms") == 0 && fabs (a.x0 + 5) < 1e-9 && fabs (a.x1 - 50) < 1e-9,
                    "ir zoom: −5 … 50 ms (%g … %g %s)", a.x0, a.x1, a.x_unit);
          break;
        case 2:
          name = "axes edc";
          rw_plot_edc_axes (cr, r, 4, s, 2, RW_PLOT_FIT_T30, &a);
          rw_plot_edc (cp, r, 4, s, 2, RW_PLOT_FIT_T30);
          RW_CHECK (a.kind == RW_PLOT_KIND_EDC && a.band == 4 && a.y1 == 3 && a.y0 <= -60,
                    "edc: band 4, 3 dB down to %g dB", a.y0);
          break;
        case 3:
          name = "axes bars";
          rw_plot_band_bars_axes (cr, r, "T30", RW_PLOT_PARAM_T30, s, 2, &a);
          rw_plot_band_bars (cp, r, "T30", RW_PLOT_PARAM_T30, s, 2);
          break;
        case 4:
          name = "axes frequency response";
          rw_plot_frequency_response_axes (cr, r, "FR", sp, 2, 20, 500, 200, NAN, modes, n_modes, &a);
          rw_plot_frequency_response (cp, r, "FR", sp, 2, 20, 500, 200, NAN, modes, n_modes);
          RW_CHECK (a.x_log && a.x0 == 20 && a.x1 == 500 && strcmp (a.x_unit, "Hz") == 0,
                    "frequency response: log axis 20 … 500 Hz");
          /* logarithmic: 100 Hz is the geometric mean of 20 and 500 Hz,
           * so it sits halfway across */
          RW_CHECK (fabs (rw_plot_axes_device_x (&a, 100) - (a.frame.x + a.frame.width / 2)) < 1e-9,
                    "100 Hz halfway across a 20 … 500 Hz log axis (%.3f vs %.3f)",
                    rw_plot_axes_device_x (&a, 100), a.frame.x + a.frame.width / 2);
          RW_CHECK (fabs (rw_plot_axes_data_x (&a, a.frame.x + a.frame.width / 4) - 20 * pow (25, 0.25)) < 1e-9,
                    "a quarter across is 20 · 25^¼ Hz");
          break;
        case 5:
          {
            name = "axes edc grid";
            RwPlotAxes panels[RW_ANALYSIS_N_BANDS];
            size_t np = 0;
            rw_plot_edc_grid_axes (cr, r, "Decay", 0, s, 2, RW_PLOT_FIT_T20, panels, RW_ANALYSIS_N_BANDS, &np);
            rw_plot_edc_grid (cp, r, "Decay", 0, s, 2, RW_PLOT_FIT_T20);
            RW_CHECK (np == RW_ANALYSIS_N_BANDS, "edc grid: %zu panels reported", np);
            for (size_t i = 0; i < np; i++)
              {
                char pn[64];
                snprintf (pn, sizeof pn, "edc grid panel %zu", i);
                check_round_trip (pn, &panels[i], r);
                RW_CHECK (panels[i].band == (int) i, "%s: band %d", pn, panels[i].band);
                double cx = panels[i].frame.x + panels[i].frame.width / 2, cy = panels[i].frame.y + panels[i].frame.height / 2;
                RW_CHECK (rw_plot_axes_find (panels, np, cx, cy) == (int) i, "%s: hit-test finds it", pn);
              }
            RW_CHECK (rw_plot_axes_find (panels, np, r.x + 1, r.y + 1) == -1, "edc grid: title strip hits no panel");
            a = panels[np > 4 ? 4 : 0];
            /* a smaller grid: only the panels drawn, within max_panels */
            rw_plot_edc_grid_axes (cp, r, "Decay", 0x3, s, 2, RW_PLOT_FIT_T20, panels, 1, &np);
            RW_CHECK (np == 1, "edc grid: max_panels 1 → %zu filled", np);
          }
          break;
        case 6:
          name = "axes spectrogram";
          rw_plot_spectrogram_axes (cr, r, "Tone and click", &sg_tone, 0, &a);
          rw_plot_spectrogram (cp, r, "Tone and click", &sg_tone, 0);
          RW_CHECK (a.kind == RW_PLOT_KIND_SPECTROGRAM && a.y_log && !a.x_log && a.y0 == 20
                    && a.y1 == RATE / 2 && a.x0 == 0 && fabs (a.x1 - (double) N / RATE) < 1e-12
                    && strcmp (a.x_unit, "s") == 0 && strcmp (a.y_unit, "Hz") == 0,
                    "spectrogram: 0 … 1.5 s by a log axis 20 Hz … 24 kHz (%g … %g %s, %g … %g %s)",
                    a.x0, a.x1, a.x_unit, a.y0, a.y1, a.y_unit);
          /* logarithmic: √(20 · 24000) Hz halfway up */
          RW_CHECK (fabs (rw_plot_axes_device_y (&a, sqrt (20.0 * 24000.0)) - (a.frame.y + a.frame.height / 2)) < 1e-9,
                    "spectrogram: the geometric mean of 20 Hz and 24 kHz halfway up");
          {
            /* the image where the axes say: the click a bright (yellow)
             * column at 0.75 s at every frequency, the tone a bright row at
             * 1 kHz, nothing (the darkest colour) at 4 kHz away from the
             * click */
            cairo_surface_flush (surf);
            const unsigned char *px = cairo_image_surface_get_data (surf);
            int stride = cairo_image_surface_get_stride (surf);
#define PIX(t, f) (*(const uint32_t *) (px + (int) rw_plot_axes_device_y (&a, f) * stride \
                                        + 4 * (int) rw_plot_axes_device_x (&a, t)))
            static const double fs_click[] = { 30, 100, 1000, 5000, 15000, 23000 };
            for (size_t i = 0; i < sizeof fs_click / sizeof fs_click[0]; i++)
              {
                uint32_t v = PIX (0.75, fs_click[i]);
                RW_CHECK (((v >> 16) & 0xFF) > 0xD0 && ((v >> 8) & 0xFF) > 0xD0 && (v & 0xFF) < 0x60,
                          "spectrogram: the click at 0.75 s, %g Hz is #%06x, not yellow", fs_click[i],
                          v & 0xFFFFFF);
              }
            static const double ts[] = { 0.2, 0.5, 1.2 };
            for (size_t i = 0; i < 3; i++)
              {
                uint32_t on = PIX (ts[i], 1000.0), off = PIX (ts[i], 4000.0);
                RW_CHECK (((on >> 8) & 0xFF) > 0xC0, "spectrogram: the tone at %g s, 1 kHz is #%06x, not bright",
                          ts[i], on & 0xFFFFFF);
                RW_CHECK ((off & 0xFFFFFF) == 0x440154, "spectrogram: %g s, 4 kHz is #%06x, not the floor's #440154",
                          ts[i], off & 0xFFFFFF);
              }
#undef PIX
          }
          break;
        }
      check_round_trip (name, &a, r);
      cairo_surface_flush (surf);
      RW_CHECK (dark_at (surf, a.frame.x, a.frame.y + a.frame.height / 2)
                && dark_at (surf, a.frame.x + a.frame.width / 2, a.frame.y + a.frame.height),
                "%s: the frame is drawn on the reported data rectangle", name);
      if (k != 5)
        {
          cairo_surface_flush (plain);
          int stride = cairo_image_surface_get_stride (surf);
          RW_CHECK (memcmp (cairo_image_surface_get_data (surf), cairo_image_surface_get_data (plain),
                            (size_t) stride * H) == 0, "%s: draws exactly what the plain routine draws", name);
        }
      if (k == 3)
        {
          /* each bar's centre hits that band and series; the gap between
           * groups hits the band and no series */
          int bad = 0;
          double group = a.frame.width / RW_N_OCTAVES, bw = group * 0.78 / 2;
          for (int b = 0; b < RW_N_OCTAVES; b++)
            for (int sr = 0; sr < 2; sr++)
              {
                int got_s = -9;
                double x = a.frame.x + b * group + group * 0.11 + (sr + 0.47) * bw;
                int got_b = rw_plot_axes_bar_at (&a, x, a.frame.y + a.frame.height / 2, &got_s);
                bad += got_b != b || got_s != sr;
              }
          RW_CHECK (bad == 0, "bars: %d of 16 bar centres hit the wrong band or series", bad);
          int gs = 0;
          int gb = rw_plot_axes_bar_at (&a, rw_plot_axes_device_x (&a, 2.02), a.frame.y + 5, &gs);
          RW_CHECK (gb == 2 && gs == -1, "bars: the gap at the start of band 2 → band %d, series %d", gb, gs);
          RW_CHECK (rw_plot_axes_bar_at (&a, a.frame.x - 2, a.frame.y + 5, &gs) == -1, "bars: left of the frame → none");
          RW_CHECK (floor (rw_plot_axes_data_x (&a, rw_plot_axes_device_x (&a, 5.5))) == 5, "bars: x is the band index");
        }
      cairo_destroy (cr);
      cairo_destroy (cp);
      cairo_surface_destroy (surf);
      cairo_surface_destroy (plain);
    }

  /* A scaled, translated cairo_t (the compare page's preview): the frame
   * comes back in device units. */
  cairo_surface_t *surf = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 400, 300);
  cairo_t *cr = cairo_create (surf);
  RwPlotAxes u, d;
  rw_plot_frequency_response_axes (cr, r, "FR", sp, 1, 20, 500, 200, NAN, NULL, 0, &u);
  cairo_translate (cr, 10, 20);
  cairo_scale (cr, 0.4, 0.4);
  rw_plot_frequency_response_axes (cr, r, "FR", sp, 1, 20, 500, 200, NAN, NULL, 0, &d);
  RW_CHECK (fabs (d.frame.x - (10 + 0.4 * u.frame.x)) < 1e-9 && fabs (d.frame.y - (20 + 0.4 * u.frame.y)) < 1e-9
            && fabs (d.frame.width - 0.4 * u.frame.width) < 1e-9 && fabs (d.frame.height - 0.4 * u.frame.height) < 1e-9,
            "scaled cairo_t: data rectangle in device units (%.2f,%.2f %.2f × %.2f)",
            d.frame.x, d.frame.y, d.frame.width, d.frame.height);
  cairo_destroy (cr);
  cairo_surface_destroy (surf);

  /* An out-of-range band reports no axes rather than stale ones. */
  memset (&a, 0x5a, sizeof a);
  cairo_surface_t *tiny = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 10, 10);
  cr = cairo_create (tiny);
  rw_plot_edc_axes (cr, r, 99, s, 1, RW_PLOT_FIT_T30, &a);
  RW_CHECK (a.kind == RW_PLOT_KIND_NONE && !rw_plot_axes_contains (&a, 400, 300), "edc band 99: no axes");
  cairo_destroy (cr);
  cairo_surface_destroy (tiny);
  rw_spectrogram_clear (&sg_tone);
}

/* Share of the frame's height in device column x (± 1 pixel, the
 * darkest of the three) whose pixels are dark (dark_at's test) or, with
 * `shade`, the "above fmax" grey (0.90: 0xE5 or 0xE6). */
static double
column_share (cairo_surface_t *s, const RwRect *frame, double x, bool shade)
{
  const unsigned char *px = cairo_image_surface_get_data (s);
  int stride = cairo_image_surface_get_stride (s);
  double best = 0;
  for (int dx = -1; dx <= 1; dx++)
    {
      int xi = (int) floor (x) + dx, hits = 0, n = 0;
      for (int yi = (int) ceil (frame->y) + 1; yi < (int) (frame->y + frame->height) - 1; yi++, n++)
        {
          uint32_t v = *(const uint32_t *) (px + yi * stride + 4 * xi);
          int r = (v >> 16) & 0xFF, g = (v >> 8) & 0xFF, b = v & 0xFF;
          if (shade ? (r >= 0xE4 && r <= 0xE7 && g == r && b == r) : (r < 0x80 && g < 0x80 && b < 0x80))
            hits++;
        }
      best = fmax (best, n ? (double) hits / n : 0);
    }
  return best;
}

/* A hybrid IR's crossover (issue #12): the band bars draw it where the
 * analysis carries one, the frequency response where it is given, as a
 * dark vertical line at its frequency: at 250 Hz the middle of the 250 Hz
 * band's group (its exact centre 251.2 Hz is 0.007 octave off), and
 * where the log axis puts 250 Hz. Without a crossover that column is not
 * dark. The hybrid data (valid to Nyquist) shade no band "above fmax",
 * where the same IR taken as valid to 1 kHz shades 1 … 8 kHz. */
static void
check_crossover (void)
{
  const int W = 900, H = 600;
  const RwRect r = { 60, 40, 760, 500 };
  RwAnalysis hyb;
  RwError err = { 0 };
  RW_CHECK (rw_analyse (ir_sim, N, RATE, RATE / 2.0, &hyb, &err), "hybrid analysis: %s", err.message);
  RwBandMethod m[RW_N_OCTAVES] = { RW_BAND_METHOD_WAVE, RW_BAND_METHOD_WAVE, RW_BAND_METHOD_BOTH };
  for (int b = 3; b < RW_N_OCTAVES; b++)
    m[b] = RW_BAND_METHOD_GEOMETRICAL;
  rw_analysis_set_methods (&hyb, m, 250.0);
  RwAnalysis plain = hyb;   /* the same values, no crossover (shares the EDCs: not cleared) */
  plain.crossover_hz = NAN;

  /* k = 0: bars of one series (two would put their black outlines in the
   * 250 Hz column), k = 2: the frequency response */
  for (int k = 0; k < 3; k += 2)
    {
      cairo_surface_t *with = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
      cairo_surface_t *without = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
      cairo_t *cw = cairo_create (with), *co = cairo_create (without);
      RwPlotAxes a, b;
      double x = NAN;
      const char *name;
      if (k == 0)
        {
          RwPlotSeries sw[1] = { { "Hybrid", &hyb } };
          RwPlotSeries so[1] = { { "Hybrid", &plain } };
          name = "bars";
          rw_plot_band_bars_axes (cw, r, "T20", RW_PLOT_PARAM_T20, sw, 1, &a);
          rw_plot_band_bars_axes (co, r, "T20", RW_PLOT_PARAM_T20, so, 1, &b);
          x = rw_plot_axes_device_x (&a, 2.5);
        }
      else
        {
          RwPlotSpectrum sp[1] = { { "Hybrid", &spec_sim, 0 } };
          name = "frequency response";
          rw_plot_frequency_response_axes (cw, r, "FR", sp, 1, 20, 20000, RATE / 2.0, 250.0, NULL, 0, &a);
          rw_plot_frequency_response_axes (co, r, "FR", sp, 1, 20, 20000, RATE / 2.0, NAN, NULL, 0, &b);
          x = rw_plot_axes_device_x (&a, 250.0);
        }
      cairo_surface_flush (with);
      cairo_surface_flush (without);
      double dw = column_share (with, &a.frame, x, false), dn = column_share (without, &b.frame, x, false);
      RW_NOTE ("%s: the column at 250 Hz (x = %.1f) is %.0f %% dark with the crossover, %.0f %% without",
               name, x, dw * 100, dn * 100);
      RW_CHECK (dw > 0.4 && dn < 0.1, "%s: crossover line at 250 Hz: %.0f %% dark with, %.0f %% without",
                name, dw * 100, dn * 100);
      if (k == 0)
        {
          /* the 4 kHz band's group, left of its bar: no shade for the
           * hybrid data, shade for the IR valid to 1 kHz */
          double xs = rw_plot_axes_device_x (&a, 6.04);
          double sh = column_share (with, &a.frame, xs, true);
          RwPlotSeries s1[1] = { { "Simulated", &sim } };
          cairo_surface_t *wave = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
          cairo_t *cv = cairo_create (wave);
          rw_plot_band_bars_axes (cv, r, "T20", RW_PLOT_PARAM_T20, s1, 1, &b);
          cairo_surface_flush (wave);
          double sv = column_share (wave, &b.frame, xs, true);
          RW_CHECK (sh < 0.05 && sv > 0.5, "above-fmax shade at 4 kHz: hybrid %.0f %%, valid to 1 kHz %.0f %%",
                    sh * 100, sv * 100);
          cairo_destroy (cv);
          cairo_surface_destroy (wave);
        }
      cairo_destroy (cw);
      cairo_destroy (co);
      cairo_surface_destroy (with);
      cairo_surface_destroy (without);
    }
  rw_analysis_clear (&hyb);
}

typedef struct {
  int k;
} DrawData;

static void
draw_cb (cairo_t *cr, RwRect area, void *user)
{
  draw_plot (cr, area, ((DrawData *) user)->k);
}

int
main (void)
{
  ir_sim = malloc (N * sizeof (float));
  ir_meas = malloc (N * sizeof (float));
  make_ir (ir_sim, 1.2, 0.7, 1);
  make_ir (ir_meas, 1.0, 0.8, 2);
  RwError err = { 0 };
  bool ok = rw_analyse (ir_sim, N, RATE, 1000, &sim, &err) && rw_analyse (ir_meas, N, RATE, INFINITY, &meas, &err)
            && rw_frequency_response (ir_sim, N, RATE, 12, 20, 20000, 0, &spec_sim, &err)
            && rw_frequency_response (ir_meas, N, RATE, 12, 20, 20000, 0, &spec_meas, &err)
            && rw_room_modes (5, 4, 3, 343.2, 300, &modes, &n_modes, &err)
            && rw_spectrogram (ir_sim, N, RATE, 0, 0, 0, &sg_sim, &err);
  RW_CHECK (ok, "analysis for the plots: %s", err.message);
  if (!ok)
    return rw_test_finish ();

  const char *art = getenv ("RW_TEST_ARTIFACTS");
  char dir[4096];
  snprintf (dir, sizeof dir, "%s", art && *art ? art : rw_test_tmpdir ());
  mkdir (dir, 0755);

  /* Each plot into a rectangle inset in a transparent surface: every pixel
   * outside the rectangle must stay untouched (alpha 0). */
  const int W = 900, H = 600;
  const RwRect r = { 60, 40, 760, 500 };
  for (int k = 0; k < N_PLOTS; k++)
    {
      cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
      cairo_t *cr = cairo_create (s);
      cairo_set_source_rgb (cr, 0.2, 0.7, 0.1);   /* a state the routine must not leak */
      cairo_set_line_width (cr, 17);
      const char *name = draw_plot (cr, r, k);
      /* the caller's state is restored */
      double lw = cairo_get_line_width (cr);
      RW_CHECK (lw == 17, "%s: line width %g after the call", name, lw);
      RW_CHECK (cairo_status (cr) == CAIRO_STATUS_SUCCESS, "%s: cairo %s", name, cairo_status_to_string (cairo_status (cr)));
      cairo_destroy (cr);
      cairo_surface_flush (s);
      const unsigned char *px = cairo_image_surface_get_data (s);
      int stride = cairo_image_surface_get_stride (s);
      size_t outside = 0, inked = 0;
      for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
          {
            uint32_t v = *(const uint32_t *) (px + y * stride + 4 * x);
            bool in = x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height;
            if (!in && v != 0)
              outside++;
            if (in && (v >> 24) != 0 && (v & 0xFFFFFF) != 0xFFFFFF)
              inked++;
          }
      double frac = (double) inked / (r.width * r.height);
      RW_NOTE ("%s: %.1f %% of the rectangle inked, %zu pixels outside it touched", name, frac * 100, outside);
      RW_CHECK (outside == 0, "%s: drew %zu pixels outside its rectangle", name, outside);
      RW_CHECK (frac > 0.01, "%s: only %.2f %% of the rectangle drawn", name, frac * 100);
      cairo_surface_destroy (s);

      /* and as files */
      char png[4300], svg[4300];
      snprintf (png, sizeof png, "%s/plot-%s.png", dir, name);
      snprintf (svg, sizeof svg, "%s/plot-%s.svg", dir, name);
      DrawData dd = { k };
      RW_CHECK (rw_plot_write_png (png, 800, 500, draw_cb, &dd, &err), "%s: %s", png, err.message);
      RW_CHECK (rw_plot_write_svg (svg, 800, 500, draw_cb, &dd, &err), "%s: %s", svg, err.message);
      cairo_surface_t *back = cairo_image_surface_create_from_png (png);
      RW_CHECK (cairo_surface_status (back) == CAIRO_STATUS_SUCCESS
                && cairo_image_surface_get_width (back) == 800 && cairo_image_surface_get_height (back) == 500,
                "%s: not an 800 × 500 PNG", png);
      cairo_surface_destroy (back);
      FILE *f = fopen (svg, "r");
      char head[512] = "";
      if (f)
        {
          size_t n = fread (head, 1, sizeof head - 1, f);
          head[n] = '\0';
          fclose (f);
        }
      RW_CHECK (strstr (head, "<svg") != NULL, "%s: not SVG", svg);
      unlink (svg);   /* the PNGs are the artifacts */
    }

  check_axes ();
  check_crossover ();

  /* Failures name the path and leave nothing. */
  DrawData dd = { 0 };
  RW_CHECK (!rw_plot_write_png ("/nonexistent-folder/x.png", 100, 100, draw_cb, &dd, &err)
            && strstr (err.message, "/nonexistent-folder/x.png"), "PNG into a missing folder: %s", err.message);
  RW_CHECK (!rw_plot_write_svg ("/nonexistent-folder/x.svg", 100, 100, draw_cb, &dd, &err)
            && strstr (err.message, "/nonexistent-folder/x.svg"), "SVG into a missing folder: %s", err.message);
  char p[4300];
  snprintf (p, sizeof p, "%s/too-small.png", rw_test_tmpdir ());
  RW_CHECK (!rw_plot_write_png (p, 0, 100, draw_cb, &dd, &err) && access (p, F_OK) != 0,
            "a 0-pixel-wide PNG was accepted");

  rw_analysis_clear (&sim);
  rw_analysis_clear (&meas);
  rw_spectrum_clear (&spec_sim);
  rw_spectrum_clear (&spec_meas);
  rw_spectrogram_clear (&sg_sim);
  free (modes);
  free (ir_sim);
  free (ir_meas);
  return rw_test_finish ();
}
