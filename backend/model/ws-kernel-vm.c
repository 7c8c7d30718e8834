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
#include "ws-kernel-vm-private.h"
#include "ws-i18n.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

void
wk_program_load_consts (const WkProgram *prog,
                        WkSlot          *regs)
{
  memcpy (regs + (gsize) prog->n_rw * WK_LANES, prog->consts, sizeof (WkSlot) * WK_LANES * prog->n_const);
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
          w->instructions += w->cur != 0 ? wkv_bin_cost (b, w, in) : 0;
          if (!wkv_do_bin (b, w, in, error))
            goto out;
          break;
        case WK_I_SHIFT:
          w->instructions += w->cur != 0;
          wkv_do_shift (b, w, in);
          break;
        case WK_I_ADDR:
          {
            WkSlot *D = reg (b, w, in->dst);
            const WkSlot *A = reg (b, w, in->a), *B = reg (b, w, in->b);
            guint64 scale = (guint64) in->imm2;
            LANES D[l].u = A[l].u + B[l].u * scale;
            w->instructions += w->cur != 0;
            break;
          }
        case WK_I_UN:
          w->instructions += w->cur != 0;
          wkv_do_unary (b, w, in);
          break;
        case WK_I_TRUTH:
          {
            WkSlot *D = reg (b, w, in->dst);
            const WkSlot *A = reg (b, w, in->a);
            WkArith ac = in->ac;
            LANES D[l].i = nonzero (ac, A[l]);
            w->instructions += w->cur != 0;
            break;
          }
        case WK_I_CVT:
          w->instructions += w->cur != 0;
          wkv_do_convert (b, w, in);
          break;
        case WK_I_BITCAST:
          wkv_do_bitcast (b, w, in);
          break;
        case WK_I_SELECT:
          {
            WkSlot *D = reg (b, w, in->dst);
            const WkSlot *A = reg (b, w, in->a), *B = reg (b, w, in->b), *C = reg (b, w, in->c);
            LANES D[l] = C[l].i ? A[l] : B[l];
            w->instructions += w->cur != 0;
            break;
          }
        case WK_I_MATH1:
        case WK_I_MATH2:
        case WK_I_FMA:
          w->instructions += w->cur != 0;
          wkv_do_math (b, w, in);
          break;
        case WK_I_F2I:
          w->instructions += w->cur != 0;
          wkv_do_f2i (b, w, in);
          break;
        case WK_I_BITS:
          w->instructions += w->cur != 0;
          wkv_do_bits (b, w, in);
          break;
        case WK_I_MULHI:
          w->instructions += w->cur != 0;
          wkv_do_mulhi (b, w, in);
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
          if (!wkv_do_load (b, w, in, error))
            goto out;
          break;
        case WK_I_ST:
          if (!wkv_do_store (b, w, in, error))
            goto out;
          break;
        case WK_I_ATOM:
          if (!wkv_do_atomic (b, w, in, error))
            goto out;
          break;
        case WK_I_SHFL:
          w->instructions += w->cur != 0;
          if (!wkv_do_shfl (b, w, in, error))
            goto out;
          break;
        case WK_I_VOTE:
          w->instructions += w->cur != 0;
          wkv_do_vote (b, w, in);
          break;
        case WK_I_JMP:
          w->pc = in->imm;
          break;
        case WK_I_JZ:
          if (w->cur == 0)
            {
              /* a predicated body (imm2 its instructions) is issued by a
               * warp that came to it with no lane taking it */
              if (in->imm2 != 0 && w->masks[in->a] != 0)
                w->instructions += (guint64) in->imm2;
              w->pc = in->imm;
            }
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
          /* BAR.SYNC is a warp instruction too */
          w->instructions += w->cur != 0;
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
/* N: the warp instructions of its SASS */
#define BINX_CASE_N(OP, AC, N)                                                                   \
        case WK_I_BINX (OP, AC):                                                                 \
          {                                                                                      \
            WkSlot *restrict D = reg (b, w, in->dst);                                            \
            const WkSlot *A = reg (b, w, in->a), *B = reg (b, w, in->b);                         \
            LANES { gboolean t_ = FALSE; D[l] = wk_binary_one ((OP), (AC), A[l], B[l], &t_); }   \
            w->instructions += (w->cur != 0) * (N);                                              \
            break;                                                                               \
          }
#define BINX_CASE(OP, AC) BINX_CASE_N (OP, AC, 1)
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
        /* a reciprocal refined by FMAs, and a check that sends the rare
         * operands (denormals, infinities) to a routine: 10 and 17 */
        BINX_CASE_N (WK_OP_DIV, WK_AC_F32, 10)
        BINX_CASE_N (WK_OP_DIV, WK_AC_F64, 17)
        BINX_INT_CASES (WK_OP_BITAND)
        BINX_INT_CASES (WK_OP_BITOR)
        BINX_INT_CASES (WK_OP_BITXOR)
#undef BINX_CASE
#undef BINX_CASE_N
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
      w->memory = 0;
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
      run->counts->max_block_instructions = MAX (run->counts->max_block_instructions,
                                                 b->warps[i].instructions + b->warps[i].memory);
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
      run->block_now = first + k;
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
