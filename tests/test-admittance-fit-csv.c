/* SPDX-License-Identifier: GPL-3.0-or-later */
/* admittance-fit-csv: fitting measured data.
 * - tests/data/admittance/known-resonators-z.csv: the impedance of a known
 *   passive admittance (Y0 = 0.03 and three series resonators at 180 Hz,
 *   1.4 kHz and 5 kHz, off the octave centres, Q 1.2, 3 and 0.7), 12
 *   points per octave: refitted, the random-incidence α per band is within
 *   0.01 of that of the known admittance (computed here from its formula,
 *   independently of the file), normal incidence too, with 3 branches (the
 *   fit prunes those it does not need).
 * - miki-50mm-r.csv: the reflection factor of 50 mm of glass wool
 *   (σ = 20 kPa s/m², Miki's model) on a rigid wall, every 25 Hz: a
 *   surface the model does not contain; the band α within 0.02.
 * - Bad files each give their own error naming file and line: no header,
 *   a non-numeric value, a non-finite value, frequencies not rising,
 *   Re Z < 0, |R| > 1, a short row, one data row, a missing file. */
#include "rw-admittance.h"
#include "rw-materials.h"
#include "rw-test.h"

#include <complex.h>
#include <stdlib.h>
#include <string.h>

static char path[4096];

static const char *
data (const char *name)
{
  const char *dir = getenv ("ROOMWAVE_TEST_DATA");
  snprintf (path, sizeof path, "%s/admittance/%s", dir ? dir : "tests/data", name);
  return path;
}

static double complex
known_Y (double f)
{
  const double fm[3] = { 180, 1400, 5000 }, Q[3] = { 1.2, 3.0, 0.7 }, c[3] = { 0.5, 0.25, 0.3 };
  double complex Y = 0.03;
  for (int m = 0; m < 3; m++)
    {
      const double x = f / fm[m];
      Y += c[m] / (1.0 + I * Q[m] * (x - 1.0 / x));
    }
  return Y;
}

static void
expect_refused (const char *name, int line, const char *words)
{
  RwError err = { 0 };
  RwAdmittance a;
  const char *p = data (name);
  char where[4200];
  if (line > 0)
    snprintf (where, sizeof where, "%s:%d:", p, line);
  else
    snprintf (where, sizeof where, "%s:", p);
  RW_CHECK (!rw_admittance_fit_csv (p, 8, &a, NULL, &err), "%s must be refused", name);
  RW_CHECK (err.code == RW_ERROR_INPUT || (line < 0 && err.code == RW_ERROR_IO), "%s: code %d", name, err.code);
  RW_CHECK (strstr (err.message, where) != NULL, "%s: '%s' in '%s'", name, where, err.message);
  RW_CHECK (strstr (err.message, words) != NULL, "%s: '%s' in '%s'", name, words, err.message);
  RW_NOTE ("%s → %s", name, err.message);
}

int
main (void)
{
  RwError err = { 0 };
  RwAdmittance a;
  RwFitReport r;
  RW_CHECK (rw_admittance_fit_csv (data ("known-resonators-z.csv"), 8, &a, &r, &err), "%s", err.message);
  RW_CHECK (rw_admittance_check (&a, &err), "passive: %s", err.message);
  RW_NOTE ("known admittance: %d branches, Y0 %.5f (0.03 built in)", a.n_branches, a.Y0);
  /* The pruning (fit_prune) finds the three resonators the data were
   * made of: no more branches than the surface has. */
  RW_CHECK (a.n_branches == 3, "known admittance of 3 resonators fitted with %d branches", a.n_branches);
  for (int b = 0; b < RW_ADM_N_BANDS; b++)
    {
      /* The known surface's band α over the file's points (12 per octave
       * from 40 Hz, as written by the generator). */
      double sr = 0, sn = 0;
      int n = 0;
      for (int k = 0; k <= 96; k++)
        {
          const double f = 40 * exp2 (k / 12.0);
          if (f >= rw_octave_centres_hz[b] * M_SQRT1_2 && f < rw_octave_centres_hz[b] * M_SQRT2)
            {
              sr += rw_alpha_random (known_Y (f));
              sn += rw_alpha_normal (known_Y (f));
              n++;
            }
        }
      RW_CHECK (n > 0, "band %d has data", b);
      RW_CHECK_CLOSE (r.target_random[b], sr / n, 1e-6, "target α_random from the data");
      RW_CHECK_CLOSE (r.target_normal[b], sn / n, 1e-6, "target α_normal from the data");
      RW_CHECK_CLOSE (r.model_random[b], sr / n, 0.01, "refitted α_random");
      RW_CHECK_CLOSE (r.model_normal[b], sn / n, 0.01, "refitted α_normal");
      /* Between the data's points too: the model's band mean (24
       * log-spaced points) against the known surface's, 4096 points. */
      double dense = 0;
      for (int k = 0; k < 4096; k++)
        dense += rw_alpha_random (known_Y (rw_octave_centres_hz[b] * exp2 ((k + 0.5) / 4096 - 0.5)));
      RW_CHECK_CLOSE (rw_admittance_band_alpha (&a, b, true), dense / 4096, 0.01, "refitted band mean");
      RW_NOTE ("  %5g Hz: α_random known %.4f fitted %.4f; α_normal known %.4f fitted %.4f",
               rw_octave_centres_hz[b], sr / n, r.model_random[b], sn / n, r.model_normal[b]);
    }
  RW_NOTE ("known admittance: worst band %g Hz, |error| %.2g", rw_octave_centres_hz[r.worst_band], r.worst_error);

  RW_CHECK (rw_admittance_fit_csv (data ("miki-50mm-r.csv"), 8, &a, &r, &err), "%s", err.message);
  RW_CHECK (rw_admittance_check (&a, &err), "passive: %s", err.message);
  for (int b = 0; b < RW_ADM_N_BANDS; b++)
    {
      RW_CHECK_CLOSE (r.model_random[b], r.target_random[b], 0.02, "Miki layer, α_random");
      RW_NOTE ("  %5g Hz: α_random data %.4f fitted %.4f", rw_octave_centres_hz[b], r.target_random[b],
               r.model_random[b]);
    }
  RW_NOTE ("Miki layer: %d branches, worst band %g Hz, |error| %.4f", a.n_branches,
           rw_octave_centres_hz[r.worst_band], r.worst_error);

  expect_refused ("bad-no-header.csv", 1, "missing header");
  expect_refused ("bad-not-numeric.csv", 3, "\"abc\" is not a number");
  expect_refused ("bad-not-finite.csv", 3, "not a finite number");
  expect_refused ("bad-not-rising.csv", 4, "must rise");
  expect_refused ("bad-active-z.csv", 3, "Re Z = -0.3");
  expect_refused ("bad-active-r.csv", 3, "|R| = 1.08");
  expect_refused ("bad-columns.csv", 3, "3 expected");
  expect_refused ("bad-one-row.csv", 0, "at least 2");
  expect_refused ("no-such-file.csv", -1, "cannot read");
  RW_CHECK (!rw_admittance_fit_csv (data ("known-resonators-z.csv"), 0, &a, NULL, &err), "0 bands refused");
  return rw_test_finish ();
}
