/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The compiler's statements: declarations, if and else, loops and
 * switch as masks of lanes, break, continue and return. */
#include "ws-config.h"
#include "ws-kernel-compile-private.h"
#include "ws-i18n.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Statements                                                         */
/* ------------------------------------------------------------------ */

static const LoopCtx *
innermost_loop (Comp    *c,
                gboolean skip_switches)
{
  for (guint i = c->loops->len; i > c->frame->loops_base; i--)
    {
      const LoopCtx *l = &g_array_index (c->loops, LoopCtx, i - 1);
      if (!skip_switches || !l->is_switch)
        return l;
    }
  return NULL;
}

/* Lanes that left by break, continue or return do not come back when a
 * construct ends. */
static void
rejoin (Comp   *c,
        guint32 saved,
        guint   src)
{
  const LoopCtx *b = innermost_loop (c, FALSE);
  const LoopCtx *l = innermost_loop (c, TRUE);

  wkk_emit (c, WK_I_MREJOIN, 0, 0, WK_NONE, b ? b->brk : WK_NONE, l ? l->cont : WK_NONE, c->frame->ret, saved, 0, src);
}

static gboolean
compile_decl (Comp   *c,
              WkDecl *d)
{
  WkSym *sym = d->sym;
  const WkType *t = d->type;

  if (sym->kind == WK_SYM_MEMORY && (d->storage == WK_STORE_SHARED || d->storage == WK_STORE_EXTERN_SHARED))
    {
      guint a;
      return wkk_global_array (c, sym, &a, d->name_pos);
    }
  if (sym->kind == WK_SYM_MEMORY)
    {
      /* a thread's own array */
      VarInfo *v = g_new0 (VarInfo, 1);
      WkArray *arr;
      v->array = -1;
      v->mem_array = wkk_add_array (c, d->name, WS_SPACE_LOCAL, wkk_innermost (t), sym);
      arr = wkk_array_at (c, v->mem_array);
      arr->bytes = t->size;
      arr->n_elements = t->size / arr->elem_size;
      g_hash_table_insert (c->frame->vars, sym, v);
      if (d->init != NULL)
        {
          /* the list's values, stored one by one */
          WkLeaf leaves[4096];
          guint n = wk_type_leaves (t, leaves, G_N_ELEMENTS (leaves));
          guint k = 0;
          GPtrArray *flat = g_ptr_array_new ();
          GPtrArray *stack = g_ptr_array_new ();
          g_ptr_array_add (stack, d->init);
          /* flatten nested lists in order */
          while (stack->len > 0)
            {
              WkExpr *x = g_ptr_array_steal_index (stack, stack->len - 1);
              if (x->kind == WK_E_INIT_LIST)
                for (guint i = x->n_args; i-- > 0;)
                  g_ptr_array_add (stack, x->args[i]);
              else
                g_ptr_array_add (flat, x);
            }
          g_ptr_array_unref (stack);
          for (k = 0; k < n; k++)
            {
              Val val;
              LVal lv = { 0 };
              if (k < flat->len)
                {
                  if (!wkk_compile_expr (c, flat->pdata[k], &val))
                    break;
                }
              else
                wkk_val_scalar (&val, wkk_const_int (c, 0), WK_TYPE (leaves[k].kind));
              lv.kind = LV_MEM;
              lv.array = v->mem_array;
              lv.addr = wkk_const_int (c, 0);
              lv.offset = leaves[k].offset;
              lv.type = WK_TYPE (leaves[k].kind);
              lv.expr = d->init;
              if (!wkk_store (c, &lv, &val))
                break;
            }
          g_ptr_array_unref (flat);
        }
      return !c->failed;
    }
  {
    VarInfo *v = wkk_declare_var (c, sym, t);
    Val val;
    LVal lv = { 0 };

    if (d->init == NULL)
      {
        /* C leaves it indeterminate; zero keeps every run the same */
        for (guint i = 0; i < v->val.n; i++)
          wkk_emit (c, WK_I_MOVM, 0, 0, v->val.r[i], wkk_const_int (c, 0), WK_NONE, WK_NONE, 0, 0, d->name_pos);
        return !c->failed;
      }
    lv.kind = LV_REG;
    lv.regs = v->val;
    lv.type = t;
    lv.expr = d->init;
    if (d->init->kind == WK_E_INIT_LIST)
      {
        WkLeaf leaves[WK_MAX_LEAVES];
        guint n = wk_type_leaves (t, leaves, WK_MAX_LEAVES);
        val.n = n;
        val.type = t;
        val.array = -1;
        for (guint i = 0; i < n; i++)
          {
            Val item;
            if (i < d->init->n_args && d->init->args[i]->kind != WK_E_INIT_LIST)
              {
                if (!wkk_compile_expr (c, d->init->args[i], &item))
                  return FALSE;
                val.r[i] = item.r[0];
              }
            else
              val.r[i] = wkk_const_int (c, 0);
          }
        return wkk_store (c, &lv, &val);
      }
    if (!wkk_compile_expr (c, d->init, &val))
      return FALSE;
    if (t->kind == WK_TY_POINTER && !wkk_bind_pointer (c, v, sym, val.array, d->name_pos))
      return FALSE;
    return wkk_store (c, &lv, &val);
  }
}

/* The warp instructions a short body of an if costs when nvcc predicates
 * it instead of branching around it, or 0 where it branches: a body with
 * no control flow of its own, no barrier, fence or division, and at most
 * WK_PREDICATED_MAX instructions. nvcc 13 predicates such bodies for sm_90
 * (the SASS of Harris's reductions: `@!P1 LDS`, `@!P1 STS` in every warp
 * of the block at every step, 17.4 M warp instructions for reduce1 on an
 * H200, where the warps that take the branch alone make 11 M). */
#define WK_PREDICATED_MAX 10

static gint64
predicated_cost (Comp *c,
                 guint from,
                 guint to)
{
  gint64 cost = 0;

  for (guint i = from; i < to; i++)
    {
      const WkInsn *in = &g_array_index (c->prog->code, WkInsn, i);

      switch (in->op)
        {
        case WK_I_BIN:
          if ((in->sub == WK_OP_DIV || in->sub == WK_OP_MOD) && in->ac != WK_AC_F32 && in->ac != WK_AC_F64)
            return 0;
          cost++;
          break;
        case WK_I_SHIFT:
        case WK_I_ADDR:
        case WK_I_UN:
        case WK_I_TRUTH:
        case WK_I_CVT:
        case WK_I_SELECT:
        case WK_I_MATH1:
        case WK_I_MATH2:
        case WK_I_FMA:
        case WK_I_F2I:
        case WK_I_BITS:
        case WK_I_MULHI:
        case WK_I_LD:
        case WK_I_ST:
          /* not what nvcc keeps in a register */
          if (g_array_index (c->prog->sites, WkSite, in->imm).keep != WK_KEEP_NEVER)
            cost++;
          break;
        case WK_I_ATOM:
          cost++;
          break;
        case WK_I_NOP:
        case WK_I_MOV:
        case WK_I_MOVM:
        case WK_I_BITCAST:
        case WK_I_LANEID:
        case WK_I_RANDOM:
          break;
        default:
          return 0;
        }
    }
  return cost <= WK_PREDICATED_MAX ? cost : 0;
}

static gboolean exits (const WkStmt *s, gboolean in_inner_loop, gboolean in_switch);

static gboolean
compile_if (Comp         *c,
            const WkStmt *s)
{
  Val cv;
  guint32 r, saved, el;
  guint jz_then, jz_else, mark;

  if (!wkk_compile_expr (c, s->e, &cv))
    return FALSE;
  r = wkk_truth (c, cv.r[0], cv.type, s->pos);
  saved = wkk_new_mask (c);
  /* what a branch loads, the code after the if has not */
  mark = wkk_avail_mark (c);
  wkk_emit (c, WK_I_MSAVE, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, saved, 0, s->pos);
  if (s->els == NULL)
    {
      wkk_emit (c, WK_I_MAND, 0, 0, WK_NONE, r, WK_NONE, WK_NONE, 0, 0, s->pos);
      jz_then = wkk_emit (c, WK_I_JZ, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, 0, 0, s->pos);
      if (!wkk_compile_stmt (c, s->body))
        return FALSE;
      /* its loads may be made before it, where the code after it loads
       * them again: not where some lanes leave from it */
      if (exits (s->body, FALSE, FALSE))
        wkk_avail_back (c, mark);
      else
        wkk_avail_pending (c, mark);
      wkk_patch (c, jz_then, wkk_here (c));
      {
        /* a warp none of whose lanes take it still issues a predicated
         * body: JZ counts it (its a: the lanes that came to the if) */
        WkInsn *jz = &g_array_index (c->prog->code, WkInsn, jz_then);
        jz->imm2 = predicated_cost (c, jz_then + 1, wkk_here (c));
        jz->a = saved;
      }
      rejoin (c, saved, s->pos);
      return TRUE;
    }
  el = wkk_new_mask (c);
  wkk_emit (c, WK_I_MSPLIT, 0, 0, WK_NONE, r, WK_NONE, WK_NONE, el, 0, s->pos);
  jz_then = wkk_emit (c, WK_I_JZ, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, 0, 0, s->pos);
  if (!wkk_compile_stmt (c, s->body))
    return FALSE;
  wkk_avail_back (c, mark);
  wkk_patch (c, jz_then, wkk_here (c));
  wkk_emit (c, WK_I_MLOAD, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, el, 0, s->pos);
  jz_else = wkk_emit (c, WK_I_JZ, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, 0, 0, s->pos);
  if (!wkk_compile_stmt (c, s->els))
    return FALSE;
  wkk_avail_back (c, mark);
  wkk_patch (c, jz_else, wkk_here (c));
  rejoin (c, saved, s->pos);
  return TRUE;
}

static guint
add_loop (Comp         *c,
          const WkStmt *s)
{
  WkLoopInfo l;

  l.start = s->pos;
  l.keyword = s->kind == WK_S_FOR ? "for" : s->kind == WK_S_WHILE ? "while" : "do";
  l.function = c->frame->name;
  g_array_append_val (c->prog->loops, l);
  return c->prog->loops->len - 1;
}

static gboolean
loop_condition (Comp         *c,
                const WkStmt *s,
                guint        *jz_out)
{
  Val cv;

  if (s->e == NULL)
    {
      *jz_out = G_MAXUINT;
      return TRUE;
    }
  if (!wkk_compile_expr (c, s->e, &cv))
    return FALSE;
  wkk_emit (c, WK_I_MAND, 0, 0, WK_NONE, wkk_truth (c, cv.r[0], cv.type, s->pos), WK_NONE, WK_NONE, 0, 0, s->pos);
  *jz_out = wkk_emit (c, WK_I_JZ, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, 0, 0, s->pos);
  return TRUE;
}

/* Whether a loop's body may take lanes out of it (break, continue, return):
 * else its masks need no saving. */
static gboolean
exits (const WkStmt *s,
       gboolean      in_inner_loop,
       gboolean      in_switch)
{
  if (s == NULL)
    return FALSE;
  switch (s->kind)
    {
    case WK_S_RETURN:
      return TRUE;
    case WK_S_BREAK:
      return !in_inner_loop && !in_switch;
    case WK_S_CONTINUE:
      return !in_inner_loop;
    case WK_S_FOR:
    case WK_S_WHILE:
    case WK_S_DO:
      return exits (s->body, TRUE, in_switch);
    case WK_S_SWITCH:
      return exits (s->body, in_inner_loop, TRUE);
    case WK_S_IF:
      return exits (s->body, in_inner_loop, in_switch) || exits (s->els, in_inner_loop, in_switch);
    case WK_S_BLOCK:
      for (guint i = 0; i < s->n_list; i++)
        if (exits (s->list[i], in_inner_loop, in_switch))
          return TRUE;
      return FALSE;
    default:
      return FALSE;
    }
}

static gboolean
compile_loop (Comp         *c,
              const WkStmt *s)
{
  LoopCtx ctx = { 0 };
  guint32 saved, iter;
  guint top, jz = G_MAXUINT, jz_body = G_MAXUINT, id;
  WkSym *counter = NULL;
  gboolean ok, plain;
  const WkStmt *before = c->before_loop;
  WkKeepScope *kept;

  c->before_loop = NULL;
  if (s->kind == WK_S_FOR && s->init != NULL && !wkk_compile_stmt (c, s->init))
    return FALSE;
  if (s->kind == WK_S_FOR)
    counter = wkk_unrolled_counter (c, s);
  id = add_loop (c, s);
  ctx.unroll = s->unroll;
  plain = !exits (s->body, FALSE, FALSE);
  saved = wkk_new_mask (c);
  iter = wkk_new_mask (c);
  ctx.brk = wkk_new_mask (c);
  ctx.cont = wkk_new_mask (c);
  wkk_emit (c, WK_I_MSAVE, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, saved, 0, s->pos);
  if (!plain)
    wkk_emit (c, WK_I_MZERO, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, ctx.brk, 0, s->pos);
  /* a loop nvcc unrolls whole, that runs at least once */
  kept = wkk_keep_loop (c, s, before, plain, counter != NULL && wkk_loop_trips (c, s) > 0);
  /* what was loaded before the loop or in its last iteration: not known
   * at its top (a loop's own element is wkk_keep_loop's) */
  wkk_avail_clear (c);
  top = wkk_here (c);
  if (!plain)
    wkk_emit (c, WK_I_MZERO, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, ctx.cont, 0, s->pos);
  if (s->kind != WK_S_DO && !loop_condition (c, s, &jz))
    goto fail;
  if (s->kind == WK_S_DO)
    jz_body = wkk_emit (c, WK_I_JZ, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, 0, 0, s->pos);
  wkk_emit (c, WK_I_LOOP, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, id, 0, s->pos);
  if (!plain)
    wkk_emit (c, WK_I_MSAVE, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, iter, 0, s->pos);
  g_array_append_val (c->loops, ctx);
  if (counter != NULL)
    g_hash_table_add (c->counters, counter);
  if (plain)
    wkk_join_loop (c, s, TRUE);
  ok = wkk_compile_stmt (c, s->body);
  if (plain)
    wkk_join_loop (c, s, FALSE);
  if (counter != NULL)
    g_hash_table_remove (c->counters, counter);
  g_array_set_size (c->loops, c->loops->len - 1);
  if (!ok)
    goto fail;
  /* continued lanes come back; broken and returned ones do not */
  if (!plain)
    wkk_emit (c, WK_I_MREJOIN, 0, 0, WK_NONE, ctx.brk, c->frame->ret, WK_NONE, iter, 0, s->pos);
  if (s->kind == WK_S_FOR && s->inc != NULL)
    {
      Val dummy;
      guint mark = c->temp_top;
      guint jz_inc = plain ? G_MAXUINT : wkk_emit (c, WK_I_JZ, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, 0, 0, s->pos);
      c->unused = s->inc;
      if (!wkk_compile_expr (c, s->inc, &dummy))
        goto fail;
      c->temp_top = mark;
      if (jz_inc != G_MAXUINT)
        wkk_patch (c, jz_inc, wkk_here (c));
    }
  if (s->kind == WK_S_DO)
    {
      guint jz_cond;
      if (!loop_condition (c, s, &jz_cond))
        goto fail;
      wkk_emit (c, WK_I_JMP, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, top, 0, s->pos);
      wkk_patch (c, jz_cond, wkk_here (c));
      wkk_patch (c, jz_body, wkk_here (c));
    }
  else
    {
      wkk_emit (c, WK_I_JMP, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, top, 0, s->pos);
      if (jz != G_MAXUINT)
        wkk_patch (c, jz, wkk_here (c));
    }
  wkk_emit (c, WK_I_MREJOIN, 0, 0, WK_NONE, c->frame->ret, WK_NONE, WK_NONE, saved, 0, s->pos);
  wkk_keep_end (c, kept);
  wkk_avail_clear (c);
  return TRUE;

fail:
  wkk_keep_end (c, kept);
  return FALSE;
}

static gboolean
compile_switch (Comp         *c,
                const WkStmt *s)
{
  Val v;
  LoopCtx ctx = { 0 };
  guint32 saved, matched, any;
  const WkStmt *body = s->body;
  g_autoptr (GArray) slots = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 def = WK_NONE;
  const LoopCtx *outer;

  if (!wkk_compile_expr (c, s->e, &v))
    return FALSE;
  wkk_avail_clear (c);
  saved = wkk_new_mask (c);
  any = wkk_new_mask (c);
  ctx.brk = wkk_new_mask (c);
  ctx.cont = WK_NONE;
  ctx.is_switch = TRUE;
  wkk_emit (c, WK_I_MSAVE, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, saved, 0, s->pos);
  wkk_emit (c, WK_I_MZERO, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, ctx.brk, 0, s->pos);
  wkk_emit (c, WK_I_MZERO, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, any, 0, s->pos);
  /* which lanes each label takes */
  for (guint i = 0; i < body->n_list; i++)
    {
      const WkStmt *x = body->list[i];
      guint32 slot;

      if (x->kind != WK_S_CASE)
        continue;
      slot = wkk_new_mask (c);
      g_array_append_val (slots, slot);
      if (x->e == NULL)
        {
          def = slot;
          continue;
        }
      {
        WkSlot k;
        guint32 eq;
        k.i = x->case_value;
        eq = wkk_emit_bin (c, WK_OP_EQ, wk_type_arith (v.type), v.r[0], wkk_const_slot (c, k), x->start);
        wkk_emit (c, WK_I_MCOND, 0, 0, WK_NONE, eq, WK_NONE, WK_NONE, slot, 0, x->start);
        wkk_emit (c, WK_I_MLOAD, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, any, 0, x->start);
        wkk_emit (c, WK_I_MOR, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, slot, 0, x->start);
        wkk_emit (c, WK_I_MSAVE, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, any, 0, x->start);
        wkk_emit (c, WK_I_MLOAD, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, saved, 0, x->start);
      }
    }
  if (def != WK_NONE)
    {
      wkk_emit (c, WK_I_MLOAD, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, saved, 0, s->pos);
      wkk_emit (c, WK_I_MANDNOT, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, any, 0, s->pos);
      wkk_emit (c, WK_I_MSAVE, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, def, 0, s->pos);
    }
  /* the bodies in order, each label's lanes joining those that fall through */
  matched = wkk_new_mask (c);
  wkk_emit (c, WK_I_MZERO, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, matched, 0, s->pos);
  wkk_emit (c, WK_I_MLOAD, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, matched, 0, s->pos);
  g_array_append_val (c->loops, ctx);
  {
    guint k = 0;
    for (guint i = 0; i < body->n_list && !c->failed; i++)
      {
        const WkStmt *x = body->list[i];
        if (x->kind == WK_S_CASE)
          {
            wkk_emit (c, WK_I_MOR, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, g_array_index (slots, guint32, k++), 0,
                  x->start);
            continue;
          }
        if (!wkk_compile_stmt (c, x))
          break;
      }
  }
  g_array_set_size (c->loops, c->loops->len - 1);
  wkk_avail_clear (c);
  if (c->failed)
    return FALSE;
  outer = innermost_loop (c, TRUE);
  wkk_emit (c, WK_I_MREJOIN, 0, 0, WK_NONE, outer ? outer->cont : WK_NONE, c->frame->ret, WK_NONE, saved, 0, s->pos);
  return TRUE;
}

static gboolean
compile_stmt_inner (Comp         *c,
                    const WkStmt *s)
{
  switch (s->kind)
    {
    case WK_S_BLOCK:
      return wkk_compile_list (c, s->list, s->n_list);
    case WK_S_DECL:
      for (guint i = 0; i < s->n_decls; i++)
        if (!compile_decl (c, s->decls[i]))
          return FALSE;
      return TRUE;
    case WK_S_EXPR:
      {
        Val v;
        c->unused = s->e;
        return wkk_compile_expr (c, s->e, &v);
      }
    case WK_S_IF:
      return compile_if (c, s);
    case WK_S_FOR:
    case WK_S_WHILE:
    case WK_S_DO:
      return compile_loop (c, s);
    case WK_S_BREAK:
      {
        const LoopCtx *l = innermost_loop (c, FALSE);
        wkk_emit (c, WK_I_MEXIT, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, l->brk, 0, s->pos);
        return TRUE;
      }
    case WK_S_CONTINUE:
      {
        const LoopCtx *l = innermost_loop (c, TRUE);
        wkk_emit (c, WK_I_MEXIT, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, l->cont, 0, s->pos);
        return TRUE;
      }
    case WK_S_RETURN:
      if (s->e != NULL)
        {
          Val v;
          LVal lv = { 0 };
          if (s->e->kind == WK_E_INIT_LIST)
            return wkk_fail (c, s->e->start, WS_KERNEL_ERROR_UNSUPPORTED, _("returning a list in braces is not supported"));
          if (!wkk_compile_expr (c, s->e, &v))
            return FALSE;
          lv.kind = LV_REG;
          lv.regs = c->frame->ret_val;
          lv.type = c->frame->func->ret;
          lv.expr = s->e;
          if (!wkk_store (c, &lv, &v))
            return FALSE;
        }
      wkk_emit (c, WK_I_MEXIT, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, c->frame->ret, 0, s->pos);
      return TRUE;
    case WK_S_SWITCH:
      return compile_switch (c, s);
    case WK_S_EMPTY:
    case WK_S_CASE:
      return TRUE;
    }
  return FALSE;
}

/* Statements in order; a loop learns the statement before it (for
 * wkk_keep_loop ()). */
gboolean
wkk_compile_list (Comp          *c,
                  WkStmt *const *list,
                  guint          n)
{
  for (guint i = 0; i < n && !c->failed; i++)
    {
      const WkStmt *x = list[i];
      gboolean is_loop = x->kind == WK_S_FOR || x->kind == WK_S_WHILE || x->kind == WK_S_DO;

      c->before_loop = is_loop && i > 0 ? list[i - 1] : NULL;
      if (!wkk_compile_stmt (c, x))
        return FALSE;
    }
  return !c->failed;
}

gboolean
wkk_compile_stmt (Comp         *c,
                  const WkStmt *s)
{
  guint mark = c->temp_top;
  gboolean ok;

  if (c->failed)
    return FALSE;
  if (++c->nesting > MAX_NESTING)
    return wkk_fail (c, s->start, WS_KERNEL_ERROR_LIMIT,
                 _("the kernel is nested too deeply once its device functions are inlined"));
  ok = compile_stmt_inner (c, s);
  c->nesting--;
  c->temp_top = mark;
  return ok && !c->failed;
}

