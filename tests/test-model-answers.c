/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The model's answers shipped for the presets' figures
 * (data/model-answers.txt, ui/plots/ws-plot-cache.c): made from this
 * tree's sources, used by warpscope-cli export so that a first figure
 * follows no launch, and the same, number for number, as the model's own
 * answers. The last check recomputes a share of the presets' plots: one in
 * 8 (one in 8 × WS_TEST_SAMPLE in the sampled runs), on both bundled GPUs. */
#include "ws-plot-cache.h"
#include "sample.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

static const char *
source_dir (void)
{
  const char *dir = g_getenv ("WS_SOURCE_DIR");

  g_assert_nonnull (dir);
  return dir;
}

static char *
answers_file (void)
{
  return g_build_filename (source_dir (), "data", "model-answers.txt", NULL);
}

/* warpscope-cli with its cache of answers in cache and WS_MODEL_ANSWERS
 * as given (NULL: unset); its standard output, or NULL with the error
 * output in *err. */
static char *
cli (const char         *cache,
     const char         *answers,
     const char * const *args,
     char              **err)
{
  g_autoptr (GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *errors = NULL;

  g_ptr_array_add (argv, (gpointer) g_getenv ("WS_CLI"));
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_subprocess_launcher_setenv (launcher, "WS_MODEL_CACHE_DIR", cache, TRUE);
  if (answers)
    g_subprocess_launcher_setenv (launcher, "WS_MODEL_ANSWERS", answers, TRUE);
  else
    g_subprocess_launcher_unsetenv (launcher, "WS_MODEL_ANSWERS");
  proc = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, &errors, &error));
  g_assert_no_error (error);
  if (err)
    *err = g_strdup (errors);
  if (g_subprocess_get_exit_status (proc) != 0)
    return NULL;
  return g_steal_pointer (&out);
}

/* Answers the model kept in cache (one folder of files). */
static guint
kept (const char *cache)
{
  g_autoptr (GDir) d = g_dir_open (cache, 0, NULL);
  guint n = 0;

  for (const char *name; d && (name = g_dir_read_name (d));)
    {
      g_autofree char *sub = g_build_filename (cache, name, NULL);
      g_autoptr (GDir) files = g_dir_open (sub, 0, NULL);

      while (files && g_dir_read_name (files))
        n++;
    }
  return n;
}

static void
remove_tree (const char *path)
{
  g_autoptr (GDir) d = g_dir_open (path, 0, NULL);

  for (const char *name; d && (name = g_dir_read_name (d));)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

/* The tree's answers were made from its sources: else the message says to
 * make them again. */
static void
test_current (void)
{
  g_autofree char *file = answers_file ();
  g_autoptr (GError) error = NULL;
  guint n = 0;

  if (!ws_plot_cache_shipped_check (file, &n, &error))
    g_error ("%s", error->message);
  g_test_message ("%s: %u answers", file, n);
  /* every preset's plot on two GPUs, and the counts and costs besides */
  g_assert_cmpuint (n, >, 500);
}

/* A file of answers that is not this build's, or not answers at all, is
 * refused with a message that says what and where. */
static void
test_refused (void)
{
  g_autofree char *dir = g_dir_make_tmp ("warpscope-answers-XXXXXX", NULL);
  g_autofree char *file = answers_file ();
  g_autofree char *text = NULL;
  g_autofree char *path = g_build_filename (dir, "answers.txt", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) s = NULL;
  char *fp;

  g_assert_true (g_file_get_contents (file, &text, NULL, NULL));
  fp = strstr (text, "\nfingerprint ");
  g_assert_nonnull (fp);

  /* another model's */
  s = g_string_new (text);
  s->str[fp - text + strlen ("\nfingerprint ")] ^= 1;
  g_assert_true (g_file_set_contents (path, s->str, s->len, NULL));
  g_assert_false (ws_plot_cache_shipped_check (path, NULL, &error));
  g_assert_nonnull (strstr (error->message, "made from other sources of the model"));
  g_assert_nonnull (strstr (error->message, "tools/make-model-answers"));
  g_assert_nonnull (strstr (error->message, path));
  g_clear_error (&error);

  /* a line that is no answer, after the fingerprint (line 4) */
  g_string_assign (s, text);
  g_string_insert (s, strchr (fp + 1, '\n') - text + 1, "nonsense\n");
  g_assert_true (g_file_set_contents (path, s->str, s->len, NULL));
  g_assert_false (ws_plot_cache_shipped_check (path, NULL, &error));
  g_assert_nonnull (strstr (error->message, "line 5: not a name and its numbers"));
  g_clear_error (&error);

  /* no fingerprint */
  g_assert_true (g_file_set_contents (path, "# nothing\n", -1, NULL));
  g_assert_false (ws_plot_cache_shipped_check (path, NULL, &error));
  g_assert_nonnull (strstr (error->message, "has no fingerprint line"));
  g_clear_error (&error);

  /* none there */
  g_unlink (path);
  g_assert_false (ws_plot_cache_shipped_check (path, NULL, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
  remove_tree (dir);
}

/* A first figure follows no launch with the answers, and does without
 * them; a refused file of answers changes nothing but the time. */
static void
test_used (void)
{
  g_autofree char *dir = g_dir_make_tmp ("warpscope-answers-XXXXXX", NULL);
  g_autofree char *cache = g_build_filename (dir, "cache", NULL);
  g_autofree char *stale = g_build_filename (dir, "stale.txt", NULL);
  g_autofree char *file = answers_file ();
  g_autofree char *text = NULL;
  const char *args[] = { "export", "--preset", "banks/stride", "--view", "plot", "--format", "csv", "-o", "-",
                         NULL };
  g_autofree char *shipped = NULL;
  g_autofree char *computed = NULL;
  g_autofree char *refused = NULL;
  char *fp;

  shipped = cli (cache, NULL, args, NULL);
  g_assert_nonnull (shipped);
  g_assert_cmpuint (kept (cache), ==, 0);

  computed = cli (cache, "off", args, NULL);
  g_assert_nonnull (computed);
  g_assert_cmpuint (kept (cache), >, 0);
  g_assert_cmpstr (shipped, ==, computed);

  /* answers of another model: not used, the figure the same */
  g_assert_true (g_file_get_contents (file, &text, NULL, NULL));
  fp = strstr (text, "\nfingerprint ");
  fp[strlen ("\nfingerprint ")] ^= 1;
  g_assert_true (g_file_set_contents (stale, text, -1, NULL));
  remove_tree (cache);
  refused = cli (cache, stale, args, NULL);
  g_assert_cmpstr (refused, ==, computed);
  g_assert_cmpuint (kept (cache), >, 0);
  remove_tree (dir);
}

/* A share of the presets' plots, and the four transposes compared: the
 * same with the shipped answers as the model computes them afresh. */
static void
test_exact (void)
{
  g_autofree char *dir = g_dir_make_tmp ("warpscope-answers-XXXXXX", NULL);
  g_autofree char *cache = g_build_filename (dir, "cache", NULL);
  const char *list[] = { "model", "--list-presets", NULL };
  g_autofree char *listed = cli (cache, NULL, list, NULL);
  g_auto (GStrv) lines = NULL;
  const char *recordings[] = { "h200.json", "h100.json" };
  Sample sample;
  /* one in 8; in the sampled runs (the sanitizers', the build without
   * CUDA) one in 8 × WS_TEST_SAMPLE, at least one a GPU */
  guint every = sample_every () > 1 ? 8 * sample_every () : 8;
  guint n = 0;

  g_assert_nonnull (listed);
  lines = g_strsplit (listed, "\n", -1);
  sample_init (&sample, "presets' plots", 1);
  sample.every = every;
  for (guint i = 0; lines[i]; i++)
    {
      g_auto (GStrv) words = g_strsplit_set (g_strstrip (lines[i]), " \t", 2);
      const char *rec_name = recordings[n++ % G_N_ELEMENTS (recordings)];
      g_autofree char *rec = NULL;
      g_autofree char *shipped = NULL;
      g_autofree char *computed = NULL;
      g_autofree char *err = NULL;

      if (words[0] == NULL || strchr (words[0], '/') == NULL)
        {
          n--;
          continue;
        }
      if (!sample_keep (&sample, rec_name, NULL))
        continue;
      rec = g_build_filename (source_dir (), "data", "recordings", rec_name, NULL);
      {
        const char *args[] = { "export", "--preset", words[0], "--view", "plot", "--recording", rec,
                               "--format", "csv", "-o", "-", NULL };

        remove_tree (cache);
        shipped = cli (cache, NULL, args, &err);
        if (shipped == NULL)
          g_error ("%s: %s", words[0], err);
        g_assert_cmpuint (kept (cache), ==, 0);
        g_clear_pointer (&err, g_free);
        computed = cli (cache, "off", args, &err);
        if (computed == NULL)
          g_error ("%s: %s", words[0], err);
      }
      if (g_strcmp0 (shipped, computed) != 0)
        g_error ("%s on %s: the shipped answers draw\n%s\nthe model computes\n%s", words[0], rec_name, shipped,
                 computed);
    }
  sample_finish (&sample);

  {
    const char *args[] = { "export", "--view", "compare", "--compare",
                           "transpose/copy,transpose/read-coalesced,transpose/shared,transpose/shared-padded",
                           "--format", "csv", "-o", "-", NULL };
    g_autofree char *shipped = NULL;
    g_autofree char *computed = NULL;

    remove_tree (cache);
    shipped = cli (cache, NULL, args, NULL);
    g_assert_nonnull (shipped);
    g_assert_cmpuint (kept (cache), ==, 0);
    computed = cli (cache, "off", args, NULL);
    g_assert_cmpstr (shipped, ==, computed);
  }
  remove_tree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/model-answers/current", test_current);
  g_test_add_func ("/model-answers/refused", test_refused);
  g_test_add_func ("/model-answers/used", test_used);
  g_test_add_func ("/model-answers/exact", test_exact);
  return g_test_run ();
}
