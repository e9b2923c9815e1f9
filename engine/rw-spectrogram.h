/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-spectrogram.h — short-time Fourier transform of a signal (an IR or an
 * auralisation) as a matrix of levels in dB, and its time-averaged octave
 * band levels. Plain C and FFTW, no drawing: rw_plot_spectrogram
 * (rw-plot.h) draws the matrix; `roomwave-cli spectrogram` writes the PNG
 * and prints the band levels. docs/ANALYSIS.md, "Spectrogram".
 *
 * Frames are centred: frame k covers samples k·hop − window/2 …
 * k·hop + window/2 − 1, samples outside the signal count as zero, so frame
 * 0 is centred on the first sample and the last frame on or after the last
 * sample (frames k = 0 … ⌊(n − 1)/hop⌋). Each frame is weighted with the
 * periodic Hann window w[i] = sin²(π i / window) and transformed (FFTW,
 * real to complex, no zero padding): bins k·rate/window, k = 0 …
 * window/2.
 *
 * Level: P = |Σ w[i] x[i] e^{−j2πki/window}|², given in dB re the largest
 * P of the whole matrix (so the maximum reads 0 dB); an exact zero reads
 * RW_SPECTROGRAM_FLOOR_DB. The range shown is the plot's business.
 *
 * The periodic Hann window with hop = window/4 (75 % overlap) sums, in
 * w², to the constant 3/8 · window/hop = 1.5: every sample weighs the same
 * in the sum over frames, so Σ over frames of P is, by Parseval, the
 * signal's energy spectrum smoothed by the window's main lobe (±2 bins).
 * That is what the band levels use. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include "rw-error.h"

/* The window length for a rate when none is given: 2048 samples at
 * 44.1 / 48 kHz (43 ms: bins 23.4 Hz apart at 48 kHz, a time resolution
 * that still shows the early reflections of a room as separate columns),
 * scaled with the rate to the nearest power of two. */
#define RW_SPECTROGRAM_WINDOW_S 0.0427
/* Level of an exactly zero bin (log of zero). */
#define RW_SPECTROGRAM_FLOOR_DB (-300.0)
/* Bands of rw_spectrogram_bands: octaves 31.5 Hz … 16 kHz, thirds
 * 25 Hz … 20 kHz (nominal centres). */
#define RW_SPECTROGRAM_N_OCTAVES 10
#define RW_SPECTROGRAM_N_THIRDS 30

typedef struct {
  size_t n_frames;      /* columns */
  size_t n_bins;        /* window/2 + 1 rows */
  int window;           /* samples */
  int hop;              /* samples between frame centres */
  double rate_hz;
  double duration_s;    /* n / rate of the signal */
  double peak_db;       /* 10 lg of the largest P (the 0 dB of level_db) */
  float *level_db;      /* n_frames × n_bins, frame-major:
                           level_db[frame · n_bins + bin] */
} RwSpectrogram;

/* The window's time of frame k (its centre, s) and the frequency of bin
 * k (Hz). */
double rw_spectrogram_frame_time (const RwSpectrogram *sg, size_t frame);
double rw_spectrogram_bin_frequency (const RwSpectrogram *sg, size_t bin);

/* STFT of x (n samples at rate_hz). window: samples, 16 … 65536 (0 → the
 * default for the rate, RW_SPECTROGRAM_WINDOW_S); hop: 1 … window (0 →
 * window/4). max_frames > 0 raises hop so that there are at most that
 * many frames (a long auralisation on a plot of some hundred pixels; the
 * band levels then weigh samples unevenly by up to the window's ripple);
 * 0 → no limit. Refused with a message: no samples, a non-finite sample
 * (naming its index), rate ≤ 0 or non-finite, window or hop out of range,
 * more than 2^28 cells. Release with rw_spectrogram_clear. */
bool rw_spectrogram (const float *x, size_t n, double rate_hz, int window, int hop,
                     size_t max_frames, RwSpectrogram *out, RwError *err);
void rw_spectrogram_clear (RwSpectrogram *sg);

typedef struct {
  double centre_hz;     /* nominal: 31.5, 63, 125, … (octaves), 25, 31.5, 40, … (thirds) */
  double lo_hz, hi_hz;  /* exact base-10 edges (IEC 61260-1), hi clipped to rate/2 */
  size_t n_bins;        /* bins whose frequency lies in [lo, hi); 0 → absent */
  double level_db;      /* 10 lg (band energy / energy of all bins); NAN when absent */
} RwSpectrogramBand;

/* Time-averaged band levels: the power of every frame summed over the
 * frames and over the bins of the band, relative to the same sum over all
 * bins. fraction 1: the RW_SPECTROGRAM_N_OCTAVES octave bands 31.5 Hz …
 * 16 kHz; 3: the RW_SPECTROGRAM_N_THIRDS third-octave bands 25 Hz …
 * 20 kHz (the top one, 17.8 … 22.4 kHz, is where "energy to 20 kHz"
 * shows). A band with no bin (above rate/2, or narrower than the bin
 * spacing: thirds below about 100 Hz at the default window) is absent.
 * Returns the number of bands written to `bands` (0 for another
 * fraction). */
size_t rw_spectrogram_bands (const RwSpectrogram *sg, int fraction, RwSpectrogramBand *bands);

/* The spectrogram's summary and its octave and third-octave band levels
 * as the JSON that
 * `roomwave-cli spectrogram --json` prints (docs/ANALYSIS.md; an absent
 * band's level is null). `file` may be NULL. Newly allocated (free());
 * NULL when memory runs out. */
char *rw_spectrogram_to_json (const RwSpectrogram *sg, const char *file);
