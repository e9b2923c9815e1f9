/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hybrid-bad-input: every bad input to the join and the seam metrics is
 * refused with RW_ERROR_INPUT and a message naming the problem, and the
 * output is left untouched: parts of different lengths or sample rates,
 * an empty part, a non-finite sample, a rate or fmax ≤ 0, a crossover
 * ≤ 0, NaN, ≥ fmax, or between the rule's limit (fmax / 1.293) and fmax,
 * while the limit itself is accepted; the seam on a signal shorter than a
 * window, a non-finite sample, a band past Nyquist. */
#include "rw-test.h"
#include "rw-hybrid.h"

#include <string.h>

#define FS 48000.0
#define N 4800

static double wave[N], ga[N], out[N];

static void
expect_fail (bool ok, RwError *err, const char *needle, const char *what)
{
  RW_CHECK (!ok, "%s: refused", what);
  RW_CHECK (err->code == RW_ERROR_INPUT, "%s: code %d", what, err->code);
  RW_CHECK (strstr (err->message, needle) != NULL, "%s: message '%s' says '%s'", what,
            err->message, needle);
  bool untouched = true;
  for (size_t i = 0; i < N; i++)
    untouched = untouched && out[i] == 7.0;
  RW_CHECK (untouched, "%s: output untouched", what);
  RW_NOTE ("%s: %s", what, err->message);
  *err = (RwError) { 0 };
}

int
main (void)
{
  RwError err = { 0 };
  for (size_t i = 0; i < N; i++)
    {
      wave[i] = ga[i] = 1.0 / (1.0 + (double) i);
      out[i] = 7.0;
    }
  RwHybridPart w = { wave, N, FS }, g = { ga, N, FS };

  RwHybridPart shorter = { ga, N - 1, FS };
  expect_fail (rw_hybrid_join (&w, &shorter, 1000, 500, out, NULL, NULL, &err), &err,
               "same length", "lengths differ");
  RwHybridPart other_rate = { ga, N, 44100.0 };
  expect_fail (rw_hybrid_join (&w, &other_rate, 1000, 500, out, NULL, NULL, &err), &err,
               "44100", "rates differ");
  RwHybridPart empty = { ga, 0, FS };
  expect_fail (rw_hybrid_join (&empty, &g, 1000, 500, out, NULL, NULL, &err), &err, "empty",
               "empty part");
  RwHybridPart zero_rate = { wave, N, 0.0 };
  expect_fail (rw_hybrid_join (&zero_rate, &g, 1000, 500, out, NULL, NULL, &err), &err,
               "sample rate", "rate 0");
  ga[17] = NAN;
  expect_fail (rw_hybrid_join (&w, &g, 1000, 500, out, NULL, NULL, &err), &err, "sample 17",
               "NaN sample");
  ga[17] = 0;
  expect_fail (rw_hybrid_join (&w, &g, 0, 500, out, NULL, NULL, &err), &err, "fmax", "fmax 0");
  expect_fail (rw_hybrid_join (&w, &g, 1000, 0, out, NULL, NULL, &err), &err, "crossover",
               "crossover 0");
  expect_fail (rw_hybrid_join (&w, &g, 1000, -100, out, NULL, NULL, &err), &err, "crossover",
               "crossover < 0");
  expect_fail (rw_hybrid_join (&w, &g, 1000, NAN, out, NULL, NULL, &err), &err, "crossover",
               "crossover NaN");
  expect_fail (rw_hybrid_join (&w, &g, 1000, 1000, out, NULL, NULL, &err), &err, "crossover",
               "crossover = fmax");
  expect_fail (rw_hybrid_join (&w, &g, 1000, 1500, out, NULL, NULL, &err), &err, "crossover",
               "crossover > fmax");
  /* The transition would reach above fmax: 800 Hz · 1.293 = 1034 Hz. */
  const double limit = 1000.0 / (2.0 - M_SQRT1_2);
  expect_fail (rw_hybrid_join (&w, &g, 1000, 800, out, NULL, NULL, &err), &err, "773.",
               "transition above fmax");
  expect_fail (rw_hybrid_join (&w, &g, 1000, limit * 1.001, out, NULL, NULL, &err), &err,
               "crossover", "just above the limit");
  RW_CHECK (rw_hybrid_check_crossover (limit, 1000, FS, &err), "the limit %g Hz itself: %s",
            limit, err.message);
  RW_CHECK (rw_hybrid_join (&w, &g, 1000, rw_hybrid_default_crossover (1000), out, NULL, NULL,
                            &err), "default crossover accepted: %s", err.message);
  /* Above Nyquist even when fmax would allow it. */
  RW_CHECK (!rw_hybrid_check_crossover (20000, 1e6, FS, &err) && err.code == RW_ERROR_INPUT,
            "crossover past Nyquist refused");

  /* Seam. */
  RwHybridSeam s;
  err = (RwError) { 0 };
  for (size_t i = 0; i < N; i++)
    out[i] = 7.0;
  expect_fail (rw_hybrid_seam (wave, ga, 100, FS, 500, &s, &err), &err, "window",
               "seam: shorter than a window");
  wave[5] = INFINITY;
  expect_fail (rw_hybrid_seam (wave, ga, N, FS, 500, &s, &err), &err, "sample 5",
               "seam: infinite sample");
  wave[5] = 0;
  expect_fail (rw_hybrid_seam (wave, ga, N, FS, 20000, &s, &err), &err, "Nyquist",
               "seam: band past Nyquist");
  expect_fail (rw_hybrid_seam (wave, ga, N, 0, 500, &s, &err), &err, "sample rate",
               "seam: rate 0");
  return rw_test_finish ();
}
