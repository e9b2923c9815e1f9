/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-cuda-strategies-agree — the six strategies of the six-strategies
 * paper (tiled global, tiled shared, naive sliced, shared + texture,
 * shared + global, pure texture) compute the production kernel's field.
 *
 * On a small hall (sloped floor and ceiling: the production kernel skips
 * tiles and clips columns, the strategies sweep the whole box), fp32, from
 * the same pseudo-random field, 2 + 20 steps, for 16×16 and 32×8 blocks:
 * every strategy ran and its final field is within 1e-5 of production's
 * (they differ only where the compiler fused a multiply-add differently).
 * Also: the benchmark rows carry a positive throughput and register count.
 * Skips (77) with the reason when no CUDA device is present.
 */
#include "gpu/cuda-test-room.h"
#include "../kernels/rw-cuda.h"

#if RW_HAVE_CUDA

int
main (void)
{
  if (!cuda_test_require ())
    return rw_test_finish ();
  double *R;
  RwGrid *g = cuda_test_room (2, 0.05, &R);
  /* the strategies are the scheme's kernels alone: every node by its face
   * count (nodes absorbing by their area are the branch kernel's, after
   * the production kernel, tested in cuda-vs-cpu) */
  free (g->area);
  g->area = NULL;
  RW_NOTE ("hall grid %zu×%zu×%zu, %zu inside", g->nx, g->ny, g->nz, g->n_inside);
  RwError err = { 0 };
  static const int shapes[2][2] = { { 16, 16 }, { 32, 8 } };
  for (int s = 0; s < 2; s++)
    {
      RwCudaBenchRow rows[RW_CUDA_N_KERNELS];
      bool ok = rw_cuda_bench (g, R, NULL, 0.0, RW_PRECISION_F32, rw_cuda_kernel_names, RW_CUDA_N_KERNELS,
                               shapes[s][0], shapes[s][1], 20, 1e12, rows, &err);
      RW_CHECK (ok, "bench: %s", err.message);
      if (!ok)
        continue;
      for (int k = 0; k < RW_CUDA_N_KERNELS; k++)
        {
          const RwCudaBenchRow *r = &rows[k];
          RW_NOTE ("  %-15s %dx%d ran %d  %.2f Gvox/s  %d regs  max diff %.3g %s", r->kernel,
                   r->block_x, r->block_y, r->ran, r->gvox_per_s, r->registers, r->max_diff,
                   r->why);
          RW_CHECK (r->ran, "%s did not run: %s", r->kernel, r->why);
          RW_CHECK (r->max_diff <= 1e-5, "%s %dx%d differs from production by %.3g", r->kernel,
                    r->block_x, r->block_y, r->max_diff);
          RW_CHECK (r->gvox_per_s > 0 && r->registers > 0, "%s: no throughput or registers",
                    r->kernel);
        }
    }
  /* unknown kernel names are refused */
  RwCudaBenchRow row;
  const char *bad = "warp-speed";
  rw_error_clear (&err);
  RW_CHECK (!rw_cuda_bench (g, R, NULL, 0.0, RW_PRECISION_F32, &bad, 1, 32, 8, 5, 1e12, &row, &err)
            && err.code == RW_ERROR_INPUT, "unknown kernel accepted");
  free (R);
  rw_grid_free (g);
  return rw_test_finish ();
}

#endif /* RW_HAVE_CUDA */
