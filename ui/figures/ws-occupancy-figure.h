/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>

#include "ws-figure-style.h"
#include "ws-occupancy.h"

G_BEGIN_DECLS

/* One SM filled with a kernel's blocks: its warp slots, with the warps of
 * each resident block; its registers, shared memory and block slots, each
 * as full as the resident blocks make it; the resource that allows the
 * fewest blocks marked; and the calculator's table beside the time
 * measured, when there is one. */

typedef struct
{
  const char *title;             /* or NULL */
  const WsSmLimits *limits;
  guint threads_per_block;
  guint registers_per_thread;
  guint shared_per_block;        /* bytes, static and dynamic */
  double measured_ms;            /* the kernel's median; 0 when none */
} WsOccupancyFigure;

/* FALSE (and a message in the figure) when the block does not fit. */
gboolean ws_occupancy_figure_compute (const WsOccupancyFigure *figure,
                                      WsOccupancy             *out);
/* The least height it is legible at, at this width: the table beside the
 * bars gives way to its last lines first. */
double   ws_occupancy_figure_min_height (const WsOccupancyFigure *figure,
                                         const WsFigureStyle     *style,
                                         double                   width);
/* A WsExportDrawFunc: user_data is the WsOccupancyFigure. */
void     ws_occupancy_figure_draw    (cairo_t                 *cr,
                                      const WsFigureStyle     *style,
                                      double                   width,
                                      double                   height,
                                      gpointer                 figure);

G_END_DECLS
