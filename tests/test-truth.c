/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The truth (ws-truth.h): its cases and rules, with counters made up to
 * agree or to differ, and its table; then warpscope-cli truth, as a user
 * runs it: on a GPU, every case of the truth set runs and no row differs
 * from the model without an explanation; the committed table of
 * data/truth/ says the same. Skips, saying why, where there is no GPU or no
 * counters. */
#include "ws-config.h"
#include "ws-presets.h"
#include "ws-truth.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>
#include <sys/wait.h>

static char *
cli_path (void)
{
  return g_build_filename (g_getenv ("G_TEST_BUILDDIR") ? g_getenv ("G_TEST_BUILDDIR") : ".",
                           "..", "app", "warpscope-cli", NULL);
}

/* Below L1, a row says whether its note explains its difference (the
 * time's note always says what bounds the launch); tables written before
 * that have a note only where one does, but for the time's. */
static gboolean
row_explained (JsonObject *r)
{
  if (json_object_has_member (r, "explained"))
    return json_object_get_boolean_member (r, "explained");
  return !json_object_get_null_member (r, "note") &&
         g_strcmp0 (json_object_get_string_member (r, "metric"), WS_TRUTH_TIME_METRIC) != 0;
}

/* Every row of a table: the five fields, and a note wherever model and
 * hardware differ by more than the tolerance at L1. */
static void
check_table (JsonObject *root,
             guint      *n_rows)
{
  JsonArray *rows = json_object_get_array_member (root, "rows");
  double tolerance = json_object_get_double_member (root, "tolerance");
  gint64 below_unexplained = 0;

  /* what it is, as every JSON file of ours says first */
  g_assert_cmpstr (json_object_get_string_member (root, "format"), ==, "warpscope-truth");
  g_assert_cmpint (json_object_get_int_member (root, "version"), ==, 1);
  g_assert_cmpfloat (tolerance, ==, 0.02);
  *n_rows = json_array_get_length (rows);
  for (guint i = 0; i < *n_rows; i++)
    {
      JsonObject *r = json_array_get_object_element (rows, i);
      double model = json_object_get_double_member (r, "model");
      double hw = json_object_get_double_member (r, "hardware");
      /* rows below L1 carry their own */
      double own = json_object_has_member (r, "tolerance") ? json_object_get_double_member (r, "tolerance")
                                                           : tolerance;
      gboolean differs = fabs (model - hw) > own * MAX (fabs (model), fabs (hw));

      g_assert_true (json_object_has_member (r, "pattern"));
      g_assert_true (json_object_has_member (r, "metric"));
      g_assert_true (json_object_has_member (r, "note"));
      /* L1 is exact: a difference there has a reason, or it is a bug; below
       * L1 (rows with a tolerance of their own) the table says where the
       * model is off, and the summary counts those */
      if (!json_object_has_member (r, "tolerance"))
        {
          if (differs && json_object_get_null_member (r, "note"))
            g_error ("%s, %s: model %.0f, hardware %.0f, and no note says why",
                     json_object_get_string_member (r, "pattern"), json_object_get_string_member (r, "metric"),
                     model, hw);
        }
      else
        below_unexplained += differs && !row_explained (r);
    }
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (root, "summary"), "unexplained"), ==,
                   below_unexplained);
}

/* ------------------------------------------------------------------ */
/* The rules, without a GPU                                           */
/* ------------------------------------------------------------------ */

/* A measurement whose counters say what metric_value says. */
static WsMeasurement *
counters_from (GPtrArray *rows,
               double   (*value) (const WsTruthRow *r))
{
  WsMeasurement *m = ws_measurement_new ("expr");

  for (guint i = 0; i < rows->len; i++)
    {
      const WsTruthRow *r = g_ptr_array_index (rows, i);
      ws_measurement_add_counter (m, r->metric, value (r));
    }
  return m;
}

static double
model_of (const WsTruthRow *r)
{
  return r->model;
}

static GPtrArray *
compare_case (const WsTruthCase   *c,
              const WsMeasurement *m)
{
  g_autoptr (WsLaunchStats) stats = ws_model_analyze_launch (c->pattern, NULL, NULL);
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_truth_row_free);

  g_assert_nonnull (stats);
  ws_truth_compare (c, stats, m, rows);
  return rows;
}

static void
test_cases (void)
{
  g_autoptr (GPtrArray) all = ws_truth_cases (NULL);
  g_autoptr (GPtrArray) banks = ws_truth_cases ("banks/");
  g_autoptr (WsPattern) found = ws_truth_case_find ("coalescing/stride");
  guint n_presets;

  ws_presets_get_all (&n_presets);
  /* every preset, then the expressions */
  g_assert_cmpuint (all->len, >, n_presets + 100);
  for (guint i = 0; i < n_presets; i++)
    g_assert_cmpstr (((WsTruthCase *) g_ptr_array_index (all, i))->name, ==, ws_presets_get_all (&n_presets)[i].id);
  for (guint i = 0; i < banks->len; i++)
    g_assert_nonnull (strstr (((WsTruthCase *) g_ptr_array_index (banks, i))->name, "banks/"));
  g_assert_nonnull (found);
  g_assert_null (ws_truth_case_find ("no/such-case"));
}

/* Counters equal to the model's figures: every row agrees. */
static void
test_rules_agree (void)
{
  g_autoptr (GPtrArray) cases = ws_truth_cases ("transpose/shared");
  WsTruthCase *c = g_ptr_array_index (cases, 0);
  g_autoptr (WsMeasurement) empty = ws_measurement_new ("expr");
  g_autoptr (GPtrArray) first = compare_case (c, empty);
  g_autoptr (WsMeasurement) m = counters_from (first, model_of);
  g_autoptr (GPtrArray) rows = compare_case (c, m);
  gboolean wavefronts = FALSE;

  /* global loads and stores, shared loads and stores: a row per rule */
  g_assert_cmpuint (rows->len, >=, 10);
  for (guint i = 0; i < rows->len; i++)
    {
      const WsTruthRow *r = g_ptr_array_index (rows, i);
      g_assert_false (r->mismatch);
      g_assert_false (ws_truth_row_unexplained (r));
      wavefronts |= g_str_equal (r->metric, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum");
    }
  g_assert_true (wavefronts);
}

/* Many warps on shared memory: a fraction of a wavefront more per
 * instruction is explained; a whole one more is a bug. */
static void
test_rules_explain (void)
{
  g_autoptr (WsTruthCase) c = g_new0 (WsTruthCase, 1);
  g_autoptr (WsMeasurement) empty = ws_measurement_new ("expr");
  g_autoptr (GPtrArray) model = NULL;
  g_autoptr (WsMeasurement) contended = ws_measurement_new ("expr");
  g_autoptr (WsMeasurement) wrong = ws_measurement_new ("expr");
  g_autoptr (GPtrArray) rows = NULL;
  g_autoptr (GPtrArray) bad = NULL;
  double instructions = 0;

  c->name = g_strdup ("banks/stride");
  c->pattern = ws_preset_build (ws_preset_lookup ("banks/stride"));
  model = compare_case (c, empty);
  for (guint i = 0; i < model->len; i++)
    if (g_str_equal (((WsTruthRow *) g_ptr_array_index (model, i))->metric, "smsp__inst_executed_op_shared_ld.sum"))
      instructions = ((WsTruthRow *) g_ptr_array_index (model, i))->model;
  g_assert_cmpfloat (instructions, >, 0);
  for (guint i = 0; i < model->len; i++)
    {
      const WsTruthRow *r = g_ptr_array_index (model, i);
      double extra = g_str_has_prefix (r->metric, "l1tex__data_") ? instructions : 0;
      ws_measurement_add_counter (contended, r->metric, r->model + 0.3 * extra);
      ws_measurement_add_counter (wrong, r->metric, r->model + 1.0 * extra);
    }
  rows = compare_case (c, contended);
  for (guint i = 0; i < rows->len; i++)
    {
      const WsTruthRow *r = g_ptr_array_index (rows, i);
      if (r->mismatch)
        {
          g_assert_true (r->explained);
          g_assert_nonnull (strstr (r->note, "wavefronts per instruction"));
        }
    }
  bad = compare_case (c, wrong);
  for (guint i = 0; i < bad->len; i++)
    if (((WsTruthRow *) g_ptr_array_index (bad, i))->mismatch)
      g_assert_true (ws_truth_row_unexplained (g_ptr_array_index (bad, i)));
}

static void
test_table (void)
{
  g_autoptr (GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_truth_row_free);
  WsTruthRow *ok = g_new0 (WsTruthRow, 1);
  WsTruthRow *off = g_new0 (WsTruthRow, 1);
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *text = NULL;
  g_autofree char *slug = ws_truth_device_slug ("NVIDIA H100 80GB HBM3");
  guint n_rows = 0;

  *ok = (WsTruthRow) { .pattern = g_strdup ("a"), .metric = g_strdup ("m.sum"), .model = 4, .hardware = 4,
                       .tolerance = WS_TRUTH_TOLERANCE };
  *off = (WsTruthRow) { .pattern = g_strdup ("b"), .metric = g_strdup ("m.sum"), .model = 4, .hardware = 5,
                        .note = g_strdup ("why"), .tolerance = WS_TRUTH_TOLERANCE, .mismatch = TRUE,
                        .explained = TRUE };
  g_ptr_array_add (rows, ok);
  g_ptr_array_add (rows, off);
  root = ws_truth_to_json (rows, "GPU", NULL);
  check_table (json_node_get_object (root), &n_rows);
  g_assert_cmpuint (n_rows, ==, 2);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (json_node_get_object (root), "summary"),
                                               "mismatches"), ==, 1);
  text = ws_truth_to_text (rows, "GPU");
  g_assert_nonnull (strstr (text, "2 rows, 1 differ by more than their tolerance (2 % for L1 counts"));
  g_assert_nonnull (strstr (text, "0 of them unexplained"));
  g_assert_cmpstr (slug, ==, "nvidia-h100-80gb-hbm3");
}

/* ------------------------------------------------------------------ */
/* The tables                                                         */
/* ------------------------------------------------------------------ */

static void
test_committed_table (void)
{
  const char *src = g_getenv ("WS_SOURCE_DIR");
  g_autofree char *dir = g_build_filename (src ? src : "..", "data", "truth", NULL);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint tables = 0;

  if (d == NULL)
    {
      g_test_skip ("no data/truth folder");
      return;
    }
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autoptr (JsonParser) parser = json_parser_new ();
      g_autoptr (GError) error = NULL;
      guint rows = 0;

      if (!g_str_has_suffix (name, ".json"))
        continue;
      json_parser_load_from_file (parser, path, &error);
      g_assert_no_error (error);
      check_table (json_node_get_object (json_parser_get_root (parser)), &rows);
      g_assert_cmpuint (rows, >, 300);
      tables++;
    }
  if (tables == 0)
    g_test_skip ("no truth table in data/truth yet");
}

static void
test_on_this_gpu (void)
{
  g_autofree char *cli = cli_path ();
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  char *argv[] = { cli, "truth", "--json", NULL };
  int status = 0;
  guint rows = 0;

  if (!g_file_test (cli, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("warpscope-cli is not built");
      return;
    }
  g_assert_true (g_spawn_sync (NULL, argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error));
  g_assert_no_error (error);
  if (WIFEXITED (status) && WEXITSTATUS (status) == 3)
    {
      g_autofree char *reason = g_strdup_printf ("no GPU or no counters: %s", g_strstrip (err));
      g_test_skip (reason);
      return;
    }
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    g_error ("warpscope-cli truth failed (status %d): %s", status, err);
  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  check_table (json_node_get_object (json_parser_get_root (parser)), &rows);
  g_assert_cmpuint (rows, >, 300);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/truth/cases", test_cases);
  g_test_add_func ("/truth/rules/agree", test_rules_agree);
  g_test_add_func ("/truth/rules/explain", test_rules_explain);
  g_test_add_func ("/truth/table", test_table);
  g_test_add_func ("/truth/committed-table", test_committed_table);
  g_test_add_func ("/truth/on-this-gpu", test_on_this_gpu);
  return g_test_run ();
}
