/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The About, Preferences and Help windows and the shortcuts window, under
 * a display (Xvfb in the test suite).  Each window is also saved as a PNG,
 * in the light and the dark style, under tests/screenshots/ in the build
 * directory, to be looked at. */
#include "ws-config.h"
#include "glib-quarks.h"
#include "ws-app-windows.h"
#include "ws-help-page.h"
#include "ws-help-window.h"
#include "ws-preferences-window.h"
#include "ws-presets.h"

#include <adwaita.h>
#include <string.h>

static void
wait_for_draw (GtkWidget *widget)
{
  gint64 end = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  while ((!gtk_widget_get_mapped (widget) || gtk_widget_get_width (widget) <= 1) &&
         g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  /* a few more frames, so that the layout settles */
  for (int i = 0; i < 20 && g_get_monotonic_time () < end; i++)
    {
      g_usleep (10000);
      while (g_main_context_iteration (NULL, FALSE))
        ;
    }
  g_assert_true (gtk_widget_get_mapped (widget));
}

/* Renders @widget as it is on screen into tests/screenshots/NAME-STYLE.png. */
static void
save_screenshot (GtkWidget  *widget,
                 const char *name)
{
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  g_autofree char *dir = g_test_build_filename (G_TEST_BUILT, "screenshots", NULL);
  g_autofree char *file = NULL;
  g_autofree char *path = NULL;
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());

  wait_for_draw (widget);
  width = gtk_widget_get_width (widget);
  height = gtk_widget_get_height (widget);
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  file = g_strdup_printf ("%s-%s.png", name, dark ? "dark" : "light");
  path = g_build_filename (dir, file, NULL);
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("saved %s (%d × %d)", path, width, height);
}

static GtkWindow *
find_toplevel (GType type)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GObject) w = g_list_model_get_item (toplevels, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (w, type) && gtk_widget_get_visible (GTK_WIDGET (w)))
        return GTK_WINDOW (w);
    }
  return NULL;
}

static void
close_window (GtkWindow *window)
{
  gtk_window_destroy (window);
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* The first descendant of @root of @type (and, for preference rows, with
 * the title @title). */
static GtkWidget *
find_widget (GtkWidget  *root,
             GType       type,
             const char *title)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (G_TYPE_CHECK_INSTANCE_TYPE (child, type) &&
          (title == NULL ||
           (ADW_IS_PREFERENCES_ROW (child) &&
            g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (child)), title) == 0)))
        return child;
      if ((found = find_widget (child, type, title)))
        return found;
    }
  return NULL;
}

static void
set_dark (gboolean dark)
{
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      dark ? ADW_COLOR_SCHEME_FORCE_DARK : ADW_COLOR_SCHEME_FORCE_LIGHT);
}

/* ------------------------------------------------------------------ */

static void
test_about (void)
{
  AdwAboutWindow *about;

  for (int dark = 0; dark <= 1; dark++)
    {
      set_dark (dark);
      ws_show_about_window (NULL);
      about = ADW_ABOUT_WINDOW (find_toplevel (ADW_TYPE_ABOUT_WINDOW));
      g_assert_nonnull (about);
      g_assert_cmpstr (adw_about_window_get_version (about), ==, WS_VERSION);
      g_assert_cmpstr (adw_about_window_get_application_icon (about), ==, WS_APP_ID);
      g_assert_cmpint (adw_about_window_get_license_type (about), ==, GTK_LICENSE_GPL_3_0);
      g_assert_true (g_str_has_prefix (adw_about_window_get_website (about), "https://"));
      g_assert_true (g_str_has_prefix (adw_about_window_get_issue_url (about), "https://"));
      /* the notes of this version, from the metainfo */
      g_assert_cmpstr (adw_about_window_get_release_notes_version (about), ==, WS_VERSION);
      g_assert_nonnull (strstr (adw_about_window_get_release_notes (about), "<p>"));
      save_screenshot (GTK_WIDGET (about), "about");
      close_window (GTK_WINDOW (about));
    }
}

static void
test_preferences_bindings (void)
{
  g_autoptr (GSettings) settings = g_settings_new (WS_APP_ID);
  WsPreferencesWindow *prefs = ws_preferences_window_new ();
  GtkWidget *root = GTK_WIDGET (prefs);
  GtkSpinButton *samples = GTK_SPIN_BUTTON (find_widget (root, GTK_TYPE_SPIN_BUTTON, NULL));
  AdwComboRow *elem = ADW_COMBO_ROW (find_widget (root, ADW_TYPE_COMBO_ROW, "Default Element Size"));
  AdwComboRow *style = ADW_COMBO_ROW (find_widget (root, ADW_TYPE_COMBO_ROW, "Style"));
  AdwComboRow *export_style = ADW_COMBO_ROW (find_widget (root, ADW_TYPE_COMBO_ROW, "Figure Style"));
  GtkRange *speed = GTK_RANGE (find_widget (root, GTK_TYPE_SCALE, NULL));
  GtkWidget *cold_row = find_widget (root, ADW_TYPE_ACTION_ROW, "Cold Cache");
  GtkWidget *auto_row = find_widget (root, ADW_TYPE_ACTION_ROW, "Measure as You Edit");
  GtkSwitch *cold, *automatic;

  g_assert_nonnull (samples);
  g_assert_nonnull (elem);
  g_assert_nonnull (style);
  g_assert_nonnull (export_style);
  g_assert_nonnull (speed);
  g_assert_nonnull (cold_row);
  g_assert_nonnull (auto_row);
  cold = GTK_SWITCH (find_widget (cold_row, GTK_TYPE_SWITCH, NULL));
  automatic = GTK_SWITCH (find_widget (auto_row, GTK_TYPE_SWITCH, NULL));

  /* the defaults reach the widgets */
  g_assert_cmpfloat (gtk_spin_button_get_value (samples), ==, g_settings_get_uint (settings, "samples"));
  g_assert_cmpuint (adw_combo_row_get_selected (elem), ==, 2);   /* 4 bytes */
  g_assert_cmpuint (adw_combo_row_get_selected (style), ==, 0);  /* default */
  g_assert_cmpuint (adw_combo_row_get_selected (export_style), ==, 1);  /* print */
  g_assert_cmpfloat_with_epsilon (gtk_range_get_value (speed), 0.0, 1e-9);
  g_assert_true (gtk_switch_get_active (cold) == g_settings_get_boolean (settings, "cold-cache"));
  g_assert_true (gtk_switch_get_active (automatic) == g_settings_get_boolean (settings, "auto-measure"));

  /* widgets → settings */
  gtk_spin_button_set_value (samples, 25);
  g_assert_cmpuint (g_settings_get_uint (settings, "samples"), ==, 25);
  adw_combo_row_set_selected (elem, 4);
  g_assert_cmpuint (g_settings_get_uint (settings, "default-elem-size"), ==, 16);
  adw_combo_row_set_selected (style, 2);
  {
    g_autofree char *scheme = g_settings_get_string (settings, "color-scheme");
    g_assert_cmpstr (scheme, ==, "dark");
  }
  adw_combo_row_set_selected (export_style, 0);
  {
    g_autofree char *export_scheme = g_settings_get_string (settings, "export-style");
    g_assert_cmpstr (export_scheme, ==, "screen");
  }
  gtk_range_set_value (speed, -2.0);
  g_assert_cmpfloat_with_epsilon (g_settings_get_double (settings, "animation-speed"), 0.25, 1e-9);
  gtk_switch_set_active (cold, FALSE);
  g_assert_false (g_settings_get_boolean (settings, "cold-cache"));
  gtk_switch_set_active (automatic, FALSE);
  g_assert_false (g_settings_get_boolean (settings, "auto-measure"));

  /* settings → widgets */
  g_settings_set_uint (settings, "samples", 100);
  g_assert_cmpfloat (gtk_spin_button_get_value (samples), ==, 100);
  g_settings_set_uint (settings, "default-elem-size", 8);
  g_assert_cmpuint (adw_combo_row_get_selected (elem), ==, 3);
  g_settings_set_string (settings, "color-scheme", "light");
  g_assert_cmpuint (adw_combo_row_get_selected (style), ==, 1);
  g_settings_set_double (settings, "animation-speed", 8.0);
  g_assert_cmpfloat_with_epsilon (gtk_range_get_value (speed), 3.0, 1e-9);
  g_settings_set_boolean (settings, "cold-cache", TRUE);
  g_assert_true (gtk_switch_get_active (cold));

  gtk_window_destroy (GTK_WINDOW (prefs));
  g_settings_reset (settings, "samples");
  g_settings_reset (settings, "default-elem-size");
  g_settings_reset (settings, "color-scheme");
  g_settings_reset (settings, "export-style");
  g_settings_reset (settings, "animation-speed");
  g_settings_reset (settings, "cold-cache");
  g_settings_reset (settings, "auto-measure");
}

static void
test_preferences_window (void)
{
  GtkWindow *prefs;

  for (int dark = 0; dark <= 1; dark++)
    {
      set_dark (dark);
      ws_show_preferences_window (NULL);
      prefs = find_toplevel (WS_TYPE_PREFERENCES_WINDOW);
      g_assert_nonnull (prefs);
      save_screenshot (GTK_WIDGET (prefs), "preferences");
      close_window (prefs);
    }
}

/* Every page parses, has a title, builds without a markup warning (which
 * G_DEBUG=fatal-warnings makes fatal), and links only to pages that exist. */
static void
test_help_pages (void)
{
  const char *const *pages = ws_help_window_list_pages ();
  WsHelpWindow *help = ws_help_window_new ();
  g_autoptr (GRegex) links = g_regex_new ("<link xref=\"([^\"]*)\"", 0, 0, NULL);
  guint n_topics;
  const WsTopic *topics = ws_topics_get_all (&n_topics);

  g_assert_cmpuint (g_strv_length ((char **) pages), >=, n_topics + 4);
  /* every topic of the model has a hand-written page */
  for (guint i = 0; i < n_topics; i++)
    {
      g_autofree char *path = g_strdup_printf ("/io/github/warpscope/Warpscope/help/%s.page", topics[i].id);

      g_assert_true (g_strv_contains (pages, topics[i].id));
      g_assert_true (g_resources_get_info (path, 0, NULL, NULL, NULL));
    }

  for (guint i = 0; pages[i]; i++)
    {
      g_autofree char *path = g_strdup_printf ("/io/github/warpscope/Warpscope/help/%s.page", pages[i]);
      g_autoptr (GBytes) bytes = g_resources_lookup_data (path, 0, NULL);
      g_autofree char *text = NULL;
      g_autofree char *title = NULL;
      g_autoptr (GMatchInfo) match = NULL;

      g_assert_nonnull (bytes);
      text = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
      title = ws_help_page_parse_title (text);
      g_assert_nonnull (title);
      g_assert_true (ws_help_window_show_page (help, pages[i]));
      g_assert_cmpstr (ws_help_window_get_page (help), ==, pages[i]);

      g_regex_match (links, text, 0, &match);
      for (; g_match_info_matches (match); g_match_info_next (match, NULL))
        {
          g_autofree char *target = g_match_info_fetch (match, 1);

          g_test_message ("%s links to %s", pages[i], target);
          g_assert_true (g_strv_contains (pages, target));
        }
    }

  /* a preset id shows its topic; an unknown id changes nothing */
  g_assert_true (ws_help_window_show_page (help, "banks/stride"));
  g_assert_cmpstr (ws_help_window_get_page (help), ==, "banks");
  g_assert_false (ws_help_window_show_page (help, "no-such-page"));
  g_assert_cmpstr (ws_help_window_get_page (help), ==, "banks");

  /* back goes to the page before */
  g_assert_true (ws_help_window_show_page (help, "measuring"));
  gtk_widget_activate_action (GTK_WIDGET (help), "help.back", NULL);
  g_assert_cmpstr (ws_help_window_get_page (help), ==, "banks");

  gtk_window_destroy (GTK_WINDOW (help));
}

/* The labels under @widget, in order, into @labels. */
static void
collect_labels (GtkWidget *widget,
                GPtrArray *labels)
{
  if (GTK_IS_LABEL (widget))
    g_ptr_array_add (labels, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    collect_labels (child, labels);
}

/* What of Mallard the reader shows, and how. */
static void
test_help_mallard (void)
{
  const char *page =
    "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
    "<page xmlns=\"http://projectmallard.org/1.0/\" xmlns:ws=\"https://github.com/warpscope/warpscope/help\"\n"
    "      xmlns:its=\"http://www.w3.org/2005/11/its\" id=\"t\">\n"
    "  <info><title type=\"sort\">not shown</title></info>\n"
    "  <title>A <em>test</em>   page</title>\n"
    "  <p>Some  <em>words</em>,\n"
    "     <em style=\"strong\">strong</em> ones, <code>a &lt; b</code>,\n"
    "     <link xref=\"banks\">a link</link>, <keyseq><key>Ctrl</key><key>S</key></keyseq> and\n"
    "     <guiseq><gui>Menu</gui><gui>Item</gui></guiseq>.</p>\n"
    "  <section id=\"s\"><title>A section</title>\n"
    "    <list><item><p>a bullet</p></item></list>\n"
    "    <code its:translate=\"no\">two  lines\n  of code</code>\n"
    "    <ws:presets topic=\"banks\"/>\n"
    "  </section>\n"
    "</page>\n";
  g_autofree char *title = ws_help_page_parse_title (page);
  g_autofree char *preset_title = g_markup_escape_text (ws_preset_lookup ("banks/stride")->title, -1);
  GtkWidget *widget = g_object_ref_sink (ws_help_page_build (page, FALSE));
  g_autoptr (GPtrArray) labels = g_ptr_array_new ();
  const char *expected[][2] = {
    { "A test page", "A <i>test</i> page" },
    { "Some words, strong ones, a < b, a link, Ctrl+S and Menu › Item.",
      "Some <i>words</i>, <b>strong</b> ones, <tt>a &lt; b</tt>, <a href=\"help:banks\">a link</a>, "
      "<b>Ctrl+S</b> and <b>Menu › Item</b>." },
    { "A section", "A section" },
    { "•", "•" },
    { "a bullet", "a bullet" },
    { "two  lines\n  of code", NULL },
  };

  g_assert_cmpstr (title, ==, "A test page");
  collect_labels (widget, labels);
  g_assert_cmpuint (labels->len, >, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      GtkLabel *label = g_ptr_array_index (labels, i);

      g_assert_cmpstr (gtk_label_get_text (label), ==, expected[i][0]);
      if (expected[i][1])
        g_assert_cmpstr (gtk_label_get_label (label), ==, expected[i][1]);
    }
  /* then the presets of the topic, from the model */
  g_assert_nonnull (find_widget (widget, ADW_TYPE_ACTION_ROW, preset_title));
  g_object_unref (widget);
}

/* What the reader cannot show is a warning, not a page that silently lacks
 * it. */
static void
test_help_mallard_unknown (void)
{
  if (g_test_subprocess ())
    {
      g_assert_null (ws_help_page_parse_title ("<page xmlns=\"http://projectmallard.org/1.0/\"><title>T</title>"
                                               "<table/></page>"));
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("*A help page could not be read*<table> is not shown*");
}

/* The box of a page the help window shows: its children are the page's
 * title, headings, paragraphs, bullets, code and lists. */
static GtkWidget *
page_box (GtkWidget *widget)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *first = gtk_widget_get_first_child (child);
      GtkWidget *found;

      if (GTK_IS_BOX (child) && GTK_IS_LABEL (first) && gtk_widget_has_css_class (first, "title-1"))
        return child;
      if ((found = page_box (child)))
        return found;
    }
  return NULL;
}

/* Whether @xx is @en in the tests' language: "[xx] " and the English.
 * itstool takes a no-break space ("100 %") for a space, as it takes any
 * run of white space, so the English of a translation has a plain one. */
static gboolean
is_xx (const char *xx,
       const char *en)
{
  g_autoptr (GString) plain = g_string_new (en);

  g_string_replace (plain, "\u00a0", " ", 0);
  return g_str_has_prefix (xx, "[xx] ") && g_str_equal (xx + strlen ("[xx] "), plain->str);
}

/* The guide in the user's language.  help/meson.build builds, for the
 * tests, a language of their own, "xx": every string of the template is its
 * English marked "[xx] ", merged into the pages by the path a translator's
 * LANG.po takes.  In "xx" (found through "xx_YY.UTF-8", as a locale names
 * it) every page is shown translated, from its title in the sidebar to its
 * last paragraph, and what the page takes from the model or shows verbatim
 * is as in English; in a language with no translation, the English. */
static void
test_help_translated (void)
{
#ifndef WS_TEST_HELP_XX
  g_test_skip ("the guide's test translation was not built (itstool, msgen or msgfilter is missing)");
#else
  const char *const *pages = ws_help_window_list_pages ();
  g_autofree char *saved = g_strdup (g_getenv ("LANGUAGE"));
  WsHelpWindow *help;
  GtkStack *stack;
  AdwWindowTitle *title;
  GtkWidget *sidebar;
  guint n_translated = 0;

  g_setenv ("LANGUAGE", "xx_YY.UTF-8", TRUE);
  help = ws_help_window_new ();
  stack = GTK_STACK (find_widget (GTK_WIDGET (help), GTK_TYPE_STACK, NULL));
  title = ADW_WINDOW_TITLE (find_widget (GTK_WIDGET (help), ADW_TYPE_WINDOW_TITLE, NULL));
  sidebar = find_widget (GTK_WIDGET (help), GTK_TYPE_LIST_BOX, NULL);
  for (guint i = 0; pages[i]; i++)
    {
      g_autofree char *path = g_strdup_printf ("/io/github/warpscope/Warpscope/help/%s.page", pages[i]);
      g_autoptr (GBytes) bytes = g_resources_lookup_data (path, 0, NULL);
      g_autofree char *english = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
      g_autofree char *en_title = ws_help_page_parse_title (english);
      GtkWidget *en_page = g_object_ref_sink (ws_help_page_build (english, FALSE));
      GtkWidget *row_label = gtk_list_box_row_get_child (gtk_list_box_get_row_at_index (GTK_LIST_BOX (sidebar), i));
      GtkWidget *xx_child, *en_child;

      g_assert_true (ws_help_window_show_page (help, pages[i]));
      g_assert_true (is_xx (adw_window_title_get_subtitle (title), en_title));
      g_assert_true (is_xx (gtk_label_get_text (GTK_LABEL (row_label)), en_title));

      /* the page, block by block, against the English */
      xx_child = gtk_widget_get_first_child (page_box (gtk_stack_get_visible_child (stack)));
      en_child = gtk_widget_get_first_child (page_box (en_page));
      for (; xx_child && en_child;
           xx_child = gtk_widget_get_next_sibling (xx_child), en_child = gtk_widget_get_next_sibling (en_child))
        {
          g_autoptr (GPtrArray) xx_labels = g_ptr_array_new ();
          g_autoptr (GPtrArray) en_labels = g_ptr_array_new ();
          /* a paragraph, a heading, the title; or a bullet of the page's: "•" and its text */
          gboolean from_page = GTK_IS_LABEL (xx_child) ||
                               (GTK_IS_BOX (xx_child) && GTK_IS_LABEL (gtk_widget_get_first_child (xx_child)) &&
                                g_str_equal (gtk_label_get_text (GTK_LABEL (gtk_widget_get_first_child (xx_child))), "•"));

          collect_labels (xx_child, xx_labels);
          collect_labels (en_child, en_labels);
          g_assert_cmpuint (xx_labels->len, ==, en_labels->len);
          for (guint k = 0; k < xx_labels->len; k++)
            {
              const char *xx = gtk_label_get_text (g_ptr_array_index (xx_labels, k));
              const char *en = gtk_label_get_text (g_ptr_array_index (en_labels, k));

              if (from_page && !g_str_equal (en, "•"))
                {
                  if (!is_xx (xx, en))
                    g_error ("%s: “%s” is not translated", pages[i], xx);
                  n_translated++;
                }
              else
                g_assert_cmpstr (xx, ==, en);
            }
        }
      g_assert_null (xx_child);
      g_assert_null (en_child);
      g_object_unref (en_page);
    }
  g_test_message ("%u texts shown translated", n_translated);
  g_assert_cmpuint (n_translated, >=, 200);
  gtk_window_destroy (GTK_WINDOW (help));

  /* a language with no translation of the guide: the English */
  g_setenv ("LANGUAGE", "de_DE.UTF-8", TRUE);
  help = ws_help_window_new ();
  title = ADW_WINDOW_TITLE (find_widget (GTK_WIDGET (help), ADW_TYPE_WINDOW_TITLE, NULL));
  g_assert_cmpstr (ws_help_window_get_page (help), ==, "welcome");
  g_assert_cmpstr (adw_window_title_get_subtitle (title), ==, "Welcome to Warpscope");
  gtk_window_destroy (GTK_WINDOW (help));

  if (saved)
    g_setenv ("LANGUAGE", saved, TRUE);
  else
    g_unsetenv ("LANGUAGE");
#endif
}

static void
test_help_window (void)
{
  GtkWindow *help;

  for (int dark = 0; dark <= 1; dark++)
    {
      set_dark (dark);
      ws_show_help_window (NULL, NULL);
      help = find_toplevel (WS_TYPE_HELP_WINDOW);
      g_assert_nonnull (help);
      g_assert_cmpstr (ws_help_window_get_page (WS_HELP_WINDOW (help)), ==, "welcome");
      save_screenshot (GTK_WIDGET (help), "help-welcome");
      /* a second call reuses the window */
      ws_show_help_window (NULL, "coalescing/stride");
      g_assert_true (find_toplevel (WS_TYPE_HELP_WINDOW) == help);
      g_assert_cmpstr (ws_help_window_get_page (WS_HELP_WINDOW (help)), ==, "coalescing");
      save_screenshot (GTK_WIDGET (help), "help-coalescing");
      ws_show_help_window (NULL, "cli");
      save_screenshot (GTK_WIDGET (help), "help-cli");
      close_window (help);
    }
}

/* A main window stand-in with the action the guide's preset rows use. */
#define TEST_TYPE_PARENT (test_parent_get_type ())
G_DECLARE_FINAL_TYPE (TestParent, test_parent, TEST, PARENT, GtkWindow)

struct _TestParent
{
  GtkWindow parent_instance;
  char *loaded;
};

G_DEFINE_FINAL_TYPE (TestParent, test_parent, GTK_TYPE_WINDOW)

static void
test_parent_load_preset (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *parameter)
{
  TestParent *self = TEST_PARENT (widget);

  g_free (self->loaded);
  self->loaded = g_variant_dup_string (parameter, NULL);
}

static void
test_parent_finalize (GObject *object)
{
  g_free (TEST_PARENT (object)->loaded);
  G_OBJECT_CLASS (test_parent_parent_class)->finalize (object);
}

static void
test_parent_class_init (TestParentClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_parent_finalize;
  gtk_widget_class_install_action (GTK_WIDGET_CLASS (klass), "win.load-preset", "s", test_parent_load_preset);
}

static void
test_parent_init (TestParent *self)
{
}

/* From a topic page, a preset row opens the preset in the main window. */
static void
test_help_load_preset (void)
{
  TestParent *parent = g_object_new (TEST_TYPE_PARENT, NULL);
  const WsPreset *preset = ws_preset_lookup ("banks/stride");
  g_autofree char *title = g_markup_escape_text (preset->title, -1);
  GtkWindow *help;
  GtkWidget *row;

  gtk_window_present (GTK_WINDOW (parent));
  ws_show_help_window (GTK_WINDOW (parent), "banks");
  help = find_toplevel (WS_TYPE_HELP_WINDOW);
  g_assert_nonnull (help);
  g_assert_true (gtk_window_get_transient_for (help) == GTK_WINDOW (parent));
  row = find_widget (GTK_WIDGET (help), ADW_TYPE_ACTION_ROW, title);
  g_assert_nonnull (row);
  g_assert_true (gtk_list_box_row_get_activatable (GTK_LIST_BOX_ROW (row)));
  g_signal_emit_by_name (row, "activated");
  g_assert_cmpstr (parent->loaded, ==, "banks/stride");

  close_window (help);
  close_window (GTK_WINDOW (parent));
}

static void
test_shortcuts (void)
{
  g_autoptr (GtkBuilder) builder =
    gtk_builder_new_from_resource ("/io/github/warpscope/Warpscope/gtk/help-overlay.ui");
  GObject *overlay = gtk_builder_get_object (builder, "help_overlay");

  g_assert_true (GTK_IS_SHORTCUTS_WINDOW (overlay));
  for (int dark = 0; dark <= 1; dark++)
    {
      set_dark (dark);
      gtk_window_present (GTK_WINDOW (overlay));
      save_screenshot (GTK_WIDGET (overlay), "shortcuts");
      gtk_widget_hide (GTK_WIDGET (overlay));
    }
  gtk_window_destroy (GTK_WINDOW (overlay));
}

/* The icons the About window and the desktop show are in the resources,
 * so the uninstalled program finds them too. */
static void
test_icons (void)
{
  g_assert_true (g_resources_get_info ("/io/github/warpscope/Warpscope/icons/scalable/apps/" WS_APP_ID ".svg",
                                       0, NULL, NULL, NULL));
  g_assert_true (g_resources_get_info ("/io/github/warpscope/Warpscope/icons/symbolic/apps/" WS_APP_ID "-symbolic.svg",
                                       0, NULL, NULL, NULL));
}

static void
skip_no_display (void)
{
  g_test_skip ("no display (run the tests under xvfb-run)");
}

int
main (int    argc,
      char **argv)
{
  /* before GTK makes its quarks: glib-quarks.c says why */
  glib_quarks_ignore_first_block ();
  g_test_init (&argc, &argv, NULL);

  if (!gtk_init_check ())
    {
      g_test_add_func ("/app-windows/no-display", skip_no_display);
      return g_test_run ();
    }
  adw_init ();
  gtk_icon_theme_add_resource_path (gtk_icon_theme_get_for_display (gdk_display_get_default ()),
                                    "/io/github/warpscope/Warpscope/icons");

  g_test_add_func ("/app-windows/icons", test_icons);
  g_test_add_func ("/app-windows/about", test_about);
  g_test_add_func ("/app-windows/preferences/bindings", test_preferences_bindings);
  g_test_add_func ("/app-windows/preferences/window", test_preferences_window);
  g_test_add_func ("/app-windows/help/mallard", test_help_mallard);
  g_test_add_func ("/app-windows/help/mallard-unknown", test_help_mallard_unknown);
  g_test_add_func ("/app-windows/help/pages", test_help_pages);
  g_test_add_func ("/app-windows/help/translated", test_help_translated);
  g_test_add_func ("/app-windows/help/window", test_help_window);
  g_test_add_func ("/app-windows/help/load-preset", test_help_load_preset);
  g_test_add_func ("/app-windows/shortcuts", test_shortcuts);

  return g_test_run ();
}
