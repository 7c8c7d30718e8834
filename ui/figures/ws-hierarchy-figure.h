/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "ws-figure-style.h"

G_BEGIN_DECLS

/* The hierarchy view: what a whole launch moves from the SMs through L1
 * and L2 to DRAM, as the model has it and as the hardware counted it —
 * Nsight Compute's memory chart, model against hardware — and the time
 * each level would take alone, the level that bounds the launch, and the
 * measured median beside the prediction.
 *
 * Flows are bands whose thickness is their bytes: filled for the model,
 * outlined for the counters, so that a right model fills its outline.
 * Reads point towards the SMs (data comes up), writes towards DRAM.
 *
 * The figure is plain data: ui/plots (ws-plot-hierarchy.h) fills it from
 * the model's hierarchy, its timing and a measurement with counters. Pure
 * cairo + pango, the same on screen and in an exported file. */

typedef enum
{
  WS_HIER_SMS,               /* the warps' memory instructions */
  WS_HIER_L1,
  WS_HIER_L2,
  WS_HIER_DRAM,
  WS_HIER_N_LEVELS
} WsHierLevel;

/* The links between levels: link i joins level i and level i + 1. */
#define WS_HIER_N_LINKS (WS_HIER_N_LEVELS - 1)

typedef enum
{
  WS_HIER_READ,              /* data coming up, towards the SMs */
  WS_HIER_WRITE,             /* data going down (stores; atomics at L2) */
  WS_HIER_N_DIRECTIONS
} WsHierDirection;

/* One quantity as the model has it and as the counters counted it; NAN
 * where there is none. */
typedef struct
{
  double model;
  double counted;
} WsHierPair;

#define WS_HIER_PAIR_NONE ((WsHierPair) { NAN, NAN })

typedef struct
{
  WsHierPair bytes;
  guint unit;                /* 32: the counters count 32-byte sectors; 1: bytes */
  char *counter;             /* the counters' names, for the tooltip; NULL for none */
  char *note;                /* more for the tooltip (requests, partial sectors…), or NULL */
} WsHierFlow;

typedef struct
{
  char *name;                /* "L2" */
  char *detail;              /* "50 MiB, 40 MiB of it reusable", or NULL */
  WsHierPair hit_rate;       /* 0 … 1, NAN where the level has none */
  char *hit_what;            /* "of load sectors", for the tooltip */
  char *note;                /* more for the tooltip, or NULL */
} WsHierBox;

/* A term of the time: one level's work over its throughput. */
typedef struct
{
  char *name;                /* "DRAM" */
  double seconds;
  char *note;                /* "134 MB at 4.6 TB/s", for the tooltip; or NULL */
} WsHierTerm;

#define WS_HIER_MAX_TERMS 10

typedef enum
{
  WS_HIER_HIT_NONE,
  WS_HIER_HIT_LEVEL,         /* index: the level */
  WS_HIER_HIT_FLOW,          /* index: the link, direction */
  WS_HIER_HIT_TERM,          /* index: the term */
  WS_HIER_HIT_PREDICTED,
  WS_HIER_HIT_MEASURED,
} WsHierHitKind;

typedef struct
{
  WsHierHitKind kind;
  int index;
  WsHierDirection direction;
} WsHierHit;

#define WS_HIER_HIT_INIT ((WsHierHit) { WS_HIER_HIT_NONE, -1, WS_HIER_READ })

typedef struct
{
  char *title;
  char *subtitle;            /* where the model's numbers and the counters come from */
  char *message;             /* in place of the flows and the time, when there is nothing to show; or NULL */
  char *model_name;          /* the legend: "model, NVIDIA H200 profile" */
  char *counted_name;        /* "counted on NVIDIA H200, recorded"; NULL without counters */
  int counted_hue;           /* the counters' colour: the hue of their source in the charts */
  WsHierBox levels[WS_HIER_N_LEVELS];
  WsHierFlow flows[WS_HIER_N_LINKS][WS_HIER_N_DIRECTIONS];
  WsHierTerm terms[WS_HIER_MAX_TERMS];
  guint n_terms;
  int bound;                 /* the term that bounds the launch, -1 for none */
  double predicted_s;        /* NAN without a prediction */
  double measured_s;         /* the median, NAN when not measured */
  double measured_lo;
  double measured_hi;
  char *measured_name;       /* "measured on NVIDIA H200, median of 10" */
  WsHierHit hover;           /* what the pointer is on, highlighted */
} WsHierarchyFigure;

/* A figure with nothing in it: every pair NAN, no terms, unit 32 on the
 * links above DRAM and 1 below. Strings are the figure's to free. */
WsHierarchyFigure *ws_hierarchy_figure_new          (void);
void               ws_hierarchy_figure_free         (WsHierarchyFigure   *figure);
WsHierarchyFigure *ws_hierarchy_figure_copy         (const WsHierarchyFigure *figure);
/* Adds a term of the time; returns it, or NULL when there are too many. */
WsHierTerm        *ws_hierarchy_figure_add_term     (WsHierarchyFigure   *figure,
                                                     const char          *name,
                                                     double               seconds,
                                                     const char          *note);

/* The least width, and the least height at a width, at which the figure
 * lays out with nothing cut and no text below the style's smallest size;
 * drawn smaller, it says so instead. The natural height is the one at
 * which every term of the time has its row. */
double             ws_hierarchy_figure_min_width    (const WsHierarchyFigure *figure,
                                                     const WsFigureStyle *style);
double             ws_hierarchy_figure_min_height   (const WsHierarchyFigure *figure,
                                                     const WsFigureStyle *style,
                                                     double               width);
double             ws_hierarchy_figure_natural_height (const WsHierarchyFigure *figure,
                                                     const WsFigureStyle *style,
                                                     double               width);
void               ws_hierarchy_figure_draw         (cairo_t             *cr,
                                                     const WsHierarchyFigure *figure,
                                                     const WsFigureStyle *style,
                                                     double               width,
                                                     double               height);
gboolean           ws_hierarchy_figure_hit_test     (const WsHierarchyFigure *figure,
                                                     const WsFigureStyle *style,
                                                     double               width,
                                                     double               height,
                                                     double               x,
                                                     double               y,
                                                     WsHierHit           *hit);
/* What the thing under the pointer is, model and counters, for a tooltip. */
char              *ws_hierarchy_figure_describe     (const WsHierarchyFigure *figure,
                                                     const WsHierHit     *hit);
gboolean           ws_hier_hit_equal                (const WsHierHit     *a,
                                                     const WsHierHit     *b);
/* A WsExportDrawFunc: user_data is the WsHierarchyFigure. */
void               ws_hierarchy_figure_export_draw  (cairo_t             *cr,
                                                     const WsFigureStyle *style,
                                                     double               width,
                                                     double               height,
                                                     gpointer             figure);

/* "134 MB", "1.07 GB", "0 B" */
char              *ws_hier_format_bytes             (double               bytes);
/* "4.19 M", "986 k", "12" */
char              *ws_hier_format_count             (double               count);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsHierarchyFigure, ws_hierarchy_figure_free)

G_END_DECLS
