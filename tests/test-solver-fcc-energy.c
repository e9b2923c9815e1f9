/* SPDX-License-Identifier: GPL-3.0-or-later */
/* solver-fcc-energy: the FCC scheme's discrete energy (rw-scheme-fcc.h) in
 * the CPU backend — conserved with rigid walls, never growing with
 * absorbing ones, frequency independent or with branches.
 *
 * Rooms on the FCC lattice: rw_grid_new_box_fcc (9 × 8 × 7 cells, exact
 * wall areas, corner sites whose links cross two walls) and an L-shaped
 * room (test_grid_fcc: 10 × 9 × 7 cells less a quarter, re-entrant edges,
 * boundary sites of K = 3 … 11, face-count areas). The source is a doublet
 * (s[0] = 1, s[1] = −1: no net volume, so no zero-frequency mode).
 *  1. Lossless (R = 1), fp64, 20000 steps: E (rw_field_energy of the field
 *     read back) stays within 1e-9 of E0 (measured ≤ 2e-14), and the
 *     backend's own reading (rw_solver_energy: the folded layout's sum)
 *     agrees with it to 1e-12.
 *  2. Frequency-independent walls, R = 0.7 and R = 0 (β = 1): after the
 *     source, no reading (every step for 2000 steps, then every 256 up to
 *     20000) above the previous one by more than 1e-12 E0 (fp64) or 1e-6
 *     E0 (fp32), and the energy falls by at least 20 dB.
 *  3. Branches (rw-admittance.h): four library rows spread over the
 *     library, fitted as a 1 kHz run fits
 *     them (rw_admittance_fit_alpha) at the FCC time step of that run
 *     (k = h/c, h for 7.75 points a wavelength), every surface carrying
 *     one, fp64 and fp32: the total energy — field plus what the branches
 *     store, (λ/2) S Σ (D̂ v² + F̂ q²) — as in 2. And a branch without
 *     resistance (E = 0, Y0 = 0: mass and spring only, energy exchanged
 *     and never lost) keeps the total within 1e-9 of E0 in fp64 over 20000
 *     steps: that proves the stored energy's FCC constant λ/2 (with the
 *     7-point λ the total swings by the branch's share). */
#include "rw-test.h"
#include "test-solver-fcc.h"
#include "rw-admittance.h"
#include "rw-materials.h"
#include "rw-physics.h"

#define STEPS 20000

/* Runs Y (NULL: β from R) on every surface of g; checks that the total
 * energy never rises after the source (tolerance rise_tol E0 per reading)
 * and, when conserve, that it stays within 1e-9 of E0; returns the last
 * reading over E0. */
static double
run (const char *room, const RwGrid *g, const char *name, double R, const RwAdmittance *Y,
     RwPrecision prec, double k, bool conserve)
{
  double *sig = malloc (STEPS * sizeof (double));
  const double Rs[1] = { R };
  size_t src = test_fcc_site (g, 2, 2, 2);
  RwSolverSetup su = test_setup (g, Rs, RW_BOUNDARY_FV, prec, STEPS, sig, src, 0, NULL);
  sig[1] = -1.0;
  su.surface_Y = Y;
  su.time_step_s = k;
  RwError err;
  RwSolver *s = rw_solver_new (&su, RW_BACKEND_CPU, &err);
  RW_CHECK (s != NULL, "%s %s: %s", room, name, s ? "" : err.message);
  if (s == NULL)
    {
      free (sig);
      return NAN;
    }
  const double rise_tol = prec == RW_PRECISION_F64 ? 1e-12 : 1e-6;
  double e0 = NAN, prev, worst_rise = 0, worst_dev = 0;
  bool ok = rw_solver_advance (s, 2, &err) && rw_solver_energy (s, &e0, &err);
  prev = e0;
  size_t step = 2;
  while (ok && step < STEPS)
    {
      size_t chunk = step < 2000 ? 1 : 256;
      if (chunk > STEPS - step)
        chunk = STEPS - step;
      double e;
      ok = rw_solver_advance (s, chunk, &err) && rw_solver_energy (s, &e, &err);
      step += chunk;
      if (!ok)
        break;
      worst_rise = fmax (worst_rise, (e - prev) / e0);
      worst_dev = fmax (worst_dev, fabs (e - e0) / e0);
      prev = e;
    }
  RW_CHECK (ok, "%s %s %s: %s", room, name, rw_precision_name (prec), ok ? "" : err.message);
  RW_NOTE ("%s %-26s %s: E_end/E0 = %.6g, largest rise %.3g E0, largest |E − E0| %.3g E0", room,
           name, rw_precision_name (prec), prev / e0, worst_rise, worst_dev);
  RW_CHECK (worst_rise <= rise_tol, "%s %s %s: the energy rose by %.3g E0", room, name,
            rw_precision_name (prec), worst_rise);
  if (conserve)
    RW_CHECK (worst_dev <= 1e-9, "%s %s %s: the energy moved by %.3g E0", room, name,
              rw_precision_name (prec), worst_dev);
  rw_solver_free (s);
  free (sig);
  return prev / e0;
}

/* 1: lossless, the field's energy read back and the backend's reading. */
static void
lossless (const char *room, const RwGrid *g)
{
  const double drift = test_energy_drift (g, RW_PRECISION_F64, STEPS, test_fcc_site (g, 2, 2, 2), 40);
  RW_NOTE ("%s lossless fp64: largest |E − E0|/E0 over %d steps %.3g", room, STEPS, drift);
  RW_CHECK (drift < 1e-9, "%s: lossless energy drift %.3g", room, drift);

  double *sig = malloc (300 * sizeof (double)), R = 1.0;
  RwSolverSetup su = test_setup (g, &R, RW_BOUNDARY_FV, RW_PRECISION_F64, 300, sig,
                                 test_fcc_site (g, 3, 2, 2), 0, NULL);
  RwError err;
  RwSolver *s = rw_solver_new (&su, RW_BACKEND_CPU, &err);
  double e = NAN;
  RW_CHECK (s != NULL && rw_solver_advance (s, 300, &err) && rw_solver_energy (s, &e, &err),
            "%s: %s", room, err.message);
  const double e_field = s != NULL ? test_energy (s, g) : NAN;
  RW_CHECK (fabs (e - e_field) <= 1e-12 * e_field, "%s: the backend's energy %.17g, the field's "
            "%.17g", room, e, e_field);
  rw_solver_free (s);
  free (sig);
}

int
main (void)
{
  const double c = rw_speed_of_sound (20.0);
  double size[3] = { 10, 9, 7 };
  RwGrid *box = rw_grid_new_box_fcc (9, 8, 7, 0.1);
  RwGrid *ell = test_grid_fcc (10, 9, 7, 0.1, test_inside_l, size);
  const struct { const char *name; RwGrid *g; } rooms[] = { { "box", box }, { "L  ", ell } };

  for (int r = 0; r < 2; r++)
    lossless (rooms[r].name, rooms[r].g);

  /* 2. frequency-independent walls */
  const double k1 = rw_spacing_for_fmax (c, 1000.0, RW_DEFAULT_PPW) / (RW_COURANT_FCC * c);
  for (int r = 0; r < 2; r++)
    for (int prec = RW_PRECISION_F32; prec <= RW_PRECISION_F64; prec++)
      {
        const double R[2] = { 0.7, 0.0 };
        for (int i = 0; i < 2; i++)
          {
            char name[32];
            snprintf (name, sizeof name, "R = %.1f", R[i]);
            double fall = run (rooms[r].name, rooms[r].g, name, R[i], NULL, (RwPrecision) prec,
                               k1, false);
            RW_CHECK (fall < 0.01, "%s %s: the energy fell only to %.3g E0", rooms[r].name, name,
                      fall);
          }
      }

  /* 3. branches: library rows, and one without resistance */
  RwError err = { 0 };
  RwMaterialLibrary *lib = rw_materials_load (NULL, &err);
  RW_CHECK (lib != NULL && lib->n > 0, "the library: %s", lib ? "empty" : err.message);
  size_t n_fd = 0;
  /* four frequency-dependent rows spread over the library (its order
   * groups materials: masonry, panels, absorbers, …) */
  const size_t stride = lib != NULL && lib->n > 8 ? lib->n / 5 : 1;
  for (size_t j = 0; lib != NULL && j < lib->n && n_fd < 4; j++)
    {
      const size_t i = (j * stride + j / 5) % lib->n;
      RwAdmittance Y;
      RwFitReport rep;
      if (!rw_admittance_fit_alpha (lib->items[i].alpha, rw_admittance_bands_for_fmax (1000.0), &Y,
                                    &rep, &err))
        {
          RW_CHECK (false, "%s: %s", lib->items[i].name, err.message);
          continue;
        }
      if (Y.n_branches == 0)
        continue;
      n_fd++;
      char name[48];
      snprintf (name, sizeof name, "%.30s (%d br)", lib->items[i].name, Y.n_branches);
      const double R = (1 - Y.Y0) / (1 + Y.Y0);
      for (int r = 0; r < 2; r++)
        for (int prec = RW_PRECISION_F32; prec <= RW_PRECISION_F64; prec++)
          run (rooms[r].name, rooms[r].g, name, R, &Y, (RwPrecision) prec, k1, false);
    }
  RW_CHECK (n_fd == 4, "only %zu frequency-dependent library rows", n_fd);
  rw_materials_free (lib);

  const double w = 2 * M_PI * 150.0;
  RwAdmittance swing = { 0 };
  swing.n_branches = 2;
  swing.branch[0] = (RwBranch) { 2e-3, 0.0, 2e-3 * w * w };   /* a resonator at 150 Hz */
  swing.branch[1] = (RwBranch) { 0.0, 0.0, 3e3 };              /* a spring */
  for (int r = 0; r < 2; r++)
    run (rooms[r].name, rooms[r].g, "no resistance", 1.0, &swing, RW_PRECISION_F64, k1, true);

  rw_grid_free (box);
  rw_grid_free (ell);
  return rw_test_finish ();
}
