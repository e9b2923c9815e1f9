/* rw-file.c — writing files atomically; see rw-file.h. */
#include "rw-file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
