/* Placeholder while the subcommand is written; replaced by its owner. */
#include "cli.h"

int
rw_cli_compare (int argc, char **argv)
{
  (void) argc;
  (void) argv;
  fprintf (stderr, "roomwave-cli compare: not built yet\n");
  return RW_EXIT_INPUT;
}
