/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The explorer window, for real, under Xvfb: it opens and settles; every
 * preset draws something in each view that applies to it; editing the
 * index updates the model's figures; an invalid index shows its error and
 * keeps the last good view; a sweep from the recording plots every point.
 * Screenshots, light and dark, land in screenshots/ of the build. Under
 * WS_TEST_SAMPLE (the sanitized run), a share of the presets, every topic
 * and view twice at least (sample.h). */
#include "window-fixture.h"
#include "sample.h"

#include "ws-device-json.h"

#include <math.h>
#include <glib/gstdio.h>
#include <string.h>

static void
test_opens (Fixture       *f,
            gconstpointer  data)
{
  WsWindow *w = f->window;

  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (w)));
  g_assert_nonnull (ws_window_get_preset_id (w));
  g_assert_true (ws_session_get_probed (ws_window_get_session (w)));
  g_assert_true (ws_session_get_recording_loaded (ws_window_get_session (w)));
  if (ws_session_get_recording (ws_window_get_session (w)) == NULL)
    g_error ("the recording did not load: %s", ws_session_get_recording_error (ws_window_get_session (w))->message);
  if (ws_session_get_device (ws_window_get_session (w)) == NULL)
    {
      /* no GPU: the banner says why, and names the recording's device */
      g_assert_true (ws_banner_get_revealed (ws_window_get_banner (w)));
      g_assert_true (g_str_has_prefix (ws_banner_get_title (ws_window_get_banner (w)), "No GPU"));
      g_assert_nonnull (ws_session_get_recording (ws_window_get_session (w)));
      g_assert_nonnull (strstr (ws_banner_get_title (ws_window_get_banner (w)), ws_recording_get_device (ws_session_get_recording (ws_window_get_session (w)))->name));
    }
  save_screenshot (w, "window-opens-light.png");
}

/* Under WS_TEST_SAMPLE, every topic and every view twice at least: a
 * preset is loaded, or not, with all its instructions and views. */
static gboolean
keep_preset (Sample         *sample,
             const WsPreset *preset)
{
  g_autoptr (WsPattern) pattern = ws_preset_build (preset);
  g_autoptr (GPtrArray) kinds = g_ptr_array_new_with_free_func (g_free);

  g_ptr_array_add (kinds, g_strdup_printf ("topic %s", preset->topic));
  for (guint a = 0; a < ws_pattern_get_n_accesses (pattern); a++)
    for (guint k = 0; k < WS_N_FIGURES; k++)
      if (ws_figure_applies (k, ws_pattern_get_access (pattern, a)->space, ws_pattern_get_access (pattern, a)->kind))
        g_ptr_array_add (kinds, g_strdup_printf ("%s view", ws_figure_kind_to_string (k)));
  g_ptr_array_add (kinds, NULL);
  return sample_keepv (sample, (const char * const *) kinds->pdata);
}

static void
test_every_preset_draws (Fixture       *f,
                         gconstpointer  data)
{
  guint n_presets, checked = 0;
  const WsPreset *presets = ws_presets_get_all (&n_presets);
  WsWindow *w = f->window;
  Sample sample;

  sample_init (&sample, "presets", 2);
  for (guint p = 0; p < n_presets; p++)
    {
      if (!keep_preset (&sample, &presets[p]))
        continue;
      load (f, presets[p].id);
      /* its text, the names it quotes set in monospace, never a backtick */
      g_assert_null (strchr (ws_preset_intro_get_summary (page_intro (w)), '`'));
      g_assert_cmpuint (strlen (ws_preset_intro_get_summary (page_intro (w))), >, 40);
      for (guint a = 0; a < ws_pattern_get_n_accesses (page_pattern (w)); a++)
        {
          ws_pattern_editor_set_access (page_editor (w), a);
          wait_frames (w);
          for (guint k = 0; k < WS_N_FIGURES; k++)
            {
              double share;

              if (!ws_figure_applies (k, page_result (w)->space, page_result (w)->kind))
                continue;
              gtk_stack_set_visible_child (page_views (w), GTK_WIDGET (page_figure (w, k)));
              wait_frames (w);
              share = widget_ink (GTK_WIDGET (page_figure (w, k)));
              if (share < 0.01)
                g_error ("%s, instruction %u, %s view: only %.2f %% drawn", presets[p].id, a,
                         ws_figure_kind_to_string (k), 100 * share);
              checked++;
            }
        }
      /* and the plot beside it */
      g_assert_cmpfloat (widget_ink (GTK_WIDGET (plot_chart_view (w))), >, 0.01);
    }
  g_test_message ("%u views checked", checked);
  sample_finish (&sample);
}

static gboolean
launch_analysed (gpointer data)
{
  WsWindow *w = data;
  return page_launch (w) != NULL && page_launch (w)->pattern == page_pattern (w);
}

static void
type_index (WsWindow   *w,
            const char *text)
{
  gtk_editable_set_text (ws_pattern_editor_get_index_entry (page_editor (w)), text);
}

static void
test_edit_updates_model (Fixture       *f,
                         gconstpointer  data)
{
  WsWindow *w = f->window;

  load (f, "coalescing/sequential");
  g_assert_cmpstr (ws_numbers_view_get_value (page_numbers (w), "sectors-per-request"), ==, "4.00");
  g_assert_cmpstr (ws_numbers_view_get_value (page_numbers (w), "coalescing"), ==, "100.0 %");
  type_index (w, "i * 2");
  g_assert_cmpstr (ws_pattern_editor_get_error (page_editor (w)), ==, NULL);
  g_assert_cmpuint (page_result (w)->counts.sectors, ==, 8);
  g_assert_true (wait_until (launch_analysed, w, 20000));
  g_assert_cmpstr (ws_numbers_view_get_value (page_numbers (w), "sectors-per-request"), ==, "8.00");
  g_assert_cmpstr (ws_numbers_view_get_value (page_numbers (w), "coalescing"), ==, "50.0 %");
  g_assert_true (ws_explore_page_get_edited (ws_window_get_explore_page (w)));
  wait_settled (w);
  save_screenshot (w, "window-edited-light.png");

  /* a pattern of one's own starts from the default element size */
  g_settings_set_uint (window_settings (), "default-elem-size", 8);
  gtk_widget_activate_action (GTK_WIDGET (w), "win.new-pattern", NULL);
  g_assert_null (ws_window_get_preset_id (w));
  g_assert_cmpuint (page_result (w)->elem_size, ==, 8);
  g_assert_cmpuint (page_result (w)->counts.sectors, ==, 8);
  g_assert_null (ws_preset_sidebar_get_selected (ws_window_get_sidebar (w)));
  wait_settled (w);
  g_settings_reset (window_settings (), "default-elem-size");
}

static void
test_invalid_expression (Fixture       *f,
                         gconstpointer  data)
{
  WsWindow *w = f->window;
  const WsWarpResult *before;
  GtkWidget *entry = GTK_WIDGET (ws_pattern_editor_get_index_entry (page_editor (w)));

  load (f, "coalescing/offset");
  before = page_result (w);
  g_assert_cmpuint (before->counts.sectors, ==, 5);
  type_index (w, "i + offset *");
  g_assert_nonnull (ws_pattern_editor_get_error (page_editor (w)));
  g_assert_true (g_str_has_prefix (ws_pattern_editor_get_error (page_editor (w)), "column 13:"));
  g_assert_true (gtk_widget_has_css_class (entry, "error"));
  /* the last good pattern stays the window's, but nothing of it is drawn
   * as if it were what the editor shows */
  g_assert_true (page_result (w) == before);
  g_assert_cmpuint (page_result (w)->counts.sectors, ==, 5);
  g_assert_null (ws_figure_view_get_result (page_figure (w, WS_FIGURE_WARP)));

  /* an unknown name is pointed at too */
  type_index (w, "i + ofset");
  g_assert_cmpstr (ws_pattern_editor_get_error (page_editor (w)), ==,
                   "column 5: “ofset” is neither a parameter nor a definition");
  wait_frames (w);
  save_screenshot (w, "window-invalid-light.png");

  type_index (w, "i + offset");
  g_assert_null (ws_pattern_editor_get_error (page_editor (w)));
  g_assert_false (gtk_widget_has_css_class (entry, "error"));
  g_assert_nonnull (ws_figure_view_get_result (page_figure (w, WS_FIGURE_WARP)));
  g_assert_cmpuint (ws_figure_view_get_result (page_figure (w, WS_FIGURE_WARP))->counts.sectors, ==, 5);
}

static gboolean
sweep_over (gpointer data)
{
  return !ws_window_is_sweeping (data);
}

static guint
series_points (WsWindow   *w,
               const char *prefix)
{
  WsChart *chart = ws_chart_view_get_chart (plot_chart_view (w));

  for (guint i = 0; i < chart->series->len; i++)
    {
      WsChartSeries *s = g_ptr_array_index (chart->series, i);
      if (g_str_has_prefix (s->name, prefix))
        return s->points->len;
    }
  return 0;
}

static void
test_sweep_from_recording (Fixture       *f,
                           gconstpointer  data)
{
  WsWindow *w = f->window;
  guint last = 0, updates = 0;

  if (ws_session_get_device (ws_window_get_session (w)))
    {
      g_test_skip ("a GPU is here: sweeps are measured, not replayed");
      return;
    }
  load (f, SWEEP_PRESET);
  g_assert_cmpuint (f->n_recorded, >, 4);
  g_assert_cmpuint (series_points (w, "recorded on"), ==, f->n_recorded);
  g_assert_cmpuint (series_points (w, "model:"), ==, f->n_recorded);
  g_assert_true (gtk_widget_is_sensitive (ws_plot_panel_get_sweep_button (page_plot (w))));
  gtk_widget_activate_action (GTK_WIDGET (w), "win.sweep", NULL);
  g_assert_true (ws_window_is_sweeping (w));
  g_assert_true (gtk_widget_get_mapped (ws_plot_panel_get_cancel_button (page_plot (w))));
  g_assert_true (gtk_widget_get_mapped (ws_plot_panel_get_cancel_button (page_plot (w))));
  g_assert_false (gtk_widget_get_mapped (ws_plot_panel_get_sweep_button (page_plot (w))));
  /* point by point */
  while (ws_window_is_sweeping (w))
    {
      guint n = series_points (w, "recorded on");
      g_assert_cmpuint (n, >=, last);
      if (n > last)
        updates++;
      last = n;
      if (n == f->n_recorded / 2)
        {
          g_autofree char *path = screenshot_path ("window-sweep-running-light.png");
          g_autoptr (GError) error = NULL;
          wait_frames (w);
          ws_window_save_screenshot (w, path, &error);
          g_assert_no_error (error);
        }
      g_main_context_iteration (NULL, TRUE);
    }
  /* a slowed-down run may draw two points in one frame now and then */
  g_assert_cmpuint (updates, >=, timeout_scale () > 1 ? f->n_recorded / 2 : f->n_recorded - 1);
  g_assert_cmpuint (ws_sweep_get_done (ws_session_get_sweep (ws_window_get_session (w))), ==, f->n_recorded);
  g_assert_cmpuint (series_points (w, "recorded on"), ==, f->n_recorded);
  g_assert_true (gtk_widget_get_mapped (ws_plot_panel_get_sweep_button (page_plot (w))));
  g_assert_false (gtk_widget_get_mapped (ws_plot_panel_get_sweep_progress (page_plot (w))));
  save_screenshot (w, "window-sweep-light.png");

  /* and a sweep can be cancelled */
  gtk_widget_activate_action (GTK_WIDGET (w), "win.sweep", NULL);
  g_assert_true (ws_window_is_sweeping (w));
  gtk_widget_activate_action (GTK_WIDGET (w), "win.cancel-sweep", NULL);
  g_assert_true (wait_until (sweep_over, w, 1000));
  g_assert_cmpuint (series_points (w, "recorded on"), ==, f->n_recorded);
}

static void
test_actions_and_state (Fixture       *f,
                        gconstpointer  data)
{
  WsWindow *w = f->window;
  g_autoptr (GSettings) settings = g_settings_new (WS_APP_ID);
  g_autofree char *last = NULL;
  const char *formats[] = { "png", "svg", "pdf" };
  guint n;

  load (f, "banks/padding");
  last = g_settings_get_string (settings, "last-preset");
  g_assert_cmpstr (last, ==, "banks/padding");

  /* play, pause, step */
  n = ws_schedule_player_get_n_steps (page_player (w));
  g_assert_cmpuint (n, ==, 32);
  gtk_widget_activate_action (GTK_WIDGET (w), "win.restart", NULL);
  g_assert_true (ws_schedule_player_get_playing (page_player (w)));
  gtk_widget_activate_action (GTK_WIDGET (w), "win.playing", NULL);
  g_assert_false (ws_schedule_player_get_playing (page_player (w)));
  ws_schedule_player_set_position (page_player (w), 0);
  gtk_widget_activate_action (GTK_WIDGET (w), "win.step-forward", NULL);
  gtk_widget_activate_action (GTK_WIDGET (w), "win.step-forward", NULL);
  g_assert_cmpfloat (ws_schedule_player_get_position (page_player (w)), ==, 2);
  gtk_widget_activate_action (GTK_WIDGET (w), "win.step-back", NULL);
  g_assert_cmpfloat (ws_figure_view_get_position (page_figure (w, WS_FIGURE_BANKS)), ==, 1);

  /* pointing at a lane says what it is */
  {
    GtkWidget *view = GTK_WIDGET (page_figure (w, WS_FIGURE_BANKS));
    g_autofree char *found = NULL;
    for (int y = 0; y < gtk_widget_get_height (view) && found == NULL; y += 4)
      for (int x = 0; x < gtk_widget_get_width (view) && found == NULL; x += 4)
        {
          g_autofree char *text = ws_figure_view_describe_at (WS_FIGURE_VIEW (view), x, y);
          if (text && g_str_has_prefix (text, "Lane 3 — threadIdx (3, 0, 0)"))
            found = g_steal_pointer (&text);
        }
    g_assert_nonnull (found);
    g_assert_nonnull (strstr (found, "bank 0"));
  }

  /* the speed is remembered */
  ws_schedule_player_set_speed (page_player (w), 4);
  g_assert_cmpfloat (g_settings_get_double (settings, "animation-speed"), ==, 4);
  g_assert_cmpfloat (ws_player_controls_get_shown_speed (page_controls (w)), ==, 4);
  ws_schedule_player_set_speed (page_player (w), 1);

  /* the primary menu's application windows open over this one */
  {
    const char *actions[] = { "app.about", "app.preferences", "app.help" };
    for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
      {
        GListModel *toplevels = gtk_window_get_toplevels ();
        guint before = g_list_model_get_n_items (toplevels);
        GtkWindow *opened;

        g_assert_true (gtk_widget_activate_action (GTK_WIDGET (w), actions[i], NULL));
        g_assert_cmpuint (g_list_model_get_n_items (toplevels), ==, before + 1);
        opened = g_list_model_get_item (toplevels, before);
        g_assert_true (opened != GTK_WINDOW (w));
        g_assert_true (gtk_window_get_transient_for (opened) == GTK_WINDOW (w));
        gtk_window_destroy (opened);
        g_object_unref (opened);
      }
  }

  /* the figure, exported in each format */
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_autofree char *name = g_strdup_printf ("export-banks-padding.%s", formats[i]);
      g_autofree char *path = screenshot_path (name);
      g_autoptr (GError) error = NULL;
      g_autofree char *contents = NULL;
      gsize length;

      g_assert_true (ws_window_export_figure (w, path, &error));
      g_assert_no_error (error);
      g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
      g_assert_cmpuint (length, >, 2000);
    }
}

/* A measurement with counters (as a GPU makes with Measure) shows the
 * counted figure beside the model's. */
static void
test_counters_beside_model (Fixture       *f,
                            gconstpointer  data)
{
  WsWindow *w = f->window;
  WsLiveEntry *e = g_new0 (WsLiveEntry, 1);

  load (f, "coalescing/offset");
  e->key = ws_explore_page_pattern_key (ws_window_get_explore_page (w));
  e->preset_id = g_strdup ("coalescing/offset");
  e->x = 1;
  e->m = ws_measurement_new ("coalescing/offset");
  ws_measurement_set_param (e->m, "offset", 1);
  for (guint i = 0; i < 10; i++)
    ws_measurement_add_sample (e->m, 0.1 + 0.001 * i);
  ws_measurement_summarize (e->m);
  ws_measurement_add_counter (e->m, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 5 * 131072);
  ws_measurement_add_counter (e->m, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 131072);
  g_ptr_array_add (ws_session_get_live (ws_window_get_session (w)), e);
  ws_explore_page_show_measured (ws_window_get_explore_page (w));
  g_assert_cmpstr (ws_numbers_view_get_value (page_numbers (w), "counted"), ==, "5.00");
  g_assert_cmpstr (ws_numbers_view_get_value (page_numbers (w), "median"), ==, "105 µs");
  g_assert_cmpstr (ws_numbers_view_get_value (page_numbers (w), "sectors-per-request"), ==, "5.00");
}

/* The screenshots the AppStream metainfo shows (data/screenshots/update.sh). */
static void
test_screenshots (Fixture       *f,
                  gconstpointer  data)
{
  static const struct
  {
    const char *preset;
    guint access;
    gboolean dark;
    const char *file;
  } shots[] = {
    { "coalescing/stride", 0, FALSE, "window-coalescing-stride-light.png" },
    { "coalescing/stride", 0, TRUE, "window-coalescing-stride-dark.png" },
    { "transpose/shared-padded", 2, FALSE, "window-transpose-shared-padded-light.png" },
    { "banks/stride", 0, TRUE, "window-banks-stride-dark.png" },
    { "banks/elem8", 0, FALSE, "window-banks-elem8-light.png" },
    { "constant/distinct", 0, FALSE, "window-constant-distinct-light.png" },
    { "private-array/nonuniform-local", 0, TRUE, "window-private-array-nonuniform-local-dark.png" },
    { "atomics/histogram", 0, FALSE, "window-atomics-histogram-light.png" },
    { "alignment/elem-size", 0, FALSE, "window-alignment-elem-size-light.png" },
  };
  AdwStyleManager *style = adw_style_manager_get_default ();

  for (guint i = 0; i < G_N_ELEMENTS (shots); i++)
    {
      adw_style_manager_set_color_scheme (style, shots[i].dark ? ADW_COLOR_SCHEME_FORCE_DARK
                                                               : ADW_COLOR_SCHEME_FORCE_LIGHT);
      load (f, shots[i].preset);
      if (shots[i].access)
        {
          ws_pattern_editor_set_access (page_editor (f->window), shots[i].access);
          wait_settled (f->window);
        }
      g_assert_cmpint (adw_style_manager_get_dark (style), ==, shots[i].dark);
      save_screenshot (f->window, shots[i].file);
    }
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_FORCE_LIGHT);
}


/* ------------------------------------------------------------------ */
/* Below L1                                                           */
/* ------------------------------------------------------------------ */

/* The bundled recording (the H200's, which has no counters) said to come
 * from an H200, whose profile Warpscope ships, with the counters of the
 * sequential copy below L1. */
static char *
h200_recording (void)
{
  g_autoptr (WsRecording) bundled = ws_recording_load_bundled (NULL);
  g_autoptr (WsDeviceInfo) device = NULL;
  g_autoptr (WsRecording) h200 = NULL;
  g_autofree char *path = screenshot_path ("h200-fixture.json");
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;

  g_assert_nonnull (bundled);
  device = ws_device_info_copy (ws_recording_get_device (bundled));
  g_free (device->name);
  device->name = g_strdup ("NVIDIA H200");
  h200 = ws_recording_new (device);
  for (guint i = 0; i < ws_recording_get_n_measurements (bundled); i++)
    {
      g_autoptr (WsMeasurement) m = ws_measurement_copy (ws_recording_get_measurement (bundled, i));
      if (g_str_equal (m->id, "coalescing/sequential"))
        {
          ws_measurement_add_counter (m, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 4194304);
          ws_measurement_add_counter (m, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 4194304);
          ws_measurement_add_counter (m, "lts__t_sectors_srcunit_tex_op_read.sum", 4194304);
          ws_measurement_add_counter (m, "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum", 0);
          ws_measurement_add_counter (m, "lts__t_sectors_srcunit_tex_op_write.sum", 4194304);
          ws_measurement_add_counter (m, "dram__bytes_read.sum", 134217728);
          ws_measurement_add_counter (m, "dram__bytes_write.sum", 125829120);
        }
      ws_recording_add (h200, m);
    }
  g_assert_true (ws_recording_save_file (h200, file, NULL, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&path);
}

/* The first point of the view whose tooltip names what; NULL if none. */
static char *
tooltip_naming (WsHierarchyView *view,
                const char      *what)
{
  int w = gtk_widget_get_width (GTK_WIDGET (view)), h = gtk_widget_get_height (GTK_WIDGET (view));

  for (int y = 0; y < h; y += 6)
    for (int x = 0; x < w; x += 6)
      {
        g_autofree char *text = ws_hierarchy_view_describe_at (view, x, y);
        if (text && g_str_has_prefix (text, what))
          return g_steal_pointer (&text);
      }
  return NULL;
}

/* The hierarchy view of the pattern: on the bundled recording's GPU if
 * Warpscope has its profile (else it says it has none), and on an H200's
 * recording the model's bytes beside the counters', in the view, its
 * tooltips, the numbers pane and an export. */
static void
test_hierarchy (Fixture       *f,
                gconstpointer  data)
{
  g_autofree char *path = h200_recording ();
  g_autoptr (WsSession) session = ws_application_new_session (the_app, path);
  g_autofree char *svg = screenshot_path ("window-hierarchy.svg");
  g_autofree char *tip = NULL;
  g_autoptr (GError) error = NULL;
  const WsHierarchyFigure *fig;
  WsWindow *w;
  const WsDeviceInfo *bundled = ws_recording_get_device (ws_session_get_recording (ws_window_get_session (f->window)));
  g_autofree char *bundled_id = ws_device_slug (bundled->name);
  g_autoptr (WsDeviceProfile) bundled_profile = ws_device_profile_find (bundled_id, NULL);

  /* the bundled recording's GPU */
  load (f, "coalescing/sequential");
  g_assert_true (ws_window_show_view (f->window, "hierarchy"));
  wait_settled (f->window);
  fig = ws_hierarchy_view_get_figure (hierarchy_view (f->window));
  if (bundled_profile == NULL)
    {
      g_assert_nonnull (fig->message);
      g_assert_nonnull (strstr (fig->message, bundled->name));
      g_assert_null (ws_numbers_view_get_value (page_numbers (f->window), "l2-hit-rate"));
    }
  else
    g_assert_null (fig->message);

  /* an H200's */
  w = ws_window_new (GTK_APPLICATION (the_app), session);
  gtk_window_set_default_size (GTK_WINDOW (w), 1400, 900);
  gtk_window_present (GTK_WINDOW (w));
  wait_settled_within (w, 300);
  g_assert_true (ws_window_load_preset (w, "coalescing/sequential"));
  g_assert_true (ws_window_show_view (w, "hierarchy"));
  wait_settled_within (w, 300);
  g_assert_nonnull (ws_session_get_device_profile (ws_window_get_session (w)));
  g_assert_cmpstr (((WsDeviceProfile *) ws_session_get_device_profile (ws_window_get_session (w)))->id, ==, "nvidia-h200");
  fig = ws_hierarchy_view_get_figure (hierarchy_view (w));
  g_assert_null (fig->message);
  g_assert_nonnull (strstr (fig->subtitle, "NVIDIA H200"));
  g_assert_nonnull (strstr (fig->subtitle, "the profile shipped for the recording's GPU"));
  g_assert_cmpfloat (fig->flows[1][WS_HIER_READ].bytes.model, >, 0);
  g_assert_cmpfloat (fig->flows[1][WS_HIER_READ].bytes.counted, ==, 4194304 * 32.0);
  g_assert_cmpfloat (fig->flows[2][WS_HIER_WRITE].bytes.counted, ==, 125829120);
  g_assert_nonnull (ws_numbers_view_get_value (page_numbers (w), "l2-hit-rate"));
  g_assert_nonnull (ws_numbers_view_get_value (page_numbers (w), "dram-bytes"));
  g_assert_nonnull (strstr (ws_numbers_view_get_value (page_numbers (w), "l2-sectors"), "read"));
  /* the time, the bound, and the chart's model on the measured axis */
  g_assert_cmpfloat (fig->predicted_s, >, 0);
  g_assert_nonnull (ws_numbers_view_get_value (page_numbers (w), "predicted"));
  g_assert_nonnull (ws_numbers_view_get_value (page_numbers (w), "bound"));
  {
    const WsChart *chart = ws_chart_view_get_chart (plot_chart_view (w));
    gboolean on_axis = FALSE;
    for (guint i = 0; i < chart->series->len; i++)
      {
        const WsChartSeries *se = g_ptr_array_index (chart->series, i);
        on_axis |= g_str_has_prefix (se->name, "model: predicted on NVIDIA H200") && se->axis == WS_CHART_Y;
      }
    g_assert_true (on_axis);
  }
  g_assert_cmpfloat (widget_ink (GTK_WIDGET (hierarchy_view (w))), >, 0.05);
  /* the tooltips say the model and the counters */
  tip = tooltip_naming (hierarchy_view (w), "L1 reads from L2");
  g_assert_nonnull (tip);
  g_assert_nonnull (strstr (tip, "counted: 4.19 M sectors (134 MB)"));
  g_assert_nonnull (strstr (tip, "lts__t_sectors_srcunit_tex_op_read.sum"));
  /* another warp keeps the view: it is of the whole launch */
  ws_pattern_editor_set_warp (page_editor (w), 1);
  g_assert_true (gtk_stack_get_visible_child (page_views (w)) == GTK_WIDGET (page_hierarchy (w)));
  /* Export Figure exports it */
  g_unlink (svg);
  g_assert_true (ws_window_export (w, WS_WINDOW_EXPORT_FIGURE, svg, 1, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (svg, G_FILE_TEST_IS_REGULAR));
  save_screenshot (w, "window-hierarchy-light.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  g_assert_true (ws_window_load_preset (w, "coalescing/stride"));
  wait_settled_within (w, 300);
  save_screenshot (w, "window-hierarchy-dark.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_LIGHT);
  gtk_window_destroy (GTK_WINDOW (w));
  g_unlink (path);
}

/* Labels under a widget, popovers too, whose text holds needle. */
static void
find_labels (GtkWidget  *widget,
             const char *needle,
             GPtrArray  *found)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget) &&
      strstr (gtk_label_get_text (GTK_LABEL (widget)), needle))
    g_ptr_array_add (found, widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    find_labels (c, needle, found);
}

static GtkWidget *
find_combo_row (GtkWidget  *widget,
                const char *title)
{
  if (ADW_IS_COMBO_ROW (widget) && g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget)), title) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *row = find_combo_row (c, title);
      if (row)
        return row;
    }
  return NULL;
}

static GtkWidget *
find_popover (GtkWidget *widget)
{
  if (GTK_IS_POPOVER (widget))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *popover = find_popover (c);
      if (popover)
        return popover;
    }
  return NULL;
}

static void
assert_whole (GPtrArray *labels)
{
  for (guint i = 0; i < labels->len; i++)
    {
      GtkLabel *label = g_ptr_array_index (labels, i);
      g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (label)));
    }
}

/* A preset of several instructions opens on the one that says most (the
 * tiled transpose on its tile, not its global load), and its instructions
 * are named whole, in the row and in its menu. */
static void
test_telling_instruction (Fixture       *f,
                          gconstpointer  data)
{
  WsWindow *w = f->window;
  g_autoptr (WsPattern) pattern = ws_preset_build (ws_preset_lookup ("transpose/shared"));
  g_autoptr (GPtrArray) labels = g_ptr_array_new ();
  GtkWidget *row;

  load (f, "transpose/shared");
  g_assert_cmpuint (ws_pattern_editor_get_access (page_editor (w)), ==, ws_compare_main_access (pattern));
  g_assert_cmpuint (ws_pattern_editor_get_access (page_editor (w)), !=, 0);
  g_assert_cmpint (page_result (w)->space, ==, WS_SPACE_SHARED);
  g_assert_true (gtk_stack_get_visible_child (page_views (w)) == GTK_WIDGET (page_figure (w, WS_FIGURE_BANKS)));

  find_labels (GTK_WIDGET (page_editor (w)), "tile[threadIdx.x * 32 + threadIdx.y]", labels);
  g_assert_cmpuint (labels->len, >=, 1);
  assert_whole (labels);
  /* and in the menu, every instruction whole */
  row = find_combo_row (GTK_WIDGET (page_editor (w)), "Instruction");
  g_assert_nonnull (row);
  gtk_widget_activate (row);
  wait_frames (w);
  g_ptr_array_set_size (labels, 0);
  find_labels (row, " · ", labels);
  g_assert_cmpuint (labels->len, >=, ws_pattern_get_n_accesses (pattern));
  assert_whole (labels);
  g_assert_nonnull (find_popover (row));
  gtk_popover_popdown (GTK_POPOVER (find_popover (row)));
  wait_frames (w);
  g_assert_false (gtk_widget_get_mapped (find_popover (row)));
}

static void
add_tests (void)
{
#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/window/opens", test_opens);
  ADD ("/window/edit-updates-model", test_edit_updates_model);
  ADD ("/window/invalid-expression", test_invalid_expression);
  ADD ("/window/sweep-from-recording", test_sweep_from_recording);
  ADD ("/window/actions-and-state", test_actions_and_state);
  ADD ("/window/counters-beside-model", test_counters_beside_model);
  ADD ("/window/every-preset-draws", test_every_preset_draws);
  ADD ("/window/telling-instruction", test_telling_instruction);
  ADD ("/window/screenshots", test_screenshots);
  ADD ("/window/hierarchy", test_hierarchy);
#undef ADD
}

int
main (int   argc,
      char *argv[])
{
  return window_test_run (&argc, &argv, add_tests);
}
