/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-comparison.h"

G_BEGIN_DECLS

/* What ws-comparison.c and ws-comparison-kernel.c (the members that are
 * kernels of one's own) share. */

/* Whether r says more about its launch than best (ws_compare_main_access). */
gboolean       ws_compare_better_access  (const WsWarpResult  *r,
                                          const WsWarpResult  *best);
/* Adds what an access of space moved (bytes, wavefronts or requests, by
 * its space) to cost; then, with every access added, makes it per warp
 * and known. */
void           ws_compare_cost_add       (WsCompareCost       *cost,
                                          WsSpace              space,
                                          const WsStats       *stats);
void           ws_compare_cost_finish    (WsCompareCost       *cost,
                                          guint64              warps);
/* "FILE.cu[:NAME][@LINE]" into an item; NULL with an error that names
 * the member and says what was wrong. */
WsCompareItem *ws_compare_kernel_item_new (const char         *spec,
                                           GError            **error);
char          *ws_compare_kernel_title    (const WsCompareItem *item,
                                           WsGettextFunc        gettext_func);
char          *ws_compare_kernel_describe (const WsCompareItem *item,
                                           gboolean             with_file);
WsWarpResult  *ws_compare_kernel_analyze  (const WsCompareItem *item,
                                           GError            **error);
gboolean       ws_compare_kernel_cost     (const WsCompareItem *item,
                                           WsCompareCost       *cost,
                                           GCancellable        *cancellable,
                                           GError             **error);

G_END_DECLS
