/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>

#include "ws-figure-style.h"

G_BEGIN_DECLS

/* A launch as it ran: its copies and kernels as bars on a time axis, one
 * row per stream, so that overlap is seen rather than inferred. The times
 * are measured (events around each operation), from the launch's start. */

typedef enum
{
  WS_TIMELINE_KERNEL,
  WS_TIMELINE_HOST_TO_DEVICE,
  WS_TIMELINE_DEVICE_TO_HOST,
  WS_TIMELINE_PREFETCH,
  WS_N_TIMELINE_KINDS
} WsTimelineKind;

typedef struct
{
  guint stream;
  WsTimelineKind kind;
  double start_ms;
  double end_ms;
} WsTimelineBar;

typedef struct
{
  const char *title;             /* or NULL */
  const char *subtitle;          /* or NULL */
  const WsTimelineBar *bars;
  guint n_bars;
} WsTimelineFigure;

/* What the bars add up to against how long they took from the first start
 * to the last end: the difference is what overlapped. */
void ws_timeline_figure_totals (const WsTimelineFigure *timeline,
                                double                 *busy_ms,
                                double                 *elapsed_ms);
/* The bar under (x, y) in a figure of width × height, or -1. */
int  ws_timeline_figure_hit    (const WsTimelineFigure *timeline,
                                const WsFigureStyle    *style,
                                double                  width,
                                double                  height,
                                double                  x,
                                double                  y);
char *ws_timeline_figure_describe (const WsTimelineFigure *timeline,
                                   int                     bar);
/* A WsExportDrawFunc: user_data is the WsTimelineFigure. */
void ws_timeline_figure_draw   (cairo_t                *cr,
                                const WsFigureStyle    *style,
                                double                  width,
                                double                  height,
                                gpointer                timeline);

G_END_DECLS
