/* SPDX-License-Identifier: GPL-3.0-or-later */
/* solver-modes-box: the eigenfrequencies of a rigid rectangular room.
 *
 * A 4.3 × 3.1 × 2.3 m box at h = 0.1 m (43 × 31 × 23 cells), R = 1, FV,
 * excited by an impulse near one corner and recorded near the opposite
 * one for 16384 steps (2.76 s at fs = c√3/h = 5944 Hz). Every analytic
 * mode below 100 Hz with no other mode within 3 Hz is looked for in the
 * spectrum (linear trend removed, Hann window, zero-padded ×8, parabolic
 * peak interpolation on the log magnitude) and must be found
 *  - within 1 % of the analytic f = c/2 · √((l/Lx)² + (m/Ly)² + (n/Lz)²),
 *  - within 0.01 % of the scheme's own discrete eigenfrequency.
 *
 * Effective room size: the grid is cell-centred and the FV boundary is a
 * Neumann wall half a cell beyond the outermost cell centres, so N cells
 * make a room of L = N·h (not (N − 1)·h as a node-centred grid would).
 * Dispersion: with λ² = 1/3 the discrete modes of the FV box are
 *   sin²(π f T) = λ² Σ_a sin²(π l_a / (2 N_a)),
 * (the 1-D graph Laplacian on N cells has eigenvalues 4 sin²(πl/2N)),
 * which lies below the analytic frequency by ≈ (π l/N)²/24 per axis:
 * 0.02 % for the first axial mode here, so the 1 % check has room for the
 * peak picking and the 0.01 % check proves the solver is that scheme. */
#include "rw-test.h"
#include "test-solver-grid.h"

#include "rw-physics.h"
#include "test-modes.h"

#define NX 43
#define NY 31
#define NZ 23
#define H 0.1
#define STEPS 16384
#define PAD 8

typedef struct { int l, m, n; double f, fd; } Mode;

int
main (void)
{
  const double c = rw_speed_of_sound (20.0);
  const double fs = rw_grid_rate (c, H), T = 1.0 / fs;
  const double L[3] = { NX * H, NY * H, NZ * H };
  const int N[3] = { NX, NY, NZ };

  /* Analytic and discrete modes below 100 Hz. */
  Mode modes[256];
  size_t n_modes = 0;
  for (int l = 0; l < 10; l++)
    for (int m = 0; m < 10; m++)
      for (int n = 0; n < 10; n++)
        {
          if (l + m + n == 0)
            continue;
          int idx[3] = { l, m, n };
          double s = 0, sd = 0;
          for (int a = 0; a < 3; a++)
            {
              s += pow (idx[a] / L[a], 2);
              sd += pow (sin (M_PI * idx[a] / (2.0 * N[a])), 2);
            }
          double f = c / 2 * sqrt (s);
          double fd = asin (sqrt (RW_LAMBDA2 * sd)) / (M_PI * T);
          if (f < 100.0 && n_modes < 256)
            modes[n_modes++] = (Mode) { l, m, n, f, fd };
        }

  RwGrid *g = test_grid_new (NX, NY, NZ, H, NULL, NULL);
  double R = 1.0, *sig = malloc (STEPS * sizeof (double));
  size_t rcv = test_cell (g, NX - 2, NY - 2, NZ - 2);
  RwSolverSetup su = test_setup (g, &R, RW_BOUNDARY_FV, RW_PRECISION_F64, STEPS, sig,
                                 test_cell (g, 1, 1, 1), 1, &rcv);
  RwError err;
  RwSolver *s = rw_solver_new (&su, RW_BACKEND_CPU, &err);
  RW_CHECK (s != NULL, "rw_solver_new: %s", s ? "" : err.message);
  if (s == NULL || !rw_solver_run (s, NULL, NULL, NULL, &err))
    {
      RW_CHECK (false, "run: %s", err.message);
      return rw_test_finish ();
    }
  const double *y = rw_solver_receiver (s, 0);

  size_t nfft;
  double *mag = test_modes_spectrum (y, STEPS, PAD, &nfft);
  const double df = fs / (double) nfft;

  size_t checked = 0;
  for (size_t i = 0; i < n_modes; i++)
    {
      bool isolated = true;
      for (size_t j = 0; j < n_modes; j++)
        if (j != i && fabs (modes[j].f - modes[i].f) < 3.0)
          isolated = false;
      if (!isolated)
        continue;
      double f;
      bool interior = test_modes_peak (mag, df, 0.98 * modes[i].f, 1.02 * modes[i].f, &f);
      double err_a = (f - modes[i].f) / modes[i].f, err_d = (f - modes[i].fd) / modes[i].fd;
      RW_NOTE ("mode (%d,%d,%d): analytic %.3f Hz, discrete %.3f Hz (dispersion %+.4f %%), "
               "found %.3f Hz (%+.3f %% from analytic, %+.4f %% from discrete)",
               modes[i].l, modes[i].m, modes[i].n, modes[i].f, modes[i].fd,
               100 * (modes[i].fd - modes[i].f) / modes[i].f, f, 100 * err_a, 100 * err_d);
      RW_CHECK (interior, "mode (%d,%d,%d): no peak near %.2f Hz",
                modes[i].l, modes[i].m, modes[i].n, modes[i].f);
      RW_CHECK (fabs (err_a) < 0.01, "mode (%d,%d,%d) %.3f Hz found at %.3f Hz",
                modes[i].l, modes[i].m, modes[i].n, modes[i].f, f);
      RW_CHECK (fabs (err_d) < 1e-4, "mode (%d,%d,%d): discrete %.3f Hz found at %.3f Hz",
                modes[i].l, modes[i].m, modes[i].n, modes[i].fd, f);
      checked++;
    }
  RW_NOTE ("%zu modes below 100 Hz, %zu isolated ones checked", n_modes, checked);
  RW_CHECK (checked >= 5, "only %zu isolated modes were checked", checked);

  free (mag);
  free (sig);
  rw_solver_free (s);
  rw_grid_free (g);
  return rw_test_finish ();
}
