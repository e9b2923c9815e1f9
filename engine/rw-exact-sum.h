/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-exact-sum.h — sums of doubles whose result does not depend on the
 * order of the additions: the room's uniform mode (the sum of p over the
 * inside cells, rw_solver_uniform_mode), which the post-processing takes
 * off every IR. Header only, compiled as C and as CUDA (RW_HD, as
 * rw-scheme.h), so that the CPU backend, the CUDA kernels and the ranks'
 * combination add the same integers.
 *
 * Each term is rounded once, to nearest (ties to even), to a multiple of
 * 2^-RW_EXACT_SUM_SHIFT, and added as a two's-complement integer of 128
 * bits: integer addition is associative, so any order, any split over
 * threads, blocks or ranks gives the same bits. With the shift at 80 a
 * term is kept to 8.3e-25 absolute (a term of |x| ≥ 2^-27 to the last bit
 * of its double; a field of 10⁹ cells loses at most 8e-16 in all), and the
 * sum may reach 2^47 ≈ 1.4e14 in magnitude (a term beyond that is clamped:
 * the growth monitor stops such a run first). Summed in double, the
 * order mattered: the CUDA blocks', the CPU threads' and the ranks' orders
 * gave readings that differed in their last bits, and the drift removal
 * carried that into the WAV files (docs/SOLVER.md §3, "Growth monitor"). */
#pragma once

#include <stdint.h>
#include <string.h>

#include "rw-scheme.h"   /* RW_HD */

#define RW_EXACT_SUM_SHIFT 80

/* (hi · 2^64 + lo) · 2^-RW_EXACT_SUM_SHIFT, hi:lo two's complement. */
typedef struct {
  uint64_t hi, lo;
} RwExactSum;

/* t into s (mod 2^128: exact while the sum stays in range). */
RW_HD void
rw_exact_sum_merge (RwExactSum *s, RwExactSum t)
{
  const uint64_t lo = s->lo + t.lo;
  s->hi += t.hi + (lo < t.lo ? 1u : 0u);
  s->lo = lo;
}

/* −s (two's complement; the most negative value is its own negation,
 * out of range anyway) */
RW_HD RwExactSum
rw_exact_sum_neg (RwExactSum s)
{
  RwExactSum r = { ~s.hi, ~s.lo };
  const RwExactSum one = { 0u, 1u };
  rw_exact_sum_merge (&r, one);
  return r;
}

/* x rounded to the sum's grid, as a two's-complement 128-bit value
 * (non-finite: 0, which the energy beside it reports). */
RW_HD RwExactSum
rw_exact_sum_of (double x)
{
  uint64_t b;
  memcpy (&b, &x, sizeof b);
  const int e = (int) ((b >> 52) & 0x7ffu);
  RwExactSum v = { 0u, 0u };
  if (e == 0 || e == 0x7ff)
    return v;   /* below 2^-1022 (far below the grid), or not finite */
  const uint64_t m = (b & 0xfffffffffffffull) | 0x10000000000000ull;
  /* x = m · 2^(e − 1075), on the grid m · 2^(e − 1075 + SHIFT) */
  const int sh = e - 1075 + RW_EXACT_SUM_SHIFT;
  if (sh >= 0)
    {
      if (sh > 126 - 53)
        v.hi = 0x7fffffffffffffffull, v.lo = ~0ull;   /* clamped (see above) */
      else if (sh >= 64)
        v.hi = m << (sh - 64);
      else
        {
          v.lo = m << sh;
          v.hi = sh == 0 ? 0u : m >> (64 - sh);
        }
    }
  else if (sh > -54)
    {
      const int k = -sh;   /* 1 … 53 */
      uint64_t q = m >> k;
      const uint64_t rem = m & ((1ull << k) - 1u), half = 1ull << (k - 1);
      if (rem > half || (rem == half && (q & 1u)))
        q++;
      v.lo = q;
    }
  return (b >> 63) ? rw_exact_sum_neg (v) : v;
}

RW_HD void
rw_exact_sum_add (RwExactSum *s, double x)
{
  rw_exact_sum_merge (s, rw_exact_sum_of (x));
}

/* The sum as a double (rounded twice: the high word's part, then the
 * low word added; the same function everywhere, so the same bits). */
RW_HD double
rw_exact_sum_value (RwExactSum s)
{
  const int neg = (int) (s.hi >> 63);
  if (neg)
    s = rw_exact_sum_neg (s);
  /* 2^64 and 2^-SHIFT are powers of two: exact scalings */
  const double v = ((double) s.hi * 18446744073709551616.0 + (double) s.lo)
                   * (1.0 / (double) (1ull << 40) / (double) (1ull << 40));
  return neg ? -v : v;
}
