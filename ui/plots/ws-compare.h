/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-compare-figure.h"
#include "ws-comparison.h"
#include "ws-plot.h"

G_BEGIN_DECLS

/* The chart of a comparison (ws-comparison.h): the measured medians with
 * min–max bars from every source (each recording labelled with its device,
 * and live measurements), the model's cost of each beside them, and the
 * ratios and the speed-up written on the chart. No GTK. */

/* costs: one per item, or NULL while the model runs. */
WsChart       *ws_compare_build_chart    (GPtrArray           *items,
                                          const WsCompareCost *costs,
                                          const WsPlotSources *sources);

G_END_DECLS
