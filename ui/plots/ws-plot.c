/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The measured plot: median time per launch, recorded and measured now,
 * with the model's metric for the same patterns on the right axis.
 *
 * A preset with a standard sweep plots against its sweep parameter; any
 * other plots the presets of its topic side by side. Both axes start at
 * zero, so that "twice as many sectors" and "twice as long" look alike
 * only when they are. */
#include "ws-plot.h"
#include "ws-figure-i18n-private.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Measurements and their names                                       */
/* ------------------------------------------------------------------ */

GPtrArray *
ws_plot_recorded (WsRecording     *recording,
                  const char      *id,
                  const WsPattern *pattern,
                  const char      *except)
{
  g_autoptr (GPtrArray) found = NULL;
  g_autoptr (GPtrArray) all = NULL;
  GPtrArray *out;

  if (recording == NULL)
    return g_ptr_array_new ();
  found = ws_recording_lookup_pattern (recording, id, pattern, except);
  if (found->len > 0)
    return g_steal_pointer (&found);
  out = g_ptr_array_new ();
  all = ws_recording_find (recording, id);
  for (guint i = 0; i < all->len; i++)
    if (except == NULL || ws_measurement_get_param (g_ptr_array_index (all, i), except, NULL))
      g_ptr_array_add (out, g_ptr_array_index (all, i));
  return out;
}

const WsMeasurement *
ws_plot_recorded_one (WsRecording     *recording,
                      const WsPreset  *preset,
                      const WsPattern *pattern)
{
  const char *param = preset->sweep_param;
  g_autoptr (GPtrArray) found = NULL;
  gint64 x = 0, v;

  if (param && !ws_pattern_get_param (pattern, param, &x))
    param = NULL;
  found = ws_plot_recorded (recording, preset->id, pattern, param);
  for (guint i = 0; i < found->len; i++)
    {
      const WsMeasurement *m = g_ptr_array_index (found, i);
      if (param == NULL || (ws_measurement_get_param (m, param, &v) && v == x))
        return m;
    }
  return NULL;
}

char *
ws_plot_recording_name (WsRecording *recording)
{
  const WsDeviceInfo *d = ws_recording_get_device (recording);
  /* a file's name for its GPU, as a legend can show it */
  g_autofree char *name = ws_text_for_message (d && d->name ? d->name : FG_("an unknown GPU"));
  g_autofree char *date = NULL;

  if (ws_recording_get_measured_here (recording))
    /* Translators: a series of a plot, "recorded on NVIDIA H200" */
    return g_strdup_printf (FG_("recorded on %s"), name);
  /* numbers copied from another recording (a CLI run with no GPU): say so.
   * The date is ISO 8601, in any locale: the plot is a document, exported
   * as a figure and as data, and ISO reads the same everywhere. */
  date = g_date_time_format (ws_recording_get_date (recording), "%Y-%m-%d");
  /* Translators: a GPU's name, then an ISO date */
  return g_strdup_printf (FG_("recorded on %s on %s (not measured here)"), name, date);
}

char *
ws_plot_live_name (const char *device)
{
  g_autofree char *name = ws_text_for_message (device ? device : FG_("this GPU"));

  /* Translators: a series of a plot, "measured now on NVIDIA H200" */
  return g_strdup_printf (FG_("measured now on %s"), name);
}

char *
ws_plot_subtitle (const WsPlotSources *sources)
{
  GString *s = g_string_new (NULL);

  if (sources->live_device)
    {
      g_autoptr (GDateTime) now = g_date_time_new_now_local ();
      /* ISO 8601 whatever the locale, as in ws_plot_recording_name */
      g_autofree char *day = g_date_time_format (now, "%Y-%m-%d");
      g_autofree char *name = ws_text_for_message (sources->live_device);
      /* Translators: a GPU's name, then an ISO date */
      g_string_append_printf (s, FG_("Live on %s, %s"), name, day);
    }
  for (guint i = 0; sources->recordings && i < sources->recordings->len; i++)
    {
      WsRecording *r = g_ptr_array_index (sources->recordings, i);
      const WsDeviceInfo *d = ws_recording_get_device (r);
      GDateTime *date = ws_recording_get_date (r);
      g_autofree char *day = date ? g_date_time_format (date, "%Y-%m-%d") : g_strdup ("?");
      g_autofree char *name = ws_text_for_message (d && d->name ? d->name : "?");
      if (s->len)
        g_string_append (s, " · ");
      /* Translators: a GPU's name, then an ISO date */
      g_string_append_printf (s, FG_("Recorded on %s, %s"), name, day);
    }
  if (s->len == 0)
    g_string_append (s, FG_("Nothing measured: no GPU and no recording"));
  g_string_append (s, " · ");
  g_string_append (s, FG_("points: median time per launch, bars: fastest to slowest sample"));
  return g_string_free (s, FALSE);
}

/* ------------------------------------------------------------------ */
/* The model                                                          */
/* ------------------------------------------------------------------ */

double
ws_plot_model_metric (const WsLaunchStats *stats,
                      WsSpace              space,
                      const char         **name)
{
  WsStats sum = { 0 };

  /* every instruction of the launch in that space */
  for (guint i = 0; stats && i < stats->n_accesses; i++)
    if (ws_pattern_get_access (stats->pattern, i)->space == space)
      ws_stats_add (&sum, &stats->accesses[i]);
  switch (space)
    {
    case WS_SPACE_GLOBAL:
    case WS_SPACE_LOCAL:
      *name = N_("sectors per request");
      return sum.requests ? ws_stats_sectors_per_request (&sum) : NAN;
    case WS_SPACE_SHARED:
      *name = N_("wavefronts per instruction");
      return sum.instructions ? ws_stats_wavefronts_per_instruction (&sum) : NAN;
    case WS_SPACE_CONSTANT:
      *name = N_("requests per instruction");
      return sum.instructions ? (double) sum.requests / sum.instructions : NAN;
    case WS_SPACE_REGISTER:
    case WS_N_SPACES:
    default:
      *name = NULL;
      return NAN;
    }
}

/* The points of one prediction, shared by the threads that compute them:
 * each takes the next pattern until none is left. */
typedef struct
{
  GPtrArray *patterns;
  GPtrArray *presets;
  WsSpace space;
  const WsDeviceProfile *profile;
  GCancellable *cancellable;
  WsPlotPrediction *values;
  gint next;
} PredictJob;

static gpointer
predict_thread (gpointer data)
{
  PredictJob *job = data;
  guint i;

  while ((i = (guint) g_atomic_int_add (&job->next, 1)) < job->patterns->len)
    {
      WsPattern *pattern = g_ptr_array_index (job->patterns, i);
      const WsPreset *preset = job->presets ? g_ptr_array_index (job->presets, i) : NULL;
      g_autoptr (WsLaunchStats) stats = NULL;
      g_autoptr (WsPlotModel) model = NULL;
      WsPlotPrediction *v = &job->values[i];
      const char *ignored;

      if (g_cancellable_is_cancelled (job->cancellable))
        break;
      if (pattern && (stats = ws_model_analyze_launch (pattern, job->cancellable, NULL)))
        v->metric = ws_plot_model_metric (stats, job->space, &ignored);
      if (pattern && ws_plot_model_can_predict (job->profile) &&
          (model = ws_plot_model_compute (preset, pattern, job->profile, job->cancellable, NULL)))
        {
          v->seconds = model->predicted_s;
          v->bound = ws_plot_model_bound_name (model);
        }
    }
  return NULL;
}

GArray *
ws_plot_predict (GPtrArray             *patterns,
                 GPtrArray             *presets,
                 WsSpace                space,
                 const WsDeviceProfile *profile,
                 const char           **name,
                 GCancellable          *cancellable)
{
  GArray *values = g_array_new (FALSE, FALSE, sizeof (WsPlotPrediction));
  PredictJob job = { patterns, presets, space, profile, cancellable, NULL, 0 };
  g_autoptr (GPtrArray) threads = g_ptr_array_new ();
  guint n_threads;

  g_return_val_if_fail (presets == NULL || presets->len == patterns->len, values);

  ws_plot_model_metric (NULL, space, name);
  g_array_set_size (values, patterns->len);
  for (guint i = 0; i < patterns->len; i++)
    g_array_index (values, WsPlotPrediction, i) = (WsPlotPrediction) { NAN, NAN, NULL };
  job.values = (WsPlotPrediction *) (void *) values->data;
  /* a sweep's points are independent: one thread per core (this one
   * included), each launch's hierarchy on one of them */
  n_threads = MIN (patterns->len, MAX (1, g_get_num_processors ()));
  for (guint t = 1; t < n_threads; t++)
    {
      GThread *thread = g_thread_try_new ("ws-predict", predict_thread, &job, NULL);

      if (thread == NULL)
        break;
      g_ptr_array_add (threads, thread);
    }
  predict_thread (&job);
  for (guint t = 0; t < threads->len; t++)
    g_thread_join (g_ptr_array_index (threads, t));
  if (g_cancellable_is_cancelled (cancellable))
    {
      g_array_unref (values);
      return NULL;
    }
  return values;
}

char *
ws_plot_prediction_describe (const WsPlotPrediction *p,
                             const char             *metric_name)
{
  GString *s = g_string_new (NULL);

  /* Translators: "model: 4 sectors per request" */
  if (!isnan (p->metric) && metric_name)
    g_string_append_printf (s, FG_("model: %.3g %s"), p->metric, FG_(metric_name));
  /* Translators: "bound by DRAM", after what the model counts */
  if (p->bound && s->len)
    g_string_append_printf (s, FG_(" · bound by %s"), FG_(p->bound));
  /* Translators: "model: bound by DRAM" */
  else if (p->bound)
    g_string_append_printf (s, FG_("model: bound by %s"), FG_(p->bound));
  if (s->len == 0)
    {
      g_string_free (s, TRUE);
      return NULL;
    }
  return g_string_free (s, FALSE);
}

static void
add_point (WsChartSeries       *series,
           double               x,
           const WsMeasurement *m)
{
  ws_chart_series_add (series, x, m->median_ms / 1e3, m->min_ms / 1e3, m->max_ms / 1e3);
}

static const WsPlotPrediction *
prediction_at (const WsPlotInput *in,
               guint              i)
{
  return &g_array_index (in->prediction, WsPlotPrediction, i);
}

static gboolean
predicts_time (const WsPlotInput *in)
{
  for (guint i = 0; in->prediction && i < in->prediction->len; i++)
    if (!isnan (prediction_at (in, i)->seconds))
      return TRUE;
  return FALSE;
}

/* The predicted time on the measured axis: hollow diamonds that a right
 * model puts on the measured points, joined for a sweep; what the model
 * counts in their tooltips. */
static void
add_predicted_time (WsChart           *chart,
                    const WsPlotInput *in,
                    const double      *xs)
{
  g_autofree char *device = in->model_device ? ws_text_for_message (in->model_device) : NULL;
  /* Translators: a series of a plot, "model: predicted on NVIDIA H200" */
  g_autofree char *name = device ? g_strdup_printf (FG_("model: predicted on %s"), device)
                                 : g_strdup (FG_("model: predicted time"));
  WsChartSeries *series = ws_chart_add_series (chart, name, in->sweep_param ? WS_SERIES_LINE : WS_SERIES_POINTS,
                                               WS_CHART_Y, -1);

  series->overlay = TRUE;
  series->dashed = TRUE;
  for (guint i = 0; i < in->prediction->len; i++)
    {
      const WsPlotPrediction *p = prediction_at (in, i);
      g_autofree char *note = NULL;

      if (isnan (p->seconds))
        continue;
      ws_chart_series_add (series, xs[i], p->seconds, NAN, NAN);
      note = ws_plot_prediction_describe (p, in->prediction_name);
      if (note)
        ws_chart_series_set_note (series, series->points->len - 1, note);
    }
}

static void
add_prediction (WsChart           *chart,
                const WsPlotInput *in,
                const double      *xs)
{
  g_autofree char *name = NULL;
  WsChartSeries *series;

  if (in->prediction == NULL)
    return;
  if (predicts_time (in))
    {
      add_predicted_time (chart, in, xs);
      return;
    }
  /* no time without a device: what the model counts, on an axis of its own */
  if (in->prediction_name == NULL)
    return;
  /* Translators: a series of a plot, "model: sectors per request" */
  name = g_strdup_printf (FG_("model: %s"), FG_(in->prediction_name));
  ws_chart_set_axis (chart, WS_CHART_Y2, FG_(in->prediction_name), NULL, FALSE, WS_AXIS_LINEAR);
  series = ws_chart_add_series (chart, name, WS_SERIES_LINE, WS_CHART_Y2, -1);
  series->dashed = TRUE;
  for (guint i = 0; i < in->prediction->len; i++)
    if (!isnan (prediction_at (in, i)->metric))
      ws_chart_series_add (series, xs[i], prediction_at (in, i)->metric, NAN, NAN);
}

static guint
n_recordings (const WsPlotSources *sources)
{
  return sources->recordings ? sources->recordings->len : 0;
}

static WsRecording *
recording_nth (const WsPlotSources *sources,
               guint                i)
{
  return g_ptr_array_index (sources->recordings, i);
}

/* A hue for each recording, and one after them for live measurements
 * (the third, orange, beside one recording's blue). */
int
ws_plot_live_hue (const WsPlotSources *sources)
{
  return n_recordings (sources) <= 1 ? 2 : (int) n_recordings (sources) + 1;
}

/* ------------------------------------------------------------------ */
/* Against the sweep parameter                                        */
/* ------------------------------------------------------------------ */

static GArray *
sweep_values (const WsPlotInput *in)
{
  return ws_sweep_values_parse (in->preset->sweep_values, NULL);
}

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

/* What a sweep parameter counts, where its name does not say. */
static const char *
param_unit (const char *param)
{
  static const struct
  {
    const char *name;
    const char *unit;
  } units[] = {
    { "stride", N_("elements") }, { "offset", N_("elements") }, { "elem_size", "B" }, { "pad", N_("words") },
    { "step", N_("elements") }, { "hit_ratio", "%" }, { "hot", N_("elements") }, { "N", N_("elements") },
  };

  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (g_str_equal (units[i].name, param))
      return FG_(units[i].unit);
  return NULL;
}

static void
sweep_axis (WsChart    *chart,
            const char *param,
            GArray     *values)
{
  gint64 lo = g_array_index (values, gint64, 0), hi = g_array_index (values, gint64, values->len - 1);
  double pad = MAX (0.5, (hi - lo) * 0.03);

  if (powers_of_two (values))
    {
      ws_chart_set_axis (chart, WS_CHART_X, param, param_unit (param), FALSE, WS_AXIS_LOG2);
      ws_chart_set_range (chart, WS_CHART_X, lo / 1.3, hi * 1.3);
    }
  else
    {
      ws_chart_set_axis (chart, WS_CHART_X, param, param_unit (param), FALSE, WS_AXIS_LINEAR);
      ws_chart_set_range (chart, WS_CHART_X, lo - pad, hi + pad);
      chart->axes[WS_CHART_X].integer = TRUE;
    }
}

static GPtrArray *
sweep_patterns (const WsPlotInput *in)
{
  GPtrArray *patterns = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_pattern_unref);
  g_autoptr (GArray) values = sweep_values (in);

  for (guint i = 0; i < values->len; i++)
    {
      WsPattern *p = ws_pattern_copy (in->pattern);
      if (!ws_pattern_set_param (p, in->sweep_param, g_array_index (values, gint64, i), NULL))
        g_clear_pointer (&p, ws_pattern_unref);
      /* the launch the preset's kernel makes at that value (one wave of
       * as many blocks as then fit, for the occupancy sweeps), as the
       * measurement's was */
      else if (in->preset && !in->edited && !ws_preset_fit_grid (in->preset, p, NULL))
        g_clear_pointer (&p, ws_pattern_unref);
      g_ptr_array_add (patterns, p);
    }
  return patterns;
}

static void
add_recorded_sweep (WsChart             *chart,
                    const WsPlotInput   *in,
                    const WsPlotSources *sources)
{
  if (in->edited)
    return;
  for (guint r = 0; r < n_recordings (sources); r++)
    {
      WsRecording *recording = recording_nth (sources, r);
      g_autofree char *name = ws_plot_recording_name (recording);
      WsChartSeries *series = ws_chart_add_series (chart, name, WS_SERIES_POINTS, WS_CHART_Y, r);
      /* while the main recording's sweep is replayed, only what it has played so far */
      g_autoptr (GPtrArray) found = r == 0 && in->replayed
                                      ? g_ptr_array_ref (in->replayed)
                                      : ws_plot_recorded (recording, in->preset->id, in->pattern, in->sweep_param);

      for (guint i = 0; i < found->len; i++)
        {
          const WsMeasurement *m = g_ptr_array_index (found, i);
          gint64 x;
          if (ws_measurement_get_param (m, in->sweep_param, &x))
            add_point (series, x, m);
        }
    }
}

static void
add_live_sweep (WsChart             *chart,
                const WsPlotInput   *in,
                const WsPlotSources *sources)
{
  g_autofree char *name = ws_plot_live_name (sources->live_device);
  WsChartSeries *series = NULL;

  for (guint i = 0; sources->live && i < sources->live->len; i++)
    {
      WsLiveEntry *e = g_ptr_array_index (sources->live, i);
      if (g_strcmp0 (e->key, in->key) != 0 || isnan (e->x))
        continue;
      if (series == NULL)
        series = ws_chart_add_series (chart, name, WS_SERIES_POINTS, WS_CHART_Y, ws_plot_live_hue (sources));
      add_point (series, e->x, e->m);
    }
  for (guint i = 0; in->sweeping && i < in->sweeping->len; i++)
    {
      const WsMeasurement *m = g_ptr_array_index (in->sweeping, i);
      gint64 x;
      if (series == NULL)
        series = ws_chart_add_series (chart, name, WS_SERIES_POINTS, WS_CHART_Y, ws_plot_live_hue (sources));
      if (ws_measurement_get_param (m, in->sweep_param, &x))
        add_point (series, x, m);
    }
}

static void
build_sweep (WsChart             *chart,
             const WsPlotInput   *in,
             const WsPlotSources *sources)
{
  g_autoptr (GArray) values = sweep_values (in);
  /* Translators: a plot's title; the parameter is a name in code, "stride" */
  g_autofree char *title = g_strdup_printf (FG_("Time per launch as %s varies"), in->sweep_param);
  g_autofree char *subtitle = ws_plot_subtitle (sources);
  g_autofree double *xs = g_new (double, values->len);
  gint64 current;

  ws_chart_set_title (chart, title, subtitle);
  sweep_axis (chart, in->sweep_param, values);
  ws_chart_set_axis (chart, WS_CHART_Y, FG_("median time"), "s", TRUE, WS_AXIS_LINEAR);
  for (guint i = 0; i < values->len; i++)
    xs[i] = g_array_index (values, gint64, i);
  add_prediction (chart, in, xs);
  add_recorded_sweep (chart, in, sources);
  add_live_sweep (chart, in, sources);
  if (ws_pattern_get_param (in->pattern, in->sweep_param, &current))
    chart->highlight = current;
}

/* ------------------------------------------------------------------ */
/* The presets of a topic side by side                                */
/* ------------------------------------------------------------------ */

/* The presets of the topic, and the edited pattern after them. */
static GPtrArray *
topic_presets (const WsPlotInput *in)
{
  const char *topic = in->preset ? in->preset->topic : NULL;
  guint n_presets;
  const WsPreset *presets = ws_presets_get_all (&n_presets);
  GPtrArray *out = g_ptr_array_new ();

  for (guint i = 0; topic && i < n_presets; i++)
    if (g_strcmp0 (presets[i].topic, topic) == 0)
      g_ptr_array_add (out, (gpointer) &presets[i]);
  if (in->edited || in->preset == NULL)
    g_ptr_array_add (out, NULL);
  return out;
}

static GPtrArray *
topic_patterns (const WsPlotInput *in)
{
  g_autoptr (GPtrArray) presets = topic_presets (in);
  GPtrArray *patterns = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_pattern_unref);

  for (guint i = 0; i < presets->len; i++)
    {
      const WsPreset *p = g_ptr_array_index (presets, i);
      g_ptr_array_add (patterns, p ? ws_preset_build (p) : ws_pattern_copy (in->pattern));
    }
  return patterns;
}

static void
add_topic_live (WsChart             *chart,
                const WsPlotInput   *in,
                const WsPlotSources *sources,
                const WsPreset      *preset,
                guint                x,
                WsChartSeries      **live)
{
  for (guint j = 0; sources->live && j < sources->live->len; j++)
    {
      WsLiveEntry *e = g_ptr_array_index (sources->live, j);
      gboolean mine = preset ? g_strcmp0 (e->preset_id, preset->id) == 0 : g_strcmp0 (e->key, in->key) == 0;

      if (!mine)
        continue;
      if (*live == NULL)
        {
          g_autofree char *name = ws_plot_live_name (sources->live_device);
          *live = ws_chart_add_series (chart, name, WS_SERIES_POINTS, WS_CHART_Y, ws_plot_live_hue (sources));
        }
      add_point (*live, x, e->m);
    }
}

static void
build_topic (WsChart             *chart,
             const WsPlotInput   *in,
             const WsPlotSources *sources)
{
  g_autoptr (GPtrArray) presets = topic_presets (in);
  g_autoptr (GPtrArray) patterns = topic_patterns (in);
  g_autofree char *subtitle = ws_plot_subtitle (sources);
  g_autofree double *xs = g_new (double, presets->len);
  g_autofree WsChartSeries **rec = g_new0 (WsChartSeries *, n_recordings (sources) + 1);
  WsChartSeries *live = NULL;
  const WsTopic *topic = in->preset ? ws_topic_lookup (in->preset->topic) : NULL;

  ws_chart_set_axis (chart, WS_CHART_X, NULL, NULL, FALSE, WS_AXIS_CATEGORY);
  ws_chart_set_axis (chart, WS_CHART_Y, FG_("median time"), "s", TRUE, WS_AXIS_LINEAR);
  ws_chart_set_title (chart, topic ? FG_(topic->title) : FG_("Time per launch"), subtitle);
  for (guint i = 0; i < presets->len; i++)
    {
      const WsPreset *p = g_ptr_array_index (presets, i);
      g_autofree char *t = p ? ws_preset_short_title (FG_(p->title)) : g_strdup (FG_("edited pattern"));

      ws_chart_add_category (chart, t);
      xs[i] = i;
      if ((p == NULL) || (p == in->preset && !in->edited))
        chart->highlight = i;
    }
  for (guint r = 0; r < n_recordings (sources); r++)
    {
      g_autofree char *name = ws_plot_recording_name (recording_nth (sources, r));
      rec[r] = ws_chart_add_series (chart, name, WS_SERIES_POINTS, WS_CHART_Y, r);
    }
  for (guint i = 0; i < presets->len; i++)
    {
      const WsPreset *p = g_ptr_array_index (presets, i);

      for (guint r = 0; p && r < n_recordings (sources); r++)
        {
          g_autoptr (GPtrArray) found = ws_plot_recorded (recording_nth (sources, r), p->id,
                                                          g_ptr_array_index (patterns, i), NULL);
          if (found->len > 0)
            add_point (rec[r], i, g_ptr_array_index (found, 0));
        }
      add_topic_live (chart, in, sources, p, i, &live);
    }
  add_prediction (chart, in, xs);
}

/* ------------------------------------------------------------------ */

GPtrArray *
ws_plot_prediction_patterns (const WsPlotInput *input)
{
  g_return_val_if_fail (input != NULL && input->pattern != NULL, NULL);
  return input->sweep_param ? sweep_patterns (input) : topic_patterns (input);
}

GPtrArray *
ws_plot_prediction_presets (const WsPlotInput *input)
{
  GPtrArray *presets;

  g_return_val_if_fail (input != NULL && input->pattern != NULL, NULL);
  if (!input->sweep_param)
    return topic_presets (input);
  /* the preset's kernel at each value of its sweep, unless the pattern is another */
  presets = g_ptr_array_new ();
  {
    g_autoptr (GArray) values = sweep_values (input);
    for (guint i = 0; i < values->len; i++)
      g_ptr_array_add (presets, input->edited ? NULL : (gpointer) input->preset);
  }
  return presets;
}

WsChart *
ws_plot_build (const WsPlotInput   *input,
               const WsPlotSources *sources)
{
  WsChart *chart = ws_chart_new ();

  g_return_val_if_fail (input != NULL && input->pattern != NULL && sources != NULL, chart);
  if (input->sweep_param)
    build_sweep (chart, input, sources);
  else
    build_topic (chart, input, sources);
  return chart;
}

WsChart *
ws_plot_build_for (const WsPreset        *preset,
                   const WsPattern       *pattern,
                   guint                  access,
                   const WsDeviceProfile *profile,
                   const WsPlotSources   *sources)
{
  g_autofree char *key = NULL;
  g_autoptr (GPtrArray) patterns = NULL;
  g_autoptr (GPtrArray) presets = NULL;
  g_autoptr (GArray) prediction = NULL;
  const char *name = NULL;
  WsPlotInput in = { 0 };

  g_return_val_if_fail (pattern != NULL && access < ws_pattern_get_n_accesses (pattern), NULL);

  in.preset = preset;
  in.pattern = pattern;
  in.edited = ws_preset_differs (preset, pattern);
  in.sweep_param = ws_preset_sweep_param (preset, pattern);
  key = ws_pattern_sweep_key (pattern, in.sweep_param);
  in.key = key;
  patterns = ws_plot_prediction_patterns (&in);
  presets = ws_plot_prediction_presets (&in);
  prediction = ws_plot_predict (patterns, presets, ws_pattern_get_access (pattern, access)->space, profile, &name,
                                NULL);
  in.prediction = prediction;
  in.prediction_name = name;
  in.model_device = profile ? profile->name : NULL;
  return ws_plot_build (&in, sources);
}
