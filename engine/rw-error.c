/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "rw-error.h"

#include <stdio.h>
#include <string.h>

bool
rw_failv (RwError *err, RwErrorCode code, const char *fmt, va_list ap)
{
  if (err == NULL)
    return false;
  err->code = code;
  vsnprintf (err->message, sizeof err->message, fmt, ap);
  return false;
}

bool
rw_fail (RwError *err, RwErrorCode code, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  rw_failv (err, code, fmt, ap);
  va_end (ap);
  return false;
}

bool
rw_fail_prefix (RwError *err, const char *fmt, ...)
{
  if (err == NULL)
    return false;
  char prefix[512], old[sizeof err->message];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (prefix, sizeof prefix, fmt, ap);
  va_end (ap);
  memcpy (old, err->message, sizeof old);
  /* Truncation of an over-long message is acceptable: built in two steps
   * so that the compiler sees the bound. */
  size_t n = (size_t) snprintf (err->message, sizeof err->message, "%s: ", prefix);
  if (n < sizeof err->message)
    strncat (err->message, old, sizeof err->message - n - 1);
  return false;
}

void
rw_error_clear (RwError *err)
{
  if (err == NULL)
    return;
  err->code = RW_OK;
  err->message[0] = '\0';
}

static RwWarnFn warn_fn;
static void *warn_data;

void
rw_set_warn_handler (RwWarnFn fn, void *user_data)
{
  warn_fn = fn;
  warn_data = user_data;
}

void
rw_warn (const char *fmt, ...)
{
  if (warn_fn == NULL)
    return;
  char msg[1024];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (msg, sizeof msg, fmt, ap);
  va_end (ap);
  warn_fn (msg, warn_data);
}
