/* rw-json.h — the few json-c helpers every JSON writer of the engine
 * shares (results.json, analyse --json, the comparison report), so that
 * they agree on what a missing value and the text look like. */
#pragma once

#include <json-c/json.h>

/* A finite number, or NULL (JSON null) for NaN and ±∞, which JSON cannot
 * hold: a parameter the data do not support is absent, not 0. Written
 * with the fewest digits that read back exactly (0.3, not
 * 0.29999999999999999). */
json_object *rw_json_number (double v);
/* [x, y, z] of rw_json_number. */
json_object *rw_json_vec3 (const double v[3]);

/* root as pretty-printed text without escaped slashes (paths stay
 * readable), in a malloc'd string; drops the reference to root. NULL when
 * memory runs out. */
char *rw_json_take_string (json_object *root);
