/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-ga-scene.h — the room as Embree sees it: ray–triangle queries for the
 * geometrical-acoustics part (image sources now, ray tracing later;
 * issue #12, docs/GEOMETRICAL.md).
 *
 * Embree 3 (Intel's ray tracing kernels, Debian libembree-dev) builds a
 * BVH over the mesh's triangles; queries are thread-safe once built, so
 * any number of OpenMP threads may call them on one scene. Embree works in
 * single precision: coordinates are metres, so a room of 100 m resolves
 * positions to ≈ 10 µm, far below anything acoustic (1 mm is 3 µs).
 * The scene is built with RTC_SCENE_FLAG_ROBUST (no arithmetic shortcuts)
 * so that rays through a shared edge do not slip between two triangles.
 *
 * Orientation: every query reports the triangle's geometric normal as the
 * mesh draws it (counter-clockwise winding, right hand) times the sign of
 * its shell (rw_mesh_shell_signs): it points away from the air, out of
 * the room and into any solid object drawn inside it. The mesh itself is
 * not copied into Embree's buffers beyond the float vertices; the caller
 * keeps it alive while the scene lives.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include "rw-error.h"
#include "rw-mesh.h"

typedef struct RwGaScene RwGaScene;

/* Builds the scene of mesh (kept by pointer: it must outlive the scene).
 * Fails with RW_ERROR_INPUT (no triangles, a vertex index out of range,
 * non-finite coordinates), RW_ERROR_MEMORY, or RW_ERROR_INTERNAL with
 * Embree's own message when Embree refuses (no supported CPU, …). */
RwGaScene *rw_ga_scene_new (const RwMesh *mesh, RwError *err);
void rw_ga_scene_free (RwGaScene *scene);
const RwMesh *rw_ga_scene_mesh (const RwGaScene *scene);

typedef struct {
  double distance;       /* along the unit direction, metres */
  uint32_t triangle;     /* index into mesh->tri / 3 */
  uint32_t surface;      /* mesh->tri_surface[triangle] */
  double normal[3];      /* unit, away from the air (see above) */
  bool front;            /* direction · normal < 0: the ray runs against the normal,
                            i.e. it came from the solid side (a ray from the air
                            has front false) */
} RwGaHit;

/* The first triangle the ray o + t·dir meets with t in (t_near, t_far)
 * (dir need not be unit; distances are in units of |dir|·t, i.e. metres
 * along the unit direction: t_near and t_far are metres too). False when
 * it meets none (or dir is zero / not finite). */
bool rw_ga_scene_first_hit (const RwGaScene *scene, const double o[3], const double dir[3],
                            double t_near, double t_far, RwGaHit *hit);
/* True when the open segment a–b, shortened by eps metres at each end
 * (so that points lying on a surface do not occlude themselves), meets no
 * triangle. */
bool rw_ga_scene_segment_clear (const RwGaScene *scene, const double a[3], const double b[3],
                                double eps);
/* The unit normal (away from the air) of triangle t, in double precision
 * from the mesh; false for a degenerate triangle (normal set to 0). */
bool rw_ga_scene_triangle_normal (const RwGaScene *scene, uint32_t t, double n[3]);
