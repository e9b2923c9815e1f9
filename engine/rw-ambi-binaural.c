/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-ambi-binaural.c — spherical-harmonic rotation and the MagLS binaural
 * decoder. What is done and why: rw-ambi-binaural.h. */
#include "rw-ambi-binaural.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "rw-ambisonics.h"
#include "rw-fftw.h"
#include "rw-i18n.h"

#define ROT_POINTS 64
/* the head radius of f_c (Zotter & Frank ch. 4.11) */
#define HEAD_RADIUS_M 0.0875
#define SPEED_OF_SOUND_M_S 343.0
#define TIKHONOV 1e-3

struct RwAmbiBinaural {
  int order;
  size_t L;           /* (N + 1)² */
  size_t taps;
  size_t pre;         /* taps before time 0 */
  double rate_hz;
  double *filters;    /* filter (c, ear) at [(c · 2 + ear) · taps] */
};

/* Cholesky factorisation of the symmetric positive definite L × L matrix a
 * (row-major, in place, lower triangle), then a solve for each of nrhs
 * right-hand sides b (L × nrhs, row-major) in place. False when a is not
 * positive definite. */
static bool
cholesky_solve (double *a, size_t L, double *b, size_t nrhs)
{
  for (size_t j = 0; j < L; j++)
    {
      double s = a[j * L + j];
      for (size_t k = 0; k < j; k++)
        s -= a[j * L + k] * a[j * L + k];
      if (!(s > 0.0))
        return false;
      a[j * L + j] = sqrt (s);
      for (size_t i = j + 1; i < L; i++)
        {
          double t = a[i * L + j];
          for (size_t k = 0; k < j; k++)
            t -= a[i * L + k] * a[j * L + k];
          a[i * L + j] = t / a[j * L + j];
        }
    }
  for (size_t r = 0; r < nrhs; r++)
    {
      for (size_t i = 0; i < L; i++)
        {
          double t = b[i * nrhs + r];
          for (size_t k = 0; k < i; k++)
            t -= a[i * L + k] * b[k * nrhs + r];
          b[i * nrhs + r] = t / a[i * L + i];
        }
      for (size_t i = L; i-- > 0;)
        {
          double t = b[i * nrhs + r];
          for (size_t k = i + 1; k < L; k++)
            t -= a[k * L + i] * b[k * nrhs + r];
          b[i * nrhs + r] = t / a[i * L + i];
        }
    }
  return true;
}

/* ---------------------------------------------------------------- rotation */

/* R (L × L, row-major) with Y(Q d) = R Y(d), Q = rw_ambi_room_to_head's
 * map: R = (Σ_p Y(Q d_p) Y(d_p)ᵀ) (Σ_p Y(d_p) Y(d_p)ᵀ)⁻¹ over a Fibonacci
 * lattice, i.e. Rᵀ = G⁻¹ (Σ_p Y(d_p) Y(Q d_p)ᵀ), G symmetric. */
static bool
rotation_matrix (int order, double yaw_deg, double pitch_deg, double *R)
{
  const size_t L = RW_AMBI_CHANNELS (order);
  double G[RW_AMBI_MAX_CHANNELS * RW_AMBI_MAX_CHANNELS] = { 0 };
  double Bt[RW_AMBI_MAX_CHANNELS * RW_AMBI_MAX_CHANNELS] = { 0 };
  const double golden = M_PI * (3.0 - sqrt (5.0));
  for (int p = 0; p < ROT_POINTS; p++)
    {
      const double z = 1.0 - (2.0 * p + 1.0) / ROT_POINTS, s = sqrt (1.0 - z * z);
      const double d[3] = { s * cos (golden * p), s * sin (golden * p), z };
      double q[3], y[RW_AMBI_MAX_CHANNELS], yq[RW_AMBI_MAX_CHANNELS];
      rw_ambi_room_to_head (yaw_deg, pitch_deg, d, q);
      rw_ambi_sh (order, d, y);
      rw_ambi_sh (order, q, yq);
      for (size_t i = 0; i < L; i++)
        for (size_t j = 0; j < L; j++)
          {
            G[i * L + j] += y[i] * y[j];
            Bt[i * L + j] += y[i] * yq[j];
          }
    }
  if (!cholesky_solve (G, L, Bt, L))
    return false;
  for (size_t i = 0; i < L; i++)
    for (size_t j = 0; j < L; j++)
      R[i * L + j] = Bt[j * L + i];
  return true;
}

bool
rw_ambi_rotate (const double *in, int order, size_t n, double yaw_deg, double pitch_deg,
                double *out, RwError *err)
{
  if (!rw_ambi_check_order (order, err))
    return false;
  if (!isfinite (yaw_deg) || !isfinite (pitch_deg))
    return rw_fail (err, RW_ERROR_INPUT,
                    _("ambisonic rotation: the head's orientation must be finite (yaw %g°, pitch %g°)"),
                    yaw_deg, pitch_deg);
  const size_t L = RW_AMBI_CHANNELS (order);
  if (n > 0 && in + L * n > out && out + L * n > in)
    return rw_fail (err, RW_ERROR_INTERNAL, "rw_ambi_rotate: out overlaps in");
  double R[RW_AMBI_MAX_CHANNELS * RW_AMBI_MAX_CHANNELS];
  if (!rotation_matrix (order, yaw_deg, pitch_deg, R))
    return rw_fail (err, RW_ERROR_INTERNAL, "rw_ambi_rotate: singular lattice");
  /* Orders do not mix: only R's diagonal blocks are used (the others are
     zero to rounding). */
  for (int nn = 0; nn <= order; nn++)
    for (size_t i = (size_t) (nn * nn); i < (size_t) ((nn + 1) * (nn + 1)); i++)
      {
        double *o = out + i * n;
        memset (o, 0, n * sizeof *o);
        for (size_t j = (size_t) (nn * nn); j < (size_t) ((nn + 1) * (nn + 1)); j++)
          {
            const double r = R[i * L + j];
            const double *x = in + j * n;
            for (size_t t = 0; t < n; t++)
              o[t] += r * x[t];
          }
      }
  return true;
}

/* ---------------------------------------------------------------- decoder */

static size_t
pow2_at_least (size_t n)
{
  size_t p = 1;
  while (p < n)
    p *= 2;
  return p;
}

void
rw_ambi_binaural_free (RwAmbiBinaural *d)
{
  if (d == NULL)
    return;
  free (d->filters);
  free (d);
}

size_t
rw_ambi_binaural_taps (const RwAmbiBinaural *d)
{
  return d->taps;
}

int
rw_ambi_binaural_order (const RwAmbiBinaural *d)
{
  return d->order;
}

double
rw_ambi_binaural_rate (const RwAmbiBinaural *d)
{
  return d->rate_hz;
}

/* The measured directions with a weight: their harmonics Y (M × L), their
 * weights w and the ears' spectra S (M × 2 × n_bins) of nfft points,
 * delayed by their Data.Delay and advanced by the set's reference delay
 * (a circular shift: the lead-in the advance wraps round is silence). */
typedef struct {
  size_t M;
  double *Y, *w;
  double complex *S;
} Targets;

static void
targets_clear (Targets *t)
{
  free (t->Y);
  free (t->w);
  free (t->S);
}

static bool
load_targets (const RwHrtf *h, int order, size_t nfft, Targets *t, RwError *err)
{
  const size_t M_all = rw_hrtf_n_directions (h), n = rw_hrtf_length (h), L = RW_AMBI_CHANNELS (order);
  const size_t nb = nfft / 2 + 1;
  const double fs = rw_hrtf_rate (h);
  memset (t, 0, sizeof *t);
  double *w_all = malloc (M_all * sizeof *w_all);
  t->Y = malloc (M_all * L * sizeof *t->Y);
  t->w = malloc (M_all * sizeof *t->w);
  t->S = malloc (M_all * 2 * nb * sizeof *t->S);
  float *ir = malloc (2 * n * sizeof *ir);
  double *buf = fftw_malloc (nfft * sizeof *buf);
  fftw_complex *spec = fftw_malloc (nb * sizeof *spec);
  fftw_plan fwd = NULL, inv = NULL;
  bool ok = false;
  if (!w_all || !t->Y || !t->w || !t->S || !ir || !buf || !spec)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory for the binaural decoder"), rw_hrtf_path (h));
      goto out;
    }
  if (!rw_hrtf_weights (h, w_all, err))
    goto out;
  if (!rw_fftw_plan_pair ((int) nfft, buf, spec, spec, buf, &fwd, &inv))
    {
      rw_fail (err, RW_ERROR_INTERNAL, "FFTW could not plan a transform of %zu points", nfft);
      goto out;
    }
  for (size_t i = 0; i < M_all; i++)
    {
      if (!(w_all[i] > 0.0))
        continue;
      double d[3], delay[2];
      if (!rw_hrtf_direction (h, i, d, err)
          || !rw_hrtf_get (h, d, ir, ir + n, &delay[0], &delay[1], err))
        goto out;
      const size_t m = t->M++;
      t->w[m] = w_all[i];
      rw_ambi_sh (order, d, t->Y + m * L);
      for (int ear = 0; ear < 2; ear++)
        {
          memset (buf, 0, nfft * sizeof *buf);
          for (size_t k = 0; k < n; k++)
            buf[k] = ir[(size_t) ear * n + k];
          fftw_execute_dft_r2c (fwd, buf, spec);
          /* Time 0: the set's reference delay (rw-ambi-binaural.h). The
             filters' pre-roll is added after the fit (below). */
          const double shift = (delay[ear] - rw_hrtf_reference_delay (h)) * fs;
          double complex *dst = t->S + (m * 2 + (size_t) ear) * nb;
          for (size_t k = 0; k < nb; k++)
            dst[k] = ((double complex *) spec)[k]
                     * cexp (-2.0 * M_PI * I * (double) k * shift / (double) nfft);
        }
    }
  if (t->M < L)
    {
      rw_fail (err, RW_ERROR_INPUT,
               _("%s: %zu measured directions; a binaural decoder of order %d needs at least %zu"),
               rw_hrtf_path (h), t->M, order, L);
      goto out;
    }
  ok = true;
out:
  rw_fftw_destroy_pair (fwd, inv);
  free (w_all);
  free (ir);
  fftw_free (buf);
  fftw_free (spec);
  if (!ok)
    targets_clear (t);
  return ok;
}

/* The upper Cholesky factor K of a Hermitian 2 × 2 matrix A = Kᴴ K; false
 * when A is not (numerically) positive definite. */
static bool
chol2 (const double complex A[2][2], double complex K[2][2])
{
  const double a = creal (A[0][0]);
  if (!(a > 0.0))
    return false;
  const double k00 = sqrt (a);
  const double complex k01 = A[0][1] / k00;
  const double c = creal (A[1][1]) - creal (k01 * conj (k01));
  if (!(c > 1e-12 * creal (A[1][1])))
    return false;
  K[0][0] = k00;
  K[0][1] = k01;
  K[1][0] = 0.0;
  K[1][1] = sqrt (c);
  return true;
}

static void
mul2 (const double complex A[2][2], const double complex B[2][2], double complex C[2][2])
{
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      C[i][j] = A[i][0] * B[0][j] + A[i][1] * B[1][j];
}

static void
adjoint2 (const double complex A[2][2], double complex B[2][2])
{
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      B[i][j] = conj (A[j][i]);
}

static bool
inverse2 (const double complex A[2][2], double complex B[2][2])
{
  const double complex det = A[0][0] * A[1][1] - A[0][1] * A[1][0];
  if (!(cabs (det) > 0.0))
    return false;
  B[0][0] = A[1][1] / det;
  B[1][1] = A[0][0] / det;
  B[0][1] = -A[0][1] / det;
  B[1][0] = -A[1][0] / det;
  return true;
}

/* The diffuse-field covariance constraint (Zaunschirm, Schörkhuber &
 * Höldrich, JASA 143(6), 2018; the "optimal mixing" of Vilkamo, Bäckström
 * & Kuntz, JAES 61(6), 2013): the two ears' filters x = [x_L x_R] (L × 2,
 * at x[ear · L + c]) of one bin become x M, M = K̂⁻¹ Q K, so that their
 * diffuse-field covariance Mᴴ R̂ M (R̂ = xᴴ G x) is the set's R exactly —
 * each ear's energy and the interaural coherence — with Q the unitary
 * matrix that changes the ear signals least (Q = V Uᴴ for K K̂ᴴ = U S Vᴴ,
 * here its polar factor Aᴴ (A Aᴴ)^−½, A = K K̂ᴴ; R = Kᴴ K, R̂ = K̂ᴴ K̂).
 * Where either covariance is singular (the DC and Nyquist bins of a set
 * without energy there) each ear is only scaled to the set's energy. */
static void
covariance_constrain (double complex *x, size_t L, const double *G, const double complex R[2][2])
{
  double complex Rh[2][2] = { { 0 } };
  for (int a = 0; a < 2; a++)
    for (int b = 0; b < 2; b++)
      for (size_t i = 0; i < L; i++)
        for (size_t j = 0; j < L; j++)
          Rh[a][b] += conj (x[a * L + i]) * G[i * L + j] * x[b * L + j];
  double complex K[2][2], Kh[2][2], Ki[2][2], A[2][2], Ah[2][2], KhH[2][2], B[2][2];
  bool ok = chol2 (R, K) && chol2 (Rh, Kh) && inverse2 (Kh, Ki);
  if (ok)
    {
      adjoint2 (Kh, KhH);
      mul2 (K, KhH, A);
      adjoint2 (A, Ah);
      mul2 (A, Ah, B);      /* Hermitian, positive definite */
      /* √B of a 2 × 2 positive definite matrix: (B + √det I) / √(tr + 2√det) */
      const double det = creal (B[0][0] * B[1][1] - B[0][1] * B[1][0]);
      const double sd = sqrt (fmax (0.0, det)), tr = creal (B[0][0] + B[1][1]);
      const double t = sqrt (tr + 2.0 * sd);
      double complex S[2][2] = { { (B[0][0] + sd) / t, B[0][1] / t }, { B[1][0] / t, (B[1][1] + sd) / t } };
      double complex Si[2][2], Q[2][2], T[2][2], Mx[2][2];
      ok = t > 0.0 && inverse2 (S, Si);
      if (ok)
        {
          mul2 (Ah, Si, Q);
          mul2 (Ki, Q, T);
          mul2 (T, K, Mx);
          double complex y[2][RW_AMBI_MAX_CHANNELS];
          for (size_t i = 0; i < L; i++)
            for (int b = 0; b < 2; b++)
              y[b][i] = x[i] * Mx[0][b] + x[L + i] * Mx[1][b];
          for (size_t i = 0; i < L; i++)
            for (int b = 0; b < 2; b++)
              x[(size_t) b * L + i] = y[b][i];
          return;
        }
    }
  for (int a = 0; a < 2; a++)
    if (creal (Rh[a][a]) > 0.0 && creal (R[a][a]) > 0.0)
      {
        const double g = sqrt (creal (R[a][a]) / creal (Rh[a][a]));
        for (size_t i = 0; i < L; i++)
          x[(size_t) a * L + i] *= g;
      }
}

RwAmbiBinaural *
rw_ambi_binaural_new (const RwHrtf *h, int order, RwError *err)
{
  if (!rw_ambi_check_order (order, err))
    return NULL;
  const size_t L = RW_AMBI_CHANNELS (order);
  const size_t half = pow2_at_least (rw_hrtf_length (h)), nfft = 2 * half, nb = nfft / 2 + 1;
  const double fs = rw_hrtf_rate (h);
  const double f_c = order * SPEED_OF_SOUND_M_S / (2.0 * M_PI * HEAD_RADIUS_M);
  RwAmbiBinaural *d = calloc (1, sizeof *d);
  if (d == NULL)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory for the binaural decoder"), rw_hrtf_path (h));
      return NULL;
    }
  d->order = order;
  d->L = L;
  d->taps = half;
  d->pre = half / 16;
  d->rate_hz = fs;

  Targets t;
  if (!load_targets (h, order, nfft, &t, err))
    {
      free (d);
      return NULL;
    }
  const size_t M = t.M;
  /* P = (G + λ I)⁻¹ Yᵀ W (L × M): the weighted LS solution of every bin is
     P times its target vector. */
  double *G = calloc (L * L, sizeof *G);
  double *P = malloc (L * M * sizeof *P);
  double complex *X = malloc (nb * 2 * L * sizeof *X);   /* [k][ear][c] */
  double complex *tgt = malloc (M * sizeof *tgt);
  double *buf = fftw_malloc (nfft * sizeof *buf);
  fftw_complex *spec = fftw_malloc (nb * sizeof *spec);
  d->filters = calloc (L * 2 * d->taps, sizeof *d->filters);
  fftw_plan fwd = NULL, inv = NULL;
  bool ok = false;
  if (!G || !P || !X || !tgt || !buf || !spec || !d->filters)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory for the binaural decoder"), rw_hrtf_path (h));
      goto out;
    }
  for (size_t m = 0; m < M; m++)
    for (size_t i = 0; i < L; i++)
      for (size_t j = 0; j < L; j++)
        G[i * L + j] += t.w[m] * t.Y[m * L + i] * t.Y[m * L + j];
  double trace = 0.0;
  for (size_t i = 0; i < L; i++)
    trace += G[i * L + i];
  double *Gr = malloc (L * L * sizeof *Gr);
  if (Gr == NULL)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory for the binaural decoder"), rw_hrtf_path (h));
      goto out;
    }
  memcpy (Gr, G, L * L * sizeof *G);
  for (size_t i = 0; i < L; i++)
    Gr[i * L + i] += TIKHONOV * trace / (double) L;
  for (size_t i = 0; i < L; i++)
    for (size_t m = 0; m < M; m++)
      P[i * M + m] = t.Y[m * L + i] * t.w[m];
  bool solved = cholesky_solve (Gr, L, P, M);
  free (Gr);
  if (!solved)
    {
      rw_fail (err, RW_ERROR_INPUT, _("%s: the measured directions do not determine a decoder of order %d"),
               rw_hrtf_path (h), order);
      goto out;
    }

  for (size_t k = 0; k < nb; k++)
    {
      const double f = (double) k * fs / (double) nfft;
      for (int ear = 0; ear < 2; ear++)
        {
          double complex *x = X + (k * 2 + (size_t) ear) * L;
          for (size_t m = 0; m < M; m++)
            {
              const double complex H = t.S[(m * 2 + (size_t) ear) * nb + k];
              if (f < f_c || k == 0)
                tgt[m] = H;
              else
                {
                  /* MagLS: |H| with the phase of the previous bin's fit. */
                  const double complex *xp = X + ((k - 1) * 2 + (size_t) ear) * L;
                  double complex y = 0.0;
                  for (size_t i = 0; i < L; i++)
                    y += t.Y[m * L + i] * xp[i];
                  tgt[m] = cabs (H) * (cabs (y) > 0.0 ? y / cabs (y) : 1.0);
                }
            }
          for (size_t i = 0; i < L; i++)
            {
              double complex s = 0.0;
              for (size_t m = 0; m < M; m++)
                s += P[i * M + m] * tgt[m];
              x[i] = s;
            }
        }
    }
  /* After the fit of every bin (the MagLS phases come from the fit, not
     from the correction): the diffuse-field covariance constraint. */
  for (size_t k = 0; k < nb; k++)
    {
      double complex R[2][2] = { { 0 } };
      for (size_t m = 0; m < M; m++)
        {
          const double complex hl = t.S[(m * 2) * nb + k], hr = t.S[(m * 2 + 1) * nb + k];
          R[0][0] += t.w[m] * creal (hl * conj (hl));
          R[1][1] += t.w[m] * creal (hr * conj (hr));
          R[0][1] += t.w[m] * conj (hl) * hr;
        }
      R[1][0] = conj (R[0][1]);
      covariance_constrain (X + k * 2 * L, L, G, R);
    }

  if (!rw_fftw_plan_pair ((int) nfft, buf, spec, spec, buf, &fwd, &inv))
    {
      rw_fail (err, RW_ERROR_INTERNAL, "FFTW could not plan a transform of %zu points", nfft);
      goto out;
    }
  /* Time domain: tap j is time j − pre; fade in over the first pre/2
     taps, out over the last quarter (half-Hann). */
  const size_t T = d->taps, fade_in = d->pre / 2, fade_out = T / 4;
  for (size_t c = 0; c < L; c++)
    for (int ear = 0; ear < 2; ear++)
      {
        double complex *sp = (double complex *) spec;
        /* The pre-roll as a delay of pre samples: the fit is done on
           responses whose frontal onset is at time 0, so that MagLS's
           phase, held from bin to bin above f_c (zero group delay), puts
           the high frequencies at the onset, not at the lead-in's start
           (nor wrapped round to the end). */
        for (size_t k = 0; k < nb; k++)
          sp[k] = X[(k * 2 + (size_t) ear) * L + c] / (double) nfft
                  * cexp (-2.0 * M_PI * I * (double) k * (double) d->pre / (double) nfft);
        sp[0] = creal (sp[0]);
        sp[nb - 1] = creal (sp[nb - 1]);
        fftw_execute_dft_c2r (inv, spec, buf);
        double *dst = d->filters + (c * 2 + (size_t) ear) * T;
        for (size_t j = 0; j < T; j++)
          {
            double g = 1.0;
            if (j < fade_in)
              g = 0.5 - 0.5 * cos (M_PI * (double) j / (double) fade_in);
            else if (j >= T - fade_out)
              g = 0.5 + 0.5 * cos (M_PI * (double) (j - (T - fade_out) + 1) / (double) fade_out);
            dst[j] = g * buf[j];
          }
      }
  ok = true;
out:
  rw_fftw_destroy_pair (fwd, inv);
  targets_clear (&t);
  free (G);
  free (P);
  free (X);
  free (tgt);
  fftw_free (buf);
  fftw_free (spec);
  if (!ok)
    {
      rw_ambi_binaural_free (d);
      return NULL;
    }
  return d;
}

bool
rw_ambi_binaural_decode (const RwAmbiBinaural *d, const double *ambi, size_t n, double *left,
                         double *right, RwError *err)
{
  if (n == 0)
    return rw_fail (err, RW_ERROR_INPUT, _("binaural decoding: the ambisonic signal is empty"));
  const size_t L = d->L, T = d->taps;
  for (size_t i = 0; i < L * n; i++)
    if (!isfinite (ambi[i]))
      return rw_fail (err, RW_ERROR_INPUT,
                      _("binaural decoding: channel %zu holds a value that is not finite at sample %zu"),
                      i / n, i % n);
  if (n > ((size_t) 1 << 28))
    return rw_fail (err, RW_ERROR_INPUT, _("binaural decoding: %zu samples are too many"), n);
  /* One linear convolution by FFT of the whole signal: an IR of a few
     seconds is a transform of a few million points at most. */
  const size_t nfft = pow2_at_least (n + T), nb = nfft / 2 + 1;
  double *buf = fftw_malloc (nfft * sizeof *buf);
  fftw_complex *spec = fftw_malloc (nb * sizeof *spec);
  fftw_complex *fspec = fftw_malloc (nb * sizeof *fspec);
  double complex *acc = fftw_malloc (2 * nb * sizeof *acc);
  fftw_plan fwd = NULL, inv = NULL, ffwd = NULL, finv = NULL;
  bool ok = false;
  if (!buf || !spec || !fspec || !acc)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("binaural decoding: out of memory for %zu samples"), n);
      goto out;
    }
  if (!rw_fftw_plan_pair ((int) nfft, buf, spec, spec, buf, &fwd, &inv)
      || !rw_fftw_plan_pair ((int) nfft, buf, fspec, fspec, buf, &ffwd, &finv))
    {
      rw_fail (err, RW_ERROR_INTERNAL, "FFTW could not plan a transform of %zu points", nfft);
      goto out;
    }
  memset (acc, 0, 2 * nb * sizeof *acc);
  for (size_t c = 0; c < L; c++)
    {
      memset (buf, 0, nfft * sizeof *buf);
      memcpy (buf, ambi + c * n, n * sizeof *buf);
      fftw_execute_dft_r2c (fwd, buf, spec);
      for (int ear = 0; ear < 2; ear++)
        {
          memset (buf, 0, nfft * sizeof *buf);
          memcpy (buf, d->filters + (c * 2 + (size_t) ear) * T, T * sizeof *buf);
          fftw_execute_dft_r2c (ffwd, buf, fspec);
          double complex *a = acc + (size_t) ear * nb;
          const double complex *x = (const double complex *) spec, *f = (const double complex *) fspec;
          for (size_t k = 0; k < nb; k++)
            a[k] += x[k] * f[k];
        }
    }
  for (int ear = 0; ear < 2; ear++)
    {
      memcpy (spec, acc + (size_t) ear * nb, nb * sizeof *spec);
      fftw_execute_dft_c2r (inv, spec, buf);
      double *out = ear == 0 ? left : right;
      /* tap pre is time 0 */
      for (size_t i = 0; i < n; i++)
        out[i] = i + d->pre < nfft ? buf[i + d->pre] / (double) nfft : 0.0;
    }
  ok = true;
out:
  rw_fftw_destroy_pair (fwd, inv);
  rw_fftw_destroy_pair (ffwd, finv);
  fftw_free (buf);
  fftw_free (spec);
  fftw_free (fspec);
  fftw_free (acc);
  return ok;
}
