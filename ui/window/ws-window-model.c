/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The model, for the window: the warp in the views (microseconds, on the
 * main thread) and the whole launch (up to half a second for a big one, on
 * the session's model thread, cancelled when the pattern moves on). */
#include <glib/gi18n.h>
#include "ws-window-private.h"


WsSpace
ws_window_shown_space (WsWindow *self)
{
  const WsAccess *a = ws_pattern_get_access (self->pattern, ws_pattern_editor_get_access (explore_editor (self)));

  return a->space;
}

void
ws_window_analyze_warp (WsWindow *self)
{
  g_autoptr (GError) error = NULL;
  WsWarpResult *r;

  r = ws_model_analyze_warp (self->pattern, ws_pattern_editor_get_access (explore_editor (self)),
                             ws_pattern_editor_get_block_idx (explore_editor (self)), ws_pattern_editor_get_warp (explore_editor (self)),
                             &error);
  if (r == NULL)
    {
      /* the last good view stays; the editor says what is wrong */
      ws_pattern_editor_show_error (explore_editor (self), error->message);
      return;
    }
  g_clear_pointer (&self->result, ws_warp_result_free);
  self->result = r;
  ws_window_show_result (self);
}

static void
show_launch (WsWindow *self)
{
  guint access = ws_pattern_editor_get_access (explore_editor (self));
  const WsAccess *a = ws_pattern_get_access (self->pattern, access);
  g_autofree char *what = NULL;

  if (self->launch == NULL || access >= self->launch->n_accesses)
    {
      ws_numbers_view_set_model (explore_numbers (self), NULL, a->space, a->kind, _("Analysing the whole launch…"));
      return;
    }
  what = g_strdup_printf (_("Instruction %u of the whole launch: %llu warps in %llu blocks, analysed in %.0f ms"),
                          access + 1, (unsigned long long) self->launch->warps,
                          (unsigned long long) self->launch->blocks, self->launch->seconds * 1e3);
  ws_numbers_view_set_model (explore_numbers (self), &self->launch->accesses[access], a->space, a->kind, what);
}

static gpointer
analyze_launch_job (gpointer      data,
                    GCancellable *cancellable,
                    GError      **error)
{
  return ws_model_analyze_launch (data, cancellable, error);
}

static void
analyze_launch_done (GObject      *source,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr (WsWindow) self = user_data;
  g_autoptr (GError) error = NULL;
  WsLaunchStats *stats = ws_session_model_finish (WS_SESSION (source), result, &error);

  g_assert (WS_IS_WINDOW (self));

  if (stats == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        ws_pattern_editor_show_error (explore_editor (self), error->message);
      return;
    }
  g_clear_pointer (&self->launch, ws_launch_stats_free);
  self->launch = stats;
  show_launch (self);
  /* below L1, once the launch's own figures are in */
  ws_window_analyze_hierarchy (self);
  /* the counters' figure is set beside the model's */
  ws_window_show_measured (self);
}

void
ws_window_analyze (WsWindow *self)
{
  ws_window_analyze_warp (self);
  /* a launch already analysed for this very pattern only needs showing */
  if (self->launch && self->launch->pattern == self->pattern)
    {
      show_launch (self);
      return;
    }
  g_cancellable_cancel (self->model_cancellable);
  g_clear_object (&self->model_cancellable);
  self->model_cancellable = g_cancellable_new ();
  g_clear_pointer (&self->launch, ws_launch_stats_free);
  show_launch (self);
  ws_window_analyze_hierarchy (self);
  ws_session_model_async (self->session, NULL, analyze_launch_job, ws_pattern_ref (self->pattern),
                          (GDestroyNotify) ws_pattern_unref, NULL, (GDestroyNotify) ws_launch_stats_free,
                          self->model_cancellable, analyze_launch_done, g_object_ref (self));
}
