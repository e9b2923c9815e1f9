/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-files — libFuzzer target for the files a user hands to the engine:
 * the first byte picks the reader, the rest is the file's content.
 *   0: a material library (rw_materials_load)
 *   1: a material map for a box's surfaces (rw_materials_assign)
 *   2: an audio file (rw_audio_read: libsndfile, every format it reads)
 * Every input must end in success or an RwError, never a crash, a leak or
 * undefined behaviour (built with ASan + UBSan). tests/fuzz/run.sh builds
 * and runs it; not part of `meson test`. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rw-materials.h"
#include "rw-audio.h"
#include "rw-shapes.h"
#include "rw-mesh.h"

static RwMaterialLibrary *lib;
static RwMesh *box;

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size < 1)
    return 0;
  char path[64];
  snprintf (path, sizeof path, "/tmp/rw-fuzz-in-%d", (int) getpid ());
  FILE *f = fopen (path, "wb");
  fwrite (data + 1, 1, size - 1, f);
  fclose (f);
  RwError err = { 0 };
  switch (data[0] % 3)
    {
    case 0:
      {
        RwMaterialLibrary *l = rw_materials_load (path, &err);
        if (l)
          rw_materials_free (l);
      }
      break;
    case 1:
      {
        if (!lib)
          lib = rw_materials_load (NULL, &err);
        if (!box)
          box = rw_shape_box (4, 3, 2.5);
        double R[64];
        char **names = NULL;
        if (lib && box && box->n_surfaces <= 64
            && rw_materials_assign (lib, box, path, NAN, 1000, R, &names, &err))
          {
            for (size_t s = 0; s < box->n_surfaces; s++)
              free (names[s]);
            free (names);
          }
      }
      break;
    case 2:
      {
        RwAudio a = { 0 };
        if (rw_audio_read (path, &a, &err))
          rw_audio_clear (&a);
      }
      break;
    }
  unlink (path);
  return 0;
}
