/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The checker: names and scopes, C's types and conversions, and the rules
 * of the subset. It annotates the tree (every expression gets its type,
 * names their symbols, implicit conversions become nodes of their own) and
 * collects every error it finds, each with where and what. This file holds
 * its messages, declarations, statements, functions and the file; -types.c
 * the scopes, types and conversions; -expr.c the expressions; -calls.c the
 * calls. */
#include "ws-config.h"
#include "ws-kernel-check-private.h"
#include "ws-i18n.h"

#include <glib/gi18n-lib.h>
#include <string.h>

static gboolean check_stmt (Checker *c, WkStmt *s);

void
wkc_error (Checker    *c,
           int         code,
           guint       start,
           guint       end,
           const char *format,
           ...)
{
  va_list args;

  va_start (args, format);
  wk_diag_addv (c->diags, WS_KERNEL_SEVERITY_ERROR, code, start, end, format, args);
  va_end (args);
}


void
wkc_warning (Checker    *c,
             guint       start,
             guint       end,
             const char *format,
             ...)
{
  va_list args;

  va_start (args, format);
  wk_diag_addv (c->diags, WS_KERNEL_SEVERITY_WARNING, 0, start, end, format, args);
  va_end (args);
}

char *
wkc_type_name (const WkType *t)
{
  return wk_type_to_string (t);
}

char *
wkc_expr_text (Checker      *c,
               const WkExpr *e)
{
  g_autofree char *s = wk_text_span (c->diags->text, c->diags->len, e->start, e->end);
  return ws_text_for_message (s);
}

/* ------------------------------------------------------------------ */
/* Declarations                                                       */
/* ------------------------------------------------------------------ */

static gboolean
check_init_list (Checker      *c,
                 WkExpr       *list,
                 const WkType *t,
                 const char   *name)
{
  guint64 max;

  list->type = t;
  list->cast_type = t;
  if (t->kind == WK_TY_ARRAY)
    max = t->n;
  else if (t->kind == WK_TY_VECTOR)
    max = t->n;
  else if (t->kind == WK_TY_STRUCT)
    max = t->st->n_fields;
  else
    max = 1;
  if (list->n_args > max)
    {
      wkc_error (c, WS_KERNEL_ERROR_INVALID, list->start, list->end,
             _("too many initial values for “%s”: %u, for %" G_GUINT64_FORMAT " places"), name, list->n_args, max);
      return FALSE;
    }
  for (guint i = 0; i < list->n_args; i++)
    {
      const WkType *et = t->kind == WK_TY_ARRAY || t->kind == WK_TY_VECTOR ? t->elem :
                         t->kind == WK_TY_STRUCT ? t->st->fields[i].type : t;
      WkExpr *item = list->args[i];

      if (item->kind == WK_E_INIT_LIST)
        {
          if (!check_init_list (c, item, wk_type_unqualified (c->arena, et), name))
            return FALSE;
          continue;
        }
      if (wkc_check_expr (c, item) == NULL)
        return FALSE;
      {
        g_autofree char *what = g_strdup_printf (_("an initial value of “%s”"), name);
        if (!wkc_convert (c, &list->args[i], wk_type_unqualified (c->arena, et), what))
          return FALSE;
      }
    }
  return TRUE;
}

static gboolean
check_local_decl (Checker *c,
                  WkDecl  *d)
{
  const WkType *t = d->type;
  WkSym *sym;

  if (t == NULL)
    {
      /* auto: the initial value's type */
      const WkType *it = wkc_check_expr (c, d->init);
      if (it == NULL)
        return FALSE;
      it = wkc_rvalue (c, &d->init);
      t = wk_type_unqualified (c->arena, it);
      d->type = t;
    }
  t = wkc_resolve_type (c, t, d->name_pos);
  if (t == NULL)
    return FALSE;
  d->type = t;
  if (t->kind == WK_TY_VOID)
    {
      wkc_error (c, WS_KERNEL_ERROR_INVALID, d->name_pos, d->end, _("a variable cannot be void (“%s”)"), d->name);
      return FALSE;
    }
  if (t->kind == WK_TY_ARRAY && t->n == 0 && t->n_expr == NULL && d->storage != WK_STORE_EXTERN_SHARED)
    {
      if (d->init != NULL && d->init->kind == WK_E_INIT_LIST && d->storage == WK_STORE_AUTO)
        {
          t = wk_type_array (c->arena, t->elem, MAX (d->init->n_args, 1));
          d->type = t;
        }
      else
        {
          wkc_error (c, WS_KERNEL_ERROR_INVALID, d->name_pos, d->end, _("the array “%s” needs a length"), d->name);
          return FALSE;
        }
    }
  if (d->storage == WK_STORE_EXTERN_SHARED && (t->kind != WK_TY_ARRAY || t->n != 0 || t->n_expr != NULL))
    {
      wkc_error (c, WS_KERNEL_ERROR_INVALID, d->name_pos, d->end,
             _("extern __shared__ declares an array without a length: “%s[]”"), d->name);
      return FALSE;
    }
  if (d->storage == WK_STORE_SHARED || d->storage == WK_STORE_EXTERN_SHARED)
    {
      if (d->init != NULL)
        {
          wkc_error (c, WS_KERNEL_ERROR_INVALID, d->name_pos, d->end,
                 _("__shared__ variables cannot have an initial value: write them after the declaration"));
          return FALSE;
        }
      if (t->kind == WK_TY_POINTER)
        {
          wkc_error (c, WS_KERNEL_ERROR_UNSUPPORTED, d->name_pos, d->end, _("__shared__ pointers are not supported"));
          return FALSE;
        }
      sym = wkc_sym_new (c, WK_SYM_MEMORY, d->name, d->name_pos, t);
    }
  else if (t->kind == WK_TY_ARRAY)
    {
      if (t->elem->kind == WK_TY_POINTER)
        {
          wkc_error (c, WS_KERNEL_ERROR_UNSUPPORTED, d->name_pos, d->end, _("arrays of pointers are not supported"));
          return FALSE;
        }
      sym = wkc_sym_new (c, WK_SYM_MEMORY, d->name, d->name_pos, t);
      if (d->init != NULL)
        {
          if (d->init->kind != WK_E_INIT_LIST)
            {
              wkc_error (c, WS_KERNEL_ERROR_INVALID, d->init->start, d->init->end,
                     _("an array's initial value is a list in braces"));
              return FALSE;
            }
          if (!check_init_list (c, d->init, t, d->name))
            return FALSE;
        }
    }
  else
    {
      sym = wkc_sym_new (c, WK_SYM_VAR, d->name, d->name_pos, t);
      if (d->init != NULL)
        {
          if (d->init->kind == WK_E_INIT_LIST)
            {
              if (!check_init_list (c, d->init, wk_type_unqualified (c->arena, t), d->name))
                return FALSE;
            }
          else
            {
              g_autofree char *what = g_strdup_printf (_("the initial value of “%s”"), d->name);
              if (wkc_check_expr (c, d->init) == NULL ||
                  !wkc_convert (c, &d->init, wk_type_unqualified (c->arena, t), what))
                return FALSE;
              /* a const with a constant value is itself a constant */
              if (t->quals & WK_Q_CONST && wk_type_is_arith (t))
                {
                  WkConst v;
                  if (wk_const_eval (d->init, NULL, &v, NULL) == WK_CONST_OK)
                    {
                      v = wk_const_convert (v, t);
                      sym->has_value = TRUE;
                      sym->value.u = v.v.u;
                    }
                }
            }
        }
      else if (t->quals & WK_Q_CONST)
        {
          wkc_error (c, WS_KERNEL_ERROR_INVALID, d->name_pos, d->end, _("the const variable “%s” needs an initial value"),
                 d->name);
          return FALSE;
        }
    }
  sym->storage = d->storage;
  sym->decl = d;
  d->sym = sym;
  return wkc_declare (c, sym);
}

/* ------------------------------------------------------------------ */
/* Statements                                                         */
/* ------------------------------------------------------------------ */

static gboolean
check_condition (Checker *c,
                 WkExpr **slot,
                 const char *what)
{
  if (wkc_check_expr (c, *slot) == NULL)
    return FALSE;
  if ((*slot)->kind == WK_E_ASSIGN && (*slot)->op == WK_OP_NONE && !(*slot)->paren)
    wkc_warning (c, (*slot)->pos, (*slot)->pos + 1, _("an assignment used as a condition: did you mean “==”?"));
  return wkc_need_scalar (c, slot, what);
}

static void
check_unroll (Checker *c,
              WkStmt  *s)
{
  WkConst v;

  if (s->unroll_expr == NULL)
    return;
  if (wkc_check_expr (c, s->unroll_expr) == NULL)
    return;
  if (!wk_type_is_integer (s->unroll_expr->type) || wk_const_eval (s->unroll_expr, NULL, &v, NULL) != WK_CONST_OK ||
      v.v.i < 1 || v.v.i > 100000)
    {
      /* a template parameter: printed as written */
      const WkExpr *failed = NULL;
      if (wk_const_eval (s->unroll_expr, NULL, &v, &failed) == WK_CONST_NOT_CONSTANT && failed &&
          failed->kind == WK_E_NAME && failed->sym && failed->sym->kind == WK_SYM_TEMPLATE)
        return;
      wkc_error (c, WS_KERNEL_ERROR_INVALID, s->unroll_expr->start, s->unroll_expr->end,
             _("the count of #pragma unroll must be a constant from 1 to 100000"));
      return;
    }
  s->unroll = (int) v.v.i;
  s->unroll_expr = NULL;
}

static gboolean
check_switch (Checker *c,
              WkStmt  *s)
{
  g_autoptr (GArray) seen = g_array_new (FALSE, FALSE, sizeof (gint64));
  gboolean have_default = FALSE;
  WkStmt *body = s->body;
  gboolean ok = TRUE;

  if (wkc_check_expr (c, s->e) == NULL)
    return FALSE;
  if (!wk_type_is_integer (wkc_rvalue (c, &s->e)))
    {
      wkc_error (c, WS_KERNEL_ERROR_INVALID, s->e->start, s->e->end, _("the value of a switch must be an integer"));
      return FALSE;
    }
  {
    const WkType *pt = wk_type_promote (s->e->type);
    if (!wk_type_equal (pt, s->e->type, FALSE))
      s->e = wkc_implicit (c, s->e, pt);
  }
  if (body->n_list == 0 || body->list[0]->kind != WK_S_CASE)
    {
      wkc_error (c, WS_KERNEL_ERROR_UNSUPPORTED, body->start, body->start + 1,
             _("a switch's block must start with a case"));
      return FALSE;
    }
  c->switches++;
  wkc_push_scope (c);
  for (guint i = 0; i < body->n_list; i++)
    {
      WkStmt *st = body->list[i];
      if (st->kind == WK_S_CASE)
        {
          WkConst v;
          if (st->e == NULL)
            {
              if (have_default)
                {
                  wkc_error (c, WS_KERNEL_ERROR_INVALID, st->start, st->end, _("a switch has two defaults"));
                  ok = FALSE;
                }
              have_default = TRUE;
              continue;
            }
          if (wkc_check_expr (c, st->e) == NULL)
            {
              ok = FALSE;
              continue;
            }
          if (!wk_type_is_integer (st->e->type) || wk_const_eval (st->e, NULL, &v, NULL) != WK_CONST_OK)
            {
              wkc_error (c, WS_KERNEL_ERROR_INVALID, st->start, st->end, _("a case needs a constant integer"));
              ok = FALSE;
              continue;
            }
          {
            /* nvcc refuses a label that its switch's type cannot hold
             * ("invalid narrowing conversion") */
            WkConst as_written = v;

            v = wk_const_convert (v, s->e->type);
            if (wk_const_convert (v, as_written.type).v.u != as_written.v.u ||
                (wk_type_is_signed (as_written.type) != wk_type_is_signed (s->e->type) &&
                 (v.v.i < 0) != (as_written.v.i < 0)))
              {
                g_autofree char *type = wk_type_to_string (s->e->type);
                wkc_error (c, WS_KERNEL_ERROR_INVALID, st->e->start, st->e->end,
                           _("this case's value does not fit the switch's type, %s"), type);
                ok = FALSE;
                continue;
              }
          }
          for (guint k = 0; k < seen->len; k++)
            if (g_array_index (seen, gint64, k) == v.v.i)
              {
                wkc_error (c, WS_KERNEL_ERROR_INVALID, st->start, st->end, _("this case is already in the switch"));
                ok = FALSE;
              }
          g_array_append_val (seen, v.v.i);
          /* not written into the label: a literal prints as it was written
           * (0xffffffff1 stays a long, not the int it converts to) */
          st->case_value = v.v.i;
          continue;
        }
      if (st->kind == WK_S_DECL)
        {
          wkc_error (c, WS_KERNEL_ERROR_UNSUPPORTED, st->start, st->end,
                 _("declarations directly in a switch are not supported: put the case's statements in braces"));
          ok = FALSE;
          continue;
        }
      if (!check_stmt (c, st))
        ok = FALSE;
    }
  wkc_pop_scope (c);
  c->switches--;
  return ok;
}

static gboolean
check_block (Checker *c,
             WkStmt  *s)
{
  gboolean ok = TRUE;

  wkc_push_scope (c);
  for (guint i = 0; i < s->n_list; i++)
    {
      if (s->list[i]->kind == WK_S_CASE)
        {
          wkc_error (c, WS_KERNEL_ERROR_UNSUPPORTED, s->list[i]->start, s->list[i]->end,
                 _("a case is only supported directly in its switch's block"));
          ok = FALSE;
          continue;
        }
      if (!check_stmt (c, s->list[i]))
        ok = FALSE;
      if (c->diags->too_many)
        break;
    }
  wkc_pop_scope (c);
  return ok;
}

static gboolean
check_stmt (Checker *c,
            WkStmt  *s)
{
  gboolean ok = TRUE;

  switch (s->kind)
    {
    case WK_S_BLOCK:
      return check_block (c, s);
    case WK_S_DECL:
      for (guint i = 0; i < s->n_decls; i++)
        if (!check_local_decl (c, s->decls[i]))
          ok = FALSE;
      return ok;
    case WK_S_EXPR:
      return wkc_check_expr (c, s->e) != NULL;
    case WK_S_IF:
      ok = check_condition (c, &s->e, _("the condition of “if”"));
      wkc_push_scope (c);
      ok = check_stmt (c, s->body) && ok;
      wkc_pop_scope (c);
      if (s->els != NULL)
        {
          wkc_push_scope (c);
          ok = check_stmt (c, s->els) && ok;
          wkc_pop_scope (c);
        }
      return ok;
    case WK_S_FOR:
      wkc_push_scope (c);
      check_unroll (c, s);
      if (s->init != NULL)
        ok = check_stmt (c, s->init);
      if (s->e != NULL)
        ok = check_condition (c, &s->e, _("the condition of “for”")) && ok;
      if (s->inc != NULL)
        ok = wkc_check_expr (c, s->inc) != NULL && ok;
      c->loops++;
      wkc_push_scope (c);
      ok = check_stmt (c, s->body) && ok;
      wkc_pop_scope (c);
      c->loops--;
      wkc_pop_scope (c);
      return ok;
    case WK_S_WHILE:
    case WK_S_DO:
      check_unroll (c, s);
      ok = check_condition (c, &s->e, s->kind == WK_S_WHILE ? _("the condition of “while”") :
                                                           _("the condition of “do … while”"));
      c->loops++;
      wkc_push_scope (c);
      ok = check_stmt (c, s->body) && ok;
      wkc_pop_scope (c);
      c->loops--;
      return ok;
    case WK_S_BREAK:
      if (c->loops == 0 && c->switches == 0)
        {
          wkc_error (c, WS_KERNEL_ERROR_INVALID, s->start, s->end, _("“break” outside a loop or a switch"));
          return FALSE;
        }
      return TRUE;
    case WK_S_CONTINUE:
      if (c->loops == 0)
        {
          wkc_error (c, WS_KERNEL_ERROR_INVALID, s->start, s->end, _("“continue” outside a loop"));
          return FALSE;
        }
      return TRUE;
    case WK_S_RETURN:
      if (c->func->ret->kind == WK_TY_VOID)
        {
          if (s->e != NULL)
            {
              wkc_error (c, WS_KERNEL_ERROR_INVALID, s->e->start, s->e->end,
                     _("“%s” returns void: “return” takes no value"), c->func->name);
              return FALSE;
            }
          return TRUE;
        }
      if (s->e == NULL)
        {
          wkc_error (c, WS_KERNEL_ERROR_INVALID, s->start, s->end, _("“%s” must return a value"), c->func->name);
          return FALSE;
        }
      if (s->e->kind == WK_E_INIT_LIST)
        return check_init_list (c, s->e, c->func->ret, c->func->name);
      {
        g_autofree char *what = g_strdup_printf (_("the value “%s” returns"), c->func->name);
        return wkc_check_expr (c, s->e) != NULL && wkc_convert (c, &s->e, c->func->ret, what);
      }
    case WK_S_EMPTY:
      return TRUE;
    case WK_S_SWITCH:
      return check_switch (c, s);
    case WK_S_CASE:
      wkc_error (c, WS_KERNEL_ERROR_UNSUPPORTED, s->start, s->end,
             _("a case is only supported directly in its switch's block"));
      return FALSE;
    }
  return FALSE;
}

/* ------------------------------------------------------------------ */
/* Functions and the file                                             */
/* ------------------------------------------------------------------ */

static gboolean
check_param (Checker *c,
             WkFunc  *f,
             WkDecl  *d,
             guint    index)
{
  const WkType *t = wkc_resolve_type (c, d->type, d->name_pos);
  WkSym *sym;

  if (t == NULL)
    return FALSE;
  d->type = t;
  if (d->name == NULL)
    {
      wkc_error (c, WS_KERNEL_ERROR_INVALID, d->start, d->end, _("a parameter of a function that is defined needs a name"));
      return FALSE;
    }
  if (t->kind == WK_TY_VOID)
    {
      wkc_error (c, WS_KERNEL_ERROR_INVALID, d->start, d->end, _("a parameter cannot be void (“%s”)"), d->name);
      return FALSE;
    }
  if (t->kind == WK_TY_POINTER)
    {
      const WkType *pt = t->elem;
      if (pt->kind == WK_TY_POINTER || pt->kind == WK_TY_VOID)
        {
          g_autofree char *tn = wkc_type_name (t);
          wkc_error (c, WS_KERNEL_ERROR_UNSUPPORTED, d->start, d->end,
                 _("the parameter “%s” is %s: pointers to numbers, vectors or structs are supported"), d->name, tn);
          return FALSE;
        }
    }
  else if (f->is_kernel && !wk_type_is_arith (t))
    {
      g_autofree char *tn = wkc_type_name (t);
      wkc_error (c, WS_KERNEL_ERROR_UNSUPPORTED, d->start, d->end,
             _("the kernel parameter “%s” is %s: kernels take pointers and numbers"), d->name, tn);
      return FALSE;
    }
  sym = wkc_sym_new (c, WK_SYM_VAR, d->name, d->name_pos, t);
  sym->storage = WK_STORE_PARAM;
  sym->decl = d;
  sym->param = (int) index;
  sym->is_const_pointer = t->kind == WK_TY_POINTER && (t->elem->quals & WK_Q_CONST);
  d->sym = sym;
  return wkc_declare (c, sym);
}

static void
check_function (Checker *c,
                WkFunc  *f)
{
  const WkType *ret = wkc_resolve_type (c, f->ret, f->name_pos);

  c->func = f;
  if (ret == NULL)
    return;
  f->ret = ret;
  if (ret->kind == WK_TY_POINTER)
    wkc_error (c, WS_KERNEL_ERROR_UNSUPPORTED, f->start, f->name_pos, _("functions that return pointers are not supported"));
  wkc_push_scope (c);
  for (guint i = 0; i < f->n_tparams; i++)
    {
      WkSym *sym = wkc_sym_new (c, WK_SYM_TEMPLATE, f->tparams[i].name, f->tparams[i].pos, f->tparams[i].type);
      f->tparams[i].sym = sym;
      wkc_declare (c, sym);
    }
  for (guint i = 0; i < f->n_params; i++)
    check_param (c, f, f->params[i], i);
  for (guint i = 0; i < 2; i++)
    if (f->launch_bounds[i] != NULL)
      {
        WkConst v;
        if (wkc_check_expr (c, f->launch_bounds[i]) == NULL || !wk_type_is_integer (f->launch_bounds[i]->type) ||
            (wk_const_eval (f->launch_bounds[i], NULL, &v, NULL) != WK_CONST_OK))
          wkc_error (c, WS_KERNEL_ERROR_INVALID, f->launch_bounds[i]->start, f->launch_bounds[i]->end,
                 _("__launch_bounds__ takes constant integers"));
      }
  /* the body is the parameters' scope */
  c->loops = c->switches = 0;
  for (guint i = 0; i < f->body->n_list; i++)
    {
      if (f->body->list[i]->kind == WK_S_CASE)
        {
          wkc_error (c, WS_KERNEL_ERROR_UNSUPPORTED, f->body->list[i]->start, f->body->list[i]->end,
                 _("a case is only supported directly in its switch's block"));
          continue;
        }
      check_stmt (c, f->body->list[i]);
      if (c->diags->too_many)
        break;
    }
  wkc_pop_scope (c);
  c->func = NULL;
}

static void
check_global (Checker *c,
              WkDecl  *d)
{
  const WkType *t = wkc_resolve_type (c, d->type, d->name_pos);
  WkSym *sym = d->sym;

  if (t == NULL)
    return;
  d->type = t;
  sym->type = t;
  if (t->kind == WK_TY_POINTER)
    {
      wkc_error (c, WS_KERNEL_ERROR_UNSUPPORTED, d->name_pos, d->end, _("pointers outside functions are not supported (“%s”)"),
             d->name);
      return;
    }
  if (d->storage == WK_STORE_CONST_VALUE)
    {
      WkConst v;
      const WkExpr *failed = NULL;
      g_autofree char *what = g_strdup_printf (_("the value of “%s”"), d->name);

      if (!wk_type_is_arith (t) || d->init == NULL || d->init->kind == WK_E_INIT_LIST)
        {
          wkc_error (c, WS_KERNEL_ERROR_UNSUPPORTED, d->name_pos, d->end,
                 _("a constant outside functions is a number with a value (const int N = 1024;)"));
          return;
        }
      if (wkc_check_expr (c, d->init) == NULL || !wkc_convert (c, &d->init, wk_type_unqualified (c->arena, t), what))
        return;
      if (wk_const_eval (d->init, NULL, &v, &failed) != WK_CONST_OK)
        {
          wkc_error (c, WS_KERNEL_ERROR_INVALID, d->init->start, d->init->end, _("the value of “%s” is not a constant"),
                 d->name);
          return;
        }
      v = wk_const_convert (v, t);
      sym->has_value = TRUE;
      sym->value.u = v.v.u;
      return;
    }
  if (d->storage == WK_STORE_EXTERN_SHARED)
    {
      if (t->kind != WK_TY_ARRAY || t->n != 0)
        wkc_error (c, WS_KERNEL_ERROR_INVALID, d->name_pos, d->end,
               _("extern __shared__ declares an array without a length: “%s[]”"), d->name);
      return;
    }
  if (t->kind == WK_TY_ARRAY && t->n == 0 && t->n_expr == NULL && d->init != NULL &&
      d->init->kind == WK_E_INIT_LIST)
    {
      /* __constant__ float c[] = { … }: as long as its list */
      t = wk_type_array (c->arena, t->elem, MAX (d->init->n_args, 1));
      d->type = t;
      sym->type = t;
    }
  if (t->kind == WK_TY_ARRAY && t->n == 0)
    {
      wkc_error (c, WS_KERNEL_ERROR_INVALID, d->name_pos, d->end, _("the array “%s” needs a length"), d->name);
      return;
    }
  if (d->init == NULL)
    return;
  if (d->storage == WK_STORE_SHARED)
    {
      wkc_error (c, WS_KERNEL_ERROR_INVALID, d->init->start, d->init->end,
             _("__shared__ variables cannot have an initial value: write them in the kernel"));
      return;
    }
  /* __constant__ and __device__ values: constants, which fill the array */
  if (d->init->kind == WK_E_INIT_LIST)
    {
      if (!check_init_list (c, d->init, wk_type_unqualified (c->arena, t), d->name))
        return;
    }
  else
    {
      g_autofree char *what = g_strdup_printf (_("the initial value of “%s”"), d->name);
      if (t->kind == WK_TY_ARRAY || !wk_type_is_arith (t))
        {
          wkc_error (c, WS_KERNEL_ERROR_INVALID, d->init->start, d->init->end,
                 _("the initial value of the array “%s” is a list in braces"), d->name);
          return;
        }
      if (wkc_check_expr (c, d->init) == NULL || !wkc_convert (c, &d->init, wk_type_unqualified (c->arena, t), what))
        return;
    }
  if (!wk_init_is_constant (d->init))
    wkc_error (c, WS_KERNEL_ERROR_INVALID, d->init->start, d->init->end,
           _("the initial values of “%s” must be constants"), d->name);
}

gboolean
wk_init_is_constant (const WkExpr *e)
{
  WkConst v;

  if (e->kind == WK_E_INIT_LIST)
    {
      for (guint i = 0; i < e->n_args; i++)
        if (!wk_init_is_constant (e->args[i]))
          return FALSE;
      return TRUE;
    }
  return wk_const_eval (e, NULL, &v, NULL) == WK_CONST_OK;
}

/* Device functions calling one another: no recursion, since calls are
 * inlined. */
static gboolean
find_cycle (Checker   *c,
            WkFunc    *f,
            GPtrArray *path)
{
  GPtrArray *callees = g_hash_table_lookup (c->callees, f);

  for (guint i = 0; i < path->len; i++)
    if (path->pdata[i] == f)
      return TRUE;
  if (callees == NULL)
    return FALSE;
  g_ptr_array_add (path, f);
  for (guint i = 0; i < callees->len; i++)
    if (find_cycle (c, callees->pdata[i], path))
      return TRUE;
  g_ptr_array_remove_index (path, path->len - 1);
  return FALSE;
}

static void
check_recursion (Checker *c)
{
  for (guint i = 0; i < c->file->funcs->len; i++)
    {
      WkFunc *f = g_ptr_array_index (c->file->funcs, i);
      g_autoptr (GPtrArray) path = g_ptr_array_new ();

      if (find_cycle (c, f, path) && path->len > 0 && path->pdata[0] == f)
        wkc_error (c, WS_KERNEL_ERROR_UNSUPPORTED, f->name_pos, f->name_pos + (guint) strlen (f->name),
               _("recursion is not supported: “%s” calls itself"), f->name);
    }
}

static Checker *
checker_new (WsKernelFile *file,
             WkArena      *arena,
             WkDiags      *diags)
{
  Checker *c = g_new0 (Checker, 1);

  c->file = file;
  c->arena = arena;
  c->diags = diags;
  c->callees = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_ptr_array_unref);
  wkc_make_builtins (c);
  return c;
}

static void
checker_free (Checker *c)
{
  while (c->scope != NULL)
    wkc_pop_scope (c);
  g_hash_table_unref (c->callees);
  g_free (c);
}

gboolean
wk_check (WsKernelFile *file,
          WkDiags      *diags)
{
  Checker *c = checker_new (file, &file->arena, diags);
  guint errors = diags->n_errors;

  for (guint i = 0; i < file->tops->len; i++)
    {
      WkTop *top = g_ptr_array_index (file->tops, i);

      if (top->kind == WK_TOP_STRUCT)
        wkc_resolve_struct (c, top->st, top->st->pos);
      else if (top->kind == WK_TOP_DECL)
        check_global (c, top->decl);
      else if (wk_func_awaits_types (top->func))
        {
          /* a template of types, its T read as int for now: what it says
           * waits for the type the launch gives, with which the file is
           * read again (ws_kernel_instance_new) */
          guint len = diags->diags->len, n_errors = diags->n_errors;
          gboolean too_many = diags->too_many;

          check_function (c, top->func);
          for (guint k = len; k < diags->diags->len; k++)
            g_free (g_array_index (diags->diags, WkDiag, k).message);
          g_array_set_size (diags->diags, len);
          diags->n_errors = n_errors;
          diags->too_many = too_many;
        }
      else
        check_function (c, top->func);
      if (diags->too_many)
        break;
    }
  check_recursion (c);
  if (file->kernels->len == 0 && diags->n_errors == errors)
    wk_diag_add (diags, WS_KERNEL_SEVERITY_ERROR, WS_KERNEL_ERROR_INVALID, 0, 0,
                 _("the file has no kernel: write a __global__ void function"));
  checker_free (c);
  return diags->n_errors == errors;
}

gboolean
wk_check_loose_expr (WsKernelFile *file,
                     WkExpr       *expr,
                     GHashTable   *names,
                     WkArena      *arena,
                     WkDiags      *diags)
{
  Checker *c = checker_new (file, arena, diags);
  guint errors = diags->n_errors;
  const WkType *t;

  c->loose = names;
  c->loose_mode = TRUE;
  t = wkc_check_expr (c, expr);
  checker_free (c);
  return t != NULL && diags->n_errors == errors;
}
