/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Comparisons as the CLI and the window build them: items named so that no
 * two are alike, a chart with no series that has nothing to show, and the
 * model's predicted time on the measured axis. */
#include "ws-compare.h"
#include "ws-comparison.h"
#include "ws-recording.h"

#include <math.h>
#include <string.h>

static GPtrArray *
items_of (const char *list)
{
  g_autoptr (GError) error = NULL;
  GPtrArray *items = ws_compare_parse_list (list, &error);

  g_assert_no_error (error);
  return items;
}

static const char *
title (GPtrArray *items,
       guint      i)
{
  return ((WsCompareItem *) g_ptr_array_index (items, i))->title;
}

static void
test_names (void)
{
  g_autoptr (GPtrArray) stride = items_of ("banks/stride,banks/stride:stride=32");
  g_autoptr (GPtrArray) tile = items_of ("transpose/shared@1,transpose/shared@3");
  g_autoptr (GPtrArray) twice = items_of ("coalescing/sequential,coalescing/sequential");
  g_autoptr (GPtrArray) apart = items_of ("coalescing/sequential,coalescing/stride");

  /* the first at the preset's stride says it too */
  g_assert_cmpstr (title (stride, 0), ==, "Stride sweep, stride = 1");
  g_assert_cmpstr (title (stride, 1), ==, "Stride sweep, stride = 32");
  g_assert_cmpstr (title (tile, 0), ==, "Shared-memory tile, instruction 1");
  g_assert_cmpstr (title (tile, 1), ==, "Shared-memory tile, instruction 3");
  g_assert_cmpstr (title (twice, 0), ==, "Sequential (1)");
  g_assert_cmpstr (title (twice, 1), ==, "Sequential (2)");
  g_assert_cmpstr (title (apart, 0), ==, "Sequential");
  g_assert_cmpstr (title (apart, 1), ==, "Strided");
}

static WsChart *
chart_predicted (GPtrArray              *items,
                 const WsPlotPrediction *predicted)
{
  g_autoptr (GPtrArray) recordings = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GError) error = NULL;
  WsPlotSources sources = { .recordings = recordings };
  WsCompareCost costs[WS_COMPARE_MAX];

  g_ptr_array_add (recordings, ws_recording_load_bundled (&error));
  g_assert_no_error (error);
  for (guint i = 0; i < items->len; i++)
    g_assert_true (ws_compare_cost_compute (((WsCompareItem *) g_ptr_array_index (items, i))->pattern, &costs[i],
                                            NULL, NULL));
  return ws_compare_build_chart (items, costs, predicted, "NVIDIA H200", &sources);
}

static WsChart *
chart_of (GPtrArray *items)
{
  g_autoptr (GPtrArray) recordings = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GError) error = NULL;
  WsPlotSources sources = { .recordings = recordings };
  WsCompareCost costs[WS_COMPARE_MAX];
  WsRecording *bundled = ws_recording_load_bundled (&error);

  g_assert_no_error (error);
  g_ptr_array_add (recordings, bundled);
  for (guint i = 0; i < items->len; i++)
    g_assert_true (ws_compare_cost_compute (((WsCompareItem *) g_ptr_array_index (items, i))->pattern, &costs[i],
                                            NULL, NULL));
  return ws_compare_build_chart (items, costs, NULL, NULL, &sources);
}

/* The headline names two patterns of one preset apart. */
static void
test_headline (void)
{
  g_autoptr (GPtrArray) stride = items_of ("banks/stride,banks/stride:stride=32");
  g_autoptr (WsChart) chart = chart_of (stride);

  g_assert_nonnull (strstr (chart->title, "stride = 1 is "));
  g_assert_nonnull (strstr (chart->title, "than Stride sweep, stride = 32"));
}

/* Launches of different sizes are not the same work: the subtitle says
 * how many threads each runs. Of one size, it says nothing of it. */
static void
test_sizes_differ (void)
{
  g_autoptr (GPtrArray) same = items_of ("transpose/copy,transpose/shared");
  g_autoptr (GPtrArray) apart = items_of ("transpose/copy,transpose/shared:N=1024");
  g_autoptr (WsChart) same_chart = chart_of (same);
  g_autoptr (WsChart) apart_chart = chart_of (apart);

  g_assert_null (strstr (same_chart->subtitle, "not the same work"));
  g_test_message ("%s", apart_chart->subtitle);
  g_assert_nonnull (strstr (apart_chart->subtitle, "not the same work: 67.1\u00a0M threads in Copy (the bound), "));
  g_assert_nonnull (strstr (apart_chart->subtitle, "1.05\u00a0M in Shared-memory tile, N = 1024"));
}

/* Registers cost the model nothing: with the first pattern at no cost there
 * is no ratio to draw, and no empty series or axis 0 – 1 for it. */
static void
test_no_empty_series (void)
{
  g_autoptr (GPtrArray) items = items_of ("private-array/static,private-array/uniform-local");
  g_autoptr (WsChart) chart = chart_of (items);
  gboolean model_note = FALSE;

  for (guint i = 0; i < chart->series->len; i++)
    {
      const WsChartSeries *s = g_ptr_array_index (chart->series, i);
      g_assert_cmpuint (s->points->len, >, 0);
      g_assert_cmpint (s->axis, !=, WS_CHART_Y2);
    }
  for (guint i = 0; i < chart->notes->len; i++)
    model_note |= g_str_has_prefix (((WsChartNote *) g_ptr_array_index (chart->notes, i))->text, "model: ");
  g_assert_true (model_note);
  g_assert_null (strstr (chart->subtitle, "relative to the first"));
}

static const WsChartSeries *
series_named (const WsChart *chart,
              const char    *prefix)
{
  for (guint i = 0; i < chart->series->len; i++)
    {
      const WsChartSeries *se = g_ptr_array_index (chart->series, i);
      if (g_str_has_prefix (se->name, prefix))
        return se;
    }
  return NULL;
}

static gboolean
has_note (const WsChart *chart,
          const char    *text)
{
  for (guint i = 0; i < chart->notes->len; i++)
    if (g_str_equal (((WsChartNote *) g_ptr_array_index (chart->notes, i))->text, text))
      return TRUE;
  return FALSE;
}

/* With a time for each, the model stands on the measured axis, over the
 * measured points, and says how much slower it predicts each to be; what
 * it counts goes in the tooltips. Without one, its cost keeps its own axis. */
static void
test_predicted_time (void)
{
  g_autoptr (GPtrArray) items = items_of ("coalescing/sequential,coalescing/stride");
  const WsPlotPrediction predicted[] = { { NAN, 100e-6, "DRAM" }, { NAN, 265e-6, "L2" } };
  const WsPlotPrediction partial[] = { { NAN, 100e-6, "DRAM" }, { NAN, NAN, NULL } };
  g_autoptr (WsChart) chart = chart_predicted (items, predicted);
  g_autoptr (WsChart) without = chart_predicted (items, partial);
  const WsChartSeries *model = series_named (chart, "model");
  g_autofree char *tip = NULL;

  g_assert_nonnull (model);
  g_assert_cmpstr (model->name, ==, "model: predicted on NVIDIA H200");
  g_assert_cmpint (model->axis, ==, WS_CHART_Y);
  g_assert_true (model->overlay);
  g_assert_cmpuint (model->points->len, ==, 2);
  g_assert_cmpfloat (g_array_index (model->points, WsChartPoint, 1).y, ==, 265e-6);
  g_assert_true (has_note (chart, "model: 2.6× slower"));
  g_assert_false (chart->series->len > 0 && chart->axes[WS_CHART_Y2].title != NULL);
  for (guint i = 0; i < chart->series->len; i++)
    if (g_ptr_array_index (chart->series, i) == model)
      tip = ws_chart_describe_point (chart, i, 1);
  g_test_message ("%s", tip);
  g_assert_nonnull (strstr (tip, "model: 1.02 kB per warp"));
  g_assert_nonnull (strstr (tip, "bound by L2"));
  /* 2.6× apart: a linear axis */
  g_assert_cmpint (chart->axes[WS_CHART_Y].scale, ==, WS_AXIS_LINEAR);
  /* one without a time: the model's cost, on its own axis, as before */
  model = series_named (without, "model");
  g_assert_nonnull (model);
  g_assert_cmpint (model->axis, ==, WS_CHART_Y2);
  g_assert_false (model->overlay);
}

/* Times decades apart (one address updated by every thread against one
 * per thread, 57× on the H200) stand on a log axis, where the fast ones do
 * not lie on the floor. */
static void
test_decades_log (void)
{
  g_autoptr (GPtrArray) items = items_of ("atomics/one-address,atomics/distinct");
  const WsPlotPrediction predicted[] = { { NAN, 3.1e-3, "atomics" }, { NAN, 54e-6, "DRAM" } };
  g_autoptr (WsChart) chart = chart_predicted (items, predicted);

  g_assert_cmpint (chart->axes[WS_CHART_Y].scale, ==, WS_AXIS_LOG10);
}

/* A translation of the words a title is made of. */
static const char *
fake_gettext (const char *msgid)
{
  if (g_str_equal (msgid, ws_preset_lookup ("banks/stride")->title))
    return "Schrittweite";
  if (g_str_equal (msgid, ws_preset_lookup ("transpose/shared")->title))
    return "Kachel";
  if (g_str_equal (msgid, "%s, instruction %u"))
    return "%s, Befehl %u";
  if (g_str_equal (msgid, "%s (%u)"))
    return "%s ⟨%u⟩";
  return msgid;
}

/* The title in the user's words is composed of the same parts as the
 * English, item->title, which stays English: the preset's title, the
 * parameters and what tells the item from one alike. */
static void
test_names_translated (void)
{
  g_autoptr (GPtrArray) stride = items_of ("banks/stride,banks/stride:stride=32");
  g_autoptr (GPtrArray) tile = items_of ("transpose/shared@1,transpose/shared@3");
  g_autoptr (GPtrArray) twice = items_of ("banks/stride,banks/stride");
  const char *expected[][2] = {
    { "Schrittweite, stride = 1", "Schrittweite, stride = 32" },
    { "Kachel, Befehl 1", "Kachel, Befehl 3" },
    { "Schrittweite ⟨1⟩", "Schrittweite ⟨2⟩" },
  };
  GPtrArray *all[] = { stride, tile, twice };

  for (guint k = 0; k < G_N_ELEMENTS (all); k++)
    for (guint i = 0; i < 2; i++)
      {
        g_autofree char *translated = ws_compare_item_dup_title (g_ptr_array_index (all[k], i), fake_gettext);
        g_autofree char *english = ws_compare_item_dup_title (g_ptr_array_index (all[k], i), NULL);
        g_autofree char *caption = ws_compare_item_dup_caption (g_ptr_array_index (all[k], i), fake_gettext);

        g_assert_cmpstr (translated, ==, expected[k][i]);
        g_assert_cmpstr (english, ==, title (all[k], i));
        g_assert_true (g_str_has_prefix (caption, expected[k][i]));
      }
  g_assert_cmpstr (title (twice, 1), ==, "Stride sweep (2)");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compare/names", test_names);
  g_test_add_func ("/compare/names-translated", test_names_translated);
  g_test_add_func ("/compare/headline", test_headline);
  g_test_add_func ("/compare/sizes-differ", test_sizes_differ);
  g_test_add_func ("/compare/no-empty-series", test_no_empty_series);
  g_test_add_func ("/compare/predicted-time", test_predicted_time);
  g_test_add_func ("/compare/decades-log", test_decades_log);
  return g_test_run ();
}
