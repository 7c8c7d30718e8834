/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Compare page on its own, through its public API, under Xvfb: a
 * session given to it, what it compares at first, presets chosen from code
 * and from the session, counts and ids it refuses, a kernel file that does
 * not read (said in its "toast", the comparison kept), the chart of the
 * model's times, and a session taken away and given again. */
#include "ws-config.h"
#include "page-fixture.h"
#include "ws-compare-page.h"
#include "ws-comparison.h"

#include <adwaita.h>
#include <string.h>

static gboolean
page_settled (gpointer data)
{
  return ws_compare_page_is_settled (data);
}

/* The ids the choosers show, and the session's items, are these. */
static void
assert_compares (WsComparePage      *page,
                 const char * const *ids)
{
  g_auto (GStrv) shown = ws_compare_view_get_ids (ws_compare_page_get_view (page));
  GPtrArray *items = ws_session_get_comparison (ws_compare_page_get_session (page));
  guint n = g_strv_length ((char **) ids);

  g_assert_cmpuint (g_strv_length (shown), ==, n);
  g_assert_nonnull (items);
  g_assert_cmpuint (items->len, ==, n);
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpstr (shown[i], ==, ids[i]);
      g_assert_cmpstr (((WsCompareItem *) g_ptr_array_index (items, i))->id, ==, ids[i]);
    }
}

static void
on_toast (WsComparePage *page,
          const char    *text,
          GPtrArray     *said)
{
  g_ptr_array_add (said, g_strdup (text));
}

static void
test_page (void)
{
  g_autoptr (WsSession) session = page_new_session ();
  g_autoptr (GPtrArray) said = g_ptr_array_new_with_free_func (g_free);
  guint n_sets;
  const WsCompareSet *sets = ws_compare_sets_get_all (&n_sets);
  GtkWidget *window = gtk_window_new ();
  WsComparePage *page = g_object_new (WS_TYPE_COMPARE_PAGE, "session", session, NULL);
  const char *two[] = { "coalescing/sequential", "coalescing/stride", NULL };
  const char *three[] = { "banks/stride", "banks/padding", "banks/broadcast", NULL };
  const char *one[] = { "coalescing/sequential", NULL };
  const char *unknown[] = { "coalescing/sequential", "coalescing/no-such-preset", NULL };
  g_autofree char *missing = g_build_filename (g_get_tmp_dir (), "warpscope-no-such-kernel.cu", NULL);
  g_autoptr (WsChart) chart = NULL;
  g_autoptr (GError) error = NULL;

  g_signal_connect (page, "toast", G_CALLBACK (on_toast), said);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 720);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  gtk_window_present (GTK_WINDOW (window));

  /* a session with no comparison: the first set's, set in the session
   * (the transposes at 8192², whose model is not waited for: under the
   * sanitizers it takes a minute) */
  g_assert_true (ws_compare_page_get_session (page) == session);
  assert_compares (page, sets[0].ids);

  /* chosen from code, and charted once the model's times have come */
  g_assert_true (ws_compare_page_compare (page, two));
  assert_compares (page, two);
  g_assert_true (page_wait_until (page_settled, page, 120));
  chart = ws_compare_page_build_chart (page);
  g_assert_nonnull (chart);
  g_assert_cmpuint (chart->axes[WS_CHART_X].categories->len, ==, 2);
  g_clear_pointer (&chart, ws_chart_free);
  /* refused, changing nothing: one item, an id that is no preset */
  g_assert_false (ws_compare_page_compare (page, one));
  g_assert_false (ws_compare_page_compare (page, unknown));
  assert_compares (page, two);
  /* set in the session (a script, the command line): the choosers follow */
  g_assert_true (ws_session_set_comparison (session, three, &error));
  g_assert_no_error (error);
  assert_compares (page, three);
  g_assert_true (page_wait_until (page_settled, page, 120));
  chart = ws_compare_page_build_chart (page);
  g_assert_cmpuint (chart->axes[WS_CHART_X].categories->len, ==, 3);

  /* a kernel file that does not read: said, and the comparison stays */
  g_assert_cmpuint (said->len, ==, 0);
  ws_compare_page_add_kernel (page, missing);
  g_assert_cmpuint (said->len, ==, 1);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (said, 0), "Could not compare: "));
  g_assert_nonnull (strstr (g_ptr_array_index (said, 0), "warpscope-no-such-kernel.cu"));
  assert_compares (page, three);

  /* no session, then another: the new one's comparison (none yet: the first set) */
  ws_compare_page_set_session (page, NULL);
  g_assert_null (ws_compare_page_build_chart (page));
  {
    g_autoptr (WsSession) other = page_new_session ();

    ws_compare_page_set_session (page, other);
    assert_compares (page, sets[0].ids);
    gtk_window_destroy (GTK_WINDOW (window));
  }
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
  g_test_add_func ("/compare-page/session", test_page);
  return g_test_run ();
}
