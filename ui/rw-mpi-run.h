/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-mpi-run.h — the host logic of a run on several local GPUs (issue #15).
 *
 * The window runs one solver rank per checked CUDA device as
 * `mpirun -np N roomwave-cli simulate … --out TMPDIR --progress-json`
 * (RwMpiJob, rw-mpi-job.h, through GSubprocess) and reads its results
 * folder back as it reads any other (rw_sim_output_load). This file holds
 * what needs no process and no widget, for the CI tests
 * (tests/test-mpi-run.c): which devices there are and why a multi-GPU
 * run may be unavailable, the surfaces' materials as the map file
 * `simulate --materials` reads, the command line, and the progress lines.
 *
 * Test override: ROOMWAVE_TEST_MPI_CPU=N lists N fake devices whose ranks
 * run the CPU backend (`--backend cpu`), so that the whole path runs on a
 * machine without GPUs (tests/gui/test-gui.c, tests/test-mpi-run.c).
 */
#pragma once

#include <glib.h>
#include "rw-materials.h"
#include "rw-sim.h"

G_BEGIN_DECLS

/* The most ranks (devices) a run of the window starts: a bit each in the
 * project's "run-devices" mask. */
#define RW_MPI_MAX_RANKS 64

/* The devices a multi-GPU run can use here. */
typedef struct {
  int n_devices;            /* CUDA devices (or the test override's fake ones) */
  char **labels;            /* n_devices: "0: NAME, 80.0 GiB" (translated) */
  gboolean cpu_test;        /* ROOMWAVE_TEST_MPI_CPU: the ranks run --backend cpu */
  char *mpirun;             /* the launcher's path, or NULL */
  char *cli;                /* roomwave-cli's path, or NULL */
  /* NULL when a run on several devices can start; else why not
   * (translated): no MPI built in, no mpirun, no roomwave-cli, fewer
   * than 2 devices. */
  char *why_unavailable;
} RwMpiDevices;

/* Device i of a backend as the device lists show it: "0: NAME, 80.0
 * GiB" (translated), or "0: " and why its properties could not be read. */
char *rw_device_label (const RwBackendOps *ops, int i);

RwMpiDevices *rw_mpi_devices_probe (void);
void rw_mpi_devices_free (RwMpiDevices *d);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (RwMpiDevices, rw_mpi_devices_free)

/* One surface as the project holds it (rw-project.h): its name in the
 * mesh, its material name (a library row or "custom"), α per octave band
 * and R. */
typedef struct {
  const char *name;
  const char *material;
  double alpha[RW_N_OCTAVES];
  double R;
} RwMpiSurface;

/* The map file (`simulate --materials`, engine/rw-materials.c) that
 * makes the command line's run model each surface exactly as the
 * window's in-process run does (rw_project_fit_alpha): α the same in
 * every band → {"R": R} (the frequency-independent surface of exactly
 * R), with the library material's scattering when it has one; a library
 * material at its library α → its name; other α → {"alpha": [8 bands]}.
 * Written by the engine's JSON writer (rw-json.h): numbers in the fewest
 * digits that read back as the same doubles. (transfer full) JSON text. */
char *rw_mpi_materials_json (const RwMpiSurface *surfaces, size_t n, const RwMaterialLibrary *lib);

/* What the command line needs besides the run's settings. */
typedef struct {
  const char *mpirun;
  const char *cli;
  int n_ranks;
  const char *out_dir;
  const char *materials_map;  /* the file rw_mpi_materials_json's text went to */
  gboolean cpu_backend;       /* the test override: --backend cpu, else --backend cuda */
} RwMpiLaunch;

/* mpirun -np N CLI simulate --mesh … --out OUT --progress-json: every
 * setting of cfg that a run uses (mesh, scale, source, receivers with
 * their types, HRTF file with binaural receivers, fmax, duration, ppw,
 * scheme, boundary, precision, temperature, humidity, air absorption, the
 * geometrical part's settings, threads). (transfer full) NULL-terminated. */
char **rw_mpi_build_argv (const RwSimConfig *cfg, const RwMpiLaunch *launch);

/* One line of `simulate --progress-json`. */
typedef struct {
  double fraction;
  double seconds_left;
  guint64 step, n_steps;
  RwProgressPart part;
  int n_ranks;
  double rank_mvox_per_s[RW_MPI_MAX_RANKS];   /* ranks in order 0 … n_ranks − 1 */
} RwMpiProgress;

/* FALSE for a line that is not a progress report (another line on the
 * pipe, a truncated line): the caller skips it. */
gboolean rw_mpi_parse_progress (const char *line, RwMpiProgress *out);

G_END_DECLS
