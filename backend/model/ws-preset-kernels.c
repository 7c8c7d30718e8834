/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Finding a preset's kernel text: found as the bundled recordings and the
 * course kernels are (installed first, else the source tree), with an
 * environment variable ahead of both for tests and uninstalled runs. */
#include "ws-config.h"
#include "ws-preset-kernels.h"
#include "ws-i18n.h"

#include <glib/gi18n-lib.h>
#include <string.h>

char *
ws_preset_kernels_dir (void)
{
  const char *env = g_getenv ("WS_PRESETS_DIR");
  g_autofree char *installed = NULL;

  if (env && *env)
    return g_strdup (env);
  installed = g_build_filename (WS_PKGDATADIR, "presets", NULL);
  if (g_file_test (installed, G_FILE_TEST_IS_DIR))
    return g_steal_pointer (&installed);
  return g_build_filename (WS_SOURCE_DATADIR, "presets", NULL);
}

/* "topic/name": lower-case letters, digits and dashes on both sides of
 * one slash, so that an id never names a file outside the folder */
static gboolean
valid_id (const char *id)
{
  const char *slash = strchr (id, '/');

  if (slash == NULL || slash == id || slash[1] == '\0' || strchr (slash + 1, '/'))
    return FALSE;
  for (const char *p = id; *p; p++)
    if (p != slash && !g_ascii_islower (*p) && !g_ascii_isdigit (*p) && *p != '-')
      return FALSE;
  return TRUE;
}

char *
ws_preset_kernel_path (const char *id)
{
  g_autofree char *dir = NULL;
  g_autofree char *file = NULL;
  g_autofree char *path = NULL;

  g_return_val_if_fail (id != NULL, NULL);

  if (!valid_id (id))
    return NULL;
  dir = ws_preset_kernels_dir ();
  file = g_strconcat (id, ".cu", NULL);
  path = g_build_filename (dir, file, NULL);
  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return NULL;
  return g_steal_pointer (&path);
}

char *
ws_preset_dup_kernel_text (const char *id,
                           GError    **error)
{
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;
  gsize length = 0;

  g_return_val_if_fail (id != NULL, NULL);

  if ((path = ws_preset_kernel_path (id)) == NULL)
    return NULL;
  if (!g_file_get_contents (path, &text, &length, error))
    return NULL;
  if (memchr (text, '\0', length) != NULL || !g_utf8_validate (text, (gssize) length, NULL))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   /* Translators: %s is a file's path */
                   _("%s: not UTF-8 text"), path);
      return NULL;
    }
  return g_steal_pointer (&text);
}
