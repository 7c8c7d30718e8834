/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The preprocessor: macros (object- and function-like, expanded as C
 * does, each expanded token at the place of its macro's use), and the
 * directives (#define, #undef, #if and its kin decided with the macros
 * defined so far, #pragma unroll, #include and the rest). */
#include "ws-config.h"
#include "ws-kernel-lex-private.h"
#include "ws-i18n.h"

#include <glib/gi18n-lib.h>
#include <string.h>

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
          wkl_expand_list (lx, table, (WkToken *) arg->data, arg->len, expanded, active, use, FALSE);
          g_array_append_vals (body, expanded->data, expanded->len);
        }
      else
        g_array_append_val (body, *t);
    }
  g_ptr_array_add (active, m);
  wkl_expand_list (lx, table, (WkToken *) body->data, body->len, out, active, use, FALSE);
  g_ptr_array_remove_index (active, active->len - 1);
  return j;
}

void
wkl_expand_list (Lexer         *lx,
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

      /* nested macros whose arguments appear twice in their bodies double
       * at each level: the work of all levels together is bounded too */
      if (!top)
        lx->expanded++;
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
      if (active->len >= WK_MAX_MACRO_DEPTH || out->len >= WK_MAX_TOKENS || lx->expanded >= WK_MAX_EXPANSION)
        {
          /* said once, at the use in the text of the outermost macro */
          const WkMacro *outer = active->len > 0 ? g_ptr_array_index (active, 0) : m;
          const WkToken *at = use ? use : t;
          if (!lx->depth_reported)
            wkl_lex_error (lx, at->start, at->end,
                       _("the macro “%s” expands too deeply or into too much text (more than %d macros inside "
                         "one another or %d tokens)"), outer->name, WK_MAX_MACRO_DEPTH, WK_MAX_EXPANSION);
          lx->depth_reported = TRUE;
          emit (out, t, use);
          continue;
        }
      if (!m->function_like)
        {
          g_ptr_array_add (active, m);
          wkl_expand_list (lx, table, m->body, m->n_body, out, active, use ? use : t, FALSE);
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

      wkl_skip_blank (lx, TRUE);
      if (lx->pos >= lx->len || lx->text[lx->pos] == '\n')
        return;
      if (wkl_lex_token (lx, &t))
        g_array_append_val (out, t);
    }
}

static void
skip_line (Lexer *lx)
{
  while (lx->pos < lx->len && lx->text[lx->pos] != '\n')
    {
      if (lx->text[lx->pos] == '\\' && wkl_peek (lx, 1) == '\n')
        lx->pos++;
      else if (lx->text[lx->pos] == '/' && wkl_peek (lx, 1) == '*')
        {
          wkl_block_comment (lx);
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

  wkl_skip_blank (lx, TRUE);
  if (lx->pos >= lx->len || !wkl_is_ident_start (lx->text[lx->pos]) || !wkl_lex_token (lx, &name))
    {
      wkl_lex_error (lx, hash_pos, (guint) lx->pos, _("#define must be followed by a name"));
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
          wkl_skip_blank (lx, TRUE);
          if (lx->pos < lx->len && lx->text[lx->pos] == ')' && params->len == 0)
            {
              lx->pos++;
              break;
            }
          if (lx->pos >= lx->len || lx->text[lx->pos] == '\n' || !wkl_lex_token (lx, &p))
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
          wkl_skip_blank (lx, TRUE);
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
          wkl_lex_error (lx, name.start, name.end, _("the parameters of the macro “%s” are not a list of names in "
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

  wkl_skip_blank (lx, TRUE);
  if (lx->pos >= lx->len || !wkl_is_ident_start (lx->text[lx->pos]) || !wkl_lex_token (lx, &name))
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
  wkl_expand_list (lx, lx->macros, (WkToken *) resolved->data, resolved->len, expanded, active, NULL, FALSE);
  e.t = (WkToken *) expanded->data;
  e.n = expanded->len;
  if (!e.bad)
    v = if_ternary (&e);
  if (e.bad || e.i != e.n || e.n == 0)
    {
      wkl_lex_error (lx, hash_pos, (guint) lx->pos,
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

  c.parent_active = wkl_cond_active (lx);
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
  wkl_lex_note (lx, hash_pos, first->end, _("“#pragma %.*s” is ignored"), (int) first->len, first->text);
}

void
wkl_directive (Lexer *lx)
{
  guint hash_pos = (guint) lx->pos;
  WkToken name;
  gboolean active = wkl_cond_active (lx);

  lx->pos++;
  wkl_skip_blank (lx, TRUE);
  if (lx->pos >= lx->len || lx->text[lx->pos] == '\n')
    return;     /* the null directive */
  if (!wkl_is_ident_start (lx->text[lx->pos]) || !wkl_lex_token (lx, &name))
    {
      if (active)
        wkl_lex_error (lx, hash_pos, hash_pos + 1, _("“#” must be followed by a directive such as #define"));
      skip_line (lx);
      return;
    }

  if (tok_is_ident (&name, "ifdef") || tok_is_ident (&name, "ifndef"))
    {
      WkToken m;
      gboolean value = FALSE;

      wkl_skip_blank (lx, TRUE);
      if (lx->pos < lx->len && wkl_is_ident_start (lx->text[lx->pos]) && wkl_lex_token (lx, &m))
        value = (lookup_macro (lx->macros, &m) != NULL) == tok_is_ident (&name, "ifdef");
      else if (active)
        wkl_lex_error (lx, hash_pos, name.end, _("#%.*s must be followed by a name"), (int) name.len, name.text);
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
          wkl_lex_error (lx, hash_pos, name.end, _("#%.*s without an #if before it"), (int) name.len, name.text);
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
          wkl_lex_error (lx, hash_pos, name.end, _("#%.*s after the #else of the same #if"), (int) name.len, name.text);
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
        wkl_lex_error (lx, hash_pos, (guint) lx->pos, _("#error: %s"), what);
      else
        wk_diag_add (lx->diags, WS_KERNEL_SEVERITY_WARNING, 0, hash_pos + lx->base, (guint) lx->pos + lx->base,
                     _("#warning: %s"), what);
    }
  else
    {
      wkl_lex_error (lx, hash_pos, name.end, _("unknown preprocessor directive “#%.*s”"), (int) name.len, name.text);
      skip_line (lx);
    }
}

