/* rw-json.c — shared json-c helpers; see rw-json.h. */
#include "rw-json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

json_object *
rw_json_number (double v)
{
  return isfinite (v) ? json_object_new_double (v) : NULL;
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
