/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

bool
rw_cli_parse_double (const char *s, double lo, double hi, double *out)
{
  if (s == NULL || *s == '\0')
    return false;
  char *end;
  errno = 0;
  double v = strtod (s, &end);
  if (errno != 0 || *end != '\0' || !isfinite (v) || v < lo || v > hi)
    return false;
  *out = v;
  return true;
}

bool
rw_cli_parse_int (const char *s, long lo, long hi, long *out)
{
  if (s == NULL || *s == '\0')
    return false;
  char *end;
  errno = 0;
  long v = strtol (s, &end, 10);
  if (errno != 0 || *end != '\0' || v < lo || v > hi)
    return false;
  *out = v;
  return true;
}

bool
rw_cli_parse_vec3 (const char *s, double v[3])
{
  /* Exactly three comma-separated fields, each a whole finite number:
   * split by hand, since strtok would merge "1,,1" into two fields and
   * take "1,,1,1" for three. */
  if (s == NULL)
    return false;
  const char *field = s;
  for (int i = 0; i < 3; i++)
    {
      const char *comma = strchr (field, ',');
      size_t len = comma ? (size_t) (comma - field) : strlen (field);
      if ((i < 2) != (comma != NULL))
        return false;   /* too few fields, or more than three */
      char buf[64];
      if (len == 0 || len >= sizeof buf)
        return false;
      memcpy (buf, field, len);
      buf[len] = '\0';
      if (!rw_cli_parse_double (buf, -1e6, 1e6, &v[i]))
        return false;
      field = comma ? comma + 1 : field + len;
    }
  return true;
}

int
rw_cli_usage_error (const char *sub, const char *fmt, ...)
{
  va_list ap;
  fprintf (stderr, "roomwave-cli %s: ", sub);
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fprintf (stderr, "\n");
  fprintf (stderr, _("Try 'roomwave-cli %s --help'.\n"), sub);
  return RW_EXIT_USAGE;
}

int
rw_cli_fail (const RwError *err)
{
  fprintf (stderr, "roomwave-cli: %s\n", err->message[0] ? err->message : _("unknown error"));
  switch (err->code)
    {
    case RW_OK:
      return RW_EXIT_OK;
    case RW_ERROR_CANCELLED:
    case RW_ERROR_INPUT:
    case RW_ERROR_IO:
    case RW_ERROR_MEMORY:
    case RW_ERROR_UNSTABLE:
    case RW_ERROR_UNSUPPORTED:
    case RW_ERROR_INTERNAL:
    default:
      return RW_EXIT_INPUT;
    }
}

int
rw_cli_bad_option (const char *sub, char **argv)
{
  if (optopt)
    return rw_cli_usage_error (sub, _("unknown option or missing value near '%s'"), argv[optind - 1]);
  return rw_cli_usage_error (sub, _("unknown option '%s'"), argv[optind - 1]);
}

int
rw_cli_json_options (const char *sub, int argc, char **argv, void (*print_usage) (FILE *out),
                     bool *as_json)
{
  static const struct option options[] = {
    { "json", no_argument, NULL, 'j' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
  };
  *as_json = false;
  optind = 0;   /* glibc: full re-initialisation, argv[0] is the subcommand */
  opterr = 0;
  int c;
  while ((c = getopt_long (argc, argv, "h", options, NULL)) != -1)
    {
      if (c == 'j')
        *as_json = true;
      else if (c == 'h')
        {
          print_usage (stdout);
          return RW_EXIT_OK;
        }
      else
        return rw_cli_bad_option (sub, argv);
    }
  return -1;
}

int
rw_cli_print_owned (char *text, const char *end)
{
  if (text == NULL)
    {
      RwError err = { 0 };
      rw_fail (&err, RW_ERROR_MEMORY, _("out of memory"));
      return rw_cli_fail (&err);
    }
  fputs (text, stdout);
  fputs (end, stdout);
  free (text);
  return RW_EXIT_OK;
}
