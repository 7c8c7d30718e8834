/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Benchmark: figures for a slide, as warpscope-cli export draws them — a
 * comparison of the four transposes and the offset sweep's plot, at
 * --scale 2 — the first time (every launch of the model followed through
 * L1, L2 and DRAM) and again (the model's answers kept on disk,
 * ui/plots/ws-plot-cache.c). Run with `meson test --benchmark export`;
 * prints the seconds each took. */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>

static double
run (const char * const *argv,
     const char         *cache)
{
  g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *err = NULL;
  gint64 start = g_get_monotonic_time ();

  g_subprocess_launcher_setenv (launcher, "WS_MODEL_CACHE_DIR", cache, TRUE);
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

  g_assert_nonnull (cli);
  g_assert_nonnull (dir);
  printf ("# warpscope-cli export at --scale 2, %u cores: the first time, then again (median of 5)\n",
          g_get_num_processors ());
  for (guint f = 0; f < G_N_ELEMENTS (figures); f++)
    {
      double first = run (figures[f].argv, cache), again[5];

      for (guint i = 0; i < G_N_ELEMENTS (again); i++)
        again[i] = run (figures[f].argv, cache);
      qsort (again, G_N_ELEMENTS (again), sizeof again[0], by_value);
      printf ("%-36s first %6.2f s   again %5.2f s (fastest %.2f s)\n", figures[f].name, first, again[2], again[0]);
    }
  /* what the benchmark made is its own */
  remove_tree (dir);
  return 0;
}
