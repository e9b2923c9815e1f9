/* rw-sim.h — the whole path: mesh file → calibrated impulse responses.
 *
 * What the CLI's `simulate` and the GUI's Run both call. Each stage is
 * also available on its own (rw-mesh.h, rw-materials.h, rw-voxel.h,
 * rw-solver.h, rw-postprocess.h) for callers that need to stop in between
 * (the GUI shows the mesh report before voxelising).
 */
#pragma once

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include "rw-error.h"
#include "rw-solver.h"

#define RW_SIM_MAX_RECEIVERS 64

typedef struct {
  const char *mesh_path;
  double scale;                     /* 1.0 */
  double fmax_hz;                   /* 1000 */
  double ppw;                       /* RW_DEFAULT_PPW */
  double duration_s;                /* 1.0 */
  double temperature_c;             /* 20 */
  double source[3];
  size_t n_receivers;
  double receivers[RW_SIM_MAX_RECEIVERS][3];
  double uniform_R;                 /* NAN → materials */
  const char *materials_map;        /* NULL → name matching */
  RwBoundary boundary;
  RwBackendKind backend;
  RwPrecision precision;
  double fs_out_hz;                 /* RW_OUTPUT_RATE_HZ */
  int threads;                      /* CPU threads, ≤ 0 → all */
} RwSimConfig;

void rw_sim_config_init (RwSimConfig *cfg);   /* the defaults above */

typedef struct {
  /* grid and scheme */
  double c, spacing_m, fs_grid_hz, fmax_hz, fs_out_hz;
  size_t nx, ny, nz, n_inside, n_boundary, n_steps;
  double mesh_volume_m3, grid_volume_m3;
  char backend[32];
  char device[128];
  /* per surface */
  size_t n_surfaces;
  char **surface_names;
  char **surface_materials;
  double *surface_R;
  /* per receiver: calibrated IR at fs_out_hz */
  size_t n_receivers;
  float **ir;
  size_t ir_frames;
  /* seconds */
  double t_import_s, t_voxelise_s, t_solve_s, t_postprocess_s;
  double mvox_per_s;
} RwSimResult;

bool rw_simulate (const RwSimConfig *cfg, RwProgressFn progress, void *user_data,
                  const atomic_int *cancel, RwSimResult *out, RwError *err);
/* out_dir/receiver-N.wav (32-bit float, fs_out) and out_dir/results.json
 * (settings, fs, h, grid size, cell counts, backend, timings). */
bool rw_sim_write_outputs (const RwSimConfig *cfg, const RwSimResult *res,
                           const char *out_dir, RwError *err);
void rw_sim_result_clear (RwSimResult *res);
