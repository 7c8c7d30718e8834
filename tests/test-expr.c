/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "expr-fixture.h"
#include "ws-expr.h"

#include <string.h>

static gboolean
lookup_params (const char *name,
               gpointer    user_data,
               gint64     *value,
               GError    **error)
{
  if (strcmp (name, "N") == 0)
    *value = 1000;
  else if (strcmp (name, "stride") == 0)
    *value = 3;
  else if (strcmp (name, "zero") == 0)
    *value = 0;
  else
    {
      g_set_error (error, WS_EXPR_ERROR, WS_EXPR_ERROR_UNKNOWN_NAME, "unknown name “%s”", name);
      return FALSE;
    }
  return TRUE;
}

static void
init_env (WsEvalEnv *env)
{
  memset (env, 0, sizeof *env);
  env->builtins[WS_BUILTIN_THREAD_IDX_X] = 5;
  env->builtins[WS_BUILTIN_THREAD_IDX_Y] = 2;
  env->builtins[WS_BUILTIN_BLOCK_IDX_X] = 7;
  env->builtins[WS_BUILTIN_BLOCK_DIM_X] = 32;
  env->builtins[WS_BUILTIN_BLOCK_DIM_Y] = 4;
  env->builtins[WS_BUILTIN_GRID_DIM_X] = 128;
  env->builtins[WS_BUILTIN_LANE] = 5;
  env->builtins[WS_BUILTIN_WARP] = 2;
  env->lookup = lookup_params;
}

static gint64
eval_ok (const char *text)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsExpr) e = ws_expr_parse (text, NULL, &error);
  WsEvalEnv env;
  gint64 v = 0;

  g_assert_no_error (error);
  g_assert_nonnull (e);
  init_env (&env);
  g_assert_true (ws_expr_eval (e, &env, &v, &error));
  g_assert_no_error (error);
  return v;
}

typedef struct
{
  const char *text;
  gint64 value;
} Case;

static const Case values[] = {
  { "1 + 2 * 3", 7 },
  { "(1 + 2) * 3", 9 },
  { "1 << 2 + 1", 8 },
  { "7 & 3 == 3", 1 },
  { "10 - 4 - 3", 3 },
  { "100 / 10 / 5", 2 },
  { "-7 / 2", -3 },
  { "-7 % 2", -1 },
  { "7 % -2", 1 },
  { "~0", -1 },
  { "!5", 0 },
  { "!0", 1 },
  { "- -4", 4 },
  { "+4", 4 },
  { "0x1F", 31 },
  { "0X10 + 10LL + 3l", 29 },
  { "1 < 2", 1 },
  { "2 <= 2", 1 },
  { "3 > 4", 0 },
  { "4 >= 5", 0 },
  { "3 != 3", 0 },
  { "5 ^ 3", 6 },
  { "5 | 3", 7 },
  { "-16 >> 2", -4 },
  { "1 ? 2 : 3", 2 },
  { "0 ? 2 : 0 ? 3 : 4", 4 },
  { "1 ? 0 ? 5 : 6 : 7", 6 },
  { "min(3, -2)", -2 },
  { "max(3, -2)", 3 },
  { "abs(-7)", 7 },
  { "min(max(1, 5), 3)", 3 },
  { "1 || 1 / zero", 1 },
  { "0 && 1 / zero", 0 },
  { "1 ? 2 : 1 / zero", 2 },
  { "threadIdx.x", 5 },
  { "threadIdx.y * blockDim.x + threadIdx.x", 69 },
  { "blockIdx.x * blockDim.x + threadIdx.x", 229 },
  { "blockIdx.x + threadIdx.x * gridDim.x", 647 },
  { "lane + 32 * warp", 69 },
  { "threadIdx.x ^ 1", 4 },
  { "(threadIdx.x * stride) % N", 15 },
  { "9223372036854775807", G_MAXINT64 },
  { "-9223372036854775807 - 1", G_MININT64 },
  { "1 << 62", G_GINT64_CONSTANT (1) << 62 },
  { "\t 1\n+\r2 ", 3 },
};

static void
test_values (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      g_test_message ("%s", values[i].text);
      g_assert_cmpint (eval_ok (values[i].text), ==, values[i].value);
    }
}

typedef struct
{
  const char *text;
  guint column;
  const char *fragment;
} SyntaxCase;

static const SyntaxCase syntax_errors[] = {
  { "", 1, "empty" },
  { "   ", 4, "empty" },
  { "1 +", 4, "expected a number, a name or “(”, found the end" },
  { "(1 + 2", 7, "expected “)” to close the “(” at column 1" },
  { "1 2", 3, "expected an operator or the end" },
  { "threadIdx", 10, "threadIdx.x, threadIdx.y or threadIdx.z" },
  { "blockIdx.w", 10, "expected x, y or z" },
  { "min(1)", 1, "takes 2 arguments, found 1" },
  { "abs(1, 2)", 1, "takes 1 argument" },
  { "min", 1, "is a function" },
  { "foo(1)", 1, "unknown function “foo”" },
  { "010", 1, "leading zero" },
  { "99999999999999999999", 1, "does not fit" },
  { "0x", 1, "hex digits" },
  { "12u", 3, "unexpected “u” after the number" },
  { "i = 1", 3, "did you mean “==”" },
  { "in[i]", 3, "write only the index" },
  { "int + 1", 1, "reserved" },
  { "bitand + 1", 1, "reserved" },
  { "(long) x", 2, "reserved" },
  { "ws_tmp", 1, "reserved" },
  { "1 ? 2", 6, "expected “:” for the “?” at column 3" },
  { "1 + $", 5, "unexpected character “$”" },
  { "a + é", 5, "non-ASCII" },
  { "min(1, 2", 9, "expected “,” or “)”" },
};

static void
test_syntax_errors (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (syntax_errors); i++)
    {
      const SyntaxCase *c = &syntax_errors[i];
      g_autoptr (GError) error = NULL;
      g_autofree char *prefix = g_strdup_printf ("column %u: ", c->column);
      guint column = 0;
      WsExpr *e = ws_expr_parse (c->text, &column, &error);

      g_test_message ("“%s” → %s", c->text, error ? error->message : "(parsed)");
      g_assert_null (e);
      g_assert_error (error, WS_EXPR_ERROR, error->code);
      g_assert_cmpuint (column, ==, c->column);
      g_assert_true (g_str_has_prefix (error->message, prefix));
      g_assert_nonnull (strstr (error->message, c->fragment));
    }
}

static void
test_deep_nesting (void)
{
  g_autoptr (GString) s = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  WsExpr *e;

  for (guint i = 0; i < 1500; i++)
    g_string_append_c (s, '(');
  g_string_append_c (s, '1');
  for (guint i = 0; i < 1500; i++)
    g_string_append_c (s, ')');
  e = ws_expr_parse (s->str, NULL, &error);
  g_assert_null (e);
  g_assert_error (error, WS_EXPR_ERROR, WS_EXPR_ERROR_TOO_DEEP);

  g_string_truncate (s, 0);
  for (guint i = 0; i < 1500; i++)
    g_string_append (s, "-");
  g_string_append_c (s, '1');
  g_clear_error (&error);
  e = ws_expr_parse (s->str, NULL, &error);
  g_assert_null (e);
  g_assert_error (error, WS_EXPR_ERROR, WS_EXPR_ERROR_TOO_DEEP);
}

/* Chains of binary operators build trees as deep as they are long, without
 * any nesting in the text: the parser must bound them too, or every walk over
 * the tree (printing, evaluation, compilation) overflows the stack. */
static void
test_deep_chains (void)
{
  static const char *ops[] = { "+", "*", "-", "<<", "&&", "|" };

  for (guint k = 0; k < G_N_ELEMENTS (ops); k++)
    {
      g_autoptr (GString) s = g_string_new ("1");
      g_autoptr (GError) error = NULL;
      g_autoptr (WsExpr) e = NULL;
      guint column = 0;

      for (guint i = 1; i < 40000; i++)
        g_string_append_printf (s, "%s1", ops[k]);
      e = ws_expr_parse (s->str, &column, &error);
      g_assert_null (e);
      g_assert_error (error, WS_EXPR_ERROR, WS_EXPR_ERROR_TOO_LONG);
      g_assert_cmpuint (column, >, 0);

      /* short enough to read, too deep to walk */
      g_string_truncate (s, 1);
      for (guint i = 1; i <= WS_EXPR_MAX_DEPTH; i++)
        g_string_append_printf (s, "%s1", ops[k]);
      g_clear_error (&error);
      e = ws_expr_parse (s->str, &column, &error);
      g_assert_null (e);
      g_assert_error (error, WS_EXPR_ERROR, WS_EXPR_ERROR_TOO_DEEP);
      g_assert_nonnull (strstr (error->message, "too deep"));
    }
}

/* The deepest tree the parser accepts is printed, evaluated and read back. */
static void
test_deepest_chain (void)
{
  g_autoptr (GString) s = g_string_new ("1");
  g_autoptr (GError) error = NULL;
  g_autoptr (WsExpr) e = NULL;
  g_autoptr (WsExpr) again = NULL;
  g_autofree char *text = NULL;
  g_autofree char *cuda = NULL;
  WsEvalEnv env = { 0 };
  gint64 value = 0;

  for (guint i = 1; i < WS_EXPR_MAX_DEPTH; i++)
    g_string_append (s, " + 1");
  e = ws_expr_parse (s->str, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_expr_get_depth (e), ==, WS_EXPR_MAX_DEPTH);
  g_assert_true (ws_expr_eval (e, &env, &value, &error));
  g_assert_cmpint (value, ==, WS_EXPR_MAX_DEPTH);
  text = ws_expr_to_string (e);
  cuda = ws_expr_to_cuda (e);
  again = ws_expr_parse (cuda, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (ws_expr_equal (e, again));
  g_assert_cmpstr (text, ==, s->str);
}

typedef struct
{
  const char *text;
  WsExprError code;
  const char *fragment;
} EvalCase;

static const EvalCase eval_errors[] = {
  { "N / (threadIdx.x - 5)", WS_EXPR_ERROR_DIVISION_BY_ZERO, "division by zero in “N / (threadIdx.x - 5)” (column 3)" },
  { "1 % zero", WS_EXPR_ERROR_DIVISION_BY_ZERO, "division by zero" },
  { "9223372036854775807 + 1", WS_EXPR_ERROR_OVERFLOW, "overflow" },
  { "-9223372036854775807 - 2", WS_EXPR_ERROR_OVERFLOW, "overflow" },
  { "4611686018427387904 * 2", WS_EXPR_ERROR_OVERFLOW, "overflow" },
  { "(-9223372036854775807 - 1) / -1", WS_EXPR_ERROR_OVERFLOW, "overflow" },
  { "abs(-9223372036854775807 - 1)", WS_EXPR_ERROR_OVERFLOW, "overflow" },
  { "-(-9223372036854775807 - 1)", WS_EXPR_ERROR_OVERFLOW, "overflow" },
  { "1 << 64", WS_EXPR_ERROR_SHIFT, "shift" },
  { "1 << -1", WS_EXPR_ERROR_SHIFT, "shift" },
  { "-1 << 1", WS_EXPR_ERROR_SHIFT, "shift" },
  { "1 >> 64", WS_EXPR_ERROR_SHIFT, "shift" },
  { "1 << 63", WS_EXPR_ERROR_OVERFLOW, "overflow" },
  { "3 << 62", WS_EXPR_ERROR_OVERFLOW, "overflow" },
  { "undefined_name + 1", WS_EXPR_ERROR_UNKNOWN_NAME, "unknown name “undefined_name”" },
};

static void
test_eval_errors (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (eval_errors); i++)
    {
      const EvalCase *c = &eval_errors[i];
      g_autoptr (GError) error = NULL;
      g_autoptr (WsExpr) e = ws_expr_parse (c->text, NULL, &error);
      WsEvalEnv env;
      gint64 v;

      g_assert_no_error (error);
      init_env (&env);
      g_assert_false (ws_expr_eval (e, &env, &v, &error));
      g_test_message ("%s → %s", c->text, error->message);
      g_assert_error (error, WS_EXPR_ERROR, (gint) c->code);
      g_assert_nonnull (strstr (error->message, c->fragment));
    }
}

static const char *round_trips[] = {
  "blockIdx.x * blockDim.x + threadIdx.x",
  "blockIdx.x + threadIdx.x * gridDim.x",
  "(a + b) * c",
  "a - (b - c)",
  "a - b - c",
  "a / (b * c)",
  "a << (b + c)",
  "(a << b) + c",
  "-(-a)",
  "- -a",
  "!!a",
  "~-a",
  "-a * b",
  "-(a * b)",
  "a ? b : c ? d : e",
  "(a ? b : c) ? d : e",
  "a ? (b ? c : d) : e",
  "a || b && c",
  "(a || b) && c",
  "a & b == c",
  "(a & b) == c",
  "a < b == c < d",
  "min(a, max(b, -c)) + abs(d ^ e)",
  "threadIdx.x * 33 + (threadIdx.y ^ threadIdx.x)",
  "(i / 32) * 96 + i % 32",
  "0x7fffffffffffffff",
  "lane % distinct",
  "warp",
};

static void
assert_round_trip (const WsExpr *e)
{
  g_autofree char *text = ws_expr_to_string (e);
  g_autofree char *cuda = ws_expr_to_cuda (e);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsExpr) back = ws_expr_parse (text, NULL, &error);
  g_autoptr (WsExpr) back_cuda = NULL;

  g_assert_no_error (error);
  g_assert_true (ws_expr_equal (e, back));
  back_cuda = ws_expr_parse (cuda, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (ws_expr_equal (e, back_cuda));
  /* no “--” (a decrement in C) and no bare int literal in the CUDA text */
  g_assert_null (strstr (cuda, "--"));
}

static void
test_round_trip (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (round_trips); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WsExpr) e = ws_expr_parse (round_trips[i], NULL, &error);
      g_autofree char *text = NULL;

      g_assert_no_error (error);
      assert_round_trip (e);
      text = ws_expr_to_string (e);
      g_test_message ("%s → %s", round_trips[i], text);
    }
}

static void
test_cuda_text (void)
{
  g_autoptr (WsExpr) e = ws_expr_parse ("4096 * 4096 * 4096 + (threadIdx.x ^ 1)", NULL, NULL);
  g_autofree char *cuda = ws_expr_to_cuda (e);

  /* 64-bit literals: in C, 4096 * 4096 * 4096 would overflow a 32-bit int */
  g_assert_cmpstr (cuda, ==, "4096LL * 4096LL * 4096LL + (threadIdx.x ^ 1LL)");

  /* a comparison is a bool in C++: it is cast back to long long, and the
   * cast reads back as nothing */
  {
    g_autoptr (WsExpr) b = ws_expr_parse ("(a < b) << 40 | !c", NULL, NULL);
    g_autofree char *text = ws_expr_to_cuda (b);
    g_autoptr (WsExpr) back = ws_expr_parse (text, NULL, NULL);

    g_assert_cmpstr (text, ==, "(long long) (a < b) << 40LL | (long long) (!c)");
    g_assert_true (ws_expr_equal (b, back));
  }
  {
    g_autoptr (WsExpr) cast = ws_expr_parse ("( long  long )x + (long long)(1)", NULL, NULL);
    g_autoptr (WsExpr) plain = ws_expr_parse ("x + 1", NULL, NULL);

    g_assert_true (ws_expr_equal (cast, plain));
  }
}

/* Random trees: printing then parsing gives the same tree, and the printed
 * text evaluates to the same value. */
static const char * const names[] = { "a", "b", "N", "stride" };

static gboolean
lookup_random (const char *name,
               gpointer    user_data,
               gint64     *value,
               GError    **error)
{
  *value = (gint64) strlen (name) * 7 - 3;
  return TRUE;
}

static void
test_random_round_trip (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (20261122);
  guint evaluated = 0;

  for (guint i = 0; i < 3000; i++)
    {
      g_autoptr (WsExpr) e = random_tree (rand, g_rand_int_range (rand, 1, 7), names, G_N_ELEMENTS (names), RANDOM_INTS_SMALL);
      g_autofree char *text = ws_expr_to_string (e);
      g_autoptr (WsExpr) back = ws_expr_parse (text, NULL, NULL);
      WsEvalEnv env = { { 0 } };
      gint64 v1 = 0, v2 = 0;
      gboolean ok1, ok2;

      if (!ws_expr_equal (e, back))
        g_error ("round trip changed “%s”", text);
      assert_round_trip (e);

      for (guint b = 0; b < WS_N_BUILTINS; b++)
        env.builtins[b] = (gint64) b * 3 - 5;
      env.lookup = lookup_random;
      ok1 = ws_expr_eval (e, &env, &v1, NULL);
      ok2 = ws_expr_eval (back, &env, &v2, NULL);
      g_assert_cmpint (ok1, ==, ok2);
      if (ok1)
        {
          g_assert_cmpint (v1, ==, v2);
          evaluated++;
        }
    }
  /* most trees evaluate without a division by zero or an overflow */
  g_assert_cmpuint (evaluated, >, 1500);
}

static void
test_names (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) names_found = g_ptr_array_new ();
  g_autoptr (WsExpr) e = ws_expr_parse ("N * stride + stride - pad + threadIdx.x", NULL, &error);

  g_assert_no_error (error);
  ws_expr_collect_names (e, names_found);
  g_assert_cmpuint (names_found->len, ==, 3);
  g_assert_cmpstr (g_ptr_array_index (names_found, 0), ==, "N");
  g_assert_cmpstr (g_ptr_array_index (names_found, 1), ==, "stride");
  g_assert_cmpstr (g_ptr_array_index (names_found, 2), ==, "pad");
  g_assert_true (ws_expr_uses_builtin (e, WS_BUILTIN_THREAD_IDX_X));
  g_assert_false (ws_expr_uses_builtin (e, WS_BUILTIN_LANE));

  g_assert_true (ws_name_is_valid ("stride_2", NULL));
  g_assert_false (ws_name_is_valid ("2stride", NULL));
  g_assert_false (ws_name_is_valid ("for", &error));
  g_assert_error (error, WS_EXPR_ERROR, WS_EXPR_ERROR_INVALID_NAME);
}

static void
test_spans (void)
{
  g_autoptr (WsExpr) e = ws_expr_parse ("  a + min(b, 3)", NULL, NULL);

  g_assert_cmpuint (e->start, ==, 2);
  g_assert_cmpuint (e->end, ==, 15);
  g_assert_cmpuint (e->op.args[1]->start, ==, 6);
  g_assert_cmpuint (e->op.args[1]->end, ==, 15);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/expr/values", test_values);
  g_test_add_func ("/expr/syntax-errors", test_syntax_errors);
  g_test_add_func ("/expr/deep-nesting", test_deep_nesting);
  g_test_add_func ("/expr/deep-chains", test_deep_chains);
  g_test_add_func ("/expr/deepest-chain", test_deepest_chain);
  g_test_add_func ("/expr/eval-errors", test_eval_errors);
  g_test_add_func ("/expr/round-trip", test_round_trip);
  g_test_add_func ("/expr/cuda-text", test_cuda_text);
  g_test_add_func ("/expr/random-round-trip", test_random_round_trip);
  g_test_add_func ("/expr/names", test_names);
  g_test_add_func ("/expr/spans", test_spans);
  return g_test_run ();
}
