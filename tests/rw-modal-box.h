/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-modal-box.h — a second method for the decay of a rectangular room
 * with locally reacting walls: first-order modal theory, independent of the
 * FDTD (Morse & Ingard, "Theoretical Acoustics", §9.4: a rigid box's modes
 * perturbed by a small wall admittance).
 *
 * Box Lx × Ly × Lz, every wall of specific (ρc-normalised) admittance Y(ω).
 * Mode N = (nx, ny, nz), k_i = π n_i / L_i, ψ_N = Π cos (k_i x_i),
 * Λ_N = ∫ψ² dV = Π L_i a_i with a_i = 1/2 for n_i > 0, 1 for n_i = 0. To
 * first order in Y the mode's amplitude decays at
 *
 *   δ_N = c Re Y(ω_N) ∮ψ² dS / (2 Λ_N) = c Re Y(ω_N) Σ_i 1 / (L_i a_i),
 *
 * its energy at 2 δ_N: an oblique mode (all a_i = 1/2) at 2 c Re Y S / V,
 * Sabine's c S α / (4V) with α = 8 Re Y, the random-incidence α of a small
 * real admittance; an axial or tangential mode touches the walls it runs
 * along at grazing incidence only and decays more slowly — why a
 * rectangular box with little absorption decays more slowly than Eyring.
 * The imaginary part of Y moves the mode's frequency, not its decay (to
 * first order), and is left out.
 *
 * A point source at s heard at r: mode N's share of the energy is
 * (ψ_N(s) ψ_N(r) / Λ_N)² (the modal expansion of the Green's function,
 * each mode's amplitude at r), so the band's energy decay is
 * Σ_N g(f_N)² (ψ_N(s) ψ_N(r) / Λ_N)² e^{−2 δ_N t}, g the band filter's gain at
 * the mode's frequency; Schroeder's backward integral up to the IR's end
 * and a line over −5 … −35 dB give T30, as the FDTD's IR is analysed. */
#pragma once

#include "rw-admittance.h"
#include "rw-analysis.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

/* Gain of octave band b (centre 1000 · 2^(b − 4), exact base 2) at f: 1
 * inside the band edges f_c/√2 … f_c·√2 with raised-cosine crossovers of
 * ±w octave around them (the zero-phase FFT split of sim-decay-bands);
 * with w = 0, 1 strictly inside the edges and 0 outside. */
static inline double
rw_modal_band_gain (int b, double f, double w)
{
  const double fc = 1000.0 * pow (2.0, b - 4), lo = fc / sqrt (2.0), hi = fc * sqrt (2.0);
  if (!(f > 0))
    return 0.0;
  if (!(w > 0))
    return f > lo && f < hi ? 1.0 : 0.0;
  const double a = log2 (f / lo), c = log2 (f / hi);
  const double up = a <= -w ? 0.0 : a >= w ? 1.0 : 0.5 - 0.5 * cos (M_PI * (a + w) / (2 * w));
  const double down = c <= -w ? 1.0 : c >= w ? 0.0 : 0.5 + 0.5 * cos (M_PI * (c + w) / (2 * w));
  return up * down;
}

typedef struct {
  double L[3];                       /* m */
  double c;                          /* m/s */
  double src[3];
  int n_rcv;                         /* 1 … 3 */
  double rcv[3][3];
  double duration_s;                 /* the IR's length: the Schroeder integral's end */
} RwModalBox;

/* T30 of octave band b, mean over the receivers, from the modes whose
 * frequency the band's gain (above) passes, the walls' conductance Re Y(f)
 * given by re_y (ctx its data); *n_modes (may be NULL) gets their number.
 * NAN when the decay does not reach −35 dB or on no memory. */
static double
rw_modal_t30_of (const RwModalBox *box, double (*re_y) (const void *ctx, double f), const void *ctx,
                 int b, double w, int *n_modes)
{
  const double fc = 1000.0 * pow (2.0, b - 4), f_top = fc * sqrt (2.0) * exp2 (w);
  const double fs = 1000.0;          /* the envelope's rate: ample for T30 ≥ 0.1 s */
  const size_t n = (size_t) (box->duration_s * fs);
  double *e = calloc (n, sizeof (double)), *edc = calloc (n, sizeof (double));
  int nmax[3], count = 0;
  for (int i = 0; i < 3; i++)
    nmax[i] = (int) (2.0 * f_top * box->L[i] / box->c) + 1;
  double sum = 0;
  for (int r = 0; r < box->n_rcv && e && edc; r++)
    {
      for (size_t i = 0; i < n; i++)
        e[i] = 0;
      count = 0;
      for (int nx = 0; nx <= nmax[0]; nx++)
        for (int ny = 0; ny <= nmax[1]; ny++)
          for (int nz = 0; nz <= nmax[2]; nz++)
            {
              const int nn[3] = { nx, ny, nz };
              double k2 = 0, psi = 1, lam = 1, edge = 0;
              for (int i = 0; i < 3; i++)
                {
                  const double k = M_PI * nn[i] / box->L[i], a = nn[i] > 0 ? 0.5 : 1.0;
                  k2 += k * k;
                  psi *= cos (k * box->src[i]) * cos (k * box->rcv[r][i]);
                  lam *= box->L[i] * a;
                  edge += 1.0 / (box->L[i] * a);
                }
              const double f = box->c * sqrt (k2) / (2 * M_PI);
              const double g = rw_modal_band_gain (b, f, w);
              if (!(g > 0))
                continue;
              count++;
              const double weight = g * g * (psi / lam) * (psi / lam);
              const double delta = box->c * re_y (ctx, f) * edge;
              /* e^{−2δt} sample by sample: one exp per mode */
              const double step = exp (-2.0 * delta / fs);
              double v = weight;
              for (size_t i = 0; i < n; i++, v *= step)
                e[i] += v;
            }
      RwNoiseEstimate est = { .noise_found = false, .noise_level_db = -INFINITY, .truncation = n,
                              .truncation_s = (double) n / fs, .correction = 0 };
      RwDecayFit fit;
      const size_t n_edc = rw_schroeder_decay (e, n, fs, &est, edc, NULL);
      rw_decay_fit (edc, n_edc, fs, -5, -35, &fit);
      sum += fit.value_s;
    }
  const bool ok = e != NULL && edc != NULL;
  free (e);
  free (edc);
  if (n_modes)
    *n_modes = count;
  return ok ? sum / box->n_rcv : NAN;
}

static double
rw_modal_re_y (const void *ctx, double f)
{
  return creal (rw_admittance_eval ((const RwAdmittance *) ctx, f));
}

/* The same for walls of admittance model Y. */
static double
rw_modal_t30 (const RwModalBox *box, const RwAdmittance *Y, int b, double w, int *n_modes)
{
  return rw_modal_t30_of (box, rw_modal_re_y, Y, b, w, n_modes);
}
