/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-launch-view.h"
#include "ws-view-style.h"

#include <adwaita.h>

struct _WsLaunchView
{
  GtkWidget parent_instance;

  WsTopicView view;
  WsTopicFigure *figure;

  /* the drawing, made again when something in it changes */
  cairo_surface_t *image;
  gboolean image_valid;
  int image_width;
  int image_height;
  int image_scale;
  const WsFigureStyle *image_style;
};

G_DEFINE_FINAL_TYPE (WsLaunchView, ws_launch_view, GTK_TYPE_WIDGET)

static const WsFigureStyle *
current_style (void)
{
  return ws_view_style_get ();
}

static void
invalidate (WsLaunchView *self)
{
  self->image_valid = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
ws_launch_view_snapshot (GtkWidget   *widget,
                         GtkSnapshot *snapshot)
{
  WsLaunchView *self = WS_LAUNCH_VIEW (widget);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  int scale = gtk_widget_get_scale_factor (widget);
  const WsFigureStyle *style = current_style ();
  cairo_t *cr;

  if (self->figure == NULL || w <= 0 || h <= 0)
    return;
  if (!self->image_valid || self->image_width != w || self->image_height != h || self->image_scale != scale ||
      self->image_style != style)
    {
      g_clear_pointer (&self->image, cairo_surface_destroy);
      self->image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w * scale, h * scale);
      cairo_surface_set_device_scale (self->image, scale, scale);
      cr = cairo_create (self->image);
      cairo_set_source_rgb (cr, style->background.r, style->background.g, style->background.b);
      cairo_paint (cr);
      ws_topic_figure_draw (cr, style, w, h, self->figure);
      cairo_destroy (cr);
      self->image_valid = TRUE;
      self->image_width = w;
      self->image_height = h;
      self->image_scale = scale;
      self->image_style = style;
    }
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, w, h));
  cairo_set_operator (cr, CAIRO_OPERATOR_SOURCE);
  cairo_set_source_surface (cr, self->image, 0, 0);
  cairo_paint (cr);
  cairo_destroy (cr);
}

char *
ws_launch_view_describe_at (WsLaunchView *self,
                            double        x,
                            double        y)
{
  g_return_val_if_fail (WS_IS_LAUNCH_VIEW (self), NULL);

  if (self->figure == NULL)
    return NULL;
  return ws_topic_figure_describe_at (self->figure, current_style (), gtk_widget_get_width (GTK_WIDGET (self)),
                                      gtk_widget_get_height (GTK_WIDGET (self)), x, y);
}

static gboolean
on_query_tooltip (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    data)
{
  g_autofree char *text = ws_launch_view_describe_at (WS_LAUNCH_VIEW (widget), x, y);

  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
on_dark_changed (WsLaunchView *self)
{
  g_assert (WS_IS_LAUNCH_VIEW (self));

  invalidate (self);
}

static void
ws_launch_view_finalize (GObject *object)
{
  WsLaunchView *self = WS_LAUNCH_VIEW (object);

  g_clear_pointer (&self->figure, ws_topic_figure_free);
  g_clear_pointer (&self->image, cairo_surface_destroy);
  G_OBJECT_CLASS (ws_launch_view_parent_class)->finalize (object);
}

static void
ws_launch_view_class_init (WsLaunchViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = ws_launch_view_finalize;
  widget_class->snapshot = ws_launch_view_snapshot;
  gtk_widget_class_set_css_name (widget_class, "launchview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ws_launch_view_init (WsLaunchView *self)
{
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);
  g_signal_connect_object (ws_view_style_get_default (), "changed", G_CALLBACK (on_dark_changed), self,
                           G_CONNECT_SWAPPED);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
}

GtkWidget *
ws_launch_view_new (WsTopicView view)
{
  WsLaunchView *self = g_object_new (WS_TYPE_LAUNCH_VIEW, NULL);

  self->view = view;
  return GTK_WIDGET (self);
}

WsTopicView
ws_launch_view_get_view (WsLaunchView *self)
{
  g_return_val_if_fail (WS_IS_LAUNCH_VIEW (self), WS_TOPIC_VIEW_OCCUPANCY);
  return self->view;
}

void
ws_launch_view_set_figure (WsLaunchView        *self,
                           const WsTopicFigure *figure)
{
  g_return_if_fail (WS_IS_LAUNCH_VIEW (self));

  g_clear_pointer (&self->figure, ws_topic_figure_free);
  if (figure)
    self->figure = ws_topic_figure_copy (figure);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  figure && figure->title ? figure->title : ws_topic_view_title (self->view), -1);
  invalidate (self);
}

const WsTopicFigure *
ws_launch_view_get_figure (WsLaunchView *self)
{
  g_return_val_if_fail (WS_IS_LAUNCH_VIEW (self), NULL);
  return self->figure;
}
