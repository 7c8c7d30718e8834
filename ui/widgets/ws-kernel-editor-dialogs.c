/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The kernel editor's dialogs, for the window to call: the file choosers
 * (GtkFileChooserNative, which goes through the portal where there is one;
 * GTK 4.8 has no GtkFileDialog), the question about unsaved changes, and
 * the offer of an unsaved text left by a crash. */
#include <glib/gi18n.h>
#include "ws-kernel-editor-private.h"

#include <adwaita.h>
#include <string.h>

static void
add_filters (GtkFileChooser *chooser)
{
  g_autoptr (GtkFileFilter) cuda = gtk_file_filter_new ();
  g_autoptr (GtkFileFilter) all = gtk_file_filter_new ();

  gtk_file_filter_set_name (cuda, _("CUDA sources"));
  /* by name too: the desktop may not know the type */
  gtk_file_filter_add_mime_type (cuda, "text/x-cuda");
  gtk_file_filter_add_suffix (cuda, "cu");
  gtk_file_filter_add_suffix (cuda, "cuh");
  gtk_file_filter_set_name (all, _("All files"));
  gtk_file_filter_add_pattern (all, "*");
  gtk_file_chooser_add_filter (chooser, cuda);
  gtk_file_chooser_add_filter (chooser, all);
  gtk_file_chooser_set_filter (chooser, cuda);
}

static void
return_cancelled (GTask *task)
{
  g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("The dialog was closed"));
}

/* ------------------------------------------------------------------ */
/* Open…                                                              */
/* ------------------------------------------------------------------ */

static void
open_loaded (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr (GTask) task = user_data;
  GError *error = NULL;

  if (ws_kernel_editor_load_finish (WS_KERNEL_EDITOR (source), result, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
open_response (GtkNativeDialog *chooser,
               int              response,
               gpointer         user_data)
{
  GTask *task = user_data;
  g_autoptr (GFile) file = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  g_object_unref (chooser);
  if (file == NULL)
    {
      return_cancelled (task);
      g_object_unref (task);
      return;
    }
  ws_kernel_editor_load_async (g_task_get_source_object (task), file, NULL, open_loaded, task);
}

void
ws_kernel_editor_open_dialog_async (WsKernelEditor      *self,
                                    GtkWindow           *parent,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  GtkFileChooserNative *chooser;
  GTask *task;

  g_return_if_fail (WS_IS_KERNEL_EDITOR (self));

  task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (task, ws_kernel_editor_open_dialog_async);
  chooser = gtk_file_chooser_native_new (_("Open Kernel"), parent, GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"),
                                         _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  add_filters (GTK_FILE_CHOOSER (chooser));
  if (self->file)
    {
      g_autoptr (GFile) folder = g_file_get_parent (self->file);

      if (folder)
        gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), folder, NULL);
    }
  g_signal_connect (chooser, "response", G_CALLBACK (open_response), task);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

gboolean
ws_kernel_editor_open_dialog_finish (WsKernelEditor  *self,
                                     GAsyncResult    *result,
                                     GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ------------------------------------------------------------------ */
/* Save As…                                                           */
/* ------------------------------------------------------------------ */

static void
saved (GObject      *source,
       GAsyncResult *result,
       gpointer      user_data)
{
  g_autoptr (GTask) task = user_data;
  GError *error = NULL;

  if (ws_kernel_editor_save_finish (WS_KERNEL_EDITOR (source), result, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/* A name typed with no extension becomes a .cu file. */
static GFile *
with_extension (GFile *file)
{
  g_autofree char *base = g_file_get_basename (file);
  g_autoptr (GFile) parent = NULL;
  g_autofree char *name = NULL;

  if (base == NULL || strchr (base, '.') != NULL || (parent = g_file_get_parent (file)) == NULL)
    return g_object_ref (file);
  name = g_strconcat (base, ".cu", NULL);
  return g_file_get_child (parent, name);
}

static void
save_response (GtkNativeDialog *chooser,
               int              response,
               gpointer         user_data)
{
  GTask *task = user_data;
  g_autoptr (GFile) chosen = NULL;
  g_autoptr (GFile) file = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    chosen = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  g_object_unref (chooser);
  if (chosen == NULL)
    {
      return_cancelled (task);
      g_object_unref (task);
      return;
    }
  file = with_extension (chosen);
  ws_kernel_editor_save_async (g_task_get_source_object (task), file, NULL, saved, task);
}

void
ws_kernel_editor_save_dialog_async (WsKernelEditor      *self,
                                    GtkWindow           *parent,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  GtkFileChooserNative *chooser;
  GTask *task;

  g_return_if_fail (WS_IS_KERNEL_EDITOR (self));

  task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (task, ws_kernel_editor_save_dialog_async);
  chooser = gtk_file_chooser_native_new (_("Save Kernel"), parent, GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"),
                                         _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  add_filters (GTK_FILE_CHOOSER (chooser));
  /* where the text was, under its name, or a name to type over */
  if (self->file)
    {
      g_autoptr (GFile) folder = g_file_get_parent (self->file);
      g_autofree char *name = g_file_get_basename (self->file);

      if (folder)
        gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), folder, NULL);
      gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
    }
  else if (self->untitled_name)
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), self->untitled_name);
  else
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), _("kernel.cu"));
  g_signal_connect (chooser, "response", G_CALLBACK (save_response), task);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

gboolean
ws_kernel_editor_save_dialog_finish (WsKernelEditor  *self,
                                     GAsyncResult    *result,
                                     GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ------------------------------------------------------------------ */
/* Unsaved changes on close                                           */
/* ------------------------------------------------------------------ */

/* Saved, or saved as (both return a boolean task of the editor). */
static void
close_saved (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr (GTask) task = user_data;
  GError *error = NULL;

  if (g_task_propagate_boolean (G_TASK (result), &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
close_response (AdwMessageDialog *dialog,
                const char       *response,
                gpointer          user_data)
{
  GTask *task = user_data;
  WsKernelEditor *self = g_task_get_source_object (task);
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (dialog));

  if (g_strcmp0 (response, "save") == 0 && self->file)
    ws_kernel_editor_save_async (self, NULL, NULL, close_saved, task);
  else if (g_strcmp0 (response, "save") == 0)
    ws_kernel_editor_save_dialog_async (self, parent, close_saved, task);
  else if (g_strcmp0 (response, "discard") == 0)
    {
      /* the user gave the changes up: nothing to offer back */
      ws_kernel_editor_drop_autosave (self);
      g_task_return_boolean (task, TRUE);
      g_object_unref (task);
    }
  else
    {
      g_task_return_boolean (task, FALSE);
      g_object_unref (task);
    }
}

void
ws_kernel_editor_confirm_close_async (WsKernelEditor      *self,
                                      GtkWindow           *parent,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  GTask *task;
  GtkWidget *dialog;
  g_autofree char *heading = NULL;

  g_return_if_fail (WS_IS_KERNEL_EDITOR (self));

  task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (task, ws_kernel_editor_confirm_close_async);
  if (!ws_kernel_editor_get_modified (self))
    {
      g_task_return_boolean (task, TRUE);
      g_object_unref (task);
      return;
    }
  if (self->file)
    /* Translators: the kernel's file name */
    heading = g_strdup_printf (_("Save Changes to “%s”?"), self->title);
  else
    heading = g_strdup (_("Save the Kernel?"));
  dialog = adw_message_dialog_new (parent, heading,
                                   _("The changes will be lost unless you save them."));
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"), "discard", _("_Discard"),
                                    "save", self->file ? _("_Save") : _("_Save As…"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "discard", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "save", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "save");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect (dialog, "response", G_CALLBACK (close_response), task);
  gtk_window_present (GTK_WINDOW (dialog));
}

gboolean
ws_kernel_editor_confirm_close_finish (WsKernelEditor  *self,
                                       GAsyncResult    *result,
                                       GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ------------------------------------------------------------------ */
/* An unsaved text offered back                                       */
/* ------------------------------------------------------------------ */

typedef struct
{
  char *path;
} Recover;

static void
recover_free (Recover *r)
{
  g_free (r->path);
  g_free (r);
}

static void
recover_response (AdwMessageDialog *dialog,
                  const char       *response,
                  gpointer          user_data)
{
  g_autoptr (GTask) task = user_data;
  Recover *r = g_task_get_task_data (task);
  GError *error = NULL;

  if (g_strcmp0 (response, "recover") == 0)
    {
      if (ws_kernel_editor_recover_path (g_task_get_source_object (task), r->path, &error))
        g_task_return_boolean (task, TRUE);
      else
        g_task_return_error (task, error);
      return;
    }
  if (g_strcmp0 (response, "discard") == 0)
    ws_kernel_editor_discard_unsaved (r->path);
  g_task_return_boolean (task, FALSE);
}

/* "Warpscope stopped before “transpose.cu” was saved (its text of 14:02
 * yesterday was kept)." */
static char *
recover_body (const char *path,
              GFile      *file)
{
  g_autoptr (GFile) kept = g_file_new_for_path (path);
  g_autoptr (GFileInfo) info = g_file_query_info (kept, G_FILE_ATTRIBUTE_TIME_MODIFIED, G_FILE_QUERY_INFO_NONE,
                                                  NULL, NULL);
  g_autoptr (GDateTime) when = info ? g_file_info_get_modification_date_time (info) : NULL;
  g_autoptr (GDateTime) local = when ? g_date_time_to_local (when) : NULL;
  g_autofree char *time = local ? g_date_time_format (local, "%c") : g_strdup ("?");
  g_autofree char *name = file ? ws_kernel_editor_file_display_name (file) : NULL;

  if (name)
    /* Translators: a file name, then the date and time its unsaved text was kept */
    return g_strdup_printf (_("Warpscope stopped before the changes to %s were saved. Their text as of %s was "
                              "kept."), name, time);
  /* Translators: the date and time an unsaved kernel's text was kept */
  return g_strdup_printf (_("Warpscope stopped before a new kernel was saved. Its text as of %s was kept."), time);
}

void
ws_kernel_editor_recover_async (WsKernelEditor      *self,
                                GtkWindow           *parent,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr (GPtrArray) left = ws_kernel_editor_list_unsaved ();
  g_autofree char *text = NULL;
  g_autofree char *body = NULL;
  g_autoptr (GFile) file = NULL;
  Recover *r;
  GTask *task;
  GtkWidget *dialog;

  g_return_if_fail (WS_IS_KERNEL_EDITOR (self));

  task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (task, ws_kernel_editor_recover_async);
  /* the newest; any older stay for the next start */
  if (left->len == 0 || !ws_kernel_editor_read_unsaved (left->pdata[0], &text, &file, NULL))
    {
      g_task_return_boolean (task, FALSE);
      g_object_unref (task);
      return;
    }
  r = g_new0 (Recover, 1);
  r->path = g_strdup (left->pdata[0]);
  g_task_set_task_data (task, r, (GDestroyNotify) recover_free);
  body = recover_body (r->path, file);
  dialog = adw_message_dialog_new (parent, _("Recover the Unsaved Kernel?"), body);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "later", _("_Later"), "discard", _("_Discard"),
                                    "recover", _("_Recover"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "discard", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "recover", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "recover");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "later");
  g_signal_connect (dialog, "response", G_CALLBACK (recover_response), task);
  gtk_window_present (GTK_WINDOW (dialog));
}

gboolean
ws_kernel_editor_recover_finish (WsKernelEditor  *self,
                                 GAsyncResult    *result,
                                 GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}
