/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-mesh-report.c — what an acoustician checks before simulating a room:
 * size, volume, areas, whether the model is closed (a leak lets the wave
 * out of the room and the voxeliser cannot tell inside from outside), how
 * its normals point, and whether it was drawn in millimetres.
 *
 * Watertight (docs/IMPORT.md): every undirected edge is used by exactly two
 * triangles, which traverse it in opposite directions. That is the
 * condition for a closed, consistently oriented 2-manifold; the divergence
 * theorem then gives the enclosed volume, V = Σ (a · (b × c)) / 6 over the
 * triangles (a, b, c), positive when the normals (b − a) × (c − a) point
 * out of the room.
 */
#include "rw-mesh.h"
#include "rw-i18n.h"

/* Lines per side of the lattice that measures overlapping shells: 256² =
 * 65 536 lines along each axis, a few ms for a room, the union's volume
 * to about 1 %. */
#define RW_SHELL_LINES 256

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Directed half-edge a → b of a triangle; sorted by the undirected key so
 * that the uses of one edge lie next to each other. */
typedef struct {
  uint32_t lo, hi;   /* undirected key: lo < hi */
  bool forward;      /* true when the triangle goes lo → hi */
} HalfEdge;

static int
half_edge_cmp (const void *pa, const void *pb)
{
  const HalfEdge *a = pa, *b = pb;
  if (a->lo != b->lo)
    return a->lo < b->lo ? -1 : 1;
  if (a->hi != b->hi)
    return a->hi < b->hi ? -1 : 1;
  return (int) a->forward - (int) b->forward;
}

static double
tri_area (const double *a, const double *b, const double *c, double n[3])
{
  double u[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
  double w[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
  n[0] = u[1] * w[2] - u[2] * w[1];
  n[1] = u[2] * w[0] - u[0] * w[2];
  n[2] = u[0] * w[1] - u[1] * w[0];
  return 0.5 * sqrt (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
}

/* The unit heuristic (docs/IMPORT.md). Rooms acousticians model span about
 * 2 m (a booth) to 200 m (a stadium): a largest bounding-box side above
 * 200 m is taken for a model drawn in smaller units. The suggestion is
 * millimetres (0.001) when that gives at least 2 m, else centimetres
 * (0.01, which then gives 2–20 m). Inches (0.0254) are ambiguous with both
 * (600 units: 6 m in cm or 15 m in inches), so they are offered as the
 * alternative whenever they too give 2–200 m; the user knows the unit. */
#define RW_PLAUSIBLE_MIN_M 2.0
#define RW_PLAUSIBLE_MAX_M 200.0

static double
suggest_scale (double largest_side)
{
  if (!(largest_side > RW_PLAUSIBLE_MAX_M))
    return 0.0;
  if (largest_side * 0.001 >= RW_PLAUSIBLE_MIN_M)
    return 0.001;
  return 0.01;
}

static double
alternative_scale (double largest_side)
{
  double s = largest_side * 0.0254;
  if (!(largest_side > RW_PLAUSIBLE_MAX_M) || s < RW_PLAUSIBLE_MIN_M || s > RW_PLAUSIBLE_MAX_M)
    return 0.0;
  return 0.0254;
}

bool
rw_mesh_report (const RwMesh *mesh, RwMeshReport *r, RwError *err)
{
  memset (r, 0, sizeof *r);
  if (mesh == NULL)
    return rw_fail (err, RW_ERROR_INTERNAL, _("rw_mesh_report: no mesh"));
  const char *name = mesh->path ? mesh->path : _("(mesh)");
  r->n_surfaces = mesh->n_surfaces;
  r->surface_area_m2 = calloc (mesh->n_surfaces ? mesh->n_surfaces : 1, sizeof (double));
  if (r->surface_area_m2 == NULL)
    return rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory in the mesh report"), name);

  /* Bounding box and non-finite vertices. */
  for (int i = 0; i < 3; i++)
    {
      r->bbox_min[i] = INFINITY;
      r->bbox_max[i] = -INFINITY;
    }
  for (size_t v = 0; v < mesh->n_vertices; v++)
    {
      const double *p = mesh->xyz + 3 * v;
      if (!isfinite (p[0]) || !isfinite (p[1]) || !isfinite (p[2]))
        {
          r->n_nonfinite++;
          continue;
        }
      for (int i = 0; i < 3; i++)
        {
          r->bbox_min[i] = fmin (r->bbox_min[i], p[i]);
          r->bbox_max[i] = fmax (r->bbox_max[i], p[i]);
        }
    }
  if (r->n_nonfinite == mesh->n_vertices)
    for (int i = 0; i < 3; i++)
      r->bbox_min[i] = r->bbox_max[i] = 0;
  double diag = 0, largest = 0;
  for (int i = 0; i < 3; i++)
    {
      double d = r->bbox_max[i] - r->bbox_min[i];
      diag += d * d;
      largest = fmax (largest, d);
    }
  diag = sqrt (diag);
  /* A triangle is degenerate when its area is below (1e-9 · diagonal)²:
   * 1 µm² in a 30 m room. */
  double degenerate_area = 1e-18 * diag * diag;

  /* Volume (divergence theorem, centred at the bbox minimum to keep the
   * sum well conditioned far from the origin), areas, degenerate count. */
  double vol6 = 0;
  HalfEdge *edges = malloc ((3 * mesh->n_triangles + 1) * sizeof *edges);
  if (edges == NULL)
    {
      rw_mesh_report_clear (r);
      return rw_fail (err, RW_ERROR_MEMORY, _("%s: out of memory in the mesh report"), name);
    }
  size_t n_edges = 0;
  const double *o = r->bbox_min;
  for (size_t t = 0; t < mesh->n_triangles; t++)
    {
      const uint32_t *tv = mesh->tri + 3 * t;
      if (tv[0] >= mesh->n_vertices || tv[1] >= mesh->n_vertices || tv[2] >= mesh->n_vertices)
        {
          r->n_degenerate++;
          continue;
        }
      const double *pa = mesh->xyz + 3 * tv[0], *pb = mesh->xyz + 3 * tv[1], *pc = mesh->xyz + 3 * tv[2];
      double a[3] = { pa[0] - o[0], pa[1] - o[1], pa[2] - o[2] };
      double b[3] = { pb[0] - o[0], pb[1] - o[1], pb[2] - o[2] };
      double c[3] = { pc[0] - o[0], pc[1] - o[1], pc[2] - o[2] };
      double n[3];
      double area = tri_area (a, b, c, n);
      if (!isfinite (area))
        continue;   /* touches a non-finite vertex: counted above */
      if (area <= degenerate_area || tv[0] == tv[1] || tv[1] == tv[2] || tv[0] == tv[2])
        r->n_degenerate++;
      r->area_m2 += area;
      if (mesh->tri_surface[t] < mesh->n_surfaces)
        r->surface_area_m2[mesh->tri_surface[t]] += area;
      vol6 += a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
              + a[2] * (b[0] * c[1] - b[1] * c[0]);
      /* Index-collapsed triangles have no edges worth counting. */
      if (tv[0] == tv[1] || tv[1] == tv[2] || tv[0] == tv[2])
        continue;
      for (int k = 0; k < 3; k++)
        {
          uint32_t u = tv[k], w = tv[(k + 1) % 3];
          HalfEdge *e = &edges[n_edges++];
          e->lo = u < w ? u : w;
          e->hi = u < w ? w : u;
          e->forward = u < w;
        }
    }
  r->volume_m3 = vol6 / 6.0;

  /* Edge classification. */
  qsort (edges, n_edges, sizeof *edges, half_edge_cmp);
  for (size_t i = 0; i < n_edges;)
    {
      size_t j = i;
      size_t n_fwd = 0;
      while (j < n_edges && edges[j].lo == edges[i].lo && edges[j].hi == edges[i].hi)
        n_fwd += edges[j++].forward;
      size_t uses = j - i;
      if (uses == 1)
        {
          if (r->n_edge_samples < RW_MESH_REPORT_MAX_EDGES)
            {
              double *s = r->edge_samples[r->n_edge_samples++];
              memcpy (s, mesh->xyz + 3 * edges[i].lo, 3 * sizeof (double));
              memcpy (s + 3, mesh->xyz + 3 * edges[i].hi, 3 * sizeof (double));
            }
          r->n_open_edges++;
        }
      else if (uses > 2)
        r->n_nonmanifold_edges++;
      else if (n_fwd != 1)
        r->n_misoriented_edges++;
      i = j;
    }
  free (edges);

  r->watertight = mesh->n_triangles > 0 && r->n_open_edges == 0 && r->n_nonmanifold_edges == 0
                  && r->n_misoriented_edges == 0 && r->n_nonfinite == 0;
  /* Overlapping shells: the divergence theorem counts their overlap twice;
   * the room is their union (what the voxeliser fills), measured along
   * RW_SHELL_LINES² lines. An overlap below 1e-6 of the volume is faces
   * that touch, up to rounding. */
  if (r->watertight)
    {
      RwMeshShells sh;
      if (!rw_mesh_shells (mesh, RW_SHELL_LINES, &sh, err))
        {
          rw_mesh_report_clear (r);
          return false;
        }
      if (sh.overlap_volume_m3 > 1e-6 * sh.union_volume_m3)
        {
          r->overlap_volume_m3 = sh.overlap_volume_m3;
          r->volume_m3 = copysign (sh.union_volume_m3, r->volume_m3);
          r->n_overlap_surfaces = sh.n_inner_surfaces;
          memcpy (r->overlap_surfaces, sh.inner_surfaces, sizeof r->overlap_surfaces);
        }
    }
  /* Outward needs a consistent orientation to mean anything; then the sign
   * of the enclosed volume says which way the normals point. */
  r->outward = r->watertight && r->volume_m3 > 0;
  r->suggested_scale = suggest_scale (largest);
  r->alternative_scale = alternative_scale (largest);
  r->looks_like_millimetres = r->suggested_scale > 0;
  return true;
}

bool
rw_mesh_orient_outward (RwMesh *mesh, RwMeshReport *r)
{
  if (!r->watertight || !(r->volume_m3 < 0))
    return false;
  for (size_t t = 0; t < mesh->n_triangles; t++)
    {
      uint32_t *tv = mesh->tri + 3 * t;
      uint32_t b = tv[1];
      tv[1] = tv[2];
      tv[2] = b;
    }
  r->volume_m3 = -r->volume_m3;
  r->outward = true;
  r->flipped = true;
  return true;
}

void
rw_mesh_report_clear (RwMeshReport *report)
{
  if (report == NULL)
    return;
  free (report->surface_area_m2);
  report->surface_area_m2 = NULL;
  report->n_surfaces = 0;
}

bool
rw_mesh_check_closed (const RwMesh *mesh, RwError *err)
{
  RwMeshReport r;
  if (!rw_mesh_report (mesh, &r, err))
    return false;
  bool ok = rw_mesh_report_check_closed (mesh, &r, err);
  rw_mesh_report_clear (&r);
  return ok;
}

bool
rw_mesh_report_check_closed (const RwMesh *mesh, const RwMeshReport *report, RwError *err)
{
  const RwMeshReport r = *report;
  const char *name = mesh->path ? mesh->path : _("(mesh)");
  bool ok = false;
  if (mesh->n_triangles == 0)
    rw_fail (err, RW_ERROR_INPUT, _("%s: the mesh has no triangles"), name);
  else if (r.n_nonfinite > 0)
    rw_fail (err, RW_ERROR_INPUT, _("%s: %zu vertices have non-finite coordinates"), name, r.n_nonfinite);
  else if (r.n_open_edges > 0)
    {
      char where[640] = "";
      size_t len = 0;
      size_t shown = r.n_edge_samples < 4 ? r.n_edge_samples : 4;
      for (size_t i = 0; i < shown && len < sizeof where; i++)
        {
          const double *s = r.edge_samples[i];
          int w = snprintf (where + len, sizeof where - len, "%s(%.3f, %.3f, %.3f)–(%.3f, %.3f, %.3f)",
                            i ? "; " : "", s[0], s[1], s[2], s[3], s[4], s[5]);
          if (w < 0)
            break;
          len += (size_t) w;
        }
      rw_fail (err, RW_ERROR_INPUT,
               _("%s: the mesh is not closed: %zu open edges (the room leaks), first at %s m"),
               name, r.n_open_edges, where);
    }
  else if (r.n_nonmanifold_edges > 0)
    rw_fail (err, RW_ERROR_INPUT,
             _("%s: the mesh is not a clean closed surface: %zu edges are shared by more than two triangles"),
             name, r.n_nonmanifold_edges);
  else if (r.n_misoriented_edges > 0)
    rw_fail (err, RW_ERROR_INPUT,
             _("%s: the mesh is closed but its triangles are not consistently oriented (%zu edges); "
               "fix the normals in the modelling tool"),
             name, r.n_misoriented_edges);
  else
    ok = true;
  return ok;
}
