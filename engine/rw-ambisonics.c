/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-ambisonics.c — ambisonic encoding of the geometrical IR and an
 * energy-vector decoder (see rw-ambisonics.h, docs/SPATIAL.md). */
#include "rw-ambisonics.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rw-audio.h"
#include "rw-i18n.h"
#include "rw-physics.h"

/* ---------------------------------------------------------------- harmonics */

static int
clamp_order (int order)
{
  return order < 0 ? 0 : order > RW_AMBI_MAX_ORDER ? RW_AMBI_MAX_ORDER : order;
}

void
rw_ambi_sh_angles (int order, double azimuth, double elevation, double *y)
{
  const int N = clamp_order (order);
  /* P_n^m(x) at x = sin θ without the Condon–Shortley phase, by the
   * standard recurrences: P_m^m = (2m − 1)!! (1 − x²)^{m/2},
   * P_{m+1}^m = (2m + 1) x P_m^m, (n − m) P_n^m = (2n − 1) x P_{n−1}^m
   * − (n + m − 1) P_{n−2}^m. √(1 − x²) = cos θ ≥ 0 for θ in [−90°, 90°]. */
  const double x = sin (elevation), s = cos (elevation);
  double P[RW_AMBI_MAX_ORDER + 1][RW_AMBI_MAX_ORDER + 1] = { { 0 } };
  double pmm = 1.0;
  for (int m = 0; m <= N; m++)
    {
      if (m > 0)
        pmm *= (2.0 * m - 1.0) * s;
      P[m][m] = pmm;
      if (m + 1 <= N)
        P[m + 1][m] = (2.0 * m + 1.0) * x * pmm;
      for (int n = m + 2; n <= N; n++)
        P[n][m] = ((2.0 * n - 1.0) * x * P[n - 1][m] - (n + m - 1.0) * P[n - 2][m]) / (n - m);
    }
  for (int n = 0; n <= N; n++)
    for (int m = -n; m <= n; m++)
      {
        const int am = abs (m);
        /* N_n^|m| = √((2 − δ_m0) (n − |m|)! / (n + |m|)!) */
        double ratio = 1.0;
        for (int k = n - am + 1; k <= n + am; k++)
          ratio /= k;
        const double norm = sqrt ((m == 0 ? 1.0 : 2.0) * ratio);
        const double trig = m > 0 ? cos (m * azimuth) : m < 0 ? sin (am * azimuth) : 1.0;
        y[rw_ambi_acn (n, m)] = norm * P[n][am] * trig;
      }
  /* exactly 1, so that W is the omni signal bit for bit */
  y[0] = 1.0;
}

void
rw_ambi_sh (int order, const double d[3], double *y)
{
  const double h = hypot (d[0], d[1]);
  if (h == 0.0 && d[2] == 0.0)
    {
      rw_ambi_sh_angles (order, 0.0, 0.0, y);
      return;
    }
  rw_ambi_sh_angles (order, atan2 (d[1], d[0]), atan2 (d[2], h), y);
}

void
rw_ambi_room_to_head (double yaw_deg, double pitch_deg, const double room[3], double head[3])
{
  const double psi = yaw_deg * M_PI / 180.0, th = pitch_deg * M_PI / 180.0;
  const double cp = cos (psi), sp = sin (psi), ct = cos (th), st = sin (th);
  const double d[3] = { room[0], room[1], room[2] };
  /* front f, left l, up u = f × l (rw-ambisonics.h) */
  const double f[3] = { ct * cp, ct * sp, st };
  const double l[3] = { -sp, cp, 0.0 };
  const double u[3] = { -st * cp, -st * sp, ct };
  head[0] = d[0] * f[0] + d[1] * f[1] + d[2] * f[2];
  head[1] = d[0] * l[0] + d[1] * l[1] + d[2] * l[2];
  head[2] = d[0] * u[0] + d[1] * u[1] + d[2] * u[2];
}

/* ---------------------------------------------------------------- checks */

bool
rw_ambi_check_order (int order, RwError *err)
{
  if (order < RW_AMBI_MIN_ORDER || order > RW_AMBI_MAX_ORDER)
    return rw_fail (err, RW_ERROR_INPUT, _("ambisonics: the order %d is out of range (%d … %d)"),
                    order, RW_AMBI_MIN_ORDER, RW_AMBI_MAX_ORDER);
  return true;
}

static bool
check_setup (int order, double yaw_deg, double pitch_deg, RwError *err)
{
  if (!rw_ambi_check_order (order, err))
    return false;
  if (!isfinite (yaw_deg) || !isfinite (pitch_deg))
    return rw_fail (err, RW_ERROR_INPUT,
                    _("ambisonics: the receiver's orientation must be finite (yaw %g°, pitch %g°)"),
                    yaw_deg, pitch_deg);
  return true;
}

/* ---------------------------------------------------------------- image sources */

bool
rw_ambi_encode_arrivals (const RwIsmArrival *arrivals, size_t n_arrivals, int order,
                         double yaw_deg, double pitch_deg, double fs_hz, size_t n_samples,
                         double *out, RwError *err)
{
  if (!check_setup (order, yaw_deg, pitch_deg, err))
    return false;
  if (n_arrivals > 0 && arrivals == NULL)
    return rw_fail (err, RW_ERROR_INTERNAL, "rw_ambi_encode_arrivals: NULL arrivals");
  if (out == NULL || n_samples == 0)
    return rw_ism_render (arrivals, n_arrivals, fs_hz, n_samples, out, err);
  const size_t nch = (size_t) RW_AMBI_CHANNELS (order);
  const size_t na = n_arrivals ? n_arrivals : 1;
  RwIsmArrival *tmp = malloc (na * sizeof *tmp);
  double *Y = malloc (na * nch * sizeof *Y);
  bool ok = tmp != NULL && Y != NULL;
  if (!ok)
    rw_fail (err, RW_ERROR_MEMORY, _("ambisonics: out of memory for %zu arrivals"), n_arrivals);
  for (size_t i = 0; ok && i < n_arrivals; i++)
    {
      double h[3];
      rw_ambi_room_to_head (yaw_deg, pitch_deg, arrivals[i].direction, h);
      rw_ambi_sh (order, h, Y + i * nch);
      tmp[i] = arrivals[i];
    }
  /* Channel c: every arrival's gains × Y_c. rw_ism_render's amplitude
   * |g| sign(Re g) of g·Y is its amplitude of g times Y (Y real), and
   * g · 1.0 is g: W is the omni rendering itself. */
  for (size_t c = 0; ok && c < nch; c++)
    {
      for (size_t i = 0; i < n_arrivals; i++)
        for (int b = 0; b < RW_N_OCTAVES; b++)
          tmp[i].gain[b] = arrivals[i].gain[b] * Y[i * nch + c];
      ok = rw_ism_render (tmp, n_arrivals, fs_hz, n_samples,
                          out + c * (size_t) RW_N_OCTAVES * n_samples, err);
    }
  free (tmp);
  free (Y);
  return ok;
}

/* ---------------------------------------------------------------- late part */

double
rw_ambi_vmf_mean_length (double kappa)
{
  if (!(kappa > 0.0))
    return 0.0;
  if (isinf (kappa))
    return 1.0;
  /* coth κ − 1/κ loses everything to cancellation for small κ: its
   * series κ/3 − κ³/45 + … there (next term 2κ⁵/945). */
  if (kappa < 1e-3)
    return kappa / 3.0 - kappa * kappa * kappa / 45.0;
  return 1.0 / tanh (kappa) - 1.0 / kappa;
}

double
rw_ambi_vmf_kappa (double r)
{
  if (!(r > 0.0))
    return 0.0;
  if (r >= 1.0)
    return INFINITY;
  /* A(κ) rises from 0 to 1: bracket, then bisect (A ≈ 1 − 1/κ for
   * large κ, so the bracket is found within ≈ log2 (1/(1 − r)) steps). */
  double lo = 0.0, hi = 1.0;
  while (rw_ambi_vmf_mean_length (hi) < r && hi < 1e300)
    {
      lo = hi;
      hi *= 2.0;
    }
  for (int it = 0; it < 200 && hi - lo > 1e-15 * hi; it++)
    {
      const double mid = 0.5 * (lo + hi);
      if (rw_ambi_vmf_mean_length (mid) < r)
        lo = mid;
      else
        hi = mid;
    }
  return 0.5 * (lo + hi);
}

/* A direction from the von Mises–Fisher distribution of concentration κ
 * about the unit axis m, from two uniform numbers (Wood, "Simulation of
 * the von Mises Fisher distribution", Commun. Stat. Simul. 23, 1994, in
 * the closed form of the 2-sphere: the cosine to the axis is
 * w = 1 + log (u + (1 − u) e^{−2κ}) / κ, written with log1p and expm1 so
 * that small κ keeps its digits; κ = 0 is the uniform w = 2u − 1 it
 * tends to), the azimuth about the axis uniform. */
static void
vmf_draw (const double m[3], double kappa, const double u[2], double d[3])
{
  if (isinf (kappa))
    {
      memcpy (d, m, 3 * sizeof *d);
      return;
    }
  double w = kappa > 0.0 ? 1.0 + log1p ((1.0 - u[0]) * expm1 (-2.0 * kappa)) / kappa
                         : 2.0 * u[0] - 1.0;
  w = fmax (-1.0, fmin (1.0, w));
  const double s = sqrt (fmax (0.0, 1.0 - w * w)), phi = 2.0 * M_PI * u[1];
  /* e1, e2: an orthonormal pair perpendicular to m */
  const double a[3] = { fabs (m[0]) < 0.9 ? 1.0 : 0.0, fabs (m[0]) < 0.9 ? 0.0 : 1.0, 0.0 };
  double e1[3] = { a[1] * m[2] - a[2] * m[1], a[2] * m[0] - a[0] * m[2],
                   a[0] * m[1] - a[1] * m[0] };
  const double n1 = sqrt (e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
  for (int k = 0; k < 3; k++)
    e1[k] /= n1;
  const double e2[3] = { m[1] * e1[2] - m[2] * e1[1], m[2] * e1[0] - m[0] * e1[2],
                         m[0] * e1[1] - m[1] * e1[0] };
  for (int k = 0; k < 3; k++)
    d[k] = w * m[k] + s * (cos (phi) * e1[k] + sin (phi) * e2[k]);
}

bool
rw_ambi_late_dirs_init (RwAmbiLateDirs *ld, const RwRayResult *hist, double yaw_deg,
                        double pitch_deg, RwError *err)
{
  memset (ld, 0, sizeof *ld);
  if (!check_setup (1, yaw_deg, pitch_deg, err))
    return false;
  if (hist == NULL || hist->energy == NULL || hist->n_bins == 0)
    return rw_fail (err, RW_ERROR_INPUT, _("ray tracing: no histogram to synthesise from"));
  if (hist->direction == NULL)
    return rw_fail (err, RW_ERROR_INTERNAL, "rw_ambi_late_dirs_init: no directions in the histogram");
  const size_t nk = (size_t) RW_N_OCTAVES * hist->n_bins;
  ld->n_bins = hist->n_bins;
  ld->axis = malloc (3 * nk * sizeof (double));
  ld->kappa = malloc (nk * sizeof (double));
  if (ld->axis == NULL || ld->kappa == NULL)
    {
      rw_ambi_late_dirs_clear (ld);
      return rw_fail (err, RW_ERROR_MEMORY, _("ambisonics: out of memory for %zu histogram bins"),
                      hist->n_bins);
    }
  for (size_t k = 0; k < nk; k++)
    {
      /* d̄ = Σ e d / Σ e: its length r (1: one direction, 0: diffuse)
       * is the vMF's mean resultant length, its direction the axis. */
      const double *ds = hist->direction + 3 * k;
      const double e = hist->energy[k];
      const double len = sqrt (ds[0] * ds[0] + ds[1] * ds[1] + ds[2] * ds[2]);
      double *ax = ld->axis + 3 * k;
      if (e > 0.0 && len > 0.0 && isfinite (len / e))
        {
          const double unit[3] = { ds[0] / len, ds[1] / len, ds[2] / len };
          rw_ambi_room_to_head (yaw_deg, pitch_deg, unit, ax);
          /* within 10⁻⁹ of 1: one direction (the sum's rounding) */
          const double r = len / e;
          ld->kappa[k] = r >= 1.0 - 1e-9 ? INFINITY : rw_ambi_vmf_kappa (r);
        }
      else
        {
          ax[0] = 1.0;
          ax[1] = ax[2] = 0.0;
          ld->kappa[k] = 0.0;
        }
    }
  return true;
}

void
rw_ambi_late_dirs_clear (RwAmbiLateDirs *ld)
{
  free (ld->axis);
  free (ld->kappa);
  memset (ld, 0, sizeof *ld);
}

void
rw_ambi_late_direction (const RwAmbiLateDirs *ld, size_t bin, int band, const double u[2],
                        double d[3])
{
  const size_t k = (size_t) band * ld->n_bins + bin;
  vmf_draw (ld->axis + 3 * k, ld->kappa[k], u, d);
}

typedef struct {
  int order;
  const RwAmbiLateDirs *dirs;
} LateCtx;

static void
late_pulse (size_t bin, int band, const double u[2], double *gains, void *data)
{
  const LateCtx *lc = data;
  double d[3];
  rw_ambi_late_direction (lc->dirs, bin, band, u, d);
  rw_ambi_sh (lc->order, d, gains);
}

bool
rw_ambi_encode_late (const RwRayResult *hist, int order, double yaw_deg, double pitch_deg,
                     double fs_hz, size_t n_samples, double max_density, uint64_t seed,
                     const double band_scale[RW_N_OCTAVES], double *out,
                     double dropped[RW_N_OCTAVES], RwError *err)
{
  if (!check_setup (order, yaw_deg, pitch_deg, err))
    return false;
  RwAmbiLateDirs dirs;
  if (!rw_ambi_late_dirs_init (&dirs, hist, yaw_deg, pitch_deg, err))
    return false;
  LateCtx lc = { order, &dirs };
  bool ok = rw_rays_synthesise_channels (hist, fs_hz, n_samples, max_density, seed,
                                         RW_AMBI_CHANNELS (order), late_pulse, &lc, band_scale,
                                         out, dropped, err);
  rw_ambi_late_dirs_clear (&dirs);
  return ok;
}

/* ---------------------------------------------------------------- decoder */

/* P_n(x), n = 0 … nmax, into p (Bonnet's recurrence). */
static void
legendre (int nmax, double x, double *p)
{
  p[0] = 1.0;
  if (nmax >= 1)
    p[1] = x;
  for (int n = 2; n <= nmax; n++)
    p[n] = ((2.0 * n - 1.0) * x * p[n - 1] - (n - 1.0) * p[n - 2]) / n;
}

/* The K-point Gauss–Legendre rule on [−1, 1] (Newton on P_K from the
 * Chebyshev guesses, the derivative from P_{K−1}). */
#define GL_MAX 16
static void
gauss_legendre (int K, double *x, double *w)
{
  double p[GL_MAX + 1];
  for (int i = 0; i < K; i++)
    {
      double z = cos (M_PI * (i + 0.75) / (K + 0.5)), dp = 1.0;
      for (int it = 0; it < 100; it++)
        {
          legendre (K, z, p);
          dp = K * (z * p[K] - p[K - 1]) / (z * z - 1.0);
          const double dz = p[K] / dp;
          z -= dz;
          if (fabs (dz) < 1e-16)
            break;
        }
      legendre (K, z, p);
      dp = K * (z * p[K] - p[K - 1]) / (z * z - 1.0);
      x[i] = z;
      w[i] = 2.0 / ((1.0 - z * z) * dp * dp);
    }
}

double
rw_ambi_max_re (int order)
{
  const int N = clamp_order (order);
  double x[GL_MAX], w[GL_MAX];
  gauss_legendre (N + 1, x, w);
  double r = x[0];
  for (int i = 1; i <= N; i++)
    r = fmax (r, x[i]);
  return r;
}

#define DEC_NZ 16   /* Gauss–Legendre nodes in sin θ */
#define DEC_NPHI 32 /* azimuths */

bool
rw_ambi_energy_vector (const double *x, int order, size_t stride, size_t first, size_t count,
                       double r_e[3], RwError *err)
{
  if (!rw_ambi_check_order (order, err))
    return false;
  if (x == NULL || r_e == NULL)
    return rw_fail (err, RW_ERROR_INTERNAL, "rw_ambi_energy_vector: NULL argument");
  const int nch = RW_AMBI_CHANNELS (order);
  /* E(θ) = Σ_i g(θ, i)² = Dᵀ C D with C the channels' covariance over
   * the segment, D_c = (2n + 1) a_n Y_c(θ): one pass over the signal. */
  double C[RW_AMBI_MAX_CHANNELS][RW_AMBI_MAX_CHANNELS] = { { 0 } };
  for (int a = 0; a < nch; a++)
    for (int b = a; b < nch; b++)
      {
        const double *xa = x + (size_t) a * stride + first, *xb = x + (size_t) b * stride + first;
        double s = 0.0;
        for (size_t i = 0; i < count; i++)
          s += xa[i] * xb[i];
        C[a][b] = C[b][a] = s;
      }
  double an[RW_AMBI_MAX_ORDER + 1];
  legendre (order, rw_ambi_max_re (order), an);
  double z[DEC_NZ], wz[DEC_NZ];
  gauss_legendre (DEC_NZ, z, wz);
  double acc[3] = { 0, 0, 0 }, tot = 0.0;
  for (int iz = 0; iz < DEC_NZ; iz++)
    for (int ip = 0; ip < DEC_NPHI; ip++)
      {
        const double phi = 2.0 * M_PI * ip / DEC_NPHI, c = sqrt (1.0 - z[iz] * z[iz]);
        const double th[3] = { c * cos (phi), c * sin (phi), z[iz] };
        double D[RW_AMBI_MAX_CHANNELS];
        rw_ambi_sh (order, th, D);
        for (int n = 0; n <= order; n++)
          for (int m = -n; m <= n; m++)
            D[rw_ambi_acn (n, m)] *= (2.0 * n + 1.0) * an[n];
        double E = 0.0;
        for (int a = 0; a < nch; a++)
          {
            double row = 0.0;
            for (int b = 0; b < nch; b++)
              row += C[a][b] * D[b];
            E += D[a] * row;
          }
        const double w = wz[iz] * 2.0 * M_PI / DEC_NPHI * E;
        tot += w;
        for (int k = 0; k < 3; k++)
          acc[k] += w * th[k];
      }
  for (int k = 0; k < 3; k++)
    r_e[k] = tot > 0.0 ? acc[k] / tot : 0.0;
  return true;
}

/* ---------------------------------------------------------------- files */

bool
rw_ambi_write (const char *path, const double *x, int order, size_t n_samples, double fs_hz,
               RwError *err)
{
  if (!rw_ambi_check_order (order, err))
    return false;
  const int nch = RW_AMBI_CHANNELS (order);
  if (x == NULL || n_samples == 0)
    return rw_fail (err, RW_ERROR_INPUT, _("%s: nothing to write (no samples)"),
                    path ? path : "");
  RwAudio a = { malloc (n_samples * (size_t) nch * sizeof (float)), n_samples, nch, fs_hz };
  if (a.data == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("ambisonics: out of memory for %zu samples"),
                    n_samples);
  for (size_t i = 0; i < n_samples; i++)
    for (int c = 0; c < nch; c++)
      a.data[i * (size_t) nch + (size_t) c] = (float) x[(size_t) c * n_samples + i];
  const bool ok = rw_audio_write (path, &a, err);
  free (a.data);
  return ok;
}
