/* SPDX-License-Identifier: GPL-3.0-or-later */
/* roomwave-import-helper — runs Assimp in a process of its own.
 *
 *   roomwave-import-helper SCALE MESH
 *
 * Imports MESH (any format Assimp reads) at SCALE (model units → metres)
 * and writes the triangles, or the error, on stdout in the format
 * rw_mesh_load and rw_mesh_from_helper_output read (engine/rw-import.c).
 * Started by the engine (posix_spawn) and the GUI (GSubprocess), never by
 * hand: a file that crashes or hangs Assimp kills only this process.
 * Exit status 0 when the message was written (success or the import's own
 * error), 2 for bad arguments, 3 when stdout refused the message. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "rw-mesh.h"

int
main (int argc, char **argv)
{
  char *end = NULL;
  double scale = argc == 3 ? strtod (argv[1], &end) : 0;

  if (argc != 3 || end == argv[1] || *end != '\0')
    {
      fprintf (stderr, "usage: roomwave-import-helper SCALE MESH\n");
      return 2;
    }
  int status = rw_import_helper_run (argv[2], scale, STDOUT_FILENO) ? 0 : 3;
  /* _exit: Assimp keeps process-lifetime caches that a leak checker at
   * exit would report as the helper's failure. */
  fflush (NULL);
  _exit (status);
}
