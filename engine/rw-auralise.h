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
 * Channels: an IR of C channels (1 … RW_AURALISE_MAX_CHANNELS) gives a
 * C-channel result, channel c the dry signal through IR channel c: a mono
 * IR a mono file, a binaural (2-channel) IR a stereo file, an AmbiX IR of
 * order N ((N + 1)² channels) an AmbiX file of order N; a mono IR plus
 * ir_right_path gives a stereo result.
 * Binaural decoding (opt->decode): each IR must be ambisonic ((N + 1)²
 * channels, N = 1 … 3, AmbiX); it is turned with the head (rw_ambi_rotate,
 * opt->yaw_deg and pitch_deg) and decoded to two ears at its own rate by
 * the MagLS decoder (rw-ambi-binaural.h) of the HRTF set opt->hrtf_path
 * (NULL: the bundled MIT KEMAR set) opened at that rate, before the
 * resampling: a stereo result.
 * Scenes (rw_auralise_scene): several sources, each an IR (after any
 * decoding, all of one channel count) and a dry file of its own (all of
 * one rate: dry signals are never resampled), convolved and summed into
 * one output, streamed together block by block (memory: the IRs, never
 * the dry signals); its length is the longest source's; one peak gain for
 * the whole mix, so that the sources keep the levels their IRs give them.
 * Output: 32-bit float WAV for ".wav", 24-bit FLAC for ".flac", chosen by
 * the extension; written to a temporary file in the same folder and
 * renamed, so that a failure never leaves a half-written file.
 */
#pragma once

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include "rw-audio.h"
#include "rw-error.h"

#define RW_AURALISE_DEFAULT_BLOCK 8192
#define RW_AURALISE_MAX_CHANNELS 16   /* an order-3 AmbiX IR */
#define RW_AURALISE_MAX_SOURCES 64

/* ---- the convolution engine (in memory, block by block) ---- */

typedef struct RwConvolver RwConvolver;

/* n_irs (1 … RW_AURALISE_MAX_CHANNELS) impulse responses of ir_frames each (borrowed, copied
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

typedef enum {
  RW_AURALISE_DECODE_NONE = 0,
  RW_AURALISE_DECODE_BINAURAL,
} RwAuraliseDecode;

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
  /* Binaural decoding of ambisonic IRs (above); none by default. */
  RwAuraliseDecode decode;
  const char *hrtf_path;      /* SOFA file; NULL → the bundled set */
  double yaw_deg, pitch_deg;  /* the head turned (rw_ambi_rotate) */
} RwAuraliseOptions;

void rw_auralise_options_init (RwAuraliseOptions *opt);

typedef struct {
  double rate_hz;             /* output rate = the dry file's rate */
  int channels;               /* 1 … RW_AURALISE_MAX_CHANNELS */
  size_t dry_frames;          /* the longest source's */
  size_t out_frames;          /* max over the sources of dry_frames + ir_frames − 1 */
  size_t ir_frames;           /* after decoding and resampling to rate_hz; the longest */
  int dry_channels;           /* before the mix-down; the most of any source */
  size_t n_sources;
  bool decoded;               /* binaural decoding was done */
  bool ir_resampled;
  double raw_peak;            /* peak of the convolution before the gain */
  double gain_db;             /* the gain applied */
} RwAuraliseStats;

/* dry_path ∗ ir_path (and ir_right_path, when not NULL, as the right
 * channel) → out_path: rw_auralise_scene of one source. stats may be
 * NULL. Fails naming the file on a missing, unreadable, empty or
 * non-finite input, an IR with more than RW_AURALISE_MAX_CHANNELS channels
 * (or, decoding, not 4, 9 or 16), an HRTF set that cannot be used, a
 * silent result, an output format that cannot hold the channels (FLAC:
 * 8 at most) or an output that cannot be written. */
bool rw_auralise_file (const char *ir_path, const char *ir_right_path,
                       const char *dry_path, const char *out_path,
                       const RwAuraliseOptions *opt, RwAuraliseStats *stats,
                       RwError *err);

/* One source of a scene: an IR (ir_right_path NULL, or a mono IR for the
 * right channel with a mono ir_path for the left) and its dry signal. */
typedef struct {
  const char *ir_path;
  const char *ir_right_path;
  const char *dry_path;
} RwAuraliseSource;

/* Σ_i dry_i ∗ IR_i → out_path, one gain (above). Fails as
 * rw_auralise_file, and naming the files on sources whose IRs give
 * different channel counts or whose dry signals have different rates;
 * 1 … RW_AURALISE_MAX_SOURCES sources. */
bool rw_auralise_scene (const RwAuraliseSource *sources, size_t n_sources, const char *out_path,
                        const RwAuraliseOptions *opt, RwAuraliseStats *stats, RwError *err);

/* In memory: an ambisonic IR (interleaved, (N + 1)² channels, N = 1 … 3,
 * at ir->rate_hz) turned by yaw and pitch and decoded to two ears
 * (above), in place: ir becomes 2 channels of ir->frames + the decoder's
 * taps frames (the decoding's tail kept). name names the IR in messages.
 * Fails naming it on another channel count, a set that cannot be opened
 * at the IR's rate, RW_ERROR_MEMORY. */
bool rw_auralise_decode_binaural (RwAudio *ir, const char *name, const char *hrtf_path,
                                  double yaw_deg, double pitch_deg, RwError *err);
