/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Comparisons: what each pattern measured, from every source, what the
 * model says it costs, and the ratios between them.
 *
 * The model counts work, not time, so its prediction is a ratio: the
 * bytes the 32-byte sectors of global and local memory move per warp (what
 * a DRAM-bound kernel pays for), else shared-memory wavefronts, else
 * constant-cache requests — the first of these in which the patterns
 * differ. Per warp, because presets launch grids of their own sizes while
 * their kernels give every warp the same work. Its points sit on a right axis scaled so that the first
 * pattern's cost is level with the first pattern's measured time: where a
 * point would be if time followed the model. */
#include "ws-compare.h"
#include "ws-hierarchy-figure.h"
#include "ws-kernel-predict.h"
#include "ws-plot-cache.h"
#include "ws-plot-model.h"
#include "ws-figure-i18n-private.h"

#include <math.h>
#include <string.h>

typedef enum
{
  COST_BYTES,
  COST_WAVEFRONTS,
  COST_REQUESTS,
  N_COSTS
} CostKind;

static const struct
{
  const char *name;          /* legend and notes */
  const char *description;   /* the subtitle */
} costs_info[N_COSTS] = {
  { N_("bytes moved"), N_("bytes moved per warp by global and local sectors") },
  { N_("wavefronts"), N_("shared-memory wavefronts per warp") },
  { N_("requests"), N_("constant-cache requests per warp") },
};

static double
cost_value (const WsCompareCost *c,
            CostKind             k)
{
  return k == COST_BYTES ? c->bytes : k == COST_WAVEFRONTS ? c->wavefronts : c->requests;
}

static gboolean
cost_varies (const WsCompareCost *costs,
             guint                n,
             CostKind             k)
{
  double lo = INFINITY, hi = 0;

  for (guint i = 0; i < n; i++)
    {
      lo = MIN (lo, cost_value (&costs[i], k));
      hi = MAX (hi, cost_value (&costs[i], k));
    }
  return hi > 0 && hi - lo > 1e-9 * hi;
}

/* The first cost in which the patterns differ, else the first they have;
 * N_COSTS when the model has nothing to say (or is still at work). */
static CostKind
primary_cost (const WsCompareCost *costs,
              guint                n)
{
  for (guint i = 0; costs && i < n; i++)
    if (!costs[i].known)
      return N_COSTS;
  for (CostKind k = 0; costs && k < N_COSTS; k++)
    if (cost_varies (costs, n, k))
      return k;
  for (CostKind k = 0; costs && k < N_COSTS; k++)
    if (cost_value (&costs[0], k) > 0)
      return k;
  return N_COSTS;
}

/* ------------------------------------------------------------------ */
/* Ratios                                                             */
/* ------------------------------------------------------------------ */

static char *
format_ratio (double r)
{
  return g_strdup_printf (r >= 9.95 ? "%.0f×" : r >= 1.995 ? "%.1f×" : "%.2f×", r);
}

/* "6.0× slower", "1.61× faster", "as fast" */
static char *
speed_text (double t,
            double base)
{
  double r = t / base;
  g_autofree char *ratio = NULL;

  if (fabs (r - 1) < 0.005)
    return g_strdup (FG_("as fast"));
  ratio = format_ratio (r >= 1 ? r : 1 / r);
  /* Translators: a ratio, "6.0×" */
  return g_strdup_printf (r >= 1 ? FG_("%s slower") : FG_("%s faster"), ratio);
}

/* "256 B per warp", "1.02 kB per warp", "33 wavefronts per warp" */
static char *
format_amount (double   v,
               CostKind k)
{
  g_autofree char *amount = NULL;

  if (k == COST_BYTES)
    {
      WsChartAxis axis = { .si = TRUE, .unit = (char *) "B", .max = v };
      amount = ws_chart_axis_format (&axis, v, TRUE);
    }
  else
    {
      g_autofree char *number = g_strdup_printf ("%.3g", v);
      /* the count that picks the plural: a fraction's ("2.5 wavefronts") as 2's */
      gulong n = v == 1 ? 1 : v == rint (v) && v < 1e9 ? (gulong) v : 2;

      amount = g_strdup_printf (k == COST_WAVEFRONTS ? NG_("%s wavefront", "%s wavefronts", n)
                                                     : NG_("%s request", "%s requests", n),
                                number);
    }
  /* Translators: an amount per warp, "256 B per warp", "33 wavefronts per warp" */
  return g_strdup_printf (FG_("%s per warp"), amount);
}

/* ------------------------------------------------------------------ */
/* Measurements                                                       */
/* ------------------------------------------------------------------ */

static const WsMeasurement *
live_for (const WsPlotSources *sources,
          const WsCompareItem *item)
{
  const WsPreset *preset;
  gint64 x = 0;
  gboolean swept;

  /* a kernel of one's own by its text and launch, the newest */
  for (guint i = sources->live && item->kernel ? sources->live->len : 0; i > 0; i--)
    {
      const WsLiveEntry *e = g_ptr_array_index (sources->live, i - 1);
      if (g_strcmp0 (e->key, item->kernel_key) == 0)
        return e->m;
    }
  if (item->kernel)
    return NULL;
  preset = ws_preset_lookup (item->id);
  swept = preset->sweep_param && ws_pattern_get_param (item->pattern, preset->sweep_param, &x);

  for (guint i = sources->live ? sources->live->len : 0; i > 0; i--)
    {
      const WsLiveEntry *e = g_ptr_array_index (sources->live, i - 1);
      if (g_strcmp0 (e->preset_id, item->id) == 0 && (!swept || isnan (e->x) || e->x == x))
        return e->m;
    }
  return NULL;
}

/* Measurement of item from source s: the recordings in order, then live. */
static const WsMeasurement *
measured (const WsPlotSources *sources,
          guint                s,
          const WsCompareItem *item)
{
  guint n_rec = sources->recordings ? sources->recordings->len : 0;

  /* a recording holds presets; a kernel of one's own is measured live */
  if (item->kernel && s < n_rec)
    return NULL;
  if (s < n_rec)
    return ws_plot_recorded_one (g_ptr_array_index (sources->recordings, s), ws_preset_lookup (item->id),
                                 item->pattern);
  return live_for (sources, item);
}

static guint
n_sources (const WsPlotSources *sources)
{
  return (sources->recordings ? sources->recordings->len : 0) + (sources->live_device ? 1 : 0);
}

static char *
source_name (const WsPlotSources *sources,
             guint                s)
{
  guint n_rec = sources->recordings ? sources->recordings->len : 0;

  return s < n_rec ? ws_plot_recording_name (g_ptr_array_index (sources->recordings, s))
                   : ws_plot_live_name (sources->live_device);
}

/* ------------------------------------------------------------------ */
/* The chart                                                          */
/* ------------------------------------------------------------------ */

typedef struct
{
  GPtrArray *items;
  const WsCompareCost *costs;
  const WsPlotPrediction *predicted;   /* NULL, or one per item with a time for each */
  const char *model_device;
  const WsPlotSources *sources;
  CostKind primary;
  double base_time;          /* the first pattern's time in the first source that has it, 0 if none */
  double top;                /* the highest time shown */
} Build;

static void
add_measured (WsChart *chart,
              Build   *b)
{
  for (guint s = 0; s < n_sources (b->sources); s++)
    {
      g_autofree char *name = source_name (b->sources, s);
      WsChartSeries *series = NULL;
      const WsMeasurement *base = measured (b->sources, s, g_ptr_array_index (b->items, 0));
      gboolean live = b->sources->recordings == NULL || s >= b->sources->recordings->len;
      int hue = live ? ws_plot_live_hue (b->sources) : (int) s;

      for (guint i = 0; i < b->items->len; i++)
        {
          const WsMeasurement *m = measured (b->sources, s, g_ptr_array_index (b->items, i));
          g_autofree char *note = NULL;

          if (m == NULL)
            continue;
          if (series == NULL)
            series = ws_chart_add_series (chart, name, WS_SERIES_POINTS, WS_CHART_Y, hue);
          ws_chart_series_add (series, i, m->median_ms / 1e3, m->min_ms / 1e3, m->max_ms / 1e3);
          b->top = MAX (b->top, m->max_ms / 1e3);
          if (b->base_time == 0 && base)
            b->base_time = base->median_ms / 1e3;
          note = i == 0 ? g_strdup (FG_("baseline")) : base ? speed_text (m->median_ms, base->median_ms) : NULL;
          if (note)
            ws_chart_add_note (chart, i, note, hue, i > 0);
        }
    }
  /* said, rather than left for the reader to wonder at the gap */
  for (guint i = 0; i < b->items->len && n_sources (b->sources) > 0; i++)
    {
      const WsCompareItem *item = g_ptr_array_index (b->items, i);
      gboolean any = FALSE;

      for (guint s = 0; s < n_sources (b->sources) && item->kernel; s++)
        any |= measured (b->sources, s, item) != NULL;
      if (item->kernel && !any)
        ws_chart_add_note (chart, i, FG_("not measured"), WS_CHART_NOTE_TEXT, FALSE);
    }
}

/* The model's note for item i: its cost against the first's, in every
 * cost in which the patterns differ (the absolute cost for the first). */
static void
add_model_notes (WsChart *chart,
                 Build   *b,
                 guint    i)
{
  for (CostKind k = 0; k < N_COSTS; k++)
    {
      double v = cost_value (&b->costs[i], k), base = cost_value (&b->costs[0], k);
      g_autofree char *text = NULL;

      if (k != b->primary && !cost_varies (b->costs, b->items->len, k))
        continue;
      if (v <= 0)
        /* Translators: "model: no wavefronts" */
        text = g_strdup_printf (FG_("model: no %s"), k == COST_BYTES ? FG_("global or local memory") : FG_(costs_info[k].name));
      else if (i == 0 || base <= 0)
        {
          g_autofree char *amount = format_amount (v, k);
          /* Translators: "model: 4 wavefronts" */
          text = g_strdup_printf (FG_("model: %s"), amount);
        }
      else
        {
          g_autofree char *ratio = format_ratio (v / base);
          /* Translators: a ratio and a cost, "model: 2.0× the wavefronts" */
          text = g_strdup_printf (FG_("model: %s the %s"), ratio, FG_(costs_info[k].name));
        }
      ws_chart_add_note (chart, i, text, WS_CHART_NOTE_MODEL, FALSE);
    }
}

/* The model's time, where the measured medians are: a right model puts
 * its hollow diamonds on the points. Its notes say how much slower it
 * predicts each to be than the first, as the measurements' say how much
 * slower they are; what it counts goes in the tooltips. */
static void
add_predicted (WsChart *chart,
               Build   *b)
{
  g_autofree char *device = b->model_device ? ws_text_for_message (b->model_device) : NULL;
  g_autofree char *name = device ? g_strdup_printf (FG_("model: predicted on %s"), device)
                                 : g_strdup (FG_("model: predicted time"));
  WsChartSeries *series = ws_chart_add_series (chart, name, WS_SERIES_POINTS, WS_CHART_Y, -1);
  double base = b->predicted[0].seconds;

  series->overlay = TRUE;
  for (guint i = 0; i < b->items->len; i++)
    {
      const WsPlotPrediction *p = &b->predicted[i];
      g_autofree char *note = NULL;
      g_autofree char *tip = NULL;
      GString *t = g_string_new (NULL);

      ws_chart_series_add (series, i, p->seconds, NAN, NAN);
      b->top = MAX (b->top, p->seconds);
      for (CostKind k = 0; b->costs && k < N_COSTS; k++)
        if (k == b->primary || cost_varies (b->costs, b->items->len, k))
          {
            g_autofree char *amount = format_amount (cost_value (&b->costs[i], k), k);
            if (t->len)
              g_string_append_c (t, '\n');
            g_string_append_printf (t, FG_("model: %s"), amount);
          }
      if (p->bound)
        {
          if (t->len)
            g_string_append_c (t, '\n');
          /* Translators: "bound by DRAM" */
          g_string_append_printf (t, FG_("bound by %s"), FG_(p->bound));
        }
      tip = g_string_free (t, FALSE);
      if (*tip)
        ws_chart_series_set_note (series, series->points->len - 1, tip);
      note = i == 0 ? NULL : speed_text (p->seconds, base);
      if (note)
        {
          g_autofree char *text = g_strdup_printf (FG_("model: %s"), note);
          ws_chart_add_note (chart, i, text, WS_CHART_NOTE_MODEL, FALSE);
        }
    }
}

static gboolean
predicts_time (const WsPlotPrediction *predicted,
               guint                   n)
{
  for (guint i = 0; predicted && i < n; i++)
    if (isnan (predicted[i].seconds) || predicted[i].seconds <= 0)
      return FALSE;
  return predicted != NULL;
}

static void
add_model (WsChart *chart,
           Build   *b)
{
  double base;
  g_autofree char *name = NULL;
  g_autofree char *axis = NULL;
  WsChartSeries *series = NULL;

  if (b->primary == N_COSTS)
    return;
  base = cost_value (&b->costs[0], b->primary);
  /* Translators: a series of a plot, "model: wavefronts, relative to the first" */
  name = g_strdup_printf (FG_("model: %s, relative to the first"), FG_(costs_info[b->primary].name));
  /* Translators: an axis of a plot, "model: wavefronts, ratio" */
  axis = g_strdup_printf (FG_("model: %s, ratio"), FG_(costs_info[b->primary].name));
  for (guint i = 0; i < b->items->len && base > 0; i++)
    {
      double r = cost_value (&b->costs[i], b->primary) / base;

      /* none of this cost: the model says nothing of its time (its note says why) */
      if (r <= 0)
        continue;
      /* a series, and its axis, only with a point to show */
      if (series == NULL)
        {
          ws_chart_set_axis (chart, WS_CHART_Y2, axis, "×", FALSE, WS_AXIS_LINEAR);
          series = ws_chart_add_series (chart, name, WS_SERIES_LINE, WS_CHART_Y2, -1);
        }
      ws_chart_series_add (series, i, r, NAN, NAN);
      b->top = MAX (b->top, r * b->base_time);
    }
  for (guint i = 0; i < b->items->len; i++)
    add_model_notes (chart, b, i);
}

/* A round number at or above v. */
static double
nice_ceiling (double v)
{
  static const double steps[] = { 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10 };
  double mag = pow (10, floor (log10 (v)));

  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    if (steps[i] * mag >= v * (1 - 1e-9))
      return steps[i] * mag;
  return 10 * mag;
}

/* Time and the model's ratio on one scale: the first pattern's cost is
 * level with its time. */
static void
align_axes (WsChart *chart,
            Build   *b)
{
  double top;

  if (b->base_time <= 0 || b->top <= 0)
    return;
  top = nice_ceiling (b->top * 1.08);
  ws_chart_set_range (chart, WS_CHART_Y, 0, top);
  if (b->primary != N_COSTS)
    ws_chart_set_range (chart, WS_CHART_Y2, 0, top / b->base_time);
}

/* "Shared-memory tile, padded is 6.7× faster than Naive, coalesced reads":
 * the fastest against the slowest, in the first source that has them all. */
static char *
headline (Build *b)
{
  for (guint s = 0; s < n_sources (b->sources); s++)
    {
      guint fast = 0, slow = 0;
      const WsMeasurement *mf = NULL, *ms = NULL;
      gboolean all = TRUE;

      for (guint i = 0; i < b->items->len && all; i++)
        {
          const WsMeasurement *m = measured (b->sources, s, g_ptr_array_index (b->items, i));
          all = m != NULL;
          if (m && (mf == NULL || m->median_ms < mf->median_ms))
            mf = m, fast = i;
          if (m && (ms == NULL || m->median_ms > ms->median_ms))
            ms = m, slow = i;
        }
      if (all && fast != slow)
        {
          g_autofree char *ratio = format_ratio (ms->median_ms / mf->median_ms);
          g_autofree char *fast_title = NULL;
          g_autofree char *slow_title = NULL;

          fast_title = ws_compare_item_dup_title (g_ptr_array_index (b->items, fast), ws_figure_gettext);
          slow_title = ws_compare_item_dup_title (g_ptr_array_index (b->items, slow), ws_figure_gettext);
          /* Translators: "Shared-memory tile is 6.7× faster than Naive" */
          return g_strdup_printf (FG_("%s is %s faster than %s"), fast_title, ratio, slow_title);
        }
    }
  return NULL;
}

static char *
default_title (GPtrArray *items)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < items->len; i++)
    {
      g_autofree char *title = ws_compare_item_dup_title (g_ptr_array_index (items, i), ws_figure_gettext);

      /* Translators: between the last two of the patterns a comparison's title lists */
      g_string_append_printf (s, "%s%s", i == 0 ? "" : i + 1 == items->len ? FG_(" against ") : ", ", title);
    }
  return g_string_free (s, FALSE);
}

/* Where the members are launches of different sizes, their times are not
 * for the same work, and the subtitle says so: "not the same work: 67.1 M
 * threads in Copy (the bound), 262 k in transposeCoalesced". NULL where
 * they are all within a tenth of the first's. */
static char *
sizes_differ (Build *b)
{
  guint64 first = ws_compare_item_threads (g_ptr_array_index (b->items, 0));
  gboolean differ = FALSE;
  GString *s;

  for (guint i = 1; i < b->items->len && first > 0; i++)
    {
      guint64 n = ws_compare_item_threads (g_ptr_array_index (b->items, i));
      differ |= n > 0 && (n > first * 1.1 || n < first / 1.1);
    }
  if (!differ)
    return NULL;
  s = g_string_new (FG_("not the same work:"));
  for (guint i = 0; i < b->items->len; i++)
    {
      const WsCompareItem *item = g_ptr_array_index (b->items, i);
      g_autofree char *title = ws_compare_item_dup_title (item, ws_figure_gettext);
      g_autofree char *plain = ws_hier_format_count ((double) ws_compare_item_threads (item));
      g_auto (GStrv) parts = g_strsplit (plain, " ", -1);
      /* "262 k" kept on one line where the subtitle wraps */
      g_autofree char *count = g_strjoinv ("\u00a0", parts);

      if (i == 0)
        /* Translators: the first of "not the same work: 67.1 M threads in Copy, 262 k in transposeCoalesced" */
        g_string_append_printf (s, FG_(" %s threads in %s"), count, title);
      else
        /* Translators: the others of "not the same work: 67.1 M threads in Copy, 262 k in transposeCoalesced" */
        g_string_append_printf (s, FG_(", %s in %s"), count, title);
    }
  return g_string_free (s, FALSE);
}

static char *
subtitle (Build *b)
{
  g_autofree char *sources = ws_plot_subtitle (b->sources);
  g_autofree char *what = NULL;
  g_autofree char *sizes = sizes_differ (b);

  if (sizes)
    {
      char *with = g_strdup_printf ("%s · %s", sources, sizes);
      g_free (sources);
      sources = with;
    }
  if (b->predicted)
    return g_strdup_printf ("%s · %s", sources, FG_("◇ the model's predicted time"));
  if (b->primary == N_COSTS)
    return g_steal_pointer (&sources);
  /* the first has none of the cost: nothing to be relative to */
  if (cost_value (&b->costs[0], b->primary) <= 0)
    what = g_strdup_printf (FG_("model: %s"), FG_(costs_info[b->primary].description));
  else
    what = g_strdup_printf (FG_("model: %s, relative to the first"), FG_(costs_info[b->primary].description));
  return g_strdup_printf ("%s · %s", sources, what);
}

WsChart *
ws_compare_build_chart (GPtrArray              *items,
                        const WsCompareCost    *costs,
                        const WsPlotPrediction *predicted,
                        const char             *model_device,
                        const WsPlotSources    *sources)
{
  WsChart *chart = ws_chart_new ();
  Build b = { items, costs, NULL, model_device, sources, primary_cost (costs, items->len), 0, 0 };
  g_autofree char *title = NULL;
  g_autofree char *sub = NULL;

  g_return_val_if_fail (items->len >= 1 && items->len <= WS_COMPARE_MAX, chart);
  ws_chart_set_axis (chart, WS_CHART_X, NULL, NULL, FALSE, WS_AXIS_CATEGORY);
  ws_chart_set_axis (chart, WS_CHART_Y, FG_("median time"), "s", TRUE, WS_AXIS_LINEAR);
  for (guint i = 0; i < items->len; i++)
    {
      g_autofree char *category = ws_compare_item_dup_title (g_ptr_array_index (items, i), ws_figure_gettext);

      ws_chart_add_category (chart, category);
    }
  add_measured (chart, &b);
  if (predicts_time (predicted, items->len))
    {
      double lo, hi;

      b.predicted = predicted;
      add_predicted (chart, &b);
      /* times that span decades (one address against one per thread, 57×)
       * read on a log axis: on a linear one the fast ones lie on the floor */
      if (ws_chart_axis_extent (chart, WS_CHART_Y, &lo, &hi) && lo > 0 && hi / lo >= 20)
        chart->axes[WS_CHART_Y].scale = WS_AXIS_LOG10;
    }
  else
    {
      add_model (chart, &b);
      align_axes (chart, &b);
    }
  title = headline (&b);
  sub = subtitle (&b);
  if (title == NULL)
    title = default_title (items);
  ws_chart_set_title (chart, title, sub);
  ws_chart_set_message (chart, FG_("No measurement of these patterns: no GPU, and no recording of them."));
  return chart;
}

typedef struct
{
  GPtrArray *items;
  const WsDeviceProfile *profile;
  GCancellable *cancellable;
  WsPlotPrediction *values;
} PredictItems;

/* One item's time: the items of a comparison are followed side by side,
 * each on a thread of its own (they were one after another, a few seconds
 * each for four transposes). */
static gpointer
predict_item (gpointer data)
{
  PredictItems *job = ((gpointer *) data)[0];
  guint i = GPOINTER_TO_UINT (((gpointer *) data)[1]);
  const WsCompareItem *item = g_ptr_array_index (job->items, i);
  g_autoptr (WsPlotModel) model = NULL;

  if (item->kernel)
    {
      g_autoptr (WsKernelPrediction) p = ws_kernel_predict (item->kernel, job->profile, 0, job->cancellable, NULL,
                                                             NULL);
      if (p && p->has_timing)
        {
          job->values[i].seconds = p->timing.predicted_ms / 1e3;
          job->values[i].bound = ws_plot_bound_name (p->timing.bound);
        }
      return NULL;
    }
  model = ws_plot_model_compute (ws_preset_lookup (item->id), item->pattern, job->profile, job->cancellable, NULL);
  if (model)
    {
      job->values[i].seconds = model->predicted_s;
      job->values[i].bound = ws_plot_model_bound_name (model);
    }
  return NULL;
}

GArray *
ws_compare_predict (GPtrArray             *items,
                    const WsDeviceProfile *profile,
                    GCancellable          *cancellable)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (WsPlotPrediction));
  PredictItems job = { items, profile, cancellable, NULL };
  gpointer args[WS_COMPARE_MAX][2];
  GThread *threads[WS_COMPARE_MAX] = { NULL };

  g_return_val_if_fail (items != NULL && profile != NULL, out);
  g_return_val_if_fail (items->len <= WS_COMPARE_MAX, out);

  g_array_set_size (out, items->len);
  for (guint i = 0; i < items->len; i++)
    g_array_index (out, WsPlotPrediction, i) = (WsPlotPrediction) { NAN, NAN, NULL, 0, 0 };
  job.values = (WsPlotPrediction *) (void *) out->data;
  for (guint i = 0; i < items->len; i++)
    {
      args[i][0] = &job;
      args[i][1] = GUINT_TO_POINTER (i);
      /* the first on this thread, the others beside it */
      if (i > 0)
        threads[i] = g_thread_try_new ("ws-compare-predict", predict_item, args[i], NULL);
    }
  if (items->len > 0)
    predict_item (args[0]);
  for (guint i = 1; i < items->len; i++)
    {
      if (threads[i])
        g_thread_join (threads[i]);
      else
        predict_item (args[i]);
    }
  if (g_cancellable_is_cancelled (cancellable))
    {
      g_array_unref (out);
      return NULL;
    }
  return out;
}

/* ------------------------------------------------------------------ */
/* Costs                                                              */
/* ------------------------------------------------------------------ */

typedef struct
{
  const WsCompareItem *item;
  WsCompareCost *cost;
  GCancellable *cancellable;
  GError *error;
} CostJob;

static gpointer
cost_item (gpointer data)
{
  CostJob *job = data;
  g_autofree char *key = NULL;
  double saved[3];

  /* a kernel's file may change under it: counted again each time */
  if (job->item->kernel)
    {
      ws_compare_item_cost (job->item, job->cost, job->cancellable, &job->error);
      return NULL;
    }
  key = ws_pattern_sweep_key (job->item->pattern, NULL);
  if (ws_plot_cache_lookup ("cost", key, saved, 3))
    {
      *job->cost = (WsCompareCost) { TRUE, saved[0], saved[1], saved[2] };
      return NULL;
    }
  if (!ws_compare_item_cost (job->item, job->cost, job->cancellable, &job->error))
    return NULL;
  saved[0] = job->cost->bytes;
  saved[1] = job->cost->wavefronts;
  saved[2] = job->cost->requests;
  ws_plot_cache_store ("cost", key, saved, 3);
  return NULL;
}

gboolean
ws_compare_costs (GPtrArray     *items,
                  WsCompareCost *costs,
                  GCancellable  *cancellable,
                  GError       **error)
{
  CostJob jobs[WS_COMPARE_MAX];
  GThread *threads[WS_COMPARE_MAX] = { NULL };

  g_return_val_if_fail (items != NULL && items->len <= WS_COMPARE_MAX, FALSE);

  for (guint i = 0; i < items->len; i++)
    {
      jobs[i] = (CostJob) { g_ptr_array_index (items, i), &costs[i], cancellable, NULL };
      if (i > 0)
        threads[i] = g_thread_try_new ("ws-compare-cost", cost_item, &jobs[i], NULL);
    }
  if (items->len > 0)
    cost_item (&jobs[0]);
  for (guint i = 1; i < items->len; i++)
    {
      if (threads[i])
        g_thread_join (threads[i]);
      else
        cost_item (&jobs[i]);
    }
  for (guint i = 0; i < items->len; i++)
    if (jobs[i].error)
      {
        WsCompareItem *item = g_ptr_array_index (items, i);
        g_propagate_prefixed_error (error, jobs[i].error, "%s: ", item->id);
        for (guint k = i + 1; k < items->len; k++)
          g_clear_error (&jobs[k].error);
        return FALSE;
      }
  return TRUE;
}
