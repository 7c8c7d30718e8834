/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Benchmark: figures for a slide, as warpscope-cli export draws them — a
 * comparison of the four transposes and the offset sweep's plot, at
 * --scale 2 — the first time as a new user draws them (the answers shipped
 * in data/model-answers.txt), the first time without those (every launch
 * of the model followed through L1, L2 and DRAM), and again (the model's
 * answers kept on disk, ui/plots/ws-plot-cache.c); then every preset's
 * plot the first time, as shipped. Run with `meson test --benchmark
 * export`; prints the seconds each took. */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double
run (const char * const *argv,
     const char         *cache,
     const char         *answers)
{
  g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *err = NULL;
  gint64 start = g_get_monotonic_time ();

  g_subprocess_launcher_setenv (launcher, "WS_MODEL_CACHE_DIR", cache, TRUE);
  if (answers)
    g_subprocess_launcher_setenv (launcher, "WS_MODEL_ANSWERS", answers, TRUE);
  else
    g_subprocess_launcher_unsetenv (launcher, "WS_MODEL_ANSWERS");
  proc = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_communicate_utf8 (proc, NULL, NULL, NULL, &err, &error));
  g_assert_no_error (error);
  if (g_subprocess_get_exit_status (proc) != 0)
    g_error ("%s failed: %s", argv[1], err);
  return (g_get_monotonic_time () - start) / 1e6;
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

static int
by_value (const void *a,
          const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

int
main (int    argc,
      char **argv)
{
  const char *cli = g_getenv ("WS_CLI");
  g_autofree char *dir = g_dir_make_tmp ("warpscope-bench-export-XXXXXX", NULL);
  g_autofree char *cache = g_build_filename (dir, "cache", NULL);
  g_autofree char *compare_png = g_build_filename (dir, "transpose.png", NULL);
  g_autofree char *offset_png = g_build_filename (dir, "offset.png", NULL);
  const char *compare[] = { cli, "export", "--view", "compare", "--compare",
                            "transpose/copy,transpose/read-coalesced,transpose/shared,transpose/shared-padded",
                            "--width", "1300", "--scale", "2", "-o", compare_png, NULL };
  const char *offset[] = { cli, "export", "--preset", "coalescing/offset", "--view", "plot", "--scale", "2", "-o",
                           offset_png, NULL };
  const struct
  {
    const char *name;
    const char * const *argv;
  } figures[] = { { "comparison of the four transposes", compare }, { "offset sweep's plot", offset } };

  g_autofree char *fresh = g_build_filename (dir, "fresh", NULL);
  g_autofree char *plot_png = g_build_filename (dir, "plot.png", NULL);
  g_autofree char *listed = NULL;
  g_auto (GStrv) lines = NULL;
  double most = 0, total = 0;
  const char *slowest = NULL;
  guint n = 0;

  g_assert_nonnull (cli);
  g_assert_nonnull (dir);
  printf ("# warpscope-cli export at --scale 2, %u cores: the first time as shipped (with the model's answers\n"
          "# of data/model-answers.txt), the first time without them, then again (median of 5)\n",
          g_get_num_processors ());
  for (guint f = 0; f < G_N_ELEMENTS (figures); f++)
    {
      double shipped, first, again[5];

      remove_tree (fresh);
      shipped = run (figures[f].argv, fresh, NULL);
      first = run (figures[f].argv, cache, "off");
      for (guint i = 0; i < G_N_ELEMENTS (again); i++)
        again[i] = run (figures[f].argv, cache, "off");
      qsort (again, G_N_ELEMENTS (again), sizeof again[0], by_value);
      printf ("%-36s first %5.2f s (without the shipped answers %6.2f s)   again %5.2f s (fastest %.2f s)\n",
              figures[f].name, shipped, first, again[2], again[0]);
    }

  /* every preset's plot, the first time, as shipped */
  {
    const char *list[] = { cli, "model", "--list-presets", NULL };
    g_autoptr (GSubprocess) proc = g_subprocess_newv (list, G_SUBPROCESS_FLAGS_STDOUT_PIPE, NULL);

    g_assert_nonnull (proc);
    g_assert_true (g_subprocess_communicate_utf8 (proc, NULL, NULL, &listed, NULL, NULL));
    lines = g_strsplit (listed, "\n", -1);
  }
  for (guint i = 0; lines[i]; i++)
    {
      g_auto (GStrv) words = g_strsplit_set (g_strstrip (lines[i]), " \t", 2);
      const char *plot[] = { cli, "export", "--preset", words[0], "--view", "plot", "--scale", "2", "-o",
                             plot_png, NULL };
      double t;

      if (words[0] == NULL || strchr (words[0], '/') == NULL)
        continue;
      remove_tree (fresh);
      t = run (plot, fresh, NULL);
      total += t;
      n++;
      if (t > most)
        {
          most = t;
          g_free ((char *) slowest);
          slowest = g_strdup (words[0]);
        }
    }
  printf ("every preset's plot, the first time   %u plots in %.2f s: %.2f s each, the slowest %.2f s (%s)\n",
          n, total, n ? total / n : 0, most, slowest ? slowest : "none");
  g_free ((char *) slowest);
  /* what the benchmark made is its own */
  remove_tree (dir);
  return 0;
}
