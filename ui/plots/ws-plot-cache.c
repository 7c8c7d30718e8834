/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The model's answers on disk: a file per key, the key itself on its first
 * line (a hash names the file; the key read back rules out a collision),
 * then one number a line, exactly (%.17g). Ahead of them, the answers
 * shipped with the program for the presets' figures (data/model-answers.txt),
 * when they were made from this build's sources. */
#include "ws-config.h"
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

/* An answer's name: its kind and the SHA-256 of its key. */
static char *
name_for (const char *kind,
          const char *key)
{
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, key, -1);

  return g_strdup_printf ("%s-%s", kind, hash);
}

static char *
path_for (const char *kind,
          const char *key)
{
  g_autofree char *dir = ws_plot_cache_dir ();
  g_autofree char *file = NULL;

  if (dir == NULL)
    return NULL;
  file = name_for (kind, key);
  return g_build_filename (dir, file, NULL);
}

/* ------------------------------------------------------------------ */
/* The shipped answers                                                */
/* ------------------------------------------------------------------ */

/* data/model-answers.txt: comment lines (#), then "fingerprint HEX", the
 * source fingerprint they were made from, then a line an answer: its name
 * (name_for) and its numbers, separated by spaces. A name is a SHA-256 of
 * the whole key, so the key itself is not kept. */
typedef struct
{
  char *path;
  char *text;
  GHashTable *answers;   /* name → its numbers, in text */
} Shipped;

static gboolean
read_shipped (const char  *path,
              Shipped     *out,
              GError     **error)
{
  g_autofree char *text = NULL;
  g_autoptr (GHashTable) answers = g_hash_table_new (g_str_hash, g_str_equal);
  gboolean fingerprint = FALSE;
  guint line_no = 0;
  char *line;
  char *next;

  if (!g_file_get_contents (path, &text, NULL, error))
    return FALSE;
  for (line = text; line && *line; line = next)
    {
      char *space;

      line_no++;
      next = strchr (line, '\n');
      if (next)
        *next++ = '\0';
      if (*line == '#' || *line == '\0')
        continue;
      if (g_str_has_prefix (line, "fingerprint "))
        {
          const char *made = line + strlen ("fingerprint ");

          if (!g_str_equal (made, WS_MODEL_SOURCE_FINGERPRINT))
            {
              g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                           "%s was made from other sources of the model (fingerprint %s, this build %s): "
                           "run tools/make-model-answers", path, made, WS_MODEL_SOURCE_FINGERPRINT);
              return FALSE;
            }
          fingerprint = TRUE;
          continue;
        }
      space = strchr (line, ' ');
      if (!fingerprint || space == NULL || space == line)
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                       !fingerprint ? "%s, line %u: an answer before the fingerprint line"
                                    : "%s, line %u: not a name and its numbers",
                       path, line_no);
          return FALSE;
        }
      *space = '\0';
      g_hash_table_insert (answers, line, space + 1);
    }
  if (!fingerprint)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s has no fingerprint line", path);
      return FALSE;
    }
  out->path = g_strdup (path);
  out->text = g_steal_pointer (&text);
  out->answers = g_steal_pointer (&answers);
  return TRUE;
}

/* $WS_MODEL_ANSWERS (a file, or "off"), else the installed file, else the
 * source tree's: the first made from this build's sources. */
static Shipped *
shipped (void)
{
  static Shipped found;
  static gsize once;

  if (g_once_init_enter (&once))
    {
      const char *env = g_getenv ("WS_MODEL_ANSWERS");
      g_autofree char *installed = g_build_filename (WS_PKGDATADIR, "model-answers.txt", NULL);
      g_autofree char *source = g_build_filename (WS_SOURCE_DATADIR, "model-answers.txt", NULL);
      const char *candidates[] = { installed, source };

      if (env && *env)
        {
          if (!g_str_equal (env, "off"))
            candidates[0] = env, candidates[1] = NULL;
          else
            candidates[0] = candidates[1] = NULL;
        }
      for (guint i = 0; i < G_N_ELEMENTS (candidates) && candidates[i] && found.answers == NULL; i++)
        {
          g_autoptr (GError) error = NULL;

          /* not used, so the model answers: slower, never wrong */
          if (!read_shipped (candidates[i], &found, &error))
            g_debug ("the model's answers of %s are not used: %s", candidates[i], error->message);
        }
      g_once_init_leave (&once, 1);
    }
  return found.answers ? &found : NULL;
}

const char *
ws_plot_cache_shipped_path (void)
{
  Shipped *s = shipped ();

  return s ? s->path : NULL;
}

gboolean
ws_plot_cache_shipped_check (const char  *path,
                             guint       *n_answers,
                             GError     **error)
{
  Shipped s = { 0 };

  g_return_val_if_fail (path != NULL, FALSE);

  if (!read_shipped (path, &s, error))
    return FALSE;
  if (n_answers)
    *n_answers = g_hash_table_size (s.answers);
  g_hash_table_unref (s.answers);
  g_free (s.text);
  g_free (s.path);
  return TRUE;
}

static gboolean
parse_numbers (const char *text,
               double     *values,
               guint       n)
{
  const char *p = text;

  for (guint i = 0; i < n; i++)
    {
      char *end;

      errno = 0;
      values[i] = g_ascii_strtod (p, &end);
      if (errno != 0 || end == p || (*end != ' ' && *end != '\0'))
        return FALSE;
      p = *end ? end + 1 : end;
    }
  return *p == '\0';
}

static gboolean
shipped_lookup (const char *kind,
                const char *key,
                double     *values,
                guint       n)
{
  Shipped *s = shipped ();
  g_autofree char *name = NULL;
  const char *numbers;

  if (s == NULL)
    return FALSE;
  name = name_for (kind, key);
  numbers = g_hash_table_lookup (s->answers, name);
  return numbers && parse_numbers (numbers, values, n);
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

  if (shipped_lookup (kind, key, values, n))
    return TRUE;
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
