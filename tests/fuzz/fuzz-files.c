/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-files — libFuzzer target for the files a user hands to the engine:
 * the first byte picks the reader, the rest is the file's content.
 *   0: a material library (rw_materials_load)
 *   1: a material map for a box's surfaces (rw_materials_assign)
 *   2: an audio file (rw_audio_read: libsndfile, every format it reads)
 *   3: a measured impedance or reflection factor CSV, fitted
 *      (rw_admittance_fit_csv; the second byte: the bands fitted)
 *   4: a results folder's results.json (rw_results_read), in a folder
 *      that holds the WAV files of a real run (RW_FUZZ_RESULTS: a
 *      `simulate` output folder; tests/fuzz/run.sh makes one)
 *   5: the same results.json beside an IR (rw_results_read_validity)
 *   6: a receiver's text (rw_receiver_parse, then rw_receiver_format and
 *      parsed again: the same values)
 * Every input must end in success or an RwError, never a crash, a leak or
 * undefined behaviour (built with ASan + UBSan). tests/fuzz/run.sh builds
 * and runs it; not part of `meson test`. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rw-admittance.h"
#include "rw-materials.h"
#include "rw-audio.h"
#include "rw-receiver.h"
#include "rw-results.h"
#include "rw-shapes.h"
#include "rw-mesh.h"

static RwMaterialLibrary *lib;
static RwMesh *box;

/* A folder of this process's own holding RW_FUZZ_RESULTS's WAV files (its
 * results.json is each input); NULL without RW_FUZZ_RESULTS. */
static const char *
results_dir (void)
{
  static char dir[64];
  static int made;
  if (made)
    return made > 0 ? dir : NULL;
  made = -1;
  const char *src = getenv ("RW_FUZZ_RESULTS");
  if (src == NULL)
    return NULL;
  snprintf (dir, sizeof dir, "/tmp/rw-fuzz-results-%d", (int) getpid ());
  char cmd[1024];
  snprintf (cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s' && cp '%s'/*.wav '%s'/", dir, dir, src,
            dir);
  if (system (cmd) == 0)
    made = 1;
  return made > 0 ? dir : NULL;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size < 1)
    return 0;
  char path[128];
  const unsigned reader = data[0] % 7;
  if (reader == 4 || reader == 5)
    {
      const char *dir = results_dir ();
      if (dir == NULL)
        return 0;
      snprintf (path, sizeof path, "%s/%s", dir, RW_RESULTS_FILE);
    }
  else
    snprintf (path, sizeof path, "/tmp/rw-fuzz-in-%d", (int) getpid ());
  FILE *f = fopen (path, "wb");
  fwrite (data + 1, 1, size - 1, f);
  fclose (f);
  RwError err = { 0 };
  switch (reader)
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
    case 3:
      {
        RwAdmittance y;
        RwFitReport rep;
        const int bands = size > 1 ? 1 + data[1] % RW_ADM_N_BANDS : 1;
        if (rw_admittance_fit_csv (path, bands, &y, &rep, &err))
          if (!rw_admittance_check (&y, &err))
            abort ();   /* a fit that succeeded gives a valid surface */
      }
      break;
    case 4:
      {
        RwResults r;
        if (rw_results_read (results_dir (), &r, &err))
          rw_results_clear (&r);
      }
      break;
    case 5:
      {
        char ir[128];
        snprintf (ir, sizeof ir, "%s/ir.wav", results_dir ());
        RwIrValidity v;
        rw_results_read_validity (ir, &v, &err);
      }
      break;
    case 6:
      {
        char *text = strndup ((const char *) data + 1, size - 1);
        double pos[3], pos2[3];
        RwReceiverSpec spec, spec2;
        if (text && rw_receiver_parse (text, pos, &spec, &err))
          {
            char buf[512];
            rw_receiver_format (pos, &spec, buf, sizeof buf);
            RwError e2 = { 0 };
            if (!rw_receiver_parse (buf, pos2, &spec2, &e2)
                || memcmp (pos, pos2, sizeof pos) != 0 || spec.type != spec2.type
                || spec.order != spec2.order || spec.yaw_deg != spec2.yaw_deg
                || spec.pitch_deg != spec2.pitch_deg)
              abort ();   /* the text given back reads to the same values */
          }
        free (text);
      }
      break;
    }
  if (reader != 4 && reader != 5)
    unlink (path);
  return 0;
}
