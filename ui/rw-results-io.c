/* rw-results-io.c — see rw-results-io.h. */
#include "rw-results-io.h"
#include "rw-json.h"

#include <glib/gi18n-lib.h>
#include <json-c/json.h>
#include <math.h>
#include <string.h>

#include "rw-audio.h"

#define RESULTS_FORMAT "roomwave-results"
#define RESULTS_VERSION 1

gboolean
rw_sim_output_save (const RwSimOutput *out, const char *dir, GError **error)
{
  RwError err = { 0 };

  g_return_val_if_fail (out != NULL && dir != NULL, FALSE);
  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno), _("%s: cannot create the results folder: %s"),
                   dir, g_strerror (errno));
      return FALSE;
    }
  for (guint r = 0; r < out->n_receivers; r++)
    {
      g_autofree char *name = g_strdup_printf ("receiver-%u.wav", r + 1);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      RwAudio a = { out->ir[r], out->ir_frames, 1, out->fs_out_hz };
      if (!rw_audio_write (path, &a, &err))
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, err.message);
          return FALSE;
        }
    }

  json_object *root = json_object_new_object ();
  json_object *rcv = json_object_new_array ();
  json_object_object_add (root, "format", json_object_new_string (RESULTS_FORMAT));
  json_object_object_add (root, "version", json_object_new_int (RESULTS_VERSION));
  json_object_object_add (root, "fmax_hz", json_object_new_double (out->fmax_hz));
  json_object_object_add (root, "fs_grid_hz", json_object_new_double (out->fs_grid_hz));
  json_object_object_add (root, "fs_out_hz", json_object_new_double (out->fs_out_hz));
  json_object_object_add (root, "spacing_m", json_object_new_double (out->spacing_m));
  json_object_object_add (root, "c_m_per_s", json_object_new_double (out->c));
  json_object_object_add (root, "nx", json_object_new_int64 ((int64_t) out->nx));
  json_object_object_add (root, "ny", json_object_new_int64 ((int64_t) out->ny));
  json_object_object_add (root, "nz", json_object_new_int64 ((int64_t) out->nz));
  json_object_object_add (root, "n_inside", json_object_new_int64 ((int64_t) out->n_inside));
  json_object_object_add (root, "n_steps", json_object_new_int64 ((int64_t) out->n_steps));
  json_object_object_add (root, "backend", json_object_new_string (out->backend));
  json_object_object_add (root, "device", json_object_new_string (out->device));
  json_object_object_add (root, "mvox_per_s", json_object_new_double (out->mvox_per_s));
  json_object_object_add (root, "t_voxelise_s", json_object_new_double (out->t_voxelise_s));
  json_object_object_add (root, "t_solve_s", json_object_new_double (out->t_solve_s));
  json_object_object_add (root, "source", rw_json_vec3 (out->source));
  for (guint r = 0; r < out->n_receivers; r++)
    json_object_array_add (rcv, rw_json_vec3 (out->receivers[r]));
  json_object_object_add (root, "receivers", rcv);

  const char *text = json_object_to_json_string_ext (root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED);
  g_autofree char *path = g_build_filename (dir, "results.json", NULL);
  gboolean ok = g_file_set_contents (path, text, -1, error);   /* write-then-rename */
  json_object_put (root);
  return ok;
}

static gboolean
number (json_object *o, const char *key, double lo, double hi, double *out)
{
  json_object *v;
  if (!json_object_object_get_ex (o, key, &v)
      || !(json_object_is_type (v, json_type_double) || json_object_is_type (v, json_type_int)))
    return FALSE;
  *out = json_object_get_double (v);
  return isfinite (*out) && *out >= lo && *out <= hi;
}

static gboolean
point (json_object *v, double p[3])
{
  if (v == NULL || !json_object_is_type (v, json_type_array) || json_object_array_length (v) != 3)
    return FALSE;
  for (int k = 0; k < 3; k++)
    {
      p[k] = json_object_get_double (json_object_array_get_idx (v, k));
      if (!isfinite (p[k]))
        return FALSE;
    }
  return TRUE;
}

RwSimOutput *
rw_sim_output_load (const char *dir, GError **error)
{
  g_autofree char *path = g_build_filename (dir, "results.json", NULL);
  g_autoptr (RwSimOutput) out = g_new0 (RwSimOutput, 1);
  json_object *root = json_object_from_file (path), *v;
  double nx, ny, nz, inside, steps, version;
  RwError err = { 0 };

  if (root == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("%s: missing or not valid JSON"), path);
      return NULL;
    }
  json_object *jr = NULL;
  gboolean ok = json_object_is_type (root, json_type_object)
                && json_object_object_get_ex (root, "format", &v)
                && g_strcmp0 (json_object_get_string (v), RESULTS_FORMAT) == 0
                && number (root, "version", 1, RESULTS_VERSION, &version)
                && number (root, "fmax_hz", 1, 1e6, &out->fmax_hz)
                && number (root, "fs_grid_hz", 1, 1e9, &out->fs_grid_hz)
                && number (root, "fs_out_hz", 1000, 768000, &out->fs_out_hz)
                && number (root, "spacing_m", 1e-6, 1e3, &out->spacing_m)
                && number (root, "c_m_per_s", 1, 1e4, &out->c)
                && number (root, "nx", 1, 1e7, &nx) && number (root, "ny", 1, 1e7, &ny)
                && number (root, "nz", 1, 1e7, &nz) && number (root, "n_inside", 0, 1e15, &inside)
                && number (root, "n_steps", 1, 1e12, &steps)
                && number (root, "mvox_per_s", 0, 1e9, &out->mvox_per_s)
                && json_object_object_get_ex (root, "source", &v) && point (v, out->source)
                && json_object_object_get_ex (root, "receivers", &jr)
                && json_object_is_type (jr, json_type_array)
                && json_object_array_length (jr) >= 1
                && json_object_array_length (jr) <= RW_PROJECT_MAX_RECEIVERS;
  if (ok)
    {
      out->nx = (size_t) nx;
      out->ny = (size_t) ny;
      out->nz = (size_t) nz;
      out->n_inside = (size_t) inside;
      out->n_steps = (size_t) steps;
      number (root, "t_voxelise_s", 0, 1e9, &out->t_voxelise_s);
      number (root, "t_solve_s", 0, 1e9, &out->t_solve_s);
      if (json_object_object_get_ex (root, "backend", &v))
        g_strlcpy (out->backend, json_object_get_string (v), sizeof out->backend);
      if (json_object_object_get_ex (root, "device", &v))
        g_strlcpy (out->device, json_object_get_string (v), sizeof out->device);
      out->n_receivers = (guint) json_object_array_length (jr);
      for (guint r = 0; ok && r < out->n_receivers; r++)
        ok = point (json_object_array_get_idx (jr, r), out->receivers[r]);
    }
  json_object_put (root);
  if (!ok)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("%s: not a Roomwave results file, or a value is missing or out of range"),
                   path);
      return NULL;
    }

  out->ir = g_new0 (float *, out->n_receivers);
  out->analysis = g_new0 (RwAnalysis, out->n_receivers);
  out->analysis_ok = g_new0 (gboolean, out->n_receivers);
  out->analysis_error = g_new0 (char *, out->n_receivers);
  for (guint r = 0; r < out->n_receivers; r++)
    {
      g_autofree char *name = g_strdup_printf ("receiver-%u.wav", r + 1);
      g_autofree char *wav = g_build_filename (dir, name, NULL);
      RwAudio a = { 0 };
      if (!rw_audio_read_channel (wav, -1, &a, &err))
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, err.message);
          return NULL;
        }
      if (a.rate_hz != out->fs_out_hz || (r > 0 && a.frames != out->ir_frames))
        {
          rw_audio_clear (&a);
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                       _("%s: its rate or length does not match the other results"), wav);
          return NULL;
        }
      out->ir[r] = g_memdup2 (a.data, a.frames * sizeof (float));
      out->ir_frames = a.frames;
      rw_audio_clear (&a);
      out->analysis_ok[r] = rw_analyse (out->ir[r], out->ir_frames, out->fs_out_hz, out->fmax_hz,
                                        &out->analysis[r], &err);
      if (!out->analysis_ok[r])
        out->analysis_error[r] = g_strdup (err.message);
    }
  return g_steal_pointer (&out);
}
