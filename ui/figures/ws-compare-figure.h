/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-comparison.h"
#include "ws-export.h"

G_BEGIN_DECLS

/* A comparison: two to four views of warp instructions side by side, at
 * one position of their schedules, over one chart of what they cost. Each
 * view is drawn by ws_figure_draw, the chart by ws_chart_draw. */

typedef struct
{
  WsExportFigure cells[WS_COMPARE_MAX];
  guint n_cells;
  const WsChart *chart;      /* NULL: the views alone */
} WsCompareFigure;

/* The least width, and the least height at a width, at which every view
 * and the chart lay out with nothing cut; drawn smaller, it says so. */
double ws_compare_figure_min_width  (const WsCompareFigure *compare,
                                     const WsFigureStyle   *style);
double ws_compare_figure_min_height (const WsCompareFigure *compare,
                                     const WsFigureStyle   *style,
                                     double                 width);
/* The height at which none of its views folds. */
double ws_compare_figure_natural_height (const WsCompareFigure *compare,
                                         const WsFigureStyle   *style,
                                         double                 width);
/* Where cell i goes in a figure of width × height (the chart takes the rest below). */
WsBox  ws_compare_figure_cell_box   (const WsCompareFigure *compare,
                                     const WsFigureStyle   *style,
                                     guint                  i,
                                     double                 width,
                                     double                 height);
WsBox  ws_compare_figure_chart_box  (const WsCompareFigure *compare,
                                     const WsFigureStyle   *style,
                                     double                 width,
                                     double                 height);
void   ws_compare_figure_draw       (cairo_t               *cr,
                                     const WsFigureStyle   *style,
                                     double                 width,
                                     double                 height,
                                     gpointer               compare);

G_END_DECLS
