/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-kernel-vm.h"

G_BEGIN_DECLS

/* What the compiler's files share: its state, values and places in
 * memory, and the pieces each calls in the others (ws-kernel-compile.c:
 * registers, instructions, arrays, sites, loads and stores, functions and
 * the program; -expr.c: places, expressions and calls; -stmt.c:
 * statements). */

#define TEMP_BIT (1u << 30)
#define CONST_BIT (1u << 29)
#define MAX_REGS (1u << 20)
/* Each function is bounded by the parser; inlined into one another they
 * could nest deeper than a thread's stack holds. */
#define MAX_NESTING 1500

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

/* A loop whose shared loads nvcc joins (wkk_join_loop ()) */
typedef struct
{
  gint64 first;                 /* the counter's first value */
  gint64 trips;
  guint group;                  /* bytes of the wide load: 16 or 8 */
} WkJoinLoop;

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
  int unroll;                   /* a loop's #pragma unroll (WkStmt's unroll) */
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
  GHashTable *joins;            /* WkSym * of a loop whose shared loads nvcc joins → WkJoinLoop * */
  GArray *frames_vars;          /* GHashTable * to free */
  const WkExpr *unused;         /* an expression whose value nobody reads (i++ as a statement) */
  guint nesting;                /* the compiler's own recursion, across inlined functions */
  GHashTable *kept;             /* const WkExpr * (an access) → WkKept *, in the loops being compiled */
  const WkStmt *before_loop;    /* the statement before the loop about to be compiled */
  const WkExpr *last_store;     /* the access of the last store compiled, its sites */
  guint last_store_site;
  guint last_store_n;
  GArray *avail;                /* places loaded or stored so far in straight-line code (…-keep.c) */
} Comp;

/* An element a loop keeps in a register (ws-kernel-compile-keep.c). */
typedef struct
{
  WkKeep load;
  WkKeep store;
  guint32 load_seen;            /* mask slots, WK_NONE */
  guint32 store_seen;
  gboolean forwarded;           /* the load is the value the statement before the loop stored */
  const WkStmt *loop;
} WkKept;

typedef struct
{
  GPtrArray *keys;              /* const WkExpr * put in Comp's kept */
  GPtrArray *kept;              /* WkKept *, owned */
} WkKeepScope;

WkKeepScope *
wkk_keep_loop (Comp         *c,
               const WkStmt *s,
               const WkStmt *before,
               gboolean      plain,
               gboolean      unrolled);
void
wkk_keep_end (Comp        *c,
              WkKeepScope *scope);
void
wkk_keep_site (Comp         *c,
               const WkExpr *e,
               guint         site,
               WsAccessKind  kind);
gint64
wkk_loop_trips (Comp         *c,
                const WkStmt *s);
gboolean
wkk_mentions_sym (const WkExpr *e,
                  const WkSym  *sym);
GArray *
wkk_avail_new (void);
guint
wkk_avail_mark (Comp *c);
void
wkk_avail_back (Comp  *c,
                guint  mark);
void
wkk_avail_clear (Comp *c);
void
wkk_avail_pending (Comp  *c,
                   guint  mark);
void
wkk_avail_load (Comp         *c,
                const WkExpr *e,
                guint         site);
void
wkk_avail_store (Comp         *c,
                 const WkExpr *e);
void
wkk_avail_var (Comp         *c,
               const WkExpr *e);

gboolean
wkk_fail (Comp       *c,
          guint       offset,
          int         code,
          const char *format,
          ...) G_GNUC_PRINTF (4, 5);
void
wkk_patch (Comp  *c,
           guint  at,
           guint  target);
guint32
wkk_materialise_addr (Comp       *c,
                      const LVal *lv,
                      guint       src);
guint32
wkk_const_int (Comp  *c,
               gint64 v);
const WkType *
wkk_innermost (const WkType *t);
guint32
wkk_truth (Comp         *c,
           guint32       r,
           const WkType *t,
           guint         src);
guint32
wkk_new_mask (Comp *c);
gboolean
wkk_load (Comp       *c,
          const LVal *lv,
          Val        *out,
          gboolean    read_only);
WkArray *
wkk_array_at (Comp *c,
              guint i);
VarInfo *
wkk_declare_var (Comp         *c,
                 WkSym        *sym,
                 const WkType *t);
gboolean
wkk_is_static (Comp         *c,
               const WkExpr *e);
gboolean
wkk_store (Comp       *c,
           const LVal *lv,
           const Val  *v);
guint
wkk_here (Comp *c);
VarInfo *
wkk_var_info (Comp        *c,
              const WkSym *sym);
void
wkk_join_loop (Comp         *c,
               const WkStmt *s,
               gboolean      add);
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
              gboolean      is_volatile);
WkSlot
wkk_const_value (Comp   *c,
                 guint32 r);
WkSym *
wkk_unrolled_counter (Comp         *c,
                      const WkStmt *s);
guint32
wkk_emit_bin (Comp   *c,
              guint   op,
              WkArith ac,
              guint32 a,
              guint32 b,
              guint   src);
gboolean
wkk_global_array (Comp      *c,
                  WkSym     *sym,
                  guint     *out,
                  guint      offset);
guint32
wkk_new_temp (Comp *c,
              guint n);
guint32
wkk_convert_reg (Comp         *c,
                 guint32       r,
                 const WkType *from,
                 const WkType *to,
                 guint         src);
gboolean
wkk_compile_inline (Comp         *c,
                    const WkExpr *e,
                    Val          *out);
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
          guint     src);
gboolean
wkk_is_const (guint32 r);
gboolean
wkk_bind_pointer (Comp    *c,
                  VarInfo *v,
                  WkSym   *sym,
                  int      array,
                  guint    offset);
guint
wkk_add_array (Comp         *c,
               const char   *name,
               WsSpace       space,
               const WkType *elem,
               WkSym        *sym);
void
wkk_val_scalar (Val          *v,
                guint32       r,
                const WkType *t);
guint32
wkk_const_slot (Comp  *c,
                WkSlot v);
gboolean
wkk_compile_expr (Comp         *c,
                  const WkExpr *e,
                  Val          *out);
gboolean
wkk_compile_stmt (Comp         *c,
                  const WkStmt *s);
gboolean
wkk_compile_list (Comp          *c,
                  WkStmt *const *list,
                  guint          n);
gboolean
wkk_compile_call (Comp         *c,
                  const WkExpr *e,
                  Val          *out);

G_END_DECLS
