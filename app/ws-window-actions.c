/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window's actions and their keys, exporting figures and screenshots. */
#include "ws-config.h"
#include "ws-window-private.h"

#include <cairo-pdf.h>
#include <string.h>
#include <cairo-svg.h>

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
  WsSchedulePlayer *player = WS_WINDOW (widget)->player;

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
banner_action (GtkWidget  *widget,
               const char *name,
               GVariant   *param)
{
  gtk_widget_set_visible (WS_WINDOW (widget)->banner, FALSE);
}

static void
help_action (GtkWidget  *widget,
             const char *name,
             GVariant   *param)
{
  ws_show_help_window (GTK_WINDOW (widget), g_variant_get_string (param, NULL));
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

static WsFigureView *
visible_view (WsWindow *self)
{
  GtkWidget *child = gtk_stack_get_visible_child (self->view_stack);

  return WS_IS_FIGURE_VIEW (child) ? WS_FIGURE_VIEW (child) : NULL;
}

/* The figure in view, as PNG, SVG or PDF (by the file's name), in the
 * export style the preferences ask for. */
gboolean
ws_window_export_figure (WsWindow   *self,
                         const char *path,
                         GError    **error)
{
  WsFigureView *view = visible_view (self);
  g_autofree char *style_name = g_settings_get_string (self->settings, "export-style");
  const WsFigureStyle *style = g_str_equal (style_name, "print") ? ws_figure_style_get (WS_FIGURE_STYLE_PRINT)
                                                                  : ws_figure_view_get_style (view);
  g_autofree char *title = ws_window_describe_pattern (self);
  WsFigureFrame frame = { ws_figure_view_get_result (view), title, ws_pattern_get_block (self->pattern),
                          ws_figure_view_get_position (view), WS_FIGURE_HIT_NONE };
  double w = MAX (800, gtk_widget_get_width (GTK_WIDGET (view))), h = MAX (480, gtk_widget_get_height (GTK_WIDGET (view)));
  cairo_surface_t *surface;
  cairo_t *cr;
  cairo_status_t status;

  if (g_str_has_suffix (path, ".svg"))
    surface = cairo_svg_surface_create (path, w, h);
  else if (g_str_has_suffix (path, ".pdf"))
    surface = cairo_pdf_surface_create (path, w, h);
  else
    surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 2 * w, 2 * h);
  cr = cairo_create (surface);
  if (cairo_surface_get_type (surface) == CAIRO_SURFACE_TYPE_IMAGE)
    cairo_scale (cr, 2, 2);
  cairo_set_source_rgb (cr, style->background.r, style->background.g, style->background.b);
  cairo_paint (cr);
  ws_figure_draw (ws_figure_view_get_kind (view), cr, &frame, style, w, h);
  cairo_destroy (cr);
  if (cairo_surface_get_type (surface) == CAIRO_SURFACE_TYPE_IMAGE)
    status = cairo_surface_write_to_png (surface, path);
  else
    {
      /* SVG and PDF are written as the surface finishes */
      cairo_surface_finish (surface);
      status = cairo_surface_status (surface);
    }
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "could not write %s: %s", path,
                   cairo_status_to_string (status));
      return FALSE;
    }
  return TRUE;
}

static void
show_error (WsWindow   *self,
            const char *what,
            GError     *error)
{
  g_autofree char *text = g_strdup_printf ("%s: %s", what, error->message);
  ws_window_set_status (self, text);
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

  if (response != GTK_RESPONSE_ACCEPT)
    goto out;
  file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  path = g_file_get_path (file);
  if (g_str_equal (purpose, "open-recording"))
    ws_window_load_recording (self, path);
  else if (g_str_equal (purpose, "export-figure") && !ws_window_export_figure (self, path, &error))
    show_error (self, "Could not export the figure", error);
  else if (g_str_equal (purpose, "save-screenshot") && !ws_window_save_screenshot (self, path, &error))
    show_error (self, "Could not save the screenshot", error);
  else if (g_str_equal (purpose, "save-recording") && !ws_window_save_recording (self, path, &error))
    show_error (self, "Could not save the recording", error);
out:
  g_object_unref (dialog);
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
    { "win.open-recording", "Open a Recording", NULL },
    { "win.save-recording", "Save the Measurements as a Recording", "warpscope-recording.json" },
    { "win.export-figure", "Export the Figure (PNG, SVG or PDF)", "warpscope-figure.svg" },
    { "win.save-screenshot", "Save a Screenshot of the Window", "warpscope.png" },
  };
  GtkFileChooserNative *dialog;
  guint i = 0;

  while (i < G_N_ELEMENTS (files) - 1 && !g_str_equal (files[i].action, name))
    i++;
  dialog = gtk_file_chooser_native_new (files[i].title, GTK_WINDOW (self),
                                        files[i].name ? GTK_FILE_CHOOSER_ACTION_SAVE : GTK_FILE_CHOOSER_ACTION_OPEN,
                                        NULL, NULL);
  if (files[i].name)
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), files[i].name);
  g_object_set_data_full (G_OBJECT (dialog), "ws-purpose", g_strdup (name + strlen ("win.")), g_free);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (on_file_chosen), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* ------------------------------------------------------------------ */

void
ws_window_update_actions (WsWindow *self)
{
  GtkWidget *w = GTK_WIDGET (self);
  gboolean sweeping = ws_window_is_sweeping (self);
  const char *param = ws_window_sweep_param (self);
  gboolean can_replay = self->recording && !self->edited;
  g_autofree char *label = g_strdup ("_Sweep");

  /* the parameter's underscores are not mnemonics */
  if (param)
    {
      g_auto (GStrv) parts = g_strsplit (param, "_", -1);
      g_autofree char *escaped = g_strjoinv ("__", parts);
      g_free (label);
      label = g_strdup_printf ("_Sweep %s", escaped);
    }

  gtk_widget_action_set_enabled (w, "win.sweep", param && !sweeping && (self->device || can_replay));
  gtk_widget_action_set_enabled (w, "win.cancel-sweep", sweeping);
  gtk_widget_action_set_enabled (w, "win.measure", self->device != NULL && !sweeping);
  gtk_widget_action_set_enabled (w, "win.save-recording", self->live && self->live->len > 0);
  gtk_button_set_label (GTK_BUTTON (self->sweep_button), label);
  gtk_widget_set_tooltip_text (self->sweep_button,
                               param == NULL ? "This preset has no standard sweep"
                               : self->device ? "Measure every value of the sweep on the GPU (Ctrl+Shift+M)"
                               : "Replay the recorded sweep, point by point (Ctrl+Shift+M)");
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
  gtk_widget_class_install_action (widget_class, "win.dismiss-banner", NULL, banner_action);
  gtk_widget_class_install_action (widget_class, "win.show-help", "s", help_action);
  gtk_widget_class_install_action (widget_class, "win.toggle-sidebar", NULL, sidebar_action);
  gtk_widget_class_install_action (widget_class, "win.open-recording", NULL, file_action);
  gtk_widget_class_install_action (widget_class, "win.save-recording", NULL, file_action);
  gtk_widget_class_install_action (widget_class, "win.export-figure", NULL, file_action);
  gtk_widget_class_install_action (widget_class, "win.save-screenshot", NULL, file_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_n, GDK_CONTROL_MASK, "win.new-pattern", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_space, GDK_CONTROL_MASK, "win.playing", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_bracketright, GDK_CONTROL_MASK, "win.step-forward", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_bracketleft, GDK_CONTROL_MASK, "win.step-back", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_r, GDK_CONTROL_MASK, "win.restart", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_m, GDK_CONTROL_MASK, "win.measure", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_m, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.sweep", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "win.cancel-sweep", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F9, 0, "win.toggle-sidebar", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.open-recording", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK, "win.export-figure", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK, "win.save-recording", NULL);
}
