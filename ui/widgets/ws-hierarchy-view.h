/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-hierarchy-figure.h"

G_BEGIN_DECLS

/* The hierarchy view in the window: draws a WsHierarchyFigure in the
 * window's light or dark style, highlights the part under the pointer and
 * says what it is in a tooltip; Left and Right walk the parts, for the
 * keyboard. */

#define WS_TYPE_HIERARCHY_VIEW (ws_hierarchy_view_get_type ())
G_DECLARE_FINAL_TYPE (WsHierarchyView, ws_hierarchy_view, WS, HIERARCHY_VIEW, GtkWidget)

GtkWidget               *ws_hierarchy_view_new         (void);
/* Keeps a copy; NULL shows nothing. */
void                     ws_hierarchy_view_set_figure  (WsHierarchyView         *self,
                                                        const WsHierarchyFigure *figure);
const WsHierarchyFigure *ws_hierarchy_view_get_figure  (WsHierarchyView         *self);
/* What a tooltip at (x, y) would say, or NULL. */
char                    *ws_hierarchy_view_describe_at (WsHierarchyView         *self,
                                                        double                   x,
                                                        double                   y);

G_END_DECLS
