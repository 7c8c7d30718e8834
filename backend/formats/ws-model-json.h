/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "ws-analysis.h"
#include "ws-kernel.h"

G_BEGIN_DECLS

/* The model's results as JSON, for the CLI, exports and recordings. */

JsonNode *ws_pattern_to_json        (const WsPattern     *pattern);
/* The pattern again, validated; an error names the field. */
WsPattern *ws_pattern_from_json     (JsonNode            *node,
                                     GError             **error);
JsonNode *ws_stats_to_json          (const WsStats       *stats);
JsonNode *ws_launch_stats_to_json   (const WsLaunchStats *stats);
JsonNode *ws_warp_result_to_json    (const WsWarpResult  *result,
                                     const WsPattern     *pattern);
/* A kernel text's launch as ws_launch_stats_to_json () gives a pattern's:
 * the totals at the top, then "accesses", one per memory instruction of
 * the source, each with its line and column, its text and its figures. */
JsonNode *ws_kernel_stats_to_json   (const WsKernelInstance *instance,
                                     const WsKernelStats    *stats);

G_END_DECLS
