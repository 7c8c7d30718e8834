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
      WsPlotPrediction p = { 4.0 + i, with_time ? 100e-6 * (1 + i) : NAN, with_time ? "DRAM" : NULL };
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
  g_assert_nonnull (strstr (tip, "stride = 2 elements: 0.200 ms"));
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
  return g_test_run ();
}
