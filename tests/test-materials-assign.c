/* SPDX-License-Identifier: GPL-3.0-or-later */
/* materials-assign: one R per surface with the documented precedence —
 * uniform R over everything; the map file (material names, {"R": r},
 * {"alpha": a}) over name matching; name matching ("carpet_on_concrete",
 * "Glass.001", "north wall plaster", "carpet") over the default (plaster);
 * a model's material name (Blender: object "floor", material "Carpet")
 * before the surface name, kept through OBJ and glTF export;
 * and every bad map (not JSON, not an object, unknown surface, unknown
 * material, R outside [−1, 1], α outside [0, 1], wrong value type) refused
 * with the map file and the entry named. */
#include "rw-materials.h"
#include "rw-test.h"

#include <stdlib.h>
#include <string.h>

static double
R_of (const RwMaterialLibrary *lib, const char *material, double fmax)
{
  return rw_reflection_from_statistical_alpha (rw_material_alpha_for_fmax (rw_materials_find (lib, material), fmax));
}

/* The random-incidence conversion: Paris' closed form at known points,
 * and the round trip α → R → ζ → α_st. */
static void
check_statistical_alpha (void)
{
  /* ζ = 1 (R = 0): 8 (3/2 − 2 ln 2) */
  RW_CHECK_CLOSE (rw_statistical_absorption (1.0), 8 * (1.5 - 2 * log (2.0)), 1e-12, "alpha_st(zeta = 1)");
  /* Large ζ: α_st → 8/ζ (twice the normal-incidence 4/ζ). */
  RW_CHECK_CLOSE (rw_statistical_absorption (1e6) * 1e6, 8.0, 1e-3, "alpha_st ~ 8/zeta for large zeta");
  for (double a = 0.01; a < 0.95; a += 0.02)
    {
      double R = rw_reflection_from_statistical_alpha (a);
      double zeta = (1 + R) / (1 - R);
      RW_CHECK_CLOSE (rw_statistical_absorption (zeta), a, 1e-9, "round trip alpha_st");
      RW_CHECK_CLOSE (rw_statistical_alpha_from_reflection (R), a, 1e-9, "alpha_st shown for R");
      /* A diffuse field is absorbed more than a normal one by a resistive
       * surface: the normal-incidence α of that R is below the table's α. */
      RW_CHECK (1 - R * R < a, "normal-incidence alpha %.4f below random-incidence %.4f", 1 - R * R, a);
    }
  RW_CHECK (rw_reflection_from_statistical_alpha (0) == 1.0, "alpha 0 is rigid");
  RW_CHECK (rw_statistical_alpha_from_reflection (1.0) == 0.0 && rw_statistical_alpha_from_reflection (-1.0) == 0.0,
            "rigid and pressure-release surfaces absorb nothing");
  RW_CHECK_CLOSE (rw_reflection_from_statistical_alpha (1.0), (1.5671 - 1) / (1.5671 + 1), 1e-12,
                  "alpha above the peak gets the peak's R");
}

static void
free_names (char **names, size_t n)
{
  for (size_t i = 0; names && i < n; i++)
    free (names[i]);
  free (names);
}

static void
expect_bad_map (const RwMaterialLibrary *lib, const RwMesh *mesh, const char *name, const char *text,
                const char *words)
{
  const char *path = rw_test_write_text (name, text);
  double R[16];
  char **names = NULL;
  RwError err = { 0 };
  bool ok = rw_materials_assign (lib, mesh, path, NAN, 1000, R, &names, &err);
  RW_CHECK (!ok, "%s must be refused", name);
  RW_CHECK (names == NULL, "%s: no names handed out on failure", name);
  RW_CHECK (err.code == RW_ERROR_INPUT, "%s: code %d", name, err.code);
  RW_CHECK (strstr (err.message, path) != NULL, "%s: file named in '%s'", name, err.message);
  RW_CHECK (strstr (err.message, words) != NULL, "%s: '%s' in '%s'", name, words, err.message);
  RW_NOTE ("%s → %s", name, err.message);
}

int
main (void)
{
  check_statistical_alpha ();
  RwError err = { 0 };
  RwMaterialLibrary *lib = rw_materials_load (NULL, &err);
  RW_CHECK (lib != NULL, "%s", err.message);
  if (lib == NULL)
    return rw_test_finish ();

  RwMesh *mesh = rw_mesh_new ();
  const char *surfaces[] = { "carpet_on_concrete", "Glass.001", "north wall plaster", "carpet", "wall_x0",
                             "Acoustic-Tile", "heavy plate glass pane" };
  const size_t n = sizeof surfaces / sizeof surfaces[0];
  for (size_t i = 0; i < n; i++)
    rw_mesh_add_surface (mesh, surfaces[i]);
  const char *expect[] = { "carpet on concrete", "glass", "plaster", "carpet on concrete", "plaster",
                           "acoustic tile", "heavy plate glass" };

  /* Name matching and the default. */
  double R[16];
  char **names = NULL;
  RW_CHECK (rw_materials_assign (lib, mesh, NULL, NAN, 1000, R, &names, &err), "%s", err.message);
  for (size_t i = 0; i < n && names; i++)
    {
      RW_CHECK (strcmp (names[i], expect[i]) == 0, "'%s' → '%s', expected '%s'", surfaces[i], names[i],
                expect[i]);
      RW_CHECK_CLOSE (R[i], R_of (lib, expect[i], 1000), 1e-12, surfaces[i]);
    }
  free_names (names, n);
  RW_CHECK (strcmp (rw_materials_default_name (), "plaster") == 0, "default is plaster");
  /* R depends on fmax: carpet absorbs more when the high bands count. */
  RW_CHECK (rw_materials_assign (lib, mesh, NULL, NAN, 4000, R, NULL, &err), "%s", err.message);
  RW_CHECK (R[0] < R_of (lib, "carpet on concrete", 1000), "carpet R falls as fmax rises: %g", R[0]);

  /* Uniform R wins over everything, the map included. */
  const char *map = rw_test_write_text ("map.json", "{\"carpet_on_concrete\": \"heavy curtain\","
                                           " \"wall_x0\": {\"R\": 0.5}, \"carpet\": {\"alpha\": 0.19}}");
  RW_CHECK (rw_materials_assign (lib, mesh, map, 0.9, 1000, R, &names, &err), "%s", err.message);
  for (size_t i = 0; i < n; i++)
    RW_CHECK (R[i] == 0.9, "uniform R on %s", surfaces[i]);
  free_names (names, n);
  RW_CHECK (!rw_materials_assign (lib, mesh, NULL, 1.5, 1000, R, NULL, &err) && err.code == RW_ERROR_INPUT,
            "uniform R = 1.5 refused");

  /* The map wins over names; unmapped surfaces still match by name. */
  RW_CHECK (rw_materials_assign (lib, mesh, map, NAN, 1000, R, &names, &err), "%s", err.message);
  RW_CHECK_CLOSE (R[0], R_of (lib, "heavy curtain", 1000), 1e-12, "mapped material");
  RW_CHECK_CLOSE (R[4], 0.5, 0, "mapped R");
  RW_CHECK_CLOSE (R[3], rw_reflection_from_statistical_alpha (0.19), 1e-12, "mapped alpha 0.19 (random incidence)");
  RW_CHECK_CLOSE (R[1], R_of (lib, "glass", 1000), 1e-12, "unmapped: name match");
  if (names)
    RW_CHECK (strcmp (names[0], "heavy curtain") == 0 && strstr (names[4], "0.5") != NULL,
              "names: %s, %s", names[0], names[4]);
  free_names (names, n);

  expect_bad_map (lib, mesh, "garbage.json", "\x01\x02 not json", "not valid JSON");
  expect_bad_map (lib, mesh, "cut.json", "{\"carpet\": \"glass\"", "not valid JSON");
  expect_bad_map (lib, mesh, "array.json", "[\"glass\"]", "JSON object");
  expect_bad_map (lib, mesh, "surface.json", "{\"balcony\": \"glass\"}", "\"balcony\"");
  expect_bad_map (lib, mesh, "material.json", "{\"carpet\": \"unobtainium\"}", "\"unobtainium\"");
  expect_bad_map (lib, mesh, "R.json", "{\"carpet\": {\"R\": 1.2}}", "\"carpet\": R");
  expect_bad_map (lib, mesh, "alpha.json", "{\"carpet\": {\"alpha\": -0.1}}", "\"carpet\": alpha");
  expect_bad_map (lib, mesh, "both.json", "{\"carpet\": {\"alpha\": 0.1, \"R\": 0.5}}", "give one of");
  expect_bad_map (lib, mesh, "type.json", "{\"carpet\": 0.5}", "\"carpet\"");
  /* json-c keeps the last of two equal keys: a map that says two things
   * about one surface is refused, naming the key and its line. */
  expect_bad_map (lib, mesh, "dup.json", "{\"carpet\": \"glass\",\n \"carpet\": \"heavy curtain\"}",
                  "\"carpet\" appears twice");
  expect_bad_map (lib, mesh, "dup-line.json", "{\"carpet\": \"glass\",\n \"carpet\": \"heavy curtain\"}",
                  "line 2");
  expect_bad_map (lib, mesh, "dup-inner.json", "{\"carpet\": {\"R\": 0.5, \"R\": 0.6}}", "\"R\" appears twice");
  expect_bad_map (lib, mesh, "where.json", "{\"carpet\": \"glass\",\n\n  oops}", "line 3, column 3");
  {
    /* the same key in two objects is no duplicate */
    const char *two = rw_test_write_text ("two.json", "{\"carpet\": {\"R\": 0.5}, \"wall_x0\": {\"R\": 0.5}}");
    RW_CHECK (rw_materials_assign (lib, mesh, two, NAN, 1000, R, NULL, &err), "two objects: %s", err.message);
  }
  {
    /* a folder and a device: said as such, not "read error" or "empty" */
    RW_CHECK (!rw_materials_assign (lib, mesh, rw_test_tmpdir (), NAN, 1000, R, NULL, &err)
                && err.code == RW_ERROR_IO && strstr (err.message, "is a folder") != NULL
                && strstr (err.message, rw_test_tmpdir ()) != NULL,
              "folder as map: %s", err.message);
    RW_CHECK (!rw_materials_assign (lib, mesh, "/dev/zero", NAN, 1000, R, NULL, &err)
                && strstr (err.message, "/dev/zero: not a regular file") != NULL,
              "/dev/zero as map: %s", err.message);
  }
  {
    RW_CHECK (!rw_materials_assign (lib, mesh, "/no/such/map.json", NAN, 1000, R, NULL, &err)
                && err.code == RW_ERROR_IO && strstr (err.message, "/no/such/map.json") != NULL,
              "missing map: %s", err.message);
  }
  rw_mesh_free (mesh);

  /* A box as Blender exports it: objects "floor", "wall_y0"…, materials
   * "Carpet", "Glass.001"…: the model's material names win over the
   * surface names, survive export to OBJ and glTF, and a material name
   * that matches nothing ("Material.002") falls back to the default. */
  const char *base = getenv ("ROOMWAVE_TEST_DATA");
  char path[4096];
  snprintf (path, sizeof path, "%s/meshes/box-materials.obj", base ? base : "tests/data");
  RwMesh *box = rw_mesh_load (path, 1.0, &err);
  RW_CHECK (box != NULL, "%s", err.message);
  const struct { const char *surface, *hint, *material; } expect_box[] = {
    { "floor", "Carpet", "carpet on concrete" }, { "ceiling", "Acoustic_Tile", "acoustic tile" },
    { "wall_y0", "Glass.001", "glass" }, { "wall_y1", "Material.002", "plaster" },
    { "wall_x0", "Plaster", "plaster" },
  };
  const char *formats[3][2] = { { NULL, NULL }, { "obj", "obj" }, { "gltf2", "gltf" } };
  for (int f = 0; f < 3 && box; f++)
    {
      RwMesh *m = box;
      if (formats[f][0])
        {
          char out[4096];
          snprintf (out, sizeof out, "%s/box-materials.%s", rw_test_tmpdir (), formats[f][1]);
          RW_CHECK (rw_mesh_export (box, out, formats[f][0], &err), "%s", err.message);
          m = rw_mesh_load (out, 1.0, &err);
          RW_CHECK (m != NULL, "%s", err.message);
          if (m == NULL)
            continue;
        }
      RW_CHECK (m->n_surfaces == 6 && m->surface_materials != NULL, "%s: 6 surfaces with material names",
                formats[f][0] ? formats[f][0] : "box-materials.obj");
      RW_CHECK (rw_materials_assign (lib, m, NULL, NAN, 1000, R, &names, &err), "%s", err.message);
      for (size_t e = 0; e < sizeof expect_box / sizeof expect_box[0] && m->surface_materials; e++)
        for (size_t i = 0; i < m->n_surfaces; i++)
          if (strcmp (m->surface_names[i], expect_box[e].surface) == 0)
            {
              RW_CHECK (m->surface_materials[i] && strcmp (m->surface_materials[i], expect_box[e].hint) == 0,
                        "%s: hint '%s'", expect_box[e].surface, m->surface_materials[i]);
              RW_CHECK (names && strcmp (names[i], expect_box[e].material) == 0, "%s → %s, expected %s",
                        expect_box[e].surface, names ? names[i] : "?", expect_box[e].material);
            }
      free_names (names, m->n_surfaces);
      names = NULL;
      if (m != box)
        rw_mesh_free (m);
    }
  rw_mesh_free (box);
  rw_materials_free (lib);
  return rw_test_finish ();
}
