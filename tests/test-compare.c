/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Comparisons as the CLI and the window build them: items named so that no
 * two are alike, and a chart with no series that has nothing to show. */
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
  return ws_compare_build_chart (items, costs, &sources);
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

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compare/names", test_names);
  g_test_add_func ("/compare/headline", test_headline);
  g_test_add_func ("/compare/no-empty-series", test_no_empty_series);
  return g_test_run ();
}
