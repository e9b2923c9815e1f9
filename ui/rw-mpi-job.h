/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-mpi-job.h — a run on several local GPUs: `mpirun -np N roomwave-cli
 * simulate … --progress-json` in a GSubprocess (issue #15).
 *
 * rw_mpi_job_new snapshots the project as RwSimJob does (its settings,
 * points, receivers' types, HRTF file, import scale), writes the
 * surfaces' materials to a map file in a temporary folder and builds the
 * command line (rw-mpi-run.h). rw_mpi_job_start starts it with
 * CUDA_VISIBLE_DEVICES set to the checked devices, so that rank i steps
 * its slab on the i-th of them; the progress lines of rank 0 become
 * "progress" signals on the main context (one RwMpiProgress each: every
 * rank's speed); when mpirun exits 0 the results folder is read
 * (rw_sim_output_load, in a worker thread: it analyses every IR) into the
 * RwSimOutput an in-process run gives. A non-zero exit fails with what
 * the ranks wrote on stderr. Cancelling the GCancellable sends mpirun
 * SIGINT (it stops the ranks, which stop at their next chunk), SIGTERM
 * 5 s later, SIGKILL 5 s after that; the job then fails with
 * G_IO_ERROR_CANCELLED. The temporary folder is removed at the end. No
 * GTK: the CI test runs it without a display.
 */
#pragma once

#include <gio/gio.h>
#include "rw-mpi-run.h"
#include "rw-project.h"
#include "rw-sim-job.h"

G_BEGIN_DECLS

#define RW_TYPE_MPI_JOB (rw_mpi_job_get_type ())
G_DECLARE_FINAL_TYPE (RwMpiJob, rw_mpi_job, RW, MPI_JOB, GObject)

/* devices: from rw_mpi_devices_probe (its mpirun and roomwave-cli, and
 * whether the ranks run the CPU for the tests); `device_mask`: the
 * checked devices (bit i: device i), at least two. NULL with an error
 * when the run cannot start (fewer than two devices, the folder or the
 * map cannot be written). */
RwMpiJob *rw_mpi_job_new (RwProject *project, const RwMpiDevices *devices, guint64 device_mask, GError **error);
int rw_mpi_job_get_n_ranks (RwMpiJob *self);
/* The command line and CUDA_VISIBLE_DEVICES (NULL with the CPU override). */
const char *const *rw_mpi_job_get_argv (RwMpiJob *self);
const char *rw_mpi_job_get_visible_devices (RwMpiJob *self);
void rw_mpi_job_start (RwMpiJob *self, GCancellable *cancellable, GAsyncReadyCallback callback,
                       gpointer user_data);
/* (transfer full) the output, or NULL with the error. */
RwSimOutput *rw_mpi_job_finish (RwMpiJob *self, GAsyncResult *result, GError **error);

G_END_DECLS
