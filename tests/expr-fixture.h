/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* Random expression trees, for the tests that print, parse, compile and
 * evaluate them (test-expr.c, test-program.c). */

#include "ws-expr.h"

G_BEGIN_DECLS

typedef enum
{
  RANDOM_INTS_SMALL,         /* mostly below 40, one in five up to G_MAXINT32 */
  RANDOM_INTS_EDGES,         /* mostly below 40, else next to G_MAXINT64 or a shift's limits (60 to 65) */
} RandomInts;

/* A tree of at most depth levels, over names (n_names of them), built-ins,
 * every operator and integers drawn as ints says. */
WsExpr *random_tree (GRand              *rand,
                     guint               depth,
                     const char * const *names,
                     guint               n_names,
                     RandomInts          ints);

G_END_DECLS
