/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-devices.c — `roomwave-cli devices`: every backend built in, whether
 * it can run here, and its devices (the index --device takes, the name,
 * the memory). */
#include <string.h>

#include "cli.h"
#include "rw-backend.h"

static void
usage (FILE *f)
{
  fprintf (f, "%s", _("Usage: roomwave-cli devices\n\n"
                      "Lists the solver backends built in and their devices: the index that\n"
                      "`simulate --device N` and `bench --device N` take, the name and the memory.\n"
                      "Without a CUDA device it says so and lists the CPU.\n\n"
                      "Exit status: 0 done, 2 bad usage.\n"));
}

int
rw_cli_devices (int argc, char **argv)
{
  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--help") == 0 || strcmp (argv[i], "-h") == 0)
        {
          usage (stdout);
          return RW_EXIT_OK;
        }
      return rw_cli_usage_error ("devices", _("unexpected argument '%s'"), argv[i]);
    }
  if (rw_backend_find ("cuda") == NULL)
    printf ("%s\n", _("cuda: not built in (Roomwave was built without CUDA)"));
  for (size_t b = 0; b < rw_backend_count (); b++)
    {
      const RwBackendOps *ops = rw_backend_at (b);
      char why[512] = "";
      if (!ops->available (why, sizeof why))
        {
          printf (_("%s: no device (%s)\n"), ops->name, why[0] ? why : _("not available"));
          continue;
        }
      const int n = ops->device_count ();
      printf (_("%s: %d device(s)\n"), ops->name, n);
      for (int d = 0; d < n; d++)
        {
          RwDeviceInfo info;
          RwError err = { 0 };
          if (!ops->device_info (d, &info, &err))
            printf (_("  %d  (%s)\n"), d, err.message);
          else
            printf (_("  %d  %s, %.1f GB\n"), d, info.name, (double) info.memory_bytes / 1e9);
        }
    }
  return RW_EXIT_OK;
}
