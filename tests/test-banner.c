/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The banner over the window's pages (WsBanner): what it shows, its button,
 * its "Learn More" that opens the guide's page it names, and dismissing it,
 * clicked as a user clicks them, in a window on the X server. */
#include <gtk/gtk.h>

#include "ws-banner.h"

typedef struct
{
  guint clicked;
  guint revealed_notes;
  char *help_topic;
} Seen;

static void
on_clicked (WsBanner *banner,
            Seen     *seen)
{
  seen->clicked++;
}

static void
on_revealed (WsBanner   *banner,
             GParamSpec *pspec,
             Seen       *seen)
{
  seen->revealed_notes++;
}

static void
show_help (GSimpleAction *action,
           GVariant      *parameter,
           gpointer       data)
{
  Seen *seen = data;

  g_free (seen->help_topic);
  seen->help_topic = g_variant_dup_string (parameter, NULL);
}

/* The banner's buttons in the order they stand: action, Learn More, close. */
static GtkButton *
nth_button (GtkWidget *widget,
            guint      n)
{
  guint i = 0;

  for (GtkWidget *box = gtk_widget_get_first_child (widget); box; box = gtk_widget_get_next_sibling (box))
    for (GtkWidget *c = gtk_widget_get_first_child (box); c; c = gtk_widget_get_next_sibling (c))
      if (GTK_IS_BUTTON (c) && i++ == n)
        return GTK_BUTTON (c);
  g_assert_not_reached ();
}

/* what a click does (gtk_widget_activate waits a quarter second first) */
static void
click (GtkButton *button)
{
  g_assert_true (gtk_widget_is_sensitive (GTK_WIDGET (button)));
  g_signal_emit_by_name (button, "clicked");
}

static void
settle (void)
{
  for (int i = 0; i < 20; i++)
    g_main_context_iteration (NULL, FALSE);
}

static void
test_banner (void)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *widget = ws_banner_new ();
  WsBanner *banner = WS_BANNER (widget);
  g_autoptr (GSimpleActionGroup) group = g_simple_action_group_new ();
  g_autoptr (GSimpleAction) help = g_simple_action_new ("show-help", G_VARIANT_TYPE_STRING);
  Seen seen = { 0 };

  g_signal_connect (help, "activate", G_CALLBACK (show_help), &seen);
  g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (help));
  gtk_widget_insert_action_group (window, "win", G_ACTION_GROUP (group));
  gtk_window_set_child (GTK_WINDOW (window), widget);
  g_signal_connect (banner, "button-clicked", G_CALLBACK (on_clicked), &seen);
  g_signal_connect (banner, "notify::revealed", G_CALLBACK (on_revealed), &seen);
  gtk_window_present (GTK_WINDOW (window));
  settle ();

  /* hidden until it has something to say */
  g_assert_false (ws_banner_get_revealed (banner));
  g_assert_false (gtk_widget_get_visible (widget));

  ws_banner_show (banner, "dialog-warning-symbolic", "No GPU: gpu01 cannot be reached.", "the whole story",
                  "_Try Again", "measuring");
  settle ();
  g_assert_true (ws_banner_get_revealed (banner));
  g_assert_true (gtk_widget_get_mapped (widget));
  g_assert_cmpuint (seen.revealed_notes, ==, 1);
  g_assert_cmpstr (ws_banner_get_title (banner), ==, "No GPU: gpu01 cannot be reached.");
  g_assert_cmpstr (ws_banner_get_tooltip (banner), ==, "the whole story");
  g_assert_cmpstr (ws_banner_get_button_label (banner), ==, "_Try Again");
  g_assert_cmpstr (ws_banner_get_help_topic (banner), ==, "measuring");

  /* its button says so; Learn More opens the page it names */
  click (nth_button (widget, 0));
  g_assert_cmpuint (seen.clicked, ==, 1);
  click (nth_button (widget, 1));
  settle ();
  g_assert_cmpstr (seen.help_topic, ==, "measuring");

  /* another message: no button, another page, the tooltip the line */
  ws_banner_show (banner, NULL, "No GPU here.", NULL, NULL, "recordings");
  settle ();
  g_assert_cmpuint (seen.revealed_notes, ==, 1);
  g_assert_null (ws_banner_get_button_label (banner));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (nth_button (widget, 0))));
  g_assert_cmpstr (ws_banner_get_tooltip (banner), ==, "No GPU here.");
  click (nth_button (widget, 1));
  settle ();
  g_assert_cmpstr (seen.help_topic, ==, "recordings");

  /* the close button dismisses it */
  click (nth_button (widget, 2));
  settle ();
  g_assert_false (ws_banner_get_revealed (banner));
  g_assert_false (gtk_widget_get_mapped (widget));
  g_assert_cmpuint (seen.revealed_notes, ==, 2);
  g_assert_cmpuint (seen.clicked, ==, 1);

  gtk_window_destroy (GTK_WINDOW (window));
  settle ();
  g_free (seen.help_topic);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/banner/show-click-dismiss", test_banner);
  return g_test_run ();
}
