/* rw-voxel.h — the room as a cubic grid of cells.
 *
 * Layout: cell (x, y, z) is at index x + nx·(y + ny·z): x fastest, so that
 * a GPU warp over x reads consecutive words, and z slowest, the direction of
 * the sliced z-march. Cell centres are at origin + h·(x, y, z).
 *
 * A cell is inside the room when its centre is (robust inside test: the
 * majority of three axis-aligned scanline parities, see rw-voxel.c). The
 * grid always has at least one layer of outside cells on every side, so
 * that every inside cell has six neighbours in the array and kernels need
 * no bounds checks.
 *
 * K[i]: 0 for an outside cell, else the number (1…6) of its six neighbours
 * that are inside. K == 6: an air node. 1 ≤ K ≤ 5: a boundary node, whose
 * surface[i] says which mesh surface its missing neighbours lie behind
 * (the surface crossed between the cell and an outside neighbour).
 * Inside cells with no inside neighbour are dropped (made outside).
 *
 * zlo/zhi per (x, y) column: the inside cells of the column lie in
 * [zlo, zhi); zlo == zhi for an empty column. Backends derive their
 * per-block start/stop heights from these (DESIGN §2).
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "rw-error.h"
#include "rw-mesh.h"

#define RW_NO_SURFACE UINT16_MAX

typedef struct {
  size_t nx, ny, nz;
  double h;                 /* spacing_m */
  double origin[3];         /* centre of cell (0,0,0), metres */
  uint8_t *K;               /* nx·ny·nz */
  uint16_t *surface;        /* nx·ny·nz; RW_NO_SURFACE except on boundary nodes */
  uint32_t *zlo, *zhi;      /* nx·ny */
  size_t n_surfaces;
  size_t n_inside;          /* K > 0 */
  size_t n_boundary;        /* 0 < K < 6 */
} RwGrid;

static inline size_t
rw_grid_index (const RwGrid *g, size_t x, size_t y, size_t z)
{
  return x + g->nx * (y + g->ny * z);
}

/* Voxelises a closed mesh (rw_mesh_check_closed() first: an open mesh is
 * refused with where it leaks). threads ≤ 0: all cores. Fails with
 * RW_ERROR_MEMORY, naming the bytes needed, if the grid would not fit. */
RwGrid *rw_voxelise (const RwMesh *mesh, double spacing_m, int threads, RwError *err);

/* A bare box of nx·ny·nz inside cells (plus the outside layer), every
 * boundary on surface 0: for benchmarks and solver tests that need no mesh. */
RwGrid *rw_grid_new_box (size_t nx, size_t ny, size_t nz, double spacing_m);

/* Bytes rw_voxelise would allocate for this mesh at this spacing. */
size_t rw_voxel_memory_bytes (const RwMesh *mesh, double spacing_m);

/* The cell whose centre is nearest to point p (metres). Fails with
 * RW_ERROR_INPUT when that cell is outside the room; `what` ("source",
 * "receiver 2") names the point in the message, with its coordinates. */
bool rw_grid_locate (const RwGrid *g, const double p[3], const char *what,
                     size_t *index, RwError *err);

double rw_grid_air_volume_m3 (const RwGrid *g);   /* n_inside · h³ */
void rw_grid_free (RwGrid *g);
