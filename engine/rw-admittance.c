/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-admittance.c — the passive admittance model of rw-admittance.h. */
#include "rw-admittance.h"

#include <math.h>
#include <stdlib.h>
#include "rw-i18n.h"
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
 * ρ^−24 with ρ ≥ 4 (≤ 1e−14; measured against the closed form
 * rw_statistical_absorption to 1e−12 in test admittance-alpha). The
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
#define PTS_MAX 4096                 /* CSV data points used by a fit */

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

/* Residuals r and their Jacobian J (row-major, n_res × n_params). */
static int
residuals (const FitProblem *pb, const double *p, double *r, double *J)
{
  const int np = n_params (pb);
  double complex dY[NP_MAX];
  if (pb->kind == FIT_ALPHA_BANDS)
    {
      for (int b = 0; b < pb->n_bands; b++)
        {
          double sum = 0;
          double *row = J ? J + (size_t) b * np : NULL;
          if (row)
            for (int j = 0; j < np; j++)
              row[j] = 0;
          for (int k = 0; k < RW_BAND_POINTS; k++)
            {
              double aG, aB;
              double complex Y = model_eval (pb, p, band_point_hz (b, k), row ? dY : NULL);
              sum += alpha_random_grad (Y, &aG, &aB);
              if (row)
                for (int j = 0; j < np; j++)
                  row[j] += (aG * creal (dY[j]) + aB * cimag (dY[j])) / RW_BAND_POINTS;
            }
          r[b] = sum / RW_BAND_POINTS - pb->target[b];
        }
      return pb->n_bands;
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

/* Solves A x = b (A n×n symmetric positive definite, overwritten) by
 * Cholesky. false when A is not positive definite. */
static bool
cholesky_solve (double *A, double *b, int n)
{
  for (int j = 0; j < n; j++)
    {
      double d = A[j * n + j];
      for (int k = 0; k < j; k++)
        d -= A[j * n + k] * A[j * n + k];
      if (!(d > 0))
        return false;
      d = sqrt (d);
      A[j * n + j] = d;
      for (int i = j + 1; i < n; i++)
        {
          double s = A[i * n + j];
          for (int k = 0; k < j; k++)
            s -= A[i * n + k] * A[j * n + k];
          A[i * n + j] = s / d;
        }
    }
  for (int i = 0; i < n; i++)
    {
      double s = b[i];
      for (int k = 0; k < i; k++)
        s -= A[i * n + k] * b[k];
      b[i] = s / A[i * n + i];
    }
  for (int i = n - 1; i >= 0; i--)
    {
      double s = b[i];
      for (int k = i + 1; k < n; k++)
        s -= A[k * n + i] * b[k];
      b[i] = s / A[i * n + i];
    }
  return true;
}

/* Projected Levenberg–Marquardt over the parameters with free[j] set.
 * Returns the final cost ½|r|². */
static double
fit_lm (const FitProblem *pb, double *p, const bool *free_mask, int max_iter)
{
  const int np = n_params (pb);
  const int nr = pb->kind == FIT_ALPHA_BANDS ? pb->n_bands : 2 * pb->n_pts;
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
          if (!cholesky_solve (A, step, nf))
            {
              lambda *= 4;
              continue;
            }
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
              improved = gain > 1e-15 * cost + 1e-30;
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
  double r[RW_ADM_N_BANDS], w = 0;
  residuals (pb, p, r, NULL);
  for (int b = 0; b < pb->n_bands; b++)
    w = fmax (w, fabs (r[b]));
  return w;
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
      *out = rw_admittance_real (rw_reflection_from_statistical_alpha (t[0]));
    }
  else
    {
      FitProblem pb = { .kind = FIT_ALPHA_BANDS, .n_bands = n_bands_fit };
      for (int b = 0; b < n_bands_fit; b++)
        pb.target[b] = t[b];
      /* Start: Y0 the smallest band's Paris admittance, each resonator the
       * excess of its own band; then c and Y0 by LM at fixed Q, then Q and
       * ω_m freed too when that is not yet within 0.005 everywhere. A few
       * starting Q, the best kept (in a fixed order: deterministic). */
      static const double q_start[] = { 1.4, 0.8, 2.5 };
      double best[NP_MAX], best_worst = INFINITY;
      for (size_t qi = 0; qi < sizeof q_start / sizeof q_start[0]; qi++)
        {
          double p[NP_MAX];
          bool mask[NP_MAX] = { false };
          problem_init (&pb, n_bands_fit, p, q_start[qi]);
          double ymin = INFINITY;
          for (int b = 0; b < n_bands_fit; b++)
            ymin = fmin (ymin, paris_admittance (t[b]));
          p[0] = ymin;
          for (int m = 0; m < n_bands_fit; m++)
            p[1 + m] = paris_admittance (t[m]) - ymin;
          for (int j = 0; j < 1 + n_bands_fit; j++)
            mask[j] = true;
          fit_lm (&pb, p, mask, 300);
          double w = worst_abs (&pb, p);
          if (w > 0.005)
            {
              for (int j = 0; j < n_params (&pb); j++)
                mask[j] = true;
              fit_lm (&pb, p, mask, 500);
              w = worst_abs (&pb, p);
            }
          if (w < best_worst)
            {
              best_worst = w;
              for (int j = 0; j < n_params (&pb); j++)
                best[j] = p[j];
            }
          if (best_worst <= 0.005)
            break;
        }
      params_to_admittance (&pb, best, out);
    }
  if (report)
    report_fill (report, out, alpha, n_bands_fit);
  return true;
}
