/* SPDX-License-Identifier: GPL-3.0-or-later */
/* roomwave-cli — the headless command line: subcommand dispatch. */
#include "cli.h"
#include "rw-config.h"

#include <string.h>

typedef struct {
  const char *name;
  int (*run) (int argc, char **argv);
  const char *summary;
} Subcommand;

static const Subcommand subcommands[] = {
  { "info",     rw_cli_info,     N_("Report on a room mesh: volume, surfaces, watertightness") },
  { "simulate", rw_cli_simulate, N_("Simulate impulse responses of a room") },
  { "bench",    rw_cli_bench,    N_("Measure solver throughput against the memory roofline") },
  { "analyse",  rw_cli_analyse,  N_("ISO 3382-1 parameters of impulse responses and their average") },
  { "iacc",     rw_cli_iacc,     N_("Interaural cross-correlation (IACC) of a binaural impulse response") },
  { "auralise", rw_cli_auralise, N_("Convolve a dry recording with an impulse response") },
  { "spectrogram", rw_cli_spectrogram, N_("Spectrogram of an impulse response or a recording as an image") },
  { "compare",  rw_cli_compare,  N_("Compare a simulated with a measured impulse response") },
  { "cluster-model", rw_cli_cluster_model, N_("Model a run over many GPUs: memory a rank, halo traffic, run time") },
  { "devices",  rw_cli_devices,  N_("List the solver backends and their devices") },
  { "materials", rw_cli_materials, N_("List the material library and the fit of its frequency-dependent surfaces") },
};

static void
print_help (FILE *out)
{
  fprintf (out, _("Usage: roomwave-cli COMMAND [OPTIONS…]\n\n"
                  "Roomwave simulates the acoustics of a room with a wave-based (FDTD) solver.\n\n"
                  "Commands:\n"));
  for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
    fprintf (out, "  %-12s %s\n", subcommands[i].name, _(subcommands[i].summary));
  fprintf (out, _("\n'roomwave-cli COMMAND --help' describes a command's options.\n"
                  "Exit status: 0 success, 1 bad input, 2 bad usage.\n"));
}

/* The engine's warnings (rw_warn): input that is used but looks wrong. */
static void
print_warning (const char *message, void *user_data)
{
  (void) user_data;
  fprintf (stderr, _("roomwave-cli: warning: %s\n"), message);
}

int
main (int argc, char **argv)
{
  rw_i18n_init ();
  rw_set_warn_handler (print_warning, NULL);
  if (argc < 2)
    {
      print_help (stderr);
      return RW_EXIT_USAGE;
    }
  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0 || strcmp (argv[1], "help") == 0)
    {
      print_help (stdout);
      return RW_EXIT_OK;
    }
  if (strcmp (argv[1], "--version") == 0)
    {
      printf ("roomwave-cli %s\n", RW_VERSION);
      return RW_EXIT_OK;
    }
  for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
    if (strcmp (argv[1], subcommands[i].name) == 0)
      return subcommands[i].run (argc - 1, argv + 1);
  fprintf (stderr, _("roomwave-cli: unknown command '%s'\n"), argv[1]);
  print_help (stderr);
  return RW_EXIT_USAGE;
}
