/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The model's errors, word for word in English. Those made of several cases
 * (what an expression found instead, the part of a pattern an error names,
 * the space an address is outside of, a definition failing inside another)
 * are each a sentence of their own, for translators; the English of every
 * case is what it was when they were put together from pieces. */
#include "ws-analysis.h"
#include "ws-expr.h"
#include "ws-pattern.h"

#include <string.h>

typedef struct
{
  const char *text;
  const char *message;
} Case;

/* Parsed, then evaluated with no names known. */
static const Case expressions[] = {
  { "", "column 1: the expression is empty" },
  { "a +", "column 4: expected a number, a name or “(”, found the end of the expression" },
  { ")", "column 1: expected a number, a name or “(”, found “)”" },
  { "(a", "column 3: expected “)” to close the “(” at column 1, found the end of the expression" },
  { "(a b", "column 4: expected “)” to close the “(” at column 1, found “b”" },
  { "a ? b", "column 6: expected “:” for the “?” at column 3, found the end of the expression" },
  { "a ? b c", "column 7: expected “:” for the “?” at column 3, found “c”" },
  { "min(a", "column 6: expected “,” or “)” in the arguments of “min” (opened at column 1), found the end of the "
             "expression" },
  { "min(a b)", "column 7: expected “,” or “)” in the arguments of “min” (opened at column 1), found “b”" },
  { "threadIdx.", "column 11: expected x, y or z after “threadIdx.”, found the end of the expression" },
  { "blockDim.xy", "column 10: expected x, y or z after “blockDim.”, found “xy”" },
  { "a b", "column 3: expected an operator or the end of the expression, found “b”" },
  { "min", "column 1: “min” is a function: write min(a, b) or max(a, b)" },
  { "abs", "column 1: “abs” is a function: write abs(x)" },
  { "abs(1,2)", "column 1: “abs” takes 1 argument, not more" },
  { "min(1,2,3)", "column 1: “min” takes 2 arguments, not more" },
  { "abs()", "column 1: “abs” takes 1 argument, found 0" },
  { "min(1)", "column 1: “min” takes 2 arguments, found 1" },
  { "threadIdx", "column 10: “threadIdx” needs a component: threadIdx.x, threadIdx.y or threadIdx.z" },
  { "int", "column 1: “int” is reserved (a C, C++ or CUDA keyword, built-in or macro, or a name the generated "
           "kernel uses)" },
  { "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    "column 1: the name “aaaaaaaaaaaaaaaaaaaa…” is longer than 64 characters" },
  { "\x01", "column 1: unexpected control character \\x01" },
  { "1/0", "division by zero in “1 / 0” (column 2)" },
  { "9223372036854775807+1", "64-bit overflow in “9223372036854775807 + 1” (column 20)" },
  { "1 << -1", "shift of a negative value, or by a negative count or 64 or more in “1 << -1” (column 3)" },
  { "n", "unknown name “n” (column 1)" },
};

static void
test_expressions (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (expressions); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WsExpr) e = ws_expr_parse (expressions[i].text, NULL, &error);
      WsEvalEnv env = { 0 };
      gint64 v;

      if (e != NULL)
        g_assert_false (ws_expr_eval (e, &env, &v, &error));
      g_assert_nonnull (error);
      g_assert_cmpstr (error->message, ==, expressions[i].message);
    }
}

static void
test_too_long (void)
{
  g_autofree char *text = g_strnfill (WS_EXPR_MAX_LENGTH + 1, '1');
  g_autofree char *expected = g_strdup_printf ("the expression is %d bytes long; at most %d are allowed",
                                               WS_EXPR_MAX_LENGTH + 1, WS_EXPR_MAX_LENGTH);
  g_autoptr (GError) error = NULL;

  g_assert_null (ws_expr_parse (text, NULL, &error));
  g_assert_cmpstr (error->message, ==, expected);
}

static WsPattern *
pattern_new (void)
{
  WsPattern *p = ws_pattern_new ();

  g_assert_true (ws_pattern_set_block (p, WS_DIM3 (64, 1, 1), NULL));
  g_assert_true (ws_pattern_set_grid (p, WS_DIM3 (2, 1, 1), NULL));
  g_assert_true (ws_pattern_set_param (p, "N", 4, NULL));
  return p;
}

static void
assert_invalid (WsPattern  *p,
                const char *message)
{
  g_autoptr (GError) error = NULL;

  g_assert_false (ws_pattern_validate (p, &error));
  g_assert_cmpstr (error->message, ==, message);
}

/* The definition of a name, the guard, the index of an array. */
static void
test_pattern_parts (void)
{
  g_autoptr (WsPattern) p = pattern_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) ones = g_string_new ("1");
  g_autoptr (GString) chain = g_string_new ("a + b");

  g_assert_false (ws_pattern_add_definition (p, "d", "1 +", &error));
  g_assert_cmpstr (error->message, ==,
                   "definition of d: column 4: expected a number, a name or “(”, found the end of the expression");
  g_clear_error (&error);
  g_assert_false (ws_pattern_set_guard (p, "(", &error));
  g_assert_cmpstr (error->message, ==, "guard: column 2: expected a number, a name or “(”, found the end of the "
                                       "expression");
  g_clear_error (&error);
  g_assert_false (ws_pattern_add_access (p, "data", WS_SPACE_GLOBAL, WS_ACCESS_LOAD, 4, "1 1", 0, &error));
  g_assert_cmpstr (error->message, ==, "index: column 3: expected an operator or the end of the expression, found “1”");
  g_clear_error (&error);
  g_assert_false (ws_pattern_add_access (p, "data", WS_SPACE_LOCAL, WS_ACCESS_ATOMIC, 4, "1", 0, &error));
  g_assert_cmpstr (error->message, ==, "atomics work on global and shared memory, not on local");
  g_clear_error (&error);
  g_assert_false (ws_pattern_add_access (p, "data", WS_SPACE_REGISTER, WS_ACCESS_ATOMIC, 4, "1", 0, &error));
  g_assert_cmpstr (error->message, ==, "atomics work on global and shared memory, not on register");
  g_clear_error (&error);

  g_assert_true (ws_pattern_add_definition (p, "a", "b + 1", NULL));
  g_assert_true (ws_pattern_add_definition (p, "b", "1", NULL));
  g_assert_true (ws_pattern_add_access (p, "arr", WS_SPACE_GLOBAL, WS_ACCESS_LOAD, 4, "a", 0, NULL));
  assert_invalid (p, "the definition of a uses “b”, which is defined after it");
  g_clear_pointer (&p, ws_pattern_unref);

  p = pattern_new ();
  g_assert_true (ws_pattern_add_definition (p, "a", "zz", NULL));
  assert_invalid (p, "the definition of a uses “zz”, which is neither a parameter nor a definition (set it with "
                     "--set zz=VALUE)");
  g_clear_pointer (&p, ws_pattern_unref);
  p = pattern_new ();
  g_assert_true (ws_pattern_set_guard (p, "zz", NULL));
  assert_invalid (p, "the guard uses “zz”, which is neither a parameter nor a definition (set it with --set zz=VALUE)");
  g_clear_pointer (&p, ws_pattern_unref);
  p = pattern_new ();
  g_assert_true (ws_pattern_add_access (p, "arr", WS_SPACE_GLOBAL, WS_ACCESS_LOAD, 4, "zz", 0, NULL));
  assert_invalid (p, "the index of arr uses “zz”, which is neither a parameter nor a definition (set it with "
                     "--set zz=VALUE)");
  g_clear_pointer (&p, ws_pattern_unref);

  /* each under the limit alone, over it with the definitions it uses */
  for (guint i = 0; i < 150; i++)
    {
      g_string_append (ones, " + 1");
      g_string_append (chain, " + 1");
    }
  p = pattern_new ();
  g_assert_true (ws_pattern_add_definition (p, "a", ones->str, NULL));
  g_assert_true (ws_pattern_add_definition (p, "b", ones->str, NULL));
  g_assert_true (ws_pattern_add_definition (p, "c", chain->str, NULL));
  g_assert_true (ws_pattern_add_access (p, "arr", WS_SPACE_GLOBAL, WS_ACCESS_LOAD, 4, "1", 0, NULL));
  assert_invalid (p, "the definition of c is too deep with the definitions it uses: more than 200 operators inside "
                     "one another");
  g_clear_pointer (&p, ws_pattern_unref);
  p = pattern_new ();
  g_assert_true (ws_pattern_add_definition (p, "a", ones->str, NULL));
  g_assert_true (ws_pattern_add_definition (p, "b", ones->str, NULL));
  g_assert_true (ws_pattern_set_guard (p, chain->str, NULL));
  g_assert_true (ws_pattern_add_access (p, "arr", WS_SPACE_GLOBAL, WS_ACCESS_LOAD, 4, "1", 0, NULL));
  assert_invalid (p, "the guard is too deep with the definitions it uses: more than 200 operators inside one "
                     "another");
  g_clear_pointer (&p, ws_pattern_unref);
  p = pattern_new ();
  g_assert_true (ws_pattern_add_definition (p, "a", ones->str, NULL));
  g_assert_true (ws_pattern_add_definition (p, "b", ones->str, NULL));
  g_assert_true (ws_pattern_add_access (p, "arr", WS_SPACE_GLOBAL, WS_ACCESS_LOAD, 4, chain->str, 0, NULL));
  assert_invalid (p, "the index of arr is too deep with the definitions it uses: more than 200 operators inside "
                     "one another");
}

/* The error of the first warp of a launch of one access. */
static char *
analysis_error (WsSpace      space,
                const char  *index,
                const char  *guard,
                const char **definitions)
{
  g_autoptr (WsPattern) p = pattern_new ();
  g_autoptr (GError) error = NULL;
  WsWarpResult *r;

  for (guint i = 0; definitions && definitions[i]; i += 2)
    g_assert_true (ws_pattern_add_definition (p, definitions[i], definitions[i + 1], NULL));
  if (guard)
    g_assert_true (ws_pattern_set_guard (p, guard, NULL));
  g_assert_true (ws_pattern_add_access (p, "data", space, WS_ACCESS_LOAD, 4, index, 0, NULL));
  r = ws_model_analyze_warp (p, 0, WS_DIM3 (0, 0, 0), 0, &error);
  g_assert_null (r);
  g_assert_nonnull (error);
  return g_strdup (error->message);
}

static void
test_analysis (void)
{
  static const char *one[] = { "a", "1 / (threadIdx.x - 5)", NULL };
  static const char *two[] = { "a", "1 / (threadIdx.x - 5)", "b", "a + 1", NULL };
  static const struct
  {
    WsSpace space;
    const char *index;
    const char *message;
  } addresses[] = {
    { WS_SPACE_GLOBAL, "threadIdx.x - 3",
      "block (0, 0, 0), thread (0, 0, 0) — warp 0, lane 0: data[threadIdx.x - 3] is byte -12 from the array's "
      "start — before the start of the global array" },
    { WS_SPACE_SHARED, "threadIdx.x - 3",
      "block (0, 0, 0), thread (0, 0, 0) — warp 0, lane 0: data[threadIdx.x - 3] is byte -12 from the array's "
      "start — before the start of the shared array" },
    { WS_SPACE_CONSTANT, "threadIdx.x - 3",
      "block (0, 0, 0), thread (0, 0, 0) — warp 0, lane 0: data[threadIdx.x - 3] is byte -12 from the array's "
      "start — before the start of the constant array" },
    { WS_SPACE_LOCAL, "threadIdx.x - 3",
      "block (0, 0, 0), thread (0, 0, 0) — warp 0, lane 0: data[threadIdx.x - 3] is byte -12 of the thread's "
      "private array — before the start of the local array" },
    { WS_SPACE_REGISTER, "threadIdx.x - 3",
      "block (0, 0, 0), thread (0, 0, 0) — warp 0, lane 0: data[threadIdx.x - 3] is byte -12 from the array's "
      "start — before the start of the register array" },
    { WS_SPACE_SHARED, "threadIdx.x * 1000000",
      "block (0, 0, 0), thread (1, 0, 0) — warp 0, lane 1: data[threadIdx.x * 1000000] is byte 4000000, beyond "
      "the 232448 bytes shared memory can hold per block" },
    { WS_SPACE_CONSTANT, "threadIdx.x * 1000000",
      "block (0, 0, 0), thread (1, 0, 0) — warp 0, lane 1: data[threadIdx.x * 1000000] is byte 4000000, beyond "
      "the 65536 bytes constant memory can hold" },
    { WS_SPACE_LOCAL, "threadIdx.x * 1000000",
      "block (0, 0, 0), thread (1, 0, 0) — warp 0, lane 1: data[threadIdx.x * 1000000] is byte 4000000, beyond "
      "the 524288 bytes local memory can hold per thread" },
    { WS_SPACE_REGISTER, "threadIdx.x * 1000",
      "block (0, 0, 0), thread (1, 0, 0) — warp 0, lane 1: data[threadIdx.x * 1000] is byte 4000, beyond the "
      "1020 bytes (255 registers) a thread can keep an array in" },
  };
  char *message;

  for (guint i = 0; i < G_N_ELEMENTS (addresses); i++)
    {
      message = analysis_error (addresses[i].space, addresses[i].index, NULL, NULL);
      g_assert_cmpstr (message, ==, addresses[i].message);
      g_free (message);
    }

  message = analysis_error (WS_SPACE_GLOBAL, "threadIdx.x", "1 / (threadIdx.x - 3)", NULL);
  g_assert_cmpstr (message, ==, "block (0, 0, 0), thread (3, 0, 0) — warp 0, lane 3: the guard: division by zero "
                                "in “1 / (threadIdx.x - 3)” (column 3)");
  g_free (message);
  message = analysis_error (WS_SPACE_GLOBAL, "1 / (threadIdx.x - 3)", NULL, NULL);
  g_assert_cmpstr (message, ==, "block (0, 0, 0), thread (3, 0, 0) — warp 0, lane 3: the index of data: division "
                                "by zero in “1 / (threadIdx.x - 3)” (column 3)");
  g_free (message);
  message = analysis_error (WS_SPACE_GLOBAL, "a", NULL, one);
  g_assert_cmpstr (message, ==, "block (0, 0, 0), thread (5, 0, 0) — warp 0, lane 5: the index of data: in the "
                                "definition of a: division by zero in “1 / (threadIdx.x - 5)” (column 3)");
  g_free (message);
  /* the innermost definition is named, once */
  message = analysis_error (WS_SPACE_GLOBAL, "1", "b", two);
  g_assert_cmpstr (message, ==, "block (0, 0, 0), thread (5, 0, 0) — warp 0, lane 5: the guard: in the definition "
                                "of a: division by zero in “1 / (threadIdx.x - 5)” (column 3)");
  g_free (message);
  message = analysis_error (WS_SPACE_GLOBAL, "threadIdx.x * 4611686018427387903", NULL, NULL);
  g_assert_cmpstr (message, ==, "block (0, 0, 0), thread (1, 0, 0) — warp 0, lane 1: data[threadIdx.x * "
                                "4611686018427387903] is element 4611686018427387903, whose byte address (× 4 "
                                "bytes) overflows 64 bits");
  g_free (message);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/messages/expressions", test_expressions);
  g_test_add_func ("/messages/too-long", test_too_long);
  g_test_add_func ("/messages/pattern-parts", test_pattern_parts);
  g_test_add_func ("/messages/analysis", test_analysis);
  return g_test_run ();
}
