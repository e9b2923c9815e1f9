/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli.h — roomwave-cli: one file per subcommand (cli-info.c, cli-simulate.c,
 * …), this header and cli-common.c shared between them.
 *
 * Exit statuses: 0 success, 1 bad input (message on stderr naming the file
 * and the problem), 2 bad usage. Every subcommand answers --help. Option
 * parsing is getopt_long; numbers are parsed with rw_cli_parse_* so that
 * "abc", "1e999", "nan" are usage errors, never silently taken. */
#pragma once

#include <stdbool.h>
#include <stdio.h>
#include "rw-error.h"
#include "rw-i18n.h"

/* RW_EXIT_CHECKPOINT: stopped by SIGTERM after writing a checkpoint
 * (simulate --checkpoint); the same command continues the run. 75 is
 * sysexits.h's EX_TEMPFAIL, "try again later", which batch systems and
 * job scripts take as a reason to requeue. */
enum { RW_EXIT_OK = 0, RW_EXIT_INPUT = 1, RW_EXIT_USAGE = 2, RW_EXIT_CHECKPOINT = 75 };

int rw_cli_info (int argc, char **argv);
int rw_cli_simulate (int argc, char **argv);
int rw_cli_bench (int argc, char **argv);
/* `bench --backend cuda …`: in cli-bench-cuda.c (kernels helper). */
int rw_cli_bench_cuda (int argc, char **argv);
int rw_cli_analyse (int argc, char **argv);
int rw_cli_iacc (int argc, char **argv);
int rw_cli_auralise (int argc, char **argv);
int rw_cli_compare (int argc, char **argv);
int rw_cli_devices (int argc, char **argv);
int rw_cli_cluster_model (int argc, char **argv);
int rw_cli_materials (int argc, char **argv);
int rw_cli_spectrogram (int argc, char **argv);

/* "X,Y,Z" → v. false on anything else. */
bool rw_cli_parse_vec3 (const char *s, double v[3]);
/* Finite double, optionally within [lo, hi]. */
bool rw_cli_parse_double (const char *s, double lo, double hi, double *out);
bool rw_cli_parse_int (const char *s, long lo, long hi, long *out);

/* Prints "roomwave-cli SUB: message" and returns RW_EXIT_USAGE. */
int rw_cli_usage_error (const char *sub, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));
/* Prints "roomwave-cli: <err->message>" and returns the exit status for
 * the error's code (1 for input/IO/memory/unstable, …). */
int rw_cli_fail (const RwError *err);
/* The `default:` of a getopt_long loop run with opterr = 0: "unknown
 * option or missing value near 'ARG'" when getopt set optopt, else
 * "unknown option 'ARG'"; returns RW_EXIT_USAGE. */
int rw_cli_bad_option (const char *sub, char **argv);
/* The options of a subcommand whose only ones are --json and --help
 * (getopt_long, opterr = 0): sets *as_json; returns −1 to go on with the
 * operands from argv[optind], else the exit status after --help (0) or a
 * bad option (2, rw_cli_bad_option). */
int rw_cli_json_options (const char *sub, int argc, char **argv, void (*print_usage) (FILE *out),
                         bool *as_json);
/* Prints `text` (a string the engine allocated; freed here), then `end`,
 * on standard output. A NULL `text` means the engine ran out of memory
 * formatting it: reported on stderr, RW_EXIT_INPUT. */
int rw_cli_print_owned (char *text, const char *end);
