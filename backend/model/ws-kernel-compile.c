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
 * vector or a struct is one register per scalar. */
#include "ws-config.h"
#include "ws-kernel-vm.h"
#include "ws-i18n.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#define TEMP_BIT (1u << 30)
#define CONST_BIT (1u << 29)
#define MAX_REGS (1u << 20)

typedef struct
{
  guint n;
  guint32 r[WK_MAX_LEAVES];
  const WkType *type;
  int array;                    /* a pointer's array, or -1 */
} Val;

typedef enum
{
  LV_REG,
  LV_MEM,
} LvKind;

typedef struct
{
  LvKind kind;
  Val regs;                     /* LV_REG: the variable's registers */
  guint array;                  /* LV_MEM */
  guint32 addr;                 /* LV_MEM: a register of byte offsets */
  gint64 offset;                /* … plus this */
  const WkType *type;
  const WkExpr *expr;           /* the access, for its site */
  gboolean is_volatile;
} LVal;

typedef struct
{
  Val val;
  int array;                    /* a pointer variable's array, or -1 until it gets one */
  guint mem_array;              /* a local array's */
} VarInfo;

typedef struct _Frame Frame;
struct _Frame
{
  Frame *parent;
  WkFunc *func;
  GHashTable *vars;             /* WkSym * → VarInfo * */
  GHashTable *tvals;            /* WkSym * → WkConst * */
  guint32 ret;                  /* mask slot of lanes that returned */
  Val ret_val;
  const char *name;             /* NULL for the kernel */
  guint loops_base;             /* the loop stack's depth at entry */
};

typedef struct
{
  guint32 brk;
  guint32 cont;                 /* WK_NONE for a switch */
  gboolean is_switch;
} LoopCtx;

typedef struct
{
  const WsKernelFile *file;
  WkProgram *prog;
  GError **error;
  gboolean failed;
  Frame *frame;
  GArray *loops;                /* LoopCtx */
  guint n_vars;
  guint temp_top;
  guint temp_max;
  GArray *consts;               /* WkSlot */
  GHashTable *const_index;      /* bits → index + 1 */
  GHashTable *arrays;           /* WkSym * → index + 1 (file scope and shared) */
  int dyn_shared;
  guint32 kernel_exit;          /* mask slot: lanes that returned from the kernel */
  guint depth;
  GHashTable *counters;         /* WkSym * of loops that nvcc unrolls: indices by them are static */
  GArray *frames_vars;          /* GHashTable * to free */
  const WkExpr *unused;         /* an expression whose value nobody reads (i++ as a statement) */
  guint nesting;                /* the compiler's own recursion, across inlined functions */
} Comp;

static gboolean compile_expr (Comp *c, const WkExpr *e, Val *out);
static gboolean compile_lvalue (Comp *c, const WkExpr *e, LVal *out);
static gboolean compile_stmt (Comp *c, const WkStmt *s);

/* ------------------------------------------------------------------ */
/* Errors                                                             */
/* ------------------------------------------------------------------ */

static gboolean
fail (Comp       *c,
      guint       offset,
      int         code,
      const char *format,
      ...) G_GNUC_PRINTF (4, 5);

static gboolean
fail (Comp       *c,
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

static guint32
new_temp (Comp *c,
          guint n)
{
  guint32 r = c->temp_top;

  c->temp_top += n;
  c->temp_max = MAX (c->temp_max, c->temp_top);
  return TEMP_BIT | r;
}

static guint32
const_slot (Comp  *c,
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

static guint32
const_int (Comp  *c,
           gint64 v)
{
  WkSlot s;

  s.i = v;
  return const_slot (c, s);
}

static gboolean
is_const (guint32 r)
{
  return (r & CONST_BIT) && !(r & TEMP_BIT) && r != WK_NONE;
}

static WkSlot
const_value (Comp   *c,
             guint32 r)
{
  return g_array_index (c->consts, WkSlot, r & ~CONST_BIT);
}

static guint
emit (Comp     *c,
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

static guint
here (Comp *c)
{
  return c->prog->code->len;
}

static void
patch (Comp  *c,
       guint  at,
       guint  target)
{
  g_array_index (c->prog->code, WkInsn, at).imm = target;
}

static guint32
new_mask (Comp *c)
{
  return c->prog->n_masks++;
}

static guint32
emit_bin (Comp   *c,
          guint   op,
          WkArith ac,
          guint32 a,
          guint32 b,
          guint   src)
{
  guint32 d;

  if (is_const (a) && is_const (b) && op < WK_N_OPS && op != WK_OP_DIV && op != WK_OP_MOD)
    {
      gboolean trap = FALSE;
      WkSlot r = wk_binary_one (op, ac, const_value (c, a), const_value (c, b), &trap);
      if (!trap)
        return const_slot (c, r);
    }
  /* x + 0, 0 + x, x * 1, 1 * x of integers */
  if (ac != WK_AC_F32 && ac != WK_AC_F64)
    {
      if ((op == WK_OP_ADD || op == WK_OP_SUB) && is_const (b) && const_value (c, b).i == 0)
        return a;
      if (op == WK_OP_ADD && is_const (a) && const_value (c, a).i == 0)
        return b;
      if (op == WK_OP_MUL && is_const (b) && const_value (c, b).i == 1)
        return a;
      if (op == WK_OP_MUL && is_const (a) && const_value (c, a).i == 1)
        return b;
    }
  d = new_temp (c, 1);
  emit (c, WK_I_BIN, ac, op, d, a, b, WK_NONE, 0, 0, src);
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

static guint32
convert_reg (Comp         *c,
             guint32       r,
             const WkType *from,
             const WkType *to,
             guint         src)
{
  WkStorage fs = wk_type_storage (from), ts = wk_type_storage (to);
  guint32 d;

  if (same_bits (fs, ts))
    return r;
  if (is_const (r))
    return const_slot (c, wk_convert_one (wk_type_arith (from), ts, const_value (c, r)));
  d = new_temp (c, 1);
  emit (c, WK_I_CVT, wk_type_arith (from), ts, d, r, WK_NONE, WK_NONE, 0, 0, src);
  return d;
}

static guint32
truth (Comp         *c,
       guint32       r,
       const WkType *t,
       guint         src)
{
  guint32 d;

  if (t->kind == WK_TY_BOOL)
    return r;
  if (is_const (r))
    {
      WkSlot v = const_value (c, r);
      WkArith ac = wk_type_arith (t);
      return const_int (c, ac == WK_AC_F32 ? v.f != 0 : ac == WK_AC_F64 ? v.d != 0 : v.i != 0);
    }
  d = new_temp (c, 1);
  emit (c, WK_I_TRUTH, wk_type_arith (t), 0, d, r, WK_NONE, WK_NONE, 0, 0, src);
  return d;
}

static void
val_scalar (Val          *v,
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

static guint
add_array (Comp         *c,
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

static WkArray *
array_at (Comp *c,
          guint i)
{
  return g_ptr_array_index (c->prog->arrays, i);
}

/* The scalar kind arrays are counted in: a 2-D float tile's is float. */
static const WkType *
innermost (const WkType *t)
{
  while (t->kind == WK_TY_ARRAY)
    t = t->elem;
  return t;
}

/* The array a file-scope or shared symbol stands for. */
static gboolean
global_array (Comp      *c,
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
      return fail (c, offset, WS_KERNEL_ERROR_UNSUPPORTED, _("“%s” is not in memory"), sym->name);
    }
  *out = add_array (c, sym->name, space, t->kind == WK_TY_ARRAY ? innermost (t) : t, sym);
  if (t->kind == WK_TY_ARRAY && t->n > 0)
    {
      array_at (c, *out)->n_elements = t->size / array_at (c, *out)->elem_size;
      array_at (c, *out)->bytes = t->size;
    }
  else if (t->kind != WK_TY_ARRAY)
    {
      array_at (c, *out)->n_elements = 1;
      array_at (c, *out)->bytes = t->size;
    }
  if (sym->storage == WK_STORE_EXTERN_SHARED)
    {
      array_at (c, *out)->dynamic_shared = TRUE;
      c->dyn_shared = (int) *out;
    }
  g_hash_table_insert (c->arrays, sym, GUINT_TO_POINTER (*out + 1));
  return TRUE;
}

static guint
add_site (Comp         *c,
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
  g_array_append_val (c->prog->sites, s);
  if (kind != WS_ACCESS_STORE)
    array_at (c, array)->read = TRUE;
  if (kind != WS_ACCESS_LOAD)
    array_at (c, array)->written = TRUE;
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

static guint32
materialise_addr (Comp       *c,
                  const LVal *lv,
                  guint       src)
{
  if (lv->offset == 0)
    return lv->addr;
  return emit_bin (c, WK_OP_ADD, WK_AC_I64, lv->addr, const_int (c, lv->offset), src);
}

static gboolean
load (Comp       *c,
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
    return fail (c, lv->expr->start, WS_KERNEL_ERROR_UNSUPPORTED, _("a whole array cannot be read as a value"));
  n = wk_type_n_leaves (t);
  if (n > WK_MAX_LEAVES)
    return fail (c, lv->expr->start, WS_KERNEL_ERROR_LIMIT,
                 _("a value of more than %d numbers cannot be held in registers"), WK_MAX_LEAVES);
  wk_type_leaves (t, leaves, n);
  n_chunks = chunks_of (t, leaves, n, chunks, G_N_ELEMENTS (chunks));
  first = new_temp (c, n);
  for (guint k = 0; k < n_chunks; k++)
    {
      guint site = add_site (c, lv->array, WS_ACCESS_LOAD, t, chunks[k].leaf0, chunks[k].n_leaves, leaves,
                             chunks[k].size, n_chunks > 1 ? k : 0, lv->expr, read_only, lv->is_volatile);
      emit (c, WK_I_LD, 0, 0, first + chunks[k].leaf0, lv->addr, WK_NONE, WK_NONE, site,
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
    if (v->r[from + i] != v->r[from] + i || is_const (v->r[from]))
      ok = FALSE;
  if (ok && !is_const (v->r[from]))
    return v->r[from];
  first = new_temp (c, n);
  for (guint i = 0; i < n; i++)
    emit (c, WK_I_MOV, 0, 0, first + i, v->r[from + i], WK_NONE, WK_NONE, 0, 0, src);
  return first;
}

static gboolean
store (Comp       *c,
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
              guint32 t2 = new_temp (c, 1);
              emit (c, WK_I_MOV, 0, 0, t2, src.r[i], WK_NONE, WK_NONE, 0, 0, lv->expr->start);
              src.r[i] = t2;
              break;
            }
      for (guint i = 0; i < lv->regs.n && i < src.n; i++)
        if (src.r[i] != lv->regs.r[i])
          emit (c, WK_I_MOVM, 0, 0, lv->regs.r[i], src.r[i], WK_NONE, WK_NONE, 0, 0, lv->expr->start);
      return TRUE;
    }
  {
    WkLeaf leaves[WK_MAX_LEAVES];
    Chunk chunks[WK_MAX_LEAVES];
    guint n = wk_type_n_leaves (t), n_chunks;

    if (n > WK_MAX_LEAVES || n != v->n)
      return fail (c, lv->expr->start, WS_KERNEL_ERROR_LIMIT,
                   _("a value of more than %d numbers cannot be held in registers"), WK_MAX_LEAVES);
    wk_type_leaves (t, leaves, n);
    n_chunks = chunks_of (t, leaves, n, chunks, G_N_ELEMENTS (chunks));
    for (guint k = 0; k < n_chunks; k++)
      {
        guint site = add_site (c, lv->array, WS_ACCESS_STORE, t, chunks[k].leaf0, chunks[k].n_leaves, leaves,
                               chunks[k].size, n_chunks > 1 ? k : 0, lv->expr, FALSE, lv->is_volatile);
        guint32 src = consecutive (c, v, chunks[k].leaf0, chunks[k].n_leaves, lv->expr->start);
        emit (c, WK_I_ST, 0, 0, WK_NONE, lv->addr, src, WK_NONE, site, lv->offset + chunks[k].offset,
              lv->expr->start);
      }
  }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Variables                                                          */
/* ------------------------------------------------------------------ */

static VarInfo *
var_info (Comp        *c,
          const WkSym *sym)
{
  return g_hash_table_lookup (c->frame->vars, sym);
}

static VarInfo *
declare_var (Comp         *c,
             WkSym        *sym,
             const WkType *t)
{
  VarInfo *v = g_new0 (VarInfo, 1);
  guint n = wk_type_n_leaves (t);

  v->array = -1;
  if (n > WK_MAX_LEAVES)
    {
      fail (c, sym->pos, WS_KERNEL_ERROR_LIMIT, _("“%s” holds more than %d numbers: too many for registers"),
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
static gboolean
bind_pointer (Comp    *c,
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
    return fail (c, offset, WS_KERNEL_ERROR_UNSUPPORTED,
                 _("the pointer “%s” points into “%s” and here into “%s”: a pointer must stay in one array"),
                 sym->name, array_at (c, (guint) v->array)->name, array_at (c, (guint) array)->name);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Static indices (for private arrays in registers)                   */
/* ------------------------------------------------------------------ */

static gboolean
is_static (Comp         *c,
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
      return is_static (c, e->a);
    case WK_E_UNARY:
      return (e->op == WK_OP_NEG || e->op == WK_OP_PLUS || e->op == WK_OP_BITNOT || e->op == WK_OP_LNOT) &&
             is_static (c, e->a);
    case WK_E_BINARY:
      return e->op != WK_OP_COMMA && is_static (c, e->a) && is_static (c, e->b);
    case WK_E_COND:
      return is_static (c, e->a) && is_static (c, e->b) && is_static (c, e->c);
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

/* The counter of a for loop that nvcc unrolls: for (int i = A; i < B; i += C)
 * with constant A, B, C, i not written in the body, and few iterations (or
 * #pragma unroll). */
static WkSym *
unrolled_counter (Comp         *c,
                  const WkStmt *s)
{
  WkSym *sym = NULL;
  WkConst a, b, step;
  const WkExpr *cond = s->e, *inc = s->inc;
  gint64 trips;

  if (s->unroll == 1 || s->init == NULL || s->init->kind != WK_S_DECL || s->init->n_decls != 1 || cond == NULL ||
      inc == NULL)
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
  trips = (wk_const_as_i64 (b) - wk_const_as_i64 (a) + step.v.i - 1) / MAX (step.v.i, 1);
  if (trips < 0 || (trips > 32 && s->unroll == -2) || trips > 4096)
    return NULL;
  return sym;
}

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

  if (!compile_expr (c, index, &iv))
    return FALSE;
  r = convert_reg (c, iv.r[0], iv.type, WK_TYPE (WK_TY_LONG), index->start);
  if (is_const (r) && is_const (base))
    {
      *out = const_int (c, (gint64) ((guint64) const_value (c, base).i + (guint64) const_value (c, r).i * scale));
      return TRUE;
    }
  if (is_const (r))
    {
      *out = emit_bin (c, WK_OP_ADD, WK_AC_I64, base, const_int (c, (gint64) ((guint64) const_value (c, r).i * scale)),
                       index->start);
      return TRUE;
    }
  *out = new_temp (c, 1);
  emit (c, WK_I_ADDR, WK_AC_I64, 0, *out, base, r, WK_NONE, 0, (gint64) scale, index->start);
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
      v = var_info (c, sym);
      if (v == NULL)
        return fail (c, e->start, WS_KERNEL_ERROR_INVALID, _("“%s” is used before it is declared"), sym->name);
      out->kind = LV_REG;
      out->regs = v->val;
      out->regs.array = v->array;
      return TRUE;
    }
  if (sym->kind == WK_SYM_MEMORY)
    {
      out->kind = LV_MEM;
      out->addr = const_int (c, 0);
      out->is_volatile = (sym->type->quals & WK_Q_VOLATILE) != 0;
      if (sym->storage == WK_STORE_AUTO)
        {
          v = var_info (c, sym);
          if (v == NULL)
            return fail (c, e->start, WS_KERNEL_ERROR_INVALID, _("“%s” is used before it is declared"), sym->name);
          out->array = v->mem_array;
          return TRUE;
        }
      return global_array (c, sym, &out->array, e->start);
    }
  return fail (c, e->start, WS_KERNEL_ERROR_INVALID, _("“%s” cannot be written"), sym->name);
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
              return fail (c, e->start, WS_KERNEL_ERROR_UNSUPPORTED, _("this array is not in memory"));
            if (array_at (c, base.array)->space == WS_SPACE_LOCAL && !is_static (c, e->b))
              array_at (c, base.array)->dynamic_index = TRUE;
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
            if (!compile_expr (c, e->a, &p))
              return FALSE;
            if (p.array < 0)
              return fail (c, e->start, WS_KERNEL_ERROR_UNSUPPORTED,
                           _("the pointer “%s” does not point into an array yet"), e->a->name ? e->a->name : "?");
            if (array_at (c, (guint) p.array)->space == WS_SPACE_LOCAL)
              array_at (c, (guint) p.array)->dynamic_index = TRUE;
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
          if (!compile_expr (c, e->a, &p))
            return FALSE;
          if (p.array < 0)
            return fail (c, e->start, WS_KERNEL_ERROR_UNSUPPORTED, _("this pointer does not point into an array yet"));
          if (array_at (c, (guint) p.array)->space == WS_SPACE_LOCAL)
            array_at (c, (guint) p.array)->dynamic_index = TRUE;
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
            if (!compile_expr (c, e->a, &p))
              return FALSE;
            if (p.array < 0)
              return fail (c, e->start, WS_KERNEL_ERROR_UNSUPPORTED, _("this pointer does not point into an array yet"));
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
  return fail (c, e->start, WS_KERNEL_ERROR_UNSUPPORTED, _("this cannot be assigned to"));
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
  guint32 off = emit_bin (c, WK_OP_MUL, WK_AC_I64, convert_reg (c, n->r[0], n->type, WK_TYPE (WK_TY_LONG), e->start),
                          const_int (c, (gint64) size), e->start);

  val_scalar (out, emit_bin (c, subtract ? WK_OP_SUB : WK_OP_ADD, WK_AC_I64, p->r[0], off, e->pos), e->type);
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
  guint jz;

  if (!compile_expr (c, e->a, &a))
    return FALSE;
  ra = truth (c, a.r[0], a.type, e->pos);
  if (is_pure (e->b))
    {
      if (!compile_expr (c, e->b, &b))
        return FALSE;
      rb = truth (c, b.r[0], b.type, e->pos);
      val_scalar (out, emit_bin (c, e->op == WK_OP_LAND ? WK_OP_BITAND : WK_OP_BITOR, WK_AC_I32, ra, rb, e->pos),
                  e->type);
      return TRUE;
    }
  /* the right side only where the left one does not decide */
  res = new_temp (c, 1);
  emit (c, WK_I_MOV, 0, 0, res, ra, WK_NONE, WK_NONE, 0, 0, e->pos);
  s = new_mask (c);
  emit (c, WK_I_MSAVE, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, s, 0, e->pos);
  if (e->op == WK_OP_LAND)
    emit (c, WK_I_MAND, 0, 0, WK_NONE, res, WK_NONE, WK_NONE, 0, 0, e->pos);
  else
    {
      guint32 not_a = new_temp (c, 1);
      emit (c, WK_I_UN, WK_AC_I32, WK_OP_LNOT, not_a, res, WK_NONE, WK_NONE, 0, 0, e->pos);
      emit (c, WK_I_MAND, 0, 0, WK_NONE, not_a, WK_NONE, WK_NONE, 0, 0, e->pos);
    }
  jz = emit (c, WK_I_JZ, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, 0, 0, e->pos);
  if (!compile_expr (c, e->b, &b))
    return FALSE;
  rb = truth (c, b.r[0], b.type, e->pos);
  emit (c, WK_I_MOVM, 0, 0, res, rb, WK_NONE, WK_NONE, 0, 0, e->pos);
  patch (c, jz, here (c));
  emit (c, WK_I_MLOAD, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, s, 0, e->pos);
  val_scalar (out, res, e->type);
  return TRUE;
}

static gboolean
compile_cond (Comp         *c,
              const WkExpr *e,
              Val          *out)
{
  Val cv, a, b;
  guint32 r;

  if (!compile_expr (c, e->a, &cv))
    return FALSE;
  r = truth (c, cv.r[0], cv.type, e->pos);
  if (is_pure (e->b) && is_pure (e->c))
    {
      if (!compile_expr (c, e->b, &a) || !compile_expr (c, e->c, &b))
        return FALSE;
      out->n = a.n;
      out->type = e->type;
      out->array = a.array >= 0 ? a.array : b.array;
      if (a.array >= 0 && b.array >= 0 && a.array != b.array)
        return fail (c, e->pos, WS_KERNEL_ERROR_UNSUPPORTED,
                     _("the two pointers of “?:” point into different arrays: a pointer must stay in one array"));
      for (guint i = 0; i < a.n; i++)
        {
          guint32 d = new_temp (c, 1);
          emit (c, WK_I_SELECT, 0, 0, d, a.r[i], b.r[i], r, 0, 0, e->pos);
          out->r[i] = d;
        }
      return TRUE;
    }
  {
    guint32 s = new_mask (c), el = new_mask (c);
    guint n = wk_type_n_leaves (e->type);
    guint32 res = new_temp (c, MAX (n, 1));
    guint jz1, jz2;

    emit (c, WK_I_MSAVE, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, s, 0, e->pos);
    emit (c, WK_I_MSPLIT, 0, 0, WK_NONE, r, WK_NONE, WK_NONE, el, 0, e->pos);
    jz1 = emit (c, WK_I_JZ, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, 0, 0, e->pos);
    if (!compile_expr (c, e->b, &a))
      return FALSE;
    for (guint i = 0; i < n && i < a.n; i++)
      emit (c, WK_I_MOVM, 0, 0, res + i, a.r[i], WK_NONE, WK_NONE, 0, 0, e->pos);
    patch (c, jz1, here (c));
    emit (c, WK_I_MLOAD, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, el, 0, e->pos);
    jz2 = emit (c, WK_I_JZ, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, 0, 0, e->pos);
    if (!compile_expr (c, e->c, &b))
      return FALSE;
    for (guint i = 0; i < n && i < b.n; i++)
      emit (c, WK_I_MOVM, 0, 0, res + i, b.r[i], WK_NONE, WK_NONE, 0, 0, e->pos);
    patch (c, jz2, here (c));
    emit (c, WK_I_MLOAD, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, s, 0, e->pos);
    if (a.array >= 0 && b.array >= 0 && a.array != b.array)
      return fail (c, e->pos, WS_KERNEL_ERROR_UNSUPPORTED,
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
      guint32 d = new_temp (c, 1);
      emit (c, WK_I_SHIFT, wk_type_arith (t), op, d, a, b, WK_NONE, 0, 0, src);
      return d;
    }
  return emit_bin (c, op, wk_type_arith (t), a, b, src);
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

  if (!compile_lvalue (c, e->a, &lv) || !load (c, &lv, &old, FALSE))
    return FALSE;
  keep = old.r[0];
  if (post && lv.kind == LV_REG)
    {
      /* the old value, before the variable changes */
      keep = new_temp (c, 1);
      emit (c, WK_I_MOV, 0, 0, keep, old.r[0], WK_NONE, WK_NONE, 0, 0, e->pos);
    }
  if (t->kind == WK_TY_POINTER)
    {
      one = const_int (c, (gint64) t->elem->size);
      r = emit_bin (c, inc ? WK_OP_ADD : WK_OP_SUB, WK_AC_I64, old.r[0], one, e->pos);
    }
  else
    {
      const WkType *pt = wk_type_common (t, WK_TYPE (WK_TY_INT));
      WkSlot v;
      guint32 a = convert_reg (c, old.r[0], t, pt, e->pos);
      v.u = 0;
      if (pt->kind == WK_TY_FLOAT)
        v.f = 1.0f;
      else if (pt->kind == WK_TY_DOUBLE)
        v.d = 1.0;
      else
        v.i = 1;
      one = const_slot (c, v);
      r = convert_reg (c, emit_bin (c, inc ? WK_OP_ADD : WK_OP_SUB, wk_type_arith (pt), a, one, e->pos), pt, t,
                       e->pos);
    }
  val_scalar (&nv, r, t);
  nv.array = lv.kind == LV_REG ? lv.regs.array : -1;
  if (!store (c, &lv, &nv))
    return FALSE;
  val_scalar (out, post ? keep : r, t);
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
  if (!compile_expr (c, e->b, &rv))
    return FALSE;
  if (!compile_lvalue (c, e->a, &lv))
    return FALSE;
  if (e->op != WK_OP_NONE)
    {
      Val old;
      const WkType *ot = e->cast_type;
      guint32 r;

      if (!load (c, &lv, &old, FALSE))
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
          guint32 a = convert_reg (c, old.r[0], lv.type, ot, e->pos);
          r = arith (c, e->op, ot, a, rv.r[0], e->pos);
          val_scalar (&rv, convert_reg (c, r, ot, lv.type, e->pos), lv.type);
        }
    }
  /* a pointer variable takes its array from its value */
  if (lv.kind == LV_REG && lv.type->kind == WK_TY_POINTER)
    {
      const WkExpr *x = strip (e->a);
      if (x->kind == WK_E_NAME)
        {
          VarInfo *v = var_info (c, x->sym);
          if (!bind_pointer (c, v, x->sym, rv.array, e->pos))
            return FALSE;
          lv.regs.array = v->array;
        }
    }
  if (!store (c, &lv, &rv))
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


/* ------------------------------------------------------------------ */
/* Calls                                                              */
/* ------------------------------------------------------------------ */

static gboolean compile_inline (Comp *c, const WkExpr *e, Val *out);

static guint32
unary_op (Comp     *c,
          WkInsnOp  op,
          guint     ac,
          guint     sub,
          guint32   a,
          guint     src)
{
  guint32 d = new_temp (c, 1);

  emit (c, op, ac, sub, d, a, WK_NONE, WK_NONE, 0, 0, src);
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

  if (!compile_expr (c, e->args[0], &p) || !compile_expr (c, e->args[1], &v))
    return FALSE;
  if (e->builtin == WK_BF_ATOMIC_CAS && !compile_expr (c, e->args[2], &w))
    return FALSE;
  if (p.array < 0)
    return fail (c, e->start, WS_KERNEL_ERROR_UNSUPPORTED, _("this pointer does not point into an array yet"));
  arr = array_at (c, (guint) p.array);
  if (arr->space != WS_SPACE_GLOBAL && arr->space != WS_SPACE_SHARED)
    return fail (c, e->start, WS_KERNEL_ERROR_UNSUPPORTED,
                 _("atomics work on global and shared memory, not on “%s”"), arr->name);
  leaf.kind = e->type->kind;
  leaf.offset = 0;
  site = add_site (c, (guint) p.array, WS_ACCESS_ATOMIC, e->type, 0, 1, &leaf, e->type->size, 0, e, FALSE, FALSE);
  d = new_temp (c, 1);
  emit (c, WK_I_ATOM, 0, e->builtin, d, p.r[0], v.r[0], e->builtin == WK_BF_ATOMIC_CAS ? w.r[0] : WK_NONE, site, 0,
        e->start);
  val_scalar (out, d, e->type);
  return TRUE;
}

static gboolean
compile_call (Comp         *c,
              const WkExpr *e,
              Val          *out)
{
  Val a[4];
  guint n = MIN (e->n_args, 4);

  out->n = 0;
  out->type = e->type;
  out->array = -1;
  if (e->sym != NULL && e->sym->kind == WK_SYM_FUNC)
    return compile_inline (c, e, out);

  switch (e->builtin)
    {
    case WK_BF_SYNCTHREADS:
      emit (c, WK_I_BAR, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, 0, 0, e->start);
      return TRUE;
    case WK_BF_SYNCWARP:
      for (guint i = 0; i < n; i++)
        if (!compile_expr (c, e->args[i], &a[i]))
          return FALSE;
      emit (c, WK_I_SYNCWARP, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, 0, 0, e->start);
      return TRUE;
    case WK_BF_THREADFENCE_BLOCK:
    case WK_BF_THREADFENCE:
    case WK_BF_THREADFENCE_SYSTEM:
      emit (c, WK_I_FENCE, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE,
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
        if (!compile_expr (c, e->args[0], &a[0]))
          return FALSE;
        if (a[0].array < 0)
          return fail (c, e->start, WS_KERNEL_ERROR_UNSUPPORTED, _("this pointer does not point into an array yet"));
        lv.kind = LV_MEM;
        lv.array = (guint) a[0].array;
        lv.addr = a[0].r[0];
        lv.type = e->type;
        lv.expr = e;
        if (array_at (c, lv.array)->space != WS_SPACE_GLOBAL)
          return fail (c, e->start, WS_KERNEL_ERROR_UNSUPPORTED, _("__ldg reads global memory, not “%s”"),
                       array_at (c, lv.array)->name);
        return load (c, &lv, out, TRUE);
      }
    default:
      break;
    }

  for (guint i = 0; i < n; i++)
    if (!compile_expr (c, e->args[i], &a[i]))
      return FALSE;

  switch (e->builtin)
    {
    case WK_BF_SHFL: case WK_BF_SHFL_UP: case WK_BF_SHFL_DOWN: case WK_BF_SHFL_XOR:
      {
        guint32 d = new_temp (c, 1);
        WkShflMode mode = e->builtin == WK_BF_SHFL ? WK_SHFL_IDX : e->builtin == WK_BF_SHFL_UP ? WK_SHFL_UP :
                          e->builtin == WK_BF_SHFL_DOWN ? WK_SHFL_DOWN : WK_SHFL_XOR;
        emit (c, WK_I_SHFL, 0, mode, d, a[1].r[0], a[2].r[0], n > 3 ? a[3].r[0] : const_int (c, 32), 0, 0, e->start);
        val_scalar (out, d, e->type);
        return TRUE;
      }
    case WK_BF_BALLOT: case WK_BF_ANY: case WK_BF_ALL: case WK_BF_ACTIVEMASK:
      {
        guint32 d = new_temp (c, 1);
        emit (c, WK_I_VOTE, 0, e->builtin, d, n > 0 ? a[0].r[0] : WK_NONE, n > 1 ? a[1].r[0] : WK_NONE, WK_NONE, 0,
              0, e->start);
        val_scalar (out, d, e->type);
        return TRUE;
      }
    case WK_BF_POPC: case WK_BF_POPCLL: case WK_BF_CLZ: case WK_BF_CLZLL: case WK_BF_FFS: case WK_BF_FFSLL:
    case WK_BF_BREV:
      val_scalar (out, unary_op (c, WK_I_BITS, wk_type_arith (a[0].type), e->builtin, a[0].r[0], e->start), e->type);
      return TRUE;
    case WK_BF_MIN:
    case WK_BF_MAX:
      val_scalar (out, emit_bin (c, e->builtin == WK_BF_MIN ? WK_SUB_MIN : WK_SUB_MAX, wk_type_arith (e->cast_type),
                                 a[0].r[0], a[1].r[0], e->start), e->type);
      return TRUE;
    case WK_BF_ABS:
      val_scalar (out, unary_op (c, WK_I_UN, wk_type_arith (e->cast_type), WK_SUB_ABS, a[0].r[0], e->start), e->type);
      return TRUE;
    case WK_BF_MATH1:
      val_scalar (out, unary_op (c, WK_I_MATH1, wk_type_arith (e->cast_type), e->member, a[0].r[0], e->start),
                  e->type);
      return TRUE;
    case WK_BF_MATH2:
      {
        guint32 d = new_temp (c, 1);
        emit (c, WK_I_MATH2, wk_type_arith (e->cast_type), e->member, d, a[0].r[0], a[1].r[0], WK_NONE, 0, 0,
              e->start);
        val_scalar (out, d, e->type);
        return TRUE;
      }
    case WK_BF_FMA:
      {
        guint32 d = new_temp (c, 1);
        emit (c, WK_I_FMA, wk_type_arith (e->cast_type), 0, d, a[0].r[0], a[1].r[0], a[2].r[0], 0, 0, e->start);
        val_scalar (out, d, e->type);
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
          guint32 d = new_temp (c, 1);
          emit (c, WK_I_F2I, wk_type_arith (a[0].type), e->member, d, a[0].r[0], WK_NONE, WK_NONE,
                wk_type_storage (e->type), 0, e->start);
          val_scalar (out, d, e->type);
        }
      else
        val_scalar (out, convert_reg (c, a[0].r[0], a[0].type, e->type, e->start), e->type);
      return TRUE;
    case WK_BF_AS_BITS:
      val_scalar (out, unary_op (c, WK_I_BITCAST, wk_type_arith (a[0].type), wk_type_storage (e->type), a[0].r[0],
                                 e->start), e->type);
      return TRUE;
    case WK_BF_MUL24: case WK_BF_UMUL24: case WK_BF_MULHI: case WK_BF_UMULHI:
      {
        guint32 d = new_temp (c, 1);
        emit (c, WK_I_MULHI, 0, e->builtin, d, a[0].r[0], a[1].r[0], WK_NONE, 0, 0, e->start);
        val_scalar (out, d, e->type);
        return TRUE;
      }
    case WK_BF_PRINTF:
    case WK_BF_CLOCK:
      val_scalar (out, const_int (c, 0), e->type);
      return TRUE;
    case WK_BF_RANDOM:
      {
        guint32 d = new_temp (c, 1);
        if (c->prog->reg_fill_index == WK_NONE)
          return fail (c, e->start, WS_KERNEL_ERROR_LAUNCH, _("random (seed) is only for fills"));
        emit (c, WK_I_RANDOM, 0, 0, d, a[0].r[0], c->prog->reg_fill_index, WK_NONE, 0, 0, e->start);
        val_scalar (out, d, e->type);
        return TRUE;
      }
    default:
      break;
    }
  return fail (c, e->start, WS_KERNEL_ERROR_UNSUPPORTED, _("“%s” cannot be run"), e->name);
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
  if (!compile_expr (c, e->a, &a))
    return FALSE;
  if (e->op == WK_OP_COMMA)
    {
      c->temp_top = c->temp_top;        /* the left value is dropped */
      return compile_expr (c, e->b, out);
    }
  if (!compile_expr (c, e->b, &b))
    return FALSE;
  ta = e->a->type;
  tb = e->b->type;
  if ((e->op == WK_OP_ADD || e->op == WK_OP_SUB) && ta->kind == WK_TY_POINTER && tb->kind != WK_TY_POINTER)
    return compile_pointer_offset (c, e, &a, &b, e->op == WK_OP_SUB, out);
  if (e->op == WK_OP_SUB && ta->kind == WK_TY_POINTER)
    {
      guint32 d = emit_bin (c, WK_OP_SUB, WK_AC_I64, a.r[0], b.r[0], e->pos);
      guint32 q = new_temp (c, 1);
      if (a.array != b.array)
        return fail (c, e->pos, WS_KERNEL_ERROR_UNSUPPORTED,
                     _("pointers into different arrays cannot be subtracted"));
      emit (c, WK_I_BIN, WK_AC_I64, WK_OP_DIV, q, d, const_int (c, (gint64) ta->elem->size), WK_NONE, 0, 0, e->pos);
      val_scalar (out, q, e->type);
      return TRUE;
    }
  if (e->op == WK_OP_SHL || e->op == WK_OP_SHR)
    {
      guint32 d = new_temp (c, 1);
      guint32 count = convert_reg (c, b.r[0], tb, WK_TYPE (WK_TY_LONG), e->pos);
      if (is_const (a.r[0]) && is_const (count))
        {
          val_scalar (out, const_slot (c, wk_shift_one (e->op == WK_OP_SHL, wk_type_arith (ta), const_value (c, a.r[0]),
                                                         (wk_type_is_signed (tb) || const_value (c, count).i >= 0) ?
                                                         const_value (c, count).i : G_MAXINT64)),
                      e->type);
          return TRUE;
        }
      emit (c, WK_I_SHIFT, wk_type_arith (ta), e->op, d, a.r[0], count, WK_NONE, 0, 0, e->pos);
      val_scalar (out, d, e->type);
      return TRUE;
    }
  if (e->op >= WK_OP_LT && e->op <= WK_OP_NE && ta->kind == WK_TY_POINTER)
    {
      val_scalar (out, emit_bin (c, e->op, WK_AC_I64, a.r[0], b.r[0], e->pos), e->type);
      return TRUE;
    }
  if ((e->op == WK_OP_DIV || e->op == WK_OP_MOD) && wk_type_is_integer (ta))
    {
      guint32 d = new_temp (c, 1);
      emit (c, WK_I_BIN, wk_type_arith (ta), e->op, d, a.r[0], b.r[0], WK_NONE, 0, 0, e->pos);
      val_scalar (out, d, e->type);
      return TRUE;
    }
  val_scalar (out, emit_bin (c, e->op, wk_type_arith (ta), a.r[0], b.r[0], e->pos), e->type);
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
        VarInfo *v = var_info (c, sym);
        if (v == NULL)
          return fail (c, e->start, WS_KERNEL_ERROR_INVALID, _("“%s” is used before it is declared"), sym->name);
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
        val_scalar (out, const_slot (c, s), e->type);
        return TRUE;
      }
    case WK_SYM_TEMPLATE:
      {
        const WkConst *k = c->frame->tvals ? g_hash_table_lookup (c->frame->tvals, sym) : NULL;
        if (k == NULL)
          return fail (c, e->start, WS_KERNEL_ERROR_LAUNCH, _("the template parameter “%s” has no value"), sym->name);
        val_scalar (out, const_int (c, wk_const_convert (*k, e->type).v.i), e->type);
        return TRUE;
      }
    case WK_SYM_BUILTIN:
      {
        const guint32 *regs = sym->builtin == WK_BV_THREAD_IDX ? c->prog->reg_tid :
                              sym->builtin == WK_BV_BLOCK_IDX ? c->prog->reg_ctaid :
                              sym->builtin == WK_BV_BLOCK_DIM ? c->prog->reg_ntid : c->prog->reg_nctaid;
        if (sym->builtin == WK_BV_WARP_SIZE)
          {
            val_scalar (out, const_int (c, 32), e->type);
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
      val_scalar (out, c->prog->reg_fill_index, e->type);
      return TRUE;
    case WK_SYM_MEMORY:
      {
        LVal lv;
        return compile_lvalue (c, e, &lv) && load (c, &lv, out, FALSE);
      }
    default:
      return fail (c, e->start, WS_KERNEL_ERROR_UNSUPPORTED, _("“%s” cannot be used here"), sym->name);
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
        return fail (c, e->start, WS_KERNEL_ERROR_UNSUPPORTED, _("this array is not in memory"));
      if (array_at (c, lv.array)->space == WS_SPACE_LOCAL)
        array_at (c, lv.array)->dynamic_index = TRUE;
      val_scalar (out, materialise_addr (c, &lv, e->start), to);
      out->array = (int) lv.array;
      return TRUE;
    }
  if (!compile_expr (c, e->a, &a))
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
  val_scalar (out, convert_reg (c, a.r[0], from, to, e->start), to);
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
        val_scalar (out, const_slot (c, s), e->type);
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
        val_scalar (out, const_slot (c, s), e->type);
        return TRUE;
      }
    case WK_E_SIZEOF:
      val_scalar (out, const_int (c, (gint64) e->v.u), e->type);
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
          return compile_expr (c, e->a, out);
        case WK_OP_NEG:
        case WK_OP_BITNOT:
        case WK_OP_LNOT:
          {
            Val a;
            guint32 d;
            if (!compile_expr (c, e->a, &a))
              return FALSE;
            if (is_const (a.r[0]) && e->op != WK_OP_LNOT)
              {
                val_scalar (out, const_slot (c, wk_unary_one (e->op, wk_type_arith (a.type), const_value (c, a.r[0]))),
                            e->type);
                return TRUE;
              }
            d = new_temp (c, 1);
            emit (c, WK_I_UN, wk_type_arith (a.type), e->op, d, a.r[0], WK_NONE, WK_NONE, 0, 0, e->pos);
            val_scalar (out, d, e->type);
            return TRUE;
          }
        case WK_OP_ADDR:
          {
            LVal lv;
            if (!compile_lvalue (c, e->a, &lv))
              return FALSE;
            if (lv.kind != LV_MEM)
              return fail (c, e->start, WS_KERNEL_ERROR_UNSUPPORTED, _("only elements of arrays have addresses"));
            if (array_at (c, lv.array)->space == WS_SPACE_LOCAL)
              array_at (c, lv.array)->dynamic_index = TRUE;
            val_scalar (out, materialise_addr (c, &lv, e->start), e->type);
            out->array = (int) lv.array;
            return TRUE;
          }
        case WK_OP_DEREF:
          {
            LVal lv;
            return compile_lvalue (c, e, &lv) && load (c, &lv, out, FALSE);
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
      return compile_call (c, e, out);
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
            if (!compile_expr (c, e->a, &whole))
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
        if (!compile_lvalue (c, e, &lv) || !load (c, &lv, out, FALSE))
          return FALSE;
        if (e->type->kind == WK_TY_POINTER)
          out->array = lv.kind == LV_REG ? lv.regs.array : -1;
        return TRUE;
      }
    case WK_E_STRING:
    case WK_E_INIT_LIST:
      break;
    }
  return fail (c, e->start, WS_KERNEL_ERROR_UNSUPPORTED, _("this expression cannot be run"));
}

/* Each function is bounded by the parser; inlined into one another they
 * could nest deeper than a thread's stack holds. */
#define MAX_NESTING 1500

static gboolean
compile_expr (Comp         *c,
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
    return fail (c, e->start, WS_KERNEL_ERROR_LIMIT,
                 _("the kernel is nested too deeply once its device functions are inlined"));
  ok = compile_expr_inner (c, e, out);
  c->nesting--;
  if (!ok)
    return FALSE;
  if (out->type == NULL)
    out->type = e->type;
  return TRUE;
}

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

  emit (c, WK_I_MREJOIN, 0, 0, WK_NONE, b ? b->brk : WK_NONE, l ? l->cont : WK_NONE, c->frame->ret, saved, 0, src);
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
      return global_array (c, sym, &a, d->name_pos);
    }
  if (sym->kind == WK_SYM_MEMORY)
    {
      /* a thread's own array */
      VarInfo *v = g_new0 (VarInfo, 1);
      WkArray *arr;
      v->array = -1;
      v->mem_array = add_array (c, d->name, WS_SPACE_LOCAL, innermost (t), sym);
      arr = array_at (c, v->mem_array);
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
                  if (!compile_expr (c, flat->pdata[k], &val))
                    break;
                }
              else
                val_scalar (&val, const_int (c, 0), WK_TYPE (leaves[k].kind));
              lv.kind = LV_MEM;
              lv.array = v->mem_array;
              lv.addr = const_int (c, 0);
              lv.offset = leaves[k].offset;
              lv.type = WK_TYPE (leaves[k].kind);
              lv.expr = d->init;
              if (!store (c, &lv, &val))
                break;
            }
          g_ptr_array_unref (flat);
        }
      return !c->failed;
    }
  {
    VarInfo *v = declare_var (c, sym, t);
    Val val;
    LVal lv = { 0 };

    if (d->init == NULL)
      {
        /* C leaves it indeterminate; zero keeps every run the same */
        for (guint i = 0; i < v->val.n; i++)
          emit (c, WK_I_MOVM, 0, 0, v->val.r[i], const_int (c, 0), WK_NONE, WK_NONE, 0, 0, d->name_pos);
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
                if (!compile_expr (c, d->init->args[i], &item))
                  return FALSE;
                val.r[i] = item.r[0];
              }
            else
              val.r[i] = const_int (c, 0);
          }
        return store (c, &lv, &val);
      }
    if (!compile_expr (c, d->init, &val))
      return FALSE;
    if (t->kind == WK_TY_POINTER && !bind_pointer (c, v, sym, val.array, d->name_pos))
      return FALSE;
    return store (c, &lv, &val);
  }
}

static gboolean
compile_if (Comp         *c,
            const WkStmt *s)
{
  Val cv;
  guint32 r, saved, el;
  guint jz_then, jz_else;

  if (!compile_expr (c, s->e, &cv))
    return FALSE;
  r = truth (c, cv.r[0], cv.type, s->pos);
  saved = new_mask (c);
  emit (c, WK_I_MSAVE, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, saved, 0, s->pos);
  if (s->els == NULL)
    {
      emit (c, WK_I_MAND, 0, 0, WK_NONE, r, WK_NONE, WK_NONE, 0, 0, s->pos);
      jz_then = emit (c, WK_I_JZ, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, 0, 0, s->pos);
      if (!compile_stmt (c, s->body))
        return FALSE;
      patch (c, jz_then, here (c));
      rejoin (c, saved, s->pos);
      return TRUE;
    }
  el = new_mask (c);
  emit (c, WK_I_MSPLIT, 0, 0, WK_NONE, r, WK_NONE, WK_NONE, el, 0, s->pos);
  jz_then = emit (c, WK_I_JZ, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, 0, 0, s->pos);
  if (!compile_stmt (c, s->body))
    return FALSE;
  patch (c, jz_then, here (c));
  emit (c, WK_I_MLOAD, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, el, 0, s->pos);
  jz_else = emit (c, WK_I_JZ, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, 0, 0, s->pos);
  if (!compile_stmt (c, s->els))
    return FALSE;
  patch (c, jz_else, here (c));
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
  if (!compile_expr (c, s->e, &cv))
    return FALSE;
  emit (c, WK_I_MAND, 0, 0, WK_NONE, truth (c, cv.r[0], cv.type, s->pos), WK_NONE, WK_NONE, 0, 0, s->pos);
  *jz_out = emit (c, WK_I_JZ, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, 0, 0, s->pos);
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

  if (s->kind == WK_S_FOR && s->init != NULL && !compile_stmt (c, s->init))
    return FALSE;
  if (s->kind == WK_S_FOR)
    counter = unrolled_counter (c, s);
  id = add_loop (c, s);
  plain = !exits (s->body, FALSE, FALSE);
  saved = new_mask (c);
  iter = new_mask (c);
  ctx.brk = new_mask (c);
  ctx.cont = new_mask (c);
  emit (c, WK_I_MSAVE, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, saved, 0, s->pos);
  if (!plain)
    emit (c, WK_I_MZERO, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, ctx.brk, 0, s->pos);
  top = here (c);
  if (!plain)
    emit (c, WK_I_MZERO, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, ctx.cont, 0, s->pos);
  if (s->kind != WK_S_DO && !loop_condition (c, s, &jz))
    return FALSE;
  if (s->kind == WK_S_DO)
    jz_body = emit (c, WK_I_JZ, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, 0, 0, s->pos);
  emit (c, WK_I_LOOP, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, id, 0, s->pos);
  if (!plain)
    emit (c, WK_I_MSAVE, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, iter, 0, s->pos);
  g_array_append_val (c->loops, ctx);
  if (counter != NULL)
    g_hash_table_add (c->counters, counter);
  ok = compile_stmt (c, s->body);
  if (counter != NULL)
    g_hash_table_remove (c->counters, counter);
  g_array_set_size (c->loops, c->loops->len - 1);
  if (!ok)
    return FALSE;
  /* continued lanes come back; broken and returned ones do not */
  if (!plain)
    emit (c, WK_I_MREJOIN, 0, 0, WK_NONE, ctx.brk, c->frame->ret, WK_NONE, iter, 0, s->pos);
  if (s->kind == WK_S_FOR && s->inc != NULL)
    {
      Val dummy;
      guint mark = c->temp_top;
      guint jz_inc = plain ? G_MAXUINT : emit (c, WK_I_JZ, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, 0, 0, s->pos);
      c->unused = s->inc;
      if (!compile_expr (c, s->inc, &dummy))
        return FALSE;
      c->temp_top = mark;
      if (jz_inc != G_MAXUINT)
        patch (c, jz_inc, here (c));
    }
  if (s->kind == WK_S_DO)
    {
      guint jz_cond;
      if (!loop_condition (c, s, &jz_cond))
        return FALSE;
      emit (c, WK_I_JMP, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, top, 0, s->pos);
      patch (c, jz_cond, here (c));
      patch (c, jz_body, here (c));
    }
  else
    {
      emit (c, WK_I_JMP, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, top, 0, s->pos);
      if (jz != G_MAXUINT)
        patch (c, jz, here (c));
    }
  emit (c, WK_I_MREJOIN, 0, 0, WK_NONE, c->frame->ret, WK_NONE, WK_NONE, saved, 0, s->pos);
  return TRUE;
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

  if (!compile_expr (c, s->e, &v))
    return FALSE;
  saved = new_mask (c);
  any = new_mask (c);
  ctx.brk = new_mask (c);
  ctx.cont = WK_NONE;
  ctx.is_switch = TRUE;
  emit (c, WK_I_MSAVE, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, saved, 0, s->pos);
  emit (c, WK_I_MZERO, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, ctx.brk, 0, s->pos);
  emit (c, WK_I_MZERO, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, any, 0, s->pos);
  /* which lanes each label takes */
  for (guint i = 0; i < body->n_list; i++)
    {
      const WkStmt *x = body->list[i];
      guint32 slot;

      if (x->kind != WK_S_CASE)
        continue;
      slot = new_mask (c);
      g_array_append_val (slots, slot);
      if (x->e == NULL)
        {
          def = slot;
          continue;
        }
      {
        WkSlot k;
        guint32 eq;
        k.i = x->e->v.i;
        eq = emit_bin (c, WK_OP_EQ, wk_type_arith (v.type), v.r[0], const_slot (c, k), x->start);
        emit (c, WK_I_MCOND, 0, 0, WK_NONE, eq, WK_NONE, WK_NONE, slot, 0, x->start);
        emit (c, WK_I_MLOAD, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, any, 0, x->start);
        emit (c, WK_I_MOR, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, slot, 0, x->start);
        emit (c, WK_I_MSAVE, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, any, 0, x->start);
        emit (c, WK_I_MLOAD, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, saved, 0, x->start);
      }
    }
  if (def != WK_NONE)
    {
      emit (c, WK_I_MLOAD, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, saved, 0, s->pos);
      emit (c, WK_I_MANDNOT, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, any, 0, s->pos);
      emit (c, WK_I_MSAVE, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, def, 0, s->pos);
    }
  /* the bodies in order, each label's lanes joining those that fall through */
  matched = new_mask (c);
  emit (c, WK_I_MZERO, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, matched, 0, s->pos);
  emit (c, WK_I_MLOAD, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, matched, 0, s->pos);
  g_array_append_val (c->loops, ctx);
  {
    guint k = 0;
    for (guint i = 0; i < body->n_list && !c->failed; i++)
      {
        const WkStmt *x = body->list[i];
        if (x->kind == WK_S_CASE)
          {
            emit (c, WK_I_MOR, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, g_array_index (slots, guint32, k++), 0,
                  x->start);
            continue;
          }
        if (!compile_stmt (c, x))
          break;
      }
  }
  g_array_set_size (c->loops, c->loops->len - 1);
  if (c->failed)
    return FALSE;
  outer = innermost_loop (c, TRUE);
  emit (c, WK_I_MREJOIN, 0, 0, WK_NONE, outer ? outer->cont : WK_NONE, c->frame->ret, WK_NONE, saved, 0, s->pos);
  return TRUE;
}

static gboolean
compile_stmt_inner (Comp         *c,
                    const WkStmt *s)
{
  switch (s->kind)
    {
    case WK_S_BLOCK:
      for (guint i = 0; i < s->n_list; i++)
        if (!compile_stmt (c, s->list[i]))
          return FALSE;
      return TRUE;
    case WK_S_DECL:
      for (guint i = 0; i < s->n_decls; i++)
        if (!compile_decl (c, s->decls[i]))
          return FALSE;
      return TRUE;
    case WK_S_EXPR:
      {
        Val v;
        c->unused = s->e;
        return compile_expr (c, s->e, &v);
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
        emit (c, WK_I_MEXIT, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, l->brk, 0, s->pos);
        return TRUE;
      }
    case WK_S_CONTINUE:
      {
        const LoopCtx *l = innermost_loop (c, TRUE);
        emit (c, WK_I_MEXIT, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, l->cont, 0, s->pos);
        return TRUE;
      }
    case WK_S_RETURN:
      if (s->e != NULL)
        {
          Val v;
          LVal lv = { 0 };
          if (s->e->kind == WK_E_INIT_LIST)
            return fail (c, s->e->start, WS_KERNEL_ERROR_UNSUPPORTED, _("returning a list in braces is not supported"));
          if (!compile_expr (c, s->e, &v))
            return FALSE;
          lv.kind = LV_REG;
          lv.regs = c->frame->ret_val;
          lv.type = c->frame->func->ret;
          lv.expr = s->e;
          if (!store (c, &lv, &v))
            return FALSE;
        }
      emit (c, WK_I_MEXIT, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, c->frame->ret, 0, s->pos);
      return TRUE;
    case WK_S_SWITCH:
      return compile_switch (c, s);
    case WK_S_EMPTY:
    case WK_S_CASE:
      return TRUE;
    }
  return FALSE;
}

static gboolean
compile_stmt (Comp         *c,
              const WkStmt *s)
{
  guint mark = c->temp_top;
  gboolean ok;

  if (c->failed)
    return FALSE;
  if (++c->nesting > MAX_NESTING)
    return fail (c, s->start, WS_KERNEL_ERROR_LIMIT,
                 _("the kernel is nested too deeply once its device functions are inlined"));
  ok = compile_stmt_inner (c, s);
  c->nesting--;
  c->temp_top = mark;
  return ok && !c->failed;
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
  fr->ret = new_mask (c);
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
static gboolean
compile_inline (Comp         *c,
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
    return fail (c, e->start, WS_KERNEL_ERROR_LIMIT, _("device functions call one another more than %d deep"),
                 WK_MAX_INLINE_DEPTH);
  for (guint i = 0; i < e->n_args; i++)
    if (!compile_expr (c, e->args[i], &args[i]))
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
              return fail (c, e->targs[i]->start, WS_KERNEL_ERROR_INVALID,
                           _("a template argument must be a constant integer"));
            }
          *v = wk_const_convert (*v, f->tparams[i].type);
          g_hash_table_insert (tvals, f->tparams[i].sym, v);
        }
    }
  saved = new_mask (c);
  emit (c, WK_I_MSAVE, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, saved, 0, e->start);
  fr = push_frame (c, f, f->name);
  fr->tvals = tvals;
  emit (c, WK_I_MZERO, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, fr->ret, 0, e->start);
  c->depth++;
  for (guint i = 0; i < f->n_params && ok; i++)
    {
      VarInfo *v = declare_var (c, f->params[i]->sym, f->params[i]->type);
      for (guint k = 0; k < v->val.n && k < args[i].n; k++)
        emit (c, WK_I_MOV, 0, 0, v->val.r[k], args[i].r[k], WK_NONE, WK_NONE, 0, 0, e->start);
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
  for (guint i = 0; i < f->body->n_list && ok; i++)
    ok = compile_stmt (c, f->body->list[i]);
  c->depth--;
  *out = fr->ret_val;
  out->type = f->ret;
  pop_frame (c);
  emit (c, WK_I_MLOAD, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, saved, 0, e->end);
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
      /* a binary operation that cannot trap gets an opcode of its own */
      if (in->op == WK_I_BIN && in->sub < WK_N_OPS &&
          !((in->sub == WK_OP_DIV || in->sub == WK_OP_MOD) && in->ac != WK_AC_F32 && in->ac != WK_AC_F64))
        in->op = WK_I_BINX (in->sub, in->ac);
      /* MREJOIN's a, b and c are mask slots, not registers */
      if (in->op != WK_I_MREJOIN)
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
      VarInfo *v = declare_var (&c, d->sym, d->type);
      guint32 r = v->val.r[0];
      g_array_append_val (c.prog->param_regs, r);
      if (d->type->kind == WK_TY_POINTER)
        {
          guint a = add_array (&c, d->name, WS_SPACE_GLOBAL, d->type->elem, NULL);
          array_at (&c, a)->param = (int) i;
          array_at (&c, a)->is_const = (d->type->elem->quals & WK_Q_CONST) != 0;
          v->array = (int) a;
          v->val.array = (int) a;
        }
    }
  for (guint i = 0; i < kernel->body->n_list && !c.failed; i++)
    compile_stmt (&c, kernel->body->list[i]);
  emit (&c, WK_I_EXIT, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, 0, 0, kernel->end);
  if (!c.failed && c.prog->sites->len > WS_KERNEL_MAX_SITES)
    fail (&c, kernel->name_pos, WS_KERNEL_ERROR_LIMIT,
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
  if (compile_expr (&c, expr, &v))
    emit (&c, WK_I_MOV, 0, 0, *dst, v.r[0], WK_NONE, WK_NONE, 0, 0, expr->start);
  emit (&c, WK_I_EXIT, 0, 0, WK_NONE, WK_NONE, WK_NONE, WK_NONE, 0, 0, expr->end);
  return comp_finish (&c);
}
