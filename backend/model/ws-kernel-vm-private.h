/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-kernel-vm.h"

#include <string.h>

G_BEGIN_DECLS

/* What the VM's two files share: a block's warps and their registers, and
 * the instructions ws-kernel-vm-ops.c runs for ws-kernel-vm.c's loop
 * (memory accesses with their checks and events, and the lane operations
 * that are not a line of the loop). */

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
  guint64 instructions;         /* arithmetic and the rest with an active lane */
  guint64 memory;               /* memory instructions */
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


static inline gboolean
nonzero (WkArith ac,
         WkSlot  v)
{
  return ac == WK_AC_F32 ? v.f != 0 : ac == WK_AC_F64 ? v.d != 0 : v.i != 0;
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

gboolean
wkv_do_load (Block        *b,
             Warp         *w,
             const WkInsn *in,
             GError      **error);
gboolean
wkv_do_store (Block        *b,
              Warp         *w,
              const WkInsn *in,
              GError      **error);
gboolean
wkv_do_atomic (Block        *b,
               Warp         *w,
               const WkInsn *in,
               GError      **error);
/* The warp instructions the SASS of an integer division or remainder
 * takes (1 for any other operation that goes through wkv_do_bin ()). */
guint
wkv_bin_cost (Block        *b,
              Warp         *w,
              const WkInsn *in);
gboolean
wkv_do_bin (Block        *b,
            Warp         *w,
            const WkInsn *in,
            GError      **error);
void
wkv_do_shift (Block        *b,
              Warp         *w,
              const WkInsn *in);
void
wkv_do_unary (Block        *b,
              Warp         *w,
              const WkInsn *in);
void
wkv_do_convert (Block        *b,
                Warp         *w,
                const WkInsn *in);
void
wkv_do_math (Block        *b,
             Warp         *w,
             const WkInsn *in);
void
wkv_do_bitcast (Block        *b,
                Warp         *w,
                const WkInsn *in);
void
wkv_do_bits (Block        *b,
             Warp         *w,
             const WkInsn *in);
void
wkv_do_mulhi (Block        *b,
              Warp         *w,
              const WkInsn *in);
gboolean
wkv_do_shfl (Block        *b,
             Warp         *w,
             const WkInsn *in,
             GError      **error);
void
wkv_do_vote (Block        *b,
             Warp         *w,
             const WkInsn *in);
void
wkv_do_f2i (Block        *b,
            Warp         *w,
            const WkInsn *in);
guint64
wk_random (gint64 seed,
           gint64 index);

G_END_DECLS
