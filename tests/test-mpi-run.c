/* SPDX-License-Identifier: GPL-3.0-or-later */
/* mpi-run: the host logic of the GUI's run on several GPUs (issue #15,
 * ui/rw-mpi-run.h, ui/rw-mpi-job.h), without a display.
 *
 *  - argv: a known RwSimConfig gives exactly the expected mpirun command
 *    line (every setting the run uses, numbers that read back exactly).
 *  - materials: a library material at its α, a custom R (negative: a fit
 *    of α would lose its sign), a library material set to one R (its
 *    scattering kept) and a custom α per band give the expected map, read
 *    back as JSON: the surfaces in order, each number the same double,
 *    written in its shortest exact form (the engine's writer, rw-json.h).
 *  - progress lines: a line `simulate --progress-json` prints is read back;
 *    lines that are not progress reports are refused.
 *  - devices: ROOMWAVE_TEST_MPI_CPU=1 says why a run is unavailable; with
 *    devices 1 and 3 of four checked, CUDA_VISIBLE_DEVICES is "1,3", two
 *    ranks of the CUDA backend.
 *  - failure: ranks that fail give an error holding what they wrote on
 *    stderr, and the job's temporary folder is removed.
 *  - run: the demo room with a custom α and a negative R surface, two
 *    receivers, fp64 on the CPU, full band (2000 rays): the job over 2 ranks (ROOMWAVE_TEST_MPI_CPU=2,
 *    --backend cpu) gives every receiver's IR bit for bit as the in-process
 *    run (RwSimJob) of the same project, and reported progress per rank.
 * What fails it: a setting left off the command line or a number that
 * does not read back, a surface modelled differently by the map than by
 * the in-process fit, a progress line misread, results not read back.
 *
 * Environment (tests/meson.build): ROOMWAVE_DATA_DIR, ROOMWAVE_CLI, and
 * Open MPI's permission to run as root in CI. */
#include <glib.h>
#include <glib/gstdio.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "rw-mpi-job.h"
#include "rw-project.h"

#include "rw-test.h"

static void
check_argv (void)
{
  RwSimConfig cfg;
  rw_sim_config_init (&cfg);
  cfg.mesh_path = "/rooms/hall.obj";
  cfg.scale = 0.001;
  cfg.source[0] = 1.5, cfg.source[1] = 0.1, cfg.source[2] = 2;
  cfg.n_receivers = 2;
  cfg.receivers[0][0] = 3, cfg.receivers[0][1] = 2, cfg.receivers[0][2] = 1.25;
  cfg.receivers[1][0] = 4, cfg.receivers[1][1] = 1, cfg.receivers[1][2] = 1.5;
  cfg.receiver_specs[1].type = RW_RECEIVER_BINAURAL;
  cfg.receiver_specs[1].yaw_deg = 90;
  cfg.receiver_specs[1].pitch_deg = -10;
  cfg.hrtf_path = "/hrtf/subject.sofa";
  cfg.fmax_hz = 750;
  cfg.duration_s = 0.5;
  cfg.ppw = 8;
  cfg.scheme = RW_SCHEME_CARTESIAN;
  cfg.boundary = RW_BOUNDARY_LRS;
  cfg.precision = RW_PRECISION_F64;
  cfg.temperature_c = 25;
  cfg.humidity_pct = 40;
  cfg.air_absorption = false;
  cfg.hybrid = true;
  cfg.crossover_hz = 300;
  cfg.n_rays = 5000;
  cfg.ism_order = 2;
  cfg.seed = 7;
  RwMpiLaunch launch = { .mpirun = "/usr/bin/mpirun", .cli = "/opt/rw/roomwave-cli", .n_ranks = 3,
                         .out_dir = "/tmp/x/out", .materials_map = "/tmp/x/materials.json" };
  const char *expected[] = {
    "/usr/bin/mpirun", "-np", "3", "/opt/rw/roomwave-cli", "simulate",
    "--mesh", "/rooms/hall.obj", "--scale", "0.001",
    "--source", "1.5,0.10000000000000001,2",
    "--receiver", "3,2,1.25", "--receiver", "4,1,1.5:binaural,yaw=90,pitch=-10",
    "--hrtf", "/hrtf/subject.sofa", "--materials", "/tmp/x/materials.json",
    "--fmax", "750", "--duration", "0.5", "--ppw", "8", "--scheme", "cartesian", "--boundary", "lrs",
    "--backend", "cuda", "--precision", "f64", "--temperature", "25", "--humidity", "40",
    "--no-air-absorption", "--crossover", "300", "--rays", "5000", "--ism-order", "2", "--seed", "7",
    "--out", "/tmp/x/out", "--progress-json", NULL,
  };
  g_auto (GStrv) argv = rw_mpi_build_argv (&cfg, &launch);
  g_autofree char *got = g_strjoinv (" ", argv);
  g_autofree char *want = g_strjoinv (" ", (char **) expected);
  RW_CHECK (g_strv_equal ((const char *const *) argv, expected), "argv\n got  %s\n want %s", got, want);

  /* no binaural receiver: no --hrtf (simulate refuses it); the wave part
   * alone: --no-hybrid and none of the geometrical part's options; the
   * test override's ranks on the CPU; the scheme's default ppw */
  cfg.receiver_specs[1].type = RW_RECEIVER_OMNI;
  cfg.hybrid = false;
  cfg.ppw = 0;
  cfg.air_absorption = true;
  launch.cpu_backend = TRUE;
  const char *expected2[] = {
    "/usr/bin/mpirun", "-np", "3", "/opt/rw/roomwave-cli", "simulate",
    "--mesh", "/rooms/hall.obj", "--scale", "0.001",
    "--source", "1.5,0.10000000000000001,2",
    "--receiver", "3,2,1.25", "--receiver", "4,1,1.5", "--materials", "/tmp/x/materials.json",
    "--fmax", "750", "--duration", "0.5", "--scheme", "cartesian", "--boundary", "lrs",
    "--backend", "cpu", "--precision", "f64", "--temperature", "25", "--humidity", "40",
    "--no-hybrid", "--out", "/tmp/x/out", "--progress-json", NULL,
  };
  g_auto (GStrv) argv2 = rw_mpi_build_argv (&cfg, &launch);
  g_autofree char *got2 = g_strjoinv (" ", argv2);
  g_autofree char *want2 = g_strjoinv (" ", (char **) expected2);
  RW_CHECK (g_strv_equal ((const char *const *) argv2, expected2), "argv\n got  %s\n want %s", got2, want2);
}

static void
check_materials (RwProject *project)
{
  const RwMaterialLibrary *lib = rw_project_get_library (project);
  const RwMaterial *glass = rw_materials_find (lib, "glass");
  const RwMaterial *concrete = rw_materials_find (lib, "concrete");
  RW_CHECK (glass != NULL && concrete != NULL && !concrete->scattering_default, "library rows");
  if (glass == NULL || concrete == NULL)
    return;
  RwMpiSurface s[4] = {
    { .name = "window", .material = "glass", .R = 0.5 },
    { .name = "wall \"A\"", .material = "custom", .R = -0.3 },
    { .name = "floor", .material = "concrete", .R = 0.25 },
    { .name = "ceiling", .material = "custom", .R = 0.7,
      .alpha = { 0.1, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7 } },
  };
  memcpy (s[0].alpha, glass->alpha, sizeof s[0].alpha);
  for (int b = 0; b < RW_N_OCTAVES; b++)
    s[1].alpha[b] = s[2].alpha[b] = 0.91;
  g_autofree char *json = rw_mpi_materials_json (s, 4, lib);
  /* read back as the CLI reads it: the surfaces in order, each value the
   * same double */
  json_object *root = json_tokener_parse (json);
  RW_CHECK (root != NULL && json_object_is_type (root, json_type_object)
              && json_object_object_length (root) == 4 && g_str_has_suffix (json, "}\n"),
            "a JSON object of 4 surfaces:\n%s", json);
  if (root == NULL)
    return;
  const char *keys[4] = { "window", "wall \"A\"", "floor", "ceiling" };
  int k = 0;
  json_object_object_foreach (root, key, val)
    {
      RW_CHECK (k < 4 && strcmp (key, keys[k]) == 0, "surface %d is %s", k, key);
      (void) val;
      k++;
    }
  json_object *v, *x;
  /* a library material at its library α: its name */
  RW_CHECK (json_object_object_get_ex (root, "window", &v) && json_object_is_type (v, json_type_string)
              && strcmp (json_object_get_string (v), "glass") == 0, "window: \"glass\"");
  /* α the same in every band: {"R": R}, alone (a custom material has no scattering) */
  RW_CHECK (json_object_object_get_ex (root, "wall \"A\"", &v) && json_object_object_length (v) == 1
              && json_object_object_get_ex (v, "R", &x) && json_object_get_double (x) == -0.3,
            "wall \"A\": {\"R\": -0.3}");
  /* … with the library material's own scattering */
  bool scat = json_object_object_get_ex (root, "floor", &v) && json_object_object_length (v) == 2
              && json_object_object_get_ex (v, "R", &x) && json_object_get_double (x) == 0.25
              && json_object_object_get_ex (v, "scattering", &x) && json_object_array_length (x) == RW_N_OCTAVES;
  for (int b = 0; scat && b < RW_N_OCTAVES; b++)
    scat = json_object_get_double (json_object_array_get_idx (x, (size_t) b)) == concrete->scattering[b];
  RW_CHECK (scat, "floor: {\"R\": 0.25, \"scattering\": concrete's}");
  /* other α: the eight bands */
  bool alpha = json_object_object_get_ex (root, "ceiling", &v) && json_object_object_length (v) == 1
               && json_object_object_get_ex (v, "alpha", &x) && json_object_array_length (x) == RW_N_OCTAVES;
  for (int b = 0; alpha && b < RW_N_OCTAVES; b++)
    alpha = json_object_get_double (json_object_array_get_idx (x, (size_t) b)) == s[3].alpha[b];
  RW_CHECK (alpha, "ceiling: {\"alpha\": its 8 bands}");
  /* the shortest digits that read back (rw_json_number), not 17 */
  RW_CHECK (strstr (json, "-0.3") != NULL && strstr (json, "0.29999999999999999") == NULL,
            "numbers in their shortest exact form:\n%s", json);
  json_object_put (root);
}

static void
check_progress_lines (void)
{
  RwMpiProgress p;
  const char *line = "{\"fraction\":0.677902622,\"step\":181,\"n_steps\":267,\"seconds_left\":0.374919,"
                     "\"part\":\"wave\",\"ranks\":[{\"rank\":0,\"mvox_per_s\":0.708366},"
                     "{\"rank\":1,\"mvox_per_s\":0.69653}]}";
  RW_CHECK (rw_mpi_parse_progress (line, &p), "a progress line");
  RW_CHECK (p.step == 181 && p.n_steps == 267 && p.part == RW_PROGRESS_WAVE && p.n_ranks == 2,
            "step %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT ", part %d, %d ranks", p.step, p.n_steps,
            (int) p.part, p.n_ranks);
  RW_CHECK (p.fraction == 0.677902622 && p.seconds_left == 0.374919 && p.rank_mvox_per_s[0] == 0.708366
            && p.rank_mvox_per_s[1] == 0.69653, "values");
  RW_CHECK (rw_mpi_parse_progress ("{\"fraction\":0.5,\"step\":10,\"n_steps\":20,\"seconds_left\":3,"
                                   "\"part\":\"geometrical\",\"ranks\":[{\"rank\":0,\"mvox_per_s\":0}]}", &p)
            && p.part == RW_PROGRESS_GEOMETRICAL && p.n_ranks == 1, "geometrical part");
  const char *bad[] = {
    "", "Mesh           room.obj", "{\"fraction\":0.5", "[1,2]",
    "{\"fraction\":0.5,\"step\":10,\"n_steps\":20,\"seconds_left\":3,\"part\":\"wave\",\"ranks\":[]}",
    "{\"fraction\":0.5,\"step\":10,\"n_steps\":20,\"seconds_left\":3,\"part\":\"wave\","
    "\"ranks\":[{\"rank\":1,\"mvox_per_s\":1}]}",
    "{\"fraction\":0.5,\"step\":10,\"n_steps\":20,\"seconds_left\":3,\"part\":\"light\","
    "\"ranks\":[{\"rank\":0,\"mvox_per_s\":1}]}",
    "{\"fraction\":\"half\",\"step\":10,\"n_steps\":20,\"seconds_left\":3,\"part\":\"wave\","
    "\"ranks\":[{\"rank\":0,\"mvox_per_s\":1}]}",
    "{\"step\":10,\"n_steps\":20,\"seconds_left\":3,\"part\":\"wave\",\"ranks\":[{\"rank\":0,\"mvox_per_s\":1}]}",
  };
  for (gsize i = 0; i < G_N_ELEMENTS (bad); i++)
    RW_CHECK (!rw_mpi_parse_progress (bad[i], &p), "not a progress line: %s", bad[i]);
}

typedef struct {
  GMainLoop *loop;
  RwSimOutput *out;
  GError *error;
  int progress_2_ranks;
} Wait;

static void
on_sim_done (GObject *source, GAsyncResult *result, gpointer data)
{
  Wait *w = data;
  w->out = rw_sim_job_finish (RW_SIM_JOB (source), result, &w->error);
  g_main_loop_quit (w->loop);
}

static void
on_mpi_done (GObject *source, GAsyncResult *result, gpointer data)
{
  Wait *w = data;
  w->out = rw_mpi_job_finish (RW_MPI_JOB (source), result, &w->error);
  g_main_loop_quit (w->loop);
}

static void
on_mpi_progress (RwMpiJob *job, const RwMpiProgress *p, Wait *w)
{
  (void) job;
  w->progress_2_ranks += p->n_ranks == 2 && p->rank_mvox_per_s[0] > 0 && p->rank_mvox_per_s[1] > 0;
}

static void
check_run (RwProject *project)
{
  g_autofree char *demo = g_build_filename (g_getenv ("ROOMWAVE_DATA_DIR"), "rooms", "demo-room.obj", NULL);
  g_autoptr (GError) error = NULL;
  RW_CHECK (rw_project_load_mesh (project, demo, &error), "import: %s", error ? error->message : "");
  if (error != NULL)
    return;
  RwSimSettings s = *rw_project_get_settings (project);
  s.fmax_hz = 300;
  s.duration_s = 0.1;
  s.backend = RW_BACKEND_CPU;
  s.precision = RW_PRECISION_F64;
  /* full band: the geometrical part's settings go through the command
   * line too (2000 rays to keep it short) */
  s.hybrid = TRUE;
  s.n_rays = 2000;
  rw_project_set_settings (project, &s);
  /* a custom α per band and a negative R beside the library materials */
  const double alpha[RW_N_OCTAVES] = { 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7 };
  rw_project_set_surface_alpha (project, 0, alpha);
  rw_project_set_surface_R (project, 1, -0.2);
  double src[3] = { 1.5, 1.2, 1.3 }, r0[3] = { 3, 2, 1.5 }, r1[3] = { 4.2, 3.1, 2.2 };
  RW_CHECK (rw_project_set_source (project, src, NULL) && rw_project_set_receiver (project, 0, r0, NULL),
            "points");
  if (rw_project_get_n_receivers (project) < 2)
    rw_project_add_receiver (project);
  RW_CHECK (rw_project_set_receiver (project, 1, r1, NULL), "receiver 2");

  Wait ref = { .loop = g_main_loop_new (NULL, FALSE) };
  g_autoptr (RwSimJob) sim = rw_sim_job_new (project);
  rw_sim_job_start (sim, on_sim_done, &ref);
  g_main_loop_run (ref.loop);
  RW_CHECK (ref.out != NULL, "in-process run: %s", ref.error ? ref.error->message : "");

  g_setenv ("ROOMWAVE_TEST_MPI_CPU", "2", TRUE);
  g_autoptr (RwMpiDevices) devices = rw_mpi_devices_probe ();
  RW_CHECK (devices->why_unavailable == NULL && devices->n_devices == 2 && devices->cpu_test,
            "two test devices: %s", devices->why_unavailable ? devices->why_unavailable : "");
  Wait mpi = { .loop = ref.loop };
  g_autoptr (RwMpiJob) job = rw_mpi_job_new (project, devices, 3, &error);
  RW_CHECK (job != NULL, "job: %s", error ? error->message : "");
  if (job != NULL && ref.out != NULL)
    {
      g_autofree char *cmd = g_strjoinv (" ", (char **) rw_mpi_job_get_argv (job));
      RW_NOTE ("%s", cmd);
      g_autoptr (GCancellable) cancellable = g_cancellable_new ();
      g_signal_connect (job, "progress", G_CALLBACK (on_mpi_progress), &mpi);
      rw_mpi_job_start (job, cancellable, on_mpi_done, &mpi);
      g_main_loop_run (mpi.loop);
      RW_CHECK (mpi.out != NULL, "run on 2 ranks: %s", mpi.error ? mpi.error->message : "");
      RW_CHECK (mpi.progress_2_ranks > 0, "progress of both ranks reported (%d lines)", mpi.progress_2_ranks);
    }
  if (ref.out != NULL && mpi.out != NULL)
    {
      RW_CHECK (mpi.out->n_receivers == 2 && ref.out->n_receivers == 2 && mpi.out->ir_frames == ref.out->ir_frames
                && mpi.out->ir_frames > 0, "receivers %u, %u; frames %zu, %zu", mpi.out->n_receivers,
                ref.out->n_receivers, mpi.out->ir_frames, ref.out->ir_frames);
      RW_CHECK (mpi.out->results.result.ranks == 2, "ranks in results.json: %d", mpi.out->results.result.ranks);
      for (guint r = 0; r < 2 && mpi.out->ir_frames == ref.out->ir_frames; r++)
        {
          size_t differ = 0;
          double peak = 0;
          for (size_t i = 0; i < ref.out->ir_frames; i++)
            {
              differ += memcmp (&mpi.out->ir[r][i], &ref.out->ir[r][i], sizeof (float)) != 0;
              peak = MAX (peak, fabs (ref.out->ir[r][i]));
            }
          RW_CHECK (differ == 0 && peak > 0, "receiver %u: %zu of %zu samples differ (peak %g)", r + 1, differ,
                    ref.out->ir_frames, peak);
        }
    }
  /* the job's temporary folder (the map's) goes with it */
  g_autofree char *tmp = NULL;
  for (const char *const *a = job ? rw_mpi_job_get_argv (job) : NULL; a && *a && a[1]; a++)
    if (g_str_equal (*a, "--materials"))
      tmp = g_path_get_dirname (a[1]);
  g_clear_object (&job);
  RW_CHECK (tmp != NULL && !g_file_test (tmp, G_FILE_TEST_EXISTS), "temporary folder %s removed", tmp);
  rw_sim_output_unref (ref.out);
  rw_sim_output_unref (mpi.out);
  g_clear_error (&ref.error);
  g_clear_error (&mpi.error);
  g_main_loop_unref (ref.loop);

  /* a run that fails: what the ranks wrote on stderr is the error, and
   * the folder goes too (a stand-in for roomwave-cli that fails as a rank
   * of a broken mesh would) */
  {
    g_autofree char *fake_cli = g_build_filename (g_get_tmp_dir (), "rw-mpi-run-failing-cli.sh", NULL);
    RW_CHECK (g_file_set_contents (fake_cli, "#!/bin/sh\n"
                                             "echo \"roomwave-cli simulate: room.obj: the mesh has no faces\" >&2\n"
                                             "exit 1\n", -1, NULL)
              && g_chmod (fake_cli, 0755) == 0, "write %s", fake_cli);
    g_autofree char *real_cli = g_strdup (g_getenv ("ROOMWAVE_CLI"));
    g_setenv ("ROOMWAVE_CLI", fake_cli, TRUE);
    g_autoptr (RwMpiDevices) failing = rw_mpi_devices_probe ();
    Wait bad = { .loop = g_main_loop_new (NULL, FALSE) };
    g_autoptr (GError) bad_error = NULL;
    g_autoptr (RwMpiJob) bad_job = rw_mpi_job_new (project, failing, 3, &bad_error);
    RW_CHECK (bad_job != NULL, "job: %s", bad_error ? bad_error->message : "");
    if (bad_job != NULL)
      {
        rw_mpi_job_start (bad_job, NULL, on_mpi_done, &bad);
        g_main_loop_run (bad.loop);
        RW_NOTE ("the failure's message: %s", bad.error ? bad.error->message : "(none)");
        RW_CHECK (bad.out == NULL && g_error_matches (bad.error, G_IO_ERROR, G_IO_ERROR_FAILED)
                  && strstr (bad.error->message, "room.obj: the mesh has no faces") != NULL,
                  "the failure says the ranks' words: %s", bad.error ? bad.error->message : "(none)");
        /* once, though both ranks said it, and without mpirun's boxed note */
        RW_CHECK (bad.error != NULL && g_str_equal (bad.error->message,
                                                    "roomwave-cli simulate: room.obj: the mesh has no faces"),
                  "only the ranks' words, once");
        g_autofree char *bad_tmp = NULL;
        for (const char *const *a = rw_mpi_job_get_argv (bad_job); *a && a[1]; a++)
          if (g_str_equal (*a, "--materials"))
            bad_tmp = g_path_get_dirname (a[1]);
        RW_CHECK (bad_tmp != NULL && !g_file_test (bad_tmp, G_FILE_TEST_EXISTS), "temporary folder removed");
      }
    rw_sim_output_unref (bad.out);
    g_clear_error (&bad.error);
    g_main_loop_unref (bad.loop);
    g_remove (fake_cli);
    if (real_cli != NULL)
      g_setenv ("ROOMWAVE_CLI", real_cli, TRUE);
    else
      g_unsetenv ("ROOMWAVE_CLI");
  }

  /* real devices: rank i on the i-th checked one (CUDA_VISIBLE_DEVICES),
   * the CUDA backend, one rank per checked device */
  {
    RwMpiDevices gpus = { .n_devices = 4, .mpirun = (char *) "/usr/bin/mpirun",
                          .cli = (char *) "/usr/bin/roomwave-cli" };
    g_autoptr (GError) gpus_error = NULL;
    g_autoptr (RwMpiJob) gpus_job = rw_mpi_job_new (project, &gpus, 0xa, &gpus_error);
    RW_CHECK (gpus_job != NULL, "job on devices 1 and 3: %s", gpus_error ? gpus_error->message : "");
    if (gpus_job != NULL)
      {
        const char *const *a = rw_mpi_job_get_argv (gpus_job);
        gboolean cuda = FALSE;
        for (; *a && a[1]; a++)
          cuda |= g_str_equal (a[0], "--backend") && g_str_equal (a[1], "cuda");
        a = rw_mpi_job_get_argv (gpus_job);
        RW_CHECK (g_strcmp0 (rw_mpi_job_get_visible_devices (gpus_job), "1,3") == 0,
                  "CUDA_VISIBLE_DEVICES %s", rw_mpi_job_get_visible_devices (gpus_job));
        RW_CHECK (rw_mpi_job_get_n_ranks (gpus_job) == 2 && g_str_equal (a[1], "-np") && g_str_equal (a[2], "2")
                  && cuda, "two ranks of the CUDA backend: %s %s %s", a[0], a[1], a[2]);
      }
  }

  g_setenv ("ROOMWAVE_TEST_MPI_CPU", "1", TRUE);
  g_autoptr (RwMpiDevices) one = rw_mpi_devices_probe ();
  RW_CHECK (one->why_unavailable != NULL && strstr (one->why_unavailable, "1") != NULL,
            "one device: unavailable, saying so: %s", one->why_unavailable ? one->why_unavailable : "(available)");
  g_autoptr (GError) one_error = NULL;
  g_autoptr (RwMpiJob) refused = rw_mpi_job_new (project, one, 1, &one_error);
  RW_CHECK (refused == NULL && one_error != NULL, "a job on one device is refused");
}

int
main (void)
{
  g_autoptr (RwProject) project = rw_project_new ();
  check_argv ();
  check_materials (project);
  check_progress_lines ();
  check_run (project);
  return rw_test_finish ();
}
