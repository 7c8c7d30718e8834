/* SPDX-License-Identifier: GPL-3.0-or-later */
/* --kernel FILE[:NAME]: a kernel of one's own, read from its file, its
 * launch from its comment and the options, and the model of its whole
 * launch run on a thread; ws-cli-kernel-print.c prints what it gives. */
#include "ws-config.h"
#include "ws-cli-kernel.h"
#include "ws-cli-work.h"
#include "ws-file-reader.h"

#include <string.h>

/* ------------------------------------------------------------------ */
/* The file                                                           */
/* ------------------------------------------------------------------ */

/* At most WS_KERNEL_MAX_TEXT bytes of a regular file, as UTF-8 text. */
static char *
read_kernel_file (const char *path,
                  GError    **error)
{
  g_autoptr (GError) failed = NULL;
  gsize length = 0;
  g_autofree char *text = ws_file_read_bounded (path, WS_KERNEL_MAX_TEXT, &length, &failed);

  if (text == NULL && g_error_matches (failed, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   /* Translators: a file's name, then the most a kernel file may have, in KiB */
                   _("%s is longer than a kernel file may be (%u KiB)"), path, (guint) (WS_KERNEL_MAX_TEXT >> 10));
      return NULL;
    }
  if (text == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&failed));
      return NULL;
    }
  if (memchr (text, '\0', length) != NULL || !g_utf8_validate (text, (gssize) length, NULL))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   /* Translators: %s is a file's name */
                   _("%s is not UTF-8 text"), path);
      return NULL;
    }
  return g_steal_pointer (&text);
}

/* FILE or FILE:NAME; a colon that is part of an existing file's name
 * stays in it. */
static void
split_kernel_option (const char  *option,
                     char       **path,
                     char       **name)
{
  const char *colon = strrchr (option, ':');

  *name = NULL;
  if (colon && colon[1] != '\0' && colon[1] != '/' && !g_file_test (option, G_FILE_TEST_EXISTS))
    {
      *path = g_strndup (option, colon - option);
      *name = g_strdup (colon + 1);
    }
  else
    *path = g_strdup (option);
}

WsKernelSpec *
ws_cli_kernel_spec (const WsCliPatternOptions *o,
                    GError                   **error)
{
  g_autofree char *path = NULL, *name = NULL, *text = NULL, *base = NULL;
  g_autoptr (WsKernelSpec) spec = NULL;

  g_return_val_if_fail (o->kernel != NULL, NULL);

  if (o->preset || o->index || o->space || o->access || o->guard || o->defines || o->base ||
      o->elem_size != WS_CLI_NO_ELEM_SIZE)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           _("--kernel: a kernel of your own takes --grid, --block and --set only; the pattern's "
                             "options (--preset, --index, --space, --access, --guard, --define, --base, "
                             "--elem-size) describe a pattern instead"));
      return NULL;
    }
  split_kernel_option (o->kernel, &path, &name);
  if ((text = read_kernel_file (path, error)) == NULL)
    {
      g_prefix_error (error, "--kernel: ");
      return NULL;
    }
  base = g_path_get_basename (path);
  spec = ws_kernel_spec_new (text, base);
  ws_kernel_spec_set_kernel (spec, name);
  if (o->grid)
    ws_kernel_spec_set (spec, "grid", o->grid);
  if (o->block)
    ws_kernel_spec_set (spec, "block", o->block);
  for (guint i = 0; o->sets && o->sets[i]; i++)
    {
      const char *eq = strchr (o->sets[i], '=');
      g_autofree char *key = NULL;

      if (eq == NULL || eq == o->sets[i])
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("--set: “%s” is not NAME=VALUE"),
                       o->sets[i]);
          return NULL;
        }
      key = g_strstrip (g_strndup (o->sets[i], eq - o->sets[i]));
      ws_kernel_spec_set (spec, key, eq + 1);
    }
  return g_steal_pointer (&spec);
}

/* ------------------------------------------------------------------ */
/* The model, on a thread                                             */
/* ------------------------------------------------------------------ */

typedef struct
{
  WsKernelInstance *instance;
  const WsDeviceProfile *profile;
} Predict;

static gpointer
predict (gpointer            data,
         GCancellable       *cancellable,
         WsAnalysisProgress *progress,
         GError            **error)
{
  Predict *p = data;

  return ws_kernel_predict (p->instance, p->profile, 0, cancellable, progress, error);
}

WsKernelPrediction *
ws_cli_kernel_predict (WsKernelInstance      *instance,
                       const WsDeviceProfile *profile,
                       GError               **error)
{
  Predict p = { instance, profile };

  return ws_cli_run_work (predict, &p, _("running the kernel's launch (Ctrl+C stops)"), error);
}
