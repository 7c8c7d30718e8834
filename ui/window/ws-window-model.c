/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The model, for the window: the warp in the views (microseconds, on the
 * main thread) and the whole launch (up to half a second for a big one, on
 * a thread of its own, cancelled when the pattern moves on). */
#include <glib/gi18n.h>
#include "ws-window-private.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

typedef struct
{
  GTask *task;
  GTaskThreadFunc func;
} Background;

static gpointer
background_main (gpointer data)
{
  Background *b = data;

  /* below the main thread, so that frames keep coming while the model runs
   * on every core; the model's own threads inherit this (Linux: per thread) */
  setpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid), 10);
  b->func (b->task, g_task_get_source_object (b->task), g_task_get_task_data (b->task),
           g_task_get_cancellable (b->task));
  g_object_unref (b->task);
  g_free (b);
  return NULL;
}

void
ws_window_run_in_background (GTask          *task,
                             GTaskThreadFunc func)
{
  Background *b = g_new (Background, 1);

  b->task = g_object_ref (task);
  b->func = func;
  g_thread_unref (g_thread_new ("ws-window-model", background_main, b));
}

WsSpace
ws_window_shown_space (WsWindow *self)
{
  const WsAccess *a = ws_pattern_get_access (self->pattern, ws_pattern_editor_get_access (self->editor));

  return a->space;
}

void
ws_window_analyze_warp (WsWindow *self)
{
  g_autoptr (GError) error = NULL;
  WsWarpResult *r;

  r = ws_model_analyze_warp (self->pattern, ws_pattern_editor_get_access (self->editor),
                             ws_pattern_editor_get_block_idx (self->editor), ws_pattern_editor_get_warp (self->editor),
                             &error);
  if (r == NULL)
    {
      /* the last good view stays; the editor says what is wrong */
      ws_pattern_editor_show_error (self->editor, error->message);
      return;
    }
  g_clear_pointer (&self->result, ws_warp_result_free);
  self->result = r;
  ws_window_show_result (self);
}

static void
show_launch (WsWindow *self)
{
  guint access = ws_pattern_editor_get_access (self->editor);
  const WsAccess *a = ws_pattern_get_access (self->pattern, access);
  g_autofree char *what = NULL;

  if (self->launch == NULL || access >= self->launch->n_accesses)
    {
      ws_numbers_view_set_model (self->numbers, NULL, a->space, a->kind, _("Analysing the whole launch…"));
      return;
    }
  what = g_strdup_printf (_("Instruction %u of the whole launch: %llu warps in %llu blocks, analysed in %.0f ms"),
                          access + 1, (unsigned long long) self->launch->warps,
                          (unsigned long long) self->launch->blocks, self->launch->seconds * 1e3);
  ws_numbers_view_set_model (self->numbers, &self->launch->accesses[access], a->space, a->kind, what);
}

static void
analyze_launch_thread (GTask        *task,
                       gpointer      source,
                       gpointer      task_data,
                       GCancellable *cancellable)
{
  GError *error = NULL;
  WsLaunchStats *stats = ws_model_analyze_launch (task_data, cancellable, &error);

  if (stats)
    g_task_return_pointer (task, stats, (GDestroyNotify) ws_launch_stats_free);
  else
    g_task_return_error (task, error);
}

static void
analyze_launch_done (GObject      *source,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  WsWindow *self = WS_WINDOW (source);
  g_autoptr (GError) error = NULL;
  WsLaunchStats *stats = g_task_propagate_pointer (G_TASK (result), &error);

  g_assert (WS_IS_WINDOW (self));

  if (stats == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        ws_pattern_editor_show_error (self->editor, error->message);
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
  g_autoptr (GTask) task = NULL;

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
  task = g_task_new (self, self->model_cancellable, analyze_launch_done, NULL);
  g_task_set_source_tag (task, ws_window_analyze);
  g_task_set_check_cancellable (task, TRUE);
  g_task_set_task_data (task, ws_pattern_ref (self->pattern), (GDestroyNotify) ws_pattern_unref);
  ws_window_run_in_background (task, analyze_launch_thread);
}
