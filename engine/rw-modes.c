/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-modes.c — the analytic modes of a rigid rectangular room.
 *
 * For a box lx × ly × lz with rigid walls the pressure modes are
 * cos(lπx/lx) cos(mπy/ly) cos(nπz/lz) with
 *   f(l, m, n) = (c/2) √((l/lx)² + (m/ly)² + (n/lz)²)
 * (Morse & Ingard, Theoretical Acoustics, §9.5). A mode is axial,
 * tangential or oblique as one, two or three indices are non-zero. With
 * finite wall absorption the frequencies move little (the shift is of the
 * order of the modal bandwidth), which is why they are marked on a
 * measured or simulated response of a shoebox room.
 */
#include <math.h>
#include <stdlib.h>

#include "rw-analysis.h"
#include "rw-i18n.h"

#define RW_MODES_MAX 10000000

const char *
rw_mode_type_name (RwModeType type)
{
  switch (type)
    {
    case RW_MODE_AXIAL:
      return _("axial");
    case RW_MODE_TANGENTIAL:
      return _("tangential");
    case RW_MODE_OBLIQUE:
      return _("oblique");
    default:
      return "?";
    }
}

static int
compare_modes (const void *pa, const void *pb)
{
  const RwRoomMode *a = pa, *b = pb;
  if (a->frequency_hz != b->frequency_hz)
    return a->frequency_hz < b->frequency_hz ? -1 : 1;
  if (a->type != b->type)
    return a->type < b->type ? -1 : 1;
  if (a->l != b->l)
    return a->l < b->l ? -1 : 1;
  if (a->m != b->m)
    return a->m < b->m ? -1 : 1;
  return (a->n > b->n) - (a->n < b->n);
}

bool
rw_room_modes (double lx_m, double ly_m, double lz_m, double c_m_per_s, double fmax_hz,
               RwRoomMode **modes, size_t *n_modes, RwError *err)
{
  *modes = NULL;
  *n_modes = 0;
  double dims[3] = { lx_m, ly_m, lz_m };
  for (int i = 0; i < 3; i++)
    if (!(dims[i] > 0.0) || !isfinite (dims[i]))
      return rw_fail (err, RW_ERROR_INPUT,
                      _("room modes: dimensions %g × %g × %g m must be positive"),
                      lx_m, ly_m, lz_m);
  if (!(c_m_per_s > 0.0) || !isfinite (c_m_per_s))
    return rw_fail (err, RW_ERROR_INPUT, _("room modes: speed of sound %g m/s must be positive"),
                    c_m_per_s);
  if (!(fmax_hz > 0.0) || !isfinite (fmax_hz))
    return rw_fail (err, RW_ERROR_INPUT, _("room modes: fmax %g Hz must be positive"), fmax_hz);

  /* Highest index per axis: f ≥ (c/2) l/lx. */
  double kmax[3];
  for (int i = 0; i < 3; i++)
    kmax[i] = floor (2.0 * fmax_hz * dims[i] / c_m_per_s);
  /* The modes fill an eighth of an ellipsoid: about π/6 of the box of
   * indices; refuse before allocating when even that is too many. */
  double estimate = M_PI / 6.0 * (kmax[0] + 1) * (kmax[1] + 1) * (kmax[2] + 1);
  if (estimate > RW_MODES_MAX)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("room modes: about %.0f modes below %g Hz, more than %d"),
                    estimate, fmax_hz, RW_MODES_MAX);

  size_t cap = 64, n = 0;
  RwRoomMode *list = malloc (cap * sizeof *list);
  if (!list)
    return rw_fail (err, RW_ERROR_MEMORY, _("room modes: out of memory"));
  double f2max = fmax_hz * fmax_hz;
  for (int l = 0; l <= (int) kmax[0]; l++)
    for (int m = 0; m <= (int) kmax[1]; m++)
      for (int k = 0; k <= (int) kmax[2]; k++)
        {
          if (l == 0 && m == 0 && k == 0)
            continue;
          double a = l / lx_m, b = m / ly_m, d = k / lz_m;
          double f2 = 0.25 * c_m_per_s * c_m_per_s * (a * a + b * b + d * d);
          if (f2 > f2max)
            continue;
          if (n == cap)
            {
              RwRoomMode *grown = realloc (list, 2 * cap * sizeof *list);
              if (!grown)
                {
                  free (list);
                  return rw_fail (err, RW_ERROR_MEMORY, _("room modes: out of memory"));
                }
              list = grown;
              cap *= 2;
            }
          list[n].l = l;
          list[n].m = m;
          list[n].n = k;
          list[n].frequency_hz = sqrt (f2);
          list[n].type = (RwModeType) ((l > 0) + (m > 0) + (k > 0));
          n++;
        }
  qsort (list, n, sizeof *list, compare_modes);
  if (n == 0)
    {
      free (list);
      list = NULL;
    }
  *modes = list;
  *n_modes = n;
  return true;
}
