/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-sofa — libFuzzer target for an HRTF set (a SOFA file) as a run
 * opens it: rw_hrtf_open (rw-hrtf.h) on the input written to a file, at
 * the set's own rate (first byte even) or at 48 kHz (odd: libmysofa's
 * resampler too), then one interpolated pair, with libmysofa in this
 * process (ROOMWAVE_IMPORT_IN_PROCESS=1: a run reads a user's set in the
 * helper process first, rw-hrtf.c). Every input must end in a set or an
 * RwError, never a crash or undefined behaviour; libmysofa's own leaks on
 * damaged files (1.3.1: fractalhead.c's directblockRead, found here) are
 * left in the helper by a run, so run.sh fuzzes this target with
 * -detect_leaks=0.
 *
 * tests/fuzz/run.sh links it with libmysofa built from its own sources
 * with the same instrumentation (RW_FUZZ_MYSOFA_SRC: a checkout of the
 * version .ci/install-deps installs), so that libFuzzer's coverage and
 * ASan reach into the HDF5 reader; against the system's uninstrumented
 * library only crashes show. Seed: the bundled MIT KEMAR set. Not part of
 * `meson test`. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "rw-hrtf.h"

/* libmysofa in this process, where the instrumentation sees it (a run
 * reads a user's set in the helper process first). */
int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  (void) argc, (void) argv;
  setenv ("ROOMWAVE_IMPORT_IN_PROCESS", "1", 1);
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size < 1)
    return 0;
  char path[64];
  snprintf (path, sizeof path, "/tmp/rw-fuzz-sofa-%d", (int) getpid ());
  FILE *f = fopen (path, "wb");
  if (f == NULL)
    return 0;
  fwrite (data + 1, 1, size - 1, f);
  fclose (f);
  RwError err = { 0 };
  RwHrtf *h = rw_hrtf_open (path, data[0] & 1 ? 48000.0 : 0.0, &err);
  if (h != NULL)
    {
      const double dir[3] = { 0.6, 0.64, 0.48 };
      const size_t n = rw_hrtf_length (h);
      float *l = malloc (n * sizeof *l), *r = malloc (n * sizeof *r);
      if (l != NULL && r != NULL)
        rw_hrtf_get (h, dir, l, r, NULL, NULL, &err);
      free (l);
      free (r);
      rw_hrtf_free (h);
    }
  unlink (path);
  return 0;
}
