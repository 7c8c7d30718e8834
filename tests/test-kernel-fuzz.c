/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Every input the kernel fuzzer (fuzz/fuzz-kernel.c) found a crash with,
 * run through the same harness: each must now pass its checks. */
#include "fuzz-common.h"

#include <string.h>

static void
test_input (gconstpointer data)
{
  const char *path = data;
  g_autofree char *text = NULL;
  gsize length = 0;
  g_autoptr (GError) error = NULL;

  g_assert_true (g_file_get_contents (path, &text, &length, &error));
  g_assert_no_error (error);
  g_assert_cmpint (LLVMFuzzerTestOneInput ((const uint8_t *) text, length), ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *dir = NULL;
  g_autoptr (GDir) d = NULL;
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_test_init (&argc, &argv, NULL);
  dir = g_test_build_filename (G_TEST_DIST, "data", "kernels", "fuzz", NULL);
  d = g_dir_open (dir, 0, NULL);
  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, (GCompareFunc) g_ascii_strcasecmp);
  for (guint i = 0; i < names->len; i++)
    {
      const char *n = g_ptr_array_index (names, i);
      g_autofree char *test_path = g_strdup_printf ("/kernel-fuzz/%s", n);
      g_test_add_data_func_full (test_path, g_build_filename (dir, n, NULL), test_input, g_free);
    }
  /* the harness's own checks abort; warnings are fatal there too */
  LLVMFuzzerInitialize (&argc, &argv);
  return g_test_run ();
}
