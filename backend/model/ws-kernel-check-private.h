/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-kernel-private.h"

G_BEGIN_DECLS

/* What the checker's files share: its state, and the pieces each calls in
 * the others (ws-kernel-check.c: declarations, statements, functions and
 * the file; -types.c: scopes, types and conversions; -expr.c: expressions;
 * -calls.c: calls of built-ins and device functions). */

struct _WkScope
{
  WkScope *parent;
  GHashTable *names;            /* name → WkSym * */
};

typedef struct
{
  WsKernelFile *file;
  WkArena *arena;
  WkDiags *diags;
  WkScope *scope;
  WkFunc *func;
  guint loops;                  /* loops around the statement */
  guint switches;
  GHashTable *loose;            /* names of a launch value */
  gboolean loose_mode;
  WkSym *builtins[WK_N_BUILTIN_VARS];
  GHashTable *callees;          /* WkFunc * → GPtrArray of WkFunc * it calls */
} Checker;

gboolean
wkc_declare (Checker *c,
             WkSym   *sym);
void
wkc_push_scope (Checker *c);
WkExpr *
wkc_implicit (Checker      *c,
              WkExpr       *e,
              const WkType *to);
const char *
wkc_op_text (WkOp op);
gboolean
wkc_check_writable (Checker      *c,
                    const WkExpr *e,
                    const char   *op);
const WkType *
wkc_rvalue (Checker  *c,
            WkExpr  **slot);
WkSym *
wkc_lookup (Checker    *c,
            const char *name);
const WkType *
wkc_resolve_type (Checker      *c,
                  const WkType *t,
                  guint         pos);
void
wkc_pop_scope (Checker *c);
gboolean
wkc_need_arith (Checker    *c,
                WkExpr    **slot,
                gboolean    integer,
                const char *op);
gboolean
wkc_convert (Checker      *c,
             WkExpr      **slot,
             const WkType *to,
             const char   *what);
gboolean
wkc_pointer_convertible (const WkType *from,
                         const WkType *to);
gboolean
wkc_need_scalar (Checker *c,
                 WkExpr **slot,
                 const char *what);
void
wkc_make_builtins (Checker *c);
const WkType *
wkc_common_operands (Checker *c,
                     WkExpr  *e);
WkSym *
wkc_sym_new (Checker    *c,
             WkSymKind   kind,
             const char *name,
             guint       pos,
             const WkType *type);
gboolean
wkc_resolve_struct (Checker  *c,
                    WkStruct *st,
                    guint     pos);
const WkType *
wkc_check_expr (Checker *c,
                WkExpr  *e);
const WkType *
wkc_check_call (Checker *c,
                WkExpr  *e);
void
wkc_warning (Checker    *c,
             guint       start,
             guint       end,
             const char *format,
             ...) G_GNUC_PRINTF (4, 5);
void
wkc_error (Checker    *c,
           int         code,
           guint       start,
           guint       end,
           const char *format,
           ...) G_GNUC_PRINTF (5, 6);
char *
wkc_type_name (const WkType *t);
char *
wkc_expr_text (Checker      *c,
               const WkExpr *e);

G_END_DECLS
