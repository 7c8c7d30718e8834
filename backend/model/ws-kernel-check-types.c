/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The checker's scopes, types (array lengths evaluated, structs laid out)
 * and C's conversions, each made a node of the tree. */
#include "ws-config.h"
#include "ws-kernel-check-private.h"
#include "ws-i18n.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Scopes                                                             */
/* ------------------------------------------------------------------ */

void
wkc_push_scope (Checker *c)
{
  WkScope *s = g_new0 (WkScope, 1);

  s->parent = c->scope;
  s->names = g_hash_table_new (g_str_hash, g_str_equal);
  c->scope = s;
}

void
wkc_pop_scope (Checker *c)
{
  WkScope *s = c->scope;

  c->scope = s->parent;
  g_hash_table_unref (s->names);
  g_free (s);
}

WkSym *
wkc_lookup (Checker    *c,
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

WkSym *
wkc_sym_new (Checker    *c,
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

gboolean
wkc_declare (Checker *c,
             WkSym   *sym)
{
  WkSym *old = g_hash_table_lookup (c->scope->names, sym->name);

  if (old != NULL)
    {
      guint line, column;
      wk_position (c->diags->text, c->diags->len, old->pos, &line, &column);
      wkc_error (c, WS_KERNEL_ERROR_INVALID, sym->pos, sym->pos + (guint) strlen (sym->name),
             _("“%s” is already declared in this scope, at line %u"), sym->name, line);
      return FALSE;
    }
  g_hash_table_insert (c->scope->names, (gpointer) sym->name, sym);
  return TRUE;
}

void
wkc_make_builtins (Checker *c)
{
  static const char *names[WK_N_BUILTIN_VARS] = { "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize" };

  for (guint i = 0; i < WK_N_BUILTIN_VARS; i++)
    {
      const WkType *t = i == WK_BV_WARP_SIZE ? WK_TYPE (WK_TY_INT) :
                        i < WK_BV_BLOCK_DIM ? wk_type_vector (WK_TY_UINT, 3) : wk_type_vector_by_name ("dim3", 4);
      c->builtins[i] = wkc_sym_new (c, WK_SYM_BUILTIN, names[i], 0, t);
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
  t = wkc_check_expr (c, e);
  if (t == NULL)
    return FALSE;
  if (!wk_type_is_integer (t))
    {
      g_autofree char *tn = wkc_type_name (t);
      wkc_error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("an array length must be an integer, not %s"), tn);
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
      wkc_error (c, WS_KERNEL_ERROR_INVALID, failed->pos, failed->end, _("division by zero in a constant"));
      return FALSE;
    }
  if (st != WK_CONST_OK)
    {
      g_autofree char *text = wkc_expr_text (c, failed ? failed : e);
      wkc_error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end,
             _("an array length must be a constant (“%s” is not known before the kernel runs)"), text);
      return FALSE;
    }
  if ((wk_type_is_signed (v.type) && v.v.i <= 0) || v.v.u == 0 || v.v.u > max)
    {
      wkc_error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end,
             _("an array length must be from 1 to %" G_GUINT64_FORMAT ", not %lld"), max, (long long) v.v.i);
      return FALSE;
    }
  *out = v.v.u;
  return TRUE;
}

gboolean
wkc_resolve_struct (Checker  *c,
                    WkStruct *st,
                    guint     pos)
{
  if (st->size != 0)
    return TRUE;
  if (!st->complete)
    {
      wkc_error (c, WS_KERNEL_ERROR_INVALID, pos, pos + 1, _("the struct “%s” is declared but never defined"),
             st->name ? st->name : "?");
      return FALSE;
    }
  if (st->name == NULL)
    {
      wkc_error (c, WS_KERNEL_ERROR_UNSUPPORTED, st->pos, st->pos + 6,
             _("a struct without a name is not supported: name it, or name it with typedef"));
      return FALSE;
    }
  for (guint i = 0; i < st->n_fields; i++)
    {
      const WkType *ft = wkc_resolve_type (c, st->fields[i].type, st->fields[i].pos);
      if (ft == NULL)
        return FALSE;
      if (ft->kind == WK_TY_POINTER)
        {
          wkc_error (c, WS_KERNEL_ERROR_UNSUPPORTED, st->fields[i].pos, st->fields[i].pos + 1,
                 _("a struct field that is a pointer is not supported (“%s”)"), st->fields[i].name);
          return FALSE;
        }
      if (ft->kind == WK_TY_VOID || (ft->kind == WK_TY_ARRAY && ft->n == 0))
        {
          wkc_error (c, WS_KERNEL_ERROR_INVALID, st->fields[i].pos, st->fields[i].pos + 1,
                 _("the field “%s” has no size"), st->fields[i].name);
          return FALSE;
        }
      if (ft->kind == WK_TY_STRUCT && ft->st == st)
        return FALSE;
      for (guint k = 0; k < i; k++)
        if (strcmp (st->fields[k].name, st->fields[i].name) == 0)
          {
            wkc_error (c, WS_KERNEL_ERROR_INVALID, st->fields[i].pos, st->fields[i].pos + 1,
                   _("the struct “%s” has two fields named “%s”"), st->name, st->fields[i].name);
            return FALSE;
          }
      st->fields[i].type = ft;
    }
  if (!wk_struct_layout (st))
    {
      wkc_error (c, WS_KERNEL_ERROR_LIMIT, st->pos, st->pos + 6, _("the struct “%s” is larger than 1 MiB"), st->name);
      return FALSE;
    }
  return TRUE;
}

/* A type with its array lengths evaluated (where they do not depend on a
 * template parameter) and its structs laid out. */
const WkType *
wkc_resolve_type (Checker      *c,
                  const WkType *t,
                  guint         pos)
{
  if (t == NULL)
    return NULL;
  switch (t->kind)
    {
    case WK_TY_STRUCT:
      if (!wkc_resolve_struct (c, (WkStruct *) t->st, pos))
        return NULL;
      /* the parser's type of a struct learns its layout here */
      ((WkType *) t)->size = t->st->size;
      ((WkType *) t)->align = t->st->align;
      return t;
    case WK_TY_POINTER:
      {
        const WkType *e = wkc_resolve_type (c, t->elem, pos);
        if (e == NULL)
          return NULL;
        if (e == t->elem)
          return t;
        return wk_type_pointer (c->arena, e, t->quals);
      }
    case WK_TY_ARRAY:
      {
        const WkType *e = wkc_resolve_type (c, t->elem, pos);
        guint64 n = t->n;
        gboolean dependent = FALSE;
        WkType *a;

        if (e == NULL)
          return NULL;
        if (e->kind == WK_TY_VOID)
          {
            wkc_error (c, WS_KERNEL_ERROR_INVALID, pos, pos + 1, _("an array of void has no size"));
            return NULL;
          }
        if (t->n_expr != NULL && t->n == 0)
          {
            if (!const_u64 (c, t->n_expr, G_GUINT64_CONSTANT (1) << 40, &n, &dependent))
              return NULL;
          }
        if (!dependent && e->size != 0 && n > (G_GUINT64_CONSTANT (1) << 31) / e->size)
          {
            wkc_error (c, WS_KERNEL_ERROR_LIMIT, pos, pos + 1, _("an array declared in the code may have at most 2 GiB"));
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

WkExpr *
wkc_implicit (Checker      *c,
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
const WkType *
wkc_rvalue (Checker  *c,
            WkExpr  **slot)
{
  WkExpr *e = *slot;

  if (e->type == NULL)
    return NULL;
  if (e->type->kind == WK_TY_ARRAY)
    {
      *slot = wkc_implicit (c, e, wk_type_pointer (c->arena, e->type->elem, 0));
      return (*slot)->type;
    }
  return e->type;
}

gboolean
wkc_pointer_convertible (const WkType *from,
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
gboolean
wkc_convert (Checker      *c,
             WkExpr      **slot,
             const WkType *to,
             const char   *what)
{
  const WkType *from = wkc_rvalue (c, slot);
  WkExpr *e = *slot;

  if (from == NULL || to == NULL)
    return FALSE;
  if (wk_type_equal (from, to, FALSE))
    {
      if (wk_type_is_arith (to) && from->kind != to->kind)
        *slot = wkc_implicit (c, e, to);
      return TRUE;
    }
  if (wk_type_is_arith (from) && wk_type_is_arith (to))
    {
      *slot = wkc_implicit (c, e, wk_type_unqualified (c->arena, to));
      return TRUE;
    }
  if (from->kind == WK_TY_POINTER && to->kind == WK_TY_POINTER && wkc_pointer_convertible (from, to))
    {
      *slot = wkc_implicit (c, e, to);
      return TRUE;
    }
  if (from->kind == WK_TY_VECTOR && to->kind == WK_TY_VECTOR && from->elem->kind == to->elem->kind &&
      from->n == to->n)
    return TRUE;        /* uint3 and dim3 */
  {
    g_autofree char *f = wkc_type_name (from);
    g_autofree char *t = wkc_type_name (to);
    if (from->kind == WK_TY_POINTER && to->kind == WK_TY_POINTER && wk_type_equal (from->elem, to->elem, FALSE))
      wkc_error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end,
             _("%s: a pointer to const (%s) cannot become a pointer to something writable (%s)"), what, f, t);
    else
      /* Translators: the first %s says where ("the initial value of “x”"), then the two types */
      wkc_error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("%s: cannot convert %s to %s"), what, f, t);
  }
  return FALSE;
}

gboolean
wkc_need_scalar (Checker *c,
                 WkExpr **slot,
                 const char *what)
{
  const WkType *t = wkc_rvalue (c, slot);

  if (t == NULL)
    return FALSE;
  if (wk_type_is_scalar (t))
    return TRUE;
  {
    g_autofree char *tn = wkc_type_name (t);
    wkc_error (c, WS_KERNEL_ERROR_INVALID, (*slot)->start, (*slot)->end, _("%s must be a number, not %s"), what, tn);
  }
  return FALSE;
}

gboolean
wkc_need_arith (Checker    *c,
                WkExpr    **slot,
                gboolean    integer,
                const char *op)
{
  const WkType *t = wkc_rvalue (c, slot);

  if (t == NULL)
    return FALSE;
  if (integer ? wk_type_is_integer (t) : wk_type_is_arith (t))
    return TRUE;
  {
    g_autofree char *tn = wkc_type_name (t);
    if (integer)
      wkc_error (c, WS_KERNEL_ERROR_INVALID, (*slot)->start, (*slot)->end,
             _("the operator “%s” needs integers, not %s"), op, tn);
    else
      wkc_error (c, WS_KERNEL_ERROR_INVALID, (*slot)->start, (*slot)->end,
             _("the operator “%s” needs numbers, not %s"), op, tn);
  }
  return FALSE;
}

const char *
wkc_op_text (WkOp op)
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
const WkType *
wkc_common_operands (Checker *c,
                     WkExpr  *e)
{
  const WkType *t = wk_type_common (e->a->type, e->b->type);

  if (!wk_type_equal (e->a->type, t, FALSE))
    e->a = wkc_implicit (c, e->a, t);
  if (!wk_type_equal (e->b->type, t, FALSE))
    e->b = wkc_implicit (c, e->b, t);
  return t;
}

/* What an lvalue is: where a write would go, for the rules on writes. */
static gboolean
is_lvalue (const WkExpr *e)
{
  return e->lvalue;
}

gboolean
wkc_check_writable (Checker      *c,
                    const WkExpr *e,
                    const char   *op)
{
  const WkType *t = e->type;

  if (t == NULL)
    return FALSE;
  if (!is_lvalue (e))
    {
      g_autofree char *text = wkc_expr_text (c, e);
      wkc_error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("“%s” cannot be assigned to (operator “%s”)"), text, op);
      return FALSE;
    }
  if (t->kind == WK_TY_ARRAY)
    {
      g_autofree char *text = wkc_expr_text (c, e);
      wkc_error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("the array “%s” cannot be assigned to as a whole"), text);
      return FALSE;
    }
  if (t->quals & WK_Q_CONST)
    {
      g_autofree char *text = wkc_expr_text (c, e);
      wkc_error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("“%s” is const: it cannot be written"), text);
      return FALSE;
    }
  for (const WkExpr *x = e; x != NULL;)
    {
      if (x->kind == WK_E_NAME && x->sym && x->sym->kind == WK_SYM_BUILTIN)
        {
          g_autofree char *text = wkc_expr_text (c, e);
          wkc_error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("“%s” is a built-in: it cannot be written"), text);
          return FALSE;
        }
      if (x->kind == WK_E_NAME && x->sym && x->sym->storage == WK_STORE_CONSTANT)
        {
          g_autofree char *text = wkc_expr_text (c, e);
          wkc_error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end,
                 _("“%s” is in constant memory: a kernel cannot write it"), text);
          return FALSE;
        }
      x = (x->kind == WK_E_MEMBER && !x->is_arrow) || x->kind == WK_E_INDEX ? x->a : NULL;
    }
  return TRUE;
}

