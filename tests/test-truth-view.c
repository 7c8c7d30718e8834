/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The truth view (ui/plots/ws-plot-truth.c) and the tables it reads
 * (backend/formats/ws-truth-table.c): the shipped tables of both GPUs
 * read, the presets and their bands counted as the table's own rows say,
 * bad tables refused with where and what, and `warpscope-cli export --view
 * truth` drawing it and writing its numbers. */
#include "ws-config.h"
#include "ws-plot-truth.h"
#include "ws-presets.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

/* Counted from the table's rows, not through the view: the time rows of
 * presets, and those within 25 % of the larger. */
static void
count_times (const WsTruthTable *t,
             guint              *presets,
             guint              *within)
{
  *presets = *within = 0;
  for (guint i = 0; i < t->entries->len; i++)
    {
      const WsTruthEntry *e = g_ptr_array_index (t->entries, i);

      if (!g_str_equal (e->metric, WS_TRUTH_TIME_METRIC) || g_str_has_prefix (e->pattern, "expr/") ||
          e->model <= 0 || e->hardware <= 0)
        continue;
      (*presets)++;
      *within += fabs (e->model - e->hardware) <= 0.25 * MAX (e->model, e->hardware);
    }
}

static void
test_shipped (void)
{
  g_auto (GStrv) ids = ws_truth_table_list_ids ();

  /* both lent GPUs' tables ship */
  g_assert_true (g_strv_contains ((const char * const *) ids, "nvidia-h200"));
  g_assert_true (g_strv_contains ((const char * const *) ids, "nvidia-h100-80gb-hbm3"));
  for (guint i = 0; ids[i]; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WsTruthTable) t = ws_truth_table_find (ids[i], &error);
      g_autoptr (WsTruthView) view = NULL;
      guint presets, within, points = 0;
      const WsChart *time;

      g_assert_no_error (error);
      g_assert_nonnull (t);
      g_assert_true (g_str_has_prefix (t->device, "NVIDIA H"));
      view = ws_truth_view_new (t);
      count_times (t, &presets, &within);
      g_assert_cmpuint (presets, >=, 80);
      g_assert_cmpuint (view->counted[WS_TRUTH_TIME], ==, presets);
      g_assert_cmpuint (view->within[WS_TRUTH_TIME], ==, within);
      /* every preset once, in the points of the time's chart, inside or outside the band */
      time = view->charts[WS_TRUTH_TIME];
      for (guint s = 0; s < time->series->len; s++)
        {
          const WsChartSeries *series = g_ptr_array_index (time->series, s);

          if (series->kind == WS_SERIES_POINTS)
            points += series->points->len;
        }
      g_assert_cmpuint (points, ==, presets);
      g_assert_true (strstr (time->subtitle, t->device) != NULL);
      /* the topics, in the sidebar's order, each with its error */
      g_assert_cmpstr (g_ptr_array_index (view->topics, 0), ==, "coalescing");
      g_assert_cmpuint (view->charts[WS_TRUTH_N_QUANTITIES]->axes[WS_CHART_X].categories->len, ==, view->topics->len);
      /* the L2 and DRAM figures are sums of what was read and written */
      g_assert_cmpuint (view->counted[WS_TRUTH_L2_SECTORS], >, 0);
      g_assert_cmpuint (view->counted[WS_TRUTH_DRAM_BYTES], >, 0);
    }
}

static void
test_sums (void)
{
  const char *table = "{\"format\": \"warpscope-truth\", \"version\": 1, \"device\": \"NVIDIA H200\","
                      " \"date\": \"2026-11-24T14:53:25Z\", \"rows\": ["
                      "{\"pattern\": \"banks/stride\", \"metric\": \"lts__t_sectors_srcunit_tex_op_read.sum\","
                      " \"model\": 100, \"hardware\": 100},"
                      "{\"pattern\": \"banks/stride\", \"metric\": \"lts__t_sectors_srcunit_tex_op_write.sum\","
                      " \"model\": 50, \"hardware\": 70},"
                      "{\"pattern\": \"banks/stride\", \"metric\": \"median time (ms)\", \"model\": 0.1, \"hardware\": 0.2},"
                      "{\"pattern\": \"expr/global-load-4/i\", \"metric\": \"median time (ms)\", \"model\": 1, \"hardware\": 1}"
                      "]}";
  g_autoptr (GError) error = NULL;
  g_autoptr (WsTruthTable) t = ws_truth_table_load_data (table, strlen (table), "small.json", &error);
  g_autoptr (WsTruthView) view = NULL;
  g_autofree char *csv = NULL;
  const WsTruthPoint *p;

  g_assert_no_error (error);
  view = ws_truth_view_new (t);
  /* the typed pattern's case is no preset */
  g_assert_cmpuint (view->points->len, ==, 1);
  p = g_ptr_array_index (view->points, 0);
  g_assert_cmpfloat (p->model[WS_TRUTH_L2_SECTORS], ==, 150);
  g_assert_cmpfloat (p->hardware[WS_TRUTH_L2_SECTORS], ==, 170);
  /* 150 against 170: 11.8 % of the larger, outside 10 %; half the time, outside 25 % */
  g_assert_cmpuint (view->within[WS_TRUTH_L2_SECTORS], ==, 0);
  g_assert_cmpuint (view->within[WS_TRUTH_TIME], ==, 0);
  g_assert_cmpuint (view->counted[WS_TRUTH_DRAM_BYTES], ==, 0);
  g_assert_cmpstr (view->date, ==, "2026-11-24");
  csv = ws_truth_view_to_csv (view);
  g_assert_cmpstr (csv, ==, "preset,topic,quantity,model,hardware,model / hardware,within\n"
                            "\"banks/stride\",\"banks\",time (s),0.0001,0.00020000000000000001,0.5000,no\n"
                            "\"banks/stride\",\"banks\",L2 sectors,150,170,0.8824,no\n");
}

static void
test_refused (void)
{
  const struct
  {
    const char *data;
    const char *says;
  } bad[] = {
    { "", "bad.json: not JSON" },
    { "[]", "bad.json: not a truth table: expected an object, found an array" },
    { "{\"format\": \"warpscope-recording\", \"version\": 1}", "not a truth table" },
    { "{\"format\": \"warpscope-truth\", \"version\": 2}", "version" },
    { "{\"format\": \"warpscope-truth\", \"version\": 1, \"device\": \"H\", \"date\": \"d\", \"rows\": [{}]}",
      "rows[0].pattern" },
    { "{\"format\": \"warpscope-truth\", \"version\": 1, \"device\": \"H\", \"date\": \"d\", \"rows\": "
      "[{\"pattern\": \"a/b\", \"metric\": \"m\", \"model\": -1, \"hardware\": 1}]}",
      "rows[0].model" },
    { "{\"format\": \"warpscope-truth\", \"version\": 1, \"device\": \"H\", \"date\": \"d\", \"rows\": "
      "[{\"pattern\": \"a/b\", \"metric\": \"m\", \"model\": 1, \"hardware\": \"1\"}]}",
      "rows[0].hardware: expected a number, found a string" },
    { "{\"format\": \"warpscope-truth\", \"version\": 1, \"device\": \"\", \"date\": \"d\", \"rows\": []}",
      "device" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WsTruthTable) t = ws_truth_table_load_data (bad[i].data, strlen (bad[i].data), "bad.json", &error);

      g_assert_null (t);
      g_assert_nonnull (error);
      if (strstr (error->message, bad[i].says) == NULL)
        g_error ("“%s” for %s: expected “%s”", error->message, bad[i].data, bad[i].says);
    }
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (WsTruthTable) t = ws_truth_table_find ("nvidia-b200", &error);

    g_assert_null (t);
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
    g_assert_nonnull (strstr (error->message, "nvidia-h200"));
  }
}

/* The CLI: a PNG of the four charts, the numbers, and its refusals. */
static void
run_cli (const char * const *args,
         int                 expect,
         const char         *says)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GError) error = NULL;
  int status;

  g_ptr_array_add (argv, (char *) g_getenv ("WS_CLI"));
  g_ptr_array_add (argv, "export");
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, 0, NULL, NULL, &out, &err, &status, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL) && expect == 0)
    g_error ("export failed: %s", err);
  g_assert_cmpint (WEXITSTATUS (status), ==, expect);
  if (says && strstr (err, says) == NULL)
    g_error ("expected “%s” in “%s”", says, err);
}

static void
test_cli (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-truth-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "truth.png", NULL);
  g_autofree char *csv = g_build_filename (dir, "truth.csv", NULL);
  g_autofree char *json = g_build_filename (dir, "truth.json", NULL);
  g_autofree char *text = NULL;
  g_autofree char *table = g_build_filename (g_getenv ("WS_SOURCE_DIR"), "data", "truth", "nvidia-h200.json", NULL);
  cairo_surface_t *image;

  if (g_getenv ("WS_CLI") == NULL)
    {
      g_test_skip ("WS_CLI is not set: run through meson test");
      return;
    }
  run_cli ((const char *[]) { "--view", "truth", "--device", "nvidia-h100-80gb-hbm3", "--width", "1920", "--height",
                              "1080", "-o", png, NULL }, 0, NULL);
  image = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_image_surface_get_width (image), ==, 1920);
  g_assert_cmpint (cairo_image_surface_get_height (image), ==, 1080);
  cairo_surface_destroy (image);
  /* the bundled recording's GPU, the H200, by default; or a table's file */
  run_cli ((const char *[]) { "--view", "truth", "-o", csv, NULL }, 0, NULL);
  g_assert_true (g_file_get_contents (csv, &text, NULL, NULL));
  g_assert_true (g_str_has_prefix (text, "preset,topic,quantity,model,hardware,model / hardware,within\n"));
  g_assert_nonnull (strstr (text, "\"coalescing/sequential\",\"coalescing\",time (s),"));
  run_cli ((const char *[]) { "--view", "truth", "--device", table, "-o", json, NULL }, 0, NULL);
  run_cli ((const char *[]) { "--view", "truth", "--preset", "banks/stride", "-o", png, NULL }, 2,
           "--view truth shows every preset");
  run_cli ((const char *[]) { "--view", "truth", "--device", "nvidia-b200", "-o", png, NULL }, 2,
           "no truth table for “nvidia-b200”");
  g_unlink (png);
  g_unlink (csv);
  g_unlink (json);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_setenv ("LC_ALL", "C.UTF-8", TRUE);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/truth-view/shipped", test_shipped);
  g_test_add_func ("/truth-view/sums", test_sums);
  g_test_add_func ("/truth-view/refused", test_refused);
  g_test_add_func ("/truth-view/cli", test_cli);
  return g_test_run ();
}
