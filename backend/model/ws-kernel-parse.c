/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The parser of kernel files: recursive descent over the preprocessed
 * tokens, into the tree of ws-kernel-private.h. This file holds the tokens,
 * the nodes, types, declarators and structs; ws-kernel-parse-stmt.c the
 * statements and the top level; ws-kernel-parse-expr.c the expressions.
 *
 * What is outside the subset is named with its line and column ("goto is
 * not supported"), never a bare syntax error; a syntax error says what was
 * expected and what was found. After an error the parser skips to the next
 * statement or declaration and goes on, so that an editor gets every error.
 * Host code (functions that are neither __global__ nor __device__, host
 * variables) is skipped by matching braces, with a note. Array lengths are
 * kept as expressions: the checker evaluates them. */
#include "ws-config.h"
#include "ws-kernel-parse-private.h"
#include "ws-i18n.h"

#include <glib/gi18n-lib.h>
#include <string.h>

static WkStruct *parse_struct (Parser *p, gboolean *defined);
/* ------------------------------------------------------------------ */
/* Tokens                                                             */
/* ------------------------------------------------------------------ */

char *
wkp_tok_name (Parser        *p,
              const WkToken *t)
{
  return wk_arena_strndup (p->arena, t->text, t->len);
}

void
wkp_error_at (Parser     *p,
              int         code,
              guint       start,
              guint       end,
              const char *format,
              ...) G_GNUC_PRINTF (5, 6);

void
wkp_error_at (Parser     *p,
              int         code,
              guint       start,
              guint       end,
              const char *format,
              ...)
{
  va_list args;

  p->failed = TRUE;
  va_start (args, format);
  wk_diag_addv (p->diags, WS_KERNEL_SEVERITY_ERROR, code, start, end, format, args);
  va_end (args);
}

/* "expected what, found X" with X the token (or the end of the file). */
void
wkp_expected (Parser     *p,
              const char *what)
{
  const WkToken *t = cur (p);

  if (p->failed)
    return;
  if (t->kind == WK_TOK_EOF && p->fragment)
    /* Translators: what was wkp_expected ("an expression"), and a launch value ended */
    wkp_error_at (p, WS_KERNEL_ERROR_SYNTAX, t->start, t->end, _("expected %s, found the end of the value"), what);
  else if (t->kind == WK_TOK_EOF)
    /* Translators: what was wkp_expected ("“;” after the declaration"), and the file ended */
    wkp_error_at (p, WS_KERNEL_ERROR_SYNTAX, t->start, t->end, _("expected %s, found the end of the file"), what);
  else if (t->kind == WK_TOK_PRAGMA_UNROLL)
    wkp_error_at (p, WS_KERNEL_ERROR_SYNTAX, t->start, t->end, _("expected %s, found “#pragma”"), what);
  else
    /* Translators: what was wkp_expected ("“;” after the declaration"), and the token found instead */
    wkp_error_at (p, WS_KERNEL_ERROR_SYNTAX, t->start, t->end, _("expected %s, found “%.*s”"), what,
              (int) MIN (t->len, 40), t->text);
}

gboolean
wkp_expect (Parser     *p,
            WkPunct     punct,
            const char *what)
{
  if (accept (p, punct))
    return TRUE;
  wkp_expected (p, what);
  return FALSE;
}

/* Forgets the diagnostics made since a point (a guess that did not hold). */
void
wkp_rollback (Parser  *p,
              guint    len,
              guint    n_errors,
              gboolean failed)
{
  for (guint i = len; i < p->diags->diags->len; i++)
    g_free (g_array_index (p->diags->diags, WkDiag, i).message);
  g_array_set_size (p->diags->diags, len);
  p->diags->n_errors = n_errors;
  p->failed = failed;
}

gboolean
wkp_enter (Parser *p)
{
  if (++p->depth <= WS_KERNEL_MAX_DEPTH)
    return TRUE;
  if (!p->failed)
    wkp_error_at (p, WS_KERNEL_ERROR_LIMIT, cur (p)->start, cur (p)->end,
              _("the code is nested too deeply here: more than %d statements or operators inside one another"),
              WS_KERNEL_MAX_DEPTH);
  p->depth--;
  return FALSE;
}

/* Skips to the end of the current statement: past a ";" or a block, or
 * up to a "}" that closes an enclosing one. */
void
wkp_recover (Parser *p)
{
  guint depth = 0;

  while (cur (p)->kind != WK_TOK_EOF)
    {
      if (at (p, WK_P_LBRACE) || at (p, WK_P_LPAREN) || at (p, WK_P_LBRACKET))
        depth++;
      else if (at (p, WK_P_RPAREN) || at (p, WK_P_RBRACKET))
        {
          if (depth > 0)
            depth--;
        }
      else if (at (p, WK_P_RBRACE))
        {
          if (depth == 0)
            return;
          depth--;
          if (depth == 0)
            {
              advance (p);
              return;
            }
        }
      else if (at (p, WK_P_SEMI) && depth == 0)
        {
          advance (p);
          return;
        }
      advance (p);
    }
}
/* ------------------------------------------------------------------ */
/* Nodes                                                              */
/* ------------------------------------------------------------------ */

WkExpr *
wkp_expr_new (Parser    *p,
              WkExprKind kind,
              guint      start,
              guint      end)
{
  WkExpr *e = WK_NEW (p->arena, WkExpr);

  memset (e, 0, sizeof *e);
  e->kind = kind;
  e->start = start;
  e->end = end;
  e->pos = start;
  e->depth = 1;
  return e;
}

/* Sets a node's depth from its children: FALSE (and an error) where the
 * walks over the tree would recurse too deep. */
gboolean
wkp_expr_done (Parser *p,
               WkExpr *e)
{
  guint d = 0;

  if (e->a) d = MAX (d, e->a->depth);
  if (e->b) d = MAX (d, e->b->depth);
  if (e->c) d = MAX (d, e->c->depth);
  for (guint i = 0; i < e->n_args; i++)
    if (e->args[i])
      d = MAX (d, e->args[i]->depth);
  e->depth = (guint16) MIN (d + 1, G_MAXUINT16);
  if (d + 1 <= WS_KERNEL_MAX_DEPTH)
    return TRUE;
  if (!p->failed)
    wkp_error_at (p, WS_KERNEL_ERROR_LIMIT, e->pos, e->pos + 1,
              _("the expression is too deep: more than %d operators inside one another (in a chain such as "
                "a + b + c + …, each operator counts)"), WS_KERNEL_MAX_DEPTH);
  return FALSE;
}

WkStmt *
wkp_stmt_new (Parser    *p,
              WkStmtKind kind,
              guint      start)
{
  WkStmt *s = WK_NEW (p->arena, WkStmt);

  memset (s, 0, sizeof *s);
  s->kind = kind;
  s->start = start;
  s->pos = start;
  s->end = start;
  s->unroll = -2;
  return s;
}


/* ------------------------------------------------------------------ */
/* What cannot be read                                                */
/* ------------------------------------------------------------------ */

static const struct
{
  const char *word;
  const char *message;
} unsupported_words[] = {
  { "goto", N_("goto is not supported") },
  { "asm", N_("inline PTX (asm) is not supported") },
  { "__asm__", N_("inline PTX (asm) is not supported") },
  { "try", N_("exceptions (try) are not supported") },
  { "catch", N_("exceptions (catch) are not supported") },
  { "throw", N_("exceptions (throw) are not supported") },
  { "new", N_("new is not supported in a kernel") },
  { "delete", N_("delete is not supported in a kernel") },
  { "union", N_("unions are not supported") },
  { "class", N_("classes are not supported: use a struct of plain fields") },
  { "enum", N_("enumerations are not supported: use #define or const int") },
  { "this", N_("this is not supported: member functions are not") },
  { "operator", N_("operator overloading is not supported") },
  { "virtual", N_("virtual functions are not supported") },
  { "namespace", N_("namespaces are not supported") },
  { "dynamic_cast", N_("dynamic_cast is not supported") },
  { "typeid", N_("typeid is not supported") },
  { "__managed__", N_("managed memory (__managed__) is not supported") },
  { "cooperative_groups", N_("cooperative groups are not supported") },
  { "wmma", N_("tensor cores (wmma) are not supported") },
  { "__half", N_("half precision (__half) is not supported") },
  { "half", N_("half precision is not supported") },
  { "__nv_bfloat16", N_("bfloat16 is not supported") },
  { "texture", N_("textures are not supported") },
  { "tex1Dfetch", N_("textures are not supported") },
  { "tex2D", N_("textures are not supported") },
  { "surf2Dwrite", N_("surfaces are not supported") },
  { "__trap", N_("__trap () is not supported") },
  { "malloc", N_("malloc in a kernel is not supported") },
  { "free", N_("free in a kernel is not supported") },
  { "cudaMalloc", N_("the CUDA runtime cannot be called from a kernel (dynamic parallelism is not supported)") },
  { "long double", NULL },
};

const char *
wkp_unsupported_message (const WkToken *t)
{
  for (guint i = 0; i < G_N_ELEMENTS (unsupported_words); i++)
    if (unsupported_words[i].message != NULL && is_word (t, unsupported_words[i].word))
      return _(unsupported_words[i].message);
  return NULL;
}

void
wkp_fn_macro_error (Parser        *p,
                    const WkToken *t)
{
  g_autofree char *name = g_strndup (t->text, t->len);
  WkMacro *m = g_hash_table_lookup (p->file->macros, name);

  if (m != NULL && m->unsupported != NULL)
    wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, t->start, t->end, _("the macro “%s” cannot be expanded: %s"), name,
              _(m->unsupported));
  else if (m != NULL)
    wkp_error_at (p, WS_KERNEL_ERROR_SYNTAX, t->start, t->end,
              g_dngettext (GETTEXT_PACKAGE, "the macro “%s” takes %u argument in parentheses",
                           "the macro “%s” takes %u arguments in parentheses", m->n_params),
              name, m->n_params);
  else
    wkp_error_at (p, WS_KERNEL_ERROR_SYNTAX, t->start, t->end, _("the macro “%s” cannot be expanded here"), name);
}

/* ------------------------------------------------------------------ */
/* Types                                                              */
/* ------------------------------------------------------------------ */

static const struct
{
  const char *name;
  WkTypeKind kind;
} type_aliases[] = {
  { "size_t", WK_TY_ULONG }, { "ptrdiff_t", WK_TY_LONG }, { "ssize_t", WK_TY_LONG },
  { "int8_t", WK_TY_SCHAR }, { "uint8_t", WK_TY_UCHAR }, { "int16_t", WK_TY_SHORT },
  { "uint16_t", WK_TY_USHORT }, { "int32_t", WK_TY_INT }, { "uint32_t", WK_TY_UINT },
  { "int64_t", WK_TY_LONG }, { "uint64_t", WK_TY_ULONG }, { "uint", WK_TY_UINT },
  { "intptr_t", WK_TY_LONG }, { "uintptr_t", WK_TY_ULONG },
};

const WkType *
wkp_alias_type (const WkToken *t)
{
  for (guint i = 0; i < G_N_ELEMENTS (type_aliases); i++)
    if (is_word (t, type_aliases[i].name))
      return WK_TYPE (type_aliases[i].kind);
  return NULL;
}

static const char *basic_words[] = {
  "void", "bool", "char", "short", "int", "long", "signed", "unsigned", "float", "double", "__int64",
};

gboolean
wkp_is_basic_word (const WkToken *t)
{
  for (guint i = 0; i < G_N_ELEMENTS (basic_words); i++)
    if (is_word (t, basic_words[i]))
      return TRUE;
  return FALSE;
}

static const char *qualifier_words[] = {
  "const", "volatile", "__global__", "__device__", "__host__", "__constant__", "__shared__", "__managed__",
  "extern", "static", "inline", "__inline__", "__forceinline__", "__noinline__", "constexpr", "register",
  "__align__", "alignas", "__launch_bounds__", "auto", "struct", "typename", "__restrict__", "typedef",
};

gboolean
wkp_is_typedef_name (Parser        *p,
                     const WkToken *t)
{
  char name[WK_MAX_NAME + 1];

  if (t->kind != WK_TOK_IDENT || t->len > WK_MAX_NAME)
    return FALSE;
  memcpy (name, t->text, t->len);
  name[t->len] = '\0';
  return g_hash_table_contains (p->typedefs, name);
}

/* Whether a token can start a declaration's specifiers. */
gboolean
wkp_starts_type (Parser        *p,
                 const WkToken *t)
{
  if (t->kind != WK_TOK_IDENT)
    return FALSE;
  if (wkp_is_basic_word (t) || wkp_alias_type (t) || wk_type_vector_by_name (t->text, t->len) || wkp_is_typedef_name (p, t))
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (qualifier_words); i++)
    if (is_word (t, qualifier_words[i]))
      return TRUE;
  return FALSE;
}

static const WkType *
basic_type (Parser   *p,
            guint     start,
            guint     n_signed,
            guint     n_unsigned,
            guint     n_char,
            guint     n_short,
            guint     n_int,
            guint     n_long,
            guint     n_float,
            guint     n_double,
            guint     n_void,
            guint     n_bool)
{
  guint n_kinds = (n_char > 0) + (n_short > 0) + (n_float > 0) + (n_double > 0) + (n_void > 0) + (n_bool > 0);

  if (n_signed + n_unsigned > 1 || n_int > 1 || n_long > 2 || n_kinds > 1 || (n_short && n_long) ||
      ((n_float || n_void || n_bool) && (n_long || n_signed || n_unsigned || n_int)) ||
      (n_double && (n_signed || n_unsigned || n_int || n_long > 0)))
    {
      if (n_double && n_long == 1 && !n_signed && !n_unsigned && !n_int)
        wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, start, prev_end (p), _("long double is not supported"));
      else
        wkp_error_at (p, WS_KERNEL_ERROR_SYNTAX, start, prev_end (p), _("these type words do not make a type together"));
      return WK_TYPE (WK_TY_INT);
    }
  if (n_void) return WK_TYPE (WK_TY_VOID);
  if (n_bool) return WK_TYPE (WK_TY_BOOL);
  if (n_float) return WK_TYPE (WK_TY_FLOAT);
  if (n_double) return WK_TYPE (WK_TY_DOUBLE);
  if (n_char) return WK_TYPE (n_unsigned ? WK_TY_UCHAR : n_signed ? WK_TY_SCHAR : WK_TY_CHAR);
  if (n_short) return WK_TYPE (n_unsigned ? WK_TY_USHORT : WK_TY_SHORT);
  if (n_long == 2) return WK_TYPE (n_unsigned ? WK_TY_ULLONG : WK_TY_LLONG);
  if (n_long == 1) return WK_TYPE (n_unsigned ? WK_TY_ULONG : WK_TY_LONG);
  return WK_TYPE (n_unsigned ? WK_TY_UINT : WK_TY_INT);
}

static gboolean
parse_paren_int (Parser   *p,
                 WkExpr  **out,
                 guint     max)
{
  guint k = 0;

  if (!wkp_expect (p, WK_P_LPAREN, "“(”"))
    return FALSE;
  do
    {
      WkExpr *e = wkp_parse_assign (p);
      if (e == NULL)
        return FALSE;
      if (k < max)
        out[k] = e;
      k++;
    }
  while (accept (p, WK_P_COMMA));
  return wkp_expect (p, WK_P_RPAREN, "“)”");
}

/* The specifiers of a declaration: storage, qualifiers and the base type.
 * FALSE if there is no type (host code, or an error). */
gboolean
wkp_parse_specs (Parser *p,
                 Specs  *s,
                 gboolean allow_storage)
{
  guint n_signed = 0, n_unsigned = 0, n_char = 0, n_short = 0, n_int = 0, n_long = 0;
  guint n_float = 0, n_double = 0, n_void = 0, n_bool = 0;
  guint8 quals = 0;
  const WkType *named = NULL;
  gboolean any_basic = FALSE;

  memset (s, 0, sizeof *s);
  s->start = cur (p)->start;
  for (;;)
    {
      const WkToken *t = cur (p);
      const WkType *vt;

      if (t->kind != WK_TOK_IDENT)
        break;
      if (is_word (t, "const")) quals |= WK_Q_CONST;
      else if (is_word (t, "volatile")) quals |= WK_Q_VOLATILE;
      else if (is_word (t, "__global__")) s->global = TRUE;
      else if (is_word (t, "__device__")) s->device = TRUE;
      else if (is_word (t, "__host__")) s->host = TRUE;
      else if (is_word (t, "__constant__")) s->constant = TRUE;
      else if (is_word (t, "__shared__")) s->shared = TRUE;
      else if (is_word (t, "__managed__")) s->managed = TRUE;
      else if (is_word (t, "extern"))
        {
          if (ahead (p, 1)->kind == WK_TOK_STRING)
            {
              s->extern_c = TRUE;
              advance (p);
            }
          else
            s->is_extern = TRUE;
        }
      else if (is_word (t, "static")) s->is_static = TRUE;
      else if (is_word (t, "inline") || is_word (t, "__inline__")) s->is_inline = TRUE;
      else if (is_word (t, "__forceinline__")) s->force_inline = TRUE;
      else if (is_word (t, "__noinline__")) ;
      else if (is_word (t, "constexpr")) { s->constexpr_ = TRUE; quals |= WK_Q_CONST; }
      else if (is_word (t, "register")) ;
      else if (is_word (t, "typedef")) s->is_typedef = TRUE;
      else if (is_word (t, "auto")) s->is_auto = TRUE;
      else if (is_word (t, "__restrict__") || is_word (t, "restrict")) ;
      else if (is_word (t, "__align__") || is_word (t, "alignas"))
        {
          WkExpr *e[1] = { NULL };
          advance (p);
          if (!parse_paren_int (p, e, 1))
            return FALSE;
          if (e[0] && e[0]->kind == WK_E_INT && e[0]->v.u > 0 && e[0]->v.u <= 256 &&
              (e[0]->v.u & (e[0]->v.u - 1)) == 0)
            s->align = (guint) e[0]->v.u;
          else
            {
              wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, t->start, prev_end (p),
                        _("an alignment must be a power of two from 1 to 256, written as a number"));
              return FALSE;
            }
          continue;
        }
      else if (is_word (t, "__launch_bounds__"))
        {
          advance (p);
          if (!parse_paren_int (p, s->launch_bounds, 2))
            return FALSE;
          continue;
        }
      else if (is_word (t, "signed")) { n_signed++; any_basic = TRUE; }
      else if (is_word (t, "unsigned")) { n_unsigned++; any_basic = TRUE; }
      else if (is_word (t, "char")) { n_char++; any_basic = TRUE; }
      else if (is_word (t, "short")) { n_short++; any_basic = TRUE; }
      else if (is_word (t, "int")) { n_int++; any_basic = TRUE; }
      else if (is_word (t, "long")) { n_long++; any_basic = TRUE; }
      else if (is_word (t, "__int64")) { n_long = 2; any_basic = TRUE; }
      else if (is_word (t, "float")) { n_float++; any_basic = TRUE; }
      else if (is_word (t, "double")) { n_double++; any_basic = TRUE; }
      else if (is_word (t, "void")) { n_void++; any_basic = TRUE; }
      else if (is_word (t, "bool")) { n_bool++; any_basic = TRUE; }
      else if (is_word (t, "struct"))
        {
          gboolean defined = FALSE;
          WkStruct *st;
          WkType *ty;

          if (named != NULL || any_basic)
            break;
          st = parse_struct (p, &defined);
          if (st == NULL)
            return FALSE;
          s->struct_word = TRUE;
          s->struct_defined = defined;
          ty = WK_NEW (p->arena, WkType);
          memset (ty, 0, sizeof *ty);
          ty->kind = WK_TY_STRUCT;
          ty->st = st;
          ty->name = st->name;
          named = ty;
          continue;
        }
      else if (named == NULL && !any_basic && !s->is_auto && (vt = wk_type_vector_by_name (t->text, t->len)) != NULL)
        named = vt;
      else if (named == NULL && !any_basic && !s->is_auto && (vt = wkp_alias_type (t)) != NULL)
        named = vt;
      else if (named == NULL && !any_basic && !s->is_auto && wkp_is_typedef_name (p, t))
        {
          char *name = wkp_tok_name (p, t);
          named = g_hash_table_lookup (p->typedefs, name);
        }
      else
        break;
      advance (p);
    }

  if (!allow_storage && (s->global || s->device || s->host || s->constant || s->shared || s->is_extern ||
                         s->is_static || s->is_typedef))
    {
      wkp_error_at (p, WS_KERNEL_ERROR_SYNTAX, s->start, prev_end (p), _("a storage class is not allowed here"));
      return FALSE;
    }
  if (named != NULL && any_basic)
    {
      wkp_error_at (p, WS_KERNEL_ERROR_SYNTAX, s->start, prev_end (p), _("these type words do not make a type together"));
      return FALSE;
    }
  if (named != NULL)
    s->type = named;
  else if (any_basic)
    s->type = basic_type (p, s->start, n_signed, n_unsigned, n_char, n_short, n_int, n_long, n_float, n_double,
                          n_void, n_bool);
  else if (s->is_auto)
    s->type = NULL;
  else
    return FALSE;
  if (s->type != NULL)
    s->type = wk_type_qualified (p->arena, s->type, quals);
  return !p->failed;
}

/* A declarator over a base type: pointers with their qualifiers, the name
 * (unless abstract), and array lengths (kept as expressions). */
const WkType *
wkp_parse_declarator (Parser       *p,
                      const WkType *base,
                      gboolean      abstract,
                      const char  **name,
                      guint        *name_pos)
{
  const WkType *t = base;
  WkExpr *dims[WK_MAX_ARRAY_DIMS + 1];
  gboolean unsized[WK_MAX_ARRAY_DIMS + 1];
  guint n_dims = 0;

  *name = NULL;
  *name_pos = cur (p)->start;
  while (at (p, WK_P_STAR))
    {
      guint8 quals = 0;
      advance (p);
      for (;;)
        {
          if (at_word (p, "const")) quals |= WK_Q_CONST;
          else if (at_word (p, "volatile")) quals |= WK_Q_VOLATILE;
          else if (at_word (p, "__restrict__") || at_word (p, "restrict") || at_word (p, "__restrict"))
            quals |= WK_Q_RESTRICT;
          else
            break;
          advance (p);
        }
      if (t == NULL)
        {
          wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, *name_pos, cur (p)->start, _("auto pointers are not supported: "
                                                                                "write the type"));
          return NULL;
        }
      t = wk_type_pointer (p->arena, t, quals);
    }
  if (at (p, WK_P_AMP) || at (p, WK_P_ANDAND))
    {
      wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, cur (p)->start, cur (p)->end,
                _("references are not supported: pass a pointer or a value"));
      return NULL;
    }
  if (at (p, WK_P_LPAREN) && !abstract)
    {
      wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, cur (p)->start, cur (p)->end,
                _("function pointers and parenthesised declarators are not supported"));
      return NULL;
    }
  if (!abstract)
    {
      const WkToken *nt = cur (p);
      const char *why;

      if (nt->kind != WK_TOK_IDENT)
        {
          wkp_expected (p, _("a name"));
          return NULL;
        }
      if ((why = wkp_unsupported_message (nt)) != NULL)
        {
          wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, nt->start, nt->end, "%s", why);
          return NULL;
        }
      if (wkp_starts_type (p, nt) && !wkp_is_typedef_name (p, nt))
        {
          wkp_error_at (p, WS_KERNEL_ERROR_SYNTAX, nt->start, nt->end, _("“%.*s” is a keyword, not a name"),
                    (int) nt->len, nt->text);
          return NULL;
        }
      *name = wkp_tok_name (p, nt);
      *name_pos = nt->start;
      advance (p);
    }
  while (at (p, WK_P_LBRACKET))
    {
      guint open = cur (p)->start;
      advance (p);
      if (n_dims >= WK_MAX_ARRAY_DIMS)
        {
          wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, open, open + 1,
                    _("arrays of more than %d dimensions are not supported"), WK_MAX_ARRAY_DIMS);
          return NULL;
        }
      if (at (p, WK_P_RBRACKET))
        {
          dims[n_dims] = NULL;
          unsized[n_dims++] = TRUE;
        }
      else
        {
          WkExpr *e = wkp_parse_assign (p);
          if (e == NULL)
            return NULL;
          dims[n_dims] = e;
          unsized[n_dims++] = FALSE;
        }
      if (!wkp_expect (p, WK_P_RBRACKET, "“]”"))
        return NULL;
    }
  if (t == NULL && n_dims > 0)
    {
      wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, *name_pos, prev_end (p),
                _("auto arrays are not supported: write the element type"));
      return NULL;
    }
  for (guint k = n_dims; k-- > 0;)
    {
      WkType *a = (WkType *) wk_type_array (p->arena, t, 0);
      a->n_expr = unsized[k] ? NULL : dims[k];
      if (unsized[k] && k > 0)
        {
          wkp_error_at (p, WS_KERNEL_ERROR_SYNTAX, *name_pos, prev_end (p),
                    _("only the first length of an array may be left out"));
          return NULL;
        }
      t = a;
    }
  return t;
}

/* A type name in a cast or sizeof: specifiers and an abstract declarator. */
const WkType *
wkp_parse_type_name (Parser *p)
{
  Specs s;
  const char *name;
  guint pos;

  if (!wkp_parse_specs (p, &s, FALSE) || s.type == NULL)
    {
      if (!p->failed)
        wkp_expected (p, _("a type"));
      return NULL;
    }
  return wkp_parse_declarator (p, s.type, TRUE, &name, &pos);
}

/* ------------------------------------------------------------------ */
/* Structs                                                            */
/* ------------------------------------------------------------------ */

/* In C++ a struct's name is a type's name. */
void
wkp_register_struct (Parser   *p,
                     WkStruct *st)
{
  WkType *ty = WK_NEW (p->arena, WkType);

  memset (ty, 0, sizeof *ty);
  ty->kind = WK_TY_STRUCT;
  ty->st = st;
  ty->name = st->name;
  g_hash_table_insert (p->structs, (gpointer) st->name, st);
  if (!g_hash_table_contains (p->typedefs, st->name))
    g_hash_table_insert (p->typedefs, (gpointer) st->name, ty);
}

static WkStruct *
parse_struct (Parser   *p,
              gboolean *defined)
{
  const WkToken *kw = cur (p);
  WkStruct *st = NULL;
  const char *name = NULL;
  guint pos = kw->start;
  guint explicit_align = 0;
  g_autoptr (GArray) fields = NULL;

  advance (p);
  *defined = FALSE;
  while (at_word (p, "__align__") || at_word (p, "alignas"))
    {
      WkExpr *e[1] = { NULL };
      guint at_pos = cur (p)->start;
      advance (p);
      if (!parse_paren_int (p, e, 1))
        return NULL;
      if (!(e[0] && e[0]->kind == WK_E_INT && e[0]->v.u > 0 && e[0]->v.u <= 256 && (e[0]->v.u & (e[0]->v.u - 1)) == 0))
        {
          wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, at_pos, prev_end (p),
                    _("an alignment must be a power of two from 1 to 256, written as a number"));
          return NULL;
        }
      explicit_align = (guint) e[0]->v.u;
    }
  if (cur (p)->kind == WK_TOK_IDENT)
    {
      const WkToken *t = cur (p);

      /* `struct int4 { … }` redefines CUDA's own int4 (nvcc refuses it),
       * `struct float` is not a name at all */
      if (wkp_is_basic_word (t) || wkp_alias_type (t) || wk_type_vector_by_name (t->text, t->len))
        {
          wkp_error_at (p, WS_KERNEL_ERROR_INVALID, t->start, t->end,
                        _("“%.*s” is a type of CUDA's own: a struct cannot take its name"), (int) t->len, t->text);
          /* host code could not either: said, not skipped as host code */
          p->wrong_anywhere = TRUE;
          return NULL;
        }
      /* `struct __global__ { … }`: a word of the language, not a name (found
       * by fuzz-kernel: read as a struct named so, printed as a parameter's
       * type that does not read back) */
      for (guint i = 0; i < G_N_ELEMENTS (qualifier_words); i++)
        if (is_word (t, qualifier_words[i]))
          {
            wkp_error_at (p, WS_KERNEL_ERROR_INVALID, t->start, t->end,
                          _("“%.*s” is a word of the language: a struct cannot take it as its name"), (int) t->len,
                          t->text);
            p->wrong_anywhere = TRUE;
            return NULL;
          }
      name = wkp_tok_name (p, t);
      pos = t->start;
      advance (p);
      st = g_hash_table_lookup (p->structs, name);
    }
  if (!at (p, WK_P_LBRACE))
    {
      if (name == NULL)
        {
          wkp_expected (p, _("the name of the struct or “{”"));
          return NULL;
        }
      if (st == NULL)
        {
          /* a declaration ahead of the definition */
          st = WK_NEW (p->arena, WkStruct);
          memset (st, 0, sizeof *st);
          st->name = name;
          st->pos = pos;
          wkp_register_struct (p, st);
        }
      return st;
    }
  if (st != NULL && st->complete)
    {
      wkp_error_at (p, WS_KERNEL_ERROR_INVALID, pos, pos + (guint) strlen (name), _("the struct “%s” is defined twice"),
                name);
      p->wrong_anywhere = TRUE;
      return NULL;
    }
  if (st == NULL)
    {
      st = WK_NEW (p->arena, WkStruct);
      memset (st, 0, sizeof *st);
      st->name = name;
      st->pos = pos;
      if (name != NULL)
        wkp_register_struct (p, st);
    }
  st->explicit_align = explicit_align;
  advance (p);
  fields = g_array_new (FALSE, TRUE, sizeof (WkField));
  while (!at (p, WK_P_RBRACE))
    {
      Specs s;
      guint start = cur (p)->start;

      if (cur (p)->kind == WK_TOK_EOF)
        {
          wkp_expected (p, _("“}” to close the struct"));
          return NULL;
        }
      if (!wkp_parse_specs (p, &s, FALSE) || s.type == NULL)
        {
          const char *why = wkp_unsupported_message (cur (p));
          if (why != NULL)
            wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, cur (p)->start, cur (p)->end, "%s", why);
          else if (!p->failed)
            wkp_expected (p, _("the type of a field"));
          return NULL;
        }
      do
        {
          WkField f = { 0 };
          const WkType *ft = wkp_parse_declarator (p, s.type, FALSE, &f.name, &f.pos);
          if (ft == NULL)
            return NULL;
          if (at (p, WK_P_LPAREN))
            {
              wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, f.pos, cur (p)->end,
                        _("member functions are not supported: a struct holds plain fields"));
              return NULL;
            }
          if (at (p, WK_P_COLON))
            {
              wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, f.pos, cur (p)->end, _("bit fields are not supported"));
              return NULL;
            }
          if (at (p, WK_P_ASSIGN))
            {
              wkp_error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, f.pos, cur (p)->end,
                        _("default values of fields are not supported"));
              return NULL;
            }
          f.type = ft;
          if (fields->len >= WK_MAX_FIELDS)
            {
              wkp_error_at (p, WS_KERNEL_ERROR_LIMIT, start, prev_end (p), _("a struct may have at most %d fields"),
                        WK_MAX_FIELDS);
              return NULL;
            }
          g_array_append_val (fields, f);
        }
      while (accept (p, WK_P_COMMA));
      if (!wkp_expect (p, WK_P_SEMI, _("“;” after the field")))
        return NULL;
    }
  advance (p);
  st->n_fields = fields->len;
  st->fields = WK_NEWV (p->arena, WkField, MAX (fields->len, 1));
  if (fields->len > 0)
    memcpy (st->fields, fields->data, fields->len * sizeof (WkField));
  st->complete = TRUE;
  *defined = TRUE;
  return st;
}
