/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-hrtf.c — SOFA HRIR sets through libmysofa, and the binaural
 * rendering of arrivals. What is done and why: rw-hrtf.h and
 * docs/BINAURAL.md. */
/* mysofa.h first: its struct has members named I, which <complex.h>
   (through rw-hrtf.h) makes a macro. */
#include <mysofa.h>
#include "rw-hrtf.h"

#include <complex.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "rw-air.h"
#include "rw-analysis.h"
#include "rw-fftw.h"
#include "rw-file.h"
#include "rw-helper.h"
#include "rw-i18n.h"
#include "rw-ism.h"
#include "rw-physics.h"

struct RwHrtf {
  char *path;
  struct MYSOFA_HRTF *sofa;       /* resampled, scaled, Cartesian source positions */
  struct MYSOFA_LOOKUP *lookup;
  struct MYSOFA_NEIGHBORHOOD *neighbours;
  double rate_hz, set_rate_hz;
  size_t n;                       /* taps per ear */
  double reference_delay_s;
  bool global_delay;              /* one Data.Delay pair for every direction (I,R) */
};

/* What a libmysofa error code means, for a message. */
static const char *
sofa_error_text (int code)
{
  switch (code)
    {
    case MYSOFA_INVALID_FORMAT:
    case MYSOFA_READ_ERROR:
      return _("damaged, or HDF5 that is not a SOFA file");
    case MYSOFA_UNSUPPORTED_FORMAT:
      return _("an HDF5 feature libmysofa does not read");
    case MYSOFA_NO_MEMORY:
      return _("out of memory");
    case MYSOFA_INVALID_ATTRIBUTES:
      return _("its attributes are not those of a SimpleFreeFieldHRIR set");
    case MYSOFA_INVALID_DIMENSIONS:
    case MYSOFA_INVALID_DIMENSION_LIST:
      return _("its dimensions are not those of an HRIR set");
    case MYSOFA_INVALID_COORDINATE_TYPE:
      return _("a coordinate type libmysofa does not know");
    case MYSOFA_ONLY_EMITTER_WITH_ECI_SUPPORTED:
      return _("only one emitter at the source's position is supported");
    case MYSOFA_ONLY_DELAYS_WITH_IR_OR_MR_SUPPORTED:
      return _("its Data.Delay has dimensions libmysofa does not support");
    case MYSOFA_ONLY_THE_SAME_SAMPLING_RATE_SUPPORTED:
      return _("it has more than one sampling rate");
    case MYSOFA_RECEIVERS_WITH_RCI_SUPPORTED:
    case MYSOFA_RECEIVERS_WITH_CARTESIAN_SUPPORTED:
    case MYSOFA_INVALID_RECEIVER_POSITIONS:
      return _("its receivers are not two ears on either side of the head");
    case MYSOFA_ONLY_SOURCES_WITH_MC_SUPPORTED:
      return _("its source positions have dimensions libmysofa does not support");
    default:
      return _("an error inside libmysofa");
    }
}

static const char *
sofa_attribute (struct MYSOFA_HRTF *s, const char *name)
{
  const char *v = mysofa_getAttribute (s->attributes, (char *) name);
  return v != NULL ? v : "";
}

/* Step 1 of rw-hrtf.h, after mysofa_load: what makes a set usable here,
 * each with a message of its own before libmysofa's coarser check. */
static bool
check_set (struct MYSOFA_HRTF *s, const char *path, RwError *err)
{
  const char *conv = sofa_attribute (s, "SOFAConventions");
  if (strcmp (conv, "SimpleFreeFieldHRIR") != 0)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("%s: a SOFA file of the convention “%s”, not an HRIR set (SimpleFreeFieldHRIR)"),
                    path, conv);
  const char *type = sofa_attribute (s, "DataType");
  if (strcmp (type, "FIR") != 0)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("%s: its data type is “%s”, not FIR (impulse responses)"), path, type);
  if (s->R != 2)
    return rw_fail (err, RW_ERROR_INPUT, _("%s: %u receivers, not the two ears of an HRIR set"),
                    path, s->R);
  if (s->M == 0 || s->N == 0 || s->DataIR.values == NULL)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("%s: the HRIR set is empty (%u directions of %u samples)"), path, s->M, s->N);
  if ((size_t) s->DataIR.elements != (size_t) s->M * s->R * s->N)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("%s: its impulse responses hold %u values, not %u directions × 2 ears × %u samples"),
                    path, s->DataIR.elements, s->M, s->N);
  if (s->SourcePosition.values == NULL || s->SourcePosition.elements != 3 * s->M)
    return rw_fail (err, RW_ERROR_INPUT, _("%s: its source positions do not match its %u directions"),
                    path, s->M);
  if (s->DataDelay.values == NULL
      || (s->DataDelay.elements != s->R && s->DataDelay.elements != s->R * s->M))
    return rw_fail (err, RW_ERROR_INPUT,
                    _("%s: no Data.Delay of one value per ear (every SimpleFreeFieldHRIR set has one)"),
                    path);
  if (s->DataSamplingRate.values == NULL || s->DataSamplingRate.elements != 1
      || !isfinite (s->DataSamplingRate.values[0]) || !(s->DataSamplingRate.values[0] > 0.0f))
    return rw_fail (err, RW_ERROR_INPUT,
                    _("%s: its sampling rate is not one positive number, and cannot be used"), path);
  for (unsigned i = 0; i < s->DataIR.elements; i++)
    if (!isfinite (s->DataIR.values[i]))
      return rw_fail (err, RW_ERROR_INPUT, _("%s: its impulse responses hold values that are not finite"),
                      path);
  for (unsigned i = 0; i < s->DataDelay.elements; i++)
    if (!isfinite (s->DataDelay.values[i]) || s->DataDelay.values[i] < 0.0f)
      return rw_fail (err, RW_ERROR_INPUT, _("%s: its Data.Delay holds values that are not finite or negative"),
                      path);
  int code = mysofa_check (s);
  if (code != MYSOFA_OK)
    return rw_fail (err, RW_ERROR_INPUT, _("%s: not a usable HRIR set: %s"), path,
                    sofa_error_text (code));
  return true;
}

/* The measurement nearest to direction d (any length), as libmysofa finds it. */
static int
nearest (const RwHrtf *h, const double d[3])
{
  float c[3] = { (float) d[0], (float) d[1], (float) d[2] };
  return mysofa_lookup (h->lookup, c);
}

/* Makes `data` (M pairs of n_out taps) the set's responses, freeing the old. */
static void
replace_responses (RwHrtf *h, float *data, size_t n_out)
{
  struct MYSOFA_HRTF *s = h->sofa;
  free (s->DataIR.values);
  s->DataIR.values = data;
  s->DataIR.elements = (unsigned) (s->M * 2 * n_out);
  s->N = (unsigned) n_out;
  h->n = n_out;
}

/* X[k] ← X[k] · G[k], k < nb (complex, as pairs of doubles) */
static void
multiply_spectra (double (*X)[2], const double (*G)[2], size_t nb)
{
  for (size_t k = 0; k < nb; k++)
    {
      const double re = X[k][0] * G[k][0] - X[k][1] * G[k][1];
      const double im = X[k][0] * G[k][1] + X[k][1] * G[k][0];
      X[k][0] = re;
      X[k][1] = im;
    }
}

/* Step 3 of rw-hrtf.h: the diffuse-field equalisation. */
static bool
equalise_diffuse_field (RwHrtf *h, RwError *err)
{
  struct MYSOFA_HRTF *s = h->sofa;
  const size_t M = s->M, n = h->n, n_out = 2 * n - 1;
  const double fs = h->rate_hz;
  size_t N = 64;
  while (N < 4 * n)
    N *= 2;
  const size_t nb = N / 2 + 1;
  double *x = fftw_malloc (N * sizeof *x);
  fftw_complex *Xc = fftw_malloc (nb * sizeof *Xc), *Gc = fftw_malloc (nb * sizeof *Gc);
  /* as pairs of doubles: <complex.h> (through rw-hrtf.h) makes
     fftw_complex a C99 complex */
  double (*X)[2] = (double (*)[2]) Xc, (*G)[2] = (double (*)[2]) Gc;
  double *P = calloc (nb, sizeof *P), *Ps = calloc (nb, sizeof *Ps);
  float *eq = malloc (M * 2 * n_out * sizeof *eq);
  fftw_plan fwd = NULL, inv = NULL;
  bool ok = x != NULL && X != NULL && G != NULL && P != NULL && Ps != NULL && eq != NULL;
  if (!ok)
    rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory"), h->path);
  if (ok && !rw_fftw_plan_pair ((int) N, x, Xc, Xc, x, &fwd, &inv))
    ok = rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory"), h->path);
  /* the mean power response over the sphere and both ears, of the
   * responses rw_hrtf_get gives (interpolated: mixing neighbours of
   * different delays loses energy at high frequencies, which the filter
   * then makes up for), at 3000 directions spread evenly over the sphere
   * (a Fibonacci sphere; the MIT set, measured down to −40°, is
   * extrapolated below as rw_hrtf_get does) */
  const int n_points = 3000;
  float *pair = malloc (2 * n * sizeof *pair);
  if (ok && pair == NULL)
    ok = rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory"), h->path);
  for (int i = 0; ok && i < n_points; i++)
    {
      const double z = 1.0 - (2.0 * i + 1.0) / n_points, rho = sqrt (1.0 - z * z);
      const double phi = i * M_PI * (3.0 - sqrt (5.0));
      const double d[3] = { rho * cos (phi), rho * sin (phi), z };
      ok = rw_hrtf_get (h, d, pair, pair + n, NULL, NULL, err);
      for (int e = 0; ok && e < 2; e++)
        {
          for (size_t k = 0; k < N; k++)
            x[k] = k < n ? pair[(size_t) e * n + k] : 0.0;
          fftw_execute (fwd);
          for (size_t k = 0; k < nb; k++)
            P[k] += 0.5 * (X[k][0] * X[k][0] + X[k][1] * X[k][1]) / n_points;
        }
    }
  free (pair);
  /* smoothed over a third of an octave, so that the filter follows the
   * response's trend and not its notches; held below 200 Hz (the
   * responses' few milliseconds and the MIT loudspeaker say little
   * there) and above 90 % of the lower Nyquist frequency */
  const double f_lo = 200.0, f_hi = 0.45 * fmin (h->set_rate_hz, fs);
  size_t k_lo = (size_t) ceil (f_lo * (double) N / fs), k_hi = (size_t) floor (f_hi * (double) N / fs);
  if (k_hi >= nb)
    k_hi = nb - 1;
  if (k_lo > k_hi)
    k_lo = k_hi;
  for (size_t k = k_lo; ok && k <= k_hi; k++)
    {
      const double f = (double) k * fs / (double) N;
      size_t a = (size_t) floor (f * pow (2.0, -1.0 / 6.0) * (double) N / fs);
      size_t b = (size_t) ceil (f * pow (2.0, 1.0 / 6.0) * (double) N / fs);
      if (b >= nb)
        b = nb - 1;
      double sum = 0.0;
      for (size_t j = a; j <= b; j++)
        sum += P[j];
      Ps[k] = sum / (double) (b - a + 1);
    }
  if (ok && !(Ps[k_lo] > 0.0))
    ok = rw_fail (err, RW_ERROR_INPUT, _("%s: its responses are silent"), h->path);
  /* the inverse magnitude, limited to ±30 dB about its value at 1 kHz, as
   * the log of a minimum-phase filter's spectrum (real cepstrum, folded) */
  const size_t k1k = (size_t) lround (1000.0 * (double) N / fs);
  const double ref = Ps[k1k < k_lo ? k_lo : (k1k > k_hi ? k_hi : k1k)];
  for (size_t k = 0; ok && k < nb; k++)
    {
      const size_t kk = k < k_lo ? k_lo : (k > k_hi ? k_hi : k);
      double g = Ps[kk] > 0.0 ? -0.5 * log (Ps[kk]) : 0.0;
      g = fmax (-0.5 * log (ref) - 3.454, fmin (-0.5 * log (ref) + 3.454, g));   /* ±30 dB */
      X[k][0] = g;
      X[k][1] = 0.0;
    }
  if (ok)
    {
      fftw_execute (inv);   /* x: N × the real cepstrum */
      for (size_t i = 0; i < N; i++)
        x[i] = x[i] / (double) N * (i == 0 || i == N / 2 ? 1.0 : (i < N / 2 ? 2.0 : 0.0));
      fftw_execute (fwd);
      for (size_t k = 0; k < nb; k++)
        {
          const double mag = exp (X[k][0]);
          X[k][0] = mag * cos (X[k][1]);
          X[k][1] = mag * sin (X[k][1]);
        }
      fftw_execute (inv);
      /* n taps, the last quarter faded out (half Hann) */
      const size_t fade = n / 4 > 0 ? n / 4 : 1;
      for (size_t i = 0; i < N; i++)
        {
          double w = i < n - fade ? 1.0 : (i < n ? 0.5 * (1.0 + cos (M_PI * (double) (i - (n - fade)) / (double) fade)) : 0.0);
          x[i] = x[i] / (double) N * w;
        }
      fftw_execute (fwd);
      memcpy (G, X, nb * sizeof *G);
    }
  /* every response through it: 2n − 1 taps */
  for (size_t m = 0; ok && m < M; m++)
    for (int e = 0; e < 2; e++)
      {
        const float *ir = s->DataIR.values + (m * 2 + (size_t) e) * n;
        for (size_t i = 0; i < N; i++)
          x[i] = i < n ? ir[i] : 0.0;
        fftw_execute (fwd);
        multiply_spectra (X, (const double (*)[2]) G, nb);
        fftw_execute (inv);
        float *out = eq + (m * 2 + (size_t) e) * n_out;
        for (size_t i = 0; i < n_out; i++)
          out[i] = (float) (x[i] / (double) N);
      }
  if (ok)
    {
      replace_responses (h, eq, n_out);
      eq = NULL;
    }
  rw_fftw_destroy_pair (fwd, inv);
  fftw_free (x);
  fftw_free (Xc);
  fftw_free (Gc);
  free (P);
  free (Ps);
  free (eq);
  return ok;
}

/* Step 3b of rw-hrtf.h: the low-frequency extension. Below
 * RW_HRTF_LF_CROSSOVER_HZ a head is acoustically small: each ear hears
 * the free-field pressure, delayed by its own path. A measured set says
 * little there (the MIT loudspeaker rolls off below 200 Hz, and N taps
 * cannot hold a wavelength much longer than themselves), so each
 * response below the crossover is replaced by a unit pulse at its own
 * onset (magnitude 1: the diffuse-field target of step 3; the onset's
 * delay: its interaural difference), through complementary linear-phase
 * filters: h' = δ(t − L/2) ∗ h + lp ∗ (δ(t − τ) − h), lp a Hann-windowed
 * sinc low-pass of L + 1 taps (unit DC gain), τ the onset of h (−20 dB of
 * its own peak). Every response is delayed by L/2 (found again as the
 * reference delay, step 4) and grows by L taps. */
static bool
extend_low_frequencies (RwHrtf *h, RwError *err)
{
  struct MYSOFA_HRTF *s = h->sofa;
  const size_t M = s->M, n = h->n;
  const double fs = h->rate_hz, fc = RW_HRTF_LF_CROSSOVER_HZ;
  /* four periods of the crossover: a transition of about fc / 2 */
  const size_t L = rw_hrtf_lf_taps (fs), half = L / 2, n_out = n + L;
  size_t N = 64;
  while (N < n_out)
    N *= 2;
  const size_t nb = N / 2 + 1;
  double *x = fftw_malloc (N * sizeof *x);
  fftw_complex *Xc = fftw_malloc (nb * sizeof *Xc), *LPc = fftw_malloc (nb * sizeof *LPc);
  /* pairs of doubles: <complex.h> makes fftw_complex a C99 complex */
  double (*X)[2] = (double (*)[2]) Xc, (*LP)[2] = (double (*)[2]) LPc;
  float *ext = malloc (M * 2 * n_out * sizeof *ext);
  fftw_plan fwd = NULL, inv = NULL;
  bool ok = x != NULL && Xc != NULL && LPc != NULL && ext != NULL;
  if (!ok)
    rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory"), h->path);
  if (ok && !rw_fftw_plan_pair ((int) N, x, Xc, Xc, x, &fwd, &inv))
    ok = rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory"), h->path);
  if (ok)
    {
      /* lp: a Hann-windowed sinc, unit DC gain, its spectrum / N */
      double sum = 0.0;
      for (size_t k = 0; k < N; k++)
        {
          x[k] = 0.0;
          if (k > L)
            continue;
          const double t = (double) k - (double) half;
          const double sinc = t == 0.0 ? 2.0 * fc / fs : sin (2.0 * M_PI * fc / fs * t) / (M_PI * t);
          x[k] = sinc * 0.5 * (1.0 - cos (2.0 * M_PI * (double) k / (double) L));
          sum += x[k];
        }
      for (size_t k = 0; k <= L; k++)
        x[k] /= sum * (double) N;
      fftw_execute (fwd);
      memcpy (LPc, Xc, nb * sizeof *LPc);
    }
  for (size_t m = 0; ok && m < M; m++)
    for (int e = 0; e < 2; e++)
      {
        const float *h0 = s->DataIR.values + (m * 2 + (size_t) e) * n;
        double peak = 0.0;
        for (size_t i = 0; i < n; i++)
          peak = fmax (peak, fabs (h0[i]));
        size_t tau = 0;
        while (tau < n && fabs (h0[tau]) < 0.1 * peak)
          tau++;
        /* lp ∗ (δ(t − τ) − h) (n_out ≤ N: no wrap), then + h delayed by L/2 */
        for (size_t i = 0; i < N; i++)
          x[i] = (i == tau ? 1.0 : 0.0) - (i < n ? h0[i] : 0.0);
        fftw_execute (fwd);
        multiply_spectra (X, (const double (*)[2]) LP, nb);
        fftw_execute (inv);
        float *y = ext + (m * 2 + (size_t) e) * n_out;
        for (size_t i = 0; i < n_out; i++)
          y[i] = (float) (x[i] + (i >= half && i - half < n ? h0[i - half] : 0.0));
      }
  if (ok)
    {
      replace_responses (h, ext, n_out);
      ext = NULL;
    }
  rw_fftw_destroy_pair (fwd, inv);
  fftw_free (x);
  fftw_free (Xc);
  fftw_free (LPc);
  free (ext);
  return ok;
}

size_t
rw_hrtf_lf_taps (double rate_hz)
{
  return 2 * (size_t) ceil (2.0 * rate_hz / RW_HRTF_LF_CROSSOVER_HZ);
}

/* Step 4 of rw-hrtf.h. */
static bool
normalise_front (RwHrtf *h, RwError *err)
{
  static const double front[3] = { 1.0, 0.0, 0.0 };
  const int m = nearest (h, front);
  if (m < 0)
    return rw_fail (err, RW_ERROR_INTERNAL, "%s: libmysofa found no frontal direction", h->path);
  float *pair = h->sofa->DataIR.values + (size_t) m * 2 * h->n;
  double e = 0.0;
  for (size_t i = 0; i < 2 * h->n; i++)
    e += (double) pair[i] * pair[i];
  if (!(e > 0.0))
    return rw_fail (err, RW_ERROR_INPUT, _("%s: the response measured nearest the front is silent"),
                    h->path);
  /* Leading edge at −20 dB of the pair's peak: a threshold well above the
     measurement's noise (65 dB SNR, Gardner & Martin) and below the
     first peak of either ear. */
  double peak = 0.0;
  for (size_t i = 0; i < 2 * h->n; i++)
    peak = fmax (peak, fabs (pair[i]));
  const float *delay = h->sofa->DataDelay.values + (h->global_delay ? 0 : (size_t) m * 2);
  double onset = INFINITY;
  for (int ear = 0; ear < 2; ear++)
    {
      const float *x = pair + (size_t) ear * h->n;
      size_t i = 0;
      while (i < h->n && fabs (x[i]) < 0.1 * peak)
        i++;
      if (i < h->n)
        onset = fmin (onset, (double) i + delay[ear]);
    }
  h->reference_delay_s = onset / h->rate_hz;
  return true;
}

/* ---- libmysofa in the helper process -------------------------------------
 *
 * libmysofa reads HDF5 itself, and crafted files have overflowed its heap
 * buffers (its issues #134, #135, #165 and #231; #231's fix, a bound on a
 * dataset's size in getArray, came after the 1.3.1 that Debian 12 ships).
 * So a set named by the user is read first in the helper process
 * (rw-helper.h, rw_hrtf_helper_run): everything of rw_hrtf_open that hands
 * the file's contents to libmysofa (loading, its checks and ours, the
 * resampling); a helper that dies or hangs becomes
 * an RW_ERROR_INPUT naming the file, and its own error comes back as it
 * is. Only then does this process read the set. Without an installed
 * helper, or with ROOMWAVE_IMPORT_IN_PROCESS=1, the set is read here
 * alone. The message: "RWSO", u8 ok; when not ok, i32 code, u32 length,
 * the text.
 *
 * A file the helper has read, and this process after it, is not handed
 * to the helper again while it stays the same file (device, inode, size,
 * modification and change times: a rewrite, a copy over it or a rename
 * onto it changes them): a run opens a user's set at two rates (the
 * output's and the geometrical part's), and the GUI opens it once more
 * when it is chosen (0.4 s a helper run for the MIT set at 48 kHz,
 * docs/BINAURAL.md). Opening it at another rate then resamples it here
 * without the helper; what that resampling reads, check_set has sized
 * and the rate is within RW_HRTF_MIN_RATE_HZ … RW_HRTF_MAX_RATE_HZ.
 */

#define SOFA_MAGIC "RWSO"
#define SOFA_LIMIT_S 120.0

static RwHrtf *open_set (const char *path, double rate_hz, bool in_helper, RwError *err);

/* A file as stat names it: what a rewrite, a copy over it or a rename onto
 * its path changes. */
typedef struct {
  dev_t dev;
  ino_t ino;
  off_t size;
  struct timespec mtime, ctime;
} SofaFile;

#define SOFA_READ_MAX 16

/* The files the helper has read (and this process after it), the latest
 * SOFA_READ_MAX: the worker threads of the GUI and a run may open sets at
 * once. */
static struct {
  pthread_mutex_t lock;
  SofaFile file[SOFA_READ_MAX];
  size_t n, next;
} sofa_read = { .lock = PTHREAD_MUTEX_INITIALIZER };

static bool
sofa_file (const char *path, SofaFile *f)
{
  struct stat st;
  if (stat (path, &st) != 0)
    return false;
  *f = (SofaFile) { .dev = st.st_dev, .ino = st.st_ino, .size = st.st_size,
                    .mtime = st.st_mtim, .ctime = st.st_ctim };
  return true;
}

static bool
sofa_same (const SofaFile *a, const SofaFile *b)
{
  return a->dev == b->dev && a->ino == b->ino && a->size == b->size
         && a->mtime.tv_sec == b->mtime.tv_sec && a->mtime.tv_nsec == b->mtime.tv_nsec
         && a->ctime.tv_sec == b->ctime.tv_sec && a->ctime.tv_nsec == b->ctime.tv_nsec;
}

/* Whether f is among the files read; the caller holds the lock. */
static bool
sofa_listed (const SofaFile *f)
{
  for (size_t i = 0; i < sofa_read.n; i++)
    if (sofa_same (&sofa_read.file[i], f))
      return true;
  return false;
}

static bool
sofa_was_read (const SofaFile *f)
{
  pthread_mutex_lock (&sofa_read.lock);
  bool found = sofa_listed (f);
  pthread_mutex_unlock (&sofa_read.lock);
  return found;
}

static void
sofa_mark_read (const SofaFile *f)
{
  pthread_mutex_lock (&sofa_read.lock);
  if (!sofa_listed (f))
    {
      sofa_read.file[sofa_read.next] = *f;
      sofa_read.next = (sofa_read.next + 1) % SOFA_READ_MAX;
      if (sofa_read.n < SOFA_READ_MAX)
        sofa_read.n++;
    }
  pthread_mutex_unlock (&sofa_read.lock);
}

bool
rw_hrtf_helper_run (const char *path, double rate_hz, int fd)
{
  RwError err = { 0 };
  RwHrtf *h = open_set (path, rate_hz, true, &err);
  uint8_t ok = h != NULL;
  bool w = rw_file_write_all (fd, SOFA_MAGIC, 4) && rw_file_write_all (fd, &ok, 1);

  rw_hrtf_free (h);
  if (!ok)
    {
      int32_t code = err.code;
      uint32_t len = (uint32_t) strlen (err.message);
      w = w && rw_file_write_all (fd, &code, sizeof code) && rw_file_write_all (fd, &len, sizeof len)
          && rw_file_write_all (fd, err.message, len);
    }
  return w;
}

/* The set read in the helper first: true when it read it (*isolated
 * true) or no helper could be started (then in-process alone: false),
 * else its error, or why it ended without one. */
static bool
read_isolated (const char *path, double rate_hz, bool *isolated, RwError *err)
{
  char rate[32];
  snprintf (rate, sizeof rate, "%.17g", rate_hz);
  char *const args[] = { "--sofa", rate, (char *) path, NULL };
  char *out = NULL;
  size_t len = 0;
  int status = 0;
  bool timed_out = false;

  *isolated = false;
  if (!rw_helper_run (args, SOFA_LIMIT_S, 4096 + sizeof err->message, &out, &len, &status, &timed_out))
    return true;
  bool got = len >= 5 && memcmp (out, SOFA_MAGIC, 4) == 0;
  bool ok = got && out[4] == 1;
  if (got && !ok)
    {
      int32_t code;
      uint32_t n;
      got = len >= 13;
      if (got)
        {
          memcpy (&code, out + 5, sizeof code);
          memcpy (&n, out + 9, sizeof n);
          got = n < sizeof err->message && len == 13 + (size_t) n && code > RW_OK;
        }
      if (got)
        rw_fail (err, (RwErrorCode) code, "%.*s", (int) n, out + 13);
    }
  free (out);
  *isolated = got && ok;
  if (got)
    return ok;
  return rw_helper_failure (path, "libmysofa", SOFA_LIMIT_S, timed_out, status, err);
}

RwHrtf *
rw_hrtf_open (const char *path, double rate_hz, RwError *err)
{
  return open_set (path, rate_hz, false, err);
}

/* rw_hrtf_open; `in_helper`: the helper's part alone (rw_hrtf_helper_run):
 * no helper of its own, and nothing past the resampling (the rest is this
 * file's code, and libmysofa's look-up structures, on checked arrays);
 * else a user's set is read in the helper first, unless it has read that
 * same file before (sofa_was_read). */
static RwHrtf *
open_set (const char *path, double rate_hz, bool in_helper, RwError *err)
{
  char *found = NULL;
  const bool bundled = path == NULL;   /* ours: read in-process */
  if (path == NULL)
    {
      found = rw_data_path (RW_HRTF_DEFAULT_FILE);
      if (found == NULL)
        {
          rw_fail (err, RW_ERROR_IO,
                   _("%s: the bundled HRTF set was not found (set ROOMWAVE_DATA_DIR to the folder "
                     "that holds it)"),
                   RW_HRTF_DEFAULT_FILE);
          return NULL;
        }
      path = found;
    }
  if (!(rate_hz == 0.0 || (rate_hz >= RW_HRTF_MIN_RATE_HZ && rate_hz <= RW_HRTF_MAX_RATE_HZ)))
    {
      rw_fail (err, RW_ERROR_INPUT,
               _("%s: a sampling rate of %g Hz cannot be used for HRTFs (%g … %g Hz)"), path,
               rate_hz, RW_HRTF_MIN_RATE_HZ, RW_HRTF_MAX_RATE_HZ);
      free (found);
      return NULL;
    }

  /* Missing, unreadable, not HDF5: said before libmysofa, whose codes do
     not tell these apart. */
  FILE *f = fopen (path, "rb");
  if (f == NULL)
    {
      rw_fail (err, RW_ERROR_IO, _("%s: cannot read the HRTF set: %s"), path, strerror (errno));
      free (found);
      return NULL;
    }
  unsigned char sig[8];
  size_t got = fread (sig, 1, sizeof sig, f);
  int read_errno = ferror (f) ? errno : 0;
  fclose (f);
  if (read_errno != 0)
    {
      rw_fail (err, RW_ERROR_IO, _("%s: cannot read the HRTF set: %s"), path, strerror (read_errno));
      free (found);
      return NULL;
    }
  if (got != sizeof sig || memcmp (sig, "\x89HDF\r\n\x1a\n", sizeof sig) != 0)
    {
      rw_fail (err, RW_ERROR_INPUT,
               _("%s: not a SOFA file (SOFA files are HDF5, and this one does not start with "
                 "HDF5's signature)"),
               path);
      free (found);
      return NULL;
    }

  RwHrtf *h = calloc (1, sizeof *h);
  if (h == NULL || (h->path = strdup (path)) == NULL)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory"), path);
      free (h);
      free (found);
      return NULL;
    }
  free (found);
  path = h->path;

  /* the file as it was before the helper read it: one changed meanwhile
     is not taken for the one it read */
  SofaFile file;
  bool known = false, isolated = false;
  if (!in_helper && !bundled && !rw_helper_in_process ())
    {
      known = sofa_file (path, &file);
      if (!(known && sofa_was_read (&file)) && !read_isolated (path, rate_hz, &isolated, err))
        goto fail;
    }
  int code = MYSOFA_OK;
  h->sofa = mysofa_load (path, &code);
  if (h->sofa == NULL || code != MYSOFA_OK)
    {
      rw_fail (err, code == MYSOFA_NO_MEMORY ? RW_ERROR_MEMORY : RW_ERROR_INPUT,
               _("%s: not a SOFA file libmysofa can read: %s"), path, sofa_error_text (code));
      goto fail;
    }
  if (!check_set (h->sofa, path, err))
    goto fail;
  h->set_rate_hz = h->sofa->DataSamplingRate.values[0];
  h->global_delay = h->sofa->DataDelay.elements == h->sofa->R;
  if (rate_hz == 0.0)
    {
      rate_hz = h->set_rate_hz;
      if (!(rate_hz >= RW_HRTF_MIN_RATE_HZ && rate_hz <= RW_HRTF_MAX_RATE_HZ))
        {
          rw_fail (err, RW_ERROR_INPUT,
                   _("%s: a sampling rate of %g Hz cannot be used for HRTFs (%g … %g Hz)"), path,
                   rate_hz, RW_HRTF_MIN_RATE_HZ, RW_HRTF_MAX_RATE_HZ);
          goto fail;
        }
    }
  code = mysofa_resample (h->sofa, (float) rate_hz);
  if (code != MYSOFA_OK)
    {
      rw_fail (err, code == MYSOFA_NO_MEMORY ? RW_ERROR_MEMORY : RW_ERROR_INPUT,
               _("%s: resampling the set from %g Hz to %g Hz failed: %s"), path, h->set_rate_hz,
               rate_hz, sofa_error_text (code));
      goto fail;
    }
  h->rate_hz = h->sofa->DataSamplingRate.values[0];
  h->n = h->sofa->N;
  if (in_helper)
    return h;
  mysofa_tocartesian (h->sofa);
  h->lookup = mysofa_lookup_init (h->sofa);
  if (h->lookup != NULL)
    h->neighbours = mysofa_neighborhood_init (h->sofa, h->lookup);
  if (h->lookup == NULL || h->neighbours == NULL)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory"), path);
      goto fail;
    }
  if (!equalise_diffuse_field (h, err) || !extend_low_frequencies (h, err) || !normalise_front (h, err))
    goto fail;
  if (known && isolated)
    sofa_mark_read (&file);
  return h;

fail:
  rw_hrtf_free (h);
  return NULL;
}

void
rw_hrtf_free (RwHrtf *h)
{
  if (h == NULL)
    return;
  mysofa_neighborhood_free (h->neighbours);
  mysofa_lookup_free (h->lookup);
  mysofa_free (h->sofa);
  free (h->path);
  free (h);
}

const char *
rw_hrtf_path (const RwHrtf *h)
{
  return h->path;
}

double
rw_hrtf_rate (const RwHrtf *h)
{
  return h->rate_hz;
}

double
rw_hrtf_set_rate (const RwHrtf *h)
{
  return h->set_rate_hz;
}

size_t
rw_hrtf_length (const RwHrtf *h)
{
  return h->n;
}

size_t
rw_hrtf_n_directions (const RwHrtf *h)
{
  return h->sofa->M;
}

double
rw_hrtf_reference_delay (const RwHrtf *h)
{
  return h->reference_delay_s;
}

bool
rw_hrtf_direction (const RwHrtf *h, size_t i, double d[3], RwError *err)
{
  if (i >= h->sofa->M)
    return rw_fail (err, RW_ERROR_INPUT, _("%s: direction %zu asked for; the set has %u"), h->path,
                    i, h->sofa->M);
  const float *p = h->sofa->SourcePosition.values + 3 * i;
  const double r = sqrt ((double) p[0] * p[0] + (double) p[1] * p[1] + (double) p[2] * p[2]);
  for (int k = 0; k < 3; k++)
    d[k] = r > 0.0 ? p[k] / r : (k == 0 ? 1.0 : 0.0);
  return true;
}

bool
rw_hrtf_weights (const RwHrtf *h, double *w, RwError *err)
{
  const size_t M = h->sofa->M, K = RW_HRTF_WEIGHT_POINTS;
  double *u = malloc (3 * M * sizeof *u);
  if (u == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory"), h->path);
  for (size_t i = 0; i < M; i++)
    rw_hrtf_direction (h, i, u + 3 * i, NULL);
  /* The largest nearest-neighbour spacing, as a cosine (the smallest of
     each direction's largest cosine to another). */
  double min_cos_nn = 1.0;
  for (size_t i = 0; i < M; i++)
    {
      double best = -1.0;
      for (size_t j = 0; j < M; j++)
        if (j != i)
          best = fmax (best, u[3 * i] * u[3 * j] + u[3 * i + 1] * u[3 * j + 1]
                             + u[3 * i + 2] * u[3 * j + 2]);
      min_cos_nn = fmin (min_cos_nn, best);
    }
  const double cap = M > 1 ? cos (fmin (M_PI, 1.5 * acos (fmax (-1.0, min_cos_nn)))) : -1.0;
  for (size_t i = 0; i < M; i++)
    w[i] = 0.0;
  /* Fibonacci lattice: z uniform in the midpoints of K slices, azimuth
     stepped by the golden angle. */
  const double golden = M_PI * (3.0 - sqrt (5.0));
  for (size_t k = 0; k < K; k++)
    {
      const double z = 1.0 - (2.0 * k + 1.0) / (double) K, s = sqrt (fmax (0.0, 1.0 - z * z));
      const double p[3] = { s * cos (golden * k), s * sin (golden * k), z };
      double best = -2.0;
      size_t bi = 0;
      for (size_t i = 0; i < M; i++)
        {
          const double c = p[0] * u[3 * i] + p[1] * u[3 * i + 1] + p[2] * u[3 * i + 2];
          if (c > best)
            {
              best = c;
              bi = i;
            }
        }
      if (best >= cap)
        w[bi] += 4.0 * M_PI / (double) K;
    }
  free (u);
  return true;
}

bool
rw_hrtf_diffuse_field (const RwHrtf *h, double energy[RW_N_OCTAVES], RwError *err)
{
  const size_t M = h->sofa->M, n = h->n;
  size_t N = 1;
  while (N < 4 * n)
    N *= 2;
  const size_t nb = N / 2 + 1;
  double *w = malloc (M * sizeof *w);
  double *buf = fftw_malloc (N * sizeof *buf);
  fftw_complex *spec = fftw_malloc (nb * sizeof *spec);
  fftw_plan fwd = NULL, inv = NULL;
  bool ok = false;
  if (w == NULL || buf == NULL || spec == NULL)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory"), h->path);
      goto out;
    }
  if (!rw_hrtf_weights (h, w, err))
    goto out;
  if (!rw_fftw_plan_pair ((int) N, buf, spec, spec, buf, &fwd, &inv))
    {
      rw_fail (err, RW_ERROR_INTERNAL, "FFTW could not plan a transform of %zu points", N);
      goto out;
    }
  double lo[RW_N_OCTAVES], hi[RW_N_OCTAVES], wsum = 0.0;
  for (int b = 0; b < RW_N_OCTAVES; b++)
    {
      const double c = rw_octave_exact_centre_hz (b);
      lo[b] = c / M_SQRT2;
      hi[b] = c * M_SQRT2;
      energy[b] = 0.0;
    }
  for (size_t i = 0; i < M; i++)
    {
      if (!(w[i] > 0.0))
        continue;
      wsum += w[i];
      /* The measurement itself (rw_hrtf_get at a measured direction is
         exactly it): no interpolation to go through. */
      const float *pair = h->sofa->DataIR.values + i * 2 * n;
      for (int ear = 0; ear < 2; ear++)
        {
          memset (buf, 0, N * sizeof *buf);
          for (size_t k = 0; k < n; k++)
            buf[k] = pair[(size_t) ear * n + k];
          fftw_execute_dft_r2c (fwd, buf, spec);
          for (size_t k = 0; k < nb; k++)
            {
              const double f = (double) k * h->rate_hz / (double) N;
              const double p2 = (k == 0 || 2 * k == N ? 1.0 : 2.0)
                                * (creal (spec[k]) * creal (spec[k]) + cimag (spec[k]) * cimag (spec[k])) / (double) N;
              for (int b = 0; b < RW_N_OCTAVES; b++)
                if (f >= lo[b] && f < hi[b])
                  energy[b] += 0.5 * w[i] * p2;
            }
        }
    }
  for (int b = 0; b < RW_N_OCTAVES; b++)
    energy[b] = wsum > 0.0 ? energy[b] / wsum : 0.0;
  ok = true;
out:
  rw_fftw_destroy_pair (fwd, inv);
  free (w);
  fftw_free (buf);
  fftw_free (spec);
  return ok;
}

static bool
direction_ok (const double d[3])
{
  return isfinite (d[0]) && isfinite (d[1]) && isfinite (d[2])
         && d[0] * d[0] + d[1] * d[1] + d[2] * d[2] > 0.0;
}

bool
rw_hrtf_get (const RwHrtf *h, const double direction[3], float *left, float *right,
             double *delay_left_s, double *delay_right_s, RwError *err)
{
  if (!direction_ok (direction))
    return rw_fail (err, RW_ERROR_INPUT,
                    _("HRTF direction (%g, %g, %g): not a finite direction of non-zero length"),
                    direction[0], direction[1], direction[2]);
  float c[3] = { (float) direction[0], (float) direction[1], (float) direction[2] };
  /* mysofa_lookup scales c to the measurements' radius; interpolate
     weighs the neighbours by their distance from that point. */
  const int m = mysofa_lookup (h->lookup, c);
  int *nb = m >= 0 ? mysofa_neighborhood (h->neighbours, m) : NULL;
  if (nb == NULL)
    return rw_fail (err, RW_ERROR_INTERNAL, "%s: libmysofa found no direction near (%g, %g, %g)",
                    h->path, direction[0], direction[1], direction[2]);
  /* Scratch of our own (mysofa_getfilter_float's is the handle's), so
     that one handle serves several threads. */
  float *fir = malloc (2 * h->n * sizeof *fir);
  if (fir == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory"), h->path);
  float delays[2];
  mysofa_interpolate (h->sofa, c, m, nb, fir, delays);
  memcpy (left, fir, h->n * sizeof *left);
  memcpy (right, fir + h->n, h->n * sizeof *right);
  free (fir);
  if (h->global_delay)
    {
      /* libmysofa weighs a global delay by the nearest one's share of the
         weights only (rw-hrtf.h): the set's own value is the answer. */
      delays[0] = h->sofa->DataDelay.values[0];
      delays[1] = h->sofa->DataDelay.values[1];
    }
  if (delay_left_s != NULL)
    *delay_left_s = delays[0] / h->rate_hz;
  if (delay_right_s != NULL)
    *delay_right_s = delays[1] / h->rate_hz;
  return true;
}

/* ---- rendering ----------------------------------------------------------- */

/* rw_ism_render's fractional-delay kernel for a pulse at frac ∈ [0, 1)
 * samples after a whole one: taps[j] belongs to the whole sample
 * − RW_ISM_RENDER_HALF_WIDTH + j. One kernel, one definition. */
#define KERNEL_TAPS (2 * RW_ISM_RENDER_HALF_WIDTH + 2)

static bool
fraction_kernel (double frac, double fs, double taps[KERNEL_TAPS], RwError *err)
{
  RwIsmArrival a;
  memset (&a, 0, sizeof a);
  a.delay_s = (RW_ISM_RENDER_HALF_WIDTH + frac) / fs;
  for (int b = 0; b < RW_N_OCTAVES; b++)
    a.gain[b] = 1.0;
  double bands[RW_N_OCTAVES * KERNEL_TAPS];
  if (!rw_ism_render (&a, 1, fs, KERNEL_TAPS, bands, err))
    return false;
  memcpy (taps, bands, KERNEL_TAPS * sizeof *taps);
  return true;
}

static bool
broadband (const RwHrtfArrival *a, size_t n)
{
  for (size_t i = 0; i < n; i++)
    for (int b = 1; b < RW_N_OCTAVES; b++)
      if (a[i].gain[b] != a[i].gain[0])
        return false;
  return true;
}

/* The bands of acc (RW_N_OCTAVES × n), each filtered with its weight of
 * the complementary split (rw_air_split_bands, in place), summed into out. */
static bool
sum_split_bands (double *bands, size_t n, double fs, double *out, RwError *err)
{
  if (!rw_air_split_bands (bands, n, fs, NULL, err))
    return false;
  for (size_t i = 0; i < n; i++)
    {
      double y = 0.0;
      for (int b = 0; b < RW_N_OCTAVES; b++)
        y += bands[(size_t) b * n + i];
      out[i] = y;
    }
  return true;
}

bool
rw_hrtf_render_arrivals (const RwHrtf *h, const RwHrtfArrival *arrivals, size_t n_arrivals,
                         size_t n_samples, double *left, double *right, RwError *err)
{
  if (n_samples == 0 || left == NULL || right == NULL)
    return rw_fail (err, RW_ERROR_INPUT, _("binaural IR: no samples to render into"));
  if (n_arrivals > 0 && arrivals == NULL)
    return rw_fail (err, RW_ERROR_INTERNAL, "rw_hrtf_render_arrivals: NULL arrivals");
  for (size_t i = 0; i < n_arrivals; i++)
    {
      bool finite = isfinite (arrivals[i].time_s) && direction_ok (arrivals[i].direction);
      for (int b = 0; b < RW_N_OCTAVES; b++)
        finite = finite && isfinite (arrivals[i].gain[b]);
      if (!finite)
        return rw_fail (err, RW_ERROR_INPUT,
                        _("binaural IR: arrival %zu has a time, gain or direction that is not "
                          "finite, or a direction of length 0"),
                        i + 1);
    }
  const double fs = h->rate_hz;
  const bool bb = broadband (arrivals, n_arrivals);
  const size_t n_bands = bb ? 1 : RW_N_OCTAVES;
  const size_t len = h->n + KERNEL_TAPS;      /* a response after its kernel */
  double *acc = calloc (2 * n_bands * n_samples, sizeof *acc);  /* ear, band, sample */
  float *hrir = malloc (2 * h->n * sizeof *hrir);
  double *shaped = malloc (len * sizeof *shaped);
  bool ok = false;
  if (acc == NULL || hrir == NULL || shaped == NULL)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("binaural IR: out of memory for %zu samples"), n_samples);
      goto out;
    }
  for (size_t i = 0; i < n_arrivals; i++)
    {
      const RwHrtfArrival *a = &arrivals[i];
      double delay[2];
      if (!rw_hrtf_get (h, a->direction, hrir, hrir + h->n, &delay[0], &delay[1], err))
        goto out;
      for (int ear = 0; ear < 2; ear++)
        {
          /* Sample 0 of the response at pos = whole + frac samples. */
          double pos = (a->time_s - h->reference_delay_s + delay[ear]) * fs;
          /* A time meant as a whole sample that rounding left a hair off
             it gets the exact single-tap kernel. */
          if (fabs (pos - nearbyint (pos)) < 1e-9 * fmax (1.0, fabs (pos)))
            pos = nearbyint (pos);
          if (pos > (double) n_samples + RW_ISM_RENDER_HALF_WIDTH
              || pos + (double) len < 0.0)
            continue;
          const double whole = floor (pos);
          double taps[KERNEL_TAPS];
          if (!fraction_kernel (pos - whole, fs, taps, err))
            goto out;
          const float *x = hrir + (size_t) ear * h->n;
          memset (shaped, 0, len * sizeof *shaped);
          for (int j = 0; j < KERNEL_TAPS; j++)
            if (taps[j] != 0.0)
              for (size_t k = 0; k < h->n; k++)
                shaped[(size_t) j + k] += taps[j] * x[k];
          /* shaped[m] belongs to the whole sample − half-width + m. */
          const double first = whole - RW_ISM_RENDER_HALF_WIDTH;
          for (size_t b = 0; b < n_bands; b++)
            {
              const double g = a->gain[b];
              double *dst = acc + ((size_t) ear * n_bands + b) * n_samples;
              for (size_t m = 0; m < len; m++)
                {
                  const double t = first + (double) m;
                  if (t >= 0.0 && t < (double) n_samples)
                    dst[(size_t) t] += g * shaped[m];
                }
            }
        }
    }
  if (bb)
    {
      memcpy (left, acc, n_samples * sizeof *left);
      memcpy (right, acc + n_samples, n_samples * sizeof *right);
    }
  else if (!sum_split_bands (acc, n_samples, fs, left, err)
           || !sum_split_bands (acc + RW_N_OCTAVES * n_samples, n_samples, fs, right, err))
    goto out;
  ok = true;
out:
  free (acc);
  free (hrir);
  free (shaped);
  return ok;
}
