/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-error.h — errors as values.
 *
 * Every engine function that can fail on user input takes an `RwError *`
 * (which may be NULL) and returns false / NULL on failure after filling it
 * with a translated message that names the file or parameter and the
 * problem. The library never prints and never exits; the CLI maps codes to
 * exit statuses (RW_ERROR_INPUT, RW_ERROR_IO → 1) and the GUI to dialogs.
 */
#pragma once

#include <stdarg.h>
#include <stdbool.h>

typedef enum {
  RW_OK = 0,
  RW_ERROR_INPUT,        /* bad user input: file content, parameter values */
  RW_ERROR_IO,           /* missing, unreadable or unwritable file */
  RW_ERROR_MEMORY,       /* allocation failed or predicted not to fit */
  RW_ERROR_UNSTABLE,     /* the simulation produced non-finite values */
  RW_ERROR_CANCELLED,    /* the user cancelled */
  RW_ERROR_UNSUPPORTED,  /* feature not built in, or no device present */
  RW_ERROR_INTERNAL,     /* a bug: an invariant did not hold */
} RwErrorCode;

typedef struct {
  RwErrorCode code;
  char message[1024];
} RwError;

/* Fills `err` (when not NULL) and returns false, so that a failure path
 * reads `return rw_fail (err, RW_ERROR_INPUT, _("%s: …"), path);`. */
bool rw_fail (RwError *err, RwErrorCode code, const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));
bool rw_failv (RwError *err, RwErrorCode code, const char *fmt, va_list ap);

/* Prefixes an existing message: "context: old message". */
bool rw_fail_prefix (RwError *err, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

void rw_error_clear (RwError *err);

/* Warnings: what the user should know about input that is still used (a
 * WAV file shorter than its header says). The engine hands each message
 * (translated, naming the file) to the handler the application set: the
 * CLI prints it on stderr. With no handler it is dropped, since the
 * library never prints. The handler may be called from any thread. */
typedef void (*RwWarnFn) (const char *message, void *user_data);
void rw_set_warn_handler (RwWarnFn fn, void *user_data);
void rw_warn (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));
