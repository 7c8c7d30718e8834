/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window as a teacher meets it, for real under Xvfb: the views the
 * guide promises open, first, for their topics' presets; what the plot
 * shows is the lesson's and can be switched; the export dialog writes what
 * it previews; every page lays out at a projector's 1280 × 720, and a
 * presentation mode hides what a room does not need; an edited preset is
 * a pattern of one's own. Screenshots, light and dark, in screenshots/ of
 * the build. */
#include "sample.h"
#include "window-fixture.h"
#include "ws-truth-window.h"
#include "ws-export-dialog.h"
#include "ws-view-style.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* The views of a whole launch                                        */
/* ------------------------------------------------------------------ */

static const struct
{
  const char *preset;
  const char *view;
} topic_views[] = {
  { "occupancy/shared", "occupancy" },
  { "occupancy/saturation", "occupancy" },
  { "transfer/streams", "timeline" },
  { "l2/hot-size", "l2" },
  { "l2/persisting", "l2" },
};

/* Each opens first for its topic's presets, draws, and is what --view names;
 * a preset of another topic has none of them. */
static void
test_topic_views (Fixture       *f,
                  gconstpointer  data)
{
  WsWindow *w = f->window;
  Sample sample;

  /* sampled, each of the three views is still opened */
  sample_init (&sample, "topic views", 1);
  for (guint i = 0; i < G_N_ELEMENTS (topic_views); i++)
    {
      GtkWidget *visible;
      const WsTopicFigure *figure;
      g_autofree char *views = NULL;
      g_autofree char *name = NULL;

      if (!sample_keep (&sample, topic_views[i].view, NULL))
        continue;
      load (f, topic_views[i].preset);
      visible = gtk_stack_get_visible_child (page_views (w));
      g_assert_cmpstr (gtk_stack_get_visible_child_name (page_views (w)), ==, topic_views[i].view);
      g_assert_true (WS_IS_LAUNCH_VIEW (visible));
      figure = ws_launch_view_get_figure (WS_LAUNCH_VIEW (visible));
      g_assert_nonnull (figure);
      /* the bundled recording measured each: its numbers are in the view */
      g_assert_null (figure->message);
      g_assert_cmpfloat (widget_ink (visible), >, 0.05);
      views = ws_window_list_views (w);
      g_assert_nonnull (strstr (views, topic_views[i].view));
      /* from another view, --view comes back to it */
      g_assert_true (ws_window_show_view (w, "hierarchy"));
      g_assert_true (ws_window_show_view (w, topic_views[i].view));
      g_assert_true (gtk_stack_get_visible_child (page_views (w)) == visible);
      name = g_strdup_printf ("topic-%s-light.png", topic_views[i].view);
      save_screenshot (w, name);
    }
  sample_finish (&sample);
  /* the streams' timeline says what each bar is */
  load (f, "transfer/streams");
  {
    WsLaunchView *view = WS_LAUNCH_VIEW (gtk_stack_get_visible_child (page_views (w)));
    int width = gtk_widget_get_width (GTK_WIDGET (view)), height = gtk_widget_get_height (GTK_WIDGET (view));
    gboolean found = FALSE;

    for (int y = 0; y < height && !found; y += 4)
      for (int x = 0; x < width && !found; x += 4)
        {
          g_autofree char *text = ws_launch_view_describe_at (view, x, y);
          found = text && strstr (text, "on stream");
        }
    g_assert_true (found);
  }
  /* a coalescing preset has none of them */
  load (f, "coalescing/offset");
  for (WsTopicView v = 0; v < WS_N_TOPIC_VIEWS; v++)
    g_assert_false (ws_window_show_view (w, ws_topic_view_to_string (v)));
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  load (f, "occupancy/registers");
  save_screenshot (w, "topic-occupancy-dark.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_LIGHT);
}

/* The view in sight goes to a file as it is drawn. */
static void
test_topic_view_export (Fixture       *f,
                        gconstpointer  data)
{
  WsWindow *w = f->window;
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "warpscope-topic-export.png", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GdkTexture) texture = NULL;

  load (f, "l2/hot-size");
  g_assert_cmpstr (gtk_stack_get_visible_child_name (page_views (w)), ==, "l2");
  g_assert_true (ws_window_export (w, WS_WINDOW_EXPORT_FIGURE, path, 1, &error));
  g_assert_no_error (error);
  texture = gdk_texture_new_from_filename (path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_texture_get_width (texture), >=, 600);
  g_unlink (path);
}


/* ------------------------------------------------------------------ */
/* A projector's 1280 × 720                                           */
/* ------------------------------------------------------------------ */

/* Whole within the window, and drawn. */
static void
assert_within (WsWindow   *w,
               GtkWidget  *widget,
               const char *what)
{
  graphene_rect_t bounds;

  g_assert_true (gtk_widget_get_mapped (widget));
  g_assert_true (gtk_widget_compute_bounds (widget, GTK_WIDGET (w), &bounds));
  if (bounds.origin.x < 0 || bounds.origin.y < 0 ||
      bounds.origin.x + bounds.size.width > gtk_widget_get_width (GTK_WIDGET (w)) + 0.5 ||
      bounds.origin.y + bounds.size.height > gtk_widget_get_height (GTK_WIDGET (w)) + 0.5 || bounds.size.width < 8)
    g_error ("%s is not within the %d × %d window: %.0f, %.0f, %.0f × %.0f", what, gtk_widget_get_width (GTK_WIDGET (w)),
             gtk_widget_get_height (GTK_WIDGET (w)), bounds.origin.x, bounds.origin.y, bounds.size.width,
             bounds.size.height);
}

/* The presets slid all the way in. */
static gboolean
presets_in_view (gpointer data)
{
  WsWindow *w = data;
  graphene_point_t at;

  return ws_window_get_presets_shown (w) &&
         gtk_widget_compute_point (GTK_WIDGET (ws_window_get_sidebar (w)), GTK_WIDGET (w), &GRAPHENE_POINT_INIT (0, 0), &at) &&
         at.x >= -0.5;
}

/* The style the views draw in: light or dark, its text larger while
 * presenting. */
static const WsFigureStyle *
screen_style (void)
{
  return ws_view_style_get ();
}

/* A chart view big enough for its chart: it draws it, not "too small". */
static void
assert_chart_drawn (WsChartView *view,
                    const char  *what)
{
  const WsChart *chart = ws_chart_view_get_chart (view);
  int width = gtk_widget_get_width (GTK_WIDGET (view)), height = gtk_widget_get_height (GTK_WIDGET (view));

  g_assert_nonnull (chart);
  if (ws_chart_min_width (chart, screen_style ()) > width ||
      ws_chart_min_height (chart, screen_style (), width) > height)
    g_error ("%s (%s / %s): %d × %d, where the chart needs %.0f × %.0f", what, chart->title, chart->subtitle, width, height,
             ws_chart_min_width (chart, screen_style ()), ws_chart_min_height (chart, screen_style (), width));
}

static void
assert_view_drawn (WsFigureView *view,
                   const char   *what)
{
  int width = gtk_widget_get_width (GTK_WIDGET (view)), height = gtk_widget_get_height (GTK_WIDGET (view));

  g_assert_nonnull (ws_figure_view_get_result (view));
  if (ws_figure_view_min_width (view) > width || ws_figure_view_min_height (view, width) > height)
    g_error ("%s: %d × %d, where the view needs %.0f × %.0f", what, width, height, ws_figure_view_min_width (view),
             ws_figure_view_min_height (view, width));
}

static void
assert_launch_view_drawn (WsLaunchView *view,
                          const char   *what)
{
  const WsTopicFigure *figure = ws_launch_view_get_figure (view);
  int width = gtk_widget_get_width (GTK_WIDGET (view)), height = gtk_widget_get_height (GTK_WIDGET (view));

  g_assert_nonnull (figure);
  if (ws_topic_figure_min_width (figure, screen_style ()) > width ||
      ws_topic_figure_min_height (figure, screen_style (), width) > height)
    g_error ("%s: %d × %d, where the view needs %.0f × %.0f", what, width, height,
             ws_topic_figure_min_width (figure, screen_style ()),
             ws_topic_figure_min_height (figure, screen_style (), width));
}

/* Each topic's own view drawn over its plot, as the window stands (its
 * size, presenting or not); sampled, each of the three views still laid out. */
static void
assert_topic_views_drawn (Fixture    *f,
                          const char *what)
{
  WsWindow *w = f->window;
  Sample sample;

  sample_init (&sample, what, 1);
  for (guint i = 0; i < G_N_ELEMENTS (topic_views); i++)
    {
      if (!sample_keep (&sample, topic_views[i].view, NULL))
        continue;
      load (f, topic_views[i].preset);
      wait_frames (w);
      assert_launch_view_drawn (WS_LAUNCH_VIEW (gtk_stack_get_visible_child (page_views (w))), topic_views[i].preset);
      assert_chart_drawn (plot_chart_view (w), topic_views[i].preset);
    }
  sample_finish (&sample);
}

/* With the presets beside it, the explorer shows the view whole (its
 * title, banks 0 to 31), the player and the plot, drawn; the compare page
 * draws its chart and its four views (these scroll, where they must). */
/* No wrapped label under `widget` breaks a word across lines: a
 * parameter's description beside its slider once read "consecu- ti- ve
 * threads", a few characters a line. */
static void
assert_words_whole (GtkWidget *widget)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    assert_words_whole (c);
  if (GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget) && gtk_label_get_wrap (GTK_LABEL (widget)))
    {
      PangoLayout *layout = gtk_label_get_layout (GTK_LABEL (widget));
      const char *text = pango_layout_get_text (layout);

      for (GSList *l = pango_layout_get_lines_readonly (layout); l; l = l->next)
        {
          int i = ((PangoLayoutLine *) l->data)->start_index;

          if (i > 0 && g_ascii_isalnum (text[i - 1]) && g_ascii_isalnum (text[i]))
            g_error ("“%s” is broken inside a word, before “%s”", text, text + i);
        }
    }
}

static void
test_projector (Fixture       *f,
                gconstpointer  data)
{
  WsWindow *w = f->window;
  const char *transposes[] = { "transpose/copy", "transpose/read-coalesced", "transpose/shared",
                               "transpose/shared-padded", NULL };

  for (guint dark = 0; dark < 2; dark++)
    {
      g_autofree char *explore = g_strdup_printf ("projector-explore-%s.png", dark ? "dark" : "light");
      g_autofree char *compare = g_strdup_printf ("projector-compare-%s.png", dark ? "dark" : "light");

      adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                          dark ? ADW_COLOR_SCHEME_FORCE_DARK : ADW_COLOR_SCHEME_FORCE_LIGHT);
      gtk_window_unmaximize (GTK_WINDOW (w));
      gtk_window_set_default_size (GTK_WINDOW (w), 1280, 720);
      ws_window_set_presets_shown (w, TRUE);
      ws_window_set_page (w, "explore");
      load (f, "banks/padding");
      g_assert_true (wait_until (presets_in_view, w, 5000));
      wait_frames (w);
      g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (w)), <=, 1280);
      g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (w)), <=, 720);
      g_assert_true (ws_window_get_presets_shown (w));
      assert_within (w, GTK_WIDGET (ws_window_get_sidebar (w)), "the presets");
      assert_within (w, gtk_stack_get_visible_child (page_views (w)), "the view");
      assert_view_drawn (WS_FIGURE_VIEW (gtk_stack_get_visible_child (page_views (w))), "the banks view");
      /* the player's buttons and its speed, at the right end */
      assert_within (w, GTK_WIDGET (page_controls (w)), "the player and its speed");
      assert_within (w, GTK_WIDGET (plot_chart_view (w)), "the plot");
      assert_chart_drawn (plot_chart_view (w), "the plot");
      save_screenshot (w, explore);
      /* the topics' own views too, each over its plot: the occupancy view
       * once asked for 300 rows and said it was too small */
      if (!dark)
        assert_topic_views_drawn (f, "topic views at 1280 × 720");
      /* the parameters' descriptions keep their words whole */
      if (!dark)
        {
          load (f, "coalescing/strided-sweep");
          wait_frames (w);
          assert_words_whole (GTK_WIDGET (page_editor (w)));
        }

      g_assert_true (ws_window_compare_presets (w, transposes));
      ws_window_set_page (w, "compare");
      wait_settled (w);
      wait_frames (w);
      g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (w)), <=, 1280);
      g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (w)), <=, 720);
      assert_within (w, GTK_WIDGET (ws_compare_view_get_chart (compare_view (w))), "the comparison's chart");
      assert_chart_drawn (ws_compare_view_get_chart (compare_view (w)), "the comparison's chart");
      for (guint i = 0; i < 4; i++)
        assert_view_drawn (ws_compare_view_get_figure (compare_view (w), i), "a compared view");
      save_screenshot (w, compare);
    }
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_LIGHT);
}

/* ------------------------------------------------------------------ */
/* Presenting                                                         */
/* ------------------------------------------------------------------ */

static gboolean
menu_has_action (GMenuModel *menu,
                 const char *action)
{
  for (int i = 0; i < g_menu_model_get_n_items (menu); i++)
    {
      g_autofree char *name = NULL;
      g_autoptr (GMenuModel) section = g_menu_model_get_item_link (menu, i, G_MENU_LINK_SECTION);

      if (g_menu_model_get_item_attribute (menu, i, G_MENU_ATTRIBUTE_ACTION, "s", &name) && g_str_equal (name, action))
        return TRUE;
      if (section && menu_has_action (section, action))
        return TRUE;
    }
  return FALSE;
}

/* The shortcuts window lists a key for this. */
static gboolean
shortcut_listed (const char *accelerator)
{
  g_autoptr (GtkBuilder) builder = gtk_builder_new_from_resource ("/io/github/warpscope/Warpscope/gtk/help-overlay.ui");
  GSList *objects = gtk_builder_get_objects (builder);
  gboolean found = FALSE;

  for (GSList *o = objects; o; o = o->next)
    if (GTK_IS_SHORTCUTS_SHORTCUT (o->data))
      {
        g_autofree char *accel = NULL;
        g_object_get (o->data, "accelerator", &accel, NULL);
        found |= g_strcmp0 (accel, accelerator) == 0;
      }
  g_slist_free (objects);
  return found;
}

/* In the menu and the shortcuts window; presenting hides the presets and
 * the banner and makes the figures' text larger; a clicker's keys step the
 * player, space plays and pauses, Escape leaves. At 1280 × 720 the view
 * and the plot are still drawn. */
static void
test_presentation_mode (Fixture       *f,
                        gconstpointer  data)
{
  WsWindow *w = f->window;
  WsSchedulePlayer *player;
  double font;

  g_assert_true (menu_has_action (ws_window_get_menu (w, "primary"), "win.present"));
  g_assert_true (shortcut_listed ("F5"));
  g_assert_true (shortcut_listed ("Page_Down"));
  g_assert_true (shortcut_listed ("Page_Up"));
  g_assert_true (shortcut_listed ("space"));

  load (f, "banks/padding");
  player = ws_window_active_player (w);
  font = ws_figure_view_get_style (WS_FIGURE_VIEW (gtk_stack_get_visible_child (page_views (w))))->font_size;
  g_assert_false (ws_window_presenting_key (w, GDK_KEY_Page_Down));
  ws_window_set_presets_shown (w, TRUE);

  gtk_widget_activate_action (GTK_WIDGET (w), "win.present", NULL);
  g_assert_true (ws_window_get_presenting (w));
  g_assert_false (ws_window_get_presets_shown (w));
  g_assert_false (ws_banner_get_revealed (ws_window_get_banner (w)));
  g_assert_false (gtk_widget_get_visible (ws_window_get_header_bar (w)));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (w), "presenting"));
  g_assert_cmpfloat (ws_figure_view_get_style (WS_FIGURE_VIEW (gtk_stack_get_visible_child (page_views (w))))->font_size,
                     >=, font * 1.2);

  /* a clicker */
  ws_schedule_player_set_playing (player, FALSE);
  ws_schedule_player_set_position (player, 0);
  g_assert_true (ws_window_presenting_key (w, GDK_KEY_Page_Down));
  g_assert_true (ws_window_presenting_key (w, GDK_KEY_Page_Down));
  g_assert_cmpfloat (ws_schedule_player_get_position (player), ==, 2);
  g_assert_true (ws_window_presenting_key (w, GDK_KEY_Page_Up));
  g_assert_cmpfloat (ws_schedule_player_get_position (player), ==, 1);
  g_assert_true (ws_window_presenting_key (w, GDK_KEY_space));
  g_assert_true (ws_schedule_player_get_playing (player));
  g_assert_true (ws_window_presenting_key (w, GDK_KEY_space));
  g_assert_false (ws_schedule_player_get_playing (player));

  /* legible on a projector: the view and the plot drawn at 1280 × 720 */
  gtk_window_unfullscreen (GTK_WINDOW (w));
  gtk_window_set_default_size (GTK_WINDOW (w), 1280, 720);
  wait_settled (w);
  wait_frames (w);
  assert_view_drawn (WS_FIGURE_VIEW (gtk_stack_get_visible_child (page_views (w))), "the view, presenting");
  assert_chart_drawn (plot_chart_view (w), "the plot, presenting");
  save_screenshot (w, "presenting-1280-light.png");
  /* the topics' own views too, at the larger text */
  assert_topic_views_drawn (f, "topic views presenting at 1280 × 720");
  load (f, "banks/padding");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  gtk_window_set_default_size (GTK_WINDOW (w), 1920, 1080);
  wait_settled (w);
  wait_frames (w);
  save_screenshot (w, "presenting-1920-dark.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_LIGHT);

  g_assert_true (ws_window_presenting_key (w, GDK_KEY_Escape));
  g_assert_false (ws_window_get_presenting (w));
  g_assert_true (ws_window_get_presets_shown (w));
  g_assert_true (gtk_widget_get_visible (ws_window_get_header_bar (w)));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (w), "presenting"));
  g_assert_cmpfloat (ws_figure_view_get_style (WS_FIGURE_VIEW (gtk_stack_get_visible_child (page_views (w))))->font_size,
                     ==, font);
}

/* ------------------------------------------------------------------ */
/* What the plot shows                                                */
/* ------------------------------------------------------------------ */

static const char *
chart_unit (WsWindow *w)
{
  return ws_chart_view_get_chart (plot_chart_view (w))->axes[WS_CHART_Y].unit;
}

/* Each preset's plot opens on what its lesson is about, and the chooser
 * switches it; a shared-memory instruction has no coalescing to choose. */
static void
test_plot_metric (Fixture       *f,
                  gconstpointer  data)
{
  WsWindow *w = f->window;
  GListModel *items;

  load (f, "coalescing/strided-sweep");
  g_assert_cmpint (plot_metric (w), ==, WS_PLOT_BANDWIDTH);
  g_assert_cmpstr (chart_unit (w), ==, "B/s");
  g_assert_nonnull (strstr (ws_chart_view_get_chart (plot_chart_view (w))->title, "Stride sweep"));
  items = gtk_drop_down_get_model (plot_metric_chooser (w));
  g_assert_cmpuint (g_list_model_get_n_items (items), ==, 4);
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (items), gtk_drop_down_get_selected (plot_metric_chooser (w))),
                   ==, "Effective bandwidth");
  save_screenshot (w, "metric-bandwidth-light.png");
  /* the user's choice */
  for (guint i = 0; i < g_list_model_get_n_items (items); i++)
    if (g_str_equal (gtk_string_list_get_string (GTK_STRING_LIST (items), i), "Sectors per request"))
      gtk_drop_down_set_selected (plot_metric_chooser (w), i);
  wait_settled (w);
  g_assert_cmpint (plot_metric (w), ==, WS_PLOT_COST);
  g_assert_cmpstr (ws_chart_view_get_chart (plot_chart_view (w))->axes[WS_CHART_Y].title, ==, "sectors per request");
  save_screenshot (w, "metric-sectors-light.png");
  for (guint i = 0; i < g_list_model_get_n_items (items); i++)
    if (g_str_equal (gtk_string_list_get_string (GTK_STRING_LIST (items), i), "Median time"))
      gtk_drop_down_set_selected (plot_metric_chooser (w), i);
  wait_settled (w);
  g_assert_cmpstr (chart_unit (w), ==, "s");

  /* the banks' lesson: wavefronts; no coalescing for shared memory */
  load (f, "banks/padding");
  g_assert_cmpint (plot_metric (w), ==, WS_PLOT_COST);
  items = gtk_drop_down_get_model (plot_metric_chooser (w));
  g_assert_cmpuint (g_list_model_get_n_items (items), ==, 3);
  g_assert_cmpstr (ws_chart_view_get_chart (plot_chart_view (w))->axes[WS_CHART_Y].title, ==, "wavefronts per instruction");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  save_screenshot (w, "metric-wavefronts-dark.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_LIGHT);
  /* a preset whose lesson is about time */
  load (f, "transpose/copy");
  g_assert_cmpint (plot_metric (w), ==, WS_PLOT_TIME);
}

/* ------------------------------------------------------------------ */
/* The export dialog                                                  */
/* ------------------------------------------------------------------ */

static WsExportDialog *
open_dialog (WsWindow   *w,
             const char *action)
{
  WsExportDialog *found = NULL;
  GListModel *toplevels = gtk_window_get_toplevels ();

  gtk_widget_activate_action (GTK_WIDGET (w), action, NULL);
  for (guint i = 0; i < g_list_model_get_n_items (toplevels) && found == NULL; i++)
    {
      g_autoptr (GObject) o = g_list_model_get_item (toplevels, i);
      if (WS_IS_EXPORT_DIALOG (o))
        found = WS_EXPORT_DIALOG (o);
    }
  g_assert_nonnull (found);
  return found;
}

/* A widget (a dialog) as pixels, in screenshots/. */
static void
save_widget (GtkWidget  *widget,
             const char *name)
{
  g_autofree char *path = screenshot_path (name);
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr (GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);

  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), w, h);
  node = gtk_snapshot_to_node (snapshot);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (widget)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, w, h));
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("screenshot: %s", path);
}

static void
assert_png_size (const char *path,
                 int         width,
                 int         height)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GdkTexture) texture = gdk_texture_new_from_filename (path, &error);

  g_assert_no_error (error);
  g_assert_cmpint (gdk_texture_get_width (texture), ==, width);
  g_assert_cmpint (gdk_texture_get_height (texture), ==, height);
}

/* Ctrl+E: slide sizes, the style, a title of one's own, the file named
 * after the preset, and a preview of what it writes; then the file, as
 * the preview has it. */
static void
test_export_dialog (Fixture       *f,
                    gconstpointer  data)
{
  WsWindow *w = f->window;
  WsExportDialog *dialog;
  g_autofree char *png = g_build_filename (g_get_tmp_dir (), "warpscope-dialog.png", NULL);
  g_autofree char *csv = g_build_filename (g_get_tmp_dir (), "warpscope-dialog.csv", NULL);
  g_autofree char *name = NULL;
  g_autoptr (GError) error = NULL;
  GdkPaintable *preview;
  gboolean slide = FALSE, hd = FALSE;
  double width, height;

  load (f, "banks/stride");
  dialog = open_dialog (w, "win.export-figure");
  for (guint i = 0; i < ws_export_dialog_n_sizes (dialog); i++)
    {
      g_autofree char *size = ws_export_dialog_size_name (dialog, i);
      slide |= strstr (size, "1280 × 720") != NULL;
      hd |= strstr (size, "1920 × 1080") != NULL;
    }
  g_assert_true (slide && hd);
  name = ws_export_dialog_get_file_name (dialog);
  g_assert_cmpstr (name, ==, "banks-stride-banks.png");
  /* a full-HD slide in print, its type larger than on a 1280 one */
  ws_export_dialog_set_choice (dialog, 0, 0, 0);
  g_assert_cmpint (ws_export_dialog_get_style (dialog)->kind, ==, WS_FIGURE_STYLE_PRINT);
  g_assert_cmpfloat (ws_export_dialog_get_style (dialog)->font_size, >, ws_figure_style_get (WS_FIGURE_STYLE_PRINT)->font_size * 1.4);
  ws_export_dialog_get_size (dialog, &width, &height);
  g_assert_cmpfloat (width, ==, 1920);
  g_assert_cmpfloat (height, ==, 1080);
  ws_export_dialog_set_title (dialog, "A stride of one word: no conflict");
  g_assert_cmpstr (ws_export_dialog_get_title (dialog), ==, "A stride of one word: no conflict");
  /* the preview: what the file holds, smaller */
  preview = ws_export_dialog_get_preview (dialog);
  g_assert_nonnull (preview);
  g_assert_cmpint (gdk_paintable_get_intrinsic_width (preview), <=, 480);
  g_assert_cmpfloat_with_epsilon ((double) gdk_paintable_get_intrinsic_width (preview) /
                                    gdk_paintable_get_intrinsic_height (preview), 1920.0 / 1080, 0.02);
  wait_frames (w);
  save_widget (GTK_WIDGET (dialog), "export-dialog-light.png");
  g_assert_true (ws_export_dialog_write (dialog, png, &error));
  g_assert_no_error (error);
  assert_png_size (png, 1920, 1080);
  g_unlink (png);
  /* a projector's slide, in the dark style */
  ws_export_dialog_set_choice (dialog, 1, 2, 0);
  g_assert_cmpint (ws_export_dialog_get_style (dialog)->kind, ==, WS_FIGURE_STYLE_DARK);
  g_assert_true (ws_export_dialog_write (dialog, png, &error));
  assert_png_size (png, 1280, 720);
  g_unlink (png);
  gtk_window_destroy (GTK_WINDOW (dialog));

  /* the plot, and its data */
  dialog = open_dialog (w, "win.export-plot");
  g_clear_pointer (&name, g_free);
  name = ws_export_dialog_get_file_name (dialog);
  g_assert_cmpstr (name, ==, "banks-stride-plot.png");
  ws_export_dialog_set_choice (dialog, 1, 0, 3);
  g_clear_pointer (&name, g_free);
  name = ws_export_dialog_get_file_name (dialog);
  g_assert_cmpstr (name, ==, "banks-stride-plot.csv");
  g_assert_true (ws_export_dialog_write (dialog, csv, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (csv, G_FILE_TEST_EXISTS));
  g_unlink (csv);
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  ws_export_dialog_set_choice (dialog, 0, 2, 0);
  ws_export_dialog_get_preview (dialog);
  wait_frames (w);
  save_widget (GTK_WIDGET (dialog), "export-dialog-dark.png");
  gtk_window_destroy (GTK_WINDOW (dialog));
  /* the Figure style preference is the style it opens on */
  g_settings_set_string (window_settings (), "export-style", "screen");
  dialog = open_dialog (w, "win.export-figure");
  g_assert_cmpint (ws_export_dialog_get_style (dialog)->kind, ==, WS_FIGURE_STYLE_DARK);
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_settings_reset (window_settings (), "export-style");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_LIGHT);
  dialog = open_dialog (w, "win.export-figure");
  g_assert_cmpint (ws_export_dialog_get_style (dialog)->kind, ==, WS_FIGURE_STYLE_PRINT);
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* ------------------------------------------------------------------ */
/* The pattern editor                                                 */
/* ------------------------------------------------------------------ */

static void
type_index (WsWindow   *w,
            const char *text)
{
  gtk_editable_set_text (ws_pattern_editor_get_index_entry (page_editor (w)), text);
}

static guint
model_points (WsWindow *w)
{
  WsChart *chart = ws_chart_view_get_chart (plot_chart_view (w));
  guint n = 0;

  for (guint i = 0; i < chart->series->len; i++)
    {
      WsChartSeries *s = g_ptr_array_index (chart->series, i);
      if (g_str_has_prefix (s->name, "model"))
        n += s->points->len;
    }
  return n;
}

static gboolean
model_drawn (gpointer data)
{
  return model_points (data) > 0;
}

static gboolean
nothing_stale (WsWindow *w)
{
  for (guint k = 0; k < WS_N_FIGURES; k++)
    if (ws_figure_view_get_result (page_figure (w, k)) != NULL)
      return FALSE;
  return model_points (w) == 0 && ws_chart_view_get_chart (plot_chart_view (w))->series->len == 0;
}

/* While the editor marks the pattern wrong, nothing in sight is of another
 * pattern: not a step typed on the way (in[i ]), not the model's points;
 * what cannot run says why. */
static void
test_wrong_pattern (Fixture       *f,
                    gconstpointer  data)
{
  WsWindow *w = f->window;
  GtkEditable *entry = ws_pattern_editor_get_index_entry (page_editor (w));
  const char *steps[] = { "i", "i ", "i *", "i * ", "i * f", "i * fo", "i * foo", "i * foo ", "i * foo +" };

  load (f, "coalescing/offset");
  g_assert_true (wait_until (model_drawn, w, 60000));
  /* typed a key at a time: a space on the way is no part of the index */
  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    {
      const WsWarpResult *shown;

      type_index (w, steps[i]);
      if (ws_pattern_editor_get_error (page_editor (w)) == NULL)
        {
          g_autofree char *stripped = g_strstrip (g_strdup (steps[i]));

          shown = ws_figure_view_get_result (page_figure (w, WS_FIGURE_WARP));
          g_assert_nonnull (shown);
          g_assert_cmpstr (ws_pattern_get_access (page_pattern (w), ws_pattern_editor_get_access (page_editor (w)))->index_text, ==,
                           stripped);
        }
      else
        g_assert_true (nothing_stale (w));
    }
  g_assert_nonnull (ws_pattern_editor_get_error (page_editor (w)));
  wait_settled (w);
  g_assert_true (nothing_stale (w));
  g_assert_cmpstr (ws_chart_view_get_chart (plot_chart_view (w))->title, ==, "The pattern has an error");
  save_screenshot (w, "wrong-pattern-light.png");

  /* the preset again, wrong while being typed: its sweep says what is wrong */
  load (f, "coalescing/offset");
  type_index (w, "i + offset *");
  g_assert_true (nothing_stale (w));
  g_assert_cmpstr (ws_window_get_preset_id (w), ==, "coalescing/offset");
  ws_window_toast (w, "before the sweep");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (w), "win.sweep", NULL));
  g_assert_false (ws_window_is_sweeping (w));
  g_assert_nonnull (ws_window_get_last_toast (w));
  g_assert_true (g_str_has_prefix (ws_window_get_last_toast (w), "Fix the pattern first: column 13:"));

  /* undone to a pattern: all of it comes back, model and all */
  gtk_widget_activate_action (GTK_WIDGET (gtk_editable_get_delegate (entry)), "text.undo", NULL);
  while (ws_pattern_editor_get_error (page_editor (w)) != NULL)
    gtk_widget_activate_action (GTK_WIDGET (gtk_editable_get_delegate (entry)), "text.undo", NULL);
  g_assert_true (wait_until (model_drawn, w, 60000));
  g_assert_nonnull (ws_figure_view_get_result (page_figure (w, WS_FIGURE_WARP)));
  g_assert_false (ws_explore_page_get_pattern_wrong (ws_window_get_explore_page (w)));
}

static gboolean
has_param (WsWindow   *w,
           const char *name)
{
  for (guint i = 0; i < ws_pattern_get_n_params (page_pattern (w)); i++)
    if (g_str_equal (ws_pattern_get_param_nth (page_pattern (w), i)->name, name))
      return TRUE;
  return FALSE;
}

/* A preset edited into another pattern is one's own: named so, with no
 * lesson of the preset's, no parameter it no longer reads, and a plot of
 * its own with the model's points. A parameter's value changed is still
 * the preset. */
static void
test_own_pattern (Fixture       *f,
                  gconstpointer  data)
{
  WsWindow *w = f->window;

  load (f, "coalescing/offset");
  g_assert_cmpstr (ws_preset_intro_get_title (page_intro (w)), ==, "Misaligned (+1 element)");
  g_assert_true (has_param (w, "offset"));
  g_assert_true (ws_pattern_editor_set_param (page_editor (w), "offset", 3));
  type_index (w, "i + offset ");
  g_assert_cmpstr (ws_window_get_preset_id (w), ==, "coalescing/offset");
  g_assert_cmpstr (ws_preset_intro_get_title (page_intro (w)), ==, "Misaligned (+1 element)");

  type_index (w, "i * 2");
  g_assert_null (ws_pattern_editor_get_error (page_editor (w)));
  g_assert_null (ws_window_get_preset_id (w));
  g_assert_null (ws_preset_sidebar_get_selected (ws_window_get_sidebar (w)));
  g_assert_cmpstr (ws_preset_intro_get_title (page_intro (w)), ==, "Your pattern, from “Misaligned (+1 element)”");
  g_assert_null (strstr (ws_preset_intro_get_summary (page_intro (w)), "offset"));
  g_assert_false (has_param (w, "offset"));
  g_assert_true (has_param (w, "N"));
  g_assert_cmpuint (page_result (w)->counts.sectors, ==, 8);
  g_assert_true (wait_until (model_drawn, w, 60000));
  g_assert_null (strstr (ws_chart_view_get_chart (plot_chart_view (w))->title, "Misaligned"));
  g_assert_false (ws_explore_page_get_pattern_wrong (ws_window_get_explore_page (w)));
  g_assert_null (ws_plot_panel_get_status (page_plot (w)));
  wait_settled (w);
  save_screenshot (w, "own-pattern-light.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  wait_settled (w);
  save_screenshot (w, "own-pattern-dark.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_LIGHT);
}

/* The truth window, from the main menu's "How Close the Model Is". */
static WsTruthWindow *
find_truth_window (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GObject) w = g_list_model_get_item (toplevels, i);

      if (WS_IS_TRUTH_WINDOW (w))
        return WS_TRUTH_WINDOW (w);
    }
  return NULL;
}

static gboolean
truth_drawn (gpointer data)
{
  WsTruthWindow *t = find_truth_window ();

  return t && gtk_widget_get_width (ws_truth_window_get_area (t)) > 1000 &&
         gtk_widget_get_mapped (ws_truth_window_get_area (t));
}

static void
save_truth_screenshot (WsTruthWindow *t,
                       const char    *name)
{
  /* the whole window: its header bar, chooser and drawing */
  GtkWidget *area = GTK_WIDGET (t);
  g_autofree char *path = screenshot_path (name);
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (area);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  int w = gtk_widget_get_width (area), h = gtk_widget_get_height (area);

  /* drawn again, after a change of table or style */
  for (int i = 0; i < 200; i++)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), w, h);
  node = gtk_snapshot_free_to_node (snapshot);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (area)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, w, h));
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("screenshot: %s", path);
}

static void
test_truth_window (Fixture       *f,
                   gconstpointer  data)
{
  WsWindow *w = f->window;
  WsTruthWindow *t;
  const WsTruthView *view;
  GtkWidget *area;
  gboolean named = FALSE;

  g_assert_null (find_truth_window ());
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (w), "win.truth", NULL));
  g_assert_true (wait_until (truth_drawn, NULL, 10000));
  t = find_truth_window ();
  /* first the GPU the recording was made on, the bundled H200's */
  g_assert_cmpstr (ws_truth_window_get_id (t), ==, "nvidia-h200");
  view = ws_truth_window_get_view (t);
  g_assert_nonnull (view);
  g_assert_cmpuint (view->counted[WS_TRUTH_TIME], >=, 80);
  area = ws_truth_window_get_area (t);
  g_assert_cmpfloat (widget_ink (area), >, 0.05);
  /* a point's tooltip names its preset */
  for (int y = 0; y < gtk_widget_get_height (area) / 2 && !named; y += 2)
    for (int x = 0; x < gtk_widget_get_width (area) / 3 && !named; x += 2)
      {
        g_autofree char *text = ws_truth_window_describe_at (t, x, y);

        named = text && strstr (text, "coalescing/") && strstr (text, "× the hardware");
      }
  g_assert_true (named);
  save_truth_screenshot (t, "truth-h200-light.png");
  /* the other GPU's, from the chooser */
  g_assert_true (ws_truth_window_set_id (t, "nvidia-h100-80gb-hbm3"));
  g_assert_nonnull (strstr (ws_truth_window_get_view (t)->device, "H100"));
  g_assert_false (ws_truth_window_set_id (t, "nvidia-b200"));
  g_assert_null (ws_truth_window_get_view (t));
  g_assert_true (ws_truth_window_set_id (t, "nvidia-h100-80gb-hbm3"));
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  save_truth_screenshot (t, "truth-h100-dark.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_LIGHT);
  gtk_window_destroy (GTK_WINDOW (t));
}

static void
add_tests (void)
{
#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/classroom/projector", test_projector);
  ADD ("/classroom/presentation-mode", test_presentation_mode);
  ADD ("/classroom/plot-metric", test_plot_metric);
  ADD ("/classroom/export-dialog", test_export_dialog);
  ADD ("/classroom/topic-views", test_topic_views);
  ADD ("/classroom/topic-view-export", test_topic_view_export);
  ADD ("/classroom/wrong-pattern", test_wrong_pattern);
  ADD ("/classroom/own-pattern", test_own_pattern);
  ADD ("/classroom/truth-window", test_truth_window);
#undef ADD
}

int
main (int   argc,
      char *argv[])
{
  return window_test_run (&argc, &argv, add_tests);
}
