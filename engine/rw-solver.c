/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-solver.c — the solver front end: backend choice, setup checks, the
 * memory prediction, receiver buffers, chunked runs with progress and
 * cancel, and the discrete energy of the scheme.
 *
 * The backends (rw-cpu-backend.c, kernels/) only step the field; every
 * check a user can trip over lives here, once, so that the CPU and the GPU
 * answer bad input with the same message. */
#include "rw-solver.h"
#include "rw-clock.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rw-admittance.h"
#include "rw-comm.h"
#include "rw-i18n.h"
#include "rw-scheme-fcc.h"
#include "rw-slab.h"
#include "rw-solver-private.h"



/* Progress granularity: a chunk of steps is sized to about this much wall
 * time, so that cancel answers within it and progress stays smooth. */
#define RW_CHUNK_SECONDS 0.1

/* Bytes of memory the kernel says a new allocation may take without
 * swapping: MemAvailable, else free pages. 0 when unknown. */
static size_t
available_ram_bytes (void)
{
  FILE *f = fopen ("/proc/meminfo", "r");
  if (f != NULL)
    {
      char line[256];
      unsigned long long kib;
      while (fgets (line, sizeof line, f) != NULL)
        if (sscanf (line, "MemAvailable: %llu kB", &kib) == 1)
          {
            fclose (f);
            return (size_t) kib * 1024;
          }
      fclose (f);
    }
  long pages = sysconf (_SC_AVPHYS_PAGES), page = sysconf (_SC_PAGESIZE);
  if (pages > 0 && page > 0)
    return (size_t) pages * (size_t) page;
  return 0;
}

/* ---- names --------------------------------------------------------------- */

const char *const rw_backend_kind_names[] = {
  [RW_BACKEND_AUTO] = "auto", [RW_BACKEND_CPU] = "cpu", [RW_BACKEND_CUDA] = "cuda", NULL,
};
const char *const rw_precision_names[] = {
  [RW_PRECISION_F32] = "f32", [RW_PRECISION_F64] = "f64", [RW_PRECISION_F16] = "f16", NULL,
};
const char *const rw_boundary_names[] = {
  [RW_BOUNDARY_FV] = "fv", [RW_BOUNDARY_LRS] = "lrs", [RW_BOUNDARY_SAVIOJA] = "savioja", NULL,
};

const char *const rw_scheme_names[] = {
  [RW_SCHEME_AUTO] = "auto", [RW_SCHEME_CARTESIAN] = "cartesian", [RW_SCHEME_FCC] = "fcc", NULL,
};

/* names[i] for 0 ≤ i < its length, else "?". */
static const char *
name_of (const char *const *names, int i)
{
  for (int k = 0; names[k] != NULL; k++)
    if (k == i)
      return names[k];
  return "?";
}

/* The index of s in names, or −1. */
static int
index_of (const char *const *names, const char *s)
{
  for (int k = 0; s != NULL && names[k] != NULL; k++)
    if (strcmp (names[k], s) == 0)
      return k;
  return -1;
}

const char *
rw_backend_kind_name (RwBackendKind k)
{
  return name_of (rw_backend_kind_names, (int) k);
}

const char *
rw_precision_name (RwPrecision p)
{
  return name_of (rw_precision_names, (int) p);
}

const char *
rw_boundary_name (RwBoundary b)
{
  return name_of (rw_boundary_names, (int) b);
}

bool
rw_backend_kind_parse (const char *s, RwBackendKind *out)
{
  int i = index_of (rw_backend_kind_names, s);
  if (i >= 0)
    *out = (RwBackendKind) i;
  return i >= 0;
}

bool
rw_precision_parse (const char *s, RwPrecision *out)
{
  int i = index_of (rw_precision_names, s);
  if (i >= 0)
    *out = (RwPrecision) i;
  return i >= 0;
}

const char *
rw_scheme_name (RwScheme s)
{
  return name_of (rw_scheme_names, (int) s);
}

bool
rw_scheme_parse (const char *s, RwScheme *out)
{
  int i = index_of (rw_scheme_names, s);
  if (i >= 0)
    *out = (RwScheme) i;
  return i >= 0;
}

bool
rw_boundary_parse (const char *s, RwBoundary *out)
{
  int i = index_of (rw_boundary_names, s);
  if (i >= 0)
    *out = (RwBoundary) i;
  return i >= 0;
}

const RwBackendOps *
rw_backend_choose (RwBackendKind kind, RwPrecision precision, RwError *err)
{
  const RwBackendOps *cuda = rw_backend_find ("cuda");
  char why[512] = "";

  switch (kind)
    {
    case RW_BACKEND_CPU:
      return rw_backend_find ("cpu");
    case RW_BACKEND_CUDA:
      if (cuda == NULL)
        {
          rw_fail (err, RW_ERROR_UNSUPPORTED, _("Roomwave was built without CUDA"));
          return NULL;
        }
      if (!cuda->available (why, sizeof why))
        {
          rw_fail (err, RW_ERROR_UNSUPPORTED, _("The CUDA backend cannot run: %s"),
                   why[0] ? why : _("no CUDA device found"));
          return NULL;
        }
      return cuda;
    case RW_BACKEND_AUTO:
      if (cuda != NULL && cuda->available (why, sizeof why))
        return cuda;
      if (precision == RW_PRECISION_F16)
        {
          rw_fail (err, RW_ERROR_UNSUPPORTED,
                   _("fp16 storage needs the CUDA backend, which cannot run here (%s); "
                     "choose fp32 or fp64 for the CPU"),
                   cuda == NULL ? _("Roomwave was built without CUDA")
                                : (why[0] ? why : _("no CUDA device found")));
          return NULL;
        }
      return rw_backend_find ("cpu");
    default:
      rw_fail (err, RW_ERROR_INPUT, _("Unknown solver backend %d"), (int) kind);
      return NULL;
    }
}

bool
rw_reflection_check (double R, RwBoundary boundary, RwError *err)
{
  if (!isfinite (R) || R < -1.0 || R > 1.0)
    return rw_fail (err, RW_ERROR_INPUT, _("the reflection factor %g is outside [−1, 1]"), R);
  /* β = (1 − R)/(1 + R) is infinite at R = −1: the admittance forms
   * (FV, LRS) cannot express a pressure-release wall; the 1-D Savioja
   * termination can. */
  if (R == -1.0 && boundary != RW_BOUNDARY_SAVIOJA)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("a reflection factor of −1 (pressure release) has infinite admittance, which "
                      "the FV and LRS boundaries cannot represent; use −1 < R ≤ 1 or the Savioja "
                      "boundary"));
  return true;
}

static bool
check_cell (const RwGrid *g, size_t cell, const char *what, RwError *err)
{
  size_t n = g->nx * g->ny * g->nz;
  if (cell >= n)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("The %s cell index %zu lies beyond the grid of %zu × %zu × %zu cells"),
                    what, cell, g->nx, g->ny, g->nz);
  size_t x = cell % g->nx, y = (cell / g->nx) % g->ny, z = cell / (g->nx * g->ny);
  /* an odd cell of an FCC grid is never inside: say why, not "outside" */
  if (g->lattice == RW_LATTICE_FCC && (x + y + z) % 2 == 1)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("The %s cell (%zu, %zu, %zu) is not a site of the FCC lattice (x + y + z is "
                      "odd); rw_grid_locate gives the nearest site"),
                    what, x, y, z);
  if (g->K[cell] == 0)
    {
      return rw_fail (err, RW_ERROR_INPUT,
                      _("The %s cell (%zu, %zu, %zu) at (%.3f, %.3f, %.3f) m is outside the room"),
                      what, x, y, z,
                      g->origin[0] + g->h * (double) x,
                      g->origin[1] + g->h * (double) y,
                      g->origin[2] + g->h * (double) z);
    }
  return true;
}

/* A source's or receiver's cells: `stencil`'s (1 … RW_GRID_STENCIL_MAX
 * inside cells, finite weights), or `cell` when it is NULL. */
static bool
check_stencil (const RwGrid *g, const RwGridStencil *stencil, size_t cell, const char *what,
               RwError *err)
{
  if (stencil == NULL)
    return check_cell (g, cell, what, err);
  if (stencil->n < 1 || stencil->n > RW_GRID_STENCIL_MAX)
    return rw_fail (err, RW_ERROR_INPUT, _("The %s's stencil has %zu cells, not 1 to %d"), what,
                    stencil->n, RW_GRID_STENCIL_MAX);
  for (size_t i = 0; i < stencil->n; i++)
    {
      if (!isfinite (stencil->weight[i]))
        return rw_fail (err, RW_ERROR_INPUT, _("The %s's stencil weight %zu is not finite"), what,
                        i + 1);
      if (!check_cell (g, stencil->cell[i], what, err))
        return false;
    }
  return true;
}

static bool
check_setup (const RwSolverSetup *st, const RwBackendOps *ops, RwError *err)
{
  const RwGrid *g = st->grid;

  if (g == NULL || g->K == NULL)
    return rw_fail (err, RW_ERROR_INPUT, _("The solver was given no grid"));
  if (g->zlo == NULL || g->zhi == NULL)
    return rw_fail (err, RW_ERROR_INTERNAL, _("The grid has no column ranges (zlo, zhi)"));
  if (g->nx < 3 || g->ny < 3 || g->nz < 3 || g->n_inside == 0)
    return rw_fail (err, RW_ERROR_INPUT, _("The grid holds no inside cells: nothing to simulate"));
  if (st->n_steps == 0)
    return rw_fail (err, RW_ERROR_INPUT, _("The number of time steps must be positive"));
  if (st->source_signal == NULL)
    return rw_fail (err, RW_ERROR_INPUT, _("The solver was given no source signal"));
  if (st->n_receivers > 0 && st->receiver_cells == NULL && st->receiver_stencils == NULL)
    return rw_fail (err, RW_ERROR_INPUT, _("The solver was given no receiver cells"));
  if (g->n_surfaces > 0 && st->surface_R == NULL)
    return rw_fail (err, RW_ERROR_INPUT, _("The solver was given no reflection factors"));
  if (st->boundary != RW_BOUNDARY_FV && st->boundary != RW_BOUNDARY_LRS
      && st->boundary != RW_BOUNDARY_SAVIOJA)
    return rw_fail (err, RW_ERROR_INPUT, _("Unknown boundary form %d"), (int) st->boundary);
  if (st->precision != RW_PRECISION_F32 && st->precision != RW_PRECISION_F64
      && st->precision != RW_PRECISION_F16)
    return rw_fail (err, RW_ERROR_INPUT, _("Unknown precision %d"), (int) st->precision);
  if (!ops->supports_f16 && st->precision == RW_PRECISION_F16)
    return rw_fail (err, RW_ERROR_UNSUPPORTED,
                    _("fp16 storage is available only on the CUDA backend; "
                      "the CPU backend computes in fp32 or fp64"));
  if (st->device < 0 || st->device >= ops->device_count ())
    return rw_fail (err, RW_ERROR_INPUT,
                    _("Device %d does not exist: the %s backend has %d device(s) here, "
                      "numbered from 0 (roomwave-cli devices lists them)"),
                    st->device, ops->name, ops->device_count ());
  if (st->source_kind != RW_SOURCE_SOFT && st->source_kind != RW_SOURCE_HARD)
    return rw_fail (err, RW_ERROR_INPUT, _("Unknown source kind %d"), (int) st->source_kind);
  if (g->lattice != RW_LATTICE_CUBIC && g->lattice != RW_LATTICE_FCC)
    return rw_fail (err, RW_ERROR_INPUT, _("Unknown grid lattice %d"), (int) g->lattice);
  if (g->lattice == RW_LATTICE_FCC && !ops->supports_fcc)
    return rw_fail (err, RW_ERROR_UNSUPPORTED,
                    _("The %s backend does not yet run grids on the FCC lattice; use the CPU "
                      "backend"), ops->name);
  /* LRS and Savioja are forms of the 7-point scheme (mirror ghosts and a
   * 1-D termination along the six axes): on the FCC lattice only the FV
   * boundary has a derivation (rw-scheme-fcc.h) */
  if (g->lattice == RW_LATTICE_FCC && st->boundary != RW_BOUNDARY_FV)
    return rw_fail (err, RW_ERROR_UNSUPPORTED,
                    _("The %s boundary is a form of the 7-point scheme; grids on the FCC lattice "
                      "run the FV boundary only (--boundary fv)"),
                    rw_boundary_name (st->boundary));

  for (size_t s = 0; s < g->n_surfaces; s++)
    if (!rw_reflection_check (st->surface_R[s], st->boundary, err))
      return rw_fail_prefix (err, _("Surface %zu"), s);
  if (st->surface_Y != NULL && st->boundary == RW_BOUNDARY_FV)
    {
      bool branches = false;
      for (size_t s = 0; s < g->n_surfaces; s++)
        {
          if (!rw_admittance_check (&st->surface_Y[s], err))
            return rw_fail_prefix (err, _("Surface %zu"), s);
          const double R = st->surface_R[s], beta = R > -1.0 ? (1.0 - R) / (1.0 + R) : INFINITY;
          if (!rw_admittance_is_frequency_dependent (&st->surface_Y[s])
              && !(fabs (st->surface_Y[s].Y0 - beta) <= 1e-9 * (1.0 + beta)))
            return rw_fail (err, RW_ERROR_INPUT,
                            _("Surface %zu: its admittance %g (no branch) is not the β = %g of its "
                              "reflection factor %g"), s, st->surface_Y[s].Y0, beta, R);
          branches = branches || rw_admittance_is_frequency_dependent (&st->surface_Y[s]);
        }
      if (branches && !(isfinite (st->time_step_s) && st->time_step_s > 0))
        return rw_fail (err, RW_ERROR_INPUT,
                        _("Frequency-dependent surfaces need the time step, not %g s"),
                        st->time_step_s);
      if (branches && !ops->supports_branches)
        return rw_fail (err, RW_ERROR_UNSUPPORTED,
                        _("The %s backend does not yet run frequency-dependent materials; "
                          "use the CPU backend, or frequency-independent surfaces "
                          "(--reflection R or {\"R\": r} in the map file)"), ops->name);
    }

  /* a caller's slab: the rank owning each cell checks it (slab_cells_check) */
  if (st->slab != NULL)
    return st->comm != NULL || rw_fail (err, RW_ERROR_INPUT, _("A slab was given without the ranks"));
  if (!check_stencil (g, st->source_stencil, st->source_cell, _("source"), err))
    return false;
  if (st->source_stencil != NULL && st->source_kind == RW_SOURCE_HARD && st->source_stencil->n != 1)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("A hard source cannot be spread over %zu cells (an assigned pressure is not "
                      "a sum): give it one cell, the nearest (rw_grid_locate)"),
                    st->source_stencil->n);
  for (size_t r = 0; r < st->n_receivers; r++)
    {
      char what[64];
      snprintf (what, sizeof what, _("receiver %zu"), r + 1);
      if (!check_stencil (g, st->receiver_stencils ? &st->receiver_stencils[r] : NULL,
                          st->receiver_cells ? st->receiver_cells[r] : 0, what, err))
        return false;
    }
  return true;
}

/* Predicts the memory need (backend + receiver buffers) and refuses what
 * would not fit, before anything is allocated. The CUDA backend's own
 * figure is device memory and is checked by the backend; here only what
 * lands in host RAM counts for it (its host_bytes). */
static bool
check_memory (const RwSolverSetup *st, size_t n_sums, const RwBackendOps *ops, RwError *err)
{
  /* st is the backend's setup; with receiver stencils the user's n_sums
   * weighted sums come on top of its receivers */
  const size_t n_rcv = st->n_receivers + n_sums;
  if (n_rcv > 0 && st->n_steps > SIZE_MAX / sizeof (double) / n_rcv)
    return rw_fail (err, RW_ERROR_MEMORY, _("%zu receivers × %zu steps do not fit in memory"),
                    n_rcv, st->n_steps);
  size_t need = n_rcv * st->n_steps * sizeof (double);
  if (ops->host_memory)
    need += ops->memory_bytes (st);
  if (ops->host_bytes != NULL)
    need += ops->host_bytes (st);

  size_t avail = available_ram_bytes ();
  if (avail > 0 && need > avail)
    {
      const RwGrid *g = st->grid;
      return rw_fail (err, RW_ERROR_MEMORY,
                      _("The simulation needs %.2f GiB of memory (%zu × %zu × %zu cells in %s, "
                        "%zu receivers × %zu steps) but only %.2f GiB is available. "
                        "Lower fmax (memory falls with the cube of fmax), simulate a shorter "
                        "duration or a smaller room, use fp32 rather than fp64, or run on a GPU"),
                      (double) need / 1073741824.0, g->nx, g->ny, g->nz,
                      rw_precision_name (st->precision), n_rcv, st->n_steps,
                      (double) avail / 1073741824.0);
    }
  return true;
}

/* ---- ranks (rw-slab.h) ------------------------------------------------- */

static void stencil_sums (RwSolver *s, size_t step, size_t k);
static bool slab_cells_check (RwSolver *s, RwError *err);

/* Cuts the grid, takes this rank's slab and its share of the source and
 * the receiver cells: s->local, the backend's setup (rw_solver_new). */
static bool
slab_new (RwSolver *s, RwError *err)
{
  const RwSolverSetup *su = &s->setup;
  const RwGrid *g = su->grid;
  const RwBackendOps *ops = s->ops;
  s->comm = su->comm;
  s->rank = rw_comm_rank (s->comm);
  s->size = rw_comm_size (s->comm);
  if (ops->plane_bytes == NULL || ops->get_planes == NULL || ops->set_planes == NULL)
    return rw_fail (err, RW_ERROR_UNSUPPORTED,
                    _("The %s backend cannot step one slab of a grid spread over %d ranks"),
                    ops->name, s->size);
  s->cuts = malloc ((size_t) (s->size + 1) * sizeof *s->cuts);
  if (s->cuts == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
  if (su->slab != NULL)
    {
      /* the caller's slab: grid is its grid, the cells the whole grid's */
      memcpy (s->cuts, su->slab->cuts, (size_t) (s->size + 1) * sizeof *s->cuts);
      s->slab = *su->slab->slab;
      s->slab_borrowed = true;
    }
  else if (!rw_slab_plan (g, s->size, s->cuts, err)
           || !rw_slab_extract (g, s->cuts[s->rank], s->cuts[s->rank + 1], &s->slab, err))
    return false;
  const size_t nxy = g->nx * g->ny, z0 = s->cuts[s->rank], z1 = s->cuts[s->rank + 1];
  const size_t shift = s->slab.z_first * nxy;
  s->local = *su;
  s->local.grid = s->slab.grid;
  s->local.comm = NULL;
  s->local.own_z0 = s->slab.own_z0;
  s->local.own_z1 = s->slab.own_z1;
  /* the source: the cells of its stencil on owned planes (none: the
   * backend applies nothing; the neighbour's exchange brings them) */
  s->local_source.n = 0;
  for (size_t i = 0; i < rw_solver_source_n (su); i++)
    {
      const size_t c = rw_solver_source_cell (su, i);
      if (c / nxy >= z0 && c / nxy < z1)
        {
          s->local_source.cell[s->local_source.n] = c - shift;
          s->local_source.weight[s->local_source.n++] = rw_solver_source_weight (su, i);
        }
    }
  s->local.source_stencil = &s->local_source;
  s->own_inside = rw_slab_owned_inside (&s->slab, NULL);
  s->rank_rate = calloc ((size_t) s->size, sizeof (double));
  if (s->rank_rate == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
  /* the receiver cells on owned planes */
  s->local_cells = malloc ((su->n_receivers + 1) * sizeof *s->local_cells);
  s->local_of = malloc ((su->n_receivers + 1) * sizeof *s->local_of);
  if (s->local_cells == NULL || s->local_of == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
  for (size_t j = 0; j < su->n_receivers; j++)
    {
      const size_t c = su->receiver_cells[j];
      if (c / nxy >= z0 && c / nxy < z1)
        {
          s->local_cells[s->n_local] = c - shift;
          s->local_of[s->n_local++] = j;
        }
    }
  s->local.receiver_cells = s->local_cells;
  s->local.receiver_stencils = NULL;
  s->local.n_receivers = s->n_local;
  s->local.slab = NULL;
  if (su->slab != NULL && !slab_cells_check (s, err))
    return false;
  s->local_rcv = calloc (s->n_local * su->n_steps + 1, sizeof (double));
  if (s->local_rcv == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("Out of memory for %zu receiver signals of %zu samples"),
                    s->n_local, su->n_steps);
  return check_memory (&s->local, 0, ops, err);
}

/* A caller's slab (RwSolverSetup.slab): rw_solver_new's checks of the
 * source and receiver cells, which it cannot make on the whole grid, made
 * by the rank owning each cell on its slab grid, and agreed; a cell beyond
 * the whole grid is refused by every rank. */
static bool
slab_cells_check (RwSolver *s, RwError *err)
{
  const RwSolverSetup *su = &s->setup;
  const RwGrid *g = s->slab.grid;
  const size_t nz = su->slab->cuts[s->size]; /* the whole grid's planes */
  const size_t nxy = g->nx * g->ny, n_all = nxy * nz, shift = s->slab.z_first * nxy;
  bool ok = true;
  for (size_t k = 0; ok && k < rw_solver_source_n (su) + su->n_receivers; k++)
    {
      const bool src = k < rw_solver_source_n (su);
      const size_t c = src ? rw_solver_source_cell (su, k) : su->receiver_cells[k - rw_solver_source_n (su)];
      const size_t z = c / nxy;
      if (c >= n_all)
        ok = rw_fail (err, RW_ERROR_INPUT, _("The %s cell index %zu lies beyond the grid of %zu × %zu × %zu cells"),
                      src ? _("source") : _("receiver"), c, g->nx, g->ny, nz);
      else if (z >= s->cuts[s->rank] && z < s->cuts[s->rank + 1] && g->K[c - shift] == 0)
        ok = rw_fail (err, RW_ERROR_INPUT,
                      _("The %s cell (%zu, %zu, %zu) is outside the room"), src ? _("source") : _("receiver"),
                      c % g->nx, (c / g->nx) % g->ny, z);
    }
  return rw_comm_agree (s->comm, ok, err);
}

/* After the backend's create: the halo buffers, and every rank agreeing
 * that all of them could start (a rank that failed says why to all). */

/* Whether two ranks step their slabs on one device (rw_slab_devices_shared:
 * by the devices' UUIDs where the backend gives them, else by host,
 * device index and device-visibility variable): NCCL refuses them, and a
 * rank whose device is its own would wait for the others inside
 * ncclCommInitRank; such a job exchanges through the host (*shared on
 * every rank). */
static bool
slab_devices_shared (RwSolver *s, bool *shared, RwError *err)
{
  RwSlabDevice me, *all = calloc ((size_t) s->size, sizeof *all);
  if (all == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
  memset (&me, 0, sizeof me);
  if (gethostname (me.host, sizeof me.host - 1) != 0)
    me.host[0] = '\0';
  const char *vis = getenv ("CUDA_VISIBLE_DEVICES");
  snprintf (me.visible, sizeof me.visible, "%s", vis != NULL ? vis : "");
  me.device = s->setup.device;
  me.has_uuid = s->ops->device_uuid != NULL && s->ops->device_uuid (me.device, me.uuid);
  if (!rw_comm_allgather (s->comm, &me, sizeof me, all, err))
    {
      free (all);
      return false;
    }
  *shared = rw_slab_devices_shared (all, s->size);
  free (all);
  return true;
}

static bool
slab_ready (RwSolver *s, RwError *err)
{
  bool ok = true;
  s->plane_bytes = s->ops->plane_bytes (s->state);
  s->halo = malloc (2 * (size_t) s->slab.halo * s->plane_bytes + 1);
  if (s->halo == NULL)
    ok = rw_fail (err, RW_ERROR_MEMORY, _("Out of memory for the halo planes"));
  /* the same layout everywhere: one backend and precision on all ranks */
  size_t *all = malloc ((size_t) s->size * sizeof *all);
  if (ok && all == NULL)
    ok = rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
  if (all != NULL && !rw_comm_allgather (s->comm, &s->plane_bytes, sizeof (size_t), all, err))
    {
      free (all);
      return false;
    }
  for (int r = 0; ok && all != NULL && r < s->size; r++)
    if (all[r] != s->plane_bytes)
      ok = rw_fail (err, RW_ERROR_INPUT,
                    _("Rank %d stores %zu bytes a plane and rank %d %zu: every rank must run the "
                      "same backend and precision"), r, all[r], s->rank, s->plane_bytes);
  free (all);
  if (!rw_comm_agree (s->comm, ok, err))
    return false;
  /* the whole grid's inside cells, for the speed (a caller's slab is all
   * a rank has of the grid) */
  size_t *own = malloc ((size_t) s->size * sizeof *own);
  if (own == NULL || !rw_comm_allgather (s->comm, &s->own_inside, sizeof (size_t), own, err))
    {
      free (own);
      return own == NULL ? rw_fail (err, RW_ERROR_MEMORY, _("Out of memory")) : false;
    }
  for (int r = 0; r < s->size; r++)
    s->total_inside += own[r];
  free (own);
  /* a backend that exchanges on the device joins its communicator */
  const char *how = getenv ("ROOMWAVE_HALO");
  if (s->ops->halo_attach == NULL || s->ops->halo_id == NULL || (how != NULL && strcmp (how, "host") == 0))
    return true;
  bool shared = false;
  if (!slab_devices_shared (s, &shared, err))
    return false;
  if (shared)
    return true;
  RwHaloLink link = {
    .rank = s->rank, .size = s->size, .halo = s->slab.halo,
    .down = s->rank > 0 ? s->rank - 1 : -1, .up = s->rank + 1 < s->size ? s->rank + 1 : -1,
  };
  ok = s->rank != 0 || s->ops->halo_id (link.id, sizeof link.id, err);
  if (!rw_comm_agree (s->comm, ok, err) || !rw_comm_bcast (s->comm, link.id, sizeof link.id, 0, err))
    return false;
  RwError why;
  rw_error_clear (&why);
  ok = s->ops->halo_attach (s->state, &link, &why);
  if (!rw_comm_agree (s->comm, ok, &why))
    {
      /* RW_ERROR_UNSUPPORTED: the ranks' devices cannot exchange
       * directly (NCCL refuses two ranks on one GPU), which every rank
       * learns at once; none is attached, and the host path serves */
      if (why.code == RW_ERROR_UNSUPPORTED)
        return true;
      if (err != NULL)
        *err = why;
      return false;
    }
  s->device_halo = true;
  return true;
}

bool
rw_solver_agree (RwSolver *s, bool ok, RwError *err)
{
  return rw_comm_agree (s->comm, ok, err);
}

/* The halo exchange after a step: the owned planes next to each cut to
 * the neighbour across it, its planes into the ghosts (rw-slab.h). */
static bool
slab_exchange (RwSolver *s, RwError *err)
{
  const size_t h = (size_t) s->slab.halo, bytes = h * s->plane_bytes;
  unsigned char *send = s->halo, *recv = s->halo + bytes;
  const int down = s->rank > 0 ? s->rank - 1 : -1, up = s->rank + 1 < s->size ? s->rank + 1 : -1;
  /* upwards: my top owned planes to up, down's into my lower ghosts */
  if (up >= 0 && !s->ops->get_planes (s->state, s->slab.own_z1 - h, h, send, err))
    return false;
  if (!rw_comm_sendrecv (s->comm, send, up >= 0 ? bytes : 0, up, recv, down >= 0 ? bytes : 0, down,
                         err))
    return false;
  if (down >= 0 && !s->ops->set_planes (s->state, s->slab.own_z0 - h, h, recv, err))
    return false;
  /* downwards: my lowest owned planes to down, up's into my upper ghosts */
  if (down >= 0 && !s->ops->get_planes (s->state, s->slab.own_z0, h, send, err))
    return false;
  if (!rw_comm_sendrecv (s->comm, send, down >= 0 ? bytes : 0, down, recv, up >= 0 ? bytes : 0, up,
                         err))
    return false;
  if (up >= 0 && !s->ops->set_planes (s->state, s->slab.own_z1, h, recv, err))
    return false;
  return true;
}

/* At the run's end: every receiver cell's samples from the rank that owns
 * it to all, in the order of the setup's cells, and the stencils' sums. */
static bool
slab_gather (RwSolver *s, RwError *err)
{
  const RwSolverSetup *su = &s->setup;
  const size_t nxy = su->grid->nx * su->grid->ny, n = su->n_steps;
  double *dst = s->stencils != NULL ? s->cell_rcv : s->rcv;
  size_t k = 0;
  for (size_t j = 0; j < su->n_receivers; j++)
    {
      const size_t z = su->receiver_cells[j] / nxy;
      int owner = 0;
      while (owner + 1 < s->size && z >= s->cuts[owner + 1])
        owner++;
      if (owner == s->rank)
        memcpy (dst + j * n, s->local_rcv + k++ * n, n * sizeof (double));
      if (!rw_comm_bcast (s->comm, dst + j * n, n * sizeof (double), owner, err))
        return false;
    }
  if (s->stencils != NULL)
    stencil_sums (s, 0, n);
  s->gathered = true;
  return true;
}

RwSolver *
rw_solver_new (const RwSolverSetup *setup, RwBackendKind kind, RwError *err)
{
  if (setup == NULL)
    {
      rw_fail (err, RW_ERROR_INPUT, _("The solver was given no setup"));
      return NULL;
    }
  const RwBackendOps *ops = rw_backend_choose (kind, setup->precision, err);
  if (ops == NULL)
    return NULL;
  if (!check_setup (setup, ops, err))
    return NULL;

  RwSolver *s = calloc (1, sizeof *s);
  if (s == NULL)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("Out of memory creating the solver"));
      return NULL;
    }
  s->setup = *setup;
  s->n_user = setup->n_receivers;
  if (setup->receiver_stencils != NULL && setup->n_receivers > 0)
    {
      /* every stencil cell a backend receiver (rw-solver.h) */
      size_t n = 0;
      for (size_t r = 0; r < setup->n_receivers; r++)
        n += setup->receiver_stencils[r].n;
      s->cells = malloc (n * sizeof *s->cells);
      if (s->cells == NULL)
        {
          free (s);
          rw_fail (err, RW_ERROR_MEMORY, _("Out of memory creating the solver"));
          return NULL;
        }
      n = 0;
      for (size_t r = 0; r < setup->n_receivers; r++)
        for (size_t i = 0; i < setup->receiver_stencils[r].n; i++)
          s->cells[n++] = setup->receiver_stencils[r].cell[i];
      s->stencils = setup->receiver_stencils;
      s->setup.receiver_stencils = NULL;
      s->setup.receiver_cells = s->cells;
      s->setup.n_receivers = n;
    }
  if (!check_memory (&s->setup, s->stencils != NULL ? s->n_user : 0, ops, err))
    {
      free (s->cells);
      free (s);
      return NULL;
    }
  for (size_t i = 0; setup->surface_Y != NULL && setup->boundary == RW_BOUNDARY_FV
                     && i < setup->grid->n_surfaces; i++)
    s->branches = s->branches || rw_admittance_is_frequency_dependent (&setup->surface_Y[i]);
  s->ops = ops;
  /* the source's last non-zero sample is applied in step k; the energy of
   * the fields after step k + 1 on may only fall */
  for (size_t k = 0; k < setup->n_steps; k++)
    if (setup->source_signal[k] != 0.0)
      s->quiet_from = k + 1;
  if (s->stencils != NULL)
    s->cell_rcv = calloc (s->setup.n_receivers * setup->n_steps, sizeof (double));
  if (setup->n_receivers > 0)
    {
      s->rcv = calloc (setup->n_receivers * setup->n_steps, sizeof (double));
      if (s->rcv == NULL || (s->stencils != NULL && s->cell_rcv == NULL))
        {
          free (s->rcv);
          free (s->cell_rcv);
          free (s->cells);
          free (s);
          rw_fail (err, RW_ERROR_MEMORY, _("Out of memory for %zu receiver signals of %zu samples"),
                   setup->n_receivers, setup->n_steps);
          return NULL;
        }
    }
  /* ROOMWAVE_SLABS=1: a slab of one rank too (the whole grid as a slab,
   * the halo path with no neighbour: tests of one rank on a device) */
  const bool slabs = rw_comm_size (setup->comm) > 1
                     || (setup->comm != NULL && getenv ("ROOMWAVE_SLABS") != NULL
                         && strcmp (getenv ("ROOMWAVE_SLABS"), "1") == 0);
  if (slabs && !slab_new (s, err))
    {
      rw_solver_free (s);
      return NULL;
    }
  s->state = ops->create (s->comm != NULL ? &s->local : &s->setup, err);
  if (s->state == NULL || (s->comm != NULL && !slab_ready (s, err)))
    {
      rw_solver_free (s);
      return NULL;
    }
  return s;
}

const char *
rw_solver_backend_name (const RwSolver *s)
{
  return s->ops->name;
}

const char *
rw_solver_device_name (const RwSolver *s)
{
  return s->state != NULL ? s->ops->device_name (s->state) : "";
}

const RwGrid *
rw_solver_grid (const RwSolver *s)
{
  return s->setup.grid;
}

size_t
rw_solver_step (const RwSolver *s)
{
  return s->step;
}

double
rw_energy_floor (RwPrecision precision, bool branches)
{
  /* The energy of rounding noise relative to the energy just after the
   * source, with a wide margin: fp64 and fp32 round relative to each
   * value, so their noise falls with the field; fp16 storage rounds to
   * 2⁻¹¹ of each value and has no normal numbers below 6.1e-5, so its
   * field levels off far higher (issue #10: an RMS of 6.5e-5 at the
   * receiver of the plaster box, 50 dB below the start).
   * With frequency-dependent surfaces the total energy (field and branch
   * states) settles instead at a floor where it wanders, bounded: every
   * library row alone in a small box, 10⁶ steps with the monitor off
   * (solver-energy-library), stayed at or below 6.3e-11 (fp32) and 2e-24
   * (fp64) of the energy after the source, rising between readings by up
   * to 4e-11 and 1.8e-24 of it. When the monitor first read at step 128, a
   * strongly absorbing room had lost tens of dB by then, and even at floors
   * of 1e-9 (fp32) and 1e-20 (fp64) of that reading it called 9 of the 78
   * fp32 runs unstable (each 3 dB over a minimum far below −90 dB). It now
   * reads right after the source too (rw_solver_advance); with branches
   * the floors are 1e-6 and 1e-18 of that reading — growth from there is
   * still caught 60 and 180 dB below it. */
  switch (precision)
    {
    case RW_PRECISION_F64: return branches ? 1e-18 : 1e-24;
    case RW_PRECISION_F16: return 1e-4;
    case RW_PRECISION_F32:
    default: return branches ? 1e-6 : 1e-12;
    }
}

static const char *
growth_cause (RwBoundary b)
{
  switch (b)
    {
    case RW_BOUNDARY_LRS:
      return _("the LRS boundary does not damp the grid's checkerboard mode, which an "
               "impulse excites; use the FV boundary (--boundary fv)");
    case RW_BOUNDARY_SAVIOJA:
      return _("the Savioja boundary is unstable in some room shapes; use the FV boundary "
               "(--boundary fv)");
    case RW_BOUNDARY_FV:
    default:
      return _("rounding pushing the scheme past its stability limit, a defect of the solver "
               "(please report it); fp64 (--precision f64) avoids it");
    }
}

double
rw_energy_growth_limit (RwBoundary boundary)
{
  /* FV: exactly passive (rw-scheme.h), so any growth beyond rounding is
   * an error. LRS and Savioja: rw_field_energy is not what they conserve,
   * and neither damps the grid's checkerboard mode, which the soft impulse
   * excites: measured in the plaster box (docs/SOLVER.md, "Growth
   * monitor"), their energy rises by 21.7 dB (LRS) and 27.2 dB (Savioja)
   * and then stays there while the low-passed IR decays as with FV. The
   * limit catches their runaway instabilities (Savioja in an L-shaped
   * room: 160 dB in 1500 steps) without calling that bounded, out-of-band
   * growth one. */
  return boundary == RW_BOUNDARY_FV ? 2.0 : 1e3;
}

/* Appends a uniform-mode sample; false when memory runs out. */
static bool
record_sum (RwSolver *s, size_t step, double sum)
{
  if (s->m_count == s->m_cap)
    {
      size_t cap = s->m_cap ? 2 * s->m_cap : 64;
      size_t *st = realloc (s->m_steps, cap * sizeof *st);
      if (st == NULL)
        return false;
      s->m_steps = st;
      double *su = realloc (s->m_sums, cap * sizeof *su);
      if (su == NULL)
        return false;
      s->m_sums = su;
      s->m_cap = cap;
    }
  s->m_steps[s->m_count] = step;
  s->m_sums[s->m_count++] = sum;
  return true;
}

/* The backend's reading: the energy, and the sum of p as the exact sum's
 * value; with ranks, the sum of theirs (each over its owned planes): the
 * energies in rank order, the sums of p exactly, the same on every rank
 * and the same bits as one rank's. */
static bool
read_energy (RwSolver *s, double *energy, double *sum, RwError *err)
{
  RwEnergyReading own = { 0 };
  bool ok = rw_solver_live (s, err) && s->ops->energy (s->state, &own, err);
  if (s->comm != NULL)
    {
      if (!rw_comm_agree (s->comm, ok, err))
        return false;
      RwEnergyReading *all = malloc ((size_t) s->size * sizeof *all);
      if (all == NULL)
        rw_comm_abort (s->comm, _("Out of memory"));
      if (!rw_comm_allgather (s->comm, &own, sizeof own, all, err))
        {
          free (all);
          return false;
        }
      own = (RwEnergyReading) { 0 };
      for (int r = 0; r < s->size; r++)
        {
          own.energy += all[r].energy;
          rw_exact_sum_merge (&own.sum, all[r].sum);
        }
      free (all);
    }
  *energy = own.energy;
  *sum = rw_exact_sum_value (own.sum);
  return ok;
}

bool
rw_solver_energy (RwSolver *s, double *energy, RwError *err)
{
  double sum;
  if (s->ops->energy == NULL)
    return rw_fail (err, RW_ERROR_UNSUPPORTED, _("The %s backend does not report the energy"),
                    s->ops->name);
  return read_energy (s, energy, &sum, err);
}

/* One growth-monitor reading at the current step (rw-solver.h). */
static bool
check_energy (RwSolver *s, RwError *err)
{
  double e, sum;
  if (s->ops->energy == NULL)
    return true;
  if (!read_energy (s, &e, &sum, err))
    return false;
  if ((s->m_count == 0 && !record_sum (s, 0, 0.0)) || !record_sum (s, s->step, sum))
    return rw_fail (err, RW_ERROR_MEMORY, _("Out of memory for the solver's uniform-mode readings"));
  if (!isfinite (e))
    return rw_fail (err, RW_ERROR_UNSTABLE,
                    _("The simulation became unstable after %zu steps: the field's energy is not "
                      "finite (%s backend, %s)"),
                    s->step, s->ops->name, rw_precision_name (s->setup.precision));
  if (s->step < s->quiet_from || s->step < 2)
    return true;
  if (s->e_first == 0.0)
    {
      s->e_first = s->e_min = e;
      s->e_min_step = s->step;
      return true;
    }
  const double floor = s->e_first * rw_energy_floor (s->setup.precision, s->branches);
  const double base = s->e_min > floor ? s->e_min : floor;
  if (e > rw_energy_growth_limit (s->setup.boundary) * base && e > 0.0)
    return rw_fail (err, RW_ERROR_UNSTABLE,
                    _("The simulation became unstable after %zu steps: the field's energy grew by "
                      "%.1f dB since step %zu, although the source had stopped at step %zu and "
                      "a passive room can only lose energy (%s backend, %s). Likely cause: %s"),
                    s->step, 10.0 * log10 (e / base), s->e_min_step, s->quiet_from,
                    s->ops->name, rw_precision_name (s->setup.precision),
                    growth_cause (s->setup.boundary));
  if (e < s->e_min)
    {
      s->e_min = e;
      s->e_min_step = s->step;
    }
  return true;
}

/* The receivers' weighted sums over their stencil cells' samples, steps
 * [step, step + k), in stencil order (rw-solver.h). */
static void
stencil_sums (RwSolver *s, size_t step, size_t k)
{
  const size_t stride = s->setup.n_steps;
  size_t first = 0;
  for (size_t r = 0; r < s->n_user; r++)
    {
      const RwGridStencil *st = &s->stencils[r];
      double *out = s->rcv + r * stride;
      for (size_t n = step; n < step + k; n++)
        {
          double v = 0.0;
          for (size_t i = 0; i < st->n; i++)
            v += st->weight[i] * s->cell_rcv[(first + i) * stride + n];
          out[n] = v;
        }
      first += st->n;
    }
}

bool
rw_solver_advance (RwSolver *s, size_t n, RwError *err)
{
  if (s->failed)
    {
      if (err != NULL)
        *err = s->failure;
      return false;
    }
  if (!rw_solver_live (s, err))
    return false;
  if (n > s->setup.n_steps - s->step)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("Cannot advance %zu steps: the run has %zu steps and %zu are done"),
                    n, s->setup.n_steps, s->step);
  RwError local;
  rw_error_clear (&local);
  while (n > 0)
    {
      /* up to the next reading of the growth monitor: every
       * RW_ENERGY_CHECK_STEPS, and once right after the source, so that
       * the monitor's reference is the energy the source left however fast
       * the room loses it (a small, strongly absorbing room had lost tens
       * of dB by step 128, and rounding noise at its floor then looked
       * like growth: solver-energy-library) */
      size_t next = (s->step / RW_ENERGY_CHECK_STEPS + 1) * RW_ENERGY_CHECK_STEPS;
      if (s->quiet_from > s->step && s->quiet_from < next)
        next = s->quiet_from;
      size_t k = next - s->step < n ? next - s->step : n;
      bool ok;
      if (s->device_halo)
        {
          /* the backend exchanges every step itself: agree once */
          ok = s->ops->advance (s->state, s->step, k, s->local_rcv, s->setup.n_steps, &local);
          ok = rw_comm_agree (s->comm, ok, &local);
        }
      else if (s->comm != NULL)
        {
          /* one step, the halo exchange, and every rank agreeing it went
           * well (a rank whose step failed still exchanges, so that none
           * waits for it) */
          k = 1;
          ok = s->ops->advance (s->state, s->step, 1, s->local_rcv, s->setup.n_steps, &local);
          RwError ex;
          rw_error_clear (&ex);
          if (!slab_exchange (s, &ex) && ok)
            {
              ok = false;
              local = ex;
            }
          ok = rw_comm_agree (s->comm, ok, &local);
        }
      else
        ok = s->ops->advance (s->state, s->step, k, s->stencils ? s->cell_rcv : s->rcv,
                              s->setup.n_steps, &local);
      if (ok && s->stencils != NULL && s->comm == NULL)
        stencil_sums (s, s->step, k);
      if (ok)
        {
          s->step += k;
          n -= k;
          if (s->step % RW_ENERGY_CHECK_STEPS == 0 || s->step == s->quiet_from
              || s->step == s->setup.n_steps)
            ok = check_energy (s, &local);
          if (ok && s->comm != NULL && s->step == s->setup.n_steps)
            ok = slab_gather (s, &local);
        }
      if (!ok)
        {
          /* The field is now partly stepped (or non-finite, or growing):
           * keep the message so that later calls say why the solver
           * stopped. */
          s->failed = true;
          s->failure = local;
          if (err != NULL)
            *err = local;
          return false;
        }
    }
  return true;
}

size_t
rw_solver_uniform_mode (const RwSolver *s, const size_t **steps, const double **sums)
{
  *steps = s->m_steps;
  *sums = s->m_sums;
  return s->m_count;
}

const double *
rw_solver_receiver (const RwSolver *s, size_t r)
{
  if (r >= s->n_user)
    return NULL;
  return s->rcv + r * s->setup.n_steps;
}

bool
rw_solver_live (const RwSolver *s, RwError *err)
{
  return s->state != NULL
         || rw_fail (err, RW_ERROR_INTERNAL, _("The solver's device was given back: its field is gone"));
}

bool
rw_solver_read_field (RwSolver *s, double *p, double *p_prev, RwError *err)
{
  if (!rw_solver_live (s, err))
    return false;
  if (s->comm != NULL)
    return rw_fail (err, RW_ERROR_UNSUPPORTED,
                    _("The field of a run spread over %d ranks is not in one place"), s->size);
  return s->ops->read_field (s->state, p, p_prev, err);
}

bool
rw_solver_read_slice (RwSolver *s, int axis, size_t index, float *out, RwError *err)
{
  const RwGrid *g = s->setup.grid;
  size_t n = axis == 0 ? g->nx : axis == 1 ? g->ny : axis == 2 ? g->nz : 0;
  if (n == 0)
    return rw_fail (err, RW_ERROR_INPUT, _("Slice axis %d is not 0 (x), 1 (y) or 2 (z)"), axis);
  if (index >= n)
    return rw_fail (err, RW_ERROR_INPUT, _("Slice %zu is beyond the grid's %zu planes on axis %d"),
                    index, n, axis);
  if (s->comm != NULL)
    return rw_fail (err, RW_ERROR_UNSUPPORTED,
                    _("The field of a run spread over %d ranks is not in one place"), s->size);
  if (!rw_solver_live (s, err))
    return false;
  return s->ops->read_slice (s->state, axis, index, out, err);
}

void
rw_solver_release_device (RwSolver *s)
{
  if (s == NULL || s->state == NULL)
    return;
  s->ops->destroy (s->state);
  s->state = NULL;
  if (s->ops->release != NULL)
    s->ops->release (s->setup.device);
}

void
rw_solver_free (RwSolver *s)
{
  if (s == NULL)
    return;
  if (s->state != NULL)
    s->ops->destroy (s->state);
  free (s->rcv);
  free (s->cell_rcv);
  free (s->cells);
  free (s->m_steps);
  free (s->m_sums);
  free (s->cuts);
  if (!s->slab_borrowed)
    rw_slab_clear (&s->slab);
  free (s->local_cells);
  free (s->local_of);
  free (s->local_rcv);
  free (s->halo);
  free (s->rank_rate);
  free (s->ckpt_dir);
  free (s);
}

bool
rw_solver_run (RwSolver *s, RwProgressFn progress, void *user_data,
               const atomic_int *cancel, RwError *err)
{
  if (!rw_solver_live (s, err))
    return false;
  const size_t n_steps = s->setup.n_steps;
  const double cells = (double) (s->comm != NULL ? s->total_inside : s->setup.grid->n_inside);
  const size_t step_start = s->step;
  const double t_start = rw_clock_s ();
  /* Start with a chunk of about a million cell updates to measure the
   * speed, then size chunks to RW_CHUNK_SECONDS of work. */
  size_t chunk = (size_t) fmax (1.0, 1e6 / cells);

  while (s->step < n_steps)
    {
      if (s->ckpt_dir != NULL && !rw_solver_checkpoint_tick (s, false, err))
        return false;
      bool stop = cancel != NULL && atomic_load (cancel);
      if (s->comm != NULL)
        {
          /* rank 0's chunk, and a cancel on any rank stops all */
          int go = !stop;
          if (!rw_comm_min_int (s->comm, &go, err)
              || !rw_comm_bcast (s->comm, &chunk, sizeof chunk, 0, err))
            return false;
          stop = !go;
        }
      if (stop)
        return rw_fail (err, RW_ERROR_CANCELLED, _("Simulation cancelled at step %zu of %zu"),
                        s->step, n_steps);
      size_t n = chunk < n_steps - s->step ? chunk : n_steps - s->step;
      double t0 = rw_clock_s ();
      if (!rw_solver_advance (s, n, err))
        return false;
      double t1 = rw_clock_s ();

      double dt = t1 - t0;
      size_t grow = chunk * 8;
      if (dt > 0)
        {
          double want = RW_CHUNK_SECONDS * (double) n / dt;
          chunk = want < 1.0 ? 1 : (want > (double) grow ? grow : (size_t) want);
        }
      else
        chunk = grow;

      double elapsed = t1 - t_start;
      double done = (double) (s->step - step_start);
      double steps_per_s = elapsed > 0 ? done / elapsed : 0.0;
      if (s->comm != NULL)
        {
          /* each rank's speed over this chunk, for per-device progress */
          const double mine = dt > 0 ? (double) s->own_inside * (double) n / dt / 1e6 : 0.0;
          if (!rw_comm_allgather (s->comm, &mine, sizeof mine, s->rank_rate, err))
            return false;
        }
      RwProgress pr = {
        .ranks = s->comm != NULL ? s->size : 1,
        .rank_mvox_per_s = s->comm != NULL ? s->rank_rate : NULL,
        .fraction = (double) s->step / (double) n_steps,
        .mvox_per_s = steps_per_s * cells / 1e6,
        .seconds_left = steps_per_s > 0 ? (double) (n_steps - s->step) / steps_per_s : 0.0,
        .step = s->step,
        .n_steps = n_steps,
        .solver = s,
        .part = RW_PROGRESS_WAVE,
      };
      bool go = progress == NULL || progress (&pr, user_data);
      if (s->comm != NULL)
        {
          int g = go;
          if (!rw_comm_min_int (s->comm, &g, err))
            return false;
          go = g;
        }
      if (!go)
        return rw_fail (err, RW_ERROR_CANCELLED, _("Simulation cancelled at step %zu of %zu"),
                        s->step, n_steps);
    }
  return s->ckpt_dir == NULL || rw_solver_checkpoint_tick (s, true, err);
}

/* E = Σ_i (p_i − p⁻_i)² + λ² Σ_edges (p_i − p_j)(p⁻_i − p⁻_j), the edges
 * joining inside cells i–j along ±x, ±y, ±z (rw-scheme.h). Conserved by the
 * scheme with β = 0; non-negative for λ² ≤ 1/3. Summed in double with a
 * per-plane partial so that the rounding of a large sum stays below the
 * 1e-9 the lossless test asks for. On an FCC grid the sites' sum with
 * λ²/4 over the edges along the 12 offsets (rw_fcc_field_energy). */
double
rw_field_energy (const RwGrid *g, const double *p, const double *p_prev)
{
  if (g->lattice == RW_LATTICE_FCC)
    return rw_fcc_field_energy (g, p, p_prev);
  const size_t nx = g->nx, nxy = g->nx * g->ny;
  const double l2 = RW_LAMBDA2;
  double total = 0.0;

  for (size_t z = 0; z < g->nz; z++)
    {
      double plane = 0.0;
      for (size_t y = 0; y < g->ny; y++)
        for (size_t x = 0; x < g->nx; x++)
          {
            size_t i = x + nx * (y + g->ny * z);
            if (g->K[i] == 0)
              continue;
            double d = p[i] - p_prev[i];
            plane += d * d;
            size_t nb[3] = { i + 1, i + nx, i + nxy };
            bool ok[3] = { x + 1 < g->nx, y + 1 < g->ny, z + 1 < g->nz };
            for (int a = 0; a < 3; a++)
              if (ok[a] && g->K[nb[a]] != 0)
                plane += l2 * (p[i] - p[nb[a]]) * (p_prev[i] - p_prev[nb[a]]);
          }
      total += plane;
    }
  return total;
}

/* E = Σ_i (p_i − p⁻_i)² + (λ²/4) Σ_edges (Δp)(Δp⁻) (rw-scheme-fcc.h) plus
 * the wall links' (λ²/4) W Σ (p_i − x̄)(p⁻_i − x̄⁻), each
 * edge once: from the site with the lower index, along the offsets whose
 * first non-zero component is positive (RW_FCC_FWD_OFFSETS). Cubic arrays
 * (the front end's view; 0 off the sites). */
double
rw_fcc_field_energy (const RwGrid *g, const double *p, const double *p_prev)
{
  static const int fwd[6][3] = RW_FCC_FWD_OFFSETS;
  const size_t nx = g->nx, ny = g->ny, nz = g->nz;
  const double w = 0.25 * RW_FCC_LAMBDA2;
  double total = 0.0;

  for (size_t z = 0; z < nz; z++)
    {
      double plane = 0.0;
      for (size_t y = 0; y < ny; y++)
        for (size_t x = (y + z) & 1; x < nx; x += 2)
          {
            const size_t i = x + nx * (y + ny * z);
            if (g->K[i] == 0)
              continue;
            const double d = p[i] - p_prev[i];
            plane += d * d;
            for (int e = 0; e < 6; e++)
              {
                /* the grid's outer layer is outside: no wrap below 0 needed
                 * beyond the bounds test */
                const ptrdiff_t a = (ptrdiff_t) x + fwd[e][0], b = (ptrdiff_t) y + fwd[e][1],
                                c = (ptrdiff_t) z + fwd[e][2];
                if (a < 0 || b < 0 || a >= (ptrdiff_t) nx || b >= (ptrdiff_t) ny
                    || c >= (ptrdiff_t) nz)
                  continue;
                const size_t j = (size_t) a + nx * ((size_t) b + ny * (size_t) c);
                if (g->K[j] != 0)
                  plane += w * (p[i] - p[j]) * (p_prev[i] - p_prev[j]);
              }
            /* the wall links' terms (rw-scheme-fcc.h) */
            uint8_t count[RW_FCC_WALL_MAX_ENTRIES];
            size_t member[RW_FCC_WALL_MAX_MEMBERS];
            const int n_e = rw_fcc_wall_entries (g, i, count, member, NULL);
            for (int e = 0, m = 0; e < n_e; e++)
              {
                double mp = 0.0, mq = 0.0;
                for (int u = 0; u < count[e]; u++, m++)
                  mp += p[member[m]], mq += p_prev[member[m]];
                plane += w * RW_FCC_WALL_W * (p[i] - mp / count[e]) * (p_prev[i] - mq / count[e]);
              }
          }
      total += plane;
    }
  return total;
}
