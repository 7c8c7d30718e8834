/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The preprocessor and lexer of kernel files.
 *
 * Two passes. The first reads characters: comments out (the launch comment
 * kept aside), directives done (#include and unknown #pragma ignored, #if…
 * decided with the macros defined so far), everything else made into raw
 * tokens, with a marker where a #define or #undef takes effect. The second
 * expands macros (object-like and function-like) in the raw tokens, as C
 * does, and gives each expanded token the position of the macro's use, so
 * that a message points at what the user wrote. */
#include "ws-config.h"
#include "ws-kernel-lex-private.h"
#include "ws-i18n.h"

#include <glib/gi18n-lib.h>
#include <string.h>

static const struct
{
  const char *text;
  WkPunct punct;
} puncts[] = {
  /* longest first */
  { "<<=", WK_P_SHL_ASSIGN }, { ">>=", WK_P_SHR_ASSIGN }, { "...", WK_P_ELLIPSIS },
  { "->", WK_P_ARROW }, { "++", WK_P_INC }, { "--", WK_P_DEC }, { "<=", WK_P_LE }, { ">=", WK_P_GE },
  { "==", WK_P_EQEQ }, { "!=", WK_P_NE }, { "&&", WK_P_ANDAND }, { "||", WK_P_OROR },
  { "<<", WK_P_SHL }, { ">>", WK_P_SHR }, { "+=", WK_P_PLUS_ASSIGN }, { "-=", WK_P_MINUS_ASSIGN },
  { "*=", WK_P_STAR_ASSIGN }, { "/=", WK_P_SLASH_ASSIGN }, { "%=", WK_P_PERCENT_ASSIGN },
  { "&=", WK_P_AMP_ASSIGN }, { "|=", WK_P_PIPE_ASSIGN }, { "^=", WK_P_CARET_ASSIGN }, { "::", WK_P_COLONCOLON },
  { "{", WK_P_LBRACE }, { "}", WK_P_RBRACE }, { "(", WK_P_LPAREN }, { ")", WK_P_RPAREN },
  { "[", WK_P_LBRACKET }, { "]", WK_P_RBRACKET }, { ";", WK_P_SEMI }, { ",", WK_P_COMMA },
  { ".", WK_P_DOT }, { "+", WK_P_PLUS }, { "-", WK_P_MINUS }, { "*", WK_P_STAR }, { "/", WK_P_SLASH },
  { "%", WK_P_PERCENT }, { "&", WK_P_AMP }, { "|", WK_P_PIPE }, { "^", WK_P_CARET }, { "~", WK_P_TILDE },
  { "!", WK_P_BANG }, { "<", WK_P_LT }, { ">", WK_P_GT }, { "=", WK_P_ASSIGN }, { "?", WK_P_QUESTION },
  { ":", WK_P_COLON }, { "#", WK_P_HASH },
};

const char *
wk_punct_text (WkPunct p)
{
  for (guint i = 0; i < G_N_ELEMENTS (puncts); i++)
    if (puncts[i].punct == p)
      return puncts[i].text;
  return "";
}


void
wkl_lex_error (Lexer      *lx,
               guint       start,
               guint       end,
               const char *format,
               ...)
{
  va_list args;

  va_start (args, format);
  wk_diag_addv (lx->diags, WS_KERNEL_SEVERITY_ERROR, WS_KERNEL_ERROR_SYNTAX, start + lx->base, end + lx->base,
                format, args);
  va_end (args);
}


void
wkl_lex_note (Lexer      *lx,
              guint       start,
              guint       end,
              const char *format,
              ...)
{
  va_list args;

  va_start (args, format);
  wk_diag_addv (lx->diags, WS_KERNEL_SEVERITY_NOTE, 0, start + lx->base, end + lx->base, format, args);
  va_end (args);
}

gboolean
wkl_cond_active (Lexer *lx)
{
  return lx->conds->len == 0 || g_array_index (lx->conds, Cond, lx->conds->len - 1).active;
}

char
wkl_peek (Lexer *lx,
          gsize  ahead)
{
  return lx->pos + ahead < lx->len ? lx->text[lx->pos + ahead] : '\0';
}

/* ------------------------------------------------------------------ */
/* Comments and the launch comment                                    */
/* ------------------------------------------------------------------ */

#define MARKER "warpscope:"

/* The launch comment's text with the comment's own marks made spaces, so
 * that an offset into it is an offset into the file. */
static void
keep_launch_comment (Lexer *lx,
                     gsize  start,
                     gsize  end,
                     gsize  marker)
{
  WkLaunchComment *c;
  char *t;

  if (lx->launch_comments == NULL)
    return;
  c = g_new0 (WkLaunchComment, 1);
  c->start = (guint) start;
  c->text_offset = (guint) start;
  t = g_strndup (lx->text + start, end - start);
  /* the comment's opening, the marker and the closing */
  for (gsize i = 0; i < marker + strlen (MARKER) - start; i++)
    t[i] = ' ';
  if (end - start >= 2 && t[end - start - 2] == '*' && t[end - start - 1] == '/')
    t[end - start - 2] = t[end - start - 1] = ' ';
  /* a leading "*" or "//" on each line */
  for (gsize i = 0; i < end - start; i++)
    if (i == 0 || t[i - 1] == '\n')
      {
        gsize j = i;
        while (j < end - start && (t[j] == ' ' || t[j] == '\t'))
          j++;
        if (j + 1 < end - start && t[j] == '/' && t[j + 1] == '/')
          t[j] = t[j + 1] = ' ';
        else if (j < end - start && t[j] == '*')
          t[j] = ' ';
      }
  c->text = t;
  g_ptr_array_add (lx->launch_comments, c);
}

static gsize
marker_at (Lexer *lx,
           gsize  from,
           gsize  end)
{
  gsize i = from;

  while (i < end && (lx->text[i] == ' ' || lx->text[i] == '\t' || lx->text[i] == '*' ||
                     lx->text[i] == '\n' || lx->text[i] == '\r'))
    i++;
  if (end - i >= strlen (MARKER) && strncmp (lx->text + i, MARKER, strlen (MARKER)) == 0)
    return i;
  return G_MAXSIZE;
}

/* A // comment from pos; a launch comment goes on over the // lines that
 * follow it directly. */
static void
line_comment (Lexer *lx)
{
  gsize start = lx->pos;
  gsize marker;

  while (lx->pos < lx->len && lx->text[lx->pos] != '\n')
    lx->pos++;
  marker = marker_at (lx, start + 2, lx->pos);
  if (marker == G_MAXSIZE)
    return;
  for (;;)
    {
      gsize next = lx->pos + 1;
      while (next < lx->len && (lx->text[next] == ' ' || lx->text[next] == '\t'))
        next++;
      if (lx->pos >= lx->len || next + 1 >= lx->len || lx->text[next] != '/' || lx->text[next + 1] != '/')
        break;
      lx->pos = next;
      while (lx->pos < lx->len && lx->text[lx->pos] != '\n')
        lx->pos++;
    }
  keep_launch_comment (lx, start, lx->pos, marker);
}

void
wkl_block_comment (Lexer *lx)
{
  gsize start = lx->pos;
  gsize marker;

  lx->pos += 2;
  while (lx->pos + 1 < lx->len && !(lx->text[lx->pos] == '*' && lx->text[lx->pos + 1] == '/'))
    {
      if (lx->text[lx->pos] == '\n')
        lx->line_start = TRUE;
      lx->pos++;
    }
  if (lx->pos + 1 >= lx->len)
    {
      wkl_lex_error (lx, start, start + 2, _("the comment opened here is not closed with “*/”"));
      lx->pos = lx->len;
      return;
    }
  lx->pos += 2;
  marker = marker_at (lx, start + 2, lx->pos - 2);
  if (marker != G_MAXSIZE)
    keep_launch_comment (lx, start, lx->pos, marker);
}

/* Skips white space, line splices and comments; in a directive, stops at
 * the end of its line. */
void
wkl_skip_blank (Lexer   *lx,
                gboolean directive)
{
  while (lx->pos < lx->len)
    {
      char c = lx->text[lx->pos];

      if (c == '\n')
        {
          if (directive)
            return;
          lx->line_start = TRUE;
          lx->pos++;
        }
      else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v')
        lx->pos++;
      else if (c == '\\' && (wkl_peek (lx, 1) == '\n' || (wkl_peek (lx, 1) == '\r' && wkl_peek (lx, 2) == '\n')))
        lx->pos += wkl_peek (lx, 1) == '\n' ? 2 : 3;
      else if (c == '/' && wkl_peek (lx, 1) == '/')
        line_comment (lx);
      else if (c == '/' && wkl_peek (lx, 1) == '*')
        {
          gboolean was = lx->line_start;
          wkl_block_comment (lx);
          /* a comment is white space: it does not end a line of its own */
          if (directive)
            lx->line_start = was;
        }
      else
        return;
    }
}

/* ------------------------------------------------------------------ */
/* Tokens                                                             */
/* ------------------------------------------------------------------ */

gboolean
wkl_is_ident_start (char c)
{
  return g_ascii_isalpha (c) || c == '_';
}

static gboolean
is_ident_char (char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

static void
lex_number (Lexer   *lx,
            WkToken *t)
{
  const char *s = lx->text;
  gsize start = lx->pos;
  gsize i = start;
  gsize body_end;
  gboolean hex = FALSE, bin = FALSE, is_float = FALSE;
  g_autofree char *body = NULL;

  if (s[i] == '0' && i + 1 < lx->len && (s[i + 1] == 'x' || s[i + 1] == 'X'))
    hex = TRUE;
  else if (s[i] == '0' && i + 1 < lx->len && (s[i + 1] == 'b' || s[i + 1] == 'B'))
    bin = TRUE;
  /* a pp-number */
  while (i < lx->len)
    {
      char c = s[i];
      if (is_ident_char (c) || c == '.')
        {
          if ((c == 'e' || c == 'E') && !hex && i + 1 < lx->len && (s[i + 1] == '+' || s[i + 1] == '-'))
            i++;
          else if ((c == 'p' || c == 'P') && hex && i + 1 < lx->len && (s[i + 1] == '+' || s[i + 1] == '-'))
            i++;
          i++;
        }
      else if (c == '\'' && i + 1 < lx->len && g_ascii_isxdigit (s[i + 1]))
        i++;    /* C++14 digit separator */
      else
        break;
    }
  lx->pos = i;
  t->kind = WK_TOK_INT;
  t->start = (guint) start;
  t->end = (guint) i;
  t->text = s + start;
  t->len = (guint) (i - start);

  /* the digits, without separators */
  {
    GString *b = g_string_new (NULL);
    for (gsize k = start; k < i; k++)
      if (s[k] != '\'')
        g_string_append_c (b, s[k]);
    body = g_string_free (b, FALSE);
  }

  for (const char *p = body + (hex || bin ? 2 : 0); *p; p++)
    if (*p == '.' || (!hex && (*p == 'e' || *p == 'E')) || (hex && (*p == 'p' || *p == 'P')))
      is_float = TRUE;

  body_end = strlen (body);
  if (is_float)
    {
      char *end = NULL;
      char last = body_end > 0 ? body[body_end - 1] : '\0';

      t->kind = WK_TOK_FLOAT;
      if (last == 'f' || last == 'F')
        {
          t->is_float = 1;
          body[--body_end] = '\0';
        }
      else if (last == 'l' || last == 'L')
        {
          wkl_lex_error (lx, start, i, _("long double is not supported (the number “%.*s”)"), (int) (i - start),
                     s + start);
          return;
        }
      t->fval = g_ascii_strtod (body, &end);
      if (end == NULL || *end != '\0' || end == body)
        wkl_lex_error (lx, start, i, _("“%.*s” is not a number"), (int) (i - start), s + start);
      return;
    }

  /* an integer: digits, then u, l, ll in any order */
  {
    gsize d = hex || bin ? 2 : 0;
    guint base = hex ? 16 : bin ? 2 : (body[0] == '0' && body[1] != '\0' && g_ascii_isdigit (body[1])) ? 8 : 10;
    guint64 v = 0;
    gboolean overflow = FALSE;
    gsize digits = d;

    while (body[digits] && g_ascii_isxdigit (body[digits]) &&
           (base == 16 || g_ascii_isdigit (body[digits])))
      {
        guint dv = g_ascii_xdigit_value (body[digits]);
        if (dv >= base)
          {
            wkl_lex_error (lx, start, i, _("“%c” is not a digit of the number “%.*s”"), body[digits],
                       (int) (i - start), s + start);
            return;
          }
        if (v > (G_MAXUINT64 - dv) / base)
          overflow = TRUE;
        v = v * base + dv;
        digits++;
      }
    if (digits == d)
      {
        wkl_lex_error (lx, start, i, _("the number “%.*s” has no digits"), (int) (i - start), s + start);
        return;
      }
    if (overflow)
      {
        wkl_lex_error (lx, start, i, _("the number “%.*s” does not fit in 64 bits"), (int) (i - start), s + start);
        return;
      }
    t->ival = v;
    t->is_hex = base != 10;
    for (const char *p = body + digits; *p; p++)
      {
        if ((*p == 'u' || *p == 'U') && !t->is_unsigned)
          t->is_unsigned = 1;
        else if ((*p == 'l' || *p == 'L') && t->n_long == 0)
          {
            t->n_long = 1;
            if (p[1] == *p)
              {
                t->n_long = 2;
                p++;
              }
          }
        else
          {
            wkl_lex_error (lx, start, i, _("unknown suffix “%s” on the number “%.*s”"), body + digits,
                       (int) (i - start), s + start);
            return;
          }
      }
  }
}

static gboolean
lex_escape (Lexer  *lx,
            gsize  *i,
            guint64 *value)
{
  const char *s = lx->text;
  char c = s[*i];

  switch (c)
    {
    case 'n': *value = '\n'; break;
    case 't': *value = '\t'; break;
    case 'r': *value = '\r'; break;
    case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7':
      {
        guint64 v = 0;
        guint k = 0;
        while (k < 3 && *i < lx->len && s[*i] >= '0' && s[*i] <= '7')
          {
            v = v * 8 + (guint64) (s[*i] - '0');
            (*i)++;
            k++;
          }
        *value = v & 0xff;
        return TRUE;
      }
    case 'x':
      {
        guint64 v = 0;
        guint k = 0;
        (*i)++;
        while (*i < lx->len && g_ascii_isxdigit (s[*i]) && k < 8)
          {
            v = v * 16 + (guint64) g_ascii_xdigit_value (s[*i]);
            (*i)++;
            k++;
          }
        *value = v & 0xff;
        return k > 0;
      }
    case '\\': case '\'': case '"': case '?': *value = (guchar) c; break;
    case 'a': *value = 7; break;
    case 'b': *value = 8; break;
    case 'f': *value = 12; break;
    case 'v': *value = 11; break;
    default:
      return FALSE;
    }
  (*i)++;
  return TRUE;
}

static void
lex_quoted (Lexer   *lx,
            WkToken *t)
{
  const char *s = lx->text;
  gsize start = lx->pos;
  char quote = s[start];
  gsize i = start + 1;
  guint n = 0;
  guint64 value = 0;

  while (i < lx->len && s[i] != quote && s[i] != '\n')
    {
      guint64 v;
      if (s[i] == '\\')
        {
          i++;
          if (i >= lx->len || !lex_escape (lx, &i, &v))
            {
              wkl_lex_error (lx, i - 1, i + 1, _("unknown escape sequence in a quoted text"));
              v = 0;
              if (i < lx->len)
                i++;
            }
        }
      else
        v = (guchar) s[i++];
      value = v;
      n++;
    }
  if (i >= lx->len || s[i] != quote)
    {
      if (quote == '"')
        wkl_lex_error (lx, start, start + 1, _("the string opened here is not closed on its line"));
      else
        wkl_lex_error (lx, start, start + 1, _("the character opened here is not closed on its line"));
      lx->pos = i;
      t->kind = WK_TOK_INT;
      return;
    }
  i++;
  lx->pos = i;
  t->start = (guint) start;
  t->end = (guint) i;
  t->text = s + start;
  t->len = (guint) (i - start);
  if (quote == '"')
    {
      t->kind = WK_TOK_STRING;
      return;
    }
  t->kind = WK_TOK_CHAR;
  if (n != 1)
    wkl_lex_error (lx, start, i, _("a character literal holds one character (“%.*s”)"), (int) MIN (i - start, 20),
               s + start);
  /* plain char is signed */
  t->ival = (guint64) (gint64) (gint8) value;
}

/* One token at pos (not white space, not a comment). FALSE if the character
 * there starts none: an error was reported and it was skipped. */
gboolean
wkl_lex_token (Lexer   *lx,
               WkToken *t)
{
  const char *s = lx->text;
  gsize i = lx->pos;
  char c = s[i];

  memset (t, 0, sizeof *t);
  t->start = (guint) i;

  if (wkl_is_ident_start (c))
    {
      while (i < lx->len && is_ident_char (s[i]))
        i++;
      t->kind = WK_TOK_IDENT;
      t->end = (guint) i;
      t->text = s + lx->pos;
      t->len = (guint) (i - lx->pos);
      lx->pos = i;
      if (t->len > WK_MAX_NAME)
        {
          wkl_lex_error (lx, t->start, t->end, _("the name “%.20s…” is longer than %d characters"), t->text,
                     WK_MAX_NAME);
          return FALSE;
        }
      return TRUE;
    }
  if (g_ascii_isdigit (c) || (c == '.' && i + 1 < lx->len && g_ascii_isdigit (s[i + 1])))
    {
      lex_number (lx, t);
      return TRUE;
    }
  if (c == '"' || c == '\'')
    {
      lex_quoted (lx, t);
      return t->kind == WK_TOK_STRING || t->kind == WK_TOK_CHAR;
    }
  for (guint k = 0; k < G_N_ELEMENTS (puncts); k++)
    {
      gsize n = strlen (puncts[k].text);
      if (i + n <= lx->len && strncmp (s + i, puncts[k].text, n) == 0)
        {
          t->kind = WK_TOK_PUNCT;
          t->punct = puncts[k].punct;
          t->end = (guint) (i + n);
          t->text = s + i;
          t->len = (guint) n;
          lx->pos = i + n;
          return TRUE;
        }
    }

  if ((guchar) c >= 0x80)
    {
      const char *next = g_utf8_find_next_char (s + i, s + lx->len);
      gsize n = next ? (gsize) (next - (s + i)) : lx->len - i;
      wkl_lex_error (lx, (guint) i, (guint) (i + n), _("unexpected character “%.*s”"), (int) n, s + i);
      lx->pos = i + n;
    }
  else if (g_ascii_iscntrl (c))
    {
      /* Translators: the character's code in hex, as C writes it: \x07 */
      wkl_lex_error (lx, (guint) i, (guint) i + 1, _("unexpected control character \\x%02x"), (guchar) c);
      lx->pos = i + 1;
    }
  else
    {
      wkl_lex_error (lx, (guint) i, (guint) i + 1, _("unexpected character “%c”"), c);
      lx->pos = i + 1;
    }
  return FALSE;
}

/* ------------------------------------------------------------------ */
/* The passes                                                         */
/* ------------------------------------------------------------------ */

static void
predefine (Lexer      *lx,
           const char *name,
           guint64     value)
{
  WkMacro *m = WK_NEW (lx->arena, WkMacro);

  memset (m, 0, sizeof *m);
  m->name = name;
  m->n_body = 1;
  m->body = WK_NEW (lx->arena, WkToken);
  memset (m->body, 0, sizeof *m->body);
  m->body->kind = WK_TOK_INT;
  m->body->ival = value;
  m->body->text = "1";
  m->body->len = 1;
  m->body->n_long = value > G_MAXINT32;
  g_hash_table_replace (lx->macros, (gpointer) name, m);
}

static void
first_pass (Lexer *lx)
{
  lx->line_start = TRUE;
  for (;;)
    {
      WkToken t;

      wkl_skip_blank (lx, FALSE);
      if (lx->pos >= lx->len)
        break;
      if (lx->text[lx->pos] == '#' && lx->line_start)
        {
          wkl_directive (lx);
          continue;
        }
      lx->line_start = FALSE;
      if (!wkl_cond_active (lx))
        {
          /* skipped text: only its comments and directives matter */
          if (lx->text[lx->pos] == '"' || lx->text[lx->pos] == '\'')
            {
              char q = lx->text[lx->pos++];
              while (lx->pos < lx->len && lx->text[lx->pos] != q && lx->text[lx->pos] != '\n')
                lx->pos += lx->text[lx->pos] == '\\' ? 2 : 1;
              if (lx->pos < lx->len && lx->text[lx->pos] == q)
                lx->pos++;
            }
          else
            lx->pos++;
          continue;
        }
      if (wkl_lex_token (lx, &t))
        {
          if (lx->raw->len >= WK_MAX_TOKENS)
            {
              wkl_lex_error (lx, t.start, t.end, _("the text has more than %d tokens"), WK_MAX_TOKENS);
              break;
            }
          g_array_append_val (lx->raw, t);
        }
    }
  if (lx->conds->len > 0)
    {
      Cond *c = &g_array_index (lx->conds, Cond, 0);
      wkl_lex_error (lx, c->pos, c->pos + 1, _("this #if… is not closed by an #endif"));
    }
}

static void
lexer_init (Lexer       *lx,
            const char  *text,
            gsize        len,
            WkArena     *arena,
            WkDiags     *diags)
{
  memset (lx, 0, sizeof *lx);
  lx->text = text;
  lx->len = len;
  lx->arena = arena;
  lx->diags = diags;
  lx->raw = g_array_new (FALSE, FALSE, sizeof (WkToken));
  lx->conds = g_array_new (FALSE, FALSE, sizeof (Cond));
  lx->all_macros = g_ptr_array_new ();
}

static void
lexer_finish (Lexer       *lx,
              GHashTable  *table,
              WkLexResult *out)
{
  g_autoptr (GArray) final = g_array_new (FALSE, FALSE, sizeof (WkToken));
  g_autoptr (GPtrArray) active = g_ptr_array_new ();
  WkToken eof = { 0 };

  wkl_expand_list (lx, table, (WkToken *) lx->raw->data, lx->raw->len, final, active, NULL, TRUE);
  eof.kind = WK_TOK_EOF;
  eof.start = eof.end = (guint) lx->len + lx->base;
  eof.text = "";
  g_array_append_val (final, eof);
  if (lx->base != 0)
    for (guint i = 0; i + 1 < final->len; i++)
      {
        g_array_index (final, WkToken, i).start += lx->base;
        g_array_index (final, WkToken, i).end += lx->base;
      }
  out->n_tokens = final->len;
  out->tokens = WK_NEWV (lx->arena, WkToken, final->len);
  memcpy (out->tokens, final->data, final->len * sizeof (WkToken));
  g_array_unref (lx->raw);
  g_array_unref (lx->conds);
  g_ptr_array_unref (lx->all_macros);
}

gboolean
wk_lex (const char  *text,
        gsize        len,
        WkArena     *arena,
        WkDiags     *diags,
        WkLexResult *out)
{
  Lexer lx;
  GHashTable *second;
  GHashTableIter iter;
  gpointer key, value;
  guint errors = diags->n_errors;

  memset (out, 0, sizeof *out);
  lexer_init (&lx, text, len, arena, diags);
  lx.macros = g_hash_table_new (g_str_hash, g_str_equal);
  lx.launch_comments = g_ptr_array_new ();
  /* what nvcc defines when it compiles device code */
  predefine (&lx, "__CUDACC__", 1);
  predefine (&lx, "__NVCC__", 1);
  predefine (&lx, "__CUDA_ARCH__", 900);
  predefine (&lx, "__CUDACC_VER_MAJOR__", 13);
  predefine (&lx, "__cplusplus", 201703);

  /* the second pass starts from the predefined macros */
  second = g_hash_table_new (g_str_hash, g_str_equal);
  g_hash_table_iter_init (&iter, lx.macros);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_insert (second, key, value);

  first_pass (&lx);
  lexer_finish (&lx, second, out);
  out->macros = second;
  out->launch_comments = lx.launch_comments;
  g_hash_table_unref (lx.macros);
  return diags->n_errors == errors;
}

gboolean
wk_lex_fragment (const char  *text,
                 gsize        len,
                 guint        base,
                 GHashTable  *macros,
                 WkArena     *arena,
                 WkDiags     *diags,
                 WkLexResult *out)
{
  Lexer lx;
  guint errors = diags->n_errors;

  memset (out, 0, sizeof *out);
  lexer_init (&lx, text, len, arena, diags);
  lx.base = base;
  lx.macros = macros;
  lx.line_start = FALSE;
  for (;;)
    {
      WkToken t;

      wkl_skip_blank (&lx, FALSE);
      if (lx.pos >= lx.len)
        break;
      if (wkl_lex_token (&lx, &t))
        g_array_append_val (lx.raw, t);
    }
  lexer_finish (&lx, macros, out);
  out->macros = NULL;
  return diags->n_errors == errors;
}
