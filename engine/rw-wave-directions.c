/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-wave-directions.c — first-order B-format from the wave part's grid
 * probe (see rw-wave-directions.h for the derivation). */
#include "rw-wave-directions.h"

#include <math.h>
#include <string.h>

#include "rw-i18n.h"

bool
rw_wave_probe_cells (const RwGrid *g, size_t centre, size_t cells[RW_PROBE_N], RwError *err)
{
  if (g == NULL || cells == NULL)
    return rw_fail (err, RW_ERROR_INTERNAL, "rw_wave_probe_cells: NULL argument");
  const size_t nx = g->nx, ny = g->ny, nz = g->nz;
  if (centre >= nx * ny * nz)
    return rw_fail (err, RW_ERROR_INPUT, _("directional receiver: cell %zu is outside the grid"), centre);
  const size_t x = centre % nx, y = (centre / nx) % ny, z = centre / (nx * ny);
  if (x == 0 || y == 0 || z == 0 || x + 1 >= nx || y + 1 >= ny || z + 1 >= nz)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("directional receiver: cell (%zu, %zu, %zu) lies on the grid's edge"), x, y, z);
  const size_t sx = 1, sy = nx, sz = nx * ny;
  const size_t c[RW_PROBE_N] = { centre, centre + sx, centre - sx, centre + sy, centre - sy,
                                 centre + sz, centre - sz };
  for (int k = 0; k < RW_PROBE_N; k++)
    if (g->K[c[k]] == 0)
      return rw_fail (err, RW_ERROR_INPUT,
                      _("directional receiver at cell (%zu, %zu, %zu): its neighbours within one cell "
                        "(%.3f m) must be in the air, and one is not; move it away from the wall"),
                      x, y, z, g->h);
  memcpy (cells, c, sizeof c);
  return true;
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
  double I[3] = { 0, 0, 0 }, e = 0;
  /* ACN: X is channel 3, Y 1, Z 2 */
  static const int ch[3] = { 3, 1, 2 };
  for (size_t i = from; i < to && i < n; i++)
    {
      const double w = bformat[i];
      e += w * w;
      for (int k = 0; k < 3; k++)
        I[k] += w * bformat[(size_t) ch[k] * n + i];
    }
  const double len = sqrt (I[0] * I[0] + I[1] * I[1] + I[2] * I[2]);
  if (!(e > 0.0) || !(len > 0.0))
    {
      dir[0] = dir[1] = dir[2] = 0.0;
      return 0.0;
    }
  for (int k = 0; k < 3; k++)
    dir[k] = I[k] / len;
  return len / e;
}

int
rw_wave_encoded_order (int order)
{
  return order < 1 ? 0 : 1;
}

bool
rw_wave_probe (const RwGrid *g, size_t centre, int order, RwWaveProbe *probe, RwError *err)
{
  (void) order;
  static const int offsets[RW_PROBE_N][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { -1, 0, 0 }, { 0, 1, 0 },
                                              { 0, -1, 0 }, { 0, 0, 1 }, { 0, 0, -1 } };
  if (probe == NULL)
    return rw_fail (err, RW_ERROR_INTERNAL, "rw_wave_probe: NULL argument");
  if (!rw_wave_probe_cells (g, centre, probe->cells, err))
    return false;
  probe->n = RW_PROBE_N;
  memcpy (probe->offset, offsets, sizeof offsets);
  return true;
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
  const size_t nch = (size_t) (order + 1) * (size_t) (order + 1);
  if (out == NULL || n == 0)
    return rw_fail (err, RW_ERROR_INPUT, _("directional receiver: no samples"));
  if (!rw_wave_first_order (signals, n, c / (fs * h), out, err))
    return false;
  /* orders above the first: none from the wave part (yet) */
  memset (out + 4 * n, 0, (nch - 4) * n * sizeof *out);
  return true;
}
