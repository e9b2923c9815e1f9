/* SPDX-License-Identifier: GPL-3.0-or-later */
/* solver-cli-bench: `roomwave-cli bench` works end to end — a small box
 * with --json prints one JSON object with every key the benchmark
 * promises (gvox_per_s, roofline_gvox_per_s, roofline_fraction,
 * copy_gb_per_s, bytes_per_voxel, size, steps, threads, device), with
 * consistent values (roofline = copy / bytes, fraction = achieved /
 * roofline, 12 B in fp32 and 24 B in fp64); the table form prints the
 * figures; bad usage exits 2 with a message. No timing is asserted. */
#include "rw-test.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static const char *cli;

/* Runs the CLI with `args`, returns its exit status and its stdout. */
static int
run (const char *args, char *out, size_t len)
{
  char cmd[1024];
  snprintf (cmd, sizeof cmd, "'%s' bench %s 2>/dev/null", cli, args);
  FILE *f = popen (cmd, "r");
  if (f == NULL)
    return -1;
  size_t n = fread (out, 1, len - 1, f);
  out[n] = '\0';
  int st = pclose (f);
  return WIFEXITED (st) ? WEXITSTATUS (st) : -1;
}

static double
num (json_object *o, const char *key)
{
  json_object *v;
  if (!json_object_object_get_ex (o, key, &v))
    {
      RW_CHECK (false, "the JSON lacks \"%s\"", key);
      return NAN;
    }
  return json_object_get_double (v);
}

static void
check_json (const char *args, int bytes, int steps)
{
  char out[8192];
  int rc = run (args, out, sizeof out);
  RW_CHECK (rc == 0, "bench %s: exit %d", args, rc);
  json_object *o = json_tokener_parse (out);
  RW_CHECK (o != NULL, "bench %s: not JSON: %s", args, out);
  if (o == NULL)
    return;
  RW_NOTE ("bench %s → %s", args, out);
  double g = num (o, "gvox_per_s"), roof = num (o, "roofline_gvox_per_s");
  double frac = num (o, "roofline_fraction"), copy = num (o, "copy_gb_per_s");
  RW_CHECK (g > 0 && roof > 0 && copy > 0, "positive figures");
  RW_CHECK_CLOSE (num (o, "bytes_per_voxel"), bytes, 0, "bytes per voxel");
  RW_CHECK_CLOSE (roof, copy / bytes, 1e-4 * roof, "roofline = copy / bytes");
  RW_CHECK_CLOSE (frac, g / roof, 1e-4 * frac, "fraction = achieved / roofline");
  RW_CHECK_CLOSE (num (o, "steps"), steps, 0, "steps");
  RW_CHECK (num (o, "threads") >= 1, "threads");
  json_object *v;
  RW_CHECK (json_object_object_get_ex (o, "device", &v)
            && strlen (json_object_get_string (v)) > 0, "device named");
  RW_CHECK (json_object_object_get_ex (o, "size", &v) && json_object_array_length (v) == 3
            && json_object_get_int (json_object_array_get_idx (v, 0)) == 20
            && json_object_get_int (json_object_array_get_idx (v, 2)) == 12, "size [20, 16, 12]");
  json_object_put (o);
}

int
main (void)
{
  cli = getenv ("ROOMWAVE_CLI");
  if (cli == NULL)
    {
      rw_test_skip ("ROOMWAVE_CLI is not set");
      return rw_test_finish ();
    }
  check_json ("--size 20,16,12 --steps 7 --copy-mib 8 --json", 12, 7);
  check_json ("--size 20,16,12 --steps 5 --copy-mib 8 --precision f64 --json --threads 1", 24, 5);

  char out[8192];
  RW_CHECK (run ("--size 20,16,12 --steps 3 --copy-mib 8", out, sizeof out) == 0
            && strstr (out, "Gvox/s") != NULL && strstr (out, "roofline") != NULL,
            "the table: %s", out);
  RW_CHECK (run ("--help", out, sizeof out) == 0 && strstr (out, "--size") != NULL, "--help");
  static const char *bad[] = { "--size 10,10", "--size a,b,c", "--size 2,10,10", "--steps 0",
                               "--steps nan", "--precision f16", "--precision f8",
                               "--backend gpu", "--threads -1", "--copy-mib 0", "--bogus",
                               "extra" };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
      int rc = run (bad[i], out, sizeof out);
      RW_CHECK (rc == 2, "bench %s: exit %d, wanted 2", bad[i], rc);
    }
  return rw_test_finish ();
}
