/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Constant evaluation of checked expressions: array lengths, template
 * arguments, the counts of #pragma unroll, and the values of the launch.
 * The arithmetic is C's as the GPU does it (32-bit wrap for int, float
 * computed in float), the same as the VM's. */
#include "ws-config.h"
#include "ws-kernel-private.h"
#include "ws-kernel-arith.h"

#include <math.h>
#include <string.h>

gint64
wk_const_as_i64 (WkConst c)
{
  if (wk_type_is_float (c.type))
    return (gint64) c.v.f;
  return c.v.i;
}

double
wk_const_as_double (WkConst c)
{
  if (wk_type_is_float (c.type))
    return c.v.f;
  if (wk_type_is_signed (c.type) || c.type->kind == WK_TY_POINTER)
    return (double) c.v.i;
  return (double) c.v.u;
}

/* A value in a register's form (ws-kernel-arith.h) and back. */
static WkSlot
to_slot (WkConst c)
{
  WkSlot s;

  s.u = 0;
  if (c.type->kind == WK_TY_FLOAT)
    s.f = (float) c.v.f;
  else if (c.type->kind == WK_TY_DOUBLE)
    s.d = c.v.f;
  else
    s.i = c.v.i;
  return s;
}

static WkConst
from_slot (WkSlot        s,
           const WkType *type)
{
  WkConst c;

  c.type = type;
  if (type->kind == WK_TY_FLOAT)
    c.v.f = s.f;
  else if (type->kind == WK_TY_DOUBLE)
    c.v.f = s.d;
  else
    c.v.i = s.i;
  return c;
}

WkConst
wk_const_convert (WkConst       c,
                  const WkType *to)
{
  WkSlot s = to_slot (c);
  WkSlot r;

  if (to->kind == WK_TY_POINTER || c.type->kind == WK_TY_POINTER)
    {
      c.type = to;
      return c;
    }
  r = wk_convert_one (wk_type_arith (c.type), wk_type_storage (to), s);
  return from_slot (r, to);
}

static WkConstStatus
eval (const WkExpr  *e,
      GHashTable    *tvals,
      WkConst       *out,
      const WkExpr **failed);

static WkConstStatus
eval_binary (const WkExpr  *e,
             GHashTable    *tvals,
             WkConst       *out,
             const WkExpr **failed)
{
  WkConst a, b;
  WkConstStatus st;
  const WkType *t;
  WkArith ac;
  gboolean trap = FALSE;

  if (e->op == WK_OP_LAND || e->op == WK_OP_LOR)
    {
      gboolean av;
      if ((st = eval (e->a, tvals, &a, failed)) != WK_CONST_OK)
        return st;
      av = wk_type_is_float (a.type) ? a.v.f != 0 : a.v.i != 0;
      if ((e->op == WK_OP_LAND && !av) || (e->op == WK_OP_LOR && av))
        {
          out->type = e->type;
          out->v.i = e->op == WK_OP_LOR;
          return WK_CONST_OK;
        }
      if ((st = eval (e->b, tvals, &b, failed)) != WK_CONST_OK)
        return st;
      out->type = e->type;
      out->v.i = wk_type_is_float (b.type) ? b.v.f != 0 : b.v.i != 0;
      return WK_CONST_OK;
    }
  if ((st = eval (e->a, tvals, &a, failed)) != WK_CONST_OK || (st = eval (e->b, tvals, &b, failed)) != WK_CONST_OK)
    return st;
  if (e->op == WK_OP_COMMA)
    {
      *out = b;
      return WK_CONST_OK;
    }
  if (a.type->kind == WK_TY_POINTER || b.type->kind == WK_TY_POINTER)
    {
      *failed = e;
      return WK_CONST_NOT_CONSTANT;
    }
  /* the operands were converted by the checker: both have the operation's type, but for shifts */
  t = a.type;
  ac = wk_type_arith (t);
  if (e->op == WK_OP_SHL || e->op == WK_OP_SHR)
    {
      WkSlot r = wk_shift_one (e->op == WK_OP_SHL, ac, to_slot (a), wk_const_as_i64 (b) < 0 ? G_MAXINT64 :
                               (b.type->kind == WK_TY_ULONG || b.type->kind == WK_TY_ULLONG) && b.v.u > G_MAXINT64 ?
                               G_MAXINT64 : wk_const_as_i64 (b));
      *out = from_slot (r, t);
      return WK_CONST_OK;
    }
  {
    WkSlot r = wk_binary_one (e->op, ac, to_slot (a), to_slot (b), &trap);
    if (trap)
      {
        *failed = e;
        return WK_CONST_DIVISION_BY_ZERO;
      }
    if (e->op >= WK_OP_LT && e->op <= WK_OP_NE)
      {
        out->type = e->type;
        out->v.i = r.i;
        return WK_CONST_OK;
      }
    *out = from_slot (r, t);
    return WK_CONST_OK;
  }
}

static WkConstStatus
eval (const WkExpr  *e,
      GHashTable    *tvals,
      WkConst       *out,
      const WkExpr **failed)
{
  WkConstStatus st;
  WkConst a;

  if (e == NULL || e->type == NULL)
    {
      *failed = e;
      return WK_CONST_NOT_CONSTANT;
    }
  switch (e->kind)
    {
    case WK_E_INT:
    case WK_E_BOOL:
      out->type = e->type;
      out->v.u = e->v.u;
      *out = wk_const_convert (*out, e->type);
      return WK_CONST_OK;
    case WK_E_FLOAT:
      out->type = e->type;
      out->v.f = e->v.f;
      return WK_CONST_OK;
    case WK_E_NAME:
      if (e->sym != NULL && e->sym->kind == WK_SYM_TEMPLATE && tvals != NULL)
        {
          WkConst *v = g_hash_table_lookup (tvals, e->sym);
          if (v != NULL)
            {
              *out = wk_const_convert (*v, e->type);
              return WK_CONST_OK;
            }
        }
      if (e->sym != NULL && e->sym->has_value && (e->sym->kind == WK_SYM_CONST || e->sym->kind == WK_SYM_VAR ||
                                                  e->sym->kind == WK_SYM_TEMPLATE))
        {
          out->type = e->sym->type;
          out->v.u = e->sym->value.u;
          *out = wk_const_convert (*out, e->type);
          return WK_CONST_OK;
        }
      if (e->sym != NULL && e->sym->kind == WK_SYM_BUILTIN && e->sym->builtin == WK_BV_WARP_SIZE)
        {
          out->type = e->type;
          out->v.i = 32;
          return WK_CONST_OK;
        }
      *failed = e;
      return WK_CONST_NOT_CONSTANT;
    case WK_E_IMPLICIT:
    case WK_E_CAST:
      if ((st = eval (e->a, tvals, &a, failed)) != WK_CONST_OK)
        return st;
      if (!wk_type_is_scalar (e->type))
        {
          *failed = e;
          return WK_CONST_NOT_CONSTANT;
        }
      *out = wk_const_convert (a, e->type);
      return WK_CONST_OK;
    case WK_E_SIZEOF:
      out->type = e->type;
      out->v.u = e->v.u;
      return WK_CONST_OK;
    case WK_E_UNARY:
      if ((st = eval (e->a, tvals, &a, failed)) != WK_CONST_OK)
        return st;
      if (!wk_type_is_arith (a.type))
        break;
      switch (e->op)
        {
        case WK_OP_PLUS:
          *out = a;
          return WK_CONST_OK;
        case WK_OP_NEG:
        case WK_OP_BITNOT:
          *out = from_slot (wk_unary_one (e->op, wk_type_arith (a.type), to_slot (a)), a.type);
          return WK_CONST_OK;
        case WK_OP_LNOT:
          out->type = e->type;
          out->v.i = wk_type_is_float (a.type) ? a.v.f == 0 : a.v.i == 0;
          return WK_CONST_OK;
        default:
          break;
        }
      break;
    case WK_E_BINARY:
      return eval_binary (e, tvals, out, failed);
    case WK_E_COND:
      {
        WkConst c;
        if ((st = eval (e->a, tvals, &c, failed)) != WK_CONST_OK)
          return st;
        if (wk_type_is_float (c.type) ? c.v.f != 0 : c.v.i != 0)
          return eval (e->b, tvals, out, failed);
        return eval (e->c, tvals, out, failed);
      }
    case WK_E_CALL:
      if ((e->builtin == WK_BF_MIN || e->builtin == WK_BF_MAX) && e->n_args == 2 && wk_type_is_integer (e->type))
        {
          WkConst b;
          if ((st = eval (e->args[0], tvals, &a, failed)) != WK_CONST_OK ||
              (st = eval (e->args[1], tvals, &b, failed)) != WK_CONST_OK)
            return st;
          {
            gboolean trap = FALSE;
            WkSlot r = wk_binary_one (WK_OP_LT, wk_type_arith (a.type), to_slot (a), to_slot (b), &trap);
            gboolean a_less = r.i != 0;
            *out = (e->builtin == WK_BF_MIN) == a_less ? a : b;
            return WK_CONST_OK;
          }
        }
      break;
    default:
      break;
    }
  *failed = e;
  return WK_CONST_NOT_CONSTANT;
}

WkConstStatus
wk_const_eval (const WkExpr  *e,
               GHashTable    *template_values,
               WkConst       *out,
               const WkExpr **failed)
{
  const WkExpr *dummy = NULL;

  memset (out, 0, sizeof *out);
  return eval (e, template_values, out, failed ? failed : &dummy);
}
