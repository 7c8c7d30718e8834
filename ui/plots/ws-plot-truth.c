/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The truth view (ws-plot-truth.h). */
#include "ws-config.h"
#include "ws-plot-truth.h"
#include "ws-json.h"
#include "ws-presets.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* the counters each quantity sums, read and written */
static const char *const counters[WS_TRUTH_N_QUANTITIES][3] = {
  [WS_TRUTH_TIME] = { WS_TRUTH_TIME_METRIC, NULL },
  [WS_TRUTH_L2_SECTORS] = { "lts__t_sectors_srcunit_tex_op_read.sum", "lts__t_sectors_srcunit_tex_op_write.sum", NULL },
  [WS_TRUTH_DRAM_BYTES] = { "dram__bytes_read.sum", "dram__bytes_write.sum", NULL },
};

double
ws_truth_quantity_tolerance (WsTruthQuantity q)
{
  static const double tolerance[WS_TRUTH_N_QUANTITIES] = {
    [WS_TRUTH_TIME] = WS_TRUTH_TIME_TOLERANCE,
    [WS_TRUTH_L2_SECTORS] = WS_TRUTH_L2_TOLERANCE,
    [WS_TRUTH_DRAM_BYTES] = WS_TRUTH_DRAM_TOLERANCE,
  };

  g_return_val_if_fail (q < WS_TRUTH_N_QUANTITIES, NAN);
  return tolerance[q];
}

const char *
ws_truth_quantity_name (WsTruthQuantity q)
{
  static const char *names[WS_TRUTH_N_QUANTITIES] = {
    [WS_TRUTH_TIME] = N_("time"),
    [WS_TRUTH_L2_SECTORS] = N_("L2 sectors"),
    [WS_TRUTH_DRAM_BYTES] = N_("DRAM bytes"),
  };

  g_return_val_if_fail (q < WS_TRUTH_N_QUANTITIES, NULL);
  return names[q];
}

gboolean
ws_truth_within (WsTruthQuantity q,
                 double          model,
                 double          hardware)
{
  return fabs (model - hardware) <= ws_truth_quantity_tolerance (q) * MAX (fabs (model), fabs (hardware));
}

static void
point_free (WsTruthPoint *p)
{
  g_free (p->preset);
  g_free (p);
}

void
ws_truth_view_free (WsTruthView *view)
{
  if (view == NULL)
    return;
  g_free (view->device);
  g_free (view->date);
  g_clear_pointer (&view->points, g_ptr_array_unref);
  g_clear_pointer (&view->topics, g_ptr_array_unref);
  for (guint c = 0; c < WS_TRUTH_N_CHARTS; c++)
    g_clear_pointer (&view->charts[c], ws_chart_free);
  g_free (view);
}

/* ------------------------------------------------------------------ */
/* The presets' figures                                               */
/* ------------------------------------------------------------------ */

static int
quantity_of (const char *metric)
{
  for (guint q = 0; q < WS_TRUTH_N_QUANTITIES; q++)
    for (guint k = 0; counters[q][k]; k++)
      if (g_str_equal (metric, counters[q][k]))
        return q;
  return -1;
}

/* The topic's name as the view keeps it (one string per topic). */
static const char *
topic_of (WsTruthView *view,
          const char  *preset)
{
  g_autofree char *topic = g_strndup (preset, strcspn (preset, "/"));

  for (guint i = 0; i < view->topics->len; i++)
    if (g_str_equal (g_ptr_array_index (view->topics, i), topic))
      return g_ptr_array_index (view->topics, i);
  g_ptr_array_add (view->topics, g_steal_pointer (&topic));
  return g_ptr_array_index (view->topics, view->topics->len - 1);
}

/* The topics in the sidebar's order, those it does not know after. */
static int
topic_rank (const char *topic)
{
  guint n;
  const WsTopic *topics = ws_topics_get_all (&n);

  for (guint i = 0; i < n; i++)
    if (g_str_equal (topics[i].id, topic))
      return (int) i;
  return (int) n;
}

static int
compare_topics (gconstpointer a,
                gconstpointer b)
{
  return topic_rank (*(char *const *) a) - topic_rank (*(char *const *) b);
}

static void
gather (WsTruthView        *view,
        const WsTruthTable *table)
{
  g_autoptr (GHashTable) by_preset = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < table->entries->len; i++)
    {
      const WsTruthEntry *e = g_ptr_array_index (table->entries, i);
      int q = quantity_of (e->metric);
      WsTruthPoint *p;

      /* the presets; a typed pattern's cases are named expr/… */
      if (q < 0 || g_str_has_prefix (e->pattern, "expr/") || strchr (e->pattern, '/') == NULL)
        continue;
      if ((p = g_hash_table_lookup (by_preset, e->pattern)) == NULL)
        {
          p = g_new0 (WsTruthPoint, 1);
          p->preset = g_strdup (e->pattern);
          p->topic = topic_of (view, e->pattern);
          for (guint k = 0; k < WS_TRUTH_N_QUANTITIES; k++)
            p->model[k] = p->hardware[k] = NAN;
          g_ptr_array_add (view->points, p);
          g_hash_table_insert (by_preset, p->preset, p);
        }
      p->model[q] = (isnan (p->model[q]) ? 0 : p->model[q]) + e->model;
      p->hardware[q] = (isnan (p->hardware[q]) ? 0 : p->hardware[q]) + e->hardware;
    }
  g_ptr_array_sort (view->topics, compare_topics);
}

static gboolean
plotted (const WsTruthPoint *p,
         WsTruthQuantity     q)
{
  /* a log axis has no room for nothing */
  return p->model[q] > 0 && p->hardware[q] > 0;
}

/* ------------------------------------------------------------------ */
/* The charts                                                         */
/* ------------------------------------------------------------------ */

static char *
subtitle (const WsTruthView *view,
          WsTruthQuantity    q)
{
  /* Translators: presets within the band, presets, the band in %, the GPU, the day the table was made */
  return g_strdup_printf (_("%u of %u presets within %.0f %% · %s, measured %s"), view->within[q], view->counted[q],
                          ws_truth_quantity_tolerance (q) * 100, view->device, view->date);
}

static WsChart *
scatter (WsTruthView    *view,
         WsTruthQuantity q)
{
  static const char *titles[WS_TRUTH_N_QUANTITIES] = {
    [WS_TRUTH_TIME] = N_("Predicted time against the measured median"),
    [WS_TRUTH_L2_SECTORS] = N_("L2 sectors: the model against the counters"),
    [WS_TRUTH_DRAM_BYTES] = N_("DRAM bytes: the model against the counters"),
  };
  static const char *units[WS_TRUTH_N_QUANTITIES] = { "s", NULL, "B" };
  /* times in the table are in ms */
  double unit = q == WS_TRUTH_TIME ? 1e-3 : 1;
  double tol = ws_truth_quantity_tolerance (q), lo = INFINITY, hi = 0;
  WsChart *chart = ws_chart_new ();
  g_autofree char *sub = NULL;
  g_autofree char *band = NULL;
  WsChartSeries *equal, *edge, *inside, *outside;

  /* Translators: a chart's legend: a preset's point, the model within the band of the hardware, or not */
  inside = ws_chart_add_series (chart, _("within the band"), WS_SERIES_POINTS, WS_CHART_Y, 0);
  outside = ws_chart_add_series (chart, _("outside it"), WS_SERIES_POINTS, WS_CHART_Y, 2);
  for (guint i = 0; i < view->points->len; i++)
    {
      const WsTruthPoint *p = g_ptr_array_index (view->points, i);
      gboolean in;
      WsChartSeries *s;
      g_autofree char *note = NULL;

      if (!plotted (p, q))
        continue;
      in = ws_truth_within (q, p->model[q], p->hardware[q]);
      view->counted[q]++;
      view->within[q] += in;
      s = in ? inside : outside;
      ws_chart_series_add (s, p->hardware[q] * unit, p->model[q] * unit, NAN, NAN);
      /* Translators: a point's tooltip: the preset, then the model's figure as a share of the hardware's */
      note = g_strdup_printf (_("%s: the model says %.2f× the hardware"), p->preset, p->model[q] / p->hardware[q]);
      ws_chart_series_set_note (s, s->points->len - 1, note);
      lo = MIN (lo, MIN (p->model[q], p->hardware[q]) * unit);
      hi = MAX (hi, MAX (p->model[q], p->hardware[q]) * unit);
    }
  if (hi > 0)
    {
      /* Translators: a chart's legend: the diagonal where the model's figure is the hardware's */
      equal = ws_chart_add_series (chart, _("model = hardware"), WS_SERIES_LINE, WS_CHART_Y, -1);
      ws_chart_series_add (equal, lo, lo, NAN, NAN);
      ws_chart_series_add (equal, hi, hi, NAN, NAN);
      /* Translators: a chart's legend: the band, in %, the model is held to */
      band = g_strdup_printf (_("±%.0f %%"), tol * 100);
      /* its edges, one after the other: (1 − tol) × to 1 / (1 − tol) × */
      edge = ws_chart_add_series (chart, band, WS_SERIES_LINE, WS_CHART_Y, -1);
      edge->dashed = TRUE;
      ws_chart_series_add (edge, hi * (1 - tol), hi, NAN, NAN);
      ws_chart_series_add (edge, lo, lo / (1 - tol), NAN, NAN);
      ws_chart_series_add (edge, lo, lo * (1 - tol), NAN, NAN);
      ws_chart_series_add (edge, hi, hi * (1 - tol), NAN, NAN);
    }
  sub = subtitle (view, q);
  ws_chart_set_title (chart, _(titles[q]), sub);
  /* Translators: an axis: what the GPU measured */
  ws_chart_set_axis (chart, WS_CHART_X, q == WS_TRUTH_TIME ? _("measured") : _("hardware counters"), units[q], TRUE,
                     WS_AXIS_LOG10);
  /* Translators: an axis: what the model says */
  ws_chart_set_axis (chart, WS_CHART_Y, _("model"), units[q], TRUE, WS_AXIS_LOG10);
  ws_chart_set_message (chart, _("The table has none of these figures"));
  ws_chart_autoscale (chart);
  if (hi > 0)
    {
      /* the same decades across and up: the diagonal at 45° */
      double min = pow (10, floor (log10 (lo * (1 - tol)))), max = pow (10, ceil (log10 (hi / (1 - tol))));

      ws_chart_set_range (chart, WS_CHART_X, min, max);
      ws_chart_set_range (chart, WS_CHART_Y, min, max);
    }
  return chart;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* The time's error by topic: the median of |model / measured − 1| of its
 * presets, with the least and the largest. */
static WsChart *
by_topic (WsTruthView *view)
{
  WsChart *chart = ws_chart_new ();
  WsChartSeries *s;
  g_autofree char *sub = NULL;

  for (guint t = 0; t < view->topics->len; t++)
    ws_chart_add_category (chart, g_ptr_array_index (view->topics, t));
  /* Translators: a chart's legend: a topic's presets' error, the median with the least and the largest */
  s = ws_chart_add_series (chart, _("median, least and largest"), WS_SERIES_POINTS, WS_CHART_Y, 0);
  for (guint t = 0; t < view->topics->len; t++)
    {
      const char *topic = g_ptr_array_index (view->topics, t);
      g_autoptr (GArray) errors = g_array_new (FALSE, FALSE, sizeof (double));
      g_autofree char *note = NULL;
      double median;

      for (guint i = 0; i < view->points->len; i++)
        {
          const WsTruthPoint *p = g_ptr_array_index (view->points, i);
          double e;

          if (p->topic != topic || !plotted (p, WS_TRUTH_TIME))
            continue;
          e = fabs (p->model[WS_TRUTH_TIME] / p->hardware[WS_TRUTH_TIME] - 1) * 100;
          g_array_append_val (errors, e);
        }
      if (errors->len == 0)
        continue;
      g_array_sort (errors, compare_doubles);
      median = errors->len % 2 ? g_array_index (errors, double, errors->len / 2)
                               : (g_array_index (errors, double, errors->len / 2 - 1) +
                                  g_array_index (errors, double, errors->len / 2)) / 2;
      ws_chart_series_add (s, t, median, g_array_index (errors, double, 0),
                           g_array_index (errors, double, errors->len - 1));
      /* Translators: a tooltip: a topic, its presets, the median error in % */
      note = g_strdup_printf (ngettext ("%s: %u preset, %.0f %% off", "%s: %u presets, median %.0f %% off",
                                        errors->len),
                              topic, errors->len, median);
      ws_chart_series_set_note (s, s->points->len - 1, note);
    }
  /* Translators: the band in %, the GPU, the day the table was made */
  sub = g_strdup_printf (_("the model is held to %.0f %% · %s, measured %s"), WS_TRUTH_TIME_TOLERANCE * 100,
                         view->device, view->date);
  ws_chart_set_title (chart, _("How far the predicted time is, by topic"), sub);
  ws_chart_set_axis (chart, WS_CHART_X, _("topic"), NULL, FALSE, WS_AXIS_CATEGORY);
  /* Translators: an axis: |model / measured − 1| */
  ws_chart_set_axis (chart, WS_CHART_Y, _("off by"), "%", FALSE, WS_AXIS_LINEAR);
  ws_chart_set_message (chart, _("The table has no times"));
  ws_chart_autoscale (chart);
  return chart;
}

WsTruthView *
ws_truth_view_new (const WsTruthTable *table)
{
  WsTruthView *view;

  g_return_val_if_fail (table != NULL, NULL);

  view = g_new0 (WsTruthView, 1);
  view->device = g_strdup (table->device);
  /* the day is enough */
  view->date = g_strndup (table->date, strcspn (table->date, "T"));
  view->points = g_ptr_array_new_with_free_func ((GDestroyNotify) point_free);
  view->topics = g_ptr_array_new_with_free_func (g_free);
  gather (view, table);
  for (guint q = 0; q < WS_TRUTH_N_QUANTITIES; q++)
    view->charts[q] = scatter (view, q);
  view->charts[WS_TRUTH_N_QUANTITIES] = by_topic (view);
  return view;
}

/* ------------------------------------------------------------------ */
/* Drawn                                                              */
/* ------------------------------------------------------------------ */

#define GAP 12.0

/* The three scatters side by side, the topics' errors under them across
 * the whole width (fifteen topics need it). */
static void
cell (guint   c,
      double  width,
      double  height,
      double *x,
      double *y,
      double *w,
      double *h)
{
  double row = (height - GAP) / 2;

  if (c < WS_TRUTH_N_QUANTITIES)
    {
      *w = (width - GAP * (WS_TRUTH_N_QUANTITIES - 1)) / WS_TRUTH_N_QUANTITIES;
      *x = c * (*w + GAP);
      *y = 0;
    }
  else
    {
      *w = width;
      *x = 0;
      *y = row + GAP;
    }
  *h = row;
}

void
ws_truth_view_draw (cairo_t             *cr,
                    const WsFigureStyle *style,
                    double               width,
                    double               height,
                    gpointer             data)
{
  const WsTruthView *view = data;

  for (guint c = 0; c < WS_TRUTH_N_CHARTS; c++)
    {
      double x, y, w, h;

      cell (c, width, height, &x, &y, &w, &h);
      cairo_save (cr);
      cairo_translate (cr, x, y);
      ws_chart_draw (cr, view->charts[c], style, w, h);
      cairo_restore (cr);
    }
}

gboolean
ws_truth_view_pick (const WsTruthView   *view,
                    const WsFigureStyle *style,
                    double               width,
                    double               height,
                    double               x,
                    double               y,
                    guint               *chart,
                    guint               *series,
                    guint               *point)
{
  for (guint c = 0; c < WS_TRUTH_N_CHARTS; c++)
    {
      double cx, cy, w, h;

      cell (c, width, height, &cx, &cy, &w, &h);
      if (x < cx || x >= cx + w || y < cy || y >= cy + h)
        continue;
      *chart = c;
      return ws_chart_pick (view->charts[c], style, w, h, x - cx, y - cy, series, point);
    }
  return FALSE;
}

double
ws_truth_view_min_width (const WsTruthView   *view,
                         const WsFigureStyle *style)
{
  double scatter = 0;

  for (guint q = 0; q < WS_TRUTH_N_QUANTITIES; q++)
    scatter = MAX (scatter, ws_chart_min_width (view->charts[q], style));
  return MAX (WS_TRUTH_N_QUANTITIES * scatter + GAP * (WS_TRUTH_N_QUANTITIES - 1),
              ws_chart_min_width (view->charts[WS_TRUTH_N_QUANTITIES], style));
}

double
ws_truth_view_min_height (const WsTruthView   *view,
                          const WsFigureStyle *style,
                          double               width)
{
  double most = 0;

  for (guint c = 0; c < WS_TRUTH_N_CHARTS; c++)
    {
      double x, y, w, h;

      cell (c, width, 2 * 1000 + GAP, &x, &y, &w, &h);
      most = MAX (most, ws_chart_min_height (view->charts[c], style, w));
    }
  return 2 * most + GAP;
}

/* ------------------------------------------------------------------ */
/* The numbers                                                        */
/* ------------------------------------------------------------------ */

static void
csv_field (GString    *s,
           const char *text)
{
  g_string_append_c (s, '"');
  for (const char *p = text; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (s, '"');
      g_string_append_c (s, *p);
    }
  g_string_append_c (s, '"');
}

char *
ws_truth_view_to_csv (const WsTruthView *view)
{
  GString *s = g_string_new ("preset,topic,quantity,model,hardware,model / hardware,within\n");

  for (guint i = 0; i < view->points->len; i++)
    {
      const WsTruthPoint *p = g_ptr_array_index (view->points, i);

      for (guint q = 0; q < WS_TRUTH_N_QUANTITIES; q++)
        {
          char m[G_ASCII_DTOSTR_BUF_SIZE], h[G_ASCII_DTOSTR_BUF_SIZE], r[G_ASCII_DTOSTR_BUF_SIZE];
          /* seconds, as the charts */
          double unit = q == WS_TRUTH_TIME ? 1e-3 : 1;

          if (!plotted (p, q))
            continue;
          csv_field (s, p->preset);
          g_string_append_c (s, ',');
          csv_field (s, p->topic);
          g_string_append_printf (s, ",%s,%s,%s,%s,%s\n", q == WS_TRUTH_TIME ? "time (s)" : ws_truth_quantity_name (q),
                                  g_ascii_dtostr (m, sizeof m, p->model[q] * unit),
                                  g_ascii_dtostr (h, sizeof h, p->hardware[q] * unit),
                                  g_ascii_formatd (r, sizeof r, "%.4f", p->model[q] / p->hardware[q]),
                                  ws_truth_within (q, p->model[q], p->hardware[q]) ? "yes" : "no");
        }
    }
  return g_string_free (s, FALSE);
}

char *
ws_truth_view_to_json (const WsTruthView *view)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;

  json_builder_begin_object (b);
  ws_json_add_string (b, "format", "warpscope-truth-view");
  ws_json_add_int (b, "version", 1);
  ws_json_add_string (b, "device", view->device);
  ws_json_add_string (b, "date", view->date);
  json_builder_set_member_name (b, "quantities");
  json_builder_begin_array (b);
  for (guint q = 0; q < WS_TRUTH_N_QUANTITIES; q++)
    {
      json_builder_begin_object (b);
      ws_json_add_string (b, "name", ws_truth_quantity_name (q));
      ws_json_add_double (b, "tolerance", ws_truth_quantity_tolerance (q));
      ws_json_add_int (b, "presets", view->counted[q]);
      ws_json_add_int (b, "within", view->within[q]);
      json_builder_set_member_name (b, "rows");
      json_builder_begin_array (b);
      for (guint i = 0; i < view->points->len; i++)
        {
          const WsTruthPoint *p = g_ptr_array_index (view->points, i);
          double unit = q == WS_TRUTH_TIME ? 1e-3 : 1;

          if (!plotted (p, q))
            continue;
          json_builder_begin_object (b);
          ws_json_add_string (b, "preset", p->preset);
          ws_json_add_string (b, "topic", p->topic);
          ws_json_add_double (b, "model", p->model[q] * unit);
          ws_json_add_double (b, "hardware", p->hardware[q] * unit);
          ws_json_add_bool (b, "within", ws_truth_within (q, p->model[q], p->hardware[q]));
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  return ws_json_to_text (root, TRUE);
}
