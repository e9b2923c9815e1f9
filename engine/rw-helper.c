/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-helper.c — see rw-helper.h. */
#include "rw-helper.h"
#include "rw-mesh.h"
#include "rw-i18n.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

bool
rw_helper_in_process (void)
{
  const char *v = getenv ("ROOMWAVE_IMPORT_IN_PROCESS");
  return v != NULL && *v != '\0' && strcmp (v, "0") != 0;
}

pid_t
rw_helper_spawn (char *const args[], int *fd)
{
  const char *helper = rw_import_helper_path ();
  int fds[2];
  size_t n = 0;

  if (helper == NULL)
    return -1;
  while (args[n] != NULL)
    n++;
  char **argv = calloc (n + 2, sizeof *argv);
  if (argv == NULL)
    return -1;
  argv[0] = (char *) helper;
  memcpy (argv + 1, args, n * sizeof *argv);
  if (pipe2 (fds, O_CLOEXEC) != 0)
    {
      free (argv);
      return -1;
    }
  pid_t pid = -1;
  posix_spawn_file_actions_t fa;
  if (posix_spawn_file_actions_init (&fa) == 0)
    {
      /* libraries print failed assertions on stderr; the engine never
       * prints (rw-error.h) */
      bool set = posix_spawn_file_actions_adddup2 (&fa, fds[1], STDOUT_FILENO) == 0
                 && posix_spawn_file_actions_addopen (&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0) == 0
                 && posix_spawn_file_actions_addclose (&fa, fds[0]) == 0;
      extern char **environ;
      if (!set || posix_spawn (&pid, helper, &fa, NULL, argv, environ) != 0)
        pid = -1;
      posix_spawn_file_actions_destroy (&fa);
    }
  free (argv);
  close (fds[1]);
  if (pid < 0)
    {
      close (fds[0]);
      return -1;
    }
  *fd = fds[0];
  return pid;
}

static double
now_s (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return (double) t.tv_sec + 1e-9 * (double) t.tv_nsec;
}

bool
rw_helper_run (char *const args[], double limit_s, size_t max, char **out, size_t *len, int *status,
               bool *timed_out)
{
  int fd = -1;
  size_t cap = 4096, n = 0;
  char *buf = malloc (cap + 1);

  *out = NULL;
  *len = 0;
  *status = 0;
  *timed_out = false;
  if (buf == NULL)
    return false;
  pid_t pid = rw_helper_spawn (args, &fd);
  if (pid < 0)
    {
      free (buf);
      return false;
    }
  const double deadline = now_s () + limit_s;
  bool ok = true;
  for (;;)
    {
      const double left = deadline - now_s ();
      if (left <= 0)
        {
          *timed_out = true;
          break;
        }
      struct pollfd pfd = { .fd = fd, .events = POLLIN };
      int pr = poll (&pfd, 1, left > 1e6 ? 1000000000 : (int) (left * 1000) + 1);
      if (pr < 0 && errno == EINTR)
        continue;
      if (pr <= 0)
        continue;
      if (n == cap && cap < max)
        {
          size_t grown = cap * 2 < max ? cap * 2 : max;
          char *b = realloc (buf, grown + 1);
          if (b == NULL)
            {
              ok = false;
              break;
            }
          buf = b, cap = grown;
        }
      /* past `max`: read on into a scratch buffer, so that the helper is
       * not blocked on a full pipe; the surplus is dropped */
      char scratch[4096];
      const bool full = n == cap;
      ssize_t r = read (fd, full ? scratch : buf + n, full ? sizeof scratch : cap - n);
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        break;
      if (!full)
        n += (size_t) r;
    }
  close (fd);
  if (*timed_out)
    kill (pid, SIGKILL);
  while (waitpid (pid, status, 0) < 0 && errno == EINTR)
    ;
  if (!ok)
    {
      free (buf);
      return false;
    }
  buf[n] = '\0';
  *out = buf;
  *len = n;
  return true;
}

bool
rw_helper_failure (const char *path, const char *library, double limit_s, bool timed_out, int status,
                   RwError *err)
{
  if (timed_out)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("%s: %s did not finish reading the file in %.0f s; the file is probably damaged"), path,
                    library, limit_s);
  if (WIFSIGNALED (status))
    return rw_fail (err, RW_ERROR_INPUT, _("%s: the file is damaged: %s crashed while reading it (%s)"), path,
                    library, strsignal (WTERMSIG (status)));
  return rw_fail (err, RW_ERROR_INPUT, _("%s: the helper process failed (exit status %d)"), path,
                  WIFEXITED (status) ? WEXITSTATUS (status) : -1);
}
