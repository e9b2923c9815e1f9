/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tsan-glib-sync.c — an LD_PRELOAD shim for the ThreadSanitizer run of the
 * GUI (tests/gui/tsan.sh; not part of the build).
 *
 * Debian's GLib is not built with TSan, and its GMutex/GCond are futexes,
 * not pthread mutexes: TSan cannot see the happens-before edges GLib gives
 * when a GTask is handed to its thread pool, when a worker's result comes
 * back to the main loop, when g_main_context_invoke_full() passes data to
 * the main thread, or when the last g_object_unref() finalizes an object.
 * Without them every object passed between threads is reported. This shim
 * wraps those entry points (the ones Roomwave's ui/ calls) and tells TSan
 * about the edge with __tsan_release/__tsan_acquire, exactly where GLib's
 * documentation promises the ordering:
 *   - g_task_run_in_thread: everything before it happens before the task
 *     function;
 *   - g_task_return_*: the worker's writes happen before the task's
 *     callback (g_task_propagate_*, g_task_had_error, g_task_get_task_data);
 *   - g_main_context_invoke_full: the caller's writes happen before the
 *     function and its destroy notify run;
 *   - g_object_unref: a reference count is acquire-release.
 * No access is hidden: a race between a worker and the main thread that is
 * not ordered by one of these calls is still reported. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <gio/gio.h>

void __tsan_acquire (void *addr);
void __tsan_release (void *addr);

#define REAL(name) \
  static __typeof__ (name) *real_##name; \
  if (real_##name == NULL) \
    real_##name = (__typeof__ (name) *) dlsym (RTLD_NEXT, #name)

/* ---- GTask in a thread -------------------------------------------------- */

static GQuark
func_quark (void)
{
  static GQuark q;
  if (q == 0)
    q = g_quark_from_static_string ("rw-tsan-task-func");
  return q;
}

static void
task_trampoline (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  __tsan_acquire (task);
  GTaskThreadFunc func = (GTaskThreadFunc) g_object_get_qdata (G_OBJECT (task), func_quark ());
  func (task, source, data, cancellable);
  __tsan_release (task);
}

void
g_task_run_in_thread (GTask *task, GTaskThreadFunc func)
{
  REAL (g_task_run_in_thread);
  g_object_set_qdata (G_OBJECT (task), func_quark (), (gpointer) func);
  __tsan_release (task);
  real_g_task_run_in_thread (task, task_trampoline);
}

void
g_task_run_in_thread_sync (GTask *task, GTaskThreadFunc func)
{
  REAL (g_task_run_in_thread_sync);
  g_object_set_qdata (G_OBJECT (task), func_quark (), (gpointer) func);
  __tsan_release (task);
  real_g_task_run_in_thread_sync (task, task_trampoline);
  __tsan_acquire (task);
}

void
g_task_return_pointer (GTask *task, gpointer result, GDestroyNotify notify)
{
  REAL (g_task_return_pointer);
  __tsan_release (task);
  real_g_task_return_pointer (task, result, notify);
}

void
g_task_return_boolean (GTask *task, gboolean result)
{
  REAL (g_task_return_boolean);
  __tsan_release (task);
  real_g_task_return_boolean (task, result);
}

void
g_task_return_int (GTask *task, gssize result)
{
  REAL (g_task_return_int);
  __tsan_release (task);
  real_g_task_return_int (task, result);
}

void
g_task_return_error (GTask *task, GError *error)
{
  REAL (g_task_return_error);
  __tsan_release (task);
  real_g_task_return_error (task, error);
}

void
g_task_return_new_error (GTask *task, GQuark domain, gint code, const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  GError *error = g_error_new_valist (domain, code, format, ap);
  va_end (ap);
  g_task_return_error (task, error);
}

gpointer
g_task_propagate_pointer (GTask *task, GError **error)
{
  REAL (g_task_propagate_pointer);
  __tsan_acquire (task);
  return real_g_task_propagate_pointer (task, error);
}

gboolean
g_task_propagate_boolean (GTask *task, GError **error)
{
  REAL (g_task_propagate_boolean);
  __tsan_acquire (task);
  return real_g_task_propagate_boolean (task, error);
}

gssize
g_task_propagate_int (GTask *task, GError **error)
{
  REAL (g_task_propagate_int);
  __tsan_acquire (task);
  return real_g_task_propagate_int (task, error);
}

gboolean
g_task_had_error (GTask *task)
{
  REAL (g_task_had_error);
  __tsan_acquire (task);
  return real_g_task_had_error (task);
}

gpointer
g_task_get_task_data (GTask *task)
{
  REAL (g_task_get_task_data);
  __tsan_acquire (task);
  return real_g_task_get_task_data (task);
}

/* ---- g_main_context_invoke_full ----------------------------------------- */

typedef struct {
  GSourceFunc func;
  gpointer data;
  GDestroyNotify notify;
} Invoke;

static gboolean
invoke_trampoline (gpointer p)
{
  Invoke *iv = p;
  __tsan_acquire (iv);
  gboolean again = iv->func (iv->data);
  __tsan_release (iv);
  return again;
}

static void
invoke_notify (gpointer p)
{
  Invoke *iv = p;
  __tsan_acquire (iv);
  if (iv->notify != NULL)
    iv->notify (iv->data);
  g_free (iv);
}

void
g_main_context_invoke_full (GMainContext *context, gint priority, GSourceFunc function,
                            gpointer data, GDestroyNotify notify)
{
  REAL (g_main_context_invoke_full);
  Invoke *iv = g_new (Invoke, 1);
  iv->func = function;
  iv->data = data;
  iv->notify = notify;
  __tsan_release (iv);
  real_g_main_context_invoke_full (context, priority, invoke_trampoline, iv, invoke_notify);
}

/* ---- reference counts --------------------------------------------------- */

void
g_object_unref (gpointer object)
{
  REAL (g_object_unref);
  __tsan_release (object);
  __tsan_acquire (object);
  real_g_object_unref (object);
}
