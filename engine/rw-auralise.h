/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-auralise.h — auralisation: a dry recording convolved with an impulse
 * response, as if played in the room.
 *
 * Method (docs/REPORT.md §1): uniformly partitioned overlap-save
 * convolution with FFTW (single precision transforms, single precision
 * spectral accumulation). The IR is cut into P partitions of B frames; each
 * block of B input frames is transformed once (FFT size 2B) and kept in a
 * frequency-domain delay line of P spectra; the output block is the inverse
 * transform of Σ_p X[k−p]·H[p]. Cost per output frame ∝ P; memory
 * ∝ P·B (the IR's own size, held in memory) — never the dry signal's.
 *
 * The file path (rw_auralise_file) streams the dry signal through
 * libsndfile in blocks and writes the convolution to a temporary raw float
 * file (pass 1), then scales it so that the output peak sits at
 * opt->peak_dbfs (−1 dBFS) while copying into the final file (pass 2):
 * the gain needs the peak, and the peak is known only after the whole
 * convolution. Memory stays bounded by the IR for a dry file of any length.
 *
 * Rates: the IR (short, in memory) is resampled to the dry file's rate
 * (libsamplerate best sinc), so the dry signal is never resampled and the
 * output has the dry file's rate. A multichannel dry file is mixed down to
 * mono (the mean of its channels: the IR stands for one source).
 * Channels: a mono IR gives a mono result; a 2-channel IR, or a mono IR
 * plus ir_right_path, gives a stereo result.
 * Output: 32-bit float WAV for ".wav", 24-bit FLAC for ".flac", chosen by
 * the extension; written to a temporary file in the same folder and
 * renamed, so that a failure never leaves a half-written file.
 */
#pragma once

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include "rw-error.h"

#define RW_AURALISE_DEFAULT_BLOCK 8192
#define RW_AURALISE_MAX_CHANNELS 2

/* ---- the convolution engine (in memory, block by block) ---- */

typedef struct RwConvolver RwConvolver;

/* n_irs (1 or 2) impulse responses of ir_frames each (borrowed, copied
 * into the partition spectra); block_frames B ≥ 16 (any size; powers of
 * two are fastest). One mono input feeds every IR. */
RwConvolver *rw_convolver_new (const float *const *irs, size_t n_irs, size_t ir_frames,
                               size_t block_frames, RwError *err);
size_t rw_convolver_block_frames (const RwConvolver *cv);
size_t rw_convolver_channels (const RwConvolver *cv);
/* Consumes exactly B input frames (mono) and produces B output frames,
 * interleaved over the IRs (B · n_irs floats): the output lags nothing —
 * output frame n is Σ_k in[n−k]·ir[k] over all input seen so far. After
 * the last input block, feed zero blocks to flush the tail (ir_frames − 1
 * frames). */
void rw_convolver_process (RwConvolver *cv, const float *in, float *out);
/* Back to silence (the delay line cleared), keeping the IR. */
void rw_convolver_reset (RwConvolver *cv);
void rw_convolver_free (RwConvolver *cv);

/* Whole-buffer convenience: out (n_in + ir_frames − 1 frames, interleaved
 * over the n_irs IRs) = in ∗ ir, via the partitioned engine. No gain. */
bool rw_convolve (const float *in, size_t n_in, const float *const *irs, size_t n_irs,
                  size_t ir_frames, size_t block_frames, float *out, RwError *err);

/* ---- files ---- */

typedef struct {
  size_t block_frames;        /* B; 0 → RW_AURALISE_DEFAULT_BLOCK */
  double peak_dbfs;           /* output peak; default −1 (must be ≤ 0) */
  /* Optional: fraction done in [0, 1] (pass 1 is 0–0.9, pass 2 0.9–1),
   * and a flag the caller sets to cancel (the output is then not
   * written, err says RW_ERROR_CANCELLED). */
  void (*progress) (double fraction, void *user_data);
  void *user_data;
  const atomic_int *cancel;
  /* Folder for the pass-1 temporary; NULL → the output's folder. */
  const char *tmp_dir;
} RwAuraliseOptions;

void rw_auralise_options_init (RwAuraliseOptions *opt);

typedef struct {
  double rate_hz;             /* output rate = the dry file's rate */
  int channels;               /* 1 or 2 */
  size_t dry_frames;
  size_t out_frames;          /* dry_frames + ir_frames − 1 */
  size_t ir_frames;           /* after resampling to rate_hz */
  int dry_channels;           /* before the mix-down */
  bool ir_resampled;
  double raw_peak;            /* peak of the convolution before the gain */
  double gain_db;             /* the gain applied */
} RwAuraliseStats;

/* dry_path ∗ ir_path (and ir_right_path, when not NULL, as the right
 * channel) → out_path. stats may be NULL. Fails naming the file on a
 * missing, unreadable, empty or non-finite input, an IR with more than 2
 * channels, a silent result, or an output that cannot be written. */
bool rw_auralise_file (const char *ir_path, const char *ir_right_path,
                       const char *dry_path, const char *out_path,
                       const RwAuraliseOptions *opt, RwAuraliseStats *stats,
                       RwError *err);
