/* SPDX-License-Identifier: GPL-3.0-or-later */
/* warpscope-cli truth, as a user runs it: on a GPU, every case of the truth
 * set runs and no row differs from the model without an explanation; the
 * committed table of data/truth/ says the same. Skips, saying why, where
 * there is no GPU or no counters. */
#include "ws-config.h"

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

/* Every row of a table: the five fields, and a note wherever model and
 * hardware differ by more than the tolerance. */
static void
check_table (JsonObject *root,
             guint      *n_rows)
{
  JsonArray *rows = json_object_get_array_member (root, "rows");
  double tolerance = json_object_get_double_member (root, "tolerance");

  g_assert_cmpfloat (tolerance, ==, 0.02);
  *n_rows = json_array_get_length (rows);
  for (guint i = 0; i < *n_rows; i++)
    {
      JsonObject *r = json_array_get_object_element (rows, i);
      double model = json_object_get_double_member (r, "model");
      double hw = json_object_get_double_member (r, "hardware");
      gboolean differs = fabs (model - hw) > tolerance * MAX (fabs (model), fabs (hw));

      g_assert_true (json_object_has_member (r, "pattern"));
      g_assert_true (json_object_has_member (r, "metric"));
      g_assert_true (json_object_has_member (r, "note"));
      if (differs && json_object_get_null_member (r, "note"))
        g_error ("%s, %s: model %.0f, hardware %.0f, and no note says why",
                 json_object_get_string_member (r, "pattern"), json_object_get_string_member (r, "metric"),
                 model, hw);
    }
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (root, "summary"), "unexplained"), ==, 0);
}

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
  g_test_add_func ("/truth/committed-table", test_committed_table);
  g_test_add_func ("/truth/on-this-gpu", test_on_this_gpu);
  return g_test_run ();
}
