/* SPDX-License-Identifier: GPL-3.0-or-later */
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
/* A folder's name as the system sees it: absolute, links resolved — of
 * the path where it exists, else of its parent with the last component
 * appended (a folder about to be made). NULL (errno set) where neither
 * resolves, or the last component of a missing path is "." or "..".
 * Trailing slashes are ignored. Free with free(). */
char *rw_file_resolve (const char *path);

/* The whole of data[0 … len) into path, atomically. */
bool rw_file_write_atomic (const char *path, const void *data, size_t len, RwError *err);

/* ---- An output never replaces an input ------------------------------
 *
 * A command that reads files and writes others refuses, before it reads
 * anything, an output that is the same file as one of its inputs (the
 * input would be replaced by the result) or as another of its outputs.
 * "The same file" is the same device and inode, so "x.wav", "./x.wav", a
 * symbolic link to it and a hard link of it are all caught. An output that
 * does not exist yet can only clash with another output of the same name
 * (its folder's device and inode and the same last component). NULL
 * entries (options not given) are skipped. RW_ERROR_INPUT naming both
 * paths as the user gave them. */
bool rw_file_check_outputs (const char *const *inputs, size_t n_inputs,
                            const char *const *outputs, size_t n_outputs, RwError *err);

/* ---- Several files, all or none --------------------------------------
 *
 * For a command with several outputs (compare --report --csv --json-out):
 * each output is first written under a part name next to it
 * ("R.csv.part-XXXXXX", by any writer, atomic or not); commit renames all
 * parts over their destinations, or — when one rename fails — puts the
 * destinations back as they were (those that existed are restored from
 * hard-link backups) and removes the parts. abort removes the parts. */
#define RW_FILE_SET_MAX 8

typedef struct {
  size_t n;
  char *dest[RW_FILE_SET_MAX];
  char *part[RW_FILE_SET_MAX];
} RwFileSet;

void rw_file_set_init (RwFileSet *set);
/* Reserves the part file for `dest` (an empty file exists there once this
 * returns) and returns its name, owned by the set; NULL with `err` set on
 * failure. */
const char *rw_file_set_add (RwFileSet *set, const char *dest, RwError *err);
bool rw_file_set_commit (RwFileSet *set, RwError *err);
void rw_file_set_abort (RwFileSet *set);

/* ---- A folder replaced as a whole ------------------------------------
 *
 * A simulation writes several files into one folder (--out DIR). So that
 * DIR never mixes two runs, the run writes into a new folder beside it
 * (".DIR.new-…") and commit swaps that in for DIR in one step
 * (renameat2 RENAME_EXCHANGE; where the file system refuses it, DIR is
 * renamed aside first and put back if the second rename fails), then
 * removes the previous contents. Until the swap, DIR keeps what it had.
 * (The environment variable RW_TEST_NO_RENAME_EXCHANGE makes commit take
 * the fallback, for tests.)
 *
 * open does every check that can fail before the (possibly hours long)
 * work that fills the folder:
 *   - DIR is a folder or can be made: its parent exists, or the parent's
 *     parent does (open then makes that one missing level, and abort removes
 *     it again if it is still empty); nothing on the way is a file;
 *   - the parent is writable; an existing DIR is writable and not marked
 *     read-only (no write bit at all — refused even for root);
 *   - DIR is neither the current folder nor one above it, nor a mount
 *     point (which cannot be renamed);
 *   - a lock: flock on ".DIR.lock" beside DIR, taken without waiting, so
 *     that a second writer to the same folder fails at once; held until
 *     commit or abort, which remove the lock file;
 *   - everything an existing DIR holds may be replaced: `replaceable`
 *     accepts each entry by its path relative to DIR ("source-1/x.wav";
 *     a folder's entries are visited only when the folder is accepted), and
 *     none of them is one of `inputs` (device and inode).
 * Symbolic links to DIR are followed: the folder they point at is swapped.
 * Messages name DIR as given. */
typedef bool (*RwReplaceableFn) (const char *rel_path, bool is_dir, void *data);

typedef struct {
  char *path;         /* the folder as given: messages */
  char *target;       /* the folder swapped (absolute, links resolved) */
  char *staging;      /* the new folder beside it: the caller writes here */
  char *lock_path;
  char *made_parent;  /* the parent open made, or NULL */
  int lock_fd;
} RwStagedDir;

bool rw_staged_dir_open (RwStagedDir *sd, const char *path, const char *const *inputs,
                         size_t n_inputs, RwReplaceableFn replaceable, void *data, RwError *err);
/* Swaps the staging folder in for the target and releases the lock. On
 * failure the target is as it was before and the staging folder is gone.
 * Either way `sd` is released. */
bool rw_staged_dir_commit (RwStagedDir *sd, RwError *err);
/* Removes the staging folder (and a parent open made, when empty) and
 * releases the lock; the target is untouched. Harmless on a released or
 * failed `sd`. */
void rw_staged_dir_abort (RwStagedDir *sd);

/* Makes folder dir, and one missing folder above it as `mkdir -p` would
 * (no more); a folder that is there already is fine, anything else
 * there fails. what: the folder's role for the message ("the output
 * folder", translated). */
bool rw_file_make_dir (const char *dir, const char *what, RwError *err);
/* Removes path and, when it is a folder, everything under it (no link is
 * followed). Best effort: false when something could not be removed. */
bool rw_file_remove_tree (const char *path);
/* Reading: whether `st` (from stat or fstat of path) is a regular file.
 * A folder fails with "is a folder, not <what>" (what: "a mesh file",
 * "a JSON file"), a device, pipe or socket (/dev/zero, a FIFO) with a
 * message saying so: their size says nothing about their content, so
 * they are neither "empty" nor read without bound. RW_ERROR_IO, naming
 * path. */
struct stat;
bool rw_file_check_regular (const char *path, const struct stat *st, const char *what, RwError *err);
