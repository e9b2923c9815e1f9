/* SPDX-License-Identifier: GPL-3.0-or-later */
/* analysis-bad-input: rw_analyse refuses what it cannot analyse with a
 * message (empty, non-finite, silent, rate below 1 kHz, fmax ≤ 0) and
 * leaves the result zeroed; it analyses what it can: a 0.1 s IR (short
 * smoothing intervals), a 16 kHz IR (the 8 kHz band, reaching 11.2 kHz, is
 * marked not analysed with the reason, the others analysed), and a
 * simulated IR with fmax = 700 Hz (the 500 Hz band's upper edge 707 Hz is
 * above fmax: flagged, values still computed; the bands from 1 kHz, wholly
 * above fmax, flagged and not analysed, with the reason). */
#include "rw-test.h"
#include "rw-analysis.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static float *
decay (size_t n, double rate, double T)
{
  float *x = malloc (n * sizeof *x);
  uint32_t s = 1;
  for (size_t i = 0; i < n; i++)
    {
      s = s * 1664525u + 1013904223u;
      double sign = (s >> 31) ? 1.0 : -1.0;
      x[i] = (float) (sign * exp (-0.5 * 13.8155 * (double) i / rate / T));
    }
  return x;
}

static bool
is_zeroed (const RwAnalysis *a)
{
  static const RwAnalysis zero;
  return memcmp (a, &zero, sizeof zero) == 0;
}

int
main (void)
{
  RwAnalysis a;
  RwError err = { 0 };
  float x[100] = { 0 };

  RW_CHECK (!rw_analyse (x, 0, 48000, INFINITY, &a, &err), "empty IR accepted");
  RW_CHECK (strstr (err.message, "empty") != NULL && is_zeroed (&a), "empty: %s", err.message);
  RW_CHECK (!rw_analyse (x, 100, 48000, INFINITY, &a, &err), "silent IR accepted");
  RW_CHECK (strstr (err.message, "silent") != NULL && is_zeroed (&a), "silent: %s", err.message);
  x[10] = 1.0f;
  x[20] = NAN;
  RW_CHECK (!rw_analyse (x, 100, 48000, INFINITY, &a, &err), "NaN accepted");
  RW_CHECK (strstr (err.message, "non-finite") != NULL, "NaN: %s", err.message);
  x[20] = INFINITY;
  RW_CHECK (!rw_analyse (x, 100, 48000, INFINITY, &a, &err), "infinity accepted");
  x[20] = 0.0f;
  RW_CHECK (!rw_analyse (x, 100, 500, INFINITY, &a, &err), "500 Hz rate accepted");
  RW_CHECK (strstr (err.message, "500") != NULL, "rate: %s", err.message);
  RW_CHECK (!rw_analyse (x, 100, 48000, 0.0, &a, &err), "fmax 0 accepted");
  RW_CHECK (!rw_analyse (x, 100, 48000, NAN, &a, &err), "fmax NaN accepted");

  /* Odd but valid signals: analysed or refused with a message, never a
   * crash or a non-finite value where a number is given (run under
   * ASan/UBSan in CI). */
  {
    size_t n = 48000;
    float *odd = calloc (n, sizeof *odd);
    uint32_t r = 7;
    for (int kind = 0; kind < 6; kind++)
      {
        size_t len = kind == 5 ? 25 : n;
        for (size_t i = 0; i < n; i++)
          {
            r = r * 1664525u + 1013904223u;
            double u = (double) r / 4294967296.0 - 0.5;
            odd[i] = kind == 0 ? (i == 100 ? 1.0f : 0.0f)          /* one impulse */
                   : kind == 1 ? 0.5f                                /* DC */
                   : kind == 2 ? (float) u                           /* white noise, no decay */
                   : kind == 3 ? ((i / 50) % 2 ? 1.0f : -1.0f)       /* square wave */
                   : kind == 4 ? (float) (u * exp (4.0 * (double) i / n))  /* growing */
                   : (float) u;                                      /* 25 samples */
          }
        RwError e2 = { 0 };
        if (rw_analyse (odd, len, 48000, INFINITY, &a, &e2))
          {
            for (int k = 0; k < RW_ANALYSIS_N_BANDS; k++)
              {
                const RwBandResult *b = &a.bands[k];
                double v[] = { b->edt.value_s, b->t20.value_s, b->t30.value_s, b->C50_db,
                               b->C80_db, b->D50, b->Ts_s };
                for (size_t j = 0; j < sizeof v / sizeof v[0]; j++)
                  RW_CHECK (isnan (v[j]) || isfinite (v[j]), "odd signal %d band %d value %zu "
                            "infinite", kind, k, j);
                RW_CHECK (!isfinite (b->t30.value_s) || b->t30.value_s > 0.0,
                          "odd signal %d band %d: T30 %g", kind, k, b->t30.value_s);
              }
            rw_analysis_clear (&a);
          }
        else
          RW_CHECK (e2.message[0] != '\0', "odd signal %d refused without a message", kind);
      }
    free (odd);
  }

  /* 0.1 s, T = 0.15 s: 40 dB of decay, enough for EDT. */
  float *s = decay (4800, 48000, 0.15);
  bool ok = rw_analyse (s, 4800, 48000, INFINITY, &a, &err);
  RW_CHECK (ok, "0.1 s IR: %s", err.message);
  if (ok)
    {
      RW_NOTE ("0.1 s IR: EDT %.4f s, T20 %.4f, range %.1f dB", a.bands[8].edt.value_s,
               a.bands[8].t20.value_s, a.bands[8].decay_range_db);
      RW_CHECK_CLOSE (a.bands[RW_ANALYSIS_BROADBAND].edt.value_s, 0.15, 0.003, "short IR EDT");
      rw_analysis_clear (&a);
      rw_analysis_clear (&a);   /* twice is harmless */
    }
  free (s);

  /* 16 kHz. */
  s = decay (16000, 16000, 0.5);
  ok = rw_analyse (s, 16000, 16000, INFINITY, &a, &err);
  RW_CHECK (ok, "16 kHz IR: %s", err.message);
  if (ok)
    {
      RW_CHECK (!a.bands[7].analysed && isnan (a.bands[7].t30.value_s)
                && isnan (a.bands[7].C50_db), "8 kHz band analysed at 16 kHz");
      RW_CHECK (strstr (a.bands[7].absent_reason, "Nyquist") != NULL, "reason: %s",
                a.bands[7].absent_reason);
      RW_CHECK (strstr (a.bands[7].t30.absent_reason, "Nyquist") != NULL, "fit reason: %s",
                a.bands[7].t30.absent_reason);
      for (int k = 0; k < 7; k++)
        RW_CHECK (a.bands[k].analysed && isfinite (a.bands[k].C80_db), "band %d at 16 kHz", k);
      rw_analysis_clear (&a);
    }
  free (s);

  /* fmax = 700 Hz. */
  s = decay (48000, 48000, 0.5);
  ok = rw_analyse (s, 48000, 48000, 700.0, &a, &err);
  RW_CHECK (ok, "fmax 700: %s", err.message);
  if (ok)
    {
      for (int k = 0; k < RW_N_OCTAVES; k++)
        {
          RW_CHECK (a.bands[k].above_fmax == (k >= 3), "band %g Hz above_fmax %d",
                    a.bands[k].centre_hz, a.bands[k].above_fmax);
          /* From 1 kHz (lower edge 708 Hz) wholly above fmax: not analysed. */
          RW_CHECK (a.bands[k].analysed == (k < 4), "band %g Hz analysed %d",
                    a.bands[k].centre_hz, a.bands[k].analysed);
          if (k >= 4)
            RW_CHECK (isnan (a.bands[k].edt.value_s) && isnan (a.bands[k].C50_db)
                      && strstr (a.bands[k].absent_reason, "above fmax") != NULL,
                      "band %g Hz: %s", a.bands[k].centre_hz, a.bands[k].absent_reason);
        }
      RW_CHECK (isfinite (a.bands[3].C80_db) && isfinite (a.bands[3].edt.value_s),
                "straddling band still computed");
      RW_CHECK (!a.bands[RW_ANALYSIS_BROADBAND].above_fmax, "broadband flagged");
      char *json = rw_analysis_to_json (&a, "ir.wav");
      RW_CHECK (json && strstr (json, "\"above_fmax\":true") != NULL, "JSON flag: %.200s",
                json ? json : "(null)");
      RW_CHECK (json && strstr (json, "\"fmax_hz\":700") != NULL, "JSON fmax");
      free (json);
      rw_analysis_clear (&a);
    }
  free (s);
  return rw_test_finish ();
}
