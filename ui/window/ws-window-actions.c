/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window's actions and their keys, and the file choosers they open. */
#include "ws-config.h"

#include <glib/gi18n.h>
#include "ws-window-private.h"
#include "ws-truth-window.h"

#include <string.h>

#include "ws-app-windows.h"

static void
load_preset_action (GtkWidget  *widget,
                    const char *name,
                    GVariant   *param)
{
  ws_window_load_preset (WS_WINDOW (widget), g_variant_get_string (param, NULL));
}

static void
new_pattern_action (GtkWidget  *widget,
                    const char *name,
                    GVariant   *param)
{
  ws_window_new_pattern (WS_WINDOW (widget));
}

static void
player_action (GtkWidget  *widget,
               const char *name,
               GVariant   *param)
{
  WsSchedulePlayer *player = ws_window_active_player (WS_WINDOW (widget));

  if (g_str_equal (name, "win.restart"))
    ws_schedule_player_restart (player);
  else
    ws_schedule_player_step (player, g_str_equal (name, "win.step-forward") ? 1 : -1);
}

static void
measure_action (GtkWidget  *widget,
                const char *name,
                GVariant   *param)
{
  WsWindow *self = WS_WINDOW (widget);

  if (g_str_equal (name, "win.measure"))
    ws_window_measure_now (self);
  else if (g_str_equal (name, "win.sweep"))
    ws_window_start_sweep (self);
  else
    ws_window_cancel_sweep (self);
}

static void
recalibrate_action (GtkWidget  *widget,
                    const char *name,
                    GVariant   *param)
{
  ws_window_calibrate (WS_WINDOW (widget), TRUE);
}

static void
banner_action (GtkWidget  *widget,
               const char *name,
               GVariant   *param)
{
  ws_banner_dismiss (WS_WINDOW (widget)->banner);
}

static void
help_action (GtkWidget  *widget,
             const char *name,
             GVariant   *param)
{
  ws_show_help_window (GTK_WINDOW (widget), g_variant_get_string (param, NULL));
}

/* How close the model is to the GPUs, starting with the one measured on */
static void
truth_action (GtkWidget  *widget,
              const char *name,
              GVariant   *param)
{
  WsWindow *self = WS_WINDOW (widget);
  WsRecording *recording = ws_session_get_recording (self->session);
  const WsDeviceInfo *d = recording ? ws_recording_get_device (recording) : NULL;
  g_autofree char *id = d && d->name ? ws_device_slug (d->name) : NULL;

  gtk_window_present (GTK_WINDOW (ws_truth_window_new (GTK_WINDOW (self), id)));
}

static void
sidebar_action (GtkWidget  *widget,
                const char *name,
                GVariant   *param)
{
  AdwFlap *flap = WS_WINDOW (widget)->flap;

  adw_flap_set_reveal_flap (flap, !adw_flap_get_reveal_flap (flap));
}

/* ------------------------------------------------------------------ */
/* Files                                                              */
/* ------------------------------------------------------------------ */

static void
show_error (WsWindow   *self,
            const char *what,
            GError     *error)
{
  g_autofree char *text = g_strdup_printf ("%s: %s", what, error->message);

  ws_window_toast (self, text);
}

static void
on_file_chosen (GtkNativeDialog *dialog,
                int              response,
                WsWindow        *self)
{
  const char *purpose = g_object_get_data (G_OBJECT (dialog), "ws-purpose");
  g_autoptr (GFile) file = NULL;
  g_autofree char *path = NULL;
  g_autoptr (GError) error = NULL;

  g_assert (WS_IS_WINDOW (self));

  if (response != GTK_RESPONSE_ACCEPT)
    goto out;
  file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  path = g_file_get_path (file);
  if (g_str_equal (purpose, "open-recording"))
    ws_window_open_recording (self, path, WS_OPEN_REPLACE);
  else if (g_str_equal (purpose, "add-recording"))
    ws_window_open_recording (self, path, WS_OPEN_ADD);
  else if (g_str_equal (purpose, "save-screenshot") && !ws_window_save_screenshot (self, path, &error))
    show_error (self, _("Could not save the screenshot"), error);
  else if (g_str_equal (purpose, "save-recording") && !ws_window_save_recording (self, path, &error))
    show_error (self, _("Could not save the recording"), error);
out:
  g_object_unref (dialog);
}

/* The folder of the bundled recordings, beside the user's own places. */
static void
add_bundled_folder (GtkFileChooser *chooser)
{
  g_auto (GStrv) paths = ws_recording_bundled_paths ();
  g_autoptr (GFile) file = NULL;
  g_autoptr (GFile) folder = NULL;

  if (paths[0] == NULL)
    return;
  file = g_file_new_for_path (paths[0]);
  folder = g_file_get_parent (file);
  /* a portal's chooser may not offer it; the menu's Bundled Recordings remain */
  gtk_file_chooser_add_shortcut_folder (chooser, folder, NULL);
}

static void
file_action (GtkWidget  *widget,
             const char *name,
             GVariant   *param)
{
  WsWindow *self = WS_WINDOW (widget);
  static const struct
  {
    const char *action;
    const char *title;
    const char *name;          /* NULL: a file to open */
  } files[] = {
    { "win.open-recording", N_("Open a Recording"), NULL },
    { "win.add-recording", N_("Plot Another Recording Beside This One"), NULL },
    { "win.save-recording", N_("Save the Measurements as a Recording"), "measurements.warpscope.json" },
    { "win.save-screenshot", N_("Save a Screenshot of the Window"), "warpscope.png" },
  };
  GtkFileChooserNative *dialog;
  guint i = 0;

  while (i < G_N_ELEMENTS (files) - 1 && !g_str_equal (files[i].action, name))
    i++;
  dialog = gtk_file_chooser_native_new (_(files[i].title), GTK_WINDOW (self),
                                        files[i].name ? GTK_FILE_CHOOSER_ACTION_SAVE : GTK_FILE_CHOOSER_ACTION_OPEN,
                                        NULL, NULL);
  if (files[i].name)
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), files[i].name);
  if (g_str_has_suffix (name, "-recording"))
    {
      /* recordings by their type (NAME.warpscope.json), and the JSON files one may be */
      g_autoptr (GtkFileFilter) type = gtk_file_filter_new ();
      gtk_file_filter_set_name (type, _("Recordings (JSON)"));
      gtk_file_filter_add_mime_type (type, WS_RECORDING_MIME_TYPE);
      gtk_file_filter_add_suffix (type, "json");
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), type);
      if (files[i].name == NULL)
        add_bundled_folder (GTK_FILE_CHOOSER (dialog));
    }
  g_object_set_data_full (G_OBJECT (dialog), "ws-purpose", g_strdup (name + strlen ("win.")), g_free);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (on_file_chosen), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* The export dialog: sizes, style, title, the file's name, a preview. */
static void
export_action (GtkWidget  *widget,
               const char *name,
               GVariant   *param)
{
  WsWindow *self = WS_WINDOW (widget);
  g_autoptr (GError) error = NULL;
  GtkWidget *dialog = ws_export_dialog_new (self, g_str_equal (name, "win.export-plot") ? WS_WINDOW_EXPORT_PLOT
                                                                                         : WS_WINDOW_EXPORT_FIGURE,
                                            &error);

  if (dialog == NULL)
    {
      show_error (self, _("Could not export"), error);
      return;
    }
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
recent_action (GtkWidget  *widget,
               const char *name,
               GVariant   *param)
{
  ws_window_open_recording (WS_WINDOW (widget), g_variant_get_string (param, NULL), WS_OPEN_REPLACE);
}

static void
bundled_action (GtkWidget  *widget,
                const char *name,
                GVariant   *param)
{
  ws_window_open_recording (WS_WINDOW (widget), g_variant_get_string (param, NULL),
                            g_str_equal (name, "win.add-bundled") ? WS_OPEN_ADD : WS_OPEN_REPLACE);
}

static void
forget_action (GtkWidget  *widget,
               const char *name,
               GVariant   *param)
{
  ws_window_forget_recordings (WS_WINDOW (widget));
}

/* ------------------------------------------------------------------ */

void
ws_window_update_actions (WsWindow *self)
{
  GtkWidget *w = GTK_WIDGET (self);
  gboolean sweeping = ws_window_is_sweeping (self);
  const char *param = ws_explore_page_sweep_param (self->explore_page);
  const WsDeviceInfo *device = ws_session_get_device (self->session);
  WsRecording *recording = ws_session_get_recording (self->session);
  gboolean can_replay = recording && !explore_edited (self);
  g_autofree char *label = g_strdup (_("_Sweep"));

  /* the parameter's underscores are not mnemonics */
  if (param)
    {
      g_auto (GStrv) parts = g_strsplit (param, "_", -1);
      g_autofree char *escaped = g_strjoinv ("__", parts);
      g_free (label);
      label = g_strdup_printf (_("_Sweep %s"), escaped);
    }

  gtk_widget_action_set_enabled (w, "win.sweep", param && !sweeping && (device || can_replay));
  gtk_widget_action_set_enabled (w, "win.cancel-sweep", sweeping);
  gtk_widget_action_set_enabled (w, "win.measure", device != NULL && !sweeping);
  gtk_widget_action_set_enabled (w, "win.recalibrate", ws_window_can_calibrate (self) && !sweeping &&
                                                          !ws_session_get_calibrating (self->session));
  gtk_widget_action_set_enabled (w, "win.save-recording", ws_session_get_live (self->session)->len > 0 || recording);
  gtk_widget_action_set_enabled (w, "win.forget-recordings", ws_session_get_compared (self->session)->len > 0);
  /* the Kernel page has no chart: its export is the listing (Ctrl+E) */
  gtk_widget_action_set_enabled (w, "win.export-plot", !ws_window_kernel_shown (self));
  ws_window_kernel_update_actions (self);
  ws_plot_panel_set_sweep_button (explore_plot (self), label,
                                  param == NULL ? _("This preset has no standard sweep")
                                  : device ? _("Measure every value of the sweep on the GPU (Ctrl+Shift+M)")
                                  : _("Replay the recorded sweep, point by point (Ctrl+Shift+M)"));
}

void
ws_window_class_init_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.load-preset", "s", load_preset_action);
  gtk_widget_class_install_action (widget_class, "win.new-pattern", NULL, new_pattern_action);
  gtk_widget_class_install_property_action (widget_class, "win.playing", "playing");
  gtk_widget_class_install_action (widget_class, "win.restart", NULL, player_action);
  gtk_widget_class_install_action (widget_class, "win.step-forward", NULL, player_action);
  gtk_widget_class_install_action (widget_class, "win.step-back", NULL, player_action);
  gtk_widget_class_install_action (widget_class, "win.measure", NULL, measure_action);
  gtk_widget_class_install_action (widget_class, "win.sweep", NULL, measure_action);
  gtk_widget_class_install_action (widget_class, "win.cancel-sweep", NULL, measure_action);
  gtk_widget_class_install_action (widget_class, "win.recalibrate", NULL, recalibrate_action);
  gtk_widget_class_install_action (widget_class, "win.dismiss-banner", NULL, banner_action);
  gtk_widget_class_install_action (widget_class, "win.show-help", "s", help_action);
  gtk_widget_class_install_action (widget_class, "win.truth", NULL, truth_action);
  gtk_widget_class_install_action (widget_class, "win.toggle-sidebar", NULL, sidebar_action);
  gtk_widget_class_install_action (widget_class, "win.open-recording", NULL, file_action);
  gtk_widget_class_install_action (widget_class, "win.save-recording", NULL, file_action);
  gtk_widget_class_install_action (widget_class, "win.add-recording", NULL, file_action);
  gtk_widget_class_install_action (widget_class, "win.open-recent", "s", recent_action);
  gtk_widget_class_install_action (widget_class, "win.open-bundled", "s", bundled_action);
  gtk_widget_class_install_action (widget_class, "win.add-bundled", "s", bundled_action);
  gtk_widget_class_install_action (widget_class, "win.forget-recordings", NULL, forget_action);
  gtk_widget_class_install_action (widget_class, "win.export-figure", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "win.export-plot", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "win.save-screenshot", NULL, file_action);
  gtk_widget_class_install_property_action (widget_class, "win.page", "page");
  gtk_widget_class_install_property_action (widget_class, "win.present", "presenting");
  ws_window_compare_class_init (widget_class);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_n, GDK_CONTROL_MASK, "win.new-pattern", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_space, GDK_CONTROL_MASK, "win.playing", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_bracketright, GDK_CONTROL_MASK, "win.step-forward", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_bracketleft, GDK_CONTROL_MASK, "win.step-back", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_r, GDK_CONTROL_MASK, "win.restart", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_m, GDK_CONTROL_MASK, "win.measure", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_m, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.sweep", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "win.cancel-sweep", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F9, 0, "win.toggle-sidebar", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F5, 0, "win.present", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.add-recording",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK, "win.export-figure", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.export-plot",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_1, GDK_ALT_MASK, "win.page", "s", "explore");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_2, GDK_ALT_MASK, "win.page", "s", "compare");
}
