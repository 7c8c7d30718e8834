/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-chart-view.h"
#include "ws-plot.h"
#include "ws-session.h"

G_BEGIN_DECLS

/* The explorer's measured plot, under its views: a toolbar (what is going
 * on, what the plot shows, the sweep and its progress, Measure) over the
 * chart of the pattern shown, built by ws-plot.c from the session's
 * recordings, live measurements and running sweep, with the model's
 * prediction computed on the session's model thread.
 *
 * Property "session". Signal "rebuilt": the chart was built again (its
 * size may have changed). */

#define WS_TYPE_PLOT_PANEL (ws_plot_panel_get_type ())
G_DECLARE_FINAL_TYPE (WsPlotPanel, ws_plot_panel, WS, PLOT_PANEL, GtkWidget)

WsSession    *ws_plot_panel_get_session      (WsPlotPanel     *self);
void          ws_plot_panel_set_session      (WsPlotPanel     *self,
                                              WsSession       *session);

/* What the plot is of: the preset (NULL for a pattern of one's own) and
 * the pattern, whether it was edited, the memory space of the instruction
 * in view, and whether the editor marks the pattern wrong (then the plot
 * shows nothing stale). Nothing is built until a rebuild. */
void          ws_plot_panel_set_pattern      (WsPlotPanel     *self,
                                              const WsPreset  *preset,
                                              WsPattern       *pattern,
                                              gboolean         edited,
                                              WsSpace          space,
                                              gboolean         wrong);
/* Builds the chart now; or soon, at most 12.5 times a second (a sweep's
 * points). */
void          ws_plot_panel_rebuild          (WsPlotPanel     *self);
void          ws_plot_panel_queue_rebuild    (WsPlotPanel     *self);
/* The chart as it stands, for an export. */
WsChart      *ws_plot_panel_build_chart      (WsPlotPanel     *self);
/* A prediction made for another profile is none: forget the one kept. */
void          ws_plot_panel_forget_prediction (WsPlotPanel    *self);

/* What the plot shows; setting it builds the chart again. reset sets it
 * for a preset just opened (its lesson's), building nothing. */
WsPlotMetric  ws_plot_panel_get_metric       (WsPlotPanel     *self);
void          ws_plot_panel_set_metric       (WsPlotPanel     *self,
                                              WsPlotMetric     metric);
void          ws_plot_panel_reset_metric     (WsPlotPanel     *self,
                                              WsPlotMetric     metric);

/* The line of status at the left of the toolbar. */
void          ws_plot_panel_set_status       (WsPlotPanel     *self,
                                              const char      *text);
const char   *ws_plot_panel_get_status       (WsPlotPanel     *self);
/* The sweep's button (its label and tooltip), or the progress of a sweep
 * running, fraction done from 0 to 1, and its Cancel. */
void          ws_plot_panel_set_sweep_button (WsPlotPanel     *self,
                                              const char      *label,
                                              const char      *tooltip);
void          ws_plot_panel_show_sweeping    (WsPlotPanel     *self,
                                              gboolean         running,
                                              double           fraction);

/* Whether the prediction has come, no rebuild is waiting and the chart is
 * drawn. */
gboolean      ws_plot_panel_is_settled       (WsPlotPanel     *self);
/* Whether the session's sweep is running (the panel shows its progress,
 * and says in its status how it ended; "sweep-finished" then). */
gboolean      ws_plot_panel_is_sweeping      (WsPlotPanel     *self);
WsChartView  *ws_plot_panel_get_chart_view   (WsPlotPanel     *self);
GtkDropDown  *ws_plot_panel_get_metric_chooser (WsPlotPanel   *self);
/* The toolbar's sweep controls: the button, and while a sweep runs its
 * progress bar and Cancel. */
GtkWidget    *ws_plot_panel_get_sweep_button (WsPlotPanel     *self);
GtkWidget    *ws_plot_panel_get_sweep_progress (WsPlotPanel   *self);
GtkWidget    *ws_plot_panel_get_cancel_button (WsPlotPanel    *self);

G_END_DECLS
