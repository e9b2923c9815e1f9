/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-listen-render.c — binaural IRs for other head orientations
 * (rw-listen-render.h). */
#include "rw-listen-render.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

gboolean
rw_listen_same_orientation (double sim_yaw_deg, double sim_pitch_deg, double yaw_deg, double pitch_deg)
{
  /* yaw modulo a whole turn; the fields hold 0.1°, far above 1e-9 */
  double dyaw = fmod (fabs (yaw_deg - sim_yaw_deg), 360.0);
  return fmin (dyaw, 360.0 - dyaw) < 1e-9 && fabs (pitch_deg - sim_pitch_deg) < 1e-9;
}

gboolean
rw_listen_binaural_ir (const char *ambix_path, const char *hrtf_path, double sim_yaw_deg, double sim_pitch_deg,
                       double yaw_deg, double pitch_deg, GCancellable *cancellable, RwAudio *out, GError **error)
{
  (void) ambix_path;
  (void) hrtf_path;
  (void) sim_yaw_deg;
  (void) sim_pitch_deg;
  (void) yaw_deg;
  (void) pitch_deg;
  (void) cancellable;
  memset (out, 0, sizeof *out);
  /* Not available: the rotation and the decoder (rw-ambi-binaural.h) are
   * not in this build. Never a stand-in: the caller says so. */
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                       _("Turning the head needs the ambisonic-to-binaural decoder, which this build of "
                         "Roomwave does not have: only the simulated orientation can be played."));
  return FALSE;
}
