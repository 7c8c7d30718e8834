/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

#include "ws-expr.h"
#include "ws-model-types.h"

G_BEGIN_DECLS

/* What the memory instructions of one launch touch: the launch geometry,
 * named parameters, definitions (`i = blockIdx.x * blockDim.x + threadIdx.x`),
 * an optional guard (`i < N`) and one or more accesses (`in[i]`).
 *
 * A WsPattern is reference counted; the model reads it from any thread, so
 * treat a pattern as immutable once it is shared (copy to edit).
 */

#define WS_TYPE_PATTERN (ws_pattern_get_type ())

/* Bounds on what a pattern may hold, whoever sends it (a file, a worker
 * request): names are looked up linearly, and the model compiles and the
 * kernel generator writes every access. */
#define WS_PATTERN_MAX_NAMES 64       /* parameters and definitions together */
#define WS_PATTERN_MAX_ACCESSES 64

#define WS_PATTERN_ERROR (ws_pattern_error_quark ())

typedef enum
{
  WS_PATTERN_ERROR_INVALID,      /* a value out of range, an unknown name */
  WS_PATTERN_ERROR_EXPRESSION,   /* an expression does not parse */
  WS_PATTERN_ERROR_EVALUATION,   /* a lane fails: division by zero, overflow */
  WS_PATTERN_ERROR_ADDRESS,      /* a lane's address is negative, misaligned or out of its space */
} WsPatternError;

typedef struct
{
  char *array;           /* the array's name in the generated kernel: "in", "tile" */
  WsSpace space;
  WsAccessKind kind;
  guint elem_size;       /* bytes: 1, 2, 4, 8 or 16 */
  gint64 base;           /* byte offset of element 0 from the start of the array */
  char *index_text;      /* the index, in elements */
  WsExpr *index;
  gboolean elem_from_param;   /* elem_size follows the parameter “elem_size” */
} WsAccess;

typedef struct
{
  char *name;
  gint64 value;
  gint64 min;
  gint64 max;
  char *description;
} WsParam;

typedef struct
{
  char *name;
  char *text;
  WsExpr *expr;
} WsDefinition;

typedef struct _WsPattern WsPattern;

GType              ws_pattern_get_type          (void) G_GNUC_CONST;
GQuark             ws_pattern_error_quark       (void);

WsPattern         *ws_pattern_new               (void);
WsPattern         *ws_pattern_copy              (const WsPattern *self);
WsPattern         *ws_pattern_ref               (WsPattern       *self);
void               ws_pattern_unref             (WsPattern       *self);

/* geometry */
WsDim3             ws_pattern_get_block         (const WsPattern *self);
WsDim3             ws_pattern_get_grid          (const WsPattern *self);
gboolean           ws_pattern_set_block         (WsPattern       *self,
                                                 WsDim3           block,
                                                 GError         **error);
gboolean           ws_pattern_set_grid          (WsPattern       *self,
                                                 WsDim3           grid,
                                                 GError         **error);
guint              ws_pattern_get_warps_per_block (const WsPattern *self);

/* parameters */
gboolean           ws_pattern_set_param         (WsPattern       *self,
                                                 const char      *name,
                                                 gint64           value,
                                                 GError         **error);
void               ws_pattern_set_param_range   (WsPattern       *self,
                                                 const char      *name,
                                                 gint64           min,
                                                 gint64           max,
                                                 const char      *description);
gboolean           ws_pattern_get_param         (const WsPattern *self,
                                                 const char      *name,
                                                 gint64          *value);
guint              ws_pattern_get_n_params      (const WsPattern *self);
const WsParam     *ws_pattern_get_param_nth     (const WsPattern *self,
                                                 guint            i);

/* definitions, evaluated in order; each may use the ones before it */
gboolean           ws_pattern_add_definition    (WsPattern       *self,
                                                 const char      *name,
                                                 const char      *text,
                                                 GError         **error);
guint              ws_pattern_get_n_definitions (const WsPattern *self);
const WsDefinition *ws_pattern_get_definition   (const WsPattern *self,
                                                 guint            i);

/* guard: lanes for which it is false (zero) make no access */
gboolean           ws_pattern_set_guard         (WsPattern       *self,
                                                 const char      *text,
                                                 GError         **error);
const char        *ws_pattern_get_guard_text    (const WsPattern *self);
const WsExpr      *ws_pattern_get_guard         (const WsPattern *self);

/* accesses */
gboolean           ws_pattern_add_access        (WsPattern       *self,
                                                 const char      *array,
                                                 WsSpace          space,
                                                 WsAccessKind     kind,
                                                 guint            elem_size,
                                                 const char      *index_text,
                                                 gint64           base,
                                                 GError         **error);
guint              ws_pattern_get_n_accesses    (const WsPattern *self);
const WsAccess    *ws_pattern_get_access        (const WsPattern *self,
                                                 guint            i);
gboolean           ws_pattern_set_access_index  (WsPattern       *self,
                                                 guint            i,
                                                 const char      *index_text,
                                                 GError         **error);
gboolean           ws_pattern_set_access_space  (WsPattern       *self,
                                                 guint            i,
                                                 WsSpace          space,
                                                 WsAccessKind     kind,
                                                 guint            elem_size,
                                                 gint64           base,
                                                 GError         **error);
void               ws_pattern_remove_accesses   (WsPattern       *self);
/* Lets the parameter “elem_size” (which must exist) set the access's element
 * size, so that a sweep can vary it. */
gboolean           ws_pattern_bind_elem_size    (WsPattern       *self,
                                                 guint            i,
                                                 GError         **error);

/* Checks that every name resolves and every value is in range. */
gboolean           ws_pattern_validate          (const WsPattern *self,
                                                 GError         **error);

/* Launch-wide values of blockDim and gridDim, the rest zero. */
void               ws_pattern_get_launch_builtins (const WsPattern *self,
                                                   gint64           builtins[WS_N_BUILTINS]);

/* The value of a name (a definition or a parameter) for one thread, with the
 * reference evaluator; used for error messages and tests. */
gboolean           ws_pattern_eval_thread       (const WsPattern *self,
                                                 const WsExpr    *expr,
                                                 WsDim3           block_idx,
                                                 WsDim3           thread_idx,
                                                 gint64          *value,
                                                 GError         **error);

char              *ws_pattern_describe_access   (const WsPattern *self,
                                                 guint            i);
char              *ws_pattern_to_string         (const WsPattern *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsPattern, ws_pattern_unref)

G_END_DECLS
