/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The session the measuring subcommands run on (the window's backend
 * thread and GPU worker process, waited for here) and their progress on a
 * terminal. */
#include "ws-config.h"
#include "ws-cli-measuring.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

void
ws_cli_progress_init (WsCliProgress *p,
                      guint          points)
{
  memset (p, 0, sizeof *p);
  p->tty = isatty (STDERR_FILENO);
  p->points = MAX (points, 1);
  p->sweep_start = G_MAXUINT;
}

/* done of total within the current point (samples of a measurement, or
 * points of a sweep that counts as points of its own). */
void
ws_cli_progress_draw (WsCliProgress *p,
                      guint          done,
                      guint          total)
{
  double fraction = MIN (1, (p->point + (total ? (double) done / total : 0)) / p->points);
  char bar[31];
  gint64 now = g_get_monotonic_time ();
  guint filled = (guint) (fraction * 30);

  if (!p->tty || (now - p->last_us < 50000 && done != total))
    return;
  p->last_us = now;
  memset (bar, '#', filled);
  memset (bar + filled, '.', 30 - filled);
  bar[30] = '\0';
  fprintf (stderr, "\r[%s] %3d %%  %u/%u  %-40.40s", bar, (int) (fraction * 100), MIN (p->point + 1, p->points),
           p->points, p->what ? p->what : "");
  fflush (stderr);
}

void
ws_cli_progress_clear (WsCliProgress *p)
{
  if (p->tty)
    fprintf (stderr, "\r%100s\r", "");
}

/* ------------------------------------------------------------------ */
/* The session: the same backend thread and GPU worker as the window  */
/* ------------------------------------------------------------------ */

static void
on_measure_progress (WsSession     *session,
                     guint          done,
                     guint          total,
                     WsCliProgress *p)
{
  if (p->sweep_start == G_MAXUINT)
    ws_cli_progress_draw (p, done, total);
}

/* A sweep's points are points of the bar: the sweep started at sweep_start. */
static void
on_sweep_progress (WsSession           *session,
                   guint                done,
                   guint                total,
                   const WsMeasurement *latest,
                   WsCliProgress       *p)
{
  if (p->sweep_start == G_MAXUINT)
    return;
  p->point = p->sweep_start + done;
  ws_cli_progress_draw (p, 0, 1);
}

/* What the worker's start says, on a terminal: a Slurm job waits. */
static void
on_connection (WsSession  *session,
               GParamSpec *pspec,
               gpointer    data)
{
  if (ws_session_get_connection (session) == WS_SESSION_CONNECTION_QUEUED && isatty (STDERR_FILENO))
    {
      g_autofree char *described = ws_session_describe_gpu (session);
      /* it may quote the command given: control characters as escapes */
      g_autofree char *where = ws_text_printable (described, 0);

      fputc ('\r', stderr);
      /* Translators: %s is where the GPU is: a Slurm job waiting in the queue */
      fprintf (stderr, _("%s (Ctrl+C withdraws it)"), where);
      fflush (stderr);
    }
}

WsSession *
ws_cli_session_new (WsCliProgress     *progress,
                    const WsGpuTarget *target)
{
  g_autoptr (WsBackend) backend = target ? ws_backend_new_for_target (target) : NULL;
  WsSession *session = ws_session_new (backend);

  g_signal_connect (session, "notify::connection", G_CALLBACK (on_connection), NULL);
  if (progress)
    {
      progress->sweep_start = G_MAXUINT;
      g_signal_connect (session, "measure-progress", G_CALLBACK (on_measure_progress), progress);
      g_signal_connect (session, "sweep-progress", G_CALLBACK (on_sweep_progress), progress);
    }
  return session;
}

static void
got_result (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

/* Runs the main context until an asynchronous call has answered. */
static GAsyncResult *
wait_for (GAsyncResult **result)
{
  while (*result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *result;
}

const WsDeviceInfo *
ws_cli_probe (WsSession *session,
              GError   **error)
{
  ws_session_probe (session);
  while (!ws_session_get_probed (session))
    g_main_context_iteration (NULL, TRUE);
  if (ws_session_get_device (session) == NULL)
    {
      g_propagate_error (error, g_error_copy (ws_session_get_probe_error (session)));
      return NULL;
    }
  return ws_session_get_device (session);
}

WsMeasurement *
ws_cli_run_measure (WsSession              *session,
                    const WsMeasureRequest *request,
                    GError                **error)
{
  g_autoptr (GAsyncResult) result = NULL;

  ws_session_measure_async (session, request, NULL, got_result, &result);
  return ws_session_measure_finish (session, wait_for (&result), error);
}

WsMeasurement *
ws_cli_run_count (WsSession       *session,
                  const WsPattern *pattern,
                  gboolean         hold,
                  GError         **error)
{
  g_autoptr (GAsyncResult) result = NULL;

  ws_session_count_async (session, pattern, hold, NULL, got_result, &result);
  return ws_session_count_finish (session, wait_for (&result), error);
}

static void
on_calibrate_progress (WsBackend           *backend,
                       guint                done,
                       guint                total,
                       const WsMeasurement *latest,
                       gpointer             user_data)
{
  if (user_data)
    ws_cli_progress_draw (user_data, done, total);
}

WsSessionCalibration *
ws_cli_run_calibrate (WsSession             *session,
                      const WsDeviceProfile *base,
                      const char            *base_name,
                      WsCliProgress         *progress,
                      GError               **error)
{
  g_autoptr (GAsyncResult) result = NULL;

  ws_session_calibrate_async (session, base, base_name, on_calibrate_progress, progress, NULL, NULL, got_result,
                              &result);
  return ws_session_calibrate_finish (session, wait_for (&result), error);
}
