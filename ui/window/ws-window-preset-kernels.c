/* SPDX-License-Identifier: GPL-3.0-or-later */
/* New Kernel from Preset…: every preset, by topic, as a row; a preset with
 * a kernel text opens a copy of it on the Kernel page, one without is
 * there too, insensitive, and its tooltip says why. */
#include <glib/gi18n.h>
#include "ws-window-private.h"
#include "ws-preset-kernels.h"

static void
row_activated (AdwActionRow *row,
               GtkWindow    *dialog)
{
  GtkWidget *window = GTK_WIDGET (gtk_window_get_transient_for (dialog));
  g_autofree char *id = g_strdup (g_object_get_data (G_OBJECT (row), "preset-id"));

  gtk_window_destroy (dialog);
  gtk_widget_activate_action (window, "win.new-kernel-from-preset", "s", id);
}

static GtkWidget *
preset_row (const WsPreset *preset,
            GtkWindow      *dialog)
{
  GtkWidget *row = adw_action_row_new ();
  g_autofree char *path = ws_preset_kernel_path (preset->id);
  g_autofree char *title = g_markup_escape_text (_(preset->title), -1);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), preset->id);
  g_object_set_data_full (G_OBJECT (row), "preset-id", g_strdup (preset->id), g_free);
  if (path)
    {
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), gtk_image_new_from_icon_name ("go-next-symbolic"));
      g_signal_connect (row, "activated", G_CALLBACK (row_activated), dialog);
    }
  else
    {
      gtk_widget_set_sensitive (row, FALSE);
      gtk_widget_set_tooltip_text (row, _("This preset’s kernel is not written as a kernel text yet: its real "
                                          "kernel needs the host’s API, or has not been written out"));
    }
  return row;
}

static GtkWidget *
presets_page (GtkWindow *dialog)
{
  GtkWidget *page = adw_preferences_page_new ();
  guint n_topics, n_presets;
  const WsTopic *topics = ws_topics_get_all (&n_topics);
  const WsPreset *presets = ws_presets_get_all (&n_presets);

  for (guint t = 0; t < n_topics; t++)
    {
      GtkWidget *group = adw_preferences_group_new ();

      adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), _(topics[t].title));
      for (guint p = 0; p < n_presets; p++)
        if (g_str_equal (presets[p].topic, topics[t].id))
          adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), preset_row (&presets[p], dialog));
      adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), ADW_PREFERENCES_GROUP (group));
    }
  return page;
}

void
ws_window_choose_preset_kernel (WsWindow *self)
{
  GtkWidget *dialog = adw_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();
  GtkEventController *keys = gtk_shortcut_controller_new ();

  g_return_if_fail (WS_IS_WINDOW (self));

  gtk_widget_set_name (dialog, "preset-kernel-chooser");
  gtk_window_set_title (GTK_WINDOW (dialog), _("New Kernel from Preset"));
  gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (self));
  gtk_window_set_modal (GTK_WINDOW (dialog), TRUE);
  gtk_window_set_default_size (GTK_WINDOW (dialog), 520, 640);
  adw_header_bar_set_title_widget (ADW_HEADER_BAR (header),
                                   adw_window_title_new (_("New Kernel from Preset"),
                                                         _("A copy of the preset’s kernel, to change and save")));
  gtk_box_append (GTK_BOX (box), header);
  gtk_box_append (GTK_BOX (box), presets_page (GTK_WINDOW (dialog)));
  gtk_widget_set_vexpand (gtk_widget_get_last_child (box), TRUE);
  adw_window_set_content (ADW_WINDOW (dialog), box);
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (keys),
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Escape, 0),
                                                          gtk_named_action_new ("window.close")));
  gtk_widget_add_controller (dialog, keys);
  gtk_window_present (GTK_WINDOW (dialog));
}
