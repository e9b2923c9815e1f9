/* rw-file.h — writing files atomically.
 *
 * Every file Roomwave writes (IRs, JSON, CSV, PDF, PNG, SVG, auralised
 * audio) goes first to a temporary file next to the destination (same
 * folder, hence same file system, so that rename() is atomic), is synced,
 * and only then renamed over the destination. A reader never sees a
 * half-written file, an existing destination survives a failed write, and
 * a failure leaves no temporary file behind.
 *
 *   RwAtomicFile af;
 *   if (!rw_atomic_file_open (&af, path, err))
 *     return false;
 *   … write to af.fd, or let a library write to af.tmp_path …
 *   if (failed)
 *     {
 *       rw_atomic_file_abort (&af);
 *       return rw_fail (err, …);
 *     }
 *   return rw_atomic_file_commit (&af, err);
 *
 * Messages name the destination (never the temporary name) and the cause.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include "rw-error.h"

typedef struct {
  char *path;      /* the destination, as given */
  char *tmp_path;  /* the temporary file next to it */
  int fd;          /* open for writing on tmp_path; −1 once closed */
} RwAtomicFile;

/* Creates the temporary file (mode 0644: results are ordinary documents).
 * On failure (RW_ERROR_IO naming `path`, or RW_ERROR_MEMORY) `af` is left
 * empty (fd −1, no names), so that aborting it is harmless. */
bool rw_atomic_file_open (RwAtomicFile *af, const char *path, RwError *err);

/* Writes all of data to af->fd, retrying short writes; on failure fills
 * `err` (RW_ERROR_IO naming the destination) and leaves `af` open, so that
 * the caller aborts it. */
bool rw_atomic_file_write (RwAtomicFile *af, const void *data, size_t len, RwError *err);

/* fsync, close, rename over the destination, then a best-effort fsync of
 * the folder so that the rename itself survives a crash. On failure the
 * temporary file is removed and `err` names the destination. Either way
 * `af` is released. */
bool rw_atomic_file_commit (RwAtomicFile *af, RwError *err);

/* Closes and removes the temporary file; the destination is untouched.
 * Harmless on an `af` whose open failed or that was already committed or
 * aborted. */
void rw_atomic_file_abort (RwAtomicFile *af);

/* All of data[0 … len) to fd, retrying short and interrupted writes;
 * false with errno set when the descriptor refuses (a full disk, a closed
 * pipe). */
bool rw_file_write_all (int fd, const void *data, size_t len);

/* The folder of path into buf: "." when path names none, "/" for a file
 * at the root. */
void rw_file_dirname (const char *path, char *buf, size_t len);

/* The whole of data[0 … len) into path, atomically. */
bool rw_file_write_atomic (const char *path, const void *data, size_t len, RwError *err);

/* Reading: whether `st` (from stat or fstat of path) is a regular file.
 * A folder fails with "is a folder, not <what>" (what: "a mesh file",
 * "a JSON file"), a device, pipe or socket (/dev/zero, a FIFO) with a
 * message saying so: their size says nothing about their content, so
 * they are neither "empty" nor read without bound. RW_ERROR_IO, naming
 * path. */
struct stat;
bool rw_file_check_regular (const char *path, const struct stat *st, const char *what, RwError *err);
