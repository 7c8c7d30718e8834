/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-cli.h"
#include "ws-kernel-launch.h"
#include "ws-presets.h"

G_BEGIN_DECLS

/* What warpscope-cli model prints of a pattern (ws-cli-model-print.c). */

void          ws_cli_model_list_presets        (gboolean                  json);
/* The first warp of the launch, in launch order, with an active lane. */
WsWarpResult *ws_cli_model_first_active_warp   (const WsPattern          *pattern,
                                                guint                     access,
                                                GError                  **error);
void          ws_cli_model_print_access_stats  (const WsAccess           *access,
                                                const WsStats            *stats);
void          ws_cli_model_print_warp          (const WsPattern          *pattern,
                                                const WsWarpResult       *result);
void          ws_cli_model_print_json          (const WsPattern          *pattern,
                                                const WsLaunchStats      *stats,
                                                GPtrArray                *warps,
                                                const char               *preset,
                                                const WsLaunchPrediction *prediction,
                                                const WsKernelLaunch     *launch,
                                                const WsDeviceProfile    *profile);

G_END_DECLS
