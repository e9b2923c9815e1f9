/* rw-mesh.c — construction and ownership of RwMesh. Import (Assimp) is in
 * rw-import.c, the mesh report in rw-mesh-report.c. */
#include "rw-mesh.h"

#include <stdint.h>
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
