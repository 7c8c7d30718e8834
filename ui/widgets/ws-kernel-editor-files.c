/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The kernel editor's files: a kernel's text read and written as it is,
 * byte for byte (UTF-8, any line ends), on a thread; what was opened or
 * saved joins the desktop's recent files as CUDA source. */
#include <glib/gi18n.h>
#include "ws-kernel-editor-private.h"

#include <string.h>

#define CUDA_MIME_TYPE "text/x-cuda"

char *
ws_kernel_editor_file_display_name (GFile *file)
{
  g_autofree char *name = g_file_get_parse_name (file);

  /* Translators: a file's name or path, quoted in a message */
  return g_strdup_printf (_("“%s”"), name);
}

void
ws_kernel_editor_update_title (WsKernelEditor *self)
{
  g_autofree char *title = NULL;

  if (self->file)
    {
      /* from the name alone: no I/O on the main thread */
      g_autofree char *base = g_file_get_basename (self->file);

      title = g_filename_display_name (base);
    }
  else if (self->untitled_name)
    title = g_strdup (self->untitled_name);
  else
    title = g_strdup (_("Untitled kernel"));
  if (g_strcmp0 (title, self->title) == 0)
    return;
  g_free (self->title);
  self->title = g_steal_pointer (&title);
  g_object_notify_by_pspec (G_OBJECT (self), ws_kernel_editor_props[PROP_TITLE]);
}

static void
add_recent (GFile *file)
{
  g_autofree char *uri = g_file_get_uri (file);
  g_autofree char *exec = g_strdup_printf ("%s %%u", g_get_prgname () ? g_get_prgname () : "warpscope");
  GtkRecentData data = {
    .mime_type = (char *) CUDA_MIME_TYPE,
    .app_name = (char *) (g_get_application_name () ? g_get_application_name () : "Warpscope"),
    .app_exec = exec,
  };

  gtk_recent_manager_add_full (gtk_recent_manager_get_default (), uri, &data);
}

/* ------------------------------------------------------------------ */
/* Loading                                                            */
/* ------------------------------------------------------------------ */

/* What is wrong with a text as a kernel file's, or TRUE. */
static gboolean
check_text (GFile       *file,
            const char  *text,
            gsize        length,
            GError     **error)
{
  g_autofree char *name = ws_kernel_editor_file_display_name (file);
  const char *bad;

  if (length > WS_KERNEL_MAX_TEXT)
    {
      g_autofree char *most = g_format_size_full (WS_KERNEL_MAX_TEXT, G_FORMAT_SIZE_IEC_UNITS);

      /* Translators: a file, its size in bytes, and the most a kernel's text
       * may have, in bytes and then as "1.0 MiB" */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s has %llu bytes: a kernel's text may have at most %u (%s)"), name, (unsigned long long) length,
                   (guint) WS_KERNEL_MAX_TEXT, most);
      return FALSE;
    }
  if (!g_utf8_validate_len (text, length, &bad))
    {
      guint line = 1;

      for (const char *p = text; p < bad; p++)
        line += *p == '\n';
      if (*bad == '\0' && bad < text + length)
        /* Translators: a file, and the line of its text that holds a NUL byte */
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                     _("%s is not text: line %u holds a NUL byte"), name, line);
      else
        /* Translators: a file, and where its text stops being UTF-8 (bytes counted from 1) */
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                     _("%s is not UTF-8 text: byte %llu (line %u) is not part of a character"), name,
                     (unsigned long long) (bad - text) + 1, line);
      return FALSE;
    }
  return TRUE;
}

static void
load_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  GFile *file = task_data;
  g_autoptr (GFileInfo) info = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;
  GError *error = NULL;

  /* a file far too large is refused before it is read */
  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE, G_FILE_QUERY_INFO_NONE, cancellable, &error);
  if (info && g_file_info_has_attribute (info, G_FILE_ATTRIBUTE_STANDARD_SIZE) &&
      g_file_info_get_size (info) > WS_KERNEL_MAX_TEXT)
    check_text (file, "", (gsize) g_file_info_get_size (info), &error);
  else if (info)
    g_file_load_contents (file, cancellable, &contents, &length, NULL, &error);
  if (error == NULL)
    check_text (file, contents, length, &error);
  if (error)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, g_steal_pointer (&contents), g_free);
}

static void
load_done (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  WsKernelEditor *self = WS_KERNEL_EDITOR (source);
  g_autoptr (GTask) task = user_data;
  GFile *file = g_task_get_task_data (task);
  g_autofree char *text = NULL;
  GError *error = NULL;

  text = g_task_propagate_pointer (G_TASK (result), &error);
  if (text == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  ws_kernel_editor_set_text (self, text);
  ws_kernel_editor_set_file (self, file);
  ws_kernel_editor_update_title (self);
  add_recent (file);
  g_task_return_boolean (task, TRUE);
}

void
ws_kernel_editor_load_async (WsKernelEditor      *self,
                             GFile               *file,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  GTask *task;
  g_autoptr (GTask) read = NULL;

  g_return_if_fail (WS_IS_KERNEL_EDITOR (self));
  g_return_if_fail (G_IS_FILE (file));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, ws_kernel_editor_load_async);
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  read = g_task_new (self, cancellable, load_done, task);
  g_task_set_task_data (read, g_object_ref (file), g_object_unref);
  g_task_run_in_thread (read, load_thread);
}

gboolean
ws_kernel_editor_load_finish (WsKernelEditor  *self,
                              GAsyncResult    *result,
                              GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ------------------------------------------------------------------ */
/* Saving                                                             */
/* ------------------------------------------------------------------ */

typedef struct
{
  GFile *file;
  char *text;
  guint64 changes;              /* the editor's count when the text was taken */
} Save;

static void
save_free (Save *save)
{
  g_clear_object (&save->file);
  g_free (save->text);
  g_free (save);
}

static void
save_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  Save *save = task_data;
  GError *error = NULL;

  /* replaced only once the new file is whole */
  if (!g_file_replace_contents (save->file, save->text, strlen (save->text), NULL, FALSE, G_FILE_CREATE_NONE, NULL,
                                cancellable, &error))
    {
      g_autofree char *name = ws_kernel_editor_file_display_name (save->file);

      g_prefix_error (&error, _("Could not save %s: "), name);
      g_task_return_error (task, error);
    }
  else
    g_task_return_boolean (task, TRUE);
}

static void
save_done (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  WsKernelEditor *self = WS_KERNEL_EDITOR (source);
  g_autoptr (GTask) task = user_data;
  Save *save = g_task_get_task_data (G_TASK (result));
  GError *error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      g_task_return_error (task, error);
      return;
    }
  ws_kernel_editor_set_file (self, save->file);
  ws_kernel_editor_update_title (self);
  /* typed while it was written: still unsaved */
  if (self->changes == save->changes)
    ws_kernel_editor_set_modified (self, FALSE);
  add_recent (save->file);
  g_task_return_boolean (task, TRUE);
}

void
ws_kernel_editor_save_async (WsKernelEditor      *self,
                             GFile               *file,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  GTask *task;
  g_autoptr (GTask) write = NULL;
  Save *save;

  g_return_if_fail (WS_IS_KERNEL_EDITOR (self));
  g_return_if_fail (file == NULL || G_IS_FILE (file));
  g_return_if_fail (file != NULL || self->file != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, ws_kernel_editor_save_async);
  save = g_new0 (Save, 1);
  save->file = g_object_ref (file ? file : self->file);
  save->text = ws_kernel_editor_get_text (self);
  save->changes = self->changes;
  write = g_task_new (self, cancellable, save_done, task);
  g_task_set_task_data (write, save, (GDestroyNotify) save_free);
  g_task_run_in_thread (write, save_thread);
}

gboolean
ws_kernel_editor_save_finish (WsKernelEditor  *self,
                              GAsyncResult    *result,
                              GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ------------------------------------------------------------------ */
/* Recent files                                                       */
/* ------------------------------------------------------------------ */

static gboolean
is_cuda (GtkRecentInfo *info)
{
  const char *uri = gtk_recent_info_get_uri (info);

  return g_strcmp0 (gtk_recent_info_get_mime_type (info), CUDA_MIME_TYPE) == 0 ||
         g_str_has_suffix (uri, ".cu") || g_str_has_suffix (uri, ".cuh");
}

static int
newest_first (gconstpointer a,
              gconstpointer b)
{
  GtkRecentInfo *x = *(GtkRecentInfo **) a, *y = *(GtkRecentInfo **) b;
  GDateTime *tx = gtk_recent_info_get_modified (x), *ty = gtk_recent_info_get_modified (y);

  return g_date_time_compare (ty, tx);
}

GPtrArray *
ws_kernel_editor_recent_files (guint max)
{
  GList *items = gtk_recent_manager_get_items (gtk_recent_manager_get_default ());
  g_autoptr (GPtrArray) found = g_ptr_array_new ();
  GPtrArray *files = g_ptr_array_new_with_free_func (g_object_unref);

  for (GList *l = items; l; l = l->next)
    if (is_cuda (l->data) && gtk_recent_info_is_local (l->data) && gtk_recent_info_exists (l->data))
      g_ptr_array_add (found, l->data);
  g_ptr_array_sort (found, newest_first);
  for (guint i = 0; i < found->len && files->len < max; i++)
    g_ptr_array_add (files, g_file_new_for_uri (gtk_recent_info_get_uri (found->pdata[i])));
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
  return files;
}
