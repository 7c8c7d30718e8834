/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The checker's calls: the CUDA built-ins, each with its own rules for its
 * arguments, and device functions (with their template arguments). */
#include "ws-config.h"
#include "ws-kernel-check-private.h"
#include "ws-i18n.h"

#include <glib/gi18n-lib.h>
#include <string.h>

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
    wkc_error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end,
           g_dngettext (GETTEXT_PACKAGE, "“%s” takes %u argument, not %u", "“%s” takes %u arguments, not %u", min),
           e->name, min, e->n_args);
  else
    wkc_error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("“%s” takes from %u to %u arguments, not %u"), e->name,
           min, max, e->n_args);
  return FALSE;
}

static gboolean
check_args (Checker *c,
            WkExpr  *e)
{
  gboolean ok = TRUE;

  for (guint i = 0; i < e->n_args; i++)
    if (wkc_check_expr (c, e->args[i]) == NULL)
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

  return wkc_convert (c, &e->args[i], t, what);
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
  pt = wkc_rvalue (c, &e->args[0]);
  if (pt->kind != WK_TY_POINTER)
    {
      g_autofree char *tn = wkc_type_name (pt);
      wkc_error (c, WS_KERNEL_ERROR_INVALID, e->args[0]->start, e->args[0]->end,
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
      g_autofree char *tn = wkc_type_name (t);
      wkc_error (c, WS_KERNEL_ERROR_INVALID, e->args[0]->start, e->args[0]->end, _("“%s” does not work on %s"), e->name, tn);
      return NULL;
    }
  if (t->quals & WK_Q_CONST)
    {
      g_autofree char *text = wkc_expr_text (c, e->args[0]);
      wkc_error (c, WS_KERNEL_ERROR_INVALID, e->args[0]->start, e->args[0]->end,
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
      wkc_error (c, WS_KERNEL_ERROR_LAUNCH, e->start, e->end, _("“%s” cannot be used in a launch value"), e->name);
      return NULL;
    }
  if (info->fn == WK_BF_PRINTF)
    {
      if (e->n_args == 0 || e->args[0]->kind != WK_E_STRING)
        {
          wkc_error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("printf's first argument is its format, in quotes"));
          return NULL;
        }
      e->args[0]->type = WK_TYPE (WK_TY_VOID);
      for (guint i = 1; i < e->n_args; i++)
        if (wkc_check_expr (c, e->args[i]) == NULL || !wkc_need_scalar (c, &e->args[i], _("an argument of printf")))
          return NULL;
      wk_diag_add (c->diags, WS_KERNEL_SEVERITY_NOTE, 0, e->start, e->end,
                   _("printf is printed back for the GPU, but the model and the reference print nothing"));
      return WK_TYPE (WK_TY_INT);
    }
  if (!check_args (c, e))
    return NULL;
  for (guint i = 0; i < e->n_args; i++)
    wkc_rvalue (c, &e->args[i]);

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
          g_autofree char *tn = wkc_type_name (t);
          wkc_error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end,
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
            g_autofree char *tn = wkc_type_name (e->args[1]->type);
            wkc_error (c, WS_KERNEL_ERROR_INVALID, e->args[1]->start, e->args[1]->end, _("“%s” does not move %s"),
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
              wkc_error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("“%s” takes two numbers"), e->name);
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
          wkc_error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("“%s” takes a number"), e->name);
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
      wkc_warning (c, e->start, e->end, _("“%s” counts nothing in the model: it is 0 there"), e->name);
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
  wkc_error (c, WS_KERNEL_ERROR_UNSUPPORTED, e->start, e->end,
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

const WkType *
wkc_check_call (Checker *c,
                WkExpr  *e)
{
  WkSym *sym = c->loose_mode ? NULL : wkc_lookup (c, e->name);
  const WkBuiltinInfo *info;
  WkFunc *f;

  if (sym == NULL || sym->kind != WK_SYM_FUNC)
    {
      if (sym != NULL && sym->kind != WK_SYM_BUILTIN)
        {
          wkc_error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("“%s” is not a function"), e->name);
          return NULL;
        }
      info = wk_builtin_lookup (e->name, strlen (e->name));
      if (info == NULL || (info->fn == WK_BF_RANDOM && !c->loose_mode))
        {
          if (c->loose_mode)
            wkc_error (c, WS_KERNEL_ERROR_LAUNCH, e->start, e->end,
                   _("unknown function “%s”: a launch value may call random (seed), min, max, abs and the math "
                     "functions"), e->name);
          else
            wkc_error (c, WS_KERNEL_ERROR_UNSUPPORTED, e->start, e->end,
                   _("function calls other than the CUDA built-ins are not supported (%s)"), e->name);
          return NULL;
        }
      if (e->n_targs > 0)
        {
          wkc_error (c, WS_KERNEL_ERROR_UNSUPPORTED, e->start, e->end,
                 _("template arguments of built-in functions are not supported (%s)"), e->name);
          return NULL;
        }
      return check_builtin (c, e, info);
    }

  f = sym->func;
  e->sym = sym;
  if (f->is_kernel)
    {
      wkc_error (c, WS_KERNEL_ERROR_UNSUPPORTED, e->start, e->end,
             _("launching a kernel from a kernel (dynamic parallelism) is not supported (%s)"), e->name);
      return NULL;
    }
  if (f->body == NULL)
    {
      wkc_error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end, _("the function “%s” is declared but never defined"),
             e->name);
      return NULL;
    }
  if (e->n_targs != f->n_tparams)
    {
      wkc_error (c, WS_KERNEL_ERROR_INVALID, e->start, e->end,
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

      if (wkc_check_expr (c, e->targs[i]) == NULL)
        return NULL;
      st = wk_const_eval (e->targs[i], NULL, &v, &failed);
      if (!wk_type_is_integer (e->targs[i]->type) ||
          (st != WK_CONST_OK && !(st == WK_CONST_NOT_CONSTANT && failed && failed->kind == WK_E_NAME &&
                                  failed->sym && failed->sym->kind == WK_SYM_TEMPLATE)))
        {
          wkc_error (c, WS_KERNEL_ERROR_INVALID, e->targs[i]->start, e->targs[i]->end,
                 _("a template argument must be a constant integer"));
          return NULL;
        }
    }
  if (!arg_count (c, e, f->n_params, f->n_params) || !check_args (c, e))
    return NULL;
  /* a template of types the launch has not given yet: its parameters read
   * as int for now, the arguments are held against them when it has (the
   * file is read again then) */
  if (wk_func_awaits_types (f))
    {
      note_callee (c, f);
      return wkc_resolve_type (c, f->ret, f->name_pos);
    }
  for (guint i = 0; i < e->n_args; i++)
    {
      const WkType *pt = wkc_resolve_type (c, f->params[i]->type, f->params[i]->name_pos);
      if (pt == NULL || !arg_to (c, e, i, wk_type_unqualified (c->arena, pt)))
        return NULL;
    }
  note_callee (c, f);
  return wkc_resolve_type (c, f->ret, f->name_pos);
}


