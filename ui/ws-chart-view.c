/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-chart-view.h"

#include <adwaita.h>

struct _WsChartView
{
  GtkWidget parent_instance;

  WsChart *chart;
};

G_DEFINE_FINAL_TYPE (WsChartView, ws_chart_view, GTK_TYPE_WIDGET)

static const WsFigureStyle *
current_style (void)
{
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());

  return ws_figure_style_get (dark ? WS_FIGURE_STYLE_DARK : WS_FIGURE_STYLE_LIGHT);
}

static void
ws_chart_view_snapshot (GtkWidget   *widget,
                        GtkSnapshot *snapshot)
{
  WsChartView *self = WS_CHART_VIEW (widget);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  const WsFigureStyle *style = current_style ();
  cairo_t *cr;

  if (w <= 0 || h <= 0)
    return;
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, w, h));
  cairo_set_source_rgb (cr, style->background.r, style->background.g, style->background.b);
  cairo_paint (cr);
  ws_chart_draw (cr, self->chart, style, w, h);
  cairo_destroy (cr);
}

char *
ws_chart_view_describe_at (WsChartView *self,
                           double       x,
                           double       y)
{
  guint series, point;

  g_return_val_if_fail (WS_IS_CHART_VIEW (self), NULL);
  if (!ws_chart_pick (self->chart, current_style (), gtk_widget_get_width (GTK_WIDGET (self)),
                      gtk_widget_get_height (GTK_WIDGET (self)), x, y, &series, &point))
    return NULL;
  return ws_chart_describe_point (self->chart, series, point);
}

static gboolean
on_query_tooltip (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    data)
{
  g_autofree char *text = ws_chart_view_describe_at (WS_CHART_VIEW (widget), x, y);

  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
ws_chart_view_finalize (GObject *object)
{
  WsChartView *self = WS_CHART_VIEW (object);

  g_clear_pointer (&self->chart, ws_chart_free);
  G_OBJECT_CLASS (ws_chart_view_parent_class)->finalize (object);
}

static void
ws_chart_view_class_init (WsChartViewClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_chart_view_finalize;
  GTK_WIDGET_CLASS (klass)->snapshot = ws_chart_view_snapshot;
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "chartview");
}

static void
ws_chart_view_init (WsChartView *self)
{
  self->chart = ws_chart_new ();
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark", G_CALLBACK (gtk_widget_queue_draw),
                           self, G_CONNECT_SWAPPED);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_size_request (GTK_WIDGET (self), 360, 200);
}

GtkWidget *
ws_chart_view_new (void)
{
  return g_object_new (WS_TYPE_CHART_VIEW, NULL);
}

WsChart *
ws_chart_view_get_chart (WsChartView *self)
{
  g_return_val_if_fail (WS_IS_CHART_VIEW (self), NULL);
  return self->chart;
}

void
ws_chart_view_set_chart (WsChartView *self,
                         WsChart     *chart)
{
  g_return_if_fail (WS_IS_CHART_VIEW (self));
  g_return_if_fail (chart != NULL);

  g_clear_pointer (&self->chart, ws_chart_free);
  self->chart = chart;
  ws_chart_view_update (self);
}

void
ws_chart_view_update (WsChartView *self)
{
  g_return_if_fail (WS_IS_CHART_VIEW (self));

  ws_chart_autoscale (self->chart);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
