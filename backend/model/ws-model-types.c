/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-config.h"
#include "ws-model-types.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <string.h>

static const char *space_names[WS_N_SPACES] = { "global", "shared", "constant", "local", "register" };
static const char *access_names[WS_N_ACCESS_KINDS] = { "load", "store", "atomic" };

const char *
ws_space_to_string (WsSpace space)
{
  g_return_val_if_fail (space < WS_N_SPACES, NULL);
  return space_names[space];
}

gboolean
ws_space_from_string (const char *text,
                      WsSpace    *space)
{
  for (guint i = 0; i < WS_N_SPACES; i++)
    if (g_strcmp0 (text, space_names[i]) == 0)
      {
        *space = i;
        return TRUE;
      }
  return FALSE;
}

const char *
ws_access_kind_to_string (WsAccessKind kind)
{
  g_return_val_if_fail (kind < WS_N_ACCESS_KINDS, NULL);
  return access_names[kind];
}

gboolean
ws_access_kind_from_string (const char   *text,
                            WsAccessKind *kind)
{
  for (guint i = 0; i < WS_N_ACCESS_KINDS; i++)
    if (g_strcmp0 (text, access_names[i]) == 0)
      {
        *kind = i;
        return TRUE;
      }
  return FALSE;
}

gboolean
ws_elem_size_is_valid (guint elem_size)
{
  return elem_size == 1 || elem_size == 2 || elem_size == 4 || elem_size == 8 || elem_size == 16;
}

guint64
ws_dim3_count (WsDim3 d)
{
  return (guint64) d.x * d.y * d.z;
}

WsDim3
ws_dim3_block_of (WsDim3  grid,
                  guint64 linear)
{
  g_return_val_if_fail (grid.x > 0 && grid.y > 0, WS_DIM3 (0, 0, 0));

  return WS_DIM3 ((guint) (linear % grid.x),
                  (guint) ((linear / grid.x) % grid.y),
                  (guint) (linear / ((guint64) grid.x * grid.y)));
}

gboolean
ws_dim3_parse (const char *text,
               WsDim3     *out,
               GError    **error)
{
  g_auto (GStrv) parts = NULL;
  guint v[3] = { 1, 1, 1 };
  guint n;

  g_return_val_if_fail (text != NULL, FALSE);

  parts = g_strsplit (text, ",", -1);
  n = g_strv_length (parts);
  if (n < 1 || n > 3)
    {
      g_autofree char *shown = ws_text_for_message (text);
      /* Translators: a block's or a grid's size as typed; X[,Y[,Z]] is its form, 256 or 32,8 */
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("“%s” is not X[,Y[,Z]]"), shown);
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    {
      char *end = NULL;
      const char *s = g_strstrip (parts[i]);
      guint64 value;

      errno = 0;
      value = g_ascii_strtoull (s, &end, 10);
      /* digits, but too many: say the limit, not that it is no number */
      if (*s != '\0' && *s != '-' && *s != '+' && *end == '\0' && (errno == ERANGE || value > G_MAXINT32))
        {
          g_autofree char *part = ws_text_for_message (s);
          g_autofree char *shown = ws_text_for_message (text);
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       /* Translators: a component as typed, the size it is in, which
                        * component (from 1), then the most a component may be */
                       _("“%s” in “%s” is too large (component %u): at most %d"), part, shown, i + 1, G_MAXINT32);
          return FALSE;
        }
      if (*s == '\0' || *s == '-' || *end != '\0' || errno != 0 || value == 0 || value > G_MAXINT32)
        {
          g_autofree char *part = ws_text_for_message (s);
          g_autofree char *shown = ws_text_for_message (text);
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("“%s” in “%s” is not a positive integer (component %u)"), part, shown, i + 1);
          return FALSE;
        }
      v[i] = (guint) value;
    }
  *out = WS_DIM3 (v[0], v[1], v[2]);
  return TRUE;
}

char *
ws_dim3_to_string (WsDim3 d)
{
  if (d.z != 1)
    return g_strdup_printf ("%u,%u,%u", d.x, d.y, d.z);
  if (d.y != 1)
    return g_strdup_printf ("%u,%u", d.x, d.y);
  return g_strdup_printf ("%u", d.x);
}

char *
ws_text_for_message (const char *text)
{
  return ws_text_printable (text, 80);
}

char *
ws_text_bounded (const char *text,
                 guint       max_chars)
{
  g_autofree char *valid = NULL;
  const char *end;

  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (max_chars > 0, NULL);

  /* most are short: only a long one is counted in characters */
  if (strlen (text) <= max_chars && g_utf8_validate (text, -1, NULL))
    return g_strdup (text);
  valid = g_utf8_make_valid (text, -1);
  end = valid;
  for (guint n = 0; *end && n < max_chars; n++)
    end = g_utf8_next_char (end);
  if (*end == '\0')
    return g_steal_pointer (&valid);
  end = g_utf8_offset_to_pointer (valid, max_chars - 1);
  return g_strdup_printf ("%.*s…", (int) (end - valid), valid);
}

char *
ws_text_printable (const char *text,
                   guint       max_chars)
{
  g_autofree char *valid = NULL;
  GString *out;
  guint n = 0;

  g_return_val_if_fail (text != NULL, NULL);

  valid = g_utf8_make_valid (text, -1);
  out = g_string_new (NULL);
  for (const char *p = valid; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);
      char shown[8];
      guint width;

      if (c == '\n')
        strcpy (shown, "\\n");
      else if (c == '\t')
        strcpy (shown, "\\t");
      else if (g_unichar_iscntrl (c))
        g_snprintf (shown, sizeof shown, "\\x%02x", c);
      else
        shown[g_unichar_to_utf8 (c, shown)] = '\0';
      /* the characters written count, escapes included */
      width = g_utf8_strlen (shown, -1);
      if (max_chars > 0 && n + width > max_chars)
        {
          g_string_append (out, "…");
          break;
        }
      g_string_append (out, shown);
      n += width;
    }
  return g_string_free (out, FALSE);
}
