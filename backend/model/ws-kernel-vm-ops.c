/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The VM's instructions that are more than a line of its loop: memory
 * accesses (each active lane checked against its array's bounds and
 * alignment before any of it, the event handed to the visitor, then the
 * bytes moved; atomics lane after lane), and the lane operations of every
 * class (conversions, math, shuffles, votes, bits). */
#include "ws-config.h"
#include "ws-kernel-vm-private.h"
#include "ws-i18n.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Messages                                                           */
/* ------------------------------------------------------------------ */

static void
thread_of (const Block *b,
           guint        warp,
           guint        lane,
           guint       *x,
           guint       *y,
           guint       *z)
{
  guint t = warp * WK_LANES + lane;
  WsDim3 bd = b->run->block;

  *x = t % bd.x;
  *y = (t / bd.x) % bd.y;
  *z = t / (bd.x * bd.y);
}


static char *
site_text (const Block  *b,
           const WkSite *s)
{
  g_autofree char *t = wk_text_span (b->prog->text, b->prog->text_len, s->start, s->end);
  return ws_text_for_message (t);
}

/* ------------------------------------------------------------------ */
/* Memory                                                             */
/* ------------------------------------------------------------------ */

static inline WkSlot
read_scalar (const guint8 *p,
             WkTypeKind    kind)
{
  WkSlot v;

  v.u = 0;
  switch (kind)
    {
    case WK_TY_BOOL: v.i = p[0] != 0; break;
    case WK_TY_CHAR: case WK_TY_SCHAR: v.i = (gint8) p[0]; break;
    case WK_TY_UCHAR: v.i = p[0]; break;
    case WK_TY_SHORT: { gint16 x; memcpy (&x, p, 2); v.i = x; break; }
    case WK_TY_USHORT: { guint16 x; memcpy (&x, p, 2); v.i = x; break; }
    case WK_TY_INT: { gint32 x; memcpy (&x, p, 4); v.i = x; break; }
    case WK_TY_UINT: { guint32 x; memcpy (&x, p, 4); v.i = x; break; }
    case WK_TY_FLOAT: memcpy (&v.f, p, 4); break;
    default: memcpy (&v.u, p, 8); break;
    }
  return v;
}

static inline void
write_scalar (guint8    *p,
              WkTypeKind kind,
              WkSlot     v)
{
  switch (kind)
    {
    case WK_TY_BOOL: case WK_TY_CHAR: case WK_TY_SCHAR: case WK_TY_UCHAR: p[0] = (guint8) v.i; break;
    case WK_TY_SHORT: case WK_TY_USHORT: { guint16 x = (guint16) v.i; memcpy (p, &x, 2); break; }
    case WK_TY_INT: case WK_TY_UINT: { guint32 x = (guint32) v.i; memcpy (p, &x, 4); break; }
    case WK_TY_FLOAT: memcpy (p, &v.f, 4); break;
    default: memcpy (p, &v.u, 8); break;
    }
}

/* Where lane l's access at addr is (addr checked already). */
static inline guint8 *
locate (Block         *b,
        Warp          *w,
        const WkArray *a,
        guint          array,
        guint          lane,
        gint64         addr)
{
  switch (a->space)
    {
    case WS_SPACE_SHARED:
      return b->shared + a->shared_offset + addr;
    case WS_SPACE_LOCAL:
    case WS_SPACE_REGISTER:
      return w->local + (gsize) lane * b->prog->local_bytes + a->shared_offset + addr;
    default:
      {
        WkStore *s = &b->run->stores[array];
        guint8 *page = wk_store_page (s, (guint64) addr >> WK_PAGE_SHIFT);
        return page + ((guint64) addr & (WK_PAGE_SIZE - 1));
      }
    }
}

static gint64
floor_div (gint64 a,
           gint64 b)
{
  gint64 q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* Bounds and alignment of every active lane's access, before any of it. */
WK_LANE_LOOPS static gboolean
check_access (Block        *b,
              Warp         *w,
              const WkSite *site,
              guint32       active,
              const gint64 *addr,
              GError      **error)
{
  const WkArray *a = g_ptr_array_index (b->prog->arrays, site->array);
  WkStore *store = (a->space == WS_SPACE_GLOBAL || a->space == WS_SPACE_CONSTANT) ? &b->run->stores[site->array] : NULL;
  gint64 limit = store != NULL ? (gint64) store->bytes : (gint64) a->bytes;
  gboolean sizing = store != NULL && store->sizing;
  gint64 lo = G_MAXINT64, hi = G_MININT64;
  guint64 bits = 0;
  guint first = (guint) g_bit_nth_lsf (active, -1);

  /* the common case at once: every lane inside, every lane aligned */
  for (guint l = 0; l < WK_LANES; l++)
    {
      gint64 x = (active >> l) & 1 ? addr[l] : addr[first];
      lo = MIN (lo, x);
      hi = MAX (hi, x);
      bits |= (guint64) x;
    }
  if (lo >= 0 && hi <= limit - (gint64) site->size && (bits & (site->size - 1)) == 0)
    {
      if (sizing && (guint64) hi + site->size > store->max_end)
        store->max_end = (guint64) hi + site->size;
      return TRUE;
    }
  for (guint l = 0; l < WK_LANES; l++)
    {
      gint64 x = addr[l];

      if (!(active & (1u << l)))
        continue;
      if (x < 0 || x > limit - (gint64) site->size)
        {
          g_autofree char *text = site_text (b, site);
          gint64 element = floor_div (x - (gint64) a->offset_bytes, (gint64) a->elem_size);
          guint64 n = sizing ? 0 : a->n_elements;

          if (sizing && x >= 0)
            {
              RUN_FAIL (error, b, w, l, site->start,
                        _("%s reaches byte %lld of “%s”, beyond what an array to size may be (%llu bytes)"), text,
                        (long long) x, a->name, (unsigned long long) store->bytes);
              return FALSE;
            }
          if (a->offset_bytes > 0)
            {
              guint64 in = a->offset_bytes / a->elem_size;
              if (site->kind == WS_ACCESS_LOAD)
                RUN_FAIL (error, b, w, l, site->start,
                          _("%s reads element %lld of an array of %llu that the parameter points %llu elements into"),
                          text, (long long) element, (unsigned long long) n, (unsigned long long) in);
              else if (site->kind == WS_ACCESS_STORE)
                RUN_FAIL (error, b, w, l, site->start,
                          _("%s writes element %lld of an array of %llu that the parameter points %llu elements into"),
                          text, (long long) element, (unsigned long long) n, (unsigned long long) in);
              else
                RUN_FAIL (error, b, w, l, site->start,
                          _("%s updates element %lld of an array of %llu that the parameter points %llu elements into"),
                          text, (long long) element, (unsigned long long) n, (unsigned long long) in);
              return FALSE;
            }
          if (site->kind == WS_ACCESS_LOAD)
            RUN_FAIL (error, b, w, l, site->start, _("%s reads element %lld of an array of %llu"), text,
                      (long long) element, (unsigned long long) n);
          else if (site->kind == WS_ACCESS_STORE)
            RUN_FAIL (error, b, w, l, site->start, _("%s writes element %lld of an array of %llu"), text,
                      (long long) element, (unsigned long long) n);
          else
            RUN_FAIL (error, b, w, l, site->start, _("%s updates element %lld of an array of %llu"), text,
                      (long long) element, (unsigned long long) n);
          return FALSE;
        }
      if ((x & (gint64) (site->size - 1)) != 0)
        {
          g_autofree char *text = site_text (b, site);
          RUN_FAIL (error, b, w, l, site->start,
                    _("%s moves %u bytes at byte %lld of “%s”, which is not a multiple of %u: a misaligned address"),
                    text, site->size, (long long) x, a->name, site->size);
          return FALSE;
        }
      if (sizing && (guint64) x + site->size > store->max_end)
        store->max_end = (guint64) x + site->size;
    }
  return TRUE;
}

static gboolean
emit_event (Block        *b,
            Warp         *w,
            const WkInsn *in,
            guint32       active,
            const gint64 *addr,
            GError      **error)
{
  WsKernelEvent ev;
  WkRun *run = b->run;

  run->counts->memory_instructions++;
  w->memory++;
  if (run->visit == NULL)
    return TRUE;
  ev.block = b->block_linear;
  ev.block_idx = b->block_idx;
  ev.warp = (guint) (w - b->warps);
  ev.site = in->imm;
  ev.active = active;
  ev.valid = w->valid;
  ev.address = addr;
  return run->visit (&ev, run->visit_data, error);
}

/* The event of a load or store, but for what nvcc keeps in a register
 * through a loop (WkSite's keep): once for each lane since the loop was
 * entered, or never.  The VM still moves the values every time. */
static gboolean
emit_kept (Block        *b,
           Warp         *w,
           const WkInsn *in,
           const WkSite *site,
           guint32       active,
           const gint64 *addr,
           GError      **error)
{
  switch (site->keep)
    {
    case WK_KEEP_NEVER:
      return TRUE;
    case WK_KEEP_ONCE:
      {
        guint32 *seen = &w->masks[site->seen];
        guint32 fresh = active & ~*seen;
        *seen |= active;
        return fresh == 0 || emit_event (b, w, in, fresh, addr, error);
      }
    case WK_KEEP_EVERY:
    default:
      return emit_event (b, w, in, active, addr, error);
    }
}

WK_LANE_LOOPS gboolean
wkv_do_load (Block        *b,
             Warp         *w,
             const WkInsn *in,
             GError      **error)
{
  const WkSite *site = &g_array_index (b->prog->sites, WkSite, in->imm);
  const WkArray *a = g_ptr_array_index (b->prog->arrays, site->array);
  const WkSlot *A = reg (b, w, in->a);
  guint32 active = w->cur;
  gint64 addr[WK_LANES];

  if (active == 0)
    return TRUE;
  LANES addr[l] = A[l].i + in->imm2;
  if (!check_access (b, w, site, active, addr, error) || !emit_kept (b, w, in, site, active, addr, error))
    return FALSE;
  if (a->space == WS_SPACE_SHARED && site->n_leaves == 1)
    {
      /* the common case: one number from shared memory */
      const guint8 *base = b->shared + a->shared_offset;
      WkSlot *D = reg (b, w, in->dst);
      WkTypeKind kind = site->leaves[0].kind;
      for (guint l = 0; l < WK_LANES; l++)
        if (active & (1u << l))
          D[l] = read_scalar (base + addr[l], kind);
      return TRUE;
    }
  for (guint l = 0; l < WK_LANES; l++)
    {
      const guint8 *p;
      if (!(active & (1u << l)))
        continue;
      p = locate (b, w, a, site->array, l, addr[l]);
      for (guint k = 0; k < site->n_leaves; k++)
        reg (b, w, in->dst + k)[l] = read_scalar (p + site->leaves[k].offset, site->leaves[k].kind);
    }
  return TRUE;
}

WK_LANE_LOOPS gboolean
wkv_do_store (Block        *b,
              Warp         *w,
              const WkInsn *in,
              GError      **error)
{
  const WkSite *site = &g_array_index (b->prog->sites, WkSite, in->imm);
  const WkArray *a = g_ptr_array_index (b->prog->arrays, site->array);
  const WkSlot *A = reg (b, w, in->a);
  guint32 active = w->cur;
  gint64 addr[WK_LANES];

  if (active == 0)
    return TRUE;
  LANES addr[l] = A[l].i + in->imm2;
  if (!check_access (b, w, site, active, addr, error) || !emit_kept (b, w, in, site, active, addr, error))
    return FALSE;
  /* lanes in order: where two write one address, the higher lane's value stays */
  for (guint l = 0; l < WK_LANES; l++)
    {
      guint8 *p;
      if (!(active & (1u << l)))
        continue;
      p = locate (b, w, a, site->array, l, addr[l]);
      for (guint k = 0; k < site->n_leaves; k++)
        write_scalar (p + site->leaves[k].offset, site->leaves[k].kind, reg (b, w, in->b + k)[l]);
    }
  return TRUE;
}

static WkSlot
atomic_apply (WkBuiltinFn fn,
              WkTypeKind  kind,
              WkSlot      old,
              WkSlot      v,
              WkSlot      cmp_or_val)
{
  const WkType *t = WK_TYPE (kind);
  WkArith ac = wk_type_arith (t);
  WkStorage sc = wk_type_storage (t);
  gboolean trap = FALSE;
  WkSlot r;

  switch (fn)
    {
    case WK_BF_ATOMIC_ADD: r = wk_binary_one (WK_OP_ADD, ac, old, v, &trap); break;
    case WK_BF_ATOMIC_SUB: r = wk_binary_one (WK_OP_SUB, ac, old, v, &trap); break;
    case WK_BF_ATOMIC_MIN: r = wk_binary_one (WK_OP_LT, ac, v, old, &trap).i ? v : old; break;
    case WK_BF_ATOMIC_MAX: r = wk_binary_one (WK_OP_GT, ac, v, old, &trap).i ? v : old; break;
    case WK_BF_ATOMIC_EXCH: r = v; break;
    case WK_BF_ATOMIC_CAS: r = old.u == v.u ? cmp_or_val : old; break;
    case WK_BF_ATOMIC_AND: r = wk_binary_one (WK_OP_BITAND, ac, old, v, &trap); break;
    case WK_BF_ATOMIC_OR: r = wk_binary_one (WK_OP_BITOR, ac, old, v, &trap); break;
    case WK_BF_ATOMIC_XOR: r = wk_binary_one (WK_OP_BITXOR, ac, old, v, &trap); break;
    case WK_BF_ATOMIC_INC: r.i = (guint32) old.i >= (guint32) v.i ? 0 : old.i + 1; break;
    case WK_BF_ATOMIC_DEC: r.i = (old.i == 0 || (guint32) old.i > (guint32) v.i) ? v.i : old.i - 1; break;
    default: r = old; break;
    }
  if (sc != WK_SC_F32 && sc != WK_SC_F64)
    r.i = wk_norm_int (sc, r.i);
  return r;
}

gboolean
wkv_do_atomic (Block        *b,
               Warp         *w,
               const WkInsn *in,
               GError      **error)
{
  const WkSite *site = &g_array_index (b->prog->sites, WkSite, in->imm);
  const WkArray *a = g_ptr_array_index (b->prog->arrays, site->array);
  const WkSlot *A = reg (b, w, in->a);
  const WkSlot *V = reg (b, w, in->b);
  const WkSlot *C = in->c != WK_NONE ? reg (b, w, in->c) : V;
  WkSlot *D = reg (b, w, in->dst);
  guint32 active = w->cur;
  gint64 addr[WK_LANES];
  WkTypeKind kind = site->leaves[0].kind;

  if (active == 0)
    return TRUE;
  LANES addr[l] = A[l].i + in->imm2;
  if (!check_access (b, w, site, active, addr, error) || !emit_event (b, w, in, active, addr, error))
    return FALSE;
  b->run->counts->atomics++;
  /* one lane after another, in lane order: each sees the ones before */
  for (guint l = 0; l < WK_LANES; l++)
    {
      guint8 *p;
      WkSlot old;
      if (!(active & (1u << l)))
        continue;
      p = locate (b, w, a, site->array, l, addr[l]);
      old = read_scalar (p, kind);
      write_scalar (p, kind, atomic_apply (in->sub, kind, old, V[l], C[l]));
      D[l] = old;
    }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Lane operations                                                    */
/* ------------------------------------------------------------------ */

#define BIN_CASE(OP, AC)                                                                         \
  case (OP) * WK_N_ACS + (AC):                                                                   \
    LANES { gboolean t_ = FALSE; D[l] = wk_binary_one ((OP), (AC), A[l], B[l], &t_); }           \
    break;

#define BIN_CASES(OP)                                                                            \
  BIN_CASE (OP, WK_AC_I32) BIN_CASE (OP, WK_AC_U32) BIN_CASE (OP, WK_AC_I64)                    \
  BIN_CASE (OP, WK_AC_U64) BIN_CASE (OP, WK_AC_F32) BIN_CASE (OP, WK_AC_F64)

#define INT_BIN_CASES(OP)                                                                        \
  BIN_CASE (OP, WK_AC_I32) BIN_CASE (OP, WK_AC_U32) BIN_CASE (OP, WK_AC_I64) BIN_CASE (OP, WK_AC_U64)

static inline WkSlot
minmax_one (gboolean max,
            WkArith  ac,
            WkSlot   a,
            WkSlot   b)
{
  gboolean t = FALSE;

  if (ac == WK_AC_F32)
    {
      WkSlot r;
      r.u = 0;
      r.f = max ? fmaxf (a.f, b.f) : fminf (a.f, b.f);
      return r;
    }
  if (ac == WK_AC_F64)
    {
      WkSlot r;
      r.d = max ? fmax (a.d, b.d) : fmin (a.d, b.d);
      return r;
    }
  return wk_binary_one (max ? WK_OP_GT : WK_OP_LT, ac, a, b, &t).i ? a : b;
}

WK_LANE_LOOPS /* What nvcc 13 makes of an integer division or remainder for sm_90 (-O3;
 * the SASS counted instruction by instruction, a warp instruction each):
 * by a power of two known when compiling, a shift or a mask (three or four
 * with the sign's correction); by another constant, a multiplication by
 * its inverse and a shift; by a variable, a reciprocal in floating point
 * (I2F, MUFU.RCP, F2I) refined by multiplications, about 17 for unsigned
 * and 21 for signed 32-bit values. A 64-bit one tests whether both values
 * fit in 32 bits and takes that path, or calls a routine of about 70. */
guint
wkv_bin_cost (Block        *b,
              Warp         *w,
              const WkInsn *in)
{
  gboolean sign = in->ac == WK_AC_I32 || in->ac == WK_AC_I64;
  gboolean wide = in->ac == WK_AC_I64 || in->ac == WK_AC_U64;
  gboolean mod = in->sub == WK_OP_MOD;
  const WkSlot *A = reg (b, w, in->a), *B = reg (b, w, in->b);

  if ((in->sub != WK_OP_DIV && in->sub != WK_OP_MOD) || in->ac == WK_AC_F32 || in->ac == WK_AC_F64)
    return 1;
  if (in->imm != 0)
    {
      /* a constant divisor: the same in every lane */
      guint64 d = sign ? (guint64) ABS (B[0].i) : B[0].u;

      if (!wide)
        d &= G_MAXUINT32;
      if (d != 0 && (d & (d - 1)) == 0)
        return sign ? 3 + mod : 1;
      return (wide ? 14 : 4) + mod + (sign ? 1 + wide * 3 : 0);
    }
  if (!wide)
    return sign ? 23 - 2 * mod : 18 - mod;
  LANES
    if ((w->cur >> l & 1) && ((A[l].u | B[l].u) >> 32) != 0)
      return sign ? 92 : 77;
  return 25;
}

gboolean
wkv_do_bin (Block        *b,
            Warp         *w,
            const WkInsn *in,
            GError      **error)
{
  WkSlot *D = reg (b, w, in->dst);
  const WkSlot *A = reg (b, w, in->a);
  const WkSlot *B = reg (b, w, in->b);
  WkArith ac = in->ac;

  if (in->sub == WK_SUB_MIN || in->sub == WK_SUB_MAX)
    {
      gboolean max = in->sub == WK_SUB_MAX;
      LANES D[l] = minmax_one (max, ac, A[l], B[l]);
      return TRUE;
    }
  if ((in->sub == WK_OP_DIV || in->sub == WK_OP_MOD) && ac != WK_AC_F32 && ac != WK_AC_F64)
    {
      /* division by zero traps only where a lane asks for it (a fill, with no error to
       * give, gets 0 there, the same on the host) */
      guint32 zero = 0;
      LANES zero |= (guint32) (B[l].i == 0) << l;
      zero &= w->cur;
      if (zero != 0 && error != NULL)
        {
          guint lane = (guint) g_bit_nth_lsf (zero, -1);
          RUN_FAIL (error, b, w, lane, in->src, _("integer division by zero"));
          return FALSE;
        }
    }
  switch (in->sub * WK_N_ACS + ac)
    {
      BIN_CASES (WK_OP_ADD)
      BIN_CASES (WK_OP_SUB)
      BIN_CASES (WK_OP_MUL)
      BIN_CASES (WK_OP_DIV)
      BIN_CASES (WK_OP_LT)
      BIN_CASES (WK_OP_GT)
      BIN_CASES (WK_OP_LE)
      BIN_CASES (WK_OP_GE)
      BIN_CASES (WK_OP_EQ)
      BIN_CASES (WK_OP_NE)
      INT_BIN_CASES (WK_OP_MOD)
      INT_BIN_CASES (WK_OP_BITAND)
      INT_BIN_CASES (WK_OP_BITOR)
      INT_BIN_CASES (WK_OP_BITXOR)
    default:
      g_assert_not_reached ();
    }
  return TRUE;
}

WK_LANE_LOOPS void
wkv_do_shift (Block        *b,
              Warp         *w,
              const WkInsn *in)
{
  WkSlot *D = reg (b, w, in->dst);
  const WkSlot *A = reg (b, w, in->a);
  const WkSlot *B = reg (b, w, in->b);
  gboolean left = in->sub == WK_OP_SHL;

  switch (in->ac)
    {
    case WK_AC_I32: LANES D[l] = wk_shift_one (left, WK_AC_I32, A[l], B[l].i); break;
    case WK_AC_U32: LANES D[l] = wk_shift_one (left, WK_AC_U32, A[l], B[l].i); break;
    case WK_AC_I64: LANES D[l] = wk_shift_one (left, WK_AC_I64, A[l], B[l].i); break;
    default: LANES D[l] = wk_shift_one (left, WK_AC_U64, A[l], B[l].i); break;
    }
}


WK_LANE_LOOPS void
wkv_do_unary (Block        *b,
              Warp         *w,
              const WkInsn *in)
{
  WkSlot *D = reg (b, w, in->dst);
  const WkSlot *A = reg (b, w, in->a);
  WkArith ac = in->ac;

  switch (in->sub)
    {
    case WK_OP_LNOT:
      LANES D[l].i = !nonzero (ac, A[l]);
      break;
    case WK_SUB_ABS:
      if (ac == WK_AC_F32)
        LANES { D[l].u = 0; D[l].f = fabsf (A[l].f); }
      else if (ac == WK_AC_F64)
        LANES D[l].d = fabs (A[l].d);
      else
        LANES D[l] = (A[l].i < 0 && ac != WK_AC_U32 && ac != WK_AC_U64) ? wk_unary_one (WK_OP_NEG, ac, A[l]) : A[l];
      break;
    default:
      LANES D[l] = wk_unary_one (in->sub, ac, A[l]);
      break;
    }
}

#define CVT_CASE(AC, SC) \
  case (AC) * WK_N_SCS + (SC): LANES D[l] = wk_convert_one ((AC), (SC), A[l]); break;
#define CVT_CASES(AC) \
  CVT_CASE (AC, WK_SC_BOOL) CVT_CASE (AC, WK_SC_I8) CVT_CASE (AC, WK_SC_U8) CVT_CASE (AC, WK_SC_I16) \
  CVT_CASE (AC, WK_SC_U16) CVT_CASE (AC, WK_SC_I32) CVT_CASE (AC, WK_SC_U32) CVT_CASE (AC, WK_SC_I64) \
  CVT_CASE (AC, WK_SC_U64) CVT_CASE (AC, WK_SC_F32) CVT_CASE (AC, WK_SC_F64)

WK_LANE_LOOPS void
wkv_do_convert (Block        *b,
                Warp         *w,
                const WkInsn *in)
{
  WkSlot *D = reg (b, w, in->dst);
  const WkSlot *A = reg (b, w, in->a);

  switch (in->ac * WK_N_SCS + in->sub)
    {
      CVT_CASES (WK_AC_I32)
      CVT_CASES (WK_AC_U32)
      CVT_CASES (WK_AC_I64)
      CVT_CASES (WK_AC_U64)
      CVT_CASES (WK_AC_F32)
      CVT_CASES (WK_AC_F64)
    default:
      g_assert_not_reached ();
    }
}

static double
math1 (WkMathFn f,
       double   x,
       gboolean single)
{
  switch (f)
    {
    case WK_M_SQRT: return single ? sqrtf ((float) x) : sqrt (x);
    case WK_M_RSQRT: return single ? 1.0f / sqrtf ((float) x) : 1.0 / sqrt (x);
    case WK_M_EXP: return single ? expf ((float) x) : exp (x);
    case WK_M_EXP2: return single ? exp2f ((float) x) : exp2 (x);
    case WK_M_EXP10: return single ? powf (10.0f, (float) x) : pow (10.0, x);
    case WK_M_LOG: return single ? logf ((float) x) : log (x);
    case WK_M_LOG2: return single ? log2f ((float) x) : log2 (x);
    case WK_M_LOG10: return single ? log10f ((float) x) : log10 (x);
    case WK_M_SIN: return single ? sinf ((float) x) : sin (x);
    case WK_M_COS: return single ? cosf ((float) x) : cos (x);
    case WK_M_TAN: return single ? tanf ((float) x) : tan (x);
    case WK_M_TANH: return single ? tanhf ((float) x) : tanh (x);
    case WK_M_ASIN: return single ? asinf ((float) x) : asin (x);
    case WK_M_ACOS: return single ? acosf ((float) x) : acos (x);
    case WK_M_ATAN: return single ? atanf ((float) x) : atan (x);
    case WK_M_FLOOR: return floor (x);
    case WK_M_CEIL: return ceil (x);
    case WK_M_ROUND: return round (x);
    case WK_M_TRUNC: return trunc (x);
    case WK_M_RINT: return nearbyint (x);
    case WK_M_CBRT: return single ? cbrtf ((float) x) : cbrt (x);
    case WK_M_RCP: return single ? 1.0f / (float) x : 1.0 / x;
    case WK_M_SATURATE: return isnan (x) ? 0 : x < 0 ? 0 : x > 1 ? 1 : x;
    default: return x;
    }
}

static double
math2 (WkMathFn f,
       double   x,
       double   y,
       gboolean single)
{
  switch (f)
    {
    case WK_M_POW: return single ? powf ((float) x, (float) y) : pow (x, y);
    case WK_M_FMOD: return single ? fmodf ((float) x, (float) y) : fmod (x, y);
    case WK_M_ATAN2: return single ? atan2f ((float) x, (float) y) : atan2 (x, y);
    case WK_M_DIV: return single ? (float) x / (float) y : x / y;
    case WK_M_COPYSIGN: return copysign (x, y);
    case WK_M_HYPOT: return single ? hypotf ((float) x, (float) y) : hypot (x, y);
    case WK_M_FDIM: return single ? fdimf ((float) x, (float) y) : fdim (x, y);
    default: return x;
    }
}

void
wkv_do_math (Block        *b,
             Warp         *w,
             const WkInsn *in)
{
  WkSlot *D = reg (b, w, in->dst);
  const WkSlot *A = reg (b, w, in->a);
  const WkSlot *B = in->b != WK_NONE ? reg (b, w, in->b) : A;
  const WkSlot *C = in->c != WK_NONE ? reg (b, w, in->c) : A;
  gboolean single = in->ac == WK_AC_F32;

  for (guint l = 0; l < WK_LANES; l++)
    {
      double x = single ? A[l].f : A[l].d;
      double y = single ? B[l].f : B[l].d;
      double r;

      if (in->op == WK_I_MATH1)
        r = math1 (in->sub, x, single);
      else if (in->op == WK_I_MATH2)
        r = math2 (in->sub, x, y, single);
      else
        r = single ? fmaf (A[l].f, B[l].f, C[l].f) : fma (A[l].d, B[l].d, C[l].d);
      D[l].u = 0;
      if (single)
        D[l].f = (float) r;
      else
        D[l].d = r;
    }
}

void
wkv_do_f2i (Block        *b,
            Warp         *w,
            const WkInsn *in)
{
  WkSlot *D = reg (b, w, in->dst);
  const WkSlot *A = reg (b, w, in->a);

  for (guint l = 0; l < WK_LANES; l++)
    {
      double x = in->ac == WK_AC_F32 ? A[l].f : A[l].d;
      switch (in->sub)
        {
        case WK_ROUND_NEAREST: x = nearbyint (x); break;
        case WK_ROUND_DOWN: x = floor (x); break;
        case WK_ROUND_UP: x = ceil (x); break;
        default: x = trunc (x); break;
        }
      D[l].i = wk_float_to_int (x, in->imm);
    }
}

void
wkv_do_bitcast (Block        *b,
                Warp         *w,
                const WkInsn *in)
{
  WkSlot *D = reg (b, w, in->dst);
  const WkSlot *A = reg (b, w, in->a);

  for (guint l = 0; l < WK_LANES; l++)
    {
      WkSlot v = A[l];
      if (in->ac == WK_AC_F32)
        {
          guint32 bits;
          memcpy (&bits, &v.f, 4);
          D[l].i = in->sub == WK_SC_I32 ? (gint64) (gint32) bits : (gint64) bits;
        }
      else if (in->ac == WK_AC_F64)
        D[l].u = v.u;
      else if (in->sub == WK_SC_F32)
        {
          guint32 bits = (guint32) v.i;
          D[l].u = 0;
          memcpy (&D[l].f, &bits, 4);
        }
      else
        D[l].u = v.u;
    }
}

void
wkv_do_bits (Block        *b,
             Warp         *w,
             const WkInsn *in)
{
  WkSlot *D = reg (b, w, in->dst);
  const WkSlot *A = reg (b, w, in->a);

  for (guint l = 0; l < WK_LANES; l++)
    {
      guint32 x = (guint32) A[l].u;
      guint64 y = A[l].u;
      switch (in->sub)
        {
        case WK_BF_POPC: D[l].i = __builtin_popcount (x); break;
        case WK_BF_POPCLL: D[l].i = __builtin_popcountll (y); break;
        case WK_BF_CLZ: D[l].i = x == 0 ? 32 : __builtin_clz (x); break;
        case WK_BF_CLZLL: D[l].i = y == 0 ? 64 : __builtin_clzll (y); break;
        case WK_BF_FFS: D[l].i = __builtin_ffs ((int) x); break;
        case WK_BF_FFSLL: D[l].i = __builtin_ffsll ((long long) y); break;
        default:
          {
            guint32 r = 0;
            for (guint k = 0; k < 32; k++)
              r |= ((x >> k) & 1u) << (31 - k);
            D[l].i = r;
          }
        }
    }
}

void
wkv_do_mulhi (Block        *b,
              Warp         *w,
              const WkInsn *in)
{
  WkSlot *D = reg (b, w, in->dst);
  const WkSlot *A = reg (b, w, in->a);
  const WkSlot *B = reg (b, w, in->b);

  for (guint l = 0; l < WK_LANES; l++)
    switch (in->sub)
      {
      case WK_BF_MULHI: D[l].i = (gint32) (((gint64) (gint32) A[l].i * (gint32) B[l].i) >> 32); break;
      case WK_BF_UMULHI: D[l].i = (guint32) (((guint64) (guint32) A[l].u * (guint32) B[l].u) >> 32); break;
      case WK_BF_MUL24:
        {
          gint64 x = ((gint32) ((guint32) A[l].i << 8)) >> 8, y = ((gint32) ((guint32) B[l].i << 8)) >> 8;
          D[l].i = (gint32) (guint32) (guint64) (x * y);
          break;
        }
      default: D[l].i = (guint32) (((guint32) A[l].u & 0xffffff) * ((guint32) B[l].u & 0xffffff)); break;
      }
}

guint64
wk_random (gint64 seed,
           gint64 index)
{
  /* splitmix64 of the seed and the index: the same on every machine */
  guint64 z = (guint64) seed * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15) + (guint64) index * 2 + 1;
  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94D049BB133111EB);
  z ^= z >> 31;
  return z >> 33;
}

gboolean
wkv_do_shfl (Block        *b,
             Warp         *w,
             const WkInsn *in,
             GError      **error)
{
  WkSlot *D = reg (b, w, in->dst);
  const WkSlot *V = reg (b, w, in->a);
  const WkSlot *L = reg (b, w, in->b);
  const WkSlot *W = reg (b, w, in->c);
  WkSlot out[WK_LANES];

  b->run->counts->shuffles++;
  for (guint l = 0; l < WK_LANES; l++)
    {
      gint64 width = W[l].i;
      gint64 seg, src;

      out[l] = V[l];
      if (!(w->cur & (1u << l)))
        continue;
      if (width < 1 || width > 32 || (width & (width - 1)) != 0)
        {
          RUN_FAIL (error, b, w, l, in->src, _("the width of a shuffle must be a power of two from 1 to 32, not %lld"),
                    (long long) width);
          return FALSE;
        }
      seg = l & ~(width - 1);
      switch (in->sub)
        {
        case WK_SHFL_IDX: src = seg + (L[l].i & (width - 1)); break;
        case WK_SHFL_UP: src = (gint64) l - (gint64) (guint32) L[l].i; if (src < seg) src = l; break;
        case WK_SHFL_DOWN: src = (gint64) l + (gint64) (guint32) L[l].i; if (src >= seg + width) src = l; break;
        default: src = l ^ (L[l].i & 31); if (src >= seg + width) src = l; break;
        }
      out[l] = V[src];
    }
  memcpy (D, out, sizeof out);
  return TRUE;
}

void
wkv_do_vote (Block        *b,
             Warp         *w,
             const WkInsn *in)
{
  WkSlot *D = reg (b, w, in->dst);
  guint32 mask = w->cur, pred = 0, r;

  b->run->counts->votes++;
  if (in->a != WK_NONE && w->cur != 0)
    mask &= (guint32) reg (b, w, in->a)[g_bit_nth_lsf (w->cur, -1)].u;
  if (in->b != WK_NONE)
    {
      const WkSlot *P = reg (b, w, in->b);
      LANES pred |= (guint32) (P[l].i != 0) << l;
    }
  switch (in->sub)
    {
    case WK_BF_BALLOT: r = mask & pred; break;
    case WK_BF_ANY: r = (mask & pred) != 0; break;
    case WK_BF_ALL: r = (mask & ~pred) == 0; break;
    default: r = w->cur; break;
    }
  LANES D[l].i = r;
}

