/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window's compare page, exports and recordings, for real under Xvfb:
 * presets side by side step together over one chart with the model's
 * ratio and the speed-up; two recordings in one chart, each labelled with
 * its device; every view, plot and comparison exports to PNG (at a scale),
 * SVG, PDF, CSV and JSON, drawn by the renderer that draws the screen; a
 * bad recording changes nothing; a recording survives save → open; files
 * dropped on the window or opened from Files open, and are remembered among
 * the desktop's recent files; the bundled recordings are in the menu.
 * Screenshots land in screenshots/ of the build. */
#include "window-fixture.h"
#include "svg-summary.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#define LAPTOP "NVIDIA GeForce RTX 4060 Laptop GPU (test fixture)"

static const char *transpose[] = { "transpose/copy", "transpose/read-coalesced", "transpose/shared",
                                   "transpose/shared-padded", NULL };

static WsChart *
compare_chart (WsWindow *w)
{
  return ws_chart_view_get_chart (ws_compare_view_get_chart (compare_view (w)));
}

static guint
count_series (WsChart    *chart,
              const char *prefix)
{
  guint n = 0;

  for (guint i = 0; i < chart->series->len; i++)
    n += g_str_has_prefix (((WsChartSeries *) g_ptr_array_index (chart->series, i))->name, prefix);
  return n;
}

static WsChartSeries *
series_named (WsChart    *chart,
              const char *prefix)
{
  for (guint i = 0; i < chart->series->len; i++)
    if (g_str_has_prefix (((WsChartSeries *) g_ptr_array_index (chart->series, i))->name, prefix))
      return g_ptr_array_index (chart->series, i);
  return NULL;
}

static gboolean
has_note (WsChart    *chart,
          const char *text)
{
  for (guint i = 0; i < chart->notes->len; i++)
    if (strstr (((WsChartNote *) g_ptr_array_index (chart->notes, i))->text, text))
      return TRUE;
  return FALSE;
}

static void
compare (Fixture            *f,
         const char * const *ids)
{
  g_assert_true (ws_window_compare_presets (f->window, ids));
  wait_settled (f->window);
}

/* ------------------------------------------------------------------ */
/* The compare page                                                   */
/* ------------------------------------------------------------------ */

static void
test_compare_page (Fixture       *f,
                   gconstpointer  data)
{
  WsWindow *w = f->window;
  WsSchedulePlayer *player = ws_compare_view_get_player (compare_view (w));
  WsChart *chart;
  const char *two[] = { "coalescing/sequential", "coalescing/stride", NULL };
  const char *one[] = { "coalescing/sequential", NULL };

  compare (f, transpose);
  g_assert_true (ws_window_comparing (w));
  g_assert_true (ws_window_active_player (w) == player);
  g_assert_cmpuint (ws_compare_view_get_n_items (compare_view (w)), ==, 4);
  chart = compare_chart (w);
  g_assert_cmpuint (chart->axes[WS_CHART_X].categories->len, ==, 4);
  if (ws_session_get_device (ws_window_get_session (w)) == NULL)
    {
      /* measured medians with min–max bars; the model's time on the
       * recording's GPU (its profile ships) on the same axis, each mark
       * near its measured point; the speed-up */
      g_autofree char *predicted = g_strdup_printf ("model: predicted on %s",
                                                    ws_recording_get_device (ws_session_get_recording (ws_window_get_session (w)))->name);
      WsChartSeries *recorded = series_named (chart, "recorded on ");
      WsChartSeries *model = series_named (chart, predicted);
      g_assert_nonnull (recorded);
      g_assert_cmpuint (recorded->points->len, ==, 4);
      g_assert_nonnull (model);
      g_assert_cmpuint (model->points->len, ==, 4);
      g_assert_true (model->axis == recorded->axis);
      for (guint i = 0; i < 4; i++)
        g_assert_cmpfloat (fabs (g_array_index (model->points, WsChartPoint, i).y /
                                 g_array_index (recorded->points, WsChartPoint, i).y - 1), <, 0.25);
      g_assert_true (has_note (chart, "baseline"));
      g_assert_nonnull (strstr (chart->title, " faster than "));
    }

  /* the views step together */
  g_assert_cmpuint (ws_schedule_player_get_n_steps (player), ==, 32);
  ws_schedule_player_set_playing (player, FALSE);
  ws_schedule_player_set_position (player, 3);
  gtk_widget_activate_action (GTK_WIDGET (w), "win.step-forward", NULL);
  for (guint i = 0; i < 4; i++)
    g_assert_cmpfloat (ws_figure_view_get_position (ws_compare_view_get_figure (compare_view (w), i)), ==, 4);
  /* the keys play the page in view, not the explorer */
  ws_schedule_player_set_playing (page_player (w), FALSE);
  gtk_widget_activate_action (GTK_WIDGET (w), "win.playing", NULL);
  g_assert_true (ws_schedule_player_get_playing (player));
  g_assert_false (ws_schedule_player_get_playing (page_player (w)));

  save_screenshot (w, "window-compare-transpose-light.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  save_screenshot (w, "window-compare-transpose-dark.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_LIGHT);

  /* a set from the Sets menu; adding and removing */
  gtk_widget_activate_action (GTK_WIDGET (w), "win.compare-set", "u", 3);
  wait_settled (w);
  g_assert_cmpuint (ws_compare_view_get_n_items (compare_view (w)), ==, 2);
  gtk_widget_activate_action (GTK_WIDGET (compare_view (w)), "compare.add", NULL);
  wait_settled (w);
  g_assert_cmpuint (ws_compare_view_get_n_items (compare_view (w)), ==, 3);
  g_assert_cmpuint (compare_chart (w)->axes[WS_CHART_X].categories->len, ==, 3);
  gtk_widget_activate_action (GTK_WIDGET (compare_view (w)), "compare.remove", "u", 2);
  wait_settled (w);
  g_assert_cmpuint (ws_compare_view_get_n_items (compare_view (w)), ==, 2);
  {
    g_auto (GStrv) ids = ws_compare_view_get_ids (compare_view (w));
    g_assert_cmpstrv (ids, two);
  }
  /* one preset is no comparison */
  g_assert_false (ws_window_compare_presets (w, one));

  /* back to the explorer: its player again, and its presets */
  gtk_widget_activate_action (GTK_WIDGET (w), "win.page", "s", "explore");
  g_assert_false (ws_window_comparing (w));
  g_assert_true (ws_window_active_player (w) == page_player (w));
}

/* ------------------------------------------------------------------ */
/* Recordings                                                         */
/* ------------------------------------------------------------------ */

/* Until the files asked for are read, or refused: no deadline of its own
 * (the test's timeout stands guard), then until the window has settled. */
static void
wait_opened (WsWindow *w)
{
  while (ws_window_is_opening (w))
    g_main_context_iteration (NULL, TRUE);
  wait_settled (w);
}

static void
open_and_wait (WsWindow   *w,
               const char *path,
               WsOpenMode  mode)
{
  ws_window_open_recording (w, path, mode);
  wait_opened (w);
}

/* A second recording, a test fixture: the first one's measurements, 3.1
 * times as slow, said to be made on a laptop's GPU. */
static char *
laptop_recording (WsRecording *from)
{
  g_autoptr (WsDeviceInfo) device = ws_device_info_copy (ws_recording_get_device (from));
  g_autoptr (WsRecording) laptop = NULL;
  g_autofree char *path = g_strdup_printf ("%s/warpscope-test-laptop-%d.json", g_get_tmp_dir (), (int) getpid ());
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;

  g_free (device->name);
  device->name = g_strdup (LAPTOP);
  laptop = ws_recording_new (device);
  for (guint i = 0; i < ws_recording_get_n_measurements (from); i++)
    {
      g_autoptr (WsMeasurement) m = ws_measurement_copy (ws_recording_get_measurement (from, i));
      for (guint s = 0; m->samples_ms && s < m->samples_ms->len; s++)
        g_array_index (m->samples_ms, double, s) *= 3.1;
      ws_measurement_summarize (m);
      ws_recording_add (laptop, m);
    }
  g_assert_true (ws_recording_save_file (laptop, file, NULL, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&path);
}

static void
test_two_recordings (Fixture       *f,
                     gconstpointer  data)
{
  WsWindow *w = f->window;
  g_autofree char *laptop = laptop_recording (ws_session_get_recording (ws_window_get_session (w)));
  g_autoptr (GPtrArray) recent = NULL;
  g_autofree char *uri = g_filename_to_uri (laptop, NULL, NULL);
  g_autofree char *device = NULL;
  WsChart *chart;

  compare (f, transpose);
  open_and_wait (w, laptop, WS_OPEN_ADD);
  g_assert_cmpuint (ws_session_get_compared (ws_window_get_session (w))->len, ==, 1);
  chart = compare_chart (w);
  g_assert_cmpuint (count_series (chart, "recorded on "), ==, 2);
  g_assert_nonnull (series_named (chart, "recorded on " LAPTOP));
  device = g_strdup_printf ("recorded on %s", ws_recording_get_device (ws_session_get_recording (ws_window_get_session (w)))->name);
  g_assert_nonnull (series_named (chart, device));
  g_assert_nonnull (strstr (chart->subtitle, LAPTOP));
  /* the same in the explorer's plot */
  load (f, "coalescing/strided-sweep");
  g_assert_cmpuint (count_series (ws_chart_view_get_chart (plot_chart_view (w)), "recorded on "), ==, 2);
  g_assert_cmpuint (series_named (ws_chart_view_get_chart (plot_chart_view (w)), "recorded on " LAPTOP)->points->len, ==,
                    f->n_recorded);
  compare (f, transpose);
  save_screenshot (w, "window-compare-two-recordings-light.png");

  /* remembered among the desktop's recent files, as a recording, first */
  recent = ws_window_recent_recordings ();
  g_assert_cmpuint (recent->len, >=, 1);
  g_assert_cmpstr (gtk_recent_info_get_uri (g_ptr_array_index (recent, 0)), ==, uri);
  g_assert_cmpstr (gtk_recent_info_get_mime_type (g_ptr_array_index (recent, 0)), ==, WS_RECORDING_MIME_TYPE);
  g_assert_true (gtk_recent_manager_has_item (gtk_recent_manager_get_default (), uri));
  g_assert_cmpuint (g_menu_model_get_n_items (ws_window_get_menu (w, "recent")), >=, 1);

  gtk_widget_activate_action (GTK_WIDGET (w), "win.forget-recordings", NULL);
  g_assert_cmpuint (count_series (compare_chart (w), "recorded on "), ==, 1);
  g_unlink (laptop);
}

/* A recording whose numbers were copied from another (what measure --json
 * and sweep --json write with no GPU) says so wherever it is shown: the
 * series carry the device, the date and "not measured here". */
static void
test_not_measured_here (Fixture       *f,
                        gconstpointer  data)
{
  WsWindow *w = f->window;
  WsRecording *bundled = ws_session_get_recording (ws_window_get_session (w));
  g_autoptr (WsRecording) copy = ws_recording_new_copy_of (bundled);
  g_autofree char *path = g_strdup_printf ("%s/warpscope-test-copied-%d.json", g_get_tmp_dir (), (int) getpid ());
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  g_autofree char *date = g_date_time_format (ws_recording_get_date (bundled), "%Y-%m-%d");
  g_autofree char *name = g_strdup_printf ("recorded on %s on %s (not measured here)",
                                           ws_recording_get_device (bundled)->name, date);
  WsChartSeries *series;

  for (guint i = 0; i < ws_recording_get_n_measurements (bundled); i++)
    ws_recording_add (copy, ws_recording_get_measurement (bundled, i));
  g_assert_true (ws_recording_save_file (copy, file, NULL, &error));
  g_assert_no_error (error);

  compare (f, transpose);
  open_and_wait (w, path, WS_OPEN_ADD);
  series = series_named (compare_chart (w), name);
  g_assert_nonnull (series);
  g_assert_cmpstr (series->name, ==, name);
  load (f, "coalescing/strided-sweep");
  g_assert_nonnull (series_named (ws_chart_view_get_chart (plot_chart_view (w)), name));
  gtk_widget_activate_action (GTK_WIDGET (w), "win.forget-recordings", NULL);
  g_unlink (path);
}

/* A label in the toast overlay that says text. */
static gboolean
find_label (GtkWidget  *widget,
            const char *text)
{
  if (GTK_IS_LABEL (widget) && strstr (gtk_label_get_text (GTK_LABEL (widget)), text))
    return TRUE;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    if (find_label (c, text))
      return TRUE;
  return FALSE;
}

/* ------------------------------------------------------------------ */
/* Kernels of one's own beside presets                                */
/* ------------------------------------------------------------------ */

static gboolean
has_category (WsChart    *chart,
              const char *title)
{
  GPtrArray *categories = chart->axes[WS_CHART_X].categories;

  for (guint i = 0; categories && i < categories->len; i++)
    if (g_str_equal (g_ptr_array_index (categories, i), title))
      return TRUE;
  return FALSE;
}

/* Shows the listing of slot 2 once it is modelled. */
static gboolean
listing_shown (gpointer data)
{
  WsCompareView *view = data;

  ws_compare_view_show_listing (view, 2, TRUE);
  return ws_compare_view_get_listing_shown (view, 2);
}

static void
test_compare_kernel (Fixture       *f,
                     gconstpointer  data)
{
  WsWindow *w = f->window;
  WsSchedulePlayer *player = ws_compare_view_get_player (compare_view (w));
  g_autofree char *file = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "data", "kernels", "transpose.cu", NULL);
  g_autofree char *naive = g_strconcat (file, ":transposeNaive", NULL);
  g_autofree char *tiled = g_strconcat (file, ":transposeCoalesced@80", NULL);
  const char *two[] = { "transpose/copy", "transpose/shared", NULL };
  GPtrArray *items;
  const WsWarpResult *r;
  WsChart *chart;

  compare (f, two);
  /* Add Kernel File…, as the file chooser's answer reaches the page */
  g_assert_true (ws_compare_view_add_id (compare_view (w), naive));
  wait_settled (w);
  g_assert_cmpuint (ws_compare_view_get_n_items (compare_view (w)), ==, 3);
  items = ws_session_get_comparison (ws_window_get_session (w));
  g_assert_cmpuint (items->len, ==, 3);
  g_assert_nonnull (((WsCompareItem *) g_ptr_array_index (items, 2))->kernel);
  g_assert_cmpstr (((WsCompareItem *) g_ptr_array_index (items, 2))->title, ==, "transposeNaive, line 57");
  /* its slot names it; its view draws its store, 32 sectors a step */
  g_assert_true (find_label (GTK_WIDGET (compare_view (w)), "transpose.cu: transposeNaive"));
  r = ws_figure_view_get_result (ws_compare_view_get_figure (compare_view (w), 2));
  g_assert_nonnull (r);
  g_assert_cmpint (r->space, ==, WS_SPACE_GLOBAL);
  g_assert_cmpint (r->kind, ==, WS_ACCESS_STORE);
  g_assert_cmpuint (r->steps->len, ==, 32);
  g_assert_cmpfloat (widget_ink (GTK_WIDGET (ws_compare_view_get_figure (compare_view (w), 2))), >, 0.01);
  /* in the chart: not measured, and the model's time beside the presets' */
  chart = compare_chart (w);
  g_assert_true (has_category (chart, "transposeNaive, line 57"));
  if (ws_session_get_device (ws_window_get_session (w)) == NULL)
    {
      g_autofree char *predicted = g_strdup_printf ("model: predicted on %s",
                                                    ws_recording_get_device (ws_session_get_recording (ws_window_get_session (w)))->name);
      WsChartSeries *model = series_named (chart, predicted);

      g_assert_true (has_note (chart, "not measured"));
      g_assert_nonnull (model);
      g_assert_cmpuint (model->points->len, ==, 3);
      g_assert_cmpfloat (g_array_index (model->points, WsChartPoint, 2).y, >, 1e-6);
    }

  /* it steps with the others */
  ws_schedule_player_set_playing (player, FALSE);
  ws_schedule_player_set_position (player, 3);
  gtk_widget_activate_action (GTK_WIDGET (w), "win.step-forward", NULL);
  for (guint i = 0; i < 3; i++)
    g_assert_cmpfloat (ws_figure_view_get_position (ws_compare_view_get_figure (compare_view (w), i)), ==, 4);

  /* a fourth, at a line of its own; then no more */
  g_assert_true (ws_compare_view_add_id (compare_view (w), tiled));
  wait_settled (w);
  g_assert_cmpuint (ws_compare_view_get_n_items (compare_view (w)), ==, 4);
  g_assert_true (has_category (compare_chart (w), "transposeCoalesced, line 80"));
  g_assert_cmpint (ws_figure_view_get_result (ws_compare_view_get_figure (compare_view (w), 3))->space, ==,
                   WS_SPACE_SHARED);
  g_assert_false (ws_compare_view_add_id (compare_view (w), naive));
  save_screenshot (w, "window-compare-kernel-light.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  save_screenshot (w, "window-compare-kernel-dark.png");

  /* the kernel's listing, line by line, in place of its view; presets have none */
  g_assert_true (wait_until (listing_shown, compare_view (w), 20000 * timeout_scale ()));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (ws_compare_view_get_figure (compare_view (w), 2))));
  ws_compare_view_show_listing (compare_view (w), 0, TRUE);
  g_assert_false (ws_compare_view_get_listing_shown (compare_view (w), 0));
  wait_frames (w);
  save_screenshot (w, "window-compare-kernel-listing-dark.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_LIGHT);
  save_screenshot (w, "window-compare-kernel-listing-light.png");
  ws_compare_view_show_listing (compare_view (w), 2, FALSE);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (ws_compare_view_get_figure (compare_view (w), 2))));

  /* Ctrl+E writes the comparison as on screen, the kernels' captions naming their files */
  {
    g_autofree char *png = screenshot_path ("window-compare-kernel-export.png");
    g_autoptr (GError) error = NULL;
    cairo_surface_t *image;

    g_assert_true (ws_window_export (w, WS_WINDOW_EXPORT_FIGURE, png, 1, &error));
    g_assert_no_error (error);
    image = cairo_image_surface_create_from_png (png);
    g_assert_cmpint (cairo_surface_status (image), ==, CAIRO_STATUS_SUCCESS);
    g_assert_cmpint (cairo_image_surface_get_width (image), >=, 1000);
    cairo_surface_destroy (image);
  }

  /* removing the kernel leaves the presets and the other kernel */
  gtk_widget_activate_action (GTK_WIDGET (compare_view (w)), "compare.remove", "u", 2);
  wait_settled (w);
  {
    g_auto (GStrv) ids = ws_compare_view_get_ids (compare_view (w));
    const char *left[] = { "transpose/copy", "transpose/shared", tiled, NULL };
    g_assert_cmpstrv (ids, left);
  }

  /* a kernel file that does not read: said, and the comparison stays */
  g_assert_true (ws_compare_view_add_id (compare_view (w), "/nonexistent/missing.cu"));
  wait_settled (w);
  g_assert_cmpuint (ws_compare_view_get_n_items (compare_view (w)), ==, 3);
  g_assert_cmpuint (ws_session_get_comparison (ws_window_get_session (w))->len, ==, 3);
  /* the toast raised (on screen it may wait behind another, or be gone
   * already on a slow run) */
  g_assert_nonnull (ws_window_get_last_toast (w));
  g_assert_nonnull (strstr (ws_window_get_last_toast (w), "Could not compare: /nonexistent/missing.cu: "));
}

static void
test_bad_recording (Fixture       *f,
                    gconstpointer  data)
{
  WsWindow *w = f->window;
  WsRecording *before = ws_session_get_recording (ws_window_get_session (w));
  g_autofree char *path = g_strdup_printf ("%s/warpscope-test-bad-%d.json", g_get_tmp_dir (), (int) getpid ());
  g_autofree char *uri = g_filename_to_uri (path, NULL, NULL);

  g_assert_true (g_file_set_contents (path, "{ \"format\": \"warpscope-recording\", \"version\": 1, \"device\": 7 }",
                                      -1, NULL));
  open_and_wait (w, path, WS_OPEN_REPLACE);
  g_assert_true (ws_session_get_recording (ws_window_get_session (w)) == before);
  g_assert_true (find_label (GTK_WIDGET (w), "Could not open “warpscope-test-bad-"));
  /* not among the recent files */
  g_assert_false (gtk_recent_manager_has_item (gtk_recent_manager_get_default (), uri));
  wait_frames (w);
  save_screenshot (w, "window-bad-recording-light.png");

  /* nor does a file that is not there */
  g_unlink (path);
  open_and_wait (w, path, WS_OPEN_ADD);
  g_assert_true (ws_session_get_recording (ws_window_get_session (w)) == before);
  g_assert_true (ws_session_get_compared (ws_window_get_session (w))->len == 0);
}

static void
test_save_and_open (Fixture       *f,
                    gconstpointer  data)
{
  WsWindow *w = f->window;
  g_autofree char *path = g_strdup_printf ("%s/warpscope-test-saved-%d.json", g_get_tmp_dir (), (int) getpid ());
  g_autofree char *nowhere = g_strdup_printf ("%s/warpscope-no-such-dir-%d/x.json", g_get_tmp_dir (), (int) getpid ());
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autoptr (GError) error = NULL;
  WsRecording *old = ws_session_get_recording (ws_window_get_session (w));

  if (ws_session_get_device (ws_window_get_session (w)))
    {
      g_test_skip ("a GPU is here: Save saves this session's measurements");
      return;
    }
  /* over a file that is there: replaced whole */
  g_assert_true (g_file_set_contents (path, "precious", -1, NULL));
  g_assert_true (ws_window_save_recording (w, path, &error));
  g_assert_no_error (error);
  before = ws_recording_to_data (ws_session_get_recording (ws_window_get_session (w)), NULL);
  open_and_wait (w, path, WS_OPEN_REPLACE);
  g_assert_true (ws_session_get_recording (ws_window_get_session (w)) != old);
  after = ws_recording_to_data (ws_session_get_recording (ws_window_get_session (w)), NULL);
  g_assert_cmpstr (after, ==, before);
  g_assert_cmpstr (ws_session_get_recording_path (ws_window_get_session (w)), ==, path);

  /* where it cannot be written, nothing is */
  g_assert_false (ws_window_save_recording (w, nowhere, &error));
  g_assert_nonnull (error);
  g_assert_false (g_file_test (nowhere, G_FILE_TEST_EXISTS));
  g_unlink (path);
}

/* A recording opened from Files (the application's "open"): in place of
 * the main one, and among the desktop's recent files as a recording. */
static void
test_open_from_files (Fixture       *f,
                      gconstpointer  data)
{
  WsWindow *w = f->window;
  g_autofree char *laptop = laptop_recording (ws_session_get_recording (ws_window_get_session (w)));
  g_autofree char *named = g_strdup_printf ("%s/warpscope-test-opened-%d.warpscope.json", g_get_tmp_dir (),
                                            (int) getpid ());
  g_autoptr (GFile) file = g_file_new_for_path (named);
  g_autofree char *uri = g_file_get_uri (file);
  g_autoptr (GPtrArray) recent = NULL;

  g_assert_cmpint (g_rename (laptop, named), ==, 0);
  g_application_open (G_APPLICATION (the_app), &file, 1, "");
  wait_opened (w);
  g_assert_cmpstr (ws_recording_get_device (ws_session_get_recording (ws_window_get_session (w)))->name, ==, LAPTOP);
  recent = ws_window_recent_recordings ();
  g_assert_cmpuint (recent->len, >=, 1);
  g_assert_cmpstr (gtk_recent_info_get_uri (g_ptr_array_index (recent, 0)), ==, uri);
  g_assert_cmpstr (gtk_recent_info_get_mime_type (g_ptr_array_index (recent, 0)), ==, WS_RECORDING_MIME_TYPE);
  /* a recent file no longer there is not offered */
  g_unlink (named);
  g_clear_pointer (&recent, g_ptr_array_unref);
  recent = ws_window_recent_recordings ();
  for (guint i = 0; i < recent->len; i++)
    g_assert_cmpstr (gtk_recent_info_get_uri (g_ptr_array_index (recent, i)), !=, uri);
}

/* Every bundled recording (the H200's, which the window starts with, and
 * the H100's) is in the main menu, by the GPU it was made on: in place of
 * the main recording, or beside it; neither is counted among the recent
 * files. */
static void
test_bundled (Fixture       *f,
              gconstpointer  data)
{
  WsWindow *w = f->window;
  g_auto (GStrv) paths = ws_recording_bundled_paths ();
  guint n = g_strv_length (paths);
  g_autofree char *default_path = ws_recording_bundled_default ();
  const char *other = NULL;
  g_autoptr (GFile) file = NULL;
  g_autoptr (WsRecording) opened = NULL;
  g_autoptr (GPtrArray) recent = NULL;
  g_autofree char *uri = NULL;

  if (n == 0)
    {
      g_test_skip ("no recording is bundled");
      return;
    }
  for (guint m = 0; m < 2; m++)
    {
      GMenuModel *menu = ws_window_get_menu (w, m == 0 ? "bundled-open" : "bundled-add");

      g_assert_cmpint (g_menu_model_get_n_items (menu), ==, (int) n);
      for (guint i = 0; i < n; i++)
        {
          g_autoptr (GVariant) target = g_menu_model_get_item_attribute_value (menu, i, G_MENU_ATTRIBUTE_TARGET,
                                                                               G_VARIANT_TYPE_STRING);
          g_autofree char *label = NULL;
          g_autofree char *name = g_path_get_basename (paths[i]);

          g_assert_true (g_menu_model_get_item_attribute (menu, i, G_MENU_ATTRIBUTE_LABEL, "s", &label));
          g_assert_cmpstr (g_variant_get_string (target, NULL), ==, paths[i]);
          if (g_str_equal (name, "h100.json"))
            g_assert_cmpstr (label, ==, "H100");
          if (g_str_equal (name, "h200.json"))
            g_assert_cmpstr (label, ==, "H200");
        }
    }

  /* one other than the one open, where there is one */
  for (guint i = 0; i < n && other == NULL; i++)
    if (g_strcmp0 (paths[i], default_path) != 0)
      other = paths[i];
  if (other == NULL)
    other = default_path;
  file = g_file_new_for_path (other);
  opened = ws_recording_load_file (file, NULL, NULL);
  g_assert_nonnull (opened);
  gtk_widget_activate_action (GTK_WIDGET (w), "win.add-bundled", "s", other);
  wait_opened (w);
  g_assert_cmpuint (ws_session_get_compared (ws_window_get_session (w))->len, ==, 1);
  g_assert_cmpstr (ws_recording_get_device (g_ptr_array_index (ws_session_get_compared (ws_window_get_session (w)), 0))->name, ==,
                   ws_recording_get_device (opened)->name);

  gtk_widget_activate_action (GTK_WIDGET (w), "win.open-bundled", "s", other);
  wait_opened (w);
  g_assert_cmpstr (ws_session_get_recording_path (ws_window_get_session (w)), ==, other);
  g_assert_cmpstr (ws_recording_get_device (ws_session_get_recording (ws_window_get_session (w)))->name, ==,
                   ws_recording_get_device (opened)->name);

  uri = g_filename_to_uri (other, NULL, NULL);
  g_assert_false (gtk_recent_manager_has_item (gtk_recent_manager_get_default (), uri));
  recent = ws_window_recent_recordings ();
  for (guint i = 0; i < recent->len; i++)
    g_assert_cmpstr (gtk_recent_info_get_uri (g_ptr_array_index (recent, i)), !=, uri);
}

static void
test_drop (Fixture       *f,
           gconstpointer  data)
{
  WsWindow *w = f->window;
  g_autofree char *laptop = laptop_recording (ws_session_get_recording (ws_window_get_session (w)));
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (w));
  GtkDropTarget *target = NULL;
  GSList *files = NULL;
  GValue value = G_VALUE_INIT;
  gboolean accepted = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (controllers) && target == NULL; i++)
    {
      g_autoptr (GObject) c = g_list_model_get_item (controllers, i);
      if (GTK_IS_DROP_TARGET (c))
        target = GTK_DROP_TARGET (c);
    }
  g_assert_nonnull (target);
  /* two files: the first opens, the second is plotted beside it */
  files = g_slist_append (files, g_file_new_for_path (f->recording_path));
  files = g_slist_append (files, g_file_new_for_path (laptop));
  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_take_boxed (&value, gdk_file_list_new_from_list (files));
  g_signal_emit_by_name (target, "drop", &value, 10.0, 10.0, &accepted);
  g_value_unset (&value);
  g_slist_free_full (files, g_object_unref);
  g_assert_true (accepted);
  wait_opened (w);
  g_assert_cmpstr (ws_session_get_recording_path (ws_window_get_session (w)), ==, f->recording_path);
  g_assert_cmpuint (ws_session_get_compared (ws_window_get_session (w))->len, ==, 1);
  g_assert_cmpstr (ws_recording_get_device (g_ptr_array_index (ws_session_get_compared (ws_window_get_session (w)), 0))->name, ==, LAPTOP);
  g_unlink (laptop);
}

/* ------------------------------------------------------------------ */
/* Exports                                                            */
/* ------------------------------------------------------------------ */

/* A PNG w wide and h high, or at least h high when it may grow. */
static void
assert_png (const char *path,
            double      w,
            double      h,
            gboolean    may_grow)
{
  cairo_surface_t *png = cairo_image_surface_create_from_png (path);

  g_assert_cmpint (cairo_surface_status (png), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (png), ==, (int) ceil (w));
  if (may_grow)
    g_assert_cmpint (cairo_image_surface_get_height (png), >=, (int) ceil (h));
  else
    g_assert_cmpint (cairo_image_surface_get_height (png), ==, (int) ceil (h));
  cairo_surface_destroy (png);
}

static void
assert_file (const char *path,
             const char *format)
{
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  gsize length;

  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  if (g_str_equal (format, "svg"))
    {
      SvgSummary svg;

      svg_summary_read (&svg, path);
      g_assert_cmpstr (svg.root, ==, "svg");
      g_assert_cmpuint (svg.paths, >, 100);
      svg_summary_clear (&svg);
    }
  else if (g_str_equal (format, "pdf"))
    g_assert_true (g_str_has_prefix (contents, "%PDF-"));
  else if (g_str_equal (format, "csv"))
    g_assert_true (g_str_has_prefix (contents, "series,"));
  else if (g_str_equal (format, "json"))
    {
      g_autoptr (JsonParser) json = json_parser_new ();
      g_assert_true (json_parser_load_from_data (json, contents, length, &error));
      g_assert_no_error (error);
      g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (json)));
    }
}

/* Every format of what, the PNG at scale 1.5 of the widget's size (no less
 * than min; higher where the figure needs more to be legible). */
static void
export_all (WsWindow       *w,
            WsWindowExport  what,
            const char     *stem,
            GtkWidget      *widget,
            double          min_w,
            double          min_h,
            gboolean        may_grow)
{
  static const char *formats[] = { "png", "svg", "pdf", "csv", "json" };

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_autofree char *name = g_strdup_printf ("%s.%s", stem, formats[i]);
      g_autofree char *path = screenshot_path (name);
      g_autoptr (GError) error = NULL;

      g_assert_true (ws_window_export (w, what, path, 1.5, &error));
      g_assert_no_error (error);
      if (i == 0)
        assert_png (path, 1.5 * MAX (min_w, gtk_widget_get_width (widget)),
                    1.5 * MAX (min_h, gtk_widget_get_height (widget)), may_grow);
      else
        assert_file (path, formats[i]);
    }
}

static void
test_exports (Fixture       *f,
              gconstpointer  data)
{
  WsWindow *w = f->window;
  g_autoptr (GError) error = NULL;
  g_autofree char *bad = screenshot_path ("export.gif");

  load (f, "banks/padding");
  export_all (w, WS_WINDOW_EXPORT_FIGURE, "export-banks-padding", GTK_WIDGET (page_figure (w, WS_FIGURE_BANKS)), 800, 480,
              TRUE);
  export_all (w, WS_WINDOW_EXPORT_PLOT, "export-banks-padding-plot", GTK_WIDGET (plot_chart_view (w)), 800, 450, TRUE);
  compare (f, transpose);
  /* four views and a chart: higher than the page, where they need it */
  export_all (w, WS_WINDOW_EXPORT_FIGURE, "export-compare-transpose", GTK_WIDGET (compare_view (w)), 1200, 800, TRUE);
  export_all (w, WS_WINDOW_EXPORT_PLOT, "export-compare-transpose-plot",
              GTK_WIDGET (ws_compare_view_get_chart (compare_view (w))), 800, 450, TRUE);
  /* in the dark screen style too */
  g_settings_set_string (window_settings (), "export-style", "screen");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  export_all (w, WS_WINDOW_EXPORT_FIGURE, "export-compare-transpose-dark", GTK_WIDGET (compare_view (w)), 1200, 800, TRUE);
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_LIGHT);
  g_settings_reset (window_settings (), "export-style");

  g_assert_false (ws_window_export (w, WS_WINDOW_EXPORT_FIGURE, bad, 1, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_assert_false (g_file_test (bad, G_FILE_TEST_EXISTS));
}

/* What a widget shows on screen, as pixels. */
static cairo_surface_t *
widget_pixels (GtkWidget *widget)
{
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);

  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), w, h);
  node = gtk_snapshot_free_to_node (snapshot);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, w, h));
  cairo_surface_flush (surface);
  gdk_texture_download (texture, cairo_image_surface_get_data (surface), cairo_image_surface_get_stride (surface));
  cairo_surface_mark_dirty (surface);
  return surface;
}

/* The share of pixels that differ by more than a rounding. */
static double
differ (cairo_surface_t *a,
        cairo_surface_t *b)
{
  int w = cairo_image_surface_get_width (a), h = cairo_image_surface_get_height (a);
  guint64 n = 0;

  g_assert_cmpint (w, ==, cairo_image_surface_get_width (b));
  g_assert_cmpint (h, ==, cairo_image_surface_get_height (b));
  for (int y = 0; y < h; y++)
    {
      const guint8 *pa = cairo_image_surface_get_data (a) + y * cairo_image_surface_get_stride (a);
      const guint8 *pb = cairo_image_surface_get_data (b) + y * cairo_image_surface_get_stride (b);
      for (int x = 0; x < w * 4; x += 4)
        n += ABS (pa[x] - pb[x]) > 2 || ABS (pa[x + 1] - pb[x + 1]) > 2 || ABS (pa[x + 2] - pb[x + 2]) > 2;
    }
  return (double) n / ((double) w * h);
}

/* The figure view at its size, drawn for export in the screen style. */
static double
view_against_export (WsWindow *w,
                     double    position)
{
  GtkWidget *view = GTK_WIDGET (page_figure (w, WS_FIGURE_WARP));
  g_autofree char *title = ws_explore_page_describe_pattern (ws_window_get_explore_page (w));
  const WsFigureStyle *style = ws_window_export_style (w);
  WsExportFigure figure;
  cairo_surface_t *screen, *exported;
  double share;

  ws_schedule_player_set_playing (page_player (w), FALSE);
  ws_schedule_player_set_position (page_player (w), position);
  wait_frames (w);
  g_assert_true (style == ws_figure_view_get_style (WS_FIGURE_VIEW (view)));
  figure = (WsExportFigure) { WS_FIGURE_WARP, { ws_figure_view_get_result (WS_FIGURE_VIEW (view)), title,
                                                ws_pattern_get_block (page_pattern (w)), position, WS_FIGURE_HIT_NONE } };
  screen = widget_pixels (view);
  exported = ws_export_to_image (gtk_widget_get_width (view), gtk_widget_get_height (view), 1, style,
                                 ws_export_draw_figure, &figure);
  share = differ (screen, exported);
  cairo_surface_destroy (screen);
  cairo_surface_destroy (exported);
  return share;
}

/* What is on screen and what is exported come from one renderer: the
 * screen style's export at the widget's size is the widget, pixel for
 * pixel. (In the middle of a step, the view draws what moves apart from
 * what stands still, and the two layers blend a little differently.) */
static void
test_same_renderer (Fixture       *f,
                    gconstpointer  data)
{
  WsWindow *w = f->window;
  const WsFigureStyle *style;
  cairo_surface_t *screen, *exported;
  double share;

  g_settings_set_string (window_settings (), "export-style", "screen");
  load (f, "coalescing/offset");
  share = view_against_export (w, ws_schedule_player_get_n_steps (page_player (w)));
  g_test_message ("served: the warp view differs from its export in %.4f %% of its pixels", 100 * share);
  g_assert_cmpfloat (share, ==, 0);
  share = view_against_export (w, 2.5);
  g_test_message ("a step in flight: the warp view differs from its export in %.4f %% of its pixels", 100 * share);
  g_assert_cmpfloat (share, <, 0.01);

  /* and the plot */
  style = ws_window_export_style (w);
  screen = widget_pixels (GTK_WIDGET (plot_chart_view (w)));
  exported = ws_export_to_image (gtk_widget_get_width (GTK_WIDGET (plot_chart_view (w))),
                                 gtk_widget_get_height (GTK_WIDGET (plot_chart_view (w))), 1, style, ws_export_draw_chart,
                                 ws_chart_view_get_chart (plot_chart_view (w)));
  share = differ (screen, exported);
  g_test_message ("the plot differs from its export in %.4f %% of its pixels", 100 * share);
  g_assert_cmpfloat (share, ==, 0);
  cairo_surface_destroy (screen);
  cairo_surface_destroy (exported);
  g_settings_reset (window_settings (), "export-style");
}

static void
add_tests (void)
{
#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/window/compare/page", test_compare_page);
  ADD ("/window/compare/two-recordings", test_two_recordings);
  ADD ("/window/compare/not-measured-here", test_not_measured_here);
  ADD ("/window/compare/kernel", test_compare_kernel);
  ADD ("/window/recordings/bad-file", test_bad_recording);
  ADD ("/window/recordings/save-and-open", test_save_and_open);
  ADD ("/window/recordings/drop", test_drop);
  ADD ("/window/recordings/open-from-files", test_open_from_files);
  ADD ("/window/recordings/bundled", test_bundled);
  ADD ("/window/export/every-format", test_exports);
  ADD ("/window/export/same-renderer", test_same_renderer);
#undef ADD
}

int
main (int   argc,
      char *argv[])
{
  return window_test_run (&argc, &argv, add_tests);
}
