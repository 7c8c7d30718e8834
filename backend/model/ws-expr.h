/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Index expressions: a small C-like language over 64-bit signed integers.
 * Parsed into an AST that the model evaluates and that prints back as CUDA C.
 *
 * Every walk over a tree (evaluation, compilation, printing, code generation)
 * recurses, so the parser bounds what it builds: a text of at most
 * WS_EXPR_MAX_LENGTH bytes, a tree at most WS_EXPR_MAX_DEPTH nodes deep (a
 * chain such as a + b + c + … is as deep as it has operators).
 */

#define WS_EXPR_MAX_LENGTH 4096
#define WS_EXPR_MAX_DEPTH 200

#define WS_EXPR_ERROR (ws_expr_error_quark ())

typedef enum
{
  WS_EXPR_ERROR_SYNTAX,
  WS_EXPR_ERROR_UNKNOWN_NAME,
  WS_EXPR_ERROR_INVALID_NAME,
  WS_EXPR_ERROR_DIVISION_BY_ZERO,
  WS_EXPR_ERROR_OVERFLOW,
  WS_EXPR_ERROR_SHIFT,
  WS_EXPR_ERROR_CYCLE,
  WS_EXPR_ERROR_TOO_DEEP,
  WS_EXPR_ERROR_TOO_LONG,
} WsExprError;

typedef enum
{
  WS_EXPR_INT,
  WS_EXPR_NAME,
  WS_EXPR_BUILTIN,
  WS_EXPR_UNARY,
  WS_EXPR_BINARY,
  WS_EXPR_TERNARY,
  WS_EXPR_CALL,
} WsExprKind;

typedef enum
{
  WS_BUILTIN_THREAD_IDX_X,
  WS_BUILTIN_THREAD_IDX_Y,
  WS_BUILTIN_THREAD_IDX_Z,
  WS_BUILTIN_BLOCK_IDX_X,
  WS_BUILTIN_BLOCK_IDX_Y,
  WS_BUILTIN_BLOCK_IDX_Z,
  WS_BUILTIN_BLOCK_DIM_X,
  WS_BUILTIN_BLOCK_DIM_Y,
  WS_BUILTIN_BLOCK_DIM_Z,
  WS_BUILTIN_GRID_DIM_X,
  WS_BUILTIN_GRID_DIM_Y,
  WS_BUILTIN_GRID_DIM_Z,
  WS_BUILTIN_LANE,
  WS_BUILTIN_WARP,
  WS_N_BUILTINS
} WsBuiltin;

typedef enum
{
  WS_OP_NEG,
  WS_OP_BITNOT,
  WS_OP_NOT,
  WS_OP_MUL,
  WS_OP_DIV,
  WS_OP_MOD,
  WS_OP_ADD,
  WS_OP_SUB,
  WS_OP_SHL,
  WS_OP_SHR,
  WS_OP_LT,
  WS_OP_LE,
  WS_OP_GT,
  WS_OP_GE,
  WS_OP_EQ,
  WS_OP_NE,
  WS_OP_BITAND,
  WS_OP_BITXOR,
  WS_OP_BITOR,
  WS_OP_LAND,
  WS_OP_LOR,
  WS_OP_MIN,
  WS_OP_MAX,
  WS_OP_ABS,
  WS_OP_SELECT,
  WS_N_OPS
} WsOp;

typedef struct _WsExpr WsExpr;

struct _WsExpr
{
  WsExprKind kind;
  guint start;       /* byte offset of the node's first character in the source */
  guint end;         /* one past its last character */
  guint pos;         /* where its operator (or function name) is: what an error points at */
  guint depth;       /* nodes on the longest path down from here, this one included */
  union
  {
    gint64 value;
    char *name;
    WsBuiltin builtin;
    struct
    {
      WsOp op;       /* NEG, BITNOT, NOT; or MIN, MAX, ABS for calls */
      guint n_args;
      WsExpr *args[3];
    } op;
  };
};

/* A reason a value could not be computed, with the node that failed. */
typedef struct
{
  WsExprError code;
  const WsExpr *node;
} WsEvalFailure;

typedef gboolean (*WsNameLookup) (const char *name,
                                  gpointer    user_data,
                                  gint64     *value,
                                  GError    **error);

typedef struct
{
  gint64 builtins[WS_N_BUILTINS];
  WsNameLookup lookup;
  gpointer lookup_data;
} WsEvalEnv;

GQuark      ws_expr_error_quark       (void);

WsExpr     *ws_expr_parse             (const char    *text,
                                       guint         *error_column,
                                       GError       **error);
void        ws_expr_free              (WsExpr        *expr);
WsExpr     *ws_expr_copy              (const WsExpr  *expr);
gboolean    ws_expr_equal             (const WsExpr  *a,
                                       const WsExpr  *b);
char       *ws_expr_to_string         (const WsExpr  *expr);
char       *ws_expr_to_cuda           (const WsExpr  *expr);
char       *ws_expr_to_kernel_text    (const WsExpr  *expr);
gboolean    ws_expr_eval              (const WsExpr  *expr,
                                       const WsEvalEnv *env,
                                       gint64        *value,
                                       GError       **error);
void        ws_expr_collect_names     (const WsExpr  *expr,
                                       GPtrArray     *names);
gboolean    ws_expr_uses_builtin      (const WsExpr  *expr,
                                       WsBuiltin      builtin);
/* The depth of a tree the parser built (1 for a leaf). */
guint       ws_expr_get_depth         (const WsExpr  *expr);

/* The 64-bit C semantics every evaluator shares: sets *failed (and returns 0)
 * where C would have undefined behaviour. */
gint64      ws_op_apply               (WsOp           op,
                                       gint64         a,
                                       gint64         b,
                                       WsExprError   *failed);

const char *ws_builtin_to_string      (WsBuiltin      builtin);
const char *ws_op_to_string           (WsOp           op);
gboolean    ws_name_is_valid          (const char    *name,
                                       GError       **error);
gboolean    ws_name_is_reserved       (const char    *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsExpr, ws_expr_free)

G_END_DECLS
