/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-kernel-private.h"
#include "ws-kernel-arith.h"

G_BEGIN_DECLS

/* The SIMT bytecode: one kernel compiled for one launch (template values
 * known, device functions inlined), run by ws-kernel-vm.c over warps of 32
 * lanes. Every instruction acts on 32-lane register vectors; control flow
 * is structured and kept in masks: a branch taken by some lanes runs with
 * those lanes, both sides of a divergent branch run (then first), loops run
 * while any lane is in them, and break, continue and return take lanes out
 * until the construct ends. */

#define WK_LANES 32
#define WK_NONE G_MAXUINT32
#define WK_MAX_LEAVES 64

typedef enum
{
  WK_I_NOP,
  WK_I_MOV,                     /* dst = a, every lane */
  WK_I_MOVM,                    /* dst = a, the active lanes */
  WK_I_BIN,                     /* dst = a sub b, class ac; sub: WkOp (arith, bit, compare) or WK_SUB_MIN/MAX */
  WK_I_SHIFT,                   /* dst = a << b or a >> b (sub: WK_OP_SHL/SHR), class ac; b an I64 count */
  WK_I_ADDR,                    /* dst = a + b * imm2, in 64 bits: an element's address */
  WK_I_UN,                      /* dst = sub a: WK_OP_NEG, BITNOT, LNOT; class ac */
  WK_I_TRUTH,                   /* dst = a != 0 (I32 0/1), class ac */
  WK_I_CVT,                     /* dst = a converted from class ac to storage sub */
  WK_I_BITCAST,                 /* dst = a's bits as storage sub (__float_as_int…); ac the source */
  WK_I_SELECT,                  /* dst = c.i ? a : b */
  WK_I_MATH1,                   /* dst = f (a), f: sub (WkMathFn); ac F32 or F64 */
  WK_I_MATH2,
  WK_I_FMA,
  WK_I_F2I,                     /* __float2int_rn…: sub rounding, imm the result's storage, ac the source */
  WK_I_BITS,                    /* popc, clz, ffs, brev: sub WkBuiltinFn; ac the operand's class */
  WK_I_MULHI,                   /* sub: WK_BF_MULHI, UMULHI, MUL24, UMUL24 */
  WK_I_RANDOM,                  /* dst = random (a) of the lane's fill index (b) */
  WK_I_LANEID,                  /* dst = the lane's index */
  WK_I_LD,                      /* dst… = memory at a + imm2, site imm */
  WK_I_ST,                      /* memory at a + imm2 = b…, site imm */
  WK_I_ATOM,                    /* dst = old; memory at a + imm2 op= b (c: CAS's value), site imm, sub WkBuiltinFn */
  WK_I_SHFL,                    /* dst = b's value of another lane: sub mode, a value, b lane/delta, c width */
  WK_I_VOTE,                    /* sub WK_BF_BALLOT/ANY/ALL/ACTIVEMASK; a mask, b predicate */
  WK_I_JMP,                     /* pc = imm */
  WK_I_JZ,                      /* if no lane is active: pc = imm */
  WK_I_MSAVE,                   /* m[imm] = cur */
  WK_I_MLOAD,                   /* cur = m[imm] */
  WK_I_MZERO,                   /* m[imm] = 0 */
  WK_I_MAND,                    /* cur &= lanes where a.i != 0 */
  WK_I_MSPLIT,                  /* m[imm] = cur & ~(a.i != 0); cur &= a.i != 0 */
  WK_I_MCOND,                   /* m[imm] = cur & (a.i != 0) */
  WK_I_MOR,                     /* cur |= m[imm] */
  WK_I_MANDNOT,                 /* cur &= ~m[imm] */
  WK_I_MEXIT,                   /* m[imm] |= cur; cur = 0 */
  WK_I_MREJOIN,                 /* cur = m[imm] & ~(m[a] | m[b] | m[c]) (WK_NONE: none) */
  WK_I_LOOP,                    /* an iteration of loop imm: counted, and the step limit checked */
  WK_I_BAR,                     /* __syncthreads (): the warp waits for the block */
  WK_I_SYNCWARP,
  WK_I_FENCE,                   /* imm: WsKernelFence */
  WK_I_TRAP,                    /* a thread that must not be (shuffle width): imm a message id */
  WK_I_EXIT,
  WK_N_INSNS
} WkInsnOp;

/* A binary operation of one class with no trap, as its own opcode: the
 * compiler rewrites WK_I_BIN into these, so that the VM dispatches once. */
#define WK_I_BINX(sub, ac) (WK_N_INSNS + (sub) * WK_N_ACS + (ac))
G_STATIC_ASSERT (WK_N_INSNS + WK_N_OPS * WK_N_ACS <= 256);

enum
{
  WK_SUB_MIN = WK_N_OPS,
  WK_SUB_MAX,
  WK_SUB_ABS,
};

typedef enum
{
  WK_SHFL_IDX,
  WK_SHFL_UP,
  WK_SHFL_DOWN,
  WK_SHFL_XOR,
} WkShflMode;

typedef struct
{
  guint8 op;
  guint8 ac;
  guint16 sub;
  guint32 dst;
  guint32 a;
  guint32 b;
  guint32 c;
  guint32 imm;
  gint64 imm2;
  guint32 src;                  /* the instruction's place in the text (for messages) */
} WkInsn;

/* An array of the launch, as the program sees it. */
typedef struct
{
  char *name;
  WsSpace space;
  const WkType *elem;           /* its elements' type (a pointer parameter's pointee) */
  guint elem_size;
  guint64 n_elements;           /* 0 until sized */
  guint64 bytes;
  guint64 offset_bytes;         /* where a parameter's pointer starts */
  guint64 shared_offset;        /* shared: where it is in the block's shared memory */
  gint param;
  WkSym *sym;
  gboolean dynamic_shared;
  gboolean is_const;
  gboolean read;
  gboolean written;
  gboolean dynamic_index;       /* local: indexed by a value known only when running */
  guint n_leaves;               /* scalars of an element, for fills and comparing */
  WkLeaf *leaves;
} WkArray;

/* How often nvcc makes an access of a loop that it keeps in a register. */
typedef enum
{
  WK_KEEP_EVERY,                /* as written: at every iteration */
  WK_KEEP_ONCE,                 /* once per warp each time the loop is entered */
  WK_KEEP_NEVER,                /* not at all */
} WkKeep;

typedef struct
{
  guint array;
  WsAccessKind kind;
  guint size;                   /* bytes a lane moves */
  guint n_leaves;               /* registers it loads or stores */
  WkLeaf leaves[16];            /* their kinds and offsets in the access */
  gboolean read_only;
  gboolean is_volatile;
  guint part;
  guint joined;                 /* bytes of the wide load nvcc joins consecutive
                                 * iterations' elements into, or 0 (see
                                 * wkk_joined_size ()) */
  guint start;                  /* the access in the text */
  guint end;
  const char *function;
  int unroll;                   /* the #pragma unroll of the innermost loop around it
                                 * (WkStmt's unroll: -2 none, or no loop) */
  WkKeep keep;                  /* kept in a register through a loop (ws-kernel-compile-keep.c) */
  guint32 seen;                 /* WK_KEEP_ONCE: the mask slot of the lanes that made it
                                 * since the loop was entered */
  guint keep_line;              /* the loop's place in the text */
  gboolean forwarded;           /* WK_KEEP_NEVER of a load: the store before the loop's value */
  gboolean reused;              /* WK_KEEP_NEVER of a load: loaded (forwarded: stored) before,
                                 * at keep_line, in straight-line code */
  gboolean hoisted;             /* WK_KEEP_NEVER of a load in an if: made before the if, for
                                 * the load at keep_line after it */
} WkSite;

typedef struct
{
  guint start;
  const char *keyword;
  const char *function;
} WkLoopInfo;

/* Registers: [0, n_rw) each warp's own (variables, then temporaries);
 * [n_rw, n_rw + n_const) constants every warp shares. */
typedef struct
{
  GArray *code;                 /* WkInsn */
  guint n_rw;
  guint n_const;
  WkSlot *consts;               /* n_const × 32 */
  guint n_masks;
  GPtrArray *arrays;            /* WkArray * */
  GArray *sites;                /* WkSite */
  GArray *loops;                /* WkLoopInfo */
  /* registers the VM sets before a warp runs */
  guint32 reg_tid[3];
  guint32 reg_ctaid[3];
  guint32 reg_ntid[3];
  guint32 reg_nctaid[3];
  guint32 reg_fill_index;       /* fills: the scalar's index */
  GArray *param_regs;           /* guint32, per kernel parameter: its register */
  guint64 local_bytes;          /* a thread's local arrays */
  guint64 static_shared;
  const char *text;             /* the file's, for messages */
  gsize text_len;
} WkProgram;

void        wk_program_free     (WkProgram *prog);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WkProgram, wk_program_free)

/* Compiles one kernel for a launch: template values (WkSym * → WkConst *).
 * Arrays come out unsized: the instance sizes them. */
WkProgram  *wk_compile_kernel   (const WsKernelFile *file,
                                 WkFunc             *kernel,
                                 GHashTable         *template_values,
                                 GError            **error);
/* A fill: an expression of i (checked as a loose expression) converted to
 * each scalar; its value lands in register dst of a one-warp program. */
WkProgram  *wk_compile_fill     (const WsKernelFile *file,
                                 WkExpr             *expr,
                                 WkSym              *index_sym,
                                 guint32            *dst,
                                 GError            **error);

/* ------------------------------------------------------------------ */
/* Memory                                                             */
/* ------------------------------------------------------------------ */

typedef struct _WkFill WkFill;

/* One array's storage: pages filled lazily from the fill. */
typedef struct
{
  guint64 bytes;                /* the array's size (sizing: the cap) */
  guint8 **pages;
  guint64 n_pages;
  GArray *touched;              /* guint64: the pages allocated, to free them without a walk over all */
  const WkFill *fill;
  const WkArray *array;
  guint64 max_end;              /* sizing: the end of what was touched */
  gboolean sizing;              /* bounds are not known yet: record them */
  GMutex *lock;                 /* blocks running at once: held to add a page */
} WkStore;

#define WK_PAGE_SHIFT 16
#define WK_PAGE_SIZE (1u << WK_PAGE_SHIFT)

struct _WkFill
{
  WkProgram *prog;              /* NULL: the constant below, in every scalar */
  guint32 dst;
  gboolean constant;
  WkSlot value;                 /* the constant, in its own class */
  WkArith value_class;
  /* or a declaration's values, scalar by scalar in their own classes (0 past them) */
  WkSlot *table;
  WkArith *table_class;
  guint64 n_table;
};

void        wk_fill_free        (WkFill *fill);
/* Bytes [first, first + n) of an array filled with fill (NULL: zeros). */
void        wk_fill_range       (const WkFill  *fill,
                                 const WkArray *array,
                                 guint64        first,
                                 guint8        *dest,
                                 gsize          n);
guint8     *wk_store_page_slow  (WkStore       *store,
                                 guint64        page);
/* The page, filled when first touched (by any thread of a run whose
 * stores have their lock). */
static inline guint8 *
wk_store_page (WkStore *store,
               guint64  page)
{
  guint8 *p = (guint8 *) g_atomic_pointer_get (&store->pages[page]);

  return G_LIKELY (p != NULL) ? p : wk_store_page_slow (store, page);
}
void        wk_store_clear      (WkStore       *store);

/* ------------------------------------------------------------------ */
/* Running                                                            */
/* ------------------------------------------------------------------ */

typedef struct
{
  const WkProgram *prog;
  WkStore *stores;              /* per array: global and constant ones */
  guint n_stores;
  WsDim3 grid;
  WsDim3 block;
  GArray *param_values;         /* WkSlot, per parameter register */
  guint64 shared_bytes;         /* static and dynamic */
  guint64 step_limit;
  WsKernelVisitor visit;
  gpointer visit_data;
  GCancellable *cancellable;
  WsAnalysisProgress *progress;
  WsKernelRunCounts *counts;
  guint64 *loop_iterations;     /* per loop */
  guint64 steps;                /* taken so far, across calls */
  guint64 block_now;            /* the block running, or that stopped the run */
} WkRun;

gboolean    wk_run_blocks       (WkRun   *run,
                                 guint64  first,
                                 guint64  count,
                                 GError **error);
/* Copies the program's constants after its registers (n_rw + n_const
 * vectors), as a warp's registers have them. */
void        wk_program_load_consts (const WkProgram *prog,
                                    WkSlot          *regs);
/* A one-warp program with no memory (fills): runs it over lanes whose
 * fill-index register holds first + lane; regs has its constants loaded. */
void        wk_run_fill_warp    (const WkProgram *prog,
                                 WkSlot          *regs,
                                 gint64           first);

G_END_DECLS
