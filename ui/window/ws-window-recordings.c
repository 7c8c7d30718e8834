/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Recordings in the window: open one in place of the main one, or add one
 * to plot beside it (an H100's numbers beside a laptop's), from the menu,
 * the keys, a drop on the window, Files, the recent files or the bundled
 * ones; save what this session measured. The session holds them; a file
 * that is not a recording changes nothing, and a toast says what is wrong
 * with it. Files are read on a thread of their own and written atomically
 * (ws_recording_save_file). */
#include <glib/gi18n.h>
#include "ws-window-private.h"

#define MAX_RECENT 8

typedef struct
{
  WsWindow *self;
  char *path;
  WsOpenMode mode;
} OpenData;

static void
open_data_free (OpenData *d)
{
  g_object_unref (d->self);
  g_free (d->path);
  g_free (d);
}

static void
show_opened (WsWindow    *self,
             WsRecording *recording,
             OpenData    *d)
{
  const WsDeviceInfo *device = ws_recording_get_device (recording);
  g_autofree char *name = ws_window_file_name (d->path);
  g_autofree char *gpu = ws_text_for_message (device && device->name ? device->name : _("an unknown GPU"));
  g_autofree char *text = g_strdup_printf (_("%s “%s”: %u measurements made on %s"),
                                           d->mode == WS_OPEN_ADD ? _("Plotting beside it") : _("Opened"), name,
                                           ws_recording_get_n_measurements (recording), gpu);

  ws_window_toast (self, text);
}

/* The session keeps the recording (and says so with "recordings-changed");
 * the window tells the user, and remembers the file. */
static void
open_done (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  OpenData *d = user_data;
  WsWindow *self = d->self;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRecording) recording = ws_session_open_recording_finish (WS_SESSION (source), result, &error);

  g_assert (WS_IS_WINDOW (self));

  self->opening--;
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    ;
  else if (recording == NULL)
    {
      g_autofree char *name = ws_window_file_name (d->path);
      g_autofree char *text = g_strdup_printf (_("Could not open “%s”: %s"), name, error->message);
      ws_window_toast (self, text);
      ws_window_update_actions (self);
    }
  else
    {
      show_opened (self, recording, d);
      ws_window_note_recent (self, d->path);
    }
  open_data_free (d);
}

void
ws_window_open_recording (WsWindow   *self,
                          const char *path,
                          WsOpenMode  mode)
{
  OpenData *d;

  g_return_if_fail (path != NULL);

  d = g_new0 (OpenData, 1);
  d->self = g_object_ref (self);
  d->path = g_strdup (path);
  d->mode = mode;
  self->opening++;
  ws_session_open_recording_async (self->session, path, mode == WS_OPEN_ADD, self->cancellable, open_done, d);
}

gboolean
ws_window_is_opening (WsWindow *self)
{
  return self->opening > 0;
}

void
ws_window_forget_recordings (WsWindow *self)
{
  ws_session_forget_compared (self->session);
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
  g_autoptr (WsRecording) recording = ws_session_to_recording (self->session, error);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autofree char *name = ws_window_file_name (path);
  g_autofree char *text = NULL;

  if (recording == NULL || !ws_recording_save_file (recording, file, NULL, error))
    return FALSE;
  ws_window_note_recent (self, path);
  text = g_strdup_printf (_("Saved %u measurements in “%s”"), ws_recording_get_n_measurements (recording), name);
  ws_window_toast (self, text);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Recent files: the desktop's, through GtkRecentManager              */
/* ------------------------------------------------------------------ */

#define APP_NAME "Warpscope"

void
ws_window_note_recent (WsWindow   *self,
                       const char *path)
{
  g_autofree char *absolute = g_canonicalize_filename (path, NULL);
  g_autofree char *uri = g_filename_to_uri (absolute, NULL, NULL);
  GtkRecentData data = {
    .mime_type = (char *) WS_RECORDING_MIME_TYPE,
    .app_name = (char *) APP_NAME,
    .app_exec = (char *) "warpscope %f",
  };

  /* the bundled ones have a menu of their own */
  if (uri && !ws_recording_is_bundled (absolute))
    gtk_recent_manager_add_full (gtk_recent_manager_get_default (), uri, &data);
}

/* "my_gpu.json": underscores are not mnemonics */
static char *
menu_label (const char *path)
{
  g_autofree char *name = g_path_get_basename (path);
  g_auto (GStrv) parts = g_strsplit (name, "_", -1);

  return g_strjoinv ("__", parts);
}

static int
newest_first (gconstpointer a,
              gconstpointer b)
{
  GtkRecentInfo *x = *(GtkRecentInfo **) a, *y = *(GtkRecentInfo **) b;

  return g_date_time_compare (gtk_recent_info_get_modified (y), gtk_recent_info_get_modified (x));
}

/* The recordings this program opened or saved that are still there, newest first. */
GPtrArray *
ws_window_recent_recordings (void)
{
  GList *items = gtk_recent_manager_get_items (gtk_recent_manager_get_default ());
  GPtrArray *recent = g_ptr_array_new_with_free_func ((GDestroyNotify) gtk_recent_info_unref);

  for (GList *l = items; l; l = l->next)
    {
      GtkRecentInfo *info = l->data;

      if (gtk_recent_info_has_application (info, APP_NAME) && gtk_recent_info_is_local (info) &&
          gtk_recent_info_exists (info))
        g_ptr_array_add (recent, gtk_recent_info_ref (info));
    }
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
  g_ptr_array_sort (recent, newest_first);
  if (recent->len > MAX_RECENT)
    g_ptr_array_set_size (recent, MAX_RECENT);
  return recent;
}

static void
update_recent_menu (WsWindow *self)
{
  g_autoptr (GPtrArray) recent = NULL;

  g_assert (WS_IS_WINDOW (self));

  recent = ws_window_recent_recordings ();
  g_menu_remove_all (self->recent_menu);
  for (guint i = 0; i < recent->len; i++)
    {
      g_autofree char *path = g_filename_from_uri (gtk_recent_info_get_uri (g_ptr_array_index (recent, i)), NULL, NULL);
      g_autofree char *label = NULL;
      g_autoptr (GMenuItem) item = NULL;

      if (path == NULL)
        continue;
      label = menu_label (path);
      item = g_menu_item_new (label, NULL);
      g_menu_item_set_action_and_target_value (item, "win.open-recent", g_variant_new_string (path));
      g_menu_append_item (self->recent_menu, item);
    }
  if (recent->len == 0)
    g_menu_append (self->recent_menu, _("No Recent Recordings"), "win.no-recent");
}

/* ------------------------------------------------------------------ */
/* Drops, Files and the command line                                  */
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
  g_autoptr (GPtrArray) array = g_ptr_array_new ();
  gboolean opened;

  g_assert (WS_IS_WINDOW (self));

  for (GSList *l = files; l; l = l->next)
    g_ptr_array_add (array, l->data);
  opened = ws_window_open_files (self, (GFile **) array->pdata, array->len);
  g_slist_free (files);
  return opened;
}

gboolean
ws_window_open_files (WsWindow *self,
                      GFile   **files,
                      guint     n_files)
{
  guint n = 0;
  gboolean opened_kernel = FALSE;

  g_return_val_if_fail (WS_IS_WINDOW (self), FALSE);

  for (guint i = 0; i < n_files; i++)
    {
      g_autofree char *path = g_file_get_path (files[i]);
      g_autofree char *base = g_file_get_basename (files[i]);

      /* a CUDA source goes to the Kernel page (the first one: the page holds one) */
      if (base && (g_str_has_suffix (base, ".cu") || g_str_has_suffix (base, ".cuh")))
        {
          if (!opened_kernel)
            ws_window_open_kernel (self, files[i]);
          opened_kernel = TRUE;
        }
      else if (path)
        ws_window_open_recording (self, path, n++ == 0 ? WS_OPEN_REPLACE : WS_OPEN_ADD);
    }
  return n > 0 || opened_kernel;
}

/* ------------------------------------------------------------------ */
/* The recordings that ship with the program                          */
/* ------------------------------------------------------------------ */

/* "h200.json": "H200", the GPU it was made on */
static char *
bundled_label (const char *path)
{
  g_autofree char *name = g_path_get_basename (path);
  g_autofree char *upper = NULL;
  g_auto (GStrv) parts = NULL;

  if (g_str_has_suffix (name, ".json"))
    name[strlen (name) - strlen (".json")] = '\0';
  if (g_str_has_suffix (name, ".warpscope"))
    name[strlen (name) - strlen (".warpscope")] = '\0';
  upper = g_ascii_strup (name, -1);
  parts = g_strsplit (upper, "_", -1);
  return g_strjoinv ("__", parts);
}

/* Each bundled recording (an H100's, an H200's), to open in place of the
 * main one or to plot beside it; a file added to data/recordings shows up
 * with no change here. */
static void
fill_bundled_menus (WsWindow *self)
{
  g_auto (GStrv) paths = ws_recording_bundled_paths ();

  for (guint i = 0; paths[i]; i++)
    {
      g_autofree char *label = bundled_label (paths[i]);
      g_autoptr (GMenuItem) open = g_menu_item_new (label, NULL);
      g_autoptr (GMenuItem) add = g_menu_item_new (label, NULL);

      g_menu_item_set_action_and_target_value (open, "win.open-bundled", g_variant_new_string (paths[i]));
      g_menu_item_set_action_and_target_value (add, "win.add-bundled", g_variant_new_string (paths[i]));
      g_menu_append_item (self->bundled_open_menu, open);
      g_menu_append_item (self->bundled_add_menu, add);
    }
  if (paths[0] == NULL)
    g_menu_append (self->bundled_open_menu, _("No Bundled Recordings"), "win.no-bundled");
}

void
ws_window_recordings_init (WsWindow *self)
{
  GtkDropTarget *target = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);

  g_signal_connect_object (target, "drop", G_CALLBACK (on_drop), self, 0);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (target));
  g_signal_connect_object (gtk_recent_manager_get_default (), "changed", G_CALLBACK (update_recent_menu), self,
                           G_CONNECT_SWAPPED);
  update_recent_menu (self);
  fill_bundled_menus (self);
}
