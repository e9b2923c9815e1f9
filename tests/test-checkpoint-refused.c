/* SPDX-License-Identifier: GPL-3.0-or-later */
/* checkpoint-refused: a checkpoint that is not this run's state is
 * refused with a message naming the file and the problem, and the solver
 * is left as it was (rw-checkpoint.h): a byte flipped in the backend's
 * state, in the header and in the checksum; a file cut short (in the
 * payload and inside the header); a file that is no checkpoint, an empty
 * one, a missing one, a folder; the checkpoint of another setup (the
 * source moved, other materials, another precision, another number of
 * steps, another lattice, other receivers); a folder holding the
 * checkpoint of a run over 2 ranks, resumed on 1 (the message says it
 * needs 2); files whose checksums were made right again after a change
 * (test-checkpoint-fnv.h) and are still not a run's: a uniform-mode
 * reading's step out of order or past the checkpoint's, a reading not
 * finite, the energy reference infinite or taken past the step (and,
 * as the control, the good file with its checksums made again loads).
 * Also: resuming from a missing folder starts afresh; a
 * temporary file a killed write left beside the checkpoint is removed and
 * does not stop the resume; a periodic checkpoint that cannot be written
 * (its folder removed) is a warning naming it, and the run goes on to the
 * same result. At the end the solver that every bad file was
 * offered to runs the whole room and matches a fresh solver bit for bit.
 * What fails it: a check left out (the load succeeds or crashes), a
 * message without the file's name, a load that changes the solver before
 * the checksum is known. */
#include "test-checkpoint-common.h"
#include "test-checkpoint-fnv.h"

#include <sys/stat.h>
#include <unistd.h>

#define N_STEPS 400
#define K_STEPS 150

static size_t
file_size (const char *path)
{
  struct stat st;
  return stat (path, &st) == 0 ? (size_t) st.st_size : 0;
}

/* A copy of `from` at `to`, its first `len` bytes (SIZE_MAX: all), with
 * byte `flip` (SIZE_MAX: none) inverted. */
static const char *
copy_file (const char *from, const char *to, size_t len, size_t flip)
{
  FILE *in = fopen (from, "rb"), *out = fopen (to, "wb");
  RW_CHECK (in != NULL && out != NULL, "copy %s to %s", from, to);
  if (in == NULL || out == NULL)
    return to;
  int c;
  for (size_t i = 0; i < len && (c = fgetc (in)) != EOF; i++)
    fputc (i == flip ? c ^ 0xff : c, out);
  fclose (in);
  fclose (out);
  return to;
}

/* The checkpoint's header word w and the offset of its readings (steps,
 * then sums): after the header and the receivers' k samples of each of
 * n_user + n_cells + n_local signals (rw-checkpoint.h, the words of
 * rw-checkpoint.c). */
enum { CK_W_STEP = 21, CK_W_N_USER, CK_W_N_CELLS, CK_W_N_LOCAL, CK_W_M_COUNT = 26,
       CK_W_E_FIRST = 27, CK_W_E_MIN_STEP = 29 };

static uint64_t
ck_word (const unsigned char *buf, int w)
{
  uint64_t v;
  memcpy (&v, buf + 8 * (size_t) w, 8);
  return v;
}

static size_t
ck_readings (const unsigned char *buf)
{
  return 8 * CK_HEADER_WORDS
         + 8 * ck_word (buf, CK_W_STEP)
             * (ck_word (buf, CK_W_N_USER) + ck_word (buf, CK_W_N_CELLS)
                + ck_word (buf, CK_W_N_LOCAL));
}

/* `good` with 8 bytes at `at` replaced by v, both checksums made right
 * again, at `to`. */
static const char *
forged (const char *good, const char *to, size_t at, const void *v)
{
  const size_t n = file_size (good);
  unsigned char *buf = malloc (n);
  FILE *in = fopen (good, "rb");
  const bool read = buf != NULL && in != NULL && fread (buf, 1, n, in) == n;
  if (in != NULL)
    fclose (in);
  RW_CHECK (read && at + 8 <= n, "forge %s from %s", to, good);
  if (read && at + 8 <= n)
    {
      if (v != NULL)
        memcpy (buf + at, v, 8);
      ck_fix_sums (buf, n);
      FILE *out = fopen (to, "wb");
      RW_CHECK (out != NULL && fwrite (buf, 1, n, out) == n, "write %s", to);
      if (out != NULL)
        fclose (out);
    }
  free (buf);
  return to;
}

static char warning[2048];

static void
keep_warning (const char *message, void *data)
{
  (void) data;
  snprintf (warning, sizeof warning, "%s", message);
}

/* Loading path into s fails, the message names path and says `why`, and
 * s stays at step 0. */
static void
refused (RwSolver *s, const char *path, const char *why, const char *what)
{
  RwError err;
  rw_error_clear (&err);
  const bool ok = rw_solver_checkpoint_load (s, path, &err);
  RW_CHECK (!ok && strstr (err.message, path) != NULL && strstr (err.message, why) != NULL,
            "%s: refused naming the file and '%s': %s", what, why, ok ? "(loaded)" : err.message);
  RW_CHECK (rw_solver_step (s) == 0, "%s: the solver is left at step 0 (%zu)", what,
            rw_solver_step (s));
  RW_NOTE ("%s: %s", what, err.message);
}

/* The checkpoint `good` offered to a solver of another setup. */
static void
other_setup (const char *good, const CkRoom *room, const char *why, const char *what)
{
  RwError err;
  rw_error_clear (&err);
  RwSolver *s = rw_solver_new (&room->su, RW_BACKEND_CPU, &err);
  RW_CHECK (s != NULL, "%s: solver: %s", what, err.message);
  if (s != NULL)
    refused (s, good, why, what);
  rw_solver_free (s);
}

int
main (void)
{
  CkRoom room;
  if (!ck_room_init (&room, RW_LATTICE_CUBIC, RW_PRECISION_F64, 0.0, NULL, N_STEPS, NULL))
    return rw_test_finish ();
  RwError err;
  rw_error_clear (&err);
  const char *good = rw_test_tmp_path ("good.ckpt");
  RwSolver *s = rw_solver_new (&room.su, RW_BACKEND_CPU, &err);
  RW_CHECK (rw_solver_advance (s, K_STEPS, &err) && rw_solver_checkpoint_save (s, good, &err),
            "the good checkpoint: %s", err.message);
  rw_solver_free (s);
  const size_t n = file_size (good);
  RW_CHECK (n > 1000, "the checkpoint holds %zu bytes", n);

  RwSolver *victim = rw_solver_new (&room.su, RW_BACKEND_CPU, &err);
  RW_CHECK (victim != NULL, "solver: %s", err.message);
  if (victim == NULL)
    return rw_test_finish ();
  refused (victim, copy_file (good, rw_test_tmp_path ("flip-state.ckpt"), SIZE_MAX, n - n / 3),
           "corrupt", "a byte of the state flipped");
  refused (victim, copy_file (good, rw_test_tmp_path ("flip-header.ckpt"), SIZE_MAX, 70),
           "corrupt", "a byte of the header flipped");
  refused (victim, copy_file (good, rw_test_tmp_path ("flip-sum.ckpt"), SIZE_MAX, n - 1),
           "corrupt", "a byte of the checksum flipped");
  refused (victim, copy_file (good, rw_test_tmp_path ("half.ckpt"), n / 2, SIZE_MAX), "truncated",
           "cut in half");
  refused (victim, copy_file (good, rw_test_tmp_path ("short.ckpt"), 100, SIZE_MAX), "truncated",
           "cut inside the header");
  refused (victim, copy_file (good, rw_test_tmp_path ("long.ckpt"), n - 8, SIZE_MAX), "truncated",
           "the checksum missing");
  refused (victim, rw_test_write_text ("text.ckpt", "step 150\n"), "not a Roomwave checkpoint",
           "a text file");
  refused (victim, rw_test_write_text ("empty.ckpt", ""), "not a Roomwave checkpoint",
           "an empty file");
  refused (victim, rw_test_tmp_path ("missing.ckpt"), "cannot open", "a missing file");
  refused (victim, rw_test_tmpdir (), "folder", "a folder");

  /* files that pass both checksums (made right again after the change)
   * and are not a run's: the readings' steps out of order or past the
   * step, a reading or the energy reference not finite, the energy's
   * least step past the step. First the checksums' restatement itself:
   * the good file with its sums made again loads. */
  {
    unsigned char head[8 * CK_HEADER_WORDS];
    FILE *in = fopen (good, "rb");
    const bool read = in != NULL && fread (head, 1, sizeof head, in) == sizeof head;
    if (in != NULL)
      fclose (in);
    RW_CHECK (read, "the good checkpoint's header read");
    const uint64_t step = read ? ck_word (head, CK_W_STEP) : 0;
    const size_t m = read ? ck_word (head, CK_W_M_COUNT) : 0, at = read ? ck_readings (head) : 0;
    RW_CHECK (m >= 3, "the good checkpoint holds %zu uniform-mode readings (at least 3)", m);
    RwSolver *again = rw_solver_new (&room.su, RW_BACKEND_CPU, &err);
    const char *resummed = forged (good, rw_test_tmp_path ("resummed.ckpt"), 0, NULL);
    const bool same = again != NULL && rw_solver_checkpoint_load (again, resummed, &err);
    RW_CHECK (same && rw_solver_step (again) == K_STEPS,
              "the good checkpoint with its checksums made again loads: %s",
              same ? "" : err.message);
    rw_solver_free (again);
    if (read && m >= 3)
      {
        uint64_t v = 0;   /* reading 2's step 0, after reading 1's */
        refused (victim, forged (good, rw_test_tmp_path ("steps-back.ckpt"), at + 8 * 2, &v),
                 "uniform-mode readings", "a reading's step before the one before it");
        v = step + 1;
        refused (victim, forged (good, rw_test_tmp_path ("steps-past.ckpt"), at + 8 * (m - 1), &v),
                 "uniform-mode readings", "a reading's step past the checkpoint's");
        const double nan = NAN, inf = INFINITY;
        refused (victim, forged (good, rw_test_tmp_path ("sum-nan.ckpt"), at + 8 * (m + 1), &nan),
                 "uniform-mode readings", "a reading's sum not a number");
        refused (victim, forged (good, rw_test_tmp_path ("e-inf.ckpt"), 8 * CK_W_E_FIRST, &inf),
                 "energy reference", "the energy reference infinite");
        v = step + 1;
        refused (victim, forged (good, rw_test_tmp_path ("e-step.ckpt"), 8 * CK_W_E_MIN_STEP, &v),
                 "energy reference", "the energy's least step past the checkpoint's");
      }
  }

  /* the checkpoint of other setups */
  CkRoom other;
  const double moved[3] = { 0.9, 0.7, 1.03 };
  if (ck_room_init (&other, RW_LATTICE_CUBIC, RW_PRECISION_F64, 0.0, moved, N_STEPS, NULL))
    other_setup (good, &other, "source", "the source moved");
  ck_room_clear (&other);
  if (ck_room_init (&other, RW_LATTICE_CUBIC, RW_PRECISION_F64, 0.05, NULL, N_STEPS, NULL))
    other_setup (good, &other, "surface materials", "other materials");
  ck_room_clear (&other);
  if (ck_room_init (&other, RW_LATTICE_CUBIC, RW_PRECISION_F32, 0.0, NULL, N_STEPS, NULL))
    other_setup (good, &other, "f64", "fp32 offered an fp64 checkpoint");
  ck_room_clear (&other);
  if (ck_room_init (&other, RW_LATTICE_CUBIC, RW_PRECISION_F64, 0.0, NULL, N_STEPS + 1, NULL))
    other_setup (good, &other, "steps", "one step more");
  ck_room_clear (&other);
  if (ck_room_init (&other, RW_LATTICE_FCC, RW_PRECISION_F64, 0.0, NULL, N_STEPS, NULL))
    other_setup (good, &other, "grid", "the FCC lattice");
  ck_room_clear (&other);
  if (ck_room_init (&other, RW_LATTICE_CUBIC, RW_PRECISION_F64, 0.0, NULL, N_STEPS, NULL))
    {
      other.su.n_receivers = 2;
      other_setup (good, &other, "receivers", "a receiver fewer");
    }
  ck_room_clear (&other);

  /* folders: another number of ranks, none, a killed write's leftover */
  char dir[512], path[600];
  snprintf (dir, sizeof dir, "%s/two-ranks", rw_test_tmpdir ());
  mkdir (dir, 0755);
  for (int r = 0; r < 2; r++)
    {
      snprintf (path, sizeof path, "%s/rank-%d-of-2.ckpt", dir, r);
      copy_file (good, path, SIZE_MAX, SIZE_MAX);
    }
  bool resumed = true;
  rw_error_clear (&err);
  RW_CHECK (!rw_solver_checkpoint_resume (victim, dir, &resumed, &err) && !resumed
            && strstr (err.message, dir) != NULL && strstr (err.message, "2 ranks") != NULL
            && strstr (err.message, "mpirun -np 2") != NULL,
            "a 2-rank checkpoint on 1 rank: refused, saying it needs 2: %s", err.message);
  RW_NOTE ("2 ranks' checkpoint on 1: %s", err.message);
  snprintf (dir, sizeof dir, "%s/none", rw_test_tmpdir ());
  RW_CHECK (rw_solver_checkpoint_resume (victim, dir, &resumed, &err) && !resumed
            && rw_solver_step (victim) == 0, "a missing folder: a fresh start (%s)", err.message);
  snprintf (dir, sizeof dir, "%s/leftover", rw_test_tmpdir ());
  mkdir (dir, 0755);
  snprintf (path, sizeof path, "%s/rank-0-of-1.ckpt.tmp-AbC123", dir);
  copy_file (good, path, n / 3, SIZE_MAX);
  char tmp[600];
  snprintf (tmp, sizeof tmp, "%s", path);
  snprintf (path, sizeof path, "%s/rank-0-of-1.ckpt", dir);
  copy_file (good, path, SIZE_MAX, SIZE_MAX);
  RwSolver *back = rw_solver_new (&room.su, RW_BACKEND_CPU, &err);
  RW_CHECK (rw_solver_checkpoint_resume (back, dir, &resumed, &err) && resumed
            && rw_solver_step (back) == K_STEPS,
            "resumed beside a killed write's temporary file: %s", err.message);
  RW_CHECK (access (tmp, F_OK) != 0, "the temporary file %s was removed", tmp);

  /* a periodic checkpoint that cannot be written (its folder gone): a
   * warning, and the run goes on to the same end */
  snprintf (dir, sizeof dir, "%s/gone", rw_test_tmpdir ());
  RwSolver *on = rw_solver_new (&room.su, RW_BACKEND_CPU, &err);
  RW_CHECK (rw_solver_set_checkpoint (on, dir, 1e-9, NULL, &err), "set: %s", err.message);
  rmdir (dir);
  rw_set_warn_handler (keep_warning, NULL);
  RW_CHECK (rw_solver_run (on, NULL, NULL, NULL, &err), "the run goes on: %s", err.message);
  rw_set_warn_handler (NULL, NULL);
  RW_CHECK (strstr (warning, "was not written, and the run goes on") != NULL
            && strstr (warning, dir) != NULL, "warned, naming the folder: %s", warning);
  RW_NOTE ("a checkpoint that cannot be written: %s", warning);

  /* the solver every bad file was offered to is untouched */
  RwSolver *fresh = rw_solver_new (&room.su, RW_BACKEND_CPU, &err);
  RW_CHECK (rw_solver_advance (victim, N_STEPS, &err) && rw_solver_advance (fresh, N_STEPS, &err)
            && rw_solver_advance (back, N_STEPS - K_STEPS, &err),
            "runs: %s", err.message);
  ck_same_run (fresh, victim, room.n_rcv, N_STEPS, "after the refusals");
  ck_same_run (fresh, back, room.n_rcv, N_STEPS, "resumed beside the leftover");
  ck_same_run (fresh, on, room.n_rcv, N_STEPS, "checkpoints failing along the way");
  rw_solver_free (on);
  rw_solver_free (fresh);
  rw_solver_free (back);
  rw_solver_free (victim);
  ck_room_clear (&room);
  return rw_test_finish ();
}
