/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-kernel-private.h"

#include <math.h>

G_BEGIN_DECLS

/* The arithmetic of one lane, as the GPU does it, shared by the VM's lane
 * loops and the constant evaluator so that both compute the same values.
 *
 * A register slot holds a value normalised to its storage (ws-kernel-
 * private.h): integers sign- or zero-extended in i (so that a char is
 * already an int), float in f, double in d. Where C leaves a result
 * undefined, the GPU's is taken: integer overflow wraps, a shift by the
 * width or more gives what PTX's clamped shifts give, a float converted to
 * an integer saturates (NaN to 0), INT_MIN / -1 wraps. Division by zero of
 * integers is the one trap: the caller checks it first. */

typedef union
{
  gint64 i;
  guint64 u;
  double d;
  float f;
} WkSlot;

G_STATIC_ASSERT (sizeof (WkSlot) == 8);

static inline __attribute__ ((always_inline)) gint64
wk_norm_int (WkStorage sc,
             gint64    v)
{
  switch (sc)
    {
    case WK_SC_BOOL: return v != 0;
    case WK_SC_I8: return (gint8) v;
    case WK_SC_U8: return (guint8) v;
    case WK_SC_I16: return (gint16) v;
    case WK_SC_U16: return (guint16) v;
    case WK_SC_I32: return (gint32) v;
    case WK_SC_U32: return (guint32) v;
    default: return v;
    }
}

static inline __attribute__ ((always_inline)) gint64
wk_float_to_int (double    x,
                 WkStorage sc)
{
  if (isnan (x))
    return 0;
  switch (sc)
    {
    case WK_SC_BOOL:
      return x != 0;
    case WK_SC_U8:
    case WK_SC_U16:
    case WK_SC_U32:
      if (x <= 0)
        return 0;
      if (x >= 4294967295.0)
        return wk_norm_int (sc, (gint64) G_MAXUINT32);
      return wk_norm_int (sc, (gint64) (guint32) x);
    case WK_SC_I64:
      if (x <= -9223372036854775808.0)
        return G_MININT64;
      if (x >= 9223372036854775807.0)
        return G_MAXINT64;
      return (gint64) x;
    case WK_SC_U64:
      if (x <= 0)
        return 0;
      if (x >= 18446744073709551615.0)
        return (gint64) G_MAXUINT64;
      return (gint64) (guint64) x;
    default:
      if (x <= -2147483648.0)
        return wk_norm_int (sc, G_MININT32);
      if (x >= 2147483647.0)
        return wk_norm_int (sc, G_MAXINT32);
      return wk_norm_int (sc, (gint32) x);
    }
}

static inline __attribute__ ((always_inline)) WkSlot
wk_convert_one (WkArith   from,
                WkStorage to,
                WkSlot    v)
{
  WkSlot r;
  double x;

  r.u = 0;
  switch (from)
    {
    case WK_AC_F32:
      x = v.f;
      break;
    case WK_AC_F64:
      x = v.d;
      break;
    default:
      if (to == WK_SC_F32)
        r.f = from == WK_AC_U64 ? (float) v.u : (float) v.i;
      else if (to == WK_SC_F64)
        r.d = from == WK_AC_U64 ? (double) v.u : (double) v.i;
      else
        r.i = wk_norm_int (to, v.i);
      return r;
    }
  if (to == WK_SC_F32)
    r.f = from == WK_AC_F32 ? v.f : (float) x;
  else if (to == WK_SC_F64)
    r.d = x;
  else
    r.i = wk_float_to_int (x, to);
  return r;
}

/* a OP b for the arithmetic class ac; comparisons give 0 or 1 in i. */
static inline __attribute__ ((always_inline)) WkSlot
wk_binary_one (WkOp     op,
               WkArith  ac,
               WkSlot   a,
               WkSlot   b,
               gboolean *trap)
{
  WkSlot r;

  r.u = 0;
  if (ac == WK_AC_F32)
    {
      switch (op)
        {
        case WK_OP_ADD: r.f = a.f + b.f; break;
        case WK_OP_SUB: r.f = a.f - b.f; break;
        case WK_OP_MUL: r.f = a.f * b.f; break;
        case WK_OP_DIV: r.f = a.f / b.f; break;
        case WK_OP_LT: r.i = a.f < b.f; break;
        case WK_OP_GT: r.i = a.f > b.f; break;
        case WK_OP_LE: r.i = a.f <= b.f; break;
        case WK_OP_GE: r.i = a.f >= b.f; break;
        case WK_OP_EQ: r.i = a.f == b.f; break;
        case WK_OP_NE: r.i = a.f != b.f; break;
        default: *trap = TRUE; break;
        }
      return r;
    }
  if (ac == WK_AC_F64)
    {
      switch (op)
        {
        case WK_OP_ADD: r.d = a.d + b.d; break;
        case WK_OP_SUB: r.d = a.d - b.d; break;
        case WK_OP_MUL: r.d = a.d * b.d; break;
        case WK_OP_DIV: r.d = a.d / b.d; break;
        case WK_OP_LT: r.i = a.d < b.d; break;
        case WK_OP_GT: r.i = a.d > b.d; break;
        case WK_OP_LE: r.i = a.d <= b.d; break;
        case WK_OP_GE: r.i = a.d >= b.d; break;
        case WK_OP_EQ: r.i = a.d == b.d; break;
        case WK_OP_NE: r.i = a.d != b.d; break;
        default: *trap = TRUE; break;
        }
      return r;
    }
  switch (op)
    {
    case WK_OP_ADD: r.u = a.u + b.u; break;
    case WK_OP_SUB: r.u = a.u - b.u; break;
    case WK_OP_MUL: r.u = a.u * b.u; break;
    case WK_OP_DIV:
    case WK_OP_MOD:
      if (b.i == 0)
        {
          *trap = TRUE;
          return r;
        }
      if (ac == WK_AC_U64 || ac == WK_AC_U32)
        r.u = op == WK_OP_DIV ? a.u / b.u : a.u % b.u;
      else if (b.i == -1)
        r.u = op == WK_OP_DIV ? 0 - a.u : 0;   /* INT_MIN / -1 wraps */
      else
        r.i = op == WK_OP_DIV ? a.i / b.i : a.i % b.i;
      break;
    case WK_OP_BITAND: r.u = a.u & b.u; break;
    case WK_OP_BITOR: r.u = a.u | b.u; break;
    case WK_OP_BITXOR: r.u = a.u ^ b.u; break;
    case WK_OP_LT: r.i = ac == WK_AC_U64 ? a.u < b.u : a.i < b.i; return r;
    case WK_OP_GT: r.i = ac == WK_AC_U64 ? a.u > b.u : a.i > b.i; return r;
    case WK_OP_LE: r.i = ac == WK_AC_U64 ? a.u <= b.u : a.i <= b.i; return r;
    case WK_OP_GE: r.i = ac == WK_AC_U64 ? a.u >= b.u : a.i >= b.i; return r;
    case WK_OP_EQ: r.i = a.i == b.i; return r;
    case WK_OP_NE: r.i = a.i != b.i; return r;
    default: *trap = TRUE; return r;
    }
  if (ac == WK_AC_I32)
    r.i = (gint32) r.u;
  else if (ac == WK_AC_U32)
    r.i = (guint32) r.u;
  return r;
}

/* a << count or a >> count (arithmetic for signed classes); a count of
 * the width or more (or negative) gives what the clamped PTX shift gives. */
static inline __attribute__ ((always_inline)) WkSlot
wk_shift_one (gboolean left,
              WkArith  ac,
              WkSlot   a,
              gint64   count)
{
  guint width = (ac == WK_AC_I32 || ac == WK_AC_U32) ? 32 : 64;
  guint64 c = (guint64) count;
  WkSlot r;

  if (c >= width)
    {
      r.i = (!left && (ac == WK_AC_I32 || ac == WK_AC_I64) && a.i < 0) ? -1 : 0;
      return r;
    }
  switch (ac)
    {
    case WK_AC_I32: r.i = left ? (gint32) ((guint32) a.i << c) : (gint32) a.i >> c; break;
    case WK_AC_U32: r.i = left ? (guint32) ((guint32) a.u << c) : (guint32) a.u >> c; break;
    case WK_AC_I64: r.i = left ? (gint64) (a.u << c) : a.i >> c; break;
    default: r.u = left ? a.u << c : a.u >> c; break;
    }
  return r;
}

static inline __attribute__ ((always_inline)) WkSlot
wk_unary_one (WkOp    op,
              WkArith ac,
              WkSlot  a)
{
  WkSlot r;

  r.u = 0;
  if (ac == WK_AC_F32)
    r.f = -a.f;
  else if (ac == WK_AC_F64)
    r.d = -a.d;
  else
    {
      r.u = op == WK_OP_NEG ? 0 - a.u : ~a.u;
      if (ac == WK_AC_I32)
        r.i = (gint32) r.u;
      else if (ac == WK_AC_U32)
        r.i = (guint32) r.u;
    }
  return r;
}

G_END_DECLS
