/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-figure.h"
#include "ws-figure-context.h"
#include "ws-figure-i18n-private.h"

G_BEGIN_DECLS

/* Shared by the renderers: the frame every view sits in (caption, legend),
 * the row of 32 lanes every view starts with, rows that fold when there are
 * more than fit, legends and descriptions.
 *
 * Layouts never cut text and never draw it below the style's smallest size:
 * a label that does not fit is left out (the tooltip still says it), a row
 * of labels thins out to a ruler, rows fold ("⋮ 26 more"), and a figure too
 * small for even that says so instead of drawing (ws_figure_min_width and
 * ws_figure_min_height say how small it may be). */

#define WS_FIGURE_MARGIN 16.0

typedef struct
{
  WsRgba color;
  const char *label;
  gboolean outline;          /* drawn as an outline, not a fill */
  gboolean hues;             /* the colour stands for the first hues, at its alpha: coloured by step */
} WsLegendItem;

/* Where a view's parts go: the caption at the top (beside the step
 * counter), the legend at the bottom, the content between them. */
typedef struct
{
  double caption_w;
  double caption_h;
  WsBox content;
  double bottom;             /* below the content: the legend, its gap and the margin */
  double legend_y;
  double legend_h;
} WsFigureLayout;

/* What a view needs: its least width, and at the context's width its
 * least height (rows fold) and the height at which nothing folds. */
typedef struct
{
  double width;
  double height;
  double natural;
} WsFigureNeeds;

/* The room the curves from the lanes take where a view is at its natural height. */
#define WS_FIGURE_NATURAL_BAND 60.0

/* Each renderer: lay out, draw, hit test and describe; say what it needs. */
#define WS_DECLARE_RENDERER(name)                                                                          \
  void          ws_##name##_figure_draw     (WsFigureContext *ctx, const WsFigureFrame *frame);              \
  gboolean      ws_##name##_figure_hit      (WsFigureContext *ctx, const WsFigureFrame *frame, double x,      \
                                             double y, WsFigureHit *hit);                                  \
  char         *ws_##name##_figure_describe (const WsFigureFrame *frame, const WsFigureHit *hit);           \
  WsFigureNeeds ws_##name##_figure_needs    (WsFigureContext *ctx, const WsFigureFrame *frame);

WS_DECLARE_RENDERER (warp)
WS_DECLARE_RENDERER (bank)
WS_DECLARE_RENDERER (constant)
WS_DECLARE_RENDERER (local)
WS_DECLARE_RENDERER (atomic)

/* ------------------------------------------------------------------ */
/* The frame                                                          */
/* ------------------------------------------------------------------ */

void         ws_figure_layout_frame       (WsFigureContext     *ctx,
                                           const WsFigureFrame *frame,
                                           const char          *stats,
                                           const WsLegendItem  *legend,
                                           guint                n_legend,
                                           WsFigureLayout      *lay);
/* The caption and the legend of a layout. */
void         ws_figure_draw_frame         (WsFigureContext     *ctx,
                                           const WsFigureFrame *frame,
                                           const WsFigureLayout *lay,
                                           const char          *stats,
                                           const WsLegendItem  *legend,
                                           guint                n_legend);
/* One line of legend: for figures whose legend is known to fit on one. */
double       ws_figure_legend_line_height (const WsFigureStyle *style);
double       ws_figure_legend_height      (WsFigureContext     *ctx,
                                           double               width,
                                           const WsLegendItem  *items,
                                           guint                n_items);
void         ws_figure_draw_legend        (WsFigureContext     *ctx,
                                           double               x,
                                           double               y,
                                           double               width,
                                           const WsLegendItem  *items,
                                           guint                n_items);
/* The width of the step counter at the top right; 0 when there is none. */
double       ws_figure_counter_width      (WsFigureContext     *ctx,
                                           const WsFigureFrame *frame);

/* ------------------------------------------------------------------ */
/* Rows of 32: lanes, banks                                           */
/* ------------------------------------------------------------------ */

/* 32 boxes side by side, each labelled with its number where the number
 * fits inside at the smallest size or more, else numbered every few boxes
 * above the row, like a ruler. */
typedef struct
{
  WsBox boxes[WS_WARP_SIZE];
  double label_size;         /* inside: the numbers' size */
  guint every;               /* 1: every box, inside; else a ruler above, every this many */
  double ruler_h;            /* the room a ruler takes above the row */
} WsIndexRow;

/* The room above a row of lanes for the word "lane" and a ruler: the most
 * it takes; at a row's width, what it takes there (no ruler where the
 * numbers fit in the boxes). */
double       ws_figure_index_row_above    (const WsFigureStyle *style);
double       ws_figure_index_row_above_at (WsFigureContext     *ctx,
                                           double               row_width);
void         ws_figure_index_row          (WsFigureContext     *ctx,
                                           WsBox                area,
                                           WsIndexRow          *row);
/* The least width at which 32 boxes are still boxes. */
/* (six pixels a box: four of them side by side fit a projector's 1280) */
#define WS_FIGURE_MIN_ROW_WIDTH (WS_WARP_SIZE * 6.0)
/* The numbers of a row: inside, in text (one colour per box), or the ruler. */
void         ws_figure_draw_index_labels  (WsFigureContext     *ctx,
                                           const WsIndexRow    *row,
                                           const WsRgba         text[WS_WARP_SIZE],
                                           const char          *first_word);
/* The lanes: word_x ≥ 0 puts the word "lane" there, beside the row;
 * else it goes above the first lane. */
void         ws_figure_draw_lanes         (WsFigureContext     *ctx,
                                           const WsFigureFrame *frame,
                                           const WsSchedule    *schedule,
                                           const WsIndexRow    *row,
                                           const WsRgba         served[WS_WARP_SIZE],
                                           double               word_x);
gboolean     ws_figure_hit_lane           (const WsIndexRow    *row,
                                           const WsFigureFrame *frame,
                                           double               x,
                                           double               y,
                                           WsFigureHit         *hit);

/* ------------------------------------------------------------------ */
/* Rows that fold                                                     */
/* ------------------------------------------------------------------ */

/* n rows shown in at most `slots` slots: all of them, or the first `head`,
 * a fold that stands for the rows between, and the last `tail`. */
typedef struct
{
  guint n;
  guint head;
  guint tail;
} WsFold;

void         ws_fold_init                 (WsFold              *fold,
                                           guint                n,
                                           guint                slots);
gboolean     ws_fold_folded               (const WsFold        *fold);
guint        ws_fold_n_slots              (const WsFold        *fold);
/* The slot a row is shown in (the fold's for a folded row). */
guint        ws_fold_slot_of              (const WsFold        *fold,
                                           guint                row);
/* The row a slot shows, or -1 for the fold. */
int          ws_fold_row_of               (const WsFold        *fold,
                                           guint                slot);
/* "⋮ 26 more wavefronts (4–29)": how many rows are left out, what they
 * are, and the first and last of them as the figure labels its rows (first
 * and last are the labels of rows fold->head and n - tail - 1). */
char        *ws_fold_describe             (const WsFold        *fold,
                                           const char          *what,
                                           const char          *first,
                                           const char          *last);
/* The same for rows the figure numbers from base (0 or 1). */
char        *ws_fold_describe_numbered    (const WsFold        *fold,
                                           const char          *what,
                                           guint                base);
/* The smallest height of a row whose label is text at the smallest size. */
double       ws_figure_min_row_height     (const WsFigureStyle *style);

/* ------------------------------------------------------------------ */
/* Curves, packets, words                                             */
/* ------------------------------------------------------------------ */

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
/* A message in the middle of an area, wrapped, at the body size or, where
 * that does not fit, the smallest. */
void         ws_figure_draw_message       (WsFigureContext     *ctx,
                                           WsBox                area,
                                           const char          *message);
/* "Too small to draw legibly: this view needs 520 × 400", in place of a
 * figure drawn smaller than it may be. */
void         ws_figure_draw_too_small     (cairo_t             *cr,
                                           const WsFigureStyle *style,
                                           double               width,
                                           double               height,
                                           const char          *what,
                                           double               need_width,
                                           double               need_height);
double       ws_figure_message_height     (WsFigureContext     *ctx,
                                           double               width,
                                           const char          *message);

G_END_DECLS
