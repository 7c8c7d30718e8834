/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The measured plot: median time per launch, recorded and measured now,
 * with the model's metric for the same patterns on the right axis.
 *
 * A preset with a standard sweep plots against its sweep parameter; any
 * other plots the presets of its topic side by side. Both axes start at
 * zero, so that "twice as many sectors" and "twice as long" look alike
 * only when they are. */
#include "ws-window-private.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* What the chart shows                                               */
/* ------------------------------------------------------------------ */

const char *
ws_window_sweep_param (WsWindow *self)
{
  if (self->preset == NULL || self->preset->sweep_param == NULL)
    return NULL;
  if (!ws_pattern_get_param (self->pattern, self->preset->sweep_param, NULL))
    return NULL;
  return self->preset->sweep_param;
}

static GArray *
sweep_values (WsWindow *self)
{
  return ws_sweep_values_parse (self->preset->sweep_values, NULL);
}

static gboolean
params_match (const WsMeasurement *m,
              const WsPattern     *pattern,
              const char          *except)
{
  for (guint i = 0; m->params && i < m->params->len; i++)
    {
      const WsParamValue *p = &g_array_index (m->params, WsParamValue, i);
      gint64 v;

      if (g_strcmp0 (p->name, except) == 0)
        continue;
      if (ws_pattern_get_param (pattern, p->name, &v) && v != p->value)
        return FALSE;
    }
  return TRUE;
}

/* The recorded measurements of a preset whose parameters (other than
 * except) are those of pattern; if none is, every one of the preset (a
 * recording may have run its kernels at sizes of its own). */
GPtrArray *
ws_window_recorded (WsWindow        *self,
                    const char      *id,
                    const WsPattern *pattern,
                    const char      *except)
{
  g_autoptr (GPtrArray) all = NULL;
  GPtrArray *out = g_ptr_array_new ();

  if (self->recording == NULL)
    return out;
  all = ws_recording_find (self->recording, id);
  for (guint i = 0; all && i < all->len; i++)
    if (params_match (g_ptr_array_index (all, i), pattern, except))
      g_ptr_array_add (out, g_ptr_array_index (all, i));
  if (out->len > 0)
    return out;
  for (guint i = 0; all && i < all->len; i++)
    if (except == NULL || ws_measurement_get_param (g_ptr_array_index (all, i), except, NULL))
      g_ptr_array_add (out, g_ptr_array_index (all, i));
  return out;
}

static void
add_point (WsChartSeries       *series,
           double               x,
           const WsMeasurement *m)
{
  ws_chart_series_add (series, x, m->median_ms / 1e3, m->min_ms / 1e3, m->max_ms / 1e3);
}

static char *
recorded_name (WsWindow *self)
{
  const WsDeviceInfo *d = ws_recording_get_device (self->recording);

  return g_strdup_printf ("recorded on %s", d && d->name ? d->name : "an unknown GPU");
}

static char *
live_name (WsWindow *self)
{
  return g_strdup_printf ("measured now on %s", self->device ? self->device->name : "this GPU");
}

/* A preset's title, less an aside that is code ("(x[0])", "(TILE + 1)"):
 * asides that tell presets apart ("(local)", "(shared)") stay. */
static char *
short_title (const char *title)
{
  const char *paren = strstr (title, " (");

  if (paren && (strpbrk (paren, ".*^[+_") || strlen (paren) > 14))
    return g_strndup (title, paren - title);
  return g_strdup (title);
}

static char *
chart_subtitle (WsWindow *self)
{
  GString *s = g_string_new (NULL);

  if (self->device)
    g_string_append_printf (s, "Live on %s", self->device->name);
  if (self->recording)
    {
      const WsDeviceInfo *d = ws_recording_get_device (self->recording);
      GDateTime *date = ws_recording_get_date (self->recording);
      g_autofree char *day = date ? g_date_time_format (date, "%Y-%m-%d") : g_strdup ("?");
      g_string_append_printf (s, "%sRecorded on %s, %s", s->len ? " · " : "", d && d->name ? d->name : "?", day);
    }
  if (s->len == 0)
    g_string_append (s, "Nothing measured: no GPU and no recording");
  g_string_append (s, " · points: median time per launch, bars: fastest to slowest sample");
  return g_string_free (s, FALSE);
}

/* ------------------------------------------------------------------ */
/* The model's prediction, on a worker thread                         */
/* ------------------------------------------------------------------ */

typedef struct
{
  GPtrArray *patterns;       /* WsPattern, NULL where there is nothing to predict */
  WsSpace space;
  const char *name;
} Prediction;

static void
prediction_free (Prediction *p)
{
  g_ptr_array_unref (p->patterns);
  g_free (p);
}

static void
predict_thread (GTask        *task,
                gpointer      source,
                gpointer      task_data,
                GCancellable *cancellable)
{
  Prediction *p = task_data;
  GArray *values = g_array_new (FALSE, FALSE, sizeof (double));

  for (guint i = 0; i < p->patterns->len; i++)
    {
      WsPattern *pattern = g_ptr_array_index (p->patterns, i);
      g_autoptr (WsLaunchStats) stats = NULL;
      double v = NAN;

      if (g_task_return_error_if_cancelled (task))
        {
          g_array_unref (values);
          return;
        }
      if (pattern && (stats = ws_model_analyze_launch (pattern, cancellable, NULL)))
        v = ws_window_model_metric (stats, p->space, &p->name);
      g_array_append_val (values, v);
    }
  g_task_return_pointer (task, values, (GDestroyNotify) g_array_unref);
}

static void
predict_done (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  WsWindow *self = WS_WINDOW (source);
  g_autofree char *key = user_data;
  Prediction *p = g_task_get_task_data (G_TASK (result));
  GArray *values = g_task_propagate_pointer (G_TASK (result), NULL);

  if (values == NULL)
    return;
  self->predicting = FALSE;
  g_clear_pointer (&self->prediction, g_array_unref);
  self->prediction = values;
  g_free (self->prediction_name);
  self->prediction_name = g_strdup (p->name);
  g_free (self->prediction_key);
  self->prediction_key = g_steal_pointer (&key);
  ws_window_rebuild_chart (self);
}

/* Starts a prediction unless the one at hand is for key; returns it if so. */
static GArray *
prediction_for (WsWindow   *self,
                const char *key,
                GPtrArray  *patterns)
{
  g_autoptr (GTask) task = NULL;
  Prediction *p;

  if (self->prediction && g_strcmp0 (self->prediction_key, key) == 0)
    {
      g_ptr_array_unref (patterns);
      return self->prediction;
    }
  g_cancellable_cancel (self->prediction_cancellable);
  g_clear_object (&self->prediction_cancellable);
  self->prediction_cancellable = g_cancellable_new ();
  p = g_new0 (Prediction, 1);
  p->patterns = patterns;
  p->space = ws_window_shown_space (self);
  task = g_task_new (self, self->prediction_cancellable, predict_done, g_strdup (key));
  g_task_set_source_tag (task, prediction_for);
  g_task_set_check_cancellable (task, TRUE);
  g_task_set_task_data (task, p, (GDestroyNotify) prediction_free);
  ws_window_run_in_background (task, predict_thread);
  self->predicting = TRUE;
  return NULL;
}

static void
add_prediction (WsWindow  *self,
                WsChart   *chart,
                GArray    *values,
                const double *xs)
{
  g_autofree char *name = NULL;
  WsChartSeries *series;

  if (values == NULL || self->prediction_name == NULL)
    return;
  name = g_strdup_printf ("model: %s", self->prediction_name);
  ws_chart_set_axis (chart, WS_CHART_Y2, self->prediction_name, NULL, FALSE, WS_AXIS_LINEAR);
  series = ws_chart_add_series (chart, name, WS_SERIES_LINE, WS_CHART_Y2, -1);
  series->dashed = TRUE;
  for (guint i = 0; i < values->len; i++)
    if (!isnan (g_array_index (values, double, i)))
      ws_chart_series_add (series, xs[i], g_array_index (values, double, i), NAN, NAN);
}

/* ------------------------------------------------------------------ */
/* Against the sweep parameter                                        */
/* ------------------------------------------------------------------ */

static gboolean
powers_of_two (GArray *values)
{
  gint64 lo = g_array_index (values, gint64, 0), hi = g_array_index (values, gint64, values->len - 1);

  for (guint i = 0; i < values->len; i++)
    {
      gint64 v = g_array_index (values, gint64, i);
      if (v <= 0 || (v & (v - 1)) != 0)
        return FALSE;
    }
  return hi / lo >= 8;
}

static void
sweep_axis (WsChart *chart,
            const char *param,
            GArray  *values)
{
  gint64 lo = g_array_index (values, gint64, 0), hi = g_array_index (values, gint64, values->len - 1);
  double pad = MAX (0.5, (hi - lo) * 0.03);

  if (powers_of_two (values))
    {
      ws_chart_set_axis (chart, WS_CHART_X, param, NULL, FALSE, WS_AXIS_LOG2);
      ws_chart_set_range (chart, WS_CHART_X, lo / 1.3, hi * 1.3);
    }
  else
    {
      ws_chart_set_axis (chart, WS_CHART_X, param, NULL, FALSE, WS_AXIS_LINEAR);
      ws_chart_set_range (chart, WS_CHART_X, lo - pad, hi + pad);
      chart->axes[WS_CHART_X].integer = TRUE;
    }
}

static GPtrArray *
sweep_patterns (WsWindow   *self,
                const char *param,
                GArray     *values)
{
  GPtrArray *patterns = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_pattern_unref);

  for (guint i = 0; i < values->len; i++)
    {
      WsPattern *p = ws_pattern_copy (self->pattern);
      if (!ws_pattern_set_param (p, param, g_array_index (values, gint64, i), NULL))
        g_clear_pointer (&p, ws_pattern_unref);
      g_ptr_array_add (patterns, p);
    }
  return patterns;
}

static void
add_recorded_sweep (WsWindow   *self,
                    WsChart    *chart,
                    const char *param)
{
  g_autofree char *name = NULL;
  g_autoptr (GPtrArray) found = NULL;
  WsChartSeries *series;
  gboolean replaying = self->sweep_replayed && self->sweep_points != NULL;

  if (self->recording == NULL || self->edited)
    return;
  name = recorded_name (self);
  series = ws_chart_add_series (chart, name, WS_SERIES_POINTS, WS_CHART_Y, 0);
  /* while a recorded sweep is replayed, only what it has played so far */
  found = replaying ? g_ptr_array_ref (self->sweep_points) : ws_window_recorded (self, self->preset->id, self->pattern, param);
  for (guint i = 0; i < found->len; i++)
    {
      const WsMeasurement *m = g_ptr_array_index (found, i);
      gint64 x;
      if (ws_measurement_get_param (m, param, &x))
        add_point (series, x, m);
    }
}

static void
add_live_sweep (WsWindow   *self,
                WsChart    *chart,
                const char *param,
                const char *key)
{
  g_autofree char *name = live_name (self);
  WsChartSeries *series = NULL;

  for (guint i = 0; i < self->live->len; i++)
    {
      WsLiveEntry *e = g_ptr_array_index (self->live, i);
      if (g_strcmp0 (e->key, key) != 0 || isnan (e->x))
        continue;
      if (series == NULL)
        series = ws_chart_add_series (chart, name, WS_SERIES_POINTS, WS_CHART_Y, 2);
      add_point (series, e->x, e->m);
    }
  if (self->sweep_points && !self->sweep_replayed && g_strcmp0 (self->sweep_key, key) == 0)
    for (guint i = 0; i < self->sweep_points->len; i++)
      {
        const WsMeasurement *m = g_ptr_array_index (self->sweep_points, i);
        gint64 x;
        if (series == NULL)
          series = ws_chart_add_series (chart, name, WS_SERIES_POINTS, WS_CHART_Y, 2);
        if (ws_measurement_get_param (m, param, &x))
          add_point (series, x, m);
      }
}

static void
build_sweep_chart (WsWindow   *self,
                   WsChart    *chart,
                   const char *param,
                   const char *key)
{
  g_autoptr (GArray) values = sweep_values (self);
  g_autofree char *title = g_strdup_printf ("Time per launch as %s varies", param);
  g_autofree char *subtitle = chart_subtitle (self);
  g_autofree char *pkey = g_strdup_printf ("sweep\n%s\n%d", key, ws_window_shown_space (self));
  g_autofree double *xs = NULL;
  GArray *prediction;
  gint64 current;

  ws_chart_set_title (chart, title, subtitle);
  sweep_axis (chart, param, values);
  ws_chart_set_axis (chart, WS_CHART_Y, "median time", "s", TRUE, WS_AXIS_LINEAR);
  prediction = prediction_for (self, pkey, sweep_patterns (self, param, values));
  xs = g_new (double, values->len);
  for (guint i = 0; i < values->len; i++)
    xs[i] = g_array_index (values, gint64, i);
  add_prediction (self, chart, prediction, xs);
  add_recorded_sweep (self, chart, param);
  add_live_sweep (self, chart, param, key);
  if (ws_pattern_get_param (self->pattern, param, &current))
    chart->highlight = current;
}

/* ------------------------------------------------------------------ */
/* The presets of a topic side by side                                */
/* ------------------------------------------------------------------ */

static void
build_topic_chart (WsWindow   *self,
                   WsChart    *chart,
                   const char *key)
{
  const char *topic = self->preset ? self->preset->topic : NULL;
  guint n_presets;
  const WsPreset *presets = ws_presets_get_all (&n_presets);
  g_autoptr (GPtrArray) ids = g_ptr_array_new ();
  GPtrArray *patterns = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_pattern_unref);
  g_autofree char *subtitle = chart_subtitle (self);
  g_autofree char *rname = self->recording ? recorded_name (self) : NULL;
  g_autofree char *lname = live_name (self);
  g_autofree char *pkey = NULL;
  g_autofree double *xs = NULL;
  WsChartSeries *rec = NULL, *live = NULL;
  GArray *prediction;

  ws_chart_set_axis (chart, WS_CHART_X, NULL, NULL, FALSE, WS_AXIS_CATEGORY);
  ws_chart_set_axis (chart, WS_CHART_Y, "median time", "s", TRUE, WS_AXIS_LINEAR);
  for (guint i = 0; topic && i < n_presets; i++)
    if (g_strcmp0 (presets[i].topic, topic) == 0)
      {
        g_autofree char *t = short_title (presets[i].title);
        ws_chart_add_category (chart, t);
        g_ptr_array_add (ids, (gpointer) presets[i].id);
        g_ptr_array_add (patterns, ws_preset_build (&presets[i]));
        if (self->preset == &presets[i] && !self->edited)
          chart->highlight = ids->len - 1;
      }
  if (self->edited)
    {
      ws_chart_add_category (chart, "edited pattern");
      g_ptr_array_add (ids, NULL);
      g_ptr_array_add (patterns, ws_pattern_ref (self->pattern));
      chart->highlight = ids->len - 1;
    }
  ws_chart_set_title (chart, topic ? ws_topic_lookup (topic)->title : "Time per launch", subtitle);
  if (self->recording)
    rec = ws_chart_add_series (chart, rname, WS_SERIES_POINTS, WS_CHART_Y, 0);
  for (guint i = 0; i < ids->len; i++)
    {
      const char *id = g_ptr_array_index (ids, i);
      g_autoptr (GPtrArray) found = NULL;

      if (id && rec && (found = ws_window_recorded (self, id, g_ptr_array_index (patterns, i), NULL))->len > 0)
        add_point (rec, i, g_ptr_array_index (found, 0));
      for (guint j = 0; j < self->live->len; j++)
        {
          WsLiveEntry *e = g_ptr_array_index (self->live, j);
          gboolean mine = id ? (e->preset_id && g_str_equal (e->preset_id, id)) : g_strcmp0 (e->key, key) == 0;
          if (!mine)
            continue;
          if (live == NULL)
            live = ws_chart_add_series (chart, lname, WS_SERIES_POINTS, WS_CHART_Y, 2);
          add_point (live, i, e->m);
        }
    }
  pkey = g_strdup_printf ("topic\n%s\n%s\n%d", topic, self->edited ? key : "", ws_window_shown_space (self));
  xs = g_new (double, patterns->len);
  for (guint i = 0; i < patterns->len; i++)
    xs[i] = i;
  prediction = prediction_for (self, pkey, patterns);
  add_prediction (self, chart, prediction, xs);
}

char *
ws_window_pattern_key (WsWindow *self)
{
  const char *param = ws_window_sweep_param (self);
  g_autoptr (WsPattern) copy = ws_pattern_copy (self->pattern);

  for (guint i = 0; param && i < ws_pattern_get_n_params (copy); i++)
    if (g_str_equal (ws_pattern_get_param_nth (copy, i)->name, param))
      ws_pattern_set_param (copy, param, ws_pattern_get_param_nth (copy, i)->min, NULL);
  return ws_pattern_to_string (copy);
}

void
ws_window_rebuild_chart (WsWindow *self)
{
  WsChart *chart = ws_chart_new ();
  const char *param = ws_window_sweep_param (self);
  g_autofree char *key = ws_window_pattern_key (self);

  if (param)
    build_sweep_chart (self, chart, param, key);
  else
    build_topic_chart (self, chart, key);
  if (!self->recording_loaded || !self->probed)
    ws_chart_set_message (chart, "Looking for a GPU and the recorded measurements…");
  else if (self->device)
    ws_chart_set_message (chart, "Measuring…");
  else
    ws_chart_set_message (chart, "No measurement of this pattern: there is no GPU, and the recording has none.");
  ws_chart_view_set_chart (self->chart, chart);
}
