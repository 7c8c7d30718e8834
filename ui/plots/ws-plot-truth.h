/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-chart.h"
#include "ws-truth-table.h"

G_BEGIN_DECLS

/* The truth view: how close the model is to the hardware, preset by
 * preset, from a GPU's truth table (data/truth/). Three log–log scatters of
 * the model's figure against the hardware's (the predicted time against
 * the measured median, the L2's sectors, DRAM's bytes), each with the line
 * where they are equal and the band the model is held to (25 %, 10 %,
 * 15 %); and the time's error by topic. The page a teacher shows before
 * trusting the numbers. */

typedef enum
{
  WS_TRUTH_TIME,
  WS_TRUTH_L2_SECTORS,
  WS_TRUTH_DRAM_BYTES,
  WS_TRUTH_N_QUANTITIES
} WsTruthQuantity;

#define WS_TRUTH_N_CHARTS (WS_TRUTH_N_QUANTITIES + 1)   /* and the time's error by topic */

typedef struct
{
  char *preset;
  const char *topic;         /* in the view's topics */
  double model[WS_TRUTH_N_QUANTITIES];      /* NAN where the table has no row */
  double hardware[WS_TRUTH_N_QUANTITIES];
} WsTruthPoint;

typedef struct
{
  char *device;
  char *date;                /* the table's day, "2026-11-24" */
  GPtrArray *points;         /* WsTruthPoint, one per preset */
  GPtrArray *topics;         /* char *, in the sidebar's order */
  guint within[WS_TRUTH_N_QUANTITIES];      /* presets within the band */
  guint counted[WS_TRUTH_N_QUANTITIES];     /* presets with both figures above 0 */
  WsChart *charts[WS_TRUTH_N_CHARTS];
} WsTruthView;

/* The band of each quantity, and its name: "predicted time". */
double       ws_truth_quantity_tolerance (WsTruthQuantity q);
const char  *ws_truth_quantity_name      (WsTruthQuantity q);
/* Whether model and hardware are within the quantity's band: apart by at
 * most its fraction of the larger. */
gboolean     ws_truth_within             (WsTruthQuantity q,
                                          double          model,
                                          double          hardware);

/* The view of a table: its presets (cases of typed patterns left out). */
WsTruthView *ws_truth_view_new           (const WsTruthTable *table);
void         ws_truth_view_free          (WsTruthView        *view);

/* The four charts in a grid of two by two. */
void         ws_truth_view_draw          (cairo_t             *cr,
                                          const WsFigureStyle *style,
                                          double               width,
                                          double               height,
                                          gpointer             view);
/* The point nearest (x, y) of the drawing, within reach: which chart,
 * series and point; FALSE when none. */
gboolean     ws_truth_view_pick          (const WsTruthView   *view,
                                          const WsFigureStyle *style,
                                          double               width,
                                          double               height,
                                          double               x,
                                          double               y,
                                          guint               *chart,
                                          guint               *series,
                                          guint               *point);
double       ws_truth_view_min_width     (const WsTruthView   *view,
                                          const WsFigureStyle *style);
double       ws_truth_view_min_height    (const WsTruthView   *view,
                                          const WsFigureStyle *style,
                                          double               width);
/* The numbers behind it: one row per preset and quantity, "preset, topic,
 * quantity, model, hardware, model / hardware, within"; or JSON with the
 * device, the date, the bands and the same rows. */
char        *ws_truth_view_to_csv        (const WsTruthView   *view);
char        *ws_truth_view_to_json       (const WsTruthView   *view);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsTruthView, ws_truth_view_free)

G_END_DECLS
