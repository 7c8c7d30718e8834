/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "ws-kernel-launch.h"
#include "ws-kernel-predict.h"

G_BEGIN_DECLS

/* The hierarchy and the time as JSON, for `warpscope-cli model --json`
 * and whatever shows them. */

JsonNode *ws_hier_stats_to_json        (const WsHierStats        *stats);
/* The members model --json puts at its top level: l2_sectors_read,
 * l2_sectors_written, dram_bytes_read, dram_bytes_written, l1_hit_rate,
 * l2_hit_rate, predicted_ms, bound, device; and "hierarchy": the launch
 * (its description, its phases' accesses with their stats) and each
 * level's time alone. */
void      ws_prediction_add_to_json    (JsonObject               *object,
                                        const WsLaunchPrediction *prediction,
                                        const WsKernelLaunch     *launch,
                                        const WsDeviceProfile    *profile);

/* The same for a kernel text's launch: "hierarchy" has one phase, the
 * kernel, whose accesses are its memory instructions with their lines. */
void      ws_kernel_prediction_add_to_json (JsonObject               *object,
                                            const WsKernelInstance   *instance,
                                            const WsKernelPrediction *prediction,
                                            const WsDeviceProfile    *profile);

G_END_DECLS
