/* SPDX-License-Identifier: GPL-3.0-or-later */
/* solver-energy-branches: with frequency-dependent surfaces the FV
 * scheme's total energy — the field's plus what the branches store
 * (rw-scheme.h) — never increases once the source has stopped, in fp64
 * and fp32, over 10⁶ steps; with the branches removed and Y0 = 0 the
 * field alone is conserved to 1e-9.
 *
 * Rooms: a small box and a small L-shaped room (boundary nodes with K = 3,
 * 4 and 5, re-entrant corners), one surface carrying the material. The
 * admittances are chosen to stress the update: a sharp resonance (Q = 30)
 * at a low frequency, a stiff branch (large F), a heavy mass (large D), a
 * branch with no resistance (E = 0: lossless, energy only exchanged), and
 * a mix of all with a conductance. Every element is ≥ 0, as the fit
 * guarantees. The source is a doublet (no net volume) at step 0.
 *
 * With the argument "library" (test solver-energy-library), every row of
 * the library alone in a smaller box (4 × 4 × 3 cells) (every surface carrying
 * it), fitted as a simulation fits it (rw_admittance_fit_alpha over the
 * bands of fmax 1 kHz and one beyond), at the time step of a 1 kHz run
 * (h for 7.75 points a wavelength, k = λ h / c) and of a 250 Hz run (four
 * times longer: D̂ = D/k smaller, F̂ = F k larger), fp32 and fp64, the same
 * checks, over 10⁶ steps at the 1 kHz step and 10⁵ at the 250 Hz one (the
 * 156 runs take about 6 minutes in CI's sanitizer build otherwise). Before
 * the growth monitor read right after the source and had its floor for
 * frequency-dependent rooms, it called up to 13 of these runs unstable.
 *
 * Checked: energy read after every step for the first 4096 steps and then
 * every 4096 steps up to 10⁶.
 *  - fp64: no reading above the previous one by more than 1e-12 E0, and
 *    the last not above the first by more than 1e-9 (rounding drift of the
 *    lossless cases over 10⁶ steps).
 *  - fp32: fields and states rounded to fp32 each step, the node's update
 *    in double (rw-scheme.h, RW_DEFINE_BRANCHES): no reading above the
 *    previous one by more than 1e-6 E0 (rounding of the stored values), and
 *    none above the first by more than 1e-5 E0. Before the update was in
 *    double, a heavy mass branch (D̂ = 10⁴) gained energy steadily, 1.4e-8 E0
 *    a step, +1.4 % over 10⁶ steps: this check fails then.
 * RW_ENERGY_STEPS sets the run length. */
#include "rw-test.h"
#include "test-solver-grid.h"
#include "rw-admittance.h"
#include "rw-materials.h"
#include "rw-physics.h"

#include <string.h>

#define FS 20000.0

static void
run_k (const char *room, RwGrid *g, const char *name, const RwAdmittance *Y, RwPrecision prec,
       size_t n_steps, bool conserve, double k)
{
  /* one surface (the test grids') or every surface carrying Y */
  double R[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };
  RwAdmittance Ys[8];
  for (size_t i = 0; i < 8; i++)
    Ys[i] = *Y;
  if (g->n_surfaces > 8)
    {
      RW_CHECK (false, "%s: %zu surfaces", room, g->n_surfaces);
      return;
    }
  double *sig = malloc (n_steps * sizeof (double));
  size_t src = test_cell (g, 1, 2, 1);
  RwSolverSetup su = test_setup (g, R, RW_BOUNDARY_FV, prec, n_steps, sig, src, 0, NULL);
  sig[1] = -1.0;
  su.surface_Y = Ys;
  su.time_step_s = k;
  su.threads = 1;
  RwError err;
  RwSolver *s = rw_solver_new (&su, RW_BACKEND_CPU, &err);
  RW_CHECK (s != NULL, "rw_solver_new: %s", s ? "" : err.message);
  if (s == NULL)
    {
      free (sig);
      return;
    }
  const bool f64 = prec == RW_PRECISION_F64;
  bool ok = rw_solver_advance (s, 2, &err);
  double e0 = NAN, prev = NAN, worst_rise = 0.0, e_half = NAN, peak = 0.0, late_rise = 0.0;
  size_t rises = 0, step = 2;
  ok = ok && rw_solver_energy (s, &e0, &err);
  prev = e0;
  while (ok && step < n_steps)
    {
      size_t chunk = step < 4096 ? 1 : 4096;
      if (chunk > n_steps - step)
        chunk = n_steps - step;
      double e = NAN;
      ok = rw_solver_advance (s, chunk, &err) && rw_solver_energy (s, &e, &err);
      step += chunk;
      if (!ok)
        break;
      double rise = (e - prev) / e0;
      if (!(rise <= 1e-12))
        rises++;
      if (!(rise <= worst_rise))
        worst_rise = rise;
      if (!(e <= peak))
        peak = e;
      if (isnan (e_half) && step >= n_steps / 2)
        e_half = e;
      else if (!isnan (e_half) && !((e - e_half) / e0 <= late_rise))
        late_rise = (e - e_half) / e0;
      prev = e;
    }
  RW_CHECK (ok, "%s %s %s: %s", room, name, rw_precision_name (prec), ok ? "" : err.message);
  RW_NOTE ("%s %-15s %s: %zu steps, E_end/E0 = %.6g, max E/E0 = %.6g, largest rise %.3g E0 "
           "(%zu readings rose), second half rose %.3g E0", room, name, rw_precision_name (prec),
           step, prev / e0, peak / e0, worst_rise, rises, late_rise);
  if (f64)
    {
      RW_CHECK (rises == 0, "%s %s f64: the energy rose %zu times (largest %.3g E0)", room, name,
                rises, worst_rise);
      RW_CHECK (prev <= e0 * (1 + 1e-9), "%s %s f64: E_end/E0 = %.12g", room, name, prev / e0);
    }
  else
    {
      RW_CHECK (worst_rise <= 1e-6, "%s %s f32: the energy rose by %.3g E0 in one reading", room,
                name, worst_rise);
      RW_CHECK (peak <= (1 + 1e-5) * e0, "%s %s f32: the energy reached %.9g E0", room, name,
                peak / e0);
    }
  if (conserve)
    RW_CHECK (fabs (prev / e0 - 1.0) < 1e-9, "%s %s: lossless energy ratio %.12f", room, name, prev / e0);
  rw_solver_free (s);
  free (sig);
}

static void
run (const char *room, RwGrid *g, const char *name, const RwAdmittance *Y, RwPrecision prec,
     size_t n_steps, bool conserve)
{
  run_k (room, g, name, Y, prec, n_steps, conserve, 1.0 / FS);
}

/* Every library row alone in a 4 × 4 × 3-cell box (every node on the
 * boundary but four, so that the branches carry most of the energy, and
 * small enough for 156 runs of 10⁶ steps under the sanitizers of CI),
 * fitted as a run at 1 kHz fits it, at the time steps of 1 kHz (10⁶
 * steps) and 250 Hz runs (10⁵). */
static void
library (size_t n_steps)
{
  double size[3] = { 4, 4, 3 };
  RwGrid *box = test_grid_new (4, 4, 3, 0.1, NULL, size);
  RwError err = { 0 };
  RwMaterialLibrary *lib = rw_materials_load (NULL, &err);
  RW_CHECK (lib != NULL && lib->n > 0, "the library: %s", lib ? "empty" : err.message);
  if (lib == NULL)
    return;
  const double c = rw_speed_of_sound (20.0);
  const double fmax[2] = { 1000.0, 250.0 };
  size_t n_fd = 0;
  for (size_t i = 0; i < lib->n; i++)
    {
      RwAdmittance Y;
      RwFitReport rep;
      const int nb = rw_admittance_bands_for_fmax (1000.0);
      if (!rw_admittance_fit_alpha (lib->items[i].alpha, nb, &Y, &rep, &err))
        {
          RW_CHECK (false, "%s: %s", lib->items[i].name, err.message);
          continue;
        }
      n_fd += Y.n_branches > 0;
      for (int f = 0; f < 2; f++)
        {
          const double k = RW_COURANT_3D * rw_spacing_for_fmax (c, fmax[f], RW_DEFAULT_PPW) / c;
          char name[96];
          snprintf (name, sizeof name, "%.40s (%d br, k %.3g s)", lib->items[i].name, Y.n_branches, k);
          /* 10⁶ steps at the 1 kHz run's step, 10⁵ at the 250 Hz one's
           * (CI runs this under the sanitizers) */
          for (int prec = RW_PRECISION_F32; prec <= RW_PRECISION_F64; prec++)
            run_k ("box", box, name, &Y, (RwPrecision) prec, f == 0 ? n_steps : n_steps / 10,
                   false, k);
        }
    }
  RW_NOTE ("library: %zu rows, %zu of them frequency-dependent at 1 kHz", lib->n, n_fd);
  RW_CHECK (n_fd >= lib->n / 2, "only %zu of %zu rows frequency-dependent", n_fd, lib->n);
  rw_materials_free (lib);
  rw_grid_free (box);
}

int
main (int argc, char **argv)
{
  /* "library": the library's rows (test solver-energy-library); else the
   * stress cases */
  const bool lib_only = argc > 1 && strcmp (argv[1], "library") == 0;
  const char *env = getenv ("RW_ENERGY_STEPS");
  const size_t n_steps = env != NULL && atol (env) > 0 ? (size_t) atol (env) : 1000000;
  double size[3] = { 7, 6, 5 };
  RwGrid *box = test_grid_new (7, 6, 5, 0.1, NULL, size);
  RwGrid *ell = test_grid_new (7, 6, 5, 0.1, test_inside_l, size);

  const double w = 2 * M_PI * 80.0;
  RwAdmittance sharp = { 0 }, stiff = { 0 }, heavy = { 0 }, lossless = { 0 }, mix = { 0 }, bare = { 0 };
  sharp.n_branches = 1;
  sharp.branch[0] = (RwBranch) { 30.0 * 0.5 / w, 0.5, 30.0 * 0.5 * w };   /* Q = 30 at 80 Hz */
  stiff.n_branches = 1;
  stiff.branch[0] = (RwBranch) { 0.0, 0.2, 5e5 };
  heavy.n_branches = 1;
  heavy.branch[0] = (RwBranch) { 0.5, 0.1, 0.0 };
  lossless.n_branches = 2;
  lossless.branch[0] = (RwBranch) { 1e-3, 0.0, 1e-3 * w * w };
  lossless.branch[1] = (RwBranch) { 0.0, 0.0, 2e4 };
  mix.Y0 = 0.05;
  mix.n_branches = 4;
  mix.branch[0] = sharp.branch[0];
  mix.branch[1] = stiff.branch[0];
  mix.branch[2] = heavy.branch[0];
  mix.branch[3] = (RwBranch) { 2e-4, 1.0, 2e-4 * pow (2 * M_PI * 1000.0, 2) };
  struct { const char *name; const RwAdmittance *Y; bool conserve; } mats[] = {
    { "Q 30 resonance", &sharp, false }, { "stiff", &stiff, false }, { "heavy", &heavy, false },
    { "no resistance", &lossless, false }, { "mix", &mix, false }, { "no branch, Y0 0", &bare, true },
  };
  struct { const char *name; RwGrid *g; } rooms[] = { { "box", box }, { "L  ", ell } };
  for (size_t r = 0; r < 2 && !lib_only; r++)
    for (size_t m = 0; m < sizeof mats / sizeof mats[0]; m++)
      for (int prec = RW_PRECISION_F32; prec <= RW_PRECISION_F64; prec++)
        run (rooms[r].name, rooms[r].g, mats[m].name, mats[m].Y, (RwPrecision) prec,
             mats[m].conserve ? 20000 : n_steps, mats[m].conserve && prec == RW_PRECISION_F64);
  if (lib_only)
    library (n_steps);
  rw_grid_free (box);
  rw_grid_free (ell);
  return rw_test_finish ();
}
