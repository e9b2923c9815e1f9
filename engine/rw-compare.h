/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-compare.h — a simulated impulse response against a measured one.
 *
 * Both IRs are read (any format and rate libsndfile reads, one chosen
 * channel each), brought to a common rate (the higher of the two; the
 * other is resampled with libsamplerate's best sinc, so neither loses
 * bandwidth it had), aligned at their ISO 3382-1 onsets (the first sample
 * whose square reaches 20 dB below the peak: the same start the
 * parameters are measured from, so the overlays and the numbers agree),
 * and analysed with rw-analysis (octave bands 63 Hz … 8 kHz and
 * broadband).
 *
 * Per band and parameter: simulated, measured, difference (simulated −
 * measured) and whether it exceeds the just-noticeable difference of
 * ISO 3382-1:2009 Annex A, Table A.1:
 *   EDT, T20, T30  relative difference > 5 %  (of the measured value)
 *   C50, C80       > 1 dB
 *   D50            > 0.05 (absolute; "5 %")
 *   Ts             > 10 ms
 * A difference exactly at the JND is not flagged ("more than").
 *
 * Validity: the simulation is valid up to fmax. fmax comes from the
 * option, else from results.json beside the simulated WAV
 * (rw_results_read_validity: "fmax_hz" of a wave-only run, the Nyquist
 * frequency of a hybrid one, whose bands' methods and crossover then go
 * to sim.bands[].method and sim.crossover_hz), else none (INFINITY).
 * Bands whose upper edge lies above fmax are marked above_fmax; their
 * values are still given, flagged, never hidden.
 *
 * Ownership: RwComparison owns everything it points to; release with
 * rw_comparison_clear.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include "rw-analysis.h"
#include "rw-error.h"
#include "rw-plot.h"

typedef struct {
  int sim_channel;          /* 0-based; −1 → the file must be mono */
  int meas_channel;
  double fmax_hz;           /* NAN → results.json or none; INFINITY → none */
  double rate_hz;           /* common rate; 0 → the higher of the two */
} RwCompareOptions;

void rw_compare_options_init (RwCompareOptions *opt);

/* The JND of ISO 3382-1 Table A.1 in the parameter's display unit (Ts in
 * ms), and whether it is relative (a fraction of the measured value). */
double rw_compare_jnd (RwPlotParam p, bool *relative);

typedef struct {
  double sim, measured;     /* display units (s; dB; fraction; Ts in ms); NAN absent */
  double difference;        /* sim − measured, display units; NAN when either is absent */
  double relative;          /* difference / measured (EDT, T20, T30), else NAN */
  double jnds;              /* |difference| in JNDs (relative ones for EDT/T) */
  bool available;           /* both present */
  bool exceeds_jnd;         /* available and jnds > 1 */
} RwParamDiff;

typedef struct {
  double centre_hz;         /* nominal; 0 for broadband */
  bool above_fmax;
  RwParamDiff p[RW_PLOT_N_PARAMS];
} RwBandCompare;

typedef struct {
  char sim_path[1024], meas_path[1024];
  int sim_channel, meas_channel;       /* the channels used (0-based) */
  int sim_channels, meas_channels;     /* in the files */
  double sim_file_rate_hz, meas_file_rate_hz;
  double rate_hz;                      /* common rate of the analysis */
  double fmax_hz;                      /* INFINITY when unknown */
  char fmax_source[64];                /* "option", "results.json", "none" */
  double sim_onset_s, meas_onset_s;    /* in each file's own time */

  /* The IRs at rate_hz from pre_roll_s before their onsets (index
   * pre_roll frames = onset), owned. */
  float *sim_ir, *meas_ir;
  size_t sim_frames, meas_frames;
  double pre_roll_s;

  RwAnalysis sim, meas;
  RwBandCompare bands[RW_ANALYSIS_N_BANDS];
  size_t n_compared;                   /* parameter/band pairs with both values */
  size_t n_exceeding;                  /* of which above the JND */
} RwComparison;

bool rw_compare_files (const char *sim_path, const char *meas_path, const RwCompareOptions *opt,
                       RwComparison *out, RwError *err);
/* The comparison of two IRs already in memory (mono, any rates).
 * fmax_hz: INFINITY for none. rate_hz: the common rate, 0 → the higher.
 * Labels: out->sim_path, meas_path, sim_channel, meas_channel,
 * sim_channels, meas_channels and fmax_source, when the caller filled them
 * before the call, are kept (the report prints them); everything else in
 * *out is overwritten. Pass a zeroed RwComparison when there are none. */
bool rw_compare_signals (const float *sim, size_t n_sim, double sim_rate_hz,
                         const float *meas, size_t n_meas, double meas_rate_hz,
                         double fmax_hz, double rate_hz, RwComparison *out, RwError *err);
void rw_comparison_clear (RwComparison *cmp);
