/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-figure.h"

G_BEGIN_DECLS

/* A widget that draws one figure of ui/figures for a warp instruction,
 * at the position its "position" property says, in the light or dark style
 * of the window, and says what is under the pointer. */

#define WS_TYPE_FIGURE_VIEW (ws_figure_view_get_type ())
G_DECLARE_FINAL_TYPE (WsFigureView, ws_figure_view, WS, FIGURE_VIEW, GtkWidget)

GtkWidget          *ws_figure_view_new          (WsFigureKind        kind);
WsFigureKind        ws_figure_view_get_kind     (WsFigureView       *self);
/* Keeps a copy; NULL shows nothing. */
void                ws_figure_view_set_result   (WsFigureView       *self,
                                                 const WsWarpResult *result,
                                                 const char         *title,
                                                 WsDim3              block_dim);
const WsWarpResult *ws_figure_view_get_result   (WsFigureView       *self);
double              ws_figure_view_get_position (WsFigureView       *self);
void                ws_figure_view_set_position (WsFigureView       *self,
                                                 double              position);
const WsFigureStyle *ws_figure_view_get_style   (WsFigureView       *self);
/* The least width, and the least height at a width, at which its figure
 * is legible (ws_figure_min_width); 0 with nothing to show. */
double              ws_figure_view_min_width    (WsFigureView       *self);
double              ws_figure_view_min_height   (WsFigureView       *self,
                                                 double              width);
/* What a tooltip at (x, y) would say, or NULL. */
char               *ws_figure_view_describe_at  (WsFigureView       *self,
                                                 double              x,
                                                 double              y);

G_END_DECLS
