/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The measured plot: what the lesson is about (median time, effective
 * bandwidth, sectors per request or wavefronts, coalescing), recorded and
 * measured now, with the model's for the same patterns on the same axis.
 *
 * A preset with a standard sweep plots against its sweep parameter; any
 * other plots the presets of its topic side by side. Linear axes start at
 * zero, so that "twice as many sectors" and "twice as long" look alike
 * only when they are; values that span decades go on a log axis. */
#include "ws-plot.h"
#include "ws-figure-i18n-private.h"
#include "ws-plot-cache.h"

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

/* A GPU's name as a plot shows it: real ones are shorter than this, and a
 * made-up one as long as a file can hold is cut to what a legend or a
 * caption has room for at the smallest size a figure draws at. */
static char *
gpu_name (const char *name)
{
  g_autofree char *shown = ws_text_printable (name, 200);
  const char *end = shown;
  guint columns = 0;

  /* counted in columns: a wide character (漢) takes two */
  while (*end)
    {
      guint w = g_unichar_iswide (g_utf8_get_char (end)) ? 2 : 1;
      if (columns + w > 56)
        break;
      columns += w;
      end = g_utf8_next_char (end);
    }
  if (*end == '\0')
    return g_steal_pointer (&shown);
  return g_strdup_printf ("%.*s…", (int) (end - shown), shown);
}

char *
ws_plot_recording_name (WsRecording *recording)
{
  const WsDeviceInfo *d = ws_recording_get_device (recording);
  /* a file's name for its GPU, as a legend can show it */
  g_autofree char *name = gpu_name (d && d->name ? d->name : FG_("an unknown GPU"));
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
  g_autofree char *name = gpu_name (device ? device : FG_("this GPU"));

  /* Translators: a series of a plot, "measured now on NVIDIA H200" */
  return g_strdup_printf (FG_("measured now on %s"), name);
}

/* What the points of a metric are. */
static const char *
points_are (WsPlotMetric metric)
{
  switch (metric)
    {
    case WS_PLOT_BANDWIDTH:
      return FG_("points: bytes the kernel moves over its median time, bars: slowest to fastest sample");
    case WS_PLOT_COST:
      return FG_("points: the hardware counters, where measured with them; the model counts every instruction of "
                 "the launch");
    case WS_PLOT_COALESCING:
      return FG_("points: bytes asked over the counters' sectors × 32, where measured with them");
    case WS_PLOT_TIME:
    case WS_N_PLOT_METRICS:
    default:
      return FG_("points: median time per launch, bars: fastest to slowest sample");
    }
}

char *
ws_plot_subtitle (const WsPlotSources *sources)
{
  return ws_plot_subtitle_for (sources, WS_PLOT_TIME);
}

char *
ws_plot_subtitle_for (const WsPlotSources *sources,
                      WsPlotMetric         metric)
{
  GString *s = g_string_new (NULL);

  if (sources->live_device)
    {
      g_autoptr (GDateTime) now = g_date_time_new_now_local ();
      /* ISO 8601 whatever the locale, as in ws_plot_recording_name */
      g_autofree char *day = g_date_time_format (now, "%Y-%m-%d");
      g_autofree char *name = gpu_name (sources->live_device);
      /* Translators: a GPU's name, then an ISO date */
      g_string_append_printf (s, FG_("Live on %s, %s"), name, day);
    }
  for (guint i = 0; sources->recordings && i < sources->recordings->len; i++)
    {
      WsRecording *r = g_ptr_array_index (sources->recordings, i);
      const WsDeviceInfo *d = ws_recording_get_device (r);
      GDateTime *date = ws_recording_get_date (r);
      g_autofree char *day = date ? g_date_time_format (date, "%Y-%m-%d") : g_strdup ("?");
      g_autofree char *name = gpu_name (d && d->name ? d->name : "?");
      if (s->len)
        g_string_append (s, " · ");
      /* Translators: a GPU's name, then an ISO date */
      g_string_append_printf (s, FG_("Recorded on %s, %s"), name, day);
    }
  if (s->len == 0)
    g_string_append (s, FG_("Nothing measured: no GPU and no recording"));
  g_string_append (s, " · ");
  g_string_append (s, points_are (metric));
  return g_string_free (s, FALSE);
}

/* ------------------------------------------------------------------ */
/* Metrics                                                            */
/* ------------------------------------------------------------------ */

static const char *metric_names[WS_N_PLOT_METRICS] = { "time", "bandwidth", "sectors", "coalescing" };

const char *
ws_plot_metric_to_string (WsPlotMetric metric,
                          WsSpace      space)
{
  g_return_val_if_fail (metric < WS_N_PLOT_METRICS, NULL);
  if (metric == WS_PLOT_COST && space == WS_SPACE_SHARED)
    return "wavefronts";
  if (metric == WS_PLOT_COST && space == WS_SPACE_CONSTANT)
    return "requests";
  return metric_names[metric];
}

gboolean
ws_plot_metric_from_string (const char   *name,
                            WsPlotMetric *metric)
{
  if (g_strcmp0 (name, "wavefronts") == 0 || g_strcmp0 (name, "requests") == 0)
    {
      *metric = WS_PLOT_COST;
      return TRUE;
    }
  for (guint i = 0; i < WS_N_PLOT_METRICS; i++)
    if (g_strcmp0 (metric_names[i], name) == 0)
      {
        *metric = i;
        return TRUE;
      }
  return FALSE;
}

const char *
ws_plot_metric_title (WsPlotMetric metric,
                      WsSpace      space)
{
  const char *name;

  switch (metric)
    {
    case WS_PLOT_BANDWIDTH:
      return FG_("effective bandwidth");
    case WS_PLOT_COST:
      ws_plot_model_metric (NULL, space, &name);
      return name ? FG_(name) : FG_("sectors per request");
    case WS_PLOT_COALESCING:
      return FG_("coalescing (bytes asked / moved)");
    case WS_PLOT_TIME:
    case WS_N_PLOT_METRICS:
    default:
      return FG_("median time");
    }
}

gboolean
ws_plot_metric_applies (WsPlotMetric metric,
                        WsSpace      space)
{
  switch (metric)
    {
    case WS_PLOT_COST:
      return space != WS_SPACE_REGISTER;
    case WS_PLOT_COALESCING:
      return space == WS_SPACE_GLOBAL || space == WS_SPACE_LOCAL;
    case WS_PLOT_TIME:
    case WS_PLOT_BANDWIDTH:
      return TRUE;
    case WS_N_PLOT_METRICS:
    default:
      return FALSE;
    }
}

/* What each lesson's plot shows first, where it is not the time: the
 * quantity its text names ("bandwidth falls", "100 % at 8", "32
 * wavefronts"). */
static const struct
{
  const char *preset;
  WsPlotMetric metric;
} lesson_metrics[] = {
  { "coalescing/offset", WS_PLOT_COALESCING },
  { "coalescing/strided-sweep", WS_PLOT_BANDWIDTH },
  { "alignment/elem-size", WS_PLOT_BANDWIDTH },
  { "alignment/pitch-none", WS_PLOT_COALESCING },
  { "banks/stride", WS_PLOT_COST },
  { "banks/padding", WS_PLOT_COST },
  { "banks/elem8", WS_PLOT_COST },
  { "banks/elem16", WS_PLOT_COST },
  { "constant/distinct", WS_PLOT_COST },
  { "occupancy/saturation", WS_PLOT_BANDWIDTH },
  { "ilp/loads", WS_PLOT_BANDWIDTH },
  { "ilp/unroll", WS_PLOT_BANDWIDTH },
  { "unified/explicit", WS_PLOT_BANDWIDTH },
  { "unified/managed", WS_PLOT_BANDWIDTH },
  { "unified/prefetch", WS_PLOT_BANDWIDTH },
  { "unified/read-mostly", WS_PLOT_BANDWIDTH },
  { "unified/preferred-host", WS_PLOT_BANDWIDTH },
  { "unified/managed-variable", WS_PLOT_BANDWIDTH },
  { "unified/mapped-uva", WS_PLOT_BANDWIDTH },
};

WsPlotMetric
ws_plot_metric_for (const WsPreset *preset)
{
  for (guint i = 0; preset && i < G_N_ELEMENTS (lesson_metrics); i++)
    if (g_str_equal (lesson_metrics[i].preset, preset->id))
      return lesson_metrics[i].metric;
  return WS_PLOT_TIME;
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

/* What the model counts of a pattern's launch: its metric for one space,
 * what its global and local instructions ask for and move (the bandwidth's
 * and the coalescing's); kept on disk, as the time is (ws-plot-cache.h).
 * FALSE if cancelled. */
static gboolean
counts_of (const WsPattern  *pattern,
           WsSpace           space,
           GCancellable     *cancellable,
           WsPlotPrediction *v)
{
  g_autofree char *text = ws_pattern_sweep_key (pattern, NULL);
  g_autofree char *key = g_strdup_printf ("%s\n%d", text, space);
  g_autoptr (WsLaunchStats) stats = NULL;
  double saved[3];
  const char *ignored;

  if (ws_plot_cache_lookup ("counts", key, saved, 3))
    {
      v->metric = saved[0];
      v->asked = saved[1];
      v->moved = saved[2];
      return TRUE;
    }
  if ((stats = ws_model_analyze_launch (pattern, cancellable, NULL)) == NULL)
    return !g_cancellable_is_cancelled (cancellable);
  v->metric = ws_plot_model_metric (stats, space, &ignored);
  for (guint a = 0; a < stats->n_accesses; a++)
    {
      WsSpace s = ws_pattern_get_access (stats->pattern, a)->space;
      if (s == WS_SPACE_GLOBAL || s == WS_SPACE_LOCAL)
        {
          v->asked += stats->accesses[a].bytes_requested;
          v->moved += stats->accesses[a].bytes_moved;
        }
    }
  saved[0] = v->metric;
  saved[1] = v->asked;
  saved[2] = v->moved;
  ws_plot_cache_store ("counts", key, saved, 3);
  return TRUE;
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
      g_autoptr (WsPlotModel) model = NULL;
      WsPlotPrediction *v = &job->values[i];

      if (g_cancellable_is_cancelled (job->cancellable))
        break;
      if (pattern && !counts_of (pattern, job->space, job->cancellable, v))
        continue;
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
    g_array_index (values, WsPlotPrediction, i) = (WsPlotPrediction) { NAN, NAN, NULL, 0, 0 };
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

/* ------------------------------------------------------------------ */
/* Values in the plot's metric                                        */
/* ------------------------------------------------------------------ */

static double
counter_sum (const WsMeasurement *m,
             const char          *format,
             const char * const  *ops)
{
  double sum = 0, v;
  gboolean any = FALSE;

  for (guint i = 0; ops[i]; i++)
    {
      g_autofree char *name = g_strdup_printf (format, ops[i]);
      if (ws_measurement_get_counter (m, name, &v))
        {
          sum += v;
          any = TRUE;
        }
    }
  return any ? sum : NAN;
}

/* What the hardware counters say of the instructions of a space: sectors
 * and requests (global, local), wavefronts and instructions (shared),
 * requests and instructions (constant); NAN where they were not read. */
static void
counted (const WsMeasurement *m,
         WsSpace              space,
         double              *units,
         double              *per)
{
  static const char * const global_ops[] = { "ld", "st", "red", "atom", NULL };
  static const char * const local_ops[] = { "ld", "st", NULL };
  static const char * const shared_ops[] = { "ld", "st", "atom", NULL };
  static const char * const none[] = { "", NULL };

  *units = *per = NAN;
  switch (space)
    {
    case WS_SPACE_GLOBAL:
      *units = counter_sum (m, "l1tex__t_sectors_pipe_lsu_mem_global_op_%s.sum", global_ops);
      *per = counter_sum (m, "l1tex__t_requests_pipe_lsu_mem_global_op_%s.sum", global_ops);
      break;
    case WS_SPACE_LOCAL:
      *units = counter_sum (m, "l1tex__t_sectors_pipe_lsu_mem_local_op_%s.sum", local_ops);
      *per = counter_sum (m, "l1tex__t_requests_pipe_lsu_mem_local_op_%s.sum", local_ops);
      break;
    case WS_SPACE_SHARED:
      *units = counter_sum (m, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_%s.sum", shared_ops);
      *per = counter_sum (m, "smsp__inst_executed_op_shared_%s.sum", shared_ops);
      break;
    case WS_SPACE_CONSTANT:
      *units = counter_sum (m, "idc__requests.sum%s", none);
      *per = counter_sum (m, "smsp__inst_executed_op_ldc.sum%s", none);
      break;
    case WS_SPACE_REGISTER:
    case WS_N_SPACES:
    default:
      break;
    }
}

/* A measurement in the metric, with its range; FALSE where it has none
 * (no bytes for a bandwidth, no counters for a count). asked: what the
 * model says the instructions ask for there, for the coalescing. */
static gboolean
measured_value (const WsPlotInput   *in,
                const WsMeasurement *m,
                double               asked,
                WsChartPoint        *p)
{
  double units, per;

  p->lo = p->hi = NAN;
  switch (in->metric)
    {
    case WS_PLOT_BANDWIDTH:
      if (m->bytes <= 0 || m->median_ms <= 0)
        return FALSE;
      p->y = m->bytes / (m->median_ms / 1e3);
      if (m->max_ms > 0 && m->min_ms > 0)
        {
          p->lo = m->bytes / (m->max_ms / 1e3);
          p->hi = m->bytes / (m->min_ms / 1e3);
        }
      return TRUE;
    case WS_PLOT_COST:
      counted (m, in->space, &units, &per);
      if (!(per > 0))
        return FALSE;
      p->y = units / per;
      return TRUE;
    case WS_PLOT_COALESCING:
      counted (m, in->space, &units, &per);
      if (!(units > 0) || asked <= 0)
        return FALSE;
      p->y = MIN (100, 100 * asked / (units * 32));
      return TRUE;
    case WS_PLOT_TIME:
    case WS_N_PLOT_METRICS:
    default:
      p->y = m->median_ms / 1e3;
      p->lo = m->min_ms / 1e3;
      p->hi = m->max_ms / 1e3;
      return TRUE;
    }
}

/* The model's value at a prediction; NAN where it has none. bytes: what
 * the kernel moves there (a measurement's), for a bandwidth. */
static double
model_value (const WsPlotInput      *in,
             const WsPlotPrediction *p,
             double                  bytes)
{
  switch (in->metric)
    {
    case WS_PLOT_BANDWIDTH:
      if (bytes <= 0)
        bytes = p->asked;
      return isnan (p->seconds) || p->seconds <= 0 || bytes <= 0 ? NAN : bytes / p->seconds;
    case WS_PLOT_COST:
      return p->metric;
    case WS_PLOT_COALESCING:
      return p->moved > 0 ? 100 * p->asked / p->moved : NAN;
    case WS_PLOT_TIME:
    case WS_N_PLOT_METRICS:
    default:
      return p->seconds;
    }
}

static void
set_value_axis (WsChart           *chart,
                const WsPlotInput *in)
{
  const char *title = ws_plot_metric_title (in->metric, in->space);

  switch (in->metric)
    {
    case WS_PLOT_BANDWIDTH:
      ws_chart_set_axis (chart, WS_CHART_Y, title, "B/s", TRUE, WS_AXIS_LINEAR);
      break;
    case WS_PLOT_COST:
      ws_chart_set_axis (chart, WS_CHART_Y, title, NULL, FALSE, WS_AXIS_LINEAR);
      break;
    case WS_PLOT_COALESCING:
      ws_chart_set_axis (chart, WS_CHART_Y, title, "%", FALSE, WS_AXIS_LINEAR);
      ws_chart_set_range (chart, WS_CHART_Y, 0, 100);
      break;
    case WS_PLOT_TIME:
    case WS_N_PLOT_METRICS:
    default:
      ws_chart_set_axis (chart, WS_CHART_Y, title, "s", TRUE, WS_AXIS_LINEAR);
      break;
    }
}

/* Values that span more than a decade and a half read on a log axis:
 * decades for times and bandwidths, powers of two for counts. */
static void
choose_scale (WsChart           *chart,
              const WsPlotInput *in)
{
  double lo, hi;

  if (in->metric == WS_PLOT_COALESCING || !ws_chart_axis_extent (chart, WS_CHART_Y, &lo, &hi) || hi / lo < 20)
    return;
  chart->axes[WS_CHART_Y].scale = in->metric == WS_PLOT_COST ? WS_AXIS_LOG2 : WS_AXIS_LOG10;
}

/* The measurement's value at x, in the metric, on a series. */
static void
add_measured (WsChartSeries       *series,
              const WsPlotInput   *in,
              double               x,
              double               asked,
              const WsMeasurement *m)
{
  WsChartPoint p;

  if (measured_value (in, m, asked, &p))
    ws_chart_series_add (series, x, p.y, p.lo, p.hi);
}

static const WsPlotPrediction *
prediction_at (const WsPlotInput *in,
               guint              i)
{
  return &g_array_index (in->prediction, WsPlotPrediction, i);
}

/* What the model says the instructions ask for at x (the prediction's for
 * that x), for the coalescing; 0 when unknown. */
static double
asked_at (const WsPlotInput *in,
          const double      *xs,
          guint              n,
          double             x)
{
  for (guint i = 0; in->prediction && i < MIN (n, in->prediction->len); i++)
    if (xs[i] == x)
      return prediction_at (in, i)->asked;
  return 0;
}

static gboolean
predicts_time (const WsPlotInput *in)
{
  for (guint i = 0; in->prediction && i < in->prediction->len; i++)
    if (!isnan (prediction_at (in, i)->seconds))
      return TRUE;
  return FALSE;
}

/* The model on the measured axis: hollow diamonds that a right model puts
 * on the measured points, joined for a sweep; what the model counts in
 * their tooltips. bytes[i]: what the kernel moves at xs[i], for a bandwidth. */
static WsChartSeries *
add_model (WsChart           *chart,
           const WsPlotInput *in,
           const double      *xs,
           const double      *bytes)
{
  gboolean counts = in->metric == WS_PLOT_COST || in->metric == WS_PLOT_COALESCING;
  g_autofree char *device = in->model_device ? ws_text_for_message (in->model_device) : NULL;
  /* Translators: a series of a plot, "model: predicted on NVIDIA H200" */
  g_autofree char *name = !counts && device ? g_strdup_printf (FG_("model: predicted on %s"), device)
                          : counts ? g_strdup (FG_("model: every instruction of the launch"))
                                   : g_strdup (FG_("model"));
  WsChartSeries *series = NULL;

  for (guint i = 0; i < in->prediction->len; i++)
    {
      const WsPlotPrediction *p = prediction_at (in, i);
      double y = model_value (in, p, bytes ? bytes[i] : 0);
      g_autofree char *note = NULL;

      if (isnan (y))
        continue;
      if (series == NULL)
        {
          series = ws_chart_add_series (chart, name, in->sweep_param ? WS_SERIES_LINE : WS_SERIES_POINTS, WS_CHART_Y,
                                        -1);
          series->overlay = TRUE;
          series->dashed = TRUE;
        }
      ws_chart_series_add (series, xs[i], y, NAN, NAN);
      note = ws_plot_prediction_describe (p, in->prediction_name);
      if (note)
        ws_chart_series_set_note (series, series->points->len - 1, note);
    }
  return series;
}

/* Without a device, the time has no model: what the model counts, on an
 * axis of its own. */
static void
add_counts_beside (WsChart           *chart,
                   const WsPlotInput *in,
                   const double      *xs)
{
  g_autofree char *name = NULL;
  WsChartSeries *series;

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

static WsChartSeries *
add_prediction (WsChart           *chart,
                const WsPlotInput *in,
                const double      *xs,
                const double      *bytes)
{
  if (in->prediction == NULL)
    return NULL;
  /* a time (or a bandwidth) needs a device; counts do not */
  if ((in->metric == WS_PLOT_TIME || in->metric == WS_PLOT_BANDWIDTH) && !predicts_time (in))
    {
      add_counts_beside (chart, in, xs);
      return NULL;
    }
  return add_model (chart, in, xs, bytes);
}

/* A model that stays flat where the measurements move away from it has no
 * term for what the sweep changes (an L2 access-policy window): its line
 * is drawn as such, faint and dotted, with a note, never as if it
 * followed. */
static void
mark_loose (WsChart           *chart,
            WsChartSeries     *model,
            const WsPlotInput *in)
{
  double m_lo = INFINITY, m_hi = -INFINITY, lo = INFINITY, hi = -INFINITY;
  g_autofree char *name = NULL;
  g_autofree char *note = NULL;

  if (model == NULL || model->points->len < 3 || in->sweep_param == NULL)
    return;
  for (guint i = 0; i < model->points->len; i++)
    {
      double y = g_array_index (model->points, WsChartPoint, i).y;
      m_lo = MIN (m_lo, y);
      m_hi = MAX (m_hi, y);
    }
  for (guint s = 0; s < chart->series->len; s++)
    {
      const WsChartSeries *series = g_ptr_array_index (chart->series, s);
      for (guint i = 0; !series->overlay && series->axis == WS_CHART_Y && i < series->points->len; i++)
        {
          double y = g_array_index (series->points, WsChartPoint, i).y;
          lo = MIN (lo, y);
          hi = MAX (hi, y);
        }
    }
  /* flat, and away from the measurements by more than the 25 % the
   * model's times are held to (README, How the model is checked) */
  if (!(m_lo > 0) || m_hi / m_lo > 1.005 || !(lo > 0) || (hi / m_lo < 1.25 && m_lo / lo < 1.25))
    return;
  model->loose = TRUE;
  /* Translators: a model's series that stays flat, then the parameter the measurements follow */
  name = g_strdup_printf (FG_("%s — does not follow %s"), model->name, in->sweep_param);
  g_free (model->name);
  model->name = g_steal_pointer (&name);
  /* Translators: the parameter of a sweep, twice */
  note = g_strdup_printf (FG_("The model's line stays flat as %s changes, where the measurements do not: it has no "
                              "term for what %s does here, so it is drawn dotted, not as a prediction of these "
                              "points."),
                          in->sweep_param, in->sweep_param);
  ws_chart_set_footnote (chart, note);
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

void
ws_plot_sources_from_session (WsPlotSources *sources,
                              WsSession     *session,
                              GPtrArray     *recordings)
{
  const WsDeviceInfo *device = ws_session_get_device (session);

  sources->recordings = recordings;
  sources->live_device = device ? device->name : NULL;
  sources->live = ws_session_get_live (session);
}

/* A hue for each recording, and one after them for live measurements
 * (the third, orange, beside one recording's blue). */
int
ws_plot_live_hue (const WsPlotSources *sources)
{
  return n_recordings (sources) <= 1 ? 2 : (int) n_recordings (sources) + 1;
}

/* "Stride sweep: effective bandwidth as stride varies" */
static char *
plot_title (const WsPlotInput *in)
{
  const char *what = ws_plot_metric_title (in->metric, in->space);
  g_autofree char *name = in->preset && !in->edited ? ws_preset_short_title (FG_(in->preset->title))
                                                    : g_strdup (FG_("Your pattern"));

  if (in->sweep_param)
    /* Translators: a plot's title: the kernel, what is plotted, and the
     * parameter swept (a name in code: "stride") */
    return g_strdup_printf (FG_("%s: %s as %s varies"), name, what, in->sweep_param);
  /* Translators: a plot's title: the topic, and what is plotted */
  return g_strdup_printf (FG_("%s: %s"), in->preset ? FG_(ws_topic_lookup (in->preset->topic)->title) : name, what);
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
    { "shared", "B" }, { "warps", N_("per SM") }, { "carveout", "%" },
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

/* The recorded measurements of the sweep, a series per recording (the
 * main one's bytes at each x kept for the model's bandwidth). */
static void
add_recorded_sweep (WsChart             *chart,
                    const WsPlotInput   *in,
                    const WsPlotSources *sources,
                    const double        *xs,
                    double              *bytes,
                    guint                n)
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

          if (!ws_measurement_get_param (m, in->sweep_param, &x))
            continue;
          add_measured (series, in, x, asked_at (in, xs, n, x), m);
          for (guint k = 0; r == 0 && k < n; k++)
            if (xs[k] == x && m->bytes > 0)
              bytes[k] = m->bytes;
        }
    }
}

static void
add_live_sweep (WsChart             *chart,
                const WsPlotInput   *in,
                const WsPlotSources *sources,
                const double        *xs,
                guint                n)
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
      add_measured (series, in, e->x, asked_at (in, xs, n, e->x), e->m);
    }
  for (guint i = 0; in->sweeping && i < in->sweeping->len; i++)
    {
      const WsMeasurement *m = g_ptr_array_index (in->sweeping, i);
      gint64 x;
      if (series == NULL)
        series = ws_chart_add_series (chart, name, WS_SERIES_POINTS, WS_CHART_Y, ws_plot_live_hue (sources));
      if (ws_measurement_get_param (m, in->sweep_param, &x))
        add_measured (series, in, x, asked_at (in, xs, n, x), m);
    }
}

/* Measured series with no point (a count the recording has no counters
 * for) are left out of the legend: the subtitle says why. */
static void
drop_empty (WsChart *chart)
{
  for (guint i = chart->series->len; i > 0; i--)
    if (((WsChartSeries *) g_ptr_array_index (chart->series, i - 1))->points->len == 0)
      g_ptr_array_remove_index (chart->series, i - 1);
}

static void
build_sweep (WsChart             *chart,
             const WsPlotInput   *in,
             const WsPlotSources *sources)
{
  g_autoptr (GArray) values = sweep_values (in);
  g_autofree char *title = plot_title (in);
  g_autofree char *subtitle = ws_plot_subtitle_for (sources, in->metric);
  g_autofree double *xs = g_new (double, values->len);
  g_autofree double *bytes = g_new0 (double, values->len);
  WsChartSeries *model;
  gint64 current;

  ws_chart_set_title (chart, title, subtitle);
  sweep_axis (chart, in->sweep_param, values);
  set_value_axis (chart, in);
  for (guint i = 0; i < values->len; i++)
    xs[i] = g_array_index (values, gint64, i);
  /* the measurements first: the model's bandwidth divides the bytes they moved */
  add_recorded_sweep (chart, in, sources, xs, bytes, values->len);
  add_live_sweep (chart, in, sources, xs, values->len);
  model = add_prediction (chart, in, xs, bytes);
  drop_empty (chart);
  mark_loose (chart, model, in);
  choose_scale (chart, in);
  if (ws_pattern_get_param (in->pattern, in->sweep_param, &current))
    {
      /* Translators: the legend of the band over the editor's value: the parameter and its value */
      g_autofree char *label = g_strdup_printf (FG_("%s = %lld, in the editor"), in->sweep_param, (long long) current);
      ws_chart_set_highlight (chart, current, label);
    }
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
                double               asked,
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
      add_measured (*live, in, x, asked, e->m);
    }
}

static void
build_topic (WsChart             *chart,
             const WsPlotInput   *in,
             const WsPlotSources *sources)
{
  g_autoptr (GPtrArray) presets = topic_presets (in);
  g_autoptr (GPtrArray) patterns = topic_patterns (in);
  g_autofree char *title = plot_title (in);
  g_autofree char *subtitle = ws_plot_subtitle_for (sources, in->metric);
  g_autofree double *xs = g_new (double, presets->len);
  g_autofree double *bytes = g_new0 (double, presets->len);
  g_autofree WsChartSeries **rec = g_new0 (WsChartSeries *, n_recordings (sources) + 1);
  WsChartSeries *live = NULL;

  ws_chart_set_axis (chart, WS_CHART_X, NULL, NULL, FALSE, WS_AXIS_CATEGORY);
  set_value_axis (chart, in);
  ws_chart_set_title (chart, title, subtitle);
  for (guint i = 0; i < presets->len; i++)
    {
      const WsPreset *p = g_ptr_array_index (presets, i);
      g_autofree char *t = p ? ws_preset_short_title (FG_(p->title)) : g_strdup (FG_("edited pattern"));

      ws_chart_add_category (chart, t);
      xs[i] = i;
      if ((p == NULL) || (p == in->preset && !in->edited))
        ws_chart_set_highlight (chart, i, p ? FG_("this preset") : FG_("the edited pattern"));
    }
  for (guint r = 0; r < n_recordings (sources); r++)
    {
      g_autofree char *name = ws_plot_recording_name (recording_nth (sources, r));
      rec[r] = ws_chart_add_series (chart, name, WS_SERIES_POINTS, WS_CHART_Y, r);
    }
  for (guint i = 0; i < presets->len; i++)
    {
      const WsPreset *p = g_ptr_array_index (presets, i);
      double asked = in->prediction && i < in->prediction->len ? prediction_at (in, i)->asked : 0;

      for (guint r = 0; p && r < n_recordings (sources); r++)
        {
          g_autoptr (GPtrArray) found = ws_plot_recorded (recording_nth (sources, r), p->id,
                                                          g_ptr_array_index (patterns, i), NULL);
          if (found->len > 0)
            {
              const WsMeasurement *m = g_ptr_array_index (found, 0);
              add_measured (rec[r], in, i, asked, m);
              if (r == 0 && m->bytes > 0)
                bytes[i] = m->bytes;
            }
        }
      add_topic_live (chart, in, sources, p, i, asked, &live);
    }
  add_prediction (chart, in, xs, bytes);
  drop_empty (chart);
  choose_scale (chart, in);
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
  WsPlotMetric metric = ws_plot_metric_for (preset);

  g_return_val_if_fail (pattern != NULL && access < ws_pattern_get_n_accesses (pattern), NULL);

  /* the lesson's, where it means something for this instruction */
  if (!ws_plot_metric_applies (metric, ws_pattern_get_access (pattern, access)->space))
    metric = WS_PLOT_TIME;
  return ws_plot_build_metric (preset, pattern, access, profile, sources, metric);
}

WsChart *
ws_plot_build_metric (const WsPreset        *preset,
                      const WsPattern       *pattern,
                      guint                  access,
                      const WsDeviceProfile *profile,
                      const WsPlotSources   *sources,
                      WsPlotMetric           metric)
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
  in.metric = metric;
  in.space = ws_pattern_get_access (pattern, access)->space;
  return ws_plot_build (&in, sources);
}
