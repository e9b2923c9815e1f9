/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-project-receiver.h — what one receiver slot of a project records and
 * where it looks (issue #13, engine/rw-receiver.h), as GObject properties
 * so that the window's fields bind to the selected receiver with one
 * GBindingGroup whose source is the slot:
 *   "type" (guint, an RwReceiverType), "order" (guint, the ambisonic order
 *   1 … RW_AMBI_MAX_ORDER), "yaw-deg" (−360 … 360), "pitch-deg"
 *   (−90 … 90), and the read-only "oriented" (not omnidirectional: yaw and
 *   pitch apply) and "ambisonic" (the order applies).
 *
 * The ranges are the pspecs', the engine's rw_receiver_check's: a value
 * outside them never reaches the slot (GObject refuses it with a
 * warning), so rw_project_receiver_get_spec always gives a spec the
 * engine accepts. The order, yaw and pitch are kept when the type makes
 * them moot (switching omni → binaural → omni keeps the orientation); the
 * spec zeroes what the type does not use. RwProject owns
 * RW_PROJECT_MAX_RECEIVERS slots, one per receiver index, and follows
 * their "notify" (dirty, its "receiver-specs" property). */
#pragma once

#include <glib-object.h>
#include "rw-receiver.h"

G_BEGIN_DECLS

#define RW_TYPE_PROJECT_RECEIVER (rw_project_receiver_get_type ())
G_DECLARE_FINAL_TYPE (RwProjectReceiver, rw_project_receiver, RW, PROJECT_RECEIVER, GObject)

RwProjectReceiver *rw_project_receiver_new (void);
/* The engine's form: order 0 unless ambisonic, no orientation for omni. */
void rw_project_receiver_get_spec (RwProjectReceiver *self, RwReceiverSpec *spec);
/* Sets all four at once (one notify each, frozen together); the spec must
 * pass rw_receiver_check (RwProject checks it first). An omni or binaural
 * spec keeps the slot's ambisonic order. */
void rw_project_receiver_set_spec (RwProjectReceiver *self, const RwReceiverSpec *spec);

G_END_DECLS
