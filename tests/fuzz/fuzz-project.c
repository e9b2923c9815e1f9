/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-project — libFuzzer target for a .roomwave project file
 * (rw_project_load, ui/rw-project-file.c): the input is the file's text, in a
 * folder that holds rooms/box.obj (a 3 × 2.5 × 2.2 m box, the mesh the
 * seed names; its import runs in roomwave-import-helper, which
 * ROOMWAVE_IMPORT_HELPER names). A project that loads must save and load
 * again, to the same mesh path, source, receivers and settings. Every
 * input must end in a load or a GError, never a crash, a leak or
 * undefined behaviour (built with ASan + UBSan), and a refused file must
 * leave the project empty.
 *
 * RW_FUZZ_SEEDS=DIR: writes the project the saver makes of the box there,
 * as the seed (tests/fuzz/run.sh). Needs no display. Not part of
 * `meson test`. */
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rw-mesh.h"
#include "rw-project.h"
#include "rw-shapes.h"

static char *dir;

static GFile *
write_text (const char *name, const char *text, gsize len)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  if (!g_file_set_contents (path, text, (gssize) len, NULL))
    abort ();
  return g_file_new_for_path (path);
}

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  (void) argc, (void) argv;
  dir = g_strdup_printf ("/tmp/rw-fuzz-project-%d", (int) getpid ());
  g_autofree char *rooms = g_build_filename (dir, "rooms", NULL);
  g_mkdir_with_parents (rooms, 0755);
  g_autofree char *box = g_build_filename (rooms, "box.obj", NULL);
  RwMesh *m = rw_shape_box (3.0, 2.5, 2.2);
  RwError err = { 0 };
  if (m == NULL || !rw_mesh_export (m, box, "obj", &err))
    {
      fprintf (stderr, "fuzz-project: no mesh: %s\n", err.message);
      exit (1);
    }
  rw_mesh_free (m);
  const char *seeds = getenv ("RW_FUZZ_SEEDS");
  if (seeds != NULL)
    {
      g_autoptr (RwProject) p = rw_project_new ();
      g_autoptr (GError) e = NULL;
      g_autofree char *seed = g_build_filename (dir, "seed.roomwave", NULL);
      g_autoptr (GFile) f = g_file_new_for_path (seed);
      g_autofree char *text = NULL;
      g_autofree char *to = g_build_filename (seeds, "project", NULL);
      if (!rw_project_load_mesh (p, box, &e) || !rw_project_save (p, f, &e)
          || !g_file_get_contents (seed, &text, NULL, &e)
          || !g_file_set_contents (to, text, -1, &e))
        {
          fprintf (stderr, "fuzz-project: no seed: %s\n", e ? e->message : "?");
          exit (1);
        }
      fprintf (stderr, "fuzz-project: seed %s\n", to);
    }
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GFile) f = write_text ("in.roomwave", (const char *) data, size);
  g_autoptr (RwProject) p = rw_project_new ();
  g_autoptr (GError) e = NULL;
  if (!rw_project_load (p, f, &e))
    {
      if (e == NULL || rw_project_get_mesh (p) != NULL)
        abort ();   /* refused: a message, and nothing loaded */
      return 0;
    }
  /* loaded: it saves, and what it saved loads to the same project */
  g_autofree char *again = g_build_filename (dir, "again.roomwave", NULL);
  g_autoptr (GFile) g = g_file_new_for_path (again);
  g_autoptr (RwProject) q = rw_project_new ();
  if (!rw_project_save (p, g, &e) || !rw_project_load (q, g, &e))
    {
      fprintf (stderr, "fuzz-project: a loaded project does not save and load again: %s\n",
               e ? e->message : "?");
      abort ();
    }
  double a[3], b[3];
  rw_project_get_source (p, a);
  rw_project_get_source (q, b);
  if (memcmp (a, b, sizeof a) != 0
      || rw_project_get_n_receivers (p) != rw_project_get_n_receivers (q))
    {
      fprintf (stderr, "fuzz-project: the source or the receivers changed in the round trip\n");
      abort ();
    }
  for (guint r = 0; r < rw_project_get_n_receivers (p); r++)
    {
      rw_project_get_receiver (p, r, a);
      rw_project_get_receiver (q, r, b);
      if (memcmp (a, b, sizeof a) != 0)
        {
          fprintf (stderr, "fuzz-project: receiver %u moved in the round trip\n", r);
          abort ();
        }
    }
  return 0;
}
