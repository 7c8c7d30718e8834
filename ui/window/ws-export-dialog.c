/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The export dialog (Ctrl+E, Ctrl+Shift+E): the figure in sight, at a
 * slide's size, in a style, with a title of one's own, named after the
 * preset, and a preview of what the file will hold; then a file chooser
 * (GtkFileChooserNative: GTK 4.8 has no GtkFileDialog) says where. */
#include "ws-config.h"

#include <glib/gi18n.h>
#include "ws-window-private.h"
#include "ws-export-dialog.h"

#include <math.h>

struct _WsExportDialog
{
  AdwWindow parent_instance;

  WsWindow *window;                /* weak: the dialog is its transient child */
  WsWindowExport what;
  WsWindowFigure *figure;

  GtkPicture *preview;
  GtkLabel *size_label;
  AdwComboRow *size_row;
  AdwComboRow *style_row;
  AdwEntryRow *title_row;
  AdwComboRow *format_row;
  AdwComboRow *scale_row;
  AdwActionRow *file_row;
  guint preview_idle;
};

G_DEFINE_FINAL_TYPE (WsExportDialog, ws_export_dialog, ADW_TYPE_WINDOW)

/* Slides, and the figure as large as the window shows it. */
static const struct
{
  int width;
  int height;
} sizes[] = { { 1920, 1080 }, { 1280, 720 }, { 2560, 1440 }, { 0, 0 } };

static const WsFigureStyleKind styles[] = { WS_FIGURE_STYLE_PRINT, WS_FIGURE_STYLE_LIGHT, WS_FIGURE_STYLE_DARK };
static const WsExportFormat formats[] = { WS_EXPORT_PNG, WS_EXPORT_SVG, WS_EXPORT_PDF, WS_EXPORT_CSV, WS_EXPORT_JSON };
static const double scales[] = { 1, 2 };

#define PREVIEW_WIDTH 480

static guint
n_formats (WsExportDialog *self)
{
  /* a view of a warp has no table behind it: CSV and JSON are a plot's */
  return self->what == WS_WINDOW_EXPORT_PLOT ? G_N_ELEMENTS (formats) : 3;
}

static void
chosen_size (WsExportDialog *self,
             double         *width,
             double         *height)
{
  guint i = MIN (adw_combo_row_get_selected (self->size_row), G_N_ELEMENTS (sizes) - 1);

  *width = sizes[i].width ? sizes[i].width : self->figure->width;
  *height = sizes[i].height ? sizes[i].height : self->figure->height;
}

WsExportFormat
ws_export_dialog_get_format (WsExportDialog *self)
{
  g_return_val_if_fail (WS_IS_EXPORT_DIALOG (self), WS_EXPORT_PNG);
  return formats[MIN (adw_combo_row_get_selected (self->format_row), n_formats (self) - 1)];
}

const WsFigureStyle *
ws_export_dialog_get_style (WsExportDialog *self)
{
  double w, h;

  g_return_val_if_fail (WS_IS_EXPORT_DIALOG (self), NULL);
  chosen_size (self, &w, &h);
  /* the type grows with the slide (ws_export_style_for_width) */
  return ws_export_style_for_width (styles[MIN (adw_combo_row_get_selected (self->style_row),
                                                G_N_ELEMENTS (styles) - 1)],
                                    w);
}

static double
chosen_scale (WsExportDialog *self)
{
  return scales[MIN (adw_combo_row_get_selected (self->scale_row), G_N_ELEMENTS (scales) - 1)];
}

char *
ws_export_dialog_get_file_name (WsExportDialog *self)
{
  g_return_val_if_fail (WS_IS_EXPORT_DIALOG (self), NULL);
  return g_strdup_printf ("%s.%s", self->figure->name, ws_export_format_to_string (ws_export_dialog_get_format (self)));
}

void
ws_export_dialog_get_size (WsExportDialog *self,
                           double         *width,
                           double         *height)
{
  double w, h;

  g_return_if_fail (WS_IS_EXPORT_DIALOG (self));
  chosen_size (self, &w, &h);
  ws_window_figure_size (self->figure, ws_export_dialog_get_style (self), w, h, width, height);
}

/* ------------------------------------------------------------------ */
/* The preview                                                        */
/* ------------------------------------------------------------------ */

static GdkTexture *
texture_of (cairo_surface_t *surface)
{
  int w = cairo_image_surface_get_width (surface), h = cairo_image_surface_get_height (surface);
  int stride = cairo_image_surface_get_stride (surface);
  g_autoptr (GBytes) bytes = NULL;

  cairo_surface_flush (surface);
  bytes = g_bytes_new (cairo_image_surface_get_data (surface), (gsize) stride * h);
  /* cairo's ARGB32 is GDK's default format, premultiplied, in native order */
  return gdk_memory_texture_new (w, h, GDK_MEMORY_DEFAULT, bytes, stride);
}

static void
update_labels (WsExportDialog *self)
{
  WsExportFormat format = ws_export_dialog_get_format (self);
  g_autofree char *name = ws_export_dialog_get_file_name (self);
  g_autofree char *text = NULL;
  double asked_w, asked_h, w, h;

  chosen_size (self, &asked_w, &asked_h);
  ws_export_dialog_get_size (self, &w, &h);
  if (!ws_export_format_is_drawing (format))
    text = g_strdup (_("The plot's data: a row for each point, with its series and unit"));
  else if (format == WS_EXPORT_PNG)
    /* Translators: the size of the image written, in pixels */
    text = g_strdup_printf (_("%.0f × %.0f pixels"), w * chosen_scale (self), h * chosen_scale (self));
  else
    /* Translators: the size of the drawing written, in points */
    text = g_strdup_printf (_("%.0f × %.0f points"), w, h);
  if (ws_export_format_is_drawing (format) && (w > asked_w || h > asked_h))
    {
      /* Translators: the size written, then why it is larger than the size chosen */
      char *longer = g_strdup_printf (_("%s: larger than asked, as this figure needs it to be legible"), text);
      g_free (text);
      text = longer;
    }
  gtk_label_set_text (self->size_label, text);
  adw_action_row_set_subtitle (self->file_row, name);
  gtk_widget_set_sensitive (GTK_WIDGET (self->scale_row), format == WS_EXPORT_PNG);
  gtk_widget_set_sensitive (GTK_WIDGET (self->style_row), ws_export_format_is_drawing (format));
  gtk_widget_set_sensitive (GTK_WIDGET (self->size_row), ws_export_format_is_drawing (format));
}

static gboolean
draw_preview (gpointer data)
{
  WsExportDialog *self = data;
  double w, h;
  cairo_surface_t *surface;
  g_autoptr (GdkTexture) texture = NULL;

  self->preview_idle = 0;
  chosen_size (self, &w, &h);
  surface = ws_window_figure_preview (self->figure, ws_export_dialog_get_style (self), w, h, PREVIEW_WIDTH);
  texture = texture_of (surface);
  gtk_picture_set_paintable (self->preview, GDK_PAINTABLE (texture));
  cairo_surface_destroy (surface);
  update_labels (self);
  return G_SOURCE_REMOVE;
}

static void
queue_preview (WsExportDialog *self)
{
  update_labels (self);
  if (self->preview_idle == 0)
    self->preview_idle = g_idle_add (draw_preview, self);
}

static void
on_title_changed (WsExportDialog *self)
{
  ws_window_figure_set_title (self->figure, gtk_editable_get_text (GTK_EDITABLE (self->title_row)));
  queue_preview (self);
}

GdkPaintable *
ws_export_dialog_get_preview (WsExportDialog *self)
{
  g_return_val_if_fail (WS_IS_EXPORT_DIALOG (self), NULL);

  /* drawn now, as the dialog shows it */
  if (self->preview_idle)
    {
      g_clear_handle_id (&self->preview_idle, g_source_remove);
      draw_preview (self);
    }
  return gtk_picture_get_paintable (self->preview);
}

/* ------------------------------------------------------------------ */
/* Writing                                                            */
/* ------------------------------------------------------------------ */

gboolean
ws_export_dialog_write (WsExportDialog *self,
                        const char     *path,
                        GError        **error)
{
  double w, h;

  g_return_val_if_fail (WS_IS_EXPORT_DIALOG (self), FALSE);
  chosen_size (self, &w, &h);
  return ws_window_export_as (self->window, self->what, path, ws_export_dialog_get_format (self), self->figure,
                              ws_export_dialog_get_style (self), w, h, chosen_scale (self), error);
}

static void
on_file_chosen (GtkNativeDialog *chooser,
                int              response,
                WsExportDialog  *self)
{
  g_autoptr (GFile) file = NULL;
  g_autofree char *path = NULL;
  g_autoptr (GError) error = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      path = g_file_get_path (file);
      if (!ws_export_dialog_write (self, path, &error))
        {
          g_autofree char *text = g_strdup_printf ("%s: %s", _("Could not export"), error->message);
          ws_window_toast (self->window, text);
        }
      else
        {
          g_autofree char *name = g_path_get_basename (path);
          /* Translators: the name of the file written */
          g_autofree char *text = g_strdup_printf (_("Exported “%s”"), name);
          ws_window_toast (self->window, text);
          gtk_window_destroy (GTK_WINDOW (self));
        }
    }
  g_object_unref (chooser);
}

static void
on_export_clicked (WsExportDialog *self)
{
  GtkFileChooserNative *chooser;
  g_autofree char *name = ws_export_dialog_get_file_name (self);

  chooser = gtk_file_chooser_native_new (_("Export"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"),
                                         NULL);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (on_file_chosen), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* ------------------------------------------------------------------ */

static AdwComboRow *
combo_row (const char         *title,
           const char * const *items)
{
  AdwComboRow *row = ADW_COMBO_ROW (adw_combo_row_new ());
  g_autoptr (GtkStringList) list = gtk_string_list_new (items);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_combo_row_set_model (row, G_LIST_MODEL (list));
  return row;
}

static void
build (WsExportDialog *self)
{
  GtkWidget *toolbar = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();
  GtkWidget *export_button = gtk_button_new_with_mnemonic (_("_Export…"));
  GtkWidget *cancel = gtk_button_new_with_mnemonic (_("_Cancel"));
  GtkWidget *body = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 18);
  GtkWidget *left = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *frame = gtk_frame_new (NULL);
  GtkWidget *group = adw_preferences_group_new ();
  g_autofree char *window_size = g_strdup_printf (_("As in the window, %.0f × %.0f"), self->figure->width,
                                                  self->figure->height);
  const char *size_names[] = { _("Slide, 1920 × 1080"), _("Slide, 1280 × 720"), _("Slide, 2560 × 1440"), window_size,
                               NULL };
  const char *style_names[] = { _("Print, larger type"), _("Light, as on screen"),
                                _("Dark, as on screen"), NULL };
  const char *format_names[] = { "PNG", "SVG", "PDF", _("CSV (the plot's data)"), _("JSON (the plot's data)"), NULL };
  const char *scale_names[] = { "1 ×", _("2 × (sharp on high-density screens)"), NULL };

  if (n_formats (self) < G_N_ELEMENTS (formats))
    format_names[n_formats (self)] = NULL;
  gtk_window_set_title (GTK_WINDOW (self),
                        self->what == WS_WINDOW_EXPORT_PLOT ? _("Export the Plot") : _("Export the Figure"));
  gtk_window_set_default_size (GTK_WINDOW (self), 980, -1);
  gtk_widget_add_css_class (export_button, "suggested-action");
  g_signal_connect_swapped (export_button, "clicked", G_CALLBACK (on_export_clicked), self);
  g_signal_connect_swapped (cancel, "clicked", G_CALLBACK (gtk_window_destroy), self);
  adw_header_bar_pack_end (ADW_HEADER_BAR (header), export_button);
  adw_header_bar_pack_start (ADW_HEADER_BAR (header), cancel);
  adw_header_bar_set_show_end_title_buttons (ADW_HEADER_BAR (header), FALSE);
  gtk_box_append (GTK_BOX (toolbar), header);

  /* what the file will hold */
  self->preview = GTK_PICTURE (gtk_picture_new ());
  gtk_picture_set_can_shrink (self->preview, TRUE);
  gtk_widget_set_size_request (GTK_WIDGET (self->preview), PREVIEW_WIDTH, 270);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->preview), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Preview of the file"), -1);
  gtk_frame_set_child (GTK_FRAME (frame), GTK_WIDGET (self->preview));
  self->size_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->size_label, TRUE);
  gtk_label_set_xalign (self->size_label, 0);
  gtk_label_set_max_width_chars (self->size_label, 50);
  gtk_widget_add_css_class (GTK_WIDGET (self->size_label), "dim-label");
  gtk_box_append (GTK_BOX (left), frame);
  gtk_box_append (GTK_BOX (left), GTK_WIDGET (self->size_label));

  /* how */
  self->size_row = combo_row (_("Size"), size_names);
  self->style_row = combo_row (_("Style"), style_names);
  self->title_row = ADW_ENTRY_ROW (adw_entry_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->title_row), _("Title"));
  gtk_editable_set_text (GTK_EDITABLE (self->title_row), self->figure->title);
  self->format_row = combo_row (_("Format"), format_names);
  self->scale_row = combo_row (_("PNG scale"), scale_names);
  self->file_row = ADW_ACTION_ROW (adw_action_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->file_row), _("File name"));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), GTK_WIDGET (self->size_row));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), GTK_WIDGET (self->style_row));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), GTK_WIDGET (self->title_row));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), GTK_WIDGET (self->format_row));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), GTK_WIDGET (self->scale_row));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), GTK_WIDGET (self->file_row));
  gtk_widget_set_hexpand (group, TRUE);
  gtk_widget_set_valign (group, GTK_ALIGN_START);

  gtk_widget_set_margin_top (body, 18);
  gtk_widget_set_margin_bottom (body, 18);
  gtk_widget_set_margin_start (body, 18);
  gtk_widget_set_margin_end (body, 18);
  gtk_box_append (GTK_BOX (body), left);
  gtk_box_append (GTK_BOX (body), group);
  gtk_box_append (GTK_BOX (toolbar), body);
  adw_window_set_content (ADW_WINDOW (self), toolbar);

  g_signal_connect_swapped (self->size_row, "notify::selected", G_CALLBACK (queue_preview), self);
  g_signal_connect_swapped (self->style_row, "notify::selected", G_CALLBACK (queue_preview), self);
  g_signal_connect_swapped (self->format_row, "notify::selected", G_CALLBACK (queue_preview), self);
  g_signal_connect_swapped (self->scale_row, "notify::selected", G_CALLBACK (update_labels), self);
  g_signal_connect_swapped (self->title_row, "changed", G_CALLBACK (on_title_changed), self);
  queue_preview (self);
}

/* ------------------------------------------------------------------ */

static void
ws_export_dialog_dispose (GObject *object)
{
  WsExportDialog *self = WS_EXPORT_DIALOG (object);

  g_clear_handle_id (&self->preview_idle, g_source_remove);
  g_clear_pointer (&self->figure, ws_window_figure_free);
  G_OBJECT_CLASS (ws_export_dialog_parent_class)->dispose (object);
}

static void
ws_export_dialog_class_init (WsExportDialogClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ws_export_dialog_dispose;
  gtk_widget_class_add_binding_action (GTK_WIDGET_CLASS (klass), GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
ws_export_dialog_init (WsExportDialog *self)
{
}

GtkWidget *
ws_export_dialog_new (WsWindow       *window,
                      WsWindowExport  what,
                      GError        **error)
{
  WsWindowFigure *figure = ws_window_figure_new (window, what, error);
  WsExportDialog *self;

  if (figure == NULL)
    return NULL;
  self = g_object_new (WS_TYPE_EXPORT_DIALOG, "transient-for", window, "modal", TRUE, NULL);
  self->window = window;
  self->what = what;
  self->figure = figure;
  build (self);
  /* the Figure style preference chooses the style it opens on */
  {
    const WsFigureStyle *preferred = ws_window_export_style (window);

    for (guint i = 0; i < G_N_ELEMENTS (styles); i++)
      if (ws_figure_style_get (styles[i]) == preferred)
        adw_combo_row_set_selected (self->style_row, i);
  }
  return GTK_WIDGET (self);
}

void
ws_export_dialog_set_choice (WsExportDialog *self,
                             guint           size,
                             guint           style,
                             guint           format)
{
  g_return_if_fail (WS_IS_EXPORT_DIALOG (self));

  adw_combo_row_set_selected (self->size_row, size);
  adw_combo_row_set_selected (self->style_row, style);
  adw_combo_row_set_selected (self->format_row, format);
}

void
ws_export_dialog_set_title (WsExportDialog *self,
                            const char     *title)
{
  g_return_if_fail (WS_IS_EXPORT_DIALOG (self));
  gtk_editable_set_text (GTK_EDITABLE (self->title_row), title);
}

const char *
ws_export_dialog_get_title (WsExportDialog *self)
{
  g_return_val_if_fail (WS_IS_EXPORT_DIALOG (self), NULL);
  return self->figure->title;
}

guint
ws_export_dialog_n_sizes (WsExportDialog *self)
{
  return g_list_model_get_n_items (adw_combo_row_get_model (self->size_row));
}

char *
ws_export_dialog_size_name (WsExportDialog *self,
                            guint           i)
{
  GListModel *model = adw_combo_row_get_model (self->size_row);

  return g_strdup (gtk_string_list_get_string (GTK_STRING_LIST (model), i));
}
