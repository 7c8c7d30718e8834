/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What host code says of the launches. A program pasted whole from a blog
 * or a book launches its kernel in main:
 *
 *   const int nx = 1024;
 *   dim3 dimGrid (nx / TILE_DIM, nx / TILE_DIM, 1);
 *   dim3 dimBlock (TILE_DIM, BLOCK_ROWS, 1);
 *   transposeCoalesced<<<dimGrid, dimBlock>>>(d_odata, d_idata);
 *
 * The parser skips host code; as it does, this notes the values host
 * declarations and assignments give names (in the order of the text, each
 * with the host function it is in) and each launch: its kernel, the texts
 * of its grid, block and shared bytes, and of its arguments. Nothing here
 * is evaluated or checked: ws-kernel-config.c does that for the one launch
 * it takes, and says why when it cannot. */
#include "ws-kernel-parse-private.h"

#include <string.h>

static const char *type_words[] = {
  "int", "unsigned", "signed", "long", "short", "char", "bool", "float", "double", "size_t", "auto",
  "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t",
};

static gboolean
is_type_word (const WkToken *t)
{
  if (t->kind != WK_TOK_IDENT)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (type_words); i++)
    if (is_word (t, type_words[i]))
      return TRUE;
  return FALSE;
}

static gboolean
is_p (const Parser *p,
      guint         i,
      guint         last,
      WkPunct       punct)
{
  return i < last && is_punct (&p->toks[i], punct);
}

/* The first token at or after i, before last, that ends what starts at i:
 * a closing bracket it did not open, or (where separators) a comma or a
 * semicolon (or stop, if not none) outside brackets; last if none does. */
static guint
scan_to_end (const Parser *p,
             guint         i,
             guint         last,
             gboolean      separators,
             WkPunct       stop)
{
  guint depth = 0;

  for (; i < last; i++)
    {
      const WkToken *t = &p->toks[i];

      if (t->kind != WK_TOK_PUNCT)
        continue;
      if (t->punct == WK_P_LPAREN || t->punct == WK_P_LBRACKET || t->punct == WK_P_LBRACE)
        depth++;
      else if (t->punct == WK_P_RPAREN || t->punct == WK_P_RBRACKET || t->punct == WK_P_RBRACE)
        {
          if (depth == 0)
            return i;
          depth--;
        }
      else if (separators && depth == 0 &&
               (t->punct == WK_P_COMMA || t->punct == WK_P_SEMI || t->punct == stop))
        return i;
    }
  return last;
}

static guint
end_of_value (const Parser *p,
              guint         i,
              guint         last,
              WkPunct       stop)
{
  return scan_to_end (p, i, last, TRUE, stop);
}

/* The matching closing bracket of the one at i, or last. */
static guint
closing (const Parser *p,
         guint         i,
         guint         last)
{
  return scan_to_end (p, i + 1, last, FALSE, WK_P_NONE);
}

static void
add_value (Parser         *p,
           const WkToken  *name,
           WkHostValueKind kind,
           guint           from,
           guint           to,
           guint           func)
{
  WkHostValue v = { 0 };

  v.name = wk_arena_strndup (p->arena, name->text, name->len);
  v.kind = kind;
  /* tokens from..to-1, as the file has them */
  v.start = from < to ? p->toks[from].start : name->end;
  v.end = from < to ? p->toks[to - 1].end : name->end;
  v.func = func;
  g_array_append_val (p->file->host_values, v);
}

/* How far a launch's configuration and its arguments are looked for: a
 * text of many “x<<<” that never close would otherwise be read to its end
 * from each of them. */
#define MAX_CONFIG_TOKENS 256
#define MAX_ARGS_TOKENS 2048

/* The template arguments of K<a, b> at i (the “<”): the index of their
 * closing “>”, or 0 where there is none close by (a comparison, a shift). */
static guint
template_close (const Parser *p,
                guint         i,
                guint         last)
{
  guint angles = 1, brackets = 0;

  for (guint k = i + 1; k < last && k < i + MAX_CONFIG_TOKENS; k++)
    {
      const WkToken *t = &p->toks[k];

      if (t->kind != WK_TOK_PUNCT)
        continue;
      if (t->punct == WK_P_LPAREN || t->punct == WK_P_LBRACKET)
        brackets++;
      else if (t->punct == WK_P_RPAREN || t->punct == WK_P_RBRACKET)
        {
          if (brackets == 0)
            return 0;
          brackets--;
        }
      else if (brackets > 0)
        continue;
      else if (t->punct == WK_P_LT)
        angles++;
      else if (t->punct == WK_P_GT && --angles == 0)
        return k;
      else if (t->punct == WK_P_SEMI || t->punct == WK_P_LBRACE || t->punct == WK_P_RBRACE ||
               t->punct == WK_P_SHR || t->punct == WK_P_SHL)
        return 0;
    }
  return 0;
}

/* K<<<grid, block[, shared[, stream]]>>>(args), or K<targs><<<…>>>(args)
 * with the template arguments' “<” at targs (else 0) and their “>” at i:
 * the lexer reads <<< as << and <, and >>> as >> and >. Where it is one,
 * the index after it. */
static guint
launch_at (Parser *p,
           guint   name,
           guint   targs,
           guint   i,
           guint   last,
           guint   func)
{
  WkHostLaunch l = { 0 };
  guint k = i + 3, close, args_end;
  guint config_last = MIN (last, i + 3 + MAX_CONFIG_TOKENS), args_last;

  if (!(is_p (p, i + 1, last, WK_P_SHL) && is_p (p, i + 2, last, WK_P_LT)))
    return i;
  /* the configuration: values up to >> > at depth 0 */
  for (;;)
    {
      guint e = end_of_value (p, k, config_last, WK_P_SHR);

      if (e >= config_last || l.n_config == 4)
        return i;
      l.config_start[l.n_config] = k < e ? p->toks[k].start : p->toks[e].start;
      l.config_end[l.n_config] = k < e ? p->toks[e - 1].end : p->toks[e].start;
      l.n_config++;
      if (is_punct (&p->toks[e], WK_P_SHR))
        {
          close = e;
          break;
        }
      if (!is_punct (&p->toks[e], WK_P_COMMA))
        return i;
      k = e + 1;
    }
  if (!(is_p (p, close + 1, last, WK_P_GT) && is_p (p, close + 2, last, WK_P_LPAREN)))
    return i;
  args_last = MIN (last, close + 2 + MAX_ARGS_TOKENS);
  args_end = closing (p, close + 2, args_last);
  if (args_end >= args_last)
    return i;
  k = close + 3;
  while (k < args_end)
    {
      guint e = end_of_value (p, k, args_end, WK_P_NONE);

      if (l.n_args == WK_HOST_LAUNCH_MAX_ARGS)
        return args_end + 1;
      l.arg_start[l.n_args] = k < e ? p->toks[k].start : p->toks[e].start;
      l.arg_end[l.n_args] = k < e ? p->toks[e - 1].end : p->toks[e].start;
      l.n_args++;
      k = e + 1;
    }
  /* the template arguments, values up to the “>” at i at depth 0 */
  for (k = targs + 1; targs != 0 && k < i;)
    {
      guint e = k, angles = 0;

      for (; e < i; e++)
        {
          const WkToken *t = &p->toks[e];
          if (t->kind != WK_TOK_PUNCT)
            continue;
          if (t->punct == WK_P_LPAREN || t->punct == WK_P_LBRACKET || t->punct == WK_P_LT)
            angles++;
          else if ((t->punct == WK_P_RPAREN || t->punct == WK_P_RBRACKET || t->punct == WK_P_GT) && angles > 0)
            angles--;
          else if (t->punct == WK_P_COMMA && angles == 0)
            break;
        }
      if (l.n_targs == WK_HOST_LAUNCH_MAX_TARGS || e == k)
        return args_end + 1;
      l.targ_start[l.n_targs] = p->toks[k].start;
      l.targ_end[l.n_targs] = p->toks[e - 1].end;
      l.n_targs++;
      k = e + 1;
    }
  l.kernel = wk_arena_strndup (p->arena, p->toks[name].text, p->toks[name].len);
  l.start = p->toks[name].start;
  l.end = p->toks[args_end].end;
  l.func = func;
  l.n_values = p->file->host_values->len;
  g_array_append_val (p->file->host_launches, l);
  return args_end + 1;
}

/* dim3 a (x, y), b = dim3 (x), c = {x, y, z}, d = n, e;  Where it is one,
 * the index after its last name's value. */
static guint
dim3_at (Parser *p,
         guint   i,
         guint   last,
         guint   func)
{
  guint k = i + 1;

  while (k < last && p->toks[k].kind == WK_TOK_IDENT)
    {
      const WkToken *name = &p->toks[k];
      guint e;

      k++;
      if (is_p (p, k, last, WK_P_ASSIGN))
        {
          k++;
          if (k + 1 < last && is_word (&p->toks[k], "dim3") &&
              (is_punct (&p->toks[k + 1], WK_P_LPAREN) || is_punct (&p->toks[k + 1], WK_P_LBRACE)))
            k++;
        }
      if (is_p (p, k, last, WK_P_LPAREN) || is_p (p, k, last, WK_P_LBRACE))
        {
          e = closing (p, k, last);
          add_value (p, name, WK_HOST_DIM3, k + 1, e, func);
          k = e + 1;
        }
      else if (is_p (p, k, last, WK_P_COMMA) || is_p (p, k, last, WK_P_SEMI))
        add_value (p, name, WK_HOST_DIM3, k, k, func);
      else
        {
          e = end_of_value (p, k, last, WK_P_NONE);
          add_value (p, name, WK_HOST_SCALAR, k, e, func);
          k = e;
        }
      if (!is_p (p, k, last, WK_P_COMMA))
        break;
      k++;
    }
  return k;
}

static const char *not_callees[] = {
  "if", "for", "while", "switch", "return", "sizeof", "catch", "do", "else", "new", "delete", "throw",
  "decltype", "alignof", "static_assert", "defined",
};

/* f (args) or f<targs> (args) at i, the name's token, with the template
 * arguments' “<” at targs (else 0) and the “(” at open: noted as a call. */
static void
call_at (Parser *p,
         guint   i,
         guint   targs,
         guint   close_targs,
         guint   open,
         guint   last,
         guint   func)
{
  WkHostCall c = { 0 };
  guint args_last = MIN (last, open + MAX_ARGS_TOKENS), args_end, k;

  for (guint n = 0; n < G_N_ELEMENTS (not_callees); n++)
    if (is_word (&p->toks[i], not_callees[n]))
      return;
  if (is_type_word (&p->toks[i]))
    return;
  args_end = closing (p, open, args_last);
  if (args_end >= args_last)
    return;
  for (k = open + 1; k < args_end;)
    {
      guint e = end_of_value (p, k, args_end, WK_P_NONE);

      if (c.n_args == WK_HOST_CALL_MAX_ARGS)
        return;
      c.arg_start[c.n_args] = k < e ? p->toks[k].start : p->toks[e].start;
      c.arg_end[c.n_args] = k < e ? p->toks[e - 1].end : p->toks[e].start;
      c.n_args++;
      k = e + 1;
    }
  for (k = targs + 1; targs != 0 && k < close_targs;)
    {
      guint e = end_of_value (p, k, close_targs, WK_P_NONE);

      if (c.n_targs == WK_HOST_LAUNCH_MAX_TARGS || e == k)
        return;
      c.targ_start[c.n_targs] = p->toks[k].start;
      c.targ_end[c.n_targs] = p->toks[e - 1].end;
      c.n_targs++;
      k = e + 1;
    }
  c.name = wk_arena_strndup (p->arena, p->toks[i].text, p->toks[i].len);
  c.func = func;
  c.start = p->toks[i].start;
  c.end = p->toks[args_end].end;
  c.n_values = p->file->host_values->len;
  g_array_append_val (p->file->host_calls, c);
}

/* A host function's name, and its template's type parameters
 * (template <typename U, class V>), from its head: first .. the “{”. */
static void
host_func_at (Parser *p,
              guint   first,
              guint   last,
              guint   func)
{
  WkHostFunc f = { 0 };
  guint depth = 0, i = first;

  f.func = func;
  f.start = p->toks[first].start;
  f.end = last > first ? p->toks[last - 1].end : f.start;
  if (i + 1 < last && is_word (&p->toks[i], "template") && is_punct (&p->toks[i + 1], WK_P_LT))
    {
      for (i += 2; i + 1 < last && !is_punct (&p->toks[i], WK_P_GT); i++)
        if ((is_word (&p->toks[i], "typename") || is_word (&p->toks[i], "class")) &&
            p->toks[i + 1].kind == WK_TOK_IDENT && f.n_tparams < WK_HOST_FUNC_MAX_TPARAMS)
          f.tparams[f.n_tparams++] = wk_arena_strndup (p->arena, p->toks[i + 1].text, p->toks[i + 1].len);
    }
  for (; i < last; i++)
    {
      const WkToken *t = &p->toks[i];
      if (is_punct (t, WK_P_LBRACE))
        break;
      if (depth == 0 && is_punct (t, WK_P_LPAREN) && i > first && p->toks[i - 1].kind == WK_TOK_IDENT)
        {
          f.name = wk_arena_strndup (p->arena, p->toks[i - 1].text, p->toks[i - 1].len);
          break;
        }
      if (is_punct (t, WK_P_LT))
        depth++;
      else if (is_punct (t, WK_P_GT) && depth > 0)
        depth--;
    }
  if (f.name != NULL)
    g_array_append_val (p->file->host_funcs, f);
}

void
wkp_record_host (Parser  *p,
                 guint    first,
                 guint    last,
                 gboolean function)
{
  guint func = function ? ++p->host_funcs : 0;
  guint i = first;

  if (p->fragment)
    return;
  /* a function's values are those of its body, not of its head */
  if (function)
    {
      host_func_at (p, first, last, func);
      while (i < last && !is_punct (&p->toks[i], WK_P_LBRACE))
        {
          /* a parameter's name: known only when the function is called */
          if (p->toks[i].kind == WK_TOK_IDENT && i > first && i + 1 < last &&
              (is_punct (&p->toks[i + 1], WK_P_COMMA) || is_punct (&p->toks[i + 1], WK_P_RPAREN) ||
               is_punct (&p->toks[i + 1], WK_P_LBRACKET)) &&
              (p->toks[i - 1].kind == WK_TOK_IDENT || is_punct (&p->toks[i - 1], WK_P_STAR) ||
               is_punct (&p->toks[i - 1], WK_P_AMP)))
            add_value (p, &p->toks[i], WK_HOST_PARAM, i, i, func);
          i++;
        }
    }
  while (i < last)
    {
      const WkToken *t = &p->toks[i];
      const WkToken *prev = i > first ? &p->toks[i - 1] : NULL;

      if (t->kind != WK_TOK_IDENT || t->from_macro)
        {
          i++;
          continue;
        }
      if (is_p (p, i + 1, last, WK_P_SHL))
        {
          guint next = launch_at (p, i, 0, i, last, func);
          i = next > i ? next : i + 1;
          continue;
        }
      if (is_p (p, i + 1, last, WK_P_LT))
        {
          guint close = template_close (p, i + 1, last);
          guint next = close != 0 ? launch_at (p, i, i + 1, close, last, func) : 0;

          if (next > close && close != 0)
            {
              i = next;
              continue;
            }
          /* f<float> (a, b): a call of a host template */
          if (close != 0 && is_p (p, close + 1, last, WK_P_LPAREN) &&
              (prev == NULL || !(is_punct (prev, WK_P_DOT) || is_punct (prev, WK_P_ARROW) ||
                                 is_punct (prev, WK_P_COLONCOLON))))
            call_at (p, i, i + 1, close, close + 1, last, func);
        }
      /* f (a, b): a call, where f may be a host function */
      if (is_p (p, i + 1, last, WK_P_LPAREN) &&
          (prev == NULL || !(is_punct (prev, WK_P_DOT) || is_punct (prev, WK_P_ARROW) ||
                             is_punct (prev, WK_P_COLONCOLON) || is_type_word (prev) ||
                             (prev->kind == WK_TOK_IDENT && !is_word (prev, "else") && !is_word (prev, "return")))))
        call_at (p, i, 0, 0, i + 1, last, func);
      if (is_word (t, "dim3") && i + 1 < last && p->toks[i + 1].kind == WK_TOK_IDENT &&
          (prev == NULL || !is_punct (prev, WK_P_COLONCOLON)))
        {
          i = dim3_at (p, i, last, func);
          continue;
        }
      /* scanf ("%d", &n), cudaMalloc (&p, …): &n may change it */
      if (prev != NULL && is_punct (prev, WK_P_AMP) && i >= first + 2 &&
          (is_punct (&p->toks[i - 2], WK_P_LPAREN) || is_punct (&p->toks[i - 2], WK_P_COMMA)))
        add_value (p, t, WK_HOST_CHANGED, i, i, func);
      if (prev != NULL && (is_punct (prev, WK_P_DOT) || is_punct (prev, WK_P_ARROW) || is_punct (prev, WK_P_STAR) ||
                           is_punct (prev, WK_P_AMP) || is_punct (prev, WK_P_COLONCOLON)))
        {
          i++;
          continue;
        }
      /* NAME = value, in a declaration (after a type's word or a comma) or
       * as a statement of its own */
      if (is_p (p, i + 1, last, WK_P_ASSIGN) &&
          (prev == NULL || is_type_word (prev) || prev->kind == WK_TOK_IDENT || is_punct (prev, WK_P_SEMI) ||
           is_punct (prev, WK_P_LBRACE) || is_punct (prev, WK_P_RBRACE) || is_punct (prev, WK_P_COMMA) ||
           is_punct (prev, WK_P_LPAREN) || is_punct (prev, WK_P_RPAREN)))
        {
          guint e = end_of_value (p, i + 2, last, WK_P_NONE);
          add_value (p, t, WK_HOST_SCALAR, i + 2, e, func);
          i = e;
          continue;
        }
      /* n += …, n++, ++n, v.x = …: no longer a value that is followed */
      if ((i + 1 < last && p->toks[i + 1].kind == WK_TOK_PUNCT &&
           (p->toks[i + 1].punct >= WK_P_PLUS_ASSIGN && p->toks[i + 1].punct <= WK_P_SHR_ASSIGN)) ||
          is_p (p, i + 1, last, WK_P_INC) || is_p (p, i + 1, last, WK_P_DEC) ||
          (prev != NULL && (is_punct (prev, WK_P_INC) || is_punct (prev, WK_P_DEC))) ||
          (is_p (p, i + 1, last, WK_P_DOT) && i + 3 < last && p->toks[i + 3].kind == WK_TOK_PUNCT &&
           p->toks[i + 3].punct >= WK_P_ASSIGN && p->toks[i + 3].punct <= WK_P_SHR_ASSIGN))
        add_value (p, t, WK_HOST_CHANGED, i, i, func);
      i++;
    }
}
