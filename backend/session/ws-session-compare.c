/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The session's comparison: two to four presets (or kernels of one's own) side by side. The model
 * costs them on the session's model thread; the GPU, when there is one and the comparison is
 * wanted, measures one item after another through the session's one
 * measurement path. */
#include "ws-config.h"
#include "ws-session-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

static void
comparison_changed (WsSession *self)
{
  g_signal_emit (self, ws_session_signals[WS_SESSION_SIGNAL_COMPARISON_CHANGED], 0);
}

/* ------------------------------------------------------------------ */
/* The model's costs, on a thread                                     */
/* ------------------------------------------------------------------ */

static gpointer
cost_job (gpointer      data,
          GCancellable *cancellable,
          GError      **error)
{
  GPtrArray *items = data;
  g_autofree WsCompareCost *costs = g_new0 (WsCompareCost, WS_COMPARE_MAX);

  for (guint i = 0; i < items->len; i++)
    if (!ws_compare_item_cost (g_ptr_array_index (items, i), &costs[i], cancellable, error))
      return NULL;
  return g_steal_pointer (&costs);
}

static void
cost_done (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  WsSession *self = WS_SESSION (source);
  g_autoptr (GError) error = NULL;
  g_autofree WsCompareCost *costs = ws_session_model_finish (self, result, &error);

  g_assert (WS_IS_SESSION (self));

  if (costs == NULL)
    return;
  memcpy (self->costs, costs, sizeof self->costs);
  self->costed = TRUE;
  comparison_changed (self);
}

/* On the session's model thread, with every other job of the model. */
static void
start_costs (WsSession *self)
{
  GPtrArray *items = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_compare_item_free);

  for (guint i = 0; i < self->comparison->len; i++)
    g_ptr_array_add (items, ws_compare_item_copy (g_ptr_array_index (self->comparison, i)));
  self->costed = FALSE;
  ws_session_model_async (self, NULL, cost_job, items, (GDestroyNotify) g_ptr_array_unref, NULL, g_free,
                          self->comparison_cancellable, cost_done, NULL);
}

/* ------------------------------------------------------------------ */
/* Live measurements, one item after another                          */
/* ------------------------------------------------------------------ */

static double
item_x (const WsCompareItem *item)
{
  const char *param = ws_preset_sweep_param (ws_preset_lookup (item->id), item->pattern);
  gint64 x;

  return param && ws_pattern_get_param (item->pattern, param, &x) ? x : NAN;
}

static void
compare_measure_done (GObject      *source,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  WsSession *self = WS_SESSION (source);
  g_autoptr (GCancellable) cancellable = user_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsMeasurement) m = ws_session_measure_finish (self, result, &error);

  g_assert (WS_IS_SESSION (self));

  /* a comparison that changed meanwhile has started anew */
  if (g_cancellable_is_cancelled (cancellable))
    return;
  self->comparison_measuring = FALSE;
  comparison_changed (self);
  /* after a failure, the next item waits for the comparison to be wanted again */
  if (m)
    ws_session_compare_measure (self);
  else
    g_signal_emit (self, ws_session_signals[WS_SESSION_SIGNAL_MEASURE_FAILED], 0, error);
}

static gboolean
have_live_key (WsSession  *self,
               const char *key)
{
  for (guint i = 0; i < self->live->len; i++)
    if (g_strcmp0 (((WsLiveEntry *) g_ptr_array_index (self->live, i))->key, key) == 0)
      return TRUE;
  return FALSE;
}

/* A kernel of one's own, timed as the presets beside it are (no counters). */
static WsMeasureRequest *
kernel_request (WsSession           *self,
                const WsCompareItem *item)
{
  WsMeasureRequest *request = ws_measure_request_new ();

  request->kernel_text = ws_kernel_spec_copy (item->kernel_spec);
  request->options.samples = self->samples;
  request->options.cold = self->cold;
  return request;
}

void
ws_session_compare_measure (WsSession *self)
{
  g_assert (WS_IS_SESSION (self));

  if (self->comparison == NULL || self->comparison_measuring || !self->measure_comparison || self->device == NULL)
    return;
  for (guint i = 0; i < self->comparison->len; i++)
    {
      WsCompareItem *item = g_ptr_array_index (self->comparison, i);
      g_autoptr (WsMeasureRequest) request = NULL;

      /* one measurement each, kept with the session's others: a kernel
       * of one's own by its text and launch (the Kernel page's of the same
       * text serves too) */
      if (item->kernel)
        {
          if (item->kernel_spec == NULL || have_live_key (self, item->kernel_key))
            continue;
          request = kernel_request (self, item);
        }
      else if (ws_session_find_live_preset (self, item->id, item_x (item)))
        continue;
      else
        request = ws_session_request_for (self, ws_preset_lookup (item->id), item->pattern, FALSE);
      self->comparison_measuring = TRUE;
      ws_session_measure_async (self, request, self->comparison_cancellable, compare_measure_done,
                                g_object_ref (self->comparison_cancellable));
      return;
    }
}

/* ------------------------------------------------------------------ */
/* The items                                                          */
/* ------------------------------------------------------------------ */

gboolean
ws_session_set_comparison (WsSession          *self,
                           const char * const *specs,
                           GError            **error)
{
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_compare_item_free);
  guint n = specs ? g_strv_length ((char **) specs) : 0;

  g_return_val_if_fail (WS_IS_SESSION (self), FALSE);

  if (n < WS_COMPARE_MIN || n > WS_COMPARE_MAX)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("compare %d to %d patterns, not %u"),
                   WS_COMPARE_MIN, WS_COMPARE_MAX, n);
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    {
      WsCompareItem *item = ws_compare_item_new (specs[i], error);
      if (item == NULL)
        return FALSE;
      g_ptr_array_add (items, item);
    }
  ws_compare_items_name (items);
  g_cancellable_cancel (self->comparison_cancellable);
  g_clear_object (&self->comparison_cancellable);
  self->comparison_cancellable = g_cancellable_new ();
  self->comparison_measuring = FALSE;
  g_clear_pointer (&self->comparison, g_ptr_array_unref);
  self->comparison = g_steal_pointer (&items);
  start_costs (self);
  comparison_changed (self);
  ws_session_compare_measure (self);
  return TRUE;
}

GPtrArray *
ws_session_get_comparison (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  return self->comparison;
}

const WsCompareCost *
ws_session_get_comparison_costs (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  return self->costed ? self->costs : NULL;
}

void
ws_session_set_measure_comparison (WsSession *self,
                                   gboolean   measure)
{
  g_return_if_fail (WS_IS_SESSION (self));

  measure = !!measure;
  if (measure == self->measure_comparison)
    return;
  self->measure_comparison = measure;
  g_object_notify_by_pspec (G_OBJECT (self), ws_session_properties[WS_SESSION_PROP_MEASURE_COMPARISON]);
  ws_session_compare_measure (self);
}

gboolean
ws_session_comparison_is_settled (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), FALSE);
  return self->comparison && self->costed && !self->comparison_measuring;
}

void
ws_session_compare_dispose (WsSession *self)
{
  if (self->comparison_cancellable)
    g_cancellable_cancel (self->comparison_cancellable);
  g_clear_object (&self->comparison_cancellable);
  g_clear_pointer (&self->comparison, g_ptr_array_unref);
}
