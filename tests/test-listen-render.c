/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-listen-render.c — the Listen page's host logic for binaural
 * receivers (ui/rw-listen-render.c, issue #13), without a display:
 *   - rw_listen_same_orientation: a whole turn of yaw is the same head,
 *     0.1° of yaw or pitch is not;
 *   - rw_listen_binaural_ir without the ambisonic-to-binaural decoder
 *     reports G_IO_ERROR_NOT_SUPPORTED and leaves no IR (never a stand-in).
 */
#include <math.h>
#include <string.h>

#include "rw-listen-render.h"
#include "rw-test.h"

int
main (void)
{
  RW_CHECK (rw_listen_same_orientation (30, 10, 30, 10), "the simulated head itself");
  RW_CHECK (rw_listen_same_orientation (30, 10, 390, 10), "yaw 390° is yaw 30°");
  RW_CHECK (rw_listen_same_orientation (-180, 0, 180, 0), "yaw −180° is yaw 180°");
  RW_CHECK (!rw_listen_same_orientation (30, 10, 30.1, 10), "0.1° more yaw is another head");
  RW_CHECK (!rw_listen_same_orientation (30, 10, 30, 10.1), "0.1° more pitch is another head");
  RW_CHECK (!rw_listen_same_orientation (0, 0, 180, 0), "turned round");

  {
    RwAudio out = { (float *) 1, 7, 2, 48000 };
    g_autoptr (GError) e = NULL;
    RW_CHECK (!rw_listen_binaural_ir ("receiver-1-ambix.wav", NULL, 0, 0, 90, 0, NULL, &out, &e),
              "without the decoder: no IR");
    RW_CHECK (e != NULL && g_error_matches (e, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED) && strstr (e->message, "decoder"),
              "reported as not available: %s", e ? e->message : "");
    RW_CHECK (out.data == NULL && out.frames == 0, "and no stand-in IR");
  }
  return rw_test_finish ();
}
