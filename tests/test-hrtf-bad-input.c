/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hrtf-bad-input: every file that is not a usable HRIR set, and every bad
 * rate or direction, gives NULL or false with an error naming the file
 * and the problem, never a crash and never a handle: a missing file; a
 * folder; an empty file; text; a file with HDF5's signature and nothing
 * of HDF5 after it; the bundled set cut short; the bundled set with its
 * SOFAConventions attribute changed to SimpleFreeFieldHRTF (valid HDF5
 * and SOFA, but the frequency-domain convention, not an HRIR set: the
 * attribute's text is patched in place, which libmysofa reads, as it
 * does not verify HDF5 checksums); rates below 8 kHz, above 384 kHz, not
 * finite; a direction of length 0 or not finite; a binaural render of
 * zero samples or of an arrival that is not finite. A user's set goes
 * through the helper process first (check_helper). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rw-test.h"
#include "rw-hrtf.h"

static void
expect_fail (RwHrtf *h, const RwError *err, RwErrorCode code, const char *path,
             const char *needle, const char *what)
{
  RW_CHECK (h == NULL, "%s: refused", what);
  rw_hrtf_free (h);
  RW_CHECK (err->code == code, "%s: code %d (expected %d)", what, err->code, code);
  RW_CHECK (path == NULL || strstr (err->message, path) != NULL, "%s: message '%s' names %s",
            what, err->message, path);
  RW_CHECK (strstr (err->message, needle) != NULL, "%s: message '%s' says '%s'", what,
            err->message, needle);
  RW_NOTE ("%s: %s", what, err->message);
}

static unsigned char *
read_all (const char *path, size_t *n)
{
  FILE *f = fopen (path, "rb");
  if (f == NULL)
    return NULL;
  fseek (f, 0, SEEK_END);
  long len = ftell (f);
  fseek (f, 0, SEEK_SET);
  unsigned char *buf = malloc ((size_t) len);
  *n = fread (buf, 1, (size_t) len, f);
  fclose (f);
  return buf;
}

static const char *
write_bytes (const char *name, const void *data, size_t n)
{
  const char *p = rw_test_tmp_path (name);
  FILE *f = fopen (p, "wb");
  fwrite (data, 1, n, f);
  fclose (f);
  return p;
}

/* An executable script in the test's folder. */
static const char *
write_script (const char *name, const char *body)
{
  const char *p = rw_test_write_text (name, body);
  RW_CHECK (chmod (p, 0755) == 0, "chmod %s", p);
  return p;
}

/* A user's set is read in the helper process first (rw-hrtf.c): `mine`, a
 * copy of the bundled set (`data`, n bytes), opens through it; a helper
 * that dies of SIGSEGV (as libmysofa on a crafted file) or ends without
 * its message is an RW_ERROR_INPUT naming the file, while the bundled
 * set, read in-process, still opens, and so does `mine` with
 * ROOMWAVE_IMPORT_IN_PROCESS=1; `junk`'s refusal through the helper is
 * the in-process one, word for word. A file the helper has read opens
 * again without it, at another rate too, until a new file takes its
 * name. */
static void
check_helper (const char *mine, const unsigned char *data, size_t n, const char *junk)
{
  RwError err = { 0 };
  RwHrtf *h = rw_hrtf_open (mine, 48000, &err);
  RW_CHECK (h != NULL, "a copy of the bundled set opens through the helper: %s", err.message);
  rw_hrtf_free (h);

  RwError in = { 0 }, out = { 0 };
  RW_CHECK (rw_hrtf_open (junk, 48000, &out) == NULL, "junk refused through the helper");
  setenv ("ROOMWAVE_IMPORT_IN_PROCESS", "1", 1);
  RW_CHECK (rw_hrtf_open (junk, 48000, &in) == NULL, "junk refused in-process");
  RW_CHECK (in.code == out.code && strcmp (in.message, out.message) == 0,
            "the helper's refusal is the in-process one: '%s' / '%s'", out.message, in.message);
  unsetenv ("ROOMWAVE_IMPORT_IN_PROCESS");

  setenv ("ROOMWAVE_IMPORT_HELPER", write_script ("crash-helper", "#!/bin/sh\nkill -SEGV $$\n"), 1);
  err = (RwError) { 0 };
  h = rw_hrtf_open (mine, 44100, &err);
  RW_CHECK (h != NULL, "a set the helper has read opens again without it, at another rate: %s",
            err.message);
  RW_CHECK (h == NULL || rw_hrtf_rate (h) == 44100, "… at 44.1 kHz");
  rw_hrtf_free (h);
  /* the same bytes, a new file in its place */
  RW_CHECK (rename (write_bytes ("mine-again.sofa", data, n), mine) == 0, "rename onto %s", mine);
  err = (RwError) { 0 };
  expect_fail (rw_hrtf_open (mine, 48000, &err), &err, RW_ERROR_INPUT, mine,
               "libmysofa crashed while reading it", "a helper that crashes");
  err = (RwError) { 0 };
  h = rw_hrtf_open (NULL, 48000, &err);
  RW_CHECK (h != NULL, "the bundled set is read in-process: %s", err.message);
  rw_hrtf_free (h);
  setenv ("ROOMWAVE_IMPORT_IN_PROCESS", "1", 1);
  err = (RwError) { 0 };
  h = rw_hrtf_open (mine, 48000, &err);
  RW_CHECK (h != NULL, "ROOMWAVE_IMPORT_IN_PROCESS=1 reads in-process: %s", err.message);
  rw_hrtf_free (h);
  unsetenv ("ROOMWAVE_IMPORT_IN_PROCESS");

  setenv ("ROOMWAVE_IMPORT_HELPER", write_script ("mute-helper", "#!/bin/sh\nexit 1\n"), 1);
  err = (RwError) { 0 };
  expect_fail (rw_hrtf_open (mine, 48000, &err), &err, RW_ERROR_INPUT, mine, "exit status 1",
               "a helper that ends without its message");
  setenv ("ROOMWAVE_IMPORT_HELPER", write_script ("liar-helper", "#!/bin/sh\nprintf 'RWSO\\002'\n"), 1);
  err = (RwError) { 0 };
  expect_fail (rw_hrtf_open (mine, 48000, &err), &err, RW_ERROR_INPUT, mine, "exit status 0",
               "a helper whose message is not one");
  unsetenv ("ROOMWAVE_IMPORT_HELPER");
}

int
main (void)
{
  RwError err = { 0 };
  const char *p;

  p = rw_test_tmp_path ("no-such.sofa");
  expect_fail (rw_hrtf_open (p, 48000, &err), &err, RW_ERROR_IO, p, strerror (ENOENT),
               "missing file");

  err = (RwError) { 0 };
  p = rw_test_tmp_path ("a-folder.sofa");
  mkdir (p, 0700);
  expect_fail (rw_hrtf_open (p, 48000, &err), &err, RW_ERROR_IO, p, strerror (EISDIR), "a folder");

  err = (RwError) { 0 };
  p = write_bytes ("empty.sofa", "", 0);
  expect_fail (rw_hrtf_open (p, 48000, &err), &err, RW_ERROR_INPUT, p, "not a SOFA file",
               "empty file");

  err = (RwError) { 0 };
  p = rw_test_write_text ("text.sofa", "this is not an HRTF set\n");
  expect_fail (rw_hrtf_open (p, 48000, &err), &err, RW_ERROR_INPUT, p, "not a SOFA file",
               "text file");

  unsigned char junk[4096];
  memcpy (junk, "\x89HDF\r\n\x1a\n", 8);
  uint64_t state = 7;
  for (size_t i = 8; i < sizeof junk; i++)
    junk[i] = (unsigned char) (256.0 * rw_test_uniform (&state));
  err = (RwError) { 0 };
  p = write_bytes ("junk.sofa", junk, sizeof junk);
  const char *junk_path = p;
  expect_fail (rw_hrtf_open (p, 48000, &err), &err, RW_ERROR_INPUT, p,
               "not a SOFA file libmysofa can read", "HDF5 signature, then noise");

  /* The bundled set, cut short and patched. */
  char *kemar = rw_data_path (RW_HRTF_DEFAULT_FILE);
  size_t n = 0;
  unsigned char *data = kemar != NULL ? read_all (kemar, &n) : NULL;
  RW_CHECK (data != NULL && n > 100000, "the bundled set %s is readable", RW_HRTF_DEFAULT_FILE);
  if (data != NULL)
    {
      check_helper (write_bytes ("mine.sofa", data, n), data, n, junk_path);
      err = (RwError) { 0 };
      p = write_bytes ("cut.sofa", data, n / 3);
      RwHrtf *h = rw_hrtf_open (p, 48000, &err);
      expect_fail (h, &err, RW_ERROR_INPUT, p, "not", "the bundled set cut to a third");

      static const char conv[] = "SimpleFreeFieldHRIR";
      size_t hits = 0;
      for (size_t i = 0; i + sizeof conv - 1 <= n; i++)
        if (memcmp (data + i, conv, sizeof conv - 1) == 0)
          {
            memcpy (data + i, "SimpleFreeFieldHRTF", sizeof conv - 1);
            hits++;
          }
      RW_CHECK (hits >= 1, "the convention's text is in the file (%zu times)", hits);
      err = (RwError) { 0 };
      p = write_bytes ("hrtf-convention.sofa", data, n);
      expect_fail (rw_hrtf_open (p, 48000, &err), &err, RW_ERROR_INPUT, p,
                   "SimpleFreeFieldHRTF", "a SOFA file of another convention");
      free (data);
    }

  /* Rates. */
  const double bad_rates[] = { 4000.0, 1e6, NAN, -48000.0 };
  for (size_t i = 0; i < sizeof bad_rates / sizeof bad_rates[0]; i++)
    {
      err = (RwError) { 0 };
      char what[64];
      snprintf (what, sizeof what, "rate %g Hz", bad_rates[i]);
      expect_fail (rw_hrtf_open (kemar, bad_rates[i], &err), &err, RW_ERROR_INPUT, kemar,
                   "cannot be used", what);
    }

  /* Directions and renders on a good handle. */
  err = (RwError) { 0 };
  RwHrtf *h = rw_hrtf_open (NULL, 48000, &err);
  RW_CHECK (h != NULL, "default set: %s", err.message);
  if (h != NULL)
    {
      const size_t len = rw_hrtf_length (h);
      float *l = malloc (len * sizeof *l), *r = malloc (len * sizeof *r);
      const double zero[3] = { 0, 0, 0 }, nan_dir[3] = { 1, NAN, 0 };
      err = (RwError) { 0 };
      RW_CHECK (!rw_hrtf_get (h, zero, l, r, NULL, NULL, &err) && err.code == RW_ERROR_INPUT
                && strstr (err.message, "direction") != NULL, "zero direction: %s", err.message);
      RW_NOTE ("zero direction: %s", err.message);
      err = (RwError) { 0 };
      RW_CHECK (!rw_hrtf_get (h, nan_dir, l, r, NULL, NULL, &err) && err.code == RW_ERROR_INPUT,
                "direction not finite: %s", err.message);
      free (l);
      free (r);

      double out_l[64], out_r[64];
      RwHrtfArrival a[2] = { { .time_s = 0.001, .direction = { 1, 0, 0 } },
                             { .time_s = 0.002, .direction = { 0, 1, 0 } } };
      for (int b = 0; b < RW_N_OCTAVES; b++)
        a[0].gain[b] = a[1].gain[b] = 1.0;
      err = (RwError) { 0 };
      RW_CHECK (!rw_hrtf_render_arrivals (h, a, 2, 0, out_l, out_r, &err)
                && err.code == RW_ERROR_INPUT, "render of 0 samples: %s", err.message);
      a[1].gain[3] = INFINITY;
      err = (RwError) { 0 };
      RW_CHECK (!rw_hrtf_render_arrivals (h, a, 2, 64, out_l, out_r, &err)
                && err.code == RW_ERROR_INPUT && strstr (err.message, "arrival 2") != NULL,
                "arrival with an infinite gain: %s", err.message);
      RW_NOTE ("infinite gain: %s", err.message);
      rw_hrtf_free (h);
    }
  free (kemar);
  return rw_test_finish ();
}
