/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The explorer's measured plot on its own, through its public API, under
 * Xvfb: a preset's sweep plotted from the bundled recording with the
 * model's line, what the plot shows switched, a pattern marked wrong
 * showing nothing stale, and the toolbar's status and sweep controls. */
#include "ws-config.h"
#include "page-fixture.h"
#include "ws-plot-panel.h"
#include "ws-presets.h"

#include <adwaita.h>
#include <string.h>

/* The chart shows the model's line: the prediction has come. */
static gboolean
modelled (gpointer data)
{
  WsPlotPanel *panel = data;
  const WsChart *chart = ws_chart_view_get_chart (ws_plot_panel_get_chart_view (panel));

  if (!ws_plot_panel_is_settled (panel) || chart == NULL)
    return FALSE;
  for (guint i = 0; i < chart->series->len; i++)
    if (g_str_has_prefix (((WsChartSeries *) g_ptr_array_index (chart->series, i))->name, "model"))
      return TRUE;
  return FALSE;
}

static guint
points_named (const WsChart *chart,
              const char    *prefix)
{
  guint n = 0;

  for (guint i = 0; i < chart->series->len; i++)
    {
      const WsChartSeries *s = g_ptr_array_index (chart->series, i);

      if (g_str_has_prefix (s->name, prefix))
        n += s->points->len;
    }
  return n;
}

static void
on_rebuilt (WsPlotPanel *panel,
            guint       *n)
{
  (*n)++;
}

static void
test_panel (void)
{
  g_autoptr (WsSession) session = page_new_session ();
  const WsPreset *preset = ws_preset_lookup ("coalescing/strided-sweep");
  g_autoptr (WsPattern) pattern = ws_preset_build (preset);
  GtkWidget *window = gtk_window_new ();
  WsPlotPanel *panel = g_object_new (WS_TYPE_PLOT_PANEL, "session", session, NULL);
  const WsChart *chart;
  guint rebuilt = 0, recorded;
  GListModel *metrics;

  g_signal_connect (panel, "rebuilt", G_CALLBACK (on_rebuilt), &rebuilt);
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 500);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (panel));
  gtk_window_present (GTK_WINDOW (window));

  /* the sweep: the recorded points and the model's, time to begin with */
  ws_plot_panel_set_pattern (panel, preset, pattern, FALSE, WS_SPACE_GLOBAL, FALSE);
  ws_plot_panel_reset_metric (panel, WS_PLOT_TIME);
  ws_plot_panel_rebuild (panel);
  g_assert_cmpuint (rebuilt, ==, 1);
  g_assert_true (page_wait_until (modelled, panel, 300));
  chart = ws_chart_view_get_chart (ws_plot_panel_get_chart_view (panel));
  g_assert_nonnull (strstr (chart->title, "stride"));
  recorded = points_named (chart, "recorded on");
  g_assert_cmpuint (recorded, >, 4);
  g_assert_cmpuint (points_named (chart, "model"), ==, recorded);
  g_assert_cmpstr (chart->axes[WS_CHART_Y].unit, ==, "s");

  /* sectors per request, from the chooser's items as the user sees them */
  metrics = gtk_drop_down_get_model (ws_plot_panel_get_metric_chooser (panel));
  g_assert_cmpuint (g_list_model_get_n_items (metrics), >=, 3);
  ws_plot_panel_set_metric (panel, WS_PLOT_COST);
  g_assert_true (page_wait_until (modelled, panel, 300));
  chart = ws_chart_view_get_chart (ws_plot_panel_get_chart_view (panel));
  g_assert_cmpstr (chart->axes[WS_CHART_Y].title, ==, "sectors per request");
  g_assert_cmpint (ws_plot_panel_get_metric (panel), ==, WS_PLOT_COST);
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (metrics),
                                               gtk_drop_down_get_selected (ws_plot_panel_get_metric_chooser (panel))),
                   ==, "Sectors per request");

  /* marked wrong: nothing stale */
  ws_plot_panel_set_pattern (panel, preset, pattern, FALSE, WS_SPACE_GLOBAL, TRUE);
  ws_plot_panel_rebuild (panel);
  chart = ws_chart_view_get_chart (ws_plot_panel_get_chart_view (panel));
  g_assert_cmpstr (chart->title, ==, "The pattern has an error");
  g_assert_cmpuint (chart->series->len, ==, 0);

  /* the toolbar */
  ws_plot_panel_set_status (panel, "Sweeping: 3 of 32 points");
  g_assert_cmpstr (ws_plot_panel_get_status (panel), ==, "Sweeping: 3 of 32 points");
  ws_plot_panel_set_status (panel, NULL);
  g_assert_null (ws_plot_panel_get_status (panel));
  ws_plot_panel_set_sweep_button (panel, "_Sweep stride", "Replay the recorded sweep");
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (ws_plot_panel_get_sweep_button (panel))), ==, "_Sweep stride");
  ws_plot_panel_show_sweeping (panel, TRUE, 0.25);
  g_assert_cmpfloat (gtk_progress_bar_get_fraction (GTK_PROGRESS_BAR (ws_plot_panel_get_sweep_progress (panel))), ==,
                     0.25);
  for (int i = 0; i < 50; i++)
    g_main_context_iteration (NULL, FALSE);
  g_assert_true (gtk_widget_get_mapped (ws_plot_panel_get_cancel_button (panel)));
  g_assert_false (gtk_widget_get_mapped (ws_plot_panel_get_sweep_button (panel)));
  ws_plot_panel_show_sweeping (panel, FALSE, 0);
  for (int i = 0; i < 50; i++)
    g_main_context_iteration (NULL, FALSE);
  g_assert_true (gtk_widget_get_mapped (ws_plot_panel_get_sweep_button (panel)));
  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
sweep_done (gpointer data)
{
  return !ws_plot_panel_is_sweeping (data);
}

static void
on_sweep_finished (WsPlotPanel *panel,
                   guint       *n)
{
  (*n)++;
}

/* The session's sweep, followed by the panel alone: a replay of the
 * recorded points, one every few milliseconds; the progress and the
 * count while it runs, the points as they come, what the status says
 * when it ends, and "sweep-finished" once. */
static void
test_panel_follows_sweep (void)
{
  g_autoptr (WsSession) session = page_new_session ();
  const WsPreset *preset = ws_preset_lookup ("coalescing/strided-sweep");
  g_autoptr (WsPattern) pattern = ws_preset_build (preset);
  GtkWidget *window = gtk_window_new ();
  WsPlotPanel *panel = g_object_new (WS_TYPE_PLOT_PANEL, "session", session, NULL);
  g_autoptr (GPtrArray) recorded = NULL;
  WsSweep *sweep;
  guint finished = 0, seen_running = 0, most = 0;
  g_autofree char *expected = NULL;

  g_signal_connect (panel, "sweep-finished", G_CALLBACK (on_sweep_finished), &finished);
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 500);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (panel));
  gtk_window_present (GTK_WINDOW (window));
  ws_plot_panel_set_pattern (panel, preset, pattern, FALSE, WS_SPACE_GLOBAL, FALSE);
  ws_plot_panel_rebuild (panel);

  recorded = ws_plot_recorded (ws_session_get_recording (session), preset->id, pattern, "stride");
  g_assert_cmpuint (recorded->len, >, 4);
  sweep = ws_session_new_replay (session, recorded, "stride", 5);
  g_assert_false (ws_plot_panel_is_sweeping (panel));
  ws_sweep_start (sweep);
  g_object_unref (sweep);

  g_assert_true (ws_plot_panel_is_sweeping (panel));
  g_assert_nonnull (strstr (ws_plot_panel_get_status (panel), "Replaying the recorded sweep"));
  while (ws_plot_panel_is_sweeping (panel))
    {
      const WsChart *chart = ws_chart_view_get_chart (ws_plot_panel_get_chart_view (panel));
      guint n = chart ? points_named (chart, "recorded on") : 0;

      g_assert_cmpuint (n, >=, most);
      most = n;
      seen_running += gtk_widget_get_mapped (ws_plot_panel_get_cancel_button (panel));
      g_main_context_iteration (NULL, TRUE);
    }
  g_assert_cmpuint (seen_running, >, 0);
  g_assert_true (page_wait_until ((PageCondition) ws_plot_panel_is_settled, panel, 300));
  g_assert_cmpuint (finished, ==, 1);
  expected = g_strdup_printf ("Replayed %u recorded points", recorded->len);
  g_assert_cmpstr (ws_plot_panel_get_status (panel), ==, expected);
  g_assert_cmpuint (points_named (ws_chart_view_get_chart (ws_plot_panel_get_chart_view (panel)), "recorded on"), ==,
                    recorded->len);
  for (int i = 0; i < 50; i++)
    g_main_context_iteration (NULL, FALSE);
  g_assert_true (gtk_widget_get_mapped (ws_plot_panel_get_sweep_button (panel)));

  /* a sweep cancelled says so */
  sweep = ws_session_new_replay (session, recorded, "stride", 50);
  ws_sweep_start (sweep);
  g_object_unref (sweep);
  g_assert_true (ws_plot_panel_is_sweeping (panel));
  ws_sweep_cancel (ws_session_get_sweep (session));
  g_assert_true (page_wait_until (sweep_done, panel, 100));
  g_assert_cmpuint (finished, ==, 2);
  g_assert_cmpstr (ws_plot_panel_get_status (panel), ==, "Sweep cancelled");
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int    argc,
      char **argv)
{
  g_setenv ("LC_ALL", "C.UTF-8", TRUE);
  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    {
      g_test_message ("no display: the panel is a widget");
      return 77;
    }
  adw_init ();
  g_test_add_func ("/plot-panel/sweep", test_panel);
  g_test_add_func ("/plot-panel/follows-sweep", test_panel_follows_sweep);
  return g_test_run ();
}
