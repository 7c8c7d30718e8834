/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-analysis.h"
#include "ws-hierarchy.h"
#include "ws-measurement.h"

G_BEGIN_DECLS

/* The numbers beside the views: what the model says of the whole launch
 * (sectors per request, coalescing, wavefronts, replays), what it says
 * goes on below L1 (hit rates, L2 sectors, DRAM bytes, the predicted time
 * and the level that bounds it) and what was measured (median time,
 * bandwidth, counters), with where it came from. */

#define WS_TYPE_NUMBERS_VIEW (ws_numbers_view_get_type ())
G_DECLARE_FINAL_TYPE (WsNumbersView, ws_numbers_view, WS, NUMBERS_VIEW, GtkWidget)

GtkWidget  *ws_numbers_view_new             (void);
/* stats of the instructions in one space (and kind) over the launch; NULL while computing */
void        ws_numbers_view_set_model       (WsNumbersView       *self,
                                             const WsStats       *stats,
                                             WsSpace              space,
                                             WsAccessKind         kind,
                                             const char          *what);
void        ws_numbers_view_set_measurement (WsNumbersView       *self,
                                             const WsMeasurement *measurement,
                                             const char          *source);
/* What the hardware counters say of the model's figure (NAN model: not known yet). */
void        ws_numbers_view_set_counted     (WsNumbersView       *self,
                                             const char          *what,
                                             double               counted,
                                             double               model);
/* Below L1, for the whole launch: total NULL while the model works (state
 * says so, or why there is nothing) or without a device; what says on
 * which device. can_calibrate shows the button that measures the GPU anew
 * (win.recalibrate). */
void        ws_numbers_view_set_hierarchy   (WsNumbersView       *self,
                                             const WsHierStats   *total,
                                             const char          *what,
                                             const char          *state,
                                             gboolean             can_calibrate);
/* The predicted time per launch and the level that bounds it, with each
 * level's time in detail; NAN hides them. */
void        ws_numbers_view_set_prediction  (WsNumbersView       *self,
                                             double               seconds,
                                             const char          *bound,
                                             const char          *detail);
/* Instead of a measurement: why there is none, or that one is on its way. */
void        ws_numbers_view_set_measured_message (WsNumbersView  *self,
                                             const char          *message);
/* The text a row shows ("sectors-per-request", "median"…), for tests. */
const char *ws_numbers_view_get_value       (WsNumbersView       *self,
                                             const char          *key);

G_END_DECLS
