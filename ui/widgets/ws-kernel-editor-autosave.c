/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Unsaved text kept in the user's cache, so that a crash loses little: a
 * few seconds after the last change the text is written (atomically, on a
 * thread) to warpscope/unsaved/kernel-UUID.cu, beside an info file naming
 * the file it belongs to. The editor holds a lock on the info file while
 * it lives; a text whose lock nobody holds was left by a program that
 * ended without saving it, and is offered back at the next start. */
#include <glib/gi18n.h>
#include "ws-kernel-editor-private.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

/* seconds without a change before the text is kept, and the most a stream
 * of changes may put it off */
#define AUTOSAVE_DELAY_S 3
#define AUTOSAVE_MAX_WAIT_US (15 * G_USEC_PER_SEC)
#define INFO_GROUP "Unsaved kernel"

static char *
unsaved_dir (void)
{
  return g_build_filename (g_get_user_cache_dir (), "warpscope", "unsaved", NULL);
}

/* kernel-UUID.cu → kernel-UUID.ini */
static char *
info_path_of (const char *text_path)
{
  g_autofree char *stem = g_strndup (text_path, strlen (text_path) - strlen (".cu"));

  return g_strconcat (stem, ".ini", NULL);
}

/* ------------------------------------------------------------------ */
/* The editor's own                                                   */
/* ------------------------------------------------------------------ */

static void
write_info (WsKernelEditor *self)
{
  g_autoptr (GKeyFile) info = g_key_file_new ();
  g_autofree char *uri = self->file ? g_file_get_uri (self->file) : NULL;
  g_autofree char *data = NULL;
  gsize length;

  g_key_file_set_string (info, INFO_GROUP, "file", uri ? uri : "");
  data = g_key_file_to_data (info, &length, NULL);
  /* through the locked descriptor: replacing the file would drop the lock */
  if (ftruncate (self->autosave_lock, 0) != 0 || pwrite (self->autosave_lock, data, length, 0) != (gssize) length)
    g_warning ("Could not write %s.ini beside the unsaved kernel: %s", self->autosave_path, g_strerror (errno));
}

/* A new place for the text, locked as this editor's. */
static gboolean
claim_path (WsKernelEditor *self)
{
  g_autofree char *dir = unsaved_dir ();
  g_autofree char *uuid = g_uuid_string_random ();
  g_autofree char *name = g_strdup_printf ("kernel-%s.cu", uuid);
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *info = info_path_of (path);
  int fd;

  if (g_mkdir_with_parents (dir, 0700) != 0 ||
      (fd = g_open (info, O_RDWR | O_CREAT | O_CLOEXEC, 0600)) < 0)
    {
      g_warning ("Could not keep the unsaved kernel in %s: %s", dir, g_strerror (errno));
      return FALSE;
    }
  if (flock (fd, LOCK_EX | LOCK_NB) != 0)
    {
      g_warning ("Could not lock %s: %s", info, g_strerror (errno));
      close (fd);
      return FALSE;
    }
  self->autosave_lock = fd;
  self->autosave_path = g_steal_pointer (&path);
  write_info (self);
  return TRUE;
}

typedef struct
{
  char *path;
  char *text;
} Write;

static void
write_free (Write *w)
{
  g_free (w->path);
  g_free (w->text);
  g_free (w);
}

static void
write_thread (GTask        *task,
              gpointer      source,
              gpointer      task_data,
              GCancellable *cancellable)
{
  Write *w = task_data;
  GError *error = NULL;

  if (g_file_set_contents_full (w->path, w->text, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0600, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void write_now (WsKernelEditor *self);

static void
write_done (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  WsKernelEditor *self = WS_KERNEL_EDITOR (source);
  Write *w = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;

  self->autosave_writing = FALSE;
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    g_warning ("Could not keep the unsaved kernel: %s", error->message);
  /* the editor went meanwhile: what it kept stays */
  if (self->buffer == NULL)
    return;
  /* saved or discarded while it was written: it goes */
  if (g_strcmp0 (self->autosave_path, w->path) != 0)
    {
      g_unlink (w->path);
      return;
    }
  if (self->autosave_again)
    {
      self->autosave_again = FALSE;
      write_now (self);
    }
}

static void
write_now (WsKernelEditor *self)
{
  g_autoptr (GTask) task = NULL;
  Write *w;

  if (!self->autosave || self->buffer == NULL || !ws_kernel_editor_get_modified (self))
    return;
  if (self->autosave_writing)
    {
      self->autosave_again = TRUE;
      return;
    }
  if (self->autosave_path == NULL && !claim_path (self))
    return;
  w = g_new0 (Write, 1);
  w->path = g_strdup (self->autosave_path);
  w->text = ws_kernel_editor_get_text (self);
  self->autosave_writing = TRUE;
  task = g_task_new (self, NULL, write_done, NULL);
  g_task_set_task_data (task, w, (GDestroyNotify) write_free);
  g_task_run_in_thread (task, write_thread);
}

static gboolean
autosave_due (gpointer data)
{
  WsKernelEditor *self = data;

  self->autosave_source = 0;
  write_now (self);
  return G_SOURCE_REMOVE;
}

void
ws_kernel_editor_queue_autosave (WsKernelEditor *self)
{
  gint64 now = g_get_monotonic_time ();

  if (!self->autosave)
    return;
  if (self->autosave_source && now - self->autosave_due_since < AUTOSAVE_MAX_WAIT_US)
    g_clear_handle_id (&self->autosave_source, g_source_remove);
  else if (self->autosave_source)
    return;
  else
    self->autosave_due_since = now;
  self->autosave_source = g_timeout_add_seconds (AUTOSAVE_DELAY_S, autosave_due, self);
}

void
ws_kernel_editor_autosave_now (WsKernelEditor *self)
{
  g_return_if_fail (WS_IS_KERNEL_EDITOR (self));

  g_clear_handle_id (&self->autosave_source, g_source_remove);
  write_now (self);
}

void
ws_kernel_editor_drop_autosave (WsKernelEditor *self)
{
  g_clear_handle_id (&self->autosave_source, g_source_remove);
  self->autosave_again = FALSE;
  if (self->autosave_path)
    {
      g_autofree char *info = info_path_of (self->autosave_path);

      g_unlink (self->autosave_path);
      g_unlink (info);
      g_clear_pointer (&self->autosave_path, g_free);
    }
  if (self->autosave_lock >= 0)
    {
      close (self->autosave_lock);
      self->autosave_lock = -1;
    }
}

void
ws_kernel_editor_set_autosave (WsKernelEditor *self,
                               gboolean        autosave)
{
  g_return_if_fail (WS_IS_KERNEL_EDITOR (self));

  autosave = !!autosave;
  if (self->autosave == autosave)
    return;
  self->autosave = autosave;
  if (!autosave)
    ws_kernel_editor_drop_autosave (self);
  else if (ws_kernel_editor_get_modified (self))
    ws_kernel_editor_queue_autosave (self);
  g_object_notify_by_pspec (G_OBJECT (self), ws_kernel_editor_props[PROP_AUTOSAVE]);
}

gboolean
ws_kernel_editor_get_autosave (WsKernelEditor *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_EDITOR (self), FALSE);
  return self->autosave;
}

const char *
ws_kernel_editor_get_autosave_path (WsKernelEditor *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_EDITOR (self), NULL);
  return self->autosave_path;
}

/* The editor goes with unsaved text: what was kept stays, unlocked, to be
 * offered back (a window closed without asking, the program quitting). */
void
ws_kernel_editor_autosave_dispose (WsKernelEditor *self)
{
  g_clear_handle_id (&self->autosave_source, g_source_remove);
  g_clear_pointer (&self->autosave_path, g_free);
  if (self->autosave_lock >= 0)
    {
      close (self->autosave_lock);
      self->autosave_lock = -1;
    }
}

/* ------------------------------------------------------------------ */
/* What others left                                                   */
/* ------------------------------------------------------------------ */

/* Whether an editor, here or in another process, holds the info file. */
static gboolean
held (const char *info)
{
  int fd = g_open (info, O_RDWR | O_CLOEXEC, 0);
  gboolean locked;

  if (fd < 0)
    return TRUE;   /* being made, or gone */
  locked = flock (fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  close (fd);
  return locked;
}

static int
newest_first (gconstpointer a,
              gconstpointer b)
{
  GStatBuf sa, sb;
  const char *pa = *(const char **) a, *pb = *(const char **) b;

  if (g_stat (pa, &sa) != 0 || g_stat (pb, &sb) != 0)
    return 0;
  return sa.st_mtime < sb.st_mtime ? 1 : sa.st_mtime > sb.st_mtime ? -1 : 0;
}

GPtrArray *
ws_kernel_editor_list_unsaved (void)
{
  g_autofree char *dir_path = unsaved_dir ();
  g_autoptr (GDir) dir = g_dir_open (dir_path, 0, NULL);
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (dir && (name = g_dir_read_name (dir)))
    {
      g_autofree char *path = NULL;
      g_autofree char *info = NULL;

      if (!g_str_has_prefix (name, "kernel-") || !g_str_has_suffix (name, ".cu"))
        continue;
      path = g_build_filename (dir_path, name, NULL);
      info = info_path_of (path);
      if (!held (info))
        g_ptr_array_add (paths, g_steal_pointer (&path));
    }
  g_ptr_array_sort (paths, newest_first);
  return paths;
}

void
ws_kernel_editor_discard_unsaved (const char *path)
{
  g_autofree char *info = NULL;

  g_return_if_fail (path != NULL && g_str_has_suffix (path, ".cu"));

  info = info_path_of (path);
  g_unlink (path);
  g_unlink (info);
}

gboolean
ws_kernel_editor_read_unsaved (const char  *path,
                               char       **text,
                               GFile      **file,
                               GError     **error)
{
  g_autofree char *info_path = info_path_of (path);
  g_autoptr (GKeyFile) info = g_key_file_new ();
  g_autofree char *uri = NULL;

  if (!g_file_get_contents (path, text, NULL, error))
    return FALSE;
  if (!g_utf8_validate (*text, -1, NULL))
    {
      g_clear_pointer (text, g_free);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("The unsaved kernel in “%s” is not UTF-8 text"),
                   path);
      return FALSE;
    }
  /* the file it belonged to, if the info says */
  if (g_key_file_load_from_file (info, info_path, G_KEY_FILE_NONE, NULL))
    uri = g_key_file_get_string (info, INFO_GROUP, "file", NULL);
  *file = uri && *uri ? g_file_new_for_uri (uri) : NULL;
  return TRUE;
}

gboolean
ws_kernel_editor_recover_path (WsKernelEditor  *self,
                               const char      *path,
                               GError         **error)
{
  g_autofree char *text = NULL;
  g_autoptr (GFile) file = NULL;

  g_return_val_if_fail (WS_IS_KERNEL_EDITOR (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!ws_kernel_editor_read_unsaved (path, &text, &file, error))
    return FALSE;
  ws_kernel_editor_drop_autosave (self);
  ws_kernel_editor_set_text (self, text);
  ws_kernel_editor_set_file (self, file);
  /* unsaved changes to that file, kept from now on by this editor */
  ws_kernel_editor_set_modified (self, TRUE);
  ws_kernel_editor_discard_unsaved (path);
  ws_kernel_editor_autosave_now (self);
  return TRUE;
}
