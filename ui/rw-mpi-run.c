/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-mpi-run.c — see rw-mpi-run.h. GLib and the engine only: no GTK. */
#include "rw-mpi-run.h"

#include <glib/gi18n-lib.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rw-comm.h"
#include "rw-config.h"
#include "rw-json.h"
#include "rw-project.h"
#include "rw-solver.h"

/* ---- devices ------------------------------------------------------------ */

/* roomwave-cli: ROOMWAVE_CLI, else the build tree's (uninstalled runs),
 * else the one installed beside the running program, else PATH's. */
static char *
find_cli (void)
{
  const char *env = g_getenv ("ROOMWAVE_CLI");
  if (env != NULL && *env != '\0')
    return g_file_test (env, G_FILE_TEST_IS_EXECUTABLE) ? g_strdup (env) : NULL;
  if (g_file_test (RW_BUILD_CLI, G_FILE_TEST_IS_EXECUTABLE))
    return g_strdup (RW_BUILD_CLI);
  if (g_file_test (RW_INSTALL_CLI, G_FILE_TEST_IS_EXECUTABLE))
    return g_strdup (RW_INSTALL_CLI);
  return g_find_program_in_path ("roomwave-cli");
}

char *
rw_device_label (const RwBackendOps *ops, int i)
{
  RwDeviceInfo info = { 0 };
  RwError err = { 0 };
  if (ops->device_info (i, &info, &err))
    return g_strdup_printf (_("%d: %s, %.1f GiB"), i, info.name, info.memory_bytes / 1073741824.0);
  return g_strdup_printf ("%d: %s", i, err.message);
}

RwMpiDevices *
rw_mpi_devices_probe (void)
{
  RwMpiDevices *d = g_new0 (RwMpiDevices, 1);
  const char *fake = g_getenv ("ROOMWAVE_TEST_MPI_CPU");
  g_autofree char *backend_why = NULL;

  if (fake != NULL && *fake != '\0')
    {
      d->cpu_test = TRUE;
      d->n_devices = CLAMP (atoi (fake), 0, RW_MPI_MAX_RANKS);
      d->labels = g_new0 (char *, d->n_devices + 1);
      for (int i = 0; i < d->n_devices; i++)
        d->labels[i] = g_strdup_printf (_("%d: CPU rank (test)"), i);
    }
  else
    {
      RwError err = { 0 };
      const RwBackendOps *ops = rw_backend_choose (RW_BACKEND_CUDA, RW_PRECISION_F32, &err);
      d->n_devices = ops != NULL ? MIN (ops->device_count (), RW_MPI_MAX_RANKS) : 0;
      if (ops == NULL)
        backend_why = g_strdup (err.message);
      d->labels = g_new0 (char *, d->n_devices + 1);
      for (int i = 0; i < d->n_devices; i++)
        d->labels[i] = rw_device_label (ops, i);
    }
  d->mpirun = g_find_program_in_path ("mpirun");
  d->cli = find_cli ();
  if (g_str_equal (rw_comm_library (), "none"))
    d->why_unavailable = g_strdup (_("Several GPUs need MPI: Roomwave was built without it."));
  else if (d->mpirun == NULL)
    d->why_unavailable = g_strdup (_("Several GPUs need mpirun (Open MPI), which is not installed."));
  else if (d->cli == NULL)
    d->why_unavailable = g_strdup (_("Several GPUs need roomwave-cli, which was not found."));
  else if (d->n_devices < 2 && backend_why != NULL)
    d->why_unavailable = g_strdup_printf (_("Several GPUs need at least two CUDA devices: %s."), backend_why);
  else if (d->n_devices < 2)
    d->why_unavailable = g_strdup_printf (_("Several GPUs need at least two devices; this machine has %d."),
                                          d->n_devices);
  return d;
}

void
rw_mpi_devices_free (RwMpiDevices *d)
{
  if (d == NULL)
    return;
  g_strfreev (d->labels);
  g_free (d->mpirun);
  g_free (d->cli);
  g_free (d->why_unavailable);
  g_free (d);
}

/* ---- the materials map -------------------------------------------------- */

/* {key: value} with the library material's scattering beside it, when it
 * has its own. */
static json_object *
json_surface (const char *key, json_object *value, const RwMaterial *mat)
{
  json_object *o = json_object_new_object ();
  json_object_object_add (o, key, value);
  if (mat != NULL && !mat->scattering_default)
    json_object_object_add (o, "scattering", rw_json_numbers (mat->scattering, RW_N_OCTAVES));
  return o;
}

char *
rw_mpi_materials_json (const RwMpiSurface *surfaces, size_t n, const RwMaterialLibrary *lib)
{
  /* the engine's JSON writer (rw-json.h): an object's keys in the order
   * added, the surfaces' names unique (rw-import.c merges the same name) */
  json_object *root = json_object_new_object ();
  for (size_t i = 0; i < n; i++)
    {
      const RwMpiSurface *sf = &surfaces[i];
      const RwMaterial *mat = lib != NULL && sf->material != NULL ? rw_materials_find (lib, sf->material) : NULL;
      json_object *v;
      /* the cases of rw_project_fit_alpha, in its order */
      if (rw_project_surface_is_R (sf->alpha, sf->R))
        v = json_surface ("R", rw_json_number (sf->R), mat);
      else if (mat != NULL && memcmp (mat->alpha, sf->alpha, sizeof mat->alpha) == 0)
        v = json_object_new_string (mat->name);
      else
        v = json_surface ("alpha", rw_json_numbers (sf->alpha, RW_N_OCTAVES), mat);
      json_object_object_add (root, sf->name, v);
    }
  char *text = rw_json_take_string (root);
  char *out = g_strconcat (text != NULL ? text : "{}", "\n", NULL);
  free (text);
  return out;
}

/* ---- the command line --------------------------------------------------- */

static void
add (GPtrArray *a, const char *s)
{
  g_ptr_array_add (a, g_strdup (s));
}

static void
add_number (GPtrArray *a, const char *option, double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  add (a, option);
  add (a, g_ascii_formatd (buf, sizeof buf, "%.17g", v));
}

static void
add_uint (GPtrArray *a, const char *option, guint64 v)
{
  add (a, option);
  g_ptr_array_add (a, g_strdup_printf ("%" G_GUINT64_FORMAT, v));
}

char **
rw_mpi_build_argv (const RwSimConfig *cfg, const RwMpiLaunch *launch)
{
  GPtrArray *a = g_ptr_array_new ();
  char buf[512];
  gboolean binaural = FALSE;

  add (a, launch->mpirun);
  add_uint (a, "-np", (guint64) launch->n_ranks);
  add (a, launch->cli);
  add (a, "simulate");
  add (a, "--mesh");
  add (a, cfg->mesh_path);
  add_number (a, "--scale", cfg->scale);
  {
    char x[3][G_ASCII_DTOSTR_BUF_SIZE];
    for (int k = 0; k < 3; k++)
      g_ascii_formatd (x[k], sizeof x[k], "%.17g", cfg->source[k]);
    g_snprintf (buf, sizeof buf, "%s,%s,%s", x[0], x[1], x[2]);
  }
  add (a, "--source");
  add (a, buf);
  for (size_t r = 0; r < cfg->n_receivers; r++)
    {
      /* the engine's own writer of what rw_receiver_parse reads */
      rw_receiver_format (cfg->receivers[r], &cfg->receiver_specs[r], buf, sizeof buf);
      add (a, "--receiver");
      add (a, buf);
      binaural |= cfg->receiver_specs[r].type == RW_RECEIVER_BINAURAL;
    }
  /* simulate refuses --hrtf without a binaural receiver */
  if (binaural && cfg->hrtf_path != NULL)
    {
      add (a, "--hrtf");
      add (a, cfg->hrtf_path);
    }
  if (launch->materials_map != NULL)
    {
      add (a, "--materials");
      add (a, launch->materials_map);
    }
  add_number (a, "--fmax", cfg->fmax_hz);
  add_number (a, "--duration", cfg->duration_s);
  if (cfg->ppw > 0)
    add_number (a, "--ppw", cfg->ppw);
  add (a, "--scheme");
  add (a, rw_scheme_name (cfg->scheme));
  add (a, "--boundary");
  add (a, rw_boundary_name (cfg->boundary));
  /* the devices listed are CUDA's; the test override's ranks the CPU */
  add (a, "--backend");
  add (a, launch->cpu_backend ? "cpu" : "cuda");
  add (a, "--precision");
  add (a, rw_precision_name (cfg->precision));
  add_number (a, "--temperature", cfg->temperature_c);
  add_number (a, "--humidity", cfg->humidity_pct);
  if (!cfg->air_absorption)
    add (a, "--no-air-absorption");
  if (!cfg->hybrid)
    add (a, "--no-hybrid");
  else
    {
      if (cfg->crossover_hz > 0)
        add_number (a, "--crossover", cfg->crossover_hz);
      add_uint (a, "--rays", cfg->n_rays);
      add_uint (a, "--ism-order", (guint64) cfg->ism_order);
      add_uint (a, "--seed", cfg->seed);
    }
  if (cfg->threads > 0)
    add_uint (a, "--threads", (guint64) cfg->threads);
  add (a, "--out");
  add (a, launch->out_dir);
  add (a, "--progress-json");
  g_ptr_array_add (a, NULL);
  return (char **) g_ptr_array_free (a, FALSE);
}

/* ---- progress lines ----------------------------------------------------- */

static gboolean
get_double (struct json_object *o, const char *key, double *v)
{
  struct json_object *x;
  if (!json_object_object_get_ex (o, key, &x)
      || !(json_object_is_type (x, json_type_double) || json_object_is_type (x, json_type_int)))
    return FALSE;
  *v = json_object_get_double (x);
  return isfinite (*v);
}

gboolean
rw_mpi_parse_progress (const char *line, RwMpiProgress *out)
{
  struct json_object *root, *part, *ranks;
  double step, n_steps;
  gboolean ok;

  if (line == NULL || line[0] != '{')
    return FALSE;
  root = json_tokener_parse (line);
  if (root == NULL)
    return FALSE;
  memset (out, 0, sizeof *out);
  ok = json_object_is_type (root, json_type_object)
       && get_double (root, "fraction", &out->fraction)
       && get_double (root, "seconds_left", &out->seconds_left)
       && get_double (root, "step", &step) && step >= 0
       && get_double (root, "n_steps", &n_steps) && n_steps >= 0
       && json_object_object_get_ex (root, "part", &part) && json_object_is_type (part, json_type_string)
       && json_object_object_get_ex (root, "ranks", &ranks) && json_object_is_type (ranks, json_type_array)
       && json_object_array_length (ranks) >= 1 && json_object_array_length (ranks) <= RW_MPI_MAX_RANKS;
  if (ok)
    {
      out->step = (guint64) step;
      out->n_steps = (guint64) n_steps;
      out->fraction = CLAMP (out->fraction, 0.0, 1.0);
      if (g_str_equal (json_object_get_string (part), "wave"))
        out->part = RW_PROGRESS_WAVE;
      else if (g_str_equal (json_object_get_string (part), "geometrical"))
        out->part = RW_PROGRESS_GEOMETRICAL;
      else
        ok = FALSE;
      out->n_ranks = (int) json_object_array_length (ranks);
      for (int i = 0; ok && i < out->n_ranks; i++)
        {
          struct json_object *r = json_object_array_get_idx (ranks, (size_t) i);
          double rank = -1, v = 0;
          /* ranks in order: entry i is rank i */
          ok = json_object_is_type (r, json_type_object) && get_double (r, "rank", &rank) && rank == i
               && get_double (r, "mvox_per_s", &v) && v >= 0;
          out->rank_mvox_per_s[i] = v;
        }
    }
  json_object_put (root);
  return ok;
}
