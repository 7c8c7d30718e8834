/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The About, Preferences, Help and shortcuts windows as the real program
 * reaches them: WsApplication's actions and keys, the main menu, and the
 * shortcuts window GtkApplication finds in our resources.  Under Xvfb. */
#include "ws-config.h"
#include "glib-quarks.h"
#include "ws-application.h"
#include "ws-help-window.h"
#include "ws-preferences-window.h"
#include "ws-window.h"

#include <adwaita.h>

static WsApplication *app;

static void
iterate (void)
{
  for (int i = 0; i < 10; i++)
    {
      g_usleep (10000);
      while (g_main_context_iteration (NULL, FALSE))
        ;
    }
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

static GtkWindow *
main_window (void)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));

  g_assert_true (WS_IS_WINDOW (window));
  return window;
}

static void
assert_accel (const char *action,
              const char *accel)
{
  g_auto (GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), action);

  g_test_message ("%s: %s", action, accels[0] ? accels[0] : "(none)");
  g_assert_true (g_strv_contains ((const char *const *) accels, accel));
}

/* The actions the menu items name, sections and submenus included. */
static void
collect_menu_actions (GMenuModel *model,
                      GPtrArray  *actions)
{
  for (int i = 0; i < g_menu_model_get_n_items (model); i++)
    {
      g_autofree char *action = NULL;
      g_autoptr (GMenuLinkIter) links = g_menu_model_iterate_item_links (model, i);

      if (g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_ACTION, "s", &action))
        g_ptr_array_add (actions, g_steal_pointer (&action));
      while (g_menu_link_iter_next (links))
        {
          g_autoptr (GMenuModel) link = g_menu_link_iter_get_value (links);
          collect_menu_actions (link, actions);
        }
    }
}

static GtkWidget *
find_menu_button (GtkWidget *root)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (GTK_IS_MENU_BUTTON (child) && gtk_menu_button_get_primary (GTK_MENU_BUTTON (child)))
        return child;
      if ((found = find_menu_button (child)))
        return found;
    }
  return NULL;
}

/* ------------------------------------------------------------------ */

static void
test_shortcuts_window (void)
{
  GtkShortcutsWindow *overlay = gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (main_window ()));

  /* loaded by GtkApplication from our gtk/help-overlay.ui */
  g_assert_nonnull (overlay);
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (main_window ()), "show-help-overlay"));
  assert_accel ("win.show-help-overlay", "<Control>question");
}

static void
test_actions_and_keys (void)
{
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (app), "about"));
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (app), "preferences"));
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (app), "help"));
  assert_accel ("app.preferences", "<Control>comma");
  assert_accel ("app.help", "F1");
}

static void
test_about (void)
{
  GtkWindow *about;

  g_action_group_activate_action (G_ACTION_GROUP (app), "about", NULL);
  iterate ();
  about = find_toplevel (ADW_TYPE_ABOUT_WINDOW);
  g_assert_nonnull (about);
  g_assert_true (gtk_window_get_transient_for (about) == main_window ());
  gtk_window_destroy (about);
}

static void
test_preferences (void)
{
  GtkWindow *prefs;

  g_action_group_activate_action (G_ACTION_GROUP (app), "preferences", NULL);
  iterate ();
  prefs = find_toplevel (WS_TYPE_PREFERENCES_WINDOW);
  g_assert_nonnull (prefs);
  g_assert_true (gtk_window_get_transient_for (prefs) == main_window ());
  gtk_window_destroy (prefs);
}

static void
test_help (void)
{
  GtkWindow *window = main_window ();
  GtkWindow *help;

  /* F1 opens the guide at the topic of the preset on show */
  g_assert_true (ws_window_load_preset (WS_WINDOW (window), "banks/stride"));
  g_action_group_activate_action (G_ACTION_GROUP (app), "help", NULL);
  iterate ();
  help = find_toplevel (WS_TYPE_HELP_WINDOW);
  g_assert_nonnull (help);
  g_assert_cmpstr (ws_help_window_get_page (WS_HELP_WINDOW (help)), ==, "banks");
  gtk_window_destroy (help);
}

/* The main menu reaches every window (HIG: Preferences, Keyboard
 * Shortcuts, Help, About in the primary menu's last section). */
static void
test_main_menu (void)
{
  static const char *const wanted[] = {
    "app.preferences", "win.show-help-overlay", "app.help", "app.about", NULL
  };
  GtkWidget *button = find_menu_button (GTK_WIDGET (main_window ()));
  g_autoptr (GPtrArray) actions = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GString) missing = g_string_new (NULL);

  g_assert_nonnull (button);
  collect_menu_actions (gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (button)), actions);
  for (guint i = 0; wanted[i]; i++)
    {
      gboolean found = FALSE;

      for (guint j = 0; j < actions->len; j++)
        found |= g_str_equal (g_ptr_array_index (actions, j), wanted[i]);
      if (!found)
        g_string_append_printf (missing, " %s", wanted[i]);
    }
  if (missing->len)
    {
      g_autofree char *message = g_strdup_printf ("the main menu has no item for%s (ui/window/ws-window.ui)", missing->str);
      g_test_incomplete (message);
    }
}

/* ------------------------------------------------------------------ */

static int status;

static void
skip_no_display (void)
{
  g_test_skip ("no display (run the tests under xvfb-run)");
}

static gboolean
run_tests (gpointer user_data)
{
  status = g_test_run ();
  g_application_quit (G_APPLICATION (app));
  return G_SOURCE_REMOVE;
}

static void
on_activate (GApplication *application)
{
  g_timeout_add (300, run_tests, NULL);
}

int
main (int    argc,
      char **argv)
{
  char *app_argv[] = { argv[0], NULL };

  /* before GTK makes its quarks: glib-quarks.c says why */
  glib_quarks_ignore_first_block ();
  g_test_init (&argc, &argv, NULL);

  if (!gtk_init_check ())
    {
      g_test_add_func ("/app-integration/no-display", skip_no_display);
      return g_test_run ();
    }
  /* GTK 4.8 leaks a GDateTime each time it writes the recent files and
   * drops those older than this age (gtk_recent_manager_clamp_to_age): no
   * age, so that LeakSanitizer sees only leaks of our own */
  g_object_set (gtk_settings_get_default (), "gtk-recent-files-max-age", -1, NULL);

  g_test_add_func ("/app-integration/shortcuts-window", test_shortcuts_window);
  g_test_add_func ("/app-integration/actions-and-keys", test_actions_and_keys);
  g_test_add_func ("/app-integration/about", test_about);
  g_test_add_func ("/app-integration/preferences", test_preferences);
  g_test_add_func ("/app-integration/help", test_help);
  g_test_add_func ("/app-integration/main-menu", test_main_menu);

  app = ws_application_new ();
  /* no session bus under Xvfb: a private instance */
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_signal_connect_after (app, "activate", G_CALLBACK (on_activate), NULL);
  g_application_run (G_APPLICATION (app), 1, app_argv);
  g_object_unref (app);
  return status;
}
