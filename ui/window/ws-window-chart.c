/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The measured plot below the views, built by ws-plot.c from the session's
 * recordings and live measurements; the model's prediction for it runs on
 * the session's model thread, which keeps it for whoever asks again. */
#include <glib/gi18n.h>
#include "ws-window-private.h"

#include <math.h>

const char *
ws_window_sweep_param (WsWindow *self)
{
  return ws_preset_sweep_param (self->preset, self->pattern);
}

void
ws_window_plot_sources (WsWindow      *self,
                        WsPlotSources *sources,
                        GPtrArray     *recordings)
{
  ws_plot_sources_from_session (sources, self->session, recordings);
}

/* ------------------------------------------------------------------ */
/* The model's prediction, on a thread of its own                     */
/* ------------------------------------------------------------------ */

typedef struct
{
  GPtrArray *patterns;       /* WsPattern, NULL where there is nothing to predict */
  GPtrArray *presets;        /* the preset whose kernel runs each, or NULL */
  WsDeviceProfile *profile;  /* a copy, or NULL: the time needs one */
  WsSpace space;
} Prediction;

static void
prediction_free (Prediction *p)
{
  g_ptr_array_unref (p->patterns);
  g_ptr_array_unref (p->presets);
  g_clear_pointer (&p->profile, ws_device_profile_free);
  g_free (p);
}

/* What the model predicts for each x of the chart, and what it is called
 * ("sectors per request"); shared by whoever asks for the same key. */
typedef struct
{
  GArray *values;            /* WsPlotPrediction */
  const char *name;
} Predicted;

static void
predicted_clear (gpointer data)
{
  g_array_unref (((Predicted *) data)->values);
}

static void
predicted_unref (gpointer data)
{
  g_rc_box_release_full (data, predicted_clear);
}

static gpointer
predict_job (gpointer      data,
             GCancellable *cancellable,
             GError      **error)
{
  Prediction *p = data;
  const char *name = NULL;
  GArray *values = ws_plot_predict (p->patterns, p->presets, p->space, p->profile, &name, cancellable);
  Predicted *out;

  if (values == NULL || g_cancellable_set_error_if_cancelled (cancellable, error))
    {
      g_clear_pointer (&values, g_array_unref);
      if (error && *error == NULL)
        g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
      return NULL;
    }
  out = g_rc_box_new0 (Predicted);
  out->values = values;
  out->name = name;
  return out;
}

static void
predict_done (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr (WsWindow) self = user_data;
  Predicted *p = ws_session_model_finish (WS_SESSION (source), result, NULL);

  g_assert (WS_IS_WINDOW (self));

  if (p == NULL)
    return;
  self->predicting = FALSE;
  g_clear_pointer (&self->prediction, predicted_unref);
  self->prediction = p;
  ws_window_rebuild_chart (self);
}

/* The prediction for key if it is at hand (the one the chart shows, or one
 * the session kept); else starts it on the session's model thread. */
static const Predicted *
prediction_for (WsWindow   *self,
                const char *key,
                GPtrArray  *patterns,
                GPtrArray  *presets)
{
  const WsDeviceProfile *profile = ws_session_get_device_profile (self->session);
  Prediction *p;
  Predicted *kept;

  /* the one shown, or the one on its way */
  if (g_strcmp0 (self->prediction_key, key) == 0 && (self->prediction || self->predicting))
    {
      g_ptr_array_unref (patterns);
      g_ptr_array_unref (presets);
      return self->prediction;
    }
  g_free (self->prediction_key);
  self->prediction_key = g_strdup (key);
  g_cancellable_cancel (self->prediction_cancellable);
  g_clear_object (&self->prediction_cancellable);
  if ((kept = ws_session_model_lookup (self->session, key)))
    {
      g_ptr_array_unref (patterns);
      g_ptr_array_unref (presets);
      g_clear_pointer (&self->prediction, predicted_unref);
      self->prediction = kept;
      self->predicting = FALSE;
      return kept;
    }
  g_clear_pointer (&self->prediction, predicted_unref);
  self->prediction_cancellable = g_cancellable_new ();
  p = g_new0 (Prediction, 1);
  p->patterns = patterns;
  p->presets = presets;
  p->profile = profile ? ws_device_profile_copy (profile) : NULL;
  p->space = ws_window_shown_space (self);
  self->predicting = TRUE;
  ws_session_model_async (self->session, key, predict_job, p, (GDestroyNotify) prediction_free, g_rc_box_acquire,
                          predicted_unref, self->prediction_cancellable, predict_done, g_object_ref (self));
  return NULL;
}

void
ws_window_chart_dispose (WsWindow *self)
{
  g_cancellable_cancel (self->prediction_cancellable);
  g_clear_object (&self->prediction_cancellable);
  g_clear_pointer (&self->prediction, predicted_unref);
  g_clear_pointer (&self->prediction_key, g_free);
}

/* ------------------------------------------------------------------ */

char *
ws_window_pattern_key (WsWindow *self)
{
  return ws_pattern_sweep_key (self->pattern, ws_window_sweep_param (self));
}

/* What the prediction is for: the plot's x values, the space shown and
 * the device the time is predicted on. */
static char *
prediction_key (WsWindow   *self,
                const char *key,
                const char *param)
{
  const WsDeviceProfile *profile = ws_session_get_device_profile (self->session);
  g_autofree char *device = g_strdup_printf ("%s\n%s", profile ? profile->id : "", ws_session_get_profile_source (self->session) ? ws_session_get_profile_source (self->session) : "");

  if (param)
    return g_strdup_printf ("sweep\n%s\n%d\n%s\n%d", key, ws_window_shown_space (self), device, self->edited);
  return g_strdup_printf ("topic\n%s\n%s\n%d\n%s", self->preset ? self->preset->topic : "",
                          self->edited ? key : "", ws_window_shown_space (self), device);
}

#define CHART_INTERVAL_US (80 * 1000)

static gboolean
rebuild_chart_now (gpointer data)
{
  WsWindow *self = data;

  g_assert (WS_IS_WINDOW (self));

  self->chart_timeout = 0;
  ws_window_rebuild_chart (self);
  return G_SOURCE_REMOVE;
}

void
ws_window_queue_chart (WsWindow *self)
{
  gint64 wait;

  if (self->chart_timeout != 0)
    return;
  wait = self->chart_built_at + CHART_INTERVAL_US - g_get_monotonic_time ();
  self->chart_timeout = g_timeout_add ((guint) CLAMP (wait / 1000, 0, 100), rebuild_chart_now, self);
}

char *
ws_window_format_day (GDateTime *t)
{
  g_autoptr (GDateTime) local = g_date_time_to_local (t);

  return g_date_time_format (local, "%x");
}

/* ------------------------------------------------------------------ */
/* What the plot shows                                                */
/* ------------------------------------------------------------------ */

/* The chooser's items, for the instruction's space: the count's name is
 * the space's, the coalescing only for sectors. */
static void
update_metric_items (WsWindow *self,
                     WsSpace   space)
{
  g_autoptr (GtkStringList) names = gtk_string_list_new (NULL);

  if ((int) space == self->metric_space)
    return;
  self->metric_space = space;
  self->n_metric_items = 0;
  for (WsPlotMetric m = 0; m < WS_N_PLOT_METRICS; m++)
    if (ws_plot_metric_applies (m, space))
      {
        g_autofree char *name = g_strdup (ws_plot_metric_title (m, space));

        /* a title on its own: "Effective bandwidth" */
        name[0] = g_ascii_toupper (name[0]);
        self->metric_items[self->n_metric_items++] = m;
        gtk_string_list_append (names, name);
      }
  self->setting_metric = TRUE;
  gtk_drop_down_set_model (self->metric_dropdown, G_LIST_MODEL (names));
  self->setting_metric = FALSE;
}

/* The chooser shows what the plot does, for the space shown. */
static void
show_metric (WsWindow *self)
{
  WsSpace space = ws_window_shown_space (self);

  update_metric_items (self, space);
  if (!ws_plot_metric_applies (self->metric, space))
    self->metric = WS_PLOT_TIME;
  for (guint i = 0; i < self->n_metric_items; i++)
    if (self->metric_items[i] == self->metric && gtk_drop_down_get_selected (self->metric_dropdown) != i)
      {
        self->setting_metric = TRUE;
        gtk_drop_down_set_selected (self->metric_dropdown, i);
        self->setting_metric = FALSE;
      }
}

void
ws_window_set_metric (WsWindow    *self,
                      WsPlotMetric metric)
{
  g_return_if_fail (WS_IS_WINDOW (self));

  if (metric == self->metric)
    return;
  self->metric = metric;
  ws_window_rebuild_chart (self);
}

static void
on_metric_selected (WsWindow *self)
{
  guint i = gtk_drop_down_get_selected (self->metric_dropdown);

  if (self->setting_metric || i >= self->n_metric_items)
    return;
  ws_window_set_metric (self, self->metric_items[i]);
}

void
ws_window_chart_init (WsWindow *self)
{
  self->metric_space = -1;
  g_signal_connect_object (self->metric_dropdown, "notify::selected", G_CALLBACK (on_metric_selected), self,
                           G_CONNECT_SWAPPED);
}

/* The measured plot of the pattern shown, as it stands. */
WsChart *
ws_window_build_chart (WsWindow *self)
{
  g_autofree char *key = ws_window_pattern_key (self);
  const char *param = ws_window_sweep_param (self);
  g_autofree char *pkey = prediction_key (self, key, param);
  g_autoptr (GPtrArray) recordings = ws_session_dup_recordings (self->session);
  WsPlotInput in = {
    .preset = self->preset,
    .pattern = self->pattern,
    .edited = self->edited,
    .sweep_param = param,
    .key = key,
    .replayed = ws_window_sweep_points (self, key, TRUE),
    .sweeping = ws_window_sweep_points (self, key, FALSE),
  };
  WsPlotSources sources;
  const Predicted *predicted;

  if (!ws_plot_metric_applies (self->metric, ws_window_shown_space (self)))
    self->metric = WS_PLOT_TIME;
  in.metric = self->metric;
  in.space = ws_window_shown_space (self);
  predicted = prediction_for (self, pkey, ws_plot_prediction_patterns (&in), ws_plot_prediction_presets (&in));
  in.prediction = predicted ? predicted->values : NULL;
  in.prediction_name = predicted ? predicted->name : NULL;
  in.model_device = ws_session_get_device_profile (self->session)
                      ? ((WsDeviceProfile *) ws_session_get_device_profile (self->session))->name : NULL;
  ws_window_plot_sources (self, &sources, recordings);
  return ws_plot_build (&in, &sources);
}

void
ws_window_rebuild_chart (WsWindow *self)
{
  WsChart *chart;

  /* a pattern the editor marks wrong has no model, and its old points are not its own */
  if (self->pattern_wrong)
    {
      chart = ws_chart_new ();
      ws_chart_set_title (chart, _("The pattern has an error"), NULL);
      ws_chart_set_message (chart, _("Fix the pattern in the editor to see its plot and the model's."));
      ws_chart_view_set_chart (self->chart, chart);
      return;
    }
  chart = ws_window_build_chart (self);

  if (!ws_session_get_recording_loaded (self->session) || !ws_session_get_probed (self->session))
    ws_chart_set_message (chart, _("Looking for a GPU and the recorded measurements…"));
  else if (ws_session_get_device (self->session))
    ws_chart_set_message (chart, _("Measuring…"));
  else
    ws_chart_set_message (chart, _("No measurement of this pattern: there is no GPU, and the recording has none."));
  ws_chart_view_set_chart (self->chart, chart);
  show_metric (self);
  ws_window_place_divider (self);
  g_clear_handle_id (&self->chart_timeout, g_source_remove);
  self->chart_built_at = g_get_monotonic_time ();
}
