/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-config.h"

#include <glib/gi18n.h>
#include "ws-gpu-chooser.h"

struct _WsGpuChooser
{
  GtkBox parent_instance;

  GSettings *settings;
  WsSession *session;
  GtkLabel *heading;
  GtkListBox *places;
  GPtrArray *targets;            /* WsGpuTarget of each row of places; the last row adds one */
  GtkWidget *status;
  GtkLabel *status_label;
  GtkButton *status_button;
  GtkWidget *gpus_title;
  GtkListBox *gpus;
};

G_DEFINE_FINAL_TYPE (WsGpuChooser, ws_gpu_chooser, GTK_TYPE_BOX)

/* ------------------------------------------------------------------ */
/* Places                                                             */
/* ------------------------------------------------------------------ */

WsGpuTarget *
ws_gpu_chooser_read_target (GSettings *settings)
{
  g_autofree char *address = g_settings_get_string (settings, "gpu");
  WsGpuTarget *target = ws_gpu_target_parse (address, NULL);

  return target ? target : ws_gpu_target_new_local ();
}

/* The same machine, whichever of its GPUs. */
static gboolean
same_place (const WsGpuTarget *a,
            const WsGpuTarget *b)
{
  g_autoptr (WsGpuTarget) x = ws_gpu_target_copy (a);
  g_autoptr (WsGpuTarget) y = ws_gpu_target_copy (b);

  x->gpu = y->gpu = 0;
  return ws_gpu_target_equal (x, y);
}

static void
choose (GSettings         *settings,
        const WsGpuTarget *target)
{
  g_autofree char *address = ws_gpu_target_to_string (target);

  g_settings_set_string (settings, "gpu", address);
}

static void
forget_place (GtkButton    *button,
              WsGpuChooser *self)
{
  const WsGpuTarget *target = g_object_get_data (G_OBJECT (button), "ws-target");
  g_auto (GStrv) saved = g_settings_get_strv (self->settings, "gpus");
  g_autoptr (GStrvBuilder) kept = g_strv_builder_new ();
  g_auto (GStrv) list = NULL;
  g_autoptr (WsGpuTarget) current = ws_gpu_chooser_read_target (self->settings);

  for (guint i = 0; saved[i]; i++)
    {
      g_autoptr (WsGpuTarget) t = ws_gpu_target_parse (saved[i], NULL);
      if (t == NULL || !same_place (t, target))
        g_strv_builder_add (kept, saved[i]);
    }
  list = g_strv_builder_end (kept);
  /* the place measured on goes back to this computer */
  if (same_place (current, target))
    g_settings_set_string (self->settings, "gpu", "local");
  g_settings_set_strv (self->settings, "gpus", (const char * const *) list);
}

/* A row's title: the place as people name it. */
static char *
place_title (const WsGpuTarget *t)
{
  switch (t->kind)
    {
    case WS_GPU_TARGET_LOCAL:
      return g_strdup (_("This Computer"));
    case WS_GPU_TARGET_SSH:
      return g_strdup_printf ("%s%s%s", t->user ? t->user : "", t->user ? "@" : "", t->host);
    case WS_GPU_TARGET_SLURM:
      if (t->jobid)
        return g_strdup_printf (_("Slurm Job %s"), t->jobid);
      return t->partition ? g_strdup_printf (_("Slurm Partition %s"), t->partition) : g_strdup ("Slurm");
    case WS_GPU_TARGET_COMMAND:
    default:
      {
        /* the whole command is the row's tooltip */
        glong n = g_utf8_strlen (t->command, -1);
        g_autofree char *shown = g_utf8_substring (t->command, 0, MIN (n, 40));

        return g_strdup_printf (_("Command: %s%s"), shown, n > 40 ? "…" : "");
      }
    }
}

/* Below it: how it is reached. */
static char *
place_detail (const WsGpuTarget *t)
{
  g_autoptr (GString) s = g_string_new (NULL);

  switch (t->kind)
    {
    case WS_GPU_TARGET_LOCAL:
      return NULL;
    case WS_GPU_TARGET_SSH:
      g_string_append (s, "ssh");
      if (t->port)
        g_string_append_printf (s, _(", port %d"), t->port);
      break;
    case WS_GPU_TARGET_SLURM:
      g_string_append_printf (s, "srun, %s", t->gres ? t->gres : "gpu:1");
      if (t->time)
        g_string_append_printf (s, ", %s", t->time);
      if (t->account)
        g_string_append_printf (s, _(", account %s"), t->account);
      break;
    case WS_GPU_TARGET_COMMAND:
    default:
      g_string_append (s, _("a command of yours"));
      break;
    }
  if (t->worker)
    g_string_append_printf (s, _(", worker %s"), t->worker);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

static GtkWidget *
place_row (WsGpuChooser      *self,
           const WsGpuTarget *target,
           gboolean           chosen)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *mark = gtk_image_new_from_icon_name ("object-select-symbolic");
  g_autofree char *title = place_title (target);

  g_autofree char *detail = place_detail (target);
  const WsGpuTarget *t = target;

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 1);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 1);
  if (detail)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), detail);
  if (t->kind == WS_GPU_TARGET_COMMAND)
    {
      /* a command may be 4 KiB of one word */
      g_autofree char *tip = ws_text_printable (t->command, 300);

      gtk_widget_set_tooltip_text (row, tip);
    }
  gtk_widget_set_opacity (mark, chosen ? 1 : 0);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), mark);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
  if (!ws_gpu_target_is_local (target))
    {
      GtkWidget *forget = gtk_button_new_from_icon_name ("user-trash-symbolic");

      gtk_widget_set_valign (forget, GTK_ALIGN_CENTER);
      gtk_widget_set_tooltip_text (forget, _("Forget This GPU"));
      gtk_widget_add_css_class (forget, "flat");
      g_object_set_data_full (G_OBJECT (forget), "ws-target", ws_gpu_target_copy (target),
                              (GDestroyNotify) ws_gpu_target_free);
      g_signal_connect (forget, "clicked", G_CALLBACK (forget_place), self);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), forget);
    }
  return row;
}

static void
rebuild_places (WsGpuChooser *self)
{
  g_auto (GStrv) saved = g_settings_get_strv (self->settings, "gpus");
  g_autoptr (WsGpuTarget) current = ws_gpu_chooser_read_target (self->settings);
  gboolean current_saved = ws_gpu_target_is_local (current);
  GtkWidget *child, *add;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->places))))
    gtk_list_box_remove (self->places, child);
  g_ptr_array_set_size (self->targets, 0);

  g_ptr_array_add (self->targets, ws_gpu_target_new_local ());
  for (guint i = 0; saved[i]; i++)
    {
      WsGpuTarget *t = ws_gpu_target_parse (saved[i], NULL);
      if (t)
        {
          current_saved |= same_place (t, current);
          g_ptr_array_add (self->targets, t);
        }
    }
  /* one chosen elsewhere (warpscope --gpu, the settings) is listed too */
  if (!current_saved)
    g_ptr_array_add (self->targets, ws_gpu_target_copy (current));
  for (guint i = 0; i < self->targets->len; i++)
    {
      const WsGpuTarget *t = g_ptr_array_index (self->targets, i);
      gtk_list_box_append (self->places, place_row (self, t, same_place (t, current)));
    }
  add = adw_action_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (add), _("Add a GPU Elsewhere…"));
  adw_action_row_add_prefix (ADW_ACTION_ROW (add), gtk_image_new_from_icon_name ("list-add-symbolic"));
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (add), TRUE);
  gtk_list_box_append (self->places, add);
}

static void
on_place_activated (GtkListBox    *box,
                    GtkListBoxRow *row,
                    WsGpuChooser  *self)
{
  guint i = (guint) gtk_list_box_row_get_index (row);
  g_autoptr (WsGpuTarget) current = ws_gpu_chooser_read_target (self->settings);
  GtkWidget *popover = gtk_widget_get_ancestor (GTK_WIDGET (self), GTK_TYPE_POPOVER);

  if (i >= self->targets->len)
    {
      GtkWindow *parent = GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (self)));

      if (popover)
        gtk_popover_popdown (GTK_POPOVER (popover));
      ws_gpu_chooser_add (parent, self->settings);
      return;
    }
  /* the place measured on already keeps its GPU */
  if (!same_place (current, g_ptr_array_index (self->targets, i)))
    choose (self->settings, g_ptr_array_index (self->targets, i));
}

/* ------------------------------------------------------------------ */
/* The session: how reaching it goes, and its GPUs                    */
/* ------------------------------------------------------------------ */

static void
rebuild_gpus (WsGpuChooser *self)
{
  const WsWorkerHello *hello = self->session ? ws_session_get_hello (self->session) : NULL;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->gpus))))
    gtk_list_box_remove (self->gpus, child);
  gtk_widget_set_visible (self->gpus_title, hello && hello->gpus->len > 0);
  gtk_widget_set_visible (GTK_WIDGET (self->gpus), hello && hello->gpus->len > 0);
  if (hello == NULL)
    return;
  for (guint i = 0; i < hello->gpus->len; i++)
    {
      const WsGpuSummary *s = g_ptr_array_index (hello->gpus, i);
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *mark = gtk_image_new_from_icon_name ("object-select-symbolic");
      g_autofree char *memory = g_format_size_full (s->memory_bytes, G_FORMAT_SIZE_IEC_UNITS);
      /* the worker's name for it: any text of a kilobyte */
      g_autofree char *name = ws_text_for_message (s->name);
      g_autofree char *title = g_strdup_printf ("GPU %d · %s", s->index, name);
      g_autofree char *subtitle = g_strdup_printf (_("compute capability %d.%d · %s%s"), s->cc_major, s->cc_minor,
                                                   memory, hello->replay ? " · played back from a recording" : "");

      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      gtk_widget_set_opacity (mark, s->index == hello->gpu ? 1 : 0);
      adw_action_row_add_prefix (ADW_ACTION_ROW (row), mark);
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
      g_object_set_data (G_OBJECT (row), "ws-gpu", GINT_TO_POINTER (s->index));
      gtk_list_box_append (self->gpus, row);
    }
}

static void
on_gpu_activated (GtkListBox    *box,
                  GtkListBoxRow *row,
                  WsGpuChooser  *self)
{
  g_autoptr (WsGpuTarget) target = ws_gpu_target_copy (ws_session_get_target (self->session));
  int gpu = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (row), "ws-gpu"));

  if (gpu == target->gpu || !ws_gpu_target_set_gpu (target, gpu, NULL))
    return;
  choose (self->settings, target);
}

static void
update_status (WsGpuChooser *self)
{
  WsSessionConnection c = self->session ? ws_session_get_connection (self->session) : WS_SESSION_CONNECTION_NONE;
  g_autofree char *text = NULL;
  const char *button = NULL;

  if (self->session)
    text = ws_session_describe_gpu (self->session);
  switch (c)
    {
    case WS_SESSION_CONNECTION_CONNECTING:
    case WS_SESSION_CONNECTION_QUEUED:
      button = _("_Cancel");
      break;
    case WS_SESSION_CONNECTION_FAILED:
    case WS_SESSION_CONNECTION_LOST:
      button = _("_Try Again");
      break;
    case WS_SESSION_CONNECTION_NONE:
    case WS_SESSION_CONNECTION_CONNECTED:
    default:
      break;
    }
  if (text && text[0])
    text[0] = g_ascii_toupper (text[0]);
  gtk_widget_set_visible (self->status, text != NULL);
  gtk_label_set_text (self->status_label, text ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->status_button), button != NULL);
  if (button)
    gtk_button_set_label (self->status_button, button);
  rebuild_gpus (self);
}

static void
on_status_button (GtkButton    *button,
                  WsGpuChooser *self)
{
  WsSessionConnection c = ws_session_get_connection (self->session);

  if (c == WS_SESSION_CONNECTION_CONNECTING || c == WS_SESSION_CONNECTION_QUEUED)
    ws_session_cancel_connecting (self->session);
  else
    ws_session_reconnect (self->session);
}

void
ws_gpu_chooser_set_session (WsGpuChooser *self,
                            WsSession    *session)
{
  g_return_if_fail (WS_IS_GPU_CHOOSER (self));
  g_return_if_fail (session == NULL || WS_IS_SESSION (session));

  if (self->session)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_set_object (&self->session, session);
  if (session)
    {
      g_signal_connect_swapped (session, "notify::connection", G_CALLBACK (update_status), self);
      g_signal_connect_swapped (session, "notify::hello", G_CALLBACK (update_status), self);
      g_signal_connect_swapped (session, "notify::probed", G_CALLBACK (update_status), self);
    }
  update_status (self);
}

void
ws_gpu_chooser_set_heading (WsGpuChooser *self,
                            const char   *text)
{
  g_return_if_fail (WS_IS_GPU_CHOOSER (self));

  gtk_label_set_text (self->heading, text ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->heading), text != NULL);
}

/* ------------------------------------------------------------------ */
/* Adding one                                                         */
/* ------------------------------------------------------------------ */

typedef struct
{
  GSettings *settings;
  AdwMessageDialog *dialog;
  AdwComboRow *kind;
  GtkWidget *host, *partition, *gres, *time, *account, *command, *worker;
  GtkLabel *error;
  WsGpuTarget *target;           /* what the fields say, or NULL */
} Adding;

static void
adding_free (gpointer  data,
             GClosure *closure)
{
  Adding *a = data;

  g_object_unref (a->settings);
  g_clear_pointer (&a->target, ws_gpu_target_free);
  g_free (a);
}

static const char *
text_of (GtkWidget *entry)
{
  return gtk_editable_get_text (GTK_EDITABLE (entry));
}

static void
add_option (GString    *s,
            const char *name,
            const char *value)
{
  g_autofree char *escaped = NULL;

  if (value == NULL || value[0] == '\0')
    return;
  escaped = g_uri_escape_string (value, "/:,~", FALSE);
  g_string_append_printf (s, "%c%s=%s", strchr (s->str, '?') ? '&' : '?', name, escaped);
}

/* The address the fields make, checked as any other. */
static void
check_fields (Adding *a)
{
  guint kind = adw_combo_row_get_selected (a->kind);
  g_autoptr (GString) address = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  gboolean empty = FALSE;

  gtk_widget_set_visible (a->host, kind == 0);
  gtk_widget_set_visible (a->partition, kind == 1);
  gtk_widget_set_visible (a->gres, kind == 1);
  gtk_widget_set_visible (a->time, kind == 1);
  gtk_widget_set_visible (a->account, kind == 1);
  gtk_widget_set_visible (a->command, kind == 2);
  gtk_widget_set_visible (a->worker, kind != 2);
  if (kind == 0)
    {
      empty = text_of (a->host)[0] == '\0';
      g_string_append_printf (address, "ssh://%s", text_of (a->host));
    }
  else if (kind == 1)
    {
      g_string_append_printf (address, "slurm://%s", text_of (a->partition));
      add_option (address, "gres", text_of (a->gres));
      add_option (address, "time", text_of (a->time));
      add_option (address, "account", text_of (a->account));
    }
  else
    {
      empty = text_of (a->command)[0] == '\0';
      g_string_append (address, "command:");
      add_option (address, "run", text_of (a->command));
    }
  if (kind != 2)
    add_option (address, "worker", text_of (a->worker));
  g_clear_pointer (&a->target, ws_gpu_target_free);
  if (!empty)
    a->target = ws_gpu_target_parse (address->str, &error);
  gtk_label_set_text (a->error, error ? error->message : "");
  gtk_widget_set_visible (GTK_WIDGET (a->error), error != NULL);
  adw_message_dialog_set_response_enabled (a->dialog, "add", a->target != NULL);
}

static void
on_response (AdwMessageDialog *dialog,
             const char       *response,
             Adding           *a)
{
  g_auto (GStrv) saved = NULL;
  g_autoptr (GStrvBuilder) list = NULL;
  g_auto (GStrv) updated = NULL;
  g_autofree char *address = NULL;
  gboolean known = FALSE;
  GtkWidget *rows[] = { GTK_WIDGET (a->kind), a->host, a->partition, a->gres, a->time, a->account, a->command,
                        a->worker };

  /* the dialog goes now: its rows must not call back while they go */
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    g_signal_handlers_disconnect_by_data (rows[i], a);
  if (!g_str_equal (response, "add") || a->target == NULL)
    return;
  saved = g_settings_get_strv (a->settings, "gpus");
  list = g_strv_builder_new ();
  address = ws_gpu_target_to_string (a->target);
  for (guint i = 0; saved[i]; i++)
    {
      known |= g_str_equal (saved[i], address);
      g_strv_builder_add (list, saved[i]);
    }
  if (!known)
    g_strv_builder_add (list, address);
  updated = g_strv_builder_end (list);
  g_settings_set_strv (a->settings, "gpus", (const char * const *) updated);
  choose (a->settings, a->target);
}

static GtkWidget *
entry_row (GtkWidget  *list,
           const char *title,
           const char *text)
{
  GtkWidget *row = adw_entry_row_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  if (text)
    gtk_editable_set_text (GTK_EDITABLE (row), text);
  gtk_list_box_append (GTK_LIST_BOX (list), row);
  return row;
}

void
ws_gpu_chooser_add (GtkWindow *parent,
                    GSettings *settings)
{
  Adding *a = g_new0 (Adding, 1);
  const char *kinds[] = { "ssh", _("Slurm (srun)"), _("A command of mine"), NULL };
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *list = gtk_list_box_new ();
  GtkWidget *dialog;
  g_autoptr (GtkStringList) model = gtk_string_list_new (kinds);

  dialog = adw_message_dialog_new (parent, _("Add a GPU Elsewhere"),
                                   _("Warpscope starts its GPU worker there and measures through it. The worker "
                                     "comes with a build of Warpscope on that machine: meson setup -Dgui=disabled. "
                                     "Logins use your ssh keys and agent, never a password."));
  a->settings = g_object_ref (settings);
  a->dialog = ADW_MESSAGE_DIALOG (dialog);
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (list, "boxed-list");
  a->kind = ADW_COMBO_ROW (adw_combo_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (a->kind), _("Reach It With"));
  adw_combo_row_set_model (a->kind, G_LIST_MODEL (model));
  gtk_list_box_append (GTK_LIST_BOX (list), GTK_WIDGET (a->kind));
  a->host = entry_row (list, _("Host: [user@]host[:port]"), NULL);
  a->partition = entry_row (list, _("Partition (empty: the default)"), NULL);
  a->gres = entry_row (list, _("GPUs to Ask For (gres)"), "gpu:1");
  a->time = entry_row (list, _("Time Limit (empty: the partition's)"), NULL);
  a->account = entry_row (list, _("Account (optional)"), NULL);
  a->command = entry_row (list, _("Command"), NULL);
  a->worker = entry_row (list, _("The GPU Worker There (optional path)"), NULL);
  gtk_box_append (GTK_BOX (box), list);
  a->error = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (a->error, TRUE);
  gtk_label_set_xalign (a->error, 0);
  gtk_widget_add_css_class (GTK_WIDGET (a->error), "error");
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (a->error));
  adw_message_dialog_set_extra_child (a->dialog, box);
  adw_message_dialog_add_responses (a->dialog, "cancel", _("_Cancel"), "add", _("_Add"), NULL);
  adw_message_dialog_set_response_appearance (a->dialog, "add", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (a->dialog, "add");
  adw_message_dialog_set_close_response (a->dialog, "cancel");
  g_signal_connect_swapped (a->kind, "notify::selected", G_CALLBACK (check_fields), a);
  for (GtkWidget *row = gtk_widget_get_first_child (list); row; row = gtk_widget_get_next_sibling (row))
    if (ADW_IS_ENTRY_ROW (row))
      g_signal_connect_swapped (row, "changed", G_CALLBACK (check_fields), a);
  g_signal_connect_data (dialog, "response", G_CALLBACK (on_response), a, adding_free, 0);
  check_fields (a);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* ------------------------------------------------------------------ */
/* GObject                                                            */
/* ------------------------------------------------------------------ */

static void
ws_gpu_chooser_dispose (GObject *object)
{
  WsGpuChooser *self = WS_GPU_CHOOSER (object);

  if (self->session)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  if (self->settings)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->targets, g_ptr_array_unref);
  G_OBJECT_CLASS (ws_gpu_chooser_parent_class)->dispose (object);
}

static void
ws_gpu_chooser_class_init (WsGpuChooserClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ws_gpu_chooser_dispose;
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "gpuchooser");
}

static GtkWidget *
heading (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "heading");
  return label;
}

static void
ws_gpu_chooser_init (WsGpuChooser *self)
{
  GtkWidget *status = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);

  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_box_set_spacing (GTK_BOX (self), 12);
  self->targets = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_gpu_target_free);

  self->heading = GTK_LABEL (heading (_("Measure On")));
  gtk_box_append (GTK_BOX (self), GTK_WIDGET (self->heading));
  self->places = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->places, GTK_SELECTION_NONE);
  gtk_widget_add_css_class (GTK_WIDGET (self->places), "boxed-list");
  g_signal_connect (self->places, "row-activated", G_CALLBACK (on_place_activated), self);
  gtk_box_append (GTK_BOX (self), GTK_WIDGET (self->places));

  self->status = status;
  self->status_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->status_label, TRUE);
  gtk_label_set_max_width_chars (self->status_label, 44);
  gtk_label_set_ellipsize (self->status_label, PANGO_ELLIPSIZE_END);
  gtk_label_set_lines (self->status_label, 4);
  gtk_label_set_xalign (self->status_label, 0);
  gtk_widget_set_hexpand (GTK_WIDGET (self->status_label), TRUE);
  gtk_label_set_selectable (self->status_label, TRUE);
  gtk_box_append (GTK_BOX (status), GTK_WIDGET (self->status_label));
  self->status_button = GTK_BUTTON (gtk_button_new_with_mnemonic (_("_Cancel")));
  gtk_widget_set_valign (GTK_WIDGET (self->status_button), GTK_ALIGN_CENTER);
  g_signal_connect (self->status_button, "clicked", G_CALLBACK (on_status_button), self);
  gtk_box_append (GTK_BOX (status), GTK_WIDGET (self->status_button));
  gtk_box_append (GTK_BOX (self), status);

  self->gpus_title = heading (_("Its GPUs"));
  gtk_box_append (GTK_BOX (self), self->gpus_title);
  self->gpus = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->gpus, GTK_SELECTION_NONE);
  gtk_widget_add_css_class (GTK_WIDGET (self->gpus), "boxed-list");
  g_signal_connect (self->gpus, "row-activated", G_CALLBACK (on_gpu_activated), self);
  gtk_box_append (GTK_BOX (self), GTK_WIDGET (self->gpus));
  update_status (self);
}

GtkWidget *
ws_gpu_chooser_new (GSettings *settings)
{
  WsGpuChooser *self = g_object_new (WS_TYPE_GPU_CHOOSER, NULL);

  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  self->settings = g_object_ref (settings);
  g_signal_connect_swapped (settings, "changed::gpu", G_CALLBACK (rebuild_places), self);
  g_signal_connect_swapped (settings, "changed::gpus", G_CALLBACK (rebuild_places), self);
  rebuild_places (self);
  return GTK_WIDGET (self);
}
