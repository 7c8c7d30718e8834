/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CUDA printed from the checked tree, never copied from the text: every
 * name is one the checker accepted, every number is printed from its
 * value, printf's format is decoded and escaped again. What it prints
 * reads back into the same tree (wk_func_equal), and compiles with nvcc.
 * For NVRTC, one kernel is printed as extern "C" under a fixed name, its
 * template parameters as constants, with #line directives so that the
 * compiled kernel's line table points at the user's lines. */
#include "ws-config.h"
#include "ws-kernel-private.h"

#include <math.h>
#include <string.h>

typedef struct
{
  GString *out;
  const WsKernelFile *file;
  const WkPrintOptions *opt;
  guint indent;
  guint last_line;          /* the user's line of the last #line directive */
  gsize last_directive_end;  /* where the output stood after it */
} Printer;

static void print_expr (Printer *p, const WkExpr *e, int min_prec);
static void print_stmt (Printer *p, const WkStmt *s);

/* ------------------------------------------------------------------ */
/* Expressions                                                        */
/* ------------------------------------------------------------------ */

static const WkExpr *
skip_implicit (const WkExpr *e)
{
  while (e != NULL && e->kind == WK_E_IMPLICIT)
    e = e->a;
  return e;
}

static int
prec (const WkExpr *e)
{
  e = skip_implicit (e);
  switch (e->kind)
    {
    case WK_E_BINARY:
      switch (e->op)
        {
        case WK_OP_COMMA: return 0;
        case WK_OP_LOR: return 3;
        case WK_OP_LAND: return 4;
        case WK_OP_BITOR: return 5;
        case WK_OP_BITXOR: return 6;
        case WK_OP_BITAND: return 7;
        case WK_OP_EQ: case WK_OP_NE: return 8;
        case WK_OP_LT: case WK_OP_GT: case WK_OP_LE: case WK_OP_GE: return 9;
        case WK_OP_SHL: case WK_OP_SHR: return 10;
        case WK_OP_ADD: case WK_OP_SUB: return 11;
        default: return 12;
        }
    case WK_E_ASSIGN: return 1;
    case WK_E_COND: return 2;
    case WK_E_UNARY:
      return e->op == WK_OP_POSTINC || e->op == WK_OP_POSTDEC ? 14 : 13;
    case WK_E_CAST:
      return e->cast_style == WK_CAST_C || e->cast_style == WK_CAST_FUNCTIONAL ? 13 : 14;
    case WK_E_SIZEOF: return 13;
    case WK_E_INDEX: case WK_E_CALL: case WK_E_MEMBER: return 14;
    default: return 15;
    }
}

static const char *
binop_text (WkOp op)
{
  switch (op)
    {
    case WK_OP_MUL: return "*";
    case WK_OP_DIV: return "/";
    case WK_OP_MOD: return "%";
    case WK_OP_ADD: return "+";
    case WK_OP_SUB: return "-";
    case WK_OP_SHL: return "<<";
    case WK_OP_SHR: return ">>";
    case WK_OP_LT: return "<";
    case WK_OP_GT: return ">";
    case WK_OP_LE: return "<=";
    case WK_OP_GE: return ">=";
    case WK_OP_EQ: return "==";
    case WK_OP_NE: return "!=";
    case WK_OP_BITAND: return "&";
    case WK_OP_BITXOR: return "^";
    case WK_OP_BITOR: return "|";
    case WK_OP_LAND: return "&&";
    case WK_OP_LOR: return "||";
    case WK_OP_COMMA: return ",";
    default: return "?";
    }
}

static void
print_int (Printer      *p,
           const WkExpr *e)
{
  const char *suffix = "";

  if (e->type->kind == WK_TY_CHAR)
    {
      /* a character literal stays one: its type is char */
      g_string_append_printf (p->out, "'\\%03o'", (guint) (guint8) e->v.u);
      return;
    }
  switch (e->type->kind)
    {
    case WK_TY_UINT: suffix = "u"; break;
    case WK_TY_LONG: suffix = "l"; break;
    case WK_TY_ULONG: suffix = "ul"; break;
    case WK_TY_LLONG: suffix = "ll"; break;
    case WK_TY_ULLONG: suffix = "ull"; break;
    default: break;
    }
  /* literals are never negative: a minus is an operator of its own */
  if (e->type->kind == WK_TY_INT && e->v.u > G_MAXINT32)
    g_string_append_printf (p->out, "%" G_GUINT64_FORMAT "l", e->v.u);
  else if ((e->type->kind == WK_TY_LONG || e->type->kind == WK_TY_LLONG) && e->v.u > G_MAXINT64)
    g_string_append_printf (p->out, "0x%" G_GINT64_MODIFIER "x%s", e->v.u, suffix);
  else
    g_string_append_printf (p->out, "%" G_GUINT64_FORMAT "%s", e->v.u, suffix);
}

static void
print_float (Printer      *p,
             const WkExpr *e)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  gboolean is_float = e->type->kind == WK_TY_FLOAT;

  if (isinf (e->v.f))
    {
      g_string_append (p->out, is_float ? "1e999f" : "1e999");
      return;
    }
  g_ascii_formatd (buf, sizeof buf, is_float ? "%.9g" : "%.17g", e->v.f);
  g_string_append (p->out, buf);
  if (strpbrk (buf, ".eEn") == NULL)
    g_string_append (p->out, ".0");
  if (is_float)
    g_string_append_c (p->out, 'f');
}

/* printf's format: the literal decoded and written again with escapes for
 * everything but plain printable characters. */
static void
print_string (Printer    *p,
              const char *raw)
{
  gboolean in = FALSE;

  for (const char *s = raw; *s; s++)
    {
      if (*s == '"')
        {
          in = !in;
          g_string_append_c (p->out, '"');
          continue;
        }
      if (!in)
        {
          if (*s == ' ')
            g_string_append_c (p->out, ' ');
          continue;
        }
      {
        guint v = (guchar) *s;
        if (*s == '\\' && s[1] != '\0')
          {
            s++;
            switch (*s)
              {
              case 'n': v = '\n'; break;
              case 't': v = '\t'; break;
              case 'r': v = '\r'; break;
              case 'a': v = 7; break;
              case 'b': v = 8; break;
              case 'f': v = 12; break;
              case 'v': v = 11; break;
              case 'x':
                v = 0;
                while (g_ascii_isxdigit (s[1]))
                  v = (v * 16 + (guint) g_ascii_xdigit_value (*++s)) & 0xff;
                break;
              default:
                if (*s >= '0' && *s <= '7')
                  {
                    v = (guint) (*s - '0');
                    for (int k = 0; k < 2 && s[1] >= '0' && s[1] <= '7'; k++)
                      v = (v * 8 + (guint) (*++s - '0')) & 0xff;
                  }
                else
                  v = (guchar) *s;
              }
          }
        if (v >= 0x20 && v < 0x7f && v != '"' && v != '\\' && v != '?')
          g_string_append_c (p->out, (char) v);
        else
          g_string_append_printf (p->out, "\\%03o", v);
      }
    }
}

static void
print_type (Printer      *p,
            const WkType *t)
{
  wk_type_print_decl (p->out, t, NULL);
}

static gboolean
starts_with (const WkExpr *e,
             WkOp          a,
             WkOp          b)
{
  e = skip_implicit (e);
  return e->kind == WK_E_UNARY && (e->op == a || e->op == b);
}

static void
print_args (Printer       *p,
            WkExpr *const *args,
            guint          n)
{
  for (guint i = 0; i < n; i++)
    {
      if (i > 0)
        g_string_append (p->out, ", ");
      print_expr (p, args[i], 1);
    }
}

static void
print_init_list (Printer      *p,
                 const WkExpr *e)
{
  g_string_append (p->out, "{ ");
  for (guint i = 0; i < e->n_args; i++)
    {
      if (i > 0)
        g_string_append (p->out, ", ");
      if (e->args[i]->kind == WK_E_INIT_LIST)
        print_init_list (p, e->args[i]);
      else
        print_expr (p, e->args[i], 1);
    }
  g_string_append (p->out, " }");
}

static void
print_expr_inner (Printer      *p,
                  const WkExpr *e)
{
  switch (e->kind)
    {
    case WK_E_INT:
      print_int (p, e);
      break;
    case WK_E_FLOAT:
      print_float (p, e);
      break;
    case WK_E_BOOL:
      g_string_append (p->out, e->v.u ? "true" : "false");
      break;
    case WK_E_STRING:
      print_string (p, e->name);
      break;
    case WK_E_NAME:
      g_string_append (p->out, e->name);
      break;
    case WK_E_UNARY:
      switch (e->op)
        {
        case WK_OP_POSTINC:
        case WK_OP_POSTDEC:
          print_expr (p, e->a, 14);
          g_string_append (p->out, e->op == WK_OP_POSTINC ? "++" : "--");
          break;
        default:
          {
            const char *t = e->op == WK_OP_NEG ? "-" : e->op == WK_OP_PLUS ? "+" : e->op == WK_OP_BITNOT ? "~" :
                            e->op == WK_OP_LNOT ? "!" : e->op == WK_OP_DEREF ? "*" : e->op == WK_OP_ADDR ? "&" :
                            e->op == WK_OP_PREINC ? "++" : "--";
            g_string_append (p->out, t);
            /* - -x, not --x */
            if ((t[0] == '-' && starts_with (e->a, WK_OP_NEG, WK_OP_PREDEC)) ||
                (t[0] == '+' && starts_with (e->a, WK_OP_PLUS, WK_OP_PREINC)) ||
                (t[0] == '&' && starts_with (e->a, WK_OP_ADDR, WK_OP_ADDR)))
              g_string_append_c (p->out, ' ');
            print_expr (p, e->a, 13);
          }
        }
      break;
    case WK_E_BINARY:
      print_expr (p, e->a, prec (e));
      if (e->op == WK_OP_COMMA)
        g_string_append (p->out, ", ");
      else
        g_string_append_printf (p->out, " %s ", binop_text (e->op));
      print_expr (p, e->b, prec (e) + 1);
      break;
    case WK_E_ASSIGN:
      print_expr (p, e->a, 13);
      g_string_append_printf (p->out, " %s= ", e->op == WK_OP_NONE ? "" : binop_text (e->op));
      print_expr (p, e->b, 1);
      break;
    case WK_E_COND:
      print_expr (p, e->a, 3);
      g_string_append (p->out, " ? ");
      print_expr (p, e->b, 0);
      g_string_append (p->out, " : ");
      print_expr (p, e->c, 1);
      break;
    case WK_E_CALL:
      g_string_append (p->out, e->name);
      if (e->n_targs > 0)
        {
          g_string_append_c (p->out, '<');
          for (guint i = 0; i < e->n_targs; i++)
            {
              if (i > 0)
                g_string_append (p->out, ", ");
              /* inside <…>, a > would close the list */
              print_expr (p, e->targs[i], 15);
            }
          g_string_append_c (p->out, '>');
        }
      g_string_append_c (p->out, '(');
      print_args (p, e->args, e->n_args);
      g_string_append_c (p->out, ')');
      break;
    case WK_E_INDEX:
      print_expr (p, e->a, 14);
      g_string_append_c (p->out, '[');
      print_expr (p, e->b, 0);
      g_string_append_c (p->out, ']');
      break;
    case WK_E_MEMBER:
      if (e->is_arrow)
        {
          print_expr (p, e->a, 14);
          g_string_append (p->out, "->");
        }
      else
        {
          print_expr (p, e->a, 14);
          g_string_append_c (p->out, '.');
        }
      g_string_append (p->out, e->name);
      break;
    case WK_E_CAST:
      switch (e->cast_style)
        {
        case WK_CAST_STATIC:
        case WK_CAST_REINTERPRET:
        case WK_CAST_CONST:
          g_string_append (p->out, e->cast_style == WK_CAST_STATIC ? "static_cast<" :
                                   e->cast_style == WK_CAST_REINTERPRET ? "reinterpret_cast<" : "const_cast<");
          print_type (p, e->cast_type);
          g_string_append (p->out, ">(");
          print_expr (p, e->a, 0);
          g_string_append_c (p->out, ')');
          break;
        default:
          /* T (x) of a type of several words is not C++: always (T) x */
          g_string_append_c (p->out, '(');
          print_type (p, e->cast_type);
          g_string_append (p->out, ") ");
          print_expr (p, e->a, 13);
          break;
        }
      break;
    case WK_E_IMPLICIT:
      print_expr_inner (p, e->a);
      break;
    case WK_E_SIZEOF:
      if (e->a != NULL)
        {
          /* sizeof x, or sizeof (x) as written: the parentheses are the operand's */
          g_string_append (p->out, "sizeof ");
          print_expr (p, e->a, 13);
          break;
        }
      g_string_append (p->out, "sizeof (");
      print_type (p, e->cast_type);
      g_string_append_c (p->out, ')');
      break;
    case WK_E_INIT_LIST:
      print_init_list (p, e);
      break;
    }
}

static void
print_expr (Printer      *p,
            const WkExpr *e,
            int           min_prec)
{
  const WkExpr *x = skip_implicit (e);
  gboolean paren = x->paren || prec (x) < min_prec;

  if (paren)
    g_string_append_c (p->out, '(');
  print_expr_inner (p, x);
  if (paren)
    g_string_append_c (p->out, ')');
}

/* ------------------------------------------------------------------ */
/* Declarations                                                       */
/* ------------------------------------------------------------------ */

/* A type split into what C writes before the name (the base, with its
 * qualifiers) and around it (pointers and array lengths). */
static const WkType *
base_of (const WkType *t)
{
  while (t->kind == WK_TY_ARRAY || t->kind == WK_TY_POINTER)
    t = t->elem;
  return t;
}

static void
print_declarator (Printer      *p,
                  const WkType *t,
                  const char   *name)
{
  const WkType *dims[8];
  guint n_dims = 0;

  while (t->kind == WK_TY_ARRAY && n_dims < G_N_ELEMENTS (dims))
    {
      dims[n_dims++] = t;
      t = t->elem;
    }
  while (t->kind == WK_TY_POINTER)
    {
      g_string_append_c (p->out, '*');
      if (t->quals & WK_Q_CONST)
        g_string_append (p->out, "const ");
      if (t->quals & WK_Q_VOLATILE)
        g_string_append (p->out, "volatile ");
      if (t->quals & WK_Q_RESTRICT)
        g_string_append (p->out, "__restrict__ ");
      t = t->elem;
    }
  g_string_append (p->out, name);
  for (guint i = 0; i < n_dims; i++)
    {
      if (dims[i]->n_expr != NULL)
        {
          g_string_append_c (p->out, '[');
          print_expr (p, dims[i]->n_expr, 0);
          g_string_append_c (p->out, ']');
        }
      else if (dims[i]->n == 0)
        g_string_append (p->out, "[]");
      else
        g_string_append_printf (p->out, "[%" G_GUINT64_FORMAT "]", dims[i]->n);
    }
}

static void
print_base (Printer      *p,
            const WkType *t)
{
  wk_type_print_decl (p->out, base_of (t), NULL);
}

static void
print_decl_one (Printer      *p,
                const WkDecl *d,
                gboolean      with_base)
{
  if (with_base)
    {
      switch (d->storage)
        {
        case WK_STORE_SHARED: g_string_append (p->out, "__shared__ "); break;
        case WK_STORE_EXTERN_SHARED: g_string_append (p->out, "extern __shared__ "); break;
        case WK_STORE_CONSTANT: g_string_append (p->out, "__constant__ "); break;
        case WK_STORE_DEVICE: g_string_append (p->out, "__device__ "); break;
        default: break;
        }
      print_base (p, d->type);
      g_string_append_c (p->out, ' ');
    }
  print_declarator (p, d->type, d->name);
  if (d->init != NULL)
    {
      g_string_append (p->out, " = ");
      if (d->init->kind == WK_E_INIT_LIST)
        print_init_list (p, d->init);
      else
        print_expr (p, d->init, 1);
    }
}

static void
print_decls (Printer       *p,
             WkDecl *const *decls,
             guint          n)
{
  for (guint i = 0; i < n; i++)
    {
      gboolean same = i > 0 && decls[i]->storage == decls[0]->storage &&
                      wk_type_equal (base_of (decls[i]->type), base_of (decls[0]->type), TRUE);
      if (i > 0)
        g_string_append (p->out, same ? ", " : "; ");
      print_decl_one (p, decls[i], !same);
    }
}

/* ------------------------------------------------------------------ */
/* Statements                                                         */
/* ------------------------------------------------------------------ */

static void
newline (Printer *p)
{
  g_string_append_c (p->out, '\n');
}

static void
line_directive (Printer *p,
                guint    offset)
{
  guint line, column;

  if (!p->opt->line_directives)
    return;
  wk_position (p->file->text, p->file->len, offset, &line, &column);
  /* the line the next printed line stands for: the directive's, plus the
   * lines printed since (a statement printed below the one it shares a
   * line with, the body of an if, needs a directive of its own) */
  if (p->last_line != 0)
    {
      guint mapped = p->last_line;

      for (gsize i = p->last_directive_end; i < p->out->len; i++)
        mapped += p->out->str[i] == '\n';
      if (mapped == line)
        return;
    }
  p->last_line = line;
  g_string_append_printf (p->out, "#line %u\n", line);
  p->last_directive_end = p->out->len;
}

static void
start_line (Printer *p,
            guint    offset)
{
  line_directive (p, offset);
  for (guint i = 0; i < p->indent; i++)
    g_string_append (p->out, "  ");
}

static void
print_body (Printer      *p,
            const WkStmt *s)
{
  if (s->kind == WK_S_BLOCK)
    {
      g_string_append_c (p->out, ' ');
      print_stmt (p, s);
    }
  else
    {
      newline (p);
      p->indent++;
      start_line (p, s->start);
      print_stmt (p, s);
      p->indent--;
    }
}

static void
print_pragma (Printer      *p,
              const WkStmt *s)
{
  if (s->unroll == -2)
    return;
  g_string_append (p->out, "#pragma unroll");
  if (s->unroll_expr != NULL)
    {
      g_string_append_c (p->out, ' ');
      print_expr (p, s->unroll_expr, 15);
    }
  else if (s->unroll >= 0)
    g_string_append_printf (p->out, " %d", s->unroll);
  newline (p);
  for (guint i = 0; i < p->indent; i++)
    g_string_append (p->out, "  ");
}

static void
print_stmt (Printer      *p,
            const WkStmt *s)
{
  switch (s->kind)
    {
    case WK_S_BLOCK:
      g_string_append (p->out, "{");
      newline (p);
      p->indent++;
      for (guint i = 0; i < s->n_list; i++)
        {
          const WkStmt *x = s->list[i];
          if (x->kind == WK_S_CASE)
            p->indent--;
          start_line (p, x->start);
          print_stmt (p, x);
          newline (p);
          if (x->kind == WK_S_CASE)
            p->indent++;
        }
      p->indent--;
      for (guint i = 0; i < p->indent; i++)
        g_string_append (p->out, "  ");
      g_string_append (p->out, "}");
      break;
    case WK_S_DECL:
      print_decls (p, s->decls, s->n_decls);
      g_string_append_c (p->out, ';');
      break;
    case WK_S_EXPR:
      print_expr (p, s->e, 0);
      g_string_append_c (p->out, ';');
      break;
    case WK_S_IF:
      g_string_append (p->out, "if (");
      print_expr (p, s->e, 0);
      g_string_append_c (p->out, ')');
      print_body (p, s->body);
      if (s->els != NULL)
        {
          newline (p);
          start_line (p, s->els->start);
          g_string_append (p->out, "else");
          if (s->els->kind == WK_S_IF)
            {
              g_string_append_c (p->out, ' ');
              print_stmt (p, s->els);
            }
          else
            print_body (p, s->els);
        }
      break;
    case WK_S_FOR:
      print_pragma (p, s);
      g_string_append (p->out, "for (");
      if (s->init != NULL)
        print_stmt (p, s->init);
      else
        g_string_append_c (p->out, ';');
      if (s->e != NULL)
        {
          g_string_append_c (p->out, ' ');
          print_expr (p, s->e, 0);
        }
      g_string_append_c (p->out, ';');
      if (s->inc != NULL)
        {
          g_string_append_c (p->out, ' ');
          print_expr (p, s->inc, 0);
        }
      g_string_append_c (p->out, ')');
      print_body (p, s->body);
      break;
    case WK_S_WHILE:
      print_pragma (p, s);
      g_string_append (p->out, "while (");
      print_expr (p, s->e, 0);
      g_string_append_c (p->out, ')');
      print_body (p, s->body);
      break;
    case WK_S_DO:
      print_pragma (p, s);
      g_string_append (p->out, "do");
      print_body (p, s->body);
      g_string_append (p->out, " while (");
      print_expr (p, s->e, 0);
      g_string_append (p->out, ");");
      break;
    case WK_S_BREAK:
      g_string_append (p->out, "break;");
      break;
    case WK_S_CONTINUE:
      g_string_append (p->out, "continue;");
      break;
    case WK_S_RETURN:
      g_string_append (p->out, "return");
      if (s->e != NULL)
        {
          g_string_append_c (p->out, ' ');
          if (s->e->kind == WK_E_INIT_LIST)
            print_init_list (p, s->e);
          else
            print_expr (p, s->e, 0);
        }
      g_string_append_c (p->out, ';');
      break;
    case WK_S_EMPTY:
      g_string_append_c (p->out, ';');
      break;
    case WK_S_SWITCH:
      g_string_append (p->out, "switch (");
      print_expr (p, s->e, 0);
      g_string_append (p->out, ") ");
      print_stmt (p, s->body);
      break;
    case WK_S_CASE:
      if (s->e != NULL)
        {
          g_string_append (p->out, "case ");
          print_expr (p, s->e, 2);
          g_string_append_c (p->out, ':');
        }
      else
        g_string_append (p->out, "default:");
      break;
    }
}

/* ------------------------------------------------------------------ */
/* The file                                                           */
/* ------------------------------------------------------------------ */

static void
print_struct (Printer        *p,
              const WkStruct *st)
{
  g_string_append (p->out, "struct ");
  if (st->explicit_align)
    g_string_append_printf (p->out, "__align__(%u) ", st->explicit_align);
  g_string_append_printf (p->out, "%s\n{\n", st->name);
  for (guint i = 0; i < st->n_fields; i++)
    {
      g_string_append (p->out, "  ");
      print_base (p, st->fields[i].type);
      g_string_append_c (p->out, ' ');
      print_declarator (p, st->fields[i].type, st->fields[i].name);
      g_string_append (p->out, ";\n");
    }
  g_string_append (p->out, "};\n\n");
}

static void
print_params (Printer      *p,
              const WkFunc *f)
{
  g_string_append_c (p->out, '(');
  for (guint i = 0; i < f->n_params; i++)
    {
      if (i > 0)
        g_string_append (p->out, ", ");
      print_base (p, f->params[i]->type);
      g_string_append_c (p->out, ' ');
      print_declarator (p, f->params[i]->type, f->params[i]->name);
    }
  g_string_append_c (p->out, ')');
}

static void
print_function (Printer      *p,
                const WkFunc *f)
{
  gboolean instance = p->opt->kernel != NULL && f == p->opt->kernel;

  guint n_types = wk_func_awaits_types (f) ? f->n_type_params : 0;

  if ((f->n_tparams > 0 || n_types > 0) && !instance)
    {
      /* the types not given yet first: a call gives only the integers */
      g_string_append (p->out, "template <");
      for (guint i = 0; i < n_types; i++)
        g_string_append_printf (p->out, "%stypename %s", i > 0 ? ", " : "", f->type_params[i].name);
      for (guint i = 0; i < f->n_tparams; i++)
        {
          if (i > 0 || n_types > 0)
            g_string_append (p->out, ", ");
          print_type (p, f->tparams[i].type);
          g_string_append_printf (p->out, " %s", f->tparams[i].name);
        }
      g_string_append (p->out, ">\n");
    }
  line_directive (p, f->start);
  if (instance || f->is_extern_c)
    g_string_append (p->out, "extern \"C\" ");
  g_string_append (p->out, f->is_kernel ? "__global__ " : "__device__ ");
  if (f->force_inline)
    g_string_append (p->out, "__forceinline__ ");
  if (f->launch_bounds[0] != NULL)
    {
      g_string_append (p->out, "__launch_bounds__(");
      print_expr (p, f->launch_bounds[0], 1);
      if (f->launch_bounds[1] != NULL)
        {
          g_string_append (p->out, ", ");
          print_expr (p, f->launch_bounds[1], 1);
        }
      g_string_append (p->out, ") ");
    }
  print_type (p, f->ret);
  g_string_append_c (p->out, ' ');
  g_string_append (p->out, instance ? p->opt->kernel_name : f->name);
  print_params (p, f);
  newline (p);
  g_string_append (p->out, "{\n");
  p->indent = 1;
  if (instance)
    for (guint i = 0; i < f->n_tparams; i++)
      {
        const WkConst *v = p->opt->template_values ?
                           g_hash_table_lookup (p->opt->template_values, f->tparams[i].sym) : NULL;
        g_string_append (p->out, "  constexpr ");
        print_type (p, f->tparams[i].type);
        if (v != NULL && wk_type_is_signed (f->tparams[i].type))
          g_string_append_printf (p->out, " %s = %" G_GINT64_FORMAT ";\n", f->tparams[i].name, v->v.i);
        else if (v != NULL)
          g_string_append_printf (p->out, " %s = %" G_GUINT64_FORMAT "u;\n", f->tparams[i].name, v->v.u);
        else
          g_string_append_printf (p->out, " %s = 0;\n", f->tparams[i].name);
      }
  for (guint i = 0; i < f->body->n_list; i++)
    {
      const WkStmt *x = f->body->list[i];
      start_line (p, x->start);
      print_stmt (p, x);
      newline (p);
    }
  p->indent = 0;
  g_string_append (p->out, "}\n\n");
}

static void
print_global (Printer      *p,
              const WkDecl *d)
{
  if (d->storage == WK_STORE_CONST_VALUE)
    {
      g_string_append (p->out, "const ");
      print_type (p, WK_TYPE (d->type->kind));
      g_string_append_printf (p->out, " %s = ", d->name);
      print_expr (p, d->init, 1);
      g_string_append (p->out, ";\n");
      return;
    }
  print_decl_one (p, d, TRUE);
  g_string_append (p->out, ";\n");
}

static gboolean
expr_uses_printf (const WkExpr *e)
{
  if (e == NULL)
    return FALSE;
  if (e->kind == WK_E_CALL && e->builtin == WK_BF_PRINTF && e->sym == NULL)
    return TRUE;
  if (expr_uses_printf (e->a) || expr_uses_printf (e->b) || expr_uses_printf (e->c))
    return TRUE;
  for (guint i = 0; i < e->n_args; i++)
    if (expr_uses_printf (e->args[i]))
      return TRUE;
  return FALSE;
}

static gboolean
stmt_uses_printf (const WkStmt *s)
{
  if (s == NULL)
    return FALSE;
  if (expr_uses_printf (s->e) || expr_uses_printf (s->inc) || stmt_uses_printf (s->init) ||
      stmt_uses_printf (s->body) || stmt_uses_printf (s->els))
    return TRUE;
  for (guint i = 0; i < s->n_list; i++)
    if (stmt_uses_printf (s->list[i]))
      return TRUE;
  for (guint i = 0; i < s->n_decls; i++)
    if (expr_uses_printf (s->decls[i]->init))
      return TRUE;
  return FALSE;
}

static gboolean
uses_printf (const WsKernelFile *file)
{
  for (guint i = 0; i < file->funcs->len; i++)
    if (stmt_uses_printf (((WkFunc *) g_ptr_array_index (file->funcs, i))->body))
      return TRUE;
  return FALSE;
}

char *
wk_print_file (const WsKernelFile   *file,
               const WkPrintOptions *options)
{
  Printer p = { 0 };

  p.out = g_string_new (NULL);
  p.file = file;
  p.opt = options;
  /* nvcc declares printf in stdio.h; NVRTC has it built in */
  if (uses_printf (file))
    g_string_append (p.out, "#if !defined(__CUDACC_RTC__)\n#include <cstdio>\n#endif\n");
  for (guint i = 0; i < file->tops->len; i++)
    {
      const WkTop *top = g_ptr_array_index (file->tops, i);

      switch (top->kind)
        {
        case WK_TOP_STRUCT:
          print_struct (&p, top->st);
          break;
        case WK_TOP_DECL:
          print_global (&p, top->decl);
          break;
        case WK_TOP_FUNC:
          if (options->kernel != NULL && top->func->is_kernel && top->func != options->kernel)
            break;
          newline (&p);
          print_function (&p, top->func);
          break;
        }
    }
  return g_string_free (p.out, FALSE);
}

/* ------------------------------------------------------------------ */
/* Equality                                                           */
/* ------------------------------------------------------------------ */

static gboolean stmt_equal (const WkStmt *a, const WkStmt *b);

static gboolean
same_cast_style (int a,
                 int b)
{
  if (a == WK_CAST_FUNCTIONAL)
    a = WK_CAST_C;
  if (b == WK_CAST_FUNCTIONAL)
    b = WK_CAST_C;
  return a == b;
}

gboolean
wk_expr_equal (const WkExpr *a,
               const WkExpr *b)
{
  if (a == NULL || b == NULL)
    return a == b;
  if (a->kind != b->kind || a->op != b->op || a->n_args != b->n_args || a->n_targs != b->n_targs ||
      a->is_arrow != b->is_arrow || a->member != b->member || a->builtin != b->builtin)
    return FALSE;
  if ((a->type == NULL) != (b->type == NULL) || (a->type && !wk_type_equal (a->type, b->type, TRUE)))
    return FALSE;
  switch (a->kind)
    {
    case WK_E_INT:
    case WK_E_BOOL:
    case WK_E_SIZEOF:
      if (a->v.u != b->v.u)
        return FALSE;
      break;
    case WK_E_FLOAT:
      if (memcmp (&a->v.f, &b->v.f, sizeof (double)) != 0)
        return FALSE;
      break;
    case WK_E_CAST:
      if (!same_cast_style (a->cast_style, b->cast_style) || !wk_type_equal (a->cast_type, b->cast_type, TRUE))
        return FALSE;
      break;
    default:
      break;
    }
  if (a->kind != WK_E_STRING && g_strcmp0 (a->name, b->name) != 0)
    return FALSE;
  if (!wk_expr_equal (a->a, b->a) || !wk_expr_equal (a->b, b->b) || !wk_expr_equal (a->c, b->c))
    return FALSE;
  for (guint i = 0; i < a->n_args; i++)
    if (!wk_expr_equal (a->args[i], b->args[i]))
      return FALSE;
  for (guint i = 0; i < a->n_targs; i++)
    if (!wk_expr_equal (a->targs[i], b->targs[i]))
      return FALSE;
  return TRUE;
}

static gboolean
decl_equal (const WkDecl *a,
            const WkDecl *b)
{
  return strcmp (a->name, b->name) == 0 && a->storage == b->storage && wk_type_equal (a->type, b->type, TRUE) &&
         wk_expr_equal (a->init, b->init);
}

static gboolean
stmt_equal (const WkStmt *a,
            const WkStmt *b)
{
  if (a == NULL || b == NULL)
    return a == b;
  if (a->kind != b->kind || a->n_list != b->n_list || a->n_decls != b->n_decls || a->unroll != b->unroll ||
      a->case_value != b->case_value)
    return FALSE;
  if (!wk_expr_equal (a->e, b->e) || !wk_expr_equal (a->inc, b->inc) || !wk_expr_equal (a->unroll_expr, b->unroll_expr))
    return FALSE;
  if (!stmt_equal (a->init, b->init) || !stmt_equal (a->body, b->body) || !stmt_equal (a->els, b->els))
    return FALSE;
  for (guint i = 0; i < a->n_list; i++)
    if (!stmt_equal (a->list[i], b->list[i]))
      return FALSE;
  for (guint i = 0; i < a->n_decls; i++)
    if (!decl_equal (a->decls[i], b->decls[i]))
      return FALSE;
  return TRUE;
}

gboolean
wk_func_equal (const WkFunc *a,
               const WkFunc *b)
{
  if (strcmp (a->name, b->name) != 0 || a->is_kernel != b->is_kernel || a->n_params != b->n_params ||
      a->n_tparams != b->n_tparams || !wk_type_equal (a->ret, b->ret, TRUE) || a->force_inline != b->force_inline)
    return FALSE;
  for (guint i = 0; i < a->n_params; i++)
    if (!decl_equal (a->params[i], b->params[i]))
      return FALSE;
  for (guint i = 0; i < a->n_tparams; i++)
    if (strcmp (a->tparams[i].name, b->tparams[i].name) != 0 ||
        !wk_type_equal (a->tparams[i].type, b->tparams[i].type, TRUE))
      return FALSE;
  for (guint i = 0; i < 2; i++)
    if (!wk_expr_equal (a->launch_bounds[i], b->launch_bounds[i]))
      return FALSE;
  return stmt_equal (a->body, b->body);
}
