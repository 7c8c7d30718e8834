/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-analysis.h"

#include <string.h>

static void
test_geometry (void)
{
  g_autoptr (WsPattern) p = ws_pattern_new ();
  g_autoptr (GError) error = NULL;

  g_assert_true (ws_pattern_set_block (p, WS_DIM3 (32, 32, 1), &error));
  g_assert_cmpuint (ws_pattern_get_warps_per_block (p), ==, 32);
  g_assert_true (ws_pattern_set_block (p, WS_DIM3 (33, 1, 1), &error));
  g_assert_cmpuint (ws_pattern_get_warps_per_block (p), ==, 2);

  g_assert_false (ws_pattern_set_block (p, WS_DIM3 (1024, 2, 1), &error));
  g_assert_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "at most 1024"));
  g_clear_error (&error);
  g_assert_false (ws_pattern_set_block (p, WS_DIM3 (0, 1, 1), &error));
  g_clear_error (&error);
  g_assert_false (ws_pattern_set_grid (p, WS_DIM3 (1, 65536, 1), &error));
  g_clear_error (&error);
  g_assert_true (ws_pattern_set_grid (p, WS_DIM3 (1u << 30, 2, 3), &error));
  /* a failed setter keeps the old value */
  g_assert_cmpuint (ws_pattern_get_block (p).x, ==, 33);
}

static void
test_dim3_parse (void)
{
  g_autoptr (GError) error = NULL;
  WsDim3 d;

  g_assert_true (ws_dim3_parse ("32", &d, &error));
  g_assert_cmpuint (d.x, ==, 32);
  g_assert_cmpuint (d.y, ==, 1);
  g_assert_true (ws_dim3_parse ("32, 8,2", &d, &error));
  g_assert_cmpuint (d.z, ==, 2);
  g_assert_false (ws_dim3_parse ("32,x", &d, &error));
  g_assert_nonnull (strstr (error->message, "component 2"));
  g_clear_error (&error);
  g_assert_false (ws_dim3_parse ("1,2,3,4", &d, &error));
  g_clear_error (&error);
  g_assert_false (ws_dim3_parse ("-1", &d, &error));
  g_clear_error (&error);
  g_assert_false (ws_dim3_parse ("0", &d, &error));
}

static void
test_accesses (void)
{
  g_autoptr (WsPattern) p = ws_pattern_new ();
  g_autoptr (GError) error = NULL;

  g_assert_false (ws_pattern_add_access (p, "x", WS_SPACE_GLOBAL, WS_ACCESS_LOAD, 3, "threadIdx.x", 0, &error));
  g_assert_nonnull (strstr (error->message, "element size 3"));
  g_clear_error (&error);
  g_assert_false (ws_pattern_add_access (p, "c", WS_SPACE_CONSTANT, WS_ACCESS_STORE, 4, "0", 0, &error));
  g_assert_nonnull (strstr (error->message, "read-only"));
  g_clear_error (&error);
  g_assert_false (ws_pattern_add_access (p, "x", WS_SPACE_LOCAL, WS_ACCESS_ATOMIC, 4, "0", 0, &error));
  g_clear_error (&error);
  g_assert_false (ws_pattern_add_access (p, "x", WS_SPACE_GLOBAL, WS_ACCESS_LOAD, 4, "threadIdx.x +", 0, &error));
  g_assert_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_EXPRESSION);
  g_assert_nonnull (strstr (error->message, "index: column 14"));
  g_clear_error (&error);
  g_assert_false (ws_pattern_add_access (p, "for", WS_SPACE_GLOBAL, WS_ACCESS_LOAD, 4, "0", 0, &error));
  g_clear_error (&error);
  g_assert_cmpuint (ws_pattern_get_n_accesses (p), ==, 0);

  g_assert_true (ws_pattern_add_access (p, "x", WS_SPACE_GLOBAL, WS_ACCESS_LOAD, 4, "threadIdx.x", 8, &error));
  g_assert_false (ws_pattern_set_access_index (p, 0, "(", &error));
  g_clear_error (&error);
  /* a bad index leaves the good one in place */
  g_assert_cmpstr (ws_pattern_get_access (p, 0)->index_text, ==, "threadIdx.x");
  g_assert_true (ws_pattern_set_access_space (p, 0, WS_SPACE_SHARED, WS_ACCESS_STORE, 8, 16, &error));
  g_assert_cmpuint (ws_pattern_get_access (p, 0)->elem_size, ==, 8);
}

static void
test_names_resolve (void)
{
  g_autoptr (WsPattern) p = ws_pattern_new ();
  g_autoptr (GError) error = NULL;

  g_assert_true (ws_pattern_add_definition (p, "i", "blockIdx.x * blockDim.x + threadIdx.x", &error));
  g_assert_true (ws_pattern_add_definition (p, "j", "i * stride", &error));
  g_assert_true (ws_pattern_add_access (p, "x", WS_SPACE_GLOBAL, WS_ACCESS_LOAD, 4, "j + k", 0, &error));
  g_assert_false (ws_pattern_validate (p, &error));
  g_assert_nonnull (strstr (error->message, "“stride”"));
  g_clear_error (&error);
  g_assert_true (ws_pattern_set_param (p, "stride", 2, &error));
  g_assert_false (ws_pattern_validate (p, &error));
  g_assert_nonnull (strstr (error->message, "“k”"));
  g_clear_error (&error);
  g_assert_true (ws_pattern_set_param (p, "k", 1, &error));
  g_assert_true (ws_pattern_validate (p, &error));

  /* a definition may not be a parameter too, nor use a later definition */
  g_assert_false (ws_pattern_set_param (p, "i", 3, &error));
  g_clear_error (&error);
  g_assert_false (ws_pattern_add_definition (p, "k", "1", &error));
  g_clear_error (&error);
  {
    g_autoptr (WsPattern) q = ws_pattern_new ();
    ws_pattern_add_definition (q, "a", "b + 1", NULL);
    ws_pattern_add_definition (q, "b", "threadIdx.x", NULL);
    ws_pattern_add_access (q, "x", WS_SPACE_GLOBAL, WS_ACCESS_LOAD, 4, "a", 0, NULL);
    g_assert_false (ws_pattern_validate (q, &error));
    g_assert_nonnull (strstr (error->message, "defined after it"));
    g_clear_error (&error);
  }

  /* ranges */
  ws_pattern_set_param_range (p, "stride", 1, 64, "elements between lanes");
  g_assert_true (ws_pattern_set_param (p, "stride", 65, &error));
  g_assert_false (ws_pattern_validate (p, &error));
  g_assert_nonnull (strstr (error->message, "outside its range"));
}

static void
test_guard (void)
{
  g_autoptr (WsPattern) p = ws_pattern_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (WsLaunchStats) s = NULL;

  ws_pattern_set_block (p, WS_DIM3 (64, 1, 1), NULL);
  ws_pattern_set_grid (p, WS_DIM3 (4, 1, 1), NULL);
  ws_pattern_add_definition (p, "i", "blockIdx.x * blockDim.x + threadIdx.x", NULL);
  ws_pattern_set_param (p, "N", 200, NULL);
  g_assert_true (ws_pattern_set_guard (p, "i < N", &error));
  ws_pattern_add_access (p, "x", WS_SPACE_GLOBAL, WS_ACCESS_LOAD, 4, "i", 0, NULL);
  s = ws_model_analyze_launch (p, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (s->total.active_lanes, ==, 200);
  /* 200 = 6 full warps and 8 lanes: 7 instructions */
  g_assert_cmpuint (s->total.instructions, ==, 7);
  g_assert_cmpuint (s->total.sectors, ==, 6 * 4 + 1);
  g_assert_cmpint (s->total.end_address, ==, 800);

  g_assert_false (ws_pattern_set_guard (p, "i <", &error));
  g_clear_error (&error);
  g_assert_cmpstr (ws_pattern_get_guard_text (p), ==, "i < N");
  g_assert_true (ws_pattern_set_guard (p, "  ", &error));
  g_assert_null (ws_pattern_get_guard (p));
}

static void
test_elem_size_param (void)
{
  g_autoptr (WsPattern) p = ws_pattern_new ();
  g_autoptr (GError) error = NULL;

  ws_pattern_set_block (p, WS_DIM3 (32, 1, 1), NULL);
  ws_pattern_add_access (p, "x", WS_SPACE_GLOBAL, WS_ACCESS_LOAD, 4, "threadIdx.x", 0, NULL);
  g_assert_false (ws_pattern_bind_elem_size (p, 0, &error));
  g_clear_error (&error);
  ws_pattern_set_param (p, "elem_size", 16, NULL);
  g_assert_true (ws_pattern_bind_elem_size (p, 0, &error));
  g_assert_cmpuint (ws_pattern_get_access (p, 0)->elem_size, ==, 16);
  g_assert_true (ws_pattern_set_param (p, "elem_size", 2, &error));
  g_assert_cmpuint (ws_pattern_get_access (p, 0)->elem_size, ==, 2);
  g_assert_false (ws_pattern_set_param (p, "elem_size", 3, &error));
  g_assert_cmpuint (ws_pattern_get_access (p, 0)->elem_size, ==, 2);
}

static void
test_copy (void)
{
  g_autoptr (WsPattern) p = ws_pattern_new ();
  g_autoptr (WsPattern) q = NULL;
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;

  ws_pattern_set_block (p, WS_DIM3 (32, 8, 1), NULL);
  ws_pattern_set_param (p, "N", 64, NULL);
  ws_pattern_add_definition (p, "x", "threadIdx.x + blockIdx.x * 32", NULL);
  ws_pattern_set_guard (p, "x < N", NULL);
  ws_pattern_add_access (p, "in", WS_SPACE_GLOBAL, WS_ACCESS_LOAD, 4, "x", 0, NULL);
  ws_pattern_add_access (p, "s", WS_SPACE_SHARED, WS_ACCESS_STORE, 8, "threadIdx.y", 8, NULL);
  q = ws_pattern_copy (p);
  a = ws_pattern_to_string (p);
  b = ws_pattern_to_string (q);
  g_assert_cmpstr (a, ==, b);
  ws_pattern_set_param (q, "N", 65, NULL);
  g_assert_true (ws_pattern_get_param (p, "N", NULL));
  {
    gint64 v;
    ws_pattern_get_param (p, "N", &v);
    g_assert_cmpint (v, ==, 64);
  }
}

/* Each definition's tree is bounded by the parser; a chain of them, each
 * using the one before, must be bounded too: the model compiles and
 * evaluates a name by walking into its definition. */
static void
test_definition_depth (void)
{
  g_autoptr (WsPattern) p = ws_pattern_new ();
  g_autoptr (WsLaunchStats) stats = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) chain = g_string_new ("1");

  for (guint i = 1; i < 150; i++)
    g_string_append (chain, " + 1");
  g_assert_true (ws_pattern_add_definition (p, "d0", chain->str, &error));
  g_assert_true (ws_pattern_add_access (p, "in", WS_SPACE_GLOBAL, WS_ACCESS_LOAD, 4, "d0 + threadIdx.x", 0, &error));
  g_assert_true (ws_pattern_validate (p, &error));

  for (guint d = 1; d < 8; d++)
    {
      g_autofree char *name = g_strdup_printf ("d%u", d);
      g_autofree char *text = g_strdup_printf ("d%u + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1", d - 1);

      g_assert_true (ws_pattern_add_definition (p, name, text, &error));
    }
  ws_pattern_remove_accesses (p);
  g_assert_true (ws_pattern_add_access (p, "in", WS_SPACE_GLOBAL, WS_ACCESS_LOAD, 4, "d7 - 220", 0, &error));
  stats = ws_model_analyze_launch (p, NULL, &error);
  g_assert_null (stats);
  g_assert_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_EXPRESSION);
  g_assert_nonnull (strstr (error->message, "too deep"));
}

/* Definitions that each use the one before more than once: evaluated once
 * per lane, error or not, so that the message of a lane that fails comes at
 * once (the evaluation that says what failed walked 2^n paths, forever for
 * a chain of 63). */
typedef struct
{
  const char *first;           /* v0 */
  const char *step;            /* v<i> from %1$s, v<i-1> */
  guint last;
  const char *index;           /* or NULL: v<last> */
  const char *guard;
  const char *says;
} Chain;

static void
test_definition_chains (void)
{
  static const Chain chains[] = {
    { "threadIdx.x", "%1$s + %1$s", 63, NULL, NULL, "in the definition of v63: 64-bit overflow in “v62 + v62”" },
    { "threadIdx.x", "%1$s + %1$s", 62, NULL, NULL, "data[v62] is element 4611686018427387904, whose byte address" },
    { "threadIdx.x * 34359738368", "%1$s + %1$s", 40, NULL, NULL, "in the definition of v28: 64-bit overflow" },
    /* each three operators deeper than the one before: 40 is as far as they go */
    { "threadIdx.x + 1", "%1$s * %1$s - %1$s * %1$s + %1$s", 40, "v40 / (v40 - v39)", NULL, "division by zero" },
    { "threadIdx.x", "(%1$s + %1$s) / 2 + (%1$s - %1$s)", 40, "1 / (v40 - v0)", NULL, "division by zero" },
    { "threadIdx.x", "%1$s + %1$s", 63, "threadIdx.x", "v63 > 0", "the guard: in the definition of v63" },
  };

  for (guint c = 0; c < G_N_ELEMENTS (chains); c++)
    {
      const Chain *ch = &chains[c];
      g_autoptr (WsPattern) p = ws_pattern_new ();
      g_autoptr (WsLaunchStats) stats = NULL;
      g_autoptr (GError) error = NULL;
      g_autofree char *last = g_strdup_printf ("v%u", ch->last);

      g_assert_true (ws_pattern_set_block (p, WS_DIM3 (32, 1, 1), &error));
      g_assert_true (ws_pattern_add_definition (p, "v0", ch->first, &error));
      for (guint i = 1; i <= ch->last; i++)
        {
          g_autofree char *name = g_strdup_printf ("v%u", i);
          g_autofree char *before = g_strdup_printf ("v%u", i - 1);
          g_autofree char *text = g_strdup_printf (ch->step, before);

          g_assert_true (ws_pattern_add_definition (p, name, text, &error));
        }
      if (ch->guard)
        g_assert_true (ws_pattern_set_guard (p, ch->guard, &error));
      g_assert_true (ws_pattern_add_access (p, "data", WS_SPACE_GLOBAL, WS_ACCESS_LOAD, 4,
                                            ch->index ? ch->index : last, 0, &error));
      g_assert_no_error (error);
      stats = ws_model_analyze_launch (p, NULL, &error);
      g_assert_null (stats);
      g_test_message ("%s", error->message);
      g_assert_nonnull (strstr (error->message, ch->says));
    }
}

/* A pattern read from a file or a worker request holds a bounded number of
 * names and accesses: they are looked up linearly. */
static void
test_limits (void)
{
  g_autoptr (WsPattern) p = ws_pattern_new ();
  g_autoptr (GError) error = NULL;
  guint i;

  for (i = 0; i < WS_PATTERN_MAX_NAMES / 2; i++)
    {
      g_autofree char *name = g_strdup_printf ("p%u", i);
      g_assert_true (ws_pattern_set_param (p, name, i, &error));
    }
  for (; i < WS_PATTERN_MAX_NAMES; i++)
    {
      g_autofree char *name = g_strdup_printf ("d%u", i);
      g_assert_true (ws_pattern_add_definition (p, name, "1", &error));
    }
  g_assert_false (ws_pattern_set_param (p, "one_more", 1, &error));
  g_assert_nonnull (strstr (error->message, "at most"));
  g_clear_error (&error);
  g_assert_false (ws_pattern_add_definition (p, "one_more", "1", &error));
  g_clear_error (&error);
  /* an existing parameter takes a new value */
  g_assert_true (ws_pattern_set_param (p, "p0", 5, &error));

  for (i = 0; i < WS_PATTERN_MAX_ACCESSES; i++)
    g_assert_true (ws_pattern_add_access (p, "in", WS_SPACE_GLOBAL, WS_ACCESS_LOAD, 4, "threadIdx.x", 0, &error));
  g_assert_false (ws_pattern_add_access (p, "in", WS_SPACE_GLOBAL, WS_ACCESS_LOAD, 4, "threadIdx.x", 0, &error));
  g_assert_nonnull (strstr (error->message, "at most"));
}

/* What someone typed is quoted in a message as text: valid UTF-8, control
 * characters as escapes, never raw bytes a terminal would act on. */
static void
test_messages_are_text (void)
{
  g_autoptr (WsPattern) p = ws_pattern_new ();
  g_autoptr (GError) error = NULL;
  WsDim3 d;

  g_assert_false (ws_dim3_parse ("256\x1b]0;x\x07\xff", &d, &error));
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
  g_assert_nonnull (strstr (error->message, "256\\x1b]0;x\\x07\xef\xbf\xbd"));
  g_clear_error (&error);
  g_assert_false (ws_pattern_set_param (p, "n\xed\xa0\x80\n", 1, &error));
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
  g_assert_nonnull (strstr (error->message, "\\n"));
  g_clear_error (&error);
  g_assert_false (ws_pattern_add_access (p, "a", WS_SPACE_GLOBAL, WS_ACCESS_LOAD, 4, "lane + \x01", 0, &error));
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
  g_assert_nonnull (strstr (error->message, "control character \\x01"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/pattern/geometry", test_geometry);
  g_test_add_func ("/pattern/dim3-parse", test_dim3_parse);
  g_test_add_func ("/pattern/accesses", test_accesses);
  g_test_add_func ("/pattern/names", test_names_resolve);
  g_test_add_func ("/pattern/guard", test_guard);
  g_test_add_func ("/pattern/elem-size-param", test_elem_size_param);
  g_test_add_func ("/pattern/copy", test_copy);
  g_test_add_func ("/pattern/definition-depth", test_definition_depth);
  g_test_add_func ("/pattern/definition-chains", test_definition_chains);
  g_test_add_func ("/pattern/limits", test_limits);
  g_test_add_func ("/pattern/messages-are-text", test_messages_are_text);
  return g_test_run ();
}
