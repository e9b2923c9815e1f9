/* SPDX-License-Identifier: GPL-3.0-or-later */
/* voxel-fcc-grid-invariants: the FCC grid contract of rw-voxel.h, checked
 * cell by cell on the code-built shapes (walls square to the axes, oblique,
 * curved, every wall oblique) and on rw_grid_new_box_fcc: lattice FCC; an
 * outside layer on every side; cells of odd x + y + z have K = 0 and no
 * surface; a site's K is the recount of its inside neighbours among the 12
 * (never 0); surface ids valid exactly on the boundary sites (0 < K < 12);
 * zlo/zhi tight; n_inside and n_boundary; one area per boundary site in
 * index order, their per-surface sums surface_area_m2. Each missing link
 * counts (1/√2)|n̂·d̂| ≤ 1/√2 per wall, so area ≤ (12 − K)/√2 but where a
 * link crosses two walls at once (a re-entrant edge on the lattice: the
 * L-room's and the pillar's inner corners) or the site was given a corner
 * cutter (a link between two outside sites crossing the room,
 * rw-voxel.c): checked within [0, √2·(12 − K)], and the sites above
 * (12 − K)/√2 fewer than 1 % of the boundary sites (a cutter counted more
 * than once would show there; not in a slab all of whose sites are on its
 * boundary). rw_grid_new_box_fcc within (12 − K)/√2. The sites agree with a second inside test
 * (rw_mesh_point_inside: three skewed rays, not the scanlines) on the L-room
 * turned obliquely, and are the even cells the cubic voxeliser finds inside
 * on the same lattice (less the ones each lattice drops). On a box each
 * boundary site names a wall one of its missing links crosses, every wall
 * is named. The grid is the same with 1 and 2 threads. */
#include "rw-test.h"
#include <stdlib.h>
#include <string.h>
#include "rw-shapes.h"
#include "rw-scheme-fcc.h"
#include "rw-voxel.h"
#include "test-voxel-common.h"

static bool
same_grid (const RwGrid *a, const RwGrid *b)
{
  size_t n = a->nx * a->ny * a->nz;
  return a->nx == b->nx && a->ny == b->ny && a->nz == b->nz && memcmp (a->K, b->K, n) == 0
         && memcmp (a->surface, b->surface, 2 * n) == 0 && a->n_boundary == b->n_boundary
         && memcmp (a->area, b->area, a->n_boundary * sizeof (float)) == 0
         && memcmp (a->surface_area_m2, b->surface_area_m2, a->n_surfaces * sizeof (double)) == 0;
}

int
main (void)
{
  struct { const char *what; RwMesh *m; double h; } cases[] = {
    { "box", rw_shape_box (3.1, 2.3, 1.7), 0.1 },
    { "L-room", rw_shape_lroom (6, 5, 3, 3.5, 2.2), 0.1 },
    { "pillar room", rw_shape_box_with_pillar (6, 5, 3, 2, 2, 0.7), 0.1 },
    { "icosphere", rw_shape_sphere (1.2, 3), 0.07 },
    /* the 8 facets of the rear wall: its middle fold lies in a lattice
     * plane, where links pass through it (counted once: within 30°) */
    { "hall", rw_shape_hall (30, 20, 12, 8), 0.3 },
    { "30° ceiling", rw_shape_sloped_ceiling (6.03, 4.07, 2.51, 30), 0.1 },
    { "(1,1,1) corner", test_corner_tetrahedron (3.0), 0.1 },
    /* re-entrant, but no edge on the lattice */
    { "L-room turned", test_rotated_lroom (), 0.1 },
    /* a thin slab: one or two cells of air, sites with few neighbours */
    { "thin slab", rw_shape_box (2.0, 1.0, 0.22), 0.1 },
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    {
      RwError err = { 0 };
      RwGrid *g = rw_voxelise_fcc (cases[c].m, cases[c].h, 0, &err);
      RW_CHECK (g != NULL, "%s: %s", cases[c].what, err.message);
      if (g)
        {
          test_check_grid (g, M_SQRT2, cases[c].what);
          size_t above = 0, b = 0;
          for (size_t i = 0; i < g->nx * g->ny * g->nz; i++)
            if (g->K[i] > 0 && g->K[i] < 12)
              above += g->area[b++] > (12 - g->K[i]) * M_SQRT1_2 * (1 + 1e-6);
          RW_NOTE ("%s: %zu of %zu boundary sites above (12 − K)/√2", cases[c].what, above, g->n_boundary);
          /* not in the slab, all of whose sites are on its boundary */
          RW_CHECK (above * 100 < g->n_boundary || g->n_boundary == g->n_inside,
                    "%s: %zu of %zu sites above (12 − K)/√2", cases[c].what, above, g->n_boundary);
          RW_CHECK (g->n_surfaces == cases[c].m->n_surfaces, "n_surfaces");
        }
      rw_grid_free (g);
    }

  /* A second inside test on every even cell of the turned L (every wall
   * oblique, so no centre lies on a wall): sites are the cells
   * rw_mesh_point_inside puts inside, less those dropped for having no
   * inside neighbour (none expected here). */
  {
    RwError err = { 0 };
    RwMesh *m = cases[7].m;
    RwGrid *g = rw_voxelise_fcc (m, 0.1, 0, &err);
    size_t differ = 0, checked = 0;
    for (size_t z = 0; g && z < g->nz; z++)
      for (size_t y = 0; y < g->ny; y++)
        for (size_t x = (y + z) % 2; x < g->nx; x += 2)
          {
            const double p[3] = { g->origin[0] + g->h * (double) x, g->origin[1] + g->h * (double) y,
                                  g->origin[2] + g->h * (double) z };
            differ += rw_mesh_point_inside (m, p) != (g->K[rw_grid_index (g, x, y, z)] > 0);
            checked++;
          }
    RW_NOTE ("L-room turned: %zu of %zu even cells classified otherwise by rw_mesh_point_inside", differ, checked);
    RW_CHECK (g != NULL && differ == 0, "L-room turned: %zu sites differ from rw_mesh_point_inside", differ);
    rw_grid_free (g);
  }

  /* The cubic voxeliser on the same lattice: an even cell is a site iff it
   * is inside there, but for the cells one lattice drops and the other
   * keeps (no inside neighbour among the 6, or among the 12). */
  {
    RwError err = { 0 };
    RwMesh *m = cases[3].m;
    RwGrid *f = rw_voxelise_fcc (m, 0.07, 0, &err), *c = rw_voxelise (m, 0.07, 0, &err);
    size_t differ = 0;
    RW_CHECK (f && c && f->nx == c->nx && f->ny == c->ny && f->nz == c->nz, "icosphere: lattices differ");
    for (size_t z = 1; f && c && z + 1 < f->nz; z++)
      for (size_t y = 1; y + 1 < f->ny; y++)
        for (size_t x = 1 + (y + z + 1) % 2; x + 1 < f->nx; x += 2)
          differ += (f->K[rw_grid_index (f, x, y, z)] > 0) != (c->K[rw_grid_index (c, x, y, z)] > 0);
    RW_CHECK (differ == 0, "icosphere: %zu even cells inside on one lattice, not the other", differ);
    rw_grid_free (f);
    rw_grid_free (c);
  }

  /* Surface ids on a box (rw_shape_box: floor, ceiling, wall_x0, wall_x1,
   * wall_y0, wall_y1, walls on the planes z = 0, z = lz, x = 0, …): each
   * boundary site names a wall that one of its missing links crosses (its
   * outside neighbour beyond that wall's plane), every wall is named, and
   * a site whose missing links all cross one wall names that one. */
  {
    static const int off[RW_FCC_N_NBR][3] = RW_FCC_NBR_OFFSETS;
    RwError err = { 0 };
    const double L[3] = { 3.1, 2.3, 1.7 };
    RwMesh *m = rw_shape_box (L[0], L[1], L[2]);
    RwGrid *g = rw_voxelise_fcc (m, 0.1, 0, &err);
    /* surface of the wall on the low / high side of each axis */
    const int low[3] = { 2, 4, 0 }, high[3] = { 3, 5, 1 };
    size_t wrong = 0, single_wrong = 0, named[6] = { 0 };
    for (size_t z = 0; g && z < g->nz; z++)
      for (size_t y = 0; y < g->ny; y++)
        for (size_t x = 0; x < g->nx; x++)
          {
            size_t i = rw_grid_index (g, x, y, z);
            if (g->K[i] == 0 || g->K[i] == 12)
              continue;
            unsigned crossed = 0;   /* bit per surface */
            for (int d = 0; d < RW_FCC_N_NBR; d++)
              {
                const size_t q[3] = { x + off[d][0], y + off[d][1], z + off[d][2] };
                if (g->K[rw_grid_index (g, q[0], q[1], q[2])] != 0)
                  continue;
                for (int k = 0; k < 3; k++)
                  {
                    double c = g->origin[k] + g->h * (double) q[k];
                    if (c < 0)
                      crossed |= 1u << low[k];
                    if (c > L[k])
                      crossed |= 1u << high[k];
                  }
              }
            uint16_t s = g->surface[i];
            wrong += s >= 6 || !(crossed & (1u << s));
            single_wrong += (crossed & (crossed - 1)) == 0 && crossed != (1u << s);
            if (s < 6)
              named[s]++;
          }
    RW_CHECK (g != NULL, "box: %s", err.message);
    RW_CHECK (wrong == 0, "box: %zu boundary sites name a wall none of their missing links crosses", wrong);
    RW_CHECK (single_wrong == 0, "box: %zu sites with one wall name another", single_wrong);
    for (int s = 0; s < 6; s++)
      RW_CHECK (named[s] > 0, "box: no site names %s", m->surface_names[s]);
    rw_grid_free (g);
    rw_mesh_free (m);
  }

  /* the same grid whatever the number of threads */
  for (size_t c = 3; c <= 7; c += 4)
    {
      RwError err = { 0 };
      RwGrid *g1 = rw_voxelise_fcc (cases[c].m, 0.1, 1, &err), *g2 = rw_voxelise_fcc (cases[c].m, 0.1, 2, &err);
      RW_CHECK (g1 && g2, "%s", err.message);
      RW_CHECK (g1 && g2 && same_grid (g1, g2), "%s: the grid differs between 1 and 2 threads", cases[c].what);
      rw_grid_free (g1);
      rw_grid_free (g2);
    }
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    rw_mesh_free (cases[c].m);

  const size_t boxes[][3] = { { 7, 5, 4 }, { 2, 2, 2 }, { 7, 5, 3 }, { 12, 3, 9 } };
  for (size_t i = 0; i < sizeof boxes / sizeof boxes[0]; i++)
    {
      RwGrid *b = rw_grid_new_box_fcc (boxes[i][0], boxes[i][1], boxes[i][2], 0.1);
      char what[64];
      snprintf (what, sizeof what, "rw_grid_new_box_fcc %zu × %zu × %zu", boxes[i][0], boxes[i][1], boxes[i][2]);
      RW_CHECK (b != NULL, "%s", what);
      if (b)
        test_check_grid (b, M_SQRT1_2, what);
      rw_grid_free (b);
    }
  return rw_test_finish ();
}
