/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-chart.h"

G_BEGIN_DECLS

/* A widget that draws a WsChart in the window's style, and names the point
 * under the pointer. Change the chart, then call ws_chart_view_update (). */

#define WS_TYPE_CHART_VIEW (ws_chart_view_get_type ())
G_DECLARE_FINAL_TYPE (WsChartView, ws_chart_view, WS, CHART_VIEW, GtkWidget)

GtkWidget *ws_chart_view_new       (void);
WsChart   *ws_chart_view_get_chart (WsChartView *self);
/* Takes the chart. */
void       ws_chart_view_set_chart (WsChartView *self,
                                    WsChart     *chart);
/* Rescales the axes and redraws. */
void       ws_chart_view_update    (WsChartView *self);
char      *ws_chart_view_describe_at (WsChartView *self,
                                    double       x,
                                    double       y);
/* FALSE while the chart shown is older than the chart (it is drawn on a
 * thread); a view that is not on screen counts as drawn. */
gboolean   ws_chart_view_is_drawn  (WsChartView *self);

G_END_DECLS
