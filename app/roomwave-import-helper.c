/* SPDX-License-Identifier: GPL-3.0-or-later */
/* roomwave-import-helper — runs Assimp, or libmysofa, in a process of its
 * own.
 *
 *   roomwave-import-helper SCALE MESH
 *   roomwave-import-helper --sofa RATE SET.sofa
 *
 * Imports MESH (any format Assimp reads) at SCALE (model units → metres)
 * and writes the triangles, or the error, on stdout in the format
 * rw_mesh_load and rw_mesh_from_helper_output read (engine/rw-import.c);
 * or reads an HRTF set as rw_hrtf_open does at RATE (Hz, 0: its own) up
 * to and including its resampling, and writes whether it could
 * (rw_hrtf_helper_run, engine/rw-hrtf.c). Started by the engine
 * (rw-helper.h) and the GUI (GSubprocess), never by hand: a file that
 * crashes or hangs the library kills only this process. Exit status 0 when the message was written
 * (success or the library's own error), 2 for bad arguments, 3 when
 * stdout refused the message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rw-hrtf.h"
#include "rw-mesh.h"

int
main (int argc, char **argv)
{
  char *end = NULL;
  if (argc == 4 && strcmp (argv[1], "--sofa") == 0)
    {
      double rate = strtod (argv[2], &end);
      if (end == argv[2] || *end != '\0')
        {
          fprintf (stderr, "usage: roomwave-import-helper --sofa RATE SET.sofa\n");
          return 2;
        }
      int status = rw_hrtf_helper_run (argv[3], rate, STDOUT_FILENO) ? 0 : 3;
      fflush (NULL);
      _exit (status);
    }
  double scale = argc == 3 ? strtod (argv[1], &end) : 0;

  if (argc != 3 || end == argv[1] || *end != '\0')
    {
      fprintf (stderr, "usage: roomwave-import-helper SCALE MESH | --sofa RATE SET.sofa\n");
      return 2;
    }
  int status = rw_import_helper_run (argv[2], scale, STDOUT_FILENO) ? 0 : 3;
  /* _exit: Assimp keeps process-lifetime caches that a leak checker at
   * exit would report as the helper's failure. */
  fflush (NULL);
  _exit (status);
}
