/* SPDX-License-Identifier: GPL-3.0-or-later */
/* solver-reflection-bands: a plane wave meeting a wall of frequency-
 * dependent admittance Y(s) (rw-admittance.h) comes back with the
 * normal-incidence reflection factor R(f) = (1 − Y(j2πf))/(1 + Y(j2πf))
 * of the model, band by band: the FV boundary with branch states
 * (rw-scheme.h) against the analytic value of the admittance it was given.
 *
 * The plane wave lives in a column of 1 × 1 × N cells (the 1-D scheme
 * along z, as in solver-reflection-normal). The far end cell carries the
 * wall; of its five missing faces only the end face absorbs, which the
 * grid says as the voxeliser would (RwGrid.area: the end cell's absorbing
 * area is 1 face; the side faces, rigid, lie on the rigid surface). So the
 * test also proves that the FV update takes each node's area from the
 * grid: with the face count (5) the wall would act as 5 Y.
 *
 * Separation without windows: the same run in a column three times as
 * long (whose far end is heard only after the analysis window) gives the
 * incident wave alone, and the difference of the two receivers is the
 * reflected wave alone. A soft source at the near end (rigid behind it)
 * sends the time derivative of a Gaussian (no net volume); the window ends
 * before the reflection, reflected again at the near end, comes back.
 * Spectra by direct DFT at 32 log-spaced frequencies per octave band;
 * |R|² per band is the incident-energy-weighted mean, measured and model
 * alike. The grid is fine (h = 5 mm, 60 to 270 points per wavelength in
 * the bands checked) so that the FV boundary's own first-order error in kh
 * (its wall condition sits at the cell centre: solver-reflection-normal
 * measures +0.02 at kh ≈ 0.09 for R = 0) stays below the tolerance.
 * Checked: |R| per band within 0.02 of the model, 63 Hz … 1 kHz; and the
 * test fails with the branches left out (the wall then reflects as its
 * conductance alone).
 *
 * The same in a 3-D duct (4 × 4 cells across): the wall is then a plane of
 * end cells with its edges and corners, and the wave comes from a point
 * source in a corner of the near end (only the plane mode propagates below
 * 8.6 kHz); two hand-made walls and three library rows.
 *
 * Walls: two admittances made by hand, then every material of the bundled
 * library fitted as a simulation valid to 1 kHz fits it
 * (rw_admittance_fit_alpha over rw_admittance_bands_for_fmax (1000) = 6
 * bands): |R| per band 63 Hz … 1 kHz within 0.02 of the fitted model's,
 * and the model's random-incidence α per band within 0.03 of the row's
 * (limited bands: of the passive maximum 0.951). So every fit the solver
 * is given is a wall the FV boundary reproduces, whatever its branches.
 *
 * Cost: the incident wave (the long column) is the same for every wall
 * and runs once. The column is N = 2000 cells (10 m): the window holds the
 * reflection for 2 × 9 m of travel, 52 ms. Measured against N = 4000 (the
 * column before the library loop): the library's worst |R| difference is
 * 0.0077 at both lengths, each material's within 0.003 of its N = 4000
 * value, "three branches" at 1 kHz −0.0078 against −0.0112; at N = 1200
 * the truncated low-frequency tail of that wall leaks into its 1 kHz band
 * (+0.08), so not shorter. h stays 5 mm: at 1 kHz the FV wall's
 * first-order error in kh is already −0.008 for a strongly absorbing wall,
 * and it doubles with h. All 41 walls: 21–23 s on a loaded 2-core machine
 * (debugoptimized; 85 s with N = 4000). */
#include "rw-test.h"
#include "test-solver-grid.h"
#include "rw-admittance.h"
#include "test-reflection.h"
#include "rw-materials.h"

#define H 0.005
#define C 343.0
#define N 2000

/* Cross-section of the column in cells: 1 (the 1-D scheme), or DUCT_W for
 * the 3-D duct. */
static size_t column_w = 1;
#define DUCT_W 4

/* Runs a column of column_w × column_w × `len` cells with the wall
 * admittance `wall` on its far end (NULL: rigid) and returns the samples
 * (n_steps) of a receiver on its axis. */
static double *
run_column (size_t len, const RwAdmittance *wall, size_t rcv_z, size_t n_steps, double sigma,
            double t0)
{
  const size_t w = column_w;
  RwGrid *g = test_grid_new (w, w, len, H, NULL, NULL);
  g->n_surfaces = 2;
  /* the far end's cells carry the wall; each absorbs by its end face
   * alone (area 1 in index order; the others' area is their face count,
   * rigid anyway): in the duct, the end's edge and corner cells too */
  g->area = malloc (g->n_boundary * sizeof (float));
  const size_t n = g->nx * g->ny * g->nz;
  size_t rank = 0;
  for (size_t i = 0; i < n; i++)
    {
      if (g->K[i] == 0 || g->K[i] == 6)
        continue;
      const bool end = i / (g->nx * g->ny) == len;   /* interior z = len − 1 */
      if (end)
        g->surface[i] = 1;
      g->area[rank++] = end ? 1.0f : (float) (6 - g->K[i]);
    }
  RwAdmittance Y[2] = { rw_admittance_real (1.0), rw_admittance_real (1.0) };
  if (wall != NULL)
    Y[1] = *wall;
  double R[2] = { 1.0, 1.0 };
  double *sig = malloc (n_steps * sizeof (double));
  size_t rcv = test_cell (g, w / 2, w / 2, rcv_z);
  /* in the duct a point source in a corner of the near end: below the
   * first cross mode (c/2wh = 8.6 kHz) only the plane wave reaches the
   * receiver, 1800 cells on */
  RwSolverSetup su = test_setup (g, R, RW_BOUNDARY_FV, RW_PRECISION_F64, n_steps, sig,
                                 test_cell (g, 0, 0, 0), 1, &rcv);
  su.surface_Y = Y;
  su.time_step_s = H / (C * sqrt (3.0));
  for (size_t k = 0; k < n_steps; k++)
    {
      double u = ((double) k - t0) / sigma;
      sig[k] = -u * exp (-0.5 * u * u);
    }
  RwError err;
  RwSolver *s = rw_solver_new (&su, RW_BACKEND_CPU, &err);
  double *y = NULL;
  if (s != NULL && rw_solver_run (s, NULL, NULL, NULL, &err))
    {
      y = malloc (n_steps * sizeof (double));
      memcpy (y, rw_solver_receiver (s, 0), n_steps * sizeof (double));
    }
  else
    RW_CHECK (false, "run: %s", err.message);
  rw_solver_free (s);
  free (sig);
  rw_grid_free (g);
  return y;
}

/* The column's timing: the receiver 200 cells before the wall; the
 * window ends before the wall's reflection, reflected again at the near
 * end, comes back (after 2 (N − 1) + rcv_z cells). */
#define RCV_Z (N - 1 - 200)

static size_t
window_steps (void)
{
  const double lambda = 1.0 / sqrt (3.0);
  return (size_t) ((2.0 * (N - 1) + (double) RCV_Z) / lambda) - 400;
}

/* The incident wave alone: the column three times as long, rigid at the
 * far end, whose reflection is heard only after the window. The same for
 * every wall, so run once. */
static double *
run_free (void)
{
  const double fs = C * sqrt (3.0) / H;
  const double sigma = fs / (2.0 * M_PI * 250.0), t0 = 6.0 * sigma;   /* spectrum peak at 250 Hz */
  return run_column (3 * N, NULL, RCV_Z, window_steps (), sigma, t0);
}

/* |R| per band 0 … n_bands−1, measured and model; returns the worst
 * difference. y_free: run_free's incident wave. */
static double
check_wall (const char *name, const RwAdmittance *wall, int n_bands, const double *y_free)
{
  const double fs = C * sqrt (3.0) / H;
  const size_t window = window_steps ();
  const double sigma = fs / (2.0 * M_PI * 250.0), t0 = 6.0 * sigma;
  double *y_wall = run_column (N, wall, RCV_Z, window, sigma, t0);
  if (y_wall == NULL || y_free == NULL)
    {
      free (y_wall);
      return INFINITY;
    }
  double *refl = malloc (window * sizeof (double));
  for (size_t k = 0; k < window; k++)
    refl[k] = y_wall[k] - y_free[k];
  const double worst = test_reflection_bands (name, y_free, refl, window, fs, wall, n_bands);
  RW_CHECK (worst < 0.02, "%s: |R| per band off the model by up to %.4f", name, worst);
  free (refl);
  free (y_wall);
  return worst;
}

int
main (void)
{
  const RwAdmittance res = test_wall_resonant (), porous = test_wall_three_branches ();
  double *y_free = run_free ();
  check_wall ("resonant 500 Hz", &res, 5, y_free);
  check_wall ("three branches", &porous, 5, y_free);

  /* Every library material as a simulation valid to 1 kHz fits it: its
   * fitted admittance's |R| per band as measured, and its random-incidence
   * α per band (model) against the row's α (limited bands: against the
   * passive maximum, as admittance-fit-library). */
  RwError err = { 0 };
  RwMaterialLibrary *lib = rw_materials_load (NULL, &err);
  RW_CHECK (lib != NULL, "library: %s", err.message);
  const double amax = rw_statistical_absorption (1.5671);
  const int n_fit = rw_admittance_bands_for_fmax (1000.0);
  RW_CHECK (n_fit == 6, "bands fitted up to 1 kHz: %d", n_fit);
  double worst_r = 0, worst_a = 0;
  for (size_t i = 0; lib != NULL && i < lib->n; i++)
    {
      const RwMaterial *m = &lib->items[i];
      RwAdmittance a;
      if (!rw_admittance_fit_alpha (m->alpha, n_fit, &a, NULL, &err))
        {
          RW_CHECK (false, "%s: %s", m->name, err.message);
          continue;
        }
      double da = 0;
      for (int b = 0; b < 5; b++)
        {
          const double want = m->alpha[b] > amax ? amax : m->alpha[b];
          da = fmax (da, fabs (rw_admittance_band_alpha (&a, b, true) - want));
        }
      RW_CHECK (da <= 0.03, "%s: fitted α off the row's by %.4f", m->name, da);
      const double dr = check_wall (m->name, &a, 5, y_free);
      RW_NOTE ("%-24s %d branches: worst |R| measured − model %.4f, worst α model − row %.4f", m->name,
               a.n_branches, dr, da);
      worst_r = fmax (worst_r, dr);
      worst_a = fmax (worst_a, da);
    }
  RW_NOTE ("library, 63 Hz … 1 kHz: worst |R| difference %.4f, worst α difference %.4f", worst_r, worst_a);

  /* The 3-D duct: a 4 × 4-cell cross-section, so the wall is a plane of
   * end cells with edges and corners (K = 3, 4, 5), each absorbing by its
   * end face; the two hand-made walls and three library rows. */
  column_w = DUCT_W;
  double *y_duct = run_free ();
  check_wall ("duct: resonant 500 Hz", &res, 5, y_duct);
  check_wall ("duct: three branches", &porous, 5, y_duct);
  static const char *const rows[] = { "carpet on concrete", "acoustic tile", "heavy curtain" };
  for (size_t i = 0; lib != NULL && i < 3; i++)
    {
      const RwMaterial *m = rw_materials_find (lib, rows[i]);
      RwAdmittance a;
      char name[64];
      snprintf (name, sizeof name, "duct: %s", rows[i]);
      if (m != NULL && rw_admittance_fit_alpha (m->alpha, n_fit, &a, NULL, &err))
        check_wall (name, &a, 5, y_duct);
      else
        RW_CHECK (false, "%s: not in the library or not fitted", rows[i]);
    }
  free (y_duct);
  rw_materials_free (lib);
  free (y_free);
  return rw_test_finish ();
}
