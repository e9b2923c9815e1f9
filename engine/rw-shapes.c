/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-shapes.c — closed, outward-oriented room shapes built in code.
 *
 * Every shape shares its vertices between the triangles that meet at them,
 * so that edges match exactly (the voxeliser's tie-breaking and the mesh
 * report's leak check both rely on it), and every triangle is wound
 * counter-clockwise seen from outside the room: normals point out of the
 * air. Each constructor gives the exact volume of the mesh it builds; the
 * voxeliser tests compare against these formulas.
 *
 * Bad dimensions (not finite, ≤ 0, a cut-out that does not fit) return NULL:
 * these are programmer-facing constructors, the user never types them.
 */
#include "rw-shapes.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

static bool
positive (double v)
{
  return isfinite (v) && v > 0.0;
}

static void
add_quad (RwMesh *m, uint32_t a, uint32_t b, uint32_t c, uint32_t d, uint32_t s)
{
  /* a b c d counter-clockwise seen from outside */
  rw_mesh_add_triangle (m, a, b, c, s);
  rw_mesh_add_triangle (m, a, c, d, s);
}

/* A plan-view region extruded between a floor and a ceiling height given per
 * plan vertex (a floor or ceiling that is a plane over the plan keeps every
 * wall quad planar, since each wall is vertical).
 *
 * plan: n_plan 2-D points. loops: the boundary loops as plan indices, the
 * outer loop counter-clockwise seen from above and holes clockwise, so that
 * the air is on the left of every boundary edge and the outside on its
 * right. tris: a triangulation of the region, counter-clockwise from above,
 * using only plan points (no T-junctions with the walls). */
typedef struct {
  size_t n_plan;
  const double (*plan)[2];
  const double *z_floor;
  const double *z_ceiling;
  size_t n_tris;
  const uint32_t (*tris)[3];
  uint32_t floor_surface, ceiling_surface;
} Extrusion;

static void
extrude (RwMesh *m, const Extrusion *e, uint32_t *vf, uint32_t *vc)
{
  for (size_t i = 0; i < e->n_plan; i++)
    vf[i] = rw_mesh_add_vertex (m, e->plan[i][0], e->plan[i][1], e->z_floor[i]);
  for (size_t i = 0; i < e->n_plan; i++)
    vc[i] = rw_mesh_add_vertex (m, e->plan[i][0], e->plan[i][1], e->z_ceiling[i]);
  for (size_t t = 0; t < e->n_tris; t++)
    {
      const uint32_t *p = e->tris[t];
      /* the floor's outside is below: reverse the plan winding */
      rw_mesh_add_triangle (m, vf[p[0]], vf[p[2]], vf[p[1]], e->floor_surface);
      rw_mesh_add_triangle (m, vc[p[0]], vc[p[1]], vc[p[2]], e->ceiling_surface);
    }
}

/* The wall over plan edge a → b of a loop (air on the left): the quad
 * floor(a), floor(b), ceiling(b), ceiling(a) faces to the right, outward. */
static void
extrude_wall (RwMesh *m, const uint32_t *vf, const uint32_t *vc,
              uint32_t a, uint32_t b, uint32_t surface)
{
  add_quad (m, vf[a], vf[b], vc[b], vc[a], surface);
}

/* The six surfaces every axis-aligned room starts with, in the order (and
 * so with the ids) the tests and docs rely on. */
typedef struct {
  uint32_t floor, ceiling, x0, x1, y0, y1;
} Shoebox;

static Shoebox
add_shoebox_surfaces (RwMesh *m)
{
  Shoebox sb;
  sb.floor = rw_mesh_add_surface (m, "floor");
  sb.ceiling = rw_mesh_add_surface (m, "ceiling");
  sb.x0 = rw_mesh_add_surface (m, "wall_x0");
  sb.x1 = rw_mesh_add_surface (m, "wall_x1");
  sb.y0 = rw_mesh_add_surface (m, "wall_y0");
  sb.y1 = rw_mesh_add_surface (m, "wall_y1");
  return sb;
}

/* The box, its four vertices at x = lx raised by `rise` (0: the box):
 * every face stays planar. */
static RwMesh *
shoebox (double lx, double ly, double lz, double rise)
{
  RwMesh *m = rw_mesh_new ();
  const Shoebox sb = add_shoebox_surfaces (m);
  const uint32_t floor_s = sb.floor, ceiling_s = sb.ceiling;
  const uint32_t x0 = sb.x0, x1 = sb.x1, y0 = sb.y0, y1 = sb.y1;

  uint32_t v[8];   /* v[i + 2j + 4k] = (i·lx, j·ly, k·(lz + i·rise)) */
  for (int k = 0; k < 2; k++)
    for (int j = 0; j < 2; j++)
      for (int i = 0; i < 2; i++)
        v[i + 2 * j + 4 * k] = rw_mesh_add_vertex (m, i * lx, j * ly, k * (lz + i * rise));

  add_quad (m, v[0], v[2], v[3], v[1], floor_s);     /* normal −z */
  add_quad (m, v[4], v[5], v[7], v[6], ceiling_s);   /* +z (tilted towards −x by the rise) */
  add_quad (m, v[0], v[4], v[6], v[2], x0);          /* −x */
  add_quad (m, v[1], v[3], v[7], v[5], x1);          /* +x */
  add_quad (m, v[0], v[1], v[5], v[4], y0);          /* −y */
  add_quad (m, v[2], v[6], v[7], v[3], y1);          /* +y */
  return m;
}

/* Volume: lx·ly·lz. */
RwMesh *
rw_shape_box (double lx, double ly, double lz)
{
  if (!positive (lx) || !positive (ly) || !positive (lz))
    return NULL;
  return shoebox (lx, ly, lz, 0);
}

/* Volume: ly·lx·(z0 + lx·tan(angle)/2). */
RwMesh *
rw_shape_sloped_ceiling (double lx, double ly, double z0, double angle_deg)
{
  if (!positive (lx) || !positive (ly) || !positive (z0) || !positive (angle_deg) || !(angle_deg < 90))
    return NULL;
  return shoebox (lx, ly, z0, lx * tan (angle_deg * M_PI / 180));
}

/* Volume: (lx·ly − (lx − cx)·(ly − cy))·lz.
 * Surfaces: floor, ceiling, wall_x0, wall_x1, wall_y0, wall_y1 and the two
 * walls of the inner corner, wall_inner_x (x = cx) and wall_inner_y (y = cy). */
RwMesh *
rw_shape_lroom (double lx, double ly, double lz, double cx, double cy)
{
  if (!positive (lx) || !positive (ly) || !positive (lz) || !positive (cx)
      || !positive (cy) || !(cx < lx) || !(cy < ly))
    return NULL;
  RwMesh *m = rw_mesh_new ();
  const Shoebox sb = add_shoebox_surfaces (m);
  const uint32_t floor_s = sb.floor, ceiling_s = sb.ceiling;
  const uint32_t x0 = sb.x0, x1 = sb.x1, y0 = sb.y0, y1 = sb.y1;
  uint32_t ix = rw_mesh_add_surface (m, "wall_inner_x");
  uint32_t iy = rw_mesh_add_surface (m, "wall_inner_y");

  const double plan[6][2] = {
    { 0, 0 }, { lx, 0 }, { lx, cy }, { cx, cy }, { cx, ly }, { 0, ly },
  };
  const double zf[6] = { 0, 0, 0, 0, 0, 0 };
  const double zc[6] = { lz, lz, lz, lz, lz, lz };
  /* The L is star-shaped from its reflex corner 3: a fan from there. */
  const uint32_t tris[4][3] = { { 3, 4, 5 }, { 3, 5, 0 }, { 3, 0, 1 }, { 3, 1, 2 } };
  Extrusion e = { 6, plan, zf, zc, 4, tris, floor_s, ceiling_s };
  uint32_t vf[6], vc[6];
  extrude (m, &e, vf, vc);
  extrude_wall (m, vf, vc, 0, 1, y0);
  extrude_wall (m, vf, vc, 1, 2, x1);
  extrude_wall (m, vf, vc, 2, 3, iy);
  extrude_wall (m, vf, vc, 3, 4, ix);
  extrude_wall (m, vf, vc, 4, 5, y1);
  extrude_wall (m, vf, vc, 5, 0, x0);
  return m;
}

/* Volume: (lx·ly − side²)·lz. (px, py) is the pillar's corner nearest the
 * origin; the pillar must lie strictly inside the floor plan.
 * Surfaces: floor, ceiling, wall_x0, wall_x1, wall_y0, wall_y1, pillar. */
RwMesh *
rw_shape_box_with_pillar (double lx, double ly, double lz,
                          double px, double py, double side)
{
  if (!positive (lx) || !positive (ly) || !positive (lz) || !positive (px)
      || !positive (py) || !positive (side) || !(px + side < lx) || !(py + side < ly))
    return NULL;
  RwMesh *m = rw_mesh_new ();
  const Shoebox sb = add_shoebox_surfaces (m);
  const uint32_t floor_s = sb.floor, ceiling_s = sb.ceiling;
  const uint32_t x0 = sb.x0, x1 = sb.x1, y0 = sb.y0, y1 = sb.y1;
  uint32_t pillar = rw_mesh_add_surface (m, "pillar");

  const double plan[8][2] = {
    { 0, 0 }, { lx, 0 }, { lx, ly }, { 0, ly },                          /* outer, CCW */
    { px, py }, { px + side, py }, { px + side, py + side }, { px, py + side },  /* inner */
  };
  const double zf[8] = { 0 };
  const double zc[8] = { lz, lz, lz, lz, lz, lz, lz, lz };
  /* The ring between the squares as four trapezoids, corner k of the outer
   * square joined to corner k of the inner one. */
  uint32_t tris[8][3];
  for (uint32_t k = 0; k < 4; k++)
    {
      uint32_t o0 = k, o1 = (k + 1) % 4, i0 = 4 + k, i1 = 4 + (k + 1) % 4;
      tris[2 * k][0] = o0; tris[2 * k][1] = o1; tris[2 * k][2] = i1;
      tris[2 * k + 1][0] = o0; tris[2 * k + 1][1] = i1; tris[2 * k + 1][2] = i0;
    }
  Extrusion e = { 8, plan, zf, zc, 8, (const uint32_t (*)[3]) tris, floor_s, ceiling_s };
  uint32_t vf[8], vc[8];
  extrude (m, &e, vf, vc);
  extrude_wall (m, vf, vc, 0, 1, y0);
  extrude_wall (m, vf, vc, 1, 2, x1);
  extrude_wall (m, vf, vc, 2, 3, y1);
  extrude_wall (m, vf, vc, 3, 0, x0);
  /* the hole's loop runs clockwise so that the air stays on the left */
  extrude_wall (m, vf, vc, 4, 7, pillar);
  extrude_wall (m, vf, vc, 7, 6, pillar);
  extrude_wall (m, vf, vc, 6, 5, pillar);
  extrude_wall (m, vf, vc, 5, 4, pillar);
  return m;
}

/* Icosphere: the icosahedron with each face split in four `subdivisions`
 * times, new vertices pushed out onto the sphere. Volume: that of the
 * inscribed polyhedron, Σ over triangles of det(a, b, c)/6 about the centre,
 * which tends to 4/3·π·r³ from below (−0.8 % at 3 subdivisions, −0.2 % at 4).
 * Surface: sphere. subdivisions in 0…8 (8: 1.3 M triangles). */
typedef struct {
  uint64_t *keys;    /* (min << 32 | max) + 1; 0 = empty */
  uint32_t *values;
  size_t mask;
} EdgeMap;

static uint32_t
midpoint (EdgeMap *map, double **xyz, size_t *n, size_t *cap, uint32_t a, uint32_t b)
{
  uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
  uint64_t key = (((uint64_t) lo << 32) | hi) + 1;
  size_t slot = (size_t) ((key * 0x9E3779B97F4A7C15ull) >> 20) & map->mask;
  while (map->keys[slot] != 0)
    {
      if (map->keys[slot] == key)
        return map->values[slot];
      slot = (slot + 1) & map->mask;
    }
  if (*n == *cap)
    {
      *cap *= 2;
      double *p = realloc (*xyz, 3 * *cap * sizeof (double));
      if (p == NULL)
        abort ();   /* as rw-mesh.c: code-built shapes treat out of memory as fatal */
      *xyz = p;
    }
  double *v = *xyz + 3 * *n;
  const double *pa = *xyz + 3 * (size_t) a, *pb = *xyz + 3 * (size_t) b;
  double len = 0;
  for (int d = 0; d < 3; d++)
    {
      v[d] = 0.5 * (pa[d] + pb[d]);
      len += v[d] * v[d];
    }
  len = sqrt (len);
  for (int d = 0; d < 3; d++)
    v[d] /= len;
  map->keys[slot] = key;
  map->values[slot] = (uint32_t) *n;
  return (uint32_t) (*n)++;
}

RwMesh *
rw_shape_sphere (double radius, int subdivisions)
{
  if (!positive (radius) || subdivisions < 0 || subdivisions > 8)
    return NULL;

  const double t = (1.0 + sqrt (5.0)) / 2.0;
  const double ico_v[12][3] = {
    { -1, t, 0 }, { 1, t, 0 }, { -1, -t, 0 }, { 1, -t, 0 },
    { 0, -1, t }, { 0, 1, t }, { 0, -1, -t }, { 0, 1, -t },
    { t, 0, -1 }, { t, 0, 1 }, { -t, 0, -1 }, { -t, 0, 1 },
  };
  const uint32_t ico_f[20][3] = {
    { 0, 11, 5 }, { 0, 5, 1 }, { 0, 1, 7 }, { 0, 7, 10 }, { 0, 10, 11 },
    { 1, 5, 9 }, { 5, 11, 4 }, { 11, 10, 2 }, { 10, 7, 6 }, { 7, 1, 8 },
    { 3, 9, 4 }, { 3, 4, 2 }, { 3, 2, 6 }, { 3, 6, 8 }, { 3, 8, 9 },
    { 4, 9, 5 }, { 2, 4, 11 }, { 6, 2, 10 }, { 8, 6, 7 }, { 9, 8, 1 },
  };

  size_t n_faces_final = 20;
  for (int s = 0; s < subdivisions; s++)
    n_faces_final *= 4;
  size_t n_v = 12, cap_v = n_faces_final / 2 + 16;   /* V = F/2 + 2 */
  size_t n_f = 20;
  double *xyz = malloc (3 * cap_v * sizeof (double));
  uint32_t *faces = malloc (3 * n_faces_final * sizeof (uint32_t));
  uint32_t *next = malloc (3 * n_faces_final * sizeof (uint32_t));
  if (xyz == NULL || faces == NULL || next == NULL)
    abort ();
  for (size_t i = 0; i < 12; i++)
    {
      double len = sqrt (ico_v[i][0] * ico_v[i][0] + ico_v[i][1] * ico_v[i][1]
                         + ico_v[i][2] * ico_v[i][2]);
      for (int d = 0; d < 3; d++)
        xyz[3 * i + d] = ico_v[i][d] / len;
    }
  for (size_t f = 0; f < 20; f++)
    for (int d = 0; d < 3; d++)
      faces[3 * f + d] = ico_f[f][d];

  for (int s = 0; s < subdivisions; s++)
    {
      size_t n_edges = n_f * 3 / 2;
      size_t size = 1;
      while (size < 2 * n_edges)
        size *= 2;
      EdgeMap map = { calloc (size, sizeof (uint64_t)), malloc (size * sizeof (uint32_t)), size - 1 };
      if (map.keys == NULL || map.values == NULL)
        abort ();
      for (size_t f = 0; f < n_f; f++)
        {
          uint32_t a = faces[3 * f], b = faces[3 * f + 1], c = faces[3 * f + 2];
          uint32_t ab = midpoint (&map, &xyz, &n_v, &cap_v, a, b);
          uint32_t bc = midpoint (&map, &xyz, &n_v, &cap_v, b, c);
          uint32_t ca = midpoint (&map, &xyz, &n_v, &cap_v, c, a);
          const uint32_t quads[4][3] = { { a, ab, ca }, { ab, b, bc }, { ca, bc, c }, { ab, bc, ca } };
          for (int q = 0; q < 4; q++)
            for (int d = 0; d < 3; d++)
              next[3 * (4 * f + q) + d] = quads[q][d];
        }
      free (map.keys);
      free (map.values);
      uint32_t *tmp = faces;
      faces = next;
      next = tmp;
      n_f *= 4;
    }

  RwMesh *m = rw_mesh_new ();
  uint32_t surface = rw_mesh_add_surface (m, "sphere");
  for (size_t i = 0; i < n_v; i++)
    rw_mesh_add_vertex (m, radius * (1.0 + xyz[3 * i]), radius * (1.0 + xyz[3 * i + 1]),
                        radius * (1.0 + xyz[3 * i + 2]));
  for (size_t f = 0; f < n_f; f++)
    {
      /* A convex shape about its centre: orient each face so that its
       * normal points away from the centre, whatever the table's winding. */
      const uint32_t *p = faces + 3 * f;
      const double *a = xyz + 3 * (size_t) p[0], *b = xyz + 3 * (size_t) p[1], *c = xyz + 3 * (size_t) p[2];
      double det = a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
                   + a[2] * (b[0] * c[1] - b[1] * c[0]);
      if (det >= 0)
        rw_mesh_add_triangle (m, p[0], p[1], p[2], surface);
      else
        rw_mesh_add_triangle (m, p[0], p[2], p[1], surface);
    }
  free (xyz);
  free (faces);
  free (next);
  return m;
}

/* A concert-hall-like room, length L along x, width W along y, height H.
 *
 * Plan (seen from above, stage at x = 0): a stage wall of width 0.7·W,
 * side walls splayed out to the full width W at x_s = L − s, and a rear wall
 * bulging out to x = L, a circular arc of sagitta s = min (0.2·L, 0.45·W)
 * through (x_s, 0), (L, W/2), (x_s, W), faceted into `facets` flat panels
 * (clamped to 1…256). The plan is convex.
 *
 * Section: the floor is raked, a plane rising from z = 0 at the stage to
 * 0.15·H at x = L; the ceiling is a plane sloping from H at the stage down
 * to 0.85·H at x = L. Every wall is vertical.
 *
 * Volume: with h(x) = H·(1 − 0.3·x/L) the clear height, linear in x,
 *   V = ∫_plan h dA = A·h(x̄) = A·H·(1 − 0.3·x̄/L),
 * A and x̄ the area and centroid abscissa of the faceted plan polygon
 * (shoelace formulas over its vertices).
 *
 * Surfaces: floor, ceiling, stage_wall, side_wall_left (y near 0),
 * side_wall_right, rear_wall. */
RwMesh *
rw_shape_hall (double length_m, double width_m, double height_m, int facets)
{
  if (!positive (length_m) || !positive (width_m) || !positive (height_m))
    return NULL;
  if (facets < 1)
    facets = 1;
  if (facets > 256)
    facets = 256;

  const double L = length_m, W = width_m, H = height_m;
  const double a = 0.15 * W;                       /* stage wall inset: 0.7·W wide */
  const double s = fmin (0.2 * L, 0.45 * W);       /* sagitta of the rear arc */
  const double xs = L - s;
  const double R = (s * s + 0.25 * W * W) / (2.0 * s);
  const double xc = L - R;
  const double theta = asin (0.5 * W / R);

  /* plan, counter-clockwise: stage corners, then the rear arc from y = 0 to y = W */
  size_t n = 2 + (size_t) facets + 1;
  double (*plan)[2] = malloc (n * sizeof *plan);
  double *zf = malloc (n * sizeof *zf), *zc = malloc (n * sizeof *zc);
  uint32_t (*tris)[3] = malloc ((n - 2) * sizeof *tris);
  uint32_t *vf = malloc (n * sizeof *vf), *vc = malloc (n * sizeof *vc);
  if (plan == NULL || zf == NULL || zc == NULL || tris == NULL || vf == NULL || vc == NULL)
    abort ();
  plan[0][0] = 0;  plan[0][1] = W - a;      /* stage, right */
  plan[1][0] = 0;  plan[1][1] = a;          /* stage, left */
  for (int k = 0; k <= facets; k++)
    {
      double phi = -theta + 2.0 * theta * k / facets;
      double *p = plan[2 + k];
      if (k == 0)
        { p[0] = xs; p[1] = 0; }
      else if (k == facets)
        { p[0] = xs; p[1] = W; }
      else
        { p[0] = xc + R * cos (phi); p[1] = 0.5 * W + R * sin (phi); }
    }
  for (size_t i = 0; i < n; i++)
    {
      zf[i] = 0.15 * H * plan[i][0] / L;
      zc[i] = H * (1.0 - 0.15 * plan[i][0] / L);
    }
  /* convex: a fan from vertex 0 */
  for (size_t i = 1; i + 1 < n; i++)
    {
      tris[i - 1][0] = 0;
      tris[i - 1][1] = (uint32_t) i;
      tris[i - 1][2] = (uint32_t) (i + 1);
    }

  RwMesh *m = rw_mesh_new ();
  uint32_t floor_s = rw_mesh_add_surface (m, "floor");
  uint32_t ceiling_s = rw_mesh_add_surface (m, "ceiling");
  uint32_t stage = rw_mesh_add_surface (m, "stage_wall");
  uint32_t left = rw_mesh_add_surface (m, "side_wall_left");
  uint32_t right = rw_mesh_add_surface (m, "side_wall_right");
  uint32_t rear = rw_mesh_add_surface (m, "rear_wall");
  Extrusion e = { n, (const double (*)[2]) plan, zf, zc, n - 2,
                  (const uint32_t (*)[3]) tris, floor_s, ceiling_s };
  extrude (m, &e, vf, vc);
  extrude_wall (m, vf, vc, 0, 1, stage);
  extrude_wall (m, vf, vc, 1, 2, left);
  for (size_t k = 2; k + 1 < n; k++)
    extrude_wall (m, vf, vc, (uint32_t) k, (uint32_t) (k + 1), rear);
  extrude_wall (m, vf, vc, (uint32_t) (n - 1), 0, right);

  free (plan);
  free (zf);
  free (zc);
  free (tris);
  free (vf);
  free (vc);
  return m;
}
