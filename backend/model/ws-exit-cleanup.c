/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-config.h"
#include "ws-exit-cleanup.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#define MAX_FILES 16
#define MAX_GROUPS 16
#define MAX_PATH 4096

static const int signals[] = { SIGINT, SIGTERM, SIGHUP };

/* A slot is filled before it is marked used and unmarked before it is
 * reused, so that the handler reads only whole paths; the mutex orders the
 * threads that register, never the handler. */
static char files[MAX_FILES][MAX_PATH];
static volatile sig_atomic_t file_used[MAX_FILES];
static volatile pid_t groups[MAX_GROUPS];
static GMutex lock;

static void
on_signal (int sig)
{
  int saved = errno;

  for (guint i = 0; i < MAX_FILES; i++)
    if (file_used[i])
      unlink (files[i]);
  for (guint i = 0; i < MAX_GROUPS; i++)
    if (groups[i] > 1)
      {
        kill (-groups[i], SIGTERM);
        /* one stopped (Ctrl+Z, a debugger) would never see it */
        kill (-groups[i], SIGCONT);
      }
  /* and then what the signal does: the process ends by it */
  signal (sig, SIG_DFL);
  errno = saved;
  raise (sig);
}

/* Installed each time, not once: GLib's g_unix_signal_add () puts the
 * default back when its source goes (warpscope-cli model's Ctrl+C). A
 * signal ignored (nohup) stays ignored. */
static void
install (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (signals); i++)
    {
      struct sigaction old, action = { 0 };

      if (sigaction (signals[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN)
        continue;
      action.sa_handler = on_signal;
      sigemptyset (&action.sa_mask);
      for (guint j = 0; j < G_N_ELEMENTS (signals); j++)
        sigaddset (&action.sa_mask, signals[j]);
      sigaction (signals[i], &action, NULL);
    }
}

void
ws_exit_cleanup_add_file (const char *path)
{
  g_return_if_fail (path != NULL);

  if (strlen (path) >= MAX_PATH)
    return;
  g_mutex_lock (&lock);
  for (guint i = 0; i < MAX_FILES; i++)
    if (!file_used[i])
      {
        strcpy (files[i], path);
        __atomic_thread_fence (__ATOMIC_SEQ_CST);
        file_used[i] = 1;
        break;
      }
  install ();
  g_mutex_unlock (&lock);
}

void
ws_exit_cleanup_remove_file (const char *path)
{
  g_return_if_fail (path != NULL);

  g_mutex_lock (&lock);
  for (guint i = 0; i < MAX_FILES; i++)
    if (file_used[i] && strcmp (files[i], path) == 0)
      {
        file_used[i] = 0;
        __atomic_thread_fence (__ATOMIC_SEQ_CST);
        break;
      }
  g_mutex_unlock (&lock);
}

void
ws_exit_cleanup_add_group (pid_t group)
{
  g_return_if_fail (group > 1);

  g_mutex_lock (&lock);
  for (guint i = 0; i < MAX_GROUPS; i++)
    if (groups[i] == 0)
      {
        groups[i] = group;
        break;
      }
  install ();
  g_mutex_unlock (&lock);
}

void
ws_exit_cleanup_remove_group (pid_t group)
{
  g_mutex_lock (&lock);
  for (guint i = 0; i < MAX_GROUPS; i++)
    if (groups[i] == group)
      {
        groups[i] = 0;
        break;
      }
  g_mutex_unlock (&lock);
}
