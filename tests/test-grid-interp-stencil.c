/* SPDX-License-Identifier: GPL-3.0-or-later */
/* grid-interp-stencil: rw_grid_interp's weights (issue #14) on the cubic
 * and the FCC lattice.
 *  - Away from walls, at random points: the weights are positive, sum to
 *    1 and reproduce every linear function exactly (to rounding); on the
 *    cubic grid they also reproduce x·y·z (trilinear interpolation is
 *    exact on the tensor-product space, a property linear rules lack); the
 *    cells are inside, sites on FCC, within the enclosing Delaunay cell
 *    (every cell within 1 h per axis, cubic; within 2 h, FCC), and the
 *    nearest node (rw_grid_locate) is among them.
 *  - FCC: the rule is the lattice's Delaunay cells: 4 cells (a regular
 *    tetrahedron, every pair √2 h apart) or 6 (an octahedron: 3 pairs 2 h
 *    apart); the interpolant is continuous across cells (a nonlinear
 *    function interpolated just either side of a tetrahedron–octahedron
 *    face agrees), and the octahedron's centre gets 1/6 on each vertex.
 *  - A point on a node is that node alone with weight 1.
 *  - Next to a wall (cells outside dropped, the rest renormalised): the
 *    weights still sum to 1 over inside cells only, and a linear function
 *    that does not vary across the wall is still exact (the trilinear
 *    weights factor per axis, so renormalising removes just the outside
 *    layer's factor). */
#include "rw-test.h"
#include <string.h>
#include "rw-voxel.h"

static void
cell_pos (const RwGrid *g, size_t i, double out[3])
{
  const size_t x = i % g->nx, y = (i / g->nx) % g->ny, z = i / (g->nx * g->ny);
  out[0] = g->origin[0] + g->h * (double) x;
  out[1] = g->origin[1] + g->h * (double) y;
  out[2] = g->origin[2] + g->h * (double) z;
}

/* Σ w f(cell) for f = a + b·x (linear) or x y z (b == NULL) */
static double
interp (const RwGrid *g, const RwGridStencil *st, double a, const double *b)
{
  double v = 0;
  for (size_t i = 0; i < st->n; i++)
    {
      double c[3];
      cell_pos (g, st->cell[i], c);
      v += st->weight[i] * (b ? a + b[0] * c[0] + b[1] * c[1] + b[2] * c[2] : c[0] * c[1] * c[2]);
    }
  return v;
}

static void
check_stencil_sane (const RwGrid *g, const RwGridStencil *st, const double p[3], const char *name)
{
  double sum = 0;
  bool has_nearest = false;
  RW_CHECK (st->n >= 1 && st->n <= RW_GRID_STENCIL_MAX, "%s: %zu cells", name, st->n);
  for (size_t i = 0; i < st->n; i++)
    {
      sum += st->weight[i];
      RW_CHECK (st->weight[i] > 0, "%s: weight %zu = %g", name, i, st->weight[i]);
      RW_CHECK (g->K[st->cell[i]] > 0, "%s: cell %zu outside", name, i);
      has_nearest = has_nearest || st->cell[i] == st->nearest;
      double c[3];
      cell_pos (g, st->cell[i], c);
      const size_t x = st->cell[i] % g->nx, y = (st->cell[i] / g->nx) % g->ny,
                   z = st->cell[i] / (g->nx * g->ny);
      if (g->lattice == RW_LATTICE_FCC)
        RW_CHECK ((x + y + z) % 2 == 0, "%s: cell %zu not a site", name, i);
      const double reach = g->lattice == RW_LATTICE_FCC ? 2.0 : 1.0;
      for (int k = 0; k < 3; k++)
        RW_CHECK (fabs (c[k] - p[k]) <= reach * g->h + 1e-12, "%s: cell %zu %g h away on axis %d",
                  name, i, fabs (c[k] - p[k]) / g->h, k);
    }
  RW_CHECK_CLOSE (sum, 1.0, 1e-14, "sum of weights");
  size_t located = SIZE_MAX;
  RW_CHECK (rw_grid_locate (g, p, name, &located, NULL) && located == st->nearest,
            "%s: nearest %zu, rw_grid_locate %zu", name, st->nearest, located);
  RW_CHECK (has_nearest, "%s: the nearest node is not in the stencil", name);
}

/* pairwise distances of the FCC stencil's cells, in h: a tetrahedron has
 * 6 pairs at √2; an octahedron 12 at √2 and 3 at 2 */
static bool
fcc_shape_ok (const RwGrid *g, const RwGridStencil *st)
{
  size_t n_r2 = 0, n_2 = 0, other = 0;
  for (size_t i = 0; i < st->n; i++)
    for (size_t j = i + 1; j < st->n; j++)
      {
        double a[3], b[3], d2 = 0;
        cell_pos (g, st->cell[i], a);
        cell_pos (g, st->cell[j], b);
        for (int k = 0; k < 3; k++)
          d2 += (a[k] - b[k]) * (a[k] - b[k]);
        d2 /= g->h * g->h;
        if (fabs (d2 - 2) < 1e-9)
          n_r2++;
        else if (fabs (d2 - 4) < 1e-9)
          n_2++;
        else
          other++;
      }
  return other == 0 && ((st->n == 4 && n_r2 == 6 && n_2 == 0) || (st->n == 6 && n_r2 == 12 && n_2 == 3));
}

static void
random_points (const RwGrid *g, const char *name, uint64_t *rng)
{
  size_t n_tet = 0, n_oct = 0;
  double worst_lin = 0, worst_xyz = 0;
  for (int t = 0; t < 4000; t++)
    {
      /* at least 2 h from every wall of the box (its air spans the inside
       * cells' centres ± h/2) */
      double p[3];
      const size_t n[3] = { g->nx, g->ny, g->nz };
      for (int k = 0; k < 3; k++)
        p[k] = g->origin[k] + g->h * (3.0 + rw_test_uniform (rng) * ((double) n[k] - 7.0));
      RwGridStencil st;
      RwError err = { 0 };
      if (!rw_grid_interp (g, p, "receiver 1", &st, &err))
        {
          RW_CHECK (false, "%s: (%g, %g, %g): %s", name, p[0], p[1], p[2], err.message);
          continue;
        }
      check_stencil_sane (g, &st, p, name);
      for (int f = 0; f < 3; f++)
        {
          const double a = rw_test_gauss (rng);
          const double b[3] = { rw_test_gauss (rng), rw_test_gauss (rng), rw_test_gauss (rng) };
          const double want = a + b[0] * p[0] + b[1] * p[1] + b[2] * p[2];
          worst_lin = fmax (worst_lin, fabs (interp (g, &st, a, b) - want));
        }
      if (g->lattice == RW_LATTICE_CUBIC)
        {
          RW_CHECK (st.n == 8, "%s: %zu cells, not 8", name, st.n);
          worst_xyz = fmax (worst_xyz, fabs (interp (g, &st, 0, NULL) - p[0] * p[1] * p[2]));
        }
      else
        {
          RW_CHECK (fcc_shape_ok (g, &st), "%s: %zu cells that are neither a regular tetrahedron "
                    "nor an octahedron", name, st.n);
          n_tet += st.n == 4;
          n_oct += st.n == 6;
        }
    }
  RW_NOTE ("%s: worst linear error %.3g, x·y·z error %.3g; %zu tetrahedra, %zu octahedra", name,
           worst_lin, worst_xyz, n_tet, n_oct);
  RW_CHECK (worst_lin < 1e-12, "%s: a linear function off by %g", name, worst_lin);
  RW_CHECK (worst_xyz < 1e-12, "%s: x·y·z off by %g", name, worst_xyz);
  if (g->lattice == RW_LATTICE_FCC)
    {
      /* volume shares: the octahedra fill 2/3 of space, the tetrahedra 1/3 */
      const double share = (double) n_oct / (double) (n_tet + n_oct);
      RW_CHECK (fabs (share - 2.0 / 3.0) < 0.05, "octahedra hold %.3f of the points, not 2/3", share);
    }
}

/* A point at grid coordinates f (units of h from cell (0,0,0)). */
static void
at (const RwGrid *g, const double f[3], double p[3])
{
  for (int k = 0; k < 3; k++)
    p[k] = g->origin[k] + g->h * f[k];
}

static double
smooth (const double p[3])
{
  return sin (3.1 * p[0]) * cos (2.3 * p[1]) + exp (p[2]);
}

static double
interp_fn (const RwGrid *g, const RwGridStencil *st)
{
  double v = 0;
  for (size_t i = 0; i < st->n; i++)
    {
      double c[3];
      cell_pos (g, st->cell[i], c);
      v += st->weight[i] * smooth (c);
    }
  return v;
}

static void
fcc_specials (const RwGrid *g)
{
  RwGridStencil st;
  double p[3];
  /* the centre of an octahedron (an odd point, 11 + 10 + 10): 1/6 each */
  at (g, (const double[3]) { 11, 10, 10 }, p);
  RW_CHECK (rw_grid_interp (g, p, "source", &st, NULL) && st.n == 6, "octahedron centre: %zu cells", st.n);
  for (size_t i = 0; i < st.n; i++)
    RW_CHECK_CLOSE (st.weight[i], 1.0 / 6.0, 1e-15, "octahedron centre weight");
  /* a tetrahedron's centroid (the cube at the site (10, 10, 10)): ¼ each */
  at (g, (const double[3]) { 10.5, 10.5, 10.5 }, p);
  RW_CHECK (rw_grid_interp (g, p, "source", &st, NULL) && st.n == 4, "tetrahedron centroid: %zu cells", st.n);
  for (size_t i = 0; i < st.n; i++)
    RW_CHECK_CLOSE (st.weight[i], 0.25, 1e-15, "tetrahedron centroid weight");
  /* continuity: the face between the tetrahedron of that cube and the
   * octahedron round its odd corner (11, 10, 10) is the plane
   * (1 − u) + v + w = 1 in the cube's coordinates u, v, w; a point on it
   * and points 1e-9 h either side interpolate a smooth function alike */
  const double u[3] = { 0.6, 0.35, 0.25 };   /* 0.4 + 0.35 + 0.25 = 1 */
  double vals[2];
  size_t ns[2];
  for (int side = 0; side < 2; side++)
    {
      const double e = side ? 1e-9 : -1e-9;   /* into the tetrahedron or the octahedron */
      const double f[3] = { 10 + u[0] - e, 10 + u[1] + e, 10 + u[2] + e };
      at (g, f, p);
      RW_CHECK (rw_grid_interp (g, p, "receiver 1", &st, NULL), "face point");
      vals[side] = interp_fn (g, &st);
      ns[side] = st.n;
    }
  RW_NOTE ("FCC face: %zu cells on one side, %zu on the other; values %.12f, %.12f", ns[0], ns[1],
           vals[0], vals[1]);
  RW_CHECK (ns[0] != ns[1], "both sides in the same kind of cell (%zu, %zu)", ns[0], ns[1]);
  RW_CHECK (fabs (vals[0] - vals[1]) < 1e-7, "discontinuous across the face: %g", vals[1] - vals[0]);
}

static void
on_node (const RwGrid *g, const double f[3])
{
  double p[3];
  RwGridStencil st;
  size_t located = SIZE_MAX;
  at (g, f, p);
  RW_CHECK (rw_grid_interp (g, p, "source", &st, NULL) && rw_grid_locate (g, p, "source", &located, NULL),
            "node (%g, %g, %g)", f[0], f[1], f[2]);
  RW_CHECK (st.n == 1 && st.weight[0] == 1.0 && st.cell[0] == located,
            "node (%g, %g, %g): %zu cells, weight %g", f[0], f[1], f[2], st.n, st.weight[0]);
}

/* Next to the wall x = 0 of a box (its first inside cells at index 1,
 * centred h/2 from the wall): a point 0.2 h from the wall lies below the
 * first layer of nodes, so the stencil's lower x layer is outside. */
static void
near_wall (const RwGrid *g, const char *name)
{
  uint64_t rng = 7;
  size_t n_accepted = 0, n_dropped = 0;
  const bool fcc = g->lattice == RW_LATTICE_FCC;
  for (int t = 0; t < 200; t++)
    {
      /* FCC: the sites of the first inside layer are at x = 1 or 2 (by
       * row parity); 1.1 lies beyond some rows' first site */
      const double f[3] = { fcc ? 1.1 : 0.7, 3 + 5 * rw_test_uniform (&rng),
                            3 + 5 * rw_test_uniform (&rng) };
      double p[3];
      at (g, f, p);
      RwGridStencil st;
      RwError err = { 0 };
      const bool located = rw_grid_locate (g, p, "receiver 1", NULL, NULL);
      if (!rw_grid_interp (g, p, "receiver 1", &st, &err))
        {
          RW_CHECK (!located, "%s near the wall: %s", name, err.message);
          continue;
        }
      RW_CHECK (located, "%s: a point rw_grid_locate refuses accepted", name);
      n_accepted++;
      n_dropped += fcc ? st.n != 4 && st.n != 6 : st.n != 8;
      check_stencil_sane (g, &st, p, name);
      for (size_t i = 0; i < st.n; i++)
        RW_CHECK (st.cell[i] % g->nx >= 1, "%s: a cell beyond the wall", name);
      /* f = a + b_y y + b_z z, constant across the wall */
      const double b[3] = { 0, 0.7, -1.3 };
      const double want = 0.4 + b[1] * p[1] + b[2] * p[2];
      if (g->lattice == RW_LATTICE_CUBIC)
        {
          RW_CHECK (st.n == 4, "%s near the wall: %zu cells, not 4", name, st.n);
          RW_CHECK (fabs (interp (g, &st, 0.4, b) - want) < 1e-12,
                    "%s near the wall: a function constant across it off by %g", name,
                    interp (g, &st, 0.4, b) - want);
        }
    }
  RW_NOTE ("%s near the wall: %zu of 200 points accepted, %zu with cells left out", name,
           n_accepted, n_dropped);
  RW_CHECK (n_accepted > 100 && n_dropped > 50, "%s near the wall: %zu accepted, %zu with cells "
            "left out", name, n_accepted, n_dropped);
  /* in a corner (three walls): still a convex combination of inside cells */
  double p[3];
  RwGridStencil st;
  at (g, fcc ? (const double[3]) { 1.1, 1.2, 1.05 } : (const double[3]) { 0.6, 0.7, 0.8 }, p);
  RW_CHECK (rw_grid_interp (g, p, "source", &st, NULL), "%s: corner point", name);
  check_stencil_sane (g, &st, p, name);
}

int
main (void)
{
  uint64_t rng = 0x1234abcdULL;
  RwGrid *cubic = rw_grid_new_box (24, 20, 18, 0.1);
  RwGrid *fcc = rw_grid_new_box_fcc (24, 20, 18, 0.1);
  RW_CHECK (cubic != NULL && fcc != NULL, "boxes");
  if (cubic == NULL || fcc == NULL)
    return rw_test_finish ();
  /* a grid not anchored at 0 */
  cubic->origin[0] = -1.234, cubic->origin[1] = 0.517, cubic->origin[2] = 2.2;
  fcc->origin[0] = 0.75, fcc->origin[1] = -3.1, fcc->origin[2] = 0.03;

  random_points (cubic, "cubic", &rng);
  random_points (fcc, "FCC", &rng);
  fcc_specials (fcc);
  on_node (cubic, (const double[3]) { 7, 9, 4 });
  on_node (fcc, (const double[3]) { 7, 9, 4 });
  on_node (fcc, (const double[3]) { 12, 3, 1 });
  near_wall (cubic, "cubic");
  near_wall (fcc, "FCC");
  rw_grid_free (cubic);
  rw_grid_free (fcc);
  return rw_test_finish ();
}
