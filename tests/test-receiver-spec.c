/* SPDX-License-Identifier: GPL-3.0-or-later */
/* receiver-spec: the receiver syntax (rw-receiver.h) parses what the
 * issue's command line gives, refuses what it does not, and formats back
 * to the same values; the names round-trip. */
#include <string.h>

#include "rw-receiver.h"
#include "rw-test.h"

static void
good (const char *text, const double want_pos[3], RwReceiverType type, int order, double yaw,
      double pitch)
{
  RwError err = { 0 };
  double pos[3];
  RwReceiverSpec s;
  RW_CHECK (rw_receiver_parse (text, pos, &s, &err), "%s: %s", text, err.message);
  for (int k = 0; k < 3; k++)
    RW_CHECK_CLOSE (pos[k], want_pos[k], 0, text);
  RW_CHECK (s.type == type && s.order == order && s.yaw_deg == yaw && s.pitch_deg == pitch,
            "%s: type %d order %d yaw %g pitch %g", text, (int) s.type, s.order, s.yaw_deg,
            s.pitch_deg);
  /* format, parse again: the same */
  char buf[256];
  rw_receiver_format (pos, &s, buf, sizeof buf);
  double pos2[3];
  RwReceiverSpec s2;
  RW_CHECK (rw_receiver_parse (buf, pos2, &s2, &err), "%s: %s", buf, err.message);
  RW_CHECK (memcmp (pos, pos2, sizeof pos) == 0 && memcmp (&s, &s2, sizeof s) == 0,
            "%s does not read back as %s", buf, text);
}

static void
refused (const char *text, const char *needle)
{
  RwError err = { 0 };
  double pos[3];
  RwReceiverSpec s;
  RW_CHECK (!rw_receiver_parse (text, pos, &s, &err) && err.code == RW_ERROR_INPUT,
            "%s was accepted", text);
  RW_CHECK (strstr (err.message, needle) != NULL, "%s: message '%s' lacks '%s'", text,
            err.message, needle);
}

int
main (void)
{
  const double p[3] = { 1.5, -2, 0.25 };
  good ("1.5,-2,0.25", p, RW_RECEIVER_OMNI, 0, 0, 0);
  good ("1.5,-2,0.25:omni", p, RW_RECEIVER_OMNI, 0, 0, 0);
  good ("1.5,-2,0.25:binaural", p, RW_RECEIVER_BINAURAL, 0, 0, 0);
  good ("1.5,-2,0.25:binaural,yaw=90", p, RW_RECEIVER_BINAURAL, 0, 90, 0);
  good ("1.5,-2,0.25:binaural,pitch=-10.5,yaw=-45", p, RW_RECEIVER_BINAURAL, 0, -45, -10.5);
  good ("1.5,-2,0.25:ambisonic=1", p, RW_RECEIVER_AMBISONIC, 1, 0, 0);
  good ("1.5,-2,0.25:ambisonic=3,yaw=180", p, RW_RECEIVER_AMBISONIC, 3, 180, 0);

  refused ("1,2", "three numbers");
  refused ("1,2,3,4", "three numbers");
  refused ("1,2,x", "three numbers");
  refused ("1,2,3:", "unknown receiver type");
  refused ("1,2,3:cardioid", "unknown receiver type");
  refused ("1,2,3:ambisonic", "its order");
  refused ("1,2,3:ambisonic=1.5", "its order");
  refused ("1,2,3:ambisonic=4", "between 1 and 3");
  refused ("1,2,3:ambisonic=0", "between 1 and 3");
  refused ("1,2,3:binaural=2", "unknown receiver type");
  refused ("1,2,3:binaural,yaw=400", "yaw");
  refused ("1,2,3:binaural,pitch=91", "pitch");
  refused ("1,2,3:binaural,yaw=nan", "unknown or repeated");
  refused ("1,2,3:binaural,yaw=1,yaw=2", "unknown or repeated");
  refused ("1,2,3:binaural,roll=5", "unknown or repeated");
  refused ("1,2,3:omni,yaw=5", "no orientation");

  for (int t = 0; t < RW_RECEIVER_N_TYPES; t++)
    {
      RwReceiverType back;
      RW_CHECK (rw_receiver_type_from_name (rw_receiver_type_name ((RwReceiverType) t), &back)
                && back == (RwReceiverType) t, "type %d's name does not read back", t);
    }
  RwReceiverType none;
  RW_CHECK (!rw_receiver_type_from_name ("Binaural", &none), "names are exact");
  RwReceiverSpec a3 = { RW_RECEIVER_AMBISONIC, 3, 0, 0 }, bin = { RW_RECEIVER_BINAURAL, 0, 0, 0 };
  RW_CHECK (rw_receiver_channels (&a3) == 16 && rw_receiver_channels (&bin) == 2,
            "channel counts");
  char name[64];
  rw_receiver_ambix_name (1, name, sizeof name);
  RW_CHECK (strcmp (name, "receiver-2-ambix.wav") == 0, "%s", name);
  return rw_test_finish ();
}
