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

#define RW_COURANT_3D 0.57735026918962576451   /* 1/√3 */
#define RW_COURANT_FCC 1.0                      /* √RW_FCC_LAMBDA2 */
#define RW_DEFAULT_PPW 7.75
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
