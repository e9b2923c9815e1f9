/* rw-json.h — the few json-c helpers every JSON writer of the engine
 * shares (results.json, analyse --json, the comparison report), so that
 * they agree on what a missing value and the text look like. */
#pragma once

#include <json-c/json.h>

/* A finite number, or NULL (JSON null) for NaN and ±∞, which JSON cannot
 * hold: a parameter the data do not support is absent, not 0. */
json_object *rw_json_number (double v);

/* root as pretty-printed text without escaped slashes (paths stay
 * readable), in a malloc'd string; drops the reference to root. NULL when
 * memory runs out. */
char *rw_json_take_string (json_object *root);
