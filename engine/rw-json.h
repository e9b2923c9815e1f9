/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-json.h — the few json-c helpers every JSON writer of the engine
 * shares (results.json, analyse --json, the comparison report), so that
 * they agree on what a missing value and the text look like. */
#pragma once

#include <stddef.h>

#include <json-c/json.h>

/* A finite number, or NULL (JSON null) for NaN and ±∞, which JSON cannot
 * hold: a parameter the data do not support is absent, not 0. Written
 * with the fewest digits that read back exactly (0.3, not
 * 0.29999999999999999). */
json_object *rw_json_number (double v);
/* [x, y, z] of rw_json_number. */
json_object *rw_json_vec3 (const double v[3]);
/* n numbers as an array of rw_json_number's. */
json_object *rw_json_numbers (const double *v, size_t n);

/* root as pretty-printed text without escaped slashes (paths stay
 * readable), in a malloc'd string; drops the reference to root. NULL when
 * memory runs out. */
char *rw_json_take_string (json_object *root);

#include "rw-error.h"

/* Reads and parses the JSON file at path, whole (at most 64 MiB), strictly:
 * fails (RW_ERROR_IO / RW_ERROR_INPUT, the message naming path) on a
 * folder or device, an unreadable or empty file, invalid JSON (with the
 * line and column where parsing stopped and json-c's reason), text after
 * the value, and a key that appears twice in one object (json-c would
 * silently keep the last; the message names the key and its line). The
 * caller owns the result (json_object_put). */
json_object *rw_json_parse_file (const char *path, RwError *err);
