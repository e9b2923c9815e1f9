/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-physics.h — grid and time step from the user's choices (DESIGN §2).
 *
 * c from air temperature; h from points per wavelength at fmax
 * (h = c / (fmax · ppw), default ppw 7.75 as PFFDTD uses for the 7-point
 * scheme); fs from the Courant number λ = c·T/h = 1/√3, the stability limit
 * of the 7-point scheme in 3-D, or λ = 1 on the FCC lattice (rw-scheme-fcc.h:
 * its limit, λ² = RW_FCC_LAMBDA2, with h the cubic spacing). */
#pragma once

#include <math.h>

#include "rw-voxel.h"

#define RW_COURANT_3D 0.57735026918962576451   /* 1/√3 */
#define RW_COURANT_FCC 1.0                      /* √RW_FCC_LAMBDA2 */
/* Points per wavelength at fmax (in cubic spacings h for both lattices)
 * by default: where each scheme's worst-direction phase-velocity error
 * stays within 2 % at fmax, as fcc-dispersion measures it (7-point 7.68,
 * along an axis; FCC 5.71, along the body diagonal), rounded up to a
 * quarter. */
#define RW_DEFAULT_PPW 7.75
#define RW_DEFAULT_PPW_FCC 5.75
#define RW_DEFAULT_TEMPERATURE_C 20.0
#define RW_OUTPUT_RATE_HZ 48000.0

static inline double
rw_speed_of_sound (double temperature_c)     /* m/s; 20 °C → 343.2 */
{
  return 331.3 * sqrt (1.0 + temperature_c / 273.15);
}

static inline double
rw_spacing_for_fmax (double c, double fmax_hz, double ppw)   /* h, metres */
{
  return c / (fmax_hz * ppw);
}

static inline double
rw_grid_rate (double c, double spacing_m)    /* fs = c / (λ h), Hz */
{
  return c / (RW_COURANT_3D * spacing_m);
}

/* The same on the FCC lattice: fs = c / (λ h) with λ = 1, h the cubic
 * spacing (the sites' neighbour distance is h√2). √3 times the 7-point
 * rate at one h: fewer sites (half the cells) but more steps; PFFDTD's
 * fcc grids run at this limit too. */
static inline double
rw_grid_rate_fcc (double c, double spacing_m)
{
  return c / (RW_COURANT_FCC * spacing_m);
}

/* Per scheme (the grid's lattice: the 7-point scheme on the cubic one,
 * the 13-point scheme on the FCC one). */
static inline double
rw_scheme_courant (RwLattice l)              /* λ = c T / h */
{
  return l == RW_LATTICE_FCC ? RW_COURANT_FCC : RW_COURANT_3D;
}

static inline double
rw_scheme_grid_rate (RwLattice l, double c, double spacing_m)
{
  return l == RW_LATTICE_FCC ? rw_grid_rate_fcc (c, spacing_m) : rw_grid_rate (c, spacing_m);
}

static inline double
rw_scheme_default_ppw (RwLattice l)
{
  return l == RW_LATTICE_FCC ? RW_DEFAULT_PPW_FCC : RW_DEFAULT_PPW;
}

/* The volume of a node's cell in h³: 1 (a cube), 2 (the FCC lattice's
 * rhombic dodecahedron). */
static inline double
rw_scheme_cell_volume (RwLattice l)
{
  return l == RW_LATTICE_FCC ? 2.0 : 1.0;
}

/* The phase-velocity error v/c − 1 of a scheme at its Courant limit in
 * its worst direction (7-point: the axes; FCC: the body diagonal) at the
 * frequency of `ppw` points per wavelength (cubic spacings: f = c/(ppw h)),
 * from its dispersion relation (docs/SOLVER.md §9), which fcc-dispersion
 * measures within 0.07 % of c. ωT = λ·2π/ppw; the wavenumber κ the scheme
 * gives that ω: along an axis of the 7-point scheme cos ωT = 1 − 2λ²
 * sin²(κh/2), along the FCC scheme's diagonal cos ωT = 1 − (3λ²/2)(1 −
 * cos²(κh/√3)); v/c = (2π/ppw) / (κh). Negative: slower than c. 2 % is
 * reached at ppw 7.63 (7-point) and 5.70 (FCC). */
static inline double
rw_scheme_phase_error (RwLattice l, double ppw)
{
  const double kh = 2.0 * M_PI / ppw, lam = rw_scheme_courant (l);
  const double one_minus_cw = 1.0 - cos (lam * kh);
  double kappa_h;
  if (l == RW_LATTICE_FCC)
    {
      const double c2 = 1.0 - 2.0 * one_minus_cw / (3.0 * lam * lam);
      kappa_h = sqrt (3.0) * acos (sqrt (fmax (0.0, fmin (1.0, c2))));
    }
  else
    kappa_h = 2.0 * asin (sqrt (fmax (0.0, fmin (1.0, one_minus_cw / (2.0 * lam * lam)))));
  return kh / kappa_h - 1.0;
}
