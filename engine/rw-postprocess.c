/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-postprocess.c — low-pass, DC block, resampling and calibration of a
 * raw receiver signal (see rw-postprocess.h and docs/PHYSICS.md). */
#include "rw-postprocess.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rw-audio.h"
#include "rw-i18n.h"
#include "rw-physics.h"
#include "rw-scheme.h"
#include "rw-voxel.h"

/* Stopband attenuation of the low-pass, dB. 80 dB, not the 60 a T30
 * range needs: the FCC scheme's modes at the top of its band (the grid's
 * Nyquist frequency at λ = 1) have zero group velocity, never reach a wall
 * and never decay; 60 dB left them about 80 dB below the direct sound, a
 * floor that dominated a small room's late tail (sim-air-absorption: air
 * absorption took 24 % of the last 100 ms, which were that floor, against
 * 2.8 % for the 7-point scheme; 2.3 % at 80 dB). Not more: the filter's
 * length grows with it (137 taps at the 7-point scheme's rate at
 * 80 dB, 172 at 100 dB), and so its ringing around the direct sound. */
#define RW_LOWPASS_ATTEN_DB 80.0

void
rw_postprocess_init (RwPostprocess *pp, double fs_grid_hz, double fmax_hz, double spacing_m)
{
  memset (pp, 0, sizeof *pp);
  pp->fs_grid_hz = fs_grid_hz;
  pp->fmax_hz = fmax_hz;
  pp->fs_out_hz = RW_OUTPUT_RATE_HZ;
  pp->spacing_m = spacing_m;
  pp->source_amplitude = 1.0;
  pp->dc_block = true;
  pp->dc_cutoff_hz = RW_DC_BLOCK_HZ;
}

double
rw_calibration_gain (RwLattice lattice, double spacing_m, double source_amplitude)
{
  /* Free-field discrete Green's function: a soft impulse A at one node of
   * cell volume V h³ is a point force of A·V h³/T per unit time in
   * p_tt = c²∇²p + f, whose response is A V h³/(4π c² T r) · δ(t − r/c);
   * sampled with period T that is a pulse of area (sum of samples)
   * A V h³/(4π c² T² r) = A V h/(4π λ² r) since c T = λ h. Dividing by
   * that at r = 1 m gives area 1/r. */
  const double lam = rw_scheme_courant (lattice);
  return 4.0 * M_PI * lam * lam / (source_amplitude * rw_scheme_cell_volume (lattice) * spacing_m);
}

/* Zeroth-order modified Bessel function of the first kind (power series;
 * converges fast for the β ≤ 10 a Kaiser window uses). */
static double
bessel_i0 (double x)
{
  double sum = 1.0, term = 1.0, q = x * x / 4.0;
  for (int k = 1; k < 200; k++)
    {
      term *= q / ((double) k * (double) k);
      sum += term;
      if (term < 1e-17 * sum)
        break;
    }
  return sum;
}

/* Odd tap count of the Kaiser low-pass (Kaiser's formula for the length). */
static size_t
kaiser_taps (double fs, double f_pass, double f_stop, double atten_db)
{
  const double dw = 2.0 * M_PI * (f_stop - f_pass) / fs;
  size_t n = (size_t) ceil ((atten_db - 8.0) / (2.285 * dw)) + 1;
  return n % 2 == 0 ? n + 1 : n;
}

static size_t
lowpass_taps (double fs, double f_pass, double f_stop)
{
  return kaiser_taps (fs, f_pass, f_stop, RW_LOWPASS_ATTEN_DB);
}

double *
rw_kaiser_lowpass (double fs, double f_pass, double f_stop, double atten_db, size_t *n_taps)
{
  const double A = atten_db;
  const double beta = 0.1102 * (A - 8.7);
  size_t n = kaiser_taps (fs, f_pass, f_stop, atten_db);
  double *h = malloc (n * sizeof (double));
  if (h == NULL)
    return NULL;
  const double fc = 0.5 * (f_pass + f_stop) / fs;   /* cycles per sample */
  const double m = 0.5 * (double) (n - 1);
  const double i0b = bessel_i0 (beta);
  double sum = 0;
  for (size_t k = 0; k < n; k++)
    {
      double t = (double) k - m;
      double sinc = t == 0 ? 2 * fc : sin (2 * M_PI * fc * t) / (M_PI * t);
      double r = t / m;
      double w = bessel_i0 (beta * sqrt (fmax (0.0, 1.0 - r * r))) / i0b;
      h[k] = sinc * w;
      sum += h[k];
    }
  for (size_t k = 0; k < n; k++)
    h[k] /= sum;
  *n_taps = n;
  return h;
}

static double *
design_lowpass (double fs, double f_pass, double f_stop, size_t *n_taps)
{
  return rw_kaiser_lowpass (fs, f_pass, f_stop, RW_LOWPASS_ATTEN_DB, n_taps);
}

/* y[i] = Σ_k h[k] x[i + k − m]: the FIR centred on the sample, so a
 * symmetric h has zero phase (no delay). Outside [0, n) x holds its edge
 * values (the caller's signal starts at 0 and is already extended past its
 * end), so neither edge looks like a step. */
static void
convolve_centred (const double *x, size_t n, const double *h, size_t n_taps, double *y)
{
  const ptrdiff_t m = (ptrdiff_t) (n_taps / 2);
  const ptrdiff_t nn = (ptrdiff_t) n;
  /* each output its own sum: the same bits on any number of threads */
  #pragma omp parallel for schedule (static) if (n * n_taps > 1000000)
  for (ptrdiff_t i = 0; i < nn; i++)
    {
      double acc = 0;
      if (i >= m && i + m < nn)
        {
          const double *xi = x + (i - m);
          for (ptrdiff_t k = 0; k < (ptrdiff_t) n_taps; k++)
            acc += h[k] * xi[k];
        }
      else
        for (ptrdiff_t k = 0; k < (ptrdiff_t) n_taps; k++)
          {
            ptrdiff_t j = i + k - m;
            acc += h[k] * x[j < 0 ? 0 : (j >= nn ? nn - 1 : j)];
          }
      y[i] = acc;
    }
}

/* The DC block: a causal 2nd-order Butterworth high-pass (bilinear
 * transform with prewarping), transposed direct form II, from rest. Causal
 * on purpose: a zero-phase (forward-backward) high-pass would spread the
 * low-frequency residue of the room's drift backwards over the silence
 * before the direct sound, where an onset detector (ISO 3382-1) would take
 * it for the start of the IR. */
static void
highpass (double *x, size_t n, double fs, double fc)
{
  const double K = tan (M_PI * fc / fs);
  const double norm = 1.0 / (1.0 + M_SQRT2 * K + K * K);
  const double b0 = norm, b1 = -2.0 * norm, b2 = norm;
  const double a1 = 2.0 * (K * K - 1.0) * norm;
  const double a2 = (1.0 - M_SQRT2 * K + K * K) * norm;
  double z1 = 0, z2 = 0;
  for (size_t i = 0; i < n; i++)
    {
      double in = x[i];
      double y = b0 * in + z1;
      z1 = b1 * in - a1 * y + z2;
      z2 = b2 * in - a2 * y;
      x[i] = y;
    }
}

size_t
rw_postprocess_tail_steps (double fs_grid_hz, double fmax_hz)
{
  if (!(fs_grid_hz > 0) || !(fmax_hz > 0))
    return 0;
  double f_stop = fmin (RW_LOWPASS_STOP_FACTOR * fmax_hz, 0.5 * fs_grid_hz);
  size_t taps = f_stop > fmax_hz * 1.01 ? lowpass_taps (fs_grid_hz, fmax_hz, f_stop) : 1;
  /* the low-pass's half length, and a margin for the resampler's sinc */
  return taps / 2 + 1 + 64;
}

double
rw_uniform_mode_damping (const RwGrid *g, const double *surface_R)
{
  /* Σ over boundary nodes of g, the FV boundary's loss term: λ β (6 − K)/2
   * (rw-scheme.h), λ β S/4 with S = (12 − K)/2 on the FCC lattice
   * (rw-scheme-fcc.h) */
  const bool fcc = g->lattice == RW_LATTICE_FCC;
  const double w = fcc ? 0.25 * RW_COURANT_FCC : 0.5 * RW_COURANT_3D;
  double G = 0;
  const size_t n = g->nx * g->ny * g->nz;
  for (size_t i = 0; i < n; i++)
    if (g->K[i] > 0 && g->K[i] < rw_grid_max_k (g) && g->surface[i] != RW_NO_SURFACE
        && g->surface[i] < g->n_surfaces)
      {
        double R = surface_R[g->surface[i]];
        double beta = (1.0 - R) / (1.0 + R);
        if (isfinite (beta))
          G += w * beta * (double) rw_grid_face_count_area (g, g->K[i]);
      }
  return G;
}

void
rw_postprocess_set_room (RwPostprocess *pp, const RwGrid *g, const double *surface_R,
                         RwBoundary boundary, size_t source_cell, size_t receiver_cell)
{
  pp->drift_cells = 0;
  pp->drift_damping = 0;
  pp->arrival_s = 0;
  if (g == NULL || g->n_inside == 0)
    return;
  size_t c[2][3];
  const size_t cells[2] = { source_cell, receiver_cell };
  for (int k = 0; k < 2; k++)
    {
      c[k][0] = cells[k] % g->nx;
      c[k][1] = (cells[k] / g->nx) % g->ny;
      c[k][2] = cells[k] / (g->nx * g->ny);
    }
  double d2 = 0;
  for (int a = 0; a < 3; a++)
    {
      double d = ((double) c[1][a] - (double) c[0][a]) * g->h;
      d2 += d * d;
    }
  /* The grid's c is λ h fs (rw-physics.h). */
  pp->lattice = g->lattice;
  pp->arrival_s = sqrt (d2) / (rw_scheme_courant (g->lattice) * g->h * pp->fs_grid_hz);
  /* Measured samples of the uniform mode (drift_count ≥ 2) serve any
   * boundary and need no model: N is all they need. */
  if (pp->drift_count >= 2)
    {
      pp->drift_cells = (double) g->n_inside;
      return;
    }
  /* The model is derived for the FV boundary, whose update conserves the
   * plain sum of the field except for its loss term; LRS and Savioja
   * (ghost-node and 1-D terminations) do not, so they rely on the
   * high-pass alone. */
  if (boundary == RW_BOUNDARY_FV && surface_R != NULL)
    {
      pp->drift_cells = (double) g->n_inside;
      pp->drift_damping = rw_uniform_mode_damping (g, surface_R);
    }
}

/* The measured sum of p at step j: cubic Hermite between the samples
 * around it, with central-difference slopes (one-sided at the ends); the
 * last sample's value beyond it. *k: the interval searched from (rises
 * with j). */
static double
uniform_mode_at (const RwPostprocess *pp, size_t j, size_t *k)
{
  const size_t *t = pp->drift_steps;
  const double *m = pp->drift_sums;
  const size_t last = pp->drift_count - 1;
  if (j >= t[last])
    return m[last];
  while (*k + 1 < last && t[*k + 1] <= j)
    (*k)++;
  const size_t a = *k, b = a + 1;
  const double h = (double) (t[b] - t[a]);
  const double d_a = a == 0 ? (m[b] - m[a]) / h
                            : (m[b] - m[a - 1]) / (double) (t[b] - t[a - 1]);
  const double d_b = b == last ? (m[b] - m[a]) / h
                               : (m[b + 1] - m[a]) / (double) (t[b + 1] - t[a]);
  const double u = ((double) j - (double) t[a]) / h, u2 = u * u, u3 = u2 * u;
  return (2 * u3 - 3 * u2 + 1) * m[a] + (u3 - 2 * u2 + u) * h * d_a
         + (-2 * u3 + 3 * u2) * m[b] + (u3 - u2) * h * d_b;
}

/* Checks the settings and the raw signal (rw_postprocess's refusals). */
static bool
check (const RwPostprocess *pp, const double *raw, size_t n_raw, RwError *err)
{
  if (raw == NULL || n_raw == 0)
    return rw_fail (err, RW_ERROR_INPUT, _("post-processing: the receiver signal is empty"));
  if (!(isfinite (pp->fs_grid_hz) && pp->fs_grid_hz > 0)
      || !(isfinite (pp->fs_out_hz) && pp->fs_out_hz > 0)
      || !(isfinite (pp->fmax_hz) && pp->fmax_hz > 0)
      || !(isfinite (pp->spacing_m) && pp->spacing_m > 0)
      || !(isfinite (pp->source_amplitude) && pp->source_amplitude != 0))
    return rw_fail (err, RW_ERROR_INPUT,
                    _("post-processing: invalid settings (fs %g Hz, fmax %g Hz, output %g Hz, h %g m, A %g)"),
                    pp->fs_grid_hz, pp->fmax_hz, pp->fs_out_hz, pp->spacing_m,
                    pp->source_amplitude);
  for (size_t i = 0; i < n_raw; i++)
    if (!isfinite (raw[i]))
      return rw_fail (err, RW_ERROR_UNSTABLE,
                      _("post-processing: the receiver signal is not finite at step %zu"), i);

  return true;
}

bool
rw_postprocess_calibrate (const RwPostprocess *pp, const double *raw, size_t n_raw, double *x,
                          RwError *err)
{
  if (!check (pp, raw, n_raw, err))
    return false;
  const double fs = pp->fs_grid_hz;
  const double gain = rw_calibration_gain (pp->lattice, pp->spacing_m, pp->source_amplitude);
  /* The soft source's sample s[0] enters the second difference centred on
   * time level 0 (p¹ − 2p⁰ + p⁻¹ = … + s⁰), so the impulse acts at t = 0,
   * while raw sample i is the field at time level i + 1 (rw-solver.h).
   * Prepending the (zero) field at t = 0 puts every sample at its time:
   * x[j] is the pressure at t = j / fs. */
  const size_t n = n_raw + 1;

  x[0] = 0.0;
  for (size_t i = 0; i < n_raw; i++)
    x[i + 1] = gain * raw[i];

  /* The room's drift (docs/PHYSICS.md, "DC"): a soft impulse is a
   * volume-velocity step, so the sum M of the field over the N inside
   * cells obeys M⁺ − 2M + M⁻ = A δ − Σ_b g_b (p_b⁺ − p_b⁻). Taking the
   * boundary pressures as the mean M/N (the uniform mode) gives
   * M⁺ − M = ρ (M − M⁻), ρ = (1 − G/N)/(1 + G/N), G = Σ_b g_b: M rises to
   * A/(1 + G/N)/(1 − ρ) with time constant −T/ln ρ (a ramp when G = 0).
   * Its share M/N at the receiver is subtracted from the arrival of the
   * direct sound on. Before that the receiver is silent (causality: the
   * other modes cancel the uniform one there); after it they average to
   * zero, so what remains is a short transient around the arrival, which
   * the high-pass below takes. In the demo room this leaves 1e-3 of the
   * offset; in a dead box (R = 0.7) it brings the broadband T30 from 2×
   * Sabine–Eyring (the high-pass's own decay of the offset) to within
   * 15 % (docs/PHYSICS.md). */
  if (pp->drift_cells > 0 && pp->drift_count >= 2 && pp->drift_steps != NULL
      && pp->drift_sums != NULL)
    {
      const double k0 = pp->arrival_s * fs;
      size_t k = 0;
      for (size_t j = 1; j < n; j++)
        {
          if ((double) j < k0)
            continue;
          x[j] -= gain * uniform_mode_at (pp, j, &k) / pp->drift_cells;
        }
    }
  else if (pp->drift_cells > 0 && pp->drift_damping >= 0)
    {
      const double q = pp->drift_damping / pp->drift_cells;
      const double rho = (1.0 - q) / (1.0 + q);
      const double v0 = pp->source_amplitude / (1.0 + q) / pp->drift_cells;
      const double k0 = pp->arrival_s * fs;
      for (size_t j = 1; j < n; j++)
        {
          if ((double) j < k0)
            continue;
          double k = (double) j;
          double m = q > 0 ? v0 * (1.0 - pow (rho, k)) / (1.0 - rho) : v0 * k;
          x[j] -= gain * m;
        }
    }
  return true;
}

bool
rw_postprocess_finish (const RwPostprocess *pp, const double *calibrated, size_t n_raw,
                       float **out, size_t *n_out, RwError *err)
{
  *out = NULL;
  *n_out = 0;
  const double fs = pp->fs_grid_hz;
  const size_t n = n_raw + 1;
  double f_stop = fmin (RW_LOWPASS_STOP_FACTOR * pp->fmax_hz, 0.5 * fs);
  const bool lowpass = f_stop > pp->fmax_hz * 1.01;
  size_t n_taps = 1;
  double *taps = lowpass ? design_lowpass (fs, pp->fmax_hz, f_stop, &n_taps) : NULL;
  const double fc = pp->dc_cutoff_hz > 0 ? pp->dc_cutoff_hz : RW_DC_BLOCK_HZ;
  const bool dc_block = pp->dc_block && fc < 0.45 * fs;

  /* Edges. Before t = 0 the field is truly zero, so the start is padded
   * with zeros. The end is not a physical end: the IR is cut there, often
   * while it still rings or drifts, and a filter that met an abrupt end
   * would ring back into the IR. So the signal is extended past its end by
   * its mirror image (even reflection: no step, only a kink in a trend
   * such as what is left of the source's drift), long enough for the
   * low-pass's half length, and the extension is cut off after resampling.
   * An odd reflection, which would continue a trend, is worse here: the
   * raw field carries undamped lattice oscillations far above fmax, and
   * mirroring them about one sample puts an impulse of their size at the
   * end, which the low-pass turns into an audible burst. */
  size_t n_ext = n_taps / 2 + 1;
  /* … and for the resampler's sinc, which also looks past the end. */
  n_ext += 256;
  if (n_ext > n - 1)
    n_ext = n - 1;
  const size_t n_all = n + n_ext;

  double *x = malloc (n_all * sizeof (double));
  double *y = malloc (n_all * sizeof (double));
  if (x == NULL || y == NULL || (lowpass && taps == NULL))
    {
      free (x);
      free (y);
      free (taps);
      return rw_fail (err, RW_ERROR_MEMORY, _("post-processing: out of memory"));
    }
  memcpy (x, calibrated, n * sizeof *x);
  for (size_t k = 0; k < n_ext; k++)
    x[n + k] = x[n - 1 - k];

  /* Low-pass at fmax; skipped when the grid cannot hold anything above
   * fmax anyway (Nyquist at or below fmax, i.e. very few points per
   * wavelength). */
  if (lowpass)
    {
      convolve_centred (x, n_all, taps, n_taps, y);
      double *t = x;
      x = y;
      y = t;
    }
  free (taps);
  free (y);

  if (dc_block)
    highpass (x, n_all, fs, fc);

  RwAudio a = { 0 };
  a.frames = n_all;
  a.channels = 1;
  a.rate_hz = fs;
  a.data = malloc (n_all * sizeof (float));
  if (a.data == NULL)
    {
      free (x);
      return rw_fail (err, RW_ERROR_MEMORY, _("post-processing: out of memory"));
    }
  for (size_t i = 0; i < n_all; i++)
    a.data[i] = (float) x[i];
  free (x);

  if (!rw_audio_resample (&a, pp->fs_out_hz, err))
    {
      rw_audio_clear (&a);
      return rw_fail_prefix (err, _("post-processing"));
    }
  /* Resampling keeps sample values (it interpolates a band-limited
   * signal), so the sum of a pulse's samples scales with the rate:
   * fs_grid / fs_out brings the direct sound's area back to 1/r. */
  const float rate_factor = (float) (fs / pp->fs_out_hz);
  for (size_t i = 0; i < a.frames; i++)
    a.data[i] *= rate_factor;
  /* The duration of the raw signal, less its last tail_steps unless the
   * caller asked for them (rw-postprocess.h): drop the extension. */
  size_t n_exact = n_raw;
  const size_t tail = rw_postprocess_tail_steps (fs, pp->fmax_hz);
  if (!pp->keep_end && n_raw > tail + 1)
    n_exact = n_raw - tail;
  size_t n_keep = (size_t) llround ((double) n_exact * pp->fs_out_hz / fs);
  if (n_keep == 0)
    n_keep = 1;
  if (n_keep < a.frames)
    {
      a.frames = n_keep;
      float *shrunk = realloc (a.data, n_keep * sizeof (float));
      if (shrunk != NULL)
        a.data = shrunk;
    }

  *out = a.data;
  *n_out = a.frames;
  return true;
}

bool
rw_postprocess (const RwPostprocess *pp, const double *raw, size_t n_raw,
                float **out, size_t *n_out, RwError *err)
{
  *out = NULL;
  *n_out = 0;
  if (!check (pp, raw, n_raw, err))
    return false;
  double *x = malloc ((n_raw + 1) * sizeof *x);
  if (x == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("post-processing: out of memory"));
  bool ok = rw_postprocess_calibrate (pp, raw, n_raw, x, err)
            && rw_postprocess_finish (pp, x, n_raw, out, n_out, err);
  free (x);
  return ok;
}
