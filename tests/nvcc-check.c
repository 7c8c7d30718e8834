/* SPDX-License-Identifier: GPL-3.0-or-later */
/* nvcc for the tests that compile kernel texts (kernel-nvcc,
 * preset-kernels-nvcc), and a mark of each text it compiled once. */
#include "ws-config.h"
#include "nvcc-check.h"

#include <glib/gstdio.h>

char *
ws_test_find_nvcc (void)
{
  char *nvcc = g_find_program_in_path ("nvcc");

  if (nvcc == NULL && g_file_test ("/usr/local/cuda/bin/nvcc", G_FILE_TEST_IS_EXECUTABLE))
    nvcc = g_strdup ("/usr/local/cuda/bin/nvcc");
  return nvcc;
}

/* How a text is compiled: device code alone (-cubin: what NVRTC does with
 * a printed kernel, and nvcc's front end still reads every host function)
 * where it has no host code that runs, the whole of it (-c: host code too,
 * the host compiler's pass, three times as long) where it launches a
 * kernel or has a main. */
static const char *
compile_mode (const char *text)
{
  static GRegex *host = NULL;

  if (host == NULL)
    host = g_regex_new ("<<<|\\bmain\\s*\\(", G_REGEX_OPTIMIZE, 0, NULL);
  return g_regex_match (host, text, 0, NULL) ? "-c" : "-cubin";
}

/* A text nvcc compiled once is not compiled again by the same nvcc: CI
 * runs this test in three builds (with CUDA, without, under the
 * sanitizers) over the same texts, minutes each. The mark of a text that
 * compiled is a file named after the SHA-256 of nvcc's --version and the
 * text, in WS_NVCC_CHECKED_DIR (else the user's cache); a text that did not
 * compile leaves none, and is compiled again every time. */
static char *
checked_mark (const char *nvcc,
              const char *text)
{
  static char *version = NULL;
  const char *dir = g_getenv ("WS_NVCC_CHECKED_DIR");
  g_autofree char *fallback = NULL;
  g_autoptr (GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);

  if (version == NULL)
    {
      const char *argv[] = { nvcc, "--version", NULL };
      char *out = NULL;
      int status = 0;

      if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, &status, NULL) ||
          !g_spawn_check_wait_status (status, NULL) || out == NULL || *out == '\0')
        {
          g_free (out);
          return NULL;
        }
      version = out;
    }
  if (dir == NULL || *dir == '\0')
    dir = fallback = g_build_filename (g_get_user_cache_dir (), "warpscope", "nvcc-checked", NULL);
  g_checksum_update (sum, (const guchar *) version, -1);
  g_checksum_update (sum, (const guchar *) "\n", -1);
  g_checksum_update (sum, (const guchar *) compile_mode (text), -1);
  g_checksum_update (sum, (const guchar *) " -arch=sm_90\n", -1);
  g_checksum_update (sum, (const guchar *) text, -1);
  return g_build_filename (dir, g_checksum_get_string (sum), NULL);
}

void
ws_test_nvcc_compiles (const char *nvcc,
                       const char *text,
                       const char *what)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *mark = checked_mark (nvcc, text);
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status = 0;
  const char *argv[] = { nvcc, compile_mode (text), "-arch=sm_90", "-o", "/dev/null", NULL, NULL };

  if (mark && g_file_test (mark, G_FILE_TEST_EXISTS))
    {
      g_test_message ("%s: compiled by this nvcc before (%s)", what, mark);
      return;
    }
  dir = g_dir_make_tmp ("ws-kernel-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "kernel.cu", NULL);
  g_assert_true (g_file_set_contents (path, text, -1, &error));
  argv[5] = path;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error));
  if (!g_spawn_check_wait_status (status, NULL))
    g_test_message ("%s does not compile:\n%s\n%s", what, err, text);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_unlink (path);
  g_rmdir (dir);
  if (mark)
    {
      g_autofree char *parent = g_path_get_dirname (mark);
      /* a cache that cannot be written costs time, not the check */
      if (g_mkdir_with_parents (parent, 0755) == 0)
        g_file_set_contents (mark, what, -1, NULL);
    }
}
