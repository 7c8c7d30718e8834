/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-compare-figure.h"
#include "ws-comparison.h"
#include "ws-plot.h"

G_BEGIN_DECLS

/* The chart of a comparison (ws-comparison.h): the measured medians with
 * min–max bars from every source (each recording labelled with its device,
 * and live measurements), the model's predicted time of each on the same
 * axis (or, without a device, its cost on a right axis), and the ratios and
 * the speed-up written on the chart. No GTK. */

/* costs: one per item, or NULL while the model runs; predicted: one per
 * item (its seconds NAN where there is none), or NULL; model_device names
 * the profile they were predicted on. */
WsChart       *ws_compare_build_chart    (GPtrArray              *items,
                                          const WsCompareCost    *costs,
                                          const WsPlotPrediction *predicted,
                                          const char             *model_device,
                                          const WsPlotSources    *sources);
/* The model's predicted time for each item, on a profile: one
 * WsPlotPrediction per item (with the model's cost as metric); NULL if
 * cancelled. */
GArray        *ws_compare_predict        (GPtrArray              *items,
                                          const WsDeviceProfile  *profile,
                                          GCancellable           *cancellable);
/* ws_compare_cost_compute for each item, side by side, each kept on disk
 * as the model's times are (ws-plot-cache.h). costs: one per item. */
gboolean       ws_compare_costs          (GPtrArray              *items,
                                          WsCompareCost          *costs,
                                          GCancellable           *cancellable,
                                          GError                **error);

G_END_DECLS
