/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-topic-figure.h"

G_BEGIN_DECLS

/* A view of the whole launch a topic is about (occupancy, the streams'
 * timeline, L2 residency) in the window: draws a WsTopicFigure in the
 * window's light or dark style, and says in a tooltip what is under the
 * pointer (a copy's or a kernel's times). */

#define WS_TYPE_LAUNCH_VIEW (ws_launch_view_get_type ())
G_DECLARE_FINAL_TYPE (WsLaunchView, ws_launch_view, WS, LAUNCH_VIEW, GtkWidget)

GtkWidget           *ws_launch_view_new        (WsTopicView          view);
WsTopicView          ws_launch_view_get_view   (WsLaunchView        *self);
/* Keeps a copy; NULL shows nothing. */
void                 ws_launch_view_set_figure (WsLaunchView        *self,
                                                const WsTopicFigure *figure);
const WsTopicFigure *ws_launch_view_get_figure (WsLaunchView        *self);
/* What a tooltip at (x, y) would say, or NULL. */
char                *ws_launch_view_describe_at (WsLaunchView       *self,
                                                 double              x,
                                                 double              y);

G_END_DECLS
