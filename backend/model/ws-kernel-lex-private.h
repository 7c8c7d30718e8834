/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-kernel-private.h"

G_BEGIN_DECLS

/* What the lexer's two files share: its state, and the pieces each calls
 * in the other (ws-kernel-lex.c: characters, comments, tokens and the two
 * passes; ws-kernel-preproc.c: macros and directives). */

typedef struct
{
  gboolean active;              /* this branch is being read */
  gboolean taken;               /* a branch of this #if was true */
  gboolean parent_active;
  gboolean seen_else;
  guint pos;
} Cond;

typedef struct
{
  const char *text;
  gsize len;
  gsize pos;
  guint base;                   /* fragments: what positions add */
  gboolean line_start;
  WkArena *arena;
  WkDiags *diags;
  GArray *raw;                  /* WkToken */
  GHashTable *macros;           /* the first pass's table */
  GPtrArray *all_macros;        /* WkMacro *, indexed by the markers */
  GArray *conds;                /* Cond */
  GPtrArray *launch_comments;
  gboolean depth_reported;
  guint64 expanded;             /* tokens that macro expansion went through, at every level */
} Lexer;

void
wkl_lex_error (Lexer      *lx,
               guint       start,
               guint       end,
               const char *format,
               ...) G_GNUC_PRINTF (4, 5);
void
wkl_lex_note (Lexer      *lx,
              guint       start,
              guint       end,
              const char *format,
              ...) G_GNUC_PRINTF (4, 5);
void
wkl_skip_blank (Lexer   *lx,
                gboolean directive);
char
wkl_peek (Lexer *lx,
          gsize  ahead);
void
wkl_block_comment (Lexer *lx);
gboolean
wkl_lex_token (Lexer   *lx,
               WkToken *t);
gboolean
wkl_cond_active (Lexer *lx);
gboolean
wkl_is_ident_start (char c);
void
wkl_directive (Lexer *lx);
void
wkl_expand_list (Lexer         *lx,
                 GHashTable    *table,
                 const WkToken *toks,
                 guint          n,
                 GArray        *out,
                 GPtrArray     *active,
                 const WkToken *use,
                 gboolean       top);

G_END_DECLS
