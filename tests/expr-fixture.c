/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "expr-fixture.h"

static gint64
random_int (GRand      *rand,
            RandomInts  ints)
{
  if (ints == RANDOM_INTS_SMALL)
    return g_rand_int_range (rand, 0, 5) == 0 ? g_rand_int_range (rand, 0, G_MAXINT32) : g_rand_int_range (rand, 0, 40);
  switch (g_rand_int_range (rand, 0, 6))
    {
    case 0:
      return G_MAXINT64 - g_rand_int_range (rand, 0, 3);
    case 1:
      return g_rand_int_range (rand, 60, 66);
    default:
      return g_rand_int_range (rand, 0, 40);
    }
}

WsExpr *
random_tree (GRand              *rand,
             guint               depth,
             const char * const *names,
             guint               n_names,
             RandomInts          ints)
{
  WsExpr *e = g_new0 (WsExpr, 1);
  guint pick = g_rand_int_range (rand, 0, depth == 0 ? 3 : 10);

  switch (pick)
    {
    case 0:
      e->kind = WS_EXPR_INT;
      e->value = random_int (rand, ints);
      break;
    case 1:
      e->kind = WS_EXPR_NAME;
      e->name = g_strdup (names[g_rand_int_range (rand, 0, n_names)]);
      break;
    case 2:
      e->kind = WS_EXPR_BUILTIN;
      e->builtin = g_rand_int_range (rand, 0, WS_N_BUILTINS);
      break;
    case 3:
      e->kind = WS_EXPR_UNARY;
      e->op.op = g_rand_int_range (rand, WS_OP_NEG, WS_OP_NOT + 1);
      e->op.n_args = 1;
      e->op.args[0] = random_tree (rand, depth - 1, names, n_names, ints);
      break;
    case 4:
      e->kind = WS_EXPR_TERNARY;
      e->op.op = WS_OP_SELECT;
      e->op.n_args = 3;
      for (guint i = 0; i < 3; i++)
        e->op.args[i] = random_tree (rand, depth - 1, names, n_names, ints);
      break;
    case 5:
      e->kind = WS_EXPR_CALL;
      e->op.op = g_rand_int_range (rand, WS_OP_MIN, WS_OP_ABS + 1);
      e->op.n_args = e->op.op == WS_OP_ABS ? 1 : 2;
      for (guint i = 0; i < e->op.n_args; i++)
        e->op.args[i] = random_tree (rand, depth - 1, names, n_names, ints);
      break;
    default:
      e->kind = WS_EXPR_BINARY;
      e->op.op = g_rand_int_range (rand, WS_OP_MUL, WS_OP_LOR + 1);
      e->op.n_args = 2;
      e->op.args[0] = random_tree (rand, depth - 1, names, n_names, ints);
      e->op.args[1] = random_tree (rand, depth - 1, names, n_names, ints);
      break;
    }
  return e;
}
