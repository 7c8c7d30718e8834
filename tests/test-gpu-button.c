/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The header bar's button of where measurements run (WsGpuButton) on its
 * own, with a session on the bundled recording: what it says here and of
 * another machine, the session's description as its tooltip, and the
 * chooser it opens. */
#include "ws-config.h"
#include "page-fixture.h"
#include "ws-gpu-button.h"
#include "ws-gpu-chooser.h"

#include <adwaita.h>
#include <string.h>

static void
settle (void)
{
  for (int i = 0; i < 50; i++)
    g_main_context_iteration (NULL, FALSE);
}

static void
test_follows_session (void)
{
  g_autoptr (WsSession) session = page_new_session ();
  g_autoptr (GSettings) settings = g_settings_new (WS_APP_ID);
  g_autoptr (WsGpuTarget) there = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *described = NULL;
  GtkWidget *window = gtk_window_new ();
  GtkWidget *widget = ws_gpu_button_new ();
  WsGpuButton *button = WS_GPU_BUTTON (widget);
  GtkWidget *popover;

  gtk_window_set_child (GTK_WINDOW (window), widget);
  ws_gpu_button_set_settings (button, settings);
  g_object_set (button, "session", session, NULL);
  g_assert_true (ws_gpu_button_get_session (button) == session);
  gtk_window_present (GTK_WINDOW (window));
  settle ();

  /* here: this computer, and the tooltip says what the session knows */
  g_assert_cmpstr (ws_gpu_button_get_label (button), ==, "This Computer");
  g_assert_cmpstr (ws_gpu_button_get_icon_name (button), ==, "computer-symbolic");
  described = ws_session_describe_gpu (session);
  g_assert_nonnull (strstr (described, "no usable GPU"));

  /* another machine, as the chooser would set it: its name, a server */
  there = ws_gpu_target_parse ("ssh://alice@gpu01.example.org", &error);
  g_assert_no_error (error);
  ws_session_set_target (session, there);
  settle ();
  g_assert_cmpstr (ws_gpu_button_get_label (button), ==, "gpu01.example.org");
  g_assert_cmpstr (ws_gpu_button_get_icon_name (button), ==, "network-server-symbolic");

  /* a click opens the chooser, which follows the same session */
  popover = ws_gpu_button_get_popover (button);
  ws_gpu_button_popup (button);
  settle ();
  g_assert_true (gtk_widget_get_mapped (popover));
  g_assert_true (WS_IS_GPU_CHOOSER (gtk_popover_get_child (GTK_POPOVER (popover))));
  ws_gpu_button_popdown (button);
  settle ();
  g_assert_false (gtk_widget_get_mapped (popover));

  /* without a session it lets the session go */
  ws_gpu_button_set_session (button, NULL);
  g_assert_null (ws_gpu_button_get_session (button));
  gtk_window_destroy (GTK_WINDOW (window));
  settle ();
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  g_test_add_func ("/gpu-button/follows-session", test_follows_session);
  return g_test_run ();
}
