/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-cuda — `roomwave-cli bench --backend cuda` as a program of its own
 * (same options; see app/cli-bench-cuda.c), so that tests/gpu/run.sh does
 * not depend on the CLI's dispatch. */
#include "cli.h"

int
main (int argc, char **argv)
{
  rw_i18n_init ();
  return rw_cli_bench_cuda (argc, argv);
}
