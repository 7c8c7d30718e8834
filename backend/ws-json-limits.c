/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-json-limits.h"

#include <gio/gio.h>

gboolean
ws_json_check_depth (const char *data,
                     gsize       length,
                     guint       max_depth,
                     GError    **error)
{
  gboolean in_string = FALSE;
  guint depth = 0;

  g_return_val_if_fail (data != NULL || length == 0, FALSE);

  for (gsize i = 0; i < length; i++)
    {
      char c = data[i];

      if (in_string)
        {
          if (c == '\\')
            i++;
          else if (c == '"')
            in_string = FALSE;
          continue;
        }
      if (c == '"')
        in_string = TRUE;
      else if (c == '[' || c == '{')
        {
          if (++depth > max_depth)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           "arrays and objects nest more than %u deep (at byte %" G_GSIZE_FORMAT ")",
                           max_depth, i + 1);
              return FALSE;
            }
        }
      else if ((c == ']' || c == '}') && depth > 0)
        depth--;
    }
  return TRUE;
}
