/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The compare page: two to four presets side by side. Their views come
 * from the model (the instruction that says most of each), their costs for the
 * whole launch from the model on a worker thread, and their times from the
 * GPU when there is one — measured one after another — else from the
 * recordings. ws-compare.c builds the chart. */
#include "ws-window-private.h"

#include <math.h>
#include <string.h>

static void measure_next (WsWindow *self);

/* ------------------------------------------------------------------ */
/* The chart                                                          */
/* ------------------------------------------------------------------ */

void
ws_window_rebuild_compare (WsWindow *self)
{
  g_autoptr (GPtrArray) recordings = NULL;
  WsPlotSources sources;
  WsChart *chart;

  if (self->compare_items == NULL || self->compare_items->len < WS_COMPARE_MIN)
    return;
  recordings = ws_window_recordings (self);
  ws_window_plot_sources (self, &sources, recordings);
  chart = ws_compare_build_chart (self->compare_items, self->compare_costed ? self->compare_costs : NULL, &sources);
  if (!self->recording_loaded || !self->probed)
    ws_chart_set_message (chart, "Looking for a GPU and the recorded measurements…");
  else if (self->device)
    ws_chart_set_message (chart, "Measuring…");
  ws_chart_view_set_chart (ws_compare_view_get_chart (self->compare), chart);
}

/* ------------------------------------------------------------------ */
/* The model's costs, on a worker thread                              */
/* ------------------------------------------------------------------ */

static void
cost_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  GPtrArray *patterns = task_data;
  WsCompareCost *costs = g_new0 (WsCompareCost, WS_COMPARE_MAX);
  GError *error = NULL;

  for (guint i = 0; i < patterns->len; i++)
    if (!ws_compare_cost_compute (g_ptr_array_index (patterns, i), &costs[i], cancellable, &error))
      {
        g_free (costs);
        g_task_return_error (task, error);
        return;
      }
  g_task_return_pointer (task, costs, g_free);
}

static void
cost_done (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  WsWindow *self = WS_WINDOW (source);
  g_autoptr (GError) error = NULL;
  g_autofree WsCompareCost *costs = g_task_propagate_pointer (G_TASK (result), &error);

  if (costs == NULL)
    return;
  memcpy (self->compare_costs, costs, sizeof self->compare_costs);
  self->compare_costed = TRUE;
  ws_window_rebuild_compare (self);
}

static void
start_costs (WsWindow *self)
{
  g_autoptr (GTask) task = g_task_new (self, self->compare_cancellable, cost_done, NULL);
  GPtrArray *patterns = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_pattern_unref);

  for (guint i = 0; i < self->compare_items->len; i++)
    g_ptr_array_add (patterns, ws_pattern_ref (((WsCompareItem *) g_ptr_array_index (self->compare_items, i))->pattern));
  self->compare_costed = FALSE;
  g_task_set_source_tag (task, start_costs);
  g_task_set_check_cancellable (task, TRUE);
  g_task_set_task_data (task, patterns, (GDestroyNotify) g_ptr_array_unref);
  ws_window_run_in_background (task, cost_thread);
}

/* ------------------------------------------------------------------ */
/* Live measurements, one item after another                          */
/* ------------------------------------------------------------------ */

static double
item_x (const WsCompareItem *item,
        const char         **param)
{
  const WsPreset *preset = ws_preset_lookup (item->id);
  gint64 x;

  *param = ws_preset_sweep_param (preset, item->pattern);
  return *param && ws_pattern_get_param (item->pattern, *param, &x) ? x : NAN;
}

static gboolean
measured_live (WsWindow            *self,
               const WsCompareItem *item)
{
  const char *param;
  double x = item_x (item, &param);

  for (guint i = 0; i < self->live->len; i++)
    {
      const WsLiveEntry *e = g_ptr_array_index (self->live, i);
      if (g_strcmp0 (e->preset_id, item->id) == 0 && (isnan (x) || e->x == x))
        return TRUE;
    }
  return FALSE;
}

static WsCompareItem *
find_item (WsWindow   *self,
           const char *id)
{
  for (guint i = 0; i < self->compare_items->len; i++)
    if (g_str_equal (((WsCompareItem *) g_ptr_array_index (self->compare_items, i))->id, id))
      return g_ptr_array_index (self->compare_items, i);
  return NULL;
}

static void
compare_measure_done (GObject      *source,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  WsMeasureData *d = user_data;
  WsWindow *self = d->self;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsMeasurement) m = ws_backend_measure_finish (WS_BACKEND (source), result, &error);
  gint64 start = g_get_monotonic_time ();

  if (g_cancellable_is_cancelled (d->cancellable) || self->live == NULL)
    {
      ws_window_measure_data_free (d);
      return;
    }
  self->compare_measuring = FALSE;
  if (m)
    {
      WsCompareItem *item = find_item (self, d->key);
      const char *param;
      double x = item ? item_x (item, &param) : NAN;
      g_autofree char *key = item ? ws_pattern_sweep_key (item->pattern, param) : NULL;

      if (item)
        ws_window_add_live_entry (self, key, item->id, x, m);
      ws_window_rebuild_chart (self);
      ws_window_update_actions (self);
    }
  else
    {
      g_autofree char *text = g_strdup_printf ("Could not measure: %s", error->message);
      ws_window_toast (self, text);
    }
  ws_window_rebuild_compare (self);
  ws_window_note_callback (self, start);
  ws_window_measure_data_free (d);
  if (m)
    measure_next (self);
}

/* The first item not measured yet, on the GPU, while the page is in view. */
static void
measure_next (WsWindow *self)
{
  if (self->compare_measuring || !ws_window_comparing (self))
    return;
  for (guint i = 0; self->device && i < self->compare_items->len; i++)
    {
      WsCompareItem *item = g_ptr_array_index (self->compare_items, i);
      g_autoptr (WsMeasureRequest) request = NULL;
      const char *param;
      WsMeasureData *d;

      item_x (item, &param);
      if (measured_live (self, item))
        continue;
      request = ws_window_request_for (self, item->id, item->pattern, param, FALSE);
      d = g_new0 (WsMeasureData, 1);
      d->self = g_object_ref (self);
      d->cancellable = g_object_ref (self->compare_cancellable);
      d->key = g_strdup (item->id);
      self->compare_measuring = TRUE;
      ws_backend_measure_async (self->backend, request, self->compare_cancellable, NULL, NULL, NULL,
                                compare_measure_done, d);
      return;
    }
}

/* ------------------------------------------------------------------ */
/* The presets chosen                                                 */
/* ------------------------------------------------------------------ */

static void
show_cells (WsWindow *self)
{
  for (guint i = 0; i < self->compare_items->len; i++)
    {
      WsCompareItem *item = g_ptr_array_index (self->compare_items, i);
      g_autoptr (WsWarpResult) r = ws_compare_item_analyze (item, NULL);
      /* the chooser above names the preset; an export names it in the caption */
      g_autofree char *caption = ws_pattern_describe_access (item->pattern, item->access);

      ws_compare_view_set_cell (self->compare, i, r, caption, ws_pattern_get_block (item->pattern));
    }
}

static void
on_items_changed (WsWindow *self)
{
  g_auto (GStrv) ids = ws_compare_view_get_ids (self->compare);

  g_cancellable_cancel (self->compare_cancellable);
  g_clear_object (&self->compare_cancellable);
  self->compare_cancellable = g_cancellable_new ();
  self->compare_measuring = FALSE;
  g_clear_pointer (&self->compare_items, g_ptr_array_unref);
  self->compare_items = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_compare_item_free);
  for (guint i = 0; ids[i]; i++)
    g_ptr_array_add (self->compare_items, ws_compare_item_new (ids[i], NULL));
  show_cells (self);
  start_costs (self);
  ws_window_rebuild_compare (self);
  measure_next (self);
  ws_schedule_player_restart (ws_compare_view_get_player (self->compare));
}

gboolean
ws_window_compare_presets (WsWindow           *self,
                           const char * const *ids)
{
  guint n = ids ? g_strv_length ((char **) ids) : 0;

  g_return_val_if_fail (WS_IS_WINDOW (self), FALSE);
  if (n < WS_COMPARE_MIN || n > WS_COMPARE_MAX)
    return FALSE;
  for (guint i = 0; i < n; i++)
    if (ws_preset_lookup (ids[i]) == NULL)
      return FALSE;
  ws_compare_view_set_ids (self->compare, ids);
  gtk_stack_set_visible_child_name (self->page_stack, "compare");
  return TRUE;
}

void
ws_window_compare_measure (WsWindow *self)
{
  if (self->compare_items)
    measure_next (self);
}

gboolean
ws_window_compare_is_settled (WsWindow *self)
{
  return self->compare_items && self->compare_costed && !self->compare_measuring;
}

static void
compare_set_action (GtkWidget  *widget,
                    const char *name,
                    GVariant   *param)
{
  guint n_sets, i = g_variant_get_uint32 (param);
  const WsCompareSet *sets = ws_compare_sets_get_all (&n_sets);

  if (i < n_sets)
    ws_window_compare_presets (WS_WINDOW (widget), sets[i].ids);
}

static GMenuModel *
sets_menu (void)
{
  guint n_sets;
  const WsCompareSet *sets = ws_compare_sets_get_all (&n_sets);
  GMenu *menu = g_menu_new ();

  for (guint i = 0; i < n_sets; i++)
    {
      g_autoptr (GMenuItem) item = g_menu_item_new (sets[i].title, NULL);
      g_menu_item_set_action_and_target_value (item, "win.compare-set", g_variant_new_uint32 (i));
      g_menu_append_item (menu, item);
    }
  return G_MENU_MODEL (menu);
}

void
ws_window_compare_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.compare-set", "u", compare_set_action);
}

void
ws_window_compare_init (WsWindow *self)
{
  g_autoptr (GMenuModel) menu = sets_menu ();
  guint n_sets;
  const WsCompareSet *sets = ws_compare_sets_get_all (&n_sets);

  self->compare_cancellable = g_cancellable_new ();
  ws_compare_view_set_sets_menu (self->compare, menu);
  g_signal_connect_object (self->compare, "items-changed", G_CALLBACK (on_items_changed), self, G_CONNECT_SWAPPED);
  /* the transpose variants, to begin with */
  ws_compare_view_set_ids (self->compare, sets[0].ids);
}

void
ws_window_compare_dispose (WsWindow *self)
{
  if (self->compare_cancellable)
    g_cancellable_cancel (self->compare_cancellable);
  g_clear_object (&self->compare_cancellable);
  g_clear_pointer (&self->compare_items, g_ptr_array_unref);
}
