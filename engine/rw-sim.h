/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-sim.h — the whole path: mesh file → calibrated impulse responses.
 *
 * What the CLI's `simulate` and the GUI's Run both call. Each stage is
 * also available on its own (rw-mesh.h, rw-materials.h, rw-voxel.h,
 * rw-solver.h, rw-postprocess.h) for callers that need to stop in between
 * (the GUI shows the mesh report before voxelising).
 *
 * Stages: rw_mesh_load → rw_mesh_check_closed → rw_materials_assign →
 * h and fs from fmax, ppw and temperature (rw-physics.h) → rw_voxelise →
 * rw_grid_interp source and receivers (interpolated between the nodes,
 * docs/SOLVER.md §4) → a unit soft impulse at step 0 →
 * rw_solver_run (progress and cancel passed through) → rw_postprocess per
 * receiver → air absorption (rw-air.h; unless cfg->air_absorption is
 * false, when the IR is left exactly as rw_postprocess made it). n_steps = ceil (duration_s · fs). Every failure names the file
 * or the point; cancel returns RW_ERROR_CANCELLED between or during stages.
 */
#pragma once

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include "rw-air.h"
#include "rw-error.h"
#include "rw-file.h"
#include "rw-hybrid.h"
#include "rw-materials.h"
#include "rw-receiver.h"
#include "rw-solver.h"

#define RW_SIM_MAX_RECEIVERS 64
#define RW_SIM_MAX_WARNINGS 8

typedef struct {
  const char *mesh_path;
  double scale;                     /* 1.0 */
  double fmax_hz;                   /* 1000 */
  double ppw;                       /* 0: the scheme's default (rw_scheme_default_ppw) */
  double duration_s;                /* 1.0 */
  double temperature_c;             /* 20: c of the grid, and the air absorption */
  double humidity_pct;              /* 50: relative humidity, for the air absorption */
  bool air_absorption;              /* true: ISO 9613-1 air absorption applied to the IRs */
  double source[3];
  size_t n_receivers;
  double receivers[RW_SIM_MAX_RECEIVERS][3];
  /* what each receiver records (rw-receiver.h; zeroed: omnidirectional) */
  RwReceiverSpec receiver_specs[RW_SIM_MAX_RECEIVERS];
  const char *hrtf_path;            /* SOFA file for binaural receivers; NULL: the bundled KEMAR */
  double uniform_R;                 /* NAN → materials */
  const char *materials_map;        /* NULL → name matching */
  RwBoundary boundary;
  RwScheme scheme;                  /* AUTO: rw_sim_resolve_scheme */
  RwBackendKind backend;
  RwPrecision precision;
  double fs_out_hz;                 /* RW_OUTPUT_RATE_HZ */
  int threads;                      /* CPU threads, ≤ 0 → all */
  int device;                       /* the backend's device (RwSolverSetup.device), 0 */
  /* The full-band IR (issue #12; rw-hybrid.h, rw-ga.h, docs/GEOMETRICAL.md):
   * the wave part below the crossover, the geometrical part (image sources
   * and rays, on all CPU cores) above it, both calibrated alike. */
  bool hybrid;                      /* true; false: the wave part alone, valid to fmax */
  double crossover_hz;              /* 0: rw_hybrid_default_crossover (fmax), one octave below */
  size_t n_rays;                    /* RW_RAYS_DEFAULT_N */
  int ism_order;                    /* RW_ISM_DEFAULT_ORDER */
  uint64_t seed;                    /* 1: the rays and the late IR's synthesis */
  bool write_parts;                 /* false; true: also wave-N.wav and geometrical-N.wav */
  /* The ranks the wave solver is spread over (issue #15; rw-comm.h,
   * RwSolverSetup.comm), NULL: one. Every rank calls rw_simulate with the
   * same config; each steps a slab of the grid on its device (cfg->device
   * plus its rank on its host, modulo the backend's devices); rank 0 alone
   * post-processes and fills the IRs, the others return with none
   * (RwSimResult.n_receivers 0). */
  const struct RwComm *comm;
  /* Checkpoints (rw-checkpoint.h, docs/CHECKPOINT.md): the folder, or NULL
   * for none. The wave solve continues from the folder's checkpoint when it
   * holds one of this run (said through rw_warn), and writes one there every
   * checkpoint_every_s seconds (RW_SIM_CHECKPOINT_EVERY_S; ≤ 0: never by time), at its end, and
   * when *checkpoint_now is set (a SIGTERM handler's flag, may be NULL) —
   * then stopping with RW_ERROR_CANCELLED. With several sources
   * (rw_simulate_sources), source s's go to the subfolder source-N. */
  const char *checkpoint_dir;
  double checkpoint_every_s;
  const atomic_int *checkpoint_now;
  /* false; true: the process is done with the device after this run. Its
   * last wave solve (the last source of rw_simulate_sources) then gives
   * the device back (rw_solver_release_device: on CUDA the context's
   * teardown, about 0.1 s on an H100) on a thread of its own while its
   * IRs are post-processed, instead of holding the process's exit. The
   * CLI sets it; a front end that runs again (the GUI) must not. One rank
   * only (with ranks the exit releases). */
  bool release_device;
} RwSimConfig;

/* The checkpoints' period by default (rw_sim_config_init). */
#define RW_SIM_CHECKPOINT_EVERY_S 1800.0

void rw_sim_config_init (RwSimConfig *cfg);   /* the defaults above */

/* Whether the FCC scheme runs cfg: the FV boundary only (every receiver
 * type: spatial receivers probe its sites, docs/SPATIAL.md). Fails with
 * RW_ERROR_INPUT naming the boundary otherwise; err may be NULL. */
bool rw_sim_check_fcc (const RwSimConfig *cfg, RwError *err);
/* The scheme a run gets: an explicit one as is (rw_sim_check_settings
 * refuses FCC where rw_sim_check_fcc does); AUTO: the scheme that reaches
 * the accuracy target at least cost, by measurement — the FCC scheme
 * wherever it runs, else the 7-point one (docs/SOLVER.md §9). */
RwScheme rw_sim_resolve_scheme (const RwSimConfig *cfg);
/* Points per wavelength of the run: cfg->ppw, or the scheme's default. */
double rw_sim_ppw (const RwSimConfig *cfg);

/* Checks every setting of cfg but the mesh (fmax, ppw, duration,
 * temperature, humidity, uniform R, output rate, points): the checks rw_simulate and
 * rw_sim_solve make before a run, for callers that take settings from
 * elsewhere (the GUI's project files) and must refuse them as a run would.
 * The message names the setting and its value. */
bool rw_sim_check_settings (const RwSimConfig *cfg, RwError *err);

typedef struct {
  /* grid and scheme */
  double c, spacing_m, fs_grid_hz, fmax_hz, fs_out_hz;
  RwScheme scheme;                  /* resolved: CARTESIAN or FCC */
  double ppw;                       /* points per wavelength at fmax (cubic spacings) */
  double phase_error;               /* worst-direction v/c − 1 at fmax (rw_scheme_phase_error) */
  size_t nx, ny, nz, n_inside, n_boundary;
  size_t n_steps;                   /* ceil (duration_s · fs): the IR's length */
  size_t n_steps_run;               /* steps solved: n_steps + the post-processing tail */
  double mesh_volume_m3, grid_volume_m3;
  char backend[32];
  char device[128];
  int ranks;                        /* MPI ranks the solver was spread over (1) */
  /* per surface */
  size_t n_surfaces;
  char **surface_names;
  char **surface_materials;
  double *surface_R;
  /* the frequency-dependent model of each surface (rw_materials_assign_models),
   * or NULL: every surface frequency independent from surface_R. The FV
   * boundary runs these; results.json gives their α per band. */
  RwSurfaceModel *surface_models;
  /* air absorption: applied or not, and when applied its octave bands
   * and coefficients (air.n_bands = 0 when not) */
  bool air_absorption;
  RwAirBands air;
  /* per receiver: calibrated IR at fs_out_hz */
  size_t n_receivers;
  float **ir;
  size_t ir_frames;
  /* the full-band IR (cfg->hybrid; all zero when off): the crossover
   * used (its transition band: rw_hybrid_transition), which method gives each octave
   * band, the octave bands the surfaces' admittances were fitted over (all
   * eight: one model serves both methods) and the geometrical part's
   * figures summed over the receivers */
  bool hybrid;
  double crossover_hz;
  RwHybridMethod band_method[RW_N_OCTAVES];
  int fit_bands;
  double ga_receiver_radius_m;      /* the rays' receiver sphere */
  size_t ga_image_sources;          /* image-source arrivals rendered */
  size_t ga_rays_lost;              /* rays that left the room (holes in the mesh) */
  /* per receiver, the two parts before the join (the wave part as the
   * wave-only run gives it, the geometrical part full band), ir_frames
   * samples at fs_out_hz: kept when cfg->write_parts, else NULL */
  float **ir_wave, **ir_geometrical;
  /* spatial receivers (rw-receiver.h, docs/SPATIAL.md; what each records
   * is the config's receiver_specs): NULL when every receiver is
   * omnidirectional; else the ambisonic order each wave part resolves
   * (rw_wave_encoded_order; 0 for omni),
   * and its channels at fs_out_hz, ir_frames samples each, planar:
   * ir_binaural[r] left then right (NULL unless binaural), ir_ambi[r]
   * (rw_receiver_ambi_order + 1)² channels, ACN/SN3D (NULL for omni).
   * ir[r] stays the omnidirectional IR at the point: W of ir_ambi[r]. */
  int *wave_ambi_order;
  float **ir_binaural, **ir_ambi;
  char hrtf_path[1024];             /* the set binaural receivers used; "" when none */
  size_t hrtf_directions;           /* its measured directions */
  /* seconds, wall clock. t_total_s is the import and everything of this
   * source's run up to its IRs: it holds the stages below (setup, the
   * geometrical part and the join too) and what lies between them, but
   * not the writing, which comes after. t_setup_s: the solver's setup
   * just before the solve (the wait for the device's warm-up, the
   * solver's creation, a checkpoint's loading); t_write_s: the WAVs'
   * writing, set by rw_sim_write_outputs (0 before). */
  double t_import_s, t_voxelise_s, t_solve_s, t_postprocess_s, t_total_s;
  double t_geometrical_s, t_join_s;   /* the geometrical part (all receivers), the join */
  double t_setup_s, t_write_s;
  double mvox_per_s;
  /* the cells nearest the source and receivers, and their centres (the
   * spatial receivers' probes are centred there; the solver interpolates
   * at the positions given, rw_grid_interp) */
  size_t source_cell;
  double source_at[3];
  /* how the solver reads the positions given: rw_grid_interp_name;
   * "nearest" in results of versions that snapped them to source_cell */
  char interpolation[16];
  size_t *receiver_cells;
  double (*receivers_at)[3];
  /* what the user should know about a run that still went ahead (a
   * receiver in the source's cell, normals that were flipped, …):
   * translated sentences, shown by the CLI on stderr */
  size_t n_warnings;
  char warnings[RW_SIM_MAX_WARNINGS][320];
} RwSimResult;

bool rw_simulate (const RwSimConfig *cfg, RwProgressFn progress, void *user_data,
                  const atomic_int *cancel, RwSimResult *out, RwError *err);

/* Called by rw_simulate_sources when source `source`'s result is complete.
 * The result is freed when it returns, unless `done` takes it (moves it out
 * and zeroes *result). Returning false (with err set) stops the runs. */
typedef bool (*RwSimSourceDoneFn) (size_t source, const double position[3],
                                   RwSimResult *result, void *user_data, RwError *err);

/* rw_simulate for several source positions (ISO 3382-1 asks for two or
 * more): the mesh is imported, checked and given its materials once, then
 * each source (cfg->source is not used) is solved and handed to `done`
 * before the next starts. A failure of source s (> 1 source) names it:
 * "source 2: …"; the sources before it have been handed over. A run that
 * will take a device (--backend cuda or auto) opens it on a thread of its
 * own from the start (RwBackendOps.warm_up: the CUDA context), joined
 * before the first solver's creation, so that it overlaps the import and
 * the voxeliser; ROOMWAVE_WARM_UP=0 turns that off (benchmarks). */
bool rw_simulate_sources (const RwSimConfig *cfg, const double (*sources)[3], size_t n_sources,
                          RwProgressFn progress, void *user_data, const atomic_int *cancel,
                          RwSimSourceDoneFn done, void *done_data, RwError *err);
/* The stages after import, on a mesh the caller holds: voxelise, locate
 * the source and receivers, solve, post-process. `surface_R` gives one
 * reflection factor per mesh surface (rw_materials_assign, or the GUI's
 * materials panel) and must outlive the call. Fills the grid, solver,
 * receiver and IR fields of `out` and their timings; its surface fields
 * are the caller's. Its device's warm-up, as rw_simulate_sources', overlaps
 * the voxeliser. rw_simulate calls this after importing; the GUI calls
 * it from its worker thread, reading live slices through
 * RwProgress.solver. On failure `out` may hold part of a result: free it
 * with rw_sim_result_clear(). */
bool rw_sim_solve (const RwSimConfig *cfg, const RwMesh *mesh, const double *surface_R,
                   RwProgressFn progress, void *user_data, const atomic_int *cancel,
                   RwSimResult *out, RwError *err);

/* out_dir/receiver-N.wav (32-bit float, fs_out) and out_dir/results.json:
 * the results folder of rw-results.h (docs/RESULTS.md), which
 * rw_results_read reads back. out_dir is created when missing (one level
 * of parents too); every file is written to a temporary file and renamed,
 * so no file is ever half-written. The time the WAVs took goes into
 * res->t_write_s before results.json is written, which records it. */
bool rw_sim_write_outputs (const RwSimConfig *cfg, RwSimResult *res,
                           const char *out_dir, RwError *err);
/* The output folder of a run, replaced as a whole (rw-file.h,
 * RwStagedDir): checked, locked and staged before the solve, so that a
 * folder that cannot be written, or that another run is writing, fails at
 * once; the run writes into sd->staging (rw_sim_write_outputs, one
 * subfolder per source with several: rw_sim_source_dir_name) and
 * rw_staged_dir_commit swaps it in. An existing folder may hold only what
 * runs write (results.json, receiver-N.wav, source-N/ with the same, and
 * temporary files a crash left of these) and none of the run's inputs
 * (the mesh, the materials map); anything else is refused, naming it. */
bool rw_sim_out_open (RwStagedDir *sd, const RwSimConfig *cfg, const char *out_dir, RwError *err);
/* "source-N", N from 1: the subfolder of source s in a run with several. */
void rw_sim_source_dir_name (size_t s, char *buf, size_t len);
/* "receiver-N.wav", N from 1: the name of receiver r's file. */
void rw_sim_output_name (size_t r, char *buf, size_t len);
/* "wave-N.wav", "geometrical-N.wav": receiver r's parts (cfg->write_parts). */
void rw_sim_part_name (size_t r, bool geometrical, char *buf, size_t len);
/* The highest frequency the IRs of res are valid to: fmax for the wave
 * part alone, the output rate's Nyquist frequency for a hybrid IR (the
 * geometrical part's top octave band reaches it); never above Nyquist. */
double rw_sim_valid_up_to_hz (const RwSimResult *res);
/* The crossover cfg asks for: cfg->crossover_hz, or the default for its fmax. */
double rw_sim_crossover_hz (const RwSimConfig *cfg);
void rw_sim_result_clear (RwSimResult *res);
/* Adds a warning to res (printf format; dropped beyond RW_SIM_MAX_WARNINGS). */
void rw_sim_warn (RwSimResult *res, const char *fmt, ...) __attribute__ ((format (printf, 2, 3)));
/* |a − b|, metres: the distance between two positions (results.json's
 * distance_m, the direct sound's arrival r/c). */
double rw_sim_distance (const double a[3], const double b[3]);

