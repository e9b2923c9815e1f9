/* SPDX-License-Identifier: GPL-3.0-or-later */
/* solver-names: the backend, precision and boundary names exist once
 * (rw-solver.h): every enum value's name parses back to it, the tables
 * are in enum order and NULL-terminated, unknown names and NULL are
 * refused without touching the output, and a value beyond the table is
 * named "?". The CLI, results.json and the GUI's project files and
 * settings all go through these. */
#include "rw-test.h"
#include "rw-solver.h"

#include <string.h>

int
main (void)
{
  const char *backends[] = { "auto", "cpu", "cuda" }, *precisions[] = { "f32", "f64", "f16" },
             *boundaries[] = { "fv", "lrs", "savioja" };
  for (int i = 0; i < 3; i++)
    {
      RwBackendKind k = RW_BACKEND_AUTO;
      RwPrecision p = RW_PRECISION_F32;
      RwBoundary b = RW_BOUNDARY_FV;
      RW_CHECK (strcmp (rw_backend_kind_name ((RwBackendKind) i), backends[i]) == 0
                && strcmp (rw_backend_kind_names[i], backends[i]) == 0, "backend %d", i);
      RW_CHECK (strcmp (rw_precision_name ((RwPrecision) i), precisions[i]) == 0
                && strcmp (rw_precision_names[i], precisions[i]) == 0, "precision %d", i);
      RW_CHECK (strcmp (rw_boundary_name ((RwBoundary) i), boundaries[i]) == 0
                && strcmp (rw_boundary_names[i], boundaries[i]) == 0, "boundary %d", i);
      RW_CHECK (rw_backend_kind_parse (backends[i], &k) && (int) k == i, "parse %s", backends[i]);
      RW_CHECK (rw_precision_parse (precisions[i], &p) && (int) p == i, "parse %s", precisions[i]);
      RW_CHECK (rw_boundary_parse (boundaries[i], &b) && (int) b == i, "parse %s", boundaries[i]);
    }
  RW_CHECK (rw_backend_kind_names[3] == NULL && rw_precision_names[3] == NULL && rw_boundary_names[3] == NULL,
            "tables end with NULL");
  RwPrecision p = RW_PRECISION_F64;
  RW_CHECK (!rw_precision_parse ("fp32", &p) && !rw_precision_parse ("F32", &p) && !rw_precision_parse ("", &p)
            && !rw_precision_parse (NULL, &p) && p == RW_PRECISION_F64, "unknown precisions refused, output kept");
  RwBackendKind k = RW_BACKEND_CPU;
  RW_CHECK (!rw_backend_kind_parse ("gpu", &k) && k == RW_BACKEND_CPU, "unknown backend refused");
  RW_CHECK (strcmp (rw_precision_name ((RwPrecision) 7), "?") == 0, "beyond the table: ?");
  return rw_test_finish ();
}
