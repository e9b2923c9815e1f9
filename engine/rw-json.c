/* rw-json.c — shared json-c helpers; see rw-json.h. */
#include "rw-json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
rw_json_vec3 (const double v[3])
{
  json_object *a = json_object_new_array ();
  for (int k = 0; k < 3; k++)
    json_object_array_add (a, rw_json_number (v[k]));
  return a;
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
