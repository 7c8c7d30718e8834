/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The parser of kernel files: recursive descent over the preprocessed
 * tokens, into the tree of ws-kernel-private.h.
 *
 * What is outside the subset is named with its line and column ("goto is
 * not supported"), never a bare syntax error; a syntax error says what was
 * expected and what was found. After an error the parser skips to the next
 * statement or declaration and goes on, so that an editor gets every error.
 * Host code (functions that are neither __global__ nor __device__, host
 * variables) is skipped by matching braces, with a note. Array lengths are
 * kept as expressions: the checker evaluates them. */
#include "ws-config.h"
#include "ws-kernel-private.h"
#include "ws-i18n.h"

#include <glib/gi18n-lib.h>
#include <string.h>

typedef struct
{
  WsKernelFile *file;
  WkArena *arena;
  WkDiags *diags;
  const WkToken *toks;
  guint n;
  guint i;
  guint depth;
  GHashTable *typedefs;         /* name → const WkType * */
  GHashTable *structs;          /* name → WkStruct * */
  WkFunc *func;                 /* the function being read */
  GHashTable *tparams;          /* its template parameters: name → WkTemplateParam * */
  gboolean failed;              /* the current construct had an error: skip it */
  gboolean fragment;            /* a value of the launch, not a file */
} Parser;

typedef struct
{
  guint start;
  const WkType *type;
  gboolean global, device, host, constant, shared, managed, is_extern, is_static, is_inline;
  gboolean force_inline, constexpr_, is_auto, is_typedef, extern_c;
  guint align;
  WkExpr *launch_bounds[2];
} Specs;

static WkExpr *parse_expr (Parser *p);
static WkExpr *parse_assign (Parser *p);
static WkExpr *parse_unary (Parser *p);
static WkStmt *parse_statement (Parser *p);
static WkStruct *parse_struct (Parser *p, gboolean *defined);

/* ------------------------------------------------------------------ */
/* Tokens                                                             */
/* ------------------------------------------------------------------ */

static inline const WkToken *
cur (Parser *p)
{
  return &p->toks[p->i];
}

static inline const WkToken *
ahead (Parser *p,
       guint   k)
{
  return &p->toks[MIN (p->i + k, p->n - 1)];
}

static inline void
advance (Parser *p)
{
  if (p->toks[p->i].kind != WK_TOK_EOF)
    p->i++;
}

static inline gboolean
is_punct (const WkToken *t,
          WkPunct        punct)
{
  return t->kind == WK_TOK_PUNCT && t->punct == punct;
}

static inline gboolean
at (Parser *p,
    WkPunct punct)
{
  return is_punct (cur (p), punct);
}

static inline gboolean
is_word (const WkToken *t,
         const char    *word)
{
  return t->kind == WK_TOK_IDENT && t->len == strlen (word) && memcmp (t->text, word, t->len) == 0;
}

static inline gboolean
at_word (Parser     *p,
         const char *word)
{
  return is_word (cur (p), word);
}

static gboolean
accept (Parser *p,
        WkPunct punct)
{
  if (!at (p, punct))
    return FALSE;
  advance (p);
  return TRUE;
}

static char *
tok_name (Parser        *p,
          const WkToken *t)
{
  return wk_arena_strndup (p->arena, t->text, t->len);
}

static void
error_at (Parser     *p,
          int         code,
          guint       start,
          guint       end,
          const char *format,
          ...) G_GNUC_PRINTF (5, 6);

static void
error_at (Parser     *p,
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
static void
expected (Parser     *p,
          const char *what)
{
  const WkToken *t = cur (p);

  if (p->failed)
    return;
  if (t->kind == WK_TOK_EOF && p->fragment)
    /* Translators: what was expected ("an expression"), and a launch value ended */
    error_at (p, WS_KERNEL_ERROR_SYNTAX, t->start, t->end, _("expected %s, found the end of the value"), what);
  else if (t->kind == WK_TOK_EOF)
    /* Translators: what was expected ("“;” after the declaration"), and the file ended */
    error_at (p, WS_KERNEL_ERROR_SYNTAX, t->start, t->end, _("expected %s, found the end of the file"), what);
  else if (t->kind == WK_TOK_PRAGMA_UNROLL)
    error_at (p, WS_KERNEL_ERROR_SYNTAX, t->start, t->end, _("expected %s, found “#pragma”"), what);
  else
    /* Translators: what was expected ("“;” after the declaration"), and the token found instead */
    error_at (p, WS_KERNEL_ERROR_SYNTAX, t->start, t->end, _("expected %s, found “%.*s”"), what,
              (int) MIN (t->len, 40), t->text);
}

static gboolean
expect (Parser     *p,
        WkPunct     punct,
        const char *what)
{
  if (accept (p, punct))
    return TRUE;
  expected (p, what);
  return FALSE;
}

/* Forgets the diagnostics made since a point (a guess that did not hold). */
static void
rollback (Parser  *p,
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

static gboolean
enter (Parser *p)
{
  if (++p->depth <= WS_KERNEL_MAX_DEPTH)
    return TRUE;
  if (!p->failed)
    error_at (p, WS_KERNEL_ERROR_LIMIT, cur (p)->start, cur (p)->end,
              _("the code is nested too deeply here: more than %d statements or operators inside one another"),
              WS_KERNEL_MAX_DEPTH);
  p->depth--;
  return FALSE;
}

static inline void
leave (Parser *p)
{
  p->depth--;
}

/* Skips to the end of the current statement: past a ";" or a block, or
 * up to a "}" that closes an enclosing one. */
static void
recover (Parser *p)
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

static WkExpr *
expr_new (Parser    *p,
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
static gboolean
expr_done (Parser *p,
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
    error_at (p, WS_KERNEL_ERROR_LIMIT, e->pos, e->pos + 1,
              _("the expression is too deep: more than %d operators inside one another (in a chain such as "
                "a + b + c + …, each operator counts)"), WS_KERNEL_MAX_DEPTH);
  return FALSE;
}

static WkStmt *
stmt_new (Parser    *p,
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

static guint
prev_end (Parser *p)
{
  return p->i > 0 ? p->toks[p->i - 1].end : cur (p)->start;
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

static const char *
unsupported_message (const WkToken *t)
{
  for (guint i = 0; i < G_N_ELEMENTS (unsupported_words); i++)
    if (unsupported_words[i].message != NULL && is_word (t, unsupported_words[i].word))
      return _(unsupported_words[i].message);
  return NULL;
}

static void
fn_macro_error (Parser        *p,
                const WkToken *t)
{
  g_autofree char *name = g_strndup (t->text, t->len);
  WkMacro *m = g_hash_table_lookup (p->file->macros, name);

  if (m != NULL && m->unsupported != NULL)
    error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, t->start, t->end, _("the macro “%s” cannot be expanded: %s"), name,
              _(m->unsupported));
  else if (m != NULL)
    error_at (p, WS_KERNEL_ERROR_SYNTAX, t->start, t->end,
              g_dngettext (GETTEXT_PACKAGE, "the macro “%s” takes %u argument in parentheses",
                           "the macro “%s” takes %u arguments in parentheses", m->n_params),
              name, m->n_params);
  else
    error_at (p, WS_KERNEL_ERROR_SYNTAX, t->start, t->end, _("the macro “%s” cannot be expanded here"), name);
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

static const WkType *
alias_type (const WkToken *t)
{
  for (guint i = 0; i < G_N_ELEMENTS (type_aliases); i++)
    if (is_word (t, type_aliases[i].name))
      return WK_TYPE (type_aliases[i].kind);
  return NULL;
}

static const char *basic_words[] = {
  "void", "bool", "char", "short", "int", "long", "signed", "unsigned", "float", "double", "__int64",
};

static gboolean
is_basic_word (const WkToken *t)
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

static gboolean
is_typedef_name (Parser        *p,
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
static gboolean
starts_type (Parser        *p,
             const WkToken *t)
{
  if (t->kind != WK_TOK_IDENT)
    return FALSE;
  if (is_basic_word (t) || alias_type (t) || wk_type_vector_by_name (t->text, t->len) || is_typedef_name (p, t))
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
        error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, start, prev_end (p), _("long double is not supported"));
      else
        error_at (p, WS_KERNEL_ERROR_SYNTAX, start, prev_end (p), _("these type words do not make a type together"));
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

  if (!expect (p, WK_P_LPAREN, "“(”"))
    return FALSE;
  do
    {
      WkExpr *e = parse_assign (p);
      if (e == NULL)
        return FALSE;
      if (k < max)
        out[k] = e;
      k++;
    }
  while (accept (p, WK_P_COMMA));
  return expect (p, WK_P_RPAREN, "“)”");
}

/* The specifiers of a declaration: storage, qualifiers and the base type.
 * FALSE if there is no type (host code, or an error). */
static gboolean
parse_specs (Parser *p,
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
              error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, t->start, prev_end (p),
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
      else if (named == NULL && !any_basic && !s->is_auto && (vt = alias_type (t)) != NULL)
        named = vt;
      else if (named == NULL && !any_basic && !s->is_auto && is_typedef_name (p, t))
        {
          char *name = tok_name (p, t);
          named = g_hash_table_lookup (p->typedefs, name);
        }
      else
        break;
      advance (p);
    }

  if (!allow_storage && (s->global || s->device || s->host || s->constant || s->shared || s->is_extern ||
                         s->is_static || s->is_typedef))
    {
      error_at (p, WS_KERNEL_ERROR_SYNTAX, s->start, prev_end (p), _("a storage class is not allowed here"));
      return FALSE;
    }
  if (named != NULL && any_basic)
    {
      error_at (p, WS_KERNEL_ERROR_SYNTAX, s->start, prev_end (p), _("these type words do not make a type together"));
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
static const WkType *
parse_declarator (Parser       *p,
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
          error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, *name_pos, cur (p)->start, _("auto pointers are not supported: "
                                                                                "write the type"));
          return NULL;
        }
      t = wk_type_pointer (p->arena, t, quals);
    }
  if (at (p, WK_P_AMP) || at (p, WK_P_ANDAND))
    {
      error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, cur (p)->start, cur (p)->end,
                _("references are not supported: pass a pointer or a value"));
      return NULL;
    }
  if (at (p, WK_P_LPAREN) && !abstract)
    {
      error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, cur (p)->start, cur (p)->end,
                _("function pointers and parenthesised declarators are not supported"));
      return NULL;
    }
  if (!abstract)
    {
      const WkToken *nt = cur (p);
      const char *why;

      if (nt->kind != WK_TOK_IDENT)
        {
          expected (p, _("a name"));
          return NULL;
        }
      if ((why = unsupported_message (nt)) != NULL)
        {
          error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, nt->start, nt->end, "%s", why);
          return NULL;
        }
      if (starts_type (p, nt) && !is_typedef_name (p, nt))
        {
          error_at (p, WS_KERNEL_ERROR_SYNTAX, nt->start, nt->end, _("“%.*s” is a keyword, not a name"),
                    (int) nt->len, nt->text);
          return NULL;
        }
      *name = tok_name (p, nt);
      *name_pos = nt->start;
      advance (p);
    }
  while (at (p, WK_P_LBRACKET))
    {
      guint open = cur (p)->start;
      advance (p);
      if (n_dims >= WK_MAX_ARRAY_DIMS)
        {
          error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, open, open + 1,
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
          WkExpr *e = parse_assign (p);
          if (e == NULL)
            return NULL;
          dims[n_dims] = e;
          unsized[n_dims++] = FALSE;
        }
      if (!expect (p, WK_P_RBRACKET, "“]”"))
        return NULL;
    }
  if (t == NULL && n_dims > 0)
    {
      error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, *name_pos, prev_end (p),
                _("auto arrays are not supported: write the element type"));
      return NULL;
    }
  for (guint k = n_dims; k-- > 0;)
    {
      WkType *a = (WkType *) wk_type_array (p->arena, t, 0);
      a->n_expr = unsized[k] ? NULL : dims[k];
      if (unsized[k] && k > 0)
        {
          error_at (p, WS_KERNEL_ERROR_SYNTAX, *name_pos, prev_end (p),
                    _("only the first length of an array may be left out"));
          return NULL;
        }
      t = a;
    }
  return t;
}

/* A type name in a cast or sizeof: specifiers and an abstract declarator. */
static const WkType *
parse_type_name (Parser *p)
{
  Specs s;
  const char *name;
  guint pos;

  if (!parse_specs (p, &s, FALSE) || s.type == NULL)
    {
      if (!p->failed)
        expected (p, _("a type"));
      return NULL;
    }
  return parse_declarator (p, s.type, TRUE, &name, &pos);
}

/* ------------------------------------------------------------------ */
/* Structs                                                            */
/* ------------------------------------------------------------------ */

/* In C++ a struct's name is a type's name. */
static void
register_struct (Parser   *p,
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
          error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, at_pos, prev_end (p),
                    _("an alignment must be a power of two from 1 to 256, written as a number"));
          return NULL;
        }
      explicit_align = (guint) e[0]->v.u;
    }
  if (cur (p)->kind == WK_TOK_IDENT)
    {
      name = tok_name (p, cur (p));
      pos = cur (p)->start;
      advance (p);
      st = g_hash_table_lookup (p->structs, name);
    }
  if (!at (p, WK_P_LBRACE))
    {
      if (name == NULL)
        {
          expected (p, _("the name of the struct or “{”"));
          return NULL;
        }
      if (st == NULL)
        {
          /* a declaration ahead of the definition */
          st = WK_NEW (p->arena, WkStruct);
          memset (st, 0, sizeof *st);
          st->name = name;
          st->pos = pos;
          register_struct (p, st);
        }
      return st;
    }
  if (st != NULL && st->complete)
    {
      error_at (p, WS_KERNEL_ERROR_INVALID, pos, pos + (guint) strlen (name), _("the struct “%s” is defined twice"),
                name);
      return NULL;
    }
  if (st == NULL)
    {
      st = WK_NEW (p->arena, WkStruct);
      memset (st, 0, sizeof *st);
      st->name = name;
      st->pos = pos;
      if (name != NULL)
        register_struct (p, st);
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
          expected (p, _("“}” to close the struct"));
          return NULL;
        }
      if (!parse_specs (p, &s, FALSE) || s.type == NULL)
        {
          const char *why = unsupported_message (cur (p));
          if (why != NULL)
            error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, cur (p)->start, cur (p)->end, "%s", why);
          else if (!p->failed)
            expected (p, _("the type of a field"));
          return NULL;
        }
      do
        {
          WkField f = { 0 };
          const WkType *ft = parse_declarator (p, s.type, FALSE, &f.name, &f.pos);
          if (ft == NULL)
            return NULL;
          if (at (p, WK_P_LPAREN))
            {
              error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, f.pos, cur (p)->end,
                        _("member functions are not supported: a struct holds plain fields"));
              return NULL;
            }
          if (at (p, WK_P_COLON))
            {
              error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, f.pos, cur (p)->end, _("bit fields are not supported"));
              return NULL;
            }
          if (at (p, WK_P_ASSIGN))
            {
              error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, f.pos, cur (p)->end,
                        _("default values of fields are not supported"));
              return NULL;
            }
          f.type = ft;
          if (fields->len >= WK_MAX_FIELDS)
            {
              error_at (p, WS_KERNEL_ERROR_LIMIT, start, prev_end (p), _("a struct may have at most %d fields"),
                        WK_MAX_FIELDS);
              return NULL;
            }
          g_array_append_val (fields, f);
        }
      while (accept (p, WK_P_COMMA));
      if (!expect (p, WK_P_SEMI, _("“;” after the field")))
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

/* ------------------------------------------------------------------ */
/* Expressions                                                        */
/* ------------------------------------------------------------------ */

static WkExpr *
parse_args (Parser  *p,
            WkExpr  *call)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();

  if (!at (p, WK_P_RPAREN))
    do
      {
        WkExpr *a = parse_assign (p);
        if (a == NULL)
          return NULL;
        if (args->len >= WK_MAX_PARAMS)
          {
            error_at (p, WS_KERNEL_ERROR_LIMIT, a->start, a->end, _("a call may have at most %d arguments"),
                      WK_MAX_PARAMS);
            return NULL;
          }
        g_ptr_array_add (args, a);
      }
    while (accept (p, WK_P_COMMA));
  if (!at (p, WK_P_RPAREN))
    {
      expected (p, _("“,” or “)” after an argument"));
      return NULL;
    }
  call->end = cur (p)->end;
  advance (p);
  call->n_args = args->len;
  call->args = WK_NEWV (p->arena, WkExpr *, MAX (args->len, 1));
  for (guint i = 0; i < args->len; i++)
    call->args[i] = args->pdata[i];
  return call;
}

static gboolean
is_template_func (Parser        *p,
                  const WkToken *t)
{
  char name[WK_MAX_NAME + 1];
  WkSym *sym;

  if (t->kind != WK_TOK_IDENT || t->len > WK_MAX_NAME)
    return FALSE;
  memcpy (name, t->text, t->len);
  name[t->len] = '\0';
  sym = g_hash_table_lookup (p->file->file_scope, name);
  return sym != NULL && sym->kind == WK_SYM_FUNC && sym->func->n_tparams > 0;
}

static WkExpr *
parse_primary (Parser *p)
{
  const WkToken *t = cur (p);
  WkExpr *e;

  switch (t->kind)
    {
    case WK_TOK_INT:
    case WK_TOK_CHAR:
      e = expr_new (p, WK_E_INT, t->start, t->end);
      e->v.u = t->ival;
      /* the literal's type: C++'s rules, long being 64 bits */
      if (t->kind == WK_TOK_CHAR)
        e->type = WK_TYPE (WK_TY_CHAR);
      else if (t->n_long == 0 && t->is_unsigned)
        e->type = WK_TYPE (t->ival <= G_MAXUINT32 ? WK_TY_UINT : WK_TY_ULONG);
      else if (t->n_long == 0 && t->ival <= G_MAXINT32)
        e->type = WK_TYPE (WK_TY_INT);
      else if (t->n_long == 0 && t->is_hex && t->ival <= G_MAXUINT32)
        e->type = WK_TYPE (WK_TY_UINT);
      else if (t->is_unsigned)
        e->type = WK_TYPE (t->n_long == 2 ? WK_TY_ULLONG : WK_TY_ULONG);
      else if (t->ival <= G_MAXINT64)
        e->type = WK_TYPE (t->n_long == 2 ? WK_TY_LLONG : WK_TY_LONG);
      else if (t->is_hex)
        e->type = WK_TYPE (t->n_long == 2 ? WK_TY_ULLONG : WK_TY_ULONG);
      else
        {
          error_at (p, WS_KERNEL_ERROR_INVALID, t->start, t->end,
                    _("the number “%.*s” is too large for a signed 64-bit integer: add the suffix u"),
                    (int) t->len, t->text);
          return NULL;
        }
      advance (p);
      return e;
    case WK_TOK_FLOAT:
      e = expr_new (p, WK_E_FLOAT, t->start, t->end);
      e->v.f = t->is_float ? (double) (float) t->fval : t->fval;
      e->type = WK_TYPE (t->is_float ? WK_TY_FLOAT : WK_TY_DOUBLE);
      advance (p);
      return e;
    case WK_TOK_STRING:
      {
        GString *s = g_string_new (NULL);
        e = expr_new (p, WK_E_STRING, t->start, t->end);
        while (cur (p)->kind == WK_TOK_STRING)
          {
            if (s->len > 0)
              g_string_append_c (s, ' ');
            g_string_append_len (s, cur (p)->text, cur (p)->len);
            e->end = cur (p)->end;
            advance (p);
          }
        e->name = wk_arena_strndup (p->arena, s->str, s->len);
        g_string_free (s, TRUE);
        return e;
      }
    case WK_TOK_PUNCT:
      if (t->punct == WK_P_LPAREN)
        {
          guint open = t->start;
          advance (p);
          e = parse_expr (p);
          if (e == NULL)
            return NULL;
          if (!at (p, WK_P_RPAREN))
            {
              expected (p, _("“)” to close the “(”"));
              return NULL;
            }
          e->paren = 1;
          e->start = open;
          e->end = cur (p)->end;
          advance (p);
          return e;
        }
      if (t->punct == WK_P_COLONCOLON && ahead (p, 1)->kind == WK_TOK_IDENT)
        {
          /* ::min (…): the global namespace is where everything is */
          advance (p);
          return parse_primary (p);
        }
      if (t->punct == WK_P_LBRACE)
        {
          error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, t->start, t->end,
                    _("a list in braces is only supported as the initial value of a declaration"));
          return NULL;
        }
      expected (p, _("an expression"));
      return NULL;
    case WK_TOK_IDENT:
      break;
    default:
      expected (p, _("an expression"));
      return NULL;
    }

  /* names, keywords that are expressions, casts written as calls */
  {
    const char *why;

    if (t->fn_macro)
      {
        fn_macro_error (p, t);
        return NULL;
      }
    if (is_word (t, "true") || is_word (t, "false"))
      {
        e = expr_new (p, WK_E_BOOL, t->start, t->end);
        e->v.u = is_word (t, "true");
        e->type = WK_TYPE (WK_TY_BOOL);
        advance (p);
        return e;
      }
    if (is_word (t, "nullptr") || is_word (t, "NULL"))
      {
        error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, t->start, t->end,
                  _("null pointers are not supported: a pointer points into an array"));
        return NULL;
      }
    if (is_word (t, "static_cast") || is_word (t, "reinterpret_cast") || is_word (t, "const_cast"))
      {
        WkCastStyle style = is_word (t, "static_cast") ? WK_CAST_STATIC :
                            is_word (t, "reinterpret_cast") ? WK_CAST_REINTERPRET : WK_CAST_CONST;
        const WkType *ty;
        WkExpr *x;

        advance (p);
        if (!expect (p, WK_P_LT, "“<”"))
          return NULL;
        ty = parse_type_name (p);
        if (ty == NULL)
          return NULL;
        if (!expect (p, WK_P_GT, "“>”") || !expect (p, WK_P_LPAREN, "“(”"))
          return NULL;
        x = parse_expr (p);
        if (x == NULL)
          return NULL;
        if (!at (p, WK_P_RPAREN))
          {
            expected (p, _("“)” to close the cast"));
            return NULL;
          }
        e = expr_new (p, WK_E_CAST, t->start, cur (p)->end);
        advance (p);
        e->cast_type = ty;
        e->cast_style = style;
        e->a = x;
        return expr_done (p, e) ? e : NULL;
      }
    if ((why = unsupported_message (t)) != NULL)
      {
        error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, t->start, t->end, "%s", why);
        return NULL;
      }
    if (is_word (t, "std") && is_punct (ahead (p, 1), WK_P_COLONCOLON))
      {
        error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, t->start, ahead (p, 2)->end,
                  _("the C++ standard library (std::) is not supported: use CUDA's functions (min, max, sqrtf…)"));
        return NULL;
      }
    if (is_word (t, "sizeof"))
      {
        guint start = t->start;
        advance (p);
        if (at (p, WK_P_LPAREN) && starts_type (p, ahead (p, 1)))
          {
            const WkType *ty;
            advance (p);
            ty = parse_type_name (p);
            if (ty == NULL)
              return NULL;
            if (!at (p, WK_P_RPAREN))
              {
                expected (p, _("“)” to close sizeof"));
                return NULL;
              }
            e = expr_new (p, WK_E_SIZEOF, start, cur (p)->end);
            advance (p);
            e->cast_type = ty;
            return e;
          }
        e = expr_new (p, WK_E_SIZEOF, start, start);
        e->a = parse_unary (p);
        if (e->a == NULL)
          return NULL;
        e->end = e->a->end;
        return expr_done (p, e) ? e : NULL;
      }
    /* T (x): a functional cast of a scalar type */
    if ((is_basic_word (t) || alias_type (t) || is_typedef_name (p, t)) && !is_word (t, "void"))
      {
        const WkType *ty;
        guint start = t->start;

        if (is_basic_word (t))
          {
            Specs s;
            if (!parse_specs (p, &s, FALSE) || s.type == NULL)
              return NULL;
            ty = s.type;
          }
        else
          {
            ty = alias_type (t);
            if (ty == NULL)
              ty = g_hash_table_lookup (p->typedefs, tok_name (p, t));
            advance (p);
          }
        if (!at (p, WK_P_LPAREN))
          {
            expected (p, _("“(” after the type (a cast is written (T) x or T (x))"));
            return NULL;
          }
        advance (p);
        e = expr_new (p, WK_E_CAST, start, start);
        e->a = parse_expr (p);
        if (e->a == NULL)
          return NULL;
        if (!at (p, WK_P_RPAREN))
          {
            expected (p, _("“)” to close the cast"));
            return NULL;
          }
        e->end = cur (p)->end;
        advance (p);
        e->cast_type = ty;
        e->cast_style = WK_CAST_FUNCTIONAL;
        return expr_done (p, e) ? e : NULL;
      }
    if (starts_type (p, t))
      {
        error_at (p, WS_KERNEL_ERROR_SYNTAX, t->start, t->end,
                  _("a declaration of “%.*s” is not allowed here: a declaration is a statement of its own"),
                  (int) t->len, t->text);
        return NULL;
      }

    e = expr_new (p, WK_E_NAME, t->start, t->end);
    e->name = tok_name (p, t);
    advance (p);
    if (at (p, WK_P_SHL) && is_punct (ahead (p, 1), WK_P_LT))
      {
        error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, t->start, ahead (p, 1)->end,
                  _("launching a kernel from a kernel (dynamic parallelism) is not supported (%s)"), e->name);
        return NULL;
      }
    /* a template function's arguments: name<…>(…) */
    if (at (p, WK_P_LT) && is_template_func (p, t))
      {
        g_autoptr (GPtrArray) targs = g_ptr_array_new ();
        advance (p);
        do
          {
            /* an argument stops at ">", not at the greater-than operator */
            WkExpr *a = parse_unary (p);
            if (a == NULL)
              return NULL;
            g_ptr_array_add (targs, a);
          }
        while (accept (p, WK_P_COMMA));
        if (!expect (p, WK_P_GT, _("“>” to close the template's arguments")))
          return NULL;
        if (!at (p, WK_P_LPAREN))
          {
            expected (p, "“(”");
            return NULL;
          }
        e->n_targs = targs->len;
        e->targs = WK_NEWV (p->arena, WkExpr *, targs->len);
        for (guint i = 0; i < targs->len; i++)
          e->targs[i] = targs->pdata[i];
      }
    return e;
  }
}

static WkExpr *
parse_postfix (Parser *p)
{
  WkExpr *e = parse_primary (p);

  while (e != NULL)
    {
      const WkToken *t = cur (p);
      WkExpr *n;

      if (is_punct (t, WK_P_LBRACKET))
        {
          advance (p);
          n = expr_new (p, WK_E_INDEX, e->start, t->end);
          n->pos = t->start;
          n->a = e;
          n->b = parse_expr (p);
          if (n->b == NULL)
            return NULL;
          if (!at (p, WK_P_RBRACKET))
            {
              expected (p, _("“]” to close the index"));
              return NULL;
            }
          n->end = cur (p)->end;
          advance (p);
        }
      else if (is_punct (t, WK_P_LPAREN))
        {
          if (e->kind != WK_E_NAME)
            {
              error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, t->start, t->end,
                        _("only functions may be called by name (no function pointers)"));
              return NULL;
            }
          advance (p);
          n = expr_new (p, WK_E_CALL, e->start, t->end);
          n->name = e->name;
          n->pos = e->start;
          n->targs = e->targs;
          n->n_targs = e->n_targs;
          if (parse_args (p, n) == NULL)
            return NULL;
        }
      else if (is_punct (t, WK_P_DOT) || is_punct (t, WK_P_ARROW))
        {
          const WkToken *m;
          advance (p);
          m = cur (p);
          if (m->kind != WK_TOK_IDENT)
            {
              expected (p, is_punct (t, WK_P_DOT) ? _("a field name after “.”") : _("a field name after “->”"));
              return NULL;
            }
          n = expr_new (p, WK_E_MEMBER, e->start, m->end);
          n->pos = t->start;
          n->name = tok_name (p, m);
          n->is_arrow = is_punct (t, WK_P_ARROW);
          n->a = e;
          advance (p);
        }
      else if (is_punct (t, WK_P_INC) || is_punct (t, WK_P_DEC))
        {
          n = expr_new (p, WK_E_UNARY, e->start, t->end);
          n->pos = t->start;
          n->op = is_punct (t, WK_P_INC) ? WK_OP_POSTINC : WK_OP_POSTDEC;
          n->a = e;
          advance (p);
        }
      else
        break;
      if (!expr_done (p, n))
        return NULL;
      e = n;
    }
  return e;
}

/* Whether "(" at the cursor opens a cast: a type name inside. */
static gboolean
at_cast (Parser *p)
{
  const WkToken *t = ahead (p, 1);

  if (!at (p, WK_P_LPAREN) || t->kind != WK_TOK_IDENT)
    return FALSE;
  if (is_word (t, "struct") || is_word (t, "const") || is_word (t, "volatile") || is_word (t, "unsigned") ||
      is_word (t, "signed"))
    return TRUE;
  return is_basic_word (t) || alias_type (t) || wk_type_vector_by_name (t->text, t->len) || is_typedef_name (p, t);
}

static WkExpr *
parse_unary (Parser *p)
{
  const WkToken *t = cur (p);
  WkExpr *e;
  WkOp op = WK_OP_NONE;

  if (!enter (p))
    return NULL;
  if (t->kind == WK_TOK_PUNCT)
    switch (t->punct)
      {
      case WK_P_MINUS: op = WK_OP_NEG; break;
      case WK_P_PLUS: op = WK_OP_PLUS; break;
      case WK_P_TILDE: op = WK_OP_BITNOT; break;
      case WK_P_BANG: op = WK_OP_LNOT; break;
      case WK_P_STAR: op = WK_OP_DEREF; break;
      case WK_P_AMP: op = WK_OP_ADDR; break;
      case WK_P_INC: op = WK_OP_PREINC; break;
      case WK_P_DEC: op = WK_OP_PREDEC; break;
      default: break;
      }
  if (op != WK_OP_NONE)
    {
      advance (p);
      e = expr_new (p, WK_E_UNARY, t->start, t->end);
      e->op = op;
      e->a = parse_unary (p);
      leave (p);
      if (e->a == NULL)
        return NULL;
      e->end = e->a->end;
      return expr_done (p, e) ? e : NULL;
    }
  if (at_cast (p))
    {
      guint start = t->start;
      const WkType *ty;

      advance (p);
      ty = parse_type_name (p);
      if (ty == NULL || !expect (p, WK_P_RPAREN, _("“)” to close the cast")))
        {
          leave (p);
          return NULL;
        }
      e = expr_new (p, WK_E_CAST, start, start);
      e->pos = start;
      e->cast_type = ty;
      e->cast_style = WK_CAST_C;
      e->a = parse_unary (p);
      leave (p);
      if (e->a == NULL)
        return NULL;
      e->end = e->a->end;
      return expr_done (p, e) ? e : NULL;
    }
  e = parse_postfix (p);
  leave (p);
  return e;
}

static int
binary_prec (const WkToken *t,
             WkOp          *op)
{
  if (t->kind != WK_TOK_PUNCT)
    return -1;
  switch (t->punct)
    {
    case WK_P_STAR: *op = WK_OP_MUL; return 10;
    case WK_P_SLASH: *op = WK_OP_DIV; return 10;
    case WK_P_PERCENT: *op = WK_OP_MOD; return 10;
    case WK_P_PLUS: *op = WK_OP_ADD; return 9;
    case WK_P_MINUS: *op = WK_OP_SUB; return 9;
    case WK_P_SHL: *op = WK_OP_SHL; return 8;
    case WK_P_SHR: *op = WK_OP_SHR; return 8;
    case WK_P_LT: *op = WK_OP_LT; return 7;
    case WK_P_GT: *op = WK_OP_GT; return 7;
    case WK_P_LE: *op = WK_OP_LE; return 7;
    case WK_P_GE: *op = WK_OP_GE; return 7;
    case WK_P_EQEQ: *op = WK_OP_EQ; return 6;
    case WK_P_NE: *op = WK_OP_NE; return 6;
    case WK_P_AMP: *op = WK_OP_BITAND; return 5;
    case WK_P_CARET: *op = WK_OP_BITXOR; return 4;
    case WK_P_PIPE: *op = WK_OP_BITOR; return 3;
    case WK_P_ANDAND: *op = WK_OP_LAND; return 2;
    case WK_P_OROR: *op = WK_OP_LOR; return 1;
    default: return -1;
    }
}

/* Precedence climbing: left-associative chains are built in a loop. */
static WkExpr *
parse_binary (Parser *p,
              int     min_prec)
{
  WkExpr *lhs;

  if (!enter (p))
    return NULL;
  lhs = parse_unary (p);
  while (lhs != NULL)
    {
      WkOp op = WK_OP_NONE;
      int prec = binary_prec (cur (p), &op);
      const WkToken *t = cur (p);
      WkExpr *e;

      if (prec < min_prec)
        break;
      advance (p);
      e = expr_new (p, WK_E_BINARY, lhs->start, lhs->end);
      e->pos = t->start;
      e->op = op;
      e->a = lhs;
      e->b = parse_binary (p, prec + 1);
      if (e->b == NULL)
        {
          lhs = NULL;
          break;
        }
      e->end = e->b->end;
      lhs = expr_done (p, e) ? e : NULL;
    }
  leave (p);
  return lhs;
}

static WkExpr *
parse_conditional (Parser *p)
{
  WkExpr *c = parse_binary (p, 1);
  WkExpr *e;
  const WkToken *q = cur (p);

  if (c == NULL || !is_punct (q, WK_P_QUESTION))
    return c;
  if (!enter (p))
    return NULL;
  advance (p);
  e = expr_new (p, WK_E_COND, c->start, c->end);
  e->pos = q->start;
  e->a = c;
  e->b = parse_expr (p);
  if (e->b == NULL || !expect (p, WK_P_COLON, _("“:” of the “?”")))
    {
      leave (p);
      return NULL;
    }
  e->c = parse_assign (p);
  leave (p);
  if (e->c == NULL)
    return NULL;
  e->end = e->c->end;
  return expr_done (p, e) ? e : NULL;
}

static WkOp
assign_op (const WkToken *t,
           gboolean      *is_assign)
{
  *is_assign = TRUE;
  if (t->kind == WK_TOK_PUNCT)
    switch (t->punct)
      {
      case WK_P_ASSIGN: return WK_OP_NONE;
      case WK_P_PLUS_ASSIGN: return WK_OP_ADD;
      case WK_P_MINUS_ASSIGN: return WK_OP_SUB;
      case WK_P_STAR_ASSIGN: return WK_OP_MUL;
      case WK_P_SLASH_ASSIGN: return WK_OP_DIV;
      case WK_P_PERCENT_ASSIGN: return WK_OP_MOD;
      case WK_P_AMP_ASSIGN: return WK_OP_BITAND;
      case WK_P_PIPE_ASSIGN: return WK_OP_BITOR;
      case WK_P_CARET_ASSIGN: return WK_OP_BITXOR;
      case WK_P_SHL_ASSIGN: return WK_OP_SHL;
      case WK_P_SHR_ASSIGN: return WK_OP_SHR;
      default: break;
      }
  *is_assign = FALSE;
  return WK_OP_NONE;
}

static WkExpr *
parse_assign (Parser *p)
{
  WkExpr *lhs;
  gboolean is_assign;
  WkOp op;
  const WkToken *t;
  WkExpr *e;

  if (!enter (p))
    return NULL;
  lhs = parse_conditional (p);
  t = cur (p);
  op = assign_op (t, &is_assign);
  if (lhs == NULL || !is_assign)
    {
      leave (p);
      return lhs;
    }
  advance (p);
  e = expr_new (p, WK_E_ASSIGN, lhs->start, lhs->end);
  e->pos = t->start;
  e->op = op;
  e->a = lhs;
  e->b = parse_assign (p);
  leave (p);
  if (e->b == NULL)
    return NULL;
  e->end = e->b->end;
  return expr_done (p, e) ? e : NULL;
}

static WkExpr *
parse_expr (Parser *p)
{
  WkExpr *e = parse_assign (p);

  while (e != NULL && at (p, WK_P_COMMA))
    {
      WkExpr *n = expr_new (p, WK_E_BINARY, e->start, e->end);
      n->pos = cur (p)->start;
      n->op = WK_OP_COMMA;
      advance (p);
      n->a = e;
      n->b = parse_assign (p);
      if (n->b == NULL)
        return NULL;
      n->end = n->b->end;
      e = expr_done (p, n) ? n : NULL;
    }
  return e;
}

static WkExpr *
parse_init_list (Parser *p)
{
  g_autoptr (GPtrArray) items = g_ptr_array_new ();
  WkExpr *e = expr_new (p, WK_E_INIT_LIST, cur (p)->start, cur (p)->end);

  advance (p);
  if (!enter (p))
    return NULL;
  while (!at (p, WK_P_RBRACE))
    {
      WkExpr *item = at (p, WK_P_LBRACE) ? parse_init_list (p) : parse_assign (p);
      if (item == NULL)
        {
          leave (p);
          return NULL;
        }
      if (items->len >= 4096)
        {
          error_at (p, WS_KERNEL_ERROR_LIMIT, item->start, item->end,
                    _("a list of initial values may have at most %d items"), 4096);
          leave (p);
          return NULL;
        }
      g_ptr_array_add (items, item);
      if (!accept (p, WK_P_COMMA))
        break;
    }
  leave (p);
  if (!at (p, WK_P_RBRACE))
    {
      expected (p, _("“,” or “}” in the list of initial values"));
      return NULL;
    }
  e->end = cur (p)->end;
  advance (p);
  e->n_args = items->len;
  e->args = WK_NEWV (p->arena, WkExpr *, MAX (items->len, 1));
  for (guint i = 0; i < items->len; i++)
    e->args[i] = items->pdata[i];
  return expr_done (p, e) ? e : NULL;
}

/* ------------------------------------------------------------------ */
/* Statements                                                         */
/* ------------------------------------------------------------------ */

static WkStorageClass
local_storage (Parser     *p,
               const Specs *s,
               guint       start)
{
  if (s->constant || s->global || s->managed)
    {
      error_at (p, WS_KERNEL_ERROR_INVALID, start, prev_end (p),
                _("__constant__ and __managed__ variables are declared outside functions"));
      return WK_STORE_AUTO;
    }
  if (s->shared && s->is_extern)
    return WK_STORE_EXTERN_SHARED;
  if (s->shared)
    return WK_STORE_SHARED;
  if (s->is_extern)
    {
      error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, start, prev_end (p),
                _("extern is only supported with __shared__ (extern __shared__ T name[];)"));
      return WK_STORE_AUTO;
    }
  if (s->is_static)
    {
      error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, start, prev_end (p),
                _("static local variables are not supported"));
    }
  return WK_STORE_AUTO;
}

static WkDecl *
parse_one_decl (Parser      *p,
                const Specs *s,
                WkStorageClass storage)
{
  WkDecl *d = WK_NEW (p->arena, WkDecl);

  memset (d, 0, sizeof *d);
  d->start = s->start;
  d->storage = storage;
  d->is_static = s->is_static;
  d->type = parse_declarator (p, s->type, FALSE, &d->name, &d->name_pos);
  if (d->type == NULL && !s->is_auto)
    return NULL;
  if (d->name == NULL)
    return NULL;
  if (at (p, WK_P_LPAREN))
    {
      error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, d->name_pos, cur (p)->end,
                _("a declaration with arguments in parentheses (a constructor) is not supported: write “= value”"));
      return NULL;
    }
  if (at (p, WK_P_LBRACE))
    {
      d->init = parse_init_list (p);
      if (d->init == NULL)
        return NULL;
    }
  else if (accept (p, WK_P_ASSIGN))
    {
      d->init = at (p, WK_P_LBRACE) ? parse_init_list (p) : parse_assign (p);
      if (d->init == NULL)
        return NULL;
    }
  if (s->is_auto && d->init == NULL)
    {
      error_at (p, WS_KERNEL_ERROR_INVALID, d->name_pos, prev_end (p), _("auto needs an initial value"));
      return NULL;
    }
  d->end = prev_end (p);
  return d;
}

static WkStmt *
parse_declaration_stmt (Parser *p)
{
  Specs s;
  guint start = cur (p)->start;
  WkStmt *st;
  WkStorageClass storage;
  g_autoptr (GPtrArray) decls = g_ptr_array_new ();

  if (!parse_specs (p, &s, TRUE))
    {
      if (!p->failed)
        expected (p, _("a type"));
      return NULL;
    }
  if (s.is_typedef)
    {
      error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, start, prev_end (p), _("typedef is only supported outside functions"));
      return NULL;
    }
  if (s.type == NULL && !s.is_auto)
    {
      expected (p, _("a type"));
      return NULL;
    }
  if (s.type != NULL && s.type->kind == WK_TY_STRUCT && at (p, WK_P_SEMI))
    {
      error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, start, cur (p)->end, _("structs are defined outside functions"));
      return NULL;
    }
  storage = local_storage (p, &s, start);
  if (p->failed)
    return NULL;
  do
    {
      WkDecl *d = parse_one_decl (p, &s, storage);
      if (d == NULL)
        return NULL;
      g_ptr_array_add (decls, d);
    }
  while (accept (p, WK_P_COMMA));
  if (!expect (p, WK_P_SEMI, _("“;” after the declaration")))
    return NULL;
  st = stmt_new (p, WK_S_DECL, start);
  st->end = prev_end (p);
  st->n_decls = decls->len;
  st->decls = WK_NEWV (p->arena, WkDecl *, decls->len);
  for (guint i = 0; i < decls->len; i++)
    st->decls[i] = decls->pdata[i];
  return st;
}

static gboolean
at_declaration (Parser *p)
{
  const WkToken *t = cur (p);

  if (!starts_type (p, t))
    return FALSE;
  /* float (x) …: a functional cast starting an expression statement */
  if ((is_basic_word (t) || alias_type (t) || is_typedef_name (p, t)) && is_punct (ahead (p, 1), WK_P_LPAREN))
    return FALSE;
  return TRUE;
}

static WkStmt *
parse_block (Parser *p)
{
  g_autoptr (GPtrArray) list = g_ptr_array_new ();
  WkStmt *b = stmt_new (p, WK_S_BLOCK, cur (p)->start);

  advance (p);
  while (!at (p, WK_P_RBRACE))
    {
      WkStmt *s;

      if (cur (p)->kind == WK_TOK_EOF)
        {
          error_at (p, WS_KERNEL_ERROR_SYNTAX, b->start, b->start + 1,
                    _("the block opened here is not closed with “}”"));
          return NULL;
        }
      p->failed = FALSE;
      s = parse_statement (p);
      if (s == NULL)
        {
          if (p->diags->too_many)
            return NULL;
          recover (p);
          continue;
        }
      g_ptr_array_add (list, s);
    }
  b->end = cur (p)->end;
  advance (p);
  b->n_list = list->len;
  b->list = WK_NEWV (p->arena, WkStmt *, MAX (list->len, 1));
  for (guint i = 0; i < list->len; i++)
    b->list[i] = list->pdata[i];
  return b;
}

static WkExpr *
parse_condition (Parser     *p,
                 const char *keyword)
{
  WkExpr *e;

  if (!at (p, WK_P_LPAREN))
    {
      g_autofree char *what = g_strdup_printf (_("“(” after “%s”"), keyword);
      expected (p, what);
      return NULL;
    }
  advance (p);
  if (at_declaration (p))
    {
      error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, cur (p)->start, cur (p)->end,
                _("a declaration in a condition is not supported"));
      return NULL;
    }
  e = parse_expr (p);
  if (e == NULL)
    return NULL;
  if (!at (p, WK_P_RPAREN))
    {
      g_autofree char *what = g_strdup_printf (_("“)” to close the condition of “%s”"), keyword);
      expected (p, what);
      return NULL;
    }
  advance (p);
  return e;
}

static WkStmt *
new_loop (Parser    *p,
          WkStmtKind kind,
          guint      start)
{
  WkStmt *s = stmt_new (p, kind, start);

  if (p->func != NULL)
    s->loop_id = p->func->n_loops++;
  return s;
}

static WkStmt *
parse_for (Parser *p)
{
  WkStmt *s = new_loop (p, WK_S_FOR, cur (p)->start);

  advance (p);
  if (!expect (p, WK_P_LPAREN, _("“(” after “for”")))
    return NULL;
  if (at_declaration (p))
    {
      s->init = parse_declaration_stmt (p);
      if (s->init == NULL)
        return NULL;
    }
  else if (!accept (p, WK_P_SEMI))
    {
      WkStmt *init = stmt_new (p, WK_S_EXPR, cur (p)->start);
      init->e = parse_expr (p);
      if (init->e == NULL)
        return NULL;
      init->end = init->e->end;
      s->init = init;
      if (at (p, WK_P_COLON))
        {
          error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, cur (p)->start, cur (p)->end,
                    _("range-based for loops are not supported"));
          return NULL;
        }
      if (!expect (p, WK_P_SEMI, _("“;” after the initialisation of the for loop")))
        return NULL;
    }
  if (!at (p, WK_P_SEMI))
    {
      s->e = parse_expr (p);
      if (s->e == NULL)
        return NULL;
    }
  if (!expect (p, WK_P_SEMI, _("“;” after the condition of the for loop")))
    return NULL;
  if (!at (p, WK_P_RPAREN))
    {
      s->inc = parse_expr (p);
      if (s->inc == NULL)
        return NULL;
    }
  if (!expect (p, WK_P_RPAREN, _("“)” to close the for loop's parentheses")))
    return NULL;
  s->body = parse_statement (p);
  if (s->body == NULL)
    return NULL;
  s->end = s->body->end;
  return s;
}

static WkStmt *
parse_switch (Parser *p)
{
  WkStmt *s = stmt_new (p, WK_S_SWITCH, cur (p)->start);

  advance (p);
  s->e = parse_condition (p, "switch");
  if (s->e == NULL)
    return NULL;
  if (!at (p, WK_P_LBRACE))
    {
      expected (p, _("“{” after the condition of “switch”"));
      return NULL;
    }
  s->body = parse_block (p);
  if (s->body == NULL)
    return NULL;
  s->end = s->body->end;
  return s;
}

static WkStmt *
parse_pragma_loop (Parser *p)
{
  const WkToken *t = cur (p);
  int unroll = -1;
  WkExpr *unroll_expr = NULL;
  WkStmt *loop;
  gboolean nounroll = t->ival == 1;

  advance (p);
  if (!at (p, WK_P_RPAREN) && cur (p)->kind != WK_TOK_PRAGMA_END)
    {
      WkExpr *e = parse_assign (p);
      /* the count must be a constant; the checker says so where it is not */
      if (e == NULL)
        return NULL;
      if (e->kind == WK_E_INT && e->v.u <= 100000)
        unroll = (int) e->v.u;
      else
        unroll_expr = e;        /* the checker evaluates it */
    }
  if (cur (p)->kind != WK_TOK_PRAGMA_END)
    {
      expected (p, _("the end of the line of “#pragma unroll”"));
      return NULL;
    }
  advance (p);
  if (nounroll)
    unroll = 1;
  if (!(at_word (p, "for") || at_word (p, "while") || at_word (p, "do")))
    {
      if (cur (p)->kind == WK_TOK_PRAGMA_UNROLL)
        return parse_pragma_loop (p);
      error_at (p, WS_KERNEL_ERROR_SYNTAX, t->start, t->end,
                _("#pragma unroll must come just before a for, while or do loop"));
      return NULL;
    }
  loop = parse_statement (p);
  if (loop != NULL)
    {
      loop->unroll = unroll;
      loop->unroll_expr = unroll_expr;
      loop->start = MIN (loop->start, t->start);
    }
  return loop;
}

static WkStmt *
parse_statement_inner (Parser *p)
{
  const WkToken *t = cur (p);
  WkStmt *s;
  const char *why;

  if (t->kind == WK_TOK_PRAGMA_UNROLL)
    return parse_pragma_loop (p);
  if (is_punct (t, WK_P_LBRACE))
    return parse_block (p);
  if (is_punct (t, WK_P_SEMI))
    {
      s = stmt_new (p, WK_S_EMPTY, t->start);
      s->end = t->end;
      advance (p);
      return s;
    }
  if (t->kind == WK_TOK_IDENT)
    {
      if (is_word (t, "if"))
        {
          s = stmt_new (p, WK_S_IF, t->start);
          advance (p);
          if (at_word (p, "constexpr"))
            advance (p);
          s->e = parse_condition (p, "if");
          if (s->e == NULL)
            return NULL;
          s->body = parse_statement (p);
          if (s->body == NULL)
            return NULL;
          s->end = s->body->end;
          if (at_word (p, "else"))
            {
              advance (p);
              s->els = parse_statement (p);
              if (s->els == NULL)
                return NULL;
              s->end = s->els->end;
            }
          return s;
        }
      if (is_word (t, "for"))
        return parse_for (p);
      if (is_word (t, "while"))
        {
          s = new_loop (p, WK_S_WHILE, t->start);
          advance (p);
          s->e = parse_condition (p, "while");
          if (s->e == NULL)
            return NULL;
          s->body = parse_statement (p);
          if (s->body == NULL)
            return NULL;
          s->end = s->body->end;
          return s;
        }
      if (is_word (t, "do"))
        {
          s = new_loop (p, WK_S_DO, t->start);
          advance (p);
          s->body = parse_statement (p);
          if (s->body == NULL)
            return NULL;
          if (!at_word (p, "while"))
            {
              expected (p, _("“while” after the body of “do”"));
              return NULL;
            }
          advance (p);
          s->e = parse_condition (p, "while");
          if (s->e == NULL || !expect (p, WK_P_SEMI, _("“;” after “do … while (…)”")))
            return NULL;
          s->end = prev_end (p);
          return s;
        }
      if (is_word (t, "break") || is_word (t, "continue"))
        {
          s = stmt_new (p, is_word (t, "break") ? WK_S_BREAK : WK_S_CONTINUE, t->start);
          advance (p);
          if (!expect (p, WK_P_SEMI, is_word (t, "break") ? _("“;” after “break”") : _("“;” after “continue”")))
            return NULL;
          s->end = prev_end (p);
          return s;
        }
      if (is_word (t, "return"))
        {
          s = stmt_new (p, WK_S_RETURN, t->start);
          advance (p);
          if (!at (p, WK_P_SEMI))
            {
              s->e = at (p, WK_P_LBRACE) ? parse_init_list (p) : parse_expr (p);
              if (s->e == NULL)
                return NULL;
            }
          if (!expect (p, WK_P_SEMI, _("“;” after “return”")))
            return NULL;
          s->end = prev_end (p);
          return s;
        }
      if (is_word (t, "switch"))
        return parse_switch (p);
      if (is_word (t, "case") || is_word (t, "default"))
        {
          s = stmt_new (p, WK_S_CASE, t->start);
          advance (p);
          if (is_word (t, "case"))
            {
              s->e = parse_conditional (p);
              if (s->e == NULL)
                return NULL;
            }
          if (!expect (p, WK_P_COLON, _("“:” after the case")))
            return NULL;
          s->end = prev_end (p);
          return s;
        }
      if (is_word (t, "else"))
        {
          error_at (p, WS_KERNEL_ERROR_SYNTAX, t->start, t->end, _("“else” without an “if” before it"));
          return NULL;
        }
      if ((why = unsupported_message (t)) != NULL)
        {
          error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, t->start, t->end, "%s", why);
          return NULL;
        }
      if (is_punct (ahead (p, 1), WK_P_COLON) && !is_word (t, "default"))
        {
          error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, t->start, ahead (p, 1)->end,
                    _("labels are not supported (nor is goto)"));
          return NULL;
        }
      if (is_word (t, "typedef") || is_word (t, "struct") || is_word (t, "template") || is_word (t, "using"))
        {
          error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, t->start, t->end,
                    _("“%.*s” is only supported outside functions"), (int) t->len, t->text);
          return NULL;
        }
      if (at_declaration (p))
        return parse_declaration_stmt (p);
    }
  s = stmt_new (p, WK_S_EXPR, t->start);
  s->e = parse_expr (p);
  if (s->e == NULL)
    return NULL;
  if (!expect (p, WK_P_SEMI, _("“;” after the expression")))
    return NULL;
  s->end = prev_end (p);
  return s;
}

static WkStmt *
parse_statement (Parser *p)
{
  WkStmt *s;

  if (!enter (p))
    return NULL;
  s = parse_statement_inner (p);
  leave (p);
  return s;
}

/* ------------------------------------------------------------------ */
/* The top level                                                      */
/* ------------------------------------------------------------------ */

static void
declare_file_sym (Parser *p,
                  WkSym  *sym)
{
  WkSym *old = g_hash_table_lookup (p->file->file_scope, sym->name);

  if (old != NULL && !(old->kind == WK_SYM_FUNC && sym->kind == WK_SYM_FUNC && old->func->body == NULL))
    {
      guint line, column;
      wk_position (p->diags->text, p->diags->len, old->pos, &line, &column);
      error_at (p, WS_KERNEL_ERROR_INVALID, sym->pos, sym->pos + (guint) strlen (sym->name),
                _("“%s” is already declared, at line %u"), sym->name, line);
      return;
    }
  g_hash_table_replace (p->file->file_scope, (gpointer) sym->name, sym);
}

/* Host code: a function's head and body, or a declaration, skipped by
 * matching brackets. The name of the function, if it is one. */
static void
skip_host (Parser  *p,
           guint    start,
           gboolean note)
{
  guint depth = 0;
  const char *name = NULL;
  gboolean function = FALSE;
  guint end;

  while (cur (p)->kind != WK_TOK_EOF)
    {
      const WkToken *t = cur (p);

      if (depth == 0 && is_punct (t, WK_P_LPAREN) && p->i > 0 && p->toks[p->i - 1].kind == WK_TOK_IDENT &&
          name == NULL)
        name = tok_name (p, &p->toks[p->i - 1]);
      if (is_punct (t, WK_P_LPAREN) || is_punct (t, WK_P_LBRACKET))
        depth++;
      else if ((is_punct (t, WK_P_RPAREN) || is_punct (t, WK_P_RBRACKET)) && depth > 0)
        depth--;
      else if (depth == 0 && is_punct (t, WK_P_SEMI))
        {
          advance (p);
          break;
        }
      else if (depth == 0 && is_punct (t, WK_P_LBRACE))
        {
          gboolean initialiser = p->i > 0 && (is_punct (&p->toks[p->i - 1], WK_P_ASSIGN) ||
                                              is_punct (&p->toks[p->i - 1], WK_P_COMMA));
          guint braces = 0;
          do
            {
              if (at (p, WK_P_LBRACE))
                braces++;
              else if (at (p, WK_P_RBRACE))
                braces--;
              advance (p);
            }
          while (braces > 0 && cur (p)->kind != WK_TOK_EOF);
          if (!initialiser)
            {
              function = name != NULL;
              accept (p, WK_P_SEMI);
              break;
            }
          continue;
        }
      advance (p);
    }
  end = prev_end (p);
  if (!note)
    return;
  if (function)
    wk_diag_add (p->diags, WS_KERNEL_SEVERITY_NOTE, 0, start, end,
                 _("the host function “%s” is ignored: only __global__ and __device__ code is read"), name);
  else
    wk_diag_add (p->diags, WS_KERNEL_SEVERITY_NOTE, 0, start, end,
                 _("host code is ignored: only __global__ and __device__ code is read"));
}

static gboolean
parse_params (Parser *p,
              WkFunc *f)
{
  g_autoptr (GPtrArray) params = g_ptr_array_new ();

  advance (p);
  if (at_word (p, "void") && is_punct (ahead (p, 1), WK_P_RPAREN))
    advance (p);
  if (!at (p, WK_P_RPAREN))
    do
      {
        Specs s;
        WkDecl *d;

        if (at (p, WK_P_ELLIPSIS))
          {
            error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, cur (p)->start, cur (p)->end,
                      _("functions with a variable number of arguments are not supported"));
            return FALSE;
          }
        if (!parse_specs (p, &s, FALSE) || s.type == NULL)
          {
            const WkToken *t = cur (p);
            const char *why = unsupported_message (t);
            if (p->failed)
              return FALSE;
            if (why != NULL)
              error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, t->start, t->end, "%s", why);
            else if (t->kind == WK_TOK_IDENT)
              error_at (p, WS_KERNEL_ERROR_INVALID, t->start, t->end, _("unknown type “%.*s”"), (int) t->len,
                        t->text);
            else
              expected (p, _("the type of a parameter"));
            return FALSE;
          }
        d = WK_NEW (p->arena, WkDecl);
        memset (d, 0, sizeof *d);
        d->start = s.start;
        d->storage = WK_STORE_PARAM;
        d->type = parse_declarator (p, s.type, at (p, WK_P_COMMA) || at (p, WK_P_RPAREN), &d->name, &d->name_pos);
        if (d->type == NULL)
          return FALSE;
        if (at (p, WK_P_ASSIGN))
          {
            error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, cur (p)->start, cur (p)->end,
                      _("default values of parameters are not supported"));
            return FALSE;
          }
        /* an array parameter is a pointer */
        if (d->type->kind == WK_TY_ARRAY)
          {
            if (d->type->elem->kind == WK_TY_ARRAY)
              {
                error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, d->start, prev_end (p),
                          _("parameters that are arrays of arrays are not supported: pass a pointer"));
                return FALSE;
              }
            d->type = wk_type_pointer (p->arena, d->type->elem, 0);
          }
        d->end = prev_end (p);
        if (params->len >= WK_MAX_PARAMS)
          {
            error_at (p, WS_KERNEL_ERROR_LIMIT, d->start, d->end, _("a function may have at most %d parameters"),
                      WK_MAX_PARAMS);
            return FALSE;
          }
        g_ptr_array_add (params, d);
      }
    while (accept (p, WK_P_COMMA));
  if (!expect (p, WK_P_RPAREN, _("“,” or “)” after a parameter")))
    return FALSE;
  f->n_params = params->len;
  f->params = WK_NEWV (p->arena, WkDecl *, MAX (params->len, 1));
  for (guint i = 0; i < params->len; i++)
    f->params[i] = params->pdata[i];
  return TRUE;
}

static gboolean
parse_template_params (Parser            *p,
                       WkTemplateParam  **out,
                       guint             *n_out)
{
  g_autoptr (GArray) params = g_array_new (FALSE, TRUE, sizeof (WkTemplateParam));

  advance (p);
  if (!expect (p, WK_P_LT, "“<”"))
    return FALSE;
  do
    {
      Specs s;
      WkTemplateParam tp = { 0 };
      guint start = cur (p)->start;

      if (at_word (p, "typename") || at_word (p, "class"))
        {
          error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, start, ahead (p, 1)->end,
                    _("template type parameters are not supported: only integer template parameters are, "
                      "whose values the launch gives"));
          return FALSE;
        }
      if (!parse_specs (p, &s, FALSE) || s.type == NULL || !wk_type_is_integer (s.type))
        {
          if (!p->failed)
            error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, start, cur (p)->end,
                      _("only integer template parameters are supported"));
          return FALSE;
        }
      if (cur (p)->kind != WK_TOK_IDENT)
        {
          expected (p, _("the name of the template parameter"));
          return FALSE;
        }
      tp.name = tok_name (p, cur (p));
      tp.pos = cur (p)->start;
      tp.type = wk_type_unqualified (p->arena, s.type);
      advance (p);
      if (at (p, WK_P_ASSIGN))
        {
          error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, cur (p)->start, cur (p)->end,
                    _("default values of template parameters are not supported: the launch gives the value"));
          return FALSE;
        }
      g_array_append_val (params, tp);
    }
  while (accept (p, WK_P_COMMA));
  if (!expect (p, WK_P_GT, _("“>” to close the template's parameters")))
    return FALSE;
  *n_out = params->len;
  *out = WK_NEWV (p->arena, WkTemplateParam, MAX (params->len, 1));
  if (params->len > 0)
    memcpy (*out, params->data, params->len * sizeof (WkTemplateParam));
  return TRUE;
}

static void
add_top (Parser   *p,
         WkTopKind kind,
         gpointer  what)
{
  WkTop *top = WK_NEW (p->arena, WkTop);

  memset (top, 0, sizeof *top);
  top->kind = kind;
  if (kind == WK_TOP_STRUCT)
    top->st = what;
  else if (kind == WK_TOP_DECL)
    top->decl = what;
  else
    top->func = what;
  g_ptr_array_add (p->file->tops, top);
}

static void
parse_function (Parser          *p,
                const Specs     *s,
                const WkType    *ret,
                const char      *name,
                guint            name_pos,
                WkTemplateParam *tparams,
                guint            n_tparams,
                gboolean         extern_c)
{
  WkFunc *f = WK_NEW (p->arena, WkFunc);
  WkSym *sym;

  memset (f, 0, sizeof *f);
  f->name = name;
  f->name_pos = name_pos;
  f->start = s->start;
  f->is_kernel = s->global;
  f->is_extern_c = extern_c || s->extern_c;
  f->force_inline = s->force_inline;
  f->ret = ret;
  f->tparams = tparams;
  f->n_tparams = n_tparams;
  f->launch_bounds[0] = s->launch_bounds[0];
  f->launch_bounds[1] = s->launch_bounds[1];
  if (s->global && ret->kind != WK_TY_VOID)
    error_at (p, WS_KERNEL_ERROR_INVALID, s->start, name_pos, _("a __global__ function must return void"));
  if (ret->kind == WK_TY_ARRAY)
    error_at (p, WS_KERNEL_ERROR_INVALID, s->start, name_pos, _("a function cannot return an array"));
  if (!parse_params (p, f))
    return;
  if (accept (p, WK_P_SEMI))
    {
      /* a declaration ahead of the definition */
      f->end = prev_end (p);
      if (g_hash_table_lookup (p->file->file_scope, name) == NULL)
        {
          sym = WK_NEW (p->arena, WkSym);
          memset (sym, 0, sizeof *sym);
          sym->kind = WK_SYM_FUNC;
          sym->name = name;
          sym->pos = name_pos;
          sym->func = f;
          sym->param = -1;
          g_hash_table_insert (p->file->file_scope, (gpointer) name, sym);
        }
      return;
    }
  if (!at (p, WK_P_LBRACE))
    {
      expected (p, _("“{” to start the function's body"));
      return;
    }
  sym = WK_NEW (p->arena, WkSym);
  memset (sym, 0, sizeof *sym);
  sym->kind = WK_SYM_FUNC;
  sym->name = name;
  sym->pos = name_pos;
  sym->func = f;
  sym->param = -1;
  declare_file_sym (p, sym);

  p->func = f;
  f->body = parse_block (p);
  p->func = NULL;
  if (f->body == NULL)
    return;
  f->end = f->body->end;
  g_ptr_array_add (p->file->funcs, f);
  if (f->is_kernel)
    g_ptr_array_add (p->file->kernels, f);
  add_top (p, WK_TOP_FUNC, f);
}

static void
parse_file_decls (Parser      *p,
                  const Specs *s)
{
  WkStorageClass storage;

  if (s->constant)
    storage = WK_STORE_CONSTANT;
  else if (s->shared)
    storage = s->is_extern ? WK_STORE_EXTERN_SHARED : WK_STORE_SHARED;
  else if (s->device)
    storage = WK_STORE_DEVICE;
  else
    storage = WK_STORE_CONST_VALUE;

  do
    {
      WkDecl *d = parse_one_decl (p, s, storage);
      WkSym *sym;

      if (d == NULL)
        return;
      if (s->managed)
        {
          error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, d->start, d->end,
                    _("managed memory (__managed__) is not supported"));
          return;
        }
      if (storage == WK_STORE_CONSTANT && d->init != NULL)
        {
          error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, d->name_pos, d->end,
                    _("initial values of __constant__ arrays are not supported: the launch comment fills them "
                      "(%s = …)"), d->name);
          return;
        }
      sym = WK_NEW (p->arena, WkSym);
      memset (sym, 0, sizeof *sym);
      sym->kind = storage == WK_STORE_CONST_VALUE ? WK_SYM_CONST : WK_SYM_MEMORY;
      sym->name = d->name;
      sym->pos = d->name_pos;
      sym->type = d->type;
      sym->storage = storage;
      sym->decl = d;
      sym->param = -1;
      d->sym = sym;
      declare_file_sym (p, sym);
      g_ptr_array_add (p->file->globals, d);
      add_top (p, WK_TOP_DECL, d);
    }
  while (accept (p, WK_P_COMMA));
  expect (p, WK_P_SEMI, _("“;” after the declaration"));
}

static void
parse_typedef (Parser      *p,
               const Specs *s)
{
  do
    {
      const char *name;
      guint pos;
      const WkType *t = parse_declarator (p, s->type, FALSE, &name, &pos);

      if (t == NULL)
        return;
      if (t->kind == WK_TY_STRUCT && t->st->name == NULL)
        {
          /* typedef struct { … } P; */
          ((WkStruct *) t->st)->name = name;
          ((WkType *) t)->name = name;
          register_struct (p, (WkStruct *) t->st);
          continue;
        }
      if (t->kind == WK_TY_STRUCT && g_strcmp0 (t->st->name, name) == 0)
        continue;       /* typedef struct P P; */
      if (g_hash_table_contains (p->typedefs, name) || g_hash_table_contains (p->file->file_scope, name))
        {
          error_at (p, WS_KERNEL_ERROR_INVALID, pos, pos + (guint) strlen (name), _("“%s” is already declared"),
                    name);
          return;
        }
      g_hash_table_insert (p->typedefs, (gpointer) name, (gpointer) t);
    }
  while (accept (p, WK_P_COMMA));
  expect (p, WK_P_SEMI, _("“;” after the typedef"));
}

static gboolean
is_device_code (const Specs *s)
{
  return s->global || s->device || s->constant || s->shared || s->managed;
}

static void parse_top (Parser *p, gboolean extern_c);

static void
parse_top_decl (Parser          *p,
                gboolean         extern_c,
                WkTemplateParam *tparams,
                guint            n_tparams)
{
  Specs s;
  guint start = cur (p)->start;
  const WkToken *first = cur (p);
  guint struct_count = 0;

  if (!parse_specs (p, &s, TRUE) || (s.type == NULL && !s.is_auto))
    {
      const WkToken *t = cur (p);
      const char *why = unsupported_message (t);

      if (p->failed)
        return;
      if (is_device_code (&s) || n_tparams > 0)
        {
          if (why != NULL)
            error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, t->start, t->end, "%s", why);
          else if (t->kind == WK_TOK_IDENT)
            error_at (p, WS_KERNEL_ERROR_INVALID, t->start, t->end, _("unknown type “%.*s”"), (int) t->len, t->text);
          else
            expected (p, _("a type"));
          return;
        }
      /* host code: a type we do not know */
      skip_host (p, start, TRUE);
      return;
    }
  (void) first;
  (void) struct_count;

  /* struct X { … }; */
  if (s.type != NULL && s.type->kind == WK_TY_STRUCT && at (p, WK_P_SEMI))
    {
      advance (p);
      if (s.type->st->complete && !s.is_typedef)
        add_top (p, WK_TOP_STRUCT, (gpointer) s.type->st);
      return;
    }
  if (s.type != NULL && s.type->kind == WK_TY_STRUCT && s.type->st->complete &&
      (s.is_typedef || at (p, WK_P_STAR) || cur (p)->kind == WK_TOK_IDENT))
    {
      /* a definition used in a typedef or a declaration: printed before it */
      gboolean listed = FALSE;
      for (guint i = 0; i < p->file->tops->len; i++)
        {
          WkTop *top = g_ptr_array_index (p->file->tops, i);
          if (top->kind == WK_TOP_STRUCT && top->st == s.type->st)
            listed = TRUE;
        }
      if (!listed)
        add_top (p, WK_TOP_STRUCT, (gpointer) s.type->st);
    }
  if (s.is_typedef)
    {
      if (s.type == NULL)
        {
          expected (p, _("a type"));
          return;
        }
      parse_typedef (p, &s);
      return;
    }

  /* a function or variables: look past the declarator for "(" */
  {
    guint save = p->i;
    const char *name;
    guint name_pos;
    const WkType *t;
    gboolean was_failed = p->failed;
    guint errors = p->diags->n_errors;
    guint diag_len = p->diags->diags->len;

    if (s.type == NULL)
      {
        if (!is_device_code (&s))
          {
            skip_host (p, start, TRUE);
            return;
          }
        error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, start, prev_end (p), _("auto is only supported for local variables"));
        return;
      }
    t = parse_declarator (p, s.type, FALSE, &name, &name_pos);
    if (t == NULL && !is_device_code (&s))
      {
        /* host code the declarator did not understand */
        rollback (p, diag_len, errors, was_failed);
        p->i = save;
        skip_host (p, start, TRUE);
        return;
      }
    if (t == NULL)
      return;
    if (at (p, WK_P_LPAREN))
      {
        if (!s.global && !s.device)
          {
            p->i = save;
            skip_host (p, start, TRUE);
            return;
          }
        parse_function (p, &s, t, name, name_pos, tparams, n_tparams, extern_c);
        return;
      }
    if (n_tparams > 0)
      {
        error_at (p, WS_KERNEL_ERROR_UNSUPPORTED, start, name_pos, _("only functions may be templates"));
        return;
      }
    if (!is_device_code (&s) && !s.constexpr_ && !(t->quals & WK_Q_CONST))
      {
        p->i = save;
        skip_host (p, start, TRUE);
        return;
      }
    if (!is_device_code (&s) && (t->kind == WK_TY_ARRAY || t->kind == WK_TY_POINTER))
      {
        /* a host table: a kernel cannot read it */
        p->i = save;
        skip_host (p, start, TRUE);
        return;
      }
    p->i = save;
    parse_file_decls (p, &s);
  }
}

static void
parse_top (Parser  *p,
           gboolean extern_c)
{
  const WkToken *t = cur (p);

  p->failed = FALSE;
  if (is_punct (t, WK_P_SEMI))
    {
      advance (p);
      return;
    }
  if (t->kind == WK_TOK_PRAGMA_UNROLL)
    {
      error_at (p, WS_KERNEL_ERROR_SYNTAX, t->start, t->end,
                _("#pragma unroll must come just before a for, while or do loop"));
      while (cur (p)->kind != WK_TOK_PRAGMA_END && cur (p)->kind != WK_TOK_EOF)
        advance (p);
      advance (p);
      return;
    }
  if (t->fn_macro)
    {
      /* a macro used at the top: whatever it makes is host code */
      skip_host (p, t->start, TRUE);
      return;
    }
  if (is_word (t, "extern") && ahead (p, 1)->kind == WK_TOK_STRING && is_punct (ahead (p, 2), WK_P_LBRACE))
    {
      guint open = ahead (p, 2)->start;
      advance (p);
      advance (p);
      advance (p);
      while (!at (p, WK_P_RBRACE))
        {
          if (cur (p)->kind == WK_TOK_EOF)
            {
              error_at (p, WS_KERNEL_ERROR_SYNTAX, open, open + 1, _("the block opened here is not closed with “}”"));
              return;
            }
          parse_top (p, TRUE);
          if (p->failed)
            recover (p);
        }
      advance (p);
      return;
    }
  if (is_word (t, "template"))
    {
      WkTemplateParam *tparams = NULL;
      guint n = 0;
      guint start = t->start;
      if (!parse_template_params (p, &tparams, &n))
        {
          /* the whole templated thing: the error said why */
          skip_host (p, start, FALSE);
          return;
        }
      parse_top_decl (p, extern_c, tparams, n);
      return;
    }
  if (is_word (t, "using") || is_word (t, "static_assert"))
    {
      skip_host (p, t->start, TRUE);
      return;
    }
  if (is_word (t, "namespace"))
    {
      skip_host (p, t->start, TRUE);
      return;
    }
  if (is_word (t, "union") || is_word (t, "enum") || is_word (t, "class"))
    {
      /* only an error if a kernel uses what it declares: that name is unknown there */
      skip_host (p, t->start, TRUE);
      return;
    }
  parse_top_decl (p, extern_c, NULL, 0);
}

gboolean
wk_parse (WsKernelFile      *file,
          const WkLexResult *lex,
          WkDiags           *diags)
{
  Parser p = { 0 };
  guint errors = diags->n_errors;

  p.file = file;
  p.arena = &file->arena;
  p.diags = diags;
  p.toks = lex->tokens;
  p.n = lex->n_tokens;
  p.typedefs = g_hash_table_new (g_str_hash, g_str_equal);
  p.structs = g_hash_table_new (g_str_hash, g_str_equal);

  while (cur (&p)->kind != WK_TOK_EOF && !diags->too_many)
    {
      guint before = p.i;
      parse_top (&p, FALSE);
      if (p.failed)
        recover (&p);
      if (p.i == before)
        advance (&p);
    }
  g_hash_table_unref (p.typedefs);
  g_hash_table_unref (p.structs);
  return diags->n_errors == errors;
}

WkExpr *
wk_parse_expression (WsKernelFile      *file,
                     const WkLexResult *lex,
                     WkArena           *arena,
                     WkDiags           *diags)
{
  Parser p = { 0 };
  WkExpr *e;

  p.file = file;
  p.arena = arena;
  p.diags = diags;
  p.toks = lex->tokens;
  p.n = lex->n_tokens;
  p.fragment = TRUE;
  p.typedefs = g_hash_table_new (g_str_hash, g_str_equal);
  p.structs = g_hash_table_new (g_str_hash, g_str_equal);
  e = parse_expr (&p);
  if (e != NULL && cur (&p)->kind != WK_TOK_EOF)
    {
      expected (&p, _("an operator or the end of the value"));
      e = NULL;
    }
  g_hash_table_unref (p.typedefs);
  g_hash_table_unref (p.structs);
  return e;
}
