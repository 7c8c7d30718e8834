/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A gutter column of the kernel editor: the figures of each line, drawn
 * with one Pango layout, as wide as the widest; the hardware's column puts
 * a mark in the style's error colour before a line where model and
 * counters differ, and figures that belong to an older text are drawn
 * faint until the next ones come. */
#include <glib/gi18n.h>
#include "ws-kernel-gutter.h"
#include "ws-kernel-editor-private.h"

#include <adwaita.h>

struct _WsKernelGutter
{
  GtkSourceGutterRenderer parent_instance;

  WsKernelEditor *editor;        /* owns the gutter */
  gboolean measured;
  int width;                     /* of the widest figures, in pixels */
  PangoLayout *layout;           /* between begin and end */
};

G_DEFINE_FINAL_TYPE (WsKernelGutter, ws_kernel_gutter, GTK_SOURCE_TYPE_GUTTER_RENDERER)

/* "≠ 4 sect/req", marked up: the mark in red, faint when stale. */
static char *
markup_at (WsKernelGutter *self,
           guint           line)
{
  WsKernelFigure f;
  g_autofree char *escaped = NULL;
  const char *mark;

  if (!ws_kernel_editor_figure_at (self->editor, line, self->measured, &f) || f.text == NULL || *f.text == '\0')
    return NULL;
  escaped = g_markup_escape_text (f.text, -1);
  /* libadwaita's error colour, light or dark */
  mark = !self->measured ? "" : !f.line->mismatch ? "  "
       : adw_style_manager_get_dark (adw_style_manager_get_default ())
           ? "<span foreground=\"#ff7b63\" weight=\"bold\">≠</span> "
           : "<span foreground=\"#c01c28\" weight=\"bold\">≠</span> ";
  return g_strdup_printf ("<span%s>%s%s</span>", f.stale ? " alpha=\"45%\"" : "", mark, escaped);
}

char *
ws_kernel_gutter_text_at (WsKernelGutter *self,
                          guint           line)
{
  g_autofree char *markup = NULL;
  char *text = NULL;

  g_return_val_if_fail (WS_IS_KERNEL_GUTTER (self), NULL);

  markup = markup_at (self, line);
  if (markup && !pango_parse_markup (markup, -1, 0, NULL, &text, NULL, NULL))
    return NULL;
  return text;
}

gboolean
ws_kernel_gutter_get_measured (WsKernelGutter *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_GUTTER (self), FALSE);
  return self->measured;
}

void
ws_kernel_gutter_update (WsKernelGutter *self)
{
  g_autoptr (PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  guint n = gtk_text_buffer_get_line_count (GTK_TEXT_BUFFER (ws_kernel_editor_get_buffer (self->editor)));
  int width = 0;

  g_return_if_fail (WS_IS_KERNEL_GUTTER (self));

  ws_kernel_editor_figures_refresh (self->editor);
  for (guint line = 1; line <= n; line++)
    {
      g_autofree char *markup = markup_at (self, line);
      int w;

      if (markup == NULL)
        continue;
      pango_layout_set_markup (layout, markup, -1);
      pango_layout_get_pixel_size (layout, &w, NULL);
      width = MAX (width, w);
    }
  gtk_widget_set_visible (GTK_WIDGET (self), width > 0);
  if (width != self->width)
    {
      self->width = width;
      gtk_widget_queue_resize (GTK_WIDGET (self));
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
ws_kernel_gutter_measure (GtkWidget      *widget,
                          GtkOrientation  orientation,
                          int             for_size,
                          int            *minimum,
                          int            *natural,
                          int            *minimum_baseline,
                          int            *natural_baseline)
{
  WsKernelGutter *self = WS_KERNEL_GUTTER (widget);
  int pad = gtk_source_gutter_renderer_get_xpad (GTK_SOURCE_GUTTER_RENDERER (self));

  *minimum = *natural = orientation == GTK_ORIENTATION_HORIZONTAL && self->width > 0 ? self->width + 2 * pad : 0;
  *minimum_baseline = *natural_baseline = -1;
}

static void
ws_kernel_gutter_begin (GtkSourceGutterRenderer *renderer,
                        GtkSourceGutterLines    *lines)
{
  WsKernelGutter *self = WS_KERNEL_GUTTER (renderer);

  ws_kernel_editor_figures_refresh (self->editor);
  g_clear_object (&self->layout);
  self->layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
}

static void
ws_kernel_gutter_snapshot_line (GtkSourceGutterRenderer *renderer,
                                GtkSnapshot             *snapshot,
                                GtkSourceGutterLines    *lines,
                                guint                    line)
{
  WsKernelGutter *self = WS_KERNEL_GUTTER (renderer);
  g_autofree char *markup = markup_at (self, line + 1);
  GtkStyleContext *style;
  GdkRGBA color, rule;
  int y, height, text_height;

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  style = gtk_widget_get_style_context (GTK_WIDGET (self));
  gtk_style_context_get_color (style, &color);
  G_GNUC_END_IGNORE_DEPRECATIONS
  gtk_source_gutter_lines_get_line_yrange (lines, line, GTK_SOURCE_GUTTER_RENDERER_ALIGNMENT_MODE_CELL, &y, &height);
  /* a faint rule between the text and the figures, down every line */
  if (!self->measured)
    {
      rule = color;
      rule.alpha *= 0.15f;
      gtk_snapshot_append_color (snapshot, &rule, &GRAPHENE_RECT_INIT (0, y, 1, height));
    }
  if (markup == NULL || self->layout == NULL)
    return;
  pango_layout_set_markup (self->layout, markup, -1);
  pango_layout_get_pixel_size (self->layout, NULL, &text_height);
  gtk_source_gutter_lines_get_line_yrange (lines, line, GTK_SOURCE_GUTTER_RENDERER_ALIGNMENT_MODE_FIRST, &y, &height);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (gtk_source_gutter_renderer_get_xpad (renderer),
                                                          y + (height - text_height) / 2.0f));
  gtk_snapshot_append_layout (snapshot, self->layout, &color);
  gtk_snapshot_restore (snapshot);
}

static void
ws_kernel_gutter_end (GtkSourceGutterRenderer *renderer)
{
  g_clear_object (&WS_KERNEL_GUTTER (renderer)->layout);
}

static gboolean
ws_kernel_gutter_query_activatable (GtkSourceGutterRenderer *renderer,
                                    GtkTextIter             *iter,
                                    GdkRectangle            *area)
{
  WsKernelGutter *self = WS_KERNEL_GUTTER (renderer);
  WsKernelFigure f;

  return ws_kernel_editor_figure_at (self->editor, (guint) gtk_text_iter_get_line (iter) + 1, self->measured, &f);
}

static void
ws_kernel_gutter_activate (GtkSourceGutterRenderer *renderer,
                           GtkTextIter             *iter,
                           GdkRectangle            *area,
                           guint                    button,
                           GdkModifierType          state,
                           int                      n_presses)
{
  WsKernelGutter *self = WS_KERNEL_GUTTER (renderer);

  if (button == GDK_BUTTON_PRIMARY && n_presses == 1)
    ws_kernel_editor_activate_line (self->editor, (guint) gtk_text_iter_get_line (iter) + 1);
}

/* The line's figures in full, from where the pointer is. */
static gboolean
query_tooltip_cb (WsKernelGutter *self,
                  int             x,
                  int             y,
                  gboolean        keyboard,
                  GtkTooltip     *tooltip)
{
  GtkTextView *view = GTK_TEXT_VIEW (gtk_source_gutter_renderer_get_view (GTK_SOURCE_GUTTER_RENDERER (self)));
  g_autofree char *text = NULL;
  GtkTextIter iter;
  double vx, vy;
  int bx, by;

  if (keyboard || view == NULL ||
      !gtk_widget_translate_coordinates (GTK_WIDGET (self), GTK_WIDGET (view), x, y, &vx, &vy))
    return FALSE;
  gtk_text_view_window_to_buffer_coords (view, GTK_TEXT_WINDOW_WIDGET, (int) vx, (int) vy, &bx, &by);
  gtk_text_view_get_line_at_y (view, &iter, by, NULL);
  text = ws_kernel_editor_describe_line (self->editor, (guint) gtk_text_iter_get_line (&iter) + 1);
  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
ws_kernel_gutter_dispose (GObject *object)
{
  g_clear_object (&WS_KERNEL_GUTTER (object)->layout);
  G_OBJECT_CLASS (ws_kernel_gutter_parent_class)->dispose (object);
}

static void
ws_kernel_gutter_class_init (WsKernelGutterClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkSourceGutterRendererClass *renderer_class = GTK_SOURCE_GUTTER_RENDERER_CLASS (klass);

  object_class->dispose = ws_kernel_gutter_dispose;
  widget_class->measure = ws_kernel_gutter_measure;
  renderer_class->begin = ws_kernel_gutter_begin;
  renderer_class->snapshot_line = ws_kernel_gutter_snapshot_line;
  renderer_class->end = ws_kernel_gutter_end;
  renderer_class->query_activatable = ws_kernel_gutter_query_activatable;
  renderer_class->activate = ws_kernel_gutter_activate;
  gtk_widget_class_set_css_name (widget_class, "kernelgutter");
}

static void
ws_kernel_gutter_init (WsKernelGutter *self)
{
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), NULL);
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

GtkSourceGutterRenderer *
ws_kernel_gutter_new (WsKernelEditor *editor,
                      gboolean        measured)
{
  WsKernelGutter *self = g_object_new (WS_TYPE_KERNEL_GUTTER, "xpad", measured ? 8 : 10, NULL);

  self->editor = editor;
  self->measured = measured;
  return GTK_SOURCE_GUTTER_RENDERER (self);
}
