/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-kernel.h"
#include "ws-timing.h"

G_BEGIN_DECLS

/* A kernel text's whole launch, in one run of the VM: what each memory
 * instruction (site) asks of L1, what the caches below it and DRAM move
 * for it, and the time, with a device profile. */

typedef struct
{
  WsKernelStats *stats;        /* L1's view: per site, the total, the run's counts */
  WsHierarchy *hierarchy;      /* below L1, per site; NULL without a profile */
  WsTiming timing;             /* with a profile */
  gboolean has_timing;
} WsKernelPrediction;

/* profile NULL: L1's view only. registers: per thread, as the compiler
 * allots them (0: unknown, which never limits occupancy). */
WsKernelPrediction *ws_kernel_predict             (const WsKernelInstance *instance,
                                                   const WsDeviceProfile  *profile,
                                                   guint                   registers,
                                                   GCancellable           *cancellable,
                                                   WsAnalysisProgress     *progress,
                                                   GError                **error);
void                ws_kernel_prediction_free     (WsKernelPrediction     *prediction);

/* The sites of one source line, summed (a line may hold several memory
 * instructions); FALSE if the line has none. */
gboolean            ws_kernel_prediction_line     (const WsKernelPrediction *prediction,
                                                   const WsKernelInstance   *instance,
                                                   guint                     line,
                                                   WsStats                  *stats,
                                                   WsHierStats              *below);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsKernelPrediction, ws_kernel_prediction_free)

G_END_DECLS
