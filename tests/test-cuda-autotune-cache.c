/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-cuda-autotune-cache — the block-shape cache of the CUDA backend
 * ($XDG_CACHE_HOME/roomwave/autotune.json).
 *
 * Without a GPU (runs in CI): a stored shape is found again under its key
 * and not under another; a second store keeps the first entry; a missing,
 * malformed, non-object or out-of-range cache is no error, just a miss.
 * With a GPU: a solver with block 0×0 takes the cached shape for its
 * device and grid instead of searching, and a search stores its choice.
 */
#include "gpu/cuda-test-room.h"
#include "../kernels/rw-cuda.h"

#if RW_HAVE_CUDA

static void
write_file (const char *path, const char *text)
{
  FILE *f = fopen (path, "w");
  RW_CHECK (f != NULL, "cannot write %s", path);
  if (f)
    {
      fputs (text, f);
      fclose (f);
    }
}

int
main (void)
{
  char dir[4096], cache[4200];
  snprintf (dir, sizeof dir, "%s", rw_test_tmpdir ());
  setenv ("XDG_CACHE_HOME", dir, 1);
  snprintf (cache, sizeof cache, "%s/roomwave/autotune.json", dir);
  int bx = -1, by = -1;

  RW_CHECK (!rw_cuda_autotune_lookup ("dev|10x10x10|f32|0|v5", 512, &bx, &by), "hit in no cache");
  rw_cuda_autotune_store ("dev|10x10x10|f32|0|v5", 64, 2, 123.0);
  rw_cuda_autotune_store ("dev|20x20x20|f16|0|v9", 32, 4, 99.0);
  RW_CHECK (rw_cuda_autotune_lookup ("dev|10x10x10|f32|0|v5", 512, &bx, &by) && bx == 64 && by == 2,
            "stored 64x2, found %dx%d", bx, by);
  RW_CHECK (rw_cuda_autotune_lookup ("dev|20x20x20|f16|0|v9", 512, &bx, &by) && bx == 32 && by == 4,
            "second entry: found %dx%d", bx, by);
  RW_CHECK (!rw_cuda_autotune_lookup ("other|10x10x10|f32|0|v5", 512, &bx, &by), "hit for another key");

  static const char *const bad[] = {
    "{ not json",
    "[1, 2, 3]",
    "{ \"dev|10x10x10|f32|0|v5\": { \"block_x\": 0, \"block_y\": 8 } }",
    "{ \"dev|10x10x10|f32|0|v5\": { \"block_x\": 64, \"block_y\": 64 } }",
    "{ \"dev|10x10x10|f32|0|v5\": { \"block_x\": \"64\", \"block_y\": 2 } }",
    "{ \"dev|10x10x10|f32|0|v5\": 7 }",
  };
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
    {
      write_file (cache, bad[k]);
      RW_CHECK (!rw_cuda_autotune_lookup ("dev|10x10x10|f32|0|v5", 512, &bx, &by),
                "bad cache %zu taken: %dx%d", k, bx, by);
    }
  /* a malformed cache is replaced by a good one on the next store */
  rw_cuda_autotune_store ("dev|10x10x10|f32|0|v5", 32, 8, 1.0);
  RW_CHECK (rw_cuda_autotune_lookup ("dev|10x10x10|f32|0|v5", 512, &bx, &by) && bx == 32 && by == 8,
            "store over a bad cache: %dx%d", bx, by);

  /* a shape over the kernel's limit (cudaFuncGetAttributes
   * maxThreadsPerBlock: 512 with __launch_bounds__ (512)) is not taken */
  rw_cuda_autotune_store ("dev|30x30x30|f32|0|v5", 32, 32, 1.0);
  RW_CHECK (!rw_cuda_autotune_lookup ("dev|30x30x30|f32|0|v5", 512, &bx, &by),
            "1024 threads taken under a limit of 512: %dx%d", bx, by);
  RW_CHECK (rw_cuda_autotune_lookup ("dev|30x30x30|f32|0|v5", 1024, &bx, &by) && bx * by == 1024,
            "1024 threads refused under a limit of 1024");

  if (!cuda_test_require ())
    return rw_test_finish ();

  /* a search stores its choice; a cached shape is taken as it is */
  double *R;
  RwGrid *g = cuda_test_room (2, 0.08, &R);
  RwSolverSetup s = { 0 };
  s.grid = g;
  s.surface_R = R;
  s.n_steps = 10;
  RwError err = { 0 };
  remove (cache);
  void *st = rw_cuda_backend ()->create (&s, &err);
  RW_CHECK (st != NULL, "create: %s", err.message);
  size_t items;
  if (st)
    {
      rw_cuda_debug_launch (st, &bx, &by, &items);
      RW_NOTE ("searched: %dx%d, %zu items", bx, by, items);
      rw_cuda_backend ()->destroy (st);
    }
  FILE *f = fopen (cache, "r");
  char text[8192] = "";
  if (f)
    {
      size_t n = fread (text, 1, sizeof text - 1, f);
      text[n] = '\0';
      fclose (f);
    }
  RW_CHECK (strstr (text, "block_x") != NULL, "no cache written after a search: “%s”", text);

  /* rewrite every entry of the cache to 32x16 */
  char *key = strchr (text, '"');
  char *end = key ? strchr (key + 1, '"') : NULL;
  RW_CHECK (key && end, "no key in the cache");
  if (key && end)
    {
      *end = '\0';
      char forced[9000];
      snprintf (forced, sizeof forced, "{ \"%s\": { \"block_x\": 32, \"block_y\": 16 } }", key + 1);
      write_file (cache, forced);
      st = rw_cuda_backend ()->create (&s, &err);
      RW_CHECK (st != NULL, "create: %s", err.message);
      if (st)
        {
          rw_cuda_debug_launch (st, &bx, &by, &items);
          RW_CHECK (bx == 32 && by == 16, "cached 32x16 not taken: %dx%d", bx, by);
          rw_cuda_backend ()->destroy (st);
        }
    }
  free (R);
  rw_grid_free (g);
  return rw_test_finish ();
}

#endif /* RW_HAVE_CUDA */
