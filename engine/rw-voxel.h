/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-voxel.h — the room as a cubic grid of cells.
 *
 * Layout: cell (x, y, z) is at index x + nx·(y + ny·z): x fastest, so that
 * a GPU warp over x reads consecutive words, and z slowest, the direction of
 * the sliced z-march. Cell centres are at origin + h·(x, y, z).
 *
 * A cell is inside the room when its centre is (robust inside test: the
 * majority of three axis-aligned scanlines, each inside where the winding
 * number of its crossings is not 0: overlapping shells give their union,
 * nested ones an object, see rw-voxel.c). The
 * grid always has at least one layer of outside cells on every side, so
 * that every inside cell has six neighbours in the array and kernels need
 * no bounds checks.
 *
 * K[i]: 0 for an outside cell, else the number (1…6) of its six neighbours
 * that are inside. K == 6: an air node. 1 ≤ K ≤ 5: a boundary node, whose
 * surface[i] says which mesh surface its missing neighbours lie behind
 * (the surface crossed between the cell and an outside neighbour; on an
 * edge or a corner, one of the surfaces its links cross, drawn with
 * probability proportional to their share of area[b] by a number fixed by
 * the cell, so that each surface gets its own area in sum, see
 * docs/VOXELISER.md).
 * Inside cells with no inside neighbour are dropped (made outside).
 *
 * area[b]: the absorbing area of the b-th boundary node, in units of h²,
 * the boundary nodes taken in increasing index order (b = 0 … n_boundary − 1:
 * a backend walking the cells in index order advances b at every node with
 * 0 < K < 6). Each missing face (a link to an outside neighbour along axis
 * d) counts |n_d|, the component along d of the unit normal of the mesh
 * triangle the link crosses, so that a surface's nodes absorb over its true
 * area rather than over the (6 − K) faces of the staircase: up to √3 times
 * too many on a (1,1,1) plane, cos θ + sin θ on a plane tilted by θ. A face
 * whose link crosses no triangle (its neighbour is outside by the 2-of-3
 * vote, not by that axis, or was dropped) counts the |n_d| of the nearest
 * triangle on the node's three lines, a whole face when there is none.
 * 0 ≤ area[b] ≤ 6 − K; exactly 6 − K where every wall is square to an axis
 * (a box, rw_grid_new_box). NULL in a grid built by hand: then 6 − K.
 * surface_area_m2[s]: Σ area[b]·h² over the nodes with surface == s: the
 * absorbing area the solver gives surface s, to compare with the mesh's
 * (RwMeshReport.surface_area_m2).
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

/* The lattice of a grid's nodes (issue #14; docs/SOLVER.md §9).
 * CUBIC: every cell is a node, 6 neighbours (±x, ±y, ±z), the 7-point
 * scheme of rw-scheme.h. FCC: the cells (x, y, z) with x + y + z even
 * (array indices) are the nodes ("sites"), each with the 12 neighbours of
 * rw-scheme-fcc.h; the cells of odd parity are never inside (K = 0). On
 * an FCC grid everything above and below reads with 12 for 6: K counts
 * the inside neighbours of the 12, a boundary node has 0 < K < 12, and
 * area[b] is in h² as the rhombic faces count it (rw-scheme-fcc.h: a
 * missing face counts (1/√2)|n·d̂|; h²/2 on a wall square to an axis).
 * 0 ≤ area[b] ≤ (12 − K)/√2, except where a missing link passes exactly
 * through an edge of two walls and counts both (a re-entrant edge on the
 * lattice) or the site was given a corner cutter (rw_voxelise_fcc below):
 * under 1 % of the boundary sites of a room.
 * The parity is that of the array indices, so the layout of both backends
 * (folded along x, rw-scheme-fcc.h) follows from nx alone. */
typedef enum { RW_LATTICE_CUBIC = 0, RW_LATTICE_FCC = 1 } RwLattice;

typedef struct {
  RwLattice lattice;        /* 0 (CUBIC) in a grid zeroed by calloc */
  size_t nx, ny, nz;
  double h;                 /* spacing_m */
  double origin[3];         /* centre of cell (0,0,0), metres */
  uint8_t *K;               /* nx·ny·nz */
  uint16_t *surface;        /* nx·ny·nz; RW_NO_SURFACE except on boundary nodes */
  uint32_t *zlo, *zhi;      /* nx·ny */
  float *area;              /* n_boundary, index order: absorbing area in h² (above) */
  double *surface_area_m2;  /* n_surfaces: absorbing area per surface, m² */
  size_t n_surfaces;
  size_t n_inside;          /* K > 0 */
  size_t n_boundary;        /* 0 < K < 6 */
} RwGrid;

/* The absorbing area of the boundary node of rank `rank` (index order)
 * with K inside neighbours, in h²: area[rank], or 6 − K where the grid has
 * none (grids built by hand). */
/* 6 on a cubic grid, 12 on an FCC grid. */
static inline int
rw_grid_max_k (const RwGrid *g)
{
  return g->lattice == RW_LATTICE_FCC ? 12 : 6;
}

/* The area of a boundary node's missing faces when every wall is square
 * to an axis and no link crosses two walls: 6 − K (cubic), (12 − K)/2
 * (FCC). */
static inline float
rw_grid_face_count_area (const RwGrid *g, int K)
{
  return g->lattice == RW_LATTICE_FCC ? 0.5f * (float) (12 - K) : (float) (6 - K);
}

static inline float
rw_grid_node_area (const RwGrid *g, size_t rank, int K)
{
  return g->area != NULL ? g->area[rank] : rw_grid_face_count_area (g, K);
}

/* Whether that area differs from the face count 6 − K (a sloped or curved
 * surface): the FV boundary then needs the node's own area, which the
 * CUDA main kernels do not hold (rw-cuda-branches.cu updates such nodes). */
static inline bool
rw_grid_node_area_corrected (const RwGrid *g, size_t rank, int K)
{
  return rw_grid_node_area (g, rank, K) != rw_grid_face_count_area (g, K);
}

static inline size_t
rw_grid_index (const RwGrid *g, size_t x, size_t y, size_t z)
{
  return x + g->nx * (y + g->ny * z);
}

/* Voxelises a closed mesh (rw_mesh_check_closed() first: an open mesh is
 * refused with where it leaks). threads ≤ 0: all cores. Fails with
 * RW_ERROR_MEMORY, naming the bytes needed, if the grid would not fit, and
 * with RW_ERROR_INPUT when no cell centre lies inside the mesh (a model
 * thinner than h). The grid is the same whatever the number of threads. */
RwGrid *rw_voxelise (const RwMesh *mesh, double spacing_m, int threads, RwError *err);

/* rw_voxelise's lattice: centred on the mesh's bounding box, round (e/h) + 4
 * cells along an extent e, so that round (e/h) centres fall within it, a
 * side that is a whole number of cells long falls halfway between two
 * centres (a box of whole cells gets exactly its cells) and the outside
 * layer is at least one cell thick (on both lattices). For a bounding box
 * [bmin, bmax] at spacing h: the centre of cell (0,0,0) and the cells per
 * axis (what estimates of the grid, like the GUI's, call). */
void rw_voxel_auto_lattice (const double bmin[3], const double bmax[3], double h,
                            double origin[3], size_t n[3]);

/* The same on a lattice the caller chooses (cell (0,0,0) centred at origin,
 * n[0]·n[1]·n[2] cells): to align a grid with another one, or to put walls
 * exactly on cell centres in tests. The mesh must lie strictly between the
 * first and the last centres on every axis (RW_ERROR_INPUT otherwise). */
RwGrid *rw_voxelise_lattice (const RwMesh *mesh, double spacing_m, const double origin[3],
                             const size_t n[3], int threads, RwError *err);

/* The same on the FCC lattice (RwLattice, rw-scheme-fcc.h), h the cubic
 * spacing: the grid rw_voxelise would give, the same lattice (origin and
 * cell counts) and the same inside test of the cell centres, of which the
 * sites are the cells with x + y + z even; K counts a site's inside
 * neighbours among the 12 (odd cells K = 0), sites with none are dropped.
 * A boundary site's area[b] (h²) sums, over its missing links, (1/√2)|n̂·d̂|
 * for every wall the link crosses (d̂ the link's direction, n̂ the wall's
 * unit normal): a link through the edge between two walls counts both,
 * triangles crossed at one point with normals within 30° of each other
 * (a quad's two, the facets of a curve) count once; a missing link that
 * crosses no
 * triangle (outside by the vote) takes the nearest crossing on the site's
 * three scan lines, 1/2 when there is none. A link between two outside
 * sites that cuts the room's corner (enters and leaves) is given, with
 * its walls, to the inside site of least index next to it, so that edges
 * off the lattice lines lose no area. The site's surface is drawn among
 * the walls it counts by weight, as on the cubic grid
 * (docs/VOXELISER.md). The same refusals as rw_voxelise; the grid is the
 * same whatever the number of threads. */
RwGrid *rw_voxelise_fcc (const RwMesh *mesh, double spacing_m, int threads, RwError *err);
RwGrid *rw_voxelise_fcc_lattice (const RwMesh *mesh, double spacing_m, const double origin[3],
                                 const size_t n[3], int threads, RwError *err);

/* The lattice rw_voxelise and rw_voxelise_fcc use for this mesh at this
 * spacing (rw_voxel_auto_lattice of its bounding box), without
 * voxelising: the mesh is checked as they check it (closed, finite, its
 * surfaces), with the same refusals. */
bool rw_voxel_lattice (const RwMesh *mesh, double spacing_m, double origin[3], size_t n[3],
                       RwError *err);

/* The planes beyond its own that a node's K, surface and area look at:
 * K its neighbours' inside test (±1), the FCC corner cutters the
 * neighbours of sites two planes away (±3, whose K needs ±4). */
#define RW_VOXEL_REACH 4

/* The planes [z0, z1) of the grid rw_voxelise (CUBIC) or rw_voxelise_fcc
 * (FCC) gives for this mesh, without the others (issue #15: a rank
 * voxelises its slab alone, rw_voxelise_slab in rw-slab.h): a grid of
 * z1 − z0 planes whose origin is the whole grid's (cell (x, y, z) of it
 * is the whole grid's (x, y, z + z0); note: origin is NOT moved to plane
 * z0, so that every centre is the same double as in the whole grid). Its
 * K is the whole grid's on every plane but the first and the last (0
 * there unless they are the whole grid's outer layer); surface and area
 * are the whole grid's for the boundary nodes of the planes [area_z0,
 * area_z1), which must lie RW_VOXEL_REACH planes within [z0, z1) (or end
 * at the lattice's ends); the window's other boundary nodes have an area
 * entry of 0 and RW_NO_SURFACE. n_inside, n_boundary, zlo, zhi count the
 * window's K; surface_area_m2 sums the nodes with areas. Memory: the
 * window's planes, the crossings of its lines and those of the z lines
 * (one per (x, y) column). A window with no inside cell is no error.
 * Refusals: rw_voxelise's, and RW_ERROR_INPUT for planes out of range. */
RwGrid *rw_voxelise_planes (const RwMesh *mesh, double spacing_m, RwLattice lattice, size_t z0,
                            size_t z1, size_t area_z0, size_t area_z1, int threads, RwError *err);

/* The inside cells (K > 0) of each of the planes [z0, z1) of the grid
 * rw_voxelise / rw_voxelise_fcc gives, into counts[0 … z1 − z0), from
 * those planes and one on each side alone (no surfaces, no areas): ranks
 * each count a share and gather the whole (rw_slab_plan_counts). */
bool rw_voxelise_plane_counts (const RwMesh *mesh, double spacing_m, RwLattice lattice, size_t z0,
                               size_t z1, int threads, size_t *counts, RwError *err);

/* A bare box of nx·ny·nz inside cells (plus the outside layer), every
 * boundary on surface 0: for benchmarks and solver tests that need no mesh.
 * Inside cell (i, j, k) is grid cell (i + 1, j + 1, k + 1), centred at
 * ((i + ½)·h, (j + ½)·h, (k + ½)·h): the room is [0, nx·h] × [0, ny·h] ×
 * [0, nz·h]: the inside cells rw_voxelise finds for rw_shape_box of that
 * size, with a thinner outside layer. NULL when a size is 0, h is not
 * finite and positive, or memory runs out. */
RwGrid *rw_grid_new_box (size_t nx, size_t ny, size_t nz, double spacing_m);

/* The same box on the FCC lattice: the sites among those nx·ny·nz inside
 * cells (x + y + z even in the grid's indices), K the inside neighbours of
 * the 12, each boundary site's area exact for the box's walls (h²/2 per
 * wall a missing link crosses, rw-scheme-fcc.h), every boundary on surface
 * 0. Each side needs at least 2 cells. NULL as rw_grid_new_box. */
RwGrid *rw_grid_new_box_fcc (size_t nx, size_t ny, size_t nz, double spacing_m);

/* The wall entries of site i of an FCC grid (rw-scheme-fcc.h, "Wall
 * links"): for each of its missing links in RW_FCC_NBR_OFFSETS order
 * whose outside site o has two or more inside neighbours, their number
 * count[e] and their grid indices, in RW_FCC_NBR_OFFSETS order around o,
 * appended to member[] (site i among them); and, when code is not NULL,
 * the entry as code[e] = d << 12 | mask: d the link's offset (o = i +
 * offset d), bit k of mask set when o + offset k is a member (the form
 * the GPU keeps). Returns the number of entries; 0 for an interior site. */
#define RW_FCC_WALL_MAX_ENTRIES 12
#define RW_FCC_WALL_MAX_MEMBERS (12 * 12)
int rw_fcc_wall_entries (const RwGrid *g, size_t i, uint8_t count[RW_FCC_WALL_MAX_ENTRIES],
                         size_t member[RW_FCC_WALL_MAX_MEMBERS], uint16_t *code);

/* Bytes rw_voxelise would allocate for this mesh at this spacing: exact for
 * the grid's dense arrays (3 per cell, 8 per column, 8 per surface), an
 * estimate from above of its sparse area array (4 per boundary node: the
 * links that cross the mesh's triangles, counted from their projected
 * areas) and of the scan's working set. 0 for a NULL or empty mesh or a
 * bad spacing; SIZE_MAX on overflow. */
size_t rw_voxel_memory_bytes (const RwMesh *mesh, double spacing_m);
/* The same for rw_voxelise_fcc: the same dense arrays (the grid keeps the
 * cubic array, odd cells K = 0), the boundary sites from the diagonal
 * links crossing each triangle, and the triangle buckets the boundary
 * pass searches. */
size_t rw_voxel_memory_bytes_fcc (const RwMesh *mesh, double spacing_m);

/* The cell whose centre is nearest to point p (metres). Fails with
 * RW_ERROR_INPUT when that cell is outside the room; `what` ("source",
 * "receiver 2") names the point in the message, with its coordinates. */
bool rw_grid_locate (const RwGrid *g, const double p[3], const char *what,
                     size_t *index, RwError *err);

/* A point's interpolation stencil (issue #14): up to 8 cells and weights
 * (Σ = 1) such that Σ w_i p(cell_i) is the field at the point, to second
 * order in h (a linear field exactly), rather than the field at the
 * nearest cell, which moves a source or receiver by up to √3·h/2.
 *  - cubic grids: trilinear over the 8 corners of the cell cube holding
 *    the point (w = Π_k (1 − |f_k − c_k|)).
 *  - FCC grids: linear over the lattice's Delaunay cell holding it. The
 *    D3 lattice (sites x + y + z even) tiles space with regular
 *    tetrahedra (4 sites, edge h√2) and octahedra (6 sites o ± e_k round
 *    an odd point o, i.e. the L1 ball |d|₁ ≤ 1 of d = f − o, in units of
 *    h). In a tetrahedron: its barycentric coordinates. In an octahedron
 *    a linear function has 4 degrees of freedom for 6 vertices, so the
 *    rule is a choice: vertex o + sgn(d_k) e_k gets |d_k|, and every
 *    vertex (1 − |d|₁)/6 on top. Σ w = 1, Σ w v = o + d (linear exact),
 *    all w ≥ 0, symmetric under the octahedron's symmetries (no diagonal
 *    is preferred), and on a face (|d|₁ = 1) the weights are the face
 *    triangle's barycentric ones, as the tetrahedron across it has them:
 *    the interpolant is continuous. It is barycentric interpolation over
 *    the octahedron cut into 8 tetrahedra at o, o valued at the mean of
 *    the 6 vertices.
 * Weights below 1e-12 are dropped; fractional coordinates within 1e-9 of
 * a whole number count as that number, so that a point on a node gives
 * that node alone with weight 1 (what rw_grid_locate gives).
 * Walls: stencil cells outside the room (K == 0, or beyond the array)
 * are left out and the others renormalised to sum to 1: the value stays
 * a convex combination of the nearby nodes (first-order accurate, as
 * snapping is), only the linear exactness is lost there. The point is
 * refused as rw_grid_locate refuses it (its nearest cell or site outside,
 * the message naming `what` and the coordinates); when it is accepted the
 * nearest node is in the stencil with a weight of at least 1/8, so the
 * renormalisation never divides by less. nearest: rw_grid_locate's cell. */
#define RW_GRID_STENCIL_MAX 8
typedef struct {
  size_t n;                            /* 1 … RW_GRID_STENCIL_MAX */
  size_t cell[RW_GRID_STENCIL_MAX];    /* grid indices of inside cells */
  double weight[RW_GRID_STENCIL_MAX];  /* > 0, Σ = 1 */
  size_t nearest;                      /* rw_grid_locate's cell */
} RwGridStencil;

bool rw_grid_interp (const RwGrid *g, const double p[3], const char *what,
                     RwGridStencil *out, RwError *err);
/* rw_grid_interp on the grid rw_voxelise (CUBIC) or rw_voxelise_fcc (FCC)
 * gives for this mesh, from the few planes round p alone
 * (rw_voxelise_planes): the same stencil, bit for bit, in the whole
 * grid's indices, for ranks that never hold the whole grid (issue #15).
 * A point outside the room is refused as rw_grid_interp refuses it,
 * without the room's extent in the message (a window does not know it).
 * NaN coordinates are refused too. */
bool rw_voxel_interp (const RwMesh *mesh, double spacing_m, RwLattice lattice, const double p[3],
                      const char *what, int threads, RwGridStencil *out, RwError *err);
/* The rule's name for results.json: "trilinear" (cubic), "fcc-linear". */
const char *rw_grid_interp_name (const RwGrid *g);

double rw_grid_air_volume_m3 (const RwGrid *g);   /* n_inside · h³ */
/* The uncorrected absorbing area of each surface into out[n_surfaces]:
 * (6 − K)·h² summed over its boundary nodes, what counting faces gives
 * (for comparison with surface_area_m2). One pass over the grid. */
void rw_grid_face_areas_m2 (const RwGrid *g, double *out);
void rw_grid_free (RwGrid *g);
