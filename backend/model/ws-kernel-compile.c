/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The compiler: a checked kernel, for one launch's template values, to the
 * SIMT bytecode of ws-kernel-vm.h.
 *
 * Device functions are inlined. Every memory instruction becomes a site
 * (an array, a space, a load, store or atomic, the bytes a lane moves, and
 * where it is written). A pointer points into one array, known here: a
 * pointer variable is bound to the array of the first value it gets, and a
 * value from another array is refused with a message. Registers hold
 * values normalised to their storage (ws-kernel-arith.h); a value of a
 * vector or a struct is one register per scalar. This file holds the
 * registers, instructions, arrays, sites, loads and stores, inlined
 * functions and the program; -expr.c the expressions; -calls.c the calls of
 * built-ins; -stmt.c the statements. */
#include "ws-config.h"
#include "ws-kernel-compile-private.h"
#include "ws-i18n.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Errors                                                             */
/* ------------------------------------------------------------------ */


gboolean
wkk_fail (Comp       *c,
          guint       offset,
          int         code,
          const char *format,
          ...)
{
  g_autofree char *message = NULL;
  va_list args;

  if (c->failed)
    return FALSE;
  c->failed = TRUE;
  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  wk_set_error_at (c->error, code, c->file->text, c->file->len, offset, "%s", message);
  return FALSE;
}

/* ------------------------------------------------------------------ */
/* Registers and instructions                                         */
/* ------------------------------------------------------------------ */

static guint32
new_var (Comp *c,
         guint n)
{
  guint32 r = c->n_vars;

  c->n_vars += n;
  if (c->n_vars > MAX_REGS)
    c->n_vars = MAX_REGS;
  return r;
}

guint32
wkk_new_temp (Comp *c,
              guint n)
{
  guint32 r = c->temp_top;

  c->temp_top += n;
  c->temp_max = MAX (c->temp_max, c->temp_top);
  return TEMP_BIT | r;
}

guint32
wkk_const_slot (Comp  *c,
                WkSlot v)
{
  gpointer hit;
  guint64 key = v.u;
  guint32 index;

  /* keys of a GHashTable are pointers: fine on 64-bit, where they hold a guint64 */
  if (g_hash_table_lookup_extended (c->const_index, GSIZE_TO_POINTER ((gsize) key), NULL, &hit))
    return CONST_BIT | (GPOINTER_TO_UINT (hit) - 1);
  index = c->consts->len;
  g_array_append_val (c->consts, v);
  g_hash_table_insert (c->const_index, GSIZE_TO_POINTER ((gsize) key), GUINT_TO_POINTER (index + 1));
  return CONST_BIT | index;
}

guint32
wkk_const_int (Comp  *c,
               gint64 v)
{
  WkSlot s;

  s.i = v;
  return wkk_const_slot (c, s);
}

gboolean
wkk_is_const (guint32 r)
{
  return (r & CONST_BIT) && !(r & TEMP_BIT) && r != WK_NONE;
}

WkSlot
wkk_const_value (Comp   *c,
                 guint32 r)
{
  return g_array_index (c->consts, WkSlot, r & ~CONST_BIT);
}

guint
wkk_emit (Comp     *c,
          WkInsnOp  op,
          guint     ac,
          guint     sub,
          guint32   dst,
          guint32   a,
          guint32   b,
          guint32   cc,
          guint32   imm,
          gint64    imm2,
          guint     src)
{
  WkInsn in = { 0 };

  in.op = op;
  in.ac = (guint8) ac;
  in.sub = (guint16) sub;
  in.dst = dst;
  in.a = a;
  in.b = b;
  in.c = cc;
  in.imm = imm;
  in.imm2 = imm2;
  in.src = src;
  g_array_append_val (c->prog->code, in);
  return c->prog->code->len - 1;
}

guint
wkk_here (Comp *c)
{
  return c->prog->code->len;
}

void
wkk_patch (Comp  *c,
           guint  at,
           guint  target)
{
  g_array_index (c->prog->code, WkInsn, at).imm = target;
}

guint32
wkk_new_mask (Comp *c)
{
  return c->prog->n_masks++;
}

guint32
wkk_emit_bin (Comp   *c,
              guint   op,
              WkArith ac,
              guint32 a,
              guint32 b,
              guint   src)
{
  guint32 d;

  if (wkk_is_const (a) && wkk_is_const (b) && op < WK_N_OPS && op != WK_OP_DIV && op != WK_OP_MOD)
    {
      gboolean trap = FALSE;
      WkSlot r = wk_binary_one (op, ac, wkk_const_value (c, a), wkk_const_value (c, b), &trap);
      if (!trap)
        return wkk_const_slot (c, r);
    }
  /* x + 0, 0 + x, x * 1, 1 * x of integers */
  if (ac != WK_AC_F32 && ac != WK_AC_F64)
    {
      if ((op == WK_OP_ADD || op == WK_OP_SUB) && wkk_is_const (b) && wkk_const_value (c, b).i == 0)
        return a;
      if (op == WK_OP_ADD && wkk_is_const (a) && wkk_const_value (c, a).i == 0)
        return b;
      if (op == WK_OP_MUL && wkk_is_const (b) && wkk_const_value (c, b).i == 1)
        return a;
      if (op == WK_OP_MUL && wkk_is_const (a) && wkk_const_value (c, a).i == 1)
        return b;
    }
  d = wkk_new_temp (c, 1);
  wkk_emit (c, WK_I_BIN, ac, op, d, a, b, WK_NONE, 0, 0, src);
  return d;
}

/* ------------------------------------------------------------------ */
/* Conversions                                                        */
/* ------------------------------------------------------------------ */

/* Whether a value normalised for one storage is already normalised, with
 * the same meaning, for another (C's conversion changes nothing). */
static gboolean
same_bits (WkStorage from,
           WkStorage to)
{
  if (from == to)
    return TRUE;
  if (from == WK_SC_F32 || from == WK_SC_F64 || to == WK_SC_F32 || to == WK_SC_F64 || to == WK_SC_BOOL)
    return FALSE;
  if (to == WK_SC_I64 || to == WK_SC_U64)
    return TRUE;
  if (to == WK_SC_I32)
    return from == WK_SC_BOOL || from == WK_SC_I8 || from == WK_SC_U8 || from == WK_SC_I16 || from == WK_SC_U16;
  if (to == WK_SC_U32)
    return from == WK_SC_BOOL || from == WK_SC_U8 || from == WK_SC_U16;
  if (to == WK_SC_I16)
    return from == WK_SC_BOOL || from == WK_SC_I8 || from == WK_SC_U8;
  if (to == WK_SC_U16)
    return from == WK_SC_BOOL || from == WK_SC_U8;
  if (to == WK_SC_I8 || to == WK_SC_U8)
    return from == WK_SC_BOOL;
  return FALSE;
}

guint32
wkk_convert_reg (Comp         *c,
                 guint32       r,
                 const WkType *from,
                 const WkType *to,
                 guint         src)
{
  WkStorage fs = wk_type_storage (from), ts = wk_type_storage (to);
  guint32 d;

  if (same_bits (fs, ts))
    return r;
  if (wkk_is_const (r))
    return wkk_const_slot (c, wk_convert_one (wk_type_arith (from), ts, wkk_const_value (c, r)));
  d = wkk_new_temp (c, 1);
  wkk_emit (c, WK_I_CVT, wk_type_arith (from), ts, d, r, WK_NONE, WK_NONE, 0, 0, src);
  return d;
}

guint32
wkk_truth (Comp         *c,
           guint32       r,
           const WkType *t,
           guint         src)
{
  guint32 d;

  if (t->kind == WK_TY_BOOL)
    return r;
  if (wkk_is_const (r))
    {
      WkSlot v = wkk_const_value (c, r);
      WkArith ac = wk_type_arith (t);
      return wkk_const_int (c, ac == WK_AC_F32 ? v.f != 0 : ac == WK_AC_F64 ? v.d != 0 : v.i != 0);
    }
  d = wkk_new_temp (c, 1);
  wkk_emit (c, WK_I_TRUTH, wk_type_arith (t), 0, d, r, WK_NONE, WK_NONE, 0, 0, src);
  return d;
}

void
wkk_val_scalar (Val          *v,
                guint32       r,
                const WkType *t)
{
  v->n = 1;
  v->r[0] = r;
  v->type = t;
  v->array = -1;
}

/* ------------------------------------------------------------------ */
/* Arrays and sites                                                   */
/* ------------------------------------------------------------------ */

guint
wkk_add_array (Comp         *c,
               const char   *name,
               WsSpace       space,
               const WkType *elem,
               WkSym        *sym)
{
  WkArray *a = g_new0 (WkArray, 1);
  guint n = wk_type_n_leaves (elem);

  a->name = g_strdup (name);
  a->space = space;
  a->elem = elem;
  a->elem_size = MAX (elem->size, 1);
  a->param = -1;
  a->sym = sym;
  a->n_leaves = MIN (n, 4096);
  a->leaves = g_new0 (WkLeaf, MAX (a->n_leaves, 1));
  wk_type_leaves (elem, a->leaves, a->n_leaves);
  g_ptr_array_add (c->prog->arrays, a);
  return c->prog->arrays->len - 1;
}

WkArray *
wkk_array_at (Comp *c,
              guint i)
{
  return g_ptr_array_index (c->prog->arrays, i);
}

/* The scalar kind arrays are counted in: a 2-D float tile's is float. */
const WkType *
wkk_innermost (const WkType *t)
{
  while (t->kind == WK_TY_ARRAY)
    t = t->elem;
  return t;
}

/* The array a file-scope or shared symbol stands for. */
gboolean
wkk_global_array (Comp      *c,
                  WkSym     *sym,
                  guint     *out,
                  guint      offset)
{
  gpointer hit = g_hash_table_lookup (c->arrays, sym);
  WsSpace space;
  const WkType *t = sym->type;

  if (hit != NULL)
    {
      *out = GPOINTER_TO_UINT (hit) - 1;
      return TRUE;
    }
  switch (sym->storage)
    {
    case WK_STORE_CONSTANT: space = WS_SPACE_CONSTANT; break;
    case WK_STORE_DEVICE: space = WS_SPACE_GLOBAL; break;
    case WK_STORE_SHARED: space = WS_SPACE_SHARED; break;
    case WK_STORE_EXTERN_SHARED:
      if (c->dyn_shared >= 0)
        {
          /* every extern __shared__ array is the same memory */
          *out = (guint) c->dyn_shared;
          g_hash_table_insert (c->arrays, sym, GUINT_TO_POINTER (*out + 1));
          return TRUE;
        }
      space = WS_SPACE_SHARED;
      break;
    default:
      return wkk_fail (c, offset, WS_KERNEL_ERROR_UNSUPPORTED, _("“%s” is not in memory"), sym->name);
    }
  *out = wkk_add_array (c, sym->name, space, t->kind == WK_TY_ARRAY ? wkk_innermost (t) : t, sym);
  if (t->kind == WK_TY_ARRAY && t->n > 0)
    {
      wkk_array_at (c, *out)->n_elements = t->size / wkk_array_at (c, *out)->elem_size;
      wkk_array_at (c, *out)->bytes = t->size;
    }
  else if (t->kind != WK_TY_ARRAY)
    {
      wkk_array_at (c, *out)->n_elements = 1;
      wkk_array_at (c, *out)->bytes = t->size;
    }
  if (sym->storage == WK_STORE_EXTERN_SHARED)
    {
      wkk_array_at (c, *out)->dynamic_shared = TRUE;
      c->dyn_shared = (int) *out;
    }
  g_hash_table_insert (c->arrays, sym, GUINT_TO_POINTER (*out + 1));
  return TRUE;
}

guint
wkk_add_site (Comp         *c,
              guint         array,
              WsAccessKind  kind,
              const WkType *t,
              guint         leaf0,
              guint         n_leaves,
              const WkLeaf *leaves,
              guint         size,
              guint         part,
              const WkExpr *e,
              gboolean      read_only,
              gboolean      is_volatile)
{
  WkSite s = { 0 };

  s.array = array;
  s.kind = kind;
  s.size = size;
  s.n_leaves = n_leaves;
  for (guint i = 0; i < n_leaves && i < G_N_ELEMENTS (s.leaves); i++)
    {
      s.leaves[i].kind = leaves[leaf0 + i].kind;
      s.leaves[i].offset = leaves[leaf0 + i].offset - leaves[leaf0].offset;
    }
  s.read_only = read_only;
  s.is_volatile = is_volatile;
  s.part = part;
  s.start = e->start;
  s.end = e->end;
  s.function = c->frame->name;
  s.unroll = -2;
  for (guint i = c->loops->len; i > 0; i--)
    if (!g_array_index (c->loops, LoopCtx, i - 1).is_switch)
      {
        s.unroll = g_array_index (c->loops, LoopCtx, i - 1).unroll;
        break;
      }
  g_array_append_val (c->prog->sites, s);
  if (kind != WS_ACCESS_STORE)
    wkk_array_at (c, array)->read = TRUE;
  if (kind != WS_ACCESS_LOAD)
    wkk_array_at (c, array)->written = TRUE;
  (void) t;
  return c->prog->sites->len - 1;
}

/* How an access of a type is split into memory instructions, as nvcc
 * does: the widest power of two up to 16 bytes that the alignment allows,
 * over whole scalars. */
typedef struct
{
  guint leaf0;
  guint n_leaves;
  guint offset;
  guint size;
} Chunk;

static guint
chunks_of (const WkType *t,
           const WkLeaf *leaves,
           guint         n_leaves,
           Chunk        *out,
           guint         max)
{
  guint n = 0;
  guint align = MIN (t->align, 16);

  for (guint i = 0; i < n_leaves && n < max;)
    {
      guint start = leaves[i].offset;
      guint end = start + WK_TYPE (leaves[i].kind)->size;
      guint best_j = i + 1, best_end = end;

      /* the longest run of scalars that follow on whose size is a power of
       * two the alignment allows */
      for (guint j = i + 1; j < n_leaves && leaves[j].offset == end; j++)
        {
          guint size;
          end += WK_TYPE (leaves[j].kind)->size;
          size = end - start;
          if (size > 16)
            break;
          if ((size & (size - 1)) == 0 && size <= align && start % size == 0)
            {
              best_j = j + 1;
              best_end = end;
            }
        }
      out[n].leaf0 = i;
      out[n].n_leaves = best_j - i;
      out[n].offset = start;
      out[n].size = best_end - start;
      n++;
      i = best_j;
    }
  return n;
}

/* ------------------------------------------------------------------ */
/* Loads and stores                                                   */
/* ------------------------------------------------------------------ */

static guint joined_size (Comp       *c,
                          const LVal *lv,
                          guint       size);

guint32
wkk_materialise_addr (Comp       *c,
                      const LVal *lv,
                      guint       src)
{
  if (lv->offset == 0)
    return lv->addr;
  return wkk_emit_bin (c, WK_OP_ADD, WK_AC_I64, lv->addr, wkk_const_int (c, lv->offset), src);
}

gboolean
wkk_load (Comp       *c,
          const LVal *lv,
          Val        *out,
          gboolean    read_only)
{
  const WkType *t = lv->type;
  WkLeaf leaves[WK_MAX_LEAVES];
  Chunk chunks[WK_MAX_LEAVES];
  guint n, n_chunks;
  guint32 first;

  if (lv->kind == LV_REG)
    {
      *out = lv->regs;
      out->type = t;
      return TRUE;
    }
  if (t->kind == WK_TY_ARRAY || t->kind == WK_TY_VOID)
    return wkk_fail (c, lv->expr->start, WS_KERNEL_ERROR_UNSUPPORTED, _("a whole array cannot be read as a value"));
  n = wk_type_n_leaves (t);
  if (n > WK_MAX_LEAVES)
    return wkk_fail (c, lv->expr->start, WS_KERNEL_ERROR_LIMIT,
                 _("a value of more than %d numbers cannot be held in registers"), WK_MAX_LEAVES);
  wk_type_leaves (t, leaves, n);
  n_chunks = chunks_of (t, leaves, n, chunks, G_N_ELEMENTS (chunks));
  first = wkk_new_temp (c, n);
  for (guint k = 0; k < n_chunks; k++)
    {
      guint site = wkk_add_site (c, lv->array, WS_ACCESS_LOAD, t, chunks[k].leaf0, chunks[k].n_leaves, leaves,
                             chunks[k].size, n_chunks > 1 ? k : 0, lv->expr, read_only, lv->is_volatile);
      if (n_chunks == 1 && chunks[k].size == t->size && !lv->is_volatile)
        {
          g_array_index (c->prog->sites, WkSite, site).joined = joined_size (c, lv, t->size);
          wkk_keep_site (c, lv->expr, site, WS_ACCESS_LOAD);
          wkk_avail_load (c, lv->expr, site);
        }
      wkk_emit (c, WK_I_LD, 0, 0, first + chunks[k].leaf0, lv->addr, WK_NONE, WK_NONE, site,
            lv->offset + chunks[k].offset, lv->expr->start);
    }
  out->n = n;
  out->type = t;
  out->array = -1;
  for (guint i = 0; i < n; i++)
    out->r[i] = first + i;
  return TRUE;
}

/* The registers of v, consecutive (copied where they are not). */
static guint32
consecutive (Comp      *c,
             const Val *v,
             guint      from,
             guint      n,
             guint      src)
{
  guint32 first;
  gboolean ok = TRUE;

  for (guint i = 1; i < n; i++)
    if (v->r[from + i] != v->r[from] + i || wkk_is_const (v->r[from]))
      ok = FALSE;
  if (ok && !wkk_is_const (v->r[from]))
    return v->r[from];
  first = wkk_new_temp (c, n);
  for (guint i = 0; i < n; i++)
    wkk_emit (c, WK_I_MOV, 0, 0, first + i, v->r[from + i], WK_NONE, WK_NONE, 0, 0, src);
  return first;
}

gboolean
wkk_store (Comp       *c,
           const LVal *lv,
           const Val  *v)
{
  const WkType *t = lv->type;

  if (lv->kind == LV_REG)
    {
      Val src = *v;
      /* a source register that is also a destination (v = make_float2 (v.y, v.x)) is copied first */
      for (guint i = 0; i < lv->regs.n && i < src.n; i++)
        for (guint k = 0; k < lv->regs.n; k++)
          if (k != i && src.r[i] == lv->regs.r[k])
            {
              guint32 t2 = wkk_new_temp (c, 1);
              wkk_emit (c, WK_I_MOV, 0, 0, t2, src.r[i], WK_NONE, WK_NONE, 0, 0, lv->expr->start);
              src.r[i] = t2;
              break;
            }
      for (guint i = 0; i < lv->regs.n && i < src.n; i++)
        if (src.r[i] != lv->regs.r[i])
          wkk_emit (c, WK_I_MOVM, 0, 0, lv->regs.r[i], src.r[i], WK_NONE, WK_NONE, 0, 0, lv->expr->start);
      /* places indexed by the variable are other places now */
      wkk_avail_var (c, lv->expr);
      return TRUE;
    }
  {
    WkLeaf leaves[WK_MAX_LEAVES];
    Chunk chunks[WK_MAX_LEAVES];
    guint n = wk_type_n_leaves (t), n_chunks;

    if (n > WK_MAX_LEAVES || n != v->n)
      return wkk_fail (c, lv->expr->start, WS_KERNEL_ERROR_LIMIT,
                   _("a value of more than %d numbers cannot be held in registers"), WK_MAX_LEAVES);
    wk_type_leaves (t, leaves, n);
    n_chunks = chunks_of (t, leaves, n, chunks, G_N_ELEMENTS (chunks));
    c->last_store = lv->expr;
    c->last_store_site = c->prog->sites->len;
    c->last_store_n = n_chunks;
    for (guint k = 0; k < n_chunks; k++)
      {
        guint site = wkk_add_site (c, lv->array, WS_ACCESS_STORE, t, chunks[k].leaf0, chunks[k].n_leaves, leaves,
                               chunks[k].size, n_chunks > 1 ? k : 0, lv->expr, FALSE, lv->is_volatile);
        guint32 src = consecutive (c, v, chunks[k].leaf0, chunks[k].n_leaves, lv->expr->start);
        if (n_chunks == 1 && !lv->is_volatile)
          wkk_keep_site (c, lv->expr, site, WS_ACCESS_STORE);
        wkk_emit (c, WK_I_ST, 0, 0, WK_NONE, lv->addr, src, WK_NONE, site, lv->offset + chunks[k].offset,
              lv->expr->start);
      }
    wkk_avail_store (c, lv->expr);
  }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Variables                                                          */
/* ------------------------------------------------------------------ */

VarInfo *
wkk_var_info (Comp        *c,
              const WkSym *sym)
{
  return g_hash_table_lookup (c->frame->vars, sym);
}

VarInfo *
wkk_declare_var (Comp         *c,
                 WkSym        *sym,
                 const WkType *t)
{
  VarInfo *v = g_new0 (VarInfo, 1);
  guint n = wk_type_n_leaves (t);

  v->array = -1;
  if (n > WK_MAX_LEAVES)
    {
      wkk_fail (c, sym->pos, WS_KERNEL_ERROR_LIMIT, _("“%s” holds more than %d numbers: too many for registers"),
            sym->name, WK_MAX_LEAVES);
      n = 1;
    }
  v->val.n = n;
  v->val.type = t;
  v->val.array = -1;
  {
    guint32 r = new_var (c, MAX (n, 1));
    for (guint i = 0; i < n; i++)
      v->val.r[i] = r + i;
  }
  g_hash_table_insert (c->frame->vars, sym, v);
  return v;
}

/* A pointer variable gets its array from its first value; another array later is refused. */
gboolean
wkk_bind_pointer (Comp    *c,
                  VarInfo *v,
                  WkSym   *sym,
                  int      array,
                  guint    offset)
{
  if (array < 0)
    return TRUE;
  if (v->array < 0)
    {
      v->array = array;
      v->val.array = array;
      return TRUE;
    }
  if (v->array != array)
    return wkk_fail (c, offset, WS_KERNEL_ERROR_UNSUPPORTED,
                 _("the pointer “%s” points into “%s” and here into “%s”: a pointer must stay in one array"),
                 sym->name, wkk_array_at (c, (guint) v->array)->name, wkk_array_at (c, (guint) array)->name);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Static indices (for private arrays in registers)                   */
/* ------------------------------------------------------------------ */

gboolean
wkk_is_static (Comp         *c,
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
      if (e->sym->kind == WK_SYM_CONST || e->sym->kind == WK_SYM_TEMPLATE || e->sym->has_value)
        return TRUE;
      if (e->sym->kind == WK_SYM_BUILTIN && e->sym->builtin == WK_BV_WARP_SIZE)
        return TRUE;
      return g_hash_table_contains (c->counters, e->sym);
    case WK_E_IMPLICIT:
    case WK_E_CAST:
      return wkk_is_static (c, e->a);
    case WK_E_UNARY:
      return (e->op == WK_OP_NEG || e->op == WK_OP_PLUS || e->op == WK_OP_BITNOT || e->op == WK_OP_LNOT) &&
             wkk_is_static (c, e->a);
    case WK_E_BINARY:
      return e->op != WK_OP_COMMA && wkk_is_static (c, e->a) && wkk_is_static (c, e->b);
    case WK_E_COND:
      return wkk_is_static (c, e->a) && wkk_is_static (c, e->b) && wkk_is_static (c, e->c);
    default:
      return FALSE;
    }
}

static gboolean
writes_sym (const WkExpr *e,
            const WkSym  *sym)
{
  if (e == NULL)
    return FALSE;
  if ((e->kind == WK_E_ASSIGN || (e->kind == WK_E_UNARY && e->op >= WK_OP_PREINC)) && e->a->kind == WK_E_NAME &&
      e->a->sym == sym)
    return TRUE;
  if (writes_sym (e->a, sym) || writes_sym (e->b, sym) || writes_sym (e->c, sym))
    return TRUE;
  for (guint i = 0; i < e->n_args; i++)
    if (writes_sym (e->args[i], sym))
      return TRUE;
  return FALSE;
}

static gboolean
stmt_writes_sym (const WkStmt *s,
                 const WkSym  *sym)
{
  if (s == NULL)
    return FALSE;
  if (writes_sym (s->e, sym) || writes_sym (s->inc, sym) || stmt_writes_sym (s->init, sym) ||
      stmt_writes_sym (s->body, sym) || stmt_writes_sym (s->els, sym))
    return TRUE;
  for (guint i = 0; i < s->n_list; i++)
    if (stmt_writes_sym (s->list[i], sym))
      return TRUE;
  for (guint i = 0; i < s->n_decls; i++)
    if (writes_sym (s->decls[i]->init, sym))
      return TRUE;
  return FALSE;
}

/* The counter of a for loop that counts from a constant to a constant:
 * for (int i = A; i < B; i += C) with constant A, B, C > 0 and i not
 * written in the body; its first value, step and trip count. */
static WkSym *
counted_loop (Comp         *c,
              const WkStmt *s,
              gint64       *first,
              gint64       *step_out,
              gint64       *trips)
{
  WkSym *sym = NULL;
  WkConst a, b, step;
  const WkExpr *cond = s->e, *inc = s->inc;

  if (s->init == NULL || s->init->kind != WK_S_DECL || s->init->n_decls != 1 || cond == NULL || inc == NULL)
    return NULL;
  sym = s->init->decls[0]->sym;
  if (sym == NULL || !wk_type_is_integer (sym->type) || s->init->decls[0]->init == NULL ||
      wk_const_eval (s->init->decls[0]->init, c->frame->tvals, &a, NULL) != WK_CONST_OK)
    return NULL;
  if (cond->kind != WK_E_BINARY || (cond->op != WK_OP_LT && cond->op != WK_OP_LE && cond->op != WK_OP_NE))
    return NULL;
  {
    const WkExpr *l = cond->a;
    while (l->kind == WK_E_IMPLICIT)
      l = l->a;
    if (l->kind != WK_E_NAME || l->sym != sym ||
        wk_const_eval (cond->b, c->frame->tvals, &b, NULL) != WK_CONST_OK)
      return NULL;
  }
  if (inc->kind == WK_E_UNARY && (inc->op == WK_OP_PREINC || inc->op == WK_OP_POSTINC) && inc->a->sym == sym)
    step.v.i = 1;
  else if (inc->kind == WK_E_ASSIGN && inc->op == WK_OP_ADD && inc->a->kind == WK_E_NAME && inc->a->sym == sym &&
           wk_const_eval (inc->b, c->frame->tvals, &step, NULL) == WK_CONST_OK && step.v.i > 0)
    ;
  else
    return NULL;
  if (stmt_writes_sym (s->body, sym))
    return NULL;
  *first = wk_const_as_i64 (a);
  *step_out = step.v.i;
  *trips = (wk_const_as_i64 (b) - wk_const_as_i64 (a) + step.v.i - 1) / MAX (step.v.i, 1);
  return sym;
}

/* How many times a counted loop (above) runs, or -1 where it is not one. */
gint64
wkk_loop_trips (Comp         *c,
                const WkStmt *s)
{
  gint64 first, step, trips;

  if (s->kind != WK_S_FOR || counted_loop (c, s, &first, &step, &trips) == NULL)
    return -1;
  return trips;
}

/* The counter of a for loop that nvcc unrolls: a counted loop (above)
 * with few iterations (or #pragma unroll). */
WkSym *
wkk_unrolled_counter (Comp         *c,
                      const WkStmt *s)
{
  WkSym *sym;
  gint64 first, step, trips;

  if (s->unroll == 1 || (sym = counted_loop (c, s, &first, &step, &trips)) == NULL)
    return NULL;
  if (trips < 0 || (trips > 32 && s->unroll == -2) || trips > 4096)
    return NULL;
  return sym;
}

/* Shared loads that nvcc joins over the iterations of an unrolled loop.
 *
 * In a loop nvcc unrolls, ptxas loads the elements that a shared-memory
 * load reads in consecutive iterations with one wide instruction where it
 * can prove the address aligned: Mds[ty][k] of matmul_tiled.cu (float,
 * rows of 64 bytes, k from 0 to 16) becomes four LDS.128, each serving
 * k .. k + 3, while Nds[k][tx] (64 bytes apart from one k to the next)
 * stays sixteen LDS.  Its SASS, from nvcc 13.0 for sm_90, is what the H100's
 * and the H200's per-line counters showed (2 wavefronts for a LDS.128 of a
 * warp over two rows, instead of 4 for the four LDS).  What nvcc did in
 * other shapes (the SASS of each, counted in /kernel-lang/nvcc-joined):
 *   - a constant trip count without #pragma unroll: joined at 8, 16, 32,
 *     64 and 128 iterations (128: unrolled by 16, still joined); plain
 *     #pragma unroll the same;
 *   - #pragma unroll 8 over 16 iterations: LDS.128; #pragma unroll 4 over
 *     16: pairs only (LDS.64); #pragma unroll 2 or 1: nothing joined;
 *   - a runtime trip count: nvcc unrolls by 4 and ptxas pairs some loads
 *     (LDS.64) in a way not followed here: left as separate loads;
 *   - double: two elements per LDS.128; rows of 72 bytes (float[18]): pairs
 *     (LDS.64), the rows being only 8-byte aligned; rows of 68 bytes: none;
 *   - a range that starts or ends inside an aligned group (k + 1, k + 2,
 *     18 iterations) joins what falls inside whole groups and splits the
 *     ends (LDS.64, or a LDS.128 that also reads the element before):
 *     such a site is left unjoined here, as are loads under an if;
 *   - global loads (p[r * 16 + k]) are never joined: LDG.E each, the
 *     pointer's alignment being unknown to nvcc.
 * So a site is joined when it loads one 4- or 8-byte scalar of a
 * __shared__ array (not extern) as A[i]...[k + c], the outer indices not
 * using k, every outer row a multiple of the group's bytes, in a counted
 * loop with step 1 that nvcc unrolls as above, the counter's range starting
 * and ending on group boundaries.  The VM still runs every iteration; the
 * counting (ws_kernel_event_size ()) counts the iteration whose addresses
 * are aligned to the group as one access of the group's width (its
 * wavefronts by ws-analysis.c's rule for that width) and the others as
 * none.  The group's bytes for a loop, 16 or 8, or 0 for none. */
static guint
join_group (Comp         *c,
            const WkStmt *s,
            gint64       *first,
            gint64       *trips)
{
  gint64 step;

  if (s->unroll == 1 || counted_loop (c, s, first, &step, trips) == NULL || step != 1 || *trips <= 0)
    return 0;
  if (s->unroll < 0)
    return *trips <= 128 ? 16 : 0;
  if (s->unroll % 8 == 0 && *trips % s->unroll == 0)
    return 16;
  if (s->unroll == 4 && *trips % 4 == 0)
    return 8;
  return 0;
}

void
wkk_join_loop (Comp         *c,
               const WkStmt *s,
               gboolean      add)
{
  WkSym *sym;
  gint64 first, trips, step;
  WkJoinLoop *j;

  if (s->kind != WK_S_FOR || (sym = counted_loop (c, s, &first, &step, &trips)) == NULL)
    return;
  if (!add)
    {
      g_hash_table_remove (c->joins, sym);
      return;
    }
  j = g_new0 (WkJoinLoop, 1);
  j->group = join_group (c, s, &j->first, &j->trips);
  if (j->group == 0)
    {
      g_free (j);
      return;
    }
  g_hash_table_insert (c->joins, sym, j);
}

static const WkExpr *
strip_implicit (const WkExpr *e)
{
  while (e != NULL && e->kind == WK_E_IMPLICIT)
    e = e->a;
  return e;
}

gboolean
wkk_mentions_sym (const WkExpr *e,
              const WkSym  *sym)
{
  if (e == NULL)
    return FALSE;
  if (e->sym == sym)
    return TRUE;
  if (wkk_mentions_sym (e->a, sym) || wkk_mentions_sym (e->b, sym) || wkk_mentions_sym (e->c, sym))
    return TRUE;
  for (guint i = 0; i < e->n_args; i++)
    if (wkk_mentions_sym (e->args[i], sym))
      return TRUE;
  return FALSE;
}

/* The bytes of the wide load a load of size bytes by lv is joined into
 * (see join_group ()), or 0. */
static guint
joined_size (Comp       *c,
             const LVal *lv,
             guint       size)
{
  const WkExpr *e = lv->expr, *idx, *base;
  const WkJoinLoop *j = NULL;
  const WkSym *k = NULL;
  WkConst off;
  gint64 offset = 0;
  guint width;

  if ((size != 4 && size != 8) || e == NULL || e->kind != WK_E_INDEX || g_hash_table_size (c->joins) == 0)
    return 0;
  idx = strip_implicit (e->b);
  if (idx->kind == WK_E_NAME)
    k = idx->sym;
  else if (idx->kind == WK_E_BINARY && idx->op == WK_OP_ADD)
    {
      const WkExpr *l = strip_implicit (idx->a), *r = strip_implicit (idx->b);
      if (r->kind == WK_E_NAME && l->kind != WK_E_NAME)
        {
          const WkExpr *t = l;
          l = r;
          r = t;
        }
      if (l->kind != WK_E_NAME || wk_const_eval (r, c->frame->tvals, &off, NULL) != WK_CONST_OK)
        return 0;
      k = l->sym;
      offset = wk_const_as_i64 (off);
    }
  if (k == NULL || (j = g_hash_table_lookup (c->joins, k)) == NULL)
    return 0;
  width = j->group / size;
  if (width < 2 || (j->first + offset) % width != 0 || j->trips % width != 0)
    return 0;
  for (base = strip_implicit (e->a); base != NULL && base->kind == WK_E_INDEX; base = strip_implicit (base->a))
    if (wkk_mentions_sym (base->b, k) || base->type == NULL || base->type->size % j->group != 0)
      return 0;
  if (base == NULL || base->kind != WK_E_NAME || base->sym == NULL || base->sym->storage != WK_STORE_SHARED ||
      base->sym->type == NULL || base->sym->type->kind != WK_TY_ARRAY)
    return 0;
  return j->group;
}

/* ------------------------------------------------------------------ */
/* Functions                                                          */
/* ------------------------------------------------------------------ */

static Frame *
push_frame (Comp       *c,
            WkFunc     *f,
            const char *name)
{
  Frame *fr = g_new0 (Frame, 1);

  fr->parent = c->frame;
  fr->func = f;
  fr->vars = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  fr->name = name;
  fr->ret = wkk_new_mask (c);
  fr->loops_base = c->loops->len;
  c->frame = fr;
  return fr;
}

static void
pop_frame (Comp *c)
{
  Frame *fr = c->frame;

  c->frame = fr->parent;
  g_hash_table_unref (fr->vars);
  g_clear_pointer (&fr->tvals, g_hash_table_unref);
  g_free (fr);
}

/* An inlined call: the arguments into the parameters' registers, the body,
 * and every lane that entered is back at the end. */
gboolean
wkk_compile_inline (Comp         *c,
                    const WkExpr *e,
                    Val          *out)
{
  WkFunc *f = e->sym->func;
  Val args[WK_MAX_PARAMS];
  Frame *fr;
  guint32 saved;
  gboolean ok = TRUE;
  GHashTable *tvals = NULL;

  if (c->depth >= WK_MAX_INLINE_DEPTH)
    return wkk_fail (c, e->start, WS_KERNEL_ERROR_LIMIT, _("device functions call one another more than %d deep"),
                 WK_MAX_INLINE_DEPTH);
  for (guint i = 0; i < e->n_args; i++)
    if (!wkk_compile_expr (c, e->args[i], &args[i]))
      return FALSE;
  if (f->n_tparams > 0)
    {
      tvals = g_hash_table_new_full (NULL, NULL, NULL, g_free);
      for (guint i = 0; i < f->n_tparams; i++)
        {
          WkConst *v = g_new0 (WkConst, 1);
          if (wk_const_eval (e->targs[i], c->frame->tvals, v, NULL) != WK_CONST_OK)
            {
              g_free (v);
              g_hash_table_unref (tvals);
              return wkk_fail (c, e->targs[i]->start, WS_KERNEL_ERROR_INVALID,
                           _("a template argument must be a constant integer"));
            }
          *v = wk_const_convert (*v, f->tparams[i].type);
          g_hash_table_insert (tvals, f->tparams[i].sym, v);
        }
    }
  saved = wkk_new_mask (c);
  wkk_emit (c, WK_I_MSAVE, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, saved, 0, e->start);
  fr = push_frame (c, f, f->name);
  fr->tvals = tvals;
  wkk_emit (c, WK_I_MZERO, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, fr->ret, 0, e->start);
  c->depth++;
  for (guint i = 0; i < f->n_params && ok; i++)
    {
      VarInfo *v = wkk_declare_var (c, f->params[i]->sym, f->params[i]->type);
      for (guint k = 0; k < v->val.n && k < args[i].n; k++)
        wkk_emit (c, WK_I_MOV, 0, 0, v->val.r[k], args[i].r[k], WK_NONE, WK_NONE, 0, 0, e->start);
      v->array = args[i].array;
      v->val.array = args[i].array;
    }
  if (f->ret->kind != WK_TY_VOID)
    {
      guint n = wk_type_n_leaves (f->ret);
      guint32 r = new_var (c, MAX (n, 1));
      fr->ret_val.n = n;
      fr->ret_val.type = f->ret;
      fr->ret_val.array = -1;
      for (guint i = 0; i < n; i++)
        fr->ret_val.r[i] = r + i;
    }
  if (ok)
    ok = wkk_compile_list (c, f->body->list, f->body->n_list);
  c->depth--;
  *out = fr->ret_val;
  out->type = f->ret;
  pop_frame (c);
  wkk_emit (c, WK_I_MLOAD, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, saved, 0, e->end);
  return ok;
}

/* ------------------------------------------------------------------ */
/* The program                                                        */
/* ------------------------------------------------------------------ */

void
wk_program_free (WkProgram *prog)
{
  if (prog == NULL)
    return;
  g_array_unref (prog->code);
  g_free (prog->consts);
  for (guint i = 0; i < prog->arrays->len; i++)
    {
      WkArray *a = g_ptr_array_index (prog->arrays, i);
      g_free (a->name);
      g_free (a->leaves);
      g_free (a);
    }
  g_ptr_array_unref (prog->arrays);
  g_array_unref (prog->sites);
  g_array_unref (prog->loops);
  g_clear_pointer (&prog->param_regs, g_array_unref);
  g_free (prog);
}

static WkProgram *
program_new (const WsKernelFile *file)
{
  WkProgram *prog = g_new0 (WkProgram, 1);

  prog->code = g_array_new (FALSE, FALSE, sizeof (WkInsn));
  prog->arrays = g_ptr_array_new ();
  prog->sites = g_array_new (FALSE, FALSE, sizeof (WkSite));
  prog->loops = g_array_new (FALSE, FALSE, sizeof (WkLoopInfo));
  prog->param_regs = g_array_new (FALSE, FALSE, sizeof (guint32));
  prog->text = file->text;
  prog->text_len = file->len;
  prog->reg_fill_index = WK_NONE;
  return prog;
}

static void
comp_init (Comp               *c,
           const WsKernelFile *file,
           GError            **error)
{
  memset (c, 0, sizeof *c);
  c->file = file;
  c->error = error;
  c->prog = program_new (file);
  c->loops = g_array_new (FALSE, FALSE, sizeof (LoopCtx));
  c->consts = g_array_new (FALSE, FALSE, sizeof (WkSlot));
  c->const_index = g_hash_table_new (g_direct_hash, g_direct_equal);
  c->arrays = g_hash_table_new (NULL, NULL);
  c->counters = g_hash_table_new (NULL, NULL);
  c->joins = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  c->kept = g_hash_table_new (NULL, NULL);
  c->avail = wkk_avail_new ();
  c->dyn_shared = -1;
}

static guint32
remap (const Comp *c,
       guint32     r)
{
  if (r == WK_NONE)
    return r;
  if (r & TEMP_BIT)
    return c->n_vars + (r & ~TEMP_BIT);
  if (r & CONST_BIT)
    return c->n_vars + c->temp_max + (r & ~CONST_BIT);
  return r;
}

/* Whether nothing a warp issues comes between pc and the kernel's EXIT. */
static gboolean
ends_kernel (WkProgram *prog,
             guint      pc)
{
  for (guint i = pc; i < prog->code->len; i++)
    {
      const WkInsn *in = &g_array_index (prog->code, WkInsn, i);

      switch (in->op)
        {
        case WK_I_EXIT:
          return TRUE;
        case WK_I_NOP:
        case WK_I_MSAVE:
        case WK_I_MLOAD:
        case WK_I_MZERO:
        case WK_I_MOR:
        case WK_I_MANDNOT:
        case WK_I_MREJOIN:
          break;
        default:
          return FALSE;
        }
    }
  return FALSE;
}

/* Registers get their final numbers, the constants their vectors. */
static WkProgram *
comp_finish (Comp *c)
{
  WkProgram *prog = c->prog;

  while (c->frame != NULL)
    pop_frame (c);
  g_array_unref (c->loops);
  g_hash_table_unref (c->const_index);
  g_hash_table_unref (c->arrays);
  g_hash_table_unref (c->counters);
  g_hash_table_unref (c->joins);
  g_hash_table_unref (c->kept);
  g_array_unref (c->avail);
  if (c->failed)
    {
      g_array_unref (c->consts);
      wk_program_free (prog);
      return NULL;
    }
  for (guint i = 0; i < prog->code->len; i++)
    {
      WkInsn *in = &g_array_index (prog->code, WkInsn, i);
      in->dst = remap (c, in->dst);
      /* a division by a constant costs less (wkv_bin_cost ()) */
      if (in->op == WK_I_BIN)
        in->imm = wkk_is_const (in->b);
      /* a binary operation that cannot trap gets an opcode of its own */
      if (in->op == WK_I_BIN && in->sub < WK_N_OPS &&
          !((in->sub == WK_OP_DIV || in->sub == WK_OP_MOD) && in->ac != WK_AC_F32 && in->ac != WK_AC_F64))
        in->op = WK_I_BINX (in->sub, in->ac);
      /* an if at the kernel's end is a branch to EXIT for the lanes that
       * do not take it, never a predicated body (reduce1's `@P0 EXIT`
       * before `if (tid == 0) g_odata[…] = sdata[0]`) */
      if (in->op == WK_I_JZ && in->imm2 != 0 && ends_kernel (prog, in->imm))
        in->imm2 = 0;
      /* MREJOIN's a, b and c are mask slots, not registers; so is JZ's a */
      if (in->op == WK_I_JZ)
        in->b = in->c = WK_NONE;
      else if (in->op != WK_I_MREJOIN)
        {
          in->a = remap (c, in->a);
          in->b = remap (c, in->b);
          in->c = remap (c, in->c);
        }
    }
  prog->n_rw = c->n_vars + c->temp_max;
  prog->n_const = c->consts->len;
  prog->consts = g_new0 (WkSlot, (gsize) MAX (prog->n_const, 1) * WK_LANES);
  for (guint k = 0; k < prog->n_const; k++)
    for (guint l = 0; l < WK_LANES; l++)
      prog->consts[k * WK_LANES + l] = g_array_index (c->consts, WkSlot, k);
  g_array_unref (c->consts);
  /* a private array indexed only by constants lives in registers */
  for (guint i = 0; i < prog->arrays->len; i++)
    {
      WkArray *a = g_ptr_array_index (prog->arrays, i);
      if (a->space == WS_SPACE_LOCAL && !a->dynamic_index && a->bytes <= WS_MAX_REGISTER_BYTES)
        a->space = WS_SPACE_REGISTER;
    }
  /* where the block's static shared arrays and a thread's private arrays are */
  for (guint i = 0; i < prog->arrays->len; i++)
    {
      WkArray *a = g_ptr_array_index (prog->arrays, i);
      if (a->space == WS_SPACE_SHARED && !a->dynamic_shared)
        {
          prog->static_shared = (prog->static_shared + 15) & ~(guint64) 15;
          a->shared_offset = prog->static_shared;
          prog->static_shared += a->bytes;
        }
      else if (a->space == WS_SPACE_LOCAL || a->space == WS_SPACE_REGISTER)
        {
          prog->local_bytes = (prog->local_bytes + 15) & ~(guint64) 15;
          a->shared_offset = prog->local_bytes;
          prog->local_bytes += a->bytes;
        }
    }
  prog->local_bytes = (prog->local_bytes + 15) & ~(guint64) 15;
  return prog;
}

WkProgram *
wk_compile_kernel (const WsKernelFile *file,
                   WkFunc             *kernel,
                   GHashTable         *template_values,
                   GError            **error)
{
  Comp c;
  Frame *fr;

  comp_init (&c, file, error);
  for (guint i = 0; i < 3; i++)
    {
      c.prog->reg_tid[i] = new_var (&c, 1);
      c.prog->reg_ctaid[i] = new_var (&c, 1);
      c.prog->reg_ntid[i] = new_var (&c, 1);
      c.prog->reg_nctaid[i] = new_var (&c, 1);
    }
  fr = push_frame (&c, kernel, NULL);
  if (template_values != NULL)
    fr->tvals = g_hash_table_ref (template_values);
  c.kernel_exit = fr->ret;
  /* parameters: pointers get their arrays; every one its register */
  for (guint i = 0; i < kernel->n_params; i++)
    {
      WkDecl *d = kernel->params[i];
      VarInfo *v = wkk_declare_var (&c, d->sym, d->type);
      guint32 r = v->val.r[0];
      g_array_append_val (c.prog->param_regs, r);
      if (d->type->kind == WK_TY_POINTER)
        {
          guint a = wkk_add_array (&c, d->name, WS_SPACE_GLOBAL, d->type->elem, NULL);
          wkk_array_at (&c, a)->param = (int) i;
          wkk_array_at (&c, a)->is_const = (d->type->elem->quals & WK_Q_CONST) != 0;
          v->array = (int) a;
          v->val.array = (int) a;
        }
    }
  wkk_compile_list (&c, kernel->body->list, kernel->body->n_list);
  wkk_emit (&c, WK_I_EXIT, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, 0, 0, kernel->end);
  if (!c.failed && c.prog->sites->len > WS_KERNEL_MAX_SITES)
    wkk_fail (&c, kernel->name_pos, WS_KERNEL_ERROR_LIMIT,
          _("the kernel has %u memory instructions once its device functions are inlined; at most %d are allowed"),
          c.prog->sites->len, WS_KERNEL_MAX_SITES);
  return comp_finish (&c);
}

WkProgram *
wk_compile_fill (const WsKernelFile *file,
                 WkExpr             *expr,
                 WkSym              *index_sym,
                 guint32            *dst,
                 GError            **error)
{
  Comp c;
  Val v;
  WkFunc dummy = { 0 };

  comp_init (&c, file, error);
  dummy.ret = WK_TYPE (WK_TY_VOID);
  push_frame (&c, &dummy, NULL);
  c.prog->reg_fill_index = new_var (&c, 1);
  (void) index_sym;
  *dst = new_var (&c, 1);
  if (wkk_compile_expr (&c, expr, &v))
    wkk_emit (&c, WK_I_MOV, 0, 0, *dst, v.r[0], WK_NONE, WK_NONE, 0, 0, expr->start);
  wkk_emit (&c, WK_I_EXIT, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, 0, 0, expr->end);
  return comp_finish (&c);
}
