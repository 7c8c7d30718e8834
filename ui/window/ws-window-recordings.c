/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Recordings in the window: open one in place of the main one, or add one
 * to plot beside it (an H100's numbers beside a laptop's), from the menu,
 * the keys, a drop on the window or the recent files; save what this
 * session measured. A file that is not a recording changes nothing: a
 * toast says what is wrong with it. Files are read on a worker thread and
 * written atomically (ws_recording_save_file). */
#include "ws-window-private.h"

#define MAX_RECENT 8
#define MAX_COMPARED 3

typedef struct
{
  char *path;
  WsOpenMode mode;
} OpenData;

static void
open_data_free (OpenData *d)
{
  g_free (d->path);
  g_free (d);
}

static void
open_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  OpenData *d = task_data;
  g_autoptr (GFile) file = g_file_new_for_path (d->path);
  GError *error = NULL;
  WsRecording *recording = ws_recording_load_file (file, cancellable, &error);

  if (recording)
    g_task_return_pointer (task, recording, g_object_unref);
  else
    g_task_return_error (task, error);
}

static void
show_opened (WsWindow    *self,
             WsRecording *recording,
             OpenData    *d)
{
  const WsDeviceInfo *device = ws_recording_get_device (recording);
  g_autofree char *name = g_path_get_basename (d->path);
  g_autofree char *text = g_strdup_printf ("%s “%s”: %u measurements made on %s",
                                           d->mode == WS_OPEN_ADD ? "Plotting beside it" : "Opened", name,
                                           ws_recording_get_n_measurements (recording),
                                           device && device->name ? device->name : "an unknown GPU");

  ws_window_toast (self, text);
}

static void
recordings_changed (WsWindow *self)
{
  ws_window_update_banner (self);
  ws_window_rebuild_chart (self);
  ws_window_rebuild_compare (self);
  ws_window_show_measured (self);
  ws_window_update_actions (self);
}

static void
open_done (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  WsWindow *self = WS_WINDOW (source);
  OpenData *d = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;
  WsRecording *recording = g_task_propagate_pointer (G_TASK (result), &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self->opening--;
  if (recording == NULL)
    {
      g_autofree char *name = g_path_get_basename (d->path);
      g_autofree char *text = g_strdup_printf ("Could not open “%s”: %s", name, error->message);
      ws_window_toast (self, text);
      ws_window_update_actions (self);
      return;
    }
  show_opened (self, recording, d);
  if (d->mode == WS_OPEN_REPLACE)
    {
      g_clear_object (&self->recording);
      g_clear_error (&self->recording_error);
      self->recording = recording;
      g_free (self->recording_path);
      self->recording_path = g_strdup (d->path);
    }
  else
    {
      if (self->compared == NULL)
        self->compared = g_ptr_array_new_with_free_func (g_object_unref);
      if (self->compared->len >= MAX_COMPARED)
        g_ptr_array_remove_index (self->compared, 0);
      g_ptr_array_add (self->compared, recording);
    }
  ws_window_note_recent (self, d->path);
  recordings_changed (self);
}

void
ws_window_open_recording (WsWindow   *self,
                          const char *path,
                          WsOpenMode  mode)
{
  g_autoptr (GTask) task = g_task_new (self, self->probe_cancellable, open_done, NULL);
  OpenData *d = g_new0 (OpenData, 1);

  g_return_if_fail (path != NULL);
  d->path = g_strdup (path);
  d->mode = mode;
  self->opening++;
  g_task_set_source_tag (task, ws_window_open_recording);
  g_task_set_task_data (task, d, (GDestroyNotify) open_data_free);
  g_task_run_in_thread (task, open_thread);
}

gboolean
ws_window_is_opening (WsWindow *self)
{
  return self->opening > 0;
}

void
ws_window_forget_recordings (WsWindow *self)
{
  if (self->compared == NULL || self->compared->len == 0)
    return;
  g_ptr_array_set_size (self->compared, 0);
  recordings_changed (self);
}

/* ------------------------------------------------------------------ */
/* Saving                                                             */
/* ------------------------------------------------------------------ */

/* What this session measured, as a recording of the device it ran on; with
 * nothing measured, a copy of the main recording. */
gboolean
ws_window_save_recording (WsWindow   *self,
                          const char *path,
                          GError    **error)
{
  g_autoptr (WsRecording) recording = NULL;
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autofree char *name = g_path_get_basename (path);
  g_autofree char *text = NULL;

  if (self->device && self->live->len > 0)
    {
      recording = ws_recording_new (self->device);
      for (guint i = 0; i < self->live->len; i++)
        ws_recording_add (recording, ((WsLiveEntry *) g_ptr_array_index (self->live, i))->m);
    }
  else if (self->recording)
    recording = g_object_ref (self->recording);
  else
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "nothing was measured in this window, and no recording is open");
      return FALSE;
    }
  if (!ws_recording_save_file (recording, file, NULL, error))
    return FALSE;
  ws_window_note_recent (self, path);
  text = g_strdup_printf ("Saved %u measurements in “%s”", ws_recording_get_n_measurements (recording), name);
  ws_window_toast (self, text);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Recent files                                                       */
/* ------------------------------------------------------------------ */

void
ws_window_note_recent (WsWindow   *self,
                       const char *path)
{
  g_auto (GStrv) old = g_settings_get_strv (self->settings, "recent-recordings");
  g_autoptr (GStrvBuilder) b = g_strv_builder_new ();
  g_autofree char *absolute = g_canonicalize_filename (path, NULL);
  g_auto (GStrv) recent = NULL;
  guint n = 1;

  g_strv_builder_add (b, absolute);
  for (guint i = 0; old[i] && n < MAX_RECENT; i++)
    if (!g_str_equal (old[i], absolute))
      {
        g_strv_builder_add (b, old[i]);
        n++;
      }
  recent = g_strv_builder_end (b);
  g_settings_set_strv (self->settings, "recent-recordings", (const char * const *) recent);
}

/* "my_gpu.json": underscores are not mnemonics */
static char *
menu_label (const char *path)
{
  g_autofree char *name = g_path_get_basename (path);
  g_auto (GStrv) parts = g_strsplit (name, "_", -1);

  return g_strjoinv ("__", parts);
}

static void
update_recent_menu (WsWindow *self)
{
  g_auto (GStrv) recent = g_settings_get_strv (self->settings, "recent-recordings");

  g_menu_remove_all (self->recent_menu);
  for (guint i = 0; recent[i]; i++)
    {
      g_autofree char *label = menu_label (recent[i]);
      g_autoptr (GMenuItem) item = g_menu_item_new (label, NULL);

      g_menu_item_set_action_and_target_value (item, "win.open-recent", g_variant_new_string (recent[i]));
      g_menu_append_item (self->recent_menu, item);
    }
  if (recent[0] == NULL)
    g_menu_append (self->recent_menu, "No Recent Recordings", "win.no-recent");
}

/* ------------------------------------------------------------------ */
/* Drops                                                              */
/* ------------------------------------------------------------------ */

/* The first file dropped opens in place of the main recording, the others beside it. */
static gboolean
on_drop (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         WsWindow      *self)
{
  GSList *files = gdk_file_list_get_files (g_value_get_boxed (value));
  guint n = 0;

  for (GSList *l = files; l; l = l->next)
    {
      g_autofree char *path = g_file_get_path (l->data);
      if (path)
        ws_window_open_recording (self, path, n++ == 0 ? WS_OPEN_REPLACE : WS_OPEN_ADD);
    }
  g_slist_free (files);
  return n > 0;
}

void
ws_window_recordings_init (WsWindow *self)
{
  GtkDropTarget *target = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);

  g_signal_connect_object (target, "drop", G_CALLBACK (on_drop), self, 0);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (target));
  g_signal_connect_object (self->settings, "changed::recent-recordings", G_CALLBACK (update_recent_menu), self,
                           G_CONNECT_SWAPPED);
  update_recent_menu (self);
}
