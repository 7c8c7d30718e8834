/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Sweeps in the window: the session's sweep (ws-sweep.h), measured point
 * by point on the GPU, or replayed from its recording without one. The
 * window starts, resumes and cancels it; the plot panel shows its progress
 * and points (ws-plot-panel.c). The points are the sweep's: the window
 * keeps none. */
#include <glib/gi18n.h>
#include "ws-window-private.h"

#define REPLAY_MS 100

gboolean
ws_window_is_sweeping (WsWindow *self)
{
  WsSweep *sweep = self->session ? ws_session_get_sweep (self->session) : NULL;

  return sweep && ws_sweep_get_running (sweep);
}

/* The panel shows the sweep's progress and says how it ended; the
 * window's actions, banner and measured numbers follow. */
static void
on_finished (WsWindow *self)
{
  gint64 start = g_get_monotonic_time ();

  g_assert (WS_IS_WINDOW (self));

  ws_window_update_actions (self);
  /* a sweep a lost connection stopped can resume from the banner */
  ws_window_update_banner (self);
  ws_explore_page_show_measured (self->explore_page);
  ws_window_note_callback (self, start);
}

static void
start (WsWindow *self,
       WsSweep  *sweep)
{
  /* the sweep measures now: the explorer's own measurement waits */
  ws_explore_page_stop_measuring (self->explore_page);
  /* the plot panel follows the session's sweep: its status, progress and chart */
  ws_sweep_start (sweep);
  ws_window_update_actions (self);
  ws_window_update_banner (self);
}

void
ws_window_start_sweep (WsWindow *self)
{
  const char *param = ws_explore_page_sweep_param (self->explore_page);
  g_autoptr (WsSweep) sweep = NULL;

  /* a sweep of a pattern the editor marks wrong says why it does not start */
  if (ws_window_pattern_is_wrong (self, TRUE))
    return;
  if (param == NULL || ws_window_is_sweeping (self))
    return;
  if (ws_session_get_device (self->session))
    {
      g_autoptr (WsMeasureRequest) request = ws_explore_page_make_request (self->explore_page, FALSE);
      /* a registered kernel knows which values it can run; an edited
       * pattern sweeps the preset's */
      g_autoptr (GArray) values = request->kernel_id ? NULL : ws_sweep_values_parse (explore_preset (self)->sweep_values,
                                                                                     NULL);

      sweep = ws_session_new_sweep (self->session, request, param, values);
    }
  else if (ws_session_get_recording (self->session) && !explore_edited (self))
    {
      g_autoptr (GPtrArray) recorded = ws_plot_recorded (ws_session_get_recording (self->session), explore_preset (self)->id,
                                                         explore_pattern (self), param);

      sweep = ws_session_new_replay (self->session, recorded, param, REPLAY_MS);
    }
  else
    return;
  start (self, sweep);
}

void
ws_window_resume_sweep (WsWindow *self)
{
  WsSweep *sweep = ws_session_get_sweep (self->session);

  if (sweep == NULL || !ws_sweep_resume (sweep))
    {
      ws_window_update_banner (self);
      return;
    }
  ws_window_update_actions (self);
  ws_window_update_banner (self);
}

void
ws_window_cancel_sweep (WsWindow *self)
{
  if (!ws_window_is_sweeping (self))
    return;
  ws_sweep_cancel (ws_session_get_sweep (self->session));
}

void
ws_window_sweep_init (WsWindow *self)
{
  g_signal_connect_object (explore_plot (self), "sweep-finished", G_CALLBACK (on_finished), self, G_CONNECT_SWAPPED);
}
