/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-kernel-private.h"

G_BEGIN_DECLS

/* What the parser's two files share: the parser's state, the tokens, and
 * the pieces each calls in the other (ws-kernel-parse.c: declarations,
 * statements, the top level; ws-kernel-parse-expr.c: expressions). */

typedef struct
{
  WsKernelFile *file;
  WkArena *arena;
  WkDiags *diags;
  const WkToken *toks;
  guint n;
  guint i;
  guint depth;
  GHashTable *typedefs;         /* name → const WkType * */
  GHashTable *structs;          /* name → WkStruct * */
  WkFunc *func;                 /* the function being read */
  GHashTable *tparams;          /* its template parameters: name → WkTemplateParam * */
  WkTypeParam *type_params;     /* the template type parameters read last, for the function they start */
  guint n_type_params;
  gboolean failed;              /* the current construct had an error: skip it */
  gboolean wrong_anywhere;      /* … one that host code could not have either: say it */
  gboolean fragment;            /* a value of the launch, not a file */
  guint host_funcs;             /* host functions skipped so far */
} Parser;

typedef struct
{
  guint start;
  const WkType *type;
  gboolean global, device, host, constant, shared, managed, is_extern, is_static, is_inline;
  gboolean force_inline, constexpr_, is_auto, is_typedef, extern_c;
  gboolean struct_word;         /* the type was written “struct X”, not by a typedef's name */
  gboolean struct_defined;      /* … with its fields: “struct X { … }” */
  guint align;
  WkExpr *launch_bounds[2];
} Specs;

/* ws-kernel-host.c: what the host code in tokens first to last (a host
 * function when function) says of launches, into the file's host values
 * and launches. */
void        wkp_record_host          (Parser  *p,
                                      guint    first,
                                      guint    last,
                                      gboolean function);
WkExpr     *wkp_parse_expr           (Parser *p);
WkExpr     *wkp_parse_assign         (Parser *p);
WkExpr     *wkp_parse_conditional    (Parser *p);
WkExpr     *wkp_parse_unary          (Parser *p);
WkExpr     *wkp_parse_init_list      (Parser *p);
gboolean    wkp_parse_specs          (Parser  *p,
                                      Specs   *s,
                                      gboolean allow_storage);
const WkType *wkp_parse_type_name    (Parser *p);
const WkType *wkp_parse_declarator   (Parser       *p,
                                      const WkType *base,
                                      gboolean      abstract,
                                      const char  **name,
                                      guint        *name_pos);
WkStmt     *wkp_parse_statement      (Parser *p);
WkStmt     *wkp_stmt_new             (Parser    *p,
                                      WkStmtKind kind,
                                      guint      start);
void        wkp_register_struct      (Parser   *p,
                                      WkStruct *st);
void        wkp_recover              (Parser *p);
void        wkp_rollback             (Parser  *p,
                                      guint    len,
                                      guint    n_errors,
                                      gboolean failed);

void        wkp_error_at             (Parser     *p,
                                      int         code,
                                      guint       start,
                                      guint       end,
                                      const char *format,
                                      ...) G_GNUC_PRINTF (5, 6);
void        wkp_expected             (Parser     *p,
                                      const char *what);
gboolean    wkp_expect               (Parser     *p,
                                      WkPunct     punct,
                                      const char *what);
gboolean    wkp_enter                (Parser *p);
char       *wkp_tok_name             (Parser        *p,
                                      const WkToken *t);
WkExpr     *wkp_expr_new             (Parser    *p,
                                      WkExprKind kind,
                                      guint      start,
                                      guint      end);
gboolean    wkp_expr_done            (Parser *p,
                                      WkExpr *e);
const char *wkp_unsupported_message  (const WkToken *t);
void        wkp_fn_macro_error       (Parser        *p,
                                      const WkToken *t);
const WkType *wkp_alias_type         (const WkToken *t);
gboolean    wkp_is_basic_word        (const WkToken *t);
gboolean    wkp_is_typedef_name      (Parser        *p,
                                      const WkToken *t);
gboolean    wkp_starts_type          (Parser        *p,
                                      const WkToken *t);

/* Tokens */

static inline const WkToken *
cur (Parser *p)
{
  return &p->toks[p->i];
}

static inline const WkToken *
ahead (Parser *p,
       guint   k)
{
  return &p->toks[MIN (p->i + k, p->n - 1)];
}

static inline void
advance (Parser *p)
{
  if (p->toks[p->i].kind != WK_TOK_EOF)
    p->i++;
}

static inline gboolean
is_punct (const WkToken *t,
          WkPunct        punct)
{
  return t->kind == WK_TOK_PUNCT && t->punct == punct;
}

static inline gboolean
at (Parser *p,
    WkPunct punct)
{
  return is_punct (cur (p), punct);
}

static inline gboolean
is_word (const WkToken *t,
         const char    *word)
{
  return t->kind == WK_TOK_IDENT && t->len == strlen (word) && memcmp (t->text, word, t->len) == 0;
}

static inline gboolean
at_word (Parser     *p,
         const char *word)
{
  return is_word (cur (p), word);
}

static inline gboolean
accept (Parser *p,
        WkPunct punct)
{
  if (!at (p, punct))
    return FALSE;
  advance (p);
  return TRUE;
}

static inline void
leave (Parser *p)
{
  p->depth--;
}


static inline guint
prev_end (Parser *p)
{
  return p->i > 0 ? p->toks[p->i - 1].end : cur (p)->start;
}

G_END_DECLS
