/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>

#include "ws-figure-style.h"
#include "ws-l2-window.h"

G_BEGIN_DECLS

/* What stays resident in L2 under a persisting access-policy window: the
 * hot set (its persisting part and the rest), L2 with the part set aside
 * for persisting lines, and what streams through between two reads of a
 * hot line, on one scale of bytes; what the model expects to stay
 * (ws_l2_residency) drawn solid, what it expects to be evicted faded. */

typedef struct
{
  const char *title;             /* or NULL */
  WsL2Window window;
} WsL2Figure;

/* The least height it is legible at, at this width. */
double ws_l2_figure_min_height (const WsL2Figure    *figure,
                                const WsFigureStyle *style,
                                double               width);
/* A WsExportDrawFunc: user_data is the WsL2Figure. */
void ws_l2_figure_draw (cairo_t             *cr,
                        const WsFigureStyle *style,
                        double               width,
                        double               height,
                        gpointer             figure);

G_END_DECLS
