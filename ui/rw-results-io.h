/* rw-results-io.h — a run's results on disk, beside the project.
 *
 * A folder holding receiver-N.wav (32-bit float, the calibrated IRs at the
 * output rate, written by rw_audio_write: atomically) and results.json
 * (what the run was: fmax_hz, rates, spacing, grid, backend, timings,
 * points; "fmax_hz" at the top level, as rw_compare_read_fmax looks for
 * it). Loading reads it all back, checks it, and analyses the IRs again
 * (rw_analyse), so a reopened project shows its results. */
#pragma once

#include <gio/gio.h>
#include "rw-sim-job.h"

G_BEGIN_DECLS

gboolean rw_sim_output_save (const RwSimOutput *out, const char *dir, GError **error);
/* (transfer full) or NULL with an error naming the file and the problem. */
RwSimOutput *rw_sim_output_load (const char *dir, GError **error);

G_END_DECLS
