/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-sim-job.h — one simulation run in a worker thread.
 *
 * The job snapshots what it needs from the RwProject (surface R, points,
 * each receiver's type and orientation, the HRTF file, settings; the mesh is borrowed and the window disables every action that
 * could replace it while a job runs), then runs the stages in a GTask
 * thread: voxelise → locate points → solver (rw_solver_run) →
 * rw_postprocess per receiver.
 *
 * The worker never touches GTK or the project: it hands progress and
 * pressure-slice copies to the main context (g_main_context_invoke_full
 * with owned data), where the job emits "progress" and "slice". Slices are
 * read with rw_solver_read_slice between chunks, at most ~10 per second.
 * Cancel sets an atomic flag that rw_solver_run checks at least every
 * ~0.1 s; the project is never modified by a job.
 */
#pragma once

#include <gio/gio.h>
#include "rw-analysis.h"
#include "rw-project.h"
#include "rw-results.h"

G_BEGIN_DECLS

/* A copy of one plane of the pressure field, for the live view. */
typedef struct {
  int axis;              /* 0: x = index (plane y–z), 1: y (x–z), 2: z (x–y) */
  size_t index;
  int width, height;     /* the plane's first axis runs fastest */
  float *p;              /* width·height pressures */
  guint8 *inside;        /* width·height: 1 for inside cells */
  double origin[3], spacing_m;
  double time_s;
} RwSlice;

GType rw_slice_get_type (void);
void rw_slice_free (RwSlice *slice);

/* What a finished run (or an opened results folder) hands back: a
 * reference owned by the caller (rw_sim_output_ref / _unref; atomic, so a
 * worker thread may hold one while it writes the output out). Nothing
 * changes an output once rw_sim_output_new has made it, so threads that
 * hold references read it at once. `results` is the engine's record of the run, the one that is
 * written to and read from a results folder (rw-results-io.h); the fields
 * after it are copies of its values for the views (made by
 * rw_sim_output_new), and ir points into it. */
typedef struct {
  RwResults results;
  double fmax_hz, fs_grid_hz, fs_out_hz, spacing_m, c;
  size_t nx, ny, nz, n_inside, n_steps;
  char backend[32];
  char device[128];
  double mvox_per_s, t_voxelise_s, t_solve_s;
  guint n_receivers;
  float **ir;            /* n_receivers calibrated IRs at fs_out_hz (results.result.ir) */
  size_t ir_frames;
  /* ISO 3382-1 analysis per receiver; when analysis_ok[r] is FALSE,
   * analysis_error[r] says why. */
  RwAnalysis *analysis;
  gboolean *analysis_ok;
  char **analysis_error;
  /* A run's own copy of its HRTF file (NULL: the bundled set), which
   * results.config.hrtf_path points at. */
  char *hrtf_path;
} RwSimOutput;

RwSimOutput *rw_sim_output_ref (RwSimOutput *out);
/* Drops a reference (NULL: nothing); the last frees the output. */
void rw_sim_output_unref (RwSimOutput *out);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (RwSimOutput, rw_sim_output_unref)

#define RW_TYPE_SIM_JOB (rw_sim_job_get_type ())
G_DECLARE_FINAL_TYPE (RwSimJob, rw_sim_job, RW, SIM_JOB, GObject)

RwSimJob *rw_sim_job_new (RwProject *project);
/* The engine configuration the run uses, from the snapshot: the
 * settings, points, each receiver's RwReceiverSpec and the HRTF file
 * (its strings borrowed from the job). */
void rw_sim_job_get_config (RwSimJob *self, RwSimConfig *cfg);
void rw_sim_job_start (RwSimJob *self, GAsyncReadyCallback callback, gpointer user_data);
/* (transfer full) the output, or NULL with the error (G_IO_ERROR_CANCELLED
 * after a cancel). */
RwSimOutput *rw_sim_job_finish (RwSimJob *self, GAsyncResult *result, GError **error);
void rw_sim_job_cancel (RwSimJob *self);
gboolean rw_sim_job_is_running (RwSimJob *self);
/* Which plane the live view shows: axis 0–2, position 0…1 of the room's
 * extent along that axis (its bounding box). */
void rw_sim_job_set_slice (RwSimJob *self, int axis, double position);

G_END_DECLS
