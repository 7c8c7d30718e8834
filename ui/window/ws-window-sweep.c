/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Sweeps in the window: the session's sweep (ws-sweep.h), measured point
 * by point on the GPU, or replayed from its recording without one; a
 * progress bar and a cancel button either way. The points are the
 * sweep's: the window keeps none. */
#include <glib/gi18n.h>
#include "ws-window-private.h"

#define REPLAY_MS 100

gboolean
ws_window_is_sweeping (WsWindow *self)
{
  WsSweep *sweep = self->session ? ws_session_get_sweep (self->session) : NULL;

  return sweep && ws_sweep_get_running (sweep);
}

/* The count goes into the status, an inscription whose new text only
 * draws again: in the progress bar, new text would lay the window out. */
static void
show_sweep_progress (WsWindow *self)
{
  WsSweep *sweep = ws_session_get_sweep (self->session);
  gboolean running = ws_window_is_sweeping (self);
  guint done, total;
  g_autofree char *text = NULL;

  if (!running)
    {
      ws_plot_panel_show_sweeping (self->plot_panel, FALSE, 0);
      return;
    }
  done = ws_sweep_get_done (sweep);
  total = ws_sweep_get_total (sweep);
  ws_plot_panel_show_sweeping (self->plot_panel, TRUE, total ? (double) done / total : 0);
  if (total == 0)
    text = g_strdup_printf (ngettext ("Sweeping: %u point so far", "Sweeping: %u points so far", done), done);
  else if (ws_sweep_get_replayed (sweep))
    text = g_strdup_printf (ngettext ("Replaying the recorded sweep: %u of %u point",
                                      "Replaying the recorded sweep: %u of %u points", total),
                            done, total);
  else
    text = g_strdup_printf (ngettext ("Sweeping: %u of %u point", "Sweeping: %u of %u points", total), done, total);
  ws_window_set_status (self, text);
}

/* During a sweep, whose points may come a hundred times a second, the
 * progress shows at most every 80 ms. */
static gboolean
show_progress_now (gpointer data)
{
  WsWindow *self = data;

  g_assert (WS_IS_WINDOW (self));

  self->progress_timeout = 0;
  show_sweep_progress (self);
  return G_SOURCE_REMOVE;
}

static void
on_point (WsWindow *self)
{
  gint64 start = g_get_monotonic_time ();

  g_assert (WS_IS_WINDOW (self));

  ws_window_queue_chart (self);
  if (self->progress_timeout == 0)
    self->progress_timeout = g_timeout_add (80, show_progress_now, self);
  ws_window_note_callback (self, start);
}

/* What the status says once a sweep stops. */
static char *
ending (WsWindow *self,
        WsSweep  *sweep)
{
  const GError *error = ws_sweep_get_error (sweep);
  GPtrArray *points = ws_sweep_get_points (sweep);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return g_strdup (_("Sweep cancelled"));
  if (error)
    return g_strdup_printf (_("The sweep stopped: %s"), error->message);
  if (ws_sweep_get_replayed (sweep))
    return g_strdup_printf (_("Replayed %u recorded points"), points->len);
  {
    const WsDeviceInfo *device = ws_session_get_device (self->session);
    g_autofree char *name = ws_text_for_message (device ? device->name : "?");

    return g_strdup_printf (_("Sweep done: %u points measured on %s"), points->len, name);
  }
}

static void
on_finished (WsWindow *self,
             WsSweep  *sweep)
{
  g_autofree char *text = ending (self, sweep);
  gint64 start = g_get_monotonic_time ();

  g_assert (WS_IS_WINDOW (self));

  g_clear_handle_id (&self->progress_timeout, g_source_remove);
  ws_window_set_status (self, text);
  show_sweep_progress (self);
  ws_window_rebuild_chart (self);
  ws_window_update_actions (self);
  /* a sweep a lost connection stopped can resume from the banner */
  ws_window_update_banner (self);
  ws_window_show_measured (self);
  ws_window_note_callback (self, start);
}

/* The session's newest sweep is the one the window shows. */
static void
on_sweep_changed (WsWindow *self)
{
  WsSweep *sweep = ws_session_get_sweep (self->session);

  g_assert (WS_IS_WINDOW (self));

  if (self->sweep_handlers[0])
    {
      g_signal_handler_disconnect (self->shown_sweep, self->sweep_handlers[0]);
      g_signal_handler_disconnect (self->shown_sweep, self->sweep_handlers[1]);
      self->sweep_handlers[0] = self->sweep_handlers[1] = 0;
    }
  g_set_object (&self->shown_sweep, sweep);
  if (sweep == NULL)
    return;
  self->sweep_handlers[0] = g_signal_connect_swapped (sweep, "point", G_CALLBACK (on_point), self);
  self->sweep_handlers[1] = g_signal_connect_swapped (sweep, "finished", G_CALLBACK (on_finished), self);
}

static void
start (WsWindow *self,
       WsSweep  *sweep)
{
  ws_window_schedule_measurement (self);
  g_clear_handle_id (&self->measure_timeout, g_source_remove);
  ws_sweep_start (sweep);
  ws_window_set_status (self, ws_sweep_get_replayed (sweep) ? _("Replaying the recorded sweep, point by point")
                                                            : _("Sweeping…"));
  show_sweep_progress (self);
  ws_window_rebuild_chart (self);
  ws_window_update_actions (self);
  ws_window_update_banner (self);
}

void
ws_window_start_sweep (WsWindow *self)
{
  const char *param = ws_window_sweep_param (self);
  g_autoptr (WsSweep) sweep = NULL;

  /* a sweep of a pattern the editor marks wrong says why it does not start */
  if (ws_window_pattern_is_wrong (self, TRUE))
    return;
  if (param == NULL || ws_window_is_sweeping (self))
    return;
  if (ws_session_get_device (self->session))
    {
      g_autoptr (WsMeasureRequest) request = ws_window_make_request (self, FALSE);
      /* a registered kernel knows which values it can run; an edited
       * pattern sweeps the preset's */
      g_autoptr (GArray) values = request->kernel_id ? NULL : ws_sweep_values_parse (self->preset->sweep_values,
                                                                                     NULL);

      sweep = ws_session_new_sweep (self->session, request, param, values);
    }
  else if (ws_session_get_recording (self->session) && !self->edited)
    {
      g_autoptr (GPtrArray) recorded = ws_plot_recorded (ws_session_get_recording (self->session), self->preset->id,
                                                         self->pattern, param);

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
  ws_window_set_status (self, _("Sweeping…"));
  show_sweep_progress (self);
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
  g_signal_connect_object (self->session, "notify::sweep", G_CALLBACK (on_sweep_changed), self, G_CONNECT_SWAPPED);
  on_sweep_changed (self);
}

void
ws_window_sweep_dispose (WsWindow *self)
{
  g_clear_handle_id (&self->progress_timeout, g_source_remove);
  if (self->sweep_handlers[0])
    {
      g_signal_handler_disconnect (self->shown_sweep, self->sweep_handlers[0]);
      g_signal_handler_disconnect (self->shown_sweep, self->sweep_handlers[1]);
      self->sweep_handlers[0] = self->sweep_handlers[1] = 0;
    }
  g_clear_object (&self->shown_sweep);
}
