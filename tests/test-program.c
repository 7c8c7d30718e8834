/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The vector evaluator must agree with the reference evaluator lane by lane:
 * the same value where a lane succeeds, poison exactly where it fails. */
#include "expr-fixture.h"
#include "ws-program-private.h"

#include <string.h>

typedef struct
{
  gint64 params[3];
} Params;

static const char * const param_names[] = { "N", "k", "z" };

static gboolean
resolve (const char *name,
         gpointer    user_data,
         WsValue    *out,
         GError    **error)
{
  Params *p = user_data;

  for (guint i = 0; i < G_N_ELEMENTS (param_names); i++)
    if (strcmp (name, param_names[i]) == 0)
      {
        *out = (WsValue) { .cls = WS_VALUE_CONST, .value = p->params[i] };
        return TRUE;
      }
  g_set_error (error, WS_EXPR_ERROR, WS_EXPR_ERROR_UNKNOWN_NAME, "unknown %s", name);
  return FALSE;
}

static gboolean
lookup (const char *name,
        gpointer    user_data,
        gint64     *value,
        GError    **error)
{
  Params *p = user_data;

  for (guint i = 0; i < G_N_ELEMENTS (param_names); i++)
    if (strcmp (name, param_names[i]) == 0)
      {
        *value = p->params[i];
        return TRUE;
      }
  return FALSE;
}

typedef struct
{
  guint agreed_values;
  guint agreed_failures;
} Tally;

static void
check_expression (const WsExpr *e,
                  Params       *params,
                  GRand        *rand,
                  Tally        *tally)
{
  gint64 launch[WS_N_BUILTINS] = { 0 };
  g_autoptr (WsProgram) prog = NULL;
  WsProgramState *s;
  WsValue v;
  gint64 inputs[WS_N_VARYING_INPUTS][32];
  gint64 block[3];

  launch[WS_BUILTIN_BLOCK_DIM_X] = 64;
  launch[WS_BUILTIN_BLOCK_DIM_Y] = 2;
  launch[WS_BUILTIN_BLOCK_DIM_Z] = 1;
  launch[WS_BUILTIN_GRID_DIM_X] = 1000;
  launch[WS_BUILTIN_GRID_DIM_Y] = 3;
  launch[WS_BUILTIN_GRID_DIM_Z] = 1;
  prog = ws_program_new (launch);
  g_assert_true (ws_program_compile (prog, e, resolve, params, &v, NULL));
  v = ws_program_as_varying (prog, v);
  s = ws_program_state_new (prog);

  for (guint trial = 0; trial < 3; trial++)
    {
      guint warp = g_rand_int_range (rand, 0, 4);
      const gint64 *values;
      const guint64 *poison;

      block[0] = g_rand_int_range (rand, 0, 1000);
      block[1] = g_rand_int_range (rand, 0, 3);
      block[2] = 0;
      for (guint l = 0; l < 32; l++)
        {
          guint t = warp * 32 + l;
          inputs[WS_VARYING_IN_THREAD_X][l] = t % 64;
          inputs[WS_VARYING_IN_THREAD_Y][l] = t / 64;
          inputs[WS_VARYING_IN_THREAD_Z][l] = 0;
          inputs[WS_VARYING_IN_LANE][l] = l;
          inputs[WS_VARYING_IN_WARP][l] = warp;
        }
      ws_program_run_block (prog, s, block);
      ws_program_run_warp (prog, s, (const gint64 (*)[32]) inputs);
      values = ws_program_state_values (s, v);
      poison = s->vp[v.reg];

      for (guint l = 0; l < 32; l++)
        {
          WsEvalEnv env = { { 0 } };
          gint64 expected = 0;
          gboolean ok;

          memcpy (env.builtins, launch, sizeof launch);
          env.builtins[WS_BUILTIN_THREAD_IDX_X] = inputs[WS_VARYING_IN_THREAD_X][l];
          env.builtins[WS_BUILTIN_THREAD_IDX_Y] = inputs[WS_VARYING_IN_THREAD_Y][l];
          env.builtins[WS_BUILTIN_LANE] = l;
          env.builtins[WS_BUILTIN_WARP] = warp;
          env.builtins[WS_BUILTIN_BLOCK_IDX_X] = block[0];
          env.builtins[WS_BUILTIN_BLOCK_IDX_Y] = block[1];
          env.lookup = lookup;
          env.lookup_data = params;
          ok = ws_expr_eval (e, &env, &expected, NULL);
          if (ok != !poison[l])
            {
              g_autofree char *text = ws_expr_to_string (e);
              g_error ("“%s”, lane %u: reference %s, vector %s", text, l,
                       ok ? "succeeds" : "fails", poison[l] ? "poisoned" : "clean");
            }
          if (ok)
            {
              if (expected != values[l])
                {
                  g_autofree char *text = ws_expr_to_string (e);
                  g_error ("“%s”, lane %u: reference %" G_GINT64_FORMAT ", vector %" G_GINT64_FORMAT,
                           text, l, expected, values[l]);
                }
              tally->agreed_values++;
            }
          else
            tally->agreed_failures++;
        }
    }
  ws_program_state_free (s);
}

static void
test_random_agreement (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (4242);
  Tally tally = { 0 };

  for (guint i = 0; i < 4000; i++)
    {
      g_autoptr (WsExpr) e = random_tree (rand, g_rand_int_range (rand, 1, 6), param_names, G_N_ELEMENTS (param_names), RANDOM_INTS_EDGES);
      Params params = { { g_rand_int_range (rand, 1, 5000), g_rand_int_range (rand, -3, 70), 0 } };

      check_expression (e, &params, rand, &tally);
    }
  g_test_message ("%u lane values and %u lane failures agreed", tally.agreed_values, tally.agreed_failures);
  /* both paths are exercised */
  g_assert_cmpuint (tally.agreed_values, >, 100000);
  g_assert_cmpuint (tally.agreed_failures, >, 1000);
}

static void
test_short_circuit_keeps_lanes_clean (void)
{
  Params params = { { 1000, 0, 0 } };
  g_autoptr (WsExpr) e = ws_expr_parse ("threadIdx.x != 0 && N / threadIdx.x > 10", NULL, NULL);
  gint64 launch[WS_N_BUILTINS] = { 0 };
  g_autoptr (WsProgram) prog = NULL;
  WsProgramState *s;
  WsValue v;
  gint64 inputs[WS_N_VARYING_INPUTS][32] = { { 0 } };
  gint64 block[3] = { 0, 0, 0 };

  launch[WS_BUILTIN_BLOCK_DIM_X] = 32;
  prog = ws_program_new (launch);
  g_assert_true (ws_program_compile (prog, e, resolve, &params, &v, NULL));
  v = ws_program_as_varying (prog, v);
  s = ws_program_state_new (prog);
  for (guint l = 0; l < 32; l++)
    inputs[WS_VARYING_IN_THREAD_X][l] = inputs[WS_VARYING_IN_LANE][l] = l;
  ws_program_run_block (prog, s, block);
  ws_program_run_warp (prog, s, (const gint64 (*)[32]) inputs);
  for (guint l = 0; l < 32; l++)
    {
      g_assert_cmpuint (s->vp[v.reg][l], ==, 0);
      g_assert_cmpint (ws_program_state_values (s, v)[l], ==, l != 0 && 1000 / l > 10);
    }
  ws_program_state_free (s);
}

static void
test_constants_fold (void)
{
  Params params = { { 4096, 2, 0 } };
  g_autoptr (WsExpr) e = ws_expr_parse ("N * k + 3 * (7 - 2)", NULL, NULL);
  g_autoptr (WsExpr) lazy = ws_expr_parse ("z != 0 ? N / z : 5", NULL, NULL);
  gint64 launch[WS_N_BUILTINS] = { 0 };
  g_autoptr (WsProgram) prog = ws_program_new (launch);
  WsValue v;

  g_assert_true (ws_program_compile (prog, e, resolve, &params, &v, NULL));
  g_assert_cmpint (v.cls, ==, WS_VALUE_CONST);
  g_assert_cmpint (v.value, ==, 4096 * 2 + 15);
  /* the branch that would divide by zero is never compiled */
  g_assert_true (ws_program_compile (prog, lazy, resolve, &params, &v, NULL));
  g_assert_cmpint (v.cls, ==, WS_VALUE_CONST);
  g_assert_cmpint (v.value, ==, 5);
  g_assert_cmpuint (ws_program_n_warp_ops (prog), ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/program/random-agreement", test_random_agreement);
  g_test_add_func ("/program/short-circuit", test_short_circuit_keeps_lanes_clean);
  g_test_add_func ("/program/constants-fold", test_constants_fold);
  return g_test_run ();
}
