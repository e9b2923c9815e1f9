/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-helper.h — a library's work on a user's file in the helper process
 * (roomwave-import-helper, rw_import_helper_path in rw-mesh.h), so that a
 * library that crashes or hangs on a damaged file ends only the helper
 * (DESIGN §6): rw-import.c runs Assimp there, rw-hrtf.c libmysofa. The
 * helper is started with posix_spawn, never a fork() of the caller (a
 * fork of a multi-threaded process may only call async-signal-safe
 * functions), with its stdout on a pipe and its stderr on /dev/null. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include "rw-error.h"

/* Whether the caller is told to work in-process, without the helper
 * (ROOMWAVE_IMPORT_IN_PROCESS set to anything but empty or "0":
 * debugging, the fuzz targets). */
bool rw_helper_in_process (void);

/* Starts the helper with `args` (its argv after the program's name,
 * NULL-ended): its pid, *fd the read end of its stdout (close-on-exec);
 * −1 when no helper is installed or it could not be started. */
pid_t rw_helper_spawn (char *const args[], int *fd);

/* Runs the helper to its end: all it writes on stdout, at most `max`
 * bytes, into *out (malloc'd, NUL-ended, *len bytes); how it ended into
 * *status (as waitpid gives it). A helper still running after limit_s
 * seconds is killed (*timed_out). False when it could not be started
 * (the caller then works in-process) or memory ran out. */
bool rw_helper_run (char *const args[], double limit_s, size_t max, char **out, size_t *len, int *status,
                    bool *timed_out);

/* Why a helper gave no message, as an RW_ERROR_INPUT naming `path`: it ran
 * past limit_s (timed_out), `library` crashed (killed by a signal), or it
 * ended with another exit status (`status` as waitpid gives it). Returns
 * false. */
bool rw_helper_failure (const char *path, const char *library, double limit_s, bool timed_out, int status,
                        RwError *err);
