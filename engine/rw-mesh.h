/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-mesh.h — a room model as triangles grouped into named surfaces.
 *
 * Import goes through Assimp, so every format it reads works (OBJ, glTF,
 * STL, PLY, FBX, DAE, 3DS, IFC…). A surface is a mesh or material name of
 * the model; its index is the surface id used by the voxeliser and the
 * solver. Coordinates are metres after `scale` has been applied.
 *
 * Ownership: an RwMesh owns all its arrays; free with rw_mesh_free().
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "rw-error.h"

typedef struct {
  size_t n_vertices;
  double *xyz;              /* 3 per vertex, metres */
  size_t n_triangles;
  uint32_t *tri;            /* 3 vertex indices per triangle */
  uint32_t *tri_surface;    /* surface id per triangle */
  size_t n_surfaces;
  char **surface_names;     /* n_surfaces names, unique, never NULL */
  char *path;               /* file it was loaded from, or NULL */
  char **surface_materials; /* NULL, or n_surfaces entries: the model's material
                               name of each surface where it has one that differs
                               from the surface name, else NULL (a hint for
                               rw_materials_assign) */
} RwMesh;

/* Loads any format Assimp reads. Fails (RW_ERROR_IO / RW_ERROR_INPUT) with
 * a message naming the file: missing, empty, not a mesh, no triangles,
 * truncated, non-finite coordinates. scale must be finite and > 0.
 * Node transforms are applied; coincident vertices of different meshes are
 * welded (1e-7 of the bounding-box diagonal). Assimp itself runs in the
 * import helper, a process of its own started with posix_spawn, so that a
 * file that crashes or hangs it becomes an error instead (docs/IMPORT.md;
 * ROOMWAVE_IMPORT_IN_PROCESS=1 to debug). */
RwMesh *rw_mesh_load (const char *path, double scale, RwError *err);

/* The import helper, for callers that start it themselves (the GUI runs it
 * with GSubprocess, off its main thread and cancellable):
 *   argv = { rw_import_helper_path (), SCALE, PATH, NULL }, SCALE from
 *   rw_import_helper_format_scale; collect all it writes on stdout.
 * rw_import_helper_path: $ROOMWAVE_IMPORT_HELPER, else the build tree's
 * roomwave-import-helper, else the installed one (libexecdir); NULL when
 * none exists. */
const char *rw_import_helper_path (void);
#define RW_IMPORT_HELPER_SCALE_LEN 32
void rw_import_helper_format_scale (double scale, char buf[RW_IMPORT_HELPER_SCALE_LEN]);
/* The checks rw_mesh_load makes before Assimp sees the file (missing, a
 * folder, empty, OBJ cut in its last line, short binary STL, damaged PLY
 * header, bad scale); *file_bytes (may be NULL) gets the file's size. */
bool rw_mesh_load_precheck (const char *path, double scale, double *file_bytes, RwError *err);
/* The mesh from all the helper wrote on stdout (data, len) and how it
 * ended (wait_status as waitpid gives it): the helper's own error, or "the
 * file is damaged: Assimp crashed…" when it died, or the mesh welded and
 * checked exactly as rw_mesh_load builds it. */
RwMesh *rw_mesh_from_helper_output (const char *path, double scale, const void *data, size_t len,
                                    int wait_status, RwError *err);
/* The helper's body (app/roomwave-import-helper.c): imports `path` with
 * Assimp in this process and writes the result, or the error, to fd in
 * the helper's format. False when fd refused the message. */
bool rw_import_helper_run (const char *path, double scale, int fd);

/* Programmatic construction (tests, demo shapes, and the importer: every
 * RwMesh comes from rw_mesh_new(), which rw_mesh_free() relies on). */
RwMesh *rw_mesh_new (void);
uint32_t rw_mesh_add_surface (RwMesh *mesh, const char *name);   /* returns id; existing name → its id */
uint32_t rw_mesh_add_vertex (RwMesh *mesh, double x, double y, double z);
void rw_mesh_add_triangle (RwMesh *mesh, uint32_t a, uint32_t b, uint32_t c, uint32_t surface);
/* Makes room for n_vertices and n_triangles in all (adding within it never
 * allocates); false when memory runs out. The add functions abort when
 * they cannot grow, so code that builds a mesh from user data reserves
 * first and reports the failure instead. */
bool rw_mesh_reserve (RwMesh *mesh, size_t n_vertices, size_t n_triangles);
/* Records the model's material name of a surface (NULL clears it). */
void rw_mesh_set_surface_material (RwMesh *mesh, uint32_t surface, const char *material);
/* Writes the mesh with Assimp's exporter; format id as Assimp names it
 * ("obj", "stl", "stlb", "ply", "plyb", "gltf2", "glb2", "collada"…). */
bool rw_mesh_export (const RwMesh *mesh, const char *path, const char *format_id, RwError *err);
void rw_mesh_free (RwMesh *mesh);

/* out = a × b (out must not alias a or b). */
static inline void
rw_cross3 (const double a[3], const double b[3], double out[3])
{
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

/* Where the ray o + t·d meets triangle `tri` (Möller–Trumbore): false when
 * it misses or runs parallel to it. *t_out (any sign) is the ray parameter;
 * *det_out > 0 when the ray meets the triangle's front (the side its
 * counter-clockwise winding faces: outside, for an outward mesh). */
bool rw_mesh_ray_triangle (const RwMesh *mesh, size_t tri, const double o[3], const double d[3],
                           double *t_out, double *det_out);
/* The height z at which the vertical line through (x, y) passes closest to
 * the ray o + t·d, t > 0 (the GUI lifts a marker along it with the
 * pointer): false when the ray is vertical or the closest point lies
 * behind the ray's origin. */
bool rw_ray_nearest_height (const double o[3], const double d[3], double x, double y, double *z);
/* Point-in-mesh for single points (the GUI's markers): the majority of
 * three slightly skewed axis rays, each saying inside when the winding
 * number of its crossings is not 0 (overlapping shells: their union, as
 * rw_voxelise). For whole grids use rw_voxelise, whose scanline test is
 * exact on edges and vertices. */
bool rw_mesh_point_inside (const RwMesh *mesh, const double p[3]);

/* Overlapping shells: two closed shells that overlap (two boxes drawn
 * into each other) make one room, their union, which is what rw_voxelise
 * fills (rw-voxel.c, beside the scanlines it shares) (a cell is inside where the winding number is not 0); the
 * divergence theorem would count the overlap twice. Lines along z through
 * an n_lines × n_lines lattice over the bounding box measure the union's
 * volume, the volume inside two shells or more, and which surfaces bound
 * that overlap (the first RW_MESH_SHELLS_MAX_SURFACES of them). For a
 * closed, consistently oriented mesh; false only when memory runs out. */
#define RW_MESH_SHELLS_MAX_SURFACES 8
/* Per triangle ±1, to multiply its orientation by so that the shells
 * (connected parts) mean what a modeller meant: a shell nested in another
 * (all its extreme points inside it: furniture, a column drawn as its own
 * box) is a solid object, oriented into itself; shells that are not nested
 * (side by side, or drawn into each other) point out, so that overlapping
 * ones make their union. Depth alternates (an object in a cavity of an
 * object is air again). malloc'd; NULL when memory runs out. Cost: one
 * ray test per extreme point against each shell whose bounding box holds
 * it. */
int8_t *rw_mesh_shell_signs (const RwMesh *mesh);
typedef struct {
  double union_volume_m3;
  double overlap_volume_m3;         /* 0: no shells overlap */
  size_t n_inner_surfaces;          /* surfaces that lie inside another shell */
  uint32_t inner_surfaces[RW_MESH_SHELLS_MAX_SURFACES];
} RwMeshShells;
bool rw_mesh_shells (const RwMesh *mesh, size_t n_lines, RwMeshShells *out, RwError *err);

/* The mesh report: what an acoustician checks before simulating. */
#define RW_MESH_REPORT_MAX_EDGES 16
typedef struct {
  double bbox_min[3], bbox_max[3];
  double volume_m3;            /* divergence theorem, signed: > 0 when normals point outward */
  double area_m2;              /* total */
  double *surface_area_m2;     /* n_surfaces */
  size_t n_surfaces;
  bool watertight;             /* every edge shared by exactly two triangles of opposite orientation */
  bool outward;                /* consistent orientation with outward normals */
  size_t n_open_edges;         /* edges used by one triangle */
  size_t n_nonmanifold_edges;  /* edges used by more than two */
  size_t n_misoriented_edges;  /* edges shared by two triangles of the same orientation */
  size_t n_degenerate;         /* triangles of (near) zero area */
  size_t n_nonfinite;          /* vertices with NaN or infinite coordinates */
  double overlap_volume_m3;    /* inside two closed shells or more (0: none); volume_m3 is
                                  then the union's (rw_mesh_shells), not the divergence sum */
  size_t n_overlap_surfaces;   /* surfaces lying inside another shell … */
  uint32_t overlap_surfaces[RW_MESH_SHELLS_MAX_SURFACES];   /* … the first of them */
  bool flipped;                /* rw_mesh_orient_outward turned the normals outward */
  size_t n_edge_samples;       /* up to RW_MESH_REPORT_MAX_EDGES open edges … */
  double edge_samples[RW_MESH_REPORT_MAX_EDGES][6];  /* … as x0,y0,z0,x1,y1,z1 */
  bool looks_like_millimetres; /* largest bounding-box side over 200 m: drawn in mm, cm or inches */
  double suggested_scale;      /* e.g. 0.001, when looks_like_millimetres */
  double alternative_scale;    /* 0.0254 when inches would also give a plausible room, else 0 */
} RwMeshReport;

bool rw_mesh_report (const RwMesh *mesh, RwMeshReport *report, RwError *err);
/* A closed mesh whose normals point into the room (negative volume) is
 * flipped (every triangle's winding reversed), and its report updated
 * (volume positive, outward, flipped = true). Returns whether it flipped.
 * The voxeliser does not need it (it takes the union of the shells either
 * way); the volume, the GUI's shading and exported files do. */
bool rw_mesh_orient_outward (RwMesh *mesh, RwMeshReport *report);
void rw_mesh_report_clear (RwMeshReport *report);

/* The leak check the voxeliser needs: fails with RW_ERROR_INPUT and a
 * message naming the file, the number of open edges and the coordinates of
 * the first few, when the mesh is not closed. */
bool rw_mesh_check_closed (const RwMesh *mesh, RwError *err);
/* The same check on a report already made of mesh (the report is the
 * costly part: a caller that needs both makes it once). */
bool rw_mesh_report_check_closed (const RwMesh *mesh, const RwMeshReport *report, RwError *err);
