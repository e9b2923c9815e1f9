/* SPDX-License-Identifier: GPL-3.0-or-later */
/* analysis-modes: rw_room_modes of a 5 × 4 × 3 m room (c = 343 m/s):
 * the first axial mode of each dimension at c/(2L) (34.3, 42.875,
 * 57.17 Hz), the counts of axial, tangential and oblique modes up to
 * 200 Hz equal to a brute-force enumeration written independently here
 * (over a generous index box, classifying by the indices), the list
 * sorted by frequency with every frequency matching its indices, and
 * bad dimensions refused. */
#include "rw-test.h"
#include "rw-analysis.h"

#include <math.h>
#include <stdlib.h>

int
main (void)
{
  const double L[3] = { 5.0, 4.0, 3.0 }, c = 343.0, fmax = 200.0;
  RwRoomMode *modes = NULL;
  size_t n = 0;
  RwError err = { 0 };
  bool ok = rw_room_modes (L[0], L[1], L[2], c, fmax, &modes, &n, &err);
  RW_CHECK (ok, "rw_room_modes: %s", err.message);
  if (!ok)
    return rw_test_finish ();

  /* Brute force: every index triple up to 40 per axis (f ≥ 343·40/10 Hz,
   * far above 200 Hz). */
  size_t count[4] = { 0 };
  for (int l = 0; l <= 40; l++)
    for (int m = 0; m <= 40; m++)
      for (int k = 0; k <= 40; k++)
        {
          if (l + m + k == 0)
            continue;
          double f = c / 2.0 * sqrt (pow (l / L[0], 2) + pow (m / L[1], 2) + pow (k / L[2], 2));
          if (f <= fmax)
            count[(l != 0) + (m != 0) + (k != 0)]++;
        }
  size_t got[4] = { 0 };
  for (size_t i = 0; i < n; i++)
    {
      got[modes[i].type]++;
      double f = c / 2.0 * sqrt (pow (modes[i].l / L[0], 2) + pow (modes[i].m / L[1], 2)
                                 + pow (modes[i].n / L[2], 2));
      RW_CHECK (fabs (modes[i].frequency_hz - f) < 1e-9, "mode (%d,%d,%d): %.6f Hz vs %.6f",
                modes[i].l, modes[i].m, modes[i].n, modes[i].frequency_hz, f);
      int nz = (modes[i].l != 0) + (modes[i].m != 0) + (modes[i].n != 0);
      RW_CHECK ((int) modes[i].type == nz, "mode (%d,%d,%d) typed %d", modes[i].l, modes[i].m,
                modes[i].n, modes[i].type);
      RW_CHECK (i == 0 || modes[i].frequency_hz >= modes[i - 1].frequency_hz, "not sorted at %zu", i);
      RW_CHECK (modes[i].frequency_hz > 0.0 && modes[i].frequency_hz <= fmax, "%.3f Hz out of range",
                modes[i].frequency_hz);
    }
  RW_NOTE ("5 × 4 × 3 m up to 200 Hz: %zu modes: %zu axial, %zu tangential, %zu oblique "
           "(brute force %zu, %zu, %zu)", n, got[1], got[2], got[3], count[1], count[2], count[3]);
  for (int t = 1; t <= 3; t++)
    RW_CHECK (got[t] == count[t], "%s: %zu modes, brute force %zu", rw_mode_type_name (t),
              got[t], count[t]);
  RW_CHECK (n == count[1] + count[2] + count[3], "total %zu", n);

  /* The first modes: axial (1,0,0) at c/(2·5 m), axial (0,1,0) at c/(2·4 m). */
  RW_CHECK (n >= 4, "fewer than 4 modes");
  if (n >= 4)
    {
      RW_CHECK (modes[0].l == 1 && modes[0].m == 0 && modes[0].n == 0, "first mode (%d,%d,%d)",
                modes[0].l, modes[0].m, modes[0].n);
      RW_CHECK_CLOSE (modes[0].frequency_hz, c / (2 * L[0]), 1e-9, "first axial mode x");
      RW_CHECK (modes[1].l == 0 && modes[1].m == 1 && modes[1].n == 0, "second mode");
      RW_CHECK_CLOSE (modes[1].frequency_hz, c / (2 * L[1]), 1e-9, "first axial mode y");
      /* Third: the tangential (1,1,0) at 54.9 Hz comes before the
       * axial (0,0,1) at c/(2·3 m) = 57.17 Hz. */
      RW_CHECK (modes[2].l == 1 && modes[2].m == 1 && modes[2].n == 0
                && modes[2].type == RW_MODE_TANGENTIAL, "third mode (%d,%d,%d)",
                modes[2].l, modes[2].m, modes[2].n);
      RW_CHECK (modes[3].l == 0 && modes[3].m == 0 && modes[3].n == 1, "fourth mode");
      RW_CHECK_CLOSE (modes[3].frequency_hz, c / (2 * L[2]), 1e-9, "first axial mode z");
      RW_CHECK (modes[0].type == RW_MODE_AXIAL && modes[1].type == RW_MODE_AXIAL, "axial types");
    }
  free (modes);

  /* Bad input. */
  RW_CHECK (!rw_room_modes (0.0, 4.0, 3.0, c, fmax, &modes, &n, &err), "zero length accepted");
  RW_CHECK (modes == NULL && n == 0, "output set on failure");
  RW_CHECK (!rw_room_modes (5.0, NAN, 3.0, c, fmax, &modes, &n, &err), "NaN accepted");
  RW_CHECK (!rw_room_modes (5.0, 4.0, 3.0, -1.0, fmax, &modes, &n, &err), "negative c accepted");
  RW_CHECK (!rw_room_modes (500.0, 400.0, 300.0, c, 20000.0, &modes, &n, &err),
            "10¹¹ modes accepted");
  return rw_test_finish ();
}
