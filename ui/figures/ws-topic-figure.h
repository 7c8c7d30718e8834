/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>

#include "ws-figure-style.h"
#include "ws-l2-figure.h"
#include "ws-occupancy-figure.h"
#include "ws-presets.h"
#include "ws-timeline-figure.h"

G_BEGIN_DECLS

/* The views of a whole launch that a topic's lesson is about, beside the
 * views of one warp instruction: an SM filled with the kernel's blocks
 * (occupancy), the copies and kernels of a launch on their streams
 * (transfers), what stays in L2 under an access-policy window (L2
 * persistence). One figure type over the three renderers, so that a view,
 * an export and a test handle them alike; ws-plot-topic.c builds them. */

typedef enum
{
  WS_TOPIC_VIEW_OCCUPANCY,
  WS_TOPIC_VIEW_TIMELINE,
  WS_TOPIC_VIEW_L2,
  WS_N_TOPIC_VIEWS
} WsTopicView;

/* "occupancy", "timeline", "l2": the names --view takes */
const char *ws_topic_view_to_string   (WsTopicView        view);
gboolean    ws_topic_view_from_string (const char        *name,
                                       WsTopicView       *view);
/* "Occupancy", "Streams", "L2": the view's tab */
const char *ws_topic_view_title       (WsTopicView        view);
/* The view of the preset's topic, when its lesson has one (FALSE for a
 * pattern of one's own, preset NULL). */
gboolean    ws_topic_view_for         (const WsPreset    *preset,
                                       WsTopicView       *view);

typedef struct
{
  WsTopicView view;
  char *title;
  char *subtitle;                /* where the numbers come from, or NULL */
  char *message;                 /* nothing to draw: why; or NULL */
  WsOccupancyFigure occupancy;   /* its title points at title */
  GArray *bars;                  /* WsTimelineBar, or NULL */
  WsTimelineFigure timeline;     /* its title, subtitle and bars point at the above */
  WsL2Figure l2;
} WsTopicFigure;

/* A figure with nothing in it yet; title is copied. */
WsTopicFigure *ws_topic_figure_new        (WsTopicView          view,
                                           const char          *title,
                                           const char          *subtitle);
WsTopicFigure *ws_topic_figure_copy       (const WsTopicFigure *figure);
void           ws_topic_figure_free       (WsTopicFigure       *figure);
/* The least size at which it lays out legibly; drawn smaller, it says so. */
double         ws_topic_figure_min_width  (const WsTopicFigure *figure,
                                           const WsFigureStyle *style);
double         ws_topic_figure_min_height (const WsTopicFigure *figure,
                                           const WsFigureStyle *style,
                                           double               width);
/* A WsExportDrawFunc: user_data is the WsTopicFigure. */
void           ws_topic_figure_draw       (cairo_t             *cr,
                                           const WsFigureStyle *style,
                                           double               width,
                                           double               height,
                                           gpointer             figure);
/* What is under (x, y), for a tooltip, or NULL. */
char          *ws_topic_figure_describe_at (const WsTopicFigure *figure,
                                            const WsFigureStyle *style,
                                            double               width,
                                            double               height,
                                            double               x,
                                            double               y);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsTopicFigure, ws_topic_figure_free)

G_END_DECLS
