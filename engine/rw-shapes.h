/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-shapes.h — closed, outward-oriented room shapes built in code.
 *
 * For tests, benchmarks and the demo room: each returns a watertight mesh
 * (vertices shared between triangles, so edges match exactly) wound
 * counter-clockwise seen from outside, with named surfaces (floor, ceiling,
 * walls…), dimensions in metres, the minimum corner at the origin unless
 * stated. Bad dimensions (not finite, ≤ 0, a cut-out that does not fit)
 * give NULL. Free with rw_mesh_free(). Exact volumes: rw-shapes.c and
 * docs/VOXELISER.md. */
#pragma once

#include "rw-mesh.h"

/* surfaces, ids 0…5: floor, ceiling, wall_x0, wall_x1, wall_y0, wall_y1 */
RwMesh *rw_shape_box (double lx, double ly, double lz);
/* an L: the box minus the corner [cx,lx]×[cy,ly]; the box's six surfaces,
 * then wall_inner_x (x = cx) and wall_inner_y (y = cy) */
RwMesh *rw_shape_lroom (double lx, double ly, double lz,
                        double cx, double cy);
/* icosphere centred at (r,r,r), 0…8 subdivisions (20·4^s triangles);
 * surface: sphere */
RwMesh *rw_shape_sphere (double radius, int subdivisions);
/* box minus a square pillar floor-to-ceiling; (px, py) is the pillar's
 * corner nearest the origin, the pillar strictly inside the plan; the
 * box's six surfaces, then pillar */
RwMesh *rw_shape_box_with_pillar (double lx, double ly, double lz,
                                  double px, double py, double side);
/* A box lx × ly whose ceiling is a plane rising along x at angle_deg
 * (0 < angle < 90) from height z0 at x = 0 to z0 + lx·tan(angle) at
 * x = lx: a loft or a raked auditorium ceiling, the plainest oblique
 * surface. The box's six surfaces (wall_y0, wall_y1 are trapezoids);
 * volume ly·lx·(z0 + lx·tan(angle)/2), ceiling area lx·ly / cos(angle). */
RwMesh *rw_shape_sloped_ceiling (double lx, double ly, double z0, double angle_deg);
/* A concert-hall-like room: raked (sloped) floor, curved (faceted) rear
 * wall, splayed side walls, a sloped ceiling. length_m along x, the stage
 * wall at x = 0; facets (clamped to 1…256) flat panels make the rear wall.
 * Surfaces: floor, ceiling, stage_wall, side_wall_left, side_wall_right,
 * rear_wall. Used by the GPU benchmark and as the demo room. */
RwMesh *rw_shape_hall (double length_m, double width_m, double height_m, int facets);
