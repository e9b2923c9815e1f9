/* SPDX-License-Identifier: GPL-3.0-or-later */
/* exact-sum: rw-exact-sum.h, the sums of p whose bits do not depend on
 * the order of the additions (the room's uniform mode, summed by the CPU
 * threads, the CUDA blocks and the ranks each in their own order).
 *  - 200 000 terms of a field's range (|x| from 1e-9 to 1e3, both signs,
 *    some exact ties of the grid): summed forwards, backwards, in a
 *    shuffled order, and as 7 uneven parts merged in either order — the
 *    same 128 bits each time; the value within 1e-15 of the sum's size of
 *    a compensated (Neumaier) sum in long double;
 *  - one term: the double it gives back is the term itself where the
 *    grid holds it (|x| ≥ 2^-27 with a 53-bit mantissa); a term below half
 *    the grid's step gives 0, a tie (half a step) rounds to even; −x
 *    gives the negation; carries across the two words (2^64 steps and one
 *    less) come out right;
 *  - x + (−x) over many terms is exactly 0, whatever the order.
 * What fails it: a carry lost between the words (the shuffled sums differ
 * and the value is off by 2^64 steps), the ties rounded away from zero,
 * the negation without its + 1 (off by a step a negative term). */
#include "rw-test.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rw-exact-sum.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t
next (void)
{
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static double
uniform (void)
{
  return (double) (next () >> 11) / 9007199254740992.0;
}

static bool
same (RwExactSum a, RwExactSum b)
{
  return a.hi == b.hi && a.lo == b.lo;
}

int
main (void)
{
  enum { N = 200000, PARTS = 7 };
  double *x = malloc (N * sizeof *x);
  size_t *order = malloc (N * sizeof *order);
  const double step = ldexp (1.0, -RW_EXACT_SUM_SHIFT);
  for (size_t i = 0; i < N; i++)
    {
      x[i] = (next () & 1 ? -1.0 : 1.0) * pow (10.0, -9.0 + 12.0 * uniform ());
      if (i % 1000 == 0)
        x[i] = (2.0 * (double) (i / 1000) + 1.0) * 0.5 * step;   /* exact ties of the grid */
      order[i] = i;
    }
  for (size_t i = N - 1; i > 0; i--)
    {
      const size_t j = (size_t) (next () % (i + 1)), t = order[i];
      order[i] = order[j], order[j] = t;
    }
  RwExactSum fwd = { 0 }, bwd = { 0 }, shuf = { 0 }, parts[PARTS] = { { 0 } };
  long double s = 0.0L, c = 0.0L, size = 0.0L;
  for (size_t i = 0; i < N; i++)
    {
      rw_exact_sum_add (&fwd, x[i]);
      rw_exact_sum_add (&bwd, x[N - 1 - i]);
      rw_exact_sum_add (&shuf, x[order[i]]);
      /* uneven parts: a quarter of the terms in part 0 */
      rw_exact_sum_add (&parts[i % 4 == 0 ? 0 : 1 + i % (PARTS - 1)], x[i]);
      const long double t = s + (long double) x[i];
      c += fabsl (s) >= fabsl ((long double) x[i]) ? (s - t) + (long double) x[i]
                                                   : ((long double) x[i] - t) + s;
      s = t;
      size += fabsl ((long double) x[i]);
    }
  RwExactSum up = { 0 }, down = { 0 };
  for (int k = 0; k < PARTS; k++)
    {
      rw_exact_sum_merge (&up, parts[k]);
      rw_exact_sum_merge (&down, parts[PARTS - 1 - k]);
    }
  RW_CHECK (same (fwd, bwd) && same (fwd, shuf) && same (fwd, up) && same (fwd, down),
            "the order changed the sum: %.17g %.17g %.17g %.17g %.17g", rw_exact_sum_value (fwd),
            rw_exact_sum_value (bwd), rw_exact_sum_value (shuf), rw_exact_sum_value (up),
            rw_exact_sum_value (down));
  const double ref = (double) (s + c), got = rw_exact_sum_value (fwd);
  RW_CHECK (fabs (got - ref) <= 1e-15 * (double) size, "sum %.17g, compensated %.17g (size %.3g)",
            got, ref, (double) size);
  RW_NOTE ("%d terms: %.17g in every order (compensated sum %.17g)", N, got, ref);

  /* single terms */
  const double keep[] = { 1.0, -1.0, 0.1, -3.75, 1e3, -1234.5678, ldexp (1.0, -27),
                          ldexp (1.0 + ldexp (1.0, -52), -27), 1e13, -7e13 };
  for (size_t k = 0; k < sizeof keep / sizeof keep[0]; k++)
    {
      RwExactSum t = { 0 };
      rw_exact_sum_add (&t, keep[k]);
      RW_CHECK (rw_exact_sum_value (t) == keep[k], "%.17g gives back %.17g", keep[k],
                rw_exact_sum_value (t));
      rw_exact_sum_add (&t, -keep[k]);
      RW_CHECK (t.hi == 0 && t.lo == 0, "%.17g − itself: %016llx %016llx", keep[k],
                (unsigned long long) t.hi, (unsigned long long) t.lo);
    }
  RwExactSum t = { 0 };
  rw_exact_sum_add (&t, 0.49 * step);
  RW_CHECK (t.hi == 0 && t.lo == 0, "0.49 of a step: %llu steps", (unsigned long long) t.lo);
  rw_exact_sum_add (&t, 0.5 * step);
  RW_CHECK (t.hi == 0 && t.lo == 0, "half a step rounds to 0 (even): %llu", (unsigned long long) t.lo);
  rw_exact_sum_add (&t, 1.5 * step);
  RW_CHECK (t.hi == 0 && t.lo == 2, "1.5 steps round to 2 (even): %llu", (unsigned long long) t.lo);
  rw_exact_sum_add (&t, -2.5 * step);
  RW_CHECK (t.hi == 0 && t.lo == 0, "−2.5 steps round to −2: %016llx %016llx",
            (unsigned long long) t.hi, (unsigned long long) t.lo);
  /* carries: (2^64 − 1) steps, then one more */
  RwExactSum w = { 0 };
  rw_exact_sum_add (&w, ldexp (1.0, 64 - RW_EXACT_SUM_SHIFT) - step * 2048.0);
  rw_exact_sum_add (&w, step * 2047.0);
  RW_CHECK (w.hi == 0 && w.lo == ~0ull, "2^64 − 1 steps: %016llx %016llx",
            (unsigned long long) w.hi, (unsigned long long) w.lo);
  rw_exact_sum_add (&w, step);
  RW_CHECK (w.hi == 1 && w.lo == 0, "2^64 steps: %016llx %016llx", (unsigned long long) w.hi,
            (unsigned long long) w.lo);
  rw_exact_sum_add (&w, -step);
  RW_CHECK (w.hi == 0 && w.lo == ~0ull, "back to 2^64 − 1: %016llx %016llx",
            (unsigned long long) w.hi, (unsigned long long) w.lo);
  RW_CHECK (rw_exact_sum_value (w) == ldexp (1.0, 64 - RW_EXACT_SUM_SHIFT),
            "2^64 − 1 steps as a double: %.17g", rw_exact_sum_value (w));

  /* x + (−x) in any order */
  RwExactSum z = { 0 };
  for (size_t i = 0; i < N; i++)
    rw_exact_sum_add (&z, x[order[i]]);
  for (size_t i = 0; i < N; i++)
    rw_exact_sum_add (&z, -x[i]);
  RW_CHECK (z.hi == 0 && z.lo == 0, "Σ x − Σ x: %016llx %016llx", (unsigned long long) z.hi,
            (unsigned long long) z.lo);
  free (x);
  free (order);
  return rw_test_finish ();
}
