/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-config.h"
#include "ws-expr.h"
#include "ws-model-types.h"

#include <glib/gi18n-lib.h>
#include <string.h>

G_DEFINE_QUARK (ws-expr-error-quark, ws_expr_error)

#define MAX_DEPTH 200

/* ------------------------------------------------------------------ */
/* Names                                                              */
/* ------------------------------------------------------------------ */

static const char *builtin_names[WS_N_BUILTINS] = {
  "threadIdx.x", "threadIdx.y", "threadIdx.z",
  "blockIdx.x", "blockIdx.y", "blockIdx.z",
  "blockDim.x", "blockDim.y", "blockDim.z",
  "gridDim.x", "gridDim.y", "gridDim.z",
  "lane", "warp",
};

static const char *dim_objects[] = { "threadIdx", "blockIdx", "blockDim", "gridDim" };

/* C, C++ and CUDA keywords, the names NVRTC defines as macros, and names CUDA
 * source already uses: a parameter may not be one of them, because the
 * expression is printed into a real kernel. Every name that C and C++ reserve
 * (a double underscore anywhere, an underscore and a capital letter first:
 * _Pragma, _Bool…) and the CUDA runtime's prefixes are refused by
 * ws_name_is_reserved () too. */
static const char *reserved_words[] = {
  /* C++ */
  "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break",
  "case", "catch", "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept",
  "const", "consteval", "constexpr", "constinit", "const_cast", "continue", "co_await",
  "co_return", "co_yield", "decltype", "default", "delete", "do", "double", "dynamic_cast",
  "else", "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto",
  "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
  "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register",
  "reinterpret_cast", "requires", "return", "short", "signed", "sizeof", "static",
  "static_assert", "static_cast", "struct", "switch", "template", "this", "thread_local",
  "throw", "true", "try", "typedef", "typeid", "typename", "union", "unsigned", "using",
  "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
  /* identifiers with a special meaning, C's own keywords, the preprocessor */
  "final", "override", "import", "module", "restrict", "typeof", "typeof_unqual", "defined",
  /* macros every NVRTC program has */
  "NULL", "assert", "offsetof",
  /* CUDA built-ins and the generated kernel's own names */
  "warpSize", "threadIdx", "blockIdx", "blockDim", "gridDim", "min", "max",
  "abs", "lane", "warp", "std", "main",
};

/* Prefixes of names the CUDA runtime and NVRTC define, many as macros
 * (cudaStreamDefault, CUDART_VERSION, CU_UUID_HAS_BEEN_DEFINED,
 * NV_HAS_FEATURE_SM_90a…). */
static const char *reserved_prefixes[] = { "ws_", "cuda", "CUDA", "CU_", "NV_", "nv_", "__" };

const char *
ws_builtin_to_string (WsBuiltin builtin)
{
  g_return_val_if_fail (builtin < WS_N_BUILTINS, NULL);
  return builtin_names[builtin];
}

gboolean
ws_name_is_reserved (const char *name)
{
  g_return_val_if_fail (name != NULL, TRUE);

  for (guint i = 0; i < G_N_ELEMENTS (reserved_prefixes); i++)
    if (g_str_has_prefix (name, reserved_prefixes[i]))
      return TRUE;
  if (strstr (name, "__") != NULL || (name[0] == '_' && g_ascii_isupper (name[1])))
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (reserved_words); i++)
    if (strcmp (name, reserved_words[i]) == 0)
      return TRUE;
  return FALSE;
}

gboolean
ws_name_is_valid (const char *name,
                  GError    **error)
{
  g_return_val_if_fail (name != NULL, FALSE);

  if (!(g_ascii_isalpha (name[0]) || name[0] == '_'))
    goto invalid;
  for (const char *p = name; *p; p++)
    if (!(g_ascii_isalnum (*p) || *p == '_'))
      goto invalid;
  if (strlen (name) > 64)
    goto invalid;
  if (ws_name_is_reserved (name))
    {
      g_set_error (error, WS_EXPR_ERROR, WS_EXPR_ERROR_INVALID_NAME,
                   _("“%s” is reserved (a C, C++ or CUDA keyword, built-in or macro, or a name the generated kernel uses)"),
                   name);
      return FALSE;
    }
  return TRUE;

invalid:
  {
    g_autofree char *shown = ws_text_for_message (name);
    g_set_error (error, WS_EXPR_ERROR, WS_EXPR_ERROR_INVALID_NAME,
                 _("“%s” is not a valid name: use letters, digits and “_”, starting with a letter"), shown);
  }
  return FALSE;
}

/* ------------------------------------------------------------------ */
/* Semantics                                                          */
/* ------------------------------------------------------------------ */

static const char *op_names[WS_N_OPS] = {
  [WS_OP_NEG] = "-", [WS_OP_BITNOT] = "~", [WS_OP_NOT] = "!",
  [WS_OP_MUL] = "*", [WS_OP_DIV] = "/", [WS_OP_MOD] = "%",
  [WS_OP_ADD] = "+", [WS_OP_SUB] = "-",
  [WS_OP_SHL] = "<<", [WS_OP_SHR] = ">>",
  [WS_OP_LT] = "<", [WS_OP_LE] = "<=", [WS_OP_GT] = ">", [WS_OP_GE] = ">=",
  [WS_OP_EQ] = "==", [WS_OP_NE] = "!=",
  [WS_OP_BITAND] = "&", [WS_OP_BITXOR] = "^", [WS_OP_BITOR] = "|",
  [WS_OP_LAND] = "&&", [WS_OP_LOR] = "||",
  [WS_OP_MIN] = "min", [WS_OP_MAX] = "max", [WS_OP_ABS] = "abs",
  [WS_OP_SELECT] = "?:",
};

const char *
ws_op_to_string (WsOp op)
{
  g_return_val_if_fail (op < WS_N_OPS, NULL);
  return op_names[op];
}

gint64
ws_op_apply (WsOp         op,
             gint64       a,
             gint64       b,
             WsExprError *failed)
{
  gint64 r;

  switch (op)
    {
    case WS_OP_NEG:
      if (a == G_MININT64)
        goto overflow;
      return -a;
    case WS_OP_BITNOT:
      return ~a;
    case WS_OP_NOT:
      return !a;
    case WS_OP_ABS:
      if (a == G_MININT64)
        goto overflow;
      return a < 0 ? -a : a;
    case WS_OP_MUL:
      if (__builtin_mul_overflow (a, b, &r))
        goto overflow;
      return r;
    case WS_OP_DIV:
    case WS_OP_MOD:
      if (b == 0)
        {
          *failed = WS_EXPR_ERROR_DIVISION_BY_ZERO;
          return 0;
        }
      if (a == G_MININT64 && b == -1)
        goto overflow;
      return op == WS_OP_DIV ? a / b : a % b;
    case WS_OP_ADD:
      if (__builtin_add_overflow (a, b, &r))
        goto overflow;
      return r;
    case WS_OP_SUB:
      if (__builtin_sub_overflow (a, b, &r))
        goto overflow;
      return r;
    case WS_OP_SHL:
      if (b < 0 || b > 63)
        goto shift;
      if (a < 0)
        goto shift;
      if (b > 0 && (a >> (63 - b)) != 0)
        goto overflow;
      return a << b;
    case WS_OP_SHR:
      if (b < 0 || b > 63)
        goto shift;
      return a >> b;
    case WS_OP_LT: return a < b;
    case WS_OP_LE: return a <= b;
    case WS_OP_GT: return a > b;
    case WS_OP_GE: return a >= b;
    case WS_OP_EQ: return a == b;
    case WS_OP_NE: return a != b;
    case WS_OP_BITAND: return a & b;
    case WS_OP_BITXOR: return a ^ b;
    case WS_OP_BITOR: return a | b;
    case WS_OP_LAND: return a && b;
    case WS_OP_LOR: return a || b;
    case WS_OP_MIN: return MIN (a, b);
    case WS_OP_MAX: return MAX (a, b);
    case WS_OP_SELECT:
    case WS_N_OPS:
    default:
      g_assert_not_reached ();
    }

overflow:
  *failed = WS_EXPR_ERROR_OVERFLOW;
  return 0;
shift:
  *failed = WS_EXPR_ERROR_SHIFT;
  return 0;
}

/* ------------------------------------------------------------------ */
/* Lexer                                                              */
/* ------------------------------------------------------------------ */

typedef enum
{
  TOK_END,
  TOK_INT,
  TOK_IDENT,
  TOK_PUNCT,
} TokKind;

typedef struct
{
  TokKind kind;
  guint start;
  guint end;
  gint64 value;
  char text[8];   /* punctuation */
} Token;

typedef struct
{
  const char *src;
  guint pos;
  Token tok;
  guint depth;
  GError *error;
  guint error_column;
} Parser;

static void
parser_fail (Parser     *p,
             guint       offset,
             WsExprError code,
             const char *format,
             ...) G_GNUC_PRINTF (4, 5);

static void
parser_fail (Parser     *p,
             guint       offset,
             WsExprError code,
             const char *format,
             ...)
{
  g_autofree char *message = NULL;
  va_list args;

  if (p->error != NULL)
    return;
  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  p->error_column = offset + 1;
  /* Translators: where an expression is wrong, then what is wrong:
   * "column 7: unexpected character “$”" */
  p->error = g_error_new (WS_EXPR_ERROR, code, _("column %u: %s"), offset + 1, message);
}

/* A token's text, for "%.*s" */
#define TOKEN_TEXT(p, t) (int) ((t)->end - (t)->start), (p)->src + (t)->start

static const char *puncts2[] = { "<<", ">>", "<=", ">=", "==", "!=", "&&", "||" };
static const char puncts1[] = "()+-*/%&|^~!<>?:,.";

static gboolean
lex (Parser *p)
{
  const char *s = p->src;
  guint i = p->pos;
  Token *t = &p->tok;

  while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')
    i++;
  memset (t, 0, sizeof *t);
  t->start = i;

  if (s[i] == '\0')
    {
      t->kind = TOK_END;
      t->end = i;
      p->pos = i;
      return TRUE;
    }

  if (g_ascii_isdigit (s[i]))
    {
      guint64 value = 0;
      guint base = 10;
      guint digits_start;

      if (s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X'))
        {
          base = 16;
          i += 2;
        }
      else if (s[i] == '0' && g_ascii_isdigit (s[i + 1]))
        {
          parser_fail (p, t->start, WS_EXPR_ERROR_SYNTAX,
                       _("a number with a leading zero is octal in C; write it without the zero, or in hex (0x…)"));
          return FALSE;
        }
      digits_start = i;
      while (g_ascii_isxdigit (s[i]) && (base == 16 || g_ascii_isdigit (s[i])))
        {
          guint d = g_ascii_xdigit_value (s[i]);
          if (value > ((guint64) G_MAXINT64 - d) / base)
            {
              parser_fail (p, t->start, WS_EXPR_ERROR_OVERFLOW,
                           _("the number “%.*s…” does not fit in a signed 64-bit integer"),
                           (int) MIN (i - t->start + 1, 24), s + t->start);
              return FALSE;
            }
          value = value * base + d;
          i++;
        }
      if (i == digits_start)
        {
          parser_fail (p, t->start, WS_EXPR_ERROR_SYNTAX, _("“0x” must be followed by hex digits"));
          return FALSE;
        }
      /* C's long suffixes change nothing here: every value is 64-bit. */
      if (s[i] == 'l' || s[i] == 'L')
        {
          char c = s[i];
          i++;
          if (s[i] == c)
            i++;
        }
      if (g_ascii_isalnum (s[i]) || s[i] == '_')
        {
          parser_fail (p, i, WS_EXPR_ERROR_SYNTAX,
                       _("unexpected “%c” after the number “%.*s” (unsigned and other suffixes are not supported)"),
                       s[i], (int) (i - t->start), s + t->start);
          return FALSE;
        }
      t->kind = TOK_INT;
      t->value = (gint64) value;
      t->end = i;
      p->pos = i;
      return TRUE;
    }

  if (g_ascii_isalpha (s[i]) || s[i] == '_')
    {
      while (g_ascii_isalnum (s[i]) || s[i] == '_')
        i++;
      t->kind = TOK_IDENT;
      t->end = i;
      p->pos = i;
      return TRUE;
    }

  for (guint k = 0; k < G_N_ELEMENTS (puncts2); k++)
    if (s[i] == puncts2[k][0] && s[i + 1] == puncts2[k][1])
      {
        t->kind = TOK_PUNCT;
        memcpy (t->text, puncts2[k], 2);
        t->end = i + 2;
        p->pos = i + 2;
        return TRUE;
      }

  if (strchr (puncts1, s[i]) != NULL)
    {
      t->kind = TOK_PUNCT;
      t->text[0] = s[i];
      t->end = i + 1;
      p->pos = i + 1;
      return TRUE;
    }

  if ((guchar) s[i] >= 0x80)
    parser_fail (p, i, WS_EXPR_ERROR_SYNTAX, _("unexpected non-ASCII character"));
  else if (s[i] == '=')
    parser_fail (p, i, WS_EXPR_ERROR_SYNTAX, _("assignment is not allowed; did you mean “==”?"));
  else if (s[i] == '[' || s[i] == ']')
    parser_fail (p, i, WS_EXPR_ERROR_SYNTAX,
                 _("write only the index: the array and its brackets are implied"));
  else if (g_ascii_iscntrl (s[i]))
    /* Translators: the character's code in hex, as C writes it: \x07 */
    parser_fail (p, i, WS_EXPR_ERROR_SYNTAX, _("unexpected control character \\x%02x"), (guchar) s[i]);
  else
    parser_fail (p, i, WS_EXPR_ERROR_SYNTAX, _("unexpected character “%c”"), s[i]);
  return FALSE;
}

static gboolean
tok_is (const Token *t,
        const char  *punct)
{
  return t->kind == TOK_PUNCT && strcmp (t->text, punct) == 0;
}

/* ------------------------------------------------------------------ */
/* Parser                                                             */
/* ------------------------------------------------------------------ */

static WsExpr *
node_new (WsExprKind kind,
          guint      start,
          guint      end)
{
  WsExpr *e = g_new0 (WsExpr, 1);
  e->kind = kind;
  e->start = start;
  e->end = end;
  e->pos = start;
  e->depth = 1;
  return e;
}

/* Sets the depth of a node from its children's: FALSE and an error if the
 * tree grows deeper than the walks over it may recurse. */
static gboolean
check_depth (Parser *p,
             WsExpr *e)
{
  guint below = 0;

  for (guint i = 0; i < e->op.n_args; i++)
    below = MAX (below, e->op.args[i]->depth);
  e->depth = below + 1;
  if (e->depth <= WS_EXPR_MAX_DEPTH)
    return TRUE;
  parser_fail (p, e->pos, WS_EXPR_ERROR_TOO_DEEP,
               _("the expression is too deep: more than %d operators inside one another "
                 "(in a chain such as a + b + c + …, each operator counts)"), WS_EXPR_MAX_DEPTH);
  return FALSE;
}

static WsExpr *
node_op (WsExprKind kind,
         WsOp       op,
         WsExpr    *a,
         WsExpr    *b,
         WsExpr    *c)
{
  WsExpr *e = node_new (kind, a->start, (c ? c : b ? b : a)->end);
  e->op.op = op;
  e->op.args[0] = a;
  e->op.args[1] = b;
  e->op.args[2] = c;
  e->op.n_args = c ? 3 : b ? 2 : 1;
  return e;
}

static WsExpr *parse_ternary (Parser *p);

static WsExpr *
parse_call (Parser *p,
            WsOp    op,
            guint   start,
            guint   name_len)
{
  guint wanted = op == WS_OP_ABS ? 1 : 2;
  WsExpr *args[2] = { NULL, NULL };
  guint n = 0;
  WsExpr *e;

  if (!tok_is (&p->tok, "("))
    {
      if (wanted == 1)
        parser_fail (p, start, WS_EXPR_ERROR_SYNTAX, _("“%.*s” is a function: write abs(x)"),
                     (int) name_len, p->src + start);
      else
        parser_fail (p, start, WS_EXPR_ERROR_SYNTAX, _("“%.*s” is a function: write min(a, b) or max(a, b)"),
                     (int) name_len, p->src + start);
      return NULL;
    }
  if (!lex (p))
    return NULL;
  for (;;)
    {
      WsExpr *arg;

      if (tok_is (&p->tok, ")") && n == 0)
        break;
      arg = parse_ternary (p);
      if (arg == NULL)
        goto fail;
      if (n >= wanted)
        {
          ws_expr_free (arg);
          parser_fail (p, start, WS_EXPR_ERROR_SYNTAX,
                       g_dngettext (GETTEXT_PACKAGE, "“%.*s” takes %u argument, not more",
                                    "“%.*s” takes %u arguments, not more", wanted),
                       (int) name_len, p->src + start, wanted);
          goto fail;
        }
      args[n++] = arg;
      if (tok_is (&p->tok, ","))
        {
          if (!lex (p))
            goto fail;
          continue;
        }
      break;
    }
  if (!tok_is (&p->tok, ")"))
    {
      if (p->tok.kind == TOK_END)
        parser_fail (p, p->tok.start, WS_EXPR_ERROR_SYNTAX,
                     _("expected “,” or “)” in the arguments of “%.*s” (opened at column %u), "
                       "found the end of the expression"),
                     (int) name_len, p->src + start, start + 1);
      else
        parser_fail (p, p->tok.start, WS_EXPR_ERROR_SYNTAX,
                     /* Translators: the function's name, where its “(” is, and what was found instead */
                     _("expected “,” or “)” in the arguments of “%.*s” (opened at column %u), found “%.*s”"),
                     (int) name_len, p->src + start, start + 1, TOKEN_TEXT (p, &p->tok));
      goto fail;
    }
  if (n != wanted)
    {
      parser_fail (p, start, WS_EXPR_ERROR_SYNTAX,
                   /* Translators: a function's name, how many arguments it takes, and how many it was given */
                   g_dngettext (GETTEXT_PACKAGE, "“%.*s” takes %u argument, found %u",
                                "“%.*s” takes %u arguments, found %u", wanted),
                   (int) name_len, p->src + start, wanted, n);
      goto fail;
    }
  e = node_new (WS_EXPR_CALL, start, p->tok.end);
  e->op.op = op;
  e->op.n_args = n;
  e->op.args[0] = args[0];
  e->op.args[1] = args[1];
  if (!check_depth (p, e) || !lex (p))
    {
      ws_expr_free (e);
      return NULL;
    }
  return e;

fail:
  g_clear_pointer (&args[0], ws_expr_free);
  g_clear_pointer (&args[1], ws_expr_free);
  return NULL;
}

static WsExpr *
parse_identifier (Parser *p)
{
  Token t = p->tok;
  guint len = t.end - t.start;
  const char *name = p->src + t.start;

  if (!lex (p))
    return NULL;

#define IS(word) (len == strlen (word) && strncmp (name, word, len) == 0)
  if (IS ("min"))
    return parse_call (p, WS_OP_MIN, t.start, len);
  if (IS ("max"))
    return parse_call (p, WS_OP_MAX, t.start, len);
  if (IS ("abs"))
    return parse_call (p, WS_OP_ABS, t.start, len);
  if (IS ("lane") || IS ("warp"))
    {
      WsExpr *e = node_new (WS_EXPR_BUILTIN, t.start, t.end);
      e->builtin = IS ("lane") ? WS_BUILTIN_LANE : WS_BUILTIN_WARP;
      return e;
    }
  for (guint k = 0; k < G_N_ELEMENTS (dim_objects); k++)
    if (IS (dim_objects[k]))
      {
        Token comp;
        guint axis;
        WsExpr *e;

        if (!tok_is (&p->tok, "."))
          {
            /* Translators: every %s is the same built-in: threadIdx, blockIdx, blockDim or gridDim */
            parser_fail (p, t.end, WS_EXPR_ERROR_SYNTAX, _("“%s” needs a component: %s.x, %s.y or %s.z"),
                         dim_objects[k], dim_objects[k], dim_objects[k], dim_objects[k]);
            return NULL;
          }
        if (!lex (p))
          return NULL;
        comp = p->tok;
        if (comp.kind != TOK_IDENT || comp.end - comp.start != 1 ||
            strchr ("xyz", p->src[comp.start]) == NULL)
          {
            if (comp.kind == TOK_END)
              parser_fail (p, comp.start, WS_EXPR_ERROR_SYNTAX,
                           _("expected x, y or z after “%s.”, found the end of the expression"), dim_objects[k]);
            else
              parser_fail (p, comp.start, WS_EXPR_ERROR_SYNTAX,
                           _("expected x, y or z after “%s.”, found “%.*s”"), dim_objects[k], TOKEN_TEXT (p, &comp));
            return NULL;
          }
        axis = p->src[comp.start] - 'x';
        e = node_new (WS_EXPR_BUILTIN, t.start, comp.end);
        e->builtin = k * 3 + axis;
        if (!lex (p))
          {
            ws_expr_free (e);
            return NULL;
          }
        return e;
      }
#undef IS

  {
    g_autofree char *ident = g_strndup (name, len);
    WsExpr *e;

    if (len > 64)
      {
        parser_fail (p, t.start, WS_EXPR_ERROR_INVALID_NAME,
                     _("the name “%.20s…” is longer than 64 characters"), ident);
        return NULL;
      }
    if (ws_name_is_reserved (ident))
      {
        parser_fail (p, t.start, WS_EXPR_ERROR_INVALID_NAME,
                     _("“%s” is reserved (a C, C++ or CUDA keyword, built-in or macro, or a name the generated kernel uses)"),
                     ident);
        return NULL;
      }
    if (tok_is (&p->tok, "("))
      {
        parser_fail (p, t.start, WS_EXPR_ERROR_UNKNOWN_NAME,
                     _("unknown function “%s”: the functions are min, max and abs"), ident);
        return NULL;
      }
    e = node_new (WS_EXPR_NAME, t.start, t.end);
    e->name = g_steal_pointer (&ident);
    return e;
  }
}

static WsExpr *
parse_primary (Parser *p)
{
  Token t = p->tok;

  if (t.kind == TOK_INT)
    {
      WsExpr *e = node_new (WS_EXPR_INT, t.start, t.end);
      e->value = t.value;
      if (!lex (p))
        {
          ws_expr_free (e);
          return NULL;
        }
      return e;
    }
  if (t.kind == TOK_IDENT)
    return parse_identifier (p);
  if (tok_is (&t, "("))
    {
      WsExpr *e;

      if (!lex (p))
        return NULL;
      e = parse_ternary (p);
      if (e == NULL)
        return NULL;
      if (!tok_is (&p->tok, ")"))
        {
          if (p->tok.kind == TOK_END)
            parser_fail (p, p->tok.start, WS_EXPR_ERROR_SYNTAX,
                         _("expected “)” to close the “(” at column %u, found the end of the expression"),
                         t.start + 1);
          else
            parser_fail (p, p->tok.start, WS_EXPR_ERROR_SYNTAX,
                         _("expected “)” to close the “(” at column %u, found “%.*s”"), t.start + 1,
                         TOKEN_TEXT (p, &p->tok));
          ws_expr_free (e);
          return NULL;
        }
      if (!lex (p))
        {
          ws_expr_free (e);
          return NULL;
        }
      return e;
    }

  if (t.kind == TOK_END)
    parser_fail (p, t.start, WS_EXPR_ERROR_SYNTAX, _("expected a number, a name or “(”, found the end of the expression"));
  else
    parser_fail (p, t.start, WS_EXPR_ERROR_SYNTAX, _("expected a number, a name or “(”, found “%.*s”"),
                 TOKEN_TEXT (p, &t));
  return NULL;
}

/* After the current "(": "long long )", with any spacing; returns the
 * offset just past the ")" or 0. */
static guint
skip_long_long_cast (const Parser *p)
{
  const char *s = p->src;
  guint i = p->tok.end;

  for (guint word = 0; word < 2; word++)
    {
      while (s[i] == ' ' || s[i] == '\t')
        i++;
      if (strncmp (s + i, "long", 4) != 0 || g_ascii_isalnum (s[i + 4]) || s[i + 4] == '_')
        return 0;
      i += 4;
    }
  while (s[i] == ' ' || s[i] == '\t')
    i++;
  return s[i] == ')' ? i + 1 : 0;
}

static gboolean
is_long_long_cast (const Parser *p)
{
  return skip_long_long_cast (p) != 0;
}

static WsExpr *
parse_unary (Parser *p)
{
  Token t = p->tok;
  WsOp op;
  WsExpr *operand;
  WsExpr *e;

  if (tok_is (&t, "-"))
    op = WS_OP_NEG;
  else if (tok_is (&t, "~"))
    op = WS_OP_BITNOT;
  else if (tok_is (&t, "!"))
    op = WS_OP_NOT;
  else if (tok_is (&t, "(") && is_long_long_cast (p))
    {
      /* every value is a long long already: the cast leaves no node behind */
      p->pos = skip_long_long_cast (p);
      if (!lex (p))
        return NULL;
      if (++p->depth > MAX_DEPTH)
        {
          parser_fail (p, t.start, WS_EXPR_ERROR_TOO_DEEP, _("the expression nests too deeply"));
          return NULL;
        }
      e = parse_unary (p);
      p->depth--;
      return e;
    }
  else if (tok_is (&t, "+"))
    {
      /* unary plus changes nothing, so it leaves no node behind */
      if (!lex (p))
        return NULL;
      if (++p->depth > MAX_DEPTH)
        {
          parser_fail (p, t.start, WS_EXPR_ERROR_TOO_DEEP, _("the expression nests too deeply"));
          return NULL;
        }
      e = parse_unary (p);
      p->depth--;
      return e;
    }
  else
    return parse_primary (p);

  if (!lex (p))
    return NULL;
  if (++p->depth > MAX_DEPTH)
    {
      parser_fail (p, t.start, WS_EXPR_ERROR_TOO_DEEP, _("the expression nests too deeply"));
      return NULL;
    }
  operand = parse_unary (p);
  p->depth--;
  if (operand == NULL)
    return NULL;
  e = node_new (WS_EXPR_UNARY, t.start, operand->end);
  e->op.op = op;
  e->op.n_args = 1;
  e->op.args[0] = operand;
  if (!check_depth (p, e))
    g_clear_pointer (&e, ws_expr_free);
  return e;
}

typedef struct
{
  const char *text;
  WsOp op;
  int prec;
} BinOp;

static const BinOp binops[] = {
  { "||", WS_OP_LOR, 2 },
  { "&&", WS_OP_LAND, 3 },
  { "|", WS_OP_BITOR, 4 },
  { "^", WS_OP_BITXOR, 5 },
  { "&", WS_OP_BITAND, 6 },
  { "==", WS_OP_EQ, 7 }, { "!=", WS_OP_NE, 7 },
  { "<", WS_OP_LT, 8 }, { "<=", WS_OP_LE, 8 }, { ">", WS_OP_GT, 8 }, { ">=", WS_OP_GE, 8 },
  { "<<", WS_OP_SHL, 9 }, { ">>", WS_OP_SHR, 9 },
  { "+", WS_OP_ADD, 10 }, { "-", WS_OP_SUB, 10 },
  { "*", WS_OP_MUL, 11 }, { "/", WS_OP_DIV, 11 }, { "%", WS_OP_MOD, 11 },
};

#define PREC_TERNARY 1
#define PREC_UNARY 12
#define PREC_PRIMARY 13

static const BinOp *
binop_for_token (const Token *t)
{
  if (t->kind != TOK_PUNCT)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (binops); i++)
    if (strcmp (t->text, binops[i].text) == 0)
      return &binops[i];
  return NULL;
}

static int
binop_prec (WsOp op)
{
  for (guint i = 0; i < G_N_ELEMENTS (binops); i++)
    if (binops[i].op == op)
      return binops[i].prec;
  g_assert_not_reached ();
}

static WsExpr *
parse_binary (Parser *p,
              int     min_prec)
{
  WsExpr *lhs;

  if (++p->depth > MAX_DEPTH)
    {
      parser_fail (p, p->tok.start, WS_EXPR_ERROR_TOO_DEEP, _("the expression nests too deeply"));
      return NULL;
    }
  lhs = parse_unary (p);
  while (lhs != NULL)
    {
      const BinOp *b = binop_for_token (&p->tok);
      WsExpr *rhs;

      guint op_pos;

      if (b == NULL || b->prec < min_prec)
        break;
      op_pos = p->tok.start;
      if (!lex (p))
        goto fail;
      rhs = parse_binary (p, b->prec + 1);
      if (rhs == NULL)
        goto fail;
      lhs = node_op (WS_EXPR_BINARY, b->op, lhs, rhs, NULL);
      lhs->pos = op_pos;
      if (!check_depth (p, lhs))
        goto fail;
    }
  p->depth--;
  return lhs;

fail:
  ws_expr_free (lhs);
  p->depth--;
  return NULL;
}

static WsExpr *
parse_ternary (Parser *p)
{
  WsExpr *cond;
  WsExpr *a;
  WsExpr *b;
  WsExpr *e;
  guint question;

  if (++p->depth > MAX_DEPTH)
    {
      parser_fail (p, p->tok.start, WS_EXPR_ERROR_TOO_DEEP, _("the expression nests too deeply"));
      return NULL;
    }
  cond = parse_binary (p, PREC_TERNARY + 1);
  if (cond == NULL || !tok_is (&p->tok, "?"))
    {
      p->depth--;
      return cond;
    }
  question = p->tok.start;
  if (!lex (p))
    goto fail_cond;
  a = parse_ternary (p);
  if (a == NULL)
    goto fail_cond;
  if (!tok_is (&p->tok, ":"))
    {
      if (p->tok.kind == TOK_END)
        parser_fail (p, p->tok.start, WS_EXPR_ERROR_SYNTAX,
                     _("expected “:” for the “?” at column %u, found the end of the expression"), question + 1);
      else
        parser_fail (p, p->tok.start, WS_EXPR_ERROR_SYNTAX,
                     _("expected “:” for the “?” at column %u, found “%.*s”"), question + 1,
                     TOKEN_TEXT (p, &p->tok));
      ws_expr_free (a);
      goto fail_cond;
    }
  if (!lex (p))
    {
      ws_expr_free (a);
      goto fail_cond;
    }
  b = parse_ternary (p);
  if (b == NULL)
    {
      ws_expr_free (a);
      goto fail_cond;
    }
  p->depth--;
  e = node_op (WS_EXPR_TERNARY, WS_OP_SELECT, cond, a, b);
  if (!check_depth (p, e))
    g_clear_pointer (&e, ws_expr_free);
  return e;

fail_cond:
  ws_expr_free (cond);
  p->depth--;
  return NULL;
}

WsExpr *
ws_expr_parse (const char *text,
               guint      *error_column,
               GError    **error)
{
  Parser p = { .src = text };
  WsExpr *e = NULL;

  g_return_val_if_fail (text != NULL, NULL);

  if (error_column)
    *error_column = 0;

  /* positions are guint, and no index needs more */
  if (strlen (text) > WS_EXPR_MAX_LENGTH)
    {
      if (error_column)
        *error_column = WS_EXPR_MAX_LENGTH + 1;
      gsize length = strlen (text);

      g_set_error (error, WS_EXPR_ERROR, WS_EXPR_ERROR_TOO_LONG,
                   /* Translators: the expression's length in bytes, then the most it may have */
                   g_dngettext (GETTEXT_PACKAGE, "the expression is %llu byte long; at most %d are allowed",
                                "the expression is %llu bytes long; at most %d are allowed", length),
                   (unsigned long long) length, WS_EXPR_MAX_LENGTH);
      return NULL;
    }
  if (lex (&p))
    {
      if (p.tok.kind == TOK_END)
        parser_fail (&p, p.tok.start, WS_EXPR_ERROR_SYNTAX, _("the expression is empty"));
      else
        e = parse_ternary (&p);
    }
  if (e != NULL && p.tok.kind != TOK_END)
    {
      parser_fail (&p, p.tok.start, WS_EXPR_ERROR_SYNTAX,
                   _("expected an operator or the end of the expression, found “%.*s”"), TOKEN_TEXT (&p, &p.tok));
      g_clear_pointer (&e, ws_expr_free);
    }
  if (p.error != NULL)
    {
      g_clear_pointer (&e, ws_expr_free);
      if (error_column)
        *error_column = p.error_column;
      g_propagate_error (error, p.error);
      return NULL;
    }
  return e;
}

/* ------------------------------------------------------------------ */
/* Trees                                                              */
/* ------------------------------------------------------------------ */

void
ws_expr_free (WsExpr *expr)
{
  if (expr == NULL)
    return;
  switch (expr->kind)
    {
    case WS_EXPR_NAME:
      g_free (expr->name);
      break;
    case WS_EXPR_UNARY:
    case WS_EXPR_BINARY:
    case WS_EXPR_TERNARY:
    case WS_EXPR_CALL:
      for (guint i = 0; i < expr->op.n_args; i++)
        ws_expr_free (expr->op.args[i]);
      break;
    case WS_EXPR_INT:
    case WS_EXPR_BUILTIN:
    default:
      break;
    }
  g_free (expr);
}

WsExpr *
ws_expr_copy (const WsExpr *expr)
{
  WsExpr *copy;

  if (expr == NULL)
    return NULL;
  copy = g_memdup2 (expr, sizeof *expr);
  switch (expr->kind)
    {
    case WS_EXPR_NAME:
      copy->name = g_strdup (expr->name);
      break;
    case WS_EXPR_UNARY:
    case WS_EXPR_BINARY:
    case WS_EXPR_TERNARY:
    case WS_EXPR_CALL:
      for (guint i = 0; i < expr->op.n_args; i++)
        copy->op.args[i] = ws_expr_copy (expr->op.args[i]);
      break;
    case WS_EXPR_INT:
    case WS_EXPR_BUILTIN:
    default:
      break;
    }
  return copy;
}

gboolean
ws_expr_equal (const WsExpr *a,
               const WsExpr *b)
{
  if (a == b)
    return TRUE;
  if (a == NULL || b == NULL || a->kind != b->kind)
    return FALSE;
  switch (a->kind)
    {
    case WS_EXPR_INT:
      return a->value == b->value;
    case WS_EXPR_NAME:
      return strcmp (a->name, b->name) == 0;
    case WS_EXPR_BUILTIN:
      return a->builtin == b->builtin;
    case WS_EXPR_UNARY:
    case WS_EXPR_BINARY:
    case WS_EXPR_TERNARY:
    case WS_EXPR_CALL:
      if (a->op.op != b->op.op || a->op.n_args != b->op.n_args)
        return FALSE;
      for (guint i = 0; i < a->op.n_args; i++)
        if (!ws_expr_equal (a->op.args[i], b->op.args[i]))
          return FALSE;
      return TRUE;
    default:
      g_assert_not_reached ();
    }
}

void
ws_expr_collect_names (const WsExpr *expr,
                       GPtrArray    *names)
{
  if (expr->kind == WS_EXPR_NAME)
    {
      for (guint i = 0; i < names->len; i++)
        if (strcmp (g_ptr_array_index (names, i), expr->name) == 0)
          return;
      g_ptr_array_add (names, expr->name);
      return;
    }
  if (expr->kind == WS_EXPR_INT || expr->kind == WS_EXPR_BUILTIN)
    return;
  for (guint i = 0; i < expr->op.n_args; i++)
    ws_expr_collect_names (expr->op.args[i], names);
}

guint
ws_expr_get_depth (const WsExpr *expr)
{
  g_return_val_if_fail (expr != NULL, 0);
  return expr->depth;
}

gboolean
ws_expr_uses_builtin (const WsExpr *expr,
                      WsBuiltin     builtin)
{
  if (expr->kind == WS_EXPR_BUILTIN)
    return expr->builtin == builtin;
  if (expr->kind == WS_EXPR_INT || expr->kind == WS_EXPR_NAME)
    return FALSE;
  for (guint i = 0; i < expr->op.n_args; i++)
    if (ws_expr_uses_builtin (expr->op.args[i], builtin))
      return TRUE;
  return FALSE;
}

/* ------------------------------------------------------------------ */
/* Printing                                                           */
/* ------------------------------------------------------------------ */

/* Operators whose C++ result is a bool, not a long long. */
static gboolean
op_is_boolean (WsOp op)
{
  switch (op)
    {
    case WS_OP_LT:
    case WS_OP_LE:
    case WS_OP_GT:
    case WS_OP_GE:
    case WS_OP_EQ:
    case WS_OP_NE:
    case WS_OP_LAND:
    case WS_OP_LOR:
    case WS_OP_NOT:
      return TRUE;
    default:
      return FALSE;
    }
}

static gboolean
needs_cast (const WsExpr *e,
            gboolean      cuda)
{
  return cuda && (e->kind == WS_EXPR_BINARY || e->kind == WS_EXPR_UNARY) && op_is_boolean (e->op.op);
}

static int
node_prec (const WsExpr *e,
           gboolean      cuda)
{
  if (needs_cast (e, cuda))
    return PREC_UNARY;
  switch (e->kind)
    {
    case WS_EXPR_BINARY:
      return binop_prec (e->op.op);
    case WS_EXPR_TERNARY:
      return PREC_TERNARY;
    case WS_EXPR_UNARY:
      return PREC_UNARY;
    case WS_EXPR_INT:
      return e->value < 0 ? PREC_UNARY : PREC_PRIMARY;
    case WS_EXPR_NAME:
    case WS_EXPR_BUILTIN:
    case WS_EXPR_CALL:
    default:
      return PREC_PRIMARY;
    }
}

/* What print_node's `cuda` may be besides FALSE and TRUE: a kernel text of
 * the kernel language (CUDA without the generator's 64-bit copies of the
 * built-ins), and the same for a built-in that must be widened there. */
enum
{
  PRINT_KERNEL = 2,
  PRINT_KERNEL_WIDEN = 3,
};

/* Whether CUDA computes e in unsigned 32 bits: the built-ins and what
 * only they make (lane and warp are 64-bit locals of a kernel text). */
static gboolean
unsigned_32 (const WsExpr *e)
{
  switch (e->kind)
    {
    case WS_EXPR_BUILTIN:
      return e->builtin != WS_BUILTIN_LANE && e->builtin != WS_BUILTIN_WARP;
    case WS_EXPR_UNARY:
    case WS_EXPR_BINARY:
      if (op_is_boolean (e->op.op))
        return FALSE;
      for (guint i = 0; i < e->op.n_args; i++)
        if (!unsigned_32 (e->op.args[i]))
          return FALSE;
      return TRUE;
    case WS_EXPR_INT:
    case WS_EXPR_NAME:
    case WS_EXPR_TERNARY:
    case WS_EXPR_CALL:
    default:
      return FALSE;
    }
}

static void print_node (GString *out, const WsExpr *e, gboolean cuda);

static void
print_child (GString      *out,
             const WsExpr *child,
             int           min_prec,
             gboolean      cuda)
{
  gboolean parens = node_prec (child, cuda) < min_prec;

  if (parens)
    g_string_append_c (out, '(');
  print_node (out, child, cuda);
  if (parens)
    g_string_append_c (out, ')');
}

static void print_plain (GString *out, const WsExpr *e, gboolean cuda);

/* In CUDA, a comparison is a bool: `(a < b) << 40` would shift an int. The
 * cast keeps every value a long long, as the model computes it, and the
 * parser reads it back as nothing. */
static void
print_node (GString      *out,
            const WsExpr *e,
            gboolean      cuda)
{
  if (needs_cast (e, cuda))
    {
      g_string_append (out, "(long long) (");
      print_plain (out, e, cuda);
      g_string_append_c (out, ')');
    }
  else
    print_plain (out, e, cuda);
}

static void
print_plain (GString      *out,
             const WsExpr *e,
             gboolean      cuda)
{
  const char *suffix = cuda ? "LL" : "";

  switch (e->kind)
    {
    case WS_EXPR_INT:
      if (e->value == G_MININT64)
        g_string_append_printf (out, "(-%" G_GINT64_FORMAT "%s - 1%s)", G_MAXINT64, suffix, suffix);
      else if (e->value < 0)
        g_string_append_printf (out, "-%" G_GINT64_FORMAT "%s", -e->value, suffix);
      else
        g_string_append_printf (out, "%" G_GINT64_FORMAT "%s", e->value, suffix);
      break;
    case WS_EXPR_NAME:
      g_string_append (out, e->name);
      break;
    case WS_EXPR_BUILTIN:
      /* threadIdx & co. are unsigned ints in CUDA: where a subtraction, a
       * negation or a shift could wrap them, they become 64-bit first */
      if (cuda == PRINT_KERNEL_WIDEN)
        g_string_append_printf (out, "(long long) %s", builtin_names[e->builtin]);
      else
        g_string_append (out, builtin_names[e->builtin]);
      break;
    case WS_EXPR_UNARY:
      if (cuda >= PRINT_KERNEL)
        cuda = e->op.op == WS_OP_NEG || e->op.op == WS_OP_BITNOT ? PRINT_KERNEL_WIDEN : PRINT_KERNEL;
      g_string_append (out, op_names[e->op.op]);
      /* keep “- -x” from printing as “--x”, a decrement in C */
      print_child (out, e->op.args[0],
                   (e->op.args[0]->kind == WS_EXPR_UNARY && !needs_cast (e->op.args[0], cuda)) ||
                   (e->op.args[0]->kind == WS_EXPR_INT && e->op.args[0]->value < 0)
                     ? PREC_PRIMARY : PREC_UNARY,
                   cuda);
      break;
    case WS_EXPR_BINARY:
      {
        int prec = binop_prec (e->op.op);
        gboolean left = cuda, right = cuda;

        /* a shift has its left operand's type; a difference of unsigned
         * ints wraps unless the other side is 64 bits already */
        if (cuda >= PRINT_KERNEL)
          {
            left = (e->op.op == WS_OP_SHL || (e->op.op == WS_OP_SUB && unsigned_32 (e->op.args[1])))
                     ? PRINT_KERNEL_WIDEN : PRINT_KERNEL;
            right = e->op.op == WS_OP_SUB && unsigned_32 (e->op.args[0]) ? PRINT_KERNEL_WIDEN : PRINT_KERNEL;
          }
        print_child (out, e->op.args[0], prec, left);
        g_string_append_printf (out, " %s ", op_names[e->op.op]);
        print_child (out, e->op.args[1], prec + 1, right);
      }
      break;
    case WS_EXPR_TERNARY:
      if (cuda >= PRINT_KERNEL)
        cuda = PRINT_KERNEL;
      print_child (out, e->op.args[0], PREC_TERNARY + 1, cuda);
      g_string_append (out, " ? ");
      print_child (out, e->op.args[1], PREC_TERNARY, cuda);
      g_string_append (out, " : ");
      print_child (out, e->op.args[2], PREC_TERNARY, cuda);
      break;
    case WS_EXPR_CALL:
      /* min, max and abs of CUDA take both operands in one type: 64 bits */
      if (cuda >= PRINT_KERNEL)
        cuda = PRINT_KERNEL_WIDEN;
      g_string_append (out, op_names[e->op.op]);
      g_string_append_c (out, '(');
      for (guint i = 0; i < e->op.n_args; i++)
        {
          if (i > 0)
            g_string_append (out, ", ");
          print_child (out, e->op.args[i], PREC_TERNARY, cuda);
        }
      g_string_append_c (out, ')');
      break;
    default:
      g_assert_not_reached ();
    }
}

char *
ws_expr_to_string (const WsExpr *expr)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (expr != NULL, NULL);
  print_node (out, expr, FALSE);
  return g_string_free (out, FALSE);
}

/* Valid CUDA C when the kernel declares threadIdx & co. as long long shadows
 * (see ws-codegen), with 64-bit literals so that no sub-expression is
 * evaluated in 32-bit int arithmetic. */
char *
ws_expr_to_kernel_text (const WsExpr *expr)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (expr != NULL, NULL);
  /* a comparison standing alone needs no cast: nothing shifts it */
  print_plain (out, expr, PRINT_KERNEL);
  return g_string_free (out, FALSE);
}

char *
ws_expr_to_cuda (const WsExpr *expr)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (expr != NULL, NULL);
  print_node (out, expr, TRUE);
  return g_string_free (out, FALSE);
}

/* ------------------------------------------------------------------ */
/* Reference evaluation (one thread)                                  */
/* ------------------------------------------------------------------ */

static void
set_eval_error (GError     **error,
                WsExprError  code,
                const WsExpr *node)
{
  g_autofree char *text = ws_expr_to_string (node);
  guint column = node->pos + 1;

  switch (code)
    {
    case WS_EXPR_ERROR_DIVISION_BY_ZERO:
      /* Translators: the part of the expression that failed, as the
       * program writes it, and the column of its operator */
      g_set_error (error, WS_EXPR_ERROR, code, _("division by zero in “%s” (column %u)"), text, column);
      break;
    case WS_EXPR_ERROR_OVERFLOW:
      g_set_error (error, WS_EXPR_ERROR, code, _("64-bit overflow in “%s” (column %u)"), text, column);
      break;
    case WS_EXPR_ERROR_SHIFT:
      g_set_error (error, WS_EXPR_ERROR, code,
                   _("shift of a negative value, or by a negative count or 64 or more in “%s” (column %u)"),
                   text, column);
      break;
    default:
      g_set_error (error, WS_EXPR_ERROR, code, _("error in “%s” (column %u)"), text, column);
      break;
    }
}

static gboolean
eval_node (const WsExpr    *e,
           const WsEvalEnv *env,
           gint64          *value,
           GError         **error)
{
  gint64 a, b;
  WsExprError failed = (WsExprError) -1;

  switch (e->kind)
    {
    case WS_EXPR_INT:
      *value = e->value;
      return TRUE;
    case WS_EXPR_BUILTIN:
      *value = env->builtins[e->builtin];
      return TRUE;
    case WS_EXPR_NAME:
      if (env->lookup == NULL)
        {
          g_set_error (error, WS_EXPR_ERROR, WS_EXPR_ERROR_UNKNOWN_NAME,
                       _("unknown name “%s” (column %u)"), e->name, e->start + 1);
          return FALSE;
        }
      return env->lookup (e->name, env->lookup_data, value, error);
    case WS_EXPR_TERNARY:
      if (!eval_node (e->op.args[0], env, &a, error))
        return FALSE;
      return eval_node (e->op.args[a ? 1 : 2], env, value, error);
    case WS_EXPR_BINARY:
      if (!eval_node (e->op.args[0], env, &a, error))
        return FALSE;
      if (e->op.op == WS_OP_LAND && !a)
        {
          *value = 0;
          return TRUE;
        }
      if (e->op.op == WS_OP_LOR && a)
        {
          *value = 1;
          return TRUE;
        }
      if (!eval_node (e->op.args[1], env, &b, error))
        return FALSE;
      break;
    case WS_EXPR_UNARY:
    case WS_EXPR_CALL:
      if (!eval_node (e->op.args[0], env, &a, error))
        return FALSE;
      b = 0;
      if (e->op.n_args > 1 && !eval_node (e->op.args[1], env, &b, error))
        return FALSE;
      break;
    default:
      g_assert_not_reached ();
    }

  *value = ws_op_apply (e->op.op, a, b, &failed);
  if (failed != (WsExprError) -1)
    {
      set_eval_error (error, failed, e);
      return FALSE;
    }
  return TRUE;
}

gboolean
ws_expr_eval (const WsExpr    *expr,
              const WsEvalEnv *env,
              gint64          *value,
              GError         **error)
{
  g_return_val_if_fail (expr != NULL, FALSE);
  g_return_val_if_fail (env != NULL, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  return eval_node (expr, env, value, error);
}
