/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The buttons that play a schedule (WsPlayerControls), on their own in a
 * window on the X server: the play button's icon follows the player, the
 * speed follows it both ways, and each button reaches the window's action. */
#include <gtk/gtk.h>

#include "ws-player-controls.h"

static guint restarts, back, forward, toggles;

static void
count (GSimpleAction *action,
       GVariant      *parameter,
       gpointer       data)
{
  (*(guint *) data)++;
}

static void
settle (void)
{
  for (int i = 0; i < 20; i++)
    g_main_context_iteration (NULL, FALSE);
}

static GtkWidget *
find (GtkWidget *widget,
      GType      type,
      guint      n)
{
  guint i = 0;
  GtkWidget *found = NULL;

  for (GtkWidget *box = gtk_widget_get_first_child (widget); box && !found; box = gtk_widget_get_next_sibling (box))
    {
      if (G_TYPE_CHECK_INSTANCE_TYPE (box, type) && i++ == n)
        return box;
      for (GtkWidget *c = gtk_widget_get_first_child (box); c && !found; c = gtk_widget_get_next_sibling (c))
        for (GtkWidget *d = c; d; d = d == c ? gtk_widget_get_first_child (c) : gtk_widget_get_next_sibling (d))
          if (G_TYPE_CHECK_INSTANCE_TYPE (d, type) && i++ == n)
            return d;
    }
  g_assert_not_reached ();
}

static void
test_controls (void)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *widget = ws_player_controls_new ();
  WsPlayerControls *controls = WS_PLAYER_CONTROLS (widget);
  g_autoptr (WsSchedulePlayer) player = ws_schedule_player_new ();
  g_autoptr (GSimpleActionGroup) group = g_simple_action_group_new ();
  const char *names[] = { "restart", "step-back", "playing", "step-forward" };
  guint *counts[] = { &restarts, &back, &toggles, &forward };
  GtkDropDown *speed;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr (GSimpleAction) a = g_simple_action_new (names[i], NULL);
      g_signal_connect (a, "activate", G_CALLBACK (count), counts[i]);
      g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (a));
    }
  gtk_widget_insert_action_group (window, "win", G_ACTION_GROUP (group));
  gtk_window_set_child (GTK_WINDOW (window), widget);
  gtk_window_present (GTK_WINDOW (window));
  settle ();

  /* no speed unless asked for, nothing shown before a player */
  speed = GTK_DROP_DOWN (find (widget, GTK_TYPE_DROP_DOWN, 0));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (speed)));
  g_assert_cmpfloat (ws_player_controls_get_shown_speed (controls), ==, 0);
  g_object_set (controls, "show-speed", TRUE, "player", player, NULL);
  settle ();
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (speed)));
  g_assert_true (ws_player_controls_get_player (controls) == player);

  /* the icon follows the player */
  ws_schedule_player_set_n_steps (player, 5);
  ws_schedule_player_set_playing (player, TRUE);
  g_assert_cmpstr (ws_player_controls_get_play_icon (controls), ==, "media-playback-pause-symbolic");
  ws_schedule_player_set_playing (player, FALSE);
  g_assert_cmpstr (ws_player_controls_get_play_icon (controls), ==, "media-playback-start-symbolic");

  /* the speed, both ways */
  ws_schedule_player_set_speed (player, 2);
  g_assert_cmpfloat (ws_player_controls_get_shown_speed (controls), ==, 2);
  g_assert_cmpuint (gtk_drop_down_get_selected (speed), ==, 3);
  gtk_drop_down_set_selected (speed, 0);
  g_assert_cmpfloat (ws_schedule_player_get_speed (player), ==, 0.25);

  /* each button reaches the window's action, in order */
  for (guint i = 0; i < 4; i++)
    g_signal_emit_by_name (find (widget, GTK_TYPE_BUTTON, i), "clicked");
  settle ();
  g_assert_cmpuint (restarts, ==, 1);
  g_assert_cmpuint (back, ==, 1);
  g_assert_cmpuint (toggles, ==, 1);
  g_assert_cmpuint (forward, ==, 1);

  /* another player: the controls follow it, not the first */
  {
    g_autoptr (WsSchedulePlayer) other = ws_schedule_player_new ();

    ws_schedule_player_set_speed (other, 8);
    ws_player_controls_set_player (controls, other);
    g_assert_cmpfloat (ws_player_controls_get_shown_speed (controls), ==, 8);
    ws_schedule_player_set_speed (player, 1);
    g_assert_cmpfloat (ws_player_controls_get_shown_speed (controls), ==, 8);
    ws_player_controls_set_player (controls, NULL);
  }
  gtk_window_destroy (GTK_WINDOW (window));
  settle ();
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/player-controls/follow-and-act", test_controls);
  return g_test_run ();
}
