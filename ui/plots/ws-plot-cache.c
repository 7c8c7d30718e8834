/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The model's answers on disk: a file per key, the key itself on its first
 * line (a hash names the file; the key read back rules out a collision),
 * then one number a line, exactly (%.17g). */
#include "ws-plot-cache.h"
#include "ws-model-fingerprint.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

char *
ws_plot_cache_dir (void)
{
  const char *dir = g_getenv ("WS_MODEL_CACHE_DIR");
  g_autofree char *name = g_strdup_printf ("model-%s", WS_MODEL_FINGERPRINT);

  if (dir && g_str_equal (dir, "off"))
    return NULL;
  if (dir && *dir)
    return g_build_filename (dir, name, NULL);
  return g_build_filename (g_get_user_cache_dir (), "warpscope", name, NULL);
}

static char *
path_for (const char *kind,
          const char *key)
{
  g_autofree char *dir = ws_plot_cache_dir ();
  g_autofree char *hash = NULL;
  g_autofree char *file = NULL;

  if (dir == NULL)
    return NULL;
  hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, key, -1);
  file = g_strdup_printf ("%s-%s", kind, hash);
  return g_build_filename (dir, file, NULL);
}

/* The key on one line: its newlines written as "\n". */
static char *
key_line (const char *key)
{
  return g_strescape (key, NULL);
}

gboolean
ws_plot_cache_lookup (const char *kind,
                      const char *key,
                      double     *values,
                      guint       n)
{
  g_autofree char *path = path_for (kind, key);
  g_autofree char *text = NULL;
  g_autofree char *line = NULL;
  g_auto (GStrv) lines = NULL;

  g_return_val_if_fail (kind != NULL && key != NULL && values != NULL, FALSE);

  if (path == NULL || !g_file_get_contents (path, &text, NULL, NULL))
    return FALSE;
  lines = g_strsplit (text, "\n", -1);
  line = key_line (key);
  if (g_strv_length (lines) < n + 1 || g_strcmp0 (lines[0], line) != 0)
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      char *end;
      errno = 0;
      values[i] = g_ascii_strtod (lines[i + 1], &end);
      if (errno != 0 || end == lines[i + 1] || *end != '\0')
        return FALSE;
    }
  return TRUE;
}

void
ws_plot_cache_store (const char   *kind,
                     const char   *key,
                     const double *values,
                     guint         n)
{
  g_autofree char *path = path_for (kind, key);
  g_autofree char *dir = NULL;
  g_autofree char *line = NULL;
  GString *text;

  g_return_if_fail (kind != NULL && key != NULL && values != NULL);

  if (path == NULL)
    return;
  dir = g_path_get_dirname (path);
  /* a cache that cannot be written is no cache: the answers are computed again */
  if (g_mkdir_with_parents (dir, 0700) != 0)
    return;
  line = key_line (key);
  text = g_string_new (line);
  for (guint i = 0; i < n; i++)
    {
      char number[G_ASCII_DTOSTR_BUF_SIZE];
      g_string_append_printf (text, "\n%s", g_ascii_formatd (number, sizeof number, "%.17g", values[i]));
    }
  g_string_append_c (text, '\n');
  g_file_set_contents (path, text->str, text->len, NULL);
  g_string_free (text, TRUE);
}
