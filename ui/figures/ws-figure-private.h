/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-figure.h"
#include "ws-figure-context.h"

G_BEGIN_DECLS

/* Shared by the renderers: the lane row every view starts with, captions,
 * legends and descriptions. */

#define WS_FIGURE_MARGIN 16.0

typedef struct
{
  WsRgba color;
  const char *label;
  gboolean outline;          /* drawn as an outline, not a fill */
} WsLegendItem;

/* Each renderer: draw, hit test and describe. */
#define WS_DECLARE_RENDERER(name)                                                               \
  void     ws_##name##_figure_draw     (WsFigureContext *ctx, const WsFigureFrame *frame);      \
  gboolean ws_##name##_figure_hit      (const WsFigureFrame *frame, const WsFigureStyle *style, \
                                        double width, double height, double x, double y,        \
                                        WsFigureHit *hit);                                      \
  char    *ws_##name##_figure_describe (const WsFigureFrame *frame, const WsFigureHit *hit);

WS_DECLARE_RENDERER (warp)
WS_DECLARE_RENDERER (bank)
WS_DECLARE_RENDERER (constant)
WS_DECLARE_RENDERER (local)
WS_DECLARE_RENDERER (atomic)

/* The area below the caption; h_caption is what the caption takes. */
WsBox        ws_figure_content_box        (const WsFigureFrame *frame,
                                           const WsFigureStyle *style,
                                           double               width,
                                           double               height);
void         ws_figure_draw_caption       (WsFigureContext     *ctx,
                                           const WsFigureFrame *frame,
                                           const char          *stats);
/* 32 boxes side by side, with room above for a label. */
void         ws_figure_lane_boxes         (WsBox                area,
                                           double               box_height,
                                           WsBox                boxes[WS_WARP_SIZE]);
void         ws_figure_draw_lanes         (WsFigureContext     *ctx,
                                           const WsFigureFrame *frame,
                                           const WsSchedule    *schedule,
                                           const WsBox          boxes[WS_WARP_SIZE],
                                           const WsRgba         served[WS_WARP_SIZE]);
gboolean     ws_figure_hit_lane           (const WsBox          boxes[WS_WARP_SIZE],
                                           const WsFigureFrame *frame,
                                           double               x,
                                           double               y,
                                           WsFigureHit         *hit);
void         ws_figure_draw_legend        (WsFigureContext     *ctx,
                                           double               x,
                                           double               y,
                                           double               width,
                                           const WsLegendItem  *items,
                                           guint                n_items);
double       ws_figure_legend_height      (const WsFigureStyle *style);
/* A curve from a lane down to what serves it, and a packet on its way. */
void         ws_figure_connect            (WsFigureContext     *ctx,
                                           double               x0,
                                           double               y0,
                                           double               x1,
                                           double               y1);
void         ws_figure_packet             (WsFigureContext     *ctx,
                                           double               x0,
                                           double               y0,
                                           double               x1,
                                           double               y1,
                                           double               t,
                                           WsRgba               color);
char        *ws_figure_describe_lane      (const WsFigureFrame *frame,
                                           guint                lane);
char        *ws_figure_lanes_to_string    (guint32              lanes);
char        *ws_figure_step_to_string     (int                  step);
/* Where the lane's data flows: from memory for loads, to memory for stores. */
gboolean     ws_figure_flows_up           (const WsWarpResult  *result);
/* A label on a plate of the background's colour, over the curves behind it. */
void         ws_figure_plate_text         (WsFigureContext     *ctx,
                                           double               x,
                                           double               y,
                                           const char          *text,
                                           const WsTextOptions *options);
void         ws_figure_draw_message       (WsFigureContext     *ctx,
                                           WsBox                area,
                                           const char          *message);

G_END_DECLS
