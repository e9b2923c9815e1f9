/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "rw-test.h"

#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <unistd.h>

int rw_test_failures = 0;
int rw_test_checks = 0;
static bool skipped = false;
static char tmpdir[4096];

void
rw_test_skip (const char *why)
{
  printf ("SKIP: %s\n", why);
  skipped = true;
}

const char *
rw_test_tmpdir (void)
{
  if (tmpdir[0] == '\0')
    {
      const char *base = getenv ("TMPDIR");
      snprintf (tmpdir, sizeof tmpdir, "%s/rwtest-XXXXXX", base ? base : "/tmp");
      if (mkdtemp (tmpdir) == NULL)
        {
          perror ("mkdtemp");
          exit (1);
        }
    }
  return tmpdir;
}

const char *
rw_test_tmp_path (const char *name)
{
  static char buf[16][4200];
  static int k;
  k = (k + 1) % 16;
  snprintf (buf[k], sizeof buf[k], "%s/%s", rw_test_tmpdir (), name);
  return buf[k];
}

const char *
rw_test_write_text (const char *name, const char *text)
{
  const char *path = rw_test_tmp_path (name);
  FILE *f = fopen (path, "w");
  if (f == NULL || fputs (text, f) < 0 || fclose (f) != 0)
    {
      perror (path);
      exit (1);
    }
  return path;
}

static int
remove_entry (const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
  (void) sb; (void) flag; (void) ftw;
  return remove (path);
}

int
rw_test_finish (void)
{
  if (tmpdir[0] != '\0' && getenv ("RW_TEST_KEEP") == NULL)
    nftw (tmpdir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  if (rw_test_failures > 0)
    {
      fprintf (stderr, "%d of %d checks failed\n", rw_test_failures, rw_test_checks);
      return 1;
    }
  if (skipped)
    return 77;
  printf ("all %d checks passed\n", rw_test_checks);
  return 0;
}

double
rw_test_uniform (uint64_t *state)
{
  /* xorshift64*: fast, a fixed sequence for a fixed seed. */
  *state ^= *state >> 12;
  *state ^= *state << 25;
  *state ^= *state >> 27;
  return ((*state * 0x2545f4914f6cdd1dull) >> 11) * (1.0 / 9007199254740992.0);
}

double
rw_test_gauss (uint64_t *state)
{
  /* Box–Muller; 1 − u keeps the logarithm's argument in (0, 1]. */
  double u1 = rw_test_uniform (state), u2 = rw_test_uniform (state);
  return sqrt (-2.0 * log (1.0 - u1)) * cos (2.0 * M_PI * u2);
}
