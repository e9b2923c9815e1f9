/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-listen-view.h — the Listen page: auralise a dry recording with the
 * simulated IR and play it.
 *
 * Choose a bundled dry signal (data/audio/) or any file libsndfile reads;
 * Auralise starts a GTask thread (it never touches GTK) that writes the IR
 * to a WAV in the window's scratch folder, holding a reference to the
 * output, and runs rw_auralise_file; the result
 * plays in GtkMediaControls over a GtkMediaFile (GTK's GStreamer media
 * backend: libgtk-4-media-gstreamer) and can be exported as WAV.
 *
 * Where to listen (issue #13): receivers 1 and 2 as left and right on
 * loudspeakers (omnidirectional), or a binaural receiver on headphones:
 * its receiver-N-binaural.wav (the output's results folder, written into
 * the scratch folder by rw_sim_output_save in the GTask, once per output)
 * at the simulated head. The
 * head's yaw and pitch can be changed: that orientation's binaural IR is
 * rendered in the GTask from receiver-N-ambix.wav and the HRTF set
 * (rw_listen_binaural_ir, rw-listen-render.h), never by simulating again;
 * a change made while one is in flight cancels it (GCancellable) and
 * starts anew once the head has settled for HEAD_SETTLE_MS. */
#pragma once

#include <gtk/gtk.h>
#include "rw-sim-job.h"

G_BEGIN_DECLS

#define RW_TYPE_LISTEN_VIEW (rw_listen_view_get_type ())
G_DECLARE_FINAL_TYPE (RwListenView, rw_listen_view, RW, LISTEN_VIEW, GtkBox)

/* out is borrowed (the results view owns it); NULL clears. */
void rw_listen_view_set_output (RwListenView *self, const RwSimOutput *out);
/* Starts the auralisation of dry_path (NULL → the chosen one); emits
 * "auralised" (path of the wet WAV or NULL, error message or NULL). */
void rw_listen_view_auralise (RwListenView *self, const char *dry_path);
const char *rw_listen_view_get_wet_path (RwListenView *self);
/* The output's results folder in the scratch folder, once an auralisation
 * of a binaural receiver has written it (in its worker), else NULL. */
const char *rw_listen_view_get_results_dir (RwListenView *self);
/* Chooses where to listen: −1 receivers 1 and 2, r ≥ 0 binaural receiver
 * r (FALSE when the output has no such binaural receiver). */
gboolean rw_listen_view_choose_receiver (RwListenView *self, int receiver);
/* Turns the chosen binaural receiver's head (degrees; as the fields do):
 * once auralised, it is auralised again for the new head. */
void rw_listen_view_set_head (RwListenView *self, double yaw_deg, double pitch_deg);
/* The player's stream of the auralised file (NULL before one exists). */
GtkMediaStream *rw_listen_view_get_stream (RwListenView *self);

G_END_DECLS
