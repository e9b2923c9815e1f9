/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-receiver.h — what a receiver records (issue #13, docs/SPATIAL.md):
 * omnidirectional pressure, a binaural head, or an ambisonic microphone.
 * The one owner of the types' names (CLI, results.json, the GUI's project
 * files) and of the receiver syntax
 *
 *   X,Y,Z[:binaural[,yaw=DEG][,pitch=DEG]|:ambisonic=N[,yaw=DEG][,pitch=DEG]]
 *
 * Orientation (rw-ambisonics.h): yaw counter-clockwise from the room's +x
 * about +z, pitch up from the horizontal, in degrees; a binaural head
 * looks along it, an ambisonic microphone's front (its X channel) points
 * along it. An omnidirectional receiver has none.
 *
 * Files a receiver r (from 0) gives in a results folder (rw-sim.h):
 * - every type: receiver-N.wav, the omnidirectional IR at the point (the
 *   one the analysis reads; N = r + 1);
 * - binaural: receiver-N-binaural.wav (2 channels, left then right) and
 *   receiver-N-ambix.wav (order RW_RECEIVER_BINAURAL_AMBI_ORDER, the
 *   sound field at the head's orientation, from which other orientations
 *   are rendered without simulating again: rw-ambi-binaural.h);
 * - ambisonic: receiver-N-ambix.wav ((N + 1)² channels, AmbiX: ACN, SN3D).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include "rw-error.h"

typedef enum {
  RW_RECEIVER_OMNI = 0,     /* a zeroed RwReceiverSpec is an omni receiver */
  RW_RECEIVER_BINAURAL,
  RW_RECEIVER_AMBISONIC,
  RW_RECEIVER_N_TYPES
} RwReceiverType;

/* The ambisonic order kept with a binaural receiver (receiver-N-ambix.wav). */
#define RW_RECEIVER_BINAURAL_AMBI_ORDER 3
/* Pitch is limited to the poles; yaw to one turn either way. */
#define RW_RECEIVER_MAX_PITCH_DEG 90.0
#define RW_RECEIVER_MAX_YAW_DEG 360.0

typedef struct {
  RwReceiverType type;
  int order;          /* ambisonic: 1 … RW_AMBI_MAX_ORDER; else 0 */
  double yaw_deg;     /* binaural, ambisonic: orientation (above); omni: 0 */
  double pitch_deg;
} RwReceiverSpec;

/* "omni", "binaural", "ambisonic" (not translated: file formats and the
 * command line use them); NULL for a value outside the enum. */
const char *rw_receiver_type_name (RwReceiverType type);
/* The type named `name`; false when none is. */
bool rw_receiver_type_from_name (const char *name, RwReceiverType *type);
/* A translated label for user interfaces ("Omnidirectional", …). */
const char *rw_receiver_type_label (RwReceiverType type);

/* Checks a spec: a known type, an order within 1 … RW_AMBI_MAX_ORDER for
 * an ambisonic receiver (0 otherwise), a finite yaw within ±360° and
 * pitch within ±90°, none for an omni receiver. The message names
 * `what` ("receiver 2") and the value. */
bool rw_receiver_check (const RwReceiverSpec *spec, const char *what, RwError *err);

/* Parses the syntax above into pos and spec (zeroed first). The message
 * names the text and says what was expected. */
bool rw_receiver_parse (const char *text, double pos[3], RwReceiverSpec *spec, RwError *err);
/* The syntax back (rw_receiver_parse reads it to the same values; %.17g). */
void rw_receiver_format (const double pos[3], const RwReceiverSpec *spec, char *buf, size_t len);

/* Channels of the receiver's own file: 1 (omni), 2 (binaural),
 * (order + 1)² (ambisonic). */
int rw_receiver_channels (const RwReceiverSpec *spec);
/* The ambisonic order of its receiver-N-ambix.wav: the spec's order, 3
 * for a binaural receiver, 0 (none) for an omni one. */
int rw_receiver_ambi_order (const RwReceiverSpec *spec);

/* "receiver-N-binaural.wav" and "receiver-N-ambix.wav", N = r + 1. */
void rw_receiver_binaural_name (size_t r, char *buf, size_t len);
void rw_receiver_ambix_name (size_t r, char *buf, size_t len);
