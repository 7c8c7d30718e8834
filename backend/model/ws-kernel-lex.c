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
#include "ws-kernel-private.h"
#include "ws-i18n.h"

#include <glib/gi18n-lib.h>
#include <string.h>

typedef struct
{
  gboolean active;              /* this branch is being read */
  gboolean taken;               /* a branch of this #if was true */
  gboolean parent_active;
  gboolean seen_else;
  guint pos;
} Cond;

typedef struct
{
  const char *text;
  gsize len;
  gsize pos;
  guint base;                   /* fragments: what positions add */
  gboolean line_start;
  WkArena *arena;
  WkDiags *diags;
  GArray *raw;                  /* WkToken */
  GHashTable *macros;           /* the first pass's table */
  GPtrArray *all_macros;        /* WkMacro *, indexed by the markers */
  GArray *conds;                /* Cond */
  GPtrArray *launch_comments;
  gboolean depth_reported;
} Lexer;

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

static void
lex_error (Lexer      *lx,
           guint       start,
           guint       end,
           const char *format,
           ...) G_GNUC_PRINTF (4, 5);

static void
lex_error (Lexer      *lx,
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

static void
lex_note (Lexer      *lx,
          guint       start,
          guint       end,
          const char *format,
          ...) G_GNUC_PRINTF (4, 5);

static void
lex_note (Lexer      *lx,
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

static gboolean
cond_active (Lexer *lx)
{
  return lx->conds->len == 0 || g_array_index (lx->conds, Cond, lx->conds->len - 1).active;
}

static inline char
peek (Lexer *lx,
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

static void
block_comment (Lexer *lx)
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
      lex_error (lx, start, start + 2, _("the comment opened here is not closed with “*/”"));
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
static void
skip_blank (Lexer   *lx,
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
      else if (c == '\\' && (peek (lx, 1) == '\n' || (peek (lx, 1) == '\r' && peek (lx, 2) == '\n')))
        lx->pos += peek (lx, 1) == '\n' ? 2 : 3;
      else if (c == '/' && peek (lx, 1) == '/')
        line_comment (lx);
      else if (c == '/' && peek (lx, 1) == '*')
        {
          gboolean was = lx->line_start;
          block_comment (lx);
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

static gboolean
is_ident_start (char c)
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
          lex_error (lx, start, i, _("long double is not supported (the number “%.*s”)"), (int) (i - start),
                     s + start);
          return;
        }
      t->fval = g_ascii_strtod (body, &end);
      if (end == NULL || *end != '\0' || end == body)
        lex_error (lx, start, i, _("“%.*s” is not a number"), (int) (i - start), s + start);
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
            lex_error (lx, start, i, _("“%c” is not a digit of the number “%.*s”"), body[digits],
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
        lex_error (lx, start, i, _("the number “%.*s” has no digits"), (int) (i - start), s + start);
        return;
      }
    if (overflow)
      {
        lex_error (lx, start, i, _("the number “%.*s” does not fit in 64 bits"), (int) (i - start), s + start);
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
            lex_error (lx, start, i, _("unknown suffix “%s” on the number “%.*s”"), body + digits,
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
              lex_error (lx, i - 1, i + 1, _("unknown escape sequence in a quoted text"));
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
        lex_error (lx, start, start + 1, _("the string opened here is not closed on its line"));
      else
        lex_error (lx, start, start + 1, _("the character opened here is not closed on its line"));
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
    lex_error (lx, start, i, _("a character literal holds one character (“%.*s”)"), (int) MIN (i - start, 20),
               s + start);
  /* plain char is signed */
  t->ival = (guint64) (gint64) (gint8) value;
}

/* One token at pos (not white space, not a comment). FALSE if the character
 * there starts none: an error was reported and it was skipped. */
static gboolean
lex_token (Lexer   *lx,
           WkToken *t)
{
  const char *s = lx->text;
  gsize i = lx->pos;
  char c = s[i];

  memset (t, 0, sizeof *t);
  t->start = (guint) i;

  if (is_ident_start (c))
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
          lex_error (lx, t->start, t->end, _("the name “%.20s…” is longer than %d characters"), t->text,
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
      lex_error (lx, (guint) i, (guint) (i + n), _("unexpected character “%.*s”"), (int) n, s + i);
      lx->pos = i + n;
    }
  else if (g_ascii_iscntrl (c))
    {
      /* Translators: the character's code in hex, as C writes it: \x07 */
      lex_error (lx, (guint) i, (guint) i + 1, _("unexpected control character \\x%02x"), (guchar) c);
      lx->pos = i + 1;
    }
  else
    {
      lex_error (lx, (guint) i, (guint) i + 1, _("unexpected character “%c”"), c);
      lx->pos = i + 1;
    }
  return FALSE;
}

/* ------------------------------------------------------------------ */
/* Macros                                                             */
/* ------------------------------------------------------------------ */

static WkMacro *
lookup_macro (GHashTable    *table,
              const WkToken *t)
{
  char name[WK_MAX_NAME + 1];

  if (t->kind != WK_TOK_IDENT || t->len > WK_MAX_NAME)
    return NULL;
  memcpy (name, t->text, t->len);
  name[t->len] = '\0';
  return g_hash_table_lookup (table, name);
}

static void
emit (GArray        *out,
      const WkToken *t,
      const WkToken *use)
{
  WkToken copy = *t;

  if (use != NULL)
    {
      copy.start = use->start;
      copy.end = use->end;
      copy.from_macro = 1;
    }
  g_array_append_val (out, copy);
}

static gboolean
macro_active (GPtrArray *active,
              WkMacro   *m)
{
  for (guint i = 0; i < active->len; i++)
    if (g_ptr_array_index (active, i) == m)
      return TRUE;
  return FALSE;
}

static void expand_list (Lexer         *lx,
                         GHashTable    *table,
                         const WkToken *toks,
                         guint          n,
                         GArray        *out,
                         GPtrArray     *active,
                         const WkToken *use,
                         gboolean       top);

/* A function-like macro's use at toks[i]: its arguments up to the matching
 * ")", substituted and expanded. The index of the ")" or i if it is not a
 * use that can be expanded. */
static guint
expand_call (Lexer         *lx,
             GHashTable    *table,
             WkMacro       *m,
             const WkToken *toks,
             guint          n,
             guint          i,
             GArray        *out,
             GPtrArray     *active,
             const WkToken *use)
{
  g_autoptr (GArray) body = NULL;
  g_autoptr (GPtrArray) args = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  GArray *cur;
  guint depth = 0;
  guint j;
  WkToken span;

  if (i + 1 >= n || toks[i + 1].kind != WK_TOK_PUNCT || toks[i + 1].punct != WK_P_LPAREN)
    return i;
  cur = g_array_new (FALSE, FALSE, sizeof (WkToken));
  g_ptr_array_add (args, cur);
  for (j = i + 2; j < n; j++)
    {
      const WkToken *t = &toks[j];
      if (t->kind == WK_TOK_PUNCT && (t->punct == WK_P_LPAREN || t->punct == WK_P_LBRACKET || t->punct == WK_P_LBRACE))
        depth++;
      else if (t->kind == WK_TOK_PUNCT && (t->punct == WK_P_RBRACKET || t->punct == WK_P_RBRACE) && depth > 0)
        depth--;
      else if (t->kind == WK_TOK_PUNCT && t->punct == WK_P_RPAREN)
        {
          if (depth == 0)
            break;
          depth--;
        }
      else if (t->kind == WK_TOK_PUNCT && t->punct == WK_P_COMMA && depth == 0)
        {
          cur = g_array_new (FALSE, FALSE, sizeof (WkToken));
          g_ptr_array_add (args, cur);
          continue;
        }
      else if (t->kind == WK_TOK_DEFINE || t->kind == WK_TOK_UNDEF || t->kind == WK_TOK_EOF)
        return i;
      g_array_append_val (cur, *t);
    }
  if (j >= n)
    return i;
  /* m() is a use with no argument, not one empty argument */
  if (m->n_params == 0 && args->len == 1 && ((GArray *) args->pdata[0])->len == 0)
    g_ptr_array_set_size (args, 0);
  if (m->unsupported != NULL || args->len != m->n_params)
    return i;

  span = toks[i];
  span.end = toks[j].end;
  if (use == NULL)
    use = &span;

  body = g_array_new (FALSE, FALSE, sizeof (WkToken));
  for (guint k = 0; k < m->n_body; k++)
    {
      const WkToken *t = &m->body[k];
      guint p;

      for (p = 0; p < m->n_params; p++)
        if (t->kind == WK_TOK_IDENT && t->len == strlen (m->params[p]) &&
            strncmp (t->text, m->params[p], t->len) == 0)
          break;
      if (p < m->n_params)
        {
          /* an argument is expanded before it is put in */
          GArray *arg = args->pdata[p];
          g_autoptr (GArray) expanded = g_array_new (FALSE, FALSE, sizeof (WkToken));
          expand_list (lx, table, (WkToken *) arg->data, arg->len, expanded, active, use, FALSE);
          g_array_append_vals (body, expanded->data, expanded->len);
        }
      else
        g_array_append_val (body, *t);
    }
  g_ptr_array_add (active, m);
  expand_list (lx, table, (WkToken *) body->data, body->len, out, active, use, FALSE);
  g_ptr_array_remove_index (active, active->len - 1);
  return j;
}

static void
expand_list (Lexer         *lx,
             GHashTable    *table,
             const WkToken *toks,
             guint          n,
             GArray        *out,
             GPtrArray     *active,
             const WkToken *use,
             gboolean       top)
{
  for (guint i = 0; i < n; i++)
    {
      const WkToken *t = &toks[i];
      WkMacro *m;

      if (t->kind == WK_TOK_DEFINE || t->kind == WK_TOK_UNDEF)
        {
          WkMacro *def = g_ptr_array_index (lx->all_macros, t->ival);
          if (top && t->kind == WK_TOK_DEFINE)
            g_hash_table_replace (table, (gpointer) def->name, def);
          else if (top)
            g_hash_table_remove (table, def->name);
          continue;
        }
      m = lookup_macro (table, t);
      if (m == NULL || macro_active (active, m))
        {
          emit (out, t, use);
          continue;
        }
      if (active->len >= WK_MAX_MACRO_DEPTH || out->len >= WK_MAX_TOKENS)
        {
          if (!lx->depth_reported)
            lex_error (lx, t->start, t->end,
                       _("the macro “%s” expands too deeply or into too much text (more than %d macros inside "
                         "one another or %d tokens)"), m->name, WK_MAX_MACRO_DEPTH, WK_MAX_TOKENS);
          lx->depth_reported = TRUE;
          emit (out, t, use);
          continue;
        }
      if (!m->function_like)
        {
          g_ptr_array_add (active, m);
          expand_list (lx, table, m->body, m->n_body, out, active, use ? use : t, FALSE);
          g_ptr_array_remove_index (active, active->len - 1);
          continue;
        }
      {
        guint j = expand_call (lx, table, m, toks, n, i, out, active, use);
        if (j == i)
          {
            /* left for the parser to say, where it matters (not in host code) */
            WkToken copy = *t;
            if (use != NULL)
              {
                copy.start = use->start;
                copy.end = use->end;
                copy.from_macro = 1;
              }
            copy.fn_macro = 1;
            g_array_append_val (out, copy);
          }
        i = j;
      }
    }
}

/* ------------------------------------------------------------------ */
/* Directives                                                         */
/* ------------------------------------------------------------------ */

static void
line_tokens (Lexer  *lx,
             GArray *out)
{
  for (;;)
    {
      WkToken t;

      skip_blank (lx, TRUE);
      if (lx->pos >= lx->len || lx->text[lx->pos] == '\n')
        return;
      if (lex_token (lx, &t))
        g_array_append_val (out, t);
    }
}

static void
skip_line (Lexer *lx)
{
  while (lx->pos < lx->len && lx->text[lx->pos] != '\n')
    {
      if (lx->text[lx->pos] == '\\' && peek (lx, 1) == '\n')
        lx->pos++;
      else if (lx->text[lx->pos] == '/' && peek (lx, 1) == '*')
        {
          block_comment (lx);
          continue;
        }
      lx->pos++;
    }
}

static gboolean
tok_is_ident (const WkToken *t,
              const char    *word)
{
  return t->kind == WK_TOK_IDENT && t->len == strlen (word) && strncmp (t->text, word, t->len) == 0;
}

static gboolean
tok_is_punct (const WkToken *t,
              WkPunct        p)
{
  return t->kind == WK_TOK_PUNCT && t->punct == p;
}

static void
directive_define (Lexer *lx,
                  guint  hash_pos)
{
  g_autoptr (GArray) toks = g_array_new (FALSE, FALSE, sizeof (WkToken));
  WkMacro *m;
  WkToken name;
  WkToken marker = { 0 };
  gsize after_name;

  skip_blank (lx, TRUE);
  if (lx->pos >= lx->len || !is_ident_start (lx->text[lx->pos]) || !lex_token (lx, &name))
    {
      lex_error (lx, hash_pos, (guint) lx->pos, _("#define must be followed by a name"));
      skip_line (lx);
      return;
    }
  after_name = lx->pos;
  m = WK_NEW (lx->arena, WkMacro);
  memset (m, 0, sizeof *m);
  m->name = wk_arena_strndup (lx->arena, name.text, name.len);
  m->pos = name.start;
  if (after_name < lx->len && lx->text[after_name] == '(')
    {
      GPtrArray *params = g_ptr_array_new ();
      gboolean ok = TRUE;

      m->function_like = TRUE;
      lx->pos++;
      for (;;)
        {
          WkToken p;
          skip_blank (lx, TRUE);
          if (lx->pos < lx->len && lx->text[lx->pos] == ')' && params->len == 0)
            {
              lx->pos++;
              break;
            }
          if (lx->pos >= lx->len || lx->text[lx->pos] == '\n' || !lex_token (lx, &p))
            {
              ok = FALSE;
              break;
            }
          if (tok_is_punct (&p, WK_P_ELLIPSIS))
            m->unsupported = N_("macros with a variable number of arguments are not supported");
          else if (p.kind != WK_TOK_IDENT)
            {
              ok = FALSE;
              break;
            }
          g_ptr_array_add (params, wk_arena_strndup (lx->arena, p.text, p.len));
          skip_blank (lx, TRUE);
          if (lx->pos < lx->len && lx->text[lx->pos] == ',')
            {
              lx->pos++;
              continue;
            }
          if (lx->pos < lx->len && lx->text[lx->pos] == ')')
            {
              lx->pos++;
              break;
            }
          ok = FALSE;
          break;
        }
      if (!ok)
        {
          lex_error (lx, name.start, name.end, _("the parameters of the macro “%s” are not a list of names in "
                                                 "parentheses"), m->name);
          g_ptr_array_free (params, TRUE);
          skip_line (lx);
          return;
        }
      m->n_params = params->len;
      m->params = WK_NEWV (lx->arena, const char *, MAX (params->len, 1));
      for (guint k = 0; k < params->len; k++)
        m->params[k] = params->pdata[k];
      g_ptr_array_free (params, TRUE);
    }
  line_tokens (lx, toks);
  for (guint k = 0; k < toks->len; k++)
    if (tok_is_punct (&g_array_index (toks, WkToken, k), WK_P_HASH))
      m->unsupported = N_("the # and ## operators of macros are not supported");
  m->n_body = toks->len;
  m->body = WK_NEWV (lx->arena, WkToken, MAX (toks->len, 1));
  if (toks->len > 0)
    memcpy (m->body, toks->data, toks->len * sizeof (WkToken));

  g_hash_table_replace (lx->macros, (gpointer) m->name, m);
  marker.kind = WK_TOK_DEFINE;
  marker.start = marker.end = name.start;
  marker.ival = lx->all_macros->len;
  g_ptr_array_add (lx->all_macros, m);
  g_array_append_val (lx->raw, marker);
}

static void
directive_undef (Lexer *lx)
{
  WkToken name;
  WkMacro *m;

  skip_blank (lx, TRUE);
  if (lx->pos >= lx->len || !is_ident_start (lx->text[lx->pos]) || !lex_token (lx, &name))
    {
      skip_line (lx);
      return;
    }
  m = lookup_macro (lx->macros, &name);
  if (m != NULL)
    {
      WkToken marker = { 0 };
      marker.kind = WK_TOK_UNDEF;
      marker.start = marker.end = name.start;
      marker.ival = lx->all_macros->len;
      g_ptr_array_add (lx->all_macros, m);
      g_array_append_val (lx->raw, marker);
      g_hash_table_remove (lx->macros, m->name);
    }
  skip_line (lx);
}

/* #if's little expression language: integers, defined, the C operators. */
typedef struct
{
  const WkToken *t;
  guint n;
  guint i;
  guint depth;
  gboolean bad;
} IfEval;

static gint64 if_ternary (IfEval *e);

static gint64 if_primary_inner (IfEval *e);

/* Every path of the evaluator's recursion passes here: bounded. */
static gint64
if_primary (IfEval *e)
{
  gint64 v;

  if (e->depth >= 200)
    {
      e->bad = TRUE;
      return 0;
    }
  e->depth++;
  v = if_primary_inner (e);
  e->depth--;
  return v;
}

static gint64
if_primary_inner (IfEval *e)
{
  const WkToken *t;

  if (e->i >= e->n)
    {
      e->bad = TRUE;
      return 0;
    }
  t = &e->t[e->i++];
  if (t->kind == WK_TOK_INT || t->kind == WK_TOK_CHAR)
    return (gint64) t->ival;
  if (t->kind == WK_TOK_IDENT)
    return 0;   /* a name left after expansion is 0 */
  if (tok_is_punct (t, WK_P_LPAREN))
    {
      gint64 v = if_ternary (e);
      if (e->i >= e->n || !tok_is_punct (&e->t[e->i], WK_P_RPAREN))
        e->bad = TRUE;
      else
        e->i++;
      return v;
    }
  if (tok_is_punct (t, WK_P_MINUS))
    return -(guint64) if_primary (e);
  if (tok_is_punct (t, WK_P_PLUS))
    return if_primary (e);
  if (tok_is_punct (t, WK_P_BANG))
    return !if_primary (e);
  if (tok_is_punct (t, WK_P_TILDE))
    return ~if_primary (e);
  e->bad = TRUE;
  return 0;
}

static int
if_prec (const WkToken *t)
{
  if (t->kind != WK_TOK_PUNCT)
    return -1;
  switch (t->punct)
    {
    case WK_P_STAR: case WK_P_SLASH: case WK_P_PERCENT: return 10;
    case WK_P_PLUS: case WK_P_MINUS: return 9;
    case WK_P_SHL: case WK_P_SHR: return 8;
    case WK_P_LT: case WK_P_GT: case WK_P_LE: case WK_P_GE: return 7;
    case WK_P_EQEQ: case WK_P_NE: return 6;
    case WK_P_AMP: return 5;
    case WK_P_CARET: return 4;
    case WK_P_PIPE: return 3;
    case WK_P_ANDAND: return 2;
    case WK_P_OROR: return 1;
    default: return -1;
    }
}

static gint64
if_binary (IfEval *e,
           int     min_prec,
           guint   depth)
{
  gint64 a = if_primary (e);

  if (depth > 64)
    {
      e->bad = TRUE;
      return 0;
    }
  while (e->i < e->n && if_prec (&e->t[e->i]) >= min_prec)
    {
      WkPunct op = e->t[e->i].punct;
      int prec = if_prec (&e->t[e->i]);
      gint64 b;

      e->i++;
      b = if_binary (e, prec + 1, depth + 1);
      switch (op)
        {
        case WK_P_STAR: a = (gint64) ((guint64) a * (guint64) b); break;
        case WK_P_SLASH: a = (b == 0 || (a == G_MININT64 && b == -1)) ? (e->bad = TRUE, 0) : a / b; break;
        case WK_P_PERCENT: a = (b == 0 || (a == G_MININT64 && b == -1)) ? (e->bad = TRUE, 0) : a % b; break;
        case WK_P_PLUS: a = (gint64) ((guint64) a + (guint64) b); break;
        case WK_P_MINUS: a = (gint64) ((guint64) a - (guint64) b); break;
        case WK_P_SHL: a = b < 0 || b > 63 ? 0 : (gint64) ((guint64) a << b); break;
        case WK_P_SHR: a = b < 0 || b > 63 ? 0 : a >> b; break;
        case WK_P_LT: a = a < b; break;
        case WK_P_GT: a = a > b; break;
        case WK_P_LE: a = a <= b; break;
        case WK_P_GE: a = a >= b; break;
        case WK_P_EQEQ: a = a == b; break;
        case WK_P_NE: a = a != b; break;
        case WK_P_AMP: a = a & b; break;
        case WK_P_CARET: a = a ^ b; break;
        case WK_P_PIPE: a = a | b; break;
        case WK_P_ANDAND: a = a && b; break;
        case WK_P_OROR: a = a || b; break;
        default: e->bad = TRUE; break;
        }
    }
  return a;
}

static gint64
if_ternary (IfEval *e)
{
  gint64 c = if_binary (e, 1, 0);

  if (e->i < e->n && tok_is_punct (&e->t[e->i], WK_P_QUESTION))
    {
      gint64 a, b;
      e->i++;
      a = if_ternary (e);
      if (e->i >= e->n || !tok_is_punct (&e->t[e->i], WK_P_COLON))
        {
          e->bad = TRUE;
          return 0;
        }
      e->i++;
      b = if_ternary (e);
      return c ? a : b;
    }
  return c;
}

static gboolean
eval_if (Lexer   *lx,
         guint    hash_pos,
         gboolean *value)
{
  g_autoptr (GArray) toks = g_array_new (FALSE, FALSE, sizeof (WkToken));
  g_autoptr (GArray) resolved = g_array_new (FALSE, FALSE, sizeof (WkToken));
  g_autoptr (GArray) expanded = g_array_new (FALSE, FALSE, sizeof (WkToken));
  g_autoptr (GPtrArray) active = g_ptr_array_new ();
  IfEval e = { 0 };
  gint64 v;

  line_tokens (lx, toks);
  /* defined X and defined (X) first: their names are not expanded */
  for (guint i = 0; i < toks->len; i++)
    {
      WkToken *t = &g_array_index (toks, WkToken, i);
      if (tok_is_ident (t, "defined"))
        {
          WkToken r = *t;
          guint k = i + 1;
          gboolean paren = k < toks->len && tok_is_punct (&g_array_index (toks, WkToken, k), WK_P_LPAREN);
          if (paren)
            k++;
          if (k >= toks->len || g_array_index (toks, WkToken, k).kind != WK_TOK_IDENT)
            {
              e.bad = TRUE;
              break;
            }
          r.kind = WK_TOK_INT;
          r.ival = lookup_macro (lx->macros, &g_array_index (toks, WkToken, k)) != NULL;
          if (paren)
            {
              k++;
              if (k >= toks->len || !tok_is_punct (&g_array_index (toks, WkToken, k), WK_P_RPAREN))
                {
                  e.bad = TRUE;
                  break;
                }
            }
          g_array_append_val (resolved, r);
          i = k;
        }
      else
        g_array_append_val (resolved, *t);
    }
  expand_list (lx, lx->macros, (WkToken *) resolved->data, resolved->len, expanded, active, NULL, FALSE);
  e.t = (WkToken *) expanded->data;
  e.n = expanded->len;
  if (!e.bad)
    v = if_ternary (&e);
  if (e.bad || e.i != e.n || e.n == 0)
    {
      lex_error (lx, hash_pos, (guint) lx->pos,
                 _("the condition of this #if is not an integer expression of macros and defined (NAME)"));
      return FALSE;
    }
  *value = v != 0;
  return TRUE;
}

static void
push_cond (Lexer   *lx,
           guint    pos,
           gboolean value)
{
  Cond c = { 0 };

  c.parent_active = cond_active (lx);
  c.active = c.parent_active && value;
  c.taken = value;
  c.pos = pos;
  g_array_append_val (lx->conds, c);
}

static void
directive_pragma (Lexer *lx,
                  guint  hash_pos)
{
  g_autoptr (GArray) toks = g_array_new (FALSE, FALSE, sizeof (WkToken));
  WkToken *first;

  line_tokens (lx, toks);
  if (toks->len == 0)
    return;
  first = &g_array_index (toks, WkToken, 0);
  if (tok_is_ident (first, "unroll") || tok_is_ident (first, "nounroll"))
    {
      WkToken begin = *first, end = { 0 };

      begin.kind = WK_TOK_PRAGMA_UNROLL;
      begin.start = hash_pos;
      begin.ival = tok_is_ident (first, "nounroll");
      g_array_append_val (lx->raw, begin);
      if (toks->len > 1)
        g_array_append_vals (lx->raw, &g_array_index (toks, WkToken, 1), toks->len - 1);
      end.kind = WK_TOK_PRAGMA_END;
      end.start = end.end = (guint) lx->pos;
      g_array_append_val (lx->raw, end);
      return;
    }
  if (tok_is_ident (first, "once"))
    return;
  lex_note (lx, hash_pos, first->end, _("“#pragma %.*s” is ignored"), (int) first->len, first->text);
}

static void
directive (Lexer *lx)
{
  guint hash_pos = (guint) lx->pos;
  WkToken name;
  gboolean active = cond_active (lx);

  lx->pos++;
  skip_blank (lx, TRUE);
  if (lx->pos >= lx->len || lx->text[lx->pos] == '\n')
    return;     /* the null directive */
  if (!is_ident_start (lx->text[lx->pos]) || !lex_token (lx, &name))
    {
      if (active)
        lex_error (lx, hash_pos, hash_pos + 1, _("“#” must be followed by a directive such as #define"));
      skip_line (lx);
      return;
    }

  if (tok_is_ident (&name, "ifdef") || tok_is_ident (&name, "ifndef"))
    {
      WkToken m;
      gboolean value = FALSE;

      skip_blank (lx, TRUE);
      if (lx->pos < lx->len && is_ident_start (lx->text[lx->pos]) && lex_token (lx, &m))
        value = (lookup_macro (lx->macros, &m) != NULL) == tok_is_ident (&name, "ifdef");
      else if (active)
        lex_error (lx, hash_pos, name.end, _("#%.*s must be followed by a name"), (int) name.len, name.text);
      push_cond (lx, hash_pos, value);
      skip_line (lx);
      return;
    }
  if (tok_is_ident (&name, "if"))
    {
      gboolean value = FALSE;
      if (active)
        eval_if (lx, hash_pos, &value);
      push_cond (lx, hash_pos, value);
      skip_line (lx);
      return;
    }
  if (tok_is_ident (&name, "elif") || tok_is_ident (&name, "else") || tok_is_ident (&name, "endif"))
    {
      Cond *c;

      if (lx->conds->len == 0)
        {
          lex_error (lx, hash_pos, name.end, _("#%.*s without an #if before it"), (int) name.len, name.text);
          skip_line (lx);
          return;
        }
      c = &g_array_index (lx->conds, Cond, lx->conds->len - 1);
      if (tok_is_ident (&name, "endif"))
        {
          g_array_set_size (lx->conds, lx->conds->len - 1);
          skip_line (lx);
          return;
        }
      if (c->seen_else)
        {
          lex_error (lx, hash_pos, name.end, _("#%.*s after the #else of the same #if"), (int) name.len, name.text);
          skip_line (lx);
          return;
        }
      if (tok_is_ident (&name, "else"))
        {
          c->seen_else = TRUE;
          c->active = c->parent_active && !c->taken;
          c->taken = TRUE;
          skip_line (lx);
          return;
        }
      /* #elif */
      {
        gboolean value = FALSE;
        if (c->parent_active && !c->taken)
          eval_if (lx, hash_pos, &value);
        c = &g_array_index (lx->conds, Cond, lx->conds->len - 1);
        c->active = c->parent_active && !c->taken && value;
        c->taken = c->taken || value;
        skip_line (lx);
        return;
      }
    }

  if (!active)
    {
      skip_line (lx);
      return;
    }
  if (tok_is_ident (&name, "define"))
    directive_define (lx, hash_pos);
  else if (tok_is_ident (&name, "undef"))
    directive_undef (lx);
  else if (tok_is_ident (&name, "include"))
    skip_line (lx);     /* CUDA's headers: what they declare is built in */
  else if (tok_is_ident (&name, "pragma"))
    directive_pragma (lx, hash_pos);
  else if (tok_is_ident (&name, "line"))
    skip_line (lx);
  else if (tok_is_ident (&name, "error") || tok_is_ident (&name, "warning"))
    {
      gsize start = lx->pos;
      g_autofree char *what = NULL;
      skip_line (lx);
      what = wk_text_span (lx->text, lx->len, (guint) start, (guint) lx->pos);
      if (tok_is_ident (&name, "error"))
        lex_error (lx, hash_pos, (guint) lx->pos, _("#error: %s"), what);
      else
        wk_diag_add (lx->diags, WS_KERNEL_SEVERITY_WARNING, 0, hash_pos + lx->base, (guint) lx->pos + lx->base,
                     _("#warning: %s"), what);
    }
  else
    {
      lex_error (lx, hash_pos, name.end, _("unknown preprocessor directive “#%.*s”"), (int) name.len, name.text);
      skip_line (lx);
    }
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

      skip_blank (lx, FALSE);
      if (lx->pos >= lx->len)
        break;
      if (lx->text[lx->pos] == '#' && lx->line_start)
        {
          directive (lx);
          continue;
        }
      lx->line_start = FALSE;
      if (!cond_active (lx))
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
      if (lex_token (lx, &t))
        {
          if (lx->raw->len >= WK_MAX_TOKENS)
            {
              lex_error (lx, t.start, t.end, _("the text has more than %d tokens"), WK_MAX_TOKENS);
              break;
            }
          g_array_append_val (lx->raw, t);
        }
    }
  if (lx->conds->len > 0)
    {
      Cond *c = &g_array_index (lx->conds, Cond, 0);
      lex_error (lx, c->pos, c->pos + 1, _("this #if… is not closed by an #endif"));
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

  expand_list (lx, table, (WkToken *) lx->raw->data, lx->raw->len, final, active, NULL, TRUE);
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

      skip_blank (&lx, FALSE);
      if (lx.pos >= lx.len)
        break;
      if (lex_token (&lx, &t))
        g_array_append_val (lx.raw, t);
    }
  lexer_finish (&lx, macros, out);
  out->macros = NULL;
  return diags->n_errors == errors;
}
