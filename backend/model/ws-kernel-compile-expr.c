/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The compiler's expressions: where an lvalue is (registers or an
 * array's address), C's operators, ?: and && || as masks where a side may
 * trap or touch memory, and calls of built-ins and device functions. */
#include "ws-config.h"
#include "ws-kernel-compile-private.h"
#include "ws-i18n.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Lvalues                                                            */
/* ------------------------------------------------------------------ */

static const WkExpr *
strip (const WkExpr *e)
{
  while (e->kind == WK_E_IMPLICIT && e->a->type && e->type && e->a->type->kind == e->type->kind &&
         e->type->kind != WK_TY_POINTER && wk_type_storage (e->a->type) == wk_type_storage (e->type))
    e = e->a;
  return e;
}

/* base + index * scale: one instruction (or none, of constants). */
static gboolean
index_addr (Comp         *c,
            guint32       base,
            const WkExpr *index,
            guint64       scale,
            guint32      *out)
{
  Val iv;
  guint32 r;

  if (!wkk_compile_expr (c, index, &iv))
    return FALSE;
  r = wkk_convert_reg (c, iv.r[0], iv.type, WK_TYPE (WK_TY_LONG), index->start);
  if (wkk_is_const (r) && wkk_is_const (base))
    {
      *out = wkk_const_int (c, (gint64) ((guint64) wkk_const_value (c, base).i + (guint64) wkk_const_value (c, r).i * scale));
      return TRUE;
    }
  if (wkk_is_const (r))
    {
      *out = wkk_emit_bin (c, WK_OP_ADD, WK_AC_I64, base, wkk_const_int (c, (gint64) ((guint64) wkk_const_value (c, r).i * scale)),
                       index->start);
      return TRUE;
    }
  *out = wkk_new_temp (c, 1);
  wkk_emit (c, WK_I_ADDR, WK_AC_I64, 0, *out, base, r, WK_NONE, 0, (gint64) scale, index->start);
  return TRUE;
}

static gboolean
lvalue_name (Comp         *c,
             const WkExpr *e,
             LVal         *out)
{
  WkSym *sym = e->sym;
  VarInfo *v;

  memset (out, 0, sizeof *out);
  out->type = e->type;
  out->expr = e;
  if (sym->kind == WK_SYM_VAR)
    {
      v = wkk_var_info (c, sym);
      if (v == NULL)
        return wkk_fail (c, e->start, WS_KERNEL_ERROR_INVALID, _("“%s” is used before it is declared"), sym->name);
      out->kind = LV_REG;
      out->regs = v->val;
      out->regs.array = v->array;
      return TRUE;
    }
  if (sym->kind == WK_SYM_MEMORY)
    {
      out->kind = LV_MEM;
      out->addr = wkk_const_int (c, 0);
      out->is_volatile = (sym->type->quals & WK_Q_VOLATILE) != 0;
      if (sym->storage == WK_STORE_AUTO)
        {
          v = wkk_var_info (c, sym);
          if (v == NULL)
            return wkk_fail (c, e->start, WS_KERNEL_ERROR_INVALID, _("“%s” is used before it is declared"), sym->name);
          out->array = v->mem_array;
          return TRUE;
        }
      return wkk_global_array (c, sym, &out->array, e->start);
    }
  return wkk_fail (c, e->start, WS_KERNEL_ERROR_INVALID, _("“%s” cannot be written"), sym->name);
}

static gboolean
compile_lvalue (Comp         *c,
                const WkExpr *e,
                LVal         *out)
{
  e = strip (e);
  memset (out, 0, sizeof *out);
  switch (e->kind)
    {
    case WK_E_NAME:
      return lvalue_name (c, e, out);
    case WK_E_INDEX:
      {
        const WkType *bt = e->a->type;
        guint32 off;

        if (bt->kind == WK_TY_ARRAY)
          {
            LVal base;
            if (!compile_lvalue (c, e->a, &base))
              return FALSE;
            if (base.kind != LV_MEM)
              return wkk_fail (c, e->start, WS_KERNEL_ERROR_UNSUPPORTED, _("this array is not in memory"));
            if (wkk_array_at (c, base.array)->space == WS_SPACE_LOCAL && !wkk_is_static (c, e->b))
              wkk_array_at (c, base.array)->dynamic_index = TRUE;
            if (!index_addr (c, base.addr, e->b, bt->elem->size, &off))
              return FALSE;
            *out = base;
            out->addr = off;
            out->type = e->type;
            out->expr = e;
            return TRUE;
          }
        else
          {
            Val p;
            if (!wkk_compile_expr (c, e->a, &p))
              return FALSE;
            if (p.array < 0)
              return wkk_fail (c, e->start, WS_KERNEL_ERROR_UNSUPPORTED,
                           _("the pointer “%s” does not point into an array yet"), e->a->name ? e->a->name : "?");
            if (wkk_array_at (c, (guint) p.array)->space == WS_SPACE_LOCAL)
              wkk_array_at (c, (guint) p.array)->dynamic_index = TRUE;
            if (!index_addr (c, p.r[0], e->b, bt->elem->size, &off))
              return FALSE;
            out->kind = LV_MEM;
            out->array = (guint) p.array;
            out->addr = off;
            out->type = e->type;
            out->expr = e;
            out->is_volatile = (bt->elem->quals & WK_Q_VOLATILE) != 0;
            return TRUE;
          }
      }
    case WK_E_UNARY:
      if (e->op == WK_OP_DEREF)
        {
          Val p;
          if (!wkk_compile_expr (c, e->a, &p))
            return FALSE;
          if (p.array < 0)
            return wkk_fail (c, e->start, WS_KERNEL_ERROR_UNSUPPORTED, _("this pointer does not point into an array yet"));
          if (wkk_array_at (c, (guint) p.array)->space == WS_SPACE_LOCAL)
            wkk_array_at (c, (guint) p.array)->dynamic_index = TRUE;
          out->kind = LV_MEM;
          out->array = (guint) p.array;
          out->addr = p.r[0];
          out->type = e->type;
          out->expr = e;
          out->is_volatile = (e->a->type->elem->quals & WK_Q_VOLATILE) != 0;
          return TRUE;
        }
      break;
    case WK_E_MEMBER:
      {
        const WkType *bt;
        guint offset = 0, leaf0 = 0, n;

        if (e->is_arrow)
          {
            Val p;
            if (!wkk_compile_expr (c, e->a, &p))
              return FALSE;
            if (p.array < 0)
              return wkk_fail (c, e->start, WS_KERNEL_ERROR_UNSUPPORTED, _("this pointer does not point into an array yet"));
            out->kind = LV_MEM;
            out->array = (guint) p.array;
            out->addr = p.r[0];
            bt = e->a->type->elem;
            out->is_volatile = (bt->quals & WK_Q_VOLATILE) != 0;
          }
        else
          {
            if (!compile_lvalue (c, e->a, out))
              return FALSE;
            bt = e->a->type;
          }
        /* the member's place: byte offset and first scalar */
        if (bt->kind == WK_TY_VECTOR)
          {
            offset = e->member * bt->elem->size;
            leaf0 = e->member;
          }
        else
          {
            offset = bt->st->fields[e->member].offset;
            for (guint i = 0; i < e->member; i++)
              leaf0 += wk_type_n_leaves (bt->st->fields[i].type);
          }
        n = wk_type_n_leaves (e->type);
        if (out->kind == LV_MEM)
          out->offset += offset;
        else
          {
            Val sub;
            sub.n = n;
            sub.type = e->type;
            sub.array = -1;
            for (guint i = 0; i < n; i++)
              sub.r[i] = out->regs.r[leaf0 + i];
            out->regs = sub;
          }
        out->type = e->type;
        out->expr = e;
        return TRUE;
      }
    default:
      break;
    }
  return wkk_fail (c, e->start, WS_KERNEL_ERROR_UNSUPPORTED, _("this cannot be assigned to"));
}

/* ------------------------------------------------------------------ */
/* Expressions                                                        */
/* ------------------------------------------------------------------ */

/* Whether evaluating e can do nothing but compute: no memory, no side
 * effect, no trap. Both sides of such a ?: are computed, then chosen. */
static gboolean
is_pure (const WkExpr *e)
{
  if (e == NULL)
    return TRUE;
  switch (e->kind)
    {
    case WK_E_INT: case WK_E_FLOAT: case WK_E_BOOL: case WK_E_SIZEOF:
      return TRUE;
    case WK_E_NAME:
      return e->sym != NULL && e->sym->kind != WK_SYM_MEMORY;
    case WK_E_IMPLICIT:
      return e->type->kind != WK_TY_POINTER && is_pure (e->a);
    case WK_E_CAST:
      return is_pure (e->a);
    case WK_E_UNARY:
      return e->op <= WK_OP_LNOT && is_pure (e->a);
    case WK_E_BINARY:
      if ((e->op == WK_OP_DIV || e->op == WK_OP_MOD) && wk_type_is_integer (e->type))
        return FALSE;
      return e->op != WK_OP_COMMA && is_pure (e->a) && is_pure (e->b);
    case WK_E_COND:
      return is_pure (e->a) && is_pure (e->b) && is_pure (e->c);
    case WK_E_MEMBER:
      return !e->is_arrow && is_pure (e->a);
    case WK_E_CALL:
      if (e->sym != NULL)
        return FALSE;
      switch (e->builtin)
        {
        case WK_BF_MIN: case WK_BF_MAX: case WK_BF_ABS: case WK_BF_MATH1: case WK_BF_MATH2: case WK_BF_FMA:
        case WK_BF_MAKE_VECTOR: case WK_BF_FLOAT2INT: case WK_BF_AS_BITS: case WK_BF_POPC: case WK_BF_POPCLL:
        case WK_BF_CLZ: case WK_BF_CLZLL: case WK_BF_FFS: case WK_BF_FFSLL: case WK_BF_BREV: case WK_BF_MUL24:
        case WK_BF_UMUL24: case WK_BF_MULHI: case WK_BF_UMULHI:
          for (guint i = 0; i < e->n_args; i++)
            if (!is_pure (e->args[i]))
              return FALSE;
          return TRUE;
        default:
          return FALSE;
        }
    default:
      return FALSE;
    }
}

static gboolean
compile_pointer_offset (Comp         *c,
                        const WkExpr *e,
                        const Val    *p,
                        const Val    *n,
                        gboolean      subtract,
                        Val          *out)
{
  guint64 size = e->type->elem->size;
  guint32 off = wkk_emit_bin (c, WK_OP_MUL, WK_AC_I64, wkk_convert_reg (c, n->r[0], n->type, WK_TYPE (WK_TY_LONG), e->start),
                          wkk_const_int (c, (gint64) size), e->start);

  wkk_val_scalar (out, wkk_emit_bin (c, subtract ? WK_OP_SUB : WK_OP_ADD, WK_AC_I64, p->r[0], off, e->pos), e->type);
  out->array = p->array;
  return TRUE;
}

static gboolean
compile_logical (Comp         *c,
                 const WkExpr *e,
                 Val          *out)
{
  Val a, b;
  guint32 ra, rb, s, res;
  guint jz, mark;

  if (!wkk_compile_expr (c, e->a, &a))
    return FALSE;
  ra = wkk_truth (c, a.r[0], a.type, e->pos);
  if (is_pure (e->b))
    {
      if (!wkk_compile_expr (c, e->b, &b))
        return FALSE;
      rb = wkk_truth (c, b.r[0], b.type, e->pos);
      wkk_val_scalar (out, wkk_emit_bin (c, e->op == WK_OP_LAND ? WK_OP_BITAND : WK_OP_BITOR, WK_AC_I32, ra, rb, e->pos),
                  e->type);
      return TRUE;
    }
  /* the right side only where the left one does not decide */
  res = wkk_new_temp (c, 1);
  wkk_emit (c, WK_I_MOV, 0, 0, res, ra, WK_NONE, WK_NONE, 0, 0, e->pos);
  s = wkk_new_mask (c);
  wkk_emit (c, WK_I_MSAVE, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, s, 0, e->pos);
  if (e->op == WK_OP_LAND)
    wkk_emit (c, WK_I_MAND, 0, 0, WK_NONE, res, WK_NONE, WK_NONE, 0, 0, e->pos);
  else
    {
      guint32 not_a = wkk_new_temp (c, 1);
      wkk_emit (c, WK_I_UN, WK_AC_I32, WK_OP_LNOT, not_a, res, WK_NONE, WK_NONE, 0, 0, e->pos);
      wkk_emit (c, WK_I_MAND, 0, 0, WK_NONE, not_a, WK_NONE, WK_NONE, 0, 0, e->pos);
    }
  jz = wkk_emit (c, WK_I_JZ, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, 0, 0, e->pos);
  mark = wkk_avail_mark (c);
  if (!wkk_compile_expr (c, e->b, &b))
    return FALSE;
  wkk_avail_back (c, mark);
  rb = wkk_truth (c, b.r[0], b.type, e->pos);
  wkk_emit (c, WK_I_MOVM, 0, 0, res, rb, WK_NONE, WK_NONE, 0, 0, e->pos);
  wkk_patch (c, jz, wkk_here (c));
  wkk_emit (c, WK_I_MLOAD, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, s, 0, e->pos);
  wkk_val_scalar (out, res, e->type);
  return TRUE;
}

static gboolean
compile_cond (Comp         *c,
              const WkExpr *e,
              Val          *out)
{
  Val cv, a, b;
  guint32 r;

  if (!wkk_compile_expr (c, e->a, &cv))
    return FALSE;
  r = wkk_truth (c, cv.r[0], cv.type, e->pos);
  if (is_pure (e->b) && is_pure (e->c))
    {
      if (!wkk_compile_expr (c, e->b, &a) || !wkk_compile_expr (c, e->c, &b))
        return FALSE;
      out->n = a.n;
      out->type = e->type;
      out->array = a.array >= 0 ? a.array : b.array;
      if (a.array >= 0 && b.array >= 0 && a.array != b.array)
        return wkk_fail (c, e->pos, WS_KERNEL_ERROR_UNSUPPORTED,
                     _("the two pointers of “?:” point into different arrays: a pointer must stay in one array"));
      for (guint i = 0; i < a.n; i++)
        {
          guint32 d = wkk_new_temp (c, 1);
          wkk_emit (c, WK_I_SELECT, 0, 0, d, a.r[i], b.r[i], r, 0, 0, e->pos);
          out->r[i] = d;
        }
      return TRUE;
    }
  {
    guint32 s = wkk_new_mask (c), el = wkk_new_mask (c);
    guint n = wk_type_n_leaves (e->type);
    guint32 res = wkk_new_temp (c, MAX (n, 1));
    guint jz1, jz2, mark;

    wkk_emit (c, WK_I_MSAVE, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, s, 0, e->pos);
    wkk_emit (c, WK_I_MSPLIT, 0, 0, WK_NONE, r, WK_NONE, WK_NONE, el, 0, e->pos);
    jz1 = wkk_emit (c, WK_I_JZ, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, 0, 0, e->pos);
    mark = wkk_avail_mark (c);
    if (!wkk_compile_expr (c, e->b, &a))
      return FALSE;
    wkk_avail_back (c, mark);
    for (guint i = 0; i < n && i < a.n; i++)
      wkk_emit (c, WK_I_MOVM, 0, 0, res + i, a.r[i], WK_NONE, WK_NONE, 0, 0, e->pos);
    wkk_patch (c, jz1, wkk_here (c));
    wkk_emit (c, WK_I_MLOAD, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, el, 0, e->pos);
    jz2 = wkk_emit (c, WK_I_JZ, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, 0, 0, e->pos);
    if (!wkk_compile_expr (c, e->c, &b))
      return FALSE;
    wkk_avail_back (c, mark);
    for (guint i = 0; i < n && i < b.n; i++)
      wkk_emit (c, WK_I_MOVM, 0, 0, res + i, b.r[i], WK_NONE, WK_NONE, 0, 0, e->pos);
    wkk_patch (c, jz2, wkk_here (c));
    wkk_emit (c, WK_I_MLOAD, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, s, 0, e->pos);
    if (a.array >= 0 && b.array >= 0 && a.array != b.array)
      return wkk_fail (c, e->pos, WS_KERNEL_ERROR_UNSUPPORTED,
                   _("the two pointers of “?:” point into different arrays: a pointer must stay in one array"));
    out->n = n;
    out->type = e->type;
    out->array = a.array >= 0 ? a.array : b.array;
    for (guint i = 0; i < n; i++)
      out->r[i] = res + i;
    return TRUE;
  }
}

/* a op b in the operation's type t (compound assignments, ++, --). */
static guint32
arith (Comp         *c,
       WkOp          op,
       const WkType *t,
       guint32       a,
       guint32       b,
       guint         src)
{
  if (op == WK_OP_SHL || op == WK_OP_SHR)
    {
      guint32 d = wkk_new_temp (c, 1);
      wkk_emit (c, WK_I_SHIFT, wk_type_arith (t), op, d, a, b, WK_NONE, 0, 0, src);
      return d;
    }
  return wkk_emit_bin (c, op, wk_type_arith (t), a, b, src);
}

static gboolean
compile_incdec (Comp         *c,
                const WkExpr *e,
                Val          *out)
{
  LVal lv;
  Val old, nv;
  const WkType *t = e->type;
  gboolean inc = e->op == WK_OP_PREINC || e->op == WK_OP_POSTINC;
  /* i++ whose value nobody reads is ++i: no copy of the old value */
  gboolean post = (e->op == WK_OP_POSTINC || e->op == WK_OP_POSTDEC) && c->unused != e;
  guint32 one, r, keep;

  if (!compile_lvalue (c, e->a, &lv) || !wkk_load (c, &lv, &old, FALSE))
    return FALSE;
  keep = old.r[0];
  if (post && lv.kind == LV_REG)
    {
      /* the old value, before the variable changes */
      keep = wkk_new_temp (c, 1);
      wkk_emit (c, WK_I_MOV, 0, 0, keep, old.r[0], WK_NONE, WK_NONE, 0, 0, e->pos);
    }
  if (t->kind == WK_TY_POINTER)
    {
      one = wkk_const_int (c, (gint64) t->elem->size);
      r = wkk_emit_bin (c, inc ? WK_OP_ADD : WK_OP_SUB, WK_AC_I64, old.r[0], one, e->pos);
    }
  else
    {
      const WkType *pt = wk_type_common (t, WK_TYPE (WK_TY_INT));
      WkSlot v;
      guint32 a = wkk_convert_reg (c, old.r[0], t, pt, e->pos);
      v.u = 0;
      if (pt->kind == WK_TY_FLOAT)
        v.f = 1.0f;
      else if (pt->kind == WK_TY_DOUBLE)
        v.d = 1.0;
      else
        v.i = 1;
      one = wkk_const_slot (c, v);
      r = wkk_convert_reg (c, wkk_emit_bin (c, inc ? WK_OP_ADD : WK_OP_SUB, wk_type_arith (pt), a, one, e->pos), pt, t,
                       e->pos);
    }
  wkk_val_scalar (&nv, r, t);
  nv.array = lv.kind == LV_REG ? lv.regs.array : -1;
  if (!wkk_store (c, &lv, &nv))
    return FALSE;
  wkk_val_scalar (out, post ? keep : r, t);
  out->array = nv.array;
  return TRUE;
}

static gboolean
compile_assign (Comp         *c,
                const WkExpr *e,
                Val          *out)
{
  LVal lv;
  Val rv;

  /* C++17: the right side first */
  if (!wkk_compile_expr (c, e->b, &rv))
    return FALSE;
  if (!compile_lvalue (c, e->a, &lv))
    return FALSE;
  if (e->op != WK_OP_NONE)
    {
      Val old;
      const WkType *ot = e->cast_type;
      guint32 r;

      if (!wkk_load (c, &lv, &old, FALSE))
        return FALSE;
      if (lv.type->kind == WK_TY_POINTER)
        {
          Val nv;
          if (!compile_pointer_offset (c, e, &old, &rv, e->op == WK_OP_SUB, &nv))
            return FALSE;
          nv.array = lv.kind == LV_REG ? lv.regs.array : -1;
          rv = nv;
        }
      else
        {
          guint32 a = wkk_convert_reg (c, old.r[0], lv.type, ot, e->pos);
          r = arith (c, e->op, ot, a, rv.r[0], e->pos);
          wkk_val_scalar (&rv, wkk_convert_reg (c, r, ot, lv.type, e->pos), lv.type);
        }
    }
  /* a pointer variable takes its array from its value */
  if (lv.kind == LV_REG && lv.type->kind == WK_TY_POINTER)
    {
      const WkExpr *x = strip (e->a);
      if (x->kind == WK_E_NAME)
        {
          VarInfo *v = wkk_var_info (c, x->sym);
          if (!wkk_bind_pointer (c, v, x->sym, rv.array, e->pos))
            return FALSE;
          lv.regs.array = v->array;
        }
    }
  if (!wkk_store (c, &lv, &rv))
    return FALSE;
  *out = rv;
  out->type = lv.type;
  if (lv.kind == LV_REG)
    {
      /* the value of an assignment is the variable's */
      *out = lv.regs;
      out->type = lv.type;
    }
  return TRUE;
}


static gboolean
compile_binary (Comp         *c,
                const WkExpr *e,
                Val          *out)
{
  Val a, b;
  const WkType *ta, *tb;

  if (e->op == WK_OP_LAND || e->op == WK_OP_LOR)
    return compile_logical (c, e, out);
  if (!wkk_compile_expr (c, e->a, &a))
    return FALSE;
  if (e->op == WK_OP_COMMA)
    {
      c->temp_top = c->temp_top;        /* the left value is dropped */
      return wkk_compile_expr (c, e->b, out);
    }
  if (!wkk_compile_expr (c, e->b, &b))
    return FALSE;
  ta = e->a->type;
  tb = e->b->type;
  if ((e->op == WK_OP_ADD || e->op == WK_OP_SUB) && ta->kind == WK_TY_POINTER && tb->kind != WK_TY_POINTER)
    return compile_pointer_offset (c, e, &a, &b, e->op == WK_OP_SUB, out);
  if (e->op == WK_OP_SUB && ta->kind == WK_TY_POINTER)
    {
      guint32 d = wkk_emit_bin (c, WK_OP_SUB, WK_AC_I64, a.r[0], b.r[0], e->pos);
      guint32 q = wkk_new_temp (c, 1);
      if (a.array != b.array)
        return wkk_fail (c, e->pos, WS_KERNEL_ERROR_UNSUPPORTED,
                     _("pointers into different arrays cannot be subtracted"));
      wkk_emit (c, WK_I_BIN, WK_AC_I64, WK_OP_DIV, q, d, wkk_const_int (c, (gint64) ta->elem->size), WK_NONE, 0, 0, e->pos);
      wkk_val_scalar (out, q, e->type);
      return TRUE;
    }
  if (e->op == WK_OP_SHL || e->op == WK_OP_SHR)
    {
      guint32 d = wkk_new_temp (c, 1);
      guint32 count = wkk_convert_reg (c, b.r[0], tb, WK_TYPE (WK_TY_LONG), e->pos);
      if (wkk_is_const (a.r[0]) && wkk_is_const (count))
        {
          wkk_val_scalar (out, wkk_const_slot (c, wk_shift_one (e->op == WK_OP_SHL, wk_type_arith (ta), wkk_const_value (c, a.r[0]),
                                                         (wk_type_is_signed (tb) || wkk_const_value (c, count).i >= 0) ?
                                                         wkk_const_value (c, count).i : G_MAXINT64)),
                      e->type);
          return TRUE;
        }
      wkk_emit (c, WK_I_SHIFT, wk_type_arith (ta), e->op, d, a.r[0], count, WK_NONE, 0, 0, e->pos);
      wkk_val_scalar (out, d, e->type);
      return TRUE;
    }
  if (e->op >= WK_OP_LT && e->op <= WK_OP_NE && ta->kind == WK_TY_POINTER)
    {
      wkk_val_scalar (out, wkk_emit_bin (c, e->op, WK_AC_I64, a.r[0], b.r[0], e->pos), e->type);
      return TRUE;
    }
  if ((e->op == WK_OP_DIV || e->op == WK_OP_MOD) && wk_type_is_integer (ta))
    {
      guint32 d = wkk_new_temp (c, 1);
      wkk_emit (c, WK_I_BIN, wk_type_arith (ta), e->op, d, a.r[0], b.r[0], WK_NONE, 0, 0, e->pos);
      wkk_val_scalar (out, d, e->type);
      return TRUE;
    }
  wkk_val_scalar (out, wkk_emit_bin (c, e->op, wk_type_arith (ta), a.r[0], b.r[0], e->pos), e->type);
  return TRUE;
}

static gboolean
compile_name (Comp         *c,
              const WkExpr *e,
              Val          *out)
{
  WkSym *sym = e->sym;

  switch (sym->kind)
    {
    case WK_SYM_VAR:
      {
        VarInfo *v = wkk_var_info (c, sym);
        if (v == NULL)
          return wkk_fail (c, e->start, WS_KERNEL_ERROR_INVALID, _("“%s” is used before it is declared"), sym->name);
        *out = v->val;
        out->array = v->array;
        out->type = e->type;
        return TRUE;
      }
    case WK_SYM_CONST:
      {
        WkSlot s;
        WkConst k = { sym->type, { .u = sym->value.u } };
        k = wk_const_convert (k, e->type);
        s.u = 0;
        if (e->type->kind == WK_TY_FLOAT)
          s.f = (float) k.v.f;
        else if (e->type->kind == WK_TY_DOUBLE)
          s.d = k.v.f;
        else
          s.i = k.v.i;
        wkk_val_scalar (out, wkk_const_slot (c, s), e->type);
        return TRUE;
      }
    case WK_SYM_TEMPLATE:
      {
        const WkConst *k = c->frame->tvals ? g_hash_table_lookup (c->frame->tvals, sym) : NULL;
        if (k == NULL)
          return wkk_fail (c, e->start, WS_KERNEL_ERROR_LAUNCH, _("the template parameter “%s” has no value"), sym->name);
        wkk_val_scalar (out, wkk_const_int (c, wk_const_convert (*k, e->type).v.i), e->type);
        return TRUE;
      }
    case WK_SYM_BUILTIN:
      {
        const guint32 *regs = sym->builtin == WK_BV_THREAD_IDX ? c->prog->reg_tid :
                              sym->builtin == WK_BV_BLOCK_IDX ? c->prog->reg_ctaid :
                              sym->builtin == WK_BV_BLOCK_DIM ? c->prog->reg_ntid : c->prog->reg_nctaid;
        if (sym->builtin == WK_BV_WARP_SIZE)
          {
            wkk_val_scalar (out, wkk_const_int (c, 32), e->type);
            return TRUE;
          }
        out->n = 3;
        out->type = e->type;
        out->array = -1;
        for (guint i = 0; i < 3; i++)
          out->r[i] = regs[i];
        return TRUE;
      }
    case WK_SYM_FILL_INDEX:
      wkk_val_scalar (out, c->prog->reg_fill_index, e->type);
      return TRUE;
    case WK_SYM_MEMORY:
      {
        LVal lv;
        return compile_lvalue (c, e, &lv) && wkk_load (c, &lv, out, FALSE);
      }
    default:
      return wkk_fail (c, e->start, WS_KERNEL_ERROR_UNSUPPORTED, _("“%s” cannot be used here"), sym->name);
    }
}

static gboolean
compile_convert (Comp         *c,
                 const WkExpr *e,
                 Val          *out)
{
  const WkType *to = e->type;
  const WkType *from = e->a->type;
  Val a;

  if (from->kind == WK_TY_ARRAY && to->kind == WK_TY_POINTER)
    {
      LVal lv;
      if (!compile_lvalue (c, e->a, &lv))
        return FALSE;
      if (lv.kind != LV_MEM)
        return wkk_fail (c, e->start, WS_KERNEL_ERROR_UNSUPPORTED, _("this array is not in memory"));
      if (wkk_array_at (c, lv.array)->space == WS_SPACE_LOCAL)
        wkk_array_at (c, lv.array)->dynamic_index = TRUE;
      wkk_val_scalar (out, wkk_materialise_addr (c, &lv, e->start), to);
      out->array = (int) lv.array;
      return TRUE;
    }
  if (!wkk_compile_expr (c, e->a, &a))
    return FALSE;
  if (to->kind == WK_TY_VOID)
    {
      out->n = 0;
      out->type = to;
      out->array = -1;
      return TRUE;
    }
  if (to->kind == WK_TY_POINTER || !wk_type_is_scalar (to) || !wk_type_is_scalar (from))
    {
      *out = a;
      out->type = to;
      return TRUE;
    }
  wkk_val_scalar (out, wkk_convert_reg (c, a.r[0], from, to, e->start), to);
  return TRUE;
}

static gboolean
compile_expr_inner (Comp         *c,
                    const WkExpr *e,
                    Val          *out)
{
  switch (e->kind)
    {
    case WK_E_INT:
    case WK_E_BOOL:
      {
        WkSlot s;
        s.i = wk_norm_int (wk_type_storage (e->type), (gint64) e->v.u);
        wkk_val_scalar (out, wkk_const_slot (c, s), e->type);
        return TRUE;
      }
    case WK_E_FLOAT:
      {
        WkSlot s;
        s.u = 0;
        if (e->type->kind == WK_TY_FLOAT)
          s.f = (float) e->v.f;
        else
          s.d = e->v.f;
        wkk_val_scalar (out, wkk_const_slot (c, s), e->type);
        return TRUE;
      }
    case WK_E_SIZEOF:
      wkk_val_scalar (out, wkk_const_int (c, (gint64) e->v.u), e->type);
      return TRUE;
    case WK_E_NAME:
      return compile_name (c, e, out);
    case WK_E_IMPLICIT:
    case WK_E_CAST:
      return compile_convert (c, e, out);
    case WK_E_UNARY:
      switch (e->op)
        {
        case WK_OP_PLUS:
          return wkk_compile_expr (c, e->a, out);
        case WK_OP_NEG:
        case WK_OP_BITNOT:
        case WK_OP_LNOT:
          {
            Val a;
            guint32 d;
            if (!wkk_compile_expr (c, e->a, &a))
              return FALSE;
            if (wkk_is_const (a.r[0]) && e->op != WK_OP_LNOT)
              {
                wkk_val_scalar (out, wkk_const_slot (c, wk_unary_one (e->op, wk_type_arith (a.type), wkk_const_value (c, a.r[0]))),
                            e->type);
                return TRUE;
              }
            d = wkk_new_temp (c, 1);
            wkk_emit (c, WK_I_UN, wk_type_arith (a.type), e->op, d, a.r[0], WK_NONE, WK_NONE, 0, 0, e->pos);
            wkk_val_scalar (out, d, e->type);
            return TRUE;
          }
        case WK_OP_ADDR:
          {
            LVal lv;
            if (!compile_lvalue (c, e->a, &lv))
              return FALSE;
            if (lv.kind != LV_MEM)
              return wkk_fail (c, e->start, WS_KERNEL_ERROR_UNSUPPORTED, _("only elements of arrays have addresses"));
            if (wkk_array_at (c, lv.array)->space == WS_SPACE_LOCAL)
              wkk_array_at (c, lv.array)->dynamic_index = TRUE;
            wkk_val_scalar (out, wkk_materialise_addr (c, &lv, e->start), e->type);
            out->array = (int) lv.array;
            return TRUE;
          }
        case WK_OP_DEREF:
          {
            LVal lv;
            return compile_lvalue (c, e, &lv) && wkk_load (c, &lv, out, FALSE);
          }
        default:
          return compile_incdec (c, e, out);
        }
    case WK_E_BINARY:
      return compile_binary (c, e, out);
    case WK_E_ASSIGN:
      return compile_assign (c, e, out);
    case WK_E_COND:
      return compile_cond (c, e, out);
    case WK_E_CALL:
      return wkk_compile_call (c, e, out);
    case WK_E_INDEX:
    case WK_E_MEMBER:
      {
        LVal lv;
        if (e->kind == WK_E_MEMBER && !e->is_arrow && !e->a->lvalue)
          {
            /* a member of a value: make_float2 (…).x, f ().y */
            Val whole;
            const WkType *bt = e->a->type;
            guint leaf0 = 0, n = wk_type_n_leaves (e->type);
            if (!wkk_compile_expr (c, e->a, &whole))
              return FALSE;
            if (bt->kind == WK_TY_VECTOR)
              leaf0 = e->member;
            else
              for (guint i = 0; i < e->member; i++)
                leaf0 += wk_type_n_leaves (bt->st->fields[i].type);
            out->n = n;
            out->type = e->type;
            out->array = -1;
            for (guint i = 0; i < n; i++)
              out->r[i] = whole.r[leaf0 + i];
            return TRUE;
          }
        if (!compile_lvalue (c, e, &lv) || !wkk_load (c, &lv, out, FALSE))
          return FALSE;
        if (e->type->kind == WK_TY_POINTER)
          out->array = lv.kind == LV_REG ? lv.regs.array : -1;
        return TRUE;
      }
    case WK_E_STRING:
    case WK_E_INIT_LIST:
      break;
    }
  return wkk_fail (c, e->start, WS_KERNEL_ERROR_UNSUPPORTED, _("this expression cannot be run"));
}

gboolean
wkk_compile_expr (Comp         *c,
                  const WkExpr *e,
                  Val          *out)
{
  gboolean ok;

  out->n = 0;
  out->type = NULL;
  out->array = -1;
  if (c->failed)
    return FALSE;
  if (++c->nesting > MAX_NESTING)
    return wkk_fail (c, e->start, WS_KERNEL_ERROR_LIMIT,
                 _("the kernel is nested too deeply once its device functions are inlined"));
  ok = compile_expr_inner (c, e, out);
  c->nesting--;
  if (!ok)
    return FALSE;
  if (out->type == NULL)
    out->type = e->type;
  return TRUE;
}

