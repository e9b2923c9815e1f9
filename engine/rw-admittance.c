/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-admittance.c — the passive admittance model of rw-admittance.h. */
#include "rw-admittance.h"

#include <math.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rw-i18n.h"
#include "rw-linalg.h"
#include "rw-scheme.h"
#include "rw-materials.h"

RwAdmittance
rw_admittance_real (double R)
{
  RwAdmittance a = { 0 };
  a.Y0 = R > -1.0 ? (1.0 - R) / (1.0 + R) : INFINITY;
  return a;
}

bool
rw_admittance_is_frequency_dependent (const RwAdmittance *a)
{
  return a != NULL && a->n_branches > 0;
}

bool
rw_admittance_check (const RwAdmittance *a, RwError *err)
{
  if (!(isfinite (a->Y0) && a->Y0 >= 0.0))
    return rw_fail (err, RW_ERROR_INPUT, _("The conductance %g is not a finite number ≥ 0"), a->Y0);
  if (a->n_branches < 0 || a->n_branches > RW_ADM_MAX_BRANCHES)
    return rw_fail (err, RW_ERROR_INPUT, _("%d branches: the model takes 0 to %d"),
                    a->n_branches, RW_ADM_MAX_BRANCHES);
  for (int m = 0; m < a->n_branches; m++)
    {
      const RwBranch *b = &a->branch[m];
      if (!(isfinite (b->D) && isfinite (b->E) && isfinite (b->F)
            && b->D >= 0.0 && b->E >= 0.0 && b->F >= 0.0))
        return rw_fail (err, RW_ERROR_INPUT,
                        _("Branch %d (D %g, E %g, F %g) has an element that is negative or not finite"),
                        m + 1, b->D, b->E, b->F);
      if (b->D == 0.0 && b->E == 0.0 && b->F == 0.0)
        return rw_fail (err, RW_ERROR_INPUT, _("Branch %d has no element"), m + 1);
    }
  return true;
}

/* ---- Evaluation and absorption ---------------------------------------- */

double complex
rw_admittance_eval (const RwAdmittance *a, double f_hz)
{
  /* s = iω; each branch is a series D–E–F element, its admittance the
   * inverse of its impedance D s + E + F/s. */
  const double w = 2.0 * M_PI * f_hz;
  double complex Y = a->Y0;
  for (int m = 0; m < a->n_branches; m++)
    {
      const RwBranch *b = &a->branch[m];
      if (w == 0 && b->F > 0)
        continue;                    /* a stiffness blocks DC */
      Y += 1.0 / (b->E + I * (b->D * w - (w > 0 ? b->F / w : 0.0)));
    }
  return Y;
}

double
rw_alpha_normal (double complex Y)
{
  /* R = (1 − Y)/(1 + Y) at θ = 0, α = 1 − |R|² = 4 Re Y / |1 + Y|². */
  const double G = creal (Y), B = cimag (Y);
  const double den = (1.0 + G) * (1.0 + G) + B * B;
  return den > 0 && isfinite (den) ? 4.0 * G / den : 0.0;
}

/* 12-point Gauss–Legendre on [−1, 1]: half the nodes and weights (the rule
 * is symmetric). */
static const double gl_x[6] = {
  0.1252334085114689154724414, 0.3678314989981801937526915, 0.5873179542866174472967024,
  0.7699026741943046870368938, 0.9041172563704748566784659, 0.9815606342467192506905491,
};
static const double gl_w[6] = {
  0.2491470458134027850005624, 0.2334925365383548087608499, 0.2031674267230659217490645,
  0.1600783285433462263346525, 0.1069393259953184309602547, 0.0471753363865118271946160,
};

/* Paris' integral in μ = cos θ: sin 2θ dθ = −2μ dμ and
 * α(μ) = 1 − |(μ − Y)/(μ + Y)|² = 4 μ G / |μ + Y|², so
 *
 *   α_st = ∫₀¹ 8 μ² G / ((μ + G)² + B²) dμ,   Y = G + iB.
 *
 * The integrand is analytic on [0, 1] with poles at μ = −G ± iB, a
 * distance |Y| from μ = 0: for small |Y| it turns over within |Y| of the
 * origin. So the interval is cut geometrically, [0, h], [h, 2h], [2h, 4h],
 * … with h = |Y|/2: on every piece the poles lie at least about two
 * half-lengths from its centre, where 12 Gauss points converge like
 * ρ^−24 with ρ ≥ 4 (≤ 1e−14; measured in test admittance-alpha: 1.2e−13
 * from the closed form rw_statistical_absorption for real Y, 1.8e−12 from
 * the antiderivative for complex Y). The
 * derivatives with respect to G and B come from the same nodes (the fit's
 * Jacobian); either pointer may be NULL. */
static double
alpha_random_grad (double complex Y, double *dG, double *dB)
{
  const double G = creal (Y), B = cimag (Y);
  double sum = 0, sG = 0, sB = 0;
  const double r = cabs (Y);
  if (!(G > 0) || !isfinite (r))
    {
      /* No conductance: no absorption; d/dG is then ∫ 8μ²/(μ² + B²). */
      if (dG)
        *dG = 0;
      if (dB)
        *dB = 0;
      if (G == 0 && isfinite (r) && dG)
        {
          const double b = fabs (B);
          *dG = b > 0 ? 8.0 * (1.0 - b * atan (1.0 / b)) : 8.0;
        }
      return 0.0;
    }
  double h = r < 1.0 ? fmax (0.5 * r, 1e-15) : 1.0;
  double a = 0.0;
  while (a < 1.0)
    {
      double b = fmin (1.0, a + h);
      if (b > 0.5 && b < 1.0 && 1.0 - b < 0.25 * (b - a))
        b = 1.0;                     /* no sliver at the end */
      const double c = 0.5 * (a + b), hl = 0.5 * (b - a);
      for (int k = 0; k < 12; k++)
        {
          const double mu = c + (k < 6 ? -gl_x[k] : gl_x[k - 6]) * hl;
          const double w = gl_w[k < 6 ? k : k - 6] * hl;
          const double mg = mu + G;
          const double den = mg * mg + B * B;
          const double f = 8.0 * mu * mu / den;
          sum += w * f * G;
          sG += w * f * (1.0 - 2.0 * G * mg / den);
          sB += w * f * (-2.0 * G * B / den);
        }
      a = b;
      if (a > 0)
        h = a;                       /* [a, 2a] */
    }
  if (dG)
    *dG = sG;
  if (dB)
    *dB = sB;
  return sum;
}

double
rw_alpha_random (double complex Y)
{
  return alpha_random_grad (Y, NULL, NULL);
}

/* Points per octave band: the band mean is the midpoint rule in log f
 * over f_c/√2 … f_c·√2. The library's α are band measurements, so the
 * model's α is averaged the same way rather than taken at the centre. */
#define RW_BAND_POINTS 24

static double
band_point_hz (int band, int k)
{
  return rw_octave_centres_hz[band] * exp2 ((k + 0.5) / RW_BAND_POINTS - 0.5);
}

double
rw_admittance_band_alpha (const RwAdmittance *a, int band, bool random_incidence)
{
  if (band < 0 || band >= RW_ADM_N_BANDS)
    return NAN;
  double sum = 0;
  for (int k = 0; k < RW_BAND_POINTS; k++)
    {
      double complex Y = rw_admittance_eval (a, band_point_hz (band, k));
      sum += random_incidence ? rw_alpha_random (Y) : rw_alpha_normal (Y);
    }
  return sum / RW_BAND_POINTS;
}

int
rw_admittance_bands_for_fmax (double fmax_hz)
{
  int n = 0;
  while (n < RW_ADM_N_BANDS && rw_octave_centres_hz[n] <= fmax_hz)
    n++;
  n++;
  return n < 2 ? 2 : n > RW_ADM_N_BANDS ? RW_ADM_N_BANDS : n;
}

/* ---- The fit ------------------------------------------------------------
 *
 * Branches are series resonators, one per fitted octave band, written in
 * the resonance form
 *
 *   1 / (D s + E + F/s) = c / (1 + iQ (ω/ω_m − ω_m/ω)),
 *   c = 1/E,  ω_m = √(F/D),  Q = ω_m D / E,
 *
 * so the parameters are p = (Y0, c_1 … c_M, ln Q_1 … ln Q_M, ln ω_1 … ln ω_M).
 * c ≥ 0 and Y0 ≥ 0 are the passivity constraints (D, E, F ≥ 0 follow for
 * any real Q and ω_m), kept by projection: a projected Levenberg–Marquardt
 * whose active set holds the parameters at a bound whose gradient points
 * out of the box. The Jacobian is analytic: dY/dp in closed form, and
 * dα/dY from the same quadrature nodes as α (alpha_random_grad). */

#define NP_MAX (1 + 3 * RW_ADM_MAX_BRANCHES)
static int band_of (double f);

typedef enum { FIT_ALPHA_BANDS, FIT_REFLECTION_POINTS } FitKind;

typedef struct {
  FitKind kind;
  int M;                             /* branches */
  double lo[NP_MAX], hi[NP_MAX];     /* box of each parameter */
  /* FIT_ALPHA_BANDS: the random-incidence band means to match. */
  int n_bands;
  double target[RW_ADM_N_BANDS];
  /* FIT_REFLECTION_POINTS: normal-incidence R at frequencies, weighted. */
  int n_pts;
  const double *f;
  const double complex *R;
  const double *weight;
} FitProblem;

static int
n_params (const FitProblem *pb)
{
  return 1 + 3 * pb->M;
}

/* Y at f and, when dY is not NULL, dY/dp for every parameter. */
static double complex
model_eval (const FitProblem *pb, const double *p, double f, double complex *dY)
{
  const int M = pb->M;
  const double w = 2.0 * M_PI * f;
  double complex Y = p[0];
  if (dY)
    dY[0] = 1.0;
  for (int m = 0; m < M; m++)
    {
      const double c = p[1 + m], Q = exp (p[1 + M + m]), wm = exp (p[1 + 2 * M + m]);
      const double x = w / wm;
      const double complex phi = 1.0 / (1.0 + I * Q * (x - 1.0 / x));
      Y += c * phi;
      if (dY)
        {
          dY[1 + m] = phi;
          dY[1 + M + m] = c * (-I * Q * (x - 1.0 / x)) * phi * phi;
          dY[1 + 2 * M + m] = c * (I * Q * (x + 1.0 / x)) * phi * phi;
        }
    }
  return Y;
}

/* The α problem's residuals (FIT_ALPHA_BANDS).
 *
 * Primary: each fitted band's mean α (RW_BAND_POINTS log-spaced points)
 * against its target, scaled by MEAN_SCALE so that they stay what the fit
 * meets (library rows within 0.0097, as without the flatness residuals).
 *
 * Secondary, within-band flatness: one residual per point of the inner
 * FLAT_INNER of each band (the middle 16 of its 24 points, the outer 1/6
 * octave at each edge left free for the transition to the next band),
 * √(FLAT_WEIGHT / 16) (α(f_k) − target_b). Why: a tabulated α is a band
 * value derived from a band's decay (ISO 354), and a band's decay is held
 * up by its least absorbed part. The band-mean fit alone lets α rise
 * across a band as the row rises (the profile {0.05, 0.05, 0.10,
 * 0.30, 0.60 …} over 6 bands: 0.06 → 0.17 across the 250 Hz band, 0.17 →
 * 0.44 across the 500 Hz band), and the 6 × 4 × 3 m box of sim-decay-bands
 * then decays, by the modal sum of tests/rw-modal-box.h (±1/24-octave
 * band split), 43 % (250 Hz) and 32 % (500 Hz) slower than Eyring at the
 * band's mean α, where walls of exactly the row's α in each band give
 * +14 % and +0.2 %. With these residuals (and the pruning keeping them,
 * PRUNE_FLAT_TOL): +26 % and +12 %. Not closer: resonators of Q ≤ 8
 * cannot step from 0.10 to 0.30 within a sixth of an octave. FLAT_WEIGHT
 * 1, 3 or 10 gave the same within 1 %; MEAN_SCALE 10 gave +17 % at
 * 500 Hz, band means off by up to 0.012 over the library and 3.36 branches
 * a row (30: 4.10); FLAT_INNER 3/4 let the pruning drop the 250 Hz
 * resonator (+40 % there), 1/2 gave +21 % at 500 Hz. */
#define MEAN_SCALE 30.0
#define FLAT_WEIGHT 3.0
#define FLAT_INNER (2.0 / 3.0)

/* Whether band point k carries a flatness residual. */
static bool
flat_point (int k)
{
  return fabs (k + 0.5 - 0.5 * RW_BAND_POINTS) < 0.5 * FLAT_INNER * RW_BAND_POINTS;
}

static int
flat_points (void)
{
  int n = 0;
  for (int k = 0; k < RW_BAND_POINTS; k++)
    n += flat_point (k);
  return n;
}

/* Number of residuals of the problem. */
static int
n_residuals (const FitProblem *pb)
{
  if (pb->kind != FIT_ALPHA_BANDS)
    return 2 * pb->n_pts;
  return pb->n_bands * (1 + flat_points ());
}

/* Residuals r and their Jacobian J (row-major, n_res × n_params). */
static int
residuals (const FitProblem *pb, const double *p, double *r, double *J)
{
  const int np = n_params (pb);
  double complex dY[NP_MAX];
  if (pb->kind == FIT_ALPHA_BANDS)
    {
      int i_flat = pb->n_bands;
      for (int b = 0; b < pb->n_bands; b++)
        {
          const double sw = sqrt (FLAT_WEIGHT / flat_points ());
          double sum = 0;
          double *row = J ? J + (size_t) b * np : NULL;
          if (row)
            for (int j = 0; j < np; j++)
              row[j] = 0;
          for (int k = 0; k < RW_BAND_POINTS; k++)
            {
              double aG, aB;
              double complex Y = model_eval (pb, p, band_point_hz (b, k), row ? dY : NULL);
              const double alpha = alpha_random_grad (Y, &aG, &aB);
              sum += alpha;
              if (row)
                for (int j = 0; j < np; j++)
                  row[j] += MEAN_SCALE * (aG * creal (dY[j]) + aB * cimag (dY[j])) / RW_BAND_POINTS;
              if (!flat_point (k))
                continue;
              r[i_flat] = sw * (alpha - pb->target[b]);
              if (J)
                for (int j = 0; j < np; j++)
                  J[(size_t) i_flat * np + j] = sw * (aG * creal (dY[j]) + aB * cimag (dY[j]));
              i_flat++;
            }
          r[b] = MEAN_SCALE * (sum / RW_BAND_POINTS - pb->target[b]);
        }
      return i_flat;
    }
  for (int k = 0; k < pb->n_pts; k++)
    {
      double complex Y = model_eval (pb, p, pb->f[k], J ? dY : NULL);
      double complex R = (1.0 - Y) / (1.0 + Y), dR = -2.0 / ((1.0 + Y) * (1.0 + Y));
      const double w = pb->weight[k];
      r[2 * k] = w * creal (R - pb->R[k]);
      r[2 * k + 1] = w * cimag (R - pb->R[k]);
      if (J)
        for (int j = 0; j < np; j++)
          {
            J[(size_t) (2 * k) * np + j] = w * creal (dR * dY[j]);
            J[(size_t) (2 * k + 1) * np + j] = w * cimag (dR * dY[j]);
          }
    }
  return 2 * pb->n_pts;
}

static double
half_sq (const double *r, int n)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    s += r[i] * r[i];
  return 0.5 * s;
}

/* Projected Levenberg–Marquardt over the parameters with free[j] set,
 * until a step gains less than rel_gain of the cost (or max_iter steps).
 * Returns the final cost ½|r|². */
static double
fit_lm (const FitProblem *pb, double *p, const bool *free_mask, int max_iter, double rel_gain)
{
  const int np = n_params (pb);
  const int nr = n_residuals (pb);
  double *r = malloc (sizeof (double) * nr * 2);
  double *J = malloc (sizeof (double) * (size_t) nr * np);
  if (r == NULL || J == NULL)
    {
      free (r);
      free (J);
      return INFINITY;
    }
  double *r_new = r + nr;
  residuals (pb, p, r, J);
  double cost = half_sq (r, nr), lambda = 1e-3;
  for (int it = 0; it < max_iter; it++)
    {
      double g[NP_MAX], H[NP_MAX * NP_MAX];
      int idx[NP_MAX], nf = 0;
      for (int j = 0; j < np; j++)
        {
          g[j] = 0;
          for (int i = 0; i < nr; i++)
            g[j] += J[(size_t) i * np + j] * r[i];
        }
      for (int j = 0; j < np; j++)
        if (free_mask[j] && !(p[j] <= pb->lo[j] && g[j] > 0) && !(p[j] >= pb->hi[j] && g[j] < 0))
          idx[nf++] = j;
      if (nf == 0)
        break;
      for (int a = 0; a < nf; a++)
        for (int b = 0; b <= a; b++)
          {
            double s = 0;
            for (int i = 0; i < nr; i++)
              s += J[(size_t) i * np + idx[a]] * J[(size_t) i * np + idx[b]];
            H[a * nf + b] = H[b * nf + a] = s;
          }
      double dmax = 0;
      for (int a = 0; a < nf; a++)
        dmax = fmax (dmax, H[a * nf + a]);
      if (!(dmax > 0))
        break;
      bool improved = false;
      while (lambda < 1e10)
        {
          double A[NP_MAX * NP_MAX], step[NP_MAX], trial[NP_MAX];
          for (int a = 0; a < nf; a++)
            {
              for (int b = 0; b < nf; b++)
                A[a * nf + b] = H[a * nf + b];
              A[a * nf + a] += lambda * (H[a * nf + a] + 1e-9 * dmax);
              step[a] = -g[idx[a]];
            }
          if (!rw_cholesky_factor (A, nf))
            {
              lambda *= 4;
              continue;
            }
          rw_cholesky_solve (A, step, nf);
          for (int j = 0; j < np; j++)
            trial[j] = p[j];
          for (int a = 0; a < nf; a++)
            {
              const int j = idx[a];
              trial[j] = fmin (pb->hi[j], fmax (pb->lo[j], p[j] + step[a]));
            }
          residuals (pb, trial, r_new, NULL);
          const double c_new = half_sq (r_new, nr);
          if (c_new < cost)
            {
              const double gain = cost - c_new;
              for (int j = 0; j < np; j++)
                p[j] = trial[j];
              residuals (pb, p, r, J);
              cost = c_new;
              lambda = fmax (lambda / 3, 1e-12);
              improved = gain > rel_gain * cost + 1e-30;
              break;
            }
          lambda *= 4;
        }
      if (!improved)
        break;
    }
  free (r);
  free (J);
  return cost;
}

/* The most a locally reacting surface absorbs in a diffuse field: α_st of
 * the real admittance at its peak (ζ ≈ 1.567, rw-materials.c). */
static double
alpha_passive_max (void)
{
  return rw_statistical_alpha_from_reflection (rw_reflection_from_statistical_alpha (1.0));
}

/* The conductance whose random-incidence absorption is alpha (the branch
 * ζ ≥ ζ_peak, as today's frequency-independent surfaces). */
static double
paris_admittance (double alpha)
{
  return rw_admittance_from_reflection (rw_reflection_from_statistical_alpha (alpha));
}

/* Sets the box and the resonance frequencies of M branches at the centres
 * of bands first … first + M − 1, all of quality factor Q. */
static void
problem_init (FitProblem *pb, int M, double *p, double Q)
{
  pb->M = M;
  pb->lo[0] = 0;
  pb->hi[0] = 1e3;
  p[0] = 0;
  for (int m = 0; m < M; m++)
    {
      const double lw = log (2.0 * M_PI * rw_octave_centres_hz[m]);
      pb->lo[1 + m] = 0;
      pb->hi[1 + m] = 1e3;
      /* Q from 0.5 (a branch spanning several octaves) to 8 (a third of
       * an octave wide): narrower resonances than the bands cannot be
       * seen in band data and would only ring. */
      pb->lo[1 + M + m] = log (0.5);
      pb->hi[1 + M + m] = log (8.0);
      /* ω_m within half an octave of its band centre. */
      pb->lo[1 + 2 * M + m] = lw - 0.5 * M_LN2;
      pb->hi[1 + 2 * M + m] = lw + 0.5 * M_LN2;
      p[1 + m] = 0;
      p[1 + M + m] = log (Q);
      p[1 + 2 * M + m] = lw;
    }
}

/* The fitted parameters as an RwAdmittance; branches whose c is negligible
 * (below 1e−7 of the largest admittance, an α change ≪ 1e−6) are dropped. */
static void
params_to_admittance (const FitProblem *pb, const double *p, RwAdmittance *out)
{
  const int M = pb->M;
  double total = p[0];
  for (int m = 0; m < M; m++)
    total += p[1 + m];
  *out = (RwAdmittance) { .Y0 = p[0] };
  for (int m = 0; m < M; m++)
    {
      const double c = p[1 + m], Q = exp (p[1 + M + m]), wm = exp (p[1 + 2 * M + m]);
      if (!(c > 1e-7 * total))
        continue;
      RwBranch *b = &out->branch[out->n_branches++];
      b->E = 1.0 / c;
      b->D = Q / (wm * c);
      b->F = Q * wm / c;
    }
}

static void
report_fill (RwFitReport *rep, const RwAdmittance *a, const double alpha[RW_ADM_N_BANDS],
             int n_bands_fit)
{
  const double amax = alpha_passive_max ();
  rep->n_bands_fit = n_bands_fit;
  rep->worst_band = 0;
  rep->worst_error = 0;
  for (int b = 0; b < RW_ADM_N_BANDS; b++)
    {
      rep->target_random[b] = alpha[b];
      rep->limited[b] = alpha[b] > amax;
      rep->target_normal[b] = isfinite (alpha[b]) ? rw_alpha_normal (paris_admittance (alpha[b])) : NAN;
      rep->model_random[b] = rw_admittance_band_alpha (a, b, true);
      rep->model_normal[b] = rw_admittance_band_alpha (a, b, false);
      /* A limited band is judged against the passive limit. */
      const double e = fabs (rep->model_random[b] - fmin (alpha[b], amax));
      if (b < n_bands_fit && isfinite (e) && e > rep->worst_error)
        {
          rep->worst_error = e;
          rep->worst_band = b;
        }
    }
}

/* Worst |α_model − α_target| of a parameter set, among the fitted bands. */
static double
worst_abs (const FitProblem *pb, const double *p)
{
  double r[RW_ADM_N_BANDS * (1 + RW_BAND_POINTS)], w = 0;
  residuals (pb, p, r, NULL);
  for (int b = 0; b < pb->n_bands; b++)
    w = fmax (w, fabs (r[b]) / MEAN_SCALE);
  return w;
}

static int
imin (int a, int b)
{
  return a < b ? a : b;
}

/* The fit proper, for either kind of problem. Branches: one per fitted
 * band, at its centre; an α fit over fewer than 8 bands gets one more at
 * the next band's centre, which shapes the upper edge of the top fitted
 * band (glass fibre board 50 mm over 4 bands: worst error 0.033 without
 * it, 0.006 with). Start: Y0 the smallest band conductance G[b], each
 * resonator the excess of its own band (G[b] NAN, or a branch beyond the
 * bands: nothing to start with); then Y0 and the c by LM at fixed Q; then
 * Q and ω_m freed too (always: the α fit's flatness residuals need the
 * resonances' shapes even where the band means are met at fixed Q; this
 * makes the library's fits 2.6 times slower, 17 s → 44 s for the 273 fits of
 * admittance-fit-library). Three starting Q, tried in a fixed order (deterministic),
 * the best kept: the worst band error for α, the cost for R. */
static void
fit_multistart (FitProblem *pb, const double *G, double *best)
{
  static const double q_start[] = { 1.4, 0.8, 2.5 };
  const int M = pb->kind == FIT_ALPHA_BANDS ? imin (pb->n_bands + 1, RW_ADM_N_BANDS) : pb->M;
  const int n_g = pb->kind == FIT_ALPHA_BANDS ? pb->n_bands : pb->M;   /* entries of G */
  double best_score = INFINITY;
  for (size_t qi = 0; qi < sizeof q_start / sizeof q_start[0]; qi++)
    {
      double p[NP_MAX];
      bool mask[NP_MAX] = { false };
      problem_init (pb, M, p, q_start[qi]);
      double ymin = INFINITY;
      for (int b = 0; b < n_g; b++)
        if (isfinite (G[b]))
          ymin = fmin (ymin, G[b]);
      p[0] = isfinite (ymin) ? ymin : 0.0;
      for (int m = 0; m < M; m++)
        p[1 + m] = m < n_g && isfinite (G[m]) ? G[m] - p[0] : 0.0;
      for (int j = 0; j < 1 + M; j++)
        mask[j] = true;
      fit_lm (pb, p, mask, 300, 1e-15);
      for (int j = 0; j < n_params (pb); j++)
        mask[j] = true;
      double score = fit_lm (pb, p, mask, 500, 1e-15);
      if (pb->kind == FIT_ALPHA_BANDS)
        score = worst_abs (pb, p);
      if (score < best_score)
        {
          best_score = score;
          for (int j = 0; j < n_params (pb); j++)
            best[j] = p[j];
        }
      if (pb->kind == FIT_ALPHA_BANDS && best_score <= 0.005)
        break;
    }
}

/* ---- Fewer branches ------------------------------------------------------
 *
 * The solver keeps two states per branch on every frequency-dependent
 * boundary node and reads and writes them every step (16 bytes per branch
 * and node per step in single precision on the GPU), so a branch that the
 * accuracy does not need costs throughput for nothing. One branch per band
 * is where the fit starts, not what most rows need: a nearly flat row is a
 * conductance and one broad resonator.
 *
 * Backward elimination, greedy and deterministic: every candidate with one
 * branch fewer is refitted (all parameters free, from the current ones)
 * and scored, and the best is kept while its score stays within the
 * tolerance. The candidates are each branch left out, and each pair of
 * neighbouring branches merged into one broader resonator (lower Q)
 * between them, its ω_m free over both branches' ranges: two octaves. Ties
 * go to the first candidate in that order.
 *
 * Cost (fit_prune): the candidates are ranked after PRUNE_SCREEN LM steps,
 * then the best PRUNE_TRY refitted by up to PRUNE_ITER steps, stopping
 * once a step gains less than PRUNE_GAIN of the cost. Measured with test
 * admittance-fit-library (273 fits): a costlier setting (30 / 3 / 300
 * steps, no gain limit) gave 2.36 branches per 8-band fit against 2.31,
 * in three times the time (54 s against 18 s). */
#define PRUNE_SCREEN 5
#define PRUNE_TRY 2
#define PRUNE_ITER 100
#define PRUNE_GAIN 1e-4

/* Worst band error of a parameter set: for α bands |α − target| among the
 * fitted bands; for measured R the random-incidence α per band, mean over
 * the data's points in it, against the data's (as the fit report). */
static double
fit_score (const FitProblem *pb, const double *p)
{
  if (pb->kind == FIT_ALPHA_BANDS)
    return worst_abs (pb, p);
  double model[RW_ADM_N_BANDS] = { 0 }, data[RW_ADM_N_BANDS] = { 0 }, w = 0;
  int count[RW_ADM_N_BANDS] = { 0 };
  for (int k = 0; k < pb->n_pts; k++)
    {
      const int b = band_of (pb->f[k]);
      if (b < 0)
        continue;
      count[b]++;
      model[b] += rw_alpha_random (model_eval (pb, p, pb->f[k], NULL));
      data[b] += rw_alpha_random ((1.0 - pb->R[k]) / (1.0 + pb->R[k]));
    }
  for (int b = 0; b < RW_ADM_N_BANDS; b++)
    if (count[b] > 0)
      w = fmax (w, fabs (model[b] - data[b]) / count[b]);
  return w;
}

/* The problem of src and its parameters p with one branch fewer, in dst
 * and q: branch `m` left out or, with `merge`, branches m and m + 1
 * replaced by one resonator carrying both conductances, at their
 * conductance-weighted mean log frequency, an octave less narrow (Q / 2,
 * at least the lower bound), free over both ranges of ω_m. */
static void
problem_reduce (const FitProblem *src, const double *p, int m, bool merge, FitProblem *dst, double *q)
{
  const int M = src->M, Mn = M - 1;
  *dst = *src;
  dst->M = Mn;
  q[0] = p[0];
  int k = 0;
  for (int j = 0; j < M; j++)
    {
      if (j == m && !merge)
        continue;
      if (j == m + 1 && merge)
        continue;
      for (int s = 0; s < 3; s++)
        {
          q[1 + s * Mn + k] = p[1 + s * M + j];
          dst->lo[1 + s * Mn + k] = src->lo[1 + s * M + j];
          dst->hi[1 + s * Mn + k] = src->hi[1 + s * M + j];
        }
      if (j == m)
        {
          const int i = j + 1;
          const double c1 = p[1 + j], c2 = p[1 + i], cs = c1 + c2;
          q[1 + k] = cs;
          q[1 + 2 * Mn + k] = cs > 0 ? (c1 * p[1 + 2 * M + j] + c2 * p[1 + 2 * M + i]) / cs
                                     : 0.5 * (p[1 + 2 * M + j] + p[1 + 2 * M + i]);
          dst->lo[1 + 2 * Mn + k] = fmin (src->lo[1 + 2 * M + j], src->lo[1 + 2 * M + i]);
          dst->hi[1 + 2 * Mn + k] = fmax (src->hi[1 + 2 * M + j], src->hi[1 + 2 * M + i]);
          q[1 + Mn + k] = fmax (dst->lo[1 + Mn + k], 0.5 * (p[1 + M + j] + p[1 + M + i]) - M_LN2);
        }
      k++;
    }
}

/* Greedy backward elimination of branches (above) while the score stays
 * ≤ tol; pb and p are updated in place. Refitting every candidate fully
 * costs ~0.5 s per fit over the library: the candidates are screened by a
 * short refit (PRUNE_SCREEN iterations, which ranks them as the full
 * refit does in all but a few cases), then the best PRUNE_TRY of them are
 * refitted fully, in that order, and the first within tol is taken. */
/* A pruned admittance must stay the full fit's surface, not become
 * another one with the same band α: at every band point of the fitted
 * bands, |Y − Y_full| ≤ PRUNE_Y_TOL |Y_full|. Without this the pruning
 * may trade the full fit (one resonator centred in each band) for a few
 * broad branches of another reactance: α per band matches, but the wall
 * behaves otherwise. Measured: the profile {0.05, 0.05, 0.10,
 * 0.30, 0.60, 0.70 …} over 6 bands pruned to two branches (Y0 = 0, a
 * heavy 85 Hz resonator and a broad 1.7 kHz one) gave the 6 × 4 × 3 m box a
 * T30 of 8 s (fp32) and 17 s (fp64) in the 500 Hz band, where the full fit
 * gives 0.40 s and walls of the same α, real, 0.32 s (sim-decay-bands at
 * 1 kHz on the GPU). */
#define PRUNE_Y_TOL 0.5

static bool
prune_close (const FitProblem *pb, const double *p, const double complex *Y_full)
{
  if (pb->kind != FIT_ALPHA_BANDS)
    return true;
  for (int b = 0; b < pb->n_bands; b++)
    for (int k = 0; k < RW_BAND_POINTS; k++)
      {
        const double complex y = model_eval (pb, p, band_point_hz (b, k), NULL);
        const double complex yf = Y_full[b * RW_BAND_POINTS + k];
        if (cabs (y - yf) > PRUNE_Y_TOL * cabs (yf))
          return false;
      }
  return true;
}

/* Flatness of a parameter set: the largest over the fitted bands of the
 * RMS deviation of α from the band's target over its inner points (the
 * flatness residuals), relative to max(target, PRUNE_FLAT_FLOOR).
 * Relative, because a band's decay time goes as 1/α: the same deviation
 * matters three times as much at α 0.1 as at 0.3; the floor keeps nearly
 * rigid bands (α 0.01 … 0.05, where a box is not diffuse enough for
 * Eyring anyway) from holding branches for deviations of a few
 * thousandths. 0 for problems other than FIT_ALPHA_BANDS. */
#define PRUNE_FLAT_FLOOR 0.1

static double
flat_worst (const FitProblem *pb, const double *p)
{
  if (pb->kind != FIT_ALPHA_BANDS)
    return 0;
  double r[RW_ADM_N_BANDS * (1 + RW_BAND_POINTS)], worst = 0;
  residuals (pb, p, r, NULL);
  const int nf = flat_points ();
  for (int b = 0; b < pb->n_bands; b++)
    {
      double s = 0;
      for (int k = 0; k < nf; k++)
        s += r[pb->n_bands + b * nf + k] * r[pb->n_bands + b * nf + k];
      worst = fmax (worst, sqrt (s / FLAT_WEIGHT) / fmax (pb->target[b], PRUNE_FLAT_FLOOR));
    }
  return worst;
}

/* A pruned candidate must stay about as flat within the bands as the full
 * fit: flat_worst at most PRUNE_FLAT_TOL above the full fit's. Measured on
 * the profile (6 bands) and the library's 8-band fits
 * (MATERIALS.md; with MEAN_SCALE 10): an absolute RMS over all bands
 * instead (≤ 0.01 above) let the pruning drop the 250 Hz resonator (4 branches, that band's modal
 * T30 +38 % over Eyring; with it +26 %); an absolute 0.003 in every band
 * kept it but cost 5.0 branches a row over the library; this bound keeps
 * it, at 4.10 branches a row with MEAN_SCALE 30 (the band-mean-only fit:
 * 4.18). */
#define PRUNE_FLAT_TOL 0.1

static void
fit_prune (FitProblem *pb, double *p, double tol)
{
  const double flat_full = flat_worst (pb, p);
  enum { N_CAND = 2 * RW_ADM_MAX_BRANCHES };
  bool mask[NP_MAX];
  for (int j = 0; j < NP_MAX; j++)
    mask[j] = true;
  double complex Y_full[RW_ADM_N_BANDS * RW_BAND_POINTS];
  for (int b = 0; pb->kind == FIT_ALPHA_BANDS && b < pb->n_bands; b++)
    for (int k = 0; k < RW_BAND_POINTS; k++)
      Y_full[b * RW_BAND_POINTS + k] = model_eval (pb, p, band_point_hz (b, k), NULL);
  /* An α fit keeps one branch at least: no branch means a frequency-
   * independent surface, which the solver requires to be exactly the β of
   * the surface's one R (the band-averaged α, rw_materials_assign_models);
   * only rows with the same α in every band are that (rw_admittance_fit_alpha
   * returns them before any fit). With the flatness residuals the pruning
   * reached Y0 alone for plaster over 4 bands, and sim-pipeline's solve
   * was refused. A measured-R fit may end with none: its R is the model's. */
  const int m_min = pb->kind == FIT_ALPHA_BANDS ? 1 : 0;
  while (pb->M > m_min)
    {
      FitProblem cand[N_CAND];
      double cq[N_CAND][NP_MAX], cs[N_CAND];
      int order[N_CAND], n = 0;
      for (int m = 0; m < pb->M; m++)
        for (int merge = 0; merge < 2; merge++)
          {
            if (merge && m + 1 >= pb->M)
              continue;
            problem_reduce (pb, p, m, merge, &cand[n], cq[n]);
            fit_lm (&cand[n], cq[n], mask, PRUNE_SCREEN, PRUNE_GAIN);
            cs[n] = fit_score (&cand[n], cq[n]);
            /* insertion by score, stable: ties keep the candidates' order */
            int i = n;
            while (i > 0 && cs[order[i - 1]] > cs[n])
              {
                order[i] = order[i - 1];
                i--;
              }
            order[i] = n;
            n++;
          }
      bool taken = false;
      for (int i = 0; i < n && i < PRUNE_TRY && !taken; i++)
        {
          const int c = order[i];
          fit_lm (&cand[c], cq[c], mask, PRUNE_ITER, PRUNE_GAIN);
          if (fit_score (&cand[c], cq[c]) <= tol && prune_close (&cand[c], cq[c], Y_full)
              && flat_worst (&cand[c], cq[c]) <= flat_full + PRUNE_FLAT_TOL)
            {
              *pb = cand[c];
              for (int j = 0; j < n_params (pb); j++)
                p[j] = cq[c][j];
              taken = true;
            }
        }
      if (!taken)
        break;
    }
}

bool
rw_admittance_fit_alpha (const double alpha[RW_ADM_N_BANDS], int n_bands_fit,
                         RwAdmittance *out, RwFitReport *report, RwError *err)
{
  if (n_bands_fit < 1 || n_bands_fit > RW_ADM_N_BANDS)
    return rw_fail (err, RW_ERROR_INPUT, _("%d bands to fit: the fit takes 1 to %d"),
                    n_bands_fit, RW_ADM_N_BANDS);
  for (int b = 0; b < RW_ADM_N_BANDS; b++)
    if (!(alpha[b] >= 0.0 && alpha[b] <= 1.0))
      return rw_fail (err, RW_ERROR_INPUT, _("The absorption %g at %g Hz is not in [0, 1]"),
                      alpha[b], rw_octave_centres_hz[b]);
  const double amax = alpha_passive_max ();
  double t[RW_ADM_N_BANDS], lo = INFINITY, hi = -INFINITY;
  for (int b = 0; b < n_bands_fit; b++)
    {
      t[b] = fmin (alpha[b], amax);
      lo = fmin (lo, t[b]);
      hi = fmax (hi, t[b]);
    }
  if (hi - lo <= 1e-12)
    {
      /* The same α everywhere: today's frequency-independent surface,
       * exactly (the solver then runs its update without branch states). */
      *out = rw_admittance_real (rw_reflection_from_statistical_alpha (alpha[0]));
    }
  else
    {
      FitProblem pb = { .kind = FIT_ALPHA_BANDS, .n_bands = n_bands_fit };
      double G[RW_ADM_N_BANDS], best[NP_MAX];
      for (int b = 0; b < n_bands_fit; b++)
        {
          pb.target[b] = t[b];
          G[b] = paris_admittance (t[b]);
        }
      fit_multistart (&pb, G, best);
      fit_prune (&pb, best, fmax (0.01, worst_abs (&pb, best) + 0.002));
      params_to_admittance (&pb, best, out);
    }
  if (report)
    report_fill (report, out, alpha, n_bands_fit);
  return true;
}

/* ---- Measured data -------------------------------------------------------- */

typedef struct {
  size_t n, cap;
  double *f;
  double complex *Y;
} Samples;

static bool
samples_push (Samples *s, double f, double complex Y)
{
  if (s->n == s->cap)
    {
      size_t cap = s->cap ? 2 * s->cap : 256;
      double *nf = realloc (s->f, cap * sizeof *nf);
      if (nf == NULL)
        return false;
      s->f = nf;
      double complex *nY = realloc (s->Y, cap * sizeof *nY);
      if (nY == NULL)
        return false;
      s->Y = nY;
      s->cap = cap;
    }
  s->f[s->n] = f;
  s->Y[s->n] = Y;
  s->n++;
  return true;
}

/* Strips leading and trailing blanks (and a CR) in place. */
static char *
trim (char *s)
{
  while (*s == ' ' || *s == '\t')
    s++;
  size_t n = strlen (s);
  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
    s[--n] = '\0';
  return s;
}

static bool
missing_header (RwError *err, const char *path, int line)
{
  return rw_fail (err, RW_ERROR_INPUT,
                  _("%s:%d: missing header: the first line must be \"frequency_hz,z_real,z_imag\" "
                    "(specific impedance) or \"frequency_hz,r_real,r_imag\" (reflection factor)"),
                  path, line);
}

/* Reads the CSV of rw_admittance_fit_csv into admittances Y(f). */
static bool
read_csv (const char *path, Samples *out, RwError *err)
{
  FILE *fp = fopen (path, "r");
  if (fp == NULL)
    return rw_fail (err, RW_ERROR_IO, _("%s: cannot read the file: %s"), path, strerror (errno));
  char *line = NULL;
  size_t len = 0;
  int lineno = 0;
  bool ok = true, header = false, is_z = false;
  while (ok && getline (&line, &len, fp) != -1)
    {
      lineno++;
      char *s = trim (line);
      if (!header)
        {
          if (lineno == 1 && strncmp (s, "\xef\xbb\xbf", 3) == 0)
            s += 3;                  /* a UTF-8 byte-order mark */
          if (strcmp (s, "frequency_hz,z_real,z_imag") == 0)
            is_z = true;
          else if (strcmp (s, "frequency_hz,r_real,r_imag") != 0)
            {
              ok = missing_header (err, path, lineno);
              break;
            }
          header = true;
          continue;
        }
      if (*s == '\0')
        continue;                    /* blank lines (a trailing one) */
      double v[3];
      int n = 0;
      char *tok = s;
      while (ok)
        {
          char *comma = strchr (tok, ',');
          if (comma)
            *comma = '\0';
          char *field = trim (tok), *end = NULL;
          if (n >= 3)
            {
              ok = rw_fail (err, RW_ERROR_INPUT, _("%s:%d: more than 3 values in the row"), path, lineno);
              break;
            }
          errno = 0;
          v[n] = strtod (field, &end);
          if (*field == '\0' || end == field || *trim (end) != '\0')
            ok = rw_fail (err, RW_ERROR_INPUT, _("%s:%d: \"%s\" is not a number"), path, lineno, field);
          else if (!isfinite (v[n]))
            ok = rw_fail (err, RW_ERROR_INPUT, _("%s:%d: %s is not a finite number"), path, lineno, field);
          n++;
          if (comma == NULL)
            break;
          tok = comma + 1;
        }
      if (!ok)
        break;
      if (n != 3)
        {
          ok = rw_fail (err, RW_ERROR_INPUT, _("%s:%d: %d values in the row, 3 expected"), path, lineno, n);
          break;
        }
      const double f = v[0];
      if (!(f > 0))
        ok = rw_fail (err, RW_ERROR_INPUT, _("%s:%d: the frequency %g Hz is not above 0"), path, lineno, f);
      else if (out->n > 0 && !(f > out->f[out->n - 1]))
        ok = rw_fail (err, RW_ERROR_INPUT,
                      _("%s:%d: the frequency %g Hz is not above the previous row's %g Hz: frequencies must rise"),
                      path, lineno, f, out->f[out->n - 1]);
      else if (is_z && v[1] < 0)
        ok = rw_fail (err, RW_ERROR_INPUT,
                      _("%s:%d: Re Z = %g is below 0: an active surface (a passive one has Re Z ≥ 0)"),
                      path, lineno, v[1]);
      else if (is_z && v[1] == 0 && v[2] == 0)
        ok = rw_fail (err, RW_ERROR_INPUT, _("%s:%d: Z = 0 (a pressure-release surface) has no finite admittance"),
                      path, lineno);
      else if (!is_z && hypot (v[1], v[2]) > 1)
        ok = rw_fail (err, RW_ERROR_INPUT,
                      _("%s:%d: |R| = %g is above 1: an active surface (a passive one has |R| ≤ 1)"),
                      path, lineno, hypot (v[1], v[2]));
      else if (!is_z && v[1] == -1 && v[2] == 0)
        ok = rw_fail (err, RW_ERROR_INPUT, _("%s:%d: R = −1 (a pressure-release surface) has no finite admittance"),
                      path, lineno);
      if (!ok)
        break;
      const double complex V = v[1] + I * v[2];   /* Z or R */
      const double complex Y = is_z ? 1.0 / V : (1.0 - V) / (1.0 + V);
      if (!samples_push (out, f, Y))
        ok = rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory reading the file"), path);
    }
  if (ok && ferror (fp))
    ok = rw_fail (err, RW_ERROR_IO, _("%s: cannot read the file: %s"), path, strerror (errno));
  if (ok && !header)
    ok = missing_header (err, path, 1);   /* an empty file */
  if (ok && out->n < 2)
    ok = rw_fail (err, RW_ERROR_INPUT, _("%s: %zu data rows: at least 2 are needed"), path, out->n);
  free (line);
  fclose (fp);
  return ok;
}

/* The octave band (0 … 7) whose edges f_c/√2 … f_c·√2 hold f, or −1. */
static int
band_of (double f)
{
  for (int b = 0; b < RW_ADM_N_BANDS; b++)
    if (f >= rw_octave_centres_hz[b] * M_SQRT1_2 && f < rw_octave_centres_hz[b] * M_SQRT2)
      return b;
  return -1;
}

bool
rw_admittance_fit_csv (const char *path, int n_bands_fit,
                       RwAdmittance *out, RwFitReport *report, RwError *err)
{
  if (n_bands_fit < 1 || n_bands_fit > RW_ADM_N_BANDS)
    return rw_fail (err, RW_ERROR_INPUT, _("%d bands to fit: the fit takes 1 to %d"),
                    n_bands_fit, RW_ADM_N_BANDS);
  Samples s = { 0 };
  if (!read_csv (path, &s, err))
    {
      free (s.f);
      free (s.Y);
      return false;
    }
  /* The fit is complex least squares on the normal-incidence reflection
   * factor R = (1 − Y)/(1 + Y) at the data's frequencies, not on α:
   * measured data carry the phase that band α throw away, and matching R
   * matches α(θ) at every angle (α(θ) depends on Y alone), where matching
   * α_st would leave the reactance free. R rather than Y because R is
   * bounded and weighs a rigid wall (Y ≈ 0.01) and an absorber (Y ≈ 0.5)
   * on the scale the wave sees, |ΔR|. Each fitted band weighs the same
   * whatever its number of data points (weight 1/√n_b): a linearly spaced
   * measurement would otherwise be fitted at 4–8 kHz only. */
  int count[RW_ADM_N_BANDS] = { 0 };
  double G[RW_ADM_N_BANDS], t_rand[RW_ADM_N_BANDS] = { 0 }, t_norm[RW_ADM_N_BANDS] = { 0 };
  for (int b = 0; b < RW_ADM_N_BANDS; b++)
    G[b] = 0;
  for (size_t k = 0; k < s.n; k++)
    {
      int b = band_of (s.f[k]);
      if (b < 0)
        continue;
      count[b]++;
      G[b] += creal (s.Y[k]);
      t_rand[b] += rw_alpha_random (s.Y[k]);
      t_norm[b] += rw_alpha_normal (s.Y[k]);
    }
  size_t n_used = 0;
  for (int b = 0; b < RW_ADM_N_BANDS; b++)
    {
      G[b] = count[b] ? G[b] / count[b] : NAN;
      t_rand[b] = count[b] ? t_rand[b] / count[b] : NAN;
      t_norm[b] = count[b] ? t_norm[b] / count[b] : NAN;
      if (b < n_bands_fit)
        n_used += (size_t) count[b];
    }
  bool ok = true;
  double *f = malloc (sizeof (double) * (n_used + 1));
  double *w = malloc (sizeof (double) * (n_used + 1));
  double complex *R = malloc (sizeof (double complex) * (n_used + 1));
  if (f == NULL || w == NULL || R == NULL)
    ok = rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory fitting the data"), path);
  else if (n_used == 0)
    ok = rw_fail (err, RW_ERROR_INPUT, _("%s: no data between %g Hz and %g Hz, the bands to fit"), path,
                  rw_octave_centres_hz[0] * M_SQRT1_2, rw_octave_centres_hz[n_bands_fit - 1] * M_SQRT2);
  if (ok)
    {
      size_t j = 0;
      for (size_t k = 0; k < s.n; k++)
        {
          int b = band_of (s.f[k]);
          if (b < 0 || b >= n_bands_fit)
            continue;
          f[j] = s.f[k];
          R[j] = (1.0 - s.Y[k]) / (1.0 + s.Y[k]);
          w[j] = 1.0 / sqrt ((double) count[b]);
          j++;
        }
      FitProblem pb = { .kind = FIT_REFLECTION_POINTS, .M = n_bands_fit, .n_pts = (int) n_used,
                        .f = f, .R = R, .weight = w };
      double best[NP_MAX];
      fit_multistart (&pb, G, best);
      fit_prune (&pb, best, fmax (0.01, fit_score (&pb, best) + 0.002));
      params_to_admittance (&pb, best, out);
    }
  if (ok && report)
    {
      report->n_bands_fit = n_bands_fit;
      report->worst_band = 0;
      report->worst_error = 0;
      for (int b = 0; b < RW_ADM_N_BANDS; b++)
        {
          /* Target and model over the same frequencies: the data's points
           * in the band where it has some, else the model's band mean. */
          report->target_random[b] = t_rand[b];
          report->target_normal[b] = t_norm[b];
          report->limited[b] = false;  /* measured passive data never exceed the limit */
          if (count[b] == 0)
            {
              report->model_random[b] = rw_admittance_band_alpha (out, b, true);
              report->model_normal[b] = rw_admittance_band_alpha (out, b, false);
              continue;
            }
          double mr = 0, mn = 0;
          for (size_t k = 0; k < s.n; k++)
            if (band_of (s.f[k]) == b)
              {
                double complex Y = rw_admittance_eval (out, s.f[k]);
                mr += rw_alpha_random (Y);
                mn += rw_alpha_normal (Y);
              }
          report->model_random[b] = mr / count[b];
          report->model_normal[b] = mn / count[b];
          const double e = fabs (report->model_random[b] - t_rand[b]);
          if (b < n_bands_fit && e > report->worst_error)
            {
              report->worst_error = e;
              report->worst_band = b;
            }
        }
    }
  free (f);
  free (w);
  free (R);
  free (s.f);
  free (s.Y);
  return ok;
}

double
rw_admittance_branch_table (const RwAdmittance *a, double k, double *coef, double *dh_fh)
{
  for (int m = 0; m < a->n_branches; m++)
    {
      const RwBranchCoef c = rw_branch_coef (a->branch[m].D, a->branch[m].E, a->branch[m].F, k);
      rw_branch_coef_f64 (&c, coef + 4 * m, dh_fh + 2 * m);
    }
  return rw_branch_beta_f64 (a->Y0, coef, a->n_branches);
}
