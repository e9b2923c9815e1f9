/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-voxel.c — a closed triangle mesh turned into the solver's cell grid.
 *
 * Inside test. For each of the three axes w, lines parallel to w are cast
 * through the cell centres (one line per cell of the perpendicular plane).
 * Each line collects its crossings with the triangles: a 2-D point-in-
 * triangle test in the projected plane (u, v), then the crossing abscissa
 * on the triangle's plane. The crossings are sorted and a cell is inside
 * along that axis when the winding number of those at or before its centre
 * (each ±1 by the side it is crossed from, times its shell's sign from
 * rw_mesh_shell_signs) is not 0: the union of overlapping shells, with
 * nested shells (furniture) solid. A cell is inside when at least two of
 * the three axes say so.
 *
 * Why it is robust. A single ray's parity breaks when the ray passes
 * exactly through an edge or a vertex (counted twice, or not at all), which
 * is the rule, not the exception, for architectural models on a regular
 * grid. Here every test decides as if the cell centre p were moved to
 * p + δ, δ = (ε, ε², ε³) with ε → 0 (simulation of simplicity, Edelsbrunner
 * & Mücke 1990): a point on a projected edge lies on the side the symbolic
 * shift puts it on, the same for both triangles of the edge because the edge
 * function is evaluated with its end points in a canonical (lexicographic)
 * order, so a shared edge or vertex is crossed exactly once; a centre that
 * lies on a triangle's plane is before or after it according to n·δ. All
 * three axes thus classify the same shifted point, and agree wherever the
 * arithmetic is exact (walls on cell centres, vertices on scanlines: the
 * cases that break single-ray parity). The 2-of-3 vote absorbs what rounding
 * still flips on one axis in degenerate, non-exact input.
 *
 * Surfaces and areas. The crossings are kept per line; each missing face
 * of a boundary node finds the triangle its link to the outside neighbour
 * crosses, weighs |n_d| of that triangle's normal (the node's area is their
 * sum), and the node takes the surface of one of its faces, drawn by weight
 * (node_boundary), so that an edge or corner node gets one of the faces it
 * touches and each surface, in sum, its own area.
 *
 * FCC lattice (rw_voxelise_fcc). The same scan classifies every cell
 * centre; the sites are the inside cells with x + y + z even, K their
 * inside neighbours among the 12. Their links are face diagonals, along
 * no scan line, so a boundary site's missing links are tested against the
 * triangles of a bucket grid (FCC sites, below).
 *
 * Cost. Triangles are binned by their projected bounding box into tiles of
 * TILE × TILE lines; a line tests only its tile's triangles. The work is
 * O(lines × candidates + cells), never O(cells × triangles); the cell passes
 * are plain loops over the arrays, OpenMP over tiles, slabs and rows.
 */
#include "rw-voxel.h"
#include "rw-scheme-fcc.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rw-i18n.h"

#define TILE 8

typedef struct {
  double c;          /* crossing abscissa along the scan axis, metres */
  uint32_t tri;
  int8_t dir;        /* ±1: the side of the projected triangle the line
                        passes (its winding seen along the axis) */
} Crossing;

/* One axis: lines parallel to axis w, indexed line = j + nu·k over the
 * perpendicular axes u < v. */
typedef struct {
  int w, u, v;
  size_t nu, nv, nw;                     /* the whole lattice's cells along u, v, w */
  /* A window of z-planes (rw_voxelise_slab): the lines kept are those of
   * v in [v_off, v_off + v_n), the cells written those of w in [w_off,
   * w_off + w_n); z is v for the x and y lines, w for the z lines, and
   * the other ranges are whole. Cell indices are the window's. */
  size_t v_off, v_n, w_off, w_n;
  size_t stride_w, stride_u, stride_v;   /* cell index strides */
  size_t *line_off;                      /* nu·v_n + 1: CSR into cross */
  Crossing *cross;
} Axis;

typedef struct {
  const RwMesh *mesh;
  const int8_t *sign;  /* per triangle: its shell's orientation (rw_mesh_shell_signs) */
  RwGrid *g;         /* the window: planes [zoff, zoff + g->nz) of the lattice */
  size_t zoff;       /* the lattice's plane of g's plane 0 (0: the whole grid) */
  size_t nz_all;     /* the lattice's planes */
  double tol;        /* |c − w| below which a crossing is decided exactly */
  Axis ax[3];
} Vox;

/* The array index of lattice cell (x, y, z) in the window (z in it). */
static inline size_t
vox_index (const Vox *vx, size_t x, size_t y, size_t z)
{
  return x + vx->g->nx * (y + vx->g->ny * (z - vx->zoff));
}

/* The kept line of axis a through lattice cell xyz. */
static inline size_t
axis_line (const Axis *a, const size_t xyz[3])
{
  return xyz[a->u] + a->nu * (xyz[a->v] - a->v_off);
}

static inline double
cell_coord (const RwGrid *g, int axis, size_t i)
{
  /* the one expression for a centre coordinate: every comparison with a
   * crossing must see the same double (i the lattice's index: a window of
   * planes keeps the lattice's origin, so its centres are the same
   * doubles) */
  return g->origin[axis] + g->h * (double) i;
}

static const char *
mesh_name (const RwMesh *mesh)
{
  return mesh->path ? mesh->path : _("(mesh)");
}

/* ---- predicates ------------------------------------------------------ */

/* Side of q = (qu, qv) + (ε, ε²) with respect to the directed line a → b:
 * +1 left, −1 right, 0 only when a == b. The end points are put in
 * lexicographic order first, so that the two triangles sharing an edge
 * evaluate bit-identical products and disagree only by the traversal sign. */
static inline int
edge_side (double au, double av, double bu, double bv, double qu, double qv,
           double *magnitude)
{
  int flip = 1;
  if (au > bu || (au == bu && av > bv))
    {
      double t = au; au = bu; bu = t;
      t = av; av = bv; bv = t;
      flip = -1;
    }
  double du = bu - au, dv = bv - av;
  double e = du * (qv - av) - dv * (qu - au);
  *magnitude = fabs (e);
  if (e > 0)
    return flip;
  if (e < 0)
    return -flip;
  /* e(q + δ) = e(q) − dv·ε + du·ε² */
  if (dv != 0)
    return dv < 0 ? flip : -flip;
  if (du != 0)
    return du > 0 ? flip : -flip;
  return 0;
}

/* Whether the line through (qu, qv) along w crosses triangle t, and where. */
static inline bool
line_hits (const RwMesh *mesh, const Axis *a, uint32_t t, double qu, double qv, double *c,
           int8_t *dir)
{
  const uint32_t *tri = mesh->tri + 3 * (size_t) t;
  const double *p0 = mesh->xyz + 3 * (size_t) tri[0];
  const double *p1 = mesh->xyz + 3 * (size_t) tri[1];
  const double *p2 = mesh->xyz + 3 * (size_t) tri[2];
  int u = a->u, v = a->v, w = a->w;
  double m12, m20, m01;
  int s12 = edge_side (p1[u], p1[v], p2[u], p2[v], qu, qv, &m12);
  int s20 = edge_side (p2[u], p2[v], p0[u], p0[v], qu, qv, &m20);
  int s01 = edge_side (p0[u], p0[v], p1[u], p1[v], qu, qv, &m01);
  /* Inside a projected triangle of either winding: on the same side of all
   * three edges. A triangle seen edge-on (zero projected area) never
   * passes: its three edges lie on one line, traversed both ways. */
  if (s12 == 0 || s12 != s20 || s12 != s01)
    return false;
  /* the same sign for every triangle whose normal has a positive
   * component along w: the line enters or leaves through it */
  *dir = (int8_t) s12;
  if (p0[w] == p1[w] && p1[w] == p2[w])
    {
      *c = p0[w];    /* a wall square to the axis: exact, for the tie rule */
      return true;
    }
  double sum = m12 + m20 + m01;
  if (sum == 0)
    {
      *c = p0[w];
      return true;
    }
  double x = (m12 * p0[w] + m20 * p1[w] + m01 * p2[w]) / sum;
  double lo = fmin (p0[w], fmin (p1[w], p2[w])), hi = fmax (p0[w], fmax (p1[w], p2[w]));
  *c = fmin (hi, fmax (lo, x));
  return true;
}

/* Triangle t's normal n = (p1 − p0) × (p2 − p0) (twice its area long, the
 * same bits wherever it is computed); returns p0. */
static const double *
tri_normal (const RwMesh *mesh, size_t t, double n[3])
{
  const uint32_t *tri = mesh->tri + 3 * t;
  const double *p0 = mesh->xyz + 3 * (size_t) tri[0];
  const double *p1 = mesh->xyz + 3 * (size_t) tri[1];
  const double *p2 = mesh->xyz + 3 * (size_t) tri[2];
  double e1[3], e2[3];
  for (int k = 0; k < 3; k++)
    {
      e1[k] = p1[k] - p0[k];
      e2[k] = p2[k] - p0[k];
    }
  rw_cross3 (e1, e2, n);
  return p0;
}

/* Whether the crossing lies at or before the centre p + δ along +w, i.e.
 * counts towards the winding number of the cell whose centre is p. */
static bool
crossing_before (const Vox *vx, const Axis *a, const Crossing *cr, const double p[3])
{
  double pw = p[a->w];
  if (cr->c < pw - vx->tol)
    return true;
  if (cr->c > pw + vx->tol)
    return false;
  /* Near a tie: the side of p relative to the triangle's plane, n·(p − p0)
   * (exact when the coordinates are short dyadic numbers, as walls placed
   * on cell centres are), the shift δ deciding an exact zero. */
  double n[3], d[3];
  const double *p0 = tri_normal (vx->mesh, cr->tri, n);
  for (int k = 0; k < 3; k++)
    d[k] = p[k] - p0[k];
  if (n[a->w] == 0)
    return cr->c <= pw;
  double side = n[0] * d[0] + n[1] * d[1] + n[2] * d[2];
  if (side == 0)
    side = n[0] != 0 ? n[0] : (n[1] != 0 ? n[1] : n[2]);   /* n·δ */
  return (side > 0) == (n[a->w] > 0);
}

/* ---- scanlines ------------------------------------------------------- */

typedef struct {
  size_t cell;       /* the first cell a crossing counts for */
  int dir;           /* its winding step, ±1 */
} Start;

typedef struct {
  Crossing *buf;     /* crossings of the current line */
  size_t n_buf, cap_buf;
  Crossing *store;   /* every line this thread did, in its order */
  size_t n_store, cap_store;
  Start *first;      /* per crossing of the line: the first cell it counts for */
  size_t cap_first;
  bool failed;
} ThreadWork;

static bool
reserve (void **ptr, size_t *cap, size_t need, size_t elem)
{
  if (need <= *cap)
    return true;
  size_t cap2 = *cap ? *cap : 64;
  while (cap2 < need)
    cap2 *= 2;
  void *p = realloc (*ptr, cap2 * elem);
  if (p == NULL)
    return false;
  *ptr = p;
  *cap = cap2;
  return true;
}

static int
crossing_cmp (const void *pa, const void *pb)
{
  const Crossing *a = pa, *b = pb;
  if (a->c != b->c)
    return a->c < b->c ? -1 : 1;
  return (a->tri > b->tri) - (a->tri < b->tri);
}

static void
sort_crossings (Crossing *c, size_t n)
{
  if (n > 32)
    {
      qsort (c, n, sizeof *c, crossing_cmp);
      return;
    }
  for (size_t i = 1; i < n; i++)
    {
      Crossing x = c[i];
      size_t j = i;
      while (j > 0 && crossing_cmp (&c[j - 1], &x) > 0)
        {
          c[j] = c[j - 1];
          j--;
        }
      c[j] = x;
    }
}

typedef struct {
  uint32_t thread, n;
  size_t off;
} LineRef;

/* Casts every line along one axis: inside bit `1 << w` into g->K, and the
 * sorted crossings of each line into a->cross (CSR by a->line_off). */
static bool
scan_axis (Vox *vx, Axis *a, int n_threads, RwError *err)
{
  const RwMesh *mesh = vx->mesh;
  RwGrid *g = vx->g;
  const double h = g->h;
  const size_t nu = a->nu, nv = a->nv, nw = a->nw;
  /* the kept lines along v and the written cells along w; the tiles are
   * the whole lattice's (tile rows tv0 … tv1 − 1 kept), so that each
   * line tests the same triangles in the same order as in a whole grid */
  const size_t v_lo = a->v_off, v_hi = a->v_off + a->v_n, w_lo = a->w_off, w_hi = a->w_off + a->w_n;
  const size_t ntu = (nu + TILE - 1) / TILE, tv0 = v_lo / TILE, tv1 = (v_hi + TILE - 1) / TILE;
  const size_t n_tiles = ntu * (tv1 - tv0), n_lines = nu * a->v_n;
  const uint8_t bit = (uint8_t) (1u << a->w);

  /* Bin the triangles into tiles by their projected bounding box (the
   * floor/ceil bounds include lines that touch the box's edge). */
  size_t *tile_off = calloc (n_tiles + 1, sizeof *tile_off);
  LineRef *refs = calloc (n_lines, sizeof *refs);
  ThreadWork *tw = calloc ((size_t) n_threads, sizeof *tw);
  uint32_t *tile_tri = NULL;
  bool ok = false;
  if (tile_off == NULL || refs == NULL || tw == NULL)
    goto out;
  for (int pass = 0; pass < 2; pass++)
    {
      for (size_t t = 0; t < mesh->n_triangles; t++)
        {
          const uint32_t *tri = mesh->tri + 3 * t;
          double umin = INFINITY, umax = -INFINITY, vmin = INFINITY, vmax = -INFINITY;
          for (int k = 0; k < 3; k++)
            {
              const double *p = mesh->xyz + 3 * (size_t) tri[k];
              umin = fmin (umin, p[a->u]);
              umax = fmax (umax, p[a->u]);
              vmin = fmin (vmin, p[a->v]);
              vmax = fmax (vmax, p[a->v]);
            }
          double j0 = floor ((umin - g->origin[a->u]) / h), j1 = ceil ((umax - g->origin[a->u]) / h);
          double k0 = floor ((vmin - g->origin[a->v]) / h), k1 = ceil ((vmax - g->origin[a->v]) / h);
          j0 = fmax (j0, 1);
          k0 = fmax (k0, fmax (1, (double) v_lo));
          j1 = fmin (j1, (double) nu - 2);
          k1 = fmin (k1, fmin ((double) nv - 2, (double) v_hi - 1));
          if (j0 > j1 || k0 > k1)
            continue;
          for (size_t tv = (size_t) k0 / TILE; tv <= (size_t) k1 / TILE; tv++)
            for (size_t tu = (size_t) j0 / TILE; tu <= (size_t) j1 / TILE; tu++)
              {
                size_t tile = tu + ntu * (tv - tv0);
                if (pass == 0)
                  tile_off[tile + 1]++;
                else
                  tile_tri[tile_off[tile]++] = (uint32_t) t;
              }
        }
      if (pass == 0)
        {
          for (size_t i = 0; i < n_tiles; i++)
            tile_off[i + 1] += tile_off[i];
          tile_tri = malloc ((tile_off[n_tiles] + 1) * sizeof *tile_tri);
          if (tile_tri == NULL)
            goto out;
        }
    }
  /* the fill pass advanced each start to the next tile's: shift back */
  for (size_t i = n_tiles; i > 0; i--)
    tile_off[i] = tile_off[i - 1];
  tile_off[0] = 0;

  #pragma omp parallel num_threads (n_threads)
  {
    int me = omp_get_thread_num ();
    ThreadWork *w = &tw[me];
    double p[3];
    #pragma omp for schedule (dynamic, 1)
    for (size_t tile = 0; tile < n_tiles; tile++)
      {
        size_t tu = tile % ntu, tv = tile / ntu + tv0;
        size_t kend = (tv + 1) * TILE < nv - 1 ? (tv + 1) * TILE : nv - 1;
        size_t jend = (tu + 1) * TILE < nu - 1 ? (tu + 1) * TILE : nu - 1;
        size_t kbeg = tv * TILE > 1 ? tv * TILE : 1;
        kend = kend < v_hi ? kend : v_hi;
        kbeg = kbeg > v_lo ? kbeg : v_lo;
        for (size_t k = kbeg; k < kend && !w->failed; k++)
          for (size_t j = tu * TILE > 1 ? tu * TILE : 1; j < jend && !w->failed; j++)
            {
              double qu = cell_coord (g, a->u, j), qv = cell_coord (g, a->v, k);
              p[a->u] = qu;
              p[a->v] = qv;
              w->n_buf = 0;
              for (size_t c = tile_off[tile]; c < tile_off[tile + 1]; c++)
                {
                  double x;
                  int8_t dir;
                  if (!line_hits (mesh, a, tile_tri[c], qu, qv, &x, &dir))
                    continue;
                  if (!reserve ((void **) &w->buf, &w->cap_buf, w->n_buf + 1, sizeof (Crossing)))
                    {
                      w->failed = true;
                      break;
                    }
                  dir = (int8_t) (dir * vx->sign[tile_tri[c]]);
                  w->buf[w->n_buf++] = (Crossing) { x, tile_tri[c], dir };
                }
              if (w->n_buf == 0 || w->failed)
                continue;
              sort_crossings (w->buf, w->n_buf);

              /* Winding runs. Each crossing starts to count at the first
               * centre it lies at or before (decided exactly near a tie);
               * the winding number steps by the crossing's direction at
               * each such cell. The starts are sorted anew, since two
               * crossings with the same abscissa (faces meeting at a vertex
               * on the line) may start at different cells under the shift.
               * A cell is inside where the winding number is not 0: the
               * union of the shells, so that two overlapping closed boxes
               * are one room (parity would make their overlap solid), and
               * an obstacle's shell, oriented into the obstacle as it must
               * be in a closed consistently oriented room, cancels the
               * room's. The mesh is closed and consistently oriented
               * (rw_mesh_check_closed), so the winding number is 0 beyond
               * the last crossing. */
              if (!reserve ((void **) &w->first, &w->cap_first, w->n_buf, sizeof (Start)))
                {
                  w->failed = true;
                  continue;
                }
              for (size_t q = 0; q < w->n_buf; q++)
                {
                  double f = floor ((w->buf[q].c - g->origin[a->w]) / h) - 1;
                  size_t i = f > 1 ? (size_t) f : 1;
                  for (; i + 1 < nw; i++)
                    {
                      p[a->w] = cell_coord (g, a->w, i);
                      if (crossing_before (vx, a, &w->buf[q], p))
                        break;
                    }
                  Start *first = w->first;
                  size_t m = q;
                  while (m > 0 && first[m - 1].cell > i)
                    {
                      first[m] = first[m - 1];
                      m--;
                    }
                  first[m] = (Start) { i, w->buf[q].dir };
                }
              size_t base = j * a->stride_u + (k - v_lo) * a->stride_v;
              uint8_t *K = g->K + base;
              const size_t sw = a->stride_w;
              const Start *first = w->first;
              int winding = 0;
              for (size_t q = 0; q + 1 < w->n_buf; q++)
                {
                  winding += first[q].dir;
                  if (winding == 0)
                    continue;
                  /* the run's cells within the window */
                  size_t c0 = first[q].cell > w_lo ? first[q].cell : w_lo;
                  size_t c1 = first[q + 1].cell < w_hi ? first[q + 1].cell : w_hi;
                  for (size_t c = c0; c < c1; c++)
                    K[(c - w_lo) * sw] |= bit;
                }

              size_t line = j + nu * (k - v_lo);
              if (!reserve ((void **) &w->store, &w->cap_store, w->n_store + w->n_buf, sizeof (Crossing)))
                {
                  w->failed = true;
                  continue;
                }
              memcpy (w->store + w->n_store, w->buf, w->n_buf * sizeof (Crossing));
              refs[line] = (LineRef) { (uint32_t) me, (uint32_t) w->n_buf, w->n_store };
              w->n_store += w->n_buf;
            }
      }
  }
  for (int t = 0; t < n_threads; t++)
    if (tw[t].failed)
      goto out;

  a->line_off = malloc ((n_lines + 1) * sizeof *a->line_off);
  if (a->line_off == NULL)
    goto out;
  a->line_off[0] = 0;
  for (size_t l = 0; l < n_lines; l++)
    a->line_off[l + 1] = a->line_off[l] + refs[l].n;
  a->cross = malloc ((a->line_off[n_lines] + 1) * sizeof *a->cross);
  if (a->cross == NULL)
    goto out;
  #pragma omp parallel for num_threads (n_threads) schedule (static)
  for (size_t l = 0; l < n_lines; l++)
    if (refs[l].n > 0)
      memcpy (a->cross + a->line_off[l], tw[refs[l].thread].store + refs[l].off,
              refs[l].n * sizeof (Crossing));
  ok = true;

out:
  if (tw != NULL)
    for (int t = 0; t < n_threads; t++)
      {
        free (tw[t].buf);
        free (tw[t].store);
        free (tw[t].first);
      }
  free (tw);
  free (refs);
  free (tile_off);
  free (tile_tri);
  if (!ok)
    return rw_fail (err, RW_ERROR_MEMORY,
                    _("%s: out of memory while casting scanlines through %zu × %zu × %zu cells"),
                    mesh_name (mesh), g->nx, g->ny, g->nz);
  return true;
}

/* ---- surfaces -------------------------------------------------------- */

/* The nearest crossing between cell (x, y, z) and its neighbour one step
 * along ±axis a, as (distance, triangle); false when the line has none
 * there. A crossing lies between the two cells when it is before one
 * centre and not before the other. */
static bool
crossing_towards (const Vox *vx, const Axis *a, const size_t xyz[3], int dir,
                  double *dist, uint32_t *tri)
{
  const RwGrid *g = vx->g;
  size_t i = xyz[a->w];
  size_t line = axis_line (a, xyz);
  const Crossing *c = a->cross + a->line_off[line];
  size_t n = a->line_off[line + 1] - a->line_off[line];
  if (n == 0)
    return false;
  double p[3] = { cell_coord (g, 0, xyz[0]), cell_coord (g, 1, xyz[1]), cell_coord (g, 2, xyz[2]) };
  double q[3] = { p[0], p[1], p[2] };
  double pw = p[a->w];
  q[a->w] = cell_coord (g, a->w, dir > 0 ? i + 1 : i - 1);
  double lo_w = fmin (pw, q[a->w]) - vx->tol, hi_w = fmax (pw, q[a->w]) + vx->tol;
  /* first crossing at or after lo_w */
  size_t lo = 0, hi = n;
  while (lo < hi)
    {
      size_t mid = (lo + hi) / 2;
      if (c[mid].c < lo_w)
        lo = mid + 1;
      else
        hi = mid;
    }
  bool found = false;
  for (size_t k = lo; k < n && c[k].c <= hi_w; k++)
    {
      bool at_p = crossing_before (vx, a, &c[k], p), at_q = crossing_before (vx, a, &c[k], q);
      if (at_p == at_q)
        continue;
      double d = fabs (c[k].c - pw);
      if (!found || d < *dist)
        {
          *dist = d;
          *tri = c[k].tri;
          found = true;
        }
    }
  return found;
}

/* |n_axis| of triangle t's unit normal: the share of the triangle's area
 * that the links along `axis` see (its projection on the plane square to
 * the axis over its area). 1 for a degenerate triangle, which no line
 * crosses anyway. */
static double
normal_component (const RwMesh *mesh, uint32_t t, int axis)
{
  double n[3];
  tri_normal (mesh, t, n);
  double len = sqrt (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  if (!(len > 0))
    return 1.0;
  return fmin (1.0, fabs (n[axis]) / len);
}

/* A number in [0, 1) for cell (x, y, z): frac (x·a₁ + y·a₂ + z·a₃), the
 * R₃ sequence of Roberts (2018), a = (1/g, 1/g², 1/g³), g⁴ = g + 1. Along
 * any row of cells (an edge of the room) the numbers fill [0, 1) evenly (a
 * Weyl sequence of irrational step), so the nodes of an edge split their
 * surfaces in the right proportion to within a node or two, where
 * independent draws would stray by √(nodes). Fixed by the cell alone: the
 * same whatever the threads. */
static double
cell_uniform (size_t x, size_t y, size_t z)
{
  const double g = 1.22074408460575947536;
  double u = (double) x / g + (double) y / (g * g) + (double) z / (g * g * g);
  return u - floor (u);
}

/* The triangle of the crossing nearest to cell xyz on the cell's three
 * lines (the local wall), UINT32_MAX when they cross nothing: for a link
 * whose neighbour is outside by the vote and crosses no triangle. */
static uint32_t
nearest_line_triangle (const Vox *vx, const size_t xyz[3])
{
  double near = INFINITY;
  uint32_t near_tri = UINT32_MAX;
  for (int axis = 0; axis < 3; axis++)
    {
      const Axis *a = &vx->ax[axis];
      size_t line = axis_line (a, xyz);
      double pw = cell_coord (vx->g, axis, xyz[axis]);
      for (size_t c = a->line_off[line]; c < a->line_off[line + 1]; c++)
        if (fabs (a->cross[c].c - pw) < near)
          {
            near = fabs (a->cross[c].c - pw);
            near_tri = a->cross[c].tri;
          }
    }
  return near_tri;
}

/* The index among weight[0 … n) (total s) whose share of [0, s) holds
 * the cell's number (cell_uniform): each is drawn with probability
 * weight / s, the same whatever the threads. */
static int
draw_by_weight (const double *weight, int n, double s, size_t x, size_t y, size_t z)
{
  double u = cell_uniform (x, y, z) * s, cum = 0;
  int pick = 0;
  for (int f = 0; f < n; f++)
    {
      cum += weight[f];
      pick = f;
      if (u < cum)
        break;
    }
  return pick;
}

/* The surface behind a boundary node's missing neighbours, and its
 * absorbing area in h² (rw-voxel.h: RwGrid.area).
 *
 * Area. A plane of unit normal n is crossed by |n_d|/h² links along axis d
 * per unit of its area, and each crossed link is a missing face of the
 * inside cell at its end: counting faces (6 − K per node) gives the plane
 * Σ_d |n_d| ≥ 1 times its area (√3 on a (1,1,1) plane, cos θ + sin θ on a
 * plane tilted by θ about one axis). Weighting each face by the |n_d| of
 * the triangle its link crosses gives Σ_d n_d² = 1 times the area, as
 * PFFDTD (Hamilton 2021) weights its cut links.
 *
 * Surface. A node has one surface, but a node on an edge or in a corner
 * has faces on two or three. Giving it the surface of the nearest crossing
 * (as before) or of its heaviest faces hands the whole node to one of them
 * by a rule that favours the same side all along the edge: on a box at
 * h = 0.1 m, up to ±19 % of a wall's area went to its neighbours. The node
 * takes the surface of one of its faces drawn with probability weight /
 * area, by a number fixed by its cell index: each surface then gets, in
 * expectation, exactly the weight of its own faces, and the draw is the
 * same whatever the threads. */
static uint16_t
node_boundary (const Vox *vx, size_t x, size_t y, size_t z, float *area)
{
  const RwGrid *g = vx->g;
  const RwMesh *mesh = vx->mesh;
  const size_t xyz[3] = { x, y, z };
  const size_t stride[3] = { 1, g->nx, g->nx * g->ny };
  size_t i = vox_index (vx, x, y, z);
  int face_axis[6], n_faces = 0;
  uint32_t face_tri[6];                /* UINT32_MAX: the link crosses nothing */
  bool unmatched = false;
  for (int axis = 0; axis < 3; axis++)
    for (int dir = -1; dir <= 1; dir += 2)
      {
        size_t nb = dir > 0 ? i + stride[axis] : i - stride[axis];
        if (g->K[nb] != 0)
          continue;
        double d;
        uint32_t t;
        if (!crossing_towards (vx, &vx->ax[axis], xyz, dir, &d, &t))
          {
            t = UINT32_MAX;
            unmatched = true;
          }
        face_axis[n_faces] = axis;
        face_tri[n_faces++] = t;
      }
  if (unmatched)
    {
      /* The neighbour is outside by the vote (or was an isolated cell), not
       * by this axis's winding: the face takes the orientation and the
       * surface of the nearest crossing on any of the node's three lines
       * (the local wall), a whole face of surface 0 when there is none. */
      uint32_t near_tri = nearest_line_triangle (vx, xyz);
      for (int f = 0; f < n_faces; f++)
        if (face_tri[f] == UINT32_MAX)
          face_tri[f] = near_tri;
    }
  double weight[6], s = 0;
  for (int f = 0; f < n_faces; f++)
    {
      weight[f] = face_tri[f] == UINT32_MAX ? 1.0 : normal_component (mesh, face_tri[f], face_axis[f]);
      s += weight[f];
    }
  *area = (float) s;
  int pick = draw_by_weight (weight, n_faces, s, x, y, z);
  if (n_faces == 0 || face_tri[pick] == UINT32_MAX)
    return 0;
  return (uint16_t) mesh->tri_surface[face_tri[pick]];
}

/* ---- FCC sites: the triangles their diagonal links cross ----------- */

/* The links of an FCC site are face diagonals, along no scan line, so the
 * crossings kept per line do not serve them. Each triangle is binned into
 * the buckets of FCC_BUCKET³ cells that the box of the bucket grown by a
 * cell on every side meets (bounding boxes overlapping and the triangle's
 * plane passing through the grown box: a superset). A link's points lie
 * within half a cell (per axis) of its midpoint, so every triangle the
 * link can touch is in the bucket holding the midpoint: one bucket per
 * link, no duplicates. */
#define FCC_BUCKET 4

typedef struct {
  size_t nb[3];        /* the lattice's buckets per axis */
  size_t bz0, bz1;     /* the bucket planes kept: those a window's links reach */
  size_t *off;         /* CSR over nb[0]·nb[1]·(bz1 − bz0) buckets */
  uint32_t *tri;
} TriBuckets;

static void
buckets_free (TriBuckets *b)
{
  free (b->off);
  free (b->tri);
  b->off = NULL;
  b->tri = NULL;
}

static bool
buckets_build (const Vox *vx, TriBuckets *b)
{
  const RwMesh *mesh = vx->mesh;
  const RwGrid *g = vx->g;
  const double B = FCC_BUCKET;
  const size_t n[3] = { g->nx, g->ny, vx->nz_all };
  for (int k = 0; k < 3; k++)
    b->nb[k] = (n[k] + FCC_BUCKET - 1) / FCC_BUCKET;
  /* the links of the window's sites off its first and last planes have
   * their midpoints in [zoff, zoff + nz − 1] */
  b->bz0 = vx->zoff / FCC_BUCKET;
  b->bz1 = (vx->zoff + g->nz - 1) / FCC_BUCKET + 1;
  if (b->bz1 > b->nb[2])
    b->bz1 = b->nb[2];
  const size_t n_all = b->nb[0] * b->nb[1] * (b->bz1 - b->bz0);
  b->off = calloc (n_all + 1, sizeof *b->off);
  b->tri = NULL;
  if (b->off == NULL)
    return false;
  for (int pass = 0; pass < 2; pass++)
    {
      for (size_t t = 0; t < mesh->n_triangles; t++)
        {
          /* the triangle in cell units, where a bucket is B wide */
          double c[3][3], lo[3] = { INFINITY, INFINITY, INFINITY }, hi[3] = { -INFINITY, -INFINITY, -INFINITY };
          for (int q = 0; q < 3; q++)
            for (int k = 0; k < 3; k++)
              {
                c[q][k] = (mesh->xyz[3 * (size_t) mesh->tri[3 * t + q] + k] - g->origin[k]) / g->h;
                lo[k] = fmin (lo[k], c[q][k]);
                hi[k] = fmax (hi[k], c[q][k]);
              }
          double e1[3], e2[3], nrm[3];
          for (int k = 0; k < 3; k++)
            {
              e1[k] = c[1][k] - c[0][k];
              e2[k] = c[2][k] - c[0][k];
            }
          rw_cross3 (e1, e2, nrm);
          size_t i0[3], i1[3];
          for (int k = 0; k < 3; k++)
            {
              double a = floor ((lo[k] - 1) / B) - 1, z = floor ((hi[k] + 1) / B);
              i0[k] = a > 0 ? (size_t) a : 0;
              i1[k] = z < (double) b->nb[k] - 1 ? (size_t) fmax (z, 0) : b->nb[k] - 1;
            }
          i0[2] = i0[2] > b->bz0 ? i0[2] : b->bz0;
          i1[2] = i1[2] < b->bz1 - 1 ? i1[2] : b->bz1 - 1;
          for (size_t bz = i0[2]; bz <= i1[2]; bz++)
            for (size_t by = i0[1]; by <= i1[1]; by++)
              for (size_t bx = i0[0]; bx <= i1[0]; bx++)
                {
                  /* the plane against the grown box [iB − 1, (i + 1)B + 1] */
                  const double ctr[3] = { ((double) bx + 0.5) * B, ((double) by + 0.5) * B,
                                          ((double) bz + 0.5) * B };
                  const double half = 0.5 * B + 1;
                  double dist = 0, reach = 0;
                  for (int k = 0; k < 3; k++)
                    {
                      dist += nrm[k] * (ctr[k] - c[0][k]);
                      reach += fabs (nrm[k]) * half;
                    }
                  if (fabs (dist) > reach * (1 + 1e-9))
                    continue;
                  size_t id = bx + b->nb[0] * (by + b->nb[1] * (bz - b->bz0));
                  if (pass == 0)
                    b->off[id + 1]++;
                  else
                    b->tri[b->off[id]++] = (uint32_t) t;
                }
        }
      if (pass == 0)
        {
          for (size_t i = 0; i < n_all; i++)
            b->off[i + 1] += b->off[i];
          b->tri = malloc ((b->off[n_all] + 1) * sizeof *b->tri);
          if (b->tri == NULL)
            return false;
        }
    }
  for (size_t i = n_all; i > 0; i--)
    b->off[i] = b->off[i - 1];
  b->off[0] = 0;
  return true;
}

/* The side of point p + δ of triangle t's plane (n the normal from
 * tri_normal, p0 its first vertex): the expression crossing_before uses,
 * so that a site on a wall is on the side the inside test put it. */
static bool
plane_side (const double n[3], const double *p0, const double p[3])
{
  double side = n[0] * (p[0] - p0[0]) + n[1] * (p[1] - p0[1]) + n[2] * (p[2] - p0[2]);
  if (side == 0)
    side = n[0] != 0 ? n[0] : (n[1] != 0 ? n[1] : n[2]);   /* n·δ */
  return side > 0;
}

/* Whether the link p → q (q = p + h·o, o one of the 12 offsets) crosses
 * triangle t: p and q on opposite sides of its plane, and the link's line
 * within tol of the closed triangle seen along o. Closed, so that a link
 * through the edge two walls share crosses both (the staircase rule); a
 * link through an edge between two triangles of one plane crosses both
 * too and counts once (link_walls). The projection along o: v the axis o
 * has no component along, u = o_b·X_a − o_a·X_b over the other two
 * (a < b), square to o. */
static bool
link_crosses (const RwMesh *mesh, uint32_t t, const double p[3], const double q[3],
              const int o[3], double tol, double n[3], double *at)
{
  const double *p0 = tri_normal (mesh, t, n);
  if (plane_side (n, p0, p) == plane_side (n, p0, q))
    return false;
  /* where along the link (0 at p, 1 at q) it meets the plane */
  double sp = n[0] * (p[0] - p0[0]) + n[1] * (p[1] - p0[1]) + n[2] * (p[2] - p0[2]);
  double sq = n[0] * (q[0] - p0[0]) + n[1] * (q[1] - p0[1]) + n[2] * (q[2] - p0[2]);
  *at = sp != sq ? sp / (sp - sq) : 0.5;
  int a0 = o[0] == 0 ? 0 : (o[1] == 0 ? 1 : 2);
  int a = a0 == 0 ? 1 : 0, b = a0 == 2 ? 1 : 2;
  double pu[3], pv[3];
  for (int k = 0; k < 3; k++)
    {
      const double *x = mesh->xyz + 3 * (size_t) mesh->tri[3 * (size_t) t + k];
      pu[k] = o[b] * x[a] - o[a] * x[b];
      pv[k] = x[a0];
    }
  double qu = o[b] * p[a] - o[a] * p[b], qv = p[a0];
  double area2 = (pu[1] - pu[0]) * (pv[2] - pv[0]) - (pv[1] - pv[0]) * (pu[2] - pu[0]);
  if (area2 == 0)
    return false;
  for (int k = 0; k < 3; k++)
    {
      int m = (k + 1) % 3;
      double du = pu[m] - pu[k], dv = pv[m] - pv[k];
      double e = du * (qv - pv[k]) - dv * (qu - pu[k]);
      /* e / |edge| is the distance from the edge's line (u is √2 times
       * stretched: tol is scaled up to match) */
      if ((area2 > 0 ? e : -e) < -2 * tol * sqrt (du * du + dv * dv))
        return false;
    }
  return true;
}

/* The walls the link from cell xyz along offset o crosses: their weights
 * (1/√2)|n̂·d̂| = |n·o|/(2|n|) (rw-scheme-fcc.h) into weight[], their
 * triangles into tri[], at most `max` of them; returns how many.
 *   Several triangles crossed at one point (the link passes through an
 * edge or a vertex) are one wall when their normals are within
 * 30° (FCC_WALL_COS) of each other (counted once, the first triangle in index
 * order): the two triangles of a wall's quad, the facets of a tessellated
 * curve. Beyond that angle they are walls meeting at an edge, each
 * counted (the staircase rule: at a box's edge both walls, which makes
 * the box's total exact). Counting both at a fold of a curve would count
 * the link twice (measured on the hall's 8-facet rear wall, whose middle
 * fold lies in a lattice plane: 14 sites over their bound).
 *   Only the walls at the link's last crossing point (nearest its outside
 * end) count: where the link leaves the room. An earlier crossing is a
 * face with air on both sides (the wall of a shell inside another shell
 * that overlaps it) or a solid thinner than the link, which the site
 * cannot resolve anyway. Not handled: such an inner face whose edge lies
 * on the outer wall exactly where a link crosses it counts as a second
 * wall there (two-boxes.obj: +0.7 % in total, docs/VOXELISER.md). */
#define FCC_WALL_COS 0.8660254037844386   /* cos 30° */
static int
link_walls (const Vox *vx, const TriBuckets *bk, const size_t xyz[3], const int o[3], bool cutter,
            double *weight, uint32_t *tri, int max)
{
  const RwGrid *g = vx->g;
  const RwMesh *mesh = vx->mesh;
  double p[3], q[3];
  size_t bi[3];
  for (int k = 0; k < 3; k++)
    {
      p[k] = cell_coord (g, k, xyz[k]);
      q[k] = cell_coord (g, k, (size_t) ((ptrdiff_t) xyz[k] + o[k]));
      bi[k] = (2 * xyz[k] + (size_t) (ptrdiff_t) o[k]) / (2 * FCC_BUCKET);
    }
  size_t id = bi[0] + bk->nb[0] * (bi[1] + bk->nb[1] * (bi[2] - bk->bz0));
  /* every triangle the link crosses, then the walls at its last
   * crossing point */
  enum { MAX_HITS = 16 };
  double unit[MAX_HITS][3], at[MAX_HITS], last = -INFINITY;
  uint32_t hit[MAX_HITS];
  int n_hits = 0;
  for (size_t c = bk->off[id]; c < bk->off[id + 1] && n_hits < MAX_HITS; c++)
    {
      uint32_t t = bk->tri[c];
      double n[3], a;
      if (!link_crosses (mesh, t, p, q, o, vx->tol, n, &a))
        continue;
      double len = sqrt (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
      if (!(len > 0))
        continue;
      for (int k = 0; k < 3; k++)
        unit[n_hits][k] = n[k] / len;
      at[n_hits] = a;
      hit[n_hits++] = t;
      last = fmax (last, a);
    }
  /* two crossings at one point: within the tolerance along the link */
  const double same_at = 2 * vx->tol / (g->h * M_SQRT2);
  int n_walls = 0, kept[MAX_HITS];
  if (cutter)
    {
      /* a corner cutter enters and leaves: crossings at two points at least */
      double first = INFINITY;
      for (int i = 0; i < n_hits; i++)
        first = fmin (first, at[i]);
      if (!(last - first > same_at))
        return 0;
    }
  for (int i = 0; i < n_hits && n_walls < max; i++)
    {
      if (!cutter && at[i] < last - same_at)
        continue;
      const double *u = unit[i];
      bool same = false;
      for (int w = 0; w < n_walls && !same; w++)
        same = fabs (at[kept[w]] - at[i]) <= same_at
               && unit[kept[w]][0] * u[0] + unit[kept[w]][1] * u[1] + unit[kept[w]][2] * u[2] > FCC_WALL_COS;
      if (same)
        continue;
      kept[n_walls] = i;
      weight[n_walls] = 0.5 * fabs (u[0] * o[0] + u[1] * o[1] + u[2] * o[2]);
      tri[n_walls++] = hit[i];
    }
  return n_walls;
}

/* The surface and absorbing area (h²) of the FCC boundary site at cell
 * (x, y, z) (rw-voxel.h, rw-scheme-fcc.h). Each missing link counts every
 * wall it crosses, (1/√2)|n̂·d̂| each: a link through the edge between two
 * walls counts both. A missing link that crosses no triangle (its
 * neighbour is outside by the vote, not by a wall between them) counts
 * the nearest crossing on the site's three scan lines, 1/2 (a wall square
 * to an axis) of surface 0 when those cross nothing. The site's surface is
 * drawn among the walls by weight, as on the cubic grid (node_boundary). */
#define FCC_MAX_WALLS 48

/* Whether an inside site of index below i is one of the lattice
 * neighbours of the site at c (within dims); *next_to_i (may be NULL):
 * whether i is one of them (meaningful when none is lesser). */
static bool
lesser_inside_next (const Vox *vx, const size_t c[3], const size_t dims[3], size_t i, bool *next_to_i)
{
  static const int off[RW_FCC_N_NBR][3] = RW_FCC_NBR_OFFSETS;
  bool next = false;
  for (int f = 0; f < RW_FCC_N_NBR; f++)
    {
      size_t a[3];
      bool ok = true;
      for (int k = 0; k < 3; k++)
        {
          a[k] = c[k] + (size_t) (ptrdiff_t) off[f][k];
          ok = ok && a[k] < dims[k];
        }
      if (!ok)
        continue;
      const size_t ia = vox_index (vx, a[0], a[1], a[2]);
      if (vx->g->K[ia] > 0 && ia < i)
        return true;
      next |= ia == i;
    }
  if (next_to_i != NULL)
    *next_to_i = next;
  return false;
}

static uint16_t
site_boundary_fcc (const Vox *vx, const TriBuckets *bk, size_t x, size_t y, size_t z, float *area)
{
  static const int off[RW_FCC_N_NBR][3] = RW_FCC_NBR_OFFSETS;
  const RwGrid *g = vx->g;
  const RwMesh *mesh = vx->mesh;
  const size_t xyz[3] = { x, y, z };
  double weight[FCC_MAX_WALLS], s = 0;
  uint32_t tri[FCC_MAX_WALLS];
  int n = 0;
  bool near_done = false;
  uint32_t near_tri = UINT32_MAX;
  for (int d = 0; d < RW_FCC_N_NBR; d++)
    {
      size_t j = vox_index (vx, x + (size_t) (ptrdiff_t) off[d][0], y + (size_t) (ptrdiff_t) off[d][1],
                            z + (size_t) (ptrdiff_t) off[d][2]);
      if (g->K[j] != 0)
        continue;
      double w[8];
      uint32_t tw[8];
      int m = link_walls (vx, bk, xyz, off[d], false, w, tw, 8);
      if (m == 0)
        {
          if (!near_done)
            {
              near_tri = nearest_line_triangle (vx, xyz);
              near_done = true;
            }
          tw[0] = near_tri;
          if (near_tri == UINT32_MAX)
            w[0] = 0.5;
          else
            {
              double nn[3];
              tri_normal (mesh, near_tri, nn);
              double len = sqrt (nn[0] * nn[0] + nn[1] * nn[1] + nn[2] * nn[2]);
              w[0] = len > 0 ? 0.5 * fabs (nn[0] * off[d][0] + nn[1] * off[d][1] + nn[2] * off[d][2]) / len
                             : 0.5;
            }
          m = 1;
        }
      for (int k = 0; k < m; k++)
        {
          s += w[k];
          if (n < FCC_MAX_WALLS)
            {
              weight[n] = w[k];
              tri[n++] = tw[k];
            }
        }
    }
  /* Corner cutters: a link between two outside sites q → q2 that crosses
   * the room (enters and leaves through two walls) near a convex edge
   * belongs to no site, and its walls would lose its weight (off the
   * lattice lines, −1 to −2 % of a room's area at h = 0.1 m,
   * docs/VOXELISER.md). It is given to one site: the inside site of least
   * index next to q or q2, from the end with the lesser index where it
   * touches both, so each cutter counts once whatever the threads. */
  const size_t i = vox_index (vx, x, y, z);
  const size_t dims[3] = { g->nx, g->ny, vx->nz_all };
  for (int d = 0; d < RW_FCC_N_NBR; d++)
    {
      size_t q[3];
      for (int k = 0; k < 3; k++)
        q[k] = xyz[k] + (size_t) (ptrdiff_t) off[d][k];
      size_t iq = vox_index (vx, q[0], q[1], q[2]);
      if (g->K[iq] != 0)
        continue;
      /* q's side of the owner's test, once for all its links: an inside
       * site of lesser index next to q owns them all, so only the least
       * of q's inside neighbours goes on (the pass over the boundary
       * sites 1.8× faster in the 30 m³ room at 4 kHz) */
      if (lesser_inside_next (vx, q, dims, i, NULL))
        continue;
      for (int e = 0; e < RW_FCC_N_NBR; e++)
        {
          size_t q2[3];
          bool in_array = true, back = true;
          for (int k = 0; k < 3; k++)
            {
              q2[k] = q[k] + (size_t) (ptrdiff_t) off[e][k];
              in_array = in_array && q2[k] < dims[k];
              back = back && off[e][k] == -off[d][k];
            }
          if (back || !in_array)
            continue;
          size_t iq2 = vox_index (vx, q2[0], q2[1], q2[2]);
          if (g->K[iq2] != 0)
            continue;
          /* the owner: the inside site of least index next to q or q2
           * (this one, unless a lesser one is found; q's side above) */
          bool next_to_q2;
          if (lesser_inside_next (vx, q2, dims, i, &next_to_q2) || (next_to_q2 && iq2 < iq))
            continue;
          double w[8];
          uint32_t tw[8];
          int m = link_walls (vx, bk, q, off[e], true, w, tw, 8);
          for (int k = 0; k < m; k++)
            {
              s += w[k];
              if (n < FCC_MAX_WALLS)
                {
                  weight[n] = w[k];
                  tri[n++] = tw[k];
                }
            }
        }
    }
  *area = (float) s;
  if (n == 0)
    return 0;
  double sw = 0;
  for (int k = 0; k < n; k++)
    sw += weight[k];
  int pick = draw_by_weight (weight, n, sw, x, y, z);
  if (tri[pick] == UINT32_MAX)
    return 0;
  return (uint16_t) mesh->tri_surface[tri[pick]];
}

/* ---- shells: nested or overlapping ---------------------------------- */

static size_t
uf_find (size_t *parent, size_t x)
{
  while (parent[x] != x)
    {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
  return x;
}

/* Whether p lies inside the closed shell made of the triangles tris[0 … n)
 * (crossing parity of a slightly skewed ray). */
static bool
inside_shell (const RwMesh *mesh, const uint32_t *tris, size_t n, const double p[3])
{
  const double d[3] = { 1.0, 1.234567e-4, 2.345678e-4 };
  int crossings = 0;
  for (size_t i = 0; i < n; i++)
    {
      double t, det;
      if (rw_mesh_ray_triangle (mesh, tris[i], p, d, &t, &det) && t > 0)
        crossings++;
    }
  return crossings & 1;
}

int8_t *
rw_mesh_shell_signs (const RwMesh *mesh)
{
  const size_t nv = mesh->n_vertices, nt = mesh->n_triangles;
  size_t *parent = malloc ((nv ? nv : 1) * sizeof *parent);
  size_t *comp_of = malloc ((nv ? nv : 1) * sizeof *comp_of);
  uint32_t *tri_comp = malloc ((nt ? nt : 1) * sizeof *tri_comp);
  int8_t *sign = malloc (nt ? nt : 1);
  size_t nc = 0;
  typedef struct {
    double vol6, lo[3], hi[3];
    uint32_t extreme[6];        /* vertices with the least and the most x, y, z */
    size_t first, n;            /* its triangles in `order` */
    int depth;
  } Shell;
  Shell *sh = NULL;
  uint32_t *order = NULL;
  if (parent == NULL || comp_of == NULL || tri_comp == NULL || sign == NULL)
    goto fail;
  for (size_t v = 0; v < nv; v++)
    parent[v] = v;
  for (size_t t = 0; t < nt; t++)
    {
      const uint32_t *tv = mesh->tri + 3 * t;
      for (int k = 0; k < 2; k++)
        {
          size_t a = uf_find (parent, tv[k]), b = uf_find (parent, tv[k + 1]);
          if (a != b)
            parent[a] = b;
        }
    }
  for (size_t v = 0; v < nv; v++)
    comp_of[v] = SIZE_MAX;
  for (size_t t = 0; t < nt; t++)
    {
      size_t r = uf_find (parent, mesh->tri[3 * t]);
      if (comp_of[r] == SIZE_MAX)
        comp_of[r] = nc++;
      tri_comp[t] = (uint32_t) comp_of[r];
    }
  sh = calloc (nc ? nc : 1, sizeof *sh);
  order = malloc ((nt ? nt : 1) * sizeof *order);
  if (sh == NULL || order == NULL)
    goto fail;
  for (size_t c = 0; c < nc; c++)
    for (int k = 0; k < 3; k++)
      {
        sh[c].lo[k] = INFINITY;
        sh[c].hi[k] = -INFINITY;
      }
  for (size_t t = 0; t < nt; t++)
    {
      Shell *c = &sh[tri_comp[t]];
      c->n++;
      const uint32_t *tv = mesh->tri + 3 * t;
      const double *a = mesh->xyz + 3 * (size_t) tv[0], *b = mesh->xyz + 3 * (size_t) tv[1],
                   *d = mesh->xyz + 3 * (size_t) tv[2];
      c->vol6 += a[0] * (b[1] * d[2] - b[2] * d[1]) - a[1] * (b[0] * d[2] - b[2] * d[0])
                 + a[2] * (b[0] * d[1] - b[1] * d[0]);
      for (int q = 0; q < 3; q++)
        {
          const double *p = mesh->xyz + 3 * (size_t) tv[q];
          for (int k = 0; k < 3; k++)
            {
              if (p[k] < c->lo[k])
                {
                  c->lo[k] = p[k];
                  c->extreme[2 * k] = tv[q];
                }
              if (p[k] > c->hi[k])
                {
                  c->hi[k] = p[k];
                  c->extreme[2 * k + 1] = tv[q];
                }
            }
        }
    }
  for (size_t c = 1; c < nc; c++)
    sh[c].first = sh[c - 1].first + sh[c - 1].n;
  {
    size_t *fill = calloc (nc ? nc : 1, sizeof *fill);
    if (fill == NULL)
      goto fail;
    for (size_t t = 0; t < nt; t++)
      order[sh[tri_comp[t]].first + fill[tri_comp[t]]++] = (uint32_t) t;
    free (fill);
  }
  /* A shell whose extreme points all lie inside another shell (whose
   * bounding box holds it) is nested in it. */
  for (size_t c = 0; c < nc && nc > 1; c++)
    for (size_t d = 0; d < nc; d++)
      {
        if (d == c || sh[c].lo[0] < sh[d].lo[0] || sh[c].lo[1] < sh[d].lo[1] || sh[c].lo[2] < sh[d].lo[2]
            || sh[c].hi[0] > sh[d].hi[0] || sh[c].hi[1] > sh[d].hi[1] || sh[c].hi[2] > sh[d].hi[2])
          continue;
        bool all = true;
        for (int e = 0; e < 6 && all; e++)
          all = inside_shell (mesh, order + sh[d].first, sh[d].n, mesh->xyz + 3 * (size_t) sh[c].extreme[e]);
        if (all)
          sh[c].depth++;
      }
  /* Effective orientation: outward at even depth, inward at odd depth. */
  for (size_t t = 0; t < nt; t++)
    {
      const Shell *c = &sh[tri_comp[t]];
      int want = c->depth % 2 == 0 ? 1 : -1, have = c->vol6 < 0 ? -1 : 1;
      sign[t] = (int8_t) (want * have);
    }
  free (parent);
  free (comp_of);
  free (tri_comp);
  free (sh);
  free (order);
  return sign;

fail:
  free (parent);
  free (comp_of);
  free (tri_comp);
  free (sign);
  free (sh);
  free (order);
  return NULL;
}

/* ---- overlapping shells ---------------------------------------------- */

static bool mesh_bbox (const RwMesh *mesh, double bmin[3], double bmax[3]);

static int
shell_crossing_cmp (const void *pa, const void *pb)
{
  const Crossing *a = pa, *b = pb;
  return (a->c > b->c) - (a->c < b->c);
}

static void
note_inner_surface (const RwMesh *mesh, uint32_t tri, RwMeshShells *out)
{
  uint32_t s = mesh->tri_surface[tri];
  for (size_t i = 0; i < out->n_inner_surfaces && i < RW_MESH_SHELLS_MAX_SURFACES; i++)
    if (out->inner_surfaces[i] == s)
      return;
  if (out->n_inner_surfaces < RW_MESH_SHELLS_MAX_SURFACES)
    out->inner_surfaces[out->n_inner_surfaces] = s;
  out->n_inner_surfaces++;
}

/* rw_mesh_shells along one axis: the lengths summed over the lines times
 * the area each line stands for. */
static bool
shells_along (const RwMesh *mesh, const int8_t *sign, int w, size_t n_lines, const double bmin[3],
              const double bmax[3], RwMeshShells *out, double *union_m3, double *overlap_m3)
{
  const Axis a = { .w = w, .u = w == 0 ? 1 : 0, .v = w == 2 ? 1 : 2 };
  /* Lines through the centres of an n × n lattice over the bounding box,
   * shifted off the centres by an odd fraction so that they rarely meet
   * the vertices of axis-aligned models (line_hits decides those exactly
   * anyway). */
  const double du = (bmax[a.u] - bmin[a.u]) / (double) n_lines, dv = (bmax[a.v] - bmin[a.v]) / (double) n_lines;
  *union_m3 = *overlap_m3 = 0;
  if (!(du > 0) || !(dv > 0))
    return true;
  const double u0 = bmin[a.u] + 0.5 * du + 1.2345e-7 * du, v0 = bmin[a.v] + 0.5 * dv + 2.3456e-7 * dv;
  const size_t n_all = n_lines * n_lines;
  size_t *off = calloc (n_all + 1, sizeof *off);
  Crossing *cross = NULL;
  bool ok = off != NULL;
  for (int pass = 0; ok && pass < 2; pass++)
    {
      for (size_t t = 0; t < mesh->n_triangles; t++)
        {
          const uint32_t *tri = mesh->tri + 3 * t;
          double umin = INFINITY, umax = -INFINITY, vmin = INFINITY, vmax = -INFINITY;
          for (int k = 0; k < 3; k++)
            {
              const double *p = mesh->xyz + 3 * (size_t) tri[k];
              umin = fmin (umin, p[a.u]);
              umax = fmax (umax, p[a.u]);
              vmin = fmin (vmin, p[a.v]);
              vmax = fmax (vmax, p[a.v]);
            }
          double j0 = fmax (0, floor ((umin - u0) / du)), j1 = fmin ((double) n_lines - 1, ceil ((umax - u0) / du));
          double k0 = fmax (0, floor ((vmin - v0) / dv)), k1 = fmin ((double) n_lines - 1, ceil ((vmax - v0) / dv));
          for (size_t k = (size_t) k0; (double) k <= k1; k++)
            for (size_t j = (size_t) j0; (double) j <= j1; j++)
              {
                double c;
                int8_t dir;
                if (!line_hits (mesh, &a, (uint32_t) t, u0 + du * (double) j, v0 + dv * (double) k, &c, &dir))
                  continue;
                size_t line = j + n_lines * k;
                if (pass == 0)
                  off[line + 1]++;
                else
                  cross[off[line]++] = (Crossing) { c, (uint32_t) t, (int8_t) (dir * sign[t]) };
              }
        }
      if (pass == 0)
        {
          for (size_t l = 0; l < n_all; l++)
            off[l + 1] += off[l];
          cross = malloc ((off[n_all] + 1) * sizeof *cross);
          ok = cross != NULL;
        }
      else
        {
          for (size_t l = n_all; l > 0; l--)
            off[l] = off[l - 1];
          off[0] = 0;
        }
    }
  if (ok)
    {
      /* Along each line: the length where the winding number is not 0
       * (the union), where it is 2 or more in size (counted twice), and
       * the surfaces that bound such a stretch: the ones inside another
       * shell. Zero-length stretches (faces that only touch) count for
       * nothing. */
      double len_union = 0, len_overlap = 0;
      for (size_t l = 0; l < n_all; l++)
        {
          Crossing *c = cross + off[l];
          size_t n = off[l + 1] - off[l];
          qsort (c, n, sizeof *c, shell_crossing_cmp);
          int winding = 0;
          for (size_t q = 0; q + 1 < n; q++)
            {
              winding += c[q].dir;
              double len = c[q + 1].c - c[q].c;
              if (winding == 0 || !(len > 0))
                continue;
              len_union += len;
              if (abs (winding) >= 2)
                {
                  len_overlap += len;
                  note_inner_surface (mesh, c[q].tri, out);
                  note_inner_surface (mesh, c[q + 1].tri, out);
                }
            }
        }
      *union_m3 = len_union * du * dv;
      *overlap_m3 = len_overlap * du * dv;
    }
  free (off);
  free (cross);
  return ok;
}

bool
rw_mesh_shells (const RwMesh *mesh, size_t n_lines, RwMeshShells *out, RwError *err)
{
  memset (out, 0, sizeof *out);
  double bmin[3], bmax[3];
  if (mesh == NULL || n_lines == 0 || !mesh_bbox (mesh, bmin, bmax))
    return true;
  /* Along all three axes: each finds the faces across it (a wall is seen
   * only by lines across it); the volumes are the mean of the three. */
  int8_t *sign = rw_mesh_shell_signs (mesh);
  bool ok = sign != NULL;
  for (int w = 0; w < 3 && ok; w++)
    {
      double u, o;
      ok = shells_along (mesh, sign, w, n_lines, bmin, bmax, out, &u, &o);
      out->union_volume_m3 += u / 3;
      out->overlap_volume_m3 += o / 3;
    }
  free (sign);
  if (!ok)
    return rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory while looking for overlapping shells"),
                    mesh_name (mesh));
  return true;
}

/* ---- the grid -------------------------------------------------------- */

static bool
grid_alloc (RwGrid *g)
{
  size_t n = g->nx * g->ny * g->nz, cols = g->nx * g->ny;
  g->K = calloc (n, 1);
  g->surface = malloc (n * sizeof *g->surface);
  g->zlo = malloc (cols * sizeof *g->zlo);
  g->zhi = malloc (cols * sizeof *g->zhi);
  g->surface_area_m2 = calloc (g->n_surfaces ? g->n_surfaces : 1, sizeof *g->surface_area_m2);
  return g->K && g->surface && g->zlo && g->zhi && g->surface_area_m2;
}

static size_t
phys_memory_bytes (void)
{
  long pages = sysconf (_SC_PHYS_PAGES), size = sysconf (_SC_PAGE_SIZE);
  if (pages <= 0 || size <= 0)
    return SIZE_MAX;
  return (size_t) pages * (size_t) size;
}

/* Cells of the grid and bytes: 1 (K) + 2 (surface) per cell, 8 per
 * column (zlo, zhi), 4 per boundary node (area), 8 per surface
 * (surface_area_m2), and the working set of the scan: per line of each
 * axis 8 bytes of offsets, 16 of line record and, assumed, four crossings
 * of 16 bytes; per triangle and axis 4 bytes of tile lists per tile
 * touched (assumed 4); 8 bytes per row (y, z) of node offsets and 2 per
 * boundary node of surface ids for the per-surface sums. On the FCC
 * lattice also the triangle buckets of the boundary pass: 8 bytes per
 * bucket of FCC_BUCKET³ cells and 4 per (triangle, bucket) entry
 * (bin_entries, from mesh_estimate). Returns SIZE_MAX when it
 * overflows. */
static size_t
memory_bytes (size_t nx, size_t ny, size_t nz, size_t n_triangles, double n_boundary,
              size_t n_surfaces, RwLattice lattice, double bin_entries)
{
  if (nx == 0 || ny == 0 || nz == 0)
    return 0;
  if (nx > SIZE_MAX / ny || nx * ny > SIZE_MAX / nz)
    return SIZE_MAX;
  size_t cells = nx * ny * nz;
  if (cells > SIZE_MAX / 4)
    return SIZE_MAX;
  double lines = (double) ny * nz + (double) nx * nz + (double) nx * ny;
  double bytes = 3.0 * (double) cells + 8.0 * (double) nx * ny
                 + 6.0 * fmin (n_boundary, (double) cells) + 8.0 * (double) n_surfaces
                 + lines * (8 + 16 + 4 * 16) + 3.0 * 4 * 4 * (double) n_triangles
                 + 8.0 * (double) ny * nz;
  if (lattice == RW_LATTICE_FCC)
    {
      const double B = FCC_BUCKET;
      bytes += 8.0 * ceil ((double) nx / B) * ceil ((double) ny / B) * ceil ((double) nz / B)
               + 4.0 * bin_entries;
    }
  if (bytes >= (double) SIZE_MAX)
    return SIZE_MAX;
  return (size_t) bytes;
}

/* The boundary nodes a mesh will give at spacing h, from above: every
 * boundary node has a missing face, whose link crosses the mesh, and the
 * links along axis d crossing a triangle number about its area times
 * |n_d| / h², so the crossed links number Σ (|n_x| + |n_y| + |n_z|)·A / h²
 * (plus a rim of a few per h of edge). On the FCC lattice the links of
 * offset o (one of 6 up to sign, length h√2, 1/(2h³) sites) crossing a
 * triangle number A·|n̂·o|/(2h²): Σ₆ |n·o|/(4h²) with |n| = 2A. *bin_entries:
 * the (triangle, bucket) pairs of the FCC buckets, about A·Σ|n̂_k|·(B + 2)
 * / (B³h²) (the buckets a plane meets, grown by a cell) plus 27 (a small
 * triangle's conservative box of 3³ buckets). */
static double
mesh_estimate (const RwMesh *mesh, double h, RwLattice lattice, double *bin_entries)
{
  static const int dirs[6][3] = { { 1, 1, 0 }, { 1, -1, 0 }, { 1, 0, 1 }, { 1, 0, -1 }, { 0, 1, 1 }, { 0, 1, -1 } };
  const double B = FCC_BUCKET;
  double sum = 0, bins = 0;
  for (size_t t = 0; t < mesh->n_triangles; t++)
    {
      double n[3];
      tri_normal (mesh, t, n);
      /* |n| is twice the area; the rim: about a node per h of edge, taken
       * as 2·√(area)/h (a triangle's perimeter is at least 4.5·√area, and
       * each edge is shared by two triangles) */
      double area = 0.5 * sqrt (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
      double l1 = fabs (n[0]) + fabs (n[1]) + fabs (n[2]);
      if (lattice == RW_LATTICE_FCC)
        {
          double links = 0;
          for (int d = 0; d < 6; d++)
            links += fabs (n[0] * dirs[d][0] + n[1] * dirs[d][1] + n[2] * dirs[d][2]);
          sum += links / (4 * h * h) + 2 * sqrt (area) / h;
          bins += 0.5 * l1 * (B + 2) / (B * B * B * h * h) + 27;
        }
      else
        sum += 0.5 * l1 / (h * h) + 2 * sqrt (area) / h;
    }
  if (bin_entries)
    *bin_entries = bins;
  return sum;
}

/* The automatic lattice: centred on the bounding box, round (e/h) + 4 cells
 * along an extent e. The centres within the extent then number exactly
 * round (e/h) (whichever of integer or half-integer offsets from the middle
 * the parity of n gives), so a box of any size is neither systematically
 * shrunk nor grown; a side that is a whole multiple of h falls exactly
 * halfway between two centres, so a box of whole cells gets exactly its
 * cells; and the first and last centres lie at least 1.25·h beyond the
 * box, so the outside layer is there on every side. */
static void
auto_lattice (const double bmin[3], const double bmax[3], double h,
              double origin[3], double n[3])
{
  for (int k = 0; k < 3; k++)
    {
      double e = bmax[k] - bmin[k];
      n[k] = floor (e / h + 0.5) + 4;
      origin[k] = 0.5 * (bmin[k] + bmax[k]) - 0.5 * h * (n[k] - 1);
    }
}

void
rw_voxel_auto_lattice (const double bmin[3], const double bmax[3], double h, double origin[3],
                       size_t n[3])
{
  double nd[3];
  auto_lattice (bmin, bmax, h, origin, nd);
  for (int k = 0; k < 3; k++)
    n[k] = (size_t) nd[k];
}

static bool
mesh_bbox (const RwMesh *mesh, double bmin[3], double bmax[3])
{
  for (int k = 0; k < 3; k++)
    {
      bmin[k] = INFINITY;
      bmax[k] = -INFINITY;
    }
  for (size_t i = 0; i < mesh->n_vertices; i++)
    for (int k = 0; k < 3; k++)
      {
        double x = mesh->xyz[3 * i + k];
        if (!isfinite (x))
          return false;
        bmin[k] = fmin (bmin[k], x);
        bmax[k] = fmax (bmax[k], x);
      }
  return mesh->n_vertices > 0;
}

static size_t
voxel_memory_bytes (const RwMesh *mesh, double spacing_m, RwLattice lattice)
{
  double bmin[3], bmax[3], origin[3], n[3], bins;
  if (mesh == NULL || !(spacing_m > 0) || !isfinite (spacing_m) || !mesh_bbox (mesh, bmin, bmax))
    return 0;
  auto_lattice (bmin, bmax, spacing_m, origin, n);
  if (n[0] * n[1] * n[2] > 1e18)
    return SIZE_MAX;
  double nb = mesh_estimate (mesh, spacing_m, lattice, &bins);
  return memory_bytes ((size_t) n[0], (size_t) n[1], (size_t) n[2], mesh->n_triangles, nb,
                       mesh->n_surfaces, lattice, bins);
}

size_t
rw_voxel_memory_bytes (const RwMesh *mesh, double spacing_m)
{
  return voxel_memory_bytes (mesh, spacing_m, RW_LATTICE_CUBIC);
}

size_t
rw_voxel_memory_bytes_fcc (const RwMesh *mesh, double spacing_m)
{
  return voxel_memory_bytes (mesh, spacing_m, RW_LATTICE_FCC);
}

static bool
check_mesh (const RwMesh *mesh, RwError *err)
{
  if (!rw_mesh_check_closed (mesh, err))
    return false;
  if (mesh->n_surfaces == 0 || mesh->n_surfaces >= RW_NO_SURFACE)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("%s: %zu surfaces; the voxeliser handles 1 to %d"),
                    mesh_name (mesh), mesh->n_surfaces, RW_NO_SURFACE - 1);
  for (size_t t = 0; t < mesh->n_triangles; t++)
    {
      if (mesh->tri_surface[t] >= mesh->n_surfaces)
        return rw_fail (err, RW_ERROR_INPUT, _("%s: triangle %zu names surface %u of %zu"),
                        mesh_name (mesh), t, mesh->tri_surface[t], mesh->n_surfaces);
      for (int k = 0; k < 3; k++)
        if (mesh->tri[3 * t + k] >= mesh->n_vertices)
          return rw_fail (err, RW_ERROR_INPUT, _("%s: triangle %zu uses vertex %u of %zu"),
                          mesh_name (mesh), t, mesh->tri[3 * t + k], mesh->n_vertices);
    }
  return true;
}

/* Validation shared by the two entry points: the mesh is closed, its
 * surfaces fit in the grid's 16-bit ids, its coordinates are finite. */
static bool
check_input (const RwMesh *mesh, double spacing_m, double bmin[3], double bmax[3], RwError *err)
{
  if (mesh == NULL)
    return rw_fail (err, RW_ERROR_INPUT, _("no mesh to voxelise"));
  if (!isfinite (spacing_m) || !(spacing_m > 0))
    return rw_fail (err, RW_ERROR_INPUT, _("%s: grid spacing %g m must be finite and positive"),
                    mesh_name (mesh), spacing_m);
  if (!check_mesh (mesh, err))
    return false;
  if (!mesh_bbox (mesh, bmin, bmax))
    return rw_fail (err, RW_ERROR_INPUT, _("%s: the mesh has non-finite coordinates"),
                    mesh_name (mesh));
  return true;
}

/* The planes [wz0, wz1) of the grid of the lattice (origin, n) as a grid
 * of their own (nz = wz1 − wz0, origin the lattice's: cell (x, y, z) of
 * the window is the lattice's (x, y, z + wz0)), each cell as the whole
 * grid has it where it can be known from the window: the inside bits on
 * every plane, K where its neighbours' planes are in the window or it is
 * the lattice's outer layer (K = 0 on the window's first and last planes
 * otherwise), surfaces and areas for the boundary nodes of the planes
 * [az0, az1) only, whose reach must lie in the window (RW_VOXEL_REACH);
 * the other boundary nodes keep an area entry of 0 and no surface.
 * surface_area_m2 sums the nodes that have areas; n_inside, n_boundary,
 * zlo, zhi are the window's. The whole grid: [0, n[2]) both. A window
 * without inside cells is no error. */
static RwGrid *
voxelise_window (const RwMesh *mesh, double spacing_m, const double origin[3],
                 const size_t n[3], int threads, const double bmin[3], const double bmax[3],
                 RwLattice lattice, size_t wz0, size_t wz1, size_t az0, size_t az1, RwError *err)
{
  const bool whole = wz0 == 0 && wz1 == n[2];
  for (int k = 0; k < 3; k++)
    {
      /* the outside layer: centres 0 and n − 1 must lie beyond the mesh */
      if (n[k] < 3 || !isfinite (origin[k]) || !(origin[k] < bmin[k])
          || !(origin[k] + spacing_m * (double) (n[k] - 1) > bmax[k]) || n[k] > UINT32_MAX)
        {
          rw_fail (err, RW_ERROR_INPUT,
                   _("%s: the grid (%zu cells from %.4g m along axis %d) does not cover "
                     "the mesh (%.4g … %.4g m) with a layer of outside cells"),
                   mesh_name (mesh), n[k], origin[k], k, bmin[k], bmax[k]);
          return NULL;
        }
    }

  double bins, n_boundary_est = mesh_estimate (mesh, spacing_m, lattice, &bins);
  if (!whole)
    {
      /* a window's share of the boundary (by planes: an estimate) */
      n_boundary_est *= (double) (wz1 - wz0) / (double) n[2];
      bins *= (double) (wz1 - wz0) / (double) n[2];
    }
  size_t need = memory_bytes (n[0], n[1], wz1 - wz0, mesh->n_triangles, n_boundary_est,
                              mesh->n_surfaces, lattice, bins);
  size_t have = phys_memory_bytes ();
  if (need == SIZE_MAX || need > have)
    {
      double side = fmax (bmax[0] - bmin[0], fmax (bmax[1] - bmin[1], bmax[2] - bmin[2]));
      if (side > 200.0)
        /* the usual cause: a model in millimetres or centimetres read as metres */
        rw_fail (err, RW_ERROR_MEMORY,
                 _("%s: voxelising at h = %.4g m needs %.3g GiB for %zu × %zu × %zu cells, "
                   "more than this machine's %.3g GiB: the model is %.4g × %.4g × %.4g m; "
                   "if its units are millimetres or centimetres, import it with a scale of "
                   "0.001 or 0.01"),
                 mesh_name (mesh), spacing_m, (double) need / 1073741824.0, n[0], n[1], n[2],
                 (double) have / 1073741824.0, bmax[0] - bmin[0], bmax[1] - bmin[1],
                 bmax[2] - bmin[2]);
      else
        rw_fail (err, RW_ERROR_MEMORY,
                 _("%s: voxelising at h = %.4g m needs %.3g GiB for %zu × %zu × %zu cells, "
                   "more than this machine's %.3g GiB; choose a lower maximum frequency"),
                 mesh_name (mesh), spacing_m, (double) need / 1073741824.0, n[0], n[1], n[2],
                 (double) have / 1073741824.0);
      return NULL;
    }

  RwGrid *g = calloc (1, sizeof *g);
  if (g == NULL)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("out of memory"));
      return NULL;
    }
  g->nx = n[0];
  g->ny = n[1];
  g->nz = wz1 - wz0;
  g->h = spacing_m;
  for (int k = 0; k < 3; k++)
    g->origin[k] = origin[k];
  g->n_surfaces = mesh->n_surfaces;
  g->lattice = lattice;
  if (!grid_alloc (g))
    {
      rw_fail (err, RW_ERROR_MEMORY,
               _("%s: could not allocate %.3g GiB for %zu × %zu × %zu cells at h = %.4g m"),
               mesh_name (mesh), (double) need / 1073741824.0, n[0], n[1], n[2], spacing_m);
      rw_grid_free (g);
      return NULL;
    }

  const int n_threads = threads > 0 ? threads : omp_get_max_threads ();
  const size_t nx = g->nx, ny = g->ny, nz = g->nz, sxy = nx * ny;
  Vox vx = { .mesh = mesh, .g = g, .zoff = wz0, .nz_all = n[2] };
  double extent = 0;
  for (int k = 0; k < 3; k++)
    extent = fmax (extent, fmax (fabs (bmin[k]), fabs (bmax[k])));
  vx.tol = 1e-9 * (extent + spacing_m);
  const size_t dims[3] = { nx, ny, n[2] }, strides[3] = { 1, nx, sxy };
  for (int w = 0; w < 3; w++)
    {
      Axis *a = &vx.ax[w];
      a->w = w;
      a->u = w == 0 ? 1 : 0;
      a->v = w == 2 ? 1 : 2;
      a->nu = dims[a->u];
      a->nv = dims[a->v];
      a->nw = dims[w];
      a->v_off = a->v == 2 ? wz0 : 0;
      a->v_n = a->v == 2 ? nz : a->nv;
      a->w_off = w == 2 ? wz0 : 0;
      a->w_n = w == 2 ? nz : a->nw;
      a->stride_w = strides[w];
      a->stride_u = strides[a->u];
      a->stride_v = strides[a->v];
    }

  int8_t *sign = rw_mesh_shell_signs (mesh);
  if (sign == NULL)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory while looking for overlapping shells"),
               mesh_name (mesh));
      goto fail;
    }
  vx.sign = sign;
  bool ok = true;
  for (int w = 0; w < 3 && ok; w++)
    ok = scan_axis (&vx, &vx.ax[w], n_threads, err);
  free (sign);
  vx.sign = NULL;
  if (!ok)
    goto fail;

  /* Vote and count in one pass: a cell is inside when two of its three
   * inside bits are set (the table), and K is the number of its six
   * neighbours for which that holds. The count goes into `surface` (free
   * until the last pass) so that no cell is read while it is written; the
   * outside layer has no bits set, so the ±1 neighbours of an inside cell
   * exist. A cell with no inside neighbour gets K = 0: it is dropped. */
  static const uint8_t vote[8] = { 0, 0, 0, 1, 0, 1, 1, 1 };
  const size_t n_cells = nx * ny * nz;
  /* FCC: only the cells of even x + y + z are sites, K the count of the
   * 12 neighbours (all of even parity) inside by the same vote; a site
   * none of whose neighbours is inside adds to no site's K, so dropping
   * it changes no other count, as on the cubic grid. */
  static const int off[RW_FCC_N_NBR][3] = RW_FCC_NBR_OFFSETS;
  const bool fcc = lattice == RW_LATTICE_FCC;
  ptrdiff_t step[RW_FCC_N_NBR];
  for (int d = 0; d < RW_FCC_N_NBR; d++)
    step[d] = off[d][0] + (ptrdiff_t) nx * off[d][1] + (ptrdiff_t) sxy * off[d][2];
  #pragma omp parallel for num_threads (n_threads) schedule (static)
  for (size_t z = 0; z < nz; z++)
    for (size_t y = 0; y < ny; y++)
      {
        const uint8_t *K = g->K + nx * (y + ny * z);
        uint16_t *out = g->surface + nx * (y + ny * z);
        if ((z == 0 || z == nz - 1) && !whole)
          /* a window's first and last planes: their neighbours beyond are
           * not here (the lattice's outer layer has no bits anyway) */
          for (size_t x = 0; x < nx; x++)
            out[x] = 0;
        else if (!fcc)
          /* signed offsets: x − nx as a size_t wraps, and a pointer plus
           * a wrapped offset is undefined even where the cell exists */
          for (size_t x = 0; x < nx; x++)
            {
              const uint8_t *k = K + x;
              const ptrdiff_t sy = (ptrdiff_t) nx, sz = (ptrdiff_t) sxy;
              out[x] = vote[k[0] & 7]
                       ? (uint16_t) (vote[k[-1] & 7] + vote[k[1] & 7] + vote[k[-sy] & 7]
                                     + vote[k[sy] & 7] + vote[k[-sz] & 7] + vote[k[sz] & 7])
                       : 0;
            }
        else
          /* the sites of the row: x of the parity of y + z */
          for (size_t x = 0; x < nx; x++)
            {
              unsigned cnt = 0;
              if (((x + y + z + wz0) & 1) == 0 && vote[K[x] & 7])
                for (int d = 0; d < RW_FCC_N_NBR; d++)
                  cnt += vote[K[(ptrdiff_t) x + step[d]] & 7];
              out[x] = (uint16_t) cnt;
            }
      }
  #pragma omp parallel for num_threads (n_threads) schedule (static)
  for (size_t i = 0; i < n_cells; i++)
    g->K[i] = (uint8_t) g->surface[i];

  /* Counts and column ranges ([zlo, zhi) spans the inside cells of each
   * (x, y)) in one pass, a thread per row of columns; the boundary nodes of
   * each row (y, z) are counted too, so that the next pass knows where
   * each row's nodes start in the sparse area array. */
  size_t n_inside = 0, n_boundary = 0;
  const size_t n_rows = ny * nz;
  const int max_k = rw_grid_max_k (g);
  TriBuckets buckets = { { 0, 0, 0 }, 0, 0, NULL, NULL };
  size_t *row_start = calloc (n_rows + 1, sizeof *row_start);
  uint16_t *node_surface = NULL;   /* per boundary node, for the totals */
  if (row_start == NULL)
    goto nodes_out_of_memory;
  #pragma omp parallel for num_threads (n_threads) schedule (dynamic, 1) reduction (+ : n_inside, n_boundary)
  for (size_t y = 0; y < ny; y++)
    {
      uint32_t *lo = g->zlo + nx * y, *hi = g->zhi + nx * y;
      for (size_t x = 0; x < nx; x++)
        {
          lo[x] = UINT32_MAX;
          hi[x] = 0;
        }
      for (size_t z = 0; z < nz; z++)
        {
          size_t row = nx * (y + ny * z), in_row = 0;
          const uint8_t *K = g->K + row;
          uint16_t *surface = g->surface + row;
          for (size_t x = 0; x < nx; x++)
            {
              uint8_t k = K[x];
              surface[x] = RW_NO_SURFACE;
              if (k == 0)
                continue;
              n_inside++;
              if (lo[x] == UINT32_MAX)
                lo[x] = (uint32_t) z;
              hi[x] = (uint32_t) z + 1;
              in_row += k < max_k;
            }
          row_start[y + ny * z + 1] = in_row;
          n_boundary += in_row;
        }
      for (size_t x = 0; x < nx; x++)
        if (lo[x] == UINT32_MAX)
          lo[x] = 0;
    }
  for (size_t r = 0; r < n_rows; r++)
    row_start[r + 1] += row_start[r];

  /* Surfaces and absorbing areas, a thread per row: each row writes its
   * own slice of the area array, in index order. */
  g->area = malloc ((n_boundary ? n_boundary : 1) * sizeof *g->area);
  node_surface = malloc ((n_boundary ? n_boundary : 1) * sizeof *node_surface);
  if (g->area == NULL || node_surface == NULL)
    goto nodes_out_of_memory;
  if (lattice == RW_LATTICE_FCC && az0 < az1 && !buckets_build (&vx, &buckets))
    goto nodes_out_of_memory;
  #pragma omp parallel for num_threads (n_threads) schedule (dynamic, 64)
  for (size_t r = 0; r < n_rows; r++)
    {
      if (row_start[r] == row_start[r + 1])
        continue;
      size_t y = r % ny, z = r / ny + wz0, b = row_start[r];
      const uint8_t *K = g->K + nx * r;
      uint16_t *surface = g->surface + nx * r;
      const bool areas = z >= az0 && z < az1;
      for (size_t x = 0; x < nx; x++)
        if (K[x] > 0 && K[x] < max_k)
          {
            if (!areas)
              {
                g->area[b] = 0;
                node_surface[b++] = RW_NO_SURFACE;
                continue;
              }
            surface[x] = lattice == RW_LATTICE_FCC
                         ? site_boundary_fcc (&vx, &buckets, x, y, z, &g->area[b])
                         : node_boundary (&vx, x, y, z, &g->area[b]);
            node_surface[b++] = surface[x];
          }
    }
  /* the per-surface totals in index order, one thread over the nodes
   * alone: the same sums whatever the number of threads */
  for (size_t b = 0; b < n_boundary; b++)
    if (node_surface[b] != RW_NO_SURFACE)
      g->surface_area_m2[node_surface[b]] += (double) g->area[b] * spacing_m * spacing_m;
  free (row_start);
  free (node_surface);
  buckets_free (&buckets);
  g->n_inside = n_inside;
  g->n_boundary = n_boundary;
  if (n_inside == 0 && whole)
    {
      rw_fail (err, RW_ERROR_INPUT,
               _("%s: no cell of h = %.4g m fits inside the %.4g × %.4g × %.4g m model; "
                 "the grid is too coarse for it (raise the maximum frequency) or the model "
                 "is not a room"),
               mesh_name (mesh), spacing_m, bmax[0] - bmin[0], bmax[1] - bmin[1], bmax[2] - bmin[2]);
      goto fail;
    }

  for (int w = 0; w < 3; w++)
    {
      free (vx.ax[w].line_off);
      free (vx.ax[w].cross);
    }
  return g;

nodes_out_of_memory:
  free (row_start);
  free (node_surface);
  buckets_free (&buckets);
  rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory for the boundary nodes of %zu × %zu × %zu cells"),
           mesh_name (mesh), nx, ny, nz);
fail:
  for (int w = 0; w < 3; w++)
    {
      free (vx.ax[w].line_off);
      free (vx.ax[w].cross);
    }
  rw_grid_free (g);
  return NULL;
}

RwGrid *
rw_voxelise_lattice (const RwMesh *mesh, double spacing_m, const double origin[3],
                     const size_t n[3], int threads, RwError *err)
{
  double bmin[3], bmax[3];
  if (!check_input (mesh, spacing_m, bmin, bmax, err))
    return NULL;
  return voxelise_window (mesh, spacing_m, origin, n, threads, bmin, bmax, RW_LATTICE_CUBIC, 0, n[2],
                          0, n[2], err);
}

RwGrid *
rw_voxelise_fcc_lattice (const RwMesh *mesh, double spacing_m, const double origin[3],
                         const size_t n[3], int threads, RwError *err)
{
  double bmin[3], bmax[3];
  if (!check_input (mesh, spacing_m, bmin, bmax, err))
    return NULL;
  return voxelise_window (mesh, spacing_m, origin, n, threads, bmin, bmax, RW_LATTICE_FCC, 0, n[2],
                          0, n[2], err);
}

/* The checks and the automatic lattice of rw_voxelise. */
static bool
auto_checked (const RwMesh *mesh, double spacing_m, double bmin[3], double bmax[3],
              double origin[3], size_t n[3], RwError *err)
{
  double nd[3];
  if (!check_input (mesh, spacing_m, bmin, bmax, err))
    return false;
  auto_lattice (bmin, bmax, spacing_m, origin, nd);
  if (!(nd[0] * nd[1] * nd[2] <= 1e15))
    return rw_fail (err, RW_ERROR_MEMORY,
                    _("%s: at h = %.4g m the %.4g × %.4g × %.4g m room needs %.3g cells, "
                      "far more than any machine holds; check the model's units and the maximum "
                      "frequency"),
                    mesh_name (mesh), spacing_m, bmax[0] - bmin[0], bmax[1] - bmin[1],
                    bmax[2] - bmin[2], nd[0] * nd[1] * nd[2]);
  for (int k = 0; k < 3; k++)
    n[k] = (size_t) nd[k];
  return true;
}

static RwGrid *
voxelise_auto (const RwMesh *mesh, double spacing_m, int threads, RwLattice lattice, RwError *err)
{
  double bmin[3], bmax[3], origin[3];
  size_t n[3];
  if (!auto_checked (mesh, spacing_m, bmin, bmax, origin, n, err))
    return NULL;
  return voxelise_window (mesh, spacing_m, origin, n, threads, bmin, bmax, lattice, 0, n[2], 0, n[2],
                          err);
}

bool
rw_voxel_lattice (const RwMesh *mesh, double spacing_m, double origin[3], size_t n[3],
                  RwError *err)
{
  double bmin[3], bmax[3];
  return auto_checked (mesh, spacing_m, bmin, bmax, origin, n, err);
}

/* rw_voxelise_planes of a mesh already checked (auto_checked gave bmin,
 * bmax, origin and n), so that a caller that needs the lattice first
 * checks the mesh once. */
static RwGrid *
planes_checked (const RwMesh *mesh, double spacing_m, RwLattice lattice, const double bmin[3],
                const double bmax[3], const double origin[3], const size_t n[3], size_t z0,
                size_t z1, size_t area_z0, size_t area_z1, int threads, RwError *err)
{
  if (lattice != RW_LATTICE_CUBIC && lattice != RW_LATTICE_FCC)
    {
      rw_fail (err, RW_ERROR_INPUT, _("Unknown grid lattice %d"), (int) lattice);
      return NULL;
    }
  /* the planes the areas' nodes look at, within the lattice */
  const size_t r0 = area_z0 > RW_VOXEL_REACH ? area_z0 - RW_VOXEL_REACH : 0;
  const size_t r1 = area_z1 + RW_VOXEL_REACH < n[2] ? area_z1 + RW_VOXEL_REACH : n[2];
  if (!(z0 < z1 && z1 <= n[2]) || area_z0 > area_z1
      || (area_z0 < area_z1 && !(z0 <= r0 && r1 <= z1)))
    {
      rw_fail (err, RW_ERROR_INPUT,
               _("%s: a window of planes [%zu, %zu) cannot give the areas of planes [%zu, %zu) "
                 "of a grid of %zu planes: they need the %d planes on each side"),
               mesh_name (mesh), z0, z1, area_z0, area_z1, n[2], RW_VOXEL_REACH);
      return NULL;
    }
  return voxelise_window (mesh, spacing_m, origin, n, threads, bmin, bmax, lattice, z0, z1,
                          area_z0, area_z1, err);
}

RwGrid *
rw_voxelise_planes (const RwMesh *mesh, double spacing_m, RwLattice lattice, size_t z0, size_t z1,
                    size_t area_z0, size_t area_z1, int threads, RwError *err)
{
  double bmin[3], bmax[3], origin[3];
  size_t n[3];
  if (!auto_checked (mesh, spacing_m, bmin, bmax, origin, n, err))
    return NULL;
  return planes_checked (mesh, spacing_m, lattice, bmin, bmax, origin, n, z0, z1, area_z0,
                         area_z1, threads, err);
}

bool
rw_voxelise_plane_counts (const RwMesh *mesh, double spacing_m, RwLattice lattice, size_t z0,
                          size_t z1, int threads, size_t *counts, RwError *err)
{
  double bmin[3], bmax[3], origin[3];
  size_t n[3];
  if (!auto_checked (mesh, spacing_m, bmin, bmax, origin, n, err))
    return false;
  if (!(z0 < z1 && z1 <= n[2]))
    return rw_fail (err, RW_ERROR_INPUT, _("%s: planes [%zu, %zu) of a grid of %zu planes"),
                    mesh_name (mesh), z0, z1, n[2]);
  /* K of a plane needs the inside bits of the planes next to it */
  const size_t w0 = z0 > 0 ? z0 - 1 : 0, w1 = z1 < n[2] ? z1 + 1 : n[2];
  RwGrid *g = planes_checked (mesh, spacing_m, lattice, bmin, bmax, origin, n, w0, w1, 0, 0,
                              threads, err);
  if (g == NULL)
    return false;
  const size_t nxy = g->nx * g->ny;
  for (size_t z = z0; z < z1; z++)
    {
      const uint8_t *K = g->K + (z - w0) * nxy;
      size_t c = 0;
      for (size_t i = 0; i < nxy; i++)
        c += K[i] != 0;
      counts[z - z0] = c;
    }
  rw_grid_free (g);
  return true;
}

RwGrid *
rw_voxelise (const RwMesh *mesh, double spacing_m, int threads, RwError *err)
{
  return voxelise_auto (mesh, spacing_m, threads, RW_LATTICE_CUBIC, err);
}

RwGrid *
rw_voxelise_fcc (const RwMesh *mesh, double spacing_m, int threads, RwError *err)
{
  return voxelise_auto (mesh, spacing_m, threads, RW_LATTICE_FCC, err);
}

RwGrid *
rw_grid_new_box (size_t nx, size_t ny, size_t nz, double spacing_m)
{
  if (nx == 0 || ny == 0 || nz == 0 || !isfinite (spacing_m) || !(spacing_m > 0)
      || nx > UINT32_MAX - 2 || ny > UINT32_MAX - 2 || nz > UINT32_MAX - 2)
    return NULL;
  RwGrid *g = calloc (1, sizeof *g);
  if (g == NULL)
    return NULL;
  /* the room is [0, nx·h] × [0, ny·h] × [0, nz·h]: inside centres at
   * (i + ½)·h, cell 0 the outside layer */
  g->nx = nx + 2;
  g->ny = ny + 2;
  g->nz = nz + 2;
  g->n_surfaces = 1;
  /* the boundary nodes: all cells less the inner block (none when a side
   * is a single cell: every node of a slab misses a neighbour) */
  size_t n_all = nx * ny * nz;
  size_t n_core = (nx > 2 && ny > 2 && nz > 2) ? (nx - 2) * (ny - 2) * (nz - 2) : 0;
  if (memory_bytes (g->nx, g->ny, g->nz, 0, 0, 1, RW_LATTICE_CUBIC, 0) == SIZE_MAX || !grid_alloc (g))
    {
      rw_grid_free (g);
      return NULL;
    }
  g->area = malloc ((n_all - n_core) * sizeof *g->area);
  if (g->area == NULL)
    {
      rw_grid_free (g);
      return NULL;
    }
  g->h = spacing_m;
  for (int k = 0; k < 3; k++)
    g->origin[k] = -0.5 * spacing_m;
  const size_t gx = g->nx, gy = g->ny, gz = g->nz;
  size_t n_boundary = 0;
  #pragma omp parallel for schedule (static) reduction (+ : n_boundary)
  for (size_t z = 0; z < gz; z++)
    for (size_t y = 0; y < gy; y++)
      for (size_t x = 0; x < gx; x++)
        {
          size_t i = x + gx * (y + gy * z);
          bool in = x > 0 && y > 0 && z > 0 && x < gx - 1 && y < gy - 1 && z < gz - 1;
          uint8_t k = 0;
          if (in)
            k = (uint8_t) ((x > 1) + (x < gx - 2) + (y > 1) + (y < gy - 2) + (z > 1) + (z < gz - 2));
          g->K[i] = k;
          g->surface[i] = (k > 0 && k < 6) ? 0 : RW_NO_SURFACE;
          n_boundary += k > 0 && k < 6;
        }
  /* columns: every inside column holds cells 1 … gz − 2 (a box of a
   * single cell has no inside neighbour and is dropped, like rw_voxelise) */
  size_t n_inside = 0;
  for (size_t y = 0; y < gy; y++)
    for (size_t x = 0; x < gx; x++)
      {
        size_t c = x + gx * y;
        bool col = x > 0 && y > 0 && x < gx - 1 && y < gy - 1 && g->K[rw_grid_index (g, x, y, 1)] > 0;
        g->zlo[c] = col ? 1 : 0;
        g->zhi[c] = col ? (uint32_t) (gz - 1) : 0;
        n_inside += col ? gz - 2 : 0;
      }
  g->n_inside = n_inside;
  g->n_boundary = n_boundary;
  /* every wall is square to an axis: each missing face is a whole h² */
  size_t b = 0;
  for (size_t i = 0; i < gx * gy * gz; i++)
    if (g->K[i] > 0 && g->K[i] < 6)
      g->area[b++] = (float) (6 - g->K[i]);
  rw_grid_face_areas_m2 (g, g->surface_area_m2);
  return g;
}

RwGrid *
rw_grid_new_box_fcc (size_t nx, size_t ny, size_t nz, double spacing_m)
{
  if (nx < 2 || ny < 2 || nz < 2)
    return NULL;
  RwGrid *g = rw_grid_new_box (nx, ny, nz, spacing_m);
  if (g == NULL)
    return NULL;
  g->lattice = RW_LATTICE_FCC;
  const size_t gx = g->nx, gy = g->ny, gz = g->nz;
  static const int off[RW_FCC_N_NBR][3] = RW_FCC_NBR_OFFSETS;
  size_t n_inside = 0, n_boundary = 0;
  /* the box's inside cells keep K > 0 from rw_grid_new_box; a site is one
   * of even parity, K its inside sites among the 12 */
  uint8_t *in = malloc (gx * gy * gz);
  if (in == NULL)
    {
      rw_grid_free (g);
      return NULL;
    }
  for (size_t i = 0; i < gx * gy * gz; i++)
    in[i] = g->K[i] > 0;
  float *area = realloc (g->area, gx * gy * gz * sizeof *area);
  if (area == NULL)
    {
      free (in);
      rw_grid_free (g);
      return NULL;
    }
  g->area = area;
  for (size_t z = 0; z < gz; z++)
    for (size_t y = 0; y < gy; y++)
      for (size_t x = 0; x < gx; x++)
        {
          size_t i = rw_grid_index (g, x, y, z);
          int k = 0;
          float a = 0;
          if (in[i] && (x + y + z) % 2 == 0)
            for (int d = 0; d < RW_FCC_N_NBR; d++)
              {
                size_t j = rw_grid_index (g, x + off[d][0], y + off[d][1], z + off[d][2]);
                if (in[j])
                  k++;
                else
                  {
                    /* h²/2 for each wall of the box the link crosses */
                    const size_t c[3] = { x, y, z }, n[3] = { gx, gy, gz };
                    for (int e = 0; e < 3; e++)
                      if ((off[d][e] < 0 && c[e] == 1) || (off[d][e] > 0 && c[e] == n[e] - 2))
                        a += 0.5f;
                  }
              }
          g->K[i] = (uint8_t) k;
          g->surface[i] = (k > 0 && k < RW_FCC_N_NBR) ? 0 : RW_NO_SURFACE;
          if (k > 0 && k < RW_FCC_N_NBR)
            g->area[n_boundary++] = a;
          n_inside += k > 0;
        }
  free (in);
  /* columns: the span of their sites */
  for (size_t y = 0; y < gy; y++)
    for (size_t x = 0; x < gx; x++)
      {
        size_t col = x + gx * y;
        uint32_t lo = 0, hi = 0;
        for (size_t z = 0; z < gz; z++)
          if (g->K[rw_grid_index (g, x, y, z)] > 0)
            {
              if (lo == hi)
                lo = (uint32_t) z;
              hi = (uint32_t) z + 1;
            }
        g->zlo[col] = lo;
        g->zhi[col] = hi;
      }
  g->n_inside = n_inside;
  g->n_boundary = n_boundary;
  float *shrunk = realloc (g->area, (n_boundary ? n_boundary : 1) * sizeof *g->area);
  if (shrunk != NULL)
    g->area = shrunk;
  g->surface_area_m2[0] = 0;
  for (size_t b = 0; b < n_boundary; b++)
    g->surface_area_m2[0] += g->area[b] * g->h * g->h;
  return g;
}

/* no "-0.00" in messages */
static double
tidy (double x)
{
  return fabs (x) < 0.005 ? 0.0 : x;
}

/* rw_grid_locate on g holding the planes [zoff, zoff + g->nz) of a grid
 * of nz_all planes (rw_voxelise_planes: the lattice's origin), the index
 * the whole grid's. */
static bool
locate_in (const RwGrid *g, size_t zoff, size_t nz_all, const double p[3], const char *what,
           size_t *index, RwError *err)
{
  size_t c[3];
  bool inside = true;
  const size_t n[3] = { g->nx, g->ny, nz_all };
  for (int k = 0; k < 3 && inside; k++)
    {
      double f = (p[k] - g->origin[k]) / g->h;
      if (!isfinite (f) || f < -0.5 || f >= (double) n[k] - 0.5)
        inside = false;
      else
        c[k] = (size_t) floor (f + 0.5);
    }
  if (inside && g->lattice == RW_LATTICE_FCC && (c[0] + c[1] + c[2]) % 2 == 1)
    {
      /* the nearest site (x + y + z even): round the coordinate that was
       * rounded furthest the other way (the D3 lattice's nearest point) */
      int kmax = 0;
      double emax = -1;
      for (int k = 0; k < 3; k++)
        {
          double e = fabs ((p[k] - g->origin[k]) / g->h - (double) c[k]);
          if (e > emax)
            emax = e, kmax = k;
        }
      double f = (p[kmax] - g->origin[kmax]) / g->h;
      if (f >= (double) c[kmax])
        c[kmax]++;
      else if (c[kmax] > 0)
        c[kmax]--;
      else
        c[kmax]++;
      if (c[kmax] >= n[kmax])
        inside = false;
    }
  if (inside && (c[2] < zoff || c[2] >= zoff + g->nz))
    return rw_fail (err, RW_ERROR_INTERNAL, _("%s: plane %zu is not in the window [%zu, %zu)"),
                    what ? what : _("point"), c[2], zoff, zoff + g->nz);
  if (inside && g->K[rw_grid_index (g, c[0], c[1], c[2] - zoff)] == 0)
    inside = false;
  if (!inside && (zoff > 0 || g->nz < nz_all))
    /* a window knows not the room's extent */
    return rw_fail (err, RW_ERROR_INPUT, _("%s at (%.2f, %.2f, %.2f) m lies outside the room"),
                    what ? what : _("point"), p[0], p[1], p[2]);
  if (!inside)
    {
      /* the room's extent from the column ranges, for the message */
      double lo[3] = { INFINITY, INFINITY, INFINITY }, hi[3] = { -INFINITY, -INFINITY, -INFINITY };
      for (size_t y = 0; y < g->ny; y++)
        for (size_t x = 0; x < g->nx; x++)
          {
            size_t col = x + g->nx * y;
            if (g->zlo[col] == g->zhi[col])
              continue;
            const double cell[3][2] = { { (double) x, (double) x }, { (double) y, (double) y },
                                        { (double) g->zlo[col], (double) g->zhi[col] - 1 } };
            for (int k = 0; k < 3; k++)
              {
                lo[k] = fmin (lo[k], g->origin[k] + g->h * (cell[k][0] - 0.5));
                hi[k] = fmax (hi[k], g->origin[k] + g->h * (cell[k][1] + 0.5));
              }
          }
      if (!(lo[0] <= hi[0]))
        return rw_fail (err, RW_ERROR_INPUT,
                        _("%s at (%.2f, %.2f, %.2f) m lies outside the room (the grid has no air)"),
                        what ? what : _("point"), p[0], p[1], p[2]);
      return rw_fail (err, RW_ERROR_INPUT,
                      _("%s at (%.2f, %.2f, %.2f) m lies outside the room "
                        "(its air spans x %.2f … %.2f, y %.2f … %.2f, z %.2f … %.2f m)"),
                      what ? what : _("point"), p[0], p[1], p[2],
                      tidy (lo[0]), tidy (hi[0]), tidy (lo[1]), tidy (hi[1]), tidy (lo[2]), tidy (hi[2]));
    }
  if (index)
    *index = c[0] + g->nx * (c[1] + g->ny * c[2]);
  return true;
}

bool
rw_grid_locate (const RwGrid *g, const double p[3], const char *what,
                size_t *index, RwError *err)
{
  return locate_in (g, 0, g->nz, p, what, index, err);
}

/* Adds cell (x, y, z) (signed: the stencil may reach below 0 next to the
 * array's edge) with weight w to the stencil when w is not negligible. */
static void
stencil_add (const RwGrid *g, size_t zoff, size_t nz_all, RwGridStencil *st, const long long c[3],
             double w)
{
  const long long n[3] = { (long long) g->nx, (long long) g->ny, (long long) nz_all };
  if (!(w > 1e-12) || st->n == RW_GRID_STENCIL_MAX)
    return;
  for (int k = 0; k < 3; k++)
    if (c[k] < 0 || c[k] >= n[k])
      return;
  /* a window holds the stencil's planes (rw_voxel_interp) */
  if ((size_t) c[2] < zoff || (size_t) c[2] >= zoff + g->nz)
    return;
  size_t i = rw_grid_index (g, (size_t) c[0], (size_t) c[1], (size_t) c[2] - zoff);
  if (g->K[i] == 0)
    return;
  st->cell[st->n] = i + zoff * g->nx * g->ny;
  st->weight[st->n++] = w;
}

/* The FCC rule of rw_grid_interp at b + u (b the cube's corner, u in
 * [0, 1]³, units of h). */
static void
stencil_fcc (const RwGrid *g, size_t zoff, size_t nz_all, RwGridStencil *st, const long long b[3],
             const double u[3])
{
  const bool b_even = ((b[0] + b[1] + b[2]) & 1) == 0;
  /* the octahedron round an odd corner of the cube, if u lies in it
   * (|u − c|₁ < 1; the odd corners are 2 apart in L1, so at most one) */
  for (int m = 0; m < 8; m++)
    {
      const int c[3] = { m & 1, (m >> 1) & 1, (m >> 2) & 1 };
      if (((c[0] + c[1] + c[2]) & 1) == (b_even ? 0 : 1))
        continue;   /* an even corner: a site */
      double d[3], l1 = 0;
      for (int k = 0; k < 3; k++)
        d[k] = u[k] - c[k], l1 += fabs (d[k]);
      if (!(l1 < 1.0))
        continue;
      const double rest = (1.0 - l1) / 6.0;
      for (int k = 0; k < 3; k++)
        for (int sgn = -1; sgn <= 1; sgn += 2)
          {
            long long v[3] = { b[0] + c[0], b[1] + c[1], b[2] + c[2] };
            v[k] += sgn;
            stencil_add (g, zoff, nz_all, st, v, (sgn * d[k] > 0 ? fabs (d[k]) : 0.0) + rest);
          }
      return;
    }
  /* the tetrahedron of the cube's 4 even corners: on a cube whose corner
   * b is a site they are (0,0,0), (1,1,0), (1,0,1), (0,1,1), with
   * barycentric coordinates 1 − (u+v+w)/2, (u+v−w)/2, (u−v+w)/2,
   * (−u+v+w)/2; otherwise the same with x mirrored (u → 1 − u) */
  const double x = b_even ? u[0] : 1.0 - u[0], y = u[1], z = u[2];
  const int x0 = b_even ? 0 : 1, x1 = 1 - x0;
  const long long v[4][3] = { { b[0] + x0, b[1], b[2] }, { b[0] + x1, b[1] + 1, b[2] },
                              { b[0] + x1, b[1], b[2] + 1 }, { b[0] + x0, b[1] + 1, b[2] + 1 } };
  const double w[4] = { 1.0 - 0.5 * (x + y + z), 0.5 * (x + y - z), 0.5 * (x - y + z),
                        0.5 * (-x + y + z) };
  for (int i = 0; i < 4; i++)
    stencil_add (g, zoff, nz_all, st, v[i], w[i]);
}

/* rw_grid_interp on a window of planes, as locate_in. */
static bool
interp_in (const RwGrid *g, size_t zoff, size_t nz_all, const double p[3], const char *what,
           RwGridStencil *out, RwError *err)
{
  size_t nearest;
  if (!locate_in (g, zoff, nz_all, p, what, &nearest, err))
    return false;
  RwGridStencil st = { .n = 0, .nearest = nearest };
  long long b[3];
  double u[3];
  for (int k = 0; k < 3; k++)
    {
      const double f = (p[k] - g->origin[k]) / g->h, fl = floor (f);
      b[k] = (long long) fl;
      u[k] = f - fl;
      /* a point given on a node (to rounding) is that node alone */
      if (u[k] < 1e-9)
        u[k] = 0.0;
      else if (u[k] > 1.0 - 1e-9)
        u[k] = 0.0, b[k]++;
    }
  if (g->lattice == RW_LATTICE_FCC)
    stencil_fcc (g, zoff, nz_all, &st, b, u);
  else
    for (int m = 0; m < 8; m++)
      {
        const long long c[3] = { b[0] + (m & 1), b[1] + ((m >> 1) & 1), b[2] + ((m >> 2) & 1) };
        double w = 1.0;
        for (int k = 0; k < 3; k++)
          w *= (c[k] > b[k]) ? u[k] : 1.0 - u[k];
        stencil_add (g, zoff, nz_all, &st, c, w);
      }
  /* cells outside the room left out: renormalise over the others (their
   * sum is at least the nearest node's weight, 1/8 or more) */
  double sum = 0;
  bool has_nearest = false;
  for (size_t i = 0; i < st.n; i++)
    sum += st.weight[i], has_nearest = has_nearest || st.cell[i] == nearest;
  if (!has_nearest || !(sum > 0.1))
    {
      /* cannot happen for a point rw_grid_locate accepts (see rw-voxel.h);
       * rather than divide by little, the nearest node */
      st.n = 1;
      st.cell[0] = nearest;
      sum = st.weight[0] = 1.0;
    }
  for (size_t i = 0; sum != 1.0 && i < st.n; i++)
    st.weight[i] /= sum;
  if (out != NULL)
    *out = st;
  return true;
}

bool
rw_grid_interp (const RwGrid *g, const double p[3], const char *what, RwGridStencil *out,
                RwError *err)
{
  return interp_in (g, 0, g->nz, p, what, out, err);
}

bool
rw_voxel_interp (const RwMesh *mesh, double spacing_m, RwLattice lattice, const double p[3],
                 const char *what, int threads, RwGridStencil *out, RwError *err)
{
  double bmin[3], bmax[3], origin[3];
  size_t n[3];
  if (!auto_checked (mesh, spacing_m, bmin, bmax, origin, n, err))
    return false;
  /* the stencil's planes lie in [b − 1, b + 2] (b = ⌊f⌋, or b + 1 where
   * f is within 1e-9 below a whole number), the nearest site's too; K
   * is right one plane inside the window: [b − 2, b + 5) */
  const double f = floor ((p[2] - origin[2]) / spacing_m);
  const double lo = fmin (fmax (f - 2, 0), (double) n[2] - 1);
  const size_t z0 = (size_t) lo, z1 = (size_t) fmin (fmax (f + 5, lo + 1), (double) n[2]);
  RwGrid *w = planes_checked (mesh, spacing_m, lattice, bmin, bmax, origin, n, z0, z1, 0, 0,
                              threads, err);
  if (w == NULL)
    return false;
  bool ok = interp_in (w, z0, n[2], p, what, out, err);
  rw_grid_free (w);
  return ok;
}

const char *
rw_grid_interp_name (const RwGrid *g)
{
  return g->lattice == RW_LATTICE_FCC ? "fcc-linear" : "trilinear";
}

void
rw_grid_face_areas_m2 (const RwGrid *g, double *out)
{
  for (size_t s = 0; s < g->n_surfaces; s++)
    out[s] = 0;
  const size_t n = g->nx * g->ny * g->nz;
  for (size_t i = 0; i < n; i++)
    if (g->K[i] > 0 && g->K[i] < rw_grid_max_k (g) && g->surface[i] < g->n_surfaces)
      out[g->surface[i]] += rw_grid_face_count_area (g, g->K[i]);
  for (size_t s = 0; s < g->n_surfaces; s++)
    out[s] *= g->h * g->h;
}

double
rw_grid_air_volume_m3 (const RwGrid *g)
{
  /* an FCC site's cell (a rhombic dodecahedron) is 2h³ */
  return (double) g->n_inside * g->h * g->h * g->h * (g->lattice == RW_LATTICE_FCC ? 2.0 : 1.0);
}

void
rw_grid_free (RwGrid *g)
{
  if (g == NULL)
    return;
  free (g->K);
  free (g->surface);
  free (g->zlo);
  free (g->zhi);
  free (g->area);
  free (g->surface_area_m2);
  free (g);
}

int
rw_fcc_wall_entries (const RwGrid *g, size_t i, uint8_t count[RW_FCC_WALL_MAX_ENTRIES],
                     size_t member[RW_FCC_WALL_MAX_MEMBERS], uint16_t *code)
{
  static const int off[RW_FCC_N_NBR][3] = RW_FCC_NBR_OFFSETS;
  const size_t nx = g->nx, ny = g->ny;
  const ptrdiff_t x = (ptrdiff_t) (i % nx), y = (ptrdiff_t) ((i / nx) % ny),
                  z = (ptrdiff_t) (i / (nx * ny));
  int n = 0, m = 0;
  if (g->lattice != RW_LATTICE_FCC || g->K[i] == 0 || g->K[i] == RW_FCC_N_NBR)
    return 0;
  for (int d = 0; d < RW_FCC_N_NBR; d++)
    {
      const ptrdiff_t ox = x + off[d][0], oy = y + off[d][1], oz = z + off[d][2];
      /* an inside site is never on the outer layer: o is in the array */
      if (g->K[rw_grid_index (g, (size_t) ox, (size_t) oy, (size_t) oz)] != 0)
        continue;
      int c = 0;
      unsigned mask = 0;
      for (int e = 0; e < RW_FCC_N_NBR; e++)
        {
          const ptrdiff_t a = ox + off[e][0], b = oy + off[e][1], cz = oz + off[e][2];
          if (a < 0 || b < 0 || cz < 0 || a >= (ptrdiff_t) nx || b >= (ptrdiff_t) ny
              || cz >= (ptrdiff_t) g->nz)
            continue;
          const size_t j = rw_grid_index (g, (size_t) a, (size_t) b, (size_t) cz);
          if (g->K[j] != 0)
            {
              member[m + c++] = j;
              mask |= 1u << e;
            }
        }
      if (c >= 2)
        {
          if (code != NULL)
            code[n] = (uint16_t) ((unsigned) d << 12 | mask);
          count[n++] = (uint8_t) c;
          m += c;
        }
    }
  return n;
}
