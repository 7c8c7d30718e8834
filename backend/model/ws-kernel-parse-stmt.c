/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The parser's statements and the top level of a file: declarations,
 * control flow, #pragma unroll, functions and templates, file-scope
 * variables and typedefs, and host code skipped by matching braces. */
#include "ws-config.h"
#include "ws-kernel-parse-private.h"
#include "ws-i18n.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Statements                                                         */
/* ------------------------------------------------------------------ */

static WkStorageClass
local_storage (Parser     *p,
               const Specs *s,
               guint       start)
{
  if (s->global)
    {
      wkp_error_at (p, WS_KERNEL_ERROR_INVALID, start, prev_end (p),
                    _("__global__ marks a kernel, a function, not a variable"));
      return WK_STORE_AUTO;
    }
  if (s->constant || s->managed)
    {
      wkp_error_at (p, WS_KERNEL_ERROR_INVALID, start, prev_end (p),
                _("__constant__ and __managed__ variables are declared outside functions"));
      return WK_STORE_AUTO;
    }
  if (s->shared && s->is_extern)
    return WK_STORE_EXTERN_SHARED;
  if (s->shared)
    return WK_STORE_SHARED;
  if (s->is_extern)
    {
      wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, start, prev_end (p),
                _("extern is only supported with __shared__ (extern __shared__ T name[];)"));
      return WK_STORE_AUTO;
    }
  if (s->is_static)
    {
      wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, start, prev_end (p),
                _("static local variables are not supported"));
    }
  return WK_STORE_AUTO;
}

static WkDecl *
parse_one_decl (Parser      *p,
                const Specs *s,
                WkStorageClass storage)
{
  WkDecl *d = WK_NEW (p->arena, WkDecl);

  memset (d, 0, sizeof *d);
  d->start = s->start;
  d->storage = storage;
  d->is_static = s->is_static;
  d->type = wkp_parse_declarator (p, s->type, FALSE, &d->name, &d->name_pos);
  if (d->type == NULL && !s->is_auto)
    return NULL;
  if (d->name == NULL)
    return NULL;
  if (at (p, WK_P_LPAREN))
    {
      wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, d->name_pos, cur (p)->end,
                _("a declaration with arguments in parentheses (a constructor) is not supported: write “= value”"));
      return NULL;
    }
  if (at (p, WK_P_LBRACE))
    {
      d->init = wkp_parse_init_list (p);
      if (d->init == NULL)
        return NULL;
    }
  else if (accept (p, WK_P_ASSIGN))
    {
      d->init = at (p, WK_P_LBRACE) ? wkp_parse_init_list (p) : wkp_parse_assign (p);
      if (d->init == NULL)
        return NULL;
    }
  if (s->is_auto && d->init == NULL)
    {
      wkp_error_at (p, WS_KERNEL_ERROR_INVALID, d->name_pos, prev_end (p), _("auto needs an initial value"));
      return NULL;
    }
  d->end = prev_end (p);
  return d;
}

static WkStmt *
parse_declaration_stmt (Parser *p)
{
  Specs s;
  guint start = cur (p)->start;
  WkStmt *st;
  WkStorageClass storage;
  g_autoptr (GPtrArray) decls = g_ptr_array_new ();

  if (!wkp_parse_specs (p, &s, TRUE))
    {
      if (!p->failed)
        wkp_expected (p, _("a type"));
      return NULL;
    }
  if (s.is_typedef)
    {
      wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, start, prev_end (p), _("typedef is only supported outside functions"));
      return NULL;
    }
  if (s.type == NULL && !s.is_auto)
    {
      wkp_expected (p, _("a type"));
      return NULL;
    }
  if (s.type != NULL && s.type->kind == WK_TY_STRUCT && at (p, WK_P_SEMI))
    {
      wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, start, cur (p)->end, _("structs are defined outside functions"));
      return NULL;
    }
  storage = local_storage (p, &s, start);
  if (p->failed)
    return NULL;
  do
    {
      WkDecl *d = parse_one_decl (p, &s, storage);
      if (d == NULL)
        return NULL;
      g_ptr_array_add (decls, d);
    }
  while (accept (p, WK_P_COMMA));
  if (!wkp_expect (p, WK_P_SEMI, _("“;” after the declaration")))
    return NULL;
  st = wkp_stmt_new (p, WK_S_DECL, start);
  st->end = prev_end (p);
  st->n_decls = decls->len;
  st->decls = WK_NEWV (p->arena, WkDecl *, decls->len);
  for (guint i = 0; i < decls->len; i++)
    st->decls[i] = decls->pdata[i];
  return st;
}

static gboolean
at_declaration (Parser *p)
{
  const WkToken *t = cur (p);

  if (!wkp_starts_type (p, t))
    return FALSE;
  /* float (x) …: a functional cast starting an expression statement */
  if ((wkp_is_basic_word (t) || wkp_alias_type (t) || wkp_is_typedef_name (p, t)) && is_punct (ahead (p, 1), WK_P_LPAREN))
    return FALSE;
  return TRUE;
}

static WkStmt *
parse_block (Parser *p)
{
  g_autoptr (GPtrArray) list = g_ptr_array_new ();
  WkStmt *b = wkp_stmt_new (p, WK_S_BLOCK, cur (p)->start);

  advance (p);
  while (!at (p, WK_P_RBRACE))
    {
      WkStmt *s;

      if (cur (p)->kind == WK_TOK_EOF)
        {
          wkp_error_at (p, WS_KERNEL_ERROR_SYNTAX, b->start, b->start + 1,
                    _("the block opened here is not closed with “}”"));
          return NULL;
        }
      p->failed = FALSE;
      s = wkp_parse_statement (p);
      if (s == NULL)
        {
          if (p->diags->too_many)
            return NULL;
          wkp_recover (p);
          continue;
        }
      g_ptr_array_add (list, s);
    }
  b->end = cur (p)->end;
  advance (p);
  b->n_list = list->len;
  b->list = WK_NEWV (p->arena, WkStmt *, MAX (list->len, 1));
  for (guint i = 0; i < list->len; i++)
    b->list[i] = list->pdata[i];
  return b;
}

static WkExpr *
parse_condition (Parser     *p,
                 const char *keyword)
{
  WkExpr *e;

  if (!at (p, WK_P_LPAREN))
    {
      g_autofree char *what = g_strdup_printf (_("“(” after “%s”"), keyword);
      wkp_expected (p, what);
      return NULL;
    }
  advance (p);
  if (at_declaration (p))
    {
      wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, cur (p)->start, cur (p)->end,
                _("a declaration in a condition is not supported"));
      return NULL;
    }
  e = wkp_parse_expr (p);
  if (e == NULL)
    return NULL;
  if (!at (p, WK_P_RPAREN))
    {
      g_autofree char *what = g_strdup_printf (_("“)” to close the condition of “%s”"), keyword);
      wkp_expected (p, what);
      return NULL;
    }
  advance (p);
  return e;
}

static WkStmt *
new_loop (Parser    *p,
          WkStmtKind kind,
          guint      start)
{
  WkStmt *s = wkp_stmt_new (p, kind, start);

  if (p->func != NULL)
    s->loop_id = p->func->n_loops++;
  return s;
}

static WkStmt *
parse_for (Parser *p)
{
  WkStmt *s = new_loop (p, WK_S_FOR, cur (p)->start);

  advance (p);
  if (!wkp_expect (p, WK_P_LPAREN, _("“(” after “for”")))
    return NULL;
  if (at_declaration (p))
    {
      s->init = parse_declaration_stmt (p);
      if (s->init == NULL)
        return NULL;
    }
  else if (!accept (p, WK_P_SEMI))
    {
      WkStmt *init = wkp_stmt_new (p, WK_S_EXPR, cur (p)->start);
      init->e = wkp_parse_expr (p);
      if (init->e == NULL)
        return NULL;
      init->end = init->e->end;
      s->init = init;
      if (at (p, WK_P_COLON))
        {
          wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, cur (p)->start, cur (p)->end,
                    _("range-based for loops are not supported"));
          return NULL;
        }
      if (!wkp_expect (p, WK_P_SEMI, _("“;” after the initialisation of the for loop")))
        return NULL;
    }
  if (!at (p, WK_P_SEMI))
    {
      s->e = wkp_parse_expr (p);
      if (s->e == NULL)
        return NULL;
    }
  if (!wkp_expect (p, WK_P_SEMI, _("“;” after the condition of the for loop")))
    return NULL;
  if (!at (p, WK_P_RPAREN))
    {
      s->inc = wkp_parse_expr (p);
      if (s->inc == NULL)
        return NULL;
    }
  if (!wkp_expect (p, WK_P_RPAREN, _("“)” to close the for loop's parentheses")))
    return NULL;
  s->body = wkp_parse_statement (p);
  if (s->body == NULL)
    return NULL;
  s->end = s->body->end;
  return s;
}

static WkStmt *
parse_switch (Parser *p)
{
  WkStmt *s = wkp_stmt_new (p, WK_S_SWITCH, cur (p)->start);

  advance (p);
  s->e = parse_condition (p, "switch");
  if (s->e == NULL)
    return NULL;
  if (!at (p, WK_P_LBRACE))
    {
      wkp_expected (p, _("“{” after the condition of “switch”"));
      return NULL;
    }
  s->body = parse_block (p);
  if (s->body == NULL)
    return NULL;
  s->end = s->body->end;
  return s;
}

static WkStmt *
parse_pragma_loop (Parser *p)
{
  const WkToken *t = cur (p);
  int unroll = -1;
  WkExpr *unroll_expr = NULL;
  WkStmt *loop;
  gboolean nounroll = t->ival == 1;

  advance (p);
  if (!at (p, WK_P_RPAREN) && cur (p)->kind != WK_TOK_PRAGMA_END)
    {
      WkExpr *e = wkp_parse_assign (p);
      /* the count must be a constant; the checker says so where it is not */
      if (e == NULL)
        return NULL;
      if (e->kind == WK_E_INT && e->v.u <= 100000)
        unroll = (int) e->v.u;
      else
        unroll_expr = e;        /* the checker evaluates it */
    }
  if (cur (p)->kind != WK_TOK_PRAGMA_END)
    {
      wkp_expected (p, _("the end of the line of “#pragma unroll”"));
      return NULL;
    }
  advance (p);
  if (nounroll)
    unroll = 1;
  if (!(at_word (p, "for") || at_word (p, "while") || at_word (p, "do")))
    {
      if (cur (p)->kind == WK_TOK_PRAGMA_UNROLL)
        return parse_pragma_loop (p);
      wkp_error_at (p, WS_KERNEL_ERROR_SYNTAX, t->start, t->end,
                _("#pragma unroll must come just before a for, while or do loop"));
      return NULL;
    }
  loop = wkp_parse_statement (p);
  if (loop != NULL)
    {
      loop->unroll = unroll;
      loop->unroll_expr = unroll_expr;
      loop->start = MIN (loop->start, t->start);
    }
  return loop;
}

static WkStmt *
parse_statement_inner (Parser *p)
{
  const WkToken *t = cur (p);
  WkStmt *s;
  const char *why;

  if (t->kind == WK_TOK_PRAGMA_UNROLL)
    return parse_pragma_loop (p);
  if (is_punct (t, WK_P_LBRACE))
    return parse_block (p);
  if (is_punct (t, WK_P_SEMI))
    {
      s = wkp_stmt_new (p, WK_S_EMPTY, t->start);
      s->end = t->end;
      advance (p);
      return s;
    }
  if (t->kind == WK_TOK_IDENT)
    {
      if (is_word (t, "if"))
        {
          s = wkp_stmt_new (p, WK_S_IF, t->start);
          advance (p);
          if (at_word (p, "constexpr"))
            advance (p);
          s->e = parse_condition (p, "if");
          if (s->e == NULL)
            return NULL;
          s->body = wkp_parse_statement (p);
          if (s->body == NULL)
            return NULL;
          s->end = s->body->end;
          if (at_word (p, "else"))
            {
              advance (p);
              s->els = wkp_parse_statement (p);
              if (s->els == NULL)
                return NULL;
              s->end = s->els->end;
            }
          return s;
        }
      if (is_word (t, "for"))
        return parse_for (p);
      if (is_word (t, "while"))
        {
          s = new_loop (p, WK_S_WHILE, t->start);
          advance (p);
          s->e = parse_condition (p, "while");
          if (s->e == NULL)
            return NULL;
          s->body = wkp_parse_statement (p);
          if (s->body == NULL)
            return NULL;
          s->end = s->body->end;
          return s;
        }
      if (is_word (t, "do"))
        {
          s = new_loop (p, WK_S_DO, t->start);
          advance (p);
          s->body = wkp_parse_statement (p);
          if (s->body == NULL)
            return NULL;
          if (!at_word (p, "while"))
            {
              wkp_expected (p, _("“while” after the body of “do”"));
              return NULL;
            }
          advance (p);
          s->e = parse_condition (p, "while");
          if (s->e == NULL || !wkp_expect (p, WK_P_SEMI, _("“;” after “do … while (…)”")))
            return NULL;
          s->end = prev_end (p);
          return s;
        }
      if (is_word (t, "break") || is_word (t, "continue"))
        {
          s = wkp_stmt_new (p, is_word (t, "break") ? WK_S_BREAK : WK_S_CONTINUE, t->start);
          advance (p);
          if (!wkp_expect (p, WK_P_SEMI, is_word (t, "break") ? _("“;” after “break”") : _("“;” after “continue”")))
            return NULL;
          s->end = prev_end (p);
          return s;
        }
      if (is_word (t, "return"))
        {
          s = wkp_stmt_new (p, WK_S_RETURN, t->start);
          advance (p);
          if (!at (p, WK_P_SEMI))
            {
              s->e = at (p, WK_P_LBRACE) ? wkp_parse_init_list (p) : wkp_parse_expr (p);
              if (s->e == NULL)
                return NULL;
            }
          if (!wkp_expect (p, WK_P_SEMI, _("“;” after “return”")))
            return NULL;
          s->end = prev_end (p);
          return s;
        }
      if (is_word (t, "switch"))
        return parse_switch (p);
      if (is_word (t, "case") || is_word (t, "default"))
        {
          s = wkp_stmt_new (p, WK_S_CASE, t->start);
          advance (p);
          if (is_word (t, "case"))
            {
              s->e = wkp_parse_conditional (p);
              if (s->e == NULL)
                return NULL;
            }
          if (!wkp_expect (p, WK_P_COLON, _("“:” after the case")))
            return NULL;
          s->end = prev_end (p);
          return s;
        }
      if (is_word (t, "else"))
        {
          wkp_error_at (p, WS_KERNEL_ERROR_SYNTAX, t->start, t->end, _("“else” without an “if” before it"));
          return NULL;
        }
      if ((why = wkp_unsupported_message (t)) != NULL)
        {
          wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, t->start, t->end, "%s", why);
          return NULL;
        }
      if (is_punct (ahead (p, 1), WK_P_COLON) && !is_word (t, "default"))
        {
          wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, t->start, ahead (p, 1)->end,
                    _("labels are not supported (nor is goto)"));
          return NULL;
        }
      if (is_word (t, "typedef") || is_word (t, "struct") || is_word (t, "template") || is_word (t, "using"))
        {
          wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, t->start, t->end,
                    _("“%.*s” is only supported outside functions"), (int) t->len, t->text);
          return NULL;
        }
      if (at_declaration (p))
        return parse_declaration_stmt (p);
    }
  s = wkp_stmt_new (p, WK_S_EXPR, t->start);
  s->e = wkp_parse_expr (p);
  if (s->e == NULL)
    return NULL;
  if (!wkp_expect (p, WK_P_SEMI, _("“;” after the expression")))
    return NULL;
  s->end = prev_end (p);
  return s;
}

WkStmt *
wkp_parse_statement (Parser *p)
{
  WkStmt *s;

  if (!wkp_enter (p))
    return NULL;
  s = parse_statement_inner (p);
  leave (p);
  return s;
}

/* ------------------------------------------------------------------ */
/* The top level                                                      */
/* ------------------------------------------------------------------ */

static void
declare_file_sym (Parser *p,
                  WkSym  *sym)
{
  WkSym *old = g_hash_table_lookup (p->file->file_scope, sym->name);

  if (old != NULL && !(old->kind == WK_SYM_FUNC && sym->kind == WK_SYM_FUNC && old->func->body == NULL))
    {
      guint line, column;
      wk_position (p->diags->text, p->diags->len, old->pos, &line, &column);
      wkp_error_at (p, WS_KERNEL_ERROR_INVALID, sym->pos, sym->pos + (guint) strlen (sym->name),
                _("“%s” is already declared, at line %u"), sym->name, line);
      return;
    }
  g_hash_table_replace (p->file->file_scope, (gpointer) sym->name, sym);
}

/* Host code: a function's head and body, or a declaration, skipped by
 * matching brackets. The name of the function, if it is one. */
static void
skip_host (Parser  *p,
           guint    start,
           gboolean note)
{
  guint depth = 0;
  const char *name = NULL;
  gboolean function = FALSE;
  guint end;
  guint first = p->i;
  guint launches = p->file->host_launches->len;
  guint calls = p->file->host_calls->len;
  gboolean calls_host = FALSE;

  while (first > 0 && p->toks[first - 1].start >= start && p->toks[first - 1].kind != WK_TOK_EOF)
    first--;
  while (cur (p)->kind != WK_TOK_EOF)
    {
      const WkToken *t = cur (p);

      if (depth == 0 && is_punct (t, WK_P_LPAREN) && p->i > 0 && p->toks[p->i - 1].kind == WK_TOK_IDENT &&
          name == NULL)
        name = wkp_tok_name (p, &p->toks[p->i - 1]);
      if (is_punct (t, WK_P_LPAREN) || is_punct (t, WK_P_LBRACKET))
        depth++;
      else if ((is_punct (t, WK_P_RPAREN) || is_punct (t, WK_P_RBRACKET)) && depth > 0)
        depth--;
      else if (depth == 0 && is_punct (t, WK_P_SEMI))
        {
          advance (p);
          break;
        }
      else if (depth == 0 && is_punct (t, WK_P_LBRACE))
        {
          gboolean initialiser = p->i > 0 && (is_punct (&p->toks[p->i - 1], WK_P_ASSIGN) ||
                                              is_punct (&p->toks[p->i - 1], WK_P_COMMA));
          guint braces = 0;
          do
            {
              if (at (p, WK_P_LBRACE))
                braces++;
              else if (at (p, WK_P_RBRACE))
                braces--;
              advance (p);
            }
          while (braces > 0 && cur (p)->kind != WK_TOK_EOF);
          if (!initialiser)
            {
              function = name != NULL;
              accept (p, WK_P_SEMI);
              break;
            }
          continue;
        }
      advance (p);
    }
  end = prev_end (p);
  wkp_record_host (p, first, p->i, function);
  if (!note)
    return;
  /* a call of a host function above it: its values before the call give
   * that function's parameters */
  for (guint i = calls; i < p->file->host_calls->len && !calls_host; i++)
    {
      const WkHostCall *c = &g_array_index (p->file->host_calls, WkHostCall, i);
      for (guint k = 0; k < p->file->host_funcs->len && !calls_host; k++)
        {
          const WkHostFunc *f = &g_array_index (p->file->host_funcs, WkHostFunc, k);
          calls_host = f->func != c->func && strcmp (f->name, c->name) == 0;
        }
    }
  if (function && (p->file->host_launches->len > launches || calls_host))
    wk_diag_add (p->diags, WS_KERNEL_SEVERITY_NOTE, 0, start, end,
                 _("the host function “%s” is not run: only its launches of kernels, and the values they use, are read"),
                 name);
  else if (function)
    wk_diag_add (p->diags, WS_KERNEL_SEVERITY_NOTE, 0, start, end,
                 _("the host function “%s” is ignored: only __global__ and __device__ code is read"), name);
  else
    wk_diag_add (p->diags, WS_KERNEL_SEVERITY_NOTE, 0, start, end,
                 _("host code is ignored: only __global__ and __device__ code is read"));
}

static gboolean
parse_params (Parser *p,
              WkFunc *f)
{
  g_autoptr (GPtrArray) params = g_ptr_array_new ();

  advance (p);
  if (at_word (p, "void") && is_punct (ahead (p, 1), WK_P_RPAREN))
    advance (p);
  if (!at (p, WK_P_RPAREN))
    do
      {
        Specs s;
        WkDecl *d;

        if (at (p, WK_P_ELLIPSIS))
          {
            wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, cur (p)->start, cur (p)->end,
                      _("functions with a variable number of arguments are not supported"));
            return FALSE;
          }
        if (!wkp_parse_specs (p, &s, FALSE) || s.type == NULL)
          {
            const WkToken *t = cur (p);
            const char *why = wkp_unsupported_message (t);
            if (p->failed)
              return FALSE;
            if (why != NULL)
              wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, t->start, t->end, "%s", why);
            else if (t->kind == WK_TOK_IDENT)
              wkp_error_at (p, WS_KERNEL_ERROR_INVALID, t->start, t->end, _("unknown type “%.*s”"), (int) t->len,
                        t->text);
            else
              wkp_expected (p, _("the type of a parameter"));
            return FALSE;
          }
        d = WK_NEW (p->arena, WkDecl);
        memset (d, 0, sizeof *d);
        d->start = s.start;
        d->storage = WK_STORE_PARAM;
        d->type = wkp_parse_declarator (p, s.type, at (p, WK_P_COMMA) || at (p, WK_P_RPAREN), &d->name, &d->name_pos);
        if (d->type == NULL)
          return FALSE;
        if (at (p, WK_P_ASSIGN))
          {
            wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, cur (p)->start, cur (p)->end,
                      _("default values of parameters are not supported"));
            return FALSE;
          }
        /* an array parameter is a pointer */
        if (d->type->kind == WK_TY_ARRAY)
          {
            if (d->type->elem->kind == WK_TY_ARRAY)
              {
                wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, d->start, prev_end (p),
                          _("parameters that are arrays of arrays are not supported: pass a pointer"));
                return FALSE;
              }
            d->type = wk_type_pointer (p->arena, d->type->elem, 0);
          }
        d->end = prev_end (p);
        if (params->len >= WK_MAX_PARAMS)
          {
            wkp_error_at (p, WS_KERNEL_ERROR_LIMIT, d->start, d->end, _("a function may have at most %d parameters"),
                      WK_MAX_PARAMS);
            return FALSE;
          }
        g_ptr_array_add (params, d);
      }
    while (accept (p, WK_P_COMMA));
  if (!wkp_expect (p, WK_P_RPAREN, _("“,” or “)” after a parameter")))
    return FALSE;
  f->n_params = params->len;
  f->params = WK_NEWV (p->arena, WkDecl *, MAX (params->len, 1));
  for (guint i = 0; i < params->len; i++)
    f->params[i] = params->pdata[i];
  return TRUE;
}

/* The type a launch gives a template type parameter, read as a type name
 * with the file's macros, structs and typedefs; NULL if it is none. */
static const WkType *
given_type (Parser     *p,
            const char *text)
{
  WkDiags diags;
  WkLexResult lex;
  const WkType *ty = NULL;

  wk_diags_init (&diags, text, strlen (text));
  if (wk_lex_fragment (text, strlen (text), 0, p->file->macros, p->arena, &diags, &lex))
    {
      Parser sub = { 0 };

      sub.file = p->file;
      sub.arena = p->arena;
      sub.diags = &diags;
      sub.toks = lex.tokens;
      sub.n = lex.n_tokens;
      sub.fragment = TRUE;
      sub.typedefs = p->typedefs;
      sub.structs = p->structs;
      ty = wkp_parse_type_name (&sub);
      if (diags.n_errors > 0 || cur (&sub)->kind != WK_TOK_EOF || (ty && ty->kind == WK_TY_VOID))
        ty = NULL;
    }
  wk_diags_clear (&diags);
  return ty;
}

/* template <typename T>: T is a type name until the function ends, the
 * type the launch gives or, before it gives one, int. */
static gboolean
parse_type_param (Parser *p,
                  GArray *types)
{
  WkTypeParam tp = { 0 };
  const char *given;

  advance (p);
  if (cur (p)->kind != WK_TOK_IDENT)
    {
      wkp_expected (p, _("the name of the template parameter"));
      return FALSE;
    }
  tp.name = wkp_tok_name (p, cur (p));
  tp.pos = cur (p)->start;
  advance (p);
  if (at (p, WK_P_ASSIGN))
    {
      wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, cur (p)->start, cur (p)->end,
                    _("default types of template parameters are not supported: the launch gives the type "
                      "(“%s = float” in the launch comment)"), tp.name);
      return FALSE;
    }
  {
    WkType *ph = WK_NEW (p->arena, WkType);

    *ph = *WK_TYPE (WK_TY_INT);
    ph->name = tp.name;
    tp.placeholder = ph;
  }
  given = p->file->type_args ? g_hash_table_lookup (p->file->type_args, tp.name) : NULL;
  if (given != NULL && (tp.bound = given_type (p, given)) == NULL)
    {
      wkp_error_at (p, WS_KERNEL_ERROR_LAUNCH, tp.pos, tp.pos + (guint) strlen (tp.name),
                    _("the type given for the template parameter “%s”, “%s”, is not a type"), tp.name, given);
      return FALSE;
    }
  g_array_append_val (types, tp);
  return TRUE;
}

static gboolean
parse_template_params (Parser            *p,
                       WkTemplateParam  **out,
                       guint             *n_out)
{
  g_autoptr (GArray) params = g_array_new (FALSE, TRUE, sizeof (WkTemplateParam));
  g_autoptr (GArray) types = g_array_new (FALSE, TRUE, sizeof (WkTypeParam));

  p->type_params = NULL;
  p->n_type_params = 0;
  advance (p);
  if (!wkp_expect (p, WK_P_LT, "“<”"))
    return FALSE;
  do
    {
      Specs s;
      WkTemplateParam tp = { 0 };
      guint start = cur (p)->start;

      if (at_word (p, "typename") || at_word (p, "class"))
        {
          if (!parse_type_param (p, types))
            return FALSE;
          continue;
        }
      if (!wkp_parse_specs (p, &s, FALSE) || s.type == NULL || !wk_type_is_integer (s.type))
        {
          if (!p->failed)
            wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, start, cur (p)->end,
                      _("only integer template parameters are supported"));
          return FALSE;
        }
      if (cur (p)->kind != WK_TOK_IDENT)
        {
          wkp_expected (p, _("the name of the template parameter"));
          return FALSE;
        }
      tp.name = wkp_tok_name (p, cur (p));
      tp.pos = cur (p)->start;
      tp.type = wk_type_unqualified (p->arena, s.type);
      advance (p);
      if (at (p, WK_P_ASSIGN))
        {
          wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, cur (p)->start, cur (p)->end,
                    _("default values of template parameters are not supported: the launch gives the value"));
          return FALSE;
        }
      g_array_append_val (params, tp);
    }
  while (accept (p, WK_P_COMMA));
  if (!wkp_expect (p, WK_P_GT, _("“>” to close the template's parameters")))
    return FALSE;
  p->n_type_params = types->len;
  p->type_params = WK_NEWV (p->arena, WkTypeParam, MAX (types->len, 1));
  if (types->len > 0)
    memcpy (p->type_params, types->data, types->len * sizeof (WkTypeParam));
  *n_out = params->len;
  *out = WK_NEWV (p->arena, WkTemplateParam, MAX (params->len, 1));
  if (params->len > 0)
    memcpy (*out, params->data, params->len * sizeof (WkTemplateParam));
  return TRUE;
}

static void
add_top (Parser   *p,
         WkTopKind kind,
         gpointer  what)
{
  WkTop *top = WK_NEW (p->arena, WkTop);

  memset (top, 0, sizeof *top);
  top->kind = kind;
  if (kind == WK_TOP_STRUCT)
    top->st = what;
  else if (kind == WK_TOP_DECL)
    top->decl = what;
  else
    top->func = what;
  g_ptr_array_add (p->file->tops, top);
}

static void
parse_function (Parser          *p,
                const Specs     *s,
                const WkType    *ret,
                const char      *name,
                guint            name_pos,
                WkTemplateParam *tparams,
                guint            n_tparams,
                gboolean         extern_c)
{
  WkFunc *f = WK_NEW (p->arena, WkFunc);
  WkSym *sym;

  memset (f, 0, sizeof *f);
  f->name = name;
  f->name_pos = name_pos;
  f->start = s->start;
  f->is_kernel = s->global;
  f->is_extern_c = extern_c || s->extern_c;
  f->force_inline = s->force_inline;
  f->ret = ret;
  f->tparams = tparams;
  f->n_tparams = n_tparams;
  f->type_params = p->type_params;
  f->n_type_params = p->n_type_params;
  p->type_params = NULL;
  p->n_type_params = 0;
  f->launch_bounds[0] = s->launch_bounds[0];
  f->launch_bounds[1] = s->launch_bounds[1];
  if (s->global && ret->kind != WK_TY_VOID)
    wkp_error_at (p, WS_KERNEL_ERROR_INVALID, s->start, name_pos, _("a __global__ function must return void"));
  if (ret->kind == WK_TY_ARRAY)
    wkp_error_at (p, WS_KERNEL_ERROR_INVALID, s->start, name_pos, _("a function cannot return an array"));
  if (!parse_params (p, f))
    return;
  if (accept (p, WK_P_SEMI))
    {
      /* a declaration ahead of the definition */
      f->end = prev_end (p);
      if (g_hash_table_lookup (p->file->file_scope, name) == NULL)
        {
          sym = WK_NEW (p->arena, WkSym);
          memset (sym, 0, sizeof *sym);
          sym->kind = WK_SYM_FUNC;
          sym->name = name;
          sym->pos = name_pos;
          sym->func = f;
          sym->param = -1;
          g_hash_table_insert (p->file->file_scope, (gpointer) name, sym);
        }
      return;
    }
  if (!at (p, WK_P_LBRACE))
    {
      wkp_expected (p, _("“{” to start the function's body"));
      return;
    }
  sym = WK_NEW (p->arena, WkSym);
  memset (sym, 0, sizeof *sym);
  sym->kind = WK_SYM_FUNC;
  sym->name = name;
  sym->pos = name_pos;
  sym->func = f;
  sym->param = -1;
  declare_file_sym (p, sym);

  p->func = f;
  f->body = parse_block (p);
  p->func = NULL;
  if (f->body == NULL)
    return;
  f->end = f->body->end;
  g_ptr_array_add (p->file->funcs, f);
  if (f->is_kernel)
    g_ptr_array_add (p->file->kernels, f);
  add_top (p, WK_TOP_FUNC, f);
}

static void
parse_file_decls (Parser      *p,
                  const Specs *s)
{
  WkStorageClass storage;

  if (s->constant)
    storage = WK_STORE_CONSTANT;
  else if (s->shared)
    storage = s->is_extern ? WK_STORE_EXTERN_SHARED : WK_STORE_SHARED;
  else if (s->device)
    storage = WK_STORE_DEVICE;
  else
    storage = WK_STORE_CONST_VALUE;

  do
    {
      WkDecl *d = parse_one_decl (p, s, storage);
      WkSym *sym;

      if (d == NULL)
        return;
      if (s->managed)
        {
          wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, d->start, d->end,
                    _("managed memory (__managed__) is not supported"));
          return;
        }
      sym = WK_NEW (p->arena, WkSym);
      memset (sym, 0, sizeof *sym);
      sym->kind = storage == WK_STORE_CONST_VALUE ? WK_SYM_CONST : WK_SYM_MEMORY;
      sym->name = d->name;
      sym->pos = d->name_pos;
      sym->type = d->type;
      sym->storage = storage;
      sym->decl = d;
      sym->param = -1;
      d->sym = sym;
      declare_file_sym (p, sym);
      g_ptr_array_add (p->file->globals, d);
      add_top (p, WK_TOP_DECL, d);
    }
  while (accept (p, WK_P_COMMA));
  wkp_expect (p, WK_P_SEMI, _("“;” after the declaration"));
}

static void
parse_typedef (Parser      *p,
               const Specs *s)
{
  do
    {
      const char *name;
      guint pos;
      const WkType *t = wkp_parse_declarator (p, s->type, FALSE, &name, &pos);

      if (t == NULL)
        return;
      if (t->kind == WK_TY_STRUCT && t->st->name == NULL)
        {
          /* typedef struct { … } P; */
          if (g_hash_table_contains (p->typedefs, name) || g_hash_table_contains (p->structs, name) ||
              g_hash_table_contains (p->file->file_scope, name))
            {
              wkp_error_at (p, WS_KERNEL_ERROR_INVALID, pos, pos + (guint) strlen (name), _("“%s” is already declared"),
                            name);
              return;
            }
          ((WkStruct *) t->st)->name = name;
          ((WkType *) t)->name = name;
          wkp_register_struct (p, (WkStruct *) t->st);
          continue;
        }
      if (t->kind == WK_TY_STRUCT && g_strcmp0 (t->st->name, name) == 0)
        continue;       /* typedef struct P P; */
      if (g_hash_table_contains (p->typedefs, name) || g_hash_table_contains (p->file->file_scope, name))
        {
          wkp_error_at (p, WS_KERNEL_ERROR_INVALID, pos, pos + (guint) strlen (name), _("“%s” is already declared"),
                    name);
          return;
        }
      g_hash_table_insert (p->typedefs, (gpointer) name, (gpointer) t);
    }
  while (accept (p, WK_P_COMMA));
  wkp_expect (p, WK_P_SEMI, _("“;” after the typedef"));
}

static gboolean
is_device_code (const Specs *s)
{
  return s->global || s->device || s->constant || s->shared || s->managed;
}

static void parse_top (Parser *p, gboolean extern_c);

static void
parse_top_decl (Parser          *p,
                gboolean         extern_c,
                WkTemplateParam *tparams,
                guint            n_tparams)
{
  Specs s;
  guint start = cur (p)->start;
  const WkToken *first = cur (p);
  guint struct_count = 0;
  guint save_i = p->i, save_len = p->diags->diags->len, save_errors = p->diags->n_errors;
  gboolean save_failed = p->failed;

  p->wrong_anywhere = FALSE;
  if (!wkp_parse_specs (p, &s, TRUE) || (s.type == NULL && !s.is_auto))
    {
      const WkToken *t = cur (p);

      if (p->failed && !p->wrong_anywhere && (is_word (first, "struct") || is_word (first, "typedef")) &&
          !is_device_code (&s) && n_tparams == 0)
        {
          /* a host struct (a timer class): skipped, unless a kernel uses it */
          wkp_rollback (p, save_len, save_errors, save_failed);
          p->i = save_i;
          skip_host (p, start, TRUE);
          return;
        }
      const char *why = wkp_unsupported_message (t);

      if (p->failed)
        return;
      if (is_device_code (&s))
        {
          if (why != NULL)
            wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, t->start, t->end, "%s", why);
          else if (t->kind == WK_TOK_IDENT)
            wkp_error_at (p, WS_KERNEL_ERROR_INVALID, t->start, t->end, _("unknown type “%.*s”"), (int) t->len, t->text);
          else
            wkp_expected (p, _("a type"));
          return;
        }
      /* host code: a type we do not know */
      skip_host (p, start, TRUE);
      return;
    }
  (void) first;
  (void) struct_count;

  /* struct X { … }; or struct X; (a typedef's name alone declares nothing,
   * and is left to the declarator to say so) */
  if (s.type != NULL && s.type->kind == WK_TY_STRUCT && s.struct_word && at (p, WK_P_SEMI))
    {
      advance (p);
      if (s.struct_defined && !s.is_typedef)
        add_top (p, WK_TOP_STRUCT, (gpointer) s.type->st);
      return;
    }
  if (s.type != NULL && s.type->kind == WK_TY_STRUCT && s.struct_defined &&
      (s.is_typedef || s.type->st->name != NULL || at (p, WK_P_STAR) || cur (p)->kind == WK_TOK_IDENT))
    {
      /* a definition used in a typedef or a declaration, or one that host
       * code skipped below follows (its name is known from here on): printed
       * before it */
      gboolean listed = FALSE;
      for (guint i = 0; i < p->file->tops->len; i++)
        {
          WkTop *top = g_ptr_array_index (p->file->tops, i);
          if (top->kind == WK_TOP_STRUCT && top->st == s.type->st)
            listed = TRUE;
        }
      if (!listed)
        add_top (p, WK_TOP_STRUCT, (gpointer) s.type->st);
    }
  if (s.is_typedef)
    {
      if (s.type == NULL)
        {
          wkp_expected (p, _("a type"));
          return;
        }
      parse_typedef (p, &s);
      return;
    }

  /* a function or variables: look past the declarator for "(" */
  {
    guint save = p->i;
    const char *name;
    guint name_pos;
    const WkType *t;
    gboolean was_failed = p->failed;
    guint errors = p->diags->n_errors;
    guint diag_len = p->diags->diags->len;

    if (s.type == NULL)
      {
        if (!is_device_code (&s))
          {
            skip_host (p, start, TRUE);
            return;
          }
        wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, start, prev_end (p), _("auto is only supported for local variables"));
        return;
      }
    t = wkp_parse_declarator (p, s.type, FALSE, &name, &name_pos);
    if (t == NULL && !is_device_code (&s))
      {
        /* host code the declarator did not understand */
        wkp_rollback (p, diag_len, errors, was_failed);
        p->i = save;
        skip_host (p, start, TRUE);
        return;
      }
    if (t == NULL)
      return;
    if (at (p, WK_P_LPAREN))
      {
        if (!s.global && !s.device)
          {
            p->i = save;
            skip_host (p, start, TRUE);
            return;
          }
        parse_function (p, &s, t, name, name_pos, tparams, n_tparams, extern_c);
        return;
      }
    if (n_tparams > 0 || p->n_type_params > 0)
      {
        wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, start, name_pos, _("only functions may be templates"));
        return;
      }
    if (s.global)
      {
        /* nvcc: "attribute "global" does not apply here" (found by fuzz-kernel:
         * it was read as a constant, printed as one, and read back otherwise) */
        wkp_error_at (p, WS_KERNEL_ERROR_INVALID, start, name_pos + (guint) strlen (name),
                      _("__global__ marks a kernel, a function: “%s” is a variable (__device__ puts one in global "
                        "memory)"), name);
        return;
      }
    /* a host variable, or a host constant that is volatile: no constant
     * expression (nvcc: "expression must have a constant value"), so not
     * one device code may use (found by fuzz-kernel: read as a constant,
     * printed without its volatile) */
    if (!is_device_code (&s) && ((!s.constexpr_ && !(t->quals & WK_Q_CONST)) || (t->quals & WK_Q_VOLATILE)))
      {
        p->i = save;
        skip_host (p, start, TRUE);
        return;
      }
    if (!is_device_code (&s) && (t->kind == WK_TY_ARRAY || t->kind == WK_TY_POINTER))
      {
        /* a host table: a kernel cannot read it */
        p->i = save;
        skip_host (p, start, TRUE);
        return;
      }
    p->i = save;
    parse_file_decls (p, &s);
  }
}

/* Whether the template at the cursor is of device code: a __global__ or
 * __device__ among the words after its parameters. */
static gboolean
template_is_device (Parser *p)
{
  guint depth = 0;
  guint k = 1;

  if (!is_punct (ahead (p, 1), WK_P_LT))
    return TRUE;
  for (; k < 4096 && ahead (p, k)->kind != WK_TOK_EOF; k++)
    {
      const WkToken *t = ahead (p, k);
      if (is_punct (t, WK_P_LT))
        depth++;
      else if (is_punct (t, WK_P_GT) && --depth == 0)
        break;
      else if (is_punct (t, WK_P_SHR))
        {
          if (depth <= 2)
            break;
          depth -= 2;
        }
    }
  for (k++; k < 4096; k++)
    {
      const WkToken *t = ahead (p, k);
      if (is_word (t, "__global__") || is_word (t, "__device__"))
        return TRUE;
      if (t->kind != WK_TOK_IDENT && !is_punct (t, WK_P_STAR) && !is_punct (t, WK_P_LPAREN) &&
          !is_punct (t, WK_P_RPAREN))
        return FALSE;
      if (is_punct (t, WK_P_LPAREN))
        return FALSE;
    }
  return FALSE;
}

static void
parse_top (Parser  *p,
           gboolean extern_c)
{
  const WkToken *t = cur (p);

  p->failed = FALSE;
  if (is_punct (t, WK_P_SEMI))
    {
      advance (p);
      return;
    }
  if (t->kind == WK_TOK_PRAGMA_UNROLL)
    {
      wkp_error_at (p, WS_KERNEL_ERROR_SYNTAX, t->start, t->end,
                _("#pragma unroll must come just before a for, while or do loop"));
      while (cur (p)->kind != WK_TOK_PRAGMA_END && cur (p)->kind != WK_TOK_EOF)
        advance (p);
      advance (p);
      return;
    }
  if (t->fn_macro)
    {
      /* a macro used at the top: whatever it makes is host code */
      skip_host (p, t->start, TRUE);
      return;
    }
  if (is_word (t, "extern") && ahead (p, 1)->kind == WK_TOK_STRING && is_punct (ahead (p, 2), WK_P_LBRACE))
    {
      guint open = ahead (p, 2)->start;
      advance (p);
      advance (p);
      advance (p);
      while (!at (p, WK_P_RBRACE))
        {
          if (cur (p)->kind == WK_TOK_EOF)
            {
              wkp_error_at (p, WS_KERNEL_ERROR_SYNTAX, open, open + 1, _("the block opened here is not closed with “}”"));
              return;
            }
          parse_top (p, TRUE);
          if (p->failed)
            wkp_recover (p);
        }
      advance (p);
      return;
    }
  if (is_word (t, "template"))
    {
      WkTemplateParam *tparams = NULL;
      guint n = 0;
      guint start = t->start;
      if (!template_is_device (p))
        {
          /* a host template: whatever its parameters, skipped */
          skip_host (p, start, TRUE);
          return;
        }
      if (!parse_template_params (p, &tparams, &n))
        {
          /* the whole templated thing: the error said why */
          skip_host (p, start, FALSE);
          return;
        }
      {
        /* the type parameters are type names in what the template declares */
        guint n_types = p->n_type_params;
        WkTypeParam *types = p->type_params;
        const WkType **before = g_newa (const WkType *, MAX (n_types, 1));

        for (guint k = 0; k < n_types; k++)
          {
            before[k] = g_hash_table_lookup (p->typedefs, types[k].name);
            g_hash_table_insert (p->typedefs, (gpointer) types[k].name,
                                 (gpointer) (types[k].bound ? types[k].bound : types[k].placeholder));
          }
        parse_top_decl (p, extern_c, tparams, n);
        for (guint k = 0; k < n_types; k++)
          if (before[k])
            g_hash_table_insert (p->typedefs, (gpointer) types[k].name, (gpointer) before[k]);
          else
            g_hash_table_remove (p->typedefs, types[k].name);
        p->type_params = NULL;
        p->n_type_params = 0;
      }
      return;
    }
  if (is_word (t, "using") || is_word (t, "static_assert"))
    {
      skip_host (p, t->start, TRUE);
      return;
    }
  if (is_word (t, "namespace"))
    {
      skip_host (p, t->start, TRUE);
      return;
    }
  if (is_word (t, "union") || is_word (t, "enum") || is_word (t, "class"))
    {
      /* only an error if a kernel uses what it declares: that name is unknown there */
      skip_host (p, t->start, TRUE);
      return;
    }
  parse_top_decl (p, extern_c, NULL, 0);
}

gboolean
wk_parse (WsKernelFile      *file,
          const WkLexResult *lex,
          WkDiags           *diags)
{
  Parser p = { 0 };
  guint errors = diags->n_errors;

  p.file = file;
  p.arena = &file->arena;
  p.diags = diags;
  p.toks = lex->tokens;
  p.n = lex->n_tokens;
  p.typedefs = g_hash_table_new (g_str_hash, g_str_equal);
  p.structs = g_hash_table_new (g_str_hash, g_str_equal);

  while (cur (&p)->kind != WK_TOK_EOF && !diags->too_many)
    {
      guint before = p.i;
      parse_top (&p, FALSE);
      if (p.failed)
        wkp_recover (&p);
      if (p.i == before)
        advance (&p);
    }
  g_hash_table_unref (p.typedefs);
  g_hash_table_unref (p.structs);
  return diags->n_errors == errors;
}

WkExpr *
wk_parse_expression (WsKernelFile      *file,
                     const WkLexResult *lex,
                     WkArena           *arena,
                     WkDiags           *diags)
{
  return wk_parse_expression_typed (file, lex, arena, diags, NULL);
}

WkExpr *
wk_parse_expression_typed (WsKernelFile      *file,
                           const WkLexResult *lex,
                           WkArena           *arena,
                           WkDiags           *diags,
                           GHashTable        *types)
{
  Parser p = { 0 };
  WkExpr *e;

  p.file = file;
  p.arena = arena;
  p.diags = diags;
  p.toks = lex->tokens;
  p.n = lex->n_tokens;
  p.fragment = TRUE;
  p.typedefs = g_hash_table_new (g_str_hash, g_str_equal);
  p.structs = g_hash_table_new (g_str_hash, g_str_equal);
  if (file->type_args)
    {
      /* sizeof (T) in the host code, T a template's type the launch gave */
      GHashTableIter iter;
      gpointer name, text;
      const WkType *ty;

      g_hash_table_iter_init (&iter, file->type_args);
      while (g_hash_table_iter_next (&iter, &name, &text))
        if ((ty = given_type (&p, text)) != NULL)
          g_hash_table_insert (p.typedefs, name, (gpointer) ty);
    }
  if (types)
    {
      /* sizeof (U) in a host template, U the type its call gives */
      GHashTableIter iter;
      gpointer name, text;
      const WkType *ty;

      g_hash_table_iter_init (&iter, types);
      while (g_hash_table_iter_next (&iter, &name, &text))
        if ((ty = given_type (&p, text)) != NULL)
          g_hash_table_insert (p.typedefs, name, (gpointer) ty);
    }
  e = wkp_parse_expr (&p);
  if (e != NULL && cur (&p)->kind != WK_TOK_EOF)
    {
      wkp_expected (&p, _("an operator or the end of the value"));
      e = NULL;
    }
  g_hash_table_unref (p.typedefs);
  g_hash_table_unref (p.structs);
  return e;
}
