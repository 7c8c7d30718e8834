/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The SIMT virtual machine: runs a compiled kernel block by block, each
 * block's warps as resumable contexts (a program counter, masks and
 * registers): warp 0 until its next __syncthreads () or its end, then warp
 * 1, and so on, then the next stretch, so that what a block writes to
 * shared memory before a barrier is there after it, as on the GPU. Global
 * memory lives on across blocks. Every memory instruction with an active
 * lane is checked (bounds, alignment) before it touches memory, and handed
 * to the visitor: the model counts it. */
#include "ws-config.h"
#include "ws-kernel-vm.h"
#include "ws-i18n.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* The lane loops, built for AVX2 as well as the baseline, picked at run
 * time (as ws-program.c's are). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define WK_LANE_LOOPS __attribute__ ((target_clones ("avx2", "default")))
#else
#define WK_LANE_LOOPS
#endif

#define LANES for (guint l = 0; l < WK_LANES; l++)

typedef struct
{
  WkSlot *regs;
  guint32 *masks;
  guint8 *local;
  guint32 cur;
  guint32 valid;
  guint pc;
  gboolean done;
  guint64 instructions;         /* arithmetic and memory, for the longest warp */
} Warp;

typedef struct
{
  WkRun *run;
  const WkProgram *prog;
  guint threads;
  guint n_warps;
  Warp *warps;
  WkSlot *reg_block;
  guint32 *mask_block;
  guint8 *local_block;
  guint8 *shared;
  WsDim3 block_idx;
  guint64 block_linear;
  guint64 loop_checks;
} Block;

typedef enum
{
  RUN_YIELD,
  RUN_DONE,
  RUN_ERROR,
} RunResult;

/* A warp's registers, then the program's constants copied after them, so
 * that every operand is found the same way. */
static inline WkSlot *
reg (const Block *b,
     Warp        *w,
     guint32      i)
{
  (void) b;
  return w->regs + (gsize) i * WK_LANES;
}

void
wk_program_load_consts (const WkProgram *prog,
                        WkSlot          *regs)
{
  memcpy (regs + (gsize) prog->n_rw * WK_LANES, prog->consts, sizeof (WkSlot) * WK_LANES * prog->n_const);
}

/* The lanes whose value is not zero, as a mask: bytes first (a loop that
 * vectorises), then eight bytes of 0 or 1 at a time into bits. */
static inline guint32
lanes_nonzero (const WkSlot *A)
{
  guint8 t[WK_LANES];
  guint32 m = 0;

  for (guint l = 0; l < WK_LANES; l++)
    t[l] = A[l].i != 0;
  for (guint k = 0; k < WK_LANES / 8; k++)
    {
      guint64 x;
      memcpy (&x, t + 8 * k, 8);
      m |= (guint32) ((x * G_GUINT64_CONSTANT (0x0102040810204080)) >> 56) << (8 * k);
    }
  return m;
}

/* D = A on the lanes of m, without a branch per lane. */
static inline void
move_masked (WkSlot       *restrict D,
             const WkSlot *A,
             guint32       m)
{
  if (m == 0xffffffffu)
    {
      memcpy (D, A, sizeof (WkSlot) * WK_LANES);
      return;
    }
  for (guint l = 0; l < WK_LANES; l++)
    {
      guint64 k = -(guint64) ((m >> l) & 1);
      D[l].u = (A[l].u & k) | (D[l].u & ~k);
    }
}

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

/* "line 12: <message> (block (3, 0, 0), thread (5, 2, 0))" into error. */
#define RUN_FAIL(error, b, w, lane, offset, ...)                                              \
  G_STMT_START                                                                                \
  {                                                                                           \
    g_autofree char *what_ = g_strdup_printf (__VA_ARGS__);                                   \
    guint line_, column_, x_, y_, z_;                                                         \
    wk_position ((b)->prog->text, (b)->prog->text_len, (offset), &line_, &column_);           \
    thread_of ((b), (guint) ((w) - (b)->warps), (lane), &x_, &y_, &z_);                       \
    g_set_error ((error), WS_KERNEL_ERROR, WS_KERNEL_ERROR_RUN,                               \
                 _("line %u: %s (block (%u, %u, %u), thread (%u, %u, %u))"), line_, what_,    \
                 (b)->block_idx.x, (b)->block_idx.y, (b)->block_idx.z, x_, y_, z_);           \
  }                                                                                           \
  G_STMT_END

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
  w->instructions++;
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

WK_LANE_LOOPS static gboolean
do_load (Block        *b,
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
  if (!check_access (b, w, site, active, addr, error) || !emit_event (b, w, in, active, addr, error))
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

WK_LANE_LOOPS static gboolean
do_store (Block        *b,
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
  if (!check_access (b, w, site, active, addr, error) || !emit_event (b, w, in, active, addr, error))
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

static gboolean
do_atomic (Block        *b,
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

WK_LANE_LOOPS static gboolean
do_bin (Block        *b,
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

WK_LANE_LOOPS static void
do_shift (Block        *b,
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

static inline gboolean
nonzero (WkArith ac,
         WkSlot  v)
{
  return ac == WK_AC_F32 ? v.f != 0 : ac == WK_AC_F64 ? v.d != 0 : v.i != 0;
}

WK_LANE_LOOPS static void
do_unary (Block        *b,
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

WK_LANE_LOOPS static void
do_convert (Block        *b,
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

static void
do_math (Block        *b,
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

static void
do_f2i (Block        *b,
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

static void
do_bitcast (Block        *b,
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

static void
do_bits (Block        *b,
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

static void
do_mulhi (Block        *b,
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

guint64 wk_random (gint64 seed, gint64 index);

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

static gboolean
do_shfl (Block        *b,
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

static void
do_vote (Block        *b,
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

/* ------------------------------------------------------------------ */
/* Running a warp                                                     */
/* ------------------------------------------------------------------ */

static gboolean
loop_step (Block        *b,
           Warp         *w,
           const WkInsn *in,
           GError      **error)
{
  WkRun *run = b->run;

  run->counts->loop_iterations++;
  if (run->loop_iterations != NULL)
    run->loop_iterations[in->imm]++;
  if (run->steps > run->step_limit)
    {
      const WkLoopInfo *loop = &g_array_index (b->prog->loops, WkLoopInfo, in->imm);
      guint line, column;
      wk_position (b->prog->text, b->prog->text_len, loop->start, &line, &column);
      g_set_error (error, WS_KERNEL_ERROR, WS_KERNEL_ERROR_LIMIT,
                   _("line %u: the launch has run more than %llu steps, in this “%s” loop when it stopped (block "
                     "(%u, %u, %u)): it may never end; if it is meant to run this long, raise the limit with "
                     "“steps = …” in the launch comment"),
                   line, (unsigned long long) run->step_limit, loop->keyword, b->block_idx.x, b->block_idx.y,
                   b->block_idx.z);
      return FALSE;
    }
  if ((++b->loop_checks & 0xfff) == 0 && g_cancellable_set_error_if_cancelled (run->cancellable, error))
    return FALSE;
  (void) w;
  return TRUE;
}

WK_LANE_LOOPS static RunResult
run_warp (Block   *b,
          Warp    *w,
          GError **error)
{
  const WkInsn *code = (const WkInsn *) b->prog->code->data;
  WkRun *run = b->run;
  guint64 steps = 0;
  RunResult result = RUN_ERROR;

  for (;;)
    {
      const WkInsn *in = &code[w->pc++];
      steps++;
      switch (in->op)
        {
        case WK_I_NOP:
          break;
        case WK_I_MOV:
          memcpy (reg (b, w, in->dst), reg (b, w, in->a), sizeof (WkSlot) * WK_LANES);
          break;
        case WK_I_MOVM:
          move_masked (reg (b, w, in->dst), reg (b, w, in->a), w->cur);
          break;
        case WK_I_BIN:
          w->instructions++;
          if (!do_bin (b, w, in, error))
            goto out;
          break;
        case WK_I_SHIFT:
          w->instructions++;
          do_shift (b, w, in);
          break;
        case WK_I_ADDR:
          {
            WkSlot *D = reg (b, w, in->dst);
            const WkSlot *A = reg (b, w, in->a), *B = reg (b, w, in->b);
            guint64 scale = (guint64) in->imm2;
            LANES D[l].u = A[l].u + B[l].u * scale;
            w->instructions++;
            break;
          }
        case WK_I_UN:
          w->instructions++;
          do_unary (b, w, in);
          break;
        case WK_I_TRUTH:
          {
            WkSlot *D = reg (b, w, in->dst);
            const WkSlot *A = reg (b, w, in->a);
            WkArith ac = in->ac;
            LANES D[l].i = nonzero (ac, A[l]);
            w->instructions++;
            break;
          }
        case WK_I_CVT:
          w->instructions++;
          do_convert (b, w, in);
          break;
        case WK_I_BITCAST:
          do_bitcast (b, w, in);
          break;
        case WK_I_SELECT:
          {
            WkSlot *D = reg (b, w, in->dst);
            const WkSlot *A = reg (b, w, in->a), *B = reg (b, w, in->b), *C = reg (b, w, in->c);
            LANES D[l] = C[l].i ? A[l] : B[l];
            w->instructions++;
            break;
          }
        case WK_I_MATH1:
        case WK_I_MATH2:
        case WK_I_FMA:
          w->instructions++;
          do_math (b, w, in);
          break;
        case WK_I_F2I:
          w->instructions++;
          do_f2i (b, w, in);
          break;
        case WK_I_BITS:
          w->instructions++;
          do_bits (b, w, in);
          break;
        case WK_I_MULHI:
          w->instructions++;
          do_mulhi (b, w, in);
          break;
        case WK_I_RANDOM:
          {
            WkSlot *D = reg (b, w, in->dst);
            const WkSlot *A = reg (b, w, in->a), *B = reg (b, w, in->b);
            LANES D[l].i = (gint64) wk_random (A[l].i, B[l].i);
            break;
          }
        case WK_I_LANEID:
          {
            WkSlot *D = reg (b, w, in->dst);
            LANES D[l].i = l;
            break;
          }
        case WK_I_LD:
          if (!do_load (b, w, in, error))
            goto out;
          break;
        case WK_I_ST:
          if (!do_store (b, w, in, error))
            goto out;
          break;
        case WK_I_ATOM:
          if (!do_atomic (b, w, in, error))
            goto out;
          break;
        case WK_I_SHFL:
          w->instructions++;
          if (!do_shfl (b, w, in, error))
            goto out;
          break;
        case WK_I_VOTE:
          w->instructions++;
          do_vote (b, w, in);
          break;
        case WK_I_JMP:
          w->pc = in->imm;
          break;
        case WK_I_JZ:
          if (w->cur == 0)
            w->pc = in->imm;
          break;
        case WK_I_MSAVE:
          w->masks[in->imm] = w->cur;
          break;
        case WK_I_MLOAD:
          w->cur = w->masks[in->imm];
          break;
        case WK_I_MZERO:
          w->masks[in->imm] = 0;
          break;
        case WK_I_MAND:
        case WK_I_MSPLIT:
        case WK_I_MCOND:
          {
            guint32 t = lanes_nonzero (reg (b, w, in->a));
            if (in->op == WK_I_MSPLIT)
              w->masks[in->imm] = w->cur & ~t;
            if (in->op == WK_I_MCOND)
              w->masks[in->imm] = w->cur & t;
            else
              w->cur &= t;
            break;
          }
        case WK_I_MOR:
          w->cur |= w->masks[in->imm];
          break;
        case WK_I_MANDNOT:
          w->cur &= ~w->masks[in->imm];
          break;
        case WK_I_MEXIT:
          w->masks[in->imm] |= w->cur;
          w->cur = 0;
          break;
        case WK_I_MREJOIN:
          {
            guint32 out_lanes = 0;
            if (in->a != WK_NONE)
              out_lanes |= w->masks[in->a];
            if (in->b != WK_NONE)
              out_lanes |= w->masks[in->b];
            if (in->c != WK_NONE)
              out_lanes |= w->masks[in->c];
            w->cur = w->masks[in->imm] & ~out_lanes;
            break;
          }
        case WK_I_LOOP:
          run->steps += steps;
          steps = 0;
          if (!loop_step (b, w, in, error))
            goto out;
          break;
        case WK_I_BAR:
          result = RUN_YIELD;
          goto out;
        case WK_I_SYNCWARP:
          run->counts->syncwarps++;
          break;
        case WK_I_FENCE:
          run->counts->fences[in->imm]++;
          break;
        case WK_I_TRAP:
          break;
        case WK_I_EXIT:
          w->done = TRUE;
          result = RUN_DONE;
          goto out;
#define BINX_CASE(OP, AC)                                                                        \
        case WK_I_BINX (OP, AC):                                                                 \
          {                                                                                      \
            WkSlot *restrict D = reg (b, w, in->dst);                                            \
            const WkSlot *A = reg (b, w, in->a), *B = reg (b, w, in->b);                         \
            LANES { gboolean t_ = FALSE; D[l] = wk_binary_one ((OP), (AC), A[l], B[l], &t_); }   \
            w->instructions++;                                                                   \
            break;                                                                               \
          }
#define BINX_CASES(OP)                                                                           \
        BINX_CASE (OP, WK_AC_I32) BINX_CASE (OP, WK_AC_U32) BINX_CASE (OP, WK_AC_I64)             \
        BINX_CASE (OP, WK_AC_U64) BINX_CASE (OP, WK_AC_F32) BINX_CASE (OP, WK_AC_F64)
#define BINX_INT_CASES(OP)                                                                       \
        BINX_CASE (OP, WK_AC_I32) BINX_CASE (OP, WK_AC_U32) BINX_CASE (OP, WK_AC_I64) BINX_CASE (OP, WK_AC_U64)
        BINX_CASES (WK_OP_ADD)
        BINX_CASES (WK_OP_SUB)
        BINX_CASES (WK_OP_MUL)
        BINX_CASES (WK_OP_LT)
        BINX_CASES (WK_OP_GT)
        BINX_CASES (WK_OP_LE)
        BINX_CASES (WK_OP_GE)
        BINX_CASES (WK_OP_EQ)
        BINX_CASES (WK_OP_NE)
        BINX_CASE (WK_OP_DIV, WK_AC_F32)
        BINX_CASE (WK_OP_DIV, WK_AC_F64)
        BINX_INT_CASES (WK_OP_BITAND)
        BINX_INT_CASES (WK_OP_BITOR)
        BINX_INT_CASES (WK_OP_BITXOR)
#undef BINX_CASE
#undef BINX_CASES
#undef BINX_INT_CASES
        case WK_N_INSNS:
        default:
          g_assert_not_reached ();
        }
    }

out:
  run->steps += steps;
  return result;
}

/* ------------------------------------------------------------------ */
/* Blocks                                                             */
/* ------------------------------------------------------------------ */

static void
block_init (Block *b,
            WkRun *run)
{
  const WkProgram *p = run->prog;

  memset (b, 0, sizeof *b);
  b->run = run;
  b->prog = p;
  b->threads = run->block.x * run->block.y * run->block.z;
  b->n_warps = (b->threads + WK_LANES - 1) / WK_LANES;
  b->warps = g_new0 (Warp, b->n_warps);
  b->reg_block = g_new0 (WkSlot, (gsize) b->n_warps * MAX (p->n_rw + p->n_const, 1) * WK_LANES);
  b->mask_block = g_new0 (guint32, (gsize) b->n_warps * MAX (p->n_masks, 1));
  if (p->local_bytes > 0)
    b->local_block = g_malloc0 ((gsize) b->n_warps * WK_LANES * p->local_bytes);
  b->shared = g_malloc0 (MAX (run->shared_bytes, 1));
  for (guint i = 0; i < b->n_warps; i++)
    {
      Warp *w = &b->warps[i];
      w->regs = b->reg_block + (gsize) i * MAX (p->n_rw + p->n_const, 1) * WK_LANES;
      wk_program_load_consts (p, w->regs);
      w->masks = b->mask_block + (gsize) i * MAX (p->n_masks, 1);
      if (b->local_block != NULL)
        w->local = b->local_block + (gsize) i * WK_LANES * p->local_bytes;
    }
}

static void
block_clear (Block *b)
{
  g_free (b->warps);
  g_free (b->reg_block);
  g_free (b->mask_block);
  g_free (b->local_block);
  g_free (b->shared);
}

static void
set_uniform (WkSlot *regs,
             guint32 r,
             gint64  v)
{
  WkSlot *R;

  if (r == WK_NONE)
    return;
  R = regs + (gsize) r * WK_LANES;
  LANES R[l].i = v;
}

static void
block_start (Block  *b,
             guint64 linear)
{
  WkRun *run = b->run;
  const WkProgram *p = b->prog;
  WsDim3 bd = run->block;

  b->block_linear = linear;
  b->block_idx = ws_dim3_block_of (run->grid, linear);
  memset (b->shared, 0, MAX (run->shared_bytes, 1));
  memset (b->mask_block, 0, sizeof (guint32) * b->n_warps * MAX (p->n_masks, 1));
  if (b->local_block != NULL)
    memset (b->local_block, 0, (gsize) b->n_warps * WK_LANES * p->local_bytes);
  for (guint i = 0; i < b->n_warps; i++)
    {
      Warp *w = &b->warps[i];
      WkSlot *tx = w->regs + (gsize) p->reg_tid[0] * WK_LANES;
      WkSlot *ty = w->regs + (gsize) p->reg_tid[1] * WK_LANES;
      WkSlot *tz = w->regs + (gsize) p->reg_tid[2] * WK_LANES;

      w->pc = 0;
      w->done = FALSE;
      w->instructions = 0;
      w->valid = 0;
      for (guint l = 0; l < WK_LANES; l++)
        {
          guint t = i * WK_LANES + l;
          if (t < b->threads)
            w->valid |= 1u << l;
          tx[l].i = t % bd.x;
          ty[l].i = (t / bd.x) % bd.y;
          tz[l].i = t / (bd.x * bd.y);
        }
      w->cur = w->valid;
      set_uniform (w->regs, p->reg_ctaid[0], b->block_idx.x);
      set_uniform (w->regs, p->reg_ctaid[1], b->block_idx.y);
      set_uniform (w->regs, p->reg_ctaid[2], b->block_idx.z);
      set_uniform (w->regs, p->reg_ntid[0], bd.x);
      set_uniform (w->regs, p->reg_ntid[1], bd.y);
      set_uniform (w->regs, p->reg_ntid[2], bd.z);
      set_uniform (w->regs, p->reg_nctaid[0], run->grid.x);
      set_uniform (w->regs, p->reg_nctaid[1], run->grid.y);
      set_uniform (w->regs, p->reg_nctaid[2], run->grid.z);
      for (guint k = 0; k < p->param_regs->len; k++)
        set_uniform (w->regs, g_array_index (p->param_regs, guint32, k),
                     g_array_index (run->param_values, WkSlot, k).i);
    }
}

static gboolean
run_block (Block   *b,
           GError **error)
{
  WkRun *run = b->run;

  for (;;)
    {
      gboolean running = FALSE;

      for (guint i = 0; i < b->n_warps; i++)
        {
          Warp *w = &b->warps[i];
          RunResult r;

          if (w->done)
            continue;
          r = run_warp (b, w, error);
          if (r == RUN_ERROR)
            return FALSE;
          if (r == RUN_YIELD)
            running = TRUE;
        }
      if (!running)
        break;
      /* every warp still running is at a barrier: the block passes it */
      run->counts->barriers++;
    }
  for (guint i = 0; i < b->n_warps; i++)
    {
      run->counts->instructions += b->warps[i].instructions;
      run->counts->max_block_instructions = MAX (run->counts->max_block_instructions, b->warps[i].instructions);
    }
  run->counts->blocks++;
  run->counts->warps += b->n_warps;
  return TRUE;
}

gboolean
wk_run_blocks (WkRun   *run,
               guint64  first,
               guint64  count,
               GError **error)
{
  Block b;
  gboolean ok = TRUE;

  block_init (&b, run);
  for (guint64 k = 0; k < count && ok; k++)
    {
      if (g_cancellable_set_error_if_cancelled (run->cancellable, error))
        {
          ok = FALSE;
          break;
        }
      block_start (&b, first + k);
      ok = run_block (&b, error);
      if (ok && run->steps > run->step_limit)
        {
          /* a launch of many blocks without a loop: the limit holds too */
          g_set_error (error, WS_KERNEL_ERROR, WS_KERNEL_ERROR_LIMIT,
                       _("the launch has run more than %llu steps by block (%u, %u, %u); raise the limit with "
                         "“steps = …” in the launch comment if it is meant to run this long"),
                       (unsigned long long) run->step_limit, b.block_idx.x, b.block_idx.y, b.block_idx.z);
          ok = FALSE;
        }
      if (ok && run->progress != NULL)
        g_atomic_pointer_add (&run->progress->blocks_done, 1);
    }
  block_clear (&b);
  return ok;
}

void
wk_run_fill_warp (const WkProgram *prog,
                  WkSlot          *regs,
                  gint64           first)
{
  WkRun run = { 0 };
  WsKernelRunCounts counts = { 0 };
  Block b = { 0 };
  Warp w = { 0 };
  WkSlot *index = regs + (gsize) prog->reg_fill_index * WK_LANES;
  guint32 masks[64];

  run.prog = prog;
  run.counts = &counts;
  run.step_limit = G_MAXUINT64;
  run.block = WS_DIM3 (32, 1, 1);
  b.run = &run;
  b.prog = prog;
  b.warps = &w;
  w.regs = regs;
  w.masks = prog->n_masks <= G_N_ELEMENTS (masks) ? masks : g_new0 (guint32, prog->n_masks);
  memset (masks, 0, sizeof masks);
  w.cur = w.valid = 0xffffffffu;
  LANES index[l].i = first + l;
  run_warp (&b, &w, NULL);
  if (w.masks != masks)
    g_free (w.masks);
}
