/* SPDX-License-Identifier: GPL-3.0-or-later */
/* solver-fcc-modes-box: the eigenfrequencies of a rigid rectangular room
 * on the FCC lattice (issue #14), as solver-modes-box checks them for the
 * 7-point scheme, and how they converge.
 *
 * A 4.4 × 3.2 × 2.4 m room, rw_grid_new_box_fcc at h = 0.1 m (44 × 32 × 24
 * cells, 16384 steps, 4.8 s) and at h = 0.2 m (22 × 16 × 12, 8192 steps,
 * the same 4.8 s), R = 1, FV, fs = c/h (rw_grid_rate_fcc: λ = 1), an
 * impulse at a site near one corner recorded at a site near the opposite
 * one. Every analytic mode f = c/2 · √((l/Lx)² + (m/Ly)² + (n/Lz)²) below
 * 130 Hz with no other within ±7 % (the first four: three axial, one
 * tangential) is looked for in both spectra
 * (test-modes.h: trend removed, Hann window, ×8 zero padding, parabolic
 * interpolation) between −3 % (h = 0.1 m) or −6 % (0.2 m) and +1 % of it.
 *
 * The wall: rw-scheme-fcc.h's FV form with its wall links ("Wall
 * links"). Without them a boundary site keeps its whole cell and loses
 * the links to outside sites, so a site of the layer next to a y wall
 * lacks 2 of its 8 links with an x component and an x-axial mode sees
 * less stiffness there: measured −1.4 … −2.4 % at h = 0.1 m, first order
 * in h, Δf/f = −(1.02 … 1.05) · (h/Ly + h/Lz)/4 (the 7-point scheme's
 * axis-aligned wall is an exact mirror and has no such term). With the
 * wall links (measured): −0.001 … −0.017 % at h = 0.1 m, −0.010 …
 * −0.085 % at 0.2 m, converging at second order. So checked:
 *  - every mode within 0.2 % at h = 0.1 m and 0.5 % at 0.2 m (the brief
 *    asks for 1 %);
 *  - faster than first-order convergence: the error at h = 0.1 m at most
 *    0.4 of that at 0.2 m (+ 0.02 % for the peak picking).
 * What fails it: the wall links left out (every axial mode 1.4 … 2.4 %
 * low), their weight W = 1 for ½ (the
 * modes 2 … 3 % high), a wrong time step (the
 * 7-point λ = 1/√3: 73 %), a room a cell short on an axis (an error that
 * does not shrink), a wrong offset or
 * stencil weight (no peak, or one that moves with h). */
#include "rw-test.h"
#include "test-solver-fcc.h"
#include "test-modes.h"

#include "rw-physics.h"

#define LX 4.4
#define LY 3.2
#define LZ 2.4
#define PAD 8
#define MAX_MODES 64

typedef struct { int l, m, n; double f; } Mode;

/* The frequencies found for modes[0 … n) at spacing h over n_steps
 * (NAN where no peak). */
static void
find_modes (double h, size_t n_steps, const Mode *modes, size_t n, double *found)
{
  const double c = rw_speed_of_sound (20.0), fs = rw_grid_rate_fcc (c, h);
  const size_t N[3] = { (size_t) lround (LX / h), (size_t) lround (LY / h), (size_t) lround (LZ / h) };
  RwGrid *g = rw_grid_new_box_fcc (N[0], N[1], N[2], h);
  double R = 1.0, *sig = malloc (n_steps * sizeof (double));
  size_t rcv = test_fcc_site (g, N[0] - 2, N[1] - 2, N[2] - 2);
  RwSolverSetup su = test_setup (g, &R, RW_BOUNDARY_FV, RW_PRECISION_F64, n_steps, sig,
                                 test_fcc_site (g, 1, 1, 1), 1, &rcv);
  RwError err;
  RwSolver *s = rw_solver_new (&su, RW_BACKEND_CPU, &err);
  for (size_t i = 0; i < n; i++)
    found[i] = NAN;
  if (s == NULL || !rw_solver_run (s, NULL, NULL, NULL, &err))
    RW_CHECK (false, "h = %g: %s", h, err.message);
  else
    {
      size_t nfft;
      double *mag = test_modes_spectrum (rw_solver_receiver (s, 0), n_steps, PAD, &nfft);
      for (size_t i = 0; i < n; i++)
        {
          double f;
          if (test_modes_peak (mag, fs / (double) nfft, (1 - 0.3 * h) * modes[i].f,
                               1.01 * modes[i].f, &f))
            found[i] = f;
        }
      free (mag);
    }
  free (sig);
  rw_solver_free (s);
  rw_grid_free (g);
}

int
main (void)
{
  const double c = rw_speed_of_sound (20.0);
  const double L[3] = { LX, LY, LZ };

  /* the analytic modes below 130 Hz with no other within ±7 % */
  Mode all[256], modes[MAX_MODES] = { { 0 } };
  size_t n_all = 0, n_modes = 0;
  for (int l = 0; l < 10; l++)
    for (int m = 0; m < 10; m++)
      for (int n = 0; n < 10; n++)
        {
          if (l + m + n == 0)
            continue;
          const int idx[3] = { l, m, n };
          double s = 0;
          for (int a = 0; a < 3; a++)
            s += pow (idx[a] / L[a], 2);
          const double f = c / 2 * sqrt (s);
          if (f < 130.0 && n_all < 256)
            all[n_all++] = (Mode) { l, m, n, f };
        }
  for (size_t i = 0; i < n_all; i++)
    {
      bool isolated = true;
      for (size_t j = 0; j < n_all; j++)
        if (j != i && all[j].f > 0.93 * all[i].f && all[j].f < 1.07 * all[i].f)
          isolated = false;
      if (isolated && n_modes < MAX_MODES)
        modes[n_modes++] = all[i];
    }

  double fine[MAX_MODES], coarse[MAX_MODES];
  find_modes (0.1, 16384, modes, n_modes, fine);
  find_modes (0.2, 8192, modes, n_modes, coarse);

  double worst_fine = 0, worst_coarse = 0;
  for (size_t i = 0; i < n_modes; i++)
    {
      const Mode *md = &modes[i];
      const double ef = (fine[i] - md->f) / md->f, ec = (coarse[i] - md->f) / md->f;
      RW_NOTE ("mode (%d,%d,%d) %.3f Hz: h = 0.2 m %+.3f %%, h = 0.1 m %+.3f %% (ratio %.2f)",
               md->l, md->m, md->n, md->f, 100 * ec, 100 * ef, ef / ec);
      RW_CHECK (isfinite (fine[i]) && isfinite (coarse[i]), "mode (%d,%d,%d): no peak near %.2f Hz",
                md->l, md->m, md->n, md->f);
      RW_CHECK (fabs (ef) < 0.002 && fabs (ec) < 0.005, "mode (%d,%d,%d) %.3f Hz found at %.3f Hz "
                "(h = 0.1 m) and %.3f Hz (0.2 m)", md->l, md->m, md->n, md->f, fine[i], coarse[i]);
      RW_CHECK (fabs (ef) <= 0.4 * fabs (ec) + 0.0002, "mode (%d,%d,%d): the error %.3f %% at "
                "h = 0.1 m is not below 0.4 of the %.3f %% at 0.2 m", md->l, md->m, md->n,
                100 * ef, 100 * ec);
      worst_fine = fmax (worst_fine, fabs (ef));
      worst_coarse = fmax (worst_coarse, fabs (ec));
    }
  RW_NOTE ("%zu isolated modes below 130 Hz; worst error %.3f %% at h = 0.1 m, %.3f %% at "
           "h = 0.2 m", n_modes, 100 * worst_fine, 100 * worst_coarse);
  RW_CHECK (n_modes >= 4, "only %zu isolated modes were checked", n_modes);
  return rw_test_finish ();
}
