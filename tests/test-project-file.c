/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-project-file.c — the .roomwave loader and saver (ui/rw-project.c)
 * on crafted files, without a display:
 *   - settings a run refuses are refused by the loader, with the engine's
 *     message: ppw 2 (rw_sim_check_settings), R = −1 with the FV boundary
 *     (rw_reflection_check); R = −1 with Savioja is accepted;
 *   - the air humidity and the air absorption switch are saved and read
 *     back; a file without them (older) opens with 50 % and on; a
 *     humidity a run refuses (120 %) and a switch that is not a boolean
 *     are refused;
 *   - the full-band settings (hybrid, crossover, rays, image-source
 *     order, seed; issue #12) are saved, read back and reach the run's
 *     RwSimConfig; a file without them (older) opens with the engine's
 *     defaults (rw_sim_config_init), also into a project that had others;
 *     a crossover a run refuses (above fmax / 1.293; with the switch off
 *     too), a crossover that is no number, 0 rays, an image-source order
 *     of 11 and a fractional ray count are refused naming the setting;
 *   - a surface's model is fitted over all eight octave bands for a
 *     hybrid run and over the bands up to fmax and one beyond without it,
 *     and takes its library material's scattering (its row's own, or a
 *     library scattering_default that is not the engine's 0.10), a custom
 *     surface the engine's flagged default;
 *   - a relative mesh path is resolved against the project's folder, not
 *     the working folder;
 *   - paths that leave the project's folder (../, absolute) are reported by
 *     rw_project_file_outside_paths, paths inside are not;
 *   - the first save of a new project is atomic: when the write fails
 *     (a file size limit), no half-written project is left behind;
 *   - receiver types (issue #13): each receiver's type, ambisonic order,
 *     yaw and pitch, set through its slot's properties and
 *     rw_project_set_receiver_spec, and the project's HRTF file are saved,
 *     read back and reach the run's RwSimConfig (rw_sim_job_get_config);
 *     removing a receiver moves the specs after it down; a file without
 *     them (older) opens every receiver as omnidirectional; an unknown
 *     type, an order of 4, a yaw of 400°, a pitch that is no number, an
 *     omnidirectional receiver with a yaw, a list of the wrong length, a
 *     missing HRTF file and one that is not SOFA are refused naming the
 *     project file and the value; an HRTF file outside the project's
 *     folder is reported by rw_project_file_outside_paths;
 *   - the scheme (issue #14): see check_scheme.
 */
#include <errno.h>
#include <signal.h>
#include <math.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "rw-ism.h"
#include "rw-materials.h"
#include "rw-project.h"
#include "rw-rays.h"
#include "rw-shapes.h"
#include "rw-sim-job.h"
#include "rw-test.h"
#include "rw-voxel.h"

static char *
write_box (const char *dir, const char *name)
{
  RwMesh *m = rw_shape_box (3.0, 2.5, 2.2);
  RwError err = { 0 };
  char *path = g_build_filename (dir, name, NULL);
  RW_CHECK (rw_mesh_export (m, path, "obj", &err), "export %s: %s", path, err.message);
  rw_mesh_free (m);
  return path;
}

/* `text` with the first match of `pattern` replaced by `with`. */
static char *
replace (const char *text, const char *pattern, const char *with)
{
  GRegex *re = g_regex_new (pattern, 0, 0, NULL);
  char *out = g_regex_replace (re, text, -1, 0, with, G_REGEX_MATCH_NOTEMPTY, NULL);
  RW_CHECK (g_strcmp0 (out, text) != 0, "pattern %s found", pattern);
  g_regex_unref (re);
  return out;
}

static GFile *
write_project (const char *dir, const char *name, const char *text)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  RW_CHECK (g_file_set_contents (path, text, -1, NULL), "write %s", path);
  return g_file_new_for_path (path);
}

static void
check_refused (const char *dir, const char *name, const char *text, const char *expect)
{
  g_autoptr (GFile) f = write_project (dir, name, text);
  g_autoptr (RwProject) p = rw_project_new ();
  g_autoptr (GError) e = NULL;

  RW_CHECK (!rw_project_load (p, f, &e), "%s refused", name);
  RW_CHECK (e != NULL && strstr (e->message, name) && strstr (e->message, expect),
            "%s: the message names the file and says “%s”: %s", name, expect, e ? e->message : "");
  RW_CHECK (rw_project_get_mesh (p) == NULL, "%s: nothing loaded", name);
  RW_NOTE ("%s: %s", name, e ? e->message : "(none)");
}

static void check_outside (GFile *f, const char *expect_path, const char *what);

static void
count_notify (GObject *object, GParamSpec *pspec, guint *count)
{
  (void) object;
  (void) pspec;
  (*count)++;
}

/* An asynchronous call's result, kept for wait_result. */
static void
keep_result (GObject *source, GAsyncResult *result, gpointer data)
{
  (void) source;
  *(GAsyncResult **) data = g_object_ref (result);
}

/* Runs the main loop until keep_result has a result (at most a minute). */
static GAsyncResult *
wait_result (GAsyncResult **slot)
{
  gint64 end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (*slot == NULL && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  RW_CHECK (*slot != NULL, "the asynchronous call reported within a minute");
  if (*slot == NULL)
    exit (1);
  return *slot;
}

static gboolean
same_spec (const RwReceiverSpec *a, const RwReceiverSpec *b)
{
  return a->type == b->type && a->order == b->order && a->yaw_deg == b->yaw_deg && a->pitch_deg == b->pitch_deg;
}

/* Receiver types and orientations, and the HRTF file (issue #13). */
static void
check_receiver_specs (const char *proj_dir, const char *other_dir, const char *box)
{
  g_autoptr (RwProject) p = rw_project_new ();
  g_autoptr (GError) e = NULL;
  RW_CHECK (rw_project_load_mesh (p, box, &e), "import: %s", e ? e->message : "");
  RW_CHECK (rw_project_add_receiver (p) == 1 && rw_project_add_receiver (p) == 2 && rw_project_add_receiver (p) == 3,
            "four receivers");
  RwReceiverSpec spec;
  rw_project_get_receiver_spec (p, 3, &spec);
  RW_CHECK (spec.type == RW_RECEIVER_OMNI && spec.yaw_deg == 0, "a new receiver is omnidirectional");

  /* Through the slot's properties, as the window's bound fields set them. */
  guint notified = 0;
  g_signal_connect (p, "notify::receiver-specs", G_CALLBACK (count_notify), &notified);
  rw_project_set_dirty (p, FALSE);
  g_object_set (rw_project_get_receiver_slot (p, 1), "type", (guint) RW_RECEIVER_BINAURAL, "yaw-deg", 90.0,
                "pitch-deg", 10.0, NULL);
  RW_CHECK (notified > 0 && rw_project_get_dirty (p), "a slot edit notifies receiver-specs (%u) and dirties", notified);
  rw_project_get_receiver_spec (p, 1, &spec);
  RW_CHECK (spec.type == RW_RECEIVER_BINAURAL && spec.order == 0 && spec.yaw_deg == 90 && spec.pitch_deg == 10,
            "receiver 2 binaural at yaw 90°, pitch 10° (%d, %d, %g, %g)", spec.type, spec.order, spec.yaw_deg,
            spec.pitch_deg);
  const RwReceiverSpec ambi = { RW_RECEIVER_AMBISONIC, 2, -45.5, 0 };
  RW_CHECK (rw_project_set_receiver_spec (p, 2, &ambi, &e), "receiver 3 ambisonic: %s", e ? e->message : "");
  const RwReceiverSpec last = { RW_RECEIVER_BINAURAL, 0, 180, -30 };
  RW_CHECK (rw_project_set_receiver_spec (p, 3, &last, &e), "receiver 4 binaural: %s", e ? e->message : "");
  /* the engine's check: an order of 4, an omni with a yaw */
  {
    const RwReceiverSpec order4 = { RW_RECEIVER_AMBISONIC, 4, 0, 0 }, omni_yaw = { RW_RECEIVER_OMNI, 0, 30, 0 };
    g_autoptr (GError) e1 = NULL, e2 = NULL;
    RW_CHECK (!rw_project_set_receiver_spec (p, 0, &order4, &e1) && e1 && e1->code == RW_PROJECT_ERROR_RECEIVER
              && strstr (e1->message, "receiver 1") && strstr (e1->message, "4"),
              "order 4 refused: %s", e1 ? e1->message : "");
    RW_CHECK (!rw_project_set_receiver_spec (p, 0, &omni_yaw, &e2) && e2 && strstr (e2->message, "orientation"),
              "an omni with a yaw refused: %s", e2 ? e2->message : "");
    rw_project_get_receiver_spec (p, 0, &spec);
    RW_CHECK (spec.type == RW_RECEIVER_OMNI && spec.yaw_deg == 0, "receiver 1 unchanged");
  }
  /* An omni slot keeps its orientation for later but gives none. */
  g_object_set (rw_project_get_receiver_slot (p, 0), "yaw-deg", 33.0, NULL);
  rw_project_get_receiver_spec (p, 0, &spec);
  RW_CHECK (spec.type == RW_RECEIVER_OMNI && spec.yaw_deg == 0, "an omni receiver has no orientation in its spec");
  gboolean oriented = TRUE, is_ambi = FALSE;
  g_object_get (rw_project_get_receiver_slot (p, 0), "oriented", &oriented, NULL);
  g_object_get (rw_project_get_receiver_slot (p, 2), "ambisonic", &is_ambi, NULL);
  RW_CHECK (!oriented && is_ambi, "“oriented” false for omni, “ambisonic” true for receiver 3");

  /* The HRTF: a copy of the bundled set inside the project's folder. */
  g_autofree char *kemar = rw_data_path ("hrtf/MIT_KEMAR_normal_pinna.sofa");
  g_autofree char *sofa_bytes = NULL;
  gsize sofa_len = 0;
  RW_CHECK (kemar != NULL && g_file_get_contents (kemar, &sofa_bytes, &sofa_len, NULL), "read the bundled set");
  g_autofree char *hrtf_dir = g_build_filename (proj_dir, "hrtf", NULL);
  g_autofree char *own = g_build_filename (hrtf_dir, "mine.sofa", NULL);
  g_mkdir_with_parents (hrtf_dir, 0755);
  RW_CHECK (g_file_set_contents (own, sofa_bytes, (gssize) sofa_len, NULL), "write %s", own);
  g_autofree char *not_sofa = g_build_filename (proj_dir, "not.sofa", NULL);
  RW_CHECK (g_file_set_contents (not_sofa, "plain text, not HDF5", -1, NULL), "write %s", not_sofa);
  {
    g_autoptr (GError) he = NULL;
    RW_CHECK (!rw_project_set_hrtf_path (p, not_sofa, &he) && he && he->code == RW_PROJECT_ERROR_HRTF
              && strstr (he->message, "not.sofa"), "a file that is not SOFA is refused naming it: %s",
              he ? he->message : "");
    RW_CHECK (rw_project_get_hrtf_path (p) == NULL, "the bundled set is kept");
  }
  /* The window's way (rw_project_set_hrtf_path_async): the set is read in
   * a worker, so the call returns with nothing set yet; the main loop runs
   * until the check reports. */
  {
    guint notified = 0;
    gulong id = g_signal_connect (p, "notify::hrtf-path", G_CALLBACK (count_notify), &notified);
    g_autoptr (GError) he = NULL;
    g_autoptr (GAsyncResult) r = NULL;

    rw_project_set_hrtf_path_async (p, not_sofa, NULL, keep_result, &r);
    RW_CHECK (!rw_project_set_hrtf_path_finish (p, wait_result (&r), &he) && he
              && he->code == RW_PROJECT_ERROR_HRTF && strstr (he->message, "not.sofa"),
              "async: a file that is not SOFA is refused naming it: %s", he ? he->message : "");
    RW_CHECK (rw_project_get_hrtf_path (p) == NULL && notified == 0, "async: the bundled set is kept");
    g_clear_object (&r);
    g_clear_error (&he);

    g_autoptr (GCancellable) c = g_cancellable_new ();
    rw_project_set_hrtf_path_async (p, own, c, keep_result, &r);
    g_cancellable_cancel (c);
    RW_CHECK (!rw_project_set_hrtf_path_finish (p, wait_result (&r), &he)
              && g_error_matches (he, G_IO_ERROR, G_IO_ERROR_CANCELLED), "async: cancelled: %s",
              he ? he->message : "no error");
    RW_CHECK (rw_project_get_hrtf_path (p) == NULL && notified == 0, "async: a cancelled check sets nothing");
    g_clear_object (&r);
    g_clear_error (&he);

    rw_project_set_hrtf_path_async (p, own, NULL, keep_result, &r);
    RW_CHECK (r == NULL && rw_project_get_hrtf_path (p) == NULL && notified == 0,
              "async: the call returns before the set is read");
    RW_CHECK (rw_project_set_hrtf_path_finish (p, wait_result (&r), &he), "async: set the HRTF: %s",
              he ? he->message : "");
    RW_CHECK (g_strcmp0 (rw_project_get_hrtf_path (p), own) == 0 && notified == 1, "async: hrtf-path %s, %u notifications",
              rw_project_get_hrtf_path (p), notified);
    g_signal_handler_disconnect (p, id);
    RW_CHECK (rw_project_set_hrtf_path (p, NULL, NULL) && rw_project_get_hrtf_path (p) == NULL,
              "back to the bundled set");
  }
  RW_CHECK (rw_project_set_hrtf_path (p, own, &e), "set the HRTF: %s", e ? e->message : "");
  RW_CHECK (g_strcmp0 (rw_project_get_hrtf_path (p), own) == 0, "hrtf-path %s", rw_project_get_hrtf_path (p));

  g_autofree char *path = g_build_filename (proj_dir, "spatial.roomwave", NULL);
  g_autoptr (GFile) f = g_file_new_for_path (path);
  RW_CHECK (rw_project_save (p, f, &e), "save: %s", e ? e->message : "");
  g_autofree char *text = NULL;
  RW_CHECK (g_file_get_contents (path, &text, NULL, NULL), "read back");
  RW_CHECK (strstr (text, "\"hrtf\": \"hrtf/mine.sofa\"") != NULL, "the HRTF saved relative to the project");
  RW_CHECK (strstr (text, "\"binaural\"") != NULL && strstr (text, "\"ambisonic\"") != NULL, "the types by name");

  g_autoptr (RwProject) q = rw_project_new ();
  RW_CHECK (rw_project_load (q, f, &e), "reload: %s", e ? e->message : "");
  if (rw_project_get_mesh (q) != NULL)
    {
      const RwReceiverSpec want[4] = { { 0 }, { RW_RECEIVER_BINAURAL, 0, 90, 10 }, ambi, last };
      RW_CHECK (rw_project_get_n_receivers (q) == 4, "four receivers back");
      for (guint i = 0; i < 4; i++)
        {
          rw_project_get_receiver_spec (q, i, &spec);
          RW_CHECK (same_spec (&spec, &want[i]), "receiver %u read back: type %d, order %d, yaw %g, pitch %g", i + 1,
                    spec.type, spec.order, spec.yaw_deg, spec.pitch_deg);
        }
      RW_CHECK (g_strcmp0 (rw_project_get_hrtf_path (q), own) == 0, "HRTF read back: %s",
                rw_project_get_hrtf_path (q));
      /* The run's configuration. */
      g_autoptr (RwSimJob) job = rw_sim_job_new (q);
      RwSimConfig cfg;
      rw_sim_job_get_config (job, &cfg);
      RW_CHECK (cfg.n_receivers == 4, "the run has four receivers");
      for (guint i = 0; i < 4; i++)
        RW_CHECK (same_spec (&cfg.receiver_specs[i], &want[i]), "the run's receiver %u: type %d, yaw %g", i + 1,
                  cfg.receiver_specs[i].type, cfg.receiver_specs[i].yaw_deg);
      RW_CHECK (g_strcmp0 (cfg.hrtf_path, own) == 0, "the run's HRTF: %s", cfg.hrtf_path ? cfg.hrtf_path : "(null)");

      /* Removing receiver 2 moves 3 and 4 down, positions and specs. */
      double r4[3], r4_after[3];
      rw_project_get_receiver (q, 3, r4);
      RW_CHECK (rw_project_remove_receiver (q, 1), "remove receiver 2");
      rw_project_get_receiver (q, 2, r4_after);
      rw_project_get_receiver_spec (q, 1, &spec);
      RW_CHECK (same_spec (&spec, &ambi), "receiver 3's spec is now receiver 2's");
      rw_project_get_receiver_spec (q, 2, &spec);
      RW_CHECK (same_spec (&spec, &last) && memcmp (r4, r4_after, sizeof r4) == 0,
                "receiver 4's spec and position are now receiver 3's");

      /* An older file (no receiver_specs, no hrtf) into this project: all omni, the bundled set. */
      g_autofree char *o1 = replace (text, ",?\\s*\"receiver_specs\":\\s*\\[[^\\]]*\\]", "");
      g_autofree char *older = replace (o1, ",?\\s*\"hrtf\":\\s*\"[^\"]*\"", "");
      g_autoptr (GFile) g = write_project (proj_dir, "before-spatial.roomwave", older);
      RW_CHECK (rw_project_load (q, g, &e), "load before-spatial.roomwave: %s", e ? e->message : "");
      for (guint i = 0; i < rw_project_get_n_receivers (q); i++)
        {
          rw_project_get_receiver_spec (q, i, &spec);
          RW_CHECK (spec.type == RW_RECEIVER_OMNI && spec.yaw_deg == 0 && spec.pitch_deg == 0,
                    "an older file: receiver %u omnidirectional", i + 1);
        }
      RW_CHECK (rw_project_get_hrtf_path (q) == NULL, "an older file: the bundled HRTF");
    }

  /* Refused, naming the project file and the value. */
  struct { const char *name, *pattern, *with, *expect; } bad[] = {
    { "type-cardioid.roomwave", "\"binaural\"", "\"cardioid\"", "cardioid" },
    { "order-4.roomwave", "\"order\":\\s*2", "\"order\": 4", "order 4" },
    { "order-fraction.roomwave", "\"order\":\\s*2", "\"order\": 2.5", "order" },
    { "yaw-400.roomwave", "\"yaw_deg\":\\s*90[0-9.]*", "\"yaw_deg\": 400", "400" },
    { "pitch-text.roomwave", "\"pitch_deg\":\\s*10[0-9.]*", "\"pitch_deg\": \"up\"", "pitch_deg" },
    { "omni-yaw.roomwave", "\\{\\s*\"type\":\\s*\"omni\"\\s*\\}", "{ \"type\": \"omni\", \"yaw_deg\": 30 }",
      "orientation" },
    { "specs-short.roomwave", "\\{\\s*\"type\":\\s*\"omni\"\\s*\\},", "", "one entry per receiver" },
    { "hrtf-missing.roomwave", "hrtf/mine.sofa", "hrtf/none.sofa", "none.sofa" },
    { "hrtf-not-sofa.roomwave", "hrtf/mine.sofa", "not.sofa", "not.sofa" },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *t = replace (text, bad[i].pattern, bad[i].with);
      check_refused (proj_dir, bad[i].name, t, bad[i].expect);
    }
  /* An HRTF outside the project's folder is shown before opening. */
  {
    g_autofree char *far = g_build_filename (other_dir, "far.sofa", NULL);
    g_autofree char *with = g_strdup_printf ("\"hrtf\": \"%s\"", far);
    g_autofree char *t = replace (text, "\"hrtf\":\\s*\"[^\"]*\"", with);
    g_autoptr (GFile) of = write_project (proj_dir, "hrtf-outside.roomwave", t);
    check_outside (of, far, "an HRTF file outside");
  }
}

static void
check_outside (GFile *f, const char *expect_path, const char *what)
{
  g_autoptr (GError) e = NULL;
  g_auto (GStrv) out = rw_project_file_outside_paths (f, &e);

  RW_CHECK (out != NULL, "%s: outside paths: %s", what, e ? e->message : "");
  if (out == NULL)
    return;
  if (expect_path == NULL)
    RW_CHECK (out[0] == NULL, "%s: no path outside (first: %s)", what, out[0] ? out[0] : "");
  else
    RW_CHECK (out[0] != NULL && g_str_equal (out[0], expect_path) && out[1] == NULL,
              "%s: reports %s (got %s)", what, expect_path, out[0] ? out[0] : "nothing");
}

/* The scheme (issue #14): a new project is AUTO at the scheme's default
 * ppw (0); the scheme is saved, read back and reaches the run's config; a
 * file without it (older) opens as the 7-point scheme, also into a
 * project that had FCC; an unknown scheme is refused naming the file and
 * the value; the estimate follows the scheme the run resolves to, checked
 * against the physics (h = c/(fmax·ppw); fs = c/(λh) with λ = 1/√3 or 1,
 * so fs = √3·fmax·7.75 and fmax·5.75 at the defaults, whatever c) and
 * against the voxeliser's own grids on both lattices; the FCC scheme with
 * an LRS boundary is refused as the engine refuses it, and with a
 * binaural receiver runs (the engine takes it too). */
static void
check_scheme (const char *proj_dir, const char *box, const char *text)
{
  g_autoptr (RwProject) p = rw_project_new ();
  g_autoptr (GError) e = NULL;
  guint scheme = 99;
  double ppw = -1;

  g_object_get (p, "scheme", &scheme, "ppw", &ppw, NULL);
  RW_CHECK (scheme == RW_SCHEME_AUTO && ppw == 0, "a new project: scheme %u (AUTO), ppw %g (the scheme's)", scheme, ppw);
  RW_CHECK (strstr (text, "\"scheme\": \"auto\"") != NULL, "a new project saves \"scheme\": \"auto\"");
  RW_CHECK (rw_project_load_mesh (p, box, &e), "import: %s", e ? e->message : "");

  /* Round trip, into the run's config. */
  guint notified = 0;
  g_signal_connect (p, "notify::scheme", G_CALLBACK (count_notify), &notified);
  rw_project_set_dirty (p, FALSE);
  g_object_set (p, "scheme", (guint) RW_SCHEME_FCC, "fmax-hz", 500.0, NULL);
  RW_CHECK (notified == 1 && rw_project_get_dirty (p), "setting the scheme notifies (%u) and dirties", notified);
  g_autofree char *path = g_build_filename (proj_dir, "fcc.roomwave", NULL);
  g_autoptr (GFile) f = g_file_new_for_path (path);
  RW_CHECK (rw_project_save (p, f, &e), "save: %s", e ? e->message : "");
  g_autofree char *saved = NULL;
  RW_CHECK (g_file_get_contents (path, &saved, NULL, NULL) && strstr (saved, "\"scheme\": \"fcc\"") != NULL,
            "saved as \"scheme\": \"fcc\"");
  g_autoptr (RwProject) q = rw_project_new ();
  RW_CHECK (rw_project_load (q, f, &e), "load fcc.roomwave: %s", e ? e->message : "");
  g_object_get (q, "scheme", &scheme, "ppw", &ppw, NULL);
  RW_CHECK (scheme == RW_SCHEME_FCC && ppw == 0, "read back: scheme %u, ppw %g", scheme, ppw);
  RwSimConfig cfg;
  rw_sim_settings_to_config (rw_project_get_settings (q), &cfg);
  RW_CHECK (cfg.scheme == RW_SCHEME_FCC && rw_sim_resolve_scheme (&cfg) == RW_SCHEME_FCC && rw_sim_ppw (&cfg) == 5.75,
            "to the run: scheme %d, ppw %g", (int) cfg.scheme, rw_sim_ppw (&cfg));

  /* AUTO: the FCC scheme wherever it runs (the FV boundary, any
   * receivers), else the 7-point scheme. */
  cfg.scheme = RW_SCHEME_AUTO;
  cfg.boundary = RW_BOUNDARY_FV;
  cfg.n_receivers = 2;
  cfg.receiver_specs[0] = cfg.receiver_specs[1] = (RwReceiverSpec) { 0 };
  RW_CHECK (rw_sim_resolve_scheme (&cfg) == RW_SCHEME_FCC && rw_sim_ppw (&cfg) == 5.75,
            "AUTO with FV and omni receivers: %d", (int) rw_sim_resolve_scheme (&cfg));
  cfg.receiver_specs[1].type = RW_RECEIVER_BINAURAL;
  RW_CHECK (rw_sim_resolve_scheme (&cfg) == RW_SCHEME_FCC && rw_sim_ppw (&cfg) == 5.75,
            "AUTO with a binaural receiver: %d", (int) rw_sim_resolve_scheme (&cfg));
  cfg.receiver_specs[1].type = RW_RECEIVER_OMNI;
  cfg.boundary = RW_BOUNDARY_LRS;
  RW_CHECK (rw_sim_resolve_scheme (&cfg) == RW_SCHEME_CARTESIAN,
            "AUTO with the LRS boundary: %d", (int) rw_sim_resolve_scheme (&cfg));

  /* An older file (no "scheme"): the 7-point scheme it ran, not AUTO. */
  g_autofree char *older = replace (saved, ",?\\s*\"scheme\":\\s*\"fcc\"", "");
  RW_CHECK (strstr (older, "scheme") == NULL, "the older file has no scheme");
  g_autoptr (GFile) g = write_project (proj_dir, "before-scheme.roomwave", older);
  RW_CHECK (rw_project_load (q, g, &e), "load before-scheme.roomwave: %s", e ? e->message : "");
  g_object_get (q, "scheme", &scheme, NULL);
  RW_CHECK (scheme == RW_SCHEME_CARTESIAN, "an older file opens as cartesian (%u), into a project that had fcc", scheme);

  /* Unknown schemes, named. */
  g_autofree char *hex = replace (saved, "\"scheme\":\\s*\"fcc\"", "\"scheme\": \"hexagonal\"");
  check_refused (proj_dir, "scheme-hex.roomwave", hex, "hexagonal");
  g_autofree char *num = replace (saved, "\"scheme\":\\s*\"fcc\"", "\"scheme\": 2");
  check_refused (proj_dir, "scheme-number.roomwave", num, "scheme");

  /* The estimate per scheme at the defaults (ppw 0), fmax 500 Hz. */
  RwRunEstimate ec, ef, ea;
  g_object_set (p, "scheme", (guint) RW_SCHEME_CARTESIAN, NULL);
  rw_project_estimate (p, 100, &ec);
  g_object_set (p, "scheme", (guint) RW_SCHEME_AUTO, NULL);
  rw_project_estimate (p, 100, &ea);
  g_object_set (p, "scheme", (guint) RW_SCHEME_FCC, NULL);
  rw_project_estimate (p, 100, &ef);
  RW_NOTE ("cartesian: h %.4f m, fs %.1f Hz, %zu×%zu×%zu, %.0f inside, %zu steps, %.3f MB",
           ec.spacing_m, ec.fs_grid_hz, ec.nx, ec.ny, ec.nz, ec.n_inside_estimate, ec.n_steps, ec.memory_bytes / 1e6);
  RW_NOTE ("fcc:       h %.4f m, fs %.1f Hz, %zu×%zu×%zu, %.0f inside, %zu steps, %.3f MB",
           ef.spacing_m, ef.fs_grid_hz, ef.nx, ef.ny, ef.nz, ef.n_inside_estimate, ef.n_steps, ef.memory_bytes / 1e6);
  RW_CHECK (ec.scheme == RW_SCHEME_CARTESIAN && ef.scheme == RW_SCHEME_FCC && ec.ppw == 7.75 && ef.ppw == 5.75,
            "resolved: %d at ppw %g, %d at ppw %g", (int) ec.scheme, ec.ppw, (int) ef.scheme, ef.ppw);
  RW_CHECK (ea.scheme == RW_SCHEME_FCC && ea.fs_grid_hz == ef.fs_grid_hz && ea.memory_bytes == ef.memory_bytes,
            "AUTO estimates the FCC scheme it resolves to (FV boundary, omnidirectional receivers)");
  RW_CHECK_CLOSE (ec.fs_grid_hz, sqrt (3.0) * 500 * 7.75, 1e-9 * ec.fs_grid_hz, "7-point: fs = √3·fmax·7.75");
  RW_CHECK_CLOSE (ef.fs_grid_hz, 500 * 5.75, 1e-9 * ef.fs_grid_hz, "FCC: fs = fmax·5.75 (λ = 1)");
  RW_CHECK_CLOSE (ec.fs_grid_hz / ef.fs_grid_hz, sqrt (3.0) * 7.75 / 5.75, 1e-12, "fs ratio √3·7.75/5.75");
  RW_CHECK_CLOSE (ef.spacing_m / ec.spacing_m, 7.75 / 5.75, 1e-12, "spacing ratio 7.75/5.75");
  RW_CHECK (ec.n_steps == (size_t) ceil (ec.fs_grid_hz) && ef.n_steps == (size_t) ceil (ef.fs_grid_hz),
            "steps for 1 s: %zu, %zu", ec.n_steps, ef.n_steps);
  RW_CHECK_CLOSE (ef.n_inside_estimate / ec.n_inside_estimate, pow (5.75 / 7.75, 3) / 2, 1e-12,
                  "nodes: (5.75/7.75)³/2 (a site per 2h³)");

  /* Against the voxeliser: its grid on each lattice, its inside and
   * boundary nodes, and the fields the backends store for it. */
  const RwMesh *mesh = rw_project_get_mesh (p);
  const RwRunEstimate *est[2] = { &ec, &ef };
  for (int l = 0; l < 2; l++)
    {
      const RwRunEstimate *x = est[l];
      RwError err = { 0 };
      RwGrid *grid = l == 0 ? rw_voxelise (mesh, x->spacing_m, 1, &err) : rw_voxelise_fcc (mesh, x->spacing_m, 1, &err);
      RW_CHECK (grid != NULL, "voxelise: %s", err.message);
      if (grid == NULL)
        continue;
      RW_NOTE ("%s grid: %zu×%zu×%zu, %zu inside, %zu boundary; estimate %.0f, %.0f", l ? "fcc" : "cubic",
               grid->nx, grid->ny, grid->nz, grid->n_inside, grid->n_boundary, x->n_inside_estimate,
               x->n_boundary_estimate);
      RW_CHECK (x->nx == grid->nx && x->ny == grid->ny && x->nz == grid->nz, "%s: the voxeliser's grid",
                l ? "fcc" : "cubic");
      RW_CHECK (fabs (x->n_inside_estimate / (double) grid->n_inside - 1) < 0.05, "%s: inside nodes within 5 %%",
                l ? "fcc" : "cubic");
      RW_CHECK (fabs (x->n_boundary_estimate / (double) grid->n_boundary - 1) < 0.15,
                "%s: boundary nodes within 15 %%", l ? "fcc" : "cubic");
      const double cells = (double) grid->nx * grid->ny * grid->nz;
      const double stored = l ? (double) ((grid->nx + 1) / 2) * grid->ny * grid->nz : cells;
      RW_CHECK_CLOSE (x->memory_bytes - x->branch_bytes, 3 * cells + 2 * 4 * stored + 8.0 * grid->nx * grid->ny, 1,
                      "memory: 3 B a cell, two fp32 fields a stored node");
      rw_grid_free (grid);
    }

  /* What the FCC scheme lacks: refused as the engine refuses it. */
  RW_CHECK (rw_project_check_scheme (p, &e), "FCC, FV boundary, omni receivers: runs");
  g_object_set (p, "boundary", (guint) RW_BOUNDARY_LRS, NULL);
  {
    g_autoptr (GError) se = NULL;
    RW_CHECK (!rw_project_check_scheme (p, &se) && se && se->code == RW_PROJECT_ERROR_SCHEME
                && strstr (se->message, "finite-volume"), "FCC with the LRS boundary refused: %s",
              se ? se->message : "");
    g_autoptr (RwSimJob) job = rw_sim_job_new (p);
    RwError ee = { 0 };
    rw_sim_job_get_config (job, &cfg);
    RW_CHECK (!rw_sim_check_settings (&cfg, &ee), "and the engine refuses it");
    /* Saved so, the project opens again, still flagged. */
    g_autofree char *lrs_path = g_build_filename (proj_dir, "fcc-lrs.roomwave", NULL);
    g_autoptr (GFile) lf = g_file_new_for_path (lrs_path);
    g_autoptr (RwProject) r = rw_project_new ();
    RW_CHECK (rw_project_save (p, lf, &e) && rw_project_load (r, lf, &e), "FCC with LRS saved and opened again: %s",
              e ? e->message : "");
    RW_CHECK (rw_project_get_settings (r)->scheme == RW_SCHEME_FCC && !rw_project_check_scheme (r, NULL),
              "opened as saved, and flagged");
    g_object_set (p, "scheme", (guint) RW_SCHEME_CARTESIAN, NULL);
    RW_CHECK (rw_project_check_scheme (p, NULL), "the 7-point scheme has the LRS boundary");
  }
  g_object_set (p, "boundary", (guint) RW_BOUNDARY_FV, "scheme", (guint) RW_SCHEME_FCC, NULL);
  {
    /* spatial receivers run on the FCC scheme (their probes are its
     * sites): not flagged, and the engine takes the job's config */
    RwReceiverSpec bin = { .type = RW_RECEIVER_BINAURAL };
    g_autoptr (GError) se = NULL;
    RW_CHECK (rw_project_set_receiver_spec (p, 0, &bin, &e), "receiver 1 binaural: %s", e ? e->message : "");
    RW_CHECK (rw_project_check_scheme (p, &se), "FCC with a binaural receiver runs: %s", se ? se->message : "");
    g_autoptr (RwSimJob) job = rw_sim_job_new (p);
    RwError ee = { 0 };
    rw_sim_job_get_config (job, &cfg);
    RW_CHECK (rw_sim_check_settings (&cfg, &ee) && rw_sim_resolve_scheme (&cfg) == RW_SCHEME_FCC,
              "and the engine takes it: %s", ee.message);
  }
}

int
main (void)
{
  const char *tmp = rw_test_tmpdir ();
  g_autofree char *proj_dir = g_build_filename (tmp, "proj", NULL);
  g_autofree char *room_dir = g_build_filename (proj_dir, "rooms", NULL);
  g_autofree char *other_dir = g_build_filename (tmp, "elsewhere", NULL);
  g_mkdir_with_parents (room_dir, 0755);
  g_mkdir_with_parents (other_dir, 0755);
  g_autofree char *box = write_box (room_dir, "box.obj");
  g_autofree char *far_box = write_box (other_dir, "far.obj");

  /* A valid project, saved by the saver itself. */
  g_autoptr (RwProject) p = rw_project_new ();
  g_autoptr (GError) error = NULL;
  RW_CHECK (rw_project_load_mesh (p, box, &error), "import: %s", error ? error->message : "");
  g_autofree char *good_path = g_build_filename (proj_dir, "good.roomwave", NULL);
  g_autoptr (GFile) good = g_file_new_for_path (good_path);
  RW_CHECK (rw_project_save (p, good, &error), "save: %s", error ? error->message : "");
  g_autofree char *text = NULL;
  RW_CHECK (g_file_get_contents (good_path, &text, NULL, NULL), "read back");
  RW_CHECK (strstr (text, "\"rooms/box.obj\"") != NULL, "the mesh is saved relative to the project");

  /* Settings: the engine's checks for a run. */
  g_autofree char *ppw2 = replace (text, "\"ppw\":\\s*[0-9.e+-]+", "\"ppw\": 2");
  check_refused (proj_dir, "ppw2.roomwave", ppw2, "Points per wavelength 2");
  g_autofree char *r_minus1 = replace (text, "\"R\":\\s*[0-9.e+-]+", "\"R\": -1");
  check_refused (proj_dir, "r-minus-1.roomwave", r_minus1, "−1");
  g_autofree char *hot = replace (text, "\"temperature_c\":\\s*[0-9.e+-]+", "\"temperature_c\": 75");
  check_refused (proj_dir, "hot.roomwave", hot, "75");
  g_autofree char *wet = replace (text, "\"humidity_pct\":\\s*[0-9.e+-]+", "\"humidity_pct\": 120");
  check_refused (proj_dir, "wet.roomwave", wet, "120");
  g_autofree char *maybe = replace (text, "\"air_absorption\":\\s*true", "\"air_absorption\": \"yes\"");
  check_refused (proj_dir, "maybe.roomwave", maybe, "air absorption");

  /* The air: saved and read back; an older file without it: the defaults. */
  {
    g_object_set (p, "humidity-pct", 35.5, "air-absorption", FALSE, NULL);
    g_autofree char *air_path = g_build_filename (proj_dir, "air.roomwave", NULL);
    g_autoptr (GFile) f = g_file_new_for_path (air_path);
    RW_CHECK (rw_project_save (p, f, &error), "save: %s", error ? error->message : "");
    g_autoptr (RwProject) q = rw_project_new ();
    g_autoptr (GError) e = NULL;
    RW_CHECK (rw_project_load (q, f, &e), "load air.roomwave: %s", e ? e->message : "");
    double humidity = 0;
    gboolean air = TRUE;
    g_object_get (q, "humidity-pct", &humidity, "air-absorption", &air, NULL);
    RW_CHECK (humidity == 35.5 && !air, "read back: %g %%, air absorption %d", humidity, air);
    RwSimConfig cfg;
    rw_sim_settings_to_config (rw_project_get_settings (q), &cfg);
    RW_CHECK (cfg.humidity_pct == 35.5 && !cfg.air_absorption, "to the run: %g %%, %d", cfg.humidity_pct,
              cfg.air_absorption);

    g_autofree char *no_h = replace (text, ",?\\s*\"humidity_pct\":\\s*[0-9.e+-]+", "");
    g_autofree char *older = replace (no_h, ",?\\s*\"air_absorption\":\\s*true", "");
    g_autoptr (GFile) g = write_project (proj_dir, "older.roomwave", older);
    g_autoptr (RwProject) o = rw_project_new ();
    RW_CHECK (rw_project_load (o, g, &e), "load older.roomwave: %s", e ? e->message : "");
    g_object_get (o, "humidity-pct", &humidity, "air-absorption", &air, NULL);
    RW_CHECK (humidity == 50 && air, "an older file: %g %%, air absorption %d", humidity, air);
  }
  /* The full-band settings (issue #12): saved and read back, into the
   * run's config; an older file without them: the engine's defaults. */
  {
    g_object_set (p, "hybrid", FALSE, "crossover-hz", 300.0, "n-rays", 5000u, "ism-order", 5u,
                  "seed", (guint64) 42, NULL);
    g_autofree char *full_path = g_build_filename (proj_dir, "full.roomwave", NULL);
    g_autoptr (GFile) f = g_file_new_for_path (full_path);
    RW_CHECK (rw_project_save (p, f, &error), "save: %s", error ? error->message : "");
    g_autoptr (RwProject) q = rw_project_new ();
    g_autoptr (GError) e = NULL;
    RW_CHECK (rw_project_load (q, f, &e), "load full.roomwave: %s", e ? e->message : "");
    gboolean hybrid = TRUE;
    double crossover = 0;
    guint n_rays = 0, ism_order = 0;
    guint64 seed = 0;
    g_object_get (q, "hybrid", &hybrid, "crossover-hz", &crossover, "n-rays", &n_rays, "ism-order", &ism_order,
                  "seed", &seed, NULL);
    RW_CHECK (!hybrid && crossover == 300 && n_rays == 5000 && ism_order == 5 && seed == 42,
              "read back: hybrid %d, crossover %g Hz, %u rays, order %u, seed %" G_GUINT64_FORMAT, hybrid, crossover,
              n_rays, ism_order, seed);
    RwSimConfig cfg;
    rw_sim_settings_to_config (rw_project_get_settings (q), &cfg);
    RW_CHECK (!cfg.hybrid && cfg.crossover_hz == 300 && cfg.n_rays == 5000 && cfg.ism_order == 5 && cfg.seed == 42,
              "to the run: hybrid %d, crossover %g Hz, %zu rays, order %d, seed %" G_GUINT64_FORMAT, cfg.hybrid,
              cfg.crossover_hz, cfg.n_rays, cfg.ism_order, (guint64) cfg.seed);
    RW_CHECK (rw_sim_settings_crossover_hz (rw_project_get_settings (q)) == 300, "the crossover in use: 300 Hz");

    /* An older file, opened into a project that had other settings. */
    g_autofree char *o1 = replace (text, ",?\\s*\"hybrid\":\\s*true", "");
    g_autofree char *o2 = replace (o1, ",?\\s*\"crossover_hz\":\\s*[0-9.e+-]+", "");
    g_autofree char *o3 = replace (o2, ",?\\s*\"n_rays\":\\s*[0-9]+", "");
    g_autofree char *o4 = replace (o3, ",?\\s*\"ism_order\":\\s*[0-9]+", "");
    g_autofree char *older = replace (o4, ",?\\s*\"seed\":\\s*[0-9]+", "");
    RW_CHECK (strstr (older, "hybrid") == NULL && strstr (older, "seed") == NULL, "the older file lacks them");
    g_autoptr (GFile) g = write_project (proj_dir, "before-hybrid.roomwave", older);
    RW_CHECK (rw_project_load (q, g, &e), "load before-hybrid.roomwave: %s", e ? e->message : "");
    RwSimConfig def;
    rw_sim_config_init (&def);
    rw_sim_settings_to_config (rw_project_get_settings (q), &cfg);
    RW_CHECK (def.hybrid && def.crossover_hz == 0 && def.n_rays == RW_RAYS_DEFAULT_N
              && def.ism_order == RW_ISM_DEFAULT_ORDER && def.seed == 1, "the engine's defaults");
    RW_CHECK (cfg.hybrid == def.hybrid && cfg.crossover_hz == def.crossover_hz && cfg.n_rays == def.n_rays
              && cfg.ism_order == def.ism_order && cfg.seed == def.seed,
              "an older file: hybrid %d, crossover %g Hz, %zu rays, order %d, seed %" G_GUINT64_FORMAT, cfg.hybrid,
              cfg.crossover_hz, cfg.n_rays, cfg.ism_order, (guint64) cfg.seed);
    RW_CHECK (rw_sim_settings_crossover_hz (rw_project_get_settings (q)) == 250,
              "automatic: fmax 500 Hz / 2 = %g Hz", rw_sim_settings_crossover_hz (rw_project_get_settings (q)));
    /* fmax 500 Hz, 48 kHz output: the transition (1.293 fc) within fmax. */
    RW_CHECK (fabs (rw_sim_settings_max_crossover_hz (rw_project_get_settings (q)) - 500 / (2 - sqrt (0.5))) < 1e-9,
              "the highest crossover %.3f Hz = 500 / (2 − 1/√2)",
              rw_sim_settings_max_crossover_hz (rw_project_get_settings (q)));

    /* Values a run refuses, named. */
    g_autofree char *high = replace (text, "\"crossover_hz\":\\s*[0-9.e+-]+", "\"crossover_hz\": 390");
    check_refused (proj_dir, "crossover-390.roomwave", high, "crossover 390 Hz");
    g_autofree char *high_off0 = replace (high, "\"hybrid\":\\s*true", "\"hybrid\": false");
    check_refused (proj_dir, "crossover-390-off.roomwave", high_off0, "crossover 390 Hz");
    g_autofree char *word = replace (text, "\"crossover_hz\":\\s*[0-9.e+-]+", "\"crossover_hz\": \"auto\"");
    check_refused (proj_dir, "crossover-word.roomwave", word, "“crossover_hz”");
    g_autofree char *no_rays = replace (text, "\"n_rays\":\\s*[0-9]+", "\"n_rays\": 0");
    check_refused (proj_dir, "rays-0.roomwave", no_rays, "0 rays");
    g_autofree char *half_ray = replace (text, "\"n_rays\":\\s*[0-9]+", "\"n_rays\": 2.5");
    check_refused (proj_dir, "rays-2.5.roomwave", half_ray, "“n_rays”");
    g_autofree char *deep = replace (text, "\"ism_order\":\\s*[0-9]+", "\"ism_order\": 11");
    check_refused (proj_dir, "order-11.roomwave", deep, "order 11");
    /* 386 Hz is within the limit (386.7 Hz): accepted. */
    g_autofree char *edge = replace (text, "\"crossover_hz\":\\s*[0-9.e+-]+", "\"crossover_hz\": 386");
    g_autoptr (GFile) h = write_project (proj_dir, "crossover-386.roomwave", edge);
    RW_CHECK (rw_project_load (q, h, &e), "crossover 386 Hz loads: %s", e ? e->message : "");
    g_object_set (p, "hybrid", TRUE, "crossover-hz", 0.0, "n-rays", (guint) RW_RAYS_DEFAULT_N,
                  "ism-order", (guint) RW_ISM_DEFAULT_ORDER, "seed", (guint64) 1, NULL);
  }
  /* α per octave band (issue #11): the surface's primary state, saved and
   * read back exactly; R follows from it (the mean α up to fmax through
   * Paris' formula, computed here from the definitions); a typed R keeps
   * its value and is the same α in every band. */
  {
    g_autoptr (RwProject) a = rw_project_new ();
    RW_CHECK (rw_project_load_mesh (a, box, &error), "import: %s", error ? error->message : "");
    const guint ns = rw_project_get_mesh (a)->n_surfaces;
    static const double want[RW_N_OCTAVES] = { 0.05, 0.11, 0.23, 0.41, 0.62, 0.78, 0.83, 0.9 };
    const double fmax = rw_project_get_settings (a)->fmax_hz;
    RW_CHECK (ns >= 1 && fmax == 500, "%u surfaces, fmax %g Hz", ns, fmax);
    rw_project_set_surface_alpha (a, 0, want);
    if (ns > 1)
      rw_project_set_surface_R (a, 1, 0.7);
    g_autofree char *bands_path = g_build_filename (proj_dir, "bands.roomwave", NULL);
    g_autoptr (GFile) f = g_file_new_for_path (bands_path);
    RW_CHECK (rw_project_save (a, f, &error), "save: %s", error ? error->message : "");
    g_autoptr (RwProject) q = rw_project_new ();
    g_autoptr (GError) e = NULL;
    RW_CHECK (rw_project_load (q, f, &e), "load bands.roomwave: %s", e ? e->message : "");
    double got[RW_N_OCTAVES];
    rw_project_get_surface_alpha (q, 0, got);
    for (int b = 0; b < RW_N_OCTAVES; b++)
      RW_CHECK (got[b] == want[b], "surface 0, %g Hz: α %.17g read back (saved %.17g)", rw_octave_centres_hz[b],
                got[b], want[b]);
    RW_CHECK (g_str_equal (rw_project_get_surface_material (q, 0), "custom"), "an α edited per band is custom");
    /* fmax 500 Hz: the bands 63 … 500 Hz, mean α 0.2 */
    double mean = (0.05 + 0.11 + 0.23 + 0.41) / 4;
    RW_CHECK (fabs (rw_project_get_surface_R (q, 0) - rw_reflection_from_statistical_alpha (mean)) < 1e-12,
              "R of surface 0 %.9f from the mean α %.4f up to fmax (%.9f)", rw_project_get_surface_R (q, 0), mean,
              rw_reflection_from_statistical_alpha (mean));
    if (ns > 1)
      {
        RW_CHECK (rw_project_get_surface_R (q, 1) == 0.7, "a typed R reads back exactly: %.17g",
                  rw_project_get_surface_R (q, 1));
        rw_project_get_surface_alpha (q, 1, got);
        for (int b = 0; b < RW_N_OCTAVES; b++)
          RW_CHECK (fabs (got[b] - rw_statistical_alpha_from_reflection (0.7)) < 1e-12,
                    "surface 1, %g Hz: α %.9f, the statistical α of R = 0.7", rw_octave_centres_hz[b], got[b]);
        /* The run's model of a typed R is the frequency-independent
         * surface of that R, β = (1 − R)/(1 + R), a negative R included
         * (a fit of its α could not tell R from −R). */
        RwSurfaceModel m;
        RW_CHECK (rw_project_get_surface_model (q, 1, &m, NULL) && m.Y.n_branches == 0
                  && fabs (m.Y.Y0 - 0.3 / 1.7) < 1e-15, "R = 0.7: Y0 %.17g, %d branches", m.Y.Y0, m.Y.n_branches);
        rw_project_set_surface_R (a, 1, -0.3);
        RW_CHECK (rw_project_get_surface_model (a, 1, &m, NULL) && m.Y.n_branches == 0
                  && fabs (m.Y.Y0 - 1.3 / 0.7) < 1e-14, "R = −0.3: Y0 %.17g, %d branches", m.Y.Y0, m.Y.n_branches);
        RW_CHECK (rw_project_get_surface_model (q, 0, &m, NULL) && m.Y.n_branches > 0,
                  "α per band: a fitted model with %d branches", m.Y.n_branches);
      }

    /* An older file (R only, no "alpha"): a library material is its row,
     * any other R the statistical α of that R in every band. */
    g_autofree char *bands_text = NULL;
    RW_CHECK (g_file_get_contents (bands_path, &bands_text, NULL, NULL), "read bands.roomwave");
    g_autoptr (GRegex) re = g_regex_new (",?\\s*\"alpha\":\\s*\\[[^\\]]*\\]", 0, 0, NULL);
    g_autofree char *old_text = g_regex_replace_literal (re, bands_text, -1, 0, "", 0, NULL);
    RW_CHECK (strstr (bands_text, "\"alpha\"") != NULL && strstr (old_text, "\"alpha\"") == NULL,
              "the saved file has α per band; the older one has none");
    g_autoptr (GFile) g = write_project (proj_dir, "r-only.roomwave", old_text);
    g_autoptr (RwProject) o = rw_project_new ();
    RW_CHECK (rw_project_load (o, g, &e), "load r-only.roomwave: %s", e ? e->message : "");
    const RwMaterialLibrary *lib = rw_project_get_library (o);
    for (guint i = 0; i < ns; i++)
      {
        const RwMaterial *m = lib ? rw_materials_find (lib, rw_project_get_surface_material (o, i)) : NULL;
        double R = rw_project_get_surface_R (o, i);
        RW_CHECK (R == rw_project_get_surface_R (q, i), "surface %u: the file's R %.17g kept", i, R);
        rw_project_get_surface_alpha (o, i, got);
        for (int b = 0; b < RW_N_OCTAVES; b++)
          RW_CHECK (fabs (got[b] - (m ? m->alpha[b] : rw_statistical_alpha_from_reflection (R))) < 1e-12,
                    "surface %u (%s), %g Hz: α %.4f", i, rw_project_get_surface_material (o, i),
                    rw_octave_centres_hz[b], got[b]);
      }

    /* Bad α lists are refused, naming the surface's problem. */
    g_autofree char *short_list = replace (bands_text, "\"alpha\":\\s*\\[[^\\]]*\\]", "\"alpha\": [0.1, 0.2]");
    check_refused (proj_dir, "short-alpha.roomwave", short_list, "octave bands");
    g_autofree char *big = replace (bands_text, "\"alpha\":\\s*\\[[^,]*,", "\"alpha\": [1.5,");
    check_refused (proj_dir, "big-alpha.roomwave", big, "63 Hz");
  }
  /* The run's models (issue #12): all eight bands fitted for a hybrid run,
   * the bands up to fmax and one beyond without; the scattering of the
   * surface's library material, with a library whose scattering_default
   * (0.2 … 0.27) is not the engine's own 0.10, and that default, flagged,
   * for a custom surface. */
  {
    g_autofree char *lib_path = rw_data_path ("materials.json");
    g_autofree char *lib_text = NULL;
    RW_CHECK (lib_path != NULL && g_file_get_contents (lib_path, &lib_text, NULL, NULL), "read the library");
    g_autofree char *own = replace (lib_text, "\"scattering_default\":\\s*\\[[^\\]]*\\]",
                                    "\"scattering_default\": [0.2, 0.21, 0.22, 0.23, 0.24, 0.25, 0.26, 0.27]");
    g_autofree char *data_dir = g_build_filename (tmp, "data", NULL);
    g_mkdir_with_parents (data_dir, 0755);
    g_autoptr (GFile) lf = write_project (data_dir, "materials.json", own);
    g_autofree char *old_data_dir = g_strdup (g_getenv ("ROOMWAVE_DATA_DIR"));
    g_setenv ("ROOMWAVE_DATA_DIR", data_dir, TRUE);
    g_autoptr (RwProject) a = rw_project_new ();
    if (old_data_dir != NULL)
      g_setenv ("ROOMWAVE_DATA_DIR", old_data_dir, TRUE);
    else
      g_unsetenv ("ROOMWAVE_DATA_DIR");
    RW_CHECK (rw_project_load_mesh (a, box, &error), "import: %s", error ? error->message : "");
    const RwMaterialLibrary *lib = rw_project_get_library (a);
    const RwMaterial *mat = lib ? rw_materials_find (lib, rw_project_get_surface_material (a, 0)) : NULL;
    /* Its row's own scattering, or the changed default: not 0.10. */
    RW_CHECK (mat != NULL && mat->scattering[7] != RW_MATERIAL_DEFAULT_SCATTERING,
              "surface 0 is library material “%s” (s at 8 kHz %g, default %d)", rw_project_get_surface_material (a, 0),
              mat ? mat->scattering[7] : NAN, mat ? mat->scattering_default : -1);
    RW_CHECK (rw_project_get_mesh (a)->n_surfaces >= 2, "two surfaces");
    if (mat == NULL || rw_project_get_mesh (a)->n_surfaces < 2)
      goto models_done;
    static const double custom[RW_N_OCTAVES] = { 0.05, 0.11, 0.23, 0.41, 0.62, 0.78, 0.83, 0.9 };
    rw_project_set_surface_alpha (a, 1, custom);
    RwSurfaceModel m0, m1;
    RW_CHECK (rw_project_get_settings (a)->hybrid, "a new project runs hybrid");
    RW_CHECK (rw_project_get_surface_model (a, 0, &m0, NULL) && rw_project_get_surface_model (a, 1, &m1, NULL),
              "the models");
    RW_CHECK (m0.fit.n_bands_fit == RW_N_OCTAVES && m1.fit.n_bands_fit == RW_N_OCTAVES,
              "hybrid: fitted over %d and %d bands (all %d)", m0.fit.n_bands_fit, m1.fit.n_bands_fit, RW_N_OCTAVES);
    for (int b = 0; b < RW_N_OCTAVES; b++)
      {
        RW_CHECK (m0.scattering[b] == mat->scattering[b], "library surface, %g Hz: s %g (the library's %g)",
                  rw_octave_centres_hz[b], m0.scattering[b], mat->scattering[b]);
        RW_CHECK (m1.scattering[b] == RW_MATERIAL_DEFAULT_SCATTERING, "custom surface, %g Hz: s %g (the default %g)",
                  rw_octave_centres_hz[b], m1.scattering[b], RW_MATERIAL_DEFAULT_SCATTERING);
      }
    RW_CHECK (m0.scattering_default == mat->scattering_default && m1.scattering_default,
              "the default is flagged (library row %d, custom %d)", m0.scattering_default, m1.scattering_default);
    /* The engine's fit over eight bands, bit for bit. */
    RwAdmittance Y;
    RW_CHECK (rw_admittance_fit_alpha (custom, RW_N_OCTAVES, &Y, NULL, NULL), "fit over 8 bands");
    RW_CHECK (memcmp (&Y, &m1.Y, sizeof Y) == 0, "the custom surface's model is the 8-band fit");
    g_object_set (a, "hybrid", FALSE, NULL);
    RW_CHECK (rw_project_get_surface_model (a, 1, &m1, NULL) && m1.fit.n_bands_fit == 5,
              "the wave part alone at fmax 500 Hz: %d bands (63 … 1000 Hz)", m1.fit.n_bands_fit);
  models_done:;
  }
  {
    /* R = −1 is a pressure-release wall the Savioja boundary can hold. */
    g_autofree char *sav = replace (r_minus1, "\"boundary\":\\s*\"fv\"", "\"boundary\": \"savioja\"");
    g_autoptr (GFile) f = write_project (proj_dir, "savioja.roomwave", sav);
    g_autoptr (RwProject) q = rw_project_new ();
    g_autoptr (GError) e = NULL;
    RW_CHECK (rw_project_load (q, f, &e), "R = −1 with the Savioja boundary loads: %s", e ? e->message : "");
  }

  /* Relative paths: against the project's folder, wherever we run from. */
  {
    g_autofree char *cwd = g_get_current_dir ();
    RW_CHECK (chdir (other_dir) == 0, "chdir");
    g_autoptr (RwProject) q = rw_project_new ();
    g_autoptr (GError) e = NULL;
    RW_CHECK (rw_project_load (q, good, &e), "load from another folder: %s", e ? e->message : "");
    RW_CHECK (g_strcmp0 (rw_project_get_mesh_path (q), box) == 0, "mesh resolved to %s (got %s)", box,
              rw_project_get_mesh_path (q) ? rw_project_get_mesh_path (q) : "(none)");
    RW_CHECK (chdir (cwd) == 0, "chdir back");
  }

  /* Paths leaving the folder are reported; those inside are not. */
  check_outside (good, NULL, "mesh below the project");
  {
    g_autofree char *dotdot = replace (text, "\"mesh\":\\s*\"[^\"]*\"", "\"mesh\": \"rooms/../../elsewhere/far.obj\"");
    g_autoptr (GFile) f = write_project (proj_dir, "dotdot.roomwave", dotdot);
    check_outside (f, far_box, "mesh through ../");
    g_autoptr (RwProject) q = rw_project_new ();
    g_autoptr (GError) e = NULL;
    RW_CHECK (rw_project_load (q, f, &e), "the ../ mesh loads once accepted: %s", e ? e->message : "");
    RW_CHECK (g_strcmp0 (rw_project_get_mesh_path (q), far_box) == 0, "resolved to %s", far_box);
  }
  {
    g_autofree char *with = g_strdup_printf ("\"mesh\": \"%s\"", far_box);
    g_autofree char *abs = replace (text, "\"mesh\":\\s*\"[^\"]*\"", with);
    g_autoptr (GFile) f = write_project (proj_dir, "absolute.roomwave", abs);
    check_outside (f, far_box, "absolute mesh path");
  }
  {
    g_autofree char *res = replace (text, "\"mesh\":", "\"results\": \"../../x.results\", \"mesh\":");
    g_autoptr (GFile) f = write_project (proj_dir, "results-out.roomwave", res);
    g_autofree char *expect = g_canonicalize_filename ("../../x.results", proj_dir);
    check_outside (f, expect, "results folder outside");
  }
  {
    /* A folder named like the project's folder with a suffix is outside. */
    g_autofree char *sib_dir = g_strconcat (proj_dir, "2", NULL);
    g_autofree char *sib = g_build_filename (sib_dir, "r.obj", NULL);
    g_autofree char *with = g_strdup_printf ("\"mesh\": \"%s\"", sib);
    g_autofree char *abs = replace (text, "\"mesh\":\\s*\"[^\"]*\"", with);
    g_autoptr (GFile) f = write_project (proj_dir, "sibling.roomwave", abs);
    check_outside (f, sib, "a sibling folder sharing the prefix");
  }

  /* The first save of a new project: a write that fails (here: the file
   * size limit, as a full disk would) leaves no half project behind. */
  {
    g_autofree char *new_path = g_build_filename (proj_dir, "new.roomwave", NULL);
    g_autoptr (GFile) nf = g_file_new_for_path (new_path);
    g_autoptr (GError) e = NULL;
    struct rlimit old, small = { 64, 64 };
    RW_CHECK (getrlimit (RLIMIT_FSIZE, &old) == 0, "getrlimit");
    small.rlim_max = old.rlim_max;
    signal (SIGXFSZ, SIG_IGN);
    RW_CHECK (setrlimit (RLIMIT_FSIZE, &small) == 0, "setrlimit");
    gboolean saved = rw_project_save (p, nf, &e);
    setrlimit (RLIMIT_FSIZE, &old);
    RW_CHECK (!saved, "the save fails under a 64-byte file size limit");
    RW_NOTE ("failed first save: %s", e ? e->message : "(no error)");
    RW_CHECK (!g_file_test (new_path, G_FILE_TEST_EXISTS), "no half-written %s is left", new_path);
    g_autoptr (GDir) d = g_dir_open (proj_dir, 0, NULL);
    const char *n;
    while (d && (n = g_dir_read_name (d)) != NULL)
      RW_CHECK (!g_str_has_prefix (n, "new.roomwave") && !g_str_has_prefix (n, ".new.roomwave"),
                "no temporary file left: %s", n);
    RW_CHECK (rw_project_save (p, nf, &e), "without the limit the first save works: %s", e ? e->message : "");
    g_autoptr (RwProject) q = rw_project_new ();
    RW_CHECK (rw_project_load (q, nf, NULL), "and loads back");
  }
  check_receiver_specs (proj_dir, other_dir, box);
  check_scheme (proj_dir, box, text);
  return rw_test_finish ();
}
