/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-checkpoint.c — a run's state in a file and back, and the solver's
 * periodic and requested checkpoints; see rw-checkpoint.h. */
#include "rw-checkpoint.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rw-admittance.h"
#include "rw-clock.h"
#include "rw-comm.h"
#include "rw-file.h"
#include "rw-i18n.h"
#include "rw-solver-private.h"

/* ---- the checksum: FNV-1a over 64-bit words ---------------------------
 *
 * One multiply per 8 bytes (FNV-1a a byte at a time would take seconds
 * for a checkpoint of gigabytes). h ← (h ⊕ w)·P with P odd is a bijection
 * of w for a given h and of h for a given w, so one changed word changes
 * every later h; the length and a final bijective mix close it. */
#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

typedef struct {
  uint64_t h, len;
  unsigned char tail[8];
  size_t n_tail;
} Hash;

static void
hash_init (Hash *x)
{
  x->h = FNV_OFFSET;
  x->len = 0;
  x->n_tail = 0;
}

static void
hash_word (Hash *x, uint64_t w)
{
  x->h = (x->h ^ w) * FNV_PRIME;
}

static void
hash_bytes (Hash *x, const void *data, size_t n)
{
  const unsigned char *p = data;
  x->len += n;
  while (x->n_tail > 0 && n > 0)
    {
      x->tail[x->n_tail++ & 7] = *p++;   /* n_tail < 8 here; the mask tells GCC */
      n--;
      if (x->n_tail == 8)
        {
          uint64_t w;
          memcpy (&w, x->tail, 8);
          hash_word (x, w);
          x->n_tail = 0;
        }
    }
  for (; n >= 8; p += 8, n -= 8)
    {
      uint64_t w;
      memcpy (&w, p, 8);
      hash_word (x, w);
    }
  while (n > 0)
    {
      x->tail[x->n_tail++ & 7] = *p++;   /* n_tail < 8 here; the mask tells GCC */
      n--;
    }
}

static void
hash_u64 (Hash *x, uint64_t v)
{
  hash_bytes (x, &v, sizeof v);
}

static void
hash_double (Hash *x, double v)
{
  hash_bytes (x, &v, sizeof v);
}

static uint64_t
hash_end (const Hash *x)
{
  Hash y = *x;
  if (y.n_tail > 0)
    {
      uint64_t w = 0;
      memcpy (&w, y.tail, y.n_tail);
      hash_word (&y, w);
    }
  hash_word (&y, y.len);
  uint64_t h = y.h;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  return h;
}

/* ---- the header -------------------------------------------------------- */

enum {
  W_MAGIC, W_ENDIAN, W_VERSION, W_WORDS,
  W_RANK, W_SIZE, W_Z0, W_Z1,
  W_NX, W_NY, W_NZ, W_LATTICE,
  W_PRECISION, W_BOUNDARY, W_BACKEND, W_BACKEND_2,
  W_N_STEPS, W_H_GRID, W_H_SURFACES, W_H_SOURCE, W_H_RECEIVERS,
  W_STEP, W_N_USER, W_N_CELLS, W_N_LOCAL, W_FLAGS,
  W_M_COUNT, W_E_FIRST, W_E_MIN, W_E_MIN_STEP,
  W_BLOB, W_HEADER_SUM,
  W_COUNT
};

#define MAGIC "RWCHKPT\n"
#define ENDIAN 0x0102030405060708ULL
#define F_STENCILS 1u
#define F_GATHERED 2u

/* The setup the backend steps: the rank's slab, or the whole. */
static const RwSolverSetup *
backend_setup (const RwSolver *s)
{
  return s->comm != NULL ? &s->local : &s->setup;
}

static uint64_t
bits (double v)
{
  uint64_t u;
  memcpy (&u, &v, sizeof u);
  return u;
}

static double
from_bits (uint64_t u)
{
  double v;
  memcpy (&v, &u, sizeof v);
  return v;
}

/* The setup's four fingerprints: the rank's grid, the surfaces, the
 * source and the receivers (field by field: no struct padding hashed). */
static void
fingerprints (const RwSolver *s, uint64_t out[4])
{
  const RwSolverSetup *b = backend_setup (s);
  const RwGrid *g = b->grid;
  const size_t n = g->nx * g->ny * g->nz;
  Hash x;

  hash_init (&x);
  hash_u64 (&x, (uint64_t) g->lattice);
  hash_u64 (&x, g->nx);
  hash_u64 (&x, g->ny);
  hash_u64 (&x, g->nz);
  hash_double (&x, g->h);
  for (int a = 0; a < 3; a++)
    hash_double (&x, g->origin[a]);
  hash_u64 (&x, g->n_inside);
  hash_u64 (&x, g->n_boundary);
  hash_u64 (&x, g->n_surfaces);
  hash_bytes (&x, g->K, n);
  if (g->surface != NULL)
    hash_bytes (&x, g->surface, n * sizeof *g->surface);
  if (g->area != NULL)
    hash_bytes (&x, g->area, g->n_boundary * sizeof *g->area);
  out[0] = hash_end (&x);

  hash_init (&x);
  hash_u64 (&x, (uint64_t) b->boundary);
  hash_double (&x, b->time_step_s);
  for (size_t i = 0; i < g->n_surfaces; i++)
    {
      hash_double (&x, b->surface_R[i]);
      const RwAdmittance *y = b->surface_Y != NULL ? &b->surface_Y[i] : NULL;
      hash_u64 (&x, y != NULL ? (uint64_t) y->n_branches + 1 : 0);
      if (y == NULL)
        continue;
      hash_double (&x, y->Y0);
      for (int k = 0; k < y->n_branches; k++)
        {
          hash_double (&x, y->branch[k].D);
          hash_double (&x, y->branch[k].E);
          hash_double (&x, y->branch[k].F);
        }
    }
  out[1] = hash_end (&x);

  hash_init (&x);
  hash_u64 (&x, (uint64_t) b->source_kind);
  hash_u64 (&x, rw_solver_source_n (b));
  for (size_t i = 0; i < rw_solver_source_n (b); i++)
    {
      hash_u64 (&x, rw_solver_source_cell (b, i));
      hash_double (&x, rw_solver_source_weight (b, i));
    }
  hash_bytes (&x, b->source_signal, b->n_steps * sizeof (double));
  out[2] = hash_end (&x);

  hash_init (&x);
  hash_u64 (&x, s->n_user);
  for (size_t r = 0; s->stencils != NULL && r < s->n_user; r++)
    {
      hash_u64 (&x, s->stencils[r].n);
      for (size_t i = 0; i < s->stencils[r].n; i++)
        {
          hash_u64 (&x, s->stencils[r].cell[i]);
          hash_double (&x, s->stencils[r].weight[i]);
        }
    }
  hash_u64 (&x, s->setup.n_receivers);
  for (size_t j = 0; j < s->setup.n_receivers; j++)
    hash_u64 (&x, s->setup.receiver_cells[j]);
  hash_u64 (&x, s->n_local);
  for (size_t j = 0; j < s->n_local; j++)
    {
      hash_u64 (&x, s->local_cells[j]);
      hash_u64 (&x, s->local_of[j]);
    }
  out[3] = hash_end (&x);
}

/* The fingerprints, hashed at the first checkpoint written or read: the
 * setup does not change after rw_solver_new, and the grid is the most a
 * rank holds (a write on SIGTERM should not hash it again). */
static const uint64_t *
setup_fingerprints (RwSolver *s)
{
  if (!s->ckpt_fp_have)
    fingerprints (s, s->ckpt_fp);
  s->ckpt_fp_have = true;
  return s->ckpt_fp;
}

/* The owned planes of the whole grid. */
static void
owned_planes (const RwSolver *s, size_t *z0, size_t *z1)
{
  *z0 = s->comm != NULL ? s->cuts[s->rank] : 0;
  *z1 = s->comm != NULL ? s->cuts[s->rank + 1] : s->setup.grid->nz;
}

static size_t
cells_of (const RwSolver *s)
{
  return s->stencils != NULL ? s->setup.n_receivers : 0;
}

/* The header of the solver's state now (without its checksum). */
static void
fill_header (RwSolver *s, uint64_t h[W_COUNT])
{
  const RwGrid *g = s->setup.grid;
  size_t z0, z1;
  memset (h, 0, W_COUNT * sizeof *h);
  memcpy (&h[W_MAGIC], MAGIC, 8);
  h[W_ENDIAN] = ENDIAN;
  h[W_VERSION] = RW_CHECKPOINT_VERSION;
  h[W_WORDS] = W_COUNT;
  h[W_RANK] = (uint64_t) s->rank;
  h[W_SIZE] = (uint64_t) (s->comm != NULL ? s->size : 1);
  owned_planes (s, &z0, &z1);
  h[W_Z0] = z0;
  h[W_Z1] = z1;
  h[W_NX] = g->nx;
  h[W_NY] = g->ny;
  h[W_NZ] = g->nz;
  h[W_LATTICE] = (uint64_t) g->lattice;
  h[W_PRECISION] = (uint64_t) s->setup.precision;
  h[W_BOUNDARY] = (uint64_t) s->setup.boundary;
  strncpy ((char *) &h[W_BACKEND], s->ops->name, 2 * sizeof (uint64_t) - 1);
  h[W_N_STEPS] = s->setup.n_steps;
  memcpy (&h[W_H_GRID], setup_fingerprints (s), 4 * sizeof *h);
  h[W_STEP] = s->step;
  h[W_N_USER] = s->n_user;
  h[W_N_CELLS] = cells_of (s);
  h[W_N_LOCAL] = s->comm != NULL ? s->n_local : 0;
  h[W_FLAGS] = (s->stencils != NULL ? F_STENCILS : 0) | (s->gathered ? F_GATHERED : 0);
  h[W_M_COUNT] = s->m_count;
  h[W_E_FIRST] = bits (s->e_first);
  h[W_E_MIN] = bits (s->e_min);
  h[W_E_MIN_STEP] = s->e_min_step;
  h[W_BLOB] = s->ops->state_bytes (s->state);
  Hash x;
  hash_init (&x);
  hash_bytes (&x, h, W_HEADER_SUM * sizeof *h);
  h[W_HEADER_SUM] = hash_end (&x);
}

/* Bytes after the header: the receivers' first `step` samples (user,
 * stencil cells, the rank's cells), the readings, the backend's state and
 * the checksum. */
static uint64_t
payload_bytes (const uint64_t h[W_COUNT])
{
  return 8 * (h[W_STEP] * (h[W_N_USER] + h[W_N_CELLS] + h[W_N_LOCAL]) + 2 * h[W_M_COUNT])
         + h[W_BLOB] + 8;
}

/* ---- save ---------------------------------------------------------------- */

static bool
put (RwAtomicFile *af, Hash *x, const void *data, size_t n, RwError *err)
{
  hash_bytes (x, data, n);
  return n == 0 || rw_atomic_file_write (af, data, n, err);
}

/* Each of n signals' first k samples, signal i at base + i·stride. */
static bool
put_signals (RwAtomicFile *af, Hash *x, const double *base, size_t n, size_t stride, size_t k,
             RwError *err)
{
  for (size_t i = 0; i < n; i++)
    if (!put (af, x, base + i * stride, k * sizeof (double), err))
      return false;
  return true;
}

/* Writes and syncs the temporary file; commit renames it. */
static bool
write_file (RwSolver *s, RwAtomicFile *af, const char *path, RwError *err)
{
  uint64_t h[W_COUNT];
  fill_header (s, h);
  const size_t stride = s->setup.n_steps, k = s->step;
  Hash x;
  hash_init (&x);
  if (!put (af, &x, h, sizeof h, err)
      || !put_signals (af, &x, s->rcv, s->n_user, stride, k, err)
      || !put_signals (af, &x, s->cell_rcv, cells_of (s), stride, k, err)
      || !put_signals (af, &x, s->local_rcv, h[W_N_LOCAL], stride, k, err))
    return false;
  for (size_t i = 0; i < s->m_count; i++)
    {
      const uint64_t v = s->m_steps[i];
      if (!put (af, &x, &v, sizeof v, err))
        return false;
    }
  if (!put (af, &x, s->m_sums, s->m_count * sizeof (double), err))
    return false;
  const size_t n = s->ops->state_bytes (s->state);
  void *blob = malloc (n + 1);
  if (blob == NULL)
    return rw_fail (err, RW_ERROR_MEMORY,
                    _("%s: out of memory for the checkpoint (%zu bytes of the backend's state)"),
                    path, n);
  bool ok = s->ops->save_state (s->state, blob, err) && put (af, &x, blob, n, err);
  free (blob);
  const uint64_t sum = hash_end (&x);
  if (!ok || !put (af, &x, &sum, sizeof sum, err))
    return false;
  if (fsync (af->fd) != 0)
    return rw_fail (err, RW_ERROR_IO, _("%s: cannot write the file: %s"), path, strerror (errno));
  return true;
}

bool
rw_solver_checkpoint_save (RwSolver *s, const char *path, RwError *err)
{
  bool ok = true;
  RwAtomicFile af = { .fd = -1 };
  if (s->failed)
    ok = rw_fail (err, RW_ERROR_INPUT, _("%s: the run failed, so its state is not worth keeping: %s"),
                  path, s->failure.message);
  else if (!rw_solver_live (s, err))
    ok = false;
  else if (s->ops->state_bytes == NULL || s->ops->save_state == NULL)
    ok = rw_fail (err, RW_ERROR_UNSUPPORTED, _("The %s backend cannot write checkpoints"),
                  s->ops->name);
  ok = ok && rw_atomic_file_open (&af, path, err) && write_file (s, &af, path, err);
  /* every rank's file written and synced before any is renamed: the
   * folder never holds files of two steps */
  if (!rw_solver_agree (s, ok, err))
    {
      rw_atomic_file_abort (&af);
      return false;
    }
  if (!rw_solver_agree (s, rw_atomic_file_commit (&af, err), err))
    return false;
  s->ckpt_have = true;
  s->ckpt_step = s->step;
  return true;
}

/* ---- load ---------------------------------------------------------------- */

/* A checkpoint read and checked, not yet taken by the solver. */
typedef struct {
  uint64_t h[W_COUNT];
  double *rcv, *cell_rcv, *local_rcv, *m_sums;
  size_t *m_steps;
  void *blob;
} Loaded;

static void
loaded_clear (Loaded *l)
{
  free (l->rcv);
  free (l->cell_rcv);
  free (l->local_rcv);
  free (l->m_sums);
  free (l->m_steps);
  free (l->blob);
  memset (l, 0, sizeof *l);
}

static const char *
lattice_name (uint64_t lattice)
{
  return rw_scheme_name (rw_lattice_scheme ((RwLattice) lattice));
}

/* Whether the header is of this run: a message naming the file and what
 * differs. Checked before anything is allocated from its sizes. */
static bool
check_header (RwSolver *s, const char *path, const uint64_t *h, RwError *err)
{
  const RwGrid *g = s->setup.grid;
  const int size = s->comm != NULL ? s->size : 1;
  char backend[2 * sizeof (uint64_t)];
  memcpy (backend, &h[W_BACKEND], sizeof backend);
  backend[sizeof backend - 1] = '\0';
  typedef unsigned long long ull;

  if (h[W_SIZE] != (uint64_t) size)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("%s is a checkpoint of a run over %llu ranks, and this run has %d: it "
                      "continues only on %llu ranks (mpirun -np %llu)"),
                    path, (ull) h[W_SIZE], size, (ull) h[W_SIZE], (ull) h[W_SIZE]);
  if (h[W_RANK] != (uint64_t) s->rank)
    return rw_fail (err, RW_ERROR_INPUT, _("%s is the checkpoint of rank %llu, not of rank %d"),
                    path, (ull) h[W_RANK], s->rank);
  if (h[W_NX] != g->nx || h[W_NY] != g->ny || h[W_NZ] != g->nz || h[W_LATTICE] != g->lattice)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("%s is the checkpoint of another run: made on a grid of %llu × %llu × %llu "
                      "cells (%s), and this run's is %zu × %zu × %zu (%s)"),
                    path, (ull) h[W_NX], (ull) h[W_NY], (ull) h[W_NZ], lattice_name (h[W_LATTICE]),
                    g->nx, g->ny, g->nz, lattice_name (g->lattice));
  if (strcmp (backend, s->ops->name) != 0)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("%s was written by the %s backend, and this run uses the %s backend, which "
                      "stores its state differently: continue it with the %s backend"),
                    path, backend, s->ops->name, backend);
  if (h[W_PRECISION] != (uint64_t) s->setup.precision)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("%s holds a run in %s, and this run is in %s: continue it in %s"), path,
                    rw_precision_name ((RwPrecision) h[W_PRECISION]),
                    rw_precision_name (s->setup.precision),
                    rw_precision_name ((RwPrecision) h[W_PRECISION]));
  if (h[W_BOUNDARY] != (uint64_t) s->setup.boundary)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("%s holds a run with the %s boundary, and this run has the %s boundary"),
                    path, rw_boundary_name ((RwBoundary) h[W_BOUNDARY]),
                    rw_boundary_name (s->setup.boundary));
  if (h[W_N_STEPS] != s->setup.n_steps)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("%s holds a run of %llu steps, and this run has %zu (another duration?)"),
                    path, (ull) h[W_N_STEPS], s->setup.n_steps);
  const uint64_t *mine = setup_fingerprints (s);
  static const char *const what[4] = {
    N_ ("grid (the room's cells, their surfaces or the spacing)"),
    N_ ("surface materials"),
    N_ ("source (its position or signal)"),
    N_ ("receivers"),
  };
  for (int i = 0; i < 4; i++)
    if (h[W_H_GRID + i] != mine[i])
      return rw_fail (err, RW_ERROR_INPUT, _("%s is the checkpoint of another run: not the same %s"),
                      path, _(what[i]));
  size_t z0, z1;
  owned_planes (s, &z0, &z1);
  if (h[W_Z0] != z0 || h[W_Z1] != z1 || h[W_N_USER] != s->n_user || h[W_N_CELLS] != cells_of (s)
      || h[W_N_LOCAL] != (s->comm != NULL ? s->n_local : 0)
      || ((h[W_FLAGS] & F_STENCILS) != 0) != (s->stencils != NULL))
    return rw_fail (err, RW_ERROR_INPUT, _("%s is the checkpoint of another run: not the same %s"),
                    path, _(what[3]));
  const size_t blob = s->ops->state_bytes (s->state);
  if (h[W_BLOB] != blob)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("%s holds %llu bytes of the backend's state, and this run's is %zu bytes"),
                    path, (ull) h[W_BLOB], blob);
  /* the checksum held, so these are the writer's bugs, not the disk's */
  if (h[W_STEP] > s->setup.n_steps || h[W_M_COUNT] > s->setup.n_steps + 2)
    return rw_fail (err, RW_ERROR_INPUT, _("%s is corrupt: step %llu of a run of %zu steps"), path,
                    (ull) h[W_STEP], s->setup.n_steps);
  return true;
}

static bool
get (FILE *f, const char *path, Hash *x, void *data, size_t n, RwError *err)
{
  if (n > 0 && fread (data, 1, n, f) != n)
    return rw_fail (err, RW_ERROR_IO, _("%s: cannot read the checkpoint: %s"), path,
                    ferror (f) ? strerror (errno) : _("it ended early"));
  hash_bytes (x, data, n);
  return true;
}

/* n signals of k samples, into one block (NULL when n = 0). */
static bool
get_signals (FILE *f, const char *path, Hash *x, double **out, size_t n, size_t k, RwError *err)
{
  *out = NULL;
  if (n == 0)
    return true;
  *out = malloc (n * k * sizeof (double) + 1);
  if (*out == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory"), path);
  return get (f, path, x, *out, n * k * sizeof (double), err);
}

/* Whether the readings read are what a run records (rw-solver.c's
 * check_energy): their steps rising, none past the checkpoint's step,
 * their sums finite; the energy reference finite and not negative, taken
 * at a step not past it. */
static bool
readings_valid (const Loaded *l)
{
  const uint64_t step = l->h[W_STEP];
  const size_t m = l->h[W_M_COUNT];
  for (size_t i = 0; i < m; i++)
    if (l->m_steps[i] > step || (i > 0 && l->m_steps[i] <= l->m_steps[i - 1])
        || !isfinite (l->m_sums[i]))
      return false;
  const double e_first = from_bits (l->h[W_E_FIRST]), e_min = from_bits (l->h[W_E_MIN]);
  return isfinite (e_first) && e_first >= 0 && isfinite (e_min) && e_min >= 0
         && l->h[W_E_MIN_STEP] <= step;
}

/* Reads path and checks it against the solver (rw-checkpoint.h's order);
 * the solver is not touched. */
static bool
read_file (RwSolver *s, const char *path, Loaded *l, RwError *err)
{
  typedef unsigned long long ull;
  memset (l, 0, sizeof *l);
  FILE *f = fopen (path, "rb");
  if (f == NULL)
    return rw_fail (err, RW_ERROR_IO, _("%s: cannot open the checkpoint: %s"), path,
                    strerror (errno));
  bool ok = false;
  struct stat st;
  if (fstat (fileno (f), &st) != 0)
    {
      rw_fail (err, RW_ERROR_IO, _("%s: cannot open the checkpoint: %s"), path, strerror (errno));
      goto out;
    }
  if (!rw_file_check_regular (path, &st, _("a checkpoint"), err))
    goto out;
  const size_t have = fread (l->h, 1, sizeof l->h, f);
  if (have < 8 || memcmp (&l->h[W_MAGIC], MAGIC, 8) != 0)
    {
      rw_fail (err, RW_ERROR_INPUT, _("%s is not a Roomwave checkpoint"), path);
      goto out;
    }
  if (have < sizeof l->h)
    {
      rw_fail (err, RW_ERROR_INPUT,
               _("%s is truncated: %llu bytes, less than a checkpoint's header (%zu bytes)"), path,
               (ull) st.st_size, sizeof l->h);
      goto out;
    }
  if (l->h[W_ENDIAN] != ENDIAN)
    {
      rw_fail (err, RW_ERROR_INPUT, _("%s was written on a machine of the other byte order"), path);
      goto out;
    }
  if (l->h[W_VERSION] != RW_CHECKPOINT_VERSION || l->h[W_WORDS] != W_COUNT)
    {
      rw_fail (err, RW_ERROR_INPUT, _("%s is a checkpoint of version %llu; this Roomwave reads "
                                      "version %d"), path, (ull) l->h[W_VERSION],
               RW_CHECKPOINT_VERSION);
      goto out;
    }
  Hash x;
  hash_init (&x);
  hash_bytes (&x, l->h, W_HEADER_SUM * sizeof (uint64_t));
  if (hash_end (&x) != l->h[W_HEADER_SUM])
    {
      rw_fail (err, RW_ERROR_INPUT, _("%s is corrupt: its header's checksum does not match"), path);
      goto out;
    }
  if (!check_header (s, path, l->h, err))
    goto out;
  const uint64_t want = sizeof l->h + payload_bytes (l->h);
  if ((uint64_t) st.st_size < want)
    {
      rw_fail (err, RW_ERROR_INPUT,
               _("%s is truncated: %llu bytes of %llu (its writing was cut short)"), path,
               (ull) st.st_size, (ull) want);
      goto out;
    }
  if ((uint64_t) st.st_size > want)
    {
      rw_fail (err, RW_ERROR_INPUT, _("%s is corrupt: %llu bytes, and its header says %llu"), path,
               (ull) st.st_size, (ull) want);
      goto out;
    }
  /* the payload, summed as it is read */
  hash_init (&x);
  hash_bytes (&x, l->h, sizeof l->h);
  const size_t k = l->h[W_STEP], m = l->h[W_M_COUNT];
  if (!get_signals (f, path, &x, &l->rcv, l->h[W_N_USER], k, err)
      || !get_signals (f, path, &x, &l->cell_rcv, l->h[W_N_CELLS], k, err)
      || !get_signals (f, path, &x, &l->local_rcv, l->h[W_N_LOCAL], k, err))
    goto out;
  l->m_steps = malloc (m * sizeof *l->m_steps + 1);
  l->m_sums = malloc (m * sizeof *l->m_sums + 1);
  l->blob = malloc (l->h[W_BLOB] + 1);
  if (l->m_steps == NULL || l->m_sums == NULL || l->blob == NULL)
    {
      rw_fail (err, RW_ERROR_MEMORY,
               _("%s: out of memory for the checkpoint (%zu bytes of the backend's state)"), path,
               (size_t) l->h[W_BLOB]);
      goto out;
    }
  for (size_t i = 0; i < m; i++)
    {
      uint64_t v;
      if (!get (f, path, &x, &v, sizeof v, err))
        goto out;
      l->m_steps[i] = (size_t) v;
    }
  uint64_t sum;
  if (!get (f, path, &x, l->m_sums, m * sizeof (double), err)
      || !get (f, path, &x, l->blob, l->h[W_BLOB], err))
    goto out;
  const uint64_t expect = hash_end (&x);
  if (fread (&sum, 1, sizeof sum, f) != sizeof sum || sum != expect)
    {
      rw_fail (err, RW_ERROR_INPUT, _("%s is corrupt: its checksum does not match its contents"),
               path);
      goto out;
    }
  /* the checksum held, so these are the writer's bugs (or a file made to
   * pass it), refused all the same: the readings steer the drift's
   * removal (rw-postprocess.c interpolates between their steps) and the
   * growth monitor */
  if (!readings_valid (l))
    {
      rw_fail (err, RW_ERROR_INPUT,
               _("%s is corrupt: its uniform-mode readings or its energy reference are not a "
                 "run's (steps out of order or past step %llu, or values not finite)"),
               path, (ull) l->h[W_STEP]);
      goto out;
    }
  ok = true;
out:
  fclose (f);
  if (!ok)
    loaded_clear (l);
  return ok;
}

/* n signals of k samples from `from` into the solver's buffers (stride
 * n_steps), the rest of each zero as in a new solver. */
static void
take_signals (double *to, const double *from, size_t n, size_t k, size_t stride)
{
  for (size_t i = 0; i < n; i++)
    {
      memcpy (to + i * stride, from + i * k, k * sizeof (double));
      memset (to + i * stride + k, 0, (stride - k) * sizeof (double));
    }
}

static bool
take (RwSolver *s, Loaded *l, RwError *err)
{
  if (!s->ops->load_state (s->state, l->blob, err))
    {
      /* the backend may hold part of the state: unusable */
      s->failed = true;
      if (err != NULL)
        s->failure = *err;
      return false;
    }
  const size_t k = l->h[W_STEP], stride = s->setup.n_steps;
  take_signals (s->rcv, l->rcv, s->n_user, k, stride);
  take_signals (s->cell_rcv, l->cell_rcv, cells_of (s), k, stride);
  take_signals (s->local_rcv, l->local_rcv, l->h[W_N_LOCAL], k, stride);
  free (s->m_steps);
  free (s->m_sums);
  s->m_steps = l->m_steps;
  s->m_sums = l->m_sums;
  s->m_count = s->m_cap = l->h[W_M_COUNT];
  l->m_steps = NULL;
  l->m_sums = NULL;
  s->e_first = from_bits (l->h[W_E_FIRST]);
  s->e_min = from_bits (l->h[W_E_MIN]);
  s->e_min_step = l->h[W_E_MIN_STEP];
  s->gathered = (l->h[W_FLAGS] & F_GATHERED) != 0;
  s->step = k;
  s->failed = false;
  s->ckpt_have = true;
  s->ckpt_step = k;
  return true;
}

bool
rw_solver_checkpoint_load (RwSolver *s, const char *path, RwError *err)
{
  Loaded l;
  bool ok = true;
  if (!rw_solver_live (s, err))
    ok = false;
  else if (s->ops->state_bytes == NULL || s->ops->load_state == NULL)
    ok = rw_fail (err, RW_ERROR_UNSUPPORTED, _("The %s backend cannot read checkpoints"),
                  s->ops->name);
  else
    ok = read_file (s, path, &l, err);
  if (!rw_solver_agree (s, ok, err))
    {
      if (ok)
        loaded_clear (&l);
      return false;
    }
  /* the ranks' files of one step (a rename that failed on one rank) */
  if (s->comm != NULL)
    {
      uint64_t *steps = malloc ((size_t) s->size * sizeof *steps);
      if (steps == NULL)
        rw_comm_abort (s->comm, _("Out of memory"));
      if (!rw_comm_allgather (s->comm, &l.h[W_STEP], sizeof *steps, steps, err))
        {
          free (steps);
          loaded_clear (&l);
          return false;
        }
      for (int r = 1; ok && r < s->size; r++)
        if (steps[r] != steps[0])
          ok = rw_fail (err, RW_ERROR_INPUT,
                        _("%s: the ranks' checkpoint files are of different steps (rank 0: %llu, "
                          "rank %d: %llu), so they are not one checkpoint"),
                        path, (unsigned long long) steps[0], r, (unsigned long long) steps[r]);
      free (steps);
      if (!ok)
        {
          loaded_clear (&l);
          return false;
        }
    }
  ok = take (s, &l, err);
  loaded_clear (&l);
  return rw_solver_agree (s, ok, err);
}

/* ---- folders ------------------------------------------------------------- */

void
rw_solver_checkpoint_path (const RwSolver *s, const char *dir, char *buf, size_t len)
{
  snprintf (buf, len, "%s/rank-%d-of-%d.ckpt", dir, s->rank, s->comm != NULL ? s->size : 1);
}

/* Whether name is a checkpoint file's, "rank-R-of-N.ckpt" (*tmp false), or
 * a temporary file of one, "rank-R-of-N.ckpt.tmp-…" (*tmp true). */
static bool
checkpoint_name (const char *name, int *rank, int *size, bool *tmp)
{
  int n = -1;
  if (sscanf (name, "rank-%d-of-%d.ckpt%n", rank, size, &n) != 2 || n < 0)
    return false;
  *tmp = name[n] != '\0';
  return name[n] == '\0' || strncmp (name + n, ".tmp-", 5) == 0;
}

/* Fails when dir holds a checkpoint of a run over another number of
 * ranks than `size` (none of this size: the caller found none); removes
 * the temporary files a killed write left of `own` (this rank's name). */
static bool
scan_dir (const char *dir, int size, const char *own, RwError *err)
{
  DIR *d = opendir (dir);
  if (d == NULL)
    return true;   /* no folder: no checkpoint */
  struct dirent *e;
  int other = 0;
  char found[256] = "";
  const size_t own_len = strlen (own);
  while ((e = readdir (d)) != NULL)
    {
      int r, n;
      bool tmp;
      if (!checkpoint_name (e->d_name, &r, &n, &tmp))
        continue;
      if (tmp && strncmp (e->d_name, own, own_len) == 0)
        {
          char path[4096];
          snprintf (path, sizeof path, "%s/%s", dir, e->d_name);
          unlink (path);
        }
      else if (!tmp && n != size && other == 0)
        {
          other = n;
          snprintf (found, sizeof found, "%s", e->d_name);
        }
    }
  closedir (d);
  if (other > 0)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("%s holds the checkpoint of a run over %d ranks (%s), and this run has %d: "
                      "it continues only on %d ranks (mpirun -np %d); give another checkpoint "
                      "folder to start afresh"),
                    dir, other, found, size, other, other);
  return true;
}

bool
rw_solver_checkpoint_resume (RwSolver *s, const char *dir, bool *resumed, RwError *err)
{
  char path[4096];
  *resumed = false;
  rw_solver_checkpoint_path (s, dir, path, sizeof path);
  const char *own = strrchr (path, '/') + 1;
  struct stat st;
  int have = stat (path, &st) == 0 || errno != ENOENT;   /* unreadable: the load says why */
  bool ok = scan_dir (dir, s->comm != NULL ? s->size : 1, own, err) || have;
  /* all ranks' files or none */
  int all = have, any = -have;
  if (s->comm != NULL
      && (!rw_comm_min_int (s->comm, &all, err) || !rw_comm_min_int (s->comm, &any, err)))
    return false;
  any = -any;
  if (ok && any && !have)
    ok = rw_fail (err, RW_ERROR_INPUT,
                  _("%s is missing, and other ranks' checkpoint files are in %s: the checkpoint "
                    "is incomplete; give another checkpoint folder to start afresh"),
                  path, dir);
  if (!rw_solver_agree (s, ok, err))
    return false;
  if (!any)
    return true;
  if (!rw_solver_checkpoint_load (s, path, err))
    return false;
  *resumed = true;
  return true;
}

/* Removes the checkpoint files of one folder; the count of failures. */
static int
remove_in (const char *dir, int depth, RwError *err)
{
  DIR *d = opendir (dir);
  if (d == NULL)
    return 0;
  int failed = 0;
  struct dirent *e;
  while ((e = readdir (d)) != NULL)
    {
      char path[4096];
      int r, n;
      bool tmp;
      unsigned k;
      char c;
      snprintf (path, sizeof path, "%s/%s", dir, e->d_name);
      if (checkpoint_name (e->d_name, &r, &n, &tmp))
        {
          if (unlink (path) != 0 && errno != ENOENT && failed++ == 0)
            rw_fail (err, RW_ERROR_IO, _("%s: cannot remove the checkpoint: %s"), path,
                     strerror (errno));
        }
      else if (depth == 0 && sscanf (e->d_name, "source-%u%c", &k, &c) == 1)
        {
          failed += remove_in (path, 1, err);
          rmdir (path);   /* when empty */
        }
    }
  closedir (d);
  return failed;
}

bool
rw_checkpoint_remove (const char *dir, RwError *err)
{
  return remove_in (dir, 0, err) == 0;
}

/* ---- the solver's checkpoints ------------------------------------------- */

/* dir, and its parent when missing; a folder we may write in. */
static bool
make_dir (const char *dir, RwError *err)
{
  if (!rw_file_make_dir (dir, _("the checkpoint folder"), err))
    return false;
  if (access (dir, W_OK | X_OK) != 0)
    return rw_fail (err, RW_ERROR_IO, _("%s: cannot write checkpoints there: %s"), dir,
                    strerror (errno));
  return true;
}

bool
rw_solver_set_checkpoint (RwSolver *s, const char *dir, double every_s, const atomic_int *now,
                          RwError *err)
{
  bool ok = true;
  if (dir == NULL || dir[0] == '\0')
    ok = rw_fail (err, RW_ERROR_INPUT, _("No checkpoint folder given"));
  else if (s->ops->state_bytes == NULL || s->ops->save_state == NULL
           || s->ops->load_state == NULL)
    ok = rw_fail (err, RW_ERROR_UNSUPPORTED, _("The %s backend cannot write checkpoints"),
                  s->ops->name);
  else
    ok = make_dir (dir, err);
  char *copy = ok ? strdup (dir) : NULL;
  if (ok && copy == NULL)
    ok = rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
  if (!rw_solver_agree (s, ok, err))
    {
      free (copy);
      return false;
    }
  free (s->ckpt_dir);
  s->ckpt_dir = copy;
  s->ckpt_every_s = every_s;
  s->ckpt_now = now;
  s->ckpt_last_s = rw_clock_s ();
  return true;
}

bool
rw_solver_checkpoint_tick (RwSolver *s, bool final, RwError *err)
{
  /* 2: asked for (SIGTERM): write, then stop; 1: due; 0: not now. The
   * ranks take the largest wish, so that all write at this step. */
  const bool asked = s->ckpt_now != NULL && atomic_load (s->ckpt_now);
  int want = asked ? 2
             : final || (s->ckpt_every_s > 0 && rw_clock_s () - s->ckpt_last_s >= s->ckpt_every_s)
               ? 1 : 0;
  if (s->comm != NULL)
    {
      int least = -want;
      if (!rw_comm_min_int (s->comm, &least, err))
        return false;
      want = -least;
    }
  if (want == 0)
    return true;
  /* not twice at one step (a run resumed at its end, a request right
   * after the periodic write) */
  if (!s->ckpt_have || s->ckpt_step != s->step)
    {
      char path[4096];
      rw_solver_checkpoint_path (s, s->ckpt_dir, path, sizeof path);
      RwError e;
      rw_error_clear (&e);
      const bool ok = rw_solver_checkpoint_save (s, path, &e);
      s->ckpt_last_s = rw_clock_s ();
      if (!ok && want == 2 && !final)
        {
          if (err != NULL)
            *err = e;
          return rw_fail_prefix (err, _("The checkpoint asked for at step %zu could not be written"),
                                 s->step);
        }
      if (!ok && s->rank == 0)
        rw_warn (_("The checkpoint at step %zu of %zu was not written, and the run goes on: %s"),
                 s->step, s->setup.n_steps, e.message);
    }
  if (want == 2 && !final)
    return rw_fail (err, RW_ERROR_CANCELLED,
                    _("Stopped at step %zu of %zu; the checkpoint in %s holds the run so far: run "
                      "the same command again to continue from there"),
                    s->step, s->setup.n_steps, s->ckpt_dir);
  return true;
}
