/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Where measurements run, in the window, under Xvfb: the chooser moves the
 * session (a worker playing the bundled recording back, started by a
 * command), the button, subtitle and banner say where; a host out of reach
 * (nothing on the port, a login a real sshd refuses), a Slurm job waiting
 * in the queue (a stand-in srun that queues) cancelled from the banner, a
 * sweep stopped by a killed worker and resumed from the banner; adding a
 * GPU, and Preferences. Screenshots, light and dark, in screenshots/. */
#include "window-fixture.h"
#include "remote-fixture.h"
#include "ws-app-windows.h"
#include "ws-gpu-chooser.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static char *worker;
static char *scratch;

/* ------------------------------------------------------------------ */
/* Helpers                                                            */
/* ------------------------------------------------------------------ */

/* Animations (a dialog appearing, an entry's title moving up) run out. */
static void
let_run (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (2000);
    }
}

static void
save_widget (GtkWidget  *widget,
             const char *name)
{
  g_autofree char *path = screenshot_path (name);
  g_autoptr (GdkPaintable) paintable = NULL;
  g_autoptr (GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  int w, h;

  let_run (400);
  w = gtk_widget_get_width (widget);
  h = gtk_widget_get_height (widget);
  g_assert_cmpint (w, >, 0);
  paintable = gtk_widget_paintable_new (widget);
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), w, h);
  node = gtk_snapshot_to_node (snapshot);
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, w, h));
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("screenshot: %s", path);
}

static void
both_styles (WsWindow   *window,
             GtkWidget  *also,
             const char *name)
{
  const char *styles[] = { "light", "dark" };
  AdwColorScheme schemes[] = { ADW_COLOR_SCHEME_FORCE_LIGHT, ADW_COLOR_SCHEME_FORCE_DARK };

  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *file = g_strdup_printf ("%s-%s.png", name, styles[i]);

      adw_style_manager_set_color_scheme (adw_style_manager_get_default (), schemes[i]);
      wait_frames (window);
      if (also)
        {
          g_autofree char *part = g_strdup_printf ("%s-popover-%s.png", name, styles[i]);
          wait_frames (window);
          save_widget (also, part);
        }
      save_screenshot (window, file);
    }
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_LIGHT);
}

static void
choose (Fixture    *f,
        const char *address)
{
  g_settings_set_string (window_settings (), "gpu", address);
}

typedef struct
{
  WsWindow *window;
  WsSessionConnection connection;
} Awaited;

static gboolean
connection_is (gpointer data)
{
  Awaited *a = data;

  return ws_session_get_connection (ws_window_get_session (a->window)) == a->connection;
}

static void
wait_connection (Fixture            *f,
                 WsSessionConnection connection)
{
  Awaited a = { f->window, connection };

  if (!wait_until (connection_is, &a, 30000))
    g_error ("the connection is %u, not %u", ws_session_get_connection (ws_window_get_session (f->window)), connection);
}

static gboolean
probed (gpointer data)
{
  return ws_session_get_probed (ws_window_get_session (data));
}

static const char *
banner_text (Fixture *f)
{
  WsBanner *banner = ws_window_get_banner (f->window);

  g_assert_true (ws_banner_get_revealed (banner));
  return ws_banner_get_title (banner);
}

static char *
replaying (guint delay_ms)
{
  g_autofree char *recording = g_build_filename (WS_SOURCE_DATADIR, "recordings", "h100.json", NULL);
  g_autofree char *command = g_strdup_printf ("exec %s --replay %s --replay-delay %u", worker, recording, delay_ms);
  g_autofree char *escaped = g_uri_escape_string (command, NULL, FALSE);

  return g_strdup_printf ("command:?run=%s", escaped);
}

static void
set_down (Fixture *f)
{
  /* the next test starts here again */
  choose (f, "local");
  g_settings_set_strv (window_settings (), "gpus", NULL);
}

/* ------------------------------------------------------------------ */
/* Tests                                                              */
/* ------------------------------------------------------------------ */

static void
test_chooser (Fixture       *f,
              gconstpointer  data)
{
  g_autofree char *address = replaying (0);
  WsWindow *w = f->window;
  const char *subtitle;

  choose (f, address);
  wait_connection (f, WS_SESSION_CONNECTION_CONNECTED);
  g_assert_true (wait_until (probed, w, 30000));
  wait_settled (w);
  g_assert_cmpstr (ws_gpu_button_get_label (ws_window_get_gpu_button (w)), ==, g_get_host_name ());
  subtitle = ws_window_get_subtitle (w);
  g_assert_nonnull (strstr (subtitle, "played back on"));
  g_assert_true (g_str_has_prefix (banner_text (f), "Measurements are played back on"));
  g_assert_nonnull (strstr (banner_text (f), "NVIDIA H100 80GB HBM3"));

  ws_gpu_button_popup (ws_window_get_gpu_button (w));
  wait_frames (w);
  both_styles (w, ws_gpu_button_get_popover (ws_window_get_gpu_button (w)), "gpu-chooser");
  ws_gpu_button_popdown (ws_window_get_gpu_button (w));
  set_down (f);
}

static gboolean
not_calibrating (gpointer data)
{
  return !ws_session_get_calibrating (ws_window_get_session (data));
}

/* Recalibrate, on a worker that plays the H100's recording back: its GPU
 * has a profile shipped, so nothing calibrates by itself; asked to, the
 * worker says it has no GPU to measure, the window says so in a toast, and
 * the shipped profile stays. */
static void
test_recalibrate (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *address = replaying (0);
  WsWindow *w = f->window;

  choose (f, address);
  wait_connection (f, WS_SESSION_CONNECTION_CONNECTED);
  g_assert_true (wait_until (probed, w, 30000));
  wait_settled (w);
  g_assert_false (ws_session_get_calibrating (ws_window_get_session (w)));
  g_assert_cmpstr (ws_session_get_profile_source (ws_window_get_session (w)), ==, "the profile shipped for this GPU");
  g_assert_true (ws_window_can_calibrate (w));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (w), "win.recalibrate", NULL));
  g_assert_true (ws_session_get_calibrating (ws_window_get_session (w)));
  /* another preset while it runs: the launch is analysed again, and the
   * calibration goes on */
  g_assert_true (ws_window_load_preset (w, "coalescing/sequential"));
  g_assert_true (ws_session_get_calibrating (ws_window_get_session (w)));
  g_assert_true (wait_until (not_calibrating, w, 30000));
  g_assert_nonnull (ws_window_get_last_toast (w));
  g_assert_true (g_str_has_prefix (ws_window_get_last_toast (w), "Could not calibrate the GPU: "));
  g_assert_nonnull (strstr (ws_window_get_last_toast (w), "no GPU to calibrate"));
  g_assert_cmpstr (ws_session_get_profile_source (ws_window_get_session (w)), ==, "the profile shipped for this GPU");
  g_assert_nonnull (ws_session_get_device_profile (ws_window_get_session (w)));
  set_down (f);
}

static void
test_unreachable (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *address = g_strdup_printf ("ssh://%s@127.0.0.1:%d", g_get_user_name (), ws_test_free_port ());
  WsWindow *w = f->window;

  g_unsetenv ("WS_SSH_COMMAND");
  choose (f, address);
  wait_connection (f, WS_SESSION_CONNECTION_FAILED);
  wait_settled (w);
  g_assert_true (g_str_has_prefix (banner_text (f), "No GPU: "));
  g_assert_nonnull (strstr (banner_text (f), "cannot be reached: nothing answers on port"));
  g_assert_nonnull (ws_banner_get_button_label (ws_window_get_banner (w)));
  g_assert_cmpstr (ws_banner_get_button_label (ws_window_get_banner (w)), ==, "_Try Again");
  g_assert_nonnull (strstr (ws_window_get_subtitle (w), "127.0.0.1 out of reach"));
  both_styles (w, NULL, "gpu-unreachable");
  set_down (f);
}

static void
test_refused (Fixture       *f,
              gconstpointer  data)
{
  WsTestSshd sshd;
  g_autofree char *why = ws_test_sshd_start (&sshd);
  g_autofree char *address = NULL;
  WsWindow *w = f->window;

  if (why)
    {
      ws_test_sshd_stop (&sshd);
      g_test_skip (why);
      return;
    }
  g_setenv ("WS_SSH_COMMAND", sshd.wrong_key_command, TRUE);
  address = ws_test_sshd_address (&sshd, NULL);
  choose (f, address);
  wait_connection (f, WS_SESSION_CONNECTION_FAILED);
  wait_settled (w);
  g_assert_nonnull (strstr (banner_text (f), "cannot be reached: 127.0.0.1 refused the login"));
  both_styles (w, NULL, "gpu-refused");
  set_down (f);
  g_unsetenv ("WS_SSH_COMMAND");
  ws_test_sshd_stop (&sshd);
}

/* A stand-in for srun, first on the PATH: says the job is queued, and
 * waits; withdrawing it is SIGTERM, which it notes. */
static void
test_queued (Fixture       *f,
             gconstpointer  data)
{
  g_autofree char *bin = g_build_filename (scratch, "bin", NULL);
  g_autofree char *srun = g_build_filename (bin, "srun", NULL);
  g_autofree char *withdrawn = g_build_filename (scratch, "withdrawn", NULL);
  g_autofree char *script = g_strdup_printf ("#!/bin/sh\n"
                                             "trap 'echo withdrawn > %s; exit 1' TERM\n"
                                             "echo 'srun: job 4242 queued and waiting for resources' >&2\n"
                                             "sleep 60 & wait\n", withdrawn);
  g_autofree char *path = g_strdup_printf ("%s:%s", bin, g_getenv ("PATH"));
  g_autofree char *old_path = g_strdup (g_getenv ("PATH"));
  WsWindow *w = f->window;

  g_mkdir_with_parents (bin, 0755);
  ws_test_write_script (srun, script);
  g_setenv ("PATH", path, TRUE);
  choose (f, "slurm://gpu?time=30:00");
  wait_connection (f, WS_SESSION_CONNECTION_QUEUED);
  /* nothing settles while the job waits */
  wait_frames (w);
  g_assert_true (g_str_has_prefix (banner_text (f), "Slurm job 4242 waits in the queue"));
  g_assert_cmpstr (ws_banner_get_button_label (ws_window_get_banner (w)), ==, "_Cancel");
  g_assert_nonnull (strstr (ws_window_get_subtitle (w), "waiting in Slurm's queue (job 4242)"));
  both_styles (w, NULL, "gpu-queued");

  gtk_widget_activate_action (GTK_WIDGET (w), "win.gpu-banner-action", NULL);
  wait_connection (f, WS_SESSION_CONNECTION_FAILED);
  wait_settled (w);
  g_assert_true (g_file_test (withdrawn, G_FILE_TEST_EXISTS));
  g_assert_nonnull (strstr (banner_text (f), "Slurm job 4242 is withdrawn"));
  g_assert_nonnull (strstr (ws_window_get_subtitle (w), "not connected to Slurm (gpu)"));
  both_styles (w, NULL, "gpu-queue-cancelled");
  g_setenv ("PATH", old_path, TRUE);
  set_down (f);
}

static GPid
replaying_worker (void)
{
  g_autoptr (GArray) children = ws_test_children (getpid ());

  for (guint i = 0; i < children->len; i++)
    {
      GPid pid = g_array_index (children, GPid, i);
      g_autofree char *path = g_strdup_printf ("/proc/%d/cmdline", pid);
      g_autofree char *cmdline = NULL;
      gsize n;

      if (!g_file_get_contents (path, &cmdline, &n, NULL) || n == 0 ||
          !g_str_has_suffix (cmdline, "warpscope-gpu-worker"))
        continue;
      /* the one playing back, not this computer's own */
      for (const char *arg = cmdline; arg < cmdline + n; arg += strlen (arg) + 1)
        if (g_str_equal (arg, "--replay"))
          return pid;
    }
  return 0;
}

static gboolean
three_points (gpointer data)
{
  WsWindow *w = data;
  WsSweep *sweep = ws_session_get_sweep (ws_window_get_session (w));

  return sweep && ws_sweep_get_points (sweep)->len >= 3;
}

static gboolean
not_sweeping (gpointer data)
{
  return !ws_window_is_sweeping (data);
}

static void
test_lost_sweep (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *address = replaying (150);
  g_autofree char *key = NULL;
  WsWindow *w = f->window;
  guint points = 0;

  choose (f, address);
  g_assert_true (wait_until (probed, w, 30000));
  load (f, SWEEP_PRESET);
  ws_window_start_sweep (w);
  g_assert_true (wait_until (three_points, w, 60000));
  g_assert_cmpint (kill (replaying_worker (), SIGKILL), ==, 0);
  g_assert_true (wait_until (not_sweeping, w, 30000));
  wait_settled (w);
  g_assert_true (g_str_has_prefix (banner_text (f), "The sweep stopped at stride = "));
  g_assert_nonnull (strstr (banner_text (f), ": the connection to "));
  g_assert_nonnull (strstr (banner_text (f), "The points measured are kept."));
  g_assert_cmpstr (ws_banner_get_button_label (ws_window_get_banner (w)), ==, "_Resume Sweep");
  both_styles (w, NULL, "gpu-sweep-stopped");

  key = ws_explore_page_pattern_key (ws_window_get_explore_page (w));
  gtk_widget_activate_action (GTK_WIDGET (w), "win.gpu-banner-action", NULL);
  g_assert_true (ws_window_is_sweeping (w));
  g_assert_true (wait_until (not_sweeping, w, 120000));
  wait_settled (w);
  /* every value of the sweep measured, once the rest came in */
  {
    g_autoptr (WsMeasureRequest) request = ws_explore_page_make_request (ws_window_get_explore_page (w), FALSE);
    g_autoptr (GArray) left = ws_session_sweep_values_left (ws_window_get_session (w), request, ws_explore_page_sweep_param (ws_window_get_explore_page (w)), NULL);

    g_assert_cmpuint (left->len, ==, 0);
  }
  for (guint i = 0; i < ws_session_get_live (ws_window_get_session (w))->len; i++)
    points += g_str_equal (((WsLiveEntry *) g_ptr_array_index (ws_session_get_live (ws_window_get_session (w)), i))->key, key);
  g_assert_cmpuint (points, >=, f->n_recorded);
  save_screenshot (w, "gpu-sweep-resumed-light.png");
  set_down (f);
}

static GtkWindow *
toplevel_of_type (GType type)
{
  GListModel *toplevels = gtk_window_get_toplevels ();  /* GTK's own */

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWindow) window = g_list_model_get_item (toplevels, i);
      if (G_TYPE_CHECK_INSTANCE_TYPE (window, type) && gtk_widget_get_visible (GTK_WIDGET (window)))
        return window;
    }
  return NULL;
}

static GtkWidget *
find_entry (GtkWidget  *root,
            const char *title)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found;

      if (ADW_IS_ENTRY_ROW (c) && g_str_has_prefix (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (c)), title))
        return c;
      if ((found = find_entry (c, title)))
        return found;
    }
  return NULL;
}

static void
test_add (Fixture       *f,
          gconstpointer  data)
{
  WsWindow *w = f->window;
  GtkWindow *dialog;
  GtkWidget *host;
  g_auto (GStrv) saved = NULL;
  g_autofree char *chosen = NULL;

  ws_gpu_chooser_add (GTK_WINDOW (w), window_settings ());
  dialog = toplevel_of_type (ADW_TYPE_MESSAGE_DIALOG);
  g_assert_nonnull (dialog);
  host = find_entry (GTK_WIDGET (dialog), "Host");
  /* an option where a host should be is refused, and says why */
  gtk_editable_set_text (GTK_EDITABLE (host), "-oProxyCommand=touch");
  g_assert_false (adw_message_dialog_get_response_enabled (ADW_MESSAGE_DIALOG (dialog), "add"));
  gtk_editable_set_text (GTK_EDITABLE (host), "ada@gpu01.example.org:2222");
  g_assert_true (adw_message_dialog_get_response_enabled (ADW_MESSAGE_DIALOG (dialog), "add"));
  wait_frames (w);
  save_widget (GTK_WIDGET (dialog), "gpu-add-light.png");
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "add");
  saved = g_settings_get_strv (window_settings (), "gpus");
  g_assert_cmpstr (saved[0], ==, "ssh://ada@gpu01.example.org:2222");
  chosen = g_settings_get_string (window_settings (), "gpu");
  g_assert_cmpstr (chosen, ==, "ssh://ada@gpu01.example.org:2222");
  /* choosing it started a connection: back home before it finishes */
  set_down (f);

  ws_show_preferences_window (GTK_WINDOW (w));
  dialog = toplevel_of_type (ADW_TYPE_PREFERENCES_WINDOW);
  g_assert_nonnull (dialog);
  gtk_window_set_default_size (dialog, 620, 760);
  wait_frames (w);
  save_widget (GTK_WIDGET (dialog), "gpu-preferences-light.png");
  gtk_window_destroy (dialog);
}

static void
add_tests (void)
{
  g_test_add ("/window-gpu/chooser", Fixture, NULL, fixture_set_up, test_chooser, fixture_tear_down);
  g_test_add ("/window-gpu/recalibrate", Fixture, NULL, fixture_set_up, test_recalibrate, fixture_tear_down);
  g_test_add ("/window-gpu/unreachable", Fixture, NULL, fixture_set_up, test_unreachable, fixture_tear_down);
  g_test_add ("/window-gpu/refused", Fixture, NULL, fixture_set_up, test_refused, fixture_tear_down);
  g_test_add ("/window-gpu/queued", Fixture, NULL, fixture_set_up, test_queued, fixture_tear_down);
  g_test_add ("/window-gpu/lost-sweep", Fixture, NULL, fixture_set_up, test_lost_sweep, fixture_tear_down);
  g_test_add ("/window-gpu/add", Fixture, NULL, fixture_set_up, test_add, fixture_tear_down);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *runtime = g_dir_make_tmp ("ws-run-XXXXXX", NULL);
  int status;

  g_chmod (runtime, 0700);
  g_setenv ("XDG_RUNTIME_DIR", runtime, TRUE);
  worker = g_build_filename (WS_BUILD_APPDIR, "warpscope-gpu-worker", NULL);
  scratch = g_dir_make_tmp ("ws-window-gpu-XXXXXX", NULL);
  status = window_test_run (&argc, &argv, add_tests);
  {
    const char *rm[] = { "rm", "-rf", scratch, runtime, NULL };
    g_autoptr (GSubprocess) p = g_subprocess_newv (rm, G_SUBPROCESS_FLAGS_NONE, NULL);
    g_subprocess_wait (p, NULL, NULL);
  }
  return status;
}
