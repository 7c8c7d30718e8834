/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

#include "ws-figure-style.h"

G_BEGIN_DECLS

/* The style the views draw in on screen: light or dark as the desktop is,
 * its text larger while presenting. One for every view, so that they all
 * change together; "changed" says when, and they draw again. */

#define WS_TYPE_VIEW_STYLE (ws_view_style_get_type ())
G_DECLARE_FINAL_TYPE (WsViewStyle, ws_view_style, WS, VIEW_STYLE, GObject)

WsViewStyle         *ws_view_style_get_default    (void);
const WsFigureStyle *ws_view_style_get            (void);
double               ws_view_style_get_text_scale (void);
/* 1 normally; 1.5 presenting. Emits "changed". */
void                 ws_view_style_set_text_scale (double scale);

G_END_DECLS
