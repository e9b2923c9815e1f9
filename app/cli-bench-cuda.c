/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-bench-cuda.c — `roomwave-cli bench --backend cuda …`: the six
 * strategies of seeds/fdtd-cuda-six-strategies.txt and the production
 * kernel, in Gvox/s, registers per thread and the fraction of the roofline
 * measured in the same run (device-to-device copy bandwidth over the bytes
 * a cell update must move). docs/GPU.md explains the table.
 */
#include "rw-admittance.h"
#include "rw-materials.h"
#include "rw-physics.h"
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "rw-config.h"
#include "rw-mesh.h"
#include "rw-shapes.h"
#include "rw-solver.h"
#include "rw-voxel.h"
#if RW_HAVE_CUDA
#include "../kernels/rw-cuda.h"
#endif

static void
rw_bench_cuda_help (void)
{
  printf (_("Usage: roomwave-cli bench --backend cuda [OPTIONS]\n"
            "\n"
            "Times the CUDA kernels on a box or on a voxelised hall and prints, per kernel\n"
            "and thread-block shape, the inside cells updated per second (Gvox/s), the\n"
            "registers per thread and the fraction of the roofline: the device-to-device\n"
            "copy bandwidth measured in the same run over 12 B per cell (fp32; 6 B fp16,\n"
            "24 B fp64).\n"
            "\n"
            "  --kernel NAME       all (default), production, tiled-global, tiled-shared,\n"
            "                      naive-sliced, shared-texture, shared-global, pure-texture\n"
            "  --size NX,NY,NZ     box of NX×NY×NZ inside cells (default 512,512,512)\n"
            "  --room hall         a voxelised concert hall (rw_shape_hall) instead of a box\n"
            "  --cells N           inside cells of the hall (default 220000000)\n"
            "  --surfaces MODEL    the hall's boundary: faces (one R per surface, each\n"
            "                      node absorbing by its face count: the frequency-\n"
            "                      independent kernels alone), area (one R, each node\n"
            "                      by its absorbing area from the mesh: the default),\n"
            "                      bands (six library materials fitted per band,\n"
            "                      frequency dependent, by area)\n"
            "  --precision P       f32 (default), f16 (fp16 storage), f64, or all three\n"
            "  --block XxY         thread-block shape (default: 16x16 and 32x8 for the\n"
            "                      strategies, autotuned for production)\n"
            "  --steps N           timed steps per kernel (default 50; median reported)\n"
            "  --variants[=LIST]   also time each variant of the production kernel, or\n"
            "                      those of LIST (e.g. 5,9,11; docs/GPU.md;\n"
            "                      ROOMWAVE_CUDA_VARIANT picks the production one)\n"
            "  --device N          the CUDA device (default 0; roomwave-cli devices)\n"
            "  --json              print JSON instead of the table\n"));
}

#if RW_HAVE_CUDA

static void
rw_print_row (const RwCudaBenchRow *r, bool json, bool last)
{
  if (json)
    {
      printf ("    {\"kernel\": \"%s\", \"block\": \"%dx%d\", \"ran\": %s", r->kernel,
              r->block_x, r->block_y, r->ran ? "true" : "false");
      if (r->ran)
        printf (", \"ms_per_step\": %.4f, \"gvox_per_s\": %.2f, \"registers\": %d, "
                "\"roofline_fraction\": %.4f, \"max_diff_vs_production\": %.3g, "
                "\"steps_per_pass\": %d",
                r->ms_per_step, r->gvox_per_s, r->registers, r->roofline_fraction, r->max_diff,
                r->steps_per_pass > 1 ? r->steps_per_pass : 1);
      else
        printf (", \"why\": \"%s\"", r->why);
      printf ("}%s\n", last ? "" : ",");
      return;
    }
  if (r->ran)
    {
      printf ("%-15s %4dx%-4d %10.3f %9.1f %6d %8.1f %%   %.2g", r->kernel, r->block_x,
              r->block_y, r->ms_per_step, r->gvox_per_s, r->registers,
              100.0 * r->roofline_fraction, r->max_diff);
      if (r->steps_per_pass > 1)
        printf (_("   (%d steps a pass)"), r->steps_per_pass);
      printf ("\n");
    }
  else
    printf ("%-15s %4dx%-4d   %s\n", r->kernel, r->block_x, r->block_y, r->why);
}

static RwGrid *
rw_bench_hall (double cells, int surfaces, double **surface_R, RwAdmittance **surface_Y,
               double *time_step_s, RwError *err)
{
  /* 40 m × 25 m × 15 m, 24 facets on the rear arc: raked floor, splayed
   * walls, sloped ceiling (rw-shapes.h) */
  RwMesh *mesh = rw_shape_hall (40.0, 25.0, 15.0, 24);
  if (!mesh)
    {
      rw_fail (err, RW_ERROR_INTERNAL, _("could not build the hall"));
      return NULL;
    }
  RwMeshReport rep;
  if (!rw_mesh_report (mesh, &rep, err))
    {
      rw_mesh_free (mesh);
      return NULL;
    }
  const double h = cbrt (rep.volume_m3 / cells);
  rw_mesh_report_clear (&rep);
  RwGrid *g = rw_voxelise (mesh, h, 0, err);
  if (g)
    {
      /* a distinct reflection factor per surface, as materials would give */
      *surface_R = malloc (g->n_surfaces * sizeof **surface_R);
      for (size_t s = 0; s < g->n_surfaces; s++)
        (*surface_R)[s] = 0.95 - 0.03 * (double) (s % 20);
      if (surfaces == 0)
        {
          free (g->area);      /* every node by its face count */
          g->area = NULL;
        }
      if (surfaces == 2)
        {
          /* six library materials, fitted over the bands up to 1 kHz and
           * one beyond (a 1 kHz simulation), on the hall's six surfaces */
          static const char *const names[] = { "carpet on concrete", "acoustic plaster",
                                               "plaster", "glass", "wood floor", "plasterboard" };
          RwMaterialLibrary *lib = rw_materials_load (NULL, err);
          *surface_Y = calloc (g->n_surfaces + 1, sizeof **surface_Y);
          for (size_t s = 0; lib != NULL && *surface_Y != NULL && s < g->n_surfaces; s++)
            {
              const RwMaterial *m = rw_materials_find (lib, names[s % 6]);
              if (m == NULL
                  || !rw_admittance_fit_alpha (m->alpha, rw_admittance_bands_for_fmax (1000.0),
                                               &(*surface_Y)[s], NULL, err))
                {
                  if (m == NULL)
                    rw_fail (err, RW_ERROR_INTERNAL, _("the library has no “%s”"), names[s % 6]);
                  rw_grid_free (g);
                  g = NULL;
                  break;
                }
              printf ("# surface %zu: %s, %d branches\n", s, m->name, (*surface_Y)[s].n_branches);
            }
          if (lib == NULL || *surface_Y == NULL)
            {
              if (*surface_Y == NULL)
                rw_fail (err, RW_ERROR_MEMORY, _("Out of memory"));
              rw_grid_free (g);
              g = NULL;
            }
          rw_materials_free (lib);
          if (g != NULL)
            *time_step_s = 1.0 / rw_grid_rate (rw_speed_of_sound (20.0), g->h);
        }
    }
  rw_mesh_free (mesh);
  return g;
}

/* "5,9,11" → on[5], on[9], on[11] */
static bool
rw_bench_parse_variants (const char *list, bool *on)
{
  const char *s = list;
  while (*s)
    {
      char *end;
      const long v = strtol (s, &end, 10);
      if (end == s || v < 0 || v >= RW_CUDA_N_VARIANTS || (*end != ',' && *end != '\0'))
        return false;
      on[v] = true;
      s = *end == ',' ? end + 1 : end;
    }
  return s != list;
}

int
rw_cli_bench_cuda (int argc, char **argv)
{
  static const struct option opts[] = {
    { "backend", required_argument, NULL, 'B' },
    { "kernel", required_argument, NULL, 'k' },
    { "size", required_argument, NULL, 's' },
    { "room", required_argument, NULL, 'r' },
    { "surfaces", required_argument, NULL, 'S' },
    { "cells", required_argument, NULL, 'c' },
    { "precision", required_argument, NULL, 'p' },
    { "block", required_argument, NULL, 'b' },
    { "steps", required_argument, NULL, 'n' },
    { "json", no_argument, NULL, 'j' },
    { "device", required_argument, NULL, 'd' },
    { "variants", optional_argument, NULL, 'v' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
  };
  const char *kernel = "all";
  long size[3] = { 512, 512, 512 };
  bool hall = false, json = false, variants = false;
  int surfaces = 1;   /* faces, area, bands */
  bool variant_on[RW_CUDA_N_VARIANTS];
  double cells = 2.2e8;
  RwPrecision precs[3] = { RW_PRECISION_F32, RW_PRECISION_F16, RW_PRECISION_F64 };
  int n_prec = 1;
  int bx = 0, by = 0;
  long steps = 50, device = 0;
  int c;
  optind = 1;
  while ((c = getopt_long (argc, argv, "h", opts, NULL)) != -1)
    switch (c)
      {
      case 'S':
        if (strcmp (optarg, "faces") == 0)
          surfaces = 0;
        else if (strcmp (optarg, "area") == 0)
          surfaces = 1;
        else if (strcmp (optarg, "bands") == 0)
          surfaces = 2;
        else
          return rw_cli_usage_error ("bench", _("--surfaces: expected faces, area or bands, got “%s”"),
                                     optarg);
        break;
      case 'd':
        if (!rw_cli_parse_int (optarg, 0, 4095, &device))
          return rw_cli_usage_error ("bench", _("--device: expected a device number, got “%s”"),
                                     optarg);
        break;
      case 'B':
        if (strcmp (optarg, "cuda") != 0)
          return rw_cli_usage_error ("bench", _("this is the CUDA benchmark; --backend %s is not"),
                                     optarg);
        break;
      case 'k':
        kernel = optarg;
        break;
      case 's':
        {
          double v[3];
          if (!rw_cli_parse_vec3 (optarg, v))
            return rw_cli_usage_error ("bench", _("--size: expected NX,NY,NZ, got “%s”"), optarg);
          for (int a = 0; a < 3; a++)
            {
              if (!(v[a] >= 1 && v[a] <= 100000) || v[a] != floor (v[a]))
                return rw_cli_usage_error ("bench", _("--size: “%s” must be three whole numbers "
                                                      "from 1 to 100000"), optarg);
              size[a] = (long) v[a];
            }
        }
        break;
      case 'r':
        if (strcmp (optarg, "hall") != 0)
          return rw_cli_usage_error ("bench", _("--room: only “hall” is known, got “%s”"), optarg);
        hall = true;
        break;
      case 'c':
        if (!rw_cli_parse_double (optarg, 1e3, 1e10, &cells))
          return rw_cli_usage_error ("bench", _("--cells: expected 1000 to 1e10, got “%s”"), optarg);
        break;
      case 'p':
        n_prec = 1;
        if (rw_precision_parse (optarg, &precs[0]))
          ;
        else if (strcmp (optarg, "all") == 0)
          n_prec = 3;
        else
          return rw_cli_usage_error ("bench", _("--precision: f32, f16, f64 or all, got “%s”"),
                                     optarg);
        break;
      case 'b':
        if (sscanf (optarg, "%dx%d", &bx, &by) != 2 || bx < 1 || by < 1 || bx * by < 32
            || bx * by > 512)
          return rw_cli_usage_error ("bench", _("--block: expected XxY with 32 to 512 threads, "
                                                "got “%s”"), optarg);
        break;
      case 'n':
        if (!rw_cli_parse_int (optarg, 1, 100000, &steps))
          return rw_cli_usage_error ("bench", _("--steps: expected 1 to 100000, got “%s”"), optarg);
        break;
      case 'j':
        json = true;
        break;
      case 'v':
        variants = true;
        for (int v = 0; v < RW_CUDA_N_VARIANTS; v++)
          variant_on[v] = optarg == NULL;
        if (optarg && !rw_bench_parse_variants (optarg, variant_on))
          return rw_cli_usage_error ("bench", _("--variants: expected numbers from 0 to %d "
                                                "separated by commas, got “%s”"),
                                     RW_CUDA_N_VARIANTS - 1, optarg);
        break;
      case 'h':
        rw_bench_cuda_help ();
        return RW_EXIT_OK;
      default:
        return RW_EXIT_USAGE;
      }
  if (optind < argc)
    return rw_cli_usage_error ("bench", _("unexpected argument “%s”"), argv[optind]);

  const char *names[RW_CUDA_N_KERNELS];
  size_t n_names = 0;
  if (strcmp (kernel, "all") == 0)
    for (int k = 0; k < RW_CUDA_N_KERNELS; k++)
      names[n_names++] = rw_cuda_kernel_names[k];
  else
    {
      for (int k = 0; k < RW_CUDA_N_KERNELS; k++)
        if (strcmp (kernel, rw_cuda_kernel_names[k]) == 0)
          names[n_names++] = rw_cuda_kernel_names[k];
      if (n_names == 0)
        return rw_cli_usage_error ("bench", _("--kernel: unknown kernel “%s” (see --help)"), kernel);
    }

  const RwBackendOps *ops = rw_cuda_backend ();
  char why[256];
  if (!ops->available (why, sizeof why))
    {
      fprintf (stderr, "roomwave-cli bench: %s\n", why);
      return RW_EXIT_INPUT;
    }
  if (device >= ops->device_count ())
    {
      fprintf (stderr, _("roomwave-cli bench: device %ld does not exist: the cuda backend has %d "
                         "device(s) here, numbered from 0 (roomwave-cli devices lists them)\n"),
               device, ops->device_count ());
      return RW_EXIT_INPUT;
    }
  RwError err = { 0 };
  RwCudaDeviceInfo dev;
  if (!rw_cuda_device_info ((int) device, 0, &dev, &err))
    return rw_cli_fail (&err);

  double *surface_R = NULL, time_step_s = 0.0;
  RwAdmittance *surface_Y = NULL;
  RwGrid *g;
  if (hall)
    g = rw_bench_hall (cells, surfaces, &surface_R, &surface_Y, &time_step_s, &err);
  else
    {
      g = rw_grid_new_box ((size_t) size[0], (size_t) size[1], (size_t) size[2], 0.05);
      if (!g)
        rw_fail (&err, RW_ERROR_MEMORY, _("could not allocate a %ld×%ld×%ld grid"), size[0],
                 size[1], size[2]);
      else
        {
          surface_R = malloc (g->n_surfaces * sizeof *surface_R);
          for (size_t s = 0; s < g->n_surfaces; s++)
            surface_R[s] = 0.9;
        }
    }
  if (!g)
    return rw_cli_fail (&err);

  if (json && n_prec > 1)
    printf ("[\n");
  for (int ip = 0; ip < n_prec; ip++)
    {
      const RwPrecision prec = precs[ip];
      /* shapes: the strategies at 16×16 and 32×8 (the paper's Tables 1 and 2)
       * unless one was given; production once more, autotuned */
      int shapes[3][2] = { { 16, 16 }, { 32, 8 }, { 0, 0 } };
      int n_shapes = 3;
      if (bx > 0)
        {
          shapes[0][0] = bx, shapes[0][1] = by;
          n_shapes = 1;
        }
      RwCudaBenchRow rows[3 + RW_CUDA_N_VARIANTS][RW_CUDA_N_KERNELS];
      size_t n_rows[3 + RW_CUDA_N_VARIANTS] = { 0 };
      const char *prod = "production";
      for (int s = 0; s < n_shapes; s++)
        {
          const bool tuned = shapes[s][0] == 0;
          const char *const *list = tuned ? &prod : names;
          const size_t n = tuned ? 1 : n_names;
          if (tuned && n_names == 1 && strcmp (names[0], "production") != 0)
            continue;
          if (!rw_cuda_bench (g, surface_R, surface_Y, time_step_s, prec, list, n, shapes[s][0], shapes[s][1], (int) steps,
                              dev.copy_bytes_per_s, rows[s], &err))
            {
              rw_grid_free (g);
              free (surface_R);
  free (surface_Y);
              return rw_cli_fail (&err);
            }
          n_rows[s] = n;
        }
      /* the production variants, each autotuned (the cache key names the
       * variant) */
      for (int v = 0; variants && v < RW_CUDA_N_VARIANTS; v++)
        {
          if (!variant_on[v])
            continue;
          char val[8];
          snprintf (val, sizeof val, "%d", v);
          setenv ("ROOMWAVE_CUDA_VARIANT", val, 1);
          const bool ok = rw_cuda_bench (g, surface_R, surface_Y, time_step_s, prec, &prod, 1, bx, by, (int) steps,
                                         dev.copy_bytes_per_s, rows[n_shapes], &err);
          unsetenv ("ROOMWAVE_CUDA_VARIANT");
          if (!ok)
            {
              rw_grid_free (g);
              free (surface_R);
  free (surface_Y);
              return rw_cli_fail (&err);
            }
          snprintf (rows[n_shapes][0].kernel, sizeof rows[n_shapes][0].kernel,
                    "production-v%d", v);
          n_rows[n_shapes++] = 1;
        }

      const double roof = dev.copy_bytes_per_s / rw_cuda_roofline_bytes (prec) / 1e9;
      const char *pname = rw_precision_name (prec);
      char date[32];
      time_t now = time (NULL);
      strftime (date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime (&now));
      if (json)
        {
          printf ("{\n  \"device\": \"%s\",\n  \"date\": \"%s\",\n  \"room\": \"%s\",\n"
                  "  \"grid\": [%zu, %zu, %zu],\n  \"inside_cells\": %zu,\n  \"precision\": \"%s\",\n"
                  "  \"steps\": %ld,\n  \"copy_GB_per_s\": %.1f,\n  \"roofline_gvox_per_s\": %.2f,\n"
                  "  \"rows\": [\n", dev.device, date, hall ? "hall" : "box", g->nx, g->ny, g->nz,
                  g->n_inside, pname, steps, dev.copy_bytes_per_s / 1e9, roof);
          size_t total = 0, done = 0;
          for (int s = 0; s < n_shapes; s++)
            total += n_rows[s];
          for (int s = 0; s < n_shapes; s++)
            for (size_t r = 0; r < n_rows[s]; r++)
              rw_print_row (&rows[s][r], true, ++done == total);
          printf ("  ]\n}\n");
        }
      else
        {
          printf (_("device     %s (%s)\n"), dev.device, date);
          printf (_("room       %s, grid %zu×%zu×%zu, %zu inside cells (%.0f %% of the box), %s\n"),
                  hall ? "hall" : "box", g->nx, g->ny, g->nz, g->n_inside,
                  100.0 * g->n_inside / ((double) g->nx * g->ny * g->nz), pname);
          if (hall)
            printf (_("surfaces   %s (%zu boundary nodes, %.2f %% of the inside cells)\n"),
                    surfaces == 0 ? "faces" : surfaces == 1 ? "area" : "bands", g->n_boundary,
                    100.0 * (double) g->n_boundary / (double) g->n_inside);
          printf (_("roofline   copy %.1f GB/s (D2D, read + written) / %.0f B = %.1f Gvox/s\n\n"),
                  dev.copy_bytes_per_s / 1e9, rw_cuda_roofline_bytes (prec), roof);
          printf ("%-15s %9s %10s %9s %6s %10s   %s\n", _("kernel"), _("block"), _("ms/step"),
                  _("Gvox/s"), _("regs"), _("roofline"), _("max diff"));
          for (int s = 0; s < n_shapes; s++)
            for (size_t r = 0; r < n_rows[s]; r++)
              rw_print_row (&rows[s][r], false, false);
        }
      if (json && n_prec > 1)
        printf (ip + 1 < n_prec ? ",\n" : "]\n");
      else if (ip + 1 < n_prec)
        printf ("\n");
    }
  rw_grid_free (g);
  free (surface_R);
  free (surface_Y);
  return RW_EXIT_OK;
}

#else /* !RW_HAVE_CUDA */

int
rw_cli_bench_cuda (int argc, char **argv)
{
  for (int i = 1; i < argc; i++)
    if (strcmp (argv[i], "--help") == 0 || strcmp (argv[i], "-h") == 0)
      {
        rw_bench_cuda_help ();
        return RW_EXIT_OK;
      }
  fprintf (stderr, "roomwave-cli bench: %s\n",
           _("the CUDA backend was not built in (nvcc was not found when Roomwave was "
             "configured)"));
  return RW_EXIT_INPUT;
}

#endif
