/* SPDX-License-Identifier: GPL-3.0-or-later */
/* mesh-bad-input: every class of bad mesh file (DESIGN §6) is refused with
 * RW_ERROR_IO or RW_ERROR_INPUT and a message that names the file and the
 * problem; none crashes. The files are in tests/data/meshes (made by
 * make-meshes.py there); more are written here: every good file (OBJ,
 * binary STL, GLB) cut at every 11th byte, and 60 copies of each (and of an
 * ASCII PLY) with random bytes flipped, which must load or fail cleanly. */
#include "test-mesh-common.h"

#include <string.h>

static void
expect_fail (const char *name, double scale, RwErrorCode code, const char *words)
{
  const char *path = mesh_test_path (name);
  RwError err = { 0 };
  RwMesh *m = rw_mesh_load (path, scale, &err);
  RW_CHECK (m == NULL, "%s must be refused", name);
  rw_mesh_free (m);
  RW_CHECK (err.code == code, "%s: code %d, expected %d (%s)", name, err.code, code, err.message);
  RW_CHECK (strstr (err.message, path) != NULL, "%s: file named in '%s'", name, err.message);
  RW_CHECK (words == NULL || strstr (err.message, words) != NULL, "%s: '%s' in '%s'", name, words,
            err.message);
  RW_NOTE ("%s → %s", name, err.message);
}

int
main (void)
{
  expect_fail ("no-such-file.obj", 1.0, RW_ERROR_IO, "cannot open");
  expect_fail ("", 1.0, RW_ERROR_IO, "folder");   /* the folder itself */
  expect_fail ("empty.obj", 1.0, RW_ERROR_INPUT, "empty");
  expect_fail ("garbage.obj", 1.0, RW_ERROR_INPUT, "Assimp");
  expect_fail ("garbage.bin", 1.0, RW_ERROR_INPUT, "not a mesh file");
  expect_fail ("garbage.stl", 1.0, RW_ERROR_INPUT, "not a valid STL");
  expect_fail ("garbage.glb", 1.0, RW_ERROR_INPUT, "Assimp");
  expect_fail ("truncated.obj", 1.0, RW_ERROR_INPUT, "truncated");
  expect_fail ("truncated.stl", 1.0, RW_ERROR_INPUT, "promises 12 triangles, the file holds 5");
  expect_fail ("nan.obj", 1.0, RW_ERROR_INPUT, "not finite");
  expect_fail ("inf.obj", 1.0, RW_ERROR_INPUT, "not finite");
  expect_fail ("lines.obj", 1.0, RW_ERROR_INPUT, "no triangles");
  expect_fail ("points.ply", 1.0, RW_ERROR_INPUT, "no triangles");
  /* Two PLY files with two bytes flipped each, which made Assimp 5.2
   * segfault (bad-header.ply) and fail an assertion, aborting
   * (assimp-abort.ply): the header check refuses the first, the child
   * process the importer runs in absorbs the second. */
  expect_fail ("bad-header.ply", 1.0, RW_ERROR_INPUT, "PLY header");
  expect_fail ("assimp-abort.ply", 1.0, RW_ERROR_INPUT, NULL);
  /* Absurd scales are refused before reading; a scale that overflows the
   * coordinates is caught as non-finite. */
  expect_fail ("box.obj", 0.0, RW_ERROR_INPUT, "scale");
  expect_fail ("box.obj", -1.0, RW_ERROR_INPUT, "scale");
  expect_fail ("box.obj", NAN, RW_ERROR_INPUT, "scale");
  expect_fail ("box.obj", INFINITY, RW_ERROR_INPUT, "scale");
  expect_fail ("box.obj", 1e308, RW_ERROR_INPUT, "overflow");

  RwError err = { 0 };
  /* One vertex at 1e30 in a 4 × 3 × 2.5 m box: named, with its
   * coordinates, instead of "every triangle has zero area" (the welding
   * tolerance, a fraction of the bounding box, would swallow the room). */
  {
    const char *stray = rw_test_write_text ("stray.obj",
                                            "v 0 0 0\nv 4 0 0\nv 4 3 0\nv 0 3 0\n"
                                            "v 0 0 2.5\nv 4 0 2.5\nv 4 3 1e30\nv 0 3 2.5\n"
                                            "f 1 3 2\nf 1 4 3\nf 5 6 7\nf 5 7 8\nf 1 2 6\nf 1 6 5\n"
                                            "f 4 8 7\nf 4 7 3\nf 1 5 8\nf 1 8 4\nf 2 3 7\nf 2 7 6\n");
    RwMesh *m = rw_mesh_load (stray, 1.0, &err);
    RW_CHECK (m == NULL && err.code == RW_ERROR_INPUT && strstr (err.message, "stray.obj") != NULL
                && strstr (err.message, "(4, 3, 1e+30)") != NULL && strstr (err.message, "vertex") != NULL,
              "vertex at 1e30: %s", err.message);
    RW_NOTE ("vertex at 1e30 → %s", err.message);
    rw_mesh_free (m);
    /* /dev/zero is not an empty mesh file */
    m = rw_mesh_load ("/dev/zero", 1.0, &err);
    RW_CHECK (m == NULL && err.code == RW_ERROR_IO && strstr (err.message, "not a regular file") != NULL,
              "/dev/zero: %s", err.message);
    rw_mesh_free (m);
  }
  RW_CHECK (rw_mesh_load (NULL, 1.0, &err) == NULL && err.code == RW_ERROR_INPUT, "NULL path");
  /* A NULL error pointer is allowed. */
  RW_CHECK (rw_mesh_load (mesh_test_path ("empty.obj"), 1.0, NULL) == NULL, "NULL err");

  /* Every prefix of the good files (OBJ text, and binary STL / GLB written
   * here): loads or fails with the file named, never crashes. */
  RwMesh *box = rw_mesh_load (mesh_test_path ("box.obj"), 1.0, &err);
  RW_CHECK (box != NULL, "%s", err.message);
  const char *srcs[3] = { mesh_test_path ("box.obj"), NULL, NULL };
  char stl[4096], glb[4096];
  snprintf (stl, sizeof stl, "%s/box.stl", rw_test_tmpdir ());
  snprintf (glb, sizeof glb, "%s/box.glb", rw_test_tmpdir ());
  if (box && rw_mesh_export (box, stl, "stlb", &err) && rw_mesh_export (box, glb, "glb2", &err))
    {
      srcs[1] = stl;
      srcs[2] = glb;
    }
  rw_mesh_free (box);
  char src_copy[4096];
  size_t n_loaded = 0, n_refused = 0;
  for (int k = 0; k < 3; k++)
    {
      if (srcs[k] == NULL)
        continue;
      snprintf (src_copy, sizeof src_copy, "%s", srcs[k]);
      FILE *f = fopen (src_copy, "rb");
      RW_CHECK (f != NULL, "open %s", src_copy);
      if (f == NULL)
        continue;
      static unsigned char buf[1 << 16];
      size_t n = fread (buf, 1, sizeof buf, f);
      fclose (f);
      const char *ext = strrchr (src_copy, '.');
      for (size_t cut = 1; cut < n; cut += 11)
        {
          char path[4096];
          snprintf (path, sizeof path, "%s/cut-%zu%s", rw_test_tmpdir (), cut, ext);
          FILE *o = fopen (path, "wb");
          fwrite (buf, 1, cut, o);
          fclose (o);
          rw_error_clear (&err);
          RwMesh *m = rw_mesh_load (path, 1.0, &err);
          if (m)
            n_loaded++;
          else
            {
              n_refused++;
              RW_CHECK ((err.code == RW_ERROR_INPUT || err.code == RW_ERROR_IO)
                          && strstr (err.message, path) != NULL,
                        "cut %zu of %s: code %d '%s'", cut, src_copy, err.code, err.message);
            }
          rw_mesh_free (m);
          remove (path);
        }
    }
  RW_NOTE ("cut files: %zu loaded, %zu refused", n_loaded, n_refused);
  RW_CHECK (n_refused > 0, "some cut files are refused");

  /* Byte flips (1 to 8 random bytes, fixed seed) in each good file and in
   * an ASCII PLY: loads or fails cleanly with the file named. */
  char ply[4096];
  snprintf (ply, sizeof ply, "%s/box.ply", rw_test_tmpdir ());
  box = rw_mesh_load (mesh_test_path ("box.obj"), 1.0, &err);
  const char *flip_srcs[4] = { srcs[0], srcs[1], srcs[2], NULL };
  if (box && rw_mesh_export (box, ply, "ply", &err))
    flip_srcs[3] = ply;
  rw_mesh_free (box);
  unsigned seed = 12345;
  n_loaded = n_refused = 0;
  for (int k = 0; k < 4; k++)
    {
      if (flip_srcs[k] == NULL)
        continue;
      static unsigned char orig[1 << 16], buf[1 << 16];
      FILE *f = fopen (flip_srcs[k], "rb");
      size_t n = f ? fread (orig, 1, sizeof orig, f) : 0;
      if (f)
        fclose (f);
      const char *ext = strrchr (flip_srcs[k], '.');
      for (int it = 0; it < 60 && n > 0; it++)
        {
          memcpy (buf, orig, n);
          int flips = 1 + (int) ((seed = seed * 1103515245u + 12345u) >> 16) % 8;
          for (int j = 0; j < flips; j++)
            {
              size_t at = ((seed = seed * 1103515245u + 12345u) >> 8) % n;
              buf[at] = (unsigned char) ((seed = seed * 1103515245u + 12345u) >> 16);
            }
          char path[4096];
          snprintf (path, sizeof path, "%s/flip-%d-%d%s", rw_test_tmpdir (), k, it, ext);
          FILE *o = fopen (path, "wb");
          fwrite (buf, 1, n, o);
          fclose (o);
          rw_error_clear (&err);
          RwMesh *m = rw_mesh_load (path, 1.0, &err);
          if (m)
            n_loaded++;
          else
            {
              n_refused++;
              RW_CHECK ((err.code == RW_ERROR_INPUT || err.code == RW_ERROR_IO)
                          && strstr (err.message, path) != NULL,
                        "flipped %s: code %d '%s'", path, err.code, err.message);
            }
          rw_mesh_free (m);
          remove (path);
        }
    }
  RW_NOTE ("flipped files: %zu loaded, %zu refused", n_loaded, n_refused);
  return rw_test_finish ();
}
