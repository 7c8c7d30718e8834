/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The explorer's Hierarchy view on its own, through its public API, under
 * Xvfb: a preset's launch followed below L1 on the session's device (the
 * bundled recording's GPU), the counters of its recorded measurement
 * beside the model's, a pattern whose L1 figures are not in yet, and one
 * that is cleared. */
#include "ws-config.h"
#include "page-fixture.h"
#include "ws-hierarchy-page.h"
#include "ws-plot.h"
#include "ws-presets.h"

#include <adwaita.h>
#include <math.h>
#include <string.h>

static gboolean
modelled (gpointer data)
{
  return !ws_hierarchy_page_is_running (data);
}

static void
on_changed (WsHierarchyPage *page,
            guint           *n)
{
  (*n)++;
}

static void
test_page (void)
{
  g_autoptr (WsSession) session = page_new_session ();
  const WsPreset *preset = ws_preset_lookup ("coalescing/sequential");
  g_autoptr (WsPattern) pattern = ws_preset_build (preset);
  GtkWidget *window = gtk_window_new ();
  WsHierarchyPage *page = g_object_new (WS_TYPE_HIERARCHY_PAGE, "session", session, NULL);
  const WsDeviceProfile *profile = ws_session_get_device_profile (session);
  const WsMeasurement *recorded;
  g_autofree char *source = NULL;
  const WsHierarchyFigure *fig;
  guint changed = 0;

  g_signal_connect (page, "changed", G_CALLBACK (on_changed), &changed);
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 600);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (ws_hierarchy_page_get_session (page) == session);
  if (profile == NULL)
    {
      g_test_skip ("no profile for the bundled recording's GPU");
      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }

  /* the launch's L1 figures not in yet: it says it follows the launch */
  ws_hierarchy_page_follow (page, preset, pattern, FALSE, FALSE);
  g_assert_false (ws_hierarchy_page_is_running (page));
  g_assert_null (ws_hierarchy_page_get_model (page));
  fig = ws_hierarchy_view_get_figure (ws_hierarchy_page_get_view (page));
  g_assert_nonnull (fig->message);
  g_assert_nonnull (strstr (fig->message, "Following the launch"));
  g_assert_cmpuint (changed, >, 0);

  /* then followed on the session's model thread */
  changed = 0;
  ws_hierarchy_page_follow (page, preset, pattern, FALSE, TRUE);
  g_assert_true (ws_hierarchy_page_is_running (page));
  g_assert_true (page_wait_until (modelled, page, 300));
  g_assert_cmpuint (changed, ==, 2);
  g_assert_null (ws_hierarchy_page_get_error (page));
  g_assert_nonnull (ws_hierarchy_page_get_model (page));
  g_assert_cmpfloat (ws_hierarchy_page_get_model (page)->predicted_s, >, 0);
  fig = ws_hierarchy_view_get_figure (ws_hierarchy_page_get_view (page));
  g_assert_null (fig->message);
  g_assert_nonnull (strstr (fig->subtitle, profile->name));
  g_assert_cmpfloat (fig->flows[1][WS_HIER_READ].bytes.model, >, 0);
  g_assert_true (isnan (fig->flows[1][WS_HIER_READ].bytes.counted));

  /* a measurement's counters beside the model's (the bundled recording
   * has none: the recorded median with counters as an H200 counts them) */
  recorded = ws_plot_recorded_one (ws_session_get_recording (session), preset, pattern);
  g_assert_nonnull (recorded);
  source = ws_plot_recording_name (ws_session_get_recording (session));
  {
    g_autoptr (WsMeasurement) counted = ws_measurement_copy (recorded);

    ws_measurement_add_counter (counted, "lts__t_sectors_srcunit_tex_op_read.sum", 4194304);
    ws_measurement_add_counter (counted, "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum", 0);
    ws_measurement_add_counter (counted, "dram__bytes_read.sum", 134217728);
    ws_hierarchy_page_set_measurement (page, counted, source, 1);
  }
  fig = ws_hierarchy_view_get_figure (ws_hierarchy_page_get_view (page));
  g_assert_cmpfloat (fig->flows[1][WS_HIER_READ].bytes.counted, ==, 4194304 * 32.0);
  g_assert_cmpint (fig->counted_hue, ==, 1);
  g_assert_nonnull (strstr (fig->subtitle, source));

  /* an edited pattern is named so; the measurement set before is still
   * shown (the page keeps its own copy) */
  ws_hierarchy_page_follow (page, preset, pattern, TRUE, TRUE);
  g_assert_true (page_wait_until (modelled, page, 300));
  fig = ws_hierarchy_view_get_figure (ws_hierarchy_page_get_view (page));
  g_assert_nonnull (strstr (fig->title, "edited"));
  g_assert_cmpfloat (fig->flows[1][WS_HIER_READ].bytes.counted, ==, 4194304 * 32.0);

  /* a wrong pattern shows nothing */
  ws_hierarchy_page_clear (page);
  g_assert_null (ws_hierarchy_view_get_figure (ws_hierarchy_page_get_view (page)));
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int    argc,
      char **argv)
{
  g_setenv ("LC_ALL", "C.UTF-8", TRUE);
  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    {
      g_test_message ("no display: the page is a widget");
      return 77;
    }
  adw_init ();
  g_test_add_func ("/hierarchy-page/follows", test_page);
  return g_test_run ();
}
