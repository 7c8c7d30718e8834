/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The expression parser alone: any bytes either parse into a bounded tree
 * that prints back (as text and as CUDA) into the same tree and evaluates, or
 * fail with a message and a column. */
#include "fuzz-common.h"

#include <string.h>

#include "ws-expr.h"

static gboolean
lookup (const char *name,
        gpointer    user_data,
        gint64     *value,
        GError    **error)
{
  /* any value a name may take, found from the name: the same every run */
  *value = (gint64) g_str_hash (name) - G_MAXINT32;
  return TRUE;
}

/* A printed tree may not read back only where printing made it longer or
 * added parentheses past what the parser nests. */
static void
check_reads_back (const WsExpr *e,
                  const char   *printed)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsExpr) again = ws_expr_parse (printed, NULL, &error);

  if (again == NULL)
    {
      FUZZ_CHECK (g_error_matches (error, WS_EXPR_ERROR, WS_EXPR_ERROR_TOO_LONG) ||
                  g_error_matches (error, WS_EXPR_ERROR, WS_EXPR_ERROR_TOO_DEEP));
      return;
    }
  FUZZ_CHECK (ws_expr_equal (e, again));
}

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  fuzz_init_glib ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *text = g_strndup ((const char *) data, size);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsExpr) e = NULL;
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  g_autofree char *printed = NULL;
  g_autofree char *cuda = NULL;
  WsEvalEnv env = { .lookup = lookup };
  guint column = 0;
  gint64 value;

  e = ws_expr_parse (text, &column, &error);
  if (e == NULL)
    {
      fuzz_check_error (error);
      FUZZ_CHECK (column >= 1 && column <= strlen (text) + 1);
      return 0;
    }
  FUZZ_CHECK (error == NULL);
  FUZZ_CHECK (ws_expr_get_depth (e) >= 1 && ws_expr_get_depth (e) <= WS_EXPR_MAX_DEPTH);

  printed = ws_expr_to_string (e);
  cuda = ws_expr_to_cuda (e);
  check_reads_back (e, printed);
  check_reads_back (e, cuda);

  for (guint b = 0; b < WS_N_BUILTINS; b++)
    env.builtins[b] = size > 0 ? data[b % size] * (gint64) (b + 1) : 0;
  if (!ws_expr_eval (e, &env, &value, &error))
    fuzz_check_error (error);

  ws_expr_collect_names (e, names);
  for (guint i = 0; i < names->len; i++)
    FUZZ_CHECK (ws_name_is_valid (g_ptr_array_index (names, i), NULL));
  return 0;
}
