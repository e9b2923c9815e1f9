/* SPDX-License-Identifier: GPL-3.0-or-later */
/* voxel-slab: a rank's slab voxelised from its own planes (issue #15,
 * rw_voxelise_slab) is byte for byte the slab rw_slab_extract cuts from
 * the whole grid (the second method: the whole room voxelised, then cut):
 * K, surface, area, zlo, zhi, the counts, origin, surface_area_m2 (the
 * owned planes' share), the plane numbers; or both refuse the cut. On the
 * L-room (re-entrant corner), the 30° ceiling (a sloped wall cut
 * through), the hall (8-facet curved rear wall, oblique planes) and an
 * icosphere, on both lattices, at cuts next to the floor and the ceiling,
 * through the sloped part, a single plane, the whole grid, and the cuts
 * rw_slab_plan makes for 2 to 5 ranks. Independent checks: the owned
 * planes' inside cells add up to the whole grid's and their shares of
 * surface_area_m2 to its totals (to rounding); rw_voxelise_plane_counts,
 * counted in three shares, equals the whole grid's planes;
 * rw_slab_plan_counts of them cuts where rw_slab_plan does; rw_voxel_lattice
 * is the whole grid's lattice. */
#include "rw-test.h"
#include <stdlib.h>
#include <string.h>
#include "rw-shapes.h"
#include "rw-slab.h"
#include "rw-voxel.h"
#include "test-voxel-slab.h"

/* A call that must succeed: checked, its message printed when not. */
static bool
check_ok (bool ok, const char *what, const RwError *err)
{
  RW_CHECK (ok, "%s: %s", what, err->message);
  return ok;
}

static size_t
plane_inside (const RwGrid *g, size_t z)
{
  size_t n = 0;
  for (size_t i = 0; i < g->nx * g->ny; i++)
    n += g->K[z * g->nx * g->ny + i] != 0;
  return n;
}

/* Both ways for planes [z0, z1): equal, or both refused. Adds the
 * voxelised slab's owned inside cells and surface areas to *inside and
 * area[] (when not NULL); false when it was refused. */
static bool
check_cut (const RwMesh *m, double h, RwLattice lat, const RwGrid *g, const char *what, size_t z0,
           size_t z1, size_t *inside, double *area)
{
  RwSlab want, got;
  RwError e1 = { 0 }, e2 = { 0 };
  bool ok1 = rw_slab_extract (g, z0, z1, &want, &e1);
  bool ok2 = rw_voxelise_slab (m, h, lat, z0, z1, 2, &got, &e2);
  RW_CHECK (ok1 == ok2, "%s [%zu, %zu): extract %s, voxelise_slab %s", what, z0, z1,
            ok1 ? "ok" : e1.message, ok2 ? "ok" : e2.message);
  if (ok1 && ok2)
    check_same_slab (&got, &want, what, z0, z1);
  else if (!ok1 && !ok2)
    RW_CHECK (e1.code == e2.code && strcmp (e1.message, e2.message) == 0,
              "%s [%zu, %zu): refusals differ: '%s' vs '%s'", what, z0, z1, e1.message, e2.message);
  if (ok2 && inside != NULL)
    {
      for (size_t z = got.own_z0; z < got.own_z1; z++)
        *inside += plane_inside (got.grid, z);
      for (size_t k = 0; k < g->n_surfaces; k++)
        area[k] += got.grid->surface_area_m2[k];
    }
  if (ok1)
    rw_slab_clear (&want);
  if (ok2)
    rw_slab_clear (&got);
  return ok2;
}

/* Every plane a of the whole grid g from the window of planes
 * [a − RW_VOXEL_REACH, a + 1 + RW_VOXEL_REACH) with areas for plane a
 * alone (rw_voxelise_planes): its K, surfaces and areas (in index order)
 * are the whole grid's. Returns the planes that differ. */
static size_t
check_planes (const RwMesh *m, double h, RwLattice lat, const RwGrid *g, const char *what)
{
  const size_t nxy = g->nx * g->ny, R = RW_VOXEL_REACH;
  const int max_k = rw_grid_max_k (g);
  size_t bad = 0, b_whole = 0;
  for (size_t a = 0; a < g->nz; a++)
    {
      const size_t w0 = a > R ? a - R : 0, w1 = a + 1 + R < g->nz ? a + 1 + R : g->nz;
      RwError err = { 0 };
      RwGrid *w = rw_voxelise_planes (m, h, lat, w0, w1, a, a + 1, 1, &err);
      RW_CHECK (w != NULL, "%s: plane %zu: %s", what, a, err.message);
      if (w == NULL)
        return bad + 1;
      /* the window's boundary nodes below plane a */
      size_t b = 0;
      for (size_t i = 0; i < (a - w0) * nxy; i++)
        b += w->K[i] != 0 && w->K[i] < max_k;
      bool same = memcmp (w->K + (a - w0) * nxy, g->K + a * nxy, nxy) == 0
                  && memcmp (w->surface + (a - w0) * nxy, g->surface + a * nxy, nxy * 2) == 0;
      size_t in_plane = 0;
      for (size_t i = 0; i < nxy; i++)
        in_plane += g->K[a * nxy + i] != 0 && g->K[a * nxy + i] < max_k;
      same = same && memcmp (w->area + b, g->area + b_whole, in_plane * sizeof (float)) == 0;
      b_whole += in_plane;
      if (!same && bad++ == 0)
        RW_CHECK (same, "%s: plane %zu from planes [%zu, %zu) differs from the whole grid's", what,
                  a, w0, w1);
      rw_grid_free (w);
    }
  return bad;
}

int
main (void)
{
  struct { const char *what; RwMesh *m; double h; } cases[] = {
    { "L-room", rw_shape_lroom (6, 5, 3, 3.5, 2.2), 0.1 },
    { "30° ceiling", rw_shape_sloped_ceiling (6.03, 4.07, 2.51, 30), 0.1 },
    { "hall", rw_shape_hall (30, 20, 12, 8), 0.3 },
    { "icosphere", rw_shape_sphere (1.2, 3), 0.07 },
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    for (int l = 0; l < 2; l++)
      {
        const RwLattice lat = l ? RW_LATTICE_FCC : RW_LATTICE_CUBIC;
        const RwMesh *m = cases[c].m;
        const double h = cases[c].h;
        char what[96];
        snprintf (what, sizeof what, "%s (%s)", cases[c].what, l ? "FCC" : "cubic");
        RwError err = { 0 };
        RwGrid *g = l ? rw_voxelise_fcc (m, h, 0, &err) : rw_voxelise (m, h, 0, &err);
        RW_CHECK (g != NULL && g->n_surfaces <= 64, "%s: %s", what, err.message);
        if (g == NULL || g->n_surfaces > 64)
          continue;
        const size_t nz = g->nz;

        size_t bad_planes = check_planes (m, h, lat, g, what);
        RW_CHECK (bad_planes == 0, "%s: %zu planes differ", what, bad_planes);

        /* the lattice without voxelising */
        double origin[3];
        size_t n[3];
        RW_CHECK (rw_voxel_lattice (m, h, origin, n, &err), "%s: %s", what, err.message);
        RW_CHECK (n[0] == g->nx && n[1] == g->ny && n[2] == nz
                  && memcmp (origin, g->origin, sizeof origin) == 0, "%s: lattice differs", what);

        /* plane counts in three shares */
        size_t *counts = calloc (nz, sizeof *counts);
        const size_t share[4] = { 0, nz / 3, nz / 3 + nz / 4, nz };
        for (int k = 0; k < 3; k++)
          RW_CHECK (rw_voxelise_plane_counts (m, h, lat, share[k], share[k + 1], 1, counts + share[k], &err),
                    "%s: counts: %s", what, err.message);
        size_t bad = 0;
        for (size_t z = 0; z < nz; z++)
          bad += counts[z] != plane_inside (g, z);
        RW_CHECK (bad == 0, "%s: %zu planes counted otherwise than the whole grid", what, bad);

        /* the plan's cuts, from the counts and from the grid */
        for (int ranks = 2; ranks <= 5; ranks += 1 + (ranks == 3))
          {
            size_t cuts_g[6], cuts_c[6];
            bool a = rw_slab_plan (g, ranks, cuts_g, &err);
            bool b = rw_slab_plan_counts (counts, nz, ranks, rw_slab_halo (g), cuts_c, &err);
            RW_CHECK (a && b && memcmp (cuts_g, cuts_c, (size_t) (ranks + 1) * sizeof (size_t)) == 0,
                      "%s: %d ranks: cuts differ", what, ranks);
            if (!a)
              continue;
            /* every slab of the plan both ways; the owned shares add up */
            double area[64] = { 0 };
            size_t inside = 0;
            bool all = true;
            for (int r = 0; r < ranks; r++)
              all = check_cut (m, h, lat, g, what, cuts_g[r], cuts_g[r + 1], &inside, area) && all;
            if (!all)
              continue;
            RW_CHECK (inside == g->n_inside, "%s: %d ranks: %zu inside cells owned, the grid %zu",
                      what, ranks, inside, g->n_inside);
            for (size_t k = 0; k < g->n_surfaces; k++)
              RW_CHECK_CLOSE (area[k], g->surface_area_m2[k], 1e-9 * (1 + g->surface_area_m2[k]), what);
          }

        /* cuts next to the floor and the ceiling, through the middle and
         * the upper part (the sloped ceiling, the sphere's cap), one plane */
        const size_t cuts[][2] = {
          { 0, nz }, { 0, 2 }, { 0, 5 }, { 1, 4 }, { 2, 7 }, { 3, 9 }, { nz / 3, nz / 2 },
          { nz / 2, nz / 2 + 1 }, { nz / 2 - 1, nz / 2 + 2 }, { 2 * nz / 3, nz - 3 },
          { nz - 7, nz - 2 }, { nz - 5, nz }, { nz - 2, nz }, { 5, nz - 5 },
        };
        for (size_t k = 0; k < sizeof cuts / sizeof cuts[0]; k++)
          check_cut (m, h, lat, g, what, cuts[k][0], cuts[k][1], NULL, NULL);
        RW_NOTE ("%s: %zu × %zu × %zu cells, %zu inside, %zu boundary", what, g->nx, g->ny, nz,
                 g->n_inside, g->n_boundary);

        /* stencils from the planes round each point: random points in
         * and round the room (some outside), points on cell centres and
         * halfway between planes */
        {
          uint64_t seed = 0x9e3779b97f4a7c15ull + c * 2 + (uint64_t) l;
          size_t n_bad = 0, n_in = 0;
          const int n_pts = 40;
          for (int k = 0; k < n_pts; k++)
            {
              double p[3];
              for (int a = 0; a < 3; a++)
                {
                  const size_t na = a == 0 ? g->nx : a == 1 ? g->ny : nz;
                  double u = rw_test_uniform (&seed) * (double) (na - 1);
                  if (k % 4 == 1)
                    u = floor (u);          /* on a centre */
                  else if (k % 4 == 2 && a == 2)
                    u = floor (u) + 0.5;    /* halfway between planes */
                  p[a] = g->origin[a] + h * u;
                }
              RwGridStencil s0, s1;
              RwError e0 = { 0 }, e1 = { 0 };
              bool ok0 = rw_grid_interp (g, p, "point", &s0, &e0);
              bool ok1 = rw_voxel_interp (m, h, lat, p, "point", 1, &s1, &e1);
              n_in += ok0;
              if (ok0 != ok1 || (ok0 && (s0.n != s1.n || s0.nearest != s1.nearest
                                         || memcmp (s0.cell, s1.cell, s0.n * sizeof *s0.cell) != 0
                                         || memcmp (s0.weight, s1.weight, s0.n * sizeof *s0.weight) != 0))
                  || (!ok0 && e0.code != e1.code))
                n_bad++;
            }
          RW_CHECK (n_bad == 0, "%s: %zu of %d stencils differ from the whole grid's", what, n_bad, n_pts);
          RW_CHECK (n_in > 5 && n_in < (size_t) n_pts, "%s: %zu of %d points inside", what, n_in, n_pts);
        }

        /* one rank (no MPI): the whole grid as one slab */
        {
          size_t one[2];
          RwSlab s1, s0;
          if (check_ok (rw_slab_voxelise_ranks (m, h, lat, NULL, 0, one, &s1, &err), what, &err)
              && check_ok (rw_slab_extract (g, 0, nz, &s0, &err), what, &err))
            {
              RW_CHECK (one[0] == 0 && one[1] == nz, "%s: one rank's cuts %zu, %zu", what, one[0], one[1]);
              check_same_slab (&s1, &s0, what, 0, nz);
              rw_slab_clear (&s0);
              rw_slab_clear (&s1);
            }
        }

        /* planes out of range are refused */
        RwSlab s;
        RW_CHECK (!rw_voxelise_slab (m, h, lat, 3, nz + 1, 1, &s, &err) && err.code == RW_ERROR_INPUT,
                  "%s: planes past the grid accepted", what);
        RW_CHECK (!rw_voxelise_slab (m, h, lat, 4, 4, 1, &s, &err), "%s: an empty slab accepted", what);
        free (counts);
        rw_grid_free (g);
      }
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    rw_mesh_free (cases[c].m);
  return rw_test_finish ();
}
