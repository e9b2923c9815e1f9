/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-mpi-job.c — a run on several GPUs through mpirun (see rw-mpi-job.h). */
#include "rw-mpi-job.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>

#include "rw-file.h"
#include "rw-results-io.h"

/* How long mpirun gets after SIGINT before SIGTERM, and after SIGTERM
 * before SIGKILL: the ranks stop at their next chunk (≤ 0.1 s), and
 * mpirun needs a moment to reap them. */
#define SIGNAL_GRACE_S 5

struct _RwMpiJob
{
  GObject parent_instance;

  RwSimJob *snapshot;          /* the project's state, as an in-process run takes it */
  char *tmp_dir;               /* materials.json and out/, removed at the end */
  char *out_dir;
  char **argv;
  char *visible_devices;       /* CUDA_VISIBLE_DEVICES, NULL with the CPU override */
  int n_ranks;

  GTask *task;                 /* while running */
  GSubprocess *process;
  GDataInputStream *stdout_lines;
  GOutputStream *stderr_text;  /* a GMemoryOutputStream */
  GCancellable *cancellable;
  gulong cancel_id;
  guint kill_id;
  int next_signal;
  int pending;                 /* stdout, stderr and the exit still to come */
};

G_DEFINE_TYPE (RwMpiJob, rw_mpi_job, G_TYPE_OBJECT)

enum { PROGRESS, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
rw_mpi_job_finalize (GObject *object)
{
  RwMpiJob *self = RW_MPI_JOB (object);

  /* the temporary folder and everything in it (no link is followed) */
  if (self->tmp_dir != NULL)
    rw_file_remove_tree (self->tmp_dir);
  g_free (self->tmp_dir);
  g_free (self->out_dir);
  g_strfreev (self->argv);
  g_free (self->visible_devices);
  g_clear_object (&self->snapshot);
  G_OBJECT_CLASS (rw_mpi_job_parent_class)->finalize (object);
}

static void
rw_mpi_job_class_init (RwMpiJobClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = rw_mpi_job_finalize;
  /* const RwMpiProgress *: one line of rank 0's progress */
  signals[PROGRESS] =
    g_signal_new ("progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_POINTER);
}

static void
rw_mpi_job_init (RwMpiJob *self)
{
  (void) self;
}

RwMpiJob *
rw_mpi_job_new (RwProject *project, const RwMpiDevices *devices, guint64 device_mask, GError **error)
{
  g_return_val_if_fail (RW_IS_PROJECT (project) && rw_project_get_mesh (project) != NULL, NULL);

  g_autoptr (RwMpiJob) self = g_object_new (RW_TYPE_MPI_JOB, NULL);
  g_autoptr (GString) visible = g_string_new (NULL);
  const RwMesh *mesh = rw_project_get_mesh (project);
  RwSimConfig cfg;

  if (devices->why_unavailable != NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, devices->why_unavailable);
      return NULL;
    }
  for (int i = 0; i < devices->n_devices; i++)
    if (device_mask & (G_GUINT64_CONSTANT (1) << i))
      {
        g_string_append_printf (visible, "%s%d", self->n_ranks > 0 ? "," : "", i);
        self->n_ranks++;
      }
  if (self->n_ranks < 2)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("Check at least two devices for a run on several GPUs."));
      return NULL;
    }

  self->snapshot = rw_sim_job_new (project);
  rw_sim_job_get_config (self->snapshot, &cfg);
  /* the project's mesh is scaled at its import; the command line imports
   * the file again */
  cfg.scale = rw_project_get_import_scale (project);

  self->tmp_dir = g_dir_make_tmp ("roomwave-gpus-XXXXXX", error);
  if (self->tmp_dir == NULL)
    return NULL;
  self->out_dir = g_build_filename (self->tmp_dir, "out", NULL);
  g_autofree char *map_path = g_build_filename (self->tmp_dir, "materials.json", NULL);
  g_autofree RwMpiSurface *surfaces = g_new0 (RwMpiSurface, mesh->n_surfaces ? mesh->n_surfaces : 1);
  for (size_t i = 0; i < mesh->n_surfaces; i++)
    {
      surfaces[i].name = mesh->surface_names[i];
      surfaces[i].material = rw_project_get_surface_material (project, i);
      surfaces[i].R = rw_project_get_surface_R (project, i);
      rw_project_get_surface_alpha (project, i, surfaces[i].alpha);
    }
  g_autofree char *map = rw_mpi_materials_json (surfaces, mesh->n_surfaces, rw_project_get_library (project));
  if (!g_file_set_contents (map_path, map, -1, error))
    return NULL;

  RwMpiLaunch launch = { .mpirun = devices->mpirun, .cli = devices->cli, .n_ranks = self->n_ranks,
                         .out_dir = self->out_dir, .materials_map = map_path, .cpu_backend = devices->cpu_test };
  self->argv = rw_mpi_build_argv (&cfg, &launch);
  if (!devices->cpu_test)
    self->visible_devices = g_strdup (visible->str);
  return g_steal_pointer (&self);
}

int
rw_mpi_job_get_n_ranks (RwMpiJob *self)
{
  return self->n_ranks;
}

const char *const *
rw_mpi_job_get_argv (RwMpiJob *self)
{
  return (const char *const *) self->argv;
}

const char *
rw_mpi_job_get_visible_devices (RwMpiJob *self)
{
  return self->visible_devices;
}

/* ---- the process -------------------------------------------------------- */

static void
load_worker (GTask *task, gpointer source_object, gpointer task_data, GCancellable *cancellable)
{
  RwMpiJob *self = source_object;
  GError *error = NULL;

  (void) task_data;
  (void) cancellable;
  RwSimOutput *out = rw_sim_output_load (self->out_dir, &error);
  /* read whole into memory: the folder is no longer needed */
  rw_file_remove_tree (self->tmp_dir);
  if (out == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, out, (GDestroyNotify) rw_sim_output_unref);
}

/* What the ranks said, for the error dialog (the last 4000 bytes of
 * stderr): each line once (every rank may say the same), without Open
 * MPI's boxed notes between lines of dashes ("Primary job terminated
 * normally, but 1 process returned…"), which say only that a rank
 * failed; those stay when nothing else was said. */
static gboolean
dashes (const char *line)
{
  return strlen (line) >= 10 && strspn (line, "-") == strlen (line);
}

static char *
stderr_message (RwMpiJob *self)
{
  GMemoryOutputStream *m = G_MEMORY_OUTPUT_STREAM (self->stderr_text);
  gsize n = g_memory_output_stream_get_data_size (m);
  const char *data = g_memory_output_stream_get_data (m);
  g_autofree char *text = g_strndup (data ? data : "", n);
  const char *from = strlen (text) > 4000 ? text + strlen (text) - 4000 : text;
  g_autofree char *valid = g_utf8_make_valid (from, -1);
  g_auto (GStrv) lines = g_strsplit (valid, "\n", -1);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  GString *s = g_string_new (NULL), *all = g_string_new (NULL);
  gboolean boxed = FALSE;

  for (char **l = lines; *l; l++)
    {
      const char *line = g_strstrip (*l);
      if (line[0] == '\0')
        continue;
      g_string_append_printf (all, "%s%s", all->len ? "\n" : "", line);
      if (dashes (line))
        boxed = !boxed;
      else if (!boxed && g_hash_table_add (seen, (gpointer) line))
        g_string_append_printf (s, "%s%s", s->len ? "\n" : "", line);
    }
  if (s->len == 0)
    {
      g_string_free (s, TRUE);
      return g_string_free (all, FALSE);
    }
  g_string_free (all, TRUE);
  return g_string_free (s, FALSE);
}

static void
cleanup_process (RwMpiJob *self)
{
  g_clear_handle_id (&self->kill_id, g_source_remove);
  if (self->cancel_id != 0)
    g_cancellable_disconnect (self->cancellable, self->cancel_id);
  self->cancel_id = 0;
  g_clear_object (&self->cancellable);
  g_clear_object (&self->stdout_lines);
  g_clear_object (&self->stderr_text);
}

/* stdout at its end, stderr read and mpirun exited: the result. */
static void
one_done (RwMpiJob *self)
{
  if (--self->pending > 0)
    return;

  GTask *task = g_steal_pointer (&self->task);
  gboolean cancelled = self->cancellable != NULL && g_cancellable_is_cancelled (self->cancellable);
  int exited_ok = g_subprocess_get_if_exited (self->process) && g_subprocess_get_exit_status (self->process) == 0;

  if (cancelled || !exited_ok)
    {
      GError *error = NULL;
      if (cancelled)
        error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Cancelled"));
      else
        {
          g_autofree char *why = stderr_message (self);
          if (why[0] == '\0')
            {
              g_free (why);
              why = g_strdup_printf (_("mpirun ended with status %d and said nothing."),
                                     g_subprocess_get_if_exited (self->process)
                                       ? g_subprocess_get_exit_status (self->process)
                                       : 128 + g_subprocess_get_term_sig (self->process));
            }
          error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_FAILED, why);
        }
      /* gone when the error is seen (the job may be kept a while) */
      rw_file_remove_tree (self->tmp_dir);
      g_task_return_error (task, error);
    }
  else
    g_task_run_in_thread (task, load_worker);
  cleanup_process (self);
  g_clear_object (&self->process);
  g_object_unref (task);
}

static void
read_line (RwMpiJob *self);

static void
on_line (GObject *source, GAsyncResult *result, gpointer user_data)
{
  RwMpiJob *self = user_data;
  gsize len = 0;
  g_autofree char *line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (source), result,
                                                                     &len, NULL);
  RwMpiProgress p;

  if (line == NULL)
    {
      /* the end (or a read error: mpirun's exit says what happened) */
      one_done (self);
      g_object_unref (self);
      return;
    }
  if (rw_mpi_parse_progress (line, &p))
    g_signal_emit (self, signals[PROGRESS], 0, &p);
  read_line (self);
  g_object_unref (self);
}

static void
read_line (RwMpiJob *self)
{
  g_data_input_stream_read_line_async (self->stdout_lines, G_PRIORITY_DEFAULT, NULL, on_line,
                                       g_object_ref (self));
}

static void
on_stderr_read (GObject *source, GAsyncResult *result, gpointer user_data)
{
  RwMpiJob *self = user_data;
  g_output_stream_splice_finish (G_OUTPUT_STREAM (source), result, NULL);
  one_done (self);
  g_object_unref (self);
}

static void
on_process_exit (GObject *source, GAsyncResult *result, gpointer user_data)
{
  RwMpiJob *self = user_data;
  g_subprocess_wait_finish (G_SUBPROCESS (source), result, NULL);
  one_done (self);
  g_object_unref (self);
}

/* SIGINT did not stop mpirun: SIGTERM, then SIGKILL. */
static gboolean
on_kill_timeout (gpointer user_data)
{
  RwMpiJob *self = user_data;

  if (self->process == NULL)
    {
      self->kill_id = 0;
      return G_SOURCE_REMOVE;
    }
  if (self->next_signal == SIGTERM)
    {
      g_subprocess_send_signal (self->process, SIGTERM);
      self->next_signal = SIGKILL;
      return G_SOURCE_CONTINUE;
    }
  g_subprocess_force_exit (self->process);
  self->kill_id = 0;
  return G_SOURCE_REMOVE;
}

/* May run in any thread that cancels; the window cancels on the main
 * thread, where the process and the timeout live. */
static void
on_cancelled (GCancellable *cancellable, gpointer user_data)
{
  RwMpiJob *self = user_data;

  (void) cancellable;
  if (self->process == NULL || self->kill_id != 0)
    return;
  /* mpirun passes a stop on to every rank; the ranks stop at their next
   * chunk and the staging folder goes with the temporary folder */
  g_subprocess_send_signal (self->process, SIGINT);
  self->next_signal = SIGTERM;
  self->kill_id = g_timeout_add_seconds (SIGNAL_GRACE_S, on_kill_timeout, self);
}

void
rw_mpi_job_start (RwMpiJob *self, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (self->task == NULL && self->argv != NULL);
  g_autoptr (GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE
                               | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  GError *error = NULL;

  self->task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (self->task, rw_mpi_job_start);
  if (self->visible_devices != NULL)
    g_subprocess_launcher_setenv (launcher, "CUDA_VISIBLE_DEVICES", self->visible_devices, TRUE);
  self->process = g_subprocess_launcher_spawnv (launcher, (const char *const *) self->argv, &error);
  if (self->process == NULL)
    {
      GTask *task = g_steal_pointer (&self->task);
      g_prefix_error (&error, _("mpirun could not start: "));
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }
  /* mpirun forwards its stdin to rank 0: an empty pipe, never the
   * terminal the application may have been started from (a background
   * job reading it would be stopped) */
  g_output_stream_close (g_subprocess_get_stdin_pipe (self->process), NULL, NULL);
  self->pending = 3;
  self->stdout_lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (self->process));
  self->stderr_text = g_memory_output_stream_new_resizable ();
  read_line (self);
  g_output_stream_splice_async (self->stderr_text, g_subprocess_get_stderr_pipe (self->process),
                                G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, G_PRIORITY_DEFAULT, NULL, on_stderr_read,
                                g_object_ref (self));
  g_subprocess_wait_async (self->process, NULL, on_process_exit, g_object_ref (self));
  if (cancellable != NULL)
    {
      self->cancellable = g_object_ref (cancellable);
      self->cancel_id = g_cancellable_connect (cancellable, G_CALLBACK (on_cancelled), self, NULL);
    }
}

RwSimOutput *
rw_mpi_job_finish (RwMpiJob *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
