/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-file-atomic.c — rw-file.h: an atomic write either replaces the
 * destination with the complete new content or leaves it as it was, and
 * never leaves a temporary file behind. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rw-file.h"
#include "rw-test.h"

/* The number of entries in dir other than . and .. */
static int
count_entries (const char *dir)
{
  DIR *d = opendir (dir);
  if (d == NULL)
    return -1;
  int n = 0;
  struct dirent *e;
  while ((e = readdir (d)) != NULL)
    if (strcmp (e->d_name, ".") != 0 && strcmp (e->d_name, "..") != 0)
      n++;
  closedir (d);
  return n;
}

/* The file's content, NUL-terminated (NULL if it cannot be read). */
static char *
slurp (const char *path)
{
  FILE *f = fopen (path, "rb");
  if (f == NULL)
    return NULL;
  char *buf = calloc (1, 4096);
  if (buf != NULL)
    (void) fread (buf, 1, 4095, f);
  fclose (f);
  return buf;
}

static void
check_content (const char *path, const char *want)
{
  char *got = slurp (path);
  RW_CHECK (got != NULL && strcmp (got, want) == 0, "%s holds '%s', expected '%s'",
            path, got ? got : "(unreadable)", want);
  free (got);
}

int
main (void)
{
  const char *dir = rw_test_tmpdir ();
  char path[4096];
  snprintf (path, sizeof path, "%s/out.txt", dir);
  RwError err = { 0 };

  /* 1. A whole buffer into a new file: the content, mode 0644, nothing else
   *    left in the folder. */
  bool ok = rw_file_write_atomic (path, "first\n", 6, &err);
  RW_CHECK (ok, "write failed: %s", err.message);
  check_content (path, "first\n");
  struct stat st;
  RW_CHECK (stat (path, &st) == 0 && (st.st_mode & 0777) == 0644,
            "mode %o, expected 644", (unsigned) (st.st_mode & 0777));
  RW_CHECK (count_entries (dir) == 1, "%d entries in %s, expected 1", count_entries (dir), dir);

  /* 2. Commit replaces an existing file. */
  ok = rw_file_write_atomic (path, "second, longer\n", 15, &err);
  RW_CHECK (ok, "rewrite failed: %s", err.message);
  check_content (path, "second, longer\n");
  RW_CHECK (count_entries (dir) == 1, "%d entries after the rewrite, expected 1", count_entries (dir));

  /* 3. Abort after writing: the destination keeps its old content, the
   *    temporary file is gone. */
  RwAtomicFile af;
  ok = rw_atomic_file_open (&af, path, &err);
  RW_CHECK (ok, "open failed: %s", err.message);
  if (ok)
    {
      RW_CHECK (count_entries (dir) == 2, "the temporary file is not in the destination folder");
      RW_CHECK (strncmp (af.tmp_path, path, strlen (path)) == 0 && strcmp (af.tmp_path, path) != 0,
                "temporary name '%s' is not next to '%s'", af.tmp_path, path);
      RW_CHECK (rw_atomic_file_write (&af, "half", 4, &err), "write: %s", err.message);
      char tmp_copy[4200];
      snprintf (tmp_copy, sizeof tmp_copy, "%s", af.tmp_path);
      rw_atomic_file_abort (&af);
      RW_CHECK (access (tmp_copy, F_OK) != 0, "%s survived the abort", tmp_copy);
      rw_atomic_file_abort (&af); /* twice is harmless */
    }
  check_content (path, "second, longer\n");
  RW_CHECK (count_entries (dir) == 1, "%d entries after the abort, expected 1", count_entries (dir));

  /* 4. Streamed writes, then commit. */
  ok = rw_atomic_file_open (&af, path, &err);
  RW_CHECK (ok, "open failed: %s", err.message);
  if (ok)
    {
      RW_CHECK (rw_atomic_file_write (&af, "third", 5, &err), "write: %s", err.message);
      RW_CHECK (rw_atomic_file_write (&af, "\n", 1, &err), "write: %s", err.message);
      RW_CHECK (rw_atomic_file_commit (&af, &err), "commit: %s", err.message);
      RW_CHECK (af.fd == -1 && af.tmp_path == NULL, "commit did not release the handle");
    }
  check_content (path, "third\n");
  RW_CHECK (count_entries (dir) == 1, "%d entries after the commit, expected 1", count_entries (dir));

  /* 5. A folder that does not exist: RW_ERROR_IO naming the destination,
   *    and an empty handle that can be aborted. */
  char missing[4096];
  snprintf (missing, sizeof missing, "%s/no-such-folder/out.txt", dir);
  rw_error_clear (&err);
  ok = rw_file_write_atomic (missing, "x", 1, &err);
  RW_CHECK (!ok, "writing into a missing folder succeeded");
  RW_CHECK (err.code == RW_ERROR_IO, "code %d, expected RW_ERROR_IO", err.code);
  RW_CHECK (strstr (err.message, missing) != NULL, "message '%s' does not name %s", err.message, missing);
  RW_NOTE ("missing folder: %s", err.message);
  rw_error_clear (&err);
  ok = rw_atomic_file_open (&af, missing, &err);
  RW_CHECK (!ok && err.code == RW_ERROR_IO && af.fd == -1 && af.tmp_path == NULL,
            "open into a missing folder: ok %d, code %d", ok, err.code);
  rw_atomic_file_abort (&af);

  /* 6. The destination is a folder: the rename fails, the message names
   *    it, and the temporary file is removed. */
  char sub[4096];
  snprintf (sub, sizeof sub, "%s/a-folder", dir);
  RW_CHECK (mkdir (sub, 0755) == 0, "mkdir %s", sub);
  rw_error_clear (&err);
  ok = rw_file_write_atomic (sub, "x", 1, &err);
  RW_CHECK (!ok && err.code == RW_ERROR_IO, "replacing a folder: ok %d, code %d", ok, err.code);
  RW_CHECK (strstr (err.message, sub) != NULL, "message '%s' does not name %s", err.message, sub);
  RW_CHECK (count_entries (dir) == 2, "%d entries after the failed rename, expected 2", count_entries (dir));
  rmdir (sub);

  /* 7. The folder a temporary file goes to (the one rw_file_dirname
   *    names, also used by the auraliser for its scratch file). */
  const char *cases[][2] = {
    { "out.wav", "." }, { "/out.wav", "/" }, { "a/b/out.wav", "a/b" }, { "/a/out.wav", "/a" },
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
      char d[64];
      rw_file_dirname (cases[i][0], d, sizeof d);
      RW_CHECK (strcmp (d, cases[i][1]) == 0, "folder of '%s' is '%s', expected '%s'",
                cases[i][0], d, cases[i][1]);
    }

  return rw_test_finish ();
}
