/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-file.c — writing files atomically; see rw-file.h. */
#include "rw-file.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rw-i18n.h"

static void
release (RwAtomicFile *af)
{
  free (af->path);
  free (af->tmp_path);
  af->path = NULL;
  af->tmp_path = NULL;
  af->fd = -1;
}

bool
rw_atomic_file_open (RwAtomicFile *af, const char *path, RwError *err)
{
  af->path = NULL;
  af->tmp_path = NULL;
  af->fd = -1;

  /* Next to the destination, so that rename() stays on one file system;
   * mkstemp picks a name nobody else holds. */
  const size_t len = strlen (path) + sizeof ".tmp-XXXXXX";
  af->path = strdup (path);
  af->tmp_path = malloc (len);
  if (af->path == NULL || af->tmp_path == NULL)
    {
      release (af);
      return rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory"), path);
    }
  snprintf (af->tmp_path, len, "%s.tmp-XXXXXX", path);
  af->fd = mkstemp (af->tmp_path);
  if (af->fd < 0)
    {
      int e = errno;
      release (af);
      return rw_fail (err, RW_ERROR_IO, _("%s: cannot create the file: %s"), path, strerror (e));
    }
  /* mkstemp creates 0600; what Roomwave writes are ordinary documents. */
  (void) fchmod (af->fd, 0644);
  return true;
}

bool
rw_file_write_all (int fd, const void *data, size_t len)
{
  const char *p = data;
  while (len > 0)
    {
      ssize_t w = write (fd, p, len);
      if (w < 0 && errno == EINTR)
        continue;
      if (w < 0)
        return false;
      if (w == 0)
        {
          /* write() makes no progress only on a device that is full. */
          errno = ENOSPC;
          return false;
        }
      p += w;
      len -= (size_t) w;
    }
  return true;
}

bool
rw_atomic_file_write (RwAtomicFile *af, const void *data, size_t len, RwError *err)
{
  if (!rw_file_write_all (af->fd, data, len))
    return rw_fail (err, RW_ERROR_IO, _("%s: cannot write the file: %s"),
                    af->path, strerror (errno));
  return true;
}

void
rw_file_dirname (const char *path, char *buf, size_t len)
{
  const char *slash = strrchr (path, '/');
  if (slash == NULL)
    snprintf (buf, len, ".");
  else if (slash == path)
    snprintf (buf, len, "/");
  else
    snprintf (buf, len, "%.*s", (int) (slash - path), path);
}

/* Makes the rename durable: on Linux a new directory entry survives a
 * crash only once the directory itself is synced. Best effort: some file
 * systems refuse fsync on a directory, and the data are already safe. */
static void
sync_parent_dir (const char *path)
{
  const size_t len = strlen (path) + 2;
  char *dir = malloc (len);
  if (dir == NULL)
    return;
  rw_file_dirname (path, dir, len);
  int fd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0)
    {
      (void) fsync (fd);
      close (fd);
    }
  free (dir);
}

bool
rw_atomic_file_commit (RwAtomicFile *af, RwError *err)
{
  int e = 0;
  if (fsync (af->fd) != 0)
    e = errno;
  if (close (af->fd) != 0 && e == 0)
    e = errno;
  af->fd = -1;
  if (e == 0 && rename (af->tmp_path, af->path) != 0)
    e = errno;
  if (e != 0)
    {
      unlink (af->tmp_path);
      rw_fail (err, RW_ERROR_IO, _("%s: cannot write the file: %s"), af->path, strerror (e));
      release (af);
      return false;
    }
  sync_parent_dir (af->path);
  release (af);
  return true;
}

void
rw_atomic_file_abort (RwAtomicFile *af)
{
  if (af->fd >= 0)
    close (af->fd);
  if (af->tmp_path != NULL)
    unlink (af->tmp_path);
  release (af);
}

bool
rw_file_write_atomic (const char *path, const void *data, size_t len, RwError *err)
{
  RwAtomicFile af;
  if (!rw_atomic_file_open (&af, path, err))
    return false;
  if (!rw_atomic_file_write (&af, data, len, err))
    {
      rw_atomic_file_abort (&af);
      return false;
    }
  return rw_atomic_file_commit (&af, err);
}

/* ---- An output never replaces an input ---------------------------- */

/* What identifies a file for rw_file_check_outputs: its device and inode
 * when it exists; else its folder's and its last component. */
typedef struct {
  bool exists;
  dev_t dev;
  ino_t ino;
  const char *name;
} FileId;

static bool
file_id (const char *path, FileId *id)
{
  struct stat st;
  id->name = NULL;
  id->exists = stat (path, &st) == 0;
  if (!id->exists)
    {
      const size_t len = strlen (path) + 2;
      char *dir = malloc (len);
      if (dir == NULL)
        return false;
      rw_file_dirname (path, dir, len);
      bool ok = stat (dir, &st) == 0;
      free (dir);
      if (!ok)
        return false;
      const char *slash = strrchr (path, '/');
      id->name = slash ? slash + 1 : path;
    }
  id->dev = st.st_dev;
  id->ino = st.st_ino;
  return true;
}

static bool
file_id_equal (const FileId *a, const FileId *b)
{
  if (a->exists != b->exists || a->dev != b->dev || a->ino != b->ino)
    return false;
  return a->exists || strcmp (a->name, b->name) == 0;
}

bool
rw_file_check_outputs (const char *const *inputs, size_t n_inputs,
                       const char *const *outputs, size_t n_outputs, RwError *err)
{
  for (size_t o = 0; o < n_outputs; o++)
    {
      FileId out;
      if (outputs[o] == NULL || !file_id (outputs[o], &out))
        continue;
      for (size_t i = 0; out.exists && i < n_inputs; i++)
        {
          FileId in;
          if (inputs[i] != NULL && file_id (inputs[i], &in) && file_id_equal (&out, &in))
            return rw_fail (err, RW_ERROR_INPUT,
                            _("%s: is the same file as the input %s; writing it would destroy the "
                              "input, so nothing was written: choose another output file"),
                            outputs[o], inputs[i]);
        }
      for (size_t k = 0; k < o; k++)
        {
          FileId other;
          if (outputs[k] != NULL && file_id (outputs[k], &other) && file_id_equal (&out, &other))
            return rw_fail (err, RW_ERROR_INPUT,
                            _("%s and %s: the same file given as two outputs; nothing was written"),
                            outputs[k], outputs[o]);
        }
    }
  return true;
}

/* ---- Several files, all or none ----------------------------------- */

void
rw_file_set_init (RwFileSet *set)
{
  memset (set, 0, sizeof *set);
}

const char *
rw_file_set_add (RwFileSet *set, const char *dest, RwError *err)
{
  if (set->n >= RW_FILE_SET_MAX)
    {
      rw_fail (err, RW_ERROR_INTERNAL, _("%s: too many output files"), dest);
      return NULL;
    }
  const size_t len = strlen (dest) + sizeof ".part-XXXXXX";
  char *part = malloc (len);
  char *copy = strdup (dest);
  if (part == NULL || copy == NULL)
    {
      free (part);
      free (copy);
      rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory"), dest);
      return NULL;
    }
  snprintf (part, len, "%s.part-XXXXXX", dest);
  int fd = mkstemp (part);
  if (fd < 0)
    {
      int e = errno;
      free (part);
      free (copy);
      rw_fail (err, RW_ERROR_IO, _("%s: cannot create the file: %s"), dest, strerror (e));
      return NULL;
    }
  close (fd);
  set->dest[set->n] = copy;
  set->part[set->n] = part;
  set->n++;
  return part;
}

static void
file_set_release (RwFileSet *set)
{
  for (size_t i = 0; i < set->n; i++)
    {
      free (set->dest[i]);
      free (set->part[i]);
    }
  rw_file_set_init (set);
}

void
rw_file_set_abort (RwFileSet *set)
{
  for (size_t i = 0; i < set->n; i++)
    unlink (set->part[i]);
  file_set_release (set);
}

/* A hard link of `dest` under a new name beside it, so that a destination
 * replaced by a later-failing commit can be put back; NULL when dest does
 * not exist or the file system has no hard links. */
static char *
backup_link (const char *dest)
{
  const size_t len = strlen (dest) + 48;
  char *name = malloc (len);
  if (name == NULL)
    return NULL;
  for (unsigned k = 0; k < 100; k++)
    {
      snprintf (name, len, "%s.old-%ld-%u", dest, (long) getpid (), k);
      if (link (dest, name) == 0)
        return name;
      if (errno != EEXIST)
        break;
    }
  free (name);
  return NULL;
}

bool
rw_file_set_commit (RwFileSet *set, RwError *err)
{
  char *backup[RW_FILE_SET_MAX] = { NULL };
  bool existed[RW_FILE_SET_MAX] = { false };
  for (size_t i = 0; i < set->n; i++)
    {
      struct stat st;
      existed[i] = lstat (set->dest[i], &st) == 0;
      if (existed[i])
        backup[i] = backup_link (set->dest[i]);
    }
  size_t done = 0;
  int e = 0;
  for (; done < set->n; done++)
    if (rename (set->part[done], set->dest[done]) != 0)
      {
        e = errno;
        break;
      }
  if (e != 0)
    {
      /* Put back what was replaced: the old file where there was one,
       * nothing where there was none. A destination that existed but has
       * no backup (no hard links here) keeps the new file. */
      for (size_t i = 0; i < done; i++)
        if (backup[i] != NULL)
          rename (backup[i], set->dest[i]);
        else if (!existed[i])
          unlink (set->dest[i]);
      rw_fail (err, RW_ERROR_IO, _("%s: cannot write the file: %s; none of the outputs was written"),
               set->dest[done], strerror (e));
    }
  for (size_t i = 0; i < set->n; i++)
    {
      if (backup[i] != NULL)
        unlink (backup[i]);
      free (backup[i]);
      if (e == 0)
        sync_parent_dir (set->dest[i]);
      else
        unlink (set->part[i]);
    }
  file_set_release (set);
  return e == 0;
}

/* ---- A folder replaced as a whole --------------------------------- */

static int
remove_one (const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
  (void) st, (void) ftw;
  if (flag == FTW_DP)
    rmdir (path);
  else
    unlink (path);
  return 0;
}

bool
rw_file_remove_tree (const char *path)
{
  struct stat st;
  if (lstat (path, &st) != 0)
    return errno == ENOENT;
  if (S_ISDIR (st.st_mode))
    nftw (path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
  else
    unlink (path);
  return lstat (path, &st) != 0 && errno == ENOENT;
}

static char *
join (const char *dir, const char *prefix, const char *name, const char *suffix)
{
  const size_t len = strlen (dir) + strlen (prefix) + strlen (name) + strlen (suffix) + 2;
  char *s = malloc (len);
  if (s != NULL)
    snprintf (s, len, "%s%s%s%s%s", dir, strcmp (dir, "/") == 0 ? "" : "/", prefix, name, suffix);
  return s;
}

static void
staged_release (RwStagedDir *sd)
{
  if (sd->lock_fd >= 0)
    {
      /* Unlinked while still held: a writer that opened the old file and
       * locks it after us sees that the name no longer leads to it, and
       * tries again (take_lock). */
      unlink (sd->lock_path);
      close (sd->lock_fd);
    }
  free (sd->path);
  free (sd->target);
  free (sd->staging);
  free (sd->lock_path);
  free (sd->made_parent);
  memset (sd, 0, sizeof *sd);
  sd->lock_fd = -1;
}

static bool
take_lock (RwStagedDir *sd, RwError *err)
{
  for (int attempt = 0; attempt < 100; attempt++)
    {
      int fd = open (sd->lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
      if (fd < 0)
        return rw_fail (err, RW_ERROR_IO, _("%s: cannot create the lock file %s: %s"),
                        sd->path, sd->lock_path, strerror (errno));
      if (flock (fd, LOCK_EX | LOCK_NB) != 0)
        {
          int e = errno;
          close (fd);
          if (e == EWOULDBLOCK)
            return rw_fail (err, RW_ERROR_IO,
                            _("%s: another run is writing to this folder (it holds %s); wait for it "
                              "to finish or choose another output folder"),
                            sd->path, sd->lock_path);
          return rw_fail (err, RW_ERROR_IO, _("%s: cannot lock %s: %s"), sd->path, sd->lock_path,
                          strerror (e));
        }
      struct stat held, named;
      if (fstat (fd, &held) == 0 && stat (sd->lock_path, &named) == 0
          && held.st_dev == named.st_dev && held.st_ino == named.st_ino)
        {
          sd->lock_fd = fd;
          return true;
        }
      close (fd);   /* released and unlinked meanwhile: take the new one */
    }
  return rw_fail (err, RW_ERROR_IO, _("%s: cannot lock %s"), sd->path, sd->lock_path);
}

typedef struct {
  RwStagedDir *sd;
  const char *const *inputs;
  size_t n_inputs;
  RwReplaceableFn replaceable;
  void *data;
  RwError *err;
} Walk;

/* Every entry under dir (rel: its path relative to the target, "" for
 * the target itself) may be replaced, and none is an input. */
static bool
walk_replaceable (Walk *w, const char *dir, const char *rel, int depth)
{
  DIR *d = opendir (dir);
  if (d == NULL)
    return rw_fail (w->err, RW_ERROR_IO, _("%s: cannot read the folder: %s"), w->sd->path,
                    strerror (errno));
  bool ok = true;
  struct dirent *e;
  while (ok && (e = readdir (d)) != NULL)
    {
      if (strcmp (e->d_name, ".") == 0 || strcmp (e->d_name, "..") == 0)
        continue;
      char *full = join (dir, "", e->d_name, "");
      char *r = rel[0] ? join (rel, "", e->d_name, "") : strdup (e->d_name);
      struct stat st;
      if (full == NULL || r == NULL)
        ok = rw_fail (w->err, RW_ERROR_MEMORY, _("%s: out of memory"), w->sd->path);
      else if (lstat (full, &st) != 0)
        ok = rw_fail (w->err, RW_ERROR_IO, _("%s: cannot read %s: %s"), w->sd->path, r, strerror (errno));
      else
        {
          for (size_t i = 0; ok && i < w->n_inputs; i++)
            {
              struct stat in;
              if (w->inputs[i] != NULL && stat (w->inputs[i], &in) == 0
                  && in.st_dev == st.st_dev && in.st_ino == st.st_ino)
                ok = rw_fail (w->err, RW_ERROR_INPUT,
                              _("%s: holds %s, an input of this run (%s); a run replaces the whole "
                                "folder, so choose another output folder"),
                              w->sd->path, r, w->inputs[i]);
            }
          /* Folders deeper than any output nests are not walked: refused. */
          const bool is_dir = S_ISDIR (st.st_mode);
          if (ok && (!w->replaceable (r, is_dir, w->data) || (is_dir && depth >= 8)))
            ok = rw_fail (w->err, RW_ERROR_INPUT,
                          _("%s: holds %s, which is not an output of a run; a run replaces the "
                            "whole folder, so move it away or choose another output folder"),
                          w->sd->path, r);
          else if (ok && is_dir)
            ok = walk_replaceable (w, full, r, depth + 1);
        }
      free (full);
      free (r);
    }
  closedir (d);
  return ok;
}

char *
rw_file_resolve (const char *path)
{
  char *real = realpath (path, NULL);
  if (real != NULL)
    return real;
  const size_t len = strlen (path) + 2;
  char *trimmed = malloc (len), *parent = malloc (len);
  char *t = NULL;
  if (trimmed == NULL || parent == NULL)
    goto out;
  snprintf (trimmed, len, "%s", path);
  for (size_t n = strlen (trimmed); n > 1 && trimmed[n - 1] == '/'; n--)
    trimmed[n - 1] = '\0';
  const char *slash = strrchr (trimmed, '/');
  const char *base = slash ? slash + 1 : trimmed;
  if (base[0] == '\0' || strcmp (base, ".") == 0 || strcmp (base, "..") == 0)
    {
      errno = ENOENT;
      goto out;
    }
  rw_file_dirname (trimmed, parent, len);
  char *rp = realpath (parent, NULL);
  if (rp != NULL)
    t = join (rp, "", base, "");
  free (rp);
out:
  free (trimmed);
  free (parent);
  return t;
}

/* The parent of a missing path: a folder, one missing level that is made
 * now, or an error naming what is wrong. */
static bool
prepare_parent (RwStagedDir *sd, const char *path, RwError *err)
{
  const size_t len = strlen (path) + 2;
  char *parent = malloc (len);
  char *grand = malloc (len);
  bool ok = true;
  struct stat st;
  if (parent == NULL || grand == NULL)
    ok = rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory"), sd->path);
  else
    {
      rw_file_dirname (path, parent, len);
      rw_file_dirname (parent, grand, len);
      if (stat (parent, &st) == 0)
        {
          if (!S_ISDIR (st.st_mode))
            ok = rw_fail (err, RW_ERROR_IO, _("%s: cannot create the output folder: %s is not a folder"),
                          sd->path, parent);
        }
      else if (errno != ENOENT)
        ok = rw_fail (err, RW_ERROR_IO, _("%s: cannot create the output folder: %s"), sd->path,
                      strerror (errno));
      else if (stat (grand, &st) != 0 || !S_ISDIR (st.st_mode))
        ok = rw_fail (err, RW_ERROR_IO,
                      _("%s: cannot create the output folder: %s does not exist or is not a folder "
                        "(a missing output folder is made, and one missing folder above it, no more)"),
                      sd->path, grand);
      else if (mkdir (parent, 0777) != 0)
        ok = rw_fail (err, RW_ERROR_IO, _("%s: cannot create the folder %s: %s"), sd->path, parent,
                      strerror (errno));
      else
        {
          sd->made_parent = parent;
          parent = NULL;
        }
    }
  free (parent);
  free (grand);
  return ok;
}

/* The target is neither the current folder nor above it: the swap would
 * pull the folder away under the user's (and our) feet. */
static bool
holds_cwd (const char *target)
{
  char *cwd = getcwd (NULL, 0);
  if (cwd == NULL)
    return false;
  const size_t n = strlen (target);
  bool holds = strncmp (cwd, target, n) == 0 && (cwd[n] == '\0' || cwd[n] == '/' || n == 1);
  free (cwd);
  return holds;
}

/* Whether process pid exists on this host and is not a zombie (a killed
 * process whose parent has not reaped it yet is gone for our purpose). */
static bool
process_alive (long pid)
{
  if (kill ((pid_t) pid, 0) != 0)
    return errno != ESRCH;
  char path[64], buf[256];
  snprintf (path, sizeof path, "/proc/%ld/stat", pid);
  FILE *f = fopen (path, "r");
  if (f == NULL)
    return true;
  const size_t got = fread (buf, 1, sizeof buf - 1, f);
  fclose (f);
  buf[got] = '\0';
  /* "pid (comm) S …": the state follows the last ')' */
  const char *close = strrchr (buf, ')');
  return close == NULL || close[1] == '\0' || close[2] != 'Z';
}

/* Removes parent/.tbase.new-PID-K folders whose process PID no longer
 * exists on this host (rw_staged_dir_open's staging names). */
static void
remove_stale_staging (const char *parent, const char *tbase)
{
  DIR *d = opendir (parent);
  if (d == NULL)
    return;
  char prefix[512];
  snprintf (prefix, sizeof prefix, ".%s.new-", tbase);
  const size_t n = strlen (prefix);
  struct dirent *e;
  while ((e = readdir (d)) != NULL)
    {
      long pid = 0;
      unsigned k = 0;
      char end = 0;
      if (strncmp (e->d_name, prefix, n) != 0
          || sscanf (e->d_name + n, "%ld-%u%c", &pid, &k, &end) != 2 || pid <= 0
          || pid == (long) getpid () || process_alive (pid))
        continue;
      const size_t len = strlen (parent) + strlen (e->d_name) + 2;
      char *path = malloc (len);
      if (path != NULL)
        {
          snprintf (path, len, "%s/%s", parent, e->d_name);
          rw_file_remove_tree (path);
          free (path);
        }
    }
  closedir (d);
}

bool
rw_staged_dir_open (RwStagedDir *sd, const char *path, const char *const *inputs,
                    size_t n_inputs, RwReplaceableFn replaceable, void *data, RwError *err)
{
  memset (sd, 0, sizeof *sd);
  sd->lock_fd = -1;
  if (path == NULL || path[0] == '\0')
    return rw_fail (err, RW_ERROR_INPUT, _("No output folder given"));
  sd->path = strdup (path);
  if (sd->path == NULL)
    {
      staged_release (sd);
      return rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory"), path);
    }
  /* "out/" and "out" name the same folder. */
  for (size_t n = strlen (sd->path); n > 1 && sd->path[n - 1] == '/'; n--)
    sd->path[n - 1] = '\0';
  const char *slash = strrchr (sd->path, '/');
  const char *base = slash ? slash + 1 : sd->path;

  bool ok = true;
  struct stat st;
  const bool exists = stat (sd->path, &st) == 0;
  if (exists && !S_ISDIR (st.st_mode))
    ok = rw_fail (err, RW_ERROR_IO, _("%s: exists and is not a folder"), sd->path);
  else if (!exists && errno != ENOENT && errno != ENOTDIR)
    ok = rw_fail (err, RW_ERROR_IO, _("%s: %s"), sd->path, strerror (errno));
  else if (!exists && (strcmp (base, ".") == 0 || strcmp (base, "..") == 0))
    ok = rw_fail (err, RW_ERROR_IO, _("%s: %s"), sd->path, strerror (ENOENT));
  else if (!exists)
    ok = prepare_parent (sd, sd->path, err);
  /* the folder path names once made (its parent exists: made above) */
  if (ok && (sd->target = rw_file_resolve (sd->path)) == NULL)
    ok = rw_fail (err, RW_ERROR_IO, _("%s: cannot resolve the folder's name: %s"), sd->path,
                  strerror (errno));
  if (ok && (strcmp (sd->target, "/") == 0 || holds_cwd (sd->target)))
    ok = rw_fail (err, RW_ERROR_INPUT,
                  _("%s: is the current folder or one above it; a run replaces the whole output "
                    "folder, so choose another"), sd->path);

  char *parent = NULL;
  const char *tbase = NULL;
  if (ok)
    {
      const size_t len = strlen (sd->target) + 2;
      parent = malloc (len);
      if (parent == NULL)
        ok = rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory"), sd->path);
      else
        {
          rw_file_dirname (sd->target, parent, len);
          tbase = strrchr (sd->target, '/') + 1;
        }
    }
  /* A mount point cannot be renamed: the swap would fail after the run. */
  struct stat pst;
  if (ok && stat (sd->target, &st) == 0 && stat (parent, &pst) == 0 && st.st_dev != pst.st_dev)
    ok = rw_fail (err, RW_ERROR_INPUT,
                  _("%s: is a mount point, which a run cannot replace as a whole; choose a "
                    "folder inside it"), sd->path);
  if (ok && access (parent, W_OK | X_OK) != 0)
    ok = rw_fail (err, RW_ERROR_IO, _("%s: cannot write in the folder %s: %s"), sd->path, parent,
                  strerror (errno));
  if (ok && (sd->lock_path = join (parent, ".", tbase, ".lock")) == NULL)
    ok = rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory"), sd->path);
  if (ok)
    ok = take_lock (sd, err);
  /* Under the lock: the staging folders of runs that were killed (their
   * process is gone: SIGKILL, a node lost) are litter, not results */
  if (ok)
    remove_stale_staging (parent, tbase);
  /* Under the lock: what the folder holds now is what the swap replaces. */
  if (ok && stat (sd->target, &st) == 0)
    {
      if (access (sd->target, W_OK | X_OK) != 0 || (st.st_mode & 0222) == 0)
        ok = rw_fail (err, RW_ERROR_IO,
                      _("%s: the folder is read-only; make it writable or choose another output folder"),
                      sd->path);
      if (ok)
        {
          Walk w = { sd, inputs, n_inputs, replaceable, data, err };
          ok = walk_replaceable (&w, sd->target, "", 0);
        }
    }
  if (ok)
    {
      /* The new folder: made with mkdir, so that the umask applies as to
       * any folder; an existing target's mode carries over. */
      const size_t len = strlen (parent) + strlen (tbase) + 64;
      sd->staging = malloc (len);
      if (sd->staging == NULL)
        ok = rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory"), sd->path);
      for (unsigned k = 0; ok; k++)
        {
          snprintf (sd->staging, len, "%s/.%s.new-%ld-%u", parent, tbase, (long) getpid (), k);
          if (mkdir (sd->staging, 0777) == 0)
            break;
          if (errno != EEXIST || k > 1000)
            {
              ok = rw_fail (err, RW_ERROR_IO, _("%s: cannot create the folder %s: %s"), sd->path,
                            sd->staging, strerror (errno));
              free (sd->staging);
              sd->staging = NULL;
            }
        }
      if (ok && stat (sd->target, &st) == 0)
        (void) chmod (sd->staging, st.st_mode & 07777);
    }
  free (parent);
  if (!ok)
    rw_staged_dir_abort (sd);
  return ok;
}

void
rw_staged_dir_abort (RwStagedDir *sd)
{
  if (sd->staging != NULL)
    rw_file_remove_tree (sd->staging);
  /* The lock file lives in a parent open made: released first. */
  char *made = sd->made_parent;
  sd->made_parent = NULL;
  staged_release (sd);
  if (made != NULL)
    rmdir (made);   /* only when still empty */
  free (made);
}

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)   /* <linux/fs.h>; glibc < 2.28 lacks it */
#endif

/* renameat2 (RENAME_EXCHANGE): both names stay taken throughout. Through
 * the system call, which every Linux since 3.15 has, whatever the C
 * library's version; false with errno set where it is missing or the file
 * system refuses it, or when RW_TEST_NO_RENAME_EXCHANGE is set (so that a
 * test can take the fallback). */
static bool
exchange (const char *a, const char *b)
{
#if defined(__linux__) && defined(SYS_renameat2)
  if (getenv ("RW_TEST_NO_RENAME_EXCHANGE") != NULL)
    {
      errno = EINVAL;
      return false;
    }
  return syscall (SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) == 0;
#else
  (void) a, (void) b;
  errno = ENOSYS;
  return false;
#endif
}

bool
rw_staged_dir_commit (RwStagedDir *sd, RwError *err)
{
  struct stat st;
  bool ok = true;
  char *old = NULL;   /* the previous contents once out of the way */
  if (lstat (sd->target, &st) != 0)
    {
      if (rename (sd->staging, sd->target) != 0)
        ok = rw_fail (err, RW_ERROR_IO, _("%s: cannot create the output folder: %s"), sd->path,
                      strerror (errno));
    }
  else if (exchange (sd->staging, sd->target))
    {
      old = sd->staging;   /* now holds the previous contents */
      sd->staging = NULL;
    }
  else
    {
      /* No exchange here (an old kernel, some network file systems): move
       * the previous folder aside, the new one in, and back on failure. */
      const size_t len = strlen (sd->staging) + 8;
      old = malloc (len);
      if (old == NULL)
        ok = rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory"), sd->path);
      else
        {
          snprintf (old, len, "%s.old", sd->staging);
          if (rename (sd->target, old) != 0)
            {
              ok = rw_fail (err, RW_ERROR_IO, _("%s: cannot replace the folder: %s"), sd->path,
                            strerror (errno));
              free (old);
              old = NULL;
            }
          else if (rename (sd->staging, sd->target) != 0)
            {
              ok = rw_fail (err, RW_ERROR_IO, _("%s: cannot replace the folder: %s"), sd->path,
                            strerror (errno));
              rename (old, sd->target);
              free (old);
              old = NULL;
            }
        }
    }
  if (ok)
    sync_parent_dir (sd->target);
  if (old != NULL)
    rw_file_remove_tree (old);
  free (old);
  if (ok)
    {
      free (sd->made_parent);   /* it holds the output now */
      sd->made_parent = NULL;
    }
  rw_staged_dir_abort (sd);
  return ok;
}
bool
rw_file_check_regular (const char *path, const struct stat *st, const char *what, RwError *err)
{
  if (S_ISDIR (st->st_mode))
    return rw_fail (err, RW_ERROR_IO, _("%s: is a folder; give the path of %s"), path, what);
  if (!S_ISREG (st->st_mode))
    return rw_fail (err, RW_ERROR_IO,
                    _("%s: not a regular file (a device, pipe or socket); give the path of %s"), path, what);
  return true;
}

bool
rw_file_make_dir (const char *dir, const char *what, RwError *err)
{
  struct stat st;
  if (stat (dir, &st) == 0)
    {
      if (!S_ISDIR (st.st_mode))
        return rw_fail (err, RW_ERROR_IO, _("%s: exists and is not a folder"), dir);
      return true;
    }
  /* another process (a rank of the same job) may make it meanwhile */
  if (mkdir (dir, 0755) == 0 || (errno == EEXIST && stat (dir, &st) == 0 && S_ISDIR (st.st_mode)))
    return true;
  if (errno == ENOENT)
    {
      /* One missing parent, as `mkdir -p` would make. */
      char *parent = strdup (dir);
      char *slash = parent ? strrchr (parent, '/') : NULL;
      if (slash != NULL && slash != parent)
        {
          *slash = '\0';
          bool made = mkdir (parent, 0755) == 0 || errno == EEXIST;
          free (parent);
          if (made && (mkdir (dir, 0755) == 0
                       || (errno == EEXIST && stat (dir, &st) == 0 && S_ISDIR (st.st_mode))))
            return true;
        }
      else
        free (parent);
    }
  return rw_fail (err, RW_ERROR_IO, _("%s: cannot create %s: %s"), dir, what, strerror (errno));
}
