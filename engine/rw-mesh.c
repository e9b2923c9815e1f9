/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-mesh.c — construction and ownership of RwMesh. Import (Assimp) is in
 * rw-import.c, the mesh report in rw-mesh-report.c. */
#include "rw-mesh.h"

#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void *
grow (void *ptr, size_t n_needed, size_t *cap, size_t elem)
{
  if (n_needed <= *cap)
    return ptr;
  size_t cap2 = *cap ? *cap : 64;
  while (cap2 < n_needed)
    cap2 *= 2;
  void *p = realloc (ptr, cap2 * elem);
  if (p == NULL)
    abort ();   /* construction is for code-built shapes; out of memory here is fatal */
  *cap = cap2;
  return p;
}

/* Capacities live beside the public struct so that RwMesh stays plain. */
typedef struct {
  RwMesh mesh;
  size_t cap_v, cap_t, cap_ts, cap_s;
} RwMeshBuilder;

/* Grows *ptr to hold n elements; false (nothing changed) when memory runs
 * out. */
static bool
reserve (void **ptr, size_t n, size_t *cap, size_t elem)
{
  if (n <= *cap)
    return true;
  if (n > SIZE_MAX / elem)
    return false;
  void *p = realloc (*ptr, n * elem);
  if (p == NULL)
    return false;
  *ptr = p;
  *cap = n;
  return true;
}

bool
rw_mesh_reserve (RwMesh *mesh, size_t n_vertices, size_t n_triangles)
{
  RwMeshBuilder *b = (RwMeshBuilder *) mesh;
  void *xyz = mesh->xyz, *tri = mesh->tri, *ts = mesh->tri_surface;
  bool ok = n_vertices <= SIZE_MAX / 3 && n_triangles <= SIZE_MAX / 3
            && reserve (&xyz, 3 * n_vertices, &b->cap_v, sizeof (double));
  mesh->xyz = xyz;
  ok = ok && reserve (&tri, 3 * n_triangles, &b->cap_t, sizeof (uint32_t));
  mesh->tri = tri;
  ok = ok && reserve (&ts, n_triangles, &b->cap_ts, sizeof (uint32_t));
  mesh->tri_surface = ts;
  return ok;
}

RwMesh *
rw_mesh_new (void)
{
  RwMeshBuilder *b = calloc (1, sizeof *b);
  if (b == NULL)
    abort ();
  return &b->mesh;
}

uint32_t
rw_mesh_add_surface (RwMesh *mesh, const char *name)
{
  for (size_t i = 0; i < mesh->n_surfaces; i++)
    if (strcmp (mesh->surface_names[i], name) == 0)
      return (uint32_t) i;
  RwMeshBuilder *b = (RwMeshBuilder *) mesh;
  size_t old_cap = b->cap_s;
  mesh->surface_names = grow (mesh->surface_names, mesh->n_surfaces + 1, &b->cap_s, sizeof (char *));
  if (mesh->surface_materials != NULL && b->cap_s != old_cap)
    {
      /* The material hints keep the capacity of the names. */
      char **m = realloc (mesh->surface_materials, b->cap_s * sizeof (char *));
      if (m == NULL)
        abort ();
      memset (m + old_cap, 0, (b->cap_s - old_cap) * sizeof (char *));
      mesh->surface_materials = m;
    }
  mesh->surface_names[mesh->n_surfaces] = strdup (name);
  if (mesh->surface_materials != NULL)
    mesh->surface_materials[mesh->n_surfaces] = NULL;
  return (uint32_t) mesh->n_surfaces++;
}

uint32_t
rw_mesh_add_vertex (RwMesh *mesh, double x, double y, double z)
{
  RwMeshBuilder *b = (RwMeshBuilder *) mesh;
  mesh->xyz = grow (mesh->xyz, 3 * (mesh->n_vertices + 1), &b->cap_v, sizeof (double));
  double *v = mesh->xyz + 3 * mesh->n_vertices;
  v[0] = x;
  v[1] = y;
  v[2] = z;
  return (uint32_t) mesh->n_vertices++;
}

void
rw_mesh_add_triangle (RwMesh *mesh, uint32_t a, uint32_t b, uint32_t c, uint32_t surface)
{
  RwMeshBuilder *mb = (RwMeshBuilder *) mesh;
  mesh->tri = grow (mesh->tri, 3 * (mesh->n_triangles + 1), &mb->cap_t, sizeof (uint32_t));
  mesh->tri_surface = grow (mesh->tri_surface, mesh->n_triangles + 1, &mb->cap_ts, sizeof (uint32_t));
  uint32_t *t = mesh->tri + 3 * mesh->n_triangles;
  t[0] = a;
  t[1] = b;
  t[2] = c;
  mesh->tri_surface[mesh->n_triangles++] = surface;
}

void
rw_mesh_set_surface_material (RwMesh *mesh, uint32_t surface, const char *material)
{
  if (surface >= mesh->n_surfaces)
    return;
  RwMeshBuilder *b = (RwMeshBuilder *) mesh;
  if (mesh->surface_materials == NULL)
    {
      if (material == NULL)
        return;
      mesh->surface_materials = calloc (b->cap_s, sizeof (char *));
      if (mesh->surface_materials == NULL)
        abort ();
    }
  free (mesh->surface_materials[surface]);
  mesh->surface_materials[surface] = material ? strdup (material) : NULL;
}

void
rw_mesh_free (RwMesh *mesh)
{
  if (mesh == NULL)
    return;
  for (size_t i = 0; i < mesh->n_surfaces; i++)
    {
      free (mesh->surface_names[i]);
      if (mesh->surface_materials)
        free (mesh->surface_materials[i]);
    }
  free (mesh->surface_materials);
  free (mesh->surface_names);
  free (mesh->xyz);
  free (mesh->tri);
  free (mesh->tri_surface);
  free (mesh->path);
  free ((RwMeshBuilder *) mesh);
}

bool
rw_mesh_ray_triangle (const RwMesh *m, size_t tri, const double o[3], const double d[3],
                      double *t_out, double *det_out)
{
  const double *a = m->xyz + 3 * m->tri[3 * tri];
  const double *b = m->xyz + 3 * m->tri[3 * tri + 1];
  const double *c = m->xyz + 3 * m->tri[3 * tri + 2];
  double e1[3], e2[3], pv[3], tv[3], qv[3];

  for (int k = 0; k < 3; k++)
    {
      e1[k] = b[k] - a[k];
      e2[k] = c[k] - a[k];
      tv[k] = o[k] - a[k];
    }
  rw_cross3 (d, e2, pv);
  double det = e1[0] * pv[0] + e1[1] * pv[1] + e1[2] * pv[2];
  if (fabs (det) < 1e-15)
    return false;
  double u = (tv[0] * pv[0] + tv[1] * pv[1] + tv[2] * pv[2]) / det;
  if (u < 0 || u > 1)
    return false;
  rw_cross3 (tv, e1, qv);
  double v = (d[0] * qv[0] + d[1] * qv[1] + d[2] * qv[2]) / det;
  if (v < 0 || u + v > 1)
    return false;
  *t_out = (e2[0] * qv[0] + e2[1] * qv[1] + e2[2] * qv[2]) / det;
  /* Möller–Trumbore's det is −(d · n) for the triangle normal n = e1 × e2:
   * positive when the ray runs against the normal, i.e. hits the front. */
  *det_out = det;
  return true;
}

bool
rw_ray_nearest_height (const double o[3], const double d[3], double x, double y, double *z)
{
  /* Closest points of the lines o + t·d and (x, y, 0) + s·ẑ: with
   * w = o − (x, y, 0), a = d·d, b = d_z, c = d·w, e = w_z, the normal
   * equations give t = (b e − c) / (a − b²), s = (a e − b c) / (a − b²). */
  const double w[3] = { o[0] - x, o[1] - y, o[2] };
  const double a = d[0] * d[0] + d[1] * d[1] + d[2] * d[2], b = d[2];
  const double c = d[0] * w[0] + d[1] * w[1] + d[2] * w[2], e = w[2];
  const double den = a - b * b;   /* a·|d_horizontal|², ≥ 0 */
  if (!(den > 1e-12 * a))
    return false;
  const double t = (b * e - c) / den;
  if (!(t > 0))
    return false;
  *z = (a * e - b * c) / den;
  return isfinite (*z);
}

/* Whether p is inside by the winding number of the crossings of the ray
 * p + t·d (t > 0) along `axis`: the sum of ±1 by the side each triangle
 * is crossed from, times its shell's sign (rw_mesh_shell_signs), not 0.
 * Counting the sign instead of the parity makes the overlap of two closed
 * shells inside (their union, as rw_voxelise takes it). The direction is
 * slightly skewed so that it stays off the shared edges and vertices of
 * axis-aligned rooms, which would count twice. */
static int
ray_winding_inside (const RwMesh *m, const int8_t *sign, const double p[3], int axis)
{
  double d[3] = { 0, 0, 0 };
  int winding = 0;

  d[axis] = 1.0;
  d[(axis + 1) % 3] = 1.234567e-4;
  d[(axis + 2) % 3] = 2.345678e-4;
  for (size_t t = 0; t < m->n_triangles; t++)
    {
      double tt, det;
      if (rw_mesh_ray_triangle (m, t, p, d, &tt, &det) && tt > 0)
        winding += (det > 0 ? -1 : 1) * (sign ? sign[t] : 1);
    }
  return winding != 0;
}

bool
rw_mesh_point_inside (const RwMesh *m, const double p[3])
{
  if (m == NULL || !isfinite (p[0]) || !isfinite (p[1]) || !isfinite (p[2]))
    return false;
  int8_t *sign = rw_mesh_shell_signs (m);   /* NULL (no memory): as drawn */
  bool inside = ray_winding_inside (m, sign, p, 0) + ray_winding_inside (m, sign, p, 1)
                + ray_winding_inside (m, sign, p, 2) >= 2;
  free (sign);
  return inside;
}
