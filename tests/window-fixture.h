/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* What the window tests share (window-fixture.c). */

#include "ws-config.h"
#include "ws-application.h"
#include "ws-window.h"

G_BEGIN_DECLS

#define SWEEP_PRESET "coalescing/strided-sweep"

/* The Explore page's parts (ws-explore-page.h) */
static inline WsPatternEditor *
page_editor (WsWindow *window)
{
  return ws_explore_page_get_editor (ws_window_get_explore_page (window));
}

static inline WsNumbersView *
page_numbers (WsWindow *window)
{
  return ws_explore_page_get_numbers (ws_window_get_explore_page (window));
}

static inline WsPresetIntro *
page_intro (WsWindow *window)
{
  return ws_explore_page_get_intro (ws_window_get_explore_page (window));
}

static inline WsSchedulePlayer *
page_player (WsWindow *window)
{
  return ws_explore_page_get_player (ws_window_get_explore_page (window));
}

static inline WsPlayerControls *
page_controls (WsWindow *window)
{
  return ws_explore_page_get_player_controls (ws_window_get_explore_page (window));
}

static inline GtkStack *
page_views (WsWindow *window)
{
  return ws_explore_page_get_view_stack (ws_window_get_explore_page (window));
}

static inline WsFigureView *
page_figure (WsWindow    *window,
             WsFigureKind kind)
{
  return ws_explore_page_get_figure_view (ws_window_get_explore_page (window), kind);
}

static inline WsPlotPanel *
page_plot (WsWindow *window)
{
  return ws_explore_page_get_plot_panel (ws_window_get_explore_page (window));
}

static inline WsHierarchyPage *
page_hierarchy (WsWindow *window)
{
  return ws_explore_page_get_hierarchy_page (ws_window_get_explore_page (window));
}

/* What the Explore page shows */
static inline WsPattern *
page_pattern (WsWindow *window)
{
  return ws_explore_page_get_pattern (ws_window_get_explore_page (window));
}

static inline const WsWarpResult *
page_result (WsWindow *window)
{
  return ws_explore_page_get_result (ws_window_get_explore_page (window));
}

static inline const WsLaunchStats *
page_launch (WsWindow *window)
{
  return ws_explore_page_get_launch (ws_window_get_explore_page (window));
}

/* The explorer's measured plot: its chart, and what it shows. */
static inline WsChartView *
plot_chart_view (WsWindow *window)
{
  return ws_plot_panel_get_chart_view (page_plot (window));
}

/* The Hierarchy view's drawing */
static inline WsHierarchyView *
hierarchy_view (WsWindow *window)
{
  return ws_hierarchy_page_get_view (page_hierarchy (window));
}

static inline WsPlotMetric
plot_metric (WsWindow *window)
{
  return ws_plot_panel_get_metric (page_plot (window));
}

static inline GtkDropDown *
plot_metric_chooser (WsWindow *window)
{
  return ws_plot_panel_get_metric_chooser (page_plot (window));
}

/* The Compare page's cells, choosers, player and chart. */
static inline WsCompareView *
compare_view (WsWindow *window)
{
  return ws_compare_page_get_view (ws_window_get_compare_page (window));
}

extern WsApplication *the_app;

/* The application's settings, as the window reads them (one backend in
 * memory for the whole test). */
GSettings *window_settings     (void);

typedef struct
{
  WsWindow *window;
  char *recording_path;
  guint n_recorded;          /* points the recording has for SWEEP_PRESET */
} Fixture;

typedef gboolean (*Condition) (gpointer data);

gboolean wait_until          (Condition      cond,
                              gpointer       data,
                              guint          timeout_ms);
/* Until the window has painted twice more: laid out, then drawn. */
void     wait_frames         (WsWindow      *window);
/* How much slower than usual this run is allowed to be (a sanitized build:
 * WS_TEST_TIMEOUT_SCALE), 1 normally. */
gint64   timeout_scale       (void);
void     wait_settled        (WsWindow      *window);
/* The same, for a window that follows launches below L1 on a device: the
 * time of each preset of a topic takes seconds on a busy machine. */
void     wait_settled_within (WsWindow      *window,
                              guint          seconds);
/* The share of a widget's pixels that differ from its first (background) pixel. */
double   widget_ink          (GtkWidget     *widget);
char    *screenshot_path     (const char    *name);
/* With the whole schedule served. */
void     save_screenshot     (WsWindow      *window,
                              const char    *name);
/* The bundled recording, saved to a file of the test's own; else a made-up one. */
char    *recording_for_tests (guint         *n_points);
void     fixture_set_up      (Fixture       *f,
                              gconstpointer  data);
void     fixture_tear_down   (Fixture       *f,
                              gconstpointer  data);
void     load                (Fixture       *f,
                              const char    *id);
/* gtk_test_init, the application, the tests add_tests adds, and their status. */
int      window_test_run     (int           *argc,
                              char        ***argv,
                              void         (*add_tests) (void));

G_END_DECLS
