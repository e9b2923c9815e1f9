/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-cuda-autotune.c — the block-shape cache of the CUDA backend.
 *
 * $XDG_CACHE_HOME/roomwave/autotune.json (else ~/.cache/roomwave/…):
 *   { "<device>|<nx>x<ny>x<nz>|<precision>|<boundary>":
 *       { "block_x": 32, "block_y": 8, "gvox_per_s": 201.3 }, … }
 * A missing, unreadable or malformed cache is no error: the search simply
 * runs again (it takes a few steps). Written atomically (temp + rename) so
 * that two processes never leave half a file.
 */
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rw-cuda.h"

static bool
rw_autotune_path (char *path, size_t len, bool make_dir)
{
  const char *xdg = getenv ("XDG_CACHE_HOME");
  const char *home = getenv ("HOME");
  char dir[PATH_MAX];
  if (xdg && xdg[0] == '/')
    snprintf (dir, sizeof dir, "%s/roomwave", xdg);
  else if (home && home[0])
    snprintf (dir, sizeof dir, "%s/.cache/roomwave", home);
  else
    return false;
  if (make_dir)
    {
      char parent[PATH_MAX];
      snprintf (parent, sizeof parent, "%s", dir);
      char *slash = strrchr (parent, '/');
      if (slash && slash != parent)
        {
          *slash = '\0';
          if (mkdir (parent, 0700) != 0 && errno != EEXIST)
            return false;
        }
      if (mkdir (dir, 0700) != 0 && errno != EEXIST)
        return false;
    }
  return snprintf (path, len, "%s/autotune.json", dir) < (int) len;
}

bool
rw_cuda_autotune_lookup (const char *key, int max_threads, int *block_x, int *block_y)
{
  char path[PATH_MAX];
  if (!rw_autotune_path (path, sizeof path, false))
    return false;
  json_object *root = json_object_from_file (path);
  if (!root)
    return false;
  bool found = false;
  json_object *entry, *bx, *by;
  if (json_object_is_type (root, json_type_object)
      && json_object_object_get_ex (root, key, &entry)
      && json_object_is_type (entry, json_type_object)
      && json_object_object_get_ex (entry, "block_x", &bx)
      && json_object_object_get_ex (entry, "block_y", &by)
      && json_object_is_type (bx, json_type_int) && json_object_is_type (by, json_type_int))
    {
      const int x = json_object_get_int (bx), y = json_object_get_int (by);
      if (x > 0 && y > 0 && x * y >= 32 && x * y <= max_threads)
        {
          *block_x = x;
          *block_y = y;
          found = true;
        }
    }
  json_object_put (root);
  return found;
}

void
rw_cuda_autotune_store (const char *key, int block_x, int block_y, double gvox_per_s)
{
  char path[PATH_MAX], tmp[PATH_MAX + 32];
  if (!rw_autotune_path (path, sizeof path, true))
    return;
  json_object *root = json_object_from_file (path);
  if (!root || !json_object_is_type (root, json_type_object))
    {
      if (root)
        json_object_put (root);
      root = json_object_new_object ();
    }
  json_object *entry = json_object_new_object ();
  json_object_object_add (entry, "block_x", json_object_new_int (block_x));
  json_object_object_add (entry, "block_y", json_object_new_int (block_y));
  json_object_object_add (entry, "gvox_per_s", json_object_new_double (gvox_per_s));
  json_object_object_add (root, key, entry);
  snprintf (tmp, sizeof tmp, "%s.%ld.tmp", path, (long) getpid ());
  /* The cache is an optimisation: failing to write it changes nothing but
   * the next start-up time, so it is not reported. */
  if (json_object_to_file_ext (tmp, root, JSON_C_TO_STRING_PRETTY) == 0)
    {
      if (rename (tmp, path) != 0)
        unlink (tmp);
    }
  json_object_put (root);
}
