/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-hrtf.h — head-related transfer functions from SOFA files, and a
 * binaural impulse response from arrivals (issue #13, docs/BINAURAL.md).
 *
 * Sets: SOFA files (AES69) of the SimpleFreeFieldHRIR convention, read by
 * libmysofa: impulse responses (FIR) of two receivers, the left and the
 * right ear, for M measured source directions. The default, when the
 * user names none, is the bundled MIT KEMAR set (Gardner & Martin 1994,
 * normal pinna, 710 directions, 512 taps at 44.1 kHz; data/hrtf/README.md
 * says where it comes from and under which terms).
 *
 * Directions are in the listener's frame, SOFA's own: x to the front, y
 * to the LEFT, z up (a right-handed frame), from the head's centre towards
 * the source. Azimuth counts counter-clockwise from the front seen from
 * above, so azimuth +90° is the left ear's side and −90° the right's;
 * elevation is positive upwards. Receiver 0 of the file is the left ear,
 * as libmysofa takes it.
 *
 * What rw_hrtf_open does to the set, in this order:
 * 1. Reads it (mysofa_load) and refuses what is not a usable HRIR set, with
 *    a message naming the file: missing or unreadable (RW_ERROR_IO); not
 *    HDF5; a SOFA convention other than SimpleFreeFieldHRIR or a data type
 *    other than FIR; not two receivers; no directions or no samples; no
 *    Data.Delay; a sampling rate that is not one positive number; samples
 *    that are not finite; then libmysofa's own checks (mysofa_check).
 * 2. Resamples it to the rate asked for when the set's own differs
 *    (mysofa_resample: the Speex resampler at quality 10, a windowed-sinc
 *    interpolator whose delay libmysofa removes, so onsets and interaural
 *    delays keep their times; N grows to ⌈N · rate / rate_set⌉ taps).
 *    Data.Delay (in samples) is scaled with it.
 * 3. Equalises the set to the diffuse field (headphone playback of a
 *    room's IR, as ODEON and CATT offer it): the mean power response of
 *    both ears over the sphere (rw_hrtf_get's interpolated responses at
 *    3000 directions spread evenly: a Fibonacci sphere), smoothed over a
 *    third of an octave, is inverted (held below 200 Hz and above 90 %
 *    of the lower of the two Nyquist frequencies, limited to ±30 dB about
 *    its value at 1 kHz) into a minimum-phase filter of N taps (real
 *    cepstrum, the last quarter faded out), and every response goes
 *    through it: N becomes 2N − 1. The same filter for every direction
 *    and both ears, so interaural time and level differences are kept;
 *    what goes is what all directions share: the MIT set's loudspeaker
 *    and ear-canal responses (Gardner & Martin), and the energy lost in
 *    interpolation (mixing neighbours of different delays). A diffuse
 *    arrival of pressure gain g then has energy g² per ear on average,
 *    as in the omnidirectional IR (test hrtf-kemar: 125 Hz −0.8 dB,
 *    250 Hz … 8 kHz within 0.2 dB), and a frontal one its free-field-to-
 *    diffuse-field difference.
 * 3b. Extends the responses to low frequencies: below
 *    RW_HRTF_LF_CROSSOVER_HZ a head is acoustically small and each ear
 *    hears the free-field pressure at its own delay, while a measured set
 *    says little there (the MIT loudspeaker rolls off below 200 Hz; 512
 *    taps hold no longer wavelength). Each response h becomes
 *    δ(t − L/2) ∗ h + lp ∗ (δ(t − τ) − h): below the crossover a unit
 *    pulse at h's own onset τ (−20 dB of its peak: its interaural delay
 *    kept), above it h, through complementary linear-phase filters (lp a
 *    Hann-windowed sinc low-pass of L + 1 taps, L = rw_hrtf_lf_taps).
 *    Every response is delayed by L/2 (10 ms at 48 kHz; step 4 finds it
 *    again) and grows by L taps. Without it a room's energy below 200 Hz
 *    was lost to the ears (the demo room's binaural IR 2.4 dB below the
 *    omni IR in its late part, 20 dB at 31.5 Hz).
 * 4. Finds the reference delay: the leading edge of the pair measured
 *    nearest the front (the
 *    first sample whose magnitude reaches −20 dB of the pair's peak, the
 *    earlier of the two ears, plus its Data.Delay). Every set carries a
 *    lead-in of its own (the MIT set ≈ 0.7 ms: the loudspeaker's 1.4 m
 *    less the 200 samples Gardner & Martin cut); rw_hrtf_render_arrivals
 *    removes it, so that a frontal arrival's ear signals start at the
 *    arrival's time.
 *
 * Interpolation (rw_hrtf_get; libmysofa's mysofa_interpolate, as
 * mysofa_getfilter_float does): the direction is scaled to the radius of
 * the measurements, the nearest measured direction found (k-d tree); a
 * direction that is measured gives that measurement exactly. Otherwise
 * the result is the inverse-distance weighted mean (weights 1/d, d the
 * chord distance at the measurement radius) of the nearest measurement
 * and, of its two neighbours in azimuth (found by stepping 0.5° either
 * way) and its two in elevation, the nearer one of each pair (neither of
 * a pair when both are equally far). The responses are mixed sample by
 * sample, their delays alike: between two measured directions whose onsets
 * differ the interaural delay moves by the mix of two close pulses, not by
 * a shift (at the MIT set's 5° horizontal step, two neighbours' ITDs
 * differ by ≤ 65 µs, 3 samples at 44.1 kHz; test hrtf-kemar sees the ITD
 * rise smoothly between them). One exception is corrected here:
 * for a set with one Data.Delay for all directions (dimensions I,R)
 * libmysofa scales that delay by the nearest measurement's weight share;
 * the set's own delay is returned instead.
 *
 * Handles are read-only after rw_hrtf_open: rw_hrtf_get and
 * rw_hrtf_render_arrivals may run in several threads on one handle.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include "rw-error.h"
#include "rw-materials.h"   /* RW_N_OCTAVES */

/* The low-frequency extension's crossover (step 3b below) and its
 * filter's length at a rate: every response is delayed by half of it. */
#define RW_HRTF_LF_CROSSOVER_HZ 200.0
size_t rw_hrtf_lf_taps (double rate_hz);

/* The bundled default set, relative to the data directory (rw_data_path). */
#define RW_HRTF_DEFAULT_FILE "hrtf/MIT_KEMAR_normal_pinna.sofa"
/* Rates a set may be opened at (libmysofa refuses below 8 kHz; above the
 * upper one a resampled set would only grow, with nothing in it). */
#define RW_HRTF_MIN_RATE_HZ 8000.0
#define RW_HRTF_MAX_RATE_HZ 384000.0

typedef struct RwHrtf RwHrtf;

/* Opens the SOFA file at path (NULL: the bundled RW_HRTF_DEFAULT_FILE) at
 * rate_hz (RW_HRTF_MIN_RATE_HZ … RW_HRTF_MAX_RATE_HZ; 0: the set's own
 * rate). NULL on failure, err saying why and naming the file (above). A
 * user's file is read first in the helper process (rw-hrtf.c, "libmysofa
 * in the helper process"): a file that crashes or hangs libmysofa is an
 * RW_ERROR_INPUT ("… libmysofa crashed while reading it …"), not the end
 * of this process. Once the helper and this process have read a file, it
 * opens again, at any rate, without the helper while stat says it is the
 * same file. */
RwHrtf *rw_hrtf_open (const char *path, double rate_hz, RwError *err);
/* The helper's body (roomwave-import-helper --sofa RATE PATH): reads the
 * set as rw_hrtf_open does up to and including its resampling (everything
 * that hands the file's contents to libmysofa) in this process, and writes
 * the outcome to fd in the helper's format (rw-hrtf.c). False when fd
 * refused the message. */
bool rw_hrtf_helper_run (const char *path, double rate_hz, int fd);
void rw_hrtf_free (RwHrtf *h);

const char *rw_hrtf_path (const RwHrtf *h);          /* the file opened */
double rw_hrtf_rate (const RwHrtf *h);               /* Hz, the responses' rate */
double rw_hrtf_set_rate (const RwHrtf *h);           /* Hz, the file's own rate */
size_t rw_hrtf_length (const RwHrtf *h);             /* taps per ear at rw_hrtf_rate */
size_t rw_hrtf_n_directions (const RwHrtf *h);       /* measured directions */
double rw_hrtf_reference_delay (const RwHrtf *h);    /* s, step 4 above */

/* The unit vector of measured direction i (0 … rw_hrtf_n_directions − 1;
 * listener frame above): rw_hrtf_get there gives that measurement exactly.
 * False with RW_ERROR_INPUT for i out of range. */
bool rw_hrtf_direction (const RwHrtf *h, size_t i, double d[3], RwError *err);

/* Quadrature weights of the measured directions (solid angles, sr), for
 * integrals over the sphere the set covers (the magnitude least-squares
 * decoder's fit, rw-ambi-binaural.h; the diffuse-field average below):
 * the areas of the directions' spherical Voronoi cells, estimated by
 * giving each of RW_HRTF_WEIGHT_POINTS points of a Fibonacci lattice
 * (uniform on the sphere to within 1/K) to its nearest measurement. A
 * point farther than 1.5 × the set's largest nearest-neighbour spacing
 * from every measurement is in a gap of the set (the MIT set has none
 * below −40° elevation) and counts for none: a measurement is not made
 * to stand for directions far from it. w gets rw_hrtf_n_directions
 * values; their sum is the covered solid angle (≈ 4π·0.86 for the MIT
 * set). Fails with RW_ERROR_MEMORY. */
#define RW_HRTF_WEIGHT_POINTS 40000
bool rw_hrtf_weights (const RwHrtf *h, double *w, RwError *err);

/* The set's diffuse-field average per octave band (63 Hz … 8 kHz, edges
 * at the exact midbands (rw_octave_exact_centre_hz) ÷ and × √2): the mean
 * over the measured directions, weighted by rw_hrtf_weights, and over the
 * two ears of each response's energy in the band (its spectrum zero-padded
 * to 4 × its length, Parseval; the part of a band above Nyquist counts
 * nothing). In the scale of rw_hrtf_open's step 3 (a frontal pair has
 * the energy of one unit pulse per ear over all frequencies): a binaural
 * IR's diffuse-field calibration is compared against this. Fails with
 * RW_ERROR_MEMORY. */
bool rw_hrtf_diffuse_field (const RwHrtf *h, double energy[RW_N_OCTAVES], RwError *err);

/* The responses for a source in direction (listener frame above; any
 * length > 0, finite), interpolated (above): left and right get
 * rw_hrtf_length taps each; *delay_left_s and *delay_right_s (either may
 * be NULL) the set's Data.Delay of each ear in seconds, by which that
 * ear's response is to be delayed (0 for sets, like the MIT one, whose
 * responses hold their delays). Fails with RW_ERROR_INPUT on a direction
 * that is not finite or is zero, RW_ERROR_MEMORY. */
bool rw_hrtf_get (const RwHrtf *h, const double direction[3], float *left, float *right,
                  double *delay_left_s, double *delay_right_s, RwError *err);

/* One sound arriving at the listener. */
typedef struct {
  double time_s;                 /* at the head's centre, from the emission */
  double gain[RW_N_OCTAVES];     /* pressure factor per octave band 63 Hz … 8 kHz
                                    (real; the same in every band: broadband) */
  double direction[3];           /* listener frame, towards where it comes from */
} RwHrtfArrival;

/* Renders arrivals as a two-channel (binaural) impulse response at
 * rw_hrtf_rate (h) (open the set at 48 kHz, RW_GA_RATE_HZ, for the
 * geometrical IR's rate): left and right get n_samples each, sample i at
 * time i / rate, overwritten. Each arrival adds its pair of responses
 * (rw_hrtf_get), ear e's starting at time_s − rw_hrtf_reference_delay +
 * delay_e, fractionally delayed by rw_ism_render's kernel (a
 * Hann-windowed sinc of half-width RW_ISM_RENDER_HALF_WIDTH, exact at
 * whole samples), times its gain. Taps before 0 or past the end are
 * dropped. When every arrival's gains are equal across the bands each
 * response is scaled by that gain (exact). Otherwise band b of the sum is
 * rendered with the band-b gains and filtered with band b's weight of the
 * zero-phase complementary octave split (rw-air.h: the one the
 * geometrical IR uses, so that with equal gains it gives back the
 * broadband sum), the bands summed. Fails with RW_ERROR_INPUT on n_samples
 * 0, a time, gain or direction that is not finite (naming the arrival),
 * RW_ERROR_MEMORY. */
bool rw_hrtf_render_arrivals (const RwHrtf *h, const RwHrtfArrival *arrivals, size_t n_arrivals,
                              size_t n_samples, double *left, double *right, RwError *err);
