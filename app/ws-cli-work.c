/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-config.h"
#include "ws-cli-work.h"
#include "ws-cli-measuring.h"

#include <glib-unix.h>
#include <signal.h>

typedef struct
{
  WsCliWorkFunc func;
  gpointer data;
  GCancellable *cancellable;
  WsAnalysisProgress progress;
  gpointer result;
  GError *error;
  int done;
} Work;

static gpointer
work_thread (gpointer data)
{
  Work *w = data;

  w->result = w->func (w->data, w->cancellable, &w->progress, &w->error);
  g_atomic_int_set (&w->done, TRUE);
  g_main_context_wakeup (NULL);
  return NULL;
}

static gboolean
on_interrupt (gpointer cancellable)
{
  g_cancellable_cancel (cancellable);
  return G_SOURCE_CONTINUE;
}

static gboolean
on_tick (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

gpointer
ws_cli_run_work (WsCliWorkFunc func,
                 gpointer      data,
                 const char   *what,
                 GError      **error)
{
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  Work w = { func, data, cancellable };
  gint64 start = g_get_monotonic_time ();
  WsCliProgress bar;
  GThread *thread;
  guint interrupt, tick;
  gboolean drawn = FALSE;

  ws_cli_progress_init (&bar, 1);
  bar.what = what;
  interrupt = g_unix_signal_add (SIGINT, on_interrupt, cancellable);
  tick = g_timeout_add (100, on_tick, NULL);
  thread = g_thread_new ("ws-cli-work", work_thread, &w);
  while (!g_atomic_int_get (&w.done))
    {
      g_main_context_iteration (NULL, TRUE);
      /* only work that takes a while gets a bar */
      if (g_get_monotonic_time () - start > G_USEC_PER_SEC / 2)
        {
          ws_cli_progress_draw (&bar, (guint) MIN (g_atomic_pointer_get (&w.progress.blocks_done), G_MAXUINT32),
                                (guint) MIN (MAX (g_atomic_pointer_get (&w.progress.blocks_total), 1), G_MAXUINT32));
          drawn = TRUE;
        }
    }
  g_thread_join (thread);
  g_source_remove (tick);
  g_source_remove (interrupt);
  if (drawn)
    ws_cli_progress_clear (&bar);
  if (w.error)
    g_propagate_error (error, w.error);
  return w.result;
}
