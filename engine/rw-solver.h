/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-solver.h — the solver and the backend interface.
 *
 * A solver advances the FDTD scheme of rw-scheme.h over an RwGrid. The
 * backends (CPU: rw-cpu-backend.c; CUDA: kernels/) implement RwBackendOps
 * (rw-backend.h, with the registry the solver chooses from); callers use
 * the rw_solver_* functions and never see a backend's state.
 *
 * Time stepping: step n reads p (time n) and p_prev (time n−1) and writes
 * p_next into p_prev's storage (two arrays, in place, as in the seeds).
 * Within a step, in this order: every inside cell is updated; then the
 * source sample s[n] is applied at the source cell of the new field (soft:
 * added, w_i·s[n] at each cell of a source stencil; hard: assigned); then
 * every receiver records the new field at its cell. So receiver sample n is the pressure at time n+1. Outside cells stay
 * 0 for ever.
 *
 * FCC grids (grid->lattice == RW_LATTICE_FCC, issue #14): the scheme of
 * rw-scheme-fcc.h at λ² = RW_FCC_LAMBDA2. Interior sites (K = 12) take
 * rw_fcc_update_air_*; boundary sites (0 < K < 12) rw_fcc_update_boundary_*
 * with their area S = rw_grid_node_area and the surface's β (M = 0) or
 * branches, and their wall links (rw-scheme-fcc.h; K and Σ_in by
 * rw_fcc_wall_K, rw_fcc_wall_sum over rw_fcc_wall_entries), in double for
 * every precision; the 12 neighbours summed in the
 * order of RW_FCC_NBR_OFFSETS (outside ones hold 0). FV boundary only
 * (LRS and Savioja are 7-point forms: refused). Source and receiver cells
 * are grid indices of sites (rw_grid_locate gives the nearest site,
 * rw_grid_interp a stencil of sites);
 * read_field and read_slice give the cubic array with 0 wherever there is
 * no site; the energy is rw_field_energy's, which reads the lattice. A
 * backend that runs it says so (RwBackendOps.supports_fcc); rw_solver_new
 * refuses an FCC grid on one that does not. Backends store the sites in
 * the folded layout of rw-scheme-fcc.h.
 *
 * Ownership: the setup's grid, surface_R, source signal and receiver list
 * are borrowed and must outlive the solver.
 */
#pragma once

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rw-error.h"
#include "rw-scheme.h"
#include "rw-voxel.h"

typedef enum {
  RW_PRECISION_F32 = 0,    /* default */
  RW_PRECISION_F64,        /* reference */
  RW_PRECISION_F16,        /* fp16 storage, fp32 arithmetic (CUDA only) */
} RwPrecision;

typedef enum { RW_SOURCE_SOFT = 0, RW_SOURCE_HARD } RwSourceKind;

typedef enum { RW_BACKEND_AUTO = 0, RW_BACKEND_CPU, RW_BACKEND_CUDA } RwBackendKind;

/* The names of the backend kinds, precisions and boundary forms, the one
 * table of each (enum order, NULL-terminated): the CLI's --backend,
 * --precision and --boundary, results.json, the GUI's settings and
 * project files. The parsers return false on an unknown name (or NULL). */
extern const char *const rw_backend_kind_names[];   /* "auto" "cpu" "cuda" */
extern const char *const rw_precision_names[];      /* "f32" "f64" "f16" */
extern const char *const rw_boundary_names[];       /* "fv" "lrs" "savioja" */
extern const char *const rw_scheme_names[];         /* "auto" "cartesian" "fcc" */
const char *rw_backend_kind_name (RwBackendKind k);
const char *rw_precision_name (RwPrecision p);
const char *rw_boundary_name (RwBoundary b);
bool rw_backend_kind_parse (const char *s, RwBackendKind *out);
bool rw_precision_parse (const char *s, RwPrecision *out);
bool rw_boundary_parse (const char *s, RwBoundary *out);

/* The scheme a run asks for (simulate --scheme, results.json, the GUI):
 * the 7-point scheme on the cubic lattice ("cartesian", rw-scheme.h), the
 * 13-point scheme on the FCC lattice ("fcc", rw-scheme-fcc.h), or AUTO:
 * the one that reaches the accuracy target at least cost (rw_sim
 * resolves it; docs/SOLVER.md §9, "The default scheme"). A grid's lattice
 * says which scheme the solver runs on it (rw_scheme_lattice). */
typedef enum { RW_SCHEME_AUTO = 0, RW_SCHEME_CARTESIAN, RW_SCHEME_FCC } RwScheme;
const char *rw_scheme_name (RwScheme s);
bool rw_scheme_parse (const char *s, RwScheme *out);
static inline RwLattice
rw_scheme_lattice (RwScheme s)
{
  return s == RW_SCHEME_FCC ? RW_LATTICE_FCC : RW_LATTICE_CUBIC;
}
/* The scheme a lattice runs (rw_scheme_lattice's inverse). */
static inline RwScheme
rw_lattice_scheme (RwLattice l)
{
  return l == RW_LATTICE_FCC ? RW_SCHEME_FCC : RW_SCHEME_CARTESIAN;
}

typedef struct RwSolverSetup {
  const RwGrid *grid;
  const double *surface_R;        /* grid->n_surfaces reflection factors */
  /* grid->n_surfaces admittances (rw-admittance.h), or NULL: every surface
   * frequency independent, Y0 = (1 − R)/(1 + R) from surface_R. The FV
   * boundary runs the branches of these; a surface without branches runs
   * with β = (1 − R)/(1 + R) from surface_R (one formula on every backend,
   * so CPU and CUDA agree bit for bit), and its Y0 must be that β
   * (rw_solver_new checks it, to 1e-9). LRS and Savioja use surface_R
   * (frequency independent). */
  const struct RwAdmittance *surface_Y;
  double time_step_s;             /* 1/fs of the grid; needed with branches in surface_Y */
  RwBoundary boundary;
  RwPrecision precision;
  size_t n_steps;                 /* length of the run (and of source_signal) */
  size_t source_cell;             /* used when source_stencil is NULL */
  RwSourceKind source_kind;
  const double *source_signal;    /* n_steps samples */
  /* Off-lattice positions (issue #14; rw_grid_interp's stencils), or NULL.
   * source_stencil: the source spread over its cells, a soft source adding
   * (T) (w_i · s[n]) at cell i (the product in double, cast to the field's
   * type, as the unweighted sample is cast: weight 1 gives the same bits
   * as source_cell); source_cell is then ignored. It is the transpose of
   * the receivers' interpolation, so swapping source and receiver gives the
   * same signal (the scheme's operator is symmetric). A hard source cannot
   * be spread (an assigned value is not a sum): with a hard source the
   * stencil must be one cell (rw_solver_new refuses more).
   * receiver_stencils: n_receivers stencils; receiver r records
   * Σ_i w_i p(cell_i). The front end (rw-solver.c) hands every stencil cell
   * to the backend as a receiver of its own and sums them, in stencil
   * order, after each advance: backends never see receiver_stencils, and
   * receiver_cells is ignored (may be NULL). */
  const RwGridStencil *source_stencil;
  size_t n_receivers;
  const size_t *receiver_cells;
  const RwGridStencil *receiver_stencils;
  int threads;                    /* CPU: ≤ 0 → all cores */
  int block_x, block_y;           /* GPU thread-block shape; 0 → autotuned */
  int device;                     /* the backend's device, 0 … device_count − 1 (rw-backend.h) */
  /* Ranks (issue #15; rw-comm.h, rw-slab.h): the run spread over comm's
   * ranks, or NULL (or one rank): the whole grid here. With several,
   * every rank passes the same setup (the whole grid, source and
   * receivers in its indices); rw_solver_new cuts the grid into slabs of
   * whole z-planes balanced by inside cells, this rank's backend steps
   * its own with ghost planes exchanged every step, and every rank ends
   * with every receiver's signal, bit for bit what one rank computes in
   * fp64. own_z0, own_z1: set by the front end for a backend stepping a
   * slab (RwBackendOps, "Slabs"); callers leave them 0. */
  const struct RwComm *comm;
  size_t own_z0, own_z1;
  /* With comm: this rank's slab made by the caller (rw_slab_voxelise_ranks:
   * no rank holds the whole grid) and the cuts it was made with, size + 1
   * planes; grid is then that slab's grid, while the source and receiver
   * cells stay in the whole grid's indices (rw_voxel_interp). Borrowed.
   * NULL: rw_solver_new cuts grid, the whole grid, itself. */
  const struct RwSlabRef *slab;
} RwSolverSetup;

/* A slab the caller made (RwSolverSetup.slab). */
struct RwSlab;
typedef struct RwSlabRef {
  const struct RwSlab *slab;      /* rw-slab.h */
  const size_t *cuts;             /* rw_comm_size + 1 planes; cuts[size]: the whole grid's */
} RwSlabRef;

#include "rw-backend.h"

/* The source's cells and weights as backends apply them: source_stencil's,
 * or source_cell with weight 1 (rw_solver_source_n () == 1). */
static inline size_t
rw_solver_source_n (const RwSolverSetup *su)
{
  return su->source_stencil != NULL ? su->source_stencil->n : 1;
}

static inline size_t
rw_solver_source_cell (const RwSolverSetup *su, size_t i)
{
  return su->source_stencil != NULL ? su->source_stencil->cell[i] : su->source_cell;
}

static inline double
rw_solver_source_weight (const RwSolverSetup *su, size_t i)
{
  return su->source_stencil != NULL ? su->source_stencil->weight[i] : 1.0;
}


typedef struct RwSolver RwSolver;

/* The growth monitor. A passive room cannot gain energy once the source
 * has stopped: the FV scheme's discrete energy (rw_field_energy) is
 * non-increasing from the step after the source's last non-zero sample
 * (rw-scheme.h). rw_solver_advance reads it every RW_ENERGY_CHECK_STEPS
 * steps (one extra read of the field each time: about 1 % of the run) and
 * fails with RW_ERROR_UNSTABLE, naming the step and the likely cause, once
 * it exceeds rw_energy_growth_limit (boundary) times the least energy seen
 * since the source stopped (2, i.e. 3 dB, for the FV boundary). Below a floor — the first reading after the source
 * times rw_energy_floor (precision, whether any surface has branches):
 * where rounding noise of the stored
 * values dominates and the energy may wander — the least energy counts as
 * the floor, so noise at the floor is never called growth. */
#define RW_ENERGY_CHECK_STEPS 128
double rw_energy_growth_limit (RwBoundary boundary);
double rw_energy_floor (RwPrecision precision, bool frequency_dependent);

/* Whether R is a reflection factor the solver accepts with `boundary`:
 * finite, in [−1, 1], and not −1 (β = (1 − R)/(1 + R) infinite) unless the
 * boundary is Savioja's 1-D termination. The one check: the solver applies
 * it to every surface, rw_sim to a uniform R, the CLI to --reflection while
 * parsing. Fails with RW_ERROR_INPUT and a message without context (the
 * caller prefixes the surface or option). */
bool rw_reflection_check (double R, RwBoundary boundary, RwError *err);

/* Chooses the backend (AUTO → the first backend of the registry that is
 * available: CUDA when it finds a device, else the CPU), checks the setup
 * (cells inside, R in [−1, 1], precision supported by the backend, device
 * index below its device count) and the memory need, then creates it. */
/* The backend a run of `kind` and `precision` gets: AUTO → the CUDA
 * backend when it is built in and finds a device, else the CPU (refusing
 * fp16, which needs CUDA); CPU or CUDA as asked, or NULL with `err` saying
 * why that one cannot run here. What rw_solver_new uses, and what the GUI
 * lists devices of. */
const RwBackendOps *rw_backend_choose (RwBackendKind kind, RwPrecision precision, RwError *err);
RwSolver *rw_solver_new (const RwSolverSetup *setup, RwBackendKind kind, RwError *err);
const char *rw_solver_backend_name (const RwSolver *s);
const char *rw_solver_device_name (const RwSolver *s);
size_t rw_solver_step (const RwSolver *s);               /* steps done so far */
const RwGrid *rw_solver_grid (const RwSolver *s);        /* the setup's grid */
bool rw_solver_advance (RwSolver *s, size_t n, RwError *err);
/* Receiver r's samples so far (rw_solver_step() of them). */
const double *rw_solver_receiver (const RwSolver *s, size_t r);
/* The sum of p over the inside cells (N times the room's uniform mode) as
 * the monitor read it: at step 0 (0), every RW_ENERGY_CHECK_STEPS steps and
 * at the run's last step; *steps and *sums (count entries, steps rising)
 * are the solver's. The post-processing subtracts the uniform mode this
 * measures (rw_postprocess, RwPostprocess.drift_*). 0 when the backend
 * gives no readings. */
size_t rw_solver_uniform_mode (const RwSolver *s, const size_t **steps, const double **sums);
bool rw_solver_read_field (RwSolver *s, double *p, double *p_prev, RwError *err);
/* The FV energy of the current state as the backend sums it (what the
 * growth monitor reads): rw_field_energy of the field plus, with
 * frequency-dependent surfaces, what their branches store (rw-scheme.h). */
bool rw_solver_energy (RwSolver *s, double *energy, RwError *err);
bool rw_solver_read_slice (RwSolver *s, int axis, size_t index, float *out, RwError *err);
void rw_solver_free (RwSolver *s);
/* Destroys the backend's state and gives its device back
 * (RwBackendOps.release), for a process that is done with the device:
 * what rw_solver_run recorded (rw_solver_receiver, rw_solver_uniform_mode,
 * rw_solver_step) stays readable, and may be read on another thread
 * meanwhile; nothing that steps or reads the field may follow (they fail),
 * only rw_solver_free. */
void rw_solver_release_device (RwSolver *s);

/* Which part of a run a progress report is about: the wave solver's
 * (rw_solver_run) or the geometrical-acoustics engine's (rw_rays_trace,
 * rw_ism_compute, rw_ga_compute; docs/GEOMETRICAL.md "Progress and
 * cancel"). */
typedef enum { RW_PROGRESS_WAVE = 0, RW_PROGRESS_GEOMETRICAL } RwProgressPart;

typedef struct {
  double fraction;          /* 0…1 */
  double mvox_per_s;        /* inside cells updated per second / 1e6; 0 for the geometrical part */
  double seconds_left;
  /* Wave: time steps. Geometrical: units of work (rays traced, image
     sources validated; rw-ga.h says how rw_ga_compute counts). */
  size_t step, n_steps;
  /* The solver being run (NULL for the geometrical part). The callback
   * runs in the solver's thread between two chunks, so it may read a
   * preview from it (rw_solver_read_slice, rw_solver_grid): how the GUI
   * shows the live pressure field. */
  RwSolver *solver;
  RwProgressPart part;
  /* A run spread over ranks (RwSolverSetup.comm): their number and each
   * one's speed over the last chunk (its owned inside cells updated per
   * second / 1e6), the same on every rank; 0 or 1 and NULL otherwise. */
  int ranks;
  const double *rank_mvox_per_s;
} RwProgress;

/* Return false to cancel. Called from the thread running rw_solver_run
 * (for the geometrical part: the thread that called rw_rays_trace,
 * rw_ism_compute or rw_ga_compute, never from two threads at once). */
typedef bool (*RwProgressFn) (const RwProgress *progress, void *user_data);

/* Runs the remaining steps in chunks, reporting progress after each and
 * checking `cancel` (may be NULL) at least every ~0.1 s; a cancel returns
 * false with RW_ERROR_CANCELLED and leaves the solver usable. */
bool rw_solver_run (RwSolver *s, RwProgressFn progress, void *user_data,
                    const atomic_int *cancel, RwError *err);

/* Checkpoints (rw-checkpoint.h, docs/CHECKPOINT.md): rw_solver_run then
 * writes this rank's file in dir (rw_solver_checkpoint_path) every
 * every_s seconds of its wall time (≤ 0: never by time), when *now is set
 * (a SIGTERM handler's flag; `now` may be NULL) — and then stops with
 * RW_ERROR_CANCELLED saying where the checkpoint is and how to continue —
 * and once at the run's end (so that what follows the solve, e.g. the
 * geometrical part, may be interrupted without losing it). With ranks
 * they agree at each chunk boundary, so all write at the same step. A
 * periodic checkpoint that cannot be written is reported through rw_warn
 * and the run goes on; a requested one stops the run with the reason. dir
 * is copied and made when missing (one level of parents too); fails when
 * it cannot be. */
bool rw_solver_set_checkpoint (RwSolver *s, const char *dir, double every_s,
                               const atomic_int *now, RwError *err);

/* The discrete energy of the FV scheme with β = 0 (rw-scheme.h), from two
 * consecutive fields. For the conservation tests. On an FCC grid the FCC
 * scheme's, E = Σ (p − p⁻)² + (λ²/4) Σ_edges (Δp)(Δp⁻) over the sites and
 * the edges along the 12 offsets between inside sites (rw-scheme-fcc.h;
 * rw_fcc_field_energy, which it calls). */
double rw_field_energy (const RwGrid *g, const double *p, const double *p_prev);
double rw_fcc_field_energy (const RwGrid *g, const double *p, const double *p_prev);
