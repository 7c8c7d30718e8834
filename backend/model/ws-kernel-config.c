/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The launch: the comment that holds it in the file (nvcc ignores it), and
 * the caller's overrides.
 *
 *   / * warpscope:
 *    *   kernel = transposeCoalesced
 *    *   grid   = N / 32, N / 32
 *    *   block  = 32, 8
 *    *   N      = 1024
 *    *   idata[N * N] = i
 *    *   odata        = 0
 *    * /
 *
 * or "// warpscope: grid = 4; block = 256" (lines may be split with ";").
 * Values are expressions of one another, of #define constants and const
 * values; names without a type of their own (N) are 64-bit, so that N * N
 * does not overflow. A fill is an expression of i, the index of a scalar
 * in the array, and of random (seed). */
#include "ws-config.h"
#include "ws-kernel-instance.h"
#include "ws-i18n.h"

#include <glib/gi18n-lib.h>
#include <string.h>

typedef struct
{
  char *kernel;                 /* “reduce3.grid = …”: only for that kernel; or NULL */
  char *name;
  char *size;                   /* the text in […], or NULL */
  char *offset;                 /* the text after @, or NULL */
  char *value;
  int name_at;                  /* where each is in the file, or -1 (an override) */
  int size_at;
  int offset_at;
  int value_at;
  char *whole;                  /* an override as given, for its messages */
} Entry;

struct _WsKernelLaunchConfig
{
  WsKernelFile *file;
  char *kernel;
  GPtrArray *entries;           /* Entry *, later ones winning */
  gboolean grid_set;
  gboolean block_set;
  WsDim3 grid;
  WsDim3 block;
  gboolean steps_set;
  guint64 steps;
};

static void
entry_free (gpointer data)
{
  Entry *e = data;

  g_free (e->kernel);
  g_free (e->name);
  g_free (e->size);
  g_free (e->offset);
  g_free (e->value);
  g_free (e->whole);
  g_free (e);
}

static const char *special_names[] = { "kernel", "grid", "block", "shared", "steps" };

static gboolean
is_special (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (special_names); i++)
    if (strcmp (name, special_names[i]) == 0)
      return TRUE;
  return FALSE;
}

/* ------------------------------------------------------------------ */
/* Reading lines                                                      */
/* ------------------------------------------------------------------ */

static void
config_error (GError            **error,
              const WsKernelFile *file,
              int                 at,
              const char         *whole,
              const char         *format,
              ...) G_GNUC_PRINTF (5, 6);

/* At a place in the file: "line L, column C: …"; in an override:
 * "“N = 40x”: …". */
static void
config_error (GError            **error,
              const WsKernelFile *file,
              int                 at,
              const char         *whole,
              const char         *format,
              ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  if (at >= 0)
    wk_set_error_at (error, WS_KERNEL_ERROR_LAUNCH, file->text, file->len, (guint) at, "%s", message);
  else
    {
      g_autofree char *shown = ws_text_for_message (whole ? whole : "");
      /* Translators: a launch value as given (“N = 40x”), then what is wrong with it */
      g_set_error (error, WS_KERNEL_ERROR, WS_KERNEL_ERROR_LAUNCH, _("“%s”: %s"), shown, message);
    }
}

static gboolean
is_name_start (char c)
{
  return g_ascii_isalpha (c) || c == '_';
}

/* One "name[size] @ offset = value" from text[start, end); base: where
 * text starts in the file (-1: not in the file). */
static Entry *
parse_entry (const WsKernelFile *file,
             const char         *text,
             gsize               start,
             gsize               end,
             int                 base,
             const char         *whole,
             GError            **error)
{
  Entry *e = g_new0 (Entry, 1);
  gsize i = start, j;
  guint depth = 0;

#define AT(k) (base >= 0 ? base + (int) (k) : -1)
  e->whole = whole ? g_strdup (whole) : NULL;
  while (i < end && g_ascii_isspace (text[i]))
    i++;
  if (i >= end || !is_name_start (text[i]))
    {
      g_autofree char *line = g_strndup (text + start, end - start);
      g_strstrip (line);
      config_error (error, file, AT (i), whole,
                    _("a line of the launch is “name = value” (or “array[size] = fill”), not “%s”"), line);
      entry_free (e);
      return NULL;
    }
  j = i;
  while (j < end && (g_ascii_isalnum (text[j]) || text[j] == '_'))
    j++;
  e->name = g_strndup (text + i, j - i);
  e->name_at = AT (i);
  i = j;
  if (i + 1 < end && text[i] == '.' && is_name_start (text[i + 1]))
    {
      /* kernel.name: a value for that kernel only */
      j = ++i;
      while (j < end && (g_ascii_isalnum (text[j]) || text[j] == '_'))
        j++;
      e->kernel = g_steal_pointer (&e->name);
      e->name = g_strndup (text + i, j - i);
      e->name_at = AT (i);
      i = j;
    }
  while (i < end && g_ascii_isspace (text[i]))
    i++;
  if (i < end && text[i] == '[')
    {
      gsize open = i;
      depth = 0;
      for (j = i; j < end; j++)
        {
          if (text[j] == '[')
            depth++;
          else if (text[j] == ']' && --depth == 0)
            break;
        }
      if (j >= end)
        {
          config_error (error, file, AT (open), whole, _("the “[” after “%s” is not closed with “]”"), e->name);
          entry_free (e);
          return NULL;
        }
      e->size = g_strndup (text + open + 1, j - open - 1);
      e->size_at = AT (open + 1);
      i = j + 1;
      while (i < end && g_ascii_isspace (text[i]))
        i++;
    }
  if (i < end && text[i] == '@')
    {
      gsize from = ++i;
      while (i < end && text[i] != '=')
        i++;
      e->offset = g_strndup (text + from, i - from);
      e->offset_at = AT (from);
    }
  if (i >= end || text[i] != '=' || (i + 1 < end && text[i + 1] == '='))
    {
      config_error (error, file, AT (MIN (i, end)), whole, _("expected “=” after “%s”"), e->name);
      entry_free (e);
      return NULL;
    }
  i++;
  while (i < end && g_ascii_isspace (text[i]))
    i++;
  j = end;
  while (j > i && g_ascii_isspace (text[j - 1]))
    j--;
  if (i >= j)
    {
      config_error (error, file, AT (i), whole, _("“%s =” needs a value"), e->name);
      entry_free (e);
      return NULL;
    }
  e->value = g_strndup (text + i, j - i);
  e->value_at = AT (i);
#undef AT
  return e;
}

/* A comment's lines: split at line ends and at ";" outside brackets. */
static gboolean
parse_comment (WsKernelLaunchConfig *cfg,
               const WkLaunchComment *comment,
               GError               **error)
{
  const char *t = comment->text;
  gsize len = strlen (t);
  gsize start = 0;
  guint depth = 0;

  for (gsize i = 0; i <= len; i++)
    {
      char c = i < len ? t[i] : '\n';
      if (c == '(' || c == '[')
        depth++;
      else if ((c == ')' || c == ']') && depth > 0)
        depth--;
      if (c == '\n' || (c == ';' && depth == 0))
        {
          gboolean blank = TRUE;
          for (gsize k = start; k < i; k++)
            if (!g_ascii_isspace (t[k]))
              blank = FALSE;
          if (!blank)
            {
              Entry *e = parse_entry (cfg->file, t, start, i, (int) comment->text_offset, NULL, error);
              if (e == NULL)
                return FALSE;
              g_ptr_array_add (cfg->entries, e);
            }
          start = i + 1;
          depth = 0;
        }
    }
  return TRUE;
}

/* The entry that holds for a name: the last one, for every kernel or for
 * the config's (kernel.name); before the kernel is chosen, the last one for
 * every kernel. */
static Entry *
last_entry (const WsKernelLaunchConfig *cfg,
            const char                 *name)
{
  for (guint i = cfg->entries->len; i-- > 0;)
    {
      Entry *e = g_ptr_array_index (cfg->entries, i);
      if (strcmp (e->name, name) == 0 && (e->kernel == NULL || g_strcmp0 (e->kernel, cfg->kernel) == 0))
        return e;
    }
  return NULL;
}

/* ------------------------------------------------------------------ */
/* The config                                                         */
/* ------------------------------------------------------------------ */

static char *
kernel_list (const WsKernelFile *file)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < file->kernels->len; i++)
    {
      if (i > 0)
        g_string_append (s, ", ");
      g_string_append (s, ((WkFunc *) g_ptr_array_index (file->kernels, i))->name);
    }
  return g_string_free (s, FALSE);
}

WsKernelLaunchConfig *
ws_kernel_config_new (const WsKernelFile *file,
                      const char         *kernel,
                      GError            **error)
{
  g_autoptr (WsKernelLaunchConfig) cfg = NULL;
  Entry *k;

  g_return_val_if_fail (file != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  cfg = g_new0 (WsKernelLaunchConfig, 1);
  cfg->file = ws_kernel_file_ref ((WsKernelFile *) file);
  cfg->entries = g_ptr_array_new_with_free_func (entry_free);
  for (guint i = 0; file->launch_comments != NULL && i < file->launch_comments->len; i++)
    if (!parse_comment (cfg, g_ptr_array_index (file->launch_comments, i), error))
      return NULL;

  k = last_entry (cfg, "kernel");
  if (kernel != NULL)
    {
      if (wk_file_find_kernel (file, kernel) == NULL)
        {
          g_autofree char *list = kernel_list (file);
          g_set_error (error, WS_KERNEL_ERROR, WS_KERNEL_ERROR_LAUNCH,
                       _("the file has no kernel “%s”; its kernels are %s"), kernel, list);
          return NULL;
        }
      cfg->kernel = g_strdup (kernel);
    }
  else if (k != NULL)
    {
      if (wk_file_find_kernel (file, k->value) == NULL)
        {
          g_autofree char *list = kernel_list (file);
          config_error (error, file, k->value_at, NULL, _("the file has no kernel “%s”; its kernels are %s"),
                        k->value, list);
          return NULL;
        }
      cfg->kernel = g_strdup (k->value);
    }
  else if (file->kernels->len == 1)
    cfg->kernel = g_strdup (((WkFunc *) g_ptr_array_index (file->kernels, 0))->name);
  else
    {
      g_autofree char *list = kernel_list (file);
      g_set_error (error, WS_KERNEL_ERROR, WS_KERNEL_ERROR_LAUNCH,
                   _("the file has %u kernels (%s): say which, with “kernel = NAME” in the launch comment or "
                     "FILE.cu:NAME"), file->kernels->len, list);
      return NULL;
    }
  return g_steal_pointer (&cfg);
}

WsKernelLaunchConfig *
ws_kernel_config_copy (const WsKernelLaunchConfig *config)
{
  WsKernelLaunchConfig *c;

  g_return_val_if_fail (config != NULL, NULL);

  c = g_new0 (WsKernelLaunchConfig, 1);
  *c = *config;
  c->file = ws_kernel_file_ref (config->file);
  c->kernel = g_strdup (config->kernel);
  c->entries = g_ptr_array_new_with_free_func (entry_free);
  for (guint i = 0; i < config->entries->len; i++)
    {
      const Entry *e = g_ptr_array_index (config->entries, i);
      Entry *x = g_new0 (Entry, 1);
      *x = *e;
      x->kernel = g_strdup (e->kernel);
      x->name = g_strdup (e->name);
      x->size = g_strdup (e->size);
      x->offset = g_strdup (e->offset);
      x->value = g_strdup (e->value);
      x->whole = g_strdup (e->whole);
      g_ptr_array_add (c->entries, x);
    }
  return c;
}

WsKernelLaunchConfig *
wk_config_copy_for (const WsKernelLaunchConfig *config,
                    WsKernelFile               *file)
{
  WsKernelLaunchConfig *c = ws_kernel_config_copy (config);

  ws_kernel_file_unref (c->file);
  c->file = ws_kernel_file_ref (file);
  return c;
}

const char *
wk_config_value_text (const WsKernelLaunchConfig *config,
                      const char                 *name,
                      int                        *at)
{
  Entry *e = last_entry (config, name);

  if (e == NULL || e->size != NULL || e->offset != NULL)
    return NULL;
  if (at)
    *at = e->value_at;
  return e->value;
}

void
ws_kernel_config_free (WsKernelLaunchConfig *config)
{
  if (config == NULL)
    return;
  g_clear_pointer (&config->entries, g_ptr_array_unref);
  g_clear_pointer (&config->file, ws_kernel_file_unref);
  g_free (config->kernel);
  g_free (config);
}

const char *
ws_kernel_config_get_kernel (const WsKernelLaunchConfig *config)
{
  g_return_val_if_fail (config != NULL, NULL);
  return config->kernel;
}

WsKernelFile *
wk_config_get_file (const WsKernelLaunchConfig *config)
{
  return config->file;
}

static gboolean
check_dims (WsDim3      d,
            gboolean    block,
            GError    **error)
{
  if (d.x == 0 || d.y == 0 || d.z == 0)
    {
      g_set_error (error, WS_KERNEL_ERROR, WS_KERNEL_ERROR_LAUNCH,
                   block ? _("a block of %u × %u × %u threads is empty") : _("a grid of %u × %u × %u blocks is empty"),
                   d.x, d.y, d.z);
      return FALSE;
    }
  if (block && ((guint64) d.x * d.y * d.z > WS_MAX_THREADS_PER_BLOCK || d.x > 1024 || d.y > 1024 || d.z > 64))
    {
      g_set_error (error, WS_KERNEL_ERROR, WS_KERNEL_ERROR_LAUNCH,
                   _("a block of %u × %u × %u threads is too large: at most 1024 threads, 1024 in x and y, 64 in z"),
                   d.x, d.y, d.z);
      return FALSE;
    }
  if (!block && (d.x > G_MAXINT32 || d.y > 65535 || d.z > 65535))
    {
      g_set_error (error, WS_KERNEL_ERROR, WS_KERNEL_ERROR_LAUNCH,
                   _("a grid of %u × %u × %u blocks is too large: at most 2147483647 in x, 65535 in y and z"),
                   d.x, d.y, d.z);
      return FALSE;
    }
  return TRUE;
}

gboolean
ws_kernel_config_set_grid (WsKernelLaunchConfig *config,
                           WsDim3                grid,
                           GError              **error)
{
  g_return_val_if_fail (config != NULL, FALSE);

  if (!check_dims (grid, FALSE, error))
    return FALSE;
  config->grid = grid;
  config->grid_set = TRUE;
  return TRUE;
}

gboolean
ws_kernel_config_set_block (WsKernelLaunchConfig *config,
                            WsDim3                block,
                            GError              **error)
{
  g_return_val_if_fail (config != NULL, FALSE);

  if (!check_dims (block, TRUE, error))
    return FALSE;
  config->block = block;
  config->block_set = TRUE;
  return TRUE;
}

void
ws_kernel_config_set_step_limit (WsKernelLaunchConfig *config,
                                 guint64               steps)
{
  g_return_if_fail (config != NULL);
  config->steps = steps;
  config->steps_set = TRUE;
}

gboolean
ws_kernel_config_set (WsKernelLaunchConfig *config,
                      const char           *name,
                      const char           *value_text,
                      GError              **error)
{
  g_autofree char *whole = NULL;
  Entry *e;

  g_return_val_if_fail (config != NULL, FALSE);
  g_return_val_if_fail (name != NULL && value_text != NULL, FALSE);

  whole = g_strdup_printf ("%s = %s", name, value_text);
  if (!g_utf8_validate (whole, -1, NULL) || strlen (whole) > 4096)
    {
      g_set_error (error, WS_KERNEL_ERROR, WS_KERNEL_ERROR_LAUNCH, _("a launch value must be text of at most 4096 bytes"));
      return FALSE;
    }
  e = parse_entry (config->file, whole, 0, strlen (whole), -1, whole, error);
  if (e == NULL)
    return FALSE;
  if (strcmp (e->name, "kernel") == 0)
    {
      if (wk_file_find_kernel (config->file, e->value) == NULL)
        {
          g_autofree char *list = kernel_list (config->file);
          g_set_error (error, WS_KERNEL_ERROR, WS_KERNEL_ERROR_LAUNCH,
                       _("the file has no kernel “%s”; its kernels are %s"), e->value, list);
          entry_free (e);
          return FALSE;
        }
      g_free (config->kernel);
      config->kernel = g_strdup (e->value);
    }
  if (strcmp (e->name, "grid") == 0)
    config->grid_set = FALSE;
  if (strcmp (e->name, "block") == 0)
    config->block_set = FALSE;
  if (strcmp (e->name, "steps") == 0)
    config->steps_set = FALSE;
  g_ptr_array_add (config->entries, e);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Resolving                                                          */
/* ------------------------------------------------------------------ */

struct _WkLaunchValues
{
  const WsKernelLaunchConfig *cfg;
  WsKernelFile *file;
  WkFunc *kernel;
  WkArena arena;
  GHashTable *names;            /* name → WkSym * with its value */
  GHashTable *resolving;        /* names being resolved (cycles) */
  GHashTable *arrays;           /* name → WkArraySetting * */
  WkSym *index_sym;             /* i, in fills */
  GHashTable *fill_names;       /* names and i */
  WsDim3 grid;
  WsDim3 block;
  gboolean grid_given;
  gboolean block_given;
  gboolean have_shared;
  guint64 shared;
  guint64 steps;
  char *host_note;              /* what the host code's launch gave, or why it gave nothing */
  gboolean host_quiet;          /* … which is no note: the launch was given otherwise */
  guint host_start;             /* that launch in the file (the kernel's name to its ')') */
  guint host_end;
};

static gboolean resolve_name (WkLaunchValues *v, const char *name, GError **error);

static WkDecl *
kernel_param (WkFunc     *k,
              const char *name)
{
  for (guint i = 0; i < k->n_params; i++)
    if (g_strcmp0 (k->params[i]->name, name) == 0)
      return k->params[i];
  return NULL;
}

static WkTemplateParam *
kernel_tparam (WkFunc     *k,
               const char *name)
{
  for (guint i = 0; i < k->n_tparams; i++)
    if (strcmp (k->tparams[i].name, name) == 0)
      return &k->tparams[i];
  return NULL;
}

/* The type a name's value takes: its parameter's, else 64-bit. */
static const WkType *
declared_type (WkLaunchValues *v,
               const char     *name)
{
  WkDecl *d = kernel_param (v->kernel, name);
  WkTemplateParam *tp;

  if (d != NULL && d->type->kind != WK_TY_POINTER)
    return d->type;
  tp = kernel_tparam (v->kernel, name);
  if (tp != NULL)
    return tp->type;
  return NULL;
}

/* Parses and checks one expression of an entry, with the file's macros
 * (or with none, for a text of our own); names of the launch it uses are
 * resolved first. */
static WkExpr *
parse_value_with (WkLaunchValues *v,
                  const Entry    *e,
                  const char     *text,
                  int             at,
                  GHashTable     *names,
                  GHashTable     *macros,
                  GError        **error)
{
  WkDiags diags;
  WkLexResult lex;
  WkExpr *x = NULL;
  const char *dtext = at >= 0 ? v->file->text : text;
  gsize dlen = at >= 0 ? v->file->len : strlen (text);
  guint base = at >= 0 ? (guint) at : 0;

  wk_diags_init (&diags, dtext, dlen);
  if (wk_lex_fragment (text, strlen (text), base, macros, &v->arena, &diags, &lex))
    {
      /* the launch's names this value uses come first */
      for (guint i = 0; i < lex.n_tokens; i++)
        if (lex.tokens[i].kind == WK_TOK_IDENT)
          {
            g_autofree char *name = g_strndup (lex.tokens[i].text, lex.tokens[i].len);
            if (last_entry (v->cfg, name) != NULL && !is_special (name) && !g_hash_table_contains (v->names, name) &&
                !resolve_name (v, name, error))
              {
                wk_diags_clear (&diags);
                return NULL;
              }
          }
      x = wk_parse_expression (v->file, &lex, &v->arena, &diags);
      if (x != NULL && !wk_check_loose_expr (v->file, x, names, &v->arena, &diags))
        x = NULL;
    }
  if (x == NULL)
    {
      const WkDiag *d = diags.diags->len > 0 ? &g_array_index (diags.diags, WkDiag, 0) : NULL;
      if (d != NULL && at >= 0)
        wk_set_error_at (error, WS_KERNEL_ERROR_LAUNCH, dtext, dlen, d->start, "%s", d->message);
      else if (d != NULL)
        {
          guint line, column;
          wk_position (dtext, dlen, d->start, &line, &column);
          /* Translators: a launch value as given, where in it, and what is wrong */
          g_set_error (error, WS_KERNEL_ERROR, WS_KERNEL_ERROR_LAUNCH, _("“%s”, column %u: %s"), text, column,
                       d->message);
        }
      else
        config_error (error, v->file, at, e->whole, _("the value of “%s” does not read"), e->name);
    }
  wk_diags_clear (&diags);
  return x;
}

static WkExpr *
parse_value (WkLaunchValues *v,
             const Entry    *e,
             const char     *text,
             int             at,
             GHashTable     *names,
             GError        **error)
{
  return parse_value_with (v, e, text, at, names, v->file->macros, error);
}

static gboolean
eval_const (WkLaunchValues *v,
            const Entry    *e,
            const char     *text,
            int             at,
            WkConst        *out,
            GError        **error)
{
  WkExpr *x = parse_value (v, e, text, at, v->names, error);
  const WkExpr *failed = NULL;
  WkConstStatus st;

  if (x == NULL)
    return FALSE;
  if (!wk_type_is_arith (x->type))
    {
      config_error (error, v->file, at, e->whole, _("the value of “%s” must be a number"), e->name);
      return FALSE;
    }
  st = wk_const_eval (x, NULL, out, &failed);
  if (st == WK_CONST_DIVISION_BY_ZERO)
    {
      config_error (error, v->file, at, e->whole, _("division by zero in the value of “%s”"), e->name);
      return FALSE;
    }
  if (st != WK_CONST_OK)
    {
      config_error (error, v->file, at, e->whole, _("the value of “%s” is not a constant"), e->name);
      return FALSE;
    }
  return TRUE;
}

static gboolean
eval_u64 (WkLaunchValues *v,
          const Entry    *e,
          const char     *text,
          int             at,
          const char     *what,
          guint64         min,
          guint64         max,
          guint64        *out,
          GError        **error)
{
  WkConst c;
  gint64 x;

  if (!eval_const (v, e, text, at, &c, error))
    return FALSE;
  if (!wk_type_is_integer (c.type))
    {
      config_error (error, v->file, at, e->whole, _("%s must be an integer"), what);
      return FALSE;
    }
  x = c.v.i;
  if ((wk_type_is_signed (c.type) && x < 0) || (guint64) x < min || (guint64) x > max)
    {
      config_error (error, v->file, at, e->whole, _("%s must be from %llu to %llu, not %lld"), what,
                    (unsigned long long) min, (unsigned long long) max, (long long) x);
      return FALSE;
    }
  *out = (guint64) x;
  return TRUE;
}

/* A constant of the launch: name, of type (NULL: the value's own, integers
 * 64-bit), with the value c converted to it (and c so converted). */
static WkSym *
const_sym (WkArena      *arena,
           const char   *name,
           const WkType *type,
           WkConst      *c)
{
  WkSym *sym = WK_NEW (arena, WkSym);

  if (type == NULL)
    type = wk_type_is_integer (c->type) ? (wk_type_is_signed (wk_type_promote (c->type)) ? WK_TYPE (WK_TY_LLONG) :
                                           WK_TYPE (WK_TY_ULLONG)) : c->type;
  type = wk_type_unqualified (arena, type);
  *c = wk_const_convert (*c, type);
  memset (sym, 0, sizeof *sym);
  sym->kind = WK_SYM_CONST;
  sym->name = wk_arena_strndup (arena, name, strlen (name));
  sym->type = type;
  sym->has_value = TRUE;
  sym->value.u = c->v.u;
  sym->param = -1;
  return sym;
}

static gboolean
resolve_name (WkLaunchValues *v,
              const char     *name,
              GError        **error)
{
  Entry *e = last_entry (v->cfg, name);
  WkConst c;
  WkSym *sym;

  if (g_hash_table_contains (v->names, name))
    return TRUE;
  if (e == NULL || e->size != NULL || e->offset != NULL)
    return TRUE;
  /* T = float: a template's type, read with the file (ws_kernel_instance_new) */
  if (wk_file_is_type_param (v->file, name))
    return TRUE;
  if (g_hash_table_contains (v->resolving, name))
    {
      config_error (error, v->file, e->value_at, e->whole, _("the value of “%s” depends on itself"), name);
      return FALSE;
    }
  {
    WkDecl *d = kernel_param (v->kernel, name);
    WkSym *fs = g_hash_table_lookup (v->file->file_scope, name);
    if ((d != NULL && d->type->kind == WK_TY_POINTER) || (fs != NULL && fs->kind == WK_SYM_MEMORY))
      return TRUE;      /* an array's fill, not a value */
  }
  g_hash_table_add (v->resolving, (gpointer) name);
  if (!eval_const (v, e, e->value, e->value_at, &c, error))
    return FALSE;
  g_hash_table_remove (v->resolving, name);
  sym = const_sym (&v->arena, name, declared_type (v, name), &c);
  g_hash_table_insert (v->names, (gpointer) sym->name, sym);
  g_hash_table_insert (v->fill_names, (gpointer) sym->name, sym);
  return TRUE;
}

static gboolean
resolve_dims (WkLaunchValues *v,
              const char     *key,
              WsDim3         *out,
              GError        **error)
{
  Entry *e = last_entry (v->cfg, key);
  guint64 d[3] = { 1, 1, 1 };
  const char *t;
  guint n = 0;
  gsize start = 0;
  guint depth = 0;
  gboolean block = strcmp (key, "block") == 0;

  if (e == NULL)
    return TRUE;
  t = e->value;
  for (gsize i = 0; ; i++)
    {
      if (t[i] == '(' || t[i] == '[')
        depth++;
      else if ((t[i] == ')' || t[i] == ']') && depth > 0)
        depth--;
      if ((t[i] == ',' && depth == 0) || t[i] == '\0')
        {
          g_autofree char *part = g_strndup (t + start, i - start);
          const char *what = n == 0 ? "x" : n == 1 ? "y" : "z";
          g_autofree char *desc = g_strdup_printf (block ? _("the block's %s") : _("the grid's %s"), what);
          if (n >= 3)
            {
              config_error (error, v->file, e->value_at, e->whole, _("“%s” has at most three values (x, y, z)"), key);
              return FALSE;
            }
          if (!eval_u64 (v, e, part, e->value_at >= 0 ? e->value_at + (int) start : -1, desc, 1,
                         block ? 1024 : G_MAXINT32, &d[n], error))
            return FALSE;
          n++;
          start = i + 1;
          if (t[i] == '\0')
            break;
        }
    }
  *out = WS_DIM3 ((guint) d[0], (guint) d[1], (guint) d[2]);
  if (!check_dims (*out, block, error))
    {
      g_autoptr (GError) inner = g_steal_pointer (error);
      config_error (error, v->file, e->value_at, e->whole, "%s", inner->message);
      return FALSE;
    }
  return TRUE;
}

static gboolean
resolve_array (WkLaunchValues *v,
               Entry          *e,
               GError        **error)
{
  WkArraySetting *a = WK_NEW (&v->arena, WkArraySetting);
  WkDecl *d = kernel_param (v->kernel, e->name);
  WkSym *fs = g_hash_table_lookup (v->file->file_scope, e->name);

  memset (a, 0, sizeof *a);
  a->name = e->name;
  if ((d == NULL || d->type->kind != WK_TY_POINTER) && (fs == NULL || fs->kind != WK_SYM_MEMORY))
    {
      if (e->size != NULL || e->offset != NULL)
        {
          config_error (error, v->file, e->name_at, e->whole,
                        _("“%s” is not an array parameter of %s, nor a __constant__ or __device__ array"), e->name,
                        v->kernel->name);
          return FALSE;
        }
      return TRUE;
    }
  if (fs != NULL && d == NULL && (e->size != NULL || e->offset != NULL))
    {
      config_error (error, v->file, e->size_at >= 0 ? e->size_at : e->name_at, e->whole,
                    _("the size of “%s” is in its declaration"), e->name);
      return FALSE;
    }
  if (e->size != NULL)
    {
      g_autofree char *what = g_strdup_printf (_("the size of “%s”"), e->name);
      if (!eval_u64 (v, e, e->size, e->size_at, what, 1, G_GUINT64_CONSTANT (1) << 36, &a->size, error))
        return FALSE;
      a->has_size = TRUE;
    }
  if (e->offset != NULL)
    {
      g_autofree char *what = g_strdup_printf (_("the offset of “%s”"), e->name);
      if (!eval_u64 (v, e, e->offset, e->offset_at, what, 0, G_GUINT64_CONSTANT (1) << 36, &a->offset, error))
        return FALSE;
      if (a->has_size && a->offset >= a->size)
        {
          config_error (error, v->file, e->offset_at, e->whole,
                        _("the offset of “%s” (%llu) must be inside its %llu elements"), e->name,
                        (unsigned long long) a->offset, (unsigned long long) a->size);
          return FALSE;
        }
    }
  a->fill_text = e->value;
  a->fill = parse_value (v, e, e->value, e->value_at, v->fill_names, error);
  if (a->fill == NULL)
    return FALSE;
  if (!wk_type_is_arith (a->fill->type))
    {
      config_error (error, v->file, e->value_at, e->whole, _("the fill of “%s” must be a number"), e->name);
      return FALSE;
    }
  g_hash_table_insert (v->arrays, (gpointer) a->name, a);
  return TRUE;
}

void
wk_launch_values_free (WkLaunchValues *v)
{
  if (v == NULL)
    return;
  g_hash_table_unref (v->names);
  g_hash_table_unref (v->resolving);
  g_hash_table_unref (v->arrays);
  g_hash_table_unref (v->fill_names);
  g_free (v->host_note);
  wk_arena_clear (&v->arena);
  g_free (v);
}

/* ------------------------------------------------------------------ */
/* The host code's launch                                             */
/* ------------------------------------------------------------------ */

/* What a pasted program's main says, where the comment and the caller
 * leave the grid, the block or a scalar parameter unsaid: the first launch
 * of the kernel in the host code that can be followed, its values followed
 * through the host declarations before it (in its function, and at file
 * scope). A name the comment or --set gives has that value in the host
 * code too. What cannot be followed (a value read at run time, a host
 * function's parameter or result) leaves that launch unused; where none
 * can be, a note names the first one's reason. */

typedef struct
{
  WkLaunchValues *v;
  GHashTable *names;            /* name → WkSym *: constants the host code has so far */
  GHashTable *dims;             /* name → WkHostValue *: its dim3 values */
  GHashTable *unknown;          /* WkSym * of a name whose value is not followed → why */
  GHashTable *resolving;        /* WkHostValue * of dim3s being evaluated */
  char *why;                    /* the first thing that could not be followed */
  guint depth;                  /* host functions followed into from their calls */
  GString *via;                 /* parameters given by calls: “nMB = 4 (the call at line 109)” */
  guint *budget;                /* calls left to follow for one launch (each follows its caller's
                                 * values, whose parameters follow their calls…) */
  GHashTable *types;            /* a host template's type parameters → the type its call gives */
  const WkHostLaunch *launch;   /* the launch followed */
} Host;

/* Whether name is a word of text start..end. */
static gboolean
names_word (const char *text,
            guint       start,
            guint       end,
            const char *name)
{
  gsize n = strlen (name);

  for (guint i = start; i + n <= end; i++)
    if (strncmp (text + i, name, n) == 0 && (i == start || !(g_ascii_isalnum (text[i - 1]) || text[i - 1] == '_')) &&
        (i + n == end || !(g_ascii_isalnum (text[i + n]) || text[i + n] == '_')))
      return TRUE;
  return FALSE;
}

/* Whether the launch, or a value of its function before it, names a host
 * function's parameter: said in the note then. */
static gboolean
launch_uses (const WsKernelFile *file,
             const WkHostLaunch *l,
             const WkHostValue  *param)
{
  for (guint i = 0; i < l->n_config; i++)
    if (names_word (file->text, l->config_start[i], l->config_end[i], param->name))
      return TRUE;
  for (guint i = 0; i < l->n_args; i++)
    if (names_word (file->text, l->arg_start[i], l->arg_end[i], param->name))
      return TRUE;
  for (guint i = 0; i < l->n_values; i++)
    {
      const WkHostValue *x = &g_array_index (file->host_values, WkHostValue, i);
      if (x->func == param->func && x->kind != WK_HOST_PARAM && names_word (file->text, x->start, x->end, param->name))
        return TRUE;
    }
  return FALSE;
}

#define HOST_CALLS_FOLLOWED 64

static void
host_fail (Host       *h,
           guint       at,
           const char *message)
{
  guint line, column;

  if (h->why != NULL)
    return;
  wk_position (h->v->file->text, h->v->file->len, at, &line, &column);
  /* Translators: where in the host code, then what is wrong there */
  h->why = g_strdup_printf (_("line %u, column %u: %s"), line, column, message);
}

static gboolean host_dims (Host *h, guint start, guint end, guint64 max, WsDim3 *out);

static gboolean
is_punct_tok (const WkToken *t,
              WkPunct        punct)
{
  return t->kind == WK_TOK_PUNCT && t->punct == punct;
}

/* grid.x, block.y of a dim3 the host code declared, as their numbers: the
 * tokens of the three made one. */
static gboolean
host_members (Host        *h,
              WkLexResult *lex)
{
  for (guint k = 0; k + 2 < lex->n_tokens; k++)
    {
      WkToken *t = &lex->tokens[k];
      const WkHostValue *d;
      g_autofree char *name = NULL;
      WsDim3 dims;
      const WkToken *m = &lex->tokens[k + 2];
      guint which;

      if (t->kind != WK_TOK_IDENT || !is_punct_tok (&lex->tokens[k + 1], WK_P_DOT) || m->kind != WK_TOK_IDENT ||
          m->len != 1 || (m->text[0] != 'x' && m->text[0] != 'y' && m->text[0] != 'z'))
        continue;
      name = g_strndup (t->text, t->len);
      if ((d = g_hash_table_lookup (h->dims, name)) == NULL)
        continue;
      which = (guint) (m->text[0] - 'x');
      if (g_hash_table_contains (h->resolving, d))
        {
          host_fail (h, t->start, _("the value depends on itself"));
          return FALSE;
        }
      g_hash_table_add (h->resolving, (gpointer) d);
      if (d->start == d->end)
        dims = WS_DIM3 (1, 1, 1);
      else if (!host_dims (h, d->start, d->end, G_MAXINT32, &dims))
        return FALSE;
      g_hash_table_remove (h->resolving, d);
      t->kind = WK_TOK_INT;
      t->ival = which == 0 ? dims.x : which == 1 ? dims.y : dims.z;
      t->is_unsigned = TRUE;
      t->n_long = 0;
      t->is_hex = FALSE;
      t->end = m->end;
      /* n_tokens counts the closing EOF: it moves too */
      memmove (&lex->tokens[k + 1], &lex->tokens[k + 3], (lex->n_tokens - k - 3) * sizeof (WkToken));
      lex->n_tokens -= 2;
    }
  return TRUE;
}

/* The text start..end of the file as a constant, or FALSE (and why). */
static gboolean
host_eval (Host    *h,
           guint    start,
           guint    end,
           WkConst *out)
{
  WkLaunchValues *v = h->v;
  WkDiags diags;
  WkLexResult lex;
  WkExpr *x = NULL;
  const WkExpr *failed = NULL;
  gboolean ok = FALSE;

  if (end <= start || end > v->file->len)
    {
      host_fail (h, MIN (start, (guint) v->file->len), _("a value is missing"));
      return FALSE;
    }
  wk_diags_init (&diags, v->file->text, v->file->len);
  if (wk_lex_fragment (v->file->text + start, end - start, start, v->file->macros, &v->arena, &diags, &lex))
    {
      if (!host_members (h, &lex))
        {
          wk_diags_clear (&diags);
          return FALSE;
        }
      x = wk_parse_expression_typed (v->file, &lex, &v->arena, &diags, h->types);
      if (x != NULL && !wk_check_loose_expr (v->file, x, h->names, &v->arena, &diags))
        x = NULL;
    }
  if (x == NULL)
    {
      const WkDiag *d = diags.diags->len > 0 ? &g_array_index (diags.diags, WkDiag, 0) : NULL;
      host_fail (h, d ? d->start : start, d ? d->message : _("the value does not read"));
    }
  else if (!wk_type_is_arith (x->type))
    host_fail (h, start, _("the value is not a number"));
  else if (wk_const_eval (x, NULL, out, &failed) != WK_CONST_OK)
    {
      const char *why = failed && failed->sym ? g_hash_table_lookup (h->unknown, failed->sym) : NULL;
      if (why != NULL)
        {
          /* Translators: a host variable's name, then where its value is set and why it is not followed */
          g_autofree char *message = g_strdup_printf (_("“%s” is not known before the program runs (%s)"),
                                                      failed->sym->name, why);
          host_fail (h, failed->pos, message);
        }
      else
        host_fail (h, failed ? failed->pos : start, _("the value is not known before the program runs"));
    }
  else
    ok = TRUE;
  wk_diags_clear (&diags);
  return ok;
}

static void
host_define (Host          *h,
             const char    *name,
             WkConst        c,
             const WkType  *type)
{
  WkSym *sym = const_sym (&h->v->arena, name, type, &c);

  g_hash_table_insert (h->names, (gpointer) sym->name, sym);
}

/* Up to three values separated by commas in start..end: x, y, z (1 where
 * not given); max bounds each. */
static gboolean
host_dims (Host     *h,
           guint     start,
           guint     end,
           guint64   max,
           WsDim3   *out)
{
  const char *t = h->v->file->text;
  guint64 d[3] = { 1, 1, 1 };
  guint n = 0, depth = 0, from = start;

  if (end < start || end > h->v->file->len)
    {
      host_fail (h, MIN (start, (guint) h->v->file->len), _("the value does not read"));
      return FALSE;
    }
  for (guint i = start; i <= end; i++)
    {
      char c = i < end ? t[i] : ',';
      WkConst k;

      if (c == '(' || c == '[' || c == '{')
        depth++;
      else if ((c == ')' || c == ']' || c == '}') && depth > 0)
        depth--;
      if (c != ',' || depth > 0)
        continue;
      if (n == 3)
        {
          host_fail (h, from, _("a dim3 has at most three values"));
          return FALSE;
        }
      if (!host_eval (h, from, i, &k))
        return FALSE;
      if (!wk_type_is_integer (k.type) || wk_const_as_i64 (k) < 1)
        {
          host_fail (h, from, _("the launch's sizes are whole numbers of at least 1"));
          return FALSE;
        }
      if ((guint64) wk_const_as_i64 (k) > max)
        {
          g_autofree char *message = g_strdup_printf (_("%lld is more than %llu"), (long long) wk_const_as_i64 (k),
                                                      (unsigned long long) max);
          host_fail (h, from, message);
          return FALSE;
        }
      d[n++] = (guint64) wk_const_as_i64 (k);
      from = i + 1;
    }
  *out = WS_DIM3 ((guint) d[0], (guint) d[1], (guint) d[2]);
  return TRUE;
}

/* The text start..end without the spaces around it. */
static void
host_trim (const char *t,
           guint      *start,
           guint      *end)
{
  while (*start < *end && g_ascii_isspace (t[*start]))
    (*start)++;
  while (*end > *start && g_ascii_isspace (t[*end - 1]))
    (*end)--;
}

/* A launch's grid or block: a dim3's name, dim3 (…) or dim3 {…}, or a
 * number of blocks or threads. */
static gboolean
host_launch_dims (Host    *h,
                  guint    start,
                  guint    end,
                  guint64  max,
                  WsDim3  *out)
{
  const char *t = h->v->file->text;
  g_autofree char *word = NULL;
  const WkHostValue *named;

  if (end < start || end > h->v->file->len)
    {
      host_fail (h, MIN (start, (guint) h->v->file->len), _("the value does not read"));
      return FALSE;
    }
  host_trim (t, &start, &end);
  word = g_strndup (t + start, end - start);
  if ((named = g_hash_table_lookup (h->dims, word)) != NULL)
    return named->start == named->end ? (*out = WS_DIM3 (1, 1, 1), TRUE)
                                      : host_dims (h, named->start, named->end, max, out);
  if (end - start > 5 && strncmp (word, "dim3", 4) == 0)
    {
      guint s = start + 4;

      while (s < end && g_ascii_isspace (t[s]))
        s++;
      if (s < end && (t[s] == '(' || t[s] == '{') && (t[end - 1] == ')' || t[end - 1] == '}'))
        return end - 1 == s + 1 ? (*out = WS_DIM3 (1, 1, 1), TRUE) : host_dims (h, s + 1, end - 1, max, out);
    }
  return host_dims (h, start, end, max, out);
}

static void host_fill (Host *h, guint func, guint n_values);
static char *host_func_type (const WsKernelFile *file, guint func, const char *type, const char *prefer,
                             guint *line, const char **callee);
static const WkHostFunc *host_func_of (const WsKernelFile *file, guint func);
static int host_tparam_index (const WkHostFunc *f, const char *name);
static char *pointee_word (const WsKernelFile *file, const WkHostLaunch *l, guint k);

/* A host template's type parameters, as its first call with them gives
 * them (runTest<float> (…): U → “float”), or NULL. */
static GHashTable *
host_types_of (const WsKernelFile *file,
               guint               func,
               GHashTable         *prefer)
{
  GHashTable *types = NULL;

  for (guint i = 0; i < file->host_funcs->len; i++)
    {
      const WkHostFunc *f = &g_array_index (file->host_funcs, WkHostFunc, i);

      if (f->func != func)
        continue;
      for (guint k = 0; k < f->n_tparams; k++)
        {
          guint line;
          const char *callee;
          char *type = host_func_type (file, func, f->tparams[k],
                                       prefer ? g_hash_table_lookup (prefer, f->tparams[k]) : NULL, &line, &callee);

          if (type == NULL)
            continue;
          if (types == NULL)
            types = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
          g_hash_table_insert (types, (gpointer) f->tparams[k], type);
        }
      break;
    }
  return types;
}

#define HOST_CALL_DEPTH 4

/* A host function's parameter, from the function's first call that gives
 * it a value that can be followed (runTest<float> (deviceId, nMB) in main,
 * nMB = 4 before it): the argument, in the caller's values before the
 * call. */
static gboolean
host_param_from_call (Host              *h,
                      const WkHostValue *hv,
                      WkConst           *out)
{
  const WsKernelFile *file = h->v->file;
  const WkHostFunc *f = NULL;
  guint index = 0;

  if (h->depth >= HOST_CALL_DEPTH || hv->func == 0 || h->budget == NULL || *h->budget == 0)
    return FALSE;
  for (guint i = 0; i < file->host_funcs->len && f == NULL; i++)
    if (g_array_index (file->host_funcs, WkHostFunc, i).func == hv->func)
      f = &g_array_index (file->host_funcs, WkHostFunc, i);
  if (f == NULL)
    return FALSE;
  /* which parameter it is */
  for (guint i = 0; i < file->host_values->len; i++)
    {
      const WkHostValue *x = &g_array_index (file->host_values, WkHostValue, i);
      if (x == hv)
        break;
      if (x->func == hv->func && x->kind == WK_HOST_PARAM)
        index++;
    }
  for (guint n = 0; n < 2 * file->host_calls->len; n++)
    {
      /* first the calls with the types the launch's function has here */
      const WkHostCall *c = &g_array_index (file->host_calls, WkHostCall, n % file->host_calls->len);
      gboolean pass = n < file->host_calls->len, typed = TRUE;
      Host caller = { h->v };
      guint s, e;
      gboolean ok;

      if (strcmp (c->name, f->name) != 0 || c->func == hv->func || index >= c->n_args)
        continue;
      for (guint k = 0; h->types != NULL && k < f->n_tparams && k < c->n_targs; k++)
        {
          const char *want = g_hash_table_lookup (h->types, f->tparams[k]);
          guint ts = c->targ_start[k], te = c->targ_end[k];
          host_trim (file->text, &ts, &te);
          if (want != NULL && (te - ts != strlen (want) || strncmp (file->text + ts, want, te - ts) != 0))
            typed = FALSE;
        }
      if (typed != pass)
        continue;
      if (*h->budget == 0)
        return FALSE;
      (*h->budget)--;
      caller.budget = h->budget;
      caller.names = g_hash_table_new (g_str_hash, g_str_equal);
      caller.dims = g_hash_table_new (g_str_hash, g_str_equal);
      caller.unknown = g_hash_table_new_full (NULL, NULL, NULL, g_free);
      caller.resolving = g_hash_table_new (NULL, NULL);
      caller.depth = h->depth + 1;
      caller.types = host_types_of (file, c->func, NULL);
      {
        GHashTableIter it;
        gpointer key, value;
        g_hash_table_iter_init (&it, h->v->names);
        while (g_hash_table_iter_next (&it, &key, &value))
          g_hash_table_insert (caller.names, key, value);
      }
      host_fill (&caller, c->func, c->n_values);
      s = c->arg_start[index];
      e = c->arg_end[index];
      host_trim (file->text, &s, &e);
      ok = host_eval (&caller, s, e, out);
      if (ok && h->via != NULL && h->depth == 0 && h->launch != NULL && launch_uses (file, h->launch, hv))
        {
          guint line, column;
          wk_position (file->text, file->len, c->start, &line, &column);
          if (h->via->len)
            g_string_append (h->via, ", ");
          if (wk_type_is_integer (out->type))
            /* Translators: a host function's parameter, its value, and the line of the call that gives it */
            g_string_append_printf (h->via, _("%s = %lld from the call at line %u"), hv->name,
                                    (long long) wk_const_as_i64 (*out), line);
          else
            g_string_append_printf (h->via, _("%s = %g from the call at line %u"), hv->name,
                                    wk_const_as_double (*out), line);
        }
      g_hash_table_unref (caller.names);
      g_hash_table_unref (caller.dims);
      g_hash_table_unref (caller.unknown);
      g_hash_table_unref (caller.resolving);
      g_clear_pointer (&caller.types, g_hash_table_unref);
      g_free (caller.why);
      if (ok)
        return TRUE;
    }
  return FALSE;
}

/* The values host function func (0: file scope) has given names before
 * its n_values-th host value: each the last one given, a parameter's from
 * the function's first call, a name whose value is not followed the reason
 * why (said only if a launch uses it). */
static void
host_fill (Host  *h,
           guint  func,
           guint  n_values)
{
  for (guint i = 0; i < n_values; i++)
    {
      const WkHostValue *hv = &g_array_index (h->v->file->host_values, WkHostValue, i);
      WkConst c;

      if ((hv->func != 0 && hv->func != func) || g_hash_table_contains (h->v->names, hv->name))
        continue;
      g_hash_table_remove (h->names, hv->name);
      g_hash_table_remove (h->dims, hv->name);
      if (hv->kind == WK_HOST_DIM3)
        g_hash_table_insert (h->dims, (gpointer) hv->name, (gpointer) hv);
      else
        {
          /* a value that cannot be followed leaves the name without one:
           * it matters only if the launch uses it, and then says why */
          char *why = NULL;
          if (hv->kind == WK_HOST_SCALAR && host_eval (h, hv->start, hv->end, &c))
            host_define (h, hv->name, c, NULL);
          else if (hv->kind == WK_HOST_PARAM && host_param_from_call (h, hv, &c))
            host_define (h, hv->name, c, NULL);
          else
            {
              WkSym *sym = WK_NEW (&h->v->arena, WkSym);
              guint l_line, l_column;

              wk_position (h->v->file->text, h->v->file->len, hv->start, &l_line, &l_column);
              memset (sym, 0, sizeof *sym);
              sym->kind = WK_SYM_CONST;
              sym->name = hv->name;
              sym->pos = hv->start;
              sym->type = WK_TYPE (WK_TY_LLONG);
              sym->param = -1;
              g_hash_table_insert (h->names, (gpointer) sym->name, sym);
              why = hv->kind == WK_HOST_PARAM
                      /* Translators: where a host function's parameter is */
                      ? g_strdup_printf (_("a parameter of the host function, at line %u, that no call of it gives "
                                           "a value that can be followed"), l_line)
                      : hv->kind == WK_HOST_CHANGED
                      /* Translators: where a host variable changes in a way not followed (n += 2, n++, &n) */
                      ? g_strdup_printf (_("line %u changes it"), l_line)
                      : h->why ? g_strdup (h->why)
                      /* Translators: where a host variable is set to a value that is not followed */
                      : g_strdup_printf (_("line %u sets it"), l_line);
              g_hash_table_insert (h->unknown, sym, why);
            }
          g_clear_pointer (&h->why, g_free);
        }
    }

}

/* What one launch in the host code gives: its grid, block and shared
 * bytes, and the scalar arguments the comment and the caller leave unsaid. */
typedef struct
{
  WsDim3 grid;
  WsDim3 block;
  guint64 shared;
  GPtrArray *args;              /* WkDecl * */
  GArray *arg_values;           /* WkConst */
  GPtrArray *targs;             /* WkTemplateParam * */
  GArray *targ_values;          /* WkConst */
  GString *via;                 /* the host function's parameters its call gave */
} HostLaunch;

/* Follows launch l through the host values before it; NULL, or why it
 * cannot be followed ("line 12, column 11: …"). */
static char *
host_follow (WkLaunchValues     *v,
             const WkHostLaunch *l,
             HostLaunch         *r)
{
  Host h = { v };
  GHashTableIter it;
  gpointer key, value;
  guint budget = HOST_CALLS_FOLLOWED;

  r->grid = r->block = WS_DIM3 (1, 1, 1);
  r->shared = 0;
  h.names = g_hash_table_new (g_str_hash, g_str_equal);
  h.dims = g_hash_table_new (g_str_hash, g_str_equal);
  h.unknown = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  h.resolving = g_hash_table_new (NULL, NULL);
  h.via = r->via;
  g_string_truncate (h.via, 0);
  h.budget = &budget;
  h.launch = l;
  {
    /* U of the host template the launch is in: the type the kernel's T was
     * given where the launch passes a U * for a T * (its call with it) */
    g_autoptr (GHashTable) prefer = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
    const WkHostFunc *f = host_func_of (v->file, l->func);
    for (guint k = 0; f != NULL && v->file->type_args != NULL && k < v->kernel->n_params && k < l->n_args; k++)
      {
        const WkDecl *d = v->kernel->params[k];
        const char *given = NULL;
        char *word;
        if (d->type == NULL || d->type->kind != WK_TY_POINTER)
          continue;
        /* T * a: the parameter as written names T (bound by now) */
        for (guint t = 0; t < v->kernel->n_type_params && given == NULL; t++)
          if (names_word (v->file->text, d->start, d->end, v->kernel->type_params[t].name))
            given = g_hash_table_lookup (v->file->type_args, v->kernel->type_params[t].name);
        if (given == NULL || (word = pointee_word (v->file, l, k)) == NULL)
          continue;
        if (host_tparam_index (f, word) >= 0)
          g_hash_table_replace (prefer, word, (gpointer) given);
        else
          g_free (word);
      }
    h.types = host_types_of (v->file, l->func, prefer);
  }
  /* the comment's and the caller's values first: they win */
  g_hash_table_iter_init (&it, v->names);
  while (g_hash_table_iter_next (&it, &key, &value))
    g_hash_table_insert (h.names, key, value);
  host_fill (&h, l->func, l->n_values);
  if (l->n_config < 2)
    host_fail (&h, l->start, _("a launch gives a grid and a block"));
  else if (host_launch_dims (&h, l->config_start[0], l->config_end[0], G_MAXINT32, &r->grid) &&
           host_launch_dims (&h, l->config_start[1], l->config_end[1], 1024, &r->block))
    {
      GError *bad = NULL;
      if (!check_dims (r->grid, FALSE, &bad) || !check_dims (r->block, TRUE, &bad))
        {
          host_fail (&h, l->start, bad->message);
          g_error_free (bad);
        }
    }
  if (h.why == NULL && l->n_config >= 3)
    {
      WkConst c;
      guint s = l->config_start[2], e = l->config_end[2];

      host_trim (v->file->text, &s, &e);
      if (host_eval (&h, s, e, &c))
        {
          if (!wk_type_is_integer (c.type) || wk_const_as_i64 (c) < 0 ||
              (guint64) wk_const_as_i64 (c) > WS_MAX_SHARED_BYTES)
            host_fail (&h, s, _("the dynamic shared memory is a number of bytes"));
          else
            r->shared = (guint64) wk_const_as_i64 (c);
        }
    }
  if (h.why == NULL && l->n_args != v->kernel->n_params)
    host_fail (&h, l->start, _("the launch's arguments are not the kernel's parameters"));
  for (guint i = 0; h.why == NULL && i < v->kernel->n_params; i++)
    {
      WkDecl *d = v->kernel->params[i];
      WkConst c;

      if (d->name == NULL || d->type->kind == WK_TY_POINTER || g_hash_table_contains (v->names, d->name) ||
          !wk_type_is_arith (d->type))
        continue;
      if (host_eval (&h, l->arg_start[i], l->arg_end[i], &c))
        {
          g_ptr_array_add (r->args, d);
          g_array_append_val (r->arg_values, c);
        }
    }
  /* K<256><<<…>>>: the template's values, where the comment and the
   * caller leave them out */
  if (h.why == NULL && l->n_targs > 0 && l->n_targs != v->kernel->n_tparams)
    host_fail (&h, l->start, _("the launch's template arguments are not the kernel's template parameters"));
  for (guint i = 0; h.why == NULL && i < l->n_targs; i++)
    {
      WkTemplateParam *tp = &v->kernel->tparams[i];
      guint s = l->targ_start[i], e = l->targ_end[i];
      WkConst c;

      if (g_hash_table_contains (v->names, tp->name))
        continue;
      host_trim (v->file->text, &s, &e);
      if (host_eval (&h, s, e, &c))
        {
          g_ptr_array_add (r->targs, tp);
          g_array_append_val (r->targ_values, c);
        }
    }
  g_hash_table_unref (h.names);
  g_hash_table_unref (h.dims);
  g_hash_table_unref (h.unknown);
  g_hash_table_unref (h.resolving);
  g_clear_pointer (&h.types, g_hash_table_unref);
  return h.why;
}

#define HOST_LAUNCHES_TRIED 8

static const WkHostFunc *
host_func_of (const WsKernelFile *file,
              guint               func)
{
  for (guint i = 0; i < file->host_funcs->len; i++)
    if (g_array_index (file->host_funcs, WkHostFunc, i).func == func)
      return &g_array_index (file->host_funcs, WkHostFunc, i);
  return NULL;
}

static int
host_tparam_index (const WkHostFunc *f,
                   const char       *name)
{
  for (guint k = 0; k < f->n_tparams; k++)
    if (strcmp (f->tparams[k], name) == 0)
      return (int) k;
  return -1;
}

/* The launch's k-th argument, a name (d_a), and the word its declaration
 * before the launch in its function makes it a pointer to (float *d_a,
 * U *d_a), or NULL. */
static char *
pointee_word (const WsKernelFile *file,
              const WkHostLaunch *l,
              guint               k)
{
  const WkHostFunc *f = host_func_of (file, l->func);
  g_autofree char *arg = NULL, *pattern = NULL, *before = NULL;
  g_autoptr (GRegex) re = NULL;
  g_autoptr (GMatchInfo) m = NULL;
  guint s = l->arg_start[k], e = l->arg_end[k], from = f != NULL ? f->start : 0;
  char *found = NULL;

  host_trim (file->text, &s, &e);
  arg = g_strndup (file->text + s, e - s);
  if (!g_regex_match_simple ("^[A-Za-z_][A-Za-z0-9_]*$", arg, 0, 0) || l->start <= from)
    return NULL;
  pattern = g_strdup_printf ("\\b([A-Za-z_][A-Za-z0-9_]*)\\s*\\*+\\s*(?:const\\s+)?%s\\b", arg);
  if ((re = g_regex_new (pattern, 0, 0, NULL)) == NULL)
    return NULL;
  before = g_strndup (file->text + from, l->start - from);
  g_regex_match (re, before, 0, &m);
  while (g_match_info_matches (m))
    {
      g_free (found);
      found = g_match_info_fetch (m, 1);
      g_match_info_next (m, NULL);
    }
  if (found != NULL && strcmp (found, "const") == 0)
    g_clear_pointer (&found, g_free);
  return found;
}

/* The type a template type parameter of a host function stands for, from
 * the function's first call that gives it (runTest<float> (…)), or NULL;
 * at *line the call's. */
static char *
host_func_type (const WsKernelFile *file,
                guint               func,
                const char         *type,
                const char         *prefer,
                guint              *line,
                const char        **callee)
{
  const WkHostFunc *f = host_func_of (file, func);
  int index = f != NULL ? host_tparam_index (f, type) : -1;
  guint column;

  if (index < 0)
    return NULL;
  /* the first call with the type preferred (the one the kernel's was
   * given), else the first */
  for (guint pass = prefer != NULL ? 0 : 1; pass < 2; pass++)
    for (guint i = 0; i < file->host_calls->len; i++)
      {
        const WkHostCall *c = &g_array_index (file->host_calls, WkHostCall, i);
        guint s, e;

        if (strcmp (c->name, f->name) != 0 || c->func == func || (guint) index >= c->n_targs)
          continue;
        s = c->targ_start[index];
        e = c->targ_end[index];
        host_trim (file->text, &s, &e);
        if (e <= s || (pass == 0 && prefer != NULL && (e - s != strlen (prefer) || strncmp (file->text + s, prefer, e - s) != 0)))
          continue;
        wk_position (file->text, file->len, c->start, line, &column);
        *callee = f->name;
        return g_strndup (file->text + s, e - s);
      }
  return NULL;
}

char *
wk_host_type_arg (const WsKernelFile *file,
                  const WkFunc       *kernel,
                  const WkTypeParam  *tp,
                  char              **note)
{
  for (guint i = 0, tried = 0; i < file->host_launches->len && tried < HOST_LAUNCHES_TRIED; i++)
    {
      const WkHostLaunch *l = &g_array_index (file->host_launches, WkHostLaunch, i);
      guint line, column, via = 0;
      const char *callee = NULL;
      char *type = NULL;

      if (strcmp (l->kernel, kernel->name) != 0)
        continue;
      tried++;
      wk_position (file->text, file->len, l->start, &line, &column);
      if (l->n_targs > 0)
        {
          /* K<float, 256><<<…>>>: the parameters in the order written */
          guint index = 0, s, e;
          for (guint k = 0; k < kernel->n_tparams; k++)
            index += kernel->tparams[k].pos < tp->pos;
          for (guint k = 0; k < kernel->n_type_params; k++)
            index += kernel->type_params[k].pos < tp->pos;
          if (index >= l->n_targs)
            continue;
          s = l->targ_start[index];
          e = l->targ_end[index];
          host_trim (file->text, &s, &e);
          if (e > s)
            type = g_strndup (file->text + s, e - s);
        }
      else
        for (guint k = 0; k < kernel->n_params && k < l->n_args && type == NULL; k++)
          {
            const WkHostFunc *f = host_func_of (file, l->func);
            g_autofree char *found = NULL;
            const WkDecl *d = kernel->params[k];

            if (d->type == NULL || d->type->kind != WK_TY_POINTER || d->type->elem == NULL ||
                g_strcmp0 (d->type->elem->name, tp->name) != 0 || (found = pointee_word (file, l, k)) == NULL)
              continue;
            if (f != NULL && host_tparam_index (f, found) >= 0)
              type = host_func_type (file, f->func, found, NULL, &via, &callee);
            else
              type = g_steal_pointer (&found);
          }
      if (type == NULL)
        continue;
      if (note != NULL)
        *note = via > 0
                  /* Translators: a template's type parameter and its type; the line of a launch in the host
                   * code, the host function it is in, its call with the type (“runTest<float>”) and the
                   * call's line */
                  ? g_strdup_printf (_("%s = %s: the host code's launch at line %u is in %s, called as %s<%s> at "
                                       "line %u"), tp->name, type, line, callee, callee, type, via)
                  /* Translators: a template's type parameter, its type, the line of a launch in the host code */
                  : g_strdup_printf (_("%s = %s, from the host code's launch at line %u"), tp->name, type, line);
      return type;
    }
  return NULL;
}

/* Sets what the host code's first launch of the kernel that can be
 * followed gives that the comment and the caller do not: grid, block,
 * shared bytes, the scalar arguments. Where none can be, the first one's
 * reason is a note. */
static void
host_launch (WkLaunchValues *v,
             gboolean        want_grid,
             gboolean        want_block)
{
  const WkHostLaunch *l = NULL;
  char *first_why = NULL;
  guint first_line = 0, line, column;
  HostLaunch r = { { 0 } };
  g_autoptr (GString) got = g_string_new (NULL);

  r.args = g_ptr_array_new ();
  r.arg_values = g_array_new (FALSE, FALSE, sizeof (WkConst));
  r.targs = g_ptr_array_new ();
  r.targ_values = g_array_new (FALSE, FALSE, sizeof (WkConst));
  r.via = g_string_new (NULL);
  /* each try follows every value before it: a few are enough */
  for (guint i = 0, tried = 0; i < v->file->host_launches->len && tried < HOST_LAUNCHES_TRIED; i++)
    {
      const WkHostLaunch *x = &g_array_index (v->file->host_launches, WkHostLaunch, i);
      char *why;

      if (strcmp (x->kernel, v->kernel->name) != 0)
        continue;
      tried++;
      g_ptr_array_set_size (r.args, 0);
      g_array_set_size (r.arg_values, 0);
      g_ptr_array_set_size (r.targs, 0);
      g_array_set_size (r.targ_values, 0);
      if ((why = host_follow (v, x, &r)) == NULL)
        {
          l = x;
          break;
        }
      if (first_why == NULL)
        {
          first_why = why;
          wk_position (v->file->text, v->file->len, x->start, &first_line, &column);
          v->host_start = x->start;
          v->host_end = x->end;
        }
      else
        g_free (why);
    }

  if (l == NULL && first_why != NULL)
    {
      /* Translators: the line of a launch like K<<<grid, block>>>(…) in main, then why it cannot be used */
      v->host_note = g_strdup_printf (_("the host code's launch at line %u is not used: %s; the launch comment "
                                        "(grid = …, block = …) or --grid and --block give one"), first_line,
                                      first_why);
      /* said where it matters only: the grid and block were given */
      v->host_quiet = !want_grid && !want_block;
    }
  else if (l != NULL)
    {
      wk_position (v->file->text, v->file->len, l->start, &line, &column);
      v->host_start = l->start;
      v->host_end = l->end;
      if (want_grid)
        {
          v->grid = r.grid;
          v->grid_given = TRUE;
          g_string_append_printf (got, _("grid (%u, %u, %u)"), r.grid.x, r.grid.y, r.grid.z);
        }
      if (want_block)
        {
          v->block = r.block;
          v->block_given = TRUE;
          if (got->len)
            g_string_append (got, ", ");
          g_string_append_printf (got, _("block (%u, %u, %u)"), r.block.x, r.block.y, r.block.z);
        }
      if (l->n_config >= 3 && !v->have_shared)
        {
          v->shared = r.shared;
          v->have_shared = TRUE;
          g_string_append_printf (got, _(", %llu bytes of dynamic shared memory"), (unsigned long long) r.shared);
        }
      for (guint i = 0; i < r.args->len; i++)
        {
          WkDecl *d = g_ptr_array_index (r.args, i);
          WkConst c = g_array_index (r.arg_values, WkConst, i);
          WkSym *sym = const_sym (&v->arena, d->name, d->type, &c);

          g_hash_table_insert (v->names, (gpointer) sym->name, sym);
          g_hash_table_insert (v->fill_names, (gpointer) sym->name, sym);
          if (wk_type_is_integer (c.type))
            g_string_append_printf (got, ", %s = %lld", d->name, (long long) wk_const_as_i64 (c));
          else
            g_string_append_printf (got, ", %s = %g", d->name, wk_const_as_double (c));
        }
      for (guint i = 0; i < r.targs->len; i++)
        {
          WkTemplateParam *tp = g_ptr_array_index (r.targs, i);
          WkConst c = g_array_index (r.targ_values, WkConst, i);
          WkSym *sym = const_sym (&v->arena, tp->name, tp->type, &c);

          g_hash_table_insert (v->names, (gpointer) sym->name, sym);
          g_hash_table_insert (v->fill_names, (gpointer) sym->name, sym);
          g_string_append_printf (got, ", %s = %lld", tp->name, (long long) wk_const_as_i64 (c));
        }
      if (r.via->len > 0 && got->len > 0)
        /* Translators: after what a launch gave, the host function's parameters its call gave */
        g_string_append_printf (got, _(", with %s"), r.via->str);
      /* Translators: the line of a launch like K<<<grid, block>>>(…) in main, then what was taken from it */
      v->host_note = g_strdup_printf (_("from the host code's launch at line %u: %s"), line,
                                      got->len > 2 && got->str[0] == ',' ? got->str + 2 : got->str);
      v->host_quiet = got->len == 0;
    }
  g_free (first_why);
  g_ptr_array_unref (r.args);
  g_array_unref (r.arg_values);
  g_ptr_array_unref (r.targs);
  g_array_unref (r.targ_values);
  g_string_free (r.via, TRUE);
}

const char *
wk_launch_values_host_note (WkLaunchValues *v,
                            gboolean       *quiet,
                            guint          *start,
                            guint          *end)
{
  if (quiet != NULL)
    *quiet = v->host_quiet;
  if (start != NULL)
    *start = v->host_start;
  if (end != NULL)
    *end = v->host_end;
  return v->host_note;
}

WkLaunchValues *
wk_config_resolve (const WsKernelLaunchConfig *config,
                   WkFunc                     *kernel,
                   GError                    **error)
{
  WkLaunchValues *v = g_new0 (WkLaunchValues, 1);
  Entry *e;

  v->cfg = config;
  v->file = config->file;
  v->kernel = kernel;
  v->names = g_hash_table_new (g_str_hash, g_str_equal);
  v->resolving = g_hash_table_new (g_str_hash, g_str_equal);
  v->arrays = g_hash_table_new (g_str_hash, g_str_equal);
  v->fill_names = g_hash_table_new (g_str_hash, g_str_equal);
  v->index_sym = WK_NEW (&v->arena, WkSym);
  memset (v->index_sym, 0, sizeof *v->index_sym);
  v->index_sym->kind = WK_SYM_FILL_INDEX;
  v->index_sym->name = "i";
  v->index_sym->type = WK_TYPE (WK_TY_LLONG);
  v->index_sym->param = -1;
  g_hash_table_insert (v->fill_names, (gpointer) "i", v->index_sym);
  v->steps = WS_KERNEL_DEFAULT_STEP_LIMIT;

  for (guint i = 0; i < config->entries->len; i++)
    {
      Entry *x = g_ptr_array_index (config->entries, i);
      if (is_special (x->name))
        {
          if (x->size != NULL || x->offset != NULL)
            {
              config_error (error, v->file, x->name_at, x->whole, _("“%s” takes a value, not a size"), x->name);
              goto fail;
            }
          continue;
        }
      if (last_entry (config, x->name) != x)
        continue;
      if (!resolve_name (v, x->name, error) || !resolve_array (v, x, error))
        goto fail;
    }
  if ((e = last_entry (config, "shared")) != NULL)
    {
      if (!eval_u64 (v, e, e->value, e->value_at, _("the dynamic shared memory"), 0, WS_MAX_SHARED_BYTES, &v->shared,
                     error))
        goto fail;
      v->have_shared = TRUE;
    }
  host_launch (v, !config->grid_set && last_entry (config, "grid") == NULL,
               !config->block_set && last_entry (config, "block") == NULL);
  if (config->grid_set)
    {
      v->grid = config->grid;
      v->grid_given = TRUE;
    }
  else if (last_entry (config, "grid") != NULL)
    {
      if (!resolve_dims (v, "grid", &v->grid, error))
        goto fail;
      v->grid_given = TRUE;
    }
  if (config->block_set)
    {
      v->block = config->block;
      v->block_given = TRUE;
    }
  else if (last_entry (config, "block") != NULL)
    {
      if (!resolve_dims (v, "block", &v->block, error))
        goto fail;
      v->block_given = TRUE;
    }
  if (config->steps_set)
    v->steps = config->steps;
  else if ((e = last_entry (config, "steps")) != NULL &&
           !eval_u64 (v, e, e->value, e->value_at, _("the step limit"), 1, G_MAXINT64, &v->steps, error))
    goto fail;
  return v;

fail:
  wk_launch_values_free (v);
  return NULL;
}

gboolean
wk_launch_values_dims (WkLaunchValues *v,
                       WsDim3         *grid,
                       gboolean       *grid_given,
                       WsDim3         *block,
                       gboolean       *block_given)
{
  *grid = v->grid;
  *grid_given = v->grid_given;
  *block = v->block;
  *block_given = v->block_given;
  return TRUE;
}

gboolean
wk_launch_values_shared (WkLaunchValues *v,
                         guint64        *bytes)
{
  *bytes = v->shared;
  return v->have_shared;
}

guint64
wk_launch_values_steps (WkLaunchValues *v)
{
  return v->steps;
}

gboolean
wk_launch_values_scalar (WkLaunchValues *v,
                         const char     *name,
                         const WkType   *type,
                         WkConst        *out)
{
  WkSym *sym = g_hash_table_lookup (v->names, name);
  WkConst c;

  if (sym == NULL)
    return FALSE;
  c.type = sym->type;
  c.v.u = sym->value.u;
  *out = wk_const_convert (c, wk_type_unqualified (&v->arena, type));
  return TRUE;
}

const WkArraySetting *
wk_launch_values_array (WkLaunchValues *v,
                        const char     *name)
{
  return g_hash_table_lookup (v->arrays, name);
}

WkExpr *
wk_launch_values_default_fill (WkLaunchValues *v,
                               const char     *text)
{
  Entry e = { 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) no_macros = g_hash_table_new (g_str_hash, g_str_equal);

  e.name = (char *) "?";
  e.whole = (char *) text;
  /* our text: a kernel's `#define i` must not empty it */
  return parse_value_with (v, &e, text, -1, v->fill_names, no_macros, &error);
}

WkSym *
wk_launch_values_index_sym (WkLaunchValues *v)
{
  return v->index_sym;
}
