/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-kernel.h"

G_BEGIN_DECLS

/* What the reader's parts share: the arena, tokens, types, the tree, symbols
 * and diagnostics. Everything a file holds lives in its arena and goes with
 * it; a WsKernelFile is never changed once read. */

#define WK_MAX_NAME 255
#define WK_MAX_DIAGNOSTICS 100
#define WK_MAX_MACRO_DEPTH 64
#define WK_MAX_TOKENS (4 * 1024 * 1024)
/* tokens that macros may expand into, all levels together: far more than
 * any kernel's unrolling by macro, and a macro bomb stops in milliseconds */
#define WK_MAX_EXPANSION (64 * 1024)
#define WK_MAX_ARRAY_DIMS 3
#define WK_MAX_PARAMS 64
#define WK_MAX_FIELDS 64
#define WK_MAX_INLINE_DEPTH 8
#define WK_MAX_VECTOR 4

/* ------------------------------------------------------------------ */
/* Arena                                                              */
/* ------------------------------------------------------------------ */

typedef struct _WkArenaBlock WkArenaBlock;

typedef struct
{
  WkArenaBlock *blocks;
  gsize used;
  gsize size;
} WkArena;

gpointer    wk_arena_alloc      (WkArena    *arena,
                                 gsize       size);
char       *wk_arena_strndup    (WkArena    *arena,
                                 const char *text,
                                 gsize       len);
void        wk_arena_clear      (WkArena    *arena);

#define WK_NEW(arena, Type) ((Type *) wk_arena_alloc ((arena), sizeof (Type)))
#define WK_NEWV(arena, Type, n) ((Type *) wk_arena_alloc ((arena), sizeof (Type) * (n)))

/* ------------------------------------------------------------------ */
/* Diagnostics                                                        */
/* ------------------------------------------------------------------ */

/* Positions are byte offsets into the text until the end, where they become
 * lines and columns. */
typedef struct
{
  WsKernelSeverity severity;
  guint start;
  guint end;
  int code;                     /* WsKernelError */
  char *message;
} WkDiag;

typedef struct
{
  const char *text;
  gsize len;
  GArray *diags;                /* WkDiag */
  guint n_errors;
  gboolean too_many;
} WkDiags;

void        wk_diags_init       (WkDiags    *d,
                                 const char *text,
                                 gsize       len);
void        wk_diags_clear      (WkDiags    *d);
void        wk_diag_add         (WkDiags          *d,
                                 WsKernelSeverity  severity,
                                 int               code,
                                 guint             start,
                                 guint             end,
                                 const char       *format,
                                 ...) G_GNUC_PRINTF (6, 7);
void        wk_diag_addv        (WkDiags          *d,
                                 WsKernelSeverity  severity,
                                 int               code,
                                 guint             start,
                                 guint             end,
                                 const char       *format,
                                 va_list           args);
/* Line and column (1-based, characters) of a byte offset. */
void        wk_position         (const char *text,
                                 gsize       len,
                                 guint       offset,
                                 guint      *line,
                                 guint      *column);
WsKernelDiagnostic *wk_diag_to_public (const WkDiag *d,
                                       const char   *text,
                                       gsize         len);
/* "line L, column C: message" as a GError */
void        wk_set_error_at     (GError    **error,
                                 int         code,
                                 const char *text,
                                 gsize       len,
                                 guint       offset,
                                 const char *format,
                                 ...) G_GNUC_PRINTF (6, 7);

/* ------------------------------------------------------------------ */
/* Tokens                                                             */
/* ------------------------------------------------------------------ */

typedef enum
{
  WK_TOK_EOF,
  WK_TOK_IDENT,
  WK_TOK_INT,
  WK_TOK_FLOAT,
  WK_TOK_CHAR,
  WK_TOK_STRING,
  WK_TOK_PUNCT,
  WK_TOK_PRAGMA_UNROLL,         /* #pragma unroll: its count's tokens follow, then PRAGMA_END */
  WK_TOK_PRAGMA_END,
  WK_TOK_DEFINE,                /* the lexer's own: where a #define takes effect */
  WK_TOK_UNDEF,
} WkTokKind;

typedef enum
{
  WK_P_NONE,
  WK_P_LBRACE, WK_P_RBRACE, WK_P_LPAREN, WK_P_RPAREN, WK_P_LBRACKET, WK_P_RBRACKET,
  WK_P_SEMI, WK_P_COMMA, WK_P_DOT, WK_P_ARROW, WK_P_INC, WK_P_DEC,
  WK_P_PLUS, WK_P_MINUS, WK_P_STAR, WK_P_SLASH, WK_P_PERCENT,
  WK_P_AMP, WK_P_PIPE, WK_P_CARET, WK_P_TILDE, WK_P_BANG,
  WK_P_LT, WK_P_GT, WK_P_LE, WK_P_GE, WK_P_EQEQ, WK_P_NE, WK_P_ANDAND, WK_P_OROR,
  WK_P_SHL, WK_P_SHR,
  WK_P_ASSIGN, WK_P_PLUS_ASSIGN, WK_P_MINUS_ASSIGN, WK_P_STAR_ASSIGN, WK_P_SLASH_ASSIGN,
  WK_P_PERCENT_ASSIGN, WK_P_AMP_ASSIGN, WK_P_PIPE_ASSIGN, WK_P_CARET_ASSIGN,
  WK_P_SHL_ASSIGN, WK_P_SHR_ASSIGN,
  WK_P_QUESTION, WK_P_COLON, WK_P_COLONCOLON, WK_P_ELLIPSIS, WK_P_HASH,
  WK_N_PUNCTS
} WkPunct;

typedef struct
{
  WkTokKind kind;
  WkPunct punct;
  guint start;                  /* where it is in the text (a macro's use for an expanded token) */
  guint end;
  const char *text;             /* its own characters (in a macro's body for an expanded token) */
  guint len;
  guint64 ival;
  double fval;
  guint8 is_unsigned;           /* literal suffixes */
  guint8 n_long;
  guint8 is_float;              /* f suffix */
  guint8 is_hex;                /* a hex, octal or binary integer literal */
  guint8 from_macro;
  guint8 fn_macro;              /* an identifier naming a function-like macro */
} WkToken;

typedef struct
{
  const char *name;
  guint pos;                    /* where #define names it */
  const char *unsupported;      /* why it cannot be expanded (# or ##, …), or NULL */
  gboolean function_like;
  guint n_params;
  const char **params;
  WkToken *body;
  guint n_body;
} WkMacro;

typedef struct
{
  guint start;                  /* the comment's first character */
  char *text;                   /* what follows "warpscope:", comment marks removed */
  guint text_offset;            /* where that text starts in the file */
} WkLaunchComment;

typedef struct
{
  WkToken *tokens;              /* ends with WK_TOK_EOF */
  guint n_tokens;
  GHashTable *macros;           /* name → WkMacro * (in the arena) */
  GPtrArray *launch_comments;   /* WkLaunchComment * */
} WkLexResult;

/* Preprocesses and lexes the text: comments out, #include and unknown
 * #pragma noted and skipped, object-like macros expanded, #if… decided. */
gboolean    wk_lex              (const char  *text,
                                 gsize        len,
                                 WkArena     *arena,
                                 WkDiags     *diags,
                                 WkLexResult *out);
/* Lexes a short text (a value of the launch comment) with the file's
 * macros; positions are offsets into text + base. */
gboolean    wk_lex_fragment     (const char  *text,
                                 gsize        len,
                                 guint        base,
                                 GHashTable  *macros,
                                 WkArena     *arena,
                                 WkDiags     *diags,
                                 WkLexResult *out);
const char *wk_punct_text       (WkPunct     p);

/* ------------------------------------------------------------------ */
/* Types                                                              */
/* ------------------------------------------------------------------ */

typedef enum
{
  WK_TY_VOID,
  WK_TY_BOOL,
  WK_TY_CHAR,                   /* plain char: signed, as nvcc has it */
  WK_TY_SCHAR,
  WK_TY_UCHAR,
  WK_TY_SHORT,
  WK_TY_USHORT,
  WK_TY_INT,
  WK_TY_UINT,
  WK_TY_LONG,
  WK_TY_ULONG,
  WK_TY_LLONG,
  WK_TY_ULLONG,
  WK_TY_FLOAT,
  WK_TY_DOUBLE,
  WK_N_SCALARS,
  WK_TY_VECTOR = WK_N_SCALARS,  /* float4, int2, uint3 (threadIdx), dim3 */
  WK_TY_STRUCT,
  WK_TY_POINTER,
  WK_TY_ARRAY,
} WkTypeKind;

/* The arithmetic a scalar computes in: what registers hold. */
typedef enum
{
  WK_AC_I32,
  WK_AC_U32,
  WK_AC_I64,
  WK_AC_U64,
  WK_AC_F32,
  WK_AC_F64,
  WK_N_ACS
} WkArith;

/* How a value is kept: every register holds its value normalised to this. */
typedef enum
{
  WK_SC_BOOL,
  WK_SC_I8,
  WK_SC_U8,
  WK_SC_I16,
  WK_SC_U16,
  WK_SC_I32,
  WK_SC_U32,
  WK_SC_I64,
  WK_SC_U64,
  WK_SC_F32,
  WK_SC_F64,
  WK_N_SCS
} WkStorage;

enum
{
  WK_Q_CONST = 1 << 0,
  WK_Q_VOLATILE = 1 << 1,
  WK_Q_RESTRICT = 1 << 2,
};

typedef struct _WkType WkType;
typedef struct _WkStruct WkStruct;
typedef struct _WkExpr WkExpr;

typedef struct
{
  const char *name;
  const WkType *type;
  guint offset;
  guint pos;
} WkField;

struct _WkStruct
{
  const char *name;
  guint pos;
  guint n_fields;
  WkField *fields;
  guint size;
  guint align;
  guint explicit_align;         /* __align__ (n) / alignas (n), or 0 */
  gboolean complete;
};

struct _WkType
{
  WkTypeKind kind;
  guint8 quals;
  guint size;
  guint align;
  const WkType *elem;           /* pointer: pointee; array: element; vector: component */
  guint64 n;                    /* array length (0: unsized, extern); vector: components */
  WkExpr *n_expr;               /* an array length that depends on a template parameter */
  const WkStruct *st;
  const char *name;             /* vector: "float4"; struct: its name; int: a template's T, unbound */
};

extern const WkType wk_scalar_types[WK_N_SCALARS];
#define WK_TYPE(k) (&wk_scalar_types[(k)])

const WkType *wk_type_vector     (WkTypeKind  component,
                                  guint       n);
/* The vector type of a name ("float4"), or NULL. */
const WkType *wk_type_vector_by_name (const char *name,
                                      gsize       len);
const WkType *wk_type_pointer    (WkArena      *arena,
                                  const WkType *pointee,
                                  guint8        quals);
const WkType *wk_type_array      (WkArena      *arena,
                                  const WkType *elem,
                                  guint64       n);
const WkType *wk_type_qualified  (WkArena      *arena,
                                  const WkType *type,
                                  guint8        quals);
const WkType *wk_type_unqualified (WkArena      *arena,
                                   const WkType *type);
gboolean    wk_type_is_scalar    (const WkType *t);
gboolean    wk_type_is_integer   (const WkType *t);
gboolean    wk_type_is_float     (const WkType *t);
gboolean    wk_type_is_arith     (const WkType *t);
gboolean    wk_type_is_signed    (const WkType *t);
gboolean    wk_type_is_aggregate (const WkType *t);   /* vector or struct */
gboolean    wk_type_equal        (const WkType *a,
                                  const WkType *b,
                                  gboolean      with_quals);
WkArith     wk_type_arith        (const WkType *t);
WkStorage   wk_type_storage      (const WkType *t);
/* The type integer promotion gives. */
const WkType *wk_type_promote    (const WkType *t);
/* The usual arithmetic conversions. */
const WkType *wk_type_common     (const WkType *a,
                                  const WkType *b);
/* Scalars a type holds, in memory order (a vector's components, a struct's
 * fields, recursively), for registers and for comparing memory. */
guint       wk_type_n_leaves     (const WkType *t);
typedef struct
{
  WkTypeKind kind;              /* a scalar kind */
  guint offset;
} WkLeaf;
guint       wk_type_leaves       (const WkType *t,
                                  WkLeaf       *out,
                                  guint         max);
/* CUDA's spelling; with a declarator name for arrays and pointers when
 * name is not NULL ("float tile[32][33]"). */
char       *wk_type_to_string    (const WkType *t);
void        wk_type_print_decl   (GString      *out,
                                  const WkType *t,
                                  const char   *name);
const char *wk_scalar_name       (WkTypeKind   k);
gboolean    wk_struct_layout     (WkStruct     *st);

/* ------------------------------------------------------------------ */
/* The tree                                                           */
/* ------------------------------------------------------------------ */

typedef enum
{
  WK_E_INT,                     /* v.u, type from the suffix */
  WK_E_FLOAT,                   /* v.f */
  WK_E_BOOL,                    /* true, false */
  WK_E_STRING,                  /* printf's format only */
  WK_E_NAME,
  WK_E_UNARY,
  WK_E_BINARY,
  WK_E_ASSIGN,                  /* op: WK_OP_NONE for =, else the compound's */
  WK_E_COND,
  WK_E_CALL,
  WK_E_INDEX,
  WK_E_MEMBER,                  /* a.b; a->b is MEMBER of DEREF */
  WK_E_CAST,                    /* written: cast_style says how */
  WK_E_IMPLICIT,                /* a conversion the checker inserted: never printed */
  WK_E_SIZEOF,                  /* of cast_type, or of the operand a */
  WK_E_INIT_LIST,               /* { … } */
} WkExprKind;

typedef enum
{
  WK_OP_NONE,
  /* unary */
  WK_OP_NEG, WK_OP_PLUS, WK_OP_BITNOT, WK_OP_LNOT, WK_OP_DEREF, WK_OP_ADDR,
  WK_OP_PREINC, WK_OP_PREDEC, WK_OP_POSTINC, WK_OP_POSTDEC,
  /* binary */
  WK_OP_MUL, WK_OP_DIV, WK_OP_MOD, WK_OP_ADD, WK_OP_SUB, WK_OP_SHL, WK_OP_SHR,
  WK_OP_LT, WK_OP_GT, WK_OP_LE, WK_OP_GE, WK_OP_EQ, WK_OP_NE,
  WK_OP_BITAND, WK_OP_BITXOR, WK_OP_BITOR, WK_OP_LAND, WK_OP_LOR, WK_OP_COMMA,
  WK_N_OPS
} WkOp;

typedef enum
{
  WK_CAST_C,                    /* (T) x */
  WK_CAST_FUNCTIONAL,           /* T (x) */
  WK_CAST_STATIC,
  WK_CAST_REINTERPRET,
  WK_CAST_CONST,
} WkCastStyle;

typedef struct _WkSym WkSym;
typedef struct _WkFunc WkFunc;

struct _WkExpr
{
  WkExprKind kind;
  WkOp op;
  guint start;                  /* the whole expression's span in the text */
  guint end;
  guint pos;                    /* its operator, name or "(": what a message points at */
  const WkType *type;           /* after checking; NULL where checking failed */
  guint8 lvalue;
  guint8 cast_style;
  guint8 paren;                 /* written in parentheses (printed back so) */
  guint8 is_arrow;              /* a MEMBER written a->b */
  guint16 depth;                /* nodes on the longest path down, this one included */
  WkExpr *a;
  WkExpr *b;
  WkExpr *c;
  WkExpr **args;
  guint n_args;
  union
  {
    guint64 u;
    gint64 i;
    double f;
  } v;
  const char *name;             /* NAME, MEMBER, CALL (the callee), STRING (the literal as written) */
  guint member;                 /* MEMBER: field or component index */
  WkSym *sym;                   /* NAME, CALL (a device function or built-in) */
  const WkType *cast_type;      /* CAST, SIZEOF of a type, INIT_LIST's */
  WkExpr **targs;               /* CALL: template arguments */
  guint n_targs;
  int builtin;                  /* CALL: WkBuiltinFn */
};

typedef enum
{
  WK_S_BLOCK,
  WK_S_DECL,
  WK_S_EXPR,
  WK_S_IF,
  WK_S_FOR,
  WK_S_WHILE,
  WK_S_DO,
  WK_S_BREAK,
  WK_S_CONTINUE,
  WK_S_RETURN,
  WK_S_EMPTY,
  WK_S_SWITCH,
  WK_S_CASE,                    /* e: the label's value; DEFAULT: e is NULL */
} WkStmtKind;

typedef enum
{
  WK_STORE_AUTO,
  WK_STORE_SHARED,
  WK_STORE_EXTERN_SHARED,
  WK_STORE_CONSTANT,
  WK_STORE_DEVICE,              /* a __device__ variable at file scope */
  WK_STORE_CONST_VALUE,         /* const int N = 32 at file scope: a constant */
  WK_STORE_PARAM,
} WkStorageClass;

typedef struct _WkStmt WkStmt;

typedef struct
{
  guint start;
  guint end;
  guint name_pos;
  const char *name;
  const WkType *type;
  WkStorageClass storage;
  WkExpr *init;                 /* may be an INIT_LIST */
  WkSym *sym;
  guint8 is_static;
  guint8 is_volatile_written;   /* the declaration says volatile (quals hold it) */
} WkDecl;

struct _WkStmt
{
  WkStmtKind kind;
  guint start;
  guint end;
  guint pos;                    /* the keyword */
  WkExpr *e;                    /* condition, expression, return value, case value */
  WkExpr *inc;                  /* for's increment */
  WkStmt *init;                 /* for's initialisation (a DECL or EXPR statement) */
  WkStmt *body;                 /* loops, then, switch */
  WkStmt *els;
  WkStmt **list;                /* BLOCK, DECL (unused) */
  guint n_list;
  WkDecl **decls;               /* DECL */
  guint n_decls;
  int unroll;                   /* loops: -2 no pragma, -1 "#pragma unroll", else its count */
  WkExpr *unroll_expr;          /* the count as written, when it is not a plain number */
  guint loop_id;                /* loops: numbered in the function from 0 */
  gint64 case_value;            /* case: the label's value in the switch's type (the label stays as written) */
};

typedef struct
{
  const char *name;
  guint pos;
  const WkType *type;           /* an integer type */
  WkSym *sym;
} WkTemplateParam;

/* template <typename T>: a type the launch gives (“T = float” in the
 * comment, --set T=float). The file is read again with the types given
 * (wk_file_parse_typed) when an instance is made; until then T reads as
 * int and bound is NULL. */
typedef struct
{
  const char *name;
  guint pos;
  const WkType *bound;
  const WkType *placeholder;    /* int, named T: what T reads as until bound */
} WkTypeParam;

struct _WkFunc
{
  const char *name;
  guint start;
  guint end;
  guint name_pos;
  gboolean is_kernel;
  gboolean is_extern_c;
  gboolean force_inline;
  const WkType *ret;
  WkDecl **params;
  guint n_params;
  WkTemplateParam *tparams;
  guint n_tparams;
  WkTypeParam *type_params;
  guint n_type_params;
  WkStmt *body;
  guint n_loops;
  guint8 calls_checked;
  guint8 recursion_seen;
  WkExpr *launch_bounds[2];     /* __launch_bounds__ (max threads[, min blocks]) */
};

/* A template of types whose types the launch has not given yet: the file
 * as first read, T read as int (WkTypeParam). */
static inline gboolean
wk_func_awaits_types (const WkFunc *f)
{
  return f->n_type_params > 0 && f->type_params[0].bound == NULL;
}

/* ------------------------------------------------------------------ */
/* Symbols                                                            */
/* ------------------------------------------------------------------ */

typedef enum
{
  WK_SYM_VAR,                   /* a local variable or a parameter (in registers) */
  WK_SYM_MEMORY,                /* an array or variable in memory: shared, constant, device, local */
  WK_SYM_CONST,                 /* a compile-time constant (file-scope const, enumerator) */
  WK_SYM_FUNC,
  WK_SYM_BUILTIN,               /* threadIdx, blockIdx, blockDim, gridDim, warpSize */
  WK_SYM_TEMPLATE,              /* a template parameter: a constant known at launch */
  WK_SYM_FILL_INDEX,            /* i in a fill */
} WkSymKind;

typedef enum
{
  WK_BV_THREAD_IDX,
  WK_BV_BLOCK_IDX,
  WK_BV_BLOCK_DIM,
  WK_BV_GRID_DIM,
  WK_BV_WARP_SIZE,
  WK_N_BUILTIN_VARS
} WkBuiltinVar;

struct _WkSym
{
  WkSymKind kind;
  const char *name;
  guint pos;
  const WkType *type;
  WkStorageClass storage;
  WkDecl *decl;
  WkFunc *func;
  WkBuiltinVar builtin;
  int param;                    /* a kernel parameter's index, or -1 */
  guint id;                     /* numbered by the compiler per instance */
  gboolean has_value;           /* a constant's value is known */
  union
  {
    gint64 i;
    guint64 u;
    double f;
  } value;
  guint8 read;
  guint8 written;
  guint8 is_const_pointer;      /* a pointer parameter to const */
};

/* ------------------------------------------------------------------ */
/* Built-in functions                                                 */
/* ------------------------------------------------------------------ */

typedef enum
{
  WK_BF_SYNCTHREADS,
  WK_BF_SYNCWARP,
  WK_BF_THREADFENCE_BLOCK,
  WK_BF_THREADFENCE,
  WK_BF_THREADFENCE_SYSTEM,
  WK_BF_ATOMIC_ADD,
  WK_BF_ATOMIC_SUB,
  WK_BF_ATOMIC_MIN,
  WK_BF_ATOMIC_MAX,
  WK_BF_ATOMIC_EXCH,
  WK_BF_ATOMIC_CAS,
  WK_BF_ATOMIC_AND,
  WK_BF_ATOMIC_OR,
  WK_BF_ATOMIC_XOR,
  WK_BF_ATOMIC_INC,
  WK_BF_ATOMIC_DEC,
  WK_BF_LDG,
  WK_BF_SHFL,
  WK_BF_SHFL_UP,
  WK_BF_SHFL_DOWN,
  WK_BF_SHFL_XOR,
  WK_BF_BALLOT,
  WK_BF_ANY,
  WK_BF_ALL,
  WK_BF_ACTIVEMASK,
  WK_BF_POPC,
  WK_BF_POPCLL,
  WK_BF_CLZ,
  WK_BF_CLZLL,
  WK_BF_FFS,
  WK_BF_FFSLL,
  WK_BF_BREV,
  WK_BF_MIN,                    /* min, max, fminf, fmin…: chosen by the arguments' type */
  WK_BF_MAX,
  WK_BF_ABS,                    /* abs, labs, llabs, fabsf, fabs */
  WK_BF_MATH1,                  /* a one-argument function of float or double: math1 says which */
  WK_BF_MATH2,
  WK_BF_FMA,
  WK_BF_MAKE_VECTOR,            /* make_float4 … */
  WK_BF_FLOAT2INT,              /* __float2int_rn … (math1 says the rounding) */
  WK_BF_AS_BITS,                /* __float_as_int, __int_as_float, __float_as_uint … */
  WK_BF_MUL24,
  WK_BF_UMUL24,
  WK_BF_MULHI,
  WK_BF_UMULHI,
  WK_BF_PRINTF,
  WK_BF_CLOCK,
  WK_BF_RANDOM,                 /* random (seed): fills only */
  WK_N_BUILTIN_FNS
} WkBuiltinFn;

typedef enum
{
  WK_M_SQRT, WK_M_RSQRT, WK_M_EXP, WK_M_EXP2, WK_M_EXP10, WK_M_LOG, WK_M_LOG2, WK_M_LOG10,
  WK_M_SIN, WK_M_COS, WK_M_TAN, WK_M_TANH, WK_M_ASIN, WK_M_ACOS, WK_M_ATAN,
  WK_M_FLOOR, WK_M_CEIL, WK_M_ROUND, WK_M_TRUNC, WK_M_RINT, WK_M_CBRT, WK_M_RCP,
  WK_M_SATURATE,
  WK_M_POW, WK_M_FMOD, WK_M_ATAN2, WK_M_DIV, WK_M_COPYSIGN, WK_M_HYPOT, WK_M_FDIM,
  WK_N_MATH
} WkMathFn;

typedef enum
{
  WK_ROUND_NEAREST,
  WK_ROUND_ZERO,
  WK_ROUND_DOWN,
  WK_ROUND_UP,
} WkRounding;

typedef struct
{
  const char *name;
  WkBuiltinFn fn;
  int arg;                      /* MATH: WkMathFn; MIN/MAX/ABS/MATH: the scalar kind it forces, or -1;
                                 * FLOAT2INT: rounding; AS_BITS: the result's scalar kind */
  int arg2;                     /* FLOAT2INT: the result's scalar kind; MATH: the argument's */
} WkBuiltinInfo;

const WkBuiltinInfo *wk_builtin_lookup (const char *name,
                                        gsize       len);

/* ------------------------------------------------------------------ */
/* The file                                                           */
/* ------------------------------------------------------------------ */

typedef struct
{
  WkStruct *st;
  guint pos;
} WkStructDef;

/* A top-level item, in the order of the text, for printing. */
typedef enum
{
  WK_TOP_STRUCT,
  WK_TOP_DECL,                  /* constant, device, shared, const value */
  WK_TOP_FUNC,
} WkTopKind;

typedef struct
{
  WkTopKind kind;
  WkStruct *st;
  WkDecl *decl;
  WkFunc *func;
} WkTop;

/* What the host code around the kernels says of their launches, as the
 * parser skips it: values that host functions and file-scope host
 * declarations give names (int n = 1 << 20; dim3 grid (n / 256);), in the
 * order of the text, and each launch (K<<<grid, block, shared>>>(args)).
 * Text ranges of the file; ws-kernel-config.c evaluates them. */
typedef enum
{
  WK_HOST_SCALAR,               /* NAME = the text */
  WK_HOST_DIM3,                 /* dim3 NAME (the text: up to three values) */
  WK_HOST_CHANGED,              /* NAME changed in a way not followed (+=, ++, .x =) */
  WK_HOST_PARAM,                /* NAME is a parameter of the host function */
} WkHostValueKind;

typedef struct
{
  const char *name;
  WkHostValueKind kind;
  guint start;                  /* the value's text */
  guint end;
  guint func;                   /* 0: file scope; else which host function, from 1 */
} WkHostValue;

#define WK_HOST_LAUNCH_MAX_ARGS 32
#define WK_HOST_LAUNCH_MAX_TARGS 8

typedef struct
{
  const char *kernel;
  guint start;                  /* the kernel's name */
  guint end;                    /* after the closing parenthesis of its arguments */
  guint func;
  guint n_values;               /* the host values written before it */
  guint n_config;               /* grid, block, shared bytes, stream */
  guint config_start[4];
  guint config_end[4];
  guint n_args;
  guint arg_start[WK_HOST_LAUNCH_MAX_ARGS];
  guint arg_end[WK_HOST_LAUNCH_MAX_ARGS];
  guint n_targs;                /* K<a, b><<<…>>>: its template arguments */
  guint targ_start[WK_HOST_LAUNCH_MAX_TARGS];
  guint targ_end[WK_HOST_LAUNCH_MAX_TARGS];
} WkHostLaunch;

#define WK_HOST_CALL_MAX_ARGS 16
#define WK_HOST_FUNC_MAX_TPARAMS 4

/* A host function (not run; its parameters are known from its calls). */
typedef struct
{
  const char *name;
  guint func;                   /* its index, from 1 (WkHostValue's func) */
  guint start;                  /* its text, head and body */
  guint end;
  guint n_tparams;              /* template <typename U, …>: the type parameters' names */
  const char *tparams[WK_HOST_FUNC_MAX_TPARAMS];
} WkHostFunc;

/* A call in host code, f (args) or f<targs> (args): what a host function's
 * parameters are, where f is one. */
typedef struct
{
  const char *name;
  guint func;                   /* the calling function, from 1; 0: file scope */
  guint start;
  guint end;
  guint n_values;               /* host values recorded before it */
  guint n_args;
  guint arg_start[WK_HOST_CALL_MAX_ARGS];
  guint arg_end[WK_HOST_CALL_MAX_ARGS];
  guint n_targs;
  guint targ_start[WK_HOST_LAUNCH_MAX_TARGS];
  guint targ_end[WK_HOST_LAUNCH_MAX_TARGS];
} WkHostCall;

struct _WsKernelFile
{
  gint ref_count;
  char *text;
  gsize len;
  char *display_name;
  WkArena arena;
  GPtrArray *tops;              /* WkTop * */
  GPtrArray *funcs;             /* WkFunc *: kernels and device functions */
  GPtrArray *kernels;           /* WkFunc * */
  GPtrArray *globals;           /* WkDecl * at file scope */
  GHashTable *macros;           /* name → WkMacro * */
  GHashTable *file_scope;       /* name → WkSym *: constants, arrays, functions */
  GPtrArray *launch_comments;   /* WkLaunchComment * */
  GPtrArray *diagnostics;       /* WsKernelDiagnostic *: notes and warnings */
  GArray *host_values;          /* WkHostValue */
  GArray *host_launches;        /* WkHostLaunch */
  GArray *host_funcs;           /* WkHostFunc */
  GArray *host_calls;           /* WkHostCall */
  GHashTable *type_args;        /* name → the text of a type: template type parameters' (NULL: none given) */
};

/* The type the host code gives a kernel's template type parameter, or
 * NULL: written in its first launch (K<float><<<…>>>), or what the
 * pointer it is launched with points to (T *a launched with d_a, declared
 * float *d_a, or U *d_a in a host template called as f<float> (…)); with
 * a note that says where. */
char       *wk_host_type_arg    (const WsKernelFile *file,
                                 const WkFunc       *kernel,
                                 const WkTypeParam  *tp,
                                 char              **note);

/* The parser: tokens to the tree, with types resolved and file-scope names
 * declared; errors into diags. */
gboolean    wk_parse            (WsKernelFile      *file,
                                 const WkLexResult *lex,
                                 WkDiags           *diags);
/* One expression of a fragment (a value of the launch comment). */
WkExpr     *wk_parse_expression (WsKernelFile      *file,
                                 const WkLexResult *lex,
                                 WkArena           *arena,
                                 WkDiags           *diags);
/* The same, with types (name → a type's text) that sizeof () and casts in
 * it may name: a host template's type parameters. */
WkExpr     *wk_parse_expression_typed (WsKernelFile      *file,
                                       const WkLexResult *lex,
                                       WkArena           *arena,
                                       WkDiags           *diags,
                                       GHashTable        *types);

/* The checker: names, types, the subset's rules. */
typedef struct _WkScope WkScope;
gboolean    wk_check            (WsKernelFile      *file,
                                 WkDiags           *diags);

/* An expression outside any function (launch values, sizes, fills): names
 * are looked up in names (name → WkSym *) and then at file scope. */
gboolean    wk_check_loose_expr (WsKernelFile      *file,
                                 WkExpr            *expr,
                                 GHashTable        *names,
                                 WkArena           *arena,
                                 WkDiags           *diags);

/* Constant evaluation of a checked expression (array sizes, template
 * arguments, #pragma unroll, the launch). The value has the expression's
 * type: v.i for signed integers, v.u for unsigned, v.f for floats. */
typedef struct
{
  const WkType *type;
  union
  {
    gint64 i;
    guint64 u;
    double f;
  } v;
} WkConst;

typedef enum
{
  WK_CONST_OK,
  WK_CONST_NOT_CONSTANT,
  WK_CONST_DIVISION_BY_ZERO,
  WK_CONST_OVERFLOW,
} WkConstStatus;

/* template: values of template parameters (WkSym * → WkConst *), may be NULL */
WkConstStatus wk_const_eval     (const WkExpr *e,
                                 GHashTable   *template_values,
                                 WkConst      *out,
                                 const WkExpr **failed);
WkConst     wk_const_convert    (WkConst       c,
                                 const WkType *to);
/* Whether an initial value (a list in braces or not) is made of constants. */
gboolean    wk_init_is_constant (const WkExpr *e);
gint64      wk_const_as_i64     (WkConst c);
double      wk_const_as_double  (WkConst c);

/* The printer. */
typedef struct
{
  gboolean line_directives;     /* #line N before statements that start a line */
  const WkFunc *kernel;         /* print this kernel only … */
  const char *kernel_name;      /* … under this name, extern "C" */
  GHashTable *template_values;  /* its template parameters' values */
  GHashTable *array_lengths;    /* WkDecl * → guint64: lengths the launch gives (extern shared) */
} WkPrintOptions;

char       *wk_print_file       (const WsKernelFile   *file,
                                 const WkPrintOptions *options);
gboolean    wk_expr_equal       (const WkExpr *a,
                                 const WkExpr *b);
gboolean    wk_func_equal       (const WkFunc *a,
                                 const WkFunc *b);

/* Spans of the text (for sites and messages), shown as written. */
char       *wk_text_span        (const char *text,
                                 gsize       len,
                                 guint       start,
                                 guint       end);

/* Kernels and functions by name. */
/* The file read again with its template type parameters given: type_args
 * maps a parameter's name to the text of its type. */
WsKernelFile *wk_file_parse_typed (const WsKernelFile *file,
                                   GHashTable         *type_args,
                                   GError            **error);
/* Whether name is a template type parameter of a function of the file. */
gboolean    wk_file_is_type_param (const WsKernelFile *file,
                                   const char         *name);
WkFunc     *wk_file_find_kernel (const WsKernelFile *file,
                                 const char         *name);

G_END_DECLS
