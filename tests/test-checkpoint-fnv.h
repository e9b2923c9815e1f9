/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-checkpoint-fnv.h — a checkpoint's two checksums made right again
 * after its bytes were changed (rw-checkpoint.h: FNV-1a over 64-bit
 * words, the length and a final mix; the header's over its words before
 * its last, the file's over everything before its last 8 bytes). An
 * independent restatement of rw-checkpoint.c's, for the tests and the
 * fuzz target that make files which pass the checksums and are still
 * wrong: a test that borrowed the reader's own checksum could not catch
 * the reader's bugs in it. */
#pragma once

#include <stdint.h>
#include <string.h>

#define CK_HEADER_WORDS 32   /* the header's words, its checksum the last */

static inline uint64_t
ck_fnv (const unsigned char *p, size_t n)
{
  uint64_t h = 0xcbf29ce484222325ULL;
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    {
      uint64_t w;
      memcpy (&w, p + i, 8);
      h = (h ^ w) * 0x100000001b3ULL;
    }
  if (i < n)
    {
      uint64_t w = 0;
      memcpy (&w, p + i, n - i);
      h = (h ^ w) * 0x100000001b3ULL;
    }
  h = (h ^ (uint64_t) n) * 0x100000001b3ULL;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  return h;
}

/* Both checksums of the n bytes at buf made right (as far as n reaches). */
static inline void
ck_fix_sums (unsigned char *buf, size_t n)
{
  if (n < 8 * CK_HEADER_WORDS)
    return;
  const uint64_t hs = ck_fnv (buf, 8 * (CK_HEADER_WORDS - 1));
  memcpy (buf + 8 * (CK_HEADER_WORDS - 1), &hs, 8);
  if (n >= 8 * CK_HEADER_WORDS + 8)
    {
      const uint64_t all = ck_fnv (buf, n - 8);
      memcpy (buf + n - 8, &all, 8);
    }
}
