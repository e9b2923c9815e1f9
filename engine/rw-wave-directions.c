/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-wave-directions.c — first-order B-format from the wave part's grid
 * probe (see rw-wave-directions.h for the derivation). */
#include "rw-wave-directions.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* before rw-ambisonics.h (which brings complex.h): fftw_complex as double[2] */
#include "rw-fftw.h"
#include "rw-ambisonics.h"
#include "rw-i18n.h"
#include "rw-linalg.h"

/* rw_wave_probe_cells on g, planes [z0, z0 + g->nz) of the whole grid
 * (0 for the whole grid itself): centre and cells in g's indices, the
 * messages' cells in the whole grid's (z + z0). */
static bool
probe_cells_in (const RwGrid *g, size_t z0, size_t centre, size_t cells[RW_PROBE_N], RwError *err)
{
  if (g == NULL || cells == NULL)
    return rw_fail (err, RW_ERROR_INTERNAL, "rw_wave_probe_cells: NULL argument");
  const size_t nx = g->nx, ny = g->ny, nz = g->nz;
  if (centre >= nx * ny * nz)
    return rw_fail (err, RW_ERROR_INPUT, _("directional receiver: cell %zu is outside the grid"),
                    centre + z0 * nx * ny);
  const size_t x = centre % nx, y = (centre / nx) % ny, z = centre / (nx * ny);
  if (x == 0 || y == 0 || z == 0 || x + 1 >= nx || y + 1 >= ny || z + 1 >= nz)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("directional receiver: cell (%zu, %zu, %zu) lies on the grid's edge"), x, y,
                    z + z0);
  const size_t sx = 1, sy = nx, sz = nx * ny;
  const size_t c[RW_PROBE_N] = { centre, centre + sx, centre - sx, centre + sy, centre - sy,
                                 centre + sz, centre - sz };
  for (int k = 0; k < RW_PROBE_N; k++)
    if (g->K[c[k]] == 0)
      return rw_fail (err, RW_ERROR_INPUT,
                      _("directional receiver at cell (%zu, %zu, %zu): its neighbours within one cell "
                        "(%.3f m) must be in the air, and one is not; move it away from the wall"),
                      x, y, z + z0, g->h);
  memcpy (cells, c, sizeof c);
  return true;
}

bool
rw_wave_probe_cells (const RwGrid *g, size_t centre, size_t cells[RW_PROBE_N], RwError *err)
{
  return probe_cells_in (g, 0, centre, cells, err);
}

bool
rw_wave_first_order (const double *const probe[RW_PROBE_N], size_t n, double courant,
                     double *out, RwError *err)
{
  if (probe == NULL || out == NULL || n == 0)
    return rw_fail (err, RW_ERROR_INPUT, _("directional receiver: no samples"));
  for (int k = 0; k < RW_PROBE_N; k++)
    if (probe[k] == NULL)
      return rw_fail (err, RW_ERROR_INPUT, _("directional receiver: probe signal %d missing"), k);
  if (!(courant > 0.0) || !isfinite (courant))
    return rw_fail (err, RW_ERROR_INPUT,
                    _("directional receiver: c k / h = %g must be a positive number"), courant);
  for (int k = 0; k < RW_PROBE_N; k++)
    for (size_t i = 0; i < n; i++)
      if (!isfinite (probe[k][i]))
        return rw_fail (err, RW_ERROR_INPUT,
                        _("directional receiver: sample %zu of probe signal %d is not finite"), i, k);
  /* ACN channel c of the first order: W (0), Y (1), Z (2), X (3); the
   * probe pair of each velocity channel */
  static const int plus[4] = { -1, RW_PROBE_YP, RW_PROBE_ZP, RW_PROBE_XP };
  static const int minus[4] = { -1, RW_PROBE_YM, RW_PROBE_ZM, RW_PROBE_XM };
  memcpy (out, probe[RW_PROBE_CENTRE], n * sizeof *out);
  for (int c = 1; c < 4; c++)
    {
      double sum = 0.0;
      for (size_t i = 0; i < n; i++)
        {
          sum += probe[plus[c]][i] - probe[minus[c]][i];
          out[(size_t) c * n + i] = 0.5 * courant * sum;
        }
    }
  return true;
}

double
rw_wave_direction (const double *bformat, size_t n, size_t from, size_t to, double dir[3])
{
  double inten[3] = { 0, 0, 0 }, e = 0;
  /* ACN: X is channel 3, Y 1, Z 2 */
  static const int ch[3] = { 3, 1, 2 };
  for (size_t i = from; i < to && i < n; i++)
    {
      const double w = bformat[i];
      e += w * w;
      for (int k = 0; k < 3; k++)
        inten[k] += w * bformat[(size_t) ch[k] * n + i];
    }
  const double len = sqrt (inten[0] * inten[0] + inten[1] * inten[1] + inten[2] * inten[2]);
  if (!(e > 0.0) || !(len > 0.0))
    {
      dir[0] = dir[1] = dir[2] = 0.0;
      return 0.0;
    }
  for (int k = 0; k < 3; k++)
    dir[k] = inten[k] / len;
  return len / e;
}

int
rw_wave_encoded_order (int order)
{
  return order < 1 ? 0 : order > RW_WAVE_MAX_ORDER ? RW_WAVE_MAX_ORDER : order;
}

int
rw_wave_probe_radius (int order)
{
  return order >= 2 ? RW_WAVE_PROBE_RADIUS : 1;
}

/* rw_wave_probe on g, planes [z0, z0 + g->nz) of the whole grid, as
 * probe_cells_in: cells in g's indices, messages in the whole grid's. */
static bool
probe_in (const RwGrid *g, size_t z0, size_t centre, int order, RwWaveProbe *probe, RwError *err)
{
  static const int offsets[RW_PROBE_N][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { -1, 0, 0 }, { 0, 1, 0 },
                                              { 0, -1, 0 }, { 0, 0, 1 }, { 0, 0, -1 } };
  if (probe == NULL)
    return rw_fail (err, RW_ERROR_INTERNAL, "rw_wave_probe: NULL argument");
  if (order < 1 || order > RW_WAVE_MAX_ORDER)
    return rw_fail (err, RW_ERROR_INPUT, _("directional receiver: order %d must be between 1 and %d"),
                    order, RW_WAVE_MAX_ORDER);
  if (!probe_cells_in (g, z0, centre, probe->cells, err))
    return false;
  probe->n = RW_PROBE_N;
  memcpy (probe->offset, offsets, sizeof offsets);
  if (order == 1)
    return true;
  /* the ball |o| ≤ R: the seven cells above first, then the rest */
  const int R = RW_WAVE_PROBE_RADIUS;
  const size_t nx = g->nx, ny = g->ny, nz = g->nz;
  const size_t x = centre % nx, y = (centre / nx) % ny, z = centre / (nx * ny);
  bool inside = x >= (size_t) R && y >= (size_t) R && z >= (size_t) R && x + (size_t) R < nx
                && y + (size_t) R < ny && z + (size_t) R < nz;
  for (int oz = -R; inside && oz <= R; oz++)
    for (int oy = -R; inside && oy <= R; oy++)
      for (int ox = -R; inside && ox <= R; ox++)
        {
          const int r2 = ox * ox + oy * oy + oz * oz;
          if (r2 > R * R || r2 <= 1)
            continue;
          const size_t cell = (size_t) ((long) centre + ox + (long) nx * (oy + (long) ny * oz));
          if (g->K[cell] == 0 || probe->n >= RW_WAVE_PROBE_MAX)
            {
              inside = false;
              break;
            }
          probe->cells[probe->n] = cell;
          probe->offset[probe->n][0] = ox;
          probe->offset[probe->n][1] = oy;
          probe->offset[probe->n][2] = oz;
          probe->n++;
        }
  if (!inside)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("ambisonic receiver of order %d at cell (%zu, %zu, %zu): the grid cells within %d "
                      "cells (%.3f m, spacing %.3f m) must be in the air, and one is not; move it away "
                      "from the wall or lower the order"),
                    order, x, y, z + z0, R, R * g->h, g->h);
  return true;
}

bool
rw_wave_probe (const RwGrid *g, size_t centre, int order, RwWaveProbe *probe, RwError *err)
{
  return probe_in (g, 0, centre, order, probe, err);
}

bool
rw_wave_probe_window (const RwGrid *w, size_t z0, size_t centre, int order, RwWaveProbe *probe,
                      RwError *err)
{
  if (w == NULL || probe == NULL)
    return rw_fail (err, RW_ERROR_INTERNAL, "rw_wave_probe_window: NULL argument");
  /* the window's cell (x, y, z) is the whole grid's (x, y, z + z0): the
   * same cells, shifted by z0 planes */
  const size_t shift = z0 * w->nx * w->ny;
  if (centre < shift)
    return rw_fail (err, RW_ERROR_INPUT, _("directional receiver: cell %zu is outside the grid"),
                    centre);
  if (!probe_in (w, z0, centre - shift, order, probe, err))
    return false;
  for (size_t k = 0; k < probe->n; k++)
    probe->cells[k] += shift;
  return true;
}

void
rw_wave_probe_planes (size_t z, size_t nz, size_t *z0, size_t *z1)
{
  /* the probe reads K within RW_WAVE_PROBE_RADIUS planes of z, and
   * rw_voxelise_planes' K is the whole grid's on all but the window's
   * first and last plane: one more on each side, clipped to the grid
   * (where the window's end is the grid's, the edge tests see the same
   * distances; elsewhere both pass, the window holding R + 1 planes on
   * that side) */
  const size_t reach = RW_WAVE_PROBE_RADIUS + 1;
  *z0 = z > reach ? z - reach : 0;
  *z1 = z + reach + 1 < nz ? z + reach + 1 : nz;
}

/* ---------------------------------------------------------------- the plane-wave fit */

#define FIT_NQ ((RW_WAVE_FIT_ORDER + 1) * (RW_WAVE_FIT_ORDER + 1))
#define N_SHELLS (RW_WAVE_PROBE_RADIUS * RW_WAVE_PROBE_RADIUS + 1)

/* j_n(x) for n = 0 … RW_WAVE_FIT_ORDER, by the power series
 * j_n(x) = x^n / (2n + 1)!! Σ_k (−x²/2)^k / (k! Π_{j=1}^k (2n + 2j + 1)),
 * at the small arguments here (x ≤ R kh ≤ 4.8: no term exceeds 5 in
 * size, so the sum keeps about 15 digits absolute), where the upward
 * recurrence from sin x / x loses the higher orders' digits at small x. */
static void
spherical_bessel (double x, double j[RW_WAVE_FIT_ORDER + 1])
{
  double lead = 1.0;   /* x^n / (2n + 1)!! */
  for (int n = 0; n <= RW_WAVE_FIT_ORDER; n++)
    {
      if (n > 0)
        lead *= x / (2.0 * n + 1.0);
      double term = 1.0, sum = 1.0;
      for (int k = 1; k < 80 && fabs (term) > 1e-18 * fabs (sum); k++)
        {
          term *= -0.5 * x * x / (k * (2.0 * n + 2.0 * k + 1.0));
          sum += term;
        }
      j[n] = lead * sum;
    }
}

/* The degree n of ACN channel q. */
static int
acn_degree (int q)
{
  int n = 0;
  while ((n + 1) * (n + 1) <= q)
    n++;
  return n;
}

/* An FFT size ≥ n with no prime factor above 5. */
static size_t
fast_size (size_t n)
{
  for (size_t m = n;; m++)
    {
      size_t r = m;
      while (r % 2 == 0)
        r /= 2;
      while (r % 3 == 0)
        r /= 3;
      while (r % 5 == 0)
        r /= 5;
      if (r == 1)
        return m;
    }
}

/* The fit's weight of the channels at a wavenumber × spacing kh: 1 up to
 * RW_WAVE_KH_FULL, a raised cosine down to 0 at RW_WAVE_KH_TOP. */
static double
top_taper (double kh)
{
  if (kh <= RW_WAVE_KH_FULL)
    return 1.0;
  if (kh >= RW_WAVE_KH_TOP)
    return 0.0;
  return 0.5 * (1.0 + cos (M_PI * (kh - RW_WAVE_KH_FULL) / (RW_WAVE_KH_TOP - RW_WAVE_KH_FULL)));
}

/* Orders 1 … order of the probe's signals by the per-frequency
 * regularised least-squares fit (rw-wave-directions.h) into
 * out[c · n …], c = 1 … (order + 1)² − 1. */
static bool
encode_fit (const RwWaveProbe *probe, const double *const *signals, size_t n, int order, double h,
            double c, double fs, double *out, RwError *err)
{
  const size_t np = probe->n;
  const int nq = FIT_NQ, nch = (order + 1) * (order + 1);
  /* each cell's shell (r² in cells²) and its harmonics Y_q(x̂) */
  int *shell = malloc (np * sizeof *shell);
  double *Y = malloc (np * (size_t) nq * sizeof *Y);
  /* per shell: Σ_{i ∈ s} Y_q(x̂_i) Y_q'(x̂_i) / N */
  double *Q = calloc ((size_t) N_SHELLS * (size_t) (nq * nq), sizeof *Q);
  /* twice the signal, and room for the fit's filters to ring (their
   * low-frequency gains make them long: a 14 ms IR at a 2.2 kHz grid rate,
   * padded to twice its length only, wrapped round and pulled the direct
   * sound 5.5° off on three axes) */
  const size_t nfft = fast_size (2 * n + 2048);
  const size_t nbins = nfft / 2 + 1;
  const double kh_per_bin = 2.0 * M_PI * fs / (double) nfft / c * h;
  size_t ntop = (size_t) ceil (RW_WAVE_KH_TOP / kh_per_bin) + 1;
  if (ntop > nbins)
    ntop = nbins;
  fftw_complex *spec = fftw_malloc (np * ntop * sizeof *spec);
  fftw_complex *cbuf = fftw_malloc (nbins * sizeof *cbuf);
  double *rbuf = fftw_malloc (nfft * sizeof *rbuf);
  fftw_complex *A = fftw_malloc ((size_t) nch * ntop * sizeof *A);
  fftw_plan fwd = NULL, inv = NULL;
  bool ok = shell != NULL && Y != NULL && Q != NULL && spec != NULL && cbuf != NULL && rbuf != NULL
            && A != NULL && nfft <= (size_t) 0x7fffffff
            && rw_fftw_plan_pair ((int) nfft, rbuf, cbuf, cbuf, rbuf, &fwd, &inv);
  if (!ok)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("directional receiver: out of memory for %zu samples"), n);
      goto done;
    }
  const double inv_np = 1.0 / (double) np;
  for (size_t i = 0; i < np; i++)
    {
      const int *o = probe->offset[i];
      shell[i] = o[0] * o[0] + o[1] * o[1] + o[2] * o[2];
      double *y = Y + i * (size_t) nq;
      if (shell[i] == 0)
        {
          /* the centre: only the order 0 sees it (j_n(0) = 0 above) */
          memset (y, 0, (size_t) nq * sizeof *y);
          y[0] = 1.0;
        }
      else
        {
          const double d[3] = { o[0], o[1], o[2] };
          rw_ambi_sh_high (RW_WAVE_FIT_ORDER, d, y);
        }
      double *q = Q + (size_t) shell[i] * (size_t) (nq * nq);
      for (int a = 0; a < nq; a++)
        for (int b = 0; b < nq; b++)
          q[a * nq + b] += y[a] * y[b] * inv_np;
    }
  /* the spectra up to the top bin */
  for (size_t i = 0; i < np; i++)
    {
      memcpy (rbuf, signals[i], n * sizeof *rbuf);
      memset (rbuf + n, 0, (nfft - n) * sizeof *rbuf);
      fftw_execute (fwd);
      memcpy (spec + i * ntop, cbuf, ntop * sizeof *cbuf);
    }
  /* Tikhonov: for orthogonal columns of rms c_n the fit's gain
   * c_n / (c_n² + μ) is at most 1 / (2 √μ) = the gain limit */
  double mu[RW_WAVE_FIT_ORDER + 1];
  for (int m = 0; m <= RW_WAVE_FIT_ORDER; m++)
    {
      const double db = RW_WAVE_GAIN_LIMIT_DB + RW_WAVE_GAIN_STEP_DB * (m - 1);
      const double gmax = pow (10.0, db / 20.0);
      mu[m] = 1.0 / (4.0 * gmax * gmax);
    }
  double jn[N_SHELLS][RW_WAVE_FIT_ORDER + 1];
  double G[FIT_NQ * FIT_NQ], bre[FIT_NQ], bim[FIT_NQ];
  double proj[N_SHELLS][FIT_NQ][2];
  for (size_t bin = 0; bin < ntop; bin++)
    {
      const double kh = kh_per_bin * (double) bin;
      const double taper = top_taper (kh);
      if (bin == 0 || taper == 0.0)
        {
          for (int ch = 1; ch < nch; ch++)
            A[(size_t) ch * ntop + bin][0] = A[(size_t) ch * ntop + bin][1] = 0.0;
          continue;
        }
      for (int s = 0; s < N_SHELLS; s++)
        {
          spherical_bessel (kh * sqrt ((double) s), jn[s]);
          for (int m = 0; m <= RW_WAVE_FIT_ORDER; m++)
            jn[s][m] *= 2.0 * m + 1.0;
        }
      /* the normal equations of the real model M_iq = (2n + 1) j_n(k r_i)
       * Y_q(x̂_i) (the factor iⁿ is taken out: A_q = (−i)ⁿ Ã_q) */
      for (int a = 0; a < nq; a++)
        for (int b = 0; b < nq; b++)
          {
            const int na = acn_degree (a), nb = acn_degree (b);
            double g = a == b ? mu[na] : 0.0;
            for (int s = 0; s < N_SHELLS; s++)
              g += jn[s][na] * jn[s][nb] * Q[(size_t) s * (size_t) (nq * nq) + (size_t) (a * nq + b)];
            G[a * nq + b] = g;
          }
      memset (proj, 0, sizeof proj);
      for (size_t i = 0; i < np; i++)
        {
          const double pr = spec[i * ntop + bin][0], pi = spec[i * ntop + bin][1];
          const double *y = Y + i * (size_t) nq;
          for (int q = 0; q < nq; q++)
            {
              proj[shell[i]][q][0] += y[q] * pr;
              proj[shell[i]][q][1] += y[q] * pi;
            }
        }
      for (int q = 0; q < nq; q++)
        {
          double br = 0.0, bi = 0.0;
          const int nd = acn_degree (q);
          for (int s = 0; s < N_SHELLS; s++)
            {
              br += jn[s][nd] * proj[s][q][0];
              bi += jn[s][nd] * proj[s][q][1];
            }
          bre[q] = br * inv_np;
          bim[q] = bi * inv_np;
        }
      if (rw_cholesky_factor (G, nq))
        {
          rw_cholesky_solve (G, bre, nq);
          rw_cholesky_solve (G, bim, nq);
        }
      else
        {
          ok = rw_fail (err, RW_ERROR_INTERNAL, "rw_wave_encode: singular fit at bin %zu", bin);
          goto done;
        }
      for (int ch = 1; ch < nch; ch++)
        {
          /* (−i)ⁿ (re + i im): n = 1 gives (im, −re), n = 2 (−re, −im),
           * n = 3 (−im, re) */
          double re = bre[ch], im = bim[ch];
          for (int k = 0; k < acn_degree (ch); k++)
            {
              const double t = re;
              re = im;
              im = -t;
            }
          A[(size_t) ch * ntop + bin][0] = taper * re;
          A[(size_t) ch * ntop + bin][1] = taper * im;
        }
    }
  for (int ch = 1; ch < nch; ch++)
    {
      memset (cbuf, 0, nbins * sizeof *cbuf);
      for (size_t bin = 0; bin < ntop; bin++)
        {
          cbuf[bin][0] = A[(size_t) ch * ntop + bin][0];
          cbuf[bin][1] = A[(size_t) ch * ntop + bin][1];
        }
      fftw_execute (inv);
      double *o = out + (size_t) ch * n;
      for (size_t t = 0; t < n; t++)
        o[t] = rbuf[t] / (double) nfft;
    }
done:
  rw_fftw_destroy_pair (fwd, inv);
  fftw_free (A);
  fftw_free (rbuf);
  fftw_free (cbuf);
  fftw_free (spec);
  free (Q);
  free (Y);
  free (shell);
  return ok;
}

bool
rw_wave_encode (const RwWaveProbe *probe, const double *const *signals, size_t n, int order,
                double h, double c, double fs, double *out, RwError *err)
{
  if (order < 1 || order > RW_WAVE_MAX_ORDER)
    return rw_fail (err, RW_ERROR_INPUT, _("directional receiver: order %d must be between 1 and %d"),
                    order, RW_WAVE_MAX_ORDER);
  if (probe == NULL || probe->n < RW_PROBE_N || signals == NULL)
    return rw_fail (err, RW_ERROR_INPUT, _("directional receiver: no probe"));
  if (!(h > 0.0) || !(c > 0.0) || !(fs > 0.0) || !isfinite (h * c * fs))
    return rw_fail (err, RW_ERROR_INPUT, _("directional receiver: bad spacing, speed or rate"));
  if (out == NULL || n == 0)
    return rw_fail (err, RW_ERROR_INPUT, _("directional receiver: no samples"));
  if (!rw_wave_first_order (signals, n, c / (fs * h), out, err))
    return false;
  if (order == 1)
    return true;
  /* orders 2 and 3: the probe must be rw_wave_probe's ball */
  const int R = RW_WAVE_PROBE_RADIUS;
  size_t ball = 0;
  for (int oz = -R; oz <= R; oz++)
    for (int oy = -R; oy <= R; oy++)
      for (int ox = -R; ox <= R; ox++)
        ball += ox * ox + oy * oy + oz * oz <= R * R;
  bool is_ball = probe->n == ball && probe->offset[0][0] == 0 && probe->offset[0][1] == 0
                 && probe->offset[0][2] == 0;
  for (size_t i = 0; is_ball && i < probe->n; i++)
    {
      const int *o = probe->offset[i];
      is_ball = o[0] * o[0] + o[1] * o[1] + o[2] * o[2] <= R * R && signals[i] != NULL;
      for (size_t t = 0; is_ball && t < n; t++)
        if (!isfinite (signals[i][t]))
          return rw_fail (err, RW_ERROR_INPUT,
                          _("directional receiver: sample %zu of probe signal %d is not finite"), t,
                          (int) i);
    }
  if (!is_ball)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("directional receiver: a probe of %zu cells cannot give order %d (it needs the "
                      "%zu cells within %d cells of the receiver)"),
                    probe->n, order, ball, R);
  return encode_fit (probe, signals, n, order, h, c, fs, out, err);
}
