/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Sweeps in the window: measured point by point on the GPU by the session,
 * or replayed from its recording without one; a progress bar and a cancel
 * button either way. */
#include <glib/gi18n.h>
#include "ws-window-private.h"

#define REPLAY_MS 100

gboolean
ws_window_is_sweeping (WsWindow *self)
{
  return self->sweep_cancellable != NULL || self->replay_timeout != 0;
}

/* The count goes into the status, an inscription whose new text only
 * draws again: in the progress bar, new text would lay the window out. */
static void
show_sweep_progress (WsWindow *self)
{
  gboolean running = ws_window_is_sweeping (self);
  g_autofree char *text = NULL;

  gtk_stack_set_visible_child (self->sweep_stack, running ? self->sweep_running : self->sweep_button);
  if (!running)
    return;
  gtk_progress_bar_set_fraction (self->sweep_progress,
                                 self->sweep_total ? (double) self->sweep_done / self->sweep_total : 0);
  if (self->sweep_total == 0)
    text = g_strdup_printf (ngettext ("Sweeping: %u point so far", "Sweeping: %u points so far", self->sweep_done),
                            self->sweep_done);
  else if (self->sweep_replayed)
    text = g_strdup_printf (ngettext ("Replaying the recorded sweep: %u of %u point",
                                      "Replaying the recorded sweep: %u of %u points", self->sweep_total),
                            self->sweep_done, self->sweep_total);
  else
    text = g_strdup_printf (ngettext ("Sweeping: %u of %u point", "Sweeping: %u of %u points", self->sweep_total),
                            self->sweep_done, self->sweep_total);
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
queue_sweep_progress (WsWindow *self)
{
  if (self->progress_timeout == 0)
    self->progress_timeout = g_timeout_add (80, show_progress_now, self);
}

static void
end_sweep (WsWindow   *self,
           const char *status)
{
  g_clear_handle_id (&self->replay_timeout, g_source_remove);
  g_clear_handle_id (&self->progress_timeout, g_source_remove);
  g_clear_object (&self->sweep_cancellable);
  /* a replayed sweep's points are the recording's, which the chart shows anyway */
  if (self->sweep_replayed)
    g_clear_pointer (&self->sweep_points, g_ptr_array_unref);
  ws_window_set_status (self, status);
  show_sweep_progress (self);
  ws_window_rebuild_chart (self);
  ws_window_update_actions (self);
}

static void
on_sweep_progress (WsWindow            *self,
                   guint                done,
                   guint                total,
                   const WsMeasurement *latest)
{
  gint64 start = g_get_monotonic_time ();

  g_assert (WS_IS_WINDOW (self));

  /* the window's own sweep, not one a script started on the session */
  if (self->sweep_cancellable == NULL || self->sweep_replayed)
    return;

  self->sweep_done = done;
  self->sweep_total = total;
  if (latest)
    {
      g_ptr_array_add (self->sweep_points, ws_measurement_copy (latest));
      ws_window_queue_chart (self);
    }
  queue_sweep_progress (self);
  ws_window_note_callback (self, start);
}

/* What a live sweep asked for: what resuming it asks again. */
typedef struct
{
  WsWindow *self;
  WsMeasureRequest *request;
  char *param;
  GArray *values;                  /* NULL: the standard sweep */
} Asked;

static void
asked_free (Asked *a)
{
  g_object_unref (a->self);
  ws_measure_request_free (a->request);
  g_free (a->param);
  g_clear_pointer (&a->values, g_array_unref);
  g_free (a);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Asked, asked_free)

static void
sweep_done (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr (Asked) asked = user_data;
  WsWindow *self = asked->self;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) points = ws_session_sweep_finish (WS_SESSION (source), result, &error);
  gint64 start = g_get_monotonic_time ();

  g_assert (WS_IS_WINDOW (self));

  /* a sweep cancelled is over already */
  if (g_task_get_cancellable (G_TASK (result)) != self->sweep_cancellable)
    return;
  if (points)
    {
      g_autofree char *name = ws_text_for_message (ws_session_get_device (self->session)->name);
      g_autofree char *text = g_strdup_printf (_("Sweep done: %u points measured on %s"), points->len, name);
      /* the points are the session's live measurements now */
      g_clear_pointer (&self->sweep_points, g_ptr_array_unref);
      end_sweep (self, text);
      ws_window_sweep_stopped (self, NULL, NULL, NULL, NULL);
    }
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    end_sweep (self, _("Sweep cancelled"));
  else
    {
      g_autofree char *text = g_strdup_printf (_("The sweep stopped: %s"), error->message);

      /* the points it measured are the session's live ones now */
      g_clear_pointer (&self->sweep_points, g_ptr_array_unref);
      end_sweep (self, text);
      ws_window_sweep_stopped (self, asked->request, asked->param, asked->values, error);
    }
  ws_window_show_measured (self);
  ws_window_note_callback (self, start);
}

static gboolean
replay_next (gpointer data)
{
  WsWindow *self = data;
  gint64 start = g_get_monotonic_time ();

  g_assert (WS_IS_WINDOW (self));

  if (self->replay_index >= self->replay_points->len)
    {
      g_autofree char *text = g_strdup_printf (_("Replayed %u recorded points"), self->replay_points->len);
      self->replay_timeout = 0;
      end_sweep (self, text);
      return G_SOURCE_REMOVE;
    }
  g_ptr_array_add (self->sweep_points, ws_measurement_copy (g_ptr_array_index (self->replay_points,
                                                                               self->replay_index++)));
  self->sweep_done = self->replay_index;
  queue_sweep_progress (self);
  ws_window_queue_chart (self);
  ws_window_note_callback (self, start);
  return G_SOURCE_CONTINUE;
}

static gint
compare_by_param (gconstpointer a,
                  gconstpointer b,
                  gpointer      param)
{
  gint64 x = 0, y = 0;

  ws_measurement_get_param (*(WsMeasurement **) a, param, &x);
  ws_measurement_get_param (*(WsMeasurement **) b, param, &y);
  return (x > y) - (x < y);
}

static void
start_replay (WsWindow   *self,
              const char *param)
{
  g_clear_pointer (&self->replay_points, g_ptr_array_unref);
  self->replay_points = ws_plot_recorded (ws_session_get_recording (self->session), self->preset->id, self->pattern,
                                          param);
  g_ptr_array_sort_with_data (self->replay_points, compare_by_param, (gpointer) param);
  self->sweep_replayed = TRUE;
  self->replay_index = 0;
  self->sweep_total = self->replay_points->len;
  self->replay_timeout = g_timeout_add (REPLAY_MS, replay_next, self);
  ws_window_set_status (self, _("Replaying the recorded sweep, point by point"));
}

static void
start_live_sweep (WsWindow               *self,
                  const WsMeasureRequest *request,
                  const char             *param,
                  GArray                 *values)
{
  Asked *asked = g_new0 (Asked, 1);

  asked->self = g_object_ref (self);
  asked->request = ws_measure_request_copy (request);
  asked->param = g_strdup (param);
  asked->values = values ? g_array_ref (values) : NULL;
  self->sweep_replayed = FALSE;
  self->sweep_total = values ? values->len : 0;
  self->sweep_cancellable = g_cancellable_new ();
  ws_window_sweep_stopped (self, NULL, NULL, NULL, NULL);
  ws_window_set_status (self, _("Sweeping…"));
  ws_session_sweep_async (self->session, request, param, values, self->sweep_cancellable, sweep_done, asked);
}

static void
begin (WsWindow *self)
{
  g_clear_pointer (&self->sweep_points, g_ptr_array_unref);
  g_free (self->sweep_key);
  self->sweep_key = ws_window_pattern_key (self);
  self->sweep_points = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_measurement_free);
  self->sweep_done = 0;
}

void
ws_window_sweep_values (WsWindow               *self,
                        const WsMeasureRequest *request,
                        const char             *param,
                        GArray                 *values)
{
  if (ws_window_is_sweeping (self) || ws_session_get_device (self->session) == NULL)
    return;
  ws_window_schedule_measurement (self);
  g_clear_handle_id (&self->measure_timeout, g_source_remove);
  begin (self);
  start_live_sweep (self, request, param, values);
  show_sweep_progress (self);
  ws_window_rebuild_chart (self);
  ws_window_update_actions (self);
}

void
ws_window_start_sweep (WsWindow *self)
{
  const char *param = ws_window_sweep_param (self);

  /* a sweep of a pattern the editor marks wrong says why it does not start */
  if (ws_window_pattern_is_wrong (self, TRUE))
    return;
  if (param == NULL || ws_window_is_sweeping (self))
    return;
  ws_window_schedule_measurement (self);
  g_clear_handle_id (&self->measure_timeout, g_source_remove);
  begin (self);
  if (ws_session_get_device (self->session))
    {
      g_autoptr (WsMeasureRequest) request = ws_window_make_request (self, FALSE);
      /* a registered kernel knows which values it can run; an edited
       * pattern sweeps the preset's */
      g_autoptr (GArray) values = request->kernel_id ? NULL : ws_sweep_values_parse (self->preset->sweep_values,
                                                                                     NULL);

      start_live_sweep (self, request, param, values);
    }
  else if (ws_session_get_recording (self->session) && !self->edited)
    start_replay (self, param);
  else
    return;
  show_sweep_progress (self);
  ws_window_rebuild_chart (self);
  ws_window_update_actions (self);
}

void
ws_window_cancel_sweep (WsWindow *self)
{
  if (!ws_window_is_sweeping (self))
    return;
  if (self->sweep_cancellable)
    g_cancellable_cancel (self->sweep_cancellable);
  /* a replay stops here; a live sweep when its task returns */
  g_clear_object (&self->sweep_cancellable);
  g_clear_pointer (&self->sweep_points, g_ptr_array_unref);
  end_sweep (self, _("Sweep cancelled"));
}

void
ws_window_sweep_init (WsWindow *self)
{
  g_signal_connect_object (self->session, "sweep-progress", G_CALLBACK (on_sweep_progress), self,
                           G_CONNECT_SWAPPED);
}
