/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What every part of the kernel reader shares: the arena the tree lives in,
 * and diagnostics, whose byte offsets become lines and columns at the end. */
#include "ws-config.h"
#include "ws-kernel-private.h"
#include "ws-i18n.h"

#include <glib/gi18n-lib.h>
#include <string.h>

G_DEFINE_QUARK (ws-kernel-error-quark, ws_kernel_error)

/* ------------------------------------------------------------------ */
/* Arena                                                              */
/* ------------------------------------------------------------------ */

struct _WkArenaBlock
{
  WkArenaBlock *next;
  gsize size;
  /* data follows, aligned to 16 */
  guint8 pad[8];
};

#define BLOCK_HEADER (sizeof (WkArenaBlock))
#define ARENA_BLOCK (64 * 1024)

gpointer
wk_arena_alloc (WkArena *arena,
                gsize    size)
{
  guint8 *p;

  size = (size + 15) & ~(gsize) 15;
  if (arena->blocks == NULL || arena->used + size > arena->size)
    {
      gsize want = MAX (ARENA_BLOCK, size);
      WkArenaBlock *b = g_malloc0 (BLOCK_HEADER + want);

      b->next = arena->blocks;
      b->size = want;
      arena->blocks = b;
      arena->used = 0;
      arena->size = want;
    }
  p = (guint8 *) arena->blocks + BLOCK_HEADER + arena->used;
  arena->used += size;
  return p;
}

char *
wk_arena_strndup (WkArena    *arena,
                  const char *text,
                  gsize       len)
{
  char *s = wk_arena_alloc (arena, len + 1);

  memcpy (s, text, len);
  s[len] = '\0';
  return s;
}

void
wk_arena_clear (WkArena *arena)
{
  while (arena->blocks != NULL)
    {
      WkArenaBlock *next = arena->blocks->next;
      g_free (arena->blocks);
      arena->blocks = next;
    }
  arena->used = arena->size = 0;
}

/* ------------------------------------------------------------------ */
/* Positions                                                          */
/* ------------------------------------------------------------------ */

void
wk_position (const char *text,
             gsize       len,
             guint       offset,
             guint      *line,
             guint      *column)
{
  guint l = 1, c = 1;

  offset = MIN (offset, len);
  for (guint i = 0; i < offset; i++)
    {
      guchar ch = (guchar) text[i];

      if (ch == '\n')
        {
          l++;
          c = 1;
        }
      else if ((ch & 0xc0) != 0x80)
        c++;        /* continuation bytes of UTF-8 are not characters */
    }
  *line = l;
  *column = c;
}

char *
wk_text_span (const char *text,
              gsize       len,
              guint       start,
              guint       end)
{
  g_autoptr (GString) s = g_string_new (NULL);
  gboolean space = FALSE;

  start = MIN (start, len);
  end = MIN (MAX (end, start), len);
  /* one line: runs of white space (and line breaks) become one space */
  for (guint i = start; i < end; i++)
    {
      char ch = text[i];

      if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r')
        {
          space = TRUE;
          continue;
        }
      if (space && s->len > 0)
        g_string_append_c (s, ' ');
      space = FALSE;
      g_string_append_c (s, ch);
    }
  if (!g_utf8_validate (s->str, s->len, NULL))
    return ws_text_printable (s->str, 0);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* ------------------------------------------------------------------ */
/* Diagnostics                                                        */
/* ------------------------------------------------------------------ */

void
wk_diags_init (WkDiags    *d,
               const char *text,
               gsize       len)
{
  memset (d, 0, sizeof *d);
  d->text = text;
  d->len = len;
  d->diags = g_array_new (FALSE, FALSE, sizeof (WkDiag));
}

void
wk_diags_clear (WkDiags *d)
{
  if (d->diags == NULL)
    return;
  for (guint i = 0; i < d->diags->len; i++)
    g_free (g_array_index (d->diags, WkDiag, i).message);
  g_clear_pointer (&d->diags, g_array_unref);
}

void
wk_diag_addv (WkDiags          *d,
              WsKernelSeverity  severity,
              int               code,
              guint             start,
              guint             end,
              const char       *format,
              va_list           args)
{
  WkDiag diag;

  if (severity == WS_KERNEL_SEVERITY_ERROR)
    {
      if (d->n_errors >= WK_MAX_DIAGNOSTICS)
        {
          d->too_many = TRUE;
          return;
        }
      d->n_errors++;
    }
  else if (d->diags->len >= 4 * WK_MAX_DIAGNOSTICS)
    return;
  diag.severity = severity;
  diag.code = code;
  diag.start = MIN (start, d->len);
  diag.end = MIN (MAX (end, start), d->len);
  diag.message = g_strdup_vprintf (format, args);
  g_array_append_val (d->diags, diag);
}

void
wk_diag_add (WkDiags          *d,
             WsKernelSeverity  severity,
             int               code,
             guint             start,
             guint             end,
             const char       *format,
             ...)
{
  va_list args;

  va_start (args, format);
  wk_diag_addv (d, severity, code, start, end, format, args);
  va_end (args);
}

WsKernelDiagnostic *
wk_diag_to_public (const WkDiag *d,
                   const char   *text,
                   gsize         len)
{
  WsKernelDiagnostic *out = g_new0 (WsKernelDiagnostic, 1);

  out->severity = d->severity;
  wk_position (text, len, d->start, &out->line, &out->column);
  wk_position (text, len, d->end, &out->end_line, &out->end_column);
  if (out->end_line == out->line && out->end_column <= out->column)
    out->end_column = out->column + 1;
  out->message = g_strdup (d->message);
  return out;
}

void
ws_kernel_diagnostic_free (WsKernelDiagnostic *diagnostic)
{
  if (diagnostic == NULL)
    return;
  g_free (diagnostic->message);
  g_free (diagnostic);
}

char *
ws_kernel_diagnostic_to_string (const WsKernelDiagnostic *diagnostic)
{
  g_return_val_if_fail (diagnostic != NULL, NULL);

  /* Translators: where a kernel is wrong, then what is wrong:
   * "line 7, column 12: unknown name “foo”" */
  return g_strdup_printf (_("line %u, column %u: %s"), diagnostic->line, diagnostic->column,
                          diagnostic->message);
}

void
wk_set_error_at (GError    **error,
                 int         code,
                 const char *text,
                 gsize       len,
                 guint       offset,
                 const char *format,
                 ...)
{
  g_autofree char *message = NULL;
  guint line, column;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  wk_position (text, len, offset, &line, &column);
  g_set_error (error, WS_KERNEL_ERROR, code, _("line %u, column %u: %s"), line, column, message);
}
