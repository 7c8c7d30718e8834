/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The checker: names and scopes, C's types and conversions, and the rules
 * of the subset. It annotates the tree (every expression gets its type,
 * names their symbols, implicit conversions become nodes of their own) and
 * collects every error it finds, each with where and what. */
#include "ws-config.h"
#include "ws-kernel-private.h"
#include "ws-i18n.h"

#include <glib/gi18n-lib.h>
#include <string.h>

struct _WkScope
{
  WkScope *parent;
  GHashTable *names;            /* name → WkSym * */
};

typedef struct
{
  WsKernelFile *file;
  WkArena *arena;
  WkDiags *diags;
  WkScope *scope;
  WkFunc *func;
  guint loops;                  /* loops around the statement */
  guint switches;
  GHashTable *loose;            /* names of a launch value */
  gboolean loose_mode;
  WkSym *builtins[WK_N_BUILTIN_VARS];
  GHashTable *callees;          /* WkFunc * → GPtrArray of WkFunc * it calls */
} Checker;

static const WkType *check_expr (Checker *c, WkExpr *e);
static gboolean check_stmt (Checker *c, WkStmt *s);
static const WkType *resolve_type (Checker *c, const WkType *t, guint pos);

static void
error (Checker    *c,
       int         code,
       guint       start,
       guint       end,
       const char *format,
       ...) G_GNUC_PRINTF (5, 6);

static void
error (Checker    *c,
       int         code,
       guint       start,
       guint       end,
       const char *format,
       ...)
{
  va_list args;

  va_start (args, format);
  wk_diag_addv (c->diags, WS_KERNEL_SEVERITY_ERROR, code, start, end, format, args);
  va_end (args);
}

static void
warning (Checker    *c,
         guint       start,
         guint       end,
         const char *format,
         ...) G_GNUC_PRINTF (4, 5);

static void
warning (Checker    *c,
         guint       start,
         guint       end,
         const char *format,
         ...)
{
  va_list args;

  va_start (args, format);
  wk_diag_addv (c->diags, WS_KERNEL_SEVERITY_WARNING, 0, start, end, format, args);
  va_end (args);
}

static char *
type_name (const WkType *t)
{
  return wk_type_to_string (t);
}

static char *
expr_text (Checker      *c,
           const WkExpr *e)
{
  g_autofree char *s = wk_text_span (c->diags->text, c->diags->len, e->start, e->end);
  return ws_text_for_message (s);
}

/* ------------------------------------------------------------------ */
/* Scopes                                                             */
/* ------------------------------------------------------------------ */

static void
push_scope (Checker *c)
{
  WkScope *s = g_new0 (WkScope, 1);

  s->parent = c->scope;
  s->names = g_hash_table_new (g_str_hash, g_str_equal);
  c->scope = s;
}

static void
pop_scope (Checker *c)
{
  WkScope *s = c->scope;

  c->scope = s->parent;
  g_hash_table_unref (s->names);
  g_free (s);
}

static WkSym *
lookup (Checker    *c,
        const char *name)
{
  WkSym *sym;

  for (WkScope *s = c->scope; s != NULL; s = s->parent)
    if ((sym = g_hash_table_lookup (s->names, name)) != NULL)
      return sym;
  if (c->loose != NULL && (sym = g_hash_table_lookup (c->loose, name)) != NULL)
    return sym;
  if ((sym = g_hash_table_lookup (c->file->file_scope, name)) != NULL)
    return sym;
  for (guint i = 0; i < WK_N_BUILTIN_VARS; i++)
    if (c->builtins[i] != NULL && strcmp (c->builtins[i]->name, name) == 0)
      return c->builtins[i];
  return NULL;
}

static WkSym *
sym_new (Checker    *c,
         WkSymKind   kind,
         const char *name,
         guint       pos,
         const WkType *type)
{
  WkSym *s = WK_NEW (c->arena, WkSym);

  memset (s, 0, sizeof *s);
  s->kind = kind;
  s->name = name;
  s->pos = pos;
  s->type = type;
  s->param = -1;
  return s;
}

static gboolean
declare (Checker *c,
         WkSym   *sym)
{
  WkSym *old = g_hash_table_lookup (c->scope->names, sym->name);

  if (old != NULL)
    {
      guint line, column;
      wk_position (c->diags->text, c->diags->len, old->pos, &line, &column);
      error (c, WS_KERNEL_ERROR_INVALID, sym->pos, sym->pos + (guint) strlen (sym->name),
             _("“%s” is already declared in this scope, at line %u"), sym->name, line);
      return FALSE;
    }
  g_hash_table_insert (c->scope->names, (gpointer) sym->name, sym);
  return TRUE;
}

static void
make_builtins (Checker *c)
{
  static const char *names[WK_N_BUILTIN_VARS] = { "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize" };

  for (guint i = 0; i < WK_N_BUILTIN_VARS; i++)
    {
      const WkType *t = i == WK_BV_WARP_SIZE ? WK_TYPE (WK_TY_INT) :
                        i < WK_BV_BLOCK_DIM ? wk_type_vector (WK_TY_UINT, 3) : wk_type_vector_by_name ("dim3", 4);
      c->builtins[i] = sym_new (c, WK_SYM_BUILTIN, names[i], 0, t);
      c->builtins[i]->builtin = i;
    }
}

/* ------------------------------------------------------------------ */
/* Types                                                              */
/* ------------------------------------------------------------------ */

static gboolean
const_u64 (Checker  *c,
           WkExpr   *e,
           guint64   max,
           guint64  *out,
           gboolean *dependent)
{
  WkConst v;
  const WkExpr *failed = NULL;
  const WkType *t;
  WkConstStatus st;

  *dependent = FALSE;
  t = check_expr (c, e);
  if (t == NULL)
    return FALSE;
  if (!wk_type_is_integer (t))
    {
      g_autofree char *tn = type_name (t);
      error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("an array length must be an integer, not %s"), tn);
      return FALSE;
    }
  st = wk_const_eval (e, NULL, &v, &failed);
  if (st == WK_CONST_NOT_CONSTANT && failed != NULL && failed->kind == WK_E_NAME && failed->sym != NULL &&
      failed->sym->kind == WK_SYM_TEMPLATE)
    {
      *dependent = TRUE;
      return TRUE;
    }
  if (st == WK_CONST_DIVISION_BY_ZERO)
    {
      error (c, WS_KERNEL_ERROR_INVALID, failed->pos, failed->end, _("division by zero in a constant"));
      return FALSE;
    }
  if (st != WK_CONST_OK)
    {
      g_autofree char *text = expr_text (c, failed ? failed : e);
      error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end,
             _("an array length must be a constant (“%s” is not known before the kernel runs)"), text);
      return FALSE;
    }
  if ((wk_type_is_signed (v.type) && v.v.i <= 0) || v.v.u == 0 || v.v.u > max)
    {
      error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end,
             _("an array length must be from 1 to %" G_GUINT64_FORMAT ", not %lld"), max, (long long) v.v.i);
      return FALSE;
    }
  *out = v.v.u;
  return TRUE;
}

static gboolean
resolve_struct (Checker  *c,
                WkStruct *st,
                guint     pos)
{
  if (st->size != 0)
    return TRUE;
  if (!st->complete)
    {
      error (c, WS_KERNEL_ERROR_INVALID, pos, pos + 1, _("the struct “%s” is declared but never defined"),
             st->name ? st->name : "?");
      return FALSE;
    }
  if (st->name == NULL)
    {
      error (c, WS_KERNEL_ERROR_UNSUPPORTED, st->pos, st->pos + 6,
             _("a struct without a name is not supported: name it, or name it with typedef"));
      return FALSE;
    }
  for (guint i = 0; i < st->n_fields; i++)
    {
      const WkType *ft = resolve_type (c, st->fields[i].type, st->fields[i].pos);
      if (ft == NULL)
        return FALSE;
      if (ft->kind == WK_TY_POINTER)
        {
          error (c, WS_KERNEL_ERROR_UNSUPPORTED, st->fields[i].pos, st->fields[i].pos + 1,
                 _("a struct field that is a pointer is not supported (“%s”)"), st->fields[i].name);
          return FALSE;
        }
      if (ft->kind == WK_TY_VOID || (ft->kind == WK_TY_ARRAY && ft->n == 0))
        {
          error (c, WS_KERNEL_ERROR_INVALID, st->fields[i].pos, st->fields[i].pos + 1,
                 _("the field “%s” has no size"), st->fields[i].name);
          return FALSE;
        }
      if (ft->kind == WK_TY_STRUCT && ft->st == st)
        return FALSE;
      for (guint k = 0; k < i; k++)
        if (strcmp (st->fields[k].name, st->fields[i].name) == 0)
          {
            error (c, WS_KERNEL_ERROR_INVALID, st->fields[i].pos, st->fields[i].pos + 1,
                   _("the struct “%s” has two fields named “%s”"), st->name, st->fields[i].name);
            return FALSE;
          }
      st->fields[i].type = ft;
    }
  if (!wk_struct_layout (st))
    {
      error (c, WS_KERNEL_ERROR_LIMIT, st->pos, st->pos + 6, _("the struct “%s” is larger than 1 MiB"), st->name);
      return FALSE;
    }
  return TRUE;
}

/* A type with its array lengths evaluated (where they do not depend on a
 * template parameter) and its structs laid out. */
static const WkType *
resolve_type (Checker      *c,
              const WkType *t,
              guint         pos)
{
  if (t == NULL)
    return NULL;
  switch (t->kind)
    {
    case WK_TY_STRUCT:
      if (!resolve_struct (c, (WkStruct *) t->st, pos))
        return NULL;
      /* the parser's type of a struct learns its layout here */
      ((WkType *) t)->size = t->st->size;
      ((WkType *) t)->align = t->st->align;
      return t;
    case WK_TY_POINTER:
      {
        const WkType *e = resolve_type (c, t->elem, pos);
        if (e == NULL)
          return NULL;
        if (e == t->elem)
          return t;
        return wk_type_pointer (c->arena, e, t->quals);
      }
    case WK_TY_ARRAY:
      {
        const WkType *e = resolve_type (c, t->elem, pos);
        guint64 n = t->n;
        gboolean dependent = FALSE;
        WkType *a;

        if (e == NULL)
          return NULL;
        if (e->kind == WK_TY_VOID)
          {
            error (c, WS_KERNEL_ERROR_INVALID, pos, pos + 1, _("an array of void has no size"));
            return NULL;
          }
        if (t->n_expr != NULL && t->n == 0)
          {
            if (!const_u64 (c, t->n_expr, G_GUINT64_CONSTANT (1) << 40, &n, &dependent))
              return NULL;
          }
        if (!dependent && e->size != 0 && n > (G_GUINT64_CONSTANT (1) << 31) / e->size)
          {
            error (c, WS_KERNEL_ERROR_LIMIT, pos, pos + 1, _("an array declared in the code may have at most 2 GiB"));
            return NULL;
          }
        a = (WkType *) wk_type_array (c->arena, e, dependent ? 0 : n);
        a->n_expr = dependent ? t->n_expr : NULL;
        if (t->n_expr == NULL && t->n == 0)
          a->n_expr = NULL;
        return a;
      }
    default:
      return t;
    }
}

/* ------------------------------------------------------------------ */
/* Conversions                                                        */
/* ------------------------------------------------------------------ */

static WkExpr *
implicit (Checker      *c,
          WkExpr       *e,
          const WkType *to)
{
  WkExpr *n = WK_NEW (c->arena, WkExpr);

  memset (n, 0, sizeof *n);
  n->kind = WK_E_IMPLICIT;
  n->start = e->start;
  n->end = e->end;
  n->pos = e->pos;
  n->type = to;
  n->a = e;
  n->depth = e->depth + 1;
  return n;
}

/* An array used as a value becomes a pointer to its first element. */
static const WkType *
rvalue (Checker  *c,
        WkExpr  **slot)
{
  WkExpr *e = *slot;

  if (e->type == NULL)
    return NULL;
  if (e->type->kind == WK_TY_ARRAY)
    {
      *slot = implicit (c, e, wk_type_pointer (c->arena, e->type->elem, 0));
      return (*slot)->type;
    }
  return e->type;
}

static gboolean
pointer_convertible (const WkType *from,
                     const WkType *to)
{
  const WkType *fp = from->elem, *tp = to->elem;

  if (!wk_type_equal (fp, tp, FALSE))
    return FALSE;
  /* T * → const T *, never the other way */
  return (fp->quals & ~tp->quals & (WK_Q_CONST | WK_Q_VOLATILE)) == 0;
}

/* Converts *slot to type to (as an assignment does); FALSE and an error
 * where C++ would refuse. */
static gboolean
convert (Checker      *c,
         WkExpr      **slot,
         const WkType *to,
         const char   *what)
{
  const WkType *from = rvalue (c, slot);
  WkExpr *e = *slot;

  if (from == NULL || to == NULL)
    return FALSE;
  if (wk_type_equal (from, to, FALSE))
    {
      if (wk_type_is_arith (to) && from->kind != to->kind)
        *slot = implicit (c, e, to);
      return TRUE;
    }
  if (wk_type_is_arith (from) && wk_type_is_arith (to))
    {
      *slot = implicit (c, e, wk_type_unqualified (c->arena, to));
      return TRUE;
    }
  if (from->kind == WK_TY_POINTER && to->kind == WK_TY_POINTER && pointer_convertible (from, to))
    {
      *slot = implicit (c, e, to);
      return TRUE;
    }
  if (from->kind == WK_TY_VECTOR && to->kind == WK_TY_VECTOR && from->elem->kind == to->elem->kind &&
      from->n == to->n)
    return TRUE;        /* uint3 and dim3 */
  {
    g_autofree char *f = type_name (from);
    g_autofree char *t = type_name (to);
    if (from->kind == WK_TY_POINTER && to->kind == WK_TY_POINTER && wk_type_equal (from->elem, to->elem, FALSE))
      error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end,
             _("%s: a pointer to const (%s) cannot become a pointer to something writable (%s)"), what, f, t);
    else
      /* Translators: the first %s says where ("the initial value of “x”"), then the two types */
      error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("%s: cannot convert %s to %s"), what, f, t);
  }
  return FALSE;
}

static gboolean
need_scalar (Checker *c,
             WkExpr **slot,
             const char *what)
{
  const WkType *t = rvalue (c, slot);

  if (t == NULL)
    return FALSE;
  if (wk_type_is_scalar (t))
    return TRUE;
  {
    g_autofree char *tn = type_name (t);
    error (c, WS_KERNEL_ERROR_INVALID, (*slot)->start, (*slot)->end, _("%s must be a number, not %s"), what, tn);
  }
  return FALSE;
}

static gboolean
need_arith (Checker    *c,
            WkExpr    **slot,
            gboolean    integer,
            const char *op)
{
  const WkType *t = rvalue (c, slot);

  if (t == NULL)
    return FALSE;
  if (integer ? wk_type_is_integer (t) : wk_type_is_arith (t))
    return TRUE;
  {
    g_autofree char *tn = type_name (t);
    if (integer)
      error (c, WS_KERNEL_ERROR_INVALID, (*slot)->start, (*slot)->end,
             _("the operator “%s” needs integers, not %s"), op, tn);
    else
      error (c, WS_KERNEL_ERROR_INVALID, (*slot)->start, (*slot)->end,
             _("the operator “%s” needs numbers, not %s"), op, tn);
  }
  return FALSE;
}

static const char *
op_text (WkOp op)
{
  static const char *names[WK_N_OPS] = {
    [WK_OP_NEG] = "-", [WK_OP_PLUS] = "+", [WK_OP_BITNOT] = "~", [WK_OP_LNOT] = "!", [WK_OP_DEREF] = "*",
    [WK_OP_ADDR] = "&", [WK_OP_PREINC] = "++", [WK_OP_PREDEC] = "--", [WK_OP_POSTINC] = "++",
    [WK_OP_POSTDEC] = "--", [WK_OP_MUL] = "*", [WK_OP_DIV] = "/", [WK_OP_MOD] = "%", [WK_OP_ADD] = "+",
    [WK_OP_SUB] = "-", [WK_OP_SHL] = "<<", [WK_OP_SHR] = ">>", [WK_OP_LT] = "<", [WK_OP_GT] = ">",
    [WK_OP_LE] = "<=", [WK_OP_GE] = ">=", [WK_OP_EQ] = "==", [WK_OP_NE] = "!=", [WK_OP_BITAND] = "&",
    [WK_OP_BITXOR] = "^", [WK_OP_BITOR] = "|", [WK_OP_LAND] = "&&", [WK_OP_LOR] = "||", [WK_OP_COMMA] = ",",
  };
  return op < WK_N_OPS && names[op] ? names[op] : "?";
}

/* The operands of an arithmetic operator, both converted to their common
 * type. */
static const WkType *
common_operands (Checker *c,
                 WkExpr  *e)
{
  const WkType *t = wk_type_common (e->a->type, e->b->type);

  if (!wk_type_equal (e->a->type, t, FALSE))
    e->a = implicit (c, e->a, t);
  if (!wk_type_equal (e->b->type, t, FALSE))
    e->b = implicit (c, e->b, t);
  return t;
}

/* What an lvalue is: where a write would go, for the rules on writes. */
static gboolean
is_lvalue (const WkExpr *e)
{
  return e->lvalue;
}

static gboolean
check_writable (Checker      *c,
                const WkExpr *e,
                const char   *op)
{
  const WkType *t = e->type;

  if (t == NULL)
    return FALSE;
  if (!is_lvalue (e))
    {
      g_autofree char *text = expr_text (c, e);
      error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("“%s” cannot be assigned to (operator “%s”)"), text, op);
      return FALSE;
    }
  if (t->kind == WK_TY_ARRAY)
    {
      g_autofree char *text = expr_text (c, e);
      error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("the array “%s” cannot be assigned to as a whole"), text);
      return FALSE;
    }
  if (t->quals & WK_Q_CONST)
    {
      g_autofree char *text = expr_text (c, e);
      error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("“%s” is const: it cannot be written"), text);
      return FALSE;
    }
  for (const WkExpr *x = e; x != NULL;)
    {
      if (x->kind == WK_E_NAME && x->sym && x->sym->kind == WK_SYM_BUILTIN)
        {
          g_autofree char *text = expr_text (c, e);
          error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("“%s” is a built-in: it cannot be written"), text);
          return FALSE;
        }
      if (x->kind == WK_E_NAME && x->sym && x->sym->storage == WK_STORE_CONSTANT)
        {
          g_autofree char *text = expr_text (c, e);
          error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end,
                 _("“%s” is in constant memory: a kernel cannot write it"), text);
          return FALSE;
        }
      x = (x->kind == WK_E_MEMBER && !x->is_arrow) || x->kind == WK_E_INDEX ? x->a : NULL;
    }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Expressions                                                        */
/* ------------------------------------------------------------------ */

static const WkType *
check_name (Checker *c,
            WkExpr  *e)
{
  WkSym *sym = lookup (c, e->name);

  if (sym == NULL)
    {
      if (g_hash_table_lookup (c->file->macros, e->name) != NULL)
        error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("the macro “%s” is not a value here"), e->name);
      else
        error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("unknown name “%s”"), e->name);
      return NULL;
    }
  if (sym->kind == WK_SYM_FUNC)
    {
      error (c, WS_KERNEL_ERROR_UNSUPPORTED, e->start, e->end,
             _("the function “%s” is used as a value: only calls are supported"), e->name);
      return NULL;
    }
  if (c->loose_mode && (sym->kind == WK_SYM_MEMORY || sym->kind == WK_SYM_VAR))
    {
      error (c, WS_KERNEL_ERROR_LAUNCH, e->start, e->end,
             _("“%s” is not known before the kernel runs: a launch value may use scalar parameters, #define "
               "constants and const values"), e->name);
      return NULL;
    }
  if (sym->kind == WK_SYM_BUILTIN && c->loose_mode && sym->builtin != WK_BV_WARP_SIZE)
    {
      error (c, WS_KERNEL_ERROR_LAUNCH, e->start, e->end, _("“%s” is not known before the kernel runs"), e->name);
      return NULL;
    }
  e->sym = sym;
  e->lvalue = sym->kind == WK_SYM_VAR || sym->kind == WK_SYM_MEMORY;
  if (sym->kind == WK_SYM_MEMORY && c->func != NULL)
    sym->read = TRUE;
  return sym->type;
}

static const WkType *
check_member (Checker *c,
              WkExpr  *e)
{
  const WkType *t = check_expr (c, e->a);

  if (t == NULL)
    return NULL;
  if (e->is_arrow)
    {
      t = rvalue (c, &e->a);
      if (t->kind != WK_TY_POINTER)
        {
          g_autofree char *tn = type_name (t);
          error (c, WS_KERNEL_ERROR_INVALID, e->pos, e->end, _("“->” needs a pointer to a struct, not %s"), tn);
          return NULL;
        }
      t = t->elem;
    }
  if (t->kind == WK_TY_VECTOR)
    {
      static const char comps[] = "xyzw";
      const char *hit;

      if (strlen (e->name) != 1 || (hit = strchr (comps, e->name[0])) == NULL || (guint) (hit - comps) >= t->n)
        {
          error (c, WS_KERNEL_ERROR_INVALID, e->pos, e->end, _("%s has no component “%s”"), t->name, e->name);
          return NULL;
        }
      e->member = (guint) (hit - comps);
      e->lvalue = e->is_arrow || e->a->lvalue;
      if (t->quals)
        return wk_type_qualified (c->arena, t->elem, t->quals);
      return t->elem;
    }
  if (t->kind == WK_TY_STRUCT)
    {
      for (guint i = 0; i < t->st->n_fields; i++)
        if (strcmp (t->st->fields[i].name, e->name) == 0)
          {
            e->member = i;
            e->lvalue = e->is_arrow || e->a->lvalue;
            return wk_type_qualified (c->arena, t->st->fields[i].type, t->quals);
          }
      error (c, WS_KERNEL_ERROR_INVALID, e->pos, e->end, _("the struct “%s” has no field “%s”"), t->st->name, e->name);
      return NULL;
    }
  {
    g_autofree char *tn = type_name (t);
    error (c, WS_KERNEL_ERROR_INVALID, e->pos, e->end, _("%s has no fields (“.%s”)"), tn, e->name);
  }
  return NULL;
}

static const WkType *
check_index (Checker *c,
             WkExpr  *e)
{
  const WkType *t = check_expr (c, e->a);
  const WkType *it = check_expr (c, e->b);

  if (t == NULL || it == NULL)
    return NULL;
  it = rvalue (c, &e->b);
  if (!wk_type_is_integer (it))
    {
      g_autofree char *tn = type_name (it);
      error (c, WS_KERNEL_ERROR_INVALID, e->b->start, e->b->end, _("an index must be an integer, not %s"), tn);
      return NULL;
    }
  if (t->kind == WK_TY_ARRAY)
    {
      e->lvalue = 1;
      return t->elem;
    }
  if (t->kind == WK_TY_POINTER)
    {
      if (t->elem->kind == WK_TY_VOID)
        {
          error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("a void pointer cannot be indexed"));
          return NULL;
        }
      e->lvalue = 1;
      return t->elem;
    }
  {
    g_autofree char *tn = type_name (t);
    g_autofree char *text = expr_text (c, e->a);
    error (c, WS_KERNEL_ERROR_INVALID, e->pos, e->end, _("“%s” is %s: it cannot be indexed"), text, tn);
  }
  return NULL;
}

static const WkType *
check_unary (Checker *c,
             WkExpr  *e)
{
  const WkType *t = check_expr (c, e->a);
  const char *op = op_text (e->op);

  if (t == NULL)
    return NULL;
  switch (e->op)
    {
    case WK_OP_NEG:
    case WK_OP_PLUS:
      if (!need_arith (c, &e->a, FALSE, op))
        return NULL;
      t = wk_type_promote (e->a->type);
      if (!wk_type_equal (t, e->a->type, FALSE))
        e->a = implicit (c, e->a, t);
      return t;
    case WK_OP_BITNOT:
      if (!need_arith (c, &e->a, TRUE, op))
        return NULL;
      t = wk_type_promote (e->a->type);
      if (!wk_type_equal (t, e->a->type, FALSE))
        e->a = implicit (c, e->a, t);
      return t;
    case WK_OP_LNOT:
      if (!need_scalar (c, &e->a, _("the operand of “!”")))
        return NULL;
      return WK_TYPE (WK_TY_BOOL);
    case WK_OP_DEREF:
      t = rvalue (c, &e->a);
      if (t->kind != WK_TY_POINTER || t->elem->kind == WK_TY_VOID)
        {
          g_autofree char *tn = type_name (t);
          error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("“*” needs a pointer, not %s"), tn);
          return NULL;
        }
      e->lvalue = 1;
      return t->elem;
    case WK_OP_ADDR:
      {
        const WkExpr *x = e->a;
        while ((x->kind == WK_E_MEMBER && !x->is_arrow))
          x = x->a;
        if (!e->a->lvalue || (x->kind == WK_E_NAME && x->sym && x->sym->kind != WK_SYM_MEMORY))
          {
            g_autofree char *text = expr_text (c, e->a);
            if (x->kind == WK_E_NAME && x->sym && x->sym->kind == WK_SYM_VAR)
              error (c, WS_KERNEL_ERROR_UNSUPPORTED, e->start, e->end,
                     _("taking the address of the variable “%s” is not supported: only of arrays' elements"),
                     text);
            else
              error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("“%s” has no address"), text);
            return NULL;
          }
        if (t->kind == WK_TY_ARRAY)
          {
            error (c, WS_KERNEL_ERROR_UNSUPPORTED, e->start, e->end,
                   _("a pointer to a whole array is not supported: take the address of its first element"));
            return NULL;
          }
        return wk_type_pointer (c->arena, t, 0);
      }
    case WK_OP_PREINC:
    case WK_OP_PREDEC:
    case WK_OP_POSTINC:
    case WK_OP_POSTDEC:
      if (!check_writable (c, e->a, op))
        return NULL;
      if (!wk_type_is_arith (t) && t->kind != WK_TY_POINTER)
        {
          g_autofree char *tn = type_name (t);
          error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("the operator “%s” needs a number, not %s"), op, tn);
          return NULL;
        }
      if (t->kind == WK_TY_BOOL)
        {
          error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("a bool cannot be incremented or decremented"));
          return NULL;
        }
      return wk_type_unqualified (c->arena, t);
    default:
      g_assert_not_reached ();
    }
  return NULL;
}

static const WkType *
check_binary (Checker *c,
              WkExpr  *e)
{
  const WkType *ta = check_expr (c, e->a);
  const WkType *tb = check_expr (c, e->b);
  const char *op = op_text (e->op);

  if (ta == NULL || tb == NULL)
    return NULL;
  if (e->op == WK_OP_COMMA)
    return rvalue (c, &e->b);
  ta = rvalue (c, &e->a);
  tb = rvalue (c, &e->b);
  switch (e->op)
    {
    case WK_OP_MUL:
    case WK_OP_DIV:
      if (!need_arith (c, &e->a, FALSE, op) || !need_arith (c, &e->b, FALSE, op))
        return NULL;
      return common_operands (c, e);
    case WK_OP_MOD:
    case WK_OP_BITAND:
    case WK_OP_BITXOR:
    case WK_OP_BITOR:
      if (!need_arith (c, &e->a, TRUE, op) || !need_arith (c, &e->b, TRUE, op))
        return NULL;
      return common_operands (c, e);
    case WK_OP_SHL:
    case WK_OP_SHR:
      if (!need_arith (c, &e->a, TRUE, op) || !need_arith (c, &e->b, TRUE, op))
        return NULL;
      {
        const WkType *pa = wk_type_promote (ta), *pb = wk_type_promote (tb);
        if (!wk_type_equal (pa, ta, FALSE))
          e->a = implicit (c, e->a, pa);
        if (!wk_type_equal (pb, tb, FALSE))
          e->b = implicit (c, e->b, pb);
        return pa;
      }
    case WK_OP_ADD:
    case WK_OP_SUB:
      if (ta->kind == WK_TY_POINTER && wk_type_is_integer (tb))
        {
          if (ta->elem->kind == WK_TY_VOID)
            {
              error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("arithmetic on a void pointer is not allowed"));
              return NULL;
            }
          e->b = implicit (c, e->b, WK_TYPE (WK_TY_LONG));
          return wk_type_unqualified (c->arena, ta);
        }
      if (e->op == WK_OP_ADD && tb->kind == WK_TY_POINTER && wk_type_is_integer (ta))
        {
          error (c, WS_KERNEL_ERROR_UNSUPPORTED, e->start, e->end,
                 _("write the pointer first in pointer arithmetic (p + n, not n + p)"));
          return NULL;
        }
      if (e->op == WK_OP_SUB && ta->kind == WK_TY_POINTER && tb->kind == WK_TY_POINTER)
        {
          if (!wk_type_equal (ta->elem, tb->elem, FALSE))
            {
              error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end,
                     _("pointers to different types cannot be subtracted"));
              return NULL;
            }
          return WK_TYPE (WK_TY_LONG);
        }
      if (!need_arith (c, &e->a, FALSE, op) || !need_arith (c, &e->b, FALSE, op))
        return NULL;
      return common_operands (c, e);
    case WK_OP_LT:
    case WK_OP_GT:
    case WK_OP_LE:
    case WK_OP_GE:
    case WK_OP_EQ:
    case WK_OP_NE:
      if (ta->kind == WK_TY_POINTER && tb->kind == WK_TY_POINTER)
        {
          if (!wk_type_equal (ta->elem, tb->elem, FALSE))
            {
              error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end,
                     _("pointers to different types cannot be compared"));
              return NULL;
            }
          return WK_TYPE (WK_TY_BOOL);
        }
      if (!need_arith (c, &e->a, FALSE, op) || !need_arith (c, &e->b, FALSE, op))
        return NULL;
      if (wk_type_is_integer (ta) && wk_type_is_integer (tb) && wk_type_is_signed (wk_type_promote (ta)) !=
          wk_type_is_signed (wk_type_promote (tb)) && e->op != WK_OP_EQ && e->op != WK_OP_NE)
        {
          /* only where the signed side is surely negative: a constant below zero */
          const WkType *cm = wk_type_common (ta, tb);
          WkExpr *signed_side = wk_type_is_signed (wk_type_promote (ta)) ? e->a : e->b;
          WkConst v;
          if (!wk_type_is_signed (cm) && wk_const_eval (signed_side, NULL, &v, NULL) == WK_CONST_OK && v.v.i < 0)
            warning (c, e->pos, e->pos + (guint) strlen (op),
                     _("comparison of signed and unsigned integers: the signed one is converted to %s, as C does "
                       "(a negative value becomes large)"), wk_scalar_name (cm->kind));
        }
      common_operands (c, e);
      return WK_TYPE (WK_TY_BOOL);
    case WK_OP_LAND:
    case WK_OP_LOR:
      if (!need_scalar (c, &e->a, _("an operand of “&&” or “||”")) ||
          !need_scalar (c, &e->b, _("an operand of “&&” or “||”")))
        return NULL;
      return WK_TYPE (WK_TY_BOOL);
    default:
      g_assert_not_reached ();
    }
  return NULL;
}

static const WkType *
check_assign (Checker *c,
              WkExpr  *e)
{
  const WkType *ta = check_expr (c, e->a);
  const WkType *tb = check_expr (c, e->b);
  const char *op = e->op == WK_OP_NONE ? "=" : op_text (e->op);

  if (ta == NULL || tb == NULL)
    return NULL;
  if (!check_writable (c, e->a, op))
    return NULL;
  if (e->op == WK_OP_NONE)
    {
      g_autofree char *text = expr_text (c, e->a);
      g_autofree char *what = g_strdup_printf (_("the value assigned to “%s”"), text);
      if (!convert (c, &e->b, wk_type_unqualified (c->arena, ta), what))
        return NULL;
      return wk_type_unqualified (c->arena, ta);
    }
  tb = rvalue (c, &e->b);
  if (ta->kind == WK_TY_POINTER && (e->op == WK_OP_ADD || e->op == WK_OP_SUB) && wk_type_is_integer (tb))
    {
      e->b = implicit (c, e->b, WK_TYPE (WK_TY_LONG));
      e->cast_type = wk_type_unqualified (c->arena, ta);
      return e->cast_type;
    }
  {
    gboolean integer = e->op == WK_OP_MOD || e->op == WK_OP_BITAND || e->op == WK_OP_BITOR ||
                       e->op == WK_OP_BITXOR || e->op == WK_OP_SHL || e->op == WK_OP_SHR;
    if (!wk_type_is_arith (ta) || (integer && !wk_type_is_integer (ta)))
      {
        g_autofree char *tn = type_name (ta);
        error (c, WS_KERNEL_ERROR_INVALID, e->a->start, e->a->end, _("the operator “%s” needs a number, not %s"), op, tn);
        return NULL;
      }
    if (!need_arith (c, &e->b, integer, op))
      return NULL;
    if (e->op == WK_OP_SHL || e->op == WK_OP_SHR)
      {
        const WkType *pb = wk_type_promote (tb);
        if (!wk_type_equal (pb, tb, FALSE))
          e->b = implicit (c, e->b, pb);
        e->cast_type = wk_type_promote (ta);
      }
    else
      {
        e->cast_type = wk_type_common (ta, tb);
        if (!wk_type_equal (e->b->type, e->cast_type, FALSE))
          e->b = implicit (c, e->b, e->cast_type);
      }
  }
  return wk_type_unqualified (c->arena, ta);
}

static const WkType *
check_cond (Checker *c,
            WkExpr  *e)
{
  const WkType *ta, *tb, *tc;

  if (check_expr (c, e->a) == NULL)
    return NULL;
  if (!need_scalar (c, &e->a, _("the condition of “?”")))
    return NULL;
  tb = check_expr (c, e->b);
  tc = check_expr (c, e->c);
  if (tb == NULL || tc == NULL)
    return NULL;
  tb = rvalue (c, &e->b);
  tc = rvalue (c, &e->c);
  ta = NULL;
  if (wk_type_is_arith (tb) && wk_type_is_arith (tc))
    {
      ta = wk_type_common (tb, tc);
      if (!wk_type_equal (tb, ta, FALSE))
        e->b = implicit (c, e->b, ta);
      if (!wk_type_equal (tc, ta, FALSE))
        e->c = implicit (c, e->c, ta);
      return ta;
    }
  if (wk_type_equal (tb, tc, FALSE))
    return wk_type_unqualified (c->arena, tb);
  if (tb->kind == WK_TY_POINTER && tc->kind == WK_TY_POINTER && wk_type_equal (tb->elem, tc->elem, FALSE))
    return (tb->elem->quals & WK_Q_CONST) ? tb : tc;
  {
    g_autofree char *b = type_name (tb);
    g_autofree char *cn = type_name (tc);
    error (c, WS_KERNEL_ERROR_INVALID, e->pos, e->end, _("the two values of “?:” have different types (%s and %s)"),
           b, cn);
  }
  return NULL;
}

static const WkType *
check_cast (Checker *c,
            WkExpr  *e)
{
  const WkType *to = resolve_type (c, e->cast_type, e->start);
  const WkType *from;

  if (to == NULL || check_expr (c, e->a) == NULL)
    return NULL;
  e->cast_type = to;
  from = rvalue (c, &e->a);
  if (to->kind == WK_TY_VOID)
    return to;
  if (wk_type_is_arith (to) && wk_type_is_arith (from) && e->cast_style != WK_CAST_REINTERPRET)
    return to;
  if (to->kind == WK_TY_POINTER && from->kind == WK_TY_POINTER && e->cast_style != WK_CAST_STATIC)
    {
      if (to->elem->kind == WK_TY_POINTER || to->elem->kind == WK_TY_VOID || from->elem->kind == WK_TY_VOID)
        {
          error (c, WS_KERNEL_ERROR_UNSUPPORTED, e->start, e->end,
                 _("only casts between pointers to numbers, vectors and structs are supported"));
          return NULL;
        }
      return to;
    }
  if (to->kind == WK_TY_POINTER && from->kind == WK_TY_POINTER && pointer_convertible (from, to))
    return to;
  if (wk_type_equal (to, from, FALSE))
    return to;
  {
    g_autofree char *f = type_name (from);
    g_autofree char *t = type_name (to);
    if ((to->kind == WK_TY_POINTER) != (from->kind == WK_TY_POINTER))
      error (c, WS_KERNEL_ERROR_UNSUPPORTED, e->start, e->end,
             _("casts between pointers and integers are not supported (%s to %s)"), f, t);
    else
      error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("%s cannot be cast to %s"), f, t);
  }
  return NULL;
}

static const WkType *
check_sizeof (Checker *c,
              WkExpr  *e)
{
  const WkType *t;

  if (e->a != NULL)
    {
      t = check_expr (c, e->a);
      if (t == NULL)
        return NULL;
    }
  else
    t = resolve_type (c, e->cast_type, e->start);
  if (t == NULL)
    return NULL;
  if (t->kind == WK_TY_VOID || (t->kind == WK_TY_ARRAY && t->n == 0))
    {
      error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("this has no size"));
      return NULL;
    }
  e->v.u = t->size;
  return WK_TYPE (WK_TY_ULONG);
}


/* ------------------------------------------------------------------ */
/* Calls                                                              */
/* ------------------------------------------------------------------ */

static gboolean
arg_count (Checker *c,
           WkExpr  *e,
           guint    min,
           guint    max)
{
  if (e->n_args >= min && e->n_args <= max)
    return TRUE;
  if (min == max)
    error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end,
           g_dngettext (GETTEXT_PACKAGE, "“%s” takes %u argument, not %u", "“%s” takes %u arguments, not %u", min),
           e->name, min, e->n_args);
  else
    error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("“%s” takes from %u to %u arguments, not %u"), e->name,
           min, max, e->n_args);
  return FALSE;
}

static gboolean
check_args (Checker *c,
            WkExpr  *e)
{
  gboolean ok = TRUE;

  for (guint i = 0; i < e->n_args; i++)
    if (check_expr (c, e->args[i]) == NULL)
      ok = FALSE;
  return ok;
}

static gboolean
arg_to (Checker      *c,
        WkExpr       *e,
        guint         i,
        const WkType *t)
{
  g_autofree char *what = g_strdup_printf (_("argument %u of “%s”"), i + 1, e->name);

  return convert (c, &e->args[i], t, what);
}

static gboolean
kind_in (WkTypeKind k,
         const WkTypeKind *kinds,
         guint n)
{
  for (guint i = 0; i < n; i++)
    if (kinds[i] == k)
      return TRUE;
  return FALSE;
}

static const WkType *
check_atomic (Checker *c,
              WkExpr  *e,
              WkBuiltinFn fn)
{
  static const WkTypeKind add[] = { WK_TY_INT, WK_TY_UINT, WK_TY_ULLONG, WK_TY_ULONG, WK_TY_FLOAT, WK_TY_DOUBLE };
  static const WkTypeKind sub[] = { WK_TY_INT, WK_TY_UINT };
  static const WkTypeKind minmax[] = { WK_TY_INT, WK_TY_UINT, WK_TY_LLONG, WK_TY_ULLONG, WK_TY_LONG, WK_TY_ULONG };
  static const WkTypeKind exch[] = { WK_TY_INT, WK_TY_UINT, WK_TY_ULLONG, WK_TY_ULONG, WK_TY_FLOAT };
  static const WkTypeKind bits[] = { WK_TY_INT, WK_TY_UINT, WK_TY_ULLONG, WK_TY_ULONG };
  static const WkTypeKind incdec[] = { WK_TY_UINT };
  const WkTypeKind *kinds;
  guint n_kinds;
  const WkType *pt, *t;
  guint n_args = fn == WK_BF_ATOMIC_CAS ? 3 : 2;

  if (!arg_count (c, e, n_args, n_args))
    return NULL;
  pt = rvalue (c, &e->args[0]);
  if (pt->kind != WK_TY_POINTER)
    {
      g_autofree char *tn = type_name (pt);
      error (c, WS_KERNEL_ERROR_INVALID, e->args[0]->start, e->args[0]->end,
             _("the first argument of “%s” is the address of the value to update (&a[i]), not %s"), e->name, tn);
      return NULL;
    }
  t = pt->elem;
  switch (fn)
    {
    case WK_BF_ATOMIC_ADD: kinds = add; n_kinds = G_N_ELEMENTS (add); break;
    case WK_BF_ATOMIC_SUB: kinds = sub; n_kinds = G_N_ELEMENTS (sub); break;
    case WK_BF_ATOMIC_MIN: case WK_BF_ATOMIC_MAX: kinds = minmax; n_kinds = G_N_ELEMENTS (minmax); break;
    case WK_BF_ATOMIC_EXCH: kinds = exch; n_kinds = G_N_ELEMENTS (exch); break;
    case WK_BF_ATOMIC_CAS: case WK_BF_ATOMIC_AND: case WK_BF_ATOMIC_OR: case WK_BF_ATOMIC_XOR:
      kinds = bits; n_kinds = G_N_ELEMENTS (bits); break;
    default: kinds = incdec; n_kinds = G_N_ELEMENTS (incdec); break;
    }
  if (!kind_in (t->kind, kinds, n_kinds))
    {
      g_autofree char *tn = type_name (t);
      error (c, WS_KERNEL_ERROR_INVALID, e->args[0]->start, e->args[0]->end, _("“%s” does not work on %s"), e->name, tn);
      return NULL;
    }
  if (t->quals & WK_Q_CONST)
    {
      g_autofree char *text = expr_text (c, e->args[0]);
      error (c, WS_KERNEL_ERROR_INVALID, e->args[0]->start, e->args[0]->end,
             _("“%s” points to const: “%s” cannot update it"), text, e->name);
      return NULL;
    }
  t = wk_type_unqualified (c->arena, t);
  for (guint i = 1; i < n_args; i++)
    if (!arg_to (c, e, i, t))
      return NULL;
  return t;
}

static const WkType *
float_kind_of (const WkBuiltinInfo *info,
               const WkType        *arg)
{
  /* sqrt (x) of a float is the float overload, as C++ has it */
  if (info->arg2 == WK_TY_DOUBLE && arg != NULL && arg->kind == WK_TY_FLOAT)
    return WK_TYPE (WK_TY_FLOAT);
  return WK_TYPE (info->arg2);
}

static const WkType *
check_builtin (Checker             *c,
               WkExpr              *e,
               const WkBuiltinInfo *info)
{
  const WkType *t;

  e->builtin = info->fn;
  if (c->loose_mode && info->fn != WK_BF_RANDOM && info->fn != WK_BF_MIN && info->fn != WK_BF_MAX &&
      info->fn != WK_BF_ABS && info->fn != WK_BF_MATH1 && info->fn != WK_BF_MATH2 && info->fn != WK_BF_FMA &&
      info->fn != WK_BF_MAKE_VECTOR && info->fn != WK_BF_FLOAT2INT && info->fn != WK_BF_AS_BITS)
    {
      error (c, WS_KERNEL_ERROR_LAUNCH, e->start, e->end, _("“%s” cannot be used in a launch value"), e->name);
      return NULL;
    }
  if (info->fn == WK_BF_PRINTF)
    {
      if (e->n_args == 0 || e->args[0]->kind != WK_E_STRING)
        {
          error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("printf's first argument is its format, in quotes"));
          return NULL;
        }
      e->args[0]->type = WK_TYPE (WK_TY_VOID);
      for (guint i = 1; i < e->n_args; i++)
        if (check_expr (c, e->args[i]) == NULL || !need_scalar (c, &e->args[i], _("an argument of printf")))
          return NULL;
      wk_diag_add (c->diags, WS_KERNEL_SEVERITY_NOTE, 0, e->start, e->end,
                   _("printf is printed back for the GPU, but the model and the reference print nothing"));
      return WK_TYPE (WK_TY_INT);
    }
  if (!check_args (c, e))
    return NULL;
  for (guint i = 0; i < e->n_args; i++)
    rvalue (c, &e->args[i]);

  switch (info->fn)
    {
    case WK_BF_SYNCTHREADS:
    case WK_BF_THREADFENCE_BLOCK:
    case WK_BF_THREADFENCE:
    case WK_BF_THREADFENCE_SYSTEM:
      if (!arg_count (c, e, 0, 0))
        return NULL;
      return WK_TYPE (WK_TY_VOID);
    case WK_BF_SYNCWARP:
      if (!arg_count (c, e, 0, 1) || (e->n_args == 1 && !arg_to (c, e, 0, WK_TYPE (WK_TY_UINT))))
        return NULL;
      return WK_TYPE (WK_TY_VOID);
    case WK_BF_ATOMIC_ADD: case WK_BF_ATOMIC_SUB: case WK_BF_ATOMIC_MIN: case WK_BF_ATOMIC_MAX:
    case WK_BF_ATOMIC_EXCH: case WK_BF_ATOMIC_CAS: case WK_BF_ATOMIC_AND: case WK_BF_ATOMIC_OR:
    case WK_BF_ATOMIC_XOR: case WK_BF_ATOMIC_INC: case WK_BF_ATOMIC_DEC:
      return check_atomic (c, e, info->fn);
    case WK_BF_LDG:
      if (!arg_count (c, e, 1, 1))
        return NULL;
      t = e->args[0]->type;
      if (t->kind != WK_TY_POINTER || !(wk_type_is_arith (t->elem) || t->elem->kind == WK_TY_VECTOR))
        {
          g_autofree char *tn = type_name (t);
          error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end,
                 _("__ldg takes the address of a number or a vector (&a[i]), not %s"), tn);
          return NULL;
        }
      return wk_type_unqualified (c->arena, t->elem);
    case WK_BF_SHFL: case WK_BF_SHFL_UP: case WK_BF_SHFL_DOWN: case WK_BF_SHFL_XOR:
      {
        static const WkTypeKind ok[] = { WK_TY_INT, WK_TY_UINT, WK_TY_LONG, WK_TY_ULONG, WK_TY_LLONG, WK_TY_ULLONG,
                                         WK_TY_FLOAT, WK_TY_DOUBLE };
        if (!arg_count (c, e, 3, 4))
          return NULL;
        t = wk_type_promote (e->args[1]->type);
        if (!kind_in (t->kind, ok, G_N_ELEMENTS (ok)))
          {
            g_autofree char *tn = type_name (e->args[1]->type);
            error (c, WS_KERNEL_ERROR_INVALID, e->args[1]->start, e->args[1]->end, _("“%s” does not move %s"),
                   e->name, tn);
            return NULL;
          }
        if (!arg_to (c, e, 0, WK_TYPE (WK_TY_UINT)) || !arg_to (c, e, 1, t) ||
            !arg_to (c, e, 2, info->fn == WK_BF_SHFL || info->fn == WK_BF_SHFL_XOR ? WK_TYPE (WK_TY_INT) :
                                                                                       WK_TYPE (WK_TY_UINT)) ||
            (e->n_args == 4 && !arg_to (c, e, 3, WK_TYPE (WK_TY_INT))))
          return NULL;
        return t;
      }
    case WK_BF_BALLOT: case WK_BF_ANY: case WK_BF_ALL:
      if (!arg_count (c, e, 2, 2) || !arg_to (c, e, 0, WK_TYPE (WK_TY_UINT)) || !arg_to (c, e, 1, WK_TYPE (WK_TY_INT)))
        return NULL;
      return WK_TYPE (info->fn == WK_BF_BALLOT ? WK_TY_UINT : WK_TY_INT);
    case WK_BF_ACTIVEMASK:
      if (!arg_count (c, e, 0, 0))
        return NULL;
      return WK_TYPE (WK_TY_UINT);
    case WK_BF_POPC: case WK_BF_CLZ: case WK_BF_FFS:
      if (!arg_count (c, e, 1, 1) ||
          !arg_to (c, e, 0, WK_TYPE (info->fn == WK_BF_POPC ? WK_TY_UINT : WK_TY_INT)))
        return NULL;
      return WK_TYPE (WK_TY_INT);
    case WK_BF_POPCLL: case WK_BF_CLZLL: case WK_BF_FFSLL:
      if (!arg_count (c, e, 1, 1) ||
          !arg_to (c, e, 0, WK_TYPE (info->fn == WK_BF_POPCLL ? WK_TY_ULLONG : WK_TY_LLONG)))
        return NULL;
      return WK_TYPE (WK_TY_INT);
    case WK_BF_BREV:
      if (!arg_count (c, e, 1, 1) || !arg_to (c, e, 0, WK_TYPE (WK_TY_UINT)))
        return NULL;
      return WK_TYPE (WK_TY_UINT);
    case WK_BF_MIN:
    case WK_BF_MAX:
      if (!arg_count (c, e, 2, 2))
        return NULL;
      if (info->arg >= 0)
        t = WK_TYPE (info->arg);
      else
        {
          if (!wk_type_is_arith (e->args[0]->type) || !wk_type_is_arith (e->args[1]->type))
            {
              error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("“%s” takes two numbers"), e->name);
              return NULL;
            }
          t = wk_type_common (e->args[0]->type, e->args[1]->type);
        }
      if (!arg_to (c, e, 0, t) || !arg_to (c, e, 1, t))
        return NULL;
      e->cast_type = t;
      return t;
    case WK_BF_ABS:
      if (!arg_count (c, e, 1, 1))
        return NULL;
      if (info->arg >= 0)
        t = WK_TYPE (info->arg);
      else if (wk_type_is_arith (e->args[0]->type))
        t = wk_type_promote (e->args[0]->type);
      else
        {
          error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("“%s” takes a number"), e->name);
          return NULL;
        }
      if (!arg_to (c, e, 0, t))
        return NULL;
      e->cast_type = t;
      return t;
    case WK_BF_MATH1:
      if (!arg_count (c, e, 1, 1))
        return NULL;
      t = float_kind_of (info, e->args[0]->type);
      if (!arg_to (c, e, 0, t))
        return NULL;
      e->member = (guint) info->arg;
      e->cast_type = t;
      return t;
    case WK_BF_MATH2:
      if (!arg_count (c, e, 2, 2))
        return NULL;
      t = float_kind_of (info, e->args[0]->type->kind == WK_TY_FLOAT && e->args[1]->type->kind == WK_TY_FLOAT ?
                                 e->args[0]->type : NULL);
      if (!arg_to (c, e, 0, t) || !arg_to (c, e, 1, t))
        return NULL;
      e->member = (guint) info->arg;
      e->cast_type = t;
      return t;
    case WK_BF_FMA:
      if (!arg_count (c, e, 3, 3))
        return NULL;
      t = WK_TYPE (info->arg2);
      if (!arg_to (c, e, 0, t) || !arg_to (c, e, 1, t) || !arg_to (c, e, 2, t))
        return NULL;
      e->cast_type = t;
      return t;
    case WK_BF_MAKE_VECTOR:
      t = wk_type_vector_by_name (e->name + 5, strlen (e->name + 5));
      if (!arg_count (c, e, (guint) t->n, (guint) t->n))
        return NULL;
      for (guint i = 0; i < e->n_args; i++)
        if (!arg_to (c, e, i, t->elem))
          return NULL;
      e->cast_type = t;
      return t;
    case WK_BF_FLOAT2INT:
      {
        WkTypeKind from = g_str_has_prefix (e->name, "__float") ? WK_TY_FLOAT :
                          g_str_has_prefix (e->name, "__double") ? WK_TY_DOUBLE :
                          g_str_has_prefix (e->name, "__uint") ? WK_TY_UINT : WK_TY_INT;
        if (!arg_count (c, e, 1, 1) || !arg_to (c, e, 0, WK_TYPE (from)))
          return NULL;
        e->member = (guint) info->arg;
        e->cast_type = WK_TYPE (info->arg2);
        return WK_TYPE (info->arg2);
      }
    case WK_BF_AS_BITS:
      if (!arg_count (c, e, 1, 1) || !arg_to (c, e, 0, WK_TYPE (info->arg2)))
        return NULL;
      e->cast_type = WK_TYPE (info->arg);
      return WK_TYPE (info->arg);
    case WK_BF_MUL24: case WK_BF_MULHI:
      if (!arg_count (c, e, 2, 2) || !arg_to (c, e, 0, WK_TYPE (WK_TY_INT)) || !arg_to (c, e, 1, WK_TYPE (WK_TY_INT)))
        return NULL;
      return WK_TYPE (WK_TY_INT);
    case WK_BF_UMUL24: case WK_BF_UMULHI:
      if (!arg_count (c, e, 2, 2) || !arg_to (c, e, 0, WK_TYPE (WK_TY_UINT)) ||
          !arg_to (c, e, 1, WK_TYPE (WK_TY_UINT)))
        return NULL;
      return WK_TYPE (WK_TY_UINT);
    case WK_BF_CLOCK:
      if (!arg_count (c, e, 0, 0))
        return NULL;
      warning (c, e->start, e->end, _("“%s” counts nothing in the model: it is 0 there"), e->name);
      return WK_TYPE (strcmp (e->name, "clock64") == 0 ? WK_TY_LLONG : WK_TY_INT);
    case WK_BF_RANDOM:
      if (!c->loose_mode)
        break;
      if (!arg_count (c, e, 1, 1) || !arg_to (c, e, 0, WK_TYPE (WK_TY_LLONG)))
        return NULL;
      return WK_TYPE (WK_TY_INT);
    default:
      break;
    }
  error (c, WS_KERNEL_ERROR_UNSUPPORTED, e->start, e->end,
         _("function calls other than the CUDA built-ins are not supported (%s)"), e->name);
  return NULL;
}

static void
note_callee (Checker *c,
             WkFunc  *callee)
{
  GPtrArray *list;

  if (c->func == NULL)
    return;
  list = g_hash_table_lookup (c->callees, c->func);
  if (list == NULL)
    {
      list = g_ptr_array_new ();
      g_hash_table_insert (c->callees, c->func, list);
    }
  g_ptr_array_add (list, callee);
}

static const WkType *
check_call (Checker *c,
            WkExpr  *e)
{
  WkSym *sym = c->loose_mode ? NULL : lookup (c, e->name);
  const WkBuiltinInfo *info;
  WkFunc *f;

  if (sym == NULL || sym->kind != WK_SYM_FUNC)
    {
      if (sym != NULL && sym->kind != WK_SYM_BUILTIN)
        {
          error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("“%s” is not a function"), e->name);
          return NULL;
        }
      info = wk_builtin_lookup (e->name, strlen (e->name));
      if (info == NULL || (info->fn == WK_BF_RANDOM && !c->loose_mode))
        {
          if (c->loose_mode)
            error (c, WS_KERNEL_ERROR_LAUNCH, e->start, e->end,
                   _("unknown function “%s”: a launch value may call random (seed), min, max, abs and the math "
                     "functions"), e->name);
          else
            error (c, WS_KERNEL_ERROR_UNSUPPORTED, e->start, e->end,
                   _("function calls other than the CUDA built-ins are not supported (%s)"), e->name);
          return NULL;
        }
      if (e->n_targs > 0)
        {
          error (c, WS_KERNEL_ERROR_UNSUPPORTED, e->start, e->end,
                 _("template arguments of built-in functions are not supported (%s)"), e->name);
          return NULL;
        }
      return check_builtin (c, e, info);
    }

  f = sym->func;
  e->sym = sym;
  if (f->is_kernel)
    {
      error (c, WS_KERNEL_ERROR_UNSUPPORTED, e->start, e->end,
             _("launching a kernel from a kernel (dynamic parallelism) is not supported (%s)"), e->name);
      return NULL;
    }
  if (f->body == NULL)
    {
      error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("the function “%s” is declared but never defined"),
             e->name);
      return NULL;
    }
  if (e->n_targs != f->n_tparams)
    {
      error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end,
             g_dngettext (GETTEXT_PACKAGE, "“%s” takes %u template argument (in <…>), not %u",
                          "“%s” takes %u template arguments (in <…>), not %u", f->n_tparams),
             e->name, f->n_tparams, e->n_targs);
      return NULL;
    }
  for (guint i = 0; i < e->n_targs; i++)
    {
      WkConst v;
      const WkExpr *failed = NULL;
      WkConstStatus st;

      if (check_expr (c, e->targs[i]) == NULL)
        return NULL;
      st = wk_const_eval (e->targs[i], NULL, &v, &failed);
      if (!wk_type_is_integer (e->targs[i]->type) ||
          (st != WK_CONST_OK && !(st == WK_CONST_NOT_CONSTANT && failed && failed->kind == WK_E_NAME &&
                                  failed->sym && failed->sym->kind == WK_SYM_TEMPLATE)))
        {
          error (c, WS_KERNEL_ERROR_INVALID, e->targs[i]->start, e->targs[i]->end,
                 _("a template argument must be a constant integer"));
          return NULL;
        }
    }
  if (!arg_count (c, e, f->n_params, f->n_params) || !check_args (c, e))
    return NULL;
  for (guint i = 0; i < e->n_args; i++)
    {
      const WkType *pt = resolve_type (c, f->params[i]->type, f->params[i]->name_pos);
      if (pt == NULL || !arg_to (c, e, i, wk_type_unqualified (c->arena, pt)))
        return NULL;
    }
  note_callee (c, f);
  return resolve_type (c, f->ret, f->name_pos);
}

static const WkType *
check_expr_inner (Checker *c,
                  WkExpr  *e)
{
  switch (e->kind)
    {
    case WK_E_INT:
    case WK_E_FLOAT:
    case WK_E_BOOL:
      return e->type;
    case WK_E_STRING:
      error (c, WS_KERNEL_ERROR_UNSUPPORTED, e->start, e->end, _("text is only supported as the format of printf"));
      return NULL;
    case WK_E_NAME:
      return check_name (c, e);
    case WK_E_UNARY:
      return check_unary (c, e);
    case WK_E_BINARY:
      return check_binary (c, e);
    case WK_E_ASSIGN:
      if (c->loose_mode)
        break;
      return check_assign (c, e);
    case WK_E_COND:
      return check_cond (c, e);
    case WK_E_CALL:
      return check_call (c, e);
    case WK_E_INDEX:
      if (c->loose_mode)
        break;
      return check_index (c, e);
    case WK_E_MEMBER:
      return check_member (c, e);
    case WK_E_CAST:
      return check_cast (c, e);
    case WK_E_IMPLICIT:
      return e->type;
    case WK_E_SIZEOF:
      return check_sizeof (c, e);
    case WK_E_INIT_LIST:
      error (c, WS_KERNEL_ERROR_UNSUPPORTED, e->start, e->end,
             _("a list in braces is only supported as the initial value of a declaration"));
      return NULL;
    }
  error (c, WS_KERNEL_ERROR_LAUNCH, e->start, e->end, _("a launch value cannot assign or read memory"));
  return NULL;
}

static const WkType *
check_expr (Checker *c,
            WkExpr  *e)
{
  const WkType *t;

  if (e == NULL)
    return NULL;
  if (e->type != NULL && e->kind != WK_E_INT && e->kind != WK_E_FLOAT && e->kind != WK_E_BOOL)
    return e->type;     /* checked already (a shared subtree) */
  t = check_expr_inner (c, e);
  e->type = t;
  return t;
}

/* ------------------------------------------------------------------ */
/* Declarations                                                       */
/* ------------------------------------------------------------------ */

static gboolean
check_init_list (Checker      *c,
                 WkExpr       *list,
                 const WkType *t,
                 const char   *name)
{
  guint64 max;

  list->type = t;
  list->cast_type = t;
  if (t->kind == WK_TY_ARRAY)
    max = t->n;
  else if (t->kind == WK_TY_VECTOR)
    max = t->n;
  else if (t->kind == WK_TY_STRUCT)
    max = t->st->n_fields;
  else
    max = 1;
  if (list->n_args > max)
    {
      error (c, WS_KERNEL_ERROR_INVALID, list->start, list->end,
             _("too many initial values for “%s”: %u, for %" G_GUINT64_FORMAT " places"), name, list->n_args, max);
      return FALSE;
    }
  for (guint i = 0; i < list->n_args; i++)
    {
      const WkType *et = t->kind == WK_TY_ARRAY || t->kind == WK_TY_VECTOR ? t->elem :
                         t->kind == WK_TY_STRUCT ? t->st->fields[i].type : t;
      WkExpr *item = list->args[i];

      if (item->kind == WK_E_INIT_LIST)
        {
          if (!check_init_list (c, item, wk_type_unqualified (c->arena, et), name))
            return FALSE;
          continue;
        }
      if (check_expr (c, item) == NULL)
        return FALSE;
      {
        g_autofree char *what = g_strdup_printf (_("an initial value of “%s”"), name);
        if (!convert (c, &list->args[i], wk_type_unqualified (c->arena, et), what))
          return FALSE;
      }
    }
  return TRUE;
}

static gboolean
check_local_decl (Checker *c,
                  WkDecl  *d)
{
  const WkType *t = d->type;
  WkSym *sym;

  if (t == NULL)
    {
      /* auto: the initial value's type */
      const WkType *it = check_expr (c, d->init);
      if (it == NULL)
        return FALSE;
      it = rvalue (c, &d->init);
      t = wk_type_unqualified (c->arena, it);
      d->type = t;
    }
  t = resolve_type (c, t, d->name_pos);
  if (t == NULL)
    return FALSE;
  d->type = t;
  if (t->kind == WK_TY_VOID)
    {
      error (c, WS_KERNEL_ERROR_INVALID, d->name_pos, d->end, _("a variable cannot be void (“%s”)"), d->name);
      return FALSE;
    }
  if (t->kind == WK_TY_ARRAY && t->n == 0 && t->n_expr == NULL && d->storage != WK_STORE_EXTERN_SHARED)
    {
      if (d->init != NULL && d->init->kind == WK_E_INIT_LIST && d->storage == WK_STORE_AUTO)
        {
          t = wk_type_array (c->arena, t->elem, MAX (d->init->n_args, 1));
          d->type = t;
        }
      else
        {
          error (c, WS_KERNEL_ERROR_INVALID, d->name_pos, d->end, _("the array “%s” needs a length"), d->name);
          return FALSE;
        }
    }
  if (d->storage == WK_STORE_EXTERN_SHARED && (t->kind != WK_TY_ARRAY || t->n != 0 || t->n_expr != NULL))
    {
      error (c, WS_KERNEL_ERROR_INVALID, d->name_pos, d->end,
             _("extern __shared__ declares an array without a length: “%s[]”"), d->name);
      return FALSE;
    }
  if (d->storage == WK_STORE_SHARED || d->storage == WK_STORE_EXTERN_SHARED)
    {
      if (d->init != NULL)
        {
          error (c, WS_KERNEL_ERROR_INVALID, d->name_pos, d->end,
                 _("__shared__ variables cannot have an initial value: write them after the declaration"));
          return FALSE;
        }
      if (t->kind == WK_TY_POINTER)
        {
          error (c, WS_KERNEL_ERROR_UNSUPPORTED, d->name_pos, d->end, _("__shared__ pointers are not supported"));
          return FALSE;
        }
      sym = sym_new (c, WK_SYM_MEMORY, d->name, d->name_pos, t);
    }
  else if (t->kind == WK_TY_ARRAY)
    {
      if (t->elem->kind == WK_TY_POINTER)
        {
          error (c, WS_KERNEL_ERROR_UNSUPPORTED, d->name_pos, d->end, _("arrays of pointers are not supported"));
          return FALSE;
        }
      sym = sym_new (c, WK_SYM_MEMORY, d->name, d->name_pos, t);
      if (d->init != NULL)
        {
          if (d->init->kind != WK_E_INIT_LIST)
            {
              error (c, WS_KERNEL_ERROR_INVALID, d->init->start, d->init->end,
                     _("an array's initial value is a list in braces"));
              return FALSE;
            }
          if (!check_init_list (c, d->init, t, d->name))
            return FALSE;
        }
    }
  else
    {
      sym = sym_new (c, WK_SYM_VAR, d->name, d->name_pos, t);
      if (d->init != NULL)
        {
          if (d->init->kind == WK_E_INIT_LIST)
            {
              if (!check_init_list (c, d->init, wk_type_unqualified (c->arena, t), d->name))
                return FALSE;
            }
          else
            {
              g_autofree char *what = g_strdup_printf (_("the initial value of “%s”"), d->name);
              if (check_expr (c, d->init) == NULL ||
                  !convert (c, &d->init, wk_type_unqualified (c->arena, t), what))
                return FALSE;
              /* a const with a constant value is itself a constant */
              if (t->quals & WK_Q_CONST && wk_type_is_arith (t))
                {
                  WkConst v;
                  if (wk_const_eval (d->init, NULL, &v, NULL) == WK_CONST_OK)
                    {
                      v = wk_const_convert (v, t);
                      sym->has_value = TRUE;
                      sym->value.u = v.v.u;
                    }
                }
            }
        }
      else if (t->quals & WK_Q_CONST)
        {
          error (c, WS_KERNEL_ERROR_INVALID, d->name_pos, d->end, _("the const variable “%s” needs an initial value"),
                 d->name);
          return FALSE;
        }
    }
  sym->storage = d->storage;
  sym->decl = d;
  d->sym = sym;
  return declare (c, sym);
}

/* ------------------------------------------------------------------ */
/* Statements                                                         */
/* ------------------------------------------------------------------ */

static gboolean
check_condition (Checker *c,
                 WkExpr **slot,
                 const char *what)
{
  if (check_expr (c, *slot) == NULL)
    return FALSE;
  if ((*slot)->kind == WK_E_ASSIGN && (*slot)->op == WK_OP_NONE && !(*slot)->paren)
    warning (c, (*slot)->pos, (*slot)->pos + 1, _("an assignment used as a condition: did you mean “==”?"));
  return need_scalar (c, slot, what);
}

static void
check_unroll (Checker *c,
              WkStmt  *s)
{
  WkConst v;

  if (s->unroll_expr == NULL)
    return;
  if (check_expr (c, s->unroll_expr) == NULL)
    return;
  if (!wk_type_is_integer (s->unroll_expr->type) || wk_const_eval (s->unroll_expr, NULL, &v, NULL) != WK_CONST_OK ||
      v.v.i < 1 || v.v.i > 100000)
    {
      /* a template parameter: printed as written */
      const WkExpr *failed = NULL;
      if (wk_const_eval (s->unroll_expr, NULL, &v, &failed) == WK_CONST_NOT_CONSTANT && failed &&
          failed->kind == WK_E_NAME && failed->sym && failed->sym->kind == WK_SYM_TEMPLATE)
        return;
      error (c, WS_KERNEL_ERROR_INVALID, s->unroll_expr->start, s->unroll_expr->end,
             _("the count of #pragma unroll must be a constant from 1 to 100000"));
      return;
    }
  s->unroll = (int) v.v.i;
  s->unroll_expr = NULL;
}

static gboolean
check_switch (Checker *c,
              WkStmt  *s)
{
  g_autoptr (GArray) seen = g_array_new (FALSE, FALSE, sizeof (gint64));
  gboolean have_default = FALSE;
  WkStmt *body = s->body;
  gboolean ok = TRUE;

  if (check_expr (c, s->e) == NULL)
    return FALSE;
  if (!wk_type_is_integer (rvalue (c, &s->e)))
    {
      error (c, WS_KERNEL_ERROR_INVALID, s->e->start, s->e->end, _("the value of a switch must be an integer"));
      return FALSE;
    }
  {
    const WkType *pt = wk_type_promote (s->e->type);
    if (!wk_type_equal (pt, s->e->type, FALSE))
      s->e = implicit (c, s->e, pt);
  }
  if (body->n_list == 0 || body->list[0]->kind != WK_S_CASE)
    {
      error (c, WS_KERNEL_ERROR_UNSUPPORTED, body->start, body->start + 1,
             _("a switch's block must start with a case"));
      return FALSE;
    }
  c->switches++;
  push_scope (c);
  for (guint i = 0; i < body->n_list; i++)
    {
      WkStmt *st = body->list[i];
      if (st->kind == WK_S_CASE)
        {
          WkConst v;
          if (st->e == NULL)
            {
              if (have_default)
                {
                  error (c, WS_KERNEL_ERROR_INVALID, st->start, st->end, _("a switch has two defaults"));
                  ok = FALSE;
                }
              have_default = TRUE;
              continue;
            }
          if (check_expr (c, st->e) == NULL || !wk_type_is_integer (st->e->type) ||
              wk_const_eval (st->e, NULL, &v, NULL) != WK_CONST_OK)
            {
              error (c, WS_KERNEL_ERROR_INVALID, st->start, st->end, _("a case needs a constant integer"));
              ok = FALSE;
              continue;
            }
          v = wk_const_convert (v, s->e->type);
          for (guint k = 0; k < seen->len; k++)
            if (g_array_index (seen, gint64, k) == v.v.i)
              {
                error (c, WS_KERNEL_ERROR_INVALID, st->start, st->end, _("this case is already in the switch"));
                ok = FALSE;
              }
          g_array_append_val (seen, v.v.i);
          st->e->v.i = v.v.i;
          continue;
        }
      if (st->kind == WK_S_DECL)
        {
          error (c, WS_KERNEL_ERROR_UNSUPPORTED, st->start, st->end,
                 _("declarations directly in a switch are not supported: put the case's statements in braces"));
          ok = FALSE;
          continue;
        }
      if (!check_stmt (c, st))
        ok = FALSE;
    }
  pop_scope (c);
  c->switches--;
  return ok;
}

static gboolean
check_block (Checker *c,
             WkStmt  *s)
{
  gboolean ok = TRUE;

  push_scope (c);
  for (guint i = 0; i < s->n_list; i++)
    {
      if (s->list[i]->kind == WK_S_CASE)
        {
          error (c, WS_KERNEL_ERROR_UNSUPPORTED, s->list[i]->start, s->list[i]->end,
                 _("a case is only supported directly in its switch's block"));
          ok = FALSE;
          continue;
        }
      if (!check_stmt (c, s->list[i]))
        ok = FALSE;
      if (c->diags->too_many)
        break;
    }
  pop_scope (c);
  return ok;
}

static gboolean
check_stmt (Checker *c,
            WkStmt  *s)
{
  gboolean ok = TRUE;

  switch (s->kind)
    {
    case WK_S_BLOCK:
      return check_block (c, s);
    case WK_S_DECL:
      for (guint i = 0; i < s->n_decls; i++)
        if (!check_local_decl (c, s->decls[i]))
          ok = FALSE;
      return ok;
    case WK_S_EXPR:
      return check_expr (c, s->e) != NULL;
    case WK_S_IF:
      ok = check_condition (c, &s->e, _("the condition of “if”"));
      push_scope (c);
      ok = check_stmt (c, s->body) && ok;
      pop_scope (c);
      if (s->els != NULL)
        {
          push_scope (c);
          ok = check_stmt (c, s->els) && ok;
          pop_scope (c);
        }
      return ok;
    case WK_S_FOR:
      push_scope (c);
      check_unroll (c, s);
      if (s->init != NULL)
        ok = check_stmt (c, s->init);
      if (s->e != NULL)
        ok = check_condition (c, &s->e, _("the condition of “for”")) && ok;
      if (s->inc != NULL)
        ok = check_expr (c, s->inc) != NULL && ok;
      c->loops++;
      push_scope (c);
      ok = check_stmt (c, s->body) && ok;
      pop_scope (c);
      c->loops--;
      pop_scope (c);
      return ok;
    case WK_S_WHILE:
    case WK_S_DO:
      check_unroll (c, s);
      ok = check_condition (c, &s->e, s->kind == WK_S_WHILE ? _("the condition of “while”") :
                                                           _("the condition of “do … while”"));
      c->loops++;
      push_scope (c);
      ok = check_stmt (c, s->body) && ok;
      pop_scope (c);
      c->loops--;
      return ok;
    case WK_S_BREAK:
      if (c->loops == 0 && c->switches == 0)
        {
          error (c, WS_KERNEL_ERROR_INVALID, s->start, s->end, _("“break” outside a loop or a switch"));
          return FALSE;
        }
      return TRUE;
    case WK_S_CONTINUE:
      if (c->loops == 0)
        {
          error (c, WS_KERNEL_ERROR_INVALID, s->start, s->end, _("“continue” outside a loop"));
          return FALSE;
        }
      return TRUE;
    case WK_S_RETURN:
      if (c->func->ret->kind == WK_TY_VOID)
        {
          if (s->e != NULL)
            {
              error (c, WS_KERNEL_ERROR_INVALID, s->e->start, s->e->end,
                     _("“%s” returns void: “return” takes no value"), c->func->name);
              return FALSE;
            }
          return TRUE;
        }
      if (s->e == NULL)
        {
          error (c, WS_KERNEL_ERROR_INVALID, s->start, s->end, _("“%s” must return a value"), c->func->name);
          return FALSE;
        }
      if (s->e->kind == WK_E_INIT_LIST)
        return check_init_list (c, s->e, c->func->ret, c->func->name);
      {
        g_autofree char *what = g_strdup_printf (_("the value “%s” returns"), c->func->name);
        return check_expr (c, s->e) != NULL && convert (c, &s->e, c->func->ret, what);
      }
    case WK_S_EMPTY:
      return TRUE;
    case WK_S_SWITCH:
      return check_switch (c, s);
    case WK_S_CASE:
      error (c, WS_KERNEL_ERROR_UNSUPPORTED, s->start, s->end,
             _("a case is only supported directly in its switch's block"));
      return FALSE;
    }
  return FALSE;
}

/* ------------------------------------------------------------------ */
/* Functions and the file                                             */
/* ------------------------------------------------------------------ */

static gboolean
check_param (Checker *c,
             WkFunc  *f,
             WkDecl  *d,
             guint    index)
{
  const WkType *t = resolve_type (c, d->type, d->name_pos);
  WkSym *sym;

  if (t == NULL)
    return FALSE;
  d->type = t;
  if (d->name == NULL)
    {
      error (c, WS_KERNEL_ERROR_INVALID, d->start, d->end, _("a parameter of a function that is defined needs a name"));
      return FALSE;
    }
  if (t->kind == WK_TY_VOID)
    {
      error (c, WS_KERNEL_ERROR_INVALID, d->start, d->end, _("a parameter cannot be void (“%s”)"), d->name);
      return FALSE;
    }
  if (t->kind == WK_TY_POINTER)
    {
      const WkType *pt = t->elem;
      if (pt->kind == WK_TY_POINTER || pt->kind == WK_TY_VOID)
        {
          g_autofree char *tn = type_name (t);
          error (c, WS_KERNEL_ERROR_UNSUPPORTED, d->start, d->end,
                 _("the parameter “%s” is %s: pointers to numbers, vectors or structs are supported"), d->name, tn);
          return FALSE;
        }
    }
  else if (f->is_kernel && !wk_type_is_arith (t))
    {
      g_autofree char *tn = type_name (t);
      error (c, WS_KERNEL_ERROR_UNSUPPORTED, d->start, d->end,
             _("the kernel parameter “%s” is %s: kernels take pointers and numbers"), d->name, tn);
      return FALSE;
    }
  sym = sym_new (c, WK_SYM_VAR, d->name, d->name_pos, t);
  sym->storage = WK_STORE_PARAM;
  sym->decl = d;
  sym->param = (int) index;
  sym->is_const_pointer = t->kind == WK_TY_POINTER && (t->elem->quals & WK_Q_CONST);
  d->sym = sym;
  return declare (c, sym);
}

static void
check_function (Checker *c,
                WkFunc  *f)
{
  const WkType *ret = resolve_type (c, f->ret, f->name_pos);

  c->func = f;
  if (ret == NULL)
    return;
  f->ret = ret;
  if (ret->kind == WK_TY_POINTER)
    error (c, WS_KERNEL_ERROR_UNSUPPORTED, f->start, f->name_pos, _("functions that return pointers are not supported"));
  push_scope (c);
  for (guint i = 0; i < f->n_tparams; i++)
    {
      WkSym *sym = sym_new (c, WK_SYM_TEMPLATE, f->tparams[i].name, f->tparams[i].pos, f->tparams[i].type);
      f->tparams[i].sym = sym;
      declare (c, sym);
    }
  for (guint i = 0; i < f->n_params; i++)
    check_param (c, f, f->params[i], i);
  for (guint i = 0; i < 2; i++)
    if (f->launch_bounds[i] != NULL)
      {
        WkConst v;
        if (check_expr (c, f->launch_bounds[i]) == NULL || !wk_type_is_integer (f->launch_bounds[i]->type) ||
            (wk_const_eval (f->launch_bounds[i], NULL, &v, NULL) != WK_CONST_OK))
          error (c, WS_KERNEL_ERROR_INVALID, f->launch_bounds[i]->start, f->launch_bounds[i]->end,
                 _("__launch_bounds__ takes constant integers"));
      }
  /* the body is the parameters' scope */
  c->loops = c->switches = 0;
  for (guint i = 0; i < f->body->n_list; i++)
    {
      if (f->body->list[i]->kind == WK_S_CASE)
        {
          error (c, WS_KERNEL_ERROR_UNSUPPORTED, f->body->list[i]->start, f->body->list[i]->end,
                 _("a case is only supported directly in its switch's block"));
          continue;
        }
      check_stmt (c, f->body->list[i]);
      if (c->diags->too_many)
        break;
    }
  pop_scope (c);
  c->func = NULL;
}

static void
check_global (Checker *c,
              WkDecl  *d)
{
  const WkType *t = resolve_type (c, d->type, d->name_pos);
  WkSym *sym = d->sym;

  if (t == NULL)
    return;
  d->type = t;
  sym->type = t;
  if (t->kind == WK_TY_POINTER)
    {
      error (c, WS_KERNEL_ERROR_UNSUPPORTED, d->name_pos, d->end, _("pointers outside functions are not supported (“%s”)"),
             d->name);
      return;
    }
  if (d->storage == WK_STORE_CONST_VALUE)
    {
      WkConst v;
      const WkExpr *failed = NULL;
      g_autofree char *what = g_strdup_printf (_("the value of “%s”"), d->name);

      if (!wk_type_is_arith (t) || d->init == NULL || d->init->kind == WK_E_INIT_LIST)
        {
          error (c, WS_KERNEL_ERROR_UNSUPPORTED, d->name_pos, d->end,
                 _("a constant outside functions is a number with a value (const int N = 1024;)"));
          return;
        }
      if (check_expr (c, d->init) == NULL || !convert (c, &d->init, wk_type_unqualified (c->arena, t), what))
        return;
      if (wk_const_eval (d->init, NULL, &v, &failed) != WK_CONST_OK)
        {
          error (c, WS_KERNEL_ERROR_INVALID, d->init->start, d->init->end, _("the value of “%s” is not a constant"),
                 d->name);
          return;
        }
      v = wk_const_convert (v, t);
      sym->has_value = TRUE;
      sym->value.u = v.v.u;
      return;
    }
  if (d->storage == WK_STORE_EXTERN_SHARED)
    {
      if (t->kind != WK_TY_ARRAY || t->n != 0)
        error (c, WS_KERNEL_ERROR_INVALID, d->name_pos, d->end,
               _("extern __shared__ declares an array without a length: “%s[]”"), d->name);
      return;
    }
  if (t->kind == WK_TY_ARRAY && t->n == 0)
    {
      error (c, WS_KERNEL_ERROR_INVALID, d->name_pos, d->end, _("the array “%s” needs a length"), d->name);
      return;
    }
  if (d->init != NULL)
    error (c, WS_KERNEL_ERROR_UNSUPPORTED, d->init->start, d->init->end,
           _("initial values of variables outside functions are not supported: the launch comment fills them"));
}

/* Device functions calling one another: no recursion, since calls are
 * inlined. */
static gboolean
find_cycle (Checker   *c,
            WkFunc    *f,
            GPtrArray *path)
{
  GPtrArray *callees = g_hash_table_lookup (c->callees, f);

  for (guint i = 0; i < path->len; i++)
    if (path->pdata[i] == f)
      return TRUE;
  if (callees == NULL)
    return FALSE;
  g_ptr_array_add (path, f);
  for (guint i = 0; i < callees->len; i++)
    if (find_cycle (c, callees->pdata[i], path))
      return TRUE;
  g_ptr_array_remove_index (path, path->len - 1);
  return FALSE;
}

static void
check_recursion (Checker *c)
{
  for (guint i = 0; i < c->file->funcs->len; i++)
    {
      WkFunc *f = g_ptr_array_index (c->file->funcs, i);
      g_autoptr (GPtrArray) path = g_ptr_array_new ();

      if (find_cycle (c, f, path) && path->len > 0 && path->pdata[0] == f)
        error (c, WS_KERNEL_ERROR_UNSUPPORTED, f->name_pos, f->name_pos + (guint) strlen (f->name),
               _("recursion is not supported: “%s” calls itself"), f->name);
    }
}

static Checker *
checker_new (WsKernelFile *file,
             WkArena      *arena,
             WkDiags      *diags)
{
  Checker *c = g_new0 (Checker, 1);

  c->file = file;
  c->arena = arena;
  c->diags = diags;
  c->callees = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_ptr_array_unref);
  make_builtins (c);
  return c;
}

static void
checker_free (Checker *c)
{
  while (c->scope != NULL)
    pop_scope (c);
  g_hash_table_unref (c->callees);
  g_free (c);
}

gboolean
wk_check (WsKernelFile *file,
          WkDiags      *diags)
{
  Checker *c = checker_new (file, &file->arena, diags);
  guint errors = diags->n_errors;

  for (guint i = 0; i < file->tops->len; i++)
    {
      WkTop *top = g_ptr_array_index (file->tops, i);

      if (top->kind == WK_TOP_STRUCT)
        resolve_struct (c, top->st, top->st->pos);
      else if (top->kind == WK_TOP_DECL)
        check_global (c, top->decl);
      else
        check_function (c, top->func);
      if (diags->too_many)
        break;
    }
  check_recursion (c);
  if (file->kernels->len == 0 && diags->n_errors == errors)
    wk_diag_add (diags, WS_KERNEL_SEVERITY_ERROR, WS_KERNEL_ERROR_INVALID, 0, 0,
                 _("the file has no kernel: write a __global__ void function"));
  checker_free (c);
  return diags->n_errors == errors;
}

gboolean
wk_check_loose_expr (WsKernelFile *file,
                     WkExpr       *expr,
                     GHashTable   *names,
                     WkArena      *arena,
                     WkDiags      *diags)
{
  Checker *c = checker_new (file, arena, diags);
  guint errors = diags->n_errors;
  const WkType *t;

  c->loose = names;
  c->loose_mode = TRUE;
  t = check_expr (c, expr);
  checker_free (c);
  return t != NULL && diags->n_errors == errors;
}
