/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wave-probe-window: a spatial receiver's probe found from the planes
 * around it alone (issue #15: ranks never hold the whole grid;
 * rw_wave_probe_planes, rw_voxelise_planes, rw_wave_probe_window) is the
 * probe rw_wave_probe finds on the whole grid (the second method): for
 * every cell of every plane, orders 1, 2 and 3, the same success or
 * refusal, the same cells in the whole grid's indices, the same offsets
 * and, on a refusal, the same message (the cell's whole-grid coordinates
 * in it). On the L-room (re-entrant corner), the 30° ceiling (a sloped
 * wall cut through by the planes) and a box small enough that most
 * windows reach a grid's end, on the 7-point (cubic) lattice. And the
 * probes the runs use, about points between the nodes (rw_wave_probe_at:
 * virtual nodes read through the point's stencil), on both lattices: 200
 * random points a room, orders 1 and 3, the same both ways. Seen failing
 * with the window's cells left in its own indices, with a window one
 * plane too thin on each side, and with the messages' z in the window's
 * planes. */
#include "rw-test.h"
#include <stdlib.h>
#include <string.h>
#include "rw-shapes.h"
#include "rw-voxel.h"
#include "rw-wave-directions.h"

/* The probes of every cell of plane z of g both ways; the number of
 * cells where they differ (the first one printed). */
static size_t
check_plane (const RwMesh *m, const RwGrid *g, size_t z, int order, const char *what,
             size_t *accepted)
{
  size_t z0, z1, bad = 0;
  rw_wave_probe_planes (z, g->nz, &z0, &z1);
  RwError err = { 0 };
  RwGrid *w = rw_voxelise_planes (m, g->h, RW_LATTICE_CUBIC, z0, z1, 0, 0, 1, &err);
  RW_CHECK (w != NULL, "%s plane %zu: window [%zu, %zu): %s", what, z, z0, z1, err.message);
  if (w == NULL)
    return 1;
  RwWaveProbe *a = malloc (sizeof *a), *b = malloc (sizeof *b);
  const size_t nxy = g->nx * g->ny;
  for (size_t i = z * nxy; a != NULL && b != NULL && i < (z + 1) * nxy; i++)
    {
      RwError e1 = { 0 }, e2 = { 0 };
      memset (a, 0, sizeof *a);
      memset (b, 0, sizeof *b);
      const bool ok1 = rw_wave_probe (g, i, order, a, &e1);
      const bool ok2 = rw_wave_probe_window (w, z0, i, order, b, &e2);
      bool same = ok1 == ok2;
      if (same && ok1)
        same = a->n == b->n && memcmp (a->cells, b->cells, a->n * sizeof a->cells[0]) == 0
               && memcmp (a->offset, b->offset, a->n * sizeof a->offset[0]) == 0;
      else if (same)
        same = e1.code == e2.code && strcmp (e1.message, e2.message) == 0;
      *accepted += ok1 && same;
      if (!same && bad++ == 0)
        RW_CHECK (same, "%s order %d, cell %zu (plane %zu, window [%zu, %zu)): whole grid %s (%zu "
                  "cells), window %s (%zu cells)", what, order, i, z, z0, z1,
                  ok1 ? "ok" : e1.message, a->n, ok2 ? "ok" : e2.message, b->n);
    }
  RW_CHECK (a != NULL && b != NULL, "out of memory");
  free (a);
  free (b);
  rw_grid_free (w);
  return bad;
}

int
main (void)
{
  struct { const char *what; RwMesh *m; double h; } cases[] = {
    { "L-room", rw_shape_lroom (3, 2.5, 1.5, 1.7, 1.1), 0.1 },
    { "30° ceiling", rw_shape_sloped_ceiling (2.03, 1.57, 1.71, 30), 0.1 },
    { "box", rw_shape_box (1.2, 1.1, 1.0), 0.1 },
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    {
      RwError err = { 0 };
      RwGrid *g = cases[c].m != NULL ? rw_voxelise (cases[c].m, cases[c].h, 0, &err) : NULL;
      RW_CHECK (g != NULL, "%s: %s", cases[c].what, err.message);
      if (g == NULL)
        continue;
      for (int order = 1; order <= RW_WAVE_MAX_ORDER; order++)
        {
          size_t bad = 0, accepted = 0;
          for (size_t z = 0; z < g->nz; z++)
            bad += check_plane (cases[c].m, g, z, order, cases[c].what, &accepted);
          RW_CHECK (bad == 0, "%s order %d: %zu cells differ", cases[c].what, order, bad);
          /* the comparison saw probes, not refusals alone */
          RW_CHECK (accepted > 0, "%s order %d: no cell takes the probe", cases[c].what, order);
          RW_NOTE ("%s (%zu × %zu × %zu), order %d: %zu of %zu cells take the probe, the same both "
                   "ways", cases[c].what, g->nx, g->ny, g->nz, order, accepted,
                   g->nx * g->ny * g->nz);
        }
      rw_grid_free (g);
    }
  /* probes about points between the nodes (rw_wave_probe_at), on both
   * lattices: 200 random points of each room's bounding box, each point's
   * stencil from the whole grid, the probe from the whole grid and from
   * the window of its nearest node's plane, orders 1 and 3: the same
   * success or refusal, the same offsets, cells, members and weights, or
   * the same message */
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    for (int lat = 0; lat < 2; lat++)
      {
        RwError err = { 0 };
        const RwLattice lattice = lat ? RW_LATTICE_FCC : RW_LATTICE_CUBIC;
        RwGrid *g = lat ? rw_voxelise_fcc (cases[c].m, cases[c].h, 0, &err)
                        : rw_voxelise (cases[c].m, cases[c].h, 0, &err);
        RW_CHECK (g != NULL, "%s: %s", cases[c].what, err.message);
        if (g == NULL)
          continue;
        double lo[3], hi[3];
        for (int k = 0; k < 3; k++)
          lo[k] = g->origin[k], hi[k] = g->origin[k] + g->h * (double) ((k == 0 ? g->nx : k == 1 ? g->ny : g->nz) - 1);
        uint64_t seed = 0xa7 + c * 2 + (uint64_t) lat;
        size_t taken = 0, refused = 0, bad = 0;
        RwWaveProbeAt *a = malloc (sizeof *a), *b = malloc (sizeof *b);
        for (int t = 0; a != NULL && b != NULL && t < 200; t++)
          {
            double pos[3];
            for (int k = 0; k < 3; k++)
              pos[k] = lo[k] + (hi[k] - lo[k]) * rw_test_uniform (&seed);
            RwGridStencil st;
            RwError e0 = { 0 };
            if (!rw_grid_interp (g, pos, "point", &st, &e0))
              continue;
            const size_t z = st.nearest / (g->nx * g->ny);
            size_t z0, z1;
            rw_wave_probe_planes (z, g->nz, &z0, &z1);
            RwGrid *w = rw_voxelise_planes (cases[c].m, g->h, lattice, z0, z1, 0, 0, 1, &err);
            RW_CHECK (w != NULL, "window: %s", err.message);
            for (int order = 1; w != NULL && order <= 3; order += 2)
              {
                RwError e1 = { 0 }, e2 = { 0 };
                const bool ok1 = rw_wave_probe_at (g, 0, &st, order, a, &e1);
                const bool ok2 = rw_wave_probe_at (w, z0, &st, order, b, &e2);
                bool same = ok1 == ok2;
                if (same && ok1)
                  same = a->probe.n == b->probe.n && a->n_cells == b->n_cells && a->n_w == b->n_w
                         && memcmp (a->probe.offset, b->probe.offset, a->probe.n * sizeof a->probe.offset[0]) == 0
                         && memcmp (a->probe.cells, b->probe.cells, a->probe.n * sizeof a->probe.cells[0]) == 0
                         && memcmp (a->cells, b->cells, a->n_cells * sizeof a->cells[0]) == 0
                         && memcmp (a->member, b->member, a->probe.n * (size_t) a->n_w * sizeof a->member[0]) == 0
                         && memcmp (a->w, b->w, (size_t) a->n_w * sizeof a->w[0]) == 0;
                else if (same)
                  same = e1.code == e2.code && strcmp (e1.message, e2.message) == 0;
                taken += ok1 && same;
                refused += !ok1 && same;
                if (!same && bad++ == 0)
                  RW_CHECK (same, "%s (%s) order %d at (%.3f, %.3f, %.3f): whole grid %s, window %s",
                            cases[c].what, lat ? "FCC" : "cubic", order, pos[0], pos[1], pos[2],
                            ok1 ? "ok" : e1.message, ok2 ? "ok" : e2.message);
                rw_wave_probe_at_clear (a);
                rw_wave_probe_at_clear (b);
              }
            rw_grid_free (w);
          }
        free (a);
        free (b);
        RW_CHECK (bad == 0, "%s (%s): %zu probes about points differ", cases[c].what, lat ? "FCC" : "cubic", bad);
        RW_CHECK (taken > 0 && refused > 0, "%s (%s): %zu taken, %zu refused (both wanted)", cases[c].what,
                  lat ? "FCC" : "cubic", taken, refused);
        RW_NOTE ("%s (%s): probes about points, orders 1 and 3: %zu taken, %zu refused, the same both ways",
                 cases[c].what, lat ? "FCC" : "cubic", taken, refused);
        rw_grid_free (g);
      }
  /* a centre below the window is refused, not read out of it */
  {
    RwError err = { 0 };
    RwGrid *w = rw_voxelise_planes (cases[2].m, cases[2].h, RW_LATTICE_CUBIC, 3, 6, 0, 0, 1, &err);
    RwWaveProbe *p = malloc (sizeof *p);
    RW_CHECK (w != NULL && p != NULL && !rw_wave_probe_window (w, 3, 1, 1, p, &err)
              && err.code == RW_ERROR_INPUT, "a centre below the window: refused");
    free (p);
    rw_grid_free (w);
  }
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    rw_mesh_free (cases[c].m);
  return rw_test_finish ();
}
