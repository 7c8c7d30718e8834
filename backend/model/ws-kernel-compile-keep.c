/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Values nvcc keeps in registers through a loop.
 *
 * Where a loop reads or writes one element at an address that does not
 * change from one iteration to the next, nvcc (LLVM's LICM and GVN) loads
 * it once before the loop and stores it once after, as long as nothing
 * else in the loop may touch it.  Harris's reduce6 adds into sdata[tid] in
 * a while loop: the H200's counters showed 512 shared wavefronts on that
 * line (one store per warp, after the loop) where a load and a store at
 * every iteration would be 524288.  What nvcc 13.0 does for sm_90, read in
 * its PTX (tests/test-kernel-keep.c holds each shape, and checks the PTX
 * where nvcc is installed):
 *   - s[t] += g[i] in a loop: one load before the loop, one store after;
 *     where the statement just before the loop stored s[t], no load at all
 *     (its value is still in a register), and where nvcc unrolls the loop
 *     whole (a few iterations, counted) that store is not made either;
 *   - a load only (acc += s[t]): one load before the loop;
 *   - two elements of one array at indices that differ by a constant
 *     (s[t] and s[t + 1]) do not hold each other back; shared, global and
 *     local memory never alias, nor do two __shared__ arrays (but every
 *     extern __shared__ array is the same memory);
 *   - two pointer parameters may alias, unless one is __restrict__: a
 *     loop that reads g[i] and adds into o[t] loads o[t] once but stores
 *     it at every iteration; with o __restrict__, once after the loop;
 *   - nothing is kept across __syncthreads (), a fence, a call, an atomic
 *     that may reach the element, a volatile access, an access under an
 *     if or a ?:, or an index that changes in the loop;
 *   - a loop that break, continue or return leave still has the value it
 *     stored (or the statement before it stored) in a register, but stores
 *     at every iteration.
 * The VM still loads and stores at every iteration (the values are the
 * same); the site counts one access per warp per entry to the loop, for the
 * lanes that made it (WK_KEEP_ONCE), or none (WK_KEEP_NEVER). */

#include "ws-kernel-compile-private.h"

typedef enum
{
  SP_UNKNOWN,
  SP_SHARED,
  SP_GLOBAL,
  SP_LOCAL,
  SP_CONST,
} Space;

#define MAX_CHAIN 8

typedef struct
{
  const WkExpr *e;              /* the access (what wkk_load and wkk_store see as lv->expr) */
  gconstpointer id;             /* the memory: a symbol, a kernel parameter's array; NULL: unknown */
  const WkSym *base;            /* the name the indices start from */
  Space space;
  gboolean is_extern;           /* extern __shared__ */
  gboolean is_restrict;
  gboolean whole;               /* where in the memory is unknown */
  gboolean load;
  gboolean store;
  gboolean cond;                /* not made at every iteration */
  gboolean is_volatile;
  guint n_chain;
  const WkExpr *chain[MAX_CHAIN]; /* the indices, outermost array first */
  guint order;
  int group;
} Ref;

typedef struct
{
  Comp *c;
  GArray *refs;                 /* Ref */
  GHashTable *written;          /* WkSym * written in the loop, or whose address is taken */
  gboolean clobber;             /* a barrier, fence, call…: nothing is kept */
  guint order;
} Scan;

static const WkExpr *
bare (const WkExpr *e)
{
  while (e != NULL && (e->kind == WK_E_IMPLICIT || (e->kind == WK_E_CAST && e->type && e->a->type &&
                                                    e->type->kind == e->a->type->kind &&
                                                    e->type->kind == WK_TY_POINTER)))
    e = e->a;
  return e;
}

static void scan_expr (Scan *S, const WkExpr *e, gboolean cond);

static Space
space_of (WsSpace s)
{
  switch (s)
    {
    case WS_SPACE_SHARED: return SP_SHARED;
    case WS_SPACE_GLOBAL: return SP_GLOBAL;
    case WS_SPACE_LOCAL: return SP_LOCAL;
    case WS_SPACE_CONSTANT: return SP_CONST;
    case WS_SPACE_REGISTER:
    case WS_N_SPACES:
    default: return SP_UNKNOWN;
    }
}

/* The memory a pointer variable points into, as the compiler has bound it. */
static void
pointer_memory (Scan        *S,
                const WkSym *sym,
                Ref         *r)
{
  VarInfo *v = wkk_var_info (S->c, sym);
  const WkArray *a;

  if (v == NULL || v->array < 0)
    return;
  a = wkk_array_at (S->c, (guint) v->array);
  r->space = space_of (a->space);
  r->is_extern = a->dynamic_shared;
  r->is_restrict = sym->type != NULL && (sym->type->quals & WK_Q_RESTRICT) != 0;
  r->id = a->sym != NULL ? (gconstpointer) a->sym : (gconstpointer) a;
}

/* A reference to memory by e (an lvalue: a name, an index, a member, a
 * dereference); NAME of a variable in registers is none. */
static void
add_ref (Scan         *S,
         const WkExpr *e,
         gboolean      load,
         gboolean      store,
         gboolean      cond)
{
  Ref r = { 0 };
  const WkExpr *x = bare (e);
  const WkExpr *rev[MAX_CHAIN];
  guint n = 0;

  r.e = x;
  r.load = load;
  r.store = store;
  r.cond = cond;
  r.group = -1;
  r.is_volatile = x->type != NULL && (x->type->quals & WK_Q_VOLATILE) != 0;
  for (;;)
    {
      if (x->kind == WK_E_INDEX)
        {
          scan_expr (S, x->b, cond);
          if (n < MAX_CHAIN)
            rev[n++] = x->b;
          else
            r.whole = TRUE;
          x = bare (x->a);
        }
      else if (x->kind == WK_E_MEMBER && !x->is_arrow)
        {
          r.whole = TRUE;
          x = bare (x->a);
        }
      else
        break;
    }
  if (x->kind == WK_E_NAME && x->sym != NULL)
    {
      const WkSym *sym = x->sym;

      r.base = sym;
      if (sym->kind == WK_SYM_MEMORY)
        {
          r.id = sym;
          r.is_extern = sym->storage == WK_STORE_EXTERN_SHARED;
          r.space = sym->storage == WK_STORE_SHARED || sym->storage == WK_STORE_EXTERN_SHARED ? SP_SHARED :
                    sym->storage == WK_STORE_DEVICE ? SP_GLOBAL : sym->storage == WK_STORE_CONSTANT ? SP_CONST :
                    SP_LOCAL;
          if (sym->type != NULL && (sym->type->quals & WK_Q_VOLATILE))
            r.is_volatile = TRUE;
        }
      else if (sym->kind == WK_SYM_VAR && sym->type != NULL && sym->type->kind == WK_TY_POINTER && n > 0)
        {
          pointer_memory (S, sym, &r);
          if (sym->type->elem->quals & WK_Q_VOLATILE)
            r.is_volatile = TRUE;
        }
      else if (n == 0 && !r.whole)
        {
          /* a variable in registers */
          if (store)
            g_hash_table_add (S->written, (gpointer) sym);
          return;
        }
      else if (sym->kind == WK_SYM_VAR)
        {
          /* a member of a struct in registers (v.x = …) */
          if (store)
            g_hash_table_add (S->written, (gpointer) sym);
          for (guint i = 0; i < n; i++)
            (void) rev[i];
          return;
        }
    }
  else
    {
      /* *p, p->x, f ()[i]: the pointer's memory where it is a plain name */
      const WkExpr *p = NULL;
      r.whole = TRUE;
      if (x->kind == WK_E_UNARY && x->op == WK_OP_DEREF)
        p = bare (x->a);
      else if (x->kind == WK_E_MEMBER && x->is_arrow)
        p = bare (x->a);
      if (p != NULL)
        {
          scan_expr (S, p, cond);
          while (p->kind == WK_E_BINARY && (p->op == WK_OP_ADD || p->op == WK_OP_SUB))
            p = bare (p->a->type != NULL && p->a->type->kind == WK_TY_POINTER ? p->a : p->b);
          if (p->kind == WK_E_NAME && p->sym != NULL && p->sym->kind == WK_SYM_VAR && p->sym->type != NULL &&
              p->sym->type->kind == WK_TY_POINTER)
            pointer_memory (S, p->sym, &r);
          else if (p->kind == WK_E_NAME && p->sym != NULL && p->sym->kind == WK_SYM_MEMORY)
            {
              r.id = p->sym;
              r.is_extern = p->sym->storage == WK_STORE_EXTERN_SHARED;
              r.space = p->sym->storage == WK_STORE_SHARED || r.is_extern ? SP_SHARED :
                        p->sym->storage == WK_STORE_DEVICE ? SP_GLOBAL :
                        p->sym->storage == WK_STORE_CONSTANT ? SP_CONST : SP_LOCAL;
            }
        }
      else
        scan_expr (S, x, cond);
    }
  r.n_chain = n;
  for (guint i = 0; i < n; i++)
    r.chain[i] = rev[n - 1 - i];
  r.order = S->order++;
  g_array_append_val (S->refs, r);
}

/* The reference add_ref () made of e since at: the last one appended
 * (the indices' own come before it), or NULL where e is not in memory. */
static Ref *
ref_of (Scan         *S,
        guint         at,
        const WkExpr *e)
{
  Ref *r;

  if (S->refs->len <= at)
    return NULL;
  r = &g_array_index (S->refs, Ref, S->refs->len - 1);
  return r->e == bare (e) ? r : NULL;
}

/* The memory an atomic's or __ldg's pointer argument reaches, somewhere. */
static void
add_pointer_ref (Scan         *S,
                 const WkExpr *p,
                 gboolean      load,
                 gboolean      store,
                 gboolean      cond)
{
  p = bare (p);
  if (p->kind == WK_E_UNARY && p->op == WK_OP_ADDR)
    {
      guint at = S->refs->len;
      Ref *r;
      add_ref (S, p->a, load, store, cond);
      if ((r = ref_of (S, at, p->a)) != NULL)
        r->whole = TRUE;
      return;
    }
  {
    Ref r = { 0 };
    const WkExpr *x = p;
    scan_expr (S, p, cond);
    while (x->kind == WK_E_BINARY && (x->op == WK_OP_ADD || x->op == WK_OP_SUB))
      x = bare (x->a->type != NULL && x->a->type->kind == WK_TY_POINTER ? x->a : x->b);
    r.e = p;
    r.load = load;
    r.store = store;
    r.cond = cond;
    r.whole = TRUE;
    r.group = -1;
    if (x->kind == WK_E_NAME && x->sym != NULL && x->sym->kind == WK_SYM_VAR && x->sym->type != NULL &&
        x->sym->type->kind == WK_TY_POINTER)
      pointer_memory (S, x->sym, &r);
    else if (x->kind == WK_E_NAME && x->sym != NULL && x->sym->kind == WK_SYM_MEMORY)
      {
        r.id = x->sym;
        r.is_extern = x->sym->storage == WK_STORE_EXTERN_SHARED;
        r.space = x->sym->storage == WK_STORE_SHARED || r.is_extern ? SP_SHARED :
                  x->sym->storage == WK_STORE_DEVICE ? SP_GLOBAL : SP_LOCAL;
      }
    r.order = S->order++;
    g_array_append_val (S->refs, r);
  }
}

static gboolean
is_memory_lvalue (const WkExpr *e)
{
  e = bare (e);
  return e->kind == WK_E_INDEX || e->kind == WK_E_MEMBER || (e->kind == WK_E_UNARY && e->op == WK_OP_DEREF) ||
         e->kind == WK_E_NAME;
}

static void
scan_expr (Scan         *S,
           const WkExpr *e,
           gboolean      cond)
{
  if (e == NULL)
    return;
  switch (e->kind)
    {
    case WK_E_INT:
    case WK_E_FLOAT:
    case WK_E_BOOL:
    case WK_E_STRING:
    case WK_E_SIZEOF:
      return;
    case WK_E_NAME:
      if (e->sym != NULL && e->sym->kind == WK_SYM_MEMORY)
        {
          /* an array named as a whole escapes (p = s, f (s)); a variable
           * in memory is read */
          gboolean is_array = e->sym->type != NULL && e->sym->type->kind == WK_TY_ARRAY;
          guint at = S->refs->len;
          Ref *r;
          add_ref (S, e, TRUE, is_array, cond);
          if (is_array && (r = ref_of (S, at, e)) != NULL)
            r->whole = TRUE;
        }
      return;
    case WK_E_INDEX:
    case WK_E_MEMBER:
      if (e->kind == WK_E_MEMBER && !e->is_arrow && !e->a->lvalue)
        {
          scan_expr (S, e->a, cond);
          return;
        }
      add_ref (S, e, TRUE, FALSE, cond);
      return;
    case WK_E_UNARY:
      switch (e->op)
        {
        case WK_OP_DEREF:
          add_ref (S, e, TRUE, FALSE, cond);
          return;
        case WK_OP_ADDR:
          {
            const WkExpr *x = bare (e->a);
            guint at = S->refs->len;
            Ref *r;
            while (x->kind == WK_E_MEMBER && !x->is_arrow)
              x = bare (x->a);
            if (x->kind == WK_E_NAME && x->sym != NULL && x->sym->kind == WK_SYM_VAR)
              {
                g_hash_table_add (S->written, (gpointer) x->sym);
                return;
              }
            /* its address escapes: anything may reach it */
            add_ref (S, e->a, TRUE, TRUE, cond);
            if ((r = ref_of (S, at, e->a)) != NULL)
              r->whole = TRUE;
            return;
          }
        case WK_OP_PREINC:
        case WK_OP_PREDEC:
        case WK_OP_POSTINC:
        case WK_OP_POSTDEC:
          add_ref (S, e->a, TRUE, TRUE, cond);
          return;
        default:
          scan_expr (S, e->a, cond);
          return;
        }
    case WK_E_BINARY:
      scan_expr (S, e->a, cond);
      scan_expr (S, e->b, cond || e->op == WK_OP_LAND || e->op == WK_OP_LOR);
      return;
    case WK_E_ASSIGN:
      if (!is_memory_lvalue (e->a))
        {
          scan_expr (S, e->a, cond);
          scan_expr (S, e->b, cond);
          S->clobber = TRUE;
          return;
        }
      if (e->op == WK_OP_NONE)
        {
          scan_expr (S, e->b, cond);
          add_ref (S, e->a, FALSE, TRUE, cond);
        }
      else
        {
          /* the element is read before the right side, written after (a
           * variable in registers: written) */
          guint at = S->refs->len;
          Ref *outer;
          Ref copy = { 0 };
          gboolean in_memory;
          add_ref (S, e->a, TRUE, FALSE, cond);
          if ((in_memory = (outer = ref_of (S, at, e->a)) != NULL))
            copy = *outer;
          scan_expr (S, e->b, cond);
          if (in_memory)
            {
              copy.load = FALSE;
              copy.store = TRUE;
              copy.order = S->order++;
              g_array_append_val (S->refs, copy);
            }
          else
            add_ref (S, e->a, FALSE, TRUE, cond);
        }
      return;
    case WK_E_COND:
      scan_expr (S, e->a, cond);
      scan_expr (S, e->b, TRUE);
      scan_expr (S, e->c, TRUE);
      return;
    case WK_E_CALL:
      if (e->sym != NULL && e->sym->kind == WK_SYM_FUNC)
        {
          /* a device function: kept in nothing (its body is not looked into) */
          S->clobber = TRUE;
          for (guint i = 0; i < e->n_args; i++)
            scan_expr (S, e->args[i], cond);
          return;
        }
      switch (e->builtin)
        {
        case WK_BF_SYNCTHREADS:
        case WK_BF_SYNCWARP:
        case WK_BF_THREADFENCE_BLOCK:
        case WK_BF_THREADFENCE:
        case WK_BF_THREADFENCE_SYSTEM:
        case WK_BF_PRINTF:
        case WK_BF_CLOCK:
          S->clobber = TRUE;
          break;
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
          if (e->n_args > 0)
            add_pointer_ref (S, e->args[0], TRUE, TRUE, cond);
          for (guint i = 1; i < e->n_args; i++)
            scan_expr (S, e->args[i], cond);
          return;
        case WK_BF_LDG:
          if (e->n_args > 0)
            add_pointer_ref (S, e->args[0], TRUE, FALSE, cond);
          return;
        default:
          break;
        }
      for (guint i = 0; i < e->n_args; i++)
        scan_expr (S, e->args[i], cond);
      return;
    case WK_E_CAST:
    case WK_E_IMPLICIT:
      scan_expr (S, e->a, cond);
      return;
    case WK_E_INIT_LIST:
      for (guint i = 0; i < e->n_args; i++)
        scan_expr (S, e->args[i], cond);
      return;
    default:
      S->clobber = TRUE;
      return;
    }
}

static void
scan_stmt (Scan         *S,
           const WkStmt *s,
           gboolean      cond)
{
  if (s == NULL)
    return;
  switch (s->kind)
    {
    case WK_S_BLOCK:
      for (guint i = 0; i < s->n_list; i++)
        scan_stmt (S, s->list[i], cond);
      return;
    case WK_S_DECL:
      for (guint i = 0; i < s->n_decls; i++)
        {
          const WkDecl *d = s->decls[i];
          scan_expr (S, d->init, cond);
          if (d->sym != NULL)
            g_hash_table_add (S->written, d->sym);
        }
      return;
    case WK_S_EXPR:
    case WK_S_RETURN:
      scan_expr (S, s->e, cond);
      return;
    case WK_S_IF:
      scan_expr (S, s->e, cond);
      scan_stmt (S, s->body, TRUE);
      scan_stmt (S, s->els, TRUE);
      return;
    case WK_S_FOR:
    case WK_S_WHILE:
    case WK_S_DO:
      scan_stmt (S, s->init, cond);
      scan_expr (S, s->e, TRUE);
      scan_stmt (S, s->body, TRUE);
      scan_expr (S, s->inc, TRUE);
      return;
    case WK_S_SWITCH:
      scan_expr (S, s->e, cond);
      scan_stmt (S, s->body, TRUE);
      return;
    case WK_S_CASE:
    case WK_S_BREAK:
    case WK_S_CONTINUE:
    case WK_S_EMPTY:
    default:
      return;
    }
}

/* An index the loop does not change: constants, and variables in
 * registers that it does not write. */
static gboolean
invariant (Scan         *S,
           const WkExpr *e)
{
  if (e == NULL)
    return TRUE;
  switch (e->kind)
    {
    case WK_E_INT:
    case WK_E_FLOAT:
    case WK_E_BOOL:
    case WK_E_SIZEOF:
      return TRUE;
    case WK_E_NAME:
      if (e->sym == NULL)
        return FALSE;
      switch (e->sym->kind)
        {
        case WK_SYM_VAR:
          return !g_hash_table_contains (S->written, e->sym);
        case WK_SYM_CONST:
        case WK_SYM_BUILTIN:
        case WK_SYM_TEMPLATE:
          return TRUE;
        default:
          return FALSE;
        }
    case WK_E_MEMBER:
      return !e->is_arrow && invariant (S, e->a) && (bare (e->a)->kind == WK_E_NAME);
    case WK_E_UNARY:
      return (e->op == WK_OP_NEG || e->op == WK_OP_PLUS || e->op == WK_OP_BITNOT || e->op == WK_OP_LNOT) &&
             invariant (S, e->a);
    case WK_E_BINARY:
      return e->op != WK_OP_COMMA && invariant (S, e->a) && invariant (S, e->b);
    case WK_E_COND:
      return invariant (S, e->a) && invariant (S, e->b) && invariant (S, e->c);
    case WK_E_CAST:
    case WK_E_IMPLICIT:
      return invariant (S, e->a);
    default:
      return FALSE;
    }
}

static gboolean
same_expr (const WkExpr *a,
           const WkExpr *b)
{
  a = bare (a);
  b = bare (b);
  if (a == NULL || b == NULL)
    return a == b;
  if (a->kind != b->kind || a->op != b->op || a->sym != b->sym || a->member != b->member ||
      a->is_arrow != b->is_arrow || a->n_args != b->n_args)
    return FALSE;
  switch (a->kind)
    {
    case WK_E_INT:
    case WK_E_BOOL:
      if (a->v.u != b->v.u)
        return FALSE;
      break;
    case WK_E_FLOAT:
      if (a->v.f != b->v.f)
        return FALSE;
      break;
    case WK_E_CAST:
    case WK_E_SIZEOF:
      if (a->cast_type != b->cast_type)
        return FALSE;
      break;
    default:
      break;
    }
  if (!same_expr (a->a, b->a) || !same_expr (a->b, b->b) || !same_expr (a->c, b->c))
    return FALSE;
  for (guint i = 0; i < a->n_args; i++)
    if (!same_expr (a->args[i], b->args[i]))
      return FALSE;
  return TRUE;
}

static gboolean
same_place (const Ref *a,
            const Ref *b)
{
  if (a->whole || b->whole || a->base != b->base || a->id != b->id || a->n_chain != b->n_chain)
    return FALSE;
  for (guint i = 0; i < a->n_chain; i++)
    if (!same_expr (a->chain[i], b->chain[i]))
      return FALSE;
  return TRUE;
}

/* index = base + offset, the offset a constant */
static const WkExpr *
split_offset (Scan         *S,
              const WkExpr *e,
              gint64       *offset)
{
  WkConst k;

  e = bare (e);
  *offset = 0;
  if (wk_const_eval (e, S->c->frame->tvals, &k, NULL) == WK_CONST_OK)
    {
      *offset = wk_const_as_i64 (k);
      return NULL;
    }
  if (e->kind == WK_E_BINARY && (e->op == WK_OP_ADD || e->op == WK_OP_SUB) &&
      wk_const_eval (e->b, S->c->frame->tvals, &k, NULL) == WK_CONST_OK)
    {
      *offset = e->op == WK_OP_ADD ? wk_const_as_i64 (k) : -wk_const_as_i64 (k);
      return bare (e->a);
    }
  if (e->kind == WK_E_BINARY && e->op == WK_OP_ADD && wk_const_eval (e->a, S->c->frame->tvals, &k, NULL) == WK_CONST_OK)
    {
      *offset = wk_const_as_i64 (k);
      return bare (e->b);
    }
  return e;
}

/* Two places of one array that nvcc can tell apart: the same indices but
 * for constants added to them. */
static gboolean
distinct (Scan      *S,
          const Ref *a,
          const Ref *b)
{
  gboolean differ = FALSE;

  if (a->whole || b->whole || a->base != b->base || a->n_chain != b->n_chain)
    return FALSE;
  for (guint i = 0; i < a->n_chain; i++)
    {
      gint64 oa, ob;
      const WkExpr *ba = split_offset (S, a->chain[i], &oa), *bb = split_offset (S, b->chain[i], &ob);
      if (!invariant (S, a->chain[i]) || !invariant (S, b->chain[i]) || !same_expr (ba, bb))
        return FALSE;
      if (oa != ob)
        differ = TRUE;
    }
  return differ;
}

static gboolean
may_alias (Scan      *S,
           const Ref *a,
           const Ref *b)
{
  if (a->space == SP_UNKNOWN || b->space == SP_UNKNOWN || a->id == NULL || b->id == NULL)
    return TRUE;
  if (a->space != b->space)
    return FALSE;
  if (a->id != b->id)
    {
      gboolean a_param = a->base != NULL && a->base->kind == WK_SYM_VAR;
      gboolean b_param = b->base != NULL && b->base->kind == WK_SYM_VAR;
      if (a->space == SP_SHARED)
        return a->is_extern && b->is_extern;
      if (a->space == SP_LOCAL || a->space == SP_CONST)
        return FALSE;
      /* global: named arrays are apart; through a pointer, unless one is __restrict__ */
      if (!a_param && !b_param)
        return FALSE;
      return !(a->is_restrict || b->is_restrict);
    }
  return !distinct (S, a, b);
}

static gboolean
candidate (Scan      *S,
           const Ref *r)
{
  const WkType *t = r->e->type;

  if (r->cond || r->whole || r->is_volatile || r->id == NULL || r->space == SP_UNKNOWN || r->space == SP_CONST ||
      t == NULL || !(t->kind < WK_N_SCALARS || t->kind == WK_TY_VECTOR))
    return FALSE;
  if (r->base != NULL && r->base->kind == WK_SYM_VAR && g_hash_table_contains (S->written, r->base))
    return FALSE;
  for (guint i = 0; i < r->n_chain; i++)
    if (!invariant (S, r->chain[i]))
      return FALSE;
  return TRUE;
}

static WkKept *
kept_new (Comp        *c,
          gboolean     load,
          gboolean     store,
          guint        pos)
{
  WkKept *k = g_new0 (WkKept, 1);

  k->load = load;
  k->store = store;
  k->load_seen = k->store_seen = WK_NONE;
  if (load == WK_KEEP_ONCE)
    {
      k->load_seen = wkk_new_mask (c);
      wkk_emit (c, WK_I_MZERO, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, k->load_seen, 0, pos);
    }
  if (store == WK_KEEP_ONCE)
    {
      k->store_seen = wkk_new_mask (c);
      wkk_emit (c, WK_I_MZERO, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, k->store_seen, 0, pos);
    }
  return k;
}

/* The store to the same place just before the loop, the statement before
 * it (as written: s[t] = 0;). */
static gboolean
stored_before (Scan         *S,
               const WkStmt *before,
               const WkStmt *loop,
               const Ref    *g)
{
  g_autoptr (GArray) refs = NULL;
  Scan B = { 0 };
  const Ref *st;
  gboolean ok;

  if (before == NULL || before->kind != WK_S_EXPR || before->e == NULL || before->e->kind != WK_E_ASSIGN ||
      before->e->op != WK_OP_NONE || !is_memory_lvalue (before->e->a))
    return FALSE;
  B.c = S->c;
  B.refs = refs = g_array_new (FALSE, TRUE, sizeof (Ref));
  B.written = g_hash_table_new (NULL, NULL);
  add_ref (&B, before->e->a, FALSE, TRUE, FALSE);
  ok = refs->len > 0;
  if (ok)
    {
      st = &g_array_index (refs, Ref, refs->len - 1);
      ok = st->store && st->e == bare (before->e->a) && same_place (st, g);
    }
  /* and nothing between: the for's initialisation reads no memory and
   * writes none of the index's variables */
  if (ok && loop->kind == WK_S_FOR && loop->init != NULL)
    {
      g_array_set_size (refs, 0);
      B.clobber = FALSE;
      scan_stmt (&B, loop->init, FALSE);
      if (refs->len > 0 || B.clobber)
        ok = FALSE;
      for (guint i = 0; ok && i < g->n_chain; i++)
        {
          GHashTableIter it;
          gpointer sym;
          g_hash_table_iter_init (&it, B.written);
          while (ok && g_hash_table_iter_next (&it, &sym, NULL))
            if (wkk_mentions_sym (g->chain[i], sym))
              ok = FALSE;
        }
    }
  g_hash_table_unref (B.written);
  return ok;
}

WkKeepScope *
wkk_keep_loop (Comp         *c,
               const WkStmt *s,
               const WkStmt *before,
               gboolean      plain,
               gboolean      unrolled)
{
  Scan S = { 0 };
  g_autoptr (GArray) refs = NULL;
  WkKeepScope *scope = NULL;
  guint n_groups = 0;

  S.c = c;
  S.refs = refs = g_array_new (FALSE, TRUE, sizeof (Ref));
  S.written = g_hash_table_new (NULL, NULL);
  if (s->kind == WK_S_FOR)
    {
      /* the initialisation runs once, before: only what it declares
       * counts (the counter, written by the increment anyway) */
      Scan I = { 0 };
      g_autoptr (GArray) irefs = g_array_new (FALSE, TRUE, sizeof (Ref));
      I.c = c;
      I.refs = irefs;
      I.written = S.written;
      scan_stmt (&I, s->init, FALSE);
    }
  if (s->kind != WK_S_DO)
    scan_expr (&S, s->e, TRUE);
  scan_stmt (&S, s->body, FALSE);
  if (s->kind == WK_S_DO)
    scan_expr (&S, s->e, TRUE);
  scan_expr (&S, s->inc, FALSE);
  if (S.clobber || refs->len == 0)
    {
      g_hash_table_unref (S.written);
      return NULL;
    }
  /* the candidates, grouped by place */
  for (guint i = 0; i < refs->len; i++)
    {
      Ref *r = &g_array_index (refs, Ref, i);
      if (!candidate (&S, r))
        continue;
      for (guint j = 0; j < i; j++)
        {
          const Ref *q = &g_array_index (refs, Ref, j);
          if (q->group >= 0 && same_place (q, r))
            {
              r->group = q->group;
              break;
            }
        }
      if (r->group < 0)
        r->group = (int) n_groups++;
    }
  for (guint gi = 0; gi < n_groups; gi++)
    {
      gboolean has_load = FALSE, has_store = FALSE, load_once = TRUE, store_once = TRUE, first_store = FALSE;
      const Ref *g = NULL;
      WkKeep load, store;
      WkKept *k;

      for (guint i = 0; i < refs->len; i++)
        {
          const Ref *r = &g_array_index (refs, Ref, i);
          if (r->group == (int) gi)
            {
              if (g == NULL)
                {
                  g = r;
                  first_store = r->store && !r->load;
                }
              has_load |= r->load;
              has_store |= r->store;
            }
        }
      if (g == NULL)
        continue;
      for (guint i = 0; i < refs->len; i++)
        {
          const Ref *r = &g_array_index (refs, Ref, i);
          if (r->group == (int) gi || !may_alias (&S, g, r))
            continue;
          store_once = FALSE;
          if (r->store)
            load_once = FALSE;
        }
      /* a loop that break, continue or return leave still forwards a
       * value it stored, but stores at every iteration (nvcc) */
      if (has_load && load_once && (first_store || stored_before (&S, before, s, g)))
        load = WK_KEEP_NEVER;
      else
        load = has_load && load_once && plain ? WK_KEEP_ONCE : WK_KEEP_EVERY;
      store = has_store && store_once && plain ? WK_KEEP_ONCE : WK_KEEP_EVERY;
      if (load == WK_KEEP_EVERY && store == WK_KEEP_EVERY)
        continue;
      k = kept_new (c, load, store, s->pos);
      k->loop = s;
      k->forwarded = load == WK_KEEP_NEVER && !first_store;
      /* the store before a loop that nvcc unrolls whole, and that runs,
       * is written over before anything reads it (not so before a loop
       * left rolled, though it surely runs: a do loop, #pragma unroll 1) */
      if (k->forwarded && store == WK_KEEP_ONCE && unrolled && c->last_store == bare (before->e->a))
        for (guint i = 0; i < c->last_store_n; i++)
          {
            WkSite *site = &g_array_index (c->prog->sites, WkSite, c->last_store_site + i);
            site->keep = WK_KEEP_NEVER;
            site->keep_line = s->pos;
          }
      if (scope == NULL)
        {
          scope = g_new0 (WkKeepScope, 1);
          scope->keys = g_ptr_array_new ();
          scope->kept = g_ptr_array_new_with_free_func (g_free);
        }
      g_ptr_array_add (scope->kept, k);
      for (guint i = 0; i < refs->len; i++)
        {
          const Ref *r = &g_array_index (refs, Ref, i);
          if (r->group == (int) gi && !g_hash_table_contains (c->kept, r->e))
            {
              g_hash_table_insert (c->kept, (gpointer) r->e, k);
              g_ptr_array_add (scope->keys, (gpointer) r->e);
            }
        }
    }
  g_hash_table_unref (S.written);
  return scope;
}

void
wkk_keep_end (Comp        *c,
              WkKeepScope *scope)
{
  if (scope == NULL)
    return;
  for (guint i = 0; i < scope->keys->len; i++)
    g_hash_table_remove (c->kept, scope->keys->pdata[i]);
  g_ptr_array_unref (scope->keys);
  g_ptr_array_unref (scope->kept);
  g_free (scope);
}

void
wkk_keep_site (Comp         *c,
               const WkExpr *e,
               guint         site,
               WsAccessKind  kind)
{
  const WkKept *k = g_hash_table_lookup (c->kept, e);
  WkSite *s;

  if (k == NULL)
    return;
  s = &g_array_index (c->prog->sites, WkSite, site);
  s->keep = kind == WS_ACCESS_LOAD ? k->load : k->store;
  s->seen = kind == WS_ACCESS_LOAD ? k->load_seen : k->store_seen;
  s->keep_line = k->loop->pos;
  s->forwarded = kind == WS_ACCESS_LOAD && k->forwarded;
}

/* ------------------------------------------------------------------ */
/* A value loaded or stored before, in straight-line code             */
/* ------------------------------------------------------------------ */

/* nvcc (LLVM's GVN) loads an element once where the code reads it again
 * before anything may have written it: if (x[i] > 0) y[i] = x[i] loads
 * x[i] once, as does x[i] * x[i], and s[t] = v; … = s[t] reads the
 * register v (nvcc 13.0's PTX for sm_90, tests/data/kernels/keep.cu). The
 * compiler keeps the places of global and shared memory loaded or stored
 * so far (Comp's avail): a store forgets those it may reach, an assignment
 * to a variable those indexed by it, and barriers, fences, atomics and
 * calls all of them; so do the ends of an if's branches (what one branch
 * loaded, the code after it has not), loops, and the right side of && and
 * ?:. A load of a place still kept is made never. A load in an if (with
 * no else) that the code after the if loads again, nothing between having
 * changed it, is one load before the if, for every lane (if (i < 16) v =
 * g[i]; o[i] = v + g[i]: nvcc hoists it; its PTX has one load). */

typedef struct
{
  Ref place;
  guint pos;                    /* where the load or store is written */
  gboolean stored;
  gboolean dead;
  gboolean pending;             /* loaded in an if's body only: nvcc makes it before the if
                                 * where the code after the if loads it too */
  guint site;                   /* pending: the body's load */
} Avail;

/* An index of registers alone (no load, no call): invariant () with
 * nothing written. */
static gboolean
pure_index (const WkExpr *e)
{
  static GHashTable *none = NULL;
  Scan S = { 0 };

  if (g_once_init_enter (&none))
    g_once_init_leave (&none, g_hash_table_new (NULL, NULL));
  S.written = none;
  return invariant (&S, e);
}

/* The place e (an lvalue) is, as a Ref; FALSE where it is none the
 * compiler can follow (then a store may reach anything). */
static gboolean
place_of (Comp         *c,
          const WkExpr *e,
          Ref          *out)
{
  Scan S = { 0 };
  g_autoptr (GArray) refs = g_array_new (FALSE, TRUE, sizeof (Ref));
  gboolean ok;

  S.c = c;
  S.refs = refs;
  S.written = g_hash_table_new (NULL, NULL);
  add_ref (&S, e, TRUE, FALSE, FALSE);
  g_hash_table_unref (S.written);
  ok = refs->len > 0 && g_array_index (refs, Ref, refs->len - 1).e == bare (e);
  if (ok)
    *out = g_array_index (refs, Ref, refs->len - 1);
  return ok;
}

static gboolean
reusable (const Ref *r)
{
  const WkType *t = r->e->type;

  if (r->whole || r->is_volatile || r->id == NULL || (r->space != SP_SHARED && r->space != SP_GLOBAL) ||
      t == NULL || !(t->kind < WK_N_SCALARS || t->kind == WK_TY_VECTOR))
    return FALSE;
  for (guint i = 0; i < r->n_chain; i++)
    if (!pure_index (r->chain[i]))
      return FALSE;
  return TRUE;
}

guint
wkk_avail_mark (Comp *c)
{
  return c->avail->len;
}

void
wkk_avail_back (Comp  *c,
                guint  mark)
{
  if (mark < c->avail->len)
    g_array_set_size (c->avail, mark);
}

void
wkk_avail_clear (Comp *c)
{
  for (guint i = 0; i < c->avail->len; i++)
    g_array_index (c->avail, Avail, i).dead = TRUE;
}

void
wkk_avail_load (Comp         *c,
                const WkExpr *e,
                guint         site)
{
  WkSite *s = &g_array_index (c->prog->sites, WkSite, site);
  Avail a = { { 0 } };

  if (!place_of (c, e, &a.place) || !reusable (&a.place))
    return;
  for (guint i = c->avail->len; i > 0; i--)
    {
      Avail *x = &g_array_index (c->avail, Avail, i - 1);
      if (x->dead || !same_place (&x->place, &a.place))
        continue;
      if (x->pending)
        {
          /* the if's load is this one, made before the if */
          WkSite *body = &g_array_index (c->prog->sites, WkSite, x->site);
          if (body->keep == WK_KEEP_EVERY && body->joined == 0 && s->keep == WK_KEEP_EVERY)
            {
              body->keep = WK_KEEP_NEVER;
              body->keep_line = e->start;
              body->hoisted = TRUE;
            }
          x->pending = FALSE;
          x->pos = e->start;
          return;
        }
      if (s->keep == WK_KEEP_EVERY && s->joined == 0)
        {
          s->keep = WK_KEEP_NEVER;
          s->keep_line = x->pos;
          s->reused = TRUE;
          s->forwarded = x->stored;
        }
      return;
    }
  a.pos = e->start;
  a.site = site;
  g_array_append_val (c->avail, a);
}

void
wkk_avail_pending (Comp  *c,
                   guint  mark)
{
  for (guint i = mark; i < c->avail->len; i++)
    {
      Avail *a = &g_array_index (c->avail, Avail, i);
      if (a->stored || a->pending)
        a->dead = TRUE;
      else
        a->pending = TRUE;
    }
}

void
wkk_avail_store (Comp         *c,
                 const WkExpr *e)
{
  Scan S = { 0 };
  Avail a = { { 0 } };
  gboolean known = place_of (c, e, &a.place);

  S.c = c;
  S.written = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < c->avail->len; i++)
    {
      Avail *x = &g_array_index (c->avail, Avail, i);
      if (!x->dead && (!known || may_alias (&S, &x->place, &a.place)))
        x->dead = TRUE;
    }
  g_hash_table_unref (S.written);
  if (known && reusable (&a.place))
    {
      a.pos = e->start;
      a.stored = TRUE;
      g_array_append_val (c->avail, a);
    }
}

void
wkk_avail_var (Comp         *c,
               const WkExpr *e)
{
  const WkExpr *x = bare (e);

  while (x->kind == WK_E_MEMBER && !x->is_arrow)
    x = bare (x->a);
  /* else a new variable's initial value, or a function's result: no
   * place is indexed by it yet */
  if (x->kind != WK_E_NAME || x->sym == NULL)
    return;
  for (guint i = 0; i < c->avail->len; i++)
    {
      Avail *a = &g_array_index (c->avail, Avail, i);
      gboolean hit = a->place.base == x->sym;
      for (guint k = 0; k < a->place.n_chain && !hit; k++)
        hit = wkk_mentions_sym (a->place.chain[k], x->sym);
      if (hit)
        a->dead = TRUE;
    }
}

GArray *
wkk_avail_new (void)
{
  return g_array_new (FALSE, TRUE, sizeof (Avail));
}
