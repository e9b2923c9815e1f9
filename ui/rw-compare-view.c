/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-compare-view.c — see rw-compare-view.h. */
#include "rw-compare-view.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "rw-audio.h"
#include "rw-plot-view.h"
#include "rw-report.h"

/* A4 in points, the report's page. */
#define PAGE_W_PT 595.0
#define PAGE_H_PT 842.0

struct _RwCompareView
{
  GtkBox parent_instance;

  GtkButton *load_button, *export_button;
  GtkSpinButton *page_spin;
  GtkLabel *summary_label;
  RwPlotView *page_view;

  const RwSimOutput *out;
  RwComparison cmp;
  gboolean have_cmp;
  GCancellable *loading;        /* while a measurement is compared (a worker) */

  /* The axes of the plots on the page as last drawn (recorded around
   * rw_report_draw_page, rw-plot.h), in widget units, for the hover
   * read-out; page_axes_area/page_axes_page say what they are for. */
  RwPlotAxes page_axes[32];
  size_t n_page_axes;
  RwRect page_axes_area;
  int page_axes_page;
};

G_DEFINE_TYPE (RwCompareView, rw_compare_view, GTK_TYPE_BOX)

enum { COMPARED, N_SIGNALS };
static guint signals[N_SIGNALS];

/* The report's page scaled to fit, on grey like a print preview. */
static void
draw_page (cairo_t *cr, RwRect area, void *user_data)
{
  RwCompareView *self = user_data;
  int page = (int) gtk_spin_button_get_value (self->page_spin) - 1;
  double s = MIN ((area.width - 20) / PAGE_W_PT, (area.height - 20) / PAGE_H_PT);

  if (s <= 0)
    return;
  cairo_save (cr);
  cairo_set_source_rgb (cr, 0.75, 0.75, 0.75);
  cairo_rectangle (cr, area.x, area.y, area.width, area.height);
  cairo_fill (cr);
  cairo_translate (cr, area.x + (area.width - s * PAGE_W_PT) / 2, area.y + (area.height - s * PAGE_H_PT) / 2);
  cairo_scale (cr, s, s);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_rectangle (cr, 0, 0, PAGE_W_PT, PAGE_H_PT);
  cairo_fill (cr);
  rw_plot_axes_record_begin (self->page_axes, G_N_ELEMENTS (self->page_axes));
  rw_report_draw_page (cr, CLAMP (page, 0, RW_REPORT_N_PAGES - 1), PAGE_W_PT, PAGE_H_PT, &self->cmp);
  self->n_page_axes = rw_plot_axes_record_end ();
  self->page_axes_area = area;
  self->page_axes_page = page;
  cairo_restore (cr);
}

static double
edc_at (const RwAnalysis *an, int band, double t_s)
{
  const RwBandResult *b = &an->bands[band];
  double k = round (t_s * an->rate_hz);
  return b->analysed && k >= 0 && k < b->n_edc ? b->edc_db[(size_t) k] : NAN;
}

/* The read-out over the page preview: the page's plots were drawn by the
 * report, so the axes come from the recorder; values from the comparison
 * where it holds them (bars, decay curves), else the pointer's position
 * on the axes. */
static char *
readout_page (RwRect area, double x, double y, RwPlotHover *hover, void *user_data)
{
  RwCompareView *self = user_data;
  int page = (int) gtk_spin_button_get_value (self->page_spin) - 1;

  if (!self->have_cmp)
    return NULL;
  if (self->page_axes_page != page || self->page_axes_area.x != area.x || self->page_axes_area.y != area.y
      || self->page_axes_area.width != area.width || self->page_axes_area.height != area.height)
    {
      /* drawn last at another size (an export) or not yet: once more into
       * a recording surface, which rasterises nothing */
      cairo_rectangle_t ext = { area.x, area.y, area.width, area.height };
      cairo_surface_t *s = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, &ext);
      cairo_t *cr = cairo_create (s);
      draw_page (cr, area, self);
      cairo_destroy (cr);
      cairo_surface_destroy (s);
    }
  int i = rw_plot_axes_find (self->page_axes, self->n_page_axes, x, y);
  if (i < 0)
    return NULL;
  const RwPlotAxes *a = &self->page_axes[i];
  hover->frame = a->frame;
  switch (a->kind)
    {
    case RW_PLOT_KIND_BARS:
      {
        int band = rw_plot_axes_bar_at (a, x, y, NULL);
        if (band < 0)
          return NULL;
        const RwParamDiff *d = &self->cmp.bands[band].p[a->param];
        const char *unit = rw_plot_param_unit (a->param);
        int dec = a->param == RW_PLOT_PARAM_TS ? 0 : 2;
        g_autofree char *fs = rw_plot_view_format_frequency (rw_octave_centres_hz[band]);
        g_autofree char *vs = rw_plot_view_format_signed (d->sim, dec), *vm = rw_plot_view_format_signed (d->measured, dec);
        /* "500 Hz: T30 1.21 s (sim) / 1.15 s (meas)" */
        return g_strdup_printf (_("%s: %s %s%s%s (sim) / %s%s%s (meas)"), fs, rw_plot_param_name (a->param),
                                vs, *unit && isfinite (d->sim) ? " " : "", isfinite (d->sim) ? unit : "",
                                vm, *unit && isfinite (d->measured) ? " " : "", isfinite (d->measured) ? unit : "");
      }
    case RW_PLOT_KIND_EDC:
      {
        double t = rw_plot_axes_data_x (a, x);
        g_autofree char *band = a->band == RW_ANALYSIS_BROADBAND ? g_strdup (_("Broadband"))
                                                                  : rw_plot_view_format_frequency (rw_octave_centres_hz[a->band]);
        double vs = edc_at (&self->cmp.sim, a->band, t), vm = edc_at (&self->cmp.meas, a->band, t);
        g_autofree char *ls = rw_plot_view_format_signed (vs, 1), *lm = rw_plot_view_format_signed (vm, 1);
        return g_strdup_printf (_("%s · t = %.3f s: %s%s (sim) / %s%s (meas)"), band, t, ls,
                                isfinite (vs) ? " dB" : "", lm, isfinite (vm) ? " dB" : "");
      }
    case RW_PLOT_KIND_FREQUENCY:
      {
        g_autofree char *fs = rw_plot_view_format_frequency (rw_plot_axes_data_x (a, x));
        g_autofree char *ls = rw_plot_view_format_signed (rw_plot_axes_data_y (a, y), 1);
        return g_strdup_printf (_("%s, %s dB"), fs, ls);
      }
    case RW_PLOT_KIND_IR:
      {
        g_autofree char *ts = rw_plot_view_format_signed (rw_plot_axes_data_x (a, x), g_str_equal (a->x_unit, "ms") ? 2 : 4);
        return g_strdup_printf (_("t = %s %s"), ts, a->x_unit);
      }
    case RW_PLOT_KIND_NONE:
    default:
      return NULL;
    }
}

static void
clear_comparison (RwCompareView *self)
{
  if (self->have_cmp)
    rw_comparison_clear (&self->cmp);
  self->have_cmp = FALSE;
  rw_plot_view_set_draw (self->page_view, NULL, NULL, NULL);
}

/* A comparison still being made is for the output it started with. */
static void
cancel_loading (RwCompareView *self)
{
  if (self->loading != NULL)
    g_cancellable_cancel (self->loading);
  g_clear_object (&self->loading);
}

void
rw_compare_view_set_output (RwCompareView *self, const RwSimOutput *out)
{
  cancel_loading (self);
  clear_comparison (self);
  self->out = out;
  gtk_widget_set_sensitive (GTK_WIDGET (self->load_button), out != NULL);
  gtk_label_set_text (self->summary_label, out ? _("Load a measured impulse response of the real room to compare.")
                                               : _("Run a simulation first."));
}

/* What a comparison needs of the simulation, copied, so that a worker
 * can make it while the results view replaces its output. */
typedef struct {
  char *path;
  float *ir;                    /* receiver 1 */
  size_t frames;
  double rate_hz;
  RwIrValidity validity;
  RwComparison cmp;             /* the result */
} CompareJob;

static void
compare_job_free (CompareJob *job)
{
  rw_comparison_clear (&job->cmp);   /* one not taken by install_comparison */
  g_free (job->path);
  g_free (job->ir);
  g_free (job);
}

static CompareJob *
compare_job_new (const RwSimOutput *out, const char *path)
{
  CompareJob *job = g_new0 (CompareJob, 1);
  job->path = g_strdup (path);
  job->ir = g_memdup2 (out->ir[0], out->ir_frames * sizeof (float));
  job->frames = out->ir_frames;
  job->rate_hz = out->fs_out_hz;
  /* what the results say about the simulated IR (rw-results.h): a hybrid
   * one is valid to the Nyquist frequency, its bands' methods named */
  rw_results_validity (&out->results, &job->validity);
  return job;
}

/* Reads the measurement (channel 1) and compares: any thread. */
static gboolean
compare_work (CompareJob *job, GError **error)
{
  RwAudio meas = { 0 };
  RwError err = { 0 };

  if (!rw_audio_read_channel (job->path, 0, &meas, &err))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, err.message);
      return FALSE;
    }
  gboolean ok = rw_compare_signals (job->ir, job->frames, job->rate_hz, meas.data, meas.frames,
                                    meas.rate_hz, job->validity.valid_up_to_hz, 0, &job->cmp, &err);
  if (ok)
    rw_ir_validity_apply (&job->validity, &job->cmp.sim);
  rw_audio_clear (&meas);
  if (!ok)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: %s", job->path, err.message);
  return ok;
}

/* Shows a comparison made (job->cmp, taken). */
static void
install_comparison (RwCompareView *self, CompareJob *job)
{
  const char *path = job->path;

  clear_comparison (self);
  self->cmp = job->cmp;
  memset (&job->cmp, 0, sizeof job->cmp);
  self->have_cmp = TRUE;
  /* rw_compare_signals takes paths as labels only: name the files. */
  g_strlcpy (self->cmp.sim_path, _("simulation (receiver 1)"), sizeof self->cmp.sim_path);
  g_strlcpy (self->cmp.meas_path, path, sizeof self->cmp.meas_path);
  /* The report says where fmax came from. */
  g_strlcpy (self->cmp.fmax_source, _("the simulation settings"), sizeof self->cmp.fmax_source);

  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *text =
    g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s: %zu of %zu band values differ by more than the JND",
                               "%s: %zu of %zu band values differ by more than the JND", self->cmp.n_exceeding),
                     base, self->cmp.n_exceeding, self->cmp.n_compared);
  gtk_label_set_text (self->summary_label, text);
  self->page_axes_page = -1;
  rw_plot_view_set_draw (self->page_view, draw_page, readout_page, self);
  g_signal_emit (self, signals[COMPARED], 0);
}

gboolean
rw_compare_view_load_measured (RwCompareView *self, const char *path, GError **error)
{
  g_return_val_if_fail (self->out != NULL, FALSE);
  CompareJob *job = compare_job_new (self->out, path);
  gboolean ok = compare_work (job, error);

  if (ok)
    {
      cancel_loading (self);
      install_comparison (self, job);
    }
  compare_job_free (job);
  return ok;
}

static void
compare_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  GError *error = NULL;

  (void) source, (void) cancellable;
  if (compare_work (data, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

void
rw_compare_view_load_measured_async (RwCompareView *self, const char *path, GAsyncReadyCallback callback,
                                     gpointer user_data)
{
  g_return_if_fail (RW_IS_COMPARE_VIEW (self) && self->out != NULL && path != NULL);
  cancel_loading (self);
  self->loading = g_cancellable_new ();
  g_autoptr (GTask) task = g_task_new (self, self->loading, callback, user_data);
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *text = g_strdup_printf (_("Comparing with %s…"), base);

  g_task_set_source_tag (task, rw_compare_view_load_measured_async);
  g_task_set_task_data (task, compare_job_new (self->out, path), (GDestroyNotify) compare_job_free);
  g_task_set_return_on_cancel (task, TRUE);
  gtk_label_set_text (self->summary_label, text);
  gtk_widget_set_sensitive (GTK_WIDGET (self->load_button), FALSE);
  g_task_run_in_thread (task, compare_thread);
}

gboolean
rw_compare_view_load_measured_finish (RwCompareView *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  GTask *task = G_TASK (result);
  GCancellable *c = g_task_get_cancellable (task);
  gboolean ok = g_task_propagate_boolean (task, error);

  /* a newer load or output cleared self->loading (and cancelled this one) */
  if (c != self->loading)
    return ok;
  g_clear_object (&self->loading);
  gtk_widget_set_sensitive (GTK_WIDGET (self->load_button), self->out != NULL);
  if (ok)
    install_comparison (self, g_task_get_task_data (task));
  else if (!self->have_cmp)
    gtk_label_set_text (self->summary_label, _("Load a measured impulse response of the real room to compare."));
  return ok;
}

gboolean
rw_compare_view_is_loading (RwCompareView *self)
{
  g_return_val_if_fail (RW_IS_COMPARE_VIEW (self), FALSE);
  return self->loading != NULL;
}

const RwComparison *
rw_compare_view_get_comparison (RwCompareView *self)
{
  return self->have_cmp ? &self->cmp : NULL;
}

gboolean
rw_compare_view_export_pdf (RwCompareView *self, const char *path, GError **error)
{
  RwError err = { 0 };

  if (!self->have_cmp)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("%s: load a measured impulse response first"), path);
      return FALSE;
    }
  if (!rw_report_write_pdf (path, &self->cmp, &err))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, err.message);
      return FALSE;
    }
  return TRUE;
}

void
rw_compare_view_show_page (RwCompareView *self, int page)
{
  gtk_spin_button_set_value (self->page_spin, page + 1);
}

static void
on_compared (GObject *source, GAsyncResult *result, gpointer data)
{
  RwCompareView *self = RW_COMPARE_VIEW (source);
  g_autoptr (GError) error = NULL;

  (void) data;
  if (rw_compare_view_load_measured_finish (self, result, &error)
      || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *dialog = gtk_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                              GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                              GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE, "%s",
                                              _("The measurement could not be compared"));
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", error->message);
  g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
on_load_response (GtkNativeDialog *native, int response, RwCompareView *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));
      g_autofree char *path = g_file_get_path (file);
      if (path != NULL && self->out != NULL)
        rw_compare_view_load_measured_async (self, path, on_compared, NULL);
    }
  g_object_unref (native);
}

static void
on_load_clicked (RwCompareView *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkFileChooserNative *native =
    gtk_file_chooser_native_new (_("Load a Measured Impulse Response"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                 GTK_FILE_CHOOSER_ACTION_OPEN, _("_Load"), _("_Cancel"));
  g_autoptr (GtkFileFilter) audio = gtk_file_filter_new ();

  gtk_file_filter_set_name (audio, _("Audio files"));
  gtk_file_filter_add_mime_type (audio, "audio/*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (native), audio);
  g_signal_connect (native, "response", G_CALLBACK (on_load_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

static void
on_page_changed (RwCompareView *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self->page_view));
}

static void
rw_compare_view_dispose (GObject *object)
{
  RwCompareView *self = RW_COMPARE_VIEW (object);

  cancel_loading (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), RW_TYPE_COMPARE_VIEW);
  G_OBJECT_CLASS (rw_compare_view_parent_class)->dispose (object);
}

static void
rw_compare_view_finalize (GObject *object)
{
  RwCompareView *self = RW_COMPARE_VIEW (object);

  if (self->have_cmp)
    rw_comparison_clear (&self->cmp);
  G_OBJECT_CLASS (rw_compare_view_parent_class)->finalize (object);
}

static void
rw_compare_view_class_init (RwCompareViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = rw_compare_view_dispose;
  G_OBJECT_CLASS (klass)->finalize = rw_compare_view_finalize;
  g_type_ensure (RW_TYPE_PLOT_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/roomwave/Roomwave/rw-compare-view.ui");
  gtk_widget_class_bind_template_child (widget_class, RwCompareView, load_button);
  gtk_widget_class_bind_template_child (widget_class, RwCompareView, export_button);
  gtk_widget_class_bind_template_child (widget_class, RwCompareView, page_spin);
  gtk_widget_class_bind_template_child (widget_class, RwCompareView, summary_label);
  gtk_widget_class_bind_template_child (widget_class, RwCompareView, page_view);
  gtk_widget_class_bind_template_callback (widget_class, on_load_clicked);

  /* a measurement was loaded and compared */
  signals[COMPARED] =
    g_signal_new ("compared", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
rw_compare_view_init (RwCompareView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect_swapped (self->page_spin, "value-changed", G_CALLBACK (on_page_changed), self);
  rw_compare_view_set_output (self, NULL);
}
