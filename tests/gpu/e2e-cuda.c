/* SPDX-License-Identifier: GPL-3.0-or-later */
/* e2e-cuda — the end-to-end figure of docs/PERFORMANCE.md: a 30 m³ room
 * (4 m × 3 m × 2.5 m) at fmax 4 kHz (ppw 7.75: ~22 M cells, ~54 kHz),
 * 1 s of impulse response, mesh file to WAV, on the CUDA backend.
 *
 * Writes the room as an OBJ (Assimp), then times rw_simulate (import,
 * voxelise, solve, post-process) and rw_sim_write_outputs (WAV + JSON)
 * with a monotonic clock, and prints where the time goes.
 * Usage: e2e-cuda OUT_DIR [f32|f16|f64] [fmax_hz]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "rw-clock.h"
#include "rw-i18n.h"
#include "rw-mesh.h"
#include "rw-shapes.h"
#include "rw-sim.h"

int
main (int argc, char **argv)
{
  rw_i18n_init ();
  if (argc < 2)
    {
      fprintf (stderr, "usage: e2e-cuda OUT_DIR [f32|f16|f64] [fmax_hz]\n");
      return 2;
    }
  const char *dir = argv[1];
  mkdir (dir, 0755);
  RwSimConfig cfg;
  rw_sim_config_init (&cfg);
  cfg.precision = RW_PRECISION_F32;
  if (argc > 2 && strcmp (argv[2], "f16") == 0)
    cfg.precision = RW_PRECISION_F16;
  else if (argc > 2 && strcmp (argv[2], "f64") == 0)
    cfg.precision = RW_PRECISION_F64;
  cfg.fmax_hz = argc > 3 ? atof (argv[3]) : 4000.0;
  cfg.duration_s = 1.0;
  cfg.backend = RW_BACKEND_CUDA;
  cfg.uniform_R = 0.9;
  cfg.source[0] = 1.1, cfg.source[1] = 1.3, cfg.source[2] = 1.2;
  cfg.n_receivers = 2;
  cfg.receivers[0][0] = 2.9, cfg.receivers[0][1] = 1.8, cfg.receivers[0][2] = 1.5;
  cfg.receivers[1][0] = 3.2, cfg.receivers[1][1] = 1.8, cfg.receivers[1][2] = 1.5;

  char mesh_path[4096];
  snprintf (mesh_path, sizeof mesh_path, "%s/room-30m3.obj", dir);
  RwMesh *m = rw_shape_box (4.0, 3.0, 2.5);
  RwError err = { 0 };
  if (!m || !rw_mesh_export (m, mesh_path, "obj", &err))
    {
      fprintf (stderr, "e2e-cuda: %s\n", err.message);
      return 1;
    }
  rw_mesh_free (m);
  cfg.mesh_path = mesh_path;

  RwSimResult res;
  const double t0 = rw_clock_s ();
  if (!rw_simulate (&cfg, NULL, NULL, NULL, &res, &err))
    {
      fprintf (stderr, "e2e-cuda: %s\n", err.message);
      return 1;
    }
  const double t1 = rw_clock_s ();
  if (!rw_sim_write_outputs (&cfg, &res, dir, &err))
    {
      fprintf (stderr, "e2e-cuda: %s\n", err.message);
      rw_sim_result_clear (&res);
      return 1;
    }
  const double t2 = rw_clock_s ();
  const double total = t2 - t0;
  printf ("e2e: 30 m3 room, fmax %.0f Hz, h %.2f mm, fs %.0f Hz, grid %zux%zux%zu, %zu inside "
          "cells, %zu steps, %s on %s (%s)\n", res.fmax_hz, 1e3 * res.spacing_m, res.fs_grid_hz,
          res.nx, res.ny, res.nz, res.n_inside, res.n_steps, res.backend, res.device,
          argc > 2 ? argv[2] : "f32");
  printf ("e2e: import %.2f s, voxelise %.2f s, setup %.2f s, solve %.2f s (%.0f Mvox/s), "
          "post-process %.2f s, write %.2f s (WAVs %.2f s), other %.2f s; total mesh to WAV %.2f s\n",
          res.t_import_s, res.t_voxelise_s, res.t_setup_s, res.t_solve_s, res.mvox_per_s,
          res.t_postprocess_s, t2 - t1, res.t_write_s, (t1 - t0) - res.t_import_s - res.t_voxelise_s
          - res.t_setup_s - res.t_solve_s - res.t_postprocess_s, total);
  rw_sim_result_clear (&res);
  return 0;
}
