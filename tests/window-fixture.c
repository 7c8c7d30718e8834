/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the window tests share: a window on a recording, waiting for the
 * main loop, looking at what is drawn, screenshots. */
#include "window-fixture.h"
#include "glib-quarks.h"
#include "sample.h"

#include <glib/gstdio.h>
#include <unistd.h>

WsApplication *the_app;

/* Of a small launch, in a topic of two: its model and its plot's take the
 * least time of all. */
#define CHEAP_PRESET "constant/broadcast"

/* ------------------------------------------------------------------ */
/* Waiting for the main loop                                          */
/* ------------------------------------------------------------------ */

/* Sanitized builds run several times slower: WS_TEST_TIMEOUT_SCALE
 * stretches every wait (as meson test --timeout-multiplier does the tests'). */
gint64
timeout_scale (void)
{
  const char *scale = g_getenv ("WS_TEST_TIMEOUT_SCALE");

  return scale ? CLAMP (g_ascii_strtoll (scale, NULL, 10), 1, 100) : 1;
}

gboolean
wait_until (Condition cond,
            gpointer  data,
            guint     timeout_ms)
{
  gint64 end = g_get_monotonic_time () + timeout_ms * 1000 * timeout_scale ();

  while (!cond (data))
    {
      if (g_get_monotonic_time () > end)
        return FALSE;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  return TRUE;
}

static void
on_after_paint (GdkFrameClock *clock,
                guint         *painted)
{
  (*painted)++;
}

static gboolean
painted_once (gpointer data)
{
  return *(guint *) data >= 1;
}

/* Until the window has painted twice more: laid out, then drawn. */
void
wait_frames (WsWindow *window)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));

  for (guint i = 0; i < 2; i++)
    {
      guint painted = 0;
      gulong id = g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), &painted);

      gtk_widget_queue_draw (GTK_WIDGET (window));
      if (!wait_until (painted_once, &painted, 5000))
        g_error ("no frame painted in 5 s (preset %s)", ws_window_get_preset_id (window));
      g_signal_handler_disconnect (clock, id);
    }
}

static gboolean
settled (gpointer data)
{
  return ws_window_is_settled (data);
}

/* A preset's model follows every sweep point's launch through the
 * hierarchy, on every core: a minute leaves room for a loaded 2-core
 * machine. */
void
wait_settled (WsWindow *window)
{
  wait_settled_within (window, 60);
}

void
wait_settled_within (WsWindow *window,
                     guint     seconds)
{
  if (!wait_until (settled, window, seconds * 1000))
    g_error ("the window did not settle in %u s (preset %s)", seconds, ws_window_get_preset_id (window));
  wait_frames (window);
}

/* ------------------------------------------------------------------ */
/* Looking at what is drawn                                           */
/* ------------------------------------------------------------------ */

/* The share of a widget's pixels that differ from its first (background) pixel. */
double
widget_ink (GtkWidget *widget)
{
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  g_autofree guint32 *pixels = NULL;
  guint64 differ = 0;

  g_assert_cmpint (w, >, 100);
  g_assert_cmpint (h, >, 100);
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), w, h);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, w, h));
  pixels = g_new (guint32, (gsize) w * h);
  gdk_texture_download (texture, (guchar *) pixels, w * 4);
  for (gsize i = 0; i < (gsize) w * h; i++)
    differ += pixels[i] != pixels[0];
  return (double) differ / ((double) w * h);
}

char *
screenshot_path (const char *name)
{
  g_autofree char *dir = g_build_filename (g_getenv ("G_TEST_BUILDDIR") ? g_getenv ("G_TEST_BUILDDIR") : ".",
                                           "screenshots", NULL);

  g_mkdir_with_parents (dir, 0755);
  return g_build_filename (dir, name, NULL);
}

void
save_screenshot (WsWindow   *window,
                 const char *name)
{
  g_autofree char *path = screenshot_path (name);
  g_autoptr (GError) error = NULL;

  /* the whole schedule served: a complete picture */
  ws_schedule_player_set_playing (ws_window_active_player (window), FALSE);
  ws_schedule_player_set_position (ws_window_active_player (window),
                                   ws_schedule_player_get_n_steps (ws_window_active_player (window)));
  wait_frames (window);
  g_assert_true (ws_window_save_screenshot (window, path, &error));
  g_assert_no_error (error);
  g_test_message ("screenshot: %s", path);
}

/* ------------------------------------------------------------------ */
/* A recording to plot                                                */
/* ------------------------------------------------------------------ */

/* The bundled recording when there is one; else a made-up one, named as such. */
char *
recording_for_tests (guint *n_points)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRecording) recording = ws_recording_load_bundled (NULL);
  g_autoptr (GPtrArray) found = NULL;
  g_autofree char *path = g_strdup_printf ("%s/warpscope-test-window-%d.json", g_get_tmp_dir (), (int) getpid ());
  g_autoptr (GFile) file = g_file_new_for_path (path);

  if (recording == NULL)
    {
      g_autoptr (WsDeviceInfo) device = ws_device_info_new ();
      guint n_presets;
      const WsPreset *presets = ws_presets_get_all (&n_presets);

      device->name = g_strdup ("Made-up GPU for tests");
      device->cc_major = 9;
      recording = ws_recording_new (device);
      for (guint p = 0; p < n_presets; p++)
        {
          g_autoptr (GArray) values = presets[p].sweep_values ? ws_sweep_values_parse (presets[p].sweep_values, NULL)
                                                              : NULL;
          for (guint i = 0; i < (values ? values->len : 1); i++)
            {
              g_autoptr (WsMeasurement) m = ws_measurement_new (presets[p].id);
              double base = 0.05 + 0.01 * p + (values ? 0.004 * g_array_index (values, gint64, i) : 0);

              if (values)
                ws_measurement_set_param (m, presets[p].sweep_param, g_array_index (values, gint64, i));
              for (guint s = 0; s < 10; s++)
                ws_measurement_add_sample (m, base * (1 + 0.01 * s));
              ws_measurement_summarize (m);
              m->bytes = 16 << 20;
              m->bandwidth_gbs = m->bytes / (m->median_ms * 1e6);
              m->verified = TRUE;
              ws_recording_add (recording, m);
            }
        }
    }
  g_assert_true (ws_recording_save_file (recording, file, NULL, &error));
  g_assert_no_error (error);
  found = ws_recording_find (recording, SWEEP_PRESET);
  *n_points = 0;
  for (guint i = 0; found && i < found->len; i++)
    *n_points += ws_measurement_get_param (g_ptr_array_index (found, i), "stride", NULL);
  return g_steal_pointer (&path);
}

/* ------------------------------------------------------------------ */

void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr (WsSession) session = NULL;

  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_LIGHT);
  /* The window opens on the last preset a test left. Sampled (the
   * sanitized run: sample.h), on one whose model takes no time: a sweep's
   * 32 launches took a minute there before each test. */
  if (sample_every () > 1)
    {
      g_autoptr (GSettings) settings = g_settings_new (WS_APP_ID);

      g_settings_set_string (settings, "last-preset", CHEAP_PRESET);
    }
  f->recording_path = recording_for_tests (&f->n_recorded);
  session = ws_application_new_session (the_app, f->recording_path);
  f->window = ws_window_new (GTK_APPLICATION (the_app), session);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1400, 900);
  gtk_window_present (GTK_WINDOW (f->window));
  wait_settled (f->window);
}

void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  g_unlink (f->recording_path);
  g_free (f->recording_path);
}

void
load (Fixture    *f,
      const char *id)
{
  g_assert_true (ws_window_load_preset (f->window, id));
  wait_settled (f->window);
}

int
window_test_run (int    *argc,
                 char ***argv,
                 void  (*add_tests) (void))
{
  g_autoptr (GError) error = NULL;
  int status;

  /* before GTK makes its quarks: glib-quarks.c says why */
  glib_quarks_ignore_first_block ();
  gtk_test_init (argc, argv, NULL);
  /* GTK 4.8 leaks a GDateTime each time it writes the recent files and
   * drops those older than this age (gtk_recent_manager_clamp_to_age): no
   * age, so that LeakSanitizer sees only leaks of our own */
  g_object_set (gtk_settings_get_default (), "gtk-recent-files-max-age", -1, NULL);
  the_app = ws_application_new ();
  /* the tests' own instance, which still opens files as the program does */
  g_application_set_flags (G_APPLICATION (the_app),
                           g_application_get_flags (G_APPLICATION (the_app)) | G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (the_app), NULL, &error));
  g_assert_no_error (error);
  add_tests ();
  status = g_test_run ();
  g_clear_object (&the_app);
  return status;
}

GSettings *
window_settings (void)
{
  static GSettings *settings = NULL;

  if (settings == NULL)
    settings = g_settings_new (WS_APP_ID);
  return settings;
}
