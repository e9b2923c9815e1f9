/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-results.h — a simulation's results folder: the one format.
 *
 * A results folder holds results.json and one WAV per receiver (32-bit
 * float, mono, at fs_out_hz: the calibrated impulse responses) whose names
 * results.json lists under "outputs". roomwave-cli simulate and the GUI
 * write it with rw_sim_write_outputs (rw-sim.h) and read it with
 * rw_results_read; docs/RESULTS.md lists every field with its unit.
 *
 * results.json opens with "format": "roomwave-results" and "version":
 * RW_RESULTS_VERSION. A reader refuses a newer version (it cannot know
 * what changed) and an older one it does not read, each with a message
 * that says which.
 *
 * Several sources: `simulate` writes one results folder per source,
 * DIR/source-1/ … DIR/source-N/; rw_results_list finds them.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include "rw-analysis.h"
#include "rw-error.h"
#include "rw-sim.h"

#define RW_RESULTS_FORMAT "roomwave-results"
#define RW_RESULTS_VERSION 2
/* Additions a version-2 reader may ignore: 1 adds settings.humidity_pct
 * and settings.air_absorption (docs/RESULTS.md); files without them read
 * as runs without air absorption. 2 adds per surface bands_hz,
 * alpha_target, alpha_model (random incidence), alpha_model_normal,
 * bands_fitted, fit_worst_error and the admittance; files without them
 * read with result.surface_models NULL. 3 adds settings.hybrid, the
 * "hybrid" object (crossover, transition, method per octave band, the
 * geometrical part's figures, the parts' WAV names), per surface
 * scattering and scattering_default, and timings.geometrical_s and
 * join_s; files without them read as wave-only runs (config.hybrid
 * false). */
/* 4 adds per receiver "type" and, for a binaural or ambisonic one,
 * yaw_deg, pitch_deg, ambisonic_order, wave_ambisonic_order, ambix_file
 * and binaural_file, and settings.hrtf (file, directions); files without
 * them have omnidirectional receivers. */
/* 5 adds settings.scheme, settings.scheme_requested and dispersion. 6
 * adds timings.setup_s and write_s; files without them read them as NAN
 * (not measured). */
#define RW_RESULTS_VERSION_MINOR 6
#define RW_RESULTS_FILE "results.json"

/* A results folder read back. config and result are what
 * rw_sim_write_outputs was given, as far as results.json records them:
 * config.mesh_path and config.materials_map point at mesh_file and
 * materials_map below; config.threads and the receiver and source cell
 * indices not recorded are 0; a file of version 2.0 (no air absorption
 * recorded) gives config.air_absorption false and humidity_pct NAN. Free with rw_results_clear. */
typedef struct {
  int version;                 /* the file's format version */
  char *roomwave_version;      /* the Roomwave that wrote it */
  char *mesh_file;             /* "" when none was recorded */
  char *materials_map;         /* NULL when none */
  char **outputs;              /* result.n_receivers WAV names, relative to the folder */
  RwSimConfig config;
  RwSimResult result;          /* ir: the WAVs, ir_frames samples each at fs_out_hz */
} RwResults;

/* The results JSON as rw_sim_write_outputs writes it (newly allocated,
 * free(); NULL when memory runs out), listing the receiver WAV names
 * whether or not they were written. */
char *rw_results_json (const RwSimConfig *cfg, const RwSimResult *res);

/* Reads dir/results.json and every WAV it lists, checking each value's
 * type and range, that the WAVs are mono at fs_out_hz and of one length.
 * Fails (RW_ERROR_IO: missing or unreadable, RW_ERROR_INPUT: anything
 * else) with a message naming the file and the problem: not JSON, not a
 * results file, a newer or older version, a field missing or out of
 * range, a WAV missing or not matching. A folder that holds several
 * sources' folders instead says so. */
bool rw_results_read (const char *dir, RwResults *out, RwError *err);
void rw_results_clear (RwResults *r);

/* What a results folder says about the validity of its IRs, for the
 * analysis (issue #12): the one place that reads it.
 *
 * - A hybrid run ("hybrid" object present, 2.3): valid to the file's
 *   valid_up_to_hz, the output's Nyquist frequency (rw_sim_valid_up_to_hz):
 *   no band lies above fmax; each octave band's method from
 *   hybrid.bands[].method, and the crossover.
 * - A wave-only run (--no-hybrid, or any file before 2.3): valid to
 *   fmax_hz, as before; every band made by the wave solver; no crossover.
 * - No results.json: nothing known (INFINITY, UNKNOWN, NAN). */
typedef struct {
  bool found;                          /* a results.json said something */
  bool hybrid;
  double valid_up_to_hz;               /* bands reaching above it are flagged; INFINITY: none */
  double crossover_hz;                 /* NAN when not hybrid */
  RwBandMethod method[RW_N_OCTAVES];
} RwIrValidity;

/* Nothing known: a measured IR (INFINITY, NAN, UNKNOWN). */
void rw_ir_validity_init (RwIrValidity *v);
/* Of a folder read with rw_results_read. */
void rw_results_validity (const RwResults *r, RwIrValidity *v);
/* Of dir(ir_path)/results.json, the one `simulate` wrote beside the IR,
 * without reading any WAV. A missing file is not an error (v->found
 * false). A file with a "hybrid" object is read as strictly as
 * rw_results_read reads it; without one, "fmax_hz" is taken from the top
 * level or one object down (what every version wrote: settings.fmax_hz).
 * Fails naming the file when it is not JSON, or its fmax_hz is not a
 * positive number, or its hybrid object is incomplete. */
bool rw_results_read_validity (const char *ir_path, RwIrValidity *v, RwError *err);
/* Sets the methods and the crossover of an analysis made with
 * fmax = v->valid_up_to_hz. */
void rw_ir_validity_apply (const RwIrValidity *v, RwAnalysis *analysis);

/* The results folders at dir: dir itself when it holds results.json, else
 * its subfolders source-1, source-2, … (as `simulate` writes for several
 * sources) up to the first missing one. *folders is a malloc'd array of
 * malloc'd paths (rw_results_list_free). Fails naming dir when it holds
 * neither. */
bool rw_results_list (const char *dir, char ***folders, size_t *n, RwError *err);
void rw_results_list_free (char **folders, size_t n);
