/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-kernel-launch.h"
#include "ws-measurement.h"

G_BEGIN_DECLS

#define WS_CLI_DEVICE_HELP N_("Device profile for the hierarchy and the time: an id of data/devices/ " \
                              "(nvidia-h200, nvidia-h100-80gb-hbm3) or a file (default: the bundled recording's device)")

/* The profile --device names (an id or a file), else the session's choice
 * for the bundled recording's GPU (ws-session-profile.c), without looking
 * for a GPU: the model needs none. */
WsDeviceProfile    *ws_cli_device_profile    (const char               *requested,
                                              GError                  **error);
/* The prediction for pattern: its preset's real kernel if it is the
 * preset's, else the pattern itself. */
WsLaunchPrediction *ws_cli_predict           (const char               *preset,
                                              const WsPattern          *pattern,
                                              const WsDeviceProfile    *profile,
                                              WsKernelLaunch          **launch,
                                              GError                  **error);
void                ws_cli_print_prediction  (const WsLaunchPrediction *prediction,
                                              const WsKernelLaunch     *launch,
                                              const WsDeviceProfile    *profile);

G_END_DECLS
