/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-listen-render.h — the Listen page's host logic for binaural
 * receivers (issue #13), plain C without widgets so that CI checks it:
 * which file to play for a head orientation, and the binaural IR of a
 * head turned away from the simulated orientation, rendered from the
 * receiver's ambisonic IR without simulating again.
 *
 * A binaural receiver's results (rw-receiver.h) hold receiver-N-binaural.wav
 * (left, right: the head at the spec's yaw and pitch) and
 * receiver-N-ambix.wav (order RW_RECEIVER_BINAURAL_AMBI_ORDER, AmbiX: the
 * sound field in that head's frame). For another orientation the field
 * is rotated into the new head's frame and decoded to the two ears with
 * the HRTF set (rw-ambi-binaural.h). The decoded IR is the order-3 MagLS
 * decoder's, not the direct rendering of receiver-N-binaural.wav: the
 * ITD within 60 µs of the set's and the ILD within 3 dB (test
 * ambi-binaural), a slightly different timbre. */
#pragma once

#include <gio/gio.h>
#include "rw-audio.h"

G_BEGIN_DECLS

/* Whether (yaw, pitch) is the simulated orientation (sim_yaw, sim_pitch),
 * so that receiver-N-binaural.wav plays as it is (degrees; a whole turn
 * of yaw is the same head). */
gboolean rw_listen_same_orientation (double sim_yaw_deg, double sim_pitch_deg, double yaw_deg, double pitch_deg);

/* The binaural IR (2 channels, left then right, at the ambix file's rate)
 * of a head at (yaw_deg, pitch_deg) in the room, from ambix_path (the
 * field in the frame of a head at (sim_yaw_deg, sim_pitch_deg)) and the
 * HRTF set hrtf_path (NULL: the bundled one), opened at the file's rate:
 * the field is turned into the new head's frame (rw_ambi_rotate: first
 * levelled, pitch −sim_pitch, then turned by yaw − sim_yaw and pitched by
 * pitch, since turns about different axes do not commute) and decoded to
 * the ears (rw_ambi_binaural_decode, MagLS; docs/BINAURAL.md), cut to the
 * file's length. The decoder of the last (set, rate, order) is kept for
 * the next call (designing one takes seconds). `cancellable` is checked
 * between stages. On failure `out` is empty and `error` names the file
 * and the problem (a channel count that is not (N + 1)², N = 1 … 3; a
 * set the engine refuses). Thread safe. */
gboolean rw_listen_binaural_ir (const char *ambix_path, const char *hrtf_path, double sim_yaw_deg,
                                double sim_pitch_deg, double yaw_deg, double pitch_deg, GCancellable *cancellable,
                                RwAudio *out, GError **error);

G_END_DECLS
