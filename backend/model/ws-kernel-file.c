/* SPDX-License-Identifier: GPL-3.0-or-later */
/* WsKernelFile: a kernel file read (lexed, parsed, checked) once, then
 * immutable and shared between threads. */
#include "ws-config.h"
#include "ws-kernel-private.h"
#include "ws-i18n.h"

#include <glib/gi18n-lib.h>
#include <string.h>

static void
launch_comment_free (gpointer data)
{
  WkLaunchComment *c = data;

  g_free (c->text);
  g_free (c);
}

static WsKernelFile *
file_new (const char *text,
          gsize       len,
          const char *display_name)
{
  WsKernelFile *f = g_new0 (WsKernelFile, 1);

  f->ref_count = 1;
  f->text = g_strndup (text, len);
  f->len = len;
  f->display_name = g_strdup (display_name);
  f->tops = g_ptr_array_new ();
  f->funcs = g_ptr_array_new ();
  f->kernels = g_ptr_array_new ();
  f->globals = g_ptr_array_new ();
  f->file_scope = g_hash_table_new (g_str_hash, g_str_equal);
  f->diagnostics = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_kernel_diagnostic_free);
  f->host_values = g_array_new (FALSE, TRUE, sizeof (WkHostValue));
  f->host_launches = g_array_new (FALSE, TRUE, sizeof (WkHostLaunch));
  f->host_funcs = g_array_new (FALSE, TRUE, sizeof (WkHostFunc));
  f->host_calls = g_array_new (FALSE, TRUE, sizeof (WkHostCall));
  return f;
}

WsKernelFile *
ws_kernel_file_ref (WsKernelFile *file)
{
  g_return_val_if_fail (file != NULL, NULL);

  g_atomic_int_inc (&file->ref_count);
  return file;
}

void
ws_kernel_file_unref (WsKernelFile *file)
{
  if (file == NULL || !g_atomic_int_dec_and_test (&file->ref_count))
    return;
  g_ptr_array_unref (file->tops);
  g_ptr_array_unref (file->funcs);
  g_ptr_array_unref (file->kernels);
  g_ptr_array_unref (file->globals);
  g_hash_table_unref (file->file_scope);
  g_clear_pointer (&file->macros, g_hash_table_unref);
  g_clear_pointer (&file->launch_comments, g_ptr_array_unref);
  g_ptr_array_unref (file->diagnostics);
  g_array_unref (file->host_values);
  g_array_unref (file->host_launches);
  g_array_unref (file->host_funcs);
  g_array_unref (file->host_calls);
  g_clear_pointer (&file->type_args, g_hash_table_unref);
  wk_arena_clear (&file->arena);
  g_free (file->text);
  g_free (file->display_name);
  g_free (file);
}

typedef struct
{
  guint index;
  const WkDiag *d;
} Sorted;

static int
by_position (gconstpointer a,
             gconstpointer b)
{
  const Sorted *x = a, *y = b;

  if (x->d->start != y->d->start)
    return x->d->start < y->d->start ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* The diagnostics in the order of the text (the same place: in the order
 * they were made). */
static GPtrArray *
public_diagnostics (WkDiags *diags)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_kernel_diagnostic_free);
  g_autofree Sorted *sorted = g_new0 (Sorted, diags->diags->len + 1);

  for (guint i = 0; i < diags->diags->len; i++)
    {
      sorted[i].index = i;
      sorted[i].d = &g_array_index (diags->diags, WkDiag, i);
    }
  qsort (sorted, diags->diags->len, sizeof (Sorted), by_position);
  for (guint i = 0; i < diags->diags->len; i++)
    g_ptr_array_add (out, wk_diag_to_public (sorted[i].d, diags->text, diags->len));
  if (diags->too_many)
    {
      WsKernelDiagnostic *d = g_new0 (WsKernelDiagnostic, 1);
      d->severity = WS_KERNEL_SEVERITY_ERROR;
      wk_position (diags->text, diags->len, diags->len, &d->line, &d->column);
      d->end_line = d->line;
      d->end_column = d->column + 1;
      d->message = g_strdup_printf (_("more than %d errors: the rest are not shown"), WK_MAX_DIAGNOSTICS);
      g_ptr_array_add (out, d);
    }
  return out;
}

static WsKernelFile *
read_file (const char *text,
           gsize       len,
           const char *display_name,
           GHashTable *type_args,
           WkDiags    *diags)
{
  WsKernelFile *f;
  WkLexResult lex;
  const char *bad = NULL;

  if (len > WS_KERNEL_MAX_TEXT)
    {
      wk_diag_add (diags, WS_KERNEL_SEVERITY_ERROR, WS_KERNEL_ERROR_LIMIT, 0, 0,
                   _("the text is %" G_GSIZE_FORMAT " bytes long; at most %d are allowed"), len, WS_KERNEL_MAX_TEXT);
      return NULL;
    }
  if (!g_utf8_validate (text, (gssize) len, &bad))
    {
      guint at = (guint) (bad - text);
      if (*bad == '\0')
        wk_diag_add (diags, WS_KERNEL_SEVERITY_ERROR, WS_KERNEL_ERROR_SYNTAX, at, at + 1,
                     _("the text holds a NUL character"));
      else
        wk_diag_add (diags, WS_KERNEL_SEVERITY_ERROR, WS_KERNEL_ERROR_SYNTAX, at, at + 1,
                     _("the text is not valid UTF-8 here"));
      return NULL;
    }
  f = file_new (text, len, display_name);
  if (type_args)
    f->type_args = g_hash_table_ref (type_args);
  /* positions refer to the file's own copy */
  diags->text = f->text;
  wk_lex (f->text, f->len, &f->arena, diags, &lex);
  f->macros = lex.macros;
  f->launch_comments = lex.launch_comments;
  g_ptr_array_set_free_func (f->launch_comments, launch_comment_free);
  if (diags->n_errors == 0)
    wk_parse (f, &lex, diags);
  if (diags->n_errors == 0)
    wk_check (f, diags);
  return f;
}

GPtrArray *
ws_kernel_file_check (const char    *text,
                      gssize         length,
                      WsKernelFile **out_file)
{
  WkDiags diags;
  WsKernelFile *f;
  GPtrArray *out;
  gsize len;

  g_return_val_if_fail (text != NULL || length == 0, NULL);

  if (out_file != NULL)
    *out_file = NULL;
  len = length < 0 ? strlen (text) : (gsize) length;
  wk_diags_init (&diags, text, len);
  f = read_file (text, len, NULL, NULL, &diags);
  out = public_diagnostics (&diags);
  if (f != NULL && diags.n_errors == 0)
    {
      for (guint i = 0; i < out->len; i++)
        {
          const WsKernelDiagnostic *d = g_ptr_array_index (out, i);
          WsKernelDiagnostic *copy = g_new0 (WsKernelDiagnostic, 1);
          *copy = *d;
          copy->message = g_strdup (d->message);
          g_ptr_array_add (f->diagnostics, copy);
        }
      if (out_file != NULL)
        *out_file = g_steal_pointer (&f);
    }
  g_clear_pointer (&f, ws_kernel_file_unref);
  wk_diags_clear (&diags);
  return out;
}

static WsKernelFile *
parse_with (const char  *text,
            gsize        len,
            const char  *display_name,
            GHashTable  *type_args,
            GError     **error)
{
  WkDiags diags;
  WsKernelFile *f;

  wk_diags_init (&diags, text, len);
  f = read_file (text, len, display_name, type_args, &diags);
  if (diags.n_errors > 0)
    {
      g_autoptr (GPtrArray) all = public_diagnostics (&diags);
      for (guint i = 0; i < all->len; i++)
        {
          const WsKernelDiagnostic *d = g_ptr_array_index (all, i);
          if (d->severity == WS_KERNEL_SEVERITY_ERROR)
            {
              int code = WS_KERNEL_ERROR_SYNTAX;
              for (guint k = 0; k < diags.diags->len; k++)
                if (g_array_index (diags.diags, WkDiag, k).severity == WS_KERNEL_SEVERITY_ERROR &&
                    strcmp (g_array_index (diags.diags, WkDiag, k).message, d->message) == 0)
                  {
                    code = g_array_index (diags.diags, WkDiag, k).code;
                    break;
                  }
              g_set_error (error, WS_KERNEL_ERROR, code, _("line %u, column %u: %s"), d->line, d->column, d->message);
              break;
            }
        }
      g_clear_pointer (&f, ws_kernel_file_unref);
    }
  else
    {
      g_autoptr (GPtrArray) all = public_diagnostics (&diags);
      for (guint i = 0; i < all->len; i++)
        g_ptr_array_add (f->diagnostics, g_steal_pointer (&all->pdata[i]));
    }
  wk_diags_clear (&diags);
  return f;
}

WsKernelFile *
ws_kernel_file_parse (const char  *text,
                      gssize       length,
                      const char  *display_name,
                      GError     **error)
{
  g_return_val_if_fail (text != NULL || length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return parse_with (text, length < 0 ? strlen (text) : (gsize) length, display_name, NULL, error);
}

WsKernelFile *
wk_file_parse_typed (const WsKernelFile *file,
                     GHashTable         *type_args,
                     GError            **error)
{
  g_return_val_if_fail (file != NULL && type_args != NULL, NULL);

  return parse_with (file->text, file->len, file->display_name, type_args, error);
}

gboolean
wk_file_is_type_param (const WsKernelFile *file,
                       const char         *name)
{
  for (guint i = 0; i < file->funcs->len; i++)
    {
      const WkFunc *f = g_ptr_array_index (file->funcs, i);

      for (guint k = 0; k < f->n_type_params; k++)
        if (strcmp (f->type_params[k].name, name) == 0)
          return TRUE;
    }
  return FALSE;
}

guint
ws_kernel_file_get_n_kernels (const WsKernelFile *file)
{
  g_return_val_if_fail (file != NULL, 0);
  return file->kernels->len;
}

const char *
ws_kernel_file_get_kernel_name (const WsKernelFile *file,
                                guint               i)
{
  g_return_val_if_fail (file != NULL, NULL);
  g_return_val_if_fail (i < file->kernels->len, NULL);
  return ((WkFunc *) g_ptr_array_index (file->kernels, i))->name;
}

const char *
ws_kernel_file_get_text (const WsKernelFile *file)
{
  g_return_val_if_fail (file != NULL, NULL);
  return file->text;
}

const char *
ws_kernel_file_get_display_name (const WsKernelFile *file)
{
  g_return_val_if_fail (file != NULL, NULL);
  return file->display_name;
}

GPtrArray *
ws_kernel_file_get_diagnostics (const WsKernelFile *file)
{
  g_return_val_if_fail (file != NULL, NULL);
  return file->diagnostics;
}

WkFunc *
wk_file_find_kernel (const WsKernelFile *file,
                     const char         *name)
{
  for (guint i = 0; i < file->kernels->len; i++)
    {
      WkFunc *f = g_ptr_array_index (file->kernels, i);
      if (strcmp (f->name, name) == 0)
        return f;
    }
  return NULL;
}

char *
ws_kernel_file_print (const WsKernelFile *file)
{
  WkPrintOptions options = { 0 };

  g_return_val_if_fail (file != NULL, NULL);
  return wk_print_file (file, &options);
}

gboolean
ws_kernel_file_equal (const WsKernelFile *a,
                      const WsKernelFile *b)
{
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);

  if (a->funcs->len != b->funcs->len)
    return FALSE;
  for (guint i = 0; i < a->funcs->len; i++)
    if (!wk_func_equal (g_ptr_array_index (a->funcs, i), g_ptr_array_index (b->funcs, i)))
      return FALSE;
  if (a->globals->len != b->globals->len)
    return FALSE;
  for (guint i = 0; i < a->globals->len; i++)
    {
      const WkDecl *x = g_ptr_array_index (a->globals, i), *y = g_ptr_array_index (b->globals, i);
      if (strcmp (x->name, y->name) != 0 || x->storage != y->storage || !wk_type_equal (x->type, y->type, TRUE))
        return FALSE;
      if (x->sym->has_value != y->sym->has_value || (x->sym->has_value && x->sym->value.u != y->sym->value.u))
        return FALSE;
    }
  return TRUE;
}
