/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>

#include "ws-analysis.h"
#include "ws-figure-context.h"
#include "ws-figure-style.h"

G_BEGIN_DECLS

/* The views of one warp instruction. Each is a pure cairo + pango renderer:
 * ws_figure_draw (kind, cr, frame, style, width, height). The figure plays
 * the model's schedule (frame->position steps served); it computes nothing
 * about the hardware itself. */

typedef enum
{
  WS_FIGURE_WARP,        /* lanes → 32-byte sectors and 128-byte lines (global, local, registers) */
  WS_FIGURE_BANKS,       /* the 32 shared-memory banks, wavefront by wavefront */
  WS_FIGURE_CONSTANT,    /* distinct addresses, served one after another */
  WS_FIGURE_LOCAL,       /* the private array's slots, interleaved per lane */
  WS_FIGURE_ATOMICS,     /* lanes contending for each address */
  WS_N_FIGURES
} WsFigureKind;

typedef enum
{
  WS_HIT_NONE,
  WS_HIT_LANE,           /* index: the lane */
  WS_HIT_SECTOR,         /* address: the sector's first byte */
  WS_HIT_LINE,           /* address: the line's first byte */
  WS_HIT_BANK,           /* index: the bank */
  WS_HIT_WORD,           /* index: the bank, address: the word's byte address, step */
  WS_HIT_ADDRESS,        /* address: a distinct address (constant, atomics) */
  WS_HIT_SLOT,           /* local: index the lane, address the private word */
} WsHitKind;

typedef struct
{
  WsHitKind kind;
  int index;
  gint64 address;
  int step;              /* the step that serves it, -1 when none */
} WsFigureHit;

#define WS_FIGURE_HIT_NONE ((WsFigureHit) { WS_HIT_NONE, -1, 0, -1 })

/* What to draw: everything, or the two layers of an animation frame — what
 * changes once per step, and the packets that move every frame. */
typedef enum
{
  WS_FIGURE_LAYERS_ALL,
  WS_FIGURE_LAYERS_STILL,
  WS_FIGURE_LAYERS_PACKETS,
} WsFigureLayers;

typedef struct
{
  const WsWarpResult *result;
  const char *title;         /* a caption above the figure, or NULL for none */
  WsDim3 block_dim;          /* to name each lane's threadIdx; zeros when unknown */
  double position;           /* steps served, 0 … n_steps; a fraction is a step in flight */
  WsFigureHit hover;         /* what the pointer is on, highlighted */
  WsFigureLayers layers;
} WsFigureFrame;

typedef enum
{
  WS_STEP_PENDING,
  WS_STEP_SERVING,
  WS_STEP_DONE,
} WsStepState;

typedef enum
{
  WS_LANE_INACTIVE,          /* no access: the lane does not exist or its guard is false */
  WS_LANE_WAITING,
  WS_LANE_SERVING,
  WS_LANE_SERVED,
} WsLaneState;

/* Where the animation is in the model's schedule. */
typedef struct
{
  guint n_steps;
  int current;               /* the step in flight, -1 when none */
  double t;                  /* how far it is, 0 … 1 */
  int first_step[WS_WARP_SIZE];
  int last_step[WS_WARP_SIZE];
  double position;
} WsSchedule;

const char  *ws_figure_kind_to_string     (WsFigureKind        kind);
const char  *ws_figure_kind_title         (WsFigureKind        kind);
gboolean     ws_figure_kind_from_string   (const char         *name,
                                           WsFigureKind       *kind);
gboolean     ws_figure_applies            (WsFigureKind        kind,
                                           WsSpace             space,
                                           WsAccessKind        access);
/* The figures that apply to a result, the first being the main one. */
guint        ws_figure_kinds_for          (const WsWarpResult *result,
                                           WsFigureKind        kinds[WS_N_FIGURES]);

void         ws_figure_draw               (WsFigureKind         kind,
                                           cairo_t             *cr,
                                           const WsFigureFrame *frame,
                                           const WsFigureStyle *style,
                                           double               width,
                                           double               height);
/* The least width, and the least height at a width, at which a figure lays
 * out with nothing cut and no text below its style's smallest size. Drawn
 * smaller, a figure says so instead. */
double       ws_figure_min_width          (WsFigureKind         kind,
                                           const WsFigureFrame *frame,
                                           const WsFigureStyle *style);
double       ws_figure_min_height         (WsFigureKind         kind,
                                           const WsFigureFrame *frame,
                                           const WsFigureStyle *style,
                                           double               width);
/* The height at which nothing of the figure folds ("⋮ 26 more"): the one to
 * draw it at where there is room. */
double       ws_figure_natural_height     (WsFigureKind         kind,
                                           const WsFigureFrame *frame,
                                           const WsFigureStyle *style,
                                           double               width);
gboolean     ws_figure_hit_test           (WsFigureKind         kind,
                                           const WsFigureFrame *frame,
                                           const WsFigureStyle *style,
                                           double               width,
                                           double               height,
                                           double               x,
                                           double               y,
                                           WsFigureHit         *hit);
/* What the thing under the pointer is, for a tooltip. */
char        *ws_figure_describe           (WsFigureKind         kind,
                                           const WsFigureFrame *frame,
                                           const WsFigureHit   *hit);
gboolean     ws_figure_hit_equal          (const WsFigureHit   *a,
                                           const WsFigureHit   *b);

void         ws_schedule_init             (WsSchedule         *schedule,
                                           const WsWarpResult *result,
                                           double              position);
WsStepState  ws_schedule_step_state       (const WsSchedule   *schedule,
                                           guint               step);
WsLaneState  ws_schedule_lane_state       (const WsSchedule   *schedule,
                                           const WsWarpResult *result,
                                           guint               lane);
gboolean     ws_box_contains              (const WsBox        *box,
                                           double              x,
                                           double              y);

G_END_DECLS
