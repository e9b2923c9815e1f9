/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tsan-canary.c — shows that tests/gui/tsan.sh can see a race (not part of
 * the build; tsan.sh compiles it with -fsanitize=thread).
 *
 * The same pattern as ui/rw-sim-job.c: a GTask worker that posts owned
 * messages to the main loop with g_main_context_invoke_full() and returns
 * its result through the task. `canary clean` does only that and must give
 * no report under the shim and the suppressions; `canary racy` also lets
 * the worker bump a counter that a main-loop timeout reads without any
 * synchronisation, and must give a report naming this file. If it does
 * not, the shim or a suppression has made TSan blind and tsan.sh fails. */
#include <gio/gio.h>
#include <stdio.h>
#include <string.h>

typedef struct {
  int steps;             /* snapshot: written before the thread starts */
  int shared_plain;      /* the planted race in `racy` mode */
  gboolean racy;
  GMainLoop *loop;
  GMainContext *context;
  int messages_seen;     /* main thread only */
} Canary;

typedef struct {
  Canary *c;
  int step;
  char *text;
} Msg;

static gboolean
on_msg (gpointer data)
{
  Msg *m = data;
  if (m->text[0] != '\0')
    m->c->messages_seen++;
  return G_SOURCE_REMOVE;
}

static void
msg_free (gpointer data)
{
  Msg *m = data;
  g_free (m->text);
  g_free (m);
}

static void
worker (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Canary *c = data;
  (void) source;
  (void) cancellable;
  for (int i = 0; i < c->steps; i++)
    {
      Msg *m = g_new0 (Msg, 1);
      m->c = c;
      m->step = i;
      m->text = g_strdup_printf ("step %d", i);
      g_main_context_invoke_full (c->context, G_PRIORITY_DEFAULT, on_msg, m, msg_free);
      if (c->racy)
        c->shared_plain++;
      g_usleep (2000);
    }
  int *result = g_new (int, 1);
  *result = c->steps;
  g_task_return_pointer (task, result, g_free);
}

static gboolean
on_tick (gpointer data)
{
  Canary *c = data;
  if (c->racy)
    printf ("main thread sees %d\n", c->shared_plain);
  return G_SOURCE_CONTINUE;
}

static void
on_done (GObject *source, GAsyncResult *res, gpointer data)
{
  Canary *c = data;
  int *result = g_task_propagate_pointer (G_TASK (res), NULL);
  (void) source;
  printf ("worker returned %d, main loop saw %d messages\n", *result, c->messages_seen);
  g_free (result);
  g_main_loop_quit (c->loop);
}

int
main (int argc, char **argv)
{
  Canary c = { 0 };
  c.racy = argc > 1 && strcmp (argv[1], "racy") == 0;
  c.steps = 100;
  c.context = g_main_context_default ();
  c.loop = g_main_loop_new (NULL, FALSE);

  GObject *owner = g_object_new (G_TYPE_OBJECT, NULL);
  GTask *task = g_task_new (owner, NULL, on_done, &c);
  g_task_set_task_data (task, &c, NULL);
  g_task_run_in_thread (task, worker);
  g_object_unref (task);
  guint tick = g_timeout_add (1, on_tick, &c);
  g_main_loop_run (c.loop);
  g_source_remove (tick);
  /* Messages still queued are freed by their sources' destroy notify. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_object_unref (owner);
  g_main_loop_unref (c.loop);
  return 0;
}
