/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The measured plots (ui/plots/ws-plot.c): the model's predicted time on
 * the measured axis, a line through a sweep and a mark over each preset of
 * a topic, with what the model counts in the tooltips; without a time, the
 * model's metric on an axis of its own. */
#include "ws-plot.h"
#include "ws-figure-context.h"

#include <math.h>
#include <string.h>

static const WsChartSeries *
model_series (const WsChart *chart,
              guint         *index)
{
  for (guint i = 0; i < chart->series->len; i++)
    {
      const WsChartSeries *se = g_ptr_array_index (chart->series, i);
      if (g_str_has_prefix (se->name, "model"))
        {
          *index = i;
          return se;
        }
    }
  return NULL;
}

/* A prediction for each x: time where with_time, the metric always. */
static GArray *
made_up (guint    n,
         gboolean with_time)
{
  GArray *a = g_array_new (FALSE, FALSE, sizeof (WsPlotPrediction));

  for (guint i = 0; i < n; i++)
    {
      WsPlotPrediction p = { 4.0 + i, with_time ? 100e-6 * (1 + i) : NAN, with_time ? "DRAM" : NULL, 128 * 1024.0 * (i + 1),
                             512 * 1024.0 * (i + 1) };
      g_array_append_val (a, p);
    }
  return a;
}

static WsChart *
build (const char *id,
       gboolean    with_time)
{
  const WsPreset *preset = ws_preset_lookup (id);
  g_autoptr (WsPattern) pattern = ws_preset_build (preset);
  g_autofree char *key = NULL;
  g_autoptr (GPtrArray) patterns = NULL;
  g_autoptr (GPtrArray) presets = NULL;
  g_autoptr (GArray) prediction = NULL;
  WsPlotSources sources = { 0 };
  WsChart *chart;
  WsPlotInput in = { preset, pattern, FALSE, ws_preset_sweep_param (preset, pattern) };

  key = ws_pattern_sweep_key (pattern, in.sweep_param);
  in.key = key;
  patterns = ws_plot_prediction_patterns (&in);
  presets = ws_plot_prediction_presets (&in);
  g_assert_cmpuint (presets->len, ==, patterns->len);
  prediction = made_up (patterns->len, with_time);
  in.prediction = prediction;
  in.prediction_name = "sectors per request";
  in.model_device = "NVIDIA H200";
  chart = ws_plot_build (&in, &sources);
  ws_chart_autoscale (chart);
  return chart;
}

static void
test_sweep (void)
{
  g_autoptr (WsChart) chart = build ("coalescing/strided-sweep", TRUE);
  guint index = 0;
  const WsChartSeries *model = model_series (chart, &index);
  g_autofree char *tip = NULL;

  g_assert_nonnull (model);
  g_assert_cmpstr (model->name, ==, "model: predicted on NVIDIA H200");
  g_assert_cmpint (model->kind, ==, WS_SERIES_LINE);
  g_assert_cmpint (model->axis, ==, WS_CHART_Y);
  g_assert_true (model->overlay);
  g_assert_null (chart->axes[WS_CHART_Y2].title);
  g_assert_cmpfloat (g_array_index (model->points, WsChartPoint, 1).y, ==, 200e-6);
  tip = ws_chart_describe_point (chart, index, 1);
  /* 32 points from 0.1 to 3.2 ms: a log axis, each value with its own prefix */
  g_assert_cmpint (chart->axes[WS_CHART_Y].scale, ==, WS_AXIS_LOG10);
  g_assert_nonnull (strstr (tip, "stride = 2 elements: 200 µs"));
  g_assert_nonnull (strstr (tip, "model: 5 sectors per request · bound by DRAM"));
}

/* The model's points of a sweep are the launches the preset's kernel makes
 * at each value: where the grid follows the parameter (one wave of as many
 * blocks as fit), each pattern has that grid, not the default's. */
static void
test_sweep_grid (void)
{
  const WsPreset *preset = ws_preset_lookup ("occupancy/shared");
  g_autoptr (WsPattern) pattern = ws_preset_build (preset);
  g_autoptr (GPtrArray) patterns = NULL;
  g_autofree char *key = NULL;
  WsPlotInput in = { preset, pattern, FALSE, "shared" };
  guint64 first = 0, last = 0;

  key = ws_pattern_sweep_key (pattern, in.sweep_param);
  in.key = key;
  patterns = ws_plot_prediction_patterns (&in);
  g_assert_cmpuint (patterns->len, >, 2);
  for (guint i = 0; i < patterns->len; i++)
    {
      WsPattern *p = g_ptr_array_index (patterns, i);
      g_autoptr (WsPattern) fitted = ws_pattern_copy (p);
      WsDim3 grid = ws_pattern_get_grid (p);

      g_assert_true (ws_preset_fit_grid (preset, fitted, NULL));
      g_assert_cmpuint (grid.x, ==, ws_pattern_get_grid (fitted).x);
      if (i == 0)
        first = grid.x;
      last = grid.x;
    }
  /* 8 blocks an SM without shared memory, 1 with 128 KiB */
  g_assert_cmpuint (first, ==, 8 * last);
}

static void
test_topic (void)
{
  g_autoptr (WsChart) chart = build ("coalescing/sequential", TRUE);
  guint index = 0;
  const WsChartSeries *model = model_series (chart, &index);

  g_assert_nonnull (model);
  /* a mark over each preset, where its measured point is */
  g_assert_cmpint (model->kind, ==, WS_SERIES_POINTS);
  g_assert_true (model->overlay);
  g_assert_cmpuint (model->points->len, ==, chart->axes[WS_CHART_X].categories->len);
}

static void
test_without_time (void)
{
  g_autoptr (WsChart) chart = build ("coalescing/strided-sweep", FALSE);
  guint index = 0;
  const WsChartSeries *model = model_series (chart, &index);

  g_assert_nonnull (model);
  g_assert_cmpstr (model->name, ==, "model: sectors per request");
  g_assert_cmpint (model->axis, ==, WS_CHART_Y2);
  g_assert_false (model->overlay);
  g_assert_cmpstr (chart->axes[WS_CHART_Y2].title, ==, "sectors per request");
}

/* A chart's copy keeps what the tooltips say. */
static void
test_copy_keeps_notes (void)
{
  g_autoptr (WsChart) chart = build ("coalescing/strided-sweep", TRUE);
  g_autoptr (WsChart) copy = ws_chart_copy (chart);
  guint a = 0, b = 0;
  g_autofree char *tip = NULL;

  model_series (chart, &a);
  g_assert_true (model_series (copy, &b)->overlay);
  tip = ws_chart_describe_point (copy, b, 0);
  g_assert_nonnull (strstr (tip, "bound by DRAM"));
}

/* ------------------------------------------------------------------ */
/* Names a file holds, of any length                                  */
/* ------------------------------------------------------------------ */

static char *
repeated (const char *piece,
          gsize       bytes)
{
  GString *s = g_string_sized_new (bytes + strlen (piece));

  while (s->len < bytes)
    g_string_append (s, piece);
  return g_string_free (s, FALSE);
}

/* The bundled recording's measurements, on a GPU of that name. */
static WsRecording *
recording_named (const char *name)
{
  g_autoptr (WsRecording) bundled = ws_recording_load_bundled (NULL);
  g_autoptr (WsDeviceInfo) device = NULL;
  WsRecording *r;

  g_assert_nonnull (bundled);
  device = ws_device_info_copy (ws_recording_get_device (bundled));
  g_free (device->name);
  device->name = g_strdup (name);
  r = ws_recording_new (device);
  for (guint i = 0; i < ws_recording_get_n_measurements (bundled); i++)
    ws_recording_add (r, ws_recording_get_measurement (bundled, i));
  return r;
}

typedef struct
{
  const char *what;
  const char *piece;
  gsize bytes;
} LongName;

static const LongName long_names[] = {
  { "one-word-10k", "X", 10000 },
  { "words-100k", "NVIDIA H200 ", 100000 },
  { "one-word-1M", "Y", 1 << 20 },
  { "wide-1M", "漢字 ", 1 << 20 },
  { "lines-100k", "GPU\n", 100000 },
};

/* Every name the plot shows is cut short: the legend, the caption, the
 * tooltips; the plot is no wider for it, and what it draws is short. */
static void
test_long_names (gconstpointer data)
{
  const LongName *ln = data;
  g_autofree char *name = repeated (ln->piece, ln->bytes);
  g_autoptr (WsRecording) recording = recording_named (name);
  g_autoptr (GPtrArray) recordings = g_ptr_array_new ();
  const WsPreset *preset = ws_preset_lookup ("coalescing/strided-sweep");
  g_autoptr (WsPattern) pattern = ws_preset_build (preset);
  g_autofree char *key = NULL;
  g_autofree char *subtitle = NULL;
  g_autoptr (WsChart) chart = NULL;
  WsPlotSources sources = { recordings, name, NULL };
  WsPlotInput in = { preset, pattern, FALSE, ws_preset_sweep_param (preset, pattern) };
  const WsFigureStyle *style = ws_figure_style_get (WS_FIGURE_STYLE_PRINT);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1200, 720);
  cairo_t *cr = cairo_create (surface);
  WsTextLog *log = ws_text_log_new ();
  g_autoptr (GArray) prediction = NULL;
  g_autoptr (GPtrArray) patterns = NULL;

  g_ptr_array_add (recordings, recording);
  key = ws_pattern_sweep_key (pattern, in.sweep_param);
  in.key = key;
  patterns = ws_plot_prediction_patterns (&in);
  prediction = made_up (patterns->len, TRUE);
  in.prediction = prediction;
  in.prediction_name = "sectors per request";
  in.model_device = name;
  chart = ws_plot_build (&in, &sources);
  ws_chart_autoscale (chart);
  for (guint i = 0; i < chart->series->len; i++)
    {
      const WsChartSeries *se = g_ptr_array_index (chart->series, i);
      g_autofree char *tip = se->points->len ? ws_chart_describe_point (chart, i, 0) : NULL;

      g_assert_cmpuint (g_utf8_strlen (se->name, -1), <, 200);
      g_assert_null (strchr (se->name, '\n'));
      if (tip)
        g_assert_cmpuint (g_utf8_strlen (tip, -1), <, 1000);
    }
  subtitle = ws_plot_subtitle (&sources);
  g_assert_cmpuint (g_utf8_strlen (subtitle, -1), <, 400);
  g_assert_cmpfloat (ws_chart_min_width (chart, style), <, 1200);

  ws_text_log_attach (log, cr);
  ws_chart_draw (cr, chart, style, 1200, 720);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpuint (ws_text_log_len (log), >, 0);
  for (guint i = 0; i < ws_text_log_len (log); i++)
    g_assert_cmpuint (g_utf8_strlen (ws_text_log_get (log, i)->text, -1), <=, 1000);
  ws_text_log_free (log);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

/* ------------------------------------------------------------------ */
/* What the lesson is about                                           */
/* ------------------------------------------------------------------ */

static GPtrArray *
bundled (void)
{
  GPtrArray *recordings = g_ptr_array_new_with_free_func (g_object_unref);
  WsRecording *r = ws_recording_load_bundled (NULL);

  g_assert_nonnull (r);
  g_ptr_array_add (recordings, r);
  return recordings;
}

static WsChart *
build_metric (const char  *id,
              WsPlotMetric metric,
              GPtrArray   *recordings,
              GArray      *prediction)
{
  const WsPreset *preset = ws_preset_lookup (id);
  g_autoptr (WsPattern) pattern = ws_preset_build (preset);
  g_autofree char *key = NULL;
  WsPlotSources sources = { recordings, NULL, NULL };
  WsPlotInput in = { preset, pattern, FALSE, ws_preset_sweep_param (preset, pattern) };
  WsChart *chart;

  key = ws_pattern_sweep_key (pattern, in.sweep_param);
  in.key = key;
  in.prediction = prediction;
  in.prediction_name = "sectors per request";
  in.model_device = "NVIDIA H200";
  in.metric = metric;
  in.space = ws_pattern_get_access (pattern, 0)->space;
  chart = ws_plot_build (&in, &sources);
  ws_chart_autoscale (chart);
  return chart;
}

static const WsChartSeries *
recorded_series (const WsChart *chart)
{
  for (guint i = 0; i < chart->series->len; i++)
    {
      const WsChartSeries *se = g_ptr_array_index (chart->series, i);
      if (g_str_has_prefix (se->name, "recorded"))
        return se;
    }
  return NULL;
}

/* Each lesson's plot opens on what its text is about. */
static void
test_lesson_metrics (void)
{
  g_assert_cmpint (ws_plot_metric_for (ws_preset_lookup ("coalescing/strided-sweep")), ==, WS_PLOT_BANDWIDTH);
  g_assert_cmpint (ws_plot_metric_for (ws_preset_lookup ("coalescing/offset")), ==, WS_PLOT_COALESCING);
  g_assert_cmpint (ws_plot_metric_for (ws_preset_lookup ("banks/stride")), ==, WS_PLOT_COST);
  g_assert_cmpint (ws_plot_metric_for (ws_preset_lookup ("transpose/copy")), ==, WS_PLOT_TIME);
  g_assert_cmpint (ws_plot_metric_for (NULL), ==, WS_PLOT_TIME);
  g_assert_cmpstr (ws_plot_metric_to_string (WS_PLOT_COST, WS_SPACE_GLOBAL), ==, "sectors");
  g_assert_cmpstr (ws_plot_metric_to_string (WS_PLOT_COST, WS_SPACE_SHARED), ==, "wavefronts");
  g_assert_false (ws_plot_metric_applies (WS_PLOT_COALESCING, WS_SPACE_SHARED));
  {
    WsPlotMetric m;
    g_assert_true (ws_plot_metric_from_string ("wavefronts", &m) && m == WS_PLOT_COST);
    g_assert_true (ws_plot_metric_from_string ("bandwidth", &m) && m == WS_PLOT_BANDWIDTH);
    g_assert_false (ws_plot_metric_from_string ("speed", &m));
  }
}

/* The stride sweep's bandwidth falls as its lesson says, measured (the
 * recording's bytes over its medians) beside the model's; its title names
 * the kernel; the band over the editor's value has its legend. */
static void
test_bandwidth (void)
{
  g_autoptr (GPtrArray) recordings = bundled ();
  g_autoptr (GArray) prediction = made_up (32, TRUE);
  g_autoptr (WsChart) chart = build_metric ("coalescing/strided-sweep", WS_PLOT_BANDWIDTH, recordings, prediction);
  const WsChartSeries *rec = recorded_series (chart);
  guint index;
  const WsChartSeries *model = model_series (chart, &index);
  double first, last;

  g_assert_cmpstr (chart->title, ==, "Stride sweep: effective bandwidth as stride varies");
  g_assert_cmpstr (chart->axes[WS_CHART_Y].unit, ==, "B/s");
  g_assert_nonnull (rec);
  g_assert_cmpuint (rec->points->len, >=, 16);
  first = g_array_index (rec->points, WsChartPoint, 0).y;
  last = g_array_index (rec->points, WsChartPoint, rec->points->len - 1).y;
  /* stride 1 against stride 32: it falls, more than a decade */
  g_assert_cmpfloat (first, >, 10 * last);
  g_assert_cmpint (chart->axes[WS_CHART_Y].scale, ==, WS_AXIS_LOG10);
  /* the model's bandwidth: the kernel's bytes over the predicted time */
  g_assert_nonnull (model);
  g_assert_true (model->overlay);
  g_assert_cmpuint (model->points->len, ==, 32);
  g_assert_cmpfloat (chart->highlight, ==, 2);
  g_assert_cmpstr (chart->highlight_label, ==, "stride = 2, in the editor");
}

/* Counts: the model's sectors per request and coalescing on the axis the
 * lesson names; measured points only where counters were read. */
static void
test_counts (void)
{
  g_autoptr (GPtrArray) recordings = bundled ();
  g_autoptr (GArray) prediction = made_up (32, TRUE);
  g_autoptr (WsChart) cost = build_metric ("coalescing/strided-sweep", WS_PLOT_COST, recordings, prediction);
  g_autoptr (WsChart) coalescing = build_metric ("coalescing/strided-sweep", WS_PLOT_COALESCING, recordings,
                                                prediction);
  guint index;
  const WsChartSeries *model = model_series (cost, &index);

  g_assert_cmpstr (cost->axes[WS_CHART_Y].title, ==, "sectors per request");
  g_assert_nonnull (model);
  g_assert_cmpstr (model->name, ==, "model: every instruction of the launch");
  g_assert_cmpfloat (g_array_index (model->points, WsChartPoint, 0).y, ==, 4);
  model = model_series (coalescing, &index);
  g_assert_cmpstr (coalescing->axes[WS_CHART_Y].unit, ==, "%");
  /* asked / moved: 128 KiB of 512 KiB */
  g_assert_cmpfloat (g_array_index (model->points, WsChartPoint, 0).y, ==, 25);
  /* the bundled recording has no counters: no measured series, said in the subtitle */
  g_assert_null (recorded_series (cost));
  g_assert_nonnull (strstr (cost->subtitle, "hardware counters"));
}

/* A model whose line stays flat where the measurements move (the L2
 * persistence model against hit_ratio) is drawn as such, with a note. */
static void
test_loose_model (void)
{
  g_autoptr (GPtrArray) recordings = bundled ();
  g_autoptr (GArray) flat = g_array_new (FALSE, FALSE, sizeof (WsPlotPrediction));
  g_autoptr (WsChart) chart = NULL;
  guint index;
  const WsChartSeries *model;

  for (guint i = 0; i < 6; i++)
    {
      WsPlotPrediction p = { 1, 102e-6, "DRAM", 0, 0 };
      g_array_append_val (flat, p);
    }
  chart = build_metric ("l2/persisting", WS_PLOT_TIME, recordings, flat);
  model = model_series (chart, &index);
  g_assert_nonnull (model);
  g_assert_true (model->loose);
  g_assert_nonnull (strstr (model->name, "does not follow hit_ratio"));
  g_assert_nonnull (chart->footnote);
  g_assert_nonnull (strstr (chart->footnote, "hit_ratio"));
  /* one that follows is drawn as a prediction */
  {
    g_autoptr (GArray) following = made_up (6, TRUE);
    g_autoptr (WsChart) other = build_metric ("l2/persisting", WS_PLOT_TIME, recordings, following);
    g_assert_false (model_series (other, &index)->loose);
    g_assert_null (other->footnote);
  }
}

/* Two recordings' points at one x stand apart, each with its own marker. */
static void
test_two_recordings (void)
{
  g_autoptr (GPtrArray) recordings = bundled ();
  g_auto (GStrv) paths = ws_recording_bundled_paths ();
  g_autoptr (WsChart) chart = NULL;
  const WsFigureStyle *style = ws_figure_style_get (WS_FIGURE_STYLE_LIGHT);
  guint found[2] = { G_MAXUINT, G_MAXUINT }, n = 0;

  for (guint i = 0; paths[i]; i++)
    {
      g_autoptr (GFile) file = g_file_new_for_path (paths[i]);
      WsRecording *r = ws_recording_load_file (file, NULL, NULL);
      const WsDeviceInfo *d = r ? ws_recording_get_device (r) : NULL;

      if (d && g_strcmp0 (d->name, ws_recording_get_device (g_ptr_array_index (recordings, 0))->name) != 0)
        {
          g_ptr_array_add (recordings, r);
          break;
        }
      g_clear_object (&r);
    }
  if (recordings->len < 2)
    {
      g_test_skip ("only one recording ships");
      return;
    }
  chart = build_metric ("coalescing/strided-sweep", WS_PLOT_TIME, recordings, NULL);
  for (guint i = 0; i < chart->series->len && n < 2; i++)
    if (g_str_has_prefix (((WsChartSeries *) g_ptr_array_index (chart->series, i))->name, "recorded"))
      found[n++] = i;
  g_assert_cmpuint (n, ==, 2);
  /* the same x, drawn a few pixels apart: a pick at each finds its own */
  {
    const WsChartSeries *a = g_ptr_array_index (chart->series, found[0]);
    const WsChartSeries *b = g_ptr_array_index (chart->series, found[1]);
    double ax, ay, bx, by;
    guint s, pt;

    g_assert_cmpfloat (g_array_index (a->points, WsChartPoint, 0).x, ==, g_array_index (b->points, WsChartPoint, 0).x);
    ws_chart_point_position (chart, style, 1200, 720, found[0], 0, &ax, &ay);
    ws_chart_point_position (chart, style, 1200, 720, found[1], 0, &bx, &by);
    g_assert_cmpfloat (fabs (ax - bx), >=, 4);
    g_assert_true (ws_chart_pick (chart, style, 1200, 720, ax, ay, &s, &pt));
    g_assert_cmpuint (s, ==, found[0]);
    g_assert_true (ws_chart_pick (chart, style, 1200, 720, bx, by, &s, &pt));
    g_assert_cmpuint (s, ==, found[1]);
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/plot/predicted-sweep", test_sweep);
  g_test_add_func ("/plot/predicted-topic", test_topic);
  g_test_add_func ("/plot/sweep-grid", test_sweep_grid);
  g_test_add_func ("/plot/without-time", test_without_time);
  g_test_add_func ("/plot/copy-keeps-notes", test_copy_keeps_notes);
  for (guint i = 0; i < G_N_ELEMENTS (long_names); i++)
    {
      g_autofree char *path = g_strdup_printf ("/plot/long-name/%s", long_names[i].what);
      g_test_add_data_func (path, &long_names[i], test_long_names);
    }
  g_test_add_func ("/plot/lesson-metrics", test_lesson_metrics);
  g_test_add_func ("/plot/bandwidth", test_bandwidth);
  g_test_add_func ("/plot/counts", test_counts);
  g_test_add_func ("/plot/loose-model", test_loose_model);
  g_test_add_func ("/plot/two-recordings", test_two_recordings);
  return g_test_run ();
}
