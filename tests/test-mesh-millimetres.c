/* SPDX-License-Identifier: GPL-3.0-or-later */
/* mesh-millimetres: the unit heuristic (docs/IMPORT.md). A 6 × 4 × 3 m
 * room drawn in millimetres gets --scale 0.001, in centimetres 0.01 (with
 * inches offered as the alternative, since 600 units are also a plausible
 * 15 m in inches); a room in metres, from a 2 m booth to a 199 m hall,
 * gets no suggestion; loading with the suggested scale gives metres. */
#include "test-mesh-common.h"

static void
suggestion (const RwMesh *m, double *primary, double *alternative, bool *flag)
{
  RwMeshReport r;
  RwError err = { 0 };
  RW_CHECK (rw_mesh_report (m, &r, &err), "%s", err.message);
  *primary = r.suggested_scale;
  *alternative = r.alternative_scale;
  *flag = r.looks_like_millimetres;
  rw_mesh_report_clear (&r);
}

int
main (void)
{
  bool flag;
  double s, alt;
  RwError err = { 0 };
  RwMesh *m = rw_mesh_load (mesh_test_path ("room-mm.obj"), 1.0, &err);
  RW_CHECK (m != NULL, "%s", err.message);
  if (m)
    {
      suggestion (m, &s, &alt, &flag);
      RW_CHECK (s == 0.001 && flag, "millimetres → 0.001 (got %g)", s);
      RW_CHECK (alt == 0.0254, "6000 units are also 152 m in inches (got %g)", alt);
      rw_mesh_free (m);
    }
  m = rw_mesh_load (mesh_test_path ("room-mm.obj"), 0.001, &err);
  RW_CHECK (m != NULL, "%s", err.message);
  if (m)
    {
      suggestion (m, &s, &alt, &flag);
      RW_CHECK (s == 0 && alt == 0 && !flag, "scaled to metres: no suggestion");
      RwMeshReport r;
      rw_mesh_report (m, &r, &err);
      RW_CHECK_CLOSE (r.volume_m3, 72.0, 1e-9, "6 × 4 × 3 m after --scale 0.001");
      rw_mesh_report_clear (&r);
      rw_mesh_free (m);
    }
  m = rw_mesh_load (mesh_test_path ("room-cm.obj"), 1.0, &err);
  RW_CHECK (m != NULL, "%s", err.message);
  if (m)
    {
      suggestion (m, &s, &alt, &flag);
      RW_CHECK (s == 0.01 && flag, "centimetres → 0.01 (got %g)", s);
      RW_CHECK (alt == 0.0254, "600 units are also 15 m in inches (got %g)", alt);
      rw_mesh_free (m);
    }
  /* A 40 m hall in millimetres: inches would give 1 km, not offered. */
  m = mesh_test_box (40000.0, 25000.0, 12000.0, false);
  suggestion (m, &s, &alt, &flag);
  RW_CHECK (s == 0.001 && alt == 0 && flag, "40000 units → 0.001 only (got %g, %g)", s, alt);
  rw_mesh_free (m);
  /* Real rooms in metres: no suggestion. */
  const double sides[] = { 2.0, 7.0, 60.0, 199.0 };
  for (size_t i = 0; i < 4; i++)
    {
      m = mesh_test_box (sides[i], 3.0, 2.5, false);
      suggestion (m, &s, &alt, &flag);
      RW_CHECK (s == 0 && alt == 0 && !flag, "%g m: no suggestion", sides[i]);
      rw_mesh_free (m);
    }
  return rw_test_finish ();
}
