/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-results-io.h — a run's results for the views, and their folder.
 *
 * The folder's format is the engine's (rw-results.h, docs/RESULTS.md):
 * the GUI writes it with rw_sim_write_outputs and reads it with
 * rw_results_read, exactly as roomwave-cli simulate does, so the GUI opens
 * any CLI output folder and the CLI analyses any folder the GUI saved.
 * This file only turns the engine's RwResults into an RwSimOutput (the
 * views' copy, with the ISO 3382-1 analysis of every IR) and errors into
 * GErrors. */
#pragma once

#include <gio/gio.h>
#include "rw-results.h"
#include "rw-sim-job.h"

G_BEGIN_DECLS

/* Takes *results (zeroing it) and analyses every IR: (transfer full). */
RwSimOutput *rw_sim_output_new (RwResults *results);
gboolean rw_sim_output_save (const RwSimOutput *out, const char *dir, GError **error);
/* The same in a worker thread (GTask), holding a reference to out until it
 * ends (a results folder of 14 MB took 11–15 ms on a 2-core machine, and
 * one grows with receivers, orders and length). Not cancellable: a folder
 * is written whole. finish gives TRUE, or FALSE with the error. */
void rw_sim_output_save_async (RwSimOutput *out, const char *dir, GAsyncReadyCallback callback,
                               gpointer user_data);
gboolean rw_sim_output_save_finish (GAsyncResult *result, GError **error);
/* (transfer full) or NULL with an error naming the file and the problem. */
RwSimOutput *rw_sim_output_load (const char *dir, GError **error);
/* The same in a worker thread (GTask; reading and analysing every IR
 * takes 0.25 s for four receivers of 2 s on a 2-core machine): finish
 * gives the output (transfer full), the error, or G_IO_ERROR_CANCELLED at
 * once when `cancellable` is cancelled. */
void rw_sim_output_load_async (const char *dir, GCancellable *cancellable, GAsyncReadyCallback callback,
                               gpointer user_data);
RwSimOutput *rw_sim_output_load_finish (GAsyncResult *result, GError **error);

G_END_DECLS
