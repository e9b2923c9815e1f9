/* SPDX-License-Identifier: GPL-3.0-or-later */
/* voxel-slab-mpi-N: N MPI ranks each voxelise their own slab, no rank
 * holding the whole grid (issue #15, rw_slab_voxelise_ranks: plane counts
 * per share, gathered, cut, each slab from its own planes), and get the
 * cuts rw_slab_plan makes of the whole grid and, byte for byte, the slab
 * rw_slab_extract cuts from it (the second method: each rank here also
 * voxelises the whole room, for the comparison alone). On the L-room and
 * the 30° ceiling, both lattices. Started by mpirun -np N
 * (tests/meson.build: N = 2, 3). A mesh that no rank can voxelise (open)
 * fails on every rank with the same refusal, none left waiting. */
#include "rw-test.h"

#include <stdlib.h>
#include <string.h>

#include "rw-comm.h"
#include "rw-shapes.h"
#include "rw-slab.h"
#include "rw-voxel.h"
#include "test-voxel-slab.h"

int
main (void)
{
  RwError err = { 0 };
  RwComm *comm = rw_comm_world (&err);
  RW_CHECK (comm != NULL, "not started by mpirun with several ranks: %s", err.message);
  if (comm == NULL)
    return rw_test_finish ();
  const int rank = rw_comm_rank (comm), size = rw_comm_size (comm);
  struct { const char *what; RwMesh *m; double h; } cases[] = {
    { "L-room", rw_shape_lroom (6, 5, 3, 3.5, 2.2), 0.1 },
    { "30° ceiling", rw_shape_sloped_ceiling (6.03, 4.07, 2.51, 30), 0.1 },
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    for (int l = 0; l < 2; l++)
      {
        const RwLattice lat = l ? RW_LATTICE_FCC : RW_LATTICE_CUBIC;
        char what[96];
        snprintf (what, sizeof what, "%s (%s), rank %d of %d", cases[c].what, l ? "FCC" : "cubic",
                  rank, size);
        size_t cuts[RW_SLAB_MAX_RANKS + 1], want_cuts[RW_SLAB_MAX_RANKS + 1];
        RwSlab got, want;
        bool ok = rw_slab_voxelise_ranks (cases[c].m, cases[c].h, lat, comm, 1, cuts, &got, &err);
        RW_CHECK (ok, "%s: %s", what, err.message);
        RwGrid *g = l ? rw_voxelise_fcc (cases[c].m, cases[c].h, 1, &err)
                      : rw_voxelise (cases[c].m, cases[c].h, 1, &err);
        RW_CHECK (g != NULL, "%s: %s", what, err.message);
        if (ok && g != NULL && rw_slab_plan (g, size, want_cuts, &err))
          {
            RW_CHECK (memcmp (cuts, want_cuts, (size_t) (size + 1) * sizeof *cuts) == 0,
                      "%s: cuts differ from rw_slab_plan's", what);
            if (rw_slab_extract (g, want_cuts[rank], want_cuts[rank + 1], &want, &err))
              {
                check_same_slab (&got, &want, what, want_cuts[rank], want_cuts[rank + 1]);
                rw_slab_clear (&want);
              }
            RW_NOTE ("%s: planes [%zu, %zu) of %zu, slab grid of %zu planes", what, cuts[rank],
                     cuts[rank + 1], g->nz, got.grid->nz);
          }
        if (ok)
          rw_slab_clear (&got);
        rw_grid_free (g);
      }

  /* an open mesh: refused on every rank, the same message */
  RwMesh *open = rw_shape_box (2, 2, 2);
  open->n_triangles--;
  size_t cuts[RW_SLAB_MAX_RANKS + 1];
  RwSlab s;
  err = (RwError) { 0 };
  RW_CHECK (!rw_slab_voxelise_ranks (open, 0.1, RW_LATTICE_CUBIC, comm, 1, cuts, &s, &err)
            && err.code == RW_ERROR_INPUT && strstr (err.message, "not closed") != NULL,
            "rank %d: an open mesh: '%s'", rank, err.message);
  rw_mesh_free (open);
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    rw_mesh_free (cases[c].m);
  int fails = rw_test_finish ();
  rw_comm_finalize ();
  return fails;
}
