/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-file-staged-dir.c — rw-file.h beyond single files: an output equal
 * to an input is refused (name, "./name", symbolic and hard link); a
 * file set is written all or none (a failing last rename puts back the
 * destinations already replaced); a staged folder replaces its target as
 * a whole on commit, leaves it untouched on abort, refuses a second writer
 * while the first holds the lock, refuses entries its callback does not
 * accept and inputs inside it, and leaves nothing beside the target. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rw-file.h"
#include "rw-test.h"

static char *
path_in (const char *dir, const char *name)
{
  size_t len = strlen (dir) + strlen (name) + 2;
  char *p = malloc (len);
  snprintf (p, len, "%s/%s", dir, name);
  return p;
}

static void
put (const char *path, const char *text)
{
  FILE *f = fopen (path, "w");
  RW_CHECK (f != NULL, "cannot write %s", path);
  if (f != NULL)
    {
      fputs (text, f);
      fclose (f);
    }
}

static bool
holds (const char *path, const char *text)
{
  char buf[256] = { 0 };
  FILE *f = fopen (path, "r");
  if (f == NULL)
    return false;
  size_t n = fread (buf, 1, sizeof buf - 1, f);
  fclose (f);
  buf[n] = '\0';
  return strcmp (buf, text) == 0;
}

/* The entries of dir, sorted and joined by spaces ("" when empty or missing). */
static char *
listing (const char *dir)
{
  static char out[1024];
  out[0] = '\0';
  struct dirent **names = NULL;
  int n = scandir (dir, &names, NULL, alphasort);
  for (int i = 0; i < n; i++)
    {
      if (strcmp (names[i]->d_name, ".") != 0 && strcmp (names[i]->d_name, "..") != 0)
        {
          if (out[0])
            strcat (out, " ");
          strncat (out, names[i]->d_name, sizeof out - strlen (out) - 2);
        }
      free (names[i]);
    }
  free (names);
  return out;
}

static bool
only_txt (const char *rel, bool is_dir, void *data)
{
  (void) data;
  size_t n = strlen (rel);
  return !is_dir && n > 4 && strcmp (rel + n - 4, ".txt") == 0;
}

static bool
anything (const char *rel, bool is_dir, void *data)
{
  (void) rel, (void) is_dir, (void) data;
  return true;
}

static void
test_same_file (const char *dir)
{
  char *in = path_in (dir, "in.wav"), *dotted = path_in (dir, "./in.wav");
  char *hard = path_in (dir, "hard.wav"), *soft = path_in (dir, "soft.wav");
  char *fresh = path_in (dir, "fresh.csv");
  put (in, "input");
  RW_CHECK (link (in, hard) == 0 && symlink (in, soft) == 0, "links");
  const char *inputs[] = { NULL, in };
  const char *outs[][2] = { { in, NULL }, { dotted, NULL }, { hard, NULL }, { soft, NULL }, { fresh, fresh } };
  for (size_t k = 0; k < sizeof outs / sizeof outs[0]; k++)
    {
      RwError err = { 0 };
      bool ok = rw_file_check_outputs (inputs, 2, outs[k], 2, &err);
      RW_CHECK (!ok && err.code == RW_ERROR_INPUT && strstr (err.message, outs[k][0]) != NULL,
                "output %s: ok %d, message '%s'", outs[k][0], ok, err.message);
    }
  RwError err = { 0 };
  const char *distinct[] = { fresh, NULL };
  RW_CHECK (rw_file_check_outputs (inputs, 2, distinct, 2, &err), "a new output refused: %s", err.message);
  RW_CHECK (holds (in, "input"), "the input changed");
  unlink (hard);
  unlink (soft);
  unlink (in);
  free (in), free (dotted), free (hard), free (soft), free (fresh);
}

static void
test_file_set (const char *dir)
{
  char *a = path_in (dir, "a.csv"), *b = path_in (dir, "b.json"), *c = path_in (dir, "c-folder");
  put (a, "old a");
  RW_CHECK (mkdir (c, 0755) == 0, "mkdir %s", c);

  /* The last destination is a folder: its rename fails, a is put back, b
   * (new) is removed, and no part or backup is left. */
  RwFileSet set;
  rw_file_set_init (&set);
  RwError err = { 0 };
  const char *dests[] = { a, b, c };
  for (int i = 0; i < 3; i++)
    {
      const char *part = rw_file_set_add (&set, dests[i], &err);
      RW_CHECK (part != NULL, "add %s: %s", dests[i], err.message);
      if (part != NULL)
        RW_CHECK (rw_file_write_atomic (part, "new", 3, &err), "write %s: %s", part, err.message);
    }
  bool ok = rw_file_set_commit (&set, &err);
  RW_CHECK (!ok && strstr (err.message, "c-folder") != NULL, "commit: ok %d, '%s'", ok, err.message);
  RW_CHECK (holds (a, "old a"), "a was not put back");
  RW_CHECK (access (b, F_OK) != 0, "b was written");
  RW_CHECK (strcmp (listing (dir), "a.csv c-folder") == 0, "left: %s", listing (dir));

  /* All writable: every destination replaced, nothing else left. */
  rmdir (c);
  rw_file_set_init (&set);
  for (int i = 0; i < 2; i++)
    {
      const char *part = rw_file_set_add (&set, dests[i], &err);
      RW_CHECK (part != NULL && rw_file_write_atomic (part, "new", 3, &err), "add %s: %s", dests[i], err.message);
    }
  RW_CHECK (rw_file_set_commit (&set, &err), "commit: %s", err.message);
  RW_CHECK (holds (a, "new") && holds (b, "new"), "not replaced");
  RW_CHECK (strcmp (listing (dir), "a.csv b.json") == 0, "left: %s", listing (dir));

  /* Abort: the parts go, the destinations stay. */
  rw_file_set_init (&set);
  RW_CHECK (rw_file_set_add (&set, a, &err) != NULL, "add: %s", err.message);
  rw_file_set_abort (&set);
  RW_CHECK (holds (a, "new") && strcmp (listing (dir), "a.csv b.json") == 0, "abort: %s", listing (dir));
  unlink (a);
  unlink (b);
  free (a), free (b), free (c);
}

static void
test_staged_dir (const char *dir)
{
  char *out = path_in (dir, "out");
  char *old = path_in (out, "old.txt");
  RW_CHECK (mkdir (out, 0750) == 0, "mkdir");
  put (old, "previous");
  RwError err = { 0 };

  /* Abort: the target keeps its contents; nothing is left beside it. */
  RwStagedDir sd;
  RW_CHECK (rw_staged_dir_open (&sd, out, NULL, 0, only_txt, NULL, &err), "open: %s", err.message);
  char *staged = path_in (sd.staging, "new.txt");
  put (staged, "fresh");
  rw_staged_dir_abort (&sd);
  RW_CHECK (strcmp (listing (dir), "out") == 0, "beside after abort: %s", listing (dir));
  RW_CHECK (strcmp (listing (out), "old.txt") == 0, "after abort: %s", listing (out));
  free (staged);

  /* A second writer while the first holds the lock: refused at once. */
  RW_CHECK (rw_staged_dir_open (&sd, out, NULL, 0, only_txt, NULL, &err), "open: %s", err.message);
  RwStagedDir second;
  bool ok = rw_staged_dir_open (&second, out, NULL, 0, only_txt, NULL, &err);
  RW_CHECK (!ok && strstr (err.message, "another run") != NULL, "second writer: ok %d, '%s'", ok, err.message);

  /* Commit: the target holds exactly the new contents, its mode kept;
   * through renameat2 (RENAME_EXCHANGE), then through the fallback. */
  const char *names[] = { "new.txt", "newer.txt" };
  for (int pass = 0; pass < 2; pass++)
    {
      if (pass == 1)
        {
          setenv ("RW_TEST_NO_RENAME_EXCHANGE", "1", 1);
          RW_CHECK (rw_staged_dir_open (&sd, out, NULL, 0, only_txt, NULL, &err), "open: %s", err.message);
        }
      staged = path_in (sd.staging, names[pass]);
      put (staged, "fresh");
      free (staged);
      RW_CHECK (rw_staged_dir_commit (&sd, &err), "commit %d: %s", pass, err.message);
      RW_CHECK (strcmp (listing (out), names[pass]) == 0, "after commit %d: %s", pass, listing (out));
      RW_CHECK (strcmp (listing (dir), "out") == 0, "beside after commit %d: %s", pass, listing (dir));
      struct stat st;
      RW_CHECK (stat (out, &st) == 0 && (st.st_mode & 0777) == 0750, "mode %o", st.st_mode & 0777);
    }
  unsetenv ("RW_TEST_NO_RENAME_EXCHANGE");

  /* Entries the callback does not accept, and inputs, are refused by name. */
  char *foreign = path_in (out, "data.bin");
  put (foreign, "x");
  ok = rw_staged_dir_open (&sd, out, NULL, 0, only_txt, NULL, &err);
  RW_CHECK (!ok && strstr (err.message, "data.bin") != NULL, "foreign entry: ok %d, '%s'", ok, err.message);
  unlink (foreign);
  char *input = path_in (out, "newer.txt");
  const char *inputs[] = { input };
  ok = rw_staged_dir_open (&sd, out, inputs, 1, only_txt, NULL, &err);
  RW_CHECK (!ok && strstr (err.message, "input") != NULL, "input inside: ok %d, '%s'", ok, err.message);
  RW_CHECK (strcmp (listing (dir), "out") == 0, "beside after refusals: %s", listing (dir));

  /* Folders nested deeper than any output are refused, whatever the
   * callback says. */
  char deep[4096];
  snprintf (deep, sizeof deep, "%s", out);
  for (int i = 0; i < 10; i++)
    {
      strcat (deep, "/d");
      RW_CHECK (mkdir (deep, 0755) == 0, "mkdir %s", deep);
    }
  ok = rw_staged_dir_open (&sd, out, NULL, 0, anything, NULL, &err);
  RW_CHECK (!ok && strstr (err.message, "d/d/d/d/d/d/d/d/d") != NULL, "ten levels: ok %d, '%s'", ok, err.message);
  char *first = path_in (out, "d");
  rw_file_remove_tree (first);
  free (first);

  /* A mount point (here /proc) cannot be swapped: refused before any
   * lock file is made beside it. */
  ok = rw_staged_dir_open (&sd, "/proc", NULL, 0, anything, NULL, &err);
  RW_CHECK (!ok && strstr (err.message, "mount point") != NULL, "/proc: ok %d, '%s'", ok, err.message);
  RW_CHECK (access ("/.proc.lock", F_OK) != 0, "a lock file was made beside /proc");

  /* One missing parent is made, and removed again by an abort. */
  char *nested = path_in (dir, "made/run");
  RW_CHECK (rw_staged_dir_open (&sd, nested, NULL, 0, only_txt, NULL, &err), "nested: %s", err.message);
  rw_staged_dir_abort (&sd);
  RW_CHECK (strcmp (listing (dir), "out") == 0, "after the nested abort: %s", listing (dir));
  char *deeper = path_in (dir, "a/b/run");
  ok = rw_staged_dir_open (&sd, deeper, NULL, 0, only_txt, NULL, &err);
  RW_CHECK (!ok && strstr (err.message, "does not exist") != NULL, "two levels: ok %d, '%s'", ok, err.message);

  rw_file_remove_tree (out);
  free (out), free (old), free (foreign), free (input), free (nested), free (deeper);
}

int
main (void)
{
  const char *dir = rw_test_tmpdir ();
  test_same_file (dir);
  test_file_set (dir);
  test_staged_dir (dir);
  return rw_test_finish ();
}
