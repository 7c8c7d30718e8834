/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-analysis.h"

G_BEGIN_DECLS

/* One warp of a launch walked in order: its active lanes and, per access,
 * the lanes' byte addresses (global, shared, constant) or private byte
 * offsets (local), with the access's counts. Valid during the call only. */
typedef struct
{
  guint64 block;                      /* linear index: x fastest */
  WsDim3 block_idx;
  guint warp;
  guint32 active;
  guint n_accesses;
  const gint64 *const *addresses;
  const WsWarpCounts *const *counts;
} WsWarpVisit;

typedef gboolean (*WsWarpVisitor) (const WsWarpVisit *visit,
                                   gpointer           user_data,
                                   GError           **error);

/* The launch's statistics, as ws_model_analyze_launch() gives them, computed
 * on this thread with blocks in order and warps in order within a block; the
 * visitor sees every warp that has an active lane. It may fail with an error,
 * which stops the walk. */
WsLaunchStats *ws_model_walk_launch (const WsPattern *pattern,
                                     WsWarpVisitor    visit,
                                     gpointer         user_data,
                                     GCancellable    *cancellable,
                                     GError         **error);

G_END_DECLS
