/* SPDX-License-Identifier: GPL-3.0-or-later */
/* slab: the cuts and the slab grids of rw-slab.h (issue #15), without MPI.
 *
 * On the hall (rw_shape_hall: raked floor, sloped ceiling, so the planes
 * hold very different numbers of inside cells) and an L-shaped room, both
 * lattices, 1 … 7 slabs:
 *  - the cuts rise, every slab owns at least rw_slab_halo planes, and each
 *    slab's inside cells are within one plane's worth (the fullest plane)
 *    of 1/N of the room's, while cutting by planes would miss that by far
 *    on the hall (checked, so that the test tells the two rules apart);
 *  - each slab grid keeps the whole grid's K and surfaces on its owned
 *    planes and its sent ghost planes' inside cells, the absorbing area of
 *    every owned boundary node, an origin moved by z_first planes, an even
 *    z_first on the FCC lattice, outside planes at both ends; and the CPU
 *    backend accepts it (rw_solver_new checks every promise of
 *    rw-voxel.h: K against the neighbours, column ranges, the outer
 *    layer, the boundary count);
 *  - too many ranks for the planes, and a slab beyond the grid, are
 *    refused with a message.
 * And rw_slab_devices_shared on records of where ranks run (one GPU by
 * its UUID under two indices; two UUIDs; without UUIDs, host and index).
 * What fails it: cuts by planes, an odd FCC slab start (other sites: K
 * mismatch), ghosts not recounted (the backend refuses the slab), areas
 * taken from the wrong rank (owned areas differ). */
#include "rw-test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rw-shapes.h"
#include "rw-slab.h"
#include "rw-solver.h"

static size_t
plane_inside (const RwGrid *g, size_t z)
{
  size_t n = 0;
  for (size_t i = 0; i < g->nx * g->ny; i++)
    n += g->K[z * g->nx * g->ny + i] != 0;
  return n;
}

/* The global rank of each boundary node, index order. */
static size_t *
boundary_ranks (const RwGrid *g)
{
  const size_t n = g->nx * g->ny * g->nz;
  const int mk = rw_grid_max_k (g);
  size_t *rank = malloc (n * sizeof *rank), b = 0;
  for (size_t i = 0; i < n; i++)
    rank[i] = g->K[i] != 0 && g->K[i] < mk ? b++ : SIZE_MAX;
  return rank;
}

static void
check_room (const char *name, const RwGrid *g)
{
  RwError err;
  rw_error_clear (&err);
  const size_t nxy = g->nx * g->ny, h = (size_t) rw_slab_halo (g);
  size_t fullest = 0;
  for (size_t z = 0; z < g->nz; z++)
    fullest = plane_inside (g, z) > fullest ? plane_inside (g, z) : fullest;
  size_t *grank = boundary_ranks (g);
  bool by_planes_would_miss = false;
  for (int n = 1; n <= 7; n++)
    {
      size_t cuts[8];
      if (!rw_slab_plan (g, n, cuts, &err))
        {
          RW_CHECK (false, "%s: %d slabs: %s", name, n, err.message);
          continue;
        }
      for (int r = 0; r < n; r++)
        {
          RW_CHECK (cuts[r + 1] >= cuts[r] + h, "%s, %d slabs: slab %d owns %zu planes (≥ %zu)",
                    name, n, r, cuts[r + 1] - cuts[r], h);
          size_t in = 0;
          for (size_t z = cuts[r]; z < cuts[r + 1]; z++)
            in += plane_inside (g, z);
          const double share = (double) g->n_inside / n;
          RW_CHECK (fabs ((double) in - share) <= (double) fullest,
                    "%s, %d slabs: slab %d holds %zu inside cells, 1/N is %.0f (± %zu)", name, n, r,
                    in, share, fullest);
          /* the same slab cut by planes */
          size_t pin = 0;
          for (size_t z = g->nz * (size_t) r / (size_t) n; z < g->nz * (size_t) (r + 1) / (size_t) n; z++)
            pin += plane_inside (g, z);
          by_planes_would_miss |= fabs ((double) pin - share) > 2.0 * (double) fullest;

          RwSlab sl;
          if (!rw_slab_extract (g, cuts[r], cuts[r + 1], &sl, &err))
            {
              RW_CHECK (false, "%s, %d slabs: slab %d: %s", name, n, r, err.message);
              continue;
            }
          const RwGrid *s = sl.grid;
          RW_CHECK (s->nx == g->nx && s->ny == g->ny && sl.own_z0 + sl.z_first == cuts[r]
                    && sl.own_z1 + sl.z_first == cuts[r + 1], "%s: slab %d's planes", name, r);
          RW_CHECK (fabs (s->origin[2] - (g->origin[2] + g->h * (double) sl.z_first)) < 1e-12,
                    "%s: slab %d's origin", name, r);
          if (g->lattice == RW_LATTICE_FCC)
            RW_CHECK (sl.z_first % 2 == 0, "%s: FCC slab %d starts on an even plane (%zu)", name, r,
                      sl.z_first);
          RW_CHECK (plane_inside (s, 0) == 0 && plane_inside (s, s->nz - 1) == 0,
                    "%s: slab %d has outside planes at both ends", name, r);
          size_t bad_k = 0, bad_ghost = 0, bad_area = 0;
          const size_t zc0 = cuts[r] > h ? cuts[r] - h : 0, zc1 = cuts[r + 1] + h < g->nz ? cuts[r + 1] + h : g->nz;
          size_t lb = 0;
          const int mk = rw_grid_max_k (s);
          for (size_t li = 0; li < nxy * s->nz; li++)
            {
              const size_t gi = li + sl.z_first * nxy, z = gi / nxy;
              const bool owned = z >= cuts[r] && z < cuts[r + 1];
              if (owned && (s->K[li] != g->K[gi] || (s->K[li] != 0 && s->K[li] < mk
                                                     && s->surface[li] != g->surface[gi])))
                bad_k++;
              if (z >= zc0 && z < zc1 && (s->K[li] != 0) != (g->K[gi] != 0))
                bad_ghost++;
              if (s->K[li] != 0 && s->K[li] < mk)
                {
                  if (owned && g->area != NULL && s->area[lb] != g->area[grank[gi]])
                    bad_area++;
                  lb++;
                }
            }
          RW_CHECK (lb == s->n_boundary, "%s: slab %d counts %zu boundary nodes, has %zu", name, r,
                    s->n_boundary, lb);
          RW_CHECK (bad_k == 0 && bad_ghost == 0 && bad_area == 0,
                    "%s, %d slabs: slab %d keeps the owned cells (%zu differ), the sent ghosts' "
                    "inside cells (%zu differ) and the owned areas (%zu differ)", name, n, r, bad_k,
                    bad_ghost, bad_area);
          /* the CPU backend's checks of every promise of rw-voxel.h */
          double R = 0.9, sig[4] = { 1, 0, 0, 0 };
          size_t src = 0;
          for (size_t i = sl.own_z0 * nxy; i < sl.own_z1 * nxy && src == 0; i++)
            if (s->K[i] != 0)
              src = i;
          double *Rs = malloc (s->n_surfaces * sizeof *Rs);
          for (size_t k = 0; k < s->n_surfaces; k++)
            Rs[k] = R;
          RwSolverSetup su = { .grid = s, .surface_R = Rs, .boundary = RW_BOUNDARY_FV,
                               .precision = RW_PRECISION_F64, .n_steps = 4, .source_cell = src,
                               .source_signal = sig, .threads = 1 };
          RwSolver *so = src != 0 ? rw_solver_new (&su, RW_BACKEND_CPU, &err) : NULL;
          RW_CHECK (src == 0 || so != NULL, "%s, %d slabs: the CPU backend takes slab %d: %s", name,
                    n, r, err.message);
          RW_CHECK (so == NULL || rw_solver_advance (so, 4, &err), "slab %d steps: %s", r,
                    err.message);
          rw_solver_free (so);
          free (Rs);
          rw_slab_clear (&sl);
        }
    }
  if (strstr (name, "hall") != NULL)
    RW_CHECK (by_planes_would_miss, "%s: cutting by planes would unbalance it (the test tells the "
              "rules apart)", name);
  size_t cuts[RW_SLAB_MAX_RANKS + 1];
  const int too_many = (int) (g->nz / h) + 1;
  RW_CHECK (!rw_slab_plan (g, too_many, cuts, &err) && strstr (err.message, "planes") != NULL,
            "%s: %d slabs refused: %s", name, too_many, err.message);
  RwSlab sl;
  RW_CHECK (!rw_slab_extract (g, 3, g->nz + 2, &sl, &err), "%s: a slab beyond the grid refused",
            name);
  free (grank);
}

/* rw_slab_devices_shared: two ranks on one GPU told by its UUID even
 * where their indices and visibility variables differ (the rule before
 * UUIDs said "not shared" there, and NCCL was left to refuse the pair), two
 * GPUs told apart by their UUIDs, and without UUIDs the host, index and
 * variable. */
static void
check_devices_shared (void)
{
  RwSlabDevice a, b;
  memset (&a, 0, sizeof a);
  snprintf (a.host, sizeof a.host, "node1");
  a.device = 0;
  a.has_uuid = true;
  memset (a.uuid, 0x5a, sizeof a.uuid);
  b = a;
  snprintf (b.visible, sizeof b.visible, "1");   /* device 0 of "1": GPU 1 … */
  a.device = 1;                                   /* … and device 1 of all: GPU 1 */
  RwSlabDevice two[2] = { a, b };
  RW_CHECK (rw_slab_devices_shared (two, 2), "one GPU (one UUID) under two indices not shared");
  two[1].uuid[15] ^= 1;
  RW_CHECK (!rw_slab_devices_shared (two, 2), "two GPUs (two UUIDs) taken as one");
  /* without UUIDs (a backend that gives none): host, index and variable */
  two[0].has_uuid = two[1].has_uuid = false;
  snprintf (two[1].visible, sizeof two[1].visible, "%s", two[0].visible);
  two[1].device = two[0].device;
  RW_CHECK (rw_slab_devices_shared (two, 2), "the same host, index and variable not shared");
  two[1].device = 0;
  RW_CHECK (!rw_slab_devices_shared (two, 2), "other indices taken as one device");
  /* one of three ranks apart, two on one GPU */
  RwSlabDevice three[3] = { a, a, a };
  three[0].uuid[0] = 1;
  RW_CHECK (rw_slab_devices_shared (three, 3), "ranks 1 and 2 on one GPU not found");
  three[1].uuid[0] = 2;
  RW_CHECK (!rw_slab_devices_shared (three, 3), "three GPUs taken as shared");
  RW_CHECK (!rw_slab_devices_shared (three, 1), "one rank shares with itself");
}

int
main (void)
{
  check_devices_shared ();
  RwError err;
  rw_error_clear (&err);
  RwMesh *hall = rw_shape_hall (14.0, 9.0, 7.0, 8);
  RwMesh *lroom = rw_shape_lroom (3.1, 2.3, 2.05, 1.9, 1.4);
  struct { const char *name; RwMesh *m; double h; } rooms[] = {
    { "hall", hall, 0.35 }, { "L-room", lroom, 0.1 },
  };
  for (size_t k = 0; k < 2; k++)
    for (int fcc = 0; fcc < 2; fcc++)
      {
        RwGrid *g = fcc ? rw_voxelise_fcc (rooms[k].m, rooms[k].h, 0, &err)
                        : rw_voxelise (rooms[k].m, rooms[k].h, 0, &err);
        RW_CHECK (g != NULL, "%s: %s", rooms[k].name, err.message);
        if (g == NULL)
          continue;
        char name[64];
        snprintf (name, sizeof name, "%s %s", rooms[k].name, fcc ? "FCC" : "cubic");
        check_room (name, g);
        rw_grid_free (g);
      }
  rw_mesh_free (hall);
  rw_mesh_free (lroom);
  return rw_test_finish ();
}
