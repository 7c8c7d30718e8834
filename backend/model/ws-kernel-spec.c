/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-config.h"
#include "ws-kernel-spec.h"
#include "ws-i18n.h"

#include <glib/gi18n-lib.h>

#include <string.h>

WsKernelSpec *
ws_kernel_spec_new (const char *text,
                    const char *display_name)
{
  WsKernelSpec *spec = g_new0 (WsKernelSpec, 1);

  g_return_val_if_fail (text != NULL, NULL);

  spec->text = g_strdup (text);
  spec->display_name = g_strdup (display_name ? display_name : "kernel.cu");
  spec->names = g_ptr_array_new_with_free_func (g_free);
  spec->values = g_ptr_array_new_with_free_func (g_free);
  return spec;
}

WsKernelSpec *
ws_kernel_spec_copy (const WsKernelSpec *spec)
{
  WsKernelSpec *copy;

  g_return_val_if_fail (spec != NULL, NULL);

  copy = ws_kernel_spec_new (spec->text, spec->display_name);
  copy->kernel = g_strdup (spec->kernel);
  for (guint i = 0; i < spec->names->len; i++)
    ws_kernel_spec_set (copy, spec->names->pdata[i], spec->values->pdata[i]);
  return copy;
}

void
ws_kernel_spec_free (WsKernelSpec *spec)
{
  if (spec == NULL)
    return;
  g_free (spec->text);
  g_free (spec->display_name);
  g_free (spec->kernel);
  g_ptr_array_unref (spec->names);
  g_ptr_array_unref (spec->values);
  g_free (spec);
}

void
ws_kernel_spec_set_kernel (WsKernelSpec *spec,
                           const char   *kernel)
{
  g_return_if_fail (spec != NULL);

  g_free (spec->kernel);
  spec->kernel = g_strdup (kernel);
}

void
ws_kernel_spec_set (WsKernelSpec *spec,
                    const char   *name,
                    const char   *value)
{
  g_return_if_fail (spec != NULL && name != NULL && value != NULL);

  for (guint i = 0; i < spec->names->len; i++)
    if (strcmp (spec->names->pdata[i], name) == 0)
      {
        g_free (spec->values->pdata[i]);
        spec->values->pdata[i] = g_strdup (value);
        return;
      }
  g_ptr_array_add (spec->names, g_strdup (name));
  g_ptr_array_add (spec->values, g_strdup (value));
}

void
ws_kernel_spec_set_dim (WsKernelSpec *spec,
                        const char   *name,
                        WsDim3        dim)
{
  g_autofree char *value = g_strdup_printf ("%u, %u, %u", dim.x, dim.y, dim.z);

  ws_kernel_spec_set (spec, name, value);
}

gboolean
ws_kernel_spec_equal (const WsKernelSpec *a,
                      const WsKernelSpec *b)
{
  if (a == b)
    return TRUE;
  if (a == NULL || b == NULL || g_strcmp0 (a->text, b->text) != 0 || g_strcmp0 (a->kernel, b->kernel) != 0 ||
      a->names->len != b->names->len)
    return FALSE;
  for (guint i = 0; i < a->names->len; i++)
    if (g_strcmp0 (a->names->pdata[i], b->names->pdata[i]) != 0 ||
        g_strcmp0 (a->values->pdata[i], b->values->pdata[i]) != 0)
      return FALSE;
  return TRUE;
}

char *
ws_kernel_spec_hash (const WsKernelSpec *spec)
{
  g_autoptr (GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);

  g_return_val_if_fail (spec != NULL, NULL);

  /* each part with its length, so that no two specs read the same */
#define PART(s) G_STMT_START { const char *p_ = (s) ? (s) : ""; gsize n_ = strlen (p_); \
    g_checksum_update (sum, (const guchar *) &n_, sizeof n_); g_checksum_update (sum, (const guchar *) p_, n_); } G_STMT_END
  PART (spec->text);
  PART (spec->kernel);
  for (guint i = 0; i < spec->names->len; i++)
    {
      PART (spec->names->pdata[i]);
      PART (spec->values->pdata[i]);
    }
#undef PART
  return g_strdup (g_checksum_get_string (sum));
}

WsKernelInstance *
ws_kernel_spec_instantiate (const WsKernelSpec *spec,
                            GCancellable       *cancellable,
                            GError            **error)
{
  g_autoptr (WsKernelFile) file = NULL;
  WsKernelLaunchConfig *config;
  WsKernelInstance *instance = NULL;

  g_return_val_if_fail (spec != NULL, NULL);

  file = ws_kernel_file_parse (spec->text, -1, spec->display_name, error);
  if (file == NULL)
    return NULL;
  config = ws_kernel_config_new (file, spec->kernel, error);
  if (config == NULL)
    return NULL;
  for (guint i = 0; i < spec->names->len; i++)
    if (!ws_kernel_config_set (config, spec->names->pdata[i], spec->values->pdata[i], error))
      {
        ws_kernel_config_free (config);
        return NULL;
      }
  instance = ws_kernel_instance_new (file, config, cancellable, error);
  ws_kernel_config_free (config);
  return instance;
}

char *
ws_kernel_spec_live_key (const WsKernelSpec *spec)
{
  g_autofree char *hash = ws_kernel_spec_hash (spec);

  return g_strconcat ("kernel:", hash, NULL);
}
