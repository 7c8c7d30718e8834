/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The compiler's calls: the CUDA built-ins, each an instruction of its own
 * (a barrier, an atomic with its site, a shuffle, a vote, a math function),
 * and device functions, inlined (ws-kernel-compile.c). */
#include "ws-config.h"
#include "ws-kernel-compile-private.h"
#include "ws-i18n.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Calls                                                              */
/* ------------------------------------------------------------------ */


static guint32
unary_op (Comp     *c,
          WkInsnOp  op,
          guint     ac,
          guint     sub,
          guint32   a,
          guint     src)
{
  guint32 d = wkk_new_temp (c, 1);

  wkk_emit (c, op, ac, sub, d, a, WK_NONE, WK_NONE, 0, 0, src);
  return d;
}

static gboolean
compile_atomic (Comp         *c,
                const WkExpr *e,
                Val          *out)
{
  Val p, v, w;
  WkLeaf leaf;
  WkArray *arr;
  guint site;
  guint32 d;

  if (!wkk_compile_expr (c, e->args[0], &p) || !wkk_compile_expr (c, e->args[1], &v))
    return FALSE;
  if (e->builtin == WK_BF_ATOMIC_CAS && !wkk_compile_expr (c, e->args[2], &w))
    return FALSE;
  if (p.array < 0)
    return wkk_fail (c, e->start, WS_KERNEL_ERROR_UNSUPPORTED, _("this pointer does not point into an array yet"));
  arr = wkk_array_at (c, (guint) p.array);
  if (arr->space != WS_SPACE_GLOBAL && arr->space != WS_SPACE_SHARED)
    return wkk_fail (c, e->start, WS_KERNEL_ERROR_UNSUPPORTED,
                 _("atomics work on global and shared memory, not on “%s”"), arr->name);
  leaf.kind = e->type->kind;
  leaf.offset = 0;
  site = wkk_add_site (c, (guint) p.array, WS_ACCESS_ATOMIC, e->type, 0, 1, &leaf, e->type->size, 0, e, FALSE, FALSE);
  d = wkk_new_temp (c, 1);
  wkk_emit (c, WK_I_ATOM, 0, e->builtin, d, p.r[0], v.r[0], e->builtin == WK_BF_ATOMIC_CAS ? w.r[0] : WK_NONE, site, 0,
        e->start);
  wkk_val_scalar (out, d, e->type);
  return TRUE;
}

gboolean
wkk_compile_call (Comp         *c,
                  const WkExpr *e,
                  Val          *out)
{
  Val a[4];
  guint n = MIN (e->n_args, 4);

  out->n = 0;
  out->type = e->type;
  out->array = -1;
  if (e->sym != NULL && e->sym->kind == WK_SYM_FUNC)
    {
      /* a device function's places are its pointers' */
      gboolean ok;
      wkk_avail_clear (c);
      ok = wkk_compile_inline (c, e, out);
      wkk_avail_clear (c);
      return ok;
    }

  switch (e->builtin)
    {
    case WK_BF_SYNCTHREADS:
    case WK_BF_SYNCWARP:
    case WK_BF_THREADFENCE_BLOCK:
    case WK_BF_THREADFENCE:
    case WK_BF_THREADFENCE_SYSTEM:
    case WK_BF_ATOMIC_ADD:
    case WK_BF_ATOMIC_SUB:
    case WK_BF_ATOMIC_MIN:
    case WK_BF_ATOMIC_MAX:
    case WK_BF_ATOMIC_EXCH:
    case WK_BF_ATOMIC_CAS:
    case WK_BF_ATOMIC_AND:
    case WK_BF_ATOMIC_OR:
    case WK_BF_ATOMIC_XOR:
    case WK_BF_ATOMIC_INC:
    case WK_BF_ATOMIC_DEC:
    case WK_BF_PRINTF:
    case WK_BF_CLOCK:
      /* nothing loaded before is known after */
      wkk_avail_clear (c);
      break;
    default:
      break;
    }
  switch (e->builtin)
    {
    case WK_BF_SYNCTHREADS:
      wkk_emit (c, WK_I_BAR, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, 0, 0, e->start);
      return TRUE;
    case WK_BF_SYNCWARP:
      for (guint i = 0; i < n; i++)
        if (!wkk_compile_expr (c, e->args[i], &a[i]))
          return FALSE;
      wkk_emit (c, WK_I_SYNCWARP, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, 0, 0, e->start);
      return TRUE;
    case WK_BF_THREADFENCE_BLOCK:
    case WK_BF_THREADFENCE:
    case WK_BF_THREADFENCE_SYSTEM:
      wkk_emit (c, WK_I_FENCE, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE,
            e->builtin == WK_BF_THREADFENCE_BLOCK ? WS_KERNEL_FENCE_BLOCK :
            e->builtin == WK_BF_THREADFENCE ? WS_KERNEL_FENCE_GPU : WS_KERNEL_FENCE_SYSTEM, 0, e->start);
      return TRUE;
    case WK_BF_ATOMIC_ADD: case WK_BF_ATOMIC_SUB: case WK_BF_ATOMIC_MIN: case WK_BF_ATOMIC_MAX:
    case WK_BF_ATOMIC_EXCH: case WK_BF_ATOMIC_CAS: case WK_BF_ATOMIC_AND: case WK_BF_ATOMIC_OR:
    case WK_BF_ATOMIC_XOR: case WK_BF_ATOMIC_INC: case WK_BF_ATOMIC_DEC:
      return compile_atomic (c, e, out);
    case WK_BF_LDG:
      {
        LVal lv = { 0 };
        if (!wkk_compile_expr (c, e->args[0], &a[0]))
          return FALSE;
        if (a[0].array < 0)
          return wkk_fail (c, e->start, WS_KERNEL_ERROR_UNSUPPORTED, _("this pointer does not point into an array yet"));
        lv.kind = LV_MEM;
        lv.array = (guint) a[0].array;
        lv.addr = a[0].r[0];
        lv.type = e->type;
        lv.expr = e;
        if (wkk_array_at (c, lv.array)->space != WS_SPACE_GLOBAL)
          return wkk_fail (c, e->start, WS_KERNEL_ERROR_UNSUPPORTED, _("__ldg reads global memory, not “%s”"),
                       wkk_array_at (c, lv.array)->name);
        return wkk_load (c, &lv, out, TRUE);
      }
    default:
      break;
    }

  for (guint i = 0; i < n; i++)
    if (!wkk_compile_expr (c, e->args[i], &a[i]))
      return FALSE;

  switch (e->builtin)
    {
    case WK_BF_SHFL: case WK_BF_SHFL_UP: case WK_BF_SHFL_DOWN: case WK_BF_SHFL_XOR:
      {
        guint32 d = wkk_new_temp (c, 1);
        WkShflMode mode = e->builtin == WK_BF_SHFL ? WK_SHFL_IDX : e->builtin == WK_BF_SHFL_UP ? WK_SHFL_UP :
                          e->builtin == WK_BF_SHFL_DOWN ? WK_SHFL_DOWN : WK_SHFL_XOR;
        wkk_emit (c, WK_I_SHFL, 0, mode, d, a[1].r[0], a[2].r[0], n > 3 ? a[3].r[0] : wkk_const_int (c, 32), 0, 0, e->start);
        wkk_val_scalar (out, d, e->type);
        return TRUE;
      }
    case WK_BF_BALLOT: case WK_BF_ANY: case WK_BF_ALL: case WK_BF_ACTIVEMASK:
      {
        guint32 d = wkk_new_temp (c, 1);
        wkk_emit (c, WK_I_VOTE, 0, e->builtin, d, n > 0 ? a[0].r[0] : WK_NONE, n > 1 ? a[1].r[0] : WK_NONE, WK_NONE, 0,
              0, e->start);
        wkk_val_scalar (out, d, e->type);
        return TRUE;
      }
    case WK_BF_POPC: case WK_BF_POPCLL: case WK_BF_CLZ: case WK_BF_CLZLL: case WK_BF_FFS: case WK_BF_FFSLL:
    case WK_BF_BREV:
      wkk_val_scalar (out, unary_op (c, WK_I_BITS, wk_type_arith (a[0].type), e->builtin, a[0].r[0], e->start), e->type);
      return TRUE;
    case WK_BF_MIN:
    case WK_BF_MAX:
      wkk_val_scalar (out, wkk_emit_bin (c, e->builtin == WK_BF_MIN ? WK_SUB_MIN : WK_SUB_MAX, wk_type_arith (e->cast_type),
                                 a[0].r[0], a[1].r[0], e->start), e->type);
      return TRUE;
    case WK_BF_ABS:
      wkk_val_scalar (out, unary_op (c, WK_I_UN, wk_type_arith (e->cast_type), WK_SUB_ABS, a[0].r[0], e->start), e->type);
      return TRUE;
    case WK_BF_MATH1:
      wkk_val_scalar (out, unary_op (c, WK_I_MATH1, wk_type_arith (e->cast_type), e->member, a[0].r[0], e->start),
                  e->type);
      return TRUE;
    case WK_BF_MATH2:
      {
        guint32 d = wkk_new_temp (c, 1);
        wkk_emit (c, WK_I_MATH2, wk_type_arith (e->cast_type), e->member, d, a[0].r[0], a[1].r[0], WK_NONE, 0, 0,
              e->start);
        wkk_val_scalar (out, d, e->type);
        return TRUE;
      }
    case WK_BF_FMA:
      {
        guint32 d = wkk_new_temp (c, 1);
        wkk_emit (c, WK_I_FMA, wk_type_arith (e->cast_type), 0, d, a[0].r[0], a[1].r[0], a[2].r[0], 0, 0, e->start);
        wkk_val_scalar (out, d, e->type);
        return TRUE;
      }
    case WK_BF_MAKE_VECTOR:
      out->n = e->n_args;
      for (guint i = 0; i < e->n_args && i < 4; i++)
        out->r[i] = a[i].r[0];
      return TRUE;
    case WK_BF_FLOAT2INT:
      if (wk_type_is_float (a[0].type) && wk_type_is_integer (e->type))
        {
          guint32 d = wkk_new_temp (c, 1);
          wkk_emit (c, WK_I_F2I, wk_type_arith (a[0].type), e->member, d, a[0].r[0], WK_NONE, WK_NONE,
                wk_type_storage (e->type), 0, e->start);
          wkk_val_scalar (out, d, e->type);
        }
      else
        wkk_val_scalar (out, wkk_convert_reg (c, a[0].r[0], a[0].type, e->type, e->start), e->type);
      return TRUE;
    case WK_BF_AS_BITS:
      wkk_val_scalar (out, unary_op (c, WK_I_BITCAST, wk_type_arith (a[0].type), wk_type_storage (e->type), a[0].r[0],
                                 e->start), e->type);
      return TRUE;
    case WK_BF_MUL24: case WK_BF_UMUL24: case WK_BF_MULHI: case WK_BF_UMULHI:
      {
        guint32 d = wkk_new_temp (c, 1);
        wkk_emit (c, WK_I_MULHI, 0, e->builtin, d, a[0].r[0], a[1].r[0], WK_NONE, 0, 0, e->start);
        wkk_val_scalar (out, d, e->type);
        return TRUE;
      }
    case WK_BF_PRINTF:
    case WK_BF_CLOCK:
      wkk_val_scalar (out, wkk_const_int (c, 0), e->type);
      return TRUE;
    case WK_BF_RANDOM:
      {
        guint32 d = wkk_new_temp (c, 1);
        if (c->prog->reg_fill_index == WK_NONE)
          return wkk_fail (c, e->start, WS_KERNEL_ERROR_LAUNCH, _("random (seed) is only for fills"));
        wkk_emit (c, WK_I_RANDOM, 0, 0, d, a[0].r[0], c->prog->reg_fill_index, WK_NONE, 0, 0, e->start);
        wkk_val_scalar (out, d, e->type);
        return TRUE;
      }
    default:
      break;
    }
  return wkk_fail (c, e->start, WS_KERNEL_ERROR_UNSUPPORTED, _("“%s” cannot be run"), e->name);
}
