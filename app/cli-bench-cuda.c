/* Placeholder while the CUDA benchmark is written; replaced by its owner. */
#include "cli.h"

int
rw_cli_bench_cuda (int argc, char **argv)
{
  (void) argc;
  (void) argv;
  fprintf (stderr, "roomwave-cli bench: CUDA benchmark not built yet\n");
  return RW_EXIT_INPUT;
}
