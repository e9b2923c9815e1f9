/* SPDX-License-Identifier: GPL-3.0-or-later */
/* analysis-spectrogram: rw_spectrogram (the STFT behind
 * `roomwave-cli spectrogram` and rw_plot_spectrogram) on signals whose
 * spectrogram is known, at 48 kHz with the default window (2048, hop
 * 512):
 *  - independent reference: the levels of three frames of a sine equal a
 *    direct DFT written out here (the Hann window as ½ − ½ cos, the frame
 *    placed by hand) within 0.001 dB, peak_db included;
 *  - a 1 kHz sine puts its maximum in bin round(1000/23.4375) = 43 in
 *    EVERY frame, the half-covered edge frames included; its 1 kHz octave
 *    band holds ≥ 99 % of the energy;
 *  - a linear chirp 100 Hz … 10 kHz in 4 s: the ridge (the loudest bin of
 *    each frame inside the signal) is within one bin of f(t) at the
 *    frame's centre;
 *  - white noise: the time-averaged level of every bin 20 Hz … 20 kHz is
 *    within ±1.5 dB of their mean, each octave band 31.5 Hz … 16 kHz is
 *    within 1 dB of 10 lg(its bins / all bins), and the sum of every cell
 *    is 0.75 · window · Σx² within 0.05 dB (Parseval with the Hann
 *    window's squares summing to 1.5 at a quarter-window hop); the
 *    third-octave bands 25 Hz … 20 kHz hold the bins their exact edges
 *    say and, where ≥ 4 bins, are within 1 dB of 10 lg(bins / all bins);
 *  - an impulse on a frame centre: that frame is 0 dB in every bin, the
 *    frames ≤ 3 hops away are flat at 20 lg w(offset) (the window's value
 *    at the impulse) within 0.001 dB, the others exactly zero (floor): a
 *    vertical line at its time;
 *  - max_frames raises the hop; bad input (no samples, NaN or ∞ naming
 *    the sample, rate ≤ 0 or NaN, window or hop out of range, a silent
 *    signal) is refused with a message and leaves nothing allocated. */
#include "rw-test.h"
#include "rw-spectrogram.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FS 48000.0
#define W 2048
#define HOP 512
#define DF (FS / W)

static float
at (const RwSpectrogram *sg, size_t frame, size_t bin)
{
  return sg->level_db[frame * sg->n_bins + bin];
}

static size_t
loudest_bin (const RwSpectrogram *sg, size_t frame)
{
  size_t best = 0;
  for (size_t k = 1; k < sg->n_bins; k++)
    if (at (sg, frame, k) > at (sg, frame, best))
      best = k;
  return best;
}

static bool
compute (const float *x, size_t n, RwSpectrogram *sg, const char *what)
{
  RwError err = { 0 };
  bool ok = rw_spectrogram (x, n, FS, 0, 0, 0, sg, &err);
  RW_CHECK (ok, "%s: %s", what, err.message);
  if (ok)
    {
      RW_CHECK (sg->window == W && sg->hop == HOP && sg->n_bins == W / 2 + 1,
                "%s: window %d hop %d bins %zu (expected 2048, 512, 1025 at 48 kHz)", what,
                sg->window, sg->hop, sg->n_bins);
      RW_CHECK (sg->n_frames == (n - 1) / HOP + 1, "%s: %zu frames for %zu samples", what,
                sg->n_frames, n);
    }
  return ok && sg->window == W && sg->hop == HOP;
}

/* 10 lg |X_k|² of frame f by the definition, O(W²) per frame. */
static void
direct_dft_db (const float *x, size_t n, size_t f, double *out)
{
  double *seg = malloc (W * sizeof *seg);
  for (int i = 0; i < W; i++)
    {
      long j = (long) (f * HOP) - W / 2 + i;
      double w = 0.5 - 0.5 * cos (2.0 * M_PI * i / W);
      seg[i] = j >= 0 && (size_t) j < n ? w * x[j] : 0.0;
    }
  for (int k = 0; k <= W / 2; k++)
    {
      double complex s = 0;
      for (int i = 0; i < W; i++)
        s += seg[i] * cexp (-2.0 * I * M_PI * (double) k * i / W);
      double p = creal (s) * creal (s) + cimag (s) * cimag (s);
      out[k] = p > 0 ? 10.0 * log10 (p) : -INFINITY;
    }
  free (seg);
}

static void
check_sine (void)
{
  const size_t n = (size_t) FS;
  float *x = malloc (n * sizeof *x);
  for (size_t i = 0; i < n; i++)
    x[i] = (float) (0.5 * sin (2.0 * M_PI * 1000.0 * i / FS));
  RwSpectrogram sg;
  if (!compute (x, n, &sg, "sine"))
    {
      free (x);
      return;
    }
  size_t want = (size_t) lround (1000.0 / DF);
  size_t wrong = 0;
  for (size_t f = 0; f < sg.n_frames; f++)
    {
      size_t b = loudest_bin (&sg, f);
      if (b != want)
        {
          wrong++;
          RW_CHECK (b == want, "sine: frame %zu peaks in bin %zu, not %zu", f, b, want);
        }
    }
  RW_NOTE ("sine 1 kHz: %zu frames, %zu with the peak outside bin %zu (%.2f Hz)", sg.n_frames,
           wrong, want, want * DF);

  /* independent reference: three frames (an edge, the middle, the end) */
  double *ref = malloc ((W / 2 + 1) * sizeof *ref);
  size_t frames[3] = { 0, sg.n_frames / 2, sg.n_frames - 1 };
  for (int i = 0; i < 3; i++)
    {
      direct_dft_db (x, n, frames[i], ref);
      double worst = 0;
      for (int k = 0; k <= W / 2; k++)
        if (ref[k] > sg.peak_db - 120.0)   /* float input: rounding noise below */
          worst = fmax (worst, fabs (at (&sg, frames[i], k) + sg.peak_db - ref[k]));
      RW_NOTE ("sine: frame %zu against a direct DFT: largest difference %.2e dB", frames[i], worst);
      RW_CHECK (worst < 1e-3, "sine: frame %zu differs from the direct DFT by %g dB", frames[i], worst);
    }
  free (ref);

  RwSpectrogramBand bands[RW_SPECTROGRAM_N_OCTAVES];
  rw_spectrogram_bands (&sg, 1, bands);
  RW_NOTE ("sine: 1 kHz band %.4f dB, 500 Hz %.1f dB, 250 Hz %.1f dB, 4 kHz %.1f dB re total",
           bands[5].level_db, bands[4].level_db, bands[3].level_db, bands[7].level_db);
  RW_CHECK (bands[5].centre_hz == 1000 && bands[5].level_db > 10 * log10 (0.99),
            "sine: the 1 kHz band holds %.4f dB of the energy", bands[5].level_db);
  for (int b = 0; b < RW_SPECTROGRAM_N_OCTAVES; b++)
    if (b < 4 || b > 6)
      RW_CHECK (bands[b].level_db < -40, "sine: the %g Hz band at %.1f dB", bands[b].centre_hz,
                bands[b].level_db);
  rw_spectrogram_clear (&sg);
  free (x);
}

static void
check_chirp (void)
{
  const double T = 4.0, f0 = 100.0, f1 = 10000.0, k = (f1 - f0) / T;
  const size_t n = (size_t) (T * FS);
  float *x = malloc (n * sizeof *x);
  for (size_t i = 0; i < n; i++)
    {
      double t = i / FS;
      x[i] = (float) sin (2.0 * M_PI * (f0 * t + 0.5 * k * t * t));
    }
  RwSpectrogram sg;
  if (compute (x, n, &sg, "chirp"))
    {
      double worst = 0;
      size_t checked = 0;
      for (size_t f = 0; f < sg.n_frames; f++)
        {
          double c = (double) f * HOP;
          if (c < W / 2 || c + W / 2 > n)
            continue;   /* the window reaches outside the signal */
          double fi = f0 + k * c / FS;   /* instantaneous frequency at the centre */
          double off = fabs ((double) loudest_bin (&sg, f) - fi / DF);
          worst = fmax (worst, off);
          checked++;
        }
      RW_NOTE ("chirp %g … %g Hz in %g s: %zu frames, ridge within %.3f bins of f(t)", f0, f1, T,
               checked, worst);
      RW_CHECK (checked > 300 && worst <= 1.0, "chirp: ridge %.3f bins from f(t)", worst);
      rw_spectrogram_clear (&sg);
    }
  free (x);
}

static void
check_noise (void)
{
  const size_t n = (size_t) (4 * FS);
  float *x = malloc (n * sizeof *x);
  uint64_t state = 0x9E3779B97F4A7C15ull;
  double energy = 0;
  for (size_t i = 0; i < n; i++)
    {
      x[i] = (float) (0.1 * rw_test_gauss (&state));
      energy += (double) x[i] * x[i];
    }
  RwSpectrogram sg;
  if (!compute (x, n, &sg, "noise"))
    {
      free (x);
      return;
    }
  double *mean = calloc (sg.n_bins, sizeof *mean);
  double total = 0;
  for (size_t f = 0; f < sg.n_frames; f++)
    for (size_t b = 0; b < sg.n_bins; b++)
      {
        double p = pow (10.0, (at (&sg, f, b) + sg.peak_db) / 10.0);
        mean[b] += p / sg.n_frames;
        total += p;
      }
  /* Parseval: Σ over one-sided bins ≈ (window/2) Σ (w x)², and Σ over the
   * frames of w² = 1.5 at every sample */
  double parseval_db = 10 * log10 (total) - 10 * log10 (0.75 * W * energy);
  RW_NOTE ("noise: Σ cells / (0.75 · window · Σx²) = %+.4f dB", parseval_db);
  RW_CHECK (fabs (parseval_db) < 0.05, "noise: Parseval off by %+.4f dB", parseval_db);

  double avg = 0;
  size_t m = 0;
  for (size_t b = 0; b < sg.n_bins; b++)
    if (b * DF >= 20 && b * DF <= 20000)
      {
        avg += 10 * log10 (mean[b]);
        m++;
      }
  avg /= m;
  double lo = INFINITY, hi = -INFINITY;
  for (size_t b = 0; b < sg.n_bins; b++)
    if (b * DF >= 20 && b * DF <= 20000)
      {
        lo = fmin (lo, 10 * log10 (mean[b]) - avg);
        hi = fmax (hi, 10 * log10 (mean[b]) - avg);
      }
  RW_NOTE ("noise: time-averaged bins 20 Hz … 20 kHz within %+.2f … %+.2f dB of their mean", lo, hi);
  RW_CHECK (lo > -1.5 && hi < 1.5, "noise: bins spread %+.2f … %+.2f dB", lo, hi);

  RwSpectrogramBand bands[RW_SPECTROGRAM_N_THIRDS];
  RW_CHECK (rw_spectrogram_bands (&sg, 1, bands) == RW_SPECTROGRAM_N_OCTAVES, "noise: 10 octaves");
  for (int b = 0; b < RW_SPECTROGRAM_N_OCTAVES; b++)
    {
      double expect = 10 * log10 ((double) bands[b].n_bins / sg.n_bins);
      RW_NOTE ("noise: %g Hz band (%zu bins) %.2f dB re total, expected %.2f dB", bands[b].centre_hz,
               bands[b].n_bins, bands[b].level_db, expect);
      RW_CHECK (bands[b].n_bins > 0 && fabs (bands[b].level_db - expect) < 1.0,
                "noise: %g Hz band %.2f dB, expected %.2f dB", bands[b].centre_hz,
                bands[b].level_db, expect);
    }
  /* thirds: the same rule; below about 100 Hz a third holds fewer than
   * four bins of 23.4 Hz, so only the bin count is checked there */
  RwSpectrogramBand thirds[RW_SPECTROGRAM_N_THIRDS];
  RW_CHECK (rw_spectrogram_bands (&sg, 3, thirds) == RW_SPECTROGRAM_N_THIRDS, "noise: 30 thirds");
  RW_CHECK (rw_spectrogram_bands (&sg, 2, thirds) == 0, "noise: half-octaves are not offered");
  rw_spectrogram_bands (&sg, 3, thirds);
  double worst = 0;
  for (int b = 0; b < RW_SPECTROGRAM_N_THIRDS; b++)
    {
      /* bins k·DF in [lo, hi): counted here from the exact edges */
      double fm = 1000.0 * pow (10.0, 0.1 * (b - 16)), lo = fm * pow (10.0, -0.05), hi = fm * pow (10.0, 0.05);
      size_t nb = 0;
      for (size_t k = 0; k < sg.n_bins; k++)
        nb += k * DF >= lo && k * DF < hi;
      RW_CHECK (thirds[b].n_bins == nb, "noise: third %g Hz has %zu bins, expected %zu",
                thirds[b].centre_hz, thirds[b].n_bins, nb);
      if (nb >= 4)
        worst = fmax (worst, fabs (thirds[b].level_db - 10 * log10 ((double) nb / sg.n_bins)));
    }
  RW_NOTE ("noise: thirds of ≥ 4 bins within %.2f dB of 10 lg(bins / all bins); the 20 kHz third "
           "(%.0f … %.0f Hz) %.2f dB", worst, thirds[29].lo_hz, thirds[29].hi_hz, thirds[29].level_db);
  RW_CHECK (worst < 1.0, "noise: a third-octave band %.2f dB off", worst);
  RW_CHECK (thirds[29].centre_hz == 20000 && thirds[0].centre_hz == 25, "noise: thirds 25 Hz … 20 kHz");
  free (mean);
  rw_spectrogram_clear (&sg);
  free (x);
}

static void
check_impulse (void)
{
  const size_t n = (size_t) FS, f0 = 47, i0 = f0 * HOP;   /* 0.5013 s, on frame 47's centre */
  float *x = calloc (n, sizeof *x);
  x[i0] = 1.0f;
  RwSpectrogram sg;
  if (compute (x, n, &sg, "impulse"))
    {
      size_t bad = 0;
      for (size_t f = 0; f < sg.n_frames; f++)
        {
          long d = (long) f - (long) f0;
          /* the impulse sits at index W/2 − d·HOP of frame f's window */
          long idx = W / 2 - d * HOP;
          double expect = idx > 0 && idx < W ? 20 * log10 (0.5 - 0.5 * cos (2 * M_PI * idx / W))
                                             : RW_SPECTROGRAM_FLOOR_DB;
          for (size_t b = 0; b < sg.n_bins; b++)
            if (fabs (at (&sg, f, b) - expect) > 1e-3)
              {
                if (bad++ < 5)
                  RW_CHECK (false, "impulse: frame %zu bin %zu at %.4f dB, expected %.4f dB", f, b,
                            at (&sg, f, b), expect);
              }
        }
      RW_NOTE ("impulse at %.4f s: frame %zu (t = %.4f s) 0 dB in all bins, %zu cells off", i0 / FS,
               f0, rw_spectrogram_frame_time (&sg, f0), bad);
      RW_CHECK (bad == 0, "impulse: %zu cells differ from the window's value", bad);
      RW_CHECK_CLOSE (rw_spectrogram_frame_time (&sg, f0), i0 / FS, 1e-12, "frame time of the impulse");
      RW_CHECK_CLOSE (rw_spectrogram_bin_frequency (&sg, 43), 43 * DF, 1e-9, "bin 43's frequency");
      rw_spectrogram_clear (&sg);
    }
  free (x);
}

static void
check_max_frames (void)
{
  const size_t n = (size_t) (10 * FS);
  float *x = malloc (n * sizeof *x);
  for (size_t i = 0; i < n; i++)
    x[i] = (float) sin (0.1 * i);
  RwSpectrogram sg;
  RwError err = { 0 };
  bool ok = rw_spectrogram (x, n, FS, 0, 0, 100, &sg, &err);
  RW_CHECK (ok, "max_frames: %s", err.message);
  if (ok)
    {
      RW_NOTE ("10 s with at most 100 frames: %zu frames, hop %d", sg.n_frames, sg.hop);
      RW_CHECK (sg.n_frames <= 100 && sg.n_frames >= 99 && sg.hop >= (int) ((n - 1) / 99),
                "max_frames: %zu frames, hop %d", sg.n_frames, sg.hop);
      rw_spectrogram_clear (&sg);
    }
  free (x);
}

static void
refused (const float *x, size_t n, double rate, int window, int hop, const char *expect,
         const char *what)
{
  RwSpectrogram sg;
  memset (&sg, 0x5a, sizeof sg);
  RwError err = { 0 };
  bool ok = rw_spectrogram (x, n, rate, window, hop, 0, &sg, &err);
  RW_CHECK (!ok, "%s: accepted", what);
  RW_CHECK (sg.level_db == NULL && sg.n_frames == 0, "%s: output not cleared", what);
  RW_CHECK (strstr (err.message, "spectrogram") && strstr (err.message, expect),
            "%s: message '%s' lacks '%s'", what, err.message, expect);
  RW_NOTE ("%s: %s", what, err.message);
  if (ok)
    rw_spectrogram_clear (&sg);
}

static void
check_bad_input (void)
{
  float x[4096];
  for (int i = 0; i < 4096; i++)
    x[i] = (float) sin (0.3 * i);
  refused (NULL, 100, FS, 0, 0, "empty", "NULL samples");
  refused (x, 0, FS, 0, 0, "empty", "no samples");
  refused (x, 4096, 0.0, 0, 0, "rate", "rate 0");
  refused (x, 4096, -48000.0, 0, 0, "rate", "negative rate");
  refused (x, 4096, NAN, 0, 0, "rate", "rate NaN");
  refused (x, 4096, INFINITY, 0, 0, "rate", "rate ∞");
  refused (x, 4096, FS, 8, 0, "window", "window 8");
  refused (x, 4096, FS, 131072, 0, "window", "window 131072");
  refused (x, 4096, FS, 1024, 2048, "hop", "hop longer than the window");
  refused (x, 4096, FS, 1024, -3, "hop", "negative hop");
  x[1234] = NAN;
  refused (x, 4096, FS, 0, 0, "1234", "NaN sample");
  x[1234] = -INFINITY;
  refused (x, 4096, FS, 0, 0, "1234", "−∞ sample");
  float zero[512] = { 0 };
  refused (zero, 512, FS, 0, 0, "silent", "silent signal");
}

int
main (void)
{
  check_sine ();
  check_chirp ();
  check_noise ();
  check_impulse ();
  check_max_frames ();
  check_bad_input ();
  return rw_test_finish ();
}
