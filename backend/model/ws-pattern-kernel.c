/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A pattern written out as a kernel text of the kernel language: what the
 * pattern's fields and index expressions say, as a user would write it in
 * CUDA, to open in the editor and change there. Every thread of the launch
 * makes the pattern's accesses once, in order; loads add into a value that
 * stores write and that a store no lane makes keeps alive (nvcc drops loads
 * whose values nothing uses). Names are the pattern's own: its parameters
 * are the kernel's scalar parameters (their values in the launch comment),
 * its definitions 64-bit locals, its global arrays pointer parameters. */
#include "ws-config.h"
#include "ws-pattern-kernel.h"

#include <string.h>

/* Names: the pattern's, except where the kernel text needs them for
 * something else (an array and a parameter of one name; a parameter named
 * as a key of the launch comment), and the text's own (sum, sink), which
 * give way to the pattern's. */
typedef struct
{
  GHashTable *taken;      /* every name in the text */
  GHashTable *renames;    /* a pattern's name → the text's */
  char *sum;
  char *sink;
  char *kernel;
} Names;

static const char *launch_keys[] = { "kernel", "grid", "block", "shared", "steps" };

static char *
fresh (Names      *n,
       const char *base)
{
  char *name = g_strdup (base);

  while (g_hash_table_contains (n->taken, name))
    {
      char *longer = g_strconcat (name, "_", NULL);
      g_free (name);
      name = longer;
    }
  g_hash_table_add (n->taken, g_strdup (name));
  return name;
}

static const char *
renamed (Names      *n,
         const char *name)
{
  const char *r = g_hash_table_lookup (n->renames, name);
  return r ? r : name;
}

/* An expression of the pattern, its names as the text has them. */
static char *
expr_text (Names        *n,
           const WsExpr *e)
{
  g_autofree char *text = ws_expr_to_kernel_text (e);
  GHashTableIter it;
  gpointer from, to;

  g_hash_table_iter_init (&it, n->renames);
  while (g_hash_table_iter_next (&it, &from, &to))
    {
      g_autofree char *re = g_strdup_printf ("(?<![A-Za-z0-9_.])%s(?![A-Za-z0-9_])", (const char *) from);
      g_autoptr (GRegex) r = g_regex_new (re, 0, 0, NULL);
      char *next = g_regex_replace_literal (r, text, -1, 0, to, 0, NULL);

      g_free (text);
      text = next;
    }
  return g_steal_pointer (&text);
}

static const char *
type_of (guint elem_size)
{
  switch (elem_size)
    {
    case 1: return "unsigned char";
    case 2: return "unsigned short";
    case 8: return "unsigned long long";
    case 16: return "uint4";
    case 4:
    default: return "unsigned int";
    }
}

/* An array of the kernel: the pattern's name, and its width where the same
 * name is used with two element sizes (then "in_8" and "in_4"). */
typedef struct
{
  char *name;
  const WsAccess *first;
  WsSpace space;
  guint elem_size;
  gboolean written;
  gint64 elements;      /* shared, constant and private arrays: their length */
} Array;

static void
array_clear (gpointer data)
{
  Array *a = data;

  g_free (a->name);
}

static Array *
find_array (GArray         *arrays,
            const WsAccess *access)
{
  for (guint i = 0; i < arrays->len; i++)
    {
      Array *a = &g_array_index (arrays, Array, i);
      if (strcmp (a->first->array, access->array) == 0 && a->elem_size == access->elem_size &&
          (a->space == access->space || (a->space >= WS_SPACE_LOCAL && access->space >= WS_SPACE_LOCAL)))
        return a;
    }
  return NULL;
}

/* Whether e mentions the name, or (name NULL) the built-in. */
static gboolean
mentions (const WsExpr *e,
          WsBuiltin     builtin,
          const char   *name)
{
  if (e == NULL)
    return FALSE;
  switch (e->kind)
    {
    case WS_EXPR_BUILTIN:
      return name == NULL && e->builtin == builtin;
    case WS_EXPR_NAME:
      return name != NULL && strcmp (e->name, name) == 0;
    case WS_EXPR_UNARY:
    case WS_EXPR_BINARY:
    case WS_EXPR_TERNARY:
    case WS_EXPR_CALL:
      for (guint i = 0; i < e->op.n_args; i++)
        if (mentions (e->op.args[i], builtin, name))
          return TRUE;
      return FALSE;
    case WS_EXPR_INT:
    default:
      return FALSE;
    }
}

/* A parameter that indexes a private array kept in registers is a constant
 * the compiler knows (a template parameter or a #define in the real
 * kernels): with a value known only when running, the array would go to
 * local memory. */
static gboolean
is_compile_time (const WsPattern *pattern,
                 const char      *param)
{
  for (guint i = 0; i < ws_pattern_get_n_accesses (pattern); i++)
    {
      const WsAccess *a = ws_pattern_get_access (pattern, i);
      if (a->space == WS_SPACE_REGISTER && mentions (a->index, 0, param))
        return TRUE;
    }
  return FALSE;
}

static gboolean
pattern_uses (const WsPattern *pattern,
              WsBuiltin        builtin)
{
  if (mentions (ws_pattern_get_guard (pattern), builtin, NULL))
    return TRUE;
  for (guint i = 0; i < ws_pattern_get_n_definitions (pattern); i++)
    if (mentions (ws_pattern_get_definition (pattern, i)->expr, builtin, NULL))
      return TRUE;
  for (guint i = 0; i < ws_pattern_get_n_accesses (pattern); i++)
    if (mentions (ws_pattern_get_access (pattern, i)->index, builtin, NULL))
      return TRUE;
  return FALSE;
}

/* The elements an array of the block or the thread needs: the largest index
 * any thread of the first and the last block reaches, plus one. */
static gint64
block_extent (const WsPattern *pattern,
              const WsAccess  *access)
{
  WsDim3 block = ws_pattern_get_block (pattern), grid = ws_pattern_get_grid (pattern);
  WsDim3 blocks[2] = { { 0, 0, 0 }, { grid.x - 1, grid.y - 1, grid.z - 1 } };
  const WsExpr *guard = ws_pattern_get_guard (pattern);
  gint64 most = access->base / MAX (access->elem_size, 1);

  for (guint b = 0; b < 2; b++)
    for (guint z = 0; z < block.z; z++)
      for (guint y = 0; y < block.y; y++)
        for (guint x = 0; x < block.x; x++)
          {
            WsDim3 t = { x, y, z };
            gint64 v = 0;

            if (guard && (!ws_pattern_eval_thread (pattern, guard, blocks[b], t, &v, NULL) || v == 0))
              continue;
            if (ws_pattern_eval_thread (pattern, access->index, blocks[b], t, &v, NULL))
              most = MAX (most, v + access->base / MAX (access->elem_size, 1));
          }
  return most + 1;
}

static GArray *
collect_arrays (const WsPattern *pattern,
                Names           *names)
{
  GArray *arrays = g_array_new (FALSE, TRUE, sizeof (Array));

  g_array_set_clear_func (arrays, array_clear);
  for (guint i = 0; i < ws_pattern_get_n_accesses (pattern); i++)
    {
      const WsAccess *access = ws_pattern_get_access (pattern, i);
      Array *a = find_array (arrays, access);

      if (a == NULL)
        {
          Array na = { 0 };
          na.first = access;
          na.space = access->space;
          na.elem_size = access->elem_size;
          g_array_append_val (arrays, na);
          a = &g_array_index (arrays, Array, arrays->len - 1);
        }
      a->written |= access->kind != WS_ACCESS_LOAD;
      if (access->space != WS_SPACE_GLOBAL)
        a->elements = MAX (a->elements, block_extent (pattern, access));
    }
  /* a name used with two widths gets its width after it; one a parameter
   * or a definition has too gets "_array" */
  for (guint i = 0; i < arrays->len; i++)
    {
      Array *a = &g_array_index (arrays, Array, i);
      gboolean twice = FALSE;
      g_autofree char *base = NULL;

      for (guint j = 0; j < arrays->len; j++)
        if (j != i && strcmp (g_array_index (arrays, Array, j).first->array, a->first->array) == 0)
          twice = TRUE;
      base = twice ? g_strdup_printf ("%s_%u", a->first->array, a->elem_size) : g_strdup (a->first->array);
      if (g_hash_table_contains (names->taken, base))
        {
          g_autofree char *longer = g_strconcat (base, "_array", NULL);
          a->name = fresh (names, longer);
        }
      else
        a->name = fresh (names, base);
    }
  return arrays;
}

static void
write_launch (GString         *out,
              const WsPattern *pattern,
              Names           *names)
{
  WsDim3 block = ws_pattern_get_block (pattern), grid = ws_pattern_get_grid (pattern);

  g_string_append (out, "/* warpscope:\n");
  g_string_append_printf (out, " *   grid = %u, %u, %u\n", grid.x, grid.y, grid.z);
  g_string_append_printf (out, " *   block = %u, %u, %u\n", block.x, block.y, block.z);
  for (guint i = 0; i < ws_pattern_get_n_params (pattern); i++)
    {
      const WsParam *p = ws_pattern_get_param_nth (pattern, i);
      if (!is_compile_time (pattern, p->name))
        g_string_append_printf (out, " *   %s = %" G_GINT64_FORMAT "\n", renamed (names, p->name), p->value);
    }
  g_string_append (out, " */\n");
}

static void
write_signature (GString         *out,
                 const WsPattern *pattern,
                 GArray          *arrays,
                 Names           *names)
{
  gboolean first = TRUE;

  g_string_append_printf (out, "__global__ void %s(", names->kernel);
  for (guint i = 0; i < arrays->len; i++)
    {
      const Array *a = &g_array_index (arrays, Array, i);
      if (a->space != WS_SPACE_GLOBAL)
        continue;
      g_string_append_printf (out, "%s%s%s *%s", first ? "" : ", ", a->written ? "" : "const ",
                              type_of (a->elem_size), a->name);
      first = FALSE;
    }
  g_string_append_printf (out, "%sunsigned int *%s", first ? "" : ", ", names->sink);
  for (guint i = 0; i < ws_pattern_get_n_params (pattern); i++)
    if (!is_compile_time (pattern, ws_pattern_get_param_nth (pattern, i)->name))
      g_string_append_printf (out, ", long long %s", renamed (names, ws_pattern_get_param_nth (pattern, i)->name));
  g_string_append (out, ")\n{\n");
}

static void
write_access (GString        *out,
              Names          *names,
              const WsAccess *access,
              const Array    *a,
              const char     *indent)
{
  g_autofree char *index = expr_text (names, access->index);
  g_autofree char *at = NULL;
  gint64 base = access->base / MAX (access->elem_size, 1);
  const char *sum = names->sum;

  at = base != 0 ? g_strdup_printf ("%s[%s + %" G_GINT64_FORMAT "]", a->name, index, base)
                 : g_strdup_printf ("%s[%s]", a->name, index);
  switch (access->kind)
    {
    case WS_ACCESS_LOAD:
      if (access->elem_size == 16)
        g_string_append_printf (out, "%s{\n%s  uint4 v = %s;\n%s  %s += v.x + v.y + v.z + v.w;\n%s}\n",
                                indent, indent, at, indent, sum, indent);
      else
        g_string_append_printf (out, "%s%s += %s;\n", indent, sum, at);
      break;
    case WS_ACCESS_STORE:
      if (access->elem_size == 16)
        g_string_append_printf (out, "%s%s = make_uint4(%s, 0, 0, 0);\n", indent, at, sum);
      else
        g_string_append_printf (out, "%s%s = %s;\n", indent, at, sum);
      break;
    case WS_ACCESS_ATOMIC:
    default:
      g_string_append_printf (out, "%satomicAdd(&%s, %s);\n", indent, at, access->elem_size == 8 ? "1ull" : "1u");
      break;
    }
}

static void
names_init (Names           *n,
            const WsPattern *pattern)
{
  n->taken = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  n->renames = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_hash_table_add (n->taken, g_strdup ("lane"));
  g_hash_table_add (n->taken, g_strdup ("warp"));
  g_hash_table_add (n->taken, g_strdup ("v"));
  for (guint i = 0; i < ws_pattern_get_n_definitions (pattern); i++)
    g_hash_table_add (n->taken, g_strdup (ws_pattern_get_definition (pattern, i)->name));
  for (guint i = 0; i < ws_pattern_get_n_params (pattern); i++)
    g_hash_table_add (n->taken, g_strdup (ws_pattern_get_param_nth (pattern, i)->name));
  /* a parameter named as a key of the launch comment ("shared") gets
   * "_value": the comment would read its value as the key's */
  for (guint i = 0; i < ws_pattern_get_n_params (pattern); i++)
    {
      const char *name = ws_pattern_get_param_nth (pattern, i)->name;
      for (guint k = 0; k < G_N_ELEMENTS (launch_keys); k++)
        if (strcmp (name, launch_keys[k]) == 0)
          {
            g_autofree char *longer = g_strconcat (name, "_value", NULL);
            g_hash_table_insert (n->renames, g_strdup (name), fresh (n, longer));
          }
    }
}

static void
names_clear (Names *n)
{
  g_hash_table_unref (n->taken);
  g_hash_table_unref (n->renames);
  g_free (n->sum);
  g_free (n->sink);
  g_free (n->kernel);
}

char *
ws_pattern_to_kernel_text (const WsPattern *pattern,
                           const char      *title)
{
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (GArray) arrays = NULL;
  g_autofree char *thread = NULL;
  const char *indent = "  ";
  guint n = ws_pattern_get_n_accesses (pattern);
  Names names = { 0 };

  g_return_val_if_fail (pattern != NULL, NULL);

  names_init (&names, pattern);
  arrays = collect_arrays (pattern, &names);
  names.sum = fresh (&names, "sum");
  names.sink = fresh (&names, "sink");
  names.kernel = fresh (&names, "pattern");
  thread = fresh (&names, "thread");

  g_string_append_printf (out, "// %s, as a kernel: every thread makes the pattern's accesses once.\n",
                          title && *title ? title : "A pattern");
  g_string_append (out, "// Written out by Warpscope from the pattern; change it as you like.\n");
  write_launch (out, pattern, &names);
  for (guint i = 0; i < ws_pattern_get_n_params (pattern); i++)
    {
      const WsParam *p = ws_pattern_get_param_nth (pattern, i);
      if (is_compile_time (pattern, p->name))
        g_string_append_printf (out, "#define %s %" G_GINT64_FORMAT "\n", renamed (&names, p->name), p->value);
    }
  for (guint i = 0; i < arrays->len; i++)
    {
      const Array *a = &g_array_index (arrays, Array, i);
      if (a->space == WS_SPACE_CONSTANT)
        g_string_append_printf (out, "__constant__ %s %s[%" G_GINT64_FORMAT "];\n", type_of (a->elem_size), a->name,
                                a->elements);
    }
  write_signature (out, pattern, arrays, &names);
  for (guint i = 0; i < arrays->len; i++)
    {
      const Array *a = &g_array_index (arrays, Array, i);
      if (a->space == WS_SPACE_SHARED)
        g_string_append_printf (out, "  __shared__ %s %s[%" G_GINT64_FORMAT "];\n", type_of (a->elem_size), a->name,
                                a->elements);
      else if (a->space == WS_SPACE_LOCAL || a->space == WS_SPACE_REGISTER)
        g_string_append_printf (out, "  %s %s[%" G_GINT64_FORMAT "];\n", type_of (a->elem_size), a->name,
                                a->elements);
    }
  if (pattern_uses (pattern, WS_BUILTIN_LANE) || pattern_uses (pattern, WS_BUILTIN_WARP))
    g_string_append_printf (out, "  long long %s = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);\n",
                            thread);
  if (pattern_uses (pattern, WS_BUILTIN_LANE))
    g_string_append_printf (out, "  long long lane = %s %% 32;\n", thread);
  if (pattern_uses (pattern, WS_BUILTIN_WARP))
    g_string_append_printf (out, "  long long warp = %s / 32;\n", thread);
  for (guint i = 0; i < ws_pattern_get_n_definitions (pattern); i++)
    {
      const WsDefinition *d = ws_pattern_get_definition (pattern, i);
      g_autofree char *e = expr_text (&names, d->expr);
      g_string_append_printf (out, "  long long %s = %s;\n", d->name, e);
    }
  g_string_append_printf (out, "  unsigned int %s = 0;\n", names.sum);
  if (ws_pattern_get_guard (pattern))
    {
      g_autofree char *g = expr_text (&names, ws_pattern_get_guard (pattern));
      g_string_append_printf (out, "  if (%s) {\n", g);
      indent = "    ";
    }
  for (guint i = 0; i < n; i++)
    {
      const WsAccess *access = ws_pattern_get_access (pattern, i);
      write_access (out, &names, access, find_array (arrays, access), indent);
    }
  if (ws_pattern_get_guard (pattern))
    g_string_append (out, "  }\n");
  g_string_append_printf (out, "  // never true: keeps the loads, which nvcc drops where nothing uses their values\n"
                          "  if (%s == 0x9e3779b9u)\n"
                          "    %s[0] = %s;\n"
                          "}\n", names.sum, names.sink, names.sum);
  names_clear (&names);
  return g_string_free (g_steal_pointer (&out), FALSE);
}
