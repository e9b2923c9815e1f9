/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-json.c — shared json-c helpers; see rw-json.h. */
#include "rw-json.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rw-file.h"
#include "rw-i18n.h"

json_object *
rw_json_number (double v)
{
  if (!isfinite (v))
    return NULL;
  /* The shortest of 15 or 17 significant digits that reads back as v
   * (LC_NUMERIC is "C": rw_i18n_init), and a double stays one in the
   * text. */
  char buf[40];
  snprintf (buf, sizeof buf, "%.15g", v);
  if (strtod (buf, NULL) != v)
    snprintf (buf, sizeof buf, "%.17g", v);
  if (strpbrk (buf, ".e") == NULL)
    strcat (buf, ".0");
  return json_object_new_double_s (v, buf);
}

json_object *
rw_json_numbers (const double *v, size_t n)
{
  json_object *a = json_object_new_array ();
  for (size_t k = 0; k < n; k++)
    json_object_array_add (a, rw_json_number (v[k]));
  return a;
}

json_object *
rw_json_vec3 (const double v[3])
{
  return rw_json_numbers (v, 3);
}

char *
rw_json_take_string (json_object *root)
{
  const char *s = json_object_to_json_string_ext (root, JSON_C_TO_STRING_PRETTY
                                                  | JSON_C_TO_STRING_NOSLASHESCAPE);
  char *copy = s ? strdup (s) : NULL;
  json_object_put (root);
  return copy;
}

#define RW_JSON_MAX_BYTES (64u << 20)

/* Line and column (from 1) of byte offset `at` in text. */
static void
line_column (const char *text, size_t at, int *line, int *column)
{
  *line = 1;
  size_t start = 0;
  for (size_t i = 0; i < at; i++)
    if (text[i] == '\n')
      {
        (*line)++;
        start = i + 1;
      }
  *column = (int) (at - start) + 1;
}

/* The end of the string literal that opens at text[i] (the index of its
 * closing quote), or n. */
static size_t
string_end (const char *text, size_t n, size_t i)
{
  for (i++; i < n; i++)
    if (text[i] == '\\')
      i++;
    else if (text[i] == '"')
      return i;
  return n;
}

/* On text json-c has accepted: the first key that appears twice in one
 * object, as its offset and length (quotes excluded); false when none.
 * Keys are compared as written (json-c would fold "a" and "\u0061" too,
 * which no hand-written map does). */
static bool
find_duplicate_key (const char *text, size_t n, size_t *dup_at, size_t *dup_len)
{
  enum { MAX_DEPTH = 256 };
  typedef struct { size_t at, len; } Span;
  struct { bool object, expect_key; size_t base; } stack[MAX_DEPTH];
  int depth = 0;
  Span *keys = NULL;
  size_t n_keys = 0, cap = 0;
  bool found = false;
  for (size_t i = 0; i < n && !found; i++)
    {
      char c = text[i];
      if (c == '{' || c == '[')
        {
          if (depth == MAX_DEPTH)
            break;   /* deeper than json-c parses: not reached */
          stack[depth].object = c == '{';
          stack[depth].expect_key = c == '{';
          stack[depth].base = n_keys;
          depth++;
        }
      else if ((c == '}' || c == ']') && depth > 0)
        n_keys = stack[--depth].base;
      else if (c == ',' && depth > 0 && stack[depth - 1].object)
        stack[depth - 1].expect_key = true;
      else if (c == '"')
        {
          size_t end = string_end (text, n, i);
          if (depth > 0 && stack[depth - 1].object && stack[depth - 1].expect_key)
            {
              Span k = { i + 1, end - i - 1 };
              for (size_t j = stack[depth - 1].base; j < n_keys && !found; j++)
                if (keys[j].len == k.len && memcmp (text + keys[j].at, text + k.at, k.len) == 0)
                  {
                    *dup_at = k.at;
                    *dup_len = k.len;
                    found = true;
                  }
              if (n_keys == cap)
                {
                  size_t cap2 = cap ? 2 * cap : 64;
                  Span *k2 = realloc (keys, cap2 * sizeof *k2);
                  if (k2 == NULL)
                    break;   /* no memory for the check: json-c's value stands */
                  keys = k2;
                  cap = cap2;
                }
              keys[n_keys++] = k;
              stack[depth - 1].expect_key = false;
            }
          i = end;
        }
    }
  free (keys);
  return found;
}

/* The whole file into a 0-terminated buffer; *len its length. */
static char *
read_whole (const char *path, size_t *len, RwError *err)
{
  FILE *f = fopen (path, "rb");
  if (f == NULL)
    {
      rw_fail (err, RW_ERROR_IO, _("%s: cannot open: %s"), path, strerror (errno));
      return NULL;
    }
  struct stat st;
  if (fstat (fileno (f), &st) != 0)
    {
      rw_fail (err, RW_ERROR_IO, _("%s: cannot open: %s"), path, strerror (errno));
      fclose (f);
      return NULL;
    }
  if (!rw_file_check_regular (path, &st, _("a JSON file"), err))
    {
      fclose (f);
      return NULL;
    }
  if (st.st_size > (off_t) RW_JSON_MAX_BYTES)
    {
      fclose (f);
      rw_fail (err, RW_ERROR_INPUT, _("%s: %.0f MB is too large for a JSON settings file"), path,
               (double) st.st_size / 1e6);
      return NULL;
    }
  size_t cap = (size_t) st.st_size + 1, n = 0;
  char *buf = malloc (cap + 1);
  if (buf == NULL)
    {
      fclose (f);
      rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory"), path);
      return NULL;
    }
  /* Up to one byte more than stat promised, to notice a file that grew. */
  n = fread (buf, 1, cap, f);
  int read_errno = ferror (f) ? errno : 0;
  fclose (f);
  if (read_errno != 0)
    {
      free (buf);
      rw_fail (err, RW_ERROR_IO, _("%s: read error: %s"), path, strerror (read_errno));
      return NULL;
    }
  if (n == 0)
    {
      free (buf);
      rw_fail (err, RW_ERROR_INPUT, _("%s: the file is empty (expected JSON)"), path);
      return NULL;
    }
  buf[n] = '\0';
  *len = n;
  return buf;
}

json_object *
rw_json_parse_file (const char *path, RwError *err)
{
  size_t n = 0;
  char *buf = read_whole (path, &n, err);
  if (buf == NULL)
    return NULL;
  struct json_tokener *tok = json_tokener_new ();
  if (tok == NULL)
    {
      free (buf);
      rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory"), path);
      return NULL;
    }
  /* One call on the whole text (json_tokener_continue then means the text
   * ended mid-value); json-c's own messages stay out of stderr, the reason
   * goes into ours. */
  struct json_object *root = json_tokener_parse_ex (tok, buf, (int) n);
  enum json_tokener_error jerr = json_tokener_get_error (tok);
  size_t end = json_tokener_get_parse_end (tok);
  json_tokener_free (tok);
  int line, column;
  if (root == NULL || jerr != json_tokener_success)
    {
      json_object_put (root);
      root = NULL;
      line_column (buf, end < n ? end : n, &line, &column);
      if (jerr == json_tokener_continue)
        rw_fail (err, RW_ERROR_INPUT,
                 _("%s: not valid JSON: the file ends in the middle of a value (line %d)"), path, line);
      else
        rw_fail (err, RW_ERROR_INPUT, _("%s: not valid JSON at line %d, column %d (%s)"), path, line,
                 column, json_tokener_error_desc (jerr));
      goto out;
    }
  size_t used = end;
  while (used < n && isspace ((unsigned char) buf[used]))
    used++;
  if (used < n)
    {
      line_column (buf, used, &line, &column);
      rw_fail (err, RW_ERROR_INPUT, _("%s: not valid JSON at line %d, column %d (text after the value)"),
               path, line, column);
      json_object_put (root);
      root = NULL;
      goto out;
    }
  size_t dup_at, dup_len;
  if (find_duplicate_key (buf, n, &dup_at, &dup_len))
    {
      line_column (buf, dup_at, &line, &column);
      rw_fail (err, RW_ERROR_INPUT,
               _("%s: line %d: the key \"%.*s\" appears twice in one object; keep one of them"), path,
               line, (int) (dup_len > 80 ? 80 : dup_len), buf + dup_at);
      json_object_put (root);
      root = NULL;
    }
out:
  free (buf);
  return root;
}
