/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-json-numbers.h"

#include <math.h>
#include <string.h>

/* A number token of JSON text at p (outside strings), rewritten shortest. */
static const char *
append_number (GString    *out,
               const char *p)
{
  const char *end = p;
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_autofree char *token = NULL;
  gboolean fraction = FALSE;
  double v;

  while (*end && (g_ascii_isdigit (*end) || strchr ("+-.eE", *end)))
    {
      fraction |= *end == '.' || *end == 'e' || *end == 'E';
      end++;
    }
  token = g_strndup (p, end - p);
  v = g_ascii_strtod (token, NULL);
  if (!fraction || !isfinite (v))
    {
      g_string_append (out, token);
      return end;
    }
  for (int digits = 1; digits <= 17; digits++)
    {
      char format[8];

      g_snprintf (format, sizeof format, "%%.%dg", digits);
      g_ascii_formatd (buf, sizeof buf, format, v);
      if (g_ascii_strtod (buf, NULL) == v)
        break;
    }
  /* still a fraction to a reader that looks at the text: 3.0, not 3 */
  if (!strpbrk (buf, ".eEn"))
    g_strlcat (buf, ".0", sizeof buf);
  g_string_append (out, buf);
  return end;
}

char *
ws_json_shortest_numbers (const char *text)
{
  GString *out;
  gboolean in_string = FALSE;

  g_return_val_if_fail (text != NULL, NULL);

  out = g_string_sized_new (strlen (text));
  for (const char *p = text; *p;)
    {
      if (in_string)
        {
          if (*p == '\\' && p[1])
            {
              g_string_append_len (out, p, 2);
              p += 2;
              continue;
            }
          in_string = *p != '"';
          g_string_append_c (out, *p++);
        }
      else if (*p == '"')
        {
          in_string = TRUE;
          g_string_append_c (out, *p++);
        }
      else if (*p == '-' || g_ascii_isdigit (*p))
        p = append_number (out, p);
      else
        g_string_append_c (out, *p++);
    }
  return g_string_free (out, FALSE);
}
