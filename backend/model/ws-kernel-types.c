/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Types of the kernel language: C's scalars as nvcc has them on a 64-bit
 * host (long is 64 bits, plain char is signed), CUDA's vector types with
 * their alignments (vector_types.h), pointers, arrays and structs; C's
 * promotions and usual arithmetic conversions; and the table of built-in
 * functions. */
#include "ws-config.h"
#include "ws-kernel-private.h"

#include <string.h>

#define SCALAR(k, s, n) [k] = { .kind = k, .size = s, .align = s, .name = n }

const WkType wk_scalar_types[WK_N_SCALARS] = {
  [WK_TY_VOID] = { .kind = WK_TY_VOID, .size = 0, .align = 1, .name = "void" },
  SCALAR (WK_TY_BOOL, 1, "bool"),
  SCALAR (WK_TY_CHAR, 1, "char"),
  SCALAR (WK_TY_SCHAR, 1, "signed char"),
  SCALAR (WK_TY_UCHAR, 1, "unsigned char"),
  SCALAR (WK_TY_SHORT, 2, "short"),
  SCALAR (WK_TY_USHORT, 2, "unsigned short"),
  SCALAR (WK_TY_INT, 4, "int"),
  SCALAR (WK_TY_UINT, 4, "unsigned int"),
  SCALAR (WK_TY_LONG, 8, "long"),
  SCALAR (WK_TY_ULONG, 8, "unsigned long"),
  SCALAR (WK_TY_LLONG, 8, "long long"),
  SCALAR (WK_TY_ULLONG, 8, "unsigned long long"),
  SCALAR (WK_TY_FLOAT, 4, "float"),
  SCALAR (WK_TY_DOUBLE, 8, "double"),
};

const char *
wk_scalar_name (WkTypeKind k)
{
  g_return_val_if_fail (k < WK_N_SCALARS, "?");
  return wk_scalar_types[k].name;
}

/* ------------------------------------------------------------------ */
/* Vector types                                                       */
/* ------------------------------------------------------------------ */

static const struct
{
  const char *prefix;
  WkTypeKind comp;
  guint align[5];               /* by component count */
} vector_families[] = {
  { "char", WK_TY_SCHAR, { 0, 1, 2, 1, 4 } },
  { "uchar", WK_TY_UCHAR, { 0, 1, 2, 1, 4 } },
  { "short", WK_TY_SHORT, { 0, 2, 4, 2, 8 } },
  { "ushort", WK_TY_USHORT, { 0, 2, 4, 2, 8 } },
  { "int", WK_TY_INT, { 0, 4, 8, 4, 16 } },
  { "uint", WK_TY_UINT, { 0, 4, 8, 4, 16 } },
  { "long", WK_TY_LONG, { 0, 8, 16, 8, 16 } },
  { "ulong", WK_TY_ULONG, { 0, 8, 16, 8, 16 } },
  { "longlong", WK_TY_LLONG, { 0, 8, 16, 8, 16 } },
  { "ulonglong", WK_TY_ULLONG, { 0, 8, 16, 8, 16 } },
  { "float", WK_TY_FLOAT, { 0, 4, 8, 4, 16 } },
  { "double", WK_TY_DOUBLE, { 0, 8, 16, 8, 16 } },
};

#define N_FAMILIES G_N_ELEMENTS (vector_families)

static WkType vector_types[N_FAMILIES][5];
static char vector_names[N_FAMILIES][5][16];
static WkType dim3_type;

static void
init_vectors (void)
{
  static gsize done = 0;

  if (!g_once_init_enter (&done))
    return;
  for (guint f = 0; f < N_FAMILIES; f++)
    for (guint n = 1; n <= 4; n++)
      {
        WkType *t = &vector_types[f][n];
        const WkType *c = WK_TYPE (vector_families[f].comp);

        g_snprintf (vector_names[f][n], sizeof vector_names[f][n], "%s%u", vector_families[f].prefix, n);
        t->kind = WK_TY_VECTOR;
        t->elem = c;
        t->n = n;
        t->size = c->size * n;
        t->align = vector_families[f].align[n];
        t->name = vector_names[f][n];
      }
  dim3_type = vector_types[5][3];
  dim3_type.name = "dim3";
  g_once_init_leave (&done, 1);
}

const WkType *
wk_type_vector (WkTypeKind component,
                guint      n)
{
  init_vectors ();
  if (n < 1 || n > 4)
    return NULL;
  for (guint f = 0; f < N_FAMILIES; f++)
    if (vector_families[f].comp == component ||
        (component == WK_TY_CHAR && vector_families[f].comp == WK_TY_SCHAR))
      return &vector_types[f][n];
  return NULL;
}

const WkType *
wk_type_vector_by_name (const char *name,
                        gsize       len)
{
  init_vectors ();
  if (len == 4 && strncmp (name, "dim3", 4) == 0)
    return &dim3_type;
  for (guint f = 0; f < N_FAMILIES; f++)
    for (guint n = 1; n <= 4; n++)
      if (strlen (vector_names[f][n]) == len && strncmp (vector_names[f][n], name, len) == 0)
        return &vector_types[f][n];
  return NULL;
}

/* ------------------------------------------------------------------ */
/* Derived types                                                      */
/* ------------------------------------------------------------------ */

const WkType *
wk_type_pointer (WkArena      *arena,
                 const WkType *pointee,
                 guint8        quals)
{
  WkType *t = WK_NEW (arena, WkType);

  memset (t, 0, sizeof *t);
  t->kind = WK_TY_POINTER;
  t->size = 8;
  t->align = 8;
  t->elem = pointee;
  t->quals = quals;
  return t;
}

const WkType *
wk_type_array (WkArena      *arena,
               const WkType *elem,
               guint64       n)
{
  WkType *t = WK_NEW (arena, WkType);

  memset (t, 0, sizeof *t);
  t->kind = WK_TY_ARRAY;
  t->elem = elem;
  t->n = n;
  t->align = elem->align;
  /* a size that would not fit is refused by the checker; keep it finite */
  t->size = n <= G_MAXUINT / MAX (elem->size, 1) ? (guint) (n * elem->size) : G_MAXUINT;
  return t;
}

const WkType *
wk_type_qualified (WkArena      *arena,
                   const WkType *type,
                   guint8        quals)
{
  WkType *t;

  if (type == NULL || (type->quals | quals) == type->quals)
    return type;
  if (type->kind == WK_TY_ARRAY)
    {
      /* qualifiers of an array are its elements' */
      const WkType *elem = wk_type_qualified (arena, type->elem, quals);
      WkType *a = (WkType *) wk_type_array (arena, elem, type->n);
      a->n_expr = type->n_expr;
      return a;
    }
  t = WK_NEW (arena, WkType);
  *t = *type;
  t->quals |= quals;
  return t;
}

const WkType *
wk_type_unqualified (WkArena      *arena,
                     const WkType *type)
{
  WkType *t;

  if (type == NULL || type->quals == 0)
    return type;
  if (type->kind < WK_N_SCALARS)
    return WK_TYPE (type->kind);
  if (type->kind == WK_TY_VECTOR)
    {
      if (strcmp (type->name, "dim3") == 0)
        return wk_type_vector_by_name ("dim3", 4);
      return wk_type_vector (type->elem->kind, (guint) type->n);
    }
  t = WK_NEW (arena, WkType);
  *t = *type;
  t->quals = 0;
  return t;
}

gboolean
wk_type_is_scalar (const WkType *t)
{
  return t != NULL && ((t->kind > WK_TY_VOID && t->kind < WK_N_SCALARS) || t->kind == WK_TY_POINTER);
}

gboolean
wk_type_is_integer (const WkType *t)
{
  return t != NULL && t->kind >= WK_TY_BOOL && t->kind <= WK_TY_ULLONG;
}

gboolean
wk_type_is_float (const WkType *t)
{
  return t != NULL && (t->kind == WK_TY_FLOAT || t->kind == WK_TY_DOUBLE);
}

gboolean
wk_type_is_arith (const WkType *t)
{
  return wk_type_is_integer (t) || wk_type_is_float (t);
}

gboolean
wk_type_is_signed (const WkType *t)
{
  if (t == NULL)
    return FALSE;
  switch (t->kind)
    {
    case WK_TY_CHAR: case WK_TY_SCHAR: case WK_TY_SHORT: case WK_TY_INT: case WK_TY_LONG: case WK_TY_LLONG:
    case WK_TY_FLOAT: case WK_TY_DOUBLE:
      return TRUE;
    default:
      return FALSE;
    }
}

gboolean
wk_type_is_aggregate (const WkType *t)
{
  return t != NULL && (t->kind == WK_TY_VECTOR || t->kind == WK_TY_STRUCT);
}

gboolean
wk_type_equal (const WkType *a,
               const WkType *b,
               gboolean      with_quals)
{
  if (a == b)
    return TRUE;
  if (a == NULL || b == NULL || a->kind != b->kind)
    return FALSE;
  if (with_quals && a->quals != b->quals)
    return FALSE;
  switch (a->kind)
    {
    case WK_TY_VECTOR:
      return a->elem->kind == b->elem->kind && a->n == b->n && strcmp (a->name, b->name) == 0;
    case WK_TY_STRUCT:
      return a->st == b->st || (a->st && b->st && g_strcmp0 (a->st->name, b->st->name) == 0 &&
                                a->st->size == b->st->size);
    case WK_TY_POINTER:
      return wk_type_equal (a->elem, b->elem, TRUE);
    case WK_TY_ARRAY:
      return a->n == b->n && wk_type_equal (a->elem, b->elem, with_quals);
    default:
      return TRUE;
    }
}

WkArith
wk_type_arith (const WkType *t)
{
  switch (t->kind)
    {
    case WK_TY_UINT: return WK_AC_U32;
    case WK_TY_LONG: case WK_TY_LLONG: case WK_TY_POINTER: return WK_AC_I64;
    case WK_TY_ULONG: case WK_TY_ULLONG: return WK_AC_U64;
    case WK_TY_FLOAT: return WK_AC_F32;
    case WK_TY_DOUBLE: return WK_AC_F64;
    default: return WK_AC_I32;
    }
}

WkStorage
wk_type_storage (const WkType *t)
{
  switch (t->kind)
    {
    case WK_TY_BOOL: return WK_SC_BOOL;
    case WK_TY_CHAR: case WK_TY_SCHAR: return WK_SC_I8;
    case WK_TY_UCHAR: return WK_SC_U8;
    case WK_TY_SHORT: return WK_SC_I16;
    case WK_TY_USHORT: return WK_SC_U16;
    case WK_TY_UINT: return WK_SC_U32;
    case WK_TY_LONG: case WK_TY_LLONG: case WK_TY_POINTER: return WK_SC_I64;
    case WK_TY_ULONG: case WK_TY_ULLONG: return WK_SC_U64;
    case WK_TY_FLOAT: return WK_SC_F32;
    case WK_TY_DOUBLE: return WK_SC_F64;
    default: return WK_SC_I32;
    }
}

const WkType *
wk_type_promote (const WkType *t)
{
  switch (t->kind)
    {
    case WK_TY_BOOL: case WK_TY_CHAR: case WK_TY_SCHAR: case WK_TY_UCHAR: case WK_TY_SHORT: case WK_TY_USHORT:
      return WK_TYPE (WK_TY_INT);
    default:
      return t->quals ? WK_TYPE (t->kind) : t;
    }
}

static int
rank (WkTypeKind k)
{
  switch (k)
    {
    case WK_TY_INT: case WK_TY_UINT: return 1;
    case WK_TY_LONG: case WK_TY_ULONG: return 2;
    default: return 3;
    }
}

static WkTypeKind
to_unsigned (WkTypeKind k)
{
  switch (k)
    {
    case WK_TY_INT: return WK_TY_UINT;
    case WK_TY_LONG: return WK_TY_ULONG;
    case WK_TY_LLONG: return WK_TY_ULLONG;
    default: return k;
    }
}

const WkType *
wk_type_common (const WkType *a,
                const WkType *b)
{
  WkTypeKind ka, kb;

  if (a->kind == WK_TY_DOUBLE || b->kind == WK_TY_DOUBLE)
    return WK_TYPE (WK_TY_DOUBLE);
  if (a->kind == WK_TY_FLOAT || b->kind == WK_TY_FLOAT)
    return WK_TYPE (WK_TY_FLOAT);
  ka = wk_type_promote (a)->kind;
  kb = wk_type_promote (b)->kind;
  if (ka == kb)
    return WK_TYPE (ka);
  if (wk_type_is_signed (WK_TYPE (ka)) == wk_type_is_signed (WK_TYPE (kb)))
    return WK_TYPE (rank (ka) >= rank (kb) ? ka : kb);
  {
    WkTypeKind s = wk_type_is_signed (WK_TYPE (ka)) ? ka : kb;
    WkTypeKind u = s == ka ? kb : ka;

    if (rank (u) >= rank (s))
      return WK_TYPE (u);
    if (WK_TYPE (s)->size > WK_TYPE (u)->size)
      return WK_TYPE (s);
    return WK_TYPE (to_unsigned (s));
  }
}

static guint
leaves_rec (const WkType *t,
            guint         base,
            WkLeaf       *out,
            guint         n,
            guint         max)
{
  switch (t->kind)
    {
    case WK_TY_VECTOR:
      for (guint i = 0; i < t->n; i++)
        n = leaves_rec (t->elem, base + i * t->elem->size, out, n, max);
      return n;
    case WK_TY_STRUCT:
      for (guint i = 0; i < t->st->n_fields; i++)
        n = leaves_rec (t->st->fields[i].type, base + t->st->fields[i].offset, out, n, max);
      return n;
    case WK_TY_ARRAY:
      for (guint64 i = 0; i < t->n && n < max; i++)
        n = leaves_rec (t->elem, base + (guint) i * t->elem->size, out, n, max);
      return n;
    default:
      if (out != NULL && n < max)
        {
          out[n].kind = t->kind;
          out[n].offset = base;
        }
      return n + 1;
    }
}

guint
wk_type_n_leaves (const WkType *t)
{
  return leaves_rec (t, 0, NULL, 0, G_MAXUINT);
}

guint
wk_type_leaves (const WkType *t,
                WkLeaf       *out,
                guint         max)
{
  return MIN (leaves_rec (t, 0, out, 0, max), max);
}

gboolean
wk_struct_layout (WkStruct *st)
{
  guint offset = 0;
  guint align = 1;

  for (guint i = 0; i < st->n_fields; i++)
    {
      const WkType *ft = st->fields[i].type;
      guint a = MAX (ft->align, 1);

      offset = (offset + a - 1) / a * a;
      st->fields[i].offset = offset;
      if (ft->size > (1u << 20) || offset > (1u << 20))
        return FALSE;
      offset += ft->size;
      align = MAX (align, a);
    }
  if (st->explicit_align > align)
    align = st->explicit_align;
  st->align = align;
  st->size = MAX ((offset + align - 1) / align * align, 1);
  if (st->n_fields == 0)
    st->size = 1;
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Printing                                                           */
/* ------------------------------------------------------------------ */

static void
print_base (GString      *out,
            const WkType *t)
{
  if (t->quals & WK_Q_CONST)
    g_string_append (out, "const ");
  if (t->quals & WK_Q_VOLATILE)
    g_string_append (out, "volatile ");
  if (t->kind == WK_TY_STRUCT)
    g_string_append (out, t->st->name);
  else if (t->kind == WK_TY_VECTOR)
    g_string_append (out, t->name);
  else if (t->kind < WK_N_SCALARS && t->name != NULL)
    g_string_append (out, t->name);    /* a template's T, not given yet */
  else if (t->kind < WK_N_SCALARS)
    g_string_append (out, wk_scalar_types[t->kind].name);
  else
    g_string_append (out, "?");
}

void
wk_type_print_decl (GString      *out,
                    const WkType *t,
                    const char   *name)
{
  const WkType *dims[WK_MAX_ARRAY_DIMS + 4];
  guint n_dims = 0;

  while (t->kind == WK_TY_ARRAY && n_dims < G_N_ELEMENTS (dims))
    {
      dims[n_dims++] = t;
      t = t->elem;
    }
  if (t->kind == WK_TY_POINTER)
    {
      GString *inner = g_string_new (NULL);

      g_string_append (inner, "*");
      if (t->quals & WK_Q_CONST)
        g_string_append (inner, "const ");
      if (t->quals & WK_Q_VOLATILE)
        g_string_append (inner, "volatile ");
      if (t->quals & WK_Q_RESTRICT)
        g_string_append (inner, "__restrict__ ");
      if (name != NULL)
        g_string_append (inner, name);
      else if (inner->len > 0 && inner->str[inner->len - 1] == ' ')
        g_string_truncate (inner, inner->len - 1);
      if (t->elem->kind == WK_TY_POINTER)
        {
          wk_type_print_decl (out, t->elem, inner->str);
        }
      else
        {
          print_base (out, t->elem);
          g_string_append_c (out, ' ');
          g_string_append (out, inner->str);
        }
      g_string_free (inner, TRUE);
    }
  else
    {
      print_base (out, t);
      if (name != NULL)
        {
          g_string_append_c (out, ' ');
          g_string_append (out, name);
        }
    }
  for (guint i = 0; i < n_dims; i++)
    {
      if (dims[i]->n == 0 && dims[i]->n_expr == NULL)
        g_string_append (out, "[]");
      else
        g_string_append_printf (out, "[%" G_GUINT64_FORMAT "]", dims[i]->n);
    }
}

char *
wk_type_to_string (const WkType *t)
{
  GString *s = g_string_new (NULL);

  if (t == NULL)
    g_string_append (s, "?");
  else
    wk_type_print_decl (s, t, NULL);
  return g_string_free (s, FALSE);
}

/* ------------------------------------------------------------------ */
/* Built-in functions                                                 */
/* ------------------------------------------------------------------ */

#define F WK_TY_FLOAT
#define D WK_TY_DOUBLE

static const WkBuiltinInfo builtins[] = {
  { "__syncthreads", WK_BF_SYNCTHREADS, -1, -1 },
  { "__syncwarp", WK_BF_SYNCWARP, -1, -1 },
  { "__threadfence_block", WK_BF_THREADFENCE_BLOCK, -1, -1 },
  { "__threadfence", WK_BF_THREADFENCE, -1, -1 },
  { "__threadfence_system", WK_BF_THREADFENCE_SYSTEM, -1, -1 },
  { "atomicAdd", WK_BF_ATOMIC_ADD, -1, -1 },
  { "atomicSub", WK_BF_ATOMIC_SUB, -1, -1 },
  { "atomicMin", WK_BF_ATOMIC_MIN, -1, -1 },
  { "atomicMax", WK_BF_ATOMIC_MAX, -1, -1 },
  { "atomicExch", WK_BF_ATOMIC_EXCH, -1, -1 },
  { "atomicCAS", WK_BF_ATOMIC_CAS, -1, -1 },
  { "atomicAnd", WK_BF_ATOMIC_AND, -1, -1 },
  { "atomicOr", WK_BF_ATOMIC_OR, -1, -1 },
  { "atomicXor", WK_BF_ATOMIC_XOR, -1, -1 },
  { "atomicInc", WK_BF_ATOMIC_INC, -1, -1 },
  { "atomicDec", WK_BF_ATOMIC_DEC, -1, -1 },
  { "__ldg", WK_BF_LDG, -1, -1 },
  { "__shfl_sync", WK_BF_SHFL, -1, -1 },
  { "__shfl_up_sync", WK_BF_SHFL_UP, -1, -1 },
  { "__shfl_down_sync", WK_BF_SHFL_DOWN, -1, -1 },
  { "__shfl_xor_sync", WK_BF_SHFL_XOR, -1, -1 },
  { "__ballot_sync", WK_BF_BALLOT, -1, -1 },
  { "__any_sync", WK_BF_ANY, -1, -1 },
  { "__all_sync", WK_BF_ALL, -1, -1 },
  { "__activemask", WK_BF_ACTIVEMASK, -1, -1 },
  { "__popc", WK_BF_POPC, -1, -1 },
  { "__popcll", WK_BF_POPCLL, -1, -1 },
  { "__clz", WK_BF_CLZ, -1, -1 },
  { "__clzll", WK_BF_CLZLL, -1, -1 },
  { "__ffs", WK_BF_FFS, -1, -1 },
  { "__ffsll", WK_BF_FFSLL, -1, -1 },
  { "__brev", WK_BF_BREV, -1, -1 },
  { "min", WK_BF_MIN, -1, -1 },
  { "max", WK_BF_MAX, -1, -1 },
  { "umin", WK_BF_MIN, WK_TY_UINT, -1 },
  { "umax", WK_BF_MAX, WK_TY_UINT, -1 },
  { "llmin", WK_BF_MIN, WK_TY_LLONG, -1 },
  { "llmax", WK_BF_MAX, WK_TY_LLONG, -1 },
  { "fminf", WK_BF_MIN, F, -1 },
  { "fmaxf", WK_BF_MAX, F, -1 },
  { "fmin", WK_BF_MIN, D, -1 },
  { "fmax", WK_BF_MAX, D, -1 },
  { "abs", WK_BF_ABS, -1, -1 },
  { "labs", WK_BF_ABS, WK_TY_LONG, -1 },
  { "llabs", WK_BF_ABS, WK_TY_LLONG, -1 },
  { "fabsf", WK_BF_ABS, F, -1 },
  { "fabs", WK_BF_ABS, D, -1 },
  { "sqrtf", WK_BF_MATH1, WK_M_SQRT, F },
  { "sqrt", WK_BF_MATH1, WK_M_SQRT, D },
  { "__fsqrt_rn", WK_BF_MATH1, WK_M_SQRT, F },
  { "rsqrtf", WK_BF_MATH1, WK_M_RSQRT, F },
  { "rsqrt", WK_BF_MATH1, WK_M_RSQRT, D },
  { "expf", WK_BF_MATH1, WK_M_EXP, F },
  { "__expf", WK_BF_MATH1, WK_M_EXP, F },
  { "exp", WK_BF_MATH1, WK_M_EXP, D },
  { "exp2f", WK_BF_MATH1, WK_M_EXP2, F },
  { "exp2", WK_BF_MATH1, WK_M_EXP2, D },
  { "exp10f", WK_BF_MATH1, WK_M_EXP10, F },
  { "__exp10f", WK_BF_MATH1, WK_M_EXP10, F },
  { "logf", WK_BF_MATH1, WK_M_LOG, F },
  { "__logf", WK_BF_MATH1, WK_M_LOG, F },
  { "log", WK_BF_MATH1, WK_M_LOG, D },
  { "log2f", WK_BF_MATH1, WK_M_LOG2, F },
  { "__log2f", WK_BF_MATH1, WK_M_LOG2, F },
  { "log2", WK_BF_MATH1, WK_M_LOG2, D },
  { "log10f", WK_BF_MATH1, WK_M_LOG10, F },
  { "__log10f", WK_BF_MATH1, WK_M_LOG10, F },
  { "log10", WK_BF_MATH1, WK_M_LOG10, D },
  { "sinf", WK_BF_MATH1, WK_M_SIN, F },
  { "__sinf", WK_BF_MATH1, WK_M_SIN, F },
  { "sin", WK_BF_MATH1, WK_M_SIN, D },
  { "cosf", WK_BF_MATH1, WK_M_COS, F },
  { "__cosf", WK_BF_MATH1, WK_M_COS, F },
  { "cos", WK_BF_MATH1, WK_M_COS, D },
  { "tanf", WK_BF_MATH1, WK_M_TAN, F },
  { "__tanf", WK_BF_MATH1, WK_M_TAN, F },
  { "tan", WK_BF_MATH1, WK_M_TAN, D },
  { "tanhf", WK_BF_MATH1, WK_M_TANH, F },
  { "tanh", WK_BF_MATH1, WK_M_TANH, D },
  { "asinf", WK_BF_MATH1, WK_M_ASIN, F },
  { "asin", WK_BF_MATH1, WK_M_ASIN, D },
  { "acosf", WK_BF_MATH1, WK_M_ACOS, F },
  { "acos", WK_BF_MATH1, WK_M_ACOS, D },
  { "atanf", WK_BF_MATH1, WK_M_ATAN, F },
  { "atan", WK_BF_MATH1, WK_M_ATAN, D },
  { "floorf", WK_BF_MATH1, WK_M_FLOOR, F },
  { "floor", WK_BF_MATH1, WK_M_FLOOR, D },
  { "ceilf", WK_BF_MATH1, WK_M_CEIL, F },
  { "ceil", WK_BF_MATH1, WK_M_CEIL, D },
  { "roundf", WK_BF_MATH1, WK_M_ROUND, F },
  { "round", WK_BF_MATH1, WK_M_ROUND, D },
  { "truncf", WK_BF_MATH1, WK_M_TRUNC, F },
  { "trunc", WK_BF_MATH1, WK_M_TRUNC, D },
  { "rintf", WK_BF_MATH1, WK_M_RINT, F },
  { "rint", WK_BF_MATH1, WK_M_RINT, D },
  { "nearbyintf", WK_BF_MATH1, WK_M_RINT, F },
  { "cbrtf", WK_BF_MATH1, WK_M_CBRT, F },
  { "cbrt", WK_BF_MATH1, WK_M_CBRT, D },
  { "__frcp_rn", WK_BF_MATH1, WK_M_RCP, F },
  { "__saturatef", WK_BF_MATH1, WK_M_SATURATE, F },
  { "powf", WK_BF_MATH2, WK_M_POW, F },
  { "__powf", WK_BF_MATH2, WK_M_POW, F },
  { "pow", WK_BF_MATH2, WK_M_POW, D },
  { "fmodf", WK_BF_MATH2, WK_M_FMOD, F },
  { "fmod", WK_BF_MATH2, WK_M_FMOD, D },
  { "atan2f", WK_BF_MATH2, WK_M_ATAN2, F },
  { "atan2", WK_BF_MATH2, WK_M_ATAN2, D },
  { "__fdividef", WK_BF_MATH2, WK_M_DIV, F },
  { "fdividef", WK_BF_MATH2, WK_M_DIV, F },
  { "__fdiv_rn", WK_BF_MATH2, WK_M_DIV, F },
  { "copysignf", WK_BF_MATH2, WK_M_COPYSIGN, F },
  { "copysign", WK_BF_MATH2, WK_M_COPYSIGN, D },
  { "hypotf", WK_BF_MATH2, WK_M_HYPOT, F },
  { "hypot", WK_BF_MATH2, WK_M_HYPOT, D },
  { "fdimf", WK_BF_MATH2, WK_M_FDIM, F },
  { "fdim", WK_BF_MATH2, WK_M_FDIM, D },
  { "fmaf", WK_BF_FMA, -1, F },
  { "__fmaf_rn", WK_BF_FMA, -1, F },
  { "fma", WK_BF_FMA, -1, D },
  { "__fma_rn", WK_BF_FMA, -1, D },
  { "__float2int_rn", WK_BF_FLOAT2INT, WK_ROUND_NEAREST, WK_TY_INT },
  { "__float2int_rz", WK_BF_FLOAT2INT, WK_ROUND_ZERO, WK_TY_INT },
  { "__float2int_rd", WK_BF_FLOAT2INT, WK_ROUND_DOWN, WK_TY_INT },
  { "__float2int_ru", WK_BF_FLOAT2INT, WK_ROUND_UP, WK_TY_INT },
  { "__float2uint_rn", WK_BF_FLOAT2INT, WK_ROUND_NEAREST, WK_TY_UINT },
  { "__float2uint_rz", WK_BF_FLOAT2INT, WK_ROUND_ZERO, WK_TY_UINT },
  { "__float2ll_rn", WK_BF_FLOAT2INT, WK_ROUND_NEAREST, WK_TY_LLONG },
  { "__float2ll_rz", WK_BF_FLOAT2INT, WK_ROUND_ZERO, WK_TY_LLONG },
  { "__double2int_rn", WK_BF_FLOAT2INT, WK_ROUND_NEAREST, WK_TY_INT },
  { "__double2int_rz", WK_BF_FLOAT2INT, WK_ROUND_ZERO, WK_TY_INT },
  { "__double2ll_rn", WK_BF_FLOAT2INT, WK_ROUND_NEAREST, WK_TY_LLONG },
  { "__int2float_rn", WK_BF_FLOAT2INT, WK_ROUND_NEAREST, F },
  { "__uint2float_rn", WK_BF_FLOAT2INT, WK_ROUND_NEAREST, F },
  { "__int2double_rn", WK_BF_FLOAT2INT, WK_ROUND_NEAREST, D },
  { "__double2float_rn", WK_BF_FLOAT2INT, WK_ROUND_NEAREST, F },
  { "__float_as_int", WK_BF_AS_BITS, WK_TY_INT, F },
  { "__float_as_uint", WK_BF_AS_BITS, WK_TY_UINT, F },
  { "__int_as_float", WK_BF_AS_BITS, F, WK_TY_INT },
  { "__uint_as_float", WK_BF_AS_BITS, F, WK_TY_UINT },
  { "__double_as_longlong", WK_BF_AS_BITS, WK_TY_LLONG, D },
  { "__longlong_as_double", WK_BF_AS_BITS, D, WK_TY_LLONG },
  { "__mul24", WK_BF_MUL24, -1, -1 },
  { "__umul24", WK_BF_UMUL24, -1, -1 },
  { "__mulhi", WK_BF_MULHI, -1, -1 },
  { "__umulhi", WK_BF_UMULHI, -1, -1 },
  { "printf", WK_BF_PRINTF, -1, -1 },
  { "clock", WK_BF_CLOCK, -1, -1 },
  { "clock64", WK_BF_CLOCK, -1, -1 },
  { "random", WK_BF_RANDOM, -1, -1 },
};

#undef F
#undef D

const WkBuiltinInfo *
wk_builtin_lookup (const char *name,
                   gsize       len)
{
  static GHashTable *table;
  static gsize done = 0;
  char key[WK_MAX_NAME + 1];

  if (g_once_init_enter (&done))
    {
      table = g_hash_table_new (g_str_hash, g_str_equal);
      for (guint i = 0; i < G_N_ELEMENTS (builtins); i++)
        g_hash_table_insert (table, (gpointer) builtins[i].name, (gpointer) &builtins[i]);
      g_once_init_leave (&done, 1);
    }
  if (len > WK_MAX_NAME)
    return NULL;
  memcpy (key, name, len);
  key[len] = '\0';
  if (g_str_has_prefix (key, "make_"))
    {
      static const WkBuiltinInfo make = { "make_", WK_BF_MAKE_VECTOR, -1, -1 };
      if (wk_type_vector_by_name (key + 5, len - 5) != NULL && strcmp (key + 5, "dim3") != 0)
        return &make;
      return NULL;
    }
  return g_hash_table_lookup (table, key);
}
