/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-test.h — a minimal test harness: checks that print what failed and
 * where, and a summary. A test program returns rw_test_finish (): 0 when
 * every check held, 1 otherwise, 77 (meson's "skipped") after
 * rw_test_skip (). */
#pragma once

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>

extern int rw_test_failures;
extern int rw_test_checks;

#define RW_CHECK(cond, ...)                                                     \
  do {                                                                          \
    rw_test_checks++;                                                           \
    if (!(cond))                                                                \
      {                                                                         \
        rw_test_failures++;                                                     \
        fprintf (stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);        \
        fprintf (stderr, __VA_ARGS__);                                          \
        fprintf (stderr, "\n");                                                 \
      }                                                                         \
  } while (0)

/* |a − b| ≤ tol, printing both values. */
#define RW_CHECK_CLOSE(a, b, tol, what)                                         \
  do {                                                                          \
    double _a = (a), _b = (b), _t = (tol);                                      \
    RW_CHECK (fabs (_a - _b) <= _t, "%s: %.9g vs %.9g (tolerance %.3g)",       \
              what, _a, _b, _t);                                                \
  } while (0)

/* Prints a measured figure so the log shows what was checked. */
#define RW_NOTE(...) do { printf (__VA_ARGS__); printf ("\n"); } while (0)

void rw_test_skip (const char *why);
int rw_test_finish (void);
/* A fresh empty directory under $TMPDIR (removed by rw_test_finish). */
const char *rw_test_tmpdir (void);
/* rw_test_tmpdir ()/name, in one of 16 static buffers used in turn (a
 * path stays valid for the next 15 calls). */
const char *rw_test_tmp_path (const char *name);
/* Writes `text` to the file `name` in rw_test_tmpdir (); returns its path
 * (a static buffer, valid until the next call). */
const char *rw_test_write_text (const char *name, const char *text);
/* A uniform number in [0, 1) from a fixed-seed generator (xorshift64*):
 * the same sequence on every machine. *state must not start at 0. */
double rw_test_uniform (uint64_t *state);
/* A standard normal number from the same generator (Box–Muller). */
double rw_test_gauss (uint64_t *state);
