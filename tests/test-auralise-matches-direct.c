/* SPDX-License-Identifier: GPL-3.0-or-later */
/* auralise-matches-direct: the uniformly partitioned overlap-save
 * convolution equals the direct time-domain sum y[n] = Σ_k x[n−k] h[k]
 * (computed in double) within 1e-6 relative L2 error, for IRs shorter and
 * longer than the block, lengths that are not multiples of the block, a
 * single-sample IR, mono, stereo, 4 and 16 channels; and the streaming engine fed block by
 * block gives the same as the whole-buffer call. */
#include "rw-test.h"
#include "rw-auralise.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static float
urand (void)
{
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (float) ((double) (rng >> 11) / (double) (1ull << 53) * 2.0 - 1.0);
}

static void
check_case (size_t n_in, size_t n_ir, size_t n_irs, size_t block)
{
  float *x = malloc (n_in * sizeof (float));
  float *h[RW_AURALISE_MAX_CHANNELS];
  for (size_t c = 0; c < RW_AURALISE_MAX_CHANNELS; c++)
    h[c] = malloc (n_ir * sizeof (float));
  size_t n_out = n_in + n_ir - 1;
  float *y = malloc (n_out * n_irs * sizeof (float));
  for (size_t i = 0; i < n_in; i++)
    x[i] = urand ();
  for (size_t c = 0; c < n_irs; c++)
    for (size_t i = 0; i < n_ir; i++)
      h[c][i] = urand () * expf (-(float) i / (float) (n_ir / 4 + 1));

  RwError err = { 0 };
  bool ok = rw_convolve (x, n_in, (const float *const *) h, n_irs, n_ir, block, y, &err);
  RW_CHECK (ok, "rw_convolve failed: %s", err.message);
  if (ok)
    for (size_t c = 0; c < n_irs; c++)
      {
        double num = 0.0, den = 0.0;
        for (size_t n = 0; n < n_out; n++)
          {
            double ref = 0.0;
            size_t k0 = n >= n_in ? n - n_in + 1 : 0;
            size_t k1 = n < n_ir ? n : n_ir - 1;
            for (size_t k = k0; k <= k1; k++)
              ref += (double) x[n - k] * (double) h[c][k];
            double d = y[n * n_irs + c] - ref;
            num += d * d;
            den += ref * ref;
          }
        double rel = sqrt (num / den);
        RW_NOTE ("in %zu, ir %zu, block %zu, channel %zu/%zu: relative L2 error %.3g",
                 n_in, n_ir, block, c + 1, n_irs, rel);
        RW_CHECK (rel < 1e-6, "in %zu ir %zu block %zu channel %zu: relative L2 error %.3g",
                  n_in, n_ir, block, c, rel);
      }

  /* The streaming engine, block by block, with a reset in between: the
   * same samples as the whole-buffer call. */
  RwConvolver *cv = rw_convolver_new ((const float *const *) h, n_irs, n_ir, block, &err);
  RW_CHECK (cv != NULL, "rw_convolver_new: %s", err.message);
  if (cv && ok)
    {
      float *bi = calloc (block, sizeof (float)), *bo = malloc (block * n_irs * sizeof (float));
      double maxdiff = 0.0;
      for (int pass = 0; pass < 2; pass++)
        {
          rw_convolver_reset (cv);
          for (size_t done = 0; done < n_out; done += block)
            {
              for (size_t i = 0; i < block; i++)
                bi[i] = done + i < n_in ? x[done + i] : 0.0f;
              rw_convolver_process (cv, bi, bo);
              for (size_t i = 0; i < block && done + i < n_out; i++)
                for (size_t c = 0; c < n_irs; c++)
                  maxdiff = fmax (maxdiff, fabs (bo[i * n_irs + c] - y[(done + i) * n_irs + c]));
            }
        }
      RW_CHECK (maxdiff == 0.0, "streaming differs from the whole-buffer call by %g", maxdiff);
      free (bi);
      free (bo);
    }
  rw_convolver_free (cv);
  free (x);
  for (size_t c = 0; c < RW_AURALISE_MAX_CHANNELS; c++)
    free (h[c]);
  free (y);
}

int
main (void)
{
  /* IR shorter than the block, one partition */
  check_case (5000, 100, 1, 256);
  /* IR longer than the block, not a multiple of it; input not a multiple */
  check_case (7777, 1000, 1, 256);
  check_case (3001, 2049, 2, 512);
  /* IR longer than the input */
  check_case (300, 4100, 2, 1024);
  /* block not a power of two */
  check_case (4000, 777, 1, 300);
  /* single-sample IR: the output is the input scaled */
  check_case (1000, 1, 2, 64);
  /* input shorter than one block */
  check_case (10, 50, 1, 4096);
  /* the default block with a longer IR (several partitions) */
  check_case (20000, 20000, 2, RW_AURALISE_DEFAULT_BLOCK);
  /* multichannel IRs: first- and third-order AmbiX (4 and 16 channels) */
  check_case (3001, 2049, 4, 512);
  check_case (5000, 1000, RW_AURALISE_MAX_CHANNELS, 256);

  /* Bad arguments are errors, not crashes. */
  RwError err = { 0 };
  float h = 1.0f;
  const float *hp[RW_AURALISE_MAX_CHANNELS + 1];
  for (int c = 0; c <= RW_AURALISE_MAX_CHANNELS; c++)
    hp[c] = &h;
  RW_CHECK (rw_convolver_new (hp, RW_AURALISE_MAX_CHANNELS + 1, 1, 256, &err) == NULL
            && err.code == RW_ERROR_INPUT, "17 IRs accepted");
  RW_CHECK (rw_convolver_new (hp, 0, 1, 256, &err) == NULL && err.code == RW_ERROR_INPUT,
            "no IR accepted");
  RW_CHECK (rw_convolver_new (hp, 1, 0, 256, &err) == NULL && err.code == RW_ERROR_INPUT,
            "empty IR accepted");
  RW_CHECK (rw_convolver_new (hp, 1, 1, 4, &err) == NULL && err.code == RW_ERROR_INPUT,
            "block of 4 accepted");
  return rw_test_finish ();
}
