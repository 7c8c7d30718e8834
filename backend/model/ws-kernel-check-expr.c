/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The checker's expressions: names, members, indices, C's operators with
 * their promotions and usual arithmetic conversions, casts, sizeof. */
#include "ws-config.h"
#include "ws-kernel-check-private.h"
#include "ws-i18n.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Expressions                                                        */
/* ------------------------------------------------------------------ */

static const WkType *
check_name (Checker *c,
            WkExpr  *e)
{
  WkSym *sym = wkc_lookup (c, e->name);

  if (sym == NULL)
    {
      gboolean host = FALSE;

      for (guint i = 0; i < c->file->host_values->len && !host; i++)
        {
          const WkHostValue *v = &g_array_index (c->file->host_values, WkHostValue, i);
          host = v->func == 0 && strcmp (v->name, e->name) == 0;
        }
      if (g_hash_table_lookup (c->file->macros, e->name) != NULL)
        wkc_error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("the macro “%s” is not a value here"), e->name);
      else if (host)
        /* nvcc: "identifier "N" is undefined in device code" */
        wkc_error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end,
                   _("“%s” is a variable of the host code: a kernel cannot read it (pass it as a parameter, or "
                     "declare it __constant__, or const with a constant value)"), e->name);
      else
        wkc_error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("unknown name “%s”"), e->name);
      return NULL;
    }
  if (sym->kind == WK_SYM_FUNC)
    {
      wkc_error (c, WS_KERNEL_ERROR_UNSUPPORTED, e->start, e->end,
             _("the function “%s” is used as a value: only calls are supported"), e->name);
      return NULL;
    }
  if (c->loose_mode && (sym->kind == WK_SYM_MEMORY || sym->kind == WK_SYM_VAR))
    {
      wkc_error (c, WS_KERNEL_ERROR_LAUNCH, e->start, e->end,
             _("“%s” is not known before the kernel runs: a launch value may use scalar parameters, #define "
               "constants and const values"), e->name);
      return NULL;
    }
  if (sym->kind == WK_SYM_BUILTIN && c->loose_mode && sym->builtin != WK_BV_WARP_SIZE)
    {
      wkc_error (c, WS_KERNEL_ERROR_LAUNCH, e->start, e->end, _("“%s” is not known before the kernel runs"), e->name);
      return NULL;
    }
  e->sym = sym;
  e->lvalue = sym->kind == WK_SYM_VAR || sym->kind == WK_SYM_MEMORY;
  if (sym->kind == WK_SYM_MEMORY && c->func != NULL)
    sym->read = TRUE;
  return sym->type;
}

static const WkType *
check_member (Checker *c,
              WkExpr  *e)
{
  const WkType *t = wkc_check_expr (c, e->a);

  if (t == NULL)
    return NULL;
  if (e->is_arrow)
    {
      t = wkc_rvalue (c, &e->a);
      if (t->kind != WK_TY_POINTER)
        {
          g_autofree char *tn = wkc_type_name (t);
          wkc_error (c, WS_KERNEL_ERROR_INVALID, e->pos, e->end, _("“->” needs a pointer to a struct, not %s"), tn);
          return NULL;
        }
      t = t->elem;
    }
  if (t->kind == WK_TY_VECTOR)
    {
      static const char comps[] = "xyzw";
      const char *hit;

      if (strlen (e->name) != 1 || (hit = strchr (comps, e->name[0])) == NULL || (guint) (hit - comps) >= t->n)
        {
          wkc_error (c, WS_KERNEL_ERROR_INVALID, e->pos, e->end, _("%s has no component “%s”"), t->name, e->name);
          return NULL;
        }
      e->member = (guint) (hit - comps);
      e->lvalue = e->is_arrow || e->a->lvalue;
      if (t->quals)
        return wk_type_qualified (c->arena, t->elem, t->quals);
      return t->elem;
    }
  if (t->kind == WK_TY_STRUCT)
    {
      for (guint i = 0; i < t->st->n_fields; i++)
        if (strcmp (t->st->fields[i].name, e->name) == 0)
          {
            e->member = i;
            e->lvalue = e->is_arrow || e->a->lvalue;
            return wk_type_qualified (c->arena, t->st->fields[i].type, t->quals);
          }
      wkc_error (c, WS_KERNEL_ERROR_INVALID, e->pos, e->end, _("the struct “%s” has no field “%s”"), t->st->name, e->name);
      return NULL;
    }
  {
    g_autofree char *tn = wkc_type_name (t);
    wkc_error (c, WS_KERNEL_ERROR_INVALID, e->pos, e->end, _("%s has no fields (“.%s”)"), tn, e->name);
  }
  return NULL;
}

static const WkType *
check_index (Checker *c,
             WkExpr  *e)
{
  const WkType *t = wkc_check_expr (c, e->a);
  const WkType *it = wkc_check_expr (c, e->b);

  if (t == NULL || it == NULL)
    return NULL;
  it = wkc_rvalue (c, &e->b);
  if (!wk_type_is_integer (it))
    {
      g_autofree char *tn = wkc_type_name (it);
      wkc_error (c, WS_KERNEL_ERROR_INVALID, e->b->start, e->b->end, _("an index must be an integer, not %s"), tn);
      return NULL;
    }
  if (t->kind == WK_TY_ARRAY)
    {
      e->lvalue = 1;
      return t->elem;
    }
  if (t->kind == WK_TY_POINTER)
    {
      if (t->elem->kind == WK_TY_VOID)
        {
          wkc_error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("a void pointer cannot be indexed"));
          return NULL;
        }
      e->lvalue = 1;
      return t->elem;
    }
  {
    g_autofree char *tn = wkc_type_name (t);
    g_autofree char *text = wkc_expr_text (c, e->a);
    wkc_error (c, WS_KERNEL_ERROR_INVALID, e->pos, e->end, _("“%s” is %s: it cannot be indexed"), text, tn);
  }
  return NULL;
}

static const WkType *
check_unary (Checker *c,
             WkExpr  *e)
{
  const WkType *t = wkc_check_expr (c, e->a);
  const char *op = wkc_op_text (e->op);

  if (t == NULL)
    return NULL;
  switch (e->op)
    {
    case WK_OP_NEG:
    case WK_OP_PLUS:
      if (!wkc_need_arith (c, &e->a, FALSE, op))
        return NULL;
      t = wk_type_promote (e->a->type);
      if (!wk_type_equal (t, e->a->type, FALSE))
        e->a = wkc_implicit (c, e->a, t);
      return t;
    case WK_OP_BITNOT:
      if (!wkc_need_arith (c, &e->a, TRUE, op))
        return NULL;
      t = wk_type_promote (e->a->type);
      if (!wk_type_equal (t, e->a->type, FALSE))
        e->a = wkc_implicit (c, e->a, t);
      return t;
    case WK_OP_LNOT:
      if (!wkc_need_scalar (c, &e->a, _("the operand of “!”")))
        return NULL;
      return WK_TYPE (WK_TY_BOOL);
    case WK_OP_DEREF:
      t = wkc_rvalue (c, &e->a);
      if (t->kind != WK_TY_POINTER || t->elem->kind == WK_TY_VOID)
        {
          g_autofree char *tn = wkc_type_name (t);
          wkc_error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("“*” needs a pointer, not %s"), tn);
          return NULL;
        }
      e->lvalue = 1;
      return t->elem;
    case WK_OP_ADDR:
      {
        const WkExpr *x = e->a;
        while ((x->kind == WK_E_MEMBER && !x->is_arrow))
          x = x->a;
        if (!e->a->lvalue || (x->kind == WK_E_NAME && x->sym && x->sym->kind != WK_SYM_MEMORY))
          {
            g_autofree char *text = wkc_expr_text (c, e->a);
            if (x->kind == WK_E_NAME && x->sym && x->sym->kind == WK_SYM_VAR)
              wkc_error (c, WS_KERNEL_ERROR_UNSUPPORTED, e->start, e->end,
                     _("taking the address of the variable “%s” is not supported: only of arrays' elements"),
                     text);
            else
              wkc_error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("“%s” has no address"), text);
            return NULL;
          }
        if (t->kind == WK_TY_ARRAY)
          {
            wkc_error (c, WS_KERNEL_ERROR_UNSUPPORTED, e->start, e->end,
                   _("a pointer to a whole array is not supported: take the address of its first element"));
            return NULL;
          }
        return wk_type_pointer (c->arena, t, 0);
      }
    case WK_OP_PREINC:
    case WK_OP_PREDEC:
    case WK_OP_POSTINC:
    case WK_OP_POSTDEC:
      if (!wkc_check_writable (c, e->a, op))
        return NULL;
      if (!wk_type_is_arith (t) && t->kind != WK_TY_POINTER)
        {
          g_autofree char *tn = wkc_type_name (t);
          wkc_error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("the operator “%s” needs a number, not %s"), op, tn);
          return NULL;
        }
      if (t->kind == WK_TY_BOOL)
        {
          wkc_error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("a bool cannot be incremented or decremented"));
          return NULL;
        }
      return wk_type_unqualified (c->arena, t);
    default:
      g_assert_not_reached ();
    }
  return NULL;
}

static const WkType *
check_binary (Checker *c,
              WkExpr  *e)
{
  const WkType *ta = wkc_check_expr (c, e->a);
  const WkType *tb = wkc_check_expr (c, e->b);
  const char *op = wkc_op_text (e->op);

  if (ta == NULL || tb == NULL)
    return NULL;
  if (e->op == WK_OP_COMMA)
    return wkc_rvalue (c, &e->b);
  ta = wkc_rvalue (c, &e->a);
  tb = wkc_rvalue (c, &e->b);
  switch (e->op)
    {
    case WK_OP_MUL:
    case WK_OP_DIV:
      if (!wkc_need_arith (c, &e->a, FALSE, op) || !wkc_need_arith (c, &e->b, FALSE, op))
        return NULL;
      return wkc_common_operands (c, e);
    case WK_OP_MOD:
    case WK_OP_BITAND:
    case WK_OP_BITXOR:
    case WK_OP_BITOR:
      if (!wkc_need_arith (c, &e->a, TRUE, op) || !wkc_need_arith (c, &e->b, TRUE, op))
        return NULL;
      return wkc_common_operands (c, e);
    case WK_OP_SHL:
    case WK_OP_SHR:
      if (!wkc_need_arith (c, &e->a, TRUE, op) || !wkc_need_arith (c, &e->b, TRUE, op))
        return NULL;
      {
        const WkType *pa = wk_type_promote (ta), *pb = wk_type_promote (tb);
        if (!wk_type_equal (pa, ta, FALSE))
          e->a = wkc_implicit (c, e->a, pa);
        if (!wk_type_equal (pb, tb, FALSE))
          e->b = wkc_implicit (c, e->b, pb);
        return pa;
      }
    case WK_OP_ADD:
    case WK_OP_SUB:
      if (ta->kind == WK_TY_POINTER && wk_type_is_integer (tb))
        {
          if (ta->elem->kind == WK_TY_VOID)
            {
              wkc_error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("arithmetic on a void pointer is not allowed"));
              return NULL;
            }
          e->b = wkc_implicit (c, e->b, WK_TYPE (WK_TY_LONG));
          return wk_type_unqualified (c->arena, ta);
        }
      if (e->op == WK_OP_ADD && tb->kind == WK_TY_POINTER && wk_type_is_integer (ta))
        {
          wkc_error (c, WS_KERNEL_ERROR_UNSUPPORTED, e->start, e->end,
                 _("write the pointer first in pointer arithmetic (p + n, not n + p)"));
          return NULL;
        }
      if (e->op == WK_OP_SUB && ta->kind == WK_TY_POINTER && tb->kind == WK_TY_POINTER)
        {
          if (!wk_type_equal (ta->elem, tb->elem, FALSE))
            {
              wkc_error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end,
                     _("pointers to different types cannot be subtracted"));
              return NULL;
            }
          return WK_TYPE (WK_TY_LONG);
        }
      if (!wkc_need_arith (c, &e->a, FALSE, op) || !wkc_need_arith (c, &e->b, FALSE, op))
        return NULL;
      return wkc_common_operands (c, e);
    case WK_OP_LT:
    case WK_OP_GT:
    case WK_OP_LE:
    case WK_OP_GE:
    case WK_OP_EQ:
    case WK_OP_NE:
      if (ta->kind == WK_TY_POINTER && tb->kind == WK_TY_POINTER)
        {
          if (!wk_type_equal (ta->elem, tb->elem, FALSE))
            {
              wkc_error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end,
                     _("pointers to different types cannot be compared"));
              return NULL;
            }
          return WK_TYPE (WK_TY_BOOL);
        }
      if (!wkc_need_arith (c, &e->a, FALSE, op) || !wkc_need_arith (c, &e->b, FALSE, op))
        return NULL;
      if (wk_type_is_integer (ta) && wk_type_is_integer (tb) && wk_type_is_signed (wk_type_promote (ta)) !=
          wk_type_is_signed (wk_type_promote (tb)) && e->op != WK_OP_EQ && e->op != WK_OP_NE)
        {
          /* only where the signed side is surely negative: a constant below zero */
          const WkType *cm = wk_type_common (ta, tb);
          WkExpr *signed_side = wk_type_is_signed (wk_type_promote (ta)) ? e->a : e->b;
          WkConst v;
          if (!wk_type_is_signed (cm) && wk_const_eval (signed_side, NULL, &v, NULL) == WK_CONST_OK && v.v.i < 0)
            wkc_warning (c, e->pos, e->pos + (guint) strlen (op),
                     _("comparison of signed and unsigned integers: the signed one is converted to %s, as C does "
                       "(a negative value becomes large)"), wk_scalar_name (cm->kind));
        }
      wkc_common_operands (c, e);
      return WK_TYPE (WK_TY_BOOL);
    case WK_OP_LAND:
    case WK_OP_LOR:
      if (!wkc_need_scalar (c, &e->a, _("an operand of “&&” or “||”")) ||
          !wkc_need_scalar (c, &e->b, _("an operand of “&&” or “||”")))
        return NULL;
      return WK_TYPE (WK_TY_BOOL);
    default:
      g_assert_not_reached ();
    }
  return NULL;
}

static const WkType *
check_assign (Checker *c,
              WkExpr  *e)
{
  const WkType *ta = wkc_check_expr (c, e->a);
  const WkType *tb = wkc_check_expr (c, e->b);
  const char *op = e->op == WK_OP_NONE ? "=" : wkc_op_text (e->op);

  if (ta == NULL || tb == NULL)
    return NULL;
  if (!wkc_check_writable (c, e->a, op))
    return NULL;
  if (e->op == WK_OP_NONE)
    {
      g_autofree char *text = wkc_expr_text (c, e->a);
      g_autofree char *what = g_strdup_printf (_("the value assigned to “%s”"), text);
      if (!wkc_convert (c, &e->b, wk_type_unqualified (c->arena, ta), what))
        return NULL;
      return wk_type_unqualified (c->arena, ta);
    }
  tb = wkc_rvalue (c, &e->b);
  if (ta->kind == WK_TY_POINTER && (e->op == WK_OP_ADD || e->op == WK_OP_SUB) && wk_type_is_integer (tb))
    {
      e->b = wkc_implicit (c, e->b, WK_TYPE (WK_TY_LONG));
      e->cast_type = wk_type_unqualified (c->arena, ta);
      return e->cast_type;
    }
  {
    gboolean integer = e->op == WK_OP_MOD || e->op == WK_OP_BITAND || e->op == WK_OP_BITOR ||
                       e->op == WK_OP_BITXOR || e->op == WK_OP_SHL || e->op == WK_OP_SHR;
    if (!wk_type_is_arith (ta) || (integer && !wk_type_is_integer (ta)))
      {
        g_autofree char *tn = wkc_type_name (ta);
        wkc_error (c, WS_KERNEL_ERROR_INVALID, e->a->start, e->a->end, _("the operator “%s” needs a number, not %s"), op, tn);
        return NULL;
      }
    if (!wkc_need_arith (c, &e->b, integer, op))
      return NULL;
    if (e->op == WK_OP_SHL || e->op == WK_OP_SHR)
      {
        const WkType *pb = wk_type_promote (tb);
        if (!wk_type_equal (pb, tb, FALSE))
          e->b = wkc_implicit (c, e->b, pb);
        e->cast_type = wk_type_promote (ta);
      }
    else
      {
        e->cast_type = wk_type_common (ta, tb);
        if (!wk_type_equal (e->b->type, e->cast_type, FALSE))
          e->b = wkc_implicit (c, e->b, e->cast_type);
      }
  }
  return wk_type_unqualified (c->arena, ta);
}

static const WkType *
check_cond (Checker *c,
            WkExpr  *e)
{
  const WkType *ta, *tb, *tc;

  if (wkc_check_expr (c, e->a) == NULL)
    return NULL;
  if (!wkc_need_scalar (c, &e->a, _("the condition of “?”")))
    return NULL;
  tb = wkc_check_expr (c, e->b);
  tc = wkc_check_expr (c, e->c);
  if (tb == NULL || tc == NULL)
    return NULL;
  tb = wkc_rvalue (c, &e->b);
  tc = wkc_rvalue (c, &e->c);
  ta = NULL;
  if (wk_type_is_arith (tb) && wk_type_is_arith (tc))
    {
      ta = wk_type_common (tb, tc);
      if (!wk_type_equal (tb, ta, FALSE))
        e->b = wkc_implicit (c, e->b, ta);
      if (!wk_type_equal (tc, ta, FALSE))
        e->c = wkc_implicit (c, e->c, ta);
      return ta;
    }
  if (wk_type_equal (tb, tc, FALSE))
    return wk_type_unqualified (c->arena, tb);
  if (tb->kind == WK_TY_POINTER && tc->kind == WK_TY_POINTER && wk_type_equal (tb->elem, tc->elem, FALSE))
    return (tb->elem->quals & WK_Q_CONST) ? tb : tc;
  {
    g_autofree char *b = wkc_type_name (tb);
    g_autofree char *cn = wkc_type_name (tc);
    wkc_error (c, WS_KERNEL_ERROR_INVALID, e->pos, e->end, _("the two values of “?:” have different types (%s and %s)"),
           b, cn);
  }
  return NULL;
}

static const WkType *
check_cast (Checker *c,
            WkExpr  *e)
{
  const WkType *to = wkc_resolve_type (c, e->cast_type, e->start);
  const WkType *from;

  if (to == NULL || wkc_check_expr (c, e->a) == NULL)
    return NULL;
  e->cast_type = to;
  from = wkc_rvalue (c, &e->a);
  if (to->kind == WK_TY_VOID)
    return to;
  if (wk_type_is_arith (to) && wk_type_is_arith (from) && e->cast_style != WK_CAST_REINTERPRET)
    return to;
  if (to->kind == WK_TY_POINTER && from->kind == WK_TY_POINTER && e->cast_style != WK_CAST_STATIC)
    {
      if (to->elem->kind == WK_TY_POINTER || to->elem->kind == WK_TY_VOID || from->elem->kind == WK_TY_VOID)
        {
          wkc_error (c, WS_KERNEL_ERROR_UNSUPPORTED, e->start, e->end,
                 _("only casts between pointers to numbers, vectors and structs are supported"));
          return NULL;
        }
      return to;
    }
  if (to->kind == WK_TY_POINTER && from->kind == WK_TY_POINTER && wkc_pointer_convertible (from, to))
    return to;
  if (wk_type_equal (to, from, FALSE))
    return to;
  {
    g_autofree char *f = wkc_type_name (from);
    g_autofree char *t = wkc_type_name (to);
    if ((to->kind == WK_TY_POINTER) != (from->kind == WK_TY_POINTER))
      wkc_error (c, WS_KERNEL_ERROR_UNSUPPORTED, e->start, e->end,
             _("casts between pointers and integers are not supported (%s to %s)"), f, t);
    else
      wkc_error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("%s cannot be cast to %s"), f, t);
  }
  return NULL;
}

static const WkType *
check_sizeof (Checker *c,
              WkExpr  *e)
{
  const WkType *t;

  if (e->a != NULL)
    {
      t = wkc_check_expr (c, e->a);
      if (t == NULL)
        return NULL;
    }
  else
    t = wkc_resolve_type (c, e->cast_type, e->start);
  if (t == NULL)
    return NULL;
  if (t->kind == WK_TY_VOID || (t->kind == WK_TY_ARRAY && t->n == 0))
    {
      wkc_error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("this has no size"));
      return NULL;
    }
  e->v.u = t->size;
  return WK_TYPE (WK_TY_ULONG);
}

static const WkType *
check_expr_inner (Checker *c,
                  WkExpr  *e)
{
  switch (e->kind)
    {
    case WK_E_INT:
    case WK_E_FLOAT:
    case WK_E_BOOL:
      return e->type;
    case WK_E_STRING:
      wkc_error (c, WS_KERNEL_ERROR_UNSUPPORTED, e->start, e->end, _("text is only supported as the format of printf"));
      return NULL;
    case WK_E_NAME:
      return check_name (c, e);
    case WK_E_UNARY:
      return check_unary (c, e);
    case WK_E_BINARY:
      return check_binary (c, e);
    case WK_E_ASSIGN:
      if (c->loose_mode)
        break;
      return check_assign (c, e);
    case WK_E_COND:
      return check_cond (c, e);
    case WK_E_CALL:
      return wkc_check_call (c, e);
    case WK_E_INDEX:
      if (c->loose_mode)
        break;
      return check_index (c, e);
    case WK_E_MEMBER:
      return check_member (c, e);
    case WK_E_CAST:
      return check_cast (c, e);
    case WK_E_IMPLICIT:
      return e->type;
    case WK_E_SIZEOF:
      return check_sizeof (c, e);
    case WK_E_INIT_LIST:
      wkc_error (c, WS_KERNEL_ERROR_UNSUPPORTED, e->start, e->end,
             _("a list in braces is only supported as the initial value of a declaration"));
      return NULL;
    }
  wkc_error (c, WS_KERNEL_ERROR_LAUNCH, e->start, e->end, _("a launch value cannot assign or read memory"));
  return NULL;
}

const WkType *
wkc_check_expr (Checker *c,
                WkExpr  *e)
{
  const WkType *t;

  if (e == NULL)
    return NULL;
  if (e->type != NULL && e->kind != WK_E_INT && e->kind != WK_E_FLOAT && e->kind != WK_E_BOOL)
    return e->type;     /* checked already (a shared subtree) */
  t = check_expr_inner (c, e);
  e->type = t;
  return t;
}
