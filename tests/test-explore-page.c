/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Explore page on its own (WsExplorePage), with a session, in a window
 * on the X server: presets shown in the views they apply to, the view in
 * sight kept where it still applies, a topic's view of the whole launch
 * first when a preset opens, the player's steps, the launch modelled on
 * the session's thread and below L1, what the session's recording has for
 * it (there is no GPU here), an edit that makes a preset one's own, a wrong
 * pattern that shows nothing stale, the divider that gives the view in
 * sight the height it is legible at, and larger text while presenting. */
#include <gtk/gtk.h>
#include <string.h>

#include "page-fixture.h"
#include "ws-explore-page.h"
#include "ws-figure.h"
#include "ws-presets.h"
#include "ws-view-style.h"

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

typedef struct
{
  WsExplorePage *page;
  guint pattern_changed;
  guint shown_changed;
} Counts;

static void
count_pattern (WsExplorePage *page,
               Counts        *c)
{
  c->pattern_changed++;
}

static void
count_shown (WsExplorePage *page,
             Counts        *c)
{
  c->shown_changed++;
}

/* The whole launch modelled for the pattern in view. */
static gboolean
launch_in (gpointer data)
{
  WsExplorePage *page = data;
  const WsLaunchStats *launch = ws_explore_page_get_launch (page);

  return launch && launch->pattern == ws_explore_page_get_pattern (page);
}

/* The launch below L1 modelled on the session's device: its time. */
static gboolean
predicted (gpointer data)
{
  return ws_numbers_view_get_value (ws_explore_page_get_numbers (data), "predicted") != NULL;
}

static gboolean
page_gone (gpointer data)
{
  return *(WsExplorePage **) data == NULL;
}

static void
type_index (WsExplorePage *page,
            const char    *text)
{
  gtk_editable_set_text (ws_pattern_editor_get_index_entry (ws_explore_page_get_editor (page)), text);
}

static void
test_views (void)
{
  GtkWidget *window = gtk_window_new ();
  WsExplorePage *page = WS_EXPLORE_PAGE (ws_explore_page_new ());
  g_autoptr (WsSession) session = page_new_session ();
  WsSchedulePlayer *player = ws_explore_page_get_player (page);
  WsPatternEditor *editor = ws_explore_page_get_editor (page);
  const WsPreset *sequential = ws_preset_lookup ("coalescing/sequential");
  g_autofree char *views = NULL;
  g_autofree char *title = NULL;
  const WsPreset *with_topic;
  WsTopicView topic;
  Laid laid = { page, NULL };
  Counts counts = { page, 0, 0 };
  g_autofree char *source = NULL;
  const WsMeasurement *m;
  int hue = 0;

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 720);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  gtk_window_present (GTK_WINDOW (window));
  ws_explore_page_set_session (page, session);
  g_signal_connect (page, "pattern-changed", G_CALLBACK (count_pattern), &counts);
  g_signal_connect (page, "shown-changed", G_CALLBACK (count_shown), &counts);

  /* its parts */
  g_assert_true (ws_explore_page_get_session (page) == session);
  g_assert_true (ws_hierarchy_page_get_session (ws_explore_page_get_hierarchy_page (page)) == session);
  g_assert_nonnull (ws_explore_page_get_numbers (page));
  g_assert_nonnull (ws_explore_page_get_intro (page));
  g_assert_nonnull (ws_explore_page_get_plot_panel (page));
  g_assert_true (ws_player_controls_get_player (ws_explore_page_get_player_controls (page)) == player);

  /* a preset with a global load: the warp's sectors, first of the figures
   * that apply, and the hierarchy; no view of the whole launch without a
   * topic; its lesson at the top */
  ws_explore_page_show_preset (page, sequential);
  g_assert_cmpuint (counts.pattern_changed, ==, 1);
  g_assert_true (ws_explore_page_get_preset (page) == sequential);
  g_assert_false (ws_explore_page_get_edited (page));
  g_assert_true (ws_preset_intro_get_preset (ws_explore_page_get_intro (page)) == sequential);
  g_assert_cmpstr (visible_name (page), ==, ws_figure_kind_to_string (WS_FIGURE_WARP));
  views = ws_explore_page_list_views (page);
  g_assert_cmpstr (views, ==, "warp, hierarchy");
  g_assert_cmpuint (ws_schedule_player_get_n_steps (player), ==, ws_explore_page_get_result (page)->steps->len);
  g_assert_cmpuint (ws_figure_view_get_result (ws_explore_page_get_figure_view (page, WS_FIGURE_WARP))->counts.sectors,
                    ==, 4);
  g_assert_null (ws_figure_view_get_result (ws_explore_page_get_figure_view (page, WS_FIGURE_BANKS)));
  title = ws_explore_page_describe_pattern (page);
  g_assert_true (g_str_has_suffix (title, "warp 0 of block (0, 0, 0)"));
  g_assert_cmpint (ws_explore_page_shown_space (page), ==, WS_SPACE_GLOBAL);
  /* the whole launch, on the session's model thread, and below L1 */
  g_assert_true (page_wait_until (launch_in, page, 60));
  g_assert_true (page_wait_until (predicted, page, 60));

  /* no GPU here: what the session's recording has for the preset stands
   * in, said to be recorded; nothing is measured, asked or not */
  m = ws_explore_page_shown_measurement (page, &source, &hue);
  g_assert_nonnull (m);
  g_assert_nonnull (source);
  g_assert_nonnull (ws_numbers_view_get_value (ws_explore_page_get_numbers (page), "median"));
  g_assert_false (ws_explore_page_get_measuring (page));
  ws_explore_page_measure_now (page);
  g_assert_false (ws_explore_page_get_measuring (page));
  g_assert_cmpstr (ws_explore_page_sweep_param (page), ==, NULL);

  /* the view in sight is legible: the divider gives it the height it needs */
  laid.view = ws_explore_page_get_figure_view (page, WS_FIGURE_WARP);
  g_assert_true (page_wait_until (view_laid_out, &laid, 10));

  /* the hierarchy stays in sight whatever the instruction; a view that
   * does not apply cannot be shown */
  g_assert_true (ws_explore_page_show_view (page, "hierarchy"));
  ws_explore_page_show_preset (page, ws_preset_lookup ("coalescing/stride"));
  g_assert_cmpstr (visible_name (page), ==, "hierarchy");
  g_assert_cmpuint (ws_schedule_player_get_n_steps (player), ==, ws_explore_page_get_result (page)->steps->len);
  g_assert_false (ws_explore_page_show_view (page, ws_figure_kind_to_string (WS_FIGURE_BANKS)));
  g_assert_false (ws_explore_page_show_view (page, "no such view"));
  g_assert_cmpstr (visible_name (page), ==, "hierarchy");

  /* shared memory: the banks, where the warp's sectors no longer apply */
  g_assert_true (ws_explore_page_show_view (page, ws_figure_kind_to_string (WS_FIGURE_WARP)));
  ws_explore_page_show_preset (page, ws_preset_lookup ("banks/padding"));
  g_assert_cmpstr (visible_name (page), ==, ws_figure_kind_to_string (WS_FIGURE_BANKS));
  g_assert_null (ws_figure_view_get_result (ws_explore_page_get_figure_view (page, WS_FIGURE_WARP)));
  g_assert_cmpint (ws_explore_page_shown_space (page), ==, WS_SPACE_SHARED);

  /* a preset about the whole launch opens on its topic's view, the first
   * tab; after that the view chosen stays, another warp in view too */
  with_topic = topic_preset (&topic);
  g_assert_nonnull (with_topic);
  ws_explore_page_show_preset (page, with_topic);
  g_assert_cmpstr (visible_name (page), ==, ws_topic_view_to_string (topic));
  g_clear_pointer (&views, g_free);
  views = ws_explore_page_list_views (page);
  g_assert_true (g_str_has_prefix (views, ws_topic_view_to_string (topic)));
  g_clear_pointer (&views, g_free);
  g_assert_true (ws_explore_page_show_view (page, "hierarchy"));
  counts.shown_changed = 0;
  ws_pattern_editor_set_warp (editor, 1);
  g_assert_cmpuint (counts.shown_changed, ==, 1);
  g_assert_cmpstr (visible_name (page), ==, "hierarchy");
  g_clear_pointer (&title, g_free);
  title = ws_explore_page_describe_pattern (page);
  g_assert_true (g_str_has_suffix (title, "warp 1 of block (0, 0, 0)"));

  /* an edit: the preset's pattern changed is a pattern of one's own, and
   * the lesson gives way */
  ws_explore_page_show_preset (page, sequential);
  counts.pattern_changed = 0;
  type_index (page, "i * 2");
  g_assert_cmpuint (counts.pattern_changed, ==, 1);
  g_assert_null (ws_explore_page_get_preset (page));
  g_assert_true (ws_explore_page_get_edited (page));
  g_assert_null (ws_preset_intro_get_preset (ws_explore_page_get_intro (page)));
  g_assert_cmpuint (ws_explore_page_get_result (page)->counts.sectors, ==, 8);
  g_assert_true (page_wait_until (launch_in, page, 60));
  /* which no recording has */
  g_clear_pointer (&source, g_free);
  g_assert_null (ws_explore_page_shown_measurement (page, &source, &hue));
  g_assert_null (ws_numbers_view_get_value (ws_explore_page_get_numbers (page), "median"));

  /* a wrong pattern shows nothing stale, and says what is wrong until it
   * is right again */
  counts.shown_changed = 0;
  type_index (page, "i * 2 +");
  g_assert_nonnull (ws_explore_page_get_pattern_error (page));
  g_assert_true (ws_explore_page_get_pattern_wrong (page));
  g_assert_cmpuint (counts.shown_changed, ==, 1);
  g_assert_null (ws_figure_view_get_result (ws_explore_page_get_figure_view (page, WS_FIGURE_WARP)));
  type_index (page, "i * 4");
  g_assert_null (ws_explore_page_get_pattern_error (page));
  g_assert_false (ws_explore_page_get_pattern_wrong (page));
  g_assert_cmpuint (ws_figure_view_get_result (ws_explore_page_get_figure_view (page, WS_FIGURE_WARP))->counts.sectors,
                    ==, 16);

  /* presenting: the views' text larger, given back after */
  g_assert_cmpfloat (ws_view_style_get_text_scale (), ==, 1);
  ws_explore_page_set_presenting (page, TRUE);
  g_assert_true (ws_explore_page_get_presenting (page));
  g_assert_cmpfloat (ws_view_style_get_text_scale (), >=, 1.25);
  laid.view = ws_explore_page_get_figure_view (page, WS_FIGURE_WARP);
  g_assert_true (page_wait_until (view_laid_out, &laid, 10));
  ws_explore_page_set_presenting (page, FALSE);
  g_assert_cmpfloat (ws_view_style_get_text_scale (), ==, 1);

  /* a page that goes while presenting gives the text back too; and it
   * goes, once what it waited for on the session's threads is cancelled */
  ws_explore_page_set_presenting (page, TRUE);
  g_object_add_weak_pointer (G_OBJECT (page), (gpointer *) &page);
  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_cmpfloat (ws_view_style_get_text_scale (), ==, 1);
  g_assert_true (page_wait_until (page_gone, &page, 30));
}

/* Without a session: the warp still shows and a wrong pattern still
 * says so; nothing is modelled below the warp, nothing measured. */
static void
test_without_session (void)
{
  GtkWidget *window = gtk_window_new ();
  WsExplorePage *page = WS_EXPLORE_PAGE (ws_explore_page_new ());
  g_autofree char *source = NULL;
  int hue = 0;

  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  gtk_window_present (GTK_WINDOW (window));
  ws_explore_page_show_preset (page, ws_preset_lookup ("coalescing/sequential"));
  g_assert_cmpuint (ws_figure_view_get_result (ws_explore_page_get_figure_view (page, WS_FIGURE_WARP))->counts.sectors,
                    ==, 4);
  g_assert_null (ws_explore_page_get_launch (page));
  g_assert_null (ws_explore_page_shown_measurement (page, &source, &hue));
  ws_explore_page_measure_now (page);
  g_assert_false (ws_explore_page_get_measuring (page));
  type_index (page, "i +");
  g_assert_true (ws_explore_page_get_pattern_wrong (page));
  g_assert_null (ws_figure_view_get_result (ws_explore_page_get_figure_view (page, WS_FIGURE_WARP)));
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/explore-page/views", test_views);
  g_test_add_func ("/explore-page/without-session", test_without_session);
  return g_test_run ();
}
