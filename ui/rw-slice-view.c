/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-slice-view.c — see rw-slice-view.h. */
#include "rw-slice-view.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "rw-project.h"

struct _RwSliceView
{
  GtkDrawingArea parent_instance;

  RwSlice *slice;
  cairo_surface_t *image;
  double peak;             /* slowly decaying colour scale */
  guint n_frames;
  double source[3];
  double receivers[RW_PROJECT_MAX_RECEIVERS][3];
  guint n_receivers;
};

G_DEFINE_TYPE (RwSliceView, rw_slice_view, GTK_TYPE_DRAWING_AREA)

/* Diverging map, t in [−1, 1]: blue → white → red (as in ColorBrewer's
 * RdBu), so that a sign change of the pressure reads at once. */
static void
diverging (double t, guint8 *r, guint8 *g, guint8 *b)
{
  t = CLAMP (t, -1.0, 1.0);
  double a = fabs (t);
  double hr, hg, hb;
  if (t >= 0)
    hr = 1.0 - a * 0.30, hg = 1.0 - a * 0.90, hb = 1.0 - a * 0.85;
  else
    hr = 1.0 - a * 0.87, hg = 1.0 - a * 0.60, hb = 1.0 - a * 0.30;
  *r = (guint8) (255 * hr);
  *g = (guint8) (255 * hg);
  *b = (guint8) (255 * hb);
}

static int
compare_float (gconstpointer a, gconstpointer b, gpointer data)
{
  float x = *(const float *) a, y = *(const float *) b;
  (void) data;
  return (x > y) - (x < y);
}

static void
rebuild_image (RwSliceView *self)
{
  RwSlice *s = self->slice;
  g_clear_pointer (&self->image, cairo_surface_destroy);
  if (s == NULL || s->width <= 0 || s->height <= 0)
    return;

  gsize n = (gsize) s->width * s->height;
  g_autofree float *q = g_new0 (float, n);
  g_autofree float *mag = g_new (float, n);
  gsize n_mag = 0;

  /* The raw field holds the grid's whole band: an impulse excites the
   * scheme's odd-even (checkerboard) mode near the grid Nyquist frequency,
   * far above fmax, which hides the wave. A separable [1 2 1]/4 filter over
   * the inside cells (a zero at the grid Nyquist frequency) shows the
   * band-limited field instead. */
  for (int v = 0; v < s->height; v++)
    for (int u = 0; u < s->width; u++)
      {
        gsize i = (gsize) v * s->width + u;
        double acc = 0, w = 0;
        if (!s->inside[i])
          continue;
        for (int dv = -1; dv <= 1; dv++)
          for (int du = -1; du <= 1; du++)
            {
              int uu = u + du, vv = v + dv;
              if (uu < 0 || vv < 0 || uu >= s->width || vv >= s->height)
                continue;
              gsize j = (gsize) vv * s->width + uu;
              if (!s->inside[j] || !isfinite (s->p[j]))
                continue;
              double k = (du ? 1 : 2) * (dv ? 1 : 2);
              acc += k * s->p[j];
              w += k;
            }
        q[i] = w > 0 ? (float) (acc / w) : 0.0f;
      }

  /* A soft source injects net volume into a closed room, so the field
   * carries a slowly growing uniform offset (removed from the IR by the
   * DC block of rw-postprocess). Subtracting the plane's median shows the
   * wave instead of the offset; the median, unlike the mean, stays 0 while
   * most of the plane is still quiet, so quiet air stays white. */
  double mean = 0;
  for (gsize i = 0; i < n; i++)
    if (s->inside[i])
      mag[n_mag++] = q[i];
  if (n_mag > 0)
    {
      g_qsort_with_data (mag, (gint) n_mag, sizeof (float), compare_float, NULL);
      mean = mag[n_mag / 2];
    }
  n_mag = 0;
  for (gsize i = 0; i < n; i++)
    if (s->inside[i])
      mag[n_mag++] = fabsf (q[i] - (float) mean);

  /* Colour scale: the 99th percentile of |p| rather than the peak, so that
   * the few cells at the source do not wash out the rest; it follows a
   * rising level at once and a falling one slowly, so that the late field
   * does not flicker. */
  double peak = 0;
  if (n_mag > 0)
    {
      gsize k = (gsize) (0.99 * (n_mag - 1));
      /* A full sort: a plane has at most a few hundred thousand cells. */
      g_qsort_with_data (mag, (gint) n_mag, sizeof (float), compare_float, NULL);
      peak = mag[k];
    }
  self->peak = MAX (peak, self->peak * 0.9);
  double scale = self->peak > 0 ? 1.0 / self->peak : 1.0;

  self->image = cairo_image_surface_create (CAIRO_FORMAT_RGB24, s->width, s->height);
  int stride = cairo_image_surface_get_stride (self->image);
  guint8 *data = cairo_image_surface_get_data (self->image);
  cairo_surface_flush (self->image);
  for (int v = 0; v < s->height; v++)
    {
      /* Row 0 of the image is the top: the highest v. */
      guint32 *row = (guint32 *) (data + (gsize) (s->height - 1 - v) * stride);
      for (int u = 0; u < s->width; u++)
        {
          gsize i = (gsize) v * s->width + u;
          guint8 r, g, b;
          if (!s->inside[i])
            r = g = b = 70;
          else
            /* sqrt compresses the range so that the reverberant field
             * stays visible next to the direct sound. */
            {
              double t = (q[i] - mean) * scale;
              diverging (copysign (sqrt (fabs (t)), t), &r, &g, &b);
            }
          row[u] = (guint32) r << 16 | (guint32) g << 8 | b;
        }
    }
  cairo_surface_mark_dirty (self->image);
}

/* World point → slice cell coordinates (u, v) and distance to the plane. */
static void
to_slice (const RwSlice *s, const double p[3], double *u, double *v, double *off)
{
  double c[3];
  for (int k = 0; k < 3; k++)
    c[k] = (p[k] - s->origin[k]) / s->spacing_m;
  int a = s->axis;
  int ua = a == 0 ? 1 : 0, va = a == 2 ? 1 : 2;
  *u = c[ua];
  *v = c[va];
  *off = fabs (c[a] - (double) s->index) * s->spacing_m;
}

static void
draw (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
  RwSliceView *self = RW_SLICE_VIEW (area);
  (void) data;

  cairo_set_source_rgb (cr, 0.12, 0.12, 0.14);
  cairo_paint (cr);
  if (self->image == NULL)
    {
      PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (area),
                                                            _("The pressure field appears here while the solver runs."));
      int lw, lh;
      pango_layout_get_pixel_size (layout, &lw, &lh);
      cairo_set_source_rgb (cr, 0.8, 0.8, 0.8);
      cairo_move_to (cr, (width - lw) / 2.0, (height - lh) / 2.0);
      pango_cairo_show_layout (cr, layout);
      g_object_unref (layout);
      return;
    }

  RwSlice *s = self->slice;
  double sc = MIN ((double) (width - 20) / s->width, (double) (height - 40) / s->height);
  if (sc <= 0)
    return;
  double ox = (width - sc * s->width) / 2, oy = (height - 20 - sc * s->height) / 2;

  cairo_save (cr);
  cairo_translate (cr, ox, oy);
  cairo_scale (cr, sc, sc);
  cairo_set_source_surface (cr, self->image, 0, 0);
  cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_NEAREST);
  cairo_paint (cr);
  cairo_restore (cr);

  /* Markers within half a metre of the plane. */
  for (guint i = 0; i < self->n_receivers + 1; i++)
    {
      const double *p = i == 0 ? self->source : self->receivers[i - 1];
      double u, v, off;
      to_slice (s, p, &u, &v, &off);
      if (off > 0.5)
        continue;
      double x = ox + (u + 0.5) * sc, y = oy + (s->height - v - 0.5) * sc;
      cairo_arc (cr, x, y, 6, 0, 2 * G_PI);
      if (i == 0)
        cairo_set_source_rgb (cr, 0.95, 0.2, 0.15);
      else
        cairo_set_source_rgb (cr, 0.2, 0.45, 0.95);
      cairo_fill_preserve (cr);
      cairo_set_source_rgb (cr, 0, 0, 0);
      cairo_set_line_width (cr, 1.5);
      cairo_stroke (cr);
    }

  /* Colour bar: the map from −scale to +scale (square-root compressed,
   * as drawn). */
  {
    double bw = MIN (160, width * 0.25), bh = 10, bx = width - bw - 14, by = height - 24;
    for (int i = 0; i < (int) bw; i++)
      {
        double t = 2.0 * i / (bw - 1) - 1.0;
        guint8 r, g, b;
        diverging (t, &r, &g, &b);
        cairo_set_source_rgb (cr, r / 255.0, g / 255.0, b / 255.0);
        cairo_rectangle (cr, bx + i, by, 1, bh);
        cairo_fill (cr);
      }
    cairo_set_source_rgb (cr, 0.85, 0.85, 0.85);
    cairo_set_line_width (cr, 1);
    cairo_rectangle (cr, bx - 0.5, by - 0.5, bw + 1, bh + 1);
    cairo_stroke (cr);
    const char *marks[] = { "−", "0", "+" };
    for (int k = 0; k < 3; k++)
      {
        PangoLayout *ml = gtk_widget_create_pango_layout (GTK_WIDGET (area), marks[k]);
        int mw, mh;
        pango_layout_get_pixel_size (ml, &mw, &mh);
        cairo_move_to (cr, bx + k * bw / 2 - mw / 2.0, by - mh - 1);
        pango_cairo_show_layout (cr, ml);
        g_object_unref (ml);
      }
  }

  static const char *planes[] = { N_("y–z plane at x = %.2f m, t = %.1f ms"),
                                  N_("x–z plane at y = %.2f m, t = %.1f ms"),
                                  N_("x–y plane at z = %.2f m, t = %.1f ms") };
  g_autofree char *text = g_strdup_printf (_(planes[s->axis]),
                                           s->origin[s->axis] + s->index * s->spacing_m, s->time_s * 1e3);
  PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (area), text);
  cairo_set_source_rgb (cr, 0.85, 0.85, 0.85);
  cairo_move_to (cr, 10, height - 20);
  pango_cairo_show_layout (cr, layout);
  g_object_unref (layout);
}

void
rw_slice_view_take_slice (RwSliceView *self, RwSlice *slice)
{
  gboolean new_plane = self->slice == NULL || slice == NULL
                       || self->slice->axis != slice->axis || self->slice->index != slice->index;
  g_clear_pointer (&self->slice, rw_slice_free);
  self->slice = slice;
  if (new_plane)
    self->peak = 0;
  if (slice != NULL)
    self->n_frames++;
  rebuild_image (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
rw_slice_view_set_points (RwSliceView *self, const double source[3],
                          const double (*receivers)[3], guint n_receivers)
{
  memcpy (self->source, source, sizeof self->source);
  self->n_receivers = MIN (n_receivers, RW_PROJECT_MAX_RECEIVERS);
  memcpy (self->receivers, receivers, self->n_receivers * sizeof receivers[0]);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
rw_slice_view_get_n_frames (RwSliceView *self)
{
  return self->n_frames;
}

static void
rw_slice_view_finalize (GObject *object)
{
  RwSliceView *self = RW_SLICE_VIEW (object);

  rw_slice_free (self->slice);
  g_clear_pointer (&self->image, cairo_surface_destroy);
  G_OBJECT_CLASS (rw_slice_view_parent_class)->finalize (object);
}

static void
rw_slice_view_class_init (RwSliceViewClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = rw_slice_view_finalize;
}

static void
rw_slice_view_init (RwSliceView *self)
{
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self), draw, NULL, NULL);
  gtk_widget_set_size_request (GTK_WIDGET (self), 300, 220);
}
