/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The parser's expressions: primaries, postfix and unary operators, casts,
 * precedence climbing over the binary operators, ?: and assignments, and
 * lists in braces. Every node's depth is bounded (wkp_expr_done), since
 * every walk over the tree recurses. */
#include "ws-config.h"
#include "ws-kernel-parse-private.h"
#include "ws-i18n.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Expressions                                                        */
/* ------------------------------------------------------------------ */

static WkExpr *
parse_args (Parser  *p,
            WkExpr  *call)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();

  if (!at (p, WK_P_RPAREN))
    do
      {
        WkExpr *a = wkp_parse_assign (p);
        if (a == NULL)
          return NULL;
        if (args->len >= WK_MAX_PARAMS)
          {
            wkp_error_at (p, WS_KERNEL_ERROR_LIMIT, a->start, a->end, _("a call may have at most %d arguments"),
                      WK_MAX_PARAMS);
            return NULL;
          }
        g_ptr_array_add (args, a);
      }
    while (accept (p, WK_P_COMMA));
  if (!at (p, WK_P_RPAREN))
    {
      wkp_expected (p, _("“,” or “)” after an argument"));
      return NULL;
    }
  call->end = cur (p)->end;
  advance (p);
  call->n_args = args->len;
  call->args = WK_NEWV (p->arena, WkExpr *, MAX (args->len, 1));
  for (guint i = 0; i < args->len; i++)
    call->args[i] = args->pdata[i];
  return call;
}

static gboolean
is_template_func (Parser        *p,
                  const WkToken *t)
{
  char name[WK_MAX_NAME + 1];
  WkSym *sym;

  if (t->kind != WK_TOK_IDENT || t->len > WK_MAX_NAME)
    return FALSE;
  memcpy (name, t->text, t->len);
  name[t->len] = '\0';
  sym = g_hash_table_lookup (p->file->file_scope, name);
  return sym != NULL && sym->kind == WK_SYM_FUNC && sym->func->n_tparams > 0;
}

static WkExpr *
parse_primary (Parser *p)
{
  const WkToken *t = cur (p);
  WkExpr *e;

  switch (t->kind)
    {
    case WK_TOK_INT:
    case WK_TOK_CHAR:
      e = wkp_expr_new (p, WK_E_INT, t->start, t->end);
      e->v.u = t->ival;
      /* the literal's type: C++'s rules, long being 64 bits */
      if (t->kind == WK_TOK_CHAR)
        e->type = WK_TYPE (WK_TY_CHAR);
      else if (t->n_long == 0 && t->is_unsigned)
        e->type = WK_TYPE (t->ival <= G_MAXUINT32 ? WK_TY_UINT : WK_TY_ULONG);
      else if (t->n_long == 0 && t->ival <= G_MAXINT32)
        e->type = WK_TYPE (WK_TY_INT);
      else if (t->n_long == 0 && t->is_hex && t->ival <= G_MAXUINT32)
        e->type = WK_TYPE (WK_TY_UINT);
      else if (t->is_unsigned)
        e->type = WK_TYPE (t->n_long == 2 ? WK_TY_ULLONG : WK_TY_ULONG);
      else if (t->ival <= G_MAXINT64)
        e->type = WK_TYPE (t->n_long == 2 ? WK_TY_LLONG : WK_TY_LONG);
      else if (t->is_hex)
        e->type = WK_TYPE (t->n_long == 2 ? WK_TY_ULLONG : WK_TY_ULONG);
      else
        {
          wkp_error_at (p, WS_KERNEL_ERROR_INVALID, t->start, t->end,
                    _("the number “%.*s” is too large for a signed 64-bit integer: add the suffix u"),
                    (int) t->len, t->text);
          return NULL;
        }
      advance (p);
      return e;
    case WK_TOK_FLOAT:
      e = wkp_expr_new (p, WK_E_FLOAT, t->start, t->end);
      e->v.f = t->is_float ? (double) (float) t->fval : t->fval;
      e->type = WK_TYPE (t->is_float ? WK_TY_FLOAT : WK_TY_DOUBLE);
      advance (p);
      return e;
    case WK_TOK_STRING:
      {
        GString *s = g_string_new (NULL);
        e = wkp_expr_new (p, WK_E_STRING, t->start, t->end);
        while (cur (p)->kind == WK_TOK_STRING)
          {
            if (s->len > 0)
              g_string_append_c (s, ' ');
            g_string_append_len (s, cur (p)->text, cur (p)->len);
            e->end = cur (p)->end;
            advance (p);
          }
        e->name = wk_arena_strndup (p->arena, s->str, s->len);
        g_string_free (s, TRUE);
        return e;
      }
    case WK_TOK_PUNCT:
      if (t->punct == WK_P_LPAREN)
        {
          guint open = t->start;
          advance (p);
          e = wkp_parse_expr (p);
          if (e == NULL)
            return NULL;
          if (!at (p, WK_P_RPAREN))
            {
              wkp_expected (p, _("“)” to close the “(”"));
              return NULL;
            }
          e->paren = 1;
          e->start = open;
          e->end = cur (p)->end;
          advance (p);
          return e;
        }
      if (t->punct == WK_P_COLONCOLON && ahead (p, 1)->kind == WK_TOK_IDENT)
        {
          /* ::min (…): the global namespace is where everything is */
          advance (p);
          return parse_primary (p);
        }
      if (t->punct == WK_P_LBRACKET)
        {
          wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, t->start, t->end, _("lambdas are not supported"));
          return NULL;
        }
      if (t->punct == WK_P_LBRACE)
        {
          wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, t->start, t->end,
                    _("a list in braces is only supported as the initial value of a declaration"));
          return NULL;
        }
      wkp_expected (p, _("an expression"));
      return NULL;
    case WK_TOK_IDENT:
      break;
    default:
      wkp_expected (p, _("an expression"));
      return NULL;
    }

  /* names, keywords that are expressions, casts written as calls */
  {
    const char *why;

    if (t->fn_macro)
      {
        wkp_fn_macro_error (p, t);
        return NULL;
      }
    if (is_word (t, "true") || is_word (t, "false"))
      {
        e = wkp_expr_new (p, WK_E_BOOL, t->start, t->end);
        e->v.u = is_word (t, "true");
        e->type = WK_TYPE (WK_TY_BOOL);
        advance (p);
        return e;
      }
    if (is_word (t, "nullptr") || is_word (t, "NULL"))
      {
        wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, t->start, t->end,
                  _("null pointers are not supported: a pointer points into an array"));
        return NULL;
      }
    if (is_word (t, "static_cast") || is_word (t, "reinterpret_cast") || is_word (t, "const_cast"))
      {
        WkCastStyle style = is_word (t, "static_cast") ? WK_CAST_STATIC :
                            is_word (t, "reinterpret_cast") ? WK_CAST_REINTERPRET : WK_CAST_CONST;
        const WkType *ty;
        WkExpr *x;

        advance (p);
        if (!wkp_expect (p, WK_P_LT, "“<”"))
          return NULL;
        ty = wkp_parse_type_name (p);
        if (ty == NULL)
          return NULL;
        if (!wkp_expect (p, WK_P_GT, "“>”") || !wkp_expect (p, WK_P_LPAREN, "“(”"))
          return NULL;
        x = wkp_parse_expr (p);
        if (x == NULL)
          return NULL;
        if (!at (p, WK_P_RPAREN))
          {
            wkp_expected (p, _("“)” to close the cast"));
            return NULL;
          }
        e = wkp_expr_new (p, WK_E_CAST, t->start, cur (p)->end);
        advance (p);
        e->cast_type = ty;
        e->cast_style = style;
        e->a = x;
        return wkp_expr_done (p, e) ? e : NULL;
      }
    if ((why = wkp_unsupported_message (t)) != NULL)
      {
        wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, t->start, t->end, "%s", why);
        return NULL;
      }
    if (is_word (t, "std") && is_punct (ahead (p, 1), WK_P_COLONCOLON))
      {
        wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, t->start, ahead (p, 2)->end,
                  _("the C++ standard library (std::) is not supported: use CUDA's functions (min, max, sqrtf…)"));
        return NULL;
      }
    if (is_word (t, "sizeof"))
      {
        guint start = t->start;
        advance (p);
        if (at (p, WK_P_LPAREN) && wkp_starts_type (p, ahead (p, 1)))
          {
            const WkType *ty;
            advance (p);
            ty = wkp_parse_type_name (p);
            if (ty == NULL)
              return NULL;
            if (!at (p, WK_P_RPAREN))
              {
                wkp_expected (p, _("“)” to close sizeof"));
                return NULL;
              }
            e = wkp_expr_new (p, WK_E_SIZEOF, start, cur (p)->end);
            advance (p);
            e->cast_type = ty;
            return e;
          }
        e = wkp_expr_new (p, WK_E_SIZEOF, start, start);
        e->a = wkp_parse_unary (p);
        if (e->a == NULL)
          return NULL;
        e->end = e->a->end;
        return wkp_expr_done (p, e) ? e : NULL;
      }
    /* T (x): a functional cast of a scalar type */
    if ((wkp_is_basic_word (t) || wkp_alias_type (t) || wkp_is_typedef_name (p, t)) && !is_word (t, "void"))
      {
        const WkType *ty;
        guint start = t->start;

        if (wkp_is_basic_word (t))
          {
            Specs s;
            if (!wkp_parse_specs (p, &s, FALSE) || s.type == NULL)
              return NULL;
            ty = s.type;
          }
        else
          {
            ty = wkp_alias_type (t);
            if (ty == NULL)
              ty = g_hash_table_lookup (p->typedefs, wkp_tok_name (p, t));
            advance (p);
          }
        if (!at (p, WK_P_LPAREN))
          {
            wkp_expected (p, _("“(” after the type (a cast is written (T) x or T (x))"));
            return NULL;
          }
        advance (p);
        e = wkp_expr_new (p, WK_E_CAST, start, start);
        e->a = wkp_parse_expr (p);
        if (e->a == NULL)
          return NULL;
        if (!at (p, WK_P_RPAREN))
          {
            wkp_expected (p, _("“)” to close the cast"));
            return NULL;
          }
        e->end = cur (p)->end;
        advance (p);
        e->cast_type = ty;
        e->cast_style = WK_CAST_FUNCTIONAL;
        return wkp_expr_done (p, e) ? e : NULL;
      }
    if (wkp_starts_type (p, t))
      {
        wkp_error_at (p, WS_KERNEL_ERROR_SYNTAX, t->start, t->end,
                  _("a declaration of “%.*s” is not allowed here: a declaration is a statement of its own"),
                  (int) t->len, t->text);
        return NULL;
      }

    e = wkp_expr_new (p, WK_E_NAME, t->start, t->end);
    e->name = wkp_tok_name (p, t);
    advance (p);
    if (at (p, WK_P_SHL) && is_punct (ahead (p, 1), WK_P_LT))
      {
        wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, t->start, ahead (p, 1)->end,
                  _("launching a kernel from a kernel (dynamic parallelism) is not supported (%s)"), e->name);
        return NULL;
      }
    /* a template function's arguments: name<…>(…) */
    if (at (p, WK_P_LT) && is_template_func (p, t))
      {
        g_autoptr (GPtrArray) targs = g_ptr_array_new ();
        advance (p);
        do
          {
            /* an argument stops at ">", not at the greater-than operator */
            WkExpr *a = wkp_parse_unary (p);
            if (a == NULL)
              return NULL;
            g_ptr_array_add (targs, a);
          }
        while (accept (p, WK_P_COMMA));
        if (!wkp_expect (p, WK_P_GT, _("“>” to close the template's arguments")))
          return NULL;
        if (!at (p, WK_P_LPAREN))
          {
            wkp_expected (p, "“(”");
            return NULL;
          }
        e->n_targs = targs->len;
        e->targs = WK_NEWV (p->arena, WkExpr *, targs->len);
        for (guint i = 0; i < targs->len; i++)
          e->targs[i] = targs->pdata[i];
      }
    return e;
  }
}

static WkExpr *
parse_postfix (Parser *p)
{
  WkExpr *e = parse_primary (p);

  while (e != NULL)
    {
      const WkToken *t = cur (p);
      WkExpr *n;

      if (is_punct (t, WK_P_LBRACKET))
        {
          advance (p);
          n = wkp_expr_new (p, WK_E_INDEX, e->start, t->end);
          n->pos = t->start;
          n->a = e;
          n->b = wkp_parse_expr (p);
          if (n->b == NULL)
            return NULL;
          if (!at (p, WK_P_RBRACKET))
            {
              wkp_expected (p, _("“]” to close the index"));
              return NULL;
            }
          n->end = cur (p)->end;
          advance (p);
        }
      else if (is_punct (t, WK_P_LPAREN))
        {
          if (e->kind != WK_E_NAME)
            {
              wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, t->start, t->end,
                        _("only functions may be called by name (no function pointers)"));
              return NULL;
            }
          advance (p);
          n = wkp_expr_new (p, WK_E_CALL, e->start, t->end);
          n->name = e->name;
          n->pos = e->start;
          n->targs = e->targs;
          n->n_targs = e->n_targs;
          if (parse_args (p, n) == NULL)
            return NULL;
        }
      else if (is_punct (t, WK_P_DOT) || is_punct (t, WK_P_ARROW))
        {
          const WkToken *m;
          advance (p);
          m = cur (p);
          if (m->kind != WK_TOK_IDENT)
            {
              wkp_expected (p, is_punct (t, WK_P_DOT) ? _("a field name after “.”") : _("a field name after “->”"));
              return NULL;
            }
          n = wkp_expr_new (p, WK_E_MEMBER, e->start, m->end);
          n->pos = t->start;
          n->name = wkp_tok_name (p, m);
          n->is_arrow = is_punct (t, WK_P_ARROW);
          n->a = e;
          advance (p);
        }
      else if (is_punct (t, WK_P_INC) || is_punct (t, WK_P_DEC))
        {
          n = wkp_expr_new (p, WK_E_UNARY, e->start, t->end);
          n->pos = t->start;
          n->op = is_punct (t, WK_P_INC) ? WK_OP_POSTINC : WK_OP_POSTDEC;
          n->a = e;
          advance (p);
        }
      else
        break;
      if (!wkp_expr_done (p, n))
        return NULL;
      e = n;
    }
  return e;
}

/* Whether "(" at the cursor opens a cast: a type name inside. */
static gboolean
at_cast (Parser *p)
{
  const WkToken *t = ahead (p, 1);

  if (!at (p, WK_P_LPAREN) || t->kind != WK_TOK_IDENT)
    return FALSE;
  if (is_word (t, "struct") || is_word (t, "const") || is_word (t, "volatile") || is_word (t, "unsigned") ||
      is_word (t, "signed"))
    return TRUE;
  return wkp_is_basic_word (t) || wkp_alias_type (t) || wk_type_vector_by_name (t->text, t->len) || wkp_is_typedef_name (p, t);
}

WkExpr *
wkp_parse_unary (Parser *p)
{
  const WkToken *t = cur (p);
  WkExpr *e;
  WkOp op = WK_OP_NONE;

  if (!wkp_enter (p))
    return NULL;
  if (t->kind == WK_TOK_PUNCT)
    switch (t->punct)
      {
      case WK_P_MINUS: op = WK_OP_NEG; break;
      case WK_P_PLUS: op = WK_OP_PLUS; break;
      case WK_P_TILDE: op = WK_OP_BITNOT; break;
      case WK_P_BANG: op = WK_OP_LNOT; break;
      case WK_P_STAR: op = WK_OP_DEREF; break;
      case WK_P_AMP: op = WK_OP_ADDR; break;
      case WK_P_INC: op = WK_OP_PREINC; break;
      case WK_P_DEC: op = WK_OP_PREDEC; break;
      default: break;
      }
  if (op != WK_OP_NONE)
    {
      advance (p);
      e = wkp_expr_new (p, WK_E_UNARY, t->start, t->end);
      e->op = op;
      e->a = wkp_parse_unary (p);
      leave (p);
      if (e->a == NULL)
        return NULL;
      e->end = e->a->end;
      return wkp_expr_done (p, e) ? e : NULL;
    }
  if (at_cast (p))
    {
      guint start = t->start;
      const WkType *ty;

      advance (p);
      ty = wkp_parse_type_name (p);
      if (ty == NULL || !wkp_expect (p, WK_P_RPAREN, _("“)” to close the cast")))
        {
          leave (p);
          return NULL;
        }
      e = wkp_expr_new (p, WK_E_CAST, start, start);
      e->pos = start;
      e->cast_type = ty;
      e->cast_style = WK_CAST_C;
      e->a = wkp_parse_unary (p);
      leave (p);
      if (e->a == NULL)
        return NULL;
      e->end = e->a->end;
      return wkp_expr_done (p, e) ? e : NULL;
    }
  e = parse_postfix (p);
  leave (p);
  return e;
}

static int
binary_prec (const WkToken *t,
             WkOp          *op)
{
  if (t->kind != WK_TOK_PUNCT)
    return -1;
  switch (t->punct)
    {
    case WK_P_STAR: *op = WK_OP_MUL; return 10;
    case WK_P_SLASH: *op = WK_OP_DIV; return 10;
    case WK_P_PERCENT: *op = WK_OP_MOD; return 10;
    case WK_P_PLUS: *op = WK_OP_ADD; return 9;
    case WK_P_MINUS: *op = WK_OP_SUB; return 9;
    case WK_P_SHL: *op = WK_OP_SHL; return 8;
    case WK_P_SHR: *op = WK_OP_SHR; return 8;
    case WK_P_LT: *op = WK_OP_LT; return 7;
    case WK_P_GT: *op = WK_OP_GT; return 7;
    case WK_P_LE: *op = WK_OP_LE; return 7;
    case WK_P_GE: *op = WK_OP_GE; return 7;
    case WK_P_EQEQ: *op = WK_OP_EQ; return 6;
    case WK_P_NE: *op = WK_OP_NE; return 6;
    case WK_P_AMP: *op = WK_OP_BITAND; return 5;
    case WK_P_CARET: *op = WK_OP_BITXOR; return 4;
    case WK_P_PIPE: *op = WK_OP_BITOR; return 3;
    case WK_P_ANDAND: *op = WK_OP_LAND; return 2;
    case WK_P_OROR: *op = WK_OP_LOR; return 1;
    default: return -1;
    }
}

/* Precedence climbing: left-associative chains are built in a loop. */
static WkExpr *
parse_binary (Parser *p,
              int     min_prec)
{
  WkExpr *lhs;

  if (!wkp_enter (p))
    return NULL;
  lhs = wkp_parse_unary (p);
  while (lhs != NULL)
    {
      WkOp op = WK_OP_NONE;
      int prec = binary_prec (cur (p), &op);
      const WkToken *t = cur (p);
      WkExpr *e;

      if (prec < min_prec)
        break;
      advance (p);
      e = wkp_expr_new (p, WK_E_BINARY, lhs->start, lhs->end);
      e->pos = t->start;
      e->op = op;
      e->a = lhs;
      e->b = parse_binary (p, prec + 1);
      if (e->b == NULL)
        {
          lhs = NULL;
          break;
        }
      e->end = e->b->end;
      lhs = wkp_expr_done (p, e) ? e : NULL;
    }
  leave (p);
  return lhs;
}

WkExpr *
wkp_parse_conditional (Parser *p)
{
  WkExpr *c = parse_binary (p, 1);
  WkExpr *e;
  const WkToken *q = cur (p);

  if (c == NULL || !is_punct (q, WK_P_QUESTION))
    return c;
  if (!wkp_enter (p))
    return NULL;
  advance (p);
  e = wkp_expr_new (p, WK_E_COND, c->start, c->end);
  e->pos = q->start;
  e->a = c;
  e->b = wkp_parse_expr (p);
  if (e->b == NULL || !wkp_expect (p, WK_P_COLON, _("“:” of the “?”")))
    {
      leave (p);
      return NULL;
    }
  e->c = wkp_parse_assign (p);
  leave (p);
  if (e->c == NULL)
    return NULL;
  e->end = e->c->end;
  return wkp_expr_done (p, e) ? e : NULL;
}

static WkOp
assign_op (const WkToken *t,
           gboolean      *is_assign)
{
  *is_assign = TRUE;
  if (t->kind == WK_TOK_PUNCT)
    switch (t->punct)
      {
      case WK_P_ASSIGN: return WK_OP_NONE;
      case WK_P_PLUS_ASSIGN: return WK_OP_ADD;
      case WK_P_MINUS_ASSIGN: return WK_OP_SUB;
      case WK_P_STAR_ASSIGN: return WK_OP_MUL;
      case WK_P_SLASH_ASSIGN: return WK_OP_DIV;
      case WK_P_PERCENT_ASSIGN: return WK_OP_MOD;
      case WK_P_AMP_ASSIGN: return WK_OP_BITAND;
      case WK_P_PIPE_ASSIGN: return WK_OP_BITOR;
      case WK_P_CARET_ASSIGN: return WK_OP_BITXOR;
      case WK_P_SHL_ASSIGN: return WK_OP_SHL;
      case WK_P_SHR_ASSIGN: return WK_OP_SHR;
      default: break;
      }
  *is_assign = FALSE;
  return WK_OP_NONE;
}

WkExpr *
wkp_parse_assign (Parser *p)
{
  WkExpr *lhs;
  gboolean is_assign;
  WkOp op;
  const WkToken *t;
  WkExpr *e;

  if (!wkp_enter (p))
    return NULL;
  lhs = wkp_parse_conditional (p);
  t = cur (p);
  op = assign_op (t, &is_assign);
  if (lhs == NULL || !is_assign)
    {
      leave (p);
      return lhs;
    }
  advance (p);
  e = wkp_expr_new (p, WK_E_ASSIGN, lhs->start, lhs->end);
  e->pos = t->start;
  e->op = op;
  e->a = lhs;
  e->b = wkp_parse_assign (p);
  leave (p);
  if (e->b == NULL)
    return NULL;
  e->end = e->b->end;
  return wkp_expr_done (p, e) ? e : NULL;
}

WkExpr *
wkp_parse_expr (Parser *p)
{
  WkExpr *e = wkp_parse_assign (p);

  while (e != NULL && at (p, WK_P_COMMA))
    {
      WkExpr *n = wkp_expr_new (p, WK_E_BINARY, e->start, e->end);
      n->pos = cur (p)->start;
      n->op = WK_OP_COMMA;
      advance (p);
      n->a = e;
      n->b = wkp_parse_assign (p);
      if (n->b == NULL)
        return NULL;
      n->end = n->b->end;
      e = wkp_expr_done (p, n) ? n : NULL;
    }
  return e;
}

WkExpr *
wkp_parse_init_list (Parser *p)
{
  g_autoptr (GPtrArray) items = g_ptr_array_new ();
  WkExpr *e = wkp_expr_new (p, WK_E_INIT_LIST, cur (p)->start, cur (p)->end);

  advance (p);
  if (!wkp_enter (p))
    return NULL;
  while (!at (p, WK_P_RBRACE))
    {
      WkExpr *item = at (p, WK_P_LBRACE) ? wkp_parse_init_list (p) : wkp_parse_assign (p);
      if (item == NULL)
        {
          leave (p);
          return NULL;
        }
      if (items->len >= 4096)
        {
          wkp_error_at (p, WS_KERNEL_ERROR_LIMIT, item->start, item->end,
                    _("a list of initial values may have at most %d items"), 4096);
          leave (p);
          return NULL;
        }
      g_ptr_array_add (items, item);
      if (!accept (p, WK_P_COMMA))
        break;
    }
  leave (p);
  if (!at (p, WK_P_RBRACE))
    {
      wkp_expected (p, _("“,” or “}” in the list of initial values"));
      return NULL;
    }
  e->end = cur (p)->end;
  advance (p);
  e->n_args = items->len;
  e->args = WK_NEWV (p->arena, WkExpr *, MAX (items->len, 1));
  for (guint i = 0; i < items->len; i++)
    e->args[i] = items->pdata[i];
  return wkp_expr_done (p, e) ? e : NULL;
}
