/* report-plots-draw-in-rect: every plot routine of rw-plot.h draws inside
 * the rectangle it is given and nowhere else (the GUI shares a surface
 * with other widgets), draws something (a share of the rectangle's pixels
 * is not background), survives empty and absent data, and the file helpers
 * write PNG (of the asked size) and SVG atomically, failing with the path
 * named. The PNGs stay in $RW_TEST_ARTIFACTS (plot-*.png) to look at. */
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
                                    20, 300, 200, modes, n_modes);
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
        rw_plot_frequency_response (cr, half, "Empty", esp, 1, 0, 0, INFINITY, NULL, 0);
        half.x -= r.width / 2;
        rw_plot_ir (cr, half, "No signal", NULL, NULL, 0, 0, 0);
        return "empty-data";
      }
    default:
      return NULL;
    }
}

#define N_PLOTS 9

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
            && rw_room_modes (5, 4, 3, 343.2, 300, &modes, &n_modes, &err);
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
  free (modes);
  free (ir_sim);
  free (ir_meas);
  return rw_test_finish ();
}
