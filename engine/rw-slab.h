/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-slab.h — a grid cut into slabs of whole z-planes, one per rank
 * (issue #15; docs/CLUSTER.md).
 *
 * z is the grid's slowest axis (rw-voxel.h), so a slab is one contiguous
 * piece of every array. Rank r owns the planes [cuts[r], cuts[r + 1]);
 * the cuts balance the inside cells (the work), not the planes.
 *
 * A rank's grid (rw_slab_extract) is a grid of its own — every promise of
 * rw-voxel.h holds, so a backend steps it as any other — made of:
 *  - its owned planes, copied;
 *  - `halo` ghost planes on each side that has a neighbour, copied: the
 *    planes the scheme reads across the cut (rw_slab_halo), which the
 *    neighbour sends every step (rw-solver.c), so that every owned cell
 *    is updated from exactly the values one rank would use;
 *  - one more ghost plane on each such side, copied but never sent: it
 *    keeps the inside/outside state and the neighbour counts K of the
 *    sent ghosts what they are in the whole grid (the FCC wall links look
 *    at the neighbours of outside sites two planes across the cut). Its
 *    own K is recounted against what follows;
 *  - one plane of outside cells (the outer layer every grid has), and on
 *    FCC grids one more where needed to start the slab on an even plane,
 *    so that the lattice's sites (x + y + z even) stay the same cells.
 * The ghosts' values are written by the backend each step and overwritten
 * by the exchange before anything owned reads them: wrong only where
 * nothing looks. Its surface_area_m2 is the owned planes' share of the
 * room's (their boundary nodes' areas by surface, in index order). */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "rw-error.h"
#include "rw-voxel.h"

#define RW_SLAB_MAX_RANKS 4096

/* The ghost planes sent across a cut each step: 1 for the 7-point scheme
 * (its ±z neighbours), 2 on the FCC lattice (a boundary site's wall links
 * reach the neighbours of its outside sites, two planes away). */
int rw_slab_halo (const RwGrid *g);

/* Cuts the planes [0, nz) into n slabs: cuts[0] = 0 < cuts[1] < … <
 * cuts[n] = nz, cut k the first plane below which k/n of the inside cells
 * lie, each slab at least rw_slab_halo planes thick (its neighbours' ghosts
 * come from it alone). Fails with RW_ERROR_INPUT when the grid has too
 * few planes for n slabs. */
bool rw_slab_plan (const RwGrid *g, int n, size_t *cuts, RwError *err);

/* The same from the inside cells of each plane, counts[0 … nz): the one
 * rule, for ranks that never hold the whole grid (each counts a share of
 * the planes, rw_voxelise_plane_counts, and they gather the whole). halo:
 * rw_slab_halo of the grid. */
bool rw_slab_plan_counts (const size_t *counts, size_t nz, int n, int halo, size_t *cuts,
                          RwError *err);

typedef struct RwSlab {
  RwGrid *grid;             /* the slab's grid (file comment) */
  size_t z_first;           /* the whole grid's plane of the slab grid's plane 0 */
  size_t own_z0, own_z1;    /* the owned planes, in the slab grid's planes */
  int halo;                 /* ghost planes sent per side (rw_slab_halo) */
} RwSlab;

/* The slab grid of the planes [z0, z1) of g (file comment). A grid cell
 * of g at plane z is the slab grid's cell at plane z − z_first, the same
 * x and y. Fails with RW_ERROR_INPUT when the cut isolates a ghost cell
 * that the owned cells see (a one-cell sliver of the room along z: another
 * number of ranks cuts elsewhere), RW_ERROR_MEMORY when it does not fit. */
bool rw_slab_extract (const RwGrid *g, size_t z0, size_t z1, RwSlab *out, RwError *err);

/* The slab of the planes [z0, z1) of the grid rw_voxelise (CUBIC) or
 * rw_voxelise_fcc (FCC) gives for this mesh at this spacing, voxelised
 * from those planes and the few around them alone (rw_voxelise_planes):
 * byte for byte what rw_slab_extract gives from the whole grid (K,
 * surface, area, zlo, zhi, the counts, surface_area_m2), in the memory of
 * the slab, never the room's. The same refusals as both. */
bool rw_voxelise_slab (const RwMesh *mesh, double spacing_m, RwLattice lattice, size_t z0,
                       size_t z1, int threads, RwSlab *out, RwError *err);

/* This rank's slab of the grid rw_voxelise / rw_voxelise_fcc gives, no
 * rank ever holding the whole grid: each rank counts the inside cells of
 * its share of the planes (rw_voxelise_plane_counts), all gather the
 * counts, cut them by rw_slab_plan_counts (so cuts[0 … size] are
 * rw_slab_plan's of the whole grid, the same on every rank) and each
 * voxelises its own slab (rw_voxelise_slab). Collective over comm (NULL:
 * one rank, the whole grid as one slab). A failure on any rank fails
 * every rank with its message, "rank r of n" before it, so none is left
 * waiting; a room with no inside cell is refused as rw_voxelise refuses
 * it. */
struct RwComm;
bool rw_slab_voxelise_ranks (const RwMesh *mesh, double spacing_m, RwLattice lattice,
                             const struct RwComm *comm, int threads, size_t *cuts, RwSlab *out,
                             RwError *err);
void rw_slab_clear (RwSlab *s);

/* Where a rank steps its slab, for the device halos (rw-solver.c): its
 * host, its device's index and device-visibility variable, and the
 * device's UUID where the backend gives one (RwBackendOps.device_uuid). */
typedef struct RwSlabDevice {
  char host[64];
  char visible[128];
  int device;
  bool has_uuid;
  unsigned char uuid[16];
} RwSlabDevice;

/* Whether two of the n ranks step their slabs on one device (NCCL refuses
 * them: the halos then go through the host). Two ranks whose devices both
 * have a UUID share one exactly when the UUIDs are equal, whatever their
 * indices and visibility variables say (CUDA_VISIBLE_DEVICES=1, device 0
 * and no variable, device 1 are one GPU); otherwise when host, device
 * index and visibility variable are all equal. */
bool rw_slab_devices_shared (const RwSlabDevice *all, int n);

/* The inside cells of the slab's owned planes, and how many of them are
 * boundary cells (K below the lattice's full count); boundary may be
 * NULL. What each rank adds to the whole grid's counts. */
size_t rw_slab_owned_inside (const RwSlab *s, size_t *boundary);
