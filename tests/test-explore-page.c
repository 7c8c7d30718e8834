/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Explore page on its own (WsExplorePage), in a window on the X
 * server: the views a warp instruction's result applies to, the view in
 * sight kept where it still applies, a topic's view of the whole launch
 * first when a preset opens, the player's steps, the divider that gives
 * the view in sight the height it is legible at, and larger text while
 * presenting. */
#include <gtk/gtk.h>
#include <string.h>

#include "page-fixture.h"
#include "ws-analysis.h"
#include "ws-explore-page.h"
#include "ws-figure.h"
#include "ws-presets.h"
#include "ws-view-style.h"

static WsWarpResult *
result_of (const char *id)
{
  const WsPreset *preset = ws_preset_lookup (id);
  g_autoptr (GError) error = NULL;
  WsPattern *pattern;
  WsWarpResult *result;

  g_assert_nonnull (preset);
  pattern = ws_preset_build (preset);
  result = ws_model_analyze_warp (pattern, 0, (WsDim3) { 0, 0, 0 }, 0, &error);
  g_assert_no_error (error);
  ws_pattern_unref (pattern);
  return result;
}

static const char *
visible_name (WsExplorePage *page)
{
  return gtk_stack_get_visible_child_name (ws_explore_page_get_view_stack (page));
}

/* A preset whose lesson is about the whole launch, and its view. */
static const WsPreset *
topic_preset (WsTopicView *view)
{
  guint n;
  const WsPreset *all = ws_presets_get_all (&n);

  for (guint i = 0; i < n; i++)
    if (ws_topic_view_for (&all[i], view))
      return &all[i];
  return NULL;
}

typedef struct
{
  WsExplorePage *page;
  WsFigureView *view;
} Laid;

/* The view in sight laid out, as tall as it is legible at. */
static gboolean
view_laid_out (gpointer data)
{
  Laid *l = data;
  int width = gtk_widget_get_width (GTK_WIDGET (l->view));

  return width > 0 &&
         gtk_widget_get_height (GTK_WIDGET (l->view)) + 1 >= ws_figure_view_min_height (l->view, width);
}

static void
test_views (void)
{
  GtkWidget *window = gtk_window_new ();
  WsExplorePage *page = WS_EXPLORE_PAGE (ws_explore_page_new ());
  g_autoptr (WsWarpResult) global = result_of ("coalescing/sequential");
  g_autoptr (WsWarpResult) strided = result_of ("coalescing/stride");
  g_autoptr (WsWarpResult) shared = result_of ("banks/padding");
  WsSchedulePlayer *player = ws_explore_page_get_player (page);
  g_autofree char *views = NULL;
  const WsPreset *with_topic;
  WsTopicView topic;
  Laid laid = { page, NULL };

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 720);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  gtk_window_present (GTK_WINDOW (window));

  /* its parts */
  g_assert_nonnull (ws_explore_page_get_editor (page));
  g_assert_nonnull (ws_explore_page_get_numbers (page));
  g_assert_nonnull (ws_explore_page_get_intro (page));
  g_assert_nonnull (ws_explore_page_get_plot_panel (page));
  g_assert_true (ws_player_controls_get_player (ws_explore_page_get_player_controls (page)) == player);

  /* a global load: the warp's sectors, first of the figures that apply,
   * and the hierarchy; no view of the whole launch without a topic */
  ws_explore_page_show_result (page, global, "a global load", (WsDim3) { 256, 1, 1 }, NULL, FALSE);
  g_assert_cmpstr (visible_name (page), ==, ws_figure_kind_to_string (WS_FIGURE_WARP));
  views = ws_explore_page_list_views (page);
  g_assert_cmpstr (views, ==, "warp, hierarchy");
  g_assert_cmpuint (ws_schedule_player_get_n_steps (player), ==, global->steps->len);
  g_assert_nonnull (ws_figure_view_get_result (ws_explore_page_get_figure_view (page, WS_FIGURE_WARP)));
  g_assert_cmpuint (ws_figure_view_get_result (ws_explore_page_get_figure_view (page, WS_FIGURE_WARP))->counts.sectors, ==,
                    global->counts.sectors);
  g_assert_null (ws_figure_view_get_result (ws_explore_page_get_figure_view (page, WS_FIGURE_BANKS)));

  /* the view in sight is legible: the divider gives it the height it needs */
  laid.view = ws_explore_page_get_figure_view (page, WS_FIGURE_WARP);
  g_assert_true (page_wait_until (view_laid_out, &laid, 10));

  /* the hierarchy stays in sight whatever the instruction; a view that
   * does not apply cannot be shown */
  g_assert_true (ws_explore_page_show_view (page, "hierarchy"));
  ws_explore_page_show_result (page, strided, "a strided load", (WsDim3) { 256, 1, 1 }, NULL, FALSE);
  g_assert_cmpstr (visible_name (page), ==, "hierarchy");
  g_assert_cmpuint (ws_schedule_player_get_n_steps (player), ==, strided->steps->len);
  g_assert_false (ws_explore_page_show_view (page, ws_figure_kind_to_string (WS_FIGURE_BANKS)));
  g_assert_false (ws_explore_page_show_view (page, "no such view"));
  g_assert_cmpstr (visible_name (page), ==, "hierarchy");

  /* shared memory: the banks, where the warp's sectors no longer apply */
  g_assert_true (ws_explore_page_show_view (page, ws_figure_kind_to_string (WS_FIGURE_WARP)));
  ws_explore_page_show_result (page, shared, "a shared load", (WsDim3) { 32, 32, 1 }, NULL, FALSE);
  g_assert_cmpstr (visible_name (page), ==, ws_figure_kind_to_string (WS_FIGURE_BANKS));
  g_assert_null (ws_figure_view_get_result (ws_explore_page_get_figure_view (page, WS_FIGURE_WARP)));

  /* a preset about the whole launch opens on its topic's view, the first
   * tab; after that the view chosen stays */
  with_topic = topic_preset (&topic);
  g_assert_nonnull (with_topic);
  ws_explore_page_show_result (page, global, with_topic->title, (WsDim3) { 256, 1, 1 }, &topic, TRUE);
  g_assert_cmpstr (visible_name (page), ==, ws_topic_view_to_string (topic));
  g_clear_pointer (&views, g_free);
  views = ws_explore_page_list_views (page);
  g_assert_true (g_str_has_prefix (views, ws_topic_view_to_string (topic)));
  g_assert_true (ws_explore_page_show_view (page, ws_figure_kind_to_string (WS_FIGURE_WARP)));
  ws_explore_page_show_result (page, global, with_topic->title, (WsDim3) { 256, 1, 1 }, &topic, FALSE);
  g_assert_cmpstr (visible_name (page), ==, ws_figure_kind_to_string (WS_FIGURE_WARP));
  /* and goes where the result has no topic */
  ws_explore_page_show_result (page, global, "a global load", (WsDim3) { 256, 1, 1 }, NULL, FALSE);
  g_assert_false (ws_explore_page_show_view (page, ws_topic_view_to_string (topic)));

  /* presenting: the views' text larger, given back after */
  g_assert_cmpfloat (ws_view_style_get_text_scale (), ==, 1);
  ws_explore_page_set_presenting (page, TRUE);
  g_assert_true (ws_explore_page_get_presenting (page));
  g_assert_cmpfloat (ws_view_style_get_text_scale (), >=, 1.25);
  g_assert_true (page_wait_until (view_laid_out, &laid, 10));
  ws_explore_page_set_presenting (page, FALSE);
  g_assert_cmpfloat (ws_view_style_get_text_scale (), ==, 1);

  /* a page that goes while presenting gives the text back too */
  ws_explore_page_set_presenting (page, TRUE);
  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_cmpfloat (ws_view_style_get_text_scale (), ==, 1);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/explore-page/views", test_views);
  return g_test_run ();
}
