/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sim-long-run-bounded: runs as long as users make them stay bounded and
 * follow fp64 (issue #10).
 *
 * Before λ² was rounded down for fp32 (rw-scheme.h), every fp32 run of a
 * reverberant room grew without bound once the room had decayed for a
 * second or two: in the plaster box at 300 Hz the receiver's RMS fell to
 * 8.7e-5 at 5 s and rose to 1.7e-3 at 12 s, with exit status 0. Short
 * fp32-vs-fp64 tests could not see it (its seed is rounding, its growth
 * 2.4e-4 a step).
 *
 * Each room is simulated through the engine's own path (rw_sim_solve:
 * voxelise, solve, low-pass, DC block, calibrate, 48 kHz) in fp64 and in
 * the precision under test, and the calibrated IR's energy in 1 s windows
 * is compared where fp64 is 60 dB above the tested precision's rounding
 * floor (relative to the first window: −120 dB for fp32; fp16 storage
 * levels off near −50 dB, so for it only boundedness is asserted):
 *  - the tested IR's window energy falls from each window to the next;
 *  - it stays within MAX_DB (0.25 dB; RW_LONG_RUN_MAX_DB) of fp64's.
 * For fp16 storage: no window exceeds the one before by more than 3 dB
 * (at its floor, near −50 dB, the level wanders by about 1.3 dB).
 * Either check fails, and so does the run itself (the growth monitor,
 * rw-solver.h), with the old λ². The second fails with the fp64 drift
 * model in place of the measured uniform mode (rw_solver_uniform_mode):
 * fp32's uniform mode oscillates slowly where fp64's settles, and the
 * model left that in the IR (0.3 dB at 4 s in the box at 300 Hz, 4.5 dB
 * at 6 s at 1200 Hz).
 *
 * Rooms: a 4 × 3 × 2.5 m box with plaster-like walls (R = 0.995) for
 * 12 s at 300 Hz and 5 s at 500 Hz, and a hall-like room (raked floor,
 * splayed walls, faceted rear wall; rw_shape_hall 20 × 12 × 8 m, R =
 * 0.98) for 5 s at 150 Hz. On the CPU by default; the GPU script
 * (tests/gpu/run.sh) runs it with RW_LONG_RUN_BACKEND=cuda and
 * RW_LONG_RUN_PRECISION=f32 or f16 and larger rooms with
 * RW_LONG_RUN_FMAX_SCALE (fmax × the scale: 2 kHz for 3 s at scale 4 in
 * the box). */
#include "rw-test.h"

#include <stdlib.h>
#include <string.h>

#include "rw-shapes.h"
#include "rw-sim.h"

/* The most a 1 s window of the tested precision may differ from fp64's
 * where fp64 is 60 dB above the rounding floor: RW_LONG_RUN_MAX_DB, else
 * 0.25 dB. The issue asks for 1 dB (tests/gpu/run.sh asks that of the
 * larger rooms); measured: under 0.05 dB on the CPU and on the GPU up to
 * 2 kHz (docs/SOLVER.md). 0.25 dB fails with the fp64 drift model (0.3
 * dB at 4 s in the box at 300 Hz; 2.3 dB on the GPU at 1200 Hz). */
static double max_db = 0.25;
#define MAX_DB max_db

typedef struct {
  const char *name;
  RwMesh *(*make) (void);
  double R, fmax_hz, duration_s;
  double source[3], receiver[3];
} Room;

static RwMesh *make_box (void) { return rw_shape_box (4, 3, 2.5); }
static RwMesh *make_hall (void) { return rw_shape_hall (20, 12, 8, 8); }

/* Window energies (1 s) of the calibrated IR; NULL after a failed run. */
static double *
run (const Room *room, RwBackendKind backend, RwPrecision prec, double fmax_hz, size_t *n_win)
{
  RwMesh *mesh = room->make ();
  double R[16];
  for (size_t s = 0; s < 16; s++)
    R[s] = room->R;
  RwSimConfig cfg;
  rw_sim_config_init (&cfg);
  cfg.fmax_hz = fmax_hz;
  cfg.duration_s = room->duration_s;
  memcpy (cfg.source, room->source, sizeof cfg.source);
  cfg.n_receivers = 1;
  memcpy (cfg.receivers[0], room->receiver, sizeof cfg.receivers[0]);
  cfg.backend = backend;
  cfg.precision = prec;
  RwSimResult res;
  memset (&res, 0, sizeof res);
  RwError err;
  bool ok = rw_sim_solve (&cfg, mesh, R, NULL, NULL, NULL, &res, &err);
  RW_CHECK (ok, "%s, %s, %g Hz: %s", room->name, rw_precision_name (prec), fmax_hz,
            ok ? "" : err.message);
  double *w = NULL;
  if (ok)
    {
      const size_t per = (size_t) res.fs_out_hz;
      *n_win = res.ir_frames / per;
      w = calloc (*n_win, sizeof *w);
      for (size_t k = 0; k < *n_win; k++)
        for (size_t i = k * per; i < (k + 1) * per; i++)
          w[k] += (double) res.ir[0][i] * (double) res.ir[0][i];
      RW_NOTE ("%s %s %g Hz, %s: %zu cells, %zu steps", room->name, rw_precision_name (prec),
               fmax_hz, res.backend, res.n_inside, res.n_steps_run);
    }
  rw_sim_result_clear (&res);
  rw_mesh_free (mesh);
  return w;
}

static void
check_room (const Room *room, RwBackendKind backend, RwPrecision prec, double scale)
{
  const double fmax = room->fmax_hz * scale;
  size_t n64 = 0, n = 0;
  double *ref = run (room, backend, RW_PRECISION_F64, fmax, &n64);
  double *got = run (room, backend, prec, fmax, &n);
  if (ref == NULL || got == NULL || n != n64 || n < 2)
    {
      RW_CHECK (ref != NULL && got != NULL && n == n64 && n >= 2, "%s: windows %zu, %zu",
                room->name, n, n64);
      free (ref);
      free (got);
      return;
    }
  const double floor_db = prec == RW_PRECISION_F16 ? -50.0 : -120.0;
  char line[1024];
  size_t len = 0;
  for (size_t k = 0; k < n; k++)
    {
      const double db64 = 10 * log10 (ref[k] / ref[0]), db = 10 * log10 (got[k] / ref[0]);
      len += (size_t) snprintf (line + len, sizeof line - len, " %.1f/%.1f", db, db64);
      if (len >= sizeof line)
        len = sizeof line - 1;
      if (k == 0)
        continue;
      if (prec == RW_PRECISION_F16)
        {
          RW_CHECK (got[k] <= got[k - 1] * 1.9953, "%s %g Hz fp16: window %zu s rises %.2f dB",
                    room->name, fmax, k, 10 * log10 (got[k] / got[k - 1]));
          continue;
        }
      if (db64 < floor_db + 60.0)
        continue;
      RW_CHECK (got[k] < got[k - 1], "%s %g Hz %s: window %zu s (%.1f dB) above window %zu s "
                "(%.1f dB)", room->name, fmax, rw_precision_name (prec), k, db,
                k - 1, 10 * log10 (got[k - 1] / ref[0]));
      RW_CHECK (fabs (db - db64) < MAX_DB, "%s %g Hz %s: window %zu s at %.2f dB, fp64 %.2f dB",
                room->name, fmax, rw_precision_name (prec), k, db, db64);
    }
  RW_NOTE ("%s %g Hz: window energy, dB re fp64's first window (%s/fp64):%s", room->name, fmax,
           rw_precision_name (prec), line);
  free (ref);
  free (got);
}

int
main (void)
{
  static const Room rooms[] = {
    { "plaster box", make_box, 0.995, 300, 12, { 1, 1, 1.2 }, { 2.9, 2.1, 1.5 } },
    { "plaster box", make_box, 0.995, 500, 5, { 1, 1, 1.2 }, { 2.9, 2.1, 1.5 } },
    { "hall", make_hall, 0.98, 150, 5, { 3, 6, 2.5 }, { 13, 4, 4 } },
  };
  RwBackendKind backend = RW_BACKEND_CPU;
  RwPrecision prec = RW_PRECISION_F32;
  const char *b = getenv ("RW_LONG_RUN_BACKEND"), *p = getenv ("RW_LONG_RUN_PRECISION");
  const char *sc = getenv ("RW_LONG_RUN_FMAX_SCALE");
  if ((b != NULL && !rw_backend_kind_parse (b, &backend))
      || (p != NULL && !rw_precision_parse (p, &prec)))
    {
      fprintf (stderr, "bad RW_LONG_RUN_BACKEND or RW_LONG_RUN_PRECISION\n");
      return 1;
    }
  const double scale = sc != NULL ? atof (sc) : 1.0;
  if (getenv ("RW_LONG_RUN_MAX_DB") != NULL && atof (getenv ("RW_LONG_RUN_MAX_DB")) > 0)
    max_db = atof (getenv ("RW_LONG_RUN_MAX_DB"));
  for (size_t r = 0; r < sizeof rooms / sizeof rooms[0]; r++)
    check_room (&rooms[r], backend, prec, scale > 0 ? scale : 1.0);
  return rw_test_finish ();
}
