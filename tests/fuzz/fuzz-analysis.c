/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-analysis — libFuzzer target for the analysis of an impulse
 * response (rw_analyse, rw_analysis_to_json, rw_frequency_response) on
 * arbitrary samples: the first two bytes give the rate (1 to 197 kHz), the
 * third fmax (0: unknown) and the smoothing, the rest int16 samples (scaled
 * down to 1e-30 for even third bytes: denormal-range IRs). Any input must
 * end in a result or an RwError. tests/fuzz/run.sh builds and runs it. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "rw-analysis.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size < 4)
    return 0;
  /* rate: 1 kHz … 192 kHz from two bytes; fmax from one; samples: int16 */
  double rate = 1000.0 + (double) (data[0] | (data[1] << 8)) * 3.0;
  double fmax = data[2] == 0 ? INFINITY : 20.0 * data[2];
  size_t n = (size - 3) / 2;
  float *ir = malloc ((n ? n : 1) * sizeof *ir);
  for (size_t i = 0; i < n; i++)
    {
      int16_t v;
      memcpy (&v, data + 3 + 2 * i, 2);
      ir[i] = (float) v / 32768.0f * (data[2] & 1 ? 1.0f : 1e-30f);
    }
  RwAnalysis a;
  RwError err = { 0 };
  if (rw_analyse (ir, n, rate, fmax, &a, &err))
    {
      free (rw_analysis_to_json (&a, NULL));
      rw_analysis_clear (&a);
    }
  RwSpectrum sp;
  if (rw_frequency_response (ir, n, rate, data[2] % 25, 20, 20000, 0, &sp, &err))
    rw_spectrum_clear (&sp);
  free (ir);
  return 0;
}
