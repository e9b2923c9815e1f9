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

/* The first-order probe's offsets on each lattice, the centre first,
 * then its nearest nodes in pairs (d, −d) (rw-wave-directions.h). */
static const int first_cubic[RW_PROBE_N][3] = { { 0, 0, 0 },  { 1, 0, 0 }, { -1, 0, 0 },
                                                { 0, 1, 0 },  { 0, -1, 0 }, { 0, 0, 1 },
                                                { 0, 0, -1 } };
static const int first_fcc[RW_PROBE_N_FCC][3] = {
  { 0, 0, 0 },  { 1, 1, 0 },  { -1, -1, 0 }, { 1, -1, 0 }, { -1, 1, 0 },
  { 1, 0, 1 },  { -1, 0, -1 }, { 1, 0, -1 }, { -1, 0, 1 }, { 0, 1, 1 },
  { 0, -1, -1 }, { 0, 1, -1 }, { 0, -1, 1 }
};

size_t
rw_wave_first_n (RwLattice lattice)
{
  return lattice == RW_LATTICE_FCC ? RW_PROBE_N_FCC : RW_PROBE_N;
}

static const int (*first_offsets (RwLattice lattice))[3]
{
  return lattice == RW_LATTICE_FCC ? first_fcc : first_cubic;
}

/* The first-order probe of g's lattice around centre into cells
 * (rw_wave_first_n of them), g the planes [z0, z0 + g->nz) of the whole
 * grid (0 for the whole grid itself): centre and cells in g's indices,
 * the messages' cells in the whole grid's (z + z0). */
static bool
probe_cells_in (const RwGrid *g, size_t z0, size_t centre, size_t *cells, RwError *err)
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
  const size_t n = rw_wave_first_n (g->lattice);
  const int (*off)[3] = first_offsets (g->lattice);
  for (size_t k = 0; k < n; k++)
    {
      const size_t c = (size_t) ((long) centre + off[k][0]
                                 + (long) nx * (off[k][1] + (long) ny * off[k][2]));
      if (g->K[c] == 0)
        return rw_fail (err, RW_ERROR_INPUT,
                        _("directional receiver at cell (%zu, %zu, %zu): its neighbours within one "
                          "cell (%.3f m) must be in the air, and one is not; move it away from the "
                          "wall"),
                        x, y, z + z0, g->h);
      cells[k] = c;
    }
  return true;
}

bool
rw_wave_probe_cells (const RwGrid *g, size_t centre, size_t cells[RW_PROBE_N], RwError *err)
{
  if (g != NULL && g->lattice != RW_LATTICE_CUBIC)
    return rw_fail (err, RW_ERROR_INTERNAL, "rw_wave_probe_cells: a cubic grid only (rw_wave_probe)");
  return probe_cells_in (g, 0, centre, cells, err);
}

/* First-order B-format (out as rw_wave_first_order) from the n_first
 * signals of a first-order probe whose offsets off are the centre, then
 * pairs (d, −d): each velocity channel λ / (2 Σ_pairs d_a²) times the
 * running sum of Σ_pairs d_a (p(d) − p(−d)), the pairs with d_a ≠ 0
 * added in their order (one pair on the cubic lattice: the central
 * difference, (λ / 2) Σ (p₊ − p₋); four on the FCC lattice: λ / 8). The
 * signals are finite and λ positive. */
static void
first_order_pairs (const double *const *sig, const int (*off)[3], size_t n_first, size_t n,
                   double courant, double *out)
{
  /* ACN channel c of the first order: W (0), Y (1), Z (2), X (3) */
  static const int axis[4] = { -1, 1, 2, 0 };
  memcpy (out, sig[0], n * sizeof *out);
  for (int c = 1; c < 4; c++)
    {
      const int a = axis[c];
      int mu = 0;
      for (size_t k = 1; k + 1 < n_first; k += 2)
        mu += off[k][a] * off[k][a];
      const double scale = courant / (2.0 * mu);
      double sum = 0.0;
      for (size_t i = 0; i < n; i++)
        {
          double d = 0.0;
          bool first = true;
          for (size_t k = 1; k + 1 < n_first; k += 2)
            if (off[k][a] != 0)
              {
                const double t = off[k][a] > 0 ? sig[k][i] - sig[k + 1][i]
                                               : sig[k + 1][i] - sig[k][i];
                d = first ? t : d + t;
                first = false;
              }
          sum += d;
          out[(size_t) c * n + i] = scale * sum;
        }
    }
}

/* The first n_first signals: present and finite. */
static bool
first_signals_ok (const double *const *sig, size_t n_first, size_t n, RwError *err)
{
  for (size_t k = 0; k < n_first; k++)
    if (sig[k] == NULL)
      return rw_fail (err, RW_ERROR_INPUT, _("directional receiver: probe signal %d missing"),
                      (int) k);
  for (size_t k = 0; k < n_first; k++)
    for (size_t i = 0; i < n; i++)
      if (!isfinite (sig[k][i]))
        return rw_fail (err, RW_ERROR_INPUT,
                        _("directional receiver: sample %zu of probe signal %d is not finite"), i,
                        (int) k);
  return true;
}

static bool
courant_ok (double courant, RwError *err)
{
  if (!(courant > 0.0) || !isfinite (courant))
    return rw_fail (err, RW_ERROR_INPUT,
                    _("directional receiver: c k / h = %g must be a positive number"), courant);
  return true;
}

bool
rw_wave_first_order (const double *const probe[RW_PROBE_N], size_t n, double courant,
                     double *out, RwError *err)
{
  if (probe == NULL || out == NULL || n == 0)
    return rw_fail (err, RW_ERROR_INPUT, _("directional receiver: no samples"));
  if (!first_signals_ok (probe, RW_PROBE_N, n, err) || !courant_ok (courant, err))
    return false;
  first_order_pairs (probe, first_cubic, RW_PROBE_N, n, courant, out);
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
rw_wave_probe_radius (int order, RwLattice lattice)
{
  return (order >= 2 ? RW_WAVE_PROBE_RADIUS : 1) + (lattice == RW_LATTICE_FCC ? 2 : 1);
}

/* The offsets of the probe of `order` on a lattice into off, in probe
 * order: the first-order probe (|o|² ≤ 1, FCC 2), then for orders 2 and 3
 * the rest of the ball |o| ≤ RW_WAVE_PROBE_RADIUS in z, y, x order (FCC:
 * its sites, o of even parity); returns their number. */
static size_t
probe_offsets (RwLattice lattice, int order, int (*off)[3])
{
  const bool fcc = lattice == RW_LATTICE_FCC;
  size_t n = rw_wave_first_n (lattice);
  memcpy (off, first_offsets (lattice), n * sizeof off[0]);
  const int R = RW_WAVE_PROBE_RADIUS, first_r2 = fcc ? 2 : 1;
  for (int oz = -R; order > 1 && oz <= R; oz++)
    for (int oy = -R; oy <= R; oy++)
      for (int ox = -R; ox <= R; ox++)
        {
          const int r2 = ox * ox + oy * oy + oz * oz;
          if (r2 > R * R || r2 <= first_r2 || (fcc && ((ox + oy + oz) & 1) != 0))
            continue;
          off[n][0] = ox, off[n][1] = oy, off[n][2] = oz;
          n++;
        }
  return n;
}

/* rw_wave_probe on g, planes [z0, z0 + g->nz) of the whole grid, as
 * probe_cells_in: cells in g's indices, messages in the whole grid's. */
static bool
probe_in (const RwGrid *g, size_t z0, size_t centre, int order, RwWaveProbe *probe, RwError *err)
{
  if (probe == NULL || g == NULL)
    return rw_fail (err, RW_ERROR_INTERNAL, "rw_wave_probe: NULL argument");
  if (order < 1 || order > RW_WAVE_MAX_ORDER)
    return rw_fail (err, RW_ERROR_INPUT, _("directional receiver: order %d must be between 1 and %d"),
                    order, RW_WAVE_MAX_ORDER);
  if (!probe_cells_in (g, z0, centre, probe->cells, err))
    return false;
  probe->lattice = g->lattice;
  probe->n = probe_offsets (g->lattice, order, probe->offset);
  if (order == 1)
    return true;
  /* the ball |o| ≤ R: its cells past the first-order probe's */
  const int R = RW_WAVE_PROBE_RADIUS;
  const size_t nx = g->nx, ny = g->ny, nz = g->nz;
  const size_t x = centre % nx, y = (centre / nx) % ny, z = centre / (nx * ny);
  bool inside = x >= (size_t) R && y >= (size_t) R && z >= (size_t) R && x + (size_t) R < nx
                && y + (size_t) R < ny && z + (size_t) R < nz;
  for (size_t i = rw_wave_first_n (g->lattice); inside && i < probe->n; i++)
    {
      const int *o = probe->offset[i];
      probe->cells[i] = (size_t) ((long) centre + o[0] + (long) nx * (o[1] + (long) ny * o[2]));
      inside = g->K[probe->cells[i]] != 0;
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
  /* the probe reads K within RW_WAVE_PROBE_RADIUS planes of z (a probe
   * about a point between the nodes, rw_wave_probe_at, up to two more:
   * its stencils' planes, an FCC octahedron's reaching two planes past
   * the nearest site), and rw_voxelise_planes' K is the whole grid's on
   * all but the window's first and last plane: one more on each side,
   * clipped to the grid (where the window's end is the grid's, the edge
   * tests see the same distances; elsewhere both pass, the window holding
   * R + 3 planes on that side) */
  const size_t reach = RW_WAVE_PROBE_RADIUS + 3;
  *z0 = z > reach ? z - reach : 0;
  *z1 = z + reach + 1 < nz ? z + reach + 1 : nz;
}

/* ---------------------------------------------------------------- probes about a point */

static int
cmp_size (const void *a, const void *b)
{
  const size_t x = *(const size_t *) a, y = *(const size_t *) b;
  return x < y ? -1 : x > y;
}

void
rw_wave_probe_at_clear (RwWaveProbeAt *pa)
{
  if (pa == NULL)
    return;
  free (pa->cells);
  free (pa->member);
  memset (pa, 0, sizeof *pa);
}

bool
rw_wave_probe_at (const RwGrid *g, size_t z0, const RwGridStencil *st, int order,
                  RwWaveProbeAt *pa, RwError *err)
{
  if (pa == NULL || g == NULL || st == NULL)
    return rw_fail (err, RW_ERROR_INTERNAL, "rw_wave_probe_at: NULL argument");
  memset (pa, 0, sizeof *pa);
  if (order < 1 || order > RW_WAVE_MAX_ORDER)
    return rw_fail (err, RW_ERROR_INPUT, _("directional receiver: order %d must be between 1 and %d"),
                    order, RW_WAVE_MAX_ORDER);
  const size_t nx = g->nx, ny = g->ny, nz = g->nz, nxy = nx * ny, shift = z0 * nxy;
  if (st->n < 1 || st->n > RW_GRID_STENCIL_MAX || st->nearest < shift
      || st->nearest - shift >= nxy * nz)
    return rw_fail (err, RW_ERROR_INPUT, _("directional receiver: cell %zu is outside the grid"),
                    st->nearest);
  const size_t centre = st->nearest - shift;
  const long cx = (long) (centre % nx), cy = (long) ((centre / nx) % ny),
             cz = (long) (centre / nxy);
  /* the stencil's members from the nearest node: within a cell of it
   * (cubic), two (an FCC octahedron's far vertex) */
  int s[RW_GRID_STENCIL_MAX][3], spread = 0;
  for (size_t j = 0; j < st->n; j++)
    {
      const size_t c = st->cell[j] - shift;
      s[j][0] = (int) ((long) (c % nx) - cx);
      s[j][1] = (int) ((long) ((c / nx) % ny) - cy);
      s[j][2] = (int) ((long) (c / nxy) - cz);
      for (int k = 0; k < 3; k++)
        spread = abs (s[j][k]) > spread ? abs (s[j][k]) : spread;
      if (st->cell[j] < shift || c >= nxy * nz || spread > 2)
        return rw_fail (err, RW_ERROR_INTERNAL, "rw_wave_probe_at: stencil member %zu is not "
                        "beside the nearest node", j);
    }
  /* the offsets: rw_wave_probe's */
  RwWaveProbe *pr = &pa->probe;
  pr->lattice = g->lattice;
  pr->n = probe_offsets (g->lattice, order, pr->offset);
  const int R = order > 1 ? RW_WAVE_PROBE_RADIUS : 1;
  /* every member of every virtual node: on the grid and in the air */
  const int reach = R + spread;
  bool fits = cx >= reach && cy >= reach && cz >= reach && cx + reach < (long) nx
              && cy + reach < (long) ny && cz + reach < (long) nz;
  pa->n_w = (int) st->n;
  memcpy (pa->w, st->weight, st->n * sizeof pa->w[0]);
  const size_t n_ref = pr->n * st->n;
  size_t *ref = fits ? malloc (n_ref * sizeof *ref) : NULL;
  pa->member = fits ? malloc (n_ref * sizeof *pa->member) : NULL;
  pa->cells = fits ? malloc (n_ref * sizeof *pa->cells) : NULL;
  if (fits && (ref == NULL || pa->member == NULL || pa->cells == NULL))
    {
      free (ref);
      rw_wave_probe_at_clear (pa);
      return rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
    }
  for (size_t i = 0; fits && i < pr->n; i++)
    {
      const int *o = pr->offset[i];
      pr->cells[i] = (size_t) ((long) st->nearest + o[0] + (long) nx * (o[1] + (long) ny * o[2]));
      for (size_t j = 0; fits && j < st->n; j++)
        {
          const long c = (long) centre + (o[0] + s[j][0])
                         + (long) nx * ((o[1] + s[j][1]) + (long) ny * (o[2] + s[j][2]));
          fits = g->K[c] != 0;
          ref[i * st->n + j] = (size_t) c + shift;
        }
    }
  if (!fits)
    {
      free (ref);
      rw_wave_probe_at_clear (pa);
      return rw_fail (err, RW_ERROR_INPUT,
                      _("directional receiver of order %d at cell (%ld, %ld, %ld): the grid cells "
                        "within %d cells (%.3f m, spacing %.3f m) must be in the air, and one is "
                        "not; move it away from the wall or lower the order"),
                      order, cx, cy, cz + (long) z0, reach, reach * g->h, g->h);
    }
  /* the cells, each once, ascending; each reference's place among them */
  memcpy (pa->cells, ref, n_ref * sizeof *ref);
  qsort (pa->cells, n_ref, sizeof *pa->cells, cmp_size);
  size_t u = 0;
  for (size_t k = 0; k < n_ref; k++)
    if (k == 0 || pa->cells[k] != pa->cells[u - 1])
      pa->cells[u++] = pa->cells[k];
  pa->n_cells = u;
  for (size_t k = 0; k < n_ref; k++)
    pa->member[k] = (size_t) ((const size_t *) bsearch (&ref[k], pa->cells, u, sizeof *pa->cells,
                                                         cmp_size)
                              - pa->cells);
  free (ref);
  return true;
}

void
rw_wave_probe_at_mix (const RwWaveProbeAt *pa, const double *const *rec, size_t n, double *out)
{
  const size_t nw = (size_t) pa->n_w;
  for (size_t i = 0; i < pa->probe.n; i++)
    {
      double *o = out + i * n;
      const size_t *m = pa->member + i * nw;
      for (size_t t = 0; t < n; t++)
        {
          double v = pa->w[0] * rec[m[0]][t];
          for (size_t j = 1; j < nw; j++)
            v += pa->w[j] * rec[m[j]][t];
          o[t] = v;
        }
    }
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

/* The number of nodes of the ball |o| ≤ RW_WAVE_PROBE_RADIUS on a
 * lattice (257 cubic, 141 FCC). */
static size_t
ball_size (RwLattice lattice)
{
  int off[RW_WAVE_PROBE_MAX][3];
  return probe_offsets (lattice, RW_WAVE_MAX_ORDER, off);
}

bool
rw_wave_encode (const RwWaveProbe *probe, const double *const *signals, size_t n, int order,
                double h, double c, double fs, double *out, RwError *err)
{
  if (order < 1 || order > RW_WAVE_MAX_ORDER)
    return rw_fail (err, RW_ERROR_INPUT, _("directional receiver: order %d must be between 1 and %d"),
                    order, RW_WAVE_MAX_ORDER);
  const size_t n_first = probe != NULL ? rw_wave_first_n (probe->lattice) : 0;
  if (probe == NULL || probe->n < n_first || signals == NULL)
    return rw_fail (err, RW_ERROR_INPUT, _("directional receiver: no probe"));
  if (!(h > 0.0) || !(c > 0.0) || !(fs > 0.0) || !isfinite (h * c * fs))
    return rw_fail (err, RW_ERROR_INPUT, _("directional receiver: bad spacing, speed or rate"));
  if (out == NULL || n == 0)
    return rw_fail (err, RW_ERROR_INPUT, _("directional receiver: no samples"));
  /* the first-order probe must be its lattice's, in its order */
  if (memcmp (probe->offset, first_offsets (probe->lattice), n_first * sizeof probe->offset[0]) != 0)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("directional receiver: the probe does not start with its lattice's "
                      "first-order cells"));
  if (!first_signals_ok (signals, n_first, n, err) || !courant_ok (c / (fs * h), err))
    return false;
  first_order_pairs (signals, probe->offset, n_first, n, c / (fs * h), out);
  if (order == 1)
    return true;
  /* orders 2 and 3: the probe must be rw_wave_probe's ball */
  const int R = RW_WAVE_PROBE_RADIUS;
  const size_t ball = ball_size (probe->lattice);
  const bool fcc = probe->lattice == RW_LATTICE_FCC;
  bool is_ball = probe->n == ball;
  for (size_t i = 0; is_ball && i < probe->n; i++)
    {
      const int *o = probe->offset[i];
      is_ball = o[0] * o[0] + o[1] * o[1] + o[2] * o[2] <= R * R && signals[i] != NULL
                && (!fcc || ((o[0] + o[1] + o[2]) & 1) == 0);
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
