/* rw-shapes.h — closed, outward-oriented room shapes built in code.
 *
 * For tests, benchmarks and the demo room: each returns a watertight mesh
 * with named surfaces (floor, ceiling, walls…), dimensions in metres, the
 * minimum corner at the origin unless stated. */
#pragma once

#include "rw-mesh.h"

RwMesh *rw_shape_box (double lx, double ly, double lz);           /* surfaces: floor, ceiling, wall_x0, wall_x1, wall_y0, wall_y1 */
RwMesh *rw_shape_lroom (double lx, double ly, double lz,           /* an L: the box minus the corner [cx,lx]×[cy,ly] */
                        double cx, double cy);
RwMesh *rw_shape_sphere (double radius, int subdivisions);          /* icosphere centred at (r,r,r) */
RwMesh *rw_shape_box_with_pillar (double lx, double ly, double lz,  /* box minus a square pillar floor-to-ceiling */
                                  double px, double py, double side);
/* A concert-hall-like room: raked (sloped) floor, curved (faceted) rear
 * wall, splayed side walls, a sloped ceiling. length_m along x. Used by
 * the GPU benchmark and as the demo room. */
RwMesh *rw_shape_hall (double length_m, double width_m, double height_m, int facets);
