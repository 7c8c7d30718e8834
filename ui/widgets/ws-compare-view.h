/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-chart-view.h"
#include "ws-figure-view.h"
#include "ws-schedule-player.h"

G_BEGIN_DECLS

/* Two to four presets side by side: a chooser and a view for each, their
 * animations stepping together on one player, and a chart under them.
 * What the views and the chart show is given to it (the window analyses
 * and measures); it says when the presets chosen change. */

#define WS_COMPARE_VIEW_MIN 2
#define WS_COMPARE_VIEW_MAX 4

#define WS_TYPE_COMPARE_VIEW (ws_compare_view_get_type ())
G_DECLARE_FINAL_TYPE (WsCompareView, ws_compare_view, WS, COMPARE_VIEW, GtkWidget)

GtkWidget        *ws_compare_view_new            (void);
/* Two to four preset ids; emits "items-changed". */
void              ws_compare_view_set_ids        (WsCompareView       *self,
                                                  const char * const  *ids);
/* The presets chosen, in order; free with g_strfreev. */
char            **ws_compare_view_get_ids        (WsCompareView       *self);
guint             ws_compare_view_get_n_items    (WsCompareView       *self);
/* What view i shows (its kind follows the result); NULL shows nothing. */
void              ws_compare_view_set_cell       (WsCompareView       *self,
                                                  guint                i,
                                                  const WsWarpResult  *result,
                                                  const char          *title,
                                                  WsDim3               block_dim);
WsFigureView     *ws_compare_view_get_figure     (WsCompareView       *self,
                                                  guint                i);
WsChartView      *ws_compare_view_get_chart      (WsCompareView       *self);
WsSchedulePlayer *ws_compare_view_get_player     (WsCompareView       *self);
/* The menu of sets worth comparing, for the toolbar's Sets button. */
void              ws_compare_view_set_sets_menu  (WsCompareView       *self,
                                                  GMenuModel          *menu);

G_END_DECLS
